//! The rules of English draughts, one test per rule and per common mistake (DESIGN §1).

use checkers::rules::{Color, Outcome, Position, Role, Square, WinReason};

fn pos(fen: &str) -> Position {
    fen.parse().unwrap_or_else(|e| panic!("{fen}: {e}"))
}

fn moves(fen: &str) -> Vec<String> {
    pos(fen)
        .legal_moves()
        .iter()
        .map(|m| m.to_string())
        .collect()
}

fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

#[test]
fn black_moves_first_from_1_to_12() {
    let start = Position::start();
    assert_eq!(start.turn(), Color::Black);
    let black: Vec<u8> = start
        .side(Color::Black)
        .into_iter()
        .map(Square::number)
        .collect();
    let white: Vec<u8> = start
        .side(Color::White)
        .into_iter()
        .map(Square::number)
        .collect();
    assert_eq!(black, (1..=12).collect::<Vec<_>>());
    assert_eq!(white, (21..=32).collect::<Vec<_>>());
    assert_eq!(
        moves("B:W21-32:B1-12"),
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
}

#[test]
fn men_step_diagonally_forward_only() {
    // Black man on 14 steps to 17 or 18, never back to 9 or 10.
    assert_eq!(moves("B:W32:B14"), ["14-17", "14-18"]);
    // White man on 19 steps to 15 or 16 (toward 1), never to 23 or 24.
    assert_eq!(moves("W:W19:B1"), ["19-15", "19-16"]);
}

#[test]
fn edge_men_have_one_step() {
    assert_eq!(moves("B:W32:B5"), ["5-9"]);
    assert_eq!(moves("B:W32:B12"), ["12-16"]);
}

#[test]
fn kings_step_one_square_in_all_four_directions_and_do_not_fly() {
    assert_eq!(moves("B:W32:BK15"), ["15-10", "15-11", "15-18", "15-19"]);
    // A flying king would take 22 from 15 across the empty 18; ours may not.
    assert_eq!(moves("B:W22:BK15"), ["15-10", "15-11", "15-18", "15-19"]);
}

#[test]
fn captures_are_compulsory() {
    // Black could step 1-6, but the man on 5 can jump 9, so it must.
    assert_eq!(moves("B:W9:B1,5"), ["5x14"]);
}

#[test]
fn diagram_87_white_14_9_forces_5x14() {
    let after = pos("W:W14:B5,1").play_text("14-9").unwrap();
    assert_eq!(
        after
            .legal_moves()
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>(),
        ["5x14"]
    );
}

#[test]
fn men_do_not_capture_backwards_but_kings_do() {
    // White man on 11 is behind the black man on 15, with 8 empty.
    assert_eq!(moves("B:W11:B15"), ["15-18", "15-19"]);
    assert_eq!(moves("B:W11:BK15"), ["15x8"]);
}

#[test]
fn a_jump_continues_while_the_piece_can_jump() {
    // The worked capture c3xe5xg7: White's 22 takes 18 and 11.
    assert_eq!(moves("W:W22:B18,11"), ["22x15x8"]);
    let p = pos("W:W22:B18,11");
    assert_eq!(p.parse_move("c3xe5xg7").unwrap().to_string(), "22x15x8");
}

#[test]
fn no_step_in_the_middle_of_a_jump() {
    // After 5x14 nothing more can be jumped; the man may not add a step 14-17/18.
    let p = pos("B:W9:B5");
    assert_eq!(moves("B:W9:B5"), ["5x14"]);
    let after = p.play_text("5x14").unwrap();
    assert_eq!(after.turn(), Color::White);
    assert_eq!(after.piece_at(sq(14)).map(|p| p.role), Some(Role::Man));
}

#[test]
fn any_capture_route_may_be_chosen() {
    // Black man on 1 may take one piece (1x10) or... choose the short capture by 5 instead.
    // 5x14 takes one piece; 1x10x19 takes two. Both are legal: no majority rule.
    let ms = moves("B:W6,9,15:B1,5");
    assert!(ms.contains(&"5x14".to_string()), "{ms:?}");
    assert!(ms.contains(&"1x10x19".to_string()), "{ms:?}");
}

#[test]
fn every_route_is_its_own_move() {
    assert_eq!(moves("B:W6,7,14,15:B2"), ["2x9x18", "2x11x18"]);
}

#[test]
fn a_king_may_loop_back_to_its_start_square_and_never_jumps_a_piece_twice() {
    // The same four pieces taken clockwise and anticlockwise: two moves, both ending on 7.
    let p = pos("B:W10,11,18,19:BK7");
    let ms = p.legal_moves();
    assert_eq!(ms.len(), 2);
    for m in &ms {
        assert_eq!(m.from(), sq(7));
        assert_eq!(m.to(), sq(7));
        assert_eq!(m.captured().count(), 4);
        let after = p.play_unchecked(m);
        assert!(after.side(Color::White).is_empty());
        assert_eq!(after.piece_at(sq(7)).map(|p| p.role), Some(Role::King));
    }
    assert_eq!(
        ms.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
        ["7x14x23x16x7", "7x16x23x14x7"]
    );
}

#[test]
fn crowning_ends_the_move_even_mid_capture() {
    // 21x30 crowns; as a king it could go on 30x23 over 26, but the move stops.
    let p = pos("B:W25,26:B21");
    assert_eq!(moves("B:W25,26:B21"), ["21x30"]);
    let after = p.play_text("21x30").unwrap();
    assert_eq!(after.piece_at(sq(30)).map(|p| p.role), Some(Role::King));
    assert!(after.side(Color::White).contains(sq(26)), "26 must survive");
    assert_eq!(after.turn(), Color::White);
    // Same for White, crowning on 1-4.
    let w = pos("W:W12:B7,8");
    assert_eq!(moves("W:W12:B7,8"), ["12x3"]);
    assert!(w.play_text("12x3").unwrap().kings().contains(sq(3)));
}

#[test]
fn a_man_reaching_the_far_row_by_a_step_is_crowned() {
    let after = pos("B:W5:B26").play_text("26-30").unwrap();
    assert_eq!(after.piece_at(sq(30)).map(|p| p.role), Some(Role::King));
    let after = pos("W:W6:B28").play_text("6-1").unwrap();
    assert_eq!(after.piece_at(sq(1)).map(|p| p.role), Some(Role::King));
}

#[test]
fn kings_are_not_recrowned_and_keep_their_role_when_moving() {
    let after = pos("B:W5:BK30").play_text("30-26").unwrap();
    assert_eq!(after.piece_at(sq(26)).map(|p| p.role), Some(Role::King));
    assert!(!after.kings().contains(sq(30)));
}

#[test]
fn captured_pieces_are_removed() {
    let after = pos("W:W22:B18,11").play_text("22x8").unwrap();
    assert!(after.side(Color::Black).is_empty());
    assert_eq!(
        after
            .side(Color::White)
            .into_iter()
            .map(Square::number)
            .collect::<Vec<_>>(),
        [8]
    );
}

#[test]
fn side_with_no_pieces_has_lost() {
    let p = pos("W:W:B1");
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoPieces
        })
    );
    assert!(p.legal_moves().is_empty());
}

#[test]
fn side_with_no_legal_move_has_lost() {
    // Black's man on 4 is blocked by 8, and 11 behind it stops the jump.
    let p = pos("B:W8,11:B4");
    assert!(p.legal_moves().is_empty());
    assert_eq!(
        p.outcome(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::NoMoves
        })
    );
    assert_eq!(Position::start().outcome(), None);
}

#[test]
fn play_refuses_a_move_from_another_position() {
    let start = Position::start();
    let foreign = pos("B:W9:B5").legal_moves()[0];
    assert!(start.play(&foreign).is_err());
    let legal = start.legal_moves()[0];
    assert_eq!(start.play(&legal), Ok(start.play_unchecked(&legal)));
}

#[test]
fn light_squares_are_not_part_of_the_board() {
    // b1 is light: algebraic input naming it is refused, and no move lands there.
    assert!(Position::start().parse_move("a1-b1").is_err());
    let err = Position::start()
        .parse_move("c3-d3")
        .unwrap_err()
        .to_string();
    assert!(err.contains("light square"), "{err}");
}
