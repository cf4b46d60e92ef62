//! Why a game of a PDN text cannot be read: a syntax error, a bad set-up position, or
//! a move that does not replay.

use super::PdnGame;
use crate::rules::{Color, FenError, MoveError};
use crate::text::printable;
use std::fmt;

/// How much of a word from the file an error message shows.
pub(super) const SHOWN_WORD_CHARS: usize = 40;

/// How much of an error message (which may quote the file) is shown.
const SHOWN_MESSAGE_CHARS: usize = 240;

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
            self.line,
            self.column,
            printable(&self.message, SHOWN_MESSAGE_CHARS)
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
    /// Where the text ends (line and column), when it ends in this game, without its
    /// result, right at the fault: the file may have been cut short (truncated). Boxed,
    /// as it is rare, to keep the error small.
    pub(crate) cut_off: Option<Box<(usize, usize)>>,
}

impl GameError {
    /// The game as far as it replays, when a move of it cannot be played: its tags
    /// (its `Result` unknown, `*`: the game no longer reaches the end it names, and
    /// its `Termination` saying where the record stops and what result it gave), its
    /// start and the moves before the faulty one. `None` for any other fault.
    pub(crate) fn up_to_fault(&self) -> Option<PdnGame> {
        let GameErrorKind::Move {
            played,
            number,
            color,
            text,
            ..
        } = &self.kind
        else {
            return None;
        };
        let mut record = (**played).clone();
        // The record's own ending (a resignation, say) is the whole game's, not this
        // part's: a save of it says where it stops instead.
        let recorded = record
            .tag("Result")
            .map(str::trim)
            .filter(|r| !r.is_empty() && *r != "*")
            .map(|r| format!("; recorded result {}", printable(r, SHOWN_WORD_CHARS)))
            .unwrap_or_default();
        let dots = if *color == Color::Black { "." } else { "..." };
        let stops = format!(
            "stopped at unplayable move {number}{dots} {} ({color}){recorded}",
            printable(text, SHOWN_WORD_CHARS)
        );
        record.tags.retain(|(name, _)| name != "Termination");
        record.set_tag("Result", "*");
        record.set_tag("Termination", &stops);
        Some(record)
    }
}

/// What went wrong in a game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameErrorKind {
    /// The text is not PDN here.
    Syntax(SyntaxError),
    /// The `FEN` tag is not a valid position.
    Fen {
        /// The tag's line.
        line: usize,
        /// The tag's column.
        column: usize,
        /// Why it is invalid.
        error: Box<FenError>,
    },
    /// The `GameType` tag names another game than English checkers (`21`): its moves
    /// are not replayed by these rules.
    GameType {
        /// The tag's line.
        line: usize,
        /// The tag's column.
        column: usize,
        /// The number the tag gives.
        number: u32,
    },
    /// The text is no PDN at all: it starts with a word that is no move, with no tag,
    /// no move number and no move before it (a `/etc/passwd`, a note). Text such as
    /// this before a file's first real game is left out, so this is the one "game" of
    /// a text that holds none.
    NotPdn {
        /// Its first word's line.
        line: usize,
        /// Its first word's column.
        column: usize,
        /// Its first word (as written, not yet made printable).
        begins: String,
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

/// The message shows text from the file only as `printable` makes it: no control
/// characters, and a long word cut short.
impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {}", self.game)?;
        if let Some(event) = &self.event {
            write!(f, " ({:?})", printable(event, SHOWN_WORD_CHARS))?;
        }
        match &self.kind {
            GameErrorKind::Syntax(e) => write!(f, ", {e}")?,
            GameErrorKind::Fen {
                line,
                column,
                error,
            } => write!(
                f,
                ", line {line}, column {column}: {}",
                printable(&crate::text::error_chain(&**error), SHOWN_MESSAGE_CHARS)
            )?,
            GameErrorKind::NotPdn {
                line,
                column,
                begins,
            } => write!(
                f,
                ", line {line}, column {column}: this is not a PDN file: {}",
                not_pdn_reason(begins)
            )?,
            GameErrorKind::GameType {
                line,
                column,
                number,
            } => write!(
                f,
                ", line {line}, column {column}: GameType {number} is {}, not English \
                 checkers (GameType 21), the only game this program reads",
                game_type_name(*number)
            )?,
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
                // A fault in the move's text is placed at its own column in the file,
                // and its words leave their column out: the place is said once.
                let (column, reason) = match &**error {
                    MoveError::Syntax(e) => (column + e.column.max(1) - 1, e.reason()),
                    other => (*column, other.to_string()),
                };
                write!(
                    f,
                    ", move {number}{dots} {} ({color}, line {line}, column {column}): {}",
                    printable(text, SHOWN_WORD_CHARS),
                    printable(&reason, SHOWN_MESSAGE_CHARS)
                )?;
            }
        }
        if let Some(&(line, column)) = self.cut_off.as_deref() {
            write!(
                f,
                "; the file ends there, at line {line}, column {column}, in the middle of \
                 the game: it may have been cut short (truncated)"
            )?;
        }
        Ok(())
    }
}

/// Why a text whose first word is `begins` is no PDN, as said of a file that holds no
/// game.
pub(crate) fn not_pdn_reason(begins: &str) -> String {
    format!(
        "no tag, no move number, nothing that reads as a game (it begins \"{}\")",
        printable(begins, SHOWN_WORD_CHARS)
    )
}

/// The game PDN's `GameType` number `number` stands for.
fn game_type_name(number: u32) -> &'static str {
    match number {
        0 => "chess",
        20 => "international draughts (10x10)",
        22 => "Italian draughts",
        23 => "American pool checkers",
        24 => "Spanish draughts",
        25 => "Russian draughts",
        26 => "Brazilian draughts",
        27 => "Canadian draughts (12x12)",
        28 => "Portuguese draughts",
        29 => "Czech draughts",
        30 => "Turkish draughts",
        31 => "Thai draughts",
        40 => "Frisian draughts",
        41 => "Spantsiretti",
        _ => "another game",
    }
}

/// The message names the game and shows the inner error (a FEN's or a move's), so it
/// has no source.
impl std::error::Error for GameError {}
