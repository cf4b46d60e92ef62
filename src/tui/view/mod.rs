//! Drawing: `impl Widget for &App`. Reads the state, never changes it.

mod big_digits;
pub(crate) mod board;
mod overlays;
mod panel;
mod report;

pub(crate) use overlays::{help_scrolled, help_scrolls, help_text};
use overlays::{render_game_list, render_help, render_save_dialog};
use panel::render_panel;
pub(crate) use panel::{move_at, wrapped};

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
const SAVE_NOTE: &str = "The game is written as PDN, in a folder that exists. For an existing file you choose: add the game at its end, or replace the file.";

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
    if let Some((tone, text)) = message {
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
        Mode::Asking(question) => {
            let text = match question {
                Question::Quit if app.autosave_failed() => {
                    "Quit? The game is NOT saved (autosave failed; s saves it). y yes  n no"
                        .to_string()
                }
                Question::Quit if app.session().match_play().is_some() => {
                    "Quit? The match is saved; checkers --resume continues it. y yes  n no"
                        .to_string()
                }
                Question::Quit => {
                    "Quit? The game is saved; checkers --resume continues it. y yes  n no"
                        .to_string()
                }
                // "Abandon" would promise what the picker's `a abandon` does: this game
                // is kept, unfinished, for --resume.
                Question::NewGame if app.autosave_failed() => {
                    "New game? This one is NOT saved (autosave failed; s saves it). y yes  n no"
                        .to_string()
                }
                Question::NewGame => {
                    "New game? This one stays saved; checkers --resume offers it. y yes  n no"
                        .to_string()
                }
                Question::WhoResigns => "Who resigns? b Black  w White  Esc cancel".to_string(),
                Question::Resign(color) => {
                    format!("Resign? {color} loses the game. y yes  n no")
                }
                Question::HandOver(color) => format!(
                    "Hand {color} to the computer ({})? It plays at once. y yes  n no",
                    app.session().level()
                ),
                Question::OfferDraw => {
                    format!("Offer {} a draw? y yes  n no", !app.position().turn())
                }
                Question::ClaimDraw(reason) => {
                    let why = match reason {
                        crate::rules::DrawReason::Repetition => "repetition",
                        crate::rules::DrawReason::FortyMoves => "the forty-move rule",
                        crate::rules::DrawReason::Agreement => "agreement",
                    };
                    format!("Claim a draw by {why}? It ends the game. y yes  n no")
                }
                Question::Draw(by) => format!("{by} offers a draw. {}, accept? y yes  n no", !*by),
                Question::Undo if app.session().agreed_draw() => {
                    "Take back the agreed draw and play on? Both players agree: y yes  n no"
                        .to_string()
                }
                Question::Undo => {
                    "Take back the last move (clocks too)? Both players agree: y yes  n no"
                        .to_string()
                }
                Question::RemoteUndo(by) => {
                    format!("{by} asks to take back the last move. Agree? y yes  n no")
                }
                Question::LeaveTable => {
                    let table = app.runtime().table();
                    let hosting = matches!(
                        table.map(|t| &t.seat),
                        Some(crate::runtime::Seat::Host { .. })
                    );
                    if table.is_some_and(|t| t.at_server) {
                        // At a server the clocks stop only once both players leave.
                        "Leave the game? a goes to the lobby, your clock running  r resigns  \
                         n stays"
                            .to_string()
                    } else {
                        // Within 80 columns: the host's command is said in full as it
                        // ends.
                        let again = if hosting {
                            "checkers host --resume"
                        } else {
                            "connect again to go on"
                        };
                        format!("Leave the game? a adjourns it ({again})  r resigns  n stays")
                    }
                }
                Question::LeaveGoneLine => {
                    "Leave the board? q quits checkers online  n stays".to_string()
                }
            };
            Line::styled(text, theme.question)
        }
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
