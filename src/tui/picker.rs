//! The picker: before the game, when `--resume` finds several unfinished games, a small
//! screen lists them (newest first: when, players, moves) to choose the one to continue.
//! From the home screen it lists the games hosted across the network too, marked so:
//! one chosen is hosted again, as `checkers host --resume` hosts it.
//!
//! Like the game screen it is state ([`Picker`]), keys turned into changes
//! ([`Picker::handle_event`], no I/O) and drawing (`impl Widget for &Picker`); the event
//! loop that runs it and claims the chosen game is in the [parent module](super).

use super::choice::{Clicked, choice_at, choice_lines};
use super::keyline::{KeyLine, line_rows};
use super::theme::Theme;
use crate::store::SavedGame;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;
use ratatui::text::Line;
use ratatui::widgets::{Block, Paragraph, Widget, Wrap};

/// What the player decided at the picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Picked {
    /// Continue the game at this index of the list.
    Game(usize),
    /// Delete the game at this index (confirmed).
    Delete(usize),
    /// Abandon the game at this index (confirmed): kept, but no longer offered.
    Abandon(usize),
    /// Start none: quit.
    Quit,
}

/// What the picker asks before it is done: y carries it out, anything else not.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Confirm {
    /// Delete this game?
    Delete(usize),
    /// Abandon this game?
    Abandon(usize),
}

/// The picker's state: the games, the one under the cursor, a message.
#[derive(Clone, Debug)]
pub(crate) struct Picker {
    /// The unfinished games, newest first.
    pub(crate) games: Vec<SavedGame>,
    /// The index of the game under the cursor.
    pub(crate) selected: usize,
    /// A message for the player (a game taken meanwhile by another window).
    pub(crate) message: Option<String>,
    /// A deletion or abandonment waiting for its yes.
    pub(crate) confirm: Option<Confirm>,
    /// Colours and glyphs.
    pub(crate) theme: Theme,
    /// The screen as last drawn, for the mouse.
    pub(crate) screen: Rect,
}

impl Picker {
    /// A picker over `games` (newest first), the newest under the cursor.
    pub(crate) fn new(games: Vec<SavedGame>, theme: Theme) -> Picker {
        Picker {
            games,
            selected: 0,
            message: None,
            confirm: None,
            theme,
            screen: Rect::default(),
        }
    }

    /// Replaces the list (after a game was taken by another window), keeping the cursor
    /// within it.
    pub(crate) fn set_games(&mut self, games: Vec<SavedGame>) {
        self.games = games;
        self.selected = self.selected.min(self.games.len().saturating_sub(1));
    }

    /// Applies a terminal event: the arrows (or `j`/`k`) move, Home/End jump, Enter or
    /// Space choose the game under the cursor, a digit chooses that game, `q`, Esc or
    /// Ctrl-C quit; `d` deletes the game under the cursor and `a` abandons it (kept in
    /// the folder, no longer offered), each once `y` confirms it; a click on an entry of
    /// the key line presses its key, one on a game chooses it and one on the game chosen
    /// continues it; the wheel moves as the arrows do. Returns the decision, if one was
    /// made.
    pub(crate) fn handle_event(&mut self, event: &Event) -> Option<Picked> {
        let plain = |code| Event::Key(KeyEvent::new(code, KeyModifiers::NONE));
        let key = match event {
            Event::Key(key) => key,
            // A click on an entry of the key line presses its key ("q quit"); one on a
            // game chooses it, and one on the game chosen continues it, as Enter does
            // (as on the puzzles' list).
            Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
                if let Some(key) = self.press_at(mouse.column, mouse.row) {
                    return self.handle_event(&Event::Key(key));
                }
                match self.game_at(mouse.column, mouse.row)? {
                    Clicked::Open(_) => return self.handle_event(&plain(KeyCode::Enter)),
                    Clicked::Choose(clicked) if self.confirm.is_none() => {
                        self.selected = clicked;
                        self.message = None;
                    }
                    // A question waits: the click answers no, as any other key does.
                    Clicked::Choose(_) => return self.handle_event(&plain(KeyCode::Esc)),
                }
                return None;
            }
            // The wheel moves the cursor as the arrows do.
            Event::Mouse(mouse) => {
                return match mouse.kind {
                    MouseEventKind::ScrollUp => self.handle_event(&plain(KeyCode::Up)),
                    MouseEventKind::ScrollDown => self.handle_event(&plain(KeyCode::Down)),
                    _ => None,
                };
            }
            _ => return None,
        };
        if key.kind != KeyEventKind::Press {
            return None;
        }
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return Some(Picked::Quit);
        }
        if let Some(confirm) = self.confirm.take() {
            if matches!(
                crate::tui::keymap::plain_code(key),
                KeyCode::Char('y' | 'Y')
            ) {
                return Some(match confirm {
                    Confirm::Delete(i) => Picked::Delete(i),
                    Confirm::Abandon(i) => Picked::Abandon(i),
                });
            }
            self.message = Some("Nothing changed".to_string());
            return None;
        }
        let last = self.games.len().saturating_sub(1);
        // Alt-d is not d: it deletes nothing.
        match crate::tui::keymap::plain_code(key) {
            KeyCode::Char('d') | KeyCode::Delete if !self.games.is_empty() => {
                self.confirm = Some(Confirm::Delete(self.selected));
                self.message = Some(delete_question(
                    self.selected + 1,
                    &self.games[self.selected],
                ));
            }
            KeyCode::Char('a') if !self.games.is_empty() => {
                self.confirm = Some(Confirm::Abandon(self.selected));
                self.message = Some(format!(
                    "Abandon game {}? It stays in the games folder (checkers games lists it) \
                     but is no longer offered here. y abandons it, any other key keeps it",
                    self.selected + 1
                ));
            }
            KeyCode::Up | KeyCode::Char('k') => self.selected = self.selected.saturating_sub(1),
            KeyCode::Down | KeyCode::Char('j') => self.selected = (self.selected + 1).min(last),
            KeyCode::Home => self.selected = 0,
            KeyCode::End => self.selected = last,
            KeyCode::Enter | KeyCode::Char(' ') if !self.games.is_empty() => {
                return Some(Picked::Game(self.selected));
            }
            KeyCode::Char(d @ '1'..='9') => {
                let index = usize::from(d as u8 - b'1');
                if index < self.games.len() {
                    return Some(Picked::Game(index));
                }
                self.message = Some(format!("There is no game {d}"));
            }
            KeyCode::Char('q') | KeyCode::Esc => return Some(Picked::Quit),
            _ => {}
        }
        None
    }
}

/// The question before game `number` (`game`) is deleted. For a match's game in play
/// it says what goes with it: the match can no longer be resumed, while its finished
/// games stay (each in the games folder, all in the match's file).
fn delete_question(number: usize, game: &SavedGame) -> String {
    let Some((index, games)) = game.match_game() else {
        return format!("Delete game {number} for good? y deletes it, any other key keeps it");
    };
    let kept = match game.match_file() {
        Some(file) => format!(
            "its finished games stay in the games folder and in {}",
            crate::text::printable_path(&file)
        ),
        None => "its finished games stay in the games folder".to_string(),
    };
    format!(
        "Delete game {number}, the match in play (game {index} of {games}), for good? \
         The match can no longer be resumed; {kept}. y deletes it, any other key keeps it"
    )
}

impl Picker {
    /// The picker's lines above its key line, drawn in the box on the screen `area`:
    /// the heading, the games, the message.
    fn body(&self, area: Rect) -> Vec<Line<'static>> {
        let theme = &self.theme;
        let mut lines = vec![
            Line::styled("Unfinished games: which one goes on?", theme.heading),
            Line::raw(""),
        ];
        let room = self.game_rows(area);
        // One row a game, cut to the box's width, so the rows counted are the rows
        // drawn: a wrapped game would push the key line, and the choice, out of sight.
        let width = usize::from(area.width.saturating_sub(4));
        let ellipsis = theme.glyphs.ellipsis();
        let games = self.games.iter().enumerate().map(|(i, game)| {
            // Said first, where no cut reaches it: such a game is hosted again.
            let hosted = if game.across_the_network() {
                "across the network: "
            } else {
                ""
            };
            let row = format!("{}. {hosted}{}", i + 1, game.resume_row());
            crate::text::one_row(&row, width, ellipsis)
        });
        lines.extend(choice_lines(theme, games, self.selected, room));
        lines.push(Line::raw(""));
        if let Some(message) = &self.message {
            lines.push(Line::styled(message.clone(), theme.error));
        }
        lines
    }

    /// Rows for games on the screen `area`: the area less the heading, the message and
    /// the key line.
    fn game_rows(&self, area: Rect) -> usize {
        usize::from(area.height.saturating_sub(6))
    }

    /// What a click at `column`, `row` of the screen does to the game drawn there (see
    /// [`Clicked`]), if one is.
    fn game_at(&self, column: u16, row: u16) -> Option<Clicked> {
        let inner = Block::bordered().inner(self.screen);
        if !inner.contains(ratatui::layout::Position::new(column, row)) {
            return None;
        }
        // The games come after the heading and a blank line, as wrapped on screen.
        let width = usize::from(inner.width);
        let above: usize = self
            .body(self.screen)
            .iter()
            .take(2)
            .map(|line| line_rows(line, width))
            .sum();
        let line = usize::from(row - inner.y).checked_sub(above)?;
        let room = self.game_rows(self.screen);
        let clicked = choice_at(self.selected, room, self.games.len(), line)?;
        Some(Clicked::on(clicked, self.selected))
    }

    /// The key line, each entry with the key a click on it presses.
    fn key_line(&self) -> KeyLine {
        KeyLine::of_keys(
            &self.theme,
            &[
                ("Up/Down", "choose"),
                // A game played across the network goes on hosted again, as
                // `checkers host --resume` hosts it.
                (
                    "Enter",
                    if self
                        .games
                        .get(self.selected)
                        .is_some_and(SavedGame::across_the_network)
                    {
                        "host it again"
                    } else {
                        "continue it"
                    },
                ),
                ("1-9", "that game"),
                ("a", "abandon"),
                ("d", "delete"),
                ("q", "quit"),
            ],
        )
    }

    /// The key a click at `column`, `row` of the screen presses: the one of the key
    /// line's entry drawn there (wrapped as the box wraps it, under the lines above it).
    fn press_at(&self, column: u16, row: u16) -> Option<KeyEvent> {
        let inner = Block::bordered().inner(self.screen);
        if column < inner.x || column >= inner.right() || row < inner.y || row >= inner.bottom() {
            return None;
        }
        let width = usize::from(inner.width);
        let above: usize = self
            .body(self.screen)
            .iter()
            .map(|line| line_rows(line, width))
            .sum();
        let line_row = usize::from(row - inner.y).checked_sub(above)?;
        self.key_line()
            .press_wrapped(inner.width, column - inner.x, line_row)
    }
}

impl Widget for &Picker {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        let mut lines = self.body(area);
        lines.push(self.key_line().line());
        Paragraph::new(lines)
            .block(
                Block::bordered()
                    .border_set(theme.glyphs.border)
                    .title(" checkers --resume ")
                    .title_style(theme.heading)
                    .border_style(theme.heading),
            )
            .wrap(Wrap { trim: false })
            .render(area, buf);
    }
}
