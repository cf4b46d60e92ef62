//! Reading games from PDN files: streamed a block at a time (memory stays one block and
//! one game, whatever the file's size), and for a big file through its
//! [index](super::index), so the list of its games and any one game come at once.

use super::StoreError;
use super::files::{MAX_READ_BYTES, open_regular, read_error};
use super::index::{self, Index, MIN_INDEXED_BYTES, Stamp};
use crate::game::tree::MoveTree;
use crate::pdn::{Encoding, GameError, Games, PdnGame, games_at, games_in};
use crate::rules::Position;
use std::fs::File;
use std::hash::{Hash, Hasher};
use std::io::{Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

/// The name that stands for standard input where a command reads a PDN file (a file
/// named `-` is still read as `./-`).
pub(crate) const STDIN_ARG: &str = "-";

/// Whether `path` is [`STDIN_ARG`]: standard input.
pub(crate) fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == STDIN_ARG
}

/// How `path` is named in messages: standard input by those words, a file by its path.
pub(crate) fn shown_path(path: &Path) -> PathBuf {
    if is_stdin(path) {
        PathBuf::from("standard input")
    } else {
        path.to_path_buf()
    }
}

/// Standard input's bytes, read to its end (refused past `cap` bytes: it gives no size
/// beforehand) and checked to be text, and their encoding. Unlike a file, it is held
/// in memory whole, as it cannot be read twice (once for its encoding).
fn stdin_pdn(cap: u64) -> Result<(Vec<u8>, Encoding), StoreError> {
    let name = shown_path(Path::new(STDIN_ARG));
    let mut bytes = Vec::new();
    std::io::stdin()
        .lock()
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| StoreError::Read(name.clone(), e))?;
    if bytes.len() as u64 > cap {
        return Err(StoreError::ReadsPast(name, cap));
    }
    let head = &bytes[..bytes.len().min(TEXT_CHECK_BYTES as usize)];
    if let Some(at) = head.iter().position(|&b| b == 0) {
        return Err(StoreError::NotText(name, at as u64));
    }
    let encoding = Encoding::of(&bytes[..]).map_err(|e| StoreError::Read(name, e))?;
    Ok((bytes, encoding))
}

/// Standard input's PDN bytes, read whole (within [`MAX_READ_BYTES`], checked to be
/// text), and their encoding: for `pdn extract` and `merge`, which read their input
/// twice (its games, then the bytes of those chosen).
pub(crate) fn stdin_bytes() -> Result<(std::sync::Arc<[u8]>, Encoding), StoreError> {
    let (bytes, encoding) = stdin_pdn(MAX_READ_BYTES)?;
    Ok((bytes.into(), encoding))
}

/// Opens the regular PDN file at `path` (at most [`MAX_READ_BYTES`]): the file and its
/// stamp (size and modification time).
fn open_pdn(path: &Path) -> Result<(File, Stamp), StoreError> {
    let fail = |e| read_error(path, e);
    let (mut file, size) = open_regular(path).map_err(fail)?;
    if size > MAX_READ_BYTES {
        return Err(StoreError::TooBig(path.to_path_buf(), size));
    }
    let stamp = Stamp::of(&file.metadata().map_err(fail)?);
    // Binary data (or UTF-16 text) is said to be what it is, not read as moves.
    let mut head = Vec::new();
    (&mut file)
        .take(TEXT_CHECK_BYTES)
        .read_to_end(&mut head)
        .map_err(fail)?;
    if let Some(at) = head.iter().position(|&b| b == 0) {
        return Err(StoreError::NotText(path.to_path_buf(), at as u64));
    }
    file.seek(SeekFrom::Start(0)).map_err(fail)?;
    Ok((file, stamp))
}

/// How much of a file's start is looked at for a NUL byte, the mark of a file that is
/// not text.
const TEXT_CHECK_BYTES: u64 = 4096;

/// How far the open `file` of `path` is read, and its encoding (found by reading it
/// once, a block at a time); the file is then back at its start. A file is read as far
/// as its size when opened; one that reports a size of 0 (procfs and sysfs files make
/// their text as it is read; an empty file reads nothing either way) is read once to
/// its end to measure it, and refused when it goes on past `cap` bytes, rather than
/// read only up to there as though that were all.
fn extent_and_encoding(
    file: &mut File,
    stamp: Stamp,
    path: &Path,
    cap: u64,
) -> Result<(u64, Encoding), StoreError> {
    let fail = |e| read_error(path, e);
    let extent = match stamp.size() {
        0 => {
            let length = std::io::copy(
                &mut (&*file).take(cap.saturating_add(1)),
                &mut std::io::sink(),
            )
            .map_err(fail)?;
            if length > cap {
                return Err(StoreError::ReadsPast(path.to_path_buf(), cap));
            }
            file.seek(SeekFrom::Start(0)).map_err(fail)?;
            length
        }
        size => size,
    };
    let encoding = Encoding::of((&*file).take(extent)).map_err(fail)?;
    file.seek(SeekFrom::Start(0)).map_err(fail)?;
    Ok((extent, encoding))
}

/// Game `number` (from 1) of the PDN file at `path`, as [`load_record`] reads it, except
/// that a game with a move that cannot be played gives its moves before that one (its
/// result unknown: `*`) and the fault (which names the game and the move), so that what
/// is good in it can still be studied. A fault at the first move leaves nothing to
/// study: that game is refused.
pub(crate) fn load_record_up_to_fault(
    path: &Path,
    number: usize,
) -> Result<(PdnGame, Option<Box<GameError>>), StoreError> {
    match load_record(path, number) {
        Ok(record) => Ok((record, None)),
        Err(StoreError::Game(path, error)) => match error.up_to_fault() {
            Some(record) if !record.moves.is_empty() => Ok((record, Some(error))),
            _ => Err(StoreError::Game(path, error)),
        },
        Err(e) => Err(e),
    }
}

/// The games of the PDN file at `path`, read and replayed one at a time as the iterator
/// is advanced, streamed from the file (as far as its size when opened; one that gives
/// no size, as far as it reads, within [`MAX_READ_BYTES`] or refused). Only a regular
/// file is read (a FIFO or a device is refused at once); `-` is standard input (see
/// [`is_stdin`]).
pub(crate) fn file_games(path: &Path) -> Result<Games<'static>, StoreError> {
    file_games_within(path, MAX_READ_BYTES)
}

/// The games of the regular PDN file at `path` as [`file_games`] reads them, with how
/// far the file is read and its encoding (for copying games byte for byte). Standard
/// input, which cannot be read twice, is refused.
pub(crate) fn file_games_measured(
    path: &Path,
) -> Result<(Games<'static>, u64, Encoding), StoreError> {
    if is_stdin(path) {
        return Err(StoreError::Read(
            shown_path(path),
            std::io::Error::other("standard input cannot be read twice: save it to a file"),
        ));
    }
    let (mut file, stamp) = open_pdn(path)?;
    let (extent, encoding) = extent_and_encoding(&mut file, stamp, path, MAX_READ_BYTES)?;
    Ok((games_in(file.take(extent), encoding), extent, encoding))
}

/// [`file_games`], with a file that reports no size refused past `cap` bytes.
fn file_games_within(path: &Path, cap: u64) -> Result<Games<'static>, StoreError> {
    if is_stdin(path) {
        let (bytes, encoding) = stdin_pdn(cap)?;
        return Ok(games_in(std::io::Cursor::new(bytes), encoding));
    }
    let (mut file, stamp) = open_pdn(path)?;
    let (extent, encoding) = extent_and_encoding(&mut file, stamp, path, cap)?;
    Ok(games_in(file.take(extent), encoding))
}

/// Reads game `number` (from 1) of the PDN file at `path`. Only a regular file is read
/// (a FIFO or device is refused at once; `-` is standard input, see [`is_stdin`]), and
/// only the game asked for: from the file's start up to it, or, with the file's index,
/// from the game's own start.
pub(crate) fn load_record(path: &Path, number: usize) -> Result<PdnGame, StoreError> {
    load_game(path, number, false).map(|(record, _)| record)
}

/// Game `number` (from 1) of the PDN file at `path` with its move tree: its variations
/// and comments as the file has them, read as [`load_record`] reads the game (streamed,
/// the file's index used for a big one). `None` when the game does not read.
pub(crate) fn load_record_tree(path: &Path, number: usize) -> Option<(PdnGame, MoveTree)> {
    match load_game(path, number, true) {
        Ok((record, Some(tree))) => Some((record, tree)),
        _ => None,
    }
}

/// [`load_record`], with the game's tree too when `trees` asks for it.
fn load_game(
    path: &Path,
    number: usize,
    trees: bool,
) -> Result<(PdnGame, Option<MoveTree>), StoreError> {
    let keep = |games: Games<'static>| if trees { games.keeping_trees() } else { games };
    if is_stdin(path) {
        let name = shown_path(path);
        return nth_game(&name, keep(file_games(path)?), number);
    }
    let (mut file, stamp) = open_pdn(path)?;
    if number > 1
        && stamp.size() >= MIN_INDEXED_BYTES
        && let Some(index) = index::places(path, stamp)
    {
        let Some(&place) = index.places.get(number - 1) else {
            return Err(StoreError::NoSuchGame {
                path: path.to_path_buf(),
                wanted: number,
                count: index.places.len(),
            });
        };
        let fail = |e| read_error(path, e);
        file.seek(SeekFrom::Start(place.offset)).map_err(fail)?;
        let rest = stamp.size().saturating_sub(place.offset);
        let mut games = keep(games_at(file.take(rest), index.encoding, place, number));
        if let Some(game) = games.next() {
            let tree = games.take_tree();
            return game
                .map(|record| (record, tree))
                .map_err(|e| StoreError::Game(path.to_path_buf(), Box::new(e)));
        }
        return Err(StoreError::NoGames(path.to_path_buf()));
    }
    let (extent, encoding) = extent_and_encoding(&mut file, stamp, path, MAX_READ_BYTES)?;
    nth_game(path, keep(games_in(file.take(extent), encoding)), number)
}

/// Game `number` (from 1) of `games`, read from the file named `path`.
/// (and its tree, when `games` keeps trees).
fn nth_game(
    path: &Path,
    mut games: Games<'_>,
    number: usize,
) -> Result<(PdnGame, Option<MoveTree>), StoreError> {
    let mut count = 0;
    while let Some(game) = games.next() {
        count += 1;
        if count == number {
            let tree = games.take_tree();
            return game
                .map(|record| (record, tree))
                .map_err(|e| StoreError::Game(path.to_path_buf(), Box::new(e)));
        }
    }
    if count == 0 {
        return Err(StoreError::NoGames(path.to_path_buf()));
    }
    Err(StoreError::NoSuchGame {
        path: path.to_path_buf(),
        wanted: number,
        count,
    })
}

/// A number that changes when `summarize` words a game differently: the line it makes
/// of a sample game, hashed with the program's version.
fn summary_key(summarize: &impl Fn(usize, &Result<PdnGame, GameError>) -> String) -> u64 {
    let mut sample = PdnGame::new(Position::start());
    for (name, value) in [
        ("Event", "E"),
        ("Date", "1950.01.01"),
        ("Round", "R"),
        ("Black", "B"),
        ("White", "W"),
        ("Result", "1-0"),
    ] {
        sample.set_tag(name, value);
    }
    // A token other than the tag: which of them a line gives is part of its wording.
    sample.result = Some("0-1".to_string());
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    summarize(7, &Ok(sample)).hash(&mut hasher);
    hasher.finish()
}

/// A line for each game of the PDN file at `path`, made by `summarize` (given the
/// game's number from 1 and the game as it reads), in file order. For a big file the
/// lines are kept in its index: opened again unchanged, the file is not read at all.
/// `progress` hears how many bytes of how many were read while the file is read.
pub(crate) fn scan_summaries(
    path: &Path,
    summarize: impl Fn(usize, &Result<PdnGame, GameError>) -> String,
    mut progress: impl FnMut(u64, u64),
) -> Result<Vec<String>, StoreError> {
    let key = summary_key(&summarize);
    let (mut file, stamp) = open_pdn(path)?;
    if stamp.size() >= MIN_INDEXED_BYTES
        && let Some(mut kept) = index::load(path, stamp)
        && let Some((kept_key, lines)) = kept.summaries.take()
        && kept_key == key
        && !lines.is_empty()
    {
        index::remember(path, &kept);
        return Ok(lines);
    }
    let (extent, encoding) = extent_and_encoding(&mut file, stamp, path, MAX_READ_BYTES)?;
    let mut games = games_in(file.take(extent), encoding);
    let mut lines = Vec::new();
    let mut places = Vec::new();
    while let Some(game) = games.next() {
        places.extend(games.last_place());
        lines.push(summarize(lines.len() + 1, &game));
        if lines.len() % 1024 == 0 {
            progress(games.bytes_read(), stamp.size());
        }
    }
    progress(stamp.size(), stamp.size());
    if lines.is_empty() {
        return Err(StoreError::NoGames(path.to_path_buf()));
    }
    let index = Index {
        stamp,
        encoding,
        places,
        summaries: Some((key, lines)),
    };
    index::save(path, &index);
    index::remember(path, &index);
    Ok(index.summaries.map(|(_, lines)| lines).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file that gives no size (a procfs file, made as it is read) is read to its end
    /// within the limit, and refused past it, naming the file and the limit, rather
    /// than read only up to the limit as though that were all.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_file_without_a_size_is_refused_past_the_limit_not_cut_there() {
        // Its text does not change from one read to the next.
        let path = Path::new("/proc/self/limits");
        let text = std::fs::read(path).unwrap();
        assert_eq!(
            std::fs::metadata(path).unwrap().len(),
            0,
            "procfs gives no size"
        );
        assert!(text.len() > 64, "{} bytes", text.len());
        let error = file_games_within(path, 64)
            .err()
            .expect("refused past 64 bytes");
        assert!(
            matches!(&error, StoreError::ReadsPast(p, 64) if p == path),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            "/proc/self/limits reads on past 64 bytes without giving its size beforehand: too long for a PDN file (at most 64 bytes)"
        );
        // Within the limit it is read to its end, every byte of it.
        assert!(file_games_within(path, 1 << 20).is_ok());
        let (mut file, stamp) = open_pdn(path).unwrap();
        let (extent, _) = extent_and_encoding(&mut file, stamp, path, 1 << 20).unwrap();
        assert_eq!(extent, text.len() as u64);
        let (extent, _) = extent_and_encoding(&mut file, stamp, path, text.len() as u64).unwrap();
        assert_eq!(
            extent,
            text.len() as u64,
            "a file of just the limit is read"
        );
    }
}
