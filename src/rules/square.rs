//! Squares of the 32-square board, numbered 1-32 as in the classic diagram.

use std::fmt;
use std::str::FromStr;

/// One of the 32 dark squares, numbered 1-32 as in the classic diagram.
///
/// Black's men start on 1-12 at the bottom of the diagram, White's on 21-32 at the top.
/// Internally a square is an index 0-31 (`number() - 1`), which is also its bit in a
/// [`Bitboard`](crate::rules::Bitboard).
///
/// ```
/// use checkers::rules::Square;
/// let s: Square = "22".parse().unwrap();
/// assert_eq!(s.number(), 22);
/// assert_eq!(s, "c3".parse().unwrap()); // standard algebraic, as in PDN
/// assert_eq!(s.to_string(), "22");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// Every square, 1 to 32.
    pub const ALL: [Square; 32] = {
        let mut all = [Square(0); 32];
        let mut i = 0;
        while i < 32 {
            all[i] = Square(i as u8);
            i += 1;
        }
        all
    };

    /// The square with the given number 1-32, or `None` outside that range.
    pub const fn new(number: u8) -> Option<Square> {
        if number >= 1 && number <= 32 {
            Some(Square(number - 1))
        } else {
            None
        }
    }

    /// The square whose bit index (0-31) is `index`.
    ///
    /// # Panics
    /// If `index` is 32 or more (a programming error, never user input).
    pub const fn from_index(index: u8) -> Square {
        assert!(index < 32, "square index out of range");
        Square(index)
    }

    /// The square's number, 1-32.
    pub const fn number(self) -> u8 {
        self.0 + 1
    }

    /// The square's bit index, 0-31.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row 0-7 counted from Black's side (row 0 holds squares 1-4, row 7 holds 29-32).
    pub const fn row(self) -> u8 {
        self.0 / 4
    }

    /// Column 0-7 counted from the left of the diagram with Black at the bottom
    /// (square 4 is in column 0, square 1 in column 6, square 5 in column 7).
    pub const fn col(self) -> u8 {
        let k = self.0 % 4;
        if self.row().is_multiple_of(2) {
            6 - 2 * k
        } else {
            7 - 2 * k
        }
    }

    /// The dark square at `row`, `col` (both 0-7, as in [`row`](Self::row) and
    /// [`col`](Self::col)); `None` for a light square or a value out of range.
    pub const fn from_row_col(row: u8, col: u8) -> Option<Square> {
        if row > 7 || col > 7 || !(row + col).is_multiple_of(2) {
            return None;
        }
        let k = if row.is_multiple_of(2) {
            (6 - col) / 2
        } else {
            (7 - col) / 2
        };
        Some(Square(row * 4 + k))
    }

    /// Standard algebraic name as used in PDN (a1 = 29, h8 = 4), seen from White's side.
    pub fn algebraic(self) -> String {
        let file = (b'a' + (7 - self.col())) as char;
        let rank = 8 - self.row();
        format!("{file}{rank}")
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.number())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Square({})", self.number())
    }
}

/// Why a text is not a square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseSquareError {
    /// Nothing was given.
    Empty,
    /// A number outside 1-32.
    OutOfRange(String),
    /// An algebraic name of a light square (checkers is played on the dark ones).
    LightSquare(String),
    /// Neither a number nor an algebraic name such as `c3`.
    Invalid(String),
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseSquareError::Empty => write!(f, "a square is missing"),
            ParseSquareError::OutOfRange(t) => {
                write!(f, "{t} is not a square: squares are numbered 1-32")
            }
            ParseSquareError::LightSquare(t) => {
                write!(f, "{t} is a light square: play is on the dark squares only")
            }
            ParseSquareError::Invalid(t) => {
                write!(
                    f,
                    "'{t}' is not a square: give a number 1-32 or a name like c3"
                )
            }
        }
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    /// Parses a square number `1`-`32` or an algebraic name `a1`-`h8` (dark squares only).
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        let t = s.trim();
        if t.is_empty() {
            return Err(ParseSquareError::Empty);
        }
        let bytes = t.as_bytes();
        if bytes.iter().all(u8::is_ascii_digit) {
            return match t.parse::<u32>() {
                Ok(n) if (1..=32).contains(&n) => Ok(Square(n as u8 - 1)),
                _ => Err(ParseSquareError::OutOfRange(t.to_string())),
            };
        }
        if bytes.len() == 2 {
            let file = bytes[0].to_ascii_lowercase();
            let rank = bytes[1];
            if (b'a'..=b'h').contains(&file) && (b'1'..=b'8').contains(&rank) {
                let col = 7 - (file - b'a');
                let row = 8 - (rank - b'0');
                return Square::from_row_col(row, col)
                    .ok_or_else(|| ParseSquareError::LightSquare(t.to_string()));
            }
        }
        Err(ParseSquareError::Invalid(t.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_round_trips() {
        for sq in Square::ALL {
            assert_eq!(Square::from_row_col(sq.row(), sq.col()), Some(sq));
            assert_eq!(sq.algebraic().parse::<Square>(), Ok(sq));
        }
    }

    #[test]
    fn algebraic_names_match_design() {
        let pairs = [
            ("a1", 29),
            ("c1", 30),
            ("e1", 31),
            ("g1", 32),
            ("b2", 25),
            ("a7", 5),
            ("b8", 1),
            ("h8", 4),
            ("c3", 22),
            ("e5", 15),
            ("g7", 8),
        ];
        for (name, n) in pairs {
            assert_eq!(name.parse::<Square>().map(Square::number), Ok(n), "{name}");
        }
    }

    #[test]
    fn diagram_columns() {
        // Bottom row of the diagram reads 4, 3, 2, 1 from the left on columns 0, 2, 4, 6.
        let s = |n| Square::new(n).unwrap();
        assert_eq!((s(4).row(), s(4).col()), (0, 0));
        assert_eq!((s(1).row(), s(1).col()), (0, 6));
        assert_eq!((s(5).row(), s(5).col()), (1, 7));
        assert_eq!((s(32).row(), s(32).col()), (7, 1));
        assert_eq!((s(29).row(), s(29).col()), (7, 7));
    }

    #[test]
    fn bad_squares_are_named() {
        assert_eq!(
            "33".parse::<Square>(),
            Err(ParseSquareError::OutOfRange("33".into()))
        );
        assert_eq!(
            "0".parse::<Square>(),
            Err(ParseSquareError::OutOfRange("0".into()))
        );
        assert_eq!(
            "b1".parse::<Square>(),
            Err(ParseSquareError::LightSquare("b1".into()))
        );
        assert_eq!(
            "z9".parse::<Square>(),
            Err(ParseSquareError::Invalid("z9".into()))
        );
        assert_eq!("".parse::<Square>(), Err(ParseSquareError::Empty));
        assert!("99999999999999999999".parse::<Square>().is_err());
    }
}
