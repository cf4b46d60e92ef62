//! The host's connections: a listener that takes peers on a thread of its own, a reader
//! thread for each peer that makes the key exchange on the game's code and opens its
//! frames into [`ClientMessage`]s, and a writer thread for each with a bounded queue,
//! which seals what goes out, so a peer that stops reading cannot hold the game up.
//! Nothing here knows the game: the messages come out of [`Connections::incoming`] for
//! the runtime to judge.
//!
//! The line is sealed ([`secure`](super::secure)): a peer's first frame proves it knows
//! the code, or it comes out as [`Incoming::Unproven`] (a wrong code, for the runtime to
//! count); the host proves the code in turn only when the runtime says so
//! ([`Connections::prove`]), so that an address made to wait after wrong codes learns
//! nothing of its guess. Until then what the host says is plain: refusals only.
//!
//! Every address is bounded before any work is done for it: at most
//! [`OPENINGS`](super::openings::OPENINGS) connections in
//! [`OPENINGS_WINDOW`](super::openings::OPENINGS_WINDOW) (each opening costs a key
//! exchange), the rest refused at once, for now.
//!
//! Every peer is bounded: at most [`MAX_PEERS`] at once, the key exchange and a greeting
//! within [`HELLO_WAIT`], silence no longer than [`SILENCE`] (clients ping), messages of
//! at most [`MAX_LINE`](super::protocol::MAX_LINE) bytes, at most [`FLOOD_LIMIT`]
//! messages in [`FLOOD_WINDOW`], and [`QUEUE`] messages waiting to be written. A peer
//! past any bound, or whose frame does not open, is told why and let go; the game is
//! untouched.
//!
//! The door is held shut until the runtime opens it: after a greeting nothing more is
//! read from a peer until the runtime [admits](Connections::admit) it, and a peer it
//! refuses is never read again. Connections that have not been admitted are few per
//! address ([`WAITING_PER_ADDRESS`]), and when the table is full a new connection
//! takes the place of the oldest one still waiting, so silent connections cannot keep
//! the player from their seat.

use super::openings::{OPENINGS, OPENINGS_WINDOW, Openings};
use super::protocol::{
    ClientMessage, HostMessage, ProtocolError, VERSION, read_message, version_refusal,
    write_message,
};
use super::secure::{End, Handshake, HostOpening, Opening, Sealer, read_frame};
use std::collections::HashMap;
use std::io::{self, BufReader};
use std::net::{IpAddr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most peers connected at once (a player and spectators).
pub(crate) const MAX_PEERS: usize = 64;

/// How long a new peer has to say who it is.
pub(crate) const HELLO_WAIT: Duration = Duration::from_secs(10);

/// How long a peer may say nothing (clients ping every few seconds): a player whose
/// line went silent is let go this soon, and the clocks stop.
pub(crate) const SILENCE: Duration = Duration::from_secs(15);

/// Connections from one address (an IPv6 /64) that may wait to be admitted at once.
pub(crate) const WAITING_PER_ADDRESS: usize = 4;

/// Messages a peer may send within [`FLOOD_WINDOW`].
pub(crate) const FLOOD_LIMIT: usize = 200;

/// The window [`FLOOD_LIMIT`] counts in.
pub(crate) const FLOOD_WINDOW: Duration = Duration::from_secs(10);

/// Messages waiting to be written to one peer before it counts as gone.
pub(crate) const QUEUE: usize = 256;

/// How long a write to a peer may take.
const WRITE_WAIT: Duration = Duration::from_secs(10);

/// The bounds every peer is held to (the constants above, or smaller ones in tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Bounds {
    /// The most peers at once.
    pub(crate) peers: usize,
    /// How long a new peer has to greet.
    pub(crate) hello_wait: Duration,
    /// How long a peer may go without a whole message.
    pub(crate) silence: Duration,
    /// Messages a peer may send within `flood_window`.
    pub(crate) flood_limit: usize,
    /// The window `flood_limit` counts in.
    pub(crate) flood_window: Duration,
    /// Connections from one address that may wait to be admitted at once.
    pub(crate) waiting_per_address: usize,
    /// Connections (key exchanges) one address may open within `openings_window`.
    pub(crate) openings: u32,
    /// The window `openings` counts in.
    pub(crate) openings_window: Duration,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            peers: MAX_PEERS,
            hello_wait: HELLO_WAIT,
            silence: SILENCE,
            flood_limit: FLOOD_LIMIT,
            flood_window: FLOOD_WINDOW,
            waiting_per_address: WAITING_PER_ADDRESS,
            openings: OPENINGS,
            openings_window: OPENINGS_WINDOW,
        }
    }
}

/// The address a peer's connections are counted under: an IPv4 address, or an IPv6
/// address's /64 network (one machine commonly holds a whole /64).
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let s = v6.segments();
                IpAddr::V6(std::net::Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
            }
        },
    }
}

/// A span of time in words: "10 seconds", "300 ms".
fn span(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else {
        format!("{} seconds", d.as_secs())
    }
}

/// A peer's number, for as long as the host runs.
pub(crate) type PeerId = u64;

/// What comes from the peers.
#[derive(Debug)]
pub(crate) enum Incoming {
    /// A peer connected from this address.
    Opened(PeerId, SocketAddr),
    /// A peer's message (its greeting first, once its first frame proved the code).
    Message(PeerId, ClientMessage),
    /// A peer's first frame did not prove the game's code: a wrong code, to be counted
    /// and refused (plainly: the host cannot seal for it).
    Unproven(PeerId),
    /// A peer's first frame proved the code but what followed was no greeting (why): to
    /// be refused as a wrong code is while its address waits, so that nothing but the
    /// runtime's judgement answers a guess.
    Ungreeted(PeerId, String),
    /// A peer is gone, and why (in words).
    Closed(PeerId, String),
}

/// The listener and the peers it took.
#[derive(Debug)]
pub(crate) struct Connections {
    address: SocketAddr,
    /// The most peers at once ([`Bounds::peers`]).
    most_peers: usize,
    incoming: Receiver<Incoming>,
    peers: Arc<Mutex<HashMap<PeerId, Peer>>>,
    bell: super::Bell,
    writers: Arc<Writers>,
}

/// The peers' writers still at work, so that a host that ends can wait for its last
/// words to be written before the process (and its threads) ends.
#[derive(Debug, Default)]
struct Writers {
    /// How many writers are running.
    running: Mutex<usize>,
    /// Told whenever a writer ends.
    ended: std::sync::Condvar,
}

impl Writers {
    /// Counts a writer in until the returned token is dropped (its thread ends).
    fn start(self: &Arc<Self>) -> WriterRunning {
        *lock(&self.running) += 1;
        WriterRunning(Arc::clone(self))
    }

    /// Waits until no writer runs, or `within` has passed.
    fn wait_all(&self, within: Duration) {
        let deadline = Instant::now() + within;
        let mut running = lock(&self.running);
        while *running > 0 {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return;
            }
            running = match self.ended.wait_timeout(running, left) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
    }
}

/// A running writer's place in [`Writers`], given up when its thread ends.
#[derive(Debug)]
struct WriterRunning(Arc<Writers>);

impl Drop for WriterRunning {
    fn drop(&mut self) {
        *lock(&self.0.running) -= 1;
        self.0.ended.notify_all();
    }
}

/// One peer's way out: its writer's queue and its socket (to close it), the watch on
/// how long its next message takes, the address it is counted under, and the door its
/// reader waits at after a greeting (opened by [`Connections::admit`]; dropped, the
/// reader stops).
#[derive(Debug)]
struct Peer {
    queue: SyncSender<Out>,
    stream: TcpStream,
    watch: Arc<Watch>,
    address: IpAddr,
    door: SyncSender<()>,
}

/// When a peer's next whole message is due, in milliseconds from the listener's start,
/// whether it was let go for being late (a peer sending a byte at a time cannot hold
/// its place by never ending a line), and whether the runtime admitted it.
#[derive(Debug, Default)]
struct Watch {
    due: std::sync::atomic::AtomicU64,
    late: std::sync::atomic::AtomicBool,
    admitted: std::sync::atomic::AtomicBool,
}

impl Connections {
    /// Listens at `address` (port 0: a free one is picked; [`address`](Self::address)
    /// says which) for peers that know `code`.
    pub(crate) fn listen(address: SocketAddr, code: &str) -> io::Result<Connections> {
        Connections::listen_within(address, code, Bounds::default())
    }

    /// Listens at `address` for peers that know `code`, holding every peer to `bounds`.
    pub(crate) fn listen_within(
        address: SocketAddr,
        code: &str,
        bounds: Bounds,
    ) -> io::Result<Connections> {
        let listener = TcpListener::bind(address)?;
        let code: Arc<str> = Arc::from(code);
        let address = listener.local_addr()?;
        let (sender, incoming) = mpsc::channel();
        let peers: Arc<Mutex<HashMap<PeerId, Peer>>> = Arc::default();
        let live = Arc::new(AtomicUsize::new(0));
        let writers = Arc::new(Writers::default());
        let taken = (Arc::clone(&peers), Arc::clone(&writers));
        let start = Instant::now();
        let bell = super::Bell::default();
        let told = Told {
            sender,
            bell: bell.clone(),
        };
        std::thread::spawn(move || accept(listener, told, taken, live, start, bounds, &code));
        let watched = Arc::downgrade(&peers);
        let every = bounds
            .hello_wait
            .min(bounds.silence)
            .min(Duration::from_secs(4))
            / 4;
        std::thread::spawn(move || watch_late(watched, start, every));
        Ok(Connections {
            address,
            most_peers: bounds.peers,
            incoming,
            peers,
            bell,
            writers,
        })
    }

    /// From now on, `waker` is called whenever something comes from a peer.
    pub(crate) fn wake_with(&self, waker: super::Waker) {
        self.bell.set(waker);
    }

    /// Where the host listens.
    pub(crate) fn address(&self) -> SocketAddr {
        self.address
    }

    /// How many spectators the table takes: all its places but two, kept for the
    /// player (and for the player's new connection while the old one, gone silent, is
    /// still held), so that a crowd of spectators cannot keep the player from the seat.
    pub(crate) fn spectator_places(&self) -> usize {
        self.most_peers.saturating_sub(2)
    }

    /// What came from the peers since the last call.
    pub(crate) fn incoming(&self) -> Vec<Incoming> {
        self.incoming.try_iter().collect()
    }

    /// Sends `message` to `peer` (sealed once the host proved the code to it, plain
    /// before: a refusal); a peer whose queue is full (it does not read) is let go.
    pub(crate) fn send(&self, peer: PeerId, message: &HostMessage) {
        let Ok(json) = serde_json::to_vec(message) else {
            return;
        };
        self.queue(peer, Out::Message(json));
    }

    /// Proves the game's code to `peer`, whose greeting proved it: from now on what it
    /// is sent is sealed.
    pub(crate) fn prove(&self, peer: PeerId) {
        self.queue(peer, Out::Prove);
    }

    /// Queues `out` for `peer`'s writer; a peer whose queue is full is let go.
    fn queue(&self, peer: PeerId, out: Out) {
        let mut peers = lock(&self.peers);
        let full = match peers.get(&peer) {
            Some(p) => matches!(p.queue.try_send(out), Err(TrySendError::Full(_))),
            None => false,
        };
        if full && let Some(p) = peers.remove(&peer) {
            let _ = p.stream.shutdown(Shutdown::Both);
        }
    }

    /// Tells `peer` why with `message`, then lets it go: nothing more it sent is read.
    pub(crate) fn close(&self, peer: PeerId, message: &HostMessage) {
        self.send(peer, message);
        self.let_go(peer);
    }

    /// Lets `peer` go without a last word (after what was queued for it): for a line
    /// its other end counted down already, where a goodbye would read as the host's.
    pub(crate) fn let_go(&self, peer: PeerId) {
        // Its writer sends what is queued, then closes the socket; its reader, waiting
        // at the door or not, reads no further.
        if let Some(p) = lock(&self.peers).remove(&peer) {
            let _ = p.stream.shutdown(Shutdown::Read);
        }
    }

    /// Lets every peer go (after what [`close`](Self::close) or [`send`](Self::send)
    /// queued for it) and waits up to `within` for their writers to send what is
    /// queued: the host is ending, and its last word must not end with its process
    /// unsent.
    pub(crate) fn end(&self, within: Duration) {
        let peers: Vec<Peer> = lock(&self.peers).drain().map(|(_, p)| p).collect();
        for peer in &peers {
            let _ = peer.stream.shutdown(Shutdown::Read);
        }
        // Their queues' senders dropped with them: each writer ends once it has sent
        // what is queued (its reader, its socket shut for reading, ends too).
        drop(peers);
        self.writers.wait_all(within);
    }

    /// Lets `peer`, which greeted, in: its next messages are read.
    pub(crate) fn admit(&self, peer: PeerId) {
        if let Some(p) = lock(&self.peers).get(&peer) {
            p.watch.admitted.store(true, Ordering::SeqCst);
            let _ = p.door.try_send(());
        }
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Where the listener's threads tell what came, and the bell they ring with it.
#[derive(Clone)]
struct Told {
    sender: Sender<Incoming>,
    bell: super::Bell,
}

impl Told {
    /// Tells `incoming`; false once the host has ended.
    fn tell(&self, incoming: Incoming) -> bool {
        let told = self.sender.send(incoming).is_ok();
        self.bell.ring();
        told
    }
}

/// What a peer's writer is given: a message (JSON, sealed once the host proved the code,
/// a plain line before), the key to seal with (from the reader, once the peer proved
/// the code), and the word to prove the code to the peer (from the runtime).
enum Out {
    /// A message to send.
    Message(Vec<u8>),
    /// The key the messages are sealed with, once the host has proved the code.
    Key(Sealer),
    /// Prove the code to the peer: seal from now on.
    Prove,
}

impl std::fmt::Debug for Out {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Out::Message(_) => "Message",
            Out::Key(_) => "Key",
            Out::Prove => "Prove",
        })
    }
}

/// Takes peers until the host ends (the receiver is dropped); each peer's key exchange
/// is made on `code`.
fn accept(
    listener: TcpListener,
    sender: Told,
    (peers, writers): (Arc<Mutex<HashMap<PeerId, Peer>>>, Arc<Writers>),
    live: Arc<AtomicUsize>,
    start: Instant,
    bounds: Bounds,
    code: &Arc<str>,
) {
    let mut next: PeerId = 0;
    let mut openings = Openings::new(bounds.openings, bounds.openings_window);
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        next += 1;
        let id = next;
        let Ok(address) = stream.peer_addr() else {
            continue;
        };
        let key = address_key(address.ip());
        // Refused before its key exchange: one address cannot keep a core busy with them.
        if !openings.may_open(key, Instant::now()) {
            refuse(
                stream,
                format!(
                    "too many connections from {key} in {}: try again shortly",
                    span(bounds.openings_window)
                ),
            );
            continue;
        }
        // Threads of peers let go wind down in moments; this bounds them meanwhile.
        if live.load(Ordering::SeqCst) >= 2 * bounds.peers {
            refuse(
                stream,
                format!("the table is full ({} connections)", bounds.peers),
            );
            continue;
        }
        if let Err(why) = make_room(&peers, key, bounds) {
            refuse(stream, why);
            continue;
        }
        // Counted once it goes on to its key exchange: a connection refused above cost
        // little, and spends none of its address's openings.
        openings.open(key, Instant::now());
        // A move is one short line: sent at once, not held to fill a packet.
        let _ = stream.set_nodelay(true);
        let (Ok(reader), Ok(writer), Ok(closer)) =
            (stream.try_clone(), stream.try_clone(), stream.try_clone())
        else {
            continue;
        };
        let (queue, lines) = mpsc::sync_channel(QUEUE);
        let answer = queue.clone();
        let (door, door_wait) = mpsc::sync_channel(1);
        let watch = Arc::new(Watch::default());
        watch.expect(start, bounds.hello_wait);
        lock(&peers).insert(
            id,
            Peer {
                queue,
                stream: closer,
                watch: Arc::clone(&watch),
                address: key,
                door,
            },
        );
        if !sender.tell(Incoming::Opened(id, address)) {
            return;
        }
        live.fetch_add(1, Ordering::SeqCst);
        let running = writers.start();
        std::thread::spawn(move || {
            write_lines(writer, lines);
            drop(running);
        });
        let (sender, peers, live) = (sender.clone(), Arc::clone(&peers), Arc::clone(&live));
        let code = Arc::clone(code);
        std::thread::spawn(move || {
            let peer = Reading {
                id,
                sender: &sender,
                watch: &watch,
                door: &door_wait,
                start,
                bounds,
            };
            let ended = peer.read(reader, answer, &code);
            let why = ended.why().to_string();
            if let Some(p) = lock(&peers).remove(&id) {
                // The peer is told why, if it still listens.
                let _ = p.queue.try_send(ended.told());
            }
            live.fetch_sub(1, Ordering::SeqCst);
            sender.tell(Incoming::Closed(id, why));
        });
    }
}

/// A [`HostMessage::Bye`] with `reason`, for a peer's writer.
fn bye(reason: &str) -> Out {
    let bye = HostMessage::Bye {
        reason: reason.to_string(),
    };
    Out::Message(serde_json::to_vec(&bye).unwrap_or_default())
}

/// How a peer's reading ended: why, and whether the peer is refused for good (another
/// version) or only told goodbye.
#[derive(Debug)]
enum Ended {
    /// Goodbye, and why.
    Bye(String),
    /// Refused for good, and why.
    Refused(String),
}

impl Ended {
    fn why(&self) -> &str {
        match self {
            Ended::Bye(why) | Ended::Refused(why) => why,
        }
    }

    /// What the peer is told.
    fn told(&self) -> Out {
        match self {
            Ended::Bye(why) => bye(why),
            Ended::Refused(why) => {
                let refused = HostMessage::Refused {
                    reason: why.clone(),
                    lasting: true,
                };
                Out::Message(serde_json::to_vec(&refused).unwrap_or_default())
            }
        }
    }
}

/// Room for a new connection from `key`: refused (why) when that address has as many
/// connections waiting to be admitted as it may; when the table is full, the oldest
/// connection still waiting is let go to make room, and only a table full of admitted
/// peers refuses.
fn make_room(
    peers: &Mutex<HashMap<PeerId, Peer>>,
    key: IpAddr,
    bounds: Bounds,
) -> Result<(), String> {
    let mut peers = lock(peers);
    let waiting = |p: &Peer| !p.watch.admitted.load(Ordering::SeqCst);
    let from_here = peers
        .values()
        .filter(|p| p.address == key && waiting(p))
        .count();
    if from_here >= bounds.waiting_per_address {
        return Err(format!(
            "{from_here} connections from {key} are already waiting to greet"
        ));
    }
    if peers.len() < bounds.peers {
        return Ok(());
    }
    let oldest = peers
        .iter()
        .filter(|(_, p)| waiting(p))
        .map(|(id, _)| *id)
        .min();
    let Some(oldest) = oldest else {
        return Err(format!("the table is full ({} connections)", bounds.peers));
    };
    if let Some(p) = peers.remove(&oldest) {
        let _ = p
            .queue
            .try_send(bye("the table is full: a newer connection took this place"));
        let _ = p.stream.shutdown(Shutdown::Read);
    }
    Ok(())
}

/// A connection with no room: told why, at once, and let go (it may try again later).
fn refuse(mut stream: TcpStream, reason: String) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = write_message(
        &mut stream,
        &HostMessage::Refused {
            reason,
            lasting: false,
        },
    );
    let _ = stream.shutdown(Shutdown::Both);
}

/// One peer's reader: where it tells what came, the watch on its next whole message,
/// the door it waits at after its greeting, and the bounds it is held to.
struct Reading<'a> {
    id: PeerId,
    sender: &'a Told,
    watch: &'a Watch,
    door: &'a Receiver<()>,
    start: Instant,
    bounds: Bounds,
}

impl Reading<'_> {
    /// Reads the peer until it goes or breaks a bound: how it ended. First the key
    /// exchange on `code` (the host's part sent through `answer`, the peer's writer's
    /// queue), then the peer's proof of the code and its greeting; after it nothing is
    /// read until the runtime opens the door (it admitted the peer), and a peer it
    /// refuses is not read again.
    fn read(&self, stream: TcpStream, answer: SyncSender<Out>, code: &str) -> Ended {
        let closer = stream.try_clone().ok();
        let mut reader = BufReader::new(stream);
        let ended = self.read_from(&mut reader, answer, code);
        if let Some(stream) = closer {
            // Reading ends here; the writer still sends the reason.
            let _ = stream.shutdown(Shutdown::Read);
        }
        ended
    }

    fn read_from(
        &self,
        reader: &mut BufReader<TcpStream>,
        answer: SyncSender<Out>,
        code: &str,
    ) -> Ended {
        let failed = || Ended::Bye("the connection failed".to_string());
        // The whole exchange and the greeting are due within the wait for a greeting:
        // the watch, set when the peer connected, is not set again before.
        if reader
            .get_ref()
            .set_read_timeout(Some(self.bounds.hello_wait))
            .is_err()
        {
            return failed();
        }
        let (version, pake) = match read_message::<Opening, _>(reader) {
            Ok(Opening::Hello { version, pake, .. }) => (version, pake),
            Err(e) => return Ended::Bye(self.why(e, false)),
        };
        if version != VERSION {
            // An older joiner has sent its code in clear by now: it is not looked at.
            return Ended::Refused(version_refusal(version));
        }
        let Some(pake) = pake else {
            let e = ProtocolError::Malformed("an opening without a key exchange".to_string());
            return Ended::Bye(e.to_string());
        };
        let handshake = Handshake::start(End::Host, code);
        let ours = HostOpening::Pake {
            version: VERSION,
            pake: handshake.message(),
        };
        let Ok(ours) = serde_json::to_vec(&ours) else {
            return failed();
        };
        if answer.try_send(Out::Message(ours)).is_err() {
            return failed();
        }
        let (sealer, mut opener) = match handshake.finish(&pake) {
            Ok(keys) => keys,
            Err(e) => return Ended::Bye(e.to_string()),
        };
        // The proof and the greeting are read alike whether the proof holds or not, so
        // that when the host answers tells nothing of a guess.
        let frames = read_frame(reader).and_then(|proof| Ok((proof, read_frame(reader)?)));
        let (proof, greeting) = match frames {
            Ok(frames) => frames,
            Err(e) => return Ended::Bye(self.why(e, false)),
        };
        if opener.check_proof(&proof).is_err() {
            // A wrong code: the runtime counts it and refuses the peer, plainly, at its
            // next look; nothing more is read.
            return self.judged(Incoming::Unproven(self.id));
        }
        if answer.try_send(Out::Key(sealer)).is_err() {
            return failed();
        }
        drop(answer);
        // Whatever follows a right proof is the runtime's to answer: a goodbye from
        // here would tell an address made to wait that its guess was right.
        let hello = match opener.message::<ClientMessage>(&greeting) {
            Ok(hello @ ClientMessage::Hello { .. }) => hello,
            Ok(_) => {
                let why = "a greeting comes first".to_string();
                return self.judged(Incoming::Ungreeted(self.id, why));
            }
            Err(e) => return self.judged(Incoming::Ungreeted(self.id, e.to_string())),
        };
        self.watch.expect(self.start, self.bounds.silence);
        if !self.sender.tell(Incoming::Message(self.id, hello)) {
            return Ended::Bye("the host ended".to_string());
        }
        // The runtime answers at its next look at the line, within moments.
        if self.door.recv_timeout(self.bounds.hello_wait).is_err() {
            return Ended::Bye("refused".to_string());
        }
        if reader
            .get_ref()
            .set_read_timeout(Some(self.bounds.silence))
            .is_err()
        {
            return failed();
        }
        let mut recent: std::collections::VecDeque<Instant> = Default::default();
        loop {
            let message = match opener.read::<ClientMessage, _>(reader) {
                Ok((message, _)) => message,
                Err(e) => return Ended::Bye(self.why(e, true)),
            };
            self.watch.expect(self.start, self.bounds.silence);
            let now = Instant::now();
            recent.push_back(now);
            while recent
                .front()
                .is_some_and(|t| now.duration_since(*t) > self.bounds.flood_window)
            {
                recent.pop_front();
            }
            if recent.len() > self.bounds.flood_limit {
                return Ended::Bye(format!(
                    "more than {} messages in {}",
                    self.bounds.flood_limit,
                    span(self.bounds.flood_window)
                ));
            }
            if !self.sender.tell(Incoming::Message(self.id, message)) {
                return Ended::Bye("the host ended".to_string());
            }
        }
    }

    /// Tells the runtime `incoming`, a guess for it to judge, and waits for its answer
    /// (it lets the peer go, telling it why): nothing more is read.
    fn judged(&self, incoming: Incoming) -> Ended {
        if !self.sender.tell(incoming) {
            return Ended::Bye("the host ended".to_string());
        }
        let _ = self.door.recv_timeout(self.bounds.hello_wait);
        Ended::Bye("refused".to_string())
    }

    /// Why reading failed with `e`, in words, the peer `greeted` or not.
    fn why(&self, e: ProtocolError, greeted: bool) -> String {
        let wait = if greeted {
            self.bounds.silence
        } else {
            self.bounds.hello_wait
        };
        match e {
            ProtocolError::Io(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                if greeted {
                    format!("nothing heard for {}", span(wait))
                } else {
                    format!("no greeting within {}", span(wait))
                }
            }
            _ if self.watch.late.load(Ordering::SeqCst) => {
                format!("no whole message within {}", span(wait))
            }
            e => e.to_string(),
        }
    }
}

impl Watch {
    /// The next whole message is due within `wait` from now.
    fn expect(&self, start: Instant, wait: Duration) {
        let due = start.elapsed() + wait;
        self.due
            .store(due.as_millis() as u64, std::sync::atomic::Ordering::SeqCst);
    }
}

/// Every `every`, lets go the peers whose next message is late, until the listener's
/// peers are gone.
fn watch_late(
    peers: std::sync::Weak<Mutex<HashMap<PeerId, Peer>>>,
    start: Instant,
    every: Duration,
) {
    loop {
        std::thread::sleep(every);
        let Some(peers) = peers.upgrade() else {
            return;
        };
        let now = start.elapsed().as_millis() as u64;
        for peer in lock(&peers).values() {
            if peer.watch.due.load(Ordering::SeqCst) < now {
                peer.watch.late.store(true, Ordering::SeqCst);
                let _ = peer.stream.shutdown(Shutdown::Read);
            }
        }
    }
}

/// Writes what is queued for a peer until its queue is dropped or a write fails: plain
/// lines until the host proves the code, sealed frames after.
fn write_lines(mut stream: TcpStream, queue: Receiver<Out>) {
    let _ = stream.set_write_timeout(Some(WRITE_WAIT));
    let mut key: Option<Sealer> = None;
    let mut sealing = false;
    for out in queue {
        let bytes = match (out, key.as_mut()) {
            (Out::Key(sealer), _) => {
                key = Some(sealer);
                continue;
            }
            (Out::Prove, Some(sealer)) if !sealing => {
                sealing = true;
                sealer.prove()
            }
            (Out::Prove, _) => {
                // No key (or proved twice): nothing more may go out plain.
                break;
            }
            (Out::Message(json), Some(sealer)) if sealing => sealer.seal(&json),
            (Out::Message(mut line), _) => {
                line.push(b'\n');
                line
            }
        };
        if io::Write::write_all(&mut stream, &bytes).is_err() {
            break;
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::protocol::{RemoteCommand, Role};
    use crate::net::secure::Opener;
    use std::io::{Read, Write};

    const CODE: &str = "oak-4821-elm-0937";

    /// Bounds with waits short enough for the tests of those waits to see them pass.
    fn tight() -> Bounds {
        Bounds {
            peers: 3,
            hello_wait: Duration::from_millis(300),
            silence: Duration::from_millis(300),
            flood_limit: 20,
            flood_window: Duration::from_secs(5),
            waiting_per_address: 2,
            openings: 1000,
            openings_window: Duration::from_secs(10),
        }
    }

    /// The tight bounds, but with half a minute to greet and to be silent: for the tests
    /// of anything else, whose peers must not be let go because the test's thread waited
    /// its turn on a loaded machine for longer than 300 ms.
    fn patient() -> Bounds {
        Bounds {
            hello_wait: Duration::from_secs(30),
            silence: Duration::from_secs(30),
            ..tight()
        }
    }

    /// A host on the loopback address, with the patient bounds.
    fn host() -> Connections {
        host_within(patient())
    }

    /// A host on the loopback address, within `bounds`.
    fn host_within(bounds: Bounds) -> Connections {
        Connections::listen_within(SocketAddr::from(([127, 0, 0, 1], 0)), CODE, bounds).unwrap()
    }

    /// What the host said before letting `stream` go.
    fn last_words(stream: &mut TcpStream) -> String {
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .unwrap();
        let mut said = String::new();
        let _ = stream.read_to_string(&mut said);
        said
    }

    /// Waits for the host to tell that a peer is gone, and why.
    fn closed(connections: &Connections) -> String {
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            for incoming in connections.incoming() {
                if let Incoming::Closed(_, why) = incoming {
                    return why;
                }
            }
            assert!(Instant::now() < deadline, "no peer was let go");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// A peer speaking the line by hand: its stream, its reader and its keys.
    struct Client {
        stream: TcpStream,
        reader: BufReader<TcpStream>,
        sealer: Sealer,
        opener: Opener,
    }

    impl Client {
        /// Connects, makes the key exchange on `code`, proves it and sends `first`
        /// sealed behind the proof, and `then` behind it, all in one write.
        fn greeting(
            connections: &Connections,
            code: &str,
            first: &ClientMessage,
            then: &[ClientMessage],
        ) -> Client {
            let mut stream = TcpStream::connect(connections.address()).unwrap();
            stream
                .set_read_timeout(Some(Duration::from_secs(5)))
                .unwrap();
            let handshake = Handshake::start(End::Guest, code);
            write_message(&mut stream, &handshake.opening()).unwrap();
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            let HostOpening::Pake { pake, .. } = read_message(&mut reader).unwrap() else {
                panic!("no key exchange");
            };
            let (mut sealer, opener) = handshake.finish(&pake).unwrap();
            let mut wire = sealer.prove();
            for message in std::iter::once(first).chain(then) {
                wire.extend(sealer.seal_message(message).unwrap());
            }
            stream.write_all(&wire).unwrap();
            Client {
                stream,
                reader,
                sealer,
                opener,
            }
        }

        /// A player's greeting with the right code, and `then` behind it.
        fn hello(connections: &Connections, then: &[ClientMessage]) -> Client {
            Client::greeting(connections, CODE, &hello(), then)
        }

        /// Sends `message` sealed.
        fn send(&mut self, message: &ClientMessage) -> io::Result<()> {
            self.sealer.send(&mut self.stream, message)
        }

        /// The host's proof, then its messages until it lets the peer go.
        fn sealed_words(&mut self) -> Vec<HostMessage> {
            self.opener.read_proof(&mut self.reader).unwrap();
            let mut said = Vec::new();
            while let Ok((message, _)) = self.opener.read(&mut self.reader) {
                said.push(message);
            }
            said
        }
    }

    fn hello() -> ClientMessage {
        ClientMessage::Hello {
            role: Role::Player,
            name: None,
            seat: None,
        }
    }

    fn resign() -> ClientMessage {
        ClientMessage::Command {
            command: RemoteCommand::Resign,
        }
    }

    #[test]
    fn a_peer_that_never_greets_is_let_go_with_the_reason() {
        let connections = host_within(tight());
        let mut silent = TcpStream::connect(connections.address()).unwrap();
        let why = closed(&connections);
        assert!(why.contains("within 300 ms"), "{why}");
        assert!(last_words(&mut silent).contains("within 300 ms"));
    }

    #[test]
    fn a_peer_sending_a_byte_at_a_time_is_let_go() {
        let connections = host_within(tight());
        let mut slow = TcpStream::connect(connections.address()).unwrap();
        // Bytes keep coming, but never a whole line.
        for _ in 0..8 {
            if slow.write_all(b"{").is_err() {
                break;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let why = closed(&connections);
        assert!(why.contains("no whole message within 300 ms"), "{why}");
    }

    #[test]
    fn a_key_exchange_that_stalls_after_the_opening_is_let_go_within_the_greetings_wait() {
        let connections = host_within(tight());
        let mut stalled = TcpStream::connect(connections.address()).unwrap();
        let handshake = Handshake::start(End::Guest, CODE);
        write_message(&mut stalled, &handshake.opening()).unwrap();
        // The host's part comes; the proof never does.
        let started = Instant::now();
        let why = closed(&connections);
        assert!(why.contains("within 300 ms"), "{why}");
        assert!(started.elapsed() < Duration::from_secs(3));
        let said = last_words(&mut stalled);
        assert!(said.starts_with(r#"{"type":"pake","version":4"#), "{said}");
        assert!(said.contains("within 300 ms"), "{said}");
    }

    /// What came from the peers within a moment, waiting until `until` says enough.
    fn gather(connections: &Connections, until: impl Fn(&[Incoming]) -> bool) -> Vec<Incoming> {
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut seen = Vec::new();
        while !until(&seen) {
            assert!(Instant::now() < deadline, "only {seen:?}");
            seen.extend(connections.incoming());
            std::thread::sleep(Duration::from_millis(5));
        }
        seen
    }

    fn greeted(seen: &[Incoming]) -> Vec<PeerId> {
        seen.iter()
            .filter_map(|i| match i {
                Incoming::Message(id, ClientMessage::Hello { .. }) => Some(*id),
                _ => None,
            })
            .collect()
    }

    /// Admits the peer that greeted first, the host proving the code to it.
    fn admit_first(connections: &Connections) -> PeerId {
        let seen = gather(connections, |s| !greeted(s).is_empty());
        let id = greeted(&seen)[0];
        connections.prove(id);
        connections.admit(id);
        id
    }

    #[test]
    fn a_flooding_peer_is_let_go() {
        let connections = host();
        let mut flood = Client::hello(&connections, &[]);
        admit_first(&connections);
        let mut pings = Vec::new();
        for _ in 0..100 {
            pings.extend(flood.sealer.seal_message(&ClientMessage::Ping).unwrap());
        }
        let _ = flood.stream.write_all(&pings);
        let why = closed(&connections);
        assert!(why.contains("more than 20 messages"), "{why}");
        let said = flood.sealed_words();
        assert!(
            matches!(said.last(), Some(HostMessage::Bye { reason }) if reason.contains("more than 20 messages")),
            "{said:?}"
        );
    }

    #[test]
    fn nothing_but_a_greeting_is_read_before_the_host_admits_the_peer() {
        let connections = host();
        // A greeting and a command behind it, in one write.
        let mut peer = Client::hello(&connections, &[resign()]);
        let seen = gather(&connections, |s| !greeted(s).is_empty());
        let id = greeted(&seen)[0];
        // Refused: the command behind the greeting is never read.
        connections.close(
            id,
            &HostMessage::Refused {
                reason: "the table is full".into(),
                lasting: false,
            },
        );
        let rest = gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Closed(..)))
        });
        assert!(
            !rest
                .iter()
                .any(|i| matches!(i, Incoming::Message(_, ClientMessage::Command { .. }))),
            "{rest:?}"
        );
        // Not proved to: the refusal is plain.
        assert!(last_words(&mut peer.stream).contains("the table is full"));
        // Admitted, the next peer's command is read.
        let _friend = Client::hello(&connections, &[resign()]);
        admit_first(&connections);
        gather(&connections, |s| {
            s.iter()
                .any(|i| matches!(i, Incoming::Message(_, ClientMessage::Command { .. })))
        });
    }

    #[test]
    fn a_wrong_code_comes_as_unproven_and_nothing_behind_it_is_read() {
        let connections = host();
        let mut guess = Client::greeting(&connections, "oak-4821-elm-0938", &hello(), &[resign()]);
        let seen = gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Unproven(_)))
        });
        assert!(greeted(&seen).is_empty(), "{seen:?}");
        let Some(Incoming::Unproven(id)) = seen.iter().find(|i| matches!(i, Incoming::Unproven(_)))
        else {
            unreachable!()
        };
        connections.close(
            *id,
            &HostMessage::Refused {
                reason: "wrong code".into(),
                lasting: true,
            },
        );
        let rest = gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Closed(..)))
        });
        assert!(
            !rest.iter().any(|i| matches!(i, Incoming::Message(..))),
            "{rest:?}"
        );
        let said = last_words(&mut guess.stream);
        assert_eq!(
            said,
            "{\"type\":\"refused\",\"reason\":\"wrong code\",\"lasting\":true}\n"
        );
    }

    #[test]
    fn a_first_message_that_is_not_a_greeting_is_the_runtimes_to_answer() {
        let connections = host();
        let mut peer = Client::greeting(&connections, CODE, &ClientMessage::Ping, &[]);
        // Not answered here: the runtime answers it as it answers a guess.
        let seen = gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Ungreeted(..)))
        });
        let Some(Incoming::Ungreeted(id, why)) =
            seen.iter().find(|i| matches!(i, Incoming::Ungreeted(..)))
        else {
            unreachable!()
        };
        assert_eq!(why, "a greeting comes first");
        let bye = HostMessage::Bye {
            reason: why.clone(),
        };
        connections.close(*id, &bye);
        assert_eq!(
            last_words(&mut peer.stream),
            "{\"type\":\"bye\",\"reason\":\"a greeting comes first\"}\n"
        );
    }

    #[test]
    fn an_opening_of_version_3_is_refused_for_good_before_its_code_is_looked_at() {
        let connections = host();
        let mut old = TcpStream::connect(connections.address()).unwrap();
        old.write_all(
            b"{\"type\":\"hello\",\"version\":3,\"code\":\"oak-4821-elm-0937\",\"role\":\"player\",\"name\":null}\n",
        )
        .unwrap();
        let said = last_words(&mut old);
        assert!(said.contains("\"lasting\":true"), "{said}");
        assert!(
            said.contains("this host speaks version 4 of the protocol, this program version 3"),
            "{said}"
        );
        let seen = gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Closed(..)))
        });
        assert!(greeted(&seen).is_empty());
    }

    #[test]
    fn a_tampered_or_replayed_frame_after_the_greeting_ends_the_connection() {
        for replay in [false, true] {
            let connections = host();
            let mut peer = Client::hello(&connections, &[]);
            admit_first(&connections);
            let mut frame = peer.sealer.seal_message(&resign()).unwrap();
            if replay {
                peer.stream.write_all(&frame).unwrap();
            } else {
                *frame.last_mut().unwrap() ^= 0x20;
            }
            peer.stream.write_all(&frame).unwrap();
            let why = closed(&connections);
            assert!(why.contains("does not open with the line's key"), "{why}");
            let seen = connections.incoming();
            let commands = seen
                .iter()
                .filter(|i| matches!(i, Incoming::Message(_, ClientMessage::Command { .. })))
                .count();
            assert!(commands <= usize::from(replay), "{seen:?}");
        }
    }

    #[test]
    fn a_frame_claiming_a_huge_length_is_refused_unread() {
        let connections = host();
        let mut peer = Client::hello(&connections, &[]);
        admit_first(&connections);
        let mut huge = (u32::MAX).to_be_bytes().to_vec();
        huge.extend(vec![0u8; 4096]);
        let _ = peer.stream.write_all(&huge);
        let why = closed(&connections);
        assert!(why.contains("a message over 256 KB"), "{why}");
    }

    #[test]
    fn an_address_may_hold_only_a_few_connections_waiting_to_greet() {
        let connections = host();
        let _kept: Vec<TcpStream> = (0..2)
            .map(|_| TcpStream::connect(connections.address()).unwrap())
            .collect();
        gather(&connections, |s| {
            s.iter()
                .filter(|i| matches!(i, Incoming::Opened(..)))
                .count()
                == 2
        });
        let mut third = TcpStream::connect(connections.address()).unwrap();
        let words = last_words(&mut third);
        assert!(words.contains("are already waiting to greet"), "{words}");
        assert!(words.contains("\"lasting\":false"), "{words}");
    }

    #[test]
    fn an_address_opening_too_many_connections_is_refused_for_now_before_its_key_exchange() {
        let connections = Connections::listen_within(
            SocketAddr::from(([127, 0, 0, 1], 0)),
            CODE,
            Bounds {
                openings: 3,
                ..patient()
            },
        )
        .unwrap();
        let opening = |stream: &mut TcpStream| {
            let handshake = Handshake::start(End::Guest, CODE);
            // The host may have refused and closed already: its words are what counts.
            let _ = write_message(stream, &handshake.opening());
            let mut reader = BufReader::new(stream.try_clone().unwrap());
            read_message::<HostOpening, _>(&mut reader).unwrap()
        };
        for _ in 0..3 {
            let mut stream = TcpStream::connect(connections.address()).unwrap();
            assert!(matches!(opening(&mut stream), HostOpening::Pake { .. }));
        }
        let mut fourth = TcpStream::connect(connections.address()).unwrap();
        match opening(&mut fourth) {
            HostOpening::Refused { reason, lasting } => {
                assert_eq!(
                    reason,
                    "too many connections from 127.0.0.1 in 10 seconds: try again shortly"
                );
                assert!(!lasting, "a joiner tries again");
            }
            other => panic!("not refused: {other:?}"),
        }
    }

    #[test]
    fn a_full_table_makes_room_by_letting_the_oldest_silent_connection_go() {
        let connections = Connections::listen_within(
            SocketAddr::from(([127, 0, 0, 1], 0)),
            CODE,
            Bounds {
                waiting_per_address: 3,
                ..patient()
            },
        )
        .unwrap();
        // One peer admitted, two silent: the table of three is full.
        let mut admitted = Client::hello(&connections, &[]);
        admit_first(&connections);
        let mut oldest = TcpStream::connect(connections.address()).unwrap();
        gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Opened(..)))
        });
        let _newer = TcpStream::connect(connections.address()).unwrap();
        gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Opened(..)))
        });
        // The player's connection gets in, and greets; the oldest silent one made room.
        let _player = Client::hello(&connections, &[]);
        gather(&connections, |s| !greeted(s).is_empty());
        assert!(last_words(&mut oldest).contains("a newer connection took this place"));
        // Admitted peers are never let go for room: the admitted one still hears only
        // the host's proof.
        admitted.opener.read_proof(&mut admitted.reader).unwrap();
        // Not silent for long, as a client that pings.
        admitted.send(&ClientMessage::Ping).unwrap();
        admitted
            .reader
            .get_ref()
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let mut buf = [0u8; 1];
        assert!(matches!(
            admitted.reader.read(&mut buf),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock
        ));
    }
}
