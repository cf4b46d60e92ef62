//! Attacks on a host and on a joiner, and the faults of a real line, with real
//! `checkers` processes on loopback addresses: a pipelined brute force of the code,
//! silent connections filling the table, a joiner stopping the clocks, a silent outage,
//! the host killed the moment a peer hears of a move, a flood of key exchanges, and a
//! hostile host flooding a joiner. Attackers connect from other loopback addresses (127.0.0.2 and up) so that
//! the real joiner's address is not the one the host makes wait.

use crate::common::pty::Sandbox;
use crate::network::{host, host_in, joiner};
use crate::network_line::{Raw, VERSION, host_side, write_line};
use serde_json::{Value, json};
use std::io::{BufReader, Read, Write};
use std::net::{Ipv4Addr, SocketAddr, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// How long an answer the test waits for may take.
const PATIENCE: Duration = Duration::from_secs(30);

impl Raw {
    /// A connection from the loopback address `source` (127.0.0.x).
    fn connect_from(source: Ipv4Addr, address: &str) -> Raw {
        Raw::over(connect_from(source, address).unwrap())
    }

    /// Messages until one is a state after `plies` moves: that state.
    pub(crate) fn state_after(&mut self, plies: usize) -> Value {
        let deadline = Instant::now() + PATIENCE;
        loop {
            assert!(Instant::now() < deadline, "no state after {plies} plies");
            match self.next() {
                Some(message)
                    if ["state", "welcome"].contains(&message["type"].as_str().unwrap_or(""))
                        && moves_of(&message["state"]).len() >= plies =>
                {
                    return message["state"].clone();
                }
                Some(_) => {}
                None => panic!("the host ended the connection before {plies} plies"),
            }
        }
    }
}

/// A TCP connection to `address` from the loopback address `source` (127.0.0.x).
pub(crate) fn connect_from(source: Ipv4Addr, address: &str) -> std::io::Result<TcpStream> {
    use socket2::{Domain, Socket, Type};
    let socket = Socket::new(Domain::IPV4, Type::STREAM, None)?;
    socket.bind(&SocketAddr::from((source, 0)).into())?;
    let to: SocketAddr = address.parse().unwrap();
    socket.connect(&to.into())?;
    Ok(socket.into())
}

/// A player's request: `{"kind": "resign"}`, `{"kind": "play", "text": "11-15"}`.
fn command(command: Value) -> Value {
    json!({"type": "command", "command": command})
}

/// A request to play the move `text`.
fn play(text: &str) -> Value {
    command(json!({"kind": "play", "text": text}))
}

/// The game a state tells, read from its PDN.
fn record_of(state: &Value) -> checkers::PdnGame {
    let pdn = state["pdn"]
        .as_str()
        .expect("a state carries its game's PDN");
    checkers::read_games(pdn)
        .remove(0)
        .expect("a record that reads")
}

/// The moves of the game a state tells.
fn moves_of(state: &Value) -> Vec<String> {
    record_of(state)
        .moves
        .iter()
        .map(|m| m.to_string())
        .collect()
}

/// A legal move in the position a state tells.
fn a_legal_move(state: &Value) -> String {
    let record = record_of(state);
    let mut game = checkers::game::Game::from_position(record.start);
    for m in &record.moves {
        game.play(m).unwrap();
    }
    game.position().legal_moves()[0].to_string()
}

#[test]
fn a_guess_is_one_connection_its_commands_unread_and_an_address_that_guesses_waits() {
    let code = "raven-2024-otter-1999";
    let (mut host, address) = host(code, &[]);
    // A wrong code with a resignation sealed behind its greeting: refused, nothing
    // behind it read.
    let mut guess = Raw::connect_from(Ipv4Addr::new(127, 0, 0, 2), &address);
    guess.greet_with(
        "maple-0000-river-0000",
        &crate::network_line::hello("player", None),
        &[command(json!({"kind": "resign"}))],
    );
    let answers = guess.rest();
    assert!(
        answers.contains("\"wrong code\"") && answers.lines().count() == 1,
        "{answers}"
    );
    assert!(!guess.proven(), "the host proves the code to no guesser");
    host.expect("Someone at 127.0.0.2 gave a wrong code (its first)");
    // A sweep of connections from another address, one guess each (fewer than the
    // address may open at once, so that each reaches the key exchange).
    let mut judged = 0;
    for round in 0..15 {
        let Ok(stream) = connect_from(Ipv4Addr::new(127, 0, 0, 3), &address) else {
            continue;
        };
        let mut raw = Raw::over(stream);
        raw.hello(&format!("maple-{round:04}-river-0000"), "player", None);
        let answers = raw.rest();
        assert!(!answers.contains("welcome"), "{answers}");
        judged += usize::from(answers.contains("\"wrong code\""));
    }
    // Three tries are free, the fourth earns a wait: the rest are refused unjudged.
    assert_eq!(judged, 4, "greetings judged from one address in a sweep");
    host.expect(
        "Someone at 127.0.0.3 gave a wrong code (4 wrong codes from there; it waits 2 seconds",
    );
    // While it waits, even the right code from that address is not judged, and the
    // host does not prove the code to it: the guess tells it nothing.
    let mut late = Raw::connect_from(Ipv4Addr::new(127, 0, 0, 3), &address);
    late.hello(code, "player", None);
    let (reason, lasting) = late.refusal();
    assert!(
        reason.contains("too many wrong codes from 127.0.0.3"),
        "{reason}"
    );
    assert!(lasting, "a joiner does not spend its tries by itself");
    assert!(!late.proven());
    // No resignation went through: the game waits at the start, and the player gets in.
    host.say("fen");
    host.expect("FEN: B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12");
    let mut bob = joiner("join", &address, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    let seen = host.lines_within(Duration::from_millis(200));
    assert!(!seen.iter().any(|l| l.contains("resigned")), "{seen:#?}");
}

#[test]
fn the_player_is_seated_past_seventy_silent_connections() {
    let code = "cedar-1111-amber-2222";
    let (mut host, address) = host(code, &[]);
    // Four silent connections from each of nineteen addresses: more than the table
    // holds (64).
    let mut silent = Vec::new();
    for last in 2..=20 {
        for _ in 0..4 {
            if let Ok(stream) = connect_from(Ipv4Addr::new(127, 0, 0, last), &address) {
                silent.push(stream);
            }
        }
    }
    assert!(silent.len() >= 70, "{}", silent.len());
    // A fifth from one address is refused at once, for now (the newest address: the
    // oldest silent connections made room for newer ones).
    let mut fifth = Raw::connect_from(Ipv4Addr::new(127, 0, 0, 20), &address);
    let said = fifth.rest();
    assert!(said.contains("already waiting to greet"), "{said}");
    // The player gets in all the same.
    let mut bob = joiner("join", &address, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    drop(silent);
}

#[test]
fn adjourning_ends_the_joiners_connection_so_it_cannot_play_on_stopped_clocks() {
    let code = "aspen-3333-delta-4444";
    let (mut host, address) = host(code, &["--clock", "0:20+0"]);
    let mut joiner = Raw::connect(&address);
    joiner.hello(code, "player", None);
    joiner.welcome();
    host.expect("joined, playing White");
    host.say("11-15");
    joiner.state_after(1);
    joiner.send(&command(json!({"kind": "adjourn"}))).unwrap();
    // The host lets the connection go: the adjourned player cannot go on playing.
    let rest = joiner.rest();
    assert!(rest.contains("you adjourned the game"), "{rest}");
    let _ = joiner.send(&play("22-18"));
    host.expect("White adjourned the game");
    let seen = host.lines_within(Duration::from_millis(500));
    assert!(
        !seen.iter().any(|l| l.contains("White played")),
        "{seen:#?}"
    );
    host.say("22-18");
    host.expect("White is played at the other terminal");
    // Joining again goes on, the clocks running once more.
    let mut back = Raw::connect(&address);
    back.hello(code, "player", None);
    let (_, state) = back.welcome();
    assert!(!state["running"].is_null(), "{state}");
    back.send(&play("22-18")).unwrap();
    host.expect("White played 22-18");
}

/// A player who leaves a finished game is told the game is over, not that they
/// adjourned it (there is nothing to go on with).
#[test]
fn leaving_a_finished_game_is_not_called_adjourning_it() {
    let code = "hazel-5151-ridge-6262";
    let (mut host, address) = host(code, &[]);
    let mut joiner = Raw::connect(&address);
    joiner.hello(code, "player", None);
    joiner.welcome();
    host.expect("joined, playing White");
    host.say("11-15");
    joiner.state_after(1);
    host.say("resign");
    host.expect("White wins: Black resigned");
    joiner.send(&command(json!({"kind": "adjourn"}))).unwrap();
    let rest = joiner.rest();
    assert!(
        rest.contains("you left the table: the game is over"),
        "{rest}"
    );
    assert!(!rest.contains("adjourned"), "{rest}");
    host.expect("White left the table");
}

#[test]
fn a_new_connection_with_the_seat_token_takes_over_a_silent_one_and_others_are_told_to_wait() {
    let code = "birch-5555-comet-6666";
    let (mut host, address) = host(code, &[]);
    let mut first = Raw::connect(&address);
    first.hello(code, "player", None);
    let (token, _) = first.welcome();
    let token = token.expect("a player's welcome carries a seat token");
    host.expect("joined, playing White");
    // Someone with the code but not the token is told the seat is taken, for now.
    let mut other = Raw::connect(&address);
    other.hello(code, "player", None);
    let (reason, lasting) = other.refusal();
    assert!(
        reason.contains("a player is already at the table"),
        "{reason}"
    );
    assert!(!lasting);
    // The first line goes silent; the player's new one, with the token, takes over.
    let mut second = Raw::connect(&address);
    second.hello(code, "player", Some(token));
    second.welcome();
    let rest = first.rest();
    assert!(rest.contains("taken over"), "{rest}");
    host.say("11-15");
    second.state_after(1);
    second.send(&play("22-18")).unwrap();
    host.expect("White played 22-18");
    let seen = host.lines_within(Duration::from_millis(200));
    assert!(
        !seen.iter().any(|l| l.contains("line dropped")),
        "{seen:#?}"
    );
}

#[test]
fn someone_with_the_code_cannot_take_a_dropped_players_seat_nor_hold_a_key_to_it() {
    let code = "cedar-7777-ember-8888";
    let (mut host, address) = host(code, &[]);
    let mut bob = Raw::connect(&address);
    bob.hello(code, "player", None);
    let (bobs, _) = bob.welcome();
    let bobs = bobs.expect("a player's welcome carries a seat token");
    host.expect("joined, playing White");
    // bob's line drops: his seat is kept for him, not for whoever has the code.
    let _ = bob.stream.shutdown(std::net::Shutdown::Both);
    drop(bob);
    host.expect("White's line dropped");
    let mut mallory = Raw::connect(&address);
    mallory.hello(code, "player", None);
    let (reason, lasting) = mallory.refusal();
    assert!(
        reason.contains("the seat is kept for its player"),
        "{reason}"
    );
    assert!(
        !lasting,
        "told to try again later, as a player started again would"
    );
    // bob's line comes back with his token, and takes the seat at once.
    let mut bob = Raw::connect(&address);
    bob.hello(code, "player", Some(bobs.clone()));
    bob.welcome();
    // bob leaves (the seat is free for anyone with the code); whoever sits next is
    // given a token of their own, and bob's old one no longer takes the seat from them.
    // No move was played: leaving adjourns nothing, and is told so.
    bob.send(&command(json!({"kind": "adjourn"}))).unwrap();
    assert!(bob.rest().contains("you left before any move was played"));
    host.expect("White left the table");
    let mut mallory = Raw::connect(&address);
    mallory.hello(code, "player", None);
    let (mallorys, _) = mallory.welcome();
    assert_ne!(mallorys, Some(bobs.clone()));
    let mut again = Raw::connect(&address);
    again.hello(code, "player", Some(bobs));
    let (reason, _) = again.refusal();
    assert!(
        reason.contains("a player is already at the table"),
        "{reason}"
    );
}

/// A line between a joiner and the host that can go silent, as after a Wi-Fi drop
/// that the host's side has not noticed yet: on the connections open so far the host's
/// words stop reaching the joiner, though nothing is closed, while the joiner's still
/// reach the host until the joiner lets that connection go (then it is held open,
/// silent, as a dead line is). So the host holds the old connection, alive to it, for
/// far longer than the joiner takes to notice the silence: whatever the machine's load,
/// the joiner is back while the host still seats it on the old line. Connections
/// opened later pass as before.
struct Outage {
    address: String,
    opened: Arc<AtomicUsize>,
    cut_before: Arc<AtomicUsize>,
}

impl Outage {
    fn to(host: &str) -> Outage {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let opened = Arc::new(AtomicUsize::new(0));
        let cut_before = Arc::new(AtomicUsize::new(0));
        let (o, c, host) = (
            Arc::clone(&opened),
            Arc::clone(&cut_before),
            host.to_string(),
        );
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(upstream) = TcpStream::connect(&host) else {
                    continue;
                };
                let number = o.fetch_add(1, Ordering::SeqCst);
                // The host's words are the ones the outage silences.
                for (from, to, silenced) in [
                    (
                        client.try_clone().unwrap(),
                        upstream.try_clone().unwrap(),
                        false,
                    ),
                    (upstream, client, true),
                ] {
                    let cut = Arc::clone(&c);
                    std::thread::spawn(move || pass_on(from, to, number, &cut, silenced));
                }
            }
        });
        Outage {
            address,
            opened,
            cut_before,
        }
    }

    /// The line goes silent for the connections open now.
    fn cut(&self) {
        self.cut_before
            .store(self.opened.load(Ordering::SeqCst), Ordering::SeqCst);
    }
}

/// Passes what `from` says on to `to`, unless the connection (`number`) is cut and this
/// way is `silenced`; a cut connection that ends is held open, silent.
fn pass_on(
    mut from: TcpStream,
    mut to: TcpStream,
    number: usize,
    cut: &AtomicUsize,
    silenced: bool,
) {
    let mut buffer = [0u8; 4096];
    loop {
        let Ok(n) = from.read(&mut buffer) else {
            return;
        };
        if n == 0 {
            // Held open, silent, as a dead line is.
            if number < cut.load(Ordering::SeqCst) {
                std::thread::sleep(PATIENCE * 4);
            }
            return;
        }
        if silenced && number < cut.load(Ordering::SeqCst) {
            continue;
        }
        if to.write_all(&buffer[..n]).is_err() {
            return;
        }
    }
}

/// The joiner whose line went silent notices it, connects again with its seat token
/// and takes its seat at once, on its first try, though the host still holds the old
/// connection (it says nothing of a line dropped): no refusal while the host lets the
/// old line go. Judged by what each end says, not by a clock.
#[test]
fn a_joiner_back_from_a_silent_outage_takes_its_seat_again_at_once() {
    let code = "hazel-7777-flint-8888";
    let (mut host, address) = host(code, &["--clock", "5+0"]);
    let line = Outage::to(&address);
    let mut bob = joiner("join", &line.address, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    line.cut();
    let cut_at = Instant::now();
    bob.expect("The line to the host dropped");
    let meanwhile = bob.lines_until("Connected to the host");
    eprintln!(
        "back at the table {:?} after the line went silent",
        cut_at.elapsed()
    );
    assert!(
        !meanwhile.iter().any(|l| l.contains("refused")),
        "the joiner was kept out while the host held its old line: {meanwhile:#?}"
    );
    let before = host.lines_until("Bob joined, playing White");
    assert!(
        !before.iter().any(|l| l.contains("line dropped")),
        "the host let the old line go before the joiner was back, so nothing was \
         taken over: {before:#?}"
    );
    bob.say("22-18");
    host.expect("White played 22-18");
    assert!(
        !bob.seen.iter().any(|l| l.contains("refused")),
        "{:#?}",
        bob.seen
    );
}

/// Stops `pid` with SIGKILL at once (no shell in between).
fn kill_now(pid: u32) {
    let pid = rustix::process::Pid::from_raw(pid as i32).unwrap();
    rustix::process::kill_process(pid, rustix::process::Signal::KILL).unwrap();
}

#[test]
fn a_host_killed_the_moment_a_peer_hears_of_a_move_has_kept_that_move() {
    let code = "grove-1212-lemon-3434";
    let sandbox = Sandbox::new();
    // Each host where the system puts it (the raw joiner goes where it says): no port
    // to keep free between a kill and the next start.
    let port = "0";
    let mut played = 0;
    let mut kills = 0;
    while kills < 20 {
        let extra: &[&str] = if kills == 0 { &[] } else { &["--resume"] };
        let (mut host, address) = host_in(&sandbox, code, port, extra);
        let mut joiner = Raw::connect(&address);
        joiner.hello(code, "player", None);
        let (_, state) = joiner.welcome();
        // Whatever a peer was told before the kill is in the resumed game.
        assert_eq!(moves_of(&state).len(), played, "moves lost at the kill");
        let turn_is_white = played % 2 == 1;
        let m = a_legal_move(&state);
        if turn_is_white {
            joiner.send(&play(&m)).unwrap();
        } else {
            host.say(&m);
        }
        joiner.state_after(played + 1);
        kill_now(host.child.process_id().unwrap());
        let _ = host.child.wait();
        played += 1;
        kills += 1;
    }
    let (_host, address) = host_in(&sandbox, code, port, &["--resume"]);
    let mut joiner = Raw::connect(&address);
    joiner.hello(code, "player", None);
    let (_, state) = joiner.welcome();
    assert_eq!(moves_of(&state).len(), played);
}

/// The resident memory of process `pid`, in kB.
fn resident_kb(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap()
}

#[test]
fn a_hostile_host_flooding_a_joiner_does_not_fill_its_memory() {
    // A fake host: it welcomes the joiner, then sends big states as fast as it can,
    // each time the joiner connects.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let flooding = Arc::new(AtomicBool::new(true));
    let still = Arc::clone(&flooding);
    std::thread::spawn(move || {
        let comment = "x".repeat(100_000);
        let pdn = format!("[Event \"flood\"]\n1. 11-15 {{{comment}}} *\n");
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let still = Arc::clone(&still);
            let pdn = pdn.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(stream.try_clone().unwrap());
                // It knows the code: the joiner believes it.
                let Some((true, _, mut keys)) = host_side(&mut stream, &mut reader, "any") else {
                    return;
                };
                let state = |pdn: &str| {
                    json!({"pdn": pdn, "clocks": null, "running": null, "draw_offer": null,
                           "undo_asked": null, "player_connected": true, "spectators": 0,
                           "joiner_side": "white", "game_number": 1})
                };
                let welcome = json!({"type": "welcome", "version": VERSION, "side": "white",
                                     "seat": null, "state": state(&pdn), "chat": []});
                let mut first = keys.proof();
                first.extend(keys.seal_json(&welcome));
                if stream.write_all(&first).is_err() {
                    return;
                }
                let mut n = 0u64;
                while still.load(Ordering::SeqCst) {
                    n += 1;
                    let flood = json!({"type": "state",
                                       "state": state(&pdn.replace("flood", &n.to_string()))});
                    // News as values, big: a take-back of far more moves than a
                    // game has.
                    let news = json!({"type": "news", "news": {"kind": "took_back",
                                      "moves": vec!["11-15"; 12_000]}});
                    let frames = [keys.seal_json(&flood), keys.seal_json(&news)].concat();
                    if stream.write_all(&frames).is_err() {
                        return;
                    }
                }
            });
        }
    });
    let mut bob = joiner("join", &address, "any", "Bob");
    bob.expect("White to move");
    let pid = bob.child.process_id().unwrap();
    let before = resident_kb(pid);
    let mut most = before;
    let until = Instant::now() + Duration::from_secs(10);
    while Instant::now() < until {
        most = most.max(resident_kb(pid));
        std::thread::sleep(Duration::from_millis(100));
    }
    flooding.store(false, Ordering::SeqCst);
    eprintln!("the joiner under the flood: {before} kB at first, {most} kB at most");
    assert!(
        most < before + 16 * 1024,
        "the joiner grew from {before} kB to {most} kB under the flood"
    );
    drop(bob);
}

#[test]
fn a_peer_of_version_2_is_refused_with_the_reason_and_for_good() {
    let code = "amber-5656-river-7878";
    let (_host, address) = host(code, &[]);
    let mut old = Raw::connect(&address);
    write_line(
        &mut old.stream,
        &json!({"type": "hello", "version": 2, "code": code, "role": "player",
                     "name": null}),
    )
    .unwrap();
    let (reason, lasting) = old.refusal();
    assert_eq!(
        reason,
        "this host speaks version 4 of the protocol, this program version 2: \
         update checkers so that both ends run the same version"
    );
    assert!(lasting, "the same greeting would be refused again");
    assert_eq!(old.next(), None, "the connection ends");
}

#[test]
fn a_joiner_refused_for_now_keeps_trying_and_gets_in_once_the_seat_is_free() {
    let code = "lotus-9090-cabin-1010";
    let (mut host, address) = host(code, &[]);
    // Someone holds the seat, then gives it up a moment later (a seat whose line
    // dropped is kept for its player: see the test of the seat kept).
    let mut holder = Raw::connect(&address);
    holder.hello(code, "player", None);
    holder.welcome();
    host.expect("joined, playing White");
    let mut bob = joiner("join", &address, code, "Bob");
    bob.expect("The host refused for now (a player is already at the table): trying again");
    holder.send(&command(json!({"kind": "adjourn"}))).unwrap();
    drop(holder);
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
}

#[test]
fn an_address_made_to_wait_learns_nothing_of_a_guess_behind_a_frame_that_is_no_greeting() {
    let code = "heron-3141-flint-2718";
    let (mut host, address) = host(code, &[]);
    let from = Ipv4Addr::new(127, 0, 0, 5);
    // What the host answers a guess from that address with `code`, `greeting` sealed
    // behind its proof: the host's words, and whether it proved the code.
    let guess = |code: &str, greeting: &Value| {
        let mut raw = Raw::connect_from(from, &address);
        raw.greet_with(code, greeting, &[]);
        (raw.rest(), raw.proven())
    };
    let wrong = |n: usize| format!("maple-{n:04}-river-0000");
    // Six wrong codes, each judged (the fifth and sixth once the wait before them
    // passed): the address now waits 8 seconds.
    let player = crate::network_line::hello("player", None);
    let mut judged = 0;
    let deadline = Instant::now() + Duration::from_secs(30);
    while judged < 6 {
        assert!(Instant::now() < deadline, "{judged} wrong codes judged");
        let (said, _) = guess(&wrong(judged), &player);
        judged += usize::from(said.contains("\"wrong code\""));
        // Polling for the end of the wait, not deciding anything by it, slower than
        // the two connections a second an address may keep opening.
        std::thread::sleep(Duration::from_millis(600));
    }
    host.expect("(6 wrong codes from there; it waits 8 seconds");
    // While it waits, the right code and the wrong one are answered alike whatever
    // follows the proof: a greeting, a frame that is no greeting, a greeting that
    // does not read.
    let ping = json!({"type": "ping"});
    let odd = json!({"type": "hello", "role": "referee"});
    for greeting in [&player, &ping, &odd] {
        for code in [code, &wrong(99)] {
            let (said, proven) = guess(code, greeting);
            assert!(!proven, "{said}");
            assert!(
                said.contains("too many wrong codes from 127.0.0.5") && said.lines().count() == 1,
                "{code} then {greeting}: {said}"
            );
        }
    }
}

#[test]
fn a_flood_of_key_exchanges_from_one_address_is_refused_for_now_and_the_player_gets_in() {
    let code = "heron-3030-flint-4040";
    let (mut host, address) = host(code, &[]);
    // A hundred openings from one address, one after another, each answered before the
    // next: the host makes the key exchange for the first few only.
    let (mut exchanged, mut refused) = (0, 0);
    for _ in 0..100 {
        let Ok(stream) = connect_from(Ipv4Addr::new(127, 0, 0, 6), &address) else {
            continue;
        };
        let mut raw = Raw::over(stream);
        raw.hello("maple-0000-river-0000", "player", None);
        let answer = raw.rest();
        if answer.contains("too many connections from 127.0.0.6 in 10 seconds: try again shortly") {
            assert!(answer.contains("\"lasting\":false"), "{answer}");
            refused += 1;
        } else {
            exchanged += 1;
        }
    }
    assert!(
        exchanged <= 25,
        "{exchanged} key exchanges, {refused} refused"
    );
    assert!(
        refused >= 75,
        "{exchanged} key exchanges, {refused} refused"
    );
    // The player, from another address, gets in at once.
    let mut bob = joiner("join", &address, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
}

/// Sends `signal` to `pid` at once (no shell in between).
fn signal_now(pid: u32, signal: rustix::process::Signal) {
    let pid = rustix::process::Pid::from_raw(pid as i32).unwrap();
    rustix::process::kill_process(pid, signal).unwrap();
}

/// The host is stopped for three seconds, shorter than a ping's silence, while the
/// joiner's two seconds run: the joiner moves one second into the stop, its board
/// showing a second left. Once the host runs again the move is played and charged as
/// the board timed it; White's flag does not fall on the time the stop ran on (it fell
/// before the move waiting in the line was read).
#[test]
fn a_joiner_moving_in_time_during_a_short_host_stop_keeps_its_flag() {
    let code = "birch-5151-quill-6262";
    let (mut host, address) = host(code, &["--clock", "G/0:02"]);
    let pid = host.child.process_id().unwrap();
    let mut joiner = Raw::connect(&address);
    joiner.hello(code, "player", None);
    joiner.welcome();
    host.expect("joined");
    host.say("11-15");
    let state = joiner.state_after(1);
    let m = a_legal_move(&state);
    // The host hears the joiner just before it stops, as the board's pings make sure.
    joiner.send(&json!({"type": "ping"})).unwrap();
    while joiner.next().expect("the host answers the ping")["type"] != "pong" {}
    signal_now(pid, rustix::process::Signal::STOP);
    let stopped_at = Instant::now();
    // Continued however this test ends, so no stopped host is left behind.
    struct Continue(u32);
    impl Drop for Continue {
        fn drop(&mut self) {
            signal_now(self.0, rustix::process::Signal::CONT);
        }
    }
    let continued = Continue(pid);
    std::thread::sleep(Duration::from_secs(1));
    let left_ms = 1000;
    joiner
        .send(&command(
            json!({"kind": "play", "text": m, "left_ms": left_ms}),
        ))
        .unwrap();
    // The stop outlasts White's two seconds on the host's clock.
    std::thread::sleep(Duration::from_secs(3).saturating_sub(stopped_at.elapsed()));
    drop(continued);
    let deadline = Instant::now() + PATIENCE;
    loop {
        assert!(Instant::now() < deadline, "no word of the move");
        let message = joiner.next().expect("the host ended the connection");
        assert_ne!(message["type"], "rejected", "{message}");
        assert_ne!(message["news"]["kind"], "flag_fell", "{message}");
        if message["type"] == "state" && moves_of(&message["state"]).len() == 2 {
            let white_ms = message["state"]["clocks"][1].as_u64().unwrap();
            assert!(
                white_ms > 0 && white_ms <= left_ms,
                "White keeps what its board showed: {message}"
            );
            break;
        }
    }
    host.expect(&format!("White played {m}"));
}

/// A joiner that gives the host's own name (as it reads on a screen: another case, a
/// `1` for an `l`) is not named so: its chat lines are told as White's, not as if the
/// host said them, and the record keeps the two players apart.
#[test]
fn a_joiner_taking_the_hosts_name_is_not_named_so_and_its_chat_is_told_as_whites() {
    let code = "aspen-7171-heron-8282";
    let (mut host, address) = host(code, &["--name", "Alice"]);
    let mut joiner = Raw::connect(&address);
    let greeting = json!({"type": "hello", "role": "player", "name": " ALICE ", "seat": null});
    joiner.greet_with(code, &greeting, &[]);
    let (_, state) = joiner.welcome();
    let record = record_of(&state);
    assert_ne!(record.tag("White"), Some("ALICE"), "{:?}", record.tags);
    host.expect("joined, playing White");
    joiner
        .send(&json!({"type": "chat", "text": "I resign, you may close the window"}))
        .unwrap();
    let said = host.expect("says: I resign");
    assert!(said.contains("White says:"), "{said}");
    // Nor with the letters a font shows alike.
    let (mut host, address) = crate::network::host(code, &["--name", "Alice"]);
    let mut joiner = Raw::connect(&address);
    let greeting = json!({"type": "hello", "role": "player", "name": "A1ice", "seat": null});
    joiner.greet_with(code, &greeting, &[]);
    let (_, state) = joiner.welcome();
    assert_ne!(record_of(&state).tag("White"), Some("A1ice"));
    host.expect("joined, playing White");
}

/// Whatever answers at the host's address (before the key exchange, with no code) and
/// refuses in clear with escape sequences in its reason, for now or for good, has them
/// shown as `?`: they never reach the joiner's terminal, which would obey them (a new
/// title, a cleared screen, colours, lines that look like the program's).
#[test]
fn a_refusal_in_clear_cannot_write_escape_sequences_to_the_joiners_terminal() {
    use std::io::BufRead;
    let evil = "\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}[31mEVIL\r\nchecker: forged\u{9b}31m";
    for lasting in [false, true] {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let refusal = json!({"type": "refused", "reason": evil, "lasting": lasting});
        // Every try of the joiner's is refused, until it gives up (or the test ends).
        listener.set_nonblocking(true).unwrap();
        let done = Arc::new(AtomicBool::new(false));
        let stop = done.clone();
        let fake = std::thread::spawn(move || {
            while !stop.load(Ordering::SeqCst) {
                match listener.accept() {
                    Ok((stream, _)) => {
                        stream.set_nonblocking(false).unwrap();
                        let mut opening = String::new();
                        let _ = BufReader::new(&stream).read_line(&mut opening);
                        let _ = write_line(&mut &stream, &refusal);
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(20)),
                }
            }
        });
        let mut joiner = joiner("join", &address, "rowan-6666", "Bob");
        let told = joiner.expect("EVIL");
        assert!(told.contains("refused"), "{told}");
        let printed = joiner.seen.join("\n");
        for bad in ['\u{1b}', '\u{7}', '\u{9b}', '\r'] {
            assert!(
                !told.contains(bad) && !printed.contains(bad),
                "{bad:?} reached the terminal: {told:?}"
            );
        }
        assert!(told.contains("EVIL??checker: forged"), "{told:?}");
        drop(joiner);
        done.store(true, Ordering::SeqCst);
        fake.join().unwrap();
    }
}

/// A proxy to the host at an address of its own, where a squatter may answer instead:
/// while it squats, every connection is refused in clear, for good ("you are banned"),
/// before any key exchange, as anything listening at the host's port can.
struct Squatted {
    address: String,
    squatting: Arc<AtomicBool>,
    refused: Arc<AtomicUsize>,
    /// The connections passed on to the host, to be cut when the squatter comes.
    passed: Arc<std::sync::Mutex<Vec<TcpStream>>>,
}

impl Squatted {
    fn to(host: &str) -> Squatted {
        use std::io::BufRead;
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let squatting = Arc::new(AtomicBool::new(false));
        let refused = Arc::new(AtomicUsize::new(0));
        let passed = Arc::new(std::sync::Mutex::new(Vec::new()));
        let (s, r, p, host) = (
            Arc::clone(&squatting),
            Arc::clone(&refused),
            Arc::clone(&passed),
            host.to_string(),
        );
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                if s.load(Ordering::SeqCst) {
                    let mut opening = String::new();
                    let _ = BufReader::new(&client).read_line(&mut opening);
                    let refusal =
                        json!({"type": "refused", "reason": "you are banned", "lasting": true});
                    let _ = write_line(&mut &client, &refusal);
                    r.fetch_add(1, Ordering::SeqCst);
                    continue;
                }
                let Ok(upstream) = TcpStream::connect(&host) else {
                    continue;
                };
                let mut open = p.lock().unwrap();
                open.extend([client.try_clone().unwrap(), upstream.try_clone().unwrap()]);
                for (mut from, mut to) in [
                    (client.try_clone().unwrap(), upstream.try_clone().unwrap()),
                    (upstream, client),
                ] {
                    std::thread::spawn(move || {
                        let _ = std::io::copy(&mut from, &mut to);
                        let _ = to.shutdown(std::net::Shutdown::Both);
                    });
                }
            }
        });
        Squatted {
            address,
            squatting,
            refused,
            passed,
        }
    }

    /// The squatter answers from now on, and the connections open now are cut.
    fn squat(&self) {
        self.squatting.store(true, Ordering::SeqCst);
        for stream in self.passed.lock().unwrap().drain(..) {
            let _ = stream.shutdown(std::net::Shutdown::Both);
        }
    }

    /// Waits until the squatter has refused `count` connections, then lets the host's
    /// address be the host's again.
    fn leave_after(&self, count: usize) {
        let deadline = Instant::now() + PATIENCE;
        while self.refused.load(Ordering::SeqCst) < count {
            assert!(
                Instant::now() < deadline,
                "the joiner stopped trying after {} refusals in clear",
                self.refused.load(Ordering::SeqCst)
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        self.squatting.store(false, Ordering::SeqCst);
    }
}

/// A joiner whose line dropped, reconnecting, meets a squatter at the host's address
/// that refuses it "for good" in clear, before any proof of the code: it says the
/// refusal's words, keeps trying, and is back at its game once the host answers again
/// (it gave the game up: "The host refused this terminal: you are banned. Quit, then
/// join again").
#[test]
fn a_reconnecting_joiner_does_not_give_up_its_game_on_a_refusal_in_clear() {
    let code = "maple-2468-stone-1357";
    let (mut host, address) = host(code, &[]);
    let line = Squatted::to(&address);
    let mut bob = joiner("join", &line.address, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    line.squat();
    bob.expect("The line to the host dropped");
    let told = bob.expect("you are banned");
    assert!(
        told.contains("not proven to come from the host") && told.contains("trying again"),
        "{told}"
    );
    line.leave_after(3);
    bob.expect("Connected to the host");
    bob.say("22-18");
    host.expect("White played 22-18");
    assert!(
        !bob.seen.iter().any(|l| l.contains("Quit, then join again")),
        "{:#?}",
        bob.seen
    );
}

/// A joiner started again after a crash has a game with this host (its seat token
/// kept): a squatter's refusal in clear does not end its join; it is told and tried
/// again, and the joiner takes its seat once the host answers (it stopped: "the host
/// refused: you are banned"). A first join still stops on it.
#[test]
fn a_joiner_started_again_keeps_trying_past_a_refusal_in_clear() {
    let code = "cedar-1122-brook-3344";
    let (mut host, address) = host(code, &[]);
    let line = Squatted::to(&address);
    let home = Sandbox::new();
    let mut bob = crate::network::joiner_in(&home, "join", &line.address, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    line.squat();
    bob.kill();
    host.expect("White's line dropped");
    let mut stranger = joiner("join", &line.address, code, "Carol");
    let told = stranger.expect("you are banned");
    assert!(!told.contains("trying again"), "{told}");
    assert_ne!(stranger.finish(), 0, "a first join stops on the refusal");
    let mut bob = crate::network::joiner_in(&home, "join", &line.address, code, "Bob");
    let told = bob.expect("you are banned");
    assert!(
        told.contains("not proven to come from the host") && told.contains("trying again"),
        "{told}"
    );
    line.leave_after(4);
    host.expect("Bob joined, playing White");
    bob.say("22-18");
    host.expect("White played 22-18");
}
