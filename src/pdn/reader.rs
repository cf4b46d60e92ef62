//! The lenient PDN reader.

use super::{PdnGame, move_number};
use crate::rules::{Color, FenError, MoveError, MoveText, ParseMoveErrorKind, Position};
use std::fmt;

/// Text of a PDN file from its bytes: UTF-8 when valid (a byte-order mark is dropped),
/// otherwise ISO-8859-1, where every byte is one character.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// A syntax error, at a line and column (both from 1, columns in characters).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    /// Line of the fault.
    pub line: usize,
    /// Column of the fault.
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.message
        )
    }
}

/// Why one game of a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// The game's number in the file, from 1.
    pub game: usize,
    /// Its `Event` tag, if it has one.
    pub event: Option<String>,
    /// What went wrong.
    pub kind: GameErrorKind,
}

/// What went wrong in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameErrorKind {
    /// The text is not PDN here.
    Syntax(SyntaxError),
    /// The `FEN` tag is not a valid position.
    Fen {
        /// Where the tag is.
        line: usize,
        /// Why it is invalid.
        error: Box<FenError>,
    },
    /// A move that is not legal when replayed.
    Move {
        /// Full-move number (1 for the first move of each side).
        number: usize,
        /// The side that was to play it.
        color: Color,
        /// The move as written.
        text: String,
        /// Where it is.
        line: usize,
        /// Its column.
        column: usize,
        /// Why it was refused.
        error: Box<MoveError>,
        /// The game up to the faulty move (its tags, start and the moves before it,
        /// no result), so what is good in it can still be reviewed.
        played: Box<PdnGame>,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(event) = &self.event {
            write!(f, " ({event:?})")?;
        }
        match &self.kind {
            GameErrorKind::Syntax(e) => write!(f, ", {e}"),
            GameErrorKind::Fen { line, error } => write!(f, ", line {line}: {error}"),
            GameErrorKind::Move {
                number,
                color,
                text,
                line,
                column,
                error,
                ..
            } => {
                let dots = if *color == Color::Black { "." } else { "..." };
                write!(
                    f,
                    ", move {number}{dots} {text} ({color}, line {line}, column {column}): {error}"
                )
            }
        }
    }
}

impl std::error::Error for GameError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            GameErrorKind::Syntax(_) => None,
            GameErrorKind::Fen { error, .. } => Some(&**error),
            GameErrorKind::Move { error, .. } => Some(&**error),
        }
    }
}

/// A character cursor with line and column.
struct Cursor {
    chars: Vec<char>,
    at: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.at += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn error(&self, line: usize, column: usize, message: impl Into<String>) -> SyntaxError {
        SyntaxError {
            line,
            column,
            message: message.into(),
        }
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' {
                break;
            }
        }
    }
}

/// A token of PDN text, with where it starts.
#[derive(Debug)]
enum Token {
    Tag(String, String),
    Word(String),
    Result(String),
}

const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

/// Reads the next token, skipping spaces, comments, variations, NAGs and move numbers.
/// `None` at the end of the text.
fn next_token(c: &mut Cursor) -> Option<Result<(Token, usize, usize), SyntaxError>> {
    loop {
        c.skip_space();
        let (line, column) = (c.line, c.column);
        let ch = c.peek()?;
        match ch {
            '%' if column == 1 => c.skip_line(),
            ';' => c.skip_line(),
            '{' => {
                c.bump();
                loop {
                    match c.bump() {
                        Some('}') => break,
                        Some(_) => {}
                        None => {
                            return Some(Err(c.error(line, column, "comment '{' never closed")));
                        }
                    }
                }
            }
            '(' => {
                if let Err(e) = skip_variation(c) {
                    return Some(Err(e));
                }
            }
            ')' => {
                c.bump();
                return Some(Err(c.error(
                    line,
                    column,
                    "')' without a variation to close",
                )));
            }
            '$' => {
                c.bump();
                while c.peek().is_some_and(|d| d.is_ascii_digit()) {
                    c.bump();
                }
            }
            '[' => return Some(read_tag(c).map(|(n, v)| (Token::Tag(n, v), line, column))),
            _ => {
                let mut word = String::new();
                while let Some(d) = c.peek() {
                    if d.is_whitespace() || "{}()[];$".contains(d) {
                        break;
                    }
                    word.push(d);
                    c.bump();
                }
                if word.is_empty() {
                    // A stray '}' or ']': nothing opened it.
                    c.bump();
                    return Some(Err(c.error(line, column, format!("unexpected '{ch}'"))));
                }
                if RESULTS.contains(&word.as_str()) {
                    return Some(Ok((Token::Result(word), line, column)));
                }
                // A move number ("12." or "12...") or a lone "..." carries nothing the
                // replay needs: the position says whose move it is.
                let rest = word.trim_start_matches(|d: char| d.is_ascii_digit());
                if rest.starts_with('.') {
                    let after = rest.trim_start_matches('.');
                    if after.is_empty() {
                        continue;
                    }
                    let skipped = word.chars().count() - after.chars().count();
                    return Some(Ok((Token::Word(after.to_string()), line, column + skipped)));
                }
                return Some(Ok((Token::Word(word), line, column)));
            }
        }
    }
}

fn skip_variation(c: &mut Cursor) -> Result<(), SyntaxError> {
    let (line, column) = (c.line, c.column);
    let mut depth = 0usize;
    while let Some(ch) = c.bump() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(());
                }
            }
            '{' => while c.bump().is_some_and(|d| d != '}') {},
            _ => {}
        }
    }
    Err(c.error(line, column, "variation '(' never closed"))
}

fn read_tag(c: &mut Cursor) -> Result<(String, String), SyntaxError> {
    let (line, column) = (c.line, c.column);
    c.bump(); // '['
    c.skip_space();
    let mut name = String::new();
    while let Some(d) = c.peek() {
        if d.is_alphanumeric() || d == '_' {
            name.push(d);
            c.bump();
        } else {
            break;
        }
    }
    if name.is_empty() {
        return Err(c.error(
            c.line,
            c.column,
            "a tag needs a name, as in [Event \"...\"]",
        ));
    }
    c.skip_space();
    if c.peek() != Some('"') {
        return Err(c.error(
            c.line,
            c.column,
            format!("tag {name}: its value must be in quotes"),
        ));
    }
    c.bump();
    let mut value = String::new();
    loop {
        match c.bump() {
            Some('\\') => match c.bump() {
                Some(e) => value.push(e),
                None => break,
            },
            Some('"') => {
                c.skip_space();
                return if c.peek() == Some(']') {
                    c.bump();
                    Ok((name, value))
                } else {
                    Err(c.error(c.line, c.column, format!("tag {name}: expected ']'")))
                };
            }
            Some('\n') | None => break,
            Some(d) => value.push(d),
        }
    }
    Err(c.error(
        line,
        column,
        format!("tag {name}: its value's quote is never closed"),
    ))
}

/// A game as read, before replay.
struct RawGame {
    tags: Vec<(String, String)>,
    tag_line: usize,
    moves: Vec<(String, usize, usize)>,
    result: Option<String>,
    error: Option<SyntaxError>,
}

/// Reads every game of a PDN text. Each game is replayed; a faulty game gives its
/// error and the reader goes on with the next one.
///
/// ```
/// use checkers::pdn::read_games;
/// let games = read_games("[Event \"x\"]\n1. 11-15 23-19 2. 8-11 {good} 22-17 1-0\n");
/// let game = games[0].as_ref().unwrap();
/// assert_eq!(game.moves.len(), 4);
/// assert_eq!(game.result.as_deref(), Some("1-0"));
/// ```
pub fn read_games(text: &str) -> Vec<Result<PdnGame, GameError>> {
    let mut c = Cursor {
        chars: text.chars().collect(),
        at: 0,
        line: 1,
        column: 1,
    };
    let mut raws: Vec<RawGame> = Vec::new();
    let mut current: Option<RawGame> = None;
    let new_game = |line| RawGame {
        tags: Vec::new(),
        tag_line: line,
        moves: Vec::new(),
        result: None,
        error: None,
    };
    while let Some(token) = next_token(&mut c) {
        let (token, line, column) = match token {
            Ok(t) => t,
            Err(e) => {
                let game = current.get_or_insert_with(|| new_game(e.line));
                if game.error.is_none() {
                    game.error = Some(e);
                }
                continue;
            }
        };
        match token {
            Token::Tag(name, value) => {
                // A tag after movetext starts the next game.
                if current
                    .as_ref()
                    .is_some_and(|g| !g.moves.is_empty() || g.result.is_some())
                {
                    raws.extend(current.take());
                }
                current
                    .get_or_insert_with(|| new_game(line))
                    .tags
                    .push((name, value));
            }
            Token::Word(word) => {
                let game = current.get_or_insert_with(|| new_game(line));
                game.moves.push((word, line, column));
            }
            Token::Result(result) => {
                let mut game = current.take().unwrap_or_else(|| new_game(line));
                game.result = Some(result);
                raws.push(game);
            }
        }
    }
    raws.extend(current);
    raws.into_iter()
        .filter(|g| {
            !(g.tags.is_empty() && g.moves.is_empty() && g.result.is_none() && g.error.is_none())
        })
        .enumerate()
        .map(|(i, raw)| replay(i + 1, raw))
        .collect()
}

/// The move in a movetext word: marks (`!`, `?`) dropped, and text glued on after the
/// move without a space or braces (`8-11Red overstepped...` in real files) cut off.
fn move_part(word: &str) -> &str {
    let word = word.trim_end_matches(['!', '?']);
    if let Err(e) = word.parse::<MoveText>()
        && let ParseMoveErrorKind::ExpectedSeparator(c) = e.kind
        && c.is_alphabetic()
    {
        let cut: usize = word.chars().take(e.column - 1).map(char::len_utf8).sum();
        let head = word[..cut].trim_end_matches(['!', '?']);
        if head.parse::<MoveText>().is_ok() {
            return head;
        }
    }
    word
}

/// Replays a game's moves from its start position.
fn replay(number: usize, raw: RawGame) -> Result<PdnGame, GameError> {
    let event = raw
        .tags
        .iter()
        .find(|(n, _)| n == "Event")
        .map(|(_, v)| v.clone());
    let fail = |kind| {
        Err(GameError {
            game: number,
            event: event.clone(),
            kind,
        })
    };
    if let Some(e) = raw.error {
        return fail(GameErrorKind::Syntax(e));
    }
    let start = match raw.tags.iter().find(|(n, _)| n.eq_ignore_ascii_case("FEN")) {
        Some((_, fen)) => match fen.parse::<Position>() {
            Ok(p) => p,
            Err(error) => {
                return fail(GameErrorKind::Fen {
                    line: raw.tag_line,
                    error: Box::new(error),
                });
            }
        },
        None => Position::start(),
    };
    let mut pos = start;
    let mut moves = Vec::with_capacity(raw.moves.len());
    for (ply, (word, line, column)) in raw.moves.iter().enumerate() {
        let text = move_part(word);
        let (number, color) = move_number(&start, ply);
        let parsed = text.parse::<MoveText>().map_err(MoveError::Syntax);
        match parsed.and_then(|t| pos.resolve(&t, text)) {
            Ok(m) => {
                pos = pos.play_unchecked(&m);
                moves.push(m);
            }
            Err(error) => {
                return fail(GameErrorKind::Move {
                    number,
                    color,
                    text: word.clone(),
                    line: *line,
                    column: *column,
                    error: Box::new(error),
                    played: Box::new(PdnGame {
                        tags: raw.tags.clone(),
                        start,
                        moves,
                        result: None,
                    }),
                });
            }
        }
    }
    Ok(PdnGame {
        tags: raw.tags,
        start,
        moves,
        result: raw.result,
    })
}
