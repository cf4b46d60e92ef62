//! The real binary in a pseudo-terminal: start, type a move, see it listed, quit, and
//! find the terminal restored.

use crate::common::pty::{Sandbox, Session};

#[test]
fn type_a_move_see_it_listed_and_quit() {
    let mut game = Session::start(&[], &[]);
    game.past_home();
    game.wait_for("the start screen", |s| {
        s.contents().contains("Black to move") && s.contents().contains("(none yet)")
    });
    assert!(game.parser.screen().alternate_screen());
    assert_ne!(
        game.parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse capture on"
    );

    game.send(b"11-15\r");
    game.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15") && s.contents().contains("White to move")
    });

    // A move was played, so quitting asks first; the game was started from the home
    // screen, so q goes back there (it ended the program), saying how to go on.
    game.send(b"q");
    game.wait_for("the quit question", |s| {
        s.contents()
            .contains("Back to the home screen? The game is saved; r there continues it.")
    });
    game.send(b"y");
    game.wait_for("the home screen", |s| {
        let text = s.contents();
        text.contains("Two players at this terminal")
            && text.contains("The game is saved: r continues it.")
    });
    assert!(!game.exited(), "still running, at home");
    // q there quits the program.
    game.send(b"q");
    let status = game.exit_status();
    assert!(status.success(), "exit status {status:?}");

    let screen = game.parser.screen();
    assert!(!screen.alternate_screen(), "alternate screen left");
    assert_eq!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    assert!(!screen.hide_cursor(), "cursor shown again");
    assert!(sets_a_colour(&game.raw), "the default theme is coloured");
    // The restored terminal keeps the word of the quit question: how to go on.
    assert!(
        screen
            .contents()
            .contains("The game is saved: checkers --resume continues it."),
        "{}",
        screen.contents()
    );
}

/// A match taken up from the home screen (its r) goes back there on q, as a game does:
/// the question says so (it asked "Quit? The match is saved; checkers --resume
/// continues it." and went back to the home screen all the same), the home screen says
/// r continues the match, and the restored terminal says --resume does.
#[test]
fn a_match_resumed_from_the_home_screen_goes_back_there_and_says_r_continues_it() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &["--match", "1"], &[]);
    game.wait_for("the match", |s| s.contents().contains("Match game 1 of 2"));
    game.send(b"11-15\r");
    game.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15")
    });
    game.send(b"q");
    game.wait_for("the quit question", |s| {
        s.contents()
            .contains("Quit? The match is saved; checkers --resume continues it.")
    });
    game.send(b"y");
    assert!(game.exit_status().success());

    let mut home = Session::start_in(&sandbox, &[], &[]);
    home.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    home.send(b"r");
    home.wait_for("the match taken up", |s| {
        s.contents().contains("Match game 1 of 2") && s.contents().contains("1. 11-15")
    });
    home.send(b"q");
    home.wait_for("the question to go back", |s| {
        s.contents()
            .contains("Back to the home screen? The match is saved; r there continues it.")
    });
    home.send(b"y");
    home.wait_for("the home screen again", |s| {
        let text = s.contents();
        text.contains("Two players at this terminal")
            && text.contains("The match is saved: r continues it.")
    });
    home.send(b"q");
    assert!(home.exit_status().success());
    let after = home.parser.screen().contents();
    assert!(
        after.contains("The match is saved: checkers --resume continues it."),
        "{after}"
    );
}

/// Every frame of the full screen is one synchronized update (DEC mode 2026): begun,
/// drawn and ended before the next begins, so that a terminal that knows the mode never
/// shows the top of a new screen over the rest of the old one (the home screen's rows
/// under the game's, say); the tests read the screen only between frames.
#[test]
fn each_frame_of_the_full_screen_is_drawn_whole_as_one_synchronized_update() {
    let mut game = Session::start(&[], &[]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.send(b"11-15\r");
    game.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15")
    });
    game.send(b"qy");
    game.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    game.send(b"q");
    assert!(game.exit_status().success());
    let output = String::from_utf8_lossy(&game.raw);
    let marks: Vec<&str> = output
        .match_indices("\x1b[?2026")
        .map(|(at, _)| &output[at + 7..at + 8])
        .collect();
    // The home screen, the game's first frame, the move, the quit question: each drawn.
    assert!(marks.len() >= 8, "frames marked: {marks:?}");
    assert!(
        marks.chunks(2).all(|pair| pair == ["h", "l"]),
        "every frame begun is ended before the next: {marks:?}"
    );
}

/// Quitting before a move is played, or once the game is over, leaves no word on the
/// terminal: there is nothing to go on with.
#[test]
fn quitting_with_nothing_to_go_on_with_says_nothing() {
    let mut game = Session::start(&[], &[]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.send(b"q");
    game.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    game.send(b"q");
    let status = game.exit_status();
    assert!(status.success(), "exit status {status:?}");
    let after = game.parser.screen().contents();
    assert!(!after.contains("checkers --resume"), "{after}");
}

/// A line feed is Enter, on the home screen and the board: keys typed before the full
/// screen is up come so (the terminal, not yet raw, turned their Enter into one).
#[test]
fn a_line_feed_is_taken_as_enter_on_the_home_screen_and_the_board() {
    let mut game = Session::start(&[], &[]);
    game.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    game.send(b"\n");
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.send(b"11-15\n");
    game.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15") && s.contents().contains("White to move")
    });
}

/// Whether the output sets a foreground or background colour (SGR 30-38, 40-48, 90-97,
/// 100-107); resetting to the default colour (39, 49) is fine.
fn sets_a_colour(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    text.split("\x1b[").skip(1).any(|seq| {
        let Some(end) = seq.find(|c: char| !(c.is_ascii_digit() || c == ';')) else {
            return false;
        };
        if !seq[end..].starts_with('m') {
            return false;
        }
        seq[..end].split(';').any(|p| {
            matches!(
                p.parse::<u32>(),
                Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)
            )
        })
    })
}

#[test]
fn no_color_no_mouse_and_ctrl_c() {
    let mut game = Session::start(&["--no-mouse"], &[("NO_COLOR", "1")]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    assert_eq!(
        game.parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "--no-mouse leaves mouse capture off"
    );
    game.send(b"11-15\r");
    game.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15")
    });
    game.send(b"\x03");
    let status = game.exit_status();
    assert_eq!(status.exit_code(), 130, "Ctrl-C: an interrupt: {status:?}");
    assert!(!sets_a_colour(&game.raw), "a colour was set under NO_COLOR");
    assert!(!game.parser.screen().alternate_screen());
}

/// A locale whose character set is not UTF-8 (`C`, `POSIX`) gets a board of ASCII
/// only, every byte written below 0x80, and a monochrome `TERM` (a VT100) gets no
/// colour: there Unicode bytes print as garbage and coloured squares look alike.
#[test]
fn a_locale_not_utf8_gets_ascii_and_a_vt100_no_colour() {
    for env in [
        [("LC_ALL", "C"), ("TERM", "xterm-256color")],
        [("LC_ALL", "POSIX"), ("TERM", "vt100")],
    ] {
        let mut game = Session::start(&[], &env);
        game.past_home();
        game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
        game.send(b"11-15\r");
        game.wait_for("the move in the list", |s| {
            s.contents().contains("1. 11-15") && s.contents().contains("White to move")
        });
        let screen = game.parser.screen().contents();
        assert!(
            screen.contains("(b)") && screen.contains("+----"),
            "{screen}"
        );
        game.send(b"\x03");
        game.exit_status();
        let wide = game.raw.iter().filter(|b| !b.is_ascii()).count();
        assert_eq!(wide, 0, "{env:?}: bytes of Unicode written: {screen}");
        if env[1].1 == "vt100" {
            assert!(!sets_a_colour(&game.raw), "a colour was set on a VT100");
        } else {
            assert!(
                sets_a_colour(&game.raw),
                "colour is kept where only the locale is C"
            );
        }
    }
}

#[test]
fn the_colour_check_sees_colours() {
    assert!(sets_a_colour(b"\x1b[38;5;2mx"));
    assert!(sets_a_colour(b"\x1b[1;42mx"));
    assert!(!sets_a_colour(b"\x1b[39m\x1b[49m\x1b[1;7mx\x1b[0m"));
}

#[test]
fn the_computer_replies_on_screen_and_quitting_works() {
    let mut game = Session::start(&["--white", "cpu", "--level", "1"], &[]);
    game.wait_for("the start screen", |s| {
        s.contents().contains("Computer (level 1): White")
    });
    game.send(b"11-15\r");
    game.wait_for("the computer's reply in the move list", |s| {
        let text = s.contents();
        text.contains("White (level 1) played ")
            && text
                .lines()
                .any(|l| l.contains("1. 11-15") && !l.trim_end().ends_with("11-15"))
            && text.contains("Black to move")
    });
    game.send(b"q");
    game.wait_for("the quit question", |s| s.contents().contains("Quit?"));
    game.send(b"y");
    let status = game.exit_status();
    assert!(status.success(), "exit status {status:?}");
    assert!(!game.parser.screen().alternate_screen());
}

#[test]
fn undo_and_quit_work_at_once_while_the_computer_thinks() {
    // A position outside the opening book (White's man on 17, not 21): level 10 thinks
    // its seconds there, where from the start its book answers 11-15 in a tenth of one,
    // before a loaded machine's test may have pressed u.
    let fen = "B:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    let mut game = Session::start(&["--white", "cpu", "--level", "10", "--fen", fen], &[]);
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.send(b"11-15\r");
    game.wait_for("the thinking indicator", |s| {
        s.contents().contains("White is thinking...")
    });
    game.send(b"u");
    game.wait_for("the move taken back", |s| {
        s.contents().contains("Took back Black 11-15") && s.contents().contains("(none yet)")
    });
    // Had undo waited for the search, White's reply would have been played first and
    // undo would say it took back the reply too.
    assert!(
        !game.contents().contains("reply"),
        "undo waited for the search:\n{}",
        game.contents()
    );
    assert!(!game.contents().contains("thinking"), "{}", game.contents());
    // Thinking again, then quit mid-search (a move was played: quit asks first).
    game.send(b"11-15\r");
    game.wait_for("thinking again", |s| {
        s.contents().contains("White is thinking...")
    });
    game.send(b"qy");
    let status = game.exit_status();
    assert!(status.success(), "exit status {status:?}");
}

#[test]
fn a_flag_falls_without_a_key_press_and_the_autosave_records_it() {
    let sandbox = crate::common::pty::Sandbox::new();
    let mut game = Session::start_in(&sandbox, &["--clock", "0:02+0", "--quiet"], &[]);
    game.wait_for("the clocks", |s| s.contents().contains("White       2.0"));
    let shown = std::time::Instant::now();
    game.wait_for("the flag fall", |s| {
        s.contents().contains("White wins: Black lost on time")
    });
    let waited = shown.elapsed();
    // Two seconds on Black's clock, running from before its first frame: the flag falls
    // by itself within moments of them, not at a key, nor at a look at the clock seconds
    // apart. Counted from the first frame, not the start of a program that a loaded
    // machine may take seconds to start, and with room for such a machine.
    assert!(waited < std::time::Duration::from_secs(8), "{waited:?}");
    let record = sandbox.wait_for_game("[Termination \"lost on time\"]");
    assert!(record.contains("[Result \"0-1\"]"), "{record}");
    assert!(record.contains("[TimeControl \"0:02+0\"]"), "{record}");
    game.send(b"\x03");
    assert_eq!(game.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
}

#[test]
fn against_the_computer_r_resigns_your_side_and_a_level_key_leaves_the_record() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &["--white", "cpu", "--level", "1"], &[]);
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.send(b"11-15\r");
    game.wait_for("the computer's reply", |s| {
        s.contents().contains("Black to move") && s.contents().contains("1. 11-15")
    });
    // `r` resigns the person's own side, after asking; the computer's is not on offer.
    game.send(b"r");
    game.wait_for("the question", |s| {
        s.contents().contains("Resign? Black loses the game")
    });
    assert!(
        !game.contents().contains("Who resigns?"),
        "{}",
        game.contents()
    );
    game.send(b"w");
    game.send(b"y");
    game.wait_for("the result", |s| {
        s.contents().contains("White wins: Black resigned")
    });
    let finished = sandbox.wait_for_game("[Result \"0-1\"]");
    assert!(finished.contains("[WhiteLevel \"1\"]"), "{finished}");
    // A level key after the end is for the next game: the finished record stays.
    game.send(b"++");
    game.wait_for("the level's news", |s| {
        s.contents().contains("level 3 when play goes on")
    });
    game.send(b"q");
    let status = game.exit_status();
    assert!(status.success(), "exit status {status:?}");
    let kept = sandbox.wait_for_game("[Result \"0-1\"]");
    assert!(kept.contains("[WhiteLevel \"1\"]"), "{kept}");
    assert!(kept.contains("[White \"checkers (level 1)\"]"), "{kept}");
}

#[test]
fn a_reviewed_only_move_shows_a_searched_score() {
    // Tinsley v Oldbury, London 1958 game 1: after 5. 14-17 White's 21x14 is forced, in
    // the middle of an even exchange; its static value is "White is well ahead".
    let pdn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");
    let mut game = Session::start(&["--load", pdn, "--game", "303"], &[]);
    game.wait_for("the review", |s| s.contents().contains("Review: "));
    game.send(&b"\x1b[C".repeat(9));
    game.wait_for("the ninth position", |s| {
        s.contents().contains("After move 5 (Black's 14-17) of 20")
    });
    game.wait_for("a searched score", |s| {
        s.contents().contains("Engine (only move, ")
    });
    assert!(
        !game.contents().contains("well ahead"),
        "{}",
        game.contents()
    );
}

#[test]
fn analyse_with_a_fen_opens_the_analysis_board_and_q_leaves_it() {
    let mut board = Session::start(&["--analyse", "--fen", "B:W21,22,23:B9,10,11"], &[]);
    board.wait_for("the analysis board with its search's lines", |s| {
        let text = s.contents();
        text.contains("Analysis") && text.contains("Moves") && text.contains("depth ")
    });
    board.send(b"q");
    let status = board.exit_status();
    assert!(status.success(), "exit status {status:?}");
    assert!(
        !board.parser.screen().alternate_screen(),
        "alternate screen left"
    );
}

/// `--analyse --load` of a record with a move that cannot be played opens the moves
/// before it and says where the record goes wrong (it refused the whole game).
#[test]
fn the_analysis_board_opens_a_record_up_to_a_faulty_move_and_says_so() {
    let sandbox = Sandbox::new();
    let path = sandbox.home().join("faulty.pdn");
    std::fs::write(&path, "[Event \"Faulty\"]\n1. 9-13 22-18 2. 9-14 *\n").unwrap();
    let mut board = Session::start_in(
        &sandbox,
        &["--analyse", "--load", path.to_str().unwrap()],
        &[],
    );
    board.wait_for("the record's moves and the fault", |s| {
        let text = s.contents();
        text.contains("1. 9-13 22-18") && text.contains("cannot be played")
    });
    let screen = board.contents();
    assert!(
        screen.contains("Shown up to a move that cannot be played: game 1"),
        "{screen}"
    );
    assert!(screen.contains("no piece of yours on 9"), "{screen}");
    board.send(b"q");
    assert!(board.exit_status().success());
}

/// `--analyse --explore-pdn FILE`: the file's games are the explorer's third
/// collection (`m` from Tinsley's games, past the player's own), named in the panel's
/// title by the file's name.
#[test]
fn the_analysis_boards_explorer_shows_the_explore_pdn_files_games() {
    let sandbox = Sandbox::new();
    let path = sandbox.home().join("club.pdn");
    std::fs::write(
        &path,
        "[Result \"1-0\"]\n1. 10-14 22-17 1-0\n\n[Result \"1/2-1/2\"]\n1. 10-14 21-17 1/2-1/2\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    let mut board = Session::start_in(&sandbox, &["--analyse", "--explore-pdn", file], &[]);
    board.wait_for("the analysis board", |s| s.contents().contains("q leave"));
    board.send(b"o");
    board.wait_for("the explorer", |s| {
        s.contents().contains("Explorer: Tinsley")
    });
    board.send(b"m");
    board.wait_for("your games", |s| {
        s.contents().contains("Explorer: your games")
    });
    board.send(b"m");
    board.wait_for("the file's games", |s| {
        let text = s.contents();
        text.contains("Explorer: club.pdn (o, m)") && text.contains("> 10-14     2  1/1/0")
    });
    board.send(b"q");
    assert!(board.exit_status().success());
}

/// `--explore-pdn` naming a file with no game, or none at all, is refused before the
/// board opens, in words naming the option (status 2, as a `--load` refused).
#[test]
fn explore_pdn_refuses_a_file_with_no_game_before_the_board_opens() {
    let sandbox = Sandbox::new();
    let empty = sandbox.home().join("empty.pdn");
    std::fs::write(&empty, "").unwrap();
    let missing = sandbox.home().join("missing.pdn");
    for (path, said) in [(&empty, "holds no PDN game"), (&missing, "cannot read")] {
        let file = path.to_str().unwrap();
        let mut board = Session::start_in(&sandbox, &["--analyse", "--explore-pdn", file], &[]);
        let status = board.exit_status();
        assert_eq!(status.exit_code(), 2, "{status:?}");
        let output = String::from_utf8_lossy(&board.raw).into_owned();
        assert!(output.contains("checkers: --explore-pdn: "), "{output}");
        assert!(output.contains(said), "{output}");
        assert!(!output.contains("Analysis"), "the board opened: {output}");
    }
}

/// `--analyse --load` of one's own game against the computer as White shows it from
/// White's side, as `--load` and `--resume` do on the play board: it had White at the
/// top, Black's squares 1-4 at the bottom. `--flip` turns it back.
#[test]
fn the_analysis_board_shows_a_game_played_as_white_from_whites_side() {
    let sandbox = Sandbox::new();
    let path = sandbox.home().join("mine.pdn");
    std::fs::write(
        &path,
        "[Black \"checkers (level 1)\"]\n[White \"?\"]\n[BlackType \"program\"]\n\
         [BlackLevel \"1\"]\n[WhiteType \"human\"]\n1. 10-14 22-18 *\n",
    )
    .unwrap();
    let file = path.to_str().unwrap();
    for (flip, top_row) in [
        (false, "│      1         2         3         4   │"),
        (true, "│     32        31        30        29   │"),
    ] {
        let args = if flip {
            vec!["--analyse", "--load", file, "--flip"]
        } else {
            vec!["--analyse", "--load", file]
        };
        let mut board = Session::start_in(&sandbox, &args, &[]);
        board.wait_for("the board, its moves and the search's lines", |s| {
            let text = s.contents();
            text.contains("1. 10-14 22-18") && text.contains("depth ") && text.contains("q leave")
        });
        let screen = board.contents();
        let first_row = screen.lines().nth(2).unwrap_or_default();
        assert!(first_row.starts_with(top_row), "--flip {flip}:\n{screen}");
        board.send(b"q");
        assert!(board.exit_status().success());
    }
}

/// A first save from the analysis board, before any game made the data folder: the file
/// it offers there is written (the data folder made), not refused as in a missing folder.
#[test]
fn the_analysis_boards_first_save_makes_the_data_folder_it_offers() {
    let sandbox = Sandbox::new();
    assert!(!sandbox.data_dir().exists());
    let mut board = Session::start_in(&sandbox, &["--analyse"], &[]);
    board.wait_for("the analysis board", |s| s.contents().contains("Moves"));
    board.send(b"11-15\r");
    board.wait_for("the move played", |s| s.contents().contains("1. 11-15"));
    board.send(b"s");
    board.wait_for("the save prompt", |s| s.contents().contains("Save to:"));
    board.send(b"\r");
    board.wait_for("the save said", |s| {
        let text = s.contents();
        text.contains("Saved to") || text.contains("Not saved")
    });
    assert!(
        board.contents().contains("Saved to"),
        "{}",
        board.contents()
    );
    let saved: Vec<_> = std::fs::read_dir(sandbox.data_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().contains("analysis-"))
        .collect();
    assert_eq!(saved.len(), 1, "{saved:?}");
    assert!(
        std::fs::read_to_string(&saved[0])
            .unwrap()
            .contains("11-15")
    );
    board.send(b"q");
    assert!(board.exit_status().success());
}

/// The text of the side panel of a 80x24 game screen, its rows joined by spaces.
fn panel_text(screen: &str) -> String {
    screen
        .lines()
        // Its first row meets the board's frame's corner (a LAN host's head is there).
        .filter_map(|line| line.rsplit_once("││").or_else(|| line.rsplit_once("┐│")))
        .map(|(_, panel)| panel)
        .map(|panel| panel.trim_end_matches('│').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_game_hosted_from_one_home_screen_is_joined_from_another() {
    let mut host = Session::start(&[], &[]);
    host.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    // The network page, its host form, a free port.
    host.send(b"n\r");
    host.wait_for("the host form", |s| s.contents().contains("Start hosting"));
    host.send(b"\x1b[B\x1b[B\x1b[B\x7f\x7f\x7f\x7f0\r");
    host.wait_for("the address and code on the board", |s| {
        let panel = panel_text(&s.contents());
        panel.contains("Waiting for a player")
            && panel
                .split_once("--code ")
                .is_some_and(|(_, code)| code.contains(" Black"))
    });
    let panel = panel_text(&host.contents());
    let words: Vec<&str> = panel.split_whitespace().collect();
    let after = |word: &str| {
        let at = words.iter().position(|w| *w == word).expect(&panel);
        words[at + 1].to_string()
    };
    let address = after("join");
    let port = address.rsplit_once(':').expect(&panel).1.to_string();
    let code = after("--code");

    let mut guest = Session::start(&[], &[]);
    guest.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    guest.send(b"n\x1b[B\r");
    guest.wait_for("the join form", |s| s.contents().contains("Join the game"));
    // A wrong code first: refused, said on the home screen, which stays.
    guest.send(format!("127.0.0.1:{port}\x1b[Bnot-the-code\r").as_bytes());
    guest.wait_for("the refusal", |s| {
        s.contents().contains("the host refused: wrong code")
            && s.contents().contains("Join the game")
    });
    for _ in 0.."not-the-code".len() {
        guest.send(b"\x7f");
    }
    guest.send(format!("{code}\r").as_bytes());
    guest.wait_for("the joined board", |s| {
        s.contents().contains("You play White")
    });
    host.send(b"11-15\r");
    guest.wait_for("the host's move on the joined board", |s| {
        s.contents().contains("11-15") && s.contents().contains("White to move")
    });
}

#[test]
fn the_settings_page_says_an_empty_checkers_preferences_is_why_changes_are_not_kept() {
    let sandbox = crate::common::pty::Sandbox::new();
    let mut home = Session::start_in(&sandbox, &[], &[("CHECKERS_PREFERENCES", "")]);
    home.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    home.send(b"s");
    home.wait_for("the settings page", |s| {
        s.contents().contains("Coordinates")
    });
    // The sandbox has a home folder: the variable, not its absence, is the reason.
    let screen = home.contents();
    assert!(screen.contains("CHECKERS_PREFERENCES is empty"), "{screen}");
    assert!(!screen.contains("Without a home folder"), "{screen}");
    home.send(b"\x1b");
    home.wait_for("the home screen's list", |s| {
        s.contents().contains("> s Settings")
    });
    home.send(b"q");
    assert!(home.exit_status().success());
}

#[test]
fn a_setting_changed_on_the_home_screen_is_there_at_the_next_start() {
    let sandbox = crate::common::pty::Sandbox::new();
    let file = sandbox.home().join("config/checkers/preferences.toml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    std::fs::write(&file, "# Kept by hand.\nlevel = 4\n").unwrap();
    let mut first = Session::start_in(&sandbox, &[], &[]);
    first.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    // Settings, the coordinates row switched on, then leave.
    first.send(b"s\x1b[B\x1b[B\r");
    first.wait_for("the coordinates on", |s| {
        s.contents().contains("Coordinates   on")
    });
    first.send(b"\x1b");
    first.wait_for("the home screen's list", |s| {
        s.contents().contains("> s Settings")
    });
    first.send(b"q");
    first.exit_status();
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("# Kept by hand.\nlevel = 4\n") && text.contains("coordinates = true"),
        "{text}"
    );
    let mut again = Session::start_in(&sandbox, &[], &[]);
    again.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    again.send(b"s");
    again.wait_for("the coordinates still on", |s| {
        s.contents().contains("Coordinates   on")
    });
}
