//! # checkers
//!
//! English draughts (American checkers) for the terminal, as a library: the rules, a
//! game's record, a game in play with its computer player, and PDN records.
//!
//! The crate root names the vocabulary:
//!
//! - the rules ([`rules`], pure): [`Square`] numbered 1-32 as in the classic diagram,
//!   [`Color`], [`Piece`], [`Bitboard`], [`Position`] with compulsory multi-jumps (every
//!   route its own [`Move`]), notation, FEN, perft and the [`Outcome`] of a game;
//! - [`Game`]: a start position and its moves, with undo, redo, the WCDF draw claims,
//!   resignation and draw agreement;
//! - [`Session`]: a game in play, pure: who plays each side, names, clocks, matches,
//!   review; it answers with typed [`News`];
//! - [`Runtime`]: a session with its side effects (the computer's thread, autosave,
//!   match files, the clock watch), driven by [`Command`]s and telling [`Event`]s;
//! - the computer player: [`Engine`] (search, evaluation, endgame databases), its
//!   [`Level`]s and search [`Limits`];
//! - records: [`PdnGame`] read with [`read_games`] and written with [`write_game`];
//!   [`game_record`] and [`game_from_record`] convert between a game and its record.
//!
//! ```
//! use checkers::{Color, Game, game_record, read_games, write_game, Players};
//! let mut game = Game::new();
//! game.play_text("11-15").unwrap();
//! assert_eq!(game.position().turn(), Color::White);
//! let text = write_game(&game_record(&game, &Players::default(), "2026.12.01"));
//! let read = read_games(&text).remove(0).unwrap();
//! assert_eq!(read.moves, game.moves());
//! ```
//!
//! The [`guide`] holds the long guides: playing, the network, rules and notation,
//! records, the endgame databases, the engine's design and the code's layout.
//!
//! The `checkers` program's own parts (its command line, commands, the full-screen and
//! plain front ends, signals) are modules of this crate too, but not its API.

#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

#[doc(hidden)]
pub mod cli;
#[doc(hidden)]
pub mod commands;
pub mod engine;
pub mod game;
pub mod guide;
#[cfg(feature = "lab")]
pub mod lab;
pub mod net;
pub mod pdn;
#[doc(hidden)]
pub mod plain;
mod random;
pub mod rules;
pub mod runtime;
pub mod session;
#[doc(hidden)]
pub mod signals;
pub mod store;
pub mod text;
#[doc(hidden)]
pub mod tui;

pub use engine::{Engine, Level, Limits};
pub use game::Game;
pub use pdn::{PdnGame, Players, game_from_record, game_record, read_games, write_game};
pub use rules::{Bitboard, Color, Move, Outcome, Piece, Position, Role, Square};
pub use runtime::{Command, Event, Runtime};
pub use session::{News, Session};
