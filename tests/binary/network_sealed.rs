//! A LAN game's line is private: what a relay between a real joiner and a real host
//! captures holds neither the code nor the seat token nor a move nor a chat line; a
//! fake host without the code is found out by the joiner; a frame tampered with or
//! replayed ends the line; a host that stalls the key exchange, or trickles it, is let
//! go within the joiner's wait; garbage after the key exchange ends only that line.

use crate::common::pty::Sandbox;
use crate::network::{host, joiner, joiner_in};
use crate::network_line::{Raw, VERSION, host_side, write_line};
use serde_json::json;
use std::io::{BufReader, Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// A relay between joiners and a host that keeps every byte it passes, both ways, and
/// can cut the connections open so far (the joiner connects again through it).
struct Capture {
    address: String,
    bytes: Arc<Mutex<Vec<u8>>>,
    open: Arc<Mutex<Vec<TcpStream>>>,
}

impl Capture {
    fn to(host: &str) -> Capture {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let bytes: Arc<Mutex<Vec<u8>>> = Arc::default();
        let open: Arc<Mutex<Vec<TcpStream>>> = Arc::default();
        let (kept, streams, host) = (Arc::clone(&bytes), Arc::clone(&open), host.to_string());
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { continue };
                let Ok(upstream) = TcpStream::connect(&host) else {
                    continue;
                };
                streams.lock().unwrap().push(client.try_clone().unwrap());
                for (from, to) in [
                    (client.try_clone().unwrap(), upstream.try_clone().unwrap()),
                    (upstream, client),
                ] {
                    let kept = Arc::clone(&kept);
                    std::thread::spawn(move || pass_on(from, to, &kept));
                }
            }
        });
        Capture {
            address,
            bytes,
            open,
        }
    }

    /// Cuts every connection open now.
    fn cut(&self) {
        for stream in self.open.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }

    fn captured(&self) -> Vec<u8> {
        self.bytes.lock().unwrap().clone()
    }
}

fn pass_on(mut from: TcpStream, mut to: TcpStream, kept: &Mutex<Vec<u8>>) {
    let mut buffer = [0u8; 4096];
    while let Ok(n) = from.read(&mut buffer) {
        if n == 0 {
            break;
        }
        kept.lock().unwrap().extend_from_slice(&buffer[..n]);
        if to.write_all(&buffer[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Both);
}

fn holds(haystack: &[u8], needle: &str) -> bool {
    haystack
        .windows(needle.len())
        .any(|w| w.eq_ignore_ascii_case(needle.as_bytes()))
}

#[test]
fn a_captured_session_holds_neither_the_code_nor_the_seat_token_nor_a_move_nor_a_chat_line() {
    let code = "walnut-5150-heron-2718";
    let (mut host, address) = host(code, &["--black-name", "Ann"]);
    let capture = Capture::to(&address);
    let sandbox = Sandbox::new();
    let mut bob = joiner_in(&sandbox, "join", &capture.address, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    bob.say("22-18");
    host.expect("White played 22-18");
    bob.say("say meet me by the old mill");
    host.expect("meet me by the old mill");
    host.say("say the lantern is lit");
    bob.expect("the lantern is lit");
    // The line drops: the joiner greets again, with its seat token.
    capture.cut();
    bob.expect("The line to the host dropped");
    bob.expect("Connected to the host");
    host.say("15x22");
    bob.expect("Black played 15x22");
    let seats = sandbox.data_dir().join("seats");
    let token = std::fs::read_dir(&seats)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .next()
        .expect("the joiner kept its seat token");
    let token = token.trim();
    assert_eq!(token.len(), 32, "{token}");
    let captured = capture.captured();
    assert!(captured.len() > 2000, "{} bytes", captured.len());
    // The opening says the version, in clear; the rest is sealed.
    assert!(holds(&captured, &format!("\"version\":{VERSION}")));
    for secret in [
        code, "walnut", "5150", token, "11-15", "22-18", "15x22", "old mill", "lantern", "Ann",
        "Bob", "welcome", "seat",
    ] {
        assert!(!holds(&captured, secret), "the line showed {secret:?}");
    }
}

#[test]
fn a_fake_host_that_does_not_know_the_code_is_found_out_by_the_joiner() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let fake = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        // It plays the host with a guess at the code, and welcomes the joiner all the
        // same.
        let (proven, greeting, mut keys) =
            host_side(&mut stream, &mut reader, "maple-0000-river-0000").unwrap();
        let welcome = json!({"type": "welcome", "version": VERSION, "side": "white",
            "seat": "00", "state": {"pdn": "*", "clocks": null, "running": null,
            "draw_offer": null, "undo_asked": null, "player_connected": true,
            "spectators": 0, "joiner_side": "white", "game_number": 1}, "chat": []});
        let mut answer = keys.proof();
        answer.extend(keys.seal_json(&welcome));
        let _ = stream.write_all(&answer);
        (proven, greeting)
    });
    let mut bob = joiner("join", &address, "rowan-1234-cedar-5678", "Bob");
    bob.expect(&format!(
        "the host at {address} did not prove the game's code: a wrong code, or not the host \
         you meant"
    ));
    assert_eq!(bob.finish(), 1);
    let (proven, greeting) = fake.join().unwrap();
    assert!(!proven, "the joiner's proof holds only for the right code");
    assert!(
        greeting.is_none(),
        "the fake host could not read the greeting"
    );
    assert!(
        !bob.seen.iter().any(|l| l.contains("White to move")),
        "{:#?}",
        bob.seen
    );
}

#[test]
fn a_frame_from_the_host_tampered_with_or_replayed_ends_the_joiners_line() {
    for replay in [false, true] {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let (true, _, mut keys) = host_side(&mut stream, &mut reader, "oak-1").unwrap() else {
                panic!("the joiner proves the code");
            };
            let state = json!({"pdn": "*", "clocks": null, "running": null,
                "draw_offer": null, "undo_asked": null, "player_connected": true,
                "spectators": 0, "joiner_side": "white", "game_number": 1});
            let welcome = json!({"type": "welcome", "version": VERSION, "side": "white",
                "seat": null, "state": state, "chat": []});
            let mut answer = keys.proof();
            answer.extend(keys.seal_json(&welcome));
            let chat = keys.seal_json(&json!({"type": "chat", "from": "Ann", "text": "hi"}));
            answer.extend(&chat);
            if replay {
                answer.extend(&chat);
            } else {
                let mut bad = keys.seal_json(&json!({"type": "chat", "from": "Ann",
                    "text": "forged"}));
                let last = bad.len() - 1;
                bad[last] ^= 1;
                answer.extend(bad);
            }
            stream.write_all(&answer).unwrap();
            // Held open: only the frame ends the line.
            std::thread::sleep(Duration::from_secs(20));
        });
        let mut bob = joiner("join", &address, "oak-1", "Bob");
        // Every line up to the drop is kept, to be looked at whole.
        let deadline = Instant::now() + Duration::from_secs(15);
        while !bob
            .seen
            .iter()
            .any(|l| l.contains("The line to the host dropped"))
        {
            assert!(Instant::now() < deadline, "{:#?}", bob.seen);
            bob.lines_within(Duration::from_millis(100));
        }
        let dropped = bob
            .seen
            .iter()
            .find(|l| l.contains("The line to the host dropped"))
            .unwrap();
        assert!(
            dropped.contains("a message that does not open with the line's key"),
            "{dropped}"
        );
        let said = bob
            .seen
            .iter()
            .filter(|l| l.contains("Ann says: hi"))
            .count();
        assert_eq!(said, 1, "shown once, never replayed: {:#?}", bob.seen);
        assert!(
            !bob.seen.iter().any(|l| l.contains("forged")),
            "{:#?}",
            bob.seen
        );
    }
}

#[test]
fn a_first_join_whose_line_is_cut_after_the_hosts_proof_tries_again_and_gets_in() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    // A host with the code: it proves it, then the line is cut before its welcome, once;
    // the joiner's next connection is welcomed.
    let scripted = std::thread::spawn(move || {
        let mut greetings = Vec::new();
        for attempt in 0..2 {
            let (mut stream, _) = listener.accept().unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let (proven, greeting, mut keys) =
                host_side(&mut stream, &mut reader, "oak-1").unwrap();
            greetings.push((proven, greeting));
            let mut answer = keys.proof();
            if attempt == 1 {
                let welcome = json!({"type": "welcome", "version": VERSION, "side": "white",
                    "seat": null, "state": {"pdn": "*", "clocks": null, "running": null,
                    "draw_offer": null, "undo_asked": null, "player_connected": true,
                    "spectators": 0, "joiner_side": "white", "game_number": 1}, "chat": []});
                answer.extend(keys.seal_json(&welcome));
            }
            stream.write_all(&answer).unwrap();
            if attempt == 1 {
                // Held open while the joiner shows the board.
                return (greetings, stream);
            }
        }
        unreachable!()
    });
    let started = Instant::now();
    let mut bob = joiner("join", &address, "oak-1", "Bob");
    bob.expect(
        "The line to the host dropped before its welcome (the connection closed): trying again",
    );
    bob.expect("Black to move");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    let (greetings, _held) = scripted.join().unwrap();
    assert!(
        greetings
            .iter()
            .all(|(proven, greeting)| *proven && greeting.is_some()),
        "{greetings:?}"
    );
    bob.kill();
}

#[test]
fn a_host_that_trickles_its_part_of_the_key_exchange_is_let_go_within_the_wait() {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let _ = host_side(&mut stream, &mut reader, "oak-1");
        // A frame announced, then a byte a half second: never whole.
        let _ = stream.write_all(&1000u32.to_be_bytes());
        for _ in 0..40 {
            if stream.write_all(b"x").is_err() {
                return;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
    });
    let started = Instant::now();
    let mut bob = joiner("join", &address, "oak-1", "Bob");
    bob.expect("took the connection but did not answer within 5 s");
    assert_eq!(bob.finish(), 1);
    assert!(
        started.elapsed() < Duration::from_secs(12),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn garbage_or_a_replayed_frame_after_the_key_exchange_ends_that_line_only() {
    let code = "quartz-8080-swan-9090";
    let (mut host, address) = host(code, &[]);
    let mut player = Raw::connect(&address);
    player.hello(code, "player", None);
    let (token, _) = player.welcome();
    host.expect("joined, playing White");
    // Garbage where a frame is due: a plain line, as an old peer would send.
    let mut watcher = Raw::connect(&address);
    watcher.hello(code, "spectator", None);
    watcher.welcome();
    write_line(&mut watcher.stream, &json!({"type": "ping"})).unwrap();
    let rest = watcher.rest();
    assert!(
        rest.contains(
            "a plain message where a sealed one was due (an older checkers, or not checkers)"
        ),
        "{rest}"
    );
    // The player's line: a frame sent twice.
    host.say("11-15");
    player.state_after(1);
    let frame_twice = player.seal_twice(&json!({"type": "command",
        "command": {"kind": "play", "text": "22-18"}}));
    player.stream.write_all(&frame_twice).unwrap();
    host.expect("White played 22-18");
    host.expect("White's line dropped (a message that does not open with the line's key");
    // The player's new connection, with its seat token, gets back in: the game goes on.
    let mut back = Raw::connect(&address);
    back.hello(code, "player", token);
    let (_, state) = back.welcome();
    assert!(state["pdn"].as_str().unwrap().contains("22-18"), "{state}");
    host.say("15x22");
    host.expect("Black played 15x22");
}

#[test]
fn a_man_in_the_middle_that_cuts_the_line_and_plays_the_host_gets_three_guesses_at_most() {
    let code = "lilac-6060-crane-7070";
    let (mut host, address) = host(code, &[]);
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let relay = listener.local_addr().unwrap().to_string();
    let first: Arc<Mutex<Option<TcpStream>>> = Arc::default();
    let guesses: Arc<Mutex<usize>> = Arc::default();
    let (kept, counted) = (Arc::clone(&first), Arc::clone(&guesses));
    std::thread::spawn(move || {
        for (number, client) in listener.incoming().enumerate() {
            let Ok(mut client) = client else { continue };
            if number == 0 {
                // The first connection goes to the real host: the joiner is welcomed.
                let upstream = TcpStream::connect(&address).unwrap();
                *kept.lock().unwrap() = Some(client.try_clone().unwrap());
                let nothing: Arc<Mutex<Vec<u8>>> = Arc::default();
                for (from, to) in [
                    (client.try_clone().unwrap(), upstream.try_clone().unwrap()),
                    (upstream, client),
                ] {
                    let nothing = Arc::clone(&nothing);
                    std::thread::spawn(move || pass_on(from, to, &nothing));
                }
                continue;
            }
            // Every later one it answers itself with a guess at the code, takes the
            // joiner's proof (which tests the guess), and hangs up: the line dropped,
            // as far as the joiner can tell.
            let mut reader = BufReader::new(client.try_clone().unwrap());
            let guess = format!("maple-{number:04}-river-0000");
            if host_side(&mut client, &mut reader, &guess).is_some() {
                *counted.lock().unwrap() += 1;
            }
        }
    });
    let mut bob = joiner("join", &relay, code, "Bob");
    host.expect("Bob joined, playing White");
    host.say("11-15");
    bob.expect("Black played 11-15");
    let cut = first.lock().unwrap().take().unwrap();
    cut.shutdown(Shutdown::Both).unwrap();
    bob.expect("The line to the host dropped");
    bob.expect(&format!(
        "the host at {relay} did not prove the game's code: a wrong code, or not the host \
         you meant"
    ));
    // It stopped trying there: the relay tested three guesses at most.
    let guessed = *guesses.lock().unwrap();
    assert!(guessed <= 3, "{guessed} guesses");
}
