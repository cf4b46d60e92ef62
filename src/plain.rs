//! The line-oriented front end, for screen readers, scripts and dumb terminals.
//!
//! It prints the board as text (square numbers, Black at the bottom) and whose move it
//! is, then reads one move or command per line and answers each with one line: the move
//! played, or why it was refused. Every line is written and flushed as it is made, so a
//! reader (or a file the output goes to) sees each move at once. End of input ends the
//! session cleanly. Everything the game does is the [`Session`]'s; this module only
//! reads lines and writes answers.

use crate::engine::{DEFAULT_HASH_MB, Engine, StopFlag};
use crate::rules::{Color, DrawReason, Piece, Position, Square};
use crate::session::{Session, SessionError, Step, clock_text};
use crate::store::{Appended, Autosaver, SavedGame, append_record, expand_home, today};
use crate::text::printable;
use std::io::{self, BufRead, Write};
use std::path::Path;
use std::sync::mpsc;

/// How much of an input line an answer quotes.
const QUOTED_CHARS: usize = 60;

/// The commands, as `help` lists them.
pub const HELP: &str = "Commands: a move (11-15, 15x22, 15x22x29), undo (undo agreed on the clock), redo, board, moves, \
                        resign, draw (offer), accept, decline, claim, hint, clock, pause, save FILE, next (a match's \
                        next game), score, help, quit.";

/// The board as text, Black at the bottom: each dark square shows its number and what
/// stands on it (`b`/`w` a man, `B`/`W` a king).
pub fn board_text(pos: &Position) -> String {
    let rule = "+----".repeat(8) + "+\n";
    let mut out = format!("{:^41}\n{rule}", "White");
    for row in (0..8).rev() {
        for col in 0..8 {
            let cell = match Square::from_row_col(row, col) {
                None => "    ".to_string(),
                Some(sq) => format!("{:>2} {}", sq.number(), glyph(pos.piece_at(sq))),
            };
            out.push('|');
            out.push_str(&cell);
        }
        out.push_str("|\n");
    }
    out.push_str(&rule);
    out.push_str(&format!("{:^41}\n", "Black"));
    out.push_str("b = Black man, B = Black king, w = White man, W = White king\n");
    out
}

fn glyph(piece: Option<Piece>) -> char {
    piece.map_or(' ', Piece::letter)
}

/// A plain-mode conversation: the session, the computer players' engine, the autosave.
pub struct Plain {
    /// The game in play.
    pub session: Session,
    engine: Option<Engine>,
    autosaver: Autosaver,
    /// What to know about a loaded record (which game of the file it is, why it stops
    /// early), said once at the start.
    fault: Option<String>,
    /// Whether the last autosave failed (so a save that works again is news).
    save_failed: bool,
    /// Lines said after the board at the start (an unfinished game saved, ...).
    notices: Vec<String>,
}

impl Plain {
    /// A conversation over `session`, saving through `autosaver` after every change
    /// ([`Autosaver::disabled`] for scripts, which must not fill the games folder).
    pub fn new(mut session: Session, autosaver: Autosaver) -> Plain {
        // Plain mode has no review commands: a loaded record is played on from its end,
        // its moves in the move list and `undo` stepping back through them.
        let mut fault = session.review().and_then(|r| r.fault.clone()).map(|f| {
            format!("The record has a faulty move; play goes on from the move before it. {f}")
        });
        // Plain mode has no list to choose from: say which game of a file this is.
        if let Some((file, number)) = session.file()
            && !file.chosen
            && file.len() > 1
        {
            let note = format!(
                "This is game {number} of {} in {}; --game N opens another.",
                file.len(),
                file.path.display()
            );
            fault = Some(match fault {
                Some(f) => format!("{note} {f}"),
                None => note,
            });
        }
        if session.is_reviewing() {
            session.step(Step::End);
            session.leave_review();
        }
        Plain {
            session,
            fault,
            engine: None,
            autosaver,
            save_failed: false,
            notices: Vec::new(),
        }
    }

    /// What a match is, said at the start: the players, the games, the file.
    fn match_intro(&self) -> Option<String> {
        let contest = self.session.match_play()?;
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

    /// Adds a line said after the board at the start.
    pub fn notice(&mut self, text: impl Into<String>) {
        self.notices.push(text.into());
    }

    fn engine(&mut self) -> &mut Engine {
        self.engine
            .get_or_insert_with(|| Engine::new(DEFAULT_HASH_MB))
    }

    /// Plays the computer's moves while a computer player is to move (the whole game
    /// when it plays both sides); one line per move, claim or resignation, each with the
    /// state of the game after it, written to `out` and flushed as soon as the move is
    /// played and saved.
    pub fn computer_moves(&mut self, out: &mut dyn Write) -> io::Result<()> {
        loop {
            while self.session.computer_to_move().is_some() {
                let mut engine = self
                    .engine
                    .take()
                    .unwrap_or_else(|| Engine::new(DEFAULT_HASH_MB));
                self.tick();
                let played = self.session.move_request().map(|request| {
                    let result = engine.search(&request, &StopFlag::new(), |_| {});
                    // The computer's thinking time counts on its clock.
                    let flag = self.tick().map(|_| "Time is up. ".to_string());
                    self.session
                        .computer_played(&result)
                        .map(|text| format!("{text}. "))
                        .or(flag)
                });
                self.engine = Some(engine);
                let Some(Some(text)) = played else {
                    break;
                };
                // Saved before it is told: what the output shows is on disk.
                let warning = self.autosave();
                writeln!(out, "{text}{}", self.status())?;
                if let Some(warning) = warning {
                    writeln!(out, "{warning}")?;
                }
                out.flush()?;
            }
            // Two computer players are always ready for a match's next game.
            if !(self.session.seats().both_computer() && self.session.match_waits()) {
                return Ok(());
            }
            let answer = self.session.next_match_game();
            let reply = self.reply("start the next game", answer);
            let warning = self.autosave();
            writeln!(out, "{reply}")?;
            if let Some(warning) = warning {
                writeln!(out, "{warning}")?;
            }
            out.flush()?;
        }
    }

    /// The time is now, for the clocks: the news of a flag fall, once.
    fn tick(&mut self) -> Option<String> {
        self.session.tick(std::time::Instant::now())
    }

    /// Both clocks, in a timed game: `Black 4:59 (running), White 5:00`.
    pub fn clocks(&self) -> Option<String> {
        let clock = self.session.clock()?;
        let reading = |color: Color| {
            let left = self.session.time_left(color).unwrap_or_default();
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
    pub fn status(&self) -> String {
        let game = self.session.game();
        if let Some(outcome) = game.result() {
            let mut s = format!("{outcome}.");
            if let Some(news) = self.session.match_news() {
                s.push_str(&format!(" {news}."));
            }
            if self.session.match_waits() && !self.session.seats().both_computer() {
                s.push_str(" Type next when both players are ready.");
            }
            return s;
        }
        let pos = game.position();
        let mut s = match self.session.match_play() {
            Some(contest) => format!("{} ({}) to move", pos.turn(), contest.name_of(pos.turn())),
            None => format!("{} to move", pos.turn()),
        };
        if let Some(clocks) = self.clocks() {
            s.push_str(&format!("; clocks: {clocks}"));
            if self.session.is_paused() {
                s.push_str(" (paused: type pause to go on)");
            }
        }
        if !pos.capturers().is_empty() {
            s.push_str(", a capture is compulsory");
        }
        if let Some(offer) = game.draw_offer() {
            s.push_str(&format!("; {offer} offers a draw (accept or decline)"));
        }
        if let Some(reason) = game.available_claim() {
            let why = match reason {
                DrawReason::Repetition => "threefold repetition",
                DrawReason::FortyMoves => "forty-move rule",
                DrawReason::Agreement => "agreement",
            };
            s.push_str(&format!("; a draw may be claimed ({why}): type claim"));
        }
        s.push('.');
        s
    }

    /// A session answer as a line: the news and the state of the game after it, or why
    /// the request was refused (`Cannot undo: nothing to take back.`).
    fn reply(&self, what: &str, answer: Result<String, SessionError>) -> String {
        match answer {
            Ok(text) => format!("{text}. {}", self.status()),
            Err(e) => format!("Cannot {what}: {e}. {}", self.status()),
        }
    }

    /// Answers one line of input. Returns the answer (one line, or the board for
    /// `board`) and whether the session should end. In a timed game a flag fall since
    /// the last line is told first.
    pub fn answer(&mut self, line: &str) -> (String, bool) {
        match self.tick() {
            Some(news) => {
                let warning = self.autosave();
                let (reply, done) = self.answer_line(line);
                let mut text = news;
                if let Some(warning) = warning {
                    text.push_str(&format!("\n{warning}"));
                }
                if !reply.is_empty() {
                    text.push_str(&format!("\n{reply}"));
                }
                (text, done)
            }
            None => self.answer_line(line),
        }
    }

    fn answer_line(&mut self, line: &str) -> (String, bool) {
        let line = line.trim();
        let (command, argument) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        let session = &mut self.session;
        let reply = match command.to_ascii_lowercase().as_str() {
            "quit" | "exit" => {
                self.adjourn();
                return (self.goodbye(), true);
            }
            "help" | "?" => HELP.to_string(),
            "hint" => self.hint(),
            "next" => {
                let answer = session.next_match_game();
                match answer {
                    Ok(text) => format!("{text}. {}", self.status()),
                    Err(e) => format!("Cannot start the next game: {e}. {}", self.status()),
                }
            }
            "score" => match session.match_score_text() {
                Some(score) => format!("{score}."),
                None => "This is not a match (--match N plays one).".to_string(),
            },
            "pause" => {
                let paused = !session.is_paused();
                if session.set_paused(paused) {
                    let what = if paused {
                        "Paused: both clocks stopped; type pause to start them again."
                    } else {
                        "The clocks run again."
                    };
                    format!("{what} {}", self.status())
                } else {
                    "No clock runs (--clock or --move-timer times a game).".to_string()
                }
            }
            "clock" => match self.clocks() {
                Some(clocks) => format!("{clocks}."),
                None => "This game is not timed (--clock or --move-timer times one).".to_string(),
            },
            "board" => format!("{}{}", board_text(session.position()), self.status()),
            "moves" => {
                let pos = session.position();
                let moves: Vec<String> =
                    pos.legal_moves().iter().map(|m| pos.notation(m)).collect();
                if session.game().is_over() || moves.is_empty() {
                    format!("No legal moves. {}", self.status())
                } else {
                    format!("Legal moves: {}.", moves.join(", "))
                }
            }
            "draw" => {
                let answer = session.offer_draw();
                match session.game().draw_offer() {
                    // Between people the offer waits: the answer is the other's to give.
                    Some(by) => format!("{by} offers a draw; {}, answer accept or decline.", !by),
                    None => self.reply("offer a draw", answer),
                }
            }
            "undo" if argument.eq_ignore_ascii_case("agreed") => {
                let answer = session.undo_agreed();
                self.reply("undo", answer)
            }
            "undo" if session.undo_needs_consent() => format!(
                "On the clock a move is taken back only when both players agree: type undo \
                 agreed if you both do. {}",
                self.status()
            ),
            word if let Some((what, request)) = session_request(word) => {
                let answer = request(session);
                self.reply(what, answer)
            }
            "save" if argument.is_empty() => {
                "Cannot save: give a file name, as in save game.pdn.".to_string()
            }
            "save" => {
                let record = session.record(&today());
                let shown = printable(argument, QUOTED_CHARS);
                match append_record(&expand_home(Path::new(argument)), &record) {
                    Ok(Appended::Created) => format!("Saved to {shown}."),
                    Ok(Appended::Added) => {
                        format!("Added the game at the end of {shown}.")
                    }
                    Err(e) => format!("Cannot save: {}.", printable(&e.to_string(), 400)),
                }
            }
            "" => return (String::new(), false),
            _ if !line.chars().any(|c| c.is_ascii_digit()) => format!(
                "'{}' is not a move or a command; type help for the list.",
                printable(line, QUOTED_CHARS)
            ),
            _ if session.is_paused() => format!(
                "The clocks are paused: type pause to start them again, then move. {}",
                self.status()
            ),
            _ => match session.play_text(line) {
                Ok(text) => format!("{text}. {}", self.status()),
                Err(e) => format!(
                    "Refused {}: {}. {}",
                    printable(line, QUOTED_CHARS),
                    printable(&e.to_string(), 400),
                    self.status()
                ),
            },
        };
        match self.autosave() {
            Some(warning) => (format!("{reply}\n{warning}"), false),
            None => (reply, false),
        }
    }

    /// The players stop (a quit, or the end of input): the running clock's time used so
    /// far is kept in the autosave.
    pub fn adjourn(&mut self) {
        self.session.adjourn();
        let _ = self.autosave();
    }

    /// The news of the clocks while no input comes: a flag fall (the game ends at
    /// once, saved), or a warning that a side's time is nearly up.
    pub fn clock_news(&mut self) -> Vec<String> {
        let mut news = Vec::new();
        if self.tick().is_some() {
            news.push(format!("Time is up. {}", self.status()));
            news.extend(self.autosave());
        }
        news.extend(self.session.clock_warning().map(|w| format!("{w}.")));
        news
    }

    /// Whether a clock runs (plain mode then watches it while it waits for input).
    pub fn clock_runs(&self) -> bool {
        self.session.clock().is_some_and(|c| c.running().is_some())
    }

    /// The last words: and whether the game in progress is kept.
    fn goodbye(&self) -> String {
        match self.unsaved() {
            Some(why) => format!("Goodbye. The game is NOT saved: {why}."),
            None => "Goodbye.".to_string(),
        }
    }

    /// Why the game is not saved, if it is not: the autosave failed, and a last try
    /// failed too.
    pub fn unsaved(&self) -> Option<String> {
        if self.autosaver.final_save().is_ok() {
            return None;
        }
        self.autosaver.failure()
    }

    /// The engine's move for the side to move, written out and not played.
    fn hint(&mut self) -> String {
        if let Some(outcome) = self.session.game().result() {
            return format!("No hint: the game is over ({outcome}).");
        }
        let request = self.session.hint_request();
        let result = self.engine().search(&request, &StopFlag::new(), |_| {});
        match self.session.hint(&result) {
            Some((_, text)) => format!("{text}. {}", self.status()),
            None => format!("No hint: no legal move. {}", self.status()),
        }
    }

    /// Keeps the autosave up to date, and a match's file (a finished game is added to
    /// it). A failure is said once (until a save works again, which is said too) and
    /// play goes on.
    fn autosave(&mut self) -> Option<String> {
        let saved = self.save_game();
        let filed = self.file_match_game();
        match (saved, filed) {
            (Some(a), Some(b)) => Some(format!("{a}\n{b}")),
            (a, b) => a.or(b),
        }
    }

    /// Adds a finished match game to the match's file, once: where it went, or why not.
    fn file_match_game(&mut self) -> Option<String> {
        let (path, record) = self.session.match_game_to_file(&today())?;
        self.session.match_game_filed();
        let shown = printable(&path.display().to_string(), 400);
        Some(match crate::store::add_match_game(&path, &record) {
            Ok(_) => format!("The game is added to {shown}."),
            Err(e) => format!(
                "The game could not be added to the match's file: {}. save FILE keeps it.",
                printable(&e.to_string(), 400)
            ),
        })
    }

    /// Keeps the autosave up to date.
    fn save_game(&mut self) -> Option<String> {
        let written = self.autosaver.update(
            self.session.game_number(),
            self.session.autosave_record(&today()),
        )?;
        let failed_before = std::mem::replace(&mut self.save_failed, written.is_err());
        match written {
            Ok(path) if failed_before => Some(format!(
                "The game is saved again, in {}.",
                printable(&path.display().to_string(), 400)
            )),
            Ok(_) => None,
            Err(e) => Some(format!(
                "Autosave failed: {}. Play goes on; save FILE keeps the game.",
                printable(&e.to_string(), 400)
            )),
        }
    }
}

/// What a session request (undo, redo, resign, accept, decline, claim) is called when
/// refused ("Cannot undo: ..."), and the request, for the command `word`.
type Request = fn(&mut Session) -> Result<String, SessionError>;

fn session_request(word: &str) -> Option<(&'static str, Request)> {
    let request: (&str, Request) = match word {
        "undo" => ("undo", Session::undo),
        "redo" => ("redo", Session::redo),
        "resign" => ("resign", |s| s.resign(s.resigning_side())),
        "accept" => ("accept", Session::accept_draw),
        "decline" => ("decline", Session::decline_draw),
        "claim" => ("claim a draw", Session::claim_draw),
        _ => return None,
    };
    Some(request)
}

/// Runs a plain session: the board and status first, then one answer per input line
/// until `quit` or the end of input. A line that is not valid UTF-8 is read with the
/// faulty bytes replaced, and answered like any other. Every answer is flushed at once.
/// While a clock runs and no line comes, the clocks are watched: a flag fall is told
/// (and saved) at once, and so is a warning that time is nearly up. At the end of
/// input, a game that could not be saved is said to be lost.
pub fn run(
    input: impl BufRead + Send + 'static,
    out: &mut impl Write,
    plain: &mut Plain,
) -> io::Result<()> {
    writeln!(
        out,
        "Checkers (plain mode). Type a move such as 11-15, or help."
    )?;
    if let Some(note) = &plain.fault {
        writeln!(out, "{note}")?;
    }
    if let Some(intro) = plain.match_intro() {
        writeln!(out, "{intro}")?;
    }
    if let Some(opening) = plain.session.ballot() {
        writeln!(
            out,
            "{}. The game starts after its three moves.",
            crate::session::ballot_text(opening)
        )?;
    }
    write!(out, "{}", board_text(plain.session.position()))?;
    writeln!(out, "{}", plain.status())?;
    for notice in std::mem::take(&mut plain.notices) {
        writeln!(out, "{notice}")?;
    }
    out.flush()?;
    plain.computer_moves(out)?;
    if !plain.session.seats().both_computer() {
        let lines = read_lines(input);
        loop {
            let line = if plain.clock_runs() {
                match lines.recv_timeout(CLOCK_WATCH) {
                    Ok(line) => line,
                    Err(mpsc::RecvTimeoutError::Timeout) => {
                        for news in plain.clock_news() {
                            writeln!(out, "{news}")?;
                        }
                        out.flush()?;
                        continue;
                    }
                    Err(mpsc::RecvTimeoutError::Disconnected) => break,
                }
            } else {
                match lines.recv() {
                    Ok(line) => line,
                    Err(_) => break,
                }
            };
            let (reply, done) = plain.answer(&String::from_utf8_lossy(&line?));
            if !reply.is_empty() {
                writeln!(out, "{reply}")?;
                out.flush()?;
            }
            if done {
                return Ok(());
            }
            plain.computer_moves(out)?;
        }
    }
    // The end of input, or the computer played the whole game.
    plain.adjourn();
    if let Some(why) = plain.unsaved() {
        writeln!(out, "The game is NOT saved: {why}.")?;
        out.flush()?;
    }
    Ok(())
}

/// How often plain mode looks at a running clock while it waits for a line.
const CLOCK_WATCH: std::time::Duration = std::time::Duration::from_millis(100);

/// The lines of `input` (without their newline), read on a thread of their own so the
/// clocks can be watched while none comes; the channel closes at the end of input.
fn read_lines(input: impl BufRead + Send + 'static) -> mpsc::Receiver<io::Result<Vec<u8>>> {
    let (send, lines) = mpsc::channel();
    std::thread::spawn(move || {
        for line in input.split(b'\n') {
            let failed = line.is_err();
            if send.send(line).is_err() || failed {
                return;
            }
        }
    });
    lines
}

/// Asks which of `games` (newest first) to continue: a numbered list on `out`, then a
/// number read from `input` (an empty line takes the newest). `None` at the end of input
/// or on `q`.
pub fn choose_game(
    input: &mut impl BufRead,
    out: &mut impl Write,
    games: &[SavedGame],
) -> io::Result<Option<usize>> {
    writeln!(out, "Unfinished games, newest first:")?;
    for (i, game) in games.iter().enumerate() {
        writeln!(out, "{:>3}. {}", i + 1, game.summary())?;
    }
    loop {
        writeln!(
            out,
            "Which game? Type its number (1-{}), Enter for 1, q to start none.",
            games.len()
        )?;
        out.flush()?;
        let mut line = Vec::new();
        if input.read_until(b'\n', &mut line)? == 0 {
            return Ok(None);
        }
        let line = String::from_utf8_lossy(&line);
        let answer = line.trim();
        if answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit") {
            return Ok(None);
        }
        if answer.is_empty() {
            return Ok(Some(0));
        }
        match answer.parse::<usize>() {
            Ok(n) if (1..=games.len()).contains(&n) => return Ok(Some(n - 1)),
            _ => writeln!(
                out,
                "'{}' is not one of the numbers 1 to {}.",
                printable(answer, QUOTED_CHARS),
                games.len()
            )?,
        }
    }
}
