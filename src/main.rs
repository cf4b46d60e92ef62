//! The `checkers` binary: parse the command line, run it, exit as
//! [`commands::exit`] says.

use checkers::cli::Cli;
use checkers::commands;
use std::process::ExitCode;

fn main() -> ExitCode {
    let first = std::env::args().nth(1).unwrap_or_default();
    if let Some(message) = commands::moved_to_the_lab(&first) {
        eprintln!("{message}");
        return ExitCode::from(2);
    }
    commands::main_of(|cli: Cli| commands::exit(&commands::run(cli)))
}
