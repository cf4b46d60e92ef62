//! The lab's messages for bad input, as a user meets them: an option that needs another
//! is a usage error naming both, a file an option names is said with the option, a
//! bounded number says its range in words, and the reports say their times and counts
//! as they are read.

use crate::common::command::{mkfifo, stderr, stdout};
use std::path::Path;
use std::process::{Command, Output};

/// Runs `checkers-lab` with `args` in an empty home of its own.
fn lab(args: &[&str]) -> Output {
    let home = tempfile::tempdir().unwrap();
    Command::new(crate::common::lab_program())
        .args(args)
        .env("HOME", home.path())
        .env("XDG_DATA_HOME", home.path().join("data"))
        .env("XDG_CONFIG_HOME", home.path().join("config"))
        .output()
        .unwrap()
}

/// `path` as an argument.
fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

#[test]
fn a_network_option_without_the_network_is_a_usage_error_naming_both() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("w.bin");
    let checkpoint = dir.path().join("old.checkpoint");
    std::fs::write(&checkpoint, "a checkpoint").unwrap();
    for given in [
        ["--resume", arg(&checkpoint)],
        ["--from", arg(&checkpoint)],
        ["--threads", "2"],
    ] {
        let o = lab(&["train", "--out", arg(&out), given[0], given[1]]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{given:?}: {err}");
        assert!(
            err.starts_with(&format!("error: {} needs --model net", given[0])),
            "{given:?}: {err}"
        );
        assert!(err.contains("Usage: checkers-lab train"), "{err}");
        assert!(!out.exists(), "{given:?}");
    }
    // With --model net the same option is taken: the run goes on to its data.
    let o = lab(&[
        "train",
        "--model",
        "net",
        "--threads",
        "2",
        "--out",
        arg(&out),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("no training positions"),
        "{}",
        stderr(&o)
    );
    // Self-play's network file goes with the network's evaluation likewise.
    let data = dir.path().join("data.txt");
    let o = lab(&["selfplay", "--net", arg(&checkpoint), "--out", arg(&data)]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).starts_with("error: --net needs --eval net"),
        "{}",
        stderr(&o)
    );
    assert!(!data.exists());
}

#[test]
fn a_file_that_cannot_be_used_is_named_with_its_option() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pdn");
    let fifo = dir.path().join("fifo");
    mkfifo(&fifo);
    let out = dir.path().join("out.bin");
    let folder = dir.path().join("folder");
    std::fs::create_dir(&folder).unwrap();
    let cases: Vec<(Vec<&str>, String)> = vec![
        (
            vec!["train", "--out", arg(&out), "--pdn", arg(&missing)],
            format!("--pdn {}: no such file", missing.display()),
        ),
        (
            vec!["train", "--out", arg(&out), "--data", arg(&missing)],
            format!("--data {}: no such file", missing.display()),
        ),
        (
            vec!["book", "--out", arg(&out), "--pdn", arg(&fifo)],
            format!("--pdn {}: it is a FIFO (named pipe)", fifo.display()),
        ),
        (
            vec!["book", "--out", arg(&out), "--from", arg(&missing)],
            format!("--from {}: no such file", missing.display()),
        ),
        (
            vec!["train", "--out", arg(&folder), "--pdn", arg(&missing)],
            format!("--out {}: it is a folder", folder.display()),
        ),
        (
            vec!["selfplay", "--games", "1", "--out", arg(&folder)],
            format!("--out {}: it is a folder", folder.display()),
        ),
        (
            vec!["match", "--openings", arg(&missing)],
            format!("--openings {}: no such file", missing.display()),
        ),
        (
            vec!["match", "--net-a", arg(&missing)],
            format!("--net-a {}: no such file", missing.display()),
        ),
    ];
    for (args, said) in cases {
        let o = lab(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}: {}", stderr(&o));
        assert!(
            stderr(&o).starts_with(&format!("checkers-lab: {said}")),
            "{args:?}: {}",
            stderr(&o)
        );
        assert!(!out.exists(), "{args:?}");
        assert!(stdout(&o).is_empty(), "{args:?}: {}", stdout(&o));
    }
}

#[test]
fn puzzles_refuses_an_endgame_folder_that_is_not_there() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("egdb");
    let o = lab(&[
        "puzzles",
        "--check",
        "--depth",
        "1",
        "--egdb",
        arg(&missing),
    ]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(
        stderr(&o).trim_end(),
        format!("checkers-lab: --egdb {}: no such folder", missing.display())
    );
    // No puzzle was judged without the databases asked for.
    assert!(stdout(&o).is_empty(), "{}", stdout(&o));
}

#[test]
fn a_bounded_number_out_of_range_says_its_range_in_words() {
    for (args, range) in [
        (&["match", "--games", "0"][..], "from 1 to 100000"),
        (&["match", "--games", "100001"], "from 1 to 100000"),
        (&["match", "--concurrency", "-1"], "from 1 to 64"),
        (&["match", "--max-plies", "5"], "from 10 to 10000"),
        (
            &["selfplay", "--out", "d.txt", "--games", "0"],
            "from 1 to 10000000",
        ),
        (
            &["selfplay", "--out", "d.txt", "--nodes", "5"],
            "from 100 to 100000000",
        ),
        (
            &["train", "--out", "w.bin", "--epochs", "0"],
            "from 1 to 10000",
        ),
        (&["book", "--out", "b.txt", "--plies", "61"], "from 1 to 60"),
        (&["book", "--out", "b.txt", "--lines", "17"], "from 1 to 16"),
        (
            &["book", "--out", "b.txt", "--threads", "0"],
            "from 1 to 256",
        ),
        (&["puzzles", "--check", "--depth", "41"], "from 1 to 40"),
        (
            &["puzzles", "--check", "--max-pieces", "25"],
            "from 2 to 24",
        ),
        (
            &["load", "--server", "127.0.0.1:1", "--players", "1"],
            "from 2 to 60000",
        ),
    ] {
        let o = lab(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(&format!("must be a whole number {range}")),
            "{args:?}: {err}"
        );
        assert!(!err.contains(".."), "{args:?}: {err}");
    }
    let o = lab(&["load", "--server", "127.0.0.1:1", "--seconds", "0"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("must be a whole number from 1 to 86400"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn reports_say_seconds_under_a_minute_and_one_thread() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("data.txt");
    let o = lab(&[
        "selfplay",
        "--games",
        "2",
        "--nodes",
        "100",
        "--threads",
        "1",
        "--out",
        arg(&data),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    let line = report.lines().find(|l| l.starts_with("2 games")).unwrap();
    assert!(line.contains(" s ("), "{line}");
    assert!(!line.contains("min ("), "{line}");
    let net = dir.path().join("net.bin");
    let o = lab(&[
        "train",
        "--model",
        "net",
        "--threads",
        "1",
        "--epochs",
        "1",
        "--data",
        arg(&data),
        "--out",
        arg(&net),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let report = stdout(&o);
    assert!(report.contains(" with 1 thread; "), "{report}");
}
