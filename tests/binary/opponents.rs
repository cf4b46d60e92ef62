//! `match --against` (issue 19, finding 12): the opponent's output is read as it comes,
//! so a chatty program plays on; one that takes too long is ended with the processes it
//! started; a program that is not there is an error before the first game.

use crate::common::command::text;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The player's program, as an opponent: it answers `analyse` as any build does.
const PROGRAM: &str = env!("CARGO_BIN_EXE_checkers");

/// `checkers-lab match` of two games at level 1 against `opponent`, run in `dir`.
fn match_against(dir: &Path, opponent: &str) -> std::process::Output {
    Command::new(crate::common::lab_program())
        .args(["match", "--games", "2", "--movetime", "10"])
        .args(["--level", "1", "--level", "1", "--against", opponent])
        .current_dir(dir)
        .env("HOME", dir)
        .env("XDG_DATA_HOME", dir)
        .output()
        .unwrap()
}

/// Whether process `pid` runs (a zombie waiting to be collected does not count).
#[cfg(target_os = "linux")]
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        !stat
            .rsplit(')')
            .next()
            .unwrap_or("")
            .trim()
            .starts_with('Z')
    })
}

#[test]
fn finding_12_a_chatty_opponent_plays_its_games() {
    let dir = tempfile::tempdir().unwrap();
    // 100 KB of chatter before each move, more than a pipe holds.
    std::fs::write(
        dir.path().join("chatty.sh"),
        format!("head -c 100000 /dev/zero | tr '\\0' x\necho\nexec {PROGRAM} \"$@\"\n"),
    )
    .unwrap();
    let out = match_against(dir.path(), "sh chatty.sh");
    let said = text(&out.stdout);
    assert!(said.contains("game 2:"), "{said}{}", text(&out.stderr));
    assert!(!said.contains("forfeits"), "{said}");
}

#[cfg(target_os = "linux")]
#[test]
fn finding_12_a_timed_out_opponent_is_ended_with_its_children() {
    let dir = tempfile::tempdir().unwrap();
    let pid_file = dir.path().join("sleep.pid");
    std::fs::write(
        dir.path().join("slow.sh"),
        format!("sleep 100 &\necho $! > {}\nwait\n", pid_file.display()),
    )
    .unwrap();
    let out = match_against(dir.path(), "sh slow.sh");
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(
        said.contains("--against: sh slow.sh took too long"),
        "{said}"
    );
    assert!(!text(&out.stdout).contains("game 1:"));
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let deadline = Instant::now() + Duration::from_secs(5);
    while running(pid.trim()) {
        assert!(Instant::now() < deadline, "sleep {} still runs", pid.trim());
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn finding_12_a_missing_opponent_is_an_error_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = match_against(dir.path(), "./no-such-program");
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stdout).contains("game 1:"));
    let said = text(&out.stderr);
    assert!(
        said.contains("--against: cannot run ./no-such-program: not found"),
        "{said}"
    );
}
