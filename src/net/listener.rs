//! The host's connections: a listener that takes peers on a thread of its own, a reader
//! thread for each peer that parses its lines into [`ClientMessage`]s, and a writer
//! thread for each with a bounded queue, so a peer that stops reading cannot hold the
//! game up. Nothing here knows the game: the messages come out of
//! [`Connections::incoming`] for the runtime to judge.
//!
//! Every peer is bounded: at most [`MAX_PEERS`] at once, a greeting as its first
//! message within [`HELLO_WAIT`], silence no longer than [`SILENCE`] (clients ping),
//! lines of at most [`MAX_LINE`](super::protocol::MAX_LINE) bytes, at most
//! [`FLOOD_LIMIT`] messages in [`FLOOD_WINDOW`], and [`QUEUE`] messages waiting to be
//! written. A peer past any bound is told why and let go; the game is untouched.
//!
//! The door is held shut until the runtime opens it: after a greeting nothing more is
//! read from a peer until the runtime [admits](Connections::admit) it, and a peer it
//! refuses is never read again. Connections that have not been admitted are few per
//! address ([`WAITING_PER_ADDRESS`]), and when the table is full a new connection
//! takes the place of the oldest one still waiting, so silent connections cannot keep
//! the player from their seat.

use super::protocol::{ClientMessage, HostMessage, ProtocolError, read_message, write_message};
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
    /// A peer's message.
    Message(PeerId, ClientMessage),
    /// A peer is gone, and why (in words).
    Closed(PeerId, String),
}

/// The listener and the peers it took.
#[derive(Debug)]
pub(crate) struct Connections {
    address: SocketAddr,
    incoming: Receiver<Incoming>,
    peers: Arc<Mutex<HashMap<PeerId, Peer>>>,
    bell: super::Bell,
}

/// One peer's way out: its writer's queue and its socket (to close it), the watch on
/// how long its next message takes, the address it is counted under, and the door its
/// reader waits at after a greeting (opened by [`Connections::admit`]; dropped, the
/// reader stops).
#[derive(Debug)]
struct Peer {
    queue: SyncSender<Vec<u8>>,
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
    /// says which).
    pub(crate) fn listen(address: SocketAddr) -> io::Result<Connections> {
        Connections::listen_within(address, Bounds::default())
    }

    /// Listens at `address`, holding every peer to `bounds`.
    pub(crate) fn listen_within(address: SocketAddr, bounds: Bounds) -> io::Result<Connections> {
        let listener = TcpListener::bind(address)?;
        let address = listener.local_addr()?;
        let (sender, incoming) = mpsc::channel();
        let peers: Arc<Mutex<HashMap<PeerId, Peer>>> = Arc::default();
        let live = Arc::new(AtomicUsize::new(0));
        let taken = Arc::clone(&peers);
        let start = Instant::now();
        let bell = super::Bell::default();
        let told = Told {
            sender,
            bell: bell.clone(),
        };
        std::thread::spawn(move || accept(listener, told, taken, live, start, bounds));
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
            bell,
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

    /// What came from the peers since the last call.
    pub(crate) fn incoming(&self) -> Vec<Incoming> {
        self.incoming.try_iter().collect()
    }

    /// Sends `message` to `peer`; a peer whose queue is full (it does not read) is let
    /// go.
    pub(crate) fn send(&self, peer: PeerId, message: &HostMessage) {
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

    /// Tells `peer` why with `message`, then lets it go: nothing more it sent is read.
    pub(crate) fn close(&self, peer: PeerId, message: &HostMessage) {
        self.send(peer, message);
        // Its writer sends what is queued, then closes the socket; its reader, waiting
        // at the door or not, reads no further.
        if let Some(p) = lock(&self.peers).remove(&peer) {
            let _ = p.stream.shutdown(Shutdown::Read);
        }
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

/// Takes peers until the host ends (the receiver is dropped).
fn accept(
    listener: TcpListener,
    sender: Told,
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
        let Ok(address) = stream.peer_addr() else {
            continue;
        };
        let key = address_key(address.ip());
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
        // A move is one short line: sent at once, not held to fill a packet.
        let _ = stream.set_nodelay(true);
        let (Ok(reader), Ok(writer), Ok(closer)) =
            (stream.try_clone(), stream.try_clone(), stream.try_clone())
        else {
            continue;
        };
        let (queue, lines) = mpsc::sync_channel(QUEUE);
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
        std::thread::spawn(move || write_lines(writer, lines));
        let (sender, peers, live) = (sender.clone(), Arc::clone(&peers), Arc::clone(&live));
        std::thread::spawn(move || {
            let why = read_lines(id, reader, &sender, &watch, &door_wait, start, bounds);
            if let Some(p) = lock(&peers).remove(&id) {
                // The peer is told why, if it still listens.
                let _ = p.queue.try_send(bye_line(&why));
            }
            live.fetch_sub(1, Ordering::SeqCst);
            sender.tell(Incoming::Closed(id, why));
        });
    }
}

/// A [`HostMessage::Bye`] with `reason`, as a line.
fn bye_line(reason: &str) -> Vec<u8> {
    let mut line = Vec::new();
    let _ = write_message(
        &mut line,
        &HostMessage::Bye {
            reason: reason.to_string(),
        },
    );
    line
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
        let _ = p.queue.try_send(bye_line(
            "the table is full: a newer connection took this place",
        ));
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

/// Reads `id`'s messages until it goes or breaks a bound: why it ended, in words. The
/// first must be a greeting, and after it nothing is read until the runtime opens the
/// `door` (it admitted the peer); a peer it refuses is not read again.
fn read_lines(
    id: PeerId,
    stream: TcpStream,
    sender: &Told,
    watch: &Watch,
    door: &Receiver<()>,
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
        let hello = matches!(message, ClientMessage::Hello { .. });
        if !greeted && !hello {
            break "a greeting comes first".to_string();
        }
        if !sender.tell(Incoming::Message(id, message)) {
            break "the host ended".to_string();
        }
        if !greeted {
            // The runtime answers at its next look at the line, within moments.
            match door.recv_timeout(bounds.hello_wait) {
                Ok(()) => greeted = true,
                Err(_) => break "refused".to_string(),
            }
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
            waiting_per_address: 2,
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

    const HELLO: &[u8] =
        b"{\"type\":\"hello\",\"version\":2,\"code\":\"c\",\"role\":\"player\",\"name\":null}\n";

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

    #[test]
    fn a_flooding_peer_is_let_go() {
        let connections = host();
        let mut flood = TcpStream::connect(connections.address()).unwrap();
        flood.write_all(HELLO).unwrap();
        let seen = gather(&connections, |s| !greeted(s).is_empty());
        connections.admit(greeted(&seen)[0]);
        let pings = "{\"type\":\"ping\"}\n".repeat(100);
        let _ = flood.write_all(pings.as_bytes());
        let why = closed(&connections);
        assert!(why.contains("more than 20 messages"), "{why}");
        assert!(last_words(&mut flood).contains("more than 20 messages"));
    }

    #[test]
    fn nothing_but_a_greeting_is_read_before_the_host_admits_the_peer() {
        let connections = host();
        let mut peer = TcpStream::connect(connections.address()).unwrap();
        // A greeting and a command behind it, in one write.
        let mut pipelined = HELLO.to_vec();
        pipelined.extend_from_slice(b"{\"type\":\"command\",\"command\":{\"kind\":\"resign\"}}\n");
        peer.write_all(&pipelined).unwrap();
        let seen = gather(&connections, |s| !greeted(s).is_empty());
        let id = greeted(&seen)[0];
        // Refused: the command behind the greeting is never read.
        connections.close(
            id,
            &HostMessage::Refused {
                reason: "wrong code".into(),
                lasting: true,
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
        assert!(last_words(&mut peer).contains("wrong code"));
        // Admitted, the next peer's command is read.
        let mut friend = TcpStream::connect(connections.address()).unwrap();
        friend.write_all(&pipelined).unwrap();
        let seen = gather(&connections, |s| !greeted(s).is_empty());
        connections.admit(greeted(&seen)[0]);
        gather(&connections, |s| {
            s.iter()
                .any(|i| matches!(i, Incoming::Message(_, ClientMessage::Command { .. })))
        });
    }

    #[test]
    fn a_first_message_that_is_not_a_greeting_ends_the_connection() {
        let connections = host();
        let mut peer = TcpStream::connect(connections.address()).unwrap();
        peer.write_all(b"{\"type\":\"ping\"}\n").unwrap();
        assert_eq!(closed(&connections), "a greeting comes first");
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
    fn a_full_table_makes_room_by_letting_the_oldest_silent_connection_go() {
        let connections = Connections::listen_within(
            SocketAddr::from(([127, 0, 0, 1], 0)),
            Bounds {
                waiting_per_address: 3,
                ..tight()
            },
        )
        .unwrap();
        // One peer admitted, two silent: the table of three is full.
        let mut admitted = TcpStream::connect(connections.address()).unwrap();
        admitted.write_all(HELLO).unwrap();
        let seen = gather(&connections, |s| !greeted(s).is_empty());
        connections.admit(greeted(&seen)[0]);
        let mut oldest = TcpStream::connect(connections.address()).unwrap();
        gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Opened(..)))
        });
        let _newer = TcpStream::connect(connections.address()).unwrap();
        gather(&connections, |s| {
            s.iter().any(|i| matches!(i, Incoming::Opened(..)))
        });
        // The player's connection gets in, and greets; the oldest silent one made room.
        let mut player = TcpStream::connect(connections.address()).unwrap();
        player.write_all(HELLO).unwrap();
        gather(&connections, |s| !greeted(s).is_empty());
        assert!(last_words(&mut oldest).contains("a newer connection took this place"));
        // Admitted peers are never let go for room: with three admitted, a fourth is
        // refused.
        admitted
            .set_read_timeout(Some(Duration::from_millis(200)))
            .unwrap();
        let mut buf = [0u8; 1];
        assert!(matches!(
            io::Read::read(&mut admitted, &mut buf),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock
        ));
    }
}
