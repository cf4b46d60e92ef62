//! `checkers hub`, driven through pipes as another program (a GUI, pydraughts) drives
//! it: the handshake, whole games, `ping` and `stop` during a search, pondering, bad
//! lines and `quit`.

use checkers::rules::{Color, Move, Position, Role, Square};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long any one answer may take before the test fails (a loaded machine is slow;
/// nothing waits this long when all is well).
const PATIENCE: Duration = Duration::from_secs(60);

/// The start position as the protocol writes it.
const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// A running `checkers hub` and the lines it has written.
struct Client {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    seen: Vec<String>,
    _home: tempfile::TempDir,
}

impl Client {
    /// Starts `checkers hub` in an empty home (no databases, no preferences).
    fn start() -> Client {
        let home = tempfile::tempdir().unwrap();
        let mut child = Command::new(env!("CARGO_BIN_EXE_checkers"))
            .arg("hub")
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", home.path().join("data"))
            .env("XDG_CONFIG_HOME", home.path().join("config"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (sender, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Client {
            child,
            stdin,
            lines,
            seen: Vec::new(),
            _home: home,
        }
    }

    /// Sends one line.
    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// The next line the engine writes.
    fn next(&mut self) -> String {
        match self.lines.recv_timeout(PATIENCE) {
            Ok(line) => {
                self.seen.push(line.clone());
                line
            }
            Err(e) => panic!("no answer ({e}) after:\n{}", self.seen.join("\n")),
        }
    }

    /// Reads lines up to and including the first whose command is `command`; gives them
    /// all.
    fn until(&mut self, command: &str) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let line = self.next();
            let found = line.split(' ').next() == Some(command);
            lines.push(line);
            if found {
                return lines;
            }
        }
    }

    /// The handshake: `hub` answered by `id`, `param`s and `wait`; `init` by `ready`.
    fn handshake(&mut self) -> Vec<String> {
        self.send("hub");
        let mut lines = self.until("wait");
        self.send("init");
        lines.extend(self.until("ready"));
        lines
    }

    /// Waits for the process to end; its exit status is a success.
    fn ends_with_success(mut self) {
        let started = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                assert!(status.success(), "{status}: {}", self.seen.join("\n"));
                return;
            }
            assert!(started.elapsed() < PATIENCE, "still running");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of `name=` in a line of the protocol (quoted or not).
fn value<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let key = format!(" {name}=");
    let start = line.find(&key)? + key.len();
    let rest = &line[start..];
    match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next(),
        None => rest.split(' ').next(),
    }
}

/// `m` as the protocol writes it: `9-14`, or start x end x each captured square in
/// increasing order.
fn hub_move(m: &Move) -> String {
    let mut text = format!("{}{}{}", m.from(), m.separator(), m.to());
    for sq in m.captured() {
        text.push_str(&format!("x{sq}"));
    }
    text
}

/// The legal move of `pos` the engine named, or a failure that says what was said.
fn legal_move(pos: &Position, text: &str, context: &[String]) -> Move {
    pos.legal_moves()
        .into_iter()
        .find(|m| hub_move(m) == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {pos}:\n{}", context.join("\n")))
}

/// `pos` as the protocol writes it (as pydraughts does for English draughts): the side
/// that moves first named white, the squares from 32 down to 1.
fn hub_position(pos: &Position) -> String {
    let mut text = String::from(match pos.turn() {
        Color::Black => "W",
        Color::White => "B",
    });
    for number in (1..=32).rev() {
        let sq = Square::new(number).unwrap();
        text.push(match pos.piece_at(sq) {
            None => 'e',
            Some(p) => match (p.color, p.role) {
                (Color::Black, Role::Man) => 'w',
                (Color::Black, Role::King) => 'W',
                (Color::White, Role::Man) => 'b',
                (Color::White, Role::King) => 'B',
            },
        });
    }
    text
}

/// Checks an `info` line: depth, score, nodes and a principal variation that replays
/// from `pos`; a book move's (not searched) has no depth, nodes nor nps.
fn check_info(line: &str, pos: &Position, context: &[String]) {
    let number = |name| value(line, name).unwrap_or_else(|| panic!("no {name}: {line}"));
    if value(line, "depth").is_some() {
        assert!(number("depth").parse::<u32>().is_ok(), "{line}");
        assert!(number("nodes").parse::<u64>().is_ok(), "{line}");
    } else {
        assert!(value(line, "nodes").is_none(), "{line}");
        assert!(value(line, "nps").is_none(), "{line}");
    }
    assert!(number("score").parse::<f64>().is_ok(), "{line}");
    assert!(number("time").parse::<f64>().is_ok(), "{line}");
    let mut at = *pos;
    for text in number("pv").split_whitespace() {
        at = at.play(&legal_move(&at, text, context)).unwrap();
    }
}

/// Sends `pos`, `level` and `go think`; checks the `info` lines; gives the move of
/// `done` (checked legal) and the lines.
fn think(client: &mut Client, start: &str, moves: &[String], level: &str, pos: &Position) -> Move {
    if moves.is_empty() {
        client.send(&format!("pos pos={start}"));
    } else {
        client.send(&format!("pos pos={start} moves=\"{}\"", moves.join(" ")));
    }
    client.send(level);
    client.send("go think");
    let lines = client.until("done");
    let (done, infos) = lines.split_last().unwrap();
    for line in infos {
        assert!(line.starts_with("info "), "only info before done: {line}");
        check_info(line, pos, &lines);
    }
    let best = value(done, "move").unwrap_or_else(|| panic!("no move: {done}"));
    let best = legal_move(pos, best, &lines);
    if let Some(answer) = value(done, "ponder") {
        legal_move(&pos.play(&best).unwrap(), answer, &lines);
    }
    best
}

#[test]
fn hub_plays_a_whole_game_against_itself() {
    let mut client = Client::start();
    let hello = client.handshake();
    assert!(
        hello[0].starts_with("id name=checkers version="),
        "{hello:?}"
    );
    assert!(
        hello.contains(&"param name=variant value=english type=enum values=english".to_string()),
        "{hello:?}"
    );
    assert_eq!(hello[hello.len() - 2..], ["wait", "ready"]);
    // As pydraughts does: the start position and every move since, each time.
    const MAX_PLIES: usize = 300;
    let levels = [
        "level move-time=0.02",
        "level depth=3",
        "level moves=50 time=0.5",
        "level time=1 inc=0.01",
        "level nodes=3000",
    ];
    let mut pos = Position::start();
    let mut moves: Vec<String> = Vec::new();
    while pos.outcome().is_none() && moves.len() < MAX_PLIES {
        let level = levels[moves.len() % levels.len()];
        let best = think(&mut client, START, &moves, level, &pos);
        moves.push(hub_move(&best));
        pos = pos.play(&best).unwrap();
    }
    // Over, or declared drawn at the cap: either way every move was legal.
    assert!(pos.outcome().is_some() || moves.len() == MAX_PLIES);
    client.send("quit");
    client.ends_with_success();
}

#[test]
fn a_position_is_read_as_pydraughts_writes_it() {
    let mut client = Client::start();
    client.handshake();
    // Black must take White's last man, 5x14: the only move.
    let pos: Position = "B:W9:B5,11".parse().unwrap();
    let text = hub_position(&pos);
    let expected = format!("W{}webeeeweeee", "e".repeat(21));
    assert_eq!(text, expected);
    let best = think(&mut client, &text, &[], "level depth=2", &pos);
    assert_eq!(hub_move(&best), "5x14x9");
    // White to move, and a move from there: 22-18 then Black's answer.
    let pos: Position = "W:W22,25:B10,K3".parse().unwrap();
    let after = pos.play_text("22-18").unwrap();
    let best = think(
        &mut client,
        &hub_position(&pos),
        &["22-18".to_string()],
        "level depth=4",
        &after,
    );
    assert!(after.is_legal(&best));
    // The program's own extension: a PDN FEN.
    client.send("pos fen=\"B:W9:B5,11\"");
    client.send("go think");
    let done = client.until("done").pop().unwrap();
    assert_eq!(value(&done, "move"), Some("5x14x9"), "{done}");
    client.send("quit");
    client.ends_with_success();
}

#[test]
fn ping_is_answered_while_thinking_and_stop_ends_a_long_search_at_once() {
    let mut client = Client::start();
    client.handshake();
    client.send("set-param name=book value=false");
    client.send("pos moves=\"11-15 23-19\"");
    client.send("level move-time=1000");
    client.send("go think");
    // It is searching once it reports a depth.
    assert!(client.next().starts_with("info "), "{:?}", client.seen);
    client.send("ping");
    let lines = client.until("pong");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info ")),
        "no done before stop: {lines:?}"
    );
    let asked = Instant::now();
    client.send("stop");
    let done = client.until("done").pop().unwrap();
    assert!(
        asked.elapsed() < Duration::from_secs(10),
        "stop took {:?}",
        asked.elapsed()
    );
    let pos = Position::start()
        .play_text("11-15")
        .unwrap()
        .play_text("23-19")
        .unwrap();
    legal_move(&pos, value(&done, "move").unwrap(), &client.seen);
    // After done, the engine answers at once again.
    client.send("ping");
    assert_eq!(client.next(), "pong");
    client.send("quit");
    client.ends_with_success();
}

#[test]
fn go_ponder_searches_until_stop_or_ponder_hit() {
    let mut client = Client::start();
    client.handshake();
    client.send("set-param name=book value=false");
    // The expected answer 23-19 is already played: the engine searches for Black.
    let pos = Position::start()
        .play_text("9-14")
        .unwrap()
        .play_text("23-19")
        .unwrap();
    client.send("pos moves=\"9-14 23-19\"");
    client.send("level move-time=0.05");
    client.send("go ponder");
    assert!(client.next().starts_with("info "), "{:?}", client.seen);
    // A ponder search has no limit: it is still going when pong comes.
    client.send("ping");
    let lines = client.until("pong");
    assert!(
        lines[..lines.len() - 1]
            .iter()
            .all(|l| l.starts_with("info ")),
        "{lines:?}"
    );
    client.send("stop");
    let done = client.until("done").pop().unwrap();
    legal_move(&pos, value(&done, "move").unwrap(), &client.seen);
    // ponder-hit: the search goes on as go think, within the level.
    client.send("go ponder");
    assert!(client.next().starts_with("info "), "{:?}", client.seen);
    client.send("ponder-hit");
    let done = client.until("done").pop().unwrap();
    legal_move(&pos, value(&done, "move").unwrap(), &client.seen);
    client.send("quit");
    client.ends_with_success();
}

#[test]
fn bad_lines_are_ignored_or_answered_with_error_and_the_engine_goes_on() {
    let mut client = Client::start();
    client.handshake();
    for line in [
        "",
        "dance with=me",
        "pos moves=\"11-15",
        "level depth=deep",
        "pos pos=Wbbbb",
        "pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        "pos moves=\"11-15 11-15\"",
        "set-param name=variant value=frisian",
        "\u{1b}[31m\u{0}",
    ] {
        client.send(line);
    }
    client.send("ping");
    let lines = client.until("pong");
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("error message="))
        .count();
    // Six bad arguments, and a line that does not start with a name.
    assert_eq!(errors, 7, "{lines:?}");
    // The illegal second 11-15 left the position after the first.
    let pos = Position::start().play_text("11-15").unwrap();
    client.send("level depth=3");
    client.send("go think");
    let done = client.until("done").pop().unwrap();
    legal_move(&pos, value(&done, "move").unwrap(), &client.seen);
    client.send("quit");
    client.ends_with_success();
}

/// A line over 1 MB is answered with an error, not kept, and the lines after it are read
/// as usual: a `pos` lost that way is never searched unnoticed.
#[test]
fn an_over_long_line_is_answered_with_an_error_and_the_next_one_read() {
    let mut client = Client::start();
    client.handshake();
    client.send(&format!("pos moves=\"{}\"", "11-15 ".repeat(200_000)));
    client.send("ping");
    let lines = client.until("pong");
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].starts_with("error message=\"line too long: 1200012 bytes, more than 1048576;"),
        "{lines:?}"
    );
    client.send("quit");
    client.ends_with_success();
}

#[test]
fn quit_or_the_end_of_input_ends_the_program_with_status_0_even_mid_search() {
    let mut client = Client::start();
    client.handshake();
    client.send("set-param name=book value=false");
    client.send("level infinite");
    client.send("go think");
    assert!(client.next().starts_with("info "));
    client.send("quit");
    client.ends_with_success();
    // The end of the input is a quit too.
    let mut client = Client::start();
    client.handshake();
    client.send("set-param name=book value=false");
    client.send("level infinite");
    client.send("go analyze");
    assert!(client.next().starts_with("info "));
    client.stdin = None;
    client.ends_with_success();
}

#[test]
fn lines_piped_in_at_once_are_all_answered_in_order_before_the_end_of_input_ends_it() {
    // As a script writes them: everything at once, then the end of the input.
    let mut client = Client::start();
    client.send("hub");
    client.send("init");
    client.send("set-param name=book value=false");
    client.send("pos moves=\"11-15\"");
    client.send("level depth=4");
    client.send("go think");
    // These wait for the search: the bad position's error comes after its `done`.
    client.send("pos pos=Wxxx");
    client.send("level depth=abc");
    client.send("level depth=3");
    client.send("go think");
    client.stdin = None;
    let mut lines = client.until("ready");
    lines.extend(client.until("done"));
    let first = lines.last().unwrap().clone();
    assert!(value(&first, "move").is_some(), "{first}");
    let error = client.next();
    assert!(error.contains("a position is 33 characters"), "{error}");
    let error = client.next();
    assert!(error.contains("depth=abc is not a whole number"), "{error}");
    // The second search is of the position kept (after 11-15), to depth 3.
    let second = client.until("done");
    let deepest = &second[second.len() - 2];
    assert_eq!(value(deepest, "depth"), Some("3"), "{second:?}");
    client.ends_with_success();
}

#[test]
fn quit_mid_search_says_done_first() {
    let mut client = Client::start();
    client.handshake();
    client.send("set-param name=book value=false");
    client.send("level infinite");
    client.send("go think");
    assert!(client.next().starts_with("info "));
    client.send("quit");
    let done = client.until("done");
    assert!(value(done.last().unwrap(), "move").is_some(), "{done:?}");
    client.ends_with_success();
}

#[test]
fn a_move_time_of_zero_is_answered_with_an_error_and_the_limits_before_kept() {
    let home = tempfile::tempdir().unwrap();
    let o = crate::common::command::output_piped_in(
        home.path(),
        &["hub"],
        "hub\ninit\nset-param name=book value=false\nlevel depth=2\nlevel move-time=0\npos\ngo think\n",
    );
    assert!(o.status.success());
    let said = String::from_utf8_lossy(&o.stdout).into_owned();
    assert!(
        said.contains(
            "error message=\"move-time=0 is out of range: move-time is more than 0 seconds\""
        ),
        "{said}"
    );
    // The search went by the depth given before, not by no time at all.
    let infos: Vec<&str> = said.lines().filter(|l| l.starts_with("info ")).collect();
    assert_eq!(value(infos.last().unwrap(), "depth"), Some("2"), "{said}");
    assert!(said.lines().any(|l| l.starts_with("done move=")), "{said}");
}

#[test]
fn a_second_for_five_moves_gives_the_move_a_fifth_of_it_not_a_token() {
    let mut client = Client::start();
    client.handshake();
    client.send("set-param name=book value=false");
    client.send("pos moves=\"11-15 23-19 8-11 22-17\"");
    client.send("level time=1 moves=5");
    client.send("go think");
    let lines = client.until("done");
    // The search's own word for the time it spent, at its last completed depth: a
    // budget of a fifth of the second (stopping after about two thirds of it at the
    // soonest), and a wall at less than half, where a margin of a whole second before
    // the flag left 10 ms.
    let last = lines.iter().rev().find(|l| l.starts_with("info ")).unwrap();
    let time: f64 = value(last, "time").unwrap().parse().unwrap();
    assert!(time >= 0.05, "a token time: {lines:#?}");
    assert!(time < 0.75, "near the flag: {lines:#?}");
    client.send("quit");
    client.ends_with_success();
}
