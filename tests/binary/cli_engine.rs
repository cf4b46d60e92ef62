//! The `analyse` and `match` commands, run as a user runs them.

use checkers::rules::Position;

use crate::common::command::{run, stderr, stdout};

#[test]
fn analyse_prints_a_line_per_depth_then_the_best_move() {
    let o = run(&["analyse", "--depth", "5"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 6, "{out}");
    for (i, line) in lines[..5].iter().enumerate() {
        let words: Vec<&str> = line.split(' ').collect();
        assert_eq!(words[..2], ["depth", &(i + 1).to_string()], "{line}");
        assert_eq!(words[2], "score", "{line}");
        assert!(words[3].parse::<i32>().is_ok(), "{line}");
        assert_eq!(
            [words[4], words[6], words[8], words[10], words[11]],
            ["nodes", "nps", "time", "ms", "pv"]
        );
        assert!(words[5].parse::<u64>().is_ok() && words[7].parse::<u64>().is_ok());
        // The principal variation replays from the start, in record notation.
        let mut pos = Position::start();
        for text in &words[12..] {
            pos = pos.play_text(text).unwrap();
        }
    }
    let best = lines[5].strip_prefix("bestmove ").unwrap();
    assert!(Position::start().parse_move(best).is_ok());
    assert!(lines[4].contains(&format!("pv {best}")), "{out}");
}

#[test]
fn analyse_scores_a_forced_win_in_plies() {
    let o = run(&["analyse", "--fen", "B:WK4:BK15,K16", "--movetime", "2000"]);
    let out = stdout(&o);
    assert!(out.contains("score win in 3 "), "{out}");
    assert!(
        out.ends_with("bestmove 16-11\n") || out.ends_with("bestmove 15-11\n"),
        "{out}"
    );
}

#[test]
fn analyse_searches_a_single_move_for_its_score() {
    // 5x14 takes White's last man: the search proves the win at once, and says so.
    let o = run(&["analyse", "--fen", "B:W9:B5,11", "--movetime", "60000"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("depth 1 score win in 1 "), "{out}");
    assert!(
        out.ends_with("pv 5x14\nonly move 5x14\nbestmove 5x14\n"),
        "{out}"
    );
}

#[test]
fn analyse_load_scores_an_only_move_by_a_search_not_the_static_value() {
    // Tinsley v Oldbury, London 1958 game 1: after 5. 14-17 White's 21x14 is forced, in
    // the middle of an even exchange (9x25 and 30x21 follow).
    let pdn = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");
    let o = run(&["analyse", "--load", pdn, "--game", "303", "--depth", "10"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("game 303: M Tinsley (Black) v DE Oldbury (White), 0-1, 20 moves\n"),
        "moves as the list of games counts them: {out}"
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("5...  21x14"))
        .expect("the forced capture");
    assert!(line.contains("(depth 10), only move"), "{line}");
    // In men, as the game screen says it: even, or at most slightly ahead.
    let verdict = line["5...  21x14".len()..].trim_start();
    assert!(
        verdict.starts_with("even (") || verdict.contains(" is slightly ahead by 0."),
        "an even exchange, not the static 2.8 men: {line}"
    );
    assert!(!out.contains("(depth 0)"), "{out}");
}

#[test]
fn analyse_of_a_finished_game_says_why() {
    let o = run(&["analyse", "--fen", "B:W8,11:B4"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "");
    assert!(
        stderr(&o).contains("White wins: Black has no legal move"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn analyse_takes_a_depth_or_a_time_not_both() {
    let o = run(&["analyse", "--depth", "3", "--movetime", "100"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    let o = run(&["analyse", "--depth", "0"]);
    assert!(!o.status.success());
    let o = run(&["analyse", "--fen", "B:W33:B1"]);
    assert!(stderr(&o).contains("--fen"), "{}", stderr(&o));
}

/// The lines `analyse --multipv 3 --depth 8` prints for `fen` (the start if `None`),
/// checked: three, numbered, at depth 8, with three different legal first moves whose
/// lines replay, in score order, the first one the best move's.
fn check_three_lines(fen: Option<&str>) {
    let mut args = vec![
        "analyse",
        "--multipv",
        "3",
        "--depth",
        "8",
        "--threads",
        "1",
    ];
    if let Some(fen) = fen {
        args.extend(["--fen", fen]);
    }
    let o = run(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let pos: Position = fen.map_or_else(Position::start, |f| f.parse().unwrap());
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("line ")).collect();
    assert_eq!(lines.len(), 3, "{out}");
    let mut firsts = Vec::new();
    let mut scores = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let prefix = format!("line {} depth 8 score ", i + 1);
        let rest = line.strip_prefix(&prefix).expect(line);
        let (score, rest) = rest.split_once(" (").expect(line);
        scores.push(score.parse::<i32>().expect(line));
        let (_words, pv) = rest.split_once(") pv ").expect(line);
        let moves: Vec<&str> = pv.split(' ').collect();
        let mut p = pos;
        for text in &moves {
            p = p.play_text(text).expect(line);
        }
        firsts.push(moves[0]);
    }
    assert!(firsts[0] != firsts[1] && firsts[1] != firsts[2] && firsts[0] != firsts[2]);
    assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{out}");
    assert!(out.ends_with(&format!("bestmove {}\n", firsts[0])), "{out}");
}

#[test]
fn analyse_multipv_prints_the_best_lines_in_score_order() {
    check_three_lines(None);
    check_three_lines(Some(
        "B:W19,20,21,22,24,25,26,29,31,32:B1,2,3,5,8,9,10,12,14,15",
    ));
    // Not for a game, nor more than ten.
    let o = run(&["analyse", "--multipv", "2", "--load", "game.pdn"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot be used with"), "{}", stderr(&o));
    let o = run(&["analyse", "--multipv", "11"]);
    assert_eq!(o.status.code(), Some(2));
}

/// The standard output of a match of `games` games, level 10 as A against level 1 as B,
/// which must succeed: each move searched to 20,000 nodes at most (level 1 stops at its
/// one ply), so that the games are the same on any machine, however busy.
fn level_10_against_level_1(games: &str) -> String {
    let o = run(&[
        "match", "--games", games, "--nodes", "20000", "--level", "10", "--level", "1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o)
}

#[test]
fn match_by_pairs_says_how_many_games_had_no_pair() {
    let by_pairs = |games: &str| {
        let out = level_10_against_level_1(games);
        out.lines()
            .find(|line| line.starts_with("By pairs"))
            .unwrap_or_else(|| panic!("no line by pairs: {out}"))
            .to_string()
    };
    // Three games: the first opening with both colours, the second with one only.
    assert_eq!(
        by_pairs("3"),
        "By pairs (an opening with both colours): 1 pair (1 game without its pair left \
         out), A scoring 0, 1/2, 1, 3/2, 2 in 0, 0, 0, 0, 1: not measurable"
    );
    assert_eq!(
        by_pairs("1"),
        "By pairs (an opening with both colours): no pair complete (1 game without its \
         pair left out)"
    );
}

#[test]
fn match_prints_each_game_and_a_score_table() {
    let out = level_10_against_level_1("2");
    let lines: Vec<&str> = out.lines().collect();
    // Two games, a blank line, the table's head and two rows, the Elo line and the
    // line by pairs: level 10 won the opening's pair, both games, so neither the games
    // nor the one pair have a spread to measure from.
    assert_eq!(lines.len(), 8, "{out}");
    assert!(lines[6].starts_with("Elo difference A - B: "), "{out}");
    assert_eq!(
        lines[7],
        "By pairs (an opening with both colours): 1 pair, A scoring 0, 1/2, 1, 3/2, 2 in \
         0, 0, 0, 0, 1: not measurable",
        "{out}"
    );
    assert!(
        lines[0].starts_with(
            "game 1: opening 1 (9-13 21-17 5-9), Black A level 10 - White B level 1: 1-0 "
        ),
        "{out}"
    );
    assert!(
        lines[1].starts_with(
            "game 2: opening 1 (9-13 21-17 5-9), Black B level 1 - White A level 10: 0-1 "
        ),
        "{out}"
    );
    assert_eq!(lines[2], "");
    assert!(
        lines[3].starts_with("player") && lines[3].ends_with("score  ms/move"),
        "{out}"
    );
    // Each row ends with the mean time a move took (its size depends on the machine).
    let mean_ms = |line: &str| -> f64 {
        let last = line.split_whitespace().last().unwrap_or("");
        last.parse()
            .unwrap_or_else(|_| panic!("no ms/move in {line:?}"))
    };
    assert!(
        lines[4].starts_with("A level 10") && lines[4].contains("2-0-0  100.0%"),
        "{out}"
    );
    assert!(
        lines[5].starts_with("B level 1") && lines[5].contains("0-2-0    0.0%"),
        "{out}"
    );
    assert!(mean_ms(lines[4]) > 0.0, "{out}");
    let b_ms = lines[5].split_whitespace().last();
    assert!(b_ms.is_some_and(|w| w.parse::<f64>().is_ok()), "{out}");
}

#[cfg(feature = "lab")]
#[test]
fn match_writes_its_games_as_pdn() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("match.pdn");
    let o = run(&[
        "match",
        "--games",
        "3",
        "--movetime",
        "5",
        "--level",
        "2",
        "--level",
        "1",
        "--pdn",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&path).unwrap();
    let games = checkers::pdn::read_games(&text);
    assert_eq!(games.len(), 3);
    let out = stdout(&o);
    let results: Vec<&str> = out
        .lines()
        .take(3)
        .map(|l| l.split(": ").nth(2).unwrap())
        .collect();
    for (game, shown) in games.iter().zip(results) {
        let game = game.as_ref().unwrap();
        // Each game starts with its opening and ends as reported.
        assert_eq!(game.tag("Event"), Some("checkers match"));
        assert!(
            shown.starts_with(game.result.as_deref().unwrap()),
            "{shown}"
        );
        assert!(game.moves.len() >= 3);
    }
    assert_eq!(games[2].as_ref().unwrap().tag("Black"), Some("A level 2"));
}

#[cfg(feature = "lab")]
#[test]
fn a_match_runs_from_any_folder_on_the_built_in_deck() {
    let o = std::process::Command::new(crate::common::lab_program())
        .args([
            "match",
            "--games",
            "2",
            "--movetime",
            "2",
            "--max-plies",
            "16",
        ])
        .current_dir("/")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with("game 1: opening 1 (9-13 21-17 5-9), Black A level 10 - White B level 10"),
        "{out}"
    );
    assert!(
        out.contains("\ngame 2: opening 1 (9-13 21-17 5-9), Black B level 10"),
        "{out}"
    );
    assert!(out.contains("A level 10"), "{out}");
}

#[cfg(feature = "lab")]
#[test]
fn match_needs_two_valid_levels_and_its_openings() {
    let o = run(&["match", "--level", "3"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--level twice"), "{}", stderr(&o));
    let o = run(&["match", "--level", "3", "--level", "11"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("11"), "{}", stderr(&o));
    let o = run(&[
        "match",
        "--level",
        "3",
        "--level",
        "4",
        "--openings",
        "/no/such/file",
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("/no/such/file") && err.contains("--openings"),
        "{err}"
    );
}

#[cfg(feature = "lab")]
#[test]
fn match_reads_another_deck_with_openings_file() {
    let dir = tempfile::tempdir().unwrap();
    let deck = dir.path().join("deck.txt");
    std::fs::write(
        &deck,
        "# two ballots, one barred\n7\t11-15 23-19 8-11\tcrossboard\tOld Faithful\n\
         8\t9-13 21-17 10-14\tbarred\t\n",
    )
    .unwrap();
    // Level 1 against level 1 from the deck, `games` games: what the match printed.
    let play_deck = |games: &str| {
        let o = run(&[
            "match",
            "--games",
            games,
            "--movetime",
            "5",
            "--level",
            "1",
            "--level",
            "1",
            "--openings",
            deck.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let out = play_deck("2");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("game 1: opening 7 (11-15 23-19 8-11), "),
        "{out}"
    );
    assert!(
        lines[1].starts_with("game 2: opening 7 (11-15 23-19 8-11), "),
        "{out}"
    );

    // More games than the deck has openings to play: the match says which games
    // play them again, then plays them.
    let out = play_deck("3");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "1 opening to play gives 2 games (one with each colour): game 3 plays the first again",
        "{out}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("game 3: opening 7 (11-15 23-19 8-11), ")),
        "{out}"
    );

    // A deck with nothing to play, and a deck with a wrong move, are refused by name.
    std::fs::write(&deck, "8\t9-13 21-17 10-14\tbarred\t\n").unwrap();
    let o = run(&[
        "match",
        "--level",
        "1",
        "--level",
        "1",
        "--openings",
        deck.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("deck.txt: no opening that is not barred"),
        "{}",
        stderr(&o)
    );
    std::fs::write(&deck, "1\t9-13 9-14\n").unwrap();
    let o = run(&[
        "match",
        "--level",
        "1",
        "--level",
        "1",
        "--openings",
        deck.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("deck.txt: line 1: move 9-14"),
        "{}",
        stderr(&o)
    );
}

#[cfg(feature = "lab")]
#[test]
fn a_match_against_another_program_reports_elo_and_forfeits() {
    let me = env!("CARGO_BIN_EXE_checkers");
    let records = tempfile::tempdir().unwrap();
    let pdn = records.path().join("against.pdn");
    let o = run(&[
        "match",
        "--against",
        me,
        "--games",
        "2",
        "--movetime",
        "5",
        "--max-plies",
        "16",
        "--concurrency",
        "2",
        "--sprt",
        "0,10",
        "--pdn",
        pdn.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("game 1: opening 1 (9-13 21-17 5-9), Black A level 10 - White B "),
        "{out}"
    );
    assert!(out.contains("game 2: "), "{out}");
    assert!(out.contains("Elo difference A - B: "), "{out}");
    assert!(out.contains("SPRT [0, 10]: LLR "), "{out}");
    // The records say both sides were programs: the other program is not a person.
    let text = std::fs::read_to_string(&pdn).unwrap();
    let games = checkers::pdn::read_games(&text);
    assert_eq!(games.len(), 2, "{text}");
    for game in &games {
        let game = game.as_ref().unwrap();
        assert_eq!(game.tag("BlackType"), Some("program"), "{text}");
        assert_eq!(game.tag("WhiteType"), Some("program"), "{text}");
    }
    // A program that cannot answer at all is an error before the first game.
    let o = run(&[
        "match",
        "--against",
        "false",
        "--games",
        "2",
        "--movetime",
        "5",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("game 1:"));
    assert!(
        stderr(&o).contains("--against: false failed (exit status: 1)"),
        "{}",
        stderr(&o)
    );
    // One that answers the start position (checked before the first game) but not
    // the games' positions forfeits its games.
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("start-only.sh");
    std::fs::write(
        &script,
        format!(
            "case \"$3\" in\n  '{}') exec {me} \"$@\";;\nesac\necho thinking\n",
            Position::start()
        ),
    )
    .unwrap();
    let against = format!("sh {}", script.display());
    let o = run(&[
        "match",
        "--against",
        &against,
        "--games",
        "2",
        "--movetime",
        "5",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("gave no bestmove line"), "{out}");
    assert!(out.contains("B forfeits: "), "{out}");
    assert!(
        out.contains("total W-L-D") && out.contains("2-0-0"),
        "{out}"
    );
    assert!(
        out.contains("not measurable from 2 games (2 won, 0 lost, 0 drawn)"),
        "{out}"
    );
}

#[cfg(feature = "lab")]
#[test]
fn against_another_program_the_book_is_left_out_unless_asked_for() {
    // The other program has no book of ours: by default neither side plays from one,
    // and a player that does is named so in the table.
    let me = env!("CARGO_BIN_EXE_checkers");
    let table = |extra: &[&str]| {
        let mut args = vec![
            "match",
            "--against",
            me,
            "--games",
            "2",
            "--movetime",
            "5",
            "--max-plies",
            "10",
        ];
        args.extend_from_slice(extra);
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let plain = table(&[]);
    assert!(plain.contains("A level 10 "), "{plain}");
    assert!(!plain.contains("+book"), "{plain}");
    let booked = table(&["--book", "a"]);
    assert!(booked.contains("A level 10+book"), "{booked}");
}

#[cfg(feature = "lab")]
#[test]
fn a_match_measures_a_network_file_against_the_embedded_network() {
    let dir = tempfile::tempdir().unwrap();
    let net = dir.path().join("gen9.bin");
    std::fs::write(&net, include_bytes!("../../src/engine/net.bin")).unwrap();
    let net = net.to_str().unwrap();
    let o = run(&[
        "match",
        "--net-b",
        net,
        "--games",
        "2",
        "--movetime",
        "5",
        "--max-plies",
        "10",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("B level 10+gen9.bin "), "{out}");
    // A file that is not a network is named, with why, before any game.
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, "not a network").unwrap();
    let o = run(&["match", "--net-a", junk.to_str().unwrap(), "--games", "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(!stdout(&o).contains("game 1:"));
    assert!(
        stderr(&o).contains(&format!(
            "--net-a {}: not a checkers network file",
            junk.display()
        )),
        "{}",
        stderr(&o)
    );
    // So is one cut short, and a FIFO is not waited on.
    let cut = dir.path().join("cut.bin");
    let data = dir.path().join("data.txt");
    std::fs::write(&cut, &include_bytes!("../../src/engine/net.bin")[..1000]).unwrap();
    let o = run(&[
        "selfplay",
        "--eval",
        "net",
        "--net",
        cut.to_str().unwrap(),
        "--out",
        data.to_str().unwrap(),
        "--games",
        "1",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        !data.exists(),
        "nothing is written before the network is read"
    );
    assert!(
        stderr(&o).contains("cut.bin: a network file has "),
        "{}",
        stderr(&o)
    );
    let fifo = dir.path().join("fifo.bin");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    assert!(made.unwrap().success());
    let o = run(&["match", "--net-b", fifo.to_str().unwrap(), "--games", "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!(
            "--net-b {}: it is a FIFO (named pipe), not a regular file",
            fifo.display()
        )),
        "{}",
        stderr(&o)
    );
}

/// A record of three moves, the third of which cannot be played (Black's 9-14 after
/// 9-13: no man on 9).
const FAULTY_THIRD_MOVE: &str = "[Event \"Faulty\"]\n[Result \"1-0\"]\n1. 9-13 22-18 2. 9-14 1-0\n";

#[test]
fn analyse_load_searches_a_record_up_to_a_move_that_cannot_be_played_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("faulty.pdn");
    std::fs::write(&path, FAULTY_THIRD_MOVE).unwrap();
    let file = path.to_str().unwrap();
    for report in [false, true] {
        let mut args = vec!["analyse", "--load", file, "--depth", "2"];
        if report {
            args.push("--report");
        }
        let o = run(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert!(
            out.contains("move 2. 9-14 (Black, line 3, column 18): no piece of yours on 9"),
            "the fault, where it is: {out}"
        );
        assert!(
            out.contains("(a move that cannot be played: the move before it is searched)"),
            "{out}"
        );
        // The two moves before it are searched, and the game's 1-0 is not claimed.
        assert!(out.contains(", *, 1 move\n"), "{out}");
        assert!(out.contains("9-13") && out.contains("22-18"), "{out}");
    }
    // A fault at the first move leaves nothing to search: refused.
    std::fs::write(&path, "[Event \"Faulty\"]\n1. 9-18 *\n").unwrap();
    let o = run(&["analyse", "--load", file, "--depth", "2"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("move 1. 9-18"), "{}", stderr(&o));
    assert_eq!(stdout(&o), "");
}
