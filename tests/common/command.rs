//! Running the `checkers` binary as a user does and reading what it printed.

use std::path::Path;
use std::process::{Command, Output};

/// Runs `checkers` with `args` and waits for it, in an empty home of its own (its
/// home, data and config folders: so that what the machine's own hold, endgame
/// databases, preferences or games, changes nothing a test sees), removed after.
pub fn run(args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    command_in(home.path(), args).output().unwrap()
}

/// `checkers` with `args`, its home, data and settings folders in `home`.
fn command_in(home: &Path, args: &[&str]) -> Command {
    let mut command = Command::new(super::program_for(args));
    command
        .args(args)
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"));
    command
}

/// Runs `checkers` with `args` in the home folder `home` (its data in `home/data`,
/// its settings in `home/config`), `input` piped in; waits, and checks it succeeded.
/// Gives what it printed on standard output.
pub fn run_piped_in(home: &Path, args: &[&str], input: &str) -> String {
    let out = output_piped_in(home, args, input);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// Runs `checkers` with `args` in the home folder `home` as [`run_piped_in`] does,
/// `input` piped in, and gives its output whether it succeeded or not.
pub fn output_piped_in(home: &Path, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = command_in(home, args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A program that refuses before it reads (a bad option, a file it will not replace)
    // may be gone before the input is written: that broken pipe is its answer, not a fault.
    if let Err(e) = child.stdin.take().unwrap().write_all(input.as_bytes()) {
        assert_eq!(
            e.kind(),
            std::io::ErrorKind::BrokenPipe,
            "writing the input: {e}"
        );
    }
    child.wait_with_output().unwrap()
}

/// Runs `checkers` with `args` as [`run`] does, the file `input` as its standard input
/// (as `checkers ... < input` runs it); waits for it.
pub fn run_with_input_file(args: &[&str], input: &Path) -> Output {
    let home = tempfile::tempdir().unwrap();
    command_in(home.path(), args)
        .stdin(std::fs::File::open(input).unwrap())
        .output()
        .unwrap()
}

/// What it printed on standard output.
pub fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

/// What it printed on standard error.
pub fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

/// Output as text, whatever bytes it holds.
pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Makes a FIFO at `path`.
pub fn mkfifo(path: &Path) {
    let status = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(status.success());
}
