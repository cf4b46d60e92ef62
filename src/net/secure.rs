//! The LAN line's privacy: a key exchange on the game's code that never sends the code,
//! then every message sealed. Anyone on the network sees only that two terminals talk,
//! when and how much; a terminal that does not know the code learns nothing of the game
//! and takes no seat.
//!
//! The exchange, in order (the first two lines are plain JSON, so that a terminal of an
//! older version reads them far enough to say which version it speaks):
//!
//! 1. The joiner's [`Opening`]: the protocol's version and its SPAKE2 message (the
//!    Ed25519 group, the joiner as side A, "checkers lan guest", the host as side B,
//!    "checkers lan host", the code in the form [`normalize_code`](super::normalize_code)
//!    writes as the password).
//! 2. The host's [`HostOpening::Pake`], its SPAKE2 message (or a plain refusal).
//! 3. Both ends derive one key a direction with HKDF-SHA256 from SPAKE2's shared key,
//!    salted with a hash of the version and both messages ([`Keys`]).
//! 4. The joiner proves the code first: its first frame is its [proof](Sealer::prove),
//!    and its greeting follows. The host judges the proof; only when it holds, and the
//!    joiner's address is not made to wait after wrong codes, does the host prove the
//!    code in turn, and everything after is sealed both ways. Proving first keeps every
//!    guess counted: a joiner without the code learns whether its guess was right only
//!    from the host's proof, which it gets only after its own proof was judged.
//!
//! A frame is the length of what follows (4 bytes, big-endian) and a ChaCha20-Poly1305
//! ciphertext of one JSON message, under its direction's key, the nonce the count of
//! frames sent before in that direction, the length as associated data. A frame that
//! does not open (tampered with, replayed, out of order, from another exchange) or is
//! longer than [`MAX_FRAME`] ends the connection. The length's first byte is always 0
//! (a frame is far shorter than 16 MB), so a plain JSON line (`{`) where a frame was
//! due is told apart: a plain refusal, a denial and nothing more.

use super::protocol::{MAX_LINE, ProtocolError, Role, VERSION};
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Key, Nonce};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use spake2::{Ed25519Group, Identity, Password, Spake2};
use std::io::{self, BufRead, Read, Write};

/// The joiner's name in the key exchange.
const GUEST_ID: &[u8] = b"checkers lan guest";

/// The host's name in the key exchange.
const HOST_ID: &[u8] = b"checkers lan host";

/// The bytes a SPAKE2 message takes (its side, then a point).
const PAKE_BYTES: usize = 33;

/// The bytes of the tag a sealed frame carries beyond its message.
const TAG: usize = 16;

/// The longest frame, past its length: a message of [`MAX_LINE`] bytes and its tag.
pub(crate) const MAX_FRAME: usize = MAX_LINE + TAG;

/// The first line of a connection, the joiner's, in plain JSON: `{"type":"hello",
/// "version":4,"code":"","role":"player","pake":"41…"}`. `code` (always empty) and
/// `role` (always a player) are there only so that a host of version 3 or before reads
/// it far enough to answer with the version it speaks; the real greeting comes sealed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub(crate) enum Opening {
    /// The only opening.
    Hello {
        /// The protocol version the joiner speaks.
        version: u32,
        /// Always empty: the code is never sent.
        #[serde(default)]
        code: String,
        /// Always a player (what the joiner is, it says sealed).
        #[serde(default = "a_player")]
        role: Role,
        /// The joiner's SPAKE2 message, in hex (none from a joiner of an older version).
        #[serde(default)]
        pake: Option<String>,
    },
}

fn a_player() -> Role {
    Role::Player
}

/// The host's answer to an [`Opening`], in plain JSON: its SPAKE2 message, or a plain
/// refusal (a full table, another version) or goodbye (a line that is not an opening),
/// which are denials and nothing more.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub(crate) enum HostOpening {
    /// The key exchange goes on.
    Pake {
        /// The protocol version the host speaks.
        version: u32,
        /// The host's SPAKE2 message, in hex.
        pake: String,
    },
    /// The connection is refused, and why.
    Refused {
        /// Why.
        reason: String,
        /// Whether the same greeting would be refused again.
        #[serde(default)]
        lasting: bool,
    },
    /// The host ends the connection, and why.
    Bye {
        /// Why.
        reason: String,
    },
}

/// Which end of the line this is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum End {
    /// The joiner (a player or a spectator), SPAKE2's side A.
    Guest,
    /// The host, SPAKE2's side B.
    Host,
}

/// The system's randomness, as SPAKE2 draws its secret scalar.
struct SystemRandom;

impl spake2::rand_core::TryRng for SystemRandom {
    type Error = std::convert::Infallible;

    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        let mut bytes = [0u8; 4];
        crate::random::fill(&mut bytes);
        Ok(u32::from_le_bytes(bytes))
    }

    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        Ok(crate::random::u64())
    }

    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        crate::random::fill(dst);
        Ok(())
    }
}

impl spake2::rand_core::TryCryptoRng for SystemRandom {}

/// One end's key exchange, started: its message sent, the other's awaited.
pub(crate) struct Handshake {
    end: End,
    spake: Spake2<Ed25519Group>,
    mine: Vec<u8>,
}

impl std::fmt::Debug for Handshake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Handshake({:?})", self.end)
    }
}

impl Handshake {
    /// `end`'s exchange on the game's `code` (as typed: it is normalized here).
    pub(crate) fn start(end: End, code: &str) -> Handshake {
        let password = Password::new(super::normalize_code(code).as_bytes());
        let (guest, host) = (Identity::new(GUEST_ID), Identity::new(HOST_ID));
        let (spake, mine) = match end {
            End::Guest => Spake2::start_a_with_rng(&password, &guest, &host, SystemRandom),
            End::Host => Spake2::start_b_with_rng(&password, &guest, &host, SystemRandom),
        };
        Handshake { end, spake, mine }
    }

    /// This end's message, in hex, as the openings carry it.
    pub(crate) fn message(&self) -> String {
        crate::server::protocol::hex(&self.mine)
    }

    /// The joiner's opening.
    pub(crate) fn opening(&self) -> Opening {
        Opening::Hello {
            version: VERSION,
            code: String::new(),
            role: Role::Player,
            pake: Some(self.message()),
        }
    }

    /// The exchange finished with the other end's message (hex): this end's sealer and
    /// opener. A message that is not one (the wrong length, side or point) is refused;
    /// a wrong code is not noticed here but at the proofs.
    pub(crate) fn finish(self, theirs: &str) -> Result<(Sealer, Opener), ProtocolError> {
        let malformed = |why: &str| ProtocolError::Malformed(format!("a key exchange {why}"));
        let theirs = crate::server::protocol::unhex::<PAKE_BYTES>(theirs)
            .ok_or_else(|| malformed("message that is not 33 bytes in hex"))?;
        let shared = self
            .spake
            .finish(&theirs)
            .map_err(|e| malformed(&format!("message that does not read ({e})")))?;
        let (guest_message, host_message) = match self.end {
            End::Guest => (&self.mine[..], &theirs[..]),
            End::Host => (&theirs[..], &self.mine[..]),
        };
        let keys = Keys::derive(&shared, guest_message, host_message);
        let (send, receive) = match self.end {
            End::Guest => (keys.guest_to_host, keys.host_to_guest),
            End::Host => (keys.host_to_guest, keys.guest_to_host),
        };
        let proof = |end: End| {
            let mut proof = match end {
                End::Guest => b"checkers lan: the guest knows the code ".to_vec(),
                End::Host => b"checkers lan: the host knows the code ".to_vec(),
            };
            proof.extend_from_slice(&keys.transcript);
            proof
        };
        let other = match self.end {
            End::Guest => End::Host,
            End::Host => End::Guest,
        };
        Ok((
            Sealer {
                cipher: ChaCha20Poly1305::new(&Key::from(send)),
                sent: 0,
                proof: proof(self.end),
            },
            Opener {
                cipher: ChaCha20Poly1305::new(&Key::from(receive)),
                received: 0,
                proof: proof(other),
            },
        ))
    }
}

/// The keys of one exchange: one a direction, and the hash of what was exchanged, which
/// the proofs carry.
struct Keys {
    guest_to_host: [u8; 32],
    host_to_guest: [u8; 32],
    transcript: [u8; 32],
}

impl Keys {
    /// HKDF-SHA256 of SPAKE2's `shared` key, salted with the transcript: the protocol's
    /// version and both messages, each with its length.
    fn derive(shared: &[u8], guest_message: &[u8], host_message: &[u8]) -> Keys {
        let mut hasher = Sha256::new();
        hasher.update(b"checkers lan transcript");
        hasher.update(VERSION.to_be_bytes());
        for message in [guest_message, host_message] {
            hasher.update((message.len() as u32).to_be_bytes());
            hasher.update(message);
        }
        let transcript: [u8; 32] = hasher.finalize().into();
        let hkdf = hkdf::Hkdf::<Sha256>::new(Some(&transcript), shared);
        let mut keys = Keys {
            guest_to_host: [0; 32],
            host_to_guest: [0; 32],
            transcript,
        };
        // 32 bytes is far below HKDF-SHA256's limit of 8160: expanding cannot fail.
        let _ = hkdf.expand(b"checkers lan guest to host", &mut keys.guest_to_host);
        let _ = hkdf.expand(b"checkers lan host to guest", &mut keys.host_to_guest);
        keys
    }
}

/// The nonce of the `count`th frame of a direction.
fn nonce(count: u64) -> Nonce {
    let mut nonce = [0u8; 12];
    nonce[4..].copy_from_slice(&count.to_be_bytes());
    Nonce::from(nonce)
}

/// This end's sending half: seals what it sends, counting the frames.
pub(crate) struct Sealer {
    cipher: ChaCha20Poly1305,
    sent: u64,
    proof: Vec<u8>,
}

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Sealer({} sent)", self.sent)
    }
}

impl Sealer {
    /// `plain` sealed as the next frame, its length first.
    pub(crate) fn seal(&mut self, plain: &[u8]) -> Vec<u8> {
        let length = ((plain.len() + TAG) as u32).to_be_bytes();
        let sealed = self
            .cipher
            .encrypt(
                &nonce(self.sent),
                Payload {
                    msg: plain,
                    aad: &length,
                },
            )
            // Sealing in memory fails only for messages of gigabytes.
            .unwrap_or_default();
        self.sent += 1;
        let mut frame = Vec::with_capacity(4 + sealed.len());
        frame.extend_from_slice(&length);
        frame.extend_from_slice(&sealed);
        frame
    }

    /// This end's proof of the code, as the next frame (the first this end sends).
    pub(crate) fn prove(&mut self) -> Vec<u8> {
        let proof = self.proof.clone();
        self.seal(&proof)
    }

    /// `message` as JSON, sealed as the next frame.
    pub(crate) fn seal_message<T: Serialize>(&mut self, message: &T) -> io::Result<Vec<u8>> {
        let json = serde_json::to_vec(message).map_err(io::Error::other)?;
        Ok(self.seal(&json))
    }

    /// Writes `message` sealed and flushes it.
    pub(crate) fn send<T: Serialize>(
        &mut self,
        writer: &mut impl Write,
        message: &T,
    ) -> io::Result<()> {
        let frame = self.seal_message(message)?;
        writer.write_all(&frame)?;
        writer.flush()
    }
}

/// This end's receiving half: opens what comes, in order, counting the frames.
pub(crate) struct Opener {
    cipher: ChaCha20Poly1305,
    received: u64,
    proof: Vec<u8>,
}

impl std::fmt::Debug for Opener {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Opener({} received)", self.received)
    }
}

/// A frame as it came, not yet opened: its length and its sealed bytes.
#[derive(Debug)]
pub(crate) struct Frame {
    length: [u8; 4],
    sealed: Vec<u8>,
}

impl Frame {
    /// The bytes it took on the line.
    pub(crate) fn bytes(&self) -> usize {
        4 + self.sealed.len()
    }
}

/// Reads the next frame from `reader`, unopened: at most [`MAX_FRAME`] bytes past its
/// length (a longer one is refused without being read), memory taken only as its
/// bytes come.
pub(crate) fn read_frame<R: BufRead>(reader: &mut R) -> Result<Frame, ProtocolError> {
    let mut length = [0u8; 4];
    let mut got = 0;
    while got < 4 {
        match reader.read(&mut length[got..]) {
            Ok(0) => return Err(ProtocolError::Closed),
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(ProtocolError::Io(e)),
        }
        // A frame's length starts with 0: `{` is a plain JSON line, not a huge length.
        if length[0] == b'{' {
            return Err(ProtocolError::Plain);
        }
    }
    let size = u32::from_be_bytes(length) as usize;
    if size > MAX_FRAME {
        return Err(ProtocolError::TooLong);
    }
    if size < TAG {
        return Err(ProtocolError::Tampered);
    }
    let mut sealed = Vec::new();
    <&mut R as Read>::take(reader, size as u64)
        .read_to_end(&mut sealed)
        .map_err(ProtocolError::Io)?;
    if sealed.len() < size {
        return Err(ProtocolError::Closed);
    }
    Ok(Frame { length, sealed })
}

impl Opener {
    /// `frame` opened as the next frame of this direction: its message's bytes.
    pub(crate) fn open(&mut self, frame: &Frame) -> Result<Vec<u8>, ProtocolError> {
        let plain = self
            .cipher
            .decrypt(
                &nonce(self.received),
                Payload {
                    msg: &frame.sealed,
                    aad: &frame.length,
                },
            )
            .map_err(|_| ProtocolError::Tampered)?;
        self.received += 1;
        Ok(plain)
    }

    /// Whether `frame`, the other end's first, is its proof of the code.
    pub(crate) fn check_proof(&mut self, frame: &Frame) -> Result<(), ProtocolError> {
        match self.open(frame) {
            // Both made from the same public transcript: nothing secret to time.
            Ok(proof) if proof == self.proof => Ok(()),
            _ => Err(ProtocolError::Unproven),
        }
    }

    /// Reads the other end's proof of the code.
    pub(crate) fn read_proof<R: BufRead>(&mut self, reader: &mut R) -> Result<(), ProtocolError> {
        let frame = read_frame(reader)?;
        self.check_proof(&frame)
    }

    /// `frame`'s message, parsed as a `T`.
    pub(crate) fn message<T: DeserializeOwned>(
        &mut self,
        frame: &Frame,
    ) -> Result<T, ProtocolError> {
        let plain = self.open(frame)?;
        serde_json::from_slice(&plain).map_err(|e| ProtocolError::Malformed(e.to_string()))
    }

    /// Reads the next message, with the bytes its frame took (what a message parsed
    /// from it may weigh in memory is a small multiple of that).
    pub(crate) fn read<T: DeserializeOwned, R: BufRead>(
        &mut self,
        reader: &mut R,
    ) -> Result<(T, usize), ProtocolError> {
        let frame = read_frame(reader)?;
        let message = self.message(&frame)?;
        Ok((message, frame.bytes()))
    }
}

/// Whether what `reader` holds next is a plain JSON line (a refusal) rather than a
/// frame, whose first byte is 0; waits for a byte.
pub(crate) fn plain_next<R: BufRead>(reader: &mut R) -> io::Result<bool> {
    Ok(reader.fill_buf()?.first() == Some(&b'{'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{ClientMessage, RemoteCommand};
    use std::io::Cursor;

    fn pair(guest_code: &str, host_code: &str) -> ((Sealer, Opener), (Sealer, Opener)) {
        let guest = Handshake::start(End::Guest, guest_code);
        let host = Handshake::start(End::Host, host_code);
        let (g, h) = (guest.message(), host.message());
        (guest.finish(&h).unwrap(), host.finish(&g).unwrap())
    }

    #[test]
    fn the_same_code_gives_both_ends_the_keys_and_proofs_of_each_other() {
        // Typed loosely at one end: the same code.
        let ((mut gs, mut go), (mut hs, mut ho)) =
            pair(" Maple 4821 river-0937", "maple-4821-river-0937");
        ho.read_proof(&mut Cursor::new(gs.prove())).unwrap();
        go.read_proof(&mut Cursor::new(hs.prove())).unwrap();
        let play = ClientMessage::Command {
            command: RemoteCommand::Play {
                text: "11-15".into(),
                left_ms: Some(299_000),
            },
        };
        let frame = gs.seal_message(&play).unwrap();
        let (read, bytes) = ho
            .read::<ClientMessage, _>(&mut Cursor::new(&frame))
            .unwrap();
        assert_eq!((read, bytes), (play, frame.len()));
        // Nothing of the message is in the frame.
        assert!(!frame.windows(5).any(|w| w == b"11-15"));
    }

    #[test]
    fn a_wrong_code_fails_the_proofs_both_ways() {
        let ((mut gs, mut go), (mut hs, mut ho)) =
            pair("maple-4821-river-0937", "maple-4821-river-0938");
        assert!(matches!(
            ho.read_proof(&mut Cursor::new(gs.prove())),
            Err(ProtocolError::Unproven)
        ));
        assert!(matches!(
            go.read_proof(&mut Cursor::new(hs.prove())),
            Err(ProtocolError::Unproven)
        ));
    }

    #[test]
    fn a_proof_reflected_back_to_its_sender_is_no_proof() {
        // A relay sends the host its own proof: sealed for the other direction.
        let (_, (mut hs, mut ho)) = pair("oak-1", "oak-1");
        assert!(matches!(
            ho.read_proof(&mut Cursor::new(hs.prove())),
            Err(ProtocolError::Unproven)
        ));
    }

    /// Both ends of one exchange, the joiner's proof taken.
    fn proven() -> (Sealer, Opener) {
        let ((mut gs, _), (_, mut ho)) = pair("oak-1", "oak-1");
        ho.read_proof(&mut Cursor::new(gs.prove())).unwrap();
        (gs, ho)
    }

    #[test]
    fn a_tampered_replayed_or_reordered_frame_does_not_open() {
        let read =
            |ho: &mut Opener, frame: &[u8]| ho.read::<ClientMessage, _>(&mut Cursor::new(frame));
        let (mut gs, mut ho) = proven();
        let mut tampered = gs.seal_message(&ClientMessage::Ping).unwrap();
        *tampered.last_mut().unwrap() ^= 1;
        assert!(matches!(
            read(&mut ho, &tampered),
            Err(ProtocolError::Tampered)
        ));
        // Out of order: the second before the first.
        let (mut gs, mut ho) = proven();
        let _first = gs.seal_message(&ClientMessage::Ping).unwrap();
        let second = gs.seal_message(&ClientMessage::Ping).unwrap();
        assert!(matches!(
            read(&mut ho, &second),
            Err(ProtocolError::Tampered)
        ));
        // Replayed: the same frame again.
        let (mut gs, mut ho) = proven();
        let once = gs.seal_message(&ClientMessage::Ping).unwrap();
        assert_eq!(read(&mut ho, &once).unwrap().0, ClientMessage::Ping);
        assert!(matches!(read(&mut ho, &once), Err(ProtocolError::Tampered)));
    }

    #[test]
    fn a_length_over_the_limit_is_refused_without_reading_on() {
        let mut huge = ((MAX_FRAME + 1) as u32).to_be_bytes().to_vec();
        huge.extend(vec![0u8; 1 << 20]);
        let mut reader = Cursor::new(huge);
        assert!(matches!(
            read_frame(&mut reader),
            Err(ProtocolError::TooLong)
        ));
        assert_eq!(reader.position(), 4);
        // Cut short: the connection closed in the middle of a frame.
        let mut cut = 100u32.to_be_bytes().to_vec();
        cut.extend([0u8; 10]);
        assert!(matches!(
            read_frame(&mut Cursor::new(cut)),
            Err(ProtocolError::Closed)
        ));
    }

    #[test]
    fn a_plain_line_where_a_frame_is_due_is_told_as_such_not_as_a_huge_frame() {
        let mut reader = Cursor::new(b"{\"type\":\"ping\"}\n".to_vec());
        let e = read_frame(&mut reader).unwrap_err();
        assert!(matches!(e, ProtocolError::Plain), "{e:?}");
        assert_eq!(
            e.to_string(),
            "a plain message where a sealed one was due (an older checkers, or not checkers)"
        );
    }

    #[test]
    fn the_opening_says_its_version_and_nothing_of_the_code() {
        let guest = Handshake::start(End::Guest, "maple-4821-river-0937");
        let line = serde_json::to_string(&guest.opening()).unwrap();
        assert!(
            line.starts_with(r#"{"type":"hello","version":4,"code":"","role":"player","pake":"41"#),
            "{line}"
        );
        assert!(!line.contains("maple"), "{line}");
        // A message that is no SPAKE2 message is refused at once.
        let host = Handshake::start(End::Host, "oak-1");
        assert!(matches!(
            host.finish("00"),
            Err(ProtocolError::Malformed(_))
        ));
    }
}
