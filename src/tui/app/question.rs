//! Questions on the status line (quit? a new game? who resigns? accept the draw?) and
//! what each answer does.

use super::{Action, Answer, App, Flow, Mode};
use crate::rules::Color;
use crate::runtime::Command;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// A question waiting for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Question {
    /// Quit with a game in progress?
    Quit,
    /// Start a new game? (This one stays saved, unfinished, for `--resume`.)
    NewGame,
    /// Two people play: which side resigns?
    WhoResigns,
    /// The one side a person plays against the computer resigns?
    Resign(Color),
    /// Hand this side, played by a person, to the computer?
    HandOver(Color),
    /// The given side offers a draw: does the other accept?
    Draw(Color),
    /// On the clock, a player asks to take back the last move: does the other agree?
    Undo,
    /// Across the network, the other player (this side) asks to take back the last
    /// move: does this one agree?
    RemoteUndo(Color),
    /// Across the network: leave the game (adjourned, for a later join), or resign?
    LeaveTable,
    /// At a LAN table, host's or joiner's, before any move of the players' own was
    /// played (nothing is kept, so there is nothing to adjourn or resign): leave it?
    LeaveUnplayed,
    /// At a server's table whose line is gone: leave the board (and the program, whose
    /// lobby is gone too)?
    LeaveGoneLine,
    /// Offer the other side a draw?
    OfferDraw,
    /// Claim the draw open (it ends the game)?
    ClaimDraw(crate::rules::DrawReason),
}

/// The keys of a question: y or n, or for "who resigns?" b or w; Esc is no.
pub(super) fn question_action(question: Question, key: &KeyEvent) -> Option<Action> {
    // Alt-y is not y: it answers nothing.
    match (question, crate::tui::keymap::plain_code(key)) {
        (Question::WhoResigns, KeyCode::Char('b' | 'B')) => {
            Some(Action::Answer(Answer::Side(Color::Black)))
        }
        (Question::WhoResigns, KeyCode::Char('w' | 'W')) => {
            Some(Action::Answer(Answer::Side(Color::White)))
        }
        (Question::WhoResigns, KeyCode::Char('n' | 'N') | KeyCode::Esc) => {
            Some(Action::Answer(Answer::No))
        }
        (Question::WhoResigns, _) => None,
        // Only the keys it names answer it: y adjourned, as if it were a yes or no.
        (Question::LeaveTable, KeyCode::Char('a' | 'A')) => Some(Action::Answer(Answer::Yes)),
        (Question::LeaveTable, KeyCode::Char('r' | 'R')) => Some(Action::Answer(Answer::Resign)),
        (Question::LeaveTable, KeyCode::Char('n' | 'N') | KeyCode::Esc) => {
            Some(Action::Answer(Answer::No))
        }
        // Any other letter is told which keys answer.
        (Question::LeaveTable, KeyCode::Char(_)) => Some(Action::Unbound(*key)),
        (Question::LeaveTable, _) => None,
        (Question::LeaveGoneLine, KeyCode::Char('q' | 'Q' | 'y' | 'Y')) => {
            Some(Action::Answer(Answer::Yes))
        }
        (Question::LeaveGoneLine, KeyCode::Char('n' | 'N') | KeyCode::Esc) => {
            Some(Action::Answer(Answer::No))
        }
        (Question::LeaveGoneLine, _) => None,
        (_, KeyCode::Char('y' | 'Y')) => Some(Action::Answer(Answer::Yes)),
        (_, KeyCode::Char('n' | 'N') | KeyCode::Esc) => Some(Action::Answer(Answer::No)),
        _ => None,
    }
}

impl App {
    pub(super) fn answer(&mut self, answer: Answer) -> Flow {
        let flow = self.answer_asked(answer);
        self.ask_next_waiting();
        flow
    }

    fn answer_asked(&mut self, answer: Answer) -> Flow {
        let Mode::Asking(question) = self.mode else {
            return Flow::Continue;
        };
        self.mode = Mode::Board;
        match (question, answer) {
            (Question::Quit, Answer::Yes) => return self.quit_now(),
            (Question::NewGame, Answer::Yes) => self.new_game(),
            (Question::WhoResigns, Answer::Side(color))
            | (Question::Resign(color), Answer::Yes) => {
                self.board.pick = None;
                self.command(Command::Resign(color));
            }
            (Question::HandOver(color), Answer::Yes) => self.toggle_side(color),
            (Question::HandOver(color), _) => {
                self.status.info(format!("A person still plays {color}"));
            }
            (Question::OfferDraw, Answer::Yes) => self.offer_draw(),
            (Question::ClaimDraw(_), Answer::Yes) => {
                let answer = self.runtime.command(Command::ClaimDraw);
                if answer.is_ok() {
                    self.board.pick = None;
                }
                self.show(answer);
            }
            (Question::Draw(_), Answer::Yes) => {
                self.board.pick = None;
                self.command(Command::AcceptDraw);
            }
            (Question::Undo, Answer::Yes) => {
                self.command(Command::UndoAgreed);
            }
            (Question::Undo, _) => self.status.info("The move stands: no take-back"),
            (Question::RemoteUndo(_), answer) => {
                self.command(Command::AnswerUndo(answer == Answer::Yes));
            }
            (
                Question::LeaveTable | Question::LeaveGoneLine | Question::LeaveUnplayed,
                Answer::Yes,
            ) => {
                return self.quit_now();
            }
            (Question::LeaveTable, Answer::Resign) => {
                if let Some(color) = self.session().seats().only_person_here() {
                    self.command(Command::Resign(color));
                }
                return self.quit_now();
            }
            (Question::Draw(_), _) => {
                // At a server, its answer says the offerer was told.
                self.command(Command::DeclineDraw);
            }
            _ => {}
        }
        Flow::Continue
    }
}

/// What a player can do once the game is over: undo the ending, unless a flag fell
/// (time lost is not taken back), or start a new game.
pub(super) fn after_the_end(outcome: crate::rules::Outcome) -> &'static str {
    match outcome {
        crate::rules::Outcome::Win {
            reason: crate::rules::WinReason::Time,
            ..
        } => "n starts a new game.",
        _ => "u undoes, n starts a new game.",
    }
}

impl App {
    /// `u`: on the clock the other player is asked first; otherwise the move is taken
    /// back.
    pub(super) fn ask_undo(&mut self) {
        self.board.pick = None;
        if self.session().undo_needs_consent() {
            self.mode = Mode::Asking(Question::Undo);
        } else {
            self.command(Command::Undo);
        }
    }

    /// `n`: a new game, asked first when a game in progress would be left unfinished.
    pub(super) fn ask_new_game(&mut self) {
        // A finished or unstarted game has nothing to leave unfinished: no question.
        let game = self.game();
        if game.is_over() || game.moves().is_empty() {
            self.new_game();
        } else {
            self.mode = Mode::Asking(Question::NewGame);
        }
    }

    /// `q`: quits at once when there is nothing to lose, else asks first.
    pub(super) fn ask_quit(&mut self) -> Flow {
        // A game under review is the file's, already kept on disk; a game never
        // saved (nothing played since it began: a ballot's moves alone) has
        // nothing to keep, and the question would say it is saved.
        // A match in play asks whatever the board shows, a game just ended included:
        // the match goes on with --resume.
        let game = self.game();
        let never_saved = self.runtime.nothing_to_keep();
        let session = self.session();
        let match_goes_on = session.match_play().is_some() && !session.match_over();
        let done = !match_goes_on && (game.moves().is_empty() || game.is_over());
        if done || session.is_reviewing() || never_saved {
            return self.quit_now();
        }
        self.mode = Mode::Asking(Question::Quit);
        Flow::Continue
    }

    /// `r`: against the computer the person's own side resigns, once confirmed; between
    /// two people the question is which side; with nobody at the board, the session
    /// says why not.
    pub(super) fn ask_resign(&mut self) {
        if let Some(outcome) = self.game().result() {
            self.status
                .error(format!("The game is already over ({outcome})"));
            return;
        }
        let seats = self.session().seats();
        self.board.pick = None;
        if seats.both_computer() {
            let side = self.session().resigning_side();
            self.command(Command::Resign(side));
        } else if let Some(color) = seats.only_person_here() {
            self.mode = Mode::Asking(Question::Resign(color));
        } else {
            self.mode = Mode::Asking(Question::WhoResigns);
        }
    }

    /// `d`: asks first, unless the session would refuse the offer (the game is over,
    /// the computer is to move), which it then says.
    pub(super) fn ask_offer_draw(&mut self) {
        if self.game().is_over() || self.session().computer_to_move().is_some() {
            self.command(Command::OfferDraw);
        } else {
            self.board.pick = None;
            self.mode = Mode::Asking(Question::OfferDraw);
        }
    }

    /// The side to move offers a draw: between people the other is asked at once;
    /// the computer answers.
    fn offer_draw(&mut self) {
        let by = self.position().turn();
        let answer = self.runtime.command(Command::OfferDraw);
        self.board.pick = None;
        // The other side is asked here when a person at this terminal plays it.
        let asked_here = self.session().seats().of(!by) == crate::session::Player::Person;
        if answer.is_ok() && asked_here && self.game().draw_offer() == Some(by) {
            self.mode = Mode::Asking(Question::Draw(by));
        } else {
            self.show(answer);
        }
    }

    /// `c`: asks first when a draw can be claimed (the claim ends the game); otherwise
    /// the session says why not.
    pub(super) fn ask_claim_draw(&mut self) {
        match self.game().available_claim() {
            Some(reason) if self.session().computer_to_move().is_none() => {
                self.board.pick = None;
                self.mode = Mode::Asking(Question::ClaimDraw(reason));
            }
            _ => self.command(Command::ClaimDraw),
        }
    }

    /// Hands `color` to the computer, or back to a person, and says so with the key that
    /// undoes it.
    pub(super) fn toggle_side(&mut self, color: Color) {
        let text = self
            .runtime
            .command(Command::ToggleSeat(color))
            .map(|news| news.to_string())
            .unwrap_or_default();
        let key = if color == Color::Black { 'b' } else { 'w' };
        let again = if self.session().seats().is_computer(color) {
            format!("; {key} hands it back")
        } else {
            format!("; {key} gives it to the computer")
        };
        let waits = if self.session().is_reviewing() && self.session().seats().is_computer(color) {
            " (it waits while you review: Esc to play on)"
        } else {
            ""
        };
        self.status.info(format!("{text}{again}{waits}"));
    }

    /// A new game, as "new game? yes" starts it.
    pub(super) fn new_game(&mut self) {
        let answer = self.runtime.command(Command::NewGame);
        if answer.is_err() {
            // Across the network the host starts it, once the game is over: say so.
            self.show(answer);
            return;
        }
        let side = match self.runtime.table().map(|t| t.seat.clone()) {
            Some(crate::runtime::Seat::Player(side)) => side,
            Some(crate::runtime::Seat::Host { .. }) => self
                .session()
                .seats()
                .only_person_here()
                .unwrap_or(Color::Black),
            _ => self.position().turn(),
        };
        // The host's own side stays at the bottom as the colours change over (its
        // player's board turns the same way).
        if matches!(
            self.runtime.table().map(|t| &t.seat),
            Some(crate::runtime::Seat::Host { .. })
        ) {
            self.board.follow_own_side(side);
        }
        let position = *self.position();
        self.board.start_again(side, &position);
        let words = match self.runtime.table().map(|t| &t.seat) {
            // The colours change over at a table: the host is told its side, as its
            // player is (see [`crate::runtime::new_game_words`]).
            Some(crate::runtime::Seat::Host { .. }) => format!(
                "{}. {}.",
                crate::runtime::new_game_words(side, position.turn()),
                super::status::help_words(&self.runtime)
            ),
            _ => super::status::start_words(&self.runtime),
        };
        self.status.info(words);
    }
}
