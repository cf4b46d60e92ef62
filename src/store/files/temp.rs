//! Temporary files: created exclusively under a name no other process can guess, and
//! removed at start when the process that made one was killed before renaming it.
//!
//! A temporary for `NAME` is `.NAME.PID-RANDOM.tmp` in `NAME`'s folder. The process id
//! says whether its maker still runs (so only orphans are tidied); the random part makes
//! the name unguessable, and the file is created with `O_EXCL`, so a symbolic link or a
//! file planted at that name makes the creation fail instead of being followed.

use std::fs::{self, File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// The temporary file name for `name` made by process `pid` with random part `random`.
pub(super) fn temp_name(name: &str, pid: u32, random: u64) -> String {
    format!(".{name}.{pid}-{random:016x}.tmp")
}

/// A temporary file, created exclusively beside the file `name` in `dir`, and its path.
/// A name already taken (by anything: a file, a planted symbolic link) is never opened;
/// another random name is tried.
pub(super) fn create_temp(dir: &Path, name: &str) -> io::Result<(File, PathBuf)> {
    create_temp_as(dir, name, false)
}

/// A temporary file as [`create_temp`] makes, readable and writable by its owner
/// alone from its creation when `private` (on Unix; elsewhere as any): a key is
/// never readable by others, not even for a moment before it is renamed into place.
pub(super) fn create_temp_as(dir: &Path, name: &str, private: bool) -> io::Result<(File, PathBuf)> {
    let mut last = None;
    for _ in 0..16 {
        let path = dir.join(temp_name(name, std::process::id(), crate::random::u64()));
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        if private {
            use std::os::unix::fs::OpenOptionsExt;
            options.mode(0o600);
        }
        #[cfg(not(unix))]
        let _ = private;
        match options.open(&path) {
            Ok(file) => return Ok((file, path)),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::other("no free temporary file name")))
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

/// The name and process id of a temporary file: `.NAME.PID-RANDOM.tmp`, or
/// `.NAME.PID.tmp` as earlier versions (and their endgame database builds) named them.
pub(super) fn parse_temp_name(file_name: &str) -> Option<(&str, u32)> {
    let inner = file_name.strip_prefix('.')?.strip_suffix(".tmp")?;
    let (name, tail) = inner.rsplit_once('.')?;
    if name.is_empty() {
        return None;
    }
    let pid = match tail.split_once('-') {
        Some((pid, random))
            if random.len() == 16 && random.bytes().all(|b| b.is_ascii_hexdigit()) =>
        {
            pid
        }
        Some(_) => return None,
        None => tail,
    };
    if pid.is_empty() || !pid.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((name, pid.parse().ok()?))
}

/// Removes from `dir` the temporary files (for the file `name` only, or for any file)
/// whose process no longer runs: what a `kill -9` mid-write leaves. Only regular files
/// are removed (a symbolic link at such a name is someone else's). Returns how many
/// were removed. Errors are ignored: this is tidying.
pub(crate) fn remove_stale_temp_files(dir: &Path, name: Option<&str>) -> usize {
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
        // `DirEntry::file_type` does not follow symbolic links.
        if entry.file_type().is_ok_and(|t| t.is_file()) && fs::remove_file(entry.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    /// A private temporary is the owner's alone from its creation, whatever the
    /// umask lets others read; a plain one is as the umask says.
    #[cfg(unix)]
    #[test]
    fn a_private_temporary_is_created_readable_by_its_owner_only() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let (_file, path) = create_temp_as(dir.path(), "key", true).unwrap();
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{mode:o}");
    }

    use super::*;

    #[test]
    fn temp_names_parse_back_old_and_new() {
        assert_eq!(
            parse_temp_name(&temp_name("autosave.pdn", 42, 0xabc)),
            Some(("autosave.pdn", 42))
        );
        assert_eq!(
            parse_temp_name(".2m0k-1m0k.egdb.77.tmp"),
            Some(("2m0k-1m0k.egdb", 77))
        );
        assert_eq!(parse_temp_name(".x.pdn.tmp"), None);
        assert_eq!(parse_temp_name("x.1.tmp"), None);
        assert_eq!(parse_temp_name("..1.tmp"), None);
        assert_eq!(parse_temp_name(".a.1-xyz.tmp"), None);
    }

    #[test]
    fn random_parts_differ() {
        let a = temp_name("a", 1, crate::random::u64());
        let b = temp_name("a", 1, crate::random::u64());
        assert_ne!(a, b);
    }

    #[test]
    fn only_dead_processes_lose_their_temporary_files() {
        let dir = tempfile::tempdir().unwrap();
        let mine = dir.path().join(temp_name("a.pdn", std::process::id(), 1));
        // Process ids wrap well below this on every system this runs on.
        let dead = dir.path().join(temp_name("a.pdn", 999_999_999, 2));
        let dead_old = dir.path().join(".s.egdb.999999998.tmp");
        let other = dir.path().join(".notes.txt");
        for p in [&mine, &dead, &dead_old, &other] {
            fs::write(p, "x").unwrap();
        }
        assert_eq!(remove_stale_temp_files(dir.path(), Some("b.pdn")), 0);
        assert_eq!(remove_stale_temp_files(dir.path(), None), 2);
        assert!(mine.exists() && other.exists() && !dead.exists() && !dead_old.exists());
    }
}
