//! Zobrist hashing of positions.
//!
//! Every (piece kind, square) pair has a random 64-bit key and the side to move has one;
//! a position's hash is the XOR of the keys of what is on the board. The keys are
//! pre-combined per byte of each piece-kind bitboard, so hashing a position from
//! scratch costs sixteen table look-ups: cheaper than updating it move by move, and it
//! cannot drift out of step with the position.

use crate::rules::{Color, Position, Role};

/// SplitMix64: a good 64-bit mixer, used for the key table and for search noise.
pub(crate) const fn splitmix64(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The key of piece kind `kind` (0-3) on square index `sq` (0-31).
const fn square_key(kind: usize, sq: usize) -> u64 {
    splitmix64(0x00C0_FFEE_u64 + (kind * 32 + sq) as u64)
}

/// `BYTE_KEYS[kind][byte][b]`: the XOR of the square keys of the set bits of `b`, for
/// the squares `8 * byte .. 8 * byte + 8`.
static BYTE_KEYS: [[[u64; 256]; 4]; 4] = {
    let mut table = [[[0u64; 256]; 4]; 4];
    let mut kind = 0;
    while kind < 4 {
        let mut byte = 0;
        while byte < 4 {
            let mut b = 0;
            while b < 256 {
                let mut key = 0u64;
                let mut bit = 0;
                while bit < 8 {
                    if b & (1 << bit) != 0 {
                        key ^= square_key(kind, byte * 8 + bit);
                    }
                    bit += 1;
                }
                table[kind][byte][b] = key;
                b += 1;
            }
            byte += 1;
        }
        kind += 1;
    }
    table
};

/// The key XORed in when White is to move.
const WHITE_TO_MOVE: u64 = splitmix64(0xB1AC_u64 << 20);

#[inline(always)]
fn board_key(kind: usize, bits: u32) -> u64 {
    let t = &BYTE_KEYS[kind];
    t[0][(bits & 0xFF) as usize]
        ^ t[1][((bits >> 8) & 0xFF) as usize]
        ^ t[2][((bits >> 16) & 0xFF) as usize]
        ^ t[3][(bits >> 24) as usize]
}

/// The Zobrist hash of `pos`: pieces, kings and the side to move.
#[inline]
pub(crate) fn hash(pos: &Position) -> u64 {
    let key = board_key(0, pos.pieces(Color::Black, Role::Man).0)
        ^ board_key(1, pos.pieces(Color::Black, Role::King).0)
        ^ board_key(2, pos.pieces(Color::White, Role::Man).0)
        ^ board_key(3, pos.pieces(Color::White, Role::King).0);
    match pos.turn() {
        Color::Black => key,
        Color::White => key ^ WHITE_TO_MOVE,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hash_is_the_xor_of_square_keys() {
        let pos: Position = "W:W21,K30:B1,K12".parse().unwrap();
        let expected = square_key(0, 0) ^ square_key(1, 11) ^ square_key(2, 20);
        let expected = expected ^ square_key(3, 29) ^ WHITE_TO_MOVE;
        assert_eq!(hash(&pos), expected);
    }

    #[test]
    fn side_to_move_and_kings_change_the_hash() {
        let pos = Position::start();
        assert_ne!(hash(&pos), hash(&pos.with_turn(Color::White)));
        let a: Position = "B:W21:B1".parse().unwrap();
        let b: Position = "B:W21:BK1".parse().unwrap();
        assert_ne!(hash(&a), hash(&b));
    }
}
