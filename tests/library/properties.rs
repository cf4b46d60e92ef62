//! Property tests over random playouts and random positions.
//!
//! The legality oracle here is written separately from the engine's generator: a plain
//! 8x8 array, coordinates worked out from the diagram numbering, and captured pieces
//! lifted at once. The engine's move list must equal the oracle's, route for route.

use checkers::rules::{Bitboard, Color, Move, MoveText, Position, Role, Square};
use proptest::prelude::*;
use std::collections::BTreeSet;

#[derive(Clone, Copy, PartialEq)]
struct Man {
    black: bool,
    king: bool,
}

type Board = [[Option<Man>; 8]; 8];

/// Row and column of square `n` (1-32) on the diagram, Black's side row 0, left column 0.
fn coords(n: u8) -> (i8, i8) {
    let i = (n - 1) as i8;
    let row = i / 4;
    let k = i % 4;
    let col = if row % 2 == 0 { 6 - 2 * k } else { 7 - 2 * k };
    (row, col)
}

fn number(row: i8, col: i8) -> Option<u8> {
    (1..=32).find(|&n| coords(n) == (row, col))
}

fn board_of(pos: &Position) -> Board {
    let mut b: Board = [[None; 8]; 8];
    for n in 1..=32u8 {
        if let Some(p) = pos.piece_at(Square::new(n).unwrap()) {
            let (r, c) = coords(n);
            b[r as usize][c as usize] = Some(Man {
                black: p.color == Color::Black,
                king: p.role == Role::King,
            });
        }
    }
    b
}

fn at(b: &Board, r: i8, c: i8) -> Option<Option<Man>> {
    if (0..8).contains(&r) && (0..8).contains(&c) {
        Some(b[r as usize][c as usize])
    } else {
        None
    }
}

/// Every route as its list of square numbers, by brute force.
fn oracle_moves(pos: &Position) -> BTreeSet<Vec<u8>> {
    let b = board_of(pos);
    let black = pos.turn() == Color::Black;
    let mut captures = BTreeSet::new();
    let mut steps = BTreeSet::new();
    for r in 0..8i8 {
        for c in 0..8i8 {
            let Some(Some(me)) = at(&b, r, c) else {
                continue;
            };
            if me.black != black {
                continue;
            }
            let fwd = if black { 1 } else { -1 };
            let dirs: Vec<(i8, i8)> = if me.king {
                vec![(1, 1), (1, -1), (-1, 1), (-1, -1)]
            } else {
                vec![(fwd, 1), (fwd, -1)]
            };
            for &(dr, dc) in &dirs {
                if let Some(None) = at(&b, r + dr, c + dc) {
                    steps.insert(vec![number(r, c).unwrap(), number(r + dr, c + dc).unwrap()]);
                }
            }
            let mut board = b;
            board[r as usize][c as usize] = None;
            let mut path = vec![number(r, c).unwrap()];
            jumps(&mut board, me, r, c, &dirs, &mut path, &mut captures);
        }
    }
    if captures.is_empty() { steps } else { captures }
}

fn jumps(
    b: &mut Board,
    me: Man,
    r: i8,
    c: i8,
    dirs: &[(i8, i8)],
    path: &mut Vec<u8>,
    out: &mut BTreeSet<Vec<u8>>,
) {
    let crown_row = if me.black { 7 } else { 0 };
    let mut any = false;
    for &(dr, dc) in dirs {
        let (or, oc, lr, lc) = (r + dr, c + dc, r + 2 * dr, c + 2 * dc);
        let Some(Some(victim)) = at(b, or, oc) else {
            continue;
        };
        if victim.black == me.black || at(b, lr, lc) != Some(None) {
            continue;
        }
        any = true;
        b[or as usize][oc as usize] = None; // lifted at once: it cannot be jumped twice
        path.push(number(lr, lc).unwrap());
        if !me.king && lr == crown_row {
            out.insert(path.clone()); // crowning ends the move
        } else {
            jumps(b, me, lr, lc, dirs, path, out);
        }
        path.pop();
        b[or as usize][oc as usize] = Some(victim);
    }
    if !any && path.len() > 1 {
        out.insert(path.clone());
    }
}

fn route(m: &Move) -> Vec<u8> {
    m.squares().iter().map(|s| s.number()).collect()
}

/// A random legal position: each square empty or holding a piece, men off their
/// crowning rows, at most 12 a side.
fn arb_position() -> impl Strategy<Value = Position> {
    (proptest::collection::vec(0u8..9, 32), any::<bool>()).prop_map(|(cells, black_to_move)| {
        let (mut black, mut white, mut kings) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
        for (i, cell) in cells.into_iter().enumerate() {
            let sq = Square::from_index(i as u8);
            let (is_black, king) = match cell {
                0 | 1 => (true, false),
                2 => (true, true),
                3 | 4 => (false, false),
                5 => (false, true),
                _ => continue,
            };
            let side = if is_black { black } else { white };
            if side.count() >= 12 {
                continue;
            }
            let crown = if is_black {
                sq.row() == 7
            } else {
                sq.row() == 0
            };
            if is_black {
                black = black.with(sq);
            } else {
                white = white.with(sq);
            }
            if king || crown {
                kings = kings.with(sq);
            }
        }
        let turn = if black_to_move {
            Color::Black
        } else {
            Color::White
        };
        Position::from_parts(black, white, kings, turn).unwrap()
    })
}

/// Positions reached from the start by `choices.len()` random legal moves (or fewer,
/// if the game ends first).
fn playout(choices: &[usize]) -> Vec<Position> {
    let mut pos = Position::start();
    let mut seen = vec![pos];
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(&moves[c % moves.len()]);
        seen.push(pos);
    }
    seen
}

fn check_position(pos: &Position) -> Result<(), TestCaseError> {
    let moves = pos.legal_moves();
    let engine: BTreeSet<Vec<u8>> = moves.iter().map(route).collect();
    prop_assert_eq!(&engine, &oracle_moves(pos), "position {}", pos);
    prop_assert_eq!(engine.len(), moves.len(), "duplicate moves in {}", pos);
    prop_assert_eq!(pos.count_moves(), moves.len() as u64);
    // FEN round trip.
    prop_assert_eq!(pos.to_string().parse::<Position>().unwrap(), *pos);
    for m in &moves {
        // Display then parse gives the same move, long and short forms.
        prop_assert_eq!(pos.parse_move(&m.to_string()).unwrap(), *m);
        prop_assert_eq!(pos.parse_move(&pos.notation(m)).unwrap(), *m);
        prop_assert!(pos.play(m).is_ok());
        // Playing removes exactly the captured pieces and moves the mover.
        let after = pos.play_unchecked(m);
        let us = pos.turn();
        prop_assert_eq!(after.side(!us), pos.side(!us) & !m.captured());
        prop_assert_eq!(m.captured() & pos.side(!us), m.captured());
        let expected_us = (pos.side(us).without(m.from())).with(m.to());
        prop_assert_eq!(after.side(us), expected_us);
        prop_assert_eq!(after.turn(), !us);
        let was_king = pos.kings().contains(m.from());
        let crowned = m.to().row() == if us == Color::Black { 7 } else { 0 };
        prop_assert_eq!(after.kings().contains(m.to()), was_king || crowned);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn playouts_match_the_oracle(choices in proptest::collection::vec(any::<usize>(), 0..120)) {
        for pos in playout(&choices) {
            check_position(&pos)?;
        }
    }

    #[test]
    fn random_positions_match_the_oracle(pos in arb_position()) {
        check_position(&pos)?;
    }

    #[test]
    fn a_mirrored_position_has_the_mirrored_moves(pos in arb_position()) {
        let mirror = pos.mirrored();
        prop_assert_eq!(mirror.mirrored(), pos);
        let turned = |m: &Move| route(m).iter().map(|&n| 33 - n).collect::<Vec<u8>>();
        let ours: BTreeSet<Vec<u8>> = pos.legal_moves().iter().map(turned).collect();
        let theirs: BTreeSet<Vec<u8>> = mirror.legal_moves().iter().map(route).collect();
        prop_assert_eq!(ours, theirs);
    }

    #[test]
    fn parsers_never_panic_on_any_text(text in "\\PC{0,40}") {
        let _ = text.parse::<Position>();
        let _ = text.parse::<MoveText>();
        let _ = text.parse::<Square>();
        let _ = Position::start().parse_move(&text);
    }

    #[test]
    fn parsers_never_panic_on_near_misses(text in "[BWKbwk0-9:,. x-]{0,40}") {
        if let Ok(pos) = text.parse::<Position>() {
            prop_assert_eq!(pos.to_string().parse::<Position>().unwrap(), pos);
        }
        let _ = Position::start().parse_move(&text);
        let _ = "W:W22:B18,11".parse::<Position>().unwrap().parse_move(&text);
    }
}
