//! The lenient PDN reader.
//!
//! It reads a file's text once, front to back, and hands out one game at a time
//! ([`games`]); each move is replayed as soon as it is read. Memory stays bounded by the
//! text itself and one game: comments and variations are skipped without being kept
//! (but by [`games_with_trees`], which keeps them in a bounded move tree), a
//! word longer than any move ([`MAX_WORD_CHARS`]), a tag too long ([`MAX_TAG_CHARS`]),
//! more tags than a game has ([`MAX_TAGS`]) or more moves than any game
//! ([`MAX_PLIES`]) is a fault of that game, not a reason to hold on to it.

use super::cursor::{Cursor, Encoding};
use super::error::SHOWN_WORD_CHARS;
pub use super::error::{GameError, GameErrorKind, SyntaxError};
use super::words::{move_part, plain_squares};
use super::{PdnGame, move_number};
use crate::game::tree::{MoveTree, NodeId};
use crate::rules::{Move, MoveError, MoveText, Position};
use crate::text::printable;
use std::time::Duration;

/// The longest word of movetext read as a possible move (the longest move written out,
/// twelve jumps with marks, is well under it).
pub(crate) const MAX_WORD_CHARS: usize = 80;

/// The longest tag name or value read.
pub(crate) const MAX_TAG_CHARS: usize = 4096;

/// The most tags a game may have.
pub(crate) const MAX_TAGS: usize = 256;

/// The most moves (plies) a game may have. The program never writes a longer game
/// (the store refuses to save one), so what it writes it reads back.
pub(crate) const MAX_PLIES: usize = 20_000;

/// The longest player name the program takes (`--black-name`, the save dialog's
/// fields): well within [`MAX_TAG_CHARS`], so a saved name always reads back.
pub(crate) const MAX_NAME_CHARS: usize = 1024;

const _: () = assert!(MAX_NAME_CHARS <= MAX_TAG_CHARS);

/// Text of a PDN file from its bytes: UTF-8 when valid (a byte-order mark is dropped),
/// otherwise ISO-8859-1, where every byte is one character.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => latin1(bytes),
    }
}

/// [`decode`] taking the bytes: valid UTF-8 (the usual case) is used where it lies,
/// with no copy, so a file's text costs its size once.
pub(crate) fn decode_owned(mut bytes: Vec<u8>) -> String {
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    match String::from_utf8(bytes) {
        Ok(text) => text,
        Err(e) => latin1(e.as_bytes()),
    }
}

fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// A token of PDN text, with where it starts.
#[derive(Debug)]
enum Token {
    Tag(String, String),
    /// A word of movetext, in the reader's word buffer.
    Word,
    Result(String),
    /// A comment's clock reading (`{[%clk 0:04:53]}`), and (reading with trees) the
    /// comment's other words (`{[%clk 0:04:31] good move}`), which are a comment too.
    Clock(Duration, String),
    /// A comment kept (reading with trees), cut to the tree's longest comment.
    Comment(String),
    /// A variation opens: `(` (reading with trees).
    Open,
    /// A variation closes: `)` (reading with trees).
    Close,
    /// A comment never closed before a line that opens the next game's tags: `fault`
    /// is the game's, and the tag read there (or its own fault) begins the next game,
    /// at `place`.
    NextGame {
        /// The unclosed comment's fault, for the game it is in.
        fault: SyntaxError,
        /// The next game's first tag.
        tag: Result<(String, String), SyntaxError>,
        /// Where that tag starts.
        place: Place,
    },
}

/// The most characters of a comment looked at for a clock reading (the rest is skipped
/// unread, so a long comment costs no memory).
const MAX_COMMENT_CHARS: usize = 200;

const RESULTS: [&str; 7] = ["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1"];

/// Where a token (or a game) starts: its byte offset in the source, line and column.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Place {
    /// Bytes before it in the file.
    pub(crate) offset: u64,
    /// Its line, from 1.
    pub(crate) line: usize,
    /// Its column, from 1, in characters.
    pub(crate) column: usize,
}

/// Reads the next token, skipping spaces, comments (but for a clock reading in one),
/// variations, NAGs and move numbers. `None` at the end of the text. A word goes into
/// `word` (a buffer kept from word to word); `start` is set to where the token starts.
/// With `keep`, comments and the parentheses of variations are tokens instead.
/// `numbered` is set to where a move number starts when one is skipped (a text with
/// one is PDN, whatever its moves), unless it is set already.
///
/// With `junk` (text before the first game that is no PDN is being read), brackets
/// open no comment and no variation: they are more of that text, a character each. An
/// export program's banner or a note is free text, and a `{` or `(` in it that is never
/// closed would otherwise swallow every game after it; a game's own comments and
/// variations are read as ever.
fn next_token(
    c: &mut Cursor,
    word: &mut String,
    start: &mut Place,
    keep: bool,
    junk: bool,
    numbered: &mut Option<Place>,
) -> Option<Result<(Token, usize, usize), SyntaxError>> {
    let kept_chars = if keep {
        crate::game::tree::MAX_COMMENT_CHARS
    } else {
        MAX_COMMENT_CHARS
    };
    loop {
        c.skip_space();
        let (line, column) = (c.line, c.column);
        *start = Place {
            offset: c.offset(),
            line,
            column,
        };
        let ch = c.peek()?;
        match ch {
            '{' | '}' | '(' | ')' if junk => {
                c.bump();
            }
            '%' if column == 1 => c.skip_line(),
            ';' => c.skip_line(),
            '{' => {
                c.bump();
                let mut comment = String::new();
                loop {
                    // A line of the comment that begins as a game's tags do: the
                    // comment was never closed, and the next game starts there (a
                    // stream cannot go back to read it again).
                    if c.column == 1 && c.peek() == Some('[') {
                        let what = format!("comment '{{' at line {line} column {column}");
                        let next = next_game(c, &mut comment, kept_chars, (line, column), what);
                        if let Some(token) = next {
                            return Some(Ok((token, line, column)));
                        }
                        continue;
                    }
                    match c.bump() {
                        Some('}') => break,
                        // A line break in a comment is a space: writers (this one too)
                        // wrap a long comment at its spaces, as they wrap the moves.
                        Some('\r') if c.peek() == Some('\n') => {}
                        Some('\r' | '\n') if comment.len() < kept_chars => comment.push(' '),
                        Some(d) if comment.len() < kept_chars => comment.push(d),
                        Some(_) => {}
                        None => {
                            return Some(Err(c.error(line, column, "comment '{' never closed")));
                        }
                    }
                }
                if let Some(reading) = clock_in_comment(&comment) {
                    let rest = if keep {
                        without_clock(&comment)
                    } else {
                        String::new()
                    };
                    return Some(Ok((Token::Clock(reading, rest), line, column)));
                }
                if keep {
                    return Some(Ok((Token::Comment(comment), line, column)));
                }
            }
            '(' | ')' if keep => {
                c.bump();
                let token = if ch == '(' { Token::Open } else { Token::Close };
                return Some(Ok((token, line, column)));
            }
            '(' => match skip_variation(c) {
                Ok(None) => {}
                Ok(Some(token)) => return Some(Ok((token, line, column))),
                Err(e) => return Some(Err(e)),
            },
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
                word.clear();
                let mut length = c.take_ascii_run(word, b"{}()[];$", MAX_WORD_CHARS);
                while let Some(d) = c.peek() {
                    if d.is_whitespace() || "{}()[];$".contains(d) {
                        break;
                    }
                    if length < MAX_WORD_CHARS {
                        word.push(d);
                    }
                    length += 1;
                    c.bump();
                }
                if word.is_empty() {
                    // A stray '}' or ']': nothing opened it.
                    c.bump();
                    return Some(Err(c.error(line, column, format!("unexpected '{ch}'"))));
                }
                if length > MAX_WORD_CHARS {
                    return Some(Err(c.error(
                        line,
                        column,
                        format!(
                            "a word of {length} characters, far longer than any move: {}",
                            printable(word, SHOWN_WORD_CHARS)
                        ),
                    )));
                }
                if RESULTS.contains(&word.as_str()) {
                    return Some(Ok((Token::Result(word.clone()), line, column)));
                }
                // A mark written apart from its move ("17-14 ??", as some programs and
                // hand-typed files do) says nothing the replay needs, as a NAG does.
                if word.chars().all(|d| d == '!' || d == '?') {
                    continue;
                }
                // A move number ("12." or "12...") or a lone "..." carries nothing the
                // replay needs: the position says whose move it is.
                let rest = word.trim_start_matches(|d: char| d.is_ascii_digit());
                if rest.starts_with('.') {
                    if rest.len() < word.len() && numbered.is_none() {
                        *numbered = Some(*start);
                    }
                    let after = rest.trim_start_matches('.');
                    if after.is_empty() {
                        continue;
                    }
                    // Digits and dots are one byte and one column each.
                    let skipped = word.len() - after.len();
                    word.drain(..skipped);
                    return Some(Ok((Token::Word, line, column + skipped)));
                }
                return Some(Ok((Token::Word, line, column)));
            }
        }
    }
}

/// Skips a variation, its `(` next, with the variations and comments in it. A line in
/// it (or in a comment in it) that begins as a game's tags do: the variation was never
/// closed, and the next game starts there ([`Token::NextGame`], as for a comment never
/// closed: a `(` or a `{` left open in a variation hid every game after it).
fn skip_variation(c: &mut Cursor) -> Result<Option<Token>, SyntaxError> {
    let (line, column) = (c.line, c.column);
    let what = || format!("variation '(' at line {line} column {column}");
    // Nothing of a skipped variation is kept.
    let mut skipped = String::new();
    let mut depth = 0usize;
    loop {
        if c.column == 1 && c.peek() == Some('[') {
            if let Some(token) = next_game(c, &mut skipped, 0, (line, column), what()) {
                return Ok(Some(token));
            }
            continue;
        }
        let Some(ch) = c.bump() else { break };
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Ok(None);
                }
            }
            '{' => {
                let at = (c.line, c.column - 1);
                loop {
                    if c.column == 1 && c.peek() == Some('[') {
                        let what = format!(
                            "comment '{{' at line {} column {} (in the {})",
                            at.0,
                            at.1,
                            what()
                        );
                        if let Some(token) = next_game(c, &mut skipped, 0, at, what) {
                            return Ok(Some(token));
                        }
                        continue;
                    }
                    if c.bump().is_none_or(|d| d == '}') {
                        break;
                    }
                }
            }
            _ => {}
        }
    }
    Err(c.error(line, column, "variation '(' never closed"))
}

/// At a `[` that begins a line inside `what` (a comment, a variation, opened at `at`),
/// still open: where the line opens a tag as a game's tags do ([`tag_opening`]), the
/// token that ends the game there as a fault and begins the next game with that tag;
/// otherwise `None`, what was read more of the comment (kept in `comment` up to `kept`
/// bytes).
fn next_game(
    c: &mut Cursor,
    comment: &mut String,
    kept: usize,
    at: (usize, usize),
    what: String,
) -> Option<Token> {
    let place = Place {
        offset: c.offset(),
        line: c.line,
        column: c.column,
    };
    let name = tag_opening(c, comment, kept)?;
    let tag = read_tag_value(c, name, place.line, place.column);
    let fault = c.error(
        at.0,
        at.1,
        format!(
            "{what} is not closed before the next game's tags at line {}",
            place.line
        ),
    );
    Some(Token::NextGame { fault, tag, place })
}

fn read_tag(c: &mut Cursor) -> Result<(String, String), SyntaxError> {
    let (line, column) = (c.line, c.column);
    c.bump(); // '['
    c.skip_space();
    let mut name = String::new();
    while let Some(d) = c.peek() {
        if d.is_alphanumeric() || d == '_' {
            if name.len() >= MAX_TAG_CHARS {
                return Err(c.error(
                    line,
                    column,
                    format!("a tag name longer than {MAX_TAG_CHARS} characters"),
                ));
            }
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
        let shown = printable(&name, SHOWN_WORD_CHARS);
        return Err(c.error(
            c.line,
            c.column,
            format!("tag {shown}: its value must be in quotes"),
        ));
    }
    c.bump();
    read_tag_value(c, name, line, column)
}

/// The longest tag name that a line of an unclosed comment is taken to begin the next
/// game with (real tag names are short words).
const MAX_OPENING_NAME_CHARS: usize = 40;

/// At a `[` that begins a line of a comment: whether the line opens a tag as a game's
/// tags do (`[Event "`: a letter, letters, digits or `_`, spaces, a quote), read up to
/// its value's quote; its name then. Otherwise what was read is more of the comment
/// (kept in `comment` up to `kept` bytes), and the character that showed it (a `}`
/// perhaps) is left to be read: nothing is read twice.
fn tag_opening(c: &mut Cursor, comment: &mut String, kept: usize) -> Option<String> {
    c.bump(); // '['
    let mut name = String::new();
    while let Some(d) = c.peek()
        && (d.is_ascii_alphanumeric() || d == '_')
        && name.len() < MAX_OPENING_NAME_CHARS
    {
        name.push(d);
        c.bump();
    }
    let mut spaces = String::new();
    while let Some(d @ (' ' | '\t')) = c.peek() {
        spaces.push(d);
        c.bump();
    }
    if name.starts_with(|d: char| d.is_ascii_alphabetic()) && c.peek() == Some('"') {
        c.bump();
        return Some(name);
    }
    for d in std::iter::once('[')
        .chain(name.chars())
        .chain(spaces.chars())
    {
        if comment.len() < kept {
            comment.push(d);
        }
    }
    None
}

/// The value of tag `name` (its `[` at `line`, `column`), the cursor just after its
/// opening quote, and the `]` that closes the tag.
fn read_tag_value(
    c: &mut Cursor,
    name: String,
    line: usize,
    column: usize,
) -> Result<(String, String), SyntaxError> {
    let shown = printable(&name, SHOWN_WORD_CHARS);
    let mut value = String::new();
    let mut length = 0usize;
    loop {
        let ch = match c.bump() {
            Some('\\') => match c.bump() {
                Some(e) => e,
                None => break,
            },
            Some('"') => {
                c.skip_space();
                return if length > MAX_TAG_CHARS {
                    Err(c.error(
                        line,
                        column,
                        format!("tag {shown}: its value is over {MAX_TAG_CHARS} characters"),
                    ))
                } else if c.peek() == Some(']') {
                    c.bump();
                    Ok((name, value))
                } else {
                    Err(c.error(c.line, c.column, format!("tag {shown}: expected ']'")))
                };
            }
            Some('\n' | '\r') | None => break,
            Some(d) => d,
        };
        if length < MAX_TAG_CHARS {
            value.push(ch);
        }
        length += 1;
    }
    Err(c.error(
        line,
        column,
        format!("tag {shown}: its value's quote is never closed"),
    ))
}

/// A variation open while a game is read with its tree.
#[derive(Debug)]
struct OpenVariation {
    /// The node to go back to when it closes.
    back_to: NodeId,
    /// A move of it did not replay (or it had nothing to branch from): the rest of it,
    /// and what it holds, is left out.
    dead: bool,
    /// No move of it read yet: its first move is a line of its own, even where it is
    /// the move it stands beside (see [`MoveTree::branch`]).
    fresh: bool,
    /// Where its `(` is.
    line: usize,
    /// See `line`.
    column: usize,
}

/// A game's moves and variations as they are read (reading with trees).
#[derive(Debug)]
struct TreeReading {
    /// The tree so far; its node shown is where the next move is played.
    tree: MoveTree,
    /// The variations open, the innermost last.
    open: Vec<OpenVariation>,
    /// The legal moves, kept from move to move.
    legal: Vec<Move>,
}

impl TreeReading {
    /// Whether what is read now is left out: a variation whose move failed.
    fn dead(&self) -> bool {
        self.open.last().is_some_and(|v| v.dead)
    }

    /// A variation opens: an alternative to the move just read.
    fn open(&mut self, line: usize, column: usize) {
        let back_to = self.tree.current();
        let dead = self.dead() || !self.tree.back();
        self.open.push(OpenVariation {
            back_to,
            dead,
            fresh: true,
            line,
            column,
        });
    }

    /// A variation closes; false when none is open.
    fn close(&mut self) -> bool {
        match self.open.pop() {
            Some(v) => {
                self.tree.go_to(v.back_to);
                true
            }
            None => false,
        }
    }

    /// A move of a variation: played into the tree, or (if it does not replay, or the
    /// tree is full) the variation is left out from here.
    fn word(&mut self, word: &str) {
        if self.dead() {
            return;
        }
        let pos = *self.tree.position();
        let m = plain_squares(word.trim_end_matches(['!', '?']))
            .and_then(|squares| pos.resolve_squares(squares.as_slice(), &mut self.legal))
            .or_else(|| {
                let text = move_part(word);
                let parsed = text.parse::<MoveText>().ok()?;
                pos.resolve(&parsed, text).ok()
            });
        let fresh = self.open.last().is_some_and(|v| v.fresh);
        let played = m.is_some_and(|m| {
            if fresh {
                self.tree.branch(m)
            } else {
                self.tree.play(m)
            }
        });
        if let Some(v) = self.open.last_mut() {
            v.fresh = false;
            if !played {
                v.dead = true;
            }
        }
    }
}

/// A game as it is read: its tags, and its moves replayed as they come.
struct GameInProgress {
    tags: Vec<(String, String)>,
    /// Where its (first) `FEN` tag is, line and column: a bad position is reported
    /// there.
    fen_place: Option<(usize, usize)>,
    /// Its (first) `GameType` tag's number and place, when it names another game than
    /// English checkers (21).
    other_game: Option<(u32, usize, usize)>,
    /// Whether a `GameType` tag has been read.
    game_type_read: bool,
    /// Whether any movetext (a word) has been read.
    movetext: bool,
    /// The start position (or the FEN fault), once the first move is read.
    start: Option<Result<Position, GameErrorKind>>,
    pos: Position,
    moves: Vec<Move>,
    /// The clock reading after each move, as far as comments gave them.
    clocks: Vec<Option<Duration>>,
    /// The first syntax error: it decides the game's fault.
    syntax: Option<SyntaxError>,
    /// The first move that does not replay.
    bad_move: Option<GameErrorKind>,
    /// Whether a move number came before one of its words: the text is PDN then,
    /// however wrong its moves.
    numbered: bool,
    /// Whether a move number had come before the first move that does not replay
    /// (text after it, such as "version 2.1", says nothing of whether it is PDN).
    numbered_before_fault: bool,
    /// Words read, legal or not (for move numbers).
    plies: usize,
    /// Where the game starts in the file.
    place: Place,
    /// The legal moves of the position, kept from move to move.
    legal: Vec<Move>,
    /// Whether its variations and comments are kept in a tree.
    keep: bool,
    /// Its tree, once its start is known (reading with trees).
    tree: Option<TreeReading>,
    /// A comment before the first move, for the tree's root.
    opening_comment: Option<String>,
}

impl GameInProgress {
    fn new(place: Place, keep: bool) -> GameInProgress {
        GameInProgress {
            keep,
            tree: None,
            opening_comment: None,
            place,
            legal: Vec::with_capacity(32),
            tags: Vec::new(),
            fen_place: None,
            other_game: None,
            game_type_read: false,
            movetext: false,
            start: None,
            pos: Position::start(),
            moves: Vec::new(),
            clocks: Vec::new(),
            syntax: None,
            bad_move: None,
            plies: 0,
            numbered: false,
            numbered_before_fault: false,
        }
    }

    /// Whether a fault of its text (a syntax error or a move that does not replay) has
    /// been read.
    fn faulty(&self) -> bool {
        self.syntax.is_some() || self.bad_move.is_some()
    }

    fn syntax_error(&mut self, e: SyntaxError) {
        self.syntax.get_or_insert(e);
    }

    fn tag(&mut self, name: String, value: String, line: usize, column: usize) {
        if self.tags.len() >= MAX_TAGS {
            self.syntax_error(SyntaxError {
                line,
                column,
                message: format!("more than {MAX_TAGS} tags in one game"),
            });
        } else {
            if self.fen_place.is_none() && name.eq_ignore_ascii_case("FEN") {
                self.fen_place = Some((line, column));
            }
            if !self.game_type_read && name.eq_ignore_ascii_case("GameType") {
                self.game_type_read = true;
                // "21", or with the board's description after it: "21,B,8,8,N1,0". A
                // value that is no number is passed over, as real files' oddities are.
                let number = value.split(',').next().unwrap_or("").trim().parse::<u32>();
                if let Ok(number) = number
                    && number != 21
                {
                    self.other_game = Some((number, line, column));
                }
            }
            self.tags.push((name, value));
        }
    }

    /// The start position from the `FEN` tag, or the standard start.
    fn start(&mut self) -> &Result<Position, GameErrorKind> {
        // A kept FEN tag always has its place; the game's start only stands in for it.
        let (tags, (line, column)) = (&self.tags, self.fen_place.unwrap_or((self.place.line, 1)));
        let other_game = self.other_game;
        let start = self.start.get_or_insert_with(|| {
            // Another game's moves are not replayed by these rules: some would even
            // replay, as a wrong game.
            if let Some((number, line, column)) = other_game {
                return Err(GameErrorKind::GameType {
                    line,
                    column,
                    number,
                });
            }
            match tags.iter().find(|(n, _)| n.eq_ignore_ascii_case("FEN")) {
                // A set-up position where a side has no pieces is no game.
                Some((_, fen)) => Position::parse_start(fen).map_err(|error| GameErrorKind::Fen {
                    line,
                    column,
                    error: Box::new(error),
                }),
                None => Ok(Position::start()),
            }
        });
        if let Ok(p) = start
            && self.moves.is_empty()
        {
            self.pos = *p;
        }
        start
    }

    /// Whether a variation is open (reading with trees).
    fn in_variation(&self) -> bool {
        self.tree.as_ref().is_some_and(|t| !t.open.is_empty())
    }

    /// The tree, made from the start position when first needed (reading with trees,
    /// once the start is known and good).
    fn tree(&mut self) -> Option<&mut TreeReading> {
        if !self.keep {
            return None;
        }
        if self.tree.is_none() {
            let start = *self.start().as_ref().ok()?;
            let mut tree = MoveTree::new(start);
            if let Some(comment) = self.opening_comment.take() {
                tree.add_comment(crate::game::tree::ROOT, &comment);
            }
            self.tree = Some(TreeReading {
                tree,
                open: Vec::new(),
                legal: Vec::with_capacity(32),
            });
        }
        self.tree.as_mut()
    }

    /// A comment: kept on the move before it (before any, for the start).
    fn comment(&mut self, text: &str) {
        if !self.movetext && self.tree.is_none() {
            let slot = self.opening_comment.get_or_insert_with(String::new);
            if slot.len() < crate::game::tree::MAX_COMMENT_CHARS {
                slot.push_str(text);
            }
            return;
        }
        if let Some(t) = self.tree()
            && !t.dead()
        {
            let here = t.tree.current();
            t.tree.add_comment(here, text);
        }
    }

    /// A variation opens at `line`, `column`.
    fn open_variation(&mut self, line: usize, column: usize) {
        self.movetext = true;
        match self.tree() {
            Some(t) => t.open(line, column),
            None => self.syntax_error(SyntaxError {
                line,
                column,
                message: "a variation '(' before any move".into(),
            }),
        }
    }

    /// A variation closes at `line`, `column`.
    fn close_variation(&mut self, line: usize, column: usize) {
        if !self.tree().is_some_and(|t| t.close()) {
            self.syntax_error(SyntaxError {
                line,
                column,
                message: "')' without a variation to close".into(),
            });
        }
    }

    /// Replays `word` (at `line`, `column`), unless the game is already faulty.
    fn word(&mut self, word: &str, line: usize, column: usize) {
        if self.in_variation() {
            if let Some(t) = self.tree.as_mut() {
                t.word(word);
            }
            return;
        }
        self.movetext = true;
        let ply = self.plies;
        self.plies += 1;
        let start = match self.start() {
            Ok(start) => *start,
            Err(_) => return,
        };
        if self.syntax.is_some() || self.bad_move.is_some() {
            return;
        }
        if self.moves.len() >= MAX_PLIES {
            self.syntax_error(SyntaxError {
                line,
                column,
                message: format!("more than {MAX_PLIES} moves in one game"),
            });
            return;
        }
        // Most words are plain moves in numbers ("11-15", "22x15"): found without
        // building anything. Any other word, or a fault, takes the full way, which
        // says what is wrong.
        if let Some(squares) = plain_squares(word.trim_end_matches(['!', '?']))
            && let Some(m) = self
                .pos
                .resolve_squares(squares.as_slice(), &mut self.legal)
        {
            self.main_move(m);
            return;
        }
        let text = move_part(word);
        let (number, color) = move_number(&start, ply);
        let parsed = text.parse::<MoveText>().map_err(MoveError::Syntax);
        match parsed.and_then(|t| self.pos.resolve(&t, text)) {
            Ok(m) => self.main_move(m),
            Err(error) => {
                self.numbered_before_fault = self.numbered;
                self.bad_move = Some(GameErrorKind::Move {
                    number,
                    color,
                    text: printable(word, SHOWN_WORD_CHARS),
                    line,
                    column,
                    error: Box::new(error),
                    // The game as far as it replays (no later move is replayed).
                    played: Box::new(PdnGame {
                        tags: self.tags.clone(),
                        start,
                        moves: self.moves.clone(),
                        clocks: self.clocks.clone(),
                        result: None,
                    }),
                });
            }
        }
    }

    /// Plays `m`, a legal move of the main line, into the game (and its tree).
    fn main_move(&mut self, m: Move) {
        self.pos = self.pos.play_unchecked(&m);
        self.moves.push(m);
        if let Some(t) = self.tree() {
            t.tree.play_main(m);
        }
    }

    /// A clock reading in a comment: it belongs to the move before it (none before the
    /// first move, nor after a fault, nor in a variation, but for the tree's move,
    /// reading with trees, a variation's included).
    fn clock(&mut self, reading: Duration) {
        if self.movetext
            && let Some(t) = self.tree()
            && !t.dead()
        {
            let here = t.tree.current();
            if here != crate::game::tree::ROOT {
                t.tree.set_clock(here, Some(reading));
            }
        }
        if self.moves.is_empty()
            || self.syntax.is_some()
            || self.bad_move.is_some()
            || self.in_variation()
        {
            return;
        }
        self.clocks.resize(self.moves.len(), None);
        self.clocks[self.moves.len() - 1] = Some(reading);
    }

    /// The game, or its first fault: a syntax error, else a bad FEN, else a bad move;
    /// and its tree when it is read with one (a game with no move has a tree too).
    /// `cut_off` is where the text ends, when it ends in the game right at its fault.
    fn finish(
        mut self,
        number: usize,
        result: Option<String>,
        cut_off: Option<(usize, usize)>,
    ) -> (Result<PdnGame, GameError>, Option<MoveTree>) {
        if let Some(open) = self.tree.as_ref().and_then(|t| t.open.first()) {
            let (line, column) = (open.line, open.column);
            self.syntax_error(SyntaxError {
                line,
                column,
                message: "variation '(' never closed".into(),
            });
        }
        let _ = self.tree();
        let tree = self.tree.take().map(|t| t.tree);
        (self.finish_game(number, result, cut_off), tree)
    }

    /// A first game whose very first move is no move at all, with no tag and no move
    /// number before it, is no game: the text is not PDN (a `/etc/passwd`, a note), and
    /// is said so, with what its first line holds, rather than opened with no move.
    /// Any other fault `bad` is kept.
    fn not_pdn(&self, bad: GameErrorKind) -> Option<GameErrorKind> {
        match &bad {
            GameErrorKind::Move {
                line, column, text, ..
            } if self.no_pdn_before(&bad) => Some(GameErrorKind::NotPdn {
                line: *line,
                column: *column,
                begins: text.clone(),
            }),
            _ => Some(bad),
        }
    }

    /// Whether `bad`, the first fault of this game, is a first word that is no move at
    /// all with no tag, no move number and no move before it: as the first game of a
    /// text, what is read is no PDN ([`not_pdn`](Self::not_pdn)).
    fn no_pdn_before(&self, bad: &GameErrorKind) -> bool {
        matches!(bad, GameErrorKind::Move { error, .. } if matches!(**error, MoveError::Syntax(_)))
            && self.tags.is_empty()
            && !self.numbered_before_fault
            && self.moves.is_empty()
    }

    /// Whether the game read so far is no PDN at all, as the first game of a text: text
    /// before its games (a note, an export program's banner) when a game follows.
    fn is_not_pdn(&self) -> bool {
        // A syntax fault after its first word (a word of 300 characters) is more of
        // the same text; one before it leaves no bad move.
        self.bad_move
            .as_ref()
            .is_some_and(|b| self.no_pdn_before(b))
    }

    /// The game of [`finish`](Self::finish).
    fn finish_game(
        mut self,
        number: usize,
        result: Option<String>,
        cut_off: Option<(usize, usize)>,
    ) -> Result<PdnGame, GameError> {
        let start = self.start().clone();
        let event = self
            .tags
            .iter()
            .find(|(n, _)| n == "Event")
            .map(|(_, v)| v.clone());
        let mut cut_off = cut_off;
        let bad_move = match self.bad_move.take() {
            Some(bad) if number == 1 => {
                let kept = self.not_pdn(bad);
                // A text that is no PDN was never a game, so it was not cut short in
                // one: a one-line note is not said to be truncated.
                if matches!(kept, Some(GameErrorKind::Syntax(_))) {
                    cut_off = None;
                }
                kept
            }
            other => other,
        };
        // No PDN at all: what else is wrong in it says nothing more.
        if let Some(GameErrorKind::NotPdn { .. }) = bad_move {
            self.syntax = None;
        }
        let fault = match (self.syntax, start, bad_move) {
            (Some(e), _, _) => GameErrorKind::Syntax(e),
            (None, Err(fen), _) => fen,
            (None, Ok(_), Some(bad)) => bad,
            (None, Ok(start), None) => {
                return Ok(PdnGame {
                    tags: self.tags,
                    start,
                    moves: self.moves,
                    clocks: self.clocks,
                    result,
                });
            }
        };
        Err(GameError {
            game: number,
            event,
            kind: fault,
            cut_off: cut_off.map(Box::new),
        })
    }
}

/// Whether `word` is a first move from the standard start (`11-15`): after a move
/// number, in text that is no PDN, it begins a game without tags.
fn opens_a_game(word: &str) -> bool {
    let mut legal = Vec::new();
    plain_squares(word.trim_end_matches(['!', '?'])).is_some_and(|squares| {
        Position::start()
            .resolve_squares(squares.as_slice(), &mut legal)
            .is_some()
    })
}

/// The most stray result tokens held until taken.
const MAX_STRAYS_HELD: usize = 1000;

/// A result token after a game's own result (`1-0 1-0`): read as part of that game;
/// or one before the first game, read as no game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StrayResult {
    /// The game it follows, from 1; 0 before the first game.
    pub(crate) game: usize,
    /// Its line, from 1.
    pub(crate) line: usize,
    /// Its column, from 1.
    pub(crate) column: usize,
    /// The token as written.
    pub(crate) token: String,
}

/// The games of a PDN text, one at a time: see `games`.
pub struct Games<'a> {
    cursor: Cursor<'a>,
    /// The word being read, kept from word to word.
    word: String,
    /// Where the last token read starts.
    token: Place,
    /// Where the game last handed out starts.
    last_place: Option<Place>,
    current: Option<GameInProgress>,
    /// Games handed out so far.
    number: usize,
    /// Whether any game was handed out: a text of nothing but a result token (`*`) is
    /// one empty game, not a stray before the first.
    handed_any: bool,
    done: bool,
    /// Whether variations and comments are kept in a tree ([`games_with_trees`]).
    keep: bool,
    /// The tree of the game last handed out (reading with trees).
    tree: Option<MoveTree>,
    /// Result tokens read after a game's result, not yet taken
    /// ([`take_strays`](Self::take_strays)).
    strays: Vec<StrayResult>,
    /// Whether the game being read was already faulty before the last token: if not,
    /// and the text ends after that token in the game's fault, the file may be cut
    /// short there.
    faulty_before_token: bool,
    /// Where the move number skipped since the last word starts, if one was.
    numbered: Option<Place>,
    /// Text before the first game that is no PDN (a note, an export program's banner),
    /// left out: its fault, [`GameErrorKind::NotPdn`]. A text with no game after such
    /// text has it as its one "game", that error.
    skipped: Option<GameError>,
}

impl Iterator for Games<'_> {
    type Item = Result<PdnGame, GameError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        loop {
            let keep = self.keep;
            let junk = self
                .current
                .as_ref()
                .is_some_and(|g| self.is_leading_text(g));
            let Some(token) = next_token(
                &mut self.cursor,
                &mut self.word,
                &mut self.token,
                keep,
                junk,
                &mut self.numbered,
            ) else {
                self.done = true;
                let Some(game) = self.current.take() else {
                    return self.lone_result();
                };
                // The text ends in the game: cut short, most likely, where its last
                // token is its fault (a move, comment, tag or variation not finished).
                let cut = !self.faulty_before_token && (game.faulty() || game.in_variation());
                let end = cut.then_some((self.cursor.line, self.cursor.column));
                return Some(self.hand_out(game, None, end));
            };
            self.faulty_before_token = self.current.as_ref().is_some_and(|g| g.faulty());
            let (token, line, column) = match token {
                Ok(t) => t,
                Err(e) => {
                    self.current
                        .get_or_insert_with(|| GameInProgress::new(self.token, keep))
                        .syntax_error(e);
                    continue;
                }
            };
            match token {
                Token::Tag(name, value) => {
                    // A move number with no move after it belongs to no game after it.
                    self.numbered = None;
                    // A tag after movetext starts the next game.
                    if self.current.as_ref().is_some_and(|g| g.movetext) {
                        let finished = self.current.take();
                        let mut next = GameInProgress::new(self.token, keep);
                        next.tag(name, value, line, column);
                        self.current = Some(next);
                        if let Some(game) = finished {
                            if self.is_leading_text(&game) {
                                self.skip_leading_text(game);
                            } else {
                                return Some(self.hand_out(game, None, None));
                            }
                        }
                    } else {
                        self.current
                            .get_or_insert_with(|| GameInProgress::new(self.token, keep))
                            .tag(name, value, line, column);
                    }
                }
                Token::Word => {
                    let numbered = self.numbered.take();
                    // A game without tags after text that is no PDN ("Exported by X",
                    // then "1. 11-15 23-19 *"): a move number and a first move from the
                    // start begin it, as they begin any game without tags.
                    if numbered.is_some()
                        && junk
                        && opens_a_game(&self.word)
                        && let Some(text) = self.current.take()
                    {
                        self.skip_leading_text(text);
                    }
                    // A game starts at its move number, where it has one.
                    let place = numbered.unwrap_or(self.token);
                    let game = self
                        .current
                        .get_or_insert_with(|| GameInProgress::new(place, keep));
                    // A move number before this word belongs to its game.
                    game.numbered |= numbered.is_some();
                    game.word(&self.word, line, column);
                }
                Token::Clock(reading, rest) => {
                    if let Some(game) = self.current.as_mut() {
                        game.clock(reading);
                        if !rest.is_empty() {
                            game.comment(&rest);
                        }
                    }
                }
                Token::Comment(text) => {
                    if let Some(game) = self.current.as_mut() {
                        game.comment(&text);
                    }
                }
                Token::NextGame { fault, tag, place } => {
                    self.numbered = None;
                    let mut game = self
                        .current
                        .take()
                        .unwrap_or_else(|| GameInProgress::new(self.token, keep));
                    game.syntax_error(fault);
                    let mut next = GameInProgress::new(place, keep);
                    match tag {
                        Ok((name, value)) => next.tag(name, value, place.line, place.column),
                        Err(e) => next.syntax_error(e),
                    }
                    self.current = Some(next);
                    return Some(self.hand_out(game, None, None));
                }
                Token::Open => self
                    .current
                    .get_or_insert_with(|| GameInProgress::new(self.token, keep))
                    .open_variation(line, column),
                Token::Close => self
                    .current
                    .get_or_insert_with(|| GameInProgress::new(self.token, keep))
                    .close_variation(line, column),
                // A result token in text before the first game that is no PDN (the
                // `0-1` of `Cpus_allowed_list: 0-1`) ends nothing: the text goes on.
                Token::Result(_)
                    if self
                        .current
                        .as_ref()
                        .is_some_and(|g| self.is_leading_text(g)) => {}
                // A result inside a variation (some files end one with it) ends nothing.
                Token::Result(_) if self.current.as_ref().is_some_and(|g| g.in_variation()) => {}
                // A second result token after a game's (`1-0 1-0`) is no game of its
                // own: it belongs to the game before, and is pointed out. One before
                // the first game (`1-0` and a blank line, then its tags) is no game
                // either: it is pointed out as standing before game 1.
                Token::Result(result) if self.current.is_none() => {
                    // Bounded: a reader that never takes them holds no more than these.
                    if self.strays.len() < MAX_STRAYS_HELD {
                        self.strays.push(StrayResult {
                            game: self.number,
                            line,
                            column,
                            token: result,
                        });
                    }
                }
                Token::Result(result) => {
                    let game = self
                        .current
                        .take()
                        .unwrap_or_else(|| GameInProgress::new(self.token, keep));
                    return Some(self.hand_out(game, Some(result), None));
                }
            }
        }
    }
}

impl<'a> Games<'a> {
    fn with_cursor(cursor: Cursor<'a>, first_number: usize) -> Games<'a> {
        Games {
            cursor,
            word: String::new(),
            token: Place::default(),
            last_place: None,
            current: None,
            number: first_number.saturating_sub(1),
            handed_any: false,
            done: false,
            keep: false,
            tree: None,
            strays: Vec::new(),
            faulty_before_token: false,
            numbered: None,
            skipped: None,
        }
    }

    /// Whether `game`, read up to a tag or a result token that ends it, is text before
    /// the text's first game rather than a game: no PDN at all ([`GameErrorKind::NotPdn`])
    /// and nothing handed out before it.
    fn is_leading_text(&self, game: &GameInProgress) -> bool {
        self.number == 0 && !self.handed_any && game.is_not_pdn()
    }

    /// Leaves out `game`, text before the first game that is no PDN: the games are
    /// numbered from the first real one, and the text is kept to be pointed out
    /// ([`leading_text`](Self::leading_text)).
    fn skip_leading_text(&mut self, game: GameInProgress) {
        if let (Err(e), _) = game.finish(1, None, None)
            && self.skipped.is_none()
        {
            self.skipped = Some(e);
        }
    }

    /// Where the text left out before the first game starts (line, column) and its
    /// first word, once a game after it has been handed out (`checkers pdn check`
    /// warns of it).
    pub(crate) fn leading_text(&self) -> Option<(usize, usize, &str)> {
        match &self.skipped.as_ref()?.kind {
            GameErrorKind::NotPdn {
                line,
                column,
                begins,
            } => Some((*line, *column, begins.as_str())),
            _ => None,
        }
    }

    /// The result tokens read after a game's own result since last asked (`1-0 1-0`:
    /// the second, read as part of that game), for `checkers pdn check` to point out.
    /// A file of many holds them until they are taken.
    pub(crate) fn take_strays(&mut self) -> Vec<StrayResult> {
        std::mem::take(&mut self.strays)
    }

    /// The games read with their trees (see [`games_with_trees`]): each game's tree is
    /// then taken with [`take_tree`](Self::take_tree) after the game.
    pub(crate) fn keeping_trees(mut self) -> Self {
        self.keep = true;
        self
    }

    /// The tree of the game last handed out, taken (reading with trees only).
    pub(crate) fn take_tree(&mut self) -> Option<MoveTree> {
        self.tree.take()
    }

    /// Where the game last handed out starts in the file (its offset, line and
    /// column), for an index that reads it again without reading what is before it
    /// ([`games_at`]).
    pub(crate) fn last_place(&self) -> Option<Place> {
        self.last_place
    }

    /// Bytes of the source read so far (for a progress bar).
    pub(crate) fn bytes_read(&self) -> u64 {
        self.cursor.offset()
    }

    /// At the text's end with no game read but a result token (`*`, as a game with no
    /// tags and no moves is written): that token is the one game, empty, not a stray
    /// before a first game that never came.
    fn lone_result(&mut self) -> Option<Result<PdnGame, GameError>> {
        if self.handed_any {
            return None;
        }
        let at = self.strays.iter().position(|s| s.game == self.number)?;
        let stray = self.strays.remove(at);
        let game = GameInProgress::new(self.token, self.keep);
        Some(self.hand_out(game, Some(stray.token), None))
    }

    /// Numbers `game` and finishes it (`cut_off`: where the text ends, when it ends
    /// right at the game's fault).
    fn hand_out(
        &mut self,
        game: GameInProgress,
        result: Option<String>,
        cut_off: Option<(usize, usize)>,
    ) -> Result<PdnGame, GameError> {
        self.number += 1;
        self.handed_any = true;
        // A move number with no move after it (`2. *`) is no start of the next game.
        self.numbered = None;
        self.last_place = Some(game.place);
        let (game, tree) = game.finish(self.number, result, cut_off);
        self.tree = tree;
        game
    }
}

/// The games of a PDN text, read and replayed one at a time as the iterator is
/// advanced. A faulty game gives its error and the reader goes on with the next one.
/// Only the game being read is held, so a file of any number of games is read in
/// memory bounded by one game.
pub(crate) fn games(text: &str) -> Games<'_> {
    Games::with_cursor(Cursor::over_text(text), 1)
}

/// The games of a PDN text as `games` reads them, each with its move tree: the main
/// line, the variations `( ... )` nested as deep as they go, and the comments `{...}`
/// on the moves they follow. A variation's move that does not replay leaves the rest of
/// that variation out (the game itself is still good); the tree is bounded
/// ([`MAX_NODES`](crate::game::tree::MAX_NODES) moves, comments cut).
pub(crate) fn games_with_trees(
    text: &str,
) -> impl Iterator<Item = Result<(PdnGame, MoveTree), GameError>> + '_ {
    let mut games = Games::with_cursor(Cursor::over_text(text), 1);
    games.keep = true;
    std::iter::from_fn(move || {
        let game = games.next()?;
        let tree = games.take_tree();
        Some(game.map(|g| {
            let tree = tree.unwrap_or_else(|| MoveTree::from_moves(g.start, &g.moves));
            (g, tree)
        }))
    })
}

/// The games of the PDN bytes `reader` gives (a file, streamed a block at a time: memory
/// stays one block and one game), read as `games` reads a text. `encoding` is the
/// file's, as [`Encoding::of`] finds it.
pub fn games_in<'a>(reader: impl std::io::Read + 'a, encoding: Encoding) -> Games<'a> {
    Games::with_cursor(Cursor::over_stream(reader, encoding, Place::default()), 1)
}

/// The games of a file from the game at `place` on (as [`Games::last_place`] gave it;
/// `reader` starts there), numbered from `number`: errors give the lines of the file.
pub(crate) fn games_at<'a>(
    reader: impl std::io::Read + 'a,
    encoding: Encoding,
    place: Place,
    number: usize,
) -> Games<'a> {
    Games::with_cursor(Cursor::over_stream(reader, encoding, place), number)
}

/// Reads every game of a PDN text (see `games` to read them one at a time). Each game
/// is replayed; a faulty game gives its error and the reader goes on with the next one.
///
/// ```
/// use checkers::pdn::read_games;
/// let games = read_games("[Event \"x\"]\n1. 11-15 23-19 2. 8-11 {good} 22-17 1-0\n");
/// let game = games[0].as_ref().unwrap();
/// assert_eq!(game.moves.len(), 4);
/// assert_eq!(game.result.as_deref(), Some("1-0"));
/// ```
pub fn read_games(text: &str) -> Vec<Result<PdnGame, GameError>> {
    games(text).collect()
}

/// `comment` without its first `[%clk ...]` (the words around it, as one text).
fn without_clock(comment: &str) -> String {
    let Some(at) = comment.find("[%clk") else {
        return comment.to_string();
    };
    let end = comment[at..]
        .find(']')
        .map_or(comment.len(), |e| at + e + 1);
    format!("{} {}", comment[..at].trim(), comment[end..].trim())
        .trim()
        .to_string()
}

/// The clock reading of a comment's `[%clk 0:04:53]` (PGN practice; tenths allowed,
/// `0:04:53.2`), if it has one that reads.
fn clock_in_comment(comment: &str) -> Option<Duration> {
    let (_, rest) = comment.split_once("[%clk")?;
    let (reading, _) = rest.split_once(']')?;
    super::parse_clock(reading)
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]

    #[test]
    fn example_of_games() {
        use super::games;
        let text = "[Event \"a\"] 1. 11-15 *\n[Event \"b\"] 1. 11-18 *\n[Event \"c\"] 1. 9-13 *";
        let results: Vec<bool> = games(text).map(|g| g.is_ok()).collect();
        assert_eq!(results, [true, false, true]);
    }
}
