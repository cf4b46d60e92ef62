//! The `checkers` binary: parse the command line and dispatch.

use checkers::cli::{Cli, Command, run_moves, run_perft};
use checkers::rules::Position;
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let mut stdout = std::io::stdout().lock();
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            fen,
            divide,
            threads,
        }) => run_perft(
            &mut stdout,
            &fen.unwrap_or_else(Position::start),
            depth,
            divide,
            usize::from(threads),
        ),
        Some(Command::Moves { fen }) => {
            run_moves(&mut stdout, &fen.unwrap_or_else(Position::start))
        }
        None => checkers::tui::run(cli.tui_settings()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`checkers moves | head -1`) is not an error worth a message.
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("checkers: {e}");
            ExitCode::FAILURE
        }
    }
}
