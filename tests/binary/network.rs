//! Games across the network: real `checkers host`, `join` and `watch` processes on the
//! loopback address, each in a sandbox and a pseudo-terminal of its own, talking over
//! TCP. Most play in plain mode (every line they print is kept and looked for); one
//! joiner plays on the full-screen board.

use crate::common::proxy::Proxy;
use crate::common::pty::{Sandbox, Session, wait_until};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant};

/// How long a line the test waits for may take.
const PATIENCE: Duration = Duration::from_secs(30);

/// A `checkers` process in plain mode in a pseudo-terminal of its own (as a person
/// runs it), its lines read as they come.
pub(crate) struct Peer {
    pub(crate) child: Box<dyn portable_pty::Child + Send + Sync>,
    writer: Option<Box<dyn Write + Send>>,
    _master: Box<dyn portable_pty::MasterPty + Send>,
    lines: Receiver<String>,
    /// Every line printed so far (and not yet used up by an expect).
    pub(crate) seen: Vec<String>,
    pub(crate) _sandbox: Option<Sandbox>,
}

impl Peer {
    pub(crate) fn start(sandbox: &Sandbox, args: &[&str]) -> Peer {
        use portable_pty::{PtySize, native_pty_system};
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: 50,
                // Wide, so that no line the test looks for is wrapped.
                cols: 400,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd =
            crate::common::pty::sandboxed(sandbox, env!("CARGO_BIN_EXE_checkers"), args, &[]);
        cmd.env_remove("CHECKERS_PREFERENCES");
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        let reader = pty.master.try_clone_reader().unwrap();
        let writer = pty.master.take_writer().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(reader).split(b'\n') {
                let Ok(line) = line else { break };
                let line = String::from_utf8_lossy(&line).trim_end().to_string();
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Peer {
            child,
            writer: Some(writer),
            _master: pty.master,
            lines,
            seen: Vec::new(),
            _sandbox: None,
        }
    }

    /// Types `line`.
    pub(crate) fn say(&mut self, line: &str) {
        let writer = self.writer.as_mut().unwrap();
        write!(writer, "{line}\r").unwrap();
        writer.flush().unwrap();
    }

    /// Waits for a line containing `text` (one printed before counts only if not yet
    /// waited for), and returns it.
    pub(crate) fn expect(&mut self, text: &str) -> String {
        let mut used_up = self.used_up_to(text);
        used_up.pop().expect("the line waited for")
    }

    /// Waits for a line containing `text`, as [`expect`](Self::expect) does, and
    /// returns the lines printed before it, used up with it.
    pub(crate) fn lines_until(&mut self, text: &str) -> Vec<String> {
        let mut used_up = self.used_up_to(text);
        used_up.pop();
        used_up
    }

    /// Waits for a line containing `text`: the lines up to it, it last, used up (the
    /// next expect looks after it).
    fn used_up_to(&mut self, text: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(i) = self.seen.iter().position(|l| l.contains(text)) {
                return self.seen.drain(..=i).collect();
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => self.seen.push(line),
                Err(_) => panic!("never saw {text:?}; last lines: {:#?}", self.seen),
            }
        }
    }

    /// Every line that comes within `wait`, kept for later expects too.
    pub(crate) fn lines_within(&mut self, wait: Duration) -> Vec<String> {
        let deadline = Instant::now() + wait;
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            self.seen.push(line);
        }
        self.seen.clone()
    }

    /// `kill -9`: no last word, no save.
    pub(crate) fn kill(&mut self) {
        let pid = self.child.process_id().unwrap();
        let status = Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        assert!(status.success());
        let _ = self.child.wait();
    }

    /// Waits for it to exit: its exit code.
    pub(crate) fn finish(&mut self) -> i32 {
        let deadline = Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status.exit_code() as i32;
            }
            assert!(Instant::now() < deadline, "did not exit: {:#?}", self.seen);
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for Peer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The arguments of `checkers host` on the loopback address at `port` with `code`, then
/// `more`.
fn host_args<'a>(port: &'a str, code: &'a str, more: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec![
        "host",
        "--bind",
        "127.0.0.1",
        "--port",
        port,
        "--code",
        code,
    ];
    args.extend_from_slice(more);
    args
}

/// A host in plain mode on the loopback address with `code` and `extra` options: the
/// process and the address it printed.
pub(crate) fn host_in(sandbox: &Sandbox, code: &str, port: &str, extra: &[&str]) -> (Peer, String) {
    let mut args = host_args(port, code, &["--plain"]);
    args.extend_from_slice(extra);
    let mut host = Peer::start(sandbox, &args);
    let line = host.expect("Waiting for a player: checkers join ");
    let address = line
        .split("checkers join ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_string();
    (host, address)
}

pub(crate) fn host(code: &str, extra: &[&str]) -> (Peer, String) {
    let sandbox = Sandbox::new();
    let (mut peer, address) = host_in(&sandbox, code, "0", extra);
    peer._sandbox = Some(sandbox);
    (peer, address)
}

/// `checkers join` (or `watch`) in plain mode, in a sandbox of its own.
pub(crate) fn joiner(command: &str, address: &str, code: &str, name: &str) -> Peer {
    let sandbox = Sandbox::new();
    let mut peer = joiner_in(&sandbox, command, address, code, name);
    peer._sandbox = Some(sandbox);
    peer
}

/// A joiner as [`joiner`] starts one, at home in `sandbox` (where it keeps its seat
/// token, as one user's joiner started again finds it).
pub(crate) fn joiner_in(
    sandbox: &Sandbox,
    command: &str,
    address: &str,
    code: &str,
    name: &str,
) -> Peer {
    let mut args = vec![command, address, "--code", code, "--plain"];
    if !name.is_empty() {
        args.extend(["--name", name]);
    }
    Peer::start(sandbox, &args)
}

/// The record files a sandbox holds (the host's autosaves, a joiner's copies).
pub(crate) fn records(sandbox: &Sandbox, folder: &str) -> Vec<String> {
    let dir = sandbox.data_dir().join(folder);
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().ends_with(".pdn"))
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .filter_map(|e| std::fs::read_to_string(e.path()).ok())
        .collect()
}

#[test]
fn a_short_game_with_a_capture_and_a_crowning_is_seen_alike_at_both_ends_and_by_a_spectator() {
    let (mut host, address) = host(
        "maple-1111",
        &["--fen", "B:W18,32:B14,26", "--black-name", "Ann"],
    );
    let mut bob = joiner("join", &address, "maple-1111", "Bob");
    host.expect("Bob joined, playing White");
    bob.expect("Black to move, a capture is compulsory");
    let mut eve = joiner("watch", &address, "maple-1111", "");
    eve.expect("Black to move");
    host.say("14x23");
    for peer in [&mut host, &mut bob, &mut eve] {
        peer.expect("Black played 14x23. White to move.");
    }
    // Nobody moves for the other side, and a spectator does not move at all.
    host.say("32-28");
    host.expect("Refused 32-28: White is played at the other terminal");
    eve.say("32-28");
    eve.expect("you are watching");
    bob.say("32-28");
    for peer in [&mut host, &mut bob, &mut eve] {
        peer.expect("White played 32-28. Black to move.");
    }
    host.say("26-31");
    for peer in [&mut host, &mut bob, &mut eve] {
        peer.expect("Black played 26-31, crowned. White to move.");
    }
    bob.say("say well played");
    for peer in [&mut host, &mut bob] {
        peer.expect("Bob says: well played");
    }
    bob.say("resign");
    for peer in [&mut host, &mut bob, &mut eve] {
        peer.expect("Black wins: White resigned.");
    }
    // Each board shows the same position at the end.
    for peer in [&mut host, &mut bob, &mut eve] {
        peer.say("fen");
        peer.expect("FEN: W:W28:B23,K31");
    }
    host.say("quit");
    assert_eq!(host.finish(), 0);
    // The host's record has both names, where it was played and every move; the
    // joiner kept its own copy as the game went.
    let host_sandbox = host._sandbox.as_ref().unwrap();
    let kept = records(host_sandbox, "games");
    assert!(
        kept.iter().any(|r| r.contains("[Black \"Ann\"]")
            && r.contains("[White \"Bob\"]")
            && r.contains("[Site \"checkers host 127.0.0.1:")
            && r.contains("14x23")
            && r.contains("26-31")
            && r.contains("1-0")),
        "{kept:#?}"
    );
    let copy = records(bob._sandbox.as_ref().unwrap(), "network");
    assert!(
        copy.iter()
            .any(|r| r.contains("26-31") && r.contains("1-0") && r.contains("Bob")),
        "{copy:#?}"
    );
}

/// A move typed with the wrong separator (`14-23` for a capture, `32x28` for a step) is
/// played at either end of a LAN game, and the player who typed it told how it is
/// written, as at one terminal (the joiner's was played without a word); the other
/// end hears the move as it is written.
#[test]
fn a_move_typed_with_the_wrong_separator_is_played_with_a_word_at_the_end_that_typed_it() {
    let (mut host, address) = host("maple-2222", &["--fen", "B:W18,32:B14,26"]);
    let mut bob = joiner("join", &address, "maple-2222", "Bob");
    host.expect("Bob joined, playing White");
    bob.expect("Black to move, a capture is compulsory");
    host.say("14-23");
    host.expect(
        "Black played 14x23 (14-23 was typed: 14 to 23 is a capture, written with x: 14x23). \
         White to move.",
    );
    bob.expect("Black played 14x23. White to move.");
    bob.say("32x28");
    bob.expect(
        "White played 32-28 (32x28 was typed: 32 to 28 is no capture; a plain move is \
         written 32-28). Black to move.",
    );
    host.expect("White played 32-28. Black to move.");
    host.say("quit");
    assert_eq!(host.finish(), 0);
}

#[test]
fn a_flag_falls_on_both_screens_at_once() {
    let (mut host, address) = host("cedar-2222", &["--clock", "G/0:02"]);
    let mut bob = joiner("join", &address, "cedar-2222", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    // White does not move: its two seconds run out at the host, which tells everyone.
    let at_host = {
        host.expect("White lost on time");
        Instant::now()
    };
    bob.expect("White lost on time");
    let at_joiner = Instant::now();
    // Told as the host tells it, not at the joiner's next look at the line (a ping goes
    // every 5 s); the bound leaves room for a machine loaded with other work.
    assert!(
        at_joiner.saturating_duration_since(at_host) < Duration::from_secs(2),
        "the joiner heard of the flag {:?} after the host",
        at_joiner - at_host
    );
}

#[test]
fn a_draw_offer_is_accepted_and_a_take_back_refused_across_the_line() {
    let (mut host, address) = host("birch-3333", &[]);
    let mut bob = joiner("join", &address, "birch-3333", "Bob");
    host.expect("Bob joined");
    // The joiner's board is turned to its side: Black's back row on top.
    bob.say("board");
    bob.expect("|    | 1 b|    | 2 b|    | 3 b|    | 4 b|");
    bob.expect("|29 w|    |30 w|    |31 w|    |32 w|    |");
    host.say("11-15");
    bob.expect("Black played 11-15");
    // A take-back asked by the host is refused by the joiner: the move stands.
    host.say("undo");
    host.expect("Asked White to agree to take back your move 11-15");
    bob.expect("Black asks to take back their move 11-15: type yes or no.");
    bob.say("no");
    host.expect("White refused the take-back: the move stands");
    bob.say("fen");
    bob.expect("FEN: W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
    bob.say("22-18");
    host.expect("White played 22-18");
    // Black offers a draw on its move: the joiner is told it once (its line said it
    // twice: "... accept or decline. Black to move; Black offers a draw (accept or
    // decline).").
    // Whether the offer's state came before its words decided it: three offers.
    let offer_once = |host: &mut Peer, bob: &mut Peer| {
        host.say("draw");
        let told = bob.expect("offers a draw");
        assert_eq!(told.matches("offers a draw").count(), 1, "{told}");
        assert!(told.contains("Black to move"), "{told}");
        bob.say("decline");
        host.expect("White declines");
    };
    offer_once(&mut host, &mut bob);
    host.say("15x22");
    bob.expect("Black played 15x22");
    bob.say("25x18");
    host.expect("White played 25x18");
    offer_once(&mut host, &mut bob);
    host.say("8-11");
    bob.expect("Black played 8-11");
    bob.say("29-25");
    host.expect("White played 29-25");
    offer_once(&mut host, &mut bob);
    host.say("4-8");
    bob.expect("Black played 4-8");
    // White offers a draw on its move; Black accepts.
    bob.say("draw");
    host.expect("White offers a draw");
    host.say("accept");
    for peer in [&mut host, &mut bob] {
        peer.expect("Draw by agreement");
    }
}

#[test]
fn a_killed_joiner_joins_again_and_the_game_goes_on_with_every_move() {
    let (mut host, address) = host("aspen-4444", &["--clock", "5+0"]);
    let home = Sandbox::new();
    let mut bob = joiner_in(&home, "join", &address, "aspen-4444", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    // The seat token is kept (written before the game is shown), for the joiner alone.
    let tokens: Vec<_> = std::fs::read_dir(home.data_dir().join("seats"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(tokens.len(), 1, "{tokens:?}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&tokens[0]).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    bob.say("23-19");
    host.expect("White played 23-19");
    let mut eve = joiner("watch", &address, "aspen-4444", "");
    eve.expect("Black to move; clocks:");
    bob.kill();
    // The host sees the line drop and stops the clocks; a spectator is told too.
    let dropped = host.expect("White's line dropped");
    assert!(dropped.contains("the clocks are stopped"), "{dropped}");
    eve.expect(
        "White's line dropped: the clocks are stopped and the game waits for them to join again.",
    );
    host.say("8-11");
    host.expect("the other player is not connected");
    // Started again at the same home, it takes its seat back at once with its token
    // (the seat is kept for it from anyone else with the code).
    let mut bob = joiner_in(&home, "join", &address, "aspen-4444", "Bob");
    host.expect("Bob joined, playing White");
    eve.expect("Bob joined, playing White");
    bob.say("show 1");
    bob.expect("After move 1 (White's 23-19)");
    host.say("8-11");
    bob.expect("Black played 8-11. White to move");
    bob.say("22-17");
    host.expect("White played 22-17");
}

/// A first join whose line is cut before the host's first word (nothing proven either
/// way) tries again, and sits down, rather than give up on the host.
#[test]
fn a_first_join_cut_before_the_key_exchange_tries_again() {
    let (mut host, address) = host("holly-2727", &[]);
    let proxy = Proxy::to(&address);
    proxy.cut_next_connections(1);
    let mut bob = joiner("join", &proxy.address, "holly-2727", "Bob");
    bob.expect("The line to the host dropped before its welcome");
    bob.expect("You play White");
    host.expect("Bob joined, playing White");
}

/// A move sent into a line that then drops, before it reached the host, is not lost:
/// once the line is back, the joiner sends it again (and says so), and both ends play
/// on from the same position.
#[test]
fn a_move_lost_with_a_dropped_line_is_sent_again_when_the_line_is_back() {
    let (mut host, address) = host("alder-9191", &["--clock", "5+0"]);
    let proxy = Proxy::to(&address);
    let mut bob = joiner("join", &proxy.address, "alder-9191", "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    proxy.swallow();
    bob.say("22-18");
    // More than a ping's 35 bytes at once: the move, lost on the way.
    proxy.wait_swallowed_write_over(35);
    proxy.cut();
    host.expect("White's line dropped");
    bob.expect("Your move 22-18 did not reach the host before the line dropped: sent again");
    host.expect("White played 22-18");
    // The joiner's board stood at the host's game without the move until the host
    // answers the move sent again.
    bob.expect("White played 22-18");
    host.say("fen");
    let at_host = host.expect("FEN: ");
    bob.say("fen");
    let at_joiner = bob.expect("FEN: ");
    assert_eq!(at_host, at_joiner);
    assert!(at_host.starts_with("FEN: B:W18,"), "{at_host}");
}

/// A move typed while the joiner's own line to the host is down is kept, and the
/// joiner told so (its own line, not the other player's absence); once the line is back
/// the move is sent by itself and played (it was refused, to be typed again).
#[test]
fn a_move_typed_while_the_joiners_own_line_is_down_is_kept_and_played_once_it_is_back() {
    let (mut host, address) = host("cedar-7373", &[]);
    let proxy = Proxy::to(&address);
    let mut bob = joiner("join", &proxy.address, "cedar-7373", "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    // The line drops and every try to join again is cut too, for now.
    proxy.cut_next_connections(1000);
    proxy.cut();
    bob.expect("The line to the host dropped");
    bob.say("22-18");
    let kept = bob.expect("your move 22-18 is kept");
    assert!(
        kept.contains("Your line to the host is down")
            && kept.contains("sent once you are connected again"),
        "{kept}"
    );
    assert!(!kept.contains("not connected"), "{kept}");
    proxy.cut_next_connections(0);
    bob.expect("Connected to the host.");
    bob.expect("Your move 22-18 typed while the line was down: sent now");
    host.expect("White played 22-18");
    bob.expect("White played 22-18");
    bob.say("fen");
    let at_joiner = bob.expect("FEN: ");
    assert!(at_joiner.starts_with("FEN: B:W18,"), "{at_joiner}");
}

/// White's time left, as `clock` tells it at `peer` ("Black 4:59, White 4:58
/// (running).").
fn white_clock(peer: &mut Peer) -> Duration {
    peer.say("clock");
    let line = loop {
        let line = peer.expect(", White ");
        if line.trim_start_matches("> ").starts_with("Black ") {
            break line;
        }
    };
    let reading: String = line
        .split(", White ")
        .nth(1)
        .unwrap()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':' || *c == '.')
        .collect();
    let reading = reading.trim_end_matches('.');
    let seconds = match reading.split_once(':') {
        Some((m, s)) => m.parse::<f64>().unwrap() * 60.0 + s.parse::<f64>().unwrap(),
        None => reading.parse::<f64>().unwrap(),
    };
    Duration::from_secs_f64(seconds)
}

/// A line that goes silent both ways: the joiner counts it down after ten seconds and
/// says its clocks are stopped; the host lets it go only after fifteen. The joiner is
/// charged for no more of the silence than one ping (5 s), the host says how much it
/// gave back, and the joiner's stopped clock is the one the host keeps.
#[test]
fn a_silent_line_charges_the_joiner_no_more_than_its_stopped_clock_showed() {
    silent_line_charged("rowan-4646", true);
}

/// As above, the joiner's new line taking over its seat before the host let the silent
/// one go.
#[test]
fn a_silent_line_taken_over_by_the_joiners_new_one_charges_no_more_than_one_ping() {
    silent_line_charged("sorb-4747", false);
}

/// A joiner's line goes silent both ways; it joins again once the host let the silent
/// line go (`host_lets_go`), or at once, taking over its seat: the joiner's time lost
/// to the silence is one ping at most, and the same as its stopped clock showed.
fn silent_line_charged(code: &str, host_lets_go: bool) {
    let (mut host, address) = host(code, &["--clock", "5+0"]);
    let proxy = Proxy::to(&address);
    let mut bob = joiner("join", &proxy.address, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    let before = white_clock(&mut bob);
    // Silent both ways; every try to join again is cut until the joiner's stopped
    // clock is read (and the host let the line go, if it is to).
    proxy.cut_next_connections(1000);
    proxy.stall();
    bob.expect("The line to the host dropped");
    let stopped = white_clock(&mut bob);
    let dropped = host_lets_go.then(|| host.expect("White's line dropped"));
    proxy.cut_next_connections(0);
    bob.expect("Connected to the host.");
    let after = white_clock(&mut bob);
    // One ping's worth of the silence at most, with a second for the readings' rounding
    // and one for the moments between them and the line's changes.
    let charged = before.saturating_sub(after);
    assert!(
        charged <= Duration::from_secs(7),
        "White was charged {charged:?} of a silent line (before {before:?}, stopped at \
         {stopped:?}, after {after:?})"
    );
    // The stopped clock the joiner showed is what the host kept.
    let apart = after.abs_diff(stopped);
    assert!(
        apart <= Duration::from_millis(1500),
        "the joiner showed {stopped:?} while down, the host kept {after:?}"
    );
    // The host says what it gave back: as a dropped line it let go, or, when the new
    // line took over, as the player back (never as a line the game waits on).
    let told = dropped.unwrap_or_else(|| {
        host.expect("White's line went silent and its player is back on a new line")
    });
    assert!(told.contains("s given back to White"), "{told}");
}

/// A joiner that resigns and leaves leaves the host a finished game: the host is not
/// told that the game waits for anyone.
#[test]
fn a_joiner_resigning_then_leaving_leaves_the_host_nothing_waiting() {
    let (mut host, address) = host("hazel-5353", &[]);
    let mut bob = joiner("join", &address, "hazel-5353", "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    bob.say("resign");
    host.expect("White resigned");
    bob.say("quit");
    bob.expect("Goodbye.");
    assert_eq!(bob.finish(), 0);
    let left = host.expect("White left the table");
    assert!(!left.contains("waits"), "{left}");
    host.say("moves");
    let status = host.expect("No legal moves.");
    assert!(status.contains("White resigned"), "{status}");
    assert!(!status.contains("waits"), "{status}");
}

/// A joiner that leaves is told whether the host keeps a game to go on with: none
/// before any move (as at one terminal, a game with no move is not kept), the game
/// once a move was played.
#[test]
fn a_joiner_leaving_is_told_whether_a_game_stays_with_the_host() {
    let (mut host, address) = host("elder-8181", &[]);
    let mut bob = joiner("join", &address, "elder-8181", "Bob");
    host.expect("Bob joined, playing White");
    bob.expect("You play White");
    bob.say("quit");
    let goodbye = bob.expect("Goodbye.");
    assert!(
        goodbye.contains(&format!(
            "No move was played, so there is no game to keep: checkers join {address} \
             --code elder-8181 sits at the host's table again while the host waits."
        )),
        "{goodbye}"
    );
    assert!(!goodbye.contains("stays with the host"), "{goodbye}");
    assert_eq!(bob.finish(), 0);
    host.expect("White left the table");
    // Once a move is played, the game is the host's to keep.
    let mut bob = joiner("join", &address, "elder-8181", "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    bob.say("quit");
    let goodbye = bob.expect("Goodbye.");
    assert!(
        goodbye.contains(&format!(
            "The game stays with the host: checkers join {address} --code elder-8181 goes \
             on with it."
        )),
        "{goodbye}"
    );
    assert_eq!(bob.finish(), 0);
}

/// A plain joiner is told at once which side it plays and who plays the other (as the
/// full screen's first words say), a plain spectator that it watches; the host quitting
/// mid-game adjourns it, and the joiner is told so in a sentence, then taken back when
/// the host resumes.
#[test]
fn a_plain_joiner_is_told_its_side_and_the_host_quitting_mid_game_in_a_sentence() {
    let sandbox = Sandbox::new();
    let (mut host, address) = host_in(&sandbox, "rowan-7777", "0", &["--name", "Ann"]);
    // Its port, for the resumed host: taken by the first host, never let go before it.
    let port = port_of(&address);
    let mut bob = joiner("join", &address, "rowan-7777", "Bob");
    bob.expect("You play White; Ann plays Black at the other terminal.");
    host.expect("Bob joined");
    let mut eve = joiner("watch", &address, "rowan-7777", "");
    eve.expect("You are watching: moves are made at the players' terminals.");
    host.say("11-15");
    bob.expect("Black played 11-15");
    host.say("quit");
    // The short command works: the door (its address, port and code) is kept.
    host.expect(&format!(
        "Goodbye. The game is adjourned: checkers host --resume goes on with it at the same \
         port ({port}) and code (rowan-7777), and its player's board joins again by itself."
    ));
    assert_eq!(host.finish(), 0);
    bob.expect("The host adjourned the game: it goes on when the host resumes it.");
    let mut host = Peer::start(&sandbox, &["host", "--resume", "--plain"]);
    let line = host.expect("Waiting for a player: checkers join ");
    assert!(
        line.contains(&format!("join {address} --code rowan-7777 ")),
        "{line}"
    );
    host.expect("Bob joined, playing White");
    bob.expect("Connected to the host");
    bob.say("23-19");
    host.expect("White played 23-19");
}

/// A resumed host gives the joiner that comes back by itself a new seat token; it is
/// kept as the first was, so the joiner killed after that and started again takes its
/// seat back at once rather than wait out the seat kept for its old line.
#[test]
fn a_joiner_restarted_after_the_host_resumed_takes_its_seat_back_at_once() {
    let sandbox = Sandbox::new();
    let (mut host, address) = host_in(&sandbox, "birch-6161", "0", &[]);
    // Its port, for the resumed host: taken by the first host, never let go before it.
    let port = port_of(&address);
    let home = Sandbox::new();
    let mut bob = joiner_in(&home, "join", &address, "birch-6161", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    host.say("quit");
    assert_eq!(host.finish(), 0);
    bob.expect("The host adjourned the game");
    let (mut host, _) = host_in(&sandbox, "birch-6161", &port, &["--resume"]);
    host.expect("Bob joined, playing White");
    bob.expect("Connected to the host");
    bob.kill();
    host.expect("White's line dropped");
    let started = Instant::now();
    let mut bob = joiner_in(&home, "join", &address, "birch-6161", "Bob");
    // At once: its token is the resumed host's, not one refused for now until the
    // seat kept for the killed line is let go (half a minute).
    host.expect("Bob joined, playing White");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    bob.expect("You play White");
    bob.say("23-19");
    host.expect("White played 23-19");
}

#[test]
fn a_host_killed_and_resumed_is_rejoined_by_itself() {
    let sandbox = Sandbox::new();
    // A fixed port, so the resumed host is where the joiner looks.
    let (mut host, address) = host_in(&sandbox, "hazel-5555", "0", &["--clock", "5+0"]);
    // Its port, for the resumed host: taken by the first host, never let go before it.
    let port = port_of(&address);
    let mut bob = joiner("join", &address, "hazel-5555", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    bob.say("23-19");
    host.expect("White played 23-19");
    host.kill();
    bob.expect("The line to the host dropped");
    let (mut host, _) = host_in(&sandbox, "hazel-5555", &port, &["--resume"]);
    // The joiner's board comes back by itself, with the game where it stood.
    host.expect("Bob joined, playing White");
    bob.expect("Connected to the host");
    host.say("8-11");
    bob.expect("Black played 8-11. White to move");
    bob.say("fen");
    bob.expect("FEN: W:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,9,10,11,12,15");
    drop(host);
}

/// `checkers host --resume` alone opens the game's former door: the port the system
/// gave its first host and the code it drew, kept beside the record for its owner alone
/// and never in the record, so the joiner's board and a spectator's come back by
/// themselves (a resumed host listened at 4610 with a new code: neither could).
#[test]
fn a_killed_host_resumed_with_no_port_or_code_keeps_its_door_and_is_rejoined() {
    let sandbox = Sandbox::new();
    let mut host = Peer::start(
        &sandbox,
        &["host", "--bind", "127.0.0.1", "--port", "0", "--plain"],
    );
    let line = host.expect("Waiting for a player: checkers join ");
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "join").unwrap();
    let (address, code) = (words[at + 1].to_string(), words[at + 3].to_string());
    let mut bob = joiner("join", &address, &code, "Bob");
    host.expect("Bob joined");
    let mut eve = joiner("watch", &address, &code, "");
    eve.expect("Black to move");
    host.say("11-15");
    bob.expect("Black played 11-15");
    eve.expect("Black played 11-15");
    let games = sandbox.games_dir();
    let door = std::fs::read_dir(&games)
        .unwrap()
        .filter_map(|e| e.ok())
        .find(|e| e.file_name().to_string_lossy().ends_with(".door"))
        .expect("the door kept beside the record")
        .path();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&door).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "the code is its owner's alone: {mode:o}");
    }
    assert!(
        sandbox
            .game_texts()
            .iter()
            .all(|record| !record.contains(&code)),
        "the code is never in the record"
    );
    host.kill();
    bob.expect("The line to the host dropped");
    let mut host = Peer::start(
        &sandbox,
        &["host", "--bind", "127.0.0.1", "--plain", "--resume"],
    );
    let line = host.expect("Waiting for a player: checkers join ");
    assert!(
        line.contains(&format!("join {address} --code {code} ")),
        "{line}"
    );
    host.expect("Bob joined, playing White");
    bob.expect("Connected to the host");
    eve.expect("Connected to the host");
    bob.say("23-19");
    for peer in [&mut host, &mut eve] {
        peer.expect("White played 23-19");
    }
    // Once the game is over its code is kept no longer.
    host.say("resign");
    bob.expect("White wins");
    wait_until("the door removed", || !door.exists());
}

/// A resumed host whose former port another program took meanwhile listens at a free
/// one and says so with the whole line to join again, the code kept.
#[test]
fn a_resumed_host_whose_port_is_taken_says_where_to_join_now() {
    let sandbox = Sandbox::new();
    let (mut host, address) = host_in(&sandbox, "rowan-8181", "0", &[]);
    let mut bob = joiner("join", &address, "rowan-8181", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    drop(bob);
    host.kill();
    let _taken = std::net::TcpListener::bind(&address).expect("the former port, free again");
    let mut host = Peer::start(
        &sandbox,
        &["host", "--bind", "127.0.0.1", "--plain", "--resume"],
    );
    let told = host.expect("join again with checkers join");
    let port = port_of(&address);
    assert!(
        told.contains(&format!("This game's port {port} is taken")),
        "{told}"
    );
    let now = told
        .split("checkers join ")
        .nth(1)
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap()
        .to_string();
    assert_ne!(now, address);
    assert!(
        told.ends_with(&format!("checkers join {now} --code rowan-8181")),
        "{told}"
    );
    let mut bob = joiner("join", &now, "rowan-8181", "Bob");
    host.expect("Bob joined, playing White");
    bob.say("23-19");
    host.expect("White played 23-19");
}

#[test]
fn joining_a_port_where_another_program_answers_says_so() {
    use std::io::{BufRead, Write};
    // A web server's answer to the greeting, as at a mistyped port.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let server = std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut greeting = String::new();
        std::io::BufReader::new(&stream)
            .read_line(&mut greeting)
            .unwrap();
        (&stream)
            .write_all(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
            .unwrap();
    });
    let mut joiner = joiner("join", &address, "rowan-6666", "Bob");
    joiner.expect("answered, but not as `checkers host` does");
    assert_eq!(joiner.finish(), 1);
    server.join().unwrap();
}

#[test]
fn joining_a_port_that_takes_the_connection_and_never_answers_says_so() {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let mut joiner = joiner("join", &address, "rowan-6666", "Bob");
    // Taken by the kernel's backlog, and never answered.
    joiner.expect("took the connection but did not answer within 5 s");
    assert_eq!(joiner.finish(), 1);
    drop(listener);
}

#[test]
fn a_wrong_code_is_refused_and_tells_nothing_of_the_game() {
    let (mut host, address) = host("rowan-6666", &["--black-name", "Ann"]);
    let mut mallory = joiner("join", &address, "rowan-6667", "Mallory");
    mallory.expect("the host refused: wrong code");
    assert_eq!(mallory.finish(), 1);
    assert!(
        !mallory
            .seen
            .iter()
            .any(|l| l.contains("Ann") || l.contains("Black to move")),
        "{:#?}",
        mallory.seen
    );
    // The host plays on: a player with the right code joins.
    let mut bob = joiner("join", &address, "rowan-6666", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
}

#[test]
fn garbage_a_huge_line_and_a_thousand_connections_leave_the_game_untouched() {
    let (mut host, address) = host("larch-7777", &[]);
    let mut bob = joiner("join", &address, "larch-7777", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    // Garbage: told why, let go.
    let mut garbage = TcpStream::connect(&address).unwrap();
    garbage.write_all(b"GET / HTTP/1.1\r\n\r\n").unwrap();
    let mut answer = String::new();
    let _ = garbage.read_to_string(&mut answer);
    assert!(answer.contains("not one of this program's"), "{answer}");
    // A 100 MB line: refused after the first 256 KB, without the host keeping it.
    let mut huge = TcpStream::connect(&address).unwrap();
    let chunk = vec![b'x'; 1 << 20];
    let mut sent = 0;
    for _ in 0..100 {
        match huge.write_all(&chunk) {
            Ok(()) => sent += 1,
            Err(_) => break,
        }
    }
    assert!(sent < 100, "the host read all of a 100 MB line");
    // A thousand connections, one after another, each greeting with a wrong code (past
    // the first few, refused for now before the key exchange).
    for i in 0..1000 {
        let Ok(stream) = TcpStream::connect(&address) else {
            continue;
        };
        let mut guess = crate::network_line::Raw::over(stream);
        guess.hello(&format!("guess-{i}"), "player", None);
        let answer = guess.rest();
        assert!(
            answer.contains("wrong code")
                || answer.contains("try again shortly")
                || answer.is_empty(),
            "{answer}"
        );
    }
    // The game goes on.
    bob.say("22-18");
    host.expect("White played 22-18");
    host.say("15x22");
    bob.expect("Black played 15x22");
    let lines = bob.lines_within(Duration::from_millis(200));
    assert!(
        !lines.iter().any(|l| l.contains("line to the host dropped")),
        "{lines:#?}"
    );
}

#[test]
fn the_joiner_plays_on_the_full_screen_board_turned_to_its_side() {
    let (mut host, address) = host("alder-8888", &[]);
    let sandbox = Sandbox::new();
    let mut bob = Session::start_in(
        &sandbox,
        &["join", &address, "--code", "alder-8888", "--name", "Bob"],
        &[],
    );
    host.expect("Bob joined");
    host.say("11-15");
    bob.wait_for("Black's move on the board", |s| {
        s.contents().contains("White to move")
    });
    bob.wait_for("the board turned to White", |s| board_turned(&s.contents()));
    bob.send(b"22-18\r");
    host.expect("White played 22-18");
    // The joiner's board follows the host's state (it may come a moment after the
    // host's own words): then Black's move is not this board's to make.
    bob.wait_for("the host's state after 22-18", |s| {
        s.contents().contains("Black to move")
    });
    bob.send(b"15x22\r");
    bob.wait_for("the refusal", |s| {
        s.contents().contains("played at the other terminal")
    });
    host.say("15x22");
    bob.wait_for("Black's capture", |s| {
        s.contents().contains("Black played 15x22")
    });
    // Once the refused move's prompt is closed, the footer offers an undo (asked of the
    // host) but no redo, which is refused across the network.
    bob.send(b"\x1b");
    bob.wait_for("the board's keys", |s| s.contents().contains("u undo"));
    let screen = bob.contents();
    assert!(!screen.contains("redo"), "{screen}");
    // The host gone, the joiner's own line is what is down: tried again, and said so,
    // with no clocks to stop in a game without them (it said "the clocks stopped").
    host.kill();
    bob.wait_for("the line down, tried again, no clocks named", |s| {
        panel_text(&s.contents()).contains("The line to the host is down: trying again")
    });
}

/// A full-screen host whose player has not joined yet (its clocks stopped) keeps its
/// board in use: a typed move is refused as the table says (no move until the player
/// joins), not with a break's "p starts the clocks again", which a table refuses.
#[test]
fn a_full_screen_host_waiting_for_its_player_refuses_a_move_for_the_table_reason() {
    let sandbox = Sandbox::new();
    let mut host = Session::start_in(
        &sandbox,
        &[
            "host",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--code",
            "cedar-5555",
            "--clock",
            "5+3",
        ],
        &[],
    );
    // The panel's words (the host prints where to join before its screen is up).
    host.wait_for("the board, waiting", |s| {
        s.contents().contains("Clocks stopped: player away")
    });
    host.send(b"11-15\r");
    host.wait_for("the refusal", |s| {
        s.contents().contains("No move is played until then")
    });
    assert!(
        !host.contents().contains("p starts the clocks"),
        "{}",
        host.contents()
    );
}

/// A full-screen joiner killed mid-game and started again is told whose move it is
/// ("Black to move"), not who starts the game ("Black moves first").
#[test]
fn a_full_screen_joiner_back_mid_game_is_told_whose_move_it_is() {
    let (mut host, address) = host("birch-9999", &["--clock", "5+0"]);
    let sandbox = Sandbox::new();
    let join = ["join", &address, "--code", "birch-9999", "--name", "Bob"];
    let mut bob = Session::start_in(&sandbox, &join, &[]);
    host.expect("Bob joined");
    bob.wait_for("the first words", |s| {
        s.contents()
            .contains("Black moves first, at the other terminal")
    });
    host.say("11-15");
    bob.wait_for("Black's move", |s| s.contents().contains("White to move"));
    bob.send(b"23-19\r");
    host.expect("White played 23-19");
    bob.signal("KILL");
    host.expect("White's line dropped");
    let mut bob = Session::start_in(&sandbox, &join, &[]);
    host.expect("Bob joined, playing White");
    bob.wait_for("whose move it is", |s| {
        s.contents()
            .contains("You play White: Black to move, at the other terminal")
    });
    assert!(
        !bob.contents().contains("moves first"),
        "{}",
        bob.contents()
    );
}

/// The line of square numbers above the cursor's `[` on the board (each row of squares
/// has its numbers on the line above its pieces).
fn cursor_row_label(screen: &str) -> Option<String> {
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines.iter().position(|l| l.contains('['))?;
    lines.get(at.checked_sub(1)?).map(|l| l.to_string())
}

/// Whether the board is turned to White: squares 1-4 (Black's back row) on top, 29-32
/// (White's) at the bottom, nearest the player.
fn board_turned(screen: &str) -> bool {
    let row_with = |squares: [&str; 4]| {
        screen.lines().position(|line| {
            let words: Vec<&str> = line
                .split(|c: char| !c.is_ascii_digit())
                .filter(|w| !w.is_empty())
                .collect();
            words.starts_with(&squares)
        })
    };
    match (
        row_with(["1", "2", "3", "4"]),
        row_with(["29", "30", "31", "32"]),
    ) {
        (Some(top), Some(bottom)) => top < bottom,
        _ => false,
    }
}

#[test]
fn a_hung_up_host_ends() {
    let sandbox = Sandbox::new();
    let mut host = waiting_host(&sandbox, "0", "oak-1", &[]);
    // The terminal goes away: the signal watcher restores it and the program ends
    // (it once waited for ever on standard output, held by the command runner).
    host.signal("HUP");
    let deadline = Instant::now() + PATIENCE;
    while !host.exited() {
        assert!(
            Instant::now() < deadline,
            "the host is still running after SIGHUP"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn in_a_match_the_colours_change_at_both_ends() {
    let (mut host, address) = host("ember-9999", &["--match", "1", "--black-name", "Ann"]);
    let mut bob = joiner("join", &address, "ember-9999", "Bob");
    host.expect("Bob joined, playing White");
    bob.say("next");
    bob.expect("the host starts the match's next game");
    host.say("11-15");
    bob.expect("Black played 11-15");
    bob.say("resign");
    host.expect("White resigned");
    host.say("next");
    // Game 2: Bob has Black now, and moves first; Ann's White waits for him.
    host.expect("Game 2 of 2");
    host.say("11-15");
    host.expect("Black is played at the other terminal");
    // Bob moves once his terminal has heard of game 2, not before.
    bob.expect("Game 2 of 2");
    bob.say("11-15");
    host.expect("Black played 11-15");
    bob.expect("Black played 11-15. White (Ann) to move");
    host.say("22-18");
    bob.expect("White played 22-18");
}

#[test]
fn a_peer_of_another_version_is_told_so() {
    let (_host, address) = host("flint-1212", &[]);
    let mut stream = TcpStream::connect(&address).unwrap();
    stream
        .write_all(b"{\"type\":\"hello\",\"version\":7,\"code\":\"flint-1212\",\"role\":\"player\",\"name\":null}\n")
        .unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer);
    assert!(answer.contains("version 7"), "{answer}");
    assert!(answer.contains("refused"), "{answer}");
}

#[test]
fn the_full_screen_joiner_keeps_its_side_at_the_bottom_as_a_match_changes_colours() {
    let (mut host, address) = host("opal-1313", &["--match", "1"]);
    let sandbox = Sandbox::new();
    let mut bob = Session::start_in(
        &sandbox,
        &["join", &address, "--code", "opal-1313", "--name", "Bob"],
        &[],
    );
    host.expect("Bob joined");
    bob.wait_for("the board turned to White", |s| board_turned(&s.contents()));
    bob.send(b"r");
    bob.wait_for("the resign question", |s| {
        s.contents().contains("Resign? White")
    });
    bob.send(b"y");
    host.expect("White resigned");
    host.say("next");
    host.expect("Game 2 of 2");
    // Bob has Black now: his men are at the bottom again.
    bob.wait_for("the board turned back to Black", |s| {
        s.contents().contains("Game 2 of 2") && !board_turned(&s.contents())
    });
}

/// A full-screen `checkers host` on the loopback address at `port`, with `code` and
/// `more` options, once its board waits for a player.
fn waiting_host(sandbox: &Sandbox, port: &str, code: &str, more: &[&str]) -> Session {
    let args = host_args(port, code, more);
    let mut host = Session::start_in(sandbox, &args, &[]);
    host.wait_for("the waiting board, where to join", |s| {
        let panel = panel_text(&s.contents());
        panel.contains("Waiting for ") && panel.contains(": give them checkers join ")
    });
    host
}

/// The port of `address` (a host's, as it says where to join), for a host resumed where
/// its players look: a port the system gave the first host (`--port 0`), not one found
/// free and let go, which another program could take before the host does.
pub(crate) fn port_of(address: &str) -> String {
    address.rsplit_once(':').unwrap().1.to_string()
}

/// The address a full-screen host's panel says to join.
fn joining_address(host: &Session) -> String {
    let panel = panel_text(&host.contents());
    let words: Vec<&str> = panel.split_whitespace().collect();
    let at = words.iter().position(|w| *w == "join").expect(&panel);
    words[at + 1].to_string()
}

#[test]
fn each_full_screen_board_says_who_moves_questions_wait_their_turn_and_n_plays_again() {
    let code = "oak-2323";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--name", "Ann"]);
    let address = joining_address(&ann);
    let join_box = Sandbox::new();
    let mut bob = Session::start_in(
        &join_box,
        &["join", &address, "--code", code, "--name", "Bob"],
        &[],
    );
    // The joiner plays White: it is told Black moves first, elsewhere.
    bob.wait_for("White's opening words", |s| {
        s.contents().contains("You play White: Black moves first")
    });
    let watch_box = Sandbox::new();
    let mut eve = Session::start_in(&watch_box, &["watch", &address, "--code", code], &[]);
    eve.wait_for("a spectator's opening words", |s| {
        s.contents().contains("You are watching: Black to move")
    });
    // A host's spectator listens: the chat key says so at once, with no line to type.
    eve.send(b"'");
    eve.wait_for("the chat refused at once", |s| {
        let text = s.contents();
        text.contains("only its players talk") && !text.contains("Say:")
    });
    ann.send(b"11-15\r");
    bob.wait_for("Black's move", |s| s.contents().contains("White to move"));
    // The host's cursor stays with her own men (on 15, where she moved), not on the
    // other terminal's side to move.
    ann.wait_for("the cursor on the square Ann moved to", |s| {
        cursor_row_label(&s.contents()).is_some_and(|labels| labels.contains("15"))
    });
    // Bob offers a draw, then asks to take back a move: Ann is asked one after the
    // other, neither question lost.
    bob.send(b"d");
    bob.wait_for("the offer question", |s| s.contents().contains("Offer"));
    bob.send(b"y");
    ann.wait_for("the draw question", |s| {
        s.contents().contains("White offers a draw")
    });
    bob.send(b"u");
    ann.send(b"n");
    ann.wait_for("the take-back question, after the draw's", |s| {
        s.contents()
            .contains("White asks to take back your move 11-15")
    });
    ann.send(b"n");
    // A draw agreed; n at the joiner says the host starts the next game, and n at the
    // host starts it, the colours changed over.
    bob.send(b"d");
    bob.wait_for("the offer question", |s| s.contents().contains("Offer"));
    bob.send(b"y");
    ann.wait_for("the draw question again", |s| {
        s.contents().contains("White offers a draw")
    });
    ann.send(b"y");
    bob.wait_for("the draw", |s| s.contents().contains("Draw by agreement"));
    bob.send(b"n");
    bob.wait_for("who starts a new game", |s| {
        s.contents().contains("host starts a new game")
    });
    ann.send(b"n");
    ann.wait_for("the new game at the host, Ann now White", |s| {
        s.contents()
            .contains("New game: you play White: Black moves first")
    });
    bob.wait_for("the new game at the joiner, Bob now Black", |s| {
        s.contents()
            .contains("New game: you play Black, and move first")
    });
    bob.send(b"11-15\r");
    ann.wait_for("Bob's first move of the new game", |s| {
        s.contents().contains("Black played 11-15")
    });
    // Each game has its own copy at the joiner.
    crate::common::pty::wait_until("a copy of each game at the joiner", || {
        records(&join_box, "network").len() == 2
    });
}

#[test]
fn a_finished_game_refuses_moves_as_over_and_a_host_resume_names_the_window_it_is_open_in() {
    let sandbox = Sandbox::new();
    let (mut host, address) = host_in(&sandbox, "pine-1414", "0", &[]);
    let mut bob = joiner("join", &address, "pine-1414", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    bob.say("resign");
    host.expect("White resigned");
    bob.say("22-18");
    bob.expect("the game is over");
    host.say("22-18");
    host.expect("the game is over");
    // Leaving a finished game is not adjourning it.
    bob.say("quit");
    host.expect("White left the table");
    let seen = host.lines_within(Duration::from_millis(200));
    assert!(
        !seen.iter().any(|l| l.contains("goes on when they join")),
        "{seen:#?}"
    );
    // A second game, left unfinished and open in its host: another host --resume says
    // where it is.
    let (mut second, address) = host_in(&sandbox, "pine-1515", "0", &[]);
    let mut carl = joiner("join", &address, "pine-1515", "Carl");
    second.expect("Carl joined");
    second.say("11-15");
    carl.expect("Black played 11-15");
    let out = crate::common::pty::run_in(
        &sandbox,
        &[
            "host",
            "--resume",
            "--bind",
            "127.0.0.1",
            "--port",
            "0",
            "--plain",
        ],
        b"",
    );
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("is open in another window"), "{said}");
    assert!(!out.status.success());
}

#[test]
fn a_rejoined_board_has_the_chat_and_one_copy_of_the_game() {
    let (mut host, address) = host("cedar-1616", &[]);
    let bob_box = Sandbox::new();
    let args = [
        "join",
        &address,
        "--code",
        "cedar-1616",
        "--name",
        "Bob",
        "--plain",
    ];
    let mut bob = Peer::start(&bob_box, &args);
    host.expect("Bob joined");
    bob.say("say hello there");
    host.expect("Bob says: hello there");
    host.say("11-15");
    bob.expect("Black played 11-15");
    bob.kill();
    // A game without clocks has none to stop.
    let dropped = host.expect("White's line dropped");
    assert!(
        dropped.ends_with("the game waits for them to join again.") && !dropped.contains("clock"),
        "{dropped}"
    );
    // In plain mode too, a board joining again is told the chat so far.
    let mut plain = Peer::start(&bob_box, &args);
    host.expect("Bob joined");
    plain.expect("Bob says: hello there");
    plain.kill();
    host.expect("White's line dropped");
    let mut again = Session::start_in(&bob_box, &args[..6], &[]);
    host.expect("Bob joined");
    again.wait_for("the chat said before the rejoin", |s| {
        s.contents().contains("hello there")
    });
    again.send(b"22-18\r");
    host.expect("White played 22-18");
    crate::common::pty::wait_until("the joiner's copy with both moves", || {
        records(&bob_box, "network")
            .iter()
            .any(|r| r.contains("22-18"))
    });
    let copies = records(&bob_box, "network");
    assert_eq!(copies.len(), 1, "{copies:#?}");
    assert!(copies[0].contains("11-15"), "{copies:#?}");
}

/// A move typed the moment a full-screen board is started (before its terminal is raw,
/// so its Enter comes as a line feed) is taken, at the joiner; and a line feed is Enter
/// at the full-screen host too.
#[test]
fn a_move_typed_as_the_full_screen_starts_keeps_its_enter_at_both_ends() {
    let code = "elm-3131";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--side", "white"]);
    let address = joining_address(&ann);
    let join_box = Sandbox::new();
    let mut bob = Session::start_in(&join_box, &["join", &address, "--code", code], &[]);
    // Typed at once: it arrives while the joiner still greets the host, its terminal
    // not raw yet.
    bob.send(b"11-15\r");
    ann.wait_for("the joiner's move typed at once", |s| {
        s.contents().contains("Black played 11-15")
    });
    ann.send(b"23-19\n");
    bob.wait_for("the host's move, its Enter a line feed", |s| {
        s.contents().contains("White played 23-19")
    });
}

/// The full-screen host that adjourns with `a` says, once its terminal is restored, how
/// to take the game up again; that command does, and the player's board comes back.
#[test]
fn a_full_screen_host_adjourning_says_on_the_restored_terminal_how_to_resume() {
    let code = "fir-4242";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &[]);
    let address = joining_address(&ann);
    // Its port, for the resumed host: taken by the first host, never let go before it.
    let port = port_of(&address);
    let mut bob = joiner("join", &address, code, "Bob");
    bob.expect("You play White");
    ann.wait_for("Bob at the table", |s| s.contents().contains("Bob joined"));
    ann.send(b"11-15\r");
    bob.expect("Black played 11-15");
    ann.send(b"q");
    ann.wait_for("the leave question", |s| {
        s.contents().contains("a adjourns it")
    });
    // Every choice fits the 80 columns.
    let question = ann.contents();
    let whole = "Leave the game? a adjourns it (checkers host --resume)  r resigns  n stays";
    assert!(question.contains(whole), "{question}");
    ann.send(b"a");
    assert!(ann.exit_status().success());
    let hint = format!(
        "The game is adjourned: checkers host --resume goes on with it at the same port \
         ({port}) and code ({code})"
    );
    let screen = ann.contents().replace('\n', "");
    assert!(screen.contains(&hint), "{screen}");
    bob.expect("The host adjourned the game");
    // The command it names, as it is, takes the game up where it stood (at the address
    // listened at before, this machine's alone), and Bob's board is back.
    let mut host = Peer::start(&host_box, &["host", "--resume", "--plain"]);
    host.expect(&format!(
        "Waiting for a player: checkers join {address} --code {code} "
    ));
    host.expect("Bob joined, playing White");
    bob.expect("Connected to the host");
    bob.say("23-19");
    host.expect("White played 23-19");
}

/// The full-screen host that leaves before any move is played offers no adjourning (a
/// game with no move is not one `checkers host --resume` takes up): it asks only whether
/// to leave, says no way to resume, and the joiner is told there is no game to go on
/// with. Once a move is played, adjourning is offered again.
#[test]
fn a_full_screen_host_leaving_before_any_move_offers_no_adjourning() {
    let code = "yew-5151";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &[]);
    let address = joining_address(&ann);
    let mut bob = joiner("join", &address, code, "Bob");
    bob.expect("You play White");
    ann.wait_for("Bob at the table", |s| s.contents().contains("Bob joined"));
    ann.send(b"q");
    let asked = "Leave the game? No move yet: nothing to resume. y leaves  n stays";
    ann.wait_for("the leave question", |s| s.contents().contains(asked));
    assert!(!ann.contents().contains("adjourn"), "{}", ann.contents());
    // n stays at the table; q asks again, and y leaves.
    ann.send(b"n");
    ann.wait_for("the board's keys back", |s| {
        !s.contents().contains(asked) && s.contents().contains("q quit")
    });
    ann.send(b"q");
    ann.wait_for("the leave question again", |s| s.contents().contains(asked));
    ann.send(b"y");
    assert!(ann.exit_status().success());
    let screen = ann.contents();
    assert!(!screen.contains("host --resume"), "{screen}");
    bob.expect("The host left before any move was played: there is no game to go on with");
}

/// A full-screen joiner that leaves before any move is played is asked, as the host is,
/// only whether to leave (nothing is kept to adjourn, nor worth resigning), and the host
/// is told it left the table, not that the game is saved; once a move is played, its
/// leave question offers adjourning again.
#[test]
fn a_full_screen_joiner_leaving_before_any_move_offers_no_adjourning() {
    let code = "elm-6161";
    let (mut host, address) = host(code, &[]);
    let bob_box = Sandbox::new();
    let join = ["join", address.as_str(), "--code", code, "--name", "Bob"];
    let mut bob = Session::start_in(&bob_box, &join, &[]);
    host.expect("Bob joined");
    bob.wait_for("the board's keys", |s| s.contents().contains("q quit"));
    bob.send(b"q");
    let asked = "Leave the game? No move yet: nothing to resume. y leaves  n stays";
    bob.wait_for("the leave question", |s| s.contents().contains(asked));
    let screen = bob.contents();
    assert!(!screen.contains("adjourn"), "{screen}");
    assert!(!screen.contains("resigns"), "{screen}");
    bob.send(b"y");
    assert!(bob.exit_status().success());
    let left = host.expect("White left the table");
    assert!(!left.contains("saved"), "{left}");
    // Back at the table (its seat token kept in its sandbox), a move played: leaving
    // adjourns again.
    let mut bob = Session::start_in(&bob_box, &join, &[]);
    host.expect("Bob joined");
    host.say("11-15");
    bob.wait_for("Black's move and the board's keys", |s| {
        s.contents().contains("Black played 11-15") && s.contents().contains("q quit")
    });
    bob.send(b"q");
    bob.wait_for("the adjourning question", |s| {
        s.contents()
            .contains("a adjourns it (connect again to go on)  r resigns  n stays")
    });
}

/// A ballot's moves are none of the players': with no move of their own and an unnamed
/// joiner (so the host writes no file), neither end offers to adjourn a game nothing
/// keeps; the joiner's first move brings the offer back.
#[test]
fn a_ballot_game_with_no_move_of_the_players_own_offers_no_adjourning() {
    let asked = "Leave the game? No move yet: nothing to resume. y leaves  n stays";
    // The full-screen host, its joiner unnamed.
    let code = "fir-7171";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--ballot", "126"]);
    let address = joining_address(&ann);
    let mut bob = joiner("join", &address, code, "");
    bob.expect("You play White");
    ann.wait_for("the joiner at the table", |s| {
        s.contents().contains("joined") && s.contents().contains("q quit")
    });
    ann.send(b"q");
    ann.wait_for("the host's leave question", |s| {
        s.contents().contains(asked)
    });
    ann.send(b"y");
    assert!(ann.exit_status().success());
    assert!(
        !ann.contents().contains("host --resume"),
        "{}",
        ann.contents()
    );
    // The full-screen joiner, unnamed, at a plain host.
    let (mut host, address) = host("pine-8181", &["--ballot", "126"]);
    let mut bob = Session::start(&["join", &address, "--code", "pine-8181"], &[]);
    host.expect("joined");
    bob.wait_for("the ballot's board and its keys", |s| {
        s.contents().contains("Ballot 126") && s.contents().contains("q quit")
    });
    bob.send(b"q");
    bob.wait_for("the joiner's leave question", |s| {
        s.contents().contains(asked)
    });
    bob.send(b"n");
    bob.wait_for("the board's keys back", |s| {
        !s.contents().contains(asked) && s.contents().contains("q quit")
    });
    bob.send(b"22-18\r");
    host.expect("White played 22-18");
    bob.wait_for("its own move on its board", |s| {
        s.contents().contains("Black to move") && s.contents().contains("q quit")
    });
    bob.send(b"q");
    bob.wait_for("the adjourning question", |s| {
        s.contents()
            .contains("a adjourns it (connect again to go on)  r resigns  n stays")
    });
}

/// The full-screen board's panel, its lines joined by spaces (the right column of the
/// rows where the board's frame meets the panel's).
pub(crate) fn panel_text(screen: &str) -> String {
    screen
        .lines()
        // Its first row meets the board's frame's corner (a LAN host's head is there).
        .filter_map(|row| row.split_once("││").or_else(|| row.split_once("┐│")))
        .map(|(_, panel)| panel)
        .map(|panel| panel.trim_end().trim_end_matches('│').trim())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A full-screen spectator's panel says who is away: the player who joined, by name
/// and side, when their line drops; its own line to the host when the host is gone.
#[test]
fn a_full_screen_spectator_says_who_is_not_connected() {
    let (mut host, address) = host("yew-5151", &["--name", "Ann"]);
    let mut bob = joiner("join", &address, "yew-5151", "Bob");
    host.expect("Bob joined");
    let watch_box = Sandbox::new();
    let mut eve = Session::start_in(&watch_box, &["watch", &address, "--code", "yew-5151"], &[]);
    eve.wait_for("the watching panel", |s| {
        panel_text(&s.contents()).contains("Watching the game")
    });
    bob.kill();
    host.expect("White's line dropped");
    eve.wait_for("the player who is away, named", |s| {
        panel_text(&s.contents())
            .contains("Watching; Bob (White), who joined the host, is not connected")
    });
    host.kill();
    eve.wait_for("its own line down", |s| {
        panel_text(&s.contents()).contains("Watching; the line to the host is down")
    });
}

/// The count of those watching follows the spectators at both players' boards as they
/// come and go, their lines dropped included, with no key pressed and no clock running
/// to draw the boards again (the host's said "1 watching" after the spectator was
/// killed, and neither board showed a spectator come until a key was pressed).
/// Each full-screen player's panel says who plays which side once, on its seat line,
/// at 80x24 and 120x40: it said "Bob plays White" above "You play White; the host plays
/// Black" (the host's panel: "You play Black; Bob plays White across the network").
#[test]
fn each_full_screen_players_panel_names_each_side_once() {
    let code = "alder-7272";
    let host_box = Sandbox::new();
    let mut host = waiting_host(&host_box, "0", code, &[]);
    let address = joining_address(&host);
    let bob_box = Sandbox::new();
    let mut bob = Session::start_in(
        &bob_box,
        &["join", &address, "--code", code, "--name", "Bob"],
        &[],
    );
    for (cols, rows) in [(80, 24), (120, 40)] {
        host.resize(cols, rows);
        bob.resize(cols, rows);
        for (board, seat) in [
            (
                &mut host,
                "You play Black; Bob plays White across the network",
            ),
            (&mut bob, "You (Bob) play White; the host plays Black"),
        ] {
            board.wait_for("the seat line", |s| {
                let panel = panel_text(&s.contents());
                panel.contains(seat) && panel.contains("Black ")
            });
            let panel = panel_text(&board.contents());
            assert_eq!(panel.matches("Bob").count(), 1, "{cols}x{rows}: {panel}");
            assert_eq!(panel.matches("plays").count(), 1, "{cols}x{rows}: {panel}");
        }
    }
}

#[test]
fn the_watching_count_follows_spectators_who_come_and_whose_lines_drop() {
    let code = "alder-7171";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--name", "Ann"]);
    let address = joining_address(&ann);
    let bob_box = Sandbox::new();
    let mut bob = Session::start_in(
        &bob_box,
        &["join", &address, "--code", code, "--name", "Bob"],
        &[],
    );
    ann.wait_for("Bob seated", |s| {
        panel_text(&s.contents()).contains("Bob plays White")
    });
    let mut eve = joiner("watch", &address, code, "");
    let mut tom = joiner("watch", &address, code, "");
    eve.expect("Black to move");
    tom.expect("Black to move");
    for board in [&mut ann, &mut bob] {
        board.wait_for("2 watching", |s| {
            panel_text(&s.contents()).contains("2 watching")
        });
    }
    eve.kill();
    for board in [&mut ann, &mut bob] {
        board.wait_for("1 watching", |s| {
            panel_text(&s.contents()).contains("1 watching")
        });
    }
    // The joiner's line drops too: the host's count still says the truth after.
    bob.signal("KILL");
    ann.wait_for("White's line dropped", |s| {
        s.contents().contains("White's line dropped")
            && panel_text(&s.contents()).contains("1 watching")
    });
    tom.kill();
    ann.wait_for("no one watching", |s| {
        let panel = panel_text(&s.contents());
        panel.contains("Ann (Black) v Bob (White)") && !panel.contains("watching")
    });
}

/// A spectator whose line went silent comes back by itself on a new connection before
/// the host lets the silent one go: its token takes the old place over, and the host
/// counts it once (it said "2 watching" until the silent line was let go, 15 s on).
#[test]
fn a_spectator_whose_line_came_back_is_counted_once() {
    let code = "birch-2727";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--name", "Ann"]);
    let address = joining_address(&ann);
    let mut bob = joiner("join", &address, code, "Bob");
    bob.expect("You play White");
    let proxy = Proxy::to(&address);
    let mut eve = joiner("watch", &proxy.address, code, "");
    eve.expect("Black to move");
    ann.wait_for("1 watching", |s| {
        panel_text(&s.contents()).contains("1 watching")
    });
    // Silent both ways: the spectator counts the line down after ten seconds and
    // joins again through the proxy, the host still holding the silent line.
    proxy.stall();
    eve.expect("The line to the host dropped");
    eve.expect("Connected to the host");
    // A move drawn after the spectator is back: the count on the same screen.
    ann.send(b"11-15\r");
    eve.expect("Black played 11-15");
    ann.wait_for("the move played, and the count", |s| {
        let text = s.contents();
        text.contains("Black played 11-15") && key_line(&text).contains("q quit")
    });
    let panel = panel_text(&ann.contents());
    assert!(
        panel.contains("1 watching") && !panel.contains("2 watching"),
        "{panel}"
    );
}

/// A host that adjourns says goodbye before its line drops: a full-screen spectator's
/// board is drawn again once it has, its clocks stopped and its panel saying the line
/// is down (it kept the running clock and "Watching the game" until a key was pressed).
#[test]
fn a_full_screen_spectator_sees_the_clocks_stop_when_the_host_adjourns() {
    let (mut host, address) = host("larch-5252", &["--name", "Ann", "--clock", "5+3"]);
    let mut bob = joiner("join", &address, "larch-5252", "Bob");
    host.expect("Bob joined");
    let watch_box = Sandbox::new();
    let mut eve = Session::start_in(
        &watch_box,
        &["watch", &address, "--code", "larch-5252"],
        &[],
    );
    host.say("11-15");
    host.expect("Black played 11-15");
    bob.expect("Black played 11-15");
    eve.wait_for("White's clock running", |s| {
        let panel = panel_text(&s.contents());
        panel.contains("White ▶") && panel.contains("Watching the game")
    });
    host.say("quit");
    assert_eq!(host.finish(), 0);
    eve.wait_for("the line down, the clocks stopped", |s| {
        let text = s.contents();
        let panel = panel_text(&text);
        text.contains("The host adjourned the game")
            && panel.contains("Watching; the line to the host is down, the clocks stopped")
            && !panel.contains('▶')
    });
}

/// A spectator that comes once the game is over is told the result and what it can do
/// (look back through the moves, leave), not "n starts a new game", which it cannot.
#[test]
fn a_full_screen_spectator_of_a_finished_game_is_told_it_watches_not_to_start_one() {
    let (mut host, address) = host("lotus-6363", &["--clock", "G/0:03"]);
    let mut bob = joiner("join", &address, "lotus-6363", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    host.expect("lost on time");
    bob.expect("lost on time");
    let watch_box = Sandbox::new();
    let mut eve = Session::start_in(
        &watch_box,
        &["watch", &address, "--code", "lotus-6363"],
        &[],
    );
    eve.resize(120, 40);
    eve.wait_for("the result and what a spectator does", |s| {
        let text = s.contents();
        text.contains("lost on time. You are watching: < and > step through the moves; q leaves.")
            && text.contains("q quit")
    });
    assert!(!eve.contents().contains("new game"), "{}", eve.contents());
}

/// A plain spectator is not told to type a move, and `help` lists what it can do, not
/// the players' commands (a move, resign, draw, the chat), which are refused to it.
#[test]
fn a_plain_spectator_is_told_what_it_can_do_not_the_players_commands() {
    let (_host, address) = host("quince-6464", &["--name", "Ann"]);
    let mut eve = joiner("watch", &address, "quince-6464", "");
    eve.expect("Checkers (plain mode). Type help for the commands.");
    eve.expect("You are watching: moves are made at the players' terminals.");
    eve.say("help");
    let help = eve.expect("Commands: ");
    assert!(
        help.starts_with("You are watching: the moves are made at the players' terminals"),
        "{help}"
    );
    for command in ["history", "show N", "save FILE", "quit"] {
        assert!(help.contains(command), "{command}: {help}");
    }
    for players in ["a move", "resign", "draw", "say TEXT", "quit adjourns"] {
        assert!(!help.contains(players), "{players}: {help}");
    }
}

/// The chat is kept with an adjourned game: the resumed host has it again, and tells it
/// to the boards that come.
#[test]
fn the_chat_comes_back_with_a_resumed_game() {
    let sandbox = Sandbox::new();
    let (mut host, address) = host_in(&sandbox, "holly-6161", "0", &["--name", "Ann"]);
    // Its port, for the resumed host: taken by the first host, never let go before it.
    let port = port_of(&address);
    let bob_box = Sandbox::new();
    let mut bob = joiner_in(&bob_box, "join", &address, "holly-6161", "Bob");
    host.expect("Bob joined");
    // Said before the game has a file of its own (before its first move).
    bob.say("say see you tomorrow");
    host.expect("Bob says: see you tomorrow");
    host.say("11-15");
    bob.expect("Black played 11-15");
    host.say("say same time");
    bob.expect("Ann says: same time");
    host.say("quit");
    assert_eq!(host.finish(), 0);
    bob.expect("The host adjourned the game");
    let (mut host, _) = host_in(&sandbox, "holly-6161", &port, &["--resume"]);
    host.expect("Bob says: see you tomorrow");
    host.expect("Ann says: same time");
    host.expect("Bob joined, playing White");
    bob.expect("Connected to the host");
    // A board that comes now is told the chat kept with the game.
    let mut eve = joiner("watch", &address, "holly-6161", "");
    eve.expect("Bob says: see you tomorrow");
    eve.expect("Ann says: same time");
}

/// `checkers` with `args` run to its end in `sandbox` (as its user types it at a
/// shell), nothing on its standard input: what it printed, standard output then error.
fn finished_in(sandbox: &Sandbox, args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(args)
        .env("HOME", sandbox.home())
        .env("XDG_DATA_HOME", sandbox.data_home())
        .env("XDG_CONFIG_HOME", sandbox.home().join("config"))
        .env("CHECKERS_NO_EGDB_BUILD", "1")
        .env_remove("CHECKERS_PREFERENCES")
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Both players' programs gone in the middle of a game (killed: no last word): the
/// game is kept at the host, and every command a player tries leads to it. `checkers
/// games` names `checkers host --resume` for it; plain `checkers --resume` lists it as
/// the full screen's list does, marked as played across the network, and chosen it is
/// hosted again at its former door (it was left out: "no game to resume at one
/// terminal"); the joiner's `checkers --resume` says its host keeps it; and the joiner
/// comes back to its seat.
#[test]
fn a_game_whose_two_players_were_killed_is_found_again_by_its_host() {
    let sandbox = Sandbox::new();
    let (mut host, address) = host_in(
        &sandbox,
        "cedar-4242",
        "0",
        &["--clock", "5+3", "--name", "Ann"],
    );
    let port = port_of(&address);
    let home = Sandbox::new();
    let mut bob = joiner_in(&home, "join", &address, "cedar-4242", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    bob.say("23-19");
    host.expect("White played 23-19");
    // The joiner keeps its copy as the host's state comes back; its own words of the
    // move come after that copy is written.
    bob.expect("White played 23-19");
    host.kill();
    bob.kill();
    let listed = finished_in(&sandbox, &["games"]);
    assert!(
        listed.contains("(1 unfinished across the network: checkers host --resume)"),
        "{listed}"
    );
    let joined = finished_in(&home, &["--resume", "--plain"]);
    assert!(
        joined.contains(&format!(
            "the game you joined at {address} (Ann - Bob, last 1. 11-15 23-19) is kept by its host"
        )),
        "{joined}"
    );
    let mut host = Peer::start(&sandbox, &["--resume", "--plain"]);
    host.expect("Unfinished games, newest first:");
    let listed = host.expect("  1. ");
    assert!(
        listed.contains("1. across the network (hosted again): ") && listed.contains("Ann"),
        "{listed}"
    );
    host.expect("Which game?");
    host.say("1");
    host.expect(&format!(
        "Waiting for a player: checkers join {address} --code cedar-4242 "
    ));
    assert!(address.ends_with(&format!(":{port}")), "{address}");
    let mut bob = joiner_in(&home, "join", &address, "cedar-4242", "Bob");
    host.expect("Bob joined, playing White");
    bob.expect("You play White");
    host.say("8-11");
    bob.expect("Black played 8-11. White to move");
}

/// The board part of each row of a full-screen screen (left of the panel's frame).
pub(crate) fn board_text(screen: &str) -> String {
    screen
        .lines()
        .filter_map(|row| row.split_once("││").map(|(board, _)| board))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The key line: the screen's last row with text.
pub(crate) fn key_line(screen: &str) -> String {
    let rows: Vec<&str> = screen.lines().filter(|l| !l.trim().is_empty()).collect();
    rows.last()
        .map(|l| l.trim().to_string())
        .unwrap_or_default()
}

/// A joiner's key line lists only what it can do: after the game no new game (it listed
/// "n new game", though the host starts the next game); a
/// spectator's lists no move, undo or new game, during the game and after it, and its
/// board draws no cursor (it drew `[ ]`, though a spectator picks no piece).
#[test]
fn a_joiner_and_a_spectator_are_offered_only_their_own_keys_and_a_spectator_no_cursor() {
    let code = "elm-4545";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--name", "Ann"]);
    let address = joining_address(&ann);
    let join_box = Sandbox::new();
    let mut bob = Session::start_in(
        &join_box,
        &["join", &address, "--code", code, "--name", "Bob"],
        &[],
    );
    bob.wait_for("White's opening words", |s| {
        s.contents().contains("You play White: Black moves first")
    });
    let watch_box = Sandbox::new();
    let mut eve = Session::start_in(&watch_box, &["watch", &address, "--code", code], &[]);
    let spectator_keys = |screen: &str| {
        let keys = key_line(screen);
        keys.contains("q quit")
            && !["undo", "new game", "pick", "move", "rematch"]
                .iter()
                .any(|k| keys.contains(k))
    };
    eve.wait_for("a spectator's board and keys", |s| {
        let text = s.contents();
        text.contains("You are watching: Black to move") && key_line(&text).contains("q quit")
    });
    let screen = eve.contents();
    assert!(spectator_keys(&screen), "{screen}");
    assert!(!board_text(&screen).contains('['), "{screen}");
    ann.send(b"11-15\r");
    eve.wait_for("the move at the spectator", |s| {
        let text = s.contents();
        text.contains("White to move") && key_line(&text).contains("q quit")
    });
    let screen = eve.contents();
    assert!(spectator_keys(&screen), "{screen}");
    assert!(!board_text(&screen).contains('['), "{screen}");
    // The joiner resigns: the game is over at every board.
    bob.send(b"r");
    bob.wait_for("the resign question", |s| s.contents().contains("Resign"));
    bob.send(b"y");
    bob.wait_for("the end at the joiner", |s| {
        let text = s.contents();
        text.contains("White resigned") && key_line(&text).contains("q quit")
    });
    // The end is still taken back with the host's consent: u stays.
    let screen = bob.contents();
    let keys = key_line(&screen);
    assert!(
        keys.contains("u undo") && !keys.contains("new game"),
        "{screen}"
    );
    eve.wait_for("the end at the spectator", |s| {
        let text = s.contents();
        text.contains("White resigned") && key_line(&text).contains("q quit")
    });
    let screen = eve.contents();
    assert!(spectator_keys(&screen), "{screen}");
    assert!(!board_text(&screen).contains('['), "{screen}");
    // The host starts the next game: its key line says so.
    ann.wait_for("the host's new game key", |s| {
        key_line(&s.contents()).contains("n new game")
    });
}

/// The home screen's list of unfinished games offers a game hosted across the network,
/// marked so, and choosing it hosts it again at its former door (the address it listened
/// at, its port and code), never at one terminal: the joiner joins again with what it
/// had (the list left it out, and said only which command to run).
#[test]
fn the_home_screens_list_offers_a_hosted_game_and_hosts_it_again() {
    let sandbox = Sandbox::new();
    let (mut host, address) = host_in(&sandbox, "poplar-9191", "0", &["--name", "Ann"]);
    let mut bob = joiner("join", &address, "poplar-9191", "Bob");
    host.expect("Bob joined");
    host.say("11-15");
    bob.expect("Black played 11-15");
    host.say("quit");
    assert_eq!(host.finish(), 0);
    bob.expect("The host adjourned the game");
    drop(bob);
    let mut ann = Session::start_in(&sandbox, &[], &[]);
    ann.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    ann.send(b"r");
    ann.wait_for("the hosted game listed, marked", |s| {
        let text = s.contents();
        text.contains("1. across the network: ") && text.contains("Enter host it again")
    });
    ann.send(b"\r");
    let waiting = format!("to join: give them checkers join {address} --code poplar-9191");
    ann.wait_for("hosted again at its door", |s| {
        panel_text(&s.contents()).contains(&waiting)
    });
    let mut bob = joiner("join", &address, "poplar-9191", "Bob");
    bob.expect("You play White");
    bob.say("fen");
    bob.expect("FEN: W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15");
    bob.say("23-19");
    ann.wait_for("the joiner's move at the host", |s| {
        s.contents().contains("White played 23-19")
    });
}

/// A full-screen host suspended (Ctrl-Z) on the joiner's turn, for longer than the
/// joiner's board waits before it counts the line down: the joiner is charged only what
/// its stopped clock showed (it was charged the whole stop), and once the host is taken
/// up again (`fg`) its terminal is in raw mode again, its board drawn again with the
/// clocks running and the joiner back at the table.
#[test]
fn a_host_suspended_on_the_joiners_turn_charges_the_joiner_only_what_its_board_showed() {
    let code = "spruce-2929";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--clock", "5+0", "--name", "Ann"]);
    let address = joining_address(&ann);
    let mut bob = joiner("join", &address, code, "Bob");
    bob.expect("You play White");
    ann.send(b"11-15\r");
    bob.expect("Black played 11-15");
    let before = white_clock(&mut bob);
    ann.signal("TSTP");
    bob.expect("The line to the host dropped");
    let stopped = white_clock(&mut bob);
    ann.signal("CONT");
    bob.expect("Connected to the host.");
    let after = white_clock(&mut bob);
    // One ping's worth at most, with a second for the readings' rounding and one for
    // the moments between them and the line's changes.
    let charged = before.saturating_sub(after);
    assert!(
        charged <= Duration::from_secs(7),
        "White was charged {charged:?} of the host's stop (before {before:?}, stopped at \
         {stopped:?}, after {after:?})"
    );
    assert!(
        after.abs_diff(stopped) <= Duration::from_millis(1500),
        "the joiner showed {stopped:?} while down, the host kept {after:?}"
    );
    ann.wait_for(
        "the host's board again, the joiner back and its clock running",
        |s| {
            let text = s.contents();
            let panel = panel_text(&text);
            text.contains("Bob joined, playing White")
                && panel.contains("White ▶")
                && key_line(&text).contains("q quit")
        },
    );
    assert!(ann.raw_mode(), "the host's terminal is in raw mode again");
    bob.say("23-19");
    ann.wait_for("the joiner's move at the host", |s| {
        s.contents().contains("White played 23-19")
    });
}

/// Black's clock as `peer` (a plain joiner) reads it now.
fn black_clock(peer: &mut Peer) -> Duration {
    peer.say("clock");
    let line = loop {
        let line = peer.expect(", White ");
        if line.trim_start_matches("> ").starts_with("Black ") {
            break line;
        }
    };
    let black = line.split(", White ").next().unwrap();
    let reading: String = black
        .rsplit("Black ")
        .next()
        .unwrap()
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ':' || *c == '.')
        .collect();
    let reading = reading.trim_end_matches('.');
    let seconds = match reading.split_once(':') {
        Some((m, s)) => m.parse::<f64>().unwrap() * 60.0 + s.parse::<f64>().unwrap(),
        None => reading.parse::<f64>().unwrap(),
    };
    Duration::from_secs_f64(seconds)
}

/// A full-screen host suspended (Ctrl-Z) on its own turn: its clock runs on through the
/// stop, as its opponent waits for it (it was given the stop back, its clock as it was
/// when the program stopped), and the joiner's move made after is played.
#[test]
fn a_host_suspended_on_its_own_turn_is_charged_the_stop() {
    let code = "juniper-3939";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--clock", "5+0", "--name", "Ann"]);
    let address = joining_address(&ann);
    let mut bob = joiner("join", &address, code, "Bob");
    bob.expect("You play White");
    let before = black_clock(&mut bob);
    ann.signal("TSTP");
    bob.expect("The line to the host dropped");
    ann.signal("CONT");
    bob.expect("Connected to the host.");
    let after = black_clock(&mut bob);
    // The line is counted down after ten seconds without the host.
    let charged = before.saturating_sub(after);
    assert!(
        charged >= Duration::from_secs(9),
        "Black was charged {charged:?} of its own stop (before {before:?}, after {after:?})"
    );
    ann.wait_for("the host's board again, its clock running", |s| {
        let text = s.contents();
        text.contains("Bob joined, playing White")
            && panel_text(&text).contains("Black ▶")
            && key_line(&text).contains("q quit")
    });
    ann.send(b"11-15\r");
    bob.expect("Black played 11-15");
    bob.say("23-19");
    ann.wait_for("the joiner's move at the host", |s| {
        s.contents().contains("White played 23-19")
    });
}

/// A full-screen host stopped (Ctrl-Z) on the joiner's turn for less than the joiner's
/// board waits before it counts the line down: the joiner's move made during the stop
/// is charged as its board timed it, not until the host ran again (the joiner was
/// charged the host's stop after its move).
#[test]
#[cfg(target_os = "linux")]
fn a_joiners_move_made_while_the_host_was_briefly_stopped_is_charged_when_it_was_made() {
    let code = "maple-5757";
    let host_box = Sandbox::new();
    let mut ann = waiting_host(&host_box, "0", code, &["--clock", "5+0", "--name", "Ann"]);
    let address = joining_address(&ann);
    let mut bob = joiner("join", &address, code, "Bob");
    bob.expect("You play White");
    ann.send(b"11-15\r");
    bob.expect("Black played 11-15");
    ann.signal("TSTP");
    // Stopped indeed (it leaves its screen first), before the joiner moves.
    let pid = ann.pid();
    wait_until("the host stopped", || stopped(pid));
    let before = white_clock(&mut bob);
    bob.say("23-19");
    // The host stays stopped for four seconds of the joiner's clock after its move (it
    // runs on at the joiner's board until the host answers): well within the ten
    // seconds the board waits.
    let deadline = Instant::now() + PATIENCE;
    while white_clock(&mut bob) + Duration::from_secs(4) > before {
        assert!(Instant::now() < deadline, "the joiner's clock stood still");
    }
    ann.signal("CONT");
    bob.expect("White played 23-19");
    let after = white_clock(&mut bob);
    // The moment between the reading and the move, and a second for the readings'
    // rounding.
    let charged = before.saturating_sub(after);
    assert!(
        charged <= Duration::from_secs(2),
        "White was charged {charged:?} for a move made before the host's stop ended \
         (before {before:?}, after {after:?})"
    );
    ann.wait_for("the move at the host, its clock running", |s| {
        let text = s.contents();
        text.contains("White played 23-19")
            && panel_text(&text).contains("Black ▶")
            && key_line(&text).contains("q quit")
    });
}

/// Whether the process `pid` is stopped (Ctrl-Z), as Linux's /proc tells it.
#[cfg(target_os = "linux")]
fn stopped(pid: u32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // The state follows the command's name, which is in parentheses.
        stat.rsplit(')')
            .next()
            .is_some_and(|rest| rest.trim_start().starts_with('T'))
    })
}
