//! Endgame databases: every position of up to a few pieces solved exactly, built here by
//! retrograde analysis (`build()`), checked (`verify()`), and probed by the search and
//! the front ends ([`Egdb::probe`]).
//!
//! A *slice* is one material signature ([`Signature`]: Black's men and kings, White's
//! men and kings), one file in the database folder (`2m1k-0m2k.egdb`). Each position
//! is stored with its distance to the end of the game in plies, so the database gives
//! the result and the fastest win or longest resistance. See `index` for the index
//! of a position, `file` for the file format.
//!
//! ```no_run
//! use checkers::engine::egdb::{Egdb, Verdict};
//! use checkers::rules::Position;
//! let (egdb, problems) = Egdb::open("egdb".as_ref());
//! assert!(problems.is_empty());
//! let pos: Position = "W:WK19,K23:BK28,12".parse().unwrap();
//! if let Some(verdict) = egdb.probe(&pos) {
//!     println!("{}", verdict.describe(pos.turn())); // "White wins in N moves"
//! }
//! ```

mod build;
pub(crate) mod file;
pub(crate) mod index;
mod verify;

#[cfg(test)]
pub(crate) use build::lock_folder;
pub(crate) use build::{BuildOptions, build};
pub(crate) use file::SliceStats;
pub use index::Signature;
pub(crate) use index::{Layout, MAX_PIECES};
pub(crate) use verify::verify;

use crate::rules::{Color, Move, Position};
use file::SliceFile;
use index::canonical;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Mutex, OnceLock};

/// The exact result of a position for the side to move, with the distance to the end of
/// the game in plies (half-moves), as the database knows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The side to move wins, in this many plies at most (against the best defence).
    Win(u32),
    /// The side to move loses, in this many plies at least (with the best defence).
    Loss(u32),
    /// Drawn with best play.
    Draw,
}

impl Verdict {
    /// The verdict of a stored value byte (0 a draw, else plies + 1; odd plies win).
    #[inline]
    pub(crate) fn from_code(code: u8) -> Verdict {
        match code {
            0 => Verdict::Draw,
            c => {
                let plies = u32::from(c) - 1;
                if plies % 2 == 1 {
                    Verdict::Win(plies)
                } else {
                    Verdict::Loss(plies)
                }
            }
        }
    }

    /// The verdict for the player who makes a move leading to a position of this
    /// verdict (one ply further, the other side's view).
    pub(crate) fn before_move(self) -> Verdict {
        match self {
            Verdict::Win(p) => Verdict::Loss(p + 1),
            Verdict::Loss(p) => Verdict::Win(p + 1),
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// Plies to the end of the game; `None` for a draw.
    pub fn plies(self) -> Option<u32> {
        match self {
            Verdict::Win(p) | Verdict::Loss(p) => Some(p),
            Verdict::Draw => None,
        }
    }

    /// How good the verdict is for the side to move: higher is better (a shorter win
    /// beats a longer one, a longer loss a shorter one).
    pub(crate) fn goodness(self) -> i64 {
        match self {
            Verdict::Win(p) => 10_000 - i64::from(p),
            Verdict::Draw => 0,
            Verdict::Loss(p) => -10_000 + i64::from(p),
        }
    }

    /// The verdict in words for a position with `turn` to move: "White wins in 23
    /// moves", "Black wins in 1 move", "drawn", or "White has won" when the side to
    /// move has already lost.
    pub fn describe(self, turn: Color) -> String {
        let (winner, plies) = match self {
            Verdict::Draw => return "drawn".to_string(),
            Verdict::Win(p) => (turn, p),
            Verdict::Loss(p) => (!turn, p),
        };
        match plies.div_ceil(2) {
            0 => format!("{winner} has won"),
            1 => format!("{winner} wins in 1 move"),
            n => format!("{winner} wins in {n} moves"),
        }
    }
}

/// What can go wrong with a database: a file that cannot be read or written, a damaged
/// file (both name the file), a slice missing that another needs.
#[derive(Debug)]
pub enum EgdbError {
    /// A file or folder could not be read or written.
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: std::io::Error,
    },
    /// A file is damaged, truncated, or not a slice of this database.
    Corrupt {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        reason: String,
    },
    /// A slice needed to build or verify another is missing.
    MissingSlice(Signature),
    /// A distance in this slice is too long for the file format (254 plies at most).
    TooLong(Signature),
    /// A building thread failed (a bug).
    BuildPanicked,
    /// No slice files in the folder.
    Empty(PathBuf),
    /// Another build is running in the folder (one at a time: a second would redo the
    /// first's work).
    BuildRunning(PathBuf),
}

impl fmt::Display for EgdbError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EgdbError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            EgdbError::Corrupt { path, reason } => {
                write!(f, "{}: {reason}; delete it and build again", path.display())
            }
            EgdbError::MissingSlice(s) => write!(
                f,
                "the slice {s} is missing: build the smaller slices first (checkers egdb build)"
            ),
            EgdbError::TooLong(s) => {
                write!(f, "the slice {s} has a distance longer than 254 plies")
            }
            EgdbError::BuildPanicked => write!(f, "a building thread failed"),
            EgdbError::Empty(dir) => write!(
                f,
                "no endgame database in {}: build one with checkers egdb build",
                dir.display()
            ),
            EgdbError::BuildRunning(dir) => write!(
                f,
                "another build is running in {}: wait for it to end (run this again then, \
                 to build what it did not), or build into another folder with --dir",
                dir.display()
            ),
        }
    }
}

/// A read or write failure is shown in the message, so it has no source.
impl std::error::Error for EgdbError {}

/// Slots for signatures: one per possible count of each of the four kinds of piece.
const SLOTS: usize = (MAX_PIECES + 1).pow(4);

/// The slot of a signature.
#[inline]
fn slot(s: Signature) -> usize {
    let m = MAX_PIECES + 1;
    ((usize::from(s.black_men) * m + usize::from(s.black_kings)) * m + usize::from(s.white_men)) * m
        + usize::from(s.white_kings)
}

/// A loaded slice.
#[derive(Debug)]
struct Slice {
    layout: Layout,
    file: SliceFile,
    number: u64,
}

/// Decompressed blocks kept for probing: direct-mapped, each entry under its own lock.
const CACHE_ENTRIES: usize = 8192;

#[derive(Debug)]
struct CacheEntry {
    key: u64,
    data: Vec<u8>,
}

/// A set of loaded slices, shared by the search and the front ends (`Arc<Egdb>`).
///
/// Slices can be added while it is in use (a build on first use adds them as they are
/// made); a probe of a position whose slice is not loaded answers `None`. Files stay
/// compressed in memory; probed blocks are decompressed into a cache of at most 64 MB,
/// filled as the search probes (a 16 MB cache searched a quarter fewer nodes a second
/// in 6-piece endings).
pub struct Egdb {
    dir: PathBuf,
    slots: Vec<OnceLock<Slice>>,
    loaded: AtomicU32,
    max_pieces: AtomicU32,
    cache: Vec<Mutex<CacheEntry>>,
}

impl fmt::Debug for Egdb {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Egdb")
            .field("dir", &self.dir)
            .field("slices", &self.loaded.load(Ordering::Relaxed))
            .field("max_pieces", &self.max_pieces.load(Ordering::Relaxed))
            .finish()
    }
}

impl Egdb {
    /// A database with no slice loaded yet, whose files are in `dir`.
    pub(crate) fn empty(dir: &Path) -> Egdb {
        Egdb {
            dir: dir.to_path_buf(),
            slots: (0..SLOTS).map(|_| OnceLock::new()).collect(),
            loaded: AtomicU32::new(0),
            max_pieces: AtomicU32::new(0),
            cache: (0..CACHE_ENTRIES)
                .map(|_| {
                    Mutex::new(CacheEntry {
                        key: u64::MAX,
                        data: Vec::new(),
                    })
                })
                .collect(),
        }
    }

    /// Loads every slice file found in `dir` (none if the folder does not exist). A
    /// file that cannot be read or is damaged is left out, and its error returned
    /// beside the database: the rest is used. Something other than a regular file under
    /// a slice's name (a FIFO, a device, a folder) is left out unopened, so nothing
    /// waits on it. Temporary files of builds that were killed are removed first.
    pub fn open(dir: &Path) -> (Egdb, Vec<EgdbError>) {
        crate::store::files::remove_stale_temp_files(dir, None);
        let egdb = Egdb::empty(dir);
        let mut problems = Vec::new();
        for sig in Signature::all(MAX_PIECES as u32) {
            let path = file::path(dir, sig);
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            if !meta.is_file() {
                let kind = crate::store::files::kind_of(meta.file_type());
                problems.push(EgdbError::Io {
                    path,
                    error: crate::store::files::not_regular(kind),
                });
                continue;
            }
            if let Err(e) = egdb.load_slice(sig) {
                problems.push(e);
            }
        }
        (egdb, problems)
    }

    /// The folder of the files.
    pub(crate) fn dir(&self) -> &Path {
        &self.dir
    }

    /// Reads the file of `sig`'s slice and adds it (a slice already loaded stays).
    pub(crate) fn load_slice(&self, sig: Signature) -> Result<(), EgdbError> {
        let file = file::read(&file::path(&self.dir, sig), sig)?;
        let number = slot(sig) as u64;
        let slice = Slice {
            layout: Layout::new(sig),
            file,
            number,
        };
        if self.slots[slot(sig)].set(slice).is_ok() {
            self.loaded.fetch_add(1, Ordering::Relaxed);
            self.max_pieces.fetch_max(sig.pieces(), Ordering::Relaxed);
        }
        Ok(())
    }

    /// Number of slices loaded.
    pub(crate) fn slices(&self) -> usize {
        self.loaded.load(Ordering::Relaxed) as usize
    }

    /// Whether `sig`'s slice is loaded.
    pub(crate) fn has(&self, sig: Signature) -> bool {
        sig.is_valid() && self.slots[slot(sig)].get().is_some()
    }

    /// The largest `n` such that every slice of up to `n` pieces is loaded (0 if none).
    pub fn complete_pieces(&self) -> u32 {
        let mut n = 0;
        for pieces in 2..=MAX_PIECES as u32 {
            let all = Signature::all(pieces);
            if all.iter().all(|&s| self.has(s)) {
                n = pieces;
            } else {
                break;
            }
        }
        n
    }

    /// The exact result of `pos`, if its slice is loaded. A side to move with no piece
    /// has lost (`Loss(0)`).
    #[inline]
    pub fn probe(&self, pos: &Position) -> Option<Verdict> {
        let pieces = pos.occupied().count();
        if pieces > self.max_pieces.load(Ordering::Relaxed) {
            return None;
        }
        if pos.side(pos.turn()).is_empty() {
            return Some(Verdict::Loss(0));
        }
        if pos.side(!pos.turn()).is_empty() {
            return None;
        }
        let c = canonical(pos);
        let sig = Signature::of(&c);
        let slice = self.slots[slot(sig)].get()?;
        let (index, _) = slice.layout.index(&c);
        self.code(slice, index).map(Verdict::from_code)
    }

    /// The stored byte at `index` of `slice`, through the block cache.
    fn code(&self, slice: &Slice, index: u64) -> Option<u8> {
        let block = (index / file::BLOCK as u64) as usize;
        let offset = (index % file::BLOCK as u64) as usize;
        let key = (slice.number << 32) | block as u64;
        let h = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40) as usize % CACHE_ENTRIES;
        let mut entry = self.cache[h].lock().unwrap_or_else(|p| p.into_inner());
        if entry.key != key {
            entry.key = u64::MAX;
            slice.file.block_into(block, &mut entry.data).ok()?;
            entry.key = key;
        }
        entry.data.get(offset).copied()
    }

    /// Every legal move of `pos` with the verdict it leads to for the side to move,
    /// best first; `None` if some move's result is not in the loaded slices (or the
    /// position has more pieces than they cover).
    pub fn moves(&self, pos: &Position) -> Option<Vec<(Move, Verdict)>> {
        let mut moves = Vec::new();
        for m in pos.legal_moves() {
            let v = self.probe(&pos.play_unchecked(&m))?.before_move();
            moves.push((m, v));
        }
        moves.sort_by_key(|(_, v)| std::cmp::Reverse(v.goodness()));
        Some(moves)
    }

    /// The moves that keep the database's verdict of `pos` (the fastest wins, the
    /// drawing moves, the longest losses).
    pub(crate) fn best_moves(&self, pos: &Position) -> Option<Vec<Move>> {
        let moves = self.moves(pos)?;
        let best = moves.first()?.1;
        Some(
            moves
                .into_iter()
                .take_while(|(_, v)| *v == best)
                .map(|(m, _)| m)
                .collect(),
        )
    }

    /// A line of best play from `pos`, at most `max_plies` long (a drawn line stops
    /// after `max_plies`; a decided one at the end of the game).
    pub fn best_line(&self, pos: &Position, max_plies: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = *pos;
        while line.len() < max_plies {
            let Some(m) = self.best_moves(&pos).and_then(|b| b.first().copied()) else {
                break;
            };
            line.push(m);
            pos = pos.play_unchecked(&m);
        }
        line
    }
}
