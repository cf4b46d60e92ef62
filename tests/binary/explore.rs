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
        stderr(&o).contains("--moves: move 1... 11-15 (White): "),
        "{}",
        stderr(&o)
    );
}

/// A bad move of a list is named by its number in the list, as `pdn check` names a
/// record's (`move 2. 14-19 (Black)`), whatever is wrong with it; move numbers in the
/// list are skipped as a record's are, and a list from a position with White to move
/// starts at `1...` (so Black's first move is `2.`).
#[test]
fn explore_names_the_bad_move_of_the_list_by_its_number() {
    for (args, said) in [
        (
            &["--moves", "11-15 23-19 14-19"][..],
            "checkers: --moves: move 2. 14-19 (Black): no piece of yours on 14",
        ),
        (
            &["--moves", "1. 11-15 23-19 2. 8-11 22-18 3. 15-19"],
            "checkers: --moves: move 3. 15-19 (Black): ",
        ),
        (
            &["--moves", "11-15 23-19 8-11 22-1a"],
            "checkers: --moves: move 2... 22-1a (White): column 5: 'a' is not a square",
        ),
        (
            &["--fen", "W:W21,22,23:B9,10,11", "--moves", "22-18 14-1"],
            "checkers: --moves: move 2. 14-1 (Black)",
        ),
    ] {
        let o = run(&[&["explore"][..], args].concat());
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        assert!(stderr(&o).starts_with(said), "{args:?}: {}", stderr(&o));
        assert_eq!(stdout(&o), "", "{args:?}");
    }
    // Numbers and moves together replay as the plain list does.
    let numbered = run(&["explore", "--moves", "1. 11-15 23-19 2. 8-11"]);
    let plain = run(&["explore", "--moves", "11-15 23-19 8-11"]);
    assert!(numbered.status.success(), "{}", stderr(&numbered));
    assert_eq!(stdout(&numbered), stdout(&plain));
}

#[test]
fn explore_mine_counts_the_games_saved_in_the_data_folder_unfinished_ones_included() {
    let home = tempfile::tempdir().unwrap();
    let games = home.path().join("data").join("checkers").join("games");
    std::fs::create_dir_all(&games).unwrap();
    // A game Black won, and an unfinished one (no result yet).
    std::fs::write(
        games.join("2026-01-01-120000-aaaa.pdn"),
        "[Event \"Casual\"]\n[Result \"1-0\"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n",
    )
    .unwrap();
    std::fs::write(
        games.join("2026-01-02-120000-bbbb.pdn"),
        "[Event \"Casual\"]\n[Result \"*\"]\n\n1. 11-15 24-20 *\n",
    )
    .unwrap();
    let explore = |moves: &str| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
            .args(["explore", "--mine", "--moves", moves])
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", stderr(&o));
        stdout(&o)
    };
    let out = explore("");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0], "move      games  black  draws  white  Black%  opening",
        "{out}"
    );
    // Both games played 11-15; only the finished one has a result.
    assert!(
        lines[1].starts_with("11-15         2      1      0      0  100.0%"),
        "{out}"
    );
    assert_eq!(lines.len(), 3, "{out}");
    // Nothing was skipped: no reason given for nothing.
    assert_eq!(lines[2], "2 games read", "{out}");
    let out = explore("11-15");
    assert!(
        out.contains("\n23-19         1      1      0      0"),
        "{out}"
    );
    assert!(
        out.contains("\n24-20         1      0      0      0       -"),
        "{out}"
    );
}

/// An empty collection is said as such, not as a position no game reaches: an empty
/// PDN file is refused as `analyse --load` refuses it, no saved game yet is said with the
/// folder the games go to; a file's games that do not replay point to `pdn check`.
#[test]
fn explore_says_when_the_collection_is_empty_and_where_skipped_games_are_listed() {
    let home = tempfile::tempdir().unwrap();
    let explore = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
            .arg("explore")
            .args(args)
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .current_dir(home.path())
            .output()
            .unwrap()
    };
    std::fs::write(home.path().join("empty.pdn"), "").unwrap();
    let o = explore(&["--pdn", "empty.pdn"]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(stderr(&o), "checkers: empty.pdn holds no PDN game\n");
    assert_eq!(stdout(&o), "");

    let o = explore(&["--mine"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let games = home.path().join("data").join("checkers").join("games");
    assert_eq!(
        stdout(&o),
        format!(
            "no game of yours is saved yet: each game you play is kept in {} as it is played\n",
            games.display()
        )
    );

    std::fs::write(
        home.path().join("two.pdn"),
        "[Result \"1-0\"]\n1. 11-15 23-19 1-0\n\n[Result \"*\"]\n1. 11-15 11-15 *\n",
    )
    .unwrap();
    // A multi-jump by its route, as the game shows it (its record keeps 32x7), the
    // column as wide as the route.
    let fen = "W:W32,30:B27,19,11,3,1";
    std::fs::write(
        home.path().join("route.pdn"),
        format!("[SetUp \"1\"]\n[FEN \"{fen}\"]\n1. 32x7 *\n"),
    )
    .unwrap();
    let o = explore(&["--pdn", "route.pdn", "--fen", fen]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(
            "move        games  black  draws  white  White%  opening\n\
             32x23x16x7      1      0      0      0       -\n"
        ),
        "{out}"
    );
    let o = explore(&["--pdn", "two.pdn"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\n11-15         1      1"), "{out}");
    assert!(
        out.ends_with(
            "1 game read, 1 skipped (their moves do not replay)\n\
             checkers pdn check two.pdn lists the games skipped, each with its faulty move\n"
        ),
        "{out}"
    );
}

/// A file that is no PDN at all is refused with why, as `analyse --load` refuses it: it
/// was counted as "0 games read, 1 skipped (their moves do not replay)", with `pdn
/// check` offered to list faulty moves that it does not have.
#[test]
fn explore_refuses_a_file_that_is_not_pdn_and_says_why() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("notes.txt");
    std::fs::write(
        &path,
        "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n",
    )
    .unwrap();
    let o = run(&["explore", "--pdn", path.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2), "{}", stdout(&o));
    assert_eq!(stdout(&o), "");
    assert_eq!(
        stderr(&o),
        format!(
            "checkers: {} holds no game: it is not a PDN file: no tag, no move number, \
             nothing that reads as a game (it begins \"root:x:0:0:root:/root:/bin/bash\")\n",
            path.display()
        )
    );
}
