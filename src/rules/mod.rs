//! The rules of English draughts (American checkers), pure: no I/O, no terminal, no clock.
//!
//! The vocabulary follows shakmaty: [`Square`], [`Color`], [`Role`], [`Piece`],
//! [`Bitboard`], [`Move`], [`Position`], [`Outcome`]. Squares are numbered 1-32 as in the
//! classic diagram, Black's men on 1-12 at the bottom, Black to move first. The WCDF
//! draw claims (repetition, forty moves) are in `draw`.
//!
//! ```
//! use checkers::rules::Position;
//! // Diagram 87: White plays 14-9, and Black must take with the man on 5.
//! let pos: Position = "W:W14:B5,11".parse().unwrap();
//! let pos = pos.play_text("14-9").unwrap();
//! let moves: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
//! assert_eq!(moves, ["5x14"]);
//! ```

mod bitboard;
pub(crate) mod draw;
mod fen;
mod movegen;
mod mv;
mod notation;
mod outcome;
mod perft;
mod piece;
mod position;
mod square;

pub use bitboard::{Bitboard, BitboardIter};
pub use draw::FORTY_MOVE_PLIES;
pub use fen::{EntryProblem, FenError};
pub use mv::{MAX_LANDINGS, Move};
pub use notation::{Apart, Illegal, MoveError, MoveText, ParseMoveError, ParseMoveErrorKind};
pub use outcome::{DrawReason, Outcome, WinReason};
pub use perft::{perft, perft_divide, perft_threads};
pub use piece::{Color, Piece, Role};
pub use position::{IllegalMoveError, Position, SetupError};
pub use square::{ParseSquareError, Square};
