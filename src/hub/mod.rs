//! `checkers hub`: the engine for other programs, speaking Fabien Letouzey's Hub
//! protocol (version 2, as Scan 3 and pydraughts' `HubEngine` speak it) on standard
//! input and output, one line at a time.
//!
//! # The subset
//!
//! From the program (the "GUI"), the program answers:
//!
//! - `hub`: `id name=checkers version=...`, a `param` line for each parameter
//!   (`variant` = `english`, the only one; `book`, `threads`, `hash` in MB), then
//!   `wait`;
//! - `set-param name=... value=...`: sets one (another variant than `english` is
//!   answered `error`);
//! - `init`: opens the endgame databases of the data folder if there are any, then
//!   `ready`;
//! - `pos [pos=<position>] [moves="<move> ..."]`: the position to search, the start
//!   if none is given (`fen="<PDN FEN>"` instead of `pos=` is this program's own
//!   extension). The moves lead from it to the position searched and tell the search
//!   the game's earlier positions, for repetitions. A bad position is answered
//!   `error` and the one before is kept; an illegal move is answered `error` and the
//!   moves before it are kept, as Scan does;
//! - `level ...`: the limits of the searches that follow, until the next `level`
//!   (each replaces the last whole): `depth=` (1 to 64), `nodes=` (at least 1),
//!   `move-time=` (seconds, more than 0), `time=` with `inc=` and `moves=` (at least 1; a clock, the
//!   increment added before each move; the engine plans its time as in a game), or
//!   `infinite`. With none given, a move takes a second, and a bare `level` (no
//!   arguments) goes back to that, as in Scan; a value out of range is answered
//!   `error` and the limits before are kept. Under `depth=` or `nodes=` the engine
//!   searches even a position its opening book holds: those limits ask for a search of
//!   that size (a fixed-strength opponent, a test), which a book move is not;
//! - `go think`: searches (a bare `go` too; a `go` naming something else than
//!   `think`, `ponder` or `analyze` is answered `error`), writing `info depth=.. score=.. nodes=.. time=.. nps=..
//!   pv=".."` after each depth (the score in men, as Scan writes it: a win in n plies
//!   is 100 - n/100, `99.97`, a loss the same below zero; `nps` in millions a second),
//!   then `done move=<move> ponder=<expected answer>` (no `ponder` when it has none).
//!   A move from the opening book is not searched: its one `info` line has only
//!   `score` (the book's), `time` and `pv`, every field of `info` being optional;
//! - `go ponder`: the same, with no limit until `ponder-hit` (the search then starts
//!   again as `go think` within the level, keeping what it learnt) or `stop`;
//! - `go analyze`: as `go think`, with no book, no dislike of draws, and an only move
//!   searched too;
//! - `stop`: ends the search at once; it answers `done` with the best move so far;
//! - `ping`: `pong`, also during a search;
//! - `new-game`: forgets what earlier searches learnt;
//! - `quit`: the program ends at once, with status 0 (a search under way is stopped
//!   and says its `done`; lines waiting for it are dropped);
//! - the end of standard input: every line read is acted on first (a search with a
//!   limit runs to its `done`, one without is stopped and says `done`), then the
//!   program ends with status 0, so `printf 'pos\ngo think\n' | checkers hub` answers;
//!   but once no one reads standard output either (its pipe's reader closed: the
//!   program that started it has ended, "the GUI has crashed" as the protocol says),
//!   a search is stopped and the program ends at once.
//!
//! Anything else is ignored, as the protocol says; a known command with a bad argument
//! (or a line with an unclosed quote) is answered `error message="..."`. During a
//! search only `ping`, `stop`, `ponder-hit` and `quit` are acted on at once; any
//! other line (a bad one too, so that answers keep the order of the lines) waits for
//! the search's `done`.
//!
//! # Positions and moves
//!
//! See `board`: moves use this crate's square numbers (`11-15`; a capture is start x
//! end x every captured square, `22x15x18`); a position is the 33 characters pydraughts
//! writes for English draughts, the side that moves first named white as in
//! international draughts: the start is `Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww`.
//!
//! ```text
//! > hub
//! < id name=checkers version=0.1.0
//! < param name=variant value=english type=enum values=english
//! < ...
//! < wait
//! > init
//! < ready
//! > pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves="11-15 23-19"
//! > level move-time=0.5
//! > go think
//! < info depth=1 score=0.46 nodes=12 time=0.001 nps=0.0 pv=8-11
//! < ...
//! < info depth=15 score=0.13 nodes=437781 time=0.177 nps=2.5 pv="9-14 27-23 8-11 22-18"
//! < done move=9-14 ponder=27-23
//! > quit
//! ```

pub(crate) mod board;
pub(crate) mod message;

use crate::engine::egdb::Egdb;
use crate::engine::{
    ClockLimits, DepthInfo, Engine, Level, Limits, MAX_THREADS, SearchRequest, SearchResult,
    StopFlag,
};
use crate::lines::BoundedLine;
use crate::rules::Position;
use message::{GoMode, LevelSpec, Line, PosSpec, Request};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::Duration;

/// How long a move takes when no `level` has been given.
const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(1);

/// The longest line read (1 MB): a longer one is read to its end without being kept,
/// and answered with an error.
const MAX_LINE_BYTES: usize = 1 << 20;

/// How many lines may wait to be acted on at once (lines that came during a search
/// wait for its end): the reader stops reading while so many wait, so a program that
/// writes faster than the searches end fills its pipe, not this memory.
const MAX_WAITING_LINES: usize = 64;

/// The longest `error` message written, in characters.
const MAX_MESSAGE_CHARS: usize = 500;

/// The largest transposition table `hash` may ask for, in MB.
const MAX_HASH_MB: usize = 1024;

/// What the program starts with, from its command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// Threads each search runs.
    pub(crate) threads: usize,
    /// The transposition table's size in MB.
    pub(crate) hash_mb: usize,
}

/// What the loop waits for: a line from the program, the end of its input, or news
/// from the search.
enum Input {
    /// A line of standard input (without its line break).
    Line(String),
    /// A line of standard input longer than [`MAX_LINE_BYTES`] (its length in bytes),
    /// dropped.
    LineTooLong(u64),
    /// Standard input is closed (or cannot be read).
    End,
    /// The search completed a depth.
    Depth(DepthInfo),
    /// The search ended: the engine comes back with the result.
    Done(Box<(Engine, SearchResult)>),
}

/// A search under way.
struct Running {
    /// Stops it.
    stop: StopFlag,
    /// How it was launched.
    mode: GoMode,
    /// Whether `ponder-hit` came: once it ends, it starts again as `go think`.
    then_think: bool,
    /// Whether it has no limit (`go ponder`, `level infinite`): only `stop` ends it.
    unbounded: bool,
}

/// Whether the loop goes on.
#[derive(PartialEq, Eq)]
enum Flow {
    /// Read the next line.
    Go,
    /// `quit`.
    Quit,
}

/// The engine's side of the conversation.
struct Hub<W: Write> {
    /// Where answers go.
    out: W,
    /// Where the search sends its news (the loop's own channel).
    news: Sender<Input>,
    /// Threads each search runs.
    threads: usize,
    /// The transposition table's size in MB.
    hash_mb: usize,
    /// Whether `go think` and `go ponder` play from the opening book.
    book: bool,
    /// The engine while no search holds it.
    engine: Option<Engine>,
    /// The endgame databases, opened by `init` (or the first search).
    egdb: Option<Option<Arc<Egdb>>>,
    /// The position to search.
    position: Position,
    /// The positions before it, oldest first.
    history: Vec<Position>,
    /// The limits of the next search.
    level: LevelSpec,
    /// The search under way.
    running: Option<Running>,
    /// Lines that came during a search, to act on after its `done`.
    deferred: VecDeque<String>,
    /// Gives the reader of standard input leave to read one more line, once a line is
    /// acted on (see [`MAX_WAITING_LINES`]).
    line_done: Sender<()>,
    /// Standard input has ended: every line read is still acted on, a search with a
    /// limit runs to its `done`, one without is stopped (and says `done`); then the
    /// program ends.
    input_ended: bool,
}

/// Speaks the protocol on standard input and `out` until `quit` or the end of the
/// input. Only a failed write to `out` is an error.
pub(crate) fn serve(settings: Settings, out: impl Write) -> io::Result<()> {
    let (news, inputs) = mpsc::channel();
    let lines = news.clone();
    let (line_done, leave) = mpsc::channel();
    for _ in 0..MAX_WAITING_LINES {
        let _ = line_done.send(());
    }
    std::thread::spawn(move || read_lines(io::stdin().lock(), &lines, &leave));
    let watch = Watch {
        line_done,
        reader_gone: || reader_gone(&io::stdout()),
    };
    serve_inputs(settings, &inputs, news, watch, out)
}

/// How often, once standard input has ended during a search, the loop looks whether
/// the program reading the answers is still there.
const READER_PROBE: Duration = Duration::from_millis(50);

/// What the loop is told by, besides its inputs.
struct Watch {
    /// Gives the reader of standard input leave to read one more line, once a line is
    /// acted on (see [`MAX_WAITING_LINES`]).
    line_done: Sender<()>,
    /// Whether the program reading the answers is gone (see [`reader_gone`]).
    reader_gone: fn() -> bool,
}

/// Whether nothing reads `out` any more: the read end of its pipe (or its socket's
/// peer) is closed, as when the program that started `checkers hub` has ended. The
/// protocol asks an engine whose input closes to quit as directly as possible, "the GUI
/// has crashed"; this program still answers what a script piped in (its input ends
/// at once), so it quits early only when no one is left to read the answer. A file or
/// a terminal is never gone.
#[cfg(unix)]
fn reader_gone(out: &impl std::os::fd::AsFd) -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let mut fds = [PollFd::new(out, PollFlags::empty())];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    poll(&mut fds, Some(&now)).is_ok_and(|ready| {
        ready > 0 && fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP)
    })
}

/// Elsewhere the answers' reader is never known to be gone: a search with a limit runs
/// to its end.
#[cfg(not(unix))]
fn reader_gone<T>(_out: &T) -> bool {
    false
}

/// Sends each line of `input` (invalid UTF-8 replaced, a line of more than
/// [`MAX_LINE_BYTES`] dropped as it is read and sent as [`Input::LineTooLong`]), each
/// once `leave` gives leave to read it, then [`Input::End`].
fn read_lines(mut input: impl BufRead, to: &Sender<Input>, leave: &Receiver<()>) {
    loop {
        if leave.recv().is_err() {
            return;
        }
        let input = match crate::lines::read_bounded_line(&mut input, MAX_LINE_BYTES) {
            Ok(None) | Err(_) => break,
            Ok(Some(BoundedLine::Text(bytes))) => {
                let text = String::from_utf8_lossy(&bytes);
                Input::Line(text.trim_end_matches('\r').to_string())
            }
            Ok(Some(BoundedLine::TooLong(length))) => Input::LineTooLong(length),
        };
        if to.send(input).is_err() {
            return;
        }
    }
    let _ = to.send(Input::End);
}

/// The loop: acts on each input from `inputs` (lines and the search's news, which the
/// search sends through `news`).
fn serve_inputs(
    settings: Settings,
    inputs: &Receiver<Input>,
    news: Sender<Input>,
    watch: Watch,
    out: impl Write,
) -> io::Result<()> {
    let mut hub = Hub {
        out,
        news,
        threads: settings.threads,
        hash_mb: settings.hash_mb,
        book: true,
        engine: None,
        egdb: None,
        position: Position::start(),
        history: Vec::new(),
        level: LevelSpec::default(),
        running: None,
        deferred: VecDeque::new(),
        line_done: watch.line_done,
        input_ended: false,
    };
    loop {
        if hub.input_ended {
            match &hub.running {
                // A search no limit ends would wait for a `stop` that cannot come.
                Some(running) if running.unbounded => running.stop.stop(),
                Some(_) => {}
                None if hub.deferred.is_empty() => return Ok(()),
                None => {}
            }
        }
        let input = match hub.deferred.pop_front() {
            Some(line) if hub.running.is_none() => Some(Input::Line(line)),
            Some(line) => {
                hub.deferred.push_front(line);
                None
            }
            None => None,
        };
        let input = match input {
            Some(input) => input,
            // The input has ended: a search runs on for a script that reads its answer,
            // not for a program that is gone.
            None if hub.input_ended && hub.running.is_some() => {
                match next_while_read(inputs, watch.reader_gone) {
                    Some(input) => input,
                    None => {
                        if let Some(running) = &hub.running {
                            running.stop.stop();
                        }
                        return Ok(());
                    }
                }
            }
            None => inputs.recv().unwrap_or(Input::End),
        };
        let flow = match input {
            Input::Line(text) => {
                let waiting = hub.deferred.len();
                let flow = hub.line(&text)?;
                // Acted on, not kept for after the search: the reader may read another.
                if hub.deferred.len() <= waiting {
                    let _ = hub.line_done.send(());
                }
                flow
            }
            Input::LineTooLong(length) => {
                hub.error(&format!(
                    "line too long: {length} bytes, more than {MAX_LINE_BYTES}; ignored"
                ))?;
                let _ = hub.line_done.send(());
                Flow::Go
            }
            // What was read before the end is answered first (a script's `go think`
            // gets its `done`).
            Input::End => {
                hub.input_ended = true;
                Flow::Go
            }
            Input::Depth(info) => {
                hub.info(&info)?;
                Flow::Go
            }
            Input::Done(done) => {
                let (engine, result) = *done;
                hub.done(engine, &result)?;
                Flow::Go
            }
        };
        if flow == Flow::Quit {
            // A search under way ends at once, with its `done`, as `stop` ends it.
            if let Some(running) = &mut hub.running {
                running.then_think = false;
                running.stop.stop();
                while hub.running.is_some() {
                    match inputs.recv() {
                        Ok(Input::Done(done)) => {
                            let (engine, result) = *done;
                            hub.done(engine, &result)?;
                        }
                        Ok(_) => {}
                        Err(_) => break,
                    }
                }
            }
            return Ok(());
        }
    }
}

/// The next input, or `None` once `reader_gone` says that no one reads the answers
/// (asked before each input and every [`READER_PROBE`] while none comes).
fn next_while_read(inputs: &Receiver<Input>, reader_gone: fn() -> bool) -> Option<Input> {
    loop {
        if reader_gone() {
            return None;
        }
        match inputs.recv_timeout(READER_PROBE) {
            Ok(input) => return Some(input),
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Some(Input::End),
        }
    }
}

/// A score as Hub writes it: men with two decimals; a win in n plies 100 - n/100.
fn score_text(score: crate::engine::Score) -> String {
    let centi = match (score.centi_men(), score.plies_to_end()) {
        (Some(centi), _) => centi,
        (None, Some(plies)) => {
            let value = 10_000 - plies.min(9_999) as i32;
            if score.is_win() { value } else { -value }
        }
        (None, None) => 0,
    };
    let sign = if centi < 0 { "-" } else { "" };
    format!("{sign}{}.{:02}", centi.abs() / 100, centi.abs() % 100)
}

/// The limits of `level`.
fn limits(level: &LevelSpec) -> Limits {
    if level.infinite {
        return Limits::infinite();
    }
    let mut limits = Limits::infinite();
    limits.depth = level.depth;
    limits.nodes = level.nodes;
    limits.movetime = level.move_time.map(|t| t.max(Duration::from_millis(1)));
    if level.time.is_some() || level.inc.is_some() || level.moves.is_some() {
        let inc = level.inc.unwrap_or_default();
        limits.clock = Some(ClockLimits {
            // The increment is added before the move: this move may use it too.
            time_left: level.time.unwrap_or_default().saturating_add(inc),
            increment: inc,
            moves_to_go: level.moves,
            move_timer: false,
        });
    }
    if limits == Limits::infinite() {
        limits.movetime = Some(DEFAULT_MOVE_TIME);
    }
    limits
}

impl<W: Write> Hub<W> {
    /// Writes one line of the protocol.
    fn say(&mut self, line: &Line) -> io::Result<()> {
        writeln!(self.out, "{line}")?;
        self.out.flush()
    }

    /// Answers `error message=...`: the message's control characters (a carriage return
    /// or an escape sequence echoed from the line it answers) shown as `?`, so that the
    /// answer stays one line that the program and a terminal read as it is, and cut
    /// after [`MAX_MESSAGE_CHARS`] (a bad word of a long line is not echoed whole).
    fn error(&mut self, message: &str) -> io::Result<()> {
        let message = crate::text::printable(message, MAX_MESSAGE_CHARS);
        self.say(&Line::new("error").with("message", message))
    }

    /// Acts on a line from the program.
    fn line(&mut self, text: &str) -> io::Result<Flow> {
        // During a search, only what acts on it is read now; anything else (a bad line
        // too, so that answers come in the order of the lines) waits for its `done`.
        if self.running.is_some() {
            let request = Line::parse(text)
                .ok()
                .flatten()
                .and_then(|line| Request::from_line(&line))
                .and_then(Result::ok);
            let Some(running) = &mut self.running else {
                return Ok(Flow::Go);
            };
            match request {
                Some(Request::Ping) => self.say(&Line::new("pong"))?,
                Some(Request::Stop) => {
                    running.then_think = false;
                    running.stop.stop();
                }
                Some(Request::PonderHit) if running.mode == GoMode::Ponder => {
                    running.then_think = true;
                    running.unbounded = false;
                    running.stop.stop();
                }
                Some(Request::PonderHit) => {}
                Some(Request::Quit) => return Ok(Flow::Quit),
                _ => self.deferred.push_back(text.to_string()),
            }
            return Ok(Flow::Go);
        }
        let line = match Line::parse(text) {
            Ok(Some(line)) => line,
            Ok(None) => return Ok(Flow::Go),
            Err(why) => {
                self.error(&format!("bad line: {why}"))?;
                return Ok(Flow::Go);
            }
        };
        let request = match Request::from_line(&line) {
            None => return Ok(Flow::Go),
            Some(Err(why)) => {
                self.error(&why)?;
                return Ok(Flow::Go);
            }
            Some(Ok(request)) => request,
        };
        match request {
            Request::Hub => self.introduce()?,
            Request::SetParam { name, value } => self.set_param(&name, &value)?,
            Request::Init => {
                self.ready();
                self.say(&Line::new("ready"))?;
            }
            Request::Pos(spec) => self.set_position(&spec)?,
            Request::Level(level) => self.level = level,
            Request::Go(mode) => self.go(mode)?,
            Request::PonderHit | Request::Stop => {}
            Request::NewGame => {
                if let Some(engine) = &mut self.engine {
                    engine.clear();
                }
            }
            Request::Ping => self.say(&Line::new("pong"))?,
            Request::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Go)
    }

    /// `hub`: who it is, its parameters, `wait`.
    fn introduce(&mut self) -> io::Result<()> {
        self.say(
            &Line::new("id")
                .with("name", "checkers")
                .with("version", env!("CARGO_PKG_VERSION")),
        )?;
        let param = |name: &str, value: &dyn std::fmt::Display, kind: &str| {
            Line::new("param")
                .with("name", name)
                .with("value", value)
                .with("type", kind)
        };
        self.say(&param("variant", &"english", "enum").with("values", "english"))?;
        self.say(&param("book", &self.book, "bool"))?;
        self.say(
            &param("threads", &self.threads, "int")
                .with("min", 1)
                .with("max", MAX_THREADS),
        )?;
        self.say(
            &param("hash", &self.hash_mb, "int")
                .with("min", 1)
                .with("max", MAX_HASH_MB),
        )?;
        self.say(&Line::new("wait"))
    }

    /// `set-param`: sets a parameter the program has; ignores others.
    fn set_param(&mut self, name: &str, value: &str) -> io::Result<()> {
        let number = |max: usize| {
            value
                .parse::<usize>()
                .ok()
                .filter(|n| (1..=max).contains(n))
        };
        match name {
            "variant" if !matches!(value, "english" | "american") => {
                self.error(&format!("variant {value} is not played: only english"))?;
            }
            "book" => match value {
                "true" => self.book = true,
                "false" => self.book = false,
                _ => self.error(&format!("book is true or false, not {value}"))?,
            },
            "threads" => match number(MAX_THREADS) {
                Some(n) => self.threads = n,
                None => self.error(&format!("threads is 1 to {MAX_THREADS}, not {value}"))?,
            },
            "hash" => match number(MAX_HASH_MB) {
                Some(mb) if mb != self.hash_mb => {
                    self.hash_mb = mb;
                    self.engine = None;
                }
                Some(_) => {}
                None => self.error(&format!("hash is 1 to {MAX_HASH_MB} MB, not {value}"))?,
            },
            _ => {}
        }
        Ok(())
    }

    /// Makes the engine and opens the databases, unless that is done.
    fn ready(&mut self) {
        if self.engine.is_none() {
            self.engine = Some(Engine::new(self.hash_mb));
        }
        if self.egdb.is_none() {
            let dir = crate::store::egdb_dir().filter(|dir| dir.is_dir());
            let db = dir.map(|dir| Egdb::open(&dir).0);
            self.egdb = Some(db.filter(|db| db.slices() > 0).map(Arc::new));
        }
    }

    /// `pos`: the position to search and the positions before it.
    fn set_position(&mut self, spec: &PosSpec) -> io::Result<()> {
        let start = match (&spec.fen, &spec.pos) {
            (Some(fen), _) => fen
                .parse::<Position>()
                .map_err(|e| format!("bad position: {}", crate::text::error_chain(&e))),
            (None, Some(pos)) => {
                board::parse_position(pos).map_err(|e| format!("bad position: {e}"))
            }
            (None, None) => Ok(Position::start()),
        };
        let mut position = match start {
            Ok(position) => position,
            Err(why) => return self.error(&why),
        };
        let mut history = Vec::new();
        let mut problem = None;
        for text in &spec.moves {
            match board::parse_move(&position, text) {
                Ok(m) => {
                    history.push(position);
                    position = position.play_unchecked(&m);
                }
                Err(why) => {
                    problem = Some(format!("illegal move: {why}"));
                    break;
                }
            }
        }
        self.position = position;
        self.history = history;
        match problem {
            Some(why) => self.error(&why),
            None => Ok(()),
        }
    }

    /// `go`: starts a search of the position in `mode`.
    fn go(&mut self, mode: GoMode) -> io::Result<()> {
        if let Some(outcome) = self.position.outcome() {
            self.error(&format!("the game is over, there is no move: {outcome}"))?;
            return self.say(&Line::new("done"));
        }
        self.ready();
        let mut request =
            Level::MAX.request(self.position, self.history.clone(), DEFAULT_MOVE_TIME, 0);
        request.limits = match mode {
            GoMode::Ponder => Limits::infinite(),
            GoMode::Think | GoMode::Analyze => limits(&self.level),
        };
        request.threads = self.threads;
        // A depth or node limit asks for a search of that size (a fixed-strength
        // opponent, a test): a book move would be neither, so those levels search.
        let sized = self.level.depth.is_some() || self.level.nodes.is_some();
        request.book = self.book && mode != GoMode::Analyze && !sized;
        if mode == GoMode::Analyze {
            request.contempt = 0;
            request.only_move_at_once = false;
        }
        request = request.with_egdb(self.egdb.clone().flatten());
        let unbounded = request.limits == Limits::infinite();
        self.start(request, mode, unbounded);
        Ok(())
    }

    /// Runs `request` on its own thread, its news coming to the loop.
    fn start(&mut self, request: SearchRequest, mode: GoMode, unbounded: bool) {
        let stop = StopFlag::new();
        let mut engine = self
            .engine
            .take()
            .unwrap_or_else(|| Engine::new(self.hash_mb));
        let news = self.news.clone();
        let thread_stop = stop.clone();
        std::thread::spawn(move || {
            let result = engine.search(&request, &thread_stop, |info| {
                let _ = news.send(Input::Depth(info.clone()));
            });
            let _ = news.send(Input::Done(Box::new((engine, result))));
        });
        self.running = Some(Running {
            stop,
            mode,
            then_think: false,
            unbounded,
        });
    }

    /// Writes what a depth found; a book move's line has no `depth`, `nodes` nor `nps`
    /// (every field of `info` is optional in the protocol), as nothing was searched.
    fn info(&mut self, info: &DepthInfo) -> io::Result<()> {
        let searched = !info.from_book;
        let mut line = Line::new("info");
        if searched {
            line = line.with("depth", info.depth);
        }
        line = line.with("score", score_text(info.score));
        if searched {
            line = line.with("nodes", info.nodes);
        }
        line = line.with("time", format!("{:.3}", info.elapsed.as_secs_f64()));
        if searched {
            let nps = info.nodes_per_second() as f64 / 1e6;
            line = line.with("nps", format!("{nps:.1}"));
        }
        self.say(&line.with("pv", board::line_text(&info.pv)))
    }

    /// The search ended: `done`, or after `ponder-hit` the search again as `go think`.
    fn done(&mut self, engine: Engine, result: &SearchResult) -> io::Result<()> {
        self.engine = Some(engine);
        let Some(running) = self.running.take() else {
            return Ok(());
        };
        if running.then_think {
            return self.go(GoMode::Think);
        }
        let mut line = Line::new("done");
        if let Some(best) = &result.best_move {
            line = line.with("move", board::move_text(best));
            if let Some(answer) = result.pv.get(1).filter(|_| result.pv.first() == Some(best)) {
                line = line.with("ponder", board::move_text(answer));
            }
        }
        self.say(&line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_men_and_forced_results_near_a_hundred() {
        use crate::engine::Score;
        assert_eq!(score_text(Score::DRAW), "0.00");
        assert_eq!(score_text(Score(35)), "0.35");
        assert_eq!(score_text(Score(-120)), "-1.20");
        assert_eq!(score_text(Score(-5)), "-0.05");
        assert_eq!(score_text(Score::win_in(3)), "99.97");
        assert_eq!(score_text(Score::loss_in(4)), "-99.96");
    }

    #[test]
    fn levels_become_limits() {
        let spec = |text: &str| match Request::from_line(&Line::parse(text).unwrap().unwrap()) {
            Some(Ok(Request::Level(spec))) => spec,
            other => panic!("{other:?}"),
        };
        assert_eq!(limits(&spec("level depth=6")), Limits::depth(6));
        assert_eq!(limits(&spec("level nodes=900")), Limits::nodes(900));
        assert_eq!(
            limits(&spec("level move-time=0.02")),
            Limits::movetime_ms(20)
        );
        // Under a millisecond is a millisecond; no time at all is refused (see message.rs).
        assert_eq!(
            limits(&spec("level move-time=0.0001")),
            Limits::movetime_ms(1)
        );
        assert_eq!(limits(&spec("level infinite")), Limits::infinite());
        assert_eq!(limits(&LevelSpec::default()), Limits::movetime_ms(1000));
        // A bare `level` is Scan's way back to the default.
        assert_eq!(limits(&spec("level")), Limits::movetime_ms(1000));
        let clock = limits(&spec("level moves=9 time=291.5 inc=2"))
            .clock
            .unwrap();
        assert_eq!(clock.time_left, Duration::from_millis(293_500));
        assert_eq!(clock.increment, Duration::from_secs(2));
        assert_eq!(clock.moves_to_go, Some(9));
    }

    /// What the loop writes, shared with the test that reads it.
    #[derive(Clone, Default)]
    struct Shared(Arc<std::sync::Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    impl Shared {
        /// What has been written so far.
        fn text(&self) -> String {
            String::from_utf8(self.0.lock().unwrap().clone()).unwrap()
        }
    }

    /// What the loop is told by in a test: no reader waits for leave to read (the lines
    /// are all sent already), and the answers are always read.
    fn watch() -> Watch {
        Watch {
            line_done: mpsc::channel().0,
            reader_gone: || false,
        }
    }

    /// Runs the loop on `lines`; once it has written a line starting with `until` (at
    /// once with ""), sends `quit`; gives what it wrote.
    fn session_until(lines: &[&str], until: &str) -> String {
        let (news, inputs) = mpsc::channel();
        for line in lines {
            news.send(Input::Line(line.to_string())).unwrap();
        }
        let out = Shared::default();
        let settings = Settings {
            threads: 1,
            hash_mb: 1,
        };
        let (sender, writer) = (news.clone(), out.clone());
        let thread =
            std::thread::spawn(move || serve_inputs(settings, &inputs, sender, watch(), writer));
        let started = std::time::Instant::now();
        while !out.text().lines().any(|l| l.starts_with(until)) {
            assert!(
                started.elapsed() < Duration::from_secs(60),
                "{}",
                out.text()
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        news.send(Input::Line("quit".to_string())).unwrap();
        thread.join().unwrap().unwrap();
        out.text()
    }

    /// Runs the loop on `lines`, then `quit`; gives what it wrote.
    fn session(lines: &[&str]) -> String {
        session_until(lines, "")
    }

    #[test]
    fn the_handshake_names_the_variant_and_ends_with_wait_and_ready() {
        let said = session_until(&["hub", "init"], "ready");
        let lines: Vec<&str> = said.lines().collect();
        assert_eq!(
            lines[0],
            format!("id name=checkers version={}", env!("CARGO_PKG_VERSION"))
        );
        assert!(lines.contains(&"param name=variant value=english type=enum values=english"));
        assert_eq!(lines[lines.len() - 2..], ["wait", "ready"]);
    }

    #[test]
    fn bad_lines_are_answered_or_ignored_never_fatal() {
        let said = session(&[
            "",
            "dance",
            "pos moves=\"11-15",
            "level depth=deep",
            "pos pos=Wxyz",
            "set-param name=variant value=frisian",
            "set-param name=threads value=0",
            "pos moves=\"11-15 11-15\"",
            "level depth=0",
            "go nonsense",
            "ping",
        ]);
        let lines: Vec<&str> = said.lines().collect();
        assert_eq!(lines.len(), 9, "{said}");
        assert!(
            lines[..8].iter().all(|l| l.starts_with("error message=")),
            "{said}"
        );
        assert!(lines[5].contains("illegal move"), "{said}");
        assert!(lines[6].contains("depth is 1 to 64"), "{said}");
        assert!(lines[7].contains("go takes think"), "{said}");
        assert_eq!(lines[8], "pong");
        // A line that is no line of the protocol is told why, in words that survive the
        // quotes of the message.
        let said = session(&["pi\u{0}ng", "go =think"]);
        let why = "error message=\"bad line: a name is missing: an =, a quote mark or a \
                   control character stands where a name should\"";
        assert_eq!(said.lines().collect::<Vec<_>>(), [why, why], "{said}");
    }

    #[test]
    fn a_search_is_answered_with_done_and_a_legal_move() {
        let said = session_until(
            &[
                "pos moves=\"11-15 23-19\"",
                "level depth=4",
                "set-param name=book value=false",
                "go think",
            ],
            "done",
        );
        let done = said.lines().last().unwrap();
        let line = Line::parse(done).unwrap().unwrap();
        assert_eq!(line.command, "done", "{said}");
        let pos = Position::start()
            .play_text("11-15")
            .unwrap()
            .play_text("23-19")
            .unwrap();
        let best = board::parse_move(&pos, line.get("move").unwrap()).unwrap();
        let after = pos.play_unchecked(&best);
        assert!(board::parse_move(&after, line.get("ponder").unwrap()).is_ok());
        assert!(said.contains("info depth=4 "), "{said}");
    }

    /// The `info` lines of `said`, each as its fields.
    fn infos(said: &str) -> Vec<Line> {
        said.lines()
            .filter_map(|l| Line::parse(l).unwrap())
            .filter(|line| line.command == "info")
            .collect()
    }

    #[test]
    fn a_depth_or_node_level_searches_the_book_position_within_it() {
        for level in ["level depth=3", "level nodes=2000"] {
            let said = session_until(&["pos", level, "go think"], "done");
            let infos = infos(&said);
            assert!(!infos.is_empty(), "{said}");
            for info in &infos {
                let depth: u32 = info.get("depth").expect(&said).parse().unwrap();
                let nodes: u64 = info.get("nodes").expect(&said).parse().unwrap();
                assert!(nodes > 0, "{said}");
                if level == "level depth=3" {
                    assert!(depth <= 3, "{said}");
                }
            }
        }
    }

    #[test]
    fn a_book_move_claims_no_depth_nor_nodes() {
        let said = session_until(&["pos", "go think"], "done");
        let infos = infos(&said);
        assert_eq!(infos.len(), 1, "{said}");
        let names: Vec<&str> = infos[0].args.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["score", "time", "pv"], "{said}");
        assert!(
            said.lines().last().unwrap().starts_with("done move="),
            "{said}"
        );
    }

    #[test]
    fn a_finished_game_is_an_error_and_an_empty_done() {
        let said = session_until(&["pos fen=\"W:W:B5\"", "go think"], "done");
        let lines: Vec<&str> = said.lines().collect();
        assert!(lines[0].starts_with("error message="), "{said}");
        assert_eq!(lines[1], "done");
    }

    #[test]
    fn the_end_of_input_with_no_one_left_to_read_ends_even_a_long_search_at_once() {
        let (news, inputs) = mpsc::channel();
        for line in [
            "set-param name=book value=false",
            "level move-time=3600",
            "go think",
        ] {
            news.send(Input::Line(line.to_string())).unwrap();
        }
        news.send(Input::End).unwrap();
        let settings = Settings {
            threads: 1,
            hash_mb: 1,
        };
        let gone = Watch {
            reader_gone: || true,
            ..watch()
        };
        let (ended, end) = mpsc::channel();
        let sender = news.clone();
        std::thread::spawn(move || {
            let _ = ended.send(serve_inputs(settings, &inputs, sender, gone, io::sink()));
        });
        // An hour's search, not run for no one: the loop ends well before.
        let result = end.recv_timeout(Duration::from_secs(60));
        assert!(matches!(result, Ok(Ok(()))), "{result:?}");
    }

    #[cfg(unix)]
    #[test]
    fn a_pipe_whose_reader_closed_is_gone_and_one_read_is_not() {
        let (reader, writer) = io::pipe().unwrap();
        assert!(!reader_gone(&writer));
        drop(reader);
        assert!(reader_gone(&writer));
        // A file is never gone.
        assert!(!reader_gone(&tempfile::tempfile().unwrap()));
    }

    #[test]
    fn an_error_echoing_control_characters_or_a_long_word_stays_one_short_line() {
        let long = "x".repeat(100_000);
        let said = session(&[
            "set-param name=book value=\"a\rb\"",
            "pos moves=\"11-15 \u{1b}[2J\u{7}\"",
            &format!("pos moves=\"{long}\""),
            "ping",
        ]);
        // Split as a reader taking a carriage return for a line break would split it.
        let lines: Vec<&str> = said.split(['\n', '\r']).filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), 4, "{said:?}");
        for line in &lines[..3] {
            assert!(!line.chars().any(char::is_control), "{line:?}");
            assert!(line.len() < 600, "{} bytes", line.len());
            let message = Line::parse(line).unwrap().unwrap();
            assert_eq!(message.command, "error", "{line}");
        }
        assert_eq!(lines[0], "error message=\"book is true or false, not a?b\"");
        assert!(lines[1].contains("not a legal move"), "{}", lines[1]);
        assert_eq!(lines[3], "pong");
    }
}
