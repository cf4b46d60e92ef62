//! A line of text typed in place: the save dialogs' fields (the game's and the analysis
//! board's), the home screen's file to open and its network forms' fields, the lobby's
//! seek clock and invite code. One set of keys edits them all (Ctrl-U clears, a
//! Ctrl- or Alt-letter never types its letter, the side arrows, Home and End move the
//! text cursor) and one function draws them with their text cursor, so they cannot drift
//! apart. The other lines typed in (the move prompt, the FEN, the games' filter) take
//! their characters through [`typed_char`] too.

use super::action::{Action, FieldMotion};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Style;
use ratatui::text::Span;

/// The character `key` types into a line of text, if it types one: pressed alone or
/// with Shift (part of the character), or with Ctrl and Alt together, which is how some
/// terminals send AltGr (`@` on a German keyboard). With Ctrl or Alt alone it is a
/// command, never text: Alt-x types no x.
pub(crate) fn typed_char(key: &KeyEvent) -> Option<char> {
    let held = key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT);
    let alt_gr = KeyModifiers::CONTROL | KeyModifiers::ALT;
    match key.code {
        KeyCode::Char(c) if !c.is_control() && (held.is_empty() || held == alt_gr) => Some(c),
        _ => None,
    }
}

/// What `key` does to a text field: a character typed ([`typed_char`]), Backspace and
/// Delete, the side arrows, Home and End move the text cursor, Ctrl-U clears; `None` for
/// any other key, a Ctrl- or Alt-letter among them (it is a command, never text).
pub(crate) fn field_action(key: &KeyEvent) -> Option<Action> {
    let ctrl_alone =
        key.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT) == KeyModifiers::CONTROL;
    if let Some(c) = typed_char(key) {
        return Some(Action::Type(c));
    }
    match key.code {
        KeyCode::Char('u' | 'U') if ctrl_alone => Some(Action::ClearField),
        KeyCode::Backspace => Some(Action::Erase),
        KeyCode::Delete => Some(Action::Delete),
        KeyCode::Left => Some(Action::MoveInField(FieldMotion::Left)),
        KeyCode::Right => Some(Action::MoveInField(FieldMotion::Right)),
        KeyCode::Home => Some(Action::MoveInField(FieldMotion::Home)),
        KeyCode::End => Some(Action::MoveInField(FieldMotion::End)),
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

    #[test]
    fn alt_letters_type_nothing_and_altgr_and_shift_type_their_character() {
        let mut field = TextField::new("", 64);
        let with = |c, modifiers| KeyEvent::new(KeyCode::Char(c), modifiers);
        let alt_gr = KeyModifiers::CONTROL | KeyModifiers::ALT;
        keys(
            &mut field,
            &[
                with('x', KeyModifiers::ALT),
                with('X', KeyModifiers::ALT | KeyModifiers::SHIFT),
                with('b', KeyModifiers::ALT),
                with('@', alt_gr),
                with('X', KeyModifiers::SHIFT),
                with('{', alt_gr | KeyModifiers::SHIFT),
            ],
        );
        assert_eq!(field.text, "@X{");
        // Alt-u is not Ctrl-U: it clears nothing.
        keys(&mut field, &[with('u', KeyModifiers::ALT)]);
        assert_eq!(field.text, "@X{");
    }
}
