//! The command line: clap derive types only, every value typed and checked by its
//! value parser. What each command does is in the `commands` module.
//!
//! One concept at this length: the clap types of every subcommand, read together as the
//! command line's one definition (a game across the network's are in `cli/net.rs`).

use crate::engine::{Evaluation, Level};
use crate::rules::Position;
use crate::session::{BallotChoice, PlayerKind, TimeControl};
use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

/// What `--version` prints: the version, and what the build's instructions mean for
/// the computer's speed (a build for AVX2 searches the same nodes 1.2-1.3 times as fast).
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), " (built for AVX2)");
/// See the version above.
#[cfg(all(target_arch = "x86_64", not(target_feature = "avx2")))]
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (built for any x86-64; RUSTFLAGS=\"-C target-cpu=native\" builds a faster computer)"
);
/// See the version above.
#[cfg(not(target_arch = "x86_64"))]
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// English draughts (American checkers) in the terminal.
#[derive(Debug, Parser)]
#[command(name = "checkers", version = VERSION, about)]
pub struct Cli {
    /// What to do; with none, the interactive game starts.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The interactive game's options.
    #[command(flatten)]
    pub play: PlayArgs,
}

/// The options of the interactive game (`checkers` with no subcommand).
///
/// `--black`, `--white` and `--level` have no default here, so that it can be told
/// whether they were given; [`black`](Self::black), [`white`](Self::white) and
/// [`level`](Self::level) give the values the game uses.
#[derive(Clone, Debug, Default, Args)]
pub struct PlayArgs {
    /// Start with White at the bottom of the board.
    #[arg(long)]
    pub flip: bool,
    /// How the game is shown: plain mode, mouse, colour, characters, bell.
    #[command(flatten)]
    pub screen: ScreenArgs,
    /// Start from this position (PDN FEN, e.g. "W:W18,K30:B11,K2").
    #[arg(long, value_parser = parse_start_fen, conflicts_with_all = ["load", "resume"])]
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
    /// Open the position editor first: set up a position, then play from it.
    #[arg(long, conflicts_with_all = ["load", "resume"])]
    pub setup: bool,
    /// Black's name, for saved records.
    #[arg(long, value_name = "NAME", value_parser = parse_name)]
    pub black_name: Option<String>,
    /// White's name, for saved records.
    #[arg(long, value_name = "NAME", value_parser = parse_name)]
    pub white_name: Option<String>,
    /// Who plays Black: a person or the computer (a person if not given).
    #[arg(long, value_enum)]
    pub black: Option<PlayerKind>,
    /// Who plays White: a person or the computer (a person if not given).
    #[arg(long, value_enum)]
    pub white: Option<PlayerKind>,
    /// The computer players' strength, 1 (a beginner) to 10 (its best); 5 if not given.
    /// Level N thinks 0.5 + N/4 seconds a move as a budget: about that on average, up to
    /// three times it for a hard move (on the clock, what the clock allows).
    #[arg(long, value_name = "N", value_parser = level_parser())]
    pub level: Option<Level>,
    /// Start from a three-move ballot of the ACF deck: its number (1-174), or random
    /// (a crossboard ballot; see --mailplay). The game starts after its three moves.
    #[arg(long, value_name = "N|random", value_parser = clap::value_parser!(BallotChoice), conflicts_with_all = ["fen", "load", "resume"])]
    pub ballot: Option<BallotChoice>,
    /// Allow a barred ballot (one lost by force) with --ballot N.
    #[arg(long, requires = "ballot")]
    pub barred: bool,
    /// Let --ballot random draw the mailplay ballots too.
    #[arg(long, requires = "ballot")]
    pub mailplay: bool,
    /// Play on a clock: 30/60 (30 moves in 60 minutes, repeating), G/15 (the game in 15
    /// minutes) or 5+3 (5 minutes, 3 seconds added per move); minutes may be m:ss. Out of
    /// time loses.
    #[arg(long, value_name = "SPEC", value_parser = clap::value_parser!(TimeControl), conflicts_with_all = ["move_timer", "load"])]
    pub clock: Option<TimeControl>,
    /// The traditional move limit: five minutes a move, one minute for a single forced
    /// jump. Out of time loses.
    #[arg(long, conflicts_with = "load")]
    pub move_timer: bool,
    /// Play a match of N rounds (1-100): two games a round on the same ballot, colours
    /// reversed, a new ballot each round with --ballot random. --black-name and
    /// --white-name name the players of the first game. --resume continues a match.
    #[arg(long = "match", value_name = "N", value_parser = clap::value_parser!(u32).range(1..=100), conflicts_with_all = ["fen", "load", "resume"])]
    pub match_rounds: Option<u32>,
    /// With --match: the PDN file the match's games are written to as each ends (added
    /// at its end if it exists) [default: match-DATE-TIME.pdn in the data folder].
    #[arg(long, value_name = "FILE", requires = "match_rounds")]
    pub save: Option<PathBuf>,
    /// The engine's help to the players: hints, its score and the databases' verdict in
    /// the panel, the review's search. Off by default between two people on a clock or
    /// in a match, on otherwise.
    #[arg(long, value_enum, value_name = "on|off")]
    pub assist: Option<Switch>,
    /// Threads each search of the engine runs (hints, the review, the computer's
    /// moves): more search deeper in the same time [default: 1].
    #[arg(long, value_name = "N", value_parser = threads())]
    pub threads: Option<usize>,
}

mod net;
pub use net::{HostArgs, JoinArgs, SideChoice};

/// How a game is shown, the same at one terminal and across the network: the options
/// `play`, `host`, `join` and `watch` share.
#[derive(Clone, Debug, Default, Args)]
pub struct ScreenArgs {
    /// Play in plain line mode: text in, text out (automatic when standard input or
    /// output is not a terminal, or TERM=dumb).
    #[arg(long)]
    pub plain: bool,
    /// Leave mouse capture off, so text on screen can be selected.
    #[arg(long)]
    pub no_mouse: bool,
    /// No colours (also when NO_COLOR is set or TERM=dumb).
    #[arg(long)]
    pub no_color: bool,
    /// Draw with ASCII characters only.
    #[arg(long)]
    pub ascii: bool,
    /// No bell at ten seconds left or when time runs out.
    #[arg(long)]
    pub quiet: bool,
}

/// An option that is on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

impl PlayArgs {
    /// Who plays Black: `--black`, or a person.
    pub fn black(&self) -> PlayerKind {
        self.black.unwrap_or_default()
    }

    /// Who plays White: `--white`, or a person.
    pub fn white(&self) -> PlayerKind {
        self.white.unwrap_or_default()
    }

    /// The time control `--clock` or `--move-timer` asks for, if any.
    pub fn time_control(&self) -> Option<TimeControl> {
        match self.clock {
            Some(control) => Some(control),
            None => self.move_timer.then_some(TimeControl::MoveTimer),
        }
    }

    /// The computer players' level: `--level`, or level 5.
    pub fn level(&self) -> Level {
        self.level.unwrap_or_default()
    }
}

/// The subcommands: a player's first (across the network, the games kept, analysis,
/// records, databases, the shell's helpers), the engine's workshop last (engine
/// matches, perft, the book, training).
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Hold a game for a player at another terminal: print where to join, then open the
    /// board. Takes the game options of a game at one terminal.
    Host(HostArgs),
    /// Join a game held by `checkers host`, as its other player.
    Join(JoinArgs),
    /// Watch a game held by `checkers host`: step through its moves, never act.
    Watch(JoinArgs),
    /// List the games kept in the data folder (each game is saved there as it is
    /// played), newest first: when, players, moves, result or "unfinished", file.
    Games(GamesArgs),
    /// Search a position and print what each completed depth found, then the best move.
    Analyse(AnalyseArgs),
    /// List every legal move of a position, one per line, with every landing square.
    Moves(MovesArgs),
    /// Work with PDN game records.
    Pdn(PdnArgs),
    /// Endgame databases: build them, probe a position, verify them.
    Egdb(EgdbArgs),
    /// Write a completion script for SHELL to standard output (for bash, e.g.
    /// `checkers completions bash > ~/.local/share/bash-completion/completions/checkers`).
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Write the manual page (roff) to standard output (`checkers manpage > checkers.1`,
    /// then `man ./checkers.1`), or with --dir a page for every command into a folder
    /// (`checkers manpage --dir ~/.local/share/man/man1`, then `man checkers`).
    Manpage {
        /// Write checkers.1 and a page for each command (checkers-host.1, ...) into
        /// this folder (made if missing), instead of the one page to standard output.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Play games between two computer levels from the ACF three-move openings (each
    /// opening with both colours, barred ones skipped) and print a score table.
    Match(MatchArgs),
    /// Count the leaf positions of the move tree to DEPTH plies (every capture route counts).
    Perft(PerftArgs),
    /// The opening book: build it, or show what it says of a position.
    Book(BookArgs),
    /// Play fast games of the computer against itself and write their quiet positions,
    /// each with its search score and its game's result, as training data.
    Selfplay(SelfplayArgs),
    /// Train the learned evaluation's weights from training data (from `selfplay`) and
    /// PDN games, and write them to a file.
    Train(TrainArgs),
}

/// `checkers book`.
#[derive(Debug, Args)]
pub struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: BookCommand,
}

/// `checkers book` subcommands.
#[derive(Debug, Subcommand)]
pub enum BookCommand {
    /// Search every ballot of the ACF deck and the positions the games of PDN files
    /// reach most often in their first moves, and write the book file.
    Build(BookBuildArgs),
    /// What the built-in book says of a position.
    Show {
        /// The position (PDN FEN); the start position if not given.
        #[arg(long, value_parser = parse_fen)]
        fen: Option<Position>,
    },
}

/// `checkers book build`.
#[derive(Debug, Args)]
pub struct BookBuildArgs {
    /// The book file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// PDN files of games whose openings to add.
    #[arg(long = "pdn", value_name = "FILE")]
    pub pdn: Vec<PathBuf>,
    /// Thinking time per position in milliseconds.
    #[arg(long, value_name = "MOVETIME", default_value = "2000", value_parser = millis(3_600_000))]
    pub movetime: Duration,
    /// A games' position enters the book when at least this many games reach it.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
    /// How many plies of each game to look at.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(1..=60).map(|n| n as usize))]
    pub plies: usize,
    /// Positions searched at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256).map(usize::from))]
    pub threads: Option<usize>,
}

/// Which evaluation a search uses, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum EvalChoice {
    /// The hand-written evaluation.
    Hand,
    /// The learned pattern table.
    #[value(alias = "table")]
    Learned,
    /// The network evaluation.
    Net,
}

impl From<EvalChoice> for Evaluation {
    fn from(choice: EvalChoice) -> Evaluation {
        match choice {
            EvalChoice::Hand => Evaluation::Hand,
            EvalChoice::Learned => Evaluation::Learned,
            EvalChoice::Net => Evaluation::Net,
        }
    }
}

/// `checkers selfplay`.
#[derive(Debug, Args)]
pub struct SelfplayArgs {
    /// The file to write positions to (one `FEN<tab>score<tab>result` line each); added
    /// to if it exists.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    pub games: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, value_parser = clap::value_parser!(u64).range(100..=100_000_000))]
    pub nodes: u64,
    /// Nodes searched per move while the board has at least --deep-pieces pieces (default:
    /// --nodes throughout): sharper labels for the opening and middle game, the ending
    /// still played out fast.
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(100..=100_000_000))]
    pub deep_nodes: Option<u64>,
    /// The fewest pieces on the board at which --deep-nodes applies.
    #[arg(long, default_value_t = 14, requires = "deep_nodes", value_parser = clap::value_parser!(u32).range(2..=24))]
    pub deep_pieces: u32,
    /// Games played at once (default: one per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256).map(usize::from))]
    pub threads: Option<usize>,
    /// Seed of the games' random moves.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The evaluation the games are played with.
    #[arg(long, value_enum, default_value_t = EvalChoice::Hand)]
    pub eval: EvalChoice,
    /// With --eval net: this network file (from `checkers train --model net`) instead
    /// of the embedded one, so that a generation's games need no new build.
    #[arg(long, value_name = "FILE")]
    pub net: Option<PathBuf>,
}

/// `checkers train`.
#[derive(Debug, Args)]
pub struct TrainArgs {
    /// Training data files written by `checkers selfplay`.
    #[arg(long = "data", value_name = "FILE")]
    pub data: Vec<PathBuf>,
    /// PDN files of games whose positions to add, labelled by each game's result.
    #[arg(long = "pdn", value_name = "FILE")]
    pub pdn: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..=10_000))]
    pub epochs: u32,
    /// The game result's share of each target, 0 to 1 (the search score has the rest).
    #[arg(long, default_value_t = 0.5, value_parser = share)]
    pub lambda: f32,
    /// Adam's step size at the start: in hundredths of a man for the pattern table, in
    /// thousandths of a weight for the network (it falls to a tenth by the last pass).
    #[arg(long, default_value_t = 2.0, value_parser = positive)]
    pub learning_rate: f32,
    /// Seed of the shuffling and of the held-out sample.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// What to train: the pattern table or the network evaluation.
    #[arg(long, value_enum, default_value_t = TrainModel::Table)]
    pub model: TrainModel,
    /// With --model net: continue from this checkpoint (written beside --out as
    /// OUT.checkpoint after every pass) up to --epochs passes in all.
    #[arg(long, value_name = "FILE")]
    pub resume: Option<PathBuf>,
    /// With --model net: start from this network (a file `train --model net` wrote, or
    /// `embedded`, the program's own) instead of from random weights: a new generation
    /// that goes on from the last.
    #[arg(long, value_name = "FILE|embedded", conflicts_with = "resume")]
    pub from: Option<PathBuf>,
    /// With --model net: threads computing the gradient (default: one per core).
    #[arg(long, value_name = "N", value_parser = threads())]
    pub threads: Option<usize>,
}

/// What `checkers train` learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum TrainModel {
    /// The pattern table (`src/engine/weights.bin`).
    Table,
    /// The network evaluation (`src/engine/net.bin`).
    Net,
}

/// A position from its FEN, or the whole reason it is not one (the entry and the
/// square's own fault).
fn parse_fen(text: &str) -> Result<Position, String> {
    text.parse::<Position>()
        .map_err(|e| crate::text::error_chain(&e))
}

/// A FEN a game starts from: as [`parse_fen`], and each side must have a piece.
fn parse_start_fen(text: &str) -> Result<Position, String> {
    Position::parse_start(text).map_err(|e| crate::text::error_chain(&e))
}

/// A player's name, at most [`MAX_NAME_CHARS`](crate::pdn::MAX_NAME_CHARS) characters:
/// a saved game must read back with its names.
fn parse_name(text: &str) -> Result<String, String> {
    let chars = text.chars().count();
    if chars > crate::pdn::MAX_NAME_CHARS {
        return Err(format!(
            "a name is at most {} characters (this one has {chars})",
            crate::pdn::MAX_NAME_CHARS
        ));
    }
    Ok(text.to_string())
}

fn share(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if (0.0..=1.0).contains(&v) => Ok(v),
        _ => Err(format!("{text} is not a number from 0 to 1")),
    }
}

fn positive(text: &str) -> Result<f32, String> {
    match text.parse::<f32>() {
        Ok(v) if v > 0.0 && v.is_finite() => Ok(v),
        _ => Err(format!("{text} is not a number above 0")),
    }
}

/// `checkers games`.
#[derive(Debug, Args)]
pub struct GamesArgs {
    /// Only the unfinished games (those `checkers --resume` can continue, and those open
    /// in another window).
    #[arg(long)]
    pub unfinished: bool,
}

/// `checkers perft`.
#[derive(Debug, Args)]
pub struct PerftArgs {
    /// Plies to search (0-30).
    #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
    pub depth: u32,
    /// Start from this position (PDN FEN, e.g. "B:W21-32:B1-12") instead of the start.
    #[arg(long, value_parser = parse_fen)]
    pub fen: Option<Position>,
    /// Also print the count under each first move.
    #[arg(long)]
    pub divide: bool,
    /// Threads to split the first moves over.
    #[arg(long, default_value = "1", value_parser = clap::value_parser!(u16).range(1..=256).map(usize::from))]
    pub threads: usize,
}

/// `checkers moves`.
#[derive(Debug, Args)]
pub struct MovesArgs {
    /// The position (PDN FEN); the start position if not given.
    #[arg(long, value_parser = parse_fen)]
    pub fen: Option<Position>,
}

/// `checkers analyse`.
#[derive(Debug, Args)]
pub struct AnalyseArgs {
    /// The position (PDN FEN); the start position if not given.
    #[arg(long, value_parser = parse_fen, conflicts_with = "load")]
    pub fen: Option<Position>,
    /// Go through a recorded game instead (a PDN file): every position before a move is
    /// searched (--movetime, 1000 ms by default here, or --depth), and each move is
    /// printed with the engine's score, its best move, the endgame databases' result
    /// where they hold the position, and a warning where a move throws a win or a
    /// draw away.
    #[arg(long, value_name = "FILE")]
    pub load: Option<PathBuf>,
    /// Which game of the --load file, counting from 1.
    #[arg(long, value_name = "N", requires = "load", default_value = "1", value_parser = clap::value_parser!(u32).range(1..))]
    pub game: u32,
    /// Search this many plies (1-64) instead of for a time.
    #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,
    /// Search for this many milliseconds (default 3000), as a wall: the search stops
    /// within it, and often sooner, once another iteration could not finish in it.
    #[arg(long, value_name = "MOVETIME", value_parser = millis(86_400_000))]
    pub movetime: Option<Duration>,
    /// Search as a player on a clock with this many milliseconds left: the engine plans
    /// the move's time from it as in a game (a twentieth of it, or a share by
    /// --moves-to-go, plus most of --increment; never near the flag).
    #[arg(long, value_name = "MS", value_parser = millis(86_400_000), conflicts_with_all = ["depth", "movetime", "load"])]
    pub time_left: Option<Duration>,
    /// With --time-left: the milliseconds added to the clock after each move.
    #[arg(long, value_name = "MS", requires = "time_left", value_parser = clap::value_parser!(u64).range(0..=3_600_000).map(Duration::from_millis))]
    pub increment: Option<Duration>,
    /// With --time-left: the moves to make in that time before more comes (a 30/60
    /// control's moves still to make in its period).
    #[arg(long, value_name = "N", requires = "time_left", value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub moves_to_go: Option<u32>,
    /// Transposition table size in MB.
    #[arg(long, value_name = "HASH", default_value = "64", value_parser = megabytes())]
    pub hash: usize,
    /// The evaluation to search with (the program's default if not given).
    #[arg(long, value_enum)]
    pub eval: Option<EvalChoice>,
    /// The search's numbers: the computer's, or the search on trial.
    #[arg(long, value_enum, default_value_t = SearchChoice::Current)]
    pub search: SearchChoice,
    /// Threads searching at once (1 is deterministic) [default: the machine's cores].
    #[arg(long, value_name = "N", value_parser = threads())]
    pub threads: Option<usize>,
}

/// Parses a thread count of a search: 1 to 256.
fn threads() -> impl clap::builder::TypedValueParser<Value = usize> {
    clap::value_parser!(u16)
        .range(1..=crate::engine::MAX_THREADS as i64)
        .map(usize::from)
}

/// `checkers match`.
#[derive(Debug, Args)]
pub struct MatchArgs {
    /// Games to play (two per opening; the deck starts again if more are asked).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    pub games: u32,
    /// Thinking time per move in milliseconds, as a budget: about that on average, up to
    /// three times it for a hard move (see --wall).
    #[arg(long, value_name = "MOVETIME", default_value = "100", value_parser = millis(600_000))]
    pub movetime: Duration,
    /// Play every game on a clock instead (30/60, G/15 or 5+3, as `play --clock` takes
    /// them): each player plans its own time from its clock, and out of time loses.
    /// An --against program is asked with the time its clock's plan gives.
    #[arg(long, value_name = "SPEC", value_parser = clap::value_parser!(TimeControl), conflicts_with = "movetime")]
    pub clock: Option<TimeControl>,
    /// Player A's and player B's levels.
    #[command(flatten)]
    pub levels: MatchLevels,
    /// An openings file (number, moves, status, name; tab-separated) instead of the
    /// built-in ACF three-move deck.
    #[arg(long, value_name = "FILE")]
    pub openings: Option<PathBuf>,
    /// Plies after which an unfinished game is adjudicated a draw.
    #[arg(long, value_name = "MAX_PLIES", default_value = "300", value_parser = clap::value_parser!(u32).range(10..=10_000).map(|n| n as usize))]
    pub max_plies: usize,
    /// Transposition table size per player in MB [default: 16 MB for each 100 ms of
    /// --movetime, from 16 to 256 MB; 64 MB on a --clock].
    #[arg(long, value_name = "HASH", value_parser = megabytes())]
    pub hash: Option<usize>,
    /// Seed of the levels' randomness.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Also write every game to this PDN file.
    #[arg(long)]
    pub pdn: Option<PathBuf>,
    /// Which players use the endgame databases of the data folder.
    #[arg(long, value_enum, default_value_t = MatchPlayers::None)]
    pub egdb: MatchPlayers,
    /// End a game as soon as it reaches a position the endgame databases of the data
    /// folder hold, with their verdict (a win as the loser's resignation, a draw as
    /// agreed), as engine matches are adjudicated: the ending is not played out, and
    /// neither player needs the databases for it.
    #[arg(long)]
    pub adjudicate_egdb: bool,
    /// Player B is this program instead: run as `CMD analyse --fen FEN --movetime MS`
    /// for each move, its last `bestmove MOVE` line its move (any build of checkers
    /// answers so).
    #[arg(long, value_name = "CMD")]
    pub against: Option<String>,
    /// Players that treat the time per move as a wall, stopping once another
    /// iteration could not finish within it, instead of as a budget to spend on average.
    #[arg(long, value_enum, default_value_t = MatchPlayers::None, value_name = "PLAYERS")]
    pub wall: MatchPlayers,
    /// Players that play from the opening book, as the computer does in a game
    /// [default: both; none with --against, whose program has no book of this one's]
    #[arg(long, value_enum, value_name = "PLAYERS")]
    pub book: Option<MatchPlayers>,
    /// Player A's evaluation (the program's default if not given).
    #[arg(long, value_enum)]
    pub eval_a: Option<EvalChoice>,
    /// Player B's evaluation (the program's default if not given).
    #[arg(long, value_enum, conflicts_with = "against")]
    pub eval_b: Option<EvalChoice>,
    /// Player A's network: a file that `checkers train --model net` wrote, instead of
    /// the embedded one (it evaluates with it unless --eval-a names another evaluation).
    #[arg(long, value_name = "FILE")]
    pub net_a: Option<PathBuf>,
    /// Player B's network, likewise: to measure a new generation against the embedded
    /// network, both players in this process.
    #[arg(long, value_name = "FILE", conflicts_with = "against")]
    pub net_b: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    pub concurrency: u32,
    /// Stop once a sequential test decides between ELO0 and ELO1 for player A (95 %
    /// confidence each way), e.g. --sprt 0,10.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = sprt_bounds)]
    pub sprt: Option<(f64, f64)>,
    /// The search player B plays with: the computer's, or the one on trial
    /// (to measure it).
    #[arg(long, value_enum, default_value_t = SearchChoice::Current, conflicts_with = "against")]
    pub search_b: SearchChoice,
    /// Threads player A searches with.
    #[arg(long, value_name = "N", default_value = "1", value_parser = threads())]
    pub threads_a: usize,
    /// Threads player B searches with (not an --against program).
    #[arg(long, value_name = "N", default_value = "1", value_parser = threads(), conflicts_with = "against")]
    pub threads_b: usize,
}

impl MatchArgs {
    /// Each player's transposition table in MB: --hash, else one that grows with the
    /// time a move (16 MB for each 100 ms, so that a search of a second, about 2 M
    /// nodes, does not overwrite itself; from 16 to 256 MB), 64 MB on a clock.
    pub fn hash_mb(&self) -> usize {
        self.hash.unwrap_or_else(|| {
            if self.clock.is_some() {
                64
            } else {
                (self.movetime.as_millis() as usize * 16 / 100).clamp(16, 256)
            }
        })
    }
}

/// Parses `--sprt ELO0,ELO1`: two numbers, the first below the second.
fn sprt_bounds(text: &str) -> Result<(f64, f64), String> {
    let (a, b) = text
        .split_once(',')
        .ok_or_else(|| format!("give two Elo values as ELO0,ELO1 (as in 0,10), not {text}"))?;
    let parse = |v: &str| {
        v.trim()
            .parse::<f64>()
            .map_err(|_| format!("{v} is not a number of Elo points"))
    };
    let (elo0, elo1) = (parse(a)?, parse(b)?);
    if elo0 >= elo1 || !elo0.is_finite() || !elo1.is_finite() {
        return Err(format!("ELO0 must be below ELO1: {text}"));
    }
    Ok((elo0, elo1))
}

/// Which search's numbers a match player uses (`match --search-b`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum SearchChoice {
    /// The search the computer plays with (`SearchParams::DEFAULT`).
    #[default]
    Current,
    /// The search on trial (`SearchParams::CANDIDATE`).
    Candidate,
}

/// Which players of `checkers match` an option applies to (the endgame databases, a
/// time wall).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum MatchPlayers {
    /// Neither player.
    #[default]
    None,
    /// Player A only.
    A,
    /// Player B only.
    B,
    /// Both players.
    Both,
}

impl MatchPlayers {
    /// Whether the option applies to player `player` (0 for A, 1 for B).
    pub fn uses(self, player: usize) -> bool {
        matches!(
            (self, player),
            (MatchPlayers::Both, _) | (MatchPlayers::A, 0) | (MatchPlayers::B, 1)
        )
    }
}

/// The two levels of `checkers match`: `--level A --level B`, given twice or not at all
/// (then level 10 plays itself); clap refuses the command line otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MatchLevels(pub [Level; 2]);

/// The id of `match --level`.
const MATCH_LEVEL: &str = "level";

impl Args for MatchLevels {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.arg(
            Arg::new(MATCH_LEVEL)
                .long("level")
                .value_name("LEVEL")
                .help("A player's level, 1-10: give it twice, for player A and player B [default: 10 against 10]")
                .action(ArgAction::Append)
                .value_parser(level_parser()),
        )
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for MatchLevels {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        Self::from_arg_matches_mut(&mut matches.clone())
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        let levels: Vec<Level> = matches
            .remove_many::<Level>(MATCH_LEVEL)
            .map_or_else(|| vec![Level::MAX; 2], Iterator::collect);
        <[Level; 2]>::try_from(levels)
            .map(MatchLevels)
            .map_err(|given| {
                clap::Error::raw(
                    ErrorKind::WrongNumberOfValues,
                    format!(
                        "give --level twice (--level A --level B) or not at all (given {} time{})",
                        given.len(),
                        if given.len() == 1 { "" } else { "s" }
                    ),
                )
            })
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.update_from_arg_matches_mut(&mut matches.clone())
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        if matches.contains_id(MATCH_LEVEL) {
            *self = Self::from_arg_matches_mut(matches)?;
        }
        Ok(())
    }
}

/// `checkers pdn`.
#[derive(Debug, Args)]
pub struct PdnArgs {
    /// What to do with the file.
    #[command(subcommand)]
    pub action: PdnCommand,
}

/// The `pdn` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdnCommand {
    /// Read and replay every game of FILE; report each faulty game, then a summary.
    /// Exits 0 only if every game replays.
    Check(CheckArgs),
}

/// `checkers pdn check`.
#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The PDN file.
    pub file: PathBuf,
}

/// `checkers egdb`.
#[derive(Debug, Args)]
pub struct EgdbArgs {
    /// What to do with the databases.
    #[command(subcommand)]
    pub action: EgdbCommand,
}

/// The `egdb` subcommands.
#[derive(Debug, Subcommand)]
pub enum EgdbCommand {
    /// Build every slice of up to N pieces by retrograde analysis (slices already built
    /// are kept: an interrupted build goes on where it stopped).
    Build(EgdbBuildArgs),
    /// The exact result of a position, its distance in moves and the best moves.
    Probe(EgdbProbeArgs),
    /// Re-check every slice (each value must follow from its moves) and print counts.
    Verify(EgdbVerifyArgs),
}

/// `checkers egdb build`.
#[derive(Debug, Args)]
pub struct EgdbBuildArgs {
    /// Build every slice of up to this many pieces (2-6).
    #[arg(long, value_name = "N", default_value_t = 5, value_parser = clap::value_parser!(u32).range(2..=6))]
    pub pieces: u32,
    /// Threads to build with [default: the number of cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=256).map(usize::from))]
    pub threads: Option<usize>,
    /// The database folder [default: egdb in the data folder].
    #[arg(long, value_name = "D")]
    pub dir: Option<PathBuf>,
}

/// `checkers egdb probe`.
#[derive(Debug, Args)]
pub struct EgdbProbeArgs {
    /// The position (PDN FEN), e.g. "W:WK19,K23:BK28,12".
    #[arg(long, value_parser = parse_fen)]
    pub fen: Position,
    /// The database folder [default: egdb in the data folder].
    #[arg(long, value_name = "D")]
    pub dir: Option<PathBuf>,
}

/// `checkers egdb verify`.
#[derive(Debug, Args)]
pub struct EgdbVerifyArgs {
    /// The database folder [default: egdb in the data folder].
    #[arg(long, value_name = "D")]
    pub dir: Option<PathBuf>,
    /// Threads to check with [default: the number of cores].
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u16).range(1..=256).map(usize::from))]
    pub threads: Option<usize>,
}

/// A playing level, 1-10.
fn level_parser() -> impl TypedValueParser<Value = Level> {
    clap::value_parser!(u8)
        .range(1..=10)
        .try_map(|n| Level::new(n).ok_or("a level is 1 to 10"))
}

/// A time in milliseconds, 1 to `max`.
fn millis(max: u64) -> impl TypedValueParser<Value = Duration> {
    clap::value_parser!(u64)
        .range(1..=max)
        .map(Duration::from_millis)
}

/// A transposition table size in MB, 1-1024.
fn megabytes() -> impl TypedValueParser<Value = usize> {
    clap::value_parser!(u32).range(1..=1024).map(|n| n as usize)
}

#[cfg(test)]
mod tests;
