//! A line of text typed in place: the save dialogs' fields (the game's and the analysis
//! board's), the home screen's file to open and its network forms' fields, the lobby's
//! seek clock and invite code. One set of keys edits them all (Ctrl-U clears, a
//! Ctrl-letter never types its letter, the side arrows, Home and End move the text
//! cursor) and one function draws them with their text cursor, so they cannot drift
//! apart.

use super::action::{Action, FieldMotion};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui::text::Span;

/// What `key` does to a text field: a character typed, Backspace and Delete, the side
/// arrows, Home and End move the text cursor, Ctrl-U clears; `None` for any other key,
/// a Ctrl-letter among them (it is a command, never text).
pub(crate) fn field_action(key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Char('u' | 'U') if ctrl => Some(Action::ClearField),
        KeyCode::Backspace => Some(Action::Erase),
        KeyCode::Delete => Some(Action::Delete),
        KeyCode::Left => Some(Action::MoveInField(FieldMotion::Left)),
        KeyCode::Right => Some(Action::MoveInField(FieldMotion::Right)),
        KeyCode::Home => Some(Action::MoveInField(FieldMotion::Home)),
        KeyCode::End => Some(Action::MoveInField(FieldMotion::End)),
        KeyCode::Char(c) if !ctrl && !c.is_control() => Some(Action::Type(c)),
        _ => None,
    }
}

/// A line of text being typed, and where typing goes in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TextField {
    /// The text as typed.
    pub(crate) text: String,
    /// Where typing goes: a character index, `0..=length`.
    pub(crate) cursor: usize,
    /// The most characters the field takes.
    max_chars: usize,
}

impl TextField {
    /// A field holding `text` (up to `max_chars` characters), the cursor at its end.
    pub(crate) fn new(text: impl Into<String>, max_chars: usize) -> TextField {
        let text = text.into();
        TextField {
            cursor: text.chars().count(),
            text,
            max_chars,
        }
    }

    /// Puts the text cursor at the end.
    pub(crate) fn cursor_to_end(&mut self) {
        self.cursor = self.text.chars().count();
    }

    /// The byte offset of the text cursor (kept within the text).
    fn cursor_byte(&self) -> usize {
        self.text
            .char_indices()
            .nth(self.cursor)
            .map_or(self.text.len(), |(i, _)| i)
    }

    /// Carries out an editing action of [`field_action`]; whether `action` was one.
    pub(crate) fn edit(&mut self, action: &Action) -> bool {
        match action {
            Action::Type(c) => {
                if self.text.chars().count() < self.max_chars {
                    let at = self.cursor_byte();
                    self.text.insert(at, *c);
                    self.cursor += 1;
                }
            }
            Action::Erase => {
                if self.cursor > 0 {
                    self.cursor -= 1;
                    self.erase_at();
                }
            }
            Action::Delete => self.erase_at(),
            Action::ClearField => {
                self.text.clear();
                self.cursor = 0;
            }
            Action::MoveInField(motion) => {
                let length = self.text.chars().count();
                self.cursor = match motion {
                    FieldMotion::Left => self.cursor.saturating_sub(1),
                    FieldMotion::Right => (self.cursor + 1).min(length),
                    FieldMotion::Home => 0,
                    FieldMotion::End => length,
                };
            }
            _ => return false,
        }
        true
    }

    /// Deletes the character under the text cursor.
    fn erase_at(&mut self) {
        let at = self.cursor_byte();
        if at < self.text.len() {
            self.text.remove(at);
        }
    }

    /// [`spans`](Self::spans) on a line drawn in `style` (a form's row under the
    /// cursor): the text in `style`, the cell under the text cursor in `cursor_style`
    /// over it.
    pub(crate) fn spans_in(&self, style: Style, cursor_style: Style) -> Vec<Span<'static>> {
        self.spans(cursor_style)
            .into_iter()
            .map(|span| {
                let own = span.style;
                span.style(style.patch(own))
            })
            .collect()
    }

    /// The text as drawn, the cell under the text cursor in `cursor_style` (a blank one
    /// past the end); characters that could drive the terminal are shown as `?`.
    pub(crate) fn spans(&self, cursor_style: Style) -> Vec<Span<'static>> {
        let shown = |text: &str| crate::text::printable(text, usize::MAX);
        let (before, rest) = self.text.split_at(self.cursor_byte());
        let mut rest = rest.chars();
        let under = rest.next().map_or_else(|| " ".to_string(), String::from);
        vec![
            Span::raw(shown(before)),
            Span::styled(shown(&under), cursor_style),
            Span::raw(shown(rest.as_str())),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEvent;

    /// Applies each key to `field` as the fields' owners do.
    fn keys(field: &mut TextField, keys: &[KeyEvent]) {
        for key in keys {
            if let Some(action) = field_action(key) {
                field.edit(&action);
            }
        }
    }

    #[test]
    fn ctrl_u_clears_and_no_ctrl_letter_types() {
        let mut field = TextField::new("/data/analysis-1.pdn", 64);
        let ctrl = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::CONTROL);
        let plain = |c| KeyEvent::new(KeyCode::Char(c), KeyModifiers::NONE);
        keys(&mut field, &[ctrl('a'), ctrl('e'), ctrl('w')]);
        assert_eq!(field.text, "/data/analysis-1.pdn");
        keys(&mut field, &[ctrl('u'), plain('x'), plain('y')]);
        assert_eq!(field.text, "xy");
        let home = KeyEvent::new(KeyCode::Home, KeyModifiers::NONE);
        let delete = KeyEvent::new(KeyCode::Delete, KeyModifiers::NONE);
        keys(&mut field, &[home, delete, plain('é'), plain('名')]);
        assert_eq!((field.text.as_str(), field.cursor), ("é名y", 2));
    }
}
