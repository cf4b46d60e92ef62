//! The index of a big PDN file: where each game starts (byte offset, line, column) and,
//! once a list of the games has been made, each game's line in it. It is built on the
//! first full read of the file and kept in the cache folder (`pdn-index` in it), so that
//! opening the file again shows its list at once, and any game is read from its own
//! start instead of from the file's. An index is used only while the file has the size
//! and modification time it was built for; otherwise it is built again. It is a cache:
//! failing to keep one only makes the next open slow.

use super::files::{read_bounded, write_atomic};
use crate::pdn::{Encoding, Place};
use std::fs;
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::UNIX_EPOCH;

/// Files smaller than this are read whole each time: no index is kept for them.
pub(super) const MIN_INDEXED_BYTES: u64 = 1 << 20;

/// The largest index file read (an index takes some 60 bytes a game).
const MAX_INDEX_BYTES: u64 = 1 << 30;

/// The first line of an index file, with its format's version (3: text that is no PDN
/// before a file's first game is no longer counted as a game, so an index of 2 may
/// number the games one off; 4: a game without tags after such text, brackets in it and
/// lines ending in a lone CR are read as they should be, so an index of 3 may number or
/// place the games wrongly; 5: a comment never closed ends its game at the next game's
/// tags, so an index of 4 may have lost the games after it; 6: so does a variation
/// never closed, or a comment never closed in one, so an index of 5 may have lost the
/// games after it).
const HEADER: &str = "checkers pdn index 6";

/// What a file was when its index was built: its size and modification time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Stamp {
    size: u64,
    modified_nanos: u128,
}

impl Stamp {
    /// The file's size in bytes.
    pub(super) fn size(self) -> u64 {
        self.size
    }

    /// The stamp of `meta`.
    pub(super) fn of(meta: &fs::Metadata) -> Stamp {
        Stamp {
            size: meta.len(),
            modified_nanos: meta
                .modified()
                .ok()
                .and_then(|t| t.duration_since(UNIX_EPOCH).ok())
                .map_or(0, |d| d.as_nanos()),
        }
    }
}

/// An index of a PDN file (see the module's notes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Index {
    pub(super) stamp: Stamp,
    pub(super) encoding: Encoding,
    /// Where each game starts, in file order.
    pub(super) places: Vec<Place>,
    /// Each game's line in the list, with the key of the way they were made (lines
    /// made another way are made again).
    pub(super) summaries: Option<(u64, Vec<String>)>,
}

/// The folder indexes are kept in: `pdn-index` in the cache folder.
fn index_folder() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "checkers").map(|d| d.cache_dir().join("pdn-index"))
}

/// Removes the temporary files that programs killed while writing an index left.
pub(super) fn tidy() {
    if let Some(folder) = index_folder() {
        super::files::remove_stale_temp_files(&folder, None);
    }
}

/// Where the index of `path` is kept: in the cache folder, named after a hash of the
/// file's full path. `None` if there is no cache folder.
fn index_path(path: &Path) -> Option<(PathBuf, String)> {
    let full = fs::canonicalize(path).ok()?;
    let full = full.to_string_lossy().into_owned();
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    full.hash(&mut hasher);
    let file = index_folder()?.join(format!("{:016x}.idx", hasher.finish()));
    Some((file, full))
}

/// Where the games of the file last looked up start: a game opened after another of
/// the same file (the list of `--load`) does not read the index again.
static LAST_PLACES: Mutex<Option<Places>> = Mutex::new(None);

/// The start of each game of a file, as its index gives them.
#[derive(Clone, Debug)]
pub(super) struct Places {
    path: PathBuf,
    stamp: Stamp,
    /// The file's encoding.
    pub(super) encoding: Encoding,
    /// Where each game starts.
    pub(super) places: Arc<Vec<Place>>,
}

/// Where the games of the file at `path` start, if its index (as kept, for the file as
/// it is now: `stamp`) says.
pub(super) fn places(path: &Path, stamp: Stamp) -> Option<Places> {
    let mut last = LAST_PLACES.lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(known) = last.as_ref()
        && known.path == path
        && known.stamp == stamp
    {
        return Some(known.clone());
    }
    let index = load(path, stamp)?;
    let found = Places {
        path: path.to_path_buf(),
        stamp,
        encoding: index.encoding,
        places: Arc::new(index.places),
    };
    *last = Some(found.clone());
    Some(found)
}

/// Remembers where the games of `index`'s file start, for [`places`].
pub(super) fn remember(path: &Path, index: &Index) {
    *LAST_PLACES.lock().unwrap_or_else(PoisonError::into_inner) = Some(Places {
        path: path.to_path_buf(),
        stamp: index.stamp,
        encoding: index.encoding,
        places: Arc::new(index.places.clone()),
    });
}

/// `text` on one line: backslashes, line breaks and tabs escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out
}

/// What [`escape`] escaped, back.
fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some(other) => out.push(other),
            None => {}
        }
    }
    out
}

/// The index of the file at `path` as kept, if there is one for the file as it is now
/// (`stamp`).
pub(super) fn load(path: &Path, stamp: Stamp) -> Option<Index> {
    let (file, full) = index_path(path)?;
    let bytes = read_bounded(&file, MAX_INDEX_BYTES).ok()?;
    let text = String::from_utf8(bytes).ok()?;
    let mut lines = text.lines();
    if lines.next()? != HEADER {
        return None;
    }
    let mut field = |name: &str| lines.next()?.strip_prefix(name)?.strip_prefix(' ');
    if unescape(field("path")?) != full {
        return None;
    }
    let size: u64 = field("size")?.parse().ok()?;
    let modified_nanos: u128 = field("modified")?.parse().ok()?;
    if (Stamp {
        size,
        modified_nanos,
    }) != stamp
    {
        return None;
    }
    let encoding = match field("encoding")? {
        "utf-8" => Encoding::Utf8,
        "iso-8859-1" => Encoding::Latin1,
        _ => return None,
    };
    let key: Option<u64> = match field("summaries")? {
        "none" => None,
        key => Some(key.parse().ok()?),
    };
    let count: usize = field("games")?.parse().ok()?;
    let mut places = Vec::with_capacity(count.min(1 << 24));
    let mut summaries = Vec::new();
    for line in lines.take(count) {
        let (place, summary) = line.split_once('\t').unwrap_or((line, ""));
        let mut numbers = place.split(' ').map(str::parse::<u64>);
        let (Some(Ok(offset)), Some(Ok(line)), Some(Ok(column))) =
            (numbers.next(), numbers.next(), numbers.next())
        else {
            return None;
        };
        places.push(Place {
            offset,
            line: usize::try_from(line).ok()?,
            column: usize::try_from(column).ok()?,
        });
        if key.is_some() {
            summaries.push(unescape(summary));
        }
    }
    if places.len() != count {
        return None;
    }
    Some(Index {
        stamp,
        encoding,
        places,
        summaries: key.map(|k| (k, summaries)),
    })
}

/// Keeps `index` for the file at `path`, unless the file is small; failures are
/// ignored (the index is built again next time).
pub(super) fn save(path: &Path, index: &Index) {
    if index.stamp.size < MIN_INDEXED_BYTES {
        return;
    }
    let Some((file, full)) = index_path(path) else {
        return;
    };
    let mut text = String::with_capacity(index.places.len() * 64);
    text.push_str(HEADER);
    text.push('\n');
    let encoding = match index.encoding {
        Encoding::Utf8 => "utf-8",
        Encoding::Latin1 => "iso-8859-1",
    };
    let key = index
        .summaries
        .as_ref()
        .map_or_else(|| "none".to_string(), |(k, _)| k.to_string());
    text.push_str(&format!(
        "path {}\nsize {}\nmodified {}\nencoding {encoding}\nsummaries {key}\ngames {}\n",
        escape(&full),
        index.stamp.size,
        index.stamp.modified_nanos,
        index.places.len()
    ));
    for (i, place) in index.places.iter().enumerate() {
        text.push_str(&format!("{} {} {}", place.offset, place.line, place.column));
        if let Some((_, summaries)) = &index.summaries {
            text.push('\t');
            text.push_str(&escape(summaries.get(i).map_or("", String::as_str)));
        }
        text.push('\n');
    }
    let _ = write_atomic(&file, text.as_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaped_text_comes_back() {
        for text in ["plain", "a\\b\tc\nd\re", "\\n", "ends in \\"] {
            assert_eq!(unescape(&escape(text)), text);
            assert!(!escape(text).contains(['\n', '\t']));
        }
    }
}
