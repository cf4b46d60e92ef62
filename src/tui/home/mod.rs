//! The home screen: what `checkers` with no game named on its command line opens. It
//! lists what the program can do (two players at this terminal first, so that Enter
//! starts a game at once; the computer; a friend across the network; a game to resume
//! or a PDN file to open; settings; help) and hands the event loop the choice.
//!
//! Like the picker it is state ([`Home`], which owns everything it shows), keys turned
//! into changes ([`Home::handle_event`], no I/O) and drawing (`impl Widget for &Home`);
//! the [parent module](super) runs it and starts what was chosen.

mod network;

use super::choice::choice_lines;
use super::field::{TextField, field_action};
use super::keyline::{KeyLine, line_rows, span_drawn_at};
use super::theme::Theme;
use super::view::{help_text, hint_line};
use crate::engine::Level;
pub(crate) use network::FirstContact;
use network::{Network, Reply};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEvent, MouseEventKind,
};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Padding, Paragraph, Widget, Wrap};
use std::path::PathBuf;
use unicode_width::UnicodeWidthStr;

/// The smallest screen the home screen is drawn on: the board's, so that every screen
/// a game is played on opens at home too. Below [`ROOMY_WIDTH`] x [`ROOMY_HEIGHT`] it
/// is compact: no title, shorter names, what does not fit scrolled.
pub(crate) const MIN_WIDTH: u16 = crate::tui::geometry::MIN_WIDTH;
/// See [`MIN_WIDTH`].
pub(crate) const MIN_HEIGHT: u16 = crate::tui::geometry::MIN_HEIGHT;

/// The smallest screen the home screen is drawn on in full: its entries with their
/// names, its title and its key line inside a frame.
const ROOMY_WIDTH: u16 = 40;
/// See [`ROOMY_WIDTH`].
const ROOMY_HEIGHT: u16 = 15;

/// The widest the home screen's frame grows: wider, its lines would be hard to follow.
const MAX_WIDTH: u16 = 68;

/// An entry of the home screen's list, in the order shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Entry {
    /// Two people at this terminal.
    TwoPlayers,
    /// A person against the computer.
    Computer,
    /// A friend at another terminal.
    Network,
    /// An unfinished game from the data folder.
    Resume,
    /// A game from a PDN file.
    Open,
    /// The analysis board.
    Analysis,
    /// Positions to solve.
    Puzzles,
    /// Colour, pieces, coordinates, the engine's help.
    Settings,
    /// The keys and the rules.
    Help,
    /// Leave the program.
    Quit,
}

impl Entry {
    /// Every entry, in the order shown.
    pub(crate) const ALL: [Entry; 10] = [
        Entry::TwoPlayers,
        Entry::Computer,
        Entry::Network,
        Entry::Resume,
        Entry::Open,
        Entry::Analysis,
        Entry::Puzzles,
        Entry::Settings,
        Entry::Help,
        Entry::Quit,
    ];

    /// The letter that picks the entry from anywhere in the list.
    pub(crate) fn key(self) -> char {
        match self {
            Entry::TwoPlayers => 'p',
            Entry::Computer => 'c',
            Entry::Network => 'n',
            Entry::Resume => 'r',
            Entry::Open => 'o',
            Entry::Analysis => 'a',
            Entry::Puzzles => 'z',
            Entry::Settings => 's',
            Entry::Help => '?',
            Entry::Quit => 'q',
        }
    }

    /// The entry's name in the compact list, where the whole name does not fit.
    fn short_label(self) -> &'static str {
        match self {
            Entry::TwoPlayers => "Two players",
            Entry::Computer => "The computer",
            Entry::Network => "Network",
            Entry::Resume => "Resume",
            Entry::Open => "Open a file",
            Entry::Analysis => "Analysis board",
            Entry::Puzzles => "Puzzles",
            Entry::Settings => "Settings",
            Entry::Help => "Help",
            Entry::Quit => "Quit",
        }
    }

    /// The entry's name in the list (`--help` names the help's).
    pub(crate) fn label(self) -> &'static str {
        match self {
            Entry::TwoPlayers => "Two players at this terminal",
            Entry::Computer => "Play the computer",
            Entry::Network => "Play across the network",
            Entry::Resume => "Resume an unfinished game",
            Entry::Open => "Open a PDN file",
            Entry::Analysis => "Analysis board",
            Entry::Puzzles => "Puzzles",
            Entry::Settings => "Settings",
            Entry::Help => "Help: keys and rules",
            Entry::Quit => "Quit",
        }
    }

    /// What the entry does, shown under the list while it is chosen.
    fn about(self) -> &'static str {
        match self {
            Entry::TwoPlayers => "Two people take turns at this keyboard; Black moves first.",
            Entry::Computer => {
                "You against the program: choose your side and its level (1 a beginner, \
                 10 its best)."
            }
            Entry::Network => "Hold a game for a friend at another terminal, or join theirs.",
            Entry::Resume => {
                "Go on with a game left unfinished: every game is saved as it is played."
            }
            Entry::Open => {
                "Review a game from a PDN file (a checkers game record), or play on from any \
                 point of it."
            }
            Entry::Analysis => {
                "Play moves for both sides with variations; the engine shows its best lines."
            }
            Entry::Puzzles => {
                "Find the move that wins or saves the game: classic endings and positions \
                 from Marion Tinsley's games."
            }
            Entry::Settings => {
                "Colour, pieces, coordinates and the engine's help, for the games started here."
            }
            Entry::Help => "The keys of the game and the rules of checkers.",
            Entry::Quit => "Leave the program.",
        }
    }
}

/// The side a person takes against the computer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Side {
    /// Black, who moves first.
    Black,
    /// White.
    White,
    /// Drawn when the game starts.
    Random,
}

impl Side {
    /// The next choice, `Left` going backwards.
    fn next(self, back: bool) -> Side {
        let order = [Side::Black, Side::White, Side::Random];
        let i = order.iter().position(|s| *s == self).unwrap_or(0);
        order[(i + if back { 2 } else { 1 }) % 3]
    }

    /// The side in words, with what it means, as a computer page with `room` has room
    /// for (a 40-column screen's row for no more than the narrow words, a 30-column
    /// one's for the short ones, the smallest screen's for the side's name alone).
    fn words(self, room: Room) -> &'static str {
        match (self, room) {
            (Side::Black, Room::Whole | Room::Narrow) => "Black (you move first)",
            (Side::White, Room::Whole) => "White (the computer moves first)",
            (Side::White, Room::Narrow) => "White (it moves first)",
            (Side::Random, Room::Whole) => "either, drawn at the start",
            (Side::Random, Room::Narrow) => "either, drawn by lot",
            (side, room) => side.brief(room),
        }
    }

    /// The side in the words of a page with the `Short` or `Least` room, the same on
    /// the computer page and the network page (who moves first, said as first or
    /// second, where there is room for it).
    fn brief(self, room: Room) -> &'static str {
        match (self, room) {
            (Side::Black, Room::Least) => "Black",
            (Side::White, Room::Least) => "White",
            (Side::Random, Room::Least) => "either",
            (Side::Black, _) => "Black (first)",
            (Side::White, _) => "White (second)",
            (Side::Random, _) => "either, by lot",
        }
    }
}

/// How much room a page's rows have across: their words in full, or fewer of them on a
/// narrower page, rather than a row wrapped onto the next line (where it reads as two
/// rows). The rows of a page all take the same room, so that they stay aligned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Room {
    /// The whole words (a page 49 columns wide takes the computer page's).
    Whole,
    /// A 40-column screen's words: a shorter label, the side's meaning in short.
    Narrow,
    /// A 30-column screen's words: the side's meaning in a word, the level's time alone.
    Short,
    /// The smallest screen's words: the side's name alone, the level without its time.
    Least,
}

impl Room {
    /// From the most room to the least.
    const ALL: [Room; 4] = [Room::Whole, Room::Narrow, Room::Short, Room::Least];

    /// The most room whose rows (as `rows` words them, each after its two-column
    /// marker) all fit a page `width` columns wide; the least where none does.
    fn fitting<I: IntoIterator<Item = String>>(width: usize, rows: impl Fn(Room) -> I) -> Room {
        Room::ALL
            .into_iter()
            .find(|&room| rows(room).into_iter().all(|row| 2 + row.width() <= width))
            .unwrap_or(Room::Least)
    }

    /// A row's label padded to the column its value starts at: `whole` columns with
    /// the whole words, fewer (room for "Your name" and a blank) on a narrower page.
    fn label(self, label: &str, whole: usize) -> String {
        let column = if self == Room::Whole { whole } else { 10 };
        format!("{label:<column$}")
    }
}

/// What the player chose at the home screen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Chosen {
    /// A new game between two people at this terminal.
    TwoPlayers,
    /// A new game against the computer: the person's side, the computer's level.
    Computer {
        /// The person's side.
        side: Side,
        /// The computer's level.
        level: Level,
    },
    /// An unfinished game from the data folder.
    Resume,
    /// The game(s) of this PDN file, as `--load` opens them.
    Open(PathBuf),
    /// The analysis board, from the start position.
    Analysis,
    /// The puzzles.
    Puzzles,
    /// A game held here for a friend, as `checkers host` holds it.
    Host {
        /// The side played here.
        side: Side,
        /// The clock, as `--clock` gives it.
        clock: Option<crate::session::TimeControl>,
        /// The port to listen at (0: a free one).
        port: u16,
        /// The name of the player here.
        name: Option<String>,
    },
    /// A friend's game joined (as `checkers join`) or watched (as `checkers watch`).
    Join {
        /// The host's address, as its screen shows it.
        address: String,
        /// The game's code.
        code: String,
        /// The name of the player here.
        name: Option<String>,
        /// Playing or watching.
        role: crate::net::protocol::Role,
    },
    /// The lobby of a checkers server, as `checkers online` opens it.
    Online {
        /// The server, `HOST[:PORT]`.
        server: String,
        /// The name to play under (the user's name when none).
        name: Option<String>,
        /// The certificate fingerprint the player said they trust, on first contact
        /// (pinned if the server presents it).
        trusted: Option<[u8; 32]>,
    },
}

impl Chosen {
    /// What the home screen says while the choice starts, when that can take a while
    /// (a host that is slow to answer).
    pub(crate) fn waiting_note(&self) -> Option<String> {
        match self {
            Chosen::Join { address, .. }
            | Chosen::Online {
                server: address, ..
            } => Some(format!(
                "Connecting to {}...",
                crate::text::printable(address, 200)
            )),
            _ => None,
        }
    }
}

/// How the games started here look and help: the settings page's choices.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Look {
    /// Colours on.
    pub(crate) colored: bool,
    /// ASCII characters only.
    pub(crate) ascii: bool,
    /// The a-h, 1-8 coordinates round the board.
    pub(crate) coordinates: bool,
    /// The engine's help (hints, its score, the databases' verdict): `None` leaves it
    /// to the game (on, but off between two people on a clock or in a match).
    pub(crate) assist: Option<bool>,
    /// The coloured theme the terminal shows best (true colour, 256 or 16 colours),
    /// for ASCII or not.
    pub(crate) palette: fn(bool) -> Theme,
}

impl Look {
    /// The theme these settings ask for.
    pub(crate) fn theme(&self) -> Theme {
        if self.colored {
            (self.palette)(self.ascii)
        } else {
            Theme::new(false, self.ascii)
        }
    }
}

/// A row of the settings page, as the preferences file keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Setting {
    /// Colours on or off (`theme`).
    Colour,
    /// Discs or letters (`ascii`).
    Pieces,
    /// The coordinates round the board (`coordinates`).
    Coordinates,
    /// The engine's help (`assist`).
    Assist,
    /// The computer's level chosen on the computer page (`level`), for the next start.
    Level(Level),
}

/// The rows of the computer page: side, level, start.
const COMPUTER_ROWS: usize = 3;
/// The piece of the computer page's level row that lowers the level when clicked: its
/// `<`, after the marker and the row's name.
const LEVEL_LOWER: usize = 2;
/// The piece of the level row that raises the level when clicked: its `>`, after the
/// level's number.
const LEVEL_RAISE: usize = 4;
/// The rows of the settings page: colour, pieces, coordinates, assistance.
const SETTINGS_ROWS: usize = 4;

/// What the home screen shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Page {
    /// The list of entries.
    Menu,
    /// The side and level against the computer, this row chosen.
    Computer(usize),
    /// Hosting, joining or watching a game across the network.
    Network,
    /// The path of a PDN file being typed.
    Open,
    /// The settings, this row chosen.
    Settings(usize),
    /// The keys and the rules, from this row (of the lines as wrapped to the screen).
    Help(u16),
}

/// The home screen's whole state.
#[derive(Clone, Debug)]
pub(crate) struct Home {
    /// The entry under the cursor.
    pub(crate) selected: usize,
    /// What is shown.
    pub(crate) page: Page,
    /// The person's side against the computer.
    pub(crate) side: Side,
    /// The computer's level.
    pub(crate) level: Level,
    /// The level the preferences file has (or the command line gave): a level chosen
    /// otherwise is kept in the file, so the next start offers it again.
    kept_level: Level,
    /// The PDN file's path as typed.
    pub(crate) path: TextField,
    /// The settings.
    pub(crate) look: Look,
    /// The network page's forms, as filled.
    pub(crate) network: Network,
    /// The preferences file a changed setting is kept in, or why there is none (the
    /// changes last for this run only), in the settings page's words.
    pub(crate) preferences: Result<PathBuf, &'static str>,
    /// A setting changed and not yet kept in the file.
    pub(crate) unkept: Option<Setting>,
    /// News for the player (a file that would not open, no game to resume).
    pub(crate) message: Option<String>,
    /// The terminal's size, kept by the event loop: how far the help scrolls.
    pub(crate) screen: Rect,
}

impl Home {
    /// The home screen with the list shown, two players chosen, the computer at `level`.
    pub(crate) fn new(look: Look, level: Level) -> Home {
        Home {
            selected: 0,
            page: Page::Menu,
            side: Side::Black,
            level,
            kept_level: level,
            path: TextField::new("", crate::text::MAX_PATH_CHARS),
            look,
            network: Network::default(),
            preferences: Err(crate::commands::preferences::NO_HOME),
            unkept: None,
            message: None,
            screen: Rect::new(0, 0, 80, 24),
        }
    }

    /// Asks, on the network page, whether to trust the server `contact` names, met for
    /// the first time (see [`FirstContact`]).
    pub(crate) fn ask_first_contact(&mut self, contact: FirstContact) {
        // "Connecting to ..." is over: the question says what came.
        self.message = None;
        self.page = Page::Network;
        self.network.first_contact = Some(contact);
    }

    /// The theme the home screen is drawn with: the settings' own, so a change shows.
    pub(crate) fn theme(&self) -> Theme {
        self.look.theme()
    }

    /// Applies a terminal event. Returns `Some(None)` when the player quits, and
    /// `Some(Some(choice))` when a game is chosen.
    ///
    /// The list: the arrows (or `j`/`k`) move, Enter or Space open the entry under the
    /// cursor, each entry's letter opens it (`p` two players, `c` the computer, `n` the
    /// network, `r` resume, `o` open a file, `z` puzzles, `s` settings, `?` help), `q` or Esc quit.
    /// A page: Esc (or q where q types nothing) goes back to the list; a key that does
    /// nothing there says so and names the page's keys. Ctrl-C quits anywhere; while the
    /// screen is too small to draw the home screen, q quits and no other key does
    /// anything.
    pub(crate) fn handle_event(&mut self, event: &Event) -> Option<Option<Chosen>> {
        let key = match event {
            Event::Key(key) => key,
            Event::Mouse(mouse) => return self.mouse(mouse),
            _ => return None,
        };
        if key.kind != KeyEventKind::Press {
            return None;
        }
        if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
            return Some(None);
        }
        // While the screen is too small to show anything but "q quits", no other key acts
        // unseen.
        if self.screen.width < MIN_WIDTH || self.screen.height < MIN_HEIGHT {
            return (crate::tui::keymap::plain_code(key) == KeyCode::Char('q')).then_some(None);
        }
        // Any key after news has been read clears it.
        self.message = None;
        match self.page.clone() {
            Page::Menu => self.menu_key(key),
            Page::Computer(row) => self.computer_key(row, key),
            Page::Network => {
                let reply = self.network.key(key);
                self.network_reply(reply, key)
            }
            Page::Open => self.open_key(key),
            Page::Settings(row) => {
                self.settings_key(row, key);
                None
            }
            Page::Help(top) => {
                let (lines, shown) = self.help_size(self.screen);
                let last = u16::try_from(lines.saturating_sub(shown)).unwrap_or(u16::MAX);
                let page = u16::try_from(shown.saturating_sub(1).max(1)).unwrap_or(1);
                let top = top.min(last);
                // Ctrl-J or Alt-q is not j or q: it neither scrolls nor goes back.
                self.page = match crate::tui::keymap::plain_code(key) {
                    KeyCode::Down | KeyCode::Char('j') => Page::Help((top + 1).min(last)),
                    KeyCode::Up | KeyCode::Char('k') => Page::Help(top.saturating_sub(1)),
                    KeyCode::PageDown | KeyCode::Char(' ') => {
                        Page::Help(top.saturating_add(page).min(last))
                    }
                    KeyCode::PageUp => Page::Help(top.saturating_sub(page)),
                    KeyCode::Home => Page::Help(0),
                    KeyCode::End => Page::Help(last),
                    KeyCode::Esc | KeyCode::Char('q') => Page::Menu,
                    _ => {
                        self.unbound_on_page(key);
                        Page::Help(top)
                    }
                };
                None
            }
        }
    }

    /// The mouse, for someone who plays by it: a click on an entry of the list opens it
    /// as its letter does; on the computer page a click on a row changes it (the side:
    /// the next; the level: its `<` one lower, its `>` one higher) or starts the game;
    /// on the settings page it switches the row; on the network page a click on a form
    /// opens it, and in a form chooses the row (the host's side: the next; the last row
    /// starts it). The wheel moves the chosen row (on the list, the pages' rows) as the
    /// up and down arrows do, and scrolls the help. A click on an entry of the key line
    /// presses its key. A click on nothing does nothing.
    fn mouse(&mut self, mouse: &MouseEvent) -> Option<Option<Chosen>> {
        let plain = |code| KeyEvent::new(code, KeyModifiers::NONE);
        let wheel = match mouse.kind {
            MouseEventKind::ScrollDown => Some(KeyCode::Down),
            MouseEventKind::ScrollUp => Some(KeyCode::Up),
            _ => None,
        };
        if let Some(code) = wheel {
            // The list stops at its ends, as a wheel does, rather than going round.
            let at_end = match code {
                KeyCode::Up => self.selected == 0,
                _ => self.selected + 1 == Entry::ALL.len(),
            };
            return match self.page {
                Page::Menu if at_end => None,
                Page::Open => None,
                _ => self.handle_event(&Event::Key(plain(code))),
            };
        }
        if mouse.kind != MouseEventKind::Down(MouseButton::Left) {
            return None;
        }
        // A click on an entry of the key line presses its key ("Esc back").
        if self.screen.width >= MIN_WIDTH && self.screen.height >= MIN_HEIGHT {
            let layout = self.layout(self.screen);
            if let Some(key) = layout.press_at(mouse.column, mouse.row) {
                return self.handle_event(&Event::Key(key));
            }
        }
        let line = self.line_at(mouse.column, mouse.row)?;
        // The list's entries start after its title and blank line (where drawn), the
        // pages' rows after their heading and a blank line.
        match self.page {
            Page::Menu => {
                let above = Home::menu_lines_above(self.screen);
                let entry = Entry::ALL.get(line.checked_sub(above)?)?;
                self.message = None;
                self.menu_key(&plain(KeyCode::Char(entry.key())))
            }
            Page::Computer(_) => {
                let row = line.checked_sub(2).filter(|row| *row < COMPUTER_ROWS)?;
                // What was clicked, as drawn: choosing another row may scroll the page.
                let span = self.span_at(mouse.column, mouse.row);
                self.message = None;
                self.page = Page::Computer(row);
                match row {
                    0 => self.side = self.side.next(false),
                    // The level's < lowers it and its > raises it, as the side arrows
                    // do; a click elsewhere on its row only chooses the row.
                    1 => match span {
                        Some(LEVEL_LOWER) => {
                            return self.computer_key(row, &plain(KeyCode::Char('<')));
                        }
                        Some(LEVEL_RAISE) => {
                            return self.computer_key(row, &plain(KeyCode::Char('>')));
                        }
                        _ => {}
                    },
                    _ => return self.computer_key(row, &plain(KeyCode::Enter)),
                }
                None
            }
            Page::Settings(_) => {
                let row = line.checked_sub(2).filter(|row| *row < SETTINGS_ROWS)?;
                self.message = None;
                self.page = Page::Settings(row);
                self.settings_key(row, &plain(KeyCode::Enter));
                None
            }
            Page::Network => {
                let row = line.checked_sub(2)?;
                self.message = None;
                let reply = self.network.click(row)?;
                self.network_reply(reply, &plain(KeyCode::Enter))
            }
            Page::Open | Page::Help(_) => None,
        }
    }

    /// What the network page's `reply` to `key` (or to a click) does to the home screen:
    /// back to the list, start what a form chose, say why it cannot, or say the key does
    /// nothing.
    fn network_reply(&mut self, reply: Reply, key: &KeyEvent) -> Option<Option<Chosen>> {
        match reply {
            Reply::Stay => None,
            Reply::Back => {
                self.page = Page::Menu;
                None
            }
            Reply::Start(chosen) => Some(Some(chosen)),
            Reply::Refused(why) => {
                self.message = Some(why);
                None
            }
            Reply::Unbound => {
                self.unbound_on_page(key);
                None
            }
        }
    }

    /// Which of the page's own lines (counted from its first, before wrapping) is drawn
    /// at `column`, `row` of the screen, if any is.
    fn line_at(&self, column: u16, row: u16) -> Option<usize> {
        let area = self.screen;
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return None;
        }
        self.layout(area).line_at(column, row)
    }

    /// Which piece (span) of its line is drawn at `column`, `row` of the screen, if a
    /// line of the page is.
    fn span_at(&self, column: u16, row: u16) -> Option<usize> {
        let area = self.screen;
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            return None;
        }
        self.layout(area).span_at(column, row)
    }

    /// A key on the list; one that does nothing there says so.
    fn menu_key(&mut self, key: &KeyEvent) -> Option<Option<Chosen>> {
        let last = Entry::ALL.len() - 1;
        // Ctrl-p or Alt-p is not p: it opens nothing.
        let code = crate::tui::keymap::plain_code(key);
        let unbound = |home: &mut Self| {
            home.message =
                crate::tui::keymap::unbound_note(key, crate::tui::keymap::EVERY_KEY_HELP);
            None
        };
        let entry = match code {
            KeyCode::Up | KeyCode::Char('k') => {
                self.selected = self.selected.checked_sub(1).unwrap_or(last);
                return None;
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.selected = if self.selected == last {
                    0
                } else {
                    self.selected + 1
                };
                return None;
            }
            KeyCode::Home => {
                self.selected = 0;
                return None;
            }
            KeyCode::End => {
                self.selected = last;
                return None;
            }
            KeyCode::Enter | KeyCode::Char(' ') => Entry::ALL[self.selected],
            KeyCode::Esc => Entry::Quit,
            KeyCode::Char(c) => match Entry::ALL.iter().position(|e| e.key() == c) {
                Some(i) => {
                    self.selected = i;
                    Entry::ALL[i]
                }
                None => return unbound(self),
            },
            _ => return unbound(self),
        };
        match entry {
            Entry::TwoPlayers => return Some(Some(Chosen::TwoPlayers)),
            Entry::Computer => self.page = Page::Computer(COMPUTER_ROWS - 1),
            Entry::Network => self.page = Page::Network,
            Entry::Resume => return Some(Some(Chosen::Resume)),
            Entry::Open => self.page = Page::Open,
            Entry::Analysis => return Some(Some(Chosen::Analysis)),
            Entry::Puzzles => return Some(Some(Chosen::Puzzles)),
            Entry::Settings => self.page = Page::Settings(0),
            Entry::Help => self.page = Page::Help(0),
            Entry::Quit => return Some(None),
        }
        None
    }

    /// A key on a page that does nothing there: the page has no key that shows every
    /// key, so the note names the keys its key line shows.
    fn unbound_on_page(&mut self, key: &KeyEvent) {
        let keys: Vec<String> = self
            .page_keys()
            .iter()
            .map(|(key, what)| format!("{key} {what}"))
            .collect();
        let help = format!("this page's keys: {}", keys.join(", "));
        self.message = crate::tui::keymap::unbound_note(key, &help);
    }

    /// A key on the computer page: the arrows choose a row and change it, `b`/`w` a
    /// side, a digit the level (0 for 10), `<` and `>` lower and raise it, Enter
    /// starts, Esc goes back; any other key says so.
    fn computer_key(&mut self, row: usize, key: &KeyEvent) -> Option<Option<Chosen>> {
        // Ctrl-B or Alt-b is not b: it picks no side.
        let code = crate::tui::keymap::plain_code(key);
        match code {
            KeyCode::Up | KeyCode::BackTab | KeyCode::Char('k') => {
                self.page = Page::Computer(row.saturating_sub(1));
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.page = Page::Computer((row + 1).min(COMPUTER_ROWS - 1));
            }
            // < and > (drawn round the level, to click) change the level on any row.
            KeyCode::Char(c @ ('<' | '>')) => {
                let n = self.level.number();
                let n = if c == '<' { n.saturating_sub(1) } else { n + 1 };
                self.level = Level::new(n).unwrap_or(self.level);
            }
            KeyCode::Left | KeyCode::Right | KeyCode::Char('h' | 'l') => {
                let back = matches!(code, KeyCode::Left | KeyCode::Char('h'));
                match row {
                    0 => self.side = self.side.next(back),
                    1 => {
                        let n = self.level.number();
                        let n = if back { n.saturating_sub(1) } else { n + 1 };
                        self.level = Level::new(n).unwrap_or(self.level);
                    }
                    _ => {}
                }
            }
            KeyCode::Char('b') => self.side = Side::Black,
            KeyCode::Char('w') => self.side = Side::White,
            KeyCode::Char(d @ '0'..='9') => {
                let n = d.to_digit(10).map_or(10, |n| if n == 0 { 10 } else { n });
                self.level = u8::try_from(n)
                    .ok()
                    .and_then(Level::new)
                    .unwrap_or(self.level);
            }
            KeyCode::Enter | KeyCode::Char('c' | ' ') => {
                return Some(Some(Chosen::Computer {
                    side: self.side,
                    level: self.level,
                }));
            }
            KeyCode::Esc | KeyCode::Char('q') => self.page = Page::Menu,
            _ => self.unbound_on_page(key),
        }
        None
    }

    /// A key on the open page: typing edits the path, Enter opens it, Esc goes back;
    /// a key that does none of these (F5, a Ctrl-letter) says so.
    fn open_key(&mut self, key: &KeyEvent) -> Option<Option<Chosen>> {
        match key.code {
            KeyCode::Enter if self.path.text.trim().is_empty() => {
                self.message = Some("Type the file's path first".to_string());
            }
            KeyCode::Enter => {
                return Some(Some(Chosen::Open(PathBuf::from(self.path.text.trim()))));
            }
            KeyCode::Esc => self.page = Page::Menu,
            _ => match field_action(key) {
                Some(action) => {
                    self.path.edit(&action);
                }
                None => self.unbound_on_page(key),
            },
        }
        None
    }

    /// A key on the settings page: the arrows choose a row, Enter, Space or the side
    /// arrows switch it, Esc goes back; any other key says so.
    fn settings_key(&mut self, row: usize, key: &KeyEvent) {
        // Ctrl-L or Alt-l is not l: it switches nothing.
        let code = crate::tui::keymap::plain_code(key);
        match code {
            KeyCode::Up | KeyCode::BackTab | KeyCode::Char('k') => {
                self.page = Page::Settings(row.saturating_sub(1));
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.page = Page::Settings((row + 1).min(SETTINGS_ROWS - 1));
            }
            KeyCode::Enter | KeyCode::Char(' ' | 'h' | 'l') | KeyCode::Left | KeyCode::Right => {
                let look = &mut self.look;
                let setting = match row {
                    0 => {
                        look.colored = !look.colored;
                        Setting::Colour
                    }
                    1 => {
                        look.ascii = !look.ascii;
                        Setting::Pieces
                    }
                    2 => {
                        look.coordinates = !look.coordinates;
                        Setting::Coordinates
                    }
                    _ => {
                        look.assist = Some(!look.assist.unwrap_or(true));
                        Setting::Assist
                    }
                };
                self.unkept = Some(setting);
            }
            KeyCode::Esc | KeyCode::Char('q') => self.page = Page::Menu,
            _ => self.unbound_on_page(key),
        }
    }

    /// Keeps the setting changed last in the preferences file, so the next start has
    /// it too: the event loop's I/O after a key. A file that cannot be written is said
    /// on the message line; the setting still applies to this run.
    /// The level chosen on the computer page (a key or a click) is kept the same way.
    pub(crate) fn keep_settings(&mut self) {
        let mut settings: Vec<Setting> = self.unkept.take().into_iter().collect();
        if self.level != self.kept_level {
            self.kept_level = self.level;
            settings.push(Setting::Level(self.level));
        }
        let Ok(path) = self.preferences.as_ref() else {
            return;
        };
        for setting in settings {
            if let Err(why) = crate::commands::preferences::keep(path, setting, &self.look) {
                self.message = Some(crate::text::printable(&why, 600));
            }
        }
    }

    /// The help's width inside the frame on a screen `area`.
    fn inner_width(area: Rect) -> usize {
        // The frame and a blank column on each side of the text.
        usize::from(area.width.min(MAX_WIDTH).saturating_sub(4))
    }

    /// The help's lines on a screen `area`: the game's own help, the rules first (who
    /// comes here from the list may never have played), under a heading that says
    /// where it applies.
    fn help_lines(&self, area: Rect) -> Vec<Line<'static>> {
        let theme = self.theme();
        let mut lines = vec![Line::styled(
            "The rules and the keys of a game (? in a game shows them too)",
            theme.heading,
        )];
        // The pieces as a game's board shows them on this screen.
        lines.extend(help_text(
            &theme,
            Home::inner_width(area),
            false,
            // The games started here go back here.
            crate::tui::keymap::Quits::ToHome,
            true,
            true,
            crate::tui::view::board_cell(area),
        ));
        lines
    }

    /// How many rows the help takes on a screen `area` (its lines wrapped on a narrow
    /// one), and how many of them show.
    fn help_size(&self, area: Rect) -> (usize, usize) {
        let lines = rows_of(&self.help_lines(area), Home::inner_width(area));
        // The frame takes two rows, the footer (a blank line where there is room, a
        // message, the key line) the rows it wraps to.
        // Counted with every key the help's line may name, so that the count does not
        // hang on what it decides.
        let footer = rows_of(
            &self.footer_with(&self.theme(), area, &self.page_keys()),
            Home::inner_width(area),
        );
        let rows = usize::from(area.height.saturating_sub(2)).saturating_sub(footer);
        (lines, rows.max(1))
    }

    /// The keys the key line names on a screen `area`: on the help, scrolling only
    /// where it does not all show, and "PgDn more" only while more is below.
    fn keys_shown(&self, area: Rect) -> Vec<(&'static str, &'static str)> {
        let Page::Help(top) = self.page else {
            return self.page_keys();
        };
        let (rows, shown) = self.help_size(area);
        if rows <= shown {
            return vec![("Esc", "back")];
        }
        let top = usize::from(top).min(rows - shown);
        let mut keys = vec![("Up/Down", "scroll")];
        if top + shown < rows {
            keys.push(("PgDn", "more"));
        }
        keys.push(("Esc", "back"));
        keys
    }

    /// Whether the screen `area` is below the full layout's size: the home screen is
    /// then compact (no title, no blank lines, shorter names).
    fn compact(area: Rect) -> bool {
        area.width < ROOMY_WIDTH || area.height < ROOMY_HEIGHT
    }

    /// The lines under the page, always shown: a blank line (where there is room), the
    /// news, the keys.
    fn footer_lines(&self, theme: &Theme, area: Rect) -> Vec<Line<'static>> {
        self.footer_with(theme, area, &self.keys_shown(area))
    }

    /// The footer's lines with the key line naming `keys`.
    fn footer_with(
        &self,
        theme: &Theme,
        area: Rect,
        keys: &[(&'static str, &'static str)],
    ) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        if !Home::compact(area) {
            lines.push(Line::raw(""));
        }
        if let Some(message) = &self.message {
            // A sentence on the page, though the command line's errors start small
            // ("checkers: no game to resume: ...").
            lines.push(Line::styled(crate::text::capitalized(message), theme.error));
        }
        lines.push(hint_line(theme, keys));
        lines
    }

    /// The page's line that holds what is chosen (the entry, the row, the field being
    /// typed), kept in view when the page is scrolled; `lines_above` is how many lines
    /// the menu has above its entries (its title, a blank line).
    fn focus_line(&self, lines_above: usize) -> usize {
        match &self.page {
            Page::Menu => lines_above + self.selected,
            // A heading and a blank line above the rows.
            Page::Computer(row) | Page::Settings(row) => 2 + row,
            Page::Network => 2 + self.network.row,
            Page::Open => 2,
            // The help keeps its own scroll.
            Page::Help(_) => 0,
        }
    }

    /// The computer page's lines for a page `width` columns wide. The level's row has
    /// a `<` to lower it and a `>` to raise it, drawn as keys, to click (a blank where
    /// it can go no further). The note in short on a `compact` screen (or where the
    /// whole one does not fit), to be read whole under the last row; the rows in short
    /// where the whole ones would wrap.
    fn computer_lines(
        &self,
        theme: &Theme,
        row: usize,
        compact: bool,
        width: usize,
    ) -> Vec<Line<'static>> {
        let seconds = self.level.movetime().as_secs_f64();
        let n = self.level.number();
        // The level row's label and what follows its `< n >`: on a narrower page that
        // drops what the note below says ("of 10"), then the words round the time,
        // then the time.
        let level = |room: Room| {
            let about = match room {
                Room::Whole => format!(" of 10 (about {seconds:.2} s a move)"),
                Room::Narrow => format!(" ({seconds:.2} s a move)"),
                Room::Short => format!(" {seconds:.2} s"),
                Room::Least => String::new(),
            };
            (room.label("Level", 13), about)
        };
        let you_play =
            |room: Room, side: Side| format!("{}{}", room.label("You play", 13), side.words(room));
        // The room that every side and the highest level fit, so that the rows do not
        // change their words as they are changed.
        let room = Room::fitting(width, |room| {
            let (label, about) = level(room);
            let top = Level::MAX.number();
            [Side::Black, Side::White, Side::Random]
                .map(|side| you_play(room, side))
                .into_iter()
                .chain([format!("{label}< {top} >{about}")])
        });
        let (label, about) = level(room);
        let rows = [
            you_play(room, self.side),
            format!("{label}{n}{about}"),
            "Start the game".to_string(),
        ];
        let mut lines = vec![
            Line::styled("Play the computer", theme.heading),
            Line::raw(""),
        ];
        let mut choices = choice_lines(theme, rows, row, COMPUTER_ROWS);
        if let Some(line) = choices.get_mut(1) {
            let marker = line.spans[0].clone();
            let style = line.spans[1].style;
            let lower = if Level::new(n.saturating_sub(1)).is_some() {
                "<"
            } else {
                " "
            };
            let raise = if Level::new(n + 1).is_some() {
                ">"
            } else {
                " "
            };
            let spans = [
                marker,
                Span::styled(label.clone(), style),
                Span::styled(lower, theme.key),
                Span::styled(format!(" {n} "), style),
                Span::styled(raise, theme.key),
                Span::styled(about, style),
            ];
            debug_assert_eq!(spans[LEVEL_LOWER].content, lower);
            debug_assert_eq!(spans[LEVEL_RAISE].content, raise);
            *line = Line::from(spans.to_vec());
        }
        lines.extend(choices);
        lines.push(Line::raw(""));
        lines.push(Line::raw(if compact {
            "Level 1 is a beginner, 10 its best; b or w picks your side, 0-9 the level."
        } else {
            "Level 1 is a beginner, 10 the program at its best. b, w or a click on the \
             side picks it; a digit (0 for 10) or < > the level."
        }));
        lines
    }

    /// The open page's lines: the path typed so far, its cursor a key-styled cell, and
    /// a note, its `compact` words on a compact screen (the whole note ran past the
    /// smallest one's page, which has no row below the path to scroll to).
    fn open_lines(&self, theme: &Theme, compact: bool) -> Vec<Line<'static>> {
        let mut file = vec![Span::styled("File: ", theme.heading)];
        file.extend(self.path.spans(theme.key));
        let note = if compact {
            "A game opens for review, a file of many at its list (g). ~ is your home folder."
        } else {
            "A game opens for review: step through the moves, or play on from any point; a \
             file of many games opens at their list (g shows it again). ~ is your home folder."
        };
        vec![
            Line::styled("Open a PDN file", theme.heading),
            Line::raw(""),
            Line::from(file),
            Line::raw(""),
            Line::raw(note),
        ]
    }

    /// The settings page's lines; on a `compact` screen the notes in short (the
    /// assistance row says what it gives), to be read whole under the last row.
    fn settings_lines(&self, theme: &Theme, row: usize, compact: bool) -> Vec<Line<'static>> {
        let on = |on: bool| if on { "on" } else { "off" };
        let look = &self.look;
        let rows = [
            format!("Colour        {}", on(look.colored)),
            format!(
                "Pieces        {}",
                if look.ascii {
                    "letters (ASCII only)"
                } else {
                    "discs"
                }
            ),
            format!("Coordinates   {}", on(look.coordinates)),
            // The row says what the setting gives, not only its name.
            format!(
                "Assistance    {}",
                match look.assist {
                    None => "on: hints, score (off for two people on a clock)",
                    Some(true) => "on: hints and the engine's score",
                    Some(false) => "off: no hints, no engine score",
                }
            ),
        ];
        let mut lines = vec![Line::styled("Settings", theme.heading), Line::raw("")];
        lines.extend(choice_lines(theme, rows, row, SETTINGS_ROWS));
        lines.push(Line::raw(""));
        if !compact {
            lines.push(Line::raw(
                "Assistance is the engine's help: hints, its score and the endgame \
                 databases' verdict.",
            ));
        }
        lines.push(Line::raw(match &self.preferences {
            Ok(path) if compact => format!("Kept in {}", crate::text::printable_path(path)),
            Ok(path) => format!(
                "Each change is kept for the next runs in {}",
                crate::text::printable_path(path)
            ),
            Err(why) => (*why).to_string(),
        }));
        lines
    }

    /// The keys the page's key line names (and a key it does not take, in its note).
    fn page_keys(&self) -> Vec<(&'static str, &'static str)> {
        match &self.page {
            Page::Menu => {
                let enter = match Entry::ALL[self.selected] {
                    Entry::TwoPlayers | Entry::Resume | Entry::Puzzles => "start",
                    Entry::Quit => "quit",
                    _ => "open",
                };
                vec![("Up/Down", "choose"), ("Enter", enter), ("q", "quit")]
            }
            Page::Computer(_) => vec![
                ("Up/Down", "choose"),
                ("Left/Right", "change"),
                ("Enter", "start"),
                ("Esc", "back"),
            ],
            Page::Network => self.network.keys(),
            Page::Open => vec![("Enter", "open"), ("Ctrl-U", "clear"), ("Esc", "back")],
            Page::Settings(_) => {
                vec![("Up/Down", "choose"), ("Enter", "switch"), ("Esc", "back")]
            }
            Page::Help(_) => vec![("Up/Down", "scroll"), ("PgDn", "more"), ("Esc", "back")],
        }
    }

    /// The list's lines: each entry's letter and name, the chosen one marked, under
    /// the title; with `roomy`, blank lines and the chosen entry's note too. On a
    /// `compact` screen only the entries, with their short names where `width` is
    /// too narrow for the whole ones.
    fn menu_lines(
        &self,
        theme: &Theme,
        roomy: bool,
        compact: bool,
        width: usize,
    ) -> Vec<Line<'static>> {
        let mut lines = Vec::new();
        if !compact {
            lines.push(Line::styled(
                "English draughts (American checkers)",
                theme.heading,
            ));
        }
        if roomy {
            lines.push(Line::raw(""));
        }
        // The marker, the letter and a space before each name.
        let short = Entry::ALL.iter().any(|e| 4 + e.label().width() > width);
        for (i, entry) in Entry::ALL.iter().enumerate() {
            let chosen = i == self.selected;
            // The marker's style on the chosen line only: the colourless theme's is
            // reversed, which would mark every line.
            let (marker, marker_style, style) = if chosen {
                ("> ", theme.question, theme.cursor)
            } else {
                ("  ", theme.text, theme.text)
            };
            lines.push(Line::from(vec![
                Span::styled(marker, marker_style),
                Span::styled(entry.key().to_string(), theme.key),
                Span::raw(" "),
                Span::styled(
                    if short {
                        entry.short_label()
                    } else {
                        entry.label()
                    },
                    style,
                ),
            ]));
        }
        if roomy {
            lines.push(Line::raw(""));
            lines.push(Line::raw(Entry::ALL[self.selected].about()));
        }
        lines
    }

    /// Whether the list has room on a screen `area` for its blank lines and the chosen
    /// entry's note.
    fn roomy(area: Rect) -> bool {
        area.height >= ROOMY_HEIGHT + 5
    }

    /// Whether the page's last row is chosen: the note under it is then scrolled into
    /// view whole where it fits.
    fn on_last_row(&self) -> bool {
        match self.page {
            Page::Computer(row) => row + 1 == COMPUTER_ROWS,
            Page::Settings(row) => row + 1 == SETTINGS_ROWS,
            Page::Network => self.network.on_last_row(),
            Page::Menu | Page::Open | Page::Help(_) => false,
        }
    }

    /// How many of the list's lines come before its entries on a screen `area`: its
    /// title (not on a compact screen) and a blank line (where the list is roomy).
    fn menu_lines_above(area: Rect) -> usize {
        usize::from(!Home::compact(area)) + usize::from(Home::roomy(area))
    }

    /// Where everything goes on a screen `area` (big enough to draw in): worked out in
    /// one place for the drawing and for the mouse, so that a click lands on the line
    /// drawn under the pointer, however the page is scrolled or made compact.
    fn layout(&self, area: Rect) -> Layout {
        let theme = self.theme();
        let width = area.width.min(MAX_WIDTH);
        let inner = Home::inner_width(area);
        let compact = Home::compact(area);
        let mut body: Vec<Line<'static>> = match &self.page {
            Page::Menu => self.menu_lines(&theme, Home::roomy(area), compact, inner),
            Page::Computer(row) => self.computer_lines(&theme, *row, compact, inner),
            Page::Network => self.network.lines(&theme, compact, inner),
            Page::Open => self.open_lines(&theme, compact),
            Page::Settings(row) => self.settings_lines(&theme, *row, compact),
            Page::Help(_) => self.help_lines(area),
        };
        // Whether the page drops its blank lines though the screen is not compact.
        let mut squeeze = false;
        if let Page::Computer(row) = &self.page
            && !compact
        {
            // The whole note would be cut off mid-word at the bottom of a small screen
            // (40x15): its short words fit there, with the page's blank lines dropped.
            let footer = rows_of(&self.footer_lines(&theme, area), inner);
            let rows = |body: &[Line]| {
                body.iter()
                    .map(|line| line_rows(line, inner))
                    .sum::<usize>()
                    + footer
                    + 2
            };
            if rows(&body) > usize::from(area.height) {
                body = self.computer_lines(&theme, *row, true, inner);
                squeeze = rows(&body) > usize::from(area.height);
            }
        }
        let mut origin: Vec<usize> = (0..body.len()).collect();
        let mut focus = self.focus_line(Home::menu_lines_above(area));
        if (compact || squeeze) && !matches!(self.page, Page::Help(_)) {
            // A compact page has no blank lines between its parts: each row is worth
            // more than the air.
            let blank = |line: &Line| line.to_string().is_empty();
            focus -= body.iter().take(focus).filter(|line| blank(line)).count();
            origin.retain(|&i| !blank(&body[i]));
            body.retain(|line| !blank(line));
        }
        let footer = self.footer_lines(&theme, area);
        let body_rows: Vec<usize> = body.iter().map(|line| line_rows(line, inner)).collect();
        let footer_rows = rows_of(&footer, inner);
        let rows = body_rows.iter().sum::<usize>() + footer_rows;
        let x = area.x + (area.width - width) / 2;
        let border = |rect: Rect| {
            Block::bordered()
                .padding(Padding::horizontal(1))
                .inner(rect)
        };
        let (frame, room, scroll) = if rows + 2 <= usize::from(area.height) {
            // All of it fits: one frame just high enough, in the middle of the screen.
            let height = u16::try_from(rows + 2).unwrap_or(u16::MAX);
            let frame = Rect {
                x,
                y: area.y + (area.height - height) / 2,
                width,
                height,
            };
            let room = u16::try_from(rows - footer_rows).unwrap_or(u16::MAX);
            (frame, room, 0)
        } else {
            // Too long for the screen: the frame fills it, the footer keeps its rows at
            // the bottom, and the page above scrolls so that what is chosen shows.
            let frame = Rect { x, width, ..area };
            let within = border(frame);
            let footer_height = u16::try_from(footer_rows)
                .unwrap_or(u16::MAX)
                .min(within.height.saturating_sub(1));
            let room = within.height - footer_height;
            let scroll = match &self.page {
                // The help as far as its keys scrolled it.
                Page::Help(top) => {
                    let (rows, shown) = self.help_size(area);
                    usize::from(*top).min(rows.saturating_sub(shown))
                }
                _ => {
                    let first =
                        scroll_to_show(&body_rows, focus, usize::from(room), self.on_last_row());
                    body_rows.iter().take(first).sum::<usize>()
                }
            };
            (frame, room, u16::try_from(scroll).unwrap_or(u16::MAX))
        };
        let within = border(frame);
        let (page, keys) = crate::tui::geometry::split_top(within, room);
        Layout {
            frame,
            page,
            body,
            origin,
            body_rows,
            scroll,
            keys,
            footer,
            key_line: KeyLine::of_keys(&theme, &self.keys_shown(area)),
        }
    }
}

/// The home screen laid out on a screen: where its frame, its page and its footer go.
struct Layout {
    /// The frame around it all.
    frame: Rect,
    /// Where the page's lines are drawn, `scroll` rows of them out of sight above.
    page: Rect,
    /// The page's lines as drawn (on a compact screen, without its blank ones).
    body: Vec<Line<'static>>,
    /// For each line of `body`, which of the page's own lines it is (counted with the
    /// blank ones a compact screen leaves out), so a click means the same at any size.
    origin: Vec<usize>,
    /// The rows each line of `body` takes, wrapped.
    body_rows: Vec<usize>,
    /// How many of the page's rows are scrolled out of sight above it.
    scroll: u16,
    /// Where the footer is drawn: under the page, at the frame's bottom.
    keys: Rect,
    /// The footer's lines: a blank line where there is room, the news, the keys.
    footer: Vec<Line<'static>>,
    /// The footer's key line, each entry with its key, as the last of `footer` draws it.
    key_line: KeyLine,
}

impl Layout {
    /// Which line of `body` is drawn at `column`, `row` of the screen, if one is, and
    /// which of its rows (as wrapped) that is: a click anywhere inside the frame on that
    /// line's rows, not on the footer.
    fn place_at(&self, column: u16, row: u16) -> Option<(usize, usize)> {
        let across = column > self.frame.x && column + 1 < self.frame.right();
        if !across || row < self.page.y || row >= self.page.bottom() {
            return None;
        }
        let mut below = usize::from(row - self.page.y) + usize::from(self.scroll);
        for (i, rows) in self.body_rows.iter().enumerate() {
            if below < *rows {
                return Some((i, below));
            }
            below -= rows;
        }
        None
    }

    /// Which of the page's own lines is drawn at `column`, `row` of the screen, if one
    /// is.
    fn line_at(&self, column: u16, row: u16) -> Option<usize> {
        let (i, _) = self.place_at(column, row)?;
        self.origin.get(i).copied()
    }

    /// Which piece (span) of its line is drawn at `column`, `row` of the screen, if a
    /// line is.
    fn span_at(&self, column: u16, row: u16) -> Option<usize> {
        let (i, line_row) = self.place_at(column, row)?;
        let height = u16::try_from(self.body_rows[i]).unwrap_or(u16::MAX);
        let x = column.checked_sub(self.page.x)?;
        span_drawn_at(&self.body[i], self.page.width, height, x, line_row)
    }

    /// The key a click at `column`, `row` of the screen presses: the one of the key
    /// line's entry drawn there (the key line wrapped as the footer draws it).
    fn press_at(&self, column: u16, row: u16) -> Option<KeyEvent> {
        let inside = column >= self.keys.x && column < self.keys.right();
        if !inside || row < self.keys.y || row >= self.keys.bottom() {
            return None;
        }
        let width = usize::from(self.keys.width);
        // The key line is the footer's last line: the rows above it are the others'.
        let above: usize = self
            .footer
            .iter()
            .take(self.footer.len().saturating_sub(1))
            .map(|line| line_rows(line, width))
            .sum();
        let line_row = usize::from(row - self.keys.y).checked_sub(above)?;
        let line = self.key_line.line();
        let height = u16::try_from(line_rows(&line, width)).unwrap_or(u16::MAX);
        let span = span_drawn_at(
            &line,
            self.keys.width,
            height,
            column - self.keys.x,
            line_row,
        )?;
        self.key_line.press_of(span)
    }
}

impl Widget for &Home {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme();
        if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
            // Short lines, so the size needed shows even on a very narrow screen.
            Paragraph::new(format!(
                "terminal too small:\nneed {MIN_WIDTH}x{MIN_HEIGHT}\nq quits"
            ))
            .wrap(Wrap { trim: true })
            .render(area, buf);
            return;
        }
        let layout = self.layout(area);
        Clear.render(layout.frame, buf);
        Block::bordered()
            .padding(Padding::horizontal(1))
            .border_set(theme.glyphs.border)
            .title(" checkers ")
            .title_style(theme.heading)
            .border_style(theme.heading)
            .render(layout.frame, buf);
        Paragraph::new(layout.body)
            .wrap(Wrap { trim: false })
            .scroll((layout.scroll, 0))
            .render(layout.page, buf);
        Paragraph::new(layout.footer)
            .wrap(Wrap { trim: false })
            .render(layout.keys, buf);
    }
}

/// The rows `lines` take wrapped in `width` columns.
fn rows_of(lines: &[Line], width: usize) -> usize {
    lines.iter().map(|line| line_rows(line, width)).sum()
}

/// The first of the lines (each taking `rows[i]` rows) to show in `room` rows so that
/// line `focus` shows whole, with a row of the line after it where it fits (so that
/// more below is seen to be there), and as many lines above it as fit. With `to_end`
/// (the page's last row chosen) the lines after the focus show whole too, where they
/// fit under it: the note is read by going down to the last row, on a page too long
/// for the screen (the smallest one's; the computer page, which opens at its last row,
/// fits whole from 30x12, its rows in short, so that it opens at its start there).
fn scroll_to_show(rows: &[usize], focus: usize, room: usize, to_end: bool) -> usize {
    let focus = focus.min(rows.len().saturating_sub(1));
    // One row of the line after says there is more; the rest of it may stay below.
    let after = if to_end {
        rows[focus + 1..].iter().sum()
    } else {
        usize::from(focus + 1 < rows.len())
    };
    let mut first = 0;
    // Drop lines from the top until the focus line and what must show after it fit,
    // or the focus line is the first.
    while first < focus && rows[first..=focus].iter().sum::<usize>() + after > room {
        first += 1;
    }
    first
}
