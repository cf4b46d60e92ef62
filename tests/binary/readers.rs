//! Every reader bounded and type-checked (issue 19, findings 8, 9, 10, 13 and 14): a FIFO
//! or a device where the program reads on its own is skipped with a message and never
//! opened, a slice is read only within the size its signature allows, training data is
//! read a bounded line at a time from a regular file, and text from files and arguments
//! reaches the terminal printable, errors included.

use crate::common::command::{mkfifo, text};
use crate::common::pty::{Sandbox, Session, run_command_in, run_in};
use std::path::PathBuf;
use std::time::Duration;

/// The endgame database folder of `sandbox`, created.
fn egdb_folder(sandbox: &Sandbox) -> PathBuf {
    let dir = sandbox.data_dir().join("egdb");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A two-king position: its slice is `0m1k-0m1k`.
const TWO_KINGS: &str = "B:WK1:BK10";

/// Finding 8: a FIFO under a slice's name in the database folder blocks nothing: every
/// command that opens the databases ends, and those that report say the FIFO is left
/// out.
#[test]
fn finding_8_a_fifo_in_the_database_folder_is_skipped_unopened() {
    let sandbox = Sandbox::new();
    let dir = egdb_folder(&sandbox);
    let fifo = dir.join("0m1k-0m1k.egdb");
    mkfifo(&fifo);
    let out = run_in(&sandbox, &["egdb", "probe", "--fen", TWO_KINGS], b"");
    assert_eq!(out.status.code(), Some(1));
    let said = text(&out.stderr);
    assert!(said.contains("0m1k-0m1k.egdb"), "{said}");
    assert!(
        said.contains("FIFO (named pipe), not a regular file"),
        "{said}"
    );
    let out = run_in(
        &sandbox,
        &["analyse", "--fen", TWO_KINGS, "--movetime", "20"],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("warning: endgame database left out"),
        "{}",
        text(&out.stdout)
    );
    for args in [
        &["egdb", "verify"][..],
        &["egdb", "build", "--pieces", "2"],
        &["--plain", "--white", "cpu", "--level", "1"],
        &["--plain"],
    ] {
        // run_in fails the test if the program has not ended within seconds.
        let out = run_in(&sandbox, args, b"quit\ny\n");
        if args[0] == "--plain" {
            // The game says at its start which slice it left out, and why.
            let said = text(&out.stderr);
            assert!(
                said.contains("endgame databases: ") && said.contains("0m1k-0m1k.egdb"),
                "{args:?}: {said}"
            );
        }
    }
    let mut game = Session::start_in(&sandbox, &[], &[("CHECKERS_NO_EGDB_BUILD", "1")]);
    game.past_home();
    // Said again on the game's status lines, above its key line: the key line is drawn
    // last, so a frame drawn only in part (the home screen's message still showing) does
    // not pass.
    game.wait_for("the start screen, with the slice left out", |s| {
        let rows: Vec<String> = s.rows(0, 80).collect();
        let Some(keys) = rows.iter().rposition(|row| row.contains("u undo")) else {
            return false;
        };
        s.contents().contains("(none yet)")
            && rows[keys.saturating_sub(3)..keys]
                .join(" ")
                .contains("endgame databases:")
    });
}

/// Finding 9: a slice that is a link to `/dev/zero` is refused as a device, and a 3 GB
/// (sparse) file under a slice's name is refused by its size before it is read.
#[cfg(unix)]
#[test]
fn finding_9_a_slice_is_read_only_within_its_size() {
    let sandbox = Sandbox::new();
    let dir = egdb_folder(&sandbox);
    std::os::unix::fs::symlink("/dev/zero", dir.join("0m1k-0m1k.egdb")).unwrap();
    let out = run_in(&sandbox, &["egdb", "probe", "--fen", TWO_KINGS], b"");
    let said = text(&out.stderr);
    assert!(said.contains("a device, not a regular file"), "{said}");

    std::fs::remove_file(dir.join("0m1k-0m1k.egdb")).unwrap();
    let huge = std::fs::File::create(dir.join("0m1k-0m1k.egdb")).unwrap();
    huge.set_len(3 << 30).unwrap();
    // Refused by its size, not read: under an address space of 2 GB the file cannot be
    // read into memory, and the size said is the file's whole size, which a read (cut
    // at the slice's limit) never reaches. No clock: a loaded machine takes its time.
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg("ulimit -v 2097152 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_checkers"))
        .args(["egdb", "probe", "--fen", TWO_KINGS]);
    let out = run_command_in(
        command,
        &sandbox,
        &["egdb", "probe"],
        b"",
        Duration::from_secs(60),
    );
    let said = text(&out.stderr);
    assert!(said.contains("not an endgame database file"), "{said}");
    assert!(said.contains("it is 3221225472 bytes"), "{said}");
}

/// Finding 10: `train --data` of a device or a FIFO, and `selfplay --out` of a FIFO,
/// are refused at once; `train --data /dev/null` names `/dev/null`, not the output.
#[cfg(unix)]
#[cfg(feature = "lab")]
#[test]
fn finding_10_training_data_must_be_a_regular_file() {
    let sandbox = Sandbox::new();
    let fifo = sandbox.home().join("data.fifo");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    for data in ["/dev/zero", "/dev/null", fifo] {
        let out = run_in(
            &sandbox,
            &["train", "--data", data, "--out", "w.bin", "--epochs", "1"],
            b"",
        );
        assert_eq!(out.status.code(), Some(1), "{data}");
        let said = text(&out.stderr);
        assert!(said.contains(data), "{data}: {said}");
        assert!(said.contains("not a regular file"), "{data}: {said}");
        assert!(!said.contains("w.bin"), "{data}: {said}");
    }
    let out = run_in(&sandbox, &["selfplay", "--games", "1", "--out", fifo], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("FIFO"), "{}", text(&out.stderr));

    // A file of one endless line is refused at its first line, in bounded memory.
    let long = sandbox.home().join("long.txt");
    std::fs::write(&long, "x".repeat(10 << 20)).unwrap();
    let out = run_in(
        &sandbox,
        &["train", "--data", long.to_str().unwrap(), "--out", "w.bin"],
        b"",
    );
    assert!(
        text(&out.stderr).contains("line 1 is longer than 1024 bytes"),
        "{}",
        text(&out.stderr)
    );
}

/// Finding 13: escape sequences in a file's line, in a file name given as an argument
/// and in a refused `--fen` reach the terminal as `?`, in errors too.
#[cfg(feature = "lab")]
#[test]
fn finding_13_text_from_files_and_arguments_reaches_the_terminal_printable() {
    let sandbox = Sandbox::new();
    let title = "\x1b]0;pwned\x07";
    let openings = sandbox.home().join("openings.txt");
    std::fs::write(&openings, format!("1 11-15 {title}\n")).unwrap();
    let data = sandbox.home().join("data.txt");
    std::fs::write(&data, format!("{title}\n")).unwrap();
    let named = format!("missing{title}.pdn");
    let fen = format!("B:W{title}");
    let runs: [&[&str]; 4] = [
        &[
            "match",
            "--openings",
            openings.to_str().unwrap(),
            "--games",
            "2",
        ],
        &["train", "--data", data.to_str().unwrap(), "--out", "w.bin"],
        &["pdn", "check", &named],
        &["analyse", "--fen", &fen],
    ];
    for args in runs {
        let out = run_in(&sandbox, args, b"");
        assert!(!out.status.success(), "{args:?}");
        let said = text(&out.stderr);
        assert!(!said.is_empty(), "{args:?}");
        assert!(
            !said.contains('\x1b') && !said.contains('\x07'),
            "{args:?}: {said:?}"
        );
    }
}

/// Finding 14: `egdb probe` of a position whose slice is sound, where a slice its moves
/// lead to is damaged, says why it gives no best move.
#[test]
fn finding_14_probe_says_why_the_best_moves_are_missing() {
    let sandbox = Sandbox::new();
    let dir = egdb_folder(&sandbox);
    let out = run_in(
        &sandbox,
        &["egdb", "build", "--pieces", "3", "--threads", "1"],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    // Black king 10 and man 14 against a White king on 1: a move of the man to 18 or
    // 17 keeps the slice; a capture would lead to fewer pieces. Damage the two-piece
    // slices the captures and crownings lead to, and the one-man slices.
    let fen = "B:WK1:BK10,14";
    let before = run_in(&sandbox, &["egdb", "probe", "--fen", fen], b"");
    assert!(text(&before.stdout).contains("best move"));
    let mut damaged = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        // Every other slice than the position's own (1m1k-0m1k).
        if name.ends_with(".egdb") && name != "1m1k-0m1k.egdb" {
            std::fs::write(&path, "damaged").unwrap();
            damaged += 1;
        }
    }
    assert!(damaged > 0);
    let out = run_in(&sandbox, &["egdb", "probe", "--fen", fen], b"");
    let said = text(&out.stdout);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(said.contains("database: "), "{said}");
    assert!(
        said.contains("best moves unknown: a slice the moves lead to is left out"),
        "{said}"
    );
}
