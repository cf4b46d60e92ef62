//! The one way the program writes a file. Every writer (game saves, autosaves, match
//! files, self-play data, training weights, the book, endgame database slices) goes
//! through one of four functions here:
//!
//! - [`write_atomic`] replaces a whole file: the bytes go to a temporary created
//!   exclusively under a random name beside it ([`create_temp`](super::temp)), are
//!   flushed to disk, and the temporary is renamed over the file. A crash leaves the
//!   old file or the new one, never half of one.
//! - [`append_text`] adds a game to a PDN file, or creates the file with it. Creating
//!   never replaces what a concurrent creator wrote: the complete file is linked into
//!   place only if nothing is there, and otherwise the game is appended.
//! - [`LineFile`] adds whole lines to a data file.
//! - [`write_streamed`] makes a new file of any size from a stream of bytes (`pdn
//!   extract`, `pdn merge`), as [`write_atomic`] does: whole or not at all.
//!
//! Appending is all or nothing: under an exclusive lock (so concurrent writers take
//! turns and each sees the other's end), the bytes are written and flushed, and on any
//! failure (a full disk, a file size limit) the file is cut back to its old length.
//! Nothing is ever written into a FIFO, a device or a folder: those are refused before
//! anything is opened for writing.

use super::read::{check_regular, nonblocking};
use super::temp::{create_temp, create_temp_as, remove_stale_temp_files};
use super::{create_folder, folder_of, looks_like_pdn};
use crate::store::StoreError;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::time::{Duration, Instant};

/// How long a writer waits for another process's lock on a file before giving up: far
/// longer than any append takes, short enough that a stuck program is reported.
const LOCK_WAIT: Duration = Duration::from_secs(10);

/// The metadata of what stands at `path`, if anything: an error if it is not a
/// regular file (symbolic links followed).
fn existing_regular(path: &Path) -> io::Result<Option<fs::Metadata>> {
    match fs::metadata(path) {
        Ok(meta) => check_regular(&meta).map(|()| Some(meta)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The last part of `path`, for naming its temporary file.
fn file_name_of(path: &Path) -> io::Result<String> {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{} names no file", path.display()),
            )
        })
}

/// Flushes the folder `dir` itself, so a rename or a new name in it survives a power
/// cut. Best effort: some systems cannot open a folder for this.
fn sync_folder(dir: &Path) {
    #[cfg(unix)]
    if let Ok(folder) = File::open(dir) {
        let _ = folder.sync_all();
    }
    #[cfg(not(unix))]
    let _ = dir;
}

/// Writes `contents` to `path` so that a crash never leaves a half-written file: the
/// bytes go to a temporary file created exclusively beside it (`.NAME.PID-RANDOM.tmp`,
/// never an existing file or link), are flushed to disk, and the temporary file is
/// renamed over `path`. An existing `path` must be a regular file (a FIFO, a device or
/// a folder is refused before anything is written); its permissions carry over.
/// Missing parent folders are created, and temporary files for `path` left by
/// processes that no longer run are removed.
pub(crate) fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let name = file_name_of(path)?;
    replace(path, contents, Replacing::Synced)?;
    remove_stale_temp_files(&folder_of(path), Some(&name));
    Ok(())
}

/// Writes `contents` to `path` as [`write_atomic`] does, the file readable and writable
/// by its owner alone (on Unix) from the moment it is created: for a key or a token,
/// which whoever reads it could use. An existing file's wider permissions do not carry
/// over.
pub(crate) fn write_private(path: &Path, contents: &[u8]) -> io::Result<()> {
    let name = file_name_of(path)?;
    replace(path, contents, Replacing::Private)?;
    remove_stale_temp_files(&folder_of(path), Some(&name));
    Ok(())
}

/// How [`replace`] writes the new file.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Replacing {
    /// Flushed to the disk, the old file's permissions kept.
    Synced,
    /// Left to the system to flush ([`sync_replaced`]), the old file's permissions kept.
    Unsynced,
    /// Flushed to the disk, the owner's alone from its creation.
    Private,
}

/// Replaces `path` with `contents` as [`write_atomic`] does, but leaves the flush to
/// the disk to [`sync_replaced`]: at once the new file is whole for whoever reads it
/// and outlives this program being killed (the system holds it); only a power cut
/// before the flush could lose it. For the autosave, which a peer across the network
/// hears of only after it is written: the flush, which takes milliseconds on a disk,
/// follows the telling instead of delaying it. (Stale temporary files are removed at
/// the program's start, not at each save.)
pub(crate) fn replace_unsynced(path: &Path, contents: &[u8]) -> io::Result<()> {
    replace(path, contents, Replacing::Unsynced)
}

/// Flushes to the disk a file [`replace_unsynced`] wrote: its bytes, then its folder's
/// entry for it.
pub(crate) fn sync_replaced(path: &Path) -> io::Result<()> {
    File::open(path)?.sync_all()?;
    sync_folder(&folder_of(path));
    Ok(())
}

/// Writes `contents` to a new temporary file beside `path` and renames it over `path`,
/// as `how` says.
fn replace(path: &Path, contents: &[u8], how: Replacing) -> io::Result<()> {
    let dir = folder_of(path);
    create_folder(&dir)?;
    let existing = existing_regular(path)?;
    let name = file_name_of(path)?;
    let private = how == Replacing::Private;
    let synced = how != Replacing::Unsynced;
    let (mut file, temp) = create_temp_as(&dir, &name, private)?;
    let written = (|| {
        if let Some(meta) = existing.as_ref().filter(|_| !private) {
            file.set_permissions(meta.permissions())?;
        }
        file.write_all(contents)?;
        if synced {
            file.sync_all()?;
        }
        drop(file);
        fs::rename(&temp, path)?;
        if synced {
            sync_folder(&dir);
        }
        Ok(())
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// Checks, before any work, that [`write_atomic`] may write `path`: nothing is there,
/// or a regular file (a FIFO, a device or a folder is refused).
#[cfg(feature = "lab")]
pub(crate) fn check_replaceable(path: &Path) -> io::Result<()> {
    file_name_of(path)?;
    existing_regular(path).map(drop)
}

/// What [`create_complete`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Creation {
    /// The file is there, written whole.
    Complete,
    /// The file is there, empty: this file system has no hard links, so it was created
    /// exclusively, and the text is to be appended as to any file.
    Empty,
    /// Something was there already: nothing was written.
    Taken,
}

/// Writes `contents` as the new file `path`, complete, unless something is already
/// there. The file appears whole (a temporary hard-linked into place, which fails
/// rather than replace anything); where the file system has no hard links, the file is
/// created empty with `O_EXCL` for the caller to append to under its lock, as another
/// program creating it at the same time does.
fn create_complete(path: &Path, contents: &[u8]) -> io::Result<Creation> {
    let dir = folder_of(path);
    let name = file_name_of(path)?;
    let (mut file, temp) = create_temp(&dir, &name)?;
    let written = file.write_all(contents).and_then(|()| file.sync_all());
    drop(file);
    let linked = written.and_then(|()| fs::hard_link(&temp, path));
    let _ = fs::remove_file(&temp);
    match linked {
        Ok(()) => {
            sync_folder(&dir);
            Ok(Creation::Complete)
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(Creation::Taken),
        // A full disk or a size limit: the same would happen below.
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::StorageFull
                    | io::ErrorKind::FileTooLarge
                    | io::ErrorKind::QuotaExceeded
            ) =>
        {
            Err(e)
        }
        Err(_) => match OpenOptions::new().append(true).create_new(true).open(path) {
            Ok(_) => Ok(Creation::Empty),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(Creation::Taken),
            Err(e) => Err(e),
        },
    }
}

/// Writes `contents` as the new file `path`, whole or not at all: nothing is written
/// over what is already there (an error of kind [`io::ErrorKind::AlreadyExists`]), and
/// a failed write (a full disk) leaves no file behind, not even an empty one.
/// Missing parent folders are created.
pub(crate) fn write_new(path: &Path, contents: &[u8]) -> io::Result<()> {
    create_folder(&folder_of(path))?;
    match create_complete(path, contents)? {
        Creation::Complete => Ok(()),
        Creation::Taken => Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "the file exists",
        )),
        Creation::Empty => {
            // No hard links on this file system: the file was created empty, by this
            // process, so one that could not be filled is this process's to remove.
            let filled = OpenOptions::new()
                .append(true)
                .open(path)
                .and_then(|file| append_locked(&file, |_, _| Ok(contents.to_vec())));
            if filled.is_err() {
                let _ = fs::remove_file(path);
            }
            filled
        }
    }
}

/// Takes the exclusive lock of `file`, waiting up to [`LOCK_WAIT`] for another process
/// to let go of it.
fn lock(file: &File) -> io::Result<()> {
    let started = Instant::now();
    loop {
        match file.try_lock() {
            Ok(()) => return Ok(()),
            Err(TryLockError::WouldBlock) if started.elapsed() < LOCK_WAIT => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(TryLockError::WouldBlock) => {
                return Err(io::Error::new(
                    io::ErrorKind::WouldBlock,
                    "another program keeps the file locked",
                ));
            }
            Err(TryLockError::Error(e)) => return Err(e),
        }
    }
}

/// Appends to `file` (opened for appending) the bytes `make` returns, given the file
/// and its length, all or nothing: under the file's exclusive lock, written then
/// flushed to disk; on any failure the file is cut back to the length it had.
pub(super) fn append_locked(
    file: &File,
    make: impl FnOnce(&File, u64) -> io::Result<Vec<u8>>,
) -> io::Result<()> {
    lock(file)?;
    let appended = (|| {
        let length = file.metadata()?.len();
        let bytes = make(file, length)?;
        let written = (&*file).write_all(&bytes).and_then(|()| file.sync_data());
        if let Err(e) = written {
            // Cutting back frees space, so it works on a full disk too.
            let _ = file.set_len(length);
            let _ = file.sync_data();
            return Err(e);
        }
        Ok(())
    })();
    let _ = file.unlock();
    appended
}

/// The last `n` bytes (or fewer) of `file`, whose length is `length`.
fn tail(mut file: &File, length: u64, n: u64) -> io::Result<Vec<u8>> {
    let start = length.saturating_sub(n);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::new();
    file.take(length - start).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// What [`append_text`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Appended {
    /// There was no file: it was written new.
    Created,
    /// The text went at the end of the existing file.
    Added,
}

/// The store's error for an I/O error of writing `path`: a path that is not a regular
/// file says what it is.
pub(crate) fn write_error(path: &Path, e: io::Error) -> StoreError {
    match super::read::not_regular_kind(&e) {
        Some(kind) => StoreError::NotRegular(path.to_path_buf(), kind),
        None => StoreError::Write(path.to_path_buf(), e),
    }
}

/// Adds `text` (a game as PDN) at the end of the PDN file at `path`, after a blank
/// line, or writes the file new if there is none. Many processes may do this to one
/// file at once, a new one included: every game is kept, each whole (see the module's
/// notes). An existing file must be a regular file that looks like PDN
/// ([`looks_like_pdn`]); otherwise nothing is written.
pub(crate) fn append_text(path: &Path, text: &str) -> Result<Appended, StoreError> {
    let fail = |e: io::Error| write_error(path, e);
    let mut created = false;
    if existing_regular(path).map_err(fail)?.is_none() {
        create_folder(&folder_of(path)).map_err(fail)?;
        match create_complete(path, text.as_bytes()).map_err(fail)? {
            Creation::Complete => return Ok(Appended::Created),
            Creation::Empty => created = true,
            // Another process created it meanwhile: the game goes after its game.
            Creation::Taken => {}
        }
    }
    let file = open_pdn_to_append(path)?;
    append_locked(&file, |file, length| {
        let end = tail(file, length, 2)?;
        let separator: &[u8] = if end.is_empty() || end.ends_with(b"\n\n") {
            b""
        } else if end.ends_with(b"\n") {
            b"\n"
        } else {
            b"\n\n"
        };
        Ok([separator, text.as_bytes()].concat())
    })
    .map_err(fail)?;
    Ok(if created {
        Appended::Created
    } else {
        Appended::Added
    })
}

/// Opens the existing regular file at `path` to add to it, once its first 4 KB show it
/// is PDN ([`looks_like_pdn`]).
fn open_pdn_to_append(path: &Path) -> Result<File, StoreError> {
    let fail = |e: io::Error| write_error(path, e);
    let mut file = nonblocking(OpenOptions::new().read(true).append(true))
        .open(path)
        .map_err(fail)?;
    check_regular(&file.metadata().map_err(fail)?).map_err(fail)?;
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
pub(crate) fn check_appendable(path: &Path) -> Result<(), StoreError> {
    let fail = |e: io::Error| write_error(path, e);
    if existing_regular(path).map_err(fail)?.is_some() {
        return open_pdn_to_append(path).map(drop);
    }
    create_folder(&folder_of(path)).map_err(fail)?;
    match OpenOptions::new().write(true).create_new(true).open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => open_pdn_to_append(path).map(drop),
        Err(e) => Err(fail(e)),
    }
}

/// A file of lines (self-play's training data) that whole lines are added to: each
/// [`append`](LineFile::append) lands complete or not at all, so the file never ends
/// in half a line and two lines are never glued together.
#[derive(Debug)]
#[cfg(any(test, feature = "lab"))]
pub(crate) struct LineFile {
    file: File,
}

#[cfg(any(test, feature = "lab"))]
impl LineFile {
    /// Opens the line file at `path` to add to it, creating it (and its folders) if
    /// missing. Anything but a regular file is refused before it is opened.
    pub(crate) fn open(path: &Path) -> io::Result<LineFile> {
        if existing_regular(path)?.is_none() {
            create_folder(&folder_of(path))?;
        }
        let file =
            nonblocking(OpenOptions::new().read(true).append(true).create(true)).open(path)?;
        let meta = file.metadata()?;
        if !meta.is_file() {
            return Err(super::read::not_regular(super::read::kind_of(
                meta.file_type(),
            )));
        }
        Ok(LineFile { file })
    }

    /// Adds `lines` (a newline is added if the last has none), all or nothing. A last
    /// line cut short at the end of the file (left by a crash of an earlier version) is
    /// removed first: it could not be read, and the new lines would be glued to it.
    pub(crate) fn append(&self, lines: &str) -> io::Result<()> {
        let mut bytes = lines.as_bytes().to_vec();
        if !bytes.is_empty() && !bytes.ends_with(b"\n") {
            bytes.push(b'\n');
        }
        append_locked(&self.file, |file, length| {
            let whole = whole_lines_length(file, length)?;
            if whole < length {
                file.set_len(whole)?;
            }
            Ok(bytes)
        })
    }
}

/// The length of `file` up to the end of its last complete line (`length` if it ends
/// in a newline, 0 if it holds none).
#[cfg(any(test, feature = "lab"))]
fn whole_lines_length(file: &File, length: u64) -> io::Result<u64> {
    const CHUNK: u64 = 4096;
    let mut end = length;
    while end > 0 {
        let start = end.saturating_sub(CHUNK);
        let mut chunk = Vec::new();
        let mut reader = file;
        reader.seek(SeekFrom::Start(start))?;
        reader.take(end - start).read_to_end(&mut chunk)?;
        if end == length && chunk.last() == Some(&b'\n') {
            return Ok(length);
        }
        if let Some(i) = chunk.iter().rposition(|&b| b == b'\n') {
            return Ok(start + i as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// Lets only the owner read and write `file` (a key or a token is theirs alone); a
/// failure is not worth stopping for.
pub(crate) fn keep_private(file: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o600));
    }
    #[cfg(not(unix))]
    let _ = file;
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// Finding 1 of issue 19: eight threads (each its own open file, as processes have)
    /// create the same new file at once, ten rounds; every game is kept.
    #[test]
    fn concurrent_creators_of_a_new_file_keep_every_game() {
        let dir = tempfile::tempdir().unwrap();
        for round in 0..10 {
            let path = dir.path().join(format!("new-{round}.pdn"));
            std::thread::scope(|scope| {
                for writer in 0..8 {
                    let path = &path;
                    scope.spawn(move || {
                        let game = format!("[Round \"{writer}\"]\n1. 11-15 *\n");
                        append_text(path, &game).unwrap();
                    });
                }
            });
            let text = fs::read_to_string(&path).unwrap();
            for writer in 0..8 {
                assert!(
                    text.contains(&format!("[Round \"{writer}\"]\n1. 11-15 *\n")),
                    "round {round}: game {writer} lost from {text:?}"
                );
            }
            assert_eq!(crate::pdn::read_games(&text).len(), 8);
        }
    }

    /// Finding 7 of issue 19: a symbolic link planted at the old, guessable temporary
    /// name (and at every name of the new form one could guess) is not followed.
    #[cfg(unix)]
    #[test]
    fn a_planted_symlink_at_a_temporary_name_is_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim");
        fs::write(&victim, "precious\n").unwrap();
        let planted = dir
            .path()
            .join(format!(".new.pdn.{}.tmp", std::process::id()));
        std::os::unix::fs::symlink(&victim, &planted).unwrap();
        let path = dir.path().join("new.pdn");
        write_atomic(&path, b"1. 11-15 *\n").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
        assert!(!fs::symlink_metadata(&path).unwrap().is_symlink());
        assert_eq!(fs::read_to_string(&path).unwrap(), "1. 11-15 *\n");
        let other = dir.path().join("other.pdn");
        append_text(&other, "1. 9-13 *\n").unwrap();
        assert_eq!(fs::read_to_string(&victim).unwrap(), "precious\n");
        assert!(!fs::symlink_metadata(&other).unwrap().is_symlink());
        // The planted link is left alone: it is not this program's.
        assert!(fs::symlink_metadata(&planted).unwrap().is_symlink());
    }

    /// Finding 6 of issue 19: a FIFO or a device in the place of the file written is
    /// refused, and stays what it was.
    #[cfg(unix)]
    #[test]
    fn a_fifo_or_device_is_never_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("weights.bin");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        for target in [fifo.as_path(), Path::new("/dev/null")] {
            let error = write_atomic(target, b"x").unwrap_err();
            assert!(
                super::super::read::not_regular_kind(&error).is_some(),
                "{error}"
            );
            let kind = fs::metadata(target).unwrap().file_type();
            assert!(kind.is_fifo() || kind.is_char_device());
            assert!(LineFile::open(target).is_err());
        }
        assert!(matches!(
            append_text(&fifo, "1. 11-15 *\n"),
            Err(StoreError::NotRegular(_, "a FIFO (named pipe)"))
        ));
    }

    #[test]
    fn a_line_cut_short_is_removed_before_lines_are_added() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("data.txt");
        fs::write(&path, "one\ntwo\nthr").unwrap();
        let lines = LineFile::open(&path).unwrap();
        lines.append("four\nfive").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "one\ntwo\nfour\nfive\n");
        fs::write(&path, "x".repeat(10_000)).unwrap();
        lines.append("six\n").unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap(), "six\n");
    }
}

/// A file written as a stream by [`write_streamed`] failed: the file it names was left
/// as it was.
#[derive(Debug)]
pub(crate) enum StreamedWrite<E> {
    /// What made the contents failed (reading what is copied, most often).
    Filling(E),
    /// The file could not be written (a full disk, no permission, a folder there) or,
    /// without `replace`, something is already there ([`io::ErrorKind::AlreadyExists`]).
    Writing(io::Error),
}

/// Writes the new file `path` with the bytes `fill` writes, as a stream (a file of
/// any size in the memory of a buffer), whole or not at all: into a temporary created
/// exclusively beside it, flushed to the disk, then put in place: renamed over `path`
/// when `replace`, else hard-linked there, which fails rather than replace anything
/// that came since. Any failure (a full disk, a `fill` that fails) removes the
/// temporary: no half file is left. An existing `path` must be a regular file (a
/// FIFO, a device or a folder is refused before anything is written).
pub(crate) fn write_streamed<T, E>(
    path: &Path,
    replace: bool,
    fill: impl FnOnce(&mut io::BufWriter<&mut File>) -> Result<T, E>,
) -> Result<T, StreamedWrite<E>> {
    let name = file_name_of(path).map_err(StreamedWrite::Writing)?;
    let existing = existing_regular(path).map_err(StreamedWrite::Writing)?;
    if existing.is_some() && !replace {
        return Err(StreamedWrite::Writing(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "the file exists",
        )));
    }
    let dir = folder_of(path);
    let (mut file, temp) = create_temp(&dir, &name).map_err(StreamedWrite::Writing)?;
    let written = (|| {
        let mut out = io::BufWriter::with_capacity(1 << 16, &mut file);
        let made = fill(&mut out).map_err(StreamedWrite::Filling)?;
        out.flush().map_err(StreamedWrite::Writing)?;
        drop(out);
        file.sync_all().map_err(StreamedWrite::Writing)?;
        if replace {
            fs::rename(&temp, path).map_err(StreamedWrite::Writing)?;
        } else {
            fs::hard_link(&temp, path).map_err(StreamedWrite::Writing)?;
            let _ = fs::remove_file(&temp);
        }
        sync_folder(&dir);
        Ok(made)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}
