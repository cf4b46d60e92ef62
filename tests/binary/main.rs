//! Tests that run the `checkers` binary as a user does: commands and their exit codes,
//! plain mode through a pipe, and the full-screen game in a pseudo-terminal (signals,
//! the autosave, `--resume`, `--load`).
#![allow(clippy::unwrap_used)]

#[path = "../common/mod.rs"]
mod common;

mod cli;
mod cli_engine;
mod e2e_pty;
mod e2e_records;
mod egdb;
mod plain;
