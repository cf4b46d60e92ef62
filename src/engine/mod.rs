//! The computer player: search, evaluation, playing levels, the endgame databases, and
//! (inside the crate) the decisions around a move: claiming a draw, resigning.
//!
//! Pure like [`rules`](crate::rules): no terminal, no printing. The clock is read only
//! to honour a time limit.
//!
//! ```
//! use checkers::engine::{Engine, Limits, SearchRequest, StopFlag};
//! use checkers::rules::Position;
//! let mut engine = Engine::new(1);
//! let request = SearchRequest::new(Position::start(), Limits::depth(4));
//! let result = engine.search(&request, &StopFlag::new(), |_| {});
//! assert!(Position::start().is_legal(&result.best_move.unwrap()));
//! ```
//!
//! # On a thread
//!
//! A search on a background thread, so a screen stays responsive:
//! [`Engine::spawn`] takes the engine and a request; poll
//! [`SearchHandle::try_event`] (or wait on [`SearchHandle::events`]): each
//! [`SearchEvent::Depth`] carries depth, score, nodes and the principal variation, and
//! [`SearchEvent::Done`] comes last. "Move now" is [`SearchHandle::stop`], then
//! [`SearchHandle::join`], which gives the engine back (keep it for the next move) with
//! the [`SearchResult`]. Dropping the handle stops the search within a millisecond.
//!
//! A request made with [`SearchRequest::with_history`] knows the game's earlier
//! positions, so that it sees repetitions; a [`Level`] says how strong the player of
//! the program is (its depth, time and noise), and the program decides around the
//! search whether to claim a draw or resign.
//!
//! # Endgame databases
//!
//! [`egdb`] builds, checks and probes databases of every position of up to five (or
//! six) pieces. A [`SearchRequest`] with `egdb` set probes them: positions they hold get
//! their exact score and are not searched further, and a root they hold is played from
//! them (the fastest win, the longest defence, a drawing move). Without them the search
//! is unchanged.

pub(crate) mod book;
mod decision;
pub mod egdb;
mod eval;
mod evaluation;
pub(crate) mod learned;
mod level;
pub(crate) mod nnue;
mod openings;
mod params;
mod request;
mod score;
mod search;
mod thread;
mod time;
mod tt;
mod zobrist;

#[cfg(feature = "lab")]
pub(crate) use zobrist::splitmix64;

pub(crate) use decision::{Decision, decide};
pub use level::Level;
pub(crate) use openings::{BallotStatus, Opening, acf_openings};
#[cfg(feature = "lab")]
pub(crate) use openings::{OpeningsError, parse_openings};
pub(crate) use params::SearchParams;
pub use thread::{SearchEvent, SearchHandle};
pub(crate) use time::ClockLimits;
#[cfg(any(test, feature = "lab"))]
pub(crate) use time::plan_time;

#[cfg(feature = "lab")]
pub(crate) use eval::evaluate;
pub use evaluation::Evaluation;
#[cfg(any(test, feature = "lab"))]
pub(crate) use request::Line as SearchLine;
pub(crate) use request::machine_cores;
pub use request::{DepthInfo, SearchRequest, SearchResult, StopFlag};
pub(crate) use request::{line_notation, route_line};
pub use score::Score;
pub use search::Engine;
pub(crate) use search::{DEFAULT_HASH_MB, MAX_THREADS};
pub use time::Limits;

#[cfg(test)]
pub(crate) mod tests;
