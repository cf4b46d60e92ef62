//! The lobby of `checkers online SERVER` on the full screen: the open seeks, the games
//! in play and the players online as three lists, the server's last word on a status
//! line, and a small form to post a seek, challenge a player or open a private table.
//!
//! Like the other screens it is state ([`LobbyScreen`]), keys turned into requests for
//! the server ([`LobbyScreen::handle_event`], no I/O) and drawing (`impl Widget for
//! &LobbyScreen`); the loop that runs it, the line and the boards it opens is in the
//! [parent module](super).

use super::choice::choice_lines;
use super::field::{TextField, field_action};
use super::keyline::KeyLine;
use super::theme::Theme;
use crate::server::protocol::{
    ClientMessage, LobbyGame, LobbyPlayer, LobbySeek, ServerMessage, Side,
};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

/// One of the lobby's lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum List {
    /// The open seeks: Enter accepts one.
    Seeks,
    /// The games in play: Enter watches one (resumes the player's own).
    Games,
    /// The players online: Enter challenges one.
    Players,
}

impl List {
    /// The list after this one (Tab).
    fn next(self) -> List {
        match self {
            List::Seeks => List::Games,
            List::Games => List::Players,
            List::Players => List::Seeks,
        }
    }

    /// The list before this one (Shift-Tab).
    fn previous(self) -> List {
        self.next().next()
    }
}

/// What a form asks the server for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum FormKind {
    /// A seek anyone may accept.
    Seek,
    /// A challenge to this player.
    Challenge(String),
    /// A private table, taken with the code the server gives.
    Invite,
}

/// The terms of a game being asked: the seek form, also for a challenge or an invite
/// (the same four terms).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Form {
    /// What it asks.
    pub(crate) kind: FormKind,
    /// The clock as typed (`5+3`; any clock `--clock` takes, as the server reads it).
    pub(crate) clock: TextField,
    /// Rated or casual.
    pub(crate) rated: bool,
    /// The side asked; none: either.
    pub(crate) side: Option<Side>,
    /// A ballot opening or a free one.
    pub(crate) ballot: bool,
    /// The field under the cursor (0: the clock).
    pub(crate) field: usize,
    /// Why the clock as typed was not sent (shown in the form until the clock is
    /// edited): the form stays open, nothing typed lost.
    pub(crate) error: Option<String>,
}

impl Form {
    /// A form for `kind` with the usual terms: 5+3, rated (casual for a private
    /// table), either side, a free opening.
    pub(crate) fn new(kind: FormKind) -> Form {
        let rated = kind != FormKind::Invite;
        Form {
            kind,
            clock: TextField::new("5+3", CLOCK_MAX_CHARS),
            rated,
            side: None,
            ballot: false,
            field: 0,
            error: None,
        }
    }

    /// How many fields it has: the clock, the kind, the side and the opening, for a
    /// seek, a challenge and a private table alike.
    const FIELDS: usize = 4;

    /// Changes the field under the cursor to its next value (`forward`) or the one
    /// before.
    fn turn(&mut self, forward: bool) {
        match self.field {
            1 => self.rated = !self.rated,
            2 => {
                let sides = [None, Some(Side::Black), Some(Side::White)];
                let i = sides.iter().position(|s| *s == self.side).unwrap_or(0);
                let step = if forward { 1 } else { 2 };
                self.side = sides[(i + step) % 3];
            }
            3 => self.ballot = !self.ballot,
            _ => {}
        }
    }

    /// The message that asks what the form says; the clock's fault if it does not
    /// read (as the server would read it), so the form can stay open to mend it.
    fn message(&self) -> Result<ClientMessage, String> {
        let typed = self.clock.text.trim();
        if let Err(e) = typed.parse::<crate::session::TimeControl>() {
            let shown = crate::text::printable(typed, CLOCK_MAX_CHARS);
            return Err(format!("Clock {shown}: {}", crate::text::error_chain(&e)));
        }
        Ok(self.request())
    }

    /// The message that asks what the form says, its clock as typed.
    fn request(&self) -> ClientMessage {
        let clock = self.clock.text.trim().to_string();
        match &self.kind {
            FormKind::Seek => ClientMessage::Seek {
                clock,
                rated: self.rated,
                side: self.side,
                ballot: self.ballot,
            },
            FormKind::Challenge(name) => ClientMessage::Challenge {
                name: name.clone(),
                clock,
                rated: self.rated,
                side: self.side,
                ballot: self.ballot,
            },
            FormKind::Invite => ClientMessage::Invite {
                clock,
                rated: self.rated,
                side: self.side,
                ballot: self.ballot,
            },
        }
    }

    /// The form's lines: each field, the one under the cursor marked, the clock drawn
    /// as every typed field is (its text cursor shown while it is under the cursor).
    fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let side = match self.side {
            None => "either (by lot)",
            Some(Side::Black) => "Black",
            Some(Side::White) => "White",
        };
        let fields = [
            String::new(),
            format!("Kind:    {}", if self.rated { "rated" } else { "casual" }),
            format!("Side:    {side}"),
            format!(
                "Opening: {}",
                if self.ballot {
                    "a ballot (three moves drawn from the ACF deck)"
                } else {
                    "free"
                }
            ),
        ];
        let mut lines = choice_lines(theme, fields, self.field, Form::FIELDS);
        let (marker, marker_style, style) = if self.field == 0 {
            ("> ", theme.question, theme.cursor)
        } else {
            ("  ", theme.text, theme.text)
        };
        let mut clock = vec![
            Span::styled(marker, marker_style),
            Span::styled("Clock:   ", style),
        ];
        // The note stands two cells after the text, the text cursor's blank cell past
        // its end one of them.
        let at_end = self.clock.cursor_at_end();
        if self.field == 0 {
            clock.extend(self.clock.spans_in(style, theme.key));
        } else {
            clock.push(Span::styled(
                crate::text::printable(&self.clock.text, 60),
                style,
            ));
        }
        let gap = if self.field == 0 && at_end { " " } else { "  " };
        clock.push(Span::styled(
            format!("{gap}(minutes+seconds a move)"),
            style,
        ));
        lines[0] = Line::from(clock);
        if let Some(error) = &self.error {
            lines.push(Line::default());
            lines.push(Line::styled(error.clone(), theme.error));
        }
        lines
    }

    /// The form's title.
    fn title(&self) -> String {
        match &self.kind {
            FormKind::Seek => " Post a seek ".to_string(),
            FormKind::Challenge(name) => format!(" Challenge {name} "),
            FormKind::Invite => " Open a private table ".to_string(),
        }
    }
}

/// The online lobby as the loop runs it: the line to the server, the screen, where the
/// board keeps its copies of the games, and the word to print once the terminal is
/// given back (why the line is gone).
pub(crate) struct Online {
    /// The line to the server.
    pub(crate) line: crate::online::ServerLine,
    /// The lobby's screen.
    pub(crate) screen: LobbyScreen,
    /// The folder for this terminal's copies of the games' records.
    pub(crate) copies: Option<std::path::PathBuf>,
    /// What to print after the screen is gone.
    pub(crate) farewell: std::sync::Arc<std::sync::Mutex<Option<String>>>,
}

/// Longest clock the seek form takes (`G/15`, `5+3`, `30/60`: a few characters).
const CLOCK_MAX_CHARS: usize = 20;

/// Longest invite code the join prompt takes (the server's are four words and digits).
const CODE_MAX_CHARS: usize = 60;

/// Longest moderator's order the prompt takes: `ban`, a name and the longest reason.
const ORDER_MAX_CHARS: usize = crate::server::protocol::MAX_REASON + 30;

/// The width from which the seeks and the games stand side by side.
const WIDE: u16 = 100;

/// How many of the server's words the status lines keep.
const STATUS_KEPT: usize = 2;

/// What the lobby asks of the loop that runs it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum LobbyAction {
    /// Send this to the server (then the lobby is asked again).
    Send(ClientMessage),
    /// Ask the lobby again now.
    Refresh,
    /// Leave the server.
    Quit,
}

/// The lobby's state: the lists as the server last told them, the cursor, what is
/// being typed, the server's last word.
#[derive(Clone, Debug)]
pub(crate) struct LobbyScreen {
    /// Who is logged in where (`alice at example.org:4620`).
    pub(crate) title: String,
    /// The name logged in (its own seeks and games are marked so).
    pub(crate) me: String,
    /// The open seeks.
    pub(crate) seeks: Vec<LobbySeek>,
    /// The games in play.
    pub(crate) games: Vec<LobbyGame>,
    /// The players online.
    pub(crate) players: Vec<LobbyPlayer>,
    /// How many of each (players, seeks, games) the server did not list.
    pub(crate) more: [usize; 3],
    /// The list under the cursor.
    pub(crate) list: List,
    /// The line under the cursor in each list (seeks, games, players).
    pub(crate) selected: [usize; 3],
    /// The server's last words (two at most, the newest last), each with whether it
    /// refused something.
    pub(crate) status: Vec<(String, bool)>,
    /// The form being filled, if one.
    pub(crate) form: Option<Form>,
    /// The invite code being typed (`j`), if one.
    pub(crate) code: Option<TextField>,
    /// Whether the server welcomed the player as a moderator: `/` types an order.
    pub(crate) moderator: bool,
    /// A moderator's order (`/`) or a private line (`t`: `tell NAME TEXT`) being
    /// typed, if one.
    pub(crate) order: Option<TextField>,
    /// Whether the server takes a `tell` ([`KNOWS_TELL`](crate::server::protocol::KNOWS_TELL)):
    /// an older one would let the client go at it, so it is refused here.
    pub(crate) tells: bool,
    /// Whether the server takes an `ignore` ([`KNOWS_IGNORE`](crate::server::protocol::KNOWS_IGNORE)):
    /// an older one would let the client go at it, so it is refused here.
    pub(crate) ignores: bool,
    /// Whether the help is shown.
    pub(crate) help: bool,
    /// The screen as last drawn, for the mouse.
    pub(crate) screen: Rect,
    /// Colours and glyphs.
    pub(crate) theme: Theme,
}

impl LobbyScreen {
    /// An empty lobby of `me` at `address`, until the server's lists come.
    pub(crate) fn new(me: &str, address: &str, theme: Theme) -> LobbyScreen {
        LobbyScreen {
            title: format!("{me} at {address}"),
            me: me.to_string(),
            seeks: Vec::new(),
            games: Vec::new(),
            players: Vec::new(),
            more: [0; 3],
            list: List::Seeks,
            selected: [0; 3],
            status: Vec::new(),
            form: None,
            code: None,
            moderator: false,
            order: None,
            tells: false,
            ignores: false,
            help: false,
            screen: Rect::default(),
            theme,
        }
    }

    /// What the server said, taken in: the lists, or its word for the status line.
    pub(crate) fn heard(&mut self, message: ServerMessage) {
        match message {
            ServerMessage::Lobby {
                players,
                seeks,
                games,
                more,
            } => {
                self.players = players;
                self.seeks = seeks;
                self.games = games;
                self.more = more;
                let lengths = [self.seeks.len(), self.games.len(), self.players.len()];
                for (selected, len) in self.selected.iter_mut().zip(lengths) {
                    *selected = (*selected).min(len.saturating_sub(1));
                }
            }
            ServerMessage::Info { text } => self.say(&text, false),
            ServerMessage::Rejected { reason } | ServerMessage::Refused { reason } => {
                self.say(&reason, true);
            }
            ServerMessage::Ended { text, ratings, .. } => {
                let text = match ratings {
                    Some(ratings) => format!("Game over: {text}. Ratings: {ratings}"),
                    None => format!("Game over: {text}"),
                };
                self.say(&text, false);
            }
            ServerMessage::Said { name, text } => self.say(&format!("{name}: {text}"), false),
            ServerMessage::Told { name, text } => {
                self.say(&crate::online::orders::told_words(&name, &text), false);
            }
            // Welcomed again: the operator made this player a moderator, or no longer
            // one, while they are online.
            ServerMessage::Welcome { moderator, .. } => self.moderator = moderator,
            _ => {}
        }
    }

    /// Puts `text` on the status line (`refused`: as an error), made safe to show.
    pub(crate) fn say(&mut self, text: &str, refused: bool) {
        let text = crate::text::printable(text, 600);
        let mut text = text.replace('\n', " ");
        // A refusal comes as a clause ("no open seek 4"); other words start with a name.
        if refused && let Some(first) = text.get(..1) {
            text = first.to_uppercase() + &text[1..];
        }
        if self.status.len() >= STATUS_KEPT {
            self.status.remove(0);
        }
        self.status.push((text, refused));
    }

    /// The index of `list` in [`LobbyScreen::selected`].
    fn slot(list: List) -> usize {
        match list {
            List::Seeks => 0,
            List::Games => 1,
            List::Players => 2,
        }
    }

    /// How many lines `list` has.
    fn len(&self, list: List) -> usize {
        match list {
            List::Seeks => self.seeks.len(),
            List::Games => self.games.len(),
            List::Players => self.players.len(),
        }
    }

    /// The player under the cursor in the players' list, if any.
    fn selected_player(&self) -> Option<&LobbyPlayer> {
        self.players.get(self.selected[2])
    }

    /// Applies a terminal event (a key; a click on an entry of the key line presses its
    /// key); returns what the loop is to do, if anything.
    pub(crate) fn handle_event(&mut self, event: &Event) -> Option<LobbyAction> {
        // A click on an entry of the key line presses its key ("s seek", "q quit").
        if let Event::Mouse(mouse) = event
            && mouse.kind == MouseEventKind::Down(MouseButton::Left)
            && let Some(key) =
                self.key_line()
                    .press_in(keys_area(self.screen), mouse.column, mouse.row)
        {
            return self.handle_event(&Event::Key(key));
        }
        let Event::Key(key) = event else {
            return None;
        };
        if key.kind != KeyEventKind::Press {
            return None;
        }
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return Some(LobbyAction::Quit);
        }
        if self.help {
            self.help = false;
            return None;
        }
        if self.form.is_some() {
            return self.form_key(key);
        }
        if self.code.is_some() {
            return self.code_key(key);
        }
        if self.order.is_some() {
            return self.order_key(key);
        }
        let slot = Self::slot(self.list);
        let last = self.len(self.list).saturating_sub(1);
        // Ctrl-S or Alt-s is not s: it opens no form, and is said to do nothing.
        match crate::tui::keymap::plain_code(key) {
            KeyCode::Up | KeyCode::Char('k') => {
                self.selected[slot] = self.selected[slot].saturating_sub(1);
            }
            KeyCode::Down | KeyCode::Char('j') => {
                self.selected[slot] = (self.selected[slot] + 1).min(last);
            }
            KeyCode::Home => self.selected[slot] = 0,
            KeyCode::End => self.selected[slot] = last,
            KeyCode::Tab | KeyCode::Right => self.list = self.list.next(),
            KeyCode::BackTab | KeyCode::Left => self.list = self.list.previous(),
            KeyCode::Enter => return self.enter(),
            KeyCode::Char('s') => self.form = Some(Form::new(FormKind::Seek)),
            KeyCode::Char('i') => self.form = Some(Form::new(FormKind::Invite)),
            KeyCode::Char('c') => {
                let name = self.selected_player().map(|p| p.name.clone());
                match name {
                    Some(name) if name != self.me => {
                        self.form = Some(Form::new(FormKind::Challenge(name)));
                    }
                    _ => self.say("Pick another player in the players' list first", true),
                }
            }
            // `e` to enter a code: `j` and `k` move in the list, as in every list.
            KeyCode::Char('e') => self.code = Some(TextField::new("", CODE_MAX_CHARS)),
            KeyCode::Char('p') => {
                let name = match self.list {
                    List::Seeks => self.seeks.get(self.selected[0]).map(|s| s.by.clone()),
                    _ => self.selected_player().map(|p| p.name.clone()),
                };
                let name = name.unwrap_or_else(|| self.me.clone());
                return Some(LobbyAction::Send(ClientMessage::Player { name }));
            }
            KeyCode::Char('x') => return self.withdraw(),
            KeyCode::Char('t') => {
                // To the player under the cursor, else the name is typed too.
                let name = match self.list {
                    List::Players => self.selected_player().map(|p| p.name.clone()),
                    _ => None,
                };
                let text = match name {
                    Some(name) if name != self.me => format!("tell {name} "),
                    _ => "tell ".to_string(),
                };
                self.order = Some(TextField::new(text, ORDER_MAX_CHARS));
            }
            KeyCode::Char('/') if self.moderator => {
                self.order = Some(TextField::new("", ORDER_MAX_CHARS));
            }
            KeyCode::Char('/') => {
                let note = "/ is for moderators: you are not one";
                self.say(note, true);
            }
            KeyCode::Char('m') => return Some(LobbyAction::Send(ClientMessage::Rematch)),
            KeyCode::Char('d') => return Some(LobbyAction::Send(ClientMessage::Decline)),
            KeyCode::Char('r') => return Some(LobbyAction::Refresh),
            KeyCode::Char('?') | KeyCode::F(1) => self.help = true,
            KeyCode::Char('q') | KeyCode::Esc => return Some(LobbyAction::Quit),
            _ => {
                // Said once however often the key is pressed: the lines above it are
                // the server's news, kept in view.
                if let Some(note) =
                    crate::tui::keymap::unbound_note(key, crate::tui::keymap::EVERY_KEY_HELP)
                    && self.status.last().is_none_or(|(last, _)| *last != note)
                {
                    self.say(&note, false);
                }
            }
        }
        None
    }

    /// The key line of what is shown (the lists, a form, the code being typed), each
    /// entry with the key a click on it presses.
    fn key_line(&self) -> KeyLine {
        let keys: &[(&str, &str)] = match &self.form {
            Some(form) if form.field == 0 => &[
                ("Up/Down", "field"),
                ("Ctrl-U", "clear"),
                ("Enter", "send"),
                ("Esc", "cancel"),
            ],
            Some(_) => &[
                ("Up/Down", "field"),
                ("Left/Right", "change"),
                ("Enter", "send"),
                ("Esc", "cancel"),
            ],
            None if self.code.is_some() => {
                &[("Enter", "join"), ("Ctrl-U", "clear"), ("Esc", "cancel")]
            }
            None if self.order.is_some() => {
                &[("Enter", "give"), ("Ctrl-U", "clear"), ("Esc", "cancel")]
            }
            None if self.moderator => &[
                ("Tab", "list"),
                ("Enter", "take"),
                ("s", "seek"),
                ("e", "join"),
                ("p", "player"),
                ("/", "moderate"),
                ("?", "help"),
                ("q", "quit"),
            ],
            None => &[
                ("Tab", "list"),
                ("Enter", "take"),
                ("s", "seek"),
                ("i", "invite"),
                ("e", "join"),
                ("p", "player"),
                ("?", "help"),
                ("q", "quit"),
            ],
        };
        KeyLine::of_keys(&self.theme, keys)
    }

    /// `x`: withdraw the seek under the cursor if it is one's own, or decline it if it
    /// is a challenge to one.
    fn withdraw(&mut self) -> Option<LobbyAction> {
        let seek = match self.list {
            List::Seeks => self.seeks.get(self.selected[0]),
            _ => None,
        };
        match seek {
            Some(seek) if seek.by == self.me || seek.only.as_deref() == Some(&self.me) => {
                Some(LobbyAction::Send(ClientMessage::Cancel {
                    number: seek.number,
                }))
            }
            Some(_) => {
                self.say(
                    "x withdraws a seek of your own or declines a challenge to you: that seek is \
                     neither",
                    true,
                );
                None
            }
            None => {
                self.say(
                    "x works in Open seeks: on your own seek to withdraw it, on a challenge to \
                     you to decline it",
                    true,
                );
                None
            }
        }
    }

    /// Enter on the line under the cursor: accept the seek, watch the game (go back to
    /// one's own), challenge the player.
    fn enter(&mut self) -> Option<LobbyAction> {
        let slot = Self::slot(self.list);
        match self.list {
            List::Seeks => match self.seeks.get(self.selected[slot]) {
                Some(seek) if seek.by == self.me => {
                    self.say(
                        "That seek is your own: wait for someone to accept it (x withdraws it)",
                        true,
                    );
                    None
                }
                Some(seek) => Some(LobbyAction::Send(ClientMessage::Accept {
                    number: seek.number,
                })),
                None => {
                    self.say("No open seek to accept: s posts one", true);
                    None
                }
            },
            List::Games => match self.games.get(self.selected[slot]) {
                Some(game) if self.is_mine(game) => Some(LobbyAction::Send(ClientMessage::Resume)),
                Some(game) => Some(LobbyAction::Send(ClientMessage::Watch {
                    number: game.number,
                })),
                None => {
                    self.say("No game in play to watch", true);
                    None
                }
            },
            List::Players => {
                let name = self.selected_player().map(|p| p.name.clone());
                match name {
                    Some(name) if name != self.me => {
                        self.form = Some(Form::new(FormKind::Challenge(name)));
                    }
                    _ => self.say("That is you: pick another player to challenge", true),
                }
                None
            }
        }
    }

    /// A key while the form is open: Up/Down move, Left/Right/Space change a choice,
    /// the clock is edited as every typed field is ([`field_action`]), Enter sends, Esc
    /// cancels. With Ctrl or Alt a key is none of these (as nowhere else), though the
    /// clock's field takes what every typed field takes.
    fn form_key(&mut self, key: &KeyEvent) -> Option<LobbyAction> {
        let form = self.form.as_mut()?;
        let last = Form::FIELDS - 1;
        match crate::tui::keymap::plain_code(key) {
            KeyCode::Esc => self.form = None,
            KeyCode::Up | KeyCode::BackTab => form.field = form.field.saturating_sub(1),
            KeyCode::Down | KeyCode::Tab => form.field = (form.field + 1).min(last),
            KeyCode::Enter => match form.message() {
                Ok(message) => {
                    self.form = None;
                    return Some(LobbyAction::Send(message));
                }
                Err(error) => {
                    form.error = Some(error);
                    form.field = 0;
                }
            },
            _ if form.field == 0 => {
                if let Some(action) = field_action(key) {
                    form.clock.edit(&action);
                    form.error = None;
                }
            }
            KeyCode::Left => form.turn(false),
            KeyCode::Right | KeyCode::Char(' ') => form.turn(true),
            _ => {}
        }
        None
    }

    /// A key while an invite code is typed: Enter joins, Esc cancels (plain keys only,
    /// as in the form); the code is edited as every typed field is ([`field_action`]).
    fn code_key(&mut self, key: &KeyEvent) -> Option<LobbyAction> {
        let typed = self.code.as_mut()?;
        match crate::tui::keymap::plain_code(key) {
            KeyCode::Esc => self.code = None,
            KeyCode::Enter => {
                let code = self.code.take().map(|field| field.text).unwrap_or_default();
                if code.trim().is_empty() {
                    return None;
                }
                return Some(LobbyAction::Send(ClientMessage::Join { code }));
            }
            _ => {
                if let Some(action) = field_action(key) {
                    typed.edit(&action);
                }
            }
        }
        None
    }

    /// A key while a moderator's order is typed: Enter gives it (an order that does not
    /// read is said, the field kept open with it), Esc cancels.
    fn order_key(&mut self, key: &KeyEvent) -> Option<LobbyAction> {
        let typed = self.order.as_mut()?;
        match crate::tui::keymap::plain_code(key) {
            KeyCode::Esc => self.order = None,
            KeyCode::Enter => {
                let text = typed.text.clone();
                match crate::online::orders::tell_typed(&text) {
                    Some(_) if !self.tells => {
                        self.order = None;
                        self.say(crate::server::protocol::TELL_UNKNOWN, true);
                        return None;
                    }
                    Some(Ok(tell)) => {
                        self.order = None;
                        return Some(LobbyAction::Send(tell));
                    }
                    Some(Err(wrong)) => {
                        self.say(&wrong, true);
                        return None;
                    }
                    None => {}
                }
                match crate::online::orders::ignore_typed(&text) {
                    Some(_) if !self.ignores => {
                        self.order = None;
                        self.say(crate::server::protocol::IGNORE_UNKNOWN, true);
                        return None;
                    }
                    Some(Ok(ignore)) => {
                        self.order = None;
                        return Some(LobbyAction::Send(ignore));
                    }
                    Some(Err(wrong)) => {
                        self.say(&wrong, true);
                        return None;
                    }
                    None => {}
                }
                match crate::online::orders::typed(&text) {
                    Some(_) if !self.moderator => {
                        let first = text.split_whitespace().next().unwrap_or_default();
                        self.say(&crate::online::orders::not_a_moderator(first), true);
                    }
                    Some(Ok(order)) => {
                        self.order = None;
                        return Some(LobbyAction::Send(ClientMessage::Moderate { order }));
                    }
                    Some(Err(wrong)) => self.say(&wrong, true),
                    None if text.trim().is_empty() => self.order = None,
                    None => {
                        let help = self.order_help();
                        self.say(&format!("Not an order: {help}"), true);
                    }
                }
            }
            _ => {
                if let Some(action) = field_action(key) {
                    typed.edit(&action);
                }
            }
        }
        None
    }

    /// Whether the order field holds a private line (`tell NAME TEXT`): all it takes
    /// from a player who is not a moderator, and what `t` opens it with.
    fn order_is_tell(&self) -> bool {
        let Some(order) = &self.order else {
            return false;
        };
        let first = order.text.split_whitespace().next().unwrap_or_default();
        !self.moderator || first.eq_ignore_ascii_case("tell")
    }

    /// The order field's label, for what it holds: "Private line: " for a tell (it said
    /// "Order: " there too), "Order: " for a moderator's order.
    fn order_label(&self) -> &'static str {
        let first = self
            .order
            .as_ref()
            .map(|o| o.text.split_whitespace().next());
        if matches!(first, Some(Some("ignore" | "unignore"))) {
            "Ignore: "
        } else if self.order_is_tell() {
            "Private line: "
        } else {
            "Order: "
        }
    }

    /// What the order field takes, as its hint says it: a private line, and a
    /// moderator's orders to a moderator.
    fn order_help(&self) -> String {
        let tell = crate::online::orders::TELL_HELP;
        let ignore = crate::online::orders::IGNORE_HELP;
        if self.moderator && !self.order_is_tell() {
            format!("{tell}; {ignore}; {}", crate::online::orders::ORDERS_HELP)
        } else {
            format!("{tell}; {ignore}")
        }
    }

    /// The seeks' lines.
    fn seek_lines(&self) -> Vec<String> {
        self.seeks
            .iter()
            .map(|s| {
                let mut line = format!(
                    "{:>3}  {} ({})  {} {}",
                    s.number,
                    s.by,
                    s.rating,
                    s.clock,
                    if s.rated { "rated" } else { "casual" }
                );
                match s.side {
                    Some(Side::Black) => line.push_str(&format!(", {} plays Black", s.by)),
                    Some(Side::White) => line.push_str(&format!(", {} plays White", s.by)),
                    None => {}
                }
                if s.ballot {
                    line.push_str(", ballot");
                }
                if let Some(only) = &s.only {
                    line.push_str(&format!(", a challenge to {only}"));
                }
                if s.by == self.me {
                    line.push_str("  (yours)");
                }
                line
            })
            .collect()
    }

    /// Whether `game` is one the player logged in plays.
    fn is_mine(&self, game: &LobbyGame) -> bool {
        game.black == self.me || game.white == self.me
    }

    /// The games' lines (the player's own adjourned game says how to go back to it).
    fn game_lines(&self) -> Vec<String> {
        self.games
            .iter()
            .map(|g| {
                let moves = if g.moves == 1 { "move" } else { "moves" };
                let state = match (g.adjourned, self.is_mine(g)) {
                    (true, true) => ", yours, adjourned",
                    (true, false) => ", adjourned",
                    (false, true) => ", yours",
                    (false, false) => "",
                };
                format!(
                    "{:>3}  {} - {}  {} {}, {} {moves}{state}",
                    g.number,
                    g.black,
                    g.white,
                    g.clock,
                    if g.rated { "rated" } else { "casual" },
                    g.moves,
                )
            })
            .collect()
    }

    /// The players' lines.
    fn player_lines(&self) -> Vec<String> {
        self.players
            .iter()
            .map(|p| {
                let doing = match p.playing {
                    Some(game) => format!("playing game {game}"),
                    None => "in the lobby".to_string(),
                };
                let you = if p.name == self.me { " (you)" } else { "" };
                format!("{} ({}){you}  {doing}", p.name, p.rating)
            })
            .collect()
    }

    /// Draws one list in `area`: its heading, its lines, the one under the cursor
    /// marked when it is the list under the cursor.
    fn render_list(&self, list: List, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        let (heading, lines, more, empty) = match list {
            List::Seeks => (
                "Open seeks",
                self.seek_lines(),
                self.more[1],
                "No open seeks: s posts one.",
            ),
            List::Games => (
                "Games in play",
                self.game_lines(),
                self.more[2],
                "No games in play.",
            ),
            List::Players => (
                "Players online",
                self.player_lines(),
                self.more[0],
                "Nobody online.",
            ),
        };
        let focused = self.list == list;
        let count = lines.len() + more;
        let mut text = vec![Line::styled(
            format!("{} {heading} ({count})", if focused { ">" } else { " " }),
            if focused {
                theme.question
            } else {
                theme.heading
            },
        )];
        let room = usize::from(area.height.saturating_sub(1 + u16::from(more > 0)));
        if lines.is_empty() {
            text.push(Line::styled(format!("  {empty}"), theme.text));
        } else if focused {
            text.extend(choice_lines(
                theme,
                lines,
                self.selected[Self::slot(list)],
                room,
            ));
        } else {
            text.extend(
                lines
                    .into_iter()
                    .take(room)
                    .map(|l| Line::styled(format!("  {l}"), theme.text)),
            );
        }
        if more > 0 {
            text.push(Line::styled(format!("  and {more} more"), theme.text));
        }
        Paragraph::new(text).render(area, buf);
    }
}

/// The lobby's keys, for its help.
const HELP: [(&str, &str); 15] = [
    ("Tab, Shift-Tab, Left/Right", "the next or previous list"),
    (
        "Up/Down (k/j), Home/End",
        "move in the list; its first or last line",
    ),
    (
        "Enter",
        "accept the seek, watch the game (resume yours), challenge the player",
    ),
    (
        "s",
        "post a seek (clock, rated or casual, a side, a ballot)",
    ),
    ("c", "challenge the player under the cursor"),
    (
        "i",
        "open a private table: the server gives a code for a friend",
    ),
    ("e", "enter a private table's code to join it"),
    (
        "x",
        "withdraw your seek under the cursor, or decline a challenge to you",
    ),
    ("p", "the record of the player under the cursor (or yours)"),
    (
        "t",
        "tell the player under the cursor (or anyone) a line only they hear; \
         ignore NAME there stops a pest's tells, lines, challenges, seeks and rematches",
    ),
    (
        "m",
        "offer a rematch of your last game, or accept the one offered",
    ),
    ("d", "decline the rematch offered"),
    (
        "r",
        "ask the lists again (they come every few seconds anyway)",
    ),
    ("?", "this help"),
    ("q, Esc", "leave the server"),
];

impl Widget for &LobbyScreen {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        Clear.render(area, buf);
        let block = Block::bordered()
            .border_set(theme.glyphs.border)
            .title(format!(" checkers online: {} ", self.title))
            .title_style(theme.heading)
            .border_style(theme.heading);
        let inner = block.inner(area);
        block.render(area, buf);
        let [lists, status, keys] = lobby_areas(inner);
        let [seeks, games, players] = if lists.width >= WIDE {
            // Wide: the seeks and the games side by side, the players below.
            let [top, players] =
                Layout::vertical([Constraint::Ratio(2, 3), Constraint::Ratio(1, 3)]).areas(lists);
            let [seeks, games] =
                Layout::horizontal([Constraint::Ratio(1, 2), Constraint::Ratio(1, 2)]).areas(top);
            [seeks, games, players]
        } else {
            Layout::vertical([
                Constraint::Ratio(1, 3),
                Constraint::Ratio(1, 3),
                Constraint::Ratio(1, 3),
            ])
            .areas(lists)
        };
        self.render_list(List::Seeks, seeks, buf);
        self.render_list(List::Games, games, buf);
        self.render_list(List::Players, players, buf);
        // One word wraps over both lines; two take one each, the newest below, unless
        // the newest is longer than a line: then it has both (its end said what to do
        // next, and was cut off).
        let newest_long = self
            .status
            .last()
            .is_some_and(|(text, _)| Line::raw(text.as_str()).width() > usize::from(status.width));
        let kept = if newest_long {
            &self.status[self.status.len() - 1..]
        } else {
            &self.status[..]
        };
        // One word has both rows; two have one each.
        let rows = if kept.len() == 1 { 2 } else { 1 };
        let said: Vec<Line> = kept
            .iter()
            .map(|(text, refused)| {
                let style = if *refused { theme.error } else { theme.text };
                let text = fitted_ignore_list(text, usize::from(status.width), rows)
                    .unwrap_or_else(|| text.clone());
                Line::styled(text, style)
            })
            .collect();
        let mut paragraph = Paragraph::new(said);
        if kept.len() == 1 {
            paragraph = paragraph.wrap(Wrap { trim: true });
        }
        paragraph.render(status, buf);
        self.key_line().line().render(keys, buf);
        if let Some(form) = &self.form {
            // The clock's fault, when shown, wraps below the fields after a blank line.
            let fault_lines = form.error.as_ref().map_or(0, |error| {
                let width = usize::from(FORM_WIDTH - 2);
                1 + wrapped_height(error, width)
            });
            let height = u16::try_from(Form::FIELDS + fault_lines).unwrap_or(u16::MAX) + 2;
            let popup = centered(inner, FORM_WIDTH, height);
            Clear.render(popup, buf);
            Paragraph::new(form.lines(theme))
                .wrap(Wrap { trim: false })
                .block(
                    Block::bordered()
                        .border_set(theme.glyphs.border)
                        .title(form.title())
                        .title_style(theme.question)
                        .border_style(theme.question),
                )
                .render(popup, buf);
        }
        if let Some(code) = &self.code {
            let popup = centered(inner, 64, 3);
            Clear.render(popup, buf);
            let mut line = vec![Span::styled("Code: ", theme.text)];
            line.extend(code.spans_in(theme.text, theme.key));
            Paragraph::new(Line::from(line))
                .block(
                    Block::bordered()
                        .border_set(theme.glyphs.border)
                        .title(" Join a private table ")
                        .title_style(theme.question)
                        .border_style(theme.question),
                )
                .render(popup, buf);
        }
        if let Some(order) = &self.order {
            let width = FORM_WIDTH.min(inner.width);
            let text_width = usize::from(width.saturating_sub(2));
            let label = self.order_label();
            let typed = wrapped_height(&format!("{label}{}_", order.text), text_width);
            let help = self.order_help();
            let hint = wrapped_height(&help, text_width);
            let height = u16::try_from(typed + 1 + hint).unwrap_or(u16::MAX) + 2;
            let popup = centered(inner, width, height);
            Clear.render(popup, buf);
            let mut line = vec![Span::styled(label, theme.text)];
            line.extend(order.spans_in(theme.text, theme.key));
            let lines = vec![
                Line::from(line),
                Line::default(),
                Line::styled(help, theme.text),
            ];
            let title = if self.moderator {
                " A moderator's order, a private line or an ignore "
            } else {
                " A private line, or an ignore "
            };
            Paragraph::new(lines)
                .wrap(Wrap { trim: false })
                .block(
                    Block::bordered()
                        .border_set(theme.glyphs.border)
                        .title(title)
                        .title_style(theme.question)
                        .border_style(theme.question),
                )
                .render(popup, buf);
        }
        if self.help {
            let keys = HELP.len() + usize::from(self.moderator);
            let height = u16::try_from(keys).unwrap_or(13) + 3;
            let popup = centered(inner, 76, height);
            Clear.render(popup, buf);
            let mut lines: Vec<Line> = HELP
                .iter()
                .map(|(key, what)| super::view::hint_line(theme, &[(key, what)]))
                .collect();
            if self.moderator {
                let what = "a moderator's order: mute, unmute, kick, ban, unban NAME";
                lines.push(super::view::hint_line(theme, &[("/", what)]));
            }
            lines.push(Line::styled("Any key closes this help.", theme.text));
            Paragraph::new(lines)
                .block(
                    Block::bordered()
                        .border_set(theme.glyphs.border)
                        .title(" The lobby's keys ")
                        .title_style(theme.heading)
                        .border_style(theme.heading),
                )
                .wrap(Wrap { trim: false })
                .render(popup, buf);
        }
    }
}

/// The lobby's rows inside its frame `inner`: the lists, the status (two rows) and the
/// key line.
fn lobby_areas(inner: Rect) -> [Rect; 3] {
    Layout::vertical([
        Constraint::Min(3),
        Constraint::Length(2),
        Constraint::Length(1),
    ])
    .areas(inner)
}

/// Where the lobby drawn on `screen` has its key line.
fn keys_area(screen: Rect) -> Rect {
    let inner = Block::bordered().inner(screen);
    lobby_areas(inner)[2]
}

/// The seek form's width, its border included.
const FORM_WIDTH: u16 = 64;

/// How many lines `text` takes wrapped at word boundaries to `width` columns (a word
/// longer than the width is split, as the paragraph splits it).
fn wrapped_height(text: &str, width: usize) -> usize {
    let width = width.max(1);
    let (mut lines, mut used) = (1, 0);
    for word in text.split_whitespace() {
        let len = word.chars().count();
        let needed = if used == 0 { len } else { used + 1 + len };
        if needed <= width {
            used = needed;
        } else {
            lines += 1;
            used = len;
            while used > width {
                lines += 1;
                used -= width;
            }
        }
    }
    lines
}

/// The server's ignore list (`You ignore 100 of at most 100: a, b, ...`) made to fit
/// `rows` rows of `width` columns where it does not: its count and as many names as
/// fit (`You ignore 100 players: a, b, c ... and 93 more`). None for other words, or
/// a list that fits (plain mode prints it whole).
fn fitted_ignore_list(text: &str, width: usize, rows: usize) -> Option<String> {
    let rest = text.strip_prefix("You ignore ")?;
    let (count, rest) = rest.split_once(" of at most ")?;
    let count: usize = count.parse().ok()?;
    let (_, names) = rest.split_once(": ")?;
    if wrapped_height(text, width) <= rows {
        return None;
    }
    let names: Vec<&str> = names.split(", ").collect();
    (1..names.len())
        .rev()
        .map(|shown| {
            format!(
                "You ignore {count} players: {} ... and {} more",
                names[..shown].join(", "),
                // Of the count, not of the names: the status line keeps a long word cut.
                count.saturating_sub(shown)
            )
        })
        .find(|fitted| wrapped_height(fitted, width) <= rows)
        .or_else(|| {
            Some(format!(
                "You ignore {count} players (ignore in plain mode lists them)"
            ))
        })
}

/// A rectangle of at most `width` by `height` in the middle of `area`.
fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let width = width.min(area.width);
    let height = height.min(area.height);
    Rect::new(
        area.x + (area.width - width) / 2,
        area.y + (area.height - height) / 2,
        width,
        height,
    )
}
