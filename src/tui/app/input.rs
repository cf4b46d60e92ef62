//! Terminal events into actions: keys by the mode the screen is in (the key map for the
//! board), clicks and resizes; a file letter that turns out to start a square (`c3`),
//! its command put back; and what is typed into the line open.

use super::*;
use crate::tui::choice::Clicked;
use crate::tui::view::FooterLayout;
use ratatui::crossterm::event::KeyModifiers;

/// A file letter pressed on the board, and the parts its command can change as they
/// were before it acted: if a digit follows, they are put back and the two start a
/// typed move.
#[derive(Clone, Debug)]
pub(super) struct LetterPressed {
    /// The letter pressed (a-h).
    pub(super) letter: char,
    /// The board, the status line and the mode, before the letter's command.
    before: (BoardView, StatusLine, Mode),
}

impl App {
    /// Turns a terminal event into an action for the current mode. Key releases and
    /// repeats mean nothing.
    pub(crate) fn action_for(&self, event: &Event) -> Option<Action> {
        match event {
            Event::Key(key) => self.key_action(key),
            Event::Mouse(mouse) => match mouse.kind {
                MouseEventKind::ScrollUp if self.mouse && self.mode == Mode::Board => {
                    Some(Action::ScrollMoves(true))
                }
                MouseEventKind::ScrollDown if self.mouse && self.mode == Mode::Board => {
                    Some(Action::ScrollMoves(false))
                }
                // The wheel moves the file's list of games as the arrows do.
                MouseEventKind::ScrollUp | MouseEventKind::ScrollDown
                    if self.mouse && matches!(self.mode, Mode::Games(_)) =>
                {
                    let down = mouse.kind == MouseEventKind::ScrollDown;
                    Some(Action::ChooseGame(if down { 1 } else { -1 }))
                }
                MouseEventKind::ScrollUp | MouseEventKind::ScrollDown
                    if self.mouse
                        && matches!(self.mode, Mode::Help(_))
                        && crate::tui::view::help_scrolls(self) =>
                {
                    Some(Action::ScrollHelp(mouse.kind == MouseEventKind::ScrollDown))
                }
                MouseEventKind::Down(MouseButton::Left) if self.mouse => {
                    self.click_action(mouse.column, mouse.row)
                }
                _ => None,
            },
            Event::Resize(width, height) => Some(Action::Resize {
                width: *width,
                height: *height,
            }),
            _ => None,
        }
    }

    /// A left click at `column`, `row`: on an entry of the key line (or a question's
    /// answer) it presses that key, so that a player with only a mouse can do all the
    /// line offers; on the help, it closes it as any key does; on the board, it picks
    /// up or lands on the square.
    fn click_action(&self, column: u16, row: u16) -> Option<Action> {
        let on_help =
            matches!(self.mode, Mode::Help(_)) && crate::tui::view::help_covers(self, column, row);
        let press = screen_layout(self.screen, self.board.flipped)
            .filter(|_| !on_help)
            .and_then(|layout| {
                FooterLayout::new(self, &layout, self.screen.bottom()).press_at(column, row)
            });
        match press {
            Some(key) => self.key_action(&key),
            None if matches!(self.mode, Mode::Help(_)) => Some(Action::ToggleHelp),
            None if self.mode == Mode::Board => Some(Action::Click { column, row }),
            // On the file's list of games: a click chooses a game, one on the game chosen
            // opens it, as on the other lists.
            None => match &self.mode {
                Mode::Games(list) => {
                    match crate::tui::view::game_list_click(self, list, column, row)? {
                        Clicked::Open(_) => Some(Action::OpenChosenGame),
                        Clicked::Choose(line) => Some(Action::ChooseGameAt(line)),
                    }
                }
                _ => None,
            },
        }
    }

    fn key_action(&self, key: &KeyEvent) -> Option<Action> {
        if key.kind != KeyEventKind::Press {
            return None;
        }
        if let Some(action) = keymap::global_action(key) {
            return Some(action);
        }
        // Nothing of the game is on a screen too small to draw it: only quitting acts
        // (the game is kept), so no key changes what cannot be seen.
        if screen_layout(self.screen, self.board.flipped).is_none() {
            return (keymap::plain_code(key) == KeyCode::Char('q')).then_some(Action::Quit);
        }
        // A letter's command is followed by a digit: the two are a square, as in c3-d4,
        // when a piece of the side to move stands there to start a move (so that `a`
        // and then 11-15 still toggles the coordinates and types 11-15).
        let pos = self.position();
        if let (Some(pressed), KeyCode::Char(digit)) = (&self.letter, keymap::plain_code(key))
            && let Ok(square) = format!("{}{digit}", pressed.letter).parse::<Square>()
            && pos.piece_at(square).is_some_and(|p| p.color == pos.turn())
        {
            return Some(Action::TypeSquare {
                letter: pressed.letter,
                digit,
            });
        }
        match &self.mode {
            // A help longer than its box scrolls; any other key closes it.
            Mode::Help(_) => Some(match key.code {
                KeyCode::PageDown | KeyCode::Down if crate::tui::view::help_scrolls(self) => {
                    Action::ScrollHelp(true)
                }
                KeyCode::PageUp | KeyCode::Up if crate::tui::view::help_scrolls(self) => {
                    Action::ScrollHelp(false)
                }
                _ => Action::ToggleHelp,
            }),
            Mode::Games(_) => games::list_action(key),
            Mode::Save(dialog) if dialog.exists.is_some() => save_dialog::existing_file_action(key),
            Mode::Save(_) => save_dialog::dialog_action(key),
            Mode::Asking(question) => question::question_action(*question, key),
            // A refused move hands the keys back: only a new move or an edit stays in
            // the prompt.
            Mode::Prompt(_) if self.status.prompt_selected && prompt::hands_back(key) => {
                self.board_action(key)
            }
            Mode::Prompt(_) => prompt::prompt_action(key),
            Mode::Chat(_) => table::chat_action(key),
            Mode::Editor(editor) => editor::editor_action(key, editor.fen.is_some()),
            Mode::Report => report::report_action(key),
            // A key that does nothing on the board says so; a dialog's own line says
            // which keys it takes.
            Mode::Board => self
                .board_action(key)
                .or_else(|| keymap::key_name(key).map(|_| Action::Unbound(*key))),
        }
    }

    fn board_action(&self, key: &KeyEvent) -> Option<Action> {
        keymap::board_action(
            key,
            BoardState {
                reviewing: self.session().is_reviewing(),
                picking: self.board.pick.is_some(),
                match_waits: self.session().match_waits(),
            },
        )
    }

    /// The digit typed just after Esc, when the two came as one key with Alt: tmux (its
    /// `escape-time`, half a second before 3.5) and screen send Esc and a key typed soon
    /// after it so. On the board and in the move prompt, where Esc then a digit is how a
    /// move is typed again, they are taken as the two keys they were: the digit was lost,
    /// and a `-` after it lowered the computer's level instead of going into the move.
    /// (Alt with a letter stays no command: a letter is not how a move starts.)
    fn esc_then_key(&self, event: &Event) -> Option<KeyEvent> {
        let Event::Key(key) = event else {
            return None;
        };
        let typed = key.kind == KeyEventKind::Press
            && key.modifiers == KeyModifiers::ALT
            && matches!(key.code, KeyCode::Char(c) if c.is_ascii_digit())
            && matches!(self.mode, Mode::Board | Mode::Prompt(_));
        typed.then_some(KeyEvent {
            modifiers: KeyModifiers::NONE,
            ..*key
        })
    }

    /// Handles a terminal event: maps it to an action and applies it. Returns what the
    /// event loop is to do, or `None` when nothing happened (nothing to redraw).
    pub(crate) fn handle_event(&mut self, event: &Event) -> Option<Flow> {
        if let Some(key) = self.esc_then_key(event) {
            let esc = Event::Key(KeyEvent::new(KeyCode::Esc, KeyModifiers::NONE));
            let first = self.handle_event(&esc);
            return self.handle_event(&Event::Key(key)).or(first);
        }
        let action = self.action_for(event);
        let pressed = self.letter.take();
        let action = action?;
        if let (Action::TypeSquare { .. }, Some(pressed)) = (action, pressed) {
            // The letter's command is undone: it was the start of a square.
            (self.board, self.status, self.mode) = pressed.before;
        }
        let letter = match event {
            Event::Key(key) if matches!(self.mode, Mode::Board | Mode::Prompt(_)) => {
                keymap::file_letter(key)
            }
            _ => None,
        };
        let pressed = letter.map(|letter| LetterPressed {
            letter,
            before: (self.board.clone(), self.status.clone(), self.mode.clone()),
        });
        let before = (self.session().revision(), self.session().seats());
        let flow = self.update(action);
        // Only a command that changed nothing of the game can be undone so; one that
        // opened the prompt has typed the letter already, and in the list of games a
        // digit filters.
        let unchanged = before == (self.session().revision(), self.session().seats());
        if unchanged && matches!(self.mode, Mode::Board | Mode::Asking(_)) {
            self.letter = pressed;
        }
        Some(flow)
    }

    /// A character typed into the line open: the games' filter, the prompt (a refused
    /// move, shown selected, is replaced), the save dialog's field, the chat line.
    pub(super) fn type_char(&mut self, c: char) {
        match &mut self.mode {
            Mode::Games(list) => list.type_char(c),
            Mode::Prompt(text) if std::mem::take(&mut self.status.prompt_selected) => {
                *text = c.to_string();
            }
            Mode::Prompt(text) if text.chars().count() < prompt::PROMPT_MAX_CHARS => text.push(c),
            Mode::Save(dialog) => {
                dialog.focused_mut().edit(&Action::Type(c));
            }
            // Said rather than dropped silently: what is typed past the limit is lost.
            Mode::Chat(field) if field.is_full() => {
                let most = field.max_chars();
                self.status.info(format!(
                    "The line is at its limit, {most} characters: Enter says it, Backspace \
                     erases"
                ));
            }
            Mode::Chat(field) => {
                field.edit(&Action::Type(c));
            }
            _ => {}
        }
    }

    /// Backspace in the line open.
    pub(super) fn erase(&mut self) {
        match &mut self.mode {
            Mode::Games(list) => list.erase(),
            Mode::Prompt(text) => {
                self.status.prompt_selected = false;
                crate::text::pop_grapheme(text);
            }
            Mode::Save(dialog) => {
                dialog.focused_mut().edit(&Action::Erase);
            }
            Mode::Chat(field) => {
                field.edit(&Action::Erase);
            }
            _ => {}
        }
    }
}
