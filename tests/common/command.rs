//! Running the `checkers` binary as a user does and reading what it printed.

use std::process::{Command, Output};

/// Runs `checkers` with `args` and waits for it.
pub fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(args)
        .output()
        .unwrap()
}

/// What it printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// What it printed on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}
