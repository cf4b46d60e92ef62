//! The `checkers-lab` binary (with the `lab` feature): the engine's workshop. Parse the
//! command line, run it, exit as [`lab::exit`] says.

use checkers::lab::{self, cli::LabCli};
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match LabCli::try_parse() {
        Ok(cli) => cli,
        Err(error) if error.use_stderr() => {
            let text = error.render().to_string();
            eprint!("{}", checkers::text::printable_lines(&text, 8192));
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
        Err(help) => help.exit(),
    };
    let exit = lab::exit(&lab::run(cli));
    if let Some(message) = &exit.message {
        eprintln!("{message}");
    }
    ExitCode::from(exit.code)
}
