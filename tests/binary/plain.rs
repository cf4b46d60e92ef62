//! The plain line mode, driven through a pipe as a script or screen reader would.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Runs `checkers` with `args`, feeds `input` on standard input, and returns the exit
/// status, standard output and standard error. The data directory is a fresh temporary one.
fn session(args: &[&str], input: &str) -> (bool, String, String) {
    session_with_env(args, &[], input)
}

/// [`session`] with extra environment variables.
fn session_with_env(args: &[&str], env: &[(&str, &Path)], input: &str) -> (bool, String, String) {
    // One folder per session: tests run in parallel.
    static SESSIONS: AtomicUsize = AtomicUsize::new(0);
    let n = SESSIONS.fetch_add(1, Ordering::Relaxed);
    let data = std::env::temp_dir().join(format!("checkers-plain-{}-{n}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(args)
        .env("XDG_DATA_HOME", &data)
        .envs(env.iter().copied())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_dir_all(&data);
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The answers after the opening board: one line per input line.
fn answers(stdout: &str) -> Vec<&str> {
    let lines: Vec<&str> = stdout.lines().collect();
    let legend = lines
        .iter()
        .position(|l| l.starts_with("b = Black man"))
        .unwrap();
    lines[legend + 2..].to_vec()
}

/// In a locale whose character set is not UTF-8 (`LANG=C`), plain mode writes ASCII
/// only: the puzzles' list (its dashes) and a match's score (its middle dots and half
/// points) in ASCII words, not UTF-8 bytes that print as garbage there.
#[test]
fn plain_mode_in_a_locale_not_utf8_writes_ascii_only() {
    let c = [("LC_ALL", Path::new("C"))];
    let (ok, out, err) = session_with_env(&["puzzle", "--plain"], &c, "list\nquit\n");
    assert!(ok, "{err}");
    assert!(
        out.contains("First Position - White to move and win"),
        "{out}"
    );
    assert!(out.is_ascii(), "{out}");
    let match_args = ["--match", "1", "--black-name", "Ann", "--white-name", "Bob"];
    let (ok, out, err) = session_with_env(&match_args, &c, "draw\naccept\nscore\n");
    assert!(ok, "{err}");
    assert!(
        out.contains("Game 1 of 2 - Ann 1/2 (W0 D1 L0) - Bob 1/2 (W0 D1 L0)"),
        "{out}"
    );
    assert!(out.is_ascii(), "{out}");
}

#[test]
fn a_piped_game_is_answered_line_by_line_and_ends_with_the_result() {
    let input = "11-15\n24-20\n11-16\n15-19\nundo\n15-19\n23x16\n12x19\n";
    let (ok, out, err) = session(&[], input);
    assert!(ok, "{err}");
    assert_eq!(err, "");
    assert!(out.starts_with("Checkers (plain mode). Type a move such as 11-15, or help.\n"));
    assert!(
        out.contains("|12 b|    |11 b|    |10 b|    | 9 b|    |\n"),
        "{out}"
    );
    assert_eq!(
        answers(&out),
        [
            "Black played 11-15. White to move.",
            "White played 24-20. Black to move.",
            "Refused 11-16: no piece of yours on 11: it is empty. Black to move.",
            "Black played 15-19. White to move, a capture is compulsory.",
            "Took back Black 15-19. Black to move.",
            "Black played 15-19. White to move, a capture is compulsory.",
            "White played 23x16. Black to move, a capture is compulsory.",
            "Black played 12x19. White to move.",
        ]
    );
}

#[test]
fn the_game_ends_with_a_win_and_later_moves_are_refused() {
    let (ok, out, _) = session(
        &["--plain", "--fen", "W:W22:B18,11"],
        "22x15\n22x8\n1-5\nundo\n",
    );
    assert!(ok);
    assert_eq!(
        answers(&out),
        [
            "Refused 22x15: the capture must go on while the piece can jump: 22x15x8. \
             White to move, a capture is compulsory.",
            // The news gives the capture's route, typed short or not.
            "White played 22x15x8. White wins: Black has no pieces left. Type new for another \
             game.",
            "Refused 1-5: the game is over (White wins: Black has no pieces left). Type new for \
             another game.",
            "Took back White 22x15x8. White to move, a capture is compulsory.",
        ]
    );
}

#[test]
fn commands_moves_draw_resign_claim_help_and_quit() {
    let input = "moves\nhelp\ndraw\ndecline\nclaim\ndraw\naccept\nundo\nundo agreed\nredo\nundo agreed\nresign\nfoo\nquit\n11-15\n";
    let (ok, out, _) = session(&[], input);
    assert!(ok);
    let a = answers(&out);
    assert_eq!(
        a[0],
        "Legal moves: 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16."
    );
    assert!(a[1].starts_with("Commands: a move"), "{}", a[1]);
    assert_eq!(
        a[2],
        "Black offers a draw; White, answer accept or decline."
    );
    assert_eq!(
        a[3],
        "White declines Black's draw offer: play on. Black to move."
    );
    assert!(
        a[4].starts_with("No draw can be claimed: no move repeats a position a third time"),
        "{}",
        a[4]
    );
    assert_eq!(
        a[6],
        "White accepts the draw. Draw by agreement. Type new for another game."
    );
    // One player alone does not take back the draw both agreed; redo puts it back.
    assert!(a[7].contains("type undo agreed if you both do"), "{}", a[7]);
    assert_eq!(
        a[8],
        "Took back the end of the game: play on. Black to move."
    );
    assert_eq!(
        a[9],
        "Put back the end of the game. Draw by agreement. Type new for another game."
    );
    assert!(
        a[10].starts_with("Took back the end of the game"),
        "{}",
        a[10]
    );
    assert_eq!(
        a[11],
        "White wins: Black resigned. Type new for another game."
    );
    assert_eq!(
        a[12],
        "'foo' is not a move or a command; type help for the list."
    );
    assert_eq!(a[13], "Goodbye.");
    assert_eq!(a.len(), 14, "nothing is read after quit: {a:?}");
}

#[test]
fn save_writes_a_pdn_file_others_can_read() {
    let dir = std::env::temp_dir().join(format!("checkers-plain-save-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("g.pdn");
    // A folder that is not there (a mistyped path) is refused, and not made.
    let missing = dir.join("sub");
    let input = format!(
        "11-15\n23-19\nsave {}\nsave {}\n",
        missing.join("g.pdn").display(),
        file.display()
    );
    let (ok, out, _) = session(&["--black-name", "Ann", "--white-name", "Bob"], &input);
    assert!(ok);
    assert_eq!(
        answers(&out)[2],
        format!(
            "Cannot save: no folder {}: create it first, or name a file in a folder that exists.",
            missing.display()
        )
    );
    assert!(!missing.exists());
    assert_eq!(answers(&out)[3], format!("Saved to {}.", file.display()));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"*\"]\n"),
        "{text}"
    );
    assert!(text.ends_with("1. 11-15 23-19 *\n"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn end_of_input_ends_cleanly() {
    let (ok, out, err) = session(&[], "");
    assert!(ok, "{err}");
    assert!(out.ends_with("Black to move.\n"));
}

#[test]
fn bad_start_options_are_clear_errors() {
    let (ok, _, err) = session(&["--fen", "B:W33:B1"], "");
    assert!(!ok);
    assert!(err.contains("entry '33'"), "{err}");
    let (ok, _, err) = session(&["--load", "/nonexistent/x.pdn"], "");
    assert!(!ok);
    assert!(
        err.starts_with("checkers: cannot read /nonexistent/x.pdn"),
        "{err}"
    );
    let (ok, _, err) = session(&["--game", "2"], "");
    assert!(!ok);
    assert!(err.contains("--load"), "{err}");
}

#[test]
fn the_computer_answers_each_move_on_a_line_of_its_own() {
    let (ok, out, err) = session(
        &["--plain", "--white", "cpu", "--level", "1"],
        "11-15\nhelp\n9-14\n",
    );
    assert!(ok, "{err}");
    let answers = answers(&out);
    assert_eq!(answers[0], "Black played 11-15. White to move.");
    assert!(answers[1].starts_with("White (level 1) played "), "{out}");
    assert!(answers[1].contains(". Black to move"), "{out}");
    assert!(
        answers[2].starts_with("Commands:"),
        "help gets no computer move"
    );
    // 9-14 may be refused (a capture could be compulsory); either way Black answered.
    let replies: Vec<&&str> = answers
        .iter()
        .filter(|l| l.starts_with("White (level 1) played "))
        .collect();
    assert!(!replies.is_empty() && replies.len() <= 2, "{out}");
    // Every computer move printed is legal: replay the whole game.
    let mut game = checkers::game::Game::new();
    for line in &answers {
        let played = line
            .strip_prefix("Black played ")
            .or_else(|| line.strip_prefix("White (level 1) played "));
        if let Some(rest) = played {
            let text = rest.split(". ").next().unwrap();
            game.play_text(text).unwrap();
        }
    }
    assert!(game.moves().len() >= 2);
}

#[test]
fn two_computer_players_play_a_whole_game_and_exit() {
    let (ok, out, err) = session(
        &[
            "--plain", "--black", "cpu", "--white", "cpu", "--level", "1",
        ],
        "",
    );
    assert!(ok, "{err}");
    let answers = answers(&out);
    assert!(answers[0].starts_with("Black (level 1) played "), "{out}");
    let last = answers.last().unwrap();
    assert!(
        last.contains("wins") || last.contains("Draw") || last.contains("adjudicated"),
        "the result ends the output: {out}"
    );
    // Every move, replayed, is legal.
    let mut game = checkers::game::Game::new();
    for line in &answers {
        for color in ["Black", "White"] {
            if let Some(rest) = line.strip_prefix(&format!("{color} (level 1) played ")) {
                // "23x30, crowned. White to move": the move is before the comma.
                let played = rest.split(". ").next().unwrap();
                game.play_text(played.trim_end_matches(", crowned"))
                    .unwrap();
            }
        }
    }
    assert!(game.moves().len() >= 10, "{out}");
}

#[test]
fn hint_names_a_legal_move_and_plays_nothing() {
    let (ok, out, err) = session(&["--plain", "--fen", "B:W18,22:B11,15"], "hint\nmoves\n");
    assert!(ok, "{err}");
    let answers = answers(&out);
    let hint = answers[0]
        .strip_prefix("Hint for Black (not played): ")
        .and_then(|rest| rest.split(' ').next())
        .unwrap_or_else(|| panic!("{out}"));
    assert!(answers[0].contains("). Black to move"), "{out}");
    let pos: checkers::rules::Position = "B:W18,22:B11,15".parse().unwrap();
    assert!(pos.parse_move(hint).is_ok(), "{hint} is legal");
    assert!(
        answers[1].starts_with("Legal moves:"),
        "still Black's move: {out}"
    );
}

#[test]
fn two_people_on_a_clock_get_no_hint_unless_assistance_is_asked_for() {
    let (ok, out, err) = session(&["--plain", "--clock", "G/5"], "hint\n");
    assert!(ok, "{err}");
    assert!(
        answers(&out)[0].starts_with("No hint: assistance is off in this game"),
        "{out}"
    );
    let (ok, out, err) = session(&["--plain", "--clock", "G/5", "--assist", "on"], "hint\n");
    assert!(ok, "{err}");
    assert!(
        answers(&out)[0].starts_with("Hint for Black (not played): "),
        "{out}"
    );
    // Off by choice in a game without a clock; on by default against the computer.
    let (_, out, _) = session(&["--plain", "--assist", "off"], "hint\n");
    assert!(answers(&out)[0].starts_with("No hint"), "{out}");
    let (_, out, _) = session(&["--plain", "--clock", "G/5", "--white", "cpu"], "hint\n");
    assert!(
        answers(&out)[0].starts_with("Hint for Black (not played): "),
        "{out}"
    );
}

#[test]
fn a_draw_offered_to_the_computer_is_answered_by_the_computer() {
    // Black offers at the start: even, with the whole game to play, so White (the
    // computer) declines, and the person cannot accept for it.
    let (ok, out, _) = session(
        &["--plain", "--white", "cpu", "--level", "1"],
        "draw\naccept\n",
    );
    assert!(ok);
    let a = answers(&out);
    assert_eq!(
        a[0],
        "White (level 1) declines the draw: the game is even, with much still to play. \
         Black to move."
    );
    assert!(a[1].starts_with("Cannot accept: no draw offer"), "{}", a[1]);
    // A king each and nothing to play for: it accepts.
    let (ok, out, _) = session(
        &["--plain", "--fen", "B:WK28:BK1", "--white", "cpu"],
        "draw\naccept\n",
    );
    assert!(ok);
    let a = answers(&out);
    assert_eq!(
        a[0],
        "White (level 5) accepts the draw. Draw by agreement. Type new for another game."
    );
    assert!(
        a[1].starts_with("Cannot accept: the game is over"),
        "{}",
        a[1]
    );
    // Far ahead, the computer declines.
    let (ok, out, _) = session(
        &["--plain", "--fen", "B:W20,21,22,K30:B1", "--white", "cpu"],
        "draw\n",
    );
    assert!(ok);
    let a = answers(&out);
    assert!(
        a[0].starts_with("White (level 5) declines the draw: it thinks it stands better."),
        "{}",
        a[0]
    );
}

#[test]
fn save_expands_a_leading_tilde_to_the_home_folder() {
    let home = std::env::temp_dir().join(format!("checkers-plain-home-{}", std::process::id()));
    std::fs::create_dir_all(&home).unwrap();
    let (ok, out, _) = session_with_env(&["--plain"], &[("HOME", &home)], "11-15\nsave ~/g.pdn\n");
    assert!(ok);
    assert!(out.contains("Saved to ~/g.pdn."), "{out}");
    let text = std::fs::read_to_string(home.join("g.pdn")).unwrap();
    assert!(text.ends_with("1. 11-15 *\n"), "{text}");
    std::fs::remove_dir_all(&home).unwrap();
}

#[test]
fn a_loaded_record_is_played_on_from_its_end() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");
    let (ok, out, err) = session(&["--load", file, "--game", "3"], "undo\nundo\n");
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(file).unwrap();
    let record = checkers::pdn::read_games(&text).remove(2).unwrap();
    let end = record.end_position();
    // The board shown first is the record's last position, and undo takes back its
    // last move.
    // (The board of that position as a game started from it shows it.)
    let (_, from_fen, _) = session(&["--fen", &end.to_string()], "");
    let board: Vec<&str> = from_fen
        .lines()
        .skip_while(|line| !line.starts_with("+----"))
        .take_while(|line| !line.starts_with("b = "))
        .collect();
    assert!(board.len() >= 10, "{from_fen}");
    assert!(out.contains(&board.join("\n")), "{out}");
    // The record's result, which its last position does not show, is said first: the
    // game is over, as recorded.
    assert_eq!(
        answers(&out)[0],
        "The record ends 1-0 (Black won). The game is over: undo takes its ending back, \
         to play on from its last position.",
        "{out}"
    );
    // The first undo takes back the ending, the second the last move.
    let last = record.moves.last().unwrap();
    assert!(
        answers(&out)[2].starts_with(&format!("Took back {} ", !end.turn())),
        "{out}"
    );
    assert!(
        answers(&out)[2].contains(&last.to().number().to_string()),
        "{out}"
    );
}

#[test]
fn a_finished_record_loaded_is_over_and_saved_again_with_its_result() {
    let dir = tempfile::tempdir().unwrap();
    // A resignation, which the board does not show, and a win by the last move.
    let games = [
        (
            "resigned",
            "[Event \"Club\"]\n[Result \"1-0\"]\n[Termination \"resignation\"]\n\
             1. 11-15 23-19 1-0\n",
        ),
        (
            "won",
            "[Event \"Club\"]\n[SetUp \"1\"]\n[FEN \"B:W18:B14\"]\n[Result \"1-0\"]\n\
             1. 14x23 1-0\n",
        ),
    ];
    for (name, pdn) in games {
        let file = dir.path().join(format!("{name}.pdn"));
        std::fs::write(&file, pdn).unwrap();
        let saved = dir.path().join(format!("{name}-saved.pdn"));
        let input = format!("save {}\nquit\n", saved.display());
        let (ok, out, err) = session(&["--plain", "--load", &file.to_string_lossy()], &input);
        assert!(ok, "{name}: {err}");
        // The game reads as over, with its result, before anything is typed.
        let before: Vec<&str> = out
            .lines()
            .take_while(|l| !l.starts_with("Saved"))
            .collect();
        assert!(
            before.iter().any(|l| l.starts_with("Black wins")),
            "{name}: {out}"
        );
        let text = std::fs::read_to_string(&saved).unwrap();
        assert!(text.contains("[Result \"1-0\"]"), "{name}: {text}");
        assert!(text.trim_end().ends_with("1-0"), "{name}: {text}");
    }
}

#[test]
fn a_record_with_a_faulty_move_is_played_on_from_before_the_fault() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");
    let (ok, out, err) = session(&["--load", file, "--game", "541"], "moves\n");
    assert!(ok, "{err}");
    assert!(
        out.contains("The record has a faulty move; play goes on from the move before it.")
            && out.contains("move 62. 32-28 (Black, line 5588, column 5): no piece of yours on 32"),
        "{out}"
    );
    assert!(answers(&out)[0].starts_with("Legal moves: "), "{out}");
}

#[test]
fn a_ballot_starts_the_game_after_its_moves_and_a_barred_one_is_refused() {
    let (ok, out, _) = session(&["--plain", "--ballot", "126"], "22-18\nquit\n");
    assert!(ok);
    assert!(out.contains("Ballot 126: 11-15 23-19 8-11."), "{out}");
    assert!(out.contains("White played 22-18"), "{out}");
    let (ok, _, err) = session(&["--plain", "--ballot", "3"], "");
    assert!(!ok);
    assert!(
        err.contains("ballot 3 (9-13 21-17 10-14) is barred"),
        "{err}"
    );
    assert!(err.contains("--barred"), "{err}");
    let (ok, out, _) = session(&["--plain", "--ballot", "3", "--barred"], "quit\n");
    assert!(ok && out.contains("Ballot 3:"), "{out}");
    let (ok, out, _) = session(&["--plain", "--ballot", "random"], "quit\n");
    assert!(ok && out.contains("Ballot "), "{out}");
    let (ok, _, err) = session(&["--plain", "--ballot", "200"], "");
    assert!(!ok && err.contains("1 to 174"), "{err}");
}

#[test]
fn a_timed_game_shows_its_clocks_and_bad_specs_are_refused() {
    let (ok, out, _) = session(&["--plain", "--clock", "5+3"], "clock\n11-15\nquit\n");
    assert!(ok, "{out}");
    assert!(out.contains("(running), White 5:00."), "{out}");
    assert!(out.contains("White to move; clocks: Black 5:0"), "{out}");
    let (_, out, _) = session(
        &["--plain", "--move-timer"],
        "11-15\nundo\nundo agreed\nquit\n",
    );
    assert!(out.contains("type undo agreed"), "{out}");
    assert!(out.contains("Took back Black 11-15"), "{out}");
    assert!(
        out.contains("Black to move; clocks: Black 5:00 (running)"),
        "{out}"
    );
    let (ok, _, err) = session(&["--plain", "--clock", "5x3"], "");
    assert!(
        !ok && err.contains("'5x3' is not a clock") && err.contains("G/15"),
        "{err}"
    );
    let (_, out, _) = session(&["--plain"], "clock\nquit\n");
    assert!(out.contains("not timed"), "{out}");
}

#[cfg(unix)]
#[test]
fn input_that_cannot_be_read_is_said_so_not_called_an_output_failure() {
    // A folder as standard input: every read fails (EISDIR).
    let data = std::env::temp_dir().join(format!("checkers-plain-dir-{}", std::process::id()));
    let out = Command::new(env!("CARGO_BIN_EXE_checkers"))
        .arg("--plain")
        .env("XDG_DATA_HOME", &data)
        .stdin(std::fs::File::open("/").unwrap())
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&data);
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("cannot read the input: "), "{stderr}");
    assert!(!stderr.contains("cannot write the output"), "{stderr}");
    // The board was shown before the first line was asked for.
    assert!(
        String::from_utf8(out.stdout)
            .unwrap()
            .contains("Black to move")
    );
}

#[test]
fn a_piped_game_is_not_kept_in_the_games_folder() {
    let data = tempfile::tempdir().unwrap();
    let (ok, _, err) = session_with_env(
        &["--plain"],
        &[("XDG_DATA_HOME", data.path())],
        "11-15\n23-19\n",
    );
    assert!(ok, "{err}");
    let games = data.path().join("checkers").join("games");
    let kept = std::fs::read_dir(&games).map_or(0, |dir| {
        dir.filter_map(Result::ok)
            .filter(|e| e.path().extension().is_some_and(|x| x == "pdn"))
            .count()
    });
    assert_eq!(kept, 0, "as the README says: {}", games.display());
    let readme: Vec<&str> = include_str!("../../README.md").split_whitespace().collect();
    let says = "A game whose input is piped (not typed at a terminal) is not kept in the \
                games folder";
    assert!(
        readme.join(" ").contains(says),
        "the README says what a piped game does"
    );
}

#[test]
fn fen_pieces_and_show_tell_the_position_in_text() {
    let input = "11-15\n23-19\n8 11\nfen\npieces\nshow 1\nshow 9\nmoves\n";
    let (ok, out, err) = session(&["--plain", "--fen", "B:W21-32:BK2,1,3-12"], input);
    assert!(ok, "{err}");
    let a = answers(&out);
    assert_eq!(
        a[3],
        "FEN: W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,K2,3,4,5,6,7,9,10,11,12,15"
    );
    // Each side by square, in words.
    assert_eq!(
        a[4],
        "Black: men on 1, 3, 4, 5, 6, 7, 9, 10, 11, 12 and 15; a king on 2. \
         White: men on 19, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31 and 32; no kings."
    );
    assert_eq!(
        a[5],
        "After move 1 (White's 23-19) of 2, Black to move; the game goes on from the last move."
    );
    // The board after move 1: 8 still Black's, 11 empty; the game itself unchanged.
    assert!(a[6..].iter().any(|l| l.contains("| 8 b|")), "{out}");
    assert!(
        a.contains(&"FEN: B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,K2,3,4,5,6,7,8,9,10,12,15"),
        "{out}"
    );
    assert!(
        out.contains(
            "There is no move 9 yet: the move list has 2 moves (2. 8-11); show 0 to show 2."
        ),
        "{out}"
    );
    assert!(a.last().unwrap().starts_with("Legal moves: "), "{out}");
    assert!(
        a.last().unwrap().contains("19-16"),
        "still White's move: {out}"
    );
}

#[test]
fn resign_against_the_computer_gives_up_the_persons_side_only() {
    // The computer plays Black and moves first; the person's resign is White's.
    let (ok, out, err) = session(&["--plain", "--black", "cpu", "--level", "1"], "resign\n");
    assert!(ok, "{err}");
    let a = answers(&out);
    assert!(a[0].starts_with("Black (level 1) played "), "{out}");
    assert_eq!(
        a[1], "Black wins: White resigned. Type new for another game.",
        "{out}"
    );
    assert!(!out.contains("Black resigns"), "{out}");
}

/// The end of a game says what comes next, and `new` starts another with the same
/// players; a game in play is not dropped by it.
#[test]
fn new_starts_another_game_once_this_one_is_over() {
    let args = ["--plain", "--black", "cpu", "--level", "1"];
    let (ok, out, err) = session(&args, "new\nresign\nnew\n");
    assert!(ok, "{err}");
    let a = answers(&out);
    assert!(a[0].starts_with("Black (level 1) played "), "{out}");
    assert!(
        a[1].starts_with("Cannot start a new game: this one is not over"),
        "{out}"
    );
    assert_eq!(
        a[2], "Black wins: White resigned. Type new for another game.",
        "{out}"
    );
    assert_eq!(a[3], "New game.", "{out}");
    // The board of the new game, and the computer's first move in it.
    assert!(a[4..].iter().any(|l| l.starts_with("+----+")), "{out}");
    assert!(
        a[4..]
            .iter()
            .any(|l| l.starts_with("Black (level 1) played ")),
        "{out}"
    );
}

#[test]
fn the_board_names_the_opening_once_the_moves_have_one() {
    let (ok, out, _) = session(&[], "11-15\n23-19\nboard\n8-11\n22-17\n4-8\nboard\n");
    assert!(ok, "{out}");
    let boards: Vec<&str> = out.split("Opening:").collect();
    // Only the second board: after 11-15 23-19 alone the line has no name yet.
    assert_eq!(boards.len(), 2, "{out}");
    assert!(boards[1].starts_with(" Old Fourteenth."), "{out}");
}

#[test]
fn show_counts_moves_as_the_move_list_numbers_them_and_takes_either_half() {
    // Five plies: the move list reads 1. 11-15 23-19 2. 8-11 22-17 3. 4-8.
    let input = "11-15\n23-19\n8-11\n22-17\n4-8\nshow 2\nshow 2.\nshow 3\nshow 3...\nshow 4\n";
    let (ok, out, err) = session(&["--plain"], input);
    assert!(ok, "{err}");
    let said: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("After ") || l.starts_with("There is") || l.starts_with("Move "))
        .collect();
    assert_eq!(
        said,
        [
            "After move 2 (White's 22-17) of 3, Black to move; the game goes on from the last move.",
            "After move 2 (Black's 8-11) of 3, White to move; the game goes on from the last move.",
            "After move 3 (Black's 4-8) of 3, White to move; the game goes on from the last move.",
            "Move 3 has no White half yet (3. 4-8): show 3 shows the whole move.",
            "There is no move 4 yet: the move list has 3 moves (3. 4-8); show 0 to show 3.",
        ],
        "{out}"
    );
    // The help says which number it is.
    let (_, out, _) = session(&["--plain"], "help\n");
    assert!(
        out.contains("show N (the board after move N of the move list"),
        "{out}"
    );
}

#[test]
fn lines_prints_the_best_lines_in_score_order_with_scores_in_men_and_depth() {
    let (ok, out, _) = session(&["--plain"], "11-15\nlines 3\nlines 9\nquit\n");
    assert!(ok);
    let start = out.find("Best lines for White to move").expect("the lines");
    let lines: Vec<&str> = out[start..].lines().skip(1).take(3).collect();
    let mut scores = Vec::new();
    let mut firsts = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let (head, moves) = line.split_once(": ").expect("a line with its moves");
        let mut words = head.split_whitespace();
        assert_eq!(words.next(), Some(format!("{}.", i + 1).as_str()), "{line}");
        // A score in men for Black, then the depth.
        let score: f64 = words.next().unwrap().parse().unwrap();
        assert_eq!(words.next(), Some("depth"), "{line}");
        assert!(words.next().unwrap().parse::<u32>().unwrap() > 0, "{line}");
        scores.push(score);
        firsts.push(moves.split_whitespace().next().unwrap().to_string());
    }
    // White to move: the best line is the one best for White, the lowest for Black.
    assert!(scores.windows(2).all(|w| w[0] <= w[1]), "{scores:?}");
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "three different first moves: {lines:?}");
    assert!(out.contains("lines takes a number from 1 to 5"), "{out}");
}

#[test]
fn explore_after_11_15_shows_the_replies_played_in_the_built_in_collection() {
    let (ok, out, err) = session(&["--plain"], "11-15\nexplore\nhelp\nquit\n");
    assert!(ok, "{err}");
    // The same text as `checkers explore --moves 11-15`: White's replies, most played
    // first, with their games and results.
    let start = out.find("move      games").expect("the explorer's moves");
    let lines: Vec<&str> = out[start..].lines().collect();
    assert_eq!(
        lines[0], "move      games  black  draws  white  White%  opening",
        "{out}"
    );
    assert_eq!(
        lines[1], "23-18        25      5     17      3   46.0%  Cross",
        "{out}"
    );
    assert!(
        lines.contains(&"24-20         9      3      5      1   38.9%  Ayrshire Lassie"),
        "{out}"
    );
    assert!(
        lines.contains(&"723 games read, 1 skipped (their moves do not replay)"),
        "{out}"
    );
    assert!(out.contains("explore (the moves played from here"), "{out}");
}

#[test]
fn a_move_off_the_diagonals_is_refused_saying_so_then_the_pieces_moves() {
    let (ok, out, err) = session(&[], "10-14\n22-17\n14-19\n");
    assert!(ok, "{err}");
    assert_eq!(
        answers(&out)[2],
        "Refused 14-19: 14 and 19 are not on one diagonal; the man on 14 can play 14-18. \
         Black to move."
    );
}

#[test]
fn a_level_for_two_people_says_it_is_the_computers_and_how_to_play_it() {
    let (ok, _, err) = session(&["--plain", "--level", "3"], "quit\n");
    assert!(ok, "{err}");
    assert_eq!(
        err,
        "checkers: --level 3 sets the computer's strength, but no computer plays this \
         game: --white cpu (or --black cpu) plays the computer\n"
    );
    // Against the computer it is its level, and nothing is said.
    let (ok, _, err) = session(&["--plain", "--white", "cpu", "--level", "3"], "quit\n");
    assert!(ok, "{err}");
    assert_eq!(err, "");
}

/// A record of a game between two programs, whose last move takes White's last piece.
const PROGRAMS_GAME: &str = "[Event \"Programs\"]\n[Black \"Alpha\"]\n[White \"Beta\"]\n\
    [BlackType \"program\"]\n[WhiteType \"program\"]\n[SetUp \"1\"]\n\
    [FEN \"B:W22:B1,9\"]\n[Result \"1-0\"]\n1. 9-14 22-18 2. 14x23 1-0\n";

/// A finished game between programs, loaded in plain mode, waits to be looked through
/// (it used to print its last board and end), and an unfinished one is not played on
/// by the programs unless `--black`/`--white` ask for them.
#[test]
fn a_loaded_game_between_programs_can_be_looked_through() {
    let dir = std::env::temp_dir().join(format!("checkers-programs-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let finished = dir.join("finished.pdn");
    std::fs::write(&finished, PROGRAMS_GAME).unwrap();
    let file = finished.to_str().unwrap();
    let (ok, out, err) = session(&["--plain", "--load", file], "show 1\nquit\n");
    assert!(ok, "{err}");
    assert!(out.contains("Black wins"), "{out}");
    assert!(
        out.contains("Both sides of this game were played by programs"),
        "{out}"
    );
    assert!(out.contains("After move 1 (White's 22-18) of 2"), "{out}");
    assert!(out.ends_with("Goodbye.\n"), "{out}");
    // Seated by name, the programs have nothing to play in a finished game: it waits too.
    let (ok, out, err) = session(
        &[
            "--plain", "--load", file, "--black", "cpu", "--white", "cpu",
        ],
        "show 1\n",
    );
    assert!(ok, "{err}");
    assert!(out.contains("After move 1 (White's 22-18) of 2"), "{out}");
    // Unfinished, the game is the reader's: no program moves by itself.
    let unfinished = dir.join("unfinished.pdn");
    // Its Result tag says so too: a tag naming an ending is what a record is read by.
    let unfinished_game = PROGRAMS_GAME
        .replace(" 2. 14x23 1-0", " *")
        .replace("[Result \"1-0\"]", "[Result \"*\"]");
    std::fs::write(&unfinished, unfinished_game).unwrap();
    let (ok, out, err) = session(
        &["--plain", "--load", unfinished.to_str().unwrap()],
        "moves\n",
    );
    assert!(ok, "{err}");
    assert!(!out.contains(" (level "), "{out}");
    assert!(answers(&out).contains(&"Legal moves: 14x23."), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A record that ended by resignation (its result only in its tags, the board still
/// playable) says its result on loading, not only whose move it is.
#[test]
fn a_loaded_record_says_a_result_its_last_position_does_not_show() {
    let dir = std::env::temp_dir().join(format!("checkers-resigned-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("resigned.pdn");
    std::fs::write(
        &file,
        "[Event \"club\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\
         1. 11-15 23-19 0-1\n",
    )
    .unwrap();
    let (ok, out, err) = session(&["--plain", "--load", file.to_str().unwrap()], "quit\n");
    assert!(ok, "{err}");
    // The game is over as recorded: the status says how, and the note what follows.
    assert!(
        out.contains("White wins: Black resigned. Type new for another game.\n"),
        "{out}"
    );
    assert!(
        out.contains("The record ends 0-1 (White won). The game is over: undo takes"),
        "{out}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `status` (or `last`) tells a player who cannot see the board where the game stands in
/// one line: the last move with each piece it took and a crowning, how many pieces each
/// side has, and whose move it is (it was not a command: "'status' is not a move or a
/// command").
#[test]
fn status_says_the_last_move_what_it_took_the_counts_and_whose_move() {
    let input = "status\n9x18x27\nstatus\n32x23\nlast\n";
    let (ok, out, err) = session(&["--plain", "--fen", "B:WK14,23,32:B9,1"], input);
    assert!(ok, "{err}");
    let a = answers(&out);
    assert_eq!(
        a[0],
        "No move has been played yet. Black has 2 (2 men, no kings), White 3 (2 men, 1 king). \
         Black to move, a capture is compulsory.",
        "{out}"
    );
    assert_eq!(
        a[2],
        "Last move: Black's 9x18x27, taking the White king on 14 and the White man on 23. \
         Black has 2 (2 men, no kings), White 1 (1 man, no kings). White to move, a capture \
         is compulsory.",
        "{out}"
    );
    assert_eq!(
        a[4],
        "Last move: White's 32x23, taking the Black man on 27. \
         Black has 1 (1 man, no kings), White 1 (1 man, no kings). Black to move.",
        "{out}"
    );
}

/// `show N` says the shown position's pieces in words, as `pieces` does, before its board:
/// a screen reader's user reviewing the game hears where the pieces stood (it gave the
/// board's grid and the FEN only).
#[test]
fn show_says_the_pieces_of_the_position_shown_in_words() {
    let (ok, out, err) = session(&["--plain"], "11-15\n23-19\n8-11\nshow 1\n");
    assert!(ok, "{err}");
    let a = answers(&out);
    let after = a
        .iter()
        .position(|l| l.starts_with("After move 1 (White's 23-19) of 2"))
        .expect("the position shown");
    assert_eq!(
        a[after + 1],
        "Black: men on 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12 and 15; no kings. \
         White: men on 19, 21, 22, 24, 25, 26, 27, 28, 29, 30, 31 and 32; no kings.",
        "{out}"
    );
}

#[test]
fn a_file_whose_first_game_does_not_read_opens_at_the_next_that_does() {
    // The whole file was refused for its first game ("checkers: FILE: game 1 ...:
    // FEN field 1 ..."): a database's other games could not be opened without --game.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("mixed.pdn");
    std::fs::write(
        &file,
        "[Event \"bad set-up\"]\n[FEN \"X:W21:B1\"]\n1. 1-5 *\n\n\
         [Event \"Dutch\"]\n[GameType \"20\"]\n1. 32-28 *\n\n\
         [Event \"good\"]\n[Black \"Ann\"]\n1. 11-15 23-19 *\n",
    )
    .unwrap();
    let path = file.to_string_lossy();
    let (ok, out, err) = session(&["--plain", "--load", &path], "moves\nquit\n");
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!(
            "This is game 3 of 3 in {path} (the games before it do not read: checkers pdn \
             check {path} says why); --game N opens another."
        )),
        "{out}"
    );
    // Game 3 stands after its 11-15 23-19.
    assert!(
        out.contains("Legal moves: 7-11, 8-11, 9-13, 9-14, 10-14, 12-16, 15-18."),
        "{out}"
    );
    // Asked for by number, a game that does not read is still refused, saying why.
    let (ok, _, err) = session(&["--plain", "--load", &path, "--game", "2"], "quit\n");
    assert!(!ok);
    assert!(
        err.contains("GameType 20 is international draughts"),
        "{err}"
    );
}
