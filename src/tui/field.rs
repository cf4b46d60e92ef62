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
use unicode_segmentation::UnicodeSegmentation;

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
    /// Where typing goes: an index in the text's graphemes (the letters a reader sees,
    /// an accent with its letter), `0..=length`, so that the cursor never stands
    /// between a letter and its accent.
    pub(crate) cursor: usize,
    /// The most characters the field takes.
    max_chars: usize,
}

impl TextField {
    /// A field holding `text` (up to `max_chars` characters), the cursor at its end.
    pub(crate) fn new(text: impl Into<String>, max_chars: usize) -> TextField {
        let text = text.into();
        TextField {
            cursor: graphemes(&text),
            text,
            max_chars,
        }
    }

    /// Whether the field holds all the characters it takes (another typed is not
    /// taken).
    pub(crate) fn is_full(&self) -> bool {
        self.text.chars().count() >= self.max_chars
    }

    /// The most characters the field takes.
    pub(crate) fn max_chars(&self) -> usize {
        self.max_chars
    }

    /// Puts the text cursor at the end.
    pub(crate) fn cursor_to_end(&mut self) {
        self.cursor = graphemes(&self.text);
    }

    /// Whether the text cursor stands past the text's end.
    pub(crate) fn cursor_at_end(&self) -> bool {
        self.cursor >= graphemes(&self.text)
    }

    /// The byte offset of the text cursor (kept within the text).
    fn cursor_byte(&self) -> usize {
        self.text
            .grapheme_indices(true)
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
                    // An accent typed after its letter joins it: the cursor stays after
                    // the one letter they make.
                    self.cursor = graphemes(&self.text[..at + c.len_utf8()]);
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
                let length = graphemes(&self.text);
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

    /// Deletes the grapheme under the text cursor: a letter with its accents.
    fn erase_at(&mut self) {
        let at = self.cursor_byte();
        if let Some(letter) = self.text[at..].graphemes(true).next() {
            let end = at + letter.len();
            self.text.replace_range(at..end, "");
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
        let under = rest.graphemes(true).next().unwrap_or("");
        let after = &rest[under.len()..];
        vec![
            Span::raw(shown(before)),
            Span::styled(
                if under.is_empty() {
                    " ".to_string()
                } else {
                    shown(under)
                },
                cursor_style,
            ),
            Span::raw(shown(after)),
        ]
    }

    /// [`spans`](Self::spans) for a row of `columns` columns: a text too long for it is
    /// shown in part, the part that holds the text cursor, with `ellipsis` where text
    /// is cut off before or after. The part shown moves by half the row when the cursor
    /// would leave it, so what is being typed stays in view, and the text does not
    /// shift at every letter.
    pub(crate) fn spans_within(
        &self,
        cursor_style: Style,
        columns: usize,
        ellipsis: &str,
    ) -> Vec<Span<'static>> {
        let shown = |text: &str| crate::text::printable(text, usize::MAX);
        // Each letter as drawn and its columns; a blank cell after them for a cursor at
        // the end.
        let mut cells: Vec<(String, usize)> = self
            .text
            .graphemes(true)
            .map(|letter| {
                let drawn = shown(letter);
                let width = crate::text::columns(&drawn);
                (drawn, width)
            })
            .collect();
        let cursor = self.cursor.min(cells.len());
        if cursor == cells.len() {
            cells.push((" ".to_string(), 1));
        }
        let total: usize = cells.iter().map(|(_, width)| width).sum();
        let mark = crate::text::columns(ellipsis);
        // Room for a letter between the two marks at least; else drawn whole (and cut).
        let inner = columns.saturating_sub(2 * mark);
        if total <= columns || inner < 2 {
            return self.spans(cursor_style);
        }
        let at = |index: usize| -> usize { cells[..index].iter().map(|(_, width)| width).sum() };
        let cursor_end = at(cursor) + cells[cursor].1.max(1);
        // The first window starts the text (no mark before it); the next ones each start
        // half a window further on.
        let step = (inner / 2).max(1);
        let from = if cursor_end + mark <= columns {
            0
        } else {
            cursor_end.saturating_sub(inner).div_ceil(step) * step
        };
        let mut start = (0..cells.len()).find(|&i| at(i) >= from).unwrap_or(cursor);
        // A wide letter across the window's edge: the cursor stays in view.
        while start < cursor && cursor_end - at(start) > inner {
            start += 1;
        }
        let start = start.min(cursor);
        let left = if start > 0 { mark } else { 0 };
        let rest: usize = cells[start..].iter().map(|(_, width)| width).sum();
        let end = if left + rest <= columns {
            cells.len()
        } else {
            let room = columns.saturating_sub(left + mark);
            let mut used = 0;
            let mut end = start;
            while end < cells.len() && used + cells[end].1 <= room {
                used += cells[end].1;
                end += 1;
            }
            end.max(cursor + 1)
        };
        let join = |range: std::ops::Range<usize>| -> String {
            cells[range]
                .iter()
                .map(|(drawn, _)| drawn.as_str())
                .collect()
        };
        let mut spans = Vec::with_capacity(5);
        if start > 0 {
            spans.push(Span::raw(ellipsis.to_string()));
        }
        spans.push(Span::raw(join(start..cursor)));
        spans.push(Span::styled(cells[cursor].0.clone(), cursor_style));
        spans.push(Span::raw(join(cursor + 1..end)));
        if end < cells.len() {
            spans.push(Span::raw(ellipsis.to_string()));
        }
        spans
    }
}

/// How many graphemes (letters as a reader sees them, each with its accents) `text`
/// holds.
fn graphemes(text: &str) -> usize {
    text.graphemes(true).count()
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
    fn backspace_and_the_arrows_go_by_the_letters_a_reader_sees() {
        let press = |code| KeyEvent::new(code, KeyModifiers::NONE);
        // "José" with its é written as e and a combining acute accent (U+0301), as
        // macOS file names and some keyboards give it.
        let mut field = TextField::new("Jose\u{301}", 64);
        keys(&mut field, &[press(KeyCode::Backspace)]);
        assert_eq!(
            field.text, "Jos",
            "Backspace erases the accented letter whole"
        );
        // The accent typed after its letter joins it; Left steps over both, and the
        // cursor is drawn on the whole letter.
        let mut field = TextField::new("Jos", 64);
        keys(
            &mut field,
            &[
                press(KeyCode::Char('e')),
                press(KeyCode::Char('\u{301}')),
                press(KeyCode::Char('!')),
                press(KeyCode::Left),
                press(KeyCode::Left),
            ],
        );
        let drawn: Vec<String> = field
            .spans(Style::default())
            .iter()
            .map(|span| span.content.to_string())
            .collect();
        assert_eq!(drawn, ["Jos", "e\u{301}", "!"]);
        keys(&mut field, &[press(KeyCode::Delete)]);
        assert_eq!(
            field.text, "Jos!",
            "Delete erases the accented letter whole"
        );
        keys(
            &mut field,
            &[press(KeyCode::End), press(KeyCode::Backspace)],
        );
        assert_eq!(field.text, "Jos");
    }

    #[test]
    fn a_long_text_is_shown_where_its_cursor_is_in_the_columns_given() {
        let text: String = (0..120)
            .map(|i| char::from(b'a' + (i % 26) as u8))
            .collect();
        let mut field = TextField::new(text.clone(), 300);
        for at in (0..=120).rev() {
            field.cursor = at;
            let spans = field.spans_within(Style::default().reversed(), 30, "~");
            let row: String = spans.iter().map(|span| span.content.as_ref()).collect();
            assert!(crate::text::columns(&row) <= 30, "{at}: {row}");
            let under = text.get(at..=at).unwrap_or(" ");
            assert!(
                spans
                    .iter()
                    .any(|span| span.style == Style::default().reversed() && span.content == under),
                "the cursor at {at} is shown: {row}"
            );
        }
        // A short text is shown whole.
        let short = TextField::new("gg", 300).spans_within(Style::default(), 30, "~");
        let row: String = short.iter().map(|span| span.content.as_ref()).collect();
        assert_eq!(row, "gg ");
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
