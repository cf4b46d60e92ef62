//! `checkers puzzle`: the puzzles, on the full-screen board or in plain mode, with the
//! endgame databases of the data folder (where there are any) and the engine answering.

use super::CommandError;
use super::play::{open_databases, tui_settings};
use crate::cli::{PlayArgs, PuzzleArgs, ScreenArgs};
use crate::engine::egdb::Egdb;
use crate::plain::PlainPuzzles;
use crate::puzzles::{Progress, judge, saved_progress};
use crate::tui::Theme;
use crate::tui::puzzle::PuzzleScreen;
use std::io::IsTerminal;
use std::sync::Arc;

/// The puzzles screen with puzzle `number` open (from 1), or the list when `None`:
/// the built-in puzzles.
pub(crate) fn screen(
    number: Option<usize>,
    theme: Theme,
    db: &Option<Arc<Egdb>>,
) -> Result<Box<PuzzleScreen>, String> {
    let (progress, warning) = saved_progress();
    Ok(screen_with(number, theme, db, progress, warning))
}

/// The puzzles screen of `progress`'s puzzles, with puzzle `number` open (from 1), or
/// the list when `None`; `warning` told on it.
fn screen_with(
    number: Option<usize>,
    theme: Theme,
    db: &Option<Arc<Egdb>>,
    progress: Progress,
    warning: Option<String>,
) -> Box<PuzzleScreen> {
    // Without a number, the list opens at the first puzzle not solved yet.
    let index = number
        .unwrap_or_else(|| progress.first_unsolved())
        .saturating_sub(1);
    let mut screen = PuzzleScreen::new(index, number.is_none(), judge(db.clone()), progress, theme);
    if let Some(why) = warning {
        screen.warn(why);
    }
    Box::new(screen)
}

/// Runs `checkers puzzle`.
pub(crate) fn run(args: &PuzzleArgs) -> Result<(), CommandError> {
    if args.check
        && let Some(path) = &args.file
    {
        return super::puzzle_check::run(&crate::store::expand_home(path), args.movetime);
    }
    // The puzzles and their progress: the file's, or the built-in ones'. A file that
    // cannot be used is refused before anything else, as a missing puzzle is.
    // `checkers puzzle 12`: a number where no file of that name is, the built-in
    // puzzle of that number.
    let number_not_file = |path: &std::path::Path| {
        !path.exists()
            && path
                .to_str()
                .is_some_and(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()))
    };
    let (file, number) = match (&args.file, args.at.or(args.number)) {
        (Some(path), None) if number_not_file(path) => {
            (None, path.to_str().and_then(|s| s.parse::<u32>().ok()))
        }
        // `puzzle --number 5 7`, `puzzle 5 7`: two numbers and no file of that name, not
        // a file 7 that cannot be read.
        (Some(path), Some(n)) if number_not_file(path) => {
            let (first, second) = match args.number {
                Some(_) => (format!("--number {n}"), crate::text::printable_path(path)),
                None => (crate::text::printable_path(path), n.to_string()),
            };
            return Err(CommandError::NoSuchPuzzle(format!(
                "one puzzle number only: {first} and {second} both given (and no file is \
                 named {}); give one number, or a puzzle file and then its number",
                crate::text::printable_path(path)
            )));
        }
        (file, number) => (file.clone(), number),
    };
    let (progress, told) = match &file {
        Some(path) => {
            let (progress, told) = crate::puzzles::file_progress(&crate::store::expand_home(path))
                .map_err(CommandError::PuzzleFile)?;
            (progress, told)
        }
        None => {
            let (progress, warning) = saved_progress();
            (progress, warning.into_iter().collect())
        }
    };
    let (db, notices) = open_databases();
    let number = number.map(|n| n as usize);
    // Refused before the screen changes, as plain mode's `puzzle N` refuses it.
    let count = progress.puzzles().len();
    if let Some(why) = number.and_then(|n| crate::puzzles::no_such_puzzle(n, count)) {
        return Err(CommandError::NoSuchPuzzle(why));
    }
    let plain = args.look.plain
        || !std::io::stdin().is_terminal()
        || !std::io::stdout().is_terminal()
        || std::env::var_os("TERM").is_some_and(|t| t == "dumb");
    if plain {
        for notice in notices.iter().chain(&told) {
            eprintln!("checkers: {}", crate::text::printable(notice, 600));
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
    let (prefs, mut said) = super::preferences::load_into(&mut play);
    said.extend(notices);
    let settings = tui_settings(&play, &prefs);
    let theme = settings.theme;
    // What was left out of a puzzle file, or a progress file that cannot be read,
    // stays in view on the list and under the news.
    let warning = (!told.is_empty()).then(|| told.join(" "));
    let screen = screen_with(number, theme, &db, progress, warning);
    crate::tui::run(settings, crate::tui::Start::Puzzles(screen), said)
}
