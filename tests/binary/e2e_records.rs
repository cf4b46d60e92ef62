//! Game records end to end, in a pseudo-terminal: the autosave survives SIGKILL and
//! `--resume` continues it; SIGHUP and SIGTERM restore the terminal and save; the save
//! dialog writes a file `checkers pdn check` accepts, and a failed save leaves the game
//! going; `--load` opens a game for review.

use crate::common::pty::{Sandbox, Session};

/// Plays `moves` by typing them, waiting for each to be played.
fn play(game: &mut Session, moves: &[&str]) {
    game.play(moves);
}

#[test]
fn sigkill_loses_nothing_and_resume_shows_the_moves() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &[], &[]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    play(&mut game, &["11-15", "23-19", "8-11"]);
    sandbox.wait_for_game("1. 11-15 23-19 2. 8-11");
    game.signal("KILL");
    let status = game.exit_status();
    assert!(!status.success(), "killed, so no clean exit: {status:?}");

    let mut resumed = Session::start_in(&sandbox, &["--resume"], &[]);
    resumed.wait_for("the three moves", |s| {
        let text = s.contents();
        text.contains("1. 11-15    23-19")
            && text.contains("2. 8-11")
            && text.contains("White to move")
    });
    // Undo works on the resumed game, and the autosave keeps the move for redo.
    resumed.send(b"u");
    resumed.wait_for("the undo", |s| {
        s.contents().contains("Took back Black 8-11")
    });
    resumed.send(b"\x03");
    assert_eq!(
        resumed.exit_status().exit_code(),
        130,
        "Ctrl-C: an interrupt"
    );
    sandbox.wait_for_game("[Undone \"8-11\"]");
    assert_eq!(
        sandbox.game_files().len(),
        1,
        "the same game, in the same file"
    );

    // A new game says an unfinished game is saved.
    let mut fresh = Session::start_in(&sandbox, &[], &[]);
    fresh.past_home();
    fresh.wait_for("the note", |s| {
        s.contents().contains("An unfinished game is saved")
    });
    fresh.send(b"q");
    fresh.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    fresh.send(b"q");
    assert!(fresh.exit_status().success());
}

#[test]
fn sighup_and_sigterm_restore_the_terminal_and_save_the_game() {
    for (signal, number) in [("HUP", 1), ("TERM", 15)] {
        let sandbox = Sandbox::new();
        let mut game = Session::start_in(&sandbox, &[], &[]);
        game.past_home();
        game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
        play(&mut game, &["11-15", "23-19"]);
        game.signal(signal);
        let status = game.exit_status();
        assert_eq!(status.exit_code(), 128 + number, "SIG{signal}");
        let screen = game.parser.screen();
        assert!(
            !screen.alternate_screen(),
            "SIG{signal}: alternate screen left"
        );
        assert_eq!(
            screen.mouse_protocol_mode(),
            vt100::MouseProtocolMode::None,
            "SIG{signal}: mouse capture off"
        );
        let output = String::from_utf8_lossy(&game.raw);
        let left = output
            .rfind("\x1b[?1049l")
            .expect("leaves the alternate screen");
        assert!(left > output.rfind("\x1b[?1049h").unwrap());
        assert!(
            left > output.rfind("\x1b[?1000h").unwrap(),
            "mouse off after last on"
        );
        let saved = sandbox.game_texts().join("\n");
        assert!(saved.contains("1. 11-15 23-19 *"), "SIG{signal}: {saved}");
    }
}

#[test]
fn the_save_dialog_writes_a_file_pdn_check_accepts_and_a_failed_save_changes_nothing() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &[], &[]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    play(&mut game, &["11-15", "23-19"]);

    // The default path, with a name for Black typed in.
    game.send(b"s");
    game.wait_for("the save dialog", |s| {
        s.contents().contains("Save the game")
    });
    let games_dir = sandbox.data_home().join("checkers");
    assert!(
        game.contents().contains(&games_dir.display().to_string()),
        "the default path is in the data directory:\n{}",
        game.contents()
    );
    game.send(b"\tAnn\r");
    game.wait_for("the saved message", |s| s.contents().contains("Saved to"));
    let saved: Vec<_> = std::fs::read_dir(&games_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.file_name()
                .unwrap()
                .to_string_lossy()
                .starts_with("game-")
        })
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    let text = std::fs::read_to_string(&saved[0]).unwrap();
    assert!(text.contains("[Black \"Ann\"]"), "{text}");
    assert!(text.contains("1. 11-15 23-19 *"), "{text}");
    let check = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(["pdn", "check"])
        .arg(&saved[0])
        .output()
        .unwrap();
    assert!(check.status.success(), "{check:?}");
    assert_eq!(
        String::from_utf8_lossy(&check.stdout),
        "1 game: 1 replayed, 0 with errors\n"
    );

    // A path under a plain file cannot be written: the error shows, the game goes on.
    let blocker = sandbox.home().join("not-a-dir");
    std::fs::write(&blocker, "keep me").unwrap();
    game.send(b"s");
    game.wait_for("the save dialog", |s| {
        s.contents().contains("Save the game")
    });
    game.send(b"\x15");
    game.send(format!("{}/game.pdn\r", blocker.display()).as_bytes());
    game.wait_for("the error", |s| {
        s.contents().contains("Not saved: cannot write")
    });
    game.send(b"\x1b");
    game.wait_for("the dialog closed", |s| {
        !s.contents().contains("Save the game")
    });
    play(&mut game, &["8-11"]);
    game.wait_for("the game going on", |s| {
        s.contents().contains("2. 8-11") && s.contents().contains("White to move")
    });
    assert_eq!(std::fs::read_to_string(&blocker).unwrap(), "keep me");
    game.send(b"\x03");
    assert_eq!(game.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
}

const TWO_GAMES: &str = r#"[Event "First"]
[Black "A"]
[White "B"]
[Result "*"]
1. 11-15 23-19 *

[Event "Second match"]
[Black "Carol"]
[White "Dan"]
[Result "0-1"]
1. 9-14 22-18 2. 5-9 24-19 0-1
"#;

#[test]
fn load_opens_the_chosen_game_in_review_and_right_steps_a_move() {
    let sandbox = Sandbox::new();
    let file = sandbox.home().join("two.pdn");
    std::fs::write(&file, TWO_GAMES).unwrap();
    let path = file.display().to_string();
    let mut game = Session::start_in(&sandbox, &["--load", &path, "--game", "2"], &[]);
    game.wait_for("the review", |s| {
        let text = s.contents();
        text.contains("Review: the start, before 2 moves")
            && text.contains("Second match")
            && text.contains("Carol")
            && text.contains("Black to move")
    });
    game.send(b"\x1b[C");
    game.wait_for("one step", |s| {
        s.contents().contains("Review: move 1 (Black's") && s.contents().contains("White to move")
    });
    game.send(b"\x1b[F");
    game.wait_for("the end", |s| {
        s.contents().contains("Review: move 2 (White's")
    });
    // Reviewing is not playing: quitting does not ask, and nothing was autosaved.
    game.send(b"q");
    assert!(game.exit_status().success());
    assert!(sandbox.game_files().is_empty());

    // Esc stops reviewing: the position shown becomes the game in progress, saved once
    // a move is played from it (not before: the autosave may hold an unfinished game).
    let mut game = Session::start_in(&sandbox, &["--load", &path, "--game", "2"], &[]);
    game.wait_for("the review", |s| {
        s.contents().contains("Review: the start, before 2 moves")
    });
    game.send(b"\x1b[C\x1b[C");
    game.wait_for("two steps", |s| {
        s.contents().contains("Review: move 1 (White's")
    });
    game.send(b"\x1b");
    game.wait_for("review over", |s| !s.contents().contains("Review: "));
    // The loop saves before it redraws: had Esc saved, the file would be there now.
    assert!(
        sandbox.game_files().is_empty(),
        "leaving a review wrote the autosave"
    );
    play(&mut game, &["5-9"]);
    let saved = sandbox.wait_for_game("1. 9-14 22-18 2. 5-9 *");
    assert!(saved.contains("[Undone \"24-19\"]"), "{saved}");
    assert!(saved.contains("[Black \"Carol\"]"), "{saved}");
    game.send(b"\x03");
    assert_eq!(game.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
}

/// The full-screen game resumes a saved game whose record stops at a faulty move from
/// the move before it, and says so on its status line.
#[test]
fn a_saved_game_with_a_faulty_move_is_resumed_on_the_board_with_the_fault_said() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    let faulty = "[Event \"Casual\"]\n[Result \"*\"]\n1. 11-15 23-19 2. 8-19 22-17 *\n";
    let file = sandbox.games_dir().join("2026-01-01-000000-abcdef.pdn");
    std::fs::write(&file, faulty).unwrap();
    let mut game = Session::start_in(&sandbox, &["--resume"], &[]);
    game.wait_for("the fault on the status line", |s| {
        s.contents().contains("The game saved in")
    });
    play(&mut game, &["8-11"]);
    sandbox.wait_for_game("1. 11-15 23-19 2. 8-11 *");
    assert_eq!(
        std::fs::read_to_string(
            sandbox
                .games_dir()
                .join("2026-01-01-000000-abcdef.pdn.faulty")
        )
        .unwrap(),
        faulty
    );
    game.send(b"\x03");
    assert_eq!(game.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
}

#[test]
fn resume_with_nothing_saved_says_so() {
    let sandbox = Sandbox::new();
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
        .arg("--resume")
        .env("HOME", sandbox.home())
        .env("XDG_DATA_HOME", sandbox.data_home())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("checkers: no game to resume:"),
        "{stderr}"
    );
}

#[test]
fn a_failed_autosave_is_shown_once_and_play_goes_on() {
    let sandbox = Sandbox::new();
    let blocker = sandbox.home().join("not-a-dir");
    std::fs::write(&blocker, "").unwrap();
    let data_home = blocker.join("data").display().to_string();
    let mut game = Session::start_in(&sandbox, &[], &[("XDG_DATA_HOME", &data_home)]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.send(b"11-15\r");
    game.wait_for("the failure", |s| {
        s.contents().contains("Autosave failed: cannot write")
    });
    play(&mut game, &["23-19"]);
    game.wait_for("the move, without the failure again", |s| {
        s.contents().contains("White played 23-19") && !s.contents().contains("Autosave failed")
    });
    game.send(b"q");
    game.wait_for("the quit question", |s| {
        s.contents()
            .contains("Back to the home screen? The game is NOT saved")
    });
    game.send(b"y");
    // Back at the home screen (the game was started there), which says so too.
    game.wait_for("the home screen", |s| {
        s.contents().contains("The game is NOT saved: cannot write")
    });
    game.send(b"q");
    // The game is lost: said after the screen is restored, and the status is 1, as in
    // plain mode.
    let status = game.exit_status();
    assert_eq!(status.exit_code(), 1, "{status:?}");
    assert!(
        game.contents()
            .contains("checkers: the game is not saved: cannot write"),
        "{}",
        game.contents()
    );
}

#[test]
fn resume_continues_against_the_computer_at_its_level_unless_told_otherwise() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &["--white", "cpu", "--level", "3"], &[]);
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    play(&mut game, &["11-15"]);
    game.wait_for("the computer's reply", |s| {
        s.contents().contains("White (level 3) played")
    });
    sandbox.wait_for_game("[WhiteLevel \"3\"]");
    game.send(b"qy");
    assert!(game.exit_status().success());

    let mut resumed = Session::start_in(&sandbox, &["--resume"], &[]);
    resumed.wait_for("the computer at level 3", |s| {
        s.contents().contains("Computer (level 3): White") && s.contents().contains("Black to move")
    });
    // It is still the computer's game: after Black's move, White replies by itself.
    let reply_to = |screen: &str| screen.matches("White (level 3) played").count();
    let before = reply_to(&resumed.contents());
    let pos = sandbox.game_texts().remove(0);
    let legal = checkers::pdn::read_games(&pos)
        .remove(0)
        .unwrap()
        .end_position()
        .legal_moves();
    let next = checkers::pdn::read_games(&pos)
        .remove(0)
        .unwrap()
        .end_position()
        .notation(&legal[0]);
    play(&mut resumed, &[&next]);
    resumed.wait_for("White's reply after the resume", |s| {
        reply_to(&s.contents()) > before || s.contents().contains("; White (level 3) played")
    });
    resumed.send(b"\x03");
    assert_eq!(
        resumed.exit_status().exit_code(),
        130,
        "Ctrl-C: an interrupt"
    );

    // Options given now win over the record: White is a person.
    let mut overridden = Session::start_in(&sandbox, &["--resume", "--white", "human"], &[]);
    overridden.wait_for("two people", |s| {
        s.contents().contains("Black to move") && !s.contents().contains("Computer (")
    });
    overridden.send(b"\x03");
    assert_eq!(
        overridden.exit_status().exit_code(),
        130,
        "Ctrl-C: an interrupt"
    );
}

/// In a locale that is not UTF-8 (`LANG=C`) the full screen writes ASCII only: a
/// loaded game's names in Spanish and Chinese went out as UTF-8 bytes, garbage there,
/// one column a byte, which pushed the panel's border out of its column.
#[test]
fn a_locale_not_utf8_gets_the_names_of_a_loaded_game_in_ascii() {
    let sandbox = Sandbox::new();
    let file = sandbox.home().join("names.pdn");
    let game = "[Event \"Copa \u{e9}lite\"]\n[Black \"Jos\u{e9} N\u{fa}\u{f1}ez\"]\n\
                [White \"\u{738b}\u{5c0f}\u{660e}\"]\n[Result \"*\"]\n1. 11-15 23-19 *\n";
    std::fs::write(&file, game).unwrap();
    let path = file.display().to_string();
    let mut game = Session::start_in(&sandbox, &["--load", &path], &[("LANG", "C")]);
    game.wait_for("the review, its key line drawn", |s| {
        let text = s.contents();
        text.contains("Jose Nunez") && text.contains("Copa elite") && text.contains("q quit")
    });
    let wide = game.raw.iter().filter(|b| !b.is_ascii()).count();
    assert_eq!(wide, 0, "{}", String::from_utf8_lossy(&game.raw));
    // The wide name keeps its 6 columns, a `?` and a blank for each character.
    let text = game.contents();
    assert!(text.contains("White  ? ? ? "), "{text}");
    game.send(b"q");
    assert!(game.exit_status().success());
}
