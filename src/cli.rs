//! The command line: clap derive types, and the non-interactive commands.

use crate::computer::{PlayerKind, Sides};
use crate::engine::{
    ComputerPlayer, Engine, GameEnd, GameRules, Level, Limits, SearchRequest, StopFlag,
    acf_openings, line_notation, parse_openings, play_game,
};
use crate::game::Game;
use crate::pdn::{PdnGame, decode, read_games, write_game};
use crate::rules::Color;
use crate::rules::{Position, perft, perft_divide};
use crate::store::{Players, StoreError, game_from_record, load_autosave, load_record};
use crate::tui::theme::colors_wanted;
use crate::tui::{Settings, Theme};
use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;
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
    /// Who plays Black: a person or the computer.
    #[arg(long, value_enum, default_value_t = PlayerKind::Human)]
    pub black: PlayerKind,
    /// Who plays White: a person or the computer.
    #[arg(long, value_enum, default_value_t = PlayerKind::Human)]
    pub white: PlayerKind,
    /// The computer players' strength, 1 (a beginner) to 10 (its best).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u8).range(1..=10))]
    pub level: u8,
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
            sides: self.sides(),
            level: self.level(),
        }
    }

    /// Who plays each side, from `--black` and `--white`.
    pub fn sides(&self) -> Sides {
        Sides {
            black: self.black,
            white: self.white,
        }
    }

    /// The computer players' level, from `--level`.
    pub fn level(&self) -> Level {
        Level::new(self.level).unwrap_or_default()
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
    /// Search a position and print what each completed depth found, then the best move.
    Analyse {
        /// The position (PDN FEN); the start position if not given.
        #[arg(long, value_parser = clap::value_parser!(Position))]
        fen: Option<Position>,
        /// Search this many plies (1-64) instead of for a time.
        #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Search for this many milliseconds (default 3000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
        movetime: Option<u64>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=1024))]
        hash: u32,
    },
    /// Play games between two computer levels from the ACF three-move openings (each
    /// opening with both colours, barred ones skipped) and print a score table.
    Match {
        /// Games to play (two per opening; the deck starts again if more are asked).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100_000))]
        games: u32,
        /// Thinking time per move in milliseconds.
        #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..=600_000))]
        movetime: u64,
        /// A player's level, 1-10: give it twice, for player A and player B.
        #[arg(long = "level", value_name = "LEVEL", required = true, value_parser = clap::value_parser!(u8).range(1..=10))]
        levels: Vec<u8>,
        /// An openings file (number, moves, status, name; tab-separated) instead of the
        /// built-in ACF three-move deck.
        #[arg(long, value_name = "FILE")]
        openings: Option<PathBuf>,
        /// Plies after which an unfinished game is adjudicated a draw.
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(10..=10_000))]
        max_plies: u32,
        /// Transposition table size per player in MB.
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=1024))]
        hash: u32,
        /// Seed of the levels' randomness.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Also write every game to this PDN file.
        #[arg(long)]
        pdn: Option<PathBuf>,
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

/// Runs `checkers analyse`: one line per completed depth (depth, score, nodes, nodes
/// per second, time, principal variation), then `bestmove MOVE`. A position with no
/// legal move is an error naming the outcome.
pub fn run_analyse(
    out: &mut impl Write,
    pos: &Position,
    limits: Limits,
    hash_mb: usize,
) -> Result<(), CliError> {
    if let Some(outcome) = pos.outcome() {
        return Err(CliError::GameOver(outcome));
    }
    let mut engine = Engine::new(hash_mb);
    let request = SearchRequest::new(*pos, limits);
    let mut written = Ok(());
    let result = engine.search(&request, &StopFlag::new(), |info| {
        if written.is_ok() {
            written = writeln!(
                out,
                "depth {} score {} nodes {} nps {} time {} ms pv {}",
                info.depth,
                info.score,
                info.nodes,
                info.nodes_per_second(),
                info.elapsed.as_millis(),
                line_notation(pos, &info.pv)
            );
        }
    });
    written.map_err(CliError::Output)?;
    let Some(best) = result.best_move else {
        // Unreachable: a position with no legal move was refused above.
        return Err(CliError::GameOver(pos.outcome().unwrap_or(
            crate::rules::Outcome::Win {
                winner: !pos.turn(),
                reason: crate::rules::WinReason::NoMoves,
            },
        )));
    };
    if result.depth == 0 {
        writeln!(out, "only move {}", pos.notation(&best)).map_err(CliError::Output)?;
    }
    writeln!(out, "bestmove {}", pos.notation(&best)).map_err(CliError::Output)?;
    Ok(())
}

/// The settings of `checkers match`.
#[derive(Clone, Debug)]
pub struct MatchSettings {
    /// Games to play.
    pub games: u32,
    /// Thinking time per move.
    pub movetime: Duration,
    /// Player A's and player B's levels.
    pub levels: [Level; 2],
    /// The openings file; `None` for the built-in ACF deck.
    pub openings: Option<PathBuf>,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: usize,
    /// Transposition table MB per player.
    pub hash_mb: usize,
    /// Seed of the levels' randomness.
    pub seed: u64,
    /// Where to write the games as PDN, if anywhere.
    pub pdn: Option<PathBuf>,
}

/// One player's tally in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins, losses, draws with Black.
    pub as_black: [u32; 3],
    /// Wins, losses, draws with White.
    pub as_white: [u32; 3],
}

impl Tally {
    fn add(&mut self, color: Color, index: usize) {
        match color {
            Color::Black => self.as_black[index] += 1,
            Color::White => self.as_white[index] += 1,
        }
    }

    /// Wins, losses and draws over both colours.
    pub fn total(&self) -> [u32; 3] {
        [0, 1, 2].map(|i| self.as_black[i] + self.as_white[i])
    }

    /// Points (a win 1, a draw 1/2) as a percentage of the games played.
    pub fn score_percent(&self) -> f64 {
        let [w, l, d] = self.total();
        let games = w + l + d;
        if games == 0 {
            0.0
        } else {
            (f64::from(w) + f64::from(d) / 2.0) * 100.0 / f64::from(games)
        }
    }
}

/// Runs `checkers match`: a line per game, then the score table. Returns the tallies of
/// players A and B.
pub fn run_match(out: &mut impl Write, settings: &MatchSettings) -> Result<[Tally; 2], CliError> {
    let openings = match &settings.openings {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .map_err(|e| CliError::OpeningsFile(file.clone(), e))?;
            parse_openings(&text).map_err(|e| CliError::Openings(file.display().to_string(), e))?
        }
        None => acf_openings(),
    };
    let openings: Vec<_> = openings.into_iter().filter(|o| !o.is_barred()).collect();
    if openings.is_empty() {
        let source = settings.openings.as_deref().map_or_else(
            || "the built-in ACF deck".to_string(),
            |file| file.display().to_string(),
        );
        return Err(CliError::NoOpenings(source));
    }
    let names = settings.levels.map(|l| l.to_string());
    let [a, b] = settings.levels;
    let mut players = [
        ComputerPlayer {
            level: a,
            engine: Engine::new(settings.hash_mb),
        },
        ComputerPlayer {
            level: b,
            engine: Engine::new(settings.hash_mb),
        },
    ];
    let mut tallies = [Tally::default(); 2];
    let mut records = String::new();
    let write =
        |out: &mut dyn Write, text: String| writeln!(out, "{text}").map_err(CliError::Output);
    for game in 0..settings.games as usize {
        let opening = &openings[(game / 2) % openings.len()];
        // Even games: A has Black; odd games: the same opening with colours swapped.
        let a_color = if game % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        for p in &mut players {
            p.engine.clear();
        }
        let [pa, pb] = &mut players;
        let (black, white) = match a_color {
            Color::Black => (pa, pb),
            Color::White => (pb, pa),
        };
        let rules = GameRules {
            movetime: settings.movetime,
            max_plies: settings.max_plies,
            seed: settings
                .seed
                .wrapping_mul(0x9E37_79B9)
                .wrapping_add(game as u64),
        };
        let played = play_game(opening.position(), opening.history(), black, white, rules);
        let label = |color: Color| {
            let player = if color == a_color { 0 } else { 1 };
            format!("{} {}", ["A", "B"][player], names[player])
        };
        let how = match played.end {
            GameEnd::Decided(outcome) => outcome.to_string(),
            GameEnd::PlyLimit => format!("Draw adjudicated: {} plies played", settings.max_plies),
        };
        write(
            out,
            format!(
                "game {}: opening {} ({}), Black {} - White {}: {} {}, {} plies",
                game + 1,
                opening.number,
                opening.moves,
                label(Color::Black),
                label(Color::White),
                played.end.pdn_result(),
                how,
                played.plies
            ),
        )?;
        if settings.pdn.is_some() {
            let mut record = PdnGame::new(Position::start());
            record.moves = opening.line.clone();
            record.moves.extend_from_slice(&played.moves);
            record.set_tag("Event", "checkers match");
            record.set_tag("Round", &(game + 1).to_string());
            record.set_tag("Black", &label(Color::Black));
            record.set_tag("White", &label(Color::White));
            record.set_tag("Termination", &how);
            record.result = Some(played.end.pdn_result().to_string());
            records.push_str(&write_game(&record));
            records.push('\n');
        }
        for (player, tally) in tallies.iter_mut().enumerate() {
            let color = if player == 0 { a_color } else { !a_color };
            let index = match played.end.winner() {
                Some(w) if w == color => 0,
                Some(_) => 1,
                None => 2,
            };
            tally.add(color, index);
        }
    }
    if let Some(path) = &settings.pdn {
        crate::store::write_atomic(path, records.as_bytes())
            .map_err(|e| CliError::WriteFile(path.clone(), e))?;
    }
    write(out, String::new())?;
    write(
        out,
        format!(
            "{:<12} {:>14} {:>14} {:>14} {:>7}",
            "player", "Black W-L-D", "White W-L-D", "total W-L-D", "score"
        ),
    )?;
    for (player, tally) in tallies.iter().enumerate() {
        let wld = |v: [u32; 3]| format!("{}-{}-{}", v[0], v[1], v[2]);
        write(
            out,
            format!(
                "{:<12} {:>14} {:>14} {:>14} {:>6.1}%",
                format!("{} {}", ["A", "B"][player], names[player]),
                wld(tally.as_black),
                wld(tally.as_white),
                wld(tally.total()),
                tally.score_percent()
            ),
        )?;
    }
    Ok(tallies)
}

/// A command that could not be carried out.
#[derive(Debug)]
pub enum CliError {
    /// The position given is already decided: the side to move has no legal move.
    GameOver(crate::rules::Outcome),
    /// A file could not be read or written.
    File(PathBuf, io::Error),
    /// Standard output could not be written.
    Output(io::Error),
    /// A file could not be written.
    WriteFile(PathBuf, io::Error),
    /// The openings file cannot be read.
    OpeningsFile(PathBuf, io::Error),
    /// An openings file (named) has a line that cannot be used.
    Openings(String, crate::engine::OpeningsError),
    /// Every opening of the deck (named) is barred.
    NoOpenings(String),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::File(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            CliError::WriteFile(path, e) => write!(f, "cannot write {}: {e}", path.display()),
            CliError::Output(e) => write!(f, "cannot write the output: {e}"),
            CliError::OpeningsFile(path, e) => write!(
                f,
                "cannot read the openings file {} given with --openings: {e}",
                path.display()
            ),
            CliError::Openings(source, e) => write!(f, "{source}: {e}"),
            CliError::NoOpenings(source) => {
                write!(f, "{source}: no opening that is not barred")
            }
            CliError::GameOver(outcome) => {
                write!(f, "the game is over, there is no move to find: {outcome}")
            }
        }
    }
}

impl std::error::Error for CliError {}
