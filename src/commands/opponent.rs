//! Another program as a match opponent: for each move it is run as `CMD analyse --fen
//! FEN --movetime MS` (this program's own interface, so any two builds can play) and
//! its last `bestmove MOVE` line is its move.

use crate::rules::{Move, Position};
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// An opponent program, run through the shell once a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opponent {
    /// The command, as given to `--against`.
    pub command: String,
}

/// How long past its time an opponent may take before it forfeits the game.
const GRACE: Duration = Duration::from_secs(5);

impl Opponent {
    /// The opponent's move in `pos`, searched for `movetime`; or why there is none (the
    /// program failed, took far too long, or answered with no legal move).
    pub fn best_move(&self, pos: &Position, movetime: Duration) -> Result<Move, String> {
        let line = format!(
            "{} analyse --fen '{pos}' --movetime {}",
            self.command,
            movetime.as_millis().max(1)
        );
        let mut child = Command::new("sh")
            .args(["-c", &line])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.command))?;
        let deadline = Instant::now() + movetime * 3 + GRACE;
        loop {
            match child.try_wait() {
                Ok(Some(_)) => break,
                Ok(None) if Instant::now() > deadline => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!("{} took too long", self.command));
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(2)),
                Err(e) => return Err(format!("{}: {e}", self.command)),
            }
        }
        let mut out = String::new();
        if let Some(mut stdout) = child.stdout.take() {
            let _ = stdout.read_to_string(&mut out);
        }
        let Some(text) = out
            .lines()
            .rev()
            .find_map(|l| l.trim().strip_prefix("bestmove "))
        else {
            return Err(format!("{} gave no bestmove line", self.command));
        };
        pos.parse_move(text.trim())
            .map_err(|e| format!("{} played {text}: {e}", self.command))
    }
}
