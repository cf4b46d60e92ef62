//! Opening and reading files so that nothing hangs and nothing grows without bound:
//! only regular files are opened (a FIFO is never waited on in `open()`), and a read
//! stops at a limit known before it starts.

use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::Path;

/// What kind of thing stands at a path that is not a regular file, in words.
pub(crate) fn kind_of(file_type: fs::FileType) -> &'static str {
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

/// The error inside an [`io::Error`] for a path that is not a regular file: which kind
/// of thing it is (from [`kind_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NotRegular(pub &'static str);

impl fmt::Display for NotRegular {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "it is {}, not a regular file", self.0)
    }
}

impl std::error::Error for NotRegular {}

/// An [`io::Error`] saying a path is `kind` (a FIFO, a device, a folder), not a file.
pub(crate) fn not_regular(kind: &'static str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, NotRegular(kind))
}

/// The kind of thing (from [`kind_of`]) an error of [`not_regular`] names, if it is one.
pub(crate) fn not_regular_kind(error: &io::Error) -> Option<&'static str> {
    error
        .get_ref()
        .and_then(|e| e.downcast_ref::<NotRegular>())
        .map(|n| n.0)
}

/// An error if `meta` is not that of a regular file.
pub(super) fn check_regular(meta: &fs::Metadata) -> io::Result<()> {
    if meta.is_file() {
        Ok(())
    } else {
        Err(not_regular(kind_of(meta.file_type())))
    }
}

/// Options that open without waiting: on Unix `O_NONBLOCK`, so opening a FIFO with no
/// writer returns at once (and is then refused as not a regular file). On a regular
/// file the flag changes nothing.
pub(super) fn nonblocking(options: &mut OpenOptions) -> &mut OpenOptions {
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32);
    }
    options
}

/// Opens the regular file at `path` for reading, and returns it with its size. A FIFO,
/// device, socket or folder is refused before it is opened (checked again on what was
/// opened, in case the path changed meanwhile), so nothing ever waits in `open()`.
pub(crate) fn open_regular(path: &Path) -> io::Result<(File, u64)> {
    check_regular(&fs::metadata(path)?)?;
    let file = nonblocking(OpenOptions::new().read(true)).open(path)?;
    let meta = file.metadata()?;
    check_regular(&meta)?;
    Ok((file, meta.len()))
}

/// The bytes of the regular file at `path`, refused without reading when it is larger
/// than `max` bytes: an error of kind [`io::ErrorKind::FileTooLarge`] whose message
/// gives the size and the limit. A file that grows while read is cut at `max + 1`
/// bytes and refused the same way, so memory never passes the limit.
pub(crate) fn read_bounded(path: &Path, max: u64) -> io::Result<Vec<u8>> {
    let (file, size) = open_regular(path)?;
    let too_big = |size: u64| {
        io::Error::new(
            io::ErrorKind::FileTooLarge,
            format!("it is {} bytes, more than the {max} expected", size),
        )
    };
    if size > max {
        return Err(too_big(size));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    file.take(max.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Whether the regular file at `path` holds the bytes `needle` somewhere, read a block
/// at a time (memory stays a block and the needle, whatever the file's size).
pub(crate) fn contains_bytes(path: &Path, needle: &[u8]) -> io::Result<bool> {
    const BLOCK: usize = 1 << 16;
    if needle.is_empty() {
        return Ok(true);
    }
    let (mut file, _) = open_regular(path)?;
    let mut window: Vec<u8> = Vec::with_capacity(BLOCK + needle.len());
    let mut block = vec![0u8; BLOCK];
    loop {
        let n = match file.read(&mut block) {
            Ok(0) => return Ok(false),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        window.extend_from_slice(&block[..n]);
        if window
            .windows(needle.len())
            .any(|w| w[0] == needle[0] && w == needle)
        {
            return Ok(true);
        }
        // Keep what could be the start of the needle cut by the block's end.
        let keep = window.len().min(needle.len() - 1);
        window.drain(..window.len() - keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_without_waiting_for_a_writer() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("pipe");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status();
        assert!(made.unwrap().success());
        let error = open_regular(&fifo).unwrap_err();
        assert_eq!(not_regular_kind(&error), Some("a FIFO (named pipe)"));
        assert_eq!(
            error.to_string(),
            "it is a FIFO (named pipe), not a regular file"
        );
    }

    #[test]
    fn a_needle_is_found_across_blocks() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("db.pdn");
        let mut text = "x".repeat((1 << 16) - 3);
        text.push_str("[Event \"needle\"]");
        text.push_str(&"y".repeat(1 << 17));
        std::fs::write(&path, &text).unwrap();
        assert!(contains_bytes(&path, b"[Event \"needle\"]").unwrap());
        assert!(!contains_bytes(&path, b"[Event \"other\"]").unwrap());
    }

    #[test]
    fn a_file_over_the_limit_is_refused_before_reading() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big");
        let file = File::create(&path).unwrap();
        // Sparse: a gigabyte that takes no room, refused by its size alone.
        file.set_len(1 << 30).unwrap();
        let error = read_bounded(&path, 1000).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        file.set_len(10).unwrap();
        assert_eq!(read_bounded(&path, 10).unwrap(), vec![0; 10]);
    }
}
