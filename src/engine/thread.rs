//! Searching on a background thread, for a front end that must stay responsive.

use super::search::{DepthInfo, Engine, SearchRequest, SearchResult, StopFlag};
use std::sync::mpsc::{self, Receiver};
use std::thread::{self, JoinHandle};

/// What a background search reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchEvent {
    /// An iteration completed.
    Depth(DepthInfo),
    /// The search ended; this is its result (also given by [`SearchHandle::join`]).
    Done(SearchResult),
}

/// A search running on its own thread. Dropping the handle stops the search (the
/// thread then ends by itself within a millisecond or so).
///
/// ```
/// use checkers::engine::{Engine, Limits, SearchRequest};
/// use checkers::rules::Position;
/// let handle = Engine::new(1).spawn(SearchRequest::new(Position::start(), Limits::infinite()));
/// handle.stop(); // "move now"
/// let (_engine, result) = handle.join();
/// assert!(Position::start().is_legal(&result.best_move.unwrap()));
/// ```
#[derive(Debug)]
pub struct SearchHandle {
    stop: StopFlag,
    events: Receiver<SearchEvent>,
    thread: Option<JoinHandle<(Engine, SearchResult)>>,
}

impl Engine {
    /// Starts searching `request` on a new thread. The engine goes with it and comes
    /// back from [`SearchHandle::join`].
    pub fn spawn(mut self, request: SearchRequest) -> SearchHandle {
        let stop = StopFlag::new();
        let (sender, events) = mpsc::channel();
        let thread_stop = stop.clone();
        let thread = thread::spawn(move || {
            let result = self.search(&request, &thread_stop, |info| {
                // The receiver may be gone (the front end stopped listening): fine.
                let _ = sender.send(SearchEvent::Depth(info.clone()));
            });
            let _ = sender.send(SearchEvent::Done(result.clone()));
            (self, result)
        });
        SearchHandle {
            stop,
            events,
            thread: Some(thread),
        }
    }
}

impl SearchHandle {
    /// Asks the search to stop now; it then reports its best move so far.
    pub fn stop(&self) {
        self.stop.stop();
    }

    /// The next progress report, if one is waiting (never blocks).
    pub fn try_event(&self) -> Option<SearchEvent> {
        self.events.try_recv().ok()
    }

    /// Whether the search has ended: its result is then waiting in the channel (see
    /// [`try_event`](Self::try_event)), and [`join`](Self::join) returns at once.
    pub fn is_finished(&self) -> bool {
        self.thread.as_ref().is_none_or(JoinHandle::is_finished)
    }

    /// The channel of progress reports, for a front end that waits on it.
    pub fn events(&self) -> &Receiver<SearchEvent> {
        &self.events
    }

    /// Waits for the search to end (call [`stop`](Self::stop) first to end it now) and
    /// returns the engine with the result.
    pub fn join(mut self) -> (Engine, SearchResult) {
        let thread = self.thread.take();
        match thread.map(JoinHandle::join) {
            Some(Ok(done)) => done,
            // The search panicked: a bug, not an input error; pass it on.
            Some(Err(panic)) => std::panic::resume_unwind(panic),
            None => unreachable!("a handle is joined once, as join takes it by value"),
        }
    }
}

impl Drop for SearchHandle {
    fn drop(&mut self) {
        self.stop.stop();
    }
}
