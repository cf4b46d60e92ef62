//! The LAN line as the guide describes it, written again from that description for the
//! tests (a second implementation, so that the program's is checked against it): the
//! plain opening with the joiner's SPAKE2 message, the host's, keys each way by
//! HKDF-SHA256, the joiner's proof and greeting, the host's proof, and every message a
//! ChaCha20-Poly1305 frame. A joiner and a host speaking it by hand, as an attacker (or
//! a test's joiner) does.

use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};
use spake2::{Ed25519Group, Identity, Password, Spake2};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Duration;

/// The protocol's version these tests speak, as the program's guide gives it.
pub(crate) const VERSION: u32 = 4;

/// How long an answer the tests wait for may take.
const PATIENCE: Duration = Duration::from_secs(30);

/// Which end a test speaks for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum End {
    /// A joiner: SPAKE2's side A.
    Guest,
    /// A host: side B.
    Host,
}

/// The operating system's randomness for SPAKE2.
struct OsRandom;

impl spake2::rand_core::TryRng for OsRandom {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut b = [0u8; 4];
        self.try_fill_bytes(&mut b)?;
        Ok(u32::from_le_bytes(b))
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        let mut b = [0u8; 8];
        self.try_fill_bytes(&mut b)?;
        Ok(u64::from_le_bytes(b))
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        getrandom::fill(dst).unwrap();
        Ok(())
    }
}

impl spake2::rand_core::TryCryptoRng for OsRandom {}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(text: &str) -> Vec<u8> {
    (0..text.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&text[i..i + 2], 16).unwrap())
        .collect()
}

/// A code as the program reads it: lower case, words joined by dashes.
fn normalized(code: &str) -> String {
    code.split(|c: char| c.is_whitespace() || c == '-')
        .filter(|p| !p.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("-")
}

/// One end's key exchange, started.
pub(crate) struct Exchange {
    end: End,
    spake: Spake2<Ed25519Group>,
    mine: Vec<u8>,
}

impl Exchange {
    pub(crate) fn start(end: End, code: &str) -> Exchange {
        let password = Password::new(normalized(code).as_bytes());
        let (a, b) = (
            Identity::new(b"checkers lan guest"),
            Identity::new(b"checkers lan host"),
        );
        let (spake, mine) = match end {
            End::Guest => Spake2::start_a_with_rng(&password, &a, &b, OsRandom),
            End::Host => Spake2::start_b_with_rng(&password, &a, &b, OsRandom),
        };
        Exchange { end, spake, mine }
    }

    /// The joiner's opening line.
    pub(crate) fn opening(&self) -> Value {
        json!({"type": "hello", "version": VERSION, "code": "", "role": "player",
               "pake": hex(&self.mine)})
    }

    /// The host's answer to an opening.
    pub(crate) fn answer(&self) -> Value {
        json!({"type": "pake", "version": VERSION, "pake": hex(&self.mine)})
    }

    /// The keys, given the other end's message (hex).
    pub(crate) fn finish(self, theirs: &str) -> Keys {
        let theirs = unhex(theirs);
        let shared = self.spake.finish(&theirs).unwrap();
        let (guest, host) = match self.end {
            End::Guest => (self.mine.clone(), theirs),
            End::Host => (theirs, self.mine.clone()),
        };
        let mut transcript = Sha256::new();
        transcript.update(b"checkers lan transcript");
        transcript.update(VERSION.to_be_bytes());
        for m in [&guest, &host] {
            transcript.update((m.len() as u32).to_be_bytes());
            transcript.update(m);
        }
        let transcript: [u8; 32] = transcript.finalize().into();
        let hkdf = hkdf::Hkdf::<Sha256>::new(Some(&transcript), &shared);
        let (mut to_host, mut to_guest) = ([0u8; 32], [0u8; 32]);
        hkdf.expand(b"checkers lan guest to host", &mut to_host)
            .unwrap();
        hkdf.expand(b"checkers lan host to guest", &mut to_guest)
            .unwrap();
        let proof = |text: &[u8]| [text, &transcript[..]].concat();
        let guest_proof = proof(b"checkers lan: the guest knows the code ");
        let host_proof = proof(b"checkers lan: the host knows the code ");
        let cipher = |key: [u8; 32]| ChaCha20Poly1305::new(&Key::from(key));
        match self.end {
            End::Guest => Keys {
                send: cipher(to_host),
                receive: cipher(to_guest),
                sent: 0,
                received: 0,
                my_proof: guest_proof,
                their_proof: host_proof,
            },
            End::Host => Keys {
                send: cipher(to_guest),
                receive: cipher(to_host),
                sent: 0,
                received: 0,
                my_proof: host_proof,
                their_proof: guest_proof,
            },
        }
    }
}

fn nonce(count: u64) -> Nonce {
    let mut n = [0u8; 12];
    n[4..].copy_from_slice(&count.to_be_bytes());
    Nonce::from(n)
}

/// One end's keys: sealing what it sends, opening what comes.
pub(crate) struct Keys {
    send: ChaCha20Poly1305,
    receive: ChaCha20Poly1305,
    sent: u64,
    received: u64,
    my_proof: Vec<u8>,
    their_proof: Vec<u8>,
}

impl Keys {
    /// `plain` as the next frame.
    pub(crate) fn seal(&mut self, plain: &[u8]) -> Vec<u8> {
        let length = ((plain.len() + 16) as u32).to_be_bytes();
        let sealed = self
            .send
            .encrypt(
                &nonce(self.sent),
                Payload {
                    msg: plain,
                    aad: &length,
                },
            )
            .unwrap();
        self.sent += 1;
        [&length[..], &sealed].concat()
    }

    /// `message` as the next frame.
    pub(crate) fn seal_json(&mut self, message: &Value) -> Vec<u8> {
        self.seal(message.to_string().as_bytes())
    }

    /// This end's proof of the code, as the next frame.
    pub(crate) fn proof(&mut self) -> Vec<u8> {
        let proof = self.my_proof.clone();
        self.seal(&proof)
    }

    /// The next frame from `reader`, opened (none: the line ended, or it does not open).
    pub(crate) fn open(&mut self, reader: &mut impl Read) -> Option<Vec<u8>> {
        let mut length = [0u8; 4];
        reader.read_exact(&mut length).ok()?;
        let mut sealed = vec![0u8; u32::from_be_bytes(length) as usize];
        reader.read_exact(&mut sealed).ok()?;
        let plain = self
            .receive
            .decrypt(
                &nonce(self.received),
                Payload {
                    msg: &sealed,
                    aad: &length,
                },
            )
            .ok()?;
        self.received += 1;
        Some(plain)
    }

    /// Whether the other end's next frame is its proof of the code.
    pub(crate) fn check_proof(&mut self, reader: &mut impl Read) -> bool {
        self.open(reader).is_some_and(|p| p == self.their_proof)
    }
}

/// Writes `message` as one plain JSON line.
pub(crate) fn write_line(writer: &mut impl Write, message: &Value) -> std::io::Result<()> {
    writer.write_all(format!("{message}\n").as_bytes())
}

/// A greeting, as a player (`"player"`) or a spectator (`"spectator"`).
pub(crate) fn hello(role: &str, seat: Option<String>) -> Value {
    json!({"type": "hello", "role": role, "name": null, "seat": seat})
}

/// A joiner speaking the line by hand.
pub(crate) struct Raw {
    pub(crate) stream: TcpStream,
    reader: BufReader<TcpStream>,
    keys: Option<Keys>,
    /// Whether the host's proof came (its messages are sealed from then on).
    proven: bool,
    /// Plain answers read while the exchange went on.
    plain: VecDeque<Value>,
}

impl Raw {
    pub(crate) fn connect(address: &str) -> Raw {
        Raw::over(TcpStream::connect(address).unwrap())
    }

    pub(crate) fn over(stream: TcpStream) -> Raw {
        stream.set_read_timeout(Some(PATIENCE)).unwrap();
        let reader = BufReader::new(stream.try_clone().unwrap());
        Raw {
            stream,
            reader,
            keys: None,
            proven: false,
            plain: VecDeque::new(),
        }
    }

    /// The key exchange on `code`, then the proof and `greeting` sealed behind it, and
    /// `then` behind that, in one write. A plain answer to the opening (a refusal) is
    /// kept for [`Raw::next`].
    pub(crate) fn greet_with(&mut self, code: &str, greeting: &Value, then: &[Value]) {
        let exchange = Exchange::start(End::Guest, code);
        write_line(&mut self.stream, &exchange.opening()).unwrap();
        let Some(answer) = self.plain_line() else {
            return;
        };
        if answer["type"] != "pake" {
            self.plain.push_back(answer);
            return;
        }
        let mut keys = exchange.finish(answer["pake"].as_str().unwrap());
        let mut wire = keys.proof();
        for message in std::iter::once(greeting).chain(then) {
            wire.extend(keys.seal_json(message));
        }
        let _ = self.stream.write_all(&wire);
        self.keys = Some(keys);
    }

    /// The exchange and a greeting with `code` as `role`, with the seat token `seat`.
    pub(crate) fn hello(&mut self, code: &str, role: &str, seat: Option<String>) {
        self.greet_with(code, &hello(role, seat), &[]);
    }

    /// `message` sealed as the next frame, twice over: a replay.
    pub(crate) fn seal_twice(&mut self, message: &Value) -> Vec<u8> {
        let frame = self.keys.as_mut().unwrap().seal_json(message);
        [frame.clone(), frame].concat()
    }

    /// Sends `message` sealed.
    pub(crate) fn send(&mut self, message: &Value) -> std::io::Result<()> {
        let frame = self.keys.as_mut().unwrap().seal_json(message);
        self.stream.write_all(&frame)
    }

    fn plain_line(&mut self) -> Option<Value> {
        let mut line = String::new();
        match self.reader.read_line(&mut line) {
            Ok(0) | Err(_) => None,
            Ok(_) => Some(serde_json::from_str(&line).expect("the host's plain lines are JSON")),
        }
    }

    /// The host's next message, plain (a refusal before its proof) or sealed (none once
    /// the connection ends).
    pub(crate) fn next(&mut self) -> Option<Value> {
        if let Some(plain) = self.plain.pop_front() {
            return Some(plain);
        }
        let Some(keys) = self.keys.as_mut() else {
            return self.plain_line();
        };
        if !self.proven {
            let first = self.reader.fill_buf().ok()?.first().copied()?;
            if first == b'{' {
                return self.plain_line();
            }
            assert!(
                keys.check_proof(&mut self.reader),
                "the host's first frame proves the code"
            );
            self.proven = true;
        }
        let plain = keys.open(&mut self.reader)?;
        Some(serde_json::from_slice(&plain).expect("the host's messages are JSON"))
    }

    /// The host's welcome: the seat token and the game.
    pub(crate) fn welcome(&mut self) -> (Option<String>, Value) {
        match self.next() {
            Some(welcome) if welcome["type"] == "welcome" => (
                welcome["seat"].as_str().map(str::to_string),
                welcome["state"].clone(),
            ),
            other => panic!("no welcome: {other:?}"),
        }
    }

    /// The host's refusal of a greeting: its reason, and whether it lasts.
    pub(crate) fn refusal(&mut self) -> (String, bool) {
        match self.next() {
            Some(refused) if refused["type"] == "refused" => (
                refused["reason"].as_str().unwrap().to_string(),
                refused["lasting"].as_bool().unwrap(),
            ),
            other => panic!("no refusal: {other:?}"),
        }
    }

    /// Whether the host proved the code to this end.
    pub(crate) fn proven(&self) -> bool {
        self.proven
    }

    /// Messages until the connection ends, as JSON lines.
    pub(crate) fn rest(&mut self) -> String {
        let mut rest = String::new();
        while let Some(message) = self.next() {
            rest.push_str(&format!("{message}\n"));
        }
        rest
    }
}

/// A host's side of the exchange on `code` with a joiner that just connected on
/// `stream`: whether the joiner's proof held, its greeting (when it did), and the keys.
pub(crate) fn host_side(
    stream: &mut TcpStream,
    reader: &mut BufReader<TcpStream>,
    code: &str,
) -> Option<(bool, Option<Value>, Keys)> {
    let mut line = String::new();
    reader.read_line(&mut line).ok()?;
    let opening: Value = serde_json::from_str(&line).ok()?;
    let exchange = Exchange::start(End::Host, code);
    write_line(stream, &exchange.answer()).ok()?;
    let mut keys = exchange.finish(opening["pake"].as_str()?);
    let proven = keys.check_proof(reader);
    let greeting = if proven {
        keys.open(reader)
            .and_then(|g| serde_json::from_slice(&g).ok())
    } else {
        None
    };
    Some((proven, greeting, keys))
}
