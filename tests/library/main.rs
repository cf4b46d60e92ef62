//! In-process tests of the library: the rules, notation, FEN, perft, PDN, the engine,
//! the session, and the full-screen game driven through its `App` (keys, clicks,
//! snapshots, every terminal size). One test binary, so the crate and the dev
//! dependencies are linked once.
#![allow(clippy::unwrap_used)]

#[path = "../common/mod.rs"]
mod common;

mod cli_options;
mod clock_records;
mod egdb;
mod engine;
mod fen;
mod frontends;
mod layers;
mod matches;
mod notation;
mod pdn;
mod pdn_stream;
mod perft;
mod properties;
mod readme;
mod record_limits;
mod rules;
mod tournament;
mod tui_computer;
mod tui_editor;
mod tui_keys;
mod tui_monkey;
mod tui_picker;
mod tui_records;
mod tui_render_sizes;
mod tui_snapshots;
mod tui_theme;
