//! Signals at the full-screen game, in a pseudo-terminal (issue 9, case 5): every signal
//! whose default action ends the process saves the game and restores the terminal
//! before the program exits with 128 + the signal's number; Ctrl-Z and SIGTSTP suspend
//! it with the terminal restored, and SIGCONT (`fg`) takes it up again.

use crate::common::pty::{Sandbox, Session, wait_until};

/// The signals that end a process by default, with their numbers on Linux. SIGXFSZ,
/// which the system sends for a write past the file size limit, is not one of them for
/// this program: such a write fails as on a full disk (see `files.rs`, issue 19).
const ENDING: [(&str, i32); 11] = [
    ("INT", 2),
    ("TERM", 15),
    ("HUP", 1),
    ("QUIT", 3),
    ("USR1", 10),
    ("USR2", 12),
    ("ALRM", 14),
    ("PIPE", 13),
    ("XCPU", 24),
    ("VTALRM", 26),
    ("PROF", 27),
];

/// Whether the terminal is as a shell wants it: the main screen, no mouse capture, the
/// cursor shown, and the modes (`stty -a`) as before the program started.
fn assert_terminal_restored(game: &Session, when: &str) {
    let screen = game.parser.screen();
    assert!(!screen.alternate_screen(), "{when}: alternate screen left");
    assert_eq!(
        screen.mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "{when}: mouse capture off"
    );
    assert!(!screen.hide_cursor(), "{when}: cursor shown");
    assert!(
        game.modes_restored(),
        "{when}: terminal modes {}",
        game.modes()
    );
}

#[cfg(target_os = "linux")]
#[test]
fn case_5_every_ending_signal_saves_the_game_and_restores_the_terminal() {
    std::thread::scope(|scope| {
        for (name, number) in ENDING {
            scope.spawn(move || {
                let sandbox = Sandbox::new();
                let mut game = Session::start_in(&sandbox, &[], &[]);
                game.past_home();
                game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
                game.play(&["11-15"]);
                assert!(game.raw_mode(), "SIG{name}: raw mode while playing");
                assert_ne!(
                    game.parser.screen().mouse_protocol_mode(),
                    vt100::MouseProtocolMode::None
                );
                game.signal(name);
                let status = game.exit_status();
                assert_eq!(status.exit_code(), 128 + number as u32, "SIG{name}");
                assert_terminal_restored(&game, &format!("SIG{name}"));
                let saved = sandbox.game_texts().join("\n");
                assert!(saved.contains("1. 11-15 *"), "SIG{name}: {saved}");
            });
        }
    });
}

/// Ctrl-C on the full screen is a key (raw mode turns the terminal's interrupt off), and
/// ends the program as the interrupt ends plain mode: the game kept as on quitting, the
/// terminal restored, status 130 (128 + SIGINT). From a screen the home screen opened
/// (the analysis board) it ends the program too, not only that screen.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_on_the_full_screen_saves_the_game_restores_the_terminal_and_exits_130() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &[], &[]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.play(&["11-15", "23-19"]);
    assert!(game.raw_mode(), "raw mode while playing");
    game.send(b"\x03");
    let status = game.exit_status();
    assert_eq!(status.exit_code(), 130, "{status:?}");
    assert_terminal_restored(&game, "Ctrl-C");
    let saved = sandbox.game_texts().join("\n");
    assert!(
        saved.contains("1. 11-15 23-19 *"),
        "kept as on quitting: {saved}"
    );
    // --resume finds it, unfinished, as after q.
    let mut resumed = Session::start_in(&sandbox, &["--resume"], &[]);
    resumed.wait_for("the game resumed", |s| {
        s.contents().contains("1. 11-15    23-19")
    });
    resumed.send(b"\x03");
    assert_eq!(resumed.exit_status().exit_code(), 130);

    // The analysis board, opened from the home screen: Ctrl-C ends the program.
    let sandbox = Sandbox::new();
    let mut board = Session::start_in(&sandbox, &[], &[]);
    board.wait_for("the home screen", |s| {
        s.contents().contains("Analysis board")
    });
    board.send(b"a");
    board.wait_for("the analysis board", |s| {
        !s.contents().contains("Two players at this terminal")
    });
    board.send(b"\x03");
    assert_eq!(board.exit_status().exit_code(), 130);
    assert_terminal_restored(&board, "Ctrl-C on the analysis board");
    // The home screen itself.
    let mut home = Session::start_in(&sandbox, &[], &[]);
    home.wait_for("the home screen", |s| {
        s.contents().contains("Analysis board")
    });
    home.send(b"\x03");
    assert_eq!(home.exit_status().exit_code(), 130);
    assert_terminal_restored(&home, "Ctrl-C on the home screen");
    // q still quits with success.
    let mut quit = Session::start_in(&sandbox, &[], &[]);
    quit.wait_for("the home screen", |s| {
        s.contents().contains("Analysis board")
    });
    quit.send(b"q");
    assert!(quit.exit_status().success());
}

/// The files Ctrl-C on the analysis board kept its moves not saved in: those of the
/// data folder named `analysis-unsaved-*.pdn`.
fn kept_analyses(sandbox: &Sandbox) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(sandbox.data_dir()) else {
        return Vec::new();
    };
    entries
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let name = p.file_name().unwrap().to_string_lossy();
            name.starts_with("analysis-unsaved-") && name.ends_with(".pdn")
        })
        .collect()
}

/// Ctrl-C on the analysis board quits at once (DESIGN.md: Ctrl-C always quits), but
/// the moves not saved are not lost: they are written to a file in the data folder,
/// and once the terminal is restored one line names it and how to open it. Opened so,
/// the board shows them; with nothing new, Ctrl-C keeps nothing more.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_on_the_analysis_board_keeps_the_moves_not_saved_and_says_how_to_open_them() {
    let sandbox = Sandbox::new();
    let mut board = Session::start_in(&sandbox, &["--analyse"], &[]);
    board.wait_for("the analysis board", |s| {
        s.contents().contains("Analysis board: play moves")
    });
    board.play(&["11-15", "23-19"]);
    board.send(b"\x03");
    assert_eq!(board.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
    assert_terminal_restored(&board, "Ctrl-C on the analysis board");
    let kept = kept_analyses(&sandbox);
    assert_eq!(kept.len(), 1, "{kept:?}");
    let text = std::fs::read_to_string(&kept[0]).unwrap();
    assert!(text.contains("1. 11-15 23-19 *"), "{text}");
    let open = format!("checkers --analyse --load {}", kept[0].display());
    board.wait_for_output("the line naming the file", |out| {
        out.contains("The analysis not saved is kept in") && out.contains(&open)
    });
    // Opened as the line says, the board shows the moves.
    let path = kept[0].to_str().unwrap();
    let mut again = Session::start_in(&sandbox, &["--analyse", "--load", path], &[]);
    again.wait_for("the moves kept", |s| {
        s.contents().contains("1. 11-15 23-19")
    });
    again.send(b"\x03");
    assert_eq!(again.exit_status().exit_code(), 130);
    assert_eq!(kept_analyses(&sandbox).len(), 1, "nothing new to keep");
    assert!(!String::from_utf8_lossy(&again.raw).contains("not saved"));
}

/// SIGTERM (a shutdown, `kill`) and SIGHUP (a closed terminal window, a logout) end the
/// program as Ctrl-C does: the analysis board's moves not saved are kept in a file of
/// the data folder, the terminal restored, and the program exits with 128 + the
/// signal's number; on SIGTERM one line names the file (on SIGHUP it may reach no one:
/// the file is what matters).
#[cfg(target_os = "linux")]
#[test]
fn sigterm_and_sighup_on_the_analysis_board_keep_the_moves_not_saved() {
    for (name, number) in [("TERM", 15), ("HUP", 1)] {
        let sandbox = Sandbox::new();
        let mut board = Session::start_in(&sandbox, &["--analyse"], &[]);
        board.wait_for("the analysis board", |s| {
            s.contents().contains("Analysis board: play moves")
        });
        board.play(&["11-15", "23-19", "8-11"]);
        board.signal(name);
        assert_eq!(board.exit_status().exit_code(), 128 + number, "SIG{name}");
        assert_terminal_restored(&board, &format!("SIG{name} on the analysis board"));
        let kept = kept_analyses(&sandbox);
        assert_eq!(kept.len(), 1, "SIG{name}: {kept:?}");
        let text = std::fs::read_to_string(&kept[0]).unwrap();
        assert!(
            text.contains("1. 11-15 23-19 2. 8-11 *"),
            "SIG{name}: {text}"
        );
        if name == "TERM" {
            let open = format!("checkers --analyse --load {}", kept[0].display());
            board.wait_for_output("the line naming the file", |out| {
                out.contains("The analysis not saved is kept in") && out.contains(&open)
            });
        }
    }
    // Nothing played: nothing kept.
    let sandbox = Sandbox::new();
    let mut board = Session::start_in(&sandbox, &["--analyse"], &[]);
    board.wait_for("the analysis board", |s| {
        s.contents().contains("Analysis board: play moves")
    });
    board.signal("TERM");
    assert_eq!(board.exit_status().exit_code(), 128 + 15);
    assert!(kept_analyses(&sandbox).is_empty());
    assert!(!String::from_utf8_lossy(&board.raw).contains("not saved"));
}

/// Where the data folder cannot be written (here a file stands in its place, which no
/// permission lets even root write into), Ctrl-C still quits at once with the terminal
/// restored, and says the moves could not be kept, and why.
#[cfg(target_os = "linux")]
#[test]
fn ctrl_c_on_the_analysis_board_says_why_the_moves_could_not_be_kept() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.data_home()).unwrap();
    std::fs::write(sandbox.data_dir(), "a file, not a folder").unwrap();
    let mut board = Session::start_in(&sandbox, &["--analyse"], &[]);
    board.wait_for("the analysis board", |s| {
        s.contents().contains("Analysis board: play moves")
    });
    board.play(&["11-15"]);
    board.send(b"\x03");
    assert_eq!(board.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
    assert_terminal_restored(&board, "Ctrl-C with the moves not kept");
    board.wait_for_output("why the moves are lost", |out| {
        out.contains(
            "checkers: The analysis not saved could not be kept, its moves are lost: cannot write",
        )
    });
}

/// Whether the process `pid` is stopped (Linux: its state in `/proc`).
#[cfg(target_os = "linux")]
fn stopped(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|stat| {
            let after = stat.rsplit_once(')')?.1;
            after.split_whitespace().next().map(|s| s == "T")
        })
        .unwrap_or(false)
}

/// Keeps the stopped program stopped for longer than `held`, then continues it: the
/// time a suspension lasts is what the clocks and the computer must not be charged.
#[cfg(target_os = "linux")]
fn stay_stopped_then_continue(game: &mut Session, held: std::time::Duration, what: &str) {
    let pid = game.pid();
    wait_until("the process to stop", || stopped(pid));
    let stopped_since = std::time::Instant::now();
    wait_until(what, || stopped_since.elapsed() > held);
    game.signal("CONT");
}

/// Suspends with `how`, checks the terminal and the stopped process, then continues
/// and checks that the game is back, drawn whole and playable.
#[cfg(target_os = "linux")]
fn suspend_and_continue(game: &mut Session, how: &str, next_move: &str) {
    if how == "Ctrl-Z" {
        game.send(b"\x1a");
    } else {
        game.signal("TSTP");
    }
    let pid = game.pid();
    wait_until("the process to stop", || stopped(pid));
    // Stopped, it has written all it does: wait for all of it to be read (the screen
    // left first, the cursor shown after it), not only for what came within a moment.
    game.wait_for("the terminal restored", |s| {
        !s.alternate_screen()
            && s.mouse_protocol_mode() == vt100::MouseProtocolMode::None
            && !s.hide_cursor()
    });
    assert_terminal_restored(game, how);

    game.signal("CONT");
    game.wait_for("the game drawn again", |s| {
        s.alternate_screen()
            && s.contents().contains("1. 11-15")
            && s.contents().contains("to move")
    });
    assert!(game.raw_mode(), "{how}: raw mode again");
    assert!(
        game.parser.screen().hide_cursor(),
        "{how}: cursor hidden again"
    );
    assert_ne!(
        game.parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "{how}: mouse capture again"
    );
    game.play(&[next_move]);
}

#[cfg(target_os = "linux")]
#[test]
fn case_5_ctrl_z_and_sigtstp_suspend_and_fg_takes_the_game_up_again() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &[], &[]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.play(&["11-15"]);
    suspend_and_continue(&mut game, "Ctrl-Z", "23-19");
    suspend_and_continue(&mut game, "SIGTSTP", "8-11");
    game.send(b"q");
    game.wait_for("the quit question", |s| {
        s.contents().contains("Back to the home screen?")
    });
    game.send(b"y");
    game.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    game.send(b"q");
    assert!(game.exit_status().success());
    assert_terminal_restored(&game, "after quitting");
    sandbox.wait_for_game("1. 11-15 23-19 2. 8-11 *");
}

/// Ctrl-Z on the clock (issue: a game suspended longer than the time left was lost on
/// time at `fg`): the time stopped is charged to no one. Back from the suspension the
/// clocks wait for the player's first key, as a resumed game's do, then run on from
/// what they showed.
#[cfg(target_os = "linux")]
#[test]
fn a_game_suspended_on_the_clock_is_not_lost_on_time_meanwhile() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &["--clock", "0:05+0", "--quiet"], &[]);
    game.wait_for("the clocks", |s| s.contents().contains("White       5.0"));
    game.send(b"\x1a");
    // Stopped for longer than all of Black's time, which ran from the first frame.
    stay_stopped_then_continue(
        &mut game,
        std::time::Duration::from_secs(6),
        "Black's whole time to pass",
    );
    game.wait_for("the clocks held", |s| {
        s.contents().contains("suspended: any key starts them")
            && s.contents().contains("any key starts the clocks  ? help")
    });
    // The hidden board says what happened (it said "Game resumed", as for a game taken
    // up from its file).
    let shown = game.contents();
    assert!(
        shown.contains("The clocks stopped") && shown.contains("Black to move:"),
        "{shown}"
    );
    assert!(!shown.contains("resumed"), "{shown}");
    assert!(
        !game.contents().contains("lost on time"),
        "{}",
        game.contents()
    );
    game.send(b" ");
    game.wait_for("the clocks running", |s| {
        s.contents()
            .contains("Welcome back: the clocks run, Black to move")
    });
    game.send(b"11-15\r");
    game.wait_for("the move played", |s| s.contents().contains("1. 11-15"));
    game.send(b"\x03");
    assert_eq!(game.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
    assert_terminal_restored(&game, "after Ctrl-C");
    sandbox.wait_for_game("11-15");
}

/// Plain mode suspended on the clock: the time stopped is charged to no one either. The
/// clocks are paused from the suspension, said at `fg`; `pause` starts them again.
#[cfg(target_os = "linux")]
#[test]
fn plain_mode_suspended_on_the_clock_is_not_lost_on_time_meanwhile() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &["--plain", "--clock", "0:05+0"], &[]);
    game.wait_for_output("the clocks", |out| out.contains("Black 5.0 (running)"));
    game.signal("TSTP");
    // Stopped for longer than all of Black's time, which ran from the start.
    stay_stopped_then_continue(
        &mut game,
        std::time::Duration::from_secs(6),
        "Black's whole time to pass",
    );
    game.wait_for_output("the clocks paused", |out| {
        out.contains("The clocks stopped while the game was suspended; type pause")
    });
    game.send(b"pause\n11-15\n");
    game.wait_for_output("the move played", |out| out.contains("Black played 11-15"));
    assert!(
        !String::from_utf8_lossy(&game.raw).contains("lost on time"),
        "{}",
        String::from_utf8_lossy(&game.raw)
    );
    game.send(b"quit\n");
    assert!(game.exit_status().success());
}

/// Ctrl-Z while the computer thinks, with no clock (issue: its time budget ran on
/// through the suspension, so at `fg` it played at once from a shallow search): the
/// search starts again at `fg` with its whole time. Level 10 thinks about 3 s a move,
/// never more than 9 s; stopped for longer than that, the old search would move within
/// moments of `fg`.
#[cfg(target_os = "linux")]
#[test]
fn the_computer_thinks_afresh_after_a_suspension_without_a_clock() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(
        &sandbox,
        &[
            "--white",
            "cpu",
            "--level",
            "10",
            "--fen",
            "W:W19,22,23,24,25,26,27,30,31:B1,2,3,5,6,7,9,10,14",
        ],
        &[],
    );
    game.wait_for("the computer thinking", |s| {
        s.contents().contains("White is thinking... depth") && s.contents().contains("q quit")
    });
    game.send(b"\x1a");
    stay_stopped_then_continue(
        &mut game,
        std::time::Duration::from_secs(10),
        "more than the computer's longest thought to pass",
    );
    let back = std::time::Instant::now();
    game.wait_for("the computer's move", |s| {
        s.contents().contains("White (level 10) played")
    });
    let thought = back.elapsed();
    assert!(
        thought > std::time::Duration::from_millis(500),
        "the computer played {thought:?} after fg: its search was not started again"
    );
    game.send(b"\x03");
    assert_eq!(game.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
}

/// Ctrl-Z on the clock with the save dialog open (issue: the status line said "any key
/// starts them", while a key in the dialog only edits it): the words say that the key
/// that starts the clocks is one on the board.
#[cfg(target_os = "linux")]
#[test]
fn suspended_in_the_save_dialog_the_clocks_are_said_to_start_back_on_the_board() {
    let sandbox = Sandbox::new();
    let mut game = Session::start_in(&sandbox, &["--clock", "5+3", "--quiet"], &[]);
    game.wait_for("the clocks", |s| s.contents().contains("White      5:00"));
    game.send(b"s");
    game.wait_for("the save dialog", |s| s.contents().contains("Esc cancel"));
    game.send(b"\x1a");
    let pid = game.pid();
    wait_until("the process to stop", || stopped(pid));
    game.signal("CONT");
    game.wait_for("the clocks held", |s| {
        s.contents()
            .contains("suspended: a key on the board starts them")
            && s.contents().contains("Esc cancel")
    });
    game.send(b"\x1b");
    game.wait_for("the board", |s| {
        s.contents().contains("any key starts the clocks  ? help")
    });
    game.send(b"\x03");
    assert_eq!(game.exit_status().exit_code(), 130, "Ctrl-C: an interrupt");
}
