//! Words of movetext as moves: the plain numeric form read without allocating, and the
//! move in a word with marks or text glued on after it.

use crate::rules::{MAX_LANDINGS, MoveText, ParseMoveErrorKind, Square};

/// The squares of a move written in numbers with `-`, `x`, `X` or `:` between them and
/// nothing else (`11-15`, `26x17x10`), if `word` is one.
pub(super) fn plain_squares(word: &str) -> Option<SquareList> {
    let mut list = SquareList::default();
    for part in word.split(['-', 'x', 'X', ':']) {
        if part.is_empty() || part.len() > 2 || !part.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u8 = part.parse().ok()?;
        let square = Square::new(n)?;
        *list.squares.get_mut(list.len)? = square;
        list.len += 1;
    }
    (list.len >= 2).then_some(list)
}

/// The squares a move names, held without allocating (13 at most: a start and twelve
/// landings).
#[derive(Clone, Copy)]
pub(super) struct SquareList {
    squares: [Square; MAX_LANDINGS + 1],
    len: usize,
}

impl Default for SquareList {
    fn default() -> SquareList {
        SquareList {
            squares: [Square::from_index(0); MAX_LANDINGS + 1],
            len: 0,
        }
    }
}

impl SquareList {
    pub(super) fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len]
    }
}

/// The move in a movetext word: marks (`!`, `?`) dropped, and text glued on after the
/// move without a space or braces (`8-11Red overstepped...` in real files) cut off.
pub(super) fn move_part(word: &str) -> &str {
    let word = word.trim_end_matches(['!', '?']);
    if let Err(e) = word.parse::<MoveText>()
        && let ParseMoveErrorKind::ExpectedSeparator(c) = e.kind
        && c.is_alphabetic()
    {
        let cut: usize = word.chars().take(e.column - 1).map(char::len_utf8).sum();
        let head = word[..cut].trim_end_matches(['!', '?']);
        if head.parse::<MoveText>().is_ok() {
            return head;
        }
    }
    word
}
