//! Building the tables by retrograde analysis.
//!
//! Slices are built in the order of [`Signature::all`]: fewer pieces first (a capture
//! removes one), then fewer men (a crowning turns a man into a king). A signature is
//! built together with its mirror (the same positions with White to move). Inside that
//! pair, sub-slices (see [`index`](super::index)) are solved most advanced first, each
//! with its mirror sub-slice as one *unit*:
//!
//! 1. Every position of the unit generates its legal moves. A move that leaves the unit
//!    (a capture, a crowning, a leading man's advance) reaches a solved position whose
//!    value is read; moves inside the unit are counted.
//! 2. Positions are then resolved in order of distance, from the positions with no move
//!    (lost, distance 0) outward: a position with a move to a loss at distance `d` is a
//!    win at `d + 1`; a position whose every move reaches a win is a loss, one ply
//!    beyond the longest of those wins. Predecessors inside the unit are found by
//!    unmaking steps (a step is legal only where its side has no capture).
//! 3. What is never resolved is a draw.
//!
//! Distances are plies to the end of the game (the side to move having no move), so a
//! win in the database is the shortest win and a loss the longest resistance.
//!
//! A finished pair is written to its files at once; a build that is started again skips
//! every slice whose file is present and sound.

use super::file::{self, SliceStats};
use super::index::{Layout, Signature, canonical};
use super::{Egdb, EgdbError, slot};
use crate::rules::{Bitboard, Color, Move, Position, Square};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What to build, where, with how many threads.
#[derive(Clone, Debug)]
pub(crate) struct BuildOptions {
    /// The folder the slice files go to (created if missing).
    pub(crate) dir: PathBuf,
    /// Build every slice of up to this many pieces (2-6).
    pub(crate) max_pieces: u32,
    /// Threads for the move generation of each unit (1 or more).
    pub(crate) threads: usize,
}

/// How far a build has come, for a progress bar.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BuildProgress {
    /// The slice being built (with its mirror).
    pub(crate) slice: Signature,
    /// Its number among all the slices of up to the pieces asked for, from 1: one more
    /// than the slices already on disk, counted as an interrupted build counts what it
    /// keeps (a pair is two slices, a mirror one).
    pub(crate) slice_number: usize,
    /// All the slices of up to the pieces asked for, those already on disk included.
    pub(crate) slices: usize,
    /// Positions built so far in this run (indices of the tables).
    pub(crate) done: u64,
    /// Positions to build in this run.
    pub(crate) total: u64,
}

/// What a build did.
#[derive(Clone, Debug, Default)]
pub(crate) struct BuildReport {
    /// Slices built now, with their counts and the time each pair took.
    pub(crate) built: Vec<(Signature, SliceStats, Duration)>,
    /// Slices found already built (never built twice).
    pub(crate) present: Vec<Signature>,
    /// Damaged slice files that were rebuilt, with what was wrong.
    pub(crate) rebuilt: Vec<String>,
    /// The whole build's time.
    pub(crate) elapsed: Duration,
}

/// The solved tables a build (or a check) reads, decompressed, by signature slot.
pub(crate) struct Solved {
    tables: Vec<Option<(Layout, Arc<Vec<u8>>)>>,
}

impl Solved {
    pub(crate) fn new() -> Solved {
        Solved {
            tables: (0..super::SLOTS).map(|_| None).collect(),
        }
    }

    pub(crate) fn insert(&mut self, sig: Signature, values: Arc<Vec<u8>>) {
        self.tables[slot(sig)] = Some((Layout::new(sig), values));
    }

    /// The stored byte of `c` (Black to move, both sides with a piece).
    #[inline]
    pub(crate) fn code(&self, c: &Position) -> Result<u8, EgdbError> {
        let sig = Signature::of(c);
        let (layout, values) = self
            .tables
            .get(slot(sig))
            .and_then(Option::as_ref)
            .ok_or(EgdbError::MissingSlice(sig))?;
        let (index, _) = layout.index(c);
        Ok(values[index as usize])
    }
}

/// Builds every missing slice of up to `options.max_pieces` pieces into `options.dir`,
/// calling `progress` as it goes; each finished slice is also added to `egdb`, if
/// given, so that it can be probed at once.
pub(crate) fn build(
    options: &BuildOptions,
    egdb: Option<&Egdb>,
    mut progress: impl FnMut(&BuildProgress),
) -> Result<BuildReport, EgdbError> {
    let started = Instant::now();
    let _building = lock_folder(&options.dir)?;
    // What builds killed mid-write left: `.SLICE.egdb.PID-RANDOM.tmp`.
    crate::store::files::remove_stale_temp_files(&options.dir, None);
    let mut report = BuildReport::default();
    let mut solved = Solved::new();
    let all = Signature::all(options.max_pieces);
    // Which pairs need building: a slice whose file is present and sound is loaded.
    let mut todo = Vec::new();
    for &sig in &all {
        let mirror = sig.mirror();
        if mirror < sig {
            continue; // built with its mirror
        }
        let mut missing = false;
        for s in [sig, mirror] {
            let path = file::path(&options.dir, s);
            if !path.exists() {
                missing = true;
                continue;
            }
            match file::read(&path, s).and_then(|f| f.decompress_all()) {
                Ok(values) => {
                    solved.insert(s, Arc::new(values));
                    report.present.push(s);
                }
                Err(e) => {
                    report.rebuilt.push(e.to_string());
                    missing = true;
                }
            }
        }
        if missing {
            todo.push(sig);
        }
    }
    // A pair is solved whole, but a file that is present and sound is not rewritten.
    let present: Vec<Signature> = report.present.clone();
    report.present.sort();
    report.present.dedup();
    let size = |s: Signature| {
        let mut n = Layout::new(s).size;
        if s.mirror() != s {
            n += Layout::new(s.mirror()).size;
        }
        n
    };
    let total: u64 = todo.iter().map(|&s| size(s)).sum();
    let mut done = 0;
    // Slices on disk, sound: those found, then each one written.
    let mut kept = report.present.len();
    for &sig in &todo {
        let pair_started = Instant::now();
        let mut state = BuildProgress {
            slice: sig,
            slice_number: kept + 1,
            slices: all.len(),
            done,
            total,
        };
        progress(&state);
        let tables = solve_pair(sig, &solved, options.threads.max(1), |d| {
            state.done = done + d;
            progress(&state);
        })?;
        done += size(sig);
        for (s, values, stats) in tables {
            if !present.contains(&s) {
                file::write(&options.dir, s, &values, &stats)?;
                kept += 1;
                report.built.push((s, stats, pair_started.elapsed()));
            }
            if let Some(egdb) = egdb {
                egdb.load_slice(s)?;
            }
            solved.insert(s, Arc::new(values));
        }
    }
    report.elapsed = started.elapsed();
    Ok(report)
}

/// The lock file a build holds in its folder.
pub(crate) const BUILD_LOCK: &str = ".build.lock";

/// Makes the folder `dir` if need be and takes its build lock, held for as long as the
/// value lives: one build at a time in a folder, and a folder that cannot be written is
/// refused at once, before any slice is solved.
pub(crate) fn lock_folder(dir: &Path) -> Result<crate::store::games::Lock, EgdbError> {
    let in_folder = |error| EgdbError::Io {
        path: dir.to_path_buf(),
        error,
    };
    crate::store::files::create_folder(dir).map_err(in_folder)?;
    crate::store::games::Lock::take(&dir.join(BUILD_LOCK))
        .map_err(in_folder)?
        .ok_or_else(|| EgdbError::BuildRunning(dir.to_path_buf()))
}

/// `NEIGHBOURS[sq][d]`: the square one step from `sq` in direction `d` (up-right,
/// up-left, down-right, down-left on the diagram, "up" toward 32), if on the board.
const NEIGHBOURS: [[Option<Square>; 4]; 32] = {
    let mut t = [[None; 4]; 32];
    let deltas: [(i8, i8); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
    let mut i = 0;
    while i < 32 {
        let sq = Square::from_index(i as u8);
        let mut d = 0;
        while d < 4 {
            let r = sq.row() as i8 + deltas[d].0;
            let c = sq.col() as i8 + deltas[d].1;
            if r >= 0 && r < 8 && c >= 0 && c < 8 {
                t[i][d] = Square::from_row_col(r as u8, c as u8);
            }
            d += 1;
        }
        i += 1;
    }
    t
};

/// The positions with White to move from which a White step (not a capture, not a
/// crowning) leads to `pos` (Black to move).
fn unmake_white_steps(pos: &Position, out: &mut Vec<Position>) {
    out.clear();
    let white = pos.side(Color::White);
    let black = pos.side(Color::Black);
    let kings = pos.kings();
    let empty = !pos.occupied();
    for to in white {
        let king = kings.contains(to);
        // A White man steps down the board, so it came from above; a king from anywhere.
        let dirs: &[usize] = if king { &[0, 1, 2, 3] } else { &[0, 1] };
        for &d in dirs {
            let Some(from) = NEIGHBOURS[to.index()][d] else {
                continue;
            };
            if !empty.contains(from) {
                continue;
            }
            let moved = Bitboard::from_square(to) | Bitboard::from_square(from);
            let new_kings = if king { kings ^ moved } else { kings };
            let before =
                Position::from_parts_unchecked(black, white ^ moved, new_kings, Color::White);
            if before.capturers().is_empty() {
                out.push(before);
            }
        }
    }
}

/// `ext` of a position that can never be lost by counting (it has a winning or drawing
/// move out of the unit).
const NO_LOSS: u16 = u16::MAX;
/// `ext` of an index naming no position.
const INVALID: u16 = u16::MAX - 1;

/// The two tables of a pair being built and how to find a position in them.
struct Pair {
    sigs: Vec<Signature>,
    layouts: Vec<Layout>,
    values: Vec<Vec<u8>>,
}

impl Pair {
    fn table_of(&self, sig: Signature) -> Option<usize> {
        self.sigs.iter().position(|&s| s == sig)
    }
}

/// One unit: a sub-slice and its mirror sub-slice (or one sub-slice that is its own
/// mirror), as `(table, sub-slice number, first index, length)`.
type Part = (usize, usize, u64, u64);

/// The value of a position's moves seen from outside the unit.
#[derive(Clone, Copy, Default)]
struct Moves {
    inside: u8,
    /// Shortest win through a move out of the unit (plies), if any.
    win: Option<u32>,
    /// Longest loss through moves out of the unit (plies of the opponent's win).
    longest_loss: Option<u32>,
    draw: bool,
}

/// Solves `sig` and its mirror. Returns each table with its counts.
fn solve_pair(
    sig: Signature,
    solved: &Solved,
    threads: usize,
    mut progress: impl FnMut(u64),
) -> Result<Vec<(Signature, Vec<u8>, SliceStats)>, EgdbError> {
    let mut sigs = vec![sig];
    if sig.mirror() != sig {
        sigs.push(sig.mirror());
    }
    let layouts: Vec<Layout> = sigs.iter().map(|&s| Layout::new(s)).collect();
    let values = layouts.iter().map(|l| vec![0u8; l.size as usize]).collect();
    let mut pair = Pair {
        sigs,
        layouts,
        values,
    };
    let mut stats = vec![SliceStats::default(); pair.sigs.len()];
    // Units, most advanced first.
    let mirror_table = pair.sigs.len() - 1;
    let mut units: Vec<Vec<Part>> = Vec::new();
    let mut taken = vec![false; pair.layouts[mirror_table].subslices.len()];
    for (n, sub) in pair.layouts[0].subslices.iter().enumerate() {
        let m = pair.layouts[mirror_table].subslice_number(sub.white_row, sub.black_row);
        let mirror_sub = pair.layouts[mirror_table].subslices[m];
        if mirror_table == 0 && taken[n] {
            continue;
        }
        taken[m] = true;
        let mut unit = vec![(0, n, sub.start, sub.len)];
        if (mirror_table, m) != (0, n) {
            unit.push((mirror_table, m, mirror_sub.start, mirror_sub.len));
        }
        units.push(unit);
    }
    units.sort_by_key(|u| {
        let sub = pair.layouts[0].subslices[u[0].1];
        std::cmp::Reverse(sub.black_row + sub.white_row)
    });
    let mut done = 0;
    for unit in &units {
        solve_unit(&mut pair, unit, solved, threads, &mut stats)?;
        done += unit.iter().map(|p| p.3).sum::<u64>();
        progress(done);
    }
    Ok(pair
        .sigs
        .into_iter()
        .zip(pair.values)
        .zip(stats)
        .map(|((s, v), st)| (s, v, st))
        .collect())
}

/// The unit's local index of table `t`'s index `index` in sub-slice `sub`, if inside.
#[inline]
fn local_index(unit: &[Part], t: usize, sub: usize, index: u64) -> Option<usize> {
    let mut base = 0;
    for &(pt, ps, start, len) in unit {
        if pt == t && ps == sub {
            return Some((base + index - start) as usize);
        }
        base += len;
    }
    None
}

/// The table and index of the unit's local index `i`.
#[inline]
fn global_index(unit: &[Part], mut i: u64) -> (usize, u64) {
    for &(t, _, start, len) in unit {
        if i < len {
            return (t, start + i);
        }
        i -= len;
    }
    (unit[0].0, unit[0].2 + i)
}

/// The code of a distance in plies: `plies + 1`, or an error past what a byte holds.
fn code(plies: u32, sig: Signature) -> Result<u8, EgdbError> {
    u8::try_from(plies + 1).map_err(|_| EgdbError::TooLong(sig))
}

/// Looks at every move of `pos` (Black to move) for the unit being solved.
fn moves_of(
    pos: &Position,
    pair: &Pair,
    unit: &[Part],
    solved: &Solved,
    buffer: &mut Vec<Move>,
) -> Result<Option<Moves>, EgdbError> {
    buffer.clear();
    pos.generate_moves(buffer);
    if buffer.is_empty() {
        return Ok(None);
    }
    let mut moves = Moves::default();
    for m in buffer.iter() {
        let child = pos.play_unchecked(m);
        let code = if child.side(Color::White).is_empty() {
            1 // White to move with no piece: lost at distance 0
        } else {
            let c = canonical(&child);
            let csig = Signature::of(&c);
            if let Some(t) = pair.table_of(csig) {
                let (index, sub) = pair.layouts[t].index(&c);
                if local_index(unit, t, sub, index).is_some() {
                    moves.inside += 1;
                    continue;
                }
                pair.values[t][index as usize]
            } else {
                solved.code(&c)?
            }
        };
        if code == 0 {
            moves.draw = true;
        } else {
            let plies = u32::from(code) - 1;
            if plies % 2 == 0 {
                // The opponent loses: a win for us one ply later.
                let win = plies + 1;
                moves.win = Some(moves.win.map_or(win, |w| w.min(win)));
            } else {
                moves.longest_loss = Some(moves.longest_loss.map_or(plies, |l| l.max(plies)));
            }
        }
    }
    Ok(Some(moves))
}

/// Solves one unit and writes its values into the pair's tables.
fn solve_unit(
    pair: &mut Pair,
    unit: &[Part],
    solved: &Solved,
    threads: usize,
    stats: &mut [SliceStats],
) -> Result<(), EgdbError> {
    let size: u64 = unit.iter().map(|p| p.3).sum();
    let n = size as usize;
    let sig = pair.sigs[0];
    let mut values = vec![0u8; n];
    let mut inside = vec![0u8; n];
    let mut ext = vec![0u16; n];
    // 1. Moves of every position, split over the threads.
    let chunk = n.div_ceil(threads).max(1);
    let scheduled: Vec<Result<Vec<(u32, u32)>, EgdbError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = values
            .chunks_mut(chunk)
            .zip(inside.chunks_mut(chunk))
            .zip(ext.chunks_mut(chunk))
            .enumerate()
            .map(|(k, ((values, inside), ext))| {
                let pair = &*pair;
                scope.spawn(move || {
                    let mut buffer = Vec::with_capacity(32);
                    let mut queue = Vec::new();
                    for (j, ((value, count), ext)) in values
                        .iter_mut()
                        .zip(inside.iter_mut())
                        .zip(ext.iter_mut())
                        .enumerate()
                    {
                        let i = k * chunk + j;
                        let (t, index) = global_index(unit, i as u64);
                        let Some(pos) = pair.layouts[t].position(index) else {
                            *ext = INVALID;
                            continue;
                        };
                        let Some(moves) = moves_of(&pos, pair, unit, solved, &mut buffer)? else {
                            *value = code(0, sig)?;
                            queue.push((0, i as u32));
                            continue;
                        };
                        *count = moves.inside;
                        *ext = match (moves.win, moves.draw) {
                            (None, false) => moves.longest_loss.map_or(0, |l| l as u16 + 1),
                            _ => NO_LOSS,
                        };
                        if let Some(win) = moves.win {
                            if moves.inside == 0 {
                                *value = code(win, sig)?;
                            }
                            queue.push((win, i as u32));
                        } else if moves.inside == 0 && !moves.draw {
                            let loss = moves.longest_loss.unwrap_or(0) + 1;
                            *value = code(loss, sig)?;
                            queue.push((loss, i as u32));
                        }
                    }
                    Ok(queue)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(EgdbError::BuildPanicked)))
            .collect()
    });
    let mut levels: Vec<Vec<u32>> = Vec::new();
    for queue in scheduled {
        for (plies, i) in queue? {
            let plies = plies as usize;
            if levels.len() <= plies {
                levels.resize_with(plies + 1, Vec::new);
            }
            levels[plies].push(i);
        }
    }
    // 2. Resolve by distance.
    let mut processed = vec![false; n];
    let mut before = Vec::with_capacity(16);
    let mut d = 0;
    while d < levels.len() {
        let level = std::mem::take(&mut levels[d]);
        let this = code(d as u32, sig)?;
        let next = code(d as u32 + 1, sig)?;
        for i in level {
            let i = i as usize;
            if processed[i] {
                continue;
            }
            if values[i] == 0 {
                values[i] = this; // a win through a move out of the unit
            } else if values[i] != this {
                continue; // resolved sooner
            }
            processed[i] = true;
            let (t, index) = global_index(unit, i as u64);
            let Some(pos) = pair.layouts[t].position(index) else {
                continue;
            };
            unmake_white_steps(&pos, &mut before);
            for q in &before {
                let c = canonical(q);
                let Some(qt) = pair.table_of(Signature::of(&c)) else {
                    continue;
                };
                let (qindex, qsub) = pair.layouts[qt].index(&c);
                let Some(j) = local_index(unit, qt, qsub, qindex) else {
                    continue;
                };
                if values[j] != 0 {
                    continue;
                }
                if d % 2 == 0 {
                    // `pos` is lost: its predecessor wins by moving into it.
                    values[j] = next;
                    push(&mut levels, d + 1, j);
                } else {
                    inside[j] -= 1;
                    if inside[j] == 0 && ext[j] != NO_LOSS {
                        let outside = u32::from(ext[j]).saturating_sub(1);
                        let loss = (d as u32).max(outside) + 1;
                        values[j] = code(loss, sig)?;
                        push(&mut levels, loss as usize, j);
                    }
                }
            }
        }
        d += 1;
    }
    // 3. Into the tables.
    let mut offset = 0;
    for &(t, _, start, len) in unit {
        let part = &values[offset..offset + len as usize];
        for (k, &v) in part.iter().enumerate() {
            if ext[offset + k] != INVALID {
                stats[t].add(v);
            }
        }
        pair.values[t][start as usize..(start + len) as usize].copy_from_slice(part);
        offset += len as usize;
    }
    Ok(())
}

fn push(levels: &mut Vec<Vec<u32>>, plies: usize, i: usize) {
    if levels.len() <= plies {
        levels.resize_with(plies + 1, Vec::new);
    }
    levels[plies].push(i as u32);
}
