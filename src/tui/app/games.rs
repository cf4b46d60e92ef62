//! The list of a record file's games (`--load FILE` with several games): type to filter,
//! the arrows to choose, Enter to open; and, while reviewing, stepping through the game
//! and moving to the previous or next game.

use super::{Action, App, Mode};
use crate::runtime::Command;
use crate::session::{GameSummary, Step};
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// The list of games on screen: the filter typed so far and the line chosen.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GameList {
    /// Text a game's line must contain (any case).
    pub(crate) filter: String,
    /// The chosen line among those the filter lets through.
    pub(crate) selected: usize,
    /// Opened with the file, before any game was chosen: closed, the review of the
    /// game shown begins, and says its keys.
    pub(crate) opening: bool,
}

impl GameList {
    /// Typed: the filter grows, and the choice goes back to the first line.
    pub(super) fn type_char(&mut self, c: char) {
        self.filter.push(c);
        self.selected = 0;
    }

    /// Backspace: the filter shrinks, and the choice goes back to the first line.
    pub(super) fn erase(&mut self) {
        crate::text::pop_grapheme(&mut self.filter);
        self.selected = 0;
    }
}

/// Plies a page key steps through a review.
const REVIEW_PAGE_PLIES: usize = 10;

/// Lines a page key moves the choice by.
const PAGE: usize = 10;

/// The list's keys.
pub(super) fn list_action(key: &KeyEvent) -> Option<Action> {
    match key.code {
        KeyCode::Enter => Some(Action::OpenChosenGame),
        KeyCode::Esc => Some(Action::CloseGameList),
        KeyCode::Up => Some(Action::ChooseGame(-1)),
        KeyCode::Down => Some(Action::ChooseGame(1)),
        KeyCode::PageUp => Some(Action::ChooseGame(-(PAGE as i32))),
        KeyCode::PageDown => Some(Action::ChooseGame(PAGE as i32)),
        KeyCode::Backspace => Some(Action::Erase),
        _ => crate::tui::field::typed_char(key).map(Action::Type),
    }
}

impl App {
    /// The games the list shows: those whose line contains the filter.
    pub(crate) fn listed_games(&self) -> Vec<GameSummary> {
        let Some((file, _)) = self.session().file() else {
            return Vec::new();
        };
        let filter = match &self.mode {
            Mode::Games(list) => list.filter.to_lowercase(),
            _ => String::new(),
        };
        file.summaries()
            .iter()
            .filter(|s| s.text.to_lowercase().contains(&filter))
            .cloned()
            .collect()
    }

    pub(super) fn open_game_list(&mut self) {
        match self.session().file() {
            Some((_, number)) => {
                self.board.pick = None;
                self.mode = Mode::Games(GameList {
                    filter: String::new(),
                    selected: number - 1,
                    opening: false,
                });
            }
            None => self
                .status
                .error("No record file is open: checkers --load FILE opens one"),
        }
    }

    pub(super) fn choose_game(&mut self, by: i32) {
        let count = self.listed_games().len();
        if let Mode::Games(list) = &mut self.mode {
            let last = count.saturating_sub(1) as i64;
            list.selected = (list.selected as i64 + i64::from(by)).clamp(0, last.max(0)) as usize;
        }
    }

    pub(super) fn open_chosen_game(&mut self) {
        let Mode::Games(list) = &self.mode else {
            return;
        };
        let Some(number) = self.listed_games().get(list.selected).map(|s| s.number) else {
            self.status
                .error("No game matches the filter: Backspace erases it");
            return;
        };
        self.mode = super::Mode::Board;
        self.open_game(number, true);
    }

    /// A step through the review (`command`, a step or a jump): the status line says
    /// which move is shown.
    pub(super) fn step_review(&mut self, command: Command) {
        self.board.pick = None;
        let text = self
            .runtime
            .command(command)
            .map(|news| news.to_string())
            .unwrap_or_default();
        self.status.info(text);
    }

    /// PgUp or PgDn in review: the list follows the move shown, a page of moves at a
    /// time.
    pub(super) fn page_review(&mut self, back: bool) {
        let step = if back { Step::Back } else { Step::Forward };
        for _ in 1..REVIEW_PAGE_PLIES {
            let _ = self.runtime.command(Command::Step(step));
        }
        self.step_review(Command::Step(step));
    }

    /// Opens game `number` of the file, reporting how it went; chosen `from_list` (the
    /// first game reviewed, where the list opened with the file), the review's keys
    /// too, as a file of one game says them on opening.
    pub(super) fn open_game(&mut self, number: usize, from_list: bool) {
        self.board.pick = None;
        match self.runtime.command(Command::OpenGame(number)) {
            Ok(text) => {
                let fault = self.session().review().and_then(|r| r.fault.clone());
                match fault {
                    Some(fault) => self.status.error(format!(
                        "{text}. Its record stops at a faulty move: {fault}"
                    )),
                    None if from_list => self
                        .status
                        .info(format!("{text}. {}", super::status::REVIEW_WELCOME)),
                    None => self.status.info(text.to_string()),
                }
            }
            Err(e) => self.status.error(super::capitalize(&e.to_string())),
        }
    }

    /// The previous (`next` false) or next game of the file.
    pub(super) fn other_game(&mut self, next: bool) {
        let Some((file, number)) = self.session().file() else {
            self.status
                .error("No record file is open: checkers --load FILE opens one");
            return;
        };
        let count = file.len();
        let wanted = if next {
            number + 1
        } else {
            number.saturating_sub(1)
        };
        if wanted == 0 || wanted > count {
            self.status.error(format!(
                "Game {number} is the {} of {count}",
                if next { "last" } else { "first" }
            ));
        } else {
            self.open_game(wanted, false);
        }
    }
}
