//! # checkers
//!
//! English draughts (American checkers) for the terminal. The [`rules`] module is the pure
//! rules engine everything else stands on: the 32-square board numbered as in the classic
//! diagram, compulsory multi-jump generation (every route its own move), crowning that
//! ends the move, move notation, FEN and perft. [`game`] keeps a game's moves with undo,
//! redo and the WCDF draw claims; [`tui`] is the two-player terminal front end that runs
//! when `checkers` is started with no subcommand; [`engine`] is the computer player
//! (search, evaluation, levels, draw claims and resignation). [`cli`] is the command
//! line's clap types, and [`commands`] carries it out: one runner per subcommand, the
//! interactive game, and the exit code of each outcome. [`store`] keeps games: one
//! locked autosave per game in the data folder, atomic writes, appending to PDN files;
//! [`signals`] lets the game be saved and the terminal restored on Unix signals, and
//! [`text`] makes text from files and input safe to show on a terminal.

#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod cli;
pub mod commands;
pub mod engine;
pub mod game;
pub mod pdn;
pub mod plain;
pub mod rules;
pub mod runtime;
pub mod session;
pub mod signals;
pub mod store;
pub mod text;
pub mod tui;

pub use rules::{Bitboard, Color, Move, Outcome, Piece, Position, Role, Square};
