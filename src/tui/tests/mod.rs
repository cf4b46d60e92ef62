//! The full-screen game driven in-process through its [`App`]: keys, clicks, snapshots
//! at every terminal size, the computer, records and matches. The helpers below build
//! an App, send it keys and render it.
#![allow(clippy::unwrap_used)]

mod analysis;
mod clock_records;
mod computer;
mod editor;
mod frontends;
mod home;
mod keys;
mod lobby;
mod matches;
mod monkey;
mod newcomer;
mod picker;
mod puzzle;
mod records;
mod render_sizes;
mod report;
mod screens;
mod server_table;
mod theme;
mod tournament;

use crate::game::Game;
use crate::rules::{Position, Square};
use crate::session::Session;
use crate::tui::{App, Flow, Settings, Theme};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};

pub(crate) const WIDTH: u16 = 80;
pub(crate) const HEIGHT: u16 = 24;

/// A new game at 80x24 with the default (coloured, Unicode) theme.
pub(crate) fn app() -> App {
    App::new(Settings::default(), WIDTH, HEIGHT)
}

/// A game from a FEN position at 80x24.
pub(crate) fn app_from(fen: &str) -> App {
    let pos: Position = fen.parse().unwrap();
    App::with_session(
        Settings::default(),
        Session::new(Game::from_position(pos)),
        WIDTH,
        HEIGHT,
    )
}

/// A short recorded game with tags, for review tests: 12 plies.
pub(crate) const REVIEW_PDN: &str = r#"[Event "Club final"]
[Black "Ann Smith"]
[White "Bob Jones"]
[Result "1/2-1/2"]
1. 11-15 23-18 2. 8-11 27-23 3. 4-8 23-19 4. 10x14 19x10 5. 14x23 26x19
6. 7x14 24-20 1/2-1/2
"#;

/// The first game of `pdn` opened for review at 80x24, as `--load` opens it.
pub(crate) fn review_app(pdn: &str) -> App {
    let record = crate::pdn::read_games(pdn).remove(0).unwrap();
    App::with_session(
        Settings::default(),
        Session::review_record(&record),
        WIDTH,
        HEIGHT,
    )
}

/// A game with the colourless ASCII theme.
pub(crate) fn plain_app() -> App {
    App::new(
        Settings {
            theme: Theme::new(false, true),
            ..Settings::default()
        },
        WIDTH,
        HEIGHT,
    )
}

pub(crate) fn key_event(code: KeyCode, modifiers: KeyModifiers) -> Event {
    Event::Key(KeyEvent {
        code,
        modifiers,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    })
}

/// Presses the key `code`: what the event loop is then to do (`None`: nothing happened).
pub(crate) fn press(app: &mut App, code: KeyCode) -> Option<Flow> {
    app.handle_event(&key_event(code, KeyModifiers::NONE))
}

/// Presses Ctrl and `c`.
pub(crate) fn ctrl(app: &mut App, c: char) -> Option<Flow> {
    app.handle_event(&key_event(KeyCode::Char(c), KeyModifiers::CONTROL))
}

/// Types each character of `text` as a key press.
pub(crate) fn type_text(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, KeyCode::Char(c));
    }
}

/// Types a move into the prompt and presses Enter.
pub(crate) fn type_move(app: &mut App, text: &str) {
    type_text(app, text);
    press(app, KeyCode::Enter);
}

pub(crate) fn sq(n: u8) -> Square {
    Square::new(n).unwrap()
}

/// Moves the cursor onto `target` with the arrow keys (screen directions, so it works on
/// a flipped board too); in review, where the arrows step through the moves, with hjkl.
pub(crate) fn cursor_to(app: &mut App, target: Square) {
    let screen = |app: &App, (row, col): (u8, u8)| {
        let (row, col) = (row as i8, col as i8);
        if app.board.flipped {
            (row, 7 - col)
        } else {
            (7 - row, col)
        }
    };
    let reviewing = app.review().is_some();
    for _ in 0..24 {
        let (r, c) = screen(app, app.board.cursor);
        let (tr, tc) = screen(app, (target.row(), target.col()));
        let key = if tr < r {
            if reviewing {
                KeyCode::Char('k')
            } else {
                KeyCode::Up
            }
        } else if tr > r {
            if reviewing {
                KeyCode::Char('j')
            } else {
                KeyCode::Down
            }
        } else if tc > c {
            if reviewing {
                KeyCode::Char('l')
            } else {
                KeyCode::Right
            }
        } else if tc < c {
            if reviewing {
                KeyCode::Char('h')
            } else {
                KeyCode::Left
            }
        } else {
            return;
        };
        let before = app.board.cursor;
        press(app, key);
        assert_ne!(app.board.cursor, before, "the cursor cannot reach {target}");
    }
    panic!("cursor did not reach {target}");
}

/// Clicks the middle of `square` on the screen.
pub(crate) fn click_square(app: &mut App, square: Square) {
    let layout = crate::tui::geometry::screen_layout(app.screen, app.board.flipped).unwrap();
    let rect = layout.board.square_rect(square);
    click(app, rect.x + rect.width / 2, rect.y + rect.height / 2);
}

/// Plays a move with the cursor: pick up its piece, then each landing square in turn.
pub(crate) fn cursor_move(app: &mut App, squares: &[u8]) {
    for &n in squares {
        cursor_to(app, sq(n));
        press(app, KeyCode::Enter);
    }
}

pub(crate) fn click(app: &mut App, column: u16, row: u16) {
    app.handle_event(&Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }));
}

/// A left click on the first place `text` is drawn on `drawn` (a screen as text, one
/// line a row, as [`drawn_text`] gives it).
pub(crate) fn click_on_text(drawn: &str, text: &str) -> Event {
    let (row, column) = drawn
        .lines()
        .enumerate()
        .find_map(|(row, line)| {
            let at = line.find(text)?;
            Some((row, line[..at].chars().count()))
        })
        .unwrap_or_else(|| panic!("{text} is not drawn:\n{drawn}"));
    Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: u16::try_from(column).unwrap(),
        row: u16::try_from(row).unwrap(),
        modifiers: KeyModifiers::NONE,
    })
}

/// Renders the app into a test terminal of the app's size.
pub(crate) fn render(app: &App) -> Terminal<TestBackend> {
    let mut terminal =
        Terminal::new(TestBackend::new(app.screen.width, app.screen.height)).unwrap();
    terminal
        .draw(|frame| frame.render_widget(app, frame.area()))
        .unwrap();
    terminal
}

/// What `draw` draws on a `width` x `height` screen, as plain text lines.
pub(crate) fn drawn_text(
    width: u16,
    height: u16,
    draw: impl FnOnce(ratatui::layout::Rect, &mut ratatui::buffer::Buffer),
) -> String {
    let area = ratatui::layout::Rect::new(0, 0, width, height);
    let mut buffer = ratatui::buffer::Buffer::empty(area);
    draw(area, &mut buffer);
    let mut out = String::new();
    for y in 0..height {
        for x in 0..width {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// The rendered screen as plain text lines.
pub(crate) fn screen_text(app: &App) -> String {
    let terminal = render(app);
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buffer.area.height {
        for x in 0..buffer.area.width {
            out.push_str(buffer[(x, y)].symbol());
        }
        out.push('\n');
    }
    out
}

/// The status message.
pub(crate) fn message(app: &App) -> String {
    app.status
        .message
        .as_ref()
        .map(|(_, m)| m.clone())
        .unwrap_or_default()
}

/// Whether `pos` is reached from the game's start by its moves, each one legal.
pub(crate) fn replays_legally(game: &Game) -> bool {
    let mut pos = *game.start();
    for m in game.moves() {
        if !pos.legal_moves().contains(m) {
            return false;
        }
        pos = pos.play_unchecked(m);
    }
    &pos == game.position()
}
