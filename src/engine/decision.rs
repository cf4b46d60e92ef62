//! What a computer player does around its move: claim a draw, resign, or play.

use super::level::Level;
use super::score::Score;
use crate::rules::{DrawReason, Move};

/// A draw is claimed when the score is at most this (hundredths of a man): a draw does
/// not cost a player who is not clearly better.
pub(crate) const CLAIM_DRAW_AT_MOST: i32 = 10;
/// A computer player that may resign does so at this deficit or worse (five men), or at a
/// forced loss within [`RESIGN_WITHIN`] plies.
pub(crate) const RESIGN_AT: i32 = -500;
/// With the endgame databases, a forced loss this near (in plies) is resigned; a longer
/// one, which only the databases see, is played out with the longest defence: an
/// opponent without them may not find the win. (Without them any forced loss found is
/// resigned, as it always was.)
pub(crate) const RESIGN_WITHIN: u32 = 20;

/// What a computer player does on its turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// Play the move.
    Play(Move),
    /// Claim the draw that is available.
    ClaimDraw(DrawReason),
    /// Give the game up.
    Resign,
}

/// Decides for a computer player of `level` whose search chose `best` with `score` (for
/// the player). `claim` is the draw claim open to it if it plays `best` (see
/// [`claim_for_move`](crate::rules::draw::claim_for_move)). It claims a draw when one
/// is open and its score does not favour it, resigns only at a hopeless score (five men
/// down, or a forced loss; with `databases` in the search, a forced loss only within
/// [`RESIGN_WITHIN`] plies) if its level allows, and otherwise plays.
pub(crate) fn decide(
    level: Level,
    best: Move,
    score: Score,
    claim: Option<DrawReason>,
    databases: bool,
) -> Decision {
    if let Some(reason) = claim
        && score.0 <= CLAIM_DRAW_AT_MOST
    {
        return Decision::ClaimDraw(reason);
    }
    let near_loss =
        score.is_loss() && (!databases || score.plies_to_end().is_some_and(|p| p <= RESIGN_WITHIN));
    let hopeless = !score.is_forced() && score.0 <= RESIGN_AT;
    if level.may_resign() && (near_loss || hopeless) {
        return Decision::Resign;
    }
    Decision::Play(best)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

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
            decide(strong, m, Score(0), claim, false),
            Decision::ClaimDraw(DrawReason::Repetition)
        );
        assert_eq!(
            decide(strong, m, Score(80), claim, false),
            Decision::Play(m)
        );
        assert_eq!(decide(strong, m, Score(80), None, false), Decision::Play(m));
        assert_eq!(
            decide(strong, m, Score(-600), None, false),
            Decision::Resign
        );
        assert_eq!(
            decide(strong, m, Score::loss_in(9), None, false),
            Decision::Resign
        );
        // A distant loss that the databases found is played out; without them, resigned.
        let distant = Score::loss_in(40);
        assert_eq!(decide(strong, m, distant, None, true), Decision::Play(m));
        assert_eq!(decide(strong, m, distant, None, false), Decision::Resign);
        let near = Score::loss_in(12);
        assert_eq!(decide(strong, m, near, None, true), Decision::Resign);
        // A draw is better than resigning.
        assert_eq!(
            decide(strong, m, Score::loss_in(9), claim, false),
            Decision::ClaimDraw(DrawReason::Repetition)
        );
        assert_eq!(
            decide(Level::MIN, m, Score(-900), None, false),
            Decision::Play(m)
        );
    }
}
