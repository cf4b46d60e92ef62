//! A joiner's or spectator's line to the host: the first connection made at once (so a
//! wrong code or an absent host is told before the board opens), then kept by a thread
//! of its own, which passes the host's messages on, sends the board's, pings while
//! nothing else is said, and when the line drops connects again by itself every
//! [`RETRY`] until the host is back. A player greets again with the seat token its
//! welcome gave, which takes the seat over from its own stale connection; a refusal
//! that may pass (the seat still held, a full table) is tried again too, and so is one
//! "for good" said in clear, before the host proved the code (whatever answers at the
//! address while the host is away may say it).
//!
//! Each connection opens with the key exchange on the game's code
//! ([`secure`](super::secure)): this end proves the code first, then the host must
//! prove it too before anything it says is believed. A host that does not is no host
//! of this game (a wrong code, or someone else at the address): the line is not tried
//! again, so such a host gets one guess at the code a join, not one a second. The whole
//! exchange, up to the welcome, is held to [`CONNECT_WAIT`].
//!
//! The host is untrusted as well: what it sends waits in an inbox bounded in messages
//! and in bytes, where a new state replaces one not yet read, and a host sending more
//! than [`HOST_FLOOD_LIMIT`] messages in [`HOST_FLOOD_WINDOW`] is let go (and tried again
//! later), so a hostile host cannot fill this terminal's memory.

use super::backlog::Backlog;
use super::protocol::{
    ClientMessage, GameState, HostMessage, ProtocolError, Role, Side, VERSION, older_host,
    read_message_weighed, write_message,
};
use super::secure::{End, Handshake, HostOpening, Opener, Sealer, plain_next};
use std::collections::VecDeque;
use std::fmt;
use std::io::{self, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// How long a connection may take, and then the key exchange and the host's welcome.
pub(crate) const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// How often the line is tried again while it is down.
pub(crate) const RETRY: Duration = Duration::from_secs(1);

/// How often the client says it is still there when it says nothing else.
pub(crate) const PING_EVERY: Duration = Duration::from_secs(5);

/// How long the host may say nothing (it answers every ping) before the line counts as
/// down: two pings unanswered.
pub(crate) const HOST_SILENCE: Duration = Duration::from_secs(10);

/// How long a first join goes on trying while the host refuses it for now (the seat
/// still held by this player's old line, which the host lets go within its silence,
/// then kept for that line's token for half a minute).
pub(crate) const JOIN_PATIENCE: Duration = Duration::from_secs(60);

/// Messages the host may send within [`HOST_FLOOD_WINDOW`]: far more than a game
/// needs (a state and a line of news a move, a state every two seconds, chat).
pub(crate) const HOST_FLOOD_LIMIT: usize = 1000;

/// The window [`HOST_FLOOD_LIMIT`] counts in.
pub(crate) const HOST_FLOOD_WINDOW: Duration = Duration::from_secs(10);

/// How many times over a join (its first connection and every one after) this end may
/// prove the code to a host that then does not prove it in turn (it hangs up, stalls or
/// refuses plainly for now) before it believes no host at the address: each such
/// connection tested a guess at the code for whoever answered, and a man in the middle
/// could otherwise cut the line and test one a second as the line comes back.
pub(crate) const UNANSWERED_PROOFS: u32 = 3;

/// Who this end is, as its greeting says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Greeting {
    /// The game's code.
    pub(crate) code: String,
    /// A player or a spectator.
    pub(crate) role: Role,
    /// The player's name.
    pub(crate) name: Option<String>,
}

impl Greeting {
    fn hello(&self, seat: Option<String>) -> ClientMessage {
        ClientMessage::Hello {
            role: self.role,
            name: self.name.clone(),
            seat,
        }
    }
}

/// Why joining failed.
#[derive(Debug)]
pub(crate) enum JoinError {
    /// The address names no host.
    Address(String, io::Error),
    /// No connection could be made.
    Connect(SocketAddr, io::Error),
    /// The host refused, and why.
    Refused(String),
    /// A refusal for good said in clear, before the host proved the game's code (and
    /// why): whatever answers at the address may have said it, so a player who has a
    /// game with this host keeps trying rather than give it up (a first join stops).
    RefusedUnproven(String),
    /// The host refused for now, and why (the seat still held, a full table): the
    /// same greeting may pass later.
    Busy(String),
    /// The host's answer was not a welcome: what was wrong.
    Protocol(ProtocolError),
    /// The line dropped before the host's welcome came (what failed): before the host's
    /// opening (nothing proven either way, so trying again tests no guess at the code),
    /// or after the host proved the code (the host is the game's). The join is tried
    /// again, as a line that drops later is.
    Dropped(ProtocolError),
    /// Something answers at the address, but not in this program's messages (another
    /// program's port, a web server).
    NotAHost(SocketAddr),
    /// The connection was taken, but no answer came within [`CONNECT_WAIT`].
    Silent(SocketAddr),
    /// The host did not prove the game's code: the code is wrong, or it is not the
    /// host meant (someone else at the address, or between).
    Unproven(SocketAddr),
    /// The host runs an older checkers, which speaks this version of the protocol.
    OlderHost(u32),
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinError::Address(address, e) => write!(f, "address '{address}': {e}"),
            JoinError::Connect(address, e) => write!(
                f,
                "cannot connect to {address}: {e} (is `checkers host` running there?)"
            ),
            JoinError::Refused(why) | JoinError::RefusedUnproven(why) => {
                write!(f, "the host refused: {why}")
            }
            JoinError::Busy(why) => write!(f, "the host refused for now: {why}"),
            JoinError::Protocol(e) => write!(f, "the host's answer: {e}"),
            JoinError::Dropped(e) => {
                write!(f, "the line to the host dropped before its welcome ({e})")
            }
            JoinError::NotAHost(address) => write!(
                f,
                "{address} answered, but not as `checkers host` does: is that the address \
                 and port its screen shows?"
            ),
            JoinError::Silent(address) => write!(
                f,
                "{address} took the connection but did not answer within {} s \
                 (is `checkers host` running there?)",
                CONNECT_WAIT.as_secs()
            ),
            JoinError::Unproven(address) => write!(
                f,
                "the host at {address} did not prove the game's code: a wrong code, or not \
                 the host you meant"
            ),
            JoinError::OlderHost(version) => write!(
                f,
                "the host runs an older checkers, which speaks version {version} of the \
                 protocol (this program {VERSION}): update checkers there so that both ends \
                 run the same version"
            ),
        }
    }
}

impl std::error::Error for JoinError {}

/// What the line tells.
#[derive(Debug)]
pub(crate) enum LinkNews {
    /// A message from the host.
    Message(HostMessage),
    /// The line dropped, and why: it is tried again.
    Down(String),
    /// The host refused this end for good, sealed (the code proven), or no host at the
    /// address proved the code ([`UNANSWERED_PROOFS`]; another code after it was
    /// resumed): the line is not tried again. A refusal in clear is told as
    /// [`LinkNews::Waiting`]: anyone at the address may have said it.
    Refused(String),
    /// The host refused this end for now (the seat still held by this player's old
    /// line, a full table), and why: it is tried again.
    Waiting(String),
}

/// The line to the host, kept by its thread.
#[derive(Debug)]
pub(crate) struct Link {
    inbox: Arc<Inbox>,
    out: Sender<ClientMessage>,
    keeper: Option<std::thread::JoinHandle<()>>,
    timing: Arc<Timing>,
}

/// What the line told and the board has not read yet: a [`Backlog`], a state replacing
/// any state still unread (only the latest counts). The line's threads wait while it is
/// full; once the board is gone (`closed`) they stop.
#[derive(Debug, Default)]
struct Inbox {
    waiting: Mutex<Backlog<LinkNews>>,
    room: Condvar,
    closed: AtomicBool,
    bell: super::Bell,
}

impl Inbox {
    /// Puts `news`, which came in a line of `bytes`, in, waiting for room; false once
    /// the board is gone.
    fn put(&self, news: LinkNews, bytes: usize) -> bool {
        let is_state = |n: &LinkNews| matches!(n, LinkNews::Message(HostMessage::State { .. }));
        let mut unread = lock(&self.waiting);
        // Only the latest state is kept, where the state it replaces stood: before the
        // news that came after that one (a move's words, which fit the board's game only
        // once the state with the move is followed, else they are not shown).
        let news = if is_state(&news) {
            match unread.replace(is_state, news, bytes) {
                Ok(()) => {
                    drop(unread);
                    self.bell.ring();
                    return !self.closed.load(Ordering::SeqCst);
                }
                Err(news) => news,
            }
        } else {
            news
        };
        while !unread.has_room_for(bytes) {
            if self.closed.load(Ordering::SeqCst) {
                return false;
            }
            unread = self
                .room
                .wait_timeout(unread, Duration::from_millis(100))
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
        unread.push(news, bytes);
        drop(unread);
        self.bell.ring();
        !self.closed.load(Ordering::SeqCst)
    }

    /// Puts news this end tells itself (the line down, a refusal) in, as [`Inbox::put`].
    fn tell(&self, news: LinkNews) -> bool {
        self.put(news, 0)
    }

    /// Everything in it, oldest first.
    fn take(&self) -> Vec<LinkNews> {
        let taken = lock(&self.waiting).take();
        self.room.notify_all();
        taken
    }

    fn close(&self) {
        self.closed.store(true, Ordering::SeqCst);
        self.room.notify_all();
    }
}

/// The line's delay, from the pings: when the last one went, and the last round trip;
/// and when this end last said something, and what of that the host surely heard.
#[derive(Debug, Default)]
struct Timing {
    ping_sent: std::sync::Mutex<Option<Instant>>,
    round_trip_micros: std::sync::atomic::AtomicU64,
    /// When this end last sent a message (a ping or anything else).
    said: Mutex<Option<Instant>>,
    /// When this end last sent a message before the host was last heard from: what
    /// the host last heard of this end, as near as this end can tell.
    said_before_heard: Mutex<Option<Instant>>,
}

/// Where a player's seat token is kept, called with each new token a welcome gives (the
/// first, and one a host resumed gives when the line comes back), so that a player
/// started again takes its seat back at once.
pub(crate) type SeatKeeper = Box<dyn Fn(&str) + Send>;

/// The welcome of a joined game.
#[derive(Debug)]
pub(crate) struct Welcome {
    /// The side this end plays (none: it watches).
    pub(crate) side: Option<Side>,
    /// The seat token the host gave this player.
    pub(crate) seat: Option<String>,
    /// The game as the host holds it.
    pub(crate) state: GameState,
    /// The chat so far at the table.
    pub(crate) chat: Vec<(String, String)>,
}

impl Link {
    /// Connects to the host at `address` as `greeting` says (with the seat token
    /// `seat` an earlier welcome gave, if kept) and waits for its welcome, then keeps
    /// the line; each seat token a welcome gives is told to `keep_seat`. A refusal that may pass, or a line that drops after the host proved
    /// the code but before its welcome, is tried again every [`RETRY`] for up to
    /// [`JOIN_PATIENCE`], each told to `waiting` in a sentence ("The host refused for
    /// now (why)"); so is a refusal for good said in clear, for a player back with its
    /// seat token (a first join stops on it).
    pub(crate) fn join(
        address: &str,
        greeting: Greeting,
        seat: Option<String>,
        keep_seat: SeatKeeper,
        mut waiting: impl FnMut(&str),
    ) -> Result<(Link, Welcome), JoinError> {
        let addresses: Vec<SocketAddr> = address
            .to_socket_addrs()
            .map_err(|e| JoinError::Address(address.to_string(), e))?
            .collect();
        let started = Instant::now();
        let mut last = None;
        let mut unanswered = 0;
        let mut candidates = addresses.iter().copied();
        while let Some(candidate) = candidates.next() {
            match greet(candidate, &greeting, seat.clone(), &mut unanswered) {
                Ok((connected, welcome, _)) => {
                    if let Some(token) = &welcome.seat {
                        keep_seat(token);
                    }
                    let kept = (connected, unanswered);
                    return Ok(Link::keep_line(
                        candidate, greeting, kept, welcome, keep_seat,
                    ));
                }
                Err(_) if unanswered >= UNANSWERED_PROOFS => {
                    return Err(JoinError::Unproven(candidate));
                }
                // Tried again while patience lasts: said, waited for, then every
                // address from the first.
                Err(e)
                    if started.elapsed() + RETRY < JOIN_PATIENCE
                        && let Some(note) = retry_note(&e, seat.is_some()) =>
                {
                    waiting(&note);
                    std::thread::sleep(RETRY);
                    candidates = addresses.iter().copied();
                }
                Err(
                    e @ (JoinError::Refused(_)
                    | JoinError::RefusedUnproven(_)
                    | JoinError::Protocol(_)
                    | JoinError::Busy(_)
                    | JoinError::Dropped(_)
                    | JoinError::Unproven(_)
                    | JoinError::OlderHost(_)),
                ) => {
                    return Err(e);
                }
                Err(e) => last = Some(e),
            }
        }
        Err(last.unwrap_or_else(|| {
            JoinError::Address(
                address.to_string(),
                io::Error::new(io::ErrorKind::NotFound, "no address found"),
            )
        }))
    }

    /// The line kept from its first connection on (with the proofs the host left
    /// unanswered so far), by a thread of its own, which tells `keep_seat` of each
    /// new seat token.
    fn keep_line(
        address: SocketAddr,
        greeting: Greeting,
        connected: (Connected, u32),
        welcome: Welcome,
        keep_seat: SeatKeeper,
    ) -> (Link, Welcome) {
        let inbox = Arc::new(Inbox::default());
        let (connected, unanswered) = connected;
        let (out, out_rx) = mpsc::channel();
        let timing = Arc::new(Timing::default());
        let (kept, told) = (Arc::clone(&timing), Arc::clone(&inbox));
        let seat = welcome.seat.clone();
        let keeper = std::thread::spawn(move || {
            let line = Line {
                address,
                greeting,
                seat,
                keep_seat,
                inbox: told,
                out: out_rx,
                timing: kept,
                unanswered,
            };
            line.keep(Some(connected));
        });
        let link = Link {
            inbox,
            out,
            keeper: Some(keeper),
            timing,
        };
        (link, welcome)
    }

    /// From now on, `waker` is called whenever the line tells something.
    pub(crate) fn wake_with(&self, waker: super::Waker) {
        self.inbox.bell.set(waker);
    }

    /// What the line told since the last call (of the states, the latest only).
    pub(crate) fn news(&self) -> Vec<LinkNews> {
        self.inbox.take()
    }

    /// Sends `message` to the host (dropped while the line is down: the host's state,
    /// told again on reconnecting, is what counts).
    pub(crate) fn send(&self, message: ClientMessage) {
        let _ = self.out.send(message);
    }

    /// Half the last round trip of a ping: how late the host's news arrives.
    pub(crate) fn delay(&self) -> Duration {
        let micros = self.timing.round_trip_micros.load(Ordering::SeqCst);
        Duration::from_micros(micros / 2)
    }

    /// When this end last said something that reached the host, as near as it can
    /// tell: its last message sent before the host was last heard from. The host
    /// charges this player's clock until one [`PING_EVERY`] after its last word once
    /// the line went silent; the board stops its clocks as of the same moment.
    pub(crate) fn last_word_heard(&self) -> Option<Instant> {
        *lock(&self.timing.said_before_heard)
    }

    /// Lets the line go once what was sent is written (a last "adjourn" reaches the
    /// host before the program ends); a write waits at most [`CONNECT_WAIT`].
    pub(crate) fn close(mut self) {
        let Link { out, keeper, .. } = &mut self;
        let (dropped, _) = mpsc::channel();
        drop(std::mem::replace(out, dropped));
        if let Some(keeper) = keeper.take() {
            let _ = keeper.join();
        }
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // The line's threads stop rather than wait for a board that is gone.
        self.inbox.close();
    }
}

/// What the line is read through.
type Reader = BufReader<Timed>;

/// A connection's stream, read within a deadline while one is set: each read waits at
/// most what is left of it, so a host trickling bytes cannot hold the key exchange and
/// the welcome past it.
#[derive(Debug)]
struct Timed {
    stream: TcpStream,
    until: Option<Instant>,
}

impl Read for Timed {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let Some(until) = self.until {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(io::ErrorKind::TimedOut.into());
            }
            self.stream.set_read_timeout(Some(left))?;
        }
        self.stream.read(buf)
    }
}

/// A connection to the host once welcomed: the stream written to, its reader, and the
/// line's keys, one a direction.
#[derive(Debug)]
struct Connected {
    stream: TcpStream,
    reader: Reader,
    sealer: Sealer,
    opener: Opener,
}

/// What a join is told as it waits to try again after `error`, if that is one tried
/// again: a refusal for now, a line dropped before the welcome, and (for a player back
/// with its seat token, `with_seat`, whose game is with this host) a refusal in clear,
/// which may be a squatter's while the host is down.
fn retry_note(error: &JoinError, with_seat: bool) -> Option<String> {
    match error {
        JoinError::Busy(why) => Some(format!("The host refused for now ({why})")),
        JoinError::RefusedUnproven(_) | JoinError::OlderHost(_) if with_seat => {
            Some(format!("The host refused ({})", doubted(error)))
        }
        JoinError::Dropped(e) => Some(format!(
            "The line to the host dropped before its welcome ({e})"
        )),
        _ => None,
    }
}

/// The longest reason of a host's refusal or goodbye kept, in characters (a host's own
/// are far shorter).
const MOST_REASON_CHARS: usize = 600;

/// A refusal of the host's: for good (`lasting`) or for now; an older host's refusal of
/// this program's version said as such. The reason is made safe to show: a refusal
/// before the key exchange comes in clear from whatever answers at the address, the
/// code unproven, and is printed as it comes while the joiner waits. Only a host that
/// `proved` the code refuses for good: a refusal in clear may be anyone's.
fn refusal(reason: String, lasting: bool, proved: bool) -> JoinError {
    if let Some(version) = older_host(&reason) {
        return JoinError::OlderHost(version);
    }
    let reason = crate::text::printable(&reason, MOST_REASON_CHARS);
    match (lasting, proved) {
        (true, true) => JoinError::Refused(reason),
        (true, false) => JoinError::RefusedUnproven(reason),
        (false, _) => JoinError::Busy(reason),
    }
}

/// The words of `refused`, a refusal for good said in clear (or an older host's, which
/// only an older host speaks and so never proves the code), as told while a player who
/// has a game with this host goes on trying: it may be anyone's at the address.
fn doubted(refused: &JoinError) -> String {
    let why = match refused {
        JoinError::RefusedUnproven(why) => why.clone(),
        other => other.to_string(),
    };
    format!("{why}; not proven to come from the host")
}

/// Whether a read failed because the line was cut (closed or reset), not because the
/// other end stayed silent or said something wrong.
fn dropped(e: &ProtocolError) -> bool {
    match e {
        ProtocolError::Closed => true,
        ProtocolError::Io(io) => !matches!(
            io.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
        ),
        _ => false,
    }
}

/// One connection: made, the key exchange on the code, this end's proof and greeting
/// (with the seat token, if this player has one), the host's proof, the welcome; with
/// the length of the welcome's frame. `proofs_unanswered` counts this end's proofs that no
/// proof of the host's answered.
fn greet(
    address: SocketAddr,
    greeting: &Greeting,
    seat: Option<String>,
    proofs_unanswered: &mut u32,
) -> Result<(Connected, Welcome, usize), JoinError> {
    let connect = |e| JoinError::Connect(address, e);
    let mut stream = TcpStream::connect_timeout(&address, CONNECT_WAIT).map_err(connect)?;
    let _ = stream.set_nodelay(true);
    stream
        .set_write_timeout(Some(CONNECT_WAIT))
        .map_err(connect)?;
    let timed = Timed {
        stream: stream.try_clone().map_err(connect)?,
        until: Some(Instant::now() + CONNECT_WAIT),
    };
    let mut reader = BufReader::new(timed);
    let unanswered = |e: ProtocolError| match e {
        ProtocolError::Malformed(_) | ProtocolError::TooLong | ProtocolError::Plain => {
            JoinError::NotAHost(address)
        }
        ProtocolError::Io(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            JoinError::Silent(address)
        }
        e => JoinError::Protocol(e),
    };
    let handshake = Handshake::start(End::Guest, &greeting.code);
    write_message(&mut stream, &handshake.opening()).map_err(connect)?;
    let plain_answer = |answer: HostOpening| match answer {
        HostOpening::Refused { reason, lasting } => refusal(reason, lasting, false),
        HostOpening::Bye { reason } => refusal(reason, true, false),
        HostOpening::Pake { .. } => JoinError::NotAHost(address),
    };
    // A line cut before the host's opening came: nothing was proven either way, so
    // trying again tests no guess at the code (a stalled one is still told as silent).
    let (opening, _) = read_message_weighed::<HostOpening, _>(&mut reader).map_err(|e| {
        if dropped(&e) {
            JoinError::Dropped(e)
        } else {
            unanswered(e)
        }
    })?;
    let pake = match opening {
        HostOpening::Pake { version, pake } => {
            super::protocol::check_version(version).map_err(JoinError::Protocol)?;
            pake
        }
        answer => return Err(plain_answer(answer)),
    };
    let (mut sealer, mut opener) = handshake
        .finish(&pake)
        .map_err(|_| JoinError::NotAHost(address))?;
    // This end proves the code first, its greeting right behind the proof.
    let mut first = sealer.prove();
    first.extend(
        sealer
            .seal_message(&greeting.hello(seat))
            .map_err(connect)?,
    );
    // Counted from before it goes: a host that reads it and hangs up tested a guess.
    *proofs_unanswered += 1;
    stream
        .write_all(&first)
        .and_then(|()| stream.flush())
        .map_err(connect)?;
    // A plain line now is the host's refusal (a wrong code), a denial and nothing more:
    // only a host that proves the code is believed.
    if plain_next(&mut reader).map_err(|e| unanswered(ProtocolError::Io(e)))? {
        let (answer, _) =
            read_message_weighed::<HostOpening, _>(&mut reader).map_err(unanswered)?;
        return Err(plain_answer(answer));
    }
    opener.read_proof(&mut reader).map_err(|e| match e {
        ProtocolError::Unproven | ProtocolError::Tampered | ProtocolError::TooLong => {
            JoinError::Unproven(address)
        }
        e => unanswered(e),
    })?;
    *proofs_unanswered -= 1;
    // The host proved the code: a line cut now is a dropped line of the game's host, to
    // be tried again (a stalled one is still told as silent).
    let (answer, bytes) = opener.read::<HostMessage, _>(&mut reader).map_err(|e| {
        if dropped(&e) {
            JoinError::Dropped(e)
        } else {
            unanswered(e)
        }
    })?;
    match answer {
        HostMessage::Welcome {
            version,
            side,
            seat,
            state,
            chat,
        } => {
            super::protocol::check_version(version).map_err(JoinError::Protocol)?;
            reader.get_mut().until = None;
            let _ = reader.get_ref().stream.set_read_timeout(Some(HOST_SILENCE));
            let welcome = Welcome {
                side,
                seat,
                state,
                chat,
            };
            let connected = Connected {
                stream,
                reader,
                sealer,
                opener,
            };
            Ok((connected, welcome, bytes))
        }
        HostMessage::Refused { reason, lasting } => Err(refusal(reason, lasting, true)),
        HostMessage::Bye { reason } => Err(JoinError::Refused(crate::text::printable(
            &reason,
            MOST_REASON_CHARS,
        ))),
        other => Err(JoinError::Protocol(ProtocolError::Malformed(format!(
            "{other:?} before a welcome"
        )))),
    }
}

/// What the line's thread keeps: where the host is, who this end is (and its seat
/// token), the inbox for the board, what the board sends, and the line's delay.
struct Line {
    address: SocketAddr,
    greeting: Greeting,
    seat: Option<String>,
    /// Told of each new seat token, as the first was.
    keep_seat: SeatKeeper,
    inbox: Arc<Inbox>,
    out: Receiver<ClientMessage>,
    timing: Arc<Timing>,
    /// This end's proofs that no proof of the host's answered, over the join.
    unanswered: u32,
}

impl Line {
    /// Keeps the line: passes messages both ways, pings, and connects again when it
    /// drops, until the board lets the line go (its [`Link`] dropped) or the host
    /// refuses for good.
    fn keep(mut self, mut first: Option<Connected>) {
        loop {
            let connected = match first.take() {
                Some(connection) => connection,
                None => match greet(
                    self.address,
                    &self.greeting,
                    self.seat.clone(),
                    &mut self.unanswered,
                ) {
                    Ok((connected, welcome, bytes)) => {
                        // A host resumed gives a new token: kept before the board
                        // hears of the welcome, so a player killed then still has it.
                        if let Some(token) = welcome.seat.as_ref()
                            && self.seat.as_ref() != Some(token)
                        {
                            (self.keep_seat)(token);
                        }
                        self.seat = welcome.seat.clone().or(self.seat.take());
                        let welcome = HostMessage::Welcome {
                            version: VERSION,
                            side: welcome.side,
                            seat: welcome.seat,
                            state: welcome.state,
                            chat: welcome.chat,
                        };
                        let told = self.inbox.put(LinkNews::Message(welcome), bytes);
                        if !told {
                            return;
                        }
                        connected
                    }
                    Err(JoinError::Refused(why)) => {
                        let _ = self.inbox.tell(LinkNews::Refused(why));
                        return;
                    }
                    Err(_) if self.unanswered >= UNANSWERED_PROOFS => {
                        let unproven = JoinError::Unproven(self.address);
                        let _ = self.inbox.tell(LinkNews::Refused(unproven.to_string()));
                        return;
                    }
                    // A refusal in clear may be a squatter's at the host's address
                    // while the host is down: told, and the line tried again.
                    Err(e @ (JoinError::RefusedUnproven(_) | JoinError::OlderHost(_))) => {
                        if !self.inbox.tell(LinkNews::Waiting(doubted(&e)))
                            || !self.wait_while_down()
                        {
                            return;
                        }
                        continue;
                    }
                    Err(e @ JoinError::Unproven(_)) => {
                        let _ = self.inbox.tell(LinkNews::Refused(e.to_string()));
                        return;
                    }
                    Err(JoinError::Busy(why)) => {
                        if !self.inbox.tell(LinkNews::Waiting(why)) || !self.wait_while_down() {
                            return;
                        }
                        continue;
                    }
                    Err(_) => {
                        if self.wait_while_down() {
                            continue;
                        }
                        return;
                    }
                },
            };
            let Some(reason) = self.serve(connected) else {
                return;
            };
            if !self.inbox.tell(LinkNews::Down(reason)) || !self.wait_while_down() {
                return;
            }
        }
    }

    /// One connection served until it ends: why it ended, or `None` once the board has
    /// let the line go.
    fn serve(&self, connected: Connected) -> Option<String> {
        let Connected {
            mut stream,
            reader,
            mut sealer,
            opener,
        } = connected;
        let ended = Arc::new(AtomicBool::new(false));
        let why = Arc::new(Mutex::new(String::new()));
        let reading = {
            let (inbox, ended, why) = (
                Arc::clone(&self.inbox),
                Arc::clone(&ended),
                Arc::clone(&why),
            );
            let timing = Arc::clone(&self.timing);
            std::thread::spawn(move || read_host(reader, opener, &inbox, &ended, &why, &timing))
        };
        // The host's welcome answered this end's greeting: the host heard it.
        let welcomed = Instant::now();
        *lock(&self.timing.said) = Some(welcomed);
        *lock(&self.timing.said_before_heard) = Some(welcomed);
        // A ping at once: the line's delay is known from the start.
        let mut said = Instant::now()
            .checked_sub(PING_EVERY)
            .unwrap_or_else(Instant::now);
        let gone = loop {
            if ended.load(Ordering::SeqCst) {
                break false;
            }
            match self.out.recv_timeout(Duration::from_millis(50)) {
                Ok(message) => {
                    if sealer.send(&mut stream, &message).is_err() {
                        break false;
                    }
                    said = Instant::now();
                    *lock(&self.timing.said) = Some(said);
                }
                Err(RecvTimeoutError::Timeout) if said.elapsed() >= PING_EVERY => {
                    *lock(&self.timing.ping_sent) = Some(Instant::now());
                    if sealer.send(&mut stream, &ClientMessage::Ping).is_err() {
                        break false;
                    }
                    said = Instant::now();
                    *lock(&self.timing.said) = Some(said);
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break true,
            }
        };
        let _ = stream.shutdown(Shutdown::Both);
        let _ = reading.join();
        if gone {
            return None;
        }
        let reason = std::mem::take(&mut *lock(&why));
        Some(if reason.is_empty() {
            "the connection failed".to_string()
        } else {
            reason
        })
    }

    /// Waits [`RETRY`] while the line is down, dropping what the board sends meanwhile;
    /// false once the board has let the line go.
    fn wait_while_down(&self) -> bool {
        let until = Instant::now() + RETRY;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return true;
            }
            match self.out.recv_timeout(left) {
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => return true,
                Err(RecvTimeoutError::Disconnected) => return false,
            }
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Passes the host's messages, opened with `opener`, on until the line ends (or the
/// host floods it, or a frame does not open); why it ended goes in `why`.
fn read_host(
    mut reader: Reader,
    mut opener: Opener,
    inbox: &Inbox,
    ended: &AtomicBool,
    why: &Mutex<String>,
    timing: &Timing,
) {
    let mut recent: VecDeque<Instant> = VecDeque::new();
    let reason = loop {
        let (message, bytes) = match opener.read::<HostMessage, _>(&mut reader) {
            Ok(weighed) => weighed,
            Err(ProtocolError::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                break format!(
                    "nothing heard from the host for {} seconds",
                    HOST_SILENCE.as_secs()
                );
            }
            Err(e) => break e.to_string(),
        };
        let now = Instant::now();
        // The host spoke: what this end said before, it heard (as near as this end
        // can tell).
        let said = *lock(&timing.said);
        *lock(&timing.said_before_heard) = said;
        recent.push_back(now);
        while recent
            .front()
            .is_some_and(|t| now.duration_since(*t) > HOST_FLOOD_WINDOW)
        {
            recent.pop_front();
        }
        if recent.len() > HOST_FLOOD_LIMIT {
            break format!(
                "the host sent more than {HOST_FLOOD_LIMIT} messages in {} seconds",
                HOST_FLOOD_WINDOW.as_secs()
            );
        }
        match message {
            HostMessage::Pong => {
                if let Some(sent) = lock(&timing.ping_sent).take() {
                    let micros = sent.elapsed().as_micros() as u64;
                    timing.round_trip_micros.store(micros, Ordering::SeqCst);
                }
            }
            HostMessage::Bye { reason } => {
                let bye = HostMessage::Bye {
                    reason: reason.clone(),
                };
                let _ = inbox.put(LinkNews::Message(bye), bytes);
                break reason;
            }
            message => {
                if !inbox.put(LinkNews::Message(message), bytes) {
                    break String::new();
                }
            }
        }
    };
    *lock(why) = reason;
    ended.store(true, Ordering::SeqCst);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::backlog::{MOST_BYTES, MOST_MESSAGES};

    fn news(text: &str) -> LinkNews {
        LinkNews::Message(HostMessage::Bye {
            reason: text.to_string(),
        })
    }

    /// The host's state of a game whose record is `pdn`.
    fn state(pdn: &str) -> LinkNews {
        LinkNews::Message(HostMessage::State {
            state: GameState {
                pdn: pdn.to_string(),
                clocks: None,
                running: None,
                draw_offer: None,
                undo_asked: None,
                player_connected: true,
                spectators: 0,
                joiner_side: Side::White,
                game_number: 1,
            },
        })
    }

    #[test]
    fn the_inbox_holds_lines_up_to_its_bytes_and_one_longer_line_alone() {
        let inbox = Inbox::default();
        assert!(inbox.put(news("first"), MOST_BYTES / 2));
        assert!(inbox.put(news("second"), MOST_BYTES / 2));
        // Full by bytes though it holds two messages: a third waits for the board.
        assert!(!lock(&inbox.waiting).has_room_for(1));
        assert_eq!(inbox.take().len(), 2);
        assert!(lock(&inbox.waiting).has_room_for(MOST_BYTES));
        // A line longer than the bound still goes in, alone.
        assert!(inbox.put(news("long"), 3 * MOST_BYTES));
        assert!(!lock(&inbox.waiting).has_room_for(0));
        assert_eq!(inbox.take().len(), 1);
    }

    #[test]
    fn the_inbox_holds_at_most_its_count_of_short_messages() {
        let inbox = Inbox::default();
        for n in 0..MOST_MESSAGES {
            assert!(inbox.put(news(&n.to_string()), 10));
        }
        assert!(!lock(&inbox.waiting).has_room_for(10));
        assert_eq!(inbox.take().len(), MOST_MESSAGES);
    }

    #[test]
    fn a_new_state_frees_the_bytes_of_the_state_it_replaces() {
        let inbox = Inbox::default();
        assert!(inbox.put(state("1. 11-15 *"), MOST_BYTES - 10));
        assert!(inbox.put(state("1. 11-15 *"), MOST_BYTES - 10));
        assert!(lock(&inbox.waiting).has_room_for(10));
        assert!(inbox.put(news("after"), 10));
        let taken = inbox.take();
        assert_eq!(taken.len(), 2);
        assert!(matches!(
            taken[0],
            LinkNews::Message(HostMessage::State { .. })
        ));
    }

    /// A state that comes while one waits takes its place, before the news that came
    /// after it: a move's words (told after the state with the move) still follow a
    /// state with the move, and are shown (they came first, and were not, when a state
    /// came before the board read: a spectator joining, the clocks told again).
    #[test]
    fn a_new_state_stands_where_the_state_it_replaces_stood() {
        let inbox = Inbox::default();
        assert!(inbox.put(state("1. 11-15 *"), 100));
        assert!(inbox.put(news("Black played 11-15"), 10));
        assert!(inbox.put(state("1. 11-15 * (2 watching)"), 100));
        let taken = inbox.take();
        assert_eq!(taken.len(), 2, "{taken:?}");
        assert!(
            matches!(&taken[0], LinkNews::Message(HostMessage::State { state }) if state.pdn.contains("watching")),
            "{taken:?}"
        );
        assert!(
            matches!(&taken[1], LinkNews::Message(HostMessage::Bye { reason }) if reason == "Black played 11-15"),
            "{taken:?}"
        );
    }

    #[test]
    fn a_closed_inbox_refuses_news_rather_than_wait() {
        let inbox = Inbox::default();
        assert!(inbox.put(news("first"), MOST_BYTES));
        inbox.close();
        assert!(!inbox.put(news("second"), 1));
    }
}
