//! Game records in PDN (Portable Draughts Notation), English checkers (`[GameType "21"]`).
//!
//! Reading is lenient, as real files demand: tags with escaped quotes, move numbers or
//! none, `1. ...` when White moves first, comments `{...}` and `;...`, nested variations
//! `(...)`, NAGs `$n`, marks `!` `?`, `-`/`x`/`:` separators used wrongly, short and long
//! jump forms, a result token closing the movetext, several games per file, set-up
//! positions (`[FEN "..."]`), UTF-8 or ISO-8859-1 text, lines ended by LF, CRLF or a lone
//! CR. Every move is replayed against the rules; a fault names the game, the move and
//! the reason, and the other games still load.
//!
//! Writing is strict: the standard tags in order, numbered movetext wrapped at 79
//! columns, the short form of a jump unless it is ambiguous.

mod cursor;
mod error;
mod reader;
mod record;
mod words;
mod writer;

pub use cursor::Encoding;
pub(crate) use error::not_pdn_reason;
pub(crate) use reader::games_with_trees;
pub use reader::{GameError, GameErrorKind, Games, SyntaxError, decode, games_in, read_games};
pub(crate) use reader::{
    MAX_NAME_CHARS, MAX_PLIES, MAX_TAG_CHARS, MAX_TAGS, Place, StrayResult, decode_owned, games,
    games_at,
};
pub(crate) use record::TIME_FORFEIT;
pub use record::{Players, game_from_record, game_record};
pub use writer::write_game;
pub(crate) use writer::{UNKNOWN_DATE, write_keeping, write_tree};

use crate::rules::{Color, Move, Position};
use std::time::Duration;

/// One game of a PDN file: its tags, start position and replayed moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order (name, value), `FEN` and `SetUp` included.
    pub tags: Vec<(String, String)>,
    /// The start position: the `FEN` tag's, or the standard start.
    pub start: Position,
    /// The moves of the main line, each legal in turn.
    pub moves: Vec<Move>,
    /// The clock reading after each move, where the record gives one: the mover's time
    /// left, from a `{[%clk 0:04:53]}` comment after the move (PGN practice). Index `i`
    /// belongs to `moves[i]`; it may be shorter than `moves`.
    pub clocks: Vec<Option<Duration>>,
    /// The result token closing the movetext (`1-0`, `0-1`, `1/2-1/2`, `*`), if any.
    pub result: Option<String>,
}

impl PdnGame {
    /// A game from `start` with no tags and no moves.
    pub fn new(start: Position) -> PdnGame {
        PdnGame {
            tags: Vec::new(),
            start,
            moves: Vec::new(),
            clocks: Vec::new(),
            result: None,
        }
    }

    /// The value of tag `name` (case-sensitive, as PDN tag names are), if present.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Sets tag `name` to `value`, replacing an existing value or appending.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        match self.tags.iter_mut().find(|(n, _)| n == name) {
            Some(slot) => slot.1 = value.to_string(),
            None => self.tags.push((name.to_string(), value.to_string())),
        }
    }

    /// The game's result as every part of the program takes it, in its standard form
    /// (`1-0`, `0-1`, `1/2-1/2`, `*`): the `Result` tag when it names an ending, else
    /// the result token closing the movetext when that does, else whichever is `*`.
    /// `None` when neither gives a result. A file whose tag and token name different
    /// endings is read by its tag, the header that lists and databases show (`checkers
    /// pdn check` points such games out).
    pub(crate) fn recorded_result(&self) -> Option<&'static str> {
        let tag = self.tag("Result").and_then(standard_result);
        let token = self.result.as_deref().and_then(standard_result);
        let decided = |r: &Option<&'static str>| r.filter(|r| *r != "*");
        decided(&tag).or(decided(&token)).or(tag).or(token)
    }

    /// The two results the record gives when its `Result` tag and its result token
    /// differ (tag first; `*`, unfinished, included), as `checkers pdn check` reports it.
    pub(crate) fn result_conflict(&self) -> Option<(&'static str, &'static str)> {
        let tag = self.tag("Result").and_then(standard_result)?;
        let token = self.result.as_deref().and_then(standard_result)?;
        (tag != token).then_some((tag, token))
    }

    /// The position after every move.
    pub fn end_position(&self) -> Position {
        self.moves
            .iter()
            .fold(self.start, |p, m| p.play_unchecked(m))
    }
}

/// The standard form of a result (`1-0`, `0-1`, `1/2-1/2`, `*`), spaces around it
/// allowed; draughts files sometimes count points instead (`2-0`, `0-2`, `1-1`).
/// `None` for anything else.
pub(crate) fn standard_result(text: &str) -> Option<&'static str> {
    match text.trim() {
        "1-0" | "2-0" => Some("1-0"),
        "0-1" | "0-2" => Some("0-1"),
        "1/2-1/2" | "1-1" => Some("1/2-1/2"),
        "*" => Some("*"),
        _ => None,
    }
}

/// The full-move number and mover of the ply at index `ply` in a game from `start`
/// (see [`game::move_number`](crate::game::move_number)).
pub(crate) fn move_number(start: &Position, ply: usize) -> (usize, Color) {
    crate::game::move_number(start, ply)
}

/// A clock reading as records keep it: `0:04:53`, with tenths when there are any
/// (`0:04:53.2`); hours always written, as in PGN's `[%clk]`.
pub(crate) fn clock_text(d: Duration) -> String {
    let secs = d.as_secs();
    let tenths = d.subsec_millis() / 100;
    let whole = format!("{}:{:02}:{:02}", secs / 3600, secs / 60 % 60, secs % 60);
    if tenths == 0 {
        whole
    } else {
        format!("{whole}.{tenths}")
    }
}

/// A clock reading from a record: `h:mm:ss`, `m:ss` or seconds, with tenths or more
/// decimals after a `.` (only tenths are kept); at most a week.
pub(crate) fn parse_clock(text: &str) -> Option<Duration> {
    let text = text.trim();
    let (whole, fraction) = match text.split_once('.') {
        Some((w, f)) if !f.is_empty() && f.chars().all(|c| c.is_ascii_digit()) => (w, f),
        Some(_) => return None,
        None => (text, "0"),
    };
    let tenths = fraction.bytes().next().map_or(0, |b| u64::from(b - b'0'));
    let mut secs: u64 = 0;
    let mut parts = 0;
    for part in whole.split(':') {
        parts += 1;
        if parts > 3 || part.is_empty() || !part.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let n: u64 = part.parse().ok()?;
        secs = secs.checked_mul(60)?.checked_add(n)?;
    }
    (secs <= 7 * 24 * 3600).then(|| Duration::from_millis(secs * 1000 + tenths * 100))
}

#[cfg(test)]
mod stream_tests;
#[cfg(test)]
mod tree_tests;

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_clock_text() {
        use checkers::pdn::{clock_text, parse_clock};
        use std::time::Duration;
        assert_eq!(clock_text(Duration::from_millis(293_200)), "0:04:53.2");
        assert_eq!(clock_text(Duration::from_secs(3600)), "1:00:00");
        assert_eq!(
            parse_clock(" 0:04:53.2 "),
            Some(Duration::from_millis(293_200))
        );
        assert_eq!(parse_clock("4:53"), Some(Duration::from_secs(293)));
        assert_eq!(parse_clock("soon"), None);
    }
}
