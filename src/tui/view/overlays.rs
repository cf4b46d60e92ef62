//! What is drawn over the board: the help, the list of a file's games, the save dialog.

use super::*;

/// A key map label in full, with the theme's glyphs: "←↓↑→ hjkl".
fn full_key_label(theme: &Theme, label: &str) -> String {
    label
        .replace("{arrows}", theme.glyphs.arrows)
        .replace("{steps}", theme.glyphs.steps)
}

/// A piece as the board draws it on its smallest squares, for the help: `███`, `█♚█`,
/// `(b)`, `{B}`.
fn small_disc(theme: &Theme, color: Color, king: bool) -> String {
    let role = if king { Role::King } else { Role::Man };
    let piece = Piece { color, role };
    let fill = disc_fill(theme, piece);
    match (theme.glyphs.disc_letters, king) {
        (true, false) => format!("({fill})"),
        (true, true) => format!("{{{fill}}}"),
        (false, false) => fill.repeat(3),
        (false, true) => format!("{fill}{}{fill}", piece_glyph(theme, piece)),
    }
}

pub(super) fn render_help(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let g = &theme.glyphs;
    // Centred over the board, leaving the bottom row for the "any key closes" hint.
    let room = area.height.saturating_sub(1);
    let width = area.width.min(80);
    let height = room.min(23);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (room - height) / 2,
        width,
        height,
    };
    // Two bindings a line, each in half the width.
    let column = usize::from(width.saturating_sub(2) / 2);
    let bindings: Vec<(String, &str)> = keymap::help_lines()
        .map(|(label, help)| (full_key_label(theme, label), help))
        .collect();
    // No "Keys" heading: the box is titled Help, and at the 70x23 minimum every line
    // counts.
    let mut text = Vec::new();
    for pair in bindings.chunks(2) {
        let mut spans = Vec::new();
        for (i, (label, help)) in pair.iter().enumerate() {
            let cell = format!("{label} {help}");
            let pad = if i == 0 {
                column.saturating_sub(cell.chars().count()).max(1)
            } else {
                0
            };
            spans.push(Span::styled(label.clone(), theme.key));
            spans.push(Span::raw(format!(" {help}{}", " ".repeat(pad))));
        }
        text.push(Line::from(spans));
    }
    text.extend([
        Line::from(vec![
            Span::styled("Rules: ", theme.heading),
            Span::raw("men step one square diagonally forward, kings any way."),
        ]),
        Line::raw("Captures are compulsory: jump to the empty square beyond and keep"),
        Line::raw("jumping (any route); men capture forward only; crowning ends the move."),
        Line::raw("No legal move loses. Draw claims: a third repetition, or 40 quiet moves."),
        // Pieces and marks on one line, so the help fits 80x24.
        Line::raw(format!(
            "{} {} Black  {} {} White (man, king)  {} jump  {} last  {} land  {} {} cursor",
            small_disc(theme, Color::Black, false),
            small_disc(theme, Color::Black, true),
            small_disc(theme, Color::White, false),
            small_disc(theme, Color::White, true),
            g.must_capture,
            g.last_move,
            g.target,
            g.cursor.0,
            g.cursor.1
        )),
    ]);
    // A blank cell round the box, so that its border does not run into the board's and
    // the panel's beside it ("┐┐").
    let x = rect.x.saturating_sub(1).max(area.x);
    let y = rect.y.saturating_sub(1).max(area.y);
    let margin = Rect {
        x,
        y,
        width: (rect.right() + 1).min(area.right()) - x,
        height: (rect.bottom() + 1).min(area.bottom()) - y,
    };
    Clear.render(margin, buf);
    Paragraph::new(text)
        .block(
            Block::bordered()
                .border_set(theme.glyphs.border)
                .title(" Help ")
                .title_style(theme.heading)
                .border_style(theme.heading),
        )
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}

/// The record file's games, filtered by what was typed, the chosen one marked.
pub(super) fn render_game_list(app: &App, list: &GameList, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let room = area.height.saturating_sub(3);
    let width = area.width.min(100);
    let height = room.clamp(3.min(room), 30);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (room - height) / 2,
        width,
        height,
    };
    let games = app.listed_games();
    let total = app.session().file().map_or(0, |(f, _)| f.len());
    let rows = usize::from(height.saturating_sub(3));
    let mut lines = vec![Line::from(vec![
        Span::styled("Filter: ", theme.heading),
        Span::raw(list.filter.clone()),
        Span::styled(" ", theme.key),
        Span::raw(format!("   {} of {total} games", games.len())),
    ])];
    let texts = games.iter().map(|g| g.text.clone());
    lines.extend(crate::tui::choice::choice_lines(
        theme,
        texts,
        list.selected,
        rows,
    ));
    if games.is_empty() {
        lines.push(Line::styled(
            "  No game matches: Backspace erases",
            theme.error,
        ));
    }
    Clear.render(rect, buf);
    Paragraph::new(lines)
        .block(
            Block::bordered()
                .border_set(theme.glyphs.border)
                .title(" Games of the file ")
                .title_style(theme.heading)
                .border_style(theme.heading),
        )
        .render(rect, buf);
}

pub(super) fn render_save_dialog(app: &App, dialog: &SaveDialog, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let width = area.width.min(76);
    let inner_width = usize::from(width.saturating_sub(2)).max(1);
    let field_line = |field: SaveField, label: &'static str| -> Vec<Line<'static>> {
        let focused = dialog.focus == field;
        let (marker, label_style) = if focused {
            ("> ", theme.heading.patch(theme.cursor))
        } else {
            ("  ", theme.heading)
        };
        let mut spans = vec![
            Span::styled(marker, theme.question),
            Span::styled(label, label_style),
            Span::raw(" "),
        ];
        // The focused field shows the text cursor as a highlighted cell.
        let text = dialog.field(field);
        let mut value = Vec::new();
        if focused {
            let at = text
                .char_indices()
                .nth(dialog.cursor)
                .map_or(text.len(), |(i, _)| i);
            let (before, rest) = text.split_at(at);
            let mut rest = rest.chars();
            let under = rest.next().map_or_else(|| " ".to_string(), String::from);
            value.push(Span::raw(before.to_string()));
            value.push(Span::styled(under, theme.key));
            value.push(Span::raw(rest.as_str().to_string()));
        } else {
            value.push(Span::raw(text.to_string()));
        }
        if field == SaveField::Path {
            // The path gets lines of its own, so it is shown in full however long.
            let mut path = vec![Span::raw("  ")];
            path.extend(value);
            return vec![Line::from(spans), Line::from(path)];
        }
        spans.extend(value);
        vec![Line::from(spans)]
    };
    let mut text: Vec<Line> = Vec::new();
    text.extend(field_line(SaveField::Path, "File:"));
    text.extend(field_line(SaveField::Black, "Black's name:"));
    text.extend(field_line(SaveField::White, "White's name:"));
    let rows: usize = text
        .iter()
        .map(|line| line.width().max(1).div_ceil(inner_width))
        .sum();
    let height = u16::try_from(rows + 2)
        .unwrap_or(u16::MAX)
        .min(area.height.saturating_sub(3));
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + area.height.saturating_sub(3).saturating_sub(height) / 2,
        width,
        height,
    };
    Clear.render(rect, buf);
    Paragraph::new(text)
        .block(
            Block::bordered()
                .border_set(theme.glyphs.border)
                .title(" Save the game (PDN) ")
                .title_style(theme.heading)
                .border_style(theme.heading),
        )
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}
