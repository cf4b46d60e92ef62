//! Drawing: `impl Widget for &App`. Reads the state, never changes it.

mod big_digits;
pub(crate) mod board;
mod overlays;
mod panel;
mod report;

pub(crate) use overlays::{help_scrolled, help_scrolls, help_text};
use overlays::{render_game_list, render_help, render_save_dialog};
use panel::render_panel;
pub(crate) use panel::{labelled, move_at, wrapped};

use crate::engine::Level;
use crate::game::MovePair;
use crate::rules::{Color, Piece, Role};
use crate::tui::Action;
use crate::tui::app::{
    App, Editor, GameList, Mode, Purpose, Question, SaveDialog, SaveField, Tone,
};
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
        let Some(layout) = screen_layout(area, self.board.flipped) else {
            // Short lines, so the size needed shows even on a very narrow screen.
            Paragraph::new(format!(
                "terminal too small:\nneed {MIN_WIDTH}x{MIN_HEIGHT}\nq quits (the game is kept)"
            ))
            .wrap(Wrap { trim: true })
            .render(area, buf);
            return;
        };
        board::render_board(self, &layout, buf);
        // Across the network the clocks stop while a line is down: no break, the board
        // stays in view.
        if self.session().is_paused() && self.runtime().table().is_none() {
            // A break in a timed game: the position is not studied on the clock's pause,
            // nor a resumed game's before its player is back.
            let frame = layout.board.frame;
            Clear.render(frame, buf);
            let text = if self.session().clocks_held() {
                format!(
                    "\n\nGame resumed: {} to move\n\nany key starts the clocks",
                    self.position().turn()
                )
            } else {
                "\n\nPaused\n\np starts the clocks again".to_string()
            };
            Paragraph::new(text)
                .alignment(ratatui::layout::Alignment::Center)
                .block(Block::bordered())
                .render(frame, buf);
        }
        match (&self.mode, &self.report) {
            // Without a panel (the compact layout) the report takes the board's place.
            (Mode::Report, Some(view)) if layout.panel.is_empty() => {
                report::render_report(self, view, layout.board.frame, buf)
            }
            (Mode::Report, Some(view)) => report::render_report(self, view, layout.panel, buf),
            _ => render_panel(self, layout.panel, buf),
        }
        render_footer(self, &layout, buf);
        match &self.mode {
            Mode::Help(top) => render_help(self, *top, area, buf),
            Mode::Save(dialog) => render_save_dialog(self, dialog, area, buf),
            Mode::Games(list) => render_game_list(self, list, area, buf),
            _ => {}
        }
    }
}

/// What a disc is filled with: solid for Black, shaded for White (so the sides differ
/// by more than colour); in ASCII the piece's letter, a capital for a king.
fn disc_fill(theme: &Theme, piece: Piece) -> String {
    let g = &theme.glyphs;
    match piece.color {
        _ if g.disc_letters => piece.letter().to_string(),
        Color::Black => g.disc_black.to_string(),
        Color::White if theme.colored => g.disc_white_colored.to_string(),
        Color::White => g.disc_white.to_string(),
    }
}

/// The glyph for a piece.
pub(crate) fn piece_glyph(theme: &Theme, piece: Piece) -> &'static str {
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

/// The save dialog's note on the status line.
/// PDN is named with what it is: a beginner has not met the word.
const SAVE_NOTE: &str = "Saved as a game record (a PDN file) in a folder that exists; for an existing file you choose: add the game at its end, or replace the file.";

fn render_footer(app: &App, layout: &ScreenLayout, buf: &mut Buffer) {
    let theme = &app.theme;
    // In the save dialog, what a save does stays in view until there is news.
    let dialog_note = (Tone::Info, SAVE_NOTE.to_string());
    // Without a panel (the compact layout) the status line says whose move it is.
    let turn_note = (Tone::Info, compact_status(app));
    let message = match (&app.status.message, &app.mode) {
        (None, Mode::Save(_)) => Some(&dialog_note),
        (None, _) if layout.panel.is_empty() => Some(&turn_note),
        (message, _) => message.as_ref(),
    };
    // News longer than the status lines may take the key line below them too, on the
    // board (where the key line only lists keys); no sentence is cut in the middle.
    let mut status = layout.status;
    let mut keys_shown = true;
    // A question longer than the key line takes the status lines above it too, the
    // news keeping the rows left; where even the whole footer is too small for it, it
    // is asked in a box over the board. Every answer stays in view.
    let question = match app.mode {
        Mode::Asking(question) => {
            let asked = asked(app, question);
            let lines = asked.lines(usize::from(layout.hints.width));
            let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
            let footer_rows = layout.status.height + layout.hints.height;
            if rows <= layout.hints.height {
                Some((lines, layout.hints))
            } else if rows <= footer_rows {
                status.height = footer_rows - rows;
                let area = Rect {
                    y: status.y + status.height,
                    height: rows,
                    ..layout.status
                };
                Some((lines, area))
            } else {
                render_question_box(theme, &asked, layout.board.frame, buf);
                None
            }
        }
        _ => None,
    };
    if let Some((lines, area)) = question {
        let lines: Vec<Line> = lines.into_iter().map(Line::raw).collect();
        Paragraph::new(lines)
            .style(theme.question)
            .render(area, buf);
    }
    if let Some((tone, text)) = message.filter(|_| status.height > 0) {
        let style = match tone {
            Tone::Info => theme.text,
            Tone::Error => theme.error,
        };
        let ellipsis = if theme.glyphs.arrows.is_ascii() {
            "..."
        } else {
            "\u{2026}"
        };
        let width = usize::from(status.width);
        let fits = |rows: u16| fitted_lines(text, width, usize::from(rows), ellipsis);
        let mut lines = fits(status.height);
        let whole = fitted_lines(text, width, usize::MAX, ellipsis).len();
        if lines.len() < whole && matches!(app.mode, Mode::Board) && layout.hints.height > 0 {
            status.height += layout.hints.height;
            keys_shown = false;
            lines = fits(status.height);
        }
        let lines: Vec<Line> = lines.into_iter().map(Line::raw).collect();
        Paragraph::new(lines).style(style).render(status, buf);
    }
    if !keys_shown {
        return;
    }
    let line = match &app.mode {
        Mode::Prompt(text) if app.status.prompt_selected => Line::from(vec![
            Span::styled("Move: ", theme.heading),
            Span::styled(text.clone(), theme.selected),
            Span::raw("   type a new move or a key, "),
            Span::styled("Backspace", theme.key),
            Span::raw(" edits  "),
            Span::styled("Esc", theme.key),
            Span::raw(" cancel"),
        ]),
        Mode::Prompt(text) => typing_line(
            theme,
            "Move: ",
            text,
            &[("Enter", "play"), ("Esc", "cancel"), ("Backspace", "erase")],
        ),
        // Drawn above, on as many rows as it takes.
        Mode::Asking(_) => return,
        Mode::Help(_) if help_scrolls(app) => hint_line(
            theme,
            &[("PgDn PgUp", "scroll"), ("any other key", "closes help")],
        ),
        Mode::Help(_) => hint_line(theme, &[("any key", "closes help")]),
        Mode::Chat(field) => typing_spans(
            theme,
            "Say: ",
            field.spans(theme.key),
            &[("Enter", "send"), ("Esc", "cancel"), ("Ctrl-U", "clear")],
        ),
        Mode::Editor(Editor { fen: Some(fen), .. }) => typing_line(
            theme,
            "FEN: ",
            fen,
            &[("Enter", "take it"), ("Esc", "back")],
        ),
        // The side to move is in the panel's turn line: `t` changes it. `c` (empty) and
        // `s` (start) are in the first message, to keep this line within 80 columns.
        Mode::Editor(_) => hint_line(
            theme,
            &[
                ("b w", "man"),
                ("B W", "king"),
                ("Space", "clear"),
                ("t", "side"),
                ("f", "FEN"),
                ("Enter", "play"),
                ("Esc", "cancel"),
            ],
        ),
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
        Mode::Report => hint_line(
            theme,
            &fit_keys(
                vec![
                    (theme.glyphs.steps, "step"),
                    ("Home/End", "ends"),
                    ("n N", "next/prev mark"),
                    ("s", "save PDN"),
                    ("Esc", "back"),
                ],
                usize::from(layout.hints.width),
            ),
        ),
        // A resumed game held for its player: the first key starts the clocks.
        Mode::Board if app.session().clocks_held() => hint_line(
            theme,
            &[
                ("any key", "starts the clocks"),
                ("?", "help"),
                ("q", "quit"),
            ],
        ),
        // A break in a timed game: only p, help and quitting act (the board is hidden).
        Mode::Board if app.session().is_paused() && app.runtime().table().is_none() => hint_line(
            theme,
            &[("p", "starts the clocks"), ("?", "help"), ("q", "quit")],
        ),
        Mode::Board => {
            let reviewing = app.review().is_some();
            let thinking = match app.runtime().wanted_search().map(|spec| spec.purpose) {
                Some(Purpose::Move(color)) => Some(color),
                _ => None,
            };
            let claim_open = app.game().available_claim().is_some();
            let match_waits = app.session().match_waits();
            let match_over = app.session().match_over();
            let over = app.game().is_over();
            let flag_fell = app.session().flag_fell();
            let seat = app.runtime().table().map(|t| t.seat.clone());
            let watching = seat == Some(crate::runtime::Seat::Spectator);
            // A server's spectators talk at the table; a LAN host's do not.
            let at_server = app.runtime().table().is_some_and(|t| t.at_server);
            let keys = keymap::footer_keys(
                |place| match place {
                    Footer::Watching => watching,
                    Footer::Table if watching => at_server && !over,
                    _ if watching => false,
                    Footer::Table => seat.is_some() && !over,
                    Footer::Review => reviewing,
                    _ if reviewing => false,
                    Footer::NextGame => match_waits,
                    Footer::MatchOver => match_over,
                    // Between a match's games only what leads to the next one is shown.
                    _ if match_waits || match_over => false,
                    Footer::Thinking => thinking.is_some(),
                    Footer::ThinkingFor(color) => thinking == Some(color),
                    _ if thinking.is_some() => false,
                    Footer::Over => over,
                    _ if over => false,
                    Footer::Play => true,
                    Footer::PlayClaimOpen => claim_open,
                    Footer::PlayNoClaim => !claim_open,
                },
                // Across the network a redo is refused (an undo is asked of the other
                // player; a server takes no move back), so none is offered; after a flag
                // fall neither undo nor redo works.
                |action| match action {
                    Action::Undo => !flag_fell && !at_server,
                    Action::Redo => seat.is_none() && !flag_fell,
                    _ => true,
                },
            );
            let keys: Vec<(&str, &str)> = keys
                .into_iter()
                .map(|(label, short)| {
                    // At a server, n after the game offers the same game again.
                    let short = match short {
                        "new game" if at_server => "rematch",
                        short => short,
                    };
                    (key_label(theme, label), short)
                })
                .collect();
            hint_line(theme, &fit_keys(keys, usize::from(layout.hints.width)))
        }
    };
    line.render(layout.hints, buf);
}

/// A question as the footer asks it: its words, then its answers, each a key and what
/// it does ("y yes"), so that a narrow screen breaks it between answers, not inside one.
struct Asked {
    /// The question itself: "Quit? The game is saved; ...".
    words: String,
    /// The answers: (key, what it does).
    answers: Vec<(&'static str, String)>,
}

impl Asked {
    /// The question `words`, answered by `answers`: (key, what it does).
    fn new(words: impl Into<String>, answers: &[(&'static str, &str)]) -> Asked {
        Asked {
            words: words.into(),
            answers: answers.iter().map(|(k, w)| (*k, w.to_string())).collect(),
        }
    }

    /// Each answer as written: its key, then what it does ("y yes").
    fn answer_texts(&self) -> impl Iterator<Item = String> + '_ {
        self.answers
            .iter()
            .map(|(key, what)| format!("{key} {what}"))
    }

    /// The question on rows of `width` columns: broken between words, an answer kept
    /// whole on a row where it fits on one (two spaces between answers on a row).
    fn lines(&self, width: usize) -> Vec<String> {
        let width = width.max(1);
        let mut units: Vec<(&str, String)> = self
            .words
            .split_whitespace()
            .map(|word| (" ", word.to_string()))
            .collect();
        for (i, answer) in self.answer_texts().enumerate() {
            units.push((if i == 0 { " " } else { "  " }, answer));
        }
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        // Puts `unit` on the row, after `gap`, or begins the next row with it.
        let place = |lines: &mut Vec<String>, line: &mut String, gap: &str, unit: &str| {
            let taken = line.chars().count();
            let length = unit.chars().count();
            if taken > 0 && taken + gap.len() + length > width {
                lines.push(std::mem::take(line));
            } else if taken > 0 {
                line.push_str(gap);
            }
            line.extend(unit.chars().take(width));
        };
        for (gap, unit) in units {
            if unit.chars().count() <= width {
                place(&mut lines, &mut line, gap, &unit);
            } else {
                // An answer longer than a row: its words, one by one, from a row of
                // its own, so that its key begins a row.
                if !line.is_empty() {
                    lines.push(std::mem::take(&mut line));
                }
                for (i, word) in unit.split(' ').enumerate() {
                    place(&mut lines, &mut line, if i == 0 { gap } else { " " }, word);
                }
            }
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    }
}

/// The question `question` as the footer asks it.
fn asked(app: &App, question: Question) -> Asked {
    const YES_NO: &[(&str, &str)] = &[("y", "yes"), ("n", "no")];
    match question {
        Question::Quit if app.autosave_failed() => Asked::new(
            "Quit? The game is NOT saved (autosave failed; s saves it).",
            YES_NO,
        ),
        Question::Quit if app.session().match_play().is_some() => Asked::new(
            "Quit? The match is saved; checkers --resume continues it.",
            YES_NO,
        ),
        Question::Quit => Asked::new(
            "Quit? The game is saved; checkers --resume continues it.",
            YES_NO,
        ),
        // "Abandon" would promise what the picker's `a abandon` does: this game is
        // kept, unfinished, for --resume.
        Question::NewGame if app.autosave_failed() => Asked::new(
            "New game? This one is NOT saved (autosave failed; s saves it).",
            YES_NO,
        ),
        Question::NewGame => Asked::new(
            "New game? This one stays saved; checkers --resume offers it.",
            YES_NO,
        ),
        Question::WhoResigns => Asked::new(
            "Who resigns?",
            &[("b", "Black"), ("w", "White"), ("Esc", "cancel")],
        ),
        Question::Resign(color) => Asked::new(format!("Resign? {color} loses the game."), YES_NO),
        Question::HandOver(color) => Asked::new(
            format!(
                "Hand {color} to the computer ({})? It plays at once.",
                app.session().level()
            ),
            YES_NO,
        ),
        Question::OfferDraw => {
            Asked::new(format!("Offer {} a draw?", !app.position().turn()), YES_NO)
        }
        Question::ClaimDraw(reason) => {
            let why = match reason {
                crate::rules::DrawReason::Repetition => "repetition",
                crate::rules::DrawReason::FortyMoves => "the forty-move rule",
                crate::rules::DrawReason::Agreement => "agreement",
            };
            Asked::new(format!("Claim a draw by {why}? It ends the game."), YES_NO)
        }
        Question::Draw(by) => Asked::new(format!("{by} offers a draw. {}, accept?", !by), YES_NO),
        Question::Undo if app.session().agreed_draw() => Asked::new(
            "Take back the agreed draw and play on? Both players agree:",
            YES_NO,
        ),
        Question::Undo => Asked::new(
            "Take back the last move (clocks too)? Both players agree:",
            YES_NO,
        ),
        Question::RemoteUndo(by) => Asked::new(
            format!("{by} asks to take back the last move. Agree?"),
            YES_NO,
        ),
        Question::LeaveTable => {
            let table = app.runtime().table();
            let hosting = matches!(
                table.map(|t| &t.seat),
                Some(crate::runtime::Seat::Host { .. })
            );
            // At a server the clocks stop only once both players leave; the host's
            // command is said in full as it ends.
            let adjourn = match (table.is_some_and(|t| t.at_server), hosting) {
                (true, _) => "goes to the lobby, your clock running",
                (false, true) => "adjourns it (checkers host --resume)",
                (false, false) => "adjourns it (connect again to go on)",
            };
            Asked::new(
                "Leave the game?",
                &[("a", adjourn), ("r", "resigns"), ("n", "stays")],
            )
        }
        Question::LeaveUnplayed => Asked::new(
            "Leave the game? No move yet: nothing to resume.",
            &[("y", "leaves"), ("n", "stays")],
        ),
        Question::LeaveGoneLine => Asked::new(
            "Leave the board?",
            &[("q", "quits checkers online"), ("n", "stays")],
        ),
    }
}

/// A question too long for the footer of a small screen, asked in a box over the board.
fn render_question_box(theme: &Theme, asked: &Asked, frame: Rect, buf: &mut Buffer) {
    // The frame and a blank column each side.
    let lines = asked.lines(usize::from(frame.width.saturating_sub(4)));
    let height = u16::try_from(lines.len() + 2)
        .unwrap_or(u16::MAX)
        .min(frame.height);
    let area = Rect {
        y: frame.y + (frame.height - height) / 2,
        height,
        ..frame
    };
    Clear.render(area, buf);
    let lines: Vec<Line> = lines.into_iter().map(Line::raw).collect();
    Paragraph::new(lines)
        .style(theme.question)
        .block(
            Block::bordered()
                .border_set(theme.glyphs.border)
                .border_style(theme.question)
                .padding(ratatui::widgets::Padding::horizontal(1)),
        )
        .render(area, buf);
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

/// On a screen with no panel, whose move it is, for the side's label: the side and
/// `Black to move` (with its clock in a timed game, `Black to move, 4:59`); `None` once
/// the game is over, and in the editor (whose side to move is its own).
fn compact_turn(app: &App) -> Option<(Color, String)> {
    if app.game().is_over() || matches!(app.mode, Mode::Editor(_)) {
        return None;
    }
    let turn = app.shown_position().turn();
    let text = match app
        .session()
        .time_left(turn)
        .filter(|_| app.panel.browse.is_none())
    {
        Some(left) => format!("{turn} to move, {}", crate::session::clock_text(left)),
        None => format!("{turn} to move"),
    };
    Some((turn, text))
}

/// `text` as at most `rows` lines of `width` columns, broken between words, with no
/// sentence cut: sentences that do not fit are left out, the last ones first, and only a
/// first sentence too long by itself is cut short, between words, with `…` (`...` in
/// ASCII) to say so.
fn fitted_lines(text: &str, width: usize, rows: usize, ellipsis: &str) -> Vec<String> {
    let width = width.max(1);
    let wrap = |text: &str| {
        let mut lines: Vec<String> = Vec::new();
        let mut line = String::new();
        for word in text.split_whitespace() {
            let word: String = word.chars().take(width).collect();
            let taken = line.chars().count();
            if taken > 0 && taken + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(&word);
        }
        if !line.is_empty() {
            lines.push(line);
        }
        lines
    };
    // Sentences end with ". " (or "? ", "! ").
    let mut ends: Vec<usize> = text
        .match_indices(['.', '?', '!'])
        .map(|(i, _)| i + 1)
        .filter(|&i| text[i..].starts_with(' '))
        .collect();
    ends.push(text.len());
    for &end in ends.iter().rev() {
        let lines = wrap(&text[..end]);
        if lines.len() <= rows {
            return lines;
        }
    }
    // The first sentence alone is too long: as much of it as fits, marked as cut.
    let mut lines = wrap(&text[..ends[0]]);
    lines.truncate(rows);
    if let Some(last) = lines.last_mut() {
        let room = width.saturating_sub(ellipsis.chars().count());
        while last.chars().count() > room {
            match last.rfind(' ') {
                Some(space) => last.truncate(space),
                None => {
                    *last = last.chars().take(room).collect();
                }
            }
        }
        last.push_str(ellipsis);
    }
    lines
}

/// The state of the game in a few words, for a screen with no panel; in a timed game
/// the clock of the side to move too (`Black to move, 4:59`).
fn compact_status(app: &App) -> String {
    match app.game().result() {
        Some(outcome) => format!("{outcome}."),
        None => match app.thinking_text() {
            Some(text) => text,
            None => {
                let turn = app.position().turn();
                match app.session().time_left(turn) {
                    Some(left) => format!("{turn} to move, {}", crate::session::clock_text(left)),
                    None => format!("{turn} to move"),
                }
            }
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

/// A line of keys and what they do, as the footer shows them.
pub(crate) fn hint_line<'a>(theme: &Theme, keys: &[(&'a str, &'a str)]) -> Line<'a> {
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

/// A line being typed (`Move: 11-1`, `FEN: B:W`), its cursor a key-styled cell, then the
/// keys that finish it.
fn typing_line(
    theme: &Theme,
    heading: &'static str,
    text: &str,
    keys: &[(&'static str, &'static str)],
) -> Line<'static> {
    let typed = vec![Span::raw(text.to_string()), Span::styled(" ", theme.key)];
    typing_spans(theme, heading, typed, keys)
}

/// [`typing_line`] of a text drawn as `typed` (a [`TextField`](crate::tui::field::TextField)'s
/// spans, its text cursor anywhere in it).
fn typing_spans(
    theme: &Theme,
    heading: &'static str,
    typed: Vec<Span<'static>>,
    keys: &[(&'static str, &'static str)],
) -> Line<'static> {
    let mut spans = vec![Span::styled(heading, theme.heading)];
    spans.extend(typed);
    spans.push(Span::raw("  "));
    for (key, what) in keys {
        spans.push(Span::raw(" "));
        spans.push(Span::styled(*key, theme.key));
        spans.push(Span::raw(format!(" {what} ")));
    }
    Line::from(spans)
}
