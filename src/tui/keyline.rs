//! A key line ("u undo  s save  ? help  q quit", a question's "y yes  n no") as one
//! piece of data for drawing and for the mouse: each piece of its text keeps the key it
//! names, so that a click on an entry presses that key and does what the key does, and
//! what is drawn and what is clicked cannot drift apart.

use super::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Color, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Widget, Wrap};

/// A line of keys as drawn, each piece with the key a click on it presses.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeyLine {
    /// The line's text in order: each piece, and the key it stands for (none for the
    /// space between entries, a heading, or an entry that names no single key).
    pieces: Vec<(Span<'static>, Option<KeyEvent>)>,
}

impl KeyLine {
    /// The line of `keys` as the footers show them: each key in the theme's key style,
    /// then what it does, two spaces between entries ("u undo  q quit").
    pub(crate) fn of_keys(theme: &Theme, keys: &[(&str, &str)]) -> KeyLine {
        let mut line = KeyLine::default();
        for (i, (key, what)) in keys.iter().enumerate() {
            if i > 0 {
                line.push(Span::raw("  "), None);
            }
            line.push_entry(theme.key, key, &format!(" {what}"));
        }
        line
    }

    /// The key line of a line being typed: `heading`, the text `typed`, then `keys`
    /// (" Enter play  Esc cancel ").
    pub(crate) fn typing(
        theme: &Theme,
        heading: &'static str,
        typed: Vec<Span<'static>>,
        keys: &[(&str, &str)],
    ) -> KeyLine {
        let mut line = KeyLine::default();
        line.push(Span::styled(heading, theme.heading), None);
        for span in typed {
            line.push(span, None);
        }
        line.push(Span::raw("  "), None);
        for (key, what) in keys {
            line.push(Span::raw(" "), None);
            line.push_entry(theme.key, key, &format!(" {what} "));
        }
        line
    }

    /// Adds `span`, a click on which presses `press`.
    pub(crate) fn push(&mut self, span: Span<'static>, press: Option<KeyEvent>) {
        self.pieces.push((span, press));
    }

    /// Adds the entry `key` (drawn in `key_style`) and `words`: a click on it presses
    /// its key. An entry of two keys ("Home/End first/last", "← → step") presses the
    /// key clicked, and its words split the same way ("first" Home, "last" End); words
    /// that do not split say which of its keys they mean by none. An entry whose key is
    /// no single key ("←↓↑→ move", "0-9 type") presses nothing.
    pub(crate) fn push_entry(&mut self, key_style: Style, key: &str, words: &str) {
        let parts = key_parts(key);
        let presses: Vec<Option<KeyEvent>> =
            parts.iter().map(|(_, name)| press_named(name)).collect();
        if parts.len() < 2 {
            // One key (or none): the whole entry presses it.
            let press = presses.first().copied().flatten();
            self.push(Span::styled(key.to_string(), key_style), press);
            self.push(Span::raw(words.to_string()), press);
            return;
        }
        for ((text, _), press) in parts.iter().zip(&presses) {
            self.push(Span::styled(text.clone(), key_style), *press);
        }
        let split: Vec<&str> = words.split('/').collect();
        if split.len() == presses.iter().filter(|p| p.is_some()).count() {
            for (i, (text, press)) in split.iter().zip(presses.iter().flatten()).enumerate() {
                let text = if i == 0 {
                    text.to_string()
                } else {
                    format!("/{text}")
                };
                self.push(Span::raw(text), Some(*press));
            }
        } else {
            self.push(Span::raw(words.to_string()), None);
        }
    }

    /// The line as drawn.
    pub(crate) fn line(&self) -> Line<'static> {
        Line::from(
            self.pieces
                .iter()
                .map(|(span, _)| span.clone())
                .collect::<Vec<_>>(),
        )
    }

    /// The key a click on the line's piece number `span` (of its spans, as drawn)
    /// presses, if any.
    pub(crate) fn press_of(&self, span: usize) -> Option<KeyEvent> {
        self.pieces.get(span).and_then(|(_, press)| *press)
    }

    /// The key a click at `column`, `row` of the screen presses, the line being drawn
    /// unwrapped on the first row of `area`.
    pub(crate) fn press_in(&self, area: Rect, column: u16, row: u16) -> Option<KeyEvent> {
        let inside = column >= area.x && column < area.right() && area.height > 0;
        (inside && row == area.y)
            .then(|| self.press_at(column - area.x))
            .flatten()
    }

    /// The key a click at column `x` of the line's row `row` presses, the line being
    /// drawn wrapped in `width` columns (as a wrapped paragraph draws it).
    pub(crate) fn press_wrapped(&self, width: u16, x: u16, row: usize) -> Option<KeyEvent> {
        let height = u16::try_from(row + 1).ok()?;
        if x >= width {
            return None;
        }
        span_drawn_at(&self.line(), width, height, x, row).and_then(|span| self.press_of(span))
    }

    /// The key a click `column` columns from the line's start presses, if any.
    pub(crate) fn press_at(&self, column: u16) -> Option<KeyEvent> {
        let mut left = usize::from(column);
        for (span, press) in &self.pieces {
            let width = span.width();
            if left < width {
                return *press;
            }
            left -= width;
        }
        None
    }
}

/// Which piece (span) of `line`, drawn wrapped in `width` columns and `height` rows as
/// the screens draw their wrapped lines, is at column `x` of its row `row`: found by drawing
/// the line with each piece marked with its number, so that a click on a wrapped line
/// finds the piece under it.
pub(crate) fn span_drawn_at(
    line: &Line,
    width: u16,
    height: u16,
    x: u16,
    row: usize,
) -> Option<usize> {
    let marked = Line::from(
        line.spans
            .iter()
            .enumerate()
            .map(|(n, span)| {
                let n = u8::try_from(n).unwrap_or(u8::MAX);
                Span::styled(span.content.clone(), Style::new().fg(Color::Indexed(n)))
            })
            .collect::<Vec<_>>(),
    );
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    Paragraph::new(marked)
        .wrap(Wrap { trim: false })
        .render(area, &mut buf);
    let y = u16::try_from(row).ok()?;
    match buf.cell((x, y))?.fg {
        Color::Indexed(n) => Some(usize::from(n)),
        _ => None,
    }
}

/// The rows `line` takes wrapped in `width` columns: drawn as a wrapped paragraph draws it, so
/// that the count is the paragraph's own (its leading spaces, its wide characters, its
/// words longer than a row), and the rows that fit are known before the page is drawn.
pub(crate) fn line_rows(line: &Line, width: usize) -> usize {
    let width = u16::try_from(width.max(1)).unwrap_or(u16::MAX);
    // Room enough for any wrapping: a row holds at least half a row of the line's text.
    let columns = u16::try_from(line.width()).unwrap_or(u16::MAX);
    let height = (columns / width).saturating_add(1).saturating_mul(2);
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    Paragraph::new(line.clone())
        .wrap(Wrap { trim: false })
        .render(area, &mut buf);
    // A styled blank counts (a text cursor at the end of a field).
    let used = (0..height).rev().find(|&y| {
        (0..width).any(|x| {
            buf.cell((x, y))
                .is_some_and(|cell| *cell != ratatui::buffer::Cell::EMPTY)
        })
    });
    used.map_or(1, |y| usize::from(y) + 1)
}

/// The entries a narrow key line leaves out first, by what they do: how to move (the
/// board's help and first news teach it, and a click on the board moves), then redo,
/// then a review's jump to its first or last move (the arrows step there too); undo
/// and save, and a review's report and analysis board, which nothing else on the
/// screen offers, stay longer.
const FIRST_TO_GO: &[&str] = &["type", "move", "pick", "land", "redo", "first/last"];

/// `keys` cut to fit `width` columns: the ones before the last two (help and quit, or
/// leave, which always stay) go, rather than any being cut in half; those of
/// [`FIRST_TO_GO`] first, then the others from the end.
pub(crate) fn fit_keys<'a>(
    mut keys: Vec<(&'a str, &'a str)>,
    width: usize,
) -> Vec<(&'a str, &'a str)> {
    let length = |keys: &[(&str, &str)]| -> usize {
        keys.iter()
            .map(|(k, w)| k.chars().count() + 1 + w.chars().count())
            .sum::<usize>()
            + 2 * keys.len().saturating_sub(1)
    };
    while length(&keys) > width && keys.len() > 2 {
        let kept = keys.len() - 2;
        let first = FIRST_TO_GO
            .iter()
            .find_map(|what| keys[..kept].iter().position(|(_, w)| w == what));
        keys.remove(first.unwrap_or(kept - 1));
    }
    keys
}

/// The keys an entry's key text names, each as (text drawn, with its separator
/// before it; the key's name), in order: "Home/End" is Home and End, "← →" and "n N"
/// two keys each; "any key" (or "any other key") and anything else of one piece is one.
fn key_parts(key: &str) -> Vec<(String, &str)> {
    if key.starts_with("any ") {
        return vec![(key.to_string(), key)];
    }
    let separator = if key.contains('/') { '/' } else { ' ' };
    let mut parts = Vec::new();
    for (i, name) in key.split(separator).enumerate() {
        let text = if i == 0 {
            name.to_string()
        } else {
            format!("{separator}{name}")
        };
        parts.push((text, name));
    }
    parts
}

/// The key named `name` as a key line writes it ("u", "Esc", "Ctrl-U", "PgDn", "←"),
/// as pressed. "any key" is Enter, which every screen that names it takes as any key.
/// `None` for a name that is no single key ("←↓↑→", "0-9", "type").
pub(crate) fn press_named(name: &str) -> Option<KeyEvent> {
    let plain = |code| Some(KeyEvent::new(code, KeyModifiers::NONE));
    if let Some(letter) = name.strip_prefix("Ctrl-") {
        let mut chars = letter.chars();
        return match (chars.next(), chars.next()) {
            (Some(c), None) => Some(KeyEvent::new(
                KeyCode::Char(c.to_ascii_lowercase()),
                KeyModifiers::CONTROL,
            )),
            _ => None,
        };
    }
    let mut chars = name.chars();
    if let (Some(c), None) = (chars.next(), chars.clone().next()) {
        return match c {
            '←' => plain(KeyCode::Left),
            '→' => plain(KeyCode::Right),
            '↑' => plain(KeyCode::Up),
            '↓' => plain(KeyCode::Down),
            c if c.is_ascii_graphic() => plain(KeyCode::Char(c)),
            _ => None,
        };
    }
    match name {
        _ if name.starts_with("any ") => plain(KeyCode::Enter),
        "Esc" => plain(KeyCode::Esc),
        "Enter" => plain(KeyCode::Enter),
        "Tab" => plain(KeyCode::Tab),
        "Space" => plain(KeyCode::Char(' ')),
        "Backspace" => plain(KeyCode::Backspace),
        "PgDn" => plain(KeyCode::PageDown),
        "PgUp" => plain(KeyCode::PageUp),
        "Home" => plain(KeyCode::Home),
        "End" => plain(KeyCode::End),
        "Left" => plain(KeyCode::Left),
        "Right" => plain(KeyCode::Right),
        "Up" => plain(KeyCode::Up),
        "Down" => plain(KeyCode::Down),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(press: Option<KeyEvent>) -> Option<KeyCode> {
        press.map(|key| key.code)
    }

    #[test]
    fn a_click_on_an_entry_presses_its_key_and_a_gap_presses_none() {
        let theme = Theme::new(false, false);
        let line = KeyLine::of_keys(&theme, &[("u", "undo"), ("?", "help"), ("q", "quit")]);
        assert_eq!(line.line().to_string(), "u undo  ? help  q quit");
        assert_eq!(code(line.press_at(0)), Some(KeyCode::Char('u')));
        assert_eq!(code(line.press_at(5)), Some(KeyCode::Char('u')));
        assert_eq!(code(line.press_at(6)), None);
        assert_eq!(code(line.press_at(8)), Some(KeyCode::Char('?')));
        assert_eq!(code(line.press_at(21)), Some(KeyCode::Char('q')));
        assert_eq!(code(line.press_at(22)), None);
    }

    #[test]
    fn an_entry_of_two_keys_presses_the_one_clicked() {
        let theme = Theme::new(false, false);
        let line = KeyLine::of_keys(&theme, &[("Home/End", "first/last"), ("← →", "step")]);
        assert_eq!(line.line().to_string(), "Home/End first/last  ← → step");
        assert_eq!(code(line.press_at(0)), Some(KeyCode::Home));
        assert_eq!(code(line.press_at(5)), Some(KeyCode::End));
        assert_eq!(code(line.press_at(10)), Some(KeyCode::Home));
        assert_eq!(code(line.press_at(16)), Some(KeyCode::End));
        assert_eq!(code(line.press_at(21)), Some(KeyCode::Left));
        assert_eq!(code(line.press_at(23)), Some(KeyCode::Right));
        // "step" says neither way.
        assert_eq!(code(line.press_at(26)), None);
    }

    #[test]
    fn a_narrow_line_keeps_undo_and_save_before_how_to_move_and_always_help_and_quit() {
        let keys = vec![
            ("←↓↑→", "move"),
            ("Enter", "pick"),
            ("0-9", "type"),
            ("u", "undo"),
            ("U", "redo"),
            ("s", "save"),
            ("?", "help"),
            ("q", "quit"),
        ];
        let shown = |width| {
            let theme = Theme::new(false, false);
            KeyLine::of_keys(&theme, &fit_keys(keys.clone(), width))
                .line()
                .to_string()
        };
        assert_eq!(shown(30), "u undo  s save  ? help  q quit");
        assert_eq!(shown(24), "u undo  ? help  q quit");
        assert_eq!(shown(10), "? help  q quit");
        assert_eq!(
            shown(100),
            "←↓↑→ move  Enter pick  0-9 type  u undo  U redo  s save  ? help  q quit"
        );
    }

    #[test]
    fn names_that_are_no_single_key_press_nothing() {
        for name in ["←↓↑→", "0-9", "type", "arrows", "Ctrl-"] {
            assert_eq!(press_named(name), None, "{name}");
        }
        let ctrl_u = press_named("Ctrl-U").unwrap();
        assert_eq!(
            (ctrl_u.code, ctrl_u.modifiers),
            (KeyCode::Char('u'), KeyModifiers::CONTROL)
        );
        assert_eq!(code(press_named("any other key")), Some(KeyCode::Enter));
    }
}
