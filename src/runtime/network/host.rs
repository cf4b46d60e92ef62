//! The host's side of a game across the network: its peers greeted, judged and told
//! the game as it changes.

use super::*;
use crate::net::guesses::Guesses;
use crate::net::listener::address_key;
use crate::net::normalize_code;
use std::net::IpAddr;

/// How often the host tells the game again though nothing changed, so the boards'
/// clocks stay within a line's delay of its own.
const RESYNC: Duration = Duration::from_secs(2);

/// A peer's greeting, as the host judges it.
#[derive(Debug)]
pub(super) struct Hello {
    pub(super) version: u32,
    pub(super) code: String,
    pub(super) role: Role,
    pub(super) name: Option<String>,
    pub(super) seat: Option<String>,
}

/// The host's side of the table.
#[derive(Debug)]
pub struct Hosting {
    pub(super) connections: Connections,
    /// Where others join.
    pub(super) shown_address: SocketAddr,
    pub(super) code: String,
    /// The side the joiner plays.
    pub(super) remote: Color,
    /// The player's connection, while there is one.
    pub(super) player: Option<PeerId>,
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
    /// over the seat from the player's own stale one.
    pub(super) seat_token: String,
    pub(super) view: TableView,
}

impl Hosting {
    /// The host's table: listening with `connections`, reached at `shown_address`,
    /// with `code` for those who join, the joiner playing `remote`.
    pub fn new(
        connections: Connections,
        shown_address: SocketAddr,
        code: String,
        remote: Color,
    ) -> Hosting {
        let view = TableView {
            seat: Seat::Host {
                address: shown_address,
                code: code.clone(),
                every_interface: connections.address().ip().is_unspecified(),
            },
            connected: false,
            spectators: 0,
            chat: VecDeque::new(),
            undo_asked: None,
        };
        Hosting {
            connections,
            shown_address,
            code,
            remote,
            player: None,
            greeted: HashMap::new(),
            stopped_for_line: false,
            remote_named: false,
            undo_revision: 0,
            told: None,
            addresses: HashMap::new(),
            guesses: Guesses::default(),
            seat_token: crate::net::new_token(),
            view,
        }
    }

    /// Where others join.
    pub fn address(&self) -> SocketAddr {
        self.shown_address
    }

    /// With the joiner's side named by the host (`--white-name`): the name the joiner
    /// gives is not taken.
    pub fn with_remote_named(mut self, named: bool) -> Hosting {
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

impl Runtime {
    /// The host's own request, for its own side `mine` (checked already).
    pub(super) fn host_command(&mut self, command: &Command, mine: Color) -> Option<Answer> {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return None;
        };
        match command {
            Command::Play(_)
            | Command::PlayText(_)
            | Command::OfferDraw
            | Command::ClaimDraw
            | Command::AcceptDraw
            | Command::DeclineDraw
                if host.player.is_none() =>
            {
                Some(Err(SessionError::OtherPlayerAway))
            }
            Command::Undo | Command::UndoAgreed => {
                if self.session.game().moves().is_empty() {
                    return Some(Err(SessionError::NothingToUndo));
                }
                if host.player.is_none() {
                    return Some(Err(SessionError::OtherPlayerAway));
                }
                host.view.undo_asked = Some(mine);
                host.undo_revision = self.session.revision();
                Some(Ok(News::UndoAsked(!mine)))
            }
            Command::AnswerUndo(agreed) => {
                if host.view.undo_asked != Some(!mine) {
                    return Some(Err(SessionError::NothingToUndo));
                }
                Some(self.answer_undo(*agreed))
            }
            Command::Redo => Some(Err(SessionError::NothingToRedo)),
            Command::Chat(text) => {
                let text = chat_line(text);
                if !text.is_empty() {
                    let from = self
                        .session
                        .names()
                        .name(mine)
                        .unwrap_or(mine.name())
                        .to_string();
                    self.chat(from, text);
                }
                Some(Ok(News::Nothing))
            }
            _ => None,
        }
    }

    /// The host's `n` once a game is over: the same two play again, the colours
    /// changed over (in a match, its next game is `next`).
    pub(super) fn host_rematch(&mut self) -> Answer {
        let Some(Table::Host(host)) = self.table.as_ref() else {
            return Err(SessionError::NotAcrossTheNetwork);
        };
        if self.session.match_over() {
            return Err(SessionError::MatchOver);
        }
        if self.session.match_waits() {
            return self.session.next_match_game();
        }
        if !self.session.game().is_over() {
            return Err(SessionError::GameInPlay);
        }
        if host.player.is_none() {
            return Err(SessionError::OtherPlayerAway);
        }
        self.session.rematch();
        if let Some(Table::Host(host)) = self.table.as_mut() {
            host.remote = !host.remote;
            host.view.undo_asked = None;
        }
        Ok(News::NewGame)
    }

    /// The take-back asked for is answered: agreed, the asker's last move goes (and the
    /// reply to it, when the asker is to move again).
    pub(super) fn answer_undo(&mut self, agreed: bool) -> Answer {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return Err(SessionError::NothingToUndo);
        };
        let Some(asker) = host.view.undo_asked.take() else {
            return Err(SessionError::NothingToUndo);
        };
        if !agreed {
            let news = format!("{} refused the take-back: the move stands", !asker);
            self.tell_peers(&news);
            return Ok(News::Nothing);
        }
        let mut moves = Vec::new();
        loop {
            match self.session.undo_agreed()? {
                News::TookBack(taken) => moves.extend(taken),
                other => return Ok(other),
            }
            let asker_moved_last = self.session.position().turn() == asker;
            if asker_moved_last || self.session.game().moves().is_empty() {
                break;
            }
        }
        Ok(News::TookBack(moves))
    }

    /// The host tells its peers what happened, in words, after the game as it stands
    /// now (so the words come with the position they speak of).
    pub(super) fn tell_peers(&mut self, text: &str) {
        self.tell_state(Instant::now(), false);
        if let Some(Table::Host(host)) = self.table.as_ref() {
            host.broadcast(&HostMessage::News {
                text: text.to_string(),
            });
        }
    }

    /// Tells the peers what this terminal's own command did (the host's), after it.
    pub(in crate::runtime) fn told_by_host(&mut self, answer: &Answer) {
        if let (Some(Table::Host(_)), Ok(news)) = (self.table.as_ref(), answer)
            && !matches!(news, News::UndoAsked(_))
        {
            let text = self.session.announce(news);
            if !text.is_empty() {
                self.tell_peers(&text);
            }
        }
    }

    pub(super) fn serve_peers(&mut self, now: Instant, events: &mut Vec<Event>) {
        let revision = self.session.revision();
        let incoming = match self.table.as_mut() {
            Some(Table::Host(host)) => {
                // A take-back asked for the position before a move is no longer asked.
                if host.undo_revision != revision {
                    host.view.undo_asked = None;
                }
                host.connections.incoming()
            }
            _ => return,
        };
        for message in incoming {
            match message {
                Incoming::Opened(peer, address) => {
                    if let Some(Table::Host(host)) = self.table.as_mut() {
                        host.addresses.insert(peer, address_key(address.ip()));
                    }
                }
                Incoming::Message(peer, message) => self.peer_message(peer, message, events),
                Incoming::Closed(peer, why) => self.peer_gone(peer, why, events),
            }
        }
        self.tell_state(now, false);
    }

    /// The game as it stands now, as the peers are told it.
    pub(super) fn game_state(&self) -> Option<GameState> {
        let Some(Table::Host(host)) = self.table.as_ref() else {
            return None;
        };
        let record = self.session.record(&crate::store::today());
        let followed = self.session.followed();
        let clocks = followed
            .clocks
            .map(|(left, _)| left.map(|d| d.as_millis() as u64));
        Some(GameState {
            pdn: crate::pdn::write_game(&record),
            clocks,
            running: followed
                .clocks
                .and_then(|(_, running)| running)
                .map(Side::from),
            draw_offer: self.session.game().draw_offer().map(Side::from),
            undo_asked: host.view.undo_asked.map(Side::from),
            player_connected: host.player.is_some(),
            spectators: host.view.spectators,
            joiner_side: Side::from(self.session.seats().remote_side().unwrap_or(host.remote)),
            game_number: self.session.game_number(),
        })
    }

    /// Tells the peers the game when it changed (or `always`), and again every
    /// [`RESYNC`] while a clock runs; the autosave is written first.
    pub(super) fn tell_state(&mut self, now: Instant, always: bool) {
        let Some(state) = self.game_state() else {
            return;
        };
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return;
        };
        let changed = host.told.as_ref().is_none_or(|(told, at)| {
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
            let mut saved = Vec::new();
            self.autosave(&mut saved);
            self.pending.extend(saved);
            let Some(Table::Host(host)) = self.table.as_mut() else {
                return;
            };
            host.broadcast(&HostMessage::State {
                state: state.clone(),
            });
            host.told = Some((state, now));
        }
    }

    pub(super) fn peer_message(
        &mut self,
        peer: PeerId,
        message: ClientMessage,
        events: &mut Vec<Event>,
    ) {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return;
        };
        let role = host.greeted.get(&peer).copied();
        match (message, role) {
            (
                ClientMessage::Hello {
                    version,
                    code,
                    role: wanted,
                    name,
                    seat,
                },
                None,
            ) => {
                let hello = Hello {
                    version,
                    code,
                    role: wanted,
                    name,
                    seat,
                };
                self.greet(peer, hello, events);
            }
            (ClientMessage::Hello { .. }, Some(_)) => {}
            (_, None) => host.connections.close(
                peer,
                &HostMessage::Bye {
                    reason: "a greeting comes first".into(),
                },
            ),
            (ClientMessage::Ping, Some(_)) => host.connections.send(peer, &HostMessage::Pong),
            (ClientMessage::Chat { .. }, Some(Role::Spectator)) => host.connections.send(
                peer,
                &HostMessage::Rejected {
                    reason: SessionError::Spectating.to_string(),
                },
            ),
            (ClientMessage::Chat { text }, Some(Role::Player)) => {
                let text = chat_line(&text);
                if !text.is_empty() {
                    let remote = self.session.seats().remote_side().unwrap_or(host.remote);
                    let from = self
                        .session
                        .names()
                        .name(remote)
                        .unwrap_or(remote.name())
                        .to_string();
                    self.chat(from, text);
                }
            }
            (ClientMessage::Command { .. }, Some(Role::Spectator)) => host.connections.send(
                peer,
                &HostMessage::Rejected {
                    reason: SessionError::Spectating.to_string(),
                },
            ),
            (ClientMessage::Command { command }, Some(Role::Player)) => {
                if let Err(e) = self.remote_command(command, events)
                    && let Some(Table::Host(host)) = self.table.as_ref()
                {
                    host.connections.send(
                        peer,
                        &HostMessage::Rejected {
                            reason: e.to_string(),
                        },
                    );
                }
            }
        }
    }

    /// A peer's greeting judged: refused (told why, and never read again) or let in,
    /// welcomed with the game. Wrong codes are counted per address: past a few, the
    /// address waits before its next greeting is judged at all.
    pub(super) fn greet(&mut self, peer: PeerId, hello: Hello, events: &mut Vec<Event>) {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return;
        };
        let refuse = |host: &Hosting, reason: String, lasting: bool| {
            host.connections
                .close(peer, &HostMessage::Refused { reason, lasting });
        };
        if hello.version != VERSION {
            let e = crate::net::protocol::ProtocolError::Version(hello.version);
            return refuse(host, e.to_string(), true);
        }
        let now = Instant::now();
        let address = host
            .addresses
            .get(&peer)
            .copied()
            .unwrap_or(IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED));
        // A seat token is 128 random bits: only the seated player holds it, so it is
        // judged even while the address waits.
        let returning = hello.role == Role::Player
            && hello
                .seat
                .as_deref()
                .is_some_and(|token| code_matches(token, &host.seat_token));
        if !returning && let Some(wait) = host.guesses.wait_left(address, now) {
            let reason = format!(
                "too many wrong codes from {address}: the next greeting is judged in {}",
                crate::net::guesses::wait_text(wait)
            );
            // Lasting for the joiner: trying the same code again by itself would only
            // spend its tries (a person checks the code, then joins again).
            return refuse(host, reason, true);
        }
        // Compared in full whatever the role, so a refusal tells nothing of the game.
        if !code_matches(&normalize_code(&hello.code), &normalize_code(&host.code)) {
            let wrong = host.guesses.wrong(address, now);
            refuse(host, "wrong code".into(), true);
            events.push(Event::Table(TableNews::WrongCode(wrong)));
            return;
        }
        host.guesses.right(address);
        let remote = self.session.seats().remote_side().unwrap_or(host.remote);
        let side = match hello.role {
            Role::Player => {
                if let Some(stale) = host.player.filter(|_| returning) {
                    // The player's own line went silent; this connection takes over.
                    host.greeted.remove(&stale);
                    host.connections.close(
                        stale,
                        &HostMessage::Bye {
                            reason: "this seat was taken over by the player's new connection"
                                .into(),
                        },
                    );
                    host.player = None;
                }
                if host.player.is_some() {
                    return refuse(host, "a player is already at the table".into(), false);
                }
                host.player = Some(peer);
                host.view.connected = true;
                Some(Side::from(remote))
            }
            Role::Spectator => {
                host.view.spectators += 1;
                None
            }
        };
        host.connections.admit(peer);
        host.greeted.insert(peer, hello.role);
        let remote_named = host.remote_named;
        let seat = (hello.role == Role::Player).then(|| host.seat_token.clone());
        if hello.role == Role::Player {
            let name = hello
                .name
                .map(|n| crate::text::printable(n.trim(), MAX_NAME_CHARS))
                .filter(|n| !n.is_empty());
            if !remote_named && let Some(name) = &name {
                self.session.name_player(remote, name.clone());
            }
            if let Some(Table::Host(host)) = self.table.as_mut()
                && std::mem::take(&mut host.stopped_for_line)
            {
                self.session.set_paused(false);
            }
            events.push(Event::Table(TableNews::Joined {
                color: remote,
                name: self.session.names().name(remote).map(String::from),
            }));
        }
        // Kept before it is told: the name the player gave, the clocks running again.
        self.autosave(events);
        let Some(state) = self.game_state() else {
            return;
        };
        if let Some(Table::Host(host)) = self.table.as_ref() {
            host.connections.send(
                peer,
                &HostMessage::Welcome {
                    version: VERSION,
                    side,
                    seat,
                    state,
                    chat: host.view.chat.iter().cloned().collect(),
                },
            );
        }
        // The others see who is there now.
        self.tell_state(Instant::now(), true);
    }

    pub(super) fn peer_gone(&mut self, peer: PeerId, why: String, events: &mut Vec<Event>) {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return;
        };
        host.addresses.remove(&peer);
        match host.greeted.remove(&peer) {
            Some(Role::Spectator) => {
                host.view.spectators = host.view.spectators.saturating_sub(1);
            }
            Some(Role::Player) if host.player == Some(peer) => {
                let remote = self.unseat_player();
                events.push(Event::Table(TableNews::Left { color: remote, why }));
            }
            _ => {}
        }
    }

    /// The player's seat is empty now: the clocks stop until they are back, and a
    /// take-back asked is no longer asked. The side they play.
    fn unseat_player(&mut self) -> Color {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return Color::White;
        };
        if let Some(peer) = host.player.take() {
            host.greeted.remove(&peer);
        }
        host.view.connected = false;
        host.view.undo_asked = None;
        let remote = self.session.seats().remote_side().unwrap_or(host.remote);
        let running = self.session.clock().is_some_and(|c| c.running().is_some());
        if running
            && self.session.set_paused(true)
            && let Some(Table::Host(host)) = self.table.as_mut()
        {
            host.stopped_for_line = true;
        }
        remote
    }

    /// What the joiner asks, for the side it plays and no other.
    pub(super) fn remote_command(
        &mut self,
        command: RemoteCommand,
        events: &mut Vec<Event>,
    ) -> Result<(), SessionError> {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return Ok(());
        };
        let remote = self.session.seats().remote_side().unwrap_or(host.remote);
        let local = match command {
            RemoteCommand::Play { text } => {
                // No move is longer; the rest would only be echoed back.
                Command::PlayText(text.chars().take(100).collect())
            }
            RemoteCommand::OfferDraw => Command::OfferDraw,
            RemoteCommand::AcceptDraw => Command::AcceptDraw,
            RemoteCommand::DeclineDraw => Command::DeclineDraw,
            RemoteCommand::ClaimDraw => Command::ClaimDraw,
            RemoteCommand::Resign => Command::Resign(remote),
            RemoteCommand::AskUndo => {
                if self.session.game().moves().is_empty() {
                    return Err(SessionError::NothingToUndo);
                }
                host.view.undo_asked = Some(remote);
                host.undo_revision = self.session.revision();
                events.push(Event::Table(TableNews::UndoAsked(remote)));
                return Ok(());
            }
            RemoteCommand::AnswerUndo { agreed } => {
                if host.view.undo_asked != Some(!remote) {
                    return Err(SessionError::NothingToUndo);
                }
                let news = self.answer_undo(agreed)?;
                self.remote_news(&news, events);
                if !agreed {
                    events.push(Event::Table(TableNews::Told(format!(
                        "{remote} refused the take-back: the move stands"
                    ))));
                }
                return Ok(());
            }
            RemoteCommand::Adjourn => {
                // The player's connection ends here: the clocks stop with it, and no
                // move is taken until they join again.
                let over = self.session.game().is_over();
                let text = if over {
                    format!("{remote} left the table")
                } else {
                    format!(
                        "{remote} adjourned the game: it is saved, and goes on when they join again"
                    )
                };
                let running = self.session.clock().is_some_and(|c| c.running().is_some());
                if !over {
                    self.session.adjourn();
                }
                if let Some(Table::Host(host)) = self.table.as_mut()
                    && let Some(peer) = host.player
                {
                    host.connections.close(
                        peer,
                        &HostMessage::Bye {
                            reason: "you adjourned the game: join again to go on".into(),
                        },
                    );
                }
                self.unseat_player();
                // The clocks run again when the player is back.
                if running
                    && self.session.is_paused()
                    && let Some(Table::Host(host)) = self.table.as_mut()
                {
                    host.stopped_for_line = true;
                }
                self.autosave(events);
                self.tell_peers(&text);
                events.push(Event::Table(TableNews::Adjourned(text)));
                return Ok(());
            }
        };
        if let Some(outcome) = self.session.game().result() {
            return Err(crate::game::DeclareError::Over(outcome).into());
        }
        if acting_side(&self.session, &local) != Some(remote) {
            let side = acting_side(&self.session, &local).unwrap_or(!remote);
            return Err(SessionError::RemoteSide(side));
        }
        let news = self.run_command(local)?;
        if let News::DrawOffered(by) = news {
            events.push(Event::Table(TableNews::DrawOffered(by)));
        }
        self.remote_news(&news, events);
        Ok(())
    }

    /// What the joiner's request did, told at both ends.
    pub(super) fn remote_news(&mut self, news: &News, events: &mut Vec<Event>) {
        let text = self.session.announce(news);
        if text.is_empty() {
            return;
        }
        self.tell_peers(&text);
        events.push(Event::Table(TableNews::Told(text)));
    }
}
