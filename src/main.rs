//! The `checkers` binary: parse the command line and dispatch.

use checkers::cli::{
    Cli, CliError, Command, MatchSettings, PdnCommand, run_analyse, run_match, run_moves,
    run_pdn_check, run_perft,
};
use checkers::engine::{Level, Limits};
use checkers::rules::Position;
use clap::CommandFactory;
use clap::Parser;
use std::io::ErrorKind;
use std::process::ExitCode;
use std::time::Duration;

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
        Some(Command::Analyse {
            fen,
            depth,
            movetime,
            hash,
        }) => {
            let limits = match (depth, movetime) {
                (Some(depth), _) => Limits::depth(depth),
                (None, Some(ms)) => Limits::movetime_ms(ms),
                (None, None) => Limits::movetime_ms(3000),
            };
            let pos = fen.unwrap_or_else(Position::start);
            return report(run_analyse(&mut stdout, &pos, limits, hash as usize));
        }
        Some(Command::Match {
            games,
            movetime,
            levels,
            openings,
            max_plies,
            hash,
            seed,
            pdn,
        }) => {
            let levels: Vec<Level> = levels.into_iter().filter_map(Level::new).collect();
            let Ok(levels) = <[Level; 2]>::try_from(levels) else {
                Cli::command()
                    .error(
                        clap::error::ErrorKind::WrongNumberOfValues,
                        "give --level exactly twice: --level A --level B",
                    )
                    .exit();
            };
            let settings = MatchSettings {
                games,
                movetime: Duration::from_millis(movetime),
                levels,
                openings,
                max_plies: max_plies as usize,
                hash_mb: hash as usize,
                seed,
                pdn,
            };
            return report(run_match(&mut stdout, &settings).map(|_| ()));
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
        None => {
            eprintln!(
                "checkers: the interactive game is not built yet; try `checkers moves` or `checkers perft 8`"
            );
            return ExitCode::from(2);
        }
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

/// The exit code of a command that reports through [`CliError`], its error on stderr.
fn report(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(CliError::Output(e)) if e.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("checkers: {e}");
            ExitCode::FAILURE
        }
    }
}
