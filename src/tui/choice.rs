//! A list to choose from, drawn the same way wherever one is shown (the games to resume,
//! the games of a record file): as many lines as fit, the chosen one marked `>` and
//! kept in view.

use super::theme::Theme;
use ratatui::text::{Line, Span};

/// The lines of `items` that fit in `room` rows, scrolled so item `selected` shows,
/// which is marked with `>` and the cursor's style.
pub(crate) fn choice_lines(
    theme: &Theme,
    items: impl IntoIterator<Item = String>,
    selected: usize,
    room: usize,
) -> Vec<Line<'static>> {
    let room = room.max(1);
    let first = selected.saturating_sub(room - 1);
    items
        .into_iter()
        .enumerate()
        .skip(first)
        .take(room)
        .map(|(i, text)| {
            let chosen = i == selected;
            // The marker's style on the chosen line only: the colourless theme's is
            // reversed, which would mark every line.
            let (marker, marker_style, style) = if chosen {
                ("> ", theme.question, theme.cursor)
            } else {
                ("  ", theme.text, theme.text)
            };
            Line::from(vec![
                Span::styled(marker, marker_style),
                Span::styled(text, style),
            ])
        })
        .collect()
}
