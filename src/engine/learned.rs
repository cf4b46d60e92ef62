//! The learned evaluation: a pattern table trained here by `checkers-lab train`.
//!
//! Every position is seen from the side to move (White's pieces turned round as in the
//! hand-written evaluation, so one table serves both colours). Its value is a sum of
//! weights of one-hot features, each with an opening and an ending weight blended by
//! the number of pieces on the board:
//!
//! - nine overlapping 4x4 regions of the board (rows 1-4, 3-6, 5-8 by columns a-d, c-f,
//!   e-h), each with a weight for every arrangement of men in its eight squares (empty,
//!   own man, enemy man: 3^8 = 6561 arrangements);
//! - each king's square, own and enemy;
//! - the counts of own and enemy men and kings, and the difference in pieces;
//! - each side's number of legal moves (capped at 20);
//! - men with a free path to the crowning row, by row;
//! - a constant (the move).
//!
//! The weights are `i16` sixteenths of a hundredth of a man, embedded in the binary
//! (`weights.bin`, 237 KB) and read once.

use super::eval::{CONES, row, squares};
use crate::rules::{Color, Position, Role};
use std::fmt;
use std::sync::OnceLock;

/// Regions of the board whose arrangements of men carry weights.
pub(crate) const REGIONS: usize = 9;
/// Arrangements of one region: three states of eight squares.
pub(crate) const ARRANGEMENTS: usize = 6561;

const PATTERNS: usize = 0;
const KING_OWN: usize = PATTERNS + REGIONS * ARRANGEMENTS;
const KING_OPP: usize = KING_OWN + 32;
const MEN_OWN: usize = KING_OPP + 32;
const MEN_OPP: usize = MEN_OWN + 13;
const KINGS_OWN: usize = MEN_OPP + 13;
const KINGS_OPP: usize = KINGS_OWN + 13;
const BALANCE: usize = KINGS_OPP + 13;
const MOBILITY_OWN: usize = BALANCE + 25;
const MOBILITY_OPP: usize = MOBILITY_OWN + 21;
const RUNAWAY_OWN: usize = MOBILITY_OPP + 21;
const RUNAWAY_OPP: usize = RUNAWAY_OWN + 8;
const TEMPO: usize = RUNAWAY_OPP + 8;
/// Features below this index are region arrangements (training regularises them).
#[cfg(feature = "lab")]
pub(crate) const PATTERN_FEATURES: usize = KING_OWN;
/// How many features there are (each has an opening and an ending weight).
pub(crate) const FEATURES: usize = TEMPO + 1;
/// Most features one position can have.
#[cfg(any(test, feature = "lab"))]
pub(crate) const MAX_ACTIVE: usize = REGIONS + 24 + 4 + 1 + 2 + 24 + 1;
/// Pieces on the board at which the opening weight counts alone.
pub(crate) const FULL_BOARD: i32 = 24;
/// Weights are stored in sixteenths of a hundredth of a man.
pub(crate) const WEIGHT_SCALE: f32 = 16.0;

const MAGIC: &[u8; 8] = b"CKPAT01\n";

/// The weights the program ships with, made by `checkers-lab train`.
static EMBEDDED: &[u8] = include_bytes!("weights.bin");

/// The features of one position and its game phase.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg(any(test, feature = "lab"))]
pub(crate) struct Features {
    /// Indices of the active features (each has value 1).
    pub(crate) active: Vec<u32>,
    /// Pieces on the board, 2 to 24: the opening weight counts `pieces / 24`, the ending
    /// weight the rest.
    pub(crate) pieces: i32,
}

/// The base-3 value of eight binary digits: bit `j` counts `3^j`.
const TERNARY: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        let mut v = 0u16;
        let mut p = 1u16;
        let mut j = 0;
        while j < 8 {
            if b & (1 << j) != 0 {
                v += p;
            }
            p *= 3;
            j += 1;
        }
        t[b] = v;
        b += 1;
    }
    t
};

/// The shift that brings a region's first square to bit 0: regions start at rows 0, 2
/// and 4 and take two neighbouring squares of each of their four rows.
const REGION_SHIFTS: [u32; REGIONS] = {
    let mut s = [0u32; REGIONS];
    let mut r = 0;
    while r < 3 {
        let mut c = 0;
        while c < 3 {
            s[r * 3 + c] = (8 * r + c) as u32;
            c += 1;
        }
        r += 1;
    }
    s
};

/// The eight squares of a region, as bits 0-7, from a board.
#[inline]
fn region_bits(board: u32, shift: u32) -> usize {
    let x = (board >> shift) & 0x3333;
    ((x & 0x3) | ((x >> 2) & 0xC) | ((x >> 4) & 0x30) | ((x >> 6) & 0xC0)) as usize
}

/// One side's men and kings, turned so that it moves up the rows like Black.
fn side(pos: &Position, color: Color) -> (u32, u32) {
    let men = pos.pieces(color, Role::Man).0;
    let kings = pos.pieces(color, Role::King).0;
    match color {
        Color::Black => (men, kings),
        Color::White => (men.reverse_bits(), kings.reverse_bits()),
    }
}

/// Calls `add` with every active feature of `pos` for the side to move, which has
/// `own_moves` legal moves and whose opponent would have `opp_moves`.
#[inline]
fn for_each_feature(pos: &Position, own_moves: u64, opp_moves: u64, mut add: impl FnMut(usize)) {
    let us = pos.turn();
    let (own_men, own_kings) = side(pos, us);
    let (opp_men, opp_kings) = side(pos, !us);
    for (region, &shift) in REGION_SHIFTS.iter().enumerate() {
        let own = TERNARY[region_bits(own_men, shift)] as usize;
        let opp = TERNARY[region_bits(opp_men, shift)] as usize;
        add(PATTERNS + region * ARRANGEMENTS + own + 2 * opp);
    }
    for sq in squares(own_kings) {
        add(KING_OWN + sq);
    }
    for sq in squares(opp_kings) {
        // The enemy's kings from our side of the board.
        add(KING_OPP + sq);
    }
    let count = |b: u32| (b.count_ones() as usize).min(12);
    add(MEN_OWN + count(own_men));
    add(MEN_OPP + count(opp_men));
    add(KINGS_OWN + count(own_kings));
    add(KINGS_OPP + count(opp_kings));
    let balance =
        (own_men | own_kings).count_ones() as i32 - (opp_men | opp_kings).count_ones() as i32;
    add(BALANCE + (balance.clamp(-12, 12) + 12) as usize);
    add(MOBILITY_OWN + own_moves.min(20) as usize);
    add(MOBILITY_OPP + opp_moves.min(20) as usize);
    let opp_all = opp_men | opp_kings;
    for sq in squares(own_men) {
        if CONES[sq] & opp_all == 0 {
            add(RUNAWAY_OWN + row(sq) as usize);
        }
    }
    let own_all_turned = (own_men | own_kings).reverse_bits();
    for sq in squares(opp_men.reverse_bits()) {
        if CONES[sq] & own_all_turned == 0 {
            add(RUNAWAY_OPP + row(sq) as usize);
        }
    }
    add(TEMPO);
}

#[cfg(any(test, feature = "lab"))]
impl Features {
    /// The features of `pos` for the side to move.
    pub(crate) fn of(pos: &Position) -> Features {
        let own_moves = pos.count_moves();
        let opp_moves = pos.with_turn(!pos.turn()).count_moves();
        let mut active = Vec::with_capacity(MAX_ACTIVE);
        for_each_feature(pos, own_moves, opp_moves, |f| active.push(f as u32));
        Features {
            active,
            pieces: pos.occupied().count() as i32,
        }
    }

    /// The weight the opening half of each feature gets (the ending half gets `1 -`).
    #[cfg(feature = "lab")]
    pub(crate) fn opening_share(&self) -> f32 {
        self.pieces.min(FULL_BOARD) as f32 / FULL_BOARD as f32
    }
}

/// Starting weights for training, in hundredths of a man: material alone (a man 100,
/// a king 130), everything else 0.
#[cfg(feature = "lab")]
pub(crate) fn material_weights() -> Vec<f32> {
    let mut w = vec![0.0; FEATURES];
    for count in 0..13 {
        let c = count as f32;
        w[MEN_OWN + count] = 100.0 * c;
        w[MEN_OPP + count] = -100.0 * c;
        w[KINGS_OWN + count] = 130.0 * c;
        w[KINGS_OPP + count] = -130.0 * c;
    }
    w
}

/// A set of weights: an opening and an ending weight per feature.
#[derive(Clone, PartialEq)]
pub(crate) struct Weights {
    /// Opening weights, in sixteenths of a hundredth of a man.
    pub(crate) opening: Box<[i16]>,
    /// Ending weights, in the same unit.
    pub(crate) ending: Box<[i16]>,
}

impl fmt::Debug for Weights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Weights({} features)", self.opening.len())
    }
}

/// Why a weights file cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum WeightsError {
    /// It does not start as a weights file of this program does.
    NotWeights,
    /// It is shorter or longer than the features need.
    WrongSize {
        /// Bytes the file should have.
        expected: usize,
        /// Bytes it has.
        found: usize,
    },
}

impl fmt::Display for WeightsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WeightsError::NotWeights => write!(f, "not a checkers weights file"),
            WeightsError::WrongSize { expected, found } => {
                write!(
                    f,
                    "a weights file of {found} bytes, where {expected} are needed"
                )
            }
        }
    }
}

impl std::error::Error for WeightsError {}

impl Weights {
    /// Bytes of a weights file.
    pub(crate) const FILE_BYTES: usize = MAGIC.len() + 4 * FEATURES;

    /// Weights from their float values in hundredths of a man (as training makes them).
    #[cfg(feature = "lab")]
    pub(crate) fn from_floats(opening: &[f32], ending: &[f32]) -> Weights {
        let quantize = |w: &[f32]| -> Box<[i16]> {
            w.iter()
                .map(|v| {
                    (v * WEIGHT_SCALE)
                        .round()
                        .clamp(i16::MIN as f32, i16::MAX as f32) as i16
                })
                .collect()
        };
        Weights {
            opening: quantize(opening),
            ending: quantize(ending),
        }
    }

    /// Reads a weights file's bytes.
    pub(crate) fn from_bytes(bytes: &[u8]) -> Result<Weights, WeightsError> {
        if !bytes.starts_with(MAGIC) {
            return Err(WeightsError::NotWeights);
        }
        if bytes.len() != Self::FILE_BYTES {
            return Err(WeightsError::WrongSize {
                expected: Self::FILE_BYTES,
                found: bytes.len(),
            });
        }
        let values: Vec<i16> = bytes[MAGIC.len()..]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect();
        let (opening, ending) = values.split_at(FEATURES);
        Ok(Weights {
            opening: opening.into(),
            ending: ending.into(),
        })
    }

    /// The bytes of a weights file.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn to_bytes(&self) -> Vec<u8> {
        let mut bytes = Vec::with_capacity(Self::FILE_BYTES);
        bytes.extend_from_slice(MAGIC);
        for w in self.opening.iter().chain(self.ending.iter()) {
            bytes.extend_from_slice(&w.to_le_bytes());
        }
        bytes
    }

    /// The weights built into the program.
    pub(crate) fn embedded() -> &'static Weights {
        static WEIGHTS: OnceLock<Weights> = OnceLock::new();
        WEIGHTS.get_or_init(|| {
            // A unit test reads the same bytes, so a broken file fails the tests, not
            // a game.
            Weights::from_bytes(EMBEDDED).expect("the embedded weights are a weights file")
        })
    }

    /// The value of `pos` for the side to move (hundredths of a man), which has
    /// `own_moves` legal moves.
    #[inline]
    pub(crate) fn evaluate_with_moves(&self, pos: &Position, own_moves: u64) -> i32 {
        let opp_moves = pos.with_turn(!pos.turn()).count_moves();
        let (mut opening, mut ending) = (0i32, 0i32);
        for_each_feature(pos, own_moves, opp_moves, |f| {
            opening += i32::from(self.opening[f]);
            ending += i32::from(self.ending[f]);
        });
        let pieces = (pos.occupied().count() as i32).min(FULL_BOARD);
        let blended = opening * pieces + ending * (FULL_BOARD - pieces);
        blended / (FULL_BOARD * WEIGHT_SCALE as i32)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::eval::col;

    #[test]
    fn regions_cover_four_rows_of_two_squares() {
        // The first region holds squares 1, 2, 5, 6, 9, 10, 13 and 14.
        let all = u32::MAX;
        assert_eq!(region_bits(all, 0), 0xFF);
        let one = |sq: u32| region_bits(1 << (sq - 1), REGION_SHIFTS[0]);
        assert_eq!(one(1), 1);
        assert_eq!(one(2), 2);
        assert_eq!(one(5), 4);
        assert_eq!(one(14), 128);
        assert_eq!(one(3), 0);
        // The last region: rows 5-8, the last two squares of each row.
        let last = |sq: u32| region_bits(1 << (sq - 1), REGION_SHIFTS[8]);
        assert_eq!(last(19), 1);
        assert_eq!(last(32), 128);
        assert_eq!(last(18), 0);
        // Every square is in at least one region, the centre in four.
        let mut cover = [0; 32];
        for &shift in &REGION_SHIFTS {
            for (sq, count) in cover.iter_mut().enumerate() {
                if region_bits(1 << sq, shift) != 0 {
                    *count += 1;
                }
            }
        }
        assert!(cover.iter().all(|&c| c >= 1), "{cover:?}");
        assert_eq!(cover[13], 4, "square 14 is in four regions");
    }

    #[test]
    fn regions_are_squares_of_the_board() {
        // Each region's eight squares span four rows and four columns.
        for &shift in &REGION_SHIFTS {
            let sqs: Vec<usize> = (0..32)
                .filter(|&s| region_bits(1 << s, shift) != 0)
                .collect();
            assert_eq!(sqs.len(), 8);
            let rows: Vec<i32> = sqs.iter().map(|&s| row(s)).collect();
            let cols: Vec<i32> = sqs.iter().map(|&s| col(s)).collect();
            assert_eq!(rows.iter().max().unwrap() - rows.iter().min().unwrap(), 3);
            assert_eq!(cols.iter().max().unwrap() - cols.iter().min().unwrap(), 3);
        }
    }

    #[test]
    fn the_embedded_weights_read() {
        let w = Weights::from_bytes(EMBEDDED).expect("weights");
        assert_eq!(w.opening.len(), FEATURES);
        assert_eq!(Weights::from_bytes(&w.to_bytes()), Ok(w));
    }

    #[test]
    fn a_weights_file_of_the_wrong_size_is_refused() {
        let w = Weights::embedded();
        let bytes = w.to_bytes();
        assert_eq!(
            Weights::from_bytes(&bytes[..bytes.len() - 2]),
            Err(WeightsError::WrongSize {
                expected: Weights::FILE_BYTES,
                found: bytes.len() - 2
            })
        );
        assert_eq!(Weights::from_bytes(b"hello"), Err(WeightsError::NotWeights));
    }

    #[test]
    fn features_are_the_same_for_either_colour_to_move_in_the_mirror() {
        // A position and its mirror (board turned, colours swapped) have the same
        // features for the side to move.
        let pos: Position = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
            .parse()
            .unwrap();
        let mirrored = pos.mirrored();
        let mut a = Features::of(&pos).active;
        let mut b = Features::of(&mirrored).active;
        a.sort_unstable();
        b.sort_unstable();
        assert_eq!(a, b);
        assert!(a.len() <= MAX_ACTIVE);
    }

    #[test]
    fn material_counts_in_the_embedded_weights() {
        // A man up is good for the side that has it, whichever side moves.
        let w = Weights::embedded();
        let up: Position = "B:W30,31:B5,9,10".parse().unwrap();
        assert!(w.evaluate_with_moves(&up, up.count_moves()) > 50);
        let down = up.with_turn(Color::White);
        assert!(w.evaluate_with_moves(&down, down.count_moves()) < -50);
    }
}
