//! The `checkers` binary: parse the command line and dispatch.

use checkers::cli::{Cli, Command, run_moves, run_perft};
use checkers::rules::Position;
use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let settings = cli.tui_settings();
    // Only the line-oriented commands hold stdout; the game draws through its own handle.
    let result = match cli.command {
        Some(Command::Perft {
            depth,
            fen,
            divide,
            threads,
        }) => run_perft(
            &mut std::io::stdout().lock(),
            &fen.unwrap_or_else(Position::start),
            depth,
            divide,
            usize::from(threads),
        ),
        Some(Command::Moves { fen }) => run_moves(
            &mut std::io::stdout().lock(),
            &fen.unwrap_or_else(Position::start),
        ),
        None => checkers::tui::run(settings),
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
