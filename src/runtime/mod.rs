//! A game in play with its side effects, under every front end.
//!
//! The [`Session`] is pure: it knows the rules of play and answers requests. The
//! [`Runtime`] owns it and does what playing also needs: the computer's searches on a
//! thread of their own (move now, progress, results dropped once the game has moved
//! on, a pace between two computers' moves), the autosave after every change and the
//! last save on a signal, the finished match game added to the match's file once, the
//! pause before the next game between two computers, the clock watch with its warnings
//! and flag fall, and saves to a file the players name.
//!
//! A front end hands it [`Command`]s (each answered at once, with no I/O) and, whenever
//! [`wait`](Runtime::wait) says something is due or input came, calls
//! [`poll`](Runtime::poll), which does the I/O and returns the typed [`Event`]s to show.

pub(crate) mod computer;
pub(crate) mod network;
mod saving;

pub(crate) use computer::{Purpose, SearchSpec, Thinking};
pub(crate) use network::{Seat, Table, TableNews, TableView, new_game_words};
pub(crate) use saving::{
    IfExists, LastSave, SaveRequest, Saving, unfinished_games_note, watch_ending_signals,
};

use crate::rules::{Color, Move, Outcome};
use crate::session::{News, SessionError, Step};
use crate::session::{Session, clock_text};
use crate::store::{Appended, Autosaver, StoreError};
use computer::{ComputerPlayer, SearchNews};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The answer to a [`Command`]: what it did, or why it was refused (the game is then
/// unchanged).
pub(crate) type Answer = Result<News, SessionError>;

/// How fast a game between two computers goes, for people watching it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pace {
    /// Each move stays on screen at least this long when the computer plays both sides.
    pub(crate) move_shown: Duration,
    /// A finished match game between two computers stays this long before the next.
    pub(crate) between_games: Duration,
}

impl Pace {
    /// For a board that is watched: moves can be followed, a result read.
    pub(crate) const WATCHED: Pace = Pace {
        move_shown: Duration::from_millis(400),
        between_games: Duration::from_secs(3),
    };

    /// No pause: for a line-by-line front end, whose lines stay on screen.
    pub(crate) const NONE: Pace = Pace {
        move_shown: Duration::ZERO,
        between_games: Duration::ZERO,
    };
}

/// What a front end asks of the game in play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    /// A person plays this move.
    Play(Move),
    /// A person plays the move this text names (`11-15`, `15x22x29`, `c3xe5`).
    PlayText(String),
    /// Take back the last move (or declared ending); against the computer its reply too.
    Undo,
    /// Take back the last move with both players' consent (on the clock).
    UndoAgreed,
    /// Play again the last move taken back.
    Redo,
    /// This side resigns.
    Resign(Color),
    /// The side to move offers a draw.
    OfferDraw,
    /// The pending draw offer is accepted.
    AcceptDraw,
    /// The pending draw offer is declined.
    DeclineDraw,
    /// The side to move claims a draw (repetition or forty moves).
    ClaimDraw,
    /// A hint for the side to move: searched in the background, it comes as
    /// [`Event::Hint`].
    Hint,
    /// The computer plays its best move found so far (or a hint search ends now).
    MoveNow,
    /// Pause both clocks (`true`) or start them again.
    Pause(bool),
    /// A match's next game, once both players are ready.
    NextGame,
    /// A new game from the start (after the ballot's moves, if any).
    NewGame,
    /// A new game from this position (set up in an editor).
    SetUp(crate::rules::Position),
    /// Hands this side to the computer, or back to a person.
    ToggleSeat(Color),
    /// Seats this player at this side (the tests' way to seat a computer at a chosen
    /// level; the front ends toggle a seat).
    #[cfg(test)]
    Seat(Color, crate::session::Player),
    /// The computer one level stronger (`true`) or weaker.
    ChangeLevel(bool),
    /// One step through the record under review.
    Step(Step),
    /// The record under review shown after so many plies.
    StepTo(usize),
    /// Stop reviewing: play on from the position shown.
    LeaveReview,
    /// Open another game of the record file for review.
    OpenGame(usize),
    /// Save the game to a file the players named: done at the next
    /// [`poll`](Runtime::poll), which tells how it went ([`Event::Saved`]).
    SaveAs(SaveRequest),
    /// The players stop for now: the running clock stops and the game is saved, so
    /// `--resume` goes on with the time used so far.
    Adjourn,
    /// A game across the network: answer the other player's request to take back the
    /// last move (agreed or not).
    AnswerUndo(bool),
    /// A game across the network: a line for the chat.
    Chat(String),
}

/// What happened in the game in play, told by [`Runtime::poll`].
#[derive(Debug)]
pub(crate) enum Event {
    /// The computer played (or claimed a draw, or resigned).
    ComputerPlayed {
        /// The side the computer played.
        color: Color,
        /// What it did (the result, if it ended the game, is the game's).
        news: News,
    },
    /// A search went an iteration deeper (told a few times a second at most): the
    /// session's thinking shows how far.
    Thinking,
    /// The hint asked for: "Hint for Black (not played): 11-15 (...)" ([`News::Hint`],
    /// which carries the move).
    Hint(News),
    /// The engine's view of the reviewed position went deeper, or is complete: the
    /// review's score shows it.
    ReviewScore,
    /// A clock reading shown changed (the screen's clocks need drawing again).
    ClockTicked,
    /// A side's time is nearly up: "Black: 10 seconds left" ([`News::TimeLow`]).
    ClockWarning(News),
    /// A flag fell and ended the game ([`News::FlagFell`]).
    FlagFell(News),
    /// The autosave failed (told once, until a save works again): why.
    AutosaveFailed(Arc<StoreError>),
    /// The autosave works again, after a failure: the game is in this file.
    SavedAgain(PathBuf),
    /// The finished match game was added to the match's file, or why not.
    MatchFiled(Result<PathBuf, StoreError>),
    /// A [`Command::SaveAs`] was carried out: how it went.
    Saved {
        /// The save asked for.
        request: SaveRequest,
        /// Whether the file was made or added to, or why not.
        result: Result<Appended, StoreError>,
    },
    /// A [`Command::SaveAs`] asking first found a file in the way: nothing was written.
    SaveWouldReplace(SaveRequest),
    /// The match's next game between two computers began by itself.
    NextGame(Answer),
    /// At the start: unfinished games are saved that `--resume` could continue.
    UnfinishedGames(usize),
    /// The game ended, however it ended (a move, a resignation, a draw, a flag, the
    /// computer's claim): told once, after the news of what ended it (the game holds
    /// the result).
    GameOver,
    /// News of the table, in a game across the network.
    Table(TableNews),
}

/// How often a running search's news is looked for.
const SEARCH_NEWS: Duration = Duration::from_millis(40);

/// How often a running clock is looked at.
const CLOCK_WATCH: Duration = Duration::from_millis(100);

/// How often the line to the other terminals is looked at, for a front end that is not
/// woken by it ([`Runtime::wake_with`]).
const TABLE_WATCH: Duration = Duration::from_millis(10);

/// Shortest time between two progress reports of a search.
const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// What became of a game left at a terminal, said once the board is gone: each front
/// end words it, with its own way of taking a saved game up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Farewell {
    /// Kept unfinished in its file (a match's game over with the next one to come
    /// counts), for a resume to go on with.
    Saved {
        /// A match, not a single game, is kept.
        is_match: bool,
    },
    /// Left at a table across the network: the table's words, which name how to take
    /// the game up (a host's) or sit down again (a joiner's), on the command line
    /// (`terminal`) and on the home screen (`home`: its network page's form).
    Table {
        /// As the terminal says them: the command.
        terminal: String,
        /// As the home screen says them: its entry.
        home: String,
    },
    /// Over, with no match game to come: nothing to go on with.
    Finished,
    /// Never kept in a file (nothing played yet, or saving is off): nothing to go on with.
    NotKept,
}

/// The front end a farewell is said at: each has its own way of taking a game up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Front {
    /// The terminal once the program ends, or plain mode: commands (`checkers
    /// --resume`, `checkers join ...`).
    Terminal,
    /// The home screen, where the program goes on: its entries (`r`, the network
    /// page's join form).
    Home,
}

impl Farewell {
    /// The words that say it at `front` (a saved game is taken up with "checkers
    /// --resume" on the terminal, "r" on the home screen): `None` where there is
    /// nothing to go on with.
    pub(crate) fn words(&self, front: Front) -> Option<String> {
        match self {
            Farewell::Saved { is_match } => Some(format!(
                "The {} is saved: {} continues it.",
                if *is_match { "match" } else { "game" },
                match front {
                    Front::Terminal => "checkers --resume",
                    Front::Home => "r",
                }
            )),
            Farewell::Table { terminal, home } => Some(match front {
                Front::Terminal => terminal.clone(),
                Front::Home => home.clone(),
            }),
            Farewell::Finished | Farewell::NotKept => None,
        }
    }
}

/// A game in play with its side effects. See the [module documentation](self).
#[derive(Debug)]
pub(crate) struct Runtime {
    session: Session,
    computer: ComputerPlayer,
    autosaver: Autosaver,
    pace: Pace,
    /// A hint was asked for at this revision and is still awaited.
    hint_at: Option<u64>,
    /// The hint found, the revision it is for, and its news.
    hint: Option<(u64, Move, News)>,
    /// The running move or hint search's progress, as last reported.
    thinking: Option<Thinking>,
    /// When progress was last told.
    progress_told: Option<Instant>,
    /// The engine's view of the position under review.
    review: Option<Thinking>,
    /// "Move now" asked for, to pass on at the next poll.
    move_now: bool,
    /// A save asked for, to carry out at the next poll.
    save_as: Option<SaveRequest>,
    /// When a match game between two computers ended, while its next waits.
    between_games: Option<Instant>,
    /// The clock readings last told.
    clock_shown: String,
    /// Events made by commands, told at the next poll.
    pending: Vec<Event>,
    /// The game and the result last told as [`Event::GameOver`].
    ended: Option<(u64, Outcome)>,
    /// The game across the network this one is, if it is.
    table: Option<Table>,
    /// The front end is woken when the line tells something: no tick for it.
    line_wakes: bool,
}

impl Runtime {
    /// The game `session`, saved as `saving` says, with `pace` between two computers'
    /// moves and games.
    pub(crate) fn new(session: Session, saving: Saving, pace: Pace) -> Runtime {
        let (autosaver, pending) = saving.start(&session);
        let ended = session_result(&session);
        Runtime {
            session,
            computer: ComputerPlayer::default(),
            autosaver,
            pace,
            hint_at: None,
            hint: None,
            thinking: None,
            progress_told: None,
            review: None,
            move_now: false,
            save_as: None,
            between_games: None,
            clock_shown: String::new(),
            ended,
            pending,
            table: None,
            line_wakes: false,
        }
    }

    /// The game in play.
    pub(crate) fn session(&self) -> &Session {
        &self.session
    }

    /// Carries out `command` at once (with no I/O; a save is done at the next poll). In
    /// a game across the network it is this terminal's player's, for their side only.
    pub(crate) fn command(&mut self, command: Command) -> Answer {
        let answer = match self.table_command(&command) {
            Some(answer) => answer,
            None => self.run_command(command),
        };
        self.told_by_host(&answer);
        let mut flushed = Vec::new();
        self.flush_autosave(&mut flushed);
        self.pending.extend(flushed);
        answer
    }

    /// Carries out `command`, whoever asks it (checked already).
    fn run_command(&mut self, command: Command) -> Answer {
        let session = &mut self.session;
        match command {
            Command::Play(_)
            | Command::PlayText(_)
            | Command::Undo
            | Command::UndoAgreed
            | Command::Redo
            | Command::Resign(_)
            | Command::OfferDraw
            | Command::AcceptDraw
            | Command::DeclineDraw
            | Command::ClaimDraw => play_command(session, command),
            Command::Hint => self.ask_hint(),
            Command::MoveNow => self.ask_move_now(),
            Command::Pause(paused) => {
                if !session.set_paused(paused) {
                    Err(SessionError::NoClock)
                } else if paused {
                    Ok(News::Paused)
                } else {
                    Ok(News::ClocksRun)
                }
            }
            Command::NextGame => session.next_match_game(),
            Command::NewGame => {
                session.new_game();
                Ok(News::NewGame)
            }
            Command::SetUp(position) => {
                session.set_up(position);
                Ok(News::SetUp(position.turn()))
            }
            Command::ToggleSeat(color) => Ok(session.toggle_seat(color)),
            #[cfg(test)]
            Command::Seat(color, player) => {
                session.set_seat(color, player);
                Ok(News::Seated {
                    color,
                    player,
                    adjudicated: None,
                })
            }
            Command::ChangeLevel(stronger) => session.change_level(stronger),
            Command::Step(step) => Ok(News::Review(session.step(step))),
            Command::StepTo(plies) => Ok(News::Review(session.step_to(plies))),
            Command::LeaveReview => session
                .leave_review()
                .map(News::Review)
                .ok_or(SessionError::NotReviewing),
            Command::OpenGame(number) => session
                .open_game(number)
                .map(News::Review)
                .map_err(SessionError::NoGame),
            Command::SaveAs(request) => {
                self.save_as = Some(request);
                Ok(News::Nothing)
            }
            Command::Adjourn => {
                session.adjourn();
                self.autosave(&mut Vec::new());
                Ok(News::Nothing)
            }
            // Only in a game across the network, which answers before this.
            Command::AnswerUndo(_) => Err(SessionError::NothingToUndo),
            Command::Chat(_) => Err(SessionError::NotAcrossTheNetwork),
        }
    }

    fn ask_hint(&mut self) -> Answer {
        self.session.assistance()?;
        let turn = self.session.position().turn();
        if let Some(outcome) = self.session.game().result() {
            return Err(crate::game::DeclareError::Over(outcome).into());
        }
        // A record reviewed at its end: its game is over there, moves left or not.
        if let Some((_, told)) = self.session.review_over() {
            return Err(SessionError::ReviewOver(told));
        }
        if let Some((color, level)) = self.session.computer_to_move() {
            return Err(SessionError::ComputersTurn { color, level });
        }
        if let Some((_, _, news)) = self
            .hint
            .as_ref()
            .filter(|(revision, _, _)| *revision == self.session.revision())
        {
            return Ok(news.clone());
        }
        self.hint_at = Some(self.session.revision());
        Ok(News::LookingForHint(turn))
    }

    fn ask_move_now(&mut self) -> Answer {
        if let Some((color, level)) = self.session.computer_to_move() {
            self.move_now = true;
            return Ok(News::MovingNow { color, level });
        }
        if self.wanted_search().map(|s| s.purpose) == Some(Purpose::Hint) {
            self.move_now = true;
            return Ok(News::HintNow);
        }
        Err(SessionError::NotThinking)
    }

    /// The search the game wants now, if any.
    pub(crate) fn wanted_search(&self) -> Option<SearchSpec> {
        let analysed = self
            .review
            .as_ref()
            .filter(|r| r.done)
            .map(|r| r.spec.revision);
        computer::wanted_search(&self.session, self.hint_at, analysed)
    }

    /// The progress of the move or hint search the game waits for, if one runs.
    pub(crate) fn thinking(&self) -> Option<&Thinking> {
        let wanted = self.wanted_search()?;
        self.thinking.as_ref().filter(|t| t.spec == wanted)
    }

    /// Whether the game waits for the computer's move or a hint: a line-by-line front
    /// end holds its next input until it comes.
    pub(crate) fn awaits_search(&self) -> bool {
        self.wanted_search()
            .is_some_and(|s| s.purpose != Purpose::Review)
    }

    /// The engine's view of the reviewed position on the board, as far as it has got.
    pub(crate) fn review_analysis(&self) -> Option<&Thinking> {
        self.review
            .as_ref()
            .filter(|a| a.spec.revision == self.session.revision() && self.session.is_reviewing())
    }

    /// The hint found for the position on the board, if one was.
    pub(crate) fn current_hint(&self) -> Option<Move> {
        self.hint
            .as_ref()
            .filter(|(revision, _, _)| *revision == self.session.revision())
            .map(|(_, m, _)| *m)
    }

    /// Whether the last autosave failed: the game in progress is not saved.
    pub(crate) fn autosave_failed(&self) -> bool {
        self.autosaver.failed()
    }

    /// The file the game is kept in, once it has one.
    pub(crate) fn autosave_path(&self) -> Option<PathBuf> {
        self.autosaver.path()
    }

    /// What became of the game left at this terminal, for each front end to say in its
    /// own words (see [`Farewell::words`]): kept to go on with (a game or a match), at a
    /// table across the network (its own words: how to take it up or sit down again),
    /// finished, or never kept.
    pub(crate) fn farewell(&self) -> Farewell {
        if self.table().is_some() {
            let words = |front| self.table_left_words(front);
            return match (words(Front::Terminal), words(Front::Home)) {
                (Some(terminal), Some(home)) => Farewell::Table { terminal, home },
                _ => Farewell::Finished,
            };
        }
        let session = self.session();
        if self.autosave_path().is_none() {
            Farewell::NotKept
        } else if session.game().is_over() && !session.match_waits() {
            Farewell::Finished
        } else {
            Farewell::Saved {
                is_match: session.match_play().is_some(),
            }
        }
    }

    /// For a game resumed from a record that stops at a faulty move: the words that
    /// tell the players so, naming the file, the fault and the copy kept of the file.
    pub(crate) fn resumed_fault(&self) -> Option<String> {
        self.autosaver.fault()
    }

    /// Whether the game kept by the autosave has not changed since it began, so nothing
    /// was written (a ballot's moves alone): there is nothing to keep. `false` when the
    /// game is not autosaved at all.
    pub(crate) fn nothing_to_keep(&self) -> bool {
        self.autosaver.untouched()
    }

    /// A handle that makes the last save (on a signal, from another thread).
    pub(crate) fn last_save(&self) -> LastSave {
        let handle = LastSave::default();
        handle.keep(self);
        handle
    }

    /// How long the front end may wait for input before calling [`poll`](Self::poll)
    /// again: `None` when nothing is due until input comes.
    pub(crate) fn wait(&self, now: Instant) -> Option<Duration> {
        if !self.pending.is_empty() || self.save_as.is_some() || self.move_now {
            return Some(Duration::ZERO);
        }
        let mut due: Option<Instant> = None;
        let mut at = |when: Instant| due = Some(due.map_or(when, |d| d.min(when)));
        if self.computer.searching() {
            at(now + SEARCH_NEWS);
        }
        if let Some(held) = self.computer.held_until() {
            at(held);
        }
        if self.wanted_search() != self.computer.current() {
            at(now);
        }
        if let Some(ended) = self.between_games {
            at(ended + self.pace.between_games);
        }
        if self.session.clock().is_some_and(|c| c.running().is_some()) {
            at(now + CLOCK_WATCH);
        }
        if self.table.is_some() && !self.line_wakes {
            at(now + TABLE_WATCH);
        }
        if let Some(Table::Guest(guest)) = &self.table
            && let Some(when) = guest.move_unanswered_at()
        {
            at(when);
        }
        due.map(|d| d.saturating_duration_since(now))
    }

    /// The clocks at `now`, and nothing else: a front end calls this as input arrives, so
    /// that what the input does is timed from then (a search's result that came
    /// meanwhile waits for the next [`poll`](Self::poll), after the input: an undo
    /// pressed while the computer thinks takes back the person's move alone).
    pub(crate) fn tick(&mut self, now: Instant) -> Vec<Event> {
        let mut events = Vec::new();
        self.watch_clocks(now, &mut events);
        events
    }

    /// The program was stopped (Ctrl-Z) at `at` and runs again: the clocks are read at
    /// `at` (a flag that fell before is told), then, at this terminal, held until the
    /// player's first key (see [`Session::hold_clocks`]); across the network the time
    /// is the host's to keep, and goes on (a host stopped long enough for its player's
    /// board to count the line down lets that line go as the board had it, at its next
    /// serving of the table). A search under way starts again, its time
    /// counted from now (a computer without a clock would otherwise find its thinking
    /// time spent by the suspension and play at once). Whether the clocks are held,
    /// and what happened.
    pub(crate) fn hold_clocks_from(&mut self, at: Instant) -> (bool, Vec<Event>) {
        self.computer.restart_running();
        let events = self.tick(at);
        let held = self.table.is_none() && self.session.hold_clocks();
        (held, events)
    }

    /// Does what is due at `now` and returns what happened: the clocks are watched,
    /// the searches' news collected and acted on, a save asked for carried out, the
    /// game autosaved, a finished match game filed, the next game between two computers
    /// begun, and the search the game wants started.
    pub(crate) fn poll(&mut self, now: Instant) -> Vec<Event> {
        let mut events = std::mem::take(&mut self.pending);
        self.watch_clocks(now, &mut events);
        self.collect_searches(now, &mut events);
        self.serve_table(now, &mut events);
        self.carry_out_save(&mut events);
        self.autosave(&mut events);
        self.file_match_game(&mut events);
        self.next_game_between_computers(now, &mut events);
        self.autosave(&mut events);
        // Whoever was to hear of a change has been told: now the disk.
        self.flush_autosave(&mut events);
        let result = session_result(&self.session);
        if result != self.ended {
            self.ended = result;
            if result.is_some() {
                events.push(Event::GameOver);
            }
        }
        let wanted = self.wanted_search();
        let session = &self.session;
        self.computer
            .sync(wanted, |spec| computer::request_for(session, spec));
        if std::mem::take(&mut self.move_now) {
            self.computer.move_now();
        }
        events
    }

    /// The clocks at `now`: a flag fall ends the game, a warning is told, and so is a
    /// change of the readings shown.
    fn watch_clocks(&mut self, now: Instant, events: &mut Vec<Event>) {
        if self.session.clock().is_none() {
            return;
        }
        let flag_waits = match &self.table {
            // The host decides a flag fall, and tells it.
            Some(Table::Guest(_)) => true,
            // Not on time that may be given back to a player whose line went silent.
            Some(Table::Host(host)) => host.flag_waits(now),
            None => false,
        };
        if flag_waits {
            self.session.tick_shown(now);
        } else if let Some(news) = self.session.tick(now) {
            events.push(Event::FlagFell(news));
        }
        if let Some(warning) = self.session.clock_warning() {
            events.push(Event::ClockWarning(warning));
        }
        let mut shown = String::new();
        for color in Color::ALL {
            let left = self.session.time_left(color).unwrap_or_default();
            let running = self.session.clock().and_then(|c| c.running()) == Some(color);
            shown.push_str(&clock_text(left));
            shown.push(if running { '*' } else { ' ' });
        }
        if shown != self.clock_shown {
            self.clock_shown = shown;
            events.push(Event::ClockTicked);
        }
    }

    /// The running search's news: progress told a few times a second, a result acted
    /// on while the game still wants it (dropped otherwise).
    fn collect_searches(&mut self, now: Instant, events: &mut Vec<Event>) {
        let pace = if self.session.seats().both_computer() {
            self.pace.move_shown
        } else {
            Duration::ZERO
        };
        let mut progressed = false;
        for news in self.computer.collect(now, pace) {
            let wanted = self.wanted_search();
            match news {
                SearchNews::Progress(spec, info) if wanted == Some(spec) => {
                    let thinking = Thinking {
                        spec,
                        depth: info.depth,
                        score: info.score,
                        line: info.pv.clone(),
                        done: false,
                    };
                    if spec.purpose == Purpose::Review {
                        self.review = Some(thinking);
                        progressed = true;
                    } else if self
                        .thinking
                        .as_ref()
                        .is_none_or(|t| t.spec != spec || t.depth < info.depth)
                    {
                        self.thinking = Some(thinking);
                        progressed = true;
                    }
                }
                SearchNews::Done(spec, result) if wanted == Some(spec) => {
                    self.thinking = None;
                    self.search_done(spec, &result, events);
                }
                _ => {}
            }
        }
        let due = self
            .progress_told
            .is_none_or(|at| now.saturating_duration_since(at) >= PROGRESS_EVERY);
        if progressed && due {
            self.progress_told = Some(now);
            match (&self.thinking, &self.review) {
                (Some(t), _) if Some(t.spec) == self.wanted_search() => {
                    events.push(Event::Thinking);
                }
                (_, Some(_)) => events.push(Event::ReviewScore),
                _ => {}
            }
        }
    }

    /// The search `spec` ended with `result`: the computer plays, the hint is told, or
    /// the review's score is complete.
    fn search_done(
        &mut self,
        spec: SearchSpec,
        result: &crate::engine::SearchResult,
        events: &mut Vec<Event>,
    ) {
        match spec.purpose {
            Purpose::Move(color) => {
                if let Some(news) = self.session.computer_played(result) {
                    events.push(Event::ComputerPlayed { color, news });
                }
            }
            Purpose::Hint => {
                if let Some((m, news)) = self.session.hint(result) {
                    self.hint_at = None;
                    self.hint = Some((spec.revision, m, news.clone()));
                    events.push(Event::Hint(news));
                }
            }
            Purpose::Review => {
                let done = Thinking {
                    spec,
                    depth: result.depth,
                    score: result.score,
                    line: result.pv.clone(),
                    done: true,
                };
                self.review = Some(done.clone());
                events.push(Event::ReviewScore);
            }
        }
    }

    /// When the computer plays both sides of a match, its next game starts a while
    /// after one ends (see [`Pace::between_games`]).
    fn next_game_between_computers(&mut self, now: Instant, events: &mut Vec<Event>) {
        if !(self.session.match_waits() && self.session.seats().both_computer()) {
            self.between_games = None;
            return;
        }
        let ended = *self.between_games.get_or_insert(now);
        if now.saturating_duration_since(ended) < self.pace.between_games {
            return;
        }
        self.between_games = None;
        events.push(Event::NextGame(self.session.next_match_game()));
    }
}

/// A move, a take-back, an offer, its answer or a resignation: the session's alone, for
/// whichever terminal asks it (the others are refused as not the session's).
fn play_command(session: &mut Session, command: Command) -> Answer {
    match command {
        Command::Play(m) => session.play(&m),
        Command::PlayText(text) => session.play_text(&text),
        Command::Undo => session.undo(),
        Command::UndoAgreed => session.undo_agreed(),
        Command::Redo => session.redo(),
        Command::Resign(color) => session.resign(color),
        Command::OfferDraw => session.offer_draw(),
        Command::AcceptDraw => session.accept_draw(),
        Command::DeclineDraw => session.decline_draw(),
        Command::ClaimDraw => session.claim_draw(),
        _ => Err(SessionError::NotAcrossTheNetwork),
    }
}

/// The game's number in the session and its result, once it has one.
fn session_result(session: &Session) -> Option<(u64, Outcome)> {
    let outcome = session.game().result()?;
    Some((session.game_number(), outcome))
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_runtime() {
        use checkers::engine::Level;
        use checkers::game::Game;
        use checkers::runtime::{Command, Event, Pace, Runtime, Saving};
        use checkers::session::{Player, Seats, Session};
        use std::time::Instant;
        let seats = Seats {
            black: Player::Person,
            white: Player::Computer(Level::MIN),
        };
        let session = Session::new(Game::new()).with_seats(seats);
        let mut runtime = Runtime::new(session, Saving::Off, Pace::NONE);
        let answer = runtime.command(Command::PlayText("11-15".into())).unwrap();
        assert_eq!(answer.to_string(), "Black played 11-15");
        // The computer thinks on its own thread; its move comes as an event.
        let played = loop {
            if let Some(wait) = runtime.wait(Instant::now()) {
                std::thread::sleep(wait);
            }
            let events = runtime.poll(Instant::now());
            if let Some(Event::ComputerPlayed { news, .. }) = events.into_iter().next_back() {
                break news.to_string();
            }
        };
        assert!(played.starts_with("White (level 1) played"), "{played}");
    }
}
