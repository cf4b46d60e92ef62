//! `checkers-lab book`: the opening book built from deep searches of every ballot and
//! of the positions games reach most often.

use super::{LabError, cli::BookBuildArgs};
use crate::engine::book::BookEntry;
use crate::engine::{Engine, Limits, SearchRequest, StopFlag, acf_openings};
use crate::rules::{Move, Position};
use crate::store::files::{check_replaceable, write_atomic};
use std::collections::HashMap;
use std::io::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The positions to search: each ballot's, and those the games reach in their first
/// `plies` plies at least `min_games` times, with the moves the games played there.
fn collect(args: &BookBuildArgs) -> Result<HashMap<Position, HashMap<Move, u32>>, LabError> {
    let mut positions: HashMap<Position, HashMap<Move, u32>> = HashMap::new();
    let mut reached: HashMap<Position, u32> = HashMap::new();
    for path in &args.pdn {
        let games = crate::store::file_games(path)
            .map_err(|e| LabError::DataFile(path.clone(), e.to_string()))?;
        for game in games.flatten() {
            let mut pos = game.start;
            for m in game.moves.iter().take(args.plies) {
                *reached.entry(pos).or_default() += 1;
                *positions.entry(pos).or_default().entry(*m).or_default() += 1;
                pos = pos.play_unchecked(m);
            }
        }
    }
    positions.retain(|pos, _| reached.get(pos).is_some_and(|&n| n >= args.min_games));
    for opening in acf_openings().iter().filter(|o| !o.is_barred()) {
        positions.entry(opening.position()).or_default();
    }
    Ok(positions)
}

/// Runs `checkers-lab book`: every position searched on every core, a progress bar,
/// the book file written whole.
pub(crate) fn run(args: &BookBuildArgs, out: &mut impl Write) -> Result<(), LabError> {
    // A FIFO or a device as --out is refused before the searches, not after.
    check_replaceable(&args.out)
        .map_err(|e| LabError::DataFile(args.out.clone(), e.to_string()))?;
    let positions: Vec<(Position, HashMap<Move, u32>)> = collect(args)?.into_iter().collect();
    // Positions with one legal move need no book.
    let positions: Vec<_> = positions
        .into_iter()
        .filter(|(p, _)| p.count_moves() > 1)
        .collect();
    writeln!(
        out,
        "{} positions to search, {} ms each",
        positions.len(),
        args.movetime.as_millis()
    )?;
    let bar = crate::commands::progress_bar(
        positions.len() as u64,
        "book [{bar:30}] {pos}/{len} positions (elapsed {elapsed}, left {eta})",
    );
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let next = AtomicUsize::new(0);
    let entries = Mutex::new(Vec::with_capacity(positions.len()));
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| {
                let mut engine = Engine::new(64);
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((pos, played)) = positions.get(i) else {
                        break;
                    };
                    engine.clear();
                    let limits = Limits {
                        movetime: Some(args.movetime),
                        ..Limits::infinite()
                    };
                    let request = SearchRequest::new(*pos, limits);
                    let result = engine.search(&request, &StopFlag::new(), |_| {});
                    if let Some(best) = result.best_move {
                        let mut played: Vec<(Move, u32)> =
                            played.iter().map(|(m, n)| (*m, *n)).collect();
                        played.sort_by(|a, b| {
                            b.1.cmp(&a.1)
                                .then(pos.notation(&a.0).cmp(&pos.notation(&b.0)))
                        });
                        let entry = BookEntry {
                            position: *pos,
                            best,
                            score: result.score.0,
                            depth: result.depth,
                            played,
                        };
                        if let Ok(mut list) = entries.lock() {
                            list.push(entry);
                        }
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let mut lines: Vec<String> = entries
        .into_inner()
        .unwrap_or_default()
        .iter()
        .map(BookEntry::to_line)
        .collect();
    lines.sort();
    let mut text = String::from(
        "# The opening book: made by `checkers book build` (see src/engine/book.rs).\n",
    );
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    write_atomic(&args.out, text.as_bytes())
        .map_err(|e| LabError::DataFile(args.out.clone(), e.to_string()))?;
    writeln!(
        out,
        "{} positions written to {}",
        lines.len(),
        crate::text::printable_path(&args.out)
    )?;
    Ok(())
}
