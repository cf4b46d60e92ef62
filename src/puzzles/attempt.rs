//! A player's go at a puzzle: the moves made, whether each keeps the goal, the
//! defender's answers, and a wrong move's refutation. Pure but for the searches the
//! [`Judge`] makes; both front ends drive it.

use super::{Goal, Puzzle};
use crate::engine::egdb::{Egdb, Verdict};
use crate::engine::{Engine, Limits, Score, SearchRequest, StopFlag, route_line};
use crate::rules::{Move, Position};
use crate::session::score_with_size;
use std::sync::Arc;

/// The most plies of a refutation's line, the defender's answer first.
const REFUTATION_PLIES: usize = 8;

/// Who decides whether a move keeps the goal, and answers for the defender: the
/// endgame databases where they hold the position, else the engine within `limits`.
#[derive(Clone, Debug)]
pub(crate) struct Judge {
    /// The endgame databases, if there are any.
    pub(crate) egdb: Option<Arc<Egdb>>,
    /// How long the engine searches a position the databases do not hold.
    pub(crate) limits: Limits,
    /// Stops its searches at once (the file check's Ctrl-C); never raised in play.
    stop: StopFlag,
}

/// What a judge found of a position: its best move, the line that follows, and its
/// value for the side to move.
pub(super) struct Found {
    /// The best move (`None`: the side to move has none, and has lost).
    pub(super) best: Option<Move>,
    /// The line of best play from the position, the best move first.
    line: Vec<Move>,
    /// The databases' verdict, where they hold the position.
    pub(super) verdict: Option<Verdict>,
    /// The engine's score where they do not (for the side to move).
    score: Score,
}

impl Found {
    /// Whether the side to move is proven to win.
    pub(super) fn wins(&self) -> bool {
        match self.verdict {
            Some(v) => matches!(v, Verdict::Win(_)),
            None => self.score.is_win(),
        }
    }

    /// Whether the side to move is proven to lose.
    pub(super) fn loses(&self) -> bool {
        match self.verdict {
            Some(v) => matches!(v, Verdict::Loss(_)),
            None => self.score.is_loss(),
        }
    }

    /// The result in words for `pos` (its side to move), with who says it: "the
    /// databases: drawn", "the databases: White wins in 12 moves", "the engine: Black
    /// is ahead by 0.3 men".
    pub(super) fn words(&self, pos: &Position) -> String {
        match self.verdict {
            Some(v) => format!("the databases: {}", v.describe(pos.turn())),
            None => format!("the engine: {}", score_with_size(pos.turn(), self.score)),
        }
    }

    /// What the defender, to move in `pos`, makes of it: "Black wins", "Black
    /// draws", "Black holds as far as the engine sees" (no win proven for the player).
    pub(super) fn outcome(&self, pos: &Position) -> String {
        let defender = pos.turn();
        if self.wins() {
            format!("{defender} wins")
        } else if self.verdict == Some(Verdict::Draw) {
            format!("{defender} draws")
        } else {
            // Unproven: a deeper win may be there (First Position's other winning
            // moves need the databases), so the engine's view is named as such.
            format!("{defender} holds as far as the engine sees")
        }
    }
}

impl Judge {
    /// A judge with the databases `egdb` and the engine searching within `limits`.
    pub(crate) fn new(egdb: Option<Arc<Egdb>>, limits: Limits) -> Judge {
        Judge {
            egdb,
            limits,
            stop: StopFlag::new(),
        }
    }

    /// The judge with its searches stopped at once when `stop` is raised.
    pub(crate) fn with_stop(self, stop: StopFlag) -> Judge {
        Judge { stop, ..self }
    }

    /// The best play from `pos`: the databases' where they hold it, else a search.
    pub(super) fn find(&self, pos: &Position, history: &[Position]) -> Found {
        if pos.legal_moves().is_empty() {
            return Found {
                best: None,
                line: Vec::new(),
                verdict: Some(Verdict::Loss(0)),
                score: Score::loss_in(0),
            };
        }
        if let Some(db) = &self.egdb
            && let Some(verdict) = db.probe(pos)
        {
            let line = db.best_line(pos, REFUTATION_PLIES);
            if let Some(&best) = line.first() {
                return Found {
                    best: Some(best),
                    line,
                    verdict: Some(verdict),
                    score: Score::DRAW,
                };
            }
        }
        let request = SearchRequest::new(*pos, self.limits)
            .with_egdb(self.egdb.clone())
            .with_history(history.to_vec());
        let result = Engine::new(16).search(&request, &self.stop, |_| {});
        let best = result
            .best_move
            .or_else(|| pos.legal_moves().first().copied());
        let mut line = result.pv;
        if line.first() != best.as_ref() {
            line = best.into_iter().collect();
        }
        line.truncate(REFUTATION_PLIES);
        Found {
            best,
            line,
            verdict: None,
            score: result.score,
        }
    }

    /// Whether playing `m` from `pos` keeps `goal` for the side to move, as far as the
    /// judge can tell: proven by the databases, or by the search (a win must be a
    /// forced one; a draw must not be a forced loss). With the position after it and
    /// the judge's findings there.
    pub(super) fn keeps(
        &self,
        pos: &Position,
        history: &[Position],
        m: &Move,
        goal: Goal,
    ) -> (bool, Found) {
        let after = pos.play_unchecked(m);
        let mut history = history.to_vec();
        history.push(*pos);
        let found = self.find(&after, &history);
        let keeps = match goal {
            Goal::Win => found.loses(),
            Goal::Draw => !found.wins(),
        };
        (keeps, found)
    }
}

/// A wrong move and why: the defender's answer and the line that shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Refutation {
    /// The wrong move, in notation.
    pub(crate) wrong: String,
    /// The defender's answer, in notation (`None`: the defender has no move, which
    /// happens only when the wrong move was good after all).
    pub(crate) answer: Option<String>,
    /// The line after the wrong move, the answer first.
    pub(crate) line: String,
    /// What the position after the wrong move is, in words, with who says it.
    pub(crate) result: String,
    /// What the defender makes of it: "Black wins", "Black draws", "Black holds as far
    /// as the engine sees".
    pub(crate) outcome: String,
    /// Whether the move is proven wrong (by the databases, the engine's forced win for
    /// the defender, or the puzzle's own proof of its only move); an unproven one (a
    /// slower win the engine cannot see to the end without the databases) is not
    /// counted as a wrong move.
    pub(crate) proven: bool,
}

impl Refutation {
    /// The refutation in a sentence: "After 19-16 12x19 Black wins: 12x19 (the
    /// databases: Black wins in 1 move)".
    pub(crate) fn sentence(&self) -> String {
        match &self.answer {
            Some(answer) => format!(
                "After {} {answer} {}: {} ({})",
                self.wrong, self.outcome, self.line, self.result
            ),
            None => format!("After {}: {}", self.wrong, self.result),
        }
    }
}

/// What the attempt says to a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The move keeps the goal: the defender's answer, if the puzzle goes on.
    Correct {
        /// The move, in notation.
        played: String,
        /// The defender's answer, in notation (`None` when the puzzle is solved).
        answer: Option<String>,
        /// Whether the puzzle is solved now.
        solved: bool,
    },
    /// The move loses the goal: its refutation. The position is as before the move.
    Wrong(Refutation),
    /// The move is not legal here: the reason. Nothing changes.
    Illegal(String),
    /// The attempt is over (solved, or the solution shown): nothing changes.
    Over,
}

/// One go at a puzzle.
#[derive(Clone, Debug)]
pub(crate) struct Attempt {
    /// The puzzle.
    pub(crate) puzzle: Puzzle,
    /// The moves made so far, the player's and the defender's, from the start.
    pub(crate) moves: Vec<Move>,
    /// Whether every move so far is the solution line's.
    on_line: bool,
    /// Wrong moves tried in this attempt.
    pub(crate) wrong_moves: u32,
    /// The last wrong move's refutation, until the next move.
    pub(crate) refutation: Option<Refutation>,
    /// Whether the puzzle is solved.
    pub(crate) solved: bool,
    /// Whether the solution was shown (the attempt then ends unsolved).
    pub(crate) shown: bool,
}

impl Attempt {
    /// A fresh attempt at `puzzle`.
    pub(crate) fn new(puzzle: &Puzzle) -> Attempt {
        Attempt {
            puzzle: puzzle.clone(),
            moves: Vec::new(),
            on_line: true,
            wrong_moves: 0,
            refutation: None,
            solved: false,
            shown: false,
        }
    }

    /// The positions from the start to the one now, in order.
    pub(crate) fn positions(&self) -> Vec<Position> {
        let mut positions = vec![self.puzzle.start];
        for m in &self.moves {
            let last = positions[positions.len() - 1];
            positions.push(last.play_unchecked(m));
        }
        positions
    }

    /// The position now.
    pub(crate) fn position(&self) -> Position {
        self.moves
            .iter()
            .fold(self.puzzle.start, |p, m| p.play_unchecked(m))
    }

    /// Whether the attempt is over: solved or given up with the solution shown.
    pub(crate) fn is_over(&self) -> bool {
        self.solved || self.shown
    }

    /// The player's moves made so far.
    pub(crate) fn player_moves(&self) -> usize {
        self.moves.len().div_ceil(2)
    }

    /// The moves so far, each capture by its route as the rest of the game gives it.
    pub(crate) fn moves_text(&self) -> String {
        route_line(&self.moves)
    }

    /// Plays the typed move `text` (see [`play`](Self::play)).
    pub(crate) fn play_text(&mut self, judge: &Judge, text: &str) -> Answer {
        if self.is_over() {
            return Answer::Over;
        }
        match self.position().parse_move(text) {
            Ok(m) => self.play(judge, &m),
            Err(e) => Answer::Illegal(format!("{}: {e}", text.trim())),
        }
    }

    /// The player plays `m`: if it keeps the goal, it stays on the board with the
    /// defender's answer (the solution line's while the player follows it, else the
    /// databases' or the engine's best); if not, the position stays as it was and the
    /// refutation says why. The puzzle is solved when the player has made as many good
    /// moves as the solution has, or the defender has no move left.
    pub(crate) fn play(&mut self, judge: &Judge, m: &Move) -> Answer {
        if self.is_over() {
            return Answer::Over;
        }
        let pos = self.position();
        if !pos.is_legal(m) {
            return Answer::Illegal(format!("{m} is not a legal move here"));
        }
        let ply = self.moves.len();
        let history = self.positions();
        let history = &history[..history.len() - 1];
        let line_move = self
            .on_line
            .then(|| self.puzzle.solution.get(ply))
            .flatten();
        // The first move of an only-move puzzle is the solution's: proven when the
        // puzzle was made, beyond what a search in play may see.
        let first_only = ply == 0 && self.puzzle.only_move;
        let (keeps, found) = if line_move == Some(m) {
            (true, None)
        } else if first_only && line_move.is_some() {
            let (_, found) = judge.keeps(&pos, history, m, self.puzzle.goal);
            (false, Some(found))
        } else {
            let (keeps, found) = judge.keeps(&pos, history, m, self.puzzle.goal);
            (keeps, Some(found))
        };
        // In a person's words: a multi-jump by its route (`15x22x29`).
        let played = m.to_string();
        self.refutation = None;
        if !keeps {
            let after = pos.play_unchecked(m);
            let found = found.unwrap_or_else(|| judge.find(&after, history));
            // A win needs a proof: without the databases the engine rarely sees a slow
            // one to its end, and a move it cannot judge is not called a mistake.
            let proven = first_only || found.verdict.is_some() || found.wins();
            let refutation = Refutation {
                wrong: played,
                answer: found.best.map(|b| b.to_string()),
                line: route_line(&found.line),
                result: found.words(&after),
                outcome: found.outcome(&after),
                proven,
            };
            if proven {
                self.wrong_moves += 1;
            }
            self.refutation = Some(refutation.clone());
            return Answer::Wrong(refutation);
        }
        self.on_line &= line_move == Some(m);
        self.moves.push(*m);
        let after = pos.play_unchecked(m);
        if self.player_moves() >= self.puzzle.moves_to_make() || after.legal_moves().is_empty() {
            self.solved = true;
            return Answer::Correct {
                played,
                answer: None,
                solved: true,
            };
        }
        let answer = match self.on_line.then(|| self.puzzle.solution.get(ply + 1)) {
            Some(Some(reply)) => *reply,
            _ => {
                self.on_line = false;
                let mut seen = history.to_vec();
                seen.push(pos);
                let found = found.unwrap_or_else(|| judge.find(&after, &seen));
                match found.best {
                    Some(best) => best,
                    None => {
                        self.solved = true;
                        return Answer::Correct {
                            played,
                            answer: None,
                            solved: true,
                        };
                    }
                }
            }
        };
        self.moves.push(answer);
        Answer::Correct {
            played,
            answer: Some(answer.to_string()),
            solved: false,
        }
    }

    /// Takes the defender's answer and the player's last move back, so the player can
    /// try another (after a retry is asked, the position is the one before the wrong
    /// move already: this steps back one more of the player's moves).
    pub(crate) fn take_back(&mut self) {
        if self.is_over() || self.moves.is_empty() {
            return;
        }
        let keep = (self.player_moves() - 1) * 2;
        self.moves.truncate(keep);
        self.on_line = self.puzzle.solution.starts_with(&self.moves);
        self.refutation = None;
    }

    /// Starts again from the puzzle's position (the counts of wrong moves stay).
    pub(crate) fn restart(&mut self) {
        self.moves.clear();
        self.on_line = true;
        self.refutation = None;
        self.solved = false;
        self.shown = false;
    }

    /// Gives up: the board shows the solution's end and the attempt is over.
    pub(crate) fn show_solution(&mut self) {
        if self.solved {
            return;
        }
        self.moves = self.puzzle.solution.clone();
        self.on_line = true;
        self.refutation = None;
        self.shown = true;
    }
}
