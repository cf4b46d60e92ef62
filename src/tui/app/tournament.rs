//! Tournament play on the screen: the clocks' pause, the quit that keeps the time used,
//! and a match: what the players are told when a game ends, and the next game when
//! both are ready (`n`).

use super::App;
use crate::rules::{Color, Outcome};
use crate::runtime::{Answer, Command};
use crate::session::SessionError;
use crate::store::StoreError;

impl App {
    /// `p`: both clocks stop (the board is hidden), or start again.
    pub(super) fn toggle_pause(&mut self) {
        let paused = !self.session().is_paused();
        match self.runtime.command(Command::Pause(paused)) {
            Ok(_) if paused => self
                .status
                .info("Paused: both clocks stopped. p starts them again"),
            Ok(news) => self.status.info(news.to_string()),
            Err(_) => self
                .status
                .info("No clock runs: --clock or --move-timer times a game"),
        }
    }

    /// What the players can do once the game is over: across the network, what the
    /// board's seat allows; in a match, start its next game (or nothing more, when the
    /// match is over); otherwise undo the ending, unless a flag fell (time lost is not
    /// taken back), or start a new game.
    pub(super) fn after_the_end(&self, outcome: Outcome) -> String {
        // Across the network the host starts what comes next; a spectator only looks.
        if let Some(words) = super::status::after_the_end_at_table(&self.runtime) {
            return words.to_string();
        }
        let Some(contest) = self.session().match_play() else {
            return super::question::after_the_end(outcome).to_string();
        };
        if self.session().match_over() {
            return "The match is over: q quits.".to_string();
        }
        format!(
            "n starts game {} of {} when both players are ready.",
            contest.game_index() + 2,
            contest.games()
        )
    }

    /// `text` with, once a match game has ended, what comes next.
    pub(crate) fn with_match_news(&self, text: String) -> String {
        match self.game().result() {
            Some(outcome) if self.session().match_play().is_some() => {
                format!("{text} {}", self.after_the_end(outcome))
            }
            _ => text,
        }
    }

    /// The first message of a match: who plays, and where the games go; or, for a
    /// resumed match whose game has ended, what comes next.
    pub(super) fn match_welcome(&mut self) {
        let Some(contest) = self.session().match_play() else {
            return;
        };
        if let Some(outcome) = self.game().result() {
            self.status
                .info(format!("{outcome}. {}", self.after_the_end(outcome)));
            return;
        }
        let index = contest.game_index();
        let names = self.session().names();
        // The name on the board, else the match's own for that player ("Player A").
        let name = |color: Color| {
            names
                .name(color)
                .map(str::trim)
                .filter(|name| !name.is_empty() && *name != "?")
                .unwrap_or_else(|| contest.name_of(color))
                .to_string()
        };
        let mut text = format!(
            "Match, game {} of {}: {} plays Black, {} White.",
            index + 1,
            contest.games(),
            name(Color::Black),
            name(Color::White),
        );
        if let Some(file) = contest.file() {
            let shown = crate::text::printable(&file.display().to_string(), 100);
            text.push_str(&format!(" Each game is saved in {shown} as it ends."));
        }
        self.status.info(text);
    }

    /// Says that the finished match game was written to the match's file (`Ok`), or
    /// why it could not be (the runtime writes it).
    pub(crate) fn match_game_saved(&mut self, written: Result<std::path::PathBuf, StoreError>) {
        match written {
            Ok(path) => {
                let mut text = self
                    .status
                    .info_shown()
                    .map_or_else(String::new, |text| format!("{text} "));
                if self.session().match_over() {
                    let shown = crate::text::printable(&path.display().to_string(), 100);
                    text.push_str(&format!("The match's games are in {shown}."));
                } else {
                    text.push_str("(Saved.)");
                }
                self.status.info(text);
            }
            Err(why) => self.status.error(format!(
                "The game could not be added to the match's file: {why}. s saves it elsewhere"
            )),
        }
    }

    /// Starts the match's next game (both players are ready).
    pub(super) fn next_match_game(&mut self) {
        let person = self.session().seats().person_against_computer();
        let answer = self.runtime.command(Command::NextGame);
        self.after_next_game(answer, person);
    }

    /// After the match's next game was asked for (`answer`; `person` the side a person
    /// played against the computer before): the board is set for it. A person playing
    /// the computer keeps their side at the bottom of the board as the colours change,
    /// and so do two people (each keeps their side of the screen), unless `--flip`
    /// fixed the board.
    pub(super) fn after_next_game(&mut self, answer: Answer, person: Option<Color>) {
        if answer.is_ok() {
            let seats = self.session().seats();
            let person_moved_over = person.is_some() && seats.person_against_computer() != person;
            let position = *self.position();
            self.board.next_game(
                position.turn(),
                &position,
                person_moved_over,
                seats.people(),
            );
        }
        self.show(answer);
    }

    /// `n` in a match: a game is played out, not abandoned; the next one starts when
    /// the match waits for it.
    pub(super) fn new_game_in_match(&mut self) {
        if self.session().match_over() {
            self.status
                .info("The match is over (the score is in the panel): q quits");
        } else if self.session().match_waits() {
            self.next_match_game();
        } else {
            self.show(Err(SessionError::MatchGameInPlay));
        }
    }
}
