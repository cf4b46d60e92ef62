//! `checkers puzzle`: the puzzles, on the full-screen board or in plain mode, with the
//! endgame databases of the data folder (where there are any) and the engine answering.

use super::CommandError;
use super::play::{open_databases, tui_settings};
use crate::cli::{PlayArgs, PuzzleArgs, ScreenArgs};
use crate::engine::egdb::Egdb;
use crate::plain::PlainPuzzles;
use crate::puzzles::{judge, saved_progress};
use crate::tui::Theme;
use crate::tui::puzzle::PuzzleScreen;
use std::io::IsTerminal;
use std::sync::Arc;

/// The puzzles screen with puzzle `number` open (from 1), or the list when `None`.
pub(crate) fn screen(
    number: Option<usize>,
    theme: Theme,
    db: &Option<Arc<Egdb>>,
) -> Result<Box<PuzzleScreen>, String> {
    let (progress, warning) = saved_progress();
    // Without a number, the list opens at the first puzzle not solved yet.
    let index = number
        .unwrap_or_else(|| progress.first_unsolved())
        .saturating_sub(1);
    let mut screen = PuzzleScreen::new(index, number.is_none(), judge(db.clone()), progress, theme);
    if let Some(why) = warning {
        screen.warn(why);
    }
    Ok(Box::new(screen))
}

/// Runs `checkers puzzle`.
pub(crate) fn run(args: &PuzzleArgs) -> Result<(), CommandError> {
    let (db, notices) = open_databases();
    let number = args.number.map(|n| n as usize);
    // Refused before the screen changes, as plain mode's `puzzle N` refuses it.
    if let Some(why) = number.and_then(crate::puzzles::no_such_puzzle) {
        return Err(CommandError::NoSuchPuzzle(why));
    }
    let plain = args.look.plain
        || !std::io::stdin().is_terminal()
        || !std::io::stdout().is_terminal()
        || std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    if plain {
        for notice in &notices {
            eprintln!("checkers: {}", crate::text::printable(notice, 600));
        }
        let (progress, warning) = saved_progress();
        if let Some(why) = warning {
            eprintln!("checkers: {}", crate::text::printable(&why, 600));
        }
        let first = number.unwrap_or_else(|| progress.first_unsolved());
        let mut session = PlainPuzzles::new(first, judge(db.clone()), progress);
        let stdin = std::io::stdin();
        let mut out = crate::text::LocaleOut::stdout();
        session.run(stdin.lock(), &mut out)?;
        return Ok(());
    }
    // The look of a game: the options, then the preferences (theme, coordinates).
    let mut play = PlayArgs {
        screen: ScreenArgs {
            look: args.look.clone(),
            quiet: false,
        },
        ..PlayArgs::default()
    };
    let (prefs, mut told) = super::preferences::load_into(&mut play);
    told.extend(notices);
    let settings = tui_settings(&play, &prefs);
    let theme = settings.theme;
    let screen =
        screen(number, theme, &db).map_err(|e| CommandError::Terminal(std::io::Error::other(e)))?;
    crate::tui::run(settings, crate::tui::Start::Puzzles(screen), told)
}
