//! `checkers explore`, run as a user runs it.

use crate::common::command::{run, stderr, stdout};

#[test]
fn explore_after_11_15_lists_the_replies_played_most_first() {
    let o = run(&["explore", "--moves", "11-15"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    // White to move: the score is White's.
    assert_eq!(
        lines[0], "move      games  black  draws  white  White%  opening",
        "{out}"
    );
    // The most played reply first: its games, Black wins, draws, White wins, White's
    // score and the opening's name.
    assert_eq!(
        lines[1], "23-18        25      5     17      3   46.0%  Cross",
        "{out}"
    );
    assert!(
        lines.contains(&"24-20         9      3      5      1   38.9%  Ayrshire Lassie"),
        "{out}"
    );
    assert_eq!(
        out.lines().last(),
        Some("723 games read, 1 skipped (their moves do not replay)"),
        "{out}"
    );
    assert_eq!(stderr(&o), "");
}

#[test]
fn explore_says_when_no_game_reaches_the_position_and_refuses_a_bad_move() {
    let o = run(&["explore", "--fen", "B:W32:B1"]);
    assert!(o.status.success());
    assert!(
        stdout(&o).contains("no game in the collection reaches this position"),
        "{}",
        stdout(&o)
    );
    let o = run(&["explore", "--moves", "11-15 11-15"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--moves: 11-15 cannot be played"),
        "{}",
        stderr(&o)
    );
}
