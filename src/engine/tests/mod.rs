//! The engine's tests: the search ([`search`]: forced wins, draws, levels, stopping) and
//! the endgame databases ([`egdb`]: building, verifying, probing, and what the screen
//! says of them).
#![allow(clippy::unwrap_used)]

pub(crate) mod egdb;
mod search;
