//! Files as they come (issue 9, cases 3, 8, 9, 10 and 11): saving to an existing PDN
//! file adds the game; FIFOs and devices are refused at once; PDN is read in memory
//! bounded by the file's size; text from a file reaches the terminal printable and cut
//! short; temporary files of killed programs are removed; `match --pdn` checks its file
//! before the first game and writes each game as it ends.

use crate::common::command::{mkfifo, text};
use crate::common::pty::{Sandbox, check_summary, run_in};

const TINSLEY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");

#[cfg(feature = "lab")]
#[test]
fn case_3_saving_into_a_game_database_adds_the_game() {
    let sandbox = Sandbox::new();
    let db = sandbox.home().join("tinsley.pdn");
    std::fs::copy(TINSLEY, &db).unwrap();
    let out = run_in(&sandbox, &["--plain"], b"11-15\nsave tinsley.pdn\nquit\n");
    assert!(
        text(&out.stdout).contains("Added the game at the end of tinsley.pdn."),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        check_summary(&sandbox, &db),
        "725 games: 724 replayed, 1 with errors"
    );
    let last = checkers::read_games(&std::fs::read_to_string(&db).unwrap())
        .remove(724)
        .unwrap();
    assert_eq!(last.moves.len(), 1);

    // A file that is not PDN is left alone.
    let notes = sandbox.home().join("notes.txt");
    std::fs::write(&notes, "Shopping: milk\n").unwrap();
    let out = run_in(&sandbox, &["--plain"], b"11-15\nsave notes.txt\nquit\n");
    assert!(text(&out.stdout).contains("exists and is not a PDN file: no game is added to it"));
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "Shopping: milk\n");

    // match --pdn adds its games too.
    let out = run_in(
        &sandbox,
        &[
            "match",
            "--games",
            "2",
            "--movetime",
            "5",
            "--level",
            "1",
            "--level",
            "1",
            "--pdn",
        ]
        .into_iter()
        .chain([db.to_str().unwrap()])
        .collect::<Vec<_>>(),
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(
        check_summary(&sandbox, &db),
        "727 games: 726 replayed, 1 with errors"
    );
}

#[cfg(feature = "lab")]
#[test]
fn case_11_match_checks_its_pdn_file_before_the_first_game() {
    let sandbox = Sandbox::new();
    let notes = sandbox.home().join("notes.txt");
    std::fs::write(&notes, "Shopping: milk\n").unwrap();
    for (target, says) in [
        (
            sandbox.home().to_path_buf(),
            "is a folder, not a regular file",
        ),
        (notes.clone(), "exists and is not a PDN file"),
    ] {
        let out = run_in(
            &sandbox,
            &[
                "match",
                "--games",
                "40",
                "--movetime",
                "50",
                "--pdn",
                target.to_str().unwrap(),
            ],
            b"",
        );
        assert_eq!(out.status.code(), Some(1));
        assert_eq!(text(&out.stdout), "", "no game was played");
        let err = text(&out.stderr);
        assert!(
            err.starts_with(&format!("checkers-lab: --pdn {}: it ", target.display()))
                && err.contains(says),
            "{err}"
        );
    }
}

#[cfg(unix)]
#[cfg(feature = "lab")]
#[test]
fn case_8_fifos_and_devices_are_refused_at_once() {
    let sandbox = Sandbox::new();
    let fifo = sandbox.home().join("games.pdn");
    mkfifo(&fifo);
    let fifo = fifo.to_str().unwrap();
    for args in [vec!["--load", fifo], vec!["pdn", "check", fifo]] {
        let out = run_in(&sandbox, &args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = text(&out.stderr);
        assert!(
            err.contains("is a FIFO (named pipe), not a regular file"),
            "{args:?}: {err}"
        );
    }
    let out = run_in(&sandbox, &["match", "--openings", fifo], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(
        text(&out.stderr).contains("it is a FIFO (named pipe), not a regular file"),
        "{}",
        text(&out.stderr)
    );
    let out = run_in(&sandbox, &["pdn", "check", "/dev/zero"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("/dev/zero is a device, not a regular file"));
    // Nor is a game saved into one (as root, a file would take /dev/null's place).
    let save = format!("11-15\nsave {fifo}\nsave /dev/null\nquit\n");
    let out = run_in(&sandbox, &["--plain"], save.as_bytes());
    let answers = text(&out.stdout);
    assert!(
        answers.contains("is a FIFO (named pipe), not a regular file"),
        "{answers}"
    );
    assert!(
        answers.contains("/dev/null is a device, not a regular file"),
        "{answers}"
    );

    // A FIFO among the saved games is never opened.
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    mkfifo(&sandbox.games_dir().join("2026-01-01-000000-ffffff.pdn"));
    let out = run_in(&sandbox, &["--resume", "--plain"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).starts_with("checkers: no game to resume"));
    let out = run_in(&sandbox, &["games"], b"");
    assert!(
        text(&out.stdout).contains("unreadable: "),
        "{}",
        text(&out.stdout)
    );
}

#[cfg(unix)]
#[test]
fn case_8_pdn_is_read_in_memory_bounded_by_four_times_the_file_size() {
    let sandbox = Sandbox::new();
    let big = sandbox.home().join("big.pdn");
    let one = std::fs::read(TINSLEY).unwrap();
    let copies = 16;
    std::fs::write(&big, one.repeat(copies)).unwrap();
    let size_kb = std::fs::metadata(&big).unwrap().len() / 1024;
    // Address space, not just resident memory, limited to four times the file size.
    let script = format!("ulimit -v {}; exec \"$0\" pdn check \"$1\"", 4 * size_kb);
    let out = std::process::Command::new("sh")
        .args([
            "-c",
            &script,
            env!("CARGO_BIN_EXE_checkers"),
            big.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    let games = 724 * copies;
    assert_eq!(
        text(&out.stdout).lines().last(),
        Some(
            format!(
                "{games} games: {} replayed, {copies} with errors",
                games - copies
            )
            .as_str()
        ),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn case_9_pdn_check_shows_text_from_the_file_printable_and_short() {
    let sandbox = Sandbox::new();
    let file = sandbox.home().join("bad.pdn");
    let mut bytes = b"[Event \"Reset\x1bc\"]\n1. 11-15 23-19 2. 8-11\x1bc 22-17 *\n\n".to_vec();
    bytes.extend(b"[Event \"Long\"]\n1. ");
    bytes.extend(std::iter::repeat_n(b'9', 10_000_000));
    bytes.extend(b" *\n");
    std::fs::write(&file, bytes).unwrap();
    let out = run_in(&sandbox, &["pdn", "check", file.to_str().unwrap()], b"");
    assert_eq!(out.status.code(), Some(1));
    let report = text(&out.stdout);
    assert!(!report.contains('\x1b'), "{report:?}");
    assert!(report.len() < 1000, "{} bytes", report.len());
    let lines: Vec<&str> = report.lines().collect();
    assert!(
        lines[0].starts_with("game 1 (\"Reset?c\"), move 2. 8-11?c (Black"),
        "{report}"
    );
    assert!(
        lines[1].contains("a word of 10000000 characters"),
        "{report}"
    );
    assert_eq!(lines[2], "2 games: 0 replayed, 2 with errors");
}

#[test]
fn case_10_temporary_files_of_killed_programs_are_removed_at_the_next_start() {
    let sandbox = Sandbox::new();
    let data = sandbox.data_dir();
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    // Process ids wrap far below 999999999; this test's own process is alive.
    let dead = [
        data.join(".autosave.pdn.999999999.tmp"),
        sandbox
            .games_dir()
            .join(".2026-01-01-000000-abcdef.pdn.999999998.tmp"),
    ];
    let alive = data.join(format!(".autosave.pdn.{}.tmp", std::process::id()));
    for file in dead.iter().chain([&alive]) {
        std::fs::write(file, "half a game").unwrap();
    }
    let out = run_in(&sandbox, &["--plain"], b"quit\n");
    assert!(out.status.success());
    for file in &dead {
        assert!(!file.exists(), "{} left", file.display());
    }
    assert!(alive.exists(), "a running program's file is kept");
}

/// A saved game whose record stops at a faulty move (a file edited by hand) is offered
/// by `--resume` from the move before the fault, with the fault named; the file as it
/// was is kept beside it before the resumed game is saved over it.
#[test]
fn a_saved_game_with_a_faulty_move_is_resumed_from_the_move_before_it() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    let faulty = "[Event \"Casual\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"*\"]\n\
                  1. 11-15 23-19 2. 8-19 22-17 *\n";
    let file = sandbox.games_dir().join("2026-01-01-000000-abcdef.pdn");
    std::fs::write(&file, faulty).unwrap();

    let out = run_in(&sandbox, &["games"], b"");
    let listed = text(&out.stdout);
    assert!(
        listed.contains(
            "unfinished (its record stops at a faulty move: game 1 (\"Casual\"), move 2. 8-19"
        ),
        "{listed}"
    );
    assert!(
        listed.contains("(1 unfinished: checkers --resume)"),
        "{listed}"
    );

    // Black's second move, legal after 1. 11-15 23-19.
    let out = run_in(&sandbox, &["--resume", "--plain"], b"8-11\nquit\n");
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(
        said.contains("2026-01-01-000000-abcdef.pdn stops at a faulty move (game 1"),
        "{said}"
    );
    assert!(said.contains("8 and 19 are not on one diagonal"), "{said}");
    assert!(
        said.contains("play goes on from the move before it"),
        "{said}"
    );
    let kept = sandbox
        .games_dir()
        .join("2026-01-01-000000-abcdef.pdn.faulty");
    assert!(
        said.contains("2026-01-01-000000-abcdef.pdn.faulty"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&kept).unwrap(), faulty);
    let saved = std::fs::read_to_string(&file).unwrap();
    assert!(saved.contains("1. 11-15 23-19 2. 8-11 *"), "{saved}");
    // The copy is not one more game of the folder.
    let out = run_in(&sandbox, &["games"], b"");
    assert!(
        text(&out.stdout).contains("\n1 game in "),
        "{}",
        text(&out.stdout)
    );
}

/// A game file that does not read at all stays out of `--resume`, whose answer counts it
/// and says where it is listed.
#[test]
fn resume_counts_the_game_files_it_cannot_read() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    let file = sandbox.games_dir().join("2026-01-01-000000-abcdef.pdn");
    std::fs::write(&file, "[Event \"Casual\"\n1. 11-15 *\n").unwrap();
    let out = run_in(&sandbox, &["--resume", "--plain"], b"");
    assert_eq!(out.status.code(), Some(2));
    let said = text(&out.stderr);
    assert!(said.starts_with("checkers: no game to resume:"), "{said}");
    assert!(
        said.contains("; 1 game file there cannot be read (checkers games lists it, and why)"),
        "{said}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        "[Event \"Casual\"\n1. 11-15 *\n"
    );
}

/// A match keeps one game in the games folder (the one in play); `checkers games` says
/// where the match's other games are, and that a finished match's game was its last.
#[test]
fn games_names_the_file_of_a_match_and_its_last_game() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    let record = |round: &str, results: &str, result: &str| {
        format!(
            "[Event \"Match: Ann v Bob\"]\n[Round \"{round}\"]\n[Black \"Ann\"]\n\
             [White \"Bob\"]\n[Result \"{result}\"]\n[MatchRounds \"2\"]\n\
             [MatchResults \"{results}\"]\n[MatchFile \"/club/match.pdn\"]\n\
             1. 11-15 23-19 {result}\n"
        )
    };
    let games = sandbox.games_dir();
    std::fs::write(
        games.join("2026-01-01-000000-aaaaaa.pdn"),
        record("2.2", "0-1 1-0 0-1", "1-0"),
    )
    .unwrap();
    std::fs::write(
        games.join("2026-01-02-000000-bbbbbb.pdn"),
        record("1.2", "0-1", "*"),
    )
    .unwrap();
    let out = run_in(&sandbox, &["games"], b"");
    let listed = text(&out.stdout);
    assert!(out.status.success(), "{listed}{}", text(&out.stderr));
    let finished = listed
        .lines()
        .find(|l| l.contains("aaaaaa"))
        .unwrap_or_default();
    assert!(
        finished.contains("1-0, the match's last game (4 of 4)"),
        "{listed}"
    );
    assert!(
        finished.ends_with("aaaaaa.pdn  (the match's games: /club/match.pdn)"),
        "{listed}"
    );
    let unfinished = listed
        .lines()
        .find(|l| l.contains("bbbbbb"))
        .unwrap_or_default();
    assert!(
        unfinished.contains("unfinished (match game 2 of 4)"),
        "{listed}"
    );
    assert!(
        unfinished.ends_with("(the match's games: /club/match.pdn)"),
        "{listed}"
    );
}
