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

mod eval;
mod score;
mod search;
mod tt;
mod zobrist;

pub use eval::{KING, MAN, evaluate};
pub use score::Score;
pub use search::{
    DEFAULT_HASH_MB, DepthInfo, Engine, FORTY_MOVE_PLIES, Limits, MAX_DEPTH, SearchRequest,
    SearchResult, StopFlag, line_notation,
};
pub use zobrist::hash;
