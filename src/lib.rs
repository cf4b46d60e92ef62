//! # checkers
//!
//! English draughts (American checkers) for the terminal, as a library: the rules, a
//! game's record, a game in play with its computer player, and PDN records.
//!
//! The crate root names the vocabulary, which is the whole of its public API:
//!
//! - the rules ([`rules`], pure): [`Square`] numbered 1-32 as in the classic diagram,
//!   [`Color`], [`Piece`], [`Bitboard`], [`Position`] with compulsory multi-jumps (every
//!   route its own [`Move`]), notation, FEN, perft and the [`Outcome`] of a game;
//! - [`Game`]: a start position and its moves, with undo, redo, the WCDF draw claims,
//!   resignation and draw agreement;
//! - the computer player ([`engine`]): [`Engine`] (search and evaluation), its
//!   [`Level`]s and search [`Limits`], and the endgame databases
//!   ([`engine::egdb`]);
//! - records ([`pdn`]): [`PdnGame`] read with [`read_games`] and written with
//!   [`write_game`]; [`game_record`] and [`game_from_record`] convert between a game and
//!   its record.
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
//! The `checkers` program is [`main`]: its command line, the game in play with its
//! side effects, the full-screen and plain front ends and play across the network are
//! the crate's own parts, not its API (the [`guide`]'s architecture chapter maps them).
//! With the `lab` feature, `lab` is the engine's workshop, the `checkers-lab`
//! program.

#![deny(unsafe_code)]
#![warn(unreachable_pub)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

mod cli;
mod commands;
pub mod engine;
mod explorer;
pub mod game;
pub mod guide;
mod hub;
#[cfg(feature = "lab")]
pub mod lab;
mod lines;
mod net;
mod online;
pub mod pdn;
mod plain;
mod puzzles;
mod random;
mod report;
pub mod rules;
mod runtime;
mod server;
mod session;
mod signals;
mod store;
mod text;
mod tui;

pub use engine::{Engine, Level, Limits};
pub use game::Game;
pub use pdn::{PdnGame, Players, game_from_record, game_record, read_games, write_game};
pub use rules::{Bitboard, Color, Move, Outcome, Piece, Position, Role, Square};

/// The `checkers` program as one call (the `checkers` binary is nothing else): parses the
/// process's command line, runs it, prints how it ended and gives the exit status.
pub fn main() -> std::process::ExitCode {
    let first = std::env::args().nth(1).unwrap_or_default();
    if let Some(message) = commands::moved_to_the_lab(&first) {
        eprintln!("{message}");
        return std::process::ExitCode::from(2);
    }
    commands::main_of(|cli: cli::Cli| commands::exit(&commands::run(cli)))
}
