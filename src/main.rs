//! The `checkers` binary: parse the command line and dispatch.

use checkers::cli::{
    Cli, CliError, Command, MatchSettings, PdnCommand, run_analyse, run_match, run_moves,
    run_pdn_check, run_perft,
};
use checkers::engine::{Level, Limits};
use checkers::plain::Plain;
use checkers::rules::Position;
use checkers::session::Session;
use checkers::store::Autosaver;
use clap::CommandFactory;
use clap::Parser;
use std::io::ErrorKind;
use std::process::ExitCode;
use std::time::Duration;

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
        Some(Command::Analyse {
            fen,
            depth,
            movetime,
            hash,
        }) => {
            let limits = match (*depth, *movetime) {
                (Some(depth), _) => Limits::depth(depth),
                (None, Some(ms)) => Limits::movetime_ms(ms),
                (None, None) => Limits::movetime_ms(3000),
            };
            let pos = fen.unwrap_or_else(Position::start);
            let out = &mut std::io::stdout().lock();
            return report(run_analyse(out, &pos, limits, *hash as usize));
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
            let levels: Vec<Level> = levels.iter().copied().filter_map(Level::new).collect();
            let Ok(levels) = <[Level; 2]>::try_from(levels) else {
                Cli::command()
                    .error(
                        clap::error::ErrorKind::WrongNumberOfValues,
                        "give --level exactly twice: --level A --level B",
                    )
                    .exit();
            };
            let settings = MatchSettings {
                games: *games,
                movetime: Duration::from_millis(*movetime),
                levels,
                openings: openings.clone(),
                max_plies: *max_plies as usize,
                hash_mb: *hash as usize,
                seed: *seed,
                pdn: pdn.clone(),
            };
            let out = &mut std::io::stdout().lock();
            return report(run_match(out, &settings).map(|_| ()));
        }
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
        None => match cli.starting_session() {
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
fn play(cli: &Cli, session: Session) -> std::io::Result<()> {
    if cli.plain_wanted() {
        use std::io::IsTerminal;
        let stdin = std::io::stdin();
        // Only a person at a terminal has a game worth keeping; a script never replaces it.
        let autosaver = if stdin.is_terminal() {
            Autosaver::new(session.autosave_record(&checkers::store::today()).as_ref())
        } else {
            Autosaver::disabled()
        };
        let mut plain = Plain::new(session, autosaver);
        checkers::plain::run(stdin.lock(), &mut std::io::stdout().lock(), &mut plain)
    } else {
        checkers::tui::run(cli.tui_settings(), session)
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
