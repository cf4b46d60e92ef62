//! The move prompt: a move typed in numbers (`11-15`, `15x22x29`, `8 11`, `1115`) or in
//! letters (`c3-d4`, begun by a file letter and a digit, or after `:`). A refused move
//! stays in the prompt with the reason, for editing; any key but a digit or an edit
//! then acts on the board.

use super::{Action, App, Mode};
use crate::runtime::Command;
use crate::session::News;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// Longest text the move prompt accepts (the longest legal move is far shorter).
pub(super) const PROMPT_MAX_CHARS: usize = 60;

/// The prompt's keys.
pub(super) fn prompt_action(key: &KeyEvent) -> Option<Action> {
    match key.code {
        KeyCode::Enter => Some(Action::Submit),
        KeyCode::Esc => Some(Action::CancelPrompt),
        KeyCode::Backspace => Some(Action::Erase),
        _ => crate::tui::field::typed_char(key).map(Action::Type),
    }
}

/// Whether `key`, pressed while a refused move is shown selected, goes back to the
/// board: every key but a digit (which starts a new move), Backspace (which edits the
/// refused one), Enter and Esc.
pub(super) fn hands_back(key: &KeyEvent) -> bool {
    !matches!(key.code, KeyCode::Enter | KeyCode::Esc | KeyCode::Backspace)
        && !matches!(key.code, KeyCode::Char(c) if c.is_ascii_digit())
}

impl App {
    pub(super) fn open_prompt(&mut self, first: Option<char>) {
        if let Some(outcome) = self.game().result() {
            self.status.error(format!(
                "The game is over ({outcome}). {}",
                self.after_the_end(outcome)
            ));
        } else if !self.refused_as_ended_at_server() {
            self.board.pick = None;
            self.status.prompt_selected = false;
            self.mode = Mode::Prompt(first.map(String::from).unwrap_or_default());
        }
    }

    /// Enter in the prompt: plays the move typed, or says why not and keeps the text.
    pub(super) fn submit(&mut self) {
        let Mode::Prompt(text) = &self.mode else {
            return;
        };
        let text = text.clone();
        let played = self.runtime.command(Command::PlayText(text));
        // A refused move stays for editing, selected: typing a new one replaces it.
        self.status.prompt_selected = played.is_err();
        if played.is_ok() {
            self.mode = Mode::Board;
        }
        let last = played.as_ref().ok().and_then(News::played_move);
        self.after_move(played, last);
    }
}
