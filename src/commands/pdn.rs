//! `checkers pdn`: work with PDN game records.

use super::CommandError;
use crate::cli::{CheckArgs, PdnArgs, PdnCommand};
use crate::store::{StoreError, file_games};
use crate::text::printable;
use std::io::Write;
use std::path::Path;

/// The longest line of the report (a faulty game and why): text from the file is
/// already cut short in it, this only bounds the whole.
const REPORT_LINE_CHARS: usize = 1000;

/// The result of `checkers pdn check`: how many games, how many replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CheckSummary {
    /// Games in the file.
    pub(crate) games: usize,
    /// Games that replayed to their end.
    pub(crate) replayed: usize,
}

/// Runs a `checkers pdn` subcommand.
pub(crate) fn run(args: &PdnArgs, out: &mut impl Write) -> Result<(), CommandError> {
    match &args.action {
        PdnCommand::Check(args) => run_check(args, out),
    }
}

/// Runs `checkers pdn check FILE`, as [`check`] does; a file with a faulty game is
/// [`CommandError::FaultyGames`].
pub(crate) fn run_check(args: &CheckArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let summary = check(&args.file, out)?;
    if summary.replayed == summary.games {
        Ok(())
    } else {
        Err(CommandError::FaultyGames(summary))
    }
}

/// Reads and replays every game of `file`: each faulty game on a line of `out` (text
/// from the file shown without control characters and cut short), then `N games: K
/// replayed, E with errors`. The file is streamed and its games read one at a time,
/// so memory stays that of the largest game. A file that cannot be read, is not a
/// regular file (a FIFO, a device), or holds no game, is an error naming it.
pub(crate) fn check(file: &Path, out: &mut impl Write) -> Result<CheckSummary, CommandError> {
    let games = file_games(file).map_err(CommandError::CheckFile)?;
    let (mut count, mut replayed) = (0, 0);
    for game in games {
        count += 1;
        match game {
            Ok(_) => replayed += 1,
            Err(e) => writeln!(out, "{}", printable(&e.to_string(), REPORT_LINE_CHARS))
                .map_err(CommandError::CheckOutput)?,
        }
    }
    if count == 0 {
        // Nothing was checked: not a clean file (a mistaken path, most often).
        return Err(CommandError::CheckFile(StoreError::NoGames(
            file.to_path_buf(),
        )));
    }
    let errors = count - replayed;
    writeln!(
        out,
        "{count} game{}: {replayed} replayed, {errors} with errors",
        if count == 1 { "" } else { "s" }
    )
    .map_err(CommandError::CheckOutput)?;
    Ok(CheckSummary {
        games: count,
        replayed,
    })
}
