//! A position: the pieces on the board and the side to move.

use super::movegen::crown_row;
use super::{Bitboard, Color, Move, Piece, Role, Square};
use std::fmt;

/// The pieces on the board and the side to move.
///
/// `Display` writes the position as FEN (`B:W21,...,32:B1,...,12`); `FromStr` reads FEN
/// leniently (see `fen`); `Debug` draws the classic diagram.
///
/// ```
/// use checkers::rules::{Color, Position};
/// let pos = Position::start();
/// assert_eq!(pos.turn(), Color::Black);
/// let after = pos.play_text("11-15").unwrap();
/// assert_eq!(after.to_string(), "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Position {
    black: Bitboard,
    white: Bitboard,
    kings: Bitboard,
    turn: Color,
}

/// Why a set of pieces is not a valid position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A square was given to both sides.
    SquareTwice(Square),
    /// A man stands on the row where it would already have been crowned.
    ManOnCrowningRow(Square, Color),
    /// A side has more than twelve pieces.
    TooManyPieces(Color, u32),
    /// A side has no pieces: a game from it would be over before it began (see
    /// [`Position::check_start`]).
    NoPieces(Color),
    /// Neither side has a piece.
    EmptyBoard,
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::SquareTwice(sq) => write!(f, "square {sq} is given to both sides"),
            SetupError::ManOnCrowningRow(sq, c) => write!(
                f,
                "a {c} man cannot stand on {sq}: it is {c}'s crowning row (make it a king: K{sq})"
            ),
            SetupError::TooManyPieces(c, n) => {
                write!(f, "{c} has {n} pieces: a side has at most 12")
            }
            SetupError::NoPieces(c) => write!(
                f,
                "{c} has no pieces: a game needs at least one piece on each side"
            ),
            SetupError::EmptyBoard => write!(
                f,
                "the board is empty: a game needs at least one piece on each side"
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// Why a move cannot be played in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IllegalMoveError {
    /// The move that was refused, written with every landing square.
    pub text: String,
}

impl fmt::Display for IllegalMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is not a legal move in this position", self.text)
    }
}

impl std::error::Error for IllegalMoveError {}

impl Position {
    /// The start position: Black's men on 1-12, White's on 21-32, Black to move.
    pub const fn start() -> Position {
        Position {
            black: Bitboard(0x0000_0FFF),
            white: Bitboard(0xFFF0_0000),
            kings: Bitboard::EMPTY,
            turn: Color::Black,
        }
    }

    /// The same game seen from the other side: the board turned round and the colours
    /// swapped (a Black man on 9 becomes a White man on 24), the other side to move.
    /// Every move has its mirror, so an evaluation that favours neither colour values
    /// both alike.
    ///
    /// ```
    /// use checkers::rules::Position;
    /// let pos: Position = "B:W18,K30:B11,K2".parse().unwrap();
    /// let mirror: Position = "W:W22,K31:B15,K3".parse().unwrap();
    /// assert_eq!(pos.mirrored(), mirror);
    /// assert_eq!(pos.mirrored().mirrored(), pos);
    /// ```
    pub fn mirrored(&self) -> Position {
        Position {
            black: Bitboard(self.white.0.reverse_bits()),
            white: Bitboard(self.black.0.reverse_bits()),
            kings: Bitboard(self.kings.0.reverse_bits()),
            turn: !self.turn,
        }
    }

    /// A position from its parts, checked: no square for both sides, no man on its own
    /// crowning row, at most 12 pieces a side. `kings` marks which pieces are kings
    /// (squares in it that hold no piece are ignored).
    pub fn from_parts(
        black: Bitboard,
        white: Bitboard,
        kings: Bitboard,
        turn: Color,
    ) -> Result<Position, SetupError> {
        if let Some(sq) = (black & white).first() {
            return Err(SetupError::SquareTwice(sq));
        }
        for color in Color::ALL {
            let side = if color == Color::Black { black } else { white };
            if side.count() > 12 {
                return Err(SetupError::TooManyPieces(color, side.count()));
            }
            if let Some(sq) = (side & !kings & Bitboard(crown_row(color))).first() {
                return Err(SetupError::ManOnCrowningRow(sq, color));
            }
        }
        Ok(Position {
            black,
            white,
            kings: kings & (black | white),
            turn,
        })
    }

    /// Whether a game can start from this position: each side has at least one piece.
    /// [`from_parts`](Self::from_parts) and the FEN reader accept a side with none (the
    /// end of a game is such a position), but a game set up from one would be over
    /// before it began. A position whose side to move has pieces but no legal move is a
    /// finished game in draughts and is accepted: it is scored at once.
    ///
    /// ```
    /// use checkers::rules::{Color, Position, SetupError};
    /// let lone: Position = "B:W:BK31".parse().unwrap();
    /// assert_eq!(lone.check_start(), Err(SetupError::NoPieces(Color::White)));
    /// let empty: Position = "W:W:B".parse().unwrap();
    /// assert_eq!(empty.check_start(), Err(SetupError::EmptyBoard));
    /// // Black's man on 5 is blocked: Black loses at once, but it is a game.
    /// let blocked: Position = "B:W9,14:B5".parse().unwrap();
    /// assert_eq!(blocked.check_start(), Ok(()));
    /// ```
    pub fn check_start(&self) -> Result<(), SetupError> {
        match (self.black.is_empty(), self.white.is_empty()) {
            (true, true) => Err(SetupError::EmptyBoard),
            (true, false) => Err(SetupError::NoPieces(Color::Black)),
            (false, true) => Err(SetupError::NoPieces(Color::White)),
            (false, false) => Ok(()),
        }
    }

    /// Reads a FEN for a game to start from: as [`FromStr`](std::str::FromStr) does,
    /// then [`check_start`](Self::check_start) (each side has a piece).
    pub fn parse_start(text: &str) -> Result<Position, super::FenError> {
        let position: Position = text.parse()?;
        position.check_start().map_err(super::FenError::Setup)?;
        Ok(position)
    }

    /// A position from parts known to be valid (for move generation's own use).
    #[inline(always)]
    pub(crate) const fn from_parts_unchecked(
        black: Bitboard,
        white: Bitboard,
        kings: Bitboard,
        turn: Color,
    ) -> Position {
        Position {
            black,
            white,
            kings,
            turn,
        }
    }

    /// The side to move.
    #[inline]
    pub const fn turn(&self) -> Color {
        self.turn
    }

    /// The same pieces with `turn` to move.
    pub const fn with_turn(self, turn: Color) -> Position {
        Position { turn, ..self }
    }

    /// Squares holding a piece of `color`.
    #[inline]
    pub const fn side(&self, color: Color) -> Bitboard {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Squares holding a king (of either colour).
    #[inline]
    pub const fn kings(&self) -> Bitboard {
        self.kings
    }

    /// Squares holding any piece.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.black.0 | self.white.0)
    }

    /// Squares holding a piece of `color` with role `role`.
    pub const fn pieces(&self, color: Color, role: Role) -> Bitboard {
        let side = self.side(color).0;
        match role {
            Role::Man => Bitboard(side & !self.kings.0),
            Role::King => Bitboard(side & self.kings.0),
        }
    }

    /// The piece on `sq`, if any.
    pub const fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.black.contains(sq) {
            Color::Black
        } else if self.white.contains(sq) {
            Color::White
        } else {
            return None;
        };
        let role = if self.kings.contains(sq) {
            Role::King
        } else {
            Role::Man
        };
        Some(Piece { color, role })
    }

    /// The position after `m`, which must be a legal move here (not checked; use
    /// [`play`](Self::play) for a move from outside).
    #[inline]
    pub fn play_unchecked(&self, m: &Move) -> Position {
        let from = Bitboard::from_square(m.from());
        let to = Bitboard::from_square(m.to());
        let captured = m.captured();
        let moved = from ^ to; // empty for a king's loop back to its start square
        let mut next = *self;
        let was_king = !(self.kings & from).is_empty();
        match self.turn {
            Color::Black => {
                next.black ^= moved;
                next.white &= !captured;
            }
            Color::White => {
                next.white ^= moved;
                next.black &= !captured;
            }
        }
        next.kings &= !captured;
        if was_king {
            next.kings ^= moved;
        } else if to.0 & crown_row(self.turn) != 0 {
            next.kings |= to;
        }
        next.turn = !self.turn;
        next
    }

    /// The position after `m`, or an error if `m` is not legal here.
    pub fn play(&self, m: &Move) -> Result<Position, IllegalMoveError> {
        if self.is_legal(m) {
            Ok(self.play_unchecked(m))
        } else {
            Err(IllegalMoveError {
                text: m.to_string(),
            })
        }
    }

    /// Whether `m` is one of the legal moves here.
    pub fn is_legal(&self, m: &Move) -> bool {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.contains(m)
    }

    /// The game's result if it is over: the side to move has lost when it has no pieces
    /// or no legal move. `None` while the game goes on.
    pub fn outcome(&self) -> Option<super::Outcome> {
        use super::{Outcome, WinReason};
        if self.side(self.turn).is_empty() {
            Some(Outcome::Win {
                winner: !self.turn,
                reason: WinReason::NoPieces,
            })
        } else if !self.has_legal_move() {
            Some(Outcome::Win {
                winner: !self.turn,
                reason: WinReason::NoMoves,
            })
        } else {
            None
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::start()
    }
}

impl fmt::Debug for Position {
    /// The classic diagram, Black at the bottom: `b`/`w` men, `B`/`W` kings, `.` empty.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{} to move: {}", self.turn, self)?;
        for row in (0..8).rev() {
            for col in 0..8 {
                let c = match Square::from_row_col(row, col) {
                    None => ' ',
                    Some(sq) => self.piece_at(sq).map_or('.', Piece::letter),
                };
                write!(f, "{c} ")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_parse_start() {
        use checkers::rules::Position;
        assert!(Position::parse_start("W:W18,K30:B11,K2").is_ok());
        let refused = Position::parse_start("W:W:B").unwrap_err();
        assert_eq!(
            checkers::text::error_chain(&refused),
            "the FEN's position cannot be played: the board is empty: a game needs at least one piece on each side"
        );
    }
}
