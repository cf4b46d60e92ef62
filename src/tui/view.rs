//! Drawing: `impl Widget for &App`. Reads the state, never changes it.

use super::app::{App, Mode, Purpose, Question, SaveDialog, SaveField, Tone};
use super::geometry::{BoardGeometry, MIN_HEIGHT, MIN_WIDTH, ScreenLayout, screen_layout};
use super::keymap::{self, Footer};
use super::theme::Theme;
use crate::engine::Level;
use crate::game::MovePair;
use crate::rules::{Color, Piece, Role, Square};
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Some(layout) = screen_layout(area, self.flipped) else {
            Paragraph::new(format!("terminal too small: need {MIN_WIDTH}x{MIN_HEIGHT}"))
                .wrap(Wrap { trim: true })
                .render(area, buf);
            return;
        };
        render_board(self, &layout, buf);
        render_panel(self, layout.panel, buf);
        render_footer(self, &layout, buf);
        match &self.mode {
            Mode::Help => render_help(self, area, buf),
            Mode::Save(dialog) => render_save_dialog(self, dialog, area, buf),
            _ => {}
        }
    }
}

/// The glyph for a piece.
pub fn piece_glyph(theme: &Theme, piece: Piece) -> &'static str {
    let g = &theme.glyphs;
    match (piece.color, piece.role) {
        (Color::Black, Role::Man) => g.black_man,
        (Color::Black, Role::King) => g.black_king,
        (Color::White, Role::Man) => g.white_man,
        (Color::White, Role::King) => g.white_king,
    }
}

fn piece_style(theme: &Theme, color: Color) -> Style {
    match color {
        Color::Black => theme.black_piece,
        Color::White => theme.white_piece,
    }
}

/// What the board marks on each square this frame.
struct Marks {
    cursor: (u8, u8),
    targets: Vec<Square>,
    selected: Vec<Square>,
    path: Vec<Square>,
    jumped: Vec<Square>,
    capturers: Vec<Square>,
    last_move: Vec<Square>,
    /// The hint's squares: where the piece stands, then where it lands.
    hint: Vec<Square>,
}

impl Marks {
    fn of(app: &App) -> Marks {
        let pos = app.position();
        let over = app.game().is_over();
        let (selected, path) = match &app.pick {
            Some(pick) => {
                let mut selected = vec![pick.from];
                selected.extend(&pick.hops);
                (selected, pick.hops.clone())
            }
            None => (Vec::new(), Vec::new()),
        };
        Marks {
            cursor: app.cursor,
            targets: app.targets(),
            selected,
            path,
            jumped: app.jumped_so_far(),
            capturers: if over {
                Vec::new()
            } else {
                pos.capturers().into_iter().collect()
            },
            last_move: app
                .game()
                .moves()
                .last()
                .map(|m| m.squares())
                .unwrap_or_default(),
            hint: app.current_hint().map(|m| m.squares()).unwrap_or_default(),
        }
    }
}

fn render_board(app: &App, layout: &ScreenLayout, buf: &mut Buffer) {
    let theme = &app.theme;
    let board = &layout.board;
    let (top, bottom) = if board.flipped {
        ("Black", "White")
    } else {
        ("White", "Black")
    };
    Paragraph::new(top)
        .style(theme.heading)
        .alignment(Alignment::Center)
        .render(layout.top_label, buf);
    Paragraph::new(bottom)
        .style(theme.heading)
        .alignment(Alignment::Center)
        .render(layout.bottom_label, buf);
    Block::bordered()
        .border_style(theme.border)
        .render(board.frame, buf);
    let marks = Marks::of(app);
    for row in 0..8 {
        for col in 0..8 {
            render_cell(app, board, &marks, row, col, buf);
        }
    }
}

fn render_cell(
    app: &App,
    board: &BoardGeometry,
    marks: &Marks,
    row: u8,
    col: u8,
    buf: &mut Buffer,
) {
    let theme = &app.theme;
    let g = &theme.glyphs;
    let rect = board.cell_rect(row, col);
    let piece_row = rect.y + rect.height / 2;
    let center = rect.x + rect.width / 2;
    let is_cursor = marks.cursor == (row, col);
    let Some(sq) = Square::from_row_col(row, col) else {
        let mut style = theme.light_square;
        if is_cursor {
            style = style.patch(theme.cursor);
        }
        buf.set_style(rect, style);
        if !theme.colored {
            for y in rect.top()..rect.bottom() {
                for x in rect.left()..rect.right() {
                    buf.set_string(x, y, g.light_fill, style);
                }
            }
        }
        if is_cursor {
            render_cursor(theme, rect, piece_row, center, buf);
        }
        return;
    };
    let mut style = theme.dark_square;
    let hint_landing = marks.hint.get(1..).is_some_and(|rest| rest.contains(&sq));
    if marks.targets.contains(&sq) || hint_landing {
        style = style.patch(theme.target);
    }
    if marks.hint.first() == Some(&sq) {
        style = style.patch(theme.selected);
    }
    if marks.selected.contains(&sq) {
        style = style.patch(theme.selected);
    }
    if is_cursor {
        style = style.patch(theme.cursor);
    }
    buf.set_style(rect, style);
    let last = marks.last_move.contains(&sq);
    let number_style = if last {
        style.patch(theme.last_move)
    } else {
        style
    };
    buf.set_string(rect.x, rect.y, format!("{:>2}", sq.number()), number_style);
    let corner = if marks.jumped.contains(&sq) {
        Some((g.jumped, theme.alert))
    } else if marks.capturers.contains(&sq) {
        Some((g.must_capture, theme.alert))
    } else if last {
        Some((g.last_move, theme.last_move))
    } else {
        None
    };
    if let Some((mark, mark_style)) = corner {
        buf.set_string(rect.right() - 1, rect.y, mark, style.patch(mark_style));
    }
    let pos = app.position();
    if let Some(piece) = pos.piece_at(sq) {
        let glyph = piece_glyph(theme, piece);
        buf.set_string(
            center,
            piece_row,
            glyph,
            style.patch(piece_style(theme, piece.color)),
        );
    } else if marks.targets.contains(&sq) || hint_landing {
        buf.set_string(center, piece_row, g.target, style);
    } else if marks.path.contains(&sq) {
        buf.set_string(center, piece_row, g.path, style);
    }
    if is_cursor {
        render_cursor(theme, rect, piece_row, center, buf);
    }
}

fn render_cursor(theme: &Theme, rect: Rect, row: u16, center: u16, buf: &mut Buffer) {
    let (left, right) = theme.glyphs.cursor;
    let style = buf[(center, row)].style().patch(theme.cursor);
    buf.set_string(center.saturating_sub(2).max(rect.x), row, left, style);
    buf.set_string((center + 2).min(rect.right() - 1), row, right, style);
}

fn render_panel(app: &App, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let block = Block::bordered()
        .title(" Checkers ")
        .title_style(theme.heading)
        .border_style(theme.border);
    let inner = block.inner(area);
    block.render(area, buf);
    let pos = app.position();
    let g = &theme.glyphs;
    let mut lines: Vec<Line> = Vec::new();
    match app.game().result() {
        Some(outcome) => {
            lines.push(Line::styled("Game over", theme.question));
            lines.push(Line::styled(format!("{outcome}."), theme.question));
        }
        None => {
            let turn = pos.turn();
            let man = Piece {
                color: turn,
                role: Role::Man,
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{turn} to move "), theme.heading),
                Span::styled(
                    piece_glyph(theme, man),
                    theme.dark_square.patch(piece_style(theme, turn)),
                ),
            ]));
            if let Some(mut text) = app.thinking_text() {
                // A narrow panel gets the short form, so the depth stays in view.
                if text.chars().count() > usize::from(inner.width) {
                    text = text.replacen(" is thinking...", " thinks:", 1);
                }
                lines.push(Line::styled(text, theme.question));
            }
        }
    }
    if let Some(text) = players_text(app) {
        lines.push(Line::styled(text, theme.text));
    }
    for color in Color::ALL {
        let men = pos.pieces(color, Role::Man).count();
        let kings = pos.pieces(color, Role::King).count();
        let glyph = |role| piece_glyph(theme, Piece { color, role });
        let on_square = theme.dark_square.patch(piece_style(theme, color));
        lines.push(Line::from(vec![
            Span::styled(format!("{:<6}", color.name()), theme.text),
            Span::styled(glyph(Role::Man), on_square),
            Span::raw(format!(" {men:>2} {:<5} ", plural(men, "man", "men"))),
            Span::styled(glyph(Role::King), on_square),
            Span::raw(format!(" {kings:>2} {}", plural(kings, "king", "kings"))),
        ]));
    }
    if !app.game().is_over() {
        let capturers = pos.capturers();
        if !capturers.is_empty() {
            let squares: Vec<String> = capturers.into_iter().map(|s| s.to_string()).collect();
            lines.push(Line::styled(
                format!("Must capture ({}): {}", g.must_capture, squares.join(", ")),
                theme.alert,
            ));
        }
        if let Some(reason) = app.game().available_claim() {
            let why = match reason {
                crate::rules::DrawReason::Repetition => "repetition",
                crate::rules::DrawReason::FortyMoves => "40 moves",
                crate::rules::DrawReason::Agreement => "agreement",
            };
            lines.push(Line::styled(
                format!("Draw claim available ({why}): c"),
                theme.question,
            ));
        }
    }
    if let Some(review) = app.review() {
        let (shown, total) = app.session.review_progress();
        lines.push(Line::styled(
            format!("Review: turn {shown} of {total}"),
            theme.question,
        ));
        for tag in ["Event", "Black", "White", "Result"] {
            let value = review.tag(tag).unwrap_or("?");
            // 1-0 means Black won in checkers, unlike chess: say so.
            let meaning = match (tag, value) {
                ("Result", "1-0") => " (Black won)",
                ("Result", "0-1") => " (White won)",
                ("Result", "1/2-1/2") => " (draw)",
                _ => "",
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{tag:<7}"), theme.heading),
                Span::raw(format!("{value}{meaning}")),
            ]));
        }
    }
    lines.push(Line::styled("Moves", theme.heading));
    let header = lines.len();
    // The legend sits on the panel's last line.
    let legend = Line::styled(
        format!(
            "{} last  {} must jump  {} land",
            g.last_move, g.must_capture, g.target
        ),
        theme.border,
    );
    let room = usize::from(inner.height).saturating_sub(header + 1);
    if app.review().is_some() {
        review_move_lines(app, room, &mut lines);
    } else {
        let pairs = app.game().move_pairs();
        let shown = pairs.len().saturating_sub(room);
        for pair in &pairs[shown..] {
            lines.push(Line::raw(format!(
                "{:>3}. {:<9}{}",
                pair.number,
                pair.black.as_deref().unwrap_or("..."),
                pair.white.as_deref().unwrap_or("")
            )));
        }
    }
    if app.game().moves().is_empty() && app.review().is_none() && room > 0 {
        lines.push(Line::styled("  (none yet)", theme.border));
    }
    Paragraph::new(lines).render(inner, buf);
    if inner.height > 0 {
        let last_row = Rect {
            y: inner.bottom() - 1,
            height: 1,
            ..inner
        };
        Paragraph::new(legend).render(last_row, buf);
    }
}

/// The whole game under review in `room` lines, scrolled to keep the move shown on
/// screen; that move is marked with `>` and the cursor style.
fn review_move_lines(app: &App, room: usize, lines: &mut Vec<Line<'_>>) {
    let theme = &app.theme;
    let mut whole = app.game().clone();
    while whole.redo() {}
    let pairs: Vec<MovePair> = whole.move_pairs();
    let (shown, _) = app.session.review_progress();
    // Where the move shown sits: White's first move may be the first slot's second half.
    let offset = usize::from(app.game().start().turn() == Color::White);
    let current = shown.checked_sub(1).map(|ply| ply + offset);
    let current_pair = current.map_or(0, |slot| slot / 2);
    let first = current_pair
        .saturating_sub(room / 2)
        .min(pairs.len().saturating_sub(room));
    for (index, pair) in pairs.iter().enumerate().skip(first).take(room) {
        let marked = |half: usize| current == Some(index * 2 + half);
        let style = |half: usize| {
            if marked(half) {
                theme.cursor
            } else {
                Style::new()
            }
        };
        let black = pair.black.as_deref().unwrap_or("...");
        let white = pair.white.as_deref().unwrap_or("");
        let marker = if marked(0) || marked(1) { ">" } else { " " };
        lines.push(Line::from(vec![
            Span::styled(marker, theme.question),
            Span::raw(format!("{:>3}. ", pair.number)),
            Span::styled(black.to_string(), style(0)),
            Span::raw(" ".repeat(9usize.saturating_sub(black.chars().count()))),
            Span::styled(white.to_string(), style(1)),
        ]));
    }
}

/// Who the computer plays, when it plays: "Computer (level 5): White".
fn players_text(app: &App) -> Option<String> {
    let seats = app.session.seats();
    let cpu: Vec<(Color, Level)> = Color::ALL
        .into_iter()
        .filter_map(|c| seats.computer(c).map(|level| (c, level)))
        .collect();
    match cpu[..] {
        [] => None,
        [(color, level)] => Some(format!("Computer ({level}): {color}")),
        [(_, a), (_, b)] if a == b => Some(format!("Computer ({a}): both sides")),
        _ => Some(format!(
            "Computer: {}",
            cpu.iter()
                .map(|(c, l)| format!("{c} ({l})"))
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

fn plural(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// The save dialog's note on the status line.
const SAVE_NOTE: &str = "The game is written as PDN; missing folders are created. For an existing file you choose: add the game at its end, or replace the file.";

fn render_footer(app: &App, layout: &ScreenLayout, buf: &mut Buffer) {
    let theme = &app.theme;
    // In the save dialog, what a save does stays in view until there is news.
    let dialog_note = (Tone::Info, SAVE_NOTE.to_string());
    let message = match (&app.message, &app.mode) {
        (None, Mode::Save(_)) => Some(&dialog_note),
        (message, _) => message.as_ref(),
    };
    if let Some((tone, text)) = message {
        let style = match tone {
            Tone::Info => theme.text,
            Tone::Error => theme.error,
        };
        Paragraph::new(text.as_str())
            .style(style)
            .wrap(Wrap { trim: true })
            .render(layout.status, buf);
    }
    let line = match &app.mode {
        Mode::Prompt(text) => Line::from(vec![
            Span::styled("Move: ", theme.heading),
            Span::raw(text.clone()),
            Span::styled(" ", theme.key),
            Span::raw("   "),
            Span::styled("Enter", theme.key),
            Span::raw(" play  "),
            Span::styled("Esc", theme.key),
            Span::raw(" cancel  "),
            Span::styled("Backspace", theme.key),
            Span::raw(" erase"),
        ]),
        Mode::Asking(question) => {
            let text = match question {
                Question::Quit if app.autosave_failed => {
                    "Quit? The game is NOT saved (autosave failed; s saves it). y yes  n no"
                        .to_string()
                }
                Question::Quit => {
                    "Quit? The game is saved; checkers --resume continues it. y yes  n no"
                        .to_string()
                }
                Question::NewGame => {
                    "Abandon this game and start a new one? y yes  n no".to_string()
                }
                Question::Resign => "Who resigns? b Black  w White  Esc cancel".to_string(),
                Question::Draw(by) => format!("{by} offers a draw. {}, accept? y yes  n no", !*by),
            };
            Line::styled(text, theme.question)
        }
        Mode::Help => hint_line(theme, &[("any key", "closes help")]),
        Mode::Save(dialog) if dialog.exists.is_some() => {
            hint_line(theme, &[("a", "append"), ("r", "replace"), ("Esc", "back")])
        }
        Mode::Save(_) => hint_line(
            theme,
            &[
                ("Tab", "next field"),
                ("Enter", "save"),
                ("Esc", "cancel"),
                ("Ctrl-U", "clear field"),
                (theme.glyphs.steps, "edit"),
            ],
        ),
        Mode::Board => {
            let reviewing = app.review().is_some();
            let thinking = match app.wanted_search().map(|spec| spec.purpose) {
                Some(Purpose::Move(color)) => Some(color),
                _ => None,
            };
            let claim_open = app.game().available_claim().is_some();
            let keys = keymap::footer_keys(|place| match place {
                Footer::Review => reviewing,
                _ if reviewing => false,
                Footer::Thinking => thinking.is_some(),
                Footer::ThinkingFor(color) => thinking == Some(color),
                _ if thinking.is_some() => false,
                Footer::Play => true,
                Footer::PlayClaimOpen => claim_open,
                Footer::PlayNoClaim => !claim_open,
            });
            let keys: Vec<(&str, &str)> = keys
                .into_iter()
                .map(|(label, short)| (key_label(theme, label), short))
                .collect();
            hint_line(theme, &keys)
        }
    };
    line.render(layout.hints, buf);
}

/// A key map label with the theme's glyphs for `{arrows}` and `{steps}`; only the
/// first of several keys in the footer.
fn key_label(theme: &Theme, label: &'static str) -> &'static str {
    match label.split(' ').next().unwrap_or(label) {
        "{arrows}" => theme.glyphs.arrows,
        "{steps}" => theme.glyphs.steps,
        first => first,
    }
}

/// A key map label in full, with the theme's glyphs: "←↓↑→ hjkl".
fn full_key_label(theme: &Theme, label: &str) -> String {
    label
        .replace("{arrows}", theme.glyphs.arrows)
        .replace("{steps}", theme.glyphs.steps)
}

fn hint_line<'a>(theme: &Theme, keys: &[(&'a str, &'a str)]) -> Line<'a> {
    let mut spans = Vec::new();
    for (i, (key, what)) in keys.iter().enumerate() {
        if i > 0 {
            spans.push(Span::raw("  "));
        }
        spans.push(Span::styled(*key, theme.key));
        spans.push(Span::raw(format!(" {what}")));
    }
    Line::from(spans)
}

fn render_help(app: &App, area: Rect, buf: &mut Buffer) {
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
                column.saturating_sub(cell.chars().count())
            } else {
                0
            };
            spans.push(Span::styled(label.clone(), theme.key));
            spans.push(Span::raw(format!(" {help}{}", " ".repeat(pad))));
        }
        text.push(Line::from(spans));
    }
    text.extend([
        Line::styled("Rules (English draughts, WCDF)", theme.heading),
        Line::raw("Men step one square diagonally forward, kings one square any way."),
        Line::raw("Captures are compulsory: jump to the empty square beyond, and keep"),
        Line::raw("jumping; any route may be chosen. Men capture forward only."),
        Line::raw("Crowning ends the move. No legal move loses. Draw claims: a third"),
        Line::raw("repetition, or 40 moves each with no man moved and nothing captured."),
        Line::raw(format!(
            "Pieces: {} Black man  {} Black king  {} White man  {} White king",
            g.black_man, g.black_king, g.white_man, g.white_king
        )),
        Line::raw(format!(
            "Marks: {} must jump  {} last move  {} landing square  {} {} cursor",
            g.must_capture, g.last_move, g.target, g.cursor.0, g.cursor.1
        )),
    ]);
    Clear.render(rect, buf);
    Paragraph::new(text)
        .block(
            Block::bordered()
                .title(" Help ")
                .title_style(theme.heading)
                .border_style(theme.heading),
        )
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}

fn render_save_dialog(app: &App, dialog: &SaveDialog, area: Rect, buf: &mut Buffer) {
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
                .title(" Save the game (PDN) ")
                .title_style(theme.heading)
                .border_style(theme.heading),
        )
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}
