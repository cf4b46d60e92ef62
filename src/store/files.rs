//! Files on disk, handled so that nothing is lost or hung on: reading only regular files
//! of a sane size, atomic writes through a temporary file, appending a game to a PDN
//! file, and removing the temporary files a killed process left behind.

use super::StoreError;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// The largest file read as PDN (1 GiB): a game database is far smaller, and a larger
/// file is surely something else.
pub const MAX_READ_BYTES: u64 = 1 << 30;

/// What kind of thing stands at a path that is not a regular file, in words.
pub(super) fn kind_of(file_type: fs::FileType) -> &'static str {
    if file_type.is_dir() {
        return "a folder";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_char_device() || file_type.is_block_device() {
            return "a device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    "not a regular file"
}

/// Checks that `path` is a regular file (symbolic links followed) and returns its size.
/// A FIFO, a device, a socket or a folder is refused at once: reading one could block
/// forever or never end.
pub fn regular_file_size(path: &Path) -> Result<u64, StoreError> {
    let meta = fs::metadata(path).map_err(|e| StoreError::Read(path.to_path_buf(), e))?;
    if !meta.is_file() {
        return Err(StoreError::NotRegular(
            path.to_path_buf(),
            kind_of(meta.file_type()),
        ));
    }
    Ok(meta.len())
}

/// The bytes of the regular file at `path`, at most [`MAX_READ_BYTES`] of them.
pub fn read_file(path: &Path) -> Result<Vec<u8>, StoreError> {
    let size = regular_file_size(path)?;
    if size > MAX_READ_BYTES {
        return Err(StoreError::TooBig(path.to_path_buf(), size));
    }
    let read = |path: &Path| -> io::Result<Vec<u8>> {
        let file = File::open(path)?;
        // The file may have grown since it was measured: never read past the limit.
        let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
        file.take(MAX_READ_BYTES + 1).read_to_end(&mut bytes)?;
        Ok(bytes)
    };
    let bytes = read(path).map_err(|e| StoreError::Read(path.to_path_buf(), e))?;
    if bytes.len() as u64 > MAX_READ_BYTES {
        return Err(StoreError::TooBig(path.to_path_buf(), bytes.len() as u64));
    }
    Ok(bytes)
}

/// The folder a file at `path` goes in (`.` for a bare file name).
fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// Creates the folder `dir` and any missing parents, naming a plain file in the way
/// (which `create_dir_all` reports only as "File exists").
pub fn create_folder(dir: &Path) -> io::Result<()> {
    if let Some(file) = dir.ancestors().find(|a| a.is_file()) {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is a file, not a folder", file.display()),
        ));
    }
    fs::create_dir_all(dir)
}

/// The name of the temporary file [`write_atomic`] writes `name` through, for process
/// `pid`: `.NAME.PID.tmp`.
fn temp_name(name: &str, pid: u32) -> String {
    format!(".{name}.{pid}.tmp")
}

/// Writes `contents` to `path` so that a crash never leaves a half-written file: the
/// bytes go to a temporary file beside it (`.NAME.PID.tmp`), are flushed to disk, and
/// the temporary file is renamed over `path`. Missing parent folders are created, and
/// temporary files for `path` left by processes that no longer run are removed.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = folder_of(path);
    create_folder(&dir)?;
    if path.is_dir() {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            format!("{} is a folder", path.display()),
        ));
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(temp_name(&name, std::process::id()));
    let written = (|| {
        let mut file = File::create(&temp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    } else {
        remove_stale_temp_files(&dir, Some(&name));
    }
    written
}

/// Whether the start of a file (`head`, its first few kilobytes) looks like PDN: empty,
/// or text starting with a tag, a comment, or a move number. A game is appended only to
/// such a file, never to a document or a program that happens to be at the path.
pub fn looks_like_pdn(head: &[u8]) -> bool {
    if head.contains(&0) {
        return false;
    }
    let head = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(head);
    match head.iter().find(|b| !b.is_ascii_whitespace()) {
        None => true,
        Some(b) => matches!(b, b'[' | b'{' | b';' | b'%' | b'(' | b'*' | b'0'..=b'9'),
    }
}

/// What [`append_text`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Appended {
    /// There was no file: it was written new.
    Created,
    /// The text went at the end of the existing file.
    Added,
}

/// Adds `text` (a game as PDN) at the end of the PDN file at `path`, after a blank
/// line, or writes the file new if there is none. The text goes in one write, flushed
/// to disk. An existing file must be a regular file that looks like PDN
/// ([`looks_like_pdn`]); otherwise nothing is written.
pub fn append_text(path: &Path, text: &str) -> Result<Appended, StoreError> {
    let fail = |e: io::Error| StoreError::Write(path.to_path_buf(), e);
    match fs::metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            write_atomic(path, text.as_bytes()).map_err(fail)?;
            return Ok(Appended::Created);
        }
        Err(e) => return Err(fail(e)),
        Ok(meta) if !meta.is_file() => {
            return Err(StoreError::NotRegular(
                path.to_path_buf(),
                kind_of(meta.file_type()),
            ));
        }
        Ok(_) => {}
    }
    let mut file = open_pdn_to_append(path)?;
    let length = file.seek(SeekFrom::End(0)).map_err(fail)?;
    let mut tail = Vec::new();
    file.seek(SeekFrom::Start(length.saturating_sub(2)))
        .map_err(fail)?;
    file.read_to_end(&mut tail).map_err(fail)?;
    let separator = if tail.is_empty() || tail.ends_with(b"\n\n") {
        ""
    } else if tail.ends_with(b"\n") {
        "\n"
    } else {
        "\n\n"
    };
    let mut bytes = Vec::with_capacity(separator.len() + text.len());
    bytes.extend_from_slice(separator.as_bytes());
    bytes.extend_from_slice(text.as_bytes());
    file.write_all(&bytes).map_err(fail)?;
    file.sync_data().map_err(fail)?;
    Ok(Appended::Added)
}

/// Opens the existing file at `path` to add to it, once its first 4 KB show it is PDN
/// ([`looks_like_pdn`]).
fn open_pdn_to_append(path: &Path) -> Result<fs::File, StoreError> {
    let fail = |e: io::Error| StoreError::Write(path.to_path_buf(), e);
    let mut file = OpenOptions::new()
        .read(true)
        .append(true)
        .open(path)
        .map_err(fail)?;
    let mut head = Vec::new();
    (&mut file)
        .take(4096)
        .read_to_end(&mut head)
        .map_err(fail)?;
    if looks_like_pdn(&head) {
        Ok(file)
    } else {
        Err(StoreError::NotPdn(path.to_path_buf()))
    }
}

/// Checks, before any work, that a PDN file can be added to at `path`: an existing file
/// must be a regular file that looks like PDN and opens for appending; a missing one is
/// created empty (with its folders), which shows the place is writable.
pub fn check_appendable(path: &Path) -> Result<(), StoreError> {
    let fail = |e: io::Error| StoreError::Write(path.to_path_buf(), e);
    match fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(StoreError::NotRegular(
            path.to_path_buf(),
            kind_of(meta.file_type()),
        )),
        Ok(_) => open_pdn_to_append(path).map(drop),
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            create_folder(&folder_of(path)).map_err(fail)?;
            OpenOptions::new()
                .append(true)
                .create(true)
                .open(path)
                .map(drop)
                .map_err(fail)
        }
        Err(e) => Err(fail(e)),
    }
}

/// Whether the process `pid` still runs (as far as can be told: on Unix by asking the
/// system; elsewhere every process counts as running).
fn process_alive(pid: u32) -> bool {
    if pid == std::process::id() {
        return true;
    }
    #[cfg(unix)]
    {
        let Some(pid) = i32::try_from(pid)
            .ok()
            .and_then(rustix::process::Pid::from_raw)
        else {
            return false;
        };
        // Permission denied means it runs, as another user.
        !matches!(
            rustix::process::test_kill_process(pid),
            Err(rustix::io::Errno::SRCH)
        )
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// The name and process id of a temporary file of [`write_atomic`]: `.NAME.PID.tmp`.
fn parse_temp_name(file_name: &str) -> Option<(&str, u32)> {
    let inner = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (name, pid) = inner.rsplit_once('.')?;
    if name.is_empty() {
        return None;
    }
    Some((name, pid.parse().ok()?))
}

/// Removes from `dir` the temporary files of [`write_atomic`] (for the file `name` only,
/// or for any file) whose process no longer runs: what a `kill -9` mid-write leaves.
/// Returns how many were removed. Errors are ignored: this is tidying.
pub fn remove_stale_temp_files(dir: &Path, name: Option<&str>) -> usize {
    let Ok(entries) = fs::read_dir(dir) else {
        return 0;
    };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file_name = entry.file_name();
        let Some((for_name, pid)) = file_name.to_str().and_then(parse_temp_name) else {
            continue;
        };
        if name.is_some_and(|n| n != for_name) || process_alive(pid) {
            continue;
        }
        if entry.file_type().is_ok_and(|t| t.is_file()) && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names_parse_back() {
        assert_eq!(
            parse_temp_name(&temp_name("autosave.pdn", 42)),
            Some(("autosave.pdn", 42))
        );
        assert_eq!(parse_temp_name(".x.pdn.tmp"), None);
        assert_eq!(parse_temp_name("x.1.tmp"), None);
        assert_eq!(parse_temp_name("..1.tmp"), None);
    }

    #[test]
    fn pdn_is_recognised_by_its_start() {
        assert!(looks_like_pdn(b""));
        assert!(looks_like_pdn(b"\n\n[Event \"x\"]"));
        assert!(looks_like_pdn(b"\xEF\xBB\xBF1. 11-15 *"));
        assert!(!looks_like_pdn(b"#!/bin/sh\n"));
        assert!(!looks_like_pdn(b"[\0\0"));
    }

    #[test]
    fn appending_adds_a_blank_line_between_games() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.pdn");
        assert!(matches!(
            append_text(&path, "1. 11-15 *\n"),
            Ok(Appended::Created)
        ));
        assert!(matches!(
            append_text(&path, "1. 9-13 *\n"),
            Ok(Appended::Added)
        ));
        fs::write(&path, fs::read_to_string(&path).unwrap().trim_end()).unwrap();
        assert!(matches!(
            append_text(&path, "1. 10-14 *\n"),
            Ok(Appended::Added)
        ));
        assert_eq!(
            fs::read_to_string(&path).unwrap(),
            "1. 11-15 *\n\n1. 9-13 *\n\n1. 10-14 *\n"
        );
        let script = dir.path().join("run.sh");
        fs::write(&script, "#!/bin/sh\n").unwrap();
        assert!(matches!(
            append_text(&script, "1. 11-15 *\n"),
            Err(StoreError::NotPdn(_))
        ));
        assert_eq!(fs::read_to_string(&script).unwrap(), "#!/bin/sh\n");
        assert!(matches!(
            append_text(dir.path(), "x"),
            Err(StoreError::NotRegular(_, "a folder"))
        ));
    }

    #[test]
    fn only_dead_processes_lose_their_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let mine = dir.path().join(temp_name("a.pdn", std::process::id()));
        // Process ids wrap well below this on every system this runs on.
        let dead = dir.path().join(temp_name("a.pdn", 999_999_999));
        let other = dir.path().join(".notes.txt");
        for p in [&mine, &dead, &other] {
            fs::write(p, "x").unwrap();
        }
        assert_eq!(remove_stale_temp_files(dir.path(), Some("b.pdn")), 0);
        assert_eq!(remove_stale_temp_files(dir.path(), None), 1);
        assert!(mine.exists() && other.exists() && !dead.exists());
    }
}
