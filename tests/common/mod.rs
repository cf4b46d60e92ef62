//! Helpers shared by the tests of the programs: run them, on a terminal (a pty) or not,
//! on a full disk, and across a flaky line.
#![allow(dead_code, clippy::unwrap_used)]

pub mod command;
pub mod full_disk;
pub mod proxy;
pub mod pty;

/// The binary a command line is for: the lab's (`checkers-lab`, built with the `lab`
/// feature) for its commands, the player's `checkers` otherwise.
pub fn program_for(args: &[&str]) -> &'static str {
    match args.first() {
        Some(&("match" | "selfplay" | "train" | "book")) if is_lab(args) => lab_program(),
        _ => env!("CARGO_BIN_EXE_checkers"),
    }
}

/// Whether `args` is one of the lab's command lines (`book` alone shows the book and is
/// the player's; building it, with `--out`, is the lab's).
fn is_lab(args: &[&str]) -> bool {
    args.first() != Some(&"book") || args.contains(&"--out")
}

/// The lab's binary.
#[cfg(feature = "lab")]
pub fn lab_program() -> &'static str {
    env!("CARGO_BIN_EXE_checkers-lab")
}

/// The lab's binary: not built without the `lab` feature (tests of the lab are left out
/// then).
#[cfg(not(feature = "lab"))]
pub fn lab_program() -> &'static str {
    panic!("the lab's commands need the lab feature: cargo test --features lab")
}
