//! The full-screen client's line to the server, kept by a thread of its own (as a LAN
//! joiner's [`crate::net::link::Link`] is): a tokio runtime inside, the messages in
//! and out through queues, the screen woken when something comes.

use super::{
    CONNECT_TIME, Login, PING_EVERY, ServerReader, ServerWriter, broken_line, network, next,
};
use crate::commands::CommandError;
use crate::server::protocol::{ClientMessage, ServerMessage};
use crate::server::write_message;
use std::collections::VecDeque;
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
    /// What came and was not taken yet, oldest first.
    items: Mutex<VecDeque<LineNews>>,
    /// Rung when something comes.
    bell: crate::net::Bell,
    /// Set once the line is gone.
    down: std::sync::atomic::AtomicBool,
}

impl std::fmt::Debug for Inbox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Inbox").finish_non_exhaustive()
    }
}

impl Inbox {
    /// Puts `news` in and rings.
    fn put(&self, news: LineNews) {
        if matches!(news, LineNews::Down(_)) {
            self.down.store(true, std::sync::atomic::Ordering::SeqCst);
        }
        self.items
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push_back(news);
        self.bell.ring();
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
                let (reader, mut writer, name, first_contact) =
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
                if ready.send(Ok((name, first_contact))).is_err() {
                    return;
                }
                keep(reader, writer, queue, &told, &login.address).await;
            });
        });
        let (name, first_contact) = opened
            .recv()
            .map_err(|_| network("the connection's thread ended".to_string()))??;
        Ok(ServerLine {
            inbox,
            out,
            name,
            address,
            first_contact,
        })
    }

    /// From now on, `waker` is called whenever the line tells something.
    pub(crate) fn wake_with(&self, waker: crate::net::Waker) {
        self.inbox.bell.set(waker);
    }

    /// What the line told since the last call, oldest first.
    pub(crate) fn news(&self) -> Vec<LineNews> {
        self.inbox
            .items
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .drain(..)
            .collect()
    }

    /// Puts `news` back, before anything that came since: what a reader took and
    /// leaves to the next.
    pub(crate) fn unread(&self, news: Vec<LineNews>) {
        let mut items = self
            .inbox
            .items
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for item in news.into_iter().rev() {
            items.push_front(item);
        }
    }

    /// Sends `message` to the server (nothing once the line is down).
    pub(crate) fn send(&self, message: ClientMessage) {
        let _ = self.out.send(Outgoing::Message(message));
    }

    /// Whether the line is gone.
    pub(crate) fn is_down(&self) -> bool {
        self.inbox.down.load(std::sync::atomic::Ordering::SeqCst)
    }
}

/// Keeps the line: the server's messages into `inbox`, `queue`'s out, a ping now and
/// then, until either end lets go (told to the inbox).
async fn keep(
    mut reader: ServerReader,
    mut writer: ServerWriter,
    mut queue: mpsc::UnboundedReceiver<Outgoing>,
    inbox: &Inbox,
    address: &str,
) {
    let mut ping = tokio::time::interval(PING_EVERY);
    ping.tick().await;
    let why = loop {
        tokio::select! {
            message = next(&mut reader, address) => match message {
                Ok(ServerMessage::Refused { reason }) => {
                    break format!("{address} let go: {}", crate::text::printable(&reason, 500));
                }
                Ok(message) => inbox.put(LineNews::Message(message)),
                Err(e) => break e.to_string(),
            },
            outgoing = queue.recv() => {
                let message = match outgoing {
                    Some(Outgoing::Message(message)) => message,
                    None => {
                        let _ = writer.shutdown().await;
                        break format!("you left {address}");
                    }
                };
                if let Err(e) = write_message(&mut writer, &message).await {
                    let news = |m| inbox.put(LineNews::Message(m));
                    break broken_line(&mut reader, address, e, news).await.to_string();
                }
            }
            _ = ping.tick() => {
                if let Err(e) = write_message(&mut writer, &ClientMessage::Ping).await {
                    let news = |m| inbox.put(LineNews::Message(m));
                    break broken_line(&mut reader, address, e, news).await.to_string();
                }
            }
        }
    };
    inbox.put(LineNews::Down(why));
}
