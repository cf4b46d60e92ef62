//! The `perft` and `moves` commands, run as a user runs them.

use crate::common::command::{run, run_with_input_file, stderr, stdout};

#[test]
fn the_version_asks_for_no_special_build() {
    let o = run(&["--version"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out, concat!("checkers ", env!("CARGO_PKG_VERSION"), "\n"));
    // The plain build picks AVX2 at run time: no advice to rebuild for the processor.
    assert!(!out.contains("target-cpu"), "{out}");
}

#[test]
fn moves_lists_the_start_moves_and_nothing_else() {
    let o = run(&["moves"]);
    assert!(o.status.success());
    assert_eq!(
        stdout(&o),
        "9-13\n9-14\n10-14\n10-15\n11-15\n11-16\n12-16\n"
    );
    assert_eq!(stderr(&o), "");
}

#[test]
fn moves_writes_every_landing_square_sorted() {
    let o = run(&["moves", "--fen", "B:W6,7,14,15:B2"]);
    assert_eq!(stdout(&o), "2x9x18\n2x11x18\n");
    let o = run(&["moves", "--fen", "B:W10,11,18,19:BK7"]);
    assert_eq!(stdout(&o), "7x14x23x16x7\n7x16x23x14x7\n");
    let o = run(&["moves", "--fen", "W:W22:B18,11"]);
    assert_eq!(stdout(&o), "22x15x8\n");
}

/// A blocked side to move has no move: none is listed (standard output stays a list,
/// for scripts), and standard error says that side has lost, as the game says it.
#[test]
fn moves_of_a_blocked_position_lists_none_and_says_the_side_to_move_has_lost() {
    let o = run(&["moves", "--fen", "B:W8,11:B4"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "Black cannot move and so has lost. White wins: Black has no legal move.\n"
    );
    let o = run(&["moves", "--fen", "W:WK29:B25,22"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        "White cannot move and so has lost. Black wins: White has no legal move.\n"
    );
}

#[test]
fn a_bad_fen_is_a_clear_error_on_stderr() {
    let o = run(&["moves", "--fen", "B:W21:B33"]);
    assert!(!o.status.success());
    assert_eq!(stdout(&o), "");
    let err = stderr(&o);
    assert!(err.contains("--fen"), "{err}");
    assert!(err.contains("entry '33': 33 is not a square"), "{err}");
    let o = run(&["perft", "3", "--fen", "Q"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("side to move"), "{}", stderr(&o));
}

#[test]
fn perft_prints_the_plain_count_first() {
    let o = run(&["perft", "6"]);
    assert!(o.status.success());
    let out = stdout(&o);
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("36768"));
    let timing = lines.next().unwrap();
    assert!(
        timing.starts_with("time ") && timing.ends_with(" nodes/s"),
        "{timing}"
    );
}

#[test]
fn perft_divide_and_threads() {
    let o = run(&["perft", "4", "--divide", "--threads", "2"]);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 7 + 2);
    let split: Vec<(&str, u64)> = lines[..7]
        .iter()
        .map(|l| {
            l.split_once(' ')
                .map(|(m, n)| (m, n.parse().unwrap()))
                .unwrap()
        })
        .collect();
    assert_eq!(split[0].0, "9-13");
    assert_eq!(split[6].0, "12-16");
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1469);
    assert_eq!(lines[7], "1469");
    let o = run(&[
        "perft",
        "5",
        "--fen",
        "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
    ]);
    assert_eq!(stdout(&o).lines().next(), Some("5836"));
}

#[test]
fn perft_rejects_bad_options() {
    for args in [
        &["perft", "31"][..],
        &["perft", "-1"],
        &["perft", "x"],
        &["perft", "3", "--threads", "0"],
    ] {
        let o = run(args);
        assert!(!o.status.success(), "{args:?}");
        assert!(!stderr(&o).is_empty(), "{args:?}");
    }
}

#[test]
fn pdn_check_reports_the_faulty_game_and_a_summary() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");
    let o = run(&["pdn", "check", file]);
    assert_eq!(o.status.code(), Some(1), "not every game replays");
    assert_eq!(
        stdout(&o),
        "game 541 (\"Petal 1981, game 18\"), move 62. 32-28 (Black, line 5588, column 5): \
         no piece of yours on 32: it is empty\n724 games: 723 replayed, 1 with errors\n"
    );
}

/// `-` is standard input: a file piped in is checked as the file itself is, and
/// messages name standard input.
#[test]
fn pdn_check_of_dash_reads_standard_input() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");
    let o = run_with_input_file(&["pdn", "check", "-"], file.as_ref());
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(
        stdout(&o).ends_with("\n724 games: 723 replayed, 1 with errors\n"),
        "{}",
        stdout(&o)
    );
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.pdn");
    std::fs::write(&empty, "").unwrap();
    let o = run_with_input_file(&["pdn", "check", "-"], &empty);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("standard input holds no PDN game"),
        "{}",
        stderr(&o)
    );
    // analyse --load reads its game from standard input too; a board does not.
    let game = dir.path().join("game.pdn");
    std::fs::write(&game, "[Event \"a\"]\n1. 11-15 23-19 *\n").unwrap();
    let o = run_with_input_file(&["analyse", "--load", "-", "--depth", "1"], &game);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("1...  23-19"), "{}", stdout(&o));
    let o = run(&["--load", "-"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("no game from standard input"),
        "{}",
        stderr(&o)
    );
}

/// A move that is not well formed is placed once, at the fault's own line and column
/// in the file: the move's message does not say a column of its own besides.
#[test]
fn pdn_check_says_where_a_malformed_move_is_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bad.pdn");
    std::fs::write(&file, "1. h-9 *\n\n1. 11-15 23-99 *\n\n1. 11/15 *\n").unwrap();
    let o = run(&["pdn", "check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        "game 1, move 1. h-9 (Black, line 1, column 4): 'h' is not a square: give a number \
         1-32 or a name like c3\n\
         game 2, move 1... 23-99 (White, line 3, column 13): 99 is not a square: squares are \
         numbered 1-32\n\
         game 3, move 1. 11/15 (Black, line 5, column 6): expected '-' or 'x', found '/'\n\
         3 games: 0 replayed, 3 with errors\n"
    );
}

/// A file cut off in the middle of a game is named, with where it ends; its other
/// games replay.
#[test]
fn pdn_check_of_a_file_cut_off_mid_game_says_where_it_may_be_cut_short() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("cut.pdn");
    std::fs::write(&file, "[Event \"a\"]\n1. 11-15 23-19 *\n\n1. 11-15 23-").unwrap();
    let o = run(&["pdn", "check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(
        stdout(&o),
        format!(
            "{}: game 2, move 1... 23- (White, line 4, column 13): a square is missing at the \
             end; the file ends there, at line 4, column 13, in the middle of the \
             game: it may have been cut short (truncated)\n2 games: 1 replayed, 1 with errors\n",
            file.display()
        )
    );
}

/// A one-line text that is no PDN (a note) is said to be no PDN, and not also to be
/// a game cut short in the middle (truncated), which it never was.
#[test]
fn pdn_check_of_a_one_line_note_does_not_call_it_truncated() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("note.txt");
    std::fs::write(&file, "hello\n").unwrap();
    let o = run(&["pdn", "check", file.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        format!(
            "checkers: {} holds no game: it is not a PDN file: no tag, no move number, \
             nothing that reads as a game (it begins \"hello\")\n",
            file.display()
        )
    );
}

/// A procfs file reports a size of 0 but has text: it is read to its end, not taken
/// for an empty file; its text is no PDN, so it holds no game, said without a game
/// number (it was "game 1, line 1, column 1: this is not a PDN file").
#[cfg(target_os = "linux")]
#[test]
fn pdn_check_reads_a_file_that_reports_no_size_to_its_end() {
    let o = run(&["pdn", "check", "/proc/self/status"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.starts_with(
            "checkers: /proc/self/status holds no game: it is not a PDN file: no tag, no move \
             number, nothing that reads as a game (it begins \"Name:"
        ),
        "{err}"
    );
    assert_eq!(stdout(&o), "");
}

#[test]
fn pdn_check_of_a_clean_file_exits_zero() {
    let dir = std::env::temp_dir().join(format!("checkers-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("two.pdn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n1. 11-15 23-19 *\n\n[Event \"b\"]\n1. 9-14 *\n",
    )
    .unwrap();
    let o = run(&["pdn", "check", file.to_str().unwrap()]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "2 games: 2 replayed, 0 with errors\n");
    let missing = dir.join("missing.pdn");
    let o = run(&["pdn", "check", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).starts_with("checkers: cannot read "),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("missing.pdn"));
    // A file with no game in it is not a clean file: nothing was checked.
    let empty = dir.join("empty.pdn");
    std::fs::write(&empty, "\n").unwrap();
    let o = run(&["pdn", "check", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(
        stderr(&o),
        format!("checkers: {} holds no PDN game\n", empty.display())
    );
    assert_eq!(stdout(&o), "");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_game_option_that_cannot_be_used_exits_two() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing.pdn");
    let o = run(&["--load", missing.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert_eq!(stdout(&o), "", "nothing is shown before the error");
    let err = stderr(&o);
    assert!(err.starts_with("checkers: cannot read "), "{err}");
    assert!(err.contains("missing.pdn"), "{err}");
    let empty = dir.path().join("empty.pdn");
    std::fs::write(&empty, "").unwrap();
    let o = run(&["--load", empty.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("holds no PDN game"), "{}", stderr(&o));
}

/// Runs `checkers args` with its standard output closed before it writes anything.
fn run_with_stdout_closed(args: &[&str]) -> std::process::Output {
    let mut child = std::process::Command::new(crate::common::program_for(args))
        .args(args)
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    child.wait_with_output().unwrap()
}

#[test]
fn a_closed_output_is_not_worth_a_message() {
    // `checkers perft 9 --divide | head -1`: the reader is gone, the command stops.
    let o = run_with_stdout_closed(&["perft", "9", "--divide"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(stderr(&o), "");
    // pdn check did not finish its report: not a success, still no message.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");
    let o = run_with_stdout_closed(&["pdn", "check", file]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stderr(&o), "");
}

#[cfg(feature = "lab")]
#[test]
fn completions_and_the_manual_page_come_from_the_command_line_definitions() {
    let o = run(&["completions", "bash"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let script = stdout(&o);
    assert!(script.contains("_checkers()"), "{script}");
    for word in [
        "analyse",
        "match",
        "--movetime",
        "--black-name",
        "completions",
    ] {
        assert!(script.contains(word), "bash completion lacks {word}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        let o = run(&["completions", shell]);
        assert!(o.status.success(), "{shell}: {}", stderr(&o));
        assert!(stdout(&o).contains("--movetime"), "{shell}");
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("invalid value 'tcsh'"),
        "{}",
        stderr(&o)
    );
    let o = run(&["manpage"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    assert!(page.contains(".TH checkers 1"), "{page}");
    assert!(page.contains("English draughts"), "{page}");
    assert!(
        page.contains("\\-\\-movetime") || page.contains("analyse"),
        "{page}"
    );
}

/// The pages a roff page refers to, as `name(section)`: `checkers\-host(1)` reads
/// `checkers-host(1)`.
fn page_references(page: &str) -> Vec<String> {
    let text = page.replace("\\-", "-");
    let mut found = Vec::new();
    for (i, _) in text.match_indices("(1)") {
        let name: String = text[..i]
            .chars()
            .rev()
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        if name.starts_with("checkers") {
            found.push(name);
        }
    }
    found
}

#[test]
fn the_manual_pages_header_is_well_formed_and_it_names_no_page_that_is_not_written() {
    let o = run(&["manpage"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let page = stdout(&o);
    // `.TH checkers 1 "" "checkers 0.1.0"`: its quoted arguments hold no quote of their
    // own (man would show the header cut at one).
    let title = page
        .lines()
        .find(|l| l.starts_with(".TH "))
        .expect("a .TH line");
    assert_eq!(title.matches('"').count() % 2, 0, "{title}");
    let source = concat!("\"checkers ", env!("CARGO_PKG_VERSION"), "\"");
    assert!(title.contains(source), "{title}");
    assert!(!title.contains("target-cpu"), "{title}");
    // Alone on standard output, it names its commands as they are typed, not pages.
    assert_eq!(page_references(&page), Vec::<String>::new(), "{page}");
    assert!(page.contains("checkers host"), "{page}");
    assert!(!page.contains("checkers help"), "{page}");
    assert!(page.contains("manpage \\-\\-dir"), "{page}");

    // With --dir, every page named by any page is written beside it.
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().join("man1");
    let o = run(&["manpage", "--dir", folder.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let listed = stdout(&o);
    assert!(
        listed.lines().next().unwrap().ends_with("checkers.1"),
        "{listed}"
    );
    let mut pages = 0;
    for entry in std::fs::read_dir(&folder).unwrap() {
        let path = entry.unwrap().path();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(listed.contains(&path.display().to_string()), "{listed}");
        let title = text.lines().find(|l| l.starts_with(".TH ")).unwrap();
        assert!(title.contains(source), "{}: {title}", path.display());
        for name in page_references(&text) {
            assert!(
                folder.join(format!("{name}.1")).is_file(),
                "{} refers to {name}(1), which is not written",
                path.display()
            );
        }
        pages += 1;
    }
    let main = std::fs::read_to_string(folder.join("checkers.1")).unwrap();
    let named = page_references(&main);
    for command in ["host", "join", "watch", "games", "egdb"] {
        assert!(named.contains(&format!("checkers-{command}")), "{named:?}");
    }
    assert!(!named.contains(&"checkers-help".to_string()), "{named:?}");
    assert!(
        pages > named.len(),
        "the commands' own commands have pages too"
    );
}

/// `checkers --help` says where the game report is (`analyse --load --report`) and
/// that the analysis board is `--analyse`, not the `analyse` command: its line spoke of
/// searching a position only, and a user looking for either found neither.
#[test]
fn help_says_where_the_game_report_and_the_analysis_board_are() {
    let o = run(&["--help"]);
    let help = stdout(&o);
    let from = help.find("\n  analyse ").expect("the analyse command");
    let to = help[from + 1..]
        .find("\n  moves ")
        .expect("the moves command")
        + from
        + 1;
    let line = help[from..to]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(line.contains("its game report (--report)"), "{line}");
    assert!(
        line.contains(
            "The analysis board, to play through lines yourself, is `checkers --analyse`"
        ),
        "{line}"
    );
}

/// `checkers --help` says where `--level`'s default comes from: the level chosen on the
/// home screen is kept in the preferences file and used by `checkers --white cpu` too,
/// where the help said "5 if not given".
#[test]
fn help_says_the_default_level_comes_from_the_preferences() {
    let o = run(&["--help"]);
    let help = stdout(&o);
    let from = help.find("--level <N>").expect("--level");
    let to = help[from..].find("\n\n").expect("the entry's end") + from;
    let entry = help[from..to]
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        entry.contains("the preferences file's `level = N`"),
        "{entry}"
    );
    assert!(
        entry.contains("else 5; given, it wins over the preferences"),
        "{entry}"
    );
    assert!(!entry.contains("5 if not given"), "{entry}");
}

#[cfg(feature = "lab")]
#[test]
fn help_lists_the_players_commands_before_the_engines_workshop() {
    let o = run(&["--help"]);
    let help = stdout(&o);
    let place = |command: &str| {
        help.find(&format!("\n  {command} "))
            .unwrap_or_else(|| panic!("--help lacks {command}: {help}"))
    };
    for player in ["host", "join", "watch", "games", "analyse"] {
        for later in ["perft", "book"] {
            assert!(
                place(player) < place(later),
                "{player} after {later}: {help}"
            );
        }
    }
    assert!(place("host") < place("join") && place("join") < place("watch"));
    // The engine's workshop is the lab's program, not the player's.
    for lab in ["match", "selfplay", "train"] {
        assert!(!help.contains(&format!("\n  {lab} ")), "{lab}: {help}");
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
            .args([lab, "--help"])
            .output()
            .unwrap();
        assert!(!o.status.success(), "checkers {lab} is not a command");
        let said = stderr(&o);
        assert!(said.contains(&format!("checkers-lab {lab}")), "{said}");
    }
}

#[cfg(feature = "lab")]
#[test]
fn the_labs_program_lists_the_engines_workshop() {
    let o = std::process::Command::new(crate::common::lab_program())
        .arg("--help")
        .output()
        .unwrap();
    let help = stdout(&o);
    for lab in ["match", "selfplay", "train", "book"] {
        assert!(help.contains(&format!("\n  {lab} ")), "{lab}: {help}");
    }
}

#[test]
fn a_game_from_a_position_where_a_side_has_no_pieces_is_refused() {
    for (fen, why) in [
        ("W:W:B", "the board is empty"),
        ("B:W:BK31", "White has no pieces"),
        ("W:W5:B", "Black has no pieces"),
    ] {
        let o = run(&["--plain", "--fen", fen]);
        assert_eq!(o.status.code(), Some(2), "{fen}");
        let said = stderr(&o);
        assert!(said.contains(why), "{fen}: {said}");
        assert!(
            said.contains("at least one piece on each side"),
            "{fen}: {said}"
        );
        assert_eq!(stdout(&o), "", "{fen}: no game is played");
    }
    // The commands that search, list or count moves or look a position up have nothing
    // to go on in it, and refuse it as a game does, rather than call it won or count
    // the moves of a game already over.
    for command in [
        &["analyse", "--fen", "B:W:B"][..],
        &["moves", "--fen", "W:W:B5"],
        &["moves", "--fen", "B:W21,22:B"],
        &["perft", "--fen", "W:W21:B", "3"],
        &["perft", "--fen", "B:W:BK31", "1", "--divide"],
        &["book", "show", "--fen", "B:W:BK31"],
        &["explore", "--fen", "W:W5:B"],
        &["egdb", "probe", "--fen", "B:W:B", "--dir", "/nonexistent"],
    ] {
        let o = run(command);
        assert_eq!(o.status.code(), Some(2), "{command:?}");
        let said = stderr(&o);
        assert!(
            said.contains("at least one piece on each side"),
            "{command:?}: {said}"
        );
        assert_eq!(stdout(&o), "", "{command:?}");
    }
}

#[test]
fn host_refuses_a_level_as_it_refuses_a_computer_player() {
    for option in [&["--level", "3"][..], &["--black", "cpu"], &["--analyse"]] {
        let mut args = vec!["host", "--bind", "127.0.0.1", "--port", "0"];
        args.extend_from_slice(option);
        let o = run(&args);
        assert!(!o.status.success());
        let err = stderr(&o);
        assert!(
            err.contains(&format!(
                "{} does not apply to a game across the network",
                option[0]
            )),
            "{err}"
        );
    }
}

/// The options a command's help lists.
fn options_listed(args: &[&str]) -> Vec<String> {
    let o = run(args);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
        .lines()
        .filter_map(|line| line.trim_start().strip_prefix("--"))
        .map(|rest| rest.split_whitespace().next().unwrap().to_string())
        .collect()
}

/// Each command's help lists only the options that apply to it: puzzles have no clock,
/// so no bell to quiet; a game across the network has a person at each side, so no
/// computer to name (those are still refused in words when given).
#[test]
fn help_lists_only_the_options_that_apply() {
    let puzzle = options_listed(&["puzzle", "--help"]);
    assert!(puzzle.contains(&"ascii".to_string()), "{puzzle:?}");
    assert!(!puzzle.contains(&"quiet".to_string()), "{puzzle:?}");
    let o = run(&["puzzle", "--quiet"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("unexpected argument '--quiet'"),
        "{}",
        stderr(&o)
    );
    for clocked in ["join", "watch", "host"] {
        let listed = options_listed(&[clocked, "--help"]);
        assert!(
            listed.contains(&"quiet".to_string()),
            "{clocked}: {listed:?}"
        );
    }
    let host = options_listed(&["host", "--help"]);
    for computer in ["black", "white", "level", "setup", "analyse"] {
        assert!(!host.contains(&computer.to_string()), "{host:?}");
    }
    let play = options_listed(&["--help"]);
    assert!(play.contains(&"level".to_string()), "{play:?}");
    let o = run(&["host", "--port", "0", "--bind", "127.0.0.1", "--level", "3"]);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("--level does not apply"),
        "{}",
        stderr(&o)
    );
}

/// Help is wrapped at word boundaries to the terminal's width (here `COLUMNS`, as
/// through a pipe), so a terminal does not cut its lines in the middle of a word.
#[test]
fn help_wraps_at_word_boundaries_to_the_terminals_width() {
    let help_at = |args: &[&str], columns: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
            .args(args)
            .env("COLUMNS", columns)
            .output()
            .unwrap();
        assert!(o.status.success(), "{args:?}: {}", stderr(&o));
        stdout(&o)
    };
    let words =
        |text: &str| -> Vec<String> { text.split_whitespace().map(str::to_string).collect() };
    for args in [
        &["--help"][..],
        &["-h"],
        &["host", "--help"],
        &["join", "--help"],
        &["egdb", "build", "--help"],
        &["completions", "--help"],
    ] {
        let unwrapped = help_at(args, "10000");
        for width in [80, 60] {
            let help = help_at(args, &width.to_string());
            for line in help.lines() {
                assert!(
                    line.chars().count() <= width,
                    "{args:?} at {width} columns: {line:?}\n{help}"
                );
            }
            assert_eq!(words(&help), words(&unwrapped), "{args:?} at {width}");
        }
    }
}

/// `manpage --dir` makes a missing folder with the folders above it (the documented
/// `~/.local/share/man/man1` on a fresh account), and says so: a mistyped path is seen.
#[test]
fn manpage_makes_a_missing_folder_and_names_the_highest_it_made() {
    let dir = tempfile::tempdir().unwrap();
    let mistyped = dir.path().join("shrae").join("man1");
    let o = run(&["manpage", "--dir", mistyped.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert_eq!(
        err.lines().next(),
        Some(
            format!(
                "checkers: made the folder {} (it was not there)",
                dir.path().join("shrae").display()
            )
            .as_str()
        ),
        "{err}"
    );
    // Standard output stays the list of pages written.
    assert!(stdout(&o).lines().next().unwrap().ends_with("checkers.1"));
    assert!(mistyped.join("checkers.1").is_file());
    // A folder that is there is not said to be made.
    let o = run(&["manpage", "--dir", mistyped.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(!stderr(&o).contains("made the folder"), "{}", stderr(&o));
}
