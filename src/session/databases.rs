//! What the endgame databases say of the game in play: the exact result of the position
//! on the board, and the move that threw a win or a draw away.

use super::Session;
use crate::engine::egdb::Verdict;
use crate::rules::{Move, Position};

impl Session {
    /// The databases' verdict on the position on the board, when they hold it, the
    /// game goes on and assistance is on: "White wins in 23 moves" or "drawn".
    pub(crate) fn database_verdict(&self) -> Option<String> {
        Some(self.database_probe()?.describe(self.position().turn()))
    }

    /// [`database_verdict`](Self::database_verdict) as a value, for the side to move.
    pub(crate) fn database_probe(&self) -> Option<Verdict> {
        // A record reviewed at its end is over there, though it may have moves left.
        if self.game.is_over() || self.review_at_end() || !self.assist {
            return None;
        }
        self.computer.probe(self.position())
    }

    /// Ends the game with `db`'s verdict on the position on the board, as matches
    /// between programs end a game once the databases settle it: a win as the loser's
    /// resignation, a draw as agreed. Returns the verdict (for the side to move before
    /// the game ended), or `None`, the game going on, when the game is over or `db`
    /// does not hold the position. Whoever plays either side, and whether or not
    /// assistance is on: it is the arbiter's call, not a player's.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn adjudicate_by_database(
        &mut self,
        db: &crate::engine::egdb::Egdb,
    ) -> Option<Verdict> {
        if self.game.is_over() {
            return None;
        }
        let turn = self.position().turn();
        let verdict = db.probe(self.position())?;
        let ended = match verdict {
            Verdict::Win(_) => self.track(|s| s.game.resign(!turn)).is_ok(),
            Verdict::Loss(_) => self.track(|s| s.game.resign(turn)).is_ok(),
            Verdict::Draw => self.track(|s| super::computer::adjudicate(&mut s.game, 0)),
        };
        self.review = None;
        ended.then_some(verdict)
    }

    /// What the last move did to the databases' verdict, when it made it worse for the
    /// player who moved: "Black's 27-23 threw the win away: before it, Black wins in 9
    /// moves" or "White's 6-10 lost the draw" (see [`database_swing`]), so that a player
    /// stepping through a game sees where a won ending was thrown away. None while
    /// assistance is off.
    pub(crate) fn database_swing(&self) -> Option<String> {
        if !self.assist {
            return None;
        }
        let db = self.computer.egdb.as_ref()?;
        self.last_move_swing(|pos| db.probe(pos))
    }

    /// [`database_swing`](Self::database_swing) of the last move with `probe` giving
    /// the databases' verdicts.
    fn last_move_swing(&self, probe: impl Fn(&Position) -> Option<Verdict>) -> Option<String> {
        let m = self.game.moves().last()?;
        let positions = self.game.positions();
        let (before, history) = positions[..positions.len() - 1].split_last()?;
        // In a person's words: a multi-jump by its route, as the move list gives it.
        let text = m.to_string();
        database_swing(probe, history, before, m, &text)
    }
}

/// What playing `m` (written `text`, as the caller writes its moves) in `before`
/// (reached through `history`, oldest first) does to the verdict `probe` gives (the
/// databases'), when it makes it worse for the player who moves: "Black's 27-23
/// threw the win away: before it, Black wins in 9 moves" (or "turned the win into a
/// loss"), "White's 6-10 lost the draw". `None` when the move keeps the verdict, the
/// databases do not hold both positions, or a draw could be claimed before it (the
/// game was then drawn whatever the databases say).
pub(crate) fn database_swing(
    probe: impl Fn(&Position) -> Option<Verdict>,
    history: &[Position],
    before: &Position,
    m: &Move,
    text: &str,
) -> Option<String> {
    if crate::rules::draw::available_claim(history, before).is_some() {
        return None;
    }
    let mover = before.turn();
    let was = probe(before)?;
    let now = probe(&before.play_unchecked(m))?.before_move();
    match (was, now) {
        (Verdict::Win(_), Verdict::Draw | Verdict::Loss(_)) => {
            let what = if now == Verdict::Draw {
                "threw the win away"
            } else {
                "turned the win into a loss"
            };
            Some(format!(
                "{mover}'s {text} {what}: before it, {}",
                was.describe(mover)
            ))
        }
        (Verdict::Draw, Verdict::Loss(_)) => Some(format!("{mover}'s {text} lost the draw")),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    #[test]
    fn a_multi_jump_that_threw_the_win_away_is_named_by_its_route() {
        let start: Position = "W:W22:B11,18".parse().unwrap();
        let mut game = Game::from_position(start);
        game.play_text("22x8").unwrap();
        let session = Session::new(game);
        // Won before the jump, drawn after it, as far as this stand-in knows.
        let probe = |pos: &Position| {
            Some(if *pos == start {
                Verdict::Win(9)
            } else {
                Verdict::Draw
            })
        };
        let told = session.last_move_swing(probe).unwrap();
        assert!(
            told.starts_with("White's 22x15x8 threw the win away"),
            "{told}"
        );
    }
}
