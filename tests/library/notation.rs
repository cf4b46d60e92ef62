//! Move text: the forms a player types, and the reasons a move is refused.

use checkers::rules::{MoveError, Position};

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

fn refusal(fen: &str, text: &str) -> String {
    let p = pos(fen);
    match p.parse_move(text) {
        Ok(m) => panic!("{text} was accepted as {m} in {fen}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn steps_and_captures_in_every_accepted_form() {
    let start = Position::start();
    assert_eq!(start.parse_move("11-15").unwrap().to_string(), "11-15");
    assert_eq!(
        start.parse_move("11x15").unwrap().to_string(),
        "11-15",
        "x for a step"
    );
    assert_eq!(start.parse_move(" 11 - 15 ").unwrap().to_string(), "11-15");
    // Algebraic: 11 is f6 seen from White's side, 15 is e5.
    assert_eq!(start.parse_move("f6-e5").unwrap().to_string(), "11-15");
    let p = pos("W:W22:B18,11");
    for text in [
        "22x15x8", "22x8", "22-15-8", "22-8", "22:15:8", "c3xe5xg7", "c3xg7", "22X8",
    ] {
        assert_eq!(p.parse_move(text).unwrap().to_string(), "22x15x8", "{text}");
    }
}

#[test]
fn typed_forms_a_player_reaches_for() {
    let start = Position::start();
    for text in ["11 15", "11.15", "11  15", "11-15.", "1115", " 11 - 15 "] {
        assert_eq!(
            start.parse_move(text).map(|m| m.to_string()),
            Ok("11-15".to_string()),
            "{text}"
        );
    }
    assert_eq!(start.parse_move("0913").unwrap().to_string(), "9-13");
    // c3b4 is 22-17 (the letters name the squares from White's side).
    let white: Position = "W:W21-32:B1-12".parse().unwrap();
    for text in ["c3b4", "c3 b4", "C3B4", "c3-b4"] {
        assert_eq!(
            white.parse_move(text).unwrap().to_string(),
            "22-17",
            "{text}"
        );
    }
    let p = pos("W:W22:B18,11");
    assert_eq!(p.parse_move("22 15 8").unwrap().to_string(), "22x15x8");
    assert_eq!(p.parse_move("c3e5g7").unwrap().to_string(), "22x15x8");
    // Records keep the strict form: no space or full stop joins two squares there.
    assert!("8 11".parse::<checkers::rules::MoveText>().is_err());
    assert!("1115".parse::<checkers::rules::MoveText>().is_err());
    // Four digits that are not two squares are not guessed at.
    assert!(start.parse_move("4015").is_err());
    assert!(start.parse_move("815").is_err());
}

#[test]
fn short_form_of_a_multi_jump_with_intermediate_squares_named() {
    // A route can be named by its ends, or with some of its landings.
    let p = pos("B:W6,15,24:B1");
    for text in ["1x10x19x28", "1x28", "1x19x28", "1x10x28", "1-28"] {
        assert_eq!(
            p.parse_move(text).unwrap().to_string(),
            "1x10x19x28",
            "{text}"
        );
    }
    // Landings named out of order do not name the route.
    assert!(p.parse_move("1x19x10x28").is_err());
}

#[test]
fn ambiguous_short_form_lists_routes() {
    let p = pos("B:W6,7,14,15:B2");
    let err = p.parse_move("2x18").unwrap_err();
    match &err {
        MoveError::Ambiguous { candidates, .. } => assert_eq!(candidates.len(), 2),
        other => panic!("expected ambiguity, got {other:?}"),
    }
    assert_eq!(err.to_string(), "2x18 is ambiguous: 2x9x18 or 2x11x18");
    assert_eq!(p.parse_move("2x9x18").unwrap().to_string(), "2x9x18");
    assert_eq!(p.parse_move("2x11x18").unwrap().to_string(), "2x11x18");
}

#[test]
fn display_uses_short_form_unless_ambiguous() {
    let p = pos("B:W6,7,14,15:B2");
    let names: Vec<String> = p.legal_moves().iter().map(|m| p.notation(m)).collect();
    assert_eq!(names, ["2x9x18", "2x11x18"]);
    let p = pos("W:W22:B18,11");
    let m = p.legal_moves()[0];
    assert_eq!(p.notation(&m), "22x8");
    assert_eq!(m.to_string(), "22x15x8");
    let start = Position::start();
    assert_eq!(start.notation(&start.legal_moves()[0]), "9-13");
}

#[test]
fn compulsory_capture_is_explained_with_the_captures_allowed() {
    // Black's 15 can take 18 or 19 (landing 22 or 24); a step elsewhere is refused.
    let fen = "B:W18,19:B15,1";
    assert_eq!(
        refusal(fen, "1-6"),
        "a capture is compulsory: 15x22 or 15x24"
    );
    assert_eq!(
        refusal(fen, "15-18"),
        "a capture is compulsory: 15x22 or 15x24"
    );
}

#[test]
fn no_piece_of_yours() {
    assert_eq!(
        refusal("B:W21-32:B1-12", "14-18"),
        "no piece of yours on 14: it is empty"
    );
    assert_eq!(
        refusal("B:W21-32:B1-12", "22-18"),
        "no piece of yours on 22: it holds a White man, and Black is to move"
    );
}

#[test]
fn occupied_target() {
    assert_eq!(refusal("B:W21-32:B1-12", "5-9"), "9 is occupied");
}

#[test]
fn blocked_piece_says_it_cannot_move() {
    assert_eq!(
        refusal("B:W21-32:B1-12", "1-14"),
        "1 and 14 are not on one diagonal; the man on 1 has no legal move"
    );
}

#[test]
fn man_moving_backward_is_refused_with_the_reason() {
    assert_eq!(
        refusal("B:W32:B14,1", "14-9"),
        "a man moves only forward: 14 to 9 is backward (only kings move back)"
    );
}

#[test]
fn jump_with_nothing_to_jump() {
    assert_eq!(
        refusal("B:W32:B14,1", "14-23"),
        "no capture from 14 to 23: no opposing piece on 18 to jump"
    );
}

#[test]
fn stopping_a_multi_jump_early_is_refused() {
    assert_eq!(
        refusal("W:W22:B18,11", "22x15"),
        "the capture must go on while the piece can jump: 22x15x8"
    );
}

#[test]
fn continuing_after_crowning_is_refused() {
    assert_eq!(
        refusal("B:W25,26:B21", "21x30x23"),
        "a man crowned on 30 ends its move there"
    );
}

#[test]
fn a_move_typed_too_long_is_not_blamed_on_crowning() {
    // Neither 14 nor 22 is on the far row: the move simply ends there.
    let start = Position::start().to_string();
    assert_eq!(
        refusal(&start, "10-14-18"),
        "a step goes one square only: 10-14"
    );
    assert_eq!(
        refusal(&start, "9-13-17"),
        "a step goes one square only: 9-13"
    );
    assert_eq!(
        refusal("B:W10,18,30:B6", "6x15x22x31"),
        "the capture 6x15x22 ends there: nothing more can be jumped"
    );
}

#[test]
fn a_move_this_piece_cannot_make_says_what_is_wrong_then_lists_what_it_can() {
    assert_eq!(
        refusal("B:W32:B14,1", "14-22"),
        "14 and 22 are not on one diagonal; the man on 14 can play 14-17 or 14-18"
    );
    assert_eq!(
        refusal("B:W32:B14,1", "14-19"),
        "14 and 19 are not on one diagonal; the man on 14 can play 14-17 or 14-18"
    );
    assert_eq!(
        refusal("B:W32:B14,1", "1-19"),
        "1 and 19 are 4 squares apart: a step goes one square, a jump two; the man on 1 \
         can play 1-5 or 1-6"
    );
    assert_eq!(
        refusal("B:W32:B14,1", "14-14"),
        "14 is named twice in a row; the man on 14 can play 14-17 or 14-18"
    );
    // A piece with no move: what is wrong with the squares first, then that.
    assert_eq!(
        refusal("B:W5,6,10:B1,12", "1-8"),
        "1 and 8 are not on one diagonal; the man on 1 has no legal move"
    );
    assert_eq!(refusal("B:W5,6,10:B1,12", "1-5"), "5 is occupied");
}

#[test]
fn syntax_errors_name_the_column() {
    let start = Position::start();
    let cases = [
        ("", "no move given (type e.g. 11-15 or 15x22)"),
        ("11", "a move names at least two squares, like 11-15"),
        ("11-", "a square is missing at the end (column 4)"),
        (
            "11-33",
            "column 4: 33 is not a square: squares are numbered 1-32",
        ),
        ("11/15", "expected '-' or 'x' at column 3, found '/'"),
        (
            "b1-c2",
            "column 1: b1 is a light square: play is on the dark squares only",
        ),
        ("11--15", "expected a square at column 4, found '-'"),
    ];
    for (text, message) in cases {
        let err = start.parse_move(text).unwrap_err();
        assert!(matches!(err, MoveError::Syntax(_)), "{text}: {err:?}");
        assert_eq!(err.to_string(), message, "{text}");
    }
}

#[test]
fn refused_moves_leave_the_position_unchanged() {
    let start = Position::start();
    let copy = start;
    let _ = start.play_text("1-5");
    assert_eq!(start, copy);
}

#[test]
fn a_full_route_is_exact_even_when_it_reads_as_a_shortened_longer_route() {
    // Found by the property tests: a king on 21 may take 17 and 9 (21x14x5) or go round
    // by 30 and 23 first (21x30x23x14x5). "21x14x5" names the first route exactly.
    let p = pos("B:W9,17,25,26,18:BK21");
    let names: Vec<String> = p.legal_moves().iter().map(|m| m.to_string()).collect();
    assert!(names.contains(&"21x14x5".to_string()), "{names:?}");
    assert!(names.contains(&"21x30x23x14x5".to_string()), "{names:?}");
    assert_eq!(p.parse_move("21x14x5").unwrap().to_string(), "21x14x5");
    assert_eq!(
        p.parse_move("21x30x23x14x5").unwrap().to_string(),
        "21x30x23x14x5"
    );
    assert!(matches!(
        p.parse_move("21x5"),
        Err(MoveError::Ambiguous { .. })
    ));
}

#[test]
fn every_square_of_a_route_names_it_even_when_a_loop_passes_them_too() {
    // A king's single jump 18x25 has the same ends as two loops through 11, 20, 27;
    // written as it is, it names the single jump (found by the playout property test).
    let pos: Position = "B:W8,9,12,15,16,22,23,24:B1,2,3,4,5,6,7,10,13,14,17,K18"
        .parse()
        .unwrap();
    let m = pos.parse_move("18x25").unwrap();
    assert_eq!(m.to_string(), "18x25");
    assert_eq!(pos.parse_move(&pos.notation(&m)).unwrap(), m);
    let m = pos.parse_move("18x11x20x27x18x25").unwrap();
    assert_eq!(m.landings().len(), 5);
}
