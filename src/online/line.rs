//! The full-screen client's line to the server, kept by a thread of its own (as a LAN
//! joiner's [`crate::net::link::Link`] is): a tokio runtime inside, the messages in
//! and out through queues, the screen woken when something comes.
//!
//! The server is untrusted as well: what it sends waits in an inbox bounded in messages
//! and in bytes, and while the inbox is full the line reads no further (the server's
//! writes wait), so a server streaming faster than the screen reads cannot fill this
//! terminal's memory.

use super::{CONNECT_TIME, Login, PING_EVERY, broken_line, network, next_line};
use crate::commands::CommandError;
use crate::net::backlog::Backlog;
use crate::server::protocol::{ClientMessage, ServerMessage};
use crate::server::write_message;
use std::sync::{Arc, Mutex, PoisonError};
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

/// What the line tells.
#[derive(Debug)]
pub(crate) enum LineNews {
    /// A message from the server.
    Message(ServerMessage),
    /// The line is gone, and why (the server let go, the network failed, or this end
    /// hung up): it is not tried again.
    Down(String),
}

/// What goes out: a message (the line ends when every handle is gone).
#[derive(Debug)]
enum Outgoing {
    /// A message for the server.
    Message(ClientMessage),
}

/// What the line's thread and its handles share.
#[derive(Default)]
struct Inbox {
    /// What came and was not taken yet.
    items: Mutex<Backlog<LineNews>>,
    /// Told when the screen takes what came: the line reads on if it waited for room.
    room: tokio::sync::Notify,
    /// Rung when something comes.
    bell: crate::net::Bell,
    /// Set once the line is gone.
    down: std::sync::atomic::AtomicBool,
    /// The server's reason, once it let the line go (a kick, a ban), as against the
    /// network failing or this end hanging up.
    let_go: Mutex<Option<String>>,
    /// Whether the server's last welcome said this player is a moderator: it welcomes
    /// a player again when the operator makes them one, or no longer one, while online
    /// (heard by whichever screen reads the line then; the lobby asks here after a board).
    moderator: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Inbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inbox").finish_non_exhaustive()
    }
}

impl Inbox {
    /// Puts `news`, which came in a line of `bytes`, in and rings (the line waits for
    /// [`Inbox::has_room`] before it reads the next).
    fn put(&self, news: LineNews, bytes: usize) {
        if matches!(news, LineNews::Down(_)) {
            self.down.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        self.items
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(news, bytes);
        self.bell.ring();
    }

    /// The server at `address` let the line go for `reason`: kept, and the line's last
    /// words given.
    fn let_go(&self, address: &str, reason: &str) -> String {
        let reason = crate::text::printable(reason, 500);
        let why = format!("{address} let go: {reason}");
        *self.let_go.lock().unwrap_or_else(PoisonError::into_inner) = Some(reason);
        why
    }

    /// Whether another message may come in (its [`Backlog`] is not full).
    fn has_room(&self) -> bool {
        !self
            .items
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_full()
    }

    /// Everything in it, oldest first; the line reads on.
    fn take(&self) -> Vec<LineNews> {
        let taken = self
            .items
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        self.room.notify_one();
        taken
    }
}

/// A handle on the line to the server: the lobby and the board share it (one reads it
/// at a time, the one on the screen).
#[derive(Clone, Debug)]
pub(crate) struct ServerLine {
    /// What came.
    inbox: Arc<Inbox>,
    /// What goes out.
    out: mpsc::UnboundedSender<Outgoing>,
    /// The name logged in.
    pub(crate) name: String,
    /// The server's address.
    pub(crate) address: String,
    /// The server certificate's fingerprint, if this connection was the first contact
    /// (it was pinned).
    pub(crate) first_contact: Option<[u8; 32]>,
    /// Whether the server takes a `tell` ([`protocol::KNOWS_TELL`]): an older one
    /// would let the client go at it.
    pub(crate) tells: bool,
    /// Whether the server takes an `ignore` ([`protocol::KNOWS_IGNORE`]).
    pub(crate) ignores: bool,
}

impl ServerLine {
    /// Connects and logs in as `login` says (what the first contact and the login say
    /// is printed, before a screen takes the terminal), then keeps the line on a
    /// thread of its own, having asked the server to tell its tables as boards see
    /// them.
    pub(crate) fn open(login: Login) -> Result<ServerLine, CommandError> {
        let (ready, opened) = std::sync::mpsc::channel();
        let inbox = Arc::new(Inbox::default());
        let (out, queue) = mpsc::unbounded_channel();
        let told = Arc::clone(&inbox);
        let address = login.address.clone();
        std::thread::spawn(move || {
            let runtime = match tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            {
                Ok(runtime) => runtime,
                Err(e) => {
                    let _ = ready.send(Err(network(format!("cannot start: {e}"))));
                    return;
                }
            };
            runtime.block_on(async move {
                let (reader, mut writer, logged_in, first_contact) =
                    match tokio::time::timeout(CONNECT_TIME * 2, super::connect(&login)).await {
                        Ok(Ok(connected)) => connected,
                        Ok(Err(e)) => {
                            let _ = ready.send(Err(e));
                            return;
                        }
                        Err(_) => {
                            let why = format!("{} did not answer in time", login.address);
                            let _ = ready.send(Err(network(why)));
                            return;
                        }
                    };
                if write_message(&mut writer, &ClientMessage::Board)
                    .await
                    .is_err()
                {
                    let why = format!("{} closed the connection", login.address);
                    let _ = ready.send(Err(network(why)));
                    return;
                }
                if ready.send(Ok((logged_in, first_contact))).is_err() {
                    return;
                }
                keep(reader, writer, queue, &told, &login.address).await;
            });
        });
        let (logged_in, first_contact) = opened
            .recv()
            .map_err(|_| network("the connection's thread ended".to_string()))??;
        inbox
            .moderator
            .store(logged_in.moderator, std::sync::atomic::Ordering::Relaxed);
        Ok(ServerLine {
            inbox,
            out,
            tells: logged_in.tells,
            ignores: logged_in.ignores,
            name: logged_in.name,
            address,
            first_contact,
        })
    }

    /// Whether the server last welcomed the player as a moderator (at the login, or
    /// again since).
    pub(crate) fn moderator(&self) -> bool {
        self.inbox
            .moderator
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// From now on, `waker` is called whenever the line tells something.
    pub(crate) fn wake_with(&self, waker: crate::net::Waker) {
        self.inbox.bell.set(waker);
    }

    /// What the line told since the last call, oldest first.
    pub(crate) fn news(&self) -> Vec<LineNews> {
        self.inbox.take()
    }

    /// Puts `news` back, before anything that came since: what a reader took and
    /// leaves to the next.
    pub(crate) fn unread(&self, news: Vec<LineNews>) {
        self.inbox
            .items
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .put_back(news);
    }

    /// Sends `message` to the server (nothing once the line is down).
    pub(crate) fn send(&self, message: ClientMessage) {
        let _ = self.out.send(Outgoing::Message(message));
    }

    /// Whether the line is gone.
    pub(crate) fn is_down(&self) -> bool {
        self.inbox.down.load(std::sync::atomic::Ordering::SeqCst)
    }

    /// The server's reason, if it let the line go (a moderator's kick or ban): then
    /// what became of a game is what it said, not what a lost line leaves.
    pub(crate) fn let_go_for(&self) -> Option<String> {
        self.inbox
            .let_go
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

#[cfg(test)]
impl ServerLine {
    /// A line to no server, for tests: what the returned teller puts in is its news
    /// (a refusal lets the line go, as a server's does), and what it sends goes
    /// nowhere.
    pub(crate) fn detached() -> (ServerLine, impl Fn(LineNews)) {
        let (line, tell, _) = ServerLine::detached_sent();
        (line, tell)
    }

    /// A [`detached`](Self::detached) line, with what reads the messages it sent so far.
    pub(crate) fn detached_sent() -> (
        ServerLine,
        impl Fn(LineNews),
        impl FnMut() -> Vec<ClientMessage>,
    ) {
        let inbox = Arc::new(Inbox::default());
        let (out, mut queue) = mpsc::unbounded_channel();
        let sent = move || {
            let mut sent = Vec::new();
            while let Ok(Outgoing::Message(message)) = queue.try_recv() {
                sent.push(message);
            }
            sent
        };
        let told = Arc::clone(&inbox);
        let line = ServerLine {
            inbox,
            out,
            name: "tester".to_string(),
            address: "127.0.0.1:1".to_string(),
            first_contact: None,
            tells: true,
            ignores: true,
        };
        let tell = move |news| match news {
            LineNews::Message(ServerMessage::Refused { reason }) => {
                let why = told.let_go("127.0.0.1:1", &reason);
                told.put(LineNews::Down(why), 0);
            }
            news => told.put(news, 0),
        };
        (line, tell, sent)
    }
}

/// Keeps the line: the server's messages into `inbox` (read only while it has room),
/// `queue`'s out, a ping now and then, until either end lets go (told to the inbox).
async fn keep<R, W>(
    mut reader: R,
    mut writer: W,
    mut queue: mpsc::UnboundedReceiver<Outgoing>,
    inbox: &Inbox,
    address: &str,
) where
    R: tokio::io::AsyncBufRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let why = loop {
        tokio::select! {
            message = next_line(&mut reader, address), if inbox.has_room() => match message {
                Ok((ServerMessage::Refused { reason }, _)) => break inbox.let_go(address, &reason),
                Ok((message, bytes)) => {
                    if let ServerMessage::Welcome { moderator, .. } = &message {
                        inbox.moderator.store(*moderator, std::sync::atomic::Ordering::Relaxed);
                    }
                    inbox.put(LineNews::Message(message), bytes);
                }
                Err(e) => break e.to_string(),
            },
            () = inbox.room.notified(), if !inbox.has_room() => {}
            outgoing = queue.recv() => {
                let message = match outgoing {
                    Some(Outgoing::Message(message)) => message,
                    None => {
                        let _ = writer.shutdown().await;
                        break format!("you left {address}");
                    }
                };
                if let Err(e) = write_message(&mut writer, &message).await {
                    let news = |m| inbox.put(LineNews::Message(m), 0);
                    break broken_line(&mut reader, address, e, news).await.to_string();
                }
            }
            _ = ping.tick() => {
                if let Err(e) = write_message(&mut writer, &ClientMessage::Ping).await {
                    let news = |m| inbox.put(LineNews::Message(m), 0);
                    break broken_line(&mut reader, address, e, news).await.to_string();
                }
            }
        }
    };
    inbox.put(LineNews::Down(why), 0);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::net::backlog::{MOST_BYTES, MOST_MESSAGES};

    fn said(text: &str) -> LineNews {
        LineNews::Message(ServerMessage::Rejected {
            reason: text.to_string(),
        })
    }

    #[test]
    fn the_line_reads_no_further_while_the_inbox_holds_its_bytes() {
        let inbox = Inbox::default();
        assert!(inbox.has_room());
        inbox.put(said("long"), MOST_BYTES);
        assert!(!inbox.has_room());
        assert_eq!(inbox.take().len(), 1);
        assert!(inbox.has_room());
        inbox.put(said("half"), MOST_BYTES / 2);
        assert!(inbox.has_room());
        inbox.put(said("half again"), MOST_BYTES / 2);
        assert!(!inbox.has_room());
    }

    #[test]
    fn the_line_reads_no_further_while_the_inbox_holds_its_count() {
        let inbox = Inbox::default();
        for n in 0..MOST_MESSAGES {
            assert!(inbox.has_room());
            inbox.put(said(&n.to_string()), 10);
        }
        assert!(!inbox.has_room());
        let taken = inbox.take();
        assert_eq!(taken.len(), MOST_MESSAGES);
        let LineNews::Message(ServerMessage::Rejected { reason }) = &taken[0] else {
            panic!("the first message came out as {:?}", taken[0]);
        };
        assert_eq!(reason, "0");
    }

    #[test]
    fn a_server_streaming_faster_than_the_screen_reads_waits_for_it() {
        // A hostile server writes 2,000 long lines as fast as the line reads them; the
        // screen reads nothing for a while. One thread runs both, each until it waits,
        // so where they stand after many turns is where they stop.
        const LINES: usize = 2000;
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        runtime.block_on(async {
            let (server, client) = tokio::io::duplex(64 * 1024);
            let (client_reader, client_writer) = tokio::io::split(client);
            let (_server_reader, mut server_writer) = tokio::io::split(server);
            let written = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
            let counted = std::sync::Arc::clone(&written);
            tokio::spawn(async move {
                let long = ServerMessage::Rejected {
                    reason: "x".repeat(10_000),
                };
                for _ in 0..LINES {
                    if write_message(&mut server_writer, &long).await.is_err() {
                        return;
                    }
                    counted.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                }
            });
            let inbox = Arc::new(Inbox::default());
            let (_out, queue) = mpsc::unbounded_channel();
            let line_inbox = Arc::clone(&inbox);
            tokio::spawn(async move {
                let reader = tokio::io::BufReader::new(client_reader);
                keep(reader, client_writer, queue, &line_inbox, "hostile").await;
            });
            let settle = || async {
                for _ in 0..20_000 {
                    tokio::task::yield_now().await;
                }
            };
            settle().await;
            let waiting = inbox.items.lock().unwrap().len();
            let sent = written.load(std::sync::atomic::Ordering::SeqCst);
            assert!(!inbox.has_room());
            assert!(waiting <= MOST_MESSAGES && waiting * 10_000 <= MOST_BYTES + 10_100);
            assert!(
                sent < 100,
                "the server wrote {sent} lines past a full inbox"
            );
            // Once the screen reads, the line reads on.
            let taken = inbox.take().len();
            settle().await;
            assert_eq!(taken, waiting);
            assert!(written.load(std::sync::atomic::Ordering::SeqCst) > sent);
        });
    }

    #[test]
    fn a_welcome_again_says_whether_the_player_is_a_moderator_now() {
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let inbox = Arc::new(Inbox::default());
        runtime.block_on(async {
            let (server, client) = tokio::io::duplex(64 * 1024);
            let (client_reader, client_writer) = tokio::io::split(client);
            let (_server_reader, mut server_writer) = tokio::io::split(server);
            let (_out, queue) = mpsc::unbounded_channel();
            let line_inbox = Arc::clone(&inbox);
            tokio::spawn(async move {
                let reader = tokio::io::BufReader::new(client_reader);
                keep(reader, client_writer, queue, &line_inbox, "here").await;
            });
            let welcome = ServerMessage::Welcome {
                name: "ann".to_string(),
                new: false,
                rating: 1500.0,
                moderator: true,
                knows: Vec::new(),
            };
            write_message(&mut server_writer, &welcome).await.unwrap();
            // Read by the line (a board's, which does not act on it) within a while.
            let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
            while !inbox.moderator.load(std::sync::atomic::Ordering::Relaxed)
                && tokio::time::Instant::now() < deadline
            {
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
            }
        });
        assert!(inbox.moderator.load(std::sync::atomic::Ordering::Relaxed));
    }

    #[test]
    fn taking_the_news_wakes_a_line_waiting_for_room() {
        let inbox = Inbox::default();
        inbox.put(said("long"), 2 * MOST_BYTES);
        inbox.take();
        // The line, waiting for room after the take, is told at once.
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_time()
            .build()
            .unwrap();
        let told = runtime.block_on(async {
            tokio::time::timeout(std::time::Duration::from_secs(5), inbox.room.notified()).await
        });
        assert!(told.is_ok());
    }
}
