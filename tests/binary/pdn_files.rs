//! A club's PDN files as an archivist keeps them: a game loaded from one and saved
//! again keeps what the file had, and the `checkers pdn` tools that list, extract and
//! merge games.

use std::path::Path;
use std::process::Command;

/// Runs `checkers` with `args` in the data folders of `dir`, `input` on its standard
/// input; returns whether it exited 0, its standard output and its standard error.
fn run(dir: &Path, args: &[&str], input: &str) -> (bool, String, String) {
    let out = crate::common::command::output_piped_in(dir, args, input);
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
    // A line break in a comment reads as a space, as the writer's own breaks do (a
    // long comment is wrapped at its spaces).
    assert!(text.contains("{The Old Faithful line.}"), "{text}");
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

/// Three games of a club's file: two of Ann's, one a draw, and one of another event.
const CLUB: [&str; 3] = [
    "[Event \"Club night\"]\n[Date \"2026.03.01\"]\n[Black \"Ann Lee\"]\n[White \"Bob\"]\n\
     [Result \"1-0\"]\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n",
    "[Event \"Club night\"]\n[Date \"2026.03.08\"]\n[Black \"Cy\"]\n[White \"ANN LEE\"]\n\
     [Result \"1/2-1/2\"]\n{A quiet game}\n1. 9-14 22-18 1/2-1/2\n\n",
    "[Event \"County open\"]\n[Black \"Di\"]\n[White \"Ed\"]\n[Result \"0-1\"]\n\
     1. 11-15 23-19 2. 9-13 0-1\n\n",
];

/// The club's file in `dir`, and its name as an argument.
fn club_file(dir: &Path) -> String {
    let file = dir.join("club.pdn");
    std::fs::write(&file, CLUB.concat()).unwrap();
    file.to_string_lossy().into_owned()
}

#[test]
fn pdn_list_gives_a_line_a_game_and_filters_by_player_event_result_and_opening() {
    let dir = tempfile::tempdir().unwrap();
    let file = club_file(dir.path());
    let (ok, out, err) = run(dir.path(), &["pdn", "list", &file], "");
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "  game date       white          black          event            result  moves"
    );
    assert_eq!(
        lines[1],
        "     1 2026.03.01 Bob            Ann Lee        Club night       1-0         2"
    );
    // An unknown date is blank, not a `?` standing for nothing.
    assert_eq!(
        lines[3],
        "     3            Ed             Di             County open      0-1         2"
    );
    assert_eq!(lines[4], "3 games");
    assert!(lines.iter().all(|l| l.chars().count() <= 79), "{out}");
    let numbers = |args: &[&str]| {
        let mut all = vec!["pdn", "list", &file];
        all.extend(args);
        let (ok, out, err) = run(dir.path(), &all, "");
        assert!(ok, "{args:?}: {err}");
        // A game's row starts with its number, right-aligned; the header and the count
        // do not.
        out.lines()
            .skip(1)
            .filter(|l| l.starts_with(' '))
            .filter_map(|l| l.split_whitespace().next()?.parse::<usize>().ok())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        numbers(&["--player", "ann lee"]),
        [1, 2],
        "either side, any case"
    );
    assert_eq!(numbers(&["--event", "county"]), [3]);
    assert_eq!(numbers(&["--result", "1/2-1/2"]), [2]);
    assert_eq!(numbers(&["--opening", "11-15 23-19"]), [1, 3]);
    assert_eq!(numbers(&["--opening", "1. 11-15 23-19 2. 8-11"]), [1]);
    assert_eq!(numbers(&["--player", "ann", "--result", "1-0"]), [1]);
    let (_, out, _) = run(dir.path(), &["pdn", "list", &file, "--event", "club"], "");
    assert!(out.ends_with("\n2 of 3 games\n"), "{out}");
    // An opening that cannot be played is said, not matched by nothing.
    let (ok, _, err) = run(
        dir.path(),
        &["pdn", "list", &file, "--opening", "11-16 16-20"],
        "",
    );
    assert!(
        !ok && err.contains("--opening: 16-20 cannot be played after 1 move(s)"),
        "{err}"
    );
}

#[test]
fn pdn_extract_writes_the_chosen_games_byte_for_byte_and_never_replaces_a_file_unasked() {
    let dir = tempfile::tempdir().unwrap();
    let file = club_file(dir.path());
    let out_path = dir.path().join("ann.pdn");
    let out_arg = out_path.to_string_lossy().into_owned();
    let (ok, out, err) = run(
        dir.path(),
        &[
            "pdn", "extract", &file, "--player", "ANN", "--output", &out_arg,
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("2 games of"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&out_path).unwrap(),
        CLUB[0].to_string() + CLUB[1]
    );
    // There already: left as it is unless --force.
    let (ok, _, err) = run(
        dir.path(),
        &[
            "pdn", "extract", &file, "--games", "3", "--output", &out_arg,
        ],
        "",
    );
    assert!(
        !ok && err.contains("exists: give --force to replace it"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&out_path).unwrap(),
        CLUB[0].to_string() + CLUB[1]
    );
    let (ok, _, err) = run(
        dir.path(),
        &[
            "pdn", "extract", &file, "--games", "1,3-3", "--output", &out_arg, "--force",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert_eq!(
        std::fs::read_to_string(&out_path).unwrap(),
        CLUB[0].to_string() + CLUB[2]
    );
    // No temporary file is left beside it.
    let names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(names.is_empty(), "{names:?}");
}

#[test]
fn pdn_merge_concatenates_and_dedupe_drops_a_game_seen_before_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let a = club_file(dir.path());
    let b = dir.path().join("b.pdn");
    // The club's first game again (other tags, same moves, players, result), and a
    // new one, the last without a line end.
    let again = "[Event \"Copy\"]\n[Black \"Ann Lee\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n\
                 1. 11-15 23-19 2. 8-11 22-17 1-0\n\n";
    let new = "[Event \"New\"]\n[Black \"Fay\"]\n[White \"Gil\"]\n1. 10-14 *";
    std::fs::write(&b, format!("{again}{new}")).unwrap();
    let b = b.to_string_lossy().into_owned();
    let merged = dir.path().join("all.pdn");
    let merged_arg = merged.to_string_lossy().into_owned();
    let (ok, out, err) = run(
        dir.path(),
        &["pdn", "merge", &a, &b, "--output", &merged_arg],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.contains("5 games of 2 files written to"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        format!("{}{again}{new}\n\n", CLUB.concat())
    );
    let (ok, out, err) = run(
        dir.path(),
        &[
            "pdn",
            "merge",
            &a,
            &b,
            "--output",
            &merged_arg,
            "--dedupe",
            "--force",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(out.ends_with(", 1 duplicate dropped\n"), "{out}");
    assert_eq!(
        std::fs::read_to_string(&merged).unwrap(),
        format!("{}{new}\n\n", CLUB.concat())
    );
}

#[test]
fn pdn_tools_name_the_file_and_game_of_bad_input_and_lose_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let a = club_file(dir.path());
    let out_path = dir.path().join("out.pdn");
    let out_arg = out_path.to_string_lossy().into_owned();
    // A file that is not there, a folder: said, and nothing written.
    let missing = dir
        .path()
        .join("missing.pdn")
        .to_string_lossy()
        .into_owned();
    let folder = dir.path().to_string_lossy().into_owned();
    for bad in [&missing, &folder] {
        let (ok, _, err) = run(
            dir.path(),
            &["pdn", "merge", &a, bad, "--output", &out_arg],
            "",
        );
        assert!(!ok && err.contains(bad.as_str()), "{err}");
        assert!(!out_path.exists(), "{err}");
        let (ok, _, err) = run(dir.path(), &["pdn", "list", bad], "");
        assert!(!ok && err.contains(bad.as_str()), "{err}");
    }
    #[cfg(unix)]
    {
        let fifo = dir.path().join("pipe.pdn");
        assert!(
            Command::new("mkfifo")
                .arg(&fifo)
                .status()
                .unwrap()
                .success()
        );
        let fifo = fifo.to_string_lossy().into_owned();
        let (ok, _, err) = run(
            dir.path(),
            &["pdn", "extract", &fifo, "--output", &out_arg],
            "",
        );
        assert!(!ok && err.contains(&fifo), "{err}");
        assert!(!out_path.exists());
    }
    // A game that does not replay is named with its file and number, and kept.
    let faulty = dir.path().join("faulty.pdn");
    let bad_game = "[Event \"Bad\"]\n1. 11-15 23-19 2. 8-12 *\n\n";
    std::fs::write(&faulty, format!("{}{bad_game}", CLUB[2])).unwrap();
    let faulty = faulty.to_string_lossy().into_owned();
    let (ok, out, err) = run(
        dir.path(),
        &[
            "pdn", "merge", &a, &faulty, "--output", &out_arg, "--dedupe",
        ],
        "",
    );
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!("warning: {faulty}: game 2")) && out.contains("written as it is"),
        "{out}"
    );
    assert!(
        std::fs::read_to_string(&out_path)
            .unwrap()
            .ends_with(bad_game)
    );
    let (ok, out, _) = run(dir.path(), &["pdn", "list", &faulty], "");
    assert!(ok && out.contains("     2 does not read: game 2"), "{out}");
}

#[cfg(unix)]
#[test]
fn a_full_disk_leaves_no_half_file() {
    let dir = tempfile::tempdir().unwrap();
    let big = dir.path().join("big.pdn");
    // Some 40 kB, past the 4 kB the shell's limit lets a file grow to.
    std::fs::write(&big, CLUB.concat().repeat(60)).unwrap();
    let out_path = dir.path().join("out.pdn");
    let script = format!(
        "ulimit -f 8; trap '' XFSZ; exec '{}' pdn extract '{}' --output '{}'",
        env!("CARGO_BIN_EXE_checkers"),
        big.display(),
        out_path.display()
    );
    let o = Command::new("sh").arg("-c").arg(&script).output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("cannot write") && err.contains("nothing was written"),
        "{err}"
    );
    assert!(!out_path.exists(), "no half file: {err}");
    let left: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "only the file read is there: {left:?}");
}

#[test]
fn pdn_list_leaves_the_date_column_out_where_no_game_gives_a_date() {
    // Every row said `?` under "date" for a file with no Date tags; then the column
    // stayed, blank in every row, taking 11 columns from the names.
    let dir = tempfile::tempdir().unwrap();
    let text = "[Event \"Casual\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n1. 11-15 *\n\n\
                [Event \"Casual\"]\n[Date \"????.??.??\"]\n[Black \"Cy\"]\n1. 9-14 *\n";
    let (ok, out, err) = run(dir.path(), &["pdn", "list", "-"], text);
    assert!(ok, "{err}");
    assert_eq!(
        out,
        "  game white          black          event            result  moves\n\
         \x20    1 Bob            Ann            Casual           *           1\n\
         \x20    2 ?              Cy             Casual           *           1\n\
         2 games\n"
    );
    // One game with a date keeps the column, blank for the others.
    let dated = format!("{text}\n[Event \"Club\"]\n[Date \"1975.06.01\"]\n1. 9-13 *\n");
    let (ok, out, err) = run(dir.path(), &["pdn", "list", "-"], &dated);
    assert!(ok, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[..2],
        [
            "  game date       white          black          event            result  moves",
            "     1            Bob            Ann            Casual           *           1"
        ],
        "{out}"
    );
    assert!(lines[3].starts_with("     3 1975.06.01 ?"), "{out}");
}

#[test]
fn pdn_extract_and_merge_read_standard_input_and_write_standard_output_given_dash() {
    // Both refused `-`: "extract reads a file, which it reads twice: save the input
    // first".
    let dir = tempfile::tempdir().unwrap();
    let file = club_file(dir.path());
    let club = CLUB.concat();
    // A pipe in and a pipe out: the games alone on standard output, what is said on
    // standard error.
    let (ok, out, err) = run(
        dir.path(),
        &["pdn", "extract", "-", "--player", "ann", "--output", "-"],
        &club,
    );
    assert!(ok, "{err}");
    assert_eq!(out, CLUB[0].to_string() + CLUB[1]);
    assert!(
        err.contains("2 games of standard input (3 read) written to standard output"),
        "{err}"
    );
    // From standard input to a new file, which is never replaced unasked.
    let to = dir.path().join("picked.pdn");
    let to_arg = to.to_string_lossy().into_owned();
    let (ok, out, err) = run(
        dir.path(),
        &["pdn", "extract", "-", "--games", "3", "--output", &to_arg],
        &club,
    );
    assert!(ok, "{err}");
    assert!(
        out.contains("1 game of standard input (3 read) written to"),
        "{out}"
    );
    assert_eq!(std::fs::read_to_string(&to).unwrap(), CLUB[2]);
    let (ok, _, err) = run(
        dir.path(),
        &["pdn", "extract", "-", "--games", "1", "--output", &to_arg],
        &club,
    );
    assert!(!ok && err.contains("exists: give --force"), "{err}");
    assert_eq!(std::fs::read_to_string(&to).unwrap(), CLUB[2]);
    // Merge: a file and standard input, in the order given, to standard output.
    let piped = "[Event \"Piped\"]\n[Black \"Fay\"]\n1. 10-14 *\n";
    let (ok, out, err) = run(
        dir.path(),
        &["pdn", "merge", &file, "-", "--output", "-"],
        piped,
    );
    assert!(ok, "{err}");
    assert_eq!(out, format!("{club}{piped}\n"));
    assert!(
        err.contains("4 games of 2 files written to standard output"),
        "{err}"
    );
    // Standard input can be read once.
    let (ok, _, err) = run(
        dir.path(),
        &["pdn", "merge", "-", "-", "--output", "-"],
        piped,
    );
    assert!(!ok && err.contains("named twice"), "{err}");
}
