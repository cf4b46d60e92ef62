//! Several windows, one data folder (issue 9, cases 1 and 2): every game has its own
//! autosave, locked by its window; `--resume` continues the newest free unfinished game
//! or asks which (a picker on the full screen, a numbered list in plain mode); nothing
//! replaces an unfinished game; the old single `autosave.pdn` is taken over.

use crate::common::pty::{Sandbox, Session, run_in};

fn start(sandbox: &Sandbox, args: &[&str]) -> Session {
    let mut game = Session::start_in(sandbox, args, &[]);
    if args.is_empty() {
        game.past_home();
    }
    game.wait_for("the start screen", |s| s.contents().contains("to move"));
    game
}

/// Quits a game with a move played, which asks first; one started from the home screen
/// (`from_home`) goes back there, whose q then ends the program.
fn quit_asking(game: &mut Session, from_home: bool) {
    game.send(b"q");
    let asked = if from_home {
        "Back to the home screen? The game is saved; r there continues it."
    } else {
        "Quit? The game is saved; checkers --resume continues it."
    };
    game.wait_for("the quit question", |s| s.contents().contains(asked));
    game.send(b"y");
    if from_home {
        game.wait_for("the home screen", |s| {
            s.contents().contains("Two players at this terminal")
        });
        game.send(b"q");
    }
    let status = game.exit_status();
    assert!(status.success(), "{status:?}");
}

/// `checkers games`, one line per game.
fn games_list(sandbox: &Sandbox) -> Vec<String> {
    let out = run_in(sandbox, &["games"], b"");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn case_1_two_windows_keep_two_games_and_each_can_be_resumed() {
    let sandbox = Sandbox::new();
    let mut a = start(&sandbox, &[]);
    a.play(&["11-15", "23-19", "8-11", "22-17"]);
    let mut b = start(&sandbox, &[]);
    b.play(&["9-13", "22-18", "10-14"]);
    quit_asking(&mut a, true);

    // A's game is kept, and --resume takes it: B's is open in B's window.
    let mut c = start(&sandbox, &["--resume"]);
    c.wait_for("A's moves", |s| {
        let text = s.contents();
        text.contains("1. 11-15    23-19") && text.contains("2. 8-11     22-17")
    });
    c.send(b"\x03");
    assert_eq!(c.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
    b.send(b"\x03");
    assert_eq!(b.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
    assert_eq!(sandbox.game_files().len(), 2, "one file per game");

    // Both are unfinished and free now: --resume asks which, newest (B's) first.
    let list = games_list(&sandbox);
    assert_eq!(list.len(), 3, "{list:?}");
    // Counted in moves, one of each side's: B's three plies are two moves.
    assert!(list[0].contains("2 moves  unfinished"), "{list:?}");
    assert!(list[1].contains("2 moves  unfinished"), "{list:?}");
    assert!(list[2].starts_with("2 games in "), "{list:?}");
    let mut picker = start_picker(&sandbox);
    picker.send(b"\x1b[B\r");
    picker.wait_for("A's game again", |s| {
        s.contents().contains("2. 8-11     22-17")
    });
    // While it is open here, a plain --resume continues the only other one, B's.
    let out = run_in(&sandbox, &["--resume", "--plain"], b"moves\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Continuing the game saved in"), "{text}");
    assert!(text.contains("Legal moves: "), "{text}");
    assert!(
        !text.contains("Unfinished games"),
        "no choice to make: {text}"
    );
    picker.send(b"\x03");
    assert_eq!(
        picker.exit_status().exit_code(),
        130,
        "Ctrl-C: an interrupt"
    );
}

/// `--resume` with two free unfinished games: the picker lists them.
fn start_picker(sandbox: &Sandbox) -> Session {
    let mut picker = Session::start_in(sandbox, &["--resume"], &[]);
    picker.wait_for("the picker", |s| {
        let text = s.contents();
        text.contains("Unfinished games: which one goes on?")
            && text.contains("> 1. ")
            && text.contains("  2. ")
    });
    picker
}

#[test]
fn case_2_neither_plain_mode_nor_a_loaded_game_replaces_an_unfinished_game() {
    let sandbox = Sandbox::new();
    let mut a = start(&sandbox, &[]);
    a.play(&["11-15", "23-19"]);
    a.send(b"\x03");
    assert_eq!(a.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
    let first = sandbox.wait_for_game("1. 11-15 23-19 *");

    // Plain mode at a terminal says a game is saved, and its moves go to a game of
    // their own.
    let mut plain = Session::start_in(&sandbox, &["--plain"], &[]);
    plain.wait_for("the note", |s| {
        s.contents()
            .contains("An unfinished game is saved too: after quit, r on the home screen")
    });
    plain.send(b"9-13\r");
    plain.wait_for("the move", |s| s.contents().contains("Black played 9-13"));
    plain.send(b"quit\r");
    assert!(plain.exit_status().success());
    sandbox.wait_for_game("1. 9-13 *");

    // A game played on from a --load review is a game of its own too.
    let file = sandbox.home().join("one.pdn");
    std::fs::write(&file, "[Event \"Club\"]\n1. 10-14 22-18 *\n").unwrap();
    let mut review = start(&sandbox, &["--load", file.to_str().unwrap()]);
    review.send(b"\x1b[F\x1b");
    review.wait_for("review over", |s| !s.contents().contains("Review: "));
    review.play(&["9-13"]);
    sandbox.wait_for_game("1. 10-14 22-18 2. 9-13 *");
    review.send(b"\x03");
    assert_eq!(
        review.exit_status().exit_code(),
        130,
        "Ctrl-C: an interrupt"
    );

    let texts = sandbox.game_texts();
    assert_eq!(texts.len(), 3, "{texts:?}");
    assert!(texts.contains(&first), "the first game is as it was");
}

#[test]
fn plain_resume_lists_the_games_and_reads_the_choice() {
    let sandbox = Sandbox::new();
    for (moves, black) in [("11-15\n", "Ann"), ("9-13\n22-18\n", "Cy")] {
        let mut game = Session::start_in(&sandbox, &["--plain", "--black-name", black], &[]);
        game.wait_for("the board", |s| s.contents().contains("Black to move"));
        game.send(moves.replace('\n', "\r").as_bytes());
        game.send(b"quit\r");
        assert!(game.exit_status().success());
    }
    // Ann's game saved an hour before Cy's.
    for path in sandbox.game_files() {
        let hours_ago = if std::fs::read_to_string(&path).unwrap().contains("Ann") {
            2
        } else {
            1
        };
        let when = std::time::SystemTime::now() - std::time::Duration::from_secs(3600 * hours_ago);
        let file = std::fs::File::options().write(true).open(&path).unwrap();
        file.set_modified(when).unwrap();
    }
    let out = run_in(&sandbox, &["--resume", "--plain"], b"7\n2\nmoves\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let list = text.find("Unfinished games, newest first:").unwrap();
    let ann = text.find("2. ").unwrap();
    assert!(text[list..].contains("1. ") && text[list..].contains("Cy - unnamed  1 move "));
    assert!(
        text[ann..].starts_with("2. ") && text.contains("Ann - unnamed  1 move "),
        "{text}"
    );
    assert!(
        text.contains("'7' is not one of the numbers 1 to 2."),
        "{text}"
    );
    // Ann's game: White to move after 11-15.
    assert!(text.contains("White to move"), "{text}");
    assert!(text.contains("Legal moves: 21-17, 22-17, 22-18, 23-18, 23-19, 24-19, 24-20"));
}

#[test]
fn the_old_single_autosave_becomes_a_game_that_resume_continues() {
    let sandbox = Sandbox::new();
    let old = sandbox.data_dir().join("autosave.pdn");
    std::fs::create_dir_all(old.parent().unwrap()).unwrap();
    std::fs::write(
        &old,
        "[Event \"Casual game\"]\n[Result \"*\"]\n1. 11-15 23-19 *\n",
    )
    .unwrap();
    let out = run_in(&sandbox, &["--resume", "--plain"], b"moves\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Continuing the game saved in"), "{text}");
    assert!(
        text.contains("Legal moves: 7-11, 8-11,"),
        "Black to move: {text}"
    );
    assert!(!old.exists());
    let files = sandbox.game_files();
    assert_eq!(files.len(), 1);
    assert!(files[0].to_string_lossy().ends_with("-autosave.pdn"));
}

#[test]
fn checkers_games_lists_finished_and_unfinished_games_newest_first() {
    let sandbox = Sandbox::new();
    assert_eq!(
        games_list(&sandbox),
        [format!("0 games in {}", sandbox.games_dir().display())]
    );
    let dir = sandbox.games_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let old = dir.join("2020-01-01-000000-aaaaaa.pdn");
    std::fs::write(
        &old,
        "[Black \"Ann\"]\n[White \"Bob\"]\n1. 11-15 23-19 0-1\n",
    )
    .unwrap();
    let file = std::fs::File::options().write(true).open(&old).unwrap();
    file.set_modified(
        std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_577_836_800),
    )
    .unwrap();
    std::fs::write(dir.join("2026-01-01-000000-bbbbbb.pdn"), "1. 9-13 *\n").unwrap();
    let list = games_list(&sandbox);
    assert_eq!(list.len(), 3, "{list:?}");
    // An unfinished game says where it stands, to be told from others.
    assert!(
        list[0].contains(
            "unnamed players  1 move  unfinished  last 1. 9-13  2026-01-01-000000-bbbbbb.pdn"
        ),
        "{list:?}"
    );
    assert_eq!(
        list[1],
        "  2. 2020-01-01 00:00 UTC  Ann - Bob  1 move  0-1  2020-01-01-000000-aaaaaa.pdn"
    );
    assert!(
        list[2].ends_with("(1 unfinished: checkers --resume)"),
        "{list:?}"
    );
    let unfinished = run_in(&sandbox, &["games", "--unfinished"], b"");
    let text = String::from_utf8_lossy(&unfinished.stdout);
    assert!(
        text.starts_with("  1. ") && text.contains("1 unfinished game in "),
        "{text}"
    );
}

#[test]
fn a_new_game_gets_a_file_of_its_own_and_the_last_one_stays() {
    let sandbox = Sandbox::new();
    let mut game = start(&sandbox, &[]);
    game.play(&["11-15", "23-19"]);
    game.send(b"n");
    game.wait_for("the question", |s| {
        s.contents().contains("This one stays saved")
    });
    game.send(b"y");
    game.wait_for("a new game", |s| s.contents().contains("(none yet)"));
    game.play(&["9-13"]);
    sandbox.wait_for_game("1. 9-13 *");
    game.send(b"\x03");
    assert_eq!(game.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
    let texts = sandbox.game_texts();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert!(texts.iter().any(|t| t.contains("1. 11-15 23-19 *")));
}

#[test]
fn a_new_game_announces_only_the_unfinished_games_left_in_the_last_30_days() {
    let sandbox = Sandbox::new();
    let dir = sandbox.games_dir();
    std::fs::create_dir_all(&dir).unwrap();
    let old = dir.join("2020-01-01-000000-aaaaaa.pdn");
    std::fs::write(&old, "[Black \"Ann\"]\n1. 11-15 *\n").unwrap();
    let file = std::fs::File::options().write(true).open(&old).unwrap();
    file.set_modified(
        std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_577_836_800),
    )
    .unwrap();
    std::fs::write(
        dir.join("2026-01-01-000000-bbbbbb.pdn"),
        "[Black \"Cy\"]\n1. 9-13 *\n",
    )
    .unwrap();
    let mut game = Session::start_in(&sandbox, &["--plain"], &[]);
    game.wait_for("the news", |s| s.contents().contains("unfinished game"));
    let text = game.contents();
    assert!(
        text.contains("An unfinished game is saved too: after quit, r on the home screen"),
        "{text}"
    );
    game.send(b"quit\r");
    assert!(game.exit_status().success());
    // Both are still offered by --resume.
    let out = run_in(&sandbox, &["games", "--unfinished"], b"");
    let list = String::from_utf8_lossy(&out.stdout);
    assert!(
        list.contains("Ann - unnamed") && list.contains("Cy - unnamed"),
        "{list}"
    );
}

#[test]
fn a_ballots_game_quit_before_any_move_of_the_players_quits_at_once_and_keeps_nothing() {
    let sandbox = Sandbox::new();
    // The ballot's three moves are on the board, but nothing has been played since:
    // nothing was saved, and q does not claim it was.
    let mut game = start(&sandbox, &["--ballot", "5"]);
    game.send(b"q");
    let status = game.exit_status();
    assert!(status.success(), "{status:?}");
    assert!(!game.contents().contains("Quit?"), "{}", game.contents());
    assert!(sandbox.game_files().is_empty());
    // One move of the players' own: it is kept, and q asks.
    let mut game = start(&sandbox, &["--ballot", "5"]);
    game.play(&["24-20"]);
    quit_asking(&mut game, false);
    assert_eq!(sandbox.game_files().len(), 1);
}

#[test]
fn plain_mode_leaving_an_unfinished_kept_game_says_resume_continues_it() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    let game = sandbox.games_dir().join("2026-01-02-030405-abcdef.pdn");
    std::fs::write(
        &game,
        "[Event \"Casual game\"]\n[Result \"*\"]\n1. 11-15 *\n",
    )
    .unwrap();
    let kept = "The game is saved: checkers --resume continues it.";
    // Quitting: the last words say where the game goes on.
    let out = run_in(&sandbox, &["--resume", "--plain"], b"23-19\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains(&format!("Goodbye. {kept}")), "{text}");
    // The input ending (Ctrl-D at a terminal) says so too.
    let out = run_in(&sandbox, &["--resume", "--plain"], b"8-11\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("Black played 8-11"), "{text}");
    assert!(text.trim_end().ends_with(kept), "{text}");
    // A game over is not to be continued.
    let out = run_in(&sandbox, &["--resume", "--plain"], b"resign\nquit\n");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("Goodbye.") && !text.contains(kept), "{text}");
}
