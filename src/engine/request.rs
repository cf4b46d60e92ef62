//! What a search is asked and what it answers: limits, the stop flag, the request,
//! progress by depth and the result.

use super::egdb::Egdb;
use super::evaluation::Evaluation;
use super::nnue::Nnue;
use super::params::SearchParams;
use super::score::Score;
use super::time::{Limits, planned};
use crate::rules::{Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

/// A shared flag that stops a running search at once (it checks every few hundred
/// nodes). Clones share the flag.
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A flag not yet raised.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Asks the search to stop and return its best move so far.
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether a stop was asked for.
    pub fn is_stopped(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// What to search: the position, the game that led to it, and how long.
#[derive(Clone, Debug)]
pub struct SearchRequest {
    /// The position to find a move for.
    pub(crate) position: Position,
    /// The game's earlier positions, oldest first (the last one is the position before
    /// `position`). Used to score repetitions as draws and to count toward the
    /// forty-move rule; may be empty.
    pub(crate) history: Vec<Position>,
    /// When to stop.
    pub(crate) limits: Limits,
    /// Randomness for weaker play: each evaluated position gets a pseudo-random offset
    /// of at most this many hundredths of a man. 0 for the best play.
    pub(crate) noise: i32,
    /// Seed of that randomness (the same seed gives the same offsets).
    pub(crate) seed: u64,
    /// How much the side to move dislikes a draw, in hundredths of a man: a draw in the
    /// search scores `-contempt` for it (and `+contempt` for the opponent). 0 scores
    /// draws as level, as analysis should; a computer player uses a little, so that it
    /// does not steer for a repetition in a level position.
    pub(crate) contempt: i32,
    /// Endgame databases to probe: positions they hold get their exact score and are
    /// not searched further, and a root position they hold is played from them. `None`
    /// searches as without databases.
    pub(crate) egdb: Option<Arc<Egdb>>,
    /// The evaluation of quiet positions.
    pub(crate) evaluation: Evaluation,
    /// The network that evaluates when [`evaluation`](Self::evaluation) is the
    /// network's: `None` for the embedded one, or another (read from a file that
    /// `checkers-lab train --model net` wrote), to measure it in a match or play with it.
    pub(crate) network: Option<Arc<Nnue>>,
    /// Whether to play from the opening book
    /// ([`Book::embedded`](super::book::Book::embedded)) when it has the position: at
    /// once, with no search; one of the tournament games' moves when `noise` is above 0
    /// (the weaker levels), the deep search's best otherwise.
    pub(crate) book: bool,
    /// The search's tunable numbers ([`SearchParams::default`] for the computer's play).
    pub(crate) params: SearchParams,
    /// Whether a position with a single legal move is answered at once, with no search
    /// and a score that is only a guide (depth 0): for a player, who has nothing to
    /// choose. Off, the only move is searched like any position, so that the score shown
    /// for it (analysis, hints, review) is a searched one with its depth.
    pub(crate) only_move_at_once: bool,
    /// Threads searching at once (Lazy SMP: helpers share the transposition table).
    /// One is deterministic; more search deeper in the same time but not the same way
    /// twice. [`SearchRequest::new`] and [`Level::request`](super::Level::request) take
    /// one; a game's session says how many its searches use.
    pub(crate) threads: usize,
    /// How many of the best root moves to search lines for (multi-PV): 1 (the default)
    /// searches the best move only; more search, at each depth, the best of the root
    /// moves not yet chosen, again, until this many (or every legal move) have a line
    /// with an exact score. Analysis shows them; a player needs one.
    pub(crate) lines: usize,
}

/// The machine's cores (1 if they cannot be known).
pub(crate) fn machine_cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

impl SearchRequest {
    /// A search of `position` with no game history, no noise.
    pub fn new(position: Position, limits: Limits) -> SearchRequest {
        SearchRequest {
            position,
            history: Vec::new(),
            limits,
            noise: 0,
            seed: 0,
            contempt: 0,
            egdb: None,
            evaluation: Evaluation::default(),
            network: None,
            book: false,
            params: SearchParams::default(),
            only_move_at_once: false,
            threads: 1,
            lines: 1,
        }
    }

    /// The same request probing `egdb`.
    pub fn with_egdb(mut self, egdb: Option<Arc<Egdb>>) -> SearchRequest {
        self.egdb = egdb;
        self
    }

    /// The limits the search honours: `limits` with its clock, if any,
    /// planned into a target and a wall by the time manager (see
    /// `plan_time`).
    /// The request with the game's earlier positions, oldest first: a position met
    /// again is scored as the draw a repetition may become.
    pub fn with_history(mut self, history: Vec<Position>) -> SearchRequest {
        self.history = history;
        self
    }

    pub(crate) fn planned_limits(&self) -> Limits {
        planned(self.limits, &self.params)
    }

    /// The same request searching the `lines` best root moves, each with an exact score
    /// (at least 1; see [`lines`](Self::lines)).
    pub(crate) fn with_lines(mut self, lines: usize) -> SearchRequest {
        self.lines = lines.max(1);
        self
    }

    /// The same request evaluating quiet positions with `evaluation`.
    pub fn with_evaluation(mut self, evaluation: Evaluation) -> SearchRequest {
        self.evaluation = evaluation;
        self
    }

    /// The same request evaluating with `network` when it evaluates with a network
    /// (`None`: the embedded one).
    #[cfg(feature = "lab")]
    pub(crate) fn with_network(mut self, network: Option<Arc<Nnue>>) -> SearchRequest {
        self.network = network;
        self
    }
}

/// Progress: what one completed iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DepthInfo {
    /// The nominal depth completed.
    pub depth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes visited since the search started.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, starting with the best move.
    pub pv: Vec<Move>,
    /// The best lines, best first (see [`SearchResult::lines`]).
    pub(crate) lines: Vec<Line>,
    /// Whether the move came from the opening book, not a search: then `depth` is the
    /// depth the book's entry was searched to when the book was built, and `nodes` 0.
    pub(crate) from_book: bool,
}

/// One of the best lines of a search: a root move's score (exact, not a bound) and
/// its principal variation, starting with that move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// The score for the side to move.
    pub(crate) score: Score,
    /// The moves, starting with the root move.
    pub(crate) pv: Vec<Move>,
}

impl DepthInfo {
    /// Nodes per second so far.
    pub(crate) fn nodes_per_second(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }
}

fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    let micros = elapsed.as_micros().max(1);
    (u128::from(nodes) * 1_000_000 / micros) as u64
}

/// The result of a search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult {
    /// The move to play; `None` only when the side to move has no legal move.
    pub best_move: Option<Move>,
    /// Its score for the side to move (from the last completed iteration).
    pub score: Score,
    /// The deepest completed iteration (0 when none completed, e.g. stopped at once or
    /// only one legal move).
    pub depth: u32,
    /// Nodes visited.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The principal variation, starting with `best_move`.
    pub pv: Vec<Move>,
    /// Positions the endgame databases answered during the search (0 without them).
    pub(crate) egdb_hits: u64,
    /// The request's [`lines`](SearchRequest::lines) best lines (fewer when the
    /// position has fewer legal moves; none without one), in score order from the
    /// deepest iteration that searched them all; the first is `best_move`'s (`score`,
    /// `pv`). A search stopped by time may have a newer first line than the rest.
    pub(crate) lines: Vec<Line>,
}

/// Writes a line of moves as a person follows it, each capture by its route
/// (`11-15 24x15x6`), as the move list shows them; records keep [`line_notation`].
pub(crate) fn route_line(moves: &[Move]) -> String {
    let words: Vec<String> = moves.iter().map(Move::to_string).collect();
    words.join(" ")
}

/// Writes a line of moves from `pos` in record notation (`11-15 23-19 8-11`).
pub(crate) fn line_notation(pos: &Position, moves: &[Move]) -> String {
    let mut pos = *pos;
    let mut words = Vec::with_capacity(moves.len());
    for m in moves {
        words.push(pos.notation(m));
        pos = pos.play_unchecked(m);
    }
    words.join(" ")
}
