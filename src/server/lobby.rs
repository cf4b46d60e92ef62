//! The server's state: who is online, the open seeks, the games in play. One lock
//! guards it all (never held across a wait), so that a move is checked and taken in
//! one step, in the order the server took it. What changes is stored through the
//! database's thread ([`Store`]) and told through the [`Outbox`], which holds every
//! message until the writes asked before it are on the disk.

mod adjournment;
mod boards;
mod chat;
mod ignore;
mod listing;
mod moderation;
mod new_names;
mod presence;
mod ratings;
mod rematch;
mod seeks;
mod table;
mod tell;
mod window;

use super::db::RatedAs;
use super::outbox::{Outbox, Post, Recipient};
use super::protocol::{self, ClientMessage, ServerMessage};
use super::store::Store;
use crate::game::Game;
use crate::rules::Color;
use crate::session::{News, Seats, Session, TimeControl};
use adjournment::Left;
pub(crate) use adjournment::ONE_BACK_WAIT;
#[cfg(test)]
pub(crate) use ignore::{IGNORE_CHANGE_WINDOW, IGNORE_CHANGES_PER_WINDOW};
pub(crate) use moderation::banned_words;
pub(crate) use new_names::NEW_NAMES_PER_WINDOW;
use new_names::NewNames;
#[cfg(test)]
pub(crate) use ratings::PROVISIONAL_GAMES;
use ratings::RatedPairs;
pub(crate) use ratings::{RATED_PAIR_WINDOW, RATED_PER_PAIR};
use rematch::Rematch;
use seeks::{Seeks, Terms};
use skillratings::glicko2::Glicko2Rating;
use std::collections::BTreeMap;
use std::net::IpAddr;
use std::time::Instant;
use table::Table;
#[cfg(test)]
pub(crate) use tell::TELLS_PER_WINDOW;
use tokio::sync::mpsc;

/// How often the server notes in the database that it runs: if it is killed, the time
/// it is down counts from its last note (see `Db::count_downtime`).
const HEARTBEAT_EVERY: std::time::Duration = std::time::Duration::from_secs(60);

/// What a lobby is set up with: where the server is, and its limits.
pub(crate) struct Settings {
    /// Where the server is, for the records' Site tag.
    pub(crate) site: String,
    /// How long an adjourned game waits for its players before it is abandoned.
    pub(crate) adjourned_for: std::time::Duration,
    /// The lines a table's chat carries in [`TABLE_CHAT_WINDOW`](chat::TABLE_CHAT_WINDOW) (see
    /// [`Limits::table_chat`](super::Limits::table_chat)).
    pub(crate) table_chat: usize,
}

/// A player online.
struct Online {
    /// The connection's number, so a stale connection's leaving does not drop a newer.
    conn: u64,
    /// The address the player connects from: wrong invite codes are counted by it.
    address: IpAddr,
    /// The player's row in the database.
    id: i64,
    /// Their rating (it changes only at the end of their game, here).
    rating: Glicko2Rating,
    /// Their rated games that changed their rating.
    rated_games: u32,
    /// Where their messages go.
    out: mpsc::Sender<ServerMessage>,
    /// The game they play, if any.
    game: Option<u64>,
    /// The game they watch, if any.
    watching: Option<u64>,
    /// Whether their client shows a board: it is told its table as a
    /// [`ServerMessage::Table`] after each change.
    board: bool,
    /// Whether their client reads an abandoned game's end ([`protocol::NO_RESULT`])
    /// itself; an older one is told it in words it prints right.
    reads_no_result: bool,
    /// Whether their client reads a [`ServerMessage::Told`]; an older one is told a
    /// line told to them in words.
    reads_told: bool,
    /// When they told their lines of the last [`TELL_WINDOW`](tell::TELL_WINDOW),
    /// oldest first.
    tells: window::Window<()>,
    /// The names they ignore (`ignore NAME`), as the database keeps them.
    ignoring: std::collections::BTreeSet<String>,
    /// When they changed their ignore list lately (see
    /// [`IGNORE_CHANGE_WINDOW`](ignore::IGNORE_CHANGE_WINDOW)).
    ignore_changes: window::Window<()>,
}

/// Everything the server holds.
pub(crate) struct Lobby {
    /// The database's thread.
    store: Store,
    /// Where messages go out, in order, each after the writes asked before it.
    outbox: Outbox,
    /// The next game's number.
    next_game: u64,
    /// How long an adjourned game waits for its players before it is abandoned.
    adjourned_for: std::time::Duration,
    /// The lines a table's chat carries in [`TABLE_CHAT_WINDOW`](chat::TABLE_CHAT_WINDOW).
    table_chat: usize,
    /// The players online, by name.
    online: BTreeMap<String, Online>,
    /// The open seeks, and the wrong invite codes given.
    seeks: Seeks,
    /// The games in play, by their database id.
    games: BTreeMap<u64, Table>,
    /// Where the server is, for the records' Site tag.
    site: String,
    /// The games just ended that their players may play again, by game: one for each
    /// player at most (the last), gone when either leaves or starts another game.
    rematches: BTreeMap<u64, Rematch>,
    /// The new names each address made lately.
    new_names: NewNames,
    /// The rated games that changed ratings lately, by their players.
    rated_pairs: RatedPairs,
    /// The games with a notice of where a player is held back (see
    /// [`PRESENCE_NOTICE_EVERY`](presence::PRESENCE_NOTICE_EVERY)).
    presence_pending: std::collections::BTreeSet<u64>,
    /// When the server last noted in the database that it runs.
    alive_noted: Instant,
    /// The moderators, the mutes in force, the bans ordered since the start.
    moderation: moderation::Moderation,
    /// When the moderators were last read from the database.
    moderators_read: Instant,
    /// When the server last asked whether another program changed the database.
    others_changes_checked: Instant,
}

/// Black's index in pairs, then White's.
fn index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

impl Lobby {
    /// A lobby storing through `store` and telling through `outbox`, set up with
    /// `settings`, with the games the server stopped during (or was killed in) taken
    /// back from their stored records: adjourned, their clocks stopped, until both
    /// players are back. Also gives how many games it took back.
    pub(crate) fn open(
        store: Store,
        outbox: Outbox,
        settings: Settings,
        now: Instant,
    ) -> Result<(Lobby, usize), String> {
        let Settings {
            site,
            adjourned_for,
            table_chat,
        } = settings;
        let next_game = store.ask_now(|db| db.next_game())??;
        // The days an adjourned game waits are the server's running days: the time it
        // was down is added to each before they are taken back.
        let started = crate::store::now_unix();
        match store.ask_now(move |db| db.count_downtime(started))?? {
            Some((down, stopped)) => tracing::info!(
                seconds = down,
                since = if stopped {
                    "its stop"
                } else {
                    "its last heartbeat (killed)"
                },
                "the server was down: adjourned games wait that much longer"
            ),
            None => tracing::info!("a new database: no downtime to count"),
        }
        // The rated games of the last day, as the database holds them.
        let since = crate::store::now_unix().saturating_sub(RATED_PAIR_WINDOW.as_secs());
        let rated_pairs = RatedPairs::of(store.ask_now(move |db| db.rated_results_since(since))??);
        let unix = crate::store::now_unix();
        let moderation = store.ask_now(move |db| moderation::Moderation::read(db, unix))??;
        let mut lobby = Lobby {
            store,
            outbox,
            next_game,
            adjourned_for,
            table_chat,
            online: BTreeMap::new(),
            seeks: Seeks::default(),
            games: BTreeMap::new(),
            site,
            rematches: BTreeMap::new(),
            new_names: NewNames::default(),
            rated_pairs,
            presence_pending: std::collections::BTreeSet::new(),
            alive_noted: now,
            moderation,
            moderators_read: now,
            others_changes_checked: now,
        };
        let restored = lobby.restore(now)?;
        Ok((lobby, restored))
    }

    /// The database's thread, for logins.
    pub(crate) fn store(&self) -> Store {
        self.store.clone()
    }

    /// The outbox, to wait for it to be delivered.
    pub(crate) fn outbox(&self) -> Outbox {
        self.outbox.clone()
    }

    /// `name` logs in again while online: the old connection is told and let go (its
    /// game adjourned, to go on at once on the new one).
    pub(crate) fn take_over(&mut self, name: &str) {
        if self.online.contains_key(name) {
            let reason = "you logged in on another connection".to_string();
            self.send(name, ServerMessage::Refused { reason });
            self.gone(name);
        }
    }

    /// `name` (as the database holds them: `player`) is online on connection `conn`.
    pub(crate) fn enter(
        &mut self,
        name: &str,
        player: &super::db::PlayerRow,
        (conn, address): (u64, IpAddr),
        out: mpsc::Sender<ServerMessage>,
    ) {
        let now = Instant::now();
        self.note_mute(name, player.muted_until);
        self.online.insert(
            name.to_string(),
            Online {
                conn,
                address,
                id: player.id,
                rating: player.rating,
                rated_games: player.rated_games,
                out,
                game: None,
                watching: None,
                board: false,
                reads_no_result: true,
                reads_told: true,
                tells: window::Window::default(),
                ignoring: player.ignoring.iter().cloned().collect(),
                ignore_changes: window::Window::default(),
            },
        );
        let mine = self
            .games
            .iter()
            .find(|(_, t)| t.names.iter().any(|n| n == name))
            .map(|(game, t)| (*game, t.names.clone()));
        let Some((game, names)) = mine else {
            return;
        };
        if let Some(online) = self.online.get_mut(name) {
            online.game = Some(game);
        }
        let other = if names[0] == name {
            &names[1]
        } else {
            &names[0]
        };
        let other = other.clone();
        if self.games.get(&game).is_some_and(|t| t.adjourned.is_none()) {
            return self.back_in_play(game, name, now);
        }
        if !self.resume_if_both_back(game) {
            self.waits_for_other(game, name, &other, now);
        }
    }

    /// Whether `name` is online on connection `conn` still (not let go).
    pub(crate) fn connected(&self, name: &str, conn: u64) -> bool {
        self.online.get(name).is_some_and(|o| o.conn == conn)
    }

    /// `name`'s connection `conn` broke the protocol: told why, and let go.
    pub(crate) fn refuse(&mut self, name: &str, conn: u64, reason: String) {
        if self.connected(name, conn) {
            self.send(name, ServerMessage::Refused { reason });
            self.leave(name, conn);
        }
    }

    /// The server stops at `now`: every game in play is adjourned, its clocks stored as
    /// they stand (so that the next start gives the player to move no time back), and
    /// everyone is told, and let go. The games are taken back adjourned at the next
    /// start.
    pub(crate) fn stop_all(&mut self, now: Instant) {
        // The clocks read `now` (a flag fallen by then ends its game).
        self.tick(now);
        let in_play: Vec<u64> = self
            .games
            .iter()
            .filter(|(_, t)| t.adjourned.is_none())
            .map(|(game, _)| *game)
            .collect();
        for game in in_play {
            self.adjourn_now(game);
        }
        // The time until the next start does not count against the adjourned games.
        let stopped = crate::store::now_unix();
        self.store_then_tell(None, move |db| db.note_alive(stopped, true));
        let reason = "the server is stopping: a game in play is adjourned and goes on when the \
                      server is back"
            .to_string();
        let names: Vec<String> = self.online.keys().cloned().collect();
        for name in names {
            let reason = reason.clone();
            self.send(&name, ServerMessage::Refused { reason });
        }
        self.online.clear();
        self.seeks.open.clear();
    }

    /// `name`'s client is older than [`protocol::KNOWS_NO_RESULT`] (its login did not
    /// say it): an abandoned game's end is told it in words it prints right.
    pub(crate) fn older_client(&mut self, name: &str) {
        if let Some(online) = self.online.get_mut(name) {
            online.reads_no_result = false;
        }
    }

    /// Whether `name`'s client reads an abandoned game's end itself (see
    /// [`older_client`](Self::older_client)).
    #[cfg(test)]
    pub(crate) fn reads_no_result(&self, name: &str) -> bool {
        self.online.get(name).is_some_and(|o| o.reads_no_result)
    }

    /// `name`'s connection `conn` closed: they are gone (see [`gone`](Self::gone)).
    pub(crate) fn leave(&mut self, name: &str, conn: u64) {
        if self.online.get(name).is_some_and(|o| o.conn == conn) {
            self.gone(name);
        }
    }

    /// `name` is gone: their seeks go. A game they play goes on, the clocks running, while
    /// the other player is at it (so a player cannot stop their clock, or escape a lost
    /// game, by cutting the line: their time runs out and they lose on time); once
    /// neither is at it, it is adjourned, its clocks stopped, until both are back.
    fn gone(&mut self, name: &str) {
        let (game, watched) = self
            .online
            .remove(name)
            .map_or((None, None), |o| (o.game, o.watching));
        self.drop_seeks(name, "left the server", true);
        self.drop_rematch(name, &format!("{name} left: the rematch offer lapses."));
        // A spectator gone: the boards at the table count one fewer.
        if let Some(watched) = watched {
            self.tell_table(watched);
        }
        let Some(game) = game else {
            return;
        };
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        // Logging in again brings them back to it, whether they left it from the
        // board or from the lobby.
        let Some(color) = table.side_of(name) else {
            return;
        };
        table.away[index(color)] = false;
        let other = table.names[index(!color)].clone();
        // Timed as it is heard: a connection's end comes with no request's time.
        let now = Instant::now();
        if self.left_game(game, index(color), now) == Left::AdjournedNow {
            let text = format!("{name} left: game {game} is adjourned, its clocks stopped.");
            self.send(&other, ServerMessage::Info { text });
        }
    }

    /// Posts `message` for `name`, if online (a client whose queue is full when it
    /// comes is let go: see `outbox::deliver`).
    fn send(&mut self, name: &str, message: ServerMessage) {
        if let Some(to) = self.recipient(name) {
            self.outbox.post(Post::Message { to, message });
        }
    }

    /// `name`'s connection, if online.
    fn recipient(&self, name: &str) -> Option<Recipient> {
        self.online.get(name).map(|o| Recipient {
            name: name.to_string(),
            conn: o.conn,
            out: o.out.clone(),
        })
    }

    /// Asks the database's thread to store `write` (of `game`, if one): the messages
    /// posted after it wait until it is on the disk.
    fn store_then_tell<F>(&mut self, game: Option<u64>, write: F)
    where
        F: FnOnce(&mut super::db::Db) -> Result<(), String> + Send + 'static,
    {
        let stored = self.store.ask(write);
        self.outbox.post(Post::Stored { stored, game });
    }

    /// Storing `game` failed: it stops, and its players are told (the postman does not
    /// tell what was not stored).
    pub(crate) fn halt(&mut self, game: u64) {
        let Some(table) = self.games.remove(&game) else {
            return;
        };
        for n in &table.names {
            self.reject(n, "the server cannot store moves now: the game is stopped");
            if let Some(online) = self.online.get_mut(n) {
                online.game = None;
            }
        }
    }

    /// A refusal of a request, to `name`.
    fn reject(&mut self, name: &str, reason: impl Into<String>) {
        self.send(
            name,
            ServerMessage::Rejected {
                reason: reason.into(),
            },
        );
    }

    /// `name`'s client sent a message of a type `kind` this server does not know (a
    /// newer client's): it is told so, and its line stays (it was closed).
    pub(crate) fn unknown_message(&mut self, name: &str, kind: &str) {
        self.reject(
            name,
            format!(
                "this server does not know the message type \"{kind}\" (it is older than \
                 your client): nothing was done"
            ),
        );
    }

    /// `name` asks `message`.
    pub(crate) fn handle(&mut self, name: &str, message: ClientMessage, now: Instant) {
        self.tick(now);
        match message {
            ClientMessage::Login { .. } => self.reject(name, "already logged in"),
            ClientMessage::Ping => self.send(name, ServerMessage::Pong),
            ClientMessage::Who => {
                let text = self.who();
                self.send(name, ServerMessage::Info { text });
            }
            ClientMessage::Seeks => {
                let text = self.seeks_text(name);
                self.send(name, ServerMessage::Info { text });
            }
            ClientMessage::Games => {
                let text = self.games_text(name);
                self.send(name, ServerMessage::Info { text });
            }
            ClientMessage::Watch { number } => self.watch(name, number),
            ClientMessage::Export { after } => self.export(name, after),
            ClientMessage::Player { name: who } => self.player(name, who),
            ClientMessage::Seek {
                clock,
                rated,
                side,
                ballot,
            } => {
                let terms = Terms::asked(side, ballot);
                self.seek(name, (&clock, rated, terms), None, None);
            }
            ClientMessage::Challenge {
                name: whom,
                clock,
                rated,
                side,
                ballot,
            } => {
                let terms = Terms::asked(side, ballot);
                self.challenge(name, &whom, (&clock, rated, terms));
            }
            ClientMessage::Invite {
                clock,
                rated,
                side,
                ballot,
            } => {
                let terms = Terms::asked(side, ballot);
                let code = crate::net::new_code();
                self.seek(name, (&clock, rated, terms), None, Some(code));
            }
            ClientMessage::Join { code } => self.join(name, &code, now),
            ClientMessage::Accept { number } => self.accept(name, number, now),
            ClientMessage::Cancel { number } => self.cancel(name, number),
            ClientMessage::Play { text } => self.play(name, &text),
            ClientMessage::Resign => self.resign(name),
            ClientMessage::Draw => self.draw(name),
            ClientMessage::Say { text } => self.say(name, &text, now),
            ClientMessage::Tell { name: whom, text } => self.tell(name, &whom, &text, now),
            ClientMessage::Ignore { name: whom } => self.ignore(name, whom.as_deref(), now),
            ClientMessage::Unignore { name: whom } => self.unignore(name, &whom, now),
            ClientMessage::Rematch => self.rematch(name, now),
            ClientMessage::Decline => self.decline(name),
            ClientMessage::Board => self.board(name),
            ClientMessage::Unwatch => self.unwatch(name),
            ClientMessage::Adjourn => self.adjourn(name, now),
            ClientMessage::Resume => self.resume(name, now),
            ClientMessage::Moderate { order } => self.moderate(name, order),
            ClientMessage::Lobby => {
                let message = self.lobby(name);
                self.send(name, message);
            }
        }
    }

    /// The time is `now`: a fallen flag ends its game; an adjourned game one player has
    /// waited at for [`ONE_BACK_WAIT`] goes on; an adjourned game that waited its time
    /// for its players is abandoned.
    pub(crate) fn tick(&mut self, now: Instant) {
        self.go_on_after_one_back_wait(now);
        if !self.presence_pending.is_empty() {
            self.tell_pending_presence(now);
        }
        self.end_flagged(now);
        self.abandon_expired();
        if now.saturating_duration_since(self.moderators_read) >= moderation::MODERATORS_READ_EVERY
        {
            self.moderators_read = now;
            self.others_changes_checked = now;
            self.read_moderators();
        } else if now.saturating_duration_since(self.others_changes_checked)
            >= moderation::OTHERS_CHANGES_CHECKED_EVERY
        {
            self.others_changes_checked = now;
            self.read_moderators_if_changed();
        }
        if now.saturating_duration_since(self.alive_noted) >= HEARTBEAT_EVERY {
            self.alive_noted = now;
            let unix = crate::store::now_unix();
            // Nobody waits on it: a heartbeat lost to a failing disk is said in the log.
            drop(self.store.ask(move |db| {
                if let Err(error) = db.note_alive(unix, false) {
                    tracing::error!(error, "cannot note the server's heartbeat");
                }
            }));
        }
    }
}
