//! The game report on screen: the game of the review (or the game just ended) scored
//! on a thread of its own while the screen stays free, the move shown stepped with the
//! arrows (the board follows), the next marked move a key away, and the annotated game
//! saved through the save dialog. Leaving the report stops the scoring.

use super::{Action, App, Mode};
use crate::report::judge::{Judge, Judging};
use crate::report::{Judgement, Report};
use crate::rules::{Move, Position};
use crate::session::Step;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use std::time::Duration;

/// How often the screen looks for new scores while the report is being made.
pub(crate) const REPORT_WATCH: Duration = Duration::from_millis(100);

/// The report screen's state: the game, the scores so far and the move shown.
#[derive(Debug)]
pub(crate) struct ReportView {
    /// The scoring under way; `None` once every position is scored (or for a report
    /// given whole).
    judging: Option<Judging>,
    /// The judgements so far, the start's first.
    judged: Vec<Judgement>,
    /// The game's positions, the start's first.
    positions: Vec<Position>,
    /// The game's moves.
    moves: Vec<Move>,
    /// The report of the scores so far.
    pub(crate) report: Report,
    /// The position shown: plies from the start.
    pub(crate) shown: usize,
}

impl ReportView {
    /// The report of the game from `start` with `moves`, scored by `judge` on a thread.
    pub(crate) fn start(judge: Judge, start: Position, moves: Vec<Move>) -> ReportView {
        let judging = Judging::start(judge, start, moves.clone());
        let mut view = ReportView::from_judgements(start, moves, Vec::new());
        view.judging = Some(judging);
        view
    }

    /// The report of the game from `start` with `moves` from judgements already made
    /// (the screen's tests feed it fixed scores).
    pub(crate) fn from_judgements(
        start: Position,
        moves: Vec<Move>,
        judged: Vec<Judgement>,
    ) -> ReportView {
        let mut positions = vec![start];
        for m in &moves {
            let last = positions[positions.len() - 1];
            positions.push(last.play_unchecked(m));
        }
        let report = Report::new(start, &moves, &judged);
        ReportView {
            judging: None,
            judged,
            positions,
            moves,
            report,
            shown: 0,
        }
    }

    /// Takes the scores that came since the last look; whether there were any.
    pub(crate) fn poll(&mut self) -> bool {
        let Some(judging) = &self.judging else {
            return false;
        };
        let new = judging.take();
        if new.is_empty() {
            return false;
        }
        self.judged.extend(new);
        if self.judged.len() >= self.positions.len() {
            self.judging = None;
        }
        self.report = Report::new(self.positions[0], &self.moves, &self.judged);
        true
    }

    /// Whether the positions are still being scored.
    pub(crate) fn scoring(&self) -> bool {
        self.judging.is_some()
    }

    /// Positions scored so far, and in all.
    pub(crate) fn progress(&self) -> (usize, usize) {
        (self.judged.len(), self.positions.len())
    }

    /// The position shown.
    pub(crate) fn position(&self) -> &Position {
        &self.positions[self.shown.min(self.positions.len() - 1)]
    }

    /// The game's moves.
    pub(crate) fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether this is the report of the game from `start` with `moves`.
    fn is_of(&self, start: &Position, moves: &[Move]) -> bool {
        self.positions[0] == *start && self.moves == moves
    }

    /// Steps the position shown.
    fn step(&mut self, step: Step) {
        let last = self.moves.len();
        self.shown = match step {
            Step::Back => self.shown.saturating_sub(1),
            Step::Forward => (self.shown + 1).min(last),
            Step::Start => 0,
            Step::End => last,
        };
    }

    /// Shows the position after the next marked move (`true`) or the previous one;
    /// whether there was one.
    fn go_to_mark(&mut self, next: bool) -> bool {
        // The move just played to reach the position shown is `shown - 1`.
        let current = self.shown.checked_sub(1);
        let marked: Vec<usize> = self.report.marked().map(|(ply, _)| ply).collect();
        let found = if next {
            marked
                .into_iter()
                .find(|ply| current.is_none_or(|c| *ply > c))
        } else {
            marked
                .into_iter()
                .rev()
                .find(|ply| current.is_some_and(|c| *ply < c))
        };
        match found {
            Some(ply) => {
                self.shown = ply + 1;
                true
            }
            None => false,
        }
    }
}

/// The report screen's keys: the arrows step, Home and End go to the start and the
/// end, `n` and `N` to the next and previous marked move, `s` saves the annotated
/// game, Esc and `q` go back to the board.
pub(super) fn report_action(key: &KeyEvent) -> Option<Action> {
    match crate::tui::keymap::plain_code(key) {
        KeyCode::Left | KeyCode::Up => Some(Action::ReportStep(Step::Back)),
        KeyCode::Right | KeyCode::Down => Some(Action::ReportStep(Step::Forward)),
        KeyCode::Home => Some(Action::ReportStep(Step::Start)),
        KeyCode::End => Some(Action::ReportStep(Step::End)),
        KeyCode::Char('n') => Some(Action::ReportMark(true)),
        KeyCode::Char('N' | 'p') => Some(Action::ReportMark(false)),
        KeyCode::Char('s' | 'S') => Some(Action::OpenSave),
        KeyCode::Esc | KeyCode::Char('q' | 'R') => Some(Action::LeaveReport),
        _ => None,
    }
}

impl App {
    /// `R`: the report of the game under review, or of the game just ended, scored in
    /// the background. A finished report of the same game is shown again at once.
    pub(super) fn open_report(&mut self) {
        let session = self.session();
        let game = session
            .review()
            .map_or(session.game(), |review| &review.recorded);
        if !session.is_reviewing() && !game.is_over() {
            self.status.error(
                "The report is for a finished game or one under review: R once the game is over",
            );
            return;
        }
        if game.moves().is_empty() {
            self.status
                .error("No move was played: there is nothing to report");
            return;
        }
        let (start, moves) = (*game.start(), game.moves().to_vec());
        let kept = self
            .report
            .as_ref()
            .is_some_and(|view| view.is_of(&start, &moves));
        if !kept {
            let judge = Judge::interactive(session.egdb());
            self.report = Some(ReportView::start(judge, start, moves));
        }
        self.board.pick = None;
        self.mode = Mode::Report;
        self.status.info(
            "Game report: each move scored by the engine (and the endgame databases), + Black ahead; n: next marked move",
        );
    }

    /// Shows `view` as the report screen (the screen's tests give it fixed scores).
    #[cfg(test)]
    pub(crate) fn show_report(&mut self, view: ReportView) {
        self.report = Some(view);
        self.mode = Mode::Report;
    }

    /// Esc on the report: back to the board. Unfinished scoring stops (a finished
    /// report is kept, to be shown again at once).
    pub(super) fn leave_report(&mut self) {
        if self.report.as_ref().is_some_and(ReportView::scoring) {
            self.report = None;
        }
        self.mode = Mode::Board;
        self.status
            .info("Back to the board; R shows the report again");
    }

    /// The report screen's actions.
    pub(super) fn report_key(&mut self, action: Action) {
        let Some(view) = &mut self.report else {
            return;
        };
        match action {
            Action::ReportStep(step) => view.step(step),
            Action::ReportMark(next) => {
                let found = view.go_to_mark(next);
                if !found {
                    let which = if next { "after" } else { "before" };
                    self.status
                        .info(format!("No marked move {which} this one (so far)"));
                }
            }
            _ => {}
        }
    }

    /// Takes the report's new scores, if it is being made; whether any came.
    pub(super) fn poll_report(&mut self) -> bool {
        self.report.as_mut().is_some_and(ReportView::poll)
    }

    /// How long the event loop may wait before looking for the report's scores again,
    /// while they are being made.
    pub(super) fn report_wait(&self) -> Option<Duration> {
        self.report
            .as_ref()
            .filter(|view| view.scoring())
            .map(|_| REPORT_WATCH)
    }
}
