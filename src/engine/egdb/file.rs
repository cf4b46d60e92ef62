//! The file of one slice: a header with the slice's counts, the values compressed in
//! blocks (zstd), and a CRC-32 of everything before it.
//!
//! Layout, little-endian:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | magic `CKEGDB01` |
//! | 4 | black men, black kings, white men, white kings (one byte each) |
//! | 8 | indices in the table |
//! | 4 | positions per block |
//! | 4 | number of blocks |
//! | 8 x 4 | positions, wins, losses, draws (for the side to move, Black) |
//! | 4 | the longest distance, in plies |
//! | 8 x (blocks + 1) | offset of each block in the payload, then the payload's length |
//! | ... | the payload: each block a zstd frame of one byte per index |
//! | 4 | CRC-32 (IEEE) of all the bytes above |
//!
//! A value byte is 0 for a draw (or an index naming no position) and `plies + 1` for a
//! decided position, `plies` being the distance to the end of the game: odd when the
//! side to move wins, even when it loses.

use super::EgdbError;
use super::index::{Layout, Signature};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"CKEGDB01";
/// Positions per compressed block.
pub(crate) const BLOCK: usize = 8192;
/// zstd's compression level: high, as a slice is compressed once and read many times.
const LEVEL: i32 = 15;
const HEADER: usize = 8 + 4 + 8 + 4 + 4 + 8 * 4 + 4;

/// What a slice holds, for the side to move (Black in the table's own terms).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct SliceStats {
    /// Positions in the slice (indices that name a position).
    pub(crate) positions: u64,
    /// Positions the side to move wins.
    pub(crate) wins: u64,
    /// Positions the side to move loses.
    pub(crate) losses: u64,
    /// Drawn positions.
    pub(crate) draws: u64,
    /// The longest distance to the end of the game, in plies.
    pub(crate) longest: u32,
}

impl SliceStats {
    /// Counts one position of value `code`.
    pub(crate) fn add(&mut self, code: u8) {
        self.positions += 1;
        match code {
            0 => self.draws += 1,
            c if (c - 1) % 2 == 1 => self.wins += 1,
            _ => self.losses += 1,
        }
        if code > 0 {
            self.longest = self.longest.max(u32::from(code) - 1);
        }
    }

    /// Adds another slice's counts.
    pub(crate) fn merge(&mut self, other: &SliceStats) {
        self.positions += other.positions;
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.longest = self.longest.max(other.longest);
    }
}

/// The file name of a slice: `1m0k-0m2k.egdb`.
pub(crate) fn file_name(signature: Signature) -> String {
    format!("{signature}.egdb")
}

/// The path of a slice's file in `dir`.
pub(crate) fn path(dir: &Path, signature: Signature) -> PathBuf {
    dir.join(file_name(signature))
}

/// A slice read from its file: checked, still compressed.
#[derive(Debug)]
pub(crate) struct SliceFile {
    pub(crate) stats: SliceStats,
    pub(crate) size: u64,
    offsets: Vec<u64>,
    payload: Vec<u8>,
    pub(crate) path: PathBuf,
}

/// Compresses `codes` (one byte per index of `signature`'s table) and writes the file
/// atomically (a temporary file renamed into place), so an interrupted build never
/// leaves half a slice.
pub(crate) fn write(
    dir: &Path,
    signature: Signature,
    codes: &[u8],
    stats: &SliceStats,
) -> Result<PathBuf, EgdbError> {
    let path = path(dir, signature);
    let blocks: Vec<&[u8]> = codes.chunks(BLOCK).collect();
    let mut payload = Vec::new();
    let mut offsets = Vec::with_capacity(blocks.len() + 1);
    for block in &blocks {
        offsets.push(payload.len() as u64);
        let frame = zstd::bulk::compress(block, LEVEL).map_err(|e| EgdbError::Io {
            path: path.clone(),
            error: e,
        })?;
        payload.extend_from_slice(&frame);
    }
    offsets.push(payload.len() as u64);
    let mut out = Vec::with_capacity(HEADER + 8 * offsets.len() + payload.len() + 4);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&[
        signature.black_men,
        signature.black_kings,
        signature.white_men,
        signature.white_kings,
    ]);
    out.extend_from_slice(&(codes.len() as u64).to_le_bytes());
    out.extend_from_slice(&(BLOCK as u32).to_le_bytes());
    out.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
    for n in [stats.positions, stats.wins, stats.losses, stats.draws] {
        out.extend_from_slice(&n.to_le_bytes());
    }
    out.extend_from_slice(&stats.longest.to_le_bytes());
    for o in &offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&payload);
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    crate::store::files::write_atomic(&path, &out).map_err(|error| EgdbError::Io {
        path: path.clone(),
        error,
    })?;
    Ok(path)
}

/// The most bytes the file of a slice of `signature` can have: the header, the block
/// table, each block compressed at its worst (zstd's bound), and the checksum.
pub(crate) fn max_file_len(signature: Signature) -> u64 {
    let size = Layout::new(signature).size;
    let blocks = size.div_ceil(BLOCK as u64);
    let frame = zstd::zstd_safe::compress_bound(BLOCK) as u64;
    HEADER as u64 + 8 * (blocks + 1) + blocks * frame + 4
}

/// A little-endian reader over the header that reports a short file.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take(&mut self, n: usize) -> Option<&[u8]> {
        let slice = self.bytes.get(self.at..self.at.checked_add(n)?)?;
        self.at += n;
        Some(slice)
    }

    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

/// Reads and checks the file of `signature`'s slice at `path`: magic, checksum,
/// signature, size and block offsets. Any fault is an error naming the file.
///
/// Only a regular file is opened (a FIFO or a device in the folder is refused without
/// waiting on it), and only if its size is at most what a slice of `signature` can take
/// ([`max_file_len`]): memory stays within the slice's own bound.
pub(crate) fn read(path: &Path, signature: Signature) -> Result<SliceFile, EgdbError> {
    let corrupt = |reason: &str| EgdbError::Corrupt {
        path: path.to_path_buf(),
        reason: reason.to_string(),
    };
    let max = max_file_len(signature);
    let bytes = match crate::store::files::read_bounded(path, max) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
            return Err(corrupt(&format!(
                "not an endgame database file ({e}: a slice {signature} takes at most {max} bytes)"
            )));
        }
        Err(error) => {
            return Err(EgdbError::Io {
                path: path.to_path_buf(),
                error,
            });
        }
    };
    if bytes.len() < HEADER + 4 || &bytes[..8] != MAGIC {
        return Err(corrupt("not an endgame database file (or truncated)"));
    }
    let (body, tail) = bytes.split_at(bytes.len() - 4);
    let stored = u32::from_le_bytes([tail[0], tail[1], tail[2], tail[3]]);
    if crc32fast::hash(body) != stored {
        return Err(corrupt(
            "checksum mismatch: the file is damaged or truncated",
        ));
    }
    let mut r = Reader { bytes: body, at: 8 };
    let short = || corrupt("truncated header");
    let sig = r.take(4).ok_or_else(short)?;
    let found = Signature::new(sig[0], sig[1], sig[2], sig[3]);
    if found != signature {
        return Err(corrupt(&format!(
            "holds the slice {found}, not {signature}"
        )));
    }
    let size = r.u64().ok_or_else(short)?;
    let block = r.u32().ok_or_else(short)? as u64;
    let blocks = r.u32().ok_or_else(short)? as u64;
    let expected = Layout::new(signature).size;
    if size != expected || block != BLOCK as u64 || blocks != size.div_ceil(block) {
        return Err(corrupt("its size does not match its slice"));
    }
    let mut counts = [0u64; 4];
    for c in &mut counts {
        *c = r.u64().ok_or_else(short)?;
    }
    let longest = r.u32().ok_or_else(short)?;
    let mut offsets = Vec::with_capacity(blocks as usize + 1);
    for _ in 0..=blocks {
        offsets.push(r.u64().ok_or_else(short)?);
    }
    let payload = body.get(r.at..).ok_or_else(short)?;
    let monotone = offsets.windows(2).all(|w| w[0] <= w[1]);
    if offsets.first() != Some(&0) || offsets.last() != Some(&(payload.len() as u64)) || !monotone {
        return Err(corrupt("its block table is inconsistent"));
    }
    let [positions, wins, losses, draws] = counts;
    Ok(SliceFile {
        stats: SliceStats {
            positions,
            wins,
            losses,
            draws,
            longest,
        },
        size,
        offsets,
        payload: payload.to_vec(),
        path: path.to_path_buf(),
    })
}

impl SliceFile {
    /// Number of blocks.
    pub(crate) fn blocks(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Bytes of compressed values.
    pub(crate) fn compressed_len(&self) -> usize {
        self.payload.len()
    }

    /// Decompresses block `b` into `out` (resized to the block's length).
    pub(crate) fn block_into(&self, b: usize, out: &mut Vec<u8>) -> Result<(), EgdbError> {
        let corrupt = || EgdbError::Corrupt {
            path: self.path.clone(),
            reason: format!("block {b} does not decompress"),
        };
        let start = *self.offsets.get(b).ok_or_else(corrupt)? as usize;
        let end = *self.offsets.get(b + 1).ok_or_else(corrupt)? as usize;
        let frame = self.payload.get(start..end).ok_or_else(corrupt)?;
        let len = (self.size - (b * BLOCK) as u64).min(BLOCK as u64) as usize;
        out.clear();
        out.resize(len, 0);
        DECOMPRESSOR.with(|d| {
            let mut d = d.borrow_mut();
            let d = d.as_mut().map_err(|_| corrupt())?;
            match d.decompress_to_buffer(frame, out.as_mut_slice()) {
                Ok(n) if n == len => Ok(()),
                _ => Err(corrupt()),
            }
        })
    }

    /// Every value of the slice, decompressed.
    pub(crate) fn decompress_all(&self) -> Result<Vec<u8>, EgdbError> {
        let mut all = Vec::with_capacity(self.size as usize);
        let mut block = Vec::with_capacity(BLOCK);
        for b in 0..self.blocks() {
            self.block_into(b, &mut block)?;
            all.extend_from_slice(&block);
        }
        Ok(all)
    }
}

thread_local! {
    /// One zstd decompression context per thread, reused from block to block.
    static DECOMPRESSOR: std::cell::RefCell<std::io::Result<zstd::bulk::Decompressor<'static>>> =
        std::cell::RefCell::new(zstd::bulk::Decompressor::new());
}
