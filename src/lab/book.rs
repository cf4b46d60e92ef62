//! `checkers-lab book`: the opening book built from deep searches of every ballot and
//! of the positions games reach most often, then grown by dropout expansion (as
//! KingsRow's book is): from each playable ballot, the positions that play near the
//! best reaches are searched, cheapest first, where a position's cost is what the moves
//! of its line gave up against the best (each at most `--margin`) plus `--ply-cost` a
//! ply.

use super::error::{io_why, store_why};
use super::interrupt::Interrupt;
use super::{LabError, cli::BookBuildArgs};
use crate::engine::book::BookEntry;
use crate::engine::{Engine, Limits, SearchRequest, acf_openings};
use crate::rules::{Move, Position};
use crate::store::files::{check_replaceable, write_atomic};
use std::cmp::Reverse;
use std::collections::hash_map::Entry;
use std::collections::{BinaryHeap, HashMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The positions to search: each ballot's, and those the games reach in their first
/// `plies` plies at least `min_games` times, with the moves the games played there.
fn collect(args: &BookBuildArgs) -> Result<HashMap<Position, HashMap<Move, u32>>, LabError> {
    let mut positions: HashMap<Position, HashMap<Move, u32>> = HashMap::new();
    let mut reached: HashMap<Position, u32> = HashMap::new();
    for path in &args.pdn {
        let games = crate::store::file_games(path)
            .map_err(|e| LabError::DataFile("--pdn", path.clone(), store_why(path, &e)))?;
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

/// The most bytes a `--from` book file is read to: far above any book built (the
/// program's own is well under a megabyte), so a wrong file is refused, not read whole.
const MAX_BOOK_BYTES: u64 = 1 << 30;

/// The entries of a book file (`.zst`: compressed with zstd). Only a regular file is
/// opened: a FIFO named by mistake is refused, not waited on forever, and a folder is
/// said to be one.
fn read_book(path: &Path) -> Result<Vec<BookEntry>, LabError> {
    let fail = |e: String| LabError::DataFile("--from", path.to_path_buf(), e);
    let bytes =
        crate::store::files::read_bounded(path, MAX_BOOK_BYTES).map_err(|e| fail(io_why(&e)))?;
    let bytes = if path.extension().is_some_and(|e| e == "zst") {
        zstd::stream::decode_all(bytes.as_slice()).map_err(|e| fail(e.to_string()))?
    } else {
        bytes
    };
    let text = String::from_utf8(bytes).map_err(|_| fail("not UTF-8 text".to_string()))?;
    let book = crate::engine::book::Book::parse(&text).map_err(|e| fail(e.to_string()))?;
    Ok(book.into_entries())
}

/// Searches `pos` as the book does: `lines` best moves (multi-PV), for `movetime`.
/// None when the position has no move or an interrupt cut the search short (a
/// shallow search has no place in the book).
fn search_entry(
    engine: &mut Engine,
    pos: &Position,
    played: &HashMap<Move, u32>,
    args: &BookBuildArgs,
    lines: usize,
    interrupt: &Interrupt,
) -> Option<(BookEntry, Vec<(Move, i32)>)> {
    engine.clear();
    let limits = Limits {
        movetime: Some(args.movetime),
        ..Limits::infinite()
    };
    let request = SearchRequest {
        lines,
        ..SearchRequest::new(*pos, limits)
    };
    let result = engine.search(&request, interrupt.stop_flag(), |_| {});
    if interrupt.is_raised() {
        return None;
    }
    let best = result.best_move?;
    let mut played: Vec<(Move, u32)> = played.iter().map(|(m, n)| (*m, *n)).collect();
    played.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(pos.notation(&a.0).cmp(&pos.notation(&b.0)))
    });
    let alternatives = result
        .lines
        .iter()
        .filter_map(|line| Some((*line.pv.first()?, line.score.0)))
        .collect();
    let entry = BookEntry {
        position: *pos,
        best,
        score: result.score.0,
        depth: result.depth,
        played,
    };
    Some((entry, alternatives))
}

/// Runs `checkers-lab book`: every position searched on every core, a progress bar,
/// then the dropout expansion (one search at a time, its own progress bar), the book
/// file written whole. Ctrl-C stops the searches and writes the book so far, to go on
/// from with `--from`.
pub(crate) fn run(args: &BookBuildArgs, out: &mut impl Write) -> Result<(), LabError> {
    build(args, &Interrupt::watch("writing the book so far"), out)
}

/// Builds the book as [`run`] says, until the `interrupt`.
pub(crate) fn build(
    args: &BookBuildArgs,
    interrupt: &Interrupt,
    out: &mut impl Write,
) -> Result<(), LabError> {
    // A FIFO or a device as --out is refused before the searches, not after, and so is
    // a file that is there already (but the book --from grows).
    check_replaceable(&args.out)
        .map_err(|e| LabError::DataFile("--out", args.out.clone(), io_why(&e)))?;
    super::train::refuse_existing_out(&args.out, args.from.as_deref())?;
    super::train::refuse_missing_folder("--out", &args.out)?;
    let mut book: HashMap<Position, BookEntry> = HashMap::new();
    if let Some(from) = &args.from {
        for entry in read_book(from)? {
            book.insert(entry.position, entry);
        }
        writeln!(
            out,
            "{} positions read from {}",
            book.len(),
            crate::text::printable_path(from)
        )?;
    }
    let collected = collect(args)?;
    // Positions with one legal move need no book; those of --from are kept (with the
    // games' counts of moves where --pdn gives some).
    let mut positions = Vec::new();
    for (pos, played) in collected {
        if pos.count_moves() <= 1 {
            continue;
        }
        match book.get_mut(&pos) {
            Some(_) if played.is_empty() => {}
            Some(entry) => {
                entry.played = played.into_iter().collect();
                let pos = entry.position;
                entry.played.sort_by(|a, b| {
                    b.1.cmp(&a.1)
                        .then(pos.notation(&a.0).cmp(&pos.notation(&b.0)))
                });
            }
            None => positions.push((pos, played)),
        }
    }
    writeln!(
        out,
        "{} positions to search, {} ms each",
        positions.len(),
        args.movetime.as_millis()
    )?;
    let bar = crate::commands::progress_bar(
        positions.len() as u64,
        "book [{wide_bar}] {pos}/{len} positions (elapsed {elapsed}, left {eta})",
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
                while !interrupt.is_raised() {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some((pos, played)) = positions.get(i) else {
                        break;
                    };
                    if let Some((entry, _)) =
                        search_entry(&mut engine, pos, played, args, 1, interrupt)
                        && let Ok(mut list) = entries.lock()
                    {
                        list.push(entry);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let entries = entries.into_inner().unwrap_or_default();
    let searched = entries.len();
    for entry in entries {
        book.insert(entry.position, entry);
    }
    let mut expanded = 0;
    if args.expand > 0 && !interrupt.is_raised() {
        let before = book.len();
        expand(args, &mut book, interrupt);
        expanded = book.len() - before;
        writeln!(
            out,
            "dropout expansion: {expanded} positions searched, {} ms each, {} lines",
            args.movetime.as_millis(),
            args.lines
        )?;
    }
    let out_name = crate::text::printable_path(&args.out);
    if interrupt.is_raised() && book.is_empty() {
        return Err(LabError::Interrupted(format!(
            "no position was searched: nothing written to {out_name}"
        )));
    }
    write_book(args, &book)?;
    writeln!(out, "{} positions written to {out_name}", book.len())?;
    if interrupt.is_raised() {
        let expand_left = if expanded < args.expand && searched == positions.len() {
            format!(" --expand {}", args.expand - expanded)
        } else if args.expand > 0 {
            format!(" --expand {}", args.expand)
        } else {
            String::new()
        };
        return Err(LabError::Interrupted(format!(
            "{searched} of {} positions and {expanded} of {} of dropout expansion searched; \
             the book so far is in {out_name}: go on with --from {out_name}{expand_left} \
             (its positions are not searched again)",
            positions.len(),
            args.expand
        )));
    }
    Ok(())
}

/// Dropout expansion: from every playable ballot's position, the positions reached by
/// the moves within `--margin` of the best, cheapest first, until `--expand` new
/// positions have been searched. A position of the book already goes on by its best
/// move (and by the alternatives its search scored, when this run searched it); a
/// position with one legal move is passed through unsearched.
/// An `interrupt` stops it, the search in progress left out.
fn expand(args: &BookBuildArgs, book: &mut HashMap<Position, BookEntry>, interrupt: &Interrupt) {
    let bar = crate::commands::progress_bar(
        args.expand as u64,
        "dropout [{wide_bar}] {pos}/{len} positions (elapsed {elapsed}, left {eta})",
    );
    let mut engine = Engine::new(64);
    let mut alternatives: HashMap<Position, Vec<(Move, i32)>> = HashMap::new();
    let mut frontier = Frontier::default();
    for opening in acf_openings().iter().filter(|o| !o.is_barred()) {
        frontier.push(0, opening.position());
    }
    let mut seen: HashSet<Position> = HashSet::new();
    let mut searched = 0;
    let none = HashMap::new();
    while let Some((cost, pos)) = frontier.pop() {
        if !seen.insert(pos) {
            continue;
        }
        let moves = pos.legal_moves();
        if moves.len() == 1 {
            frontier.push(cost + args.ply_cost, pos.play_unchecked(&moves[0]));
            continue;
        }
        if moves.is_empty() {
            continue;
        }
        if let Entry::Vacant(slot) = book.entry(pos) {
            if searched == args.expand || interrupt.is_raised() {
                break;
            }
            searched += 1;
            bar.inc(1);
            let Some((entry, lines)) =
                search_entry(&mut engine, &pos, &none, args, args.lines, interrupt)
            else {
                continue;
            };
            slot.insert(entry);
            alternatives.insert(pos, lines);
        }
        let Some(entry) = book.get(&pos) else {
            continue;
        };
        let best = entry.best;
        frontier.push(cost + args.ply_cost, pos.play_unchecked(&best));
        for &(m, score) in alternatives.get(&pos).map_or(&[][..], Vec::as_slice) {
            let behind = entry.score - score;
            if m != best && (0..=args.margin).contains(&behind) {
                frontier.push(cost + behind + args.ply_cost, pos.play_unchecked(&m));
            }
        }
    }
    bar.finish_and_clear();
}

/// The positions dropout expansion may search next, cheapest first (then in the order
/// they were found, so that runs repeat).
#[derive(Default)]
struct Frontier {
    /// Cost and index into `found`.
    queue: BinaryHeap<Reverse<(i32, usize)>>,
    /// Every position pushed, in order.
    found: Vec<Position>,
}

impl Frontier {
    /// Adds `pos` at `cost`.
    fn push(&mut self, cost: i32, pos: Position) {
        self.found.push(pos);
        self.queue.push(Reverse((cost, self.found.len() - 1)));
    }

    /// The cheapest position and its cost.
    fn pop(&mut self) -> Option<(i32, Position)> {
        let Reverse((cost, index)) = self.queue.pop()?;
        Some((cost, self.found[index]))
    }
}

/// Writes the book file, its lines sorted (compressed when `--out` ends in `.zst`).
fn write_book(args: &BookBuildArgs, book: &HashMap<Position, BookEntry>) -> Result<(), LabError> {
    let fail = |e: String| LabError::DataFile("--out", args.out.clone(), e);
    let mut lines: Vec<String> = book.values().map(BookEntry::to_line).collect();
    lines.sort();
    let mut text =
        String::from("# The opening book: made by `checkers-lab book` (see src/engine/book.rs).\n");
    for line in &lines {
        text.push_str(line);
        text.push('\n');
    }
    let bytes = if args.out.extension().is_some_and(|e| e == "zst") {
        zstd::bulk::compress(text.as_bytes(), 19).map_err(|e| fail(e.to_string()))?
    } else {
        text.into_bytes()
    };
    write_atomic(&args.out, &bytes).map_err(|e| fail(e.to_string()))
}
