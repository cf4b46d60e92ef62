//! The command line: clap derive types, and the non-interactive commands.

use crate::game::Game;
use crate::pdn::{decode, read_games};
use crate::rules::{Position, perft, perft_divide};
use crate::store::{Players, StoreError, game_from_record, load_autosave, load_record};
use crate::tui::theme::colors_wanted;
use crate::tui::{Settings, Theme};
use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// English draughts (American checkers) in the terminal.
#[derive(Debug, Parser)]
#[command(name = "checkers", version, about)]
pub struct Cli {
    /// What to do; with none, the interactive game starts.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Start with White at the bottom of the board.
    #[arg(long)]
    pub flip: bool,
    /// Leave mouse capture off, so text on screen can be selected.
    #[arg(long)]
    pub no_mouse: bool,
    /// No colours (also when NO_COLOR is set or TERM=dumb).
    #[arg(long)]
    pub no_color: bool,
    /// Draw with ASCII characters only.
    #[arg(long)]
    pub ascii: bool,
    /// Play in plain line mode: text in, text out (automatic when standard input or
    /// output is not a terminal, or TERM=dumb).
    #[arg(long)]
    pub plain: bool,
    /// Start from this position (PDN FEN, e.g. "W:W18,K30:B11,K2").
    #[arg(long, value_parser = clap::value_parser!(Position), conflicts_with_all = ["load", "resume"])]
    pub fen: Option<Position>,
    /// Open a game from a PDN file, to review it or play on from any point.
    #[arg(long, value_name = "FILE", conflicts_with = "resume")]
    pub load: Option<PathBuf>,
    /// Which game of the --load file to open, counting from 1.
    #[arg(long, value_name = "N", requires = "load", value_parser = clap::value_parser!(u32).range(1..))]
    pub game: Option<u32>,
    /// Continue the game in progress, saved automatically after every move.
    #[arg(long)]
    pub resume: bool,
    /// Black's name, for saved records.
    #[arg(long, value_name = "NAME")]
    pub black_name: Option<String>,
    /// White's name, for saved records.
    #[arg(long, value_name = "NAME")]
    pub white_name: Option<String>,
}

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

impl Cli {
    /// The game these options ask for. A file that cannot be read or replayed is an
    /// error naming it; nothing is changed on disk.
    pub fn starting_game(&self) -> Result<StartingGame, StoreError> {
        let mut tags = Vec::new();
        let (game, mut players, review) = if self.resume {
            let (game, players) = load_autosave()?;
            (game, players, false)
        } else if let Some(path) = &self.load {
            let number = self.game.unwrap_or(1) as usize;
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
                Game::from_position(self.fen.unwrap_or_else(Position::start)),
                Players::default(),
                false,
            )
        };
        if let Some(name) = &self.black_name {
            players.black = Some(name.clone());
        }
        if let Some(name) = &self.white_name {
            players.white = Some(name.clone());
        }
        Ok(StartingGame {
            game,
            players,
            review,
            tags,
        })
    }

    /// Whether to play in plain line mode: asked for, or the terminal cannot show the
    /// full-screen game (standard input or output redirected, `TERM=dumb`).
    pub fn plain_wanted(&self) -> bool {
        use std::io::IsTerminal;
        self.plain
            || !std::io::stdin().is_terminal()
            || !std::io::stdout().is_terminal()
            || std::env::var_os("TERM").is_some_and(|t| t == "dumb")
    }
}

impl Cli {
    /// The interactive game's settings from these options and the environment
    /// (`NO_COLOR`, `TERM`).
    pub fn tui_settings(&self) -> Settings {
        let colored = colors_wanted(
            self.no_color,
            std::env::var_os("NO_COLOR").as_deref(),
            std::env::var_os("TERM").as_deref(),
        );
        Settings {
            flipped: self.flip,
            mouse: !self.no_mouse,
            theme: Theme::new(colored, self.ascii),
        }
    }
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf positions of the move tree to DEPTH plies (every capture route counts).
    Perft {
        /// Plies to search (0-30).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
        depth: u32,
        /// Start from this position (PDN FEN, e.g. "B:W21-32:B1-12") instead of the start.
        #[arg(long, value_parser = clap::value_parser!(Position))]
        fen: Option<Position>,
        /// Also print the count under each first move.
        #[arg(long)]
        divide: bool,
        /// Threads to split the first moves over.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
    },
    /// List every legal move of a position, one per line, with every landing square.
    Moves {
        /// The position (PDN FEN); the start position if not given.
        #[arg(long, value_parser = clap::value_parser!(Position))]
        fen: Option<Position>,
    },
    /// Work with PDN game records.
    Pdn {
        /// What to do with the file.
        #[command(subcommand)]
        action: PdnCommand,
    },
}

/// The `pdn` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdnCommand {
    /// Read and replay every game of FILE; report each faulty game, then a summary.
    /// Exits 0 only if every game replays.
    Check {
        /// The PDN file.
        file: PathBuf,
    },
}

/// Runs `checkers perft`, writing the report to `out`.
pub fn run_perft(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    divide: bool,
    threads: usize,
) -> io::Result<()> {
    let started = Instant::now();
    let total = if divide || threads > 1 {
        let split = perft_divide(pos, depth, threads);
        if divide {
            for (m, n) in &split {
                writeln!(out, "{m} {n}")?;
            }
        }
        if depth == 0 {
            1
        } else {
            split.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(pos, depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "{total}")?;
    let per_second = if seconds > 0.0 {
        (total as f64 / seconds) as u64
    } else {
        0
    };
    writeln!(out, "time {seconds:.3} s, {per_second} nodes/s")?;
    Ok(())
}

/// Runs `checkers moves`: every legal move, sorted, each with all its landing squares.
pub fn run_moves(out: &mut impl Write, pos: &Position) -> io::Result<()> {
    for m in pos.legal_moves() {
        writeln!(out, "{m}")?;
    }
    Ok(())
}

/// The result of `checkers pdn check`: how many games, how many replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckSummary {
    /// Games in the file.
    pub games: usize,
    /// Games that replayed to their end.
    pub replayed: usize,
}

/// Runs `checkers pdn check FILE`: each faulty game on a line of `out`, then
/// `N games: K replayed, E with errors`. A file that cannot be read is an error naming it.
pub fn run_pdn_check(out: &mut impl Write, file: &Path) -> Result<CheckSummary, CliError> {
    let bytes = std::fs::read(file).map_err(|e| CliError::File(file.to_path_buf(), e))?;
    let games = read_games(&decode(&bytes));
    let mut replayed = 0;
    for game in &games {
        match game {
            Ok(_) => replayed += 1,
            Err(e) => writeln!(out, "{e}").map_err(CliError::Output)?,
        }
    }
    let errors = games.len() - replayed;
    writeln!(
        out,
        "{} games: {replayed} replayed, {errors} with errors",
        games.len()
    )
    .map_err(CliError::Output)?;
    Ok(CheckSummary {
        games: games.len(),
        replayed,
    })
}

/// A command that could not be carried out.
#[derive(Debug)]
pub enum CliError {
    /// A file could not be read or written.
    File(PathBuf, io::Error),
    /// Standard output could not be written.
    Output(io::Error),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::File(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            CliError::Output(e) => write!(f, "cannot write the output: {e}"),
        }
    }
}

impl std::error::Error for CliError {}
