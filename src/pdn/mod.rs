//! Game records in PDN (Portable Draughts Notation), English checkers (`[GameType "21"]`).
//!
//! Reading is lenient, as real files demand: tags with escaped quotes, move numbers or
//! none, `1. ...` when White moves first, comments `{...}` and `;...`, nested variations
//! `(...)`, NAGs `$n`, marks `!` `?`, `-`/`x`/`:` separators used wrongly, short and long
//! jump forms, a result token closing the movetext, several games per file, set-up
//! positions (`[FEN "..."]`), UTF-8 or ISO-8859-1 text. Every move is replayed against the
//! rules; a fault names the game, the move and the reason, and the other games still load.
//!
//! Writing is strict: the standard tags in order, numbered movetext wrapped at 79
//! columns, the short form of a jump unless it is ambiguous.

mod reader;
mod writer;

pub use reader::{
    GameError, GameErrorKind, Games, MAX_PLIES, MAX_TAG_CHARS, MAX_TAGS, MAX_WORD_CHARS,
    SyntaxError, decode, decode_owned, games, read_games,
};
pub use writer::write_game;

use crate::rules::{Color, Move, Position};

/// One game of a PDN file: its tags, start position and replayed moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdnGame {
    /// Tag pairs in file order (name, value), `FEN` and `SetUp` included.
    pub tags: Vec<(String, String)>,
    /// The start position: the `FEN` tag's, or the standard start.
    pub start: Position,
    /// The moves of the main line, each legal in turn.
    pub moves: Vec<Move>,
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

    /// The position after every move.
    pub fn end_position(&self) -> Position {
        self.moves
            .iter()
            .fold(self.start, |p, m| p.play_unchecked(m))
    }
}

/// The full-move number and mover of the ply at index `ply` in a game from `start`.
pub fn move_number(start: &Position, ply: usize) -> (usize, Color) {
    let offset = usize::from(start.turn() == Color::White);
    let n = ply + offset;
    let color = if n.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    (n / 2 + 1, color)
}
