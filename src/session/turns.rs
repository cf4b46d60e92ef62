//! The computer's turns and hints in the session: the searches asked for, what the
//! computer does with a result, adjudication, and a hint's words.

use super::*;
use crate::engine::book::Book;

impl Session {
    /// The search for the computer's move, when the computer is to move.
    pub fn move_request(&self) -> Option<SearchRequest> {
        let (_, level) = self.computer_to_move()?;
        let mut movetime = self.movetime.unwrap_or_else(|| level.movetime());
        // On the clock the computer manages its own time (see `clock_budget`).
        if let Some(budget) = self.clock_budget() {
            movetime = movetime.min(budget);
        }
        let seed = self.seed ^ self.revision.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut request =
            computer::move_request(&self.game, level, movetime, seed).with_egdb(self.egdb.clone());
        // The time is a budget the search may overrun in a critical position; on the
        // clock never by more than half of what would be left before the flag.
        if let Some(wall) = self.clock_wall() {
            request.limits.movetime = request.limits.movetime.map(|m| m.min(wall));
        }
        Some(request)
    }

    /// The longest one move may take on the clock: half the time left but a second.
    /// `None` untimed.
    fn clock_wall(&self) -> Option<Duration> {
        let (clock, now) = self.clock.as_ref()?;
        let left = clock.remaining(self.position().turn(), *now);
        Some((left.saturating_sub(Duration::from_secs(1)) / 2).max(Duration::from_millis(10)))
    }

    /// The most the side to move may think on the clock: a share of its time left (a
    /// twentieth, or its period's moves still to make), plus most of an increment, and
    /// never so much that it comes within a second of its flag. `None` untimed.
    pub fn clock_budget(&self) -> Option<Duration> {
        let (clock, now) = self.clock.as_ref()?;
        let turn = self.position().turn();
        let left = clock.remaining(turn, *now);
        let share = match clock.control() {
            TimeControl::Moves { moves, .. } => {
                let to_go = moves - clock.moves(turn) % moves;
                left / to_go.max(1)
            }
            TimeControl::Increment { increment, .. } => left / 20 + increment * 3 / 4,
            TimeControl::SuddenDeath(_) => left / 20,
            TimeControl::MoveTimer => left / 4,
        };
        let safe = left.saturating_sub(Duration::from_secs(1));
        Some(share.min(safe).max(Duration::from_millis(10)))
    }

    /// The search behind a hint for the side to move.
    pub fn hint_request(&self) -> SearchRequest {
        computer::hint_request(&self.game).with_egdb(self.egdb.clone())
    }

    /// The computer, to move, acts on `result` (a search of this position made with
    /// [`move_request`](Self::move_request)): plays, claims a draw or resigns; a game
    /// between two computers that reaches its ply cap is adjudicated a draw. `None`,
    /// and nothing changed, if the computer is not to move or the result is not for
    /// this position.
    pub fn computer_played(&mut self, result: &SearchResult) -> Option<News> {
        let (color, level) = self.computer_to_move()?;
        let turn = self.track(|s| computer::take_turn(&mut s.game, level, result))?;
        let turn = match turn {
            Turn::Played(m) => ComputerTurn::Played(m),
            Turn::Ended(crate::rules::Outcome::Draw { .. }) => ComputerTurn::ClaimedDraw,
            Turn::Ended(_) => ComputerTurn::Resigned,
        };
        let adjudicated = (self.seats.both_computer()
            && self.track(|s| computer::adjudicate(&mut s.game, s.ply_cap)))
        .then_some(self.ply_cap);
        Some(News::Computer {
            color,
            level,
            turn,
            adjudicated,
        })
    }

    /// Ends a game that has reached its ply cap as a draw agreed on both sides' behalf
    /// (for a match against another program, which cannot claim). Returns whether it
    /// did.
    pub fn adjudicate_at_cap(&mut self) -> bool {
        self.track(|s| computer::adjudicate(&mut s.game, s.ply_cap))
    }

    /// The computer's turn, searched here and now with `engine` (for line-by-line
    /// front ends and matches). `None` if the computer is not to move.
    pub fn play_computer_turn(&mut self, engine: &mut Engine) -> Option<News> {
        let request = self.move_request()?;
        let result = engine.search(&request, &StopFlag::new(), |_| {});
        self.computer_played(&result)
    }

    /// The hint a search for [`hint_request`](Self::hint_request) found: the move and
    /// "Hint for Black: 11-15 (searched 12 plies deep). It is not played", or in a
    /// position the endgame databases hold "Hint for Black: 11-15 (database: Black wins
    /// in 12 moves). It is not played". `None` if the result has no move legal here.
    pub fn hint(&self, result: &SearchResult) -> Option<(Move, News)> {
        let m = result.best_move?;
        let pos = self.position();
        if self.game.is_over() || !pos.is_legal(&m) {
            return None;
        }
        let basis = if let Some(verdict) = self.database_verdict() {
            HintBasis::Database(verdict)
        } else if pos.legal_moves().len() == 1 {
            HintBasis::OnlyMove
        } else if let Some(entry) = Book::embedded().entry(pos).filter(|e| e.best == m) {
            HintBasis::Book(entry.reason())
        } else if result.depth > 0 {
            HintBasis::Search {
                verdict: score_in_words(pos.turn(), result.score),
                depth: result.depth,
            }
        } else {
            HintBasis::Nothing
        };
        let news = News::Hint {
            color: pos.turn(),
            notation: pos.notation(&m),
            basis,
        };
        Some((m, news))
    }
}
