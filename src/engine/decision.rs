//! What a computer player does around its move: claim a draw, resign, or play.

use super::level::Level;
use super::score::Score;
use super::search::FORTY_MOVE_PLIES;
use crate::rules::{Color, DrawReason, Move, Position, Role};

/// A draw is claimed when the score is at most this (hundredths of a man): a draw does
/// not cost a player who is not clearly better.
pub const CLAIM_DRAW_AT_MOST: i32 = 10;
/// A computer player that may resign does so at this deficit or worse (five men), or at a
/// forced loss.
pub const RESIGN_AT: i32 = -500;

/// What a computer player does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Play the move.
    Play(Move),
    /// Claim the draw that is available.
    ClaimDraw(DrawReason),
    /// Give the game up.
    Resign,
}

/// Decides for a computer player of `level` whose search chose `best` with `score` (for
/// the player). `claim` is the draw claim open to it (see [`draw_claim`]). It claims
/// a draw when one is open and its score does not favour it, resigns only at a hopeless
/// score if its level allows, and otherwise plays.
pub fn decide(level: Level, best: Move, score: Score, claim: Option<DrawReason>) -> Decision {
    if let Some(reason) = claim
        && score.0 <= CLAIM_DRAW_AT_MOST
    {
        return Decision::ClaimDraw(reason);
    }
    if level.may_resign() && (score.is_loss() || score.0 <= RESIGN_AT) {
        return Decision::Resign;
    }
    Decision::Play(best)
}

/// Whether going from `before` to `after` (one move) could be undone: no man moved and
/// nothing was captured.
pub fn is_reversible(before: &Position, after: &Position) -> bool {
    before.occupied().count() == after.occupied().count()
        && before.pieces(Color::Black, Role::Man) == after.pieces(Color::Black, Role::Man)
        && before.pieces(Color::White, Role::Man) == after.pieces(Color::White, Role::Man)
}

/// The WCDF draw claim (rule 1.32) open to the player to move in `current`, reached
/// through `history` (earlier positions, oldest first), if it plays `m`: forty moves
/// (each side's last forty moves moved no man and captured nothing), or repetition
/// (`m` makes the same position, same side to move, for the third time).
///
/// ```
/// use checkers::engine::draw_claim;
/// use checkers::rules::{DrawReason, Position};
/// let a: Position = "B:WK28:BK1".parse().unwrap();
/// let line = ["1-5", "28-24", "5-1", "24-28", "1-5", "28-24", "5-1"];
/// let mut history = vec![];
/// let mut pos = a;
/// for text in line {
///     history.push(pos);
///     pos = pos.play_text(text).unwrap();
/// }
/// // White's 24-28 would make the position after it (Black to move, kings on 1 and 28)
/// // for the third time.
/// let m = pos.parse_move("24-28").unwrap();
/// assert_eq!(draw_claim(&history, &pos, &m), Some(DrawReason::Repetition));
/// ```
pub fn draw_claim(history: &[Position], current: &Position, m: &Move) -> Option<DrawReason> {
    let plies = history.len();
    if plies >= FORTY_MOVE_PLIES {
        let recent = &history[plies - FORTY_MOVE_PLIES..];
        let all_reversible = recent.windows(2).all(|w| is_reversible(&w[0], &w[1]))
            && recent
                .last()
                .is_some_and(|last| is_reversible(last, current));
        if all_reversible {
            return Some(DrawReason::FortyMoves);
        }
    }
    let next = current.play_unchecked(m);
    let seen = history
        .iter()
        .chain(std::iter::once(current))
        .filter(|p| **p == next)
        .count();
    (seen >= 2).then_some(DrawReason::Repetition)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn any_move(pos: &Position) -> Move {
        pos.legal_moves()[0]
    }

    #[test]
    fn claims_a_draw_unless_better_and_resigns_only_when_allowed() {
        let pos = Position::start();
        let m = any_move(&pos);
        let claim = Some(DrawReason::Repetition);
        let strong = Level::MAX;
        assert_eq!(
            decide(strong, m, Score(0), claim),
            Decision::ClaimDraw(DrawReason::Repetition)
        );
        assert_eq!(decide(strong, m, Score(80), claim), Decision::Play(m));
        assert_eq!(decide(strong, m, Score(80), None), Decision::Play(m));
        assert_eq!(decide(strong, m, Score(-600), None), Decision::Resign);
        assert_eq!(decide(strong, m, Score::loss_in(9), None), Decision::Resign);
        // A draw is better than resigning.
        assert_eq!(
            decide(strong, m, Score::loss_in(9), claim),
            Decision::ClaimDraw(DrawReason::Repetition)
        );
        assert_eq!(decide(Level::MIN, m, Score(-900), None), Decision::Play(m));
    }

    #[test]
    fn forty_moves_of_kings_open_a_claim() {
        let mut pos: Position = "B:WK28:BK1".parse().unwrap();
        let mut history = Vec::new();
        // Shuffle both kings round a four-square loop so no position comes three times
        // too early... it does repeat, so check the forty-move rule on a long run.
        let black = ["1-6", "6-10", "10-6", "6-1"];
        let white = ["28-24", "24-27", "27-24", "24-28"];
        for i in 0..40 {
            for text in [black[i % 4], white[i % 4]] {
                history.push(pos);
                pos = pos.play_text(text).unwrap();
            }
        }
        let m = any_move(&pos);
        assert_eq!(draw_claim(&history, &pos, &m), Some(DrawReason::FortyMoves));
        // One man move in the window closes it.
        let with_man: Position = "B:WK28:BK1,12".parse().unwrap();
        let after = with_man.play_text("12-16").unwrap();
        assert_eq!(draw_claim(&[with_man], &after, &any_move(&after)), None);
    }
}
