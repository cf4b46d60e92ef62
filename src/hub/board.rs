//! Positions and moves as the Hub protocol writes them for `variant=english`, and the
//! crate's [`Position`] and [`Move`].
//!
//! Moves are written with this crate's square numbers (1-32, Black's men starting on
//! 1-12): `9-14` for a step, and for a capture the start, the end, then every captured
//! square in increasing order (`5x14x9`, `1x19x6x15` for 1x10x19).
//!
//! A position is 33 characters, named as in international draughts, where the side
//! that moves first is "white" and stands on the high numbers: so, as pydraughts writes
//! English positions, the first character is the side to move (`W` for Black, the side
//! that moves first, `B` for White) and the next 32 describe squares 32, 31, ... 1 of
//! this crate (the board turned round), each `w` for a Black man, `W` a Black king, `b`
//! a White man, `B` a White king and `e` an empty square. That is the crate's
//! [`Position::mirrored`] written square by square: the start position is
//! `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`.

use crate::rules::{Bitboard, Color, Move, Position, SetupError, Square};

/// The start position, as the protocol writes it.
#[cfg(test)]
pub(crate) const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// Reads a Hub position (see the module's documentation), or says why it is not one,
/// in this program's terms (Black's men are the `w`s, on squares 1-32 as this program
/// numbers them) with the character that is wrong.
pub(crate) fn parse_position(text: &str) -> Result<Position, String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.len() != 33 {
        return Err(format!(
            "a position is 33 characters (the side to move, then 32 squares), not {}",
            chars.len()
        ));
    }
    // The side that moves first, Black here, is the protocol's white.
    let turn = match chars[0] {
        'W' | 'w' => Color::Black,
        'B' | 'b' => Color::White,
        other => return Err(format!("the side to move is W or B, not {other:?}")),
    };
    let (mut black, mut white, mut kings) = (Bitboard::EMPTY, Bitboard::EMPTY, Bitboard::EMPTY);
    // The squares come from 32 down to 1: square n is character 34 - n.
    for (sq, &c) in Square::ALL.iter().rev().zip(&chars[1..]) {
        match c {
            'w' => black = black.with(*sq),
            'b' => white = white.with(*sq),
            'W' => {
                black = black.with(*sq);
                kings = kings.with(*sq);
            }
            'B' => {
                white = white.with(*sq);
                kings = kings.with(*sq);
            }
            'e' | '.' => {}
            other => {
                return Err(format!(
                    "a square is w, b, W, B or e, not {other:?} (character {})",
                    character(*sq)
                ));
            }
        }
    }
    Position::from_parts(black, white, kings, turn).map_err(|e| setup_error(&e))
}

/// Which character of a position (counting the side to move as the first) is `sq`.
fn character(sq: Square) -> u8 {
    34 - sq.number()
}

/// Why the pieces of a position cannot stand so, with the letters the protocol writes
/// each side's pieces with.
fn setup_error(e: &SetupError) -> String {
    let letters = |color: Color| match color {
        Color::Black => ('w', 'W'),
        Color::White => ('b', 'B'),
    };
    match *e {
        SetupError::ManOnCrowningRow(sq, color) => {
            let (man, king) = letters(color);
            format!(
                "a {color} man ({man}) cannot stand on square {sq} (character {}): \
                 it is {color}'s crowning row, where it is a king ({king})",
                character(sq)
            )
        }
        SetupError::TooManyPieces(color, count) => {
            let (man, king) = letters(color);
            format!("{color} ({man} and {king}) has {count} pieces: a side has at most 12")
        }
        ref other => other.to_string(),
    }
}

/// Writes `pos` as a Hub position.
#[cfg(any(test, feature = "lab"))]
pub(crate) fn position_text(pos: &Position) -> String {
    let written = pos.mirrored();
    let mut text = String::with_capacity(33);
    text.push(match written.turn() {
        Color::White => 'W',
        Color::Black => 'B',
    });
    for sq in Square::ALL {
        text.push(match written.piece_at(sq) {
            None => 'e',
            Some(piece) => {
                let letter = match piece.color {
                    Color::White => 'w',
                    Color::Black => 'b',
                };
                if piece.role == crate::rules::Role::King {
                    letter.to_ascii_uppercase()
                } else {
                    letter
                }
            }
        });
    }
    text
}

/// Writes `m` as the protocol does: `9-14`, or `5x14x9` (start, end, then the captured
/// squares in increasing order).
pub(crate) fn move_text(m: &Move) -> String {
    let mut text = m.short_text();
    for sq in m.captured() {
        text.push_str(&format!("x{sq}"));
    }
    text
}

/// Writes a line of moves from `pos`, separated by blanks.
pub(crate) fn line_text(moves: &[Move]) -> String {
    moves.iter().map(move_text).collect::<Vec<_>>().join(" ")
}

/// The legal move of `pos` that `text` names: in the protocol's way (start, end and
/// the captured squares in any order, which may be left out when the start and end
/// are enough), or failing that as a record or a route of landings (`1x10x19`) names
/// it. Says why when none is.
pub(crate) fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    let legal = pos.legal_moves();
    let separator = if text.contains('x') { 'x' } else { '-' };
    let squares: Option<Vec<Square>> = text
        .split(separator)
        .map(|word| word.trim().parse::<Square>().ok())
        .collect();
    if let Some(squares) = squares.filter(|s| s.len() >= 2) {
        let (from, to) = (squares[0], squares[1]);
        let captured: Bitboard = squares[2..].iter().copied().collect();
        let capture = separator == 'x';
        let matching: Vec<&Move> = legal
            .iter()
            .filter(|m| m.from() == from && m.to() == to && m.is_capture() == capture)
            .filter(|m| squares.len() == 2 || m.captured() == captured)
            .collect();
        // Routes that capture the same pieces between the same squares end alike.
        if let Some(first) = matching.first()
            && matching.iter().all(|m| m.captured() == first.captured())
        {
            return Ok(**first);
        }
    }
    pos.parse_move(text)
        .map_err(|e| format!("{text} is not a legal move here: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_reads_as_pydraughts_writes_it() {
        assert_eq!(parse_position(START), Ok(Position::start()));
        assert_eq!(position_text(&Position::start()), START);
        // After 11-15 White is to move, and square 11 (character 23) is empty.
        let after = Position::start().play_text("11-15").unwrap();
        let text = position_text(&after);
        assert_eq!(&text[..1], "B");
        assert_eq!(text.chars().nth(33 - 11), Some('e'));
        assert_eq!(text.chars().nth(33 - 15), Some('w'));
        assert_eq!(parse_position(&text), Ok(after));
    }

    #[test]
    fn kings_and_either_side_to_move_round_trip() {
        for fen in ["B:W18,K30:B11,K2", "W:WK4:BK15,K16", "W:W9,14:B5"] {
            let pos: Position = fen.parse().unwrap();
            let text = position_text(&pos);
            assert_eq!(text.len(), 33);
            assert_eq!(parse_position(&text), Ok(pos), "{fen}: {text}");
        }
        // A Black king on 2 is the 31st square written, a `W`.
        let pos: Position = "B:W18,K30:B11,K2".parse().unwrap();
        assert_eq!(position_text(&pos).chars().nth(31), Some('W'));
    }

    #[test]
    fn bad_positions_are_refused_with_a_reason() {
        assert!(parse_position("").is_err());
        assert!(parse_position("W").is_err());
        assert!(parse_position(&START.replace('W', "X")).is_err());
        assert!(parse_position(&START.replacen('e', "q", 1)).is_err());
        assert!(parse_position(&format!("{START}e")).is_err());
        // Thirteen men a side, and a man on its crowning row.
        // Said in this program's colours and squares, with the letters written: `b` is
        // White's man, and the last character square 1.
        let thirteen = format!("W{}{}{}", "b".repeat(13), "e".repeat(7), "w".repeat(12));
        assert_eq!(
            parse_position(&thirteen).unwrap_err(),
            "White (b and B) has 13 pieces: a side has at most 12"
        );
        let crowned = format!("Ww{}", "e".repeat(31));
        assert_eq!(
            parse_position(&crowned).unwrap_err(),
            "a Black man (w) cannot stand on square 32 (character 2): it is \
             Black's crowning row, where it is a king (W)"
        );
        let crowned = format!("W{}b", "e".repeat(31));
        assert!(
            parse_position(&crowned)
                .unwrap_err()
                .contains("a White man (b) cannot stand on square 1 (character 33)")
        );
        assert!(
            parse_position(&format!("W{}x", "e".repeat(31)))
                .unwrap_err()
                .ends_with("not 'x' (character 33)")
        );
        // Multi-byte characters are counted as characters.
        assert!(parse_position(&"é".repeat(33)).is_err());
    }

    #[test]
    fn moves_are_written_with_their_captured_squares_and_read_back() {
        let pos: Position = "W:W14:B5,11".parse::<Position>().unwrap();
        let pos = pos.play_text("14-9").unwrap();
        let capture = pos.legal_moves()[0];
        assert_eq!(move_text(&capture), "5x14x9");
        assert_eq!(parse_move(&pos, "5x14x9"), Ok(capture));
        assert_eq!(parse_move(&pos, "5x14"), Ok(capture));
        // A double jump: captured squares in any order, or the route of landings.
        let pos: Position = "B:W6,15:B1".parse().unwrap();
        let double = pos.legal_moves()[0];
        assert_eq!(move_text(&double), "1x19x6x15");
        assert_eq!(parse_move(&pos, "1x19x15x6"), Ok(double));
        assert_eq!(parse_move(&pos, "1x10x19"), Ok(double));
        assert!(parse_move(&pos, "1x19x6").is_err());
        let start = Position::start();
        assert_eq!(move_text(&start.parse_move("9-14").unwrap()), "9-14");
        assert_eq!(
            parse_move(&start, "11-15"),
            Ok(start.parse_move("11-15").unwrap())
        );
        for bad in ["", "-", "11-", "40-44", "11-18", "x", "9-14-18", "é"] {
            assert!(parse_move(&start, bad).is_err(), "{bad}");
        }
    }
}
