//! The move type: a start square, its landing squares and the pieces it captures.

use super::{Bitboard, Square};
use std::fmt;

/// Most landing squares one move can have: each jump takes one of the (at most 12)
/// opposing pieces, so a move has at most 12 jumps.
pub const MAX_LANDINGS: usize = 12;

/// A move: the square it starts on, every square it lands on, and what it captures.
///
/// A step has one landing square and captures nothing. A capture has one landing per
/// jump. Two routes with the same ends are two different moves.
///
/// `Display` writes every landing square (`9-14`, `1x10x19`), which is never ambiguous;
/// [`Position::notation`](crate::rules::Position::notation) gives the short form used in
/// records.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Move {
    from: Square,
    len: u8,
    landings: [u8; MAX_LANDINGS],
    captured: Bitboard,
}

impl Move {
    /// A step from `from` to `to`.
    pub(crate) const fn step(from: Square, to: Square) -> Move {
        let mut landings = [0; MAX_LANDINGS];
        landings[0] = to.index() as u8;
        Move {
            from,
            len: 1,
            landings,
            captured: Bitboard::EMPTY,
        }
    }

    /// A capture along `landings` (bit indices, at least one), taking `captured`.
    pub(crate) fn capture(from: Square, landings: &[u8], captured: Bitboard) -> Move {
        debug_assert!(!landings.is_empty() && landings.len() <= MAX_LANDINGS);
        let mut buf = [0; MAX_LANDINGS];
        buf[..landings.len()].copy_from_slice(landings);
        Move {
            from,
            len: landings.len() as u8,
            landings: buf,
            captured,
        }
    }

    /// The square the moving piece starts on.
    #[inline]
    pub const fn from(&self) -> Square {
        self.from
    }

    /// The square the moving piece ends on (equal to `from` for a king's loop).
    #[inline]
    pub const fn to(&self) -> Square {
        Square::from_index(self.landings[self.len as usize - 1])
    }

    /// Every landing square in order (one for a step, one per jump for a capture).
    pub fn landings(&self) -> impl ExactSizeIterator<Item = Square> + '_ {
        self.landings[..self.len as usize]
            .iter()
            .map(|&i| Square::from_index(i))
    }

    /// The start square followed by every landing square.
    pub fn squares(&self) -> Vec<Square> {
        std::iter::once(self.from).chain(self.landings()).collect()
    }

    /// The squares of the pieces this move captures (empty for a step).
    #[inline]
    pub const fn captured(&self) -> Bitboard {
        self.captured
    }

    /// Whether this move captures.
    #[inline]
    pub const fn is_capture(&self) -> bool {
        !self.captured.is_empty()
    }

    /// The separator used in notation: `x` for a capture, `-` for a step.
    pub const fn separator(&self) -> char {
        if self.is_capture() { 'x' } else { '-' }
    }

    /// The short form: start and end squares only (`15x29`, `9-14`).
    pub fn short_text(&self) -> String {
        format!("{}{}{}", self.from, self.separator(), self.to())
    }
}

impl fmt::Display for Move {
    /// Every landing square: `9-14`, `1x10x19`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.from)?;
        for sq in self.landings() {
            write!(f, "{}{}", self.separator(), sq)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Move({self})")
    }
}

impl PartialOrd for Move {
    fn partial_cmp(&self, other: &Move) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Move {
    /// By the squares named, in order: `1x10x19` before `1x10x28` before `2-6`.
    fn cmp(&self, other: &Move) -> std::cmp::Ordering {
        self.from
            .cmp(&other.from)
            .then_with(|| self.landings().cmp(other.landings()))
    }
}
