//! The computer player's conduct inside a game: what it searches, what it does with the
//! result (play, claim a draw, resign, as [`engine::decide`](crate::engine::decide)
//! says), how it answers a draw offer, and when a game between two computers is
//! adjudicated.

use crate::engine::egdb::{Egdb, Verdict};
use crate::engine::{
    Decision, Engine, Level, Limits, SearchRequest, SearchResult, StopFlag, decide,
};
use crate::game::Game;
use crate::rules::draw::claim_for_move;
use crate::rules::{Move, Outcome, Position};
use std::sync::Arc;
use std::time::Duration;

/// How the computer plays in a session: the level a side handed to it takes, its
/// searches' time, threads and seed, the endgame databases, and the length at which a
/// game between two computers is adjudicated.
#[derive(Clone, Debug)]
pub(crate) struct Computer {
    /// The level of a side handed to the computer during the game.
    pub(super) level: Level,
    /// `level` was chosen while the game was over or a record was reviewed: the
    /// computer seats take it only when play goes on, so that a finished record keeps
    /// the level it was played at.
    pub(super) level_pending: bool,
    /// Varies the computer players' randomness.
    pub(super) seed: u64,
    /// The time a move is given instead of its level's.
    pub(super) movetime: Option<Duration>,
    /// Plies after which a game between two computers is adjudicated a draw.
    pub(super) ply_cap: usize,
    /// Endgame databases for the computer, hints and the verdict shown to players.
    pub(super) egdb: Option<Arc<Egdb>>,
    /// Threads the computer's searches (moves, hints, reviews) use at once.
    pub(super) threads: usize,
}

impl Default for Computer {
    fn default() -> Computer {
        Computer {
            level: Level::default(),
            level_pending: false,
            seed: 0,
            movetime: None,
            ply_cap: PLY_CAP,
            egdb: None,
            threads: 1,
        }
    }
}

impl Computer {
    /// The search for a move of the computer at `level` in `game`, at the game's
    /// `revision` (which varies the seed, so that replies differ from move to move):
    /// its level's time (or the session's movetime) as a budget.
    pub(super) fn move_request(&self, game: &Game, level: Level, revision: u64) -> SearchRequest {
        let movetime = self.movetime.unwrap_or_else(|| level.movetime());
        let seed = self.seed ^ revision.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut request = move_request(game, level, movetime, seed).with_egdb(self.egdb.clone());
        request.threads = self.threads;
        request
    }

    /// The search behind a hint for the side to move in `game`.
    pub(super) fn hint_request(&self, game: &Game) -> SearchRequest {
        let mut request = hint_request(game).with_egdb(self.egdb.clone());
        request.threads = self.threads;
        request
    }

    /// The databases' verdict on `pos`, where they hold it.
    pub(super) fn probe(&self, pos: &Position) -> Option<Verdict> {
        self.egdb.as_ref()?.probe(pos)
    }
}

/// Plies after which a game between two computer players, neither winning nor claiming
/// a draw, is adjudicated a draw (agreed on both sides' behalf).
pub(crate) const PLY_CAP: usize = 300;

/// Thinking time for a hint.
pub(crate) const HINT_TIME: Duration = Duration::from_millis(700);

/// The positions before the current one, oldest first (what a search needs to see
/// repetitions).
pub(crate) fn history(game: &Game) -> Vec<Position> {
    let positions = game.positions();
    positions[..positions.len().saturating_sub(1)].to_vec()
}

/// The search a computer player of `level` makes for the side to move in `game`, with
/// `movetime` to think.
pub(crate) fn move_request(
    game: &Game,
    level: Level,
    movetime: Duration,
    seed: u64,
) -> SearchRequest {
    level.request(*game.position(), history(game), movetime, seed)
}

/// Plies an only move is searched to for a hint or a review: enough for the exchange
/// it is part of, and the same on any machine.
pub(crate) const ONLY_MOVE_DEPTH: u32 = 12;

/// The search behind a hint (and the review's view of a position): the strongest
/// level, no randomness, a short time; an only move is searched too, for its score, to
/// [`ONLY_MOVE_DEPTH`].
pub(crate) fn hint_request(game: &Game) -> SearchRequest {
    let mut request = Level::MAX.request(*game.position(), history(game), HINT_TIME, 0);
    request.only_move_at_once = false;
    if game.position().legal_moves().len() == 1 {
        request.limits = Limits::depth(ONLY_MOVE_DEPTH);
    }
    request
}

/// What a computer player did on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Turn {
    /// It played this move.
    Played(Move),
    /// It claimed a draw, or resigned: the game is over.
    Ended(Outcome),
}

/// Carries out, for the side to move in `game`, what a computer player of `level` does
/// with `result` (a search of this very position): claims a draw when one is open and
/// its score does not favour it, resigns at a hopeless score if its level allows, and
/// otherwise plays the move. `None` (and `game` unchanged) when the game is over or the
/// result has no move legal here.
pub(crate) fn take_turn(game: &mut Game, level: Level, result: &SearchResult) -> Option<Turn> {
    if game.is_over() {
        return None;
    }
    let best = result.best_move?;
    let pos = *game.position();
    if !pos.is_legal(&best) {
        return None;
    }
    // A search stopped before its first depth has no score to judge by: just play
    // the move (claiming or resigning on a made-up 0 could throw a won game away).
    if result.depth > 0 {
        let claim = claim_for_move(&history(game), &pos, &best);
        match decide(level, best, result.score, claim, result.egdb_hits > 0) {
            Decision::ClaimDraw(_) => {
                if let Ok(outcome) = game.claim_draw() {
                    return Some(Turn::Ended(outcome));
                }
            }
            Decision::Resign => {
                if let Ok(outcome) = game.resign(pos.turn()) {
                    return Some(Turn::Ended(outcome));
                }
            }
            Decision::Play(_) => {}
        }
    }
    // A claim the game does not see the same way is not made: the move is played.
    game.play(&best).ok()?;
    Some(Turn::Played(best))
}

/// Ends a game between two computer players that has reached `cap` plies as a draw
/// agreed on both sides' behalf. Returns whether it did.
pub(crate) fn adjudicate(game: &mut Game, cap: usize) -> bool {
    if game.is_over() || game.moves().len() < cap {
        return false;
    }
    game.offer_draw(game.position().turn()).is_ok() && game.accept_draw().is_ok()
}

/// The computer's answer to a draw offer, and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DrawAnswer {
    /// It accepts: it stands worse, or the game is even and nearly played out.
    Accept,
    /// It declines: it stands better.
    DeclineBetter,
    /// It declines: the game is even but far from over.
    DeclineEarly,
}

/// A score (hundredths of a man, for the computer) within which a game counts as level.
const LEVEL_WITHIN: i32 = 25;

/// Pieces on the board above which the game is young, and the deficit (hundredths of a
/// man) at which the computer takes a draw then.
const EARLY_PIECES: u32 = 16;
const CLEARLY_WORSE: i32 = 90;

/// Pieces on the board at most, or quiet plies at least, for a level game to count as
/// played out.
const PLAYED_OUT_PIECES: u32 = 8;
const PLAYED_OUT_QUIET_PLIES: usize = 20;

/// Depth of the short search that judges a draw offer.
const OFFER_DEPTH: u32 = 8;

/// How the computer, playing the side not to move in `game`, answers the side to
/// move's draw offer: from a short search of the position (its score) and the game's
/// stage. It accepts when it stands worse; when level, only once the game is nearly
/// played out (few pieces left, or kings shuffling); never when it stands better. In a
/// position the endgame databases `egdb` hold, their exact result decides.
pub(crate) fn answer_draw_offer(game: &Game, egdb: Option<&Egdb>) -> DrawAnswer {
    let pos = game.position();
    // In an ending the databases hold, the exact result decides: the offering side to
    // move wins (the computer takes the draw gladly), draws, or loses (it plays on).
    if let Some(verdict) = egdb.and_then(|db| db.probe(pos)) {
        return match verdict {
            Verdict::Loss(_) => DrawAnswer::DeclineBetter,
            Verdict::Win(_) | Verdict::Draw => DrawAnswer::Accept,
        };
    }
    let request = SearchRequest {
        history: history(game),
        ..SearchRequest::new(*pos, Limits::depth(OFFER_DEPTH))
    };
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    // The score is the offering side's; the computer's is the opposite.
    let mine = -result.score.0;
    let pieces = pos.occupied().count();
    let played_out = pieces <= PLAYED_OUT_PIECES
        || game.quiet_plies() >= PLAYED_OUT_QUIET_PLIES
        || pos.kings() == pos.occupied();
    // Early on, a small deficit can still be made good: only a clear one is worth a draw.
    let worse_at = if pieces > EARLY_PIECES {
        -CLEARLY_WORSE
    } else {
        -LEVEL_WITHIN
    };
    if mine > LEVEL_WITHIN {
        DrawAnswer::DeclineBetter
    } else if mine < worse_at || played_out {
        DrawAnswer::Accept
    } else {
        DrawAnswer::DeclineEarly
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(fen: &str) -> Game {
        Game::from_position(fen.parse().unwrap())
    }

    #[test]
    fn the_computer_declines_a_draw_at_the_start() {
        assert_eq!(
            answer_draw_offer(&Game::new(), None),
            DrawAnswer::DeclineEarly
        );
    }

    #[test]
    fn the_computer_accepts_a_draw_when_worse_or_played_out() {
        // White (the computer) is a man down against Black's extra king: worse.
        assert_eq!(
            answer_draw_offer(&game("B:W28,29:BK1,K5,11"), None),
            DrawAnswer::Accept
        );
        // One king each: even and played out.
        assert_eq!(
            answer_draw_offer(&game("B:WK28:BK1"), None),
            DrawAnswer::Accept
        );
    }

    #[test]
    fn the_computer_declines_a_draw_when_better() {
        // White (the computer) has two kings against one man.
        assert_eq!(
            answer_draw_offer(&game("B:WK20,K28:B1"), None),
            DrawAnswer::DeclineBetter
        );
    }
}
