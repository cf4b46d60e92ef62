//! The real binary in a pseudo-terminal: start, type a move, see it listed, quit, and
//! find the terminal restored.
#![allow(clippy::unwrap_used)]

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// The game running in a pseudo-terminal, and what it has drawn so far.
struct Session {
    child: Box<dyn Child + Send + Sync>,
    writer: Box<dyn Write + Send>,
    // Kept so the pseudo-terminal stays open while the test reads and writes.
    _master: Box<dyn MasterPty + Send>,
    output: Receiver<Vec<u8>>,
    parser: vt100::Parser,
    /// Every byte the program wrote.
    raw: Vec<u8>,
}

impl Session {
    /// Starts the game in an 80x24 pseudo-terminal with these arguments and extra
    /// environment variables.
    fn start(args: &[&str], env: &[(&str, &str)]) -> Session {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 24,
                cols: 80,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_checkers"));
        cmd.args(args);
        cmd.env("TERM", "xterm-256color");
        cmd.env_remove("NO_COLOR");
        for (key, value) in env {
            cmd.env(key, value);
        }
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
        }
    }

    fn take(&mut self, bytes: Vec<u8>) {
        self.parser.process(&bytes);
        self.raw.extend(bytes);
    }

    /// Reads output until `done` holds for the screen, or panics after a timeout with the
    /// screen as it is.
    fn wait_for(&mut self, what: &str, done: impl Fn(&vt100::Screen) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(self.parser.screen()) {
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

    fn send(&mut self, bytes: &[u8]) {
        self.writer.write_all(bytes).unwrap();
        self.writer.flush().unwrap();
    }

    /// Waits for the program to exit, then reads the rest of its output.
    fn exit_status(&mut self) -> portable_pty::ExitStatus {
        let deadline = Instant::now() + Duration::from_secs(10);
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            assert!(Instant::now() < deadline, "the game did not exit");
            std::thread::sleep(Duration::from_millis(20));
        };
        while let Ok(bytes) = self.output.recv_timeout(Duration::from_millis(200)) {
            self.take(bytes);
        }
        status
    }
}

#[test]
fn type_a_move_see_it_listed_and_quit() {
    let mut game = Session::start(&[], &[]);
    game.wait_for("the start screen", |s| {
        s.contents().contains("Black to move") && s.contents().contains("(none yet)")
    });
    assert!(game.parser.screen().alternate_screen());
    assert_ne!(
        game.parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "mouse capture on"
    );

    game.send(b"11-15\r");
    game.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15") && s.contents().contains("White to move")
    });

    // A move was played, so quitting asks first.
    game.send(b"q");
    game.wait_for("the quit question", |s| {
        s.contents().contains("Quit this game?")
    });
    game.send(b"y");
    let status = game.exit_status();
    assert!(status.success(), "exit status {status:?}");

    let screen = game.parser.screen();
    assert!(!screen.alternate_screen(), "alternate screen left");
    assert_eq!(screen.mouse_protocol_mode(), vt100::MouseProtocolMode::None);
    assert!(!screen.hide_cursor(), "cursor shown again");
    assert!(sets_a_colour(&game.raw), "the default theme is coloured");
}

/// Whether the output sets a foreground or background colour (SGR 30-38, 40-48, 90-97,
/// 100-107); resetting to the default colour (39, 49) is fine.
fn sets_a_colour(raw: &[u8]) -> bool {
    let text = String::from_utf8_lossy(raw);
    text.split("\x1b[").skip(1).any(|seq| {
        let Some(end) = seq.find(|c: char| !(c.is_ascii_digit() || c == ';')) else {
            return false;
        };
        if !seq[end..].starts_with('m') {
            return false;
        }
        seq[..end].split(';').any(|p| {
            matches!(
                p.parse::<u32>(),
                Ok(30..=38 | 40..=48 | 90..=97 | 100..=107)
            )
        })
    })
}

#[test]
fn no_color_no_mouse_and_ctrl_c() {
    let mut game = Session::start(&["--no-mouse"], &[("NO_COLOR", "1")]);
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    assert_eq!(
        game.parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None,
        "--no-mouse leaves mouse capture off"
    );
    game.send(b"11-15\r");
    game.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15")
    });
    game.send(b"\x03");
    let status = game.exit_status();
    assert!(status.success(), "exit status {status:?}");
    assert!(!sets_a_colour(&game.raw), "a colour was set under NO_COLOR");
    assert!(!game.parser.screen().alternate_screen());
}

#[test]
fn the_colour_check_sees_colours() {
    assert!(sets_a_colour(b"\x1b[38;5;2mx"));
    assert!(sets_a_colour(b"\x1b[1;42mx"));
    assert!(!sets_a_colour(b"\x1b[39m\x1b[49m\x1b[1;7mx\x1b[0m"));
}
