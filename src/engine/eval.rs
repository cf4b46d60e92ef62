//! The static evaluation: what a quiet position is worth to the side to move.
//!
//! Both sides are scored by the same code: White's pieces are turned round
//! (`u32::reverse_bits` maps square `n` to `33 - n`, the board turned half a turn) so
//! that every table below is written once, from Black's side, Black moving up the rows.

use crate::rules::{Color, Position, Role};

/// A man's worth: the unit of every score.
pub(crate) const MAN: i32 = 100;
/// A king's worth.
pub(crate) const KING: i32 = 130;

/// The row of square index `i` from Black's side, 0 to 7.
pub(super) const fn row(i: usize) -> i32 {
    (i / 4) as i32
}

/// The column of square index `i`, 0 to 7.
pub(super) const fn col(i: usize) -> i32 {
    let k = (i % 4) as i32;
    if (i / 4).is_multiple_of(2) {
        6 - 2 * k
    } else {
        7 - 2 * k
    }
}

/// For each square, the squares in front of a (Black) man there that an enemy man would
/// have to stand on to stop it crowning: the cone widening one column a row.
pub(super) const CONES: [u32; 32] = {
    let mut cones = [0u32; 32];
    let mut i = 0;
    while i < 32 {
        let mut j = 0;
        while j < 32 {
            let ahead = row(j) - row(i);
            if ahead > 0 && (col(j) - col(i)).abs() <= ahead {
                cones[i] |= 1 << j;
            }
            j += 1;
        }
        i += 1;
    }
    cones
};

/// How far each square is from the centre, 0 (the four centre squares) to 3 (the edge).
const CENTRE_DISTANCE: [i32; 32] = {
    let mut d = [0; 32];
    let mut i = 0;
    while i < 32 {
        let r = (2 * row(i) - 7).abs();
        let c = (2 * col(i) - 7).abs();
        d[i] = (if r > c { r } else { c }) / 2;
        i += 1;
    }
    d
};

/// The back rank from Black's side: squares 1-4.
const BACK_RANK: u32 = 0x0000_000F;
/// The bridge, squares 1 and 3: the classic back-rank guard against crowning.
const BRIDGE: u32 = 0b0101;
/// The central squares 14, 15, 18, 19.
const CENTRE: u32 = (1 << 13) | (1 << 14) | (1 << 17) | (1 << 18);
/// The squares round the centre that men like to hold: 10, 11, 22, 23.
const NEAR_CENTRE: u32 = (1 << 9) | (1 << 10) | (1 << 21) | (1 << 22);
/// Both double corners (1, 5 and 28, 32): where a lone king is hardest to catch.
const DOUBLE_CORNERS: u32 = (1 << 0) | (1 << 4) | (1 << 27) | (1 << 31);

/// One side's pieces, turned so that the side moves up the rows like Black.
#[derive(Clone, Copy)]
struct Side {
    men: u32,
    kings: u32,
}

impl Side {
    fn of(pos: &Position, color: Color) -> Side {
        let men = pos.pieces(color, Role::Man).0;
        let kings = pos.pieces(color, Role::King).0;
        match color {
            Color::Black => Side { men, kings },
            Color::White => Side {
                men: men.reverse_bits(),
                kings: kings.reverse_bits(),
            },
        }
    }

    fn all(self) -> u32 {
        self.men | self.kings
    }

    fn material(self) -> i32 {
        MAN * self.men.count_ones() as i32 + KING * self.kings.count_ones() as i32
    }

    /// Turned to the other side's point of view.
    fn turned(self) -> Side {
        Side {
            men: self.men.reverse_bits(),
            kings: self.kings.reverse_bits(),
        }
    }
}

/// The indices of the set bits of `bits`, lowest first.
pub(super) fn squares(bits: u32) -> impl Iterator<Item = usize> {
    let mut b = bits;
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(i)
        }
    })
}

fn distance(a: usize, b: usize) -> i32 {
    (row(a) - row(b)).abs().max((col(a) - col(b)).abs())
}

/// Everything but material and mobility for `own`, both sides in `own`'s orientation.
fn positional(own: Side, opp: Side, pieces: i32, ahead: bool) -> i32 {
    let mut score = 0;
    // Back-rank guard: worth most while the enemy still has men to crown and the board
    // is full.
    if opp.men != 0 {
        let guard = (own.men & BACK_RANK).count_ones() as i32 * 6
            + if own.men & BRIDGE == BRIDGE { 8 } else { 0 };
        score += guard * pieces.min(20) / 20;
    }
    // Centre control by men.
    score += (own.men & CENTRE).count_ones() as i32 * 5;
    score += (own.men & NEAR_CENTRE).count_ones() as i32 * 2;
    // Tempo: men moving up matter little in a full board, a lot in an ending.
    let advance: i32 = squares(own.men).map(row).sum();
    let tempo_weight = match pieces {
        17.. => 1,
        9..=16 => 2,
        _ => 3,
    };
    score += advance * tempo_weight;
    // Runaway men: no enemy piece can stand in the way before the crowning row.
    let opp_all = opp.all();
    for sq in squares(own.men) {
        if CONES[sq] & opp_all == 0 {
            let bonus = 10 + 4 * row(sq);
            score += if opp.kings == 0 { bonus } else { bonus / 2 };
        }
    }
    // Kings belong in the centre, not on the edge.
    for sq in squares(own.kings) {
        score += (3 - CENTRE_DISTANCE[sq]) * 4;
    }
    // Endings: the stronger side drives its kings at the enemy; the weaker side's kings
    // run to the double corners.
    if pieces <= 12 && own.kings != 0 {
        if ahead && opp_all != 0 {
            for k in squares(own.kings) {
                let nearest = squares(opp_all).map(|t| distance(k, t)).min().unwrap_or(0);
                score -= 3 * nearest;
            }
        } else if !ahead {
            score += (own.kings & DOUBLE_CORNERS).count_ones() as i32 * 8;
        }
    }
    score
}

/// The value of `pos` for the side to move, which has `own_moves` legal moves (given by
/// the caller, which needs the count anyway to see that the game is not over).
pub(super) fn evaluate_with_moves(pos: &Position, own_moves: u64) -> i32 {
    let us = pos.turn();
    let own = Side::of(pos, us);
    let opp_own_view = Side::of(pos, !us);
    let pieces = pos.occupied().count() as i32;
    let own_material = own.material();
    let opp_material = opp_own_view.material();
    let diff = own_material - opp_material;
    let mut score = diff;
    // Trading down when ahead: the same lead counts for more on an emptier board (a man
    // up is worth a quarter man more with 24 pieces, two more with three).
    score += diff * 6 / pieces.max(1);
    let own_in_opp_view = own.turned();
    let opp_in_own_view = opp_own_view.turned();
    score += positional(own, opp_in_own_view, pieces, diff > 0);
    score -= positional(opp_own_view, own_in_opp_view, pieces, diff < 0);
    let opp_moves = pos.with_turn(!us).count_moves();
    score += 2 * (own_moves.min(20) as i32 - opp_moves.min(20) as i32);
    score
}

/// The value of `pos` for the side to move (hundredths of a man).
#[cfg(any(test, feature = "lab"))]
pub(crate) fn evaluate(pos: &Position) -> i32 {
    evaluate_with_moves(pos, pos.count_moves())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_is_level() {
        let pos = Position::start();
        assert_eq!(evaluate(&pos), evaluate(&pos.with_turn(Color::White)));
        assert!(evaluate(&pos).abs() < 20);
    }

    #[test]
    fn evaluation_is_colour_symmetric() {
        // The same position turned round with colours swapped scores the same.
        for fen in [
            "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29",
            "W:W21,22,30:B5,9,K14",
        ] {
            let pos: Position = fen.parse().unwrap();
            let black = pos.side(Color::Black).0.reverse_bits();
            let white = pos.side(Color::White).0.reverse_bits();
            let kings = pos.kings().0.reverse_bits();
            let mirrored = Position::from_parts(
                crate::rules::Bitboard(white),
                crate::rules::Bitboard(black),
                crate::rules::Bitboard(kings),
                !pos.turn(),
            )
            .unwrap();
            assert_eq!(evaluate(&pos), evaluate(&mirrored), "{fen}");
        }
    }

    #[test]
    fn material_dominates() {
        let up: Position = "B:W30:B5,9".parse().unwrap();
        assert!(evaluate(&up) > 80);
        let kings: Position = "B:WK30:BK5".parse().unwrap();
        let men: Position = "B:WK30:B5".parse().unwrap();
        assert!(evaluate(&kings) > evaluate(&men));
    }

    #[test]
    fn cones_cover_the_path_to_the_crown() {
        // A Black man on 25 (row 6) is stopped only from 29 or 30.
        assert_eq!(CONES[24], (1 << 28) | (1 << 29));
        assert_eq!(CONES[31], 0);
    }
}
