//! The `checkers` binary: parse the command line and dispatch.

use checkers::cli::{Cli, CliError, Command, PdnCommand, run_moves, run_pdn_check, run_perft};
use checkers::plain::Session;
use checkers::rules::Position;
use clap::Parser;
use std::io::ErrorKind;
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
        }) => {
            let pos = fen.unwrap_or_else(Position::start);
            run_perft(&mut stdout, &pos, depth, divide, usize::from(threads))
        }
        Some(Command::Moves { fen }) => {
            run_moves(&mut stdout, &fen.unwrap_or_else(Position::start))
        }
        Some(Command::Pdn {
            action: PdnCommand::Check { file },
        }) => {
            return match run_pdn_check(&mut stdout, &file) {
                Ok(summary) if summary.replayed == summary.games => ExitCode::SUCCESS,
                Ok(_) => ExitCode::FAILURE,
                Err(CliError::Output(e)) if e.kind() == ErrorKind::BrokenPipe => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("checkers: {e}");
                    ExitCode::from(2)
                }
            };
        }
        None => return play(&cli),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`checkers moves | head -1`) is not an error worth a message.
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("checkers: {e}");
            ExitCode::FAILURE
        }
    }
}

/// Starts the game: the plain line mode or the full-screen one.
fn play(cli: &Cli) -> ExitCode {
    let start = match cli.starting_game() {
        Ok(start) => start,
        Err(e) => {
            eprintln!("checkers: {e}");
            return ExitCode::from(2);
        }
    };
    let result = if cli.plain_wanted() {
        use std::io::IsTerminal;
        let stdin = std::io::stdin();
        let mut session = Session {
            game: start.game,
            players: start.players,
            autosave: stdin.is_terminal(),
        };
        checkers::plain::run(stdin.lock(), &mut std::io::stdout().lock(), &mut session)
    } else {
        checkers::tui::run(cli.tui_settings())
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("checkers: {e}");
            ExitCode::FAILURE
        }
    }
}
