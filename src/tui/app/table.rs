//! A game across the network on screen: the table's news on the status line and its
//! questions (a take-back the other player asks, their draw offer), the chat line, and
//! leaving (adjourned for a later join, or resigned).

use super::{Action, App, Flow, Mode, Question, Tone};
use crate::runtime::{Command, TableNews};
use crate::tui::field::{TextField, field_action};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use std::collections::VecDeque;

/// The chat line's keys: Enter says it, Esc closes it, the rest edit it as every typed
/// field is edited ([`field_action`]: Ctrl-U clears, a Ctrl-letter never types).
pub(super) fn chat_action(key: &KeyEvent) -> Option<Action> {
    match key.code {
        KeyCode::Enter => Some(Action::Submit),
        KeyCode::Esc => Some(Action::CancelPrompt),
        _ => field_action(key),
    }
}

/// Questions from the other terminal that came while another was asked: each is put in
/// turn, while it still stands.
#[derive(Clone, Debug, Default)]
pub(crate) struct WaitingQuestions(VecDeque<Question>);

impl WaitingQuestions {
    /// `question` came while `asked` is put: it waits its turn (once).
    fn wait(&mut self, question: Question, asked: Question) {
        if asked != question && !self.0.contains(&question) {
            self.0.push_back(question);
        }
    }

    /// The next question waiting that still `stands`; those that no longer do are
    /// dropped.
    fn next(&mut self, stands: impl Fn(Question) -> bool) -> Option<Question> {
        std::iter::from_fn(|| self.0.pop_front()).find(|question| stands(*question))
    }
}

impl App {
    /// Shows the table's news.
    pub(super) fn on_table(&mut self, news: TableNews) {
        if let Some(crate::runtime::Seat::Player(side)) = self.runtime.table().map(|t| &t.seat) {
            self.board.follow_own_side(*side);
        }
        match news {
            TableNews::Joined { color, name } => {
                let who = name.unwrap_or_else(|| "The other player".to_string());
                self.status.info(format!(
                    "{who} joined, playing {color}: {} to move",
                    self.position().turn()
                ));
            }
            TableNews::Left { color, why } => {
                let wait = match self.session().clock() {
                    Some(_) => "the clocks are stopped until they join again",
                    None => "the game waits for them to join again",
                };
                let why = why.map(|why| format!(" ({why})")).unwrap_or_default();
                self.status
                    .say(Tone::Error, format!("{color}'s line dropped{why}: {wait}"))
            }
            TableNews::TookOver { color, given_back } => self.status.info(format!(
                "{color}'s line went silent and its player is back ({given_back})"
            )),
            TableNews::LineDown(why) => {
                // A game without clocks has none to stop.
                let stopped = match self.session().clock() {
                    Some(_) => "the clocks are stopped; ",
                    None => "",
                };
                self.status.say(
                    Tone::Error,
                    format!("The line to the host dropped ({why}): {stopped}trying again"),
                )
            }
            TableNews::LineUp => self
                .status
                .info("Connected to the host again: play goes on"),
            TableNews::Lost(why) => self.status.say(
                Tone::Error,
                format!("The host refused this board: {why}. q, then join again"),
            ),
            TableNews::Told(text) | TableNews::Adjourned(text) => {
                let names = self.runtime.session().names();
                let text = self.with_match_news(super::opening_line(&text, names));
                self.status.info(text);
                self.tell_end_at_table(false);
            }
            TableNews::Refused(why) => self.status.say(Tone::Error, super::capitalize(&why)),
            TableNews::Chat { from, text } => self.status.info(format!("{from}: {text}")),
            TableNews::UndoAsked(color) => self.ask_from_table(Question::RemoteUndo(color)),
            TableNews::DrawOffered(color) => self.ask_from_table(Question::Draw(color)),
            TableNews::WrongCode(wrong) => self.status.say(Tone::Error, wrong.to_string()),
            TableNews::Waiting(why) => self.status.say(
                Tone::Error,
                format!("The host refused this board for now ({why}): trying again"),
            ),
            // The panel shows the count: drawn again, nothing said.
            TableNews::Watching(_) => {}
        }
    }

    /// Once the game at a table is over, the status line says its result and what this
    /// board can do next (a spectator: step through the moves, or leave): the news of
    /// the end, told before or after the board's game shows it, gets the keys after it.
    /// With `at_the_end` (the board's game has just ended), other words shown give way
    /// to the result; else only the news of the end is added to.
    pub(super) fn tell_end_at_table(&mut self, at_the_end: bool) {
        let (Some(outcome), Some(next)) = (
            self.game().result(),
            super::status::after_the_end_at_table(&self.runtime),
        ) else {
            return;
        };
        let result = outcome.to_string();
        let result = result.trim_end_matches('.');
        let text = match self.status.info_shown() {
            Some(shown) if shown.contains(next) => return,
            // The news of the end, in whatever words it came (a LAN host's say the
            // move or the resignation first).
            Some(shown) if shown.contains(result) => {
                format!("{}. {next}", shown.trim_end_matches('.'))
            }
            _ if at_the_end => format!("{result}. {next}"),
            _ => return,
        };
        self.status.info(text);
    }

    /// A question from the other terminal: put now, or after the one being asked (it
    /// does not replace it).
    fn ask_from_table(&mut self, question: Question) {
        if let Mode::Asking(asked) = self.mode {
            self.questions.wait(question, asked);
            return;
        }
        self.board.pick = None;
        self.mode = Mode::Asking(question);
    }

    /// Once a question is answered: the next one waiting that still stands (the draw
    /// still offered, the take-back still asked) is put.
    pub(super) fn ask_next_waiting(&mut self) {
        if matches!(self.mode, Mode::Asking(_)) {
            return;
        }
        let runtime = &self.runtime;
        let stands = |question| match question {
            Question::Draw(by) => runtime.session().game().draw_offer() == Some(by),
            Question::RemoteUndo(by) => runtime.table().is_some_and(|t| t.undo_asked == Some(by)),
            _ => false,
        };
        if let Some(question) = self.questions.next(stands) {
            self.board.pick = None;
            self.mode = Mode::Asking(question);
        }
    }

    /// At a table, a question about its game (a draw offered or to offer, a take-back,
    /// resigning, leaving it) goes once the game is over or the line to the server is
    /// gone: its answer could only be refused (a draw offer stayed asked on a board
    /// whose game had ended on time and whose server had gone). The news that ended it
    /// is the status line's; where none is shown, the end or the line gone is said.
    pub(super) fn withdraw_question_gone_with_game(&mut self) {
        let Mode::Asking(question) = self.mode else {
            return;
        };
        let about_the_game = matches!(
            question,
            Question::Draw(_)
                | Question::OfferDraw
                | Question::RemoteUndo(_)
                | Question::Undo
                | Question::Resign(_)
                | Question::WhoResigns
                | Question::ClaimDraw(_)
                | Question::LeaveTable
        );
        let gone = self.play_over() || self.server_line_gone();
        if self.runtime.table().is_none() || !about_the_game || !gone {
            return;
        }
        self.mode = Mode::Board;
        self.questions = WaitingQuestions::default();
        if self.status.message.is_some() {
            return;
        }
        match self.game().result() {
            Some(outcome) => self.status.info(format!("{outcome}.")),
            None if self.server_line_gone() => self.status.say(Tone::Error, LINE_GONE_NOTE),
            None => self
                .status
                .info(format!("{}.", crate::tui::view::ABANDONED_HEAD)),
        }
    }

    /// `'`: the chat line, in a game across the network.
    pub(super) fn open_chat(&mut self) {
        let Some(table) = self.runtime.table() else {
            self.status
                .error("The chat is for a game across the network (checkers host, join)");
            return;
        };
        // A LAN host's spectators listen; a server's talk too (the host would refuse
        // the line only once it is typed).
        if table.seat == crate::runtime::Seat::Spectator && !table.at_server {
            self.status
                .error("You are watching: at a host's table only its players talk");
            return;
        }
        // A server takes shorter lines than a LAN host: the field stops where the
        // line's receiver would refuse or cut it.
        let most = if table.at_server {
            crate::server::protocol::MAX_SAID
        } else {
            crate::net::protocol::MAX_CHAT_CHARS
        };
        self.board.pick = None;
        self.mode = Mode::Chat(TextField::new("", most));
    }

    /// Enter on the chat line: the line is said.
    pub(super) fn send_chat(&mut self) {
        let Mode::Chat(TextField { text, .. }) = std::mem::replace(&mut self.mode, Mode::Board)
        else {
            return;
        };
        if let Err(e) = self.runtime.command(Command::Chat(text)) {
            self.status.error(super::capitalize(&e.to_string()));
        }
    }

    /// The chat line closed at a LAN host still waiting for its player, with nothing
    /// else to say: the status line says again what it waits for (opening the line
    /// cleared it, and it stayed empty).
    pub(super) fn say_host_still_waits(&mut self) {
        if self.status.message.is_some() {
            return;
        }
        if let Some(head) = self.host_waiting_head() {
            let help = super::status::help_words(&self.runtime);
            self.status.info(format!("{head}. {help}."));
        }
    }

    /// Whether the server ended this board's game as abandoned (unrated, no result):
    /// play is over though the position has no winner.
    pub(crate) fn abandoned_at_server(&self) -> bool {
        self.runtime.table().is_some_and(|t| t.abandoned.is_some())
    }

    /// Whether play is over on this board: the game has a result, or the server
    /// ended it as abandoned. Nobody is then to move, and no capture is owed.
    pub(crate) fn play_over(&self) -> bool {
        self.game().is_over() || self.abandoned_at_server()
    }

    /// Whether this board's line to the server is gone (the server let this player
    /// go, a ban or a kick, or the network failed): nothing played here reaches the
    /// server any more, only saving, help and leaving work.
    pub(crate) fn server_line_gone(&self) -> bool {
        self.runtime.table().is_some_and(|t| t.server_gone)
    }

    /// Whether no side is to move on this board: play is over ([`App::play_over`]), the
    /// line to the server is gone, so that nothing played here counts, or the game
    /// waits for a player ([`App::adjourned_head`]: the server's game adjourned, a LAN
    /// host's player not yet joined), so that nothing is played until they are there
    /// (the turn, the capture owed and the draw to claim are no longer this board's to
    /// say).
    pub(crate) fn no_side_to_move(&self) -> bool {
        self.play_over() || self.server_line_gone() || self.adjourned_head().is_some()
    }

    /// At a LAN host's table whose player is not there (not yet joined, or gone and not
    /// back, then named where the host knows them) and whose game is not over: "Waiting for a player to join: give them
    /// checkers join 192.0.2.7:4610 --code maple-4821-river-0937". The host refuses
    /// every move then (it said "Black to move" and offered "Enter pick" all the same).
    pub(crate) fn host_waiting_head(&self) -> Option<String> {
        let table = self.runtime.table()?;
        let crate::runtime::Seat::Host { address, code, .. } = &table.seat else {
            return None;
        };
        if table.connected || self.play_over() {
            return None;
        }
        let remote = self.session().seats().remote_side();
        let who = match remote.and_then(|side| self.session().names().name(side)) {
            Some(name) => crate::text::printable(name, 30),
            None => "a player".to_string(),
        };
        // Not "join again" after moves: a ballot's opening moves are there before
        // anyone joined.
        Some(format!(
            "Waiting for {who} to join: give them checkers join {address} --code {code}"
        ))
    }

    /// At a server's table, where this player's opponent is away and the game waits
    /// for them, its clocks stopped (a moderator disconnected them, or this player came
    /// back to a game adjourned by both leaving): "Adjourned: waiting for bob to come
    /// back". The server refuses every move then, and so does this board. A LAN host
    /// waiting for its player is told so in the same place ([`App::host_waiting_head`]).
    pub(crate) fn adjourned_head(&self) -> Option<String> {
        if let Some(head) = self.host_waiting_head() {
            return Some(head);
        }
        let table = self.runtime.table()?;
        let crate::runtime::Seat::Player(mine) = table.seat else {
            return None;
        };
        let clocks_run = self
            .session()
            .clock()
            .is_some_and(|c| c.running().is_some());
        let waits = table.at_server
            && !table.connected
            && !clocks_run
            && !table.server_gone
            && table.abandoned.is_none()
            && !self.game().is_over();
        if !waits {
            return None;
        }
        let who = match self.session().names().name(!mine) {
            Some(name) => crate::text::printable(name, 30),
            None => "your opponent".to_string(),
        };
        Some(format!("Adjourned: waiting for {who} to come back"))
    }

    /// The panel's turn line where no side moves though the game has no result:
    /// abandoned at the server (a player's ban ends their game so, told to the
    /// opponent, and to the banned player in the ban's words), the line to the server
    /// gone otherwise (a kick, the network), no more moves here; or adjourned there,
    /// waiting for the opponent ([`App::adjourned_head`]).
    pub(crate) fn ended_here_head(&self) -> Option<String> {
        let table = self.runtime.table()?;
        let banned = table
            .let_go
            .as_deref()
            .is_some_and(|why| why.starts_with(crate::server::protocol::BANNED_HEAD));
        if table.abandoned.is_some() || table.server_gone && banned {
            Some(crate::tui::view::ABANDONED_HEAD.to_string())
        } else if table.server_gone {
            Some(NO_MORE_MOVES_HEAD.to_string())
        } else {
            self.adjourned_head()
        }
    }

    /// Whether no move is played here any more though the game has no result (the
    /// server ended it as abandoned, or its line is gone), or none until the opponent
    /// is back (adjourned there), the status then saying so: a move picked up or typed
    /// there would only be refused.
    pub(super) fn refused_as_ended_at_server(&mut self) -> bool {
        let head = if self.server_line_gone() {
            match self.runtime.table().and_then(|t| t.let_go.as_ref()) {
                Some(_) => "The server let you go",
                None => "The line to the server is gone",
            }
        } else if self.abandoned_at_server() {
            crate::tui::view::ABANDONED_HEAD
        } else if let Some(head) = self.host_waiting_head() {
            // Not over: play starts (or goes on) once the player joins, told again how.
            self.board.pick = None;
            self.status
                .error(format!("{head}. No move is played until then"));
            return true;
        } else if let Some(head) = self.adjourned_head() {
            // Not over: the game goes on once the opponent is back.
            self.board.pick = None;
            self.status
                .error(format!("{head}: no move is played until then"));
            return true;
        } else {
            return false;
        };
        self.board.pick = None;
        self.status
            .error(format!("{head}: no more moves here. q leaves the board"));
        true
    }

    /// `q` in a game across the network (at a server, the lobby or resigning; once the
    /// line to the server is gone, only leaving): adjourn (the game is kept, to go on at a later
    /// join) or resign; a spectator, a finished game or one the server ended as
    /// abandoned just goes.
    pub(super) fn ask_leave_table(&mut self) -> Flow {
        let playing = self.session().seats().only_person_here().is_some();
        if !playing || self.play_over() {
            return self.quit_now();
        }
        self.board.pick = None;
        if let Some(table) = self.runtime.table().filter(|t| t.server_gone) {
            // Neither the lobby nor a resignation can be reached: what the server does
            // with the game meanwhile is said, and leaving is all there is to ask. Let
            // go by the server (a kick), the game is what its reason said.
            let note = match &table.let_go {
                Some(reason) => format!("The server let you go: {reason}."),
                None => LINE_GONE_NOTE.to_string(),
            };
            self.status.say(Tone::Error, note);
            self.mode = Mode::Asking(Question::LeaveGoneLine);
            return Flow::Continue;
        }
        // A LAN game before any move of the players' own is not kept (as at one
        // terminal): at either end there is no game to adjourn, nor one worth resigning;
        // leaving is all there is to ask. A server's game stays at the server.
        let at_server = self.runtime.table().is_some_and(|t| t.at_server);
        self.mode = Mode::Asking(if !at_server && self.runtime.unplayed() {
            Question::LeaveUnplayed
        } else {
            Question::LeaveTable
        });
        Flow::Continue
    }
}

/// The panel's turn line once the line to the server is gone (not for a ban, whose
/// game is abandoned): the game may go on there, but not from this board.
pub(crate) const NO_MORE_MOVES_HEAD: &str = "No more moves here";

/// What the server does with a game in play whose player's line is gone, as its lobby
/// does for a player who leaves (or as it does when it stops).
pub(crate) const LINE_GONE_NOTE: &str = "The line to the server is gone: the game goes on \
there, its clocks running, while your opponent is at it, adjourned once neither is (or the server \
stopped); log in to go back.";
