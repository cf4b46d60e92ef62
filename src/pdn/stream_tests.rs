#![allow(clippy::unwrap_used)]
//! The PDN reader streaming a file (issue 19, big files): the same games as reading the
//! whole text, in either encoding, however the bytes arrive; and each game read again
//! from the place the reader gave for it (what a big file's index keeps; the index
//! itself is tested through the binary, in a sandboxed cache folder).

use super::reader::{games, games_at};
use super::{Encoding, games_in};
use std::io::Read;

const TINSLEY: &str = include_str!("../../tests/fixtures/tinsley.pdn");

/// A reader handing out its bytes a few at a time, as a pipe or a slow disk may.
struct Trickle<'a>(&'a [u8], usize);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.1.min(buf.len()).min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// Each game as text: the record or the error, as a user sees it.
fn shown(game: Result<crate::pdn::PdnGame, crate::pdn::GameError>) -> String {
    match game {
        Ok(record) => format!("{record:?}"),
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn streamed_games_are_the_texts_games_and_each_reads_again_from_its_place() {
    let whole: Vec<String> = games(TINSLEY).map(shown).collect();
    assert_eq!(whole.len(), 724);
    for step in [1 << 16, 4093, 17] {
        let mut streamed = games_in(Trickle(TINSLEY.as_bytes(), step), Encoding::Utf8);
        let mut places = Vec::new();
        let mut read = Vec::new();
        while let Some(game) = streamed.next() {
            places.push(streamed.last_place().unwrap());
            read.push(shown(game));
        }
        assert_eq!(read, whole, "blocks of {step} bytes");
        for (i, place) in places.iter().enumerate().step_by(37) {
            let rest = &TINSLEY.as_bytes()[place.offset as usize..];
            let again = games_at(rest, Encoding::Utf8, *place, i + 1)
                .next()
                .unwrap();
            assert_eq!(shown(again), whole[i], "game {}", i + 1);
        }
    }
}

#[test]
fn latin1_files_stream_as_they_decode() {
    let text = "[Event \"Zo\u{eb}\"]\n1. 11-15 23-19 *\n".repeat(3000);
    let bytes: Vec<u8> = text.chars().map(|c| c as u8).collect();
    assert_eq!(Encoding::of(&bytes[..]).unwrap(), Encoding::Latin1);
    let whole: Vec<String> = games(&crate::pdn::decode(&bytes)).map(shown).collect();
    let mut games = games_in(Trickle(&bytes, 999), Encoding::Latin1);
    let mut streamed = Vec::new();
    let mut places = Vec::new();
    while let Some(game) = games.next() {
        places.push(games.last_place().unwrap());
        streamed.push(shown(game));
    }
    assert_eq!(streamed, whole);
    // Places count the file's bytes (one a character), not the decoded text's.
    for (i, place) in places.iter().enumerate().step_by(101) {
        let rest = &bytes[place.offset as usize..];
        let again = games_at(rest, Encoding::Latin1, *place, i + 1)
            .next()
            .unwrap();
        assert_eq!(shown(again), whole[i], "game {}", i + 1);
    }
}

/// A file cut short in a game, right at a move, comment, tag or variation left
/// unfinished, says the file ends there and may be cut short; any other fault reads as
/// before, with no such word.
#[test]
fn a_file_cut_off_mid_game_says_so_and_where_it_ends() {
    const CUT: &str = "it may have been cut short (truncated)";
    let first = "[Event \"a\"]\n1. 11-15 23-19 *\n\n[Event \"b\"]\n";
    for (tail, ends) in [
        ("1. 11-15 23-19 2. 8-11 22-", "line 5, column 27"),
        ("1. 11-15 24-2", "line 5, column 14"),
        ("1. 11-15 {a comment", "line 5, column 20"),
        ("1. 11-15 (23-19 ", "line 5, column 17"),
        ("1. 11-15\n[Black \"Ti", "line 6, column 11"),
    ] {
        let text = format!("{first}{tail}");
        let said: Vec<String> = games(&text).map(shown).collect();
        assert_eq!(said.len(), 2, "{said:?}");
        let note = format!("the file ends there, at {ends}, in the middle of the game: {CUT}");
        assert!(said[1].ends_with(&note), "{tail:?}: {}", said[1]);
        // Streamed as a file is read, the same.
        let streamed = games_in(text.as_bytes(), Encoding::Utf8).map(shown).nth(1);
        assert_eq!(streamed.as_ref(), Some(&said[1]));
    }
    // A variation still open at the end, read with its tree.
    let text = format!("{first}1. 11-15 (23-19 22-18");
    let error = crate::pdn::games_with_trees(&text)
        .nth(1)
        .unwrap()
        .unwrap_err();
    assert!(error.to_string().ends_with(CUT), "{error}");
    // Faults that are not at the end of the file, or a game already faulty before its
    // end, or a whole game with no result: as before.
    for tail in [
        "1. 11-15 24-2 *\n",
        "1. 11-15 ) 23-19\n[Event \"c\"]\n1. 9-14 *",
        "1. 11-15 99-98 2. 8-11 22-",
        "1. 11-15 23-19 2. 8-11",
    ] {
        let text = format!("{first}{tail}");
        for said in games(&text).map(shown) {
            assert!(!said.contains("the file ends"), "{tail:?}: {said}");
        }
    }
}

#[test]
fn a_text_of_a_lone_result_token_is_one_empty_game_and_one_before_tags_is_none() {
    // `*` alone is how a game with no tags and no moves is written (a host's fresh
    // game): one game at the start position, its result unknown.
    let lone: Vec<_> = games("*").collect();
    assert_eq!(lone.len(), 1, "{lone:?}");
    let game = lone[0].as_ref().unwrap();
    assert!(game.moves.is_empty());
    assert_eq!(game.start, crate::rules::Position::start());
    assert_eq!(game.result.as_deref(), Some("*"));
    // A result token before a game's tags stands before it: no game of its own.
    let before: Vec<_> = games("1-0\n\n[Event \"a\"]\n1. 11-15 *\n").collect();
    assert_eq!(before.len(), 1, "{before:?}");
    assert_eq!(before[0].as_ref().unwrap().moves.len(), 1);
}

/// A `{` never closed ends its game at the next line that opens a game's tags: that
/// game is a fault, and the games after it are read, however the file is read (as a
/// text, streamed in blocks of any size, with trees, or from an index's place).
#[test]
fn a_comment_never_closed_loses_no_game_after_it() {
    let text = "[Event \"a\"]\n1. 11-15 23-19 *\n\n[Event \"b\"]\n1. 11-15 {a stray brace\n\
                23-19 *\n\n[Black \"Tinsley\"]\n[Event \"c\"]\n1. 9-14 *\n\n\
                [Event \"d\"]\r\n1. 10-14 {note\r\n[%clk 0:01:00] [see \"x\"]\r\n\
                [9 \"y\"] [Event \"z\"]} 22-18 *\n";
    let said: Vec<String> = games(text).map(shown).collect();
    assert_eq!(said.len(), 4, "{said:#?}");
    assert_eq!(
        said[1],
        "error: game 2 (\"b\"), line 5, column 10: comment '{' at line 5 column 10 is not \
         closed before the next game's tags at line 8"
    );
    assert!(said[2].contains("\"Tinsley\""), "{}", said[2]);
    assert!(said[2].contains("\"c\""), "{}", said[2]);
    // A comment's own brackets, on its first line or not, are no game's tags.
    assert!(
        said[3].contains("moves: [") && !said[3].starts_with("error"),
        "{}",
        said[3]
    );
    reads_alike_in_blocks_and_from_each_place(text, &said);
    let with_trees: Vec<bool> = crate::pdn::games_with_trees(text)
        .map(|g| g.is_ok())
        .collect();
    assert_eq!(with_trees, [true, false, true, true]);
    // A tag-like line whose `}` closes the comment right after it: one game, read.
    let one: Vec<String> = games("1. 11-15 {a\n[x} 23-19 *\n").map(shown).collect();
    assert_eq!(one.len(), 1);
    assert!(!one[0].starts_with("error"), "{}", one[0]);
}

/// A `(` never closed, and a `{` never closed in a variation, end their game at the
/// next line that opens a game's tags, as a comment never closed does: that game is a
/// fault saying where the bracket opened, and the games after it are read (they were
/// swallowed, the file read as fewer games), however the file is read (as a text,
/// streamed in blocks of any size, or from an index's place).
#[test]
fn a_variation_never_closed_loses_no_game_after_it() {
    let text = "[Event \"a\"]\n1. 11-15 (23-19 9-14\n\n[Event \"b\"]\n1. 9-14 *\n\n\
                [Event \"c\"]\n1. 10-14 (22-18 {a note\n\n[Event \"d\"]\n1. 11-16 *\n\n\
                [Event \"e\"]\n1. 11-15 ((23-19) [x] (24-20\n[Event \"f\"]\n1. 12-16 *\n";
    let said: Vec<String> = games(text).map(shown).collect();
    assert_eq!(said.len(), 6, "{said:#?}");
    assert_eq!(
        said[0],
        "error: game 1 (\"a\"), line 2, column 10: variation '(' at line 2 column 10 is not \
         closed before the next game's tags at line 4"
    );
    assert_eq!(
        said[2],
        "error: game 3 (\"c\"), line 8, column 17: comment '{' at line 8 column 17 (in the \
         variation '(' at line 8 column 10) is not closed before the next game's tags at \
         line 10"
    );
    assert!(
        said[4].starts_with(
            "error: game 5 (\"e\"), line 14, column 10: variation '(' at line \
             14 column 10 is not closed before the next game's tags at line 15"
        ),
        "{}",
        said[4]
    );
    for (i, event) in [(1, "b"), (3, "d"), (5, "f")] {
        assert!(!said[i].starts_with("error"), "{}", said[i]);
        assert!(said[i].contains(&format!("\"{event}\"")), "{}", said[i]);
    }
    reads_alike_in_blocks_and_from_each_place(text, &said);
    // A variation's own brackets and a tag-like line that is no tag close nothing and
    // open no game: one game, read.
    let one: Vec<String> = games("1. 11-15 (23-19 {a\n[x} [y\n[9 \"z\"] 8-11) 22-18 *\n")
        .map(shown)
        .collect();
    assert_eq!(one.len(), 1, "{one:?}");
    assert!(!one[0].starts_with("error"), "{}", one[0]);
}

/// `text` streamed in blocks of 1, 5 and 64 bytes reads as `said`, and each game read
/// again from the place the stream gave it (as an index does) reads the same.
fn reads_alike_in_blocks_and_from_each_place(text: &str, said: &[String]) {
    for step in [1, 5, 64] {
        let mut streamed = games_in(Trickle(text.as_bytes(), step), Encoding::Utf8);
        let mut read = Vec::new();
        while let Some(game) = streamed.next() {
            let place = streamed.last_place().unwrap();
            read.push(shown(game));
            // Read again from its place, as an index does.
            let rest = &text.as_bytes()[place.offset as usize..];
            let again = games_at(rest, Encoding::Utf8, place, read.len()).next();
            assert_eq!(again.map(shown).as_ref(), read.last(), "step {step}");
        }
        assert_eq!(read, said, "blocks of {step} bytes");
    }
}
