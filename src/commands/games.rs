//! `checkers games`: the games kept in the data folder, newest first.

use super::CommandError;
use crate::cli::GamesArgs;
use crate::store::{self, games_dir, saved_games};
use crate::text::printable;
use std::io::Write;

/// Runs `checkers games`: one line per game kept in the games folder, newest (last
/// saved) first: when, players, moves, the result (or "unfinished", "open in another
/// window"), and the file (for a match game, the match's file too); then how many
/// there are and where. No games is not an error.
pub(crate) fn run(args: &GamesArgs, out: &mut impl Write) -> Result<(), CommandError> {
    store::tidy_data_dir();
    let dir = games_dir().ok_or(store::StoreError::NoDataDir)?;
    let games: Vec<_> = saved_games()?
        .into_iter()
        .filter(|g| !args.unfinished || !g.finished())
        .collect();
    for (i, game) in games.iter().enumerate() {
        let file = game
            .path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        write!(
            out,
            "{:>3}. {}  {}",
            i + 1,
            printable(&game.summary(), 400),
            printable(&file, 200)
        )?;
        // The match's file holds all its games, in order.
        if let Some(match_file) = game.match_file() {
            write!(
                out,
                "  (the match's games: {})",
                crate::text::printable_path(&match_file)
            )?;
        }
        writeln!(out)?;
    }
    let unfinished = games.iter().filter(|g| !g.finished()).count();
    let what = if args.unfinished {
        "unfinished game"
    } else {
        "game"
    };
    let count = games.len();
    write!(
        out,
        "{count} {what}{} in {}",
        if count == 1 { "" } else { "s" },
        dir.display()
    )?;
    if !args.unfinished && unfinished > 0 {
        write!(out, " ({unfinished} unfinished: checkers --resume)")?;
    }
    writeln!(out)?;
    Ok(())
}
