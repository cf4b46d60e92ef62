//! The host's side of a game across the network: its peers greeted, judged and told
//! the game as it changes. A peer's code is judged on its line's key exchange (its
//! first frame proves the code, or it comes as [`Incoming::Unproven`]); the host
//! proves the code in turn only to a peer that proved it and whose address is not
//! made to wait after wrong codes.

use super::*;
use crate::net::guesses::Guesses;
use crate::net::link::{HOST_SILENCE, PING_EVERY};
use crate::net::listener::address_key;
use crate::store::Autosaver;
use std::net::IpAddr;

/// How often the host tells the game again though nothing changed, so the boards'
/// clocks stay within a line's delay of its own.
const RESYNC: Duration = Duration::from_secs(2);

/// How long the seat of a player whose line dropped is kept for them (their link
/// connects again by itself within seconds; a client started again without its token
/// waits this long, within [`JOIN_PATIENCE`](crate::net::link::JOIN_PATIENCE)).
pub(crate) const SEAT_KEPT: Duration = Duration::from_secs(30);

/// A gap this long between two servings of the table is a stop of this program
/// (Ctrl-Z, or any hold-up): it serves every tenth of a second while a clock runs.
const STOP_NOTICED: Duration = Duration::from_secs(1);

/// How long after a stop ends a move read is still taken as one that waited in the line
/// through it: the peers' reader threads run again with the rest of the program, but
/// may come to the line a moment after the table is first served.
const STOP_READ_WITHIN: Duration = Duration::from_secs(2);

/// A peer's greeting, as the host judges it (it came sealed: the peer proved the code).
#[derive(Debug)]
pub(super) struct Hello {
    pub(super) role: Role,
    pub(super) name: Option<String>,
    pub(super) seat: Option<String>,
}

/// The host's side of the table.
#[derive(Debug)]
pub(crate) struct Hosting {
    pub(super) connections: Connections,
    /// The side the joiner plays.
    pub(super) remote: Color,
    /// The player's connection, while there is one.
    pub(super) player: Option<PeerId>,
    /// When the seated player was last heard from (their board pings every
    /// [`PING_EVERY`] when it says nothing else).
    pub(super) player_heard: Option<Instant>,
    /// The peers that said who they are, and as what.
    pub(super) greeted: HashMap<PeerId, Role>,
    /// Whether the clocks were stopped because the player is away.
    pub(super) stopped_for_line: bool,
    /// The host named the joiner's side: the name the joiner gives is not taken.
    pub(super) remote_named: bool,
    /// The game's revision when a take-back was asked: a move since ends the request.
    pub(super) undo_revision: u64,
    /// The game as last told to the peers, and when.
    pub(super) told: Option<(GameState, Instant)>,
    /// Where each peer connected from, as its wrong codes are counted.
    pub(super) addresses: HashMap<PeerId, IpAddr>,
    /// The wrong codes given so far, by address.
    pub(super) guesses: Guesses,
    /// The token the seated player's welcome carried: a new connection with it takes
    /// over the seat from the player's own stale one. Each person who sits with the
    /// code alone is given a new one, so no earlier player's token takes the seat.
    pub(super) seat_token: String,
    /// Until when the empty seat is kept for the player whose line dropped: only their
    /// token takes it meanwhile, so that someone else with the code (a spectator)
    /// cannot sit in it while the player's line comes back.
    pub(super) seat_kept_until: Option<Instant>,
    /// Each spectator's token, which its welcome carried: its board's new connection
    /// greets with it once the line dropped, and takes the place of the old one the
    /// host may still hold (counted twice until that was let go).
    pub(super) watchers: HashMap<PeerId, String>,
    /// How many chat lines were said at this table (the view keeps only the last ones).
    pub(super) said: u64,
    /// The game file the chat was last kept beside, and [`Hosting::said`] then.
    pub(super) chat_kept: Option<(PathBuf, u64)>,
    /// The game file the door (code and port) was last kept beside, and whether it
    /// was removed then instead (the game over, or no move in it).
    pub(super) door_kept: Option<(PathBuf, bool)>,
    /// When the table was last served: a gap of [`HOST_SILENCE`] means this program did
    /// not run (see [`Hosting::back_from_suspension`]).
    pub(super) served_at: Option<Instant>,
    /// The last stop of this program shorter than [`HOST_SILENCE`] (from, until): a
    /// move that waited in the line through it is charged as its player's board timed
    /// it, within the stop (see [`Hosting::made_during_stop`]).
    pub(super) stopped: Option<(Instant, Instant)>,
    pub(super) view: TableView,
}

impl Hosting {
    /// The host's table: listening with `connections`, reached at `shown_address`,
    /// with `code` for those who join, the joiner playing `remote`.
    pub(crate) fn new(
        connections: Connections,
        shown_address: SocketAddr,
        code: String,
        remote: Color,
    ) -> Hosting {
        let view = TableView {
            seat: Seat::Host {
                address: shown_address,
                code,
                every_interface: connections.address().ip().is_unspecified(),
            },
            connected: false,
            spectators: 0,
            chat: VecDeque::new(),
            undo_asked: None,
            at_server: false,
            server_gone: false,
            let_go: None,
            abandoned: None,
            line_down: false,
            joiner_side: None,
        };
        Hosting {
            connections,
            remote,
            player: None,
            player_heard: None,
            greeted: HashMap::new(),
            stopped_for_line: false,
            remote_named: false,
            undo_revision: 0,
            told: None,
            addresses: HashMap::new(),
            guesses: Guesses::default(),
            seat_token: crate::net::new_token(),
            seat_kept_until: None,
            watchers: HashMap::new(),
            said: 0,
            chat_kept: None,
            door_kept: None,
            served_at: None,
            stopped: None,
            view,
        }
    }

    /// With the chat kept with a resumed game (see [`crate::store::chat`]): its last
    /// lines, made safe to show, are the table's chat again.
    pub(crate) fn with_chat(mut self, chat: Vec<(String, String)>) -> Hosting {
        self.view.chat = super::guest::received_chat(&chat);
        self
    }

    /// With the joiner's side named by the host (`--white-name`): the name the joiner
    /// gives is not taken.
    pub(crate) fn with_remote_named(mut self, named: bool) -> Hosting {
        self.remote_named = named;
        self
    }

    /// Sends `message` to every peer that said who it is (the others learn nothing of
    /// the game).
    pub(super) fn broadcast(&self, message: &HostMessage) {
        for peer in self.greeted.keys() {
            self.connections.send(*peer, message);
        }
    }
}

/// How long a host that ends waits for its goodbye to be written to the peers.
const LAST_WORD_WAIT: Duration = Duration::from_secs(2);

/// The game a host holds, as its table acts on it: the session, and the autosave that
/// keeps it (written before any peer is told).
pub(in crate::runtime) struct Held<'a> {
    /// The game.
    pub(in crate::runtime) session: &'a mut Session,
    /// Where it is kept.
    pub(in crate::runtime) autosaver: &'a Autosaver,
}

impl Held<'_> {
    fn save(&self, events: &mut Vec<Event>) {
        crate::runtime::saving::autosave(self.autosaver, self.session, events);
    }

    /// The side the player who joined plays.
    fn remote(&self, host: &Hosting) -> Color {
        self.session.seats().remote_side().unwrap_or(host.remote)
    }
}

impl Hosting {
    /// The host's own request, for its own side `mine` (checked already).
    pub(super) fn command(
        &mut self,
        game: &mut Held,
        command: &Command,
        mine: Color,
        events: &mut Vec<Event>,
    ) -> Option<Answer> {
        match command {
            Command::Play(_)
            | Command::PlayText(_)
            | Command::OfferDraw
            | Command::ClaimDraw
            | Command::AcceptDraw
            | Command::DeclineDraw
                if self.player.is_none() =>
            {
                Some(Err(SessionError::OtherPlayerAway))
            }
            Command::Undo | Command::UndoAgreed => {
                if game.session.game().moves().is_empty() {
                    return Some(Err(SessionError::NothingToUndo));
                }
                if self.player.is_none() {
                    return Some(Err(SessionError::OtherPlayerAway));
                }
                self.view.undo_asked = Some(mine);
                self.undo_revision = game.session.revision();
                Some(Ok(News::UndoAsked {
                    to: !mine,
                    moves: game.session.asked_take_back(mine),
                }))
            }
            Command::AnswerUndo(agreed) => {
                if self.view.undo_asked != Some(!mine) {
                    return Some(Err(SessionError::NothingToUndo));
                }
                Some(self.answer_undo(game, *agreed, events))
            }
            Command::Redo => Some(Err(SessionError::NothingToRedo)),
            Command::Chat(text) => {
                let text = chat_line(text);
                if !text.is_empty() {
                    let from = game.session.names().name(mine).unwrap_or(mine.name());
                    let from = from.to_string();
                    events.push(self.say(game, from, text));
                }
                Some(Ok(News::Nothing))
            }
            _ => None,
        }
    }

    /// A chat line said at this table: passed on to every peer, kept for the screens
    /// and with the game.
    fn say(&mut self, game: &Held, from: String, text: String) -> Event {
        self.broadcast(&HostMessage::Chat {
            from: from.clone(),
            text: text.clone(),
        });
        self.said += 1;
        let said = self.view.said(from, text);
        self.keep_chat(game);
        said
    }

    /// Keeps the chat beside the game's record, once the game has a file and when the
    /// chat or the file changed: a resumed game has it again.
    fn keep_chat(&mut self, game: &Held) {
        let Some(path) = game.autosaver.path() else {
            return;
        };
        if self.view.chat.is_empty() {
            return;
        }
        let now = (path, self.said);
        if self.chat_kept.as_ref() == Some(&now) {
            return;
        }
        let chat: Vec<(String, String)> = self.view.chat.iter().cloned().collect();
        crate::store::chat::save(&now.0, &chat);
        self.chat_kept = Some(now);
    }

    /// Keeps the door (the code and the port) beside the game's record while the game
    /// can be taken up again (over, or with no move yet, it is not kept: `--resume`
    /// would not offer it), so that `checkers host --resume` opens the same door and
    /// the boards come back by themselves (see [`crate::store::door`]). Written when
    /// the game's file, or whether it is kept, changed.
    fn keep_door(&mut self, game: &Held) {
        let Some(path) = game.autosaver.path() else {
            return;
        };
        let Seat::Host { code, .. } = &self.view.seat else {
            return;
        };
        let moves = game.session.game().moves();
        let gone = game.session.game().is_over() || moves.is_empty();
        let now = (path, gone);
        if self.door_kept.as_ref() == Some(&now) {
            return;
        }
        if gone {
            crate::store::door::remove(&now.0);
        } else {
            let bound = self.connections.address();
            let door = crate::store::door::Door {
                code: code.clone(),
                port: bound.port(),
                bind: Some(bound.ip()),
            };
            crate::store::door::save(&now.0, &door);
        }
        self.door_kept = Some(now);
    }

    /// The host's `n` once a game is over: the same two play again, the colours
    /// changed over (in a match, its next game is `next`).
    pub(super) fn rematch(&mut self, game: &mut Held) -> Answer {
        let session = &mut *game.session;
        if session.match_over() {
            return Err(SessionError::MatchOver);
        }
        if session.match_waits() {
            return session.next_match_game();
        }
        if !session.game().is_over() {
            return Err(SessionError::GameInPlay);
        }
        if self.player.is_none() {
            return Err(SessionError::OtherPlayerAway);
        }
        session.rematch();
        self.remote = !self.remote;
        self.view.undo_asked = None;
        Ok(News::NewGame)
    }

    /// The take-back asked for is answered: agreed, the asker's last move goes (and the
    /// reply to it, when the asker is to move again).
    fn answer_undo(&mut self, game: &mut Held, agreed: bool, events: &mut Vec<Event>) -> Answer {
        let Some(asker) = self.view.undo_asked.take() else {
            return Err(SessionError::NothingToUndo);
        };
        if !agreed {
            self.tell_peers(game, &News::UndoRefused(!asker), events);
            return Ok(News::Nothing);
        }
        let mut moves = Vec::new();
        loop {
            match game.session.undo_agreed()? {
                // Each turn taken back is older than the last: told in the order played.
                News::TookBack(taken) => {
                    moves.splice(0..0, taken);
                }
                other => return Ok(other),
            }
            let asker_moved_last = game.session.position().turn() == asker;
            if asker_moved_last || game.session.game().moves().is_empty() {
                break;
            }
        }
        Ok(News::TookBack(moves))
    }

    /// Tells the peers what happened, after the game as it stands now (so the news
    /// comes with the position it speaks of, which the boards check it against). News
    /// that is this terminal's own is not told.
    pub(super) fn tell_peers(&mut self, game: &Held, news: &News, events: &mut Vec<Event>) {
        let Some(news) = super::told::told(news) else {
            return;
        };
        self.tell_state(game, Instant::now(), false, events);
        self.broadcast(&HostMessage::News { news });
    }

    /// Tells the peers what this terminal's own command did (the host's), after it.
    pub(super) fn told(&mut self, game: &Held, answer: &Answer, events: &mut Vec<Event>) {
        if let Ok(news) = answer {
            self.tell_peers(game, news, events);
        }
    }

    /// At a poll: the peers' messages judged, and the game told as it changed.
    pub(super) fn serve(&mut self, game: &mut Held, now: Instant, events: &mut Vec<Event>) {
        // A take-back asked for the position before a move is no longer asked.
        if self.undo_revision != game.session.revision() {
            self.view.undo_asked = None;
        }
        // A stop long enough for the player's board to count the line down is taken as
        // that board took it, before anything that waited in the line is read.
        if let Some(at) = self.served_at {
            let gap = now.saturating_duration_since(at);
            if gap >= HOST_SILENCE {
                self.back_from_suspension(game, now, events);
            } else if gap >= STOP_NOTICED {
                // Shorter: the player's board kept its line, and its move made meanwhile
                // waits in it (see `made_during_stop`).
                self.stopped = Some((at, now));
            }
        }
        self.served_at = Some(now);
        for message in self.connections.incoming() {
            match message {
                Incoming::Opened(peer, address) => {
                    self.addresses.insert(peer, address_key(address.ip()));
                }
                Incoming::Message(peer, message) => {
                    self.peer_message(game, peer, message, events);
                    if self.player == Some(peer) {
                        self.player_heard = Some(now);
                    }
                }
                Incoming::Unproven(peer) => self.unproven(peer, events),
                Incoming::Ungreeted(peer, why) => self.ungreeted(peer, why),
                Incoming::Closed(peer, why) => self.peer_gone(game, peer, why, now, events),
            }
        }
        self.tell_state(game, now, false, events);
    }

    /// Whether a flag fall waits at `now`: the seated player's line has been silent
    /// longer than their board's pings allow, so it may be down, and the time since
    /// its last word plus one ping may be given back (see [`Hosting::unseat_player`]).
    /// A flag is decided once the line speaks again or is let go, never on time that
    /// is then given back.
    ///
    /// It waits as well just after a stop of this program (Ctrl-Z, any hold-up): a move
    /// the player made meanwhile waits in the line, unread until the table is served
    /// (and its reader runs), and is charged as their board timed it (see
    /// [`Hosting::made_during_stop`]); the clocks read first would have the player's
    /// flag fall on the time the stop ran on, though they moved in time.
    pub(in crate::runtime) fn flag_waits(&self, now: Instant) -> bool {
        let silent = self
            .player_heard
            .is_some_and(|heard| now.saturating_duration_since(heard) > PING_EVERY);
        self.player.is_some() && (silent || self.stop_unread(now))
    }

    /// Whether a stop of this program ended so lately at `now` that a move which waited
    /// in the line through it may not have been read yet: the table not served since
    /// (a gap of [`STOP_NOTICED`]), or served within [`STOP_READ_WITHIN`] of the stop.
    fn stop_unread(&self, now: Instant) -> bool {
        let unserved = self
            .served_at
            .is_some_and(|at| now.saturating_duration_since(at) >= STOP_NOTICED);
        let just_back = self
            .stopped
            .is_some_and(|(_, until)| now <= until + STOP_READ_WITHIN);
        unserved || just_back
    }

    /// The game as it stands now, as the peers are told it.
    fn game_state(&self, session: &Session) -> GameState {
        let record = session.record(&crate::store::today());
        let facts = crate::net::table::TableFacts {
            undo_asked: self.view.undo_asked,
            player_connected: self.player.is_some(),
            spectators: self.view.spectators,
            joiner_side: session.seats().remote_side().unwrap_or(self.remote),
        };
        crate::net::table::game_state(session, &record, facts)
    }

    /// Tells the peers the game when it changed (or `always`), and again every
    /// [`RESYNC`] while a clock runs; the autosave is written first.
    fn tell_state(&mut self, game: &Held, now: Instant, always: bool, events: &mut Vec<Event>) {
        let state = self.game_state(game.session);
        let changed = self.told.as_ref().is_none_or(|(told, at)| {
            let running = state.running.is_some();
            let same = GameState {
                clocks: told.clocks,
                ..state.clone()
            } == *told;
            !same || (running && now.saturating_duration_since(*at) >= RESYNC)
        });
        if always || changed {
            // Nothing is told before it is kept: a move a peer has seen survives the
            // host's end at any moment.
            game.save(events);
            // A chat said before the game had its file is kept once it has one.
            self.keep_chat(game);
            self.keep_door(game);
            self.broadcast(&HostMessage::State {
                state: state.clone(),
            });
            self.told = Some((state, now));
        }
    }

    fn peer_message(
        &mut self,
        game: &mut Held,
        peer: PeerId,
        message: ClientMessage,
        events: &mut Vec<Event>,
    ) {
        let role = self.greeted.get(&peer).copied();
        match (message, role) {
            (
                ClientMessage::Hello {
                    role: wanted,
                    name,
                    seat,
                },
                None,
            ) => {
                let hello = Hello {
                    role: wanted,
                    name,
                    seat,
                };
                self.greet(game, peer, hello, events);
            }
            (ClientMessage::Hello { .. }, Some(_)) => {}
            (_, None) => self.connections.close(
                peer,
                &HostMessage::Bye {
                    reason: "a greeting comes first".into(),
                },
            ),
            (ClientMessage::Ping, Some(_)) => self.connections.send(peer, &HostMessage::Pong),
            (ClientMessage::Chat { .. } | ClientMessage::Command { .. }, Some(Role::Spectator)) => {
                self.connections.send(
                    peer,
                    &HostMessage::Rejected {
                        reason: SessionError::Spectating.to_string(),
                    },
                );
            }
            (ClientMessage::Chat { text }, Some(Role::Player)) => {
                let text = chat_line(&text);
                if !text.is_empty() {
                    let remote = game.remote(self);
                    let from = game.session.names().name(remote).unwrap_or(remote.name());
                    let from = from.to_string();
                    events.push(self.say(game, from, text));
                }
            }
            (ClientMessage::Command { command }, Some(Role::Player)) => {
                if let Err(e) = self.remote_command(game, command, events) {
                    let reason = e.to_string();
                    self.connections
                        .send(peer, &HostMessage::Rejected { reason });
                }
            }
        }
    }

    /// Where `peer` connected from, as its wrong codes are counted.
    fn address(&self, peer: PeerId) -> IpAddr {
        self.addresses
            .get(&peer)
            .copied()
            .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED))
    }

    /// The refusal of a greeting from an address that must still wait after its wrong
    /// codes, if it must: the same whether the code it proved was right or wrong, and
    /// plain (the host does not prove the code), so the guess it made tells it nothing.
    fn made_to_wait(&self, peer: PeerId, now: Instant) -> Option<HostMessage> {
        let address = self.address(peer);
        let wait = self.guesses.wait_left(address, now)?;
        let reason = format!(
            "too many wrong codes from {address}: the next greeting is judged in {}",
            crate::net::guesses::wait_text(wait)
        );
        // Lasting for the joiner: trying the same code again by itself would only
        // spend its tries (a person checks the code, then joins again).
        Some(HostMessage::Refused {
            reason,
            lasting: true,
        })
    }

    /// A peer whose first frame did not prove the game's code: a wrong code, counted
    /// (unless its address waits already, when it is not judged) and refused. The
    /// refusal is plain, as it must be (the host cannot seal for a key it does not
    /// share): a denial only, which tells nothing of the game.
    fn unproven(&mut self, peer: PeerId, events: &mut Vec<Event>) {
        let now = Instant::now();
        if let Some(refusal) = self.made_to_wait(peer, now) {
            return self.connections.close(peer, &refusal);
        }
        let wrong = self.guesses.wrong(self.address(peer), now);
        self.connections.close(
            peer,
            &HostMessage::Refused {
                reason: "wrong code".into(),
                lasting: true,
            },
        );
        events.push(Event::Table(TableNews::WrongCode(wrong)));
    }

    /// A peer that proved the code but sent no greeting behind its proof (`why`):
    /// refused as a wrong code is while its address waits (the guess tells it
    /// nothing), told why and let go otherwise. It gave no wrong code: nothing counts.
    fn ungreeted(&mut self, peer: PeerId, why: String) {
        let refusal = self
            .made_to_wait(peer, Instant::now())
            .unwrap_or(HostMessage::Bye { reason: why });
        self.connections.close(peer, &refusal);
    }

    /// A peer's greeting, sealed behind its proof of the code, judged: refused (told
    /// why, and never read again) or let in, welcomed with the game. An address that
    /// gave wrong codes waits before its next greeting is judged, unless the greeting
    /// carries the seated player's token.
    fn greet(&mut self, game: &mut Held, peer: PeerId, hello: Hello, events: &mut Vec<Event>) {
        let refuse = |host: &Hosting, reason: String, lasting: bool| {
            host.connections
                .close(peer, &HostMessage::Refused { reason, lasting });
        };
        let now = Instant::now();
        let address = self.address(peer);
        // A seat token is 128 random bits: only the seated player holds it, so it is
        // judged even while the address waits.
        let returning = hello.role == Role::Player
            && hello
                .seat
                .as_deref()
                .is_some_and(|token| code_matches(token, &self.seat_token));
        if !returning && let Some(refusal) = self.made_to_wait(peer, now) {
            return self.connections.close(peer, &refusal);
        }
        // The peer proved the code: the host proves it too, and what follows is sealed.
        self.connections.prove(peer);
        self.guesses.right(address);
        let remote = game.remote(self);
        // The token of a spectator back, taken over from its old connection.
        let mut back = None;
        let side = match hello.role {
            Role::Player => {
                if let Some(stale) = self.player.filter(|_| returning) {
                    // The player's own line went silent; this connection takes over,
                    // and the silence is charged as if the old line had been let go.
                    let heard = self.player_heard;
                    if let Some(given_back) = self.stop_clocks_for_silence(game, heard, now, events)
                    {
                        events.push(Event::Table(TableNews::TookOver {
                            color: remote,
                            given_back,
                        }));
                    }
                    self.greeted.remove(&stale);
                    self.connections.close(
                        stale,
                        &HostMessage::Bye {
                            reason: "this seat was taken over by the player's new connection"
                                .into(),
                        },
                    );
                    self.player = None;
                }
                if self.player.is_some() {
                    return refuse(self, "a player is already at the table".into(), false);
                }
                let kept = self
                    .seat_kept_until
                    .map_or(Duration::ZERO, |until| until.saturating_duration_since(now));
                if !returning && !kept.is_zero() {
                    let reason = format!(
                        "the seat is kept for its player, whose line dropped, for {} more",
                        crate::net::guesses::wait_text(kept)
                    );
                    return refuse(self, reason, false);
                }
                if !returning {
                    self.seat_token = crate::net::new_token();
                }
                self.seat_kept_until = None;
                self.player = Some(peer);
                self.player_heard = Some(now);
                self.view.connected = true;
                Some(Side::from(remote))
            }
            Role::Spectator => {
                back = self.spectator_back(hello.seat.as_deref());
                let places = self.connections.spectator_places();
                if usize::try_from(self.view.spectators).unwrap_or(usize::MAX) >= places {
                    let reason = format!(
                        "the table is full: {places} watch already (the player's places are \
                         kept); try again later"
                    );
                    return refuse(self, reason, true);
                }
                self.view.spectators += 1;
                None
            }
        };
        self.connections.admit(peer);
        self.greeted.insert(peer, hello.role);
        let seat = match hello.role {
            Role::Player => self.seat_token.clone(),
            Role::Spectator => {
                // A spectator back keeps its token, so its next return is known too.
                let token = back.unwrap_or_else(crate::net::new_token);
                self.watchers.insert(peer, token.clone());
                token
            }
        };
        let seat = Some(seat);
        if hello.role == Role::Player {
            let name = hello
                .name
                .map(|n| crate::text::printable(n.trim(), MAX_NAME_CHARS))
                .filter(|n| !n.is_empty());
            // The host's side as its chat lines name it: a joiner's name that reads
            // the same would make the host's lines and the joiner's look alike.
            let hosts = game
                .session
                .names()
                .name(!remote)
                .unwrap_or((!remote).name());
            if !self.remote_named
                && let Some(name) = &name
                && !crate::net::names_look_alike(name, hosts)
            {
                game.session.name_player(remote, name.clone());
            }
            if std::mem::take(&mut self.stopped_for_line) {
                game.session.set_paused(false);
            }
            events.push(Event::Table(TableNews::Joined {
                color: remote,
                name: game.session.names().name(remote).map(String::from),
            }));
        }
        // Kept before it is told: the name the player gave, the clocks running again.
        game.save(events);
        let state = self.game_state(game.session);
        self.connections.send(
            peer,
            &HostMessage::Welcome {
                version: VERSION,
                side,
                seat,
                state,
                chat: self.view.chat.iter().cloned().collect(),
            },
        );
        // The others see who is there now.
        self.tell_state(game, Instant::now(), true, events);
    }

    /// A spectator greets with `token`: if it is the token of a spectator the host
    /// still holds (its line dropped, and the host has not let it go yet), that old
    /// connection is let go now, so the spectator back is counted once. The token, if
    /// it was.
    fn spectator_back(&mut self, token: Option<&str>) -> Option<String> {
        let token = token?;
        let stale = self
            .watchers
            .iter()
            .find(|(_, kept)| code_matches(token, kept))
            .map(|(peer, _)| *peer);
        let stale = stale?;
        let token = self.watchers.remove(&stale);
        if self.greeted.remove(&stale).is_some() {
            self.view.spectators = self.view.spectators.saturating_sub(1);
        }
        self.connections.close(
            stale,
            &HostMessage::Bye {
                reason: "this place was taken over by the spectator's new connection".into(),
            },
        );
        token
    }

    /// A peer's line ended at `now`, and `why`. The player's seat is emptied, its
    /// clocks stopped as of the player's silence (see [`Hosting::unseat_player`]).
    fn peer_gone(
        &mut self,
        game: &mut Held,
        peer: PeerId,
        why: String,
        now: Instant,
        events: &mut Vec<Event>,
    ) {
        self.addresses.remove(&peer);
        self.watchers.remove(&peer);
        match self.greeted.remove(&peer) {
            Some(Role::Spectator) => {
                self.view.spectators = self.view.spectators.saturating_sub(1);
            }
            Some(Role::Player) if self.player == Some(peer) => {
                self.seat_kept_until = Some(now + SEAT_KEPT);
                let heard = self.player_heard;
                let (remote, given_back) = self.unseat_player(game, heard, now, events);
                let why = match given_back {
                    Some(back) => format!("{why}; {back}"),
                    None => why,
                };
                events.push(Event::Table(TableNews::Left {
                    color: remote,
                    why: Some(why),
                }));
            }
            _ => {}
        }
    }

    /// This program served the table again only at `now`, at least [`HOST_SILENCE`]
    /// after it last did: it was stopped (Ctrl-Z) or held up, and answered no ping
    /// meanwhile. The player's board counted its line down, its clocks stopped as of its
    /// last word plus one ping, and connects again. The host does the same at once,
    /// before the messages that waited in the line meanwhile (read now, they would count
    /// as heard now, and the player would be charged for the whole stop while their board
    /// said the clocks stood): the player's line is let go, its seat kept for them, and
    /// their clock charged as their board showed it. The host's own clock, if it was the
    /// one running, ran on: the player waited for it.
    fn back_from_suspension(&mut self, game: &mut Held, now: Instant, events: &mut Vec<Event>) {
        let Some(peer) = self.player else {
            return;
        };
        // No goodbye: the board's line is down already, and a goodbye would read as the
        // host adjourning.
        self.connections.let_go(peer);
        self.seat_kept_until = Some(now + SEAT_KEPT);
        let remote = game.remote(self);
        let remote_ran = game.session.clock().and_then(|c| c.running()) == Some(remote);
        if !remote_ran {
            // The host's own clock, if it ran, ran on through the stop: read now (the
            // clocks were last read as the program stopped), its flag fallen if it did.
            if let Some(news) = game.session.tick(now) {
                events.push(Event::FlagFell(news.clone()));
                self.tell_peers(game, &news, events);
            }
        }
        let heard = self.player_heard.filter(|_| remote_ran);
        let (remote, given_back) = self.unseat_player(game, heard, now, events);
        let why = "this program did not run for a while (suspended?), and their board \
                   counted the line down";
        let why = match given_back {
            Some(back) => format!("{why}; {back}"),
            None => why.to_string(),
        };
        events.push(Event::Table(TableNews::Left {
            color: remote,
            why: Some(why),
        }));
    }

    /// The player's seat is empty now (`now`; the player last `heard` from then): the
    /// clocks stop until they are back, and a take-back asked is no longer asked. The
    /// side they play, and the words for the time given back, if any was.
    ///
    /// The player's board pings every [`PING_EVERY`] and counts its line down after
    /// ten seconds without the host, its clocks stopped then; this end lets the line
    /// go only after [`SILENCE`](crate::net::listener::SILENCE). So the clocks stop as
    /// of the player's last word plus one ping, not now: the player is never charged
    /// for time their screen said was not running (it stops its clocks as of the same
    /// moment, as near as it knows it), and a flag that would have fallen in between
    /// does not fall ([`Hosting::flag_waits`]). Rather than the host watching the
    /// silence itself, the listener's longer bound stays, so a slow line is not cut
    /// sooner than before; only the charge is set back.
    fn unseat_player(
        &mut self,
        game: &mut Held,
        heard: Option<Instant>,
        now: Instant,
        events: &mut Vec<Event>,
    ) -> (Color, Option<String>) {
        if let Some(peer) = self.player.take() {
            self.greeted.remove(&peer);
        }
        self.player_heard = None;
        self.view.connected = false;
        self.view.undo_asked = None;
        let remote = game.remote(self);
        let given_back = self.stop_clocks_for_silence(game, heard, now, events);
        (remote, given_back)
    }

    /// The clocks stopped at `now` for the player last `heard` from then: as of one
    /// [`PING_EVERY`] after that if it is past (see [`Hosting::unseat_player`]), or at
    /// once; a flag that fell before that stands. The words for the time given back, if
    /// any was.
    fn stop_clocks_for_silence(
        &mut self,
        game: &mut Held,
        heard: Option<Instant>,
        now: Instant,
        events: &mut Vec<Event>,
    ) -> Option<String> {
        let session = &mut *game.session;
        let running = session.clock().is_some_and(|c| c.running().is_some());
        if !running {
            return None;
        }
        let silent_at = heard.map(|at| at + PING_EVERY).filter(|at| *at < now);
        let mut given_back = None;
        match silent_at {
            Some(at) if session.flagged_by(at) => {
                // The flag fell before the line went silent: it stands.
                if let Some(news) = session.tick(now) {
                    events.push(Event::FlagFell(news.clone()));
                    self.tell_peers(game, &news, events);
                }
            }
            Some(at) => {
                if let Some((color, back)) = session.pause_as_of(at, now) {
                    self.stopped_for_line = true;
                    given_back = (back >= Duration::from_millis(100))
                        .then(|| given_back_words(now - at, back, color));
                }
            }
            None => {
                if session.set_paused(true) {
                    self.stopped_for_line = true;
                }
            }
        }
        given_back
    }

    /// What the joiner asks, for the side it plays and no other.
    fn remote_command(
        &mut self,
        game: &mut Held,
        command: RemoteCommand,
        events: &mut Vec<Event>,
    ) -> Result<(), SessionError> {
        let remote = game.remote(self);
        let mut earlier = Duration::ZERO;
        let local = match command {
            RemoteCommand::Play { text, left_ms } => {
                earlier = self.made_during_stop(game.session, remote, left_ms);
                // No move is longer; the rest would only be echoed back.
                Command::PlayText(text.chars().take(100).collect())
            }
            RemoteCommand::OfferDraw => Command::OfferDraw,
            RemoteCommand::AcceptDraw => Command::AcceptDraw,
            RemoteCommand::DeclineDraw => Command::DeclineDraw,
            RemoteCommand::ClaimDraw => Command::ClaimDraw,
            RemoteCommand::Resign => Command::Resign(remote),
            RemoteCommand::AskUndo => {
                if game.session.game().moves().is_empty() {
                    return Err(SessionError::NothingToUndo);
                }
                self.view.undo_asked = Some(remote);
                self.undo_revision = game.session.revision();
                events.push(Event::Table(TableNews::UndoAsked(remote)));
                return Ok(());
            }
            RemoteCommand::AnswerUndo { agreed } => {
                if self.view.undo_asked != Some(!remote) {
                    return Err(SessionError::NothingToUndo);
                }
                let news = self.answer_undo(game, agreed, events)?;
                self.remote_news(game, &news, events);
                if !agreed {
                    let refused = News::UndoRefused(remote);
                    events.push(Event::Table(TableNews::Told(refused.to_string())));
                }
                return Ok(());
            }
            RemoteCommand::Adjourn => {
                self.adjourned(game, remote, events);
                return Ok(());
            }
        };
        if let Some(outcome) = game.session.game().result() {
            return Err(crate::game::DeclareError::Over(outcome).into());
        }
        let acting = acting_side(game.session, &local);
        if acting != Some(remote) {
            return Err(SessionError::RemoteSide(acting.unwrap_or(!remote)));
        }
        let plies = game.session.game().moves().len();
        let news = crate::runtime::play_command(game.session, local)?;
        if !earlier.is_zero() && game.session.game().moves().len() == plies + 1 {
            game.session.move_made_earlier(earlier);
        }
        if let News::DrawOffered(by) = news {
            events.push(Event::Table(TableNews::DrawOffered(by)));
        }
        self.remote_news(game, &news, events);
        Ok(())
    }

    /// How much earlier than now the joiner (playing `remote`) made the move it sent
    /// with its board's reading `left_ms`, when that move waited in the line through a
    /// stop of this program that just ended: the board's reading, taken within the stop
    /// alone (it was charged until the host read the move, the host's stop on the
    /// joiner's clock). Nothing otherwise: a move is charged when it is read.
    fn made_during_stop(&self, session: &Session, remote: Color, left_ms: Option<u64>) -> Duration {
        let (Some((from, until)), Some(left_ms), Some(clock)) =
            (self.stopped, left_ms, session.clock())
        else {
            return Duration::ZERO;
        };
        let now = Instant::now();
        if clock.running() != Some(remote) || now > until + STOP_READ_WITHIN {
            return Duration::ZERO;
        }
        let left_now = session.time_left(remote).unwrap_or_default();
        let left_then = clock.remaining(remote, from);
        let shown = Duration::from_millis(left_ms).clamp(left_now, left_then.max(left_now));
        shown - left_now
    }

    /// The joiner adjourned (or left a finished game, or one with no move of the
    /// players' own, which is not kept): its connection ends here, the clocks stop with
    /// it, and no move is taken until they join again.
    fn adjourned(&mut self, game: &mut Held, remote: Color, events: &mut Vec<Event>) {
        let over = game.session.game().is_over();
        let unplayed = crate::store::games::not_begun(&game.session.record(&crate::store::today()));
        let news = if over || unplayed {
            News::LeftTable(remote)
        } else {
            News::Adjourned(remote)
        };
        let running = game.session.clock().is_some_and(|c| c.running().is_some());
        if !over {
            game.session.adjourn();
        }
        if let Some(peer) = self.player {
            self.connections.close(
                peer,
                &HostMessage::Bye {
                    // A finished game is not adjourned: there is nothing to go on with.
                    reason: if over {
                        "you left the table: the game is over".into()
                    } else if unplayed {
                        "you left before any move was played: join again to play".into()
                    } else {
                        "you adjourned the game: join again to go on".into()
                    },
                },
            );
        }
        self.unseat_player(game, None, Instant::now(), events);
        // The clocks run again when the player is back.
        if running && game.session.is_paused() {
            self.stopped_for_line = true;
        }
        game.save(events);
        self.tell_peers(game, &news, events);
        events.push(Event::Table(TableNews::Adjourned(news.to_string())));
    }

    /// What the joiner's request did, told at both ends.
    fn remote_news(&mut self, game: &Held, news: &News, events: &mut Vec<Event>) {
        let text = game.session.announce(news);
        if text.is_empty() {
            return;
        }
        self.tell_peers(game, news, events);
        events.push(Event::Table(TableNews::Told(text)));
    }

    /// The host ends the table: everyone is told why (`unplayed`: before any move was
    /// played, so nothing was kept to resume).
    pub(super) fn leave(&self, session: &Session, unplayed: bool) {
        let reason = if session.game().is_over() {
            "the host ended the game".to_string()
        } else if unplayed {
            "the host left before any move was played: there is no game to go on with".to_string()
        } else {
            "the host adjourned the game: it goes on when the host resumes it".to_string()
        };
        self.broadcast(&HostMessage::Bye { reason });
        // The program ends next: its goodbye is written first (a peer that does not
        // read is given up on soon).
        self.connections.end(LAST_WORD_WAIT);
    }
}

/// The words for time given back to `color` (`back`), charged only until `ago`
/// (one ping after its last word): "charged until 14:02:07, one ping after its last
/// word: 9.8 s given back to White".
fn given_back_words(ago: Duration, back: Duration, color: Color) -> String {
    let until = std::time::SystemTime::now()
        .checked_sub(ago)
        .and_then(|at| jiff::Timestamp::try_from(at).ok())
        .map(|at| {
            at.to_zoned(jiff::tz::TimeZone::system())
                .strftime("%H:%M:%S")
                .to_string()
        });
    let until = until.map_or_else(
        || format!("until {:.1} s ago", ago.as_secs_f64()),
        |at| format!("until {at}"),
    );
    format!(
        "charged {until}, one ping after its last word: {:.1} s given back to {color}",
        back.as_secs_f64()
    )
}
