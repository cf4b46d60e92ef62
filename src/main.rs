//! The `checkers` binary: parse the command line, run it, exit as
//! [`commands::exit`] says.

use checkers::cli::Cli;
use checkers::commands;
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let exit = commands::exit(&commands::run(Cli::parse()));
    if let Some(message) = &exit.message {
        eprintln!("{message}");
    }
    ExitCode::from(exit.code)
}
