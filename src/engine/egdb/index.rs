//! Material signatures and the index of a position inside its signature's table.
//!
//! Every table holds positions with **Black to move**. A position with White to move is
//! looked up as its mirror: the board turned half a turn (square `n` becomes `33 - n`,
//! which is `u32::reverse_bits` on a bitboard) with the colours swapped, so Black's men
//! still move toward 32. A signature and its mirror (`1m0k-0m2k` and `0m2k-1m0k`) are
//! therefore built together.
//!
//! # Layout of a table
//!
//! Men are indexed by rank. A side's men are a combination of its 28 man squares (rows
//! 0-6 from its own side), ranked in colexicographic order, which sorts combinations by
//! their most advanced man first: all placements whose leading man stands on the side's
//! row `r` form one contiguous range. A table is cut into **sub-slices**, one per pair of
//! leading rows (Black's, White's, each counted from its own side), stored one after the
//! other. A move of a man either keeps both leading rows or advances one of them, so a
//! sub-slice depends only on sub-slices further advanced (and on smaller or more
//! crowned signatures): the builder solves them in that order.
//!
//! Inside a sub-slice: Black's men (offset in their range), White's men, then Black's
//! kings and White's kings, each ranked among the squares still free.

use crate::rules::{Bitboard, Color, Position};
use std::fmt;

/// Most pieces a signature may have (the tables are built up to 6; the index works
/// further).
pub(crate) const MAX_PIECES: usize = 8;

/// Squares a man can stand on, seen from its own side: rows 0-6.
const MAN_SQUARES: u32 = 0x0FFF_FFFF;

/// `BINOMIAL[n][k]`: n choose k, for n up to 32 and k up to [`MAX_PIECES`].
const BINOMIAL: [[u64; MAX_PIECES + 1]; 33] = {
    let mut t = [[0u64; MAX_PIECES + 1]; 33];
    let mut n = 0;
    while n <= 32 {
        t[n][0] = 1;
        let mut k = 1;
        while k <= MAX_PIECES {
            t[n][k] = if n == 0 {
                0
            } else {
                t[n - 1][k - 1] + t[n - 1][k]
            };
            k += 1;
        }
        n += 1;
    }
    t
};

/// n choose k (0 when k > n).
#[inline]
pub(crate) fn binomial(n: u32, k: u32) -> u64 {
    BINOMIAL[n as usize][k as usize]
}

/// The colexicographic rank of the set `bits` (each set bit one element).
#[inline]
fn colex_rank(mut bits: u32) -> u64 {
    let mut rank = 0;
    let mut i = 1;
    while bits != 0 {
        let c = bits.trailing_zeros();
        rank += binomial(c, i);
        bits &= bits - 1;
        i += 1;
    }
    rank
}

/// The set of `k` elements (below `n`) whose colexicographic rank is `rank`.
fn colex_unrank(mut rank: u64, k: u32, n: u32) -> u32 {
    let mut bits = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        // The largest c below `top` with C(c, i) <= rank.
        let mut c = top;
        loop {
            c -= 1;
            if binomial(c, i) <= rank {
                break;
            }
        }
        rank -= binomial(c, i);
        bits |= 1 << c;
        top = c;
    }
    bits
}

/// Removes the squares of `taken` from `set`, closing the gaps: each square of `set`
/// moves down by the number of `taken` squares below it.
#[inline]
fn squeeze(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut rest = set;
    while rest != 0 {
        let sq = rest.trailing_zeros();
        let below = (taken & ((1u32 << sq) - 1)).count_ones();
        out |= 1 << (sq - below);
        rest &= rest - 1;
    }
    out
}

/// The inverse of [`squeeze`]: spreads `set` over the squares not in `taken`.
#[inline]
fn spread(set: u32, taken: u32) -> u32 {
    let mut out = 0;
    let mut free = !taken;
    let mut i = 0;
    while free != 0 {
        let sq = free & free.wrapping_neg();
        if set & (1 << i) != 0 {
            out |= sq;
        }
        free &= free - 1;
        i += 1;
    }
    out
}

/// The leading row (0-6) of a non-empty set of men seen from their own side.
#[inline]
fn leading_row(men: u32) -> u32 {
    (31 - men.leading_zeros()) / 4
}

/// A material signature: how many men and kings each side has.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct Signature {
    /// Black's men.
    pub(crate) black_men: u8,
    /// Black's kings.
    pub(crate) black_kings: u8,
    /// White's men.
    pub(crate) white_men: u8,
    /// White's kings.
    pub(crate) white_kings: u8,
}

impl Signature {
    /// A signature from its four counts.
    pub(crate) const fn new(
        black_men: u8,
        black_kings: u8,
        white_men: u8,
        white_kings: u8,
    ) -> Signature {
        Signature {
            black_men,
            black_kings,
            white_men,
            white_kings,
        }
    }

    /// The signature of a position (whoever is to move).
    pub(crate) fn of(pos: &Position) -> Signature {
        let count = |c, r| pos.pieces(c, r).count() as u8;
        use crate::rules::Role::{King, Man};
        Signature::new(
            count(Color::Black, Man),
            count(Color::Black, King),
            count(Color::White, Man),
            count(Color::White, King),
        )
    }

    /// Every piece on the board.
    pub(crate) const fn pieces(self) -> u32 {
        (self.black_men + self.black_kings + self.white_men + self.white_kings) as u32
    }

    /// Every man on the board.
    pub(crate) const fn men(self) -> u32 {
        (self.black_men + self.white_men) as u32
    }

    /// The signature with the colours swapped (the table of the same positions with
    /// White to move).
    pub(crate) const fn mirror(self) -> Signature {
        Signature::new(
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
        )
    }

    /// Whether this signature has a table: both sides have a piece, at most
    /// [`MAX_PIECES`] in all, and no side has more men than its 28 squares allow.
    pub(crate) const fn is_valid(self) -> bool {
        self.black_men + self.black_kings > 0
            && self.white_men + self.white_kings > 0
            && self.pieces() as usize <= MAX_PIECES
    }

    /// Every signature with a table of `2..=max_pieces` pieces, in build order: fewer
    /// pieces first, then fewer men (a crowning turns a man into a king), then by the
    /// counts.
    pub(crate) fn all(max_pieces: u32) -> Vec<Signature> {
        let mut all = Vec::new();
        let max = max_pieces.min(MAX_PIECES as u32) as u8;
        for bm in 0..=max {
            for bk in 0..=max - bm {
                for wm in 0..=max - bm - bk {
                    for wk in 0..=max - bm - bk - wm {
                        let s = Signature::new(bm, bk, wm, wk);
                        if s.is_valid() {
                            all.push(s);
                        }
                    }
                }
            }
        }
        all.sort_by_key(|s| (s.pieces(), s.men(), *s));
        all
    }

    /// The name used for its file and in reports: `2m1k-0m2k` is Black two men and a
    /// king against White two kings.
    pub fn name(self) -> String {
        self.to_string()
    }

    /// Squares free for the kings once the men stand.
    const fn free_for_kings(self) -> u32 {
        32 - self.men()
    }

    /// Placements of both sides' kings for one placement of the men.
    pub(crate) fn king_placements(self) -> u64 {
        let free = self.free_for_kings();
        binomial(free, self.black_kings as u32)
            * binomial(free - self.black_kings as u32, self.white_kings as u32)
    }

    /// The leading rows a side with `men` men can have: 0-6, or just 0 without men.
    pub(crate) fn leading_rows(men: u8) -> std::ops::Range<u32> {
        if men == 0 { 0..1 } else { 0..7 }
    }

    /// First colex rank of `men` men whose leader stands on row `row`.
    fn men_low(men: u8, row: u32) -> u64 {
        if men == 0 {
            0
        } else {
            binomial(4 * row, men as u32)
        }
    }

    /// Placements of `men` men whose leader stands on row `row`.
    fn men_count(men: u8, row: u32) -> u64 {
        if men == 0 {
            u64::from(row == 0)
        } else {
            binomial(4 * row + 4, men as u32) - binomial(4 * row, men as u32)
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}m{}k-{}m{}k",
            self.black_men, self.black_kings, self.white_men, self.white_kings
        )
    }
}

/// One sub-slice of a table: the positions whose leading men stand on the given rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SubSlice {
    /// Black's leading row from Black's side (0 without black men).
    pub(crate) black_row: u32,
    /// White's leading row from White's side (0 without white men).
    pub(crate) white_row: u32,
    /// Index of its first position in the table.
    pub(crate) start: u64,
    /// Number of indices it spans.
    pub(crate) len: u64,
}

/// The index layout of one signature's table (Black to move).
#[derive(Clone, Debug)]
pub(crate) struct Layout {
    /// The signature.
    pub(crate) signature: Signature,
    /// Its sub-slices in index order.
    pub(crate) subslices: Vec<SubSlice>,
    /// Indices in the whole table (a few of them name no position: men of both
    /// sides on one square).
    pub(crate) size: u64,
    kings: u64,
    white_kings: u64,
}

impl Layout {
    /// The layout of `signature`'s table.
    pub(crate) fn new(signature: Signature) -> Layout {
        let kings = signature.king_placements();
        let free = signature.free_for_kings() - signature.black_kings as u32;
        let white_kings = binomial(free, signature.white_kings as u32);
        let mut subslices = Vec::new();
        let mut start = 0;
        for black_row in Signature::leading_rows(signature.black_men) {
            for white_row in Signature::leading_rows(signature.white_men) {
                let len = Signature::men_count(signature.black_men, black_row)
                    * Signature::men_count(signature.white_men, white_row)
                    * kings;
                subslices.push(SubSlice {
                    black_row,
                    white_row,
                    start,
                    len,
                });
                start += len;
            }
        }
        Layout {
            signature,
            subslices,
            size: start,
            kings,
            white_kings,
        }
    }

    /// The sub-slice number of the leading rows `(black_row, white_row)`.
    #[inline]
    pub(crate) fn subslice_number(&self, black_row: u32, white_row: u32) -> usize {
        let white_rows = if self.signature.white_men == 0 { 1 } else { 7 };
        (black_row * white_rows + white_row) as usize
    }

    /// The index of `pos`, which must have Black to move and this signature; with its
    /// sub-slice number.
    #[inline]
    pub(crate) fn index(&self, pos: &Position) -> (u64, usize) {
        let s = self.signature;
        let kings = pos.kings().0;
        let black = pos.side(Color::Black).0;
        let white = pos.side(Color::White).0;
        let black_men = black & !kings;
        let white_men_rev = (white & !kings).reverse_bits();
        let (black_row, black_rank) = if black_men == 0 {
            (0, 0)
        } else {
            let row = leading_row(black_men);
            (
                row,
                colex_rank(black_men) - Signature::men_low(s.black_men, row),
            )
        };
        let (white_row, white_rank) = if white_men_rev == 0 {
            (0, 0)
        } else {
            let row = leading_row(white_men_rev);
            (
                row,
                colex_rank(white_men_rev) - Signature::men_low(s.white_men, row),
            )
        };
        let number = self.subslice_number(black_row, white_row);
        let sub = &self.subslices[number];
        let men_index = black_rank * Signature::men_count(s.white_men, white_row) + white_rank;
        let men = (black & !kings) | (white & !kings);
        let black_kings = squeeze(black & kings, men);
        let white_kings = squeeze(white & kings, men | (black & kings));
        let king_index = colex_rank(black_kings) * self.white_kings + colex_rank(white_kings);
        (sub.start + men_index * self.kings + king_index, number)
    }

    /// The sub-slice number holding `index`.
    pub(crate) fn subslice_of(&self, index: u64) -> usize {
        self.subslices
            .partition_point(|sub| sub.start + sub.len <= index)
    }

    /// The position (Black to move) at `index`, or `None` where the index names no
    /// position (men of both sides on one square) or lies past the table.
    pub(crate) fn position(&self, index: u64) -> Option<Position> {
        if index >= self.size {
            return None;
        }
        let s = self.signature;
        let sub = &self.subslices[self.subslice_of(index)];
        let local = index - sub.start;
        let men_index = local / self.kings;
        let king_index = local % self.kings;
        let white_count = Signature::men_count(s.white_men, sub.white_row);
        let black_rank = men_index / white_count + Signature::men_low(s.black_men, sub.black_row);
        let white_rank = men_index % white_count + Signature::men_low(s.white_men, sub.white_row);
        let black_men = colex_unrank(black_rank, s.black_men.into(), 28);
        let white_men = colex_unrank(white_rank, s.white_men.into(), 28).reverse_bits();
        if black_men & white_men != 0 {
            return None;
        }
        let men = black_men | white_men;
        let free = s.free_for_kings();
        let black_kings = spread(
            colex_unrank(king_index / self.white_kings, s.black_kings.into(), free),
            men,
        );
        let white_kings = spread(
            colex_unrank(
                king_index % self.white_kings,
                s.white_kings.into(),
                free - u32::from(s.black_kings),
            ),
            men | black_kings,
        );
        debug_assert_eq!(black_men & !MAN_SQUARES, 0);
        Some(Position::from_parts_unchecked(
            Bitboard(black_men | black_kings),
            Bitboard(white_men | white_kings),
            Bitboard(black_kings | white_kings),
            Color::Black,
        ))
    }
}

/// `pos` with Black to move: itself, or its mirror when White is to move.
#[inline]
pub(crate) fn canonical(pos: &Position) -> Position {
    if pos.turn() == Color::Black {
        *pos
    } else {
        Position::from_parts_unchecked(
            Bitboard(pos.side(Color::White).0.reverse_bits()),
            Bitboard(pos.side(Color::Black).0.reverse_bits()),
            Bitboard(pos.kings().0.reverse_bits()),
            Color::Black,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colex_round_trips() {
        for k in 0..=4u32 {
            for rank in 0..binomial(28, k).min(5000) {
                let bits = colex_unrank(rank, k, 28);
                assert_eq!(bits.count_ones(), k);
                assert_eq!(colex_rank(bits), rank);
            }
        }
    }

    #[test]
    fn squeeze_and_spread_are_inverse() {
        let taken = 0b1010_0110;
        for set in [0u32, 1, 0b11, 0b1_0101, 0xF0] {
            assert_eq!(squeeze(spread(set, taken), taken), set);
        }
    }

    #[test]
    fn signatures_are_counted() {
        // 2 pieces: 4 signatures; 3: 12; 4: 25; 5: 44.
        assert_eq!(Signature::all(2).len(), 4);
        assert_eq!(Signature::all(3).len(), 16);
        assert_eq!(Signature::all(5).len(), 4 + 12 + 25 + 44);
        assert_eq!(Signature::new(1, 0, 0, 2).to_string(), "1m0k-0m2k");
    }
}
