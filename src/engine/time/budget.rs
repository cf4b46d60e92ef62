//! When a search stops between iterations: time as a budget (a target time, see
//! [`Limits::target`]), or within a movetime.

use super::Limits;
use crate::engine::Score;
use crate::engine::SearchParams;
use crate::rules::Move;
use std::time::Duration;

/// What a search with a time budget has seen of its iterations so far.
#[derive(Default)]
pub(crate) struct Budget {
    last_best: Option<Move>,
    last_score: Option<i32>,
    settled_for: u32,
}

/// `limits` for a root with `pieces` on the board: the target scaled by the stage of the
/// game ([`SearchParams::stage_share`]), once for the whole search; the wall stays.
pub(crate) fn staged_limits(limits: Limits, pieces: u32, params: &SearchParams) -> Limits {
    let target = limits.target.map(|target| {
        Duration::try_from_secs_f64(target.as_secs_f64() * params.stage_share(pieces))
            .unwrap_or(target)
    });
    Limits { target, ..limits }
}

impl Budget {
    /// After an iteration at `depth` that chose `best` with `score`, `elapsed` into a
    /// search within `limits` (as planned): whether to start no other. With a target,
    /// once [`spent`](Self::spent); with only a movetime, once the next iteration could
    /// hardly finish in it (it would be cut short at the deadline anyway, keeping any
    /// better move it found).
    pub(crate) fn stop_after(
        &mut self,
        depth: u32,
        best: Move,
        score: Score,
        elapsed: Duration,
        limits: &Limits,
        params: &SearchParams,
    ) -> bool {
        if let Some(target) = limits.target {
            let hard = limits
                .movetime
                .unwrap_or(target.saturating_mul(params.budget_most));
            self.spent(depth, best, score, elapsed, target, hard, params)
        } else if let Some(movetime) = limits.movetime {
            elapsed.as_secs_f64() > movetime.as_secs_f64() * params.iteration_start_share
        } else {
            false
        }
    }

    /// After an iteration at `depth` that chose `best` with `score`: whether to stop.
    /// Another iteration starts only while the time allowed is not yet spent; it then
    /// takes about as long as all before it (running on past the time allowed if need
    /// be, up to the wall `hard`). The time allowed is the target, twice that while
    /// the best move changes, more while the score falls, and 0.8 of it once the move
    /// has stood for four iterations with the score holding (the numbers are `params`'
    /// `budget_*`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn spent(
        &mut self,
        depth: u32,
        best: Move,
        score: Score,
        elapsed: Duration,
        target: Duration,
        hard: Duration,
        params: &SearchParams,
    ) -> bool {
        let changed = self.last_best.is_some_and(|m| m != best);
        self.settled_for = if changed { 0 } else { self.settled_for + 1 };
        let fall = match (self.last_score, score.centi_men()) {
            (Some(before), Some(now)) => before - now,
            _ => 0,
        };
        self.last_best = Some(best);
        self.last_score = score.centi_men();
        if depth < params.budget_from_depth {
            return false;
        }
        let mut share = params.budget_aim;
        if changed {
            share *= params.budget_changed_share;
        } else if self.settled_for >= params.budget_settled_after && fall < params.budget_small_fall
        {
            share *= params.budget_settled_share;
        }
        if fall >= params.budget_big_fall {
            share *= params.budget_big_fall_share;
        } else if fall >= params.budget_small_fall {
            share *= params.budget_small_fall_share;
        }
        let allowed = Duration::try_from_secs_f64(target.as_secs_f64() * share)
            .unwrap_or(hard)
            .min(hard);
        elapsed > allowed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    const MS: Duration = Duration::from_millis(1);

    /// The shares below are counted from the whole target.
    const WHOLE_TARGET: SearchParams = SearchParams {
        budget_aim: 1.0,
        ..SearchParams::DEFAULT
    };

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
            assert!(!settled.spent(depth, a, Score(10), 10 * MS, target, hard, &WHOLE_TARGET));
        }
        assert!(!settled.spent(9, a, Score(10), 75 * MS, target, hard, &WHOLE_TARGET));
        assert!(settled.spent(10, a, Score(10), 85 * MS, target, hard, &WHOLE_TARGET));
        // A move that changed at this iteration: twice the target allowed, so 190 ms
        // spent still starts another iteration; once it stands, the target again.
        let mut changing = Budget::default();
        for depth in 1..=8 {
            changing.spent(depth, a, Score(10), 10 * MS, target, hard, &WHOLE_TARGET);
        }
        assert!(!changing.spent(9, b, Score(10), 190 * MS, target, hard, &WHOLE_TARGET));
        assert!(changing.spent(10, b, Score(10), 110 * MS, target, hard, &WHOLE_TARGET));
    }

    #[test]
    fn a_falling_score_buys_time_but_never_past_the_wall() {
        let (a, _) = moves();
        let target = 100 * MS;
        let mut falling = Budget::default();
        for depth in 1..=5 {
            falling.spent(
                depth,
                a,
                Score(40),
                10 * MS,
                target,
                150 * MS,
                &WHOLE_TARGET,
            );
        }
        // Down 60: twice the target, but the wall of 150 ms caps it.
        assert!(!falling.spent(6, a, Score(-20), 140 * MS, target, 150 * MS, &WHOLE_TARGET));
        assert!(falling.spent(7, a, Score(-80), 160 * MS, target, 150 * MS, &WHOLE_TARGET));
        // Shallow iterations always go on.
        let mut shallow = Budget::default();
        assert!(!shallow.spent(1, a, Score(0), 500 * MS, target, 150 * MS, &WHOLE_TARGET));
    }

    #[test]
    fn the_opening_is_given_more_of_the_target_and_the_ending_less() {
        let (a, _) = moves();
        // Neither settling nor the aim changes the time allowed here: the stages alone.
        let flat = SearchParams {
            budget_settled_share: 1.0,
            ..WHOLE_TARGET
        };
        let staged = SearchParams {
            budget_opening_share: 2.0,
            budget_middle_share: 1.5,
            budget_ending_share: 0.5,
            ..flat
        };
        let limits = Limits::budget(100 * MS, 300 * MS);
        // Whether a search of a position with `pieces` stops within five iterations of
        // the same move, each finished at `elapsed`.
        let stops = |params: &SearchParams, pieces: u32, elapsed: Duration| {
            let mut budget = Budget::default();
            let limits = staged_limits(limits, pieces, params);
            (1..=5).any(|depth| budget.stop_after(depth, a, Score(0), elapsed, &limits, params))
        };
        // 24 pieces: twice the target allowed; 16: one and a half; 6: a half.
        assert!(!stops(&staged, 24, 190 * MS));
        assert!(stops(&staged, 24, 210 * MS));
        assert!(!stops(&staged, 16, 140 * MS));
        assert!(stops(&staged, 16, 160 * MS));
        assert!(!stops(&staged, 6, 45 * MS));
        assert!(stops(&staged, 6, 55 * MS));
        // With the shares at 1, every stage is given the target.
        for pieces in [24, 16, 6] {
            assert!(!stops(&flat, pieces, 95 * MS), "{pieces} pieces");
            assert!(stops(&flat, pieces, 105 * MS), "{pieces} pieces");
        }
    }

    #[test]
    fn the_aim_counts_the_time_allowed_from_a_share_of_the_target() {
        let (a, _) = moves();
        let target = 100 * MS;
        let aim = SearchParams {
            budget_aim: 0.5,
            ..WHOLE_TARGET
        };
        let mut whole = Budget::default();
        let mut half = Budget::default();
        for depth in 1..=5 {
            assert!(!whole.spent(depth, a, Score(0), 60 * MS, target, 300 * MS, &WHOLE_TARGET));
            let spent = half.spent(depth, a, Score(0), 60 * MS, target, 300 * MS, &aim);
            // Shallow iterations always go on; from the fourth, 60 ms is past half of it.
            assert_eq!(
                spent,
                depth >= WHOLE_TARGET.budget_from_depth,
                "depth {depth}"
            );
        }
    }
}
