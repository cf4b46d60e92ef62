//! The `checkers` binary: parse the command line and dispatch.

use checkers::cli::{
    Cli, CliError, Command, PdnCommand, StartingGame, run_moves, run_pdn_check, run_perft,
};
use checkers::plain::Session;
use checkers::rules::Position;
use clap::Parser;
use std::io::ErrorKind;
use std::process::ExitCode;

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Only the line-oriented commands hold stdout; the game draws through its own handle.
    let result = match &cli.command {
        Some(Command::Perft {
            depth,
            fen,
            divide,
            threads,
        }) => run_perft(
            &mut std::io::stdout().lock(),
            &fen.unwrap_or_else(Position::start),
            *depth,
            *divide,
            usize::from(*threads),
        ),
        Some(Command::Moves { fen }) => run_moves(
            &mut std::io::stdout().lock(),
            &fen.unwrap_or_else(Position::start),
        ),
        Some(Command::Pdn {
            action: PdnCommand::Check { file },
        }) => {
            return match run_pdn_check(&mut std::io::stdout().lock(), file) {
                Ok(summary) if summary.replayed == summary.games => ExitCode::SUCCESS,
                Ok(_) => ExitCode::FAILURE,
                Err(CliError::Output(e)) if e.kind() == ErrorKind::BrokenPipe => ExitCode::FAILURE,
                Err(e) => {
                    eprintln!("checkers: {e}");
                    ExitCode::from(2)
                }
            };
        }
        None => match cli.starting_game() {
            Ok(start) => play(&cli, start),
            Err(e) => {
                // Reported before the screen changes; nothing on disk is touched.
                eprintln!("checkers: {e}");
                return ExitCode::from(2);
            }
        },
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

/// Runs the game: the plain line mode or the full-screen one.
fn play(cli: &Cli, start: StartingGame) -> std::io::Result<()> {
    if cli.plain_wanted() {
        use std::io::IsTerminal;
        let stdin = std::io::stdin();
        let mut session = Session {
            game: start.game,
            players: start.players,
            autosave: stdin.is_terminal(),
        };
        checkers::plain::run(stdin.lock(), &mut std::io::stdout().lock(), &mut session)
    } else {
        checkers::tui::run(cli.tui_settings(), start)
    }
}
