//! A flaky line between two programs on the loopback address: a TCP proxy that passes
//! bytes both ways until told to swallow what the client sends, to stall the
//! connections it holds (nothing passes either way, not even their end), or to cut
//! every connection it holds, as a bad network does.

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How long a condition the proxy is waited on may take.
const PATIENCE: Duration = Duration::from_secs(30);

/// What the proxy threads share: whether the client's bytes are swallowed, how many
/// were, and the connections to cut.
#[derive(Default)]
struct Line {
    /// The client's bytes go nowhere (a line that lost them).
    swallowing: AtomicBool,
    /// The longest read of the client's swallowed since the last [`Proxy::swallow`]
    /// (one read holds what the client wrote at once: a ping, or a move).
    longest_swallowed: AtomicUsize,
    /// How many of the next connections are cut at once, before a byte passes.
    cut_at_once: AtomicUsize,
    /// Both ends of every connection passed so far, to cut them.
    streams: Mutex<Vec<TcpStream>>,
    /// How many connections were made so far (each is numbered by it).
    connections: AtomicUsize,
    /// The connections numbered below this are stalled: nothing they carry, their
    /// end included, reaches the other side.
    stalled_below: AtomicUsize,
}

/// A proxy listening on a free loopback port, passing each connection on to its target.
pub struct Proxy {
    /// Where clients connect: `127.0.0.1:PORT`.
    pub address: String,
    line: Arc<Line>,
}

impl Proxy {
    /// A proxy to `target` (`127.0.0.1:PORT`), listening already.
    pub fn to(target: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let line = Arc::new(Line::default());
        let target = target.to_string();
        let shared = Arc::clone(&line);
        std::thread::spawn(move || {
            for client in listener.incoming() {
                let Ok(client) = client else { return };
                let cut_at_once =
                    shared
                        .cut_at_once
                        .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
                if cut_at_once.is_ok() {
                    let _ = client.shutdown(Shutdown::Both);
                    continue;
                }
                let Ok(server) = TcpStream::connect(&target) else {
                    continue;
                };
                let _ = client.set_nodelay(true);
                let _ = server.set_nodelay(true);
                {
                    let mut streams = shared.streams.lock().unwrap();
                    streams.push(client.try_clone().unwrap());
                    streams.push(server.try_clone().unwrap());
                }
                let number = shared.connections.fetch_add(1, Ordering::SeqCst);
                let (up_from, up_to) = (client.try_clone().unwrap(), server.try_clone().unwrap());
                let (up, down) = (Arc::clone(&shared), Arc::clone(&shared));
                std::thread::spawn(move || pass(up_from, up_to, &up, number, true));
                std::thread::spawn(move || pass(server, client, &down, number, false));
            }
        });
        Proxy { address, line }
    }

    /// The next `connections` are cut as soon as they are made, before a byte passes.
    pub fn cut_next_connections(&self, connections: usize) {
        self.line.cut_at_once.store(connections, Ordering::SeqCst);
    }

    /// From now on what the client sends is lost on the way (its connection stays up).
    pub fn swallow(&self) {
        self.line.longest_swallowed.store(0, Ordering::SeqCst);
        self.line.swallowing.store(true, Ordering::SeqCst);
    }

    /// Waits until the client wrote more than `bytes` at once into the swallowed line
    /// (more than a ping of its: something it was asked to send).
    pub fn wait_swallowed_write_over(&self, bytes: usize) {
        let deadline = Instant::now() + PATIENCE;
        while self.line.longest_swallowed.load(Ordering::SeqCst) <= bytes {
            assert!(Instant::now() < deadline, "nothing over {bytes} bytes came");
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Stalls every connection passed so far, as a line that went silent: nothing
    /// passes either way, and an end closing is not passed on (the other end hears
    /// only silence). New connections pass everything.
    pub fn stall(&self) {
        let made = self.line.connections.load(Ordering::SeqCst);
        self.line.stalled_below.store(made, Ordering::SeqCst);
    }

    /// Cuts every connection passed so far; new ones pass everything again.
    pub fn cut(&self) {
        self.line.swallowing.store(false, Ordering::SeqCst);
        for stream in self.line.streams.lock().unwrap().drain(..) {
            let _ = stream.shutdown(Shutdown::Both);
        }
    }
}

/// Passes what `from` sends to `to` until either ends, on the connection numbered
/// `number`; the client's side (`from_client`) is swallowed while the line says so,
/// both sides while the connection is stalled.
fn pass(mut from: TcpStream, mut to: TcpStream, line: &Line, number: usize, from_client: bool) {
    let mut buffer = [0u8; 16 * 1024];
    let stalled = || number < line.stalled_below.load(Ordering::SeqCst);
    loop {
        let read = match from.read(&mut buffer) {
            Ok(0) | Err(_) if stalled() => return,
            Ok(0) | Err(_) => break,
            Ok(read) => read,
        };
        if stalled() {
            continue;
        }
        if from_client && line.swallowing.load(Ordering::SeqCst) {
            line.longest_swallowed.fetch_max(read, Ordering::SeqCst);
            continue;
        }
        if to.write_all(&buffer[..read]).is_err() {
            break;
        }
    }
    let _ = from.shutdown(Shutdown::Both);
    let _ = to.shutdown(Shutdown::Both);
}
