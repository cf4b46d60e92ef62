//! The computer's turns and hints in the session: the searches asked for, what the
//! computer does with a result, adjudication, and a hint's words.

use super::*;
use crate::engine::ClockLimits;
use crate::engine::book::Book;

/// Plies of the engine's best line a hint shows (the status line has room for them).
const HINT_LINE_PLIES: usize = 8;

impl Session {
    /// The search for the computer's move, when the computer is to move: its level's
    /// time (or the session's movetime) as a budget and, on the clock, the side to
    /// move's clock, within which the engine's time manager keeps it (see
    /// [`plan_time`]).
    pub(crate) fn move_request(&self) -> Option<SearchRequest> {
        let (_, level) = self.computer_to_move()?;
        let mut request = self.computer.move_request(&self.game, level, self.revision);
        request.limits.clock = self.clock_limits();
        Some(request)
    }

    /// The side to move's clock as the engine sees it: its time left and its control's
    /// increment, moves still to make in the period, or move timer. `None` untimed.
    pub(crate) fn clock_limits(&self) -> Option<ClockLimits> {
        let turn = self.position().turn();
        Some(self.timing.as_ref()?.limits(turn))
    }

    /// The most the side to move would plan to think on the clock, as the engine's time
    /// manager plans it: a share of its time left (a twentieth, or its period's moves
    /// still to make, or a quarter of a move timer's), plus most of an increment, and
    /// never so much that it comes within a second of its flag (on a short clock, a
    /// tenth of its time left, or 50 ms). `None` untimed.
    #[cfg(test)]
    pub(crate) fn clock_budget(&self) -> Option<Duration> {
        let clock = self.clock_limits()?;
        Some(crate::engine::plan_time(&clock, &crate::engine::SearchParams::DEFAULT).target)
    }

    /// The search behind a hint for the side to move.
    pub(crate) fn hint_request(&self) -> SearchRequest {
        self.computer.hint_request(&self.game)
    }

    /// The computer, to move, acts on `result` (a search of this position made with
    /// [`move_request`](Self::move_request)): plays, claims a draw or resigns; a game
    /// between two computers that reaches its ply cap is adjudicated a draw. `None`,
    /// and nothing changed, if the computer is not to move or the result is not for
    /// this position.
    pub(crate) fn computer_played(&mut self, result: &SearchResult) -> Option<News> {
        let (color, level) = self.computer_to_move()?;
        let before = *self.position();
        let turn = self.track(|s| computer::take_turn(&mut s.game, level, result))?;
        let crowned = matches!(turn, Turn::Played(_))
            && self.game.moves().last().is_some_and(|m| crowns(&before, m));
        let turn = match turn {
            Turn::Played(m) => ComputerTurn::Played(MoveFrom { from: before, m }),
            Turn::Ended(crate::rules::Outcome::Draw { .. }) => ComputerTurn::ClaimedDraw,
            Turn::Ended(_) => ComputerTurn::Resigned,
        };
        let adjudicated = (self.seats.both_computer()
            && self.track(|s| computer::adjudicate(&mut s.game, s.computer.ply_cap)))
        .then_some(self.computer.ply_cap);
        Some(News::Computer {
            color,
            level,
            turn,
            crowned,
            adjudicated,
        })
    }

    /// Ends a game that has reached its ply cap as a draw agreed on both sides' behalf
    /// (for a match against another program, which cannot claim). Returns whether it
    /// did.
    #[cfg(feature = "lab")]
    pub(crate) fn adjudicate_at_cap(&mut self) -> bool {
        self.track(|s| computer::adjudicate(&mut s.game, s.computer.ply_cap))
    }

    /// The hint a search for [`hint_request`](Self::hint_request) found: the move and
    /// "Hint for Black (not played): 11-15 (searched 12 plies: Black is slightly ahead
    /// by 0.3 men; best line 11-15 23-19 8-11)", or in a position the endgame databases
    /// hold "Hint for Black (not played): 11-15 (endgame database: Black wins in 12 moves)".
    /// `None` if the result has no move legal here. That it is not played comes first,
    /// so that a narrow screen cuts only the end of the best line.
    pub(crate) fn hint(&self, result: &SearchResult) -> Option<(Move, News)> {
        let m = result.best_move?;
        let pos = self.position();
        if self.game.is_over() || !pos.is_legal(&m) {
            return None;
        }
        // The line is the engine's from this move on, or none (a line through another
        // move would not follow the hint).
        let line = if result.pv.first() == Some(&m) {
            result.pv[..result.pv.len().min(HINT_LINE_PLIES)].to_vec()
        } else {
            Vec::new()
        };
        let searched = (result.depth > 0).then_some(Searched {
            from: *pos,
            score: result.score,
            depth: result.depth,
            line,
        });
        let basis = if let Some(verdict) = self.database_probe() {
            HintBasis::Database(verdict)
        } else if pos.legal_moves().len() == 1 {
            HintBasis::OnlyMove(searched)
        } else if let Some(entry) = Book::embedded().entry(pos).filter(|e| e.best == m) {
            HintBasis::Book(entry.times_played(&m))
        } else if let Some(searched) = searched {
            HintBasis::Search(searched)
        } else {
            HintBasis::Nothing
        };
        let news = News::Hint {
            color: pos.turn(),
            m,
            basis,
        };
        Some((m, news))
    }
}
