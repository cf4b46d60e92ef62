//! `checkers analyse`: search a position and report each completed depth, with the
//! endgame databases of the data folder when there are any.

use super::CommandError;
use crate::cli::AnalyseArgs;
use crate::engine::egdb::Egdb;
use crate::engine::{Engine, Limits, SearchRequest, StopFlag, line_notation};
use crate::rules::{Outcome, Position, WinReason};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// How long `analyse` searches when given neither `--depth` nor `--movetime`.
pub const DEFAULT_MOVETIME: Duration = Duration::from_millis(3000);

/// The search limits of `args`: `--depth`, else `--movetime`, else
/// [`DEFAULT_MOVETIME`].
pub fn limits(args: &AnalyseArgs) -> Limits {
    match (args.depth, args.movetime) {
        (Some(depth), _) => Limits::depth(depth),
        (None, movetime) => Limits {
            movetime: Some(movetime.unwrap_or(DEFAULT_MOVETIME)),
            ..Limits::infinite()
        },
    }
}

/// Runs `checkers analyse`: in a position the endgame databases hold, first `database:
/// White wins in 23 moves` (or `drawn`); then one line per completed depth (depth,
/// score, nodes, nodes per second, time, principal variation), then `bestmove MOVE`. A
/// position with no legal move is an error naming the outcome. A damaged database file
/// is named on a `warning:` line and left out.
pub fn run(args: &AnalyseArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let pos = args.fen.unwrap_or_else(Position::start);
    if let Some(outcome) = pos.outcome() {
        return Err(CommandError::GameOver(outcome));
    }
    let mut engine = Engine::new(args.hash);
    let egdb = match crate::store::egdb_dir() {
        Some(dir) if dir.exists() => {
            let (db, problems) = Egdb::open(&dir);
            for problem in problems {
                writeln!(out, "warning: endgame database left out: {problem}")?;
            }
            (db.slices() > 0).then(|| Arc::new(db))
        }
        _ => None,
    };
    if let Some(verdict) = egdb.as_ref().and_then(|db| db.probe(&pos)) {
        writeln!(out, "database: {}", verdict.describe(pos.turn()))?;
    }
    let request = SearchRequest::new(pos, limits(args))
        .with_egdb(egdb)
        .with_evaluation(args.eval.map(Into::into).unwrap_or_default());
    let mut written = Ok(());
    let result = engine.search(&request, &StopFlag::new(), |info| {
        if written.is_ok() {
            written = writeln!(
                out,
                "depth {} score {} nodes {} nps {} time {} ms pv {}",
                info.depth,
                info.score,
                info.nodes,
                info.nodes_per_second(),
                info.elapsed.as_millis(),
                line_notation(&pos, &info.pv)
            );
        }
    });
    written?;
    let Some(best) = result.best_move else {
        // Unreachable: a position with no legal move was refused above.
        return Err(CommandError::GameOver(pos.outcome().unwrap_or(
            Outcome::Win {
                winner: !pos.turn(),
                reason: WinReason::NoMoves,
            },
        )));
    };
    if result.depth == 0 {
        writeln!(out, "only move {}", pos.notation(&best))?;
    }
    writeln!(out, "bestmove {}", pos.notation(&best))?;
    Ok(())
}
