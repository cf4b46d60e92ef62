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
