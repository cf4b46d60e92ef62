//! The guides: the long form of what the README (`README.md`) says in short, for players
//! and for readers of the code, as documentation only (no code lives here; read them with
//! `cargo doc --open`).
//!
//! - [`playing`]: the full-screen game and plain line mode in detail: moves, review, the
//!   computer, the board on screen, options, the position editor, preferences, fair play,
//!   ballots, clocks, matches, puzzles (a PDN file of your own among them);
//! - [`network`]: a game across the network, its referee and its door;
//! - [`rules_and_notation`]: the rules, the squares' numbers, notation, FEN, perft;
//! - [`records`]: the games folder and `--resume`, saving, PDN as read and written,
//!   signals, how files are written;
//! - [`databases`]: the endgame databases, their files, how they are built and used;
//! - [`engine`]: the engine's design: search, evaluation, time, the opening book, and
//!   `checkers hub`, through which another program drives it;
//! - [`architecture`]: how the code is laid out, the tests and the benchmarks.
//!
//! The lab's notebook (how matches, self-play, training and the book are run, and what
//! they gave) is the lab's module documentation, built with `--features lab`.

#[doc = include_str!("playing.md")]
pub mod playing {}

#[doc = include_str!("network.md")]
pub mod network {}

#[doc = include_str!("rules_and_notation.md")]
pub mod rules_and_notation {}

#[doc = include_str!("records.md")]
pub mod records {}

#[doc = include_str!("databases.md")]
pub mod databases {}

#[doc = include_str!("engine.md")]
pub mod engine {}

#[doc = include_str!("architecture.md")]
pub mod architecture {}
