//! `checkers pdn`: work with PDN game records.

mod curate;

use super::CommandError;
use crate::cli::{CheckArgs, PdnArgs, PdnCommand};
use crate::pdn::{GameError, GameErrorKind, PdnGame, Place, StrayResult};
use crate::store::{StoreError, file_games};
use crate::text::printable;
use std::io::Write;
use std::path::Path;

/// The longest line of the report (a faulty game and why): text from the file is
/// already cut short in it, this only bounds the whole.
const REPORT_LINE_CHARS: usize = 1000;

/// The result of `checkers pdn check`: how many games, how many replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CheckSummary {
    /// Games in the file.
    pub(crate) games: usize,
    /// Games that replayed to their end.
    pub(crate) replayed: usize,
}

/// Runs a `checkers pdn` subcommand.
pub(crate) fn run(args: &PdnArgs, out: &mut impl Write) -> Result<(), CommandError> {
    match &args.action {
        PdnCommand::Check(args) => run_check(args, out),
        PdnCommand::List(args) => curate::run_list(args, out),
        PdnCommand::Extract(args) => curate::run_extract(args, out),
        PdnCommand::Merge(args) => curate::run_merge(args, out),
    }
}

/// Runs `checkers pdn check FILE`, as [`check`] does; a file with a faulty game is
/// [`CommandError::FaultyGames`].
pub(crate) fn run_check(args: &CheckArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let summary = check(&args.file, out)?;
    if summary.replayed == summary.games {
        Ok(())
    } else {
        Err(CommandError::FaultyGames(summary))
    }
}

/// Reads and replays every game of `file`: each faulty game on a line of `out` (text
/// from the file shown without control characters and cut short), and each game whose
/// `Result` tag and result token differ, then `N games: K replayed, E with errors`
/// (and `, D whose Result tag and result token differ` when there are any, and
/// `, S second result tokens`, each pointed out as a warning: `1-0 1-0`). The file is streamed and its games read one at a time,
/// so memory stays that of the largest game. A file that cannot be read, is not a
/// regular file (a FIFO, a device), or holds no game, is an error naming it. `-` is
/// standard input, read whole first.
pub(crate) fn check(file: &Path, out: &mut impl Write) -> Result<CheckSummary, CommandError> {
    let mut games = file_games(file).map_err(CommandError::CheckFile)?;
    let (mut count, mut replayed, mut in_doubt, mut strays) = (0, 0, 0, 0);
    // Result tokens before the first game: no game, said apart from second ones.
    let mut leading = 0;
    while let Some(game) = games.next() {
        if count == 0
            && let Some((line, column, begins)) = games.leading_text()
        {
            writeln!(
                out,
                "line {line}, column {column}: warning: text before the first game is no PDN \
                 (it begins \"{}\"); it is left out, and the games are numbered from the \
                 first after it",
                printable(begins, 40)
            )
            .map_err(CommandError::CheckOutput)?;
        }
        // Read on the way to this game: they belong to the games before it.
        for stray in games.take_strays() {
            if stray.game == 0 {
                leading += 1;
            } else {
                strays += 1;
            }
            writeln!(out, "{}", stray_line(&stray)).map_err(CommandError::CheckOutput)?;
        }
        count += 1;
        match game {
            Ok(record) => {
                replayed += 1;
                if let Some(line) = result_conflict(count, &record, games.last_place()) {
                    in_doubt += 1;
                    writeln!(out, "{}", printable(&line, REPORT_LINE_CHARS))
                        .map_err(CommandError::CheckOutput)?;
                }
            }
            // Text that is no PDN, and no game after it: the file holds none.
            Err(e) if no_game_in(&e).is_some() => {
                return Err(no_game_error(file, &e));
            }
            Err(e) => {
                // A game the file ends in, at its fault, says which file may be cut short.
                let named = match e.cut_off {
                    Some(_) => format!("{}: {e}", crate::store::shown_path(file).display()),
                    None => e.to_string(),
                };
                writeln!(out, "{}", printable(&named, REPORT_LINE_CHARS))
                    .map_err(CommandError::CheckOutput)?;
            }
        }
    }
    for stray in games.take_strays() {
        strays += 1;
        writeln!(out, "{}", stray_line(&stray)).map_err(CommandError::CheckOutput)?;
    }
    if count == 0 {
        // Nothing was checked: not a clean file (a mistaken path, most often).
        return Err(CommandError::CheckFile(StoreError::NoGames(
            crate::store::shown_path(file),
        )));
    }
    let errors = count - replayed;
    let doubts = match in_doubt {
        0 => String::new(),
        1 => ", 1 whose Result tag and result token differ".to_string(),
        n => format!(", {n} whose Result tag and result token differ"),
    };
    let mut doubled = match strays {
        0 => String::new(),
        1 => ", 1 second result token".to_string(),
        n => format!(", {n} second result tokens"),
    };
    if games.leading_text().is_some() {
        doubled.push_str(", text before the first game left out");
    }
    match leading {
        0 => {}
        1 => doubled.push_str(", 1 result token before the first game"),
        n => doubled.push_str(&format!(", {n} result tokens before the first game")),
    }
    writeln!(
        out,
        "{count} game{}: {replayed} replayed, {errors} with errors{doubts}{doubled}",
        if count == 1 { "" } else { "s" }
    )
    .map_err(CommandError::CheckOutput)?;
    Ok(CheckSummary {
        games: count,
        replayed,
    })
}

/// The first word of a text that is no PDN and holds no game, when `e` says so: the
/// text's one "game" is then no game ([`GameErrorKind::NotPdn`]).
pub(super) fn no_game_in(e: &GameError) -> Option<&str> {
    match &e.kind {
        GameErrorKind::NotPdn { begins, .. } => Some(begins),
        _ => None,
    }
}

/// The error for `file`, a text that is no PDN, when its one "game" `e` says so
/// ([`no_game_in`]); else the file holds no game.
pub(super) fn no_game_error(file: &Path, e: &GameError) -> CommandError {
    let shown = crate::store::shown_path(file);
    CommandError::CheckFile(match no_game_in(e) {
        Some(begins) => StoreError::NoPdnText(shown, begins.to_string()),
        None => StoreError::NoGames(shown),
    })
}

/// The warning for a result token after a game's own result (`1-0 1-0`): read as part
/// of that game, not as a game of its own; or before the first game, read as none.
fn stray_line(stray: &StrayResult) -> String {
    if stray.game == 0 {
        return format!(
            "line {}, column {}: warning: a result token {} before the first game; it is \
             no game and is left out (remove it)",
            stray.line,
            stray.column,
            printable(&stray.token, 20),
        );
    }
    format!(
        "game {}, line {}, column {}: warning: a second result token {} after the game's \
         result; it is read as part of game {} (remove it)",
        stray.game,
        stray.line,
        stray.column,
        printable(&stray.token, 20),
        stray.game
    )
}

/// The line of the report for game `number` (starting at `place`) when its `Result`
/// tag and its result token name different endings: which each says, and which one
/// the program reads it by.
fn result_conflict(number: usize, record: &PdnGame, place: Option<Place>) -> Option<String> {
    let (tag, token) = record.result_conflict()?;
    let read_as = record.recorded_result().unwrap_or(tag);
    let by = if read_as == tag { "tag" } else { "token" };
    let event = record
        .tag("Event")
        .map_or_else(String::new, |e| format!(" ({:?})", printable(e, 40)));
    let line = place.map_or_else(String::new, |p| format!(", from line {}", p.line));
    Some(format!(
        "game {number}{event}{line}: its Result tag says {tag} but its movetext ends in \
         {token}; it is read as {read_as}, the {by}'s result (correct the one that is wrong)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_token_before_the_first_game_is_a_warning_not_a_game() {
        // It was read as an empty game 1: listed, extracted and merged as one.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("leading.pdn");
        std::fs::write(
            &file,
            "1-0\n\n[Event \"Club\"]\n[Black \"Ann\"]\n1. 11-15 23-19 *\n",
        )
        .unwrap();
        let mut out = Vec::new();
        let summary = check(&file, &mut out).unwrap();
        assert_eq!((summary.games, summary.replayed), (1, 1));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "line 1, column 1: warning: a result token 1-0 before the first game; it is no \
             game and is left out (remove it)\n\
             1 game: 1 replayed, 0 with errors, 1 result token before the first game\n"
        );
        let mut out = Vec::new();
        let args = crate::cli::ListArgs {
            file: file.clone(),
            filters: crate::cli::GameFilters::default(),
        };
        curate::run_list(&args, &mut out).unwrap();
        let listed = String::from_utf8(out).unwrap();
        let rows: Vec<&str> = listed.lines().collect();
        assert_eq!(rows.len(), 3, "{listed}");
        assert!(
            rows[1].contains("Ann") && rows[1].contains("Club"),
            "{listed}"
        );
        assert_eq!(rows[2], "1 game");
    }

    #[test]
    fn text_before_the_first_game_is_a_warning_and_the_games_are_numbered_after_it() {
        // It was listed as game 1, "this is not a PDN file", and the real games as 2
        // and 3 ("2.1" in it made it a faulty move instead).
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("banner.pdn");
        std::fs::write(
            &file,
            "Exported by PDN Tool 2.1 on a sunny day.\nThe club's games.\n\n\
             [Event \"Club\"]\n[Black \"Ann\"]\n1. 11-15 23-19 1-0\n\n\
             [Event \"Club\"]\n[Black \"Cy\"]\n1. 9-14 *\n",
        )
        .unwrap();
        let mut out = Vec::new();
        let summary = check(&file, &mut out).unwrap();
        assert_eq!((summary.games, summary.replayed), (2, 2));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "line 1, column 1: warning: text before the first game is no PDN (it begins \
             \"Exported\"); it is left out, and the games are numbered from the first after \
             it\n\
             2 games: 2 replayed, 0 with errors, text before the first game left out\n"
        );
        let mut out = Vec::new();
        let args = crate::cli::ListArgs {
            file: file.clone(),
            filters: crate::cli::GameFilters::default(),
        };
        curate::run_list(&args, &mut out).unwrap();
        let listed = String::from_utf8(out).unwrap();
        let rows: Vec<&str> = listed.lines().collect();
        assert_eq!(rows.len(), 4, "{listed}");
        assert!(
            rows[1].starts_with("     1 ") && rows[1].contains("Ann"),
            "{listed}"
        );
        assert!(
            rows[2].starts_with("     2 ") && rows[2].contains("Cy"),
            "{listed}"
        );
    }

    #[test]
    fn a_text_that_holds_no_game_is_said_so_without_a_game_number() {
        // It said "game 1, line 1, column 1: this is not a PDN file", as if it held one.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("note.pdn");
        std::fs::write(&file, "Hello there, a note and no game.\n").unwrap();
        let mut out = Vec::new();
        let refused = check(&file, &mut out).unwrap_err().to_string();
        assert!(
            refused.ends_with(
                "note.pdn holds no game: it is not a PDN file: no tag, no move number, \
                 nothing that reads as a game (it begins \"Hello\")"
            ),
            "{refused}"
        );
        assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
        let args = crate::cli::ListArgs {
            file: file.clone(),
            filters: crate::cli::GameFilters::default(),
        };
        let refused = curate::run_list(&args, &mut out).unwrap_err().to_string();
        assert!(
            refused.contains("note.pdn holds no game: it is not"),
            "{refused}"
        );
        // A lone result token is still one empty game.
        std::fs::write(&file, "*").unwrap();
        let summary = check(&file, &mut out).unwrap();
        assert_eq!((summary.games, summary.replayed), (1, 1));
    }

    #[test]
    fn a_file_of_binary_data_is_said_to_be_no_text_not_read_as_moves() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("junk.pdn");
        let mut junk = b"[Event \"x\"]\n1. 11-15 )(".to_vec();
        junk.extend([0x8f, 0x00, 0xff, 0x13]);
        std::fs::write(&file, &junk).unwrap();
        let mut out = Vec::new();
        let refused = check(&file, &mut out).unwrap_err().to_string();
        assert!(
            refused.ends_with(
                "junk.pdn is not a PDN file: it is not text (byte 25 is a NUL, as in binary \
                 data or UTF-16 text; PDN is read as UTF-8 or Latin-1)"
            ),
            "{refused}"
        );
        assert!(out.is_empty(), "{}", String::from_utf8_lossy(&out));
        // Latin-1 text (no NUL) is still read.
        std::fs::write(&file, b"[Event \"Caf\xe9\"]\n1. 11-15 23-19 *\n").unwrap();
        let summary = check(&file, &mut out).unwrap();
        assert_eq!((summary.games, summary.replayed), (1, 1));
    }

    #[test]
    fn a_game_whose_result_tag_and_token_differ_is_pointed_out() {
        // It was passed over in silence, though the file says two things.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("results.pdn");
        let text = "[Event \"fine\"]\n[Result \"1-0\"]\n1. 11-15 1-0\n\n\
                    [Event \"Club final\"]\n[Result \"1/2-1/2\"]\n1. 11-15 23-19 1-0\n\n\
                    [Event \"points\"]\n[Result \"2-0\"]\n1. 9-14 1-0\n\n\
                    [Event \"cut\"]\n[Result \"*\"]\n1. 9-14 0-1\n";
        std::fs::write(&file, text).unwrap();
        let mut out = Vec::new();
        let summary = check(&file, &mut out).unwrap();
        assert_eq!((summary.games, summary.replayed), (4, 4));
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "game 2 (\"Club final\"), from line 5: its Result tag says 1/2-1/2 but its \
             movetext ends in 1-0; it is read as 1/2-1/2, the tag's result (correct the one \
             that is wrong)\n\
             game 4 (\"cut\"), from line 13: its Result tag says * but its movetext ends in \
             0-1; it is read as 0-1, the token's result (correct the one that is wrong)\n\
             4 games: 4 replayed, 0 with errors, 2 whose Result tag and result token differ\n"
        );
    }

    /// `pdn check` of `text` in a file: its report and summary, or its refusal.
    fn checked(text: &[u8]) -> Result<(String, CheckSummary), String> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("games.pdn");
        std::fs::write(&file, text).unwrap();
        let mut out = Vec::new();
        check(&file, &mut out)
            .map(|summary| (String::from_utf8(out).unwrap(), summary))
            .map_err(|e| e.to_string())
    }

    #[test]
    fn a_game_without_tags_after_text_that_is_no_pdn_is_a_game() {
        // The file was said to hold no game: "1. 11-15 23-19 *" was read as more of
        // the banner.
        let (report, summary) =
            checked(b"Exported by X\n\n1. 11-15 23-19 *\n\n1. 9-14 22-18 1-0\n").unwrap();
        assert_eq!((summary.games, summary.replayed), (2, 2), "{report}");
        assert!(
            report.starts_with(
                "line 1, column 1: warning: text before the first game is no PDN (it begins \
                 \"Exported\")"
            ),
            "{report}"
        );
        // "version 2.1" is no move number of a game: the text is still no game.
        let refused = checked(b"PDN Tool version 2.1 by X\n").unwrap_err();
        assert!(refused.contains("holds no game"), "{refused}");
        // The listing shows the game's moves, from its move number.
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("export.pdn");
        std::fs::write(&file, "Exported by X\n\n1. 11-15 23-19 2. 8-11 *\n").unwrap();
        let mut out = Vec::new();
        let args = crate::cli::ListArgs {
            file,
            filters: crate::cli::GameFilters::default(),
        };
        curate::run_list(&args, &mut out).unwrap();
        let listed = String::from_utf8(out).unwrap();
        let rows: Vec<&str> = listed.lines().collect();
        assert_eq!(rows.len(), 3, "{listed}");
        assert!(
            rows[1].starts_with("     1 ") && rows[1].ends_with(" 2"),
            "{listed}"
        );
        // A game without tags starts at its move number (extract copies it from there),
        // never at one the game before left with no move after it.
        let mut games = crate::pdn::games("[Event \"a\"]\n1. 11-15 2. *\n\n1. 9-14 *\n");
        let places: Vec<(usize, usize)> = std::iter::from_fn(|| {
            games.next()?.unwrap();
            games.last_place().map(|p| (p.line, p.column))
        })
        .collect();
        assert_eq!(places, [(1, 1), (4, 1)]);
    }

    #[test]
    fn an_unclosed_bracket_in_text_before_the_first_game_hides_no_game() {
        // The '(' or '{' read on to the end: one faulty game, the others lost.
        for opened in ["(see below", "{see below", "(a {note) }"] {
            let text = format!(
                "A note {opened}\n\n[Event \"a\"]\n1. 11-15 *\n\n[Event \"b\"]\n1. 9-14 {{good}} \
                 (1. 10-14) 22-18 *\n"
            );
            let (report, summary) = checked(text.as_bytes()).unwrap();
            assert_eq!(
                (summary.games, summary.replayed),
                (2, 2),
                "{opened}: {report}"
            );
            assert!(
                report.ends_with(
                    "2 games: 2 replayed, 0 with errors, text before the first game left out\n"
                ),
                "{report}"
            );
        }
        // A game's own comment never closed is still its fault, said where it opens.
        let (report, _) = checked(b"[Event \"a\"]\n1. 11-15 {never closed\n").unwrap();
        assert!(
            report.contains("line 2, column 10: comment '{' never closed"),
            "{report}"
        );
        // One never closed before the next game's tags ends its game there: the games
        // after it are read.
        let text =
            b"[Event \"a\"]\n1. 11-15 {stray\n\n[Event \"b\"]\n1. 9-14 *\n\n[Event \"c\"]\n*\n";
        let (report, summary) = checked(text).unwrap();
        assert_eq!((summary.games, summary.replayed), (3, 2), "{report}");
        assert!(
            report.contains(
                "line 2, column 10: comment '{' at line 2 column 10 is not closed before the \
                 next game's tags at line 4"
            ),
            "{report}"
        );
        // So does a variation never closed, or a comment never closed in one.
        for (opened, said) in [
            (
                "(23-19",
                "line 2, column 10: variation '(' at line 2 column 10 is not closed before \
                 the next game's tags at line 4",
            ),
            (
                "(23-19 {a note",
                "line 2, column 17: comment '{' at line 2 column 17 (in the variation '(' at \
                 line 2 column 10) is not closed before the next game's tags at line 4",
            ),
        ] {
            let text = format!(
                "[Event \"a\"]\n1. 11-15 {opened}\n\n[Event \"b\"]\n1. 9-14 *\n\n[Event \"c\"]\n*\n"
            );
            let (report, summary) = checked(text.as_bytes()).unwrap();
            assert_eq!((summary.games, summary.replayed), (3, 2), "{report}");
            assert!(report.contains(said), "{report}");
        }
    }

    #[test]
    fn a_byte_order_mark_before_latin1_text_is_no_text_before_the_first_game() {
        // It was warned of as text that is no PDN, "it begins \"ï»¿\"".
        let (report, summary) =
            checked(b"\xef\xbb\xbf[Event \"Caf\xe9\"]\r\n1. 11-15 23-19 2-0\r\n").unwrap();
        assert_eq!((summary.games, summary.replayed), (1, 1), "{report}");
        assert_eq!(report, "1 game: 1 replayed, 0 with errors\n");
    }

    #[test]
    fn a_file_whose_lines_end_in_a_lone_carriage_return_reads_line_by_line() {
        // Classic Mac OS line ends: a ';' comment hid every game after it, and a fault
        // was said to be on line 1.
        let (report, summary) = checked(
            b"[Event \"a\"]\r; a note\r1. 11-15 23-19 *\r\r[Event \"b\"]\r1. 11-15 23-33 *\r",
        )
        .unwrap();
        assert_eq!((summary.games, summary.replayed), (2, 1), "{report}");
        assert!(
            report.starts_with("game 2 (\"b\"), move 1... 23-33 (White, line 6, column 13): "),
            "{report}"
        );
        // CRLF line ends count one line each.
        let (report, _) = checked(b"[Event \"a\"]\r\n\r\n1. 11-15 23-33 *\r\n").unwrap();
        assert!(report.contains("line 3, column 13"), "{report}");
    }

    #[test]
    fn merge_refuses_a_file_that_holds_no_game_and_writes_nothing() {
        // A text that is no PDN was copied into the output as a faulty game.
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.pdn");
        std::fs::write(&good, "[Event \"a\"]\n1. 11-15 *\n").unwrap();
        let note = dir.path().join("note.pdn");
        std::fs::write(&note, "Hello there, a note and no game.\n").unwrap();
        let empty = dir.path().join("empty.pdn");
        std::fs::write(&empty, "").unwrap();
        let output = dir.path().join("out.pdn");
        std::fs::write(&output, "kept\n").unwrap();
        for (bad, said) in [
            (
                &note,
                "note.pdn holds no game: it is not a PDN file: no tag",
            ),
            (&empty, "empty.pdn holds no PDN game"),
        ] {
            for to in [output.clone(), std::path::PathBuf::from("-")] {
                let args = crate::cli::MergeArgs {
                    files: vec![good.clone(), bad.clone()],
                    output: to.clone(),
                    force: true,
                    dedupe: false,
                };
                let mut out = Vec::new();
                let refused = curate::run_merge(&args, &mut out).unwrap_err();
                assert!(refused.to_string().contains(said), "{refused}");
                assert_eq!(crate::commands::exit(&Err(refused)).code, 2);
                assert!(
                    out.is_empty(),
                    "{:?}: {}",
                    to,
                    String::from_utf8_lossy(&out)
                );
                assert_eq!(std::fs::read_to_string(&output).unwrap(), "kept\n");
            }
        }
    }
}
