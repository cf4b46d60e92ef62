//! The `checkers` binary: parse the command line, run it, exit as
//! [`commands::exit`] says.

use checkers::cli::Cli;
use checkers::commands;
use std::process::ExitCode;

fn main() -> ExitCode {
    commands::main_of(|cli: Cli| commands::exit(&commands::run(cli)))
}
