//! The home screen's network page: hold a game here for a friend, join a friend's game,
//! watch it, or meet players at a checkers server. Each is a small form whose fields are
//! what `checkers host`, `join`, `watch` and `online` take on their command lines; a
//! filled form becomes a [`Chosen`] that the opener starts as those commands would.

use super::{Chosen, Room, Side};
use crate::net::protocol::Role;
use crate::session::TimeControl;
use crate::tui::field::{TextField, field_action};
use crate::tui::theme::Theme;
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use ratatui::text::{Line, Span};

/// Longest text a field of the forms takes (an address, a code, a name).
const FIELD_MAX_CHARS: usize = 200;

/// A server met for the first time: its certificate's fingerprint, shown on the page for
/// the player to trust (pinned, and the lobby opened) or not (nothing pinned) before
/// anything is pinned, as `checkers online` asks on the terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct FirstContact {
    /// The server's address, with its port.
    pub(crate) address: String,
    /// The name to log in under (the user's name when none).
    pub(crate) name: Option<String>,
    /// The fingerprint of the certificate the server presented.
    pub(crate) fingerprint: [u8; 32],
}

/// A form of the network page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Form {
    /// Hold a game at this terminal, as `checkers host`.
    Host,
    /// Join a friend's game as its other player, as `checkers join`.
    Join,
    /// Follow a friend's game without playing, as `checkers watch`.
    Watch,
    /// Meet players at a checkers server's lobby, as `checkers online`.
    Server,
}

impl Form {
    /// The forms, in the order the page lists them.
    const ALL: [Form; 4] = [Form::Host, Form::Join, Form::Watch, Form::Server];

    /// The form's name in the page's list.
    fn label(self) -> &'static str {
        match self {
            Form::Host => "Host a game here",
            Form::Join => "Join a friend's game",
            Form::Watch => "Watch a friend's game",
            Form::Server => "Play at a checkers server",
        }
    }

    /// The form's rows, its last the button that starts it.
    fn rows(self) -> usize {
        match self {
            Form::Host => 5,
            Form::Join | Form::Watch => 4,
            Form::Server => 3,
        }
    }
}

/// What a key on the network page asks of the home screen.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Reply {
    /// Nothing beyond the page's own change.
    Stay,
    /// Back to the home screen's list.
    Back,
    /// A filled form: start this.
    Start(Chosen),
    /// A form that cannot start as filled: this says which field is wrong.
    Refused(String),
    /// A key the page does not take (the home screen says so).
    Unbound,
}

/// The network page's state: the form shown and what is typed in each field (kept
/// when the page is left, so a refused join is tried again without typing it all). The
/// fields are [`TextField`]s, edited with the same keys as every other typed line.
#[derive(Clone, Debug)]
pub(crate) struct Network {
    /// The form shown; `None` shows the list of forms.
    pub(crate) form: Option<Form>,
    /// The row under the cursor: of the list, or of the form shown.
    pub(crate) row: usize,
    /// The side the host plays.
    pub(crate) side: Side,
    /// The host's clock as typed (`G/15`, `5+3`, `30/60`; empty for none).
    pub(crate) clock: TextField,
    /// The host's port as typed.
    pub(crate) port: TextField,
    /// This player's name as typed (empty for none).
    pub(crate) name: TextField,
    /// The host's address as typed, to join or watch.
    pub(crate) address: TextField,
    /// The game's code as typed, to join or watch.
    pub(crate) code: TextField,
    /// The checkers server's address as typed (`HOST` or `HOST:PORT`).
    pub(crate) server: TextField,
    /// The server met for the first time whose certificate the page asks about, if it
    /// asks (over the server's form).
    pub(crate) first_contact: Option<FirstContact>,
}

impl Default for Network {
    fn default() -> Network {
        Network {
            form: None,
            row: 0,
            side: Side::Black,
            clock: TextField::new("", FIELD_MAX_CHARS),
            port: TextField::new(crate::net::DEFAULT_PORT.to_string(), FIELD_MAX_CHARS),
            name: TextField::new("", FIELD_MAX_CHARS),
            address: TextField::new("", FIELD_MAX_CHARS),
            code: TextField::new("", FIELD_MAX_CHARS),
            server: TextField::new("", FIELD_MAX_CHARS),
            first_contact: None,
        }
    }
}

impl Network {
    /// The server form's address, offered as typed (the server last logged in to).
    pub(crate) fn offer_server(&mut self, server: String) {
        self.server = TextField::new(server, FIELD_MAX_CHARS);
    }

    /// Applies a key: in the list, the arrows choose a form and Enter opens it; in a
    /// form, Up/Down (or Tab) choose a row, a text row is edited as every typed line is
    /// ([`field_action`]: Left/Right, Home/End, Backspace, Delete, Ctrl-U clears, a
    /// Ctrl-letter never types), Left/Right (or Space, `b`, `w`, `r`) change the host's
    /// side, Enter starts it; Esc goes back. Any other key is [`Reply::Unbound`].
    pub(crate) fn key(&mut self, key: &KeyEvent) -> Reply {
        // Ctrl-B or Alt-b is not b: it picks no side (a text row reads the key itself).
        let code = crate::tui::keymap::plain_code(key);
        if self.first_contact.is_some() {
            return self.trust_key(code);
        }
        let Some(form) = self.form else {
            let last = Form::ALL.len() - 1;
            match code {
                KeyCode::Up | KeyCode::BackTab | KeyCode::Char('k') => {
                    self.row = self.row.saturating_sub(1);
                }
                KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                    self.row = (self.row + 1).min(last);
                }
                KeyCode::Enter | KeyCode::Char(' ') => {
                    self.form = Some(Form::ALL[self.row.min(last)]);
                    self.row = 0;
                }
                KeyCode::Esc | KeyCode::Char('q') => return Reply::Back,
                _ => return Reply::Unbound,
            }
            return Reply::Stay;
        };
        let last = form.rows() - 1;
        match code {
            KeyCode::Up | KeyCode::BackTab => self.row = self.row.saturating_sub(1),
            KeyCode::Down | KeyCode::Tab => self.row = (self.row + 1).min(last),
            KeyCode::Enter => return self.submit(form),
            KeyCode::Esc => {
                self.row = Form::ALL.iter().position(|f| *f == form).unwrap_or(0);
                self.form = None;
            }
            code if form == Form::Host && self.row == 0 => match code {
                KeyCode::Left | KeyCode::Char('h') => self.side = self.side.next(true),
                KeyCode::Right | KeyCode::Char('l' | ' ') => self.side = self.side.next(false),
                KeyCode::Char('b') => self.side = Side::Black,
                KeyCode::Char('w') => self.side = Side::White,
                KeyCode::Char('r') => self.side = Side::Random,
                _ => return Reply::Unbound,
            },
            _ => match (self.field_mut(form), field_action(key)) {
                (Some(field), Some(action)) => {
                    field.edit(&action);
                }
                _ => return Reply::Unbound,
            },
        }
        Reply::Stay
    }

    /// A key while the page asks whether to trust a server met for the first time: `y`
    /// trusts it (the server's form starts again, the fingerprint to be pinned if the
    /// server still presents it), `n` or Esc does not (nothing pinned, the form shown
    /// again); any other key answers nothing.
    fn trust_key(&mut self, code: KeyCode) -> Reply {
        match code {
            KeyCode::Char('y' | 'Y') => {
                let Some(contact) = self.first_contact.take() else {
                    return Reply::Stay;
                };
                Reply::Start(Chosen::Online {
                    server: contact.address,
                    name: contact.name,
                    trusted: Some(contact.fingerprint),
                })
            }
            KeyCode::Char('n' | 'N') | KeyCode::Esc => match self.first_contact.take() {
                Some(contact) => Reply::Refused(crate::text::capitalized(
                    &crate::online::not_trusted(&contact.address),
                )),
                None => Reply::Stay,
            },
            _ => Reply::Unbound,
        }
    }

    /// A click on the page's row `row` (of the list of forms, or of the form shown,
    /// counted from the first): in the list it opens that form, as Enter on it does; in a
    /// form it chooses the row, a click on the host's side changes it as Space does, and
    /// one on the form's last row (its button) starts it as Enter does. `None` for a row
    /// that is not there.
    pub(crate) fn click(&mut self, row: usize) -> Option<Reply> {
        let enter = KeyEvent::from(KeyCode::Enter);
        // The question about a server's certificate is answered with a key.
        if self.first_contact.is_some() {
            return None;
        }
        let Some(form) = self.form else {
            Form::ALL.get(row)?;
            self.row = row;
            return Some(self.key(&enter));
        };
        if row >= form.rows() {
            return None;
        }
        self.row = row;
        if row + 1 == form.rows() {
            return Some(self.key(&enter));
        }
        if form == Form::Host && row == 0 {
            self.side = self.side.next(false);
        }
        Some(Reply::Stay)
    }

    /// Whether the row under the cursor in `form` is a text row.
    fn typing(&self, form: Form) -> bool {
        Self::text_row(form, self.row).is_some()
    }

    /// The text field of the row under the cursor in `form`, if it is one.
    fn field_mut(&mut self, form: Form) -> Option<&mut TextField> {
        Self::text_row(form, self.row).map(|field| field(self))
    }

    /// Which field row `row` of `form` types into, if it is a text row.
    fn text_row(form: Form, row: usize) -> Option<fn(&mut Network) -> &mut TextField> {
        Some(match (form, row) {
            (Form::Host, 1) => |n| &mut n.clock,
            (Form::Host, 2) | (Form::Join | Form::Watch, 2) | (Form::Server, 1) => |n| &mut n.name,
            (Form::Host, 3) => |n| &mut n.port,
            (Form::Join | Form::Watch, 0) => |n| &mut n.address,
            (Form::Join | Form::Watch, 1) => |n| &mut n.code,
            (Form::Server, 0) => |n| &mut n.server,
            _ => return None,
        })
    }

    /// The name typed, checked as `--name` checks it (`None` when empty).
    fn checked_name(&self) -> Result<Option<String>, String> {
        let name = self.name.text.trim();
        if name.is_empty() {
            return Ok(None);
        }
        crate::cli::parse_name(name)
            .map(Some)
            .map_err(|e| format!("Your name: {e}"))
    }

    /// What `form` starts as filled, or which field is wrong and why.
    fn submit(&mut self, form: Form) -> Reply {
        let checked = match form {
            Form::Host => self.hosting(),
            Form::Join | Form::Watch => self.joining(form),
            Form::Server => self.meeting(),
        };
        match checked {
            Ok(chosen) => Reply::Start(chosen),
            Err(why) => Reply::Refused(why),
        }
    }

    /// The host's choice as filled: the clock as `--clock` reads it, the port a number.
    fn hosting(&mut self) -> Result<Chosen, String> {
        let clock = match self.clock.text.trim() {
            "" => None,
            text => Some(text.parse::<TimeControl>().map_err(|e| {
                self.row = 1;
                format!("Clock: {e}")
            })?),
        };
        let name = self.checked_name().inspect_err(|_| self.row = 2)?;
        let port = self.port.text.trim().parse::<u16>().map_err(|_| {
            self.row = 3;
            format!(
                "Port: '{}' is not a number from 0 to 65535 (0: any free port)",
                crate::text::printable(self.port.text.trim(), 40)
            )
        })?;
        Ok(Chosen::Host {
            side: self.side,
            clock,
            port,
            name,
        })
    }

    /// The joiner's (or spectator's) choice as filled: an address, a code as `--code`
    /// reads it.
    fn joining(&mut self, form: Form) -> Result<Chosen, String> {
        let address = self.address.text.trim().to_string();
        if address.is_empty() {
            self.row = 0;
            return Err(
                "Address: type the host's, as its screen shows it (e.g. 192.0.2.7:4610)"
                    .to_string(),
            );
        }
        let code = crate::cli::parse_code(&self.code.text).map_err(|e| {
            self.row = 1;
            format!("Code: {e}")
        })?;
        let name = self.checked_name().inspect_err(|_| self.row = 2)?;
        Ok(Chosen::Join {
            address,
            code,
            name,
            role: if form == Form::Watch {
                Role::Spectator
            } else {
                Role::Player
            },
        })
    }

    /// The server's choice as filled: an address, and a name as a server takes it
    /// (1 to 20 of a-z, A-Z, 0-9, `-` and `_`; the user's name when empty).
    fn meeting(&mut self) -> Result<Chosen, String> {
        let server = self.server.text.trim().to_string();
        if server.is_empty() {
            self.row = 0;
            return Err(
                "Server: type its address, as its operator gives it (e.g. checkers.example.org)"
                    .to_string(),
            );
        }
        let name = self.name.text.trim();
        if let Some(problem) =
            crate::server::protocol::name_problem(name).filter(|_| !name.is_empty())
        {
            self.row = 1;
            return Err(format!("Your name: {problem}"));
        }
        Ok(Chosen::Online {
            server,
            name: (!name.is_empty()).then(|| name.to_string()),
            trusted: None,
        })
    }

    /// Whether the last row (of the list of forms, or of the form shown) is chosen.
    pub(crate) fn on_last_row(&self) -> bool {
        let rows = self.form.map_or(Form::ALL.len(), Form::rows);
        self.row + 1 == rows
    }

    /// The page's lines on a page `width` columns wide: the list of forms, or the form
    /// shown, its rows in fewer words where the whole ones would wrap; the note in
    /// short on a `compact` screen, to be read whole under the last row.
    pub(crate) fn lines(&self, theme: &Theme, compact: bool, width: usize) -> Vec<Line<'static>> {
        let mut lines = vec![
            Line::styled("Play across the network", theme.heading),
            Line::raw(""),
        ];
        if let Some(contact) = &self.first_contact {
            // The question `checkers online` asks on the terminal, in its words.
            lines[0] = Line::styled(Form::Server.label(), theme.heading);
            let mut question =
                crate::online::first_contact_question(&contact.address, &contact.fingerprint)
                    .to_vec();
            let ask = question.pop().unwrap_or_default();
            lines.extend(question.into_iter().map(Line::raw));
            lines.push(Line::raw(""));
            lines.push(Line::styled(ask, theme.question));
            return lines;
        }
        let Some(form) = self.form else {
            let rows = Form::ALL.iter().map(|f| f.label().to_string());
            lines.extend(super::choice_lines(theme, rows, self.row, Form::ALL.len()));
            lines.push(Line::raw(""));
            lines.push(Line::raw(if compact {
                "The host is shown an address and a code for the friend who joins or watches."
            } else {
                "The host's screen shows an address and a code; the friend who joins \
                 types both. A watcher follows the game without playing. At a checkers \
                 server nobody opens a port: seek a game, accept one, or watch."
            }));
            return lines;
        };
        // The room every side's row fits (the fields' text wraps as typed), the same
        // for every form, so that their labels line up alike.
        let you_play = |room: Room, side: Side| {
            format!("{}{}", room.label("You play", 12), side_words(side, room))
        };
        let room = Room::fitting(width, |room| {
            [Side::Black, Side::White, Side::Random].map(|side| you_play(room, side))
        });
        // A row: its words, and the field typed after them, if it is a text row.
        let text = |label: &str, field: &TextField| (room.label(label, 12), Some(field.clone()));
        let plain = |words: String| (words, None);
        let rows: Vec<(String, Option<TextField>)> = match form {
            Form::Host => vec![
                plain(you_play(room, self.side)),
                text("Clock", &self.clock),
                text("Your name", &self.name),
                text("Port", &self.port),
                plain("Start hosting".to_string()),
            ],
            Form::Join | Form::Watch => vec![
                text("Address", &self.address),
                text("Code", &self.code),
                text("Your name", &self.name),
                plain(
                    if form == Form::Join {
                        "Join the game"
                    } else {
                        "Watch the game"
                    }
                    .to_string(),
                ),
            ],
            Form::Server => vec![
                text("Server", &self.server),
                text("Your name", &self.name),
                plain("Connect".to_string()),
            ],
        };
        lines[0] = Line::styled(form.label(), theme.heading);
        for (i, (words, field)) in rows.into_iter().enumerate() {
            let chosen = i == self.row;
            let (marker, marker_style, style) = if chosen {
                ("> ", theme.question, theme.cursor)
            } else {
                ("  ", theme.text, theme.text)
            };
            let mut spans = vec![
                Span::styled(marker, marker_style),
                Span::styled(words, style),
            ];
            match field {
                // The row being typed: drawn as every typed line is, its text cursor a
                // key-styled cell.
                Some(field) if chosen => spans.extend(field.spans_in(style, theme.key)),
                // No clock is said so, while another row is being typed.
                Some(field) if i == 1 && form == Form::Host && field.text.is_empty() => {
                    spans.push(Span::styled("none", style));
                }
                Some(field) => spans.push(Span::styled(
                    crate::text::printable(&field.text, 300),
                    style,
                )),
                None => {}
            }
            lines.push(Line::from(spans));
        }
        lines.push(Line::raw(""));
        lines.push(Line::raw(match form {
            Form::Host if compact => "Clock: G/15 (15 minutes), 5+3 (and 3 s a move) or 30/60.",
            Form::Join | Form::Watch if compact => "As the host's board shows; port 4610 if none.",
            Form::Server if compact => "HOST or HOST:PORT (port 4620 if none).",
            Form::Host => {
                "Your friend joins with the address and code the board then shows. The \
                 clock as --clock takes it: G/15 the game in 15 minutes, 5+3 five minutes \
                 and 3 s a move, 30/60 thirty moves an hour."
            }
            Form::Join => {
                "The address and code the host's board shows (the port is 4610 when not \
                 given). Your name goes on the record and the host's panel."
            }
            Form::Watch => {
                "The address and code the host's board shows (the port is 4610 when not \
                 given). You see the game as it is played, without playing."
            }
            Form::Server => {
                "HOST or HOST:PORT (the port is 4620 when not given). The server binds your \
                 name to a key kept in your data folder on first use; on first contact you \
                 are shown its certificate's fingerprint, pinned only if you trust it, and \
                 a changed one is refused."
            }
        }));
        lines
    }

    /// The keys the page's line names.
    pub(crate) fn keys(&self) -> Vec<(&'static str, &'static str)> {
        if self.first_contact.is_some() {
            return vec![("y", "trust, pin and connect"), ("n", "do not trust")];
        }
        match self.form {
            None => vec![("Up/Down", "choose"), ("Enter", "open"), ("Esc", "back")],
            Some(Form::Host) if self.row == 0 => vec![
                ("Up/Down", "choose"),
                ("Left/Right", "side"),
                ("Enter", "host"),
                ("Esc", "back"),
            ],
            Some(form) => {
                let mut keys = vec![
                    ("Up/Down", "choose"),
                    (
                        "Enter",
                        match form {
                            Form::Host => "host",
                            Form::Join => "join",
                            Form::Watch => "watch",
                            Form::Server => "connect",
                        },
                    ),
                ];
                if self.typing(form) {
                    keys.push(("Ctrl-U", "clear"));
                }
                keys.push(("Esc", "back"));
                keys
            }
        }
    }
}

/// The host's side in words, with what it means, as a page with `room` has room for
/// (a 40-column screen's row for the narrow words, a smaller one's for a side's brief
/// words, as the computer page says them).
fn side_words(side: Side, room: Room) -> &'static str {
    match (side, room) {
        (Side::Black, Room::Whole | Room::Narrow) => "Black (you move first)",
        (Side::White, Room::Whole) => "White (your friend moves first)",
        (Side::White, Room::Narrow) => "White (they move first)",
        (Side::Random, Room::Whole) => "either, drawn at the start",
        (Side::Random, Room::Narrow) => "either, drawn by lot",
        (side, room) => side.brief(room),
    }
}
