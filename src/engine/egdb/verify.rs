//! Checking built slices: every stored value must follow from the values of the
//! position's moves, one ply deeper.
//!
//! - a position won in `d` plies has a move to a position lost in `d - 1`, and none to
//!   a position lost sooner;
//! - a position lost in `d` plies has only moves to won positions, the longest won in
//!   `d - 1` (no move at all for `d = 0`);
//! - a drawn position has a drawing move and no winning one.
//!
//! As distances fall by one along every such chain, these local checks together prove
//! the whole table (given the tables it depends on).

use super::build::Solved;
use super::file::{self, SliceStats};
use super::index::{Layout, Signature, canonical};
use super::{EgdbError, MAX_PIECES};
use crate::rules::{Move, Position};
use std::path::Path;
use std::sync::Arc;

/// The check of one slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SliceCheck {
    /// The slice.
    pub(crate) signature: Signature,
    /// Its counts, recounted from the values.
    pub(crate) stats: SliceStats,
    /// Its compressed size in bytes.
    pub(crate) bytes: usize,
    /// Positions whose value does not follow from their moves.
    pub(crate) faults: u64,
    /// The first fault, as FEN and what was stored and expected.
    pub(crate) first_fault: Option<String>,
    /// Whether the counts in the file's header agree with the values.
    pub(crate) header_agrees: bool,
}

impl SliceCheck {
    /// Whether the slice passed.
    pub(crate) fn passed(&self) -> bool {
        self.faults == 0 && self.header_agrees
    }
}

/// The value a position must have from the stored values of its moves.
pub(crate) fn expected_code(
    pos: &Position,
    solved: &Solved,
    buffer: &mut Vec<Move>,
) -> Result<u8, EgdbError> {
    buffer.clear();
    pos.generate_moves(buffer);
    if buffer.is_empty() {
        return Ok(1);
    }
    let mut win: Option<u32> = None;
    let mut longest = 0;
    let mut draw = false;
    for m in buffer.iter() {
        let child = pos.play_unchecked(m);
        let code = if child.side(child.turn()).is_empty() {
            1
        } else {
            solved.code(&canonical(&child))?
        };
        match code {
            0 => draw = true,
            c if (c - 1) % 2 == 0 => {
                let w = u32::from(c);
                win = Some(win.map_or(w, |x| x.min(w)));
            }
            c => longest = longest.max(u32::from(c)),
        }
    }
    let plies = match (win, draw) {
        (Some(w), _) => w,
        (None, true) => return Ok(0),
        (None, false) => longest,
    };
    u8::try_from(plies + 1).map_err(|_| EgdbError::TooLong(Signature::of(pos)))
}

/// Checks every slice file in `dir` (each against the slices it depends on, which must
/// be present), with `threads` threads, calling `progress` with each slice's check.
/// A slice whose file cannot be read is an error naming the file.
pub(crate) fn verify(
    dir: &Path,
    threads: usize,
    mut progress: impl FnMut(&SliceCheck),
) -> Result<Vec<SliceCheck>, EgdbError> {
    let mut solved = Solved::new();
    let mut checks = Vec::new();
    let present: Vec<Signature> = Signature::all(MAX_PIECES as u32)
        .into_iter()
        .filter(|&s| file::path(dir, s).exists())
        .collect();
    if present.is_empty() {
        return Err(EgdbError::Empty(dir.to_path_buf()));
    }
    // Load all first: a slice and its mirror depend on each other.
    let mut files = Vec::new();
    for &sig in &present {
        let f = file::read(&file::path(dir, sig), sig)?;
        solved.insert(sig, Arc::new(f.decompress_all()?));
        files.push(f);
    }
    for (&sig, f) in present.iter().zip(&files) {
        let check = verify_slice(sig, f.stats, f.compressed_len(), &solved, threads)?;
        progress(&check);
        checks.push(check);
    }
    Ok(checks)
}

/// One thread's share of a slice's check: counts, faults, the first fault.
type Part = (SliceStats, u64, Option<String>);

fn verify_slice(
    sig: Signature,
    header: SliceStats,
    bytes: usize,
    solved: &Solved,
    threads: usize,
) -> Result<SliceCheck, EgdbError> {
    let layout = Layout::new(sig);
    let threads = threads.max(1) as u64;
    let chunk = layout.size.div_ceil(threads).max(1);
    let parts: Vec<Result<Part, EgdbError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|k| {
                let layout = &layout;
                scope.spawn(move || {
                    let mut stats = SliceStats::default();
                    let mut faults = 0;
                    let mut first = None;
                    let mut buffer = Vec::with_capacity(32);
                    let end = ((k + 1) * chunk).min(layout.size);
                    for index in k * chunk..end {
                        let Some(pos) = layout.position(index) else {
                            continue;
                        };
                        let stored = solved.code(&pos)?;
                        stats.add(stored);
                        let expected = expected_code(&pos, solved, &mut buffer)?;
                        if stored != expected {
                            faults += 1;
                            first.get_or_insert_with(|| {
                                format!("{pos}: stored {stored}, expected {expected}")
                            });
                        }
                    }
                    Ok((stats, faults, first))
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or(Err(EgdbError::BuildPanicked)))
            .collect()
    });
    let mut stats = SliceStats::default();
    let mut faults = 0;
    let mut first_fault = None;
    for part in parts {
        let (s, f, first) = part?;
        stats.merge(&s);
        faults += f;
        if first_fault.is_none() {
            first_fault = first;
        }
    }
    Ok(SliceCheck {
        signature: sig,
        header_agrees: stats == header,
        stats,
        bytes,
        faults,
        first_fault,
    })
}
