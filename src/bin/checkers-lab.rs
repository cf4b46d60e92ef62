//! The `checkers-lab` binary (with the `lab` feature): the engine's workshop. Parse the
//! command line, run it, exit as [`lab::exit`] says.

use checkers::commands;
use checkers::lab::{self, cli::LabCli};
use std::process::ExitCode;

fn main() -> ExitCode {
    commands::main_of(|cli: LabCli| lab::exit(&lab::run(cli)))
}
