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
