//! Proving a puzzle: the databases' verdict of every move where they hold the position,
//! else the two best moves of a fixed-depth search (single-threaded, a fresh table, so
//! the result repeats exactly). The tests and `checkers-lab puzzles` use it.

use super::{Goal, Puzzle};
use crate::engine::egdb::{Egdb, Verdict};
use crate::engine::{Engine, Limits, SearchLine, SearchRequest, StopFlag, line_notation};
use crate::rules::Position;
use std::sync::Arc;

/// The two best lines of `pos` at `depth` with `egdb`: single-threaded, a fresh
/// 16 MB table, so a test repeats it exactly.
pub(crate) fn two_best(pos: &Position, depth: u32, egdb: Option<Arc<Egdb>>) -> Vec<SearchLine> {
    let request = SearchRequest::new(*pos, Limits::depth(depth))
        .with_egdb(egdb)
        .with_lines(2);
    Engine::new(16)
        .search(&request, &StopFlag::new(), |_| {})
        .lines
}

/// The proof of `puzzle` in words, "FAILED: ..." when it does not hold.
pub(crate) fn proof(puzzle: &Puzzle, depth: u32, db: &Arc<Egdb>) -> String {
    let pos = puzzle.start;
    let key = puzzle.solution[0];
    if let Some(moves) = db.moves(&pos) {
        let good = |v: &Verdict| match puzzle.goal {
            Goal::Win => matches!(v, Verdict::Win(_)),
            Goal::Draw => !matches!(v, Verdict::Loss(_)),
        };
        let keeping: Vec<_> = moves.iter().filter(|(_, v)| good(v)).collect();
        let key_ok = keeping.iter().any(|(m, _)| *m == key);
        let only_ok = !puzzle.only_move || keeping.len() == 1;
        let verdict = db
            .probe(&pos)
            .map(|v| v.describe(pos.turn()))
            .unwrap_or_default();
        return if key_ok && only_ok {
            format!(
                "databases: {verdict}; {} of {} moves keep it",
                keeping.len(),
                moves.len()
            )
        } else {
            format!("FAILED databases: {verdict}; keeping {}", keeping.len())
        };
    }
    let lines = two_best(&pos, depth, Some(db.clone()));
    let (Some(best), second) = (lines.first(), lines.get(1)) else {
        return "FAILED: no line".to_string();
    };
    let best_ok = best.pv[0] == key
        && match puzzle.goal {
            Goal::Win => best.score.is_win(),
            Goal::Draw => !best.score.is_loss(),
        };
    let only_ok = !puzzle.only_move
        || second.is_none_or(|s| match puzzle.goal {
            Goal::Win => !s.score.is_win(),
            Goal::Draw => s.score.is_loss(),
        });
    let words = format!(
        "search depth {depth}: {} {}, next {}",
        line_notation(&pos, &best.pv[..1]),
        best.score,
        second.map_or("none".to_string(), |s| s.score.to_string())
    );
    if best_ok && only_ok {
        words
    } else {
        format!("FAILED {words}")
    }
}
