//! Files on disk, handled so that nothing is lost, followed or hung on: one way to write
//! (`write.rs`: atomic replacement, appending all or nothing, whole lines), one way to
//! open and read (`read.rs`: regular files only, never waiting in `open()`, within a
//! size known beforehand), and the tidying of temporary files a killed process left
//! behind (`temp.rs`).

mod read;
mod temp;
mod write;

pub(crate) use read::{
    contains_bytes, kind_of, not_regular, not_regular_kind, open_regular, read_bounded,
};
pub(crate) use temp::remove_stale_temp_files;
pub(crate) use write::write_error;
pub(crate) use write::{
    Appended, append_text, check_appendable, keep_private, replace_unsynced, sync_replaced,
    write_atomic, write_new, write_private,
};
#[cfg(feature = "lab")]
pub(crate) use write::{LineFile, check_replaceable};
pub(crate) use write::{StreamedWrite, write_streamed};

use super::StoreError;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

/// The largest file read as PDN (1 GiB): a game database is far smaller, and a larger
/// file is surely something else.
pub(crate) const MAX_READ_BYTES: u64 = 1 << 30;

/// The bytes of the regular file at `path`, at most [`MAX_READ_BYTES`] of them.
pub(crate) fn read_file(path: &Path) -> Result<Vec<u8>, StoreError> {
    read_bounded(path, MAX_READ_BYTES).map_err(|e| read_error(path, e))
}

/// The store's error for an I/O error of reading `path`: a path that is not a regular
/// file says what it is, and one too big its size.
pub(crate) fn read_error(path: &Path, e: io::Error) -> StoreError {
    if let Some(kind) = not_regular_kind(&e) {
        return StoreError::NotRegular(path.to_path_buf(), kind);
    }
    if e.kind() == io::ErrorKind::FileTooLarge {
        let size = fs::metadata(path).map_or(MAX_READ_BYTES + 1, |m| m.len());
        return StoreError::TooBig(path.to_path_buf(), size);
    }
    StoreError::Read(path.to_path_buf(), e)
}

/// The folder a file at `path` goes in (`.` for a bare file name).
pub(crate) fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Creates the folder `dir` and any missing parents, naming what is in the way: a plain
/// file, or a symbolic link to nothing (which `create_dir_all` reports only as "File
/// exists").
pub(crate) fn create_folder(dir: &Path) -> io::Result<()> {
    for ancestor in dir.ancestors().filter(|a| !a.as_os_str().is_empty()) {
        let Ok(meta) = fs::symlink_metadata(ancestor) else {
            continue;
        };
        if meta.is_symlink() && fs::metadata(ancestor).is_err() {
            let target = fs::read_link(ancestor).unwrap_or_default();
            return Err(io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "{} is a symbolic link to {}, which does not exist",
                    ancestor.display(),
                    target.display()
                ),
            ));
        }
        if ancestor.is_file() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("{} is a file, not a folder", ancestor.display()),
            ));
        }
    }
    fs::create_dir_all(dir)
}

/// Whether the start of a file (`head`, its first few kilobytes) looks like PDN: empty,
/// or text starting with a tag, a comment, or a move number. A game is appended only to
/// such a file, never to a document or a program that happens to be at the path.
pub(crate) fn looks_like_pdn(head: &[u8]) -> bool {
    if head.contains(&0) {
        return false;
    }
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    match head.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(b) => matches!(b, b'[' | b'{' | b';' | b'%' | b'(' | b'*' | b'0'..=b'9'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pdn_is_recognised_by_its_start() {
        assert!(looks_like_pdn(b""));
        assert!(looks_like_pdn(b"\n\n[Event \"x\"]"));
        assert!(looks_like_pdn(b"\xEF\xBB\xBF1. 11-15 *"));
        assert!(!looks_like_pdn(b"#!/bin/sh\n"));
        assert!(!looks_like_pdn(b"[\0\0"));
    }

    /// Finding 14 of issue 19: a dangling symbolic link where a folder goes is named as
    /// such, not as "File exists".
    #[cfg(unix)]
    #[test]
    fn a_dangling_link_in_the_way_of_a_folder_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let games = dir.path().join("games");
        std::os::unix::fs::symlink(dir.path().join("gone"), &games).unwrap();
        let error = create_folder(&games).unwrap_err().to_string();
        assert!(error.contains("is a symbolic link to"), "{error}");
        assert!(error.ends_with("gone, which does not exist"), "{error}");
    }
}
