//! The analysis board's background search: one thread with an engine of its own (its
//! own transposition table), searching the position it was last given with the lines
//! asked for, until a new one comes, analysis is turned off, or the board is left.
//! What it finds is handed over in an [`Report`] that the screen takes when it polls.

use crate::engine::egdb::Egdb;
use crate::engine::{Engine, Limits, Score, SearchRequest, StopFlag};
use crate::rules::{Move, Position};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

/// The transposition table of the analysis board's engine, in MB.
const HASH_MB: usize = 64;

/// The longest one position is searched: after it the thread rests until the next
/// position (a board left open on one position does not keep a core busy for ever).
const LONGEST: Duration = Duration::from_secs(120);

/// What to search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Job {
    /// Tells this job's report from an older one's.
    pub(crate) id: u64,
    /// The position.
    pub(crate) position: Position,
    /// The positions before it, oldest first (a repetition scores as a draw).
    pub(crate) history: Vec<Position>,
    /// How many best lines (1 to 5).
    pub(crate) lines: usize,
}

/// One of the best lines found: its score for the side to move and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Found {
    /// The score for the side to move in the position searched.
    pub(crate) score: Score,
    /// The moves, the line's first move first.
    pub(crate) pv: Vec<Move>,
}

/// What the search found so far for one job.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Report {
    /// The job it answers.
    pub(crate) id: u64,
    /// The deepest completed depth (0: none yet).
    pub(crate) depth: u32,
    /// The best lines, best first.
    pub(crate) lines: Vec<Found>,
    /// Nodes searched.
    pub(crate) nodes: u64,
    /// The search ended (its time was up, or it went as deep as it goes).
    pub(crate) done: bool,
}

/// What the screen and the thread share.
#[derive(Debug, Default)]
struct Shared {
    /// The job waiting to be taken up (the newest only).
    next: Option<Job>,
    /// The report of the job in hand.
    report: Report,
    /// The board is left: the thread ends.
    quit: bool,
    /// Raised to stop the search in hand.
    stop: StopFlag,
}

/// The background search: a handle to its thread.
#[derive(Debug)]
pub(crate) struct Analyser {
    /// The state shared with the thread, and its bell.
    shared: Arc<(Mutex<Shared>, Condvar)>,
    /// The thread, joined on drop.
    thread: Option<JoinHandle<()>>,
}

/// Locks `mutex`, even if a panic poisoned it.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Analyser {
    /// Starts the thread, resting until it is given a job; `egdb`, the endgame
    /// databases it probes.
    pub(crate) fn start(egdb: Option<Arc<Egdb>>) -> std::io::Result<Analyser> {
        let shared = Arc::new((Mutex::new(Shared::default()), Condvar::new()));
        let theirs = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("analysis".into())
            .spawn(move || work(&theirs, egdb))?;
        Ok(Analyser {
            shared,
            thread: Some(thread),
        })
    }

    /// Searches `job` from now on: the search in hand stops at once.
    pub(crate) fn analyse(&self, job: Job) {
        let (mutex, bell) = &*self.shared;
        let mut shared = lock(mutex);
        shared.stop.stop();
        shared.report = Report {
            id: job.id,
            ..Report::default()
        };
        shared.next = Some(job);
        bell.notify_all();
    }

    /// Stops searching (analysis turned off): the thread rests.
    pub(crate) fn pause(&self) {
        let (mutex, _) = &*self.shared;
        let mut shared = lock(mutex);
        shared.next = None;
        shared.stop.stop();
    }

    /// The report so far.
    pub(crate) fn report(&self) -> Report {
        lock(&self.shared.0).report.clone()
    }
}

impl Drop for Analyser {
    fn drop(&mut self) {
        {
            let (mutex, bell) = &*self.shared;
            let mut shared = lock(mutex);
            shared.quit = true;
            shared.next = None;
            shared.stop.stop();
            bell.notify_all();
        }
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The thread: takes up each job in turn and searches it, reporting every depth.
fn work(shared: &Arc<(Mutex<Shared>, Condvar)>, egdb: Option<Arc<Egdb>>) {
    let mut engine = Engine::new(HASH_MB);
    let (mutex, bell) = &**shared;
    loop {
        let (job, stop) = {
            let mut state = lock(mutex);
            loop {
                if state.quit {
                    return;
                }
                if let Some(job) = state.next.take() {
                    state.stop = StopFlag::new();
                    break (job, state.stop.clone());
                }
                state = bell.wait(state).unwrap_or_else(PoisonError::into_inner);
            }
        };
        if job.position.legal_moves().is_empty() {
            let mut state = lock(mutex);
            if state.report.id == job.id {
                state.report.done = true;
            }
            continue;
        }
        let limits = Limits {
            movetime: Some(LONGEST),
            ..Limits::infinite()
        };
        let request = SearchRequest::new(job.position, limits)
            .with_egdb(egdb.clone())
            .with_history(job.history.clone())
            .with_lines(job.lines);
        let result = engine.search(&request, &stop, |info| {
            let mut state = lock(mutex);
            if state.report.id == job.id {
                state.report.depth = info.depth;
                state.report.nodes = info.nodes;
                state.report.lines = info
                    .lines
                    .iter()
                    .map(|line| Found {
                        score: line.score,
                        pv: line.pv.clone(),
                    })
                    .collect();
                if state.report.lines.is_empty() {
                    state.report.lines = vec![Found {
                        score: info.score,
                        pv: info.pv.clone(),
                    }];
                }
            }
        });
        let mut state = lock(mutex);
        if state.report.id == job.id && !stop.is_stopped() {
            if state.report.lines.is_empty() && !result.pv.is_empty() {
                state.report.lines = vec![Found {
                    score: result.score,
                    pv: result.pv.clone(),
                }];
                state.report.depth = result.depth;
            }
            state.report.done = true;
        }
    }
}
