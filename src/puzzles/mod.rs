//! Puzzles: positions with a proven result for the player to find, built into the
//! program (`puzzles.txt`, read at first use), each with the side to move, the goal
//! (win or draw), its solution line, a title and a source.
//!
//! Two kinds: classic endgame studies from the literature, whose results the endgame
//! databases or a deep search prove, and positions from Marion Tinsley's tournament
//! games where one move wins or saves the game (found by `checkers-lab puzzles
//! --from-games`). Every one is checked by the tests of this module.
//!
//! [`Attempt`] is a player's go at one puzzle (the moves made, the defender's answers
//! from the databases, the solution line or the engine, a wrong move's refutation),
//! written once for both front ends; [`Progress`] is what the player has solved, kept
//! in the data folder.

mod attempt;
pub(crate) mod check;
pub(crate) mod file;
mod progress;
#[cfg(any(test, feature = "lab"))]
pub(crate) mod proof;

pub(crate) use attempt::{Answer, Attempt, Judge};
pub(crate) use progress::{Progress, Record};

use crate::engine::Limits;
use crate::engine::egdb::Egdb;
use crate::rules::{Color, Move, Position};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// How long the engine thinks about a position the databases do not hold: a puzzle's
/// answer should come at once.
const THINKING_MS: u64 = 1000;

/// What both front ends say of a move that is not the solution's and is not proven
/// wrong either (a slower win the engine cannot see to its end), before its line.
pub(crate) const UNPROVEN: &str = "not the solution's move, and not proven wrong: it may \
     win more slowly (the endgame databases would tell; not counted as a wrong move).";

/// The judge of the moves: the databases `db` (where they hold any slice), else the
/// engine.
pub(crate) fn judge(db: Option<Arc<Egdb>>) -> Judge {
    let db = db.filter(|db| db.slices() > 0);
    Judge::new(db, Limits::movetime_ms(THINKING_MS))
}

/// The progress file, or (when it cannot be read) none, with why.
pub(crate) fn saved_progress() -> (Progress, Option<String>) {
    match Progress::load(Progress::default_path()) {
        Ok(progress) => (progress, None),
        // Not read, so not written over: the attempts are kept in memory only.
        Err(why) => (Progress::default(), Some(why)),
    }
}

/// The progress with the puzzles of the PDN file `path`, those puzzles with it (read
/// once, kept for the run), and what is to be told: the puzzles left out, a progress
/// file that cannot be read. A puzzle file that cannot be used is an error.
pub(crate) fn file_progress(path: &std::path::Path) -> Result<(Progress, Vec<String>), String> {
    let read = file::read(path)?;
    let mut told: Vec<String> = read
        .left_out
        .iter()
        .map(|why| format!("{}: {why}", crate::text::printable_path(path)))
        .collect();
    let mut progress = match Progress::load(file::progress_path(path)) {
        Ok(progress) => progress,
        Err(why) => {
            told.push(why);
            Progress::default()
        }
    };
    // Kept to the end of the run, as the built-in list is: both front ends hold it as
    // a `'static` list, and a run reads one file once.
    progress.set = Some(Box::leak(read.puzzles.into_boxed_slice()));
    Ok((progress, told))
}

/// Why there is no puzzle `number` (counted from 1) in a list of `count`, where there
/// is none, worded as the program's other errors are (plain mode's answers make a
/// sentence of it): "there is no puzzle 99: they are numbered 1 to 35".
pub(crate) fn no_such_puzzle(number: usize, count: usize) -> Option<String> {
    (number == 0 || number > count)
        .then(|| format!("there is no puzzle {number}: they are numbered 1 to {count}"))
}

/// The built-in puzzles' text: blocks of `key = value` lines, one block per puzzle,
/// headed by the puzzle's id in brackets.
const PUZZLES_TXT: &str = include_str!("puzzles.txt");

/// What the player is to achieve.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Goal {
    /// The side to move wins.
    Win,
    /// The side to move draws (it is lost after any other move, or looks it).
    Draw,
}

/// Where a puzzle comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A classic endgame study from the literature.
    Study,
    /// A position from a master's tournament game.
    Game,
}

/// One puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Puzzle {
    /// Its stable name (the progress file's key): `first-position`, `tinsley-0412-61`.
    pub(crate) id: String,
    /// Its title: "First Position".
    pub(crate) title: String,
    /// Where it comes from: a book, a game.
    pub(crate) source: String,
    /// A study or a game position.
    pub(crate) kind: Kind,
    /// The position, with the player's side to move.
    pub(crate) start: Position,
    /// What the side to move achieves.
    pub(crate) goal: Goal,
    /// Whether the solution's first move is the only one that achieves the goal.
    pub(crate) only_move: bool,
    /// The solution: the player's moves and the defender's answers, alternately, from
    /// the start.
    pub(crate) solution: Vec<Move>,
    /// How the result was proven, in words ("databases, 4 pieces").
    pub(crate) proof: String,
    /// The hint: a puzzle file's comment before the first move, the teacher's
    /// introduction (`None` for the built-in puzzles, and a file's without one).
    pub(crate) hint: Option<String>,
    /// The explanation, told once the puzzle is solved or its solution shown: a puzzle
    /// file's comments on the solution's moves, each after the move it follows
    /// ("After 19-23: now Black must give way.").
    pub(crate) explanation: Option<String>,
}

impl Puzzle {
    /// The side the player plays.
    pub(crate) fn player(&self) -> Color {
        self.start.turn()
    }

    /// The goal in words: "White to move and win", "Black to move and draw".
    pub(crate) fn goal_text(&self) -> String {
        let aim = match self.goal {
            Goal::Win => "win",
            Goal::Draw => "draw",
        };
        format!("{} to move and {aim}", self.player())
    }

    /// How many moves the player makes to solve it: those of the solution line.
    pub(crate) fn moves_to_make(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// The solution as a person reads it, each capture by its route: "23-27 28-32
    /// 19-23", "6x15x24".
    pub(crate) fn solution_text(&self) -> String {
        crate::engine::route_line(&self.solution)
    }
}

/// A fault in the puzzles' text, with its line (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PuzzleError {
    /// The line.
    pub(crate) line: usize,
    /// What is wrong there.
    pub(crate) why: String,
}

impl fmt::Display for PuzzleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "puzzles, line {}: {}", self.line, self.why)
    }
}

impl std::error::Error for PuzzleError {}

/// A puzzle being read: its fields so far and the line of its heading.
#[derive(Default)]
struct Draft {
    /// The id and its line.
    id: Option<(String, usize)>,
    /// Each `key = value` with its line.
    fields: Vec<(String, String, usize)>,
}

impl Draft {
    /// The value of `key`, or an error naming the puzzle's heading line.
    fn get(&self, key: &str) -> Result<(&str, usize), PuzzleError> {
        let heading = self.id.as_ref().map_or(1, |(_, l)| *l);
        self.fields
            .iter()
            .find(|(k, _, _)| k == key)
            .map(|(_, v, l)| (v.as_str(), *l))
            .ok_or_else(|| PuzzleError {
                line: heading,
                why: format!("the puzzle has no `{key}`"),
            })
    }

    /// The finished puzzle, every field checked against the rules.
    fn finish(self) -> Result<Puzzle, PuzzleError> {
        let Some((id, _)) = self.id.clone() else {
            return Err(PuzzleError {
                line: 1,
                why: "a field before the first [id] heading".to_string(),
            });
        };
        let bad = |line: usize, why: String| PuzzleError { line, why };
        let (fen, fen_line) = self.get("fen")?;
        let start: Position = fen
            .parse()
            .map_err(|e| bad(fen_line, format!("the FEN {fen:?}: {e}")))?;
        let (goal, goal_line) = self.get("goal")?;
        let goal = match goal {
            "win" => Goal::Win,
            "draw" => Goal::Draw,
            other => return Err(bad(goal_line, format!("goal {other:?} is not win or draw"))),
        };
        let (kind, kind_line) = self.get("kind")?;
        let kind = match kind {
            "study" => Kind::Study,
            "game" => Kind::Game,
            other => {
                return Err(bad(
                    kind_line,
                    format!("kind {other:?} is not study or game"),
                ));
            }
        };
        let (only, only_line) = self.get("only")?;
        let only_move = match only {
            "yes" => true,
            "no" => false,
            other => return Err(bad(only_line, format!("only {other:?} is not yes or no"))),
        };
        let (line, solution_line) = self.get("solution")?;
        let mut pos = start;
        let mut solution = Vec::new();
        for word in line.split_whitespace() {
            let m = pos.parse_move(word).map_err(|e| {
                bad(
                    solution_line,
                    format!("the solution's {word} cannot be played: {e}"),
                )
            })?;
            pos = pos.play_unchecked(&m);
            solution.push(m);
        }
        if solution.is_empty() {
            return Err(bad(solution_line, "the solution is empty".to_string()));
        }
        Ok(Puzzle {
            id,
            title: self.get("title")?.0.to_string(),
            source: self.get("source")?.0.to_string(),
            kind,
            start,
            goal,
            only_move,
            solution,
            proof: self.get("proof")?.0.to_string(),
            hint: None,
            explanation: None,
        })
    }
}

/// The puzzles of `text` (see `puzzles.txt` for the form), or the first fault.
pub(crate) fn parse(text: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let mut puzzles: Vec<Puzzle> = Vec::new();
    let mut draft: Option<Draft> = None;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        if let Some(id) = trimmed.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
            if let Some(done) = draft.take() {
                puzzles.push(done.finish()?);
            }
            if puzzles.iter().any(|p| p.id == id) {
                return Err(PuzzleError {
                    line,
                    why: format!("a second puzzle [{id}]"),
                });
            }
            draft = Some(Draft {
                id: Some((id.to_string(), line)),
                fields: Vec::new(),
            });
            continue;
        }
        let Some((key, value)) = trimmed.split_once('=') else {
            return Err(PuzzleError {
                line,
                why: format!("{trimmed:?} is neither [id] nor key = value"),
            });
        };
        draft.get_or_insert_with(Draft::default).fields.push((
            key.trim().to_string(),
            value.trim().to_string(),
            line,
        ));
    }
    if let Some(done) = draft {
        puzzles.push(done.finish()?);
    }
    Ok(puzzles)
}

/// The built-in puzzles, in the order of the list, read at first use.
pub(crate) fn builtin() -> &'static [Puzzle] {
    static BUILTIN: OnceLock<Vec<Puzzle>> = OnceLock::new();
    BUILTIN.get_or_init(|| {
        parse(PUZZLES_TXT).expect("the built-in puzzles read (checked by the tests)")
    })
}

#[cfg(test)]
mod tests;
