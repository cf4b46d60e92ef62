//! A game across the network, under the runtime: the host's table (it holds the game
//! and judges what its peers ask) and a joiner's or spectator's board (it follows the
//! host's game and sends its player's requests there).
//!
//! Either way, this terminal acts only for its own side: a command for the other side
//! is refused, as is one that both players would have to agree on at one terminal (a
//! new game, a set-up, a pause). A take-back needs the other player's consent, asked
//! across the line.

use super::{Answer, Command, Event, Runtime};
use crate::net::link::{Link, LinkNews, Welcome};
use crate::net::listener::{Connections, Incoming, PeerId};
use crate::net::protocol::{
    ClientMessage, GameState, HostMessage, RemoteCommand, Role, Side, VERSION, chat_line,
    code_matches,
};
use crate::pdn::PdnGame;
use crate::rules::Color;
use crate::session::{Followed, News, Player, Session, SessionError};
use std::collections::{HashMap, VecDeque};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Chat lines kept for the screens.
const CHAT_KEPT: usize = 50;

/// How often the host tells the game again though nothing changed, so the boards'
/// clocks stay within a line's delay of its own.
const RESYNC: Duration = Duration::from_secs(2);

/// The longest name a joiner is known by.
const MAX_NAME_CHARS: usize = 40;

/// What the line between the terminals tells the screens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TableNews {
    /// The host: the player joined (again), and plays this side under this name.
    Joined {
        /// The side they play.
        color: Color,
        /// Their name, if they gave one.
        name: Option<String>,
    },
    /// The host: the player's line dropped, and why; the clocks stop until they are back.
    Left {
        /// The side they play.
        color: Color,
        /// Why the line dropped.
        why: String,
    },
    /// A joiner: the line to the host dropped, and why; it is tried again.
    LineDown(String),
    /// A joiner: the line to the host is back.
    LineUp,
    /// A joiner: the host refused this terminal on reconnecting (a new code after a
    /// resume): the line is not tried again.
    Lost(String),
    /// What happened in the game, as the host tells it ("White played 22-18").
    Told(String),
    /// The host refused a request of this terminal's, and why.
    Refused(String),
    /// A chat line.
    Chat {
        /// Who said it.
        from: String,
        /// What they said.
        text: String,
    },
    /// The other player asks to take back the last move: answer with
    /// [`Command::AnswerUndo`].
    UndoAsked(Color),
    /// The other player offers a draw: answer with [`Command::AcceptDraw`] or
    /// [`Command::DeclineDraw`].
    DrawOffered(Color),
    /// The other end stopped for now (the player adjourned, or the host ended).
    Adjourned(String),
}

/// What this terminal is at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Seat {
    /// The host, listening at this address for the player and spectators with this
    /// code.
    Host {
        /// Where others join (an address another machine reaches).
        address: SocketAddr,
        /// The code they need.
        code: String,
    },
    /// A player who joined, playing this side.
    Player(Color),
    /// A spectator.
    Spectator,
}

/// The state of the table, for the screens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableView {
    /// What this terminal is.
    pub seat: Seat,
    /// Whether the other player is connected (the host: the joiner; a joiner: the host,
    /// and for a spectator the host and the player).
    pub connected: bool,
    /// How many watch.
    pub spectators: u32,
    /// The chat so far, oldest first: (who, what).
    pub chat: VecDeque<(String, String)>,
    /// A take-back asked for and not yet answered, by this side.
    pub undo_asked: Option<Color>,
}

/// The game across the network that this runtime's session is part of.
#[derive(Debug)]
pub enum Table {
    /// This terminal holds the game.
    Host(Box<Hosting>),
    /// This terminal follows the game held by a host.
    Guest(Box<Following>),
}

/// The host's side of the table.
#[derive(Debug)]
pub struct Hosting {
    connections: Connections,
    /// Where others join.
    shown_address: SocketAddr,
    code: String,
    /// The side the joiner plays.
    remote: Color,
    /// The player's connection, while there is one.
    player: Option<PeerId>,
    /// The peers that said who they are, and as what.
    greeted: HashMap<PeerId, Role>,
    /// Whether the clocks were stopped because the player is away.
    stopped_for_line: bool,
    /// The player adjourned: their line's drop that follows is no news.
    adjourned: bool,
    /// The host named the joiner's side: the name the joiner gives is not taken.
    remote_named: bool,
    /// The game's revision when a take-back was asked: a move since ends the request.
    undo_revision: u64,
    /// The game as last told to the peers, and when.
    told: Option<(GameState, Instant)>,
    view: TableView,
}

/// A joiner's or spectator's side of the table.
#[derive(Debug)]
pub struct Following {
    link: Link,
    /// The side this terminal plays (none: it watches).
    side: Option<Color>,
    /// The game as the host last told it.
    state: GameState,
    /// The file this terminal keeps its copy of the record in.
    record_file: Option<PathBuf>,
    /// The host said goodbye: the line's drop that follows is no news.
    farewell: bool,
    view: TableView,
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
            adjourned: false,
            remote_named: false,
            undo_revision: 0,
            told: None,
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
    fn broadcast(&self, message: &HostMessage) {
        for peer in self.greeted.keys() {
            self.connections.send(*peer, message);
        }
    }
}

impl Following {
    /// A joiner's board: `link` to the host, which welcomed it as `welcome` says;
    /// its copy of the record kept in `record_file`.
    pub fn new(link: Link, welcome: &Welcome, record_file: Option<PathBuf>) -> Following {
        let side = welcome.side.map(Color::from);
        let view = TableView {
            seat: side.map_or(Seat::Spectator, Seat::Player),
            connected: welcome.state.player_connected,
            spectators: welcome.state.spectators,
            chat: VecDeque::new(),
            undo_asked: welcome.state.undo_asked.map(Color::from),
        };
        Following {
            link,
            side,
            state: welcome.state.clone(),
            record_file,
            farewell: false,
            view,
        }
    }
}

/// The record a host's state carries, read: `None` if it does not read (then the
/// board keeps what it had).
pub fn state_record(state: &GameState) -> Option<PdnGame> {
    crate::pdn::read_games(&state.pdn).into_iter().next()?.ok()
}

/// The session a joiner's board starts from: the host's game as `welcome` tells it,
/// this terminal playing its side (or watching), the other side across the network.
pub fn joined_session(welcome: &Welcome, now: Instant) -> Option<Session> {
    let record = state_record(&welcome.state)?;
    let mut session = Session::from_record(&record).with_recorded_clock(now);
    session = session
        .with_seats(seats_for(welcome.side.map(Color::from)))
        .with_assist(false);
    session.follow(followed(&welcome.state, &record), now);
    Some(session)
}

/// The game a host's state tells.
fn followed(state: &GameState, record: &PdnGame) -> Followed {
    let mut followed = Followed::of_record(record);
    if let Some(by) = state.draw_offer {
        let _ = followed.game.offer_draw(by.into());
    }
    followed.clocks = state.clocks.map(|[black, white]| {
        (
            [Duration::from_millis(black), Duration::from_millis(white)],
            state.running.map(Color::from),
        )
    });
    followed
}

/// Seats for a board at which this terminal plays `side` (none: it watches), the other
/// side across the network.
fn seats_for(side: Option<Color>) -> crate::session::Seats {
    let mut seats = crate::session::Seats::PEOPLE;
    for color in Color::ALL {
        let player = match side {
            Some(side) if side == color => Player::Person,
            _ => Player::Remote,
        };
        seats.set(color, player);
    }
    seats
}

/// The side a command acts for, when it acts for one: the side to move for a move, an
/// offer or a claim; the resigning side; the side answering a draw offer.
fn acting_side(session: &Session, command: &Command) -> Option<Color> {
    let turn = session.position().turn();
    match command {
        Command::Play(_) | Command::PlayText(_) | Command::OfferDraw | Command::ClaimDraw => {
            Some(turn)
        }
        Command::Resign(color) => Some(*color),
        Command::AcceptDraw | Command::DeclineDraw => session.game().draw_offer().map(|by| !by),
        _ => None,
    }
}

/// Whether a command is one both players would agree on at one terminal, so not for a
/// game across the network.
fn not_across_the_network(command: &Command) -> bool {
    matches!(
        command,
        Command::NewGame
            | Command::SetUp(_)
            | Command::ToggleSeat(_)
            | Command::Seat(..)
            | Command::ChangeLevel(_)
            | Command::Pause(_)
            | Command::OpenGame(_)
    )
}

impl Runtime {
    /// This runtime's game is played across the network at `table`. A host's clocks
    /// wait for the player to join.
    pub fn at_table(mut self, mut table: Table) -> Runtime {
        if let Table::Host(host) = &mut table
            && self.session.clock().is_some_and(|c| c.running().is_some())
        {
            host.stopped_for_line = self.session.set_paused(true);
        }
        self.table = Some(table);
        self
    }

    /// The state of the table, in a game across the network.
    pub fn table(&self) -> Option<&TableView> {
        match self.table.as_ref()? {
            Table::Host(host) => Some(&host.view),
            Table::Guest(guest) => Some(&guest.view),
        }
    }

    /// A command of this terminal's in a game across the network: `None` when it is
    /// not the network's matter (the runtime carries it out as in any game).
    pub(super) fn table_command(&mut self, command: &Command) -> Option<Answer> {
        let table = self.table.as_ref()?;
        if not_across_the_network(command) {
            return Some(Err(SessionError::NotAcrossTheNetwork));
        }
        let guest = matches!(table, Table::Guest(_));
        let mine = match table {
            Table::Host(host) => Some(!self.session.seats().remote_side().unwrap_or(host.remote)),
            Table::Guest(guest) => guest.side,
        };
        let acts = acting_side(&self.session, command).is_some()
            || matches!(
                command,
                Command::Undo
                    | Command::UndoAgreed
                    | Command::AnswerUndo(_)
                    | Command::Redo
                    | Command::Adjourn
            );
        let Some(mine) = mine else {
            // A spectator saves and steps through the moves; it does not act.
            return match command {
                Command::Chat(_) => Some(Err(SessionError::Spectating)),
                Command::Adjourn => Some(Ok(News::Nothing)),
                _ if acts => Some(Err(SessionError::Spectating)),
                _ => None,
            };
        };
        if let Some(side) = acting_side(&self.session, command)
            && side != mine
        {
            return Some(Err(SessionError::RemoteSide(side)));
        }
        if guest {
            return self.send_to_host(command, mine);
        }
        self.host_command(command, mine)
    }

    /// A joiner's request, checked here against the game as the host last told it,
    /// then sent: the host's answer comes as news.
    fn send_to_host(&mut self, command: &Command, mine: Color) -> Option<Answer> {
        let Some(Table::Guest(guest)) = self.table.as_mut() else {
            return None;
        };
        let remote = match command {
            Command::Play(m) => {
                let mut game = self.session.game().clone();
                if let Err(e) = game.play(m) {
                    return Some(Err(e.into()));
                }
                RemoteCommand::Play {
                    text: m.to_string(),
                }
            }
            Command::PlayText(text) => {
                let mut game = self.session.game().clone();
                match game.play_text(text) {
                    Ok(m) => RemoteCommand::Play {
                        text: m.to_string(),
                    },
                    Err(e) => return Some(Err(e.into())),
                }
            }
            Command::OfferDraw => RemoteCommand::OfferDraw,
            Command::AcceptDraw => RemoteCommand::AcceptDraw,
            Command::DeclineDraw => RemoteCommand::DeclineDraw,
            Command::ClaimDraw => RemoteCommand::ClaimDraw,
            Command::Resign(_) => RemoteCommand::Resign,
            Command::Undo | Command::UndoAgreed => {
                if self.session.game().moves().is_empty() {
                    return Some(Err(SessionError::NothingToUndo));
                }
                guest.view.undo_asked = Some(mine);
                guest.link.send(ClientMessage::Command {
                    command: RemoteCommand::AskUndo,
                });
                return Some(Ok(News::UndoAsked(!mine)));
            }
            Command::AnswerUndo(agreed) => {
                if guest.view.undo_asked != Some(!mine) {
                    return Some(Err(SessionError::NothingToUndo));
                }
                guest.view.undo_asked = None;
                RemoteCommand::AnswerUndo { agreed: *agreed }
            }
            Command::Redo => return Some(Err(SessionError::NothingToRedo)),
            Command::Adjourn => {
                guest.link.send(ClientMessage::Command {
                    command: RemoteCommand::Adjourn,
                });
                return Some(Ok(News::Nothing));
            }
            Command::Chat(text) => {
                let text = chat_line(text);
                if !text.is_empty() {
                    guest.link.send(ClientMessage::Chat { text });
                }
                return Some(Ok(News::Nothing));
            }
            Command::NextGame => return Some(Err(SessionError::HostStartsNextGame)),
            // What changes only this board: stepping, saving a copy, the engine's help
            // (which the host's assistance setting refuses).
            Command::Step(_)
            | Command::StepTo(_)
            | Command::LeaveReview
            | Command::SaveAs(_)
            | Command::Hint
            | Command::MoveNow => return None,
            _ => return Some(Err(SessionError::NotAcrossTheNetwork)),
        };
        if !guest.view.connected {
            return Some(Err(SessionError::OtherPlayerAway));
        }
        guest.link.send(ClientMessage::Command { command: remote });
        Some(Ok(News::Sent))
    }

    /// The host's own request, for its own side `mine` (checked already).
    fn host_command(&mut self, command: &Command, mine: Color) -> Option<Answer> {
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

    /// The take-back asked for is answered: agreed, the asker's last move goes (and the
    /// reply to it, when the asker is to move again).
    fn answer_undo(&mut self, agreed: bool) -> Answer {
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

    /// A chat line said at this table: kept for the screens and, at the host, passed on.
    fn chat(&mut self, from: String, text: String) {
        let view = match self.table.as_mut() {
            Some(Table::Host(host)) => {
                host.broadcast(&HostMessage::Chat {
                    from: from.clone(),
                    text: text.clone(),
                });
                &mut host.view
            }
            Some(Table::Guest(guest)) => &mut guest.view,
            None => return,
        };
        view.chat.push_back((from.clone(), text.clone()));
        while view.chat.len() > CHAT_KEPT {
            view.chat.pop_front();
        }
        self.pending
            .push(Event::Table(TableNews::Chat { from, text }));
    }

    /// The host tells its peers what happened, in words, after the game as it stands
    /// now (so the words come with the position they speak of).
    fn tell_peers(&mut self, text: &str) {
        self.tell_state(Instant::now(), false);
        if let Some(Table::Host(host)) = self.table.as_ref() {
            host.broadcast(&HostMessage::News {
                text: text.to_string(),
            });
        }
    }

    /// At a poll: the table's news. The host takes its peers' messages and tells them
    /// the game as it changed; a joiner follows what the host told.
    pub(super) fn serve_table(&mut self, now: Instant, events: &mut Vec<Event>) {
        match self.table.as_ref() {
            Some(Table::Host(_)) => {
                // A flag fall is the host's news too: the boards hear of it at once.
                let fallen: Vec<String> = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::FlagFell(news) => Some(self.session.announce(news)),
                        _ => None,
                    })
                    .collect();
                for text in fallen {
                    self.tell_peers(&text);
                }
                self.serve_peers(now, events)
            }
            Some(Table::Guest(_)) => self.follow_host(now, events),
            None => {}
        }
    }

    /// Tells the peers what this terminal's own command did (the host's), after it.
    pub(super) fn told_by_host(&mut self, answer: &Answer) {
        if let (Some(Table::Host(_)), Ok(news)) = (self.table.as_ref(), answer)
            && !matches!(news, News::UndoAsked(_))
        {
            let text = self.session.announce(news);
            if !text.is_empty() {
                self.tell_peers(&text);
            }
        }
    }

    fn serve_peers(&mut self, now: Instant, events: &mut Vec<Event>) {
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
                Incoming::Opened(..) => {}
                Incoming::Message(peer, message) => self.peer_message(peer, message, events),
                Incoming::Closed(peer, why) => self.peer_gone(peer, why, events),
            }
        }
        self.tell_state(now, false);
    }

    /// The game as it stands now, as the peers are told it.
    fn game_state(&self) -> Option<GameState> {
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
        })
    }

    /// Tells the peers the game when it changed (or `always`), and again every
    /// [`RESYNC`] while a clock runs.
    fn tell_state(&mut self, now: Instant, always: bool) {
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
            host.broadcast(&HostMessage::State {
                state: state.clone(),
            });
            host.told = Some((state, now));
        }
    }

    fn peer_message(&mut self, peer: PeerId, message: ClientMessage, events: &mut Vec<Event>) {
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
                },
                None,
            ) => self.greet(peer, version, &code, wanted, name, events),
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

    fn greet(
        &mut self,
        peer: PeerId,
        version: u32,
        code: &str,
        role: Role,
        name: Option<String>,
        events: &mut Vec<Event>,
    ) {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return;
        };
        let refuse = |host: &Hosting, reason: String| {
            host.connections
                .close(peer, &HostMessage::Refused { reason });
        };
        if version != VERSION {
            let e = crate::net::protocol::ProtocolError::Version(version);
            return refuse(host, e.to_string());
        }
        // Compared in full whatever the role, so a refusal tells nothing of the game.
        if !code_matches(code, &host.code) {
            return refuse(host, "wrong code".into());
        }
        let remote = self.session.seats().remote_side().unwrap_or(host.remote);
        let side = match role {
            Role::Player if host.player.is_some() => {
                return refuse(host, "a player is already at the table".into());
            }
            Role::Player => {
                host.player = Some(peer);
                host.view.connected = true;
                Some(Side::from(remote))
            }
            Role::Spectator => {
                host.view.spectators += 1;
                None
            }
        };
        host.greeted.insert(peer, role);
        let remote_named = host.remote_named;
        if role == Role::Player {
            let name = name
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
        let Some(state) = self.game_state() else {
            return;
        };
        if let Some(Table::Host(host)) = self.table.as_ref() {
            host.connections.send(
                peer,
                &HostMessage::Welcome {
                    version: VERSION,
                    side,
                    state,
                },
            );
        }
        // The others see who is there now.
        self.tell_state(Instant::now(), true);
    }

    fn peer_gone(&mut self, peer: PeerId, why: String, events: &mut Vec<Event>) {
        let Some(Table::Host(host)) = self.table.as_mut() else {
            return;
        };
        match host.greeted.remove(&peer) {
            Some(Role::Spectator) => {
                host.view.spectators = host.view.spectators.saturating_sub(1);
            }
            Some(Role::Player) if host.player == Some(peer) => {
                host.player = None;
                host.view.connected = false;
                host.view.undo_asked = None;
                let remote = self.session.seats().remote_side().unwrap_or(host.remote);
                let adjourned = std::mem::take(&mut host.adjourned);
                let running = self.session.clock().is_some_and(|c| c.running().is_some());
                if running
                    && self.session.set_paused(true)
                    && let Some(Table::Host(host)) = self.table.as_mut()
                {
                    host.stopped_for_line = true;
                }
                if !adjourned {
                    events.push(Event::Table(TableNews::Left { color: remote, why }));
                }
            }
            _ => {}
        }
    }

    /// What the joiner asks, for the side it plays and no other.
    fn remote_command(
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
                let text = format!(
                    "{remote} adjourned the game: it is saved, and goes on when they join again"
                );
                let running = self.session.clock().is_some_and(|c| c.running().is_some());
                self.session.adjourn();
                let stopped = running && self.session.is_paused();
                if let Some(Table::Host(host)) = self.table.as_mut() {
                    host.adjourned = true;
                    host.stopped_for_line |= stopped;
                }
                self.autosave(events);
                self.tell_peers(&text);
                events.push(Event::Table(TableNews::Adjourned(text)));
                return Ok(());
            }
        };
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
    fn remote_news(&mut self, news: &News, events: &mut Vec<Event>) {
        let text = self.session.announce(news);
        if text.is_empty() {
            return;
        }
        self.tell_peers(&text);
        events.push(Event::Table(TableNews::Told(text)));
    }

    /// A joiner's board at a poll: what the host told, and the line's state.
    fn follow_host(&mut self, now: Instant, events: &mut Vec<Event>) {
        let news = match self.table.as_ref() {
            Some(Table::Guest(guest)) => guest.link.news(),
            _ => return,
        };
        for item in news {
            match item {
                LinkNews::Message(message) => self.host_message(message, now, events),
                LinkNews::Down(why) => {
                    let mut told = false;
                    if let Some(Table::Guest(guest)) = self.table.as_mut() {
                        guest.view.connected = false;
                        told = std::mem::take(&mut guest.farewell);
                    }
                    // The clocks stand still while the line is down, as the host's do.
                    let mut frozen = self.session.followed();
                    if let Some((_, running)) = frozen.clocks.as_mut() {
                        *running = None;
                    }
                    self.session.follow(frozen, now);
                    if !told {
                        events.push(Event::Table(TableNews::LineDown(why)));
                    }
                }
                LinkNews::Refused(why) => events.push(Event::Table(TableNews::Lost(why))),
            }
        }
    }

    fn host_message(&mut self, message: HostMessage, now: Instant, events: &mut Vec<Event>) {
        match message {
            HostMessage::Welcome { state, .. } => {
                if let Some(Table::Guest(guest)) = self.table.as_mut() {
                    guest.view.connected = true;
                }
                events.push(Event::Table(TableNews::LineUp));
                self.follow_state(state, now, events);
            }
            HostMessage::State { state } => self.follow_state(state, now, events),
            HostMessage::News { text } => events.push(Event::Table(TableNews::Told(
                crate::text::printable(&text, 600),
            ))),
            HostMessage::Rejected { reason } => events.push(Event::Table(TableNews::Refused(
                crate::text::printable(&reason, 600),
            ))),
            HostMessage::Chat { from, text } => self.chat(
                crate::text::printable(&from, MAX_NAME_CHARS),
                chat_line(&text),
            ),
            HostMessage::Refused { reason } | HostMessage::Bye { reason } => {
                if let Some(Table::Guest(guest)) = self.table.as_mut() {
                    guest.farewell = true;
                }
                events.push(Event::Table(TableNews::Adjourned(crate::text::printable(
                    &reason, 600,
                ))));
            }
            HostMessage::Pong => {}
        }
    }

    /// The host's game as it stands now: followed on this board, kept in this
    /// terminal's copy of the record, and a new question for this player put.
    fn follow_state(&mut self, state: GameState, now: Instant, events: &mut Vec<Event>) {
        let Some(record) = state_record(&state) else {
            return;
        };
        let mut shown = followed(&state, &record);
        // The host's reading is as old as the line is slow: the running clock has run
        // on meanwhile.
        if let (Some(Table::Guest(guest)), Some((left, Some(running)))) =
            (self.table.as_ref(), shown.clocks.as_mut())
        {
            let i = usize::from(*running == Color::White);
            left[i] = left[i].saturating_sub(guest.link.delay());
        }
        self.session.follow(shown, now);
        let Some(Table::Guest(guest)) = self.table.as_mut() else {
            return;
        };
        let before = std::mem::replace(&mut guest.state, state.clone());
        let joiner_side = Color::from(state.joiner_side);
        if guest.side.is_some_and(|side| side != joiner_side) {
            // A match's next game: the colours changed.
            guest.side = Some(joiner_side);
            guest.view.seat = Seat::Player(joiner_side);
            self.session.set_seat(joiner_side, Player::Person);
            self.session.set_seat(!joiner_side, Player::Remote);
        }
        let Some(Table::Guest(guest)) = self.table.as_mut() else {
            return;
        };
        guest.view.spectators = state.spectators;
        guest.view.undo_asked = state.undo_asked.map(Color::from);
        if guest.side.is_none() {
            guest.view.connected = state.player_connected;
        }
        if let Some(mine) = guest.side {
            let asked = state.undo_asked.map(Color::from);
            if asked == Some(!mine) && before.undo_asked != state.undo_asked {
                events.push(Event::Table(TableNews::UndoAsked(!mine)));
            }
            let offer = state.draw_offer.map(Color::from);
            if offer == Some(!mine) && before.draw_offer != state.draw_offer {
                events.push(Event::Table(TableNews::DrawOffered(!mine)));
            }
        }
        if before.pdn != state.pdn
            && let Some(path) = &guest.record_file
        {
            // This terminal's own copy; the host's is the one that counts, so a
            // failure here only goes unsaved.
            let _ = crate::store::save_record(path, &record);
        }
    }

    /// The host ends the table: everyone is told why.
    pub(super) fn leave_table(&mut self) {
        match self.table.as_ref() {
            Some(Table::Host(host)) => {
                let reason = if self.session.game().is_over() {
                    "the host ended the game".to_string()
                } else {
                    "the host adjourned the game: it goes on when the host resumes it".to_string()
                };
                host.broadcast(&HostMessage::Bye { reason });
            }
            Some(Table::Guest(_)) => {
                if let Some(Table::Guest(guest)) = self.table.take() {
                    guest.link.close();
                }
            }
            None => {}
        }
    }
}

/// Whether a chat line's text and a name are shown as they came (test helper too).
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_own_side_commands_are_the_terminals() {
        let session = Session::new(crate::game::Game::new());
        assert_eq!(
            acting_side(&session, &Command::PlayText("11-15".into())),
            Some(Color::Black)
        );
        assert_eq!(
            acting_side(&session, &Command::Resign(Color::White)),
            Some(Color::White)
        );
        assert_eq!(acting_side(&session, &Command::AcceptDraw), None);
        assert!(not_across_the_network(&Command::NewGame));
        assert!(!not_across_the_network(&Command::OfferDraw));
    }
}
