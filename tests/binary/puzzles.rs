//! `checkers puzzle --plain` through a pipe: a puzzle solved after a wrong move, its
//! refutation in words, the list with the solved mark, and the progress file.

use crate::common::command::{run, run_piped_in, stderr};
use crate::common::pty::{Sandbox, Session};

#[test]
fn a_puzzle_is_solved_in_plain_mode_and_the_progress_kept() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    // Better than First (puzzle 3): Black to move and win; only 4-8 wins.
    let input = "goal\n2-6\n4-8\n8-12\n12-16\nlist\nquit\n";
    let stdout = run_piped_in(home.path(), &["puzzle", "--plain", "--number", "3"], input);
    assert!(stdout.starts_with("Puzzle 3 of "), "{stdout}");
    assert!(stdout.contains("Better than First"), "{stdout}");
    // The position in words, then the goal, before the first move.
    assert!(
        stdout.contains("Black: a man on 2; a king on 4."),
        "{stdout}"
    );
    let lines: Vec<&str> = stdout.lines().collect();
    let answers = &lines[lines
        .iter()
        .position(|l| *l == "Type a move, or help.")
        .unwrap()
        + 1..];
    assert_eq!(answers[0], "Black to move and win.");
    assert!(
        answers[1].starts_with("2-6: not the move. After 2-6 "),
        "{}",
        answers[1]
    );
    assert!(
        answers[1].contains("White holds as far as the engine sees"),
        "{}",
        answers[1]
    );
    assert_eq!(
        answers[2],
        "4-8: correct. White answers 19-15. Your move (Black)."
    );
    assert_eq!(
        answers[3],
        "8-12: correct. White answers 15-11. Your move (Black)."
    );
    assert!(
        answers[4].starts_with("12-16: correct. Solved! 1 of "),
        "{}",
        answers[4]
    );
    assert!(
        stdout.contains("  3. solved:     Better than First"),
        "{stdout}"
    );
    let progress = std::fs::read_to_string(data.join("checkers").join("puzzles.json")).unwrap();
    let records: serde_json::Value = serde_json::from_str(&progress).unwrap();
    let record = &records["better-than-first"];
    assert_eq!(record["solved"], true, "{progress}");
    assert_eq!(record["attempts"], 1, "{progress}");
    assert_eq!(record["failed"], 1, "{progress}");
}

#[test]
fn puzzle_at_the_plain_game_prompt_visits_the_puzzles_and_back_returns_to_the_game() {
    let home = tempfile::tempdir().unwrap();
    let data = home.path().join("data");
    // A move of the game, the help naming puzzle, puzzle 3 solved, back to the game,
    // whose next move is White's.
    let input =
        "11-15\nhelp\npuzzle 3\n4-8\n8-12\n12-16\nback\n23-19\npuzzle 999\npuzzle\nquit\nmoves\n";
    let stdout = run_piped_in(home.path(), &["--plain"], input);
    let help = stdout
        .lines()
        .find(|l| l.starts_with("Commands: a move (11-15"))
        .unwrap_or_else(|| panic!("{stdout}"));
    assert!(help.contains("puzzle [N]"), "{help}");
    let visit = stdout.find("Puzzles: the game waits").expect(&stdout);
    let after = &stdout[visit..];
    assert!(after.contains("Puzzle 3 of "), "{after}");
    assert!(
        after.contains("4-8: correct. White answers 19-15. Your move (Black)."),
        "{after}"
    );
    assert!(after.contains("12-16: correct. Solved!"), "{after}");
    // Back in the game: the board, White to move, and 23-19 played in the game.
    let back = after.find("Back to the game.").expect(after);
    let game = &after[back..];
    assert!(game.contains("White to move"), "{game}");
    assert!(game.contains("23-19"), "{game}");
    assert!(
        game.contains("There is no puzzle 999: they are numbered 1 to"),
        "{game}"
    );
    // `puzzle` alone goes back to the puzzle left; quit there returns to the game, which
    // still answers.
    let again = game.find("Puzzles: the game waits").expect(game);
    assert!(game[again..].contains("Puzzle 3 of "), "{game}");
    assert!(game[again..].contains("Legal moves: "), "{game}");
    // The progress is kept as in `checkers puzzle --plain`.
    let progress = std::fs::read_to_string(data.join("checkers").join("puzzles.json")).unwrap();
    assert!(progress.contains("better-than-first"), "{progress}");
}

#[test]
fn a_puzzle_number_past_the_list_is_refused_as_plain_mode_refuses_it() {
    for (args, number) in [
        (&["puzzle", "--number", "99"][..], "99"),
        (&["puzzle", "--plain", "--number", "99"], "99"),
        // 0 and a number far past the list are told the same: the list's own range.
        (&["puzzle", "--number", "0"], "0"),
        (&["puzzle", "--number", "20000"], "20000"),
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        // Worded as the program's other errors: no capital after `checkers: `.
        let said = format!("checkers: there is no puzzle {number}: they are numbered 1 to ");
        assert!(stderr(&o).starts_with(&said), "{}", stderr(&o));
        assert!(!stderr(&o).trim_end().ends_with('.'), "{}", stderr(&o));
        assert!(o.stdout.is_empty(), "nothing opened");
    }
}

/// A solver who quits and starts again finds the list at the next puzzle to solve,
/// not at puzzle 1 (solved already); plain mode opens that puzzle too.
#[test]
fn the_puzzles_open_at_the_first_one_not_solved_yet() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.data_dir()).unwrap();
    std::fs::write(
        sandbox.data_dir().join("puzzles.json"),
        r#"{"first-position": {"solved": true, "attempts": 1, "failed": 0},
            "first-position-black-to-move": {"solved": true, "attempts": 2, "failed": 1}}"#,
    )
    .unwrap();
    let mut list = Session::start_in(&sandbox, &["puzzle"], &[]);
    list.wait_for("the list with its key line", |s| {
        let text = s.contents();
        text.contains("2 of 35 solved") && text.contains("q leave")
    });
    let text = list.contents();
    assert!(text.contains("> [ ]  3. Better than First"), "{text}");
    list.send(b"q");
    assert!(list.exit_status().success());
    let stdout = run_piped_in(sandbox.home(), &["puzzle", "--plain"], "quit\n");
    assert!(stdout.starts_with("Puzzle 3 of "), "{stdout}");
}

/// Esc closes the keys `?` lists on a puzzle's board (at 80x24 in a box over the
/// board, whole): it does not leave the puzzles, and a second Esc does.
#[test]
fn esc_closes_the_puzzles_keys_and_does_not_leave() {
    let sandbox = Sandbox::new();
    let mut board = Session::start_in(&sandbox, &["puzzle", "--number", "1"], &[]);
    board.wait_for("the puzzle's board", |s| {
        let text = s.contents();
        text.contains("Your move.") && text.contains("q leave")
    });
    board.send(b"19-24\r");
    board.wait_for("the wrong move's refutation", |s| {
        let text = s.contents();
        text.contains("not the move") && text.contains("q leave")
    });
    board.send(b"?");
    board.wait_for("the keys", |s| {
        let text = s.contents();
        text.contains("a click closes") && text.contains("q leave")
    });
    let text = board.contents();
    assert!(
        text.contains("Esc puts a piece down, else leaves"),
        "{text}"
    );
    board.send(b"\x1b");
    board.wait_for("the keys closed", |s| {
        let text = s.contents();
        !text.contains("a click closes") && text.contains("q leave")
    });
    assert!(!board.exited(), "Esc only closed the keys");
    assert!(board.contents().contains("Puzzle 1 of 35"));
    board.send(b"\x1b");
    assert!(board.exit_status().success());
}

/// A teacher's file of three puzzles, the second's solution broken at line 11 (Black
/// must take 32x23, and plays 12-17); the third's `1/2-1/2` makes it a draw to find.
const LESSON: &str = "[Event \"First Position\"]\n[SetUp \"1\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n\
[Result \"1-0\"]\n1. 23-27 28-32 2. 19-23 32-28 3. 27-32 28-24 4. 23-18 1-0\n\n\
[Event \"Broken one\"]\n[SetUp \"1\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n[Result \"1-0\"]\n\
1. 23-27 28-32 2. 19-15 12-17 1-0\n\n\
[Event \"Hold the draw\"]\n[SetUp \"1\"]\n[FEN \"B:WK19,K23:BK28,12\"]\n\
[Result \"1/2-1/2\"]\n1. 28-32 19-15 2. 12-16 1/2-1/2\n";

#[test]
fn a_teachers_pdn_file_is_solved_with_progress_of_its_own_and_a_broken_puzzle_named() {
    let home = tempfile::tempdir().unwrap();
    // The same lesson in two folders: two files, two progresses.
    let (first, second) = (home.path().join("a"), home.path().join("b"));
    for dir in [&first, &second] {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("lesson.pdn"), LESSON).unwrap();
    }
    let lesson = first.join("lesson.pdn");
    let lesson = lesson.to_str().unwrap();
    let other = second.join("lesson.pdn");
    let other = other.to_str().unwrap();
    // The broken puzzle is named, with its line and why; the good ones are kept.
    let o = run(&["puzzle", "--plain", lesson]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stderr(&o);
    assert!(
        said.contains("puzzle 2 left out: game 2 (\"Broken one\"), move"),
        "{said}"
    );
    assert!(said.contains("line 11"), "{said}");
    assert!(said.contains("a capture is compulsory"), "{said}");
    let shown = crate::common::command::stdout(&o);
    assert!(
        shown.starts_with("Puzzle 1 of 2: First Position."),
        "{shown}"
    );
    // The draw solved, as a built-in puzzle is.
    let input = "goal\n28-32\n12-16\nlist\nquit\n";
    let out = run_piped_in(
        home.path(),
        &["puzzle", "--plain", "--number", "2", lesson],
        input,
    );
    assert!(out.contains("Black to move and draw."), "{out}");
    assert!(
        out.contains("12-16: correct. Solved! 1 of 2 puzzles solved."),
        "{out}"
    );
    assert!(out.contains("  2. solved:     Hold the draw"), "{out}");
    // Kept for this file only: not for its namesake elsewhere, nor the built-in list.
    let again = run_piped_in(home.path(), &["puzzle", "--plain", lesson], "list\nquit\n");
    assert!(again.contains("\n1 of 2 solved."), "{again}");
    let apart = run_piped_in(home.path(), &["puzzle", "--plain", other], "list\nquit\n");
    assert!(apart.contains("\n0 of 2 solved."), "{apart}");
    let built_in = run_piped_in(home.path(), &["puzzle", "--plain"], "list\nquit\n");
    assert!(built_in.contains("\n0 of "), "{built_in}");
    assert!(!home.path().join("data/checkers/puzzles.json").exists());
}

#[test]
fn a_puzzle_file_with_no_usable_puzzle_is_refused_saying_why() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("games.pdn");
    std::fs::write(&file, "[Event \"A game\"]\n1. 11-15 23-19 *\n").unwrap();
    let o = run(&["puzzle", "--plain", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("holds no puzzle that can be used: puzzle 1 left out: game 1 (\"A game\") sets up no position"),
        "{}",
        stderr(&o)
    );
    assert!(o.stdout.is_empty(), "nothing opened");
}

#[test]
fn the_puzzles_screen_tells_what_the_game_would_tell_on_its_status_line() {
    let sandbox = Sandbox::new();
    // Preferences that cannot be used: the game says so below its board; the puzzles
    // (which have no such line) said nothing, and the player wondered why.
    let file = sandbox.home().join("config/checkers/preferences.toml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "theme = \"purple\"\n").unwrap();
    let mut board = Session::start_in(&sandbox, &["puzzle", "--number", "1"], &[]);
    board.wait_for("the puzzle's board with the notice", |s| {
        // The side panel's rows (from column 43 at 80x24), read as one line.
        let contents = s.contents();
        let panel: Vec<String> = contents
            .lines()
            .map(|row| row.chars().skip(42).collect())
            .collect();
        let panel = panel
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        panel.contains("Warning:")
            && panel.contains("the preferences are not used")
            && contents.contains("q leave")
    });
    board.send(b"q");
    assert!(board.exit_status().success());
}

/// The puzzle's number may follow the file (`checkers puzzle lesson.pdn 2`), or stand
/// alone for the built-in ones (`checkers puzzle 3`); a solution shown ends its
/// sentence.
#[test]
fn a_puzzles_number_after_the_file_or_alone_opens_that_puzzle() {
    let home = tempfile::tempdir().unwrap();
    let lesson = home.path().join("lesson.pdn");
    std::fs::write(&lesson, LESSON).unwrap();
    let lesson = lesson.to_str().unwrap();
    let out = run_piped_in(home.path(), &["puzzle", "--plain", lesson, "2"], "quit\n");
    assert!(out.starts_with("Puzzle 2 of 2: Hold the draw."), "{out}");
    let out = run_piped_in(home.path(), &["puzzle", "--plain", "3"], "solution\nquit\n");
    assert!(out.starts_with("Puzzle 3 of "), "{out}");
    assert!(out.contains("Better than First"), "{out}");
    let shown = out
        .lines()
        .find(|l| l.starts_with("The solution: "))
        .unwrap_or_else(|| panic!("no solution shown: {out}"));
    assert!(shown.ends_with('.'), "{shown}");
    // A number past the file's puzzles is refused with their range.
    let o = run(&["puzzle", "--plain", lesson, "7"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("7"), "{}", stderr(&o));
}

/// `checkers puzzle FILE --check`: a teacher learns which solutions do not hold, by
/// number, with the move that does, before the pupils meet them; exit status 1.
#[test]
fn a_puzzle_files_wrong_solution_is_found_by_the_check() {
    let home = tempfile::tempdir().unwrap();
    let file = home.path().join("lesson.pdn");
    let lesson = "[Event \"Hold the draw\"]\n[FEN \"B:WK19,K23:BK28,12\"]\n\
        [Result \"1/2-1/2\"]\n1. 28-32 19-15 2. 12-16 1/2-1/2\n\n\
        [Event \"Gives it away\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n[Result \"1-0\"]\n\
        1. 19-24 1-0\n";
    std::fs::write(&file, lesson).unwrap();
    let o = run(&[
        "puzzle",
        file.to_str().unwrap(),
        "--check",
        "--movetime",
        "100",
    ]);
    let out = crate::common::command::stdout(&o);
    assert_eq!(o.status.code(), Some(1), "{out}{}", stderr(&o));
    assert!(
        out.contains("puzzle 1 (Hold the draw): the solution holds"),
        "{out}"
    );
    assert!(
        out.contains(
            "puzzle 2 (Gives it away): WRONG: its move 1, 19-24, does not keep the win: \
             after it Black wins"
        ),
        "{out}"
    );
    assert!(out.contains("1 wrong (puzzle 2)"), "{out}");
    assert!(
        stderr(&o).contains("checkers: 1 puzzle of the file does not hold"),
        "{}",
        stderr(&o)
    );
}

/// `checkers --plain puzzle FILE` at a terminal: plain mode, as `--plain` asks (the
/// option before `puzzle` was passed over, and the full screen opened), and `puzzle N`
/// there opens puzzle N of the file, not of the built-in ones.
#[test]
fn plain_before_puzzle_is_plain_mode_and_puzzle_n_opens_the_files_puzzle() {
    let sandbox = Sandbox::new();
    let lesson = sandbox.home().join("lesson.pdn");
    std::fs::write(&lesson, LESSON).unwrap();
    let mut session = Session::start_in(
        &sandbox,
        &["--plain", "puzzle", lesson.to_str().unwrap()],
        &[],
    );
    session.wait_for_output("the file's first puzzle in plain mode", |out| {
        out.contains("Puzzle 1 of 2: First Position.") && out.contains("Type a move, or help.")
    });
    session.send(b"puzzle 2\r");
    session.wait_for_output("the file's second puzzle", |out| {
        out.contains("Puzzle 2 of 2: Hold the draw.")
    });
    session.send(b"quit\r");
    assert!(session.exit_status().success());
}

/// Two numbers where one is taken (`--number 5 7`, `5 7`) say so, instead of reading
/// the second as a file that cannot be read.
#[test]
fn two_puzzle_numbers_are_told_apart_from_a_file() {
    for (args, said) in [
        (
            &["puzzle", "--plain", "--number", "5", "7"][..],
            "--number 5 and 7",
        ),
        (&["puzzle", "--plain", "5", "7"], "5 and 7"),
    ] {
        let o = run(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with(&format!(
                "checkers: one puzzle number only: {said} both given"
            )),
            "{args:?}: {err}"
        );
    }
}
