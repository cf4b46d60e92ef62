//! The real binary in a pseudo-terminal: start, type a move, see it listed, quit, and
//! find the terminal restored.
#![allow(clippy::unwrap_used)]

use portable_pty::{CommandBuilder, PtySize, native_pty_system};
use std::io::{Read, Write};
use std::num::NonZeroU16;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

struct Screen {
    parser: vt100::Parser,
    output: Receiver<Vec<u8>>,
}

impl Screen {
    /// Feeds output into the parser until `done` holds for the screen, or panics after a
    /// timeout with the screen as it is.
    fn wait_for(&mut self, what: &str, done: impl Fn(&vt100::Screen) -> bool) {
        let deadline = Instant::now() + Duration::from_secs(10);
        while !done(self.parser.screen()) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.output.recv_timeout(left) {
                Ok(bytes) => self.parser.process(&bytes),
                Err(_) => panic!(
                    "timed out waiting for {what}; screen:\n{}",
                    self.parser.screen().contents()
                ),
            }
        }
    }
}

#[test]
fn type_a_move_see_it_listed_and_quit() {
    let pty = native_pty_system()
        .openpty(PtySize {
            rows: 24,
            cols: 80,
            pixel_width: 0,
            pixel_height: 0,
        })
        .unwrap();
    let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_checkers"));
    cmd.env("TERM", "xterm-256color");
    cmd.env_remove("NO_COLOR");
    let mut child = pty.slave.spawn_command(cmd).unwrap();
    drop(pty.slave);
    let mut reader = pty.master.try_clone_reader().unwrap();
    let mut writer = pty.master.take_writer().unwrap();
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let mut buf = [0u8; 4096];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 || tx.send(buf[..n].to_vec()).is_err() {
                break;
            }
        }
    });
    let mut screen = Screen {
        parser: vt100::Parser::new(
            NonZeroU16::new(24).unwrap(),
            NonZeroU16::new(80).unwrap(),
            0,
        ),
        output: rx,
    };

    screen.wait_for("the start screen", |s| {
        s.contents().contains("Black to move") && s.contents().contains("(none yet)")
    });
    assert!(screen.parser.screen().alternate_screen());

    writer.write_all(b"11-15\r").unwrap();
    writer.flush().unwrap();
    screen.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15") && s.contents().contains("White to move")
    });

    // A move was played, so quitting asks first.
    writer.write_all(b"q").unwrap();
    writer.flush().unwrap();
    screen.wait_for("the quit question", |s| {
        s.contents().contains("Quit this game?")
    });
    writer.write_all(b"y").unwrap();
    writer.flush().unwrap();

    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "the game did not exit");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(status.success(), "exit status {status:?}");
    screen.wait_for("the normal screen back", |s| !s.alternate_screen());
    // Drain what is left, then check mouse capture was turned off.
    while let Ok(bytes) = screen.output.recv_timeout(Duration::from_millis(200)) {
        screen.parser.process(&bytes);
    }
    assert_eq!(
        screen.parser.screen().mouse_protocol_mode(),
        vt100::MouseProtocolMode::None
    );
}
