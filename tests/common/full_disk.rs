//! A full disk for the program to write to. As root (where `mount` works) it is real: a
//! small tmpfs filled to the last byte. Elsewhere the program is run under a file size
//! limit (`ulimit -f`), which fails a write past the limit the same way, part written
//! and then an error (`File too large` instead of `No space left on device`). Either
//! way the failing write is the system's, not a stand-in.
#![allow(dead_code, clippy::unwrap_used)]

use super::pty::Sandbox;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

/// Files prepared by [`FullDisk::file`] end this many bytes before a 4 KB boundary, and
/// no byte past that boundary can be written: a write of more is cut part way.
pub const ROOM_LEFT: usize = 50;

/// A folder on a full disk (see the module's notes).
pub struct FullDisk {
    dir: tempfile::TempDir,
    mounted: bool,
    /// The limit in bytes for [`run`](FullDisk::run), where nothing is mounted.
    limit: Option<u64>,
}

impl FullDisk {
    /// A folder that [`file`](FullDisk::file) makes full. `CHECKERS_TEST_NO_MOUNT`
    /// set (to anything) takes the file size limit even as root, to test that way too.
    pub fn new() -> FullDisk {
        let dir = tempfile::tempdir().unwrap();
        let mounted = std::env::var_os("CHECKERS_TEST_NO_MOUNT").is_none()
            && Command::new("mount")
                .args(["-t", "tmpfs", "-o", "size=1m", "tmpfs"])
                .arg(dir.path())
                .stderr(Stdio::null())
                .status()
                .is_ok_and(|s| s.success());
        FullDisk {
            dir,
            mounted,
            limit: None,
        }
    }

    /// Which full disk this is, for the test's messages.
    pub fn kind(&self) -> &'static str {
        if self.mounted {
            "a full tmpfs"
        } else {
            "a file size limit"
        }
    }

    /// The folder.
    pub fn dir(&self) -> &Path {
        self.dir.path()
    }

    /// Writes `contents` to `name` in the folder, padded with newlines to end
    /// [`ROOM_LEFT`] bytes before a 4 KB boundary, then makes the disk full: the file
    /// can grow by [`ROOM_LEFT`] bytes and no more.
    pub fn file(&mut self, name: &str, contents: &[u8]) -> PathBuf {
        let path = self.dir().join(name);
        let mut bytes = contents.to_vec();
        let boundary = (bytes.len() + ROOM_LEFT).div_ceil(4096) * 4096;
        bytes.resize(boundary - ROOM_LEFT, b'\n');
        std::fs::write(&path, &bytes).unwrap();
        if self.mounted {
            self.fill();
        } else {
            self.limit = Some(boundary as u64);
        }
        path
    }

    /// Fills the tmpfs to its last byte.
    fn fill(&self) {
        let mut filler = std::fs::File::create(self.dir().join("filler")).unwrap();
        let block = vec![0u8; 4096];
        while filler.write_all(&block).is_ok() {}
        let byte = [0u8; 1];
        while filler.write_all(&byte).is_ok() {}
    }

    /// Frees room: the filler goes, or the limit is lifted.
    pub fn make_room(&mut self) {
        let _ = std::fs::remove_file(self.dir().join("filler"));
        self.limit = None;
    }

    /// Runs the program as [`run_in`](super::pty::run_in) does (the sandbox's data
    /// folder, `input` on standard input, a few seconds at most), under the file size
    /// limit where there is one.
    pub fn run(&self, sandbox: &Sandbox, args: &[&str], input: &[u8]) -> Output {
        let program = super::program_for(args);
        let command = match self.limit {
            Some(bytes) => {
                let mut c = Command::new("sh");
                // `ulimit -f` counts blocks of 512 bytes in sh (dash, bash --posix)
                // and of 1024 in bash: the block size is found by trying.
                c.arg("-c")
                    .arg(format!(
                        "unit=$( (ulimit -f 1; head -c 2048 /dev/zero > .unit) 2>/dev/null; wc -c < .unit; rm -f .unit); ulimit -f $(({bytes} / unit)) && exec \"$0\" \"$@\""
                    ))
                    .arg(program)
                    .args(args);
                c
            }
            None => {
                let mut c = Command::new(program);
                c.args(args);
                c
            }
        };
        super::pty::run_command_in(command, sandbox, args, input, Duration::from_secs(20))
    }
}

impl Drop for FullDisk {
    fn drop(&mut self) {
        if self.mounted {
            let _ = Command::new("umount")
                .arg("-l")
                .arg(self.dir.path())
                .status();
        }
    }
}
