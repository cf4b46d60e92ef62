//! A joiner's or spectator's line to the host: the first connection made at once (so a
//! wrong code or an absent host is told before the board opens), then kept by a thread
//! of its own, which passes the host's messages on, sends the board's, pings while
//! nothing else is said, and when the line drops connects again by itself every
//! [`RETRY`] until the host is back.

use super::protocol::{
    ClientMessage, GameState, HostMessage, ProtocolError, Role, Side, VERSION, read_message,
    write_message,
};
use std::fmt;
use std::io::{self, BufReader};
use std::net::{Shutdown, SocketAddr, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::time::{Duration, Instant};

/// How long a connection and the host's welcome may take.
pub const CONNECT_WAIT: Duration = Duration::from_secs(5);

/// How often the line is tried again while it is down.
pub const RETRY: Duration = Duration::from_secs(1);

/// How often the client says it is still there when it says nothing else.
pub const PING_EVERY: Duration = Duration::from_secs(5);

/// How long the host may say nothing (it answers every ping) before the line counts as
/// down.
const HOST_SILENCE: Duration = Duration::from_secs(15);

/// Who this end is, as its greeting says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Greeting {
    /// The game's code.
    pub code: String,
    /// A player or a spectator.
    pub role: Role,
    /// The player's name.
    pub name: Option<String>,
}

impl Greeting {
    fn hello(&self) -> ClientMessage {
        ClientMessage::Hello {
            version: VERSION,
            code: self.code.clone(),
            role: self.role,
            name: self.name.clone(),
        }
    }
}

/// Why joining failed.
#[derive(Debug)]
pub enum JoinError {
    /// The address names no host.
    Address(String, io::Error),
    /// No connection could be made.
    Connect(SocketAddr, io::Error),
    /// The host refused, and why.
    Refused(String),
    /// The host's answer was not a welcome: what was wrong.
    Protocol(ProtocolError),
}

impl fmt::Display for JoinError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JoinError::Address(address, e) => write!(f, "address '{address}': {e}"),
            JoinError::Connect(address, e) => write!(
                f,
                "cannot connect to {address}: {e} (is `checkers host` running there?)"
            ),
            JoinError::Refused(why) => write!(f, "the host refused: {why}"),
            JoinError::Protocol(e) => write!(f, "the host's answer: {e}"),
        }
    }
}

impl std::error::Error for JoinError {}

/// What the line tells.
#[derive(Debug)]
pub enum LinkNews {
    /// A message from the host.
    Message(HostMessage),
    /// The line dropped, and why: it is tried again.
    Down(String),
    /// The host refused this end (another code after it was resumed, a player seated
    /// already): the line is not tried again.
    Refused(String),
}

/// The line to the host, kept by its thread.
#[derive(Debug)]
pub struct Link {
    address: SocketAddr,
    news: Receiver<LinkNews>,
    out: Sender<ClientMessage>,
    keeper: Option<std::thread::JoinHandle<()>>,
    timing: Arc<Timing>,
}

/// The line's delay, from the pings: when the last one went, and the last round trip.
#[derive(Debug, Default)]
struct Timing {
    ping_sent: std::sync::Mutex<Option<Instant>>,
    round_trip_micros: std::sync::atomic::AtomicU64,
}

/// The welcome of a joined game.
#[derive(Debug)]
pub struct Welcome {
    /// The side this end plays (none: it watches).
    pub side: Option<Side>,
    /// The game as the host holds it.
    pub state: GameState,
}

impl Link {
    /// Connects to the host at `address` as `greeting` says and waits for its
    /// welcome, then keeps the line.
    pub fn join(address: &str, greeting: Greeting) -> Result<(Link, Welcome), JoinError> {
        let addresses: Vec<SocketAddr> = address
            .to_socket_addrs()
            .map_err(|e| JoinError::Address(address.to_string(), e))?
            .collect();
        let mut last = None;
        for candidate in addresses {
            match greet(candidate, &greeting) {
                Ok((stream, reader, welcome)) => {
                    let (news_in, news) = mpsc::channel();
                    let (out, out_rx) = mpsc::channel();
                    let timing = Arc::new(Timing::default());
                    let kept = Arc::clone(&timing);
                    let keeper = std::thread::spawn(move || {
                        let first = Some((stream, reader));
                        keep(candidate, greeting, first, news_in, out_rx, &kept)
                    });
                    return Ok((
                        Link {
                            address: candidate,
                            news,
                            out,
                            keeper: Some(keeper),
                            timing,
                        },
                        welcome,
                    ));
                }
                Err(e @ (JoinError::Refused(_) | JoinError::Protocol(_))) => return Err(e),
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

    /// The host's address.
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// What the line told since the last call.
    pub fn news(&self) -> Vec<LinkNews> {
        self.news.try_iter().collect()
    }

    /// Sends `message` to the host (dropped while the line is down: the host's state,
    /// told again on reconnecting, is what counts).
    pub fn send(&self, message: ClientMessage) {
        let _ = self.out.send(message);
    }

    /// Half the last round trip of a ping: how late the host's news arrives.
    pub fn delay(&self) -> Duration {
        let micros = self.timing.round_trip_micros.load(Ordering::SeqCst);
        Duration::from_micros(micros / 2)
    }

    /// Lets the line go once what was sent is written (a last "adjourn" reaches the
    /// host before the program ends); a write waits at most [`CONNECT_WAIT`].
    pub fn close(mut self) {
        let Link { out, keeper, .. } = &mut self;
        let (dropped, _) = mpsc::channel();
        drop(std::mem::replace(out, dropped));
        if let Some(keeper) = keeper.take() {
            let _ = keeper.join();
        }
    }
}

type Reader = BufReader<TcpStream>;

/// One connection: made, greeted, welcomed.
fn greet(
    address: SocketAddr,
    greeting: &Greeting,
) -> Result<(TcpStream, Reader, Welcome), JoinError> {
    let mut stream = TcpStream::connect_timeout(&address, CONNECT_WAIT)
        .map_err(|e| JoinError::Connect(address, e))?;
    let _ = stream.set_nodelay(true);
    stream
        .set_read_timeout(Some(CONNECT_WAIT))
        .and_then(|()| stream.set_write_timeout(Some(CONNECT_WAIT)))
        .map_err(|e| JoinError::Connect(address, e))?;
    write_message(&mut stream, &greeting.hello()).map_err(|e| JoinError::Connect(address, e))?;
    let mut reader = BufReader::new(
        stream
            .try_clone()
            .map_err(|e| JoinError::Connect(address, e))?,
    );
    match read_message::<HostMessage, _>(&mut reader).map_err(JoinError::Protocol)? {
        HostMessage::Welcome {
            version,
            side,
            state,
        } => {
            super::protocol::check_version(version).map_err(JoinError::Protocol)?;
            let _ = reader.get_ref().set_read_timeout(Some(HOST_SILENCE));
            Ok((stream, reader, Welcome { side, state }))
        }
        HostMessage::Refused { reason } | HostMessage::Bye { reason } => {
            Err(JoinError::Refused(reason))
        }
        other => Err(JoinError::Protocol(ProtocolError::Malformed(format!(
            "{other:?} before a welcome"
        )))),
    }
}

/// Keeps the line: passes messages both ways, pings, and connects again when it drops,
/// until the board lets the line go (its [`Link`] dropped) or the host refuses.
fn keep(
    address: SocketAddr,
    greeting: Greeting,
    mut first: Option<(TcpStream, Reader)>,
    news: Sender<LinkNews>,
    out: Receiver<ClientMessage>,
    timing: &Arc<Timing>,
) {
    loop {
        let (mut stream, reader) = match first.take() {
            Some(connection) => connection,
            None => match greet(address, &greeting) {
                Ok((stream, reader, welcome)) => {
                    let told = news.send(LinkNews::Message(HostMessage::Welcome {
                        version: VERSION,
                        side: welcome.side,
                        state: welcome.state,
                    }));
                    if told.is_err() {
                        return;
                    }
                    (stream, reader)
                }
                Err(JoinError::Refused(why)) => {
                    let _ = news.send(LinkNews::Refused(why));
                    return;
                }
                Err(_) => {
                    if wait_while_down(&out) {
                        continue;
                    }
                    return;
                }
            },
        };
        let ended = Arc::new(AtomicBool::new(false));
        let why = Arc::new(std::sync::Mutex::new(String::new()));
        let reading = {
            let (news, ended, why) = (news.clone(), Arc::clone(&ended), Arc::clone(&why));
            let timing = Arc::clone(timing);
            std::thread::spawn(move || read_host(reader, &news, &ended, &why, &timing))
        };
        // A ping at once: the line's delay is known from the start.
        let mut said = Instant::now()
            .checked_sub(PING_EVERY)
            .unwrap_or_else(Instant::now);
        let gone = loop {
            if ended.load(Ordering::SeqCst) {
                break false;
            }
            match out.recv_timeout(Duration::from_millis(50)) {
                Ok(message) => {
                    if write_message(&mut stream, &message).is_err() {
                        break false;
                    }
                    said = Instant::now();
                }
                Err(RecvTimeoutError::Timeout) if said.elapsed() >= PING_EVERY => {
                    *lock(&timing.ping_sent) = Some(Instant::now());
                    if write_message(&mut stream, &ClientMessage::Ping).is_err() {
                        break false;
                    }
                    said = Instant::now();
                }
                Err(RecvTimeoutError::Timeout) => {}
                Err(RecvTimeoutError::Disconnected) => break true,
            }
        };
        let _ = stream.shutdown(Shutdown::Both);
        let _ = reading.join();
        if gone {
            return;
        }
        let reason = std::mem::take(
            &mut *why
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
        let reason = if reason.is_empty() {
            "the connection failed".to_string()
        } else {
            reason
        };
        if news.send(LinkNews::Down(reason)).is_err() || !wait_while_down(&out) {
            return;
        }
    }
}

fn lock<T>(mutex: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Waits [`RETRY`] while the line is down, dropping what the board sends meanwhile;
/// false once the board has let the line go.
fn wait_while_down(out: &Receiver<ClientMessage>) -> bool {
    let until = Instant::now() + RETRY;
    loop {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return true;
        }
        match out.recv_timeout(left) {
            Ok(_) => {}
            Err(RecvTimeoutError::Timeout) => return true,
            Err(RecvTimeoutError::Disconnected) => return false,
        }
    }
}

/// Passes the host's messages on until the line ends; why it ended goes in `why`.
fn read_host(
    mut reader: Reader,
    news: &Sender<LinkNews>,
    ended: &AtomicBool,
    why: &std::sync::Mutex<String>,
    timing: &Timing,
) {
    let reason = loop {
        match read_message::<HostMessage, _>(&mut reader) {
            Ok(HostMessage::Pong) => {
                if let Some(sent) = lock(&timing.ping_sent).take() {
                    let micros = sent.elapsed().as_micros() as u64;
                    timing.round_trip_micros.store(micros, Ordering::SeqCst);
                }
            }
            Ok(HostMessage::Bye { reason }) => {
                let _ = news.send(LinkNews::Message(HostMessage::Bye {
                    reason: reason.clone(),
                }));
                break reason;
            }
            Ok(message) => {
                if news.send(LinkNews::Message(message)).is_err() {
                    break String::new();
                }
            }
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
        }
    };
    *why.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = reason;
    ended.store(true, Ordering::SeqCst);
}
