//! Playing levels 1-10 and what each means for the search.

use super::params::SearchParams;
use super::search::{Limits, SearchRequest};
use crate::rules::Position;
use std::fmt;
use std::time::Duration;

/// A playing strength from 1 (a beginner: shallow, with random slips) to 10 (the full
/// search for the whole time budget).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u8);

/// Per level 1-10: the deepest iteration (`None`: no cap) and the evaluation noise in
/// hundredths of a man. Noise makes a level misjudge positions now and then, the way a
/// person does; shallow depth makes it miss combinations.
const SETTINGS: [(Option<u32>, i32); 10] = [
    (Some(1), 150),
    (Some(2), 100),
    (Some(3), 70),
    (Some(4), 50),
    (Some(5), 35),
    (Some(6), 20),
    (Some(8), 10),
    (Some(10), 5),
    // Level 10 reaches 10-13 plies in 100 ms of the middle game and 17-20 in the 3 s it
    // thinks against a person: a cap of 12 keeps level 9 below it at any speed (at 16
    // it played as level 10 did until the ending).
    (Some(12), 0),
    (None, 0),
];

/// The contempt of a computer player: it avoids a repetition unless it would otherwise
/// be worse by more than this (hundredths of a man).
pub(super) const CONTEMPT: i32 = 15;

impl Level {
    /// The weakest level.
    pub const MIN: Level = Level(1);
    /// The strongest level.
    pub const MAX: Level = Level(10);

    /// Level `n`, if `n` is 1-10.
    pub const fn new(n: u8) -> Option<Level> {
        if n >= 1 && n <= 10 {
            Some(Level(n))
        } else {
            None
        }
    }

    /// The level's number, 1-10.
    pub const fn number(self) -> u8 {
        self.0
    }

    const fn settings(self) -> (Option<u32>, i32) {
        SETTINGS[self.0 as usize - 1]
    }

    /// The deepest iteration this level searches (`None`: as deep as time allows).
    pub(crate) const fn max_depth(self) -> Option<u32> {
        self.settings().0
    }

    /// The evaluation noise of this level, in hundredths of a man (0: none).
    pub(crate) const fn noise(self) -> i32 {
        self.settings().1
    }

    /// The longest a computer player of this level thinks about a move in a game
    /// against a person: 0.75 s at level 1 up to 3 s at level 10 (the lower levels stop
    /// earlier, at their depth).
    pub const fn movetime(self) -> Duration {
        Duration::from_millis(500 + 250 * self.0 as u64)
    }

    /// Whether a computer player at this level resigns a hopeless game (the weaker
    /// levels play on to the end, as beginners do).
    pub(crate) const fn may_resign(self) -> bool {
        self.0 >= 5
    }

    /// The search this level makes for `position`, reached through `history` (earlier
    /// positions, oldest first), with `movetime` to think as a budget: about that on
    /// average, up to [`budget_most`](SearchParams::budget_most) times it when the best
    /// move is in doubt (see [`Limits::target`]). On a clock, set the request's
    /// [`Limits::clock`] too: the search then keeps within what the clock allows.
    /// `seed` varies the level's randomness (use a different one per game). It plays
    /// from the opening book where it can (the weaker levels with variety).
    pub(crate) fn request(
        self,
        position: Position,
        history: Vec<Position>,
        movetime: Duration,
        seed: u64,
    ) -> SearchRequest {
        let params = SearchParams::DEFAULT;
        SearchRequest {
            position,
            history,
            limits: Limits {
                depth: self.max_depth(),
                ..Limits::budget(movetime, movetime.saturating_mul(params.budget_most))
            },
            noise: self.noise(),
            seed,
            contempt: CONTEMPT,
            egdb: None,
            evaluation: Default::default(),
            network: None,
            book: true,
            params,
            // A player with one legal move plays it without thinking.
            only_move_at_once: true,
            // Every thread searches as one does: more threads add strength to a level
            // only as more time would.
            threads: 1,
            // A player needs the best move only.
            lines: 1,
        }
    }
}

impl Default for Level {
    /// Level 5.
    fn default() -> Level {
        Level(5)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "level {}", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn higher_levels_search_deeper_with_less_noise_and_more_time() {
        let levels: Vec<Level> = (1..=10).filter_map(Level::new).collect();
        assert_eq!(levels.len(), 10);
        for pair in levels.windows(2) {
            let (a, b) = (pair[0], pair[1]);
            assert!(b.max_depth().unwrap_or(u32::MAX) > a.max_depth().unwrap_or(u32::MAX));
            assert!(b.noise() <= a.noise());
            assert!(b.movetime() >= a.movetime());
        }
        assert_eq!(Level::MAX.to_string(), "level 10");
        let request = Level::MIN.request(Position::start(), Vec::new(), Level::MIN.movetime(), 9);
        assert_eq!(request.limits.depth, Some(1));
        assert_eq!(request.noise, 150);
    }
}
