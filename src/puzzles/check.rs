//! Checking a puzzle's solution (`checkers puzzle FILE --check`, for a teacher's file,
//! read unchecked but for its moves being legal): each of the player's moves in the
//! solution is judged as a move in play is, by the endgame databases where they hold
//! the position, else by the engine within a bounded time. A move proven not to keep
//! the goal makes the solution wrong, and the move the judge finds there instead is
//! named. A move the search cannot prove either way is no fault: within its time the
//! engine rarely sees a slow win to its end.

use super::{Goal, Judge, Puzzle};
use crate::rules::{Move, Position};

/// What the check found of one puzzle's solution.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Finding {
    /// Each of the player's moves keeps the goal as a move in play is judged (a win
    /// proven; a draw not proven lost), the last reaching it.
    Holds,
    /// Nothing is proven against the solution, nor is all of it proven: the first
    /// move left unproven, in words ("after 23-27 Black holds as far as the engine
    /// sees (the engine: ...)").
    Unproven(String),
    /// One of the player's moves is proven not to keep the goal.
    Wrong(Wrong),
}

/// A move of a solution proven not to keep the goal, and what the judge plays there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Wrong {
    /// Which of the player's moves it is (from 1): 1 when another first move is needed.
    pub(crate) move_number: usize,
    /// The solution's move there.
    pub(crate) given: Move,
    /// What follows it, in words: "White draws (the databases: drawn)".
    pub(crate) why: String,
    /// The judge's best move in the same position, if it has one: the move, whether
    /// it keeps the goal as far as the judge sees, and what it comes to in words ("the
    /// engine: Black wins in 3 moves").
    pub(crate) found: Option<(Move, bool, String)>,
}

impl Wrong {
    /// The fault in a sentence, for `goal`: "its move 1, 12-16, does not keep the
    /// draw: after it White wins (the engine: ...); the engine finds 28-32 there
    /// instead, which keeps it (the engine: ...).".
    pub(crate) fn sentence(&self, goal: Goal) -> String {
        let aim = match goal {
            Goal::Win => "win",
            Goal::Draw => "draw",
        };
        let instead = match &self.found {
            Some((found, _, words)) if *found == self.given => {
                format!("there is no better move: the position does not hold the {aim} ({words})")
            }
            Some((found, true, words)) => {
                format!("a different move is needed: {found}, which keeps it ({words})")
            }
            Some((found, false, words)) => format!(
                "no move is proven to keep it in the time: the best found is {found} ({words})"
            ),
            None => "there is no other move".to_string(),
        };
        format!(
            "its move {}, {}, does not keep the {aim}: after it {}; {instead}.",
            self.move_number, self.given, self.why
        )
    }
}

/// Checks `puzzle`'s solution with `judge`: each of the player's moves in turn, the
/// defender answering as the solution says, until one is proven wrong.
pub(crate) fn check(puzzle: &Puzzle, judge: &Judge) -> Finding {
    let goal = puzzle.goal;
    let mut pos: Position = puzzle.start;
    let mut history: Vec<Position> = Vec::new();
    let mut unproven = None;
    for (ply, m) in puzzle.solution.iter().enumerate() {
        if ply % 2 == 0 {
            let (keeps, found) = judge.keeps(&pos, &history, m, goal);
            let after = pos.play_unchecked(m);
            // Proven as a wrong move in play is: by the databases, or a forced win for
            // the defender.
            if !keeps && (found.verdict.is_some() || found.wins()) {
                let instead = judge.find(&pos, &history);
                let reaches = match goal {
                    Goal::Win => instead.wins(),
                    Goal::Draw => !instead.loses(),
                };
                return Finding::Wrong(Wrong {
                    move_number: ply / 2 + 1,
                    given: *m,
                    why: format!("{} ({})", found.outcome(&after), found.words(&after)),
                    found: instead
                        .best
                        .map(|best| (best, reaches, instead.words(&pos))),
                });
            }
            if !keeps && unproven.is_none() {
                unproven = Some(format!(
                    "after {m} {} ({})",
                    found.outcome(&after),
                    found.words(&after)
                ));
            }
        }
        history.push(pos);
        pos = pos.play_unchecked(m);
    }
    match unproven {
        Some(words) => Finding::Unproven(words),
        None => Finding::Holds,
    }
}
