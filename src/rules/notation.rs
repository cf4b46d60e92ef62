//! Move text: reading `11-15`, `15x22x29`, `c3xe5xg7` and resolving it against a position.
//!
//! Two layers, as in shakmaty: [`MoveText`] is the syntax (squares and separators, with
//! the column of any fault); [`Position::parse_move`] gives it meaning in a position,
//! yielding exactly one legal move or a [`MoveError`] a player can act on.

use super::movegen::{all_dirs, neighbour};
use super::{Color, Move, ParseSquareError, Piece, Position, Role, Square};
use std::fmt;
use std::str::FromStr;

/// A move as written: the squares named, in order, and whether `x` was used.
///
/// Separators are `-`, `x`, `X`, `:` and `×`; spaces around them are allowed. The
/// separator is only a hint: resolution matches the squares named.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveText {
    /// The squares named: the start, then one or more landing squares.
    pub squares: Vec<Square>,
    /// Whether a capture separator (`x`, `:`, `×`) was used.
    pub capture_mark: bool,
    /// Whether the step separator `-` was used.
    pub step_mark: bool,
}

/// A syntax error in move text, with the 1-based column (in characters) where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseMoveError {
    /// Column of the fault, counting characters from 1.
    pub column: usize,
    /// What is wrong there.
    pub kind: ParseMoveErrorKind,
}

/// What is wrong with move text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseMoveErrorKind {
    /// No text at all.
    Empty,
    /// A square was expected; this was found instead (empty at the end of the text).
    ExpectedSquare(String),
    /// A square-like token that is not a square.
    Square(ParseSquareError),
    /// A separator (`-` or `x`) was expected; this character was found.
    ExpectedSeparator(char),
    /// Only one square was named.
    OneSquare,
    /// More squares than any move can have.
    TooManySquares,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ParseMoveErrorKind::Empty => write!(f, "no move given (type e.g. 11-15 or 15x22)"),
            ParseMoveErrorKind::ExpectedSquare(found) if found.is_empty() => {
                write!(f, "a square is missing at the end (column {})", self.column)
            }
            ParseMoveErrorKind::ExpectedSquare(found) => write!(
                f,
                "expected a square at column {}, found '{found}'",
                self.column
            ),
            // The square's own fault is the source's to say.
            ParseMoveErrorKind::Square(_) => write!(f, "column {}", self.column),
            ParseMoveErrorKind::ExpectedSeparator(c) => write!(
                f,
                "expected '-' or 'x' at column {}, found '{c}'",
                self.column
            ),
            ParseMoveErrorKind::OneSquare => {
                write!(f, "a move names at least two squares, like 11-15")
            }
            ParseMoveErrorKind::TooManySquares => {
                write!(
                    f,
                    "too many squares at column {}: a move has at most 12 jumps",
                    self.column
                )
            }
        }
    }
}

impl ParseMoveError {
    /// What is wrong, without the column, its source's words after it: for a caller
    /// that says the place itself (a PDN file's line and column), so it is said once.
    pub(crate) fn reason(&self) -> String {
        match &self.kind {
            ParseMoveErrorKind::Empty => "no move given".into(),
            ParseMoveErrorKind::ExpectedSquare(found) if found.is_empty() => {
                "a square is missing at the end".into()
            }
            ParseMoveErrorKind::ExpectedSquare(found) => {
                format!("expected a square, found '{found}'")
            }
            ParseMoveErrorKind::Square(e) => crate::text::error_chain(e),
            ParseMoveErrorKind::ExpectedSeparator(c) => {
                format!("expected '-' or 'x', found '{c}'")
            }
            ParseMoveErrorKind::OneSquare => "a move names at least two squares, like 11-15".into(),
            ParseMoveErrorKind::TooManySquares => {
                "too many squares: a move has at most 12 jumps".into()
            }
        }
    }
}

/// A token that is not a square has that square's error as its source.
impl std::error::Error for ParseMoveError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            ParseMoveErrorKind::Square(e) => Some(e),
            _ => None,
        }
    }
}

fn is_separator(c: char) -> bool {
    matches!(c, '-' | 'x' | 'X' | ':' | '×')
}

impl FromStr for MoveText {
    type Err = ParseMoveError;

    /// Move text as records write it: squares joined by separators (see
    /// [`MoveText::typed`] for what a player may type besides).
    fn from_str(text: &str) -> Result<MoveText, ParseMoveError> {
        MoveText::parse(text, false)
    }
}

impl MoveText {
    /// Move text as a player types it: besides the record forms, a space or a `.`
    /// between squares (`8 11`, `8.11`), algebraic squares with no separator (`c3b4`),
    /// four digits for two squares (`1115`, when both halves are squares 1-32) and a
    /// trailing `.`.
    ///
    /// ```
    /// use checkers::rules::MoveText;
    /// for text in ["11-15", "11 15", "11.15", "1115"] {
    ///     let parsed = MoveText::typed(text).unwrap();
    ///     assert_eq!(parsed.squares.iter().map(|s| s.number()).collect::<Vec<_>>(), [11, 15]);
    /// }
    /// assert_eq!(MoveText::typed("c3b4").unwrap().squares.len(), 2);
    /// ```
    pub fn typed(text: &str) -> Result<MoveText, ParseMoveError> {
        MoveText::parse(text, true)
    }

    fn parse(text: &str, typed: bool) -> Result<MoveText, ParseMoveError> {
        let chars: Vec<char> = text.chars().collect();
        let err = |column: usize, kind| {
            Err(ParseMoveError {
                column: column + 1,
                kind,
            })
        };
        let skip_space = |mut i: usize| {
            while i < chars.len() && chars[i].is_whitespace() {
                i += 1;
            }
            i
        };
        let is_letter = |c: char| c.is_ascii_alphabetic() && !matches!(c, 'x' | 'X');
        let mut i = skip_space(0);
        if i == chars.len() {
            return err(0, ParseMoveErrorKind::Empty);
        }
        let mut squares = Vec::new();
        let mut capture_mark = false;
        let mut step_mark = false;
        loop {
            // A square: a run of letters and digits. An `x` directly after digits is a
            // separator ("15x22"), so letters are taken only at the token's start.
            let start = i;
            let algebraic = i < chars.len() && is_letter(chars[i]);
            if algebraic {
                i += 1;
            }
            // Typed, an algebraic square has one digit, so the next square may follow
            // at once (c3b4).
            while i < chars.len()
                && chars[i].is_ascii_digit()
                && !(typed && algebraic && i > start + 1)
            {
                i += 1;
            }
            if i == start {
                let found = chars.get(i).map(|c| c.to_string()).unwrap_or_default();
                return err(i, ParseMoveErrorKind::ExpectedSquare(found));
            }
            let token: String = chars[start..i].iter().collect();
            match two_squares(&token).filter(|_| typed) {
                Some(pair) => squares.extend(pair),
                None => match token.parse::<Square>() {
                    Ok(sq) => squares.push(sq),
                    Err(e) => return err(start, ParseMoveErrorKind::Square(e)),
                },
            }
            if squares.len() > super::mv::MAX_LANDINGS + 1 {
                return err(start, ParseMoveErrorKind::TooManySquares);
            }
            let token_end = i;
            i = skip_space(i);
            if i == chars.len() {
                break;
            }
            if typed && chars[i] == '.' && skip_space(i + 1) == chars.len() {
                break; // A trailing full stop ends the move.
            }
            if is_separator(chars[i]) || (typed && chars[i] == '.') {
                capture_mark |= !matches!(chars[i], '-' | '.');
                step_mark |= chars[i] == '-';
                i = skip_space(i + 1);
                continue;
            }
            // Typed, a space between two squares separates them, and an algebraic
            // square may follow another directly.
            let spaced = i > token_end && chars[i].is_ascii_digit();
            if typed && (spaced || is_letter(chars[i])) {
                continue;
            }
            return err(i, ParseMoveErrorKind::ExpectedSeparator(chars[i]));
        }
        if squares.len() < 2 {
            return err(0, ParseMoveErrorKind::OneSquare);
        }
        Ok(MoveText {
            squares,
            capture_mark,
            step_mark,
        })
    }
}

/// Four digits that are two square numbers, `1115` for 11 and 15: there is no other
/// way to read them as squares of one move.
fn two_squares(token: &str) -> Option<[Square; 2]> {
    if token.len() != 4 || !token.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (a, b) = token.split_at(2);
    Some([a.parse().ok()?, b.parse().ok()?])
}

/// Why a move text does not name a legal move in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move at all.
    Syntax(ParseMoveError),
    /// It names no legal move; the reason says why.
    Illegal(Illegal),
    /// It names more than one legal move (routes with the same ends).
    Ambiguous {
        /// The text as given.
        text: String,
        /// Every matching route, written with all its landing squares.
        candidates: Vec<Move>,
    },
}

/// Why a well-formed move text is not legal, in words a player can act on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Illegal {
    /// The start square is empty or holds an opponent's piece.
    NoPieceOfYours {
        /// The start square named.
        square: Square,
        /// What stands there, if anything.
        occupant: Option<Piece>,
        /// The side to move.
        turn: Color,
    },
    /// Some piece can capture, so a capture must be played; these are the legal ones.
    CaptureCompulsory {
        /// The legal captures, each by its route (`19x10x1`).
        captures: Vec<String>,
    },
    /// The piece named has no legal move at all.
    PieceCannotMove {
        /// Its square.
        square: Square,
        /// The piece.
        piece: Piece,
    },
    /// The target square holds a piece.
    Occupied {
        /// The occupied square.
        square: Square,
    },
    /// A man tried to move toward its own side.
    ManBackward {
        /// The man's square.
        from: Square,
        /// The square behind it.
        to: Square,
    },
    /// Two squares two apart on a diagonal with nothing of the opponent's between.
    NothingToJump {
        /// Where the jump starts.
        from: Square,
        /// The square jumped over.
        over: Square,
        /// Where it would land.
        to: Square,
    },
    /// The capture stops while the same piece can still jump.
    MustContinue {
        /// Legal routes that begin as the text does.
        routes: Vec<String>,
    },
    /// The text goes on after a man is crowned, which ends the move.
    CrowningEndsMove {
        /// The crowning square.
        square: Square,
    },
    /// The text goes on after a whole move that ends where it says (a step is one
    /// square; a capture ends when nothing more can be jumped).
    MoveEndsThere {
        /// The whole move, in notation.
        route: String,
        /// Whether it is a capture.
        capture: bool,
    },
    /// Not a step or jump of this piece; what is wrong with the squares named, where
    /// the board says (two of them not on one diagonal, say), and what the piece can
    /// play instead.
    NotAMove {
        /// The text as given.
        text: String,
        /// The first two squares named one after the other that no step or jump can
        /// join, and how they lie; `None` where each pair could be.
        gap: Option<(Square, Square, Apart)>,
        /// The first square named.
        from: Square,
        /// The piece on it.
        piece: Piece,
        /// The piece's legal moves, each by its route (none: it cannot move).
        moves: Vec<String>,
    },
}

/// How two squares named one after the other in a move lie, where no step or jump
/// joins them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Apart {
    /// The same square twice.
    Same,
    /// Not on one diagonal.
    NotDiagonal,
    /// On one diagonal, this many squares apart (more than a jump's two).
    TooFar(u8),
}

impl Apart {
    /// How `a` and `b` lie, when no step or jump can join them (`None` when one of a
    /// square or two along a diagonal could).
    fn of(a: Square, b: Square) -> Option<Apart> {
        let rows = a.row().abs_diff(b.row());
        let cols = a.col().abs_diff(b.col());
        if rows != cols {
            Some(Apart::NotDiagonal)
        } else if rows == 0 {
            Some(Apart::Same)
        } else if rows > 2 {
            Some(Apart::TooFar(rows))
        } else {
            None
        }
    }
}

/// Joins items as "a, b or c".
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Illegal::NoPieceOfYours {
                square,
                occupant: None,
                ..
            } => {
                write!(f, "no piece of yours on {square}: it is empty")
            }
            Illegal::NoPieceOfYours {
                square,
                occupant: Some(p),
                turn,
            } => write!(
                f,
                "no piece of yours on {square}: it holds a {p}, and {turn} is to move"
            ),
            Illegal::CaptureCompulsory { captures } => {
                write!(f, "a capture is compulsory: {}", or_list(captures))
            }
            Illegal::PieceCannotMove { square, piece } => {
                write!(f, "the {} on {square} has no legal move", piece.role.name())
            }
            Illegal::Occupied { square } => write!(f, "{square} is occupied"),
            Illegal::ManBackward { from, to } => write!(
                f,
                "a man moves only forward: {from} to {to} is backward (only kings move back)"
            ),
            Illegal::NothingToJump { from, over, to } => write!(
                f,
                "no capture from {from} to {to}: no opposing piece on {over} to jump"
            ),
            Illegal::MustContinue { routes } => write!(
                f,
                "the capture must go on while the piece can jump: {}",
                or_list(routes)
            ),
            Illegal::CrowningEndsMove { square } => {
                write!(f, "a man crowned on {square} ends its move there")
            }
            Illegal::MoveEndsThere {
                route,
                capture: true,
            } => write!(
                f,
                "the capture {route} ends there: nothing more can be jumped"
            ),
            Illegal::MoveEndsThere {
                route,
                capture: false,
            } => write!(f, "a step goes one square only: {route}"),
            Illegal::NotAMove {
                text,
                gap,
                from,
                piece,
                moves,
            } => {
                match gap {
                    Some((a, _, Apart::Same)) => write!(f, "{a} is named twice in a row")?,
                    Some((a, b, Apart::NotDiagonal)) => {
                        write!(f, "{a} and {b} are not on one diagonal")?
                    }
                    Some((a, b, Apart::TooFar(n))) => write!(
                        f,
                        "{a} and {b} are {n} squares apart: a step goes one square, a jump two"
                    )?,
                    None => write!(f, "{text} is not a legal move")?,
                }
                let role = piece.role.name();
                match moves.as_slice() {
                    [] => write!(f, "; the {role} on {from} has no legal move"),
                    moves => write!(f, "; the {role} on {from} can play {}", or_list(moves)),
                }
            }
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // Shown whole, its sources too (so it is not this error's source).
            MoveError::Syntax(e) => write!(f, "{}", crate::text::error_chain(e)),
            MoveError::Illegal(e) => e.fmt(f),
            MoveError::Ambiguous { text, candidates } => {
                let names: Vec<String> = candidates.iter().map(Move::to_string).collect();
                write!(f, "{text} is ambiguous: {}", or_list(&names))
            }
        }
    }
}

impl std::error::Error for MoveError {}

impl From<ParseMoveError> for MoveError {
    fn from(e: ParseMoveError) -> MoveError {
        MoveError::Syntax(e)
    }
}

/// Whether `m` is named by `squares`: same start and end, and any squares named between
/// them are landings of `m`, in order.
fn names(m: &Move, squares: &[Square]) -> bool {
    let (first, rest) = match squares.split_first() {
        Some(split) => split,
        None => return false,
    };
    let Some((last, middle)) = rest.split_last() else {
        return false;
    };
    if m.from() != *first || m.to() != *last {
        return false;
    }
    let landings = m.landings();
    let mut inner = landings.take(m.landings().len() - 1);
    middle.iter().all(|sq| inner.any(|l| l == *sq))
}

/// The route through the squares `prefix` (start included) is the start of `m`'s route.
fn route_starts_with(m: &Move, prefix: &[Square]) -> bool {
    let squares = m.squares();
    squares.len() > prefix.len() && squares[..prefix.len()] == *prefix
}

impl Position {
    /// The move that `text` names here: `11-15`, `15x22x29`, the short `15x29` when only
    /// one route has those ends, or algebraic squares (`c3xe5xg7`), in any form a player
    /// types ([`MoveText::typed`]: `8 11`, `c3b4`, `1115`). `-` and `x` are
    /// interchangeable: the squares decide.
    ///
    /// ```
    /// use checkers::rules::{MoveError, Position};
    /// let pos: Position = "B:W6,7,14,15:B2".parse().unwrap();
    /// assert_eq!(pos.parse_move("2x9x18").unwrap().to_string(), "2x9x18");
    /// let err = pos.parse_move("2x18").unwrap_err();
    /// assert!(matches!(err, MoveError::Ambiguous { .. }));
    /// assert_eq!(err.to_string(), "2x18 is ambiguous: 2x9x18 or 2x11x18");
    /// ```
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let parsed = MoveText::typed(text)?;
        self.resolve(&parsed, text.trim())
    }

    /// The position after the move `text` names (see [`parse_move`](Self::parse_move)).
    pub fn play_text(&self, text: &str) -> Result<Position, MoveError> {
        self.parse_move(text).map(|m| self.play_unchecked(&m))
    }

    /// Resolves parsed move text against this position. `shown` is the text as the
    /// player wrote it, used in messages.
    pub fn resolve(&self, text: &MoveText, shown: &str) -> Result<Move, MoveError> {
        let legal = self.legal_moves();
        // Every landing named is one route exactly, even when it also reads as a
        // shortened form of a longer route (21x14x5 beside 21x30x23x14x5).
        if let Some(exact) = legal.iter().find(|m| m.squares() == text.squares) {
            return Ok(*exact);
        }
        let mut found: Vec<Move> = legal
            .iter()
            .filter(|m| names(m, &text.squares))
            .copied()
            .collect();
        match found.len() {
            1 => Ok(found[0]),
            0 => Err(MoveError::Illegal(self.diagnose(
                &text.squares,
                &legal,
                shown,
            ))),
            _ => {
                found.sort_unstable();
                Err(MoveError::Ambiguous {
                    text: shown.to_string(),
                    candidates: found,
                })
            }
        }
    }

    /// The move `squares` names, found as [`resolve`](Position::resolve) finds it (a
    /// route named exactly, else the one move whose start, end and landings in between
    /// match), without allocating: `legal` is a buffer kept from call to call. `None`
    /// where `resolve` would give an error (none or several match): ask it why.
    ///
    /// ```
    /// use checkers::rules::{Position, Square};
    /// let sq = |n| Square::new(n).unwrap();
    /// let mut legal = Vec::new();
    /// let m = Position::start().resolve_squares(&[sq(11), sq(15)], &mut legal).unwrap();
    /// assert_eq!(m.to_string(), "11-15");
    /// assert!(Position::start().resolve_squares(&[sq(11), sq(18)], &mut legal).is_none());
    /// ```
    pub fn resolve_squares(&self, squares: &[Square], legal: &mut Vec<Move>) -> Option<Move> {
        let (&first, rest) = squares.split_first()?;
        legal.clear();
        self.generate_moves(legal);
        let exact = |m: &&Move| m.from() == first && m.landings().eq(rest.iter().copied());
        if let Some(m) = legal.iter().find(exact) {
            return Some(*m);
        }
        let mut named = legal.iter().filter(|m| names(m, squares));
        let found = named.next()?;
        named.next().is_none().then_some(*found)
    }

    /// The move in record notation: the short form (`15x29`) unless another legal move
    /// has the same ends, then every landing square (`2x9x18`).
    pub fn notation(&self, m: &Move) -> String {
        if !m.is_capture() || m.landings().len() == 1 {
            return m.short_text();
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        let ambiguous = moves
            .iter()
            .any(|o| o != m && o.from() == m.from() && o.to() == m.to());
        if ambiguous {
            m.to_string()
        } else {
            m.short_text()
        }
    }

    /// What the separator of `text` (typed as `shown`) says wrongly of `m`, the move it
    /// names here: `x` for a step (`9x14`), `-` for a capture (`9-18`). The move is
    /// played all the same, the squares deciding (records misuse separators), and a
    /// player is told how it is written: the separator then means what it says.
    pub(crate) fn separator_note(&self, text: &MoveText, shown: &str, m: &Move) -> Option<String> {
        let (from, to) = (m.from(), m.to());
        let written = self.notation(m);
        if m.is_capture() && text.step_mark {
            Some(format!(
                "{shown} was typed: {from} to {to} is a capture, written with x: {written}"
            ))
        } else if !m.is_capture() && text.capture_mark {
            Some(format!(
                "{shown} was typed: {from} to {to} is no capture; a plain move is written {written}"
            ))
        } else {
            None
        }
    }

    /// [`separator_note`](Self::separator_note) for a move a player typed as `text`: every
    /// board that takes typed moves says the same of a wrong separator.
    pub(crate) fn typed_note(&self, text: &str, m: &Move) -> Option<String> {
        let typed = MoveText::typed(text).ok()?;
        self.separator_note(&typed, text.trim(), m)
    }

    /// Each move by its route (`19x10x1`), as a player is told the moves to choose from.
    fn routes(moves: &[Move]) -> Vec<String> {
        moves.iter().map(Move::to_string).collect()
    }

    /// Works out why `squares` names none of the `legal` moves.
    fn diagnose(&self, squares: &[Square], legal: &[Move], shown: &str) -> Illegal {
        let from = squares[0];
        let to = squares[squares.len() - 1];
        let turn = self.turn();
        let piece = match self.piece_at(from) {
            Some(p) if p.color == turn => p,
            occupant => {
                return Illegal::NoPieceOfYours {
                    square: from,
                    occupant,
                    turn,
                };
            }
        };
        let own: Vec<Move> = legal.iter().filter(|m| m.from() == from).copied().collect();
        let captures_due = legal.iter().any(Move::is_capture);
        let adjacent = all_dirs()
            .into_iter()
            .find(|&d| neighbour(from, d) == Some(to));
        let jump_over = all_dirs().into_iter().find_map(|d| {
            let over = neighbour(from, d)?;
            (neighbour(over, d) == Some(to)).then_some(over)
        });
        let backward = piece.role == Role::Man
            && match turn {
                Color::Black => to.row() < from.row(),
                Color::White => to.row() > from.row(),
            };
        if captures_due && (own.is_empty() || (squares.len() == 2 && adjacent.is_some())) {
            let captures: Vec<Move> = legal.to_vec();
            return Illegal::CaptureCompulsory {
                captures: Self::routes(&captures),
            };
        }
        let continuing: Vec<Move> = own
            .iter()
            .filter(|m| route_starts_with(m, squares))
            .copied()
            .collect();
        if !continuing.is_empty() {
            let routes = continuing.iter().map(Move::to_string).collect();
            return Illegal::MustContinue { routes };
        }
        if piece.role == Role::Man
            && let Some(m) = own.iter().find(|m| {
                let route = m.squares();
                squares.len() > route.len() && squares[..route.len()] == route[..]
            })
        {
            let crowned = match turn {
                Color::Black => m.to().row() == 7,
                Color::White => m.to().row() == 0,
            };
            return if crowned {
                Illegal::CrowningEndsMove { square: m.to() }
            } else {
                Illegal::MoveEndsThere {
                    route: m.to_string(),
                    capture: m.is_capture(),
                }
            };
        }
        if squares.len() == 2 {
            if adjacent.is_some() || jump_over.is_some() {
                if backward {
                    return Illegal::ManBackward { from, to };
                }
                if self.occupied().contains(to) {
                    return Illegal::Occupied { square: to };
                }
            }
            if let Some(over) = jump_over
                && !self.side(!turn).contains(over)
            {
                return Illegal::NothingToJump { from, over, to };
            }
        }
        // Squares no step or jump joins are said first, the piece's moves after.
        let gap = squares
            .windows(2)
            .find_map(|pair| Apart::of(pair[0], pair[1]).map(|apart| (pair[0], pair[1], apart)));
        if own.is_empty() && gap.is_none() {
            return Illegal::PieceCannotMove {
                square: from,
                piece,
            };
        }
        Illegal::NotAMove {
            text: shown.to_string(),
            gap,
            from,
            piece,
            moves: Self::routes(&own),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_errors_carry_columns() {
        let e = "11-".parse::<MoveText>().unwrap_err();
        assert_eq!(e.column, 4);
        let e = "11-40".parse::<MoveText>().unwrap_err();
        assert_eq!(e.column, 4);
        // The square's fault is the source, said after the column by the whole chain.
        assert_eq!(e.to_string(), "column 4");
        let source = std::error::Error::source(&e).expect("the square's error");
        assert!(source.to_string().contains("1-32"), "{source}");
        assert_eq!(
            crate::text::error_chain(&e),
            "column 4: 40 is not a square: squares are numbered 1-32"
        );
        let e = "11?15".parse::<MoveText>().unwrap_err();
        assert_eq!(e.kind, ParseMoveErrorKind::ExpectedSeparator('?'));
        assert_eq!(e.column, 3);
    }
}
