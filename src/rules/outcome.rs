//! How a game ends.

use super::Color;
use std::fmt;

/// Why one side won.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// The loser has no pieces left.
    NoPieces,
    /// The loser, on the move, has pieces but no legal move.
    NoMoves,
    /// The loser resigned.
    Resignation,
    /// The loser ran out of time on the clock.
    Time,
    /// A record gives the result and not how it came (a tournament game scored with no
    /// `Termination`): decided, the reason not recorded.
    AsRecorded,
}

/// Why the game was drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// Both players agreed.
    Agreement,
    /// Claimed: the same position for the third time (WCDF 1.32).
    Repetition,
    /// Claimed: forty moves each with no man moved and nothing captured (WCDF 1.32).
    FortyMoves,
    /// A record gives the draw and not how it came: agreed, claimed or adjudicated, the
    /// record does not say.
    AsRecorded,
}

/// The result of a finished game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// Nobody won.
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// Whether this is a record's result with no word of how it came
    /// ([`WinReason::AsRecorded`], [`DrawReason::AsRecorded`]).
    pub const fn is_as_recorded(&self) -> bool {
        matches!(
            self,
            Outcome::Win {
                reason: WinReason::AsRecorded,
                ..
            } | Outcome::Draw {
                reason: DrawReason::AsRecorded
            }
        )
    }

    /// The PDN result token: `1-0` when Black (the first player) won, `0-1` when White
    /// won, `1/2-1/2` for a draw.
    pub const fn pdn_result(&self) -> &'static str {
        match self {
            Outcome::Win {
                winner: Color::Black,
                ..
            } => "1-0",
            Outcome::Win {
                winner: Color::White,
                ..
            } => "0-1",
            Outcome::Draw { .. } => "1/2-1/2",
        }
    }
}

impl fmt::Display for Outcome {
    /// A sentence for the player: "White wins: Black has no legal move".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Outcome::Win { winner, reason } => {
                let loser = !winner;
                match reason {
                    WinReason::NoPieces => write!(f, "{winner} wins: {loser} has no pieces left"),
                    WinReason::NoMoves => write!(f, "{winner} wins: {loser} has no legal move"),
                    WinReason::Resignation => write!(f, "{winner} wins: {loser} resigned"),
                    WinReason::Time => write!(f, "{winner} wins: {loser} lost on time"),
                    // Past tense: a record's word, not an ending seen on this board.
                    WinReason::AsRecorded => write!(f, "{winner} won (as recorded)"),
                }
            }
            Outcome::Draw { reason } => match reason {
                DrawReason::Agreement => write!(f, "Draw by agreement"),
                DrawReason::Repetition => write!(f, "Draw claimed: threefold repetition"),
                DrawReason::FortyMoves => write!(f, "Draw claimed: forty-move rule"),
                DrawReason::AsRecorded => write!(f, "Drawn (as recorded)"),
            },
        }
    }
}
