//! The interactive game (`checkers` with no subcommand): the game the options ask for,
//! the front end's settings, and starting plain line mode or the full-screen game.

use super::CommandError;
use crate::cli::PlayArgs;
use crate::computer::Sides;
use crate::game::Game;
use crate::plain::Session;
use crate::rules::Position;
use crate::store::{Players, StoreError, game_from_record, load_autosave, load_record};
use crate::tui::theme::colors_wanted;
use crate::tui::{Settings, Theme};
use std::io::IsTerminal;

/// The game to start with, from `--resume`, `--load`, `--fen` or a new game.
#[derive(Debug, Default)]
pub struct StartingGame {
    /// The game.
    pub game: Game,
    /// The players' names.
    pub players: Players,
    /// Opened from a file for review (start at its first position).
    pub review: bool,
    /// The tags of the record opened with `--load` (empty otherwise), its result
    /// included as a `Result` tag.
    pub tags: Vec<(String, String)>,
}

impl StartingGame {
    /// The game the options `args` ask for. A file that cannot be read or replayed is
    /// an error naming it; nothing is changed on disk.
    pub fn from_args(args: &PlayArgs) -> Result<StartingGame, StoreError> {
        let mut tags = Vec::new();
        let (game, mut players, review) = if args.resume {
            let (game, players) = load_autosave()?;
            (game, players, false)
        } else if let Some(path) = &args.load {
            let number = args.game.unwrap_or(1) as usize;
            let mut record = load_record(path, number)?;
            if record.tag("Result").is_none()
                && let Some(result) = record.result.clone()
            {
                record.set_tag("Result", &result);
            }
            let (game, players) = game_from_record(&record);
            tags = record.tags;
            (game, players, true)
        } else {
            (
                Game::from_position(args.fen.unwrap_or_else(Position::start)),
                Players::default(),
                false,
            )
        };
        if let Some(name) = &args.black_name {
            players.black = Some(name.clone());
        }
        if let Some(name) = &args.white_name {
            players.white = Some(name.clone());
        }
        Ok(StartingGame {
            game,
            players,
            review,
            tags,
        })
    }
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
        theme: Theme::new(colored, args.ascii),
        sides: sides(args),
        level: args.level(),
    }
}

/// Who plays each side, from `--black` and `--white`.
pub fn sides(args: &PlayArgs) -> Sides {
    Sides {
        black: args.black(),
        white: args.white(),
    }
}

/// Runs the interactive game: the plain line mode or the full-screen one. A game
/// option that cannot be used ([`CommandError::GameOption`]) is found before the
/// screen changes, and nothing on disk is touched.
pub fn run(args: &PlayArgs) -> Result<(), CommandError> {
    let start = StartingGame::from_args(args)?;
    play(args, start).map_err(CommandError::Terminal)
}

/// Runs the game `start`: the plain line mode or the full-screen one.
fn play(args: &PlayArgs, start: StartingGame) -> std::io::Result<()> {
    if plain_wanted(args) {
        let stdin = std::io::stdin();
        let mut session = Session::new(start.game, start.players, stdin.is_terminal());
        session.sides = sides(args);
        session.level = args.level();
        session.seed = crate::store::now_unix();
        crate::plain::run(stdin.lock(), &mut std::io::stdout().lock(), &mut session)
    } else {
        crate::tui::run(tui_settings(args), start)
    }
}
