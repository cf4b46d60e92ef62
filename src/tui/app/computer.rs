//! The searches the screen asks for: the computer's move and hints. The event loop runs
//! them on a background thread; a result comes back tagged with the game revision it
//! was asked for and is refused once the game has moved on.

use super::{App, Tone};
use crate::engine::{DepthInfo, Score, SearchRequest, SearchResult};
use crate::rules::{Color, Move};
use crate::session::{computer_name, score_in_words};

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The computer's move for this side.
    Move(Color),
    /// A hint for the side to move.
    Hint,
    /// The engine's view of the position on the board while a record is reviewed,
    /// shown in the panel beside the databases' exact result.
    Review,
}

/// The engine's view of a reviewed position: its score, as deep as it has searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewAnalysis {
    /// The session's revision of the position searched.
    pub revision: u64,
    /// The deepest iteration completed.
    pub depth: u32,
    /// The score, for the side to move.
    pub score: Score,
    /// Whether the search has ended (nothing more will come).
    pub done: bool,
}

/// A search the game wants, tagged with the game revision it was asked for: a result
/// is applied only while the game is still at that revision and still wants it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    /// What the search is for.
    pub purpose: Purpose,
    /// The session's revision when it was asked for.
    pub revision: u64,
}

/// What the running search has reported so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// The search reporting.
    pub spec: SearchSpec,
    /// The deepest iteration completed.
    pub depth: u32,
    /// What it thinks of the position, in words ("White is ahead").
    pub verdict: String,
}

impl App {
    /// The search the game wants now, if any: the computer's move when a computer
    /// player is to move (not while reviewing a file), else a hint that was asked for,
    /// else, while reviewing, the engine's view of the position until it has one.
    pub fn wanted_search(&self) -> Option<SearchSpec> {
        let revision = self.session.revision();
        let playing = !self.game().is_over();
        let analysed = self
            .review_analysis
            .is_some_and(|a| a.revision == revision && a.done);
        let purpose = match self.session.computer_to_move() {
            Some((color, _)) => Purpose::Move(color),
            None if self.hint_wanted == Some(revision) && playing => Purpose::Hint,
            None if self.session.is_reviewing() && playing && !analysed => Purpose::Review,
            None => return None,
        };
        Some(SearchSpec { purpose, revision })
    }

    /// The engine's request for the search `spec`.
    pub fn search_request(&self, spec: SearchSpec) -> SearchRequest {
        match spec.purpose {
            Purpose::Move(_) => self
                .session
                .move_request()
                .unwrap_or_else(|| self.session.hint_request()),
            Purpose::Hint | Purpose::Review => self.session.hint_request(),
        }
    }

    /// The engine's view of the reviewed position on the board, as far as it has got.
    pub fn review_analysis(&self) -> Option<ReviewAnalysis> {
        self.review_analysis
            .filter(|a| a.revision == self.session.revision() && self.session.is_reviewing())
    }

    /// The search `spec` completed an iteration (`info`: its depth and score). Returns
    /// whether the screen should show it (the search is still wanted and went deeper).
    pub fn search_progress(&mut self, spec: SearchSpec, info: &DepthInfo) -> bool {
        if self.wanted_search() != Some(spec) {
            return false;
        }
        if spec.purpose == Purpose::Review {
            self.review_analysis = Some(ReviewAnalysis {
                revision: spec.revision,
                depth: info.depth,
                score: info.score,
                done: false,
            });
            return true;
        }
        let deeper = self
            .thinking
            .as_ref()
            .is_none_or(|t| t.spec != spec || t.depth < info.depth);
        if deeper {
            self.thinking = Some(Thinking {
                spec,
                depth: info.depth,
                verdict: score_in_words(self.position().turn(), info.score),
            });
        }
        deeper
    }

    /// The search `spec` ended with `result`: the computer plays (or claims a draw, or
    /// resigns), or the hint is shown. A result for a search the game no longer wants
    /// (the position changed, the side was handed back) is refused: returns false.
    pub fn search_done(&mut self, spec: SearchSpec, result: &SearchResult) -> bool {
        if self.wanted_search() != Some(spec) {
            return false;
        }
        self.thinking = None;
        match spec.purpose {
            Purpose::Move(color) => {
                let Some(text) = self.session.computer_played(result) else {
                    return false;
                };
                self.hand_over_cursor(color);
                self.move_now = false;
                let mut text = self.with_match_news(self.session.announce(&text));
                // Keep the person's move in view: "Black played 11-15; White (level 5) ...".
                if let Some((Tone::Info, previous)) = &self.message
                    && previous.starts_with(&format!("{} played ", !color))
                    && !self.game().is_over()
                {
                    text = format!("{previous}; {text}");
                }
                self.info(text);
            }
            Purpose::Hint => {
                let Some((m, text)) = self.session.hint(result) else {
                    return false;
                };
                self.hint_wanted = None;
                self.hint = Some((spec.revision, m));
                self.info(format!("{text}."));
            }
            Purpose::Review => {
                self.review_analysis = Some(ReviewAnalysis {
                    revision: spec.revision,
                    depth: result.depth,
                    score: result.score,
                    done: true,
                });
            }
        }
        true
    }

    /// The hint to show on the board: only while the position it is for is on screen.
    pub fn current_hint(&self) -> Option<Move> {
        self.hint
            .filter(|(revision, _)| *revision == self.session.revision())
            .map(|(_, m)| m)
    }

    /// The line saying the computer is thinking, while it is.
    pub fn thinking_text(&self) -> Option<String> {
        let spec = self.wanted_search()?;
        let depth = self
            .thinking
            .as_ref()
            .filter(|t| t.spec == spec && t.depth > 0)
            .map(|t| {
                // In an ending the databases hold, their exact result, not the search's.
                let verdict = self
                    .session
                    .database_verdict()
                    .map_or_else(|| t.verdict.clone(), |v| format!("database: {v}"));
                format!(" depth {} ({verdict})", t.depth)
            })
            .unwrap_or_default();
        Some(match spec.purpose {
            Purpose::Move(color) => format!("{color} is thinking...{depth}"),
            Purpose::Hint => format!("Looking for a hint...{depth}"),
            // Shown in the panel's "Engine:" line instead.
            Purpose::Review => return None,
        })
    }

    pub(super) fn ask_hint(&mut self) {
        let turn = self.position().turn();
        if let Some(outcome) = self.game().result() {
            self.error(format!("The game is over ({outcome}): no hint to give"));
        } else if self.session.computer_to_move().is_some() {
            self.error(format!(
                "The computer plays {turn}: it is choosing its move"
            ));
        } else if let Some(m) = self.current_hint() {
            let text = self.position().notation(&m);
            self.info(format!("Hint for {turn}: {text}. It is not played."));
        } else {
            self.hint_wanted = Some(self.session.revision());
            self.info(format!("Looking for a hint for {turn}..."));
        }
    }

    pub(super) fn ask_move_now(&mut self) {
        match self.session.computer_to_move() {
            Some((color, level)) => {
                self.move_now = true;
                self.info(format!("{} moves now", computer_name(color, level)));
            }
            None => self.error("The computer is not thinking: nothing to hurry"),
        }
    }
}
