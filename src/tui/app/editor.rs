//! The position editor: men and kings placed and removed with the cursor, the side to
//! move chosen, a FEN typed or pasted; Enter plays from the position, or says why it
//! cannot be played (a man on its crowning row, more than 12 pieces a side, a side with
//! no pieces).

use super::{Action, App, Mode};
use crate::rules::{Bitboard, Color, Piece, Position, Role, Square};
use crate::runtime::Command;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// A position being set up. It may be impossible while it is edited; Enter checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Editor {
    /// What stands on each square (index: the square's number less one).
    pub(crate) squares: [Option<Piece>; 32],
    /// The side to move.
    pub(crate) turn: Color,
    /// A FEN being typed (`f`), if one is.
    pub(crate) fen: Option<String>,
    /// The position as it stands, unchecked, to draw while it is edited.
    pub(crate) board: Position,
}

impl Editor {
    /// An editor holding `position`.
    pub(crate) fn of(position: &Position) -> Editor {
        let mut squares = [None; 32];
        for sq in Square::ALL {
            squares[usize::from(sq.number() - 1)] = position.piece_at(sq);
        }
        Editor {
            squares,
            turn: position.turn(),
            fen: None,
            board: *position,
        }
    }

    /// The position as it stands, checked: the reason it cannot be played, if it cannot
    /// (a side with no pieces included: see [`Position::check_start`]).
    pub(crate) fn position(&self) -> Result<Position, String> {
        let (black, white, kings) = self.parts();
        let position =
            Position::from_parts(black, white, kings, self.turn).map_err(|e| e.to_string())?;
        position.check_start().map_err(|e| e.to_string())?;
        Ok(position)
    }

    /// Draws the board anew after a change.
    fn refresh(&mut self) {
        let (black, white, kings) = self.parts();
        self.board = Position::from_parts_unchecked(black, white, kings, self.turn);
    }

    /// Black's squares, White's, and the kings'.
    fn parts(&self) -> (Bitboard, Bitboard, Bitboard) {
        let mut parts = [Bitboard::EMPTY; 3];
        for sq in Square::ALL {
            if let Some(piece) = self.squares[usize::from(sq.number() - 1)] {
                let bit = Bitboard::from_square(sq);
                let side = usize::from(piece.color == Color::White);
                parts[side] |= bit;
                if piece.role == Role::King {
                    parts[2] |= bit;
                }
            }
        }
        (parts[0], parts[1], parts[2])
    }

    /// The position's FEN as it stands.
    pub(crate) fn fen_text(&self) -> String {
        self.board.to_string()
    }
}

/// The keys while the editor is open: the cursor's keys move it, `b` `w` place a man, `B`
/// `W` a king, Space, Delete or `x` clear the square, `t` changes the side to move, `c`
/// clears the board, `s` sets the start position, `f` types a FEN, Enter plays from the
/// position, Esc leaves it unchanged.
pub(crate) fn editor_action(key: &KeyEvent, typing_fen: bool) -> Option<Action> {
    if typing_fen {
        return match key.code {
            KeyCode::Enter => Some(Action::EditFenDone),
            KeyCode::Esc => Some(Action::EditCancel),
            KeyCode::Backspace => Some(Action::Erase),
            _ => crate::tui::field::typed_char(key).map(Action::Type),
        };
    }
    let man = |color| {
        Some(Piece {
            color,
            role: Role::Man,
        })
    };
    let king = |color| {
        Some(Piece {
            color,
            role: Role::King,
        })
    };
    // Ctrl-B or Alt-b is not b: it places nothing.
    Some(match crate::tui::keymap::plain_code(key) {
        KeyCode::Up | KeyCode::Char('k') => Action::Cursor(super::Direction::Up),
        KeyCode::Down | KeyCode::Char('j') => Action::Cursor(super::Direction::Down),
        KeyCode::Left | KeyCode::Char('h') => Action::Cursor(super::Direction::Left),
        KeyCode::Right | KeyCode::Char('l') => Action::Cursor(super::Direction::Right),
        KeyCode::Char('b') => Action::EditPlace(man(Color::Black)),
        KeyCode::Char('B') => Action::EditPlace(king(Color::Black)),
        KeyCode::Char('w') => Action::EditPlace(man(Color::White)),
        KeyCode::Char('W') => Action::EditPlace(king(Color::White)),
        KeyCode::Char(' ' | 'x') | KeyCode::Delete | KeyCode::Backspace => Action::EditPlace(None),
        KeyCode::Char('t') => Action::EditTurn,
        KeyCode::Char('c') => Action::EditClear,
        KeyCode::Char('s') => Action::EditStart,
        KeyCode::Char('f') => Action::EditFen,
        KeyCode::Enter => Action::EditPlay,
        KeyCode::Esc => Action::EditCancel,
        _ => return None,
    })
}

impl App {
    /// Opens the editor on the position on the board.
    pub(super) fn open_editor(&mut self) {
        self.board.pick = None;
        self.mode = Mode::Editor(Editor::of(self.position()));
        self.status.info(EDITOR_WELCOME);
    }

    /// Carries out an editing action.
    pub(super) fn edit(&mut self, action: Action) {
        let cursor = self.board.cursor_square();
        let Mode::Editor(editor) = &mut self.mode else {
            return;
        };
        match editor.apply(action, cursor) {
            Edited::Cancelled => {
                self.mode = Mode::Board;
                self.status.info("The position is as it was");
            }
            Edited::Play(position) => {
                self.mode = Mode::Board;
                self.command(Command::SetUp(position));
            }
            Edited::Said(true, text) => self.status.error(text),
            Edited::Said(false, text) => self.status.info(text),
        }
    }
}

/// What an editing action came to, for the screen the editor is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Edited {
    /// Esc: the position is left as it was.
    Cancelled,
    /// Enter: the position set up, checked, to play or analyse from.
    Play(Position),
    /// Editing goes on; the words to say (true: a refusal), by default the position's
    /// FEN as it stands.
    Said(bool, String),
}

impl Editor {
    /// Carries out `action` with the cursor on `cursor` (`None`: a light square).
    pub(crate) fn apply(&mut self, action: Action, cursor: Option<Square>) -> Edited {
        let mut said = None;
        match action {
            Action::EditPlace(piece) => match cursor {
                Some(sq) => self.squares[usize::from(sq.number() - 1)] = piece,
                None => said = Some((true, "Pieces stand on the dark squares only".to_string())),
            },
            Action::EditTurn => self.turn = !self.turn,
            Action::EditClear => self.squares = [None; 32],
            Action::EditStart => *self = Editor::of(&Position::start()),
            Action::EditFen => {
                self.fen = Some(String::new());
                said = Some((
                    false,
                    "Type or paste a FEN (B:W21-32:B1-12), Enter to take it, Esc to go back"
                        .to_string(),
                ));
            }
            Action::EditFenDone => {
                let text = self.fen.take().unwrap_or_default();
                match text.parse::<Position>() {
                    Ok(position) => *self = Editor::of(&position),
                    Err(e) => {
                        let why = crate::text::error_chain(&e);
                        self.fen = Some(text);
                        said = Some((true, format!("Not a position: {why}")));
                    }
                }
            }
            // Back from typing a FEN, nothing changed: the editor's instructions again,
            // not the position's FEN (which the panel shows), as when it opened.
            Action::EditCancel if self.fen.is_some() => {
                self.fen = None;
                said = Some((false, EDITOR_WELCOME.to_string()));
            }
            Action::EditCancel => return Edited::Cancelled,
            Action::EditPlay => match self.position() {
                Ok(position) => return Edited::Play(position),
                Err(why) => said = Some((true, format!("This position cannot be played: {why}"))),
            },
            Action::Type(c) => {
                if let Some(fen) = &mut self.fen
                    && fen.chars().count() < FEN_MAX_CHARS
                {
                    fen.push(c);
                }
            }
            Action::Erase => {
                if let Some(fen) = &mut self.fen {
                    crate::text::pop_grapheme(fen);
                }
            }
            _ => {}
        }
        self.refresh();
        let (error, text) =
            said.unwrap_or_else(|| (false, format!("Setting up: {}", self.fen_text())));
        Edited::Said(error, text)
    }
}

/// The first words in the editor.
const EDITOR_WELCOME: &str = "Set up a position: b w a man, B W a king, Space clears, t side to move, \
     c empties the board, s the start, f a FEN, Enter plays, Esc leaves it";

/// The longest FEN the editor takes (every square named, with room to spare).
const FEN_MAX_CHARS: usize = 200;
