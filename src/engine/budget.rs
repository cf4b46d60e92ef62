//! Time as a budget: when a search given a target time (see
//! [`Limits::target`](super::Limits::target)) stops between iterations.

use super::score::Score;
use crate::rules::Move;
use std::time::Duration;

/// How far past its target a budgeted search may run when its best move keeps changing
/// or its score falls (the computer players' wall is this many times their target).
pub const BUDGET_MOST: u32 = 3;

/// Another iteration starts only while the time spent is under this share of the time
/// allowed (it then runs on, past the time allowed if need be, up to the wall).
const START_SHARE: f64 = 1.0;

/// What a search with a time budget has seen of its iterations so far.
#[derive(Default)]
pub(crate) struct Budget {
    last_best: Option<Move>,
    last_score: Option<i32>,
    settled_for: u32,
}

impl Budget {
    /// After an iteration at `depth` that chose `best` with `score`: whether to stop.
    /// Another iteration starts only while under [`START_SHARE`] of the time allowed
    /// is spent; it then takes about as long as all before it. The time allowed is the target,
    /// twice that while the best move changes, more while the score falls, and 0.8 of
    /// it once the move has stood for four iterations with the score holding.
    pub(crate) fn spent(
        &mut self,
        depth: u32,
        best: Move,
        score: Score,
        elapsed: Duration,
        target: Duration,
        hard: Duration,
    ) -> bool {
        let changed = self.last_best.is_some_and(|m| m != best);
        self.settled_for = if changed { 0 } else { self.settled_for + 1 };
        let fall = match (self.last_score, score.centi_men()) {
            (Some(before), Some(now)) => before - now,
            _ => 0,
        };
        self.last_best = Some(best);
        self.last_score = score.centi_men();
        if depth < 4 {
            return false;
        }
        let mut share = 1.0;
        if changed {
            share *= 2.0;
        } else if self.settled_for >= 4 && fall < 20 {
            share *= 0.8;
        }
        if fall >= 50 {
            share *= 2.0;
        } else if fall >= 20 {
            share *= 1.4;
        }
        let allowed = target.mul_f64(share).min(hard);
        elapsed > allowed.mul_f64(START_SHARE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    const MS: Duration = Duration::from_millis(1);

    fn moves() -> (Move, Move) {
        let ms = Position::start().legal_moves();
        (ms[0], ms[1])
    }

    #[test]
    fn a_settled_move_stops_early_and_a_changing_one_runs_on() {
        let (a, b) = moves();
        let target = 100 * MS;
        let hard = 300 * MS;
        // The same move for eight iterations: settled, so 0.8 of the target is allowed.
        let mut settled = Budget::default();
        for depth in 1..=8 {
            assert!(!settled.spent(depth, a, Score(10), 10 * MS, target, hard));
        }
        assert!(!settled.spent(9, a, Score(10), 75 * MS, target, hard));
        assert!(settled.spent(10, a, Score(10), 85 * MS, target, hard));
        // A move that changed at this iteration: twice the target allowed, so 190 ms
        // spent still starts another iteration; once it stands, the target again.
        let mut changing = Budget::default();
        for depth in 1..=8 {
            changing.spent(depth, a, Score(10), 10 * MS, target, hard);
        }
        assert!(!changing.spent(9, b, Score(10), 190 * MS, target, hard));
        assert!(changing.spent(10, b, Score(10), 110 * MS, target, hard));
    }

    #[test]
    fn a_falling_score_buys_time_but_never_past_the_wall() {
        let (a, _) = moves();
        let target = 100 * MS;
        let mut falling = Budget::default();
        for depth in 1..=5 {
            falling.spent(depth, a, Score(40), 10 * MS, target, 150 * MS);
        }
        // Down 60: twice the target, but the wall of 150 ms caps it.
        assert!(!falling.spent(6, a, Score(-20), 140 * MS, target, 150 * MS));
        assert!(falling.spent(7, a, Score(-80), 160 * MS, target, 150 * MS));
        // Shallow iterations always go on.
        let mut shallow = Budget::default();
        assert!(!shallow.spent(1, a, Score(0), 500 * MS, target, 150 * MS));
    }
}
