//! A game across the network, under the runtime: the host's table (it holds the game
//! and judges what its peers ask) and a joiner's or spectator's board (it follows the
//! host's game and sends its player's requests there).
//!
//! Either way, this terminal acts only for its own side: a command for the other side
//! is refused, as is one that both players would have to agree on at one terminal (a
//! new game, a set-up, a pause). A take-back needs the other player's consent, asked
//! across the line.

use super::{Answer, Command, Event, Runtime};
use crate::net::guesses::WrongCode;
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

/// What the line between the terminals tells the screens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum TableNews {
    /// The host: the player joined (again), and plays this side under this name.
    Joined {
        /// The side they play.
        color: Color,
        /// Their name, if they gave one.
        name: Option<String>,
    },
    /// The host (or a spectator, told by the host): the player's line dropped, and why
    /// where known (a spectator is told only that it did); the clocks stop until they
    /// are back.
    Left {
        /// The side they play.
        color: Color,
        /// Why the line dropped, where known.
        why: Option<String>,
    },
    /// The host: the player's line went silent and their new connection took the seat
    /// over before the old one was let go; the clocks go on.
    TookOver {
        /// The side they play.
        color: Color,
        /// The time given back for the silence, in words.
        given_back: String,
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
    /// The host: a greeting came with a wrong code.
    WrongCode(WrongCode),
    /// A joiner: the host refused this terminal for now (its seat still held by its
    /// old line, a full table), and why: it is tried again.
    Waiting(String),
    /// How many watch changed (a spectator came, left or its line dropped), to this
    /// count: nothing to say, but the count on the board is drawn again.
    Watching(u32),
}

/// What this terminal is at the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Seat {
    /// The host, listening at this address for the player and spectators with this
    /// code.
    Host {
        /// Where others join (an address another machine reaches).
        address: SocketAddr,
        /// The code they need.
        code: String,
        /// Whether the host listens on every interface (other machines reach it), not
        /// on one address.
        every_interface: bool,
    },
    /// A player who joined, playing this side.
    Player(Color),
    /// A spectator.
    Spectator,
}

/// The state of the table, for the screens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TableView {
    /// What this terminal is.
    pub(crate) seat: Seat,
    /// Whether the other player is connected (the host: the joiner; a joiner: the host,
    /// and for a spectator the host and the player).
    pub(crate) connected: bool,
    /// How many watch.
    pub(crate) spectators: u32,
    /// The chat so far, oldest first: (who, what).
    pub(crate) chat: VecDeque<(String, String)>,
    /// A take-back asked for and not yet answered, by this side.
    pub(crate) undo_asked: Option<Color>,
    /// Whether the table is a server's: there the line stays up while the other
    /// player is away (the game goes on, the clocks running, while one player is at
    /// it, and waits once neither is), where a LAN joiner's own line is what dropped
    /// (and is tried again).
    pub(crate) at_server: bool,
    /// Whether the line to the server is gone (a server's table only): nothing asked
    /// reaches it any more, and it is not tried again.
    pub(crate) server_gone: bool,
    /// The server's reason, when it let this board's line go (a moderator's kick or
    /// ban): then the game is what the server said of it, not what a lost line leaves.
    pub(crate) let_go: Option<String>,
    /// What the server said when it ended the game as abandoned (unrated: a player
    /// banned by a moderator, or a game adjourned too long): the game is over, not
    /// waiting for anyone.
    pub(crate) abandoned: Option<String>,
    /// Whether this terminal's own line to a LAN host is down (a joiner's or a
    /// spectator's): it is tried again.
    pub(crate) line_down: bool,
    /// The side the player who joins a LAN host plays, as its spectators know it (the
    /// host plays the other): who is away when a spectator's `connected` is false.
    pub(crate) joiner_side: Option<Color>,
}

impl TableView {
    /// A chat line said at this table: kept (the last [`CHAT_KEPT`]), and the news of
    /// it for the screens.
    fn said(&mut self, from: String, text: String) -> Event {
        self.chat.push_back((from.clone(), text.clone()));
        while self.chat.len() > CHAT_KEPT {
            self.chat.pop_front();
        }
        Event::Table(TableNews::Chat { from, text })
    }
}

/// The game across the network that this runtime's session is part of.
#[derive(Debug)]
pub(crate) enum Table {
    /// This terminal holds the game.
    Host(Box<Hosting>),
    /// This terminal follows the game held by a host.
    Guest(Box<Following>),
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
    #[cfg(test)]
    if matches!(command, Command::Seat(..)) {
        return true;
    }
    matches!(
        command,
        Command::NewGame
            | Command::SetUp(_)
            | Command::ToggleSeat(_)
            | Command::ChangeLevel(_)
            | Command::Pause(_)
            | Command::OpenGame(_)
    )
}

/// The longest name a joiner is known by.
const MAX_NAME_CHARS: usize = 40;

mod guest;
mod host;
#[cfg(test)]
mod server_line_tests;
mod told;
pub(crate) use told::new_game_words;

pub(crate) use guest::{Following, joined_session, server_session};
use host::Held;
pub(crate) use host::Hosting;

impl Runtime {
    /// This runtime's game is played across the network at `table`. A host's clocks
    /// wait for the player to join.
    pub(crate) fn at_table(mut self, mut table: Table) -> Runtime {
        if let Table::Host(host) = &mut table
            && self.session.clock().is_some_and(|c| c.running().is_some())
        {
            host.stopped_for_line = self.session.set_paused(true);
        }
        self.table = Some(table);
        self
    }

    /// From now on, `waker` is called from the line's threads whenever something
    /// comes (a peer's message, the host's news): the front end wakes and polls at
    /// once, and the runtime no longer asks to be polled on a tick for the line.
    pub(crate) fn wake_with(&mut self, waker: crate::net::Waker) {
        match self.table.as_ref() {
            Some(Table::Host(host)) => host.connections.wake_with(waker),
            Some(Table::Guest(guest)) => guest.link.wake_with(waker),
            None => return,
        }
        self.line_wakes = true;
    }

    /// The state of the table, in a game across the network.
    pub(crate) fn table(&self) -> Option<&TableView> {
        match self.table.as_ref()? {
            Table::Host(host) => Some(&host.view),
            Table::Guest(guest) => Some(&guest.view),
        }
    }

    /// A command of this terminal's in a game across the network: `None` when it is
    /// not the network's matter (the runtime carries it out as in any game).
    pub(super) fn table_command(&mut self, command: &Command) -> Option<Answer> {
        let Runtime {
            session,
            autosaver,
            pending,
            table,
            ..
        } = self;
        let table = table.as_mut()?;
        if *command == Command::NewGame {
            if let Table::Guest(guest) = table
                && let Some(answer) = guest.rematch()
            {
                return Some(answer);
            }
            return Some(match table {
                Table::Guest(_) => Err(SessionError::HostStartsNewGame),
                Table::Host(host) => host.rematch(&mut Held { session, autosaver }),
            });
        }
        if not_across_the_network(command) {
            return Some(Err(SessionError::NotAcrossTheNetwork));
        }
        let mine = match table {
            Table::Host(host) => Some(!session.seats().remote_side().unwrap_or(host.remote)),
            Table::Guest(guest) => guest.side,
        };
        let acting = acting_side(session, command);
        let acts = acting.is_some()
            || matches!(
                command,
                Command::Undo
                    | Command::UndoAgreed
                    | Command::AnswerUndo(_)
                    | Command::Redo
                    | Command::Adjourn
            );
        let Some(mine) = mine else {
            // A spectator saves and steps through the moves; it does not act, and talks
            // only at a server's table.
            return match command {
                Command::Chat(text) => Some(match table {
                    Table::Guest(guest) if guest.view.at_server => {
                        guest.say(text);
                        Ok(News::Nothing)
                    }
                    _ => Err(SessionError::Spectating),
                }),
                Command::Adjourn => Some(Ok(News::Nothing)),
                _ if acts => Some(Err(SessionError::Spectating)),
                _ => None,
            };
        };
        if let Some(outcome) = session.game().result()
            && acting.is_some()
        {
            // Over is over, whoever's turn it would have been.
            return Some(Err(crate::game::DeclareError::Over(outcome).into()));
        }
        if let Some(side) = acting
            && side != mine
        {
            return Some(Err(SessionError::RemoteSide(side)));
        }
        match table {
            Table::Guest(guest) => guest.send(session, command, mine),
            Table::Host(host) => {
                host.command(&mut Held { session, autosaver }, command, mine, pending)
            }
        }
    }

    /// Tells the peers what this terminal's own command did, at the host.
    pub(super) fn told_by_host(&mut self, answer: &Answer) {
        if let Some(Table::Host(host)) = self.table.as_mut() {
            let game = Held {
                session: &mut self.session,
                autosaver: &self.autosaver,
            };
            host.told(&game, answer, &mut self.pending);
        }
    }

    /// At a poll: the table's news. The host takes its peers' messages and tells them
    /// the game as it changed; a joiner follows what the host told.
    pub(super) fn serve_table(&mut self, now: Instant, events: &mut Vec<Event>) {
        let watching = self.table().map(|view| view.spectators);
        self.serve_table_news(now, events);
        // A count that changed with nothing else to tell would stay stale on a screen
        // drawn on events only (a spectator's line dropped while the clocks stood).
        if let Some(count) = self.table().map(|view| view.spectators)
            && Some(count) != watching
        {
            events.push(Event::Table(TableNews::Watching(count)));
        }
    }

    /// [`serve_table`](Self::serve_table) but for the count of those watching.
    fn serve_table_news(&mut self, now: Instant, events: &mut Vec<Event>) {
        match self.table.as_mut() {
            Some(Table::Host(host)) => {
                let mut game = Held {
                    session: &mut self.session,
                    autosaver: &self.autosaver,
                };
                // A flag fall is the host's news too: the boards hear of it at once.
                let fallen: Vec<News> = events
                    .iter()
                    .filter_map(|e| match e {
                        Event::FlagFell(news) => Some(news.clone()),
                        _ => None,
                    })
                    .collect();
                for news in fallen {
                    host.tell_peers(&game, &news, events);
                }
                // A flag that waited on a silent line falls at the next look at the
                // clocks once the line spoke again (`watch_clocks`, a tenth of a second).
                host.serve(&mut game, now, events);
            }
            Some(Table::Guest(guest)) => guest.follow(&mut self.session, now, events),
            None => {}
        }
    }

    /// Whether no move has been played in the game (from the start position, no
    /// result; a ballot's moves are none of the players'): `--resume` does not offer
    /// such a game, so leaving it adjourns nothing.
    pub(crate) fn unplayed(&self) -> bool {
        crate::store::games::not_begun(&self.session.record(&crate::store::today()))
    }

    /// What this terminal's player is told once the board is gone: at a host, how to
    /// take up a game left unfinished (see [`resume_hint`](Self::resume_hint)); at a
    /// joiner, whether a game stays with the host and how to sit down again, as said
    /// at `front`.
    pub(super) fn table_left_words(&self, front: super::Front) -> Option<String> {
        match self.table.as_ref()? {
            // The home screen's resume refuses a game played across the network: only
            // the command takes it up.
            Table::Host(_) => self.resume_hint(),
            Table::Guest(guest) => guest.left_words(&self.session, front),
        }
    }

    /// At a host whose game is left unfinished in its file (adjourned, as leaving does):
    /// the line that says how to take it up again, with the address and code its
    /// player's board tries again with, for the terminal once the board is gone.
    pub(crate) fn resume_hint(&self) -> Option<String> {
        let Some(Table::Host(host)) = self.table.as_ref() else {
            return None;
        };
        let Seat::Host { code, .. } = &host.view.seat else {
            return None;
        };
        if self.session.game().is_over() || self.autosave_path().is_none() || self.unplayed() {
            return None;
        }
        // `checkers host --resume` opens the game's former door (its address, port and
        // code kept beside its record: see `keep_door`), so that alone is said.
        Some(format!(
            "The game is adjourned: checkers host --resume goes on with it at the same port \
             ({}) and code ({code}), and its player's board joins again by itself.",
            host.connections.address().port()
        ))
    }

    /// The host ends the table: everyone is told why; a joiner lets its line go.
    pub(super) fn leave_table(&mut self) {
        let unplayed = self.unplayed();
        match self.table.take() {
            Some(Table::Host(host)) => {
                host.leave(&self.session, unplayed);
                self.table = Some(Table::Host(host));
            }
            Some(Table::Guest(guest)) => guest.leave(),
            None => {}
        }
    }
}

/// A LAN host's peer at `address` greeting with the game's `code` as `role`, on a
/// thread of its own (the host's runtime must be polled meanwhile): its line and the
/// host's welcome, or why it was refused. For tests of a host (here and the full-screen table's).
#[cfg(test)]
pub(crate) fn greeting(
    address: std::net::SocketAddr,
    code: &str,
    role: crate::net::protocol::Role,
) -> std::thread::JoinHandle<Result<(Link, Welcome), String>> {
    let code = code.to_string();
    std::thread::spawn(move || {
        let greeting = crate::net::link::Greeting {
            code,
            role,
            name: None,
        };
        crate::net::link::Link::join(
            &address.to_string(),
            greeting,
            None,
            Box::new(|_: &str| {}),
            |_: &str| {},
        )
        .map_err(|e| e.to_string())
    })
}

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

    /// The game's code in these tests.
    const CODE: &str = "oak-4821-elm-0937";

    /// Polls `runtime` (the host judging greetings) until `peer` is answered.
    fn answered<T>(runtime: &mut Runtime, peer: std::thread::JoinHandle<T>) -> T {
        let deadline = Instant::now() + Duration::from_secs(90);
        while !peer.is_finished() {
            assert!(Instant::now() < deadline, "no answer to the greeting");
            runtime.poll(Instant::now());
            std::thread::sleep(Duration::from_millis(5));
        }
        peer.join().expect("the peer's thread")
    }

    /// A joiner who leaves the board is told how to sit down again as its front end
    /// does it: the command on the terminal; on the home screen, where the program goes
    /// on and no command is typed, its join form (it named `checkers join` there too).
    #[test]
    fn a_joiners_farewell_names_the_command_on_the_terminal_and_the_form_at_home() {
        use crate::net::protocol::Role;
        let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
        let connections = Connections::listen(loopback, CODE).expect("a port");
        let address = connections.address();
        let hosting = Hosting::new(connections, address, CODE.to_string(), Color::White);
        let mut seats = crate::session::Seats::PEOPLE;
        seats.set(Color::White, Player::Remote);
        let session = Session::new(crate::game::Game::new()).with_seats(seats);
        let mut host = Runtime::new(session, super::super::Saving::Off, super::super::Pace::NONE)
            .at_table(Table::Host(Box::new(hosting)));
        let (link, welcome) =
            answered(&mut host, greeting(address, CODE, Role::Player)).expect("joined");
        let session = joined_session(&welcome, Instant::now()).expect("the host's game");
        let following =
            Following::new(link, &welcome, None).with_rejoin(address.to_string(), CODE.to_string());
        let joiner = Runtime::new(session, super::super::Saving::Off, super::super::Pace::NONE)
            .at_table(Table::Guest(Box::new(following)));
        let farewell = joiner.farewell();
        let terminal = farewell
            .words(super::super::Front::Terminal)
            .expect("words");
        let home = farewell.words(super::super::Front::Home).expect("words");
        assert!(
            terminal.contains(&format!("checkers join {address} --code {CODE} sits")),
            "{terminal}"
        );
        assert!(!home.contains("checkers join"), "{home}");
        assert!(
            home.contains(&format!(
                "Join a friend's game (n; address {address}, code {CODE}) sits"
            )),
            "{home}"
        );
    }

    /// A crowd of spectators with the code cannot keep the player from the seat: once
    /// they hold all the table's places but two, the next is refused, and the player
    /// still sits down.
    #[test]
    fn spectators_never_take_the_places_kept_for_the_player() {
        use crate::net::protocol::Role;
        let bounds = crate::net::listener::Bounds {
            peers: 4,
            ..crate::net::listener::Bounds::default()
        };
        let loopback = SocketAddr::from(([127, 0, 0, 1], 0));
        let connections = Connections::listen_within(loopback, CODE, bounds).expect("a port");
        let address = connections.address();
        let hosting = Hosting::new(connections, address, CODE.to_string(), Color::White);
        let mut seats = crate::session::Seats::PEOPLE;
        seats.set(Color::White, Player::Remote);
        let session = Session::new(crate::game::Game::new()).with_seats(seats);
        let mut runtime =
            Runtime::new(session, super::super::Saving::Off, super::super::Pace::NONE)
                .at_table(Table::Host(Box::new(hosting)));
        // As many spectators as the table has places.
        let mut watching = Vec::new();
        let mut refused = Vec::new();
        for _ in 0..bounds.peers {
            match answered(&mut runtime, greeting(address, CODE, Role::Spectator)) {
                Ok((link, _)) => watching.push(link),
                Err(why) => refused.push(why),
            }
        }
        assert_eq!(watching.len(), bounds.peers - 2, "{refused:?}");
        assert!(
            refused
                .iter()
                .all(|why| why.contains("the table is full: 2 watch already")),
            "{refused:?}"
        );
        let player = answered(&mut runtime, greeting(address, CODE, Role::Player));
        assert!(player.is_ok(), "{player:?}");
        assert!(
            runtime
                .table()
                .is_some_and(|t| t.connected && t.spectators == 2)
        );
    }
}
