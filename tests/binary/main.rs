//! Tests that run the `checkers` binary as a user does: commands and their exit codes,
//! plain mode through a pipe and at a terminal, and the full-screen game in a
//! pseudo-terminal (signals and suspending, the per-game autosaves of several windows,
//! `--resume` and its picker, `--load`), and files as they come (databases to add to,
//! FIFOs, huge words, leftovers of killed programs).
#![allow(clippy::unwrap_used)]
// Without the `lab` feature the lab's tests are left out, and what only they use goes
// unused.
#![cfg_attr(not(feature = "lab"), allow(unused_imports, dead_code))]

#[path = "../common/mod.rs"]
mod common;

mod big_files;
mod cli;
mod cli_engine;
mod e2e_mouse;
mod e2e_pty;
mod e2e_records;
mod e2e_signals;
mod e2e_windows;
mod egdb;
mod explore;
mod files;
mod hub;
#[cfg(feature = "lab")]
mod lab_messages;
mod matches;
mod network;
mod network_attacks;
mod network_line;
mod network_sealed;
#[cfg(feature = "lab")]
mod opponents;
mod pdn_files;
mod plain;
mod plain_robust;
mod puzzles;
mod readers;
mod server;
#[cfg(feature = "lab")]
mod training;
mod writers;
