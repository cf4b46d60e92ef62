//! Questions on the status line (quit? a new game? who resigns? accept the draw?) and
//! what each answer does.

use super::{Action, Answer, App, Flow, Mode, Question, START_CURSORS, WELCOME};
use crate::rules::Color;
use crate::runtime::Command;
use ratatui::crossterm::event::{KeyCode, KeyEvent};

/// The keys of a question: y or n, or for "who resigns?" b or w; Esc is no.
pub(super) fn question_action(question: Question, key: &KeyEvent) -> Option<Action> {
    match (question, key.code) {
        (Question::Resign, KeyCode::Char('b' | 'B')) => {
            Some(Action::Answer(Answer::Side(Color::Black)))
        }
        (Question::Resign, KeyCode::Char('w' | 'W')) => {
            Some(Action::Answer(Answer::Side(Color::White)))
        }
        (Question::Resign, KeyCode::Char('n' | 'N') | KeyCode::Esc) => {
            Some(Action::Answer(Answer::No))
        }
        (Question::Resign, _) => None,
        (_, KeyCode::Char('y' | 'Y')) => Some(Action::Answer(Answer::Yes)),
        (_, KeyCode::Char('n' | 'N') | KeyCode::Esc) => Some(Action::Answer(Answer::No)),
        _ => None,
    }
}

impl App {
    pub(super) fn answer(&mut self, answer: Answer) -> Flow {
        let Mode::Asking(question) = self.mode else {
            return Flow::Continue;
        };
        self.mode = Mode::Board;
        match (question, answer) {
            (Question::Quit, Answer::Yes) => return self.quit_now(),
            (Question::NewGame, Answer::Yes) => self.new_game(),
            (Question::Resign, Answer::Side(color)) => {
                self.pick = None;
                self.command(Command::Resign(color));
            }
            (Question::Draw(_), Answer::Yes) => {
                self.pick = None;
                self.command(Command::AcceptDraw);
            }
            (Question::Undo, Answer::Yes) => {
                self.command(Command::UndoAgreed);
            }
            (Question::Undo, _) => self.info("The move stands: no take-back"),
            (Question::Draw(_), _) => {
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
    /// A new game, as "new game? yes" starts it.
    pub(super) fn new_game(&mut self) {
        let _ = self.runtime.command(Command::NewGame);
        self.pick = None;
        self.resting = START_CURSORS;
        self.cursor = START_CURSORS[0];
        self.info(WELCOME);
    }
}
