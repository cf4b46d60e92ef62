//! Stepping through a recorded game: open a record at its first position, step back and
//! forth, and leave the review to play on from any point.

use super::Session;
use crate::game::Game;
use crate::pdn::PdnGame;
use crate::rules::{Color, Position};
use std::fmt;
use std::time::Duration;

/// What a step through a game, or opening one to review, did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Reviewed {
    /// The game shows the position after its first `shown` moves of `total`: "After
    /// move 4 (Black's 10-14) of 6".
    At {
        /// The game's first position (its moves are numbered from there).
        start: Position,
        /// The moves shown.
        shown: usize,
        /// The moves in all.
        total: usize,
        /// The move to the position shown, in notation, where it is known.
        made: Option<String>,
    },
    /// The review ended: play goes on from the position shown.
    Over,
    /// Game `number` of the open file's `count` was opened: `summary` says which.
    Opened {
        /// The game's line in the file's list (its players, result, date).
        summary: String,
        /// Its number in the file, from 1.
        number: usize,
        /// The file's games.
        count: usize,
    },
}

impl Reviewed {
    /// Where `game` stands after a step: `shown` of `total` moves.
    pub(crate) fn at(game: &Game, shown: usize, total: usize) -> Reviewed {
        Reviewed::At {
            start: *game.start(),
            shown,
            total,
            made: game.made(shown),
        }
    }
}

impl fmt::Display for Reviewed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reviewed::At {
                start,
                shown,
                total,
                made,
            } => f.write_str(&crate::game::shown_words(
                start,
                *shown,
                *total,
                made.as_deref(),
            )),
            Reviewed::Over => f.write_str(
                "Review over: play on from this position (redo replays the recorded moves)",
            ),
            Reviewed::Opened {
                summary,
                number,
                count,
            } => write!(f, "Game {summary} ({number} of {count})"),
        }
    }
}

/// A game opened from a record to step through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Review {
    /// The record's tags (name, value), in file order.
    pub(crate) tags: Vec<(String, String)>,
    /// The game as the record has it: every move, and its ending (resignation or draw)
    /// when the board alone does not show it.
    pub(crate) recorded: Game,
    /// Why the record stops early, when a move of it is faulty: it is reviewed up to
    /// that move.
    pub(crate) fault: Option<String>,
    /// The clock reading after each recorded move, where the record gives one (its
    /// `%clk` comments).
    pub(crate) clocks: Vec<Option<Duration>>,
}

impl Review {
    /// The value of tag `name`, if the record has it.
    pub(crate) fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A step through the game under review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// One move back.
    Back,
    /// One move forward.
    Forward,
    /// To the first position.
    Start,
    /// To the last move.
    End,
}

impl Session {
    /// `record` opened for review: at its first position, every move ready to step
    /// through, and nothing autosaved until play goes on from it.
    #[cfg(test)]
    pub(crate) fn review_record(record: &PdnGame) -> Session {
        Session::review_faulty_record(record, None)
    }

    /// Like [`review_record`](Self::review_record) for a record that stops early at a
    /// faulty move: `record` holds the moves before it, `fault` says what is wrong.
    pub(crate) fn review_faulty_record(record: &PdnGame, fault: Option<String>) -> Session {
        let mut session = Session::from_record(record);
        // Only the record's own moves are stepped through: a fresh game from its start,
        // so no declared ending or older redo list comes along.
        let mut line = Game::from_position(*session.game.start());
        for m in session.game.moves() {
            // Each move came from this game, so each is legal in turn.
            let _ = line.play(m);
        }
        while line.undo() {}
        let recorded = std::mem::replace(&mut session.game, line);
        // The result shown is the one the game was read with (see
        // `PdnGame::recorded_result`), whether the tag or the token gave it.
        let mut tags = record.tags.clone();
        match (
            tags.iter_mut().find(|(n, _)| n == "Result"),
            record.recorded_result(),
        ) {
            (Some(tag), Some(result)) => tag.1 = result.to_string(),
            (None, Some(result)) => tags.push(("Result".to_string(), result.to_string())),
            _ => {}
        }
        session.review = Some(Review {
            tags,
            recorded,
            fault,
            clocks: record.clocks.clone(),
        });
        session.origin.untouched = true;
        if session.review.as_ref().is_some_and(|r| r.fault.is_some()) {
            session.origin.stopped = record.tag("Termination").map(String::from);
        }
        session
    }

    /// Steps through the game under review (or through the moves taken back). Returns
    /// where the review stands: "After move 4 (Black's 10-14) of 6".
    pub(crate) fn step(&mut self, step: Step) -> Reviewed {
        let untouched = self.origin.untouched;
        self.track(|s| match step {
            Step::Back => {
                s.game.undo();
            }
            Step::Forward => {
                s.game.redo();
            }
            Step::Start => while s.game.undo() {},
            Step::End => while s.game.redo() {},
        });
        // Stepping through a record is not playing it.
        self.origin.untouched = untouched;
        let (shown, total) = self.review_progress();
        Reviewed::at(&self.game, shown, total)
    }

    /// Where the review stands, in the move list's numbers: "move 4 (Black's 10-14) of
    /// 6", "the start, before 6 moves" (see [`Game::place`]).
    pub(crate) fn review_place(&self) -> String {
        let (shown, total) = self.review_progress();
        self.game.place(shown, total)
    }

    /// Shows the game under review after `plies` of its moves (as far as it goes).
    /// Returns where the review stands, as [`step`](Self::step) does.
    pub(crate) fn step_to(&mut self, plies: usize) -> Reviewed {
        let mut text = self.step(Step::Start);
        for _ in 0..plies {
            text = self.step(Step::Forward);
        }
        text
    }

    /// Which move of the game under review is shown, and how many it has: `(k, n)` for
    /// "turn k of n" (k is 0 at the first position).
    pub(crate) fn review_progress(&self) -> (usize, usize) {
        let shown = self.game.moves().len();
        (shown, shown + self.game.undone_moves().len())
    }

    /// Each side's clock (Black's, White's) as it stood at the move shown, when the record
    /// under review kept clock readings: the reading after that side's last move so far,
    /// or the time control's starting time (`None` if the record does not say it)
    /// before its first. At the record's last move, the clocks as they stood at its
    /// end, where its `BlackClock` and `WhiteClock` tags keep them: a resignation, a
    /// flag fall or an agreed draw comes after the last move, on the loser's time.
    pub(crate) fn review_clocks(&self) -> Option<[Option<Duration>; 2]> {
        let review = self.review.as_ref()?;
        if let Some(end) = self.review_end_clocks() {
            return Some(end.map(Some));
        }
        if !review.clocks.iter().any(Option::is_some) {
            return None;
        }
        let initial = review
            .tag("TimeControl")
            .and_then(|t| t.parse::<super::TimeControl>().ok())
            .map(|c| c.initial());
        let positions = self.game.positions();
        let shown = self.game.moves().len();
        let reading = |color: Color| {
            (0..shown)
                .rev()
                .find(|i| positions.get(*i).is_some_and(|p| p.turn() == color))
                .map_or(initial, |i| review.clocks.get(i).copied().flatten())
        };
        Some([reading(Color::Black), reading(Color::White)])
    }

    /// The clocks (Black's, White's) as they stood when the record under review ended
    /// (its `BlackClock` and `WhiteClock` tags), while its last move is shown.
    pub(crate) fn review_end_clocks(&self) -> Option<[Duration; 2]> {
        let review = self.review.as_ref()?;
        let (shown, total) = self.review_progress();
        if shown != total {
            return None;
        }
        let reading = |color: Color| {
            review
                .tag(&format!("{}Clock", color.name()))
                .and_then(crate::pdn::parse_clock)
        };
        Some([reading(Color::Black)?, reading(Color::White)?])
    }

    /// Whether the record under review is shown at its last position and says how the
    /// game ended there: the game is over, with nothing left for the engine to weigh.
    pub(crate) fn review_at_end(&self) -> bool {
        let (shown, total) = self.review_progress();
        shown == total
            && self
                .review
                .as_ref()
                .is_some_and(|r| r.recorded.result().is_some())
    }

    /// The recorded game's result, while its last position is shown, with a sentence
    /// saying how it came: "White wins: Black resigned", "Draw by agreement", "White
    /// wins: adjudication" (another program's `Termination`, as it is), "White won (as
    /// recorded)" (a bare result). A resignation, a flag fall or a draw agreed leaves a board with
    /// a side to move, yet there the game is over. `None` elsewhere, or for a record
    /// with no result.
    pub(crate) fn review_over(&self) -> Option<(crate::rules::Outcome, String)> {
        use crate::rules::Outcome;
        let review = self.review.as_ref()?;
        let (shown, total) = self.review_progress();
        if shown != total {
            return None;
        }
        let outcome = review.recorded.result()?;
        let sentence = outcome.to_string();
        // The record's result alone would read as a resignation or a draw agreed: only
        // what its `Termination` says is said.
        let told = match (self.review_ending(), outcome) {
            (Some(ending), _) if sentence.ends_with(&ending) => sentence,
            (Some(ending), Outcome::Win { winner, .. }) => format!("{winner} wins: {ending}"),
            (Some(ending), Outcome::Draw { .. }) => format!("Drawn: {ending}"),
            // Nothing more to tell than the record's score: "White won (as recorded)".
            (None, _) => sentence,
        };
        Some((outcome, told))
    }

    /// How the game under review ended, as far as its record tells: the board's own
    /// ending ("Black has no legal move"), or the one its `Termination` tag gives
    /// ("Black resigned", "Draw by agreement", another program's words as they are).
    /// `None` for a game not over, or a result the record does not explain.
    pub(crate) fn review_ending(&self) -> Option<String> {
        use crate::rules::Outcome;
        let review = self.review.as_ref()?;
        let words = |outcome: Outcome| match outcome {
            Outcome::Win { .. } => {
                let text = outcome.to_string();
                text.split_once(": ")
                    .map_or(text.clone(), |(_, why)| why.to_string())
            }
            Outcome::Draw { .. } => outcome.to_string(),
        };
        if let Some(outcome) = review.recorded.position().outcome() {
            return Some(words(outcome));
        }
        let termination = review.tag("Termination")?.trim();
        let ours = [
            "resignation",
            crate::pdn::TIME_FORFEIT,
            "agreement",
            "repetition claimed",
            "forty-move rule claimed",
        ];
        match review.recorded.result() {
            Some(outcome) if ours.contains(&termination) => Some(words(outcome)),
            _ if termination.is_empty() => None,
            _ => Some(crate::text::printable(termination, 60)),
        }
    }

    /// Stops reviewing at the record's end with the game as the record has it: its
    /// ending (a resignation, an agreed draw, a flag fall) kept, so the game reads as
    /// over and a record saved of it keeps its result (stepped through, the game has no
    /// declared ending, and was saved as `*`); undo takes the ending back to play on. A
    /// record cut short at a faulty move is left at the move before it, its result not
    /// its. For plain mode, which has no review.
    pub(crate) fn leave_review_as_recorded(&mut self) {
        self.step(Step::End);
        if let Some(review) = self.review.take()
            && review.fault.is_none()
        {
            // Not through `track`: nothing was played, so nothing is autosaved yet.
            self.game = review.recorded;
        }
    }

    /// Stops reviewing: play goes on from the position shown, the record's later moves
    /// ready for redo. Left at the record's last move, a save before the next move
    /// keeps the record's result (the game has no declared ending, so that play can go
    /// on, yet nothing was played). `None` if no review was under way.
    pub(crate) fn leave_review(&mut self) -> Option<Reviewed> {
        let review = self.review.take()?;
        let (shown, total) = self.review_progress();
        if shown == total && review.fault.is_none() {
            self.origin.left_at_end = Some(review.recorded);
        }
        Some(Reviewed::Over)
    }
}
