//! # checkers
//!
//! English draughts (American checkers) for the terminal. The [`rules`] module is the pure
//! rules engine everything else stands on: the 32-square board numbered as in the classic
//! diagram, compulsory multi-jump generation (every route its own move), crowning that
//! ends the move, move notation, FEN and perft. The [`engine`] module is the computer
//! player built on it: search, evaluation, playing levels, draw claims and resignation.

#![forbid(unsafe_code)]
#![cfg_attr(test, allow(clippy::unwrap_used))]

pub mod cli;
pub mod engine;
pub mod pdn;
pub mod rules;

pub use rules::{Bitboard, Color, Move, Outcome, Piece, Position, Role, Square};
