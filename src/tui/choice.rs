//! A list to choose from, drawn the same way wherever one is shown (the games to resume,
//! the games of a record file, the puzzles): as many lines as fit, the chosen one marked
//! `>` and kept in view, and a click on a line finds the item drawn there.

use super::theme::Theme;
use ratatui::text::{Line, Span};

/// The window of a list of `count` items drawn in `room` rows: the first item shown
/// and how many are, so that item `selected` shows, in the middle where it can. Every
/// list draws and takes clicks by it, so a click lands on the item drawn there.
pub(crate) fn window(selected: usize, room: usize, count: usize) -> (usize, usize) {
    let room = room.max(1);
    let top = selected
        .saturating_sub(room / 2)
        .min(count.saturating_sub(room));
    (top, room.min(count - top))
}

/// The item of a list drawn by [`window`] (as [`choice_lines`] draws it) on its `line`
/// (0 for the first row of items), if one is drawn there.
pub(crate) fn choice_at(selected: usize, room: usize, count: usize, line: usize) -> Option<usize> {
    let (top, shown) = window(selected, room, count);
    (line < shown).then_some(top + line)
}

/// What a click on item `clicked` of a list with item `selected` chosen does: the
/// chosen item opens (the second click of a double click), as Enter does; another is
/// chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Clicked {
    /// Open this item.
    Open(usize),
    /// Choose this item.
    Choose(usize),
}

impl Clicked {
    /// A click on item `clicked` of a list with item `selected` chosen.
    pub(crate) fn on(clicked: usize, selected: usize) -> Clicked {
        if clicked == selected {
            Clicked::Open(clicked)
        } else {
            Clicked::Choose(clicked)
        }
    }
}

/// The lines of `items` that fit in `room` rows ([`window`]), scrolled so item
/// `selected` shows, which is marked with `>` and the cursor's style.
pub(crate) fn choice_lines(
    theme: &Theme,
    items: impl IntoIterator<Item = String>,
    selected: usize,
    room: usize,
) -> Vec<Line<'static>> {
    let items: Vec<String> = items.into_iter().collect();
    let (top, shown) = window(selected, room, items.len());
    items
        .into_iter()
        .enumerate()
        .skip(top)
        .take(shown)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_window_keeps_the_chosen_item_in_view_and_a_click_finds_the_item_drawn() {
        // Ten items in four rows: the chosen one in the middle where it can be.
        assert_eq!(window(0, 4, 10), (0, 4));
        assert_eq!(window(5, 4, 10), (3, 4));
        assert_eq!(window(9, 4, 10), (6, 4));
        assert_eq!(window(1, 4, 2), (0, 2));
        assert_eq!(choice_at(5, 4, 10, 0), Some(3));
        assert_eq!(choice_at(5, 4, 10, 3), Some(6));
        assert_eq!(choice_at(5, 4, 10, 4), None);
        assert_eq!(choice_at(0, 4, 2, 2), None);
        assert_eq!(Clicked::on(3, 3), Clicked::Open(3));
        assert_eq!(Clicked::on(2, 3), Clicked::Choose(2));
    }
}
