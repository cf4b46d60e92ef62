//! A match opponent that speaks the Hub protocol (as `checkers hub` and Scan do),
//! started once a game and kept running, so that it keeps its transposition table from
//! move to move as the match's own player does: two builds then play on equal terms,
//! which the once-a-move `analyse` opponent cannot give (a fresh process each move
//! starts with an empty table).
//!
//! The exchange: `hub`, its `param` lines and `wait`; `set-param` for `variant`
//! (`english`), and for `hash`, `book` and `threads` where it has them; `init`, then
//! `ready`. For each move, the game from its start (`pos pos=... moves="..."`, so that
//! it knows the game's repetitions), `level move-time=S` and `go think`, answered by
//! `done move=...`. At the game's end, `quit`.

use super::opponent::{end_group, for_each_line, spawn, wait_until};
use crate::game::Game;
use crate::hub::board::{line_text, parse_move, position_text};
use crate::hub::message::Line;
use crate::rules::Move;
use std::collections::HashSet;
use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long the program may take to introduce itself (`hub` to `wait`).
const INTRODUCTION_TIME: Duration = Duration::from_secs(10);
/// How long `init` may take (a program may load endgame databases).
const INIT_TIME: Duration = Duration::from_secs(60);
/// How long past its time a move may take before the program forfeits the game.
const GRACE: Duration = Duration::from_secs(5);
/// How long `quit` is given before the program is ended.
const QUIT_TIME: Duration = Duration::from_secs(1);
/// Lines of the program's output held unread: a program that writes between moves
/// waits on its pipe beyond them rather than filling the memory.
const HELD_LINES: usize = 1024;

/// What the match asks of every Hub program it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HubSettings {
    /// Its transposition table in MB, where it has a `hash` parameter.
    pub(crate) hash_mb: usize,
    /// Whether it plays from its opening book, where it has a `book` parameter.
    pub(crate) book: bool,
}

/// A running Hub program, ready for `pos` (introduced and initialised).
pub(crate) struct HubEngine {
    /// The command, as the messages name it.
    name: String,
    child: Child,
    input: ChildStdin,
    /// Its output, line by line (each line's first [`MAX_LINE_BYTES`] bytes).
    ///
    /// [`MAX_LINE_BYTES`]: super::opponent::MAX_LINE_BYTES
    lines: Receiver<String>,
    /// The last line it wrote on its standard error.
    complaint: Arc<Mutex<Option<String>>>,
}

impl HubEngine {
    /// Starts `command` through the shell and has it introduce itself and initialise
    /// with `settings`; or says why it could not.
    pub(crate) fn start(command: &str, settings: HubSettings) -> Result<HubEngine, String> {
        let name = crate::text::printable(command, 80);
        let mut child =
            spawn(command, Stdio::piped()).map_err(|e| format!("cannot run {name}: {e}"))?;
        let (Some(input), Some(stdout), Some(stderr)) =
            (child.stdin.take(), child.stdout.take(), child.stderr.take())
        else {
            end_group(&mut child);
            return Err(format!("cannot run {name}: no pipes to it"));
        };
        let (send, lines) = mpsc::sync_channel(HELD_LINES);
        std::thread::spawn(move || {
            for_each_line(stdout, |line| send.send(line.to_string()).is_ok());
        });
        let complaint = Arc::new(Mutex::new(None));
        let last = Arc::clone(&complaint);
        std::thread::spawn(move || {
            for_each_line(stderr, |line| {
                let line = line.trim();
                if !line.is_empty()
                    && let Ok(mut last) = last.lock()
                {
                    *last = Some(line.to_string());
                }
                true
            });
        });
        let mut engine = HubEngine {
            name,
            child,
            input,
            lines,
            complaint,
        };
        engine.introduce(settings)?;
        Ok(engine)
    }

    /// `hub` to `wait`, the settings it has parameters for, then `init` to `ready`.
    fn introduce(&mut self, settings: HubSettings) -> Result<(), String> {
        self.send(&Line::new("hub"))?;
        let mut params = HashSet::new();
        self.wait_for("wait", Instant::now() + INTRODUCTION_TIME, |line| {
            if line.command == "param"
                && let Some(name) = line.get("name")
            {
                params.insert(name.to_string());
            }
        })?;
        if params.contains("variant") {
            self.send(&set_param("variant", "english"))?;
        }
        if params.contains("hash") {
            self.send(&set_param("hash", settings.hash_mb))?;
        }
        if params.contains("book") {
            self.send(&set_param("book", settings.book))?;
        }
        if params.contains("threads") {
            self.send(&set_param("threads", 1))?;
        }
        self.send(&Line::new("init"))?;
        self.wait_for("ready", Instant::now() + INIT_TIME, |_| {})?;
        Ok(())
    }

    /// The program's move in the position `game` has reached, searched for `movetime`;
    /// or why there is none (it ended, took far too long, or answered with no legal
    /// move).
    pub(crate) fn best_move(&mut self, game: &Game, movetime: Duration) -> Result<Move, String> {
        let mut pos = Line::new("pos").with("pos", position_text(game.start()));
        if !game.moves().is_empty() {
            pos = pos.with("moves", line_text(game.moves()));
        }
        self.send(&pos)?;
        let seconds = movetime.max(Duration::from_millis(1)).as_secs_f64();
        self.send(&Line::new("level").with("move-time", format!("{seconds:.3}")))?;
        self.send(&"go think")?;
        let mut done = None;
        self.wait_for("done", Instant::now() + movetime * 3 + GRACE, |line| {
            done = line.get("move").map(str::to_string);
        })?;
        let Some(text) = done else {
            return Err(format!("{} answered done with no move", self.name));
        };
        parse_move(game.position(), &text).map_err(|e| {
            format!(
                "{} played {}: {e}",
                self.name,
                crate::text::printable(&text, 40)
            )
        })
    }

    /// Asks the program to quit, and ends it if it has not within [`QUIT_TIME`].
    pub(crate) fn quit(mut self) {
        if self.send(&Line::new("quit")).is_ok() {
            let _ = wait_until(&mut self.child, Instant::now() + QUIT_TIME);
        }
        // Dropped: whatever of its group is left is ended.
    }

    /// Writes `line` to the program.
    fn send(&mut self, line: &impl std::fmt::Display) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|()| self.input.flush())
            .map_err(|_| self.gone())
    }

    /// Reads the program's lines until one whose command is `command` (handed to
    /// `seen` as every other line is), by `deadline`. An `error` line, its end or the
    /// deadline is why not.
    fn wait_for(
        &mut self,
        command: &str,
        deadline: Instant,
        mut seen: impl FnMut(&Line),
    ) -> Result<(), String> {
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let text = match self.lines.recv_timeout(left) {
                Ok(text) => text,
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("{} took too long (no {command} line)", self.name));
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.gone()),
            };
            // A line the protocol cannot read is ignored, as the protocol says of any
            // it does not understand.
            let Ok(Some(line)) = Line::parse(text.trim()) else {
                continue;
            };
            if line.command == "error" {
                let message = line.get("message").unwrap_or(text.trim());
                return Err(format!(
                    "{} answered: {}",
                    self.name,
                    crate::text::printable(message, 200)
                ));
            }
            seen(&line);
            if line.command == command {
                return Ok(());
            }
        }
    }

    /// Why the program no longer answers: how it ended, with the last line of its
    /// errors.
    fn gone(&mut self) -> String {
        // Its end may come a moment after its output closes.
        let status = wait_until(&mut self.child, Instant::now() + QUIT_TIME)
            .ok()
            .flatten();
        let why = self
            .complaint
            .lock()
            .ok()
            .and_then(|c| c.clone())
            .map(|c| format!(": {}", crate::text::printable(&c, 200)))
            .unwrap_or_default();
        match status.and_then(|s| s.code()) {
            Some(127) => format!("cannot run {}: not found{why}", self.name),
            Some(code) => format!("{} ended (exit status {code}){why}", self.name),
            None => format!("{} stopped answering{why}", self.name),
        }
    }
}

impl Drop for HubEngine {
    fn drop(&mut self) {
        end_group(&mut self.child);
    }
}

/// `set-param name=NAME value=VALUE`.
fn set_param(name: &str, value: impl std::fmt::Display) -> Line {
    Line::new("set-param")
        .with("name", name)
        .with("value", value)
}
