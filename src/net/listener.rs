//! The host's connections: a listener that takes peers on a thread of its own, a reader
//! thread for each peer that parses its lines into [`ClientMessage`]s, and a writer
//! thread for each with a bounded queue, so a peer that stops reading cannot hold the
//! game up. Nothing here knows the game: the messages come out of
//! [`Connections::incoming`] for the runtime to judge.
//!
//! Every peer is bounded: at most [`MAX_PEERS`] at once (more are told the table is
//! full), a first message within [`HELLO_WAIT`], silence no longer than [`SILENCE`]
//! (clients ping), lines of at most [`MAX_LINE`](super::protocol::MAX_LINE) bytes, at
//! most [`FLOOD_LIMIT`] messages in [`FLOOD_WINDOW`], and [`QUEUE`] messages waiting to
//! be written. A peer past any bound is told why and let go; the game is untouched.

use super::protocol::{ClientMessage, HostMessage, ProtocolError, read_message, write_message};
use std::collections::HashMap;
use std::io::{self, BufReader};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, Sender, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The most peers connected at once (a player and spectators).
pub const MAX_PEERS: usize = 64;

/// How long a new peer has to say who it is.
pub const HELLO_WAIT: Duration = Duration::from_secs(10);

/// How long a peer may say nothing (clients ping every few seconds).
pub const SILENCE: Duration = Duration::from_secs(30);

/// Messages a peer may send within [`FLOOD_WINDOW`].
pub const FLOOD_LIMIT: usize = 200;

/// The window [`FLOOD_LIMIT`] counts in.
pub const FLOOD_WINDOW: Duration = Duration::from_secs(10);

/// Messages waiting to be written to one peer before it counts as gone.
pub const QUEUE: usize = 256;

/// How long a write to a peer may take.
const WRITE_WAIT: Duration = Duration::from_secs(10);

/// The bounds every peer is held to (the constants above, or smaller ones in tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The most peers at once.
    pub peers: usize,
    /// How long a new peer has to greet.
    pub hello_wait: Duration,
    /// How long a peer may go without a whole message.
    pub silence: Duration,
    /// Messages a peer may send within `flood_window`.
    pub flood_limit: usize,
    /// The window `flood_limit` counts in.
    pub flood_window: Duration,
}

impl Default for Bounds {
    fn default() -> Bounds {
        Bounds {
            peers: MAX_PEERS,
            hello_wait: HELLO_WAIT,
            silence: SILENCE,
            flood_limit: FLOOD_LIMIT,
            flood_window: FLOOD_WINDOW,
        }
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
pub type PeerId = u64;

/// What comes from the peers.
#[derive(Debug)]
pub enum Incoming {
    /// A peer connected from this address.
    Opened(PeerId, SocketAddr),
    /// A peer's message.
    Message(PeerId, ClientMessage),
    /// A peer is gone, and why (in words).
    Closed(PeerId, String),
}

/// The listener and the peers it took.
#[derive(Debug)]
pub struct Connections {
    address: SocketAddr,
    incoming: Receiver<Incoming>,
    peers: Arc<Mutex<HashMap<PeerId, Peer>>>,
}

/// One peer's way out: its writer's queue and its socket (to close it), and the
/// watch on how long its next message takes.
#[derive(Debug)]
struct Peer {
    queue: SyncSender<Vec<u8>>,
    stream: TcpStream,
    watch: Arc<Watch>,
}

/// When a peer's next whole message is due, in milliseconds from the listener's start,
/// and whether it was let go for being late: a peer sending a byte at a time cannot
/// hold its place by never ending a line.
#[derive(Debug, Default)]
struct Watch {
    due: std::sync::atomic::AtomicU64,
    late: std::sync::atomic::AtomicBool,
}

impl Connections {
    /// Listens at `address` (port 0: a free one is picked; [`address`](Self::address)
    /// says which).
    pub fn listen(address: SocketAddr) -> io::Result<Connections> {
        Connections::listen_within(address, Bounds::default())
    }

    /// Listens at `address`, holding every peer to `bounds`.
    pub fn listen_within(address: SocketAddr, bounds: Bounds) -> io::Result<Connections> {
        let listener = TcpListener::bind(address)?;
        let address = listener.local_addr()?;
        let (sender, incoming) = mpsc::channel();
        let peers: Arc<Mutex<HashMap<PeerId, Peer>>> = Arc::default();
        let live = Arc::new(AtomicUsize::new(0));
        let taken = Arc::clone(&peers);
        let start = Instant::now();
        std::thread::spawn(move || accept(listener, sender, taken, live, start, bounds));
        let watched = Arc::downgrade(&peers);
        let every = bounds
            .hello_wait
            .min(bounds.silence)
            .min(Duration::from_secs(4))
            / 4;
        std::thread::spawn(move || watch_late(watched, start, every));
        Ok(Connections {
            address,
            incoming,
            peers,
        })
    }

    /// Where the host listens.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// What came from the peers since the last call.
    pub fn incoming(&self) -> Vec<Incoming> {
        self.incoming.try_iter().collect()
    }

    /// Sends `message` to `peer`; a peer whose queue is full (it does not read) is let
    /// go.
    pub fn send(&self, peer: PeerId, message: &HostMessage) {
        let mut line = Vec::new();
        if write_message(&mut line, message).is_err() {
            return;
        }
        let mut peers = lock(&self.peers);
        let full = match peers.get(&peer) {
            Some(p) => matches!(p.queue.try_send(line), Err(TrySendError::Full(_))),
            None => false,
        };
        if full && let Some(p) = peers.remove(&peer) {
            let _ = p.stream.shutdown(Shutdown::Both);
        }
    }

    /// Tells `peer` why with `message`, then lets it go.
    pub fn close(&self, peer: PeerId, message: &HostMessage) {
        self.send(peer, message);
        // Its writer sends what is queued, then closes the socket.
        lock(&self.peers).remove(&peer);
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Takes peers until the host ends (the receiver is dropped).
fn accept(
    listener: TcpListener,
    sender: Sender<Incoming>,
    peers: Arc<Mutex<HashMap<PeerId, Peer>>>,
    live: Arc<AtomicUsize>,
    start: Instant,
    bounds: Bounds,
) {
    let mut next: PeerId = 0;
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        next += 1;
        let id = next;
        if live.load(Ordering::SeqCst) >= bounds.peers {
            refuse_full(stream, bounds.peers);
            continue;
        }
        let Ok(address) = stream.peer_addr() else {
            continue;
        };
        // A move is one short line: sent at once, not held to fill a packet.
        let _ = stream.set_nodelay(true);
        let (Ok(reader), Ok(writer), Ok(closer)) =
            (stream.try_clone(), stream.try_clone(), stream.try_clone())
        else {
            continue;
        };
        let (queue, lines) = mpsc::sync_channel(QUEUE);
        let watch = Arc::new(Watch::default());
        watch.expect(start, bounds.hello_wait);
        lock(&peers).insert(
            id,
            Peer {
                queue,
                stream: closer,
                watch: Arc::clone(&watch),
            },
        );
        if sender.send(Incoming::Opened(id, address)).is_err() {
            return;
        }
        live.fetch_add(1, Ordering::SeqCst);
        std::thread::spawn(move || write_lines(writer, lines));
        let (sender, peers, live) = (sender.clone(), Arc::clone(&peers), Arc::clone(&live));
        std::thread::spawn(move || {
            let why = read_lines(id, reader, &sender, &watch, start, bounds);
            if let Some(p) = lock(&peers).remove(&id) {
                // The peer is told why, if it still listens.
                let mut line = Vec::new();
                if write_message(
                    &mut line,
                    &HostMessage::Bye {
                        reason: why.clone(),
                    },
                )
                .is_ok()
                {
                    let _ = p.queue.try_send(line);
                }
            }
            live.fetch_sub(1, Ordering::SeqCst);
            let _ = sender.send(Incoming::Closed(id, why));
        });
    }
}

/// A peer beyond [`MAX_PEERS`]: told so, at once, and let go.
fn refuse_full(mut stream: TcpStream, peers: usize) {
    let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
    let _ = write_message(
        &mut stream,
        &HostMessage::Refused {
            reason: format!("the table is full ({peers} connections)"),
        },
    );
    let _ = stream.shutdown(Shutdown::Both);
}

/// Reads `id`'s messages until it goes or breaks a bound: why it ended, in words.
fn read_lines(
    id: PeerId,
    stream: TcpStream,
    sender: &Sender<Incoming>,
    watch: &Watch,
    start: Instant,
    bounds: Bounds,
) -> String {
    let closer = stream.try_clone().ok();
    let mut reader = BufReader::new(stream);
    let mut recent: std::collections::VecDeque<Instant> = Default::default();
    let mut greeted = false;
    let why = loop {
        let wait = if greeted {
            bounds.silence
        } else {
            bounds.hello_wait
        };
        if reader.get_ref().set_read_timeout(Some(wait)).is_err() {
            break "the connection failed".to_string();
        }
        let message = match read_message::<ClientMessage, _>(&mut reader) {
            Ok(message) => message,
            Err(ProtocolError::Io(e))
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                ) =>
            {
                break if greeted {
                    format!("nothing heard for {}", span(bounds.silence))
                } else {
                    format!("no greeting within {}", span(bounds.hello_wait))
                };
            }
            Err(_) if watch.late.load(Ordering::SeqCst) => {
                let wait = if greeted {
                    bounds.silence
                } else {
                    bounds.hello_wait
                };
                break format!("no whole message within {}", span(wait));
            }
            Err(e) => break e.to_string(),
        };
        watch.expect(start, bounds.silence);
        let now = Instant::now();
        recent.push_back(now);
        while recent
            .front()
            .is_some_and(|t| now.duration_since(*t) > bounds.flood_window)
        {
            recent.pop_front();
        }
        if recent.len() > bounds.flood_limit {
            break format!(
                "more than {} messages in {}",
                bounds.flood_limit,
                span(bounds.flood_window)
            );
        }
        greeted |= matches!(message, ClientMessage::Hello { .. });
        if sender.send(Incoming::Message(id, message)).is_err() {
            break "the host ended".to_string();
        }
    };
    if let Some(stream) = closer {
        // Reading ends here; the writer still sends the reason.
        let _ = stream.shutdown(Shutdown::Read);
    }
    why
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

/// Writes the queued lines to a peer until its queue is dropped or a write fails.
fn write_lines(mut stream: TcpStream, lines: Receiver<Vec<u8>>) {
    let _ = stream.set_write_timeout(Some(WRITE_WAIT));
    for line in lines {
        if io::Write::write_all(&mut stream, &line).is_err() {
            break;
        }
    }
    let _ = stream.shutdown(Shutdown::Both);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{Read, Write};

    fn tight() -> Bounds {
        Bounds {
            peers: 3,
            hello_wait: Duration::from_millis(300),
            silence: Duration::from_millis(300),
            flood_limit: 20,
            flood_window: Duration::from_secs(5),
        }
    }

    fn host() -> Connections {
        Connections::listen_within(SocketAddr::from(([127, 0, 0, 1], 0)), tight()).unwrap()
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

    #[test]
    fn a_peer_that_never_greets_is_let_go_with_the_reason() {
        let connections = host();
        let mut silent = TcpStream::connect(connections.address()).unwrap();
        let why = closed(&connections);
        assert!(why.contains("within 300 ms"), "{why}");
        assert!(last_words(&mut silent).contains("within 300 ms"));
    }

    #[test]
    fn a_peer_sending_a_byte_at_a_time_is_let_go() {
        let connections = host();
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
    fn a_flooding_peer_is_let_go() {
        let connections = host();
        let mut flood = TcpStream::connect(connections.address()).unwrap();
        let pings = "{\"type\":\"ping\"}\n".repeat(100);
        let _ = flood.write_all(pings.as_bytes());
        let why = closed(&connections);
        assert!(why.contains("more than 20 messages"), "{why}");
        assert!(last_words(&mut flood).contains("more than 20 messages"));
    }

    #[test]
    fn peers_beyond_the_bound_are_told_the_table_is_full() {
        let connections = host();
        let _kept: Vec<TcpStream> = (0..3)
            .map(|_| TcpStream::connect(connections.address()).unwrap())
            .collect();
        // The listener has counted them once it told of them.
        let deadline = Instant::now() + Duration::from_secs(5);
        let mut opened = 0;
        while opened < 3 {
            opened += connections
                .incoming()
                .iter()
                .filter(|i| matches!(i, Incoming::Opened(..)))
                .count();
            assert!(Instant::now() < deadline);
        }
        let mut fourth = TcpStream::connect(connections.address()).unwrap();
        assert!(last_words(&mut fourth).contains("the table is full (3 connections)"));
    }
}
