//! Positions as FEN text in the PDN style: `B:W21,22,...,32:B1,2,...,12`.
//!
//! The first field is the side to move; then one field per side, a colour letter and a
//! comma list of squares, `K` before a king's square. The reader is lenient: either side's
//! list may come first, ranges (`B1-12`, `WK29-32`), algebraic squares, any order, spaces,
//! empty entries and a trailing `.` are accepted, and a side may have no pieces (an empty
//! or missing field). The writer emits the plain form: White's list, then Black's, each
//! sorted by square.

use super::{Bitboard, Color, ParseSquareError, Position, SetupError, Square};
use std::fmt;
use std::str::FromStr;

/// What is wrong with a FEN, naming the field and the square at fault.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FenError {
    /// The text is empty.
    Empty,
    /// The first field is not `B` or `W`.
    Turn {
        /// The text found there.
        found: String,
    },
    /// A field does not start with `W` or `B`.
    UnknownField {
        /// Its number, counted from 1 (the side to move is field 1).
        field: usize,
        /// The text found there.
        found: String,
    },
    /// The same side's list appears twice.
    SideTwice(Color),
    /// An entry in a side's list is not a square, a king's square or a range.
    Entry {
        /// The side whose list holds it.
        color: Color,
        /// The entry as written.
        entry: String,
        /// What is wrong with it.
        problem: EntryProblem,
    },
    /// The pieces do not make a valid position.
    Setup(SetupError),
}

/// What is wrong with one entry of a side's list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EntryProblem {
    /// Not a square.
    Square(ParseSquareError),
    /// A range whose start is after its end, or whose ends are not square numbers.
    BadRange,
    /// The square was already listed for this side.
    Duplicate(Square),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "the FEN is empty (expected e.g. B:W21-32:B1-12)"),
            FenError::Turn { found } => write!(
                f,
                "FEN field 1 (side to move) must be B or W, found '{found}'"
            ),
            FenError::UnknownField { field, found } => write!(
                f,
                "FEN field {field} must start with W or B (a side's pieces), found '{found}'"
            ),
            FenError::SideTwice(c) => write!(f, "FEN lists {c}'s pieces twice"),
            FenError::Entry {
                color,
                entry,
                problem,
            } => {
                write!(f, "FEN, {color}'s pieces, entry '{entry}'")?;
                match problem {
                    // Its reason is the source's to say.
                    EntryProblem::Square(_) => Ok(()),
                    EntryProblem::BadRange => {
                        write!(
                            f,
                            ": a range must run from a lower to a higher square (1-12)"
                        )
                    }
                    EntryProblem::Duplicate(sq) => write!(f, ": square {sq} is listed twice"),
                }
            }
            FenError::Setup(_) => write!(f, "the FEN's position cannot be played"),
        }
    }
}

/// The wrapped error of a FEN entry that is not a square, or of an impossible position,
/// is the source: `error_chain` says it after the FEN's own
/// words.
impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Entry {
                problem: EntryProblem::Square(e),
                ..
            } => Some(e),
            FenError::Setup(e) => Some(e),
            _ => None,
        }
    }
}

/// Parses one side's list (without its colour letter) into (pieces, kings).
fn parse_side(color: Color, list: &str) -> Result<(Bitboard, Bitboard), FenError> {
    let mut pieces = Bitboard::EMPTY;
    let mut kings = Bitboard::EMPTY;
    for raw in list.split(',') {
        let entry = raw.trim();
        if entry.is_empty() {
            continue;
        }
        let err = |problem| FenError::Entry {
            color,
            entry: entry.to_string(),
            problem,
        };
        let (king, body) = match entry.strip_prefix(['K', 'k']) {
            Some(rest) => (true, rest.trim()),
            None => (false, entry),
        };
        let squares: Vec<Square> = match body.split_once('-') {
            Some((a, b)) => {
                let lo: Square = a.parse().map_err(|e| err(EntryProblem::Square(e)))?;
                let hi: Square = b.parse().map_err(|e| err(EntryProblem::Square(e)))?;
                let numeric = |t: &str| t.trim().bytes().all(|c| c.is_ascii_digit());
                if lo > hi || !numeric(a) || !numeric(b) {
                    return Err(err(EntryProblem::BadRange));
                }
                Square::ALL[lo.index()..=hi.index()].to_vec()
            }
            None => vec![body.parse().map_err(|e| err(EntryProblem::Square(e)))?],
        };
        for sq in squares {
            if pieces.contains(sq) {
                return Err(err(EntryProblem::Duplicate(sq)));
            }
            pieces = pieces.with(sq);
            if king {
                kings = kings.with(sq);
            }
        }
    }
    Ok((pieces, kings))
}

impl FromStr for Position {
    type Err = FenError;

    /// Reads a FEN such as `B:W21-32:B1-12` or `W:WK4,28:BK11,19.`
    fn from_str(text: &str) -> Result<Position, FenError> {
        let mut t = text.trim();
        // Quotes come along when a FEN tag's value is pasted whole.
        t = t.trim_matches('"').trim();
        t = t.strip_suffix('.').unwrap_or(t).trim();
        if t.is_empty() {
            return Err(FenError::Empty);
        }
        let mut fields = t.split(':');
        let turn_text = fields.next().unwrap_or("").trim();
        let turn = match turn_text {
            "B" | "b" => Color::Black,
            "W" | "w" => Color::White,
            _ => {
                return Err(FenError::Turn {
                    found: turn_text.to_string(),
                });
            }
        };
        let mut sides: [Option<(Bitboard, Bitboard)>; 2] = [None, None];
        for (i, field) in fields.enumerate() {
            let field = field.trim();
            let field = field.strip_suffix('.').unwrap_or(field).trim();
            let (color, list) = match field.chars().next() {
                Some('B' | 'b') => (Color::Black, &field[1..]),
                Some('W' | 'w') => (Color::White, &field[1..]),
                _ => {
                    return Err(FenError::UnknownField {
                        field: i + 2,
                        found: field.to_string(),
                    });
                }
            };
            let slot = &mut sides[color as usize];
            if slot.is_some() {
                return Err(FenError::SideTwice(color));
            }
            *slot = Some(parse_side(color, list)?);
        }
        let [black, white] = sides.map(Option::unwrap_or_default);
        Position::from_parts(black.0, white.0, black.1 | white.1, turn).map_err(FenError::Setup)
    }
}

impl fmt::Display for Position {
    /// The plain FEN: side to move, White's list, Black's list, squares in order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.turn().letter())?;
        for color in [Color::White, Color::Black] {
            write!(f, ":{}", color.letter())?;
            for (i, sq) in self.side(color).into_iter().enumerate() {
                let sep = if i == 0 { "" } else { "," };
                let k = if self.kings().contains(sq) { "K" } else { "" };
                write!(f, "{sep}{k}{sq}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_square_is_the_source_of_a_fen_error_and_said_once() {
        let e = "B:W21-33:B1-12".parse::<Position>().unwrap_err();
        assert_eq!(e.to_string(), "FEN, White's pieces, entry '21-33'");
        let whole = crate::text::error_chain(&e);
        assert_eq!(whole.matches("33 is not a square").count(), 1, "{whole}");
        assert!(
            whole.starts_with("FEN, White's pieces, entry '21-33': "),
            "{whole}"
        );
    }

    #[test]
    fn reads_start_position_in_several_spellings() {
        let start = Position::start();
        for text in [
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            "B:W21-32:B1-12",
            "B:B1-12:W21-32.",
            " B : W 32,31, 30,29,28,27,26,25,24,23,22,21 : B12,11,10,9,8,7,6,5,4,3,2,1 ",
            "\"B:W21-32:B1-12\"",
        ] {
            assert_eq!(text.parse::<Position>(), Ok(start), "{text}");
        }
    }
}
