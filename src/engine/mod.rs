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

mod arena;
mod decision;
mod eval;
mod level;
mod openings;
mod score;
mod search;
mod thread;
mod tt;
mod zobrist;

pub use arena::{ComputerPlayer, GameEnd, GameRules, PlayedGame, play_game};
pub use decision::{CLAIM_DRAW_AT_MOST, Decision, RESIGN_AT, decide, draw_claim, is_reversible};
pub use level::Level;
pub use openings::{Opening, OpeningsError, parse_openings};
pub use thread::{SearchEvent, SearchHandle};

pub use eval::{KING, MAN, evaluate};
pub use score::Score;
pub use search::{
    DEFAULT_HASH_MB, DepthInfo, Engine, FORTY_MOVE_PLIES, Limits, MAX_DEPTH, SearchRequest,
    SearchResult, StopFlag, line_notation,
};
pub use zobrist::hash;
