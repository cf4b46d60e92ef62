//! A joiner's or spectator's side of a game across the network: the host's game
//! followed, and this terminal's requests sent there.

use super::*;
use crate::net::protocol::Told;
use crate::online::{LineNews, MoveWatch, ServerLine};
use crate::server::protocol::{
    ClientMessage as ServerRequest, DRAW_DECLINE_UNKNOWN, MAX_SAID, NO_REMATCH_OFFERED, NO_RESULT,
    ServerMessage,
};

/// The line a board follows its game on: to a LAN host, or to a server's table.
#[derive(Debug)]
pub(crate) enum Line {
    /// A LAN host's: the game told as [`HostMessage`]s.
    Lan(Link),
    /// A server's: the game told as [`ServerMessage::Table`]s, on the line the lobby
    /// shares.
    Server(ServerLine),
}

impl Line {
    /// From now on, `waker` is called whenever the line tells something.
    pub(super) fn wake_with(&self, waker: crate::net::Waker) {
        match self {
            Line::Lan(link) => link.wake_with(waker),
            Line::Server(line) => line.wake_with(waker),
        }
    }

    /// How late the other end's news arrives.
    fn delay(&self) -> Duration {
        match self {
            Line::Lan(link) => link.delay(),
            Line::Server(_) => Duration::ZERO,
        }
    }
}

/// A joiner's or spectator's side of the table.
#[derive(Debug)]
pub(crate) struct Following {
    pub(super) link: Line,
    /// The side this terminal plays (none: it watches).
    pub(super) side: Option<Color>,
    /// The game as the host last told it.
    pub(super) state: GameState,
    /// The folder this terminal keeps its copies of the games' records in.
    pub(super) copies: Option<PathBuf>,
    /// The host said goodbye: the line's drop that follows is no news.
    pub(super) farewell: bool,
    /// The move this player sent that the host's game does not show yet: sent again
    /// when the line comes back to the same position (a line that dropped with it on
    /// the way lost it).
    pub(super) unanswered_move: Option<SentMove>,
    /// At a server's table: the move sent that the server has not answered yet, told
    /// to the player once it has waited long (as in plain mode).
    pub(super) move_watch: MoveWatch,
    /// This player's move just sent, where it was typed with the wrong separator: its
    /// news, when it comes, says how it is written.
    pub(super) typed_note: Option<super::told::TypedNote>,
    /// Whether this player declined a draw at a server that has not answered yet: one
    /// older than declining a draw refuses it as a rematch declined.
    pub(super) draw_declined: bool,
    /// The host's address and the code that sit this player at its table again, said
    /// when the board is left; none at a server's table.
    pub(super) rejoin: Option<(String, String)>,
    /// At a server's table: the server's number of the game on this board, once known.
    /// A player's board that is told another is at the rematch (the server numbers
    /// each game anew; the game's own count, a LAN match's, stays at 1 there).
    pub(super) server_game: Option<u64>,
    pub(super) view: TableView,
}

impl Following {
    /// A joiner's board: `link` to the host, which welcomed it as `welcome` says;
    /// its copies of the games' records kept in the folder `copies` (see
    /// [`copy_name`]).
    pub(crate) fn new(link: Link, welcome: &Welcome, copies: Option<PathBuf>) -> Following {
        let side = welcome.side.map(Color::from);
        let view = TableView {
            seat: side.map_or(Seat::Spectator, Seat::Player),
            connected: welcome.state.player_connected,
            spectators: welcome.state.spectators,
            chat: received_chat(&welcome.chat),
            undo_asked: welcome.state.undo_asked.map(Color::from),
            at_server: false,
            server_gone: false,
            let_go: None,
            abandoned: None,
            line_down: false,
            joiner_side: side
                .is_none()
                .then(|| Color::from(welcome.state.joiner_side)),
        };
        Following {
            link: Line::Lan(link),
            side,
            state: welcome.state.clone(),
            copies,
            farewell: false,
            unanswered_move: None,
            move_watch: MoveWatch::default(),
            typed_note: None,
            draw_declined: false,
            rejoin: None,
            server_game: None,
            view,
        }
    }

    /// When the player is to be told of a move the server has not answered (see
    /// [`MoveWatch`]): the screen looks again then, though the line says nothing.
    pub(crate) fn move_unanswered_at(&self) -> Option<Instant> {
        self.move_watch.due_at()
    }

    /// At a server's table, the board shows the server's game `game`: a player's board
    /// told of another says the rematch started.
    pub(crate) fn of_server_game(mut self, game: u64) -> Following {
        self.server_game = Some(game);
        self
    }

    /// With the host's `address` and the game's `code`, that sit this player at the
    /// host's table again, said when the board is left (see [`Following::left_words`]).
    pub(crate) fn with_rejoin(mut self, address: String, code: String) -> Following {
        self.rejoin = Some((address, code));
        self
    }

    /// A board at a server's table: `line` to the server, this terminal playing `side`
    /// (none: watching) the game told as `state`; its copies of the records kept in
    /// `copies`.
    pub(crate) fn at_server(
        line: ServerLine,
        side: Option<Color>,
        state: &GameState,
        copies: Option<PathBuf>,
    ) -> Following {
        let view = TableView {
            seat: side.map_or(Seat::Spectator, Seat::Player),
            connected: state.player_connected,
            spectators: state.spectators,
            chat: VecDeque::new(),
            undo_asked: None,
            at_server: true,
            server_gone: false,
            let_go: None,
            abandoned: None,
            line_down: false,
            joiner_side: None,
        };
        Following {
            link: Line::Server(line),
            side,
            state: state.clone(),
            copies,
            farewell: false,
            unanswered_move: None,
            move_watch: MoveWatch::default(),
            typed_note: None,
            draw_declined: false,
            rejoin: None,
            server_game: None,
            view,
        }
    }

    /// What a LAN player is told once its board is gone, the game as `session` has it:
    /// whether the host keeps a game to go on with, and how to sit down again at `front`
    /// (the command on the terminal; the home screen's join form there, which it said
    /// as a command to type where there is no command line). None for a spectator or
    /// at a server's table.
    pub(super) fn left_words(
        &self,
        session: &Session,
        front: super::super::Front,
    ) -> Option<String> {
        let (address, code) = self.rejoin.as_ref().filter(|_| self.side.is_some())?;
        let rejoin = match front {
            super::super::Front::Terminal => format!("checkers join {address} --code {code}"),
            super::super::Front::Home => {
                format!("Join a friend's game (n; address {address}, code {code})")
            }
        };
        let unplayed = crate::store::games::not_begun(&session.record(&crate::store::today()));
        Some(if session.game().is_over() {
            format!("The game is over: {rejoin} sits at the host's table again while it is open.")
        } else if unplayed {
            // The host keeps no game without a move (as at one terminal).
            format!(
                "No move was played, so there is no game to keep: {rejoin} sits at the \
                 host's table again while the host waits."
            )
        } else {
            format!("The game stays with the host: {rejoin} goes on with it.")
        })
    }

    /// The board is left: a LAN line let go (the host keeps the game); a server's line
    /// kept for the lobby (which hangs up if a game in play was left, so that the
    /// server adjourns it).
    pub(super) fn leave(self) {
        match self.link {
            Line::Lan(link) => link.close(),
            Line::Server(_) => {}
        }
    }
}

/// A move a player sent, and the game it was played in: which of the host's games, and
/// how many moves it had then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct SentMove {
    /// The host's number of the game.
    game_number: u64,
    /// The moves the game had when it was sent.
    plies: usize,
    /// The move, as sent.
    text: String,
    /// It was typed while the line was down, and kept: never sent yet.
    typed_while_down: bool,
}

/// The session a board at a server's table starts from: the game told as `state`,
/// this terminal playing `side` (none: watching).
pub(crate) fn server_session(
    state: &GameState,
    side: Option<Color>,
    now: Instant,
) -> Option<Session> {
    let welcome = Welcome {
        side: side.map(Side::from),
        seat: None,
        state: state.clone(),
        chat: Vec::new(),
    };
    joined_session(&welcome, now)
}

/// The chat a host's welcome tells (or a resumed game kept), its last lines made safe
/// to show.
pub(super) fn received_chat(chat: &[(String, String)]) -> VecDeque<(String, String)> {
    let skipped = chat.len().saturating_sub(CHAT_KEPT);
    chat.iter()
        .skip(skipped)
        .map(|(from, text)| {
            (
                crate::text::printable(from, MAX_NAME_CHARS),
                chat_line(text),
            )
        })
        .collect()
}

/// The name of a joiner's copy of a game: the same for every join and rejoin of one
/// game (its place, date, players, start and the host's number of it), another for
/// the next game.
pub(crate) fn copy_name(record: &PdnGame, state: &GameState) -> String {
    let mut hasher = crc32fast::Hasher::new();
    for tag in ["Site", "Date", "Black", "White", "FEN", "Event", "Round"] {
        hasher.update(record.tag(tag).unwrap_or("").as_bytes());
        hasher.update(&[0]);
    }
    hasher.update(&state.game_number.to_le_bytes());
    let date = record.tag("Date").unwrap_or("").replace(['.', '?'], "-");
    let date = date.trim_matches('-');
    let date = if date.is_empty() { "undated" } else { date };
    format!("joined-{date}-{:08x}.pdn", hasher.finalize())
}

/// The record a host's state carries, read: `None` if it does not read (then the
/// board keeps what it had).
pub(crate) fn state_record(state: &GameState) -> Option<PdnGame> {
    crate::pdn::read_games(&state.pdn).into_iter().next()?.ok()
}

/// The session a joiner's board starts from: the host's game as `welcome` tells it,
/// this terminal playing its side (or watching), the other side across the network.
pub(crate) fn joined_session(welcome: &Welcome, now: Instant) -> Option<Session> {
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

impl Following {
    /// A joiner's request, checked here against the game as the host last told it
    /// (`session`), then sent: the host's answer comes as news.
    pub(super) fn send(
        &mut self,
        session: &Session,
        command: &Command,
        mine: Color,
    ) -> Option<Answer> {
        // This player's time as its board shows it now, as the move is made (see
        // `RemoteCommand::Play`).
        let left_ms = session
            .clock()
            .filter(|clock| clock.running() == Some(mine))
            .map(|clock| clock.remaining(mine, Instant::now()).as_millis())
            .and_then(|ms| u64::try_from(ms).ok());
        let mut typed = None;
        let remote = match command {
            Command::Play(m) => {
                let mut game = session.game().clone();
                if let Err(e) = game.play(m) {
                    return Some(Err(e.into()));
                }
                RemoteCommand::Play {
                    text: m.to_string(),
                    left_ms,
                }
            }
            Command::PlayText(text) => {
                let mut game = session.game().clone();
                match game.play_text(text) {
                    Ok(m) => {
                        // Sent as it is written: the note waits for the move's news.
                        typed = session.position().typed_note(text, &m).map(|note| {
                            super::told::TypedNote {
                                ply: session.game().moves().len(),
                                m,
                                note,
                            }
                        });
                        RemoteCommand::Play {
                            text: m.to_string(),
                            left_ms,
                        }
                    }
                    Err(e) => return Some(Err(e.into())),
                }
            }
            Command::OfferDraw => RemoteCommand::OfferDraw,
            Command::AcceptDraw => RemoteCommand::AcceptDraw,
            Command::DeclineDraw => {
                self.draw_declined = true;
                RemoteCommand::DeclineDraw
            }
            Command::ClaimDraw => RemoteCommand::ClaimDraw,
            Command::Resign(_) => RemoteCommand::Resign,
            Command::Undo | Command::UndoAgreed | Command::AnswerUndo(_)
                if matches!(self.link, Line::Server(_)) =>
            {
                return Some(Err(SessionError::NoTakeBacksOnServer));
            }
            Command::Undo | Command::UndoAgreed => {
                if session.game().moves().is_empty() {
                    return Some(Err(SessionError::NothingToUndo));
                }
                self.view.undo_asked = Some(mine);
                self.send_remote(RemoteCommand::AskUndo);
                return Some(Ok(News::UndoAsked {
                    to: !mine,
                    moves: session.asked_take_back(mine),
                }));
            }
            Command::AnswerUndo(agreed) => {
                if self.view.undo_asked != Some(!mine) {
                    return Some(Err(SessionError::NothingToUndo));
                }
                self.view.undo_asked = None;
                RemoteCommand::AnswerUndo { agreed: *agreed }
            }
            Command::Redo => return Some(Err(SessionError::NothingToRedo)),
            Command::Adjourn => {
                self.send_remote(RemoteCommand::Adjourn);
                return Some(Ok(News::Nothing));
            }
            Command::Chat(text) => {
                self.say(text);
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
        // Whose line is down decides what is true to say: this terminal's own, or
        // the other player's.
        if self.view.server_gone {
            return Some(Err(SessionError::ServerGone));
        }
        if self.view.line_down {
            // A move is kept, to be sent once the line is back: nothing typed is lost.
            if let (RemoteCommand::Play { text, .. }, Line::Lan(_)) = (&remote, &self.link) {
                self.unanswered_move = Some(SentMove {
                    game_number: self.state.game_number,
                    plies: session.game().moves().len(),
                    text: text.clone(),
                    typed_while_down: true,
                });
                self.typed_note = typed;
                return Some(Ok(News::KeptForLine(text.clone())));
            }
            return Some(Err(SessionError::OwnLineDown));
        }
        if !self.view.connected && !self.goes_on_while_away() {
            return Some(Err(SessionError::OtherPlayerAway));
        }
        if let (RemoteCommand::Play { text, .. }, Line::Lan(_)) = (&remote, &self.link) {
            self.unanswered_move = Some(SentMove {
                game_number: self.state.game_number,
                plies: session.game().moves().len(),
                text: text.clone(),
                typed_while_down: false,
            });
        }
        if matches!(
            (&self.link, &remote),
            (Line::Server(_), RemoteCommand::ClaimDraw)
        ) {
            return Some(Err(SessionError::NotAcrossTheNetwork));
        }
        if let (RemoteCommand::Play { text, .. }, Line::Server(_)) = (&remote, &self.link) {
            self.move_watch.sent(text, Instant::now());
        }
        if matches!(remote, RemoteCommand::Play { .. }) {
            self.typed_note = typed;
        }
        self.send_remote(remote);
        Some(Ok(News::Sent))
    }

    /// Whether the server's game runs on, its clocks as it last told them, once this
    /// board's line to it is gone: for a spectator, whatever the server told last (a
    /// game stopped, adjourned, told so before the server let go); for a player, while
    /// the opponent is at it (then the server charges the clock running, this player's
    /// own included); with the opponent away too, it is adjourned, its clocks stopped.
    fn server_runs_on_without_this_line(&self) -> bool {
        self.side.is_none() || self.view.connected
    }

    /// Whether the game goes on though a player is away from it: at a server's table
    /// a player who left for the lobby (or lost the line) does not stop the game while
    /// the other is at it, the clocks running (the server judges what is sent then); a
    /// LAN host's game waits, its clocks stopped, for the player who is away.
    pub(super) fn goes_on_while_away(&self) -> bool {
        self.view.at_server && self.state.running.is_some()
    }

    /// Sends a player's request on the line: to a LAN host as it is, to a server as
    /// the message that asks it there.
    fn send_remote(&self, command: RemoteCommand) {
        match &self.link {
            Line::Lan(link) => link.send(ClientMessage::Command { command }),
            Line::Server(line) => {
                let message = match command {
                    RemoteCommand::Play { text, .. } => ServerRequest::Play { text },
                    RemoteCommand::OfferDraw | RemoteCommand::AcceptDraw => ServerRequest::Draw,
                    RemoteCommand::Resign => ServerRequest::Resign,
                    // The server tells the offerer, and this player that it did.
                    RemoteCommand::DeclineDraw => ServerRequest::Decline,
                    // Refused before they come here; adjourning is leaving the board.
                    RemoteCommand::ClaimDraw
                    | RemoteCommand::AskUndo
                    | RemoteCommand::AnswerUndo { .. }
                    | RemoteCommand::Adjourn => return,
                };
                line.send(message);
            }
        }
    }

    /// Says `text` at the table (nothing, when it is blank).
    pub(super) fn say(&self, text: &str) {
        let text = chat_line(text);
        if text.is_empty() {
            return;
        }
        match &self.link {
            Line::Lan(link) => link.send(ClientMessage::Chat { text }),
            Line::Server(line) => {
                let text: String = text.chars().take(MAX_SAID).collect();
                line.send(ServerRequest::Say { text });
            }
        }
    }

    /// At a server's table, the board's new game is a rematch: offered, or the one
    /// offered accepted.
    pub(super) fn rematch(&self) -> Option<Answer> {
        let Line::Server(line) = &self.link else {
            return None;
        };
        if self.side.is_none() {
            return Some(Err(SessionError::Spectating));
        }
        line.send(ServerRequest::Rematch);
        Some(Ok(News::Sent))
    }

    /// A joiner's board at a poll: what the host told, followed on `session`, and the
    /// line's state.
    pub(super) fn follow(&mut self, session: &mut Session, now: Instant, events: &mut Vec<Event>) {
        let news = match &self.link {
            Line::Lan(link) => link.news(),
            Line::Server(line) => {
                let news = line.news();
                // Set before the line's end is put in: known with it.
                let let_go = line.let_go_for();
                for item in news {
                    match item {
                        LineNews::Message(message) => {
                            self.move_watch.heard(&message);
                            self.server_message(session, message, now, events);
                        }
                        LineNews::Down(why) => {
                            // The server keeps the clocks: shown as it charges them now
                            // that this line is gone. Let go by it (a kick, a ban), the
                            // game is adjourned or ended there: no clock runs.
                            if let_go.is_some() || !self.server_runs_on_without_this_line() {
                                let mut stopped = session.followed();
                                if let Some((_, running)) = stopped.clocks.as_mut() {
                                    *running = None;
                                }
                                session.follow(stopped, now);
                            }
                            self.view.connected = false;
                            self.view.server_gone = true;
                            self.view.let_go = let_go.clone();
                            // Not a LAN host's refusal: the server's line is not tried
                            // again, the lobby ends with it.
                            let why = crate::text::printable(&why, 600);
                            // Let go (a kick), the server's reason says what to do.
                            let words = if self.view.let_go.is_some() {
                                format!("{why}. q leaves the board")
                            } else {
                                format!(
                                    "{why}: q leaves; log in again with checkers online to \
                                     go back to the game"
                                )
                            };
                            events.push(Event::Table(TableNews::Refused(words)));
                        }
                    }
                }
                if let Some(words) = self.move_watch.due(now) {
                    events.push(Event::Table(TableNews::Told(words)));
                }
                return;
            }
        };
        for item in news {
            match item {
                LinkNews::Message(message) => self.host_message(session, message, now, events),
                LinkNews::Down(why) => {
                    self.view.connected = false;
                    self.view.line_down = true;
                    let told = std::mem::take(&mut self.farewell);
                    // The clocks stand still while the line is down, as the host's do:
                    // as of this end's last word the host heard plus one ping, which
                    // is where the host stops charging this player once it lets the
                    // line go, not as of now (ten seconds into the silence).
                    let stopped_at = match &self.link {
                        Line::Lan(link) => link
                            .last_word_heard()
                            .map(|at| at + crate::net::link::PING_EVERY)
                            .filter(|at| *at < now),
                        Line::Server(_) => None,
                    };
                    let mut frozen = session.followed();
                    if let (Some((left, running)), Some(at), Some(clock)) =
                        (frozen.clocks.as_mut(), stopped_at, session.clock())
                    {
                        *left = Color::ALL.map(|color| clock.remaining(color, at));
                        *running = None;
                    } else if let Some((_, running)) = frozen.clocks.as_mut() {
                        *running = None;
                    }
                    session.follow(frozen, now);
                    if told {
                        // The host's goodbye was told already: the clocks stopped is
                        // the news, for the screen to be drawn again.
                        events.push(Event::ClockTicked);
                    } else {
                        events.push(Event::Table(TableNews::LineDown(why)));
                    }
                }
                LinkNews::Refused(why) => events.push(Event::Table(TableNews::Lost(
                    crate::text::printable(&why, 600),
                ))),
                LinkNews::Waiting(why) => events.push(Event::Table(TableNews::Waiting(
                    crate::text::printable(&why, 600),
                ))),
            }
        }
    }

    /// What the server told this board's line: the table followed, the rest said.
    fn server_message(
        &mut self,
        session: &mut Session,
        message: ServerMessage,
        now: Instant,
        events: &mut Vec<Event>,
    ) {
        let said = |text: &str| crate::text::printable(text, 600);
        match message {
            ServerMessage::Table { game, side, state } => {
                // Another game than this board's is a rematch (played) or not this
                // board's at all (watched).
                if side.map(Color::from) == self.side || self.side.is_some() && side.is_some() {
                    if self.side.is_some() {
                        self.view.connected = state.player_connected;
                    }
                    let was_connected = self.view.connected;
                    let rematch =
                        self.side.is_some() && self.server_game.is_some_and(|shown| shown != game);
                    self.server_game = Some(game);
                    self.follow_state(session, state, now, events);
                    // Said, or the status line would still speak of the offer or of
                    // the last game's end.
                    if let (true, Some(side)) = (rematch, self.side) {
                        events.push(Event::Table(TableNews::Told(format!(
                            "The rematch starts: you play {side}"
                        ))));
                    }
                    // The players hear of it in words; a spectator only sees the
                    // table change, so it is said here (and the board drawn anew).
                    if self.side.is_none() && was_connected != self.view.connected {
                        let text = if self.view.connected {
                            "Both players are back: play goes on"
                        } else if self.goes_on_while_away() {
                            "A player is away: the game goes on, the clocks running"
                        } else {
                            "A player is away: the game waits for them, its clocks stopped"
                        };
                        events.push(Event::Table(TableNews::Told(text.to_string())));
                    }
                }
            }
            ServerMessage::Moved { side, squares, .. } => {
                let told = Told::Played {
                    side,
                    squares,
                    review_over: false,
                };
                let typed = self.typed_note.take();
                if let Some(text) = super::told::heard(told, session, typed.as_ref()) {
                    events.push(Event::Table(TableNews::Told(text)));
                }
            }
            ServerMessage::Ended {
                result,
                text,
                ratings,
                ..
            } => {
                if result == NO_RESULT {
                    self.view.abandoned = Some(said(&text));
                }
                // The server lets a game's spectators go at its end: none watches now
                // (the board said "2 watching" after the game and after they left).
                self.view.spectators = 0;
                let text = match ratings {
                    Some(ratings) => format!("{text}. Ratings: {ratings}"),
                    None => text,
                };
                events.push(Event::Table(TableNews::Told(said(&text))));
            }
            ServerMessage::Said { name, text } => {
                let said = self.view.said(
                    crate::text::printable(&name, MAX_NAME_CHARS),
                    chat_line(&text),
                );
                events.push(said);
            }
            ServerMessage::Told { name, text } => {
                // Not begun with the name: the status line capitalizes its first letter,
                // and a name is shown as it is.
                let words = crate::online::orders::told_words(&name, &text);
                let words = format!("A tell: {words}");
                events.push(Event::Table(TableNews::Told(words)));
            }
            ServerMessage::Rejected { reason }
                if std::mem::take(&mut self.draw_declined) && reason == NO_REMATCH_OFFERED =>
            {
                events.push(Event::Table(TableNews::Told(
                    DRAW_DECLINE_UNKNOWN.to_string(),
                )));
            }
            ServerMessage::Info { text } => {
                // The server's answer to a draw declined, if one was.
                self.draw_declined = false;
                events.push(Event::Table(TableNews::Told(said(&text))));
            }
            ServerMessage::Rejected { reason } | ServerMessage::Refused { reason } => {
                events.push(Event::Table(TableNews::Refused(said(&reason))));
            }
            // What the state told already, or the lobby's.
            ServerMessage::DrawOffered { .. }
            | ServerMessage::Started { .. }
            | ServerMessage::Watching { .. }
            | ServerMessage::Challenge { .. }
            | ServerMessage::Welcome { .. }
            | ServerMessage::Records { .. }
            | ServerMessage::Lobby { .. }
            | ServerMessage::Pong => {}
        }
    }

    fn host_message(
        &mut self,
        session: &mut Session,
        message: HostMessage,
        now: Instant,
        events: &mut Vec<Event>,
    ) {
        match message {
            HostMessage::Welcome { state, chat, .. } => {
                // A spectator's `connected` is the player's: as the host has it now,
                // with nothing to tell of it yet.
                self.view.connected = self.side.is_some() || state.player_connected;
                self.view.line_down = false;
                // The host's chat is the whole of it: lines said while this board was
                // away are there too.
                self.view.chat = received_chat(&chat);
                events.push(Event::Table(TableNews::LineUp));
                self.follow_state(session, state, now, events);
                self.send_again_if_lost(session, events);
            }
            HostMessage::State { state } => self.follow_state(session, state, now, events),
            HostMessage::News { news } => {
                // Said in this board's words, on its copy of the game; news that does not
                // fit it is not shown. A move's news is the one a typed note waits for.
                let typed = if matches!(news, Told::Played { .. }) {
                    self.typed_note.take()
                } else {
                    None
                };
                if let Some(text) = super::told::heard(news, session, typed.as_ref()) {
                    events.push(Event::Table(TableNews::Told(text)));
                }
            }
            HostMessage::Rejected { reason } => {
                // Refused: the host heard it, and nothing is to be sent again.
                self.unanswered_move = None;
                events.push(Event::Table(TableNews::Refused(crate::text::printable(
                    &reason, 600,
                ))));
            }
            HostMessage::Chat { from, text } => {
                let said = self.view.said(
                    crate::text::printable(&from, MAX_NAME_CHARS),
                    chat_line(&text),
                );
                events.push(said);
            }
            HostMessage::Refused { reason, .. } | HostMessage::Bye { reason } => {
                self.farewell = true;
                events.push(Event::Table(TableNews::Adjourned(crate::text::printable(
                    &reason, 600,
                ))));
            }
            HostMessage::Pong => {}
        }
    }

    /// On the line's return: the move this player sent that the host's game does not
    /// show, while the game stands where it was played, went down with the old line, and
    /// is sent again (told); a move typed while the line was down is sent now. The host
    /// took it at most once: a move it took shows in the welcome's game, and the old
    /// line's is never read once this one takes the seat. A move kept for a game that
    /// moved on meanwhile is not sent, and the player is told so.
    fn send_again_if_lost(&mut self, session: &Session, events: &mut Vec<Event>) {
        let Some(mut sent) = self.unanswered_move.take() else {
            return;
        };
        let same_place = sent.game_number == self.state.game_number
            && sent.plies == session.game().moves().len();
        let my_turn = self.side == Some(session.position().turn());
        if !same_place || !my_turn || session.game().is_over() {
            if sent.typed_while_down {
                events.push(Event::Table(TableNews::Told(format!(
                    "Your move {} typed while the line was down is not sent: the game is not \
                     where it was typed",
                    sent.text
                ))));
            }
            return;
        }
        let words = if std::mem::take(&mut sent.typed_while_down) {
            "typed while the line was down: sent now"
        } else {
            "did not reach the host before the line dropped: sent again"
        };
        events.push(Event::Table(TableNews::Told(format!(
            "Your move {} {words}",
            sent.text
        ))));
        // Sent now, into clocks that stood while the line was down: no reading to give.
        self.send_remote(RemoteCommand::Play {
            text: sent.text.clone(),
            left_ms: None,
        });
        self.unanswered_move = Some(sent);
    }

    /// The host's game as it stands now: followed on `session`, kept in this
    /// terminal's copy of the record, and a new question for this player put.
    fn follow_state(
        &mut self,
        session: &mut Session,
        state: GameState,
        now: Instant,
        events: &mut Vec<Event>,
    ) {
        let Some(record) = state_record(&state) else {
            return;
        };
        let mut shown = followed(&state, &record);
        // The host's reading is as old as the line is slow: the running clock has run
        // on meanwhile.
        if let Some((left, Some(running))) = shown.clocks.as_mut() {
            let i = usize::from(*running == Color::White);
            left[i] = left[i].saturating_sub(self.link.delay());
        }
        session.follow(shown, now);
        // The move sent shows in the host's game (or the game moved on): answered.
        if self.unanswered_move.as_ref().is_some_and(|sent| {
            sent.game_number != state.game_number || sent.plies != session.game().moves().len()
        }) {
            self.unanswered_move = None;
        }
        let before = std::mem::replace(&mut self.state, state.clone());
        let joiner_side = Color::from(state.joiner_side);
        if self.side.is_some_and(|side| side != joiner_side) {
            // A match's next game or a new one: the colours changed.
            self.side = Some(joiner_side);
            self.view.seat = Seat::Player(joiner_side);
            session.set_seat(joiner_side, Player::Person);
            session.set_seat(!joiner_side, Player::Remote);
        }
        self.view.spectators = state.spectators;
        self.view.undo_asked = state.undo_asked.map(Color::from);
        if self.side.is_none() {
            if !self.view.at_server {
                self.view.joiner_side = Some(joiner_side);
            }
            // A spectator is told when the player who joined comes or goes, as the host
            // is: its screen changes then (the clocks stop or run again).
            let was = std::mem::replace(&mut self.view.connected, state.player_connected);
            if !self.view.at_server && was != state.player_connected {
                let color = joiner_side;
                events.push(Event::Table(if state.player_connected {
                    TableNews::Joined {
                        color,
                        name: session.names().name(color).map(str::to_string),
                    }
                } else {
                    TableNews::Left { color, why: None }
                }));
            }
        }
        if let Some(mine) = self.side {
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
            && let Some(folder) = &self.copies
        {
            // This terminal's own copy; the host's is the one that counts, so a
            // failure here only goes unsaved.
            let _ = crate::store::save_record(&folder.join(copy_name(&record, &state)), &record);
        }
    }
}
