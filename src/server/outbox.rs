//! What the server tells its clients, in the order the lobby said it. The lobby never
//! waits: it changes its state at once, asks the database's thread to store what
//! changed, and posts its messages here. One postman delivers the posts in order, and
//! holds every message until each write posted before it is acknowledged, so a move is
//! on the disk before anyone hears of it (or of anything said after it).

use super::protocol::ServerMessage;
use super::{Shared, lock};
use std::collections::HashSet;
use tokio::sync::{mpsc, oneshot};

/// One connection a message goes to.
pub(crate) struct Recipient {
    /// The player's name.
    pub(crate) name: String,
    /// Their connection's number (a newer connection is not let go for an older).
    pub(crate) conn: u64,
    /// Their connection's queue.
    pub(crate) out: mpsc::Sender<ServerMessage>,
}

/// One thing for the postman.
pub(crate) enum Post {
    /// A write the posts after it wait for: its acknowledgement, and the game whose
    /// state it stores (a failed write stops that game: see `Lobby::halt`).
    Stored {
        /// The database's answer.
        stored: oneshot::Receiver<Result<(), String>>,
        /// The game written, if one.
        game: Option<u64>,
    },
    /// A message for one connection.
    Message {
        /// Who it goes to.
        to: Recipient,
        /// What it says.
        message: ServerMessage,
    },
    /// A message the database's thread words (a player's record), for one connection.
    Answer {
        /// Who it goes to.
        to: Recipient,
        /// The message, once the database has answered.
        answer: oneshot::Receiver<ServerMessage>,
    },
    /// Told once everything posted before it is delivered.
    Flushed(oneshot::Sender<()>),
    /// What the lobby does with a database's answer (a moderator's order stored, the
    /// moderators read again), done in its turn.
    Apply(oneshot::Receiver<Apply>),
}

/// What the lobby does with a database's answer.
pub(crate) type Apply = Box<dyn FnOnce(&mut super::lobby::Lobby) + Send>;

/// Where the lobby posts: cheap to clone.
#[derive(Clone)]
pub(crate) struct Outbox {
    /// The posts, in order.
    posts: mpsc::UnboundedSender<Post>,
}

/// The postman's end of the [`Outbox`].
pub(crate) type Posts = mpsc::UnboundedReceiver<Post>;

impl Outbox {
    /// An empty outbox and the end its postman ([`deliver`]) reads.
    pub(crate) fn new() -> (Outbox, Posts) {
        let (posts, read) = mpsc::unbounded_channel();
        (Outbox { posts }, read)
    }

    /// Posts `post` after every earlier post.
    pub(crate) fn post(&self, post: Post) {
        // Fails only when the postman is gone, as the server stops.
        let _ = self.posts.send(post);
    }

    /// Resolves once every post given before this call is delivered.
    pub(crate) async fn flushed(&self) {
        let (done, flushed) = oneshot::channel();
        self.post(Post::Flushed(done));
        let _ = flushed.await;
    }
}

/// The game a message tells a move or the end of: not told when storing that game
/// failed.
fn game_of(message: &ServerMessage) -> Option<u64> {
    match message {
        ServerMessage::Moved { game, .. }
        | ServerMessage::Ended { game, .. }
        | ServerMessage::DrawOffered { game, .. } => Some(*game),
        _ => None,
    }
}

/// The postman: delivers `posts` in order until the lobby is gone. A client whose queue
/// is full is let go (it does not read); a write that failed stops its game, and what
/// was to be told of that game is not.
pub(crate) async fn deliver(mut posts: Posts, lobby: Shared) {
    let mut halted = HashSet::new();
    while let Some(post) = posts.recv().await {
        let (to, message) = match post {
            Post::Stored { stored, game } => {
                let failure = match stored.await {
                    Ok(Ok(())) => continue,
                    Ok(Err(e)) => e,
                    Err(_) => "the database's thread is gone".to_string(),
                };
                tracing::error!(game, error = failure, "cannot store: the game is stopped");
                if let Some(game) = game {
                    halted.insert(game);
                    lock(&lobby).halt(game);
                }
                continue;
            }
            Post::Flushed(done) => {
                let _ = done.send(());
                continue;
            }
            Post::Apply(answer) => {
                if let Ok(apply) = answer.await {
                    apply(&mut lock(&lobby));
                }
                continue;
            }
            Post::Message { to, message } => (to, message),
            Post::Answer { to, answer } => match answer.await {
                Ok(message) => (to, message),
                Err(_) => continue,
            },
        };
        if game_of(&message).is_some_and(|g| halted.contains(&g)) {
            continue;
        }
        if to.out.try_send(message).is_err() {
            let mut lobby = lock(&lobby);
            // Told once: the posts for it still in line find it gone.
            if lobby.connected(&to.name, to.conn) {
                tracing::warn!(
                    name = to.name,
                    "a client does not read its messages: let go"
                );
                lobby.leave(&to.name, to.conn);
            }
        }
    }
}
