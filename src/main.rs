//! The `checkers` binary: parse the command line, run it, exit as
//! [`commands::exit`] says.

use checkers::cli::Cli;
use checkers::commands;
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) if error.use_stderr() => {
            // A refused value (`--fen`, a file name) is quoted in the message: shown
            // printable, as every message is.
            let text = error.render().to_string();
            eprint!("{}", checkers::text::printable_lines(&text, 8192));
            return ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
        // --help and --version: the program's own words, on standard output.
        Err(help) => help.exit(),
    };
    let exit = commands::exit(&commands::run(cli));
    if let Some(message) = &exit.message {
        eprintln!("{message}");
    }
    ExitCode::from(exit.code)
}
