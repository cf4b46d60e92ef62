//! What is drawn over the board: the help, the list of a file's games, the save dialog.

use super::*;
use crate::tui::choice::Clicked;

/// A key map label in full, with the theme's glyphs: "←↓↑→ hjkl".
fn full_key_label(theme: &Theme, label: &str) -> String {
    label
        .replace("{arrows}", theme.glyphs.arrows)
        .replace("{steps}", theme.glyphs.steps)
}

/// A piece as the board draws it on squares of `cell` (columns, rows), for the help's
/// legend: drawn by the board's own code on a dark square, so that the legend's piece
/// looks as the board's does, its colour included: the disc's middle row (`███` in
/// Black's colour, `♚♚♚` in reverse at 80x24, where a king is crowns across; `█♚♚♚█`
/// on the larger squares, where its crowns sit inside the disc), kept to its ends and
/// middle three cells on the largest ones; a square one row high shows the board's
/// one-cell glyph. Plain text in the terminal's own colour showed a light block for
/// Black on a dark terminal, and no letter without colour.
fn legend_piece(theme: &Theme, color: Color, king: bool, cell: (u16, u16)) -> Vec<Span<'static>> {
    let role = if king { Role::King } else { Role::Man };
    let piece = Piece { color, role };
    let (width, height) = (cell.0.max(3), cell.1);
    if height <= 1 {
        let style = theme.dark_square.patch(super::piece_style(theme, color));
        return vec![Span::styled(super::piece_glyph(theme, piece), style)];
    }
    // As `render_cell` places the disc: below the number row, two columns narrower.
    let square = Rect::new(0, 0, width, height);
    let rows = height - 1;
    let mut buf = Buffer::empty(square);
    board::render_disc(theme, piece, square, 1, rows, theme.dark_square, &mut buf);
    let disc = width - 2;
    let middle = 1 + rows / 2;
    let span = |x: u16| {
        let cell = &buf[(1 + x, middle)];
        Span::styled(cell.symbol().to_string(), cell.style())
    };
    if disc <= 5 {
        return (0..disc).map(span).collect();
    }
    let centre = disc / 2;
    [0, centre - 1, centre, centre + 1, disc - 1]
        .into_iter()
        .map(span)
        .collect()
}

/// The help box on a screen of `area` and the help's lines in it: at most 80 wide, as
/// tall as the help where there is room (its border tells how it closes, so it may
/// cover the footer), centred.
fn help_box(app: &App, area: Rect) -> (Rect, Vec<Line<'static>>) {
    let width = area.width.min(80);
    let table = app.runtime().table();
    let at_server = table.is_some_and(|t| t.at_server);
    let quits = match (app.from_home, table.is_some()) {
        (false, false) => keymap::Quits::Program,
        (false, true) => keymap::Quits::Table,
        (true, false) => keymap::Quits::ToHome,
        (true, true) => keymap::Quits::TableToHome,
    };
    let text = help_text(
        &app.theme,
        usize::from(width.saturating_sub(2)),
        at_server,
        quits,
        app.session().assist(),
        false,
        board_cell(area),
    );
    let height = u16::try_from(text.len() + 2)
        .unwrap_or(u16::MAX)
        .min(area.height);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (area.height - height) / 2,
        width,
        height,
    };
    (rect, text)
}

/// Words in their styles as lines of at most `width` characters, `gap` between two on a
/// line (a word longer than a line has one of its own).
fn flowed(words: &[(String, Style)], gap: &str, width: usize) -> Vec<Line<'static>> {
    let words: Vec<Vec<Span<'static>>> = words
        .iter()
        .map(|(word, style)| vec![Span::styled(word.clone(), *style)])
        .collect();
    flowed_spans(&words, gap, width)
}

/// `words`, each of one or more spans (a piece drawn in its colours and its name), in
/// lines at most `width` columns wide, `gap` between words on a line.
fn flowed_spans(words: &[Vec<Span<'static>>], gap: &str, width: usize) -> Vec<Line<'static>> {
    let mut lines = Vec::new();
    let mut line: Vec<Span<'static>> = Vec::new();
    let mut taken = 0;
    for word in words {
        let len: usize = word.iter().map(|span| span.content.chars().count()).sum();
        if taken > 0 && taken + gap.len() + len > width {
            lines.push(Line::from(std::mem::take(&mut line)));
            taken = 0;
        }
        if taken > 0 {
            line.push(Span::raw(gap.to_string()));
            taken += gap.len();
        }
        line.extend(word.iter().cloned());
        taken += len;
    }
    if !line.is_empty() {
        lines.push(Line::from(line));
    }
    lines
}

/// The words of `text`, each in `style`.
fn words_of(text: &str, style: Style) -> Vec<(String, Style)> {
    text.split_whitespace()
        .map(|w| (w.to_string(), style))
        .collect()
}

/// How to play, for someone who has never played: the squares and their numbers, how
/// a piece is moved here, the men's steps, capturing and that it is compulsory, how a
/// man is crowned and what a king may do, how the game is won and drawn.
const HOW_TO_PLAY: &str = "Black and White take turns, Black first. The pieces stand on \
    the dark squares, numbered 1 to 32 so that moves can be written: 11-15 steps from 11 \
    to 15, 15x22 jumps. Click one of your pieces (or Enter on it), then the square to \
    land on. A man steps one square diagonally forward, onto an empty square. To \
    capture, jump over an enemy piece next to yours onto the empty square just beyond \
    it: the piece jumped is taken off. Jumping is compulsory: when one of your pieces \
    can jump, you must jump, and keep jumping with that piece while it can (any route). \
    A man that reaches the far row is crowned king, and a king steps and jumps backward \
    too; crowning ends the move. You win when the other side cannot move: all its \
    pieces taken or blocked. A draw is agreed (d offers one), or claimed (c) at a \
    position's third repetition or after 40 moves each with no capture and no man moved.";

/// The rules in short, as a game's help ends: it fits 80x24 whole with every key.
const RULES_IN_SHORT: &str = "men step one square diagonally forward, kings any way; a man \
    on the far row is crowned king. Captures are compulsory: jump to the empty square \
    beyond and keep jumping (any route); men capture forward only; crowning ends the \
    move. No legal move loses. Draw claims: a third repetition, or 40 quiet moves.";

/// The rules for someone who has never played, under their heading, flowed `width`
/// wide.
pub(crate) fn how_to_play_lines(theme: &Theme, width: usize) -> Vec<Line<'static>> {
    let mut rules = vec![
        ("How".to_string(), theme.heading),
        ("to".to_string(), theme.heading),
        ("play:".to_string(), theme.heading),
    ];
    rules.extend(words_of(HOW_TO_PLAY, Style::default()));
    flowed(&rules, " ", width.max(1))
}

/// The help's lines for a box `width` characters wide inside: every binding of the key
/// map (two a line where both fit; at a server's table only those it takes; at a LAN
/// table without the engine's help unless `assisted`; `q` said as it `quits`), the rules
/// (in full first where `rules_first`, for someone come to learn the game, see
/// [`how_to_play_lines`]; else in short after the keys) and the pieces, none wider than
/// the box, drawn as the board draws them on squares of `cell` (see [`board_cell`]).
pub(crate) fn help_text(
    theme: &Theme,
    width: usize,
    at_server: bool,
    quits: keymap::Quits,
    assisted: bool,
    rules_first: bool,
    cell: (u16, u16),
) -> Vec<Line<'static>> {
    let g = &theme.glyphs;
    let width = width.max(1);
    let listed: Vec<(&str, &str)> = if at_server {
        keymap::server_help_lines().collect()
    } else {
        keymap::help_lines(quits, assisted).collect()
    };
    let bindings: Vec<(String, &str)> = listed
        .into_iter()
        .map(|(label, help)| (full_key_label(theme, label), help))
        .collect();
    let cell_len = |(label, help): &(String, &str)| label.chars().count() + 1 + help.len();
    // The second column starts after the longest first binding where the longest
    // second one still fits after it, else as far right as that one allows.
    let firsts = bindings.iter().step_by(2).map(cell_len).max().unwrap_or(0);
    let seconds = bindings
        .iter()
        .skip(1)
        .step_by(2)
        .map(cell_len)
        .max()
        .unwrap_or(0);
    let column = (firsts + 2)
        .min(width.saturating_sub(seconds))
        .max(width / 2);
    // No "Keys" heading: the box is titled Help, and on a small screen every line counts.
    let mut text = Vec::new();
    if rules_first {
        text.extend(how_to_play_lines(theme, width));
        text.push(Line::raw(""));
        text.push(Line::styled("The keys:", theme.heading));
    }
    for pair in bindings.chunks(2) {
        // Two bindings share a line only where the second starts in its column: one
        // out of line reads as a misprint, so a pair that does not fit so takes two.
        let aligned =
            pair.len() == 2 && cell_len(&pair[0]) < column && column + cell_len(&pair[1]) <= width;
        if aligned {
            let mut spans = Vec::new();
            let pad = column - cell_len(&pair[0]);
            for (i, (label, help)) in pair.iter().enumerate() {
                spans.push(Span::styled(label.clone(), theme.key));
                let after = if i == 0 {
                    " ".repeat(pad)
                } else {
                    String::new()
                };
                spans.push(Span::raw(format!(" {help}{after}")));
            }
            text.push(Line::from(spans));
        } else {
            for (label, help) in pair {
                let mut words = vec![(label.clone(), theme.key)];
                words.extend(words_of(help, Style::default()));
                text.extend(flowed(&words, " ", width));
            }
        }
    }
    if !rules_first {
        let mut rules = vec![("Rules:".to_string(), theme.heading)];
        rules.extend(words_of(RULES_IN_SHORT, Style::default()));
        text.extend(flowed(&rules, " ", width));
    }
    // Pieces and marks on one line where it fits, else broken between two marks.
    // The mark of a piece that must jump in the panel's words ("must jump"); the men
    // apart from the kings, so that the line still fits 80 columns.
    let named = |mut chips: Vec<Span<'static>>, name: &str| {
        chips.push(Span::raw(format!(" {name}")));
        chips
    };
    let mark = |mark: String| vec![Span::raw(mark)];
    let mut kings = legend_piece(theme, Color::Black, true, cell);
    kings.push(Span::raw(" "));
    kings.extend(legend_piece(theme, Color::White, true, cell));
    let legend = [
        named(legend_piece(theme, Color::Black, false, cell), "Black"),
        named(legend_piece(theme, Color::White, false, cell), "White"),
        named(kings, "kings"),
        mark(format!("{} must jump", g.must_capture)),
        mark(format!("{} last", g.last_move)),
        mark(format!("{} land", g.target)),
        mark(format!("{} {} cursor", g.cursor.0, g.cursor.1)),
    ];
    text.extend(flowed_spans(&legend, "  ", width));
    text
}

/// The size of the board's squares (columns, rows) on a screen of `area`, as the
/// help's legend draws its pieces: those of 80x24 on a screen with no board.
pub(crate) fn board_cell(area: Rect) -> (u16, u16) {
    crate::tui::geometry::screen_layout(area, false).map_or((5, 2), |layout| {
        (layout.board.cell_width, layout.board.cell_height)
    })
}

/// The help's lines on the app's screen and how many of them its box shows.
fn help_size(app: &App) -> (usize, usize) {
    let (rect, text) = help_box(app, app.screen);
    (text.len(), usize::from(rect.height.saturating_sub(2)))
}

/// Whether the help is longer than its box on the app's screen, and so scrolls.
pub(crate) fn help_scrolls(app: &App) -> bool {
    let (lines, shown) = help_size(app);
    lines > shown
}

/// The help's first line shown after a page toward its end (`on`) or its start from
/// `top`: never past the line that shows its end.
pub(crate) fn help_scrolled(app: &App, top: u16, on: bool) -> u16 {
    let (lines, shown) = help_size(app);
    let last = u16::try_from(lines.saturating_sub(shown)).unwrap_or(u16::MAX);
    // A page keeps one line of the last one in view, so the reader keeps their place.
    let page = u16::try_from(shown.saturating_sub(1).max(1)).unwrap_or(1);
    if on {
        top.saturating_add(page).min(last)
    } else {
        top.min(last).saturating_sub(page)
    }
}

/// Whether the help's box (with the blank cell round it) covers `column`, `row` of
/// the app's screen: a click there is on the help, not on what it hides.
pub(crate) fn help_covers(app: &App, column: u16, row: u16) -> bool {
    let (rect, _) = help_box(app, app.screen);
    crate::tui::geometry::overlay_cleared(rect, app.screen, app.board.flipped)
        .contains(ratatui::layout::Position::new(column, row))
}

/// The help from its line `top`. Its border says how it closes and, where it does not
/// fit, which way there is more (`PgDn: more`, `PgUp: back`).
pub(super) fn render_help(app: &App, top: u16, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let (rect, text) = help_box(app, area);
    let shown = usize::from(rect.height.saturating_sub(2));
    let last = text.len().saturating_sub(shown);
    let top = usize::from(top).min(last);
    // The box may cover the footer's hint: its border says how to scroll and close.
    let way = match (top > 0, top < last) {
        (false, true) => "PgDn: more",
        (true, true) => "PgUp PgDn: more",
        (true, false) => "PgUp: back",
        (false, false) => "",
    };
    let close = if way.is_empty() {
        "any key closes".to_string()
    } else {
        format!("{way}  any other key closes")
    };
    let note = [close.as_str(), way]
        .into_iter()
        .find(|text| text.chars().count() + 4 <= usize::from(rect.width))
        .filter(|text| !text.is_empty())
        .map(|text| format!(" {text} "));
    Clear.render(
        crate::tui::geometry::overlay_cleared(rect, area, app.board.flipped),
        buf,
    );
    // At a server's table the help lists only the table's keys, and says so, as the
    // lobby's help does.
    let at_server = app.runtime().table().is_some_and(|t| t.at_server);
    let title = if at_server {
        " The table's keys "
    } else {
        " Help "
    };
    let mut block = Block::bordered()
        .border_set(theme.glyphs.border)
        .title(title)
        .title_style(theme.heading)
        .border_style(theme.heading);
    if let Some(note) = note {
        block = block.title_bottom(Line::styled(note, theme.key).right_aligned());
    }
    Paragraph::new(text.into_iter().skip(top).take(shown).collect::<Vec<_>>())
        .block(block)
        .render(rect, buf);
}

/// The box of the record file's games on the screen `area`, and how many games' rows
/// it has (below its filter line): drawn and clicked by it alike. It keeps above the
/// status rows, so that the news stays whole in view (a box over its first row left
/// only the end of a sentence under it).
fn game_list_box(area: Rect) -> (Rect, usize) {
    let footer_top = crate::tui::geometry::screen_layout(area, false)
        .map_or(area.bottom().saturating_sub(3), |layout| layout.status.y);
    let room = footer_top.saturating_sub(area.y);
    let width = area.width.min(100);
    let height = room.clamp(3.min(room), 30);
    let rect = Rect {
        x: area.x + (area.width - width) / 2,
        y: area.y + (room - height) / 2,
        width,
        height,
    };
    (rect, usize::from(height.saturating_sub(3)))
}

/// The game of the file's list (its place among the games listed) drawn at `column`,
/// `row` of the screen, with what a click on it does (see [`Clicked`]), if one is there.
pub(crate) fn game_list_click(
    app: &App,
    list: &GameList,
    column: u16,
    row: u16,
) -> Option<Clicked> {
    let (rect, rows) = game_list_box(app.screen);
    let inner = Block::bordered().inner(rect);
    if !inner.contains(ratatui::layout::Position::new(column, row)) {
        return None;
    }
    // The games come after the filter's line.
    let line = usize::from(row - inner.y).checked_sub(1)?;
    let count = app.listed_games().len();
    let clicked = crate::tui::choice::choice_at(list.selected, rows, count, line)?;
    Some(Clicked::on(clicked, list.selected))
}

/// The record file's games, filtered by what was typed, the chosen one marked.
pub(super) fn render_game_list(app: &App, list: &GameList, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let (rect, rows) = game_list_box(area);
    let width = rect.width;
    let games = app.listed_games();
    let total = app.session().file().map_or(0, |(f, _)| f.len());
    let ellipsis = theme.glyphs.ellipsis();
    // One row inside the box: the count, and as much of the filter's end (where typing
    // goes) as fits before it; the count gives way on a very narrow screen.
    let inside = usize::from(width.saturating_sub(2));
    let heading = "Filter: ";
    let mut count = format!("   {} of {total} games", games.len());
    let fixed = crate::text::columns(heading) + 1;
    if inside < fixed + crate::text::columns(&count) + 6 {
        count.clear();
    }
    let room = inside.saturating_sub(fixed + crate::text::columns(&count));
    let filter = crate::text::last_columns(&list.filter, room, ellipsis);
    let mut lines = vec![Line::from(vec![
        Span::styled(heading, theme.heading),
        Span::raw(filter),
        Span::styled(" ", theme.key),
        Span::raw(count),
    ])];
    // One row a game, cut to the box's inside less the marker's two cells, with `…`
    // where it is cut: clipped at the border, a long row gave no sign it went on.
    let width = usize::from(width.saturating_sub(4));
    let texts = games
        .iter()
        .map(|g| crate::text::one_row(&g.text, width, ellipsis));
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
        let value = if focused {
            dialog.field(field).spans(theme.key)
        } else {
            vec![Span::raw(crate::text::printable(
                &dialog.field(field).text,
                usize::MAX,
            ))]
        };
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
                .title(" Save the game record (PDN) ")
                .title_style(theme.heading)
                .border_style(theme.heading),
        )
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}
