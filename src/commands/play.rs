//! The interactive game (`checkers` with no subcommand): the session the options ask
//! for, the front end's settings, and starting plain line mode or the full-screen game.

use super::CommandError;
use crate::cli::PlayArgs;
use crate::engine::egdb::{self, BuildOptions, Egdb};
use crate::game::Game;
use crate::plain::Plain;
use crate::rules::{Color, Position};
use crate::session::{Player, RecordFile, Session};
use crate::store::{
    self, Autosaver, Players, StoreError, load_autosave, load_record, load_records,
};
use crate::tui::theme::{colors_wanted, true_color_wanted};
use crate::tui::{Settings, Theme};
use std::io::IsTerminal;
use std::sync::Arc;

/// Pieces of the endgame databases built on first use, in the background, when a person
/// plays the computer and the data folder has none: about 5 seconds of one core.
pub const FIRST_USE_PIECES: u32 = 4;

/// The environment variable that, set to anything, stops that first-use build.
pub const NO_BUILD_VARIABLE: &str = "CHECKERS_NO_EGDB_BUILD";

/// The endgame databases in the data folder (`None` when there are none and none are
/// to be built). A damaged file is left out, and the game plays without it. With
/// `build_missing`, the slices of up to [`FIRST_USE_PIECES`] pieces that are missing are
/// built on a background thread and join the databases as each is done.
pub fn game_egdb(build_missing: bool) -> Option<Arc<Egdb>> {
    let dir = store::egdb_dir()?;
    let (db, _damaged) = Egdb::open(&dir);
    let build = build_missing
        && db.complete_pieces() < FIRST_USE_PIECES
        && std::env::var_os(NO_BUILD_VARIABLE).is_none();
    if db.slices() == 0 && !build {
        return None;
    }
    let db = Arc::new(db);
    if build {
        let shared = Arc::clone(&db);
        std::thread::spawn(move || {
            let options = BuildOptions {
                dir: shared.dir().to_path_buf(),
                max_pieces: FIRST_USE_PIECES,
                threads: 1,
            };
            // A failure (a full disk) only leaves the game without the databases.
            let _ = egdb::build(&options, Some(&shared), |_| {});
        });
    }
    Some(db)
}

/// The session the options `args` ask for: `--resume` (who played each side and the
/// level come back with the game, unless `--black`, `--white` or `--level` say
/// otherwise now), `--load` (opened for review), `--fen`, or a new game. A file that
/// cannot be read or replayed is an error naming it; nothing is changed on disk.
pub fn starting_session(args: &PlayArgs) -> Result<Session, StoreError> {
    let session = if args.resume {
        Session::from_record(&load_autosave()?)
    } else if let Some(path) = &args.load {
        let number = args.game.unwrap_or(1) as usize;
        let games = load_records(path)?;
        let count = games.len();
        if number == 0 || number > count {
            return Err(StoreError::NoSuchGame {
                path: path.clone(),
                wanted: number,
                count,
            });
        }
        let file = Arc::new(RecordFile {
            path: path.clone(),
            games,
            chosen: args.game.is_some(),
        });
        match Session::review_file(Arc::clone(&file), number) {
            Some(session) => session,
            // A game that does not read at all: say why, as a single load would.
            None => {
                load_record(path, number)?;
                return Err(StoreError::NoGames(path.clone()));
            }
        }
    } else {
        Session::new(Game::from_position(
            args.fen.unwrap_or_else(Position::start),
        ))
    };
    let level = args.level.unwrap_or(session.level());
    let mut seats = session.seats();
    for (color, kind) in [(Color::Black, args.black), (Color::White, args.white)] {
        if let Some(kind) = kind {
            seats.set(color, Player::of_kind(kind, level));
        }
    }
    Ok(session
        .with_seats(seats)
        .with_level(level)
        .with_names(Players {
            black: args.black_name.clone(),
            white: args.white_name.clone(),
        })
        .with_seed(store::now_unix()))
}

/// Whether to play in plain line mode: asked for, or the terminal cannot show the
/// full-screen game (standard input or output redirected, `TERM=dumb`).
pub fn plain_wanted(args: &PlayArgs) -> bool {
    args.plain
        || !std::io::stdin().is_terminal()
        || !std::io::stdout().is_terminal()
        || std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

/// The full-screen game's settings from the options `args` and the environment
/// (`NO_COLOR`, `TERM`).
pub fn tui_settings(args: &PlayArgs) -> Settings {
    let colored = colors_wanted(
        args.no_color,
        std::env::var_os("NO_COLOR").as_deref(),
        std::env::var_os("TERM").as_deref(),
    );
    Settings {
        flipped: args.flip,
        mouse: !args.no_mouse,
        theme: if colored && true_color_wanted(std::env::var_os("COLORTERM").as_deref()) {
            Theme::true_color(args.ascii)
        } else {
            Theme::new(colored, args.ascii)
        },
    }
}

/// Runs the interactive game: the plain line mode or the full-screen one. A game
/// option that cannot be used ([`CommandError::GameOption`]) is found before the
/// screen changes, and nothing on disk is touched.
pub fn run(args: &PlayArgs) -> Result<(), CommandError> {
    let session = starting_session(args)?;
    // Only a person playing the computer at a terminal is worth a build on first use.
    let interactive = !plain_wanted(args) || std::io::stdin().is_terminal();
    let against_computer = Color::ALL
        .into_iter()
        .any(|c| session.seats().is_computer(c));
    let session = session.with_egdb(game_egdb(interactive && against_computer));
    play(args, session).map_err(CommandError::Terminal)
}

/// Runs `session`: the plain line mode or the full-screen one.
fn play(args: &PlayArgs, session: Session) -> std::io::Result<()> {
    if plain_wanted(args) {
        let stdin = std::io::stdin();
        // Only a person at a terminal has a game worth keeping; a script never replaces it.
        let autosaver = if stdin.is_terminal() {
            Autosaver::new(session.autosave_record(&store::today()).as_ref())
        } else {
            Autosaver::disabled()
        };
        let mut plain = Plain::new(session, autosaver);
        crate::plain::run(stdin.lock(), &mut std::io::stdout().lock(), &mut plain)
    } else {
        crate::tui::run(tui_settings(args), session)
    }
}
