//! The lab's command line (`checkers-lab`): engine matches, self-play, training and
//! building the opening book.

use crate::cli::{
    EvalChoice, SearchChoice, at_least, level_parser, megabytes, millis, threads, whole,
};
use crate::engine::Level;
use crate::session::TimeControl;
use clap::builder::TypedValueParser;
use clap::error::ErrorKind;
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches, Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

/// The engine's workshop: matches between engines, self-play, training, the book.
#[derive(Debug, Parser)]
#[command(name = "checkers-lab", version)]
pub(crate) struct LabCli {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: LabCommand,
}

impl LabCli {
    /// What clap's rules cannot say: an option that works only with one value of another
    /// (`train --resume`, `--from`, `--threads` with `--model net`; `selfplay --net` with
    /// `--eval net`) is a usage error naming both, not taken and silently ignored nor
    /// refused later as if its file were at fault.
    pub(crate) fn check(&self) -> Result<(), clap::Error> {
        let (command, option, needs) = match &self.command {
            LabCommand::Train(args) if args.model != TrainModel::Net => {
                let given = [
                    ("--resume", args.resume.is_some()),
                    ("--from", args.from.is_some()),
                    ("--threads", args.threads.is_some()),
                ];
                match given.into_iter().find(|(_, given)| *given) {
                    Some((option, _)) => ("train", option, "--model net"),
                    None => return Ok(()),
                }
            }
            LabCommand::Selfplay(args) if args.net.is_some() && args.eval != EvalChoice::Net => {
                ("selfplay", "--net", "--eval net")
            }
            _ => return Ok(()),
        };
        let why = format!(
            "{option} needs {needs}: it is for the network evaluation only, so give {needs} \
             with it, or leave {option} out"
        );
        // The subcommand's own usage line under the message, as clap's errors have.
        let mut lab = <LabCli as clap::CommandFactory>::command();
        lab.build();
        Err(match lab.find_subcommand_mut(command) {
            Some(sub) => sub.error(ErrorKind::ArgumentConflict, why),
            None => lab.error(ErrorKind::ArgumentConflict, why),
        })
    }
}

/// The lab's subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum LabCommand {
    /// Play games between two computer levels (or against another program) from the
    /// ACF three-move openings (each opening with both colours, barred ones skipped)
    /// and print a score table.
    Match(MatchArgs),
    /// Play fast games of the computer against itself and write their quiet positions,
    /// each with its search score and its game's result, as training data.
    Selfplay(SelfplayArgs),
    /// Train the learned evaluation's weights from training data (from `selfplay`) and
    /// PDN games, and write them to a file.
    Train(TrainArgs),
    /// Build the opening book from deep searches of the ballots and of the positions
    /// games reach most often.
    Book(BookBuildArgs),
    /// Load a `checkers server` with a crowd: players logged in with their own keys,
    /// pairs of them playing random legal moves, the rest idle; prints the time from a
    /// move sent to the opponent receiving it (p50, p99), and with --server-pid the
    /// server's memory per connection and CPU time.
    Load(super::load::LoadArgs),
    /// Find puzzles in Marion Tinsley's games (positions where exactly one move wins
    /// or saves the game), or prove the built-in puzzles.
    Puzzles(super::puzzles::PuzzlesArgs),
}

/// `checkers-lab match`.
#[derive(Debug, Args)]
pub(crate) struct MatchArgs {
    /// Games to play (two per opening; the deck starts again if more are asked).
    #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = whole::<u32>(1, 100_000))]
    pub(crate) games: u32,
    /// Thinking time per move in milliseconds, as a budget: about that on average, up to
    /// three times it for a hard move (see --wall).
    #[arg(long, value_name = "MOVETIME", default_value = "100", value_parser = millis(600_000))]
    pub(crate) movetime: Duration,
    /// Play every game on a clock instead (30/60, G/15 or 5+3, as `play --clock` takes
    /// them): each player plans its own time from its clock, and out of time loses.
    /// An --against program is asked with the time its clock's plan gives.
    #[arg(long, value_name = "SPEC", value_parser = clap::value_parser!(TimeControl), conflicts_with = "movetime")]
    pub(crate) clock: Option<TimeControl>,
    /// Player A's and player B's levels.
    #[command(flatten)]
    pub(crate) levels: MatchLevels,
    /// An openings file (number, moves, status, name; tab-separated) instead of the
    /// built-in ACF three-move deck.
    #[arg(long, value_name = "FILE")]
    pub(crate) openings: Option<PathBuf>,
    /// Plies after which an unfinished game is adjudicated a draw.
    #[arg(long, value_name = "MAX_PLIES", default_value = "300", allow_negative_numbers = true, value_parser = whole::<u32>(10, 10_000).map(|n| n as usize))]
    pub(crate) max_plies: usize,
    /// Transposition table size per player in MB [default: 16 MB for each 100 ms of
    /// --movetime, from 16 to 256 MB; 64 MB on a --clock].
    #[arg(long, value_name = "HASH", value_parser = megabytes())]
    pub(crate) hash: Option<usize>,
    /// Seed of the levels' randomness.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// Also write every game to this PDN file.
    #[arg(long)]
    pub(crate) pdn: Option<PathBuf>,
    /// Which players use the endgame databases of the data folder.
    #[arg(long, value_enum, default_value_t = MatchPlayers::None)]
    pub(crate) egdb: MatchPlayers,
    /// End a game as soon as it reaches a position the endgame databases of the data
    /// folder hold, with their verdict (a win as the loser's resignation, a draw as
    /// agreed), as engine matches are adjudicated: the ending is not played out, and
    /// neither player needs the databases for it.
    #[arg(long)]
    pub(crate) adjudicate_egdb: bool,
    /// Player B is this program instead: run as `CMD analyse --fen FEN --movetime MS`
    /// for each move, its last `bestmove MOVE` line its move (any build of checkers
    /// answers so).
    #[arg(long, value_name = "CMD")]
    pub(crate) against: Option<String>,
    /// Speak to the --against program by the Hub protocol (as `checkers hub` and Scan
    /// do), started once a game and kept running, so that it keeps its table from move
    /// to move as player A does; given --hash, and the book as --book says, where it
    /// has those parameters.
    #[arg(long, requires = "against")]
    pub(crate) hub: bool,
    /// Players that treat the time per move as a wall, stopping once another
    /// iteration could not finish within it, instead of as a budget to spend on average.
    #[arg(long, value_enum, default_value_t = MatchPlayers::None, value_name = "PLAYERS")]
    pub(crate) wall: MatchPlayers,
    /// Players that play from the opening book, as the computer does in a game
    /// [default: both; none with --against, whose program has no book of this one's]
    #[arg(long, value_enum, value_name = "PLAYERS")]
    pub(crate) book: Option<MatchPlayers>,
    /// Player A's evaluation (the program's default if not given).
    #[arg(long, value_enum)]
    pub(crate) eval_a: Option<EvalChoice>,
    /// Player B's evaluation (the program's default if not given).
    #[arg(long, value_enum, conflicts_with = "against")]
    pub(crate) eval_b: Option<EvalChoice>,
    /// Player A's network: a file that `checkers-lab train --model net` wrote, instead of
    /// the embedded one (it evaluates with it unless --eval-a names another evaluation).
    #[arg(long, value_name = "FILE")]
    pub(crate) net_a: Option<PathBuf>,
    /// Player B's network, likewise: to measure a new generation against the embedded
    /// network, both players in this process.
    #[arg(long, value_name = "FILE", conflicts_with = "against")]
    pub(crate) net_b: Option<PathBuf>,
    /// Games played at once.
    #[arg(long, value_name = "N", default_value_t = 1, allow_negative_numbers = true, value_parser = whole::<u32>(1, 64))]
    pub(crate) concurrency: u32,
    /// Stop once a sequential test decides between ELO0 and ELO1 for player A (95 %
    /// confidence each way), e.g. --sprt 0,10.
    #[arg(long, value_name = "ELO0,ELO1", value_parser = sprt_bounds)]
    pub(crate) sprt: Option<(f64, f64)>,
    /// The search player B plays with: the computer's, or the one on trial
    /// (to measure it).
    #[arg(long, value_enum, default_value_t = SearchChoice::Current, conflicts_with = "against")]
    pub(crate) search_b: SearchChoice,
    /// Threads player A searches with.
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value = "1", value_parser = threads())]
    pub(crate) threads_a: usize,
    /// Threads player B searches with (not an --against program).
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value = "1", value_parser = threads(), conflicts_with = "against")]
    pub(crate) threads_b: usize,
    /// Search each move to at most this many nodes instead of for a time (a level with
    /// a depth of its own still stops there): with one thread each, the same match on
    /// any machine, however busy.
    #[arg(long, allow_negative_numbers = true, value_name = "NODES", value_parser = at_least(1u64), conflicts_with_all = ["movetime", "clock", "wall", "against"])]
    pub(crate) nodes: Option<u64>,
}

impl MatchArgs {
    /// Each player's transposition table in MB: --hash, else one that grows with the
    /// time a move (16 MB for each 100 ms, so that a search of a second, about 2 M
    /// nodes, does not overwrite itself; from 16 to 256 MB), 64 MB on a clock.
    pub(crate) fn hash_mb(&self) -> usize {
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

/// Which players of `checkers-lab match` an option applies to (the endgame databases, a
/// time wall).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum MatchPlayers {
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
    pub(crate) fn uses(self, player: usize) -> bool {
        matches!(
            (self, player),
            (MatchPlayers::Both, _) | (MatchPlayers::A, 0) | (MatchPlayers::B, 1)
        )
    }
}

/// The two levels of `checkers-lab match`: `--level A --level B`, given twice or not at all
/// (then level 10 plays itself); clap refuses the command line otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MatchLevels(pub [Level; 2]);

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

/// `checkers-lab selfplay`.
#[derive(Debug, Args)]
pub(crate) struct SelfplayArgs {
    /// The file to write positions to (one `FEN<tab>score<tab>result` line each); added
    /// to if it exists.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = whole::<u32>(1, 10_000_000))]
    pub(crate) games: u32,
    /// Nodes searched per move.
    #[arg(long, default_value_t = 5000, allow_negative_numbers = true, value_parser = whole::<u64>(100, 100_000_000))]
    pub(crate) nodes: u64,
    /// Nodes searched per move while the board has at least --deep-pieces pieces (default:
    /// --nodes throughout): sharper labels for the opening and middle game, the ending
    /// still played out fast.
    #[arg(long, value_name = "NODES", allow_negative_numbers = true, value_parser = whole::<u64>(100, 100_000_000))]
    pub(crate) deep_nodes: Option<u64>,
    /// The fewest pieces on the board at which --deep-nodes applies.
    #[arg(long, default_value_t = 14, requires = "deep_nodes", allow_negative_numbers = true, value_parser = whole::<u32>(2, 24))]
    pub(crate) deep_pieces: u32,
    /// Games played at once (default: one per core).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u16>(1, 256).map(usize::from))]
    pub(crate) threads: Option<usize>,
    /// Seed of the games' random moves.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// The evaluation the games are played with.
    #[arg(long, value_enum, default_value_t = EvalChoice::Hand)]
    pub(crate) eval: EvalChoice,
    /// With --eval net: this network file (from `checkers-lab train --model net`) instead
    /// of the embedded one, so that a generation's games need no new build.
    #[arg(long, value_name = "FILE")]
    pub(crate) net: Option<PathBuf>,
}

/// `checkers-lab train`.
#[derive(Debug, Args)]
pub(crate) struct TrainArgs {
    /// Training data files written by `checkers-lab selfplay`.
    #[arg(long = "data", value_name = "FILE")]
    pub(crate) data: Vec<PathBuf>,
    /// PDN files of games whose positions to add, labelled by each game's result.
    #[arg(long = "pdn", value_name = "FILE")]
    pub(crate) pdn: Vec<PathBuf>,
    /// The weights file to write.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
    /// Passes over the data.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true, value_parser = whole::<u32>(1, 10_000))]
    pub(crate) epochs: u32,
    /// The game result's share of each target, 0 to 1 (the search score has the rest).
    #[arg(long, default_value_t = 0.5, value_parser = share)]
    pub(crate) lambda: f32,
    /// Adam's step size at the start: in hundredths of a man for the pattern table, in
    /// thousandths of a weight for the network (it falls to a tenth by the last pass).
    #[arg(long, default_value_t = 2.0, value_parser = positive)]
    pub(crate) learning_rate: f32,
    /// Seed of the shuffling and of the held-out sample.
    #[arg(long, default_value_t = 1)]
    pub(crate) seed: u64,
    /// What to train: the pattern table or the network evaluation.
    #[arg(long, value_enum, default_value_t = TrainModel::Table)]
    pub(crate) model: TrainModel,
    /// With --model net: continue from this checkpoint (written beside --out as
    /// OUT.checkpoint after every pass, with the optimiser's moments and the shuffle's
    /// state) up to --epochs passes in all: with the same data and options, the run goes
    /// on as the unbroken run would have.
    #[arg(long, value_name = "FILE")]
    pub(crate) resume: Option<PathBuf>,
    /// With --model net: start from this network (a file `train --model net` wrote, or
    /// `embedded`, the program's own) instead of from random weights: a new generation
    /// that goes on from the last.
    #[arg(long, value_name = "FILE|embedded", conflicts_with = "resume")]
    pub(crate) from: Option<PathBuf>,
    /// With --model net: threads computing the gradient (default: one per core).
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = threads())]
    pub(crate) threads: Option<usize>,
}

/// What `checkers-lab train` learns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum TrainModel {
    /// The pattern table (`src/engine/weights.bin`).
    Table,
    /// The network evaluation (`src/engine/net.bin`).
    Net,
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

/// `checkers-lab book`.
#[derive(Debug, Args)]
pub(crate) struct BookBuildArgs {
    /// The book file to write (compressed with zstd when its name ends in `.zst`).
    #[arg(long, value_name = "FILE")]
    pub(crate) out: PathBuf,
    /// PDN files of games whose openings to add.
    #[arg(long = "pdn", value_name = "FILE")]
    pub(crate) pdn: Vec<PathBuf>,
    /// Thinking time per position in milliseconds.
    #[arg(long, value_name = "MOVETIME", default_value = "2000", value_parser = millis(3_600_000))]
    pub(crate) movetime: Duration,
    /// A games' position enters the book when at least this many games reach it.
    #[arg(long, allow_negative_numbers = true, default_value_t = 3, value_parser = at_least(1u32))]
    pub(crate) min_games: u32,
    /// How many plies of each game to look at.
    #[arg(long, default_value_t = 16, allow_negative_numbers = true, value_parser = whole::<u32>(1, 60).map(|n| n as usize))]
    pub(crate) plies: usize,
    /// Positions searched at once (default: one per core).
    #[arg(long, allow_negative_numbers = true, value_parser = whole::<u16>(1, 256).map(usize::from))]
    pub(crate) threads: Option<usize>,
    /// Start from this book file (`.txt`, or `.zst` compressed): its positions are
    /// kept, not searched again.
    #[arg(long, value_name = "FILE")]
    pub(crate) from: Option<PathBuf>,
    /// Then grow the book by dropout expansion from the ballots: this many more
    /// positions searched, the nearest to the ballots' best play first (a position
    /// costs the sum, along its line, of how much each move scored below the best,
    /// plus --ply-cost a ply).
    #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = at_least(0usize))]
    pub(crate) expand: usize,
    /// Dropout expansion follows the moves scoring at most this many hundredths of a
    /// man below the best.
    #[arg(long, default_value_t = 30, allow_negative_numbers = true, value_parser = whole::<u16>(0, 1000).map(i32::from))]
    pub(crate) margin: i32,
    /// What each ply away from the ballot adds to a position's cost in dropout
    /// expansion, in hundredths of a man.
    #[arg(long, default_value_t = 5, allow_negative_numbers = true, value_parser = whole::<u16>(0, 1000).map(i32::from))]
    pub(crate) ply_cost: i32,
    /// The best moves each search of dropout expansion scores (multi-PV): the
    /// alternatives it may follow.
    #[arg(long, default_value_t = 3, allow_negative_numbers = true, value_parser = whole::<u16>(1, 16).map(usize::from))]
    pub(crate) lines: usize,
}

#[cfg(test)]
mod tests;
