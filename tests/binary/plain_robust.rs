//! Plain mode at a terminal (issue 9, cases 4, 6 and 7): a failed autosave is said and
//! the end says the game is lost; the output goes out move by move, and a signal keeps
//! what was printed and saves the game; a line of invalid UTF-8 is answered like any
//! other.

use crate::common::command::text;
use crate::common::pty::{Sandbox, Session, run_in, wait_until};

#[test]
fn case_4_a_failed_autosave_is_said_and_the_end_says_the_game_is_not_saved() {
    let sandbox = Sandbox::new();
    // A file where the data folder should be: no save can work (root included).
    let blocker = sandbox.home().join("not-a-folder");
    std::fs::write(&blocker, "").unwrap();
    let data = blocker.join("data").display().to_string();
    for (end, said) in [
        (
            &b"quit\r"[..],
            "Goodbye. The game is NOT saved: cannot write",
        ),
        (&b"\x04"[..], "The game is NOT saved: cannot write"),
    ] {
        let mut game = Session::start_in(&sandbox, &["--plain"], &[("XDG_DATA_HOME", &data)]);
        game.wait_for("the board", |s| s.contents().contains("Black to move."));
        game.send(b"11-15\r");
        game.wait_for("the failure", |s| {
            s.contents().contains("Autosave failed: cannot write")
        });
        game.send(b"23-19\r");
        game.wait_for("the next move", |s| {
            s.contents().contains("White played 23-19")
        });
        assert_eq!(
            game.contents().matches("Autosave failed").count(),
            1,
            "said once: {}",
            game.contents()
        );
        game.send(end);
        let status = game.exit_status();
        assert_eq!(status.exit_code(), 1, "{}", game.contents());
        let text = game.contents();
        assert!(text.contains(said), "{text}");
        assert!(text.contains("checkers: the game is not saved: "), "{text}");
    }
}

#[test]
fn case_6_output_goes_out_move_by_move_and_sigterm_keeps_it_and_saves_the_game() {
    let sandbox = Sandbox::new();
    let out = sandbox.home().join("out.txt");
    let mut game = Session::start_shell(
        &sandbox,
        "exec \"$CHECKERS\" --black cpu --white cpu --level 8 --plain > out.txt",
        &[],
    );
    let printed = || {
        std::fs::read_to_string(&out)
            .unwrap_or_default()
            .matches(" played ")
            .count()
    };
    wait_until("four moves in the output file", || printed() >= 4);
    game.signal("TERM");
    let status = game.exit_status();
    assert_eq!(status.exit_code(), 143, "{}", game.contents());
    let shown = printed();
    assert!(shown >= 4);
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("Checkers (plain mode)."), "{text}");
    assert!(game.contents().contains("checkers: the game is saved in "));
    // Each move is saved before it is printed.
    let saved = sandbox.game_texts().remove(0);
    let record = checkers::pdn::read_games(&saved).remove(0).unwrap();
    assert!(
        record.moves.len() >= shown,
        "{shown} printed, saved:\n{saved}"
    );
    assert!(
        record.moves.len() <= shown + 1,
        "{shown} printed, saved:\n{saved}"
    );
}

#[test]
fn case_7_invalid_utf8_at_the_terminal_is_answered_and_play_goes_on() {
    let mut game = Session::start(&["--plain"], &[]);
    game.wait_for("the board", |s| s.contents().contains("Black to move."));
    game.send(b"11-15\r\xff\xfe\x80\r23-19\r");
    game.wait_for("the answers", |s| {
        let text = s.contents();
        text.contains("is not a move or a command") && text.contains("White played 23-19")
    });
    game.send(b"quit\r");
    assert!(game.exit_status().success());
}

#[test]
fn control_characters_typed_are_not_echoed_back() {
    let mut game = Session::start(&["--plain"], &[]);
    game.wait_for("the board", |s| s.contents().contains("Black to move."));
    // ESC ] 0 ; sets a window title; the terminal's echo of the line shows it too, so
    // look at what the program wrote after the answer began.
    game.send(b"\x16\x1b]0;pwned\x07 12-16x\r");
    // The answer's whole line: it may come in more than one read.
    game.wait_for_output("the answer's line", |raw| {
        raw.split_once("Refused")
            .is_some_and(|(_, answer)| answer.contains('\n'))
    });
    let raw = String::from_utf8_lossy(&game.raw).into_owned();
    let answer = &raw[raw.find("Refused").unwrap()..];
    let line = answer.lines().next().unwrap();
    assert!(!line.contains('\x1b') && !line.contains('\x07'), "{line:?}");
    assert!(line.contains("?]0;pwned?"), "{line:?}");
    game.send(b"quit\r");
    assert!(game.exit_status().success());
}

/// A line longer than 64 KB (a file of zeros piped in, say) is answered and dropped as it
/// is read, and the next line is read as usual: in the game, in the puzzles, and in the
/// choice of a game to resume.
#[test]
fn an_over_long_line_is_answered_and_the_next_one_read() {
    let sandbox = Sandbox::new();
    let mut input = vec![b'0'; 200_000];
    input.extend(b"\n11-15\nquit\n");
    let out = run_in(&sandbox, &["--plain"], &input);
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(
        said.contains("That line is longer than 64 KB: ignored.\nBlack played 11-15."),
        "{said}"
    );

    let mut input = b"h\xe9lp\n".to_vec();
    input.extend(vec![b'x'; 100_000]);
    input.extend(b"\nlist\nquit\n");
    let out = run_in(&sandbox, &["puzzle", "--plain", "--number", "1"], &input);
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}{}", text(&out.stderr));
    assert!(
        said.contains("'h\u{fffd}lp' is not a move or a command; type help for the list."),
        "{said}"
    );
    assert!(
        said.contains("That line is longer than 64 KB: ignored.\n"),
        "{said}"
    );
    assert!(said.contains("0 of 35 solved.\n"), "{said}");
}

/// Lines that come while the computer thinks wait for its move, a few dozen at most in
/// this program (the rest wait in the pipe, so input that never stops, `yes 11-15 |
/// checkers --plain --white cpu`, cannot fill the memory), and every one is answered:
/// none is lost.
#[test]
fn lines_typed_ahead_of_the_computer_are_all_answered() {
    let sandbox = Sandbox::new();
    // Ten times the lines kept waiting, and answers that fit the harness's pipe.
    let lines = 320;
    let input = "11-15\n".repeat(lines);
    let out = run_in(
        &sandbox,
        &["--plain", "--white", "cpu", "--level", "1"],
        input.as_bytes(),
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}");
    // The first plays; every other is answered after the computer's move.
    assert_eq!(said.matches("Black played 11-15.").count(), 1, "{said}");
    let refused = said.matches("Refused 11-15").count();
    assert_eq!(1 + refused, lines, "{said}");
    assert!(!said.contains("ignored"), "{said}");
    let reply = said.find("White (level 1) played").unwrap();
    let first_refused = said.find("Refused 11-15").unwrap();
    assert!(reply < first_refused, "{said}");
}

/// A host in plain mode whose input ends leaves, as a game at one terminal does, rather
/// than wait for ever for moves that can no longer be typed (the line's waker kept the
/// input's channel open).
#[test]
fn a_plain_host_whose_input_ends_leaves() {
    let sandbox = Sandbox::new();
    let out = run_in(
        &sandbox,
        &["host", "--plain", "--bind", "127.0.0.1", "--port", "0"],
        b"",
    );
    let said = text(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("Waiting for a player"), "{said}");
}

/// Ctrl-D after a partly typed move (then Ctrl-D again, the end of input) answers it on
/// a line of its own, not after the typed text.
#[test]
fn a_line_ended_by_ctrl_d_is_answered_on_a_line_of_its_own() {
    let mut game = Session::start(&["--plain"], &[]);
    game.wait_for("the board", |s| s.contents().contains("Black to move."));
    game.send(b"11-15\x04\x04");
    game.wait_for("the answer", |s| {
        s.contents()
            .lines()
            .any(|l| l.starts_with("Black played 11-15"))
    });
    let text = game.contents();
    assert!(
        text.lines().any(|l| l.trim_end().ends_with("11-15")),
        "the typed text on its own line: {text}"
    );
    assert!(game.exit_status().success());
}
