//! FEN in the PDN style: lenient reading, plain sorted writing, errors that name the fault.

use checkers::rules::{Color, Position, Role, Square};

#[test]
fn writes_the_plain_sorted_form() {
    assert_eq!(
        Position::start().to_string(),
        "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
    );
    let p: Position = "W:BK19,11:W28,K4".parse().unwrap();
    assert_eq!(p.to_string(), "W:WK4,28:B11,K19");
}

#[test]
fn reads_kings_ranges_order_spaces_dot_and_algebraic() {
    let p: Position = "W:W K4 , 28 :BK11, 19.".parse().unwrap();
    assert_eq!(p.turn(), Color::White);
    let at = |n| p.piece_at(Square::new(n).unwrap());
    assert_eq!(
        at(4).map(|x| (x.color, x.role)),
        Some((Color::White, Role::King))
    );
    assert_eq!(
        at(28).map(|x| (x.color, x.role)),
        Some((Color::White, Role::Man))
    );
    assert_eq!(
        at(11).map(|x| (x.color, x.role)),
        Some((Color::Black, Role::King))
    );
    assert_eq!(
        at(19).map(|x| (x.color, x.role)),
        Some((Color::Black, Role::Man))
    );
    let ranged: Position = "B:WK29-32,21:B1-3".parse().unwrap();
    assert_eq!(ranged.to_string(), "B:W21,K29,K30,K31,K32:B1,2,3");
    let algebraic: Position = "W:Wc3:Be5,g7".parse().unwrap();
    assert_eq!(algebraic.to_string(), "W:W22:B8,15");
    assert_eq!(
        "b:w21-32:b1-12".parse::<Position>().unwrap(),
        Position::start()
    );
}

#[test]
fn a_side_may_have_no_pieces() {
    let p: Position = "W:W:B1,2".parse().unwrap();
    assert!(p.side(Color::White).is_empty());
    assert_eq!(p.to_string(), "W:W:B1,2");
    assert_eq!("B:B5".parse::<Position>().unwrap().to_string(), "B:W:B5");
    assert_eq!("W".parse::<Position>().unwrap().to_string(), "W:W:B");
}

#[test]
fn errors_name_the_field_and_square() {
    let cases = [
        ("", "the FEN is empty (expected e.g. B:W21-32:B1-12)"),
        (
            "X:W1:B2",
            "FEN field 1 (side to move) must be B or W, found 'X'",
        ),
        (
            "B:W21:B33",
            "FEN, Black's pieces, entry '33': 33 is not a square: squares are numbered 1-32",
        ),
        (
            "B:W21,0:B1",
            "FEN, White's pieces, entry '0': 0 is not a square: squares are numbered 1-32",
        ),
        (
            "B:W21,21:B1",
            "FEN, White's pieces, entry '21': square 21 is listed twice",
        ),
        (
            "B:W21:B21",
            "the FEN's position cannot be played: square 21 is given to both sides",
        ),
        (
            "B:W2:B1",
            "the FEN's position cannot be played: a White man cannot stand on 2: it is White's crowning row (make it a king: K2)",
        ),
        (
            "B:W21:B30",
            "the FEN's position cannot be played: a Black man cannot stand on 30: it is Black's crowning row (make it a king: K30)",
        ),
        (
            "B:W21:B12-9",
            "FEN, Black's pieces, entry '12-9': a range must run from a lower to a higher square (1-12)",
        ),
        (
            "B:W21:Bx",
            "FEN, Black's pieces, entry 'x': 'x' is not a square: give a number 1-32 or a name like c3",
        ),
        (
            "B:Q21:B1",
            "FEN field 2 must start with W or B (a side's pieces), found 'Q21'",
        ),
        ("B:W21:W22", "FEN lists White's pieces twice"),
        (
            "B:WK1-13:B20",
            "the FEN's position cannot be played: White has 13 pieces: a side has at most 12",
        ),
        (
            "B:W13-26:B1",
            "the FEN's position cannot be played: White has 14 pieces: a side has at most 12",
        ),
    ];
    for (fen, message) in cases {
        let err = fen.parse::<Position>().unwrap_err();
        // The whole reason, the wrapped error's included (as a program prints the chain
        // of sources).
        let mut text = err.to_string();
        let mut source = std::error::Error::source(&err);
        while let Some(inner) = source {
            text = format!("{text}: {inner}");
            source = inner.source();
        }
        assert_eq!(text, message, "{fen}");
    }
}

#[test]
fn kings_on_the_crowning_row_are_fine() {
    let p: Position = "B:WK1:BK32".parse().unwrap();
    assert_eq!(p.kings().count(), 2);
}
