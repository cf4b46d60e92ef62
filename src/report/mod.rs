//! The game report: every move of a game scored by the engine (and, where they hold the
//! positions, by the endgame databases), the moves that gave something away marked as
//! inaccuracies, mistakes and blunders with the better move and its line, a summary for
//! each player, and the annotations written into PDN as comments and NAGs.
//!
//! The parts: [`judge`] searches the game's positions (at once for the command, or on a
//! thread of its own for the screen); this file turns those judgements into the
//! [`Report`] with no search of its own, so a fixed set of scores always gives the same
//! report; [`words`] says it as text; [`annotate`] writes the annotated PDN.
//!
//! # How a move is marked
//!
//! Each position is searched before its move; the move's score *before* is the
//! mover's score of that position, its score *after* the mover's score of the next one
//! (the search of it, seen from the other side). What a move *gave away* is before minus
//! after, in hundredths of a man, with both scores first held within
//! [`DECIDED`] (three men either way, forced wins and losses counting as that much):
//! beyond three men the game is decided, and a move that keeps it decided gives nothing
//! away. A move that is the search's own best move gives nothing away whatever the two
//! searches said. Then:
//!
//! | mark       | gave away        | NAG  |
//! |------------|------------------|------|
//! | inaccuracy | 0.3 men or more  | `$6` (dubious) |
//! | mistake    | 0.6 men or more  | `$2` |
//! | blunder    | 1.2 men or more  | `$4` |
//!
//! Where the databases hold the position before the move (and so the one after it),
//! their verdict decides instead, exactly: a move that turns a win into a draw or a
//! loss, or a draw into a loss, is a blunder whatever the search said, and a move that
//! keeps the verdict is never marked. A move is marked good (`$1`) only when the
//! databases prove it: the one move of several that keeps the win or the draw.

pub(crate) mod annotate;
pub(crate) mod judge;
pub(crate) mod words;

#[cfg(test)]
mod tests;

use crate::engine::Score;
use crate::engine::egdb::Verdict;
use crate::rules::{Color, Move, Position};

/// A score held within this many hundredths of a man either way (three men) before a
/// move's loss is counted: beyond it the game is decided.
pub(crate) const DECIDED: i32 = 300;
/// A move that gave away this many hundredths of a man or more is an inaccuracy.
pub(crate) const INACCURACY: i32 = 30;
/// ... a mistake.
pub(crate) const MISTAKE: i32 = 60;
/// ... a blunder.
pub(crate) const BLUNDER: i32 = 120;

/// What the search and the databases found in one position of the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Judgement {
    /// The score for the side to move (a game over is a loss in 0 for it).
    pub(crate) score: Score,
    /// The best line, its best move first; empty where the game is over.
    pub(crate) line: Vec<Move>,
    /// The depth the search completed (0 where the databases or the rules answered).
    pub(crate) depth: u32,
    /// The databases' verdict for the side to move, where they hold the position and no
    /// draw can be claimed in it.
    pub(crate) verdict: Option<Verdict>,
    /// Where the databases prove it: the one move of several that keeps the win or the
    /// draw.
    pub(crate) only_move: Option<Move>,
}

/// How a move is marked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Mark {
    /// The one move that keeps the result, proven by the databases.
    Good,
    /// Gave away [`INACCURACY`] or more.
    Inaccuracy,
    /// Gave away [`MISTAKE`] or more.
    Mistake,
    /// Gave away [`BLUNDER`] or more, or made the databases' verdict worse.
    Blunder,
}

impl Mark {
    /// The bad marks, worst last.
    pub(crate) const BAD: [Mark; 3] = [Mark::Inaccuracy, Mark::Mistake, Mark::Blunder];

    /// The PDN NAG that CheckerBoard reads: `$1` good, `$6` dubious, `$2` mistake,
    /// `$4` blunder.
    pub(crate) fn nag(self) -> &'static str {
        match self {
            Mark::Good => "$1",
            Mark::Inaccuracy => "$6",
            Mark::Mistake => "$2",
            Mark::Blunder => "$4",
        }
    }

    /// The mark as a move's suffix on screen: `!`, `?!`, `?`, `??`.
    pub(crate) fn symbol(self) -> &'static str {
        match self {
            Mark::Good => "!",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }

    /// The mark in a word: "good move", "inaccuracy", "mistake", "blunder".
    pub(crate) fn name(self) -> &'static str {
        match self {
            Mark::Good => "good move",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }

    /// The mark that giving away `loss` hundredths of a man earns, if any.
    pub(crate) fn for_loss(loss: i32) -> Option<Mark> {
        match loss {
            l if l >= BLUNDER => Some(Mark::Blunder),
            l if l >= MISTAKE => Some(Mark::Mistake),
            l if l >= INACCURACY => Some(Mark::Inaccuracy),
            _ => None,
        }
    }
}

/// A score as the report counts it: hundredths of a man held within [`DECIDED`], a
/// forced win or loss counting as that much.
pub(crate) fn held(score: Score) -> i32 {
    match score.centi_men() {
        Some(centi) => centi.clamp(-DECIDED, DECIDED),
        None if score.is_win() => DECIDED,
        None => -DECIDED,
    }
}

/// One move of the game as the report sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ScoredMove {
    /// The position it was played in.
    pub(crate) position: Position,
    /// The move.
    pub(crate) played: Move,
    /// The mover's score before it (the search of `position`).
    pub(crate) before: Score,
    /// The mover's score after it (the search of the next position, seen from the mover).
    pub(crate) after: Score,
    /// Hundredths of a man it gave away (see the [module documentation](self)).
    pub(crate) loss: i32,
    /// The databases' verdicts for the mover before and after it, where they hold both.
    pub(crate) exact: Option<(Verdict, Verdict)>,
    /// Its mark, if any.
    pub(crate) mark: Option<Mark>,
    /// For a bad mark: the better move, then its line.
    pub(crate) better: Vec<Move>,
}

/// A verdict's class for its player: a loss, a draw or a win, worst first.
fn verdict_class(verdict: Verdict) -> i8 {
    match verdict {
        Verdict::Loss(_) => -1,
        Verdict::Draw => 0,
        Verdict::Win(_) => 1,
    }
}

/// What one player did in the game: the moves marked each way and the average given away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Summary {
    /// Moves the player made that the report scored.
    pub(crate) moves: usize,
    /// Proven good moves.
    pub(crate) good: usize,
    /// Inaccuracies.
    pub(crate) inaccuracies: usize,
    /// Mistakes.
    pub(crate) mistakes: usize,
    /// Blunders.
    pub(crate) blunders: usize,
    /// Hundredths of a man given away, all moves together.
    pub(crate) total_loss: i64,
}

impl Summary {
    /// How many moves have `mark`.
    pub(crate) fn count(&self, mark: Mark) -> usize {
        match mark {
            Mark::Good => self.good,
            Mark::Inaccuracy => self.inaccuracies,
            Mark::Mistake => self.mistakes,
            Mark::Blunder => self.blunders,
        }
    }

    /// The average given away per move, in men (0 with no move).
    pub(crate) fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.total_loss as f64 / self.moves as f64 / 100.0
        }
    }
}

/// The report of a game. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Report {
    /// The game's start.
    pub(crate) start: Position,
    /// The moves scored so far, in order (all of them once the scoring is done).
    pub(crate) moves: Vec<ScoredMove>,
    /// The score of each position judged, from Black's side, in hundredths of a man
    /// held within [`DECIDED`]: the graph's points (one more than the moves when the
    /// last position is judged too).
    pub(crate) graph: Vec<i32>,
    /// The moves of the game (scored or not yet).
    pub(crate) total: usize,
    /// Black's and White's summaries.
    pub(crate) summaries: [Summary; 2],
}

impl Report {
    /// The report of the game from `start` with `moves`, from the judgements of its
    /// positions in order (the start first); with fewer judgements than positions, the
    /// moves so far (a move is scored once the positions before and after it are).
    pub(crate) fn new(start: Position, moves: &[Move], judged: &[Judgement]) -> Report {
        let mut scored = Vec::new();
        let mut graph = Vec::new();
        let mut summaries = [Summary::default(); 2];
        let mut pos = start;
        for (ply, judgement) in judged.iter().enumerate().take(moves.len() + 1) {
            let black = match pos.turn() {
                Color::Black => judgement.score,
                Color::White => judgement.score.flip(),
            };
            graph.push(held(black));
            let (Some(m), Some(next)) = (moves.get(ply), judged.get(ply + 1)) else {
                break;
            };
            let one = score_move(pos, *m, judgement, next);
            let summary = &mut summaries[usize::from(pos.turn() == Color::White)];
            summary.moves += 1;
            summary.total_loss += i64::from(one.loss);
            match one.mark {
                Some(Mark::Good) => summary.good += 1,
                Some(Mark::Inaccuracy) => summary.inaccuracies += 1,
                Some(Mark::Mistake) => summary.mistakes += 1,
                Some(Mark::Blunder) => summary.blunders += 1,
                None => {}
            }
            pos = pos.play_unchecked(m);
            scored.push(one);
        }
        Report {
            start,
            moves: scored,
            graph,
            total: moves.len(),
            summaries,
        }
    }

    /// `color`'s summary.
    pub(crate) fn summary(&self, color: Color) -> &Summary {
        &self.summaries[usize::from(color == Color::White)]
    }

    /// Whether every move is scored.
    pub(crate) fn is_complete(&self) -> bool {
        self.moves.len() == self.total
    }

    /// The moves with a mark, with their index in the game (plies from the start).
    pub(crate) fn marked(&self) -> impl Iterator<Item = (usize, &ScoredMove)> {
        self.moves
            .iter()
            .enumerate()
            .filter(|(_, m)| m.mark.is_some())
    }
}

/// Scores `played` in `pos`, judged `before`, the next position judged `next`.
fn score_move(pos: Position, played: Move, before: &Judgement, next: &Judgement) -> ScoredMove {
    let after = next.score.flip();
    let best = before.line.first().copied();
    let loss = if best == Some(played) {
        0
    } else {
        (held(before.score) - held(after)).max(0)
    };
    let exact = before
        .verdict
        .zip(next.verdict)
        .map(|(was, now)| (was, now.before_move()));
    let mark = match exact {
        Some((was, now)) if verdict_class(now) < verdict_class(was) => Some(Mark::Blunder),
        Some(_) if before.only_move == Some(played) => Some(Mark::Good),
        Some(_) => None,
        None => Mark::for_loss(loss),
    };
    let better = match mark {
        Some(Mark::Good) | None => Vec::new(),
        Some(_) => before.line.clone(),
    };
    ScoredMove {
        position: pos,
        played,
        before: before.score,
        after,
        loss,
        exact,
        mark,
        better,
    }
}
