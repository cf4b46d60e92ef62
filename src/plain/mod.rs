//! The line-oriented front end, for screen readers, scripts and dumb terminals.
//!
//! Here are the conversation (`Plain`), its words for each event and its answer to each
//! command line; the position's text and the choice of game are apart (`position.rs`,
//! `choose.rs`).
//!
//! It prints the board as text (square numbers, Black at the bottom) and whose move it
//! is, then reads one move or command per line and answers each with one line: the move
//! played, or why it was refused. Every line is written and flushed as it is made, so a
//! reader (or a file the output goes to) sees each move at once. End of input ends the
//! session cleanly. Everything the game does is the [`Session`]'s; this module only
//! reads lines and writes answers.

use crate::lines::BoundedLine;
use crate::rules::{Color, DrawReason, Move};
use crate::runtime::{
    Answer, Command, Event, IfExists, Pace, Purpose, Runtime, SaveRequest, Saving, Seat, Table,
    TableNews,
};
use crate::session::{Session, Step, clock_text, score_with_size};
use crate::store::{Appended, StoreError};
use crate::text::printable;
mod choose;
mod position;
mod puzzle;

pub(crate) use choose::choose_game;
pub(crate) use position::{board_text_from, pieces_text};
use position::{counts_text, last_move_text};
pub(crate) use puzzle::PlainPuzzles;

use std::collections::VecDeque;
use std::io::{self, BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::time::{Duration, Instant};

/// How much of an input line an answer quotes.
const QUOTED_CHARS: usize = 60;

/// The longest input line read (64 KB): a longer one is read to its end without being
/// kept, and answered with [`too_long`].
const MAX_LINE_BYTES: usize = 64 * 1024;

/// The most input lines waiting for an answer (typed while the computer thinks, read and
/// not yet answered): the reader stops reading until one is answered, so that input
/// that never stops (`yes 11-15 | checkers --plain --white cpu`) waits in its pipe
/// rather than in this program's memory, and no line is lost.
const MAX_WAITING_LINES: usize = 32;

/// The answer to an input line longer than [`MAX_LINE_BYTES`].
fn too_long() -> String {
    format!(
        "That line is longer than {} KB: ignored.",
        MAX_LINE_BYTES / 1024
    )
}

/// The next line of `input` as plain mode reads it: at most [`MAX_LINE_BYTES`] kept
/// (see [`read_bounded_line`](crate::lines::read_bounded_line)); `None` at the end of
/// input.
fn next_line(input: &mut impl BufRead) -> io::Result<Option<crate::lines::BoundedLine>> {
    crate::lines::read_bounded_line(input, MAX_LINE_BYTES)
}

/// The commands, as `help` lists them.
pub(crate) const HELP: &str = "Commands: a move (11-15, 15x22, 15x22x29), undo (undo agreed on the clock or after an agreed draw), redo, board, fen, pieces (by square, in words), status or last (whose move, the last move and what it took, how many pieces each side has), show N (the board after move N of the move list, its pieces in words too; show N. after Black's half, show N... after White's), history (the moves so far, numbered, one move a line), moves (the legal moves), \
                        resign, draw (offer), accept, decline, claim, hint, now (the computer moves at once), thinking \
                        (what it thinks so far), lines N (the N best lines, 1-5), clock, pause, report (the game report: each move scored, mistakes marked with the better move), explore (the moves played from here in Marion Tinsley's games, with their results), puzzle [N] (the puzzles, the game waiting; back returns to it), save FILE, new (another game, once this one is over), next (a match's next game), score, help, quit. \
                        Across the network: say TEXT (the chat), yes or no (a take-back asked), and quit adjourns.";

/// The commands a spectator has, as `help` lists them to one: it follows the game and
/// never acts in it (a move, a draw offer, a resignation or the chat is refused).
pub(crate) const SPECTATOR_HELP: &str = "You are watching: the moves are made at the players' terminals, and their chat shows here. \
                        Commands: board, fen, pieces (by square, in words), show N (the board after move N of the move list; show N. after Black's half, show N... after White's), \
                        history (the moves so far, numbered, one move a line), moves (the legal moves), clock, save FILE, help, quit.";

/// A plain-mode conversation: the game in play (with its computer, saving and clocks)
/// and what is said about it.
pub(crate) struct Plain {
    runtime: Runtime,
    /// When the program was last stopped (Ctrl-Z), until the next look: the clocks
    /// stand still from then (see [`Plain::stopped_at`]).
    stopped_at: Arc<Mutex<Option<Instant>>>,
    /// What to know about a loaded record (which game of the file it is, why it stops
    /// early), said once at the start.
    fault: Option<String>,
    /// Lines said after the board at the start (an unfinished game saved, ...).
    notices: Vec<String>,
    /// The puzzles visited from the game (`puzzle`), kept so `puzzle` goes back to the
    /// one left.
    puzzles: Option<Box<PlainPuzzles>>,
    /// Whether the lines go to the puzzles, the game waiting.
    solving: bool,
    /// Whether the game was over before anything was played here (a finished record
    /// loaded): two computers seated at it have not played it now, so the session does
    /// not end by itself but waits for the reader to look through it.
    over_at_start: bool,
}

impl Plain {
    /// `lines N`: the N best lines of the current position (1 to 5; 3 if not given) in
    /// score order, each with its score in men for Black (as the analysis board shows
    /// it), its depth and its moves, from a search of a second or two to a fixed depth.
    fn best_lines(&self, argument: &str) -> String {
        use crate::engine::{Engine, Limits, SearchRequest, StopFlag};
        let wanted = match argument {
            "" => 3,
            text => match text.parse::<usize>() {
                Ok(n) if (1..=5).contains(&n) => n,
                _ => return format!("lines takes a number from 1 to 5, not {text:?}."),
            },
        };
        if let Err(e) = self.session().assistance() {
            return format!("No lines: {e}.");
        }
        let pos = *self.session().position();
        if pos.legal_moves().is_empty() {
            return format!("No lines: {} has no move.", pos.turn());
        }
        let positions = self.session().game().positions();
        let history = positions[..positions.len().saturating_sub(1)].to_vec();
        let limits = Limits {
            movetime: Some(std::time::Duration::from_secs(2)),
            ..Limits::depth(14)
        };
        let request = SearchRequest::new(pos, limits)
            .with_egdb(self.session().egdb())
            .with_history(history)
            .with_lines(wanted);
        let result = Engine::new(16).search(&request, &StopFlag::new(), |_| {});
        let mut text = format!(
            "Best lines for {} to move (scores in men, + Black ahead):",
            pos.turn()
        );
        for (i, line) in result.lines.iter().enumerate() {
            text.push_str(&format!(
                "\n{}. {} depth {}: {}",
                i + 1,
                crate::session::score_in_men(pos.turn(), line.score),
                result.depth,
                crate::engine::route_line(&line.pv)
            ));
        }
        text
    }

    /// A conversation over `session`, kept as `saving` says ([`Saving::Off`] for
    /// scripts, which must not fill the games folder).
    pub(crate) fn new(mut session: Session, saving: Saving) -> Plain {
        // Plain mode has no review commands: a loaded record is taken up at its end, as
        // recorded (a finished game is over, its result kept), its moves in the move
        // list and `undo` stepping back through them.
        let mut fault = session.review().and_then(|r| r.fault.clone()).map(|f| {
            format!("The record has a faulty move; play goes on from the move before it. {f}")
        });
        // Plain mode has no list to choose from: say which game of a file this is.
        if let Some((file, number)) = session.file()
            && !file.chosen
            && file.len() > 1
        {
            // The file opens at its first game that reads: say so when that is not the
            // first.
            let skipped = if number > 1 {
                format!(
                    " (the games before it do not read: checkers pdn check {} says why)",
                    file.path.display()
                )
            } else {
                String::new()
            };
            let note = format!(
                "This is game {number} of {} in {}{skipped}; --game N opens another.",
                file.len(),
                file.path.display()
            );
            fault = Some(match fault {
                Some(f) => format!("{note} {f}"),
                None => note,
            });
        }
        let mut notices = Vec::new();
        if session.is_reviewing() {
            session.step(Step::End);
            if let Some(words) = recorded_result_words(&session) {
                notices.push(words);
            }
            if session.seats().people() && recorded_by_programs(session.review()) {
                notices.push(
                    "Both sides of this game were played by programs: here you play on for \
                     both (--black cpu --white cpu has the computer play on)."
                        .to_string(),
                );
            }
            session.leave_review_as_recorded();
        }
        let over_at_start = session.game().is_over();
        let runtime = Runtime::new(session, saving, Pace::NONE);
        if let Some(fault) = runtime.resumed_fault() {
            notices.push(fault);
        } else if let Some(path) = runtime.autosave_path() {
            notices.push(format!(
                "Continuing the game saved in {}.",
                printable(&path.display().to_string(), 300)
            ));
        }
        Plain {
            runtime,
            stopped_at: Arc::default(),
            fault,
            notices,
            puzzles: None,
            solving: false,
            over_at_start,
        }
    }

    /// `report`: the game report of the moves so far (see [`crate::report`]), each
    /// position searched for a moment, with a heading saying how long.
    fn report(&self) -> String {
        use crate::report::judge::{INTERACTIVE_MOVETIME_MS, Judge, judge_game};
        let game = self.session().game();
        if game.moves().is_empty() {
            return "No move has been played yet: there is nothing to report.".to_string();
        }
        let judge = Judge::interactive(self.session().egdb());
        let stop = crate::engine::StopFlag::new();
        // Nothing raises the stop flag, so every position is judged.
        let judged =
            judge_game(&judge, *game.start(), game.moves(), &stop, |_| {}).unwrap_or_default();
        let report = crate::report::Report::new(*game.start(), game.moves(), &judged);
        let names = self.session().names();
        format!(
            "Game report, each position searched {INTERACTIVE_MOVETIME_MS} ms:\n{}",
            crate::report::words::report_text(
                &report,
                [names.black.as_deref(), names.white.as_deref()]
            )
            .trim_end()
        )
    }

    /// `explore`: the opening explorer's moves from the current position in the built-in
    /// collection, as `checkers explore` prints them.
    fn explore(&self) -> String {
        let game = self.session().game();
        crate::commands::explore::moves_text(crate::explorer::builtin(), game.start(), game.moves())
            .trim_end()
            .to_string()
    }

    /// The game in play.
    pub(crate) fn session(&self) -> &Session {
        self.runtime.session()
    }

    /// The conversation over a game played across the network at `table`.
    pub(crate) fn at_table(mut self, table: Table) -> Plain {
        self.runtime = self.runtime.at_table(table);
        self
    }

    /// The game in play, with its side effects (for the last save on a signal).
    pub(crate) fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// Which side this terminal plays in a game across the network, said at the start
    /// (as the full screen's first words say it): a joiner is told its side and who
    /// plays the other, a spectator that it watches. Nothing at one terminal, nor at
    /// the host (who chose its side).
    fn seat_intro(&self) -> Option<String> {
        match self.runtime.table()?.seat {
            Seat::Player(mine) => {
                let other = match self.session().names().name(!mine) {
                    Some(name) => printable(name, 60),
                    None => "the host".to_string(),
                };
                Some(format!(
                    "You play {mine}; {other} plays {} at the other terminal.",
                    !mine
                ))
            }
            Seat::Spectator => {
                Some("You are watching: moves are made at the players' terminals.".to_string())
            }
            Seat::Host { .. } => None,
        }
    }

    /// Whether this terminal watches a game across the network (it never acts in it).
    fn watching(&self) -> bool {
        self.runtime
            .table()
            .is_some_and(|table| table.seat == Seat::Spectator)
    }

    /// What a match is, said at the start: the players, the games, the file.
    fn match_intro(&self) -> Option<String> {
        let contest = self.session().match_play()?;
        let names = contest.names();
        let mut text = format!(
            "A match of {} games between {} and {}: colours change after each game. Game {} of {}.",
            contest.games(),
            names[0],
            names[1],
            contest.game_index() + 1,
            contest.games()
        );
        if let Some(file) = contest.file() {
            text.push_str(&format!(
                " Each game is added to {} as it ends.",
                printable(&file.display().to_string(), 400)
            ));
        }
        Some(text)
    }

    /// Whether the game is busy without the players: the computer is thinking (or a
    /// hint is searched), or two computers are between a match's games. Input waits.
    pub(crate) fn busy(&self) -> bool {
        let session = self.session();
        self.runtime.awaits_search() || (session.seats().both_computer() && session.match_waits())
    }

    /// Whether two computers play and have nothing more to play: they played the game
    /// to its end here (a finished game loaded is not theirs to end: it waits to be
    /// looked through).
    fn computers_done(&self) -> bool {
        let session = self.session();
        session.seats().both_computer()
            && session.game().is_over()
            && !session.match_waits()
            && !self.over_at_start
    }

    /// Waits while the computer is to move (the whole game when it plays both sides,
    /// every game of a match), writing each move, claim or resignation to `out` on a
    /// line of its own, with the state of the game after it, flushed as soon as the
    /// move is played and saved.
    #[cfg(test)]
    pub(crate) fn computer_moves(&mut self, out: &mut dyn Write) -> io::Result<()> {
        loop {
            for line in self.news(Instant::now()) {
                writeln!(out, "{line}")?;
            }
            out.flush()?;
            if !self.busy() {
                return Ok(());
            }
            if let Some(wait) = self.runtime.wait(Instant::now()) {
                std::thread::sleep(wait);
            }
        }
    }

    /// Where the program's stop (Ctrl-Z) is to be noted, by the watcher of its signals:
    /// the time it stopped at.
    pub(crate) fn stopped_at(&self) -> Arc<Mutex<Option<Instant>>> {
        Arc::clone(&self.stopped_at)
    }

    /// After a stop (Ctrl-Z) since the last look: the clocks read at the time it
    /// stopped, then, at this terminal, paused from then, so that the time stopped is
    /// charged to no one (across the network the host keeps the time). What to say of
    /// it: a flag that fell before, or the clocks paused.
    fn hold_clocks_if_stopped(&mut self) -> Vec<String> {
        let Some(at) = self
            .stopped_at
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take()
        else {
            return Vec::new();
        };
        let (held, events) = self.runtime.hold_clocks_from(at);
        let mut said: Vec<String> = events
            .into_iter()
            .filter_map(|event| self.words(event))
            .collect();
        if held {
            said.push(format!(
                "The clocks stopped while the game was suspended; type pause to start them \
                 again. {}",
                self.status()
            ));
        }
        said
    }

    /// What the runtime has to tell at `now`, in lines: the computer's moves and
    /// hints, the clocks' warnings and flag fall, saves and the match's file.
    pub(crate) fn news(&mut self, now: Instant) -> Vec<String> {
        let events = self.runtime.poll(now);
        events
            .into_iter()
            .filter_map(|event| self.words(event))
            .collect()
    }

    /// The line that tells `event`, if it is worth one.
    fn words(&self, event: Event) -> Option<String> {
        let shown = |path: &Path| printable(&path.display().to_string(), 400);
        Some(match event {
            Event::ComputerPlayed { news, .. } => format!("{news}. {}", self.status()),
            Event::Hint(news) => format!("{news}. {}", self.status()),
            // The status after each move says the result.
            Event::Thinking | Event::ReviewScore | Event::ClockTicked | Event::GameOver => {
                return None;
            }
            Event::ClockWarning(warning) => format!("{warning}."),
            Event::FlagFell(_) => format!("Time is up. {}", self.status()),
            Event::AutosaveFailed(why) => format!(
                "Autosave failed: {}. Play goes on; save FILE keeps the game.",
                printable(&why.to_string(), 400)
            ),
            Event::SavedAgain(path) => format!("The game is saved again, in {}.", shown(&path)),
            Event::MatchFiled(Ok(path)) => format!("The game is added to {}.", shown(&path)),
            Event::MatchFiled(Err(e)) => format!(
                "The game could not be added to the match's file: {}. save FILE keeps it.",
                printable(&e.to_string(), 400)
            ),
            Event::Saved { request, result } => {
                let name = printable(&request.path.display().to_string(), QUOTED_CHARS);
                match result {
                    Ok(Appended::Created) => format!("Saved to {name}."),
                    Ok(Appended::Added) => format!("Added the game at the end of {name}."),
                    Err(e) => format!("Cannot save: {}.", printable(&e.to_string(), 400)),
                }
            }
            // Plain mode's saves add to an existing file: nothing is asked.
            Event::SaveWouldReplace(_) => return None,
            Event::NextGame(answer) => self.reply("start the next game", answer),
            Event::UnfinishedGames(n) => crate::runtime::unfinished_games_note(n, "quit"),
            Event::Table(news) => return self.table_words(news),
        })
    }

    /// The line that tells the table's news, in a game across the network.
    fn table_words(&self, news: TableNews) -> Option<String> {
        Some(match news {
            TableNews::Joined { color, name } => {
                let who =
                    name.map_or_else(|| "The other player".to_string(), |n| printable(&n, 60));
                format!("{who} joined, playing {color}. {}", self.status())
            }
            // A game without clocks has none to stop.
            TableNews::Left { color, why } => format!(
                "{color}'s line dropped{}: {}the game waits for them to join again.",
                why.map(|why| format!(" ({why})")).unwrap_or_default(),
                match self.session().clock() {
                    Some(_) => "the clocks are stopped and ",
                    None => "",
                }
            ),
            TableNews::TookOver { color, given_back } => format!(
                "{color}'s line went silent and its player is back on a new line ({given_back})."
            ),
            TableNews::LineDown(why) => format!(
                "The line to the host dropped ({why}): {}trying again.",
                match self.session().clock() {
                    Some(_) => "the clocks are stopped; ",
                    None => "",
                }
            ),
            TableNews::LineUp => format!("Connected to the host. {}", self.status()),
            TableNews::Lost(why) => format!(
                "The host refused this terminal: {why}. Quit, then join again (with the new code)."
            ),
            TableNews::Told(text) => {
                // The host's words may end with the result the status would say again.
                let text = text.trim_end_matches('.');
                let status = self.status();
                let said = self.session().game().result().map(|o| format!("{o}."));
                let status = match said {
                    Some(outcome) if text.contains(outcome.trim_end_matches('.')) => status
                        .strip_prefix(&outcome)
                        .unwrap_or(&status)
                        .trim()
                        .to_string(),
                    _ => status,
                };
                // Nor the draw offer they tell (it was said twice in one line).
                let status = match self.session().game().draw_offer() {
                    Some(offer) if text.contains("offers a draw") => {
                        status.replace(&offer_clause(offer), "")
                    }
                    _ => status,
                };
                if status.is_empty() {
                    format!("{text}.")
                } else {
                    format!("{text}. {status}")
                }
            }
            TableNews::Refused(why) => format!("Refused: {why}. {}", self.status()),
            TableNews::Chat { from, text } => format!("{from} says: {text}"),
            TableNews::UndoAsked(color) => {
                let moves = self.session().asked_take_back(color);
                let words = crate::session::take_back_words(&moves, !color);
                format!("{color} asks to take back {words}: type yes or no.")
            }
            // The host's news of the offer says it.
            TableNews::DrawOffered(_) => return None,
            TableNews::Adjourned(text) => format!("{}.", crate::text::capitalized(&text)),
            TableNews::WrongCode(wrong) => format!("{wrong}."),
            TableNews::Waiting(why) => {
                format!("The host refused this terminal for now ({why}): trying again.")
            }
            // Plain mode tells no count of spectators (a line each time one came or
            // went would bury the game's own).
            TableNews::Watching(_) => return None,
        })
    }

    /// The side at the bottom of the board: White for the player of White across the
    /// network, whose board is turned to their side; Black otherwise.
    fn bottom(&self) -> Color {
        let here = self.session().seats().only_person_here();
        match self.runtime.table() {
            Some(_) if here == Some(Color::White) => Color::White,
            _ => Color::Black,
        }
    }

    /// Whether the other player asks this terminal to take back a move.
    fn undo_asked_here(&self) -> bool {
        let Some(view) = self.runtime.table() else {
            return false;
        };
        let mine = match view.seat {
            Seat::Host { .. } => self.session().seats().only_person_here(),
            Seat::Player(color) => Some(color),
            Seat::Spectator => None,
        };
        mine.is_some_and(|mine| view.undo_asked == Some(!mine))
    }

    /// Both clocks, in a timed game: `Black 4:59 (running), White 5:00`.
    pub(crate) fn clocks(&self) -> Option<String> {
        let session = self.session();
        let clock = session.clock()?;
        let reading = |color: Color| {
            let left = session.time_left(color).unwrap_or_default();
            let running = if clock.running() == Some(color) {
                " (running)"
            } else {
                ""
            };
            format!("{color} {}{running}", clock_text(left))
        };
        Some(format!(
            "{}, {}",
            reading(Color::Black),
            reading(Color::White)
        ))
    }

    /// What the game state is, in one sentence: the result, or who is to move and
    /// anything they must know (a compulsory capture, a draw claim they may make), and
    /// the clocks in a timed game.
    pub(crate) fn status(&self) -> String {
        let mut status = self.game_status();
        if let Some(view) = self.runtime.table()
            && !view.connected
        {
            let session = self.session();
            let over = session.game().result().is_some();
            status.push_str(match view.seat {
                // A finished game waits for nobody; a match's next game does.
                Seat::Host { .. } if over && session.match_waits() => {
                    " The next game waits for the other player to join."
                }
                Seat::Host { .. } if over => "",
                Seat::Host { .. } => " The game waits for the other player to join.",
                _ if view.server_gone => " The line to the server is gone.",
                _ if view.line_down => " Your line to the host is down: trying again.",
                _ => " The line to the other player is down.",
            });
        }
        status
    }

    fn game_status(&self) -> String {
        let session = self.session();
        let game = session.game();
        if let Some(outcome) = game.result() {
            let mut s = format!("{outcome}.");
            if let Some(news) = session.match_news() {
                s.push_str(&format!(" {news}."));
            }
            if session.match_waits() && !session.seats().both_computer() {
                s.push_str(" Type next when both players are ready.");
            } else if session.match_play().is_none()
                && self.runtime.table().is_none()
                && !session.seats().both_computer()
            {
                // What a player can do next, where nothing else says it.
                s.push_str(" Type new for another game.");
            }
            return s;
        }
        let pos = game.position();
        let mut s = match session.match_play() {
            Some(contest) => format!("{} ({}) to move", pos.turn(), contest.name_of(pos.turn())),
            None => format!("{} to move", pos.turn()),
        };
        if let Some(clocks) = self.clocks() {
            s.push_str(&format!("; clocks: {clocks}"));
            if session.is_paused() && self.runtime.table().is_some() {
                s.push_str(" (stopped while the other player is away)");
            } else if session.is_paused() {
                s.push_str(" (paused: type pause to go on)");
            }
        }
        if !pos.capturers().is_empty() {
            s.push_str(", a capture is compulsory");
        }
        if let Some(offer) = game.draw_offer() {
            s.push_str(&offer_clause(offer));
        }
        if let Some(reason) = game.available_claim()
            && self.may_claim_here(pos.turn())
        {
            let why = match reason {
                DrawReason::Repetition => "threefold repetition",
                DrawReason::FortyMoves => "forty-move rule",
                // Neither is ever claimed; named all the same.
                DrawReason::Agreement | DrawReason::AsRecorded => "agreement",
            };
            s.push_str(&format!("; a draw may be claimed ({why}): type claim"));
        }
        s.push('.');
        s
    }

    /// Whether a person at this terminal plays `turn`, and so may claim a draw for it:
    /// not the computer's side, nor one played at another terminal.
    fn may_claim_here(&self, turn: Color) -> bool {
        let seats = self.session().seats();
        if seats.is_computer(turn) {
            return false;
        }
        match self.runtime.table().map(|view| &view.seat) {
            None => true,
            Some(Seat::Player(mine)) => *mine == turn,
            Some(Seat::Spectator) => false,
            Some(Seat::Host { .. }) => !seats.is_remote(turn),
        }
    }

    /// A runtime answer as a line: the news and the state of the game after it, or why
    /// the request was refused (`Cannot undo: nothing to take back.`).
    fn reply(&self, what: &str, answer: Answer) -> String {
        match answer {
            // Sent to the host, whose news tells what it did.
            Ok(crate::session::News::Sent) => String::new(),
            // The result says who resigned: "White wins: Black resigned." (not "Black
            // resigns. White wins: ..."), as the full-screen game says it.
            Ok(crate::session::News::Resigned(_)) if self.session().game().is_over() => {
                self.status()
            }
            Ok(text) => format!("{text}. {}", self.status()),
            // The refusal says what was refused: "No draw can be claimed: ...", not
            // "Cannot claim a draw: no draw can be claimed: ...".
            Err(e @ crate::session::SessionError::Declare(crate::game::DeclareError::NoClaim)) => {
                format!(
                    "{}. {}",
                    crate::text::capitalized(&e.to_string()),
                    self.status()
                )
            }
            Err(e) => format!("Cannot {what}: {e}. {}", self.status()),
        }
    }

    /// `show N`: the pieces in words and the board after move `N` of the move list (both halves of it, or
    /// Black's alone if White has not replied), `show N.` after Black's half and `show
    /// N...` after White's, as PDN numbers them; `show 0` the start. The game itself is
    /// not changed.
    fn show(&self, argument: &str) -> String {
        let game = self.session().game();
        let start = *game.start();
        let played = game.moves().len();
        let moves = crate::game::full_moves(&start, played);
        let (digits, half) = match argument.strip_suffix("...") {
            Some(number) => (number, Some(Color::White)),
            None => match argument.strip_suffix('.') {
                Some(number) => (number, Some(Color::Black)),
                None => (argument, None),
            },
        };
        let Ok(number) = digits.trim().parse::<usize>() else {
            return "Show which move? Type show and its number in the move list, as in show 5 \
                    (after both halves of move 5), show 5. (after Black's) or show 5... \
                    (after White's); show 0 is the start."
                .to_string();
        };
        // Whether the ply at `ply` is of the move (or the half) asked for, or before it.
        let asked = |ply: usize| {
            let (n, color) = crate::game::move_number(&start, ply);
            (n == number && half.is_none_or(|h| h == color), n < number)
        };
        let plies = (0..played)
            .filter(|ply| {
                let (this, before) = asked(*ply);
                this || before
            })
            .count();
        if number > 0 && !(0..played).any(|ply| asked(ply).0) {
            let last = game
                .route_pairs()
                .last()
                .map_or_else(String::new, |pair| format!(" ({pair})"));
            let plural = if moves == 1 { "" } else { "s" };
            return match half {
                _ if moves == 0 => format!(
                    "There is no move {argument} yet: no move has been played; show 0 shows the start."
                ),
                Some(color) if number <= moves => {
                    // White's half of the last move may be still to come.
                    let yet = if color == Color::White { " yet" } else { "" };
                    format!(
                        "Move {number} has no {color} half{yet}{last}: show {number} shows the whole move."
                    )
                }
                _ => format!(
                    "There is no move {argument} yet: the move list has {moves} move{plural}{last}; \
                     show 0 to show {moves}."
                ),
            };
        }
        let pos = &game.positions()[plies];
        // The pieces in words first, for a screen reader, then the board and FEN.
        format!(
            "{}, {} to move; the game goes on from the last move.\n{}\n{}FEN: {pos}",
            game.shown_text(plies, played),
            pos.turn(),
            pieces_text(pos),
            board_text_from(pos, self.bottom())
        )
    }

    /// Where the game stands, in words, for a player who cannot see the board: the last
    /// move (with what it took and whether it crowned), each side's pieces counted, and
    /// the status (whose move, a compulsory capture, a draw offer, the clocks, the result).
    fn summary(&self) -> String {
        let game = self.session().game();
        let last =
            last_move_text(game).unwrap_or_else(|| "No move has been played yet.".to_string());
        format!("{last} {} {}", counts_text(game.position()), self.status())
    }

    /// `history`: the move list, the moves played so far numbered as a record numbers
    /// them, one move (Black's half and White's) a line, after a line saying how many,
    /// and the state of the game last. A capture gives its route (`24x15x6`), as the
    /// news of the move did.
    fn history(&self) -> String {
        let game = self.session().game();
        let pairs = game.route_pairs();
        if pairs.is_empty() {
            return format!("No move has been played yet. {}", self.status());
        }
        let plural = if pairs.len() == 1 { "" } else { "s" };
        let mut text = format!("The game so far, {} move{plural}:", pairs.len());
        for pair in &pairs {
            text.push_str(&format!("\n{pair}"));
        }
        text.push_str(&format!("\n{}", self.status()));
        text
    }

    /// What the computer is thinking, on request: its depth and verdict so far.
    fn thinking(&self) -> String {
        let Some(spec) = self.runtime.wanted_search() else {
            return "The computer is not thinking.".to_string();
        };
        let who = match spec.purpose {
            Purpose::Move(color) => format!("{color} is thinking"),
            Purpose::Hint | Purpose::Review => "Looking for a hint".to_string(),
        };
        match self.runtime.thinking().filter(|t| t.depth > 0) {
            // Without assistance the players hear how deep, not what it thinks.
            Some(t) if !self.session().assist() => {
                format!(
                    "{who}: depth {}; type now to have the move at once.",
                    t.depth
                )
            }
            Some(t) => {
                let pos = self.session().position();
                let line = match &t.line[..t.line.len().min(8)] {
                    [] => String::new(),
                    shown => format!("; best line {}", crate::engine::route_line(shown)),
                };
                format!(
                    "{who}: depth {}, {}{line}; type now to have the move at once.",
                    t.depth,
                    score_with_size(pos.turn(), t.score)
                )
            }
            None => format!("{who}; type now to have the move at once."),
        }
    }

    /// Answers one line of input. Returns the answer (lines, or the board for `board`)
    /// and whether the session should end. In a timed game a flag fall since the last
    /// line is told first; what the request made the runtime do (a save, the autosave,
    /// a match's file) is told after the answer.
    pub(crate) fn answer(&mut self, line: &str) -> (String, bool) {
        let mut said = self.hold_clocks_if_stopped();
        let events = self.runtime.tick(Instant::now());
        said.extend(events.into_iter().filter_map(|event| self.words(event)));
        let (reply, done) = self.answer_line(line);
        if !reply.is_empty() {
            said.push(reply);
        }
        if !done {
            said.extend(self.news(Instant::now()));
        }
        (said.join("\n"), done)
    }

    fn answer_line(&mut self, line: &str) -> (String, bool) {
        if self.solving {
            return (self.puzzle_line(line), false);
        }
        let line = line.trim();
        let (command, argument) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        let reply = match command.to_ascii_lowercase().as_str() {
            "quit" | "exit" => {
                self.adjourn();
                return (self.goodbye(), true);
            }
            "help" | "?" if self.watching() => SPECTATOR_HELP.to_string(),
            "help" | "?" => HELP.to_string(),
            "say" if self.runtime.table().is_some() => {
                match self.runtime.command(Command::Chat(argument.to_string())) {
                    Ok(_) => String::new(),
                    Err(e) => format!("Cannot say that: {e}."),
                }
            }
            "yes" | "no" if self.undo_asked_here() => {
                let agreed = command.eq_ignore_ascii_case("yes");
                let answer = self.runtime.command(Command::AnswerUndo(agreed));
                match answer {
                    Ok(crate::session::News::Nothing) => {
                        format!("The move stands. {}", self.status())
                    }
                    answer => self.reply("answer", answer),
                }
            }
            "hint" => {
                let answer = self.runtime.command(Command::Hint);
                // The hint itself is told when it is found.
                if answer.is_ok() && self.runtime.awaits_search() {
                    String::new()
                } else {
                    match answer {
                        Ok(text) => format!("{text}. {}", self.status()),
                        Err(e) => format!("No hint: {e}. {}", self.status()),
                    }
                }
            }
            "now" => {
                let answer = self.runtime.command(Command::MoveNow);
                match answer {
                    Ok(text) => format!("{text}."),
                    Err(e) => format!("Cannot move now: {e}."),
                }
            }
            "thinking" => self.thinking(),
            "report" => self.report(),
            "explore" => self.explore(),
            "lines" => self.best_lines(argument),
            "puzzle" | "puzzles" => self.open_puzzles(argument),
            "new" => self.new_game(),
            "next" => {
                let answer = self.runtime.command(Command::NextGame);
                self.reply("start the next game", answer)
            }
            "score" => match self.session().match_score_text() {
                Some(score) => format!("{score}."),
                None => "This is not a match (--match N plays one).".to_string(),
            },
            "pause" => {
                let paused = !self.session().is_paused();
                match self.runtime.command(Command::Pause(paused)) {
                    Ok(_) if paused => format!(
                        "Paused: both clocks stopped; type pause to start them again. {}",
                        self.status()
                    ),
                    Ok(_) => format!("The clocks run again. {}", self.status()),
                    Err(_) => "No clock runs (--clock or --move-timer times a game).".to_string(),
                }
            }
            "clock" => match self.clocks() {
                Some(clocks) => format!("{clocks}."),
                None => "This game is not timed (--clock or --move-timer times one).".to_string(),
            },
            "board" => {
                let opening = crate::session::game_opening_name(self.session().game())
                    .map(|name| format!("Opening: {name}. "))
                    .unwrap_or_default();
                format!(
                    "{}{opening}{}",
                    board_text_from(self.session().position(), self.bottom()),
                    self.status()
                )
            }
            "fen" => format!("FEN: {}", self.session().position()),
            "pieces" => pieces_text(self.session().position()),
            "status" | "last" => self.summary(),
            "show" => self.show(argument),
            "history" => self.history(),
            "moves" => {
                let pos = self.session().position();
                // Each by its route (`9x18x25`), as the history and the screen give it.
                let moves: Vec<String> = pos.legal_moves().iter().map(Move::to_string).collect();
                if self.session().game().is_over() || moves.is_empty() {
                    format!("No legal moves. {}", self.status())
                } else {
                    format!("Legal moves: {}.", moves.join(", "))
                }
            }
            "draw" => {
                let answer = self.runtime.command(Command::OfferDraw);
                match self.session().game().draw_offer() {
                    _ if matches!(answer, Ok(crate::session::News::Sent)) => String::new(),
                    // Between people the offer waits: the answer is the other's to give.
                    Some(by) => format!("{by} offers a draw; {}, answer accept or decline.", !by),
                    None => self.reply("offer a draw", answer),
                }
            }
            "undo" if argument.eq_ignore_ascii_case("agreed") => {
                let answer = self.runtime.command(Command::UndoAgreed);
                self.reply("undo", answer)
            }
            "undo" if self.session().undo_needs_consent() && self.session().agreed_draw() => {
                format!(
                    "A draw both players agreed is taken back only when both agree: type undo \
                     agreed if you both do. {}",
                    self.status()
                )
            }
            "undo" if self.session().undo_needs_consent() => format!(
                "On the clock a move is taken back only when both players agree: type undo \
                 agreed if you both do. {}",
                self.status()
            ),
            word if let Some((what, command)) = self.session_request(word) => {
                let answer = self.runtime.command(command);
                self.reply(what, answer)
            }
            "save" if argument.is_empty() => {
                "Cannot save: give a file name, as in save game.pdn.".to_string()
            }
            "save" => {
                let request = SaveRequest {
                    path: PathBuf::from(argument),
                    players: self.session().names().clone(),
                    existing: IfExists::Append,
                    annotations: None,
                };
                // Told by the news that follows: where it went, or why not.
                let _ = self.runtime.command(Command::SaveAs(request));
                String::new()
            }
            "" => return (String::new(), false),
            _ if !line.chars().any(|c| c.is_ascii_digit()) => format!(
                "'{}' is not a move or a command; type help for the list.",
                printable(line, QUOTED_CHARS)
            ),
            _ if self.session().is_paused() && self.runtime.table().is_none() => format!(
                "The clocks are paused: type pause to start them again, then move. {}",
                self.status()
            ),
            _ => match self.runtime.command(Command::PlayText(line.to_string())) {
                Ok(crate::session::News::Sent) => String::new(),
                Ok(text) => format!("{text}. {}", self.status()),
                Err(e) => {
                    let mut status = self.status();
                    // A move after the end: the refusal names the outcome already.
                    if let Some(outcome) = self.session().game().result()
                        && let Some(rest) = status.strip_prefix(&format!("{outcome}."))
                    {
                        status = rest.trim_start().to_string();
                    }
                    let gap = if status.is_empty() { "" } else { " " };
                    format!(
                        "Refused {}: {}.{gap}{status}",
                        printable(line, QUOTED_CHARS),
                        printable(&e.to_string(), 400),
                    )
                }
            },
        };
        (reply, false)
    }

    /// `new`: another game with the same players, once this one is over (or before a
    /// move is played); a game in play is not dropped by one word. A match's games come
    /// with `next`, and across the network the host starts the next game.
    fn new_game(&mut self) -> String {
        let session = self.session();
        if session.match_play().is_some() {
            return format!(
                "A match's next game comes with next, once this one is over. {}",
                self.status()
            );
        }
        let game = session.game();
        if !game.is_over() && !game.moves().is_empty() {
            return format!(
                "Cannot start a new game: this one is not over (resign ends it; quit keeps \
                 it for checkers --resume). {}",
                self.status()
            );
        }
        match self.runtime.command(Command::NewGame) {
            Ok(crate::session::News::Sent) => String::new(),
            Ok(_) => format!(
                "New game.\n{}{}",
                board_text_from(self.session().position(), self.bottom()),
                self.status()
            ),
            Err(e) => format!("Cannot start a new game: {e}. {}", self.status()),
        }
    }

    /// What a session request (undo, redo, resign, accept, decline, claim) is called when
    /// refused ("Cannot undo: ..."), and its command, for the word `word`.
    fn session_request(&self, word: &str) -> Option<(&'static str, Command)> {
        Some(match word {
            "undo" => ("undo", Command::Undo),
            "redo" => ("redo", Command::Redo),
            "resign" => ("resign", Command::Resign(self.session().resigning_side())),
            "accept" => ("accept", Command::AcceptDraw),
            "decline" => ("decline", Command::DeclineDraw),
            "claim" => ("claim a draw", Command::ClaimDraw),
            _ => return None,
        })
    }

    /// The players stop (a quit, or the end of input): the running clock's time used so
    /// far is kept in the autosave.
    pub(crate) fn adjourn(&mut self) {
        let _ = self.runtime.command(Command::Adjourn);
    }

    /// The last words: and whether the game in progress is kept.
    fn goodbye(&self) -> String {
        match self.unsaved() {
            Some(why) => format!("Goodbye. The game is NOT saved: {why}."),
            None => match self.kept() {
                Some(kept) => format!("Goodbye. {kept}"),
                None => "Goodbye.".to_string(),
            },
        }
    }

    /// Where an unfinished game left at this terminal goes on (`Runtime::farewell`),
    /// taken up with `--resume` from the command line.
    fn kept(&self) -> Option<String> {
        self.runtime
            .farewell()
            .words(crate::runtime::Front::Terminal)
    }

    /// Why the game is not saved, if it is not: the autosave failed, and a last try
    /// failed too.
    pub(crate) fn unsaved(&self) -> Option<Arc<StoreError>> {
        self.runtime.unsaved()
    }

    /// The players are done: the game is saved a last time and its file let go. Why
    /// the game is not saved, if it is not.
    pub(crate) fn finish(&mut self) -> Option<Arc<StoreError>> {
        self.runtime.finish()
    }
}

/// The status's words of `offer`'s standing draw offer, as a clause after who moves
/// ("; Black offers a draw (accept or decline)").
fn offer_clause(offer: Color) -> String {
    format!("; {offer} offers a draw (accept or decline)")
}

/// What a loaded record's result was, where its last position does not show it (a
/// resignation, a flag fall, an agreed draw), and how to play on from that position. `None` for a record without a result, or
/// one whose last position ends the game (the status says that result).
fn recorded_result_words(session: &Session) -> Option<String> {
    let review = session.review()?;
    if review.recorded.position().outcome().is_some() {
        return None;
    }
    let meaning = match review.tag("Result")?.trim() {
        "1-0" => "1-0 (Black won)",
        "0-1" => "0-1 (White won)",
        "1/2-1/2" => "1/2-1/2 (a draw)",
        _ => return None,
    };
    // The status after the board says the ending in the same words ("White
    // resigned"); a record's own words (an adjudication) are said here.
    let said = review.recorded.result().map(|o| o.to_string());
    let how = session
        .review_ending()
        .filter(|ending| {
            review.fault.is_some() || !said.as_ref().is_some_and(|s| s.contains(ending.as_str()))
        })
        .map_or_else(String::new, |ending| format!(": {ending}"));
    // A record cut short at a faulty move goes on from the move before it (the fault's
    // words say so); a whole one is over, as the full screen's review shows it.
    let then = if review.fault.is_some() {
        ""
    } else {
        " The game is over: undo takes its ending back, to play on from its last position."
    };
    Some(format!("The record ends {meaning}{how}.{then}"))
}

/// Whether `review`'s record says programs played both sides (`BlackType` and
/// `WhiteType` "program").
fn recorded_by_programs(review: Option<&crate::session::Review>) -> bool {
    review.is_some_and(|review| {
        ["BlackType", "WhiteType"].iter().all(|tag| {
            review
                .tags
                .iter()
                .any(|(name, value)| name == tag && value.trim() == "program")
        })
    })
}

/// A game loaded for plain mode (`--load`), which has no review: it is played on from
/// its end at once, so a game between programs is given to people at this terminal,
/// who look through it and play on for both sides, rather than to the programs, who
/// would play on by themselves (and end the session) before anything could be read.
/// `--black` or `--white` (`seats_asked`) seat whom they name instead.
pub(crate) fn loaded_seats(session: Session, seats_asked: bool) -> Session {
    if session.is_reviewing() && session.seats().both_computer() && !seats_asked {
        session.with_seats(crate::session::Seats::PEOPLE)
    } else {
        session
    }
}

/// Why a plain session stopped short: its input could not be read, or its output not
/// written (`?` on a write gives [`Failure::Output`]).
#[derive(Debug)]
pub(crate) enum Failure {
    /// Standard input (the lines of moves) could not be read.
    Input(io::Error),
    /// Standard output could not be written.
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Output(e)
    }
}

/// Whether `line` is asked of the computer while it thinks, answered at once rather than
/// held until its move (`now`, `thinking`).
fn is_for_the_thinker(line: &str) -> bool {
    matches!(
        line.trim().to_ascii_lowercase().as_str(),
        "now" | "thinking"
    )
}

/// Runs a plain session: the board and status first, then one answer per input line
/// until `quit` or the end of input. A line that is not valid UTF-8 is read with the
/// faulty bytes replaced, and answered like any other. Every answer is flushed at once.
/// While the computer thinks, lines wait for its move, except `now` (move at once) and
/// `thinking` (its progress); meanwhile the clocks are watched: a flag fall is told
/// (and saved) at once, and so is a warning that time is nearly up. At the end of
/// input, a game that could not be saved is said to be lost.
pub(crate) fn run(
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
    plain: &mut Plain,
) -> Result<(), Failure> {
    // A spectator types no move: it is told where to find what it can do.
    let first = if plain.watching() {
        "Checkers (plain mode). Type help for the commands."
    } else {
        "Checkers (plain mode). Type a move such as 11-15, or help."
    };
    writeln!(out, "{first}")?;
    if let Some(note) = &plain.fault {
        writeln!(out, "{note}")?;
    }
    if let Some(seat) = plain.seat_intro() {
        writeln!(out, "{seat}")?;
    }
    if let Some(intro) = plain.match_intro() {
        writeln!(out, "{intro}")?;
    }
    if let Some(opening) = plain.session().ballot() {
        writeln!(
            out,
            "{}. The game starts after its three moves.",
            crate::session::ballot_text(opening)
        )?;
    }
    write!(
        out,
        "{}",
        board_text_from(plain.session().position(), plain.bottom())
    )?;
    writeln!(out, "{}", plain.status())?;
    // A board joining again gets the table's chat so far: said as it was.
    if let Some(view) = plain.runtime().table() {
        for (from, text) in &view.chat {
            writeln!(out, "{from} says: {text}")?;
        }
    }
    for notice in std::mem::take(&mut plain.notices) {
        writeln!(out, "{notice}")?;
    }
    out.flush()?;
    let (lines, wake, waiting) = read_lines(input);
    // Only a terminal echoes what is typed, so only there is the cursor left after a
    // line cut by the end of input.
    let at_terminal = std::io::stdin().is_terminal() && std::io::stdout().is_terminal();
    // Across the network the line wakes the wait below (once until it is taken), so a
    // peer's move is told at once.
    let (waker, rung) = crate::net::wake_once(wake, || Input::Woken);
    plain.runtime.wake_with(waker);
    let mut held: VecDeque<String> = VecDeque::new();
    let mut input_ended = false;
    loop {
        for said in plain.hold_clocks_if_stopped() {
            writeln!(out, "{said}")?;
        }
        for news in plain.news(Instant::now()) {
            writeln!(out, "{news}")?;
        }
        out.flush()?;
        if plain.computers_done() {
            break;
        }
        if !plain.busy() {
            if let Some(line) = held.pop_front() {
                waiting.answered();
                let (reply, done) = plain.answer(&line);
                if !reply.is_empty() {
                    writeln!(out, "{reply}")?;
                    out.flush()?;
                }
                if done {
                    return Ok(());
                }
                continue;
            }
            if input_ended {
                break;
            }
        }
        let wait = plain.runtime.wait(Instant::now());
        if input_ended {
            std::thread::sleep(wait.unwrap_or(Duration::from_millis(10)));
            continue;
        }
        let received = match wait {
            Some(wait) => lines.recv_timeout(wait),
            None => lines
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Input::Woken) => rung.taken(),
            Ok(Input::Ended) => input_ended = true,
            Ok(Input::Line(line, broken)) => {
                // Ctrl-D after a partly typed line leaves the cursor after it: the
                // answer starts on a line of its own.
                if !broken && at_terminal {
                    writeln!(out)?;
                }
                let line = match line.map_err(Failure::Input)? {
                    BoundedLine::Text(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    BoundedLine::TooLong(_) => {
                        waiting.answered();
                        writeln!(out, "{}", too_long())?;
                        out.flush()?;
                        continue;
                    }
                };
                if plain.busy() && is_for_the_thinker(&line) {
                    waiting.answered();
                    let (reply, _) = plain.answer(&line);
                    writeln!(out, "{reply}")?;
                    out.flush()?;
                } else {
                    held.push_back(line);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => input_ended = true,
        }
    }
    // The end of input, or the computer played the whole game.
    plain.adjourn();
    if let Some(why) = plain.unsaved() {
        writeln!(out, "The game is NOT saved: {why}.")?;
    } else if let Some(kept) = plain.kept() {
        writeln!(out, "{kept}")?;
    }
    out.flush()?;
    Ok(())
}

/// What the wait for input is ended by: a line typed (or the input's failure), the end
/// of input, or the line across the network telling something.
enum Input {
    /// A line typed, or the input's failure, and whether it ended with a line break
    /// (not cut by the end of input).
    Line(io::Result<BoundedLine>, bool),
    /// The input ended.
    Ended,
    /// The line across the network has news.
    Woken,
}

/// The count of input lines read and not yet answered, shared by the thread that reads
/// them and the loop that answers them: at [`MAX_WAITING_LINES`] the reader waits for
/// an answer before it reads on.
#[derive(Clone, Default)]
struct Waiting {
    /// Lines sent by the reader and not yet answered (in the channel, or held), and the
    /// signal that one was answered.
    lines: Arc<(Mutex<usize>, Condvar)>,
}

impl Waiting {
    /// The reader has a line to send: waits while [`MAX_WAITING_LINES`] are waiting,
    /// then counts it.
    fn admit(&self) {
        let (lines, answered) = &*self.lines;
        let mut waiting = lock(lines);
        while *waiting >= MAX_WAITING_LINES {
            waiting = answered.wait(waiting).unwrap_or_else(|e| e.into_inner());
        }
        *waiting += 1;
    }

    /// A line sent is answered: room for another.
    fn answered(&self) {
        let (lines, answered) = &*self.lines;
        let mut waiting = lock(lines);
        *waiting = waiting.saturating_sub(1);
        answered.notify_one();
    }

    /// Whether the reader would wait before sending another line.
    #[cfg(test)]
    fn full(&self) -> bool {
        *lock(&self.lines.0) >= MAX_WAITING_LINES
    }
}

/// `mutex` locked, even if a thread panicked holding it (a count stays a count).
fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

/// The lines of `input` (without their newline), read on a thread of their own so the
/// clocks and the computer can be watched while none comes; the channel closes at the
/// end of input. At most [`MAX_WAITING_LINES`] wait unanswered (see [`Waiting`]): the
/// reader waits for an answer before sending more. The input's failure always goes
/// through.
fn read_lines(
    input: impl BufRead + Send + 'static,
) -> (mpsc::Receiver<Input>, mpsc::Sender<Input>, Waiting) {
    let (send, lines) = mpsc::channel();
    let wake = send.clone();
    let waiting = Waiting::default();
    let counted = waiting.clone();
    std::thread::spawn(move || {
        let mut input = input;
        loop {
            let (line, broken) =
                match crate::lines::read_bounded_line_and_end(&mut input, MAX_LINE_BYTES) {
                    Ok(Some((line, broken))) => (Ok(line), broken),
                    Ok(None) => {
                        // Said, not left to the channel's closing: the network's waker
                        // holds a sender too, so at a table the channel never closes.
                        let _ = send.send(Input::Ended);
                        return;
                    }
                    Err(e) => (Err(e), true),
                };
            let failed = line.is_err();
            if !failed {
                counted.admit();
            }
            if send.send(Input::Line(line, broken)).is_err() || failed {
                return;
            }
            // A line cut by the end of input was its last: a terminal, whose end of
            // input (Ctrl-D) is not for good, is not read again after it.
            if !broken {
                let _ = send.send(Input::Ended);
                return;
            }
        }
    });
    (lines, wake, waiting)
}

#[cfg(test)]
mod tests {
    use super::{HELP, MAX_WAITING_LINES, Plain, Waiting};
    use crate::game::Game;
    use crate::runtime::Saving;
    use crate::session::Session;

    /// A conversation over a new game between two people, kept nowhere.
    fn two_people() -> Plain {
        Plain::new(Session::new(Game::new()), Saving::Off)
    }

    /// `moves` gives a multi-jump by its route, as the history does: "9x18x25" (it said
    /// "9x25", the record's short form).
    #[test]
    fn moves_gives_a_multi_jump_by_its_route() {
        let start = "B:W14,22:B9".parse().unwrap();
        let mut plain = Plain::new(Session::new(Game::from_position(start)), Saving::Off);
        let (answer, _) = plain.answer("moves");
        assert_eq!(answer, "Legal moves: 9x18x25.");
    }

    /// A king each, their moves repeated until the position after them has come three
    /// times, White to move; White's player is the computer at level 3 (`computer`) or
    /// a person.
    fn repeated(computer: bool) -> Plain {
        let start = "W:WK32:BK1".parse().unwrap();
        let mut game = Game::from_position(start);
        for _ in 0..2 {
            for text in ["32-28", "1-5", "28-32", "5-1"] {
                let m = game.position().parse_move(text).unwrap();
                game.play(&m).unwrap();
            }
        }
        let mut seats = crate::session::Seats::PEOPLE;
        if computer {
            let level = crate::engine::Level::new(3).unwrap();
            seats.white = crate::session::Player::Computer(level);
        }
        Plain::new(Session::new(game).with_seats(seats), Saving::Off)
    }

    /// A draw that may be claimed is offered to a person to move, not to the computer
    /// (whose claim is its own to make).
    #[test]
    fn a_draw_claim_is_offered_only_to_a_person_to_move() {
        assert_eq!(
            repeated(false).status(),
            "White to move; a draw may be claimed (threefold repetition): type claim."
        );
        assert_eq!(repeated(true).status(), "White to move.");
    }

    /// `history` says the moves so far, numbered, a move of each side a line, then the
    /// state of the game; `help` names it.
    #[test]
    fn history_says_the_moves_so_far_a_numbered_move_a_line() {
        let mut plain = two_people();
        assert_eq!(
            plain.answer("history").0,
            "No move has been played yet. Black to move."
        );
        for line in ["11-15", "23-19", "8-11"] {
            plain.answer(line);
        }
        assert_eq!(
            plain.answer("history").0,
            "The game so far, 2 moves:\n1. 11-15 23-19\n2. 8-11\nWhite to move."
        );
        assert!(HELP.contains("history ("), "{HELP}");
    }

    /// `history` gives a multi-jump's route (`19x10x1`), as its news did, not the
    /// record's short form (`19x1`).
    #[test]
    fn history_gives_a_multi_jumps_route_as_its_news_did() {
        let start = "W:WK30,21,22,23,26,19:BK2,6,9,11,14,15".parse().unwrap();
        let mut plain = Plain::new(Session::new(Game::from_position(start)), Saving::Off);
        let news = plain.answer("19x1").0;
        assert!(news.starts_with("White played 19x10x1"), "{news}");
        let history = plain.answer("history").0;
        assert!(
            history.starts_with("The game so far, 1 move:\n1. ... 19x10x1\n"),
            "{history}"
        );
        let later = plain.answer("show 2").0;
        assert!(later.contains("(1. ... 19x10x1)"), "{later}");
    }

    /// White to move with three multi-jumps and nothing else (`27x18x9`, `27x18x11`,
    /// `26x19x10`; the record's short forms `27x9`, `27x11`, `26x10`).
    const MULTI_JUMPS: &str = "W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,12,14,15,23";

    /// Whether `word` is a move named by a two-jump route (`27x18x9`), not the record's
    /// short form (`27x9`).
    fn two_jump_route(word: &str) -> bool {
        word.split('x').count() == 3
    }

    /// `lines N` gives each line's multi-jumps by their routes, as `history` does.
    #[test]
    fn best_lines_give_a_multi_jump_by_its_route() {
        let start = MULTI_JUMPS.parse().unwrap();
        let mut plain = Plain::new(Session::new(Game::from_position(start)), Saving::Off);
        let lines = plain.answer("lines 3").0;
        let firsts: Vec<&str> = lines
            .lines()
            .skip(1)
            .filter_map(|line| line.split(": ").nth(1)?.split(' ').next())
            .collect();
        assert_eq!(firsts.len(), 3, "{lines}");
        assert!(firsts.iter().all(|w| two_jump_route(w)), "{lines}");
    }

    /// `thinking` gives the computer's best line so far with a multi-jump by its route.
    #[test]
    fn thinking_gives_a_multi_jump_by_its_route() {
        let start = MULTI_JUMPS.parse().unwrap();
        let mut seats = crate::session::Seats::PEOPLE;
        seats.white = crate::session::Player::Computer(crate::engine::Level::MAX);
        let session = Session::new(Game::from_position(start))
            .with_seats(seats)
            .with_movetime(std::time::Duration::from_secs(60));
        let mut plain = Plain::new(session, Saving::Off);
        let begun = std::time::Instant::now();
        while plain
            .runtime
            .thinking()
            .is_none_or(|t| t.depth == 0 || t.line.is_empty())
        {
            assert!(begun.elapsed().as_secs() < 30, "no progress came");
            plain.runtime.poll(std::time::Instant::now());
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        let said = plain.answer("thinking").0;
        let first = said
            .split("best line ")
            .nth(1)
            .and_then(|line| line.split([' ', ';']).next())
            .unwrap_or_default();
        assert!(two_jump_route(first), "{said}");
    }

    /// The reader counts the lines it sends; at the bound it would wait, and an answer
    /// makes room for exactly one more.
    #[test]
    fn the_reader_waits_at_the_bound_until_a_line_is_answered() {
        let waiting = Waiting::default();
        for _ in 0..MAX_WAITING_LINES - 1 {
            waiting.admit();
        }
        assert!(!waiting.full());
        waiting.admit();
        assert!(waiting.full());
        waiting.answered();
        assert!(!waiting.full());
        waiting.admit();
        assert!(waiting.full());
    }

    /// A reader waiting at the bound goes on once the loop answers a line.
    #[test]
    fn a_waiting_reader_goes_on_when_a_line_is_answered() {
        let waiting = Waiting::default();
        for _ in 0..MAX_WAITING_LINES {
            waiting.admit();
        }
        let reader = waiting.clone();
        let sent = std::thread::spawn(move || reader.admit());
        waiting.answered();
        sent.join().unwrap();
        assert!(waiting.full());
    }
}
