//! The interactive game (`checkers` with no subcommand): the session the options ask
//! for, the front end's settings, and starting plain line mode or the full-screen game.

use super::CommandError;
use super::preferences::{Preferences, ThemeChoice};
use crate::cli::{PlayArgs, Switch};
use crate::engine::Opening;
use crate::engine::egdb::{self, BuildOptions, Egdb};
use crate::game::Game;
use crate::game::tree::MoveTree;
use crate::pdn::{PdnGame, Players};
use crate::plain::Plain;
use crate::rules::{Color, Position};
use crate::runtime::{LastSave, Saving, watch_ending_signals};
use crate::session::{
    BallotChoice, BallotError, MatchBallots, Player, PlayerKind, RecordFile, Session,
};
use crate::store::{
    self, GameFile, SavedGame, StoreError, games_dir, load_record, resumable_games,
};
use crate::tui::analysis::AnalysisBoard;
use crate::tui::home::{Chosen, Home, Look, Side};
use crate::tui::theme::{colors_wanted, palette_256_wanted, true_color_wanted};
use crate::tui::{Opener, Settings, Start, Theme};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// Pieces of the endgame databases built on first use, in the background, when a person
/// plays the computer and the data folder has none: about 5 seconds of one core.
pub(crate) const FIRST_USE_PIECES: u32 = 4;

/// The environment variable that, set to anything, stops that first-use build.
pub(crate) const NO_BUILD_VARIABLE: &str = "CHECKERS_NO_EGDB_BUILD";

/// The endgame databases of the data folder, opened once at the start, and what of
/// them could not be used, in words to tell the players (a damaged slice, a FIFO under a
/// slice's name): the rest is used.
pub(crate) fn open_databases() -> (Option<Arc<Egdb>>, Vec<String>) {
    let Some(dir) = store::egdb_dir() else {
        return (None, Vec::new());
    };
    let (db, problems) = Egdb::open(&dir);
    let notices = problems
        .iter()
        .map(|e| format!("endgame databases: {e}; left out"))
        .collect();
    (Some(Arc::new(db)), notices)
}

/// The endgame databases `db` for a game (`None` when there are none and none are to
/// be built). With `build_missing`, the slices of up to [`FIRST_USE_PIECES`] pieces that
/// are missing are built on a background thread (once per program) and join the
/// databases as each is done.
pub(crate) fn game_egdb(db: &Option<Arc<Egdb>>, build_missing: bool) -> Option<Arc<Egdb>> {
    static BUILDING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    let db = db.as_ref()?;
    let build = build_missing
        && db.complete_pieces() < FIRST_USE_PIECES
        && std::env::var_os(NO_BUILD_VARIABLE).is_none();
    if db.slices() == 0 && !build {
        return None;
    }
    if build && !BUILDING.swap(true, std::sync::atomic::Ordering::SeqCst) {
        let shared = Arc::clone(db);
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
    Some(Arc::clone(db))
}

/// How many of a file's games that read are tried, when its first game does not read
/// at all and no `--game` was given (each is read again from the file to open it).
const FALLBACK_TRIES: usize = 8;

/// The session the options `args` ask for, when it is not `--resume` (see [`begin`]):
/// `--load` (opened for review), `--fen`, or a new game, with the players, names and
/// level given. A file that cannot be read or replayed is an error naming it; nothing
/// is changed on disk.
pub(crate) fn starting_session(
    args: &PlayArgs,
    db: &Option<Arc<Egdb>>,
) -> Result<Session, StoreError> {
    let session = if let Some(path) = &args.load {
        let number = args.game.unwrap_or(1) as usize;
        let summaries = super::records::summaries(path)?;
        let count = summaries.len();
        if number == 0 || number > count {
            return Err(StoreError::NoSuchGame {
                path: path.clone(),
                wanted: number,
                count,
            });
        }
        // A game is read again when it is opened: only the list stays in memory.
        let source = path.clone();
        let file = Arc::new(RecordFile {
            path: path.clone(),
            summaries,
            chosen: args.game.is_some(),
            loader: Box::new(move |n| match load_record(&source, n) {
                Ok(record) => Some(Ok(record)),
                Err(StoreError::Game(_, e)) => Some(Err(*e)),
                Err(_) => None,
            }),
        });
        // Without --game, a first game that does not read at all (another kind of
        // draughts, a bad set-up) leaves the file open at the first one that does: its
        // list offers the rest, and says what is wrong with the first.
        let opened = Session::review_file(Arc::clone(&file), number).or_else(|| {
            if args.game.is_some() {
                return None;
            }
            file.summaries()
                .iter()
                .filter(|s| !s.is_faulty())
                .take(FALLBACK_TRIES)
                .find_map(|s| Session::review_file(Arc::clone(&file), s.number))
        });
        match opened {
            Some(session) => session,
            // A game that does not read at all: say why, as a single load would.
            None => {
                load_record(path, number)?;
                return Err(StoreError::NoGames(path.clone()));
            }
        }
    } else if let Some(BallotChoice::Number(n)) = args.ballot {
        // [`run`] has refused a barred ballot without --barred already, and the
        // option's parser a number outside the deck.
        let session = Session::new(Game::new());
        match crate::session::ballot(n, true) {
            Ok(opening) => session.with_ballot(opening),
            Err(_) => session,
        }
    } else {
        Session::new(Game::from_position(
            args.fen.unwrap_or_else(Position::start),
        ))
    };
    Ok(configure(session, args, db))
}

/// The ballot `--ballot` asks for: the numbered one (a barred one only with
/// `--barred`), or one drawn with `seed` (crossboard, or mailplay too with
/// `--mailplay`). `None` without `--ballot`.
pub(crate) fn chosen_ballot(args: &PlayArgs, seed: u64) -> Result<Option<Opening>, BallotError> {
    match args.ballot {
        None => Ok(None),
        Some(BallotChoice::Number(n)) => crate::session::ballot(n, args.barred).map(Some),
        Some(BallotChoice::Random) => Ok(Some(crate::session::random_ballot(seed, args.mailplay))),
    }
}

/// The session of a resumed `record`: who played each side and the level come back
/// with the game, unless `--black`, `--white` or `--level` say otherwise now.
pub(crate) fn resumed_session(
    record: &PdnGame,
    args: &PlayArgs,
    db: &Option<Arc<Egdb>>,
) -> Session {
    configure(Session::from_record(record), args, db)
}

/// How a new match's games begin, from `--ballot` (a random draw decided by `seed`).
fn match_ballots(args: &PlayArgs, seed: u64) -> MatchBallots {
    match args.ballot {
        None => MatchBallots::None,
        Some(BallotChoice::Number(n)) => MatchBallots::Fixed(n),
        Some(BallotChoice::Random) => MatchBallots::Random {
            seed,
            mailplay: args.mailplay,
        },
    }
}

/// The file a new match's games go to: `--save` (made absolute, so a resume from
/// another folder finds it), or one named after the time in the data folder.
fn match_file(args: &PlayArgs) -> Option<PathBuf> {
    match &args.save {
        Some(path) => {
            let path = store::expand_home(path);
            Some(std::path::absolute(&path).unwrap_or(path))
        }
        None => store::default_match_path(store::now_unix()),
    }
}

/// `session` with the players, level and names the options ask for, and the endgame
/// databases `db`.
fn configure(session: Session, args: &PlayArgs, db: &Option<Arc<Egdb>>) -> Session {
    let level = args.level.unwrap_or(session.level());
    let mut seats = session.seats();
    for (color, kind) in [(Color::Black, args.black), (Color::White, args.white)] {
        if let Some(kind) = kind {
            // A side the record gave the computer keeps its own level when `--black cpu`
            // or `--white cpu` seats the computer there again without `--level`.
            let side_level = match (args.level, seats.computer(color)) {
                (None, Some(recorded)) => recorded,
                _ => level,
            };
            seats.set(color, Player::of_kind(kind, side_level));
        }
    }
    let session = session.with_seats(seats);
    // Only `--level` puts every computer side at one level: a record of two computers
    // at two levels ("BlackLevel" 3, "WhiteLevel" 5) gives each side its own back.
    let session = match args.level {
        Some(level) => session.with_level(level),
        None => session,
    };
    let session = session
        .with_names(Players {
            black: args.black_name.clone(),
            white: args.white_name.clone(),
        })
        .with_seed(store::now_unix())
        .with_threads(args.threads.unwrap_or(1));
    // A new match: its first game set up before the clock starts.
    let session = match args.match_rounds {
        Some(rounds) if !args.resume => session.with_match(
            rounds,
            match_ballots(args, store::now_unix()),
            match_file(args),
        ),
        _ => session,
    };
    // A timed game's clock starts now; a resumed one goes on with the clocks its record
    // kept, unless --clock or --move-timer says otherwise.
    let now = std::time::Instant::now();
    let session = match args.time_control() {
        Some(control) => session.with_clock(control, now),
        // A record opened with --load is reviewed, not played on the clock.
        None if args.resume => session.with_recorded_clock(now),
        None => session,
    };
    // Fair play: two people on a clock or in a match get no help from the engine unless
    // they ask for it; a resumed game keeps what its record says.
    let session = match args.assist {
        Some(switch) => session.with_assist(switch == Switch::On),
        None if args.resume => session,
        None => {
            let contest = session.clock().is_some() || session.match_play().is_some();
            let assist = !(contest && session.seats().people());
            session.with_assist(assist)
        }
    };
    // Only a person playing the computer at a terminal is worth a build on first use.
    let interactive = !plain_wanted(args) || std::io::stdin().is_terminal();
    let against_computer = Color::ALL.into_iter().any(|c| seats.is_computer(c));
    session.with_egdb(game_egdb(db, interactive && against_computer))
}

/// How the interactive game begins.
pub(crate) enum Begin {
    /// A session to play; a resumed game comes with its file, locked.
    Play(Box<Session>, Option<GameFile>),
    /// `--resume` found several unfinished games (newest first): the player chooses.
    Choose(Vec<SavedGame>),
}

/// What the options `args` start: with `--resume`, the newest unfinished game not open
/// in another window (claimed: its file locked), or the list to choose from when there
/// are several or one of them was hosted across the network (chosen, such a game is
/// hosted again, never played at one terminal); otherwise [`starting_session`]. The
/// data folder is tidied first (see [`store::tidy_data_dir`]).
pub(crate) fn begin(args: &PlayArgs, db: &Option<Arc<Egdb>>) -> Result<Begin, StoreError> {
    store::tidy_data_dir();
    if !args.resume {
        return Ok(Begin::Play(Box::new(starting_session(args, db)?), None));
    }
    let found = resumable_games()?;
    if !found.hosted.is_empty() {
        return Ok(Begin::Choose(found.offered(true)));
    }
    let mut games = found.games;
    match games.len() {
        0 => Err(StoreError::NothingToResume {
            dir: games_dir().ok_or(StoreError::NoDataDir)?,
            open_elsewhere: found.open_elsewhere,
            unreadable: found.unreadable,
            across_the_network: found.across_the_network,
            joined: store::games::joined_unfinished(),
        }),
        1 => {
            let (file, record) = store::games::claim(&games.remove(0))?;
            Ok(Begin::Play(
                Box::new(resumed_session(&record, args, db)),
                Some(file),
            ))
        }
        _ => Ok(Begin::Choose(games)),
    }
}

/// Whether to play in plain line mode: asked for, or the terminal cannot show the
/// full-screen game (standard input or output redirected, `TERM=dumb`).
pub(crate) fn plain_wanted(args: &PlayArgs) -> bool {
    args.screen.look.plain
        || !std::io::stdin().is_terminal()
        || !std::io::stdout().is_terminal()
        || std::env::var_os("TERM").is_some_and(|t| t == "dumb")
}

/// The full-screen game's settings from the options `args`, the preferences `prefs`
/// (their theme and coordinates; the rest is in `args` already) and the environment
/// (`NO_COLOR`, `TERM`, `COLORTERM`).
pub(crate) fn tui_settings(args: &PlayArgs, prefs: &Preferences) -> Settings {
    let colored = colors_wanted(
        args.screen.look.no_color,
        std::env::var_os("NO_COLOR").as_deref(),
        std::env::var_os("TERM").as_deref(),
    );
    Settings {
        bell: !args.screen.quiet,
        flipped: args.flip,
        mouse: !args.screen.look.no_mouse,
        coordinates: prefs.coordinates == Some(true),
        setup: args.setup,
        theme: if colored {
            palette(prefs)(args.screen.look.ascii)
        } else {
            Theme::new(false, args.screen.look.ascii)
        },
    }
}

/// The coloured theme for the preferences `prefs` and the terminal (`COLORTERM`,
/// `TERM`): true colour, the 256-colour palette or the 16 named colours, for ASCII or
/// not.
fn palette(prefs: &Preferences) -> fn(bool) -> Theme {
    let tier = match prefs.theme {
        Some(choice) if choice != ThemeChoice::Auto => choice,
        _ if true_color_wanted(std::env::var_os("COLORTERM").as_deref()) => ThemeChoice::TrueColor,
        _ if palette_256_wanted(std::env::var_os("TERM").as_deref()) => ThemeChoice::Palette256,
        _ => ThemeChoice::Palette16,
    };
    match tier {
        ThemeChoice::TrueColor => Theme::true_color,
        ThemeChoice::Palette256 => Theme::palette_256,
        _ => |ascii| Theme::new(true, ascii),
    }
}

/// Whether `checkers` opens the home screen: no option names a game or how it is
/// played (only how it is shown: `--flip`, `--no-color`, `--ascii`, `--no-mouse`,
/// `--quiet`), and not in plain mode. Every option is named here, so that a new one
/// has to be placed on one side or the other.
pub(crate) fn home_wanted(args: &PlayArgs) -> bool {
    let PlayArgs {
        flip: _,
        screen,
        fen,
        load,
        game,
        resume,
        setup,
        black_name,
        white_name,
        black,
        white,
        level,
        ballot,
        barred,
        mailplay,
        clock,
        move_timer,
        match_rounds,
        save,
        assist,
        threads,
        analyse,
        explore_pdn,
    } = args;
    let named = [
        fen.is_some(),
        load.is_some(),
        game.is_some(),
        black_name.is_some(),
        white_name.is_some(),
        black.is_some(),
        white.is_some(),
        level.is_some(),
        ballot.is_some(),
        clock.is_some(),
        match_rounds.is_some(),
        save.is_some(),
        assist.is_some(),
        threads.is_some(),
        explore_pdn.is_some(),
        *resume,
        *setup,
        *barred,
        *mailplay,
        *move_timer,
        *analyse,
    ];
    !screen.look.plain && !named.contains(&true)
}

/// What a choice at the home screen begins, as the command line would: `args` (the
/// preferences applied) with the choice, and the settings' assistance for a game not
/// resumed (a resumed one keeps its own).
pub(crate) fn home_begin(
    args: &PlayArgs,
    chosen: &Chosen,
    look: &Look,
    db: &Option<Arc<Egdb>>,
) -> Result<Begin, StoreError> {
    let mut args = args.clone();
    if let Some(on) = look.assist
        && *chosen != Chosen::Resume
    {
        args.assist = Some(if on { Switch::On } else { Switch::Off });
    }
    match chosen {
        // The puzzles are started by the home screen's opener, not as a game.
        Chosen::TwoPlayers | Chosen::Puzzles => {}
        Chosen::Computer { side, level } => {
            let person = match side {
                Side::Black => Color::Black,
                Side::White => Color::White,
                Side::Random if store::now_unix().is_multiple_of(2) => Color::Black,
                Side::Random => Color::White,
            };
            match !person {
                Color::Black => args.black = Some(PlayerKind::Cpu),
                Color::White => args.white = Some(PlayerKind::Cpu),
            }
            args.level = Some(*level);
        }
        Chosen::Resume => args.resume = true,
        Chosen::Open(path) => args.load = Some(store::expand_home(path)),
        // The home screen's opener starts the analysis board and the games across the
        // network itself.
        Chosen::Analysis | Chosen::Host { .. } | Chosen::Join { .. } | Chosen::Online { .. } => {}
    }
    // The data folder was tidied when the home screen opened.
    if args.resume {
        // The games hosted across the network are offered too: chosen, they are hosted
        // again.
        begin(&args, db)
    } else {
        Ok(Begin::Play(Box::new(starting_session(&args, db)?), None))
    }
}

/// The home screen's settings as the options `args` (the preferences `prefs` applied)
/// and the terminal give them.
pub(crate) fn home_look(args: &PlayArgs, prefs: &Preferences) -> Look {
    let settings = tui_settings(args, prefs);
    Look {
        colored: settings.theme.colored,
        ascii: args.screen.look.ascii,
        coordinates: settings.coordinates,
        assist: args.assist.map(|switch| switch == Switch::On),
        palette: palette(prefs),
    }
}

/// The home screen, and what its choices start: the settings as the options `args`,
/// the preferences `prefs` and the terminal give them; `notices` shown on it.
fn run_home(
    args: &PlayArgs,
    prefs: &Preferences,
    notices: Vec<String>,
    db: &Option<Arc<Egdb>>,
) -> Result<(), CommandError> {
    let settings = tui_settings(args, prefs);
    let mut home = Home::new(home_look(args, prefs), args.level.unwrap_or_default());
    home.preferences = super::preferences::place();
    // The server form offers the server last logged in to.
    if let Ok(server) = crate::online::default_server() {
        home.network.offer_server(server);
    }
    // Said on the home screen, and again in the game they are about.
    if !notices.is_empty() {
        home.message = Some(notices.join(" "));
    }
    let (args, db) = (args.clone(), db.clone());
    let open: Opener = Box::new(move |chosen, look| {
        if *chosen == Chosen::Puzzles {
            return super::puzzle::screen(None, look.theme(), &db).map(Start::Puzzles);
        }
        if *chosen == Chosen::Analysis {
            let settings = Settings {
                theme: look.theme(),
                coordinates: look.coordinates,
                ..settings
            };
            let tree = MoveTree::new(Position::start());
            return Ok(Start::Analysis(Box::new(analysis_board(
                tree,
                PdnGame::new(Position::start()),
                &settings,
                &db,
                "the home screen",
            ))));
        }
        if let Some(start) = network_from_home(&args, chosen, look) {
            return start;
        }
        match home_begin(&args, chosen, look, &db) {
            Ok(Begin::Play(session, file)) => Ok(Start::Game(session, saving_for(file), None)),
            Ok(Begin::Choose(games)) => {
                let (args, db) = (args.clone(), db.clone());
                Ok(Start::Choose {
                    games,
                    hosted_too: true,
                    take_up: Box::new(move |file, record| take_up(file, record, &args, &db)),
                })
            }
            Err(e) => Err(e.to_string()),
        }
    });
    crate::tui::run(settings, Start::Home(Box::new(home), open), notices)
}

/// The game chosen from a list of unfinished games (`file`, claimed, holding `record`),
/// taken up with the options `args`: one hosted across the network is hosted again, as
/// `checkers host --resume` hosts it (never played at one terminal, which lost who
/// played where); any other goes on here.
fn take_up(
    file: GameFile,
    record: &PdnGame,
    args: &PlayArgs,
    db: &Option<Arc<Egdb>>,
) -> Result<crate::tui::TakenUp, String> {
    if store::games::hosted_here(record) {
        let hosted = super::network::hosted_again(file, record.clone(), args)
            .map_err(|e| format!("Not hosted: {e}"))?;
        return Ok(crate::tui::TakenUp {
            session: hosted.session,
            saving: hosted.saving,
            table: Some(hosted.table),
            notices: hosted.notices,
        });
    }
    Ok(crate::tui::TakenUp {
        session: resumed_session(record, args, db),
        saving: Saving::Resumed(file),
        table: None,
        notices: Vec::new(),
    })
}

/// What the home screen's network page starts, as `checkers host`, `join` and `watch`
/// start it with the options `args` (the preferences applied) and the settings `look`;
/// `None` for the other choices. Why it cannot start (a port taken, a host that
/// refuses or cannot be reached) is an error for the home screen to say.
pub(crate) fn network_from_home(
    args: &PlayArgs,
    chosen: &Chosen,
    look: &Look,
) -> Option<Result<Start, String>> {
    let started = match chosen {
        Chosen::Host {
            side,
            clock,
            port,
            name,
        } => {
            let mut play = args.clone();
            play.clock = *clock;
            play.move_timer = false;
            if let Some(on) = look.assist {
                play.assist = Some(if on { Switch::On } else { Switch::Off });
            }
            let host = crate::cli::HostArgs {
                port: Some(*port),
                bind: Some(std::net::IpAddr::from([0, 0, 0, 0])),
                code: None,
                side: Some(match side {
                    Side::Black => crate::cli::SideChoice::Black,
                    Side::White => crate::cli::SideChoice::White,
                    Side::Random => crate::cli::SideChoice::Random,
                }),
                name: name.clone(),
                play: play.clone(),
            };
            super::network::hosted(&host, &play, "type another port, or 0 for a free one")
                .map_err(|e| format!("Not hosted: {e}"))
                .map(|hosted| {
                    Start::Game(Box::new(hosted.session), hosted.saving, Some(hosted.table))
                })
        }
        Chosen::Join {
            address,
            code,
            name,
            role,
        } => {
            let join = crate::cli::JoinArgs {
                address: address.clone(),
                code: code.clone(),
                name: name.clone(),
                flip: false,
                screen: args.screen.clone(),
            };
            // The home screen is drawn meanwhile: a refusal that passes is not told.
            let failed = match role {
                crate::net::protocol::Role::Player => "Not joined",
                crate::net::protocol::Role::Spectator => "Not watching",
            };
            super::network::joined(&join, *role, |_| {})
                .map_err(|e| format!("{failed}: {e}"))
                .map(|(session, table)| Start::Game(Box::new(session), Saving::Off, Some(table)))
        }
        Chosen::Online {
            server,
            name,
            trusted,
        } => {
            let options = crate::online::OnlineOptions {
                server: server.clone(),
                name: name.clone(),
                export: None,
                fingerprint: *trusted,
            };
            // What leaving the lobby says is shown on the home screen it returns to.
            let farewell = std::sync::Arc::new(std::sync::Mutex::new(None));
            // A server met for the first time: the home screen asks first, as `checkers
            // online` does, and nothing is pinned before the player trusts it.
            crate::online::unmet_server(&options)
                .and_then(|unmet| match unmet {
                    Some((address, fingerprint)) => Ok(Start::FirstContact(Box::new(
                        crate::tui::home::FirstContact {
                            address,
                            name: name.clone(),
                            fingerprint,
                        },
                    ))),
                    None => crate::online::lobby_start(&options, look.theme(), farewell),
                })
                .map_err(|e| not_connected(&e))
        }
        _ => return None,
    };
    Some(started)
}

/// Why the home screen's server form did not connect, as its message box says it: one
/// paragraph, a changed certificate's warning in short (the full one ran past the box
/// at 80x24, cutting what to do).
pub(crate) fn not_connected(e: &CommandError) -> String {
    if let CommandError::CertificateChanged { short, .. } = e {
        return crate::text::capitalized(short);
    }
    // A warning's lines (and the blanks that line up its fingerprints) run on.
    let why = e
        .to_string()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    let why = why.strip_prefix("not connected: ").unwrap_or(&why);
    format!("Not connected: {why}")
}

/// The analysis board showing `tree` (`record`'s tags kept for a save), its search
/// probing the databases `db`; `opened_from` names where leaving it goes.
pub(crate) fn analysis_board(
    tree: MoveTree,
    record: PdnGame,
    settings: &Settings,
    db: &Option<Arc<Egdb>>,
    opened_from: &'static str,
) -> AnalysisBoard {
    AnalysisBoard::new(
        tree,
        record,
        settings,
        game_egdb(db, false),
        ratatui::layout::Rect::default(),
        opened_from,
        true,
    )
}

/// `checkers --analyse`: the analysis board from the start, `--fen`, or `--load`'s
/// game (`--game N`) with its variations, in the full-screen front end.
fn run_analysis(
    args: &PlayArgs,
    prefs: &Preferences,
    notices: Vec<String>,
    db: &Option<Arc<Egdb>>,
) -> Result<(), CommandError> {
    let mut notices = notices;
    // Read before the board opens: a file that cannot be read, or holds no game, is
    // refused in words, not found empty in the panel.
    let file_games = match &args.explore_pdn {
        Some(path) => {
            let path = store::expand_home(path);
            let games = crate::explorer::of_file(&path, None).map_err(CommandError::ExploreFile)?;
            notices.extend(explore_file_notice(&path, &games));
            let name = path
                .file_name()
                .map_or_else(|| path.to_string_lossy(), |n| n.to_string_lossy());
            Some((crate::text::printable(&name, 200), games))
        }
        None => None,
    };
    let (record, mut tree) = match &args.load {
        Some(path) => {
            let number = args.game.unwrap_or(1) as usize;
            let (record, tree, fault) =
                crate::tui::analysis::load_tree(&store::expand_home(path), number)
                    .map_err(CommandError::GameOption)?;
            // A record with a faulty move opens up to it, and says so.
            notices.extend(fault.map(|fault| crate::tui::analysis::fault_notice(&fault)));
            (record, tree)
        }
        None => {
            let start = args.fen.unwrap_or_else(Position::start);
            (PdnGame::new(start), MoveTree::new(start))
        }
    };
    tree.go_to_start();
    let mut settings = tui_settings(args, prefs);
    // A game of one's own against the computer is seen from one's side, as `--load`
    // shows it on the play board: playing White, White at the bottom (`--flip` turns it).
    let seats = crate::session::seats_from_tags(|name| record.tag(name).map(String::from));
    settings.flipped ^= seats.only_person_here() == Some(Color::White);
    let mut board = analysis_board(tree, record, &settings, db, "the command line");
    board.file_games = file_games;
    crate::tui::run(settings, Start::Analysis(Box::new(board)), notices)
}

/// What the board says at its start of the `--explore-pdn` file `path`'s games that
/// its explorer leaves out (their moves do not replay, or another kind of draughts),
/// with where to see why; nothing when every game is in.
fn explore_file_notice(
    path: &std::path::Path,
    games: &crate::explorer::Explorer,
) -> Option<String> {
    let (faulty, other) = (games.games_skipped(), games.games_of_other_kinds());
    if faulty + other == 0 {
        return None;
    }
    let read = games.games_read();
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    let mut said = format!("--explore-pdn: {read} game{} read", plural(read));
    if faulty > 0 {
        said.push_str(&format!(
            ", {faulty} skipped (their moves do not replay: checkers pdn check {} lists them)",
            crate::text::printable_path(path)
        ));
    }
    if other > 0 {
        said.push_str(&format!(
            ", {other} skipped as another kind of draughts (not GameType 21)"
        ));
    }
    Some(said)
}

/// Runs the interactive game: the plain line mode or the full-screen one. A game
/// option that cannot be used ([`CommandError::GameOption`]) is found before the
/// screen changes, and nothing on disk is touched.
pub(crate) fn run(args: &PlayArgs) -> Result<(), CommandError> {
    // Decided on the command line alone: a clock or a level from the preferences is
    // for the game the home screen starts, not a game named.
    let home = home_wanted(args) && !plain_wanted(args);
    // A random ballot is drawn once, here, and the game starts from that number (a
    // match draws one for each round itself).
    // The level given on the command line, not the preferences' (which is for a game
    // against the computer, when there is one).
    let level_given = args.level;
    let mut args = args.clone();
    let (prefs, mut notices) = super::preferences::load_into(&mut args);
    if let Some(opening) = chosen_ballot(&args, store::now_unix()).map_err(CommandError::Ballot)?
        && args.match_rounds.is_none()
    {
        args.ballot = Some(BallotChoice::Number(opening.number));
        args.barred = true;
    }
    if let Some(path) = &args.save {
        store::files::check_appendable(&store::expand_home(path))
            .map_err(CommandError::SaveFile)?;
    }
    let args = &args;
    // Opened once, before the game: what of them cannot be used is told at the start.
    let (db, db_notices) = open_databases();
    notices.extend(db_notices);
    if home {
        store::tidy_data_dir();
        // A game that could not be saved ends the program as in plain mode: status 1.
        return run_home(args, &prefs, notices, &db);
    }
    if args.analyse && !plain_wanted(args) {
        return run_analysis(args, &prefs, notices, &db);
    }
    if args.analyse {
        notices.push(
            "--analyse opens the full-screen analysis board; in plain mode `lines N` prints \
             the best lines"
                .to_string(),
        );
    }
    if args.explore_pdn.is_some() {
        notices.push(
            "--explore-pdn is for the full-screen board's explorer; in plain mode `explore` \
             shows Tinsley's games (checkers explore --pdn FILE lists a file's)"
                .to_string(),
        );
    }
    let begin = begin(args, &db)?;
    if let (Some(level), Begin::Play(session, _)) = (level_given, &begin)
        && session.seats().people()
    {
        notices.push(level_without_computer(level, plain_wanted(args)));
    }
    if plain_wanted(args) {
        if args.setup {
            notices.push(
                "--setup opens the full-screen game's editor; plain mode starts from --fen FEN"
                    .to_string(),
            );
        }
        for notice in &notices {
            eprintln!("checkers: {}", crate::text::printable(notice, 600));
        }
        run_plain(args, &prefs, begin, &db)
    } else {
        // A game that could not be saved ends the program as in plain mode: status 1.
        run_tui(args, &prefs, notices, begin, &db)
    }
}

/// What `--level` says when people play both sides: the level is the computer's, and
/// how to play it. On the full-screen board (not `plain`) it is the level of a side
/// handed to the computer with `b` or `w`, so the game goes on with it.
fn level_without_computer(level: crate::engine::Level, plain: bool) -> String {
    let n = level.number();
    let here = if plain {
        ""
    } else {
        "; during the game b or w hands it a side at that level"
    };
    format!(
        "--level {n} sets the computer's strength, but no computer plays this game: \
         --white cpu (or --black cpu) plays the computer{here}"
    )
}

/// Whether the game is kept as it is played: only a person's at a terminal (standard
/// input a terminal); a script's games would fill the games folder.
fn autosave_wanted() -> bool {
    std::io::stdin().is_terminal()
}

/// How `session` is kept: in its file if it was resumed, a new one at its first
/// change otherwise, nowhere for scripts.
fn saving_for(file: Option<GameFile>) -> Saving {
    match file {
        Some(file) => Saving::Resumed(file),
        None if autosave_wanted() => Saving::New,
        None => Saving::Off,
    }
}

/// Plain mode: the choice of game when there are several, then the session; on a
/// signal that would end the program, the game is saved first. A game that could not
/// be saved at the end is an error ([`CommandError::NotSaved`]). A game chosen that was
/// hosted across the network is hosted again (with the preferences `prefs`), as
/// `checkers host --resume` hosts it.
fn run_plain(
    args: &PlayArgs,
    prefs: &Preferences,
    begin: Begin,
    db: &Option<Arc<Egdb>>,
) -> Result<(), CommandError> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut out = crate::text::LocaleOut::stdout();
    let (session, file) = match begin {
        Begin::Play(session, file) => (*session, file),
        Begin::Choose(games) => match crate::plain::choose_game(&mut input, &mut out, &games)? {
            Some(i) => {
                let (file, record) = store::games::claim(&games[i])?;
                if store::games::hosted_here(&record) {
                    drop(input);
                    return super::network::host_again_plain(file, record, args, prefs);
                }
                (resumed_session(&record, args, db), Some(file))
            }
            None => return Ok(()),
        },
    };
    let asked = args.black.is_some() || args.white.is_some();
    let session = crate::plain::loaded_seats(session, asked);
    let mut plain = Plain::new(session, saving_for(file));
    watch_signals_plain(plain.runtime().last_save())?;
    watch_stops_plain(plain.stopped_at())?;
    // The lines are read on a thread of their own (so the clocks are watched meanwhile):
    // from the same buffered standard input the choice above read from.
    drop(input);
    let input = std::io::BufReader::new(std::io::stdin());
    let result = crate::plain::run(input, &mut out, &mut plain);
    let unsaved = plain.finish();
    result?;
    match unsaved {
        Some(why) => Err(CommandError::NotSaved(why)),
        None => Ok(()),
    }
}

/// Plain mode's signals: every one that would end the program saves the game first and
/// says on standard error whether it is kept. A broken pipe is left to the write that
/// fails.
fn watch_signals_plain(last_save: LastSave) -> std::io::Result<()> {
    #[cfg(unix)]
    let left_alone = [crate::signals::PIPE];
    #[cfg(not(unix))]
    let left_alone = [];
    watch_ending_signals(last_save, &left_alone, |_, saved| {
        let mut err = std::io::stderr();
        match saved {
            Err(e) => {
                let _ = writeln!(err, "\ncheckers: the game is NOT saved: {e}");
            }
            Ok(Some(path)) => {
                let _ = writeln!(err, "\ncheckers: the game is saved in {}", path.display());
            }
            Ok(None) => {}
        }
    })
}

/// Plain mode's Ctrl-Z (SIGTSTP): the time it stopped at is noted, so that the clocks
/// stand still from then (see [`Plain::stopped_at`]), and the process stops as it would
/// by default, until `fg`. Unix only.
fn watch_stops_plain(
    stopped_at: std::sync::Arc<std::sync::Mutex<Option<std::time::Instant>>>,
) -> std::io::Result<()> {
    #[cfg(unix)]
    crate::signals::watch(&[crate::signals::STOP], move |_| {
        *stopped_at
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(std::time::Instant::now());
        crate::signals::stop_process();
    })?;
    #[cfg(not(unix))]
    let _ = stopped_at;
    Ok(())
}

/// The full-screen game: the picker first when there are several games to choose from.
fn run_tui(
    args: &PlayArgs,
    prefs: &Preferences,
    notices: Vec<String>,
    begin: Begin,
    db: &Option<Arc<Egdb>>,
) -> Result<(), CommandError> {
    let start = match begin {
        Begin::Play(session, file) => Start::Game(session, saving_for(file), None),
        Begin::Choose(games) => {
            let (args, db) = (args.clone(), db.clone());
            Start::Choose {
                games,
                hosted_too: true,
                take_up: Box::new(move |file, record| take_up(file, record, &args, &db)),
            }
        }
    };
    crate::tui::run(tui_settings(args, prefs), start, notices)
}

/// A game across the network at `table`, on the full-screen board or in plain mode as
/// `args` and the terminal say: `session`, kept as `saving` says.
pub(crate) fn run_at_table(
    args: &PlayArgs,
    prefs: &Preferences,
    notices: Vec<String>,
    session: Session,
    saving: Saving,
    table: crate::runtime::Table,
) -> Result<(), CommandError> {
    if plain_wanted(args) {
        for notice in &notices {
            eprintln!("checkers: {}", crate::text::printable(notice, 600));
        }
        let mut plain = Plain::new(session, saving).at_table(table);
        watch_signals_plain(plain.runtime().last_save())?;
        let input = std::io::BufReader::new(std::io::stdin());
        let mut out = crate::text::LocaleOut::stdout();
        let result = crate::plain::run(input, &mut out, &mut plain);
        let unsaved = plain.finish();
        result?;
        return match unsaved {
            Some(why) => Err(CommandError::NotSaved(why)),
            None => Ok(()),
        };
    }
    let start = crate::tui::Start::Game(Box::new(session), saving, Some(table));
    crate::tui::run(tui_settings(args, prefs), start, notices)
}
