//! A club's PDN files as an archivist keeps them: a game loaded from one and saved
//! again keeps what the file had, and the `checkers pdn` tools that list, extract and
//! merge games.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// Runs `checkers` with `args` in the data folders of `dir`, `input` on its standard
/// input; returns whether it exited 0, its standard output and its standard error.
fn run(dir: &Path, args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(args)
        .env("XDG_DATA_HOME", dir.join("data"))
        .env("XDG_CONFIG_HOME", dir.join("config"))
        .env("HOME", dir)
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
    (
        out.status.success(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// `text` with every run of white space one space, so that a check does not hang on
/// where the writer wrapped a line.
fn spaced(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Two games; the second with tags of other programs, a comment over two lines and a
/// variation.
const ANNOTATED: &str = "[Event \"Club night\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\
    [Result \"1-0\"]\n1. 11-15 23-19 1-0\n\n\
    [Event \"Open 1950\"]\n[Date \"1950.06.01\"]\n[Black \"Cy\"]\n[White \"Di\"]\n\
    [Annotator \"JS\"]\n[Result \"*\"]\n[WhiteElo \"2100\"]\n\
    {Played in the final round.}\n\
    1. 11-15 {The Old Faithful\nline.} 23-19 (1... 22-18 2. 15x22) 2. 8-11 22-17 *\n";

#[test]
fn a_loaded_game_saved_again_keeps_its_tags_comments_and_variations() {
    // Before, the save wrote the roster tags alone and the bare moves.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("club.pdn");
    std::fs::write(&file, ANNOTATED).unwrap();
    let file = file.to_string_lossy();
    let saved = dir.path().join("saved.pdn");
    let input = format!("save {}\nquit\n", saved.display());
    let (ok, _, err) = run(
        dir.path(),
        &["--plain", "--load", &file, "--game", "2"],
        &input,
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&saved).unwrap();
    let annotator = text.find("[Annotator \"JS\"]").expect(&text);
    let elo = text.find("[WhiteElo \"2100\"]").expect(&text);
    assert!(annotator < elo, "the file's order: {text}");
    assert!(text.contains("{The Old Faithful\nline.}"), "{text}");
    let moves = spaced(&text);
    assert!(
        moves.contains("{Played in the final round.} 1. 11-15"),
        "{text}"
    );
    assert!(
        moves.contains("(1... 22-18 2. 15x22) 2. 8-11 22-17 *"),
        "{text}"
    );

    // Played on: the new move is added, the rest of the record stays.
    let played = dir.path().join("played.pdn");
    let input = format!("9-13\nsave {}\nquit\n", played.display());
    let (ok, _, err) = run(
        dir.path(),
        &["--plain", "--load", &file, "--game", "2"],
        &input,
    );
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&played).unwrap();
    assert!(
        text.contains("[Annotator \"JS\"]\n[WhiteElo \"2100\"]"),
        "{text}"
    );
    let moves = spaced(&text);
    assert!(
        moves.contains("{The Old Faithful line.}")
            && moves.contains("(1... 22-18 2. 15x22) 2. 8-11 22-17 3. 9-13 *"),
        "{text}"
    );
}

#[test]
fn a_second_result_token_is_part_of_its_game_and_pdn_check_warns_of_it() {
    // It was read as a third, empty game: the list and `pdn check` counted 3 games.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("doubled.pdn");
    std::fs::write(
        &file,
        "[Event \"a\"]\n[Result \"1-0\"]\n1. 11-15 23-19 1-0 1-0\n\n[Event \"b\"]\n1. 9-14 *\n",
    )
    .unwrap();
    let file = file.to_string_lossy();
    let (ok, out, err) = run(dir.path(), &["pdn", "check", &file], "");
    assert!(ok, "a warning is no fault: {out}{err}");
    assert_eq!(
        out,
        "game 1, line 3, column 20: warning: a second result token 1-0 after the game's \
         result; it is read as part of game 1 (remove it)\n\
         2 games: 2 replayed, 0 with errors, 1 second result token\n"
    );
    let (ok, out, err) = run(dir.path(), &["--plain", "--load", &file], "quit\n");
    assert!(ok, "{err}");
    assert!(out.contains("This is game 1 of 2 in"), "{out}");
}

#[test]
fn explore_says_a_game_of_another_kind_of_draughts_is_skipped_as_that() {
    // It was counted among the games whose moves do not replay.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("kinds.pdn");
    std::fs::write(
        &file,
        "[GameType \"20\"]\n[Event \"intl\"]\n1. 32-28 19-23 *\n\n\
         [Event \"ok\"]\n1. 11-15 23-19 1-0\n\n[Event \"bad\"]\n1. 11-18 *\n",
    )
    .unwrap();
    let (ok, out, err) = run(
        dir.path(),
        &["explore", "--pdn", &file.to_string_lossy()],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains(
            "1 game read, 1 skipped (their moves do not replay), 1 skipped as another kind \
             of draughts (not GameType 21)\n"
        ),
        "{out}"
    );
}
