//! What the runtime tells the screen: the computer's moves, hints, search progress, the
//! clocks' news, saves and the match's file; and the keys that ask the computer for
//! something (a hint, move now).

use super::status::AUTOSAVE_FAILED;
use super::{App, Flow, Tone};
use crate::rules::Move;
use crate::runtime::{Command, Event, Purpose, Thinking};
use crate::session::score_with_size;
use std::time::{Duration, Instant};

/// What a poll of the runtime asks of the event loop.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Polled {
    /// Something changed on screen.
    pub(crate) redraw: bool,
    /// A clock warning or a flag fall: the bell, if it is wanted.
    pub(crate) bell: bool,
}

/// Plies of the best line shown while the engine thinks.
const THINKING_LINE_PLIES: usize = 8;

impl App {
    /// Lets the runtime do what is due at `now` and shows what it tells.
    pub(crate) fn poll(&mut self, now: Instant) -> Polled {
        let events = self.runtime.poll(now);
        let mut polled = self.show_events(events);
        polled.redraw |= self.poll_report();
        polled
    }

    /// Gives the runtime the time alone (see [`Runtime::tick`](crate::runtime::Runtime::tick)),
    /// as input arrives, and shows what the clocks say.
    pub(crate) fn tick(&mut self, now: Instant) -> Polled {
        let events = self.runtime.tick(now);
        self.show_events(events)
    }

    /// The program was stopped (Ctrl-Z) at `at` and runs again: at this terminal the
    /// clocks stand still from then until the player's first key, as a resumed game's
    /// do (see [`Runtime::hold_clocks_from`](crate::runtime::Runtime::hold_clocks_from)).
    pub(crate) fn stopped_at(&mut self, at: Instant) -> Polled {
        let (held, events) = self.runtime.hold_clocks_from(at);
        let mut polled = self.show_events(events);
        if held {
            self.held_by_suspension = true;
            // Only a key on the board starts them: not one in a dialog, the help or a
            // move being typed.
            self.status.info(if self.mode == super::Mode::Board {
                "The clocks stopped while the game was suspended: any key starts them"
            } else {
                "The clocks stopped while the game was suspended: a key on the board starts them"
            });
            polled.redraw = true;
        }
        polled
    }

    /// Shows `events`: whether anything changed on screen, and whether to ring the bell.
    fn show_events(&mut self, events: Vec<Event>) -> Polled {
        let mut polled = Polled::default();
        for event in events {
            polled.redraw = true;
            polled.bell |= matches!(event, Event::ClockWarning(_) | Event::FlagFell(_));
            self.on_event(event);
        }
        if polled.redraw {
            self.withdraw_question_gone_with_game();
        }
        polled
    }

    /// How long the event loop may wait for input before polling again (`None`: until
    /// input comes).
    pub(crate) fn wait(&self, now: Instant) -> Option<Duration> {
        match (self.runtime.wait(now), self.report_wait()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// Shows one piece of the runtime's news.
    pub(crate) fn on_event(&mut self, event: Event) {
        match event {
            Event::ComputerPlayed { color, news } => {
                self.hand_over_cursor(color);
                let text = self.news_words(&news);
                let mut text = self.with_match_news(text);
                if !self.game().is_over() {
                    text = self
                        .status
                        .with_person_move(color, self.session().revision(), text);
                }
                // A failed autosave, told once after the person's move, stays with the
                // reply, which comes within a second, before it could be read: else the
                // player learns that the game is not kept only on quitting.
                match self.status.autosave_failure_shown() {
                    Some(failure) => {
                        let failure = failure.to_string();
                        self.status
                            .error(format!("{}. {failure}", text.trim_end_matches('.')));
                    }
                    None => self.status.info(text),
                }
            }
            Event::Hint(news) => self.status.info(format!("{news}.")),
            // The game's end is told with the news that ended it; at a table, with what
            // this board can do next too, whatever came first.
            Event::GameOver => self.tell_end_at_table(true),
            Event::Thinking | Event::ReviewScore | Event::ClockTicked => {}
            Event::ClockWarning(warning) => self.status.say(Tone::Error, warning.to_string()),
            Event::FlagFell(news) => {
                let news = self.with_match_news(news.to_string());
                self.status.say(Tone::Info, news);
            }
            Event::AutosaveFailed(why) => self
                .status
                .say(Tone::Error, format!("{AUTOSAVE_FAILED}{why}")),
            // Said once, in plain mode's words, after what the change itself said.
            Event::SavedAgain(path) => {
                let again = format!(
                    "The game is saved again, in {}.",
                    crate::text::printable(&path.display().to_string(), 400)
                );
                let text = match self.status.info_shown() {
                    Some(news) => format!("{}. {again}", news.trim_end_matches('.')),
                    None => again,
                };
                self.status.info(text);
            }
            Event::MatchFiled(written) => self.match_game_saved(written),
            Event::Saved { request, result } => self.save_finished(request, result),
            Event::SaveWouldReplace(request) => self.save_would_replace(request),
            Event::NextGame(answer) => self.after_next_game(answer, None),
            Event::UnfinishedGames(count) => {
                let note = crate::runtime::unfinished_games_note(count, "q");
                // In the welcome's place: its lead ("Black moves first") stays, the
                // key line under it saying the rest.
                let text = match self.status.info_shown() {
                    Some(welcome) => {
                        let lead = welcome.split([':', '.']).next().unwrap_or_default();
                        format!("{lead}. {note}")
                    }
                    None => note,
                };
                // Notices given at the start are read first: this waits for them.
                self.status.say_after(Tone::Info, text);
            }
            Event::Table(news) => self.on_table(news),
        }
    }

    /// The engine's view of the reviewed position on the board, as far as it has got.
    pub(crate) fn review_analysis(&self) -> Option<&Thinking> {
        self.runtime.review_analysis()
    }

    /// The hint to show on the board: only while the position it is for is on screen.
    pub(crate) fn current_hint(&self) -> Option<Move> {
        self.runtime.current_hint()
    }

    /// The engine's best line so far while the computer thinks or a hint is looked for
    /// ("11-15 24x15x6 8-11", a few moves, a capture by its route as the move list
    /// gives it), when assistance is on.
    pub(crate) fn thinking_line(&self) -> Option<String> {
        let thinking = self.runtime.thinking().filter(|t| t.depth > 0)?;
        if !self.session().assist() || thinking.line.is_empty() {
            return None;
        }
        let shown = &thinking.line[..thinking.line.len().min(THINKING_LINE_PLIES)];
        Some(crate::engine::route_line(shown))
    }

    /// The line saying the computer is thinking, while it is.
    pub(crate) fn thinking_text(&self) -> Option<String> {
        let spec = self.runtime.wanted_search()?;
        let depth = self
            .runtime
            .thinking()
            .filter(|t| t.depth > 0)
            .map(|t| {
                // Without assistance the players see how deep, not what it thinks.
                if !self.session().assist() {
                    return format!(" depth {}", t.depth);
                }
                // In an ending the databases hold, their exact result, not the search's.
                let verdict = self.session().database_verdict().map_or_else(
                    || score_with_size(self.position().turn(), t.score),
                    |v| format!("endgame database: {v}"),
                );
                format!(" depth {} ({verdict})", t.depth)
            })
            .unwrap_or_default();
        Some(match spec.purpose {
            Purpose::Move(color) => format!("{color} is thinking...{depth}"),
            Purpose::Hint => format!("Looking for a hint...{depth}"),
            // Shown in the panel's "Engine:" line instead.
            Purpose::Review => return None,
        })
    }

    pub(super) fn ask_hint(&mut self) {
        self.command(Command::Hint);
    }

    pub(super) fn ask_move_now(&mut self) {
        match self.runtime.command(Command::MoveNow) {
            Ok(news) => self.status.info(news.to_string()),
            Err(_) => self
                .status
                .error("The computer is not thinking: nothing to hurry"),
        }
    }

    /// Quits: the running clock stops first, so the time used up to now is kept in the
    /// autosave (see [`Session::adjourn`](crate::session::Session::adjourn)).
    pub(super) fn quit_now(&mut self) -> Flow {
        let _ = self.runtime.command(Command::Adjourn);
        Flow::Quit
    }

    /// The players are done: the game is saved a last time and its file let go (see
    /// [`Runtime::finish`](crate::runtime::Runtime::finish)). Why it is not saved, if
    /// it is not.
    pub(crate) fn finish(&mut self) -> Option<std::sync::Arc<crate::store::StoreError>> {
        self.runtime.finish()
    }

    /// Whether the game's autosave failed (the quit question says the game is not
    /// saved).
    pub(crate) fn autosave_failed(&self) -> bool {
        self.runtime.autosave_failed()
    }
}
