//! `checkers pdn`: work with PDN game records.

use super::CommandError;
use crate::cli::{CheckArgs, PdnArgs, PdnCommand};
use crate::pdn::{decode, read_games};
use std::io::Write;
use std::path::Path;

/// The result of `checkers pdn check`: how many games, how many replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckSummary {
    /// Games in the file.
    pub games: usize,
    /// Games that replayed to their end.
    pub replayed: usize,
}

/// Runs a `checkers pdn` subcommand.
pub fn run(args: &PdnArgs, out: &mut impl Write) -> Result<(), CommandError> {
    match &args.action {
        PdnCommand::Check(args) => run_check(args, out),
    }
}

/// Runs `checkers pdn check FILE`, as [`check`] does; a file with a faulty game is
/// [`CommandError::FaultyGames`].
pub fn run_check(args: &CheckArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let summary = check(&args.file, out)?;
    if summary.replayed == summary.games {
        Ok(())
    } else {
        Err(CommandError::FaultyGames(summary))
    }
}

/// Reads and replays every game of `file`: each faulty game on a line of `out`, then
/// `N games: K replayed, E with errors`. A file that cannot be read is an error naming
/// it.
pub fn check(file: &Path, out: &mut impl Write) -> Result<CheckSummary, CommandError> {
    let bytes = std::fs::read(file).map_err(|e| CommandError::CheckFile(file.to_path_buf(), e))?;
    let games = read_games(&decode(&bytes));
    let mut replayed = 0;
    for game in &games {
        match game {
            Ok(_) => replayed += 1,
            Err(e) => writeln!(out, "{e}").map_err(CommandError::CheckOutput)?,
        }
    }
    let errors = games.len() - replayed;
    writeln!(
        out,
        "{} games: {replayed} replayed, {errors} with errors",
        games.len()
    )
    .map_err(CommandError::CheckOutput)?;
    Ok(CheckSummary {
        games: games.len(),
        replayed,
    })
}
