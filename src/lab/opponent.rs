//! Another program as a match opponent: for each move it is run as `CMD analyse --fen
//! FEN --movetime MS` (this program's own interface, so any two builds can play) and
//! its last `bestmove MOVE` line is its move; or, with `--hub`, it is started once a
//! game and spoken to by the Hub protocol ([`super::hub_engine`]).
//!
//! The program's output is read as it comes, on threads of their own, keeping only the
//! last `bestmove` line and the last line of its errors (each line read at most
//! [`MAX_LINE_BYTES`] at a time): however much it prints, it never blocks on a full
//! pipe and memory stays small. It runs in a process group of its own, so a program
//! that takes too long is ended with everything it started.

use super::hub_engine::{HubEngine, HubSettings};
use crate::game::Game;
use crate::rules::{Move, Position};
use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// An opponent program, run through the shell.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Opponent {
    /// The command, as given to `--against`.
    pub(crate) command: String,
    /// How it is asked for its moves: run once a move as `analyse`, or kept running a
    /// whole game, spoken to by the Hub protocol with these settings (`--hub`).
    pub(crate) hub: Option<HubSettings>,
}

/// An opponent for one game: the once-a-move program, or a Hub program started for it.
pub(crate) enum OpponentGame<'a> {
    /// Run as `analyse` for each move.
    PerMove(&'a Opponent),
    /// A Hub program, running until the game's end.
    Hub(HubEngine),
}

impl OpponentGame<'_> {
    /// The opponent's move in the position `game` has reached, searched for
    /// `movetime`; or why there is none.
    pub(crate) fn best_move(&mut self, game: &Game, movetime: Duration) -> Result<Move, String> {
        match self {
            OpponentGame::PerMove(opponent) => opponent.best_move(game.position(), movetime),
            OpponentGame::Hub(engine) => engine.best_move(game, movetime),
        }
    }

    /// Ends the game for the opponent (a Hub program is asked to quit).
    pub(crate) fn finish(self) {
        if let OpponentGame::Hub(engine) = self {
            engine.quit();
        }
    }
}

/// How long past its time an opponent may take before it forfeits the game.
const GRACE: Duration = Duration::from_secs(5);

/// The longest piece of a line of the opponent's output looked at; the rest of a longer
/// line is read and dropped.
pub(crate) const MAX_LINE_BYTES: u64 = 4096;

/// How long the output is waited for once the program has ended (a child it left
/// running elsewhere may hold the pipe open).
const DRAIN_WAIT: Duration = Duration::from_secs(1);

/// What a run of the opponent gave.
struct Answer {
    /// How it ended (`None` if it was ended for taking too long).
    status: Option<ExitStatus>,
    /// Its last `bestmove` word, if any.
    bestmove: Option<String>,
    /// The last line it wrote on its standard error, if any.
    complaint: Option<String>,
}

impl Opponent {
    /// The opponent's move in `pos`, searched for `movetime`; or why there is none (the
    /// program could not run or failed, took far too long, or answered with no legal
    /// move).
    pub(crate) fn best_move(&self, pos: &Position, movetime: Duration) -> Result<Move, String> {
        let line = format!(
            "{} analyse --fen '{pos}' --movetime {}",
            self.command,
            movetime.as_millis().max(1)
        );
        let answer = self.run(&line, movetime * 3 + GRACE)?;
        let name = crate::text::printable(&self.command, 80);
        let Some(status) = answer.status else {
            return Err(format!("{name} took too long"));
        };
        let Some(text) = answer.bestmove else {
            let why = answer
                .complaint
                .map(|c| format!(": {}", crate::text::printable(&c, 200)))
                .unwrap_or_default();
            return Err(match status.code() {
                Some(127) => format!("cannot run {name}: not found{why}"),
                Some(0) => format!("{name} gave no bestmove line{why}"),
                _ => format!("{name} failed ({status}){why}"),
            });
        };
        pos.parse_move(&text)
            .map_err(|e| format!("{name} played {}: {e}", crate::text::printable(&text, 40)))
    }

    /// The opponent for a game: a Hub program is started (or why it could not be).
    pub(crate) fn for_game(&self) -> Result<OpponentGame<'_>, String> {
        match self.hub {
            None => Ok(OpponentGame::PerMove(self)),
            Some(settings) => HubEngine::start(&self.command, settings).map(OpponentGame::Hub),
        }
    }

    /// Checks that the program runs and answers with a legal move, before the first
    /// game: a program that is missing or broken is an error of the match, not a
    /// forfeit of every game.
    pub(crate) fn check(&self, movetime: Duration) -> Result<(), String> {
        let mut game = self.for_game()?;
        let answer = game.best_move(&Game::new(), movetime);
        game.finish();
        answer.map(drop)
    }

    /// Runs `line` through the shell, reading its output as it comes, for at most
    /// `allowed`; then ends whatever of its process group is left.
    fn run(&self, line: &str, allowed: Duration) -> Result<Answer, String> {
        let mut child = spawn(line, Stdio::null()).map_err(|e| {
            format!(
                "cannot run {}: {e}",
                crate::text::printable(&self.command, 80)
            )
        })?;
        let (best_send, best) = mpsc::channel();
        if let Some(stdout) = child.stdout.take() {
            std::thread::spawn(move || {
                let _ = best_send.send(last_line(stdout, |l| {
                    l.trim()
                        .strip_prefix("bestmove ")
                        .map(|m| m.trim().to_string())
                }));
            });
        }
        let (complaint_send, complaint) = mpsc::channel();
        if let Some(stderr) = child.stderr.take() {
            std::thread::spawn(move || {
                let _ = complaint_send.send(last_line(stderr, |l| {
                    Some(l.trim().to_string()).filter(|l| !l.is_empty())
                }));
            });
        }
        let status = wait_until(&mut child, Instant::now() + allowed);
        end_group(&mut child);
        Ok(Answer {
            status: status.map_err(|e| format!("{}: {e}", self.command))?,
            bestmove: best.recv_timeout(DRAIN_WAIT).ok().flatten(),
            complaint: complaint.recv_timeout(DRAIN_WAIT).ok().flatten(),
        })
    }
}

/// Starts `line` through the shell in a process group of its own (so that it can be
/// ended with whatever it starts), its output and errors piped to this program.
pub(crate) fn spawn(line: &str, stdin: Stdio) -> std::io::Result<Child> {
    let mut command = Command::new("sh");
    command
        .args(["-c", line])
        .stdin(stdin)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        command.process_group(0);
    }
    command.spawn()
}

/// Waits for `child` to end until `deadline`: how it ended, or `None` past the deadline.
pub(crate) fn wait_until(
    child: &mut Child,
    deadline: Instant,
) -> std::io::Result<Option<ExitStatus>> {
    loop {
        if let Some(status) = child.try_wait()? {
            return Ok(Some(status));
        }
        if Instant::now() > deadline {
            return Ok(None);
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// Ends `child` and every process of its group (what a shell script started), and
/// collects it.
pub(crate) fn end_group(child: &mut Child) {
    #[cfg(unix)]
    if let Some(group) = i32::try_from(child.id())
        .ok()
        .and_then(rustix::process::Pid::from_raw)
    {
        // The group is gone already when all its processes ended: nothing to do then.
        let _ = rustix::process::kill_process_group(group, rustix::process::Signal::KILL);
    }
    let _ = child.kill();
    let _ = child.wait();
}

/// The last line of `pipe` (read to its end) that `pick` makes something of. Each line
/// is looked at in its first [`MAX_LINE_BYTES`] bytes only; the rest is dropped.
fn last_line<T>(pipe: impl Read, pick: impl Fn(&str) -> Option<T>) -> Option<T> {
    let mut found = None;
    for_each_line(pipe, |line| {
        if let Some(picked) = pick(line) {
            found = Some(picked);
        }
        true
    });
    found
}

/// Calls `each` with every line of `pipe` (its first [`MAX_LINE_BYTES`] bytes; the rest
/// of a longer line is dropped) until the pipe ends or `each` says to stop.
pub(crate) fn for_each_line(pipe: impl Read, mut each: impl FnMut(&str) -> bool) {
    let mut reader = BufReader::new(pipe);
    let mut piece = Vec::new();
    let mut at_line_start = true;
    loop {
        piece.clear();
        match (&mut reader)
            .take(MAX_LINE_BYTES)
            .read_until(b'\n', &mut piece)
        {
            Ok(0) | Err(_) => return,
            Ok(_) => {}
        }
        let whole = at_line_start;
        at_line_start = piece.ends_with(b"\n");
        if whole && !each(&String::from_utf8_lossy(&piece)) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_last_bestmove_line_is_found_in_endless_chatter() {
        let mut out = Vec::new();
        out.extend_from_slice(b"bestmove 9-14\n");
        out.extend(std::iter::repeat_n(b'x', 1 << 20));
        out.extend_from_slice(b" bestmove 1-5\ninfo depth 3\n  bestmove 11-15 \ninfo\n");
        let pick = |l: &str| {
            l.trim()
                .strip_prefix("bestmove ")
                .map(|m| m.trim().to_string())
        };
        assert_eq!(last_line(&out[..], pick), Some("11-15".to_string()));
        assert_eq!(last_line(&b"nothing\n"[..], pick), None);
    }
}
