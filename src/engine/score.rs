//! Search scores: hundredths of a man, or a forced win or loss in a number of plies.

use std::fmt;

/// The score of a won position for the side to move, before subtracting the plies to the
/// win. Every score at least [`Score::WIN_THRESHOLD`] in size is a forced result.
const WIN: i32 = 30_000;
/// Scores this large or larger (in size) are forced wins or losses.
const WIN_THRESHOLD: i32 = WIN - 1_000;

/// A search score from the point of view of the side to move.
///
/// Ordinary scores are in hundredths of a man (a man is worth 100). A forced win is
/// stored as `WIN - plies` and a forced loss as `-(WIN - plies)`, so that a nearer win
/// scores higher. `Display` writes `35`, `-120`, `win in 7` or `loss in 4` (plies).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Score(pub(crate) i32);

impl Score {
    /// A drawn position.
    pub const DRAW: Score = Score(0);
    /// Scores at least this large (in size) are forced wins or losses.
    pub(crate) const WIN_THRESHOLD: i32 = WIN_THRESHOLD;
    /// Larger than any real score: the bounds of the search window.
    pub(crate) const INFINITE: i32 = WIN + 1;

    /// A forced win for the side to move in `plies` plies.
    pub const fn win_in(plies: u32) -> Score {
        Score(WIN - plies as i32)
    }

    /// A forced loss for the side to move in `plies` plies.
    pub const fn loss_in(plies: u32) -> Score {
        Score(-(WIN - plies as i32))
    }

    /// Hundredths of a man, for an ordinary score; `None` for a forced result.
    pub const fn centi_men(self) -> Option<i32> {
        if self.is_forced() { None } else { Some(self.0) }
    }

    /// Whether the score is a forced win or loss.
    pub(crate) const fn is_forced(self) -> bool {
        self.0.abs() >= WIN_THRESHOLD
    }

    /// Plies to the end of the game when the score is a forced win (positive) or loss
    /// (negative in sign of the score, but returned as a count); `None` otherwise.
    pub const fn plies_to_end(self) -> Option<u32> {
        if self.is_forced() {
            Some((WIN - self.0.abs()) as u32)
        } else {
            None
        }
    }

    /// Whether the score is a forced win for the side to move.
    pub const fn is_win(self) -> bool {
        self.0 >= WIN_THRESHOLD
    }

    /// Whether the score is a forced loss for the side to move.
    pub const fn is_loss(self) -> bool {
        self.0 <= -WIN_THRESHOLD
    }

    /// The same score seen from the other side.
    pub const fn flip(self) -> Score {
        Score(-self.0)
    }

    /// A score found `ply` plies below the root, as stored in the transposition table
    /// (forced results measured from the node rather than the root).
    pub(crate) const fn to_table(value: i32, ply: usize) -> i32 {
        if value >= WIN_THRESHOLD {
            value + ply as i32
        } else if value <= -WIN_THRESHOLD {
            value - ply as i32
        } else {
            value
        }
    }

    /// The inverse of [`to_table`](Self::to_table).
    pub(crate) const fn from_table(value: i32, ply: usize) -> i32 {
        if value >= WIN_THRESHOLD {
            value - ply as i32
        } else if value <= -WIN_THRESHOLD {
            value + ply as i32
        } else {
            value
        }
    }
}

impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.plies_to_end() {
            Some(n) if self.is_win() => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {n}"),
            None => write!(f, "{}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forced_results_display_in_plies() {
        assert_eq!(Score::win_in(7).to_string(), "win in 7");
        assert_eq!(Score::loss_in(4).to_string(), "loss in 4");
        assert_eq!(Score(-35).to_string(), "-35");
        assert!(Score::win_in(3) > Score::win_in(5));
        assert!(Score::loss_in(3) < Score::loss_in(5));
        assert_eq!(Score::win_in(9).flip(), Score::loss_in(9));
        assert_eq!(Score::win_in(9).plies_to_end(), Some(9));
        assert_eq!(Score(250).centi_men(), Some(250));
    }

    #[test]
    fn table_scores_round_trip() {
        let v = Score::win_in(10).0;
        assert_eq!(Score::from_table(Score::to_table(v, 4), 4), v);
        // Stored at ply 4 as "win in 6 from here", read at ply 2 as "win in 8 from root".
        assert_eq!(
            Score::from_table(Score::to_table(v, 4), 2),
            Score::win_in(8).0
        );
    }
}
