//! Judging a game's positions for its report: each searched in turn with the game's
//! history (so that repetitions count), the databases' verdict taken where they hold it.
//! [`judge_game`] does it at once for the command; [`Judging`] on a thread of its own
//! for the screen, which stays free and can stop it.

use super::Judgement;
use crate::engine::egdb::{Egdb, Verdict};
use crate::engine::{Engine, Limits, Score, SearchRequest, StopFlag};
use crate::rules::{Move, Position};
use std::sync::Arc;
use std::sync::mpsc;

/// The longest line kept for a position (the better move and what follows it).
const LINE_PLIES: usize = 10;

/// How the report searches each position.
#[derive(Clone, Debug)]
pub(crate) struct Judge {
    /// The limits of each position's search.
    pub(crate) limits: Limits,
    /// The endgame databases, if any.
    pub(crate) egdb: Option<Arc<Egdb>>,
    /// Threads searching at once.
    pub(crate) threads: usize,
    /// The transposition table's size in MB.
    pub(crate) hash_mb: usize,
    /// The search's numbers.
    pub(crate) params: crate::engine::SearchParams,
    /// The evaluation searched with.
    pub(crate) evaluation: crate::engine::Evaluation,
}

/// How long the screen and the plain line mode search each position of a report.
pub(crate) const INTERACTIVE_MOVETIME_MS: u64 = 300;

impl Judge {
    /// How the screen and the plain line mode judge a game: [`INTERACTIVE_MOVETIME_MS`]
    /// a position on one thread (the rest of the machine stays free for the game), with
    /// `egdb`.
    pub(crate) fn interactive(egdb: Option<Arc<Egdb>>) -> Judge {
        Judge {
            limits: Limits::movetime_ms(INTERACTIVE_MOVETIME_MS),
            egdb,
            threads: 1,
            hash_mb: 16,
            params: crate::engine::SearchParams::DEFAULT,
            evaluation: crate::engine::Evaluation::default(),
        }
    }
}

/// Judges every position of the game from `start` with `moves` (the start first, the
/// position after the last move last), telling `progress` each judgement as it comes;
/// `None` once `stop` is raised.
pub(crate) fn judge_game(
    judge: &Judge,
    start: Position,
    moves: &[Move],
    stop: &StopFlag,
    mut progress: impl FnMut(&Judgement),
) -> Option<Vec<Judgement>> {
    let mut engine = Engine::new(judge.hash_mb);
    let mut history: Vec<Position> = Vec::with_capacity(moves.len() + 1);
    let mut pos = start;
    let mut judged = Vec::with_capacity(moves.len() + 1);
    for ply in 0..=moves.len() {
        let judgement = judge_position(judge, &mut engine, &history, pos, stop)?;
        progress(&judgement);
        judged.push(judgement);
        if let Some(m) = moves.get(ply) {
            history.push(pos);
            pos = pos.play_unchecked(m);
        }
    }
    Some(judged)
}

/// Judges `pos`, reached through `history` (oldest first): the rules where the game is
/// over, the databases where they hold it, else the search. `None` once `stop` is raised.
fn judge_position(
    judge: &Judge,
    engine: &mut Engine,
    history: &[Position],
    pos: Position,
    stop: &StopFlag,
) -> Option<Judgement> {
    if stop.is_stopped() {
        return None;
    }
    if pos.legal_moves().is_empty() {
        return Some(Judgement {
            score: Score::loss_in(0),
            line: Vec::new(),
            depth: 0,
            verdict: None,
            only_move: None,
        });
    }
    // A draw the mover may claim makes the position a draw whatever the databases say.
    let claimable = crate::rules::draw::available_claim(history, &pos).is_some();
    let db = judge.egdb.as_deref().filter(|_| !claimable);
    if let Some((db, verdict)) = db.and_then(|db| Some((db, db.probe(&pos)?))) {
        let line = db.best_line(&pos, LINE_PLIES);
        if !line.is_empty() {
            return Some(Judgement {
                score: verdict_score(verdict),
                line,
                depth: 0,
                verdict: Some(verdict),
                only_move: only_move(db, &pos),
            });
        }
    }
    let mut request = SearchRequest::new(pos, judge.limits)
        .with_egdb(judge.egdb.clone())
        .with_history(history.to_vec())
        .with_evaluation(judge.evaluation);
    request.threads = judge.threads;
    request.params = judge.params;
    let result = engine.search(&request, stop, |_| {});
    if stop.is_stopped() {
        return None;
    }
    let mut line = result.pv;
    line.truncate(LINE_PLIES);
    if line.is_empty() {
        line.extend(result.best_move);
    }
    Some(Judgement {
        score: result.score,
        line,
        depth: result.depth,
        verdict: None,
        only_move: None,
    })
}

/// A databases' verdict as a search score.
fn verdict_score(verdict: Verdict) -> Score {
    match verdict {
        Verdict::Win(plies) => Score::win_in(plies),
        Verdict::Loss(plies) => Score::loss_in(plies),
        Verdict::Draw => Score::DRAW,
    }
}

/// The one move of several in `pos` that keeps a won or drawn verdict, where there is
/// exactly one.
fn only_move(db: &Egdb, pos: &Position) -> Option<Move> {
    let moves = db.moves(pos)?;
    let (first, best) = *moves.first()?;
    let class = |v: Verdict| match v {
        Verdict::Loss(_) => -1,
        Verdict::Draw => 0,
        Verdict::Win(_) => 1,
    };
    let keeping = moves
        .iter()
        .filter(|(_, v)| class(*v) == class(best))
        .count();
    (moves.len() > 1 && keeping == 1 && class(best) >= 0).then_some(first)
}

/// A game judged on a thread of its own: the screen takes the judgements as they come
/// ([`take`](Self::take)) and stops the work by dropping it.
#[derive(Debug)]
pub(crate) struct Judging {
    /// The judgements from the thread.
    told: mpsc::Receiver<Judgement>,
    /// Raised to stop the thread.
    stop: StopFlag,
}

impl Judging {
    /// Starts judging the game from `start` with `moves`.
    pub(crate) fn start(judge: Judge, start: Position, moves: Vec<Move>) -> Judging {
        let (send, told) = mpsc::channel();
        let stop = StopFlag::new();
        let stopped = stop.clone();
        // The thread ends with the game judged, at a raised stop, or when the screen
        // no longer listens.
        let spawned = std::thread::Builder::new()
            .name("report".to_string())
            .spawn(move || {
                judge_game(&judge, start, &moves, &stopped, |judgement| {
                    if send.send(judgement.clone()).is_err() {
                        stopped.stop();
                    }
                });
            });
        if spawned.is_err() {
            // No thread: nothing comes, and the screen says the scoring has not begun.
            stop.stop();
        }
        Judging { told, stop }
    }

    /// The judgements that came since the last look.
    pub(crate) fn take(&self) -> Vec<Judgement> {
        self.told.try_iter().collect()
    }
}

impl Drop for Judging {
    fn drop(&mut self) {
        self.stop.stop();
    }
}
