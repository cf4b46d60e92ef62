//! Drawing: `impl Widget for &App`. Reads the state, never changes it.

mod board;

use crate::engine::Level;
use crate::game::MovePair;
use crate::rules::{Color, Piece, Role};
use crate::tui::app::{App, GameList, Mode, Purpose, Question, SaveDialog, SaveField, Tone};
use crate::tui::geometry::{MIN_HEIGHT, MIN_WIDTH, ScreenLayout, screen_layout};
use crate::tui::keymap::{self, Footer};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

impl Widget for &App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let Some(layout) = screen_layout(area, self.flipped) else {
            // Short lines, so the size needed shows even on a very narrow screen.
            Paragraph::new(format!(
                "terminal too small:\nneed {MIN_WIDTH}x{MIN_HEIGHT}\nq quits (the game is kept)"
            ))
            .wrap(Wrap { trim: true })
            .render(area, buf);
            return;
        };
        board::render_board(self, &layout, buf);
        render_panel(self, layout.panel, buf);
        render_footer(self, &layout, buf);
        match &self.mode {
            Mode::Help => render_help(self, area, buf),
            Mode::Save(dialog) => render_save_dialog(self, dialog, area, buf),
            Mode::Games(list) => render_game_list(self, list, area, buf),
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

pub(super) fn piece_style(theme: &Theme, color: Color) -> Style {
    match color {
        Color::Black => theme.black_piece,
        Color::White => theme.white_piece,
    }
}

/// The panel's lines above the move list, its "Moves" heading last: what both drawing
/// and a click on the move list count from.
fn panel_head(app: &App, inner: Rect) -> Vec<Line<'static>> {
    let theme = &app.theme;
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
            if let Some(text) = app.thinking_text() {
                // A narrow panel gets the verdict on a line of its own.
                if text.chars().count() > usize::from(inner.width)
                    && let Some((thinking, verdict)) = text.split_once(" (")
                {
                    lines.push(Line::styled(thinking.to_string(), theme.question));
                    lines.push(Line::styled(
                        format!("  {}", verdict.trim_end_matches(')')),
                        theme.question,
                    ));
                } else {
                    lines.push(Line::styled(text, theme.question));
                }
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
        // A narrow panel gets the counts without the words, rather than cut short.
        let wide = inner.width >= 28;
        let (men_word, kings_word) = if wide {
            (
                format!(" {:<5} ", plural(men, "man", "men")),
                format!(" {}", plural(kings, "king", "kings")),
            )
        } else {
            ("  ".to_string(), String::new())
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:<6}", color.name()), theme.text),
            Span::styled(glyph(Role::Man), on_square),
            Span::raw(format!(" {men:>2}{men_word}")),
            Span::styled(glyph(Role::King), on_square),
            Span::raw(format!(" {kings:>2}{kings_word}")),
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
    // Endgame databases (issue 12): the exact result of a position they hold.
    if let Some(verdict) = app.session.database_verdict() {
        lines.push(Line::styled(format!("Database: {verdict}"), theme.question));
    }
    if let Some(review) = app.review() {
        lines.push(Line::styled(
            format!("Review: {}", app.session.review_place()),
            theme.question,
        ));
        if review.fault.is_some() {
            lines.push(Line::styled(
                "The record stops here: its next move is faulty",
                theme.error,
            ));
        }
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
    let scroll = if app.review().is_some() {
        0
    } else {
        app.list_scroll
    };
    lines.push(Line::styled(
        if scroll > 0 {
            "Moves (earlier; PgDn for the latest)"
        } else {
            "Moves"
        },
        theme.heading,
    ));
    lines
}

/// The panel block, without its inside.
fn panel_block(theme: &Theme) -> Block<'static> {
    Block::bordered()
        .border_set(theme.glyphs.border)
        .title(" Checkers ")
        .title_style(theme.heading)
        .border_style(theme.border)
}

fn render_panel(app: &App, area: Rect, buf: &mut Buffer) {
    // The compact layout has no panel.
    if area.is_empty() {
        return;
    }
    let theme = &app.theme;
    let g = &theme.glyphs;
    let block = panel_block(theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines = panel_head(app, inner);
    let scroll = if app.review().is_some() {
        0
    } else {
        app.list_scroll
    };
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
        // At least the first move stays in view, however far it is scrolled.
        let end = pairs.len() - scroll.min(pairs.len().saturating_sub(1));
        let shown = end.saturating_sub(room);
        for pair in &pairs[shown..end] {
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

/// The first pair of moves the review's move list shows in `room` lines: the move shown
/// is kept in the middle.
fn review_first_pair(app: &App, room: usize) -> usize {
    let (shown, total) = app.session.review_progress();
    let offset = usize::from(app.game().start().turn() == Color::White);
    let pairs = (total + offset).div_ceil(2);
    let current_pair = shown.checked_sub(1).map_or(0, |ply| (ply + offset) / 2);
    current_pair
        .saturating_sub(room / 2)
        .min(pairs.saturating_sub(room))
}

/// In review, the move of the move list at screen cell `column`, `row` of a screen of
/// `area`: the number of moves played up to and including it (what to step to), or
/// `None` where no move is drawn. Drawing and clicks count the lines the same way.
pub fn move_at(app: &App, area: Rect, column: u16, row: u16) -> Option<usize> {
    app.review()?;
    let layout = screen_layout(area, app.flipped)?;
    if layout.panel.is_empty() {
        return None;
    }
    let inner = panel_block(&app.theme).inner(layout.panel);
    if column < inner.x || column >= inner.right() {
        return None;
    }
    let header = panel_head(app, inner).len();
    let room = usize::from(inner.height).saturating_sub(header + 1);
    let line = usize::from(row.checked_sub(inner.y)?).checked_sub(header)?;
    if line >= room {
        return None;
    }
    let pair = review_first_pair(app, room) + line;
    // ">  1. 11-15    23-18": Black's move from column 6, White's from column 15.
    let half = usize::from(column - inner.x >= 15);
    let offset = usize::from(app.game().start().turn() == Color::White);
    let ply = (pair * 2 + half).checked_sub(offset)?;
    let (_, total) = app.session.review_progress();
    (ply < total).then_some(ply + 1)
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
    let first = review_first_pair(app, room);
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
    // Without a panel (the compact layout) the status line says whose move it is.
    let turn_note = (Tone::Info, compact_status(app));
    let message = match (&app.message, &app.mode) {
        (None, Mode::Save(_)) => Some(&dialog_note),
        (None, _) if layout.panel.is_empty() => Some(&turn_note),
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
        Mode::Prompt(text) if app.prompt_selected => Line::from(vec![
            Span::styled("Move: ", theme.heading),
            Span::styled(text.clone(), theme.selected),
            Span::raw("   type a new move, "),
            Span::styled("Backspace", theme.key),
            Span::raw(" edits  "),
            Span::styled("Esc", theme.key),
            Span::raw(" cancel"),
        ]),
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
        Mode::Games(_) => hint_line(
            theme,
            &[
                ("type", "filter"),
                (theme.glyphs.arrows, "choose"),
                ("Enter", "open"),
                ("Esc", "close"),
            ],
        ),
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
            hint_line(theme, &fit_keys(keys, usize::from(layout.hints.width)))
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

/// A piece as the board draws it on its smallest squares, for the help: `███`, `█♚█`.
fn small_disc(theme: &Theme, color: Color, king: bool) -> String {
    let g = &theme.glyphs;
    if g.disc_letters {
        let letter = match (color, king) {
            (Color::Black, false) => "b",
            (Color::Black, true) => "B",
            (Color::White, false) => "w",
            (Color::White, true) => "W",
        };
        let (open, close) = if king { ("{", "}") } else { ("(", ")") };
        return format!("{open}{letter}{close}");
    }
    let fill = match color {
        Color::Black => g.disc_black,
        Color::White if theme.colored => g.disc_white_colored,
        Color::White => g.disc_white,
    };
    let middle = match (color, king) {
        (_, false) => fill,
        (Color::Black, true) => g.black_king,
        (Color::White, true) => g.white_king,
    };
    format!("{fill}{middle}{fill}")
}

/// The state of the game in a few words, for a screen with no panel.
fn compact_status(app: &App) -> String {
    match app.game().result() {
        Some(outcome) => format!("{outcome}."),
        None => match app.thinking_text() {
            Some(text) => text,
            None => format!("{} to move", app.position().turn()),
        },
    }
}

/// `keys` cut to fit `width` columns: the ones before the last two (help and quit, which
/// always stay) go first, rather than any being cut in half.
fn fit_keys<'a>(mut keys: Vec<(&'a str, &'a str)>, width: usize) -> Vec<(&'a str, &'a str)> {
    let length = |keys: &[(&str, &str)]| -> usize {
        keys.iter()
            .map(|(k, w)| k.chars().count() + 1 + w.chars().count())
            .sum::<usize>()
            + 2 * keys.len().saturating_sub(1)
    };
    while length(&keys) > width && keys.len() > 2 {
        keys.remove(keys.len() - 3);
    }
    keys
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
        Line::from(vec![
            Span::styled("Rules: ", theme.heading),
            Span::raw("men step one square diagonally forward, kings any way."),
        ]),
        Line::raw("Captures are compulsory: jump to the empty square beyond and keep"),
        Line::raw("jumping (any route); men capture forward only; crowning ends the move."),
        Line::raw("No legal move loses. Draw claims: a third repetition, or 40 quiet moves."),
        Line::raw(format!(
            "Pieces: {} Black man  {} Black king  {} White man  {} White king",
            small_disc(theme, Color::Black, false),
            small_disc(theme, Color::Black, true),
            small_disc(theme, Color::White, false),
            small_disc(theme, Color::White, true),
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
                .border_set(theme.glyphs.border)
                .title(" Help ")
                .title_style(theme.heading)
                .border_style(theme.heading),
        )
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}

/// The record file's games, filtered by what was typed, the chosen one marked.
fn render_game_list(app: &App, list: &GameList, area: Rect, buf: &mut Buffer) {
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
    let total = app.session.file().map_or(0, |(f, _)| f.games.len());
    let rows = usize::from(height.saturating_sub(3));
    // Keep the chosen line in view.
    let first = list.selected.saturating_sub(rows.saturating_sub(1));
    let mut lines = vec![Line::from(vec![
        Span::styled("Filter: ", theme.heading),
        Span::raw(list.filter.clone()),
        Span::styled(" ", theme.key),
        Span::raw(format!("   {} of {total} games", games.len())),
    ])];
    for (i, game) in games.iter().enumerate().skip(first).take(rows) {
        let chosen = i == list.selected;
        let marker = if chosen { "> " } else { "  " };
        let style = if chosen { theme.cursor } else { theme.text };
        lines.push(Line::from(vec![
            Span::styled(marker, theme.question),
            Span::styled(game.text.clone(), style),
        ]));
    }
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
                .border_set(theme.glyphs.border)
                .title(" Save the game (PDN) ")
                .title_style(theme.heading)
                .border_style(theme.heading),
        )
        .wrap(Wrap { trim: false })
        .render(rect, buf);
}
