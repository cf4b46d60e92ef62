//! Drawing: `impl Widget for &App`. Reads the state, never changes it.

mod big_digits;
pub(crate) mod board;
mod footer;
mod overlays;
mod panel;
mod report;

pub(crate) use footer::FooterLayout;
pub(crate) use overlays::{
    board_cell, game_list_click, help_covers, help_scrolled, help_scrolls, help_text,
};
use overlays::{render_game_list, render_help, render_save_dialog};
use panel::render_panel;
pub(crate) use panel::{ABANDONED_HEAD, labelled, move_at, wrapped};

use crate::engine::Level;
use crate::game::MovePair;
use crate::rules::{Color, Piece, Role};
use crate::tui::app::{App, GameList, Mode, SaveDialog, SaveField};
use crate::tui::geometry::{MIN_HEIGHT, MIN_WIDTH, screen_layout};
use crate::tui::keymap;
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
            let text = if self.session().clocks_held() && self.held_by_suspension {
                // Back from Ctrl-Z: nothing was resumed from a file.
                format!(
                    "The clocks stopped\nwhile the game was suspended\n\n{} to move:\nany key starts the clocks",
                    self.position().turn()
                )
            } else if self.session().clocks_held() {
                format!(
                    "Game resumed: {} to move\n\nany key starts the clocks",
                    self.position().turn()
                )
            } else {
                "Paused\n\np starts the clocks again".to_string()
            };
            // Two rows above the words where the frame has room for them; on a small
            // screen the words come first, or their end would be cut off.
            let text = if frame.height >= 16 {
                format!("\n\n{text}")
            } else {
                text
            };
            // The board's own frame (ASCII with --ascii or where the locale is not UTF-8).
            let theme = &self.theme;
            // Wrapped: the board's frame is narrower than the sentences on a small screen.
            Paragraph::new(text)
                .wrap(Wrap { trim: true })
                .alignment(ratatui::layout::Alignment::Center)
                .block(
                    Block::bordered()
                        .border_set(theme.glyphs.border)
                        .border_style(theme.border),
                )
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
        footer::FooterLayout::new(self, &layout, area.bottom()).render(&self.theme, buf);
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
/// the game is over (abandoned at the server too) or the line to the server is gone,
/// and in the editor (whose side to move is its own).
fn compact_turn(app: &App) -> Option<(Color, String)> {
    if app.no_side_to_move() || matches!(app.mode, Mode::Editor(_)) {
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

/// A line of keys and what they do, as the footer shows them.
pub(crate) fn hint_line<'a>(theme: &Theme, keys: &[(&'a str, &'a str)]) -> Line<'a> {
    crate::tui::keyline::KeyLine::of_keys(theme, keys).line()
}
