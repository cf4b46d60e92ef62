//! `checkers server` and `checkers online`: real processes on the loopback address, each
//! client in a sandbox of its own (its key, its known servers), talking TLS. Every wait
//! is for a line the program prints, within a bound.

use crate::common::pty::{Sandbox, Session};
use crate::network::{Peer, board_text, key_line, panel_text};
use ed25519_dalek::Signer;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::Arc;

/// A server in `sandbox` at `listen`, its database in the sandbox: the process and the
/// address it listens at.
fn server(sandbox: &Sandbox, listen: &str) -> (Peer, String) {
    server_with(sandbox, listen, &[])
}

/// [`server`] with `options` (limits, expiry) after the listening address and database
/// (made with `--create` on the first start, opened as it is on the next).
fn server_with(sandbox: &Sandbox, listen: &str, options: &[&str]) -> (Peer, String) {
    let db = sandbox.home().join("server.sqlite");
    let mut args = vec!["server", "--listen", listen, "--db", db.to_str().unwrap()];
    if !db.exists() {
        args.push("--create");
    }
    args.extend_from_slice(options);
    let mut server = Peer::start(sandbox, &args);
    let line = server.expect("checkers server listening at ");
    let address = line.rsplit(' ').next().unwrap().to_string();
    server.expect("Certificate fingerprint SHA256:");
    (server, address)
}

/// A player `name` at `address`, logged in, from `sandbox`.
fn player(sandbox: &Sandbox, address: &str, name: &str) -> Peer {
    let mut peer = online(sandbox, &[address, "--name", name, "--plain"]);
    peer.expect(&format!("Logged in to {address} as {name}"));
    peer
}

/// `checkers online` with `args` (the server's address first) from `sandbox`: on first
/// contact (nothing pinned for that address in the sandbox) its question is answered
/// yes.
fn online(sandbox: &Sandbox, args: &[&str]) -> Peer {
    let pinned =
        std::fs::read_to_string(sandbox.data_dir().join("known_servers")).unwrap_or_default();
    let mut peer = Peer::start(sandbox, &[&["online"], args].concat());
    if !pinned.contains(args[0]) {
        peer.expect("Compare it with the one the server printed");
        peer.say("y");
    }
    peer
}

/// A full-screen client of `name` at `address`, from `sandbox`: on first contact it
/// asks whether to trust the server's certificate before the screen starts, and is
/// told yes.
fn screen_player(sandbox: &Sandbox, address: &str, name: &str) -> Session {
    let mut session = Session::start_in(sandbox, &["online", address, "--name", name], &[]);
    session.wait_for("the first contact's question", |s| {
        s.contents().contains("Trust it, pin it and connect? [y/N]")
    });
    session.send(b"y\r");
    session
}

/// `seeker` posts `seek` (e.g. "seek 5+0 casual") and `taker` accepts it: game 1
/// starts for both. Gives the seeker's line saying so (with its side).
fn meet(seeker: &mut Peer, taker: &mut Peer, seek: &str) -> String {
    seeker.say(seek);
    seeker.expect("Seek 1 posted");
    taker.say("accept 1");
    taker.expect("Game 1 starts:");
    seeker.expect("Game 1 starts:")
}

/// Stops a server with SIGTERM, as a service manager does.
fn stop(server: &mut Peer) {
    let pid = server.child.process_id().unwrap();
    let status = std::process::Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    server.expect("checkers server stopped");
    assert_eq!(server.finish(), 0);
}

#[test]
fn two_players_meet_through_a_seek_and_play_a_rated_game_that_changes_both_ratings() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    alice.say("seek 5+3 rated");
    alice.expect("Seek 1 posted: 5+3 rated");
    bob.say("seeks");
    bob.expect("1: alice (1500) 5+3 rated");
    bob.say("accept 1");
    let started = alice.expect("Game 1 starts:");
    bob.expect("Game 1 starts:");
    let (mut black, mut white, black_name, white_name) = if started.contains("You play Black") {
        (alice, bob, "alice", "bob")
    } else {
        (bob, alice, "bob", "alice")
    };
    // A spectator finds the game and watches it from its first move.
    let c = Sandbox::new();
    let mut carol = player(&c, &address, "carol");
    carol.say("games");
    carol.expect(&format!(
        "1: {black_name} - {white_name}, 5+3 rated, 0 moves played"
    ));
    carol.say("watch 1");
    carol.expect(&format!(
        "Watching game 1: {black_name} (Black) - {white_name} (White), 5+3; moves so far: none."
    ));
    // Nobody acts for the other side: White cannot move on Black's turn, nor Black on
    // White's.
    white.say("11-15");
    white.expect("Refused: it is Black's turn: you play White");
    black.say("11-15");
    black.expect("Black played 11-15.");
    white.expect("Black played 11-15.");
    black.say("15-19");
    black.expect("Refused: it is White's turn: you play Black");
    white.say("22-18");
    white.expect("White played 22-18.");
    black.expect("White played 22-18.");
    // The spectator saw every move, and cannot act.
    carol.expect("Black played 11-15.");
    carol.expect("White played 22-18.");
    carol.say("15-19");
    carol.expect("Refused: you are not playing a game");
    carol.say("resign");
    carol.expect("Refused: you are not playing a game");
    black.say("resign");
    black.expect("Game 1 over: 0-1 White wins: Black resigned.");
    carol.expect("Game 1 over: 0-1 White wins: Black resigned.");
    let ratings = white.expect("Ratings: ");
    assert!(
        ratings.contains(&format!("{white_name} 1500 -> ")),
        "{ratings}"
    );
    white.say(&format!("player {black_name}"));
    let record = white.expect(&format!("{black_name}: rating "));
    assert!(record.contains("0 won, 1 lost, 0 drawn"), "{record}");
    for peer in [&mut black, &mut white, &mut carol] {
        peer.say("quit");
        assert_eq!(peer.finish(), 0);
    }
    // A player exports their games as PDN.
    let (white_home, file) = if white_name == "alice" {
        (&a, a.home().join("mine.pdn"))
    } else {
        (&b, b.home().join("mine.pdn"))
    };
    let mut export = online(
        white_home,
        &[
            &address,
            "--name",
            white_name,
            "--export",
            file.to_str().unwrap(),
        ],
    );
    export.expect("Wrote 1 game to");
    assert_eq!(export.finish(), 0);
    let exported = std::fs::read_to_string(&file).unwrap();
    assert!(exported.contains("1. 11-15 {[%clk"), "{exported}");
    assert!(
        exported.contains(&format!("[White \"{white_name}\"]")),
        "{exported}"
    );
    stop(&mut server);
    // The database holds both moves, the record and both new ratings.
    let db = rusqlite::Connection::open(home.home().join("server.sqlite")).unwrap();
    let moves: Vec<String> = db
        .prepare("SELECT squares FROM moves WHERE game = 1 ORDER BY ply")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(moves, ["11-15", "22-18"]);
    let pdn: String = db
        .query_row("SELECT pdn FROM games WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    assert!(pdn.contains("1. 11-15") && pdn.contains("0-1"), "{pdn}");
    let rating = |name: &str| -> f64 {
        db.query_row("SELECT rating FROM players WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .unwrap()
    };
    assert!(rating(white_name) > 1500.0);
    assert!(rating(black_name) < 1500.0);
    let history: i64 = db
        .query_row("SELECT count(*) FROM ratings WHERE game = 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(history, 2);
}

#[test]
fn another_key_claiming_a_taken_name_is_refused() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let first = Sandbox::new();
    let mut alice = player(&first, &address, "alice");
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    // The same key logs in again; logging in once more takes over from that connection
    // (as from a dropped line); another key (another data folder) is refused.
    let mut again = player(&first, &address, "alice");
    let mut third = player(&first, &address, "alice");
    again.expect("let go: you logged in on another connection");
    assert_ne!(again.finish(), 0);
    third.say("quit");
    assert_eq!(third.finish(), 0);
    let other = Sandbox::new();
    let mut impostor = online(&other, &[&address, "--name", "alice", "--plain"]);
    impostor.expect("refused: the name alice is taken by another player's key");
    assert_ne!(impostor.finish(), 0);
    stop(&mut server);
}

/// A name with a letter outside a-z and A-Z is refused by the client before anything is
/// sent (nothing listens at port 1), in the words the server would use.
#[test]
fn a_name_outside_ascii_is_refused_before_it_is_sent_naming_the_character() {
    let out =
        crate::common::command::run(&["online", "127.0.0.1:1", "--name", "jos\u{e9}", "--plain"]);
    assert!(!out.status.success());
    let said = crate::common::command::stderr(&out);
    assert!(
        said.contains(
            "the name jos\u{e9}: '\u{e9}' (the 4th character) is not allowed: a name is 1 to \
             20 of a-z, A-Z, 0-9, - and _ (--name NAME gives another)"
        ),
        "{said}"
    );
}

#[test]
fn a_client_refuses_a_server_whose_certificate_changed() {
    let home = Sandbox::new();
    let (mut server1, address) = server(&home, "127.0.0.1:0");
    let a = Sandbox::new();
    let mut alice = Peer::start(&a, &["online", &address, "--name", "alice", "--plain"]);
    alice.expect("First contact with");
    // The fingerprint in two halves, on the lines before the question.
    let first: String = alice
        .lines_until("Compare it with the one the server printed")
        .iter()
        .map(|l| l.trim())
        .collect();
    alice.say("y");
    alice.expect("Logged in");
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    stop(&mut server1);
    // A new certificate at the same address: the old one's files gone.
    std::fs::remove_file(home.home().join("server.cert.der")).unwrap();
    std::fs::remove_file(home.home().join("server.key.der")).unwrap();
    let (mut server2, again) = server(&home, &address);
    assert_eq!(again, address);
    let mut alice = Peer::start(&a, &["online", &address, "--name", "alice", "--plain"]);
    alice.expect(&format!(
        "WARNING: the certificate of {address} has changed!"
    ));
    let pinned = alice.expect("pinned on first contact: SHA256:");
    let pinned = pinned.rsplit(' ').next().unwrap();
    assert!(first.contains(pinned), "{first} / {pinned}");
    alice.expect("presented now:           SHA256:");
    alice.expect("known_servers");
    assert_ne!(alice.finish(), 0);
    stop(&mut server2);
}

/// A raw TLS connection to the server.
type Raw = rustls::StreamOwned<rustls::ClientConnection, TcpStream>;

/// A TLS connection that accepts any certificate, as an attacker's client would: the
/// stream, the server's challenge (hex) and its certificate's fingerprint.
fn raw_connection(address: &str) -> (Raw, String, [u8; 32]) {
    raw_connection_on(TcpStream::connect(address).unwrap())
}

/// [`raw_connection`] over `tcp`, connected.
fn raw_connection_on(tcp: TcpStream) -> (Raw, String, [u8; 32]) {
    /// Accepts every certificate.
    #[derive(Debug)]
    struct Anything;
    impl rustls::client::danger::ServerCertVerifier for Anything {
        fn verify_server_cert(
            &self,
            _: &rustls::pki_types::CertificateDer<'_>,
            _: &[rustls::pki_types::CertificateDer<'_>],
            _: &rustls::pki_types::ServerName<'_>,
            _: &[u8],
            _: rustls::pki_types::UnixTime,
        ) -> Result<rustls::client::danger::ServerCertVerified, rustls::Error> {
            Ok(rustls::client::danger::ServerCertVerified::assertion())
        }
        fn verify_tls12_signature(
            &self,
            _: &[u8],
            _: &rustls::pki_types::CertificateDer<'_>,
            _: &rustls::DigitallySignedStruct,
        ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            Ok(rustls::client::danger::HandshakeSignatureValid::assertion())
        }
        fn verify_tls13_signature(
            &self,
            _: &[u8],
            _: &rustls::pki_types::CertificateDer<'_>,
            _: &rustls::DigitallySignedStruct,
        ) -> Result<rustls::client::danger::HandshakeSignatureValid, rustls::Error> {
            Ok(rustls::client::danger::HandshakeSignatureValid::assertion())
        }
        fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
            #[allow(deprecated)]
            rustls::crypto::ring::default_provider()
                .signature_verification_algorithms
                .supported_schemes()
        }
    }
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(Anything))
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("checkers").unwrap();
    let conn = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    tcp.set_read_timeout(Some(std::time::Duration::from_secs(15)))
        .unwrap();
    let mut stream = rustls::StreamOwned::new(conn, tcp);
    stream.flush().unwrap();
    // The handshake completes on the first read.
    let mut first = String::new();
    let mut reader = BufReader::new(&mut stream);
    reader.read_line(&mut first).unwrap();
    drop(reader);
    let cert = stream.conn.peer_certificates().unwrap()[0].clone();
    use sha2::Digest;
    let fingerprint: [u8; 32] = sha2::Sha256::digest(cert.as_ref()).into();
    let challenge: serde_json::Value = serde_json::from_str(&first).unwrap();
    assert_eq!(challenge["type"], "challenge");
    let challenge = challenge["challenge"].as_str().unwrap().to_string();
    (stream, challenge, fingerprint)
}

/// Hex of `bytes`.
fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Sends `line` and reads the answer.
fn exchange(stream: &mut Raw, line: &str) -> String {
    stream.write_all(format!("{line}\n").as_bytes()).unwrap();
    stream.flush().unwrap();
    let mut answer = String::new();
    BufReader::new(stream).read_line(&mut answer).unwrap();
    answer
}

#[test]
fn a_forged_or_replayed_login_is_refused() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let key = ed25519_dalek::SigningKey::from_bytes(&[7; 32]);
    let public = hex(key.verifying_key().as_bytes());
    let login = |signature: &[u8]| {
        format!(
            r#"{{"type":"login","version":1,"name":"mallory","key":"{public}","signature":"{}"}}"#,
            hex(signature)
        )
    };
    // Forged: a signature of something else than this challenge.
    let (mut stream, _, _) = raw_connection(&address);
    let forged = key.sign(b"not the challenge");
    let answer = exchange(&mut stream, &login(&forged.to_bytes()));
    assert!(
        answer.contains("the login's signature does not verify"),
        "{answer}"
    );
    // Honest: the challenge, the fingerprint and the name, signed.
    let (mut stream, challenge, fingerprint) = raw_connection(&address);
    let challenge: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&challenge[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let mut message = challenge;
    message.extend_from_slice(&fingerprint);
    message.extend_from_slice(b"mallory");
    let honest = login(&key.sign(&message).to_bytes());
    let answer = exchange(&mut stream, &honest);
    assert!(answer.contains(r#""type":"welcome""#), "{answer}");
    // A message of a type this server does not know (a newer client's) is answered
    // naming it, and the line stays (it was closed).
    let answer = exchange(&mut stream, r#"{"type":"frobnicate","x":1}"#);
    assert!(
        answer.contains(r#"does not know the message type \"frobnicate\""#),
        "{answer}"
    );
    let answer = exchange(&mut stream, r#"{"type":"ping"}"#);
    assert!(answer.contains(r#""type":"pong""#), "{answer}");
    // A flood is let go, of unknown types as of any.
    stream
        .write_all(
            r#"{"type":"frobnicate"}
"#
            .repeat(250)
            .as_bytes(),
        )
        .unwrap();
    stream.flush().unwrap();
    let mut reader = BufReader::new(&mut stream);
    let flood = (0..300)
        .map_while(|_| {
            let mut line = String::new();
            reader.read_line(&mut line).ok().filter(|n| *n > 0)?;
            Some(line)
        })
        .find(|line| line.contains("refused"));
    assert!(
        flood.is_some_and(|l| l.contains("more than 200 messages in 10 seconds")),
        "a flood was not refused"
    );
    drop(stream);
    // Replayed: the same login on a new connection, whose challenge is another.
    let (mut stream, _, _) = raw_connection(&address);
    let answer = exchange(&mut stream, &honest);
    assert!(
        answer.contains("the login's signature does not verify"),
        "{answer}"
    );
    // A line that is not JSON still closes the line (a broken client).
    let (mut stream, challenge, _) = raw_connection(&address);
    let challenge: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&challenge[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    let mut message = challenge;
    message.extend_from_slice(&fingerprint);
    message.extend_from_slice(b"mallory");
    let answer = exchange(&mut stream, &login(&key.sign(&message).to_bytes()));
    assert!(answer.contains(r#""type":"welcome""#), "{answer}");
    let answer = exchange(&mut stream, "{not json");
    assert!(
        answer.contains("a message this server cannot read"),
        "{answer}"
    );
    // A line over the bound is refused.
    let (mut stream, _, _) = raw_connection(&address);
    let answer = exchange(&mut stream, &"a".repeat(5000));
    assert!(answer.contains("a line longer than 4096 bytes"), "{answer}");
    // Nothing is asked before a login.
    let (mut stream, _, _) = raw_connection(&address);
    let answer = exchange(&mut stream, r#"{"type":"who"}"#);
    assert!(
        answer.contains("the first message must be a login"),
        "{answer}"
    );
    stop(&mut server);
}

#[test]
fn a_game_survives_the_server_killed_and_goes_on_when_both_are_back() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    let started = meet(&mut alice, &mut bob, "seek 10+5 casual");
    let alice_black = started.contains("You play Black");
    // Killed after each of two moves; random moments are the next test's.
    let line = ["11-15", "23-19"];
    let mut players = [alice, bob];
    for (ply, m) in line.iter().enumerate() {
        let black_moves = ply % 2 == 0;
        let mover = usize::from(black_moves != alice_black);
        players[mover].say(m);
        // Both have seen it: then the server is killed at once, without a word.
        for peer in &mut players {
            peer.expect(&format!("played {m}."));
        }
        server.kill();
        for (i, peer) in players.iter_mut().enumerate() {
            // What the server does with the game is said as the line goes: the clock
            // said to run is the one of the player to move (the other's, after `m`).
            let clock = if i == mover {
                "your opponent's clock running, then yours"
            } else {
                "your clock running"
            };
            peer.expect(&format!(
                "At the server game 1 goes on, {clock}, while your opponent is at it, and is \
                 adjourned, its clocks stopped, once neither is (or when the server stops); \
                 checkers online takes you back to it",
            ));
            assert_ne!(peer.finish(), 0);
        }
        let (mut again, at) = self::server(&home, &address);
        assert_eq!(at, address);
        again.expect("1 adjourned game waits for its players");
        server = again;
        // One back: the game waits, and takes no move.
        let mut first = online(&a, &[&address, "--name", "alice", "--plain"]);
        first.expect("Game 1 waits for bob: in 2 minutes it goes on");
        first.say("11-16");
        first.expect("Refused: the game is adjourned until your opponent is back");
        let mut second = player(&b, &address, "bob");
        let seen = line[..=ply].join(" ");
        for peer in [&mut first, &mut second] {
            peer.expect("Game 1 goes on:");
            peer.expect(&format!("Moves so far: {seen}."));
        }
        players = [first, second];
    }
    let mover = usize::from(!alice_black);
    players[mover].say("resign");
    for peer in &mut players {
        peer.expect("Game 1 over:");
    }
    stop(&mut server);
    let db = rusqlite::Connection::open(home.home().join("server.sqlite")).unwrap();
    let moves: i64 = db
        .query_row("SELECT count(*) FROM moves WHERE game = 1", [], |r| {
            r.get(0)
        })
        .unwrap();
    assert_eq!(moves, line.len() as i64);
}

#[test]
fn a_private_table_by_invite_code_and_a_challenge_reach_only_their_player() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b, c) = (Sandbox::new(), Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    let mut carol = player(&c, &address, "carol");
    alice.say("invite 3+2");
    let line = alice.expect("Give your friend its code: join ");
    let code = line.rsplit(' ').next().unwrap().to_string();
    // Hidden from the list, and not taken by number.
    carol.say("seeks");
    carol.expect("No open seeks");
    carol.say("accept 1");
    carol.expect("Refused: no open seek 1");
    carol.say("join wrong-0000-code-0000");
    carol.expect("Refused: no private table has that code");
    // The code typed in capitals, with spaces, still takes it.
    bob.say(&format!("join {}", code.to_uppercase().replace('-', " ")));
    bob.expect("Game 1 starts:");
    let started = alice.expect("Game 1 starts:");
    assert!(started.contains("3+2 casual"), "{started}");
    alice.say("resign");
    bob.expect("Game 1 over:");
    // A challenge: only the player challenged sees it and may take it.
    alice.say("challenge carol 4+0 casual");
    alice.expect("Challenge 2 sent to carol: 4+0 casual (cancel 2 withdraws it).");
    carol.expect("alice (1500) challenges you to a 4+0 casual game: accept 2 takes it, decline 2 declines it.");
    bob.say("seeks");
    bob.expect("No open seeks");
    bob.say("accept 2");
    bob.expect("Refused: no open seek 2");
    carol.say("seeks");
    carol.expect("2: alice (1500) 4+0 casual, a challenge to carol");
    carol.say("accept 2");
    carol.expect("Game 2 starts:");
    alice.expect("Game 2 starts:");
    // Nobody acts at a table they do not sit at.
    bob.say("11-15");
    bob.expect("Refused: you are not playing a game");
    stop(&mut server);
}

#[test]
fn the_server_keeps_the_clocks_and_a_fallen_flag_ends_the_game() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    // One second for the game: Black, who moves first, runs out.
    meet(&mut alice, &mut bob, "seek 0:01+0 rated");
    for peer in [&mut alice, &mut bob] {
        peer.expect("Game 1 over: 0-1 White wins: Black lost on time.");
        peer.expect("Ratings: ");
    }
    // Stopped with SIGTERM, the server tells everyone before it goes.
    stop(&mut server);
    for peer in [&mut alice, &mut bob] {
        peer.expect("let go: the server is stopping");
        assert_ne!(peer.finish(), 0);
    }
}

#[test]
fn invite_codes_cannot_be_guessed_an_address_that_guesses_waits() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, c) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut carol = player(&c, &address, "carol");
    alice.say("invite 3+2");
    let line = alice.expect("Give your friend its code: join ");
    let code = line.rsplit(' ').next().unwrap().to_string();
    // Three wrong codes are free; the fourth earns the address a wait.
    for guess in 0..3 {
        carol.say(&format!("join maple-{guess:04}-river-0000"));
        let refused = carol.expect("Refused: no private table has that code");
        assert!(!refused.contains("looked at in"), "{refused}");
    }
    carol.say("join maple-0003-river-0000");
    carol.expect("Refused: no private table has that code (the next code from your address is looked at in 2 seconds)");
    // While it waits, even the right code is not looked at: no game starts.
    carol.say(&format!("join {code}"));
    carol.expect("Refused: too many wrong codes from your address: the next is looked at in");
    carol.say("games");
    carol.expect("No games in play");
    stop(&mut server);
}

#[test]
fn silent_connections_are_let_go_and_cannot_crowd_out_a_player() {
    use std::io::Read;
    use std::net::Ipv4Addr;
    use std::time::{Duration, Instant};
    let home = Sandbox::new();
    // An address may hold four connections; a client has eight seconds to log in
    // (time enough for the players' programs on a loaded machine, well under the
    // twenty the silent ones may be held).
    let (mut server, address) = server_with(
        &home,
        "127.0.0.1:0",
        &["--max-connections-per-address", "4", "--login-timeout", "8"],
    );
    // Four connections from one address that never start TLS: as many as it may hold.
    let from = Ipv4Addr::new(127, 0, 0, 2);
    let mut silent: Vec<TcpStream> = (0..4)
        .map(|_| crate::network_attacks::connect_from(from, &address).unwrap())
        .collect();
    // A fifth from there is closed within the time to tell why (it never starts TLS,
    // so it is told nothing).
    let mut extra = crate::network_attacks::connect_from(from, &address).unwrap();
    extra
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut byte = [0u8; 1];
    assert!(
        matches!(extra.read(&mut byte), Ok(0)),
        "a connection over the address's share is closed"
    );
    // A player from another address logs in and plays all the same.
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    meet(&mut alice, &mut bob, "seek 5+0 casual");
    // The silent ones are let go once the time to log in is up.
    let started = Instant::now();
    for stream in &mut silent {
        stream
            .set_read_timeout(Some(Duration::from_secs(30)))
            .unwrap();
        let _ = stream.read(&mut byte);
    }
    let waited = started.elapsed();
    assert!(
        waited < Duration::from_secs(20),
        "silent connections held for {waited:?}"
    );
    // The limits are options, their defaults shown.
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(["server", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    for option in [
        "--max-connections-per-address <N>",
        "--login-timeout <SECONDS>",
        "--idle-timeout <SECONDS>",
        "--message-rate <N>",
        "--adjourned-days <DAYS>",
        "[default: 16]",
        "[default: 14]",
    ] {
        assert!(help.contains(option), "{option} not in {help}");
    }
    stop(&mut server);
}

#[test]
fn connections_that_never_log_in_cannot_fill_the_server() {
    use std::net::Ipv4Addr;
    let home = Sandbox::new();
    let (mut server, address) = server_with(&home, "127.0.0.1:0", &["--max-connections", "4"]);
    // Every place taken by connections from several addresses that never start TLS.
    let silent: Vec<TcpStream> = (0..4)
        .map(|i| {
            let from = Ipv4Addr::new(127, 0, 1, 1 + i);
            crate::network_attacks::connect_from(from, &address).unwrap()
        })
        .collect();
    // A player still logs in and plays: the oldest silent connection makes room.
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    meet(&mut alice, &mut bob, "seek 5+0 casual");
    drop(silent);
    stop(&mut server);
}

#[test]
fn a_connection_over_the_servers_cap_is_told_it_is_full_and_closed() {
    use std::time::{Duration, Instant};
    let home = Sandbox::new();
    let (mut server, address) = server_with(&home, "127.0.0.1:0", &["--max-connections", "2"]);
    let (a, b, c) = (Sandbox::new(), Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    // A third is told why, and the program says so and fails.
    let mut carol = online(&c, &[&address, "--name", "carol", "--plain"]);
    carol.expect("refused: the server is full (2 connections at once): try again later");
    assert_ne!(carol.finish(), 0);
    server.expect("the server is full: a connection turned away");
    // The two in play it still; once one leaves, there is room again.
    meet(&mut alice, &mut bob, "seek 5+0 casual");
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let mut carol = online(&c, &[&address, "--name", "carol", "--plain"]);
        let mut line = carol.expect(&address);
        while line.starts_with("First contact") || line.starts_with("Pinned in") {
            line = carol.expect(&address);
        }
        if line.contains("Logged in") {
            break;
        }
        assert!(line.contains("the server is full"), "{line}");
        assert!(Instant::now() < deadline, "no room after a player left");
        carol.finish();
    }
    let help = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(["server", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--max-connections <N>"), "{help}");
    assert!(help.contains("[default: 4096]"), "{help}");
    stop(&mut server);
}

#[test]
fn a_seek_for_white_gives_the_seeker_white_and_a_ballot_seek_opens_with_the_ballot() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    // A word the seek does not know is named, and nothing is posted.
    alice.say("seek 5+0 purple");
    alice.expect("purple is none of these");
    alice.say("seek 5+0 casual white ballot");
    alice.expect("Seek 1 posted: 5+0 casual, you play White, a ballot opening.");
    bob.say("seeks");
    bob.expect("1: alice (1500) 5+0 casual, alice plays White, a ballot opening");
    bob.say("accept 1");
    let bobs = bob.expect("Game 1 starts:");
    let alices = alice.expect("Game 1 starts:");
    assert!(alices.ends_with("You play White."), "{alices}");
    assert!(bobs.ends_with("You play Black."), "{bobs}");
    // Both start from the same ballot, its three moves played: White is to move.
    let ballot = |line: &str| {
        let at = line.find(", Ballot ").expect("a ballot in the start line");
        line[at + 2..line.find(". You play").unwrap()].to_string()
    };
    assert_eq!(ballot(&alices), ballot(&bobs));
    alice.expect("Your move (White).");
    bob.expect("Waiting for White's move.");
    bob.say("board");
    bob.expect("White to move.");
    // The record stored with the game names its ballot.
    let number: String = ballot(&alices)["Ballot ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    for peer in [&mut alice, &mut bob] {
        peer.say("quit");
        assert_eq!(peer.finish(), 0);
    }
    stop(&mut server);
    let db = rusqlite::Connection::open(home.home().join("server.sqlite")).unwrap();
    let pdn: String = db
        .query_row("SELECT pdn FROM games WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    assert!(pdn.contains(&format!("[Ballot \"{number}\"]")), "{pdn}");
    assert!(pdn.contains("[White \"alice\"]"), "{pdn}");
}

#[test]
fn a_challenge_and_an_invite_take_a_side_and_a_ballot_as_a_seek_does() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    // A word that does not read is named, with the command's terms; nothing is sent.
    alice.say("challenge bob 10+5 casual purple");
    alice.expect("challenge NAME [CLOCK] [rated|casual] [black|white|either] [ballot|free]: purple is none of these");
    alice.say("invite 5+x");
    alice.expect("5+x is not a clock: ");
    // The words in any order: alice plays White, from a ballot.
    alice.say("challenge bob ballot white casual 10+5");
    alice.expect("Challenge 1 sent to bob: 10+5 casual, you play White, a ballot opening (cancel 1 withdraws it).");
    bob.expect("alice (1500) challenges you to a 10+5 casual game, alice plays White, a ballot opening: accept 1 takes it, decline 1 declines it.");
    bob.say("accept 1");
    let bobs = bob.expect("Game 1 starts:");
    let alices = alice.expect("Game 1 starts:");
    assert!(alices.ends_with("You play White."), "{alices}");
    assert!(bobs.ends_with("You play Black."), "{bobs}");
    let ballot = |line: &str| {
        let at = line.find(", Ballot ").expect("a ballot in the start line");
        line[at + 2..line.find(". You play").unwrap()].to_string()
    };
    assert_eq!(ballot(&alices), ballot(&bobs));
    // The ballot's three moves are played: White is to move.
    alice.expect("Your move (White).");
    let number: String = ballot(&alices)["Ballot ".len()..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect();
    alice.say("resign");
    bob.expect("Game 1 over:");
    // A private table whose host plays Black, from the usual start.
    bob.say("invite 5+3 black");
    let line =
        bob.expect("Private table 2: 5+3 casual, you play Black. Give your friend its code: join ");
    let code = line.rsplit(' ').next().unwrap().to_string();
    alice.say(&format!("join {code}"));
    let alices = alice.expect("Game 2 starts:");
    let bobs = bob.expect("Game 2 starts:");
    assert!(bobs.ends_with("You play Black."), "{bobs}");
    assert!(alices.ends_with("You play White."), "{alices}");
    assert!(!alices.contains("Ballot"), "{alices}");
    bob.expect("Your move (Black).");
    // A side asked by a player at a table starts nothing.
    alice.say("challenge bob 5+3 white");
    alice.expect("Refused: you are playing a game: finish it first");
    for peer in [&mut alice, &mut bob] {
        peer.say("quit");
        assert_eq!(peer.finish(), 0);
    }
    stop(&mut server);
    let db = rusqlite::Connection::open(home.home().join("server.sqlite")).unwrap();
    let pdn: String = db
        .query_row("SELECT pdn FROM games WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    assert!(pdn.contains(&format!("[Ballot \"{number}\"]")), "{pdn}");
    assert!(pdn.contains("[White \"alice\"]"), "{pdn}");
    let pdn: String = db
        .query_row("SELECT pdn FROM games WHERE id = 2", [], |r| r.get(0))
        .unwrap();
    assert!(pdn.contains("[Black \"bob\"]"), "{pdn}");
    assert!(!pdn.contains("[Ballot "), "{pdn}");
}

#[test]
fn a_line_said_at_a_table_reaches_its_player_and_spectators_only() {
    use std::time::{Duration, Instant};
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let names = ["alice", "bob", "carol", "dave", "erin"];
    let sandboxes: Vec<Sandbox> = names.iter().map(|_| Sandbox::new()).collect();
    let [mut alice, mut bob, mut carol, mut dave, mut erin]: [Peer; 5] =
        std::array::from_fn(|i| player(&sandboxes[i], &address, names[i]));
    // Nobody is at a table yet: there is nobody to hear.
    alice.say("say anyone?");
    alice.expect("Refused: you are not at a table");
    meet(&mut alice, &mut bob, "seek 5+0 casual");
    carol.say("watch 1");
    carol.expect("Watching game 1:");
    dave.say("seek 5+0 casual");
    dave.expect("Seek 2 posted");
    erin.say("accept 2");
    erin.expect("Game 2 starts:");
    // The opponent and the spectator hear a player, the bell stripped; the spectator
    // is heard too.
    alice.say("say hello \x07there");
    bob.expect("alice: hello there");
    carol.expect("alice: hello there");
    alice.expect("alice: hello there");
    carol.say("say nice opening");
    alice.expect("carol: nice opening");
    bob.expect("carol: nice opening");
    // A line too long is refused, and nobody hears it.
    alice.say(&format!("say {}", "x".repeat(201)));
    alice.expect("Refused: a line said at a table is at most 200 characters");
    // The other table hears its own talk only: what alice and carol said, told before
    // erin spoke, never reached dave.
    erin.say("say good luck");
    let deadline = Instant::now() + Duration::from_secs(15);
    while !dave.seen.iter().any(|l| l.contains("erin: good luck")) {
        assert!(Instant::now() < deadline, "dave never heard erin");
        dave.lines_within(Duration::from_millis(100));
    }
    assert!(
        !dave
            .seen
            .iter()
            .any(|l| l.contains("hello") || l.contains("nice") || l.contains("xxx")),
        "{:#?}",
        dave.seen
    );
    bob.say("say ok");
    alice.expect("bob: ok");
    assert!(
        !bob.seen.iter().any(|l| l.contains("xxx")),
        "{:#?}",
        bob.seen
    );
    for peer in [&mut alice, &mut bob, &mut carol, &mut dave, &mut erin] {
        peer.say("quit");
        assert_eq!(peer.finish(), 0);
    }
    stop(&mut server);
}

#[test]
fn both_saying_rematch_start_a_new_game_with_colours_swapped() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    // Nothing to play again before a game.
    alice.say("rematch");
    alice.expect("Refused: no game to play again");
    let started = meet(&mut alice, &mut bob, "seek 3+2 casual ballot");
    let ballot = |line: &str| {
        let at = line.find("Ballot ").expect("a ballot in the start line");
        line[at..line.find(". You play").unwrap()].to_string()
    };
    let alice_was_black = started.contains("You play Black");
    alice.say("resign");
    alice.expect("Game 1 over:");
    bob.expect("Game 1 over:");
    alice.say("rematch");
    alice.expect("Rematch offered to bob.");
    bob.expect("alice offers a rematch (3+2 casual, colours swapped)");
    bob.say("rematch");
    let alices = alice.expect("Game 2 starts:");
    let bobs = bob.expect("Game 2 starts:");
    assert!(alices.contains("3+2 casual"), "{alices}");
    let (alice_now, bob_now) = if alice_was_black {
        ("You play White.", "You play Black.")
    } else {
        ("You play Black.", "You play White.")
    };
    assert!(alices.ends_with(alice_now), "{alices}");
    assert!(bobs.ends_with(bob_now), "{bobs}");
    // The same ballot, its other side.
    assert_eq!(ballot(&started), ballot(&alices));
    // An offer declined; another lapses when its player leaves.
    bob.say("resign");
    alice.expect("Game 2 over:");
    bob.expect("Game 2 over:");
    bob.say("rematch");
    alice.expect("bob offers a rematch");
    alice.say("decline");
    bob.expect("alice declines the rematch.");
    alice.say("rematch");
    bob.expect("alice offers a rematch");
    bob.say("quit");
    assert_eq!(bob.finish(), 0);
    alice.expect("bob left: the rematch offer lapses.");
    alice.say("rematch");
    alice.expect("Refused: no game to play again");
    // The plain help and `online --help` name the commands.
    alice.say("help");
    let help = alice.expect("Commands: ");
    // Quitting a game in play leaves its clock running there: the help says so before.
    assert!(
        help.contains(
            "quit (in a game in play: the game goes on at the server, its clocks running"
        ),
        "{help}"
    );
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    stop(&mut server);
    let usage = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(["online", "--help"])
        .output()
        .unwrap();
    let usage = String::from_utf8_lossy(&usage.stdout);
    let usage = usage.split_whitespace().collect::<Vec<_>>().join(" ");
    for command in [
        "[black|white|either] [ballot|free]",
        "say TEXT",
        "rematch",
        "decline",
        "quit (in a game in play: the game goes on at the server, its clocks running",
    ] {
        assert!(help.contains(command), "{command} not in {help}");
        assert!(usage.contains(command), "{command} not in {usage}");
    }
}

/// A small random generator for the kill test (splitmix64): the moments and moves of a
/// run follow from its seed, so a failure can be replayed.
struct Dice(u64);

impl Dice {
    /// The next number.
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number below `n`.
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A player speaking the protocol itself, as the kill test's players do: what it has
/// seen of each game (the moves, in order) is kept to compare with what the server
/// holds.
struct Client {
    /// The connection.
    stream: BufReader<Raw>,
    /// The moves seen of each game, by game number.
    seen: std::collections::BTreeMap<u64, Vec<String>>,
    /// The game in play and its position, as last heard.
    game: Option<(u64, String)>,
    /// The side this player has in it ("black" or "white").
    side: String,
}

/// What a [`Client`] heard that the test acts on.
#[derive(Debug, PartialEq)]
enum Heard {
    /// A game starts or goes on.
    Started,
    /// A move was played.
    Moved,
    /// A game ended.
    Ended,
    /// The answer to a ping.
    Pong,
    /// Anything else: its text, if it has some.
    Other(String),
}
impl Client {
    /// Logs in at `address` as `name` with `key`.
    fn log_in(address: &str, name: &str, key: &ed25519_dalek::SigningKey) -> Client {
        Client::log_in_on(TcpStream::connect(address).unwrap(), name, key)
    }

    /// Logs in over `tcp`, connected, as `name` with `key`.
    fn log_in_on(tcp: TcpStream, name: &str, key: &ed25519_dalek::SigningKey) -> Client {
        let (stream, challenge, fingerprint) = raw_connection_on(tcp);
        let mut message: Vec<u8> = (0..32)
            .map(|i| u8::from_str_radix(&challenge[2 * i..2 * i + 2], 16).unwrap())
            .collect();
        message.extend_from_slice(&fingerprint);
        message.extend_from_slice(name.as_bytes());
        let mut client = Client {
            stream: BufReader::new(stream),
            seen: Default::default(),
            game: None,
            side: String::new(),
        };
        let login = serde_json::json!({
            "type": "login", "version": 1, "name": name,
            "key": hex(key.verifying_key().as_bytes()),
            "signature": hex(&key.sign(&message).to_bytes()),
        });
        assert!(client.send(&login));
        let welcome = client.read().expect("no welcome");
        assert_eq!(welcome["type"], "welcome", "{welcome}");
        client
    }

    /// Sends `message`; false when the connection is gone.
    fn send(&mut self, message: &serde_json::Value) -> bool {
        let stream = self.stream.get_mut();
        stream
            .write_all(format!("{message}\n").as_bytes())
            .and_then(|()| stream.flush())
            .is_ok()
    }

    /// The next message; none when the connection is gone.
    fn read(&mut self) -> Option<serde_json::Value> {
        let mut line = String::new();
        match self.stream.read_line(&mut line) {
            Ok(n) if n > 0 => Some(serde_json::from_str(&line).unwrap()),
            _ => None,
        }
    }

    /// Reads the next message and keeps what it says of the games: a game going on
    /// must hold every move this player has seen of it.
    fn hear(&mut self) -> Option<Heard> {
        let message = self.read()?;
        let game = message["game"].as_u64().unwrap_or_default();
        let fen = message["fen"].as_str().unwrap_or_default().to_string();
        Some(match message["type"].as_str().unwrap() {
            "started" => {
                let moves: Vec<String> = message["moves"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|m| m.as_str().unwrap().to_string())
                    .collect();
                let seen = self.seen.entry(game).or_default();
                assert!(
                    moves.starts_with(seen),
                    "game {game} goes on without moves a player saw: saw {seen:?}, held {moves:?}"
                );
                *seen = moves;
                self.side = message["side"].as_str().unwrap().to_string();
                self.game = Some((game, fen));
                Heard::Started
            }
            "moved" => {
                let squares = message["squares"].as_str().unwrap().to_string();
                self.seen.entry(game).or_default().push(squares);
                self.game = Some((game, fen));
                Heard::Moved
            }
            "ended" => {
                self.game = self.game.take().filter(|(g, _)| *g != game);
                Heard::Ended
            }
            "pong" => Heard::Pong,
            _ => Heard::Other(message["text"].as_str().unwrap_or_default().to_string()),
        })
    }

    /// Reads until one of `wanted` is heard (true), or the connection is gone (false).
    fn hear_until(&mut self, wanted: &[Heard]) -> bool {
        loop {
            match self.hear() {
                None => return false,
                Some(heard) if wanted.contains(&heard) => return true,
                Some(_) => {}
            }
        }
    }

    /// The move this player plays now, chosen by `dice`: none unless it is their turn
    /// in a game going on.
    fn my_move(&self, dice: &mut Dice) -> Option<String> {
        let (_, fen) = self.game.as_ref()?;
        let position: checkers::Position = fen.parse().unwrap();
        let turn = match position.turn() {
            checkers::Color::Black => "black",
            checkers::Color::White => "white",
        };
        let moves = position.legal_moves();
        (turn == self.side && !moves.is_empty())
            .then(|| moves[dice.below(moves.len() as u64) as usize].to_string())
    }
}

/// The two players of the kill test log in, each with what they saw so far: the
/// game they had goes on when the second is in, or they start a new one. None when
/// the server went away meanwhile.
fn seat_both(
    address: &str,
    keys: &[(&str, ed25519_dalek::SigningKey); 2],
    seen: &mut [std::collections::BTreeMap<u64, Vec<String>>; 2],
) -> Option<[Client; 2]> {
    let mut clients = [0, 1].map(|i| {
        let (name, key) = &keys[i];
        let mut client = Client::log_in(address, name, key);
        client.seen = std::mem::take(&mut seen[i]);
        client
    });
    // The pong comes after whatever the second's login brought (the game going on).
    for client in &mut clients {
        (client.send(&serde_json::json!({"type": "ping"})) && client.hear_until(&[Heard::Pong]))
            .then_some(())?;
    }
    if clients[1].game.is_some() {
        (clients[0].game.is_some() || clients[0].hear_until(&[Heard::Started])).then_some(())?;
        return Some(clients);
    }
    new_game(&mut clients, keys[0].0).then_some(clients)
}

/// The second player challenges the first (`first`), who accepts: true once both
/// heard the game start.
fn new_game(clients: &mut [Client; 2], first: &str) -> bool {
    let challenge = serde_json::json!({
        "type": "challenge", "name": first, "clock": "60+0", "rated": false
    });
    if !clients[1].send(&challenge) {
        return false;
    }
    let number = loop {
        match clients[0].hear() {
            None => return false,
            Some(Heard::Other(text)) if text.contains("challenges you") => {
                let number = text.split("accept ").nth(1).unwrap();
                break number.split(' ').next().unwrap().parse::<u64>().unwrap();
            }
            Some(_) => {}
        }
    };
    clients[0].send(&serde_json::json!({"type": "accept", "number": number}))
        && clients.iter_mut().all(|c| c.hear_until(&[Heard::Started]))
}

/// One pair of the kill test, seated (`first` the name of the one challenged): the side
/// to move plays a random legal move and both hear it, a game over followed by a new
/// one, until the server is killed. Gives what each player saw, the last words before
/// the kill included, and how many moves were played.
fn play_until_killed(
    mut clients: [Client; 2],
    first: &str,
    dice: &mut Dice,
) -> ([std::collections::BTreeMap<u64, Vec<String>>; 2], usize) {
    let mut moves_played = 0;
    loop {
        let mover = (0..2).find_map(|i| Some((i, clients[i].my_move(dice)?)));
        let going_on = match mover {
            Some((i, ref text)) => {
                clients[i].send(&serde_json::json!({"type": "play", "text": text}))
                    && clients
                        .iter_mut()
                        .all(|c| c.hear_until(&[Heard::Moved, Heard::Ended]))
            }
            None => {
                clients
                    .iter_mut()
                    .all(|c| c.game.is_none() || c.hear_until(&[Heard::Ended]))
                    && new_game(&mut clients, first)
            }
        };
        if !going_on {
            break;
        }
        moves_played += usize::from(mover.is_some());
    }
    // Whatever reached a player before the kill counts as seen.
    let seen = clients.map(|mut client| {
        while client.hear().is_some() {}
        client.seen
    });
    (seen, moves_played)
}

#[test]
fn the_server_killed_at_random_moments_of_play_loses_no_move_a_player_saw() {
    use std::time::{Duration, SystemTime};
    let seed = std::env::var("CHECKERS_KILL_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            SystemTime::now()
                .duration_since(SystemTime::UNIX_EPOCH)
                .unwrap()
                .as_nanos() as u64
        });
    println!("kill test seed {seed} (CHECKERS_KILL_SEED={seed} replays it)");
    let mut dice = Dice(seed);
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    // Two pairs play at once, so that their writes wait together and are committed
    // in one transaction (the server's group commit): a kill lands inside such
    // batches too.
    let pairs = [["alice", "bob"], ["carol", "dave"]].map(|names| {
        names.map(|name| {
            let mut key = [0u8; 32];
            key[..name.len()].copy_from_slice(name.as_bytes());
            (name, ed25519_dalek::SigningKey::from_bytes(&key))
        })
    });
    let mut seen: [[std::collections::BTreeMap<u64, Vec<String>>; 2]; 2] = Default::default();
    let (mut kills, mut moves_played) = (0, 0);
    while kills < 20 {
        let pid = server.child.process_id().unwrap();
        let seated: Vec<[Client; 2]> = pairs
            .iter()
            .zip(&mut seen)
            .map(|(keys, seen)| {
                seat_both(&address, keys, seen).expect("the server went away before the kill")
            })
            .collect();
        // Each pair plays on a thread of its own, with dice of its own.
        let tables: Vec<_> = seated
            .into_iter()
            .zip(pairs.iter().map(|keys| keys[0].0))
            .map(|(clients, first)| {
                let mut dice = Dice(dice.next());
                std::thread::spawn(move || play_until_killed(clients, first, &mut dice))
            })
            .collect();
        // The moment of the kill: up to 150 ms into play.
        let moment = Duration::from_micros(dice.below(150_000));
        std::thread::sleep(moment);
        let killed = std::process::Command::new("kill")
            .args(["-9", &pid.to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let _ = server.child.wait();
        kills += 1;
        for (table, seen) in tables.into_iter().zip(&mut seen) {
            let (held, played) = table.join().unwrap();
            *seen = held;
            moves_played += played;
        }
        let (again, at) = self::server(&home, &address);
        assert_eq!(at, address);
        server = again;
    }
    stop(&mut server);
    assert!(moves_played > 20, "only {moves_played} moves were played");
    // The database holds every move either player saw, in order.
    let db = rusqlite::Connection::open(home.home().join("server.sqlite")).unwrap();
    for (game, moves) in seen.iter().flatten().flatten() {
        let held: Vec<String> = db
            .prepare("SELECT squares FROM moves WHERE game = ?1 ORDER BY ply")
            .unwrap()
            .query_map([*game as i64], |r| r.get(0))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        assert!(
            held.starts_with(moves),
            "seed {seed}: game {game} lost a move a player saw: saw {moves:?}, held {held:?}"
        );
    }
}

/// `der` as PEM of `label` ("CERTIFICATE", "PRIVATE KEY").
fn pem(label: &str, der: &[u8]) -> String {
    const DIGITS: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = String::new();
    for chunk in der.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, b)| n | u32::from(*b) << (16 - 8 * i));
        for i in 0..4 {
            text.push(if i <= chunk.len() {
                DIGITS[(n >> (18 - 6 * i) & 63) as usize] as char
            } else {
                '='
            });
        }
    }
    let lines: Vec<&str> = text
        .as_bytes()
        .chunks(64)
        .map(|l| std::str::from_utf8(l).unwrap())
        .collect();
    format!(
        "-----BEGIN {label}-----\n{}\n-----END {label}-----\n",
        lines.join("\n")
    )
}

#[test]
fn a_certificate_from_an_authority_is_served_and_a_bad_pair_is_refused_by_name() {
    use rcgen::{BasicConstraints, CertificateParams, IsCa, Issuer, KeyPair};
    let home = Sandbox::new();
    // An authority, and a certificate it issued for localhost.
    let authority_key = KeyPair::generate().unwrap();
    let mut authority = CertificateParams::new(Vec::<String>::new()).unwrap();
    authority.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
    let authority_cert = authority.self_signed(&authority_key).unwrap();
    let issuer = Issuer::new(authority, authority_key);
    let server_key = KeyPair::generate().unwrap();
    let server_cert = CertificateParams::new(vec!["localhost".to_string()])
        .unwrap()
        .signed_by(&server_key, &issuer)
        .unwrap();
    let dir = home.home();
    let write = |name: &str, text: String| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_str().unwrap().to_string()
    };
    let chain = write(
        "chain.pem",
        pem("CERTIFICATE", server_cert.der()) + &pem("CERTIFICATE", authority_cert.der()),
    );
    let key = write("key.pem", pem("PRIVATE KEY", &server_key.serialize_der()));
    let other_key = write(
        "other.pem",
        pem("PRIVATE KEY", &KeyPair::generate().unwrap().serialize_der()),
    );
    let db = dir.join("server.sqlite");
    let db = db.to_str().unwrap();
    let refused = |cert: &str, key: &str, words: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
            .args(["server", "--listen", "127.0.0.1:0", "--db", db, "--create"])
            .args(["--cert", cert, "--key", key])
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stderr).to_string();
        assert!(!out.status.success(), "{said}");
        assert!(said.contains(words), "{words:?} not in {said}");
    };
    refused(&chain, &other_key, "the key is not the certificate's");
    refused(
        &format!("{chain}.missing"),
        &key,
        "chain.pem.missing: cannot read",
    );
    refused(&key, &key, "key.pem: no certificate in it");
    refused(&chain, &chain, "chain.pem: no private key in it");
    // Nothing was made meanwhile: no self-signed certificate, no database.
    assert!(!dir.join("server.cert.der").exists() && !dir.join("server.sqlite").exists());
    let mut server = Peer::start(
        &home,
        &[
            "server",
            "--listen",
            "127.0.0.1:0",
            "--db",
            db,
            "--create",
            "--cert",
            &chain,
            "--key",
            &key,
        ],
    );
    let line = server.expect("checkers server listening at ");
    let address = line.rsplit(' ').next().unwrap().to_string();
    let printed = server.expect("Certificate fingerprint SHA256:");
    // A client that trusts the authority (and no more) accepts the server as localhost.
    let mut roots = rustls::RootCertStore::empty();
    roots.add(authority_cert.der().clone()).unwrap();
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = rustls::pki_types::ServerName::try_from("localhost").unwrap();
    let conn = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
    let mut stream = rustls::StreamOwned::new(conn, TcpStream::connect(&address).unwrap());
    let mut first = String::new();
    BufReader::new(&mut stream).read_line(&mut first).unwrap();
    assert!(first.contains(r#""type":"challenge""#), "{first}");
    let served = stream.conn.peer_certificates().unwrap();
    assert_eq!(served.len(), 2, "the chain is served whole");
    use sha2::Digest;
    let fingerprint: [u8; 32] = sha2::Sha256::digest(server_cert.der()).into();
    let fingerprint: Vec<String> = fingerprint.iter().map(|b| format!("{b:02X}")).collect();
    assert!(printed.contains(&fingerprint.join(":")), "{printed}");
    // A player logs in as usual.
    let a = Sandbox::new();
    let mut alice = player(&a, &address, "alice");
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    stop(&mut server);
}

#[test]
fn an_adjourned_game_nobody_resumes_in_time_ends_abandoned_in_both_records() {
    let home = Sandbox::new();
    let db = home.home().join("server.sqlite");
    // Two seconds to come back (the default is 14 days).
    let mut server = Peer::start(
        &home,
        &[
            "server",
            "--listen",
            "127.0.0.1:0",
            "--db",
            db.to_str().unwrap(),
            "--create",
            "--adjourned-days",
            "0.000025",
        ],
    );
    let line = server.expect("checkers server listening at ");
    let address = line.rsplit(' ').next().unwrap().to_string();
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    meet(&mut alice, &mut bob, "seek 5+0 rated black");
    // Both leave it: alice for the lobby, bob altogether, each told whose clock runs:
    // alice's, Black's, whose move it is (it said "your clock running" to bob too).
    alice.say("adjourn");
    alice.expect("Game 1 goes on, your clock running");
    bob.say("quit");
    bob.expect("Goodbye. At the server game 1 goes on, your opponent's clock running, then yours");
    assert_eq!(bob.finish(), 0);
    alice.expect("bob left: game 1 is adjourned");
    alice.expect(") is abandoned: it was adjourned longer than the server keeps a game waiting.");
    // Over: alice may seek again, and both records show it, unrated.
    alice.say("seek 5+0 casual");
    alice.expect("Seek 2 posted");
    alice.say("player bob");
    let record = alice.expect("bob: rating 1500 ");
    assert!(
        record.contains("0 won, 0 lost, 0 drawn, 1 abandoned"),
        "{record}"
    );
    alice.say("player alice");
    let record = alice.expect("alice: rating 1500 ");
    assert!(record.contains("1 abandoned; online"), "{record}");
    stop(&mut server);
    let db = rusqlite::Connection::open(&db).unwrap();
    let result: String = db
        .query_row("SELECT result FROM games WHERE id = 1", [], |r| r.get(0))
        .unwrap();
    assert_eq!(result, "abandoned");
}

#[cfg(feature = "lab")]
#[test]
fn the_load_client_logs_a_small_crowd_in_and_measures_the_moves_it_relays() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let pid = server.child.process_id().unwrap().to_string();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_checkers-lab"))
        .args([
            "load",
            "--server",
            &address,
            "--players",
            "6",
            "--games",
            "2",
        ])
        .args(["--seconds", "2", "--think-ms", "20", "--server-pid", &pid])
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{report}");
    assert!(report.contains("6 of 6 players logged in"), "{report}");
    // The number before `words` in the report.
    let count = |words: &str| -> usize {
        report
            .split(words)
            .next()
            .and_then(|l| l.rsplit([' ', '\n']).next())
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no count of {words:?} in {report}"))
    };
    // Both pairs play at once (a pair whose game ends starts another).
    assert!(count(" games started") >= 2, "{report}");
    assert!(count(" moves relayed") > 0, "{report}");
    assert!(
        report.contains("move sent to opponent told: p50 "),
        "{report}"
    );
    assert!(report.contains("KiB per connection"), "{report}");
    stop(&mut server);
}

#[test]
fn a_slow_handshake_a_move_at_another_table_and_a_client_killed_mid_move_are_held() {
    use std::io::Read;
    use std::time::{Duration, Instant};
    let home = Sandbox::new();
    let (mut server, address) = server_with(&home, "127.0.0.1:0", &["--login-timeout", "2"]);
    // Slowloris: a TLS hello dribbled a byte at a time is cut off when the time to
    // log in is up, however busy it keeps the line.
    let mut slow = TcpStream::connect(&address).unwrap();
    slow.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();
    let hello = [
        0x16u8, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xfc, 0x03, 0x03,
    ];
    let started = Instant::now();
    let closed = hello.iter().cycle().take(200).any(|byte| {
        let mut buffer = [0u8; 64];
        if slow.write_all(&[*byte]).is_err() {
            return true;
        }
        matches!(slow.read(&mut buffer), Ok(0) | Err(_))
            && started.elapsed() > Duration::from_secs(1)
            && slow.write_all(&[0]).and_then(|()| slow.flush()).is_err()
    });
    let held = started.elapsed();
    assert!(closed, "a slow handshake was held for {held:?}");
    assert!(
        held < Duration::from_secs(10),
        "a slow handshake was held for {held:?}"
    );
    // The rest at a server with the usual time to log in: two seconds could run out
    // for a client on a loaded machine.
    stop(&mut server);
    let home = Sandbox::new();
    let (mut server, address) = server_with(&home, "127.0.0.1:0", &[]);
    // Two games: alice and bob at 1, carol and dave at 2.
    let keys = ["alice", "bob", "carol", "dave"].map(|n| {
        (
            n,
            ed25519_dalek::SigningKey::from_bytes(&[n.len() as u8 + n.as_bytes()[0]; 32]),
        )
    });
    let mut first = [0, 1].map(|i| Client::log_in(&address, keys[i].0, &keys[i].1));
    assert!(new_game(&mut first, "alice"));
    let mut second = [2, 3].map(|i| Client::log_in(&address, keys[i].0, &keys[i].1));
    assert!(new_game(&mut second, "carol"));
    // A player of game 2 names game 1 in a move: the move is taken as one at their own
    // table, where it is refused or played, and game 1 is untouched.
    let dice = &mut Dice(7);
    let (at_two, _) = if second[0].my_move(dice).is_some() {
        (&mut second[1], 0)
    } else {
        (&mut second[0], 1)
    };
    assert!(at_two.send(&serde_json::json!({"type": "play", "game": 1, "text": "11-15"})));
    let refused = at_two.read().unwrap();
    assert_eq!(refused["type"], "rejected", "{refused}");
    assert!(
        refused["reason"]
            .as_str()
            .unwrap()
            .contains("'s turn: you play"),
        "{refused}"
    );
    for client in &mut first {
        assert!(client.send(&serde_json::json!({"type": "ping"})));
        let next = client.read().unwrap();
        assert_eq!(next["type"], "pong", "game 1 heard of something: {next}");
    }
    // A client killed the moment it sent its move: the move is played or not, never
    // half; its opponent is told the player left (the game goes on, the clocks
    // running), and the player, back, finds it with the move if the opponent heard it.
    let mover = usize::from(first[0].my_move(dice).is_none());
    let text = first[mover].my_move(dice).unwrap();
    assert!(first[mover].send(&serde_json::json!({"type": "play", "text": text})));
    let [a, b] = first;
    let (killed, mut opponent) = if mover == 0 { (a, b) } else { (b, a) };
    let stream = killed.stream.into_inner();
    let _ = stream.sock.shutdown(std::net::Shutdown::Both);
    drop(stream);
    let mut heard = Vec::new();
    loop {
        match opponent.hear().expect("the opponent was let go") {
            Heard::Other(text) if text.contains(" left: game 1 goes on") => break,
            other => heard.push(other),
        }
    }
    let mut back = Client::log_in(&address, keys[mover].0, &keys[mover].1);
    assert!(back.hear_until(&[Heard::Started]));
    loop {
        match opponent.hear().expect("the opponent was let go") {
            Heard::Other(text) if text.contains("is back at game 1") => break,
            Heard::Moved | Heard::Started | Heard::Ended => panic!("game 1 changed meanwhile"),
            _ => {}
        }
    }
    let pair = if mover == 0 {
        [back, opponent]
    } else {
        [opponent, back]
    };
    let moves = |c: &Client| c.seen.get(&1).cloned().unwrap_or_default();
    let opponent_saw = moves(&pair[1 - mover]);
    assert_eq!(
        opponent_saw.last() == Some(&text),
        heard.contains(&Heard::Moved),
        "{opponent_saw:?}"
    );
    assert_eq!(moves(&pair[mover]), opponent_saw);
    stop(&mut server);
}

#[test]
fn a_full_screen_client_takes_a_plain_players_seek_and_plays_on_the_board() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut bob = player(&b, &address, "bob");
    bob.say("seek 5+3 casual black");
    bob.expect("Seek 1 posted");
    // Without --plain, on a terminal: the lobby, its lists from the server.
    let mut alice = screen_player(&a, &address, "alice");
    alice.wait_for("the lobby with bob's seek", |s| {
        let text = s.contents();
        text.contains("Open seeks (1)") && text.contains("bob (1500)  5+3 casual, bob plays Black")
    });
    alice.wait_for("the players online", |s| {
        s.contents().contains("Players online (2)")
    });
    // Enter takes the seek under the cursor: the board takes the screen.
    alice.send(b"\r");
    bob.expect("Game 1 starts:");
    alice.wait_for("the board, White's side", |s| {
        s.contents().contains("You (alice) play White")
    });
    bob.say("11-15");
    alice.wait_for("bob's move on the board", |s| {
        let text = s.contents();
        text.contains("Black played 11-15") && text.contains("White to move")
    });
    // A move typed on the board goes to the server, and the plain player sees it.
    alice.send(b"22-18\r");
    bob.expect("White played 22-18.");
    alice.wait_for("the move on alice's board", |s| {
        s.contents().contains("Black to move")
    });
    // A take-back is not the server's: said so.
    alice.send(b"u");
    alice.wait_for("the refusal", |s| s.contents().contains("no take-backs"));
    // Leaving the board in a game in play goes to the lobby: the game goes on at the
    // server, its clocks running (bob's, whose move it is, then alice's: it said
    // "your clock running" to alice on bob's move), her game there to go back to.
    alice.send(b"q");
    alice.wait_for("the leave question", |s| {
        s.contents()
            .contains("Leave the game? a goes to the lobby, the clocks running")
    });
    alice.send(b"a");
    bob.expect("alice went to the lobby: game 1 goes on, the clocks running");
    alice.wait_for("the lobby, the game going on", |s| {
        let text = s.contents();
        text.contains("Game 1 goes on, your opponent's clock running, then yours")
            && text.contains("1  bob - alice  5+3 casual, 2 moves, yours")
    });
    // Leaving did not stop the game: bob plays on.
    bob.say("15x22");
    bob.expect("Black played 15x22.");
    // Enter on it in the games' list: alice is back on the board, with bob's move.
    alice.send(b"\t\r");
    bob.expect("alice is back at game 1.");
    alice.wait_for("the board again", |s| {
        let text = s.contents();
        text.contains("You (alice) play White")
            && text.contains("2. 15x22")
            && text.contains("White to move")
    });
    alice.send(b"25x18\r");
    bob.expect("White played 25x18.");
    // bob gone, the game goes on at the server, his clock running (the line to the
    // server is up).
    bob.say("quit");
    assert_eq!(bob.finish(), 0);
    alice.wait_for("the opponent away", |s| {
        panel_text(&s.contents()).contains("Your opponent is away: the game goes on")
    });
    alice.send(b"q");
    alice.wait_for("the leave question", |s| {
        s.contents().contains("Leave the game?")
    });
    alice.send(b"a");
    alice.wait_for("the lobby", |s| s.contents().contains("Games in play (1)"));
    alice.send(b"q");
    assert!(alice.exit_status().success());
    assert!(alice.modes_restored(), "{}", alice.modes());
    stop(&mut server);
}

/// At a server the game goes on while one player is at it: a full-screen player whose
/// opponent left for the lobby on the player's turn is told the clocks run (not that
/// the game waits), and the move typed reaches the server.
#[test]
fn a_full_screen_player_whose_opponent_left_for_the_lobby_moves_the_clocks_running() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut bob = player(&b, &address, "bob");
    bob.say("seek 5+3 casual black");
    bob.expect("Seek 1 posted");
    let mut alice = screen_player(&a, &address, "alice");
    alice.wait_for("the lobby with bob's seek", |s| {
        s.contents().contains("Open seeks (1)")
    });
    alice.send(b"\r");
    bob.expect("Game 1 starts:");
    bob.say("11-15");
    alice.wait_for("bob's move, alice to move", |s| {
        let text = s.contents();
        text.contains("Black played 11-15") && text.contains("White to move")
    });
    bob.say("adjourn");
    bob.expect("Game 1 goes on, your opponent's clock running, then yours");
    alice.wait_for("the opponent away, the game going on", |s| {
        panel_text(&s.contents())
            .contains("Your opponent is away: the game goes on, the clocks running")
    });
    alice.send(b"22-18\r");
    alice.wait_for("the move played", |s| {
        let text = s.contents();
        text.contains("1. 11-15    22-18") && text.contains("Black to move")
    });
    bob.say("resume");
    bob.expect("Moves so far: 11-15 22-18.");
    stop(&mut server);
}

/// Once the line to the server is gone, `q` on the board offers only leaving, and says
/// what the server does with the game meanwhile (not the lobby nor a resignation, which
/// cannot reach it).
#[test]
fn with_the_line_to_the_server_gone_leaving_the_board_says_what_becomes_of_the_game() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut bob = player(&b, &address, "bob");
    bob.say("seek 5+3 casual black");
    bob.expect("Seek 1 posted");
    let mut alice = screen_player(&a, &address, "alice");
    alice.wait_for("the lobby with bob's seek", |s| {
        s.contents().contains("Open seeks (1)")
    });
    alice.send(b"\r");
    bob.expect("Game 1 starts:");
    alice.wait_for("the board", |s| s.contents().contains("You play White"));
    server.kill();
    // Said in the player's words, whole on an 80-column board, with what to do: not
    // TLS's note on a missing close_notify. A server killed did not stop in order
    // (which it says): its line was cut.
    alice.wait_for("the line gone", |s| {
        let text = s.contents();
        text.contains("The line to the server is gone")
            && text.contains("was cut (the network")
            && text.contains("log in again with checkers")
            && text.contains("online to go back to the game")
    });
    assert!(
        !alice.contents().contains("close_notify"),
        "{}",
        alice.contents()
    );
    // The plain client says so too, and that checkers online takes it back to the game.
    let said =
        bob.expect("was cut (the network failed, or the server ended without stopping in order)");
    assert!(said.contains("checkers online takes you back"), "{said}");
    assert!(!said.contains("close_notify"), "{said}");
    alice.send(b"q");
    alice.wait_for("the leave question, the line gone", |s| {
        let text = s.contents();
        text.contains("Leave the board? q quits checkers online  n stays")
            && text.contains("the game goes on there, its clocks running")
            && text.contains("adjourned once neither is (or the server")
    });
    assert!(
        !alice.contents().contains("r resigns"),
        "{}",
        alice.contents()
    );
    alice.send(b"n");
    alice.wait_for("the board, still", |s| {
        !s.contents().contains("Leave the board?")
    });
    alice.send(b"q");
    alice.wait_for("the question again", |s| {
        s.contents().contains("Leave the board?")
    });
    alice.send(b"q");
    alice.exit_status();
    assert!(alice.modes_restored(), "{}", alice.modes());
    let _ = bob.finish();
}

#[test]
fn a_server_game_on_the_board_offers_only_what_the_server_does_and_says_why_not_the_rest() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut bob = player(&b, &address, "bob");
    bob.say("seek 5+3 casual black");
    bob.expect("Seek 1 posted");
    let mut alice = screen_player(&a, &address, "alice");
    alice.wait_for("the lobby with bob's seek", |s| {
        s.contents().contains("Open seeks (1)")
    });
    alice.send(b"\r");
    bob.expect("Game 1 starts:");
    alice.wait_for("the board, its footer", |s| {
        let text = s.contents();
        text.contains("You play White") && text.contains("' say")
    });
    // A server takes no move back: the footer does not offer it.
    assert!(!alice.contents().contains("u undo"), "{}", alice.contents());
    // The status line sends to the table's keys, not to "every key".
    assert!(
        alice.contents().contains("? shows the table's"),
        "{}",
        alice.contents()
    );
    alice.send(b"i");
    alice.wait_for("an unbound key named", |s| {
        s.contents()
            .contains("The key i does nothing here; ? shows the table's keys")
    });
    assert!(
        !alice.contents().contains("every key"),
        "{}",
        alice.contents()
    );
    // The help lists only the keys the table takes, whole on 80x24 (no scrolling).
    alice.send(b"?");
    alice.wait_for("the table's help", |s| {
        let text = s.contents();
        text.contains("q leave the board (asks)") && text.contains("kings  ! must jump")
    });
    let help = alice.contents();
    assert!(help.contains("The table's keys"), "{help}");
    for gone in [
        "undo",
        "computer level",
        "set up a position",
        "pause",
        "hint",
        "claim a draw",
    ] {
        assert!(!help.contains(gone), "{gone} in the help: {help}");
    }
    assert!(
        help.contains("offer a draw") && help.contains("Rules:"),
        "{help}"
    );
    assert!(!help.contains("PgDn PgUp"), "the help scrolls: {help}");
    alice.send(b"x");
    alice.wait_for("the help closed", |s| !s.contents().contains("Rules:"));
    // Keys for a game at one terminal say at once why not, opening nothing.
    alice.send(b"b");
    alice.wait_for("the computer refused", |s| {
        s.contents().contains("each side is played at its own")
    });
    assert!(!alice.contents().contains("Hand Black to the computer"));
    alice.send(b"E");
    alice.wait_for("the editor refused", |s| {
        s.contents().contains("cannot be set up here")
    });
    alice.send(b"p");
    alice.wait_for("the pause refused", |s| {
        s.contents().contains("cannot be paused")
    });
    // Once over, n is the rematch, and the footer calls it so.
    bob.say("resign");
    bob.expect("Game 1 over");
    alice.wait_for("the rematch key", |s| {
        let text = s.contents();
        text.contains("n rematch") && !text.contains("new game")
    });
    alice.send(b"n");
    bob.expect("alice offers a rematch");
    alice.send(b"q");
    alice.wait_for("the lobby", |s| s.contents().contains("Players online"));
    alice.send(b"q");
    assert!(alice.exit_status().success());
    bob.say("quit");
    assert_eq!(bob.finish(), 0);
    stop(&mut server);
}

#[test]
fn a_full_screen_first_contact_asks_before_pinning_the_fingerprint_the_server_printed() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (_, _, fingerprint) = raw_connection(&address);
    let bytes: Vec<String> = fingerprint.iter().map(|b| format!("{b:02X}")).collect();
    let a = Sandbox::new();
    let known = a.data_dir().join("known_servers");
    let mut alice = Session::start_in(&a, &["online", &address, "--name", "alice"], &[]);
    alice.wait_for("the question, on the terminal itself", |s| {
        s.contents().contains("Trust it, pin it and connect? [y/N]")
    });
    // Shown whole on 80 columns, in two halves, before anything takes the screen.
    let shown = alice.contents();
    assert!(
        shown.contains(&format!("SHA256:{}:", bytes[..16].join(":")))
            && shown.contains(&bytes[16..].join(":")),
        "{shown}"
    );
    assert!(!alice.raw_mode());
    // The look at the certificate is logged as what it is, not as a refused login.
    let logged = server.expect("left before logging in");
    assert!(
        logged.contains("a first contact's look at the certificate"),
        "{logged}"
    );
    assert!(!logged.contains("login refused"), "{logged}");
    // Not trusted: nothing pinned, no login, the terminal as it was.
    alice.send(b"n\r");
    alice.wait_for("the refusal", |s| s.contents().contains("was not trusted"));
    assert!(!alice.exit_status().success());
    assert!(alice.modes_restored(), "{}", alice.modes());
    assert!(!known.exists());
    // Trusted: pinned, and the lobby; the next time nothing is asked.
    let mut alice = screen_player(&a, &address, "alice");
    alice.wait_for("the lobby", |s| s.contents().contains("Players online (1)"));
    alice.send(b"q");
    assert!(alice.exit_status().success());
    let pinned = std::fs::read_to_string(&known).unwrap();
    assert!(pinned.contains(&address), "{pinned}");
    let mut again = Session::start_in(&a, &["online", &address, "--name", "alice"], &[]);
    again.wait_for("the lobby at once", |s| {
        s.contents().contains("Players online (1)")
    });
    assert!(!again.contents().contains("Trust it"));
    again.send(b"q");
    assert!(again.exit_status().success());
    stop(&mut server);
}

#[test]
fn a_plain_first_contact_asks_before_pinning_and_no_or_the_end_of_input_pins_nothing() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (_, _, fingerprint) = raw_connection(&address);
    let bytes: Vec<String> = fingerprint.iter().map(|b| format!("{b:02X}")).collect();
    let a = Sandbox::new();
    let known = a.data_dir().join("known_servers");
    let args = ["online", address.as_str(), "--name", "alice", "--plain"];
    // No, then Ctrl-D (the end of the input): nothing pinned, no login.
    for answer in ["n", "\u{4}"] {
        let mut alice = Peer::start(&a, &args);
        let shown = alice
            .lines_until("Compare it with the one the server printed")
            .join("\n");
        assert!(
            shown.contains(&format!("SHA256:{}:", bytes[..16].join(":")))
                && shown.contains(&bytes[16..].join(":")),
            "{shown}"
        );
        alice.say(answer);
        alice.expect("was not trusted (nothing pinned, nothing sent)");
        assert_ne!(alice.finish(), 0);
        assert!(!known.exists(), "pinned after {answer:?}");
    }
    // Yes: pinned, logged in; the next time nothing is asked.
    let mut alice = Peer::start(&a, &args);
    alice.expect("Compare it with the one the server printed");
    alice.say("y");
    alice.expect("Pinned in");
    alice.expect(&format!("Logged in to {address} as alice"));
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    let mut again = Peer::start(&a, &args);
    let before = again.lines_until(&format!("Logged in to {address} as alice"));
    assert!(
        !before.iter().any(|l| l.contains("First contact")),
        "{before:#?}"
    );
    again.say("quit");
    assert_eq!(again.finish(), 0);
    stop(&mut server);
}

/// [`server`], and the fingerprint it prints at its start (`SHA256:AD:C9:...`).
fn server_printing_its_fingerprint(sandbox: &Sandbox, listen: &str) -> (Peer, String, String) {
    let db = sandbox.home().join("server.sqlite");
    let mut args = vec!["server", "--listen", listen, "--db", db.to_str().unwrap()];
    if !db.exists() {
        args.push("--create");
    }
    let mut server = Peer::start(sandbox, &args);
    let line = server.expect("checkers server listening at ");
    let address = line.rsplit(' ').next().unwrap().to_string();
    let printed = server.expect("Certificate fingerprint SHA256:");
    let fingerprint = printed
        .split_whitespace()
        .find(|word| word.starts_with("SHA256:"))
        .unwrap()
        .to_string();
    (server, address, fingerprint)
}

#[test]
fn a_fingerprint_given_pins_the_server_that_has_it_and_refuses_one_that_does_not() {
    let home = Sandbox::new();
    let (mut server1, address, printed) = server_printing_its_fingerprint(&home, "127.0.0.1:0");
    let a = Sandbox::new();
    let known = a.data_dir().join("known_servers");
    let online = |fingerprint: &str| {
        let args = [
            "online",
            &address,
            "--name",
            "alice",
            "--plain",
            "--fingerprint",
            fingerprint,
        ];
        Peer::start(&a, &args)
    };
    // Another fingerprint: refused, both named, nothing pinned, nothing asked.
    let wrong = format!("SHA256:{}", ["00"; 32].join(":"));
    let mut alice = online(&wrong);
    let said = alice.lines_until("Nothing pinned, nothing sent").join("\n");
    assert!(
        said.contains(&format!(
            "the certificate of {address} is not the one given"
        )),
        "{said}"
    );
    assert!(
        said.contains(&format!("given (--fingerprint): {wrong}")),
        "{said}"
    );
    assert!(
        said.contains(&format!("presented now:         {printed}")),
        "{said}"
    );
    assert!(!said.contains("Trust it"), "{said}");
    assert_ne!(alice.finish(), 0);
    assert!(!known.exists(), "a wrong fingerprint pinned");
    // The one the server printed, without its SHA256: and colons, in lower case:
    // pinned without a question, and logged in.
    let bare = printed["SHA256:".len()..].replace(':', "").to_lowercase();
    let mut alice = online(&bare);
    let before = alice.lines_until(&format!("Logged in to {address} as alice"));
    assert!(
        before
            .iter()
            .any(|l| l.contains(&format!("is the one given: {printed}. Pinned in"))),
        "{before:#?}"
    );
    assert!(
        !before.iter().any(|l| l.contains("Trust it")),
        "{before:#?}"
    );
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    assert!(std::fs::read_to_string(&known).unwrap().contains(&address));
    // The operator makes a new certificate: refused, and told what to do.
    stop(&mut server1);
    std::fs::remove_file(home.home().join("server.cert.der")).unwrap();
    std::fs::remove_file(home.home().join("server.key.der")).unwrap();
    let (mut server2, again, new) = server_printing_its_fingerprint(&home, &address);
    assert_eq!(again, address);
    let mut alice = Peer::start(&a, &["online", &address, "--name", "alice", "--plain"]);
    alice.expect(&format!(
        "WARNING: the certificate of {address} has changed!"
    ));
    alice.expect(&format!("presented now:           {new}"));
    let advice = alice.expect("connect again to be asked");
    assert!(
        advice.contains(
            "connect again with --fingerprint and the one the operator gives you (pinned in \
             place of the old one)"
        ),
        "{advice}"
    );
    assert_ne!(alice.finish(), 0);
    // The new one given, as the server printed it: pinned in place of the old one.
    let mut alice = online(&new);
    let before = alice.lines_until(&format!("Logged in to {address} as alice"));
    assert!(
        before
            .iter()
            .any(|l| l.contains(&format!("(in place of {printed})"))),
        "{before:#?}"
    );
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    let pins = std::fs::read_to_string(&known).unwrap();
    assert_eq!(
        pins.lines().filter(|l| l.starts_with(&address)).count(),
        1,
        "{pins}"
    );
    // A fingerprint that is not one is refused before anything connects.
    let mut typo = online("SHA256:AD:C9");
    typo.expect("a fingerprint is 32 hex pairs, as `checkers server` prints it");
    assert_ne!(typo.finish(), 0);
    stop(&mut server2);
}

#[test]
fn a_known_servers_file_that_does_not_read_is_named_with_its_line_and_kept() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let a = Sandbox::new();
    std::fs::create_dir_all(a.data_dir()).unwrap();
    let known = a.data_dir().join("known_servers");
    // A line cut short in an editor: the file is not pinned over, nothing asked.
    let text = format!("example.org:4620 {}\n{address} 8f3a\n", "ab".repeat(32));
    std::fs::write(&known, &text).unwrap();
    let mut alice = Peer::start(&a, &["online", &address, "--name", "alice", "--plain"]);
    let said = alice.expect("correct or remove that line");
    assert!(said.contains("known_servers, line 2:"), "{said}");
    assert!(
        said.contains("nothing was pinned or changed in the file"),
        "{said}"
    );
    assert_ne!(alice.finish(), 0);
    assert_eq!(
        std::fs::read_to_string(&known).unwrap(),
        text,
        "nothing lost"
    );
    stop(&mut server);
}

#[test]
fn a_client_over_its_addresss_share_is_told_why() {
    let home = Sandbox::new();
    let (mut server, address) = server_with(
        &home,
        "127.0.0.1:0",
        &["--max-connections-per-address", "1"],
    );
    // One silent connection holds this address's only place.
    let silent = std::net::TcpStream::connect(&address).unwrap();
    let a = Sandbox::new();
    let mut alice = online(&a, &[&address, "--name", "alice", "--plain"]);
    alice.expect("too many connections from your address (1 at once)");
    assert_ne!(alice.finish(), 0);
    drop(silent);
    stop(&mut server);
}

#[test]
fn online_without_a_server_goes_back_to_the_one_last_logged_in_to() {
    let home = Sandbox::new();
    let a = Sandbox::new();
    // Never logged in: told what to type.
    let mut lost = Peer::start(&a, &["online", "--name", "alice", "--plain"]);
    lost.expect("no server named and none logged in to before: checkers online HOST[:PORT]");
    assert_ne!(lost.finish(), 0);
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let mut alice = player(&a, &address, "alice");
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    let mut again = Peer::start(&a, &["online", "--name", "alice", "--plain"]);
    again.expect(&format!("Logged in to {address} as alice"));
    again.say("quit");
    assert_eq!(again.finish(), 0);
    // Without --name too: as alice again, not as a new player named after the user.
    let mut again = Peer::start(&a, &["online", "--plain"]);
    again.expect(&format!("Logged in to {address} as alice"));
    again.say("quit");
    assert_eq!(again.finish(), 0);
    stop(&mut server);
}

#[test]
fn the_home_screen_opens_a_servers_lobby_and_leaving_it_comes_back_home() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut bob = player(&b, &address, "bob");
    bob.say("seek 10+5 casual white");
    bob.expect("Seek 1 posted");
    let mut alice = Session::start_in(&a, &[], &[]);
    alice.wait_for("the home screen", |s| {
        s.contents().contains("Play across the network")
    });
    // n: the network page; the fourth form is the server's.
    alice.send(b"n");
    alice.wait_for("the network page", |s| {
        s.contents().contains("Play at a checkers server")
    });
    alice.send(b"\x1b[B\x1b[B\x1b[B\r");
    alice.wait_for("the server form", |s| s.contents().contains("Connect"));
    alice.send(address.as_bytes());
    alice.send(b"\x1b[B");
    alice.send(b"alice\r");
    // First contact: asked on the page, as `checkers online` asks, before anything is
    // pinned; the fingerprint whole on 80 columns.
    let (_, _, fingerprint) = raw_connection(&address);
    let bytes: Vec<String> = fingerprint.iter().map(|b| format!("{b:02X}")).collect();
    let known = a.data_dir().join("known_servers");
    let asked = |s: &vt100::Screen| {
        let text = s.contents();
        text.contains("Trust it, pin it and connect? [y/N]")
            && text.contains(&format!("SHA256:{}:", bytes[..16].join(":")))
            && text.contains(&bytes[16..].join(":"))
            && text.contains("y trust, pin and connect")
    };
    alice.wait_for("the first contact's question", asked);
    assert!(!known.exists(), "pinned before the player said yes");
    // No: nothing pinned, the form again, and why.
    alice.send(b"n");
    alice.wait_for("the refusal, under the form", |s| {
        let text = s.contents();
        text.contains("Not connected: the certificate of")
            && text.contains("(nothing pinned, nothing sent)")
            && text.contains("Enter connect")
    });
    assert!(!known.exists(), "pinned after no");
    alice.send(b"\r");
    alice.wait_for("the question again", asked);
    alice.send(b"y");
    alice.wait_for("the lobby with bob's seek", |s| {
        let text = s.contents();
        text.contains("checkers online: alice at") && text.contains("bob (1500)  10+5 casual")
    });
    let pinned = std::fs::read_to_string(&known).unwrap();
    assert!(pinned.contains(&address), "{pinned}");
    // The words printed while the home screen was up are wiped; the lobby says the
    // fingerprint pinned.
    assert!(!alice.contents().contains("First contact with"));
    alice.wait_for("the whole fingerprint on the lobby's status lines", |s| {
        let text = s.contents();
        text.contains(&format!(
            "Pinned as trusted: SHA256:{}:",
            bytes[..16].join(":")
        )) && text.contains(&bytes[16..].join(":"))
    });
    alice.send(b"q");
    alice.wait_for("the home screen again", |s| {
        s.contents().contains("Play at a checkers server")
    });
    // Back to the list of forms, to the home screen's list, and out.
    alice.send(b"\x1b");
    alice.wait_for("the list of forms", |s| {
        s.contents().contains("> Play at a checkers server")
    });
    alice.send(b"q");
    alice.wait_for("the home screen's list", |s| {
        s.contents().contains("Two players at this terminal")
    });
    alice.send(b"q");
    assert!(alice.exit_status().success());
    bob.say("quit");
    assert_eq!(bob.finish(), 0);
    stop(&mut server);
}

#[test]
fn adjourning_is_for_a_players_own_game_and_a_flood_of_it_is_let_go() {
    let home = Sandbox::new();
    let (mut server, address) = server_with(&home, "127.0.0.1:0", &["--message-rate", "20"]);
    let (a, b, c) = (Sandbox::new(), Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    let mut carol = player(&c, &address, "carol");
    carol.say("adjourn");
    carol.expect("Refused: you are not playing a game");
    meet(&mut alice, &mut bob, "seek 5+0 casual black");
    carol.say("watch 1");
    carol.expect("Watching game 1");
    carol.say("adjourn");
    carol.expect("Refused: you watch game 1: only its players adjourn it");
    // Left once; asked again and again, refused each time, bob told once.
    for _ in 0..30 {
        alice.say("adjourn");
    }
    alice.expect("Game 1 goes on, your clock running");
    alice.expect("Refused: you left game 1 already");
    // Let go, and told why: the server reads on what she still sends rather than
    // reset the line, and her client reads the reason even if a write of hers fails.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !alice
        .lines_within(std::time::Duration::from_millis(100))
        .iter()
        .any(|l| l.contains("let go: more than 20 messages"))
    {
        assert!(std::time::Instant::now() < deadline, "{:#?}", alice.seen);
    }
    assert_ne!(alice.finish(), 0);
    bob.expect("alice went to the lobby: game 1 goes on");
    // Up to alice's leaving, bob heard of her going to the lobby once.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let mut heard = Vec::new();
    while !heard
        .iter()
        .any(|l: &String| l.contains("alice left: game 1 goes on"))
    {
        assert!(std::time::Instant::now() < deadline, "{heard:#?}");
        heard = bob.lines_within(std::time::Duration::from_millis(100));
    }
    let again = heard
        .iter()
        .filter(|l| l.contains("went to the lobby"))
        .count();
    assert_eq!(again, 0, "{heard:#?}");
    // Back, alice is at her game again; a finished game cannot be adjourned.
    let mut alice = player(&a, &address, "alice");
    bob.expect("alice is back at game 1.");
    alice.say("resign");
    bob.expect("Game 1 over");
    alice.say("adjourn");
    alice.expect("Refused: you are not playing a game");
    for peer in [&mut alice, &mut bob, &mut carol] {
        peer.say("quit");
        assert_eq!(peer.finish(), 0);
    }
    stop(&mut server);
}

/// Whether the board on `screen` is the classic way up: White's back row (32-29) at the
/// top, Black's (4-1) at the bottom.
fn classic_way_up(screen: &str) -> bool {
    let row = |squares: &str| {
        screen.lines().position(|l| {
            // The board's part of the line, not the panel beside it.
            let board = l.split("││").next().unwrap_or(l);
            let words: Vec<&str> = board
                .split(|c: char| !c.is_ascii_digit())
                .filter(|w| !w.is_empty())
                .collect();
            words.join(" ") == squares
        })
    };
    matches!((row("32 31 30 29"), row("4 3 2 1")), (Some(top), Some(bottom)) if top < bottom)
}

#[test]
fn a_full_screen_spectator_watches_a_game_hears_its_table_and_goes_back_to_the_lobby() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b, c) = (Sandbox::new(), Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    meet(&mut alice, &mut bob, "seek 5+0 casual black");
    let mut carol = screen_player(&c, &address, "carol");
    carol.wait_for("the game in the lobby", |s| {
        s.contents().contains("1  alice - bob  5+0 casual, 0 moves")
    });
    // Tab to the games, Enter watches the one under the cursor.
    carol.send(b"\t\r");
    carol.wait_for("the watched board", |s| {
        s.contents().contains("Watching the game")
    });
    // The classic way up, Black at the bottom, as a LAN spectator sees it.
    carol.wait_for("the board, Black at the bottom", |s| {
        classic_way_up(&s.contents())
    });
    alice.say("11-15");
    carol.wait_for("the move on the spectator's board", |s| {
        let text = s.contents();
        text.contains("Black played 11-15") && text.contains("White to move")
    });
    bob.say("say well played");
    carol.wait_for("the line said at the table", |s| {
        s.contents().contains("bob: well played")
    });
    // A server's spectator talks at the table too: the players hear it.
    carol.wait_for("the chat key in the footer", |s| {
        s.contents().contains("' say")
    });
    carol.send(b"'");
    carol.send(b"nice opening\r");
    bob.expect("carol: nice opening");
    carol.wait_for("the spectator's own line", |s| {
        s.contents().contains("carol: nice opening")
    });
    // A spectator does not act; leaving the board goes back to the lobby.
    carol.send(b"22-18\r");
    carol.wait_for("the refusal, the move kept in its prompt", |s| {
        s.contents().contains("watching") && s.contents().contains("Move: 22-18")
    });
    // Esc read before q is sent: the two read together are Alt-q, which is no q.
    carol.send(b"\x1b");
    carol.wait_for("the prompt closed", |s| !s.contents().contains("Move: "));
    // Nor is it offered a piece to pick: no cursor on its board, no move in its keys;
    // and once the game ends, no undo, new game or rematch.
    let screen = carol.contents();
    assert!(!board_text(&screen).contains('['), "{screen}");
    assert!(!key_line(&screen).contains("move"), "{screen}");
    bob.say("resign");
    carol.wait_for("the end on the spectator's board", |s| {
        let text = s.contents();
        text.contains("White resigned") && key_line(&text).contains("q quit")
    });
    let screen = carol.contents();
    assert!(!board_text(&screen).contains('['), "{screen}");
    let keys = key_line(&screen);
    for other in ["undo", "new game", "rematch", "move"] {
        assert!(!keys.contains(other), "{other}: {screen}");
    }
    carol.send(b"q");
    carol.wait_for("the lobby again", |s| {
        s.contents().contains("Back in the lobby")
    });
    carol.send(b"q");
    assert!(carol.exit_status().success());
    for peer in [&mut alice, &mut bob] {
        peer.say("quit");
        assert_eq!(peer.finish(), 0);
    }
    stop(&mut server);
}

#[test]
fn a_refused_full_screen_login_leaves_the_terminal_as_it_was_and_says_why() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let first = Sandbox::new();
    let mut alice = player(&first, &address, "alice");
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    let other = Sandbox::new();
    let mut impostor = screen_player(&other, &address, "alice");
    impostor.wait_for("the refusal", |s| {
        s.contents()
            .contains("the name alice is taken by another player's key")
    });
    assert!(!impostor.exit_status().success());
    assert!(impostor.modes_restored(), "{}", impostor.modes());
    assert!(
        impostor.contents().contains("First contact with"),
        "the fingerprint is shown first"
    );
    stop(&mut server);
}

#[test]
fn a_spectator_that_never_reads_is_let_go_and_its_connection_closed_while_play_goes_on() {
    use std::time::{Duration, Instant};
    let home = Sandbox::new();
    // A short queue and no bound on lines said, so that the flood comes quickly; the
    // idle time is left at its five minutes: only the stuck writes end the connection.
    let (mut server, address) = server_with(
        &home,
        "127.0.0.1:0",
        &[
            "--queue",
            "64",
            "--message-rate",
            "1000000",
            "--table-chat",
            "1000000",
        ],
    );
    let keys = ["alice", "bob", "slow"].map(|n| {
        (
            n,
            ed25519_dalek::SigningKey::from_bytes(&[n.as_bytes()[0]; 32]),
        )
    });
    let mut pair = [0, 1].map(|i| Client::log_in(&address, keys[i].0, &keys[i].1));
    assert!(new_game(&mut pair, "alice"));
    // A spectator with a small receive window, which never reads after its login.
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None).unwrap();
    socket.set_recv_buffer_size(4096).unwrap();
    let to: std::net::SocketAddr = address.parse().unwrap();
    socket.connect(&to.into()).unwrap();
    let mut slow = Client::log_in_on(socket.into(), keys[2].0, &keys[2].1);
    assert!(slow.send(&serde_json::json!({"type": "watch", "number": 1})));
    // Alice talks at the table, she and Bob reading every line, until the server lets
    // the spectator go: its queue is full.
    let line = serde_json::json!({"type": "say", "text": "x".repeat(190)});
    let mut said = 0;
    let let_go = "a client does not read its messages: let go name=\"slow\"";
    while !server
        .lines_within(Duration::ZERO)
        .iter()
        .any(|l| l.contains(let_go))
    {
        assert!(
            said < 500_000,
            "the spectator was not let go after {said} lines"
        );
        // Ten at a time: a burst the players' queues hold.
        for _ in 0..10 {
            assert!(pair[0].send(&line));
        }
        for client in &mut pair {
            for _ in 0..10 {
                let heard = client.read().expect("a player was let go");
                assert_eq!(heard["type"], "said", "{heard}");
            }
        }
        said += 10;
    }
    // Its connection ends, unread, long before the idle time.
    let deadline = Instant::now() + Duration::from_secs(60);
    while !server
        .lines_within(Duration::from_millis(500))
        .iter()
        .any(|l| l.contains("left name=\"slow\""))
    {
        assert!(Instant::now() < deadline, "the stuck connection is held");
    }
    // Play goes on at the table.
    let dice = &mut Dice(3);
    let mover = usize::from(pair[0].my_move(dice).is_none());
    let text = pair[mover].my_move(dice).unwrap();
    assert!(pair[mover].send(&serde_json::json!({"type": "play", "text": text})));
    for client in &mut pair {
        assert!(client.hear_until(&[Heard::Moved]));
    }
    drop(slow);
    stop(&mut server);
}

/// `quit` in the plain client during a game in play says, as it leaves, that the game
/// goes on at the server with the player's clock running while the opponent is at it
/// (as the board's leave question says); a spectator's or a finished game's quit says
/// nothing of the kind.
#[test]
fn quitting_the_plain_client_mid_game_says_the_clock_runs_at_the_server() {
    let home = Sandbox::new();
    let (_server, address) = server(&home, "127.0.0.1:0");
    let (a, b, c) = (Sandbox::new(), Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    let mut carol = player(&c, &address, "carol");
    meet(&mut alice, &mut bob, "seek 5+0 casual black");
    carol.say("watch 1");
    carol.expect("Watching game 1");
    carol.say("quit");
    assert_eq!(carol.finish(), 0);
    let said = carol.lines_within(std::time::Duration::from_millis(200));
    assert!(!said.iter().any(|l| l.contains("Goodbye")), "{said:#?}");
    alice.say("quit");
    alice.expect(
        "Goodbye. At the server game 1 goes on, your clock running, while your opponent is at it",
    );
    assert_eq!(alice.finish(), 0);
    bob.expect("alice left: game 1 goes on");
    bob.say("resign");
    bob.expect("Game 1 over");
    bob.say("quit");
    assert_eq!(bob.finish(), 0);
    let said = bob.lines_within(std::time::Duration::from_millis(200));
    assert!(!said.iter().any(|l| l.contains("Goodbye")), "{said:#?}");
}

/// In plain mode a player and a spectator hear both clocks when they ask (`clock`), with
/// the board (`board`), and as the spectator starts watching; the running one named.
#[test]
fn plain_players_and_spectators_hear_both_clocks_when_they_ask() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b, c) = (Sandbox::new(), Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    meet(&mut alice, &mut bob, "seek 5+3 casual black");
    alice.say("11-15");
    bob.expect("Black played 11-15.");
    let mut carol = player(&c, &address, "carol");
    carol.say("watch 1");
    carol.expect("Watching game 1");
    let line = carol.expect("Clocks: Black ");
    // Black's 3 seconds added to what it thought; White's clock running.
    assert!(line.starts_with("Clocks: Black 5:0"), "{line}");
    assert!(line.ends_with("(White's running)."), "{line}");
    carol.say("clock");
    let line = carol.expect("Clocks: Black ");
    assert!(line.ends_with("(White's running)."), "{line}");
    bob.say("board");
    bob.expect("White to move.");
    let line = bob.expect("Clocks: Black ");
    assert!(line.ends_with("(White's running)."), "{line}");
    bob.say("resign");
    carol.expect("Game 1 over");
    carol.say("clock");
    carol.expect("You are not playing or watching a game.");
    stop(&mut server);
}

/// `checkers server` with `args`, which must refuse to start: what it said on standard
/// error. One that is still running after 20 seconds is stopped, and the test fails.
fn refused_server(home: &Sandbox, args: &[&str]) -> String {
    use std::process::Stdio;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
        .arg("server")
        .args(args)
        .env("HOME", home.home())
        .env("XDG_DATA_HOME", home.home().join("data"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("checkers server {args:?} started and ran, where it should refuse");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    let mut said = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut said).unwrap();
    assert!(!status.success(), "started: {said}");
    said
}

#[test]
fn a_second_server_on_a_database_in_use_is_refused_naming_the_first() {
    let home = Sandbox::new();
    let (mut first, _) = server(&home, "127.0.0.1:0");
    let db = home.home().join("server.sqlite");
    let db = db.to_str().unwrap();
    let pid = first.child.process_id().unwrap();
    let said = refused_server(&home, &["--listen", "127.0.0.1:0", "--db", db]);
    let words = format!("{db} is in use by another checkers server (process {pid}): stop it first");
    assert!(said.contains(&words), "{words:?} not in {said}");
    stop(&mut first);
    // Stopped, it holds the database no more: the next start takes it.
    let (mut second, _) = server(&home, "127.0.0.1:0");
    stop(&mut second);
}

#[test]
fn a_mistyped_db_is_refused_by_name_unless_create_asks_for_a_new_database() {
    let home = Sandbox::new();
    let typo = home.home().join("chekers").join("server.sqlite");
    let typo_name = typo.to_str().unwrap();
    let said = refused_server(&home, &["--listen", "127.0.0.1:0", "--db", typo_name]);
    let words = format!("{typo_name}: no such database");
    assert!(said.contains(&words), "{words:?} not in {said}");
    assert!(said.contains("give --create too"), "{said}");
    assert!(
        !home.home().join("chekers").exists(),
        "nothing made for a typo"
    );
    // Asked for, the new database is made, with its certificate...
    let args = ["server", "--listen", "127.0.0.1:0", "--db", typo_name];
    let mut made = Peer::start(&home, &[&args[..], &["--create"]].concat());
    made.expect("checkers server listening at ");
    let first = made.expect("Certificate fingerprint SHA256:");
    assert!(first.contains("(made now)"), "{first}");
    stop(&mut made);
    assert!(typo.exists());
    // ...and, once there, opened as it is without --create: the same certificate.
    let mut again = Peer::start(&home, &args);
    again.expect("checkers server listening at ");
    let second = again.expect("Certificate fingerprint SHA256:");
    assert_eq!(second.trim(), first.trim().replace(" (made now)", ""));
    stop(&mut again);
    // The default database, with no --db, is made on first use as ever.
    let mut default = Peer::start(&home, &["server", "--listen", "127.0.0.1:0"]);
    default.expect("checkers server listening at ");
    let database = default.expect("Database ");
    let path = database.trim().trim_start_matches("Database ");
    assert!(path.ends_with("server.sqlite"), "{database}");
    assert!(std::path::Path::new(path).exists(), "{database}");
    stop(&mut default);
}

#[test]
fn a_db_that_is_a_folder_or_no_database_is_refused_by_name_with_nothing_made_beside_it() {
    let home = Sandbox::new();
    let dir = &home.home().join("club");
    std::fs::create_dir(dir).unwrap();
    let folder = dir.join("games");
    std::fs::create_dir(&folder).unwrap();
    let text = dir.join("notes.txt");
    std::fs::write(&text, "not a database\n").unwrap();
    let folder_name = folder.to_str().unwrap();
    let said = refused_server(&home, &["--listen", "127.0.0.1:0", "--db", folder_name]);
    let words = format!("{folder_name} is a folder: --db names the database file");
    assert!(said.contains(&words), "{words:?} not in {said}");
    let text_name = text.to_str().unwrap();
    let said = refused_server(&home, &["--listen", "127.0.0.1:0", "--db", text_name]);
    let words = format!("{text_name} is not a database (an SQLite file)");
    assert!(said.contains(&words), "{words:?} not in {said}");
    assert_eq!(std::fs::read_to_string(&text).unwrap(), "not a database\n");
    let mut left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .collect();
    left.sort();
    assert_eq!(left, ["games", "notes.txt"], "nothing made beside them");
}

#[test]
fn a_stopped_servers_database_file_copied_alone_holds_every_player() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let a = Sandbox::new();
    let mut alice = player(&a, &address, "alice");
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    stop(&mut server);
    // The operator copies the database file alone, as one copies any file.
    let copy = home.home().join("copy.sqlite");
    std::fs::copy(home.home().join("server.sqlite"), &copy).unwrap();
    let db = rusqlite::Connection::open(&copy).unwrap();
    let names: Vec<String> = db
        .prepare("SELECT name FROM players")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(names, ["alice"]);
}

#[cfg(unix)]
#[test]
fn the_servers_private_key_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let home = Sandbox::new();
    let key = home.home().join("server.key.der");
    let mode = || std::fs::metadata(&key).unwrap().permissions().mode() & 0o777;
    let (mut running, _) = server(&home, "127.0.0.1:0");
    assert_eq!(mode(), 0o600, "made private");
    stop(&mut running);
    // One an earlier version left readable by everyone is made private at the start.
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (mut running, _) = server(&home, "127.0.0.1:0");
    assert_eq!(mode(), 0o600, "made private at the start");
    stop(&mut running);
}

/// `--listen` takes a host name that resolves: the server listens at its address.
#[test]
fn a_server_listens_at_a_host_name_given_with_its_port() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "localhost:0");
    let listening: std::net::SocketAddr = address.parse().unwrap();
    assert!(listening.ip().is_loopback(), "{address}");
    assert_ne!(listening.port(), 0);
    stop(&mut server);
}

/// A move sent into a line that stalls is not met with silence: the player is told the
/// server has not answered it, and what becomes of it. Lost with the line, it is played
/// by nobody; logged in again, the player plays it once, and both players and a
/// spectator see it once.
#[test]
fn a_move_into_a_stalled_line_is_told_unanswered_and_played_once_after_logging_in_again() {
    use crate::common::proxy::Proxy;
    let home = Sandbox::new();
    let (_server, address) = server(&home, "127.0.0.1:0");
    let proxy = Proxy::to(&address);
    let (a, b, c) = (Sandbox::new(), Sandbox::new(), Sandbox::new());
    let alice_args = [proxy.address.as_str(), "--name", "alice", "--plain"];
    let mut alice = online(&a, &alice_args);
    alice.expect("Logged in to");
    let mut bob = player(&b, &address, "bob");
    let mut carol = player(&c, &address, "carol");
    meet(&mut alice, &mut bob, "seek 5+0 casual black");
    carol.say("watch 1");
    carol.expect("Watching game 1");
    alice.say("11-15");
    bob.expect("Black played 11-15.");
    bob.say("22-18");
    alice.expect("White played 22-18.");
    proxy.swallow();
    alice.say("15x22");
    let told = alice.expect("The server has not answered your move 15x22");
    assert!(told.contains("the line is slow or down"), "{told}");
    proxy.cut();
    alice.expect("At the server game 1 goes on");
    bob.expect("alice left: game 1 goes on");
    let mut alice = online(&a, &alice_args);
    alice.expect("Logged in to");
    alice.expect("Your move (Black).");
    alice.say("15x22");
    alice.expect("Black played 15x22.");
    let at_bob = bob.lines_until("Black played 15x22.");
    let at_carol = carol.lines_until("Black played 15x22.");
    for seen in [&at_bob, &at_carol] {
        assert!(!seen.iter().any(|l| l.contains("15x22")), "{seen:#?}");
    }
    bob.say("25x18");
    for peer in [&mut alice, &mut bob, &mut carol] {
        peer.expect("White played 25x18.");
        peer.say("board");
        peer.expect("Black to move.");
    }
}

/// The full-screen board, as the plain client, tells of a move the server has not
/// answered for a while (it said nothing: the move seemed lost on a stalled line).
#[test]
fn a_move_into_a_stalled_line_is_told_unanswered_on_the_full_screen_board() {
    use crate::common::proxy::Proxy;
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let proxy = Proxy::to(&address);
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut bob = player(&b, &address, "bob");
    bob.say("seek 5+3 casual black");
    bob.expect("Seek 1 posted");
    let mut alice = screen_player(&a, &proxy.address, "alice");
    alice.wait_for("the lobby with bob's seek", |s| {
        s.contents().contains("Open seeks (1)")
    });
    alice.send(b"\r");
    bob.expect("Game 1 starts:");
    alice.wait_for("the board", |s| s.contents().contains("You play White"));
    bob.say("11-15");
    alice.wait_for("bob's move", |s| {
        let text = s.contents();
        text.contains("Black played 11-15") && text.contains("White to move")
    });
    proxy.swallow();
    alice.send(b"22-18\r");
    alice.wait_for("the move told unanswered", |s| {
        let text = s.contents();
        text.contains("The server has not answered your move 22-18") && text.contains("? help")
    });
    stop(&mut server);
}

/// A line cut on the way (the server running on) is said to be cut, not the server's
/// closing (it said "the server closed the connection (it may have stopped)"); a server
/// that stops in order says so, as before.
#[test]
fn a_line_cut_on_the_way_is_told_apart_from_the_server_stopping() {
    use crate::common::proxy::Proxy;
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let proxy = Proxy::to(&address);
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let alice_args = [proxy.address.as_str(), "--name", "alice", "--plain"];
    let mut alice = online(&a, &alice_args);
    alice.expect("Logged in to");
    let mut bob = player(&b, &address, "bob");
    meet(&mut alice, &mut bob, "seek 5+0 casual black");
    proxy.cut();
    let said = alice.expect("was cut");
    assert!(
        said.contains(&format!(
            "the line to the server at {} was cut (the network failed, or the server ended \
             without stopping in order)",
            proxy.address
        )) && !said.contains("closed the connection"),
        "{said}"
    );
    assert!(said.contains("checkers online takes you back"), "{said}");
    assert_ne!(alice.finish(), 0);
    stop(&mut server);
    bob.expect("let go: the server is stopping");
}

/// A login over [`raw_connection`] as `name` with the key of `seed`, as a hand-made
/// client sends it: the stream, welcomed (asserted).
fn raw_login(address: &str, name: &str, seed: u8) -> Raw {
    let key = ed25519_dalek::SigningKey::from_bytes(&[seed; 32]);
    let (mut stream, challenge, fingerprint) = raw_connection(address);
    let mut message: Vec<u8> = (0..32)
        .map(|i| u8::from_str_radix(&challenge[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    message.extend_from_slice(&fingerprint);
    message.extend_from_slice(name.as_bytes());
    let login = format!(
        r#"{{"type":"login","version":1,"name":"{name}","key":"{}","signature":"{}"}}"#,
        hex(key.verifying_key().as_bytes()),
        hex(&key.sign(&message).to_bytes())
    );
    let answer = exchange(&mut stream, &login);
    assert!(answer.contains(r#""type":"welcome""#), "{answer}");
    stream
}

/// The operator makes a player a moderator while the server runs; the moderator mutes
/// a player (whose lines are refused, saying until when), kicks them (their game is
/// adjourned, and goes on when they are back), and bans them: their logins are refused
/// with the reason, also after the server restarts. A player not a moderator is
/// refused, in the client and by the server for an order sent by hand.
#[test]
fn a_moderator_mutes_kicks_and_bans_a_player_and_the_ban_outlives_a_restart() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b, c) = (Sandbox::new(), Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    alice.say("quit");
    assert_eq!(alice.finish(), 0);
    let db = home.home().join("server.sqlite");
    let db = db.to_str().unwrap();
    let mut operator = Peer::start(&home, &["server", "--db", db, "moderator", "add", "alice"]);
    operator.expect("alice is a moderator now");
    assert_eq!(operator.finish(), 0);
    let mut alice = Peer::start(&a, &["online", &address, "--name", "alice", "--plain"]);
    alice.expect(&format!(
        "Logged in to {address} as alice, rating 1500, a moderator."
    ));
    let mut bob = player(&b, &address, "bob");
    let mut carol = player(&c, &address, "carol");
    carol.say("ban bob");
    carol.expect("ban is for the server's moderators, and you are not one");
    // By hand, past the client: the server refuses it, and logs who tried.
    let mut mallory = raw_login(&address, "mallory", 9);
    let answer = exchange(
        &mut mallory,
        r#"{"type":"moderate","order":{"do":"ban","name":"bob","reason":"mine"}}"#,
    );
    assert!(
        answer.contains("ban is for the server's moderators, and you are not one"),
        "{answer}"
    );
    server.expect("a moderator's order from a player who is not one: refused");
    let started = meet(&mut alice, &mut bob, "seek 10+5 casual");
    let black = if started.contains("You play Black") {
        &mut alice
    } else {
        &mut bob
    };
    black.say("11-15");
    alice.expect("played 11-15.");
    bob.expect("played 11-15.");
    alice.say("mute bob 15");
    let told = bob.expect("A moderator muted you until ");
    assert!(told.contains(", in 15 minutes:"), "{told}");
    alice.expect("Muted bob until ");
    server.expect("muted");
    bob.say("say hello");
    let refused = bob.expect("Refused: a moderator muted you until ");
    assert!(refused.contains("nobody hears you until then"), "{refused}");
    alice.say("kick bob");
    bob.expect("let go: a moderator disconnected you");
    assert_ne!(bob.finish(), 0);
    alice.expect("A moderator disconnected bob: game 1 is adjourned");
    alice.expect("Kicked bob; game 1 is adjourned.");
    let mut bob = Peer::start(&b, &["online", &address, "--name", "bob", "--plain"]);
    bob.expect("Game 1 goes on:");
    bob.expect("Moves so far: 11-15.");
    alice.expect("Game 1 goes on:");
    alice.say("ban bob cheating with an engine");
    bob.expect("you are banned from this server: cheating with an engine");
    assert_ne!(bob.finish(), 0);
    // alice, bob's opponent, is freed at once: the game ends, and she may seek.
    alice.expect("A moderator banned bob: game 1 ends as abandoned, counting for neither of you.");
    alice.expect(
        "Banned bob (cheating with an engine) and kicked them; game 1 ends as abandoned (unrated).",
    );
    alice.say("seek 5+3 casual");
    alice.expect("posted");
    let refused = |address: &str| {
        let mut bob = Peer::start(&b, &["online", address, "--name", "bob", "--plain"]);
        bob.expect("refused: you are banned from this server: cheating with an engine");
        assert_ne!(bob.finish(), 0);
    };
    refused(&address);
    stop(&mut server);
    let (mut server, at) = self::server(&home, &address);
    assert_eq!(at, address);
    refused(&address);
    let mut log = Peer::start(&home, &["server", "--db", db, "moderator", "log"]);
    log.expect("alice mute bob: 15 minutes");
    log.expect("alice kick bob");
    log.expect("alice ban bob: cheating with an engine");
    assert_eq!(log.finish(), 0);
    stop(&mut server);
}

/// A draw offered at a server and declined with `n` in plain mode: the player who
/// offered it is told, and the one who declined that they were.
#[test]
fn a_draw_declined_with_n_is_told_to_the_player_who_offered_it() {
    let home = Sandbox::new();
    let (mut server, address) = server(&home, "127.0.0.1:0");
    let (a, b) = (Sandbox::new(), Sandbox::new());
    let mut alice = player(&a, &address, "alice");
    let mut bob = player(&b, &address, "bob");
    let started = meet(&mut alice, &mut bob, "seek 10+5 casual black");
    assert!(started.contains("You play Black"), "{started}");
    alice.say("draw");
    alice.expect("Draw offered.");
    bob.expect("Black offers a draw: draw accepts it; decline (or n) declines it");
    bob.say("n");
    bob.expect("You declined the draw: alice is told.");
    alice.expect("bob declines the draw.");
    stop(&mut server);
}

/// A server (a fake, over TLS, pinned at first contact) that welcomes a name other than
/// the one signed for, full of escape sequences: the client refuses the login, and
/// nothing of the name reaches the terminal but as `?`.
#[test]
fn a_server_welcoming_another_name_is_refused_and_its_escapes_never_reach_the_terminal() {
    use rustls::pki_types::{PrivateKeyDer, PrivatePkcs8KeyDer};
    let made = rcgen::generate_simple_self_signed(vec!["checkers".to_string()]).unwrap();
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(made.signing_key.serialize_der()));
    #[allow(deprecated)]
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![made.cert.der().clone()], key)
        .unwrap();
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let evil = "x\u{1b}]0;pwned\u{7}\u{1b}[2J\u{1b}[31mEVIL\u{9b}31m";
    let config = Arc::new(config);
    // The client's first contact reads the certificate on a connection of its own,
    // then logs in on the next: each is served until one sends its login.
    let fake = std::thread::spawn(move || {
        for _ in 0..3 {
            let (tcp, _) = listener.accept().unwrap();
            tcp.set_read_timeout(Some(std::time::Duration::from_secs(15)))
                .unwrap();
            let conn = rustls::ServerConnection::new(config.clone()).unwrap();
            let mut stream = rustls::StreamOwned::new(conn, tcp);
            let challenge = serde_json::json!(
                {"type": "challenge", "version": 1, "challenge": "00".repeat(32)}
            );
            if stream
                .write_all(format!("{challenge}\n").as_bytes())
                .and_then(|()| stream.flush())
                .is_err()
            {
                continue;
            }
            let mut login = String::new();
            if !matches!(BufReader::new(&mut stream).read_line(&mut login), Ok(n) if n > 0) {
                continue;
            }
            let welcome = serde_json::json!(
                {"type": "welcome", "name": evil, "new": false, "rating": 1500.0}
            );
            let _ = stream.write_all(format!("{welcome}\n").as_bytes());
            let _ = stream.flush();
            // Held open until the client lets go.
            let mut rest = String::new();
            let _ = BufReader::new(&mut stream).read_line(&mut rest);
            return;
        }
    });
    let sandbox = Sandbox::new();
    let mut client = online(&sandbox, &[&address, "--name", "bob", "--plain"]);
    let told = client.expect("EVIL");
    assert!(told.contains("welcomed another name than bob"), "{told:?}");
    assert!(
        !told.contains('\u{1b}') && !told.contains('\u{9b}') && !told.contains('\u{7}'),
        "{told:?}"
    );
    assert_eq!(client.finish(), 1);
    fake.join().unwrap();
}
