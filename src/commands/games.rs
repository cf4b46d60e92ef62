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
    // A game played across the network goes on by its host's command, not at one
    // terminal.
    let (network, alone): (Vec<_>, Vec<_>) = games
        .iter()
        .filter(|g| !g.finished())
        .partition(|g| g.across_the_network());
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
    let resume = [
        (alone.len(), ": checkers --resume"),
        (network.len(), " across the network: checkers host --resume"),
    ]
    .into_iter()
    .filter(|(count, _)| *count > 0)
    .map(|(count, how)| format!("{count} unfinished{how}"))
    .collect::<Vec<_>>();
    if !args.unfinished && !resume.is_empty() {
        write!(out, " ({})", resume.join("; "))?;
    }
    writeln!(out)?;
    Ok(())
}
