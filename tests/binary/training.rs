//! The lab's binary as a user runs it (its work itself is tested in the lab's own
//! tests): `train` naming a faulty line, either evaluation in `analyse` and `match`,
//! and the book as the player's program shows it.

use crate::common::command::{run, stderr, stdout};
use std::process::ExitStatus;

#[test]
fn train_names_a_faulty_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    std::fs::write(
        &data,
        "B:W21,22:B9,10\t12\t1-0\nB:W21,22:B9,10\ttwelve\t1-0\n",
    )
    .unwrap();
    let weights = dir.path().join("weights.bin");
    let o = run(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("positions.txt: line 2: the score \"twelve\""),
        "{err}"
    );
    assert!(!weights.exists());
    // Nothing to train on at all.
    let o = run(&["train", "--out", weights.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no training positions"),
        "{}",
        stderr(&o)
    );
    // A bad option value says what is wrong.
    let o = run(&["train", "--out", "w.bin", "--lambda", "2"]);
    assert!(
        stderr(&o).contains("2 is not a number from 0 to 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn analyse_and_match_take_either_evaluation() {
    for eval in ["hand", "learned"] {
        let o = run(&["analyse", "--depth", "6", "--eval", eval]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).lines().last().unwrap().starts_with("bestmove "));
    }
    let o = run(&[
        "match",
        "--games",
        "2",
        "--movetime",
        "10",
        "--eval-a",
        "learned",
        "--eval-b",
        "hand",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("A level 10+learned"), "{out}");
    assert!(out.contains("B level 10+hand"), "{out}");
    let o = run(&["analyse", "--eval", "neural"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("neural"), "{}", stderr(&o));
}

#[test]
fn book_show_says_what_the_built_in_book_knows() {
    let o = run(&["book", "show"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("book: "), "{out}");
    // Each move the games played, with how often, in words.
    assert!(out.contains("\n10-15 played 172 times\n"), "{out}");
    // Its score in men for Black, as every score shown, not the book's hundredths.
    let score = out.lines().nth(1).unwrap_or_default();
    assert!(score.starts_with("searched to depth "), "{out}");
    assert!(
        score.ends_with("(in men for Black: + Black ahead, - White)"),
        "{out}"
    );
    let men = score.split_whitespace().nth(4).unwrap_or_default();
    assert!(
        men.len() == 5 && men.starts_with(['+', '-']) && men[1..].parse::<f64>().is_ok(),
        "{out}"
    );
    // A position far from any opening is not in it.
    let o = run(&["book", "show", "--fen", "W:WK19,K23:BK28,12"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is not in the book"), "{}", stderr(&o));
}

/// Waits for `child` to end, up to `deadline`, and gives its exit status.
fn wait_until(child: &mut std::process::Child, deadline: std::time::Instant) -> ExitStatus {
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            panic!("the lab did not end within its deadline");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn ctrl_c_during_the_book_writes_the_book_so_far_to_go_on_from() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let dir = tempfile::tempdir().unwrap();
    // A first book (the ballots, searched a moment each) to go on from.
    let first = dir.path().join("first.txt");
    let first_arg = first.to_str().unwrap();
    let o = run(&[
        "book",
        "--out",
        first_arg,
        "--movetime",
        "1",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let kept = std::fs::read_to_string(&first).unwrap().lines().count();
    // The games' openings would take minutes at 200 ms each: Ctrl-C once the searches
    // have begun.
    let book = dir.path().join("book.txt");
    let games = env!("CARGO_MANIFEST_DIR").to_string() + "/tests/fixtures/tinsley.pdn";
    let mut child = Command::new(crate::common::lab_program())
        .args(["book", "--out", book.to_str().unwrap(), "--from", first_arg])
        .args(["--pdn", &games, "--min-games", "1", "--movetime", "200"])
        .args(["--threads", "1"])
        .env("HOME", dir.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("positions to search") {
        line.clear();
        assert!(
            stdout.read_line(&mut line).unwrap() > 0,
            "no searches began"
        );
    }
    let status = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    let status = wait_until(&mut child, deadline);
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted: writing the book so far"),
        "{err}"
    );
    let book_arg = book.to_str().unwrap();
    assert!(
        err.contains(&format!("go on with --from {book_arg}")),
        "{err}"
    );
    // The book so far holds at least the first book's positions.
    let written = std::fs::read_to_string(&book).unwrap();
    assert!(written.lines().count() >= kept, "{written}");
}
