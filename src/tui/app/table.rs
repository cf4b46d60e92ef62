//! A game across the network on screen: the table's news on the status line and its
//! questions (a take-back the other player asks, their draw offer), the chat line, and
//! leaving (adjourned for a later join, or resigned).

use super::{App, Flow, Mode, Question, Tone};
use crate::runtime::{Command, TableNews};

impl App {
    /// Shows the table's news.
    pub(super) fn on_table(&mut self, news: TableNews) {
        self.follow_own_side();
        match news {
            TableNews::Joined { color, name } => {
                let who = name.unwrap_or_else(|| "The other player".to_string());
                self.info(format!(
                    "{who} joined, playing {color}: {} to move",
                    self.position().turn()
                ));
            }
            TableNews::Left { color, why } => self.notify(
                Tone::Error,
                format!(
                    "{color}'s line dropped ({why}): the clocks are stopped until they join again"
                ),
            ),
            TableNews::LineDown(why) => self.notify(
                Tone::Error,
                format!(
                    "The line to the host dropped ({why}): the clocks are stopped; trying again"
                ),
            ),
            TableNews::LineUp => self.info("Connected to the host again: play goes on"),
            TableNews::Lost(why) => self.notify(
                Tone::Error,
                format!("The host refused this board: {why}. q, then join again"),
            ),
            TableNews::Told(text) | TableNews::Adjourned(text) => {
                let text = self.with_match_news(super::capitalize(&text));
                self.info(text);
            }
            TableNews::Refused(why) => self.notify(Tone::Error, super::capitalize(&why)),
            TableNews::Chat { from, text } => self.info(format!("{from}: {text}")),
            TableNews::UndoAsked(color) => self.ask_from_table(Question::RemoteUndo(color)),
            TableNews::DrawOffered(color) => self.ask_from_table(Question::Draw(color)),
            TableNews::WrongCode(wrong) => self.notify(Tone::Error, wrong.to_string()),
            TableNews::Waiting(why) => self.notify(
                Tone::Error,
                format!("The host refused this board for now ({why}): trying again"),
            ),
        }
    }

    /// A question from the other terminal: put now, or after the one being asked (it
    /// does not replace it).
    fn ask_from_table(&mut self, question: Question) {
        if let Mode::Asking(asked) = self.mode {
            if asked != question && !self.waiting_questions.contains(&question) {
                self.waiting_questions.push_back(question);
            }
            return;
        }
        self.pick = None;
        self.mode = Mode::Asking(question);
    }

    /// Once a question is answered: the next one waiting that still stands (the draw
    /// still offered, the take-back still asked) is put.
    pub(super) fn ask_next_waiting(&mut self) {
        if matches!(self.mode, Mode::Asking(_)) {
            return;
        }
        while let Some(question) = self.waiting_questions.pop_front() {
            let stands = match question {
                Question::Draw(by) => self.game().draw_offer() == Some(by),
                Question::RemoteUndo(by) => self
                    .runtime
                    .table()
                    .is_some_and(|t| t.undo_asked == Some(by)),
                _ => false,
            };
            if stands {
                self.pick = None;
                self.mode = Mode::Asking(question);
                return;
            }
        }
    }

    /// A joiner keeps its own side at the bottom as a match's colours change at the
    /// host (which turns its own board at its `n`), unless `--flip` fixed the board.
    fn follow_own_side(&mut self) {
        let Some(crate::runtime::Seat::Player(side)) = self.runtime.table().map(|t| t.seat.clone())
        else {
            return;
        };
        if self.own_side.is_some_and(|before| before != side) && !self.flip_fixed {
            self.flipped = !self.flipped;
            self.pick = None;
        }
        self.own_side = Some(side);
    }

    /// `'`: the chat line, in a game across the network.
    pub(super) fn open_chat(&mut self) {
        if self.runtime.table().is_none() {
            self.error("The chat is for a game across the network (checkers host, join)");
            return;
        }
        self.pick = None;
        self.mode = Mode::Chat(String::new());
    }

    /// Enter on the chat line: the line is said.
    pub(super) fn send_chat(&mut self) {
        let Mode::Chat(text) = std::mem::replace(&mut self.mode, Mode::Board) else {
            return;
        };
        if let Err(e) = self.runtime.command(Command::Chat(text)) {
            self.error(super::capitalize(&e.to_string()));
        }
    }

    /// `q` in a game across the network: adjourn (the game is kept, to go on at a later
    /// join) or resign; a spectator or a finished game just goes.
    pub(super) fn ask_leave_table(&mut self) -> Flow {
        let playing = self.session().seats().only_person_here().is_some();
        if !playing || self.game().is_over() {
            return self.quit_now();
        }
        self.pick = None;
        self.mode = Mode::Asking(Question::LeaveTable);
        Flow::Continue
    }
}
