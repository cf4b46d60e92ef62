//! The search: iterative deepening, principal variation search, transposition table,
//! killer and history move ordering, late-move reductions, truncation, forced-capture
//! quiescence, repetition detection.
//! What a search is asked and answers (limits, request, result) lives in
//! [`request`](super::request). Here are the [`Engine`] that drives the iterations (and
//! Lazy SMP's helper threads, which run the same search), and one thread's `Searcher`:
//! the node loop, its move ordering and the path of positions for repetitions, whose
//! hot functions call one another at every node.

use super::book::Book;
use super::egdb::{Egdb, Verdict};
use super::evaluation::Evaluation;
use super::nnue::{Accumulator, Nnue};
use super::params::SearchParams;
pub(crate) use super::request::{DepthInfo, Line, SearchRequest, SearchResult, StopFlag};
use super::score::Score;
pub(crate) use super::time::Limits;
use super::time::budget::{self, Budget};
use super::tt::{Bound, NO_MOVE, NO_STATIC_VALUE, TranspositionTable};
use super::zobrist::{hash, splitmix64};
use crate::rules::draw::{FORTY_MOVE_PLIES, is_quiet_move, is_reversible};
use crate::rules::{Color, Move, Position};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use std::time::{Duration, Instant};

/// Deepest ply the search goes below the root (extensions included).
pub(super) const MAX_PLY: usize = 128;
/// Deepest nominal depth of iterative deepening.
pub(crate) const MAX_DEPTH: u32 = 64;

/// The move order's ranks, best first: the table's move, captures (more pieces first),
/// the two killer moves, then the rest by their history counts (which stay below the
/// killers', see [`SearchParams::history_most`]).
const TABLE_MOVE_RANK: i32 = 1 << 30;
const CAPTURE_RANK: i32 = 1 << 24;
const CAPTURED_PIECE_RANK: i32 = 1024;
const KILLER_RANK: i32 = 1 << 22;

/// History counts of quiet moves: by side to move, from-square and to-square.
type History = [[[i32; 32]; 32]; 2];

/// A searcher that keeps its transposition table and move-ordering statistics from one
/// search to the next (useful over a game). With one thread (a request's
/// `threads`), a search to a fixed depth or node count from a
/// fresh engine (or after [`clear`](Engine::clear)) always gives the same result; with
/// more, helper threads search the same tree at once (Lazy SMP), sharing the table.
#[derive(Clone, Debug)]
pub struct Engine {
    tt: TranspositionTable,
    history: Box<History>,
    /// The helper threads' own history counts, kept from one search to the next.
    helper_history: Vec<Box<History>>,
    /// Multi-PV's table: the lines after the first are searched in a table of their
    /// own (made the first time they are asked for), so that the first line is searched
    /// exactly as a single-line search would be.
    lines_tt: Option<TranspositionTable>,
    /// The history counts of those lines' searches.
    lines_history: Box<History>,
}

/// The default transposition table size in MB: the computer's in a game. Level 10
/// thinks about 3 s a move, some 5 M nodes, which a smaller table would overwrite.
pub(crate) const DEFAULT_HASH_MB: usize = 64;

impl Default for Engine {
    fn default() -> Engine {
        Engine::new(DEFAULT_HASH_MB)
    }
}

impl Engine {
    /// An engine with a transposition table of about `hash_mb` MB.
    pub fn new(hash_mb: usize) -> Engine {
        Engine {
            tt: TranspositionTable::new(hash_mb),
            history: Box::new([[[0; 32]; 32]; 2]),
            helper_history: Vec::new(),
            lines_tt: None,
            lines_history: Box::new([[[0; 32]; 32]; 2]),
        }
    }

    /// Forgets everything learnt (for a new game, or for reproducible searches).
    pub fn clear(&mut self) {
        self.tt.clear();
        *self.history = [[[0; 32]; 32]; 2];
        self.helper_history.clear();
        self.lines_tt = None;
        *self.lines_history = [[[0; 32]; 32]; 2];
    }

    /// Searches `request` until a limit is reached or `stop` is raised, calling
    /// `on_depth` after each completed iteration. Always returns a legal move when the
    /// position has one, however soon it is stopped.
    pub fn search(
        &mut self,
        request: &SearchRequest,
        stop: &StopFlag,
        mut on_depth: impl FnMut(&DepthInfo),
    ) -> SearchResult {
        let started = Instant::now();
        let params = request.params;
        let root = request.position;
        let limits =
            budget::staged_limits(request.planned_limits(), root.occupied().count(), &params);
        let mut root_moves = root.legal_moves();
        let wanted = request.lines.clamp(1, root_moves.len().max(1));
        let finish = |mut best_move: Option<Move>,
                      mut score: Score,
                      depth,
                      nodes,
                      mut pv: Vec<Move>,
                      egdb_hits,
                      mut lines: Vec<Line>| {
            // The best move's line is the newest, however the search ended.
            if let Some(m) = best_move {
                lines.retain(|line| line.pv.first() != Some(&m));
                lines.push(Line {
                    score,
                    pv: pv.clone(),
                });
                lines.sort_by_key(|line| std::cmp::Reverse(line.score));
                lines.truncate(wanted);
                // The move to play is the first line's: another line, searched in its
                // own table, may have scored above the first search's best (search
                // instability), and its exact score is as good a word as that one's.
                if let Some(first) = lines.first().filter(|_| wanted > 1) {
                    best_move = first.pv.first().copied();
                    score = first.score;
                    pv = first.pv.clone();
                }
            }
            SearchResult {
                best_move,
                score,
                depth,
                nodes,
                elapsed: started.elapsed(),
                pv,
                egdb_hits,
                lines,
            }
        };
        match root_moves.len() {
            0 => return finish(None, Score::loss_in(0), 0, 0, Vec::new(), 0, Vec::new()),
            1 if request.only_move_at_once => {
                // Nothing to choose: answer at once, with the database's verdict or the
                // static value as a guide (depth 0 says it was not searched).
                let m = root_moves[0];
                let child = root.play_unchecked(&m);
                let (score, hits) = match request.egdb.as_ref().and_then(|db| db.probe(&child)) {
                    Some(v) => (-verdict_score(v, 1, 0), 1),
                    None => (
                        -request
                            .evaluation
                            .evaluate_with_moves(&child, child.count_moves()),
                        0,
                    ),
                };
                return finish(Some(m), Score(score), 0, 1, vec![m], hits, Vec::new());
            }
            _ => {}
        }
        if request.book
            && let Some((entry, m)) =
                Book::embedded().choose(&root, request.noise > 0, request.seed)
            && root_moves.contains(&m)
        {
            let score = Score(entry.score);
            on_depth(&DepthInfo {
                depth: entry.depth,
                score,
                nodes: 0,
                elapsed: started.elapsed(),
                pv: vec![m],
                lines: vec![Line { score, pv: vec![m] }],
                from_book: true,
            });
            return finish(Some(m), score, entry.depth, 0, vec![m], 0, Vec::new());
        }
        // A drawn root in the databases: to them every drawing move is as good as
        // another, so the ordinary search (without them) chooses among those, keeping
        // the most play for the opponent to go wrong in. A won or lost root is played
        // from the databases: the fastest win, the longest defence.
        let drawing = request
            .egdb
            .as_ref()
            .and_then(|db| db.moves(&root))
            .map(|moves| {
                moves
                    .into_iter()
                    .take_while(|(_, v)| *v == Verdict::Draw)
                    .map(|(m, _)| m)
                    .collect::<Vec<Move>>()
            })
            .filter(|drawing| drawing.len() > 1);
        let without_databases;
        let drawn_root = drawing.is_some();
        let egdb = request.egdb.clone();
        let request = match drawing {
            Some(drawing) => {
                root_moves = drawing;
                without_databases = SearchRequest {
                    egdb: None,
                    ..request.clone()
                };
                &without_databases
            }
            None => request,
        };
        // The score shown for a drawn root is the databases' draw.
        let shown = |score: Score| if drawn_root { Score::DRAW } else { score };
        self.tt.new_search();
        // Age the history so that old games do not dominate the ordering.
        let helpers = request.threads.clamp(1, MAX_THREADS) - 1;
        self.helper_history
            .resize_with(helpers, || Box::new([[[0; 32]; 32]; 2]));
        for history in std::iter::once(&mut self.history).chain(self.helper_history.iter_mut()) {
            for side in history.iter_mut() {
                for row in side.iter_mut() {
                    for h in row.iter_mut() {
                        *h /= params.history_aging.max(1);
                    }
                }
            }
        }
        // A root in the databases: one ply finds the exact value of every move (each
        // child is probed), so there is nothing deeper to search.
        let root_in_egdb = request
            .egdb
            .as_ref()
            .is_some_and(|db| db.probe(&root).is_some());
        let max_depth = limits.depth.unwrap_or(MAX_DEPTH).clamp(1, MAX_DEPTH);
        // More lines than one, searched (a root the databases hold has theirs).
        let searched_lines = wanted > 1 && !root_in_egdb && !drawn_root;
        if searched_lines {
            let table = self.lines_tt.get_or_insert_with(|| self.tt.same_size());
            table.new_search();
            for side in self.lines_history.iter_mut() {
                for row in side.iter_mut() {
                    for h in row.iter_mut() {
                        *h /= params.history_aging.max(1);
                    }
                }
            }
        }
        let lines_tt = self.lines_tt.as_ref().filter(|_| searched_lines);
        let lines_history = &mut *self.lines_history;
        let tt = &self.tt;
        let helper_nodes = AtomicU64::new(0);
        let helpers_done = StopFlag::new();
        let shared = Shared {
            done: &helpers_done,
            nodes: &helper_nodes,
        };
        let (history, helper_history) = (&mut *self.history, &mut self.helper_history);
        let mut best = root_moves[0];
        let mut best_score = Score(0);
        let mut best_pv = vec![best];
        // The lines of the deepest iteration that searched them all.
        let mut lines: Vec<Line> = Vec::new();
        let mut completed = 0;
        let mut budget = Budget::default();
        let (nodes, hits) = std::thread::scope(|scope| {
            for (i, history) in helper_history.iter_mut().enumerate() {
                let moves = root_moves.clone();
                scope.spawn(move || {
                    let mut s = Searcher::new(tt, history, request, limits, stop, started);
                    s.helper(shared);
                    s.help(&root, moves, i + 1, max_depth);
                });
            }
            let mut s = Searcher::new(tt, history, request, limits, stop, started);
            // The searcher of the lines after the first, and the order it tries the root
            // moves in (its own, so that the first line's search is not changed).
            let mut more =
                lines_tt.map(|tt| Searcher::new(tt, lines_history, request, limits, stop, started));
            let mut more_moves = root_moves.clone();
            let node_limit = limits.nodes.unwrap_or(u64::MAX);
            for depth in 1..=max_depth {
                // Aspiration: search a narrow window round the last score first, and again
                // with the whole window only if the score falls outside it.
                let aspirate = depth >= params.aspiration_from_depth && !best_score.is_forced();
                let window = params.aspiration_window;
                let (mut low, mut high) = if aspirate {
                    (best_score.0 - window, best_score.0 + window)
                } else {
                    (-Score::INFINITE, Score::INFINITE)
                };
                let mut fail_high_move = None;
                let (found, score, complete) = loop {
                    let (found, score, complete) =
                        s.root(&root, &mut root_moves, depth as i32, low, high);
                    if complete && score <= low && low > -Score::INFINITE {
                        low = -Score::INFINITE;
                    } else if complete && score >= high && high < Score::INFINITE {
                        high = Score::INFINITE;
                        fail_high_move = found;
                        if let Some(i) = found.and_then(|m| root_moves.iter().position(|&r| r == m))
                        {
                            root_moves[..=i].rotate_right(1);
                        }
                    } else {
                        break (found, score, complete);
                    }
                };
                if let Some(m) = found {
                    best = m;
                    best_score = Score(score);
                    best_pv = s.pv[0].clone();
                    if best_pv.first() != Some(&m) {
                        best_pv = vec![m];
                    }
                } else if let Some(m) = fail_high_move {
                    // Stopped while confirming a move that beat the window: it is better
                    // than the last best, though its exact score is unknown.
                    best = m;
                    best_pv = vec![m];
                }
                if !complete {
                    break;
                }
                // The best move first next time; the others keep their order.
                if let Some(i) = root_moves.iter().position(|&m| m == best) {
                    root_moves[..=i].rotate_right(1);
                }
                let first = Line {
                    score: shown(best_score),
                    pv: best_pv.clone(),
                };
                let found = match &egdb {
                    // A root the databases hold: its other lines are theirs.
                    Some(db) if wanted > 1 && (root_in_egdb || drawn_root) => {
                        database_lines(db, &root, first, wanted)
                    }
                    _ => match more.as_mut() {
                        Some(more) => {
                            // The node limit holds for both searchers together.
                            more.node_limit =
                                more.nodes + node_limit.saturating_sub(s.nodes + more.nodes);
                            let found =
                                more.more_lines(&root, &mut more_moves, depth, first, wanted);
                            s.node_limit = node_limit.saturating_sub(more.nodes);
                            match found {
                                Some(found) => found,
                                None => break, // Stopped: the last full set stands.
                            }
                        }
                        None => vec![first],
                    },
                };
                lines = found;
                // In score order: the first line is the first search's unless the
                // other table's search scored another higher (search instability).
                lines.sort_by_key(|line| std::cmp::Reverse(line.score));
                completed = depth;
                if root_in_egdb && let Some(db) = &request.egdb {
                    // Show the databases' line of best play after the move chosen.
                    best_pv.truncate(1);
                    best_pv.extend(db.best_line(&root.play_unchecked(&best), 40));
                    if let Some(line) = lines.iter_mut().find(|l| l.pv.first() == Some(&best)) {
                        line.pv = best_pv.clone();
                    }
                }
                on_depth(&DepthInfo {
                    depth,
                    score: shown(best_score),
                    nodes: s.nodes
                        + more.as_ref().map_or(0, |m| m.nodes)
                        + helper_nodes.load(Ordering::Relaxed),
                    elapsed: started.elapsed(),
                    pv: best_pv.clone(),
                    lines: lines.clone(),
                    from_book: false,
                });
                if root_in_egdb {
                    break;
                }
                if let Some(plies) = best_score.plies_to_end()
                    && plies <= depth
                {
                    break; // Proved: a deeper search finds nothing shorter.
                }
                if budget.stop_after(depth, best, best_score, started.elapsed(), &limits, &params) {
                    break;
                }
            }
            helpers_done.stop();
            let (more_nodes, more_hits) = more.map_or((0, 0), |m| (m.nodes, m.egdb_hits));
            (s.nodes + more_nodes, s.egdb_hits + more_hits)
        });
        let nodes = nodes + helper_nodes.load(Ordering::Relaxed);
        let hits = hits + u64::from(drawn_root);
        finish(
            Some(best),
            shown(best_score),
            completed,
            nodes,
            best_pv,
            hits,
            lines,
        )
    }
}

/// The lines of a root the databases hold: `first` (the search's), then the other
/// moves in the databases' order (best first), each with their verdict and line of best
/// play, `wanted` in all.
fn database_lines(db: &Egdb, root: &Position, first: Line, wanted: usize) -> Vec<Line> {
    let chosen = first.pv.first().copied();
    let mut lines = vec![first];
    for (m, verdict) in db.moves(root).unwrap_or_default() {
        if lines.len() >= wanted {
            break;
        }
        if Some(m) == chosen {
            continue;
        }
        let mut pv = vec![m];
        pv.extend(db.best_line(&root.play_unchecked(&m), 40));
        lines.push(Line {
            score: Score(verdict_score(verdict, 0, 0)),
            pv,
        });
    }
    lines
}

/// The most threads a search runs (a request asking more gets this many).
pub(crate) const MAX_THREADS: usize = 256;

/// What a helper thread shares with the search it helps.
#[derive(Clone, Copy)]
struct Shared<'a> {
    /// Raised when the main thread is done: the helpers stop.
    done: &'a StopFlag,
    /// The helpers' nodes, counted in (every 256 nodes and at the end).
    nodes: &'a AtomicU64,
}

/// Every position of the game and the search path, for repetition detection.
struct PathEntry {
    key: u64,
    /// Index of the first position since the last man move or capture: no earlier
    /// position can recur.
    run_start: usize,
}

struct Searcher<'a> {
    tt: &'a TranspositionTable,
    history: &'a mut History,
    stop: &'a StopFlag,
    /// A helper thread's link to the search it helps (`None` in the main thread).
    shared: Option<Shared<'a>>,
    started: Instant,
    deadline: Option<Duration>,
    node_limit: u64,
    nodes: u64,
    aborted: bool,
    noise: i32,
    seed: u64,
    contempt: i32,
    path: Vec<PathEntry>,
    killers: [[Option<Move>; 2]; MAX_PLY + 1],
    pv: Vec<Vec<Move>>,
    move_buffers: Vec<Vec<Move>>,
    order_buffers: Vec<Vec<(i32, u8)>>,
    egdb: Option<Arc<Egdb>>,
    egdb_hits: u64,
    evaluation: Evaluation,
    params: SearchParams,
    /// The network, when it evaluates: its first layer is kept by ply, updated by each
    /// move from the parent's (`accumulators[ply]` is the position at `ply`'s).
    network: Option<&'a Nnue>,
    accumulators: Vec<Accumulator>,
    /// The quarter plies truncation has taken on the path to each ply, given back
    /// when a position is valued near the window again: beyond the hard distance, and
    /// within it (see [`SearchParams::truncation_soft`]).
    truncated: [[i32; 2]; MAX_PLY + 2],
    /// The last static value found at each ply, with its position's key: truncation
    /// and the quiescence search below a truncated node value the same position at
    /// the same ply, and the network's value is the dearest part of a node.
    static_values: [(u64, i32); MAX_PLY + 2],
}

impl<'a> Searcher<'a> {
    fn new(
        tt: &'a TranspositionTable,
        history: &'a mut History,
        request: &'a SearchRequest,
        limits: Limits,
        stop: &'a StopFlag,
        started: Instant,
    ) -> Searcher<'a> {
        let mut path: Vec<PathEntry> = Vec::with_capacity(request.history.len() + MAX_PLY + 2);
        let mut previous: Option<&Position> = None;
        for pos in request
            .history
            .iter()
            .chain(std::iter::once(&request.position))
        {
            let run_start = match (previous, path.last()) {
                (Some(prev), Some(last)) if is_reversible(prev, pos) => last.run_start,
                _ => path.len(),
            };
            path.push(PathEntry {
                key: hash(pos),
                run_start,
            });
            previous = Some(pos);
        }
        Searcher {
            tt,
            history,
            stop,
            shared: None,
            started,
            deadline: limits.movetime,
            node_limit: limits.nodes.unwrap_or(u64::MAX),
            nodes: 0,
            aborted: stop.is_stopped(),
            noise: request.noise.max(0),
            contempt: request.contempt.clamp(-500, 500),
            seed: request.seed,
            path,
            killers: [[None; 2]; MAX_PLY + 1],
            pv: (0..=MAX_PLY + 1)
                .map(|_| Vec::with_capacity(MAX_PLY))
                .collect(),
            move_buffers: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            order_buffers: (0..=MAX_PLY + 1).map(|_| Vec::with_capacity(32)).collect(),
            egdb: request.egdb.clone(),
            egdb_hits: 0,
            evaluation: request.evaluation,
            params: request.params,
            network: match (request.evaluation, &request.network) {
                (Evaluation::Net, Some(network)) => Some(network),
                (Evaluation::Net, None) => Some(Nnue::embedded()),
                _ => None,
            },
            accumulators: vec![Accumulator::default(); MAX_PLY + 2],
            truncated: [[0; 2]; MAX_PLY + 2],
            static_values: [(0, 0); MAX_PLY + 2],
        }
    }

    /// Counts a node and checks the limits; true when the search must stop.
    #[inline]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes >= self.node_limit {
            self.aborted = true;
        }
        if self.nodes & 255 == 0 {
            if self.stop.is_stopped() {
                self.aborted = true;
            }
            if let Some(shared) = self.shared {
                shared.nodes.fetch_add(256, Ordering::Relaxed);
                if shared.done.is_stopped() {
                    self.aborted = true;
                }
            }
            if let Some(deadline) = self.deadline
                && self.started.elapsed() >= deadline
            {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Keeps the network's accumulator: `child`'s at `ply + 1` from `parent`'s at `ply`.
    #[inline]
    fn enter(&mut self, ply: usize, parent: &Position, child: &Position) {
        if let Some(net) = self.network {
            let (done, next) = self.accumulators.split_at_mut(ply + 1);
            next[0] = net.update(&done[ply], parent, child);
        }
    }

    /// Makes this searcher a helper of another thread's search: it stops when that
    /// search is done, and counts its nodes into the shared count; only the main
    /// thread's clock and node limit apply.
    fn helper(&mut self, shared: Shared<'a>) {
        self.shared = Some(shared);
        self.deadline = None;
        self.node_limit = u64::MAX;
    }

    /// A helper thread's search (Lazy SMP): iterative deepening over `moves` of `root`
    /// with the whole window, one ply deeper than the main thread in odd helpers, so
    /// that the threads do not all search the same depth at once. What they find
    /// reaches the main thread through the shared table; their own results are
    /// dropped.
    fn help(&mut self, root: &Position, mut moves: Vec<Move>, helper: usize, max_depth: u32) {
        let offset = (helper % 2) as u32;
        for depth in 1 + offset..=max_depth {
            let (found, _, complete) = self.root(
                root,
                &mut moves,
                depth as i32,
                -Score::INFINITE,
                Score::INFINITE,
            );
            if !complete {
                break;
            }
            if let Some(i) = found.and_then(|m| moves.iter().position(|&r| r == m)) {
                moves[..=i].rotate_right(1);
            }
        }
        if let Some(shared) = self.shared {
            shared.nodes.fetch_add(self.nodes & 255, Ordering::Relaxed);
        }
    }

    #[inline]
    fn noise_for(&self, key: u64) -> i32 {
        if self.noise == 0 {
            0
        } else {
            let span = 2 * self.noise as u64 + 1;
            (splitmix64(key ^ self.seed) % span) as i32 - self.noise
        }
    }

    /// The score of a draw at `ply` for the side to move there: the root side (even
    /// plies) pays the contempt.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        if ply.is_multiple_of(2) {
            -self.contempt
        } else {
            self.contempt
        }
    }

    /// The exact score of `pos` at `ply` from the databases, if they hold it.
    #[inline]
    fn probe(&mut self, pos: &Position, ply: usize) -> Option<i32> {
        let verdict = self.egdb.as_ref()?.probe(pos)?;
        self.egdb_hits += 1;
        Some(verdict_score(verdict, ply, self.draw_score(ply)))
    }

    /// Whether the newest path position is a draw by repetition (it occurred before,
    /// in the game or the search) or by the forty-move rule.
    fn is_draw(&self) -> bool {
        let t = self.path.len() - 1;
        let now = &self.path[t];
        if t - now.run_start >= FORTY_MOVE_PLIES {
            return true;
        }
        let mut j = t;
        while j >= now.run_start + 2 {
            j -= 2;
            if self.path[j].key == now.key {
                return true;
            }
        }
        false
    }

    fn push(&mut self, child_key: u64, m: &Move, parent: &Position) {
        let irreversible = !is_quiet_move(parent, m);
        let run_start = if irreversible {
            self.path.len()
        } else {
            self.path.last().map_or(0, |e| e.run_start)
        };
        self.path.push(PathEntry {
            key: child_key,
            run_start,
        });
    }

    /// Searches every root move to `depth` in the window `alpha..beta`, stopping at a
    /// fail high. Returns the best move found (also from an
    /// iteration cut short, once it has been fully searched and beats the first move),
    /// its score, and whether the iteration completed.
    fn root(
        &mut self,
        pos: &Position,
        moves: &mut [Move],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (Option<Move>, i32, bool) {
        let mut best: Option<Move> = None;
        self.pv[0].clear();
        if let Some(net) = self.network {
            self.accumulators[0] = net.accumulate(pos);
        }
        for (i, m) in moves.iter().enumerate() {
            let child = pos.play_unchecked(m);
            let key = hash(&child);
            self.push(key, m, pos);
            self.enter(0, pos, &child);
            let mut score;
            if i == 0 {
                score = -self.negamax(&child, depth - 1, -beta, -alpha, 1);
            } else {
                score = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if score > alpha && !self.aborted {
                    score = -self.negamax(&child, depth - 1, -beta, -alpha, 1);
                }
            }
            self.path.pop();
            if self.aborted {
                return (best, alpha, false);
            }
            if score > alpha {
                alpha = score;
                best = Some(*m);
                self.update_pv(0, *m);
                if score >= beta {
                    break;
                }
            }
        }
        (best, alpha, true)
    }

    /// Multi-PV: after `first` (the best line of this `depth`), the best of the root
    /// `moves` not yet chosen, again and again, until `wanted` lines; each chosen move is
    /// moved up behind the ones before, so that the next iteration tries them in this
    /// order. Each is searched with the whole window, so its score is exact. An
    /// excluded move cannot come back through the table: the root is never stored there
    /// (and met again below it, it is a repetition). `None` when the search was
    /// stopped.
    fn more_lines(
        &mut self,
        pos: &Position,
        moves: &mut [Move],
        depth: u32,
        first: Line,
        wanted: usize,
    ) -> Option<Vec<Line>> {
        if let Some(i) = first
            .pv
            .first()
            .and_then(|f| moves.iter().position(|m| m == f))
        {
            moves[..=i].rotate_right(1);
        }
        let mut lines = vec![first];
        for k in 1..wanted.min(moves.len()) {
            let (found, score, complete) = self.root(
                pos,
                &mut moves[k..],
                depth as i32,
                -Score::INFINITE,
                Score::INFINITE,
            );
            let m = found.filter(|_| complete)?;
            let mut pv = self.pv[0].clone();
            if pv.first() != Some(&m) {
                pv = vec![m];
            }
            lines.push(Line {
                score: Score(score),
                pv,
            });
            if let Some(i) = moves[k..].iter().position(|&r| r == m) {
                moves[k..=k + i].rotate_right(1);
            }
        }
        Some(lines)
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let line = &mut head[ply];
        line.clear();
        line.push(m);
        line.extend_from_slice(&tail[0]);
    }

    fn negamax(
        &mut self,
        pos: &Position,
        depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        if depth <= 0 || ply >= MAX_PLY {
            return self.quiesce(pos, alpha, beta, ply);
        }
        self.pv[ply].clear();
        if self.count_node() {
            return 0;
        }
        if self.is_draw() {
            return self.draw_score(ply);
        }
        if let Some(score) = self.probe(pos, ply) {
            return score;
        }
        // Mate-distance pruning: nothing here can beat a shorter forced result.
        alpha = alpha.max(Score::loss_in(ply as u32).0);
        beta = beta.min(Score::win_in(ply as u32 + 1).0);
        if alpha >= beta {
            return alpha;
        }
        let key = self.path[self.path.len() - 1].key;
        let pv_node = beta - alpha > 1;
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.move_index;
            if e.static_value != NO_STATIC_VALUE {
                self.static_values[ply] = (key, i32::from(e.static_value));
            }
            if !pv_node && i32::from(e.depth) >= depth {
                let v = Score::from_table(i32::from(e.score), ply);
                let usable = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => v >= beta,
                    Bound::Upper => v <= alpha,
                };
                if usable {
                    return v;
                }
            }
        }
        let (depth, owed) = self.truncate(pos, depth, alpha, beta, ply, pv_node);
        if depth <= 0 {
            return self.quiesce(pos, alpha, beta, ply);
        }
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        let mut order = std::mem::take(&mut self.order_buffers[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            self.move_buffers[ply] = moves;
            self.order_buffers[ply] = order;
            return Score::loss_in(ply as u32).0;
        }
        // A forced move costs the opponent nothing to find: look further.
        let forced = moves.len() == 1;
        let extension = if forced {
            self.params.single_move_extension
        } else {
            0
        };
        let side = usize::from(pos.turn() == Color::White);
        order.clear();
        for (i, m) in moves.iter().enumerate() {
            let value = if i as u8 == tt_move {
                TABLE_MOVE_RANK
            } else if m.is_capture() {
                CAPTURE_RANK + (m.captured().count() as i32) * CAPTURED_PIECE_RANK
            } else if self.killers[ply][0] == Some(*m) {
                KILLER_RANK
            } else if self.killers[ply][1] == Some(*m) {
                KILLER_RANK - 1
            } else {
                self.history[side][m.from().index()][m.to().index()]
            };
            order.push((value, i as u8));
        }
        order.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        let original_alpha = alpha;
        let mut best_score = -Score::INFINITE;
        let mut best_index = NO_MOVE;
        for (n, &(_, index)) in order.iter().enumerate() {
            let m = moves[usize::from(index)];
            let quiet = !m.is_capture()
                && self.killers[ply][0] != Some(m)
                && self.killers[ply][1] != Some(m);
            let child = pos.play_unchecked(&m);
            let child_key = hash(&child);
            self.push(child_key, &m, pos);
            self.enter(ply, pos, &child);
            self.truncated[ply + 1] = owed;
            let new_depth = depth - 1 + extension;
            let score = if n == 0 {
                -self.negamax(&child, new_depth, -beta, -alpha, ply + 1)
            } else {
                // Late quiet moves are searched less deep unless they surprise.
                let p = &self.params;
                let reduction = if depth >= p.reduce_from_depth
                    && n >= p.reduce_from_move
                    && quiet
                    && !forced
                {
                    let deeper =
                        n >= p.deeper_reduction_from_move && depth >= p.deeper_reduction_from_depth;
                    p.reduction + i32::from(deeper)
                } else {
                    0
                };
                let mut s =
                    -self.negamax(&child, new_depth - reduction, -alpha - 1, -alpha, ply + 1);
                if s > alpha && reduction > 0 && !self.aborted {
                    s = -self.negamax(&child, new_depth, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(&child, new_depth, -beta, -alpha, ply + 1);
                }
                s
            };
            self.path.pop();
            if self.aborted {
                self.move_buffers[ply] = moves;
                self.order_buffers[ply] = order;
                return 0;
            }
            if score > best_score {
                best_score = score;
                best_index = index;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        if !m.is_capture() {
                            if self.killers[ply][0] != Some(m) {
                                self.killers[ply][1] = self.killers[ply][0];
                                self.killers[ply][0] = Some(m);
                            }
                            let h = &mut self.history[side][m.from().index()][m.to().index()];
                            *h = (*h + depth * depth).min(self.params.history_most);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        let (valued, value) = self.static_values[ply];
        let static_value = match i16::try_from(value) {
            Ok(v) if valued == key && v != NO_STATIC_VALUE => v,
            _ => NO_STATIC_VALUE,
        };
        self.tt.store(
            key,
            depth,
            Score::to_table(best_score, ply),
            bound,
            best_index,
            static_value,
        );
        self.move_buffers[ply] = moves;
        self.order_buffers[ply] = order;
        best_score
    }

    /// The static value of `pos` at `ply` for the side to move, by the network from its
    /// accumulator or by the evaluation (which also takes the side's count of moves,
    /// counted only then); kept by ply, so that a position valued again at the same
    /// ply (by truncation, then the quiescence search) is valued once.
    #[inline]
    fn static_value(&mut self, pos: &Position, ply: usize, own_moves: impl FnOnce() -> u64) -> i32 {
        let key = self.path[self.path.len() - 1].key;
        let (kept_key, kept) = self.static_values[ply];
        if kept_key == key {
            return kept;
        }
        let value = match self.network {
            Some(net) => net.evaluate(&self.accumulators[ply], pos),
            None => self.evaluation.evaluate_with_moves(pos, own_moves()),
        };
        self.static_values[ply] = (key, value);
        value
    }

    /// Truncation: the depth to search `pos` at and the quarter plies owed below it
    /// (see [`SearchParams::truncation_soft`]). Off the principal variation, a quiet
    /// position valued far outside the window (`alpha`, `beta`) is searched shallower,
    /// the further the more, and the plies taken on the path are given back once a
    /// position is valued near the window again.
    fn truncate(
        &mut self,
        pos: &Position,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> (i32, [i32; 2]) {
        let owed = self.truncated[ply];
        if pv_node || self.params.truncation_soft == 0 {
            return (depth, [0; 2]);
        }
        if beta.abs() >= Score::WIN_THRESHOLD || !pos.capturers().is_empty() {
            return (depth, owed);
        }
        let value = self.static_value(pos, ply, || pos.count_moves());
        let p = &self.params;
        let distance = (alpha - value).max(value - beta).max(0);
        let mut now = owed;
        if distance > p.truncation_hard {
            now[0] += (distance / p.truncation_divisor).min(p.truncation_most);
        } else {
            now[0] = 0;
            now[1] = if distance > p.truncation_soft {
                now[1] + distance / p.truncation_divisor
            } else {
                0
            };
        }
        let plies = |q: [i32; 2]| (q[0] + q[1]) / 4;
        (depth + plies(owed) - plies(now), now)
    }

    /// Resolves pending captures (they are forced, so the position is not quiet until
    /// none is left), then evaluates.
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.pv[ply].clear();
        if self.count_node() {
            return 0;
        }
        if self.is_draw() {
            return self.draw_score(ply);
        }
        if let Some(score) = self.probe(pos, ply) {
            return score;
        }
        if pos.capturers().is_empty() || ply >= MAX_PLY {
            let own_moves = pos.count_moves();
            if own_moves == 0 {
                return Score::loss_in(ply as u32).0;
            }
            let key = self.path[self.path.len() - 1].key;
            return self.static_value(pos, ply, || own_moves) + self.noise_for(key);
        }
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        moves.clear();
        pos.generate_moves(&mut moves);
        let mut best = -Score::INFINITE;
        for &m in &moves {
            let child = pos.play_unchecked(&m);
            self.push(hash(&child), &m, pos);
            self.enter(ply, pos, &child);
            let score = -self.quiesce(&child, -beta, -alpha, ply + 1);
            self.path.pop();
            if self.aborted {
                break;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, m);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.move_buffers[ply] = moves;
        if self.aborted { 0 } else { best }
    }
}

/// The search score of a database verdict found `ply` plies below the root (`draw` is
/// the score of a draw there).
fn verdict_score(verdict: Verdict, ply: usize, draw: i32) -> i32 {
    match verdict {
        Verdict::Win(p) => Score::win_in(ply as u32 + p).0,
        Verdict::Loss(p) => Score::loss_in(ply as u32 + p).0,
        Verdict::Draw => draw,
    }
}
