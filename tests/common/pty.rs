//! The real binary in an 80x24 pseudo-terminal, read through a vt100 screen. Every
//! session gets its own empty `HOME` and `XDG_DATA_HOME`, so saved games never touch the
//! user's files and tests do not share an autosave.
#![allow(dead_code, clippy::unwrap_used)]

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long a wait may take before the test fails: a bound on a failure only (each
/// wait ends as soon as its condition holds), long enough for a machine loaded with
/// other builds and tests.
const PATIENCE: Duration = Duration::from_secs(30);

/// The mark that begins a synchronized update (DEC mode 2026): the full screen writes
/// each frame between it and [`FRAME_END`].
const FRAME_BEGIN: &[u8] = b"\x1b[?2026h";

/// The mark that ends a synchronized update: the frame is drawn whole.
const FRAME_END: &[u8] = b"\x1b[?2026l";

/// An empty home and data directory for one test, removed afterwards.
pub struct Sandbox {
    dir: tempfile::TempDir,
}

impl Sandbox {
    /// A new empty sandbox.
    pub fn new() -> Sandbox {
        Sandbox {
            dir: tempfile::tempdir().unwrap(),
        }
    }

    /// The sandbox's home directory (also the XDG data home's parent).
    pub fn home(&self) -> &Path {
        self.dir.path()
    }

    /// `$XDG_DATA_HOME`.
    pub fn data_home(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    /// The data folder.
    pub fn data_dir(&self) -> PathBuf {
        self.data_home().join("checkers")
    }

    /// The folder of per-game autosaves.
    pub fn games_dir(&self) -> PathBuf {
        self.data_dir().join("games")
    }

    /// The autosave files of games (not the hidden lock and temporary files), by name.
    pub fn game_files(&self) -> Vec<PathBuf> {
        let Ok(entries) = std::fs::read_dir(self.games_dir()) else {
            return Vec::new();
        };
        let mut files: Vec<PathBuf> = entries
            .map(|e| e.unwrap().path())
            .filter(|p| {
                let name = p.file_name().unwrap().to_string_lossy();
                !name.starts_with('.') && name.ends_with(".pdn")
            })
            .collect();
        files.sort();
        files
    }

    /// The texts of the game files.
    pub fn game_texts(&self) -> Vec<String> {
        self.game_files()
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .collect()
    }

    /// Waits until a game file holds `text`, and returns that file's text.
    pub fn wait_for_game(&self, text: &str) -> String {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(found) = self.game_texts().into_iter().find(|t| t.contains(text)) {
                return found;
            }
            assert!(
                Instant::now() < deadline,
                "no game file in {} ever held {text:?}: {:?}",
                self.games_dir().display(),
                self.game_texts()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// `program` with `args` to run in `sandbox` (its home and data folder, no first-use
/// database build) at an xterm, with `env` added.
pub fn sandboxed(
    sandbox: &Sandbox,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> CommandBuilder {
    let mut cmd = CommandBuilder::new(program);
    cmd.args(args);
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("NO_COLOR");
    // A UTF-8 locale, as the xterm has, whatever the test runner's: in another the
    // board is drawn in ASCII.
    cmd.env("LANG", "C.UTF-8");
    cmd.env_remove("LC_ALL");
    cmd.env_remove("LC_CTYPE");
    cmd.env("HOME", sandbox.home());
    cmd.env("XDG_DATA_HOME", sandbox.data_home());
    // The preferences are the sandbox's too: the home screen's settings page writes them.
    cmd.env("XDG_CONFIG_HOME", sandbox.home().join("config"));
    cmd.env_remove("CHECKERS_PREFERENCES");
    // No endgame database built on first use in a test's throwaway data folder.
    cmd.env("CHECKERS_NO_EGDB_BUILD", "1");
    cmd.cwd(sandbox.home());
    for (key, value) in env {
        cmd.env(key, value);
    }
    cmd
}

/// The game running in a pseudo-terminal, and what it has drawn so far.
pub struct Session {
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    // Kept so the pseudo-terminal stays open while the test reads and writes.
    _master: Box<dyn MasterPty + Send>,
    output: Receiver<Vec<u8>>,
    /// The screen as drawn so far.
    pub parser: vt100::Parser,
    /// Every byte the program wrote.
    pub raw: Vec<u8>,
    /// Whether the program is in the middle of a frame: it began a synchronized update
    /// and has not ended it, so the screen mixes the new frame with the old one.
    mid_frame: bool,
    /// The sandbox made by [`Session::start`], removed with the session.
    _sandbox: Option<Sandbox>,
    /// The terminal's modes (termios) before the program started, as text.
    pub initial_modes: String,
}

impl Session {
    /// Starts the game in an 80x24 pseudo-terminal with these arguments and extra
    /// environment variables, in a sandbox of its own that lives as long as the test.
    pub fn start(args: &[&str], env: &[(&str, &str)]) -> Session {
        let sandbox = Sandbox::new();
        let mut session = Session::start_in(&sandbox, args, env);
        session._sandbox = Some(sandbox);
        session
    }

    /// Starts the game in `sandbox` (its home and data directory).
    pub fn start_in(sandbox: &Sandbox, args: &[&str], env: &[(&str, &str)]) -> Session {
        Session::start_program(sandbox, env!("CARGO_BIN_EXE_checkers"), args, env)
    }

    /// Starts `sh -c SCRIPT` in `sandbox`, with `$CHECKERS` the program's path: for a
    /// program whose output goes to a file while its input is the terminal. The script
    /// should `exec` the program, so that signals reach it.
    pub fn start_shell(sandbox: &Sandbox, script: &str, env: &[(&str, &str)]) -> Session {
        let mut env = env.to_vec();
        env.push(("CHECKERS", env!("CARGO_BIN_EXE_checkers")));
        Session::start_program(sandbox, "sh", &["-c", script], &env)
    }

    /// Starts `program` with `args` in `sandbox`.
    pub fn start_program(
        sandbox: &Sandbox,
        program: &str,
        args: &[&str],
        env: &[(&str, &str)],
    ) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 24,
                cols: 80,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let initial_modes = format!("{:?}", pty.master.get_termios());
        let cmd = sandboxed(sandbox, program, args, env);
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        let mut reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            writer,
            _master: pty.master,
            output: rx,
            parser: vt100::Parser::new(
                NonZeroU16::new(24).unwrap(),
                NonZeroU16::new(80).unwrap(),
                0,
            ),
            raw: Vec::new(),
            mid_frame: false,
            _sandbox: None,
            initial_modes,
        }
    }

    /// The terminal's modes (termios) now, as text.
    pub fn modes(&self) -> String {
        format!("{:?}", self._master.get_termios())
    }

    /// Whether the terminal is in raw mode now: no line editing, no echo.
    pub fn raw_mode(&self) -> bool {
        let modes = self.modes();
        let has = |flag: &str| {
            modes
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .any(|word| word == flag)
        };
        !has("ICANON") && !has("ECHO")
    }

    /// Whether the terminal is as it was before the program started (`stty -a` the same).
    pub fn modes_restored(&self) -> bool {
        self.modes() == self.initial_modes
    }

    /// Reads what the program wrote until nothing more comes for a moment, and any frame
    /// begun is drawn whole.
    pub fn drain(&mut self) {
        while let Ok(bytes) = self.output.recv_timeout(Duration::from_millis(100)) {
            self.take(bytes);
        }
        if self.mid_frame {
            self.wait_for("the frame begun drawn whole", |_| true);
        }
    }

    /// Plays `moves` in the full-screen game by typing them, waiting for each to be
    /// played (the status line says "played" once a move is made; the prompt shows its
    /// text while it is typed).
    pub fn play(&mut self, moves: &[&str]) {
        for m in moves {
            self.send(format!("{m}\r").as_bytes());
            let played = format!("played {m}");
            self.wait_for(&played, |s| s.contents().contains(&played));
        }
    }

    /// Whether the program has exited (without waiting).
    pub fn exited(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(Some(_)))
    }

    /// The program's process id.
    pub fn pid(&self) -> u32 {
        self.child.process_id().unwrap()
    }

    /// Sends `signal` (such as "KILL" or "HUP") to the program.
    pub fn signal(&self, signal: &str) {
        let status = std::process::Command::new("kill")
            .arg(format!("-{signal}"))
            .arg(self.pid().to_string())
            .status()
            .unwrap();
        assert!(status.success(), "kill -{signal} failed");
    }

    /// The screen's text.
    pub fn contents(&self) -> String {
        self.parser.screen().contents()
    }

    fn take(&mut self, bytes: Vec<u8>) {
        self.parser.process(&bytes);
        // A mark may be split between two reads: look from just before the new bytes.
        let from = self.raw.len().saturating_sub(FRAME_BEGIN.len() - 1);
        self.raw.extend(bytes);
        for at in from..self.raw.len() {
            let rest = &self.raw[at..];
            if rest.starts_with(FRAME_BEGIN) {
                self.mid_frame = true;
            } else if rest.starts_with(FRAME_END) {
                self.mid_frame = false;
            }
        }
    }

    /// Reads output until `done` holds for the screen, or panics after a timeout with the
    /// screen as it is. `done` is asked only of whole frames: never while the program is
    /// drawing one (between the marks of a synchronized update), when the screen shows
    /// the top of the new frame over the rest of the old.
    pub fn wait_for(&mut self, what: &str, done: impl Fn(&vt100::Screen) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while self.mid_frame || !done(self.parser.screen()) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(bytes) => self.take(bytes),
                Err(_) => panic!(
                    "timed out waiting for {what}; screen:\n{}",
                    self.parser.screen().contents()
                ),
            }
        }
    }

    /// Reads output until `done` holds for everything the program wrote so far (as text),
    /// or panics after a timeout: for what the screen does not show as written.
    pub fn wait_for_output(&mut self, what: &str, done: impl Fn(&str) -> bool) {
        let deadline = Instant::now() + PATIENCE;
        while !done(&String::from_utf8_lossy(&self.raw)) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(bytes) => self.take(bytes),
                Err(_) => panic!(
                    "timed out waiting for {what}; output:\n{}",
                    String::from_utf8_lossy(&self.raw)
                ),
            }
        }
    }

    /// Past the home screen that `checkers` with no game named opens: Enter starts a
    /// game for two people.
    pub fn past_home(&mut self) {
        self.wait_for("the home screen", |s| {
            s.contents().contains("Two players at this terminal")
        });
        self.send(b"\r");
    }

    /// Where `text` is drawn, searching from the bottom row up (so that the key line's
    /// entry is found before the same words above it): the screen column and row of
    /// its first character, both from 0. Wide characters take their two columns.
    pub fn find(&self, text: &str) -> Option<(u16, u16)> {
        let rows = self.parser.screen().size().0.get();
        self.find_in(text, (0..rows).rev())
    }

    /// [`Session::find`] from the top row down (a square's number on the board before
    /// the same number in the news under it).
    pub fn find_first(&self, text: &str) -> Option<(u16, u16)> {
        let rows = self.parser.screen().size().0.get();
        self.find_in(text, 0..rows)
    }

    /// Where `text` is first drawn on `rows`, in their order.
    fn find_in(&self, text: &str, rows: impl Iterator<Item = u16>) -> Option<(u16, u16)> {
        let screen = self.parser.screen();
        let cols = screen.size().1.get();
        let wanted: Vec<char> = text.chars().collect();
        for row in rows {
            // Each character drawn on the row, with its column.
            let mut drawn: Vec<(u16, char)> = Vec::new();
            for col in 0..cols {
                let Some(cell) = screen.cell(row, col) else {
                    continue;
                };
                if cell.is_wide_continuation() {
                    continue;
                }
                let c = cell.contents().chars().next().unwrap_or(' ');
                drawn.push((col, c));
            }
            let found = drawn.windows(wanted.len()).find(|window| {
                window
                    .iter()
                    .zip(&wanted)
                    .all(|((_, drawn), wanted)| drawn == wanted)
            });
            if let Some(window) = found {
                return Some((window[0].0, row));
            }
        }
        None
    }

    /// Presses and releases the left mouse button at `column`, `row` of the screen (from
    /// 0), as a terminal reports it in SGR mouse mode.
    pub fn click(&mut self, column: u16, row: u16) {
        let (x, y) = (column + 1, row + 1);
        self.send(format!("\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m").as_bytes());
    }

    /// Turns the mouse wheel once at `column`, `row` (from 0), down or up.
    pub fn wheel(&mut self, column: u16, row: u16, down: bool) {
        let button = if down { 65 } else { 64 };
        self.send(format!("\x1b[<{button};{};{}M", column + 1, row + 1).as_bytes());
    }

    /// Clicks the first character of `text` where [`Session::find`] finds it; panics
    /// with the screen when it is not drawn.
    pub fn click_on(&mut self, text: &str) {
        let Some((column, row)) = self.find(text) else {
            panic!("no {text:?} to click on; screen:\n{}", self.contents());
        };
        self.click(column, row);
    }

    /// Makes the terminal `cols` x `rows`: the program is told so (SIGWINCH) and the
    /// screen read from then on is that size.
    pub fn resize(&mut self, cols: u16, rows: u16) {
        self._master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        self.parser.set_size(
            NonZeroU16::new(rows).unwrap(),
            NonZeroU16::new(cols).unwrap(),
        );
    }

    pub fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    /// Waits for the program to exit, then reads the rest of its output.
    pub fn exit_status(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + PATIENCE;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "the game did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        // Everything it wrote, to the end of the terminal's output (the reader ends
        // there), however long the reader takes to pass it on: not only what came within
        // a moment.
        let deadline = Instant::now() + PATIENCE;
        while let Ok(bytes) = self
            .output
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.take(bytes);
        }
        status
    }
}

impl Drop for Session {
    /// A test that fails midway must not leave the game running.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Waits until `done` holds, or panics after a timeout naming `what`.
pub fn wait_until(what: &str, done: impl Fn() -> bool) {
    let deadline = Instant::now() + PATIENCE;
    while !done() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The summary line of `checkers pdn check FILE`.
pub fn check_summary(sandbox: &Sandbox, file: &Path) -> String {
    let out = run_in(sandbox, &["pdn", "check", file.to_str().unwrap()], b"");
    super::command::text(&out.stdout)
        .lines()
        .last()
        .unwrap_or_default()
        .to_string()
}

/// Runs the program with `args` in `sandbox` (its data folder), standard input from
/// `input`, and returns its output; panics if it has not ended within a few seconds (a
/// program that hangs on a FIFO, say).
pub fn run_in(sandbox: &Sandbox, args: &[&str], input: &[u8]) -> std::process::Output {
    let mut command = std::process::Command::new(super::program_for(args));
    command.args(args);
    run_command_in(command, sandbox, args, input, PATIENCE)
}

/// Runs `command` (the program with `args`, perhaps behind a shell) in `sandbox`, as
/// [`run_in`] does, and returns its output; panics if it has not ended within `limit`.
pub fn run_command_in(
    mut command: std::process::Command,
    sandbox: &Sandbox,
    args: &[&str],
    input: &[u8],
    limit: Duration,
) -> std::process::Output {
    use std::process::Stdio;
    let mut child = command
        .env("HOME", sandbox.home())
        .env("XDG_DATA_HOME", sandbox.data_home())
        // UTF-8 whatever the test runner's locale: in another plain mode writes ASCII.
        .env("LANG", "C.UTF-8")
        .env_remove("LC_ALL")
        .env_remove("LC_CTYPE")
        .current_dir(sandbox.home())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let deadline = Instant::now() + limit;
    while child.try_wait().unwrap().is_none() {
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("checkers {args:?} did not end");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = writer.join();
    child.wait_with_output().unwrap()
}
