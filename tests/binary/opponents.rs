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
    lab_match(dir, &["--against", opponent])
}

/// `checkers-lab match` of two games at level 1 against `opponent` spoken to by the Hub
/// protocol, run in `dir`.
fn match_against_hub(dir: &Path, opponent: &str) -> std::process::Output {
    lab_match(dir, &["--hub", "--against", opponent])
}

/// `checkers-lab match` of two games at level 1, 10 ms a move, with `args`, run in
/// `dir`.
fn lab_match(dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new(crate::common::lab_program())
        .args(["match", "--games", "2", "--movetime", "10"])
        .args(["--level", "1", "--level", "1"])
        .args(args)
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
    let deadline = Instant::now() + Duration::from_secs(30);
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

#[test]
fn a_hub_program_plays_whole_games_kept_running_from_move_to_move() {
    let dir = tempfile::tempdir().unwrap();
    // The script writes down each process it starts: one a game, and one for the check
    // before the first game.
    std::fs::write(
        dir.path().join("hub.sh"),
        format!("echo started >> starts.txt\nexec {PROGRAM} hub\n"),
    )
    .unwrap();
    let out = match_against_hub(dir.path(), "sh hub.sh");
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(
        said.contains("game 1:") && said.contains("game 2:"),
        "{said}"
    );
    assert!(!said.contains("forfeits"), "{said}");
    let starts = std::fs::read_to_string(dir.path().join("starts.txt")).unwrap();
    assert_eq!(starts.lines().count(), 3, "{starts}");
}

#[test]
fn a_program_that_does_not_speak_hub_is_an_error_before_the_first_game() {
    let dir = tempfile::tempdir().unwrap();
    let out = match_against_hub(dir.path(), "echo hello");
    assert_eq!(out.status.code(), Some(1));
    assert!(!text(&out.stdout).contains("game 1:"));
    let said = text(&out.stderr);
    assert!(
        said.contains("--against: echo hello ended (exit status 0)"),
        "{said}"
    );
}

#[test]
fn a_hub_program_that_plays_an_illegal_move_is_named_with_its_move() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("fake.sh"),
        "while read -r command rest; do case $command in\n\
         hub) echo 'param name=variant value=english type=enum values=english'; echo wait;;\n\
         init) echo ready;;\n\
         go) echo 'done move=1-2';;\n\
         quit) exit 0;;\n\
         esac; done\n",
    )
    .unwrap();
    let out = match_against_hub(dir.path(), "sh fake.sh");
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(said.contains("--against: sh fake.sh played 1-2:"), "{said}");
}
