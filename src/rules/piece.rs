//! Colours, roles and pieces.

use std::fmt;
use std::ops::Not;

/// A side. Black moves first and starts on squares 1-12.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player, starting on 1-12 and moving toward 32.
    Black,
    /// The second player, starting on 21-32 and moving toward 1.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const ALL: [Color; 2] = [Color::Black, Color::White];

    /// The colour's name with a capital, as in "Black".
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "Black",
            Color::White => "White",
        }
    }

    /// The FEN letter, `B` or `W`.
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }
}

impl Not for Color {
    type Output = Color;
    fn not(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a piece is: a man (moves forward) or a king (moves both ways).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Role {
    /// Steps and captures diagonally forward only.
    Man,
    /// Steps and captures one square diagonally in all four directions.
    King,
}

impl Role {
    /// "man" or "king".
    pub const fn name(self) -> &'static str {
        match self {
            Role::Man => "man",
            Role::King => "king",
        }
    }
}

/// A piece: its colour and role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// Man or king.
    pub role: Role,
}

impl Piece {
    /// One ASCII letter: `b` Black man, `B` Black king, `w` White man, `W` White king.
    pub const fn letter(self) -> char {
        match (self.color, self.role) {
            (Color::Black, Role::Man) => 'b',
            (Color::Black, Role::King) => 'B',
            (Color::White, Role::Man) => 'w',
            (Color::White, Role::King) => 'W',
        }
    }
}

impl fmt::Display for Piece {
    /// "Black man", "White king".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role.name())
    }
}
