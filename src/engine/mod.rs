//! The computer player: search, evaluation, playing levels and the decisions around a
//! move (claiming a draw, resigning).
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
//! # For a front end
//!
//! A computer player's turn, on a background thread so the screen stays responsive:
//!
//! 1. `let handle = engine.spawn(level.request(pos, history, movetime, seed));` where
//!    `history` is the game's earlier positions, oldest first (for repetitions).
//! 2. While it thinks, poll [`SearchHandle::try_event`] (or wait on
//!    [`SearchHandle::events`]): each [`SearchEvent::Depth`] carries depth, score, nodes
//!    and the principal variation; [`SearchEvent::Done`] comes last.
//! 3. "Move now": [`SearchHandle::stop`], then [`SearchHandle::join`], which gives the
//!    engine back (keep it for the next move) with the [`SearchResult`]. Quitting or
//!    undoing: just drop the handle; the search stops within a millisecond.
//! 4. With the result, [`decide`]`(level, best, score, `[`claim_for_move`]`(&history,
//!    &pos, &best))` says whether to play the move, claim a draw, or resign. The draw
//!    rules themselves (WCDF 1.32) live in [`rules::draw`](crate::rules::draw); the
//!    search takes its forty-move horizon and reversibility test from there too.
//!
//! [`claim_for_move`]: crate::rules::draw::claim_for_move
//!
//! A hint is the same search with [`Limits`] of the front end's choosing (and `noise`
//! 0); it is never played.
//!
//! # On a clock
//!
//! A player on a clock says what its clock reads, in [`Limits::clock`] (a
//! [`ClockLimits`]: time left, increment, moves to go): the search plans its own target
//! and wall from it ([`plan_time`]), within any level's time also given. With
//! [`Limits::on_clock`] alone, the clock's plan is the whole budget. The numbers of the
//! plan, like every tunable number of the search, are in [`SearchParams`].
//!
//! # Endgame databases
//!
//! [`egdb`] builds, checks and probes databases of every position of up to five (or
//! six) pieces. A [`SearchRequest`] with `egdb` set probes them: positions they hold get
//! their exact score and are not searched further, and a root they hold is played from
//! them (the fastest win, the longest defence, a drawing move). Without them the search
//! is unchanged.

pub mod book;
mod decision;
pub mod egdb;
mod eval;
mod evaluation;
pub mod learned;
mod level;
pub mod nnue;
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

pub use decision::{CLAIM_DRAW_AT_MOST, Decision, RESIGN_AT, RESIGN_WITHIN, decide};
pub use level::Level;
pub use openings::{ACF_DECK, BallotStatus, Opening, OpeningsError, acf_openings, parse_openings};
pub use params::SearchParams;
pub use thread::{SearchEvent, SearchHandle};
pub use time::{ClockLimits, TimePlan, plan_time};

pub use eval::{KING, MAN, evaluate};
pub use evaluation::Evaluation;
pub use request::machine_cores;
pub use score::Score;
pub use search::{
    DEFAULT_HASH_MB, DepthInfo, Engine, Limits, MAX_DEPTH, MAX_THREADS, SearchRequest,
    SearchResult, StopFlag, line_notation,
};
pub use zobrist::hash;
