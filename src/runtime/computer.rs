//! The computer player behind a game in play: the searches the game wants (the
//! computer's move, a hint, the engine's view of a reviewed position) run on a thread of
//! their own; a result comes back tagged with the game revision it was asked for, and
//! is dropped once the game has moved on.

use crate::engine::{
    DEFAULT_HASH_MB, DepthInfo, Engine, Score, SearchEvent, SearchHandle, SearchRequest,
    SearchResult,
};
use crate::rules::Color;
use crate::session::Session;
use std::time::{Duration, Instant};

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Purpose {
    /// The computer's move for this side.
    Move(Color),
    /// A hint for the side to move.
    Hint,
    /// The engine's view of the position on the board while a record is reviewed,
    /// shown beside the databases' exact result.
    Review,
}

/// A search the game wants, tagged with the game revision it was asked for: a result
/// is applied only while the game is still at that revision and still wants it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SearchSpec {
    /// What the search is for.
    pub(crate) purpose: Purpose,
    /// The session's revision when it was asked for.
    pub(crate) revision: u64,
}

/// What a running search has reported so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Thinking {
    /// The search reporting.
    pub(crate) spec: SearchSpec,
    /// The deepest iteration completed.
    pub(crate) depth: u32,
    /// Its score, for the side to move.
    pub(crate) score: Score,
    /// Its best line so far, from the position searched (may be empty).
    pub(crate) line: Vec<crate::rules::Move>,
    /// Whether the search has ended (nothing more will come for this position).
    pub(crate) done: bool,
}

/// The search `session` wants now, if any (none while the clocks are paused or a resumed
/// game's clocks are held):
/// the computer's move when a computer player is to move (not while a record is stepped
/// through), else the hint asked for at this revision (`hint_at`), else, while
/// reviewing, the engine's view of the position until it has one (`analysed_at`: the
/// revision last analysed to the end), except at the end of a record whose game is over
/// there (a resignation leaves moves on the board, yet nothing is left to weigh).
pub(crate) fn wanted_search(
    session: &Session,
    hint_at: Option<u64>,
    analysed_at: Option<u64>,
) -> Option<SearchSpec> {
    // Clocks paused, or a resumed game's held for its player to be back: the computer
    // does not think off the clock either (a search under way is dropped), and starts
    // afresh when the clocks run again, charged from then.
    if session.is_paused() || session.clocks_held() {
        return None;
    }
    let revision = session.revision();
    let playing = !session.game().is_over();
    let purpose = match session.computer_to_move() {
        Some((color, _)) => Purpose::Move(color),
        None if hint_at == Some(revision) && playing => Purpose::Hint,
        None if session.is_reviewing()
            && playing
            && !session.review_at_end()
            && session.assist()
            && analysed_at != Some(revision) =>
        {
            Purpose::Review
        }
        None => return None,
    };
    Some(SearchSpec { purpose, revision })
}

/// The engine's request for the search `spec` of `session`.
pub(crate) fn request_for(session: &Session, spec: SearchSpec) -> SearchRequest {
    match spec.purpose {
        Purpose::Move(_) => session
            .move_request()
            .unwrap_or_else(|| session.hint_request()),
        Purpose::Hint | Purpose::Review => session.hint_request(),
    }
}

/// The computer's turn, searched here and now with `engine` and played: for callers
/// that need no thread (matches between programs). On a clock the search's time is
/// charged before the move is played. `adjust` may change the request
/// first (a match gives each side its own book or databases). What the computer did
/// and the search's result, or `None` if the computer is not to move or its result
/// could not be played.
#[cfg(feature = "lab")]
pub(crate) fn play_turn_now(
    session: &mut Session,
    engine: &mut Engine,
    adjust: impl FnOnce(SearchRequest) -> SearchRequest,
) -> Option<(crate::session::News, SearchResult)> {
    let request = adjust(session.move_request()?);
    let result = engine.search(&request, &crate::engine::StopFlag::new(), |_| {});
    // The thinking time counts on the computer's clock (a flag may fall meanwhile).
    session.tick(Instant::now());
    let text = session.computer_played(&result)?;
    Some((text, result))
}

/// What the computer player's thread has to say.
#[derive(Debug)]
pub(crate) enum SearchNews {
    /// The search `spec` completed an iteration.
    Progress(SearchSpec, DepthInfo),
    /// The search `spec` ended with this result (held back for the pace first).
    Done(SearchSpec, SearchResult),
}

/// The searches run on a background thread: started and stopped to match what the game
/// wants, their news handed back.
#[derive(Debug, Default)]
pub(crate) struct ComputerPlayer {
    /// The engine while no search holds it (its table lives on from move to move).
    engine: Option<Engine>,
    /// The running search, what it is for, and when it started.
    running: Option<(SearchSpec, SearchHandle, Instant)>,
    /// A finished search's result held back until it is due (see `pace`).
    held: Option<(SearchSpec, SearchResult, Instant)>,
}

impl ComputerPlayer {
    /// Stops a search that is no longer `wanted` (its result is dropped) and starts the
    /// one that is, with the request `request` makes for it.
    pub(crate) fn sync(
        &mut self,
        wanted: Option<SearchSpec>,
        request: impl FnOnce(SearchSpec) -> SearchRequest,
    ) {
        if self.current() == wanted {
            return;
        }
        self.stop();
        if let Some(spec) = wanted {
            let engine = self
                .engine
                .take()
                .unwrap_or_else(|| Engine::new(DEFAULT_HASH_MB));
            let handle = engine.spawn(request(spec));
            self.running = Some((spec, handle, Instant::now()));
        }
    }

    /// The search running or held, if any.
    pub(crate) fn current(&self) -> Option<SearchSpec> {
        match (&self.running, &self.held) {
            (Some((spec, _, _)), _) | (None, Some((spec, _, _))) => Some(*spec),
            (None, None) => None,
        }
    }

    /// Whether a search runs, or a result waits for its time.
    #[cfg(test)]
    pub(crate) fn busy(&self) -> bool {
        self.running.is_some() || self.held.is_some()
    }

    /// "Move now": the running search stops and its best move so far comes as its
    /// result; a held result is due at once.
    pub(crate) fn move_now(&mut self) {
        if let Some((_, handle, _)) = &self.running {
            handle.stop();
        }
        if let Some((_, _, due)) = &mut self.held {
            *due = Instant::now();
        }
    }

    /// The program was stopped (Ctrl-Z) and runs again: the running search, its time
    /// spent while it stood still, is dropped, so that the next [`sync`](Self::sync)
    /// starts it afresh with its whole time (else it would find its budget gone at `fg`
    /// and play at once from a shallow search). A result already held is kept.
    pub(crate) fn restart_running(&mut self) {
        if let Some((_, handle, _)) = self.running.take() {
            handle.stop();
            let (engine, _) = handle.join();
            self.engine = Some(engine);
        }
    }

    /// Stops the running search, if any, and takes the engine back.
    fn stop(&mut self) {
        self.restart_running();
        self.held = None;
    }

    /// The news of the search so far, at `now`: its progress reports, and its result
    /// once due. A result is due `pace` after its search started (so that moves between
    /// two computers can be followed), at once after a "move now".
    pub(crate) fn collect(&mut self, now: Instant, pace: Duration) -> Vec<SearchNews> {
        let mut news = Vec::new();
        let mut finished = None;
        if let Some((spec, handle, started)) = &self.running {
            while let Some(event) = handle.try_event() {
                match event {
                    SearchEvent::Depth(info) => news.push(SearchNews::Progress(*spec, info)),
                    SearchEvent::Done(result) => {
                        finished = Some((*spec, result, *started + pace));
                        break;
                    }
                }
            }
        }
        if let Some(done) = finished {
            if let Some((_, handle, _)) = self.running.take() {
                let (engine, _) = handle.join();
                self.engine = Some(engine);
            }
            self.held = Some(done);
        }
        if self.held.as_ref().is_some_and(|(_, _, due)| now >= *due)
            && let Some((spec, result, _)) = self.held.take()
        {
            news.push(SearchNews::Done(spec, result));
        }
        news
    }

    /// When a held result is due, if one waits.
    pub(crate) fn held_until(&self) -> Option<Instant> {
        self.held.as_ref().map(|(_, _, due)| *due)
    }

    /// Whether the running search has ended, its result waiting for the next
    /// [`collect`](Self::collect) (which hands it on, or the game drops it as stale).
    #[cfg(test)]
    pub(crate) fn search_ended(&self) -> bool {
        self.running
            .as_ref()
            .is_some_and(|(_, handle, _)| handle.is_finished())
    }

    /// Whether a search is running (its news may come at any moment).
    pub(crate) fn searching(&self) -> bool {
        self.running.is_some()
    }
}
