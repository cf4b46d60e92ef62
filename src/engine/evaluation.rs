//! Which evaluation a search uses, and the one place the choice is made: the
//! hand-written one ([`eval`](super::eval)), the learned pattern table
//! ([`learned`](super::learned)) or the network ([`nnue`](super::nnue)).

use super::learned::Weights;
use crate::rules::Position;

/// Which evaluation a search uses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Evaluation {
    /// The hand-written evaluation.
    Hand,
    /// The learned pattern table: it beat the hand-written one by about 90 Elo (see
    /// the lab's notes).
    Learned,
    /// The network (`Nnue::embedded`), kept
    /// incrementally by the search: the default since it beat the pattern table in a
    /// match (see the lab's notes).
    #[default]
    Net,
}

impl Evaluation {
    /// The value of `pos` for the side to move, which has `own_moves` legal moves.
    #[inline]
    pub fn evaluate_with_moves(self, pos: &Position, own_moves: u64) -> i32 {
        match self {
            Evaluation::Hand => super::eval::evaluate_with_moves(pos, own_moves),
            Evaluation::Learned => Weights::embedded().evaluate_with_moves(pos, own_moves),
            Evaluation::Net => super::nnue::Nnue::embedded().evaluate_position(pos),
        }
    }

    /// Its name in options and reports: `hand`, `learned` (the pattern table) or `net`.
    pub fn name(self) -> &'static str {
        match self {
            Evaluation::Hand => "hand",
            Evaluation::Learned => "learned",
            Evaluation::Net => "net",
        }
    }
}
