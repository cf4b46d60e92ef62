//! `checkers egdb build`, `probe` and `verify`, and the databases seen by `analyse`
//! and `match`, run as a user runs them (3-piece builds: a fraction of a second).

use crate::common::command::{stderr, stdout};
use std::path::Path;
use std::process::{Command, Output};

/// Runs `checkers` with `args` and its data folder under `data_home`.
fn run_in(data_home: &Path, args: &[&str]) -> Output {
    Command::new(crate::common::program_for(args))
        .args(args)
        .env("XDG_DATA_HOME", data_home)
        .env("HOME", data_home)
        .output()
        .unwrap()
}

/// Builds the 3-piece slices into `dir`, made first if need be (a build refuses a
/// `--dir` that is not there).
fn build3(home: &Path, dir: &Path) -> Output {
    std::fs::create_dir_all(dir).unwrap();
    let dir = dir.to_str().unwrap();
    run_in(
        home,
        &[
            "egdb",
            "build",
            "--pieces",
            "3",
            "--threads",
            "1",
            "--dir",
            dir,
        ],
    )
}

#[test]
fn build_is_resumable_and_probe_gives_the_result_and_best_moves() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("db");
    let o = build3(home.path(), &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("Built 16 slices"), "{out}");
    assert!(out.contains("0m2k-0m1k"), "{out}");
    // Built again: every slice is kept, none built twice.
    let o = build3(home.path(), &dir);
    let out = stdout(&o);
    assert!(out.contains("16 slices were already built"), "{out}");
    assert!(out.contains("Built 0 slices"), "{out}");

    let d = dir.to_str().unwrap();
    let o = run_in(
        home.path(),
        &["egdb", "probe", "--fen", "B:WK1,K3:BK10", "--dir", d],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("endgame database: White wins in 17 moves (34 plies)"),
        "{out}"
    );
    assert!(out.contains("best moves: 10-14, 10-15"), "{out}");
    assert!(out.contains("10-6       White wins in 1 move"), "{out}");
    // A multi-jump by its route, as the game shows it (a record's 10x26).
    let o = run_in(
        home.path(),
        &["egdb", "probe", "--fen", "B:W14,22:BK10", "--dir", d],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("best move: 10x17x26\n"), "{out}");
    assert!(out.contains("line: 10x17x26\n"), "{out}");
    assert!(out.contains("  10x17x26   Black wins"), "{out}");

    let o = run_in(
        home.path(),
        &["egdb", "verify", "--dir", d, "--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("16 slices verified: all consistent"), "{out}");
    assert!(out.contains("all                199520"), "{out}");
}

#[test]
fn a_damaged_file_is_named_and_verify_fails() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("db");
    assert!(build3(home.path(), &dir).status.success());
    let file = dir.join("0m2k-0m1k.egdb");
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() - 10]).unwrap();
    let d = dir.to_str().unwrap();
    let o = run_in(home.path(), &["egdb", "verify", "--dir", d]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("0m2k-0m1k.egdb: checksum mismatch"), "{err}");
    // Probing that slice names the file; another slice still answers.
    let o = run_in(
        home.path(),
        &["egdb", "probe", "--fen", "B:WK1:BK10,K14", "--dir", d],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("0m2k-0m1k.egdb"), "{}", stderr(&o));
    let o = run_in(
        home.path(),
        &["egdb", "probe", "--fen", "W:WK1:BK10,K14", "--dir", d],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    // The build repairs it.
    let o = build3(home.path(), &dir);
    assert!(
        stdout(&o).contains("rebuilt a damaged slice"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("Built 1 slice in"), "{}", stdout(&o));
}

#[test]
fn probe_without_a_database_says_how_to_build_one() {
    let home = tempfile::tempdir().unwrap();
    let o = run_in(home.path(), &["egdb", "probe", "--fen", "B:WK1:BK10"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains("no endgame database in"), "{err}");
    assert!(err.contains("checkers egdb build"), "{err}");
    // A --dir that is not there is said to be missing (not to hold no database), even
    // for a position that is lost already (Black's man on 5 is blocked): no verdict
    // without a database.
    let o = run_in(
        home.path(),
        &[
            "egdb",
            "probe",
            "--fen",
            "B:W9,14:B5",
            "--dir",
            "/nonexistent",
        ],
    );
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), "checkers: --dir /nonexistent does not exist\n");
    assert_eq!(stdout(&o), "");
    // --pieces is checked.
    let o = run_in(home.path(), &["egdb", "build", "--pieces", "9"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn probe_past_the_slices_built_says_how_to_build_them() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("db");
    assert!(build3(home.path(), &dir).status.success());
    let d = dir.to_str().unwrap();
    let o = run_in(
        home.path(),
        &["egdb", "probe", "--fen", "W:WK19,K23:BK28,12", "--dir", d],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "is not in {d}: build it with checkers egdb build --pieces 4 --dir {d}"
        )),
        "{err}"
    );
    // Past what any build makes: no build is offered.
    let o = run_in(
        home.path(),
        &[
            "egdb",
            "probe",
            "--fen",
            "W:W21,22,23,24:B9,10,11",
            "--dir",
            d,
        ],
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("7 pieces: the databases hold positions of up to 6"),
        "{err}"
    );
}

/// A mistyped `--dir` gets no database: a build refuses a folder that is not there
/// (as a save does), and makes nothing; the data folder's is still made.
#[test]
fn build_refuses_a_dir_that_is_not_there_and_makes_nothing() {
    let home = tempfile::tempdir().unwrap();
    let missing = home.path().join("typo").join("db");
    let m = missing.to_str().unwrap();
    let o = run_in(home.path(), &["egdb", "build", "--pieces", "2", "--dir", m]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(
        stderr(&o),
        format!("checkers: no folder {m}: create it first\n")
    );
    assert_eq!(stdout(&o), "");
    assert!(!home.path().join("typo").exists(), "nothing is made");
    // No --dir: the data folder's database folder is made by the program itself.
    let o = run_in(
        home.path(),
        &["egdb", "build", "--pieces", "2", "--threads", "1"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("Built 4 slices"), "{}", stdout(&o));
}

/// A `--dir` that is a file is said not to be a folder, by build, probe and verify
/// alike (not that it holds no database).
#[test]
fn a_dir_that_is_a_file_is_said_not_to_be_a_folder() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("notes.txt");
    std::fs::write(&file, "not a database").unwrap();
    let f = file.to_str().unwrap();
    for args in [
        &["egdb", "build", "--pieces", "2", "--dir", f][..],
        &["egdb", "probe", "--fen", "B:WK1:BK10", "--dir", f],
        &["egdb", "verify", "--dir", f],
    ] {
        let o = run_in(home.path(), args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert_eq!(
            stderr(&o),
            format!("checkers: --dir {f} is a file, not a folder\n"),
            "{args:?}"
        );
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "not a database");
}

/// Ctrl-C during a build says, as it stops, how many slices are kept and that running
/// it again goes on where it stopped; the process ends as SIGINT ends it (130).
#[cfg(unix)]
#[test]
fn ctrl_c_during_a_build_says_what_is_kept_and_how_to_go_on() {
    use std::time::{Duration, Instant};
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("db");
    std::fs::create_dir(&dir).unwrap();
    let d = dir.to_str().unwrap();
    let mut child = Command::new(crate::common::program_for(&["egdb"]))
        .args([
            "egdb",
            "build",
            "--pieces",
            "4",
            "--threads",
            "1",
            "--dir",
            d,
        ])
        .env("XDG_DATA_HOME", home.path())
        .env("HOME", home.path())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Interrupted once a slice is kept (the 2-piece ones come first), long before the
    // 4-piece slices are done.
    let deadline = Instant::now() + Duration::from_secs(30);
    let first = dir.join("0m1k-0m1k.egdb");
    while !first.exists() {
        assert!(Instant::now() < deadline, "no slice was built in 30 s");
        std::thread::sleep(Duration::from_millis(5));
    }
    let kill = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    let deadline = Instant::now() + Duration::from_secs(30);
    while child.try_wait().unwrap().is_none() {
        assert!(Instant::now() < deadline, "the build did not stop in 30 s");
        std::thread::sleep(Duration::from_millis(10));
    }
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(130), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("checkers: interrupted: "), "{err}");
    assert!(
        err.contains(&format!(
            " built and kept in {d}; run checkers egdb build --pieces 4 --dir {d} again to go \
             on where it stopped\n"
        )),
        "{err}"
    );
}

#[test]
fn verify_of_a_folder_with_no_database_prints_the_error_alone() {
    let home = tempfile::tempdir().unwrap();
    let empty = home.path().join("empty");
    // A folder that is not there is said to be missing.
    let e = empty.to_str().unwrap();
    let o = run_in(home.path(), &["egdb", "verify", "--dir", e]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stderr(&o), format!("checkers: --dir {e} does not exist\n"));
    assert_eq!(stdout(&o), "");
    // One that is there but empty holds no database.
    std::fs::create_dir(&empty).unwrap();
    let o = run_in(
        home.path(),
        &["egdb", "verify", "--dir", empty.to_str().unwrap()],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no endgame database in"),
        "{}",
        stderr(&o)
    );
    assert_eq!(stdout(&o), "");
}

#[cfg(feature = "lab")]
#[test]
fn analyse_and_match_find_the_databases_in_the_data_folder() {
    let home = tempfile::tempdir().unwrap();
    // Without databases, match --egdb refuses.
    let o = run_in(home.path(), &["match", "--games", "1", "--egdb", "a"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no endgame database"), "{}", stderr(&o));
    // Nor can the databases adjudicate.
    let o = run_in(home.path(), &["match", "--games", "1", "--adjudicate-egdb"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no endgame database"), "{}", stderr(&o));

    let dir = home.path().join("checkers").join("egdb");
    assert!(build3(home.path(), &dir).status.success());
    let o = run_in(
        home.path(),
        &["analyse", "--fen", "B:WK1,K3:BK10", "--movetime", "200"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "endgame database: White wins in 17 moves",
        "{out}"
    );
    assert!(lines[1].starts_with("depth 1 score loss in 34 "), "{out}");
    let best = lines.last().unwrap();
    assert!(
        best == &"bestmove 10-14" || best == &"bestmove 10-15",
        "{out}"
    );

    // Two short games with `option`.
    let short_match = |option: &[&str]| {
        let mut args = vec![
            "match",
            "--games",
            "2",
            "--movetime",
            "5",
            "--max-plies",
            "20",
        ];
        args.extend_from_slice(option);
        let o = run_in(home.path(), &args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let out = short_match(&["--egdb", "b"]);
    assert!(
        out.contains("endgame databases: 16 slices, complete up to 3 pieces"),
        "{out}"
    );
    assert!(out.contains("B level 10+egdb"), "{out}");

    // As the arbiter, the databases are announced, and neither player is said to use
    // them.
    let out = short_match(&["--adjudicate-egdb"]);
    assert!(
        out.contains(
            "games are adjudicated by the endgame databases once 3 pieces or fewer are left"
        ),
        "{out}"
    );
    assert!(!out.contains("+egdb"), "{out}");
}

#[test]
fn analyse_load_goes_through_a_game_and_names_the_move_that_threw_a_win_away() {
    let home = tempfile::tempdir().unwrap();
    let record = home.path().join("ending.pdn");
    std::fs::write(
        &record,
        "[Black \"Ann\"]\n[White \"Bob\"]\n[FEN \"B:WK1,K3:BK10\"]\n\
         1. 10-14 3-8 2. 14-9 1-6 *\n",
    )
    .unwrap();
    let path = record.to_str().unwrap();
    let args = ["analyse", "--load", path, "--depth", "2"];
    // Without databases: the engine's scores, and how to get the databases.
    let o = run_in(home.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "game 1: Ann (Black) v Bob (White), *, 2 moves",
        "{out}"
    );
    // Scores in men, naming the side they favour whichever side is to move: White's two
    // kings against Black's one are ahead on Black's move and on White's alike.
    assert!(lines[1].starts_with("1.    10-14    White is "), "{out}");
    assert!(lines[4].starts_with("2...  1-6      White "), "{out}");
    for line in &lines[1..5] {
        assert!(!line.contains("Black is"), "{out}");
        assert!(
            line.contains(" men (depth 2)") || line.contains(" moves (depth 2)"),
            "{out}"
        );
    }
    assert!(!out.contains("database:"), "{out}");
    assert!(lines[5].contains("checkers egdb build"), "{out}");

    let dir = home.path().join("checkers").join("egdb");
    assert!(build3(home.path(), &dir).status.success());
    let o = run_in(home.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    assert!(
        lines[3].ends_with("; endgame database: White wins in 16 moves"),
        "{out}"
    );
    assert!(
        lines[4].ends_with("; endgame database: White wins in 5 moves; White's 1-6 threw the win away: before it, White wins in 5 moves"),
        "{out}"
    );
    assert_eq!(
        lines[5],
        "1 move made the databases' result worse for its player"
    );

    // A game number past the file's end is refused with the count.
    let o = run_in(home.path(), &["analyse", "--load", path, "--game", "2"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 game"), "{}", stderr(&o));
}

#[test]
fn analyse_report_marks_the_blunder_the_databases_prove_and_writes_the_annotated_game() {
    let home = tempfile::tempdir().unwrap();
    let dir = home.path().join("checkers").join("egdb");
    assert!(build3(home.path(), &dir).status.success());
    let record = home.path().join("ending.pdn");
    let game = "[Black \"Ann\"]\n[White \"Bob\"]\n[FEN \"B:WK1,K3:BK10\"]\n\
                1. 10-14 3-8 2. 14-9 1-6 *\n";
    std::fs::write(&record, game).unwrap();
    let notes = home.path().join("notes.pdn");
    let args = [
        "analyse",
        "--load",
        record.to_str().unwrap(),
        "--report",
        "--depth",
        "4",
        "--out",
        notes.to_str().unwrap(),
    ];
    let o = run_in(home.path(), &args);
    assert!(o.status.success(), "{}", stderr(&o));
    // No progress bar where standard error is not a terminal.
    assert_eq!(stderr(&o), "");
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "report of game 1: Ann (Black) v Bob (White), *, 2 moves",
        "{out}"
    );
    assert!(
        lines[1].ends_with("endgame databases of up to 3 pieces"),
        "{out}"
    );
    let blunder = lines.iter().find(|l| l.starts_with("2...")).unwrap();
    assert!(
        blunder.contains("1-6??")
            && blunder.contains("blunder: threw the database win away; better "),
        "{out}"
    );
    assert!(
        out.contains("White (Bob): 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{out}"
    );
    assert!(out.ends_with(&format!("annotated game written to {}\n", notes.display())));
    // The annotated game reads back with its moves; the blunder has its NAG.
    let text = std::fs::read_to_string(&notes).unwrap();
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1-6 $4 {Blunder: threw the database win away. Better "),
        "{text}"
    );
    let back = checkers::pdn::read_games(&text).remove(0).unwrap();
    let original = checkers::pdn::read_games(game).remove(0).unwrap();
    assert_eq!(back.moves, original.moves);
    // Asked again, the file now there is refused and kept.
    let o = run_in(home.path(), &args);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("the file exists"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), text);
}
