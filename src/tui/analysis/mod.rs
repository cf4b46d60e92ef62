//! The analysis board: moves for both sides played freely into a move tree (a move from
//! an earlier position makes a variation), the position shown analysed continuously by
//! a background search with its best lines, the endgame databases' result where they
//! hold it, and the tree saved as PDN with its variations.
//!
//! Like the home screen it is state ([`AnalysisBoard`], which owns the tree, the board
//! on screen and the search), keys turned into changes ([`AnalysisBoard::handle_event`],
//! no I/O but the save the player asks for) and drawing ([`view`]); the
//! [parent module](super) runs it.

pub(crate) mod save;
pub(crate) mod search;
pub(crate) mod view;

use super::action::Action;
use super::action::Direction;
use super::app::{BoardView, Edited, Editor, Picked, Tone};
use super::geometry::{PANEL_SCREEN, screen_layout};
use super::theme::Theme;
use crate::engine::egdb::Egdb;
use crate::game::tree::{Edit, Edits, MoveTree};
use crate::pdn::PdnGame;
use crate::rules::{Move, Position, Square};
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;
use save::{SavePrompt, Step, Write};
use search::{Analyser, Job, Report};
use std::path::PathBuf;
use std::sync::Arc;

/// The first words of the position editor on the analysis board.
const SET_UP_WELCOME: &str = "Set up a position: b w a man, B W a king, Space clears, t side to move, \
     c empties the board, s the start, f a FEN, Enter analyses it, Esc leaves it";

/// The most best lines shown.
pub(crate) const MAX_LINES: usize = 5;

/// The longest OSC 52 payload sent to the clipboard: terminals cap what one sequence
/// may carry, and it carries the text in base64, a third longer than the text (so the
/// text is at most 75,000 bytes); a longer tree is saved to a file instead.
const MAX_CLIPBOARD_BYTES: usize = 100_000;

/// The bytes `text` takes in an OSC 52 sequence: its base64, four bytes for every
/// three (the last three padded).
fn clipboard_bytes(text: &str) -> usize {
    text.len().div_ceil(3) * 4
}

/// What a key does on the analysis board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Act {
    /// The cursor moves.
    Cursor(Direction),
    /// The square under the cursor is selected (pick up, land).
    Select,
    /// A hop taken back, a piece put down, or (nothing picked up) the board left.
    Back,
    /// One move back in the tree.
    StepBack,
    /// One move on along the line shown.
    StepOn,
    /// To the start position.
    ToStart,
    /// To the end of the line shown.
    ToEnd,
    /// The next (or previous) variation at the move shown.
    Variation(bool),
    /// The variation shown becomes the main line.
    Promote,
    /// The variation shown is deleted.
    Delete,
    /// Analysis on or off.
    ToggleAnalysis,
    /// One best line more (or fewer).
    Lines(bool),
    /// The best line's first move is played.
    PlayBest,
    /// The move prompt opens with the digit pressed.
    Type,
    /// The opening explorer's panel opens or closes.
    Explorer,
    /// The board turns over.
    Flip,
    /// The save dialog opens.
    Save,
    /// The comment on the move shown is typed.
    Comment,
    /// The last change to the tree is taken back.
    Undo,
    /// The last change taken back is made again.
    Redo,
    /// The position shown goes to the clipboard as FEN.
    CopyFen,
    /// The tree goes to the clipboard as PDN.
    CopyPdn,
    /// The position editor opens on the position shown.
    SetUp,
    /// The help overlay opens or closes.
    Help,
    /// Back to where the board was opened from.
    Leave,
}

/// One key of the analysis board: the keys, what they do, and their words for the
/// footer (empty: not there) and the help overlay.
pub(crate) struct AnalysisKey {
    /// The key codes that do it.
    pub(crate) codes: &'static [KeyCode],
    /// What they do.
    pub(crate) act: Act,
    /// The keys as shown.
    pub(crate) label: &'static str,
    /// A word or two for the footer; empty: not in the footer.
    pub(crate) short: &'static str,
    /// What it does, for the help overlay; empty: described by the line before.
    pub(crate) help: &'static str,
}

/// The analysis board's one key table: the handler, the footer and the help read it.
#[rustfmt::skip]
pub(crate) const KEYS: &[AnalysisKey] = &[
    AnalysisKey { codes: &[KeyCode::Up, KeyCode::Char('k')], act: Act::Cursor(Direction::Up), label: "arrows hjkl", short: "", help: "move the cursor on the board" },
    AnalysisKey { codes: &[KeyCode::Down, KeyCode::Char('j')], act: Act::Cursor(Direction::Down), label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Left, KeyCode::Char('h')], act: Act::Cursor(Direction::Left), label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Right, KeyCode::Char('l')], act: Act::Cursor(Direction::Right), label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Enter, KeyCode::Char(' ')], act: Act::Select, label: "Enter", short: "", help: "pick up a piece, land it (either side; or click)" },
    AnalysisKey { codes: &[KeyCode::Char('0'), KeyCode::Char('1'), KeyCode::Char('2'), KeyCode::Char('3'), KeyCode::Char('4'), KeyCode::Char('5'), KeyCode::Char('6'), KeyCode::Char('7'), KeyCode::Char('8'), KeyCode::Char('9')], act: Act::Type, label: "0-9", short: "", help: "type a move: 11-15 (Enter plays it)" },
    AnalysisKey { codes: &[KeyCode::Char('<'), KeyCode::Char(','), KeyCode::Backspace], act: Act::StepBack, label: "< >", short: "step", help: "a move back / on along the line shown" },
    AnalysisKey { codes: &[KeyCode::Char('>'), KeyCode::Char('.')], act: Act::StepOn, label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Home], act: Act::ToStart, label: "Home End", short: "", help: "to the start / the end of the line" },
    AnalysisKey { codes: &[KeyCode::End], act: Act::ToEnd, label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Char('v')], act: Act::Variation(false), label: "v V", short: "variation", help: "next / previous variation of the move shown" },
    AnalysisKey { codes: &[KeyCode::Char('V')], act: Act::Variation(true), label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Char('P')], act: Act::Promote, label: "P", short: "", help: "make the variation shown the main line" },
    AnalysisKey { codes: &[KeyCode::Char('D')], act: Act::Delete, label: "D", short: "", help: "delete the variation shown" },
    AnalysisKey { codes: &[KeyCode::Char('e')], act: Act::ToggleAnalysis, label: "e", short: "engine", help: "analysis on / off" },
    AnalysisKey { codes: &[KeyCode::Char('+'), KeyCode::Char('=')], act: Act::Lines(true), label: "+ -", short: "lines", help: "one best line more / fewer (1 to 5)" },
    AnalysisKey { codes: &[KeyCode::Char('-')], act: Act::Lines(false), label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Char('b')], act: Act::PlayBest, label: "b", short: "", help: "play the best line's move (marked on the board)" },
    AnalysisKey { codes: &[KeyCode::Char('c')], act: Act::Comment, label: "c", short: "", help: "comment on the move shown (saved with it)" },
    AnalysisKey { codes: &[KeyCode::Char('E')], act: Act::SetUp, label: "E", short: "", help: "set up a position: b w men, B W kings, t side to move, Enter" },
    AnalysisKey { codes: &[KeyCode::Char('f')], act: Act::Flip, label: "f", short: "", help: "turn the board over" },
    AnalysisKey { codes: &[KeyCode::Char('y')], act: Act::CopyFen, label: "y Y", short: "", help: "copy the position (FEN) / the tree (PDN) to the clipboard" },
    AnalysisKey { codes: &[KeyCode::Char('Y')], act: Act::CopyPdn, label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Char('s')], act: Act::Save, label: "s", short: "save", help: "save the moves and variations as PDN" },
    AnalysisKey { codes: &[KeyCode::Char('u')], act: Act::Undo, label: "u U", short: "undo/redo", help: "undo / redo a move, promote, delete, comment (Ctrl-R: redo)" },
    AnalysisKey { codes: &[KeyCode::Char('U')], act: Act::Redo, label: "", short: "", help: "" },
    AnalysisKey { codes: &[KeyCode::Char('o')], act: Act::Explorer, label: "o", short: "explorer", help: "opening explorer: Up/Down, Enter plays; m: Tinsley's / yours" },
    AnalysisKey { codes: &[KeyCode::Char('?')], act: Act::Help, label: "?", short: "help", help: "this help" },
    AnalysisKey { codes: &[KeyCode::Esc], act: Act::Back, label: "Esc", short: "", help: "put a piece down; else leave" },
    AnalysisKey { codes: &[KeyCode::Char('q')], act: Act::Leave, label: "q", short: "leave", help: "leave the analysis board" },
];

/// The smallest screen with the side panel, in words (`70x23`), for what a smaller one
/// cannot show.
fn panel_screen() -> String {
    let (width, height) = PANEL_SCREEN;
    format!("{width}x{height}")
}

/// A question the board waits on an answer to before it loses work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ask {
    /// Leave with moves or variations not saved: `y` leaves, `s` saves first.
    Leave,
    /// Leave with the moves before a set-up not saved (those of the position set up
    /// are): `y` leaves, `s` brings them back to be saved.
    LeaveEarlier,
    /// Leave with the moves of a set-up taken back by `u` not saved (those shown
    /// are): `y` leaves, `s` sets it up again to be saved.
    LeaveUndone,
    /// Delete the variation shown: `y` deletes it.
    Delete,
}

/// What the event loop is to do after an event.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Done {
    /// Back to where the board was opened from.
    Leave,
    /// End the program (Ctrl-C).
    Quit,
}

/// The analysis board's whole state.
#[derive(Debug)]
pub(crate) struct AnalysisBoard {
    /// The moves played, with their variations; the node shown.
    pub(crate) tree: MoveTree,
    /// The record's tags, written again on a save; its moves are the main line as the
    /// board opened it, the line its result was recorded for.
    pub(crate) record: PdnGame,
    /// The board on screen: the cursor, the piece picked up, which way up.
    pub(crate) board: BoardView,
    /// Colours and glyphs.
    pub(crate) theme: Theme,
    /// Whether mouse clicks are used.
    pub(crate) mouse: bool,
    /// The screen's size.
    pub(crate) screen: Rect,
    /// How many best lines are asked for (1 to [`MAX_LINES`]).
    pub(crate) lines: usize,
    /// Whether the position shown is analysed.
    pub(crate) on: bool,
    /// What the search found for the position shown.
    pub(crate) report: Report,
    /// The number of the position's job: a report for another is not shown.
    job: u64,
    /// The background search, started when first needed.
    analyser: Option<Analyser>,
    /// Whether a background search may be started (not in tests of the screen).
    searching_allowed: bool,
    /// The endgame databases.
    pub(crate) egdb: Option<Arc<Egdb>>,
    /// The message on the status line.
    pub(crate) message: Option<(Tone, String)>,
    /// The help overlay is open.
    pub(crate) help: bool,
    /// The help's first row shown, where the screen is too short for all of it.
    pub(crate) help_top: u16,
    /// The save dialog is open.
    pub(crate) saving: Option<SavePrompt>,
    /// The file the tree was saved to last, offered again.
    pub(crate) last_saved: Option<PathBuf>,
    /// The move prompt is open, with the move typed.
    pub(crate) typing: Option<String>,
    /// The opening explorer's panel is open, this row of it chosen.
    pub(crate) explorer: Option<usize>,
    /// The collection the explorer shows (`m` in the panel switches).
    pub(crate) collection: Collection,
    /// The index of the player's own games, read the first time they are explored.
    pub(crate) my_games: Option<crate::explorer::Explorer>,
    /// The games of the file `--explore-pdn` names: its file name (as the panel's
    /// title shows it) and their index, read before the board opened.
    pub(crate) file_games: Option<(String, crate::explorer::Explorer)>,
    /// Where the board was opened from, for the leave key's words.
    pub(crate) opened_from: &'static str,
    /// Whether the tree has changed (a move played, a variation promoted or deleted)
    /// since it was opened or last saved: leaving then asks first.
    pub(crate) unsaved: bool,
    /// The question asked, waiting on its answer (the next key).
    pub(crate) asking: Option<Ask>,
    /// The comment on the move shown being typed (`Some` while its prompt is open).
    pub(crate) commenting: Option<crate::tui::field::TextField>,
    /// The changes made to the tree, for undo and redo.
    pub(crate) edits: Edits,
    /// Text for the terminal's clipboard, waiting for the event loop to send it.
    pub(crate) clipboard: Option<String>,
    /// The position being set up (`E`), while its editor is open.
    pub(crate) setting_up: Option<Editor>,
    /// The tree a set-up replaced, with its record and changes: undo brings it back.
    earlier: Vec<Earlier>,
    /// The trees of set-ups taken back by undo, the last taken back last: redo sets
    /// them up again, until another change is made.
    set_ups_undone: Vec<Earlier>,
}

/// The collection of games the explorer shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Collection {
    /// Marion Tinsley's tournament games, built in.
    Tinsley,
    /// The player's own saved games.
    Mine,
    /// The games of the file `--explore-pdn` names.
    File,
}

/// A tree the board showed before a position was set up, or one set up and taken
/// back.
#[derive(Debug)]
struct Earlier {
    /// Its moves and variations, at the node shown.
    tree: MoveTree,
    /// Its record's tags.
    record: PdnGame,
    /// Its changes, for undo.
    edits: Edits,
    /// Whether it was saved as it stood.
    unsaved: bool,
}

impl AnalysisBoard {
    /// A board showing `tree` (the record `record`'s tags kept for a save), looked at
    /// as `theme` says on a `screen`; `opened_from` names where `q` goes back to.
    /// With `search`, the background search starts at once.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        tree: MoveTree,
        record: PdnGame,
        settings: &super::Settings,
        egdb: Option<Arc<Egdb>>,
        screen: Rect,
        opened_from: &'static str,
        search: bool,
    ) -> AnalysisBoard {
        let mut record = record;
        let mut tree = tree;
        // The record's clock readings stay with its moves, for a save.
        tree.add_main_line_clocks(&record.moves, &record.clocks);
        // The result belongs to the main line opened, not to one played on later.
        record.moves = tree.main_line();
        let turn = tree.position().turn();
        let board = BoardView::new(
            turn,
            tree.position(),
            settings.flipped,
            settings.flipped,
            None,
            settings.coordinates,
        );
        let mut analysis = AnalysisBoard {
            tree,
            record,
            board,
            theme: settings.theme,
            mouse: settings.mouse,
            screen,
            lines: 3,
            on: true,
            report: Report::default(),
            job: 0,
            analyser: None,
            searching_allowed: search,
            egdb,
            message: Some((
                Tone::Info,
                "Analysis board: play moves for either side; ? lists the keys".into(),
            )),
            help: false,
            help_top: 0,
            saving: None,
            last_saved: None,
            typing: None,
            explorer: None,
            collection: Collection::Tinsley,
            my_games: None,
            file_games: None,
            opened_from,
            unsaved: false,
            asking: None,
            commenting: None,
            edits: Edits::default(),
            clipboard: None,
            setting_up: None,
            earlier: Vec::new(),
            set_ups_undone: Vec::new(),
        };
        analysis.restart();
        analysis
    }

    /// The position shown.
    pub(crate) fn position(&self) -> &Position {
        match &self.setting_up {
            Some(editor) => &editor.board,
            None => self.tree.position(),
        }
    }

    /// The best move found for the position shown, if the analysis has one.
    pub(crate) fn best_move(&self) -> Option<Move> {
        if !self.on || self.report.id != self.job {
            return None;
        }
        self.report
            .lines
            .first()
            .and_then(|l| l.pv.first())
            .copied()
    }

    /// The position shown changed (or what is asked of its analysis): the lines shown
    /// are dropped at once and the search starts on it.
    pub(crate) fn restart(&mut self) {
        self.job += 1;
        self.report = Report {
            id: self.job,
            ..Report::default()
        };
        self.board.pick = None;
        if !self.on {
            if let Some(analyser) = &self.analyser {
                analyser.pause();
            }
            return;
        }
        if !self.searching_allowed {
            return;
        }
        if self.analyser.is_none() {
            match Analyser::start(self.egdb.clone()) {
                Ok(analyser) => self.analyser = Some(analyser),
                Err(e) => {
                    self.say(Tone::Error, format!("The analysis could not start: {e}"));
                    self.on = false;
                    return;
                }
            }
        }
        if let Some(analyser) = &self.analyser {
            analyser.analyse(Job {
                id: self.job,
                position: *self.tree.position(),
                history: self.tree.history(),
                lines: self.lines,
            });
        }
    }

    /// Takes the search's news; true when there is something new to draw.
    pub(crate) fn poll(&mut self) -> bool {
        let Some(analyser) = &self.analyser else {
            return false;
        };
        let report = analyser.report();
        if report.id == self.job && report != self.report {
            self.report = report;
            return true;
        }
        false
    }

    /// Whether the search is still at work (the screen polls it while it is).
    pub(crate) fn searching(&self) -> bool {
        self.on && self.analyser.is_some() && !self.report.done
    }

    /// Stops the search and ends its thread (the board is left).
    pub(crate) fn stop(&mut self) {
        self.analyser = None;
    }

    /// Puts `text` on the status line.
    pub(crate) fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Some((tone, text.into()));
    }

    /// Handles a terminal event: a key press, a click (on an entry of the key line: its
    /// key; on a move of the list: that move; on the board: that square; on the help:
    /// closes it) or a resize.
    pub(crate) fn handle_event(&mut self, event: &Event) -> Option<Done> {
        match event {
            Event::Key(key) if key.kind == KeyEventKind::Press => self.key(key),
            Event::Mouse(mouse)
                if self.mouse && mouse.kind == MouseEventKind::Down(MouseButton::Left) =>
            {
                // The help covers the board (on a small screen, the key line too): a
                // click closes it, as any key does.
                if self.help {
                    self.help = false;
                    return None;
                }
                // A click on an entry of the key line presses its key ("q leave").
                let press = crate::tui::geometry::screen_layout(self.screen, self.board.flipped)
                    .and_then(|layout| self.key_row(&layout))
                    .and_then(|(line, row)| line.press_in(row, mouse.column, mouse.row));
                if let Some(key) = press {
                    return self.key(&key);
                }
                // A click elsewhere answers a question as any other key does: no.
                if let Some(ask) = self.asking.take() {
                    return self.answer(ask, &KeyEvent::from(KeyCode::Esc));
                }
                // Setting up, a click on a square only puts the cursor there.
                if self.setting_up.is_some() {
                    if let Some(cell) = self.board.cell_at(self.screen, mouse.column, mouse.row)
                        && Square::from_row_col(cell.0, cell.1).is_some()
                    {
                        self.board.cursor = cell;
                    }
                    return None;
                }
                if let Some(node) = view::node_at(self, self.screen, mouse.column, mouse.row) {
                    self.message = None;
                    if node != self.tree.current() {
                        self.tree.go_to(node);
                        self.restart();
                    }
                } else if let Some(cell) = self.board.cell_at(self.screen, mouse.column, mouse.row)
                {
                    let square = Square::from_row_col(cell.0, cell.1);
                    if square.is_some() {
                        self.board.cursor = cell;
                    }
                    self.select(square);
                }
                None
            }
            Event::Resize(width, height) => {
                self.screen = Rect::new(0, 0, *width, *height);
                None
            }
            _ => None,
        }
    }

    /// A key pressed.
    fn key(&mut self, key: &KeyEvent) -> Option<Done> {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && key.code == KeyCode::Char('c') {
            return Some(Done::Quit);
        }
        if let Some(ask) = self.asking.take() {
            return self.answer(ask, key);
        }
        // Other Ctrl and Alt keys do nothing (and say so): Alt-v is not v. The save
        // prompt reads its own (Ctrl-U clears its field).
        if crate::tui::keymap::modified(key) && self.saving.is_none() && self.commenting.is_none() {
            // Ctrl-R redoes, as in a game; not while a position is set up, whose
            // editor hides the tree it would change.
            let redo =
                ctrl && key.code == KeyCode::Char('r') && key.modifiers == KeyModifiers::CONTROL;
            if redo && self.typing.is_none() && !self.help && self.setting_up.is_none() {
                return self.act(Act::Redo);
            }
            if self.typing.is_none() && !self.help {
                self.unbound(key);
            }
            return None;
        }
        if let Some(prompt) = &mut self.saving {
            self.message = None;
            match prompt.key(key) {
                Step::Stay => {}
                Step::Cancel => {
                    self.saving = None;
                    self.say(Tone::Info, "Not saved");
                }
                Step::Refused(why) => self.say(Tone::Error, why),
                Step::Write(path, how) => {
                    self.saving = None;
                    self.save(path, how);
                }
            }
            return None;
        }
        if let Some(field) = &mut self.commenting {
            match key.code {
                KeyCode::Esc => {
                    self.commenting = None;
                    self.say(Tone::Info, "Comment not changed");
                }
                KeyCode::Enter => {
                    let text = field.text.clone();
                    self.commenting = None;
                    let node = self.tree.current();
                    if let Some(edit) = self.tree.comment_edit(node, &text) {
                        self.changed(edit);
                    }
                    let said = if self.tree.comment(node).is_some() {
                        "Comment kept: s saves it with the moves"
                    } else {
                        "No comment here"
                    };
                    self.say(Tone::Info, said);
                }
                _ => {
                    if let Some(action) = crate::tui::field::field_action(key) {
                        field.edit(&action);
                    }
                }
            }
            return None;
        }
        if let Some(text) = &mut self.typing {
            match key.code {
                KeyCode::Esc => self.typing = None,
                KeyCode::Enter => {
                    let text = std::mem::take(text);
                    self.typing = None;
                    let pos = *self.tree.position();
                    match pos.parse_move(text.trim()) {
                        Ok(m) => {
                            self.play(m);
                            // Played with the wrong separator: said after the move, as
                            // on the play board (not after a refusal: the tree full).
                            if let (Some(note), Some((Tone::Info, said))) =
                                (pos.typed_note(&text, &m), &mut self.message)
                            {
                                said.push_str(&format!(" ({note})"));
                            }
                        }
                        Err(e) => {
                            self.say(Tone::Error, crate::text::printable(&e.to_string(), 200));
                            self.typing = Some(text);
                        }
                    }
                }
                KeyCode::Backspace => {
                    crate::text::pop_grapheme(text);
                }
                KeyCode::Char(c) if text.len() < 80 => text.push(c),
                _ => {}
            }
            return None;
        }
        if self.setting_up.is_some() {
            self.set_up_key(key);
            return None;
        }
        if self.help {
            // Where the help is longer than the screen, these keys scroll it; any
            // other closes it.
            let page = self.screen.height.saturating_sub(4).max(1);
            let last = self.help_last_top();
            match key.code {
                KeyCode::PageDown | KeyCode::Down | KeyCode::Char('j') if last > 0 => {
                    self.help_top = (self.help_top.min(last) + page).min(last);
                }
                KeyCode::PageUp | KeyCode::Up | KeyCode::Char('k') if last > 0 => {
                    self.help_top = self.help_top.min(last).saturating_sub(page);
                }
                _ => self.help = false,
            }
            return None;
        }
        // The explorer's keys only while it is shown (a screen made too small for the
        // panel hides it, and the keys act on the board again).
        if let Some(row) = self.explorer.filter(|_| self.has_panel()) {
            let moves = self.explored();
            match key.code {
                KeyCode::Up | KeyCode::Char('k') => {
                    self.explorer = Some(row.saturating_sub(1));
                    return None;
                }
                KeyCode::Down | KeyCode::Char('j') => {
                    self.explorer = Some((row + 1).min(moves.len().saturating_sub(1)));
                    return None;
                }
                KeyCode::Enter => {
                    match moves.get(row) {
                        Some((m, _)) => {
                            self.play(*m);
                            self.explorer = Some(0);
                        }
                        None => self.say(Tone::Error, self.nothing_explored()),
                    }
                    return None;
                }
                KeyCode::Esc => {
                    self.explorer = None;
                    return None;
                }
                KeyCode::Char('m') => {
                    self.switch_collection();
                    return None;
                }
                _ => {}
            }
        }
        if let KeyCode::Char(digit @ '0'..='9') = key.code {
            self.typing = Some(digit.to_string());
            self.message = None;
            return None;
        }
        match KEYS.iter().find(|k| k.codes.contains(&key.code)) {
            Some(found) => self.act(found.act),
            None => {
                self.unbound(key);
                None
            }
        }
    }

    /// A key that does nothing on the board says so, naming it.
    fn unbound(&mut self, key: &KeyEvent) {
        if let Some(note) =
            crate::tui::keymap::unbound_note(key, crate::tui::keymap::EVERY_KEY_HELP)
        {
            self.say(Tone::Info, note);
        }
    }

    /// Does `act`.
    pub(crate) fn act(&mut self, act: Act) -> Option<Done> {
        self.message = None;
        match act {
            Act::Cursor(direction) => {
                let pos = *self.tree.position();
                self.board.move_cursor(direction, &pos);
            }
            Act::Select => self.select(self.board.cursor_square()),
            Act::Back => {
                let pos = *self.tree.position();
                match self.board.back(&pos) {
                    Some(text) => self.say(Tone::Info, text),
                    None => return self.leave(),
                }
            }
            Act::StepBack => self.step(MoveTree::back, "At the start"),
            Act::StepOn => self.step(MoveTree::forward, "At the end of the line"),
            Act::ToStart => self.step(
                |tree| {
                    let from = tree.current();
                    tree.go_to_start();
                    tree.current() != from
                },
                "At the start",
            ),
            Act::ToEnd => self.step(
                |tree| {
                    let from = tree.current();
                    tree.go_to_end();
                    tree.current() != from
                },
                "At the end of the line",
            ),
            Act::Variation(back) => match self.tree.switch_variation(back) {
                Some((i, count)) => {
                    let which = if i == 0 {
                        "the main line".to_string()
                    } else {
                        format!("variation {i}")
                    };
                    self.say(Tone::Info, format!("Shown: {which} of {} here", count - 1));
                    self.restart();
                }
                None => self.say(Tone::Error, "No other move was played here"),
            },
            Act::Promote => {
                if let Some(edit) = self.tree.promote_edit() {
                    self.changed(edit);
                    self.say(Tone::Info, "The variation is the main line now");
                } else {
                    self.say(Tone::Error, "This is the main line already");
                }
            }
            // Asked first: a variation deleted cannot be had back.
            Act::Delete if self.tree.on_main_line() => self.say(
                Tone::Error,
                "The main line is not a variation: step into one to delete it",
            ),
            Act::Delete => {
                self.asking = Some(Ask::Delete);
                self.say(
                    Tone::Info,
                    "Delete this variation and every move after it? y deletes, Esc keeps it",
                );
            }
            Act::ToggleAnalysis => {
                self.on = !self.on;
                let said = match (self.on, self.has_panel()) {
                    (false, _) => "Analysis off".to_string(),
                    (true, true) => "Analysis on".to_string(),
                    (true, false) => {
                        format!("Analysis on (more lines need {})", panel_screen())
                    }
                };
                self.say(Tone::Info, said);
                self.restart();
            }
            Act::Lines(more) => {
                let lines = if more {
                    (self.lines + 1).min(MAX_LINES)
                } else {
                    self.lines.saturating_sub(1).max(1)
                };
                if lines != self.lines {
                    self.lines = lines;
                    self.restart();
                }
                if self.has_panel() {
                    self.say(Tone::Info, format!("Best lines shown: {}", self.lines));
                } else {
                    let need = panel_screen();
                    self.say(
                        Tone::Info,
                        format!("Best lines: {} (all need {need})", self.lines),
                    );
                }
            }
            Act::PlayBest => match self.best_move() {
                Some(m) => self.play(m),
                None => self.say(Tone::Error, "No best move yet (e turns analysis on)"),
            },
            Act::Flip => {
                let text = self.board.flip();
                self.say(Tone::Info, text);
            }
            Act::Save => {
                let path = self
                    .last_saved
                    .clone()
                    .or_else(|| crate::store::default_analysis_path(crate::store::now_unix()))
                    .unwrap_or_else(|| PathBuf::from("analysis.pdn"));
                self.saving = Some(SavePrompt::new(&path));
            }
            Act::Help => {
                self.help = !self.help;
                self.help_top = 0;
            }
            Act::Undo => self.undo(false),
            Act::Redo => self.undo(true),
            Act::CopyFen => self.copy(false),
            Act::CopyPdn => self.copy(true),
            Act::SetUp => {
                self.board.pick = None;
                self.setting_up = Some(Editor::of(self.tree.position()));
                // No analysis of a position not yet whole.
                self.on_hold();
                self.say(Tone::Info, SET_UP_WELCOME);
            }
            Act::Comment => {
                let now = self.tree.comment(self.tree.current()).unwrap_or_default();
                self.commenting = Some(crate::tui::field::TextField::new(
                    now,
                    crate::game::tree::MAX_COMMENT_CHARS,
                ));
            }
            Act::Type => self.typing = Some(String::new()),
            Act::Explorer => {
                self.explorer = match self.explorer {
                    Some(_) => None,
                    None if !self.has_panel() => {
                        let need = panel_screen();
                        self.say(Tone::Error, format!("Explorer needs a {need} terminal"));
                        None
                    }
                    None => Some(0),
                };
            }
            Act::Leave => return self.leave(),
        }
        None
    }

    /// Whether a prompt (a move, a comment, a file's name) takes the keys and the
    /// status row.
    pub(crate) fn prompting(&self) -> bool {
        self.typing.is_some() || self.saving.is_some() || self.commenting.is_some()
    }

    /// The comment prompt's heading: which move it is on.
    pub(crate) fn comment_heading(&self) -> String {
        match (self.tree.last_move(), self.tree.history().last()) {
            (Some(m), Some(before)) => format!("Comment on {}: ", before.notation(&m)),
            _ => "Comment before the first move: ".to_string(),
        }
    }

    /// Leaves the board, or where moves or variations are not saved, asks first: those
    /// shown, those before a set-up, or those of a set-up taken back by `u`.
    fn leave(&mut self) -> Option<Done> {
        let earlier_unsaved = self.earlier.iter().any(|e| e.unsaved);
        let undone_unsaved = self.set_ups_undone.iter().any(|e| e.unsaved);
        if !self.unsaved && earlier_unsaved {
            // `s` must save the moves the question is about, not the position set up.
            self.asking = Some(Ask::LeaveEarlier);
            self.say(
                Tone::Info,
                "The moves before the set-up are not saved: y leaves without them, s brings them back to save, Esc stays",
            );
            return None;
        }
        if !self.unsaved && undone_unsaved {
            // Taken back is not thrown away: U would set it up again, so it is asked about.
            self.asking = Some(Ask::LeaveUndone);
            self.say(
                Tone::Info,
                "The moves of the set-up taken back are not saved: y leaves without them, s sets it up again to save, Esc stays",
            );
            return None;
        }
        if !self.unsaved {
            return Some(Done::Leave);
        }
        self.asking = Some(Ask::Leave);
        let said = if earlier_unsaved {
            "These moves and those before the set-up are not saved: y leaves without them, s saves these, Esc stays"
        } else if undone_unsaved {
            "These moves and those of the set-up taken back are not saved: y leaves without them, s saves these, Esc stays"
        } else {
            "The moves and variations are not saved: y leaves without them, s saves, Esc stays"
        };
        self.say(Tone::Info, said);
        None
    }

    /// The answer `key` to the question `ask`: `y` does what was asked (for leaving,
    /// `s` saves instead: the tree shown, or the moves before a set-up the question is
    /// about); any other key keeps everything as it is.
    fn answer(&mut self, ask: Ask, key: &KeyEvent) -> Option<Done> {
        self.message = None;
        let plain = !crate::tui::keymap::modified(key);
        match (ask, key.code) {
            (Ask::Leave | Ask::LeaveEarlier | Ask::LeaveUndone, KeyCode::Char('y')) if plain => {
                return Some(Done::Leave);
            }
            (Ask::Leave, KeyCode::Char('s')) if plain => return self.act(Act::Save),
            (Ask::LeaveEarlier, KeyCode::Char('s')) if plain => {
                // Back through the set-ups to the last tree not saved (those set up
                // since hold nothing to lose), and its save dialog opened.
                while !self.unsaved && self.bring_back_earlier() {}
                self.restart();
                return self.act(Act::Save);
            }
            (Ask::LeaveUndone, KeyCode::Char('s')) if plain => {
                // On through the set-ups taken back to the first one not saved, with
                // its moves (taken back before it was) made again, as U would.
                while !self.unsaved && self.set_up_again() {}
                while self.edits.redo(&mut self.tree).is_some() {}
                self.restart();
                return self.act(Act::Save);
            }
            (Ask::Delete, KeyCode::Char('y')) if plain => {
                if let Some((edit, gone)) = self.tree.delete_edit() {
                    let plural = if gone == 1 { "" } else { "s" };
                    self.say(
                        Tone::Info,
                        format!("Variation deleted ({gone} move{plural}; u brings it back)"),
                    );
                    self.changed(edit);
                    self.restart();
                }
            }
            (Ask::Leave | Ask::LeaveEarlier | Ask::LeaveUndone, _) => {
                self.say(Tone::Info, "Still here: nothing lost");
            }
            (Ask::Delete, _) => self.say(Tone::Info, "Kept: nothing deleted"),
        }
        None
    }

    /// Whether the screen has room for the side panel (the analysis, the move list, the
    /// explorer): on a smaller one only the board and a status line are drawn.
    fn has_panel(&self) -> bool {
        screen_layout(self.screen, self.board.flipped).is_some_and(|l| !l.panel.is_empty())
    }

    /// The moves played from the position shown in the collection explored (Marion
    /// Tinsley's tournament games, the player's own, or the `--explore-pdn` file's),
    /// most played first, with how those games ended.
    pub(crate) fn explored(&self) -> Vec<(Move, crate::explorer::Tally)> {
        let pos = self.tree.position();
        match (self.collection, &self.my_games, &self.file_games) {
            (Collection::Mine, Some(mine), _) => mine.moves_from(pos),
            (Collection::File, _, Some((_, games))) => games.moves_from(pos),
            _ => crate::explorer::builtin().moves_from(pos),
        }
    }

    /// The name of the collection explored, as the panel's title gives it.
    pub(crate) fn collection_name(&self) -> &str {
        match (self.collection, &self.file_games) {
            (Collection::Mine, _) => "your games",
            (Collection::File, Some((name, _))) => name,
            _ => "Tinsley's games",
        }
    }

    /// Why the explorer lists no move at the position shown: the player has no saved
    /// game yet (when exploring their own, with where `m` goes next), or no game of the
    /// collection goes on from it.
    pub(crate) fn nothing_explored(&self) -> String {
        match &self.my_games {
            Some(mine) if self.collection == Collection::Mine && mine.games_read() == 0 => {
                let next = match &self.file_games {
                    Some((name, _)) => name.as_str(),
                    None => "Tinsley's games",
                };
                format!(
                    "No saved game of yours yet: each game you play is kept and counted here (m: {next})"
                )
            }
            _ => "No game of the collection goes on from here".to_string(),
        }
    }

    /// Switches the explorer to the next collection: the built-in one, the player's own
    /// games (read from the games folder the first time), the `--explore-pdn` file's
    /// when one was given, and round again. If the player's games cannot be read it
    /// says why and passes over them.
    fn switch_collection(&mut self) {
        let after_mine = match self.file_games {
            Some(_) => Collection::File,
            None => Collection::Tinsley,
        };
        self.collection = match self.collection {
            Collection::Tinsley => {
                if self.my_games.is_none() {
                    match crate::explorer::mine(None) {
                        Ok(mine) => self.my_games = Some(mine),
                        Err(e) => {
                            self.say(Tone::Error, format!("Your games cannot be read: {e}"));
                            if after_mine == Collection::Tinsley {
                                return;
                            }
                        }
                    }
                }
                match self.my_games {
                    Some(_) => Collection::Mine,
                    None => after_mine,
                }
            }
            Collection::Mine => after_mine,
            Collection::File => Collection::Tinsley,
        };
        self.explorer = Some(0);
    }

    /// The name of the opening the moves to the position shown make, if it has one.
    pub(crate) fn opening(&self) -> Option<&'static str> {
        crate::session::opening_name(self.tree.start(), &self.tree.moves_to_current())
    }

    /// A step through the tree by `step`; `edge` is said when there is none.
    fn step(&mut self, step: fn(&mut MoveTree) -> bool, edge: &str) {
        if step(&mut self.tree) {
            self.restart();
        } else {
            self.say(Tone::Error, edge.to_string());
        }
    }

    /// Enter/Space/click on a square: the board's pick and hops, and the move played
    /// into the tree once whole.
    fn select(&mut self, square: Option<Square>) {
        let pos = *self.tree.position();
        if pos.legal_moves().is_empty() {
            let loser = pos.turn();
            self.say(
                Tone::Error,
                format!("{loser} has no move here: the game would be over"),
            );
            return;
        }
        match self.board.select(square, &pos) {
            Picked::Said(tone, text) => self.say(tone, text),
            Picked::Play(m) => self.play(m),
        }
    }

    /// Plays `m` (legal in the position shown) into the tree.
    fn play(&mut self, m: Move) {
        let pos = *self.tree.position();
        let Some(edit) = self.tree.enter(m) else {
            self.say(Tone::Error, "The tree is full: delete a variation first");
            return;
        };
        let made = matches!(edit, Edit::Played { made: true, .. });
        self.changed(edit);
        self.board.cursor = (m.to().row(), m.to().col());
        let text = m.to_string();
        if made && self.tree.is_variation_move() {
            self.say(Tone::Info, format!("{text}: a new variation"));
        } else {
            self.say(Tone::Info, format!("{} played {text}", pos.turn()));
        }
        self.restart();
    }

    /// Keeps `edit`, a change just made to the tree, for undo: the tree is not saved
    /// as it is now.
    fn changed(&mut self, edit: Edit) {
        // Going on to a move played before changes nothing: nothing to save, nothing
        // for `u` to take back, and what was undone can still be redone.
        if matches!(edit, Edit::Played { made: false, .. }) {
            return;
        }
        self.unsaved = true;
        self.edits.made(edit);
        // The tree went another way: set-ups taken back can no longer be made again.
        self.set_ups_undone.clear();
    }

    /// `u` or `U`: the last change to the tree taken back, or made again (`redo`),
    /// and the board shown where it was made; says which.
    fn undo(&mut self, redo: bool) {
        let edit = if redo {
            self.edits.redo(&mut self.tree)
        } else {
            self.edits.undo(&mut self.tree)
        };
        let Some(edit) = edit.cloned() else {
            if !redo && self.bring_back_earlier() {
                self.say(
                    Tone::Info,
                    "Back to the moves before the set-up (U sets it up again)",
                );
                self.restart();
                return;
            }
            if redo && self.set_up_again() {
                let start = self.tree.start();
                self.say(Tone::Info, format!("Set up again: {start} (u goes back)"));
                self.restart();
                return;
            }
            let none = if redo {
                "Nothing to redo"
            } else if self.edits.can_redo() || !self.set_ups_undone.is_empty() {
                // Every change taken back: moves were entered, and U makes them again.
                "Nothing more to undo (U redoes; < steps back along the line)"
            } else {
                "Nothing to undo: no move entered yet (< steps back along the line)"
            };
            self.say(Tone::Error, none);
            return;
        };
        self.unsaved = true;
        let what = match &edit {
            Edit::Played { to, .. } => {
                let text = self.tree.move_text(*to).unwrap_or_default();
                if redo {
                    format!("Played again: {text}")
                } else {
                    format!("Took back {text}")
                }
            }
            Edit::Promoted { .. } if redo => "Made the main line again".to_string(),
            Edit::Promoted { .. } => "Promotion undone: a variation again".to_string(),
            Edit::Deleted { .. } if redo => "Deleted the variation again".to_string(),
            Edit::Deleted { .. } => "Deletion undone: the variation is back".to_string(),
            Edit::Commented { .. } if redo => "Comment made again".to_string(),
            Edit::Commented { .. } => "Comment change undone".to_string(),
        };
        let more = if redo { "" } else { " (U redoes)" };
        self.say(Tone::Info, format!("{what}{more}"));
        self.restart();
    }

    /// The tree shown before the last set-up shown again, in place of the one set up,
    /// which is kept for redo (the caller restarts the analysis); false if there is
    /// none.
    fn bring_back_earlier(&mut self) -> bool {
        let Some(earlier) = self.earlier.pop() else {
            return false;
        };
        let set_up = self.swap_in(earlier);
        self.set_ups_undone.push(set_up);
        true
    }

    /// The last set-up taken back shown again, with its moves and their changes as
    /// they were (the caller restarts the analysis); false if there is none.
    fn set_up_again(&mut self) -> bool {
        let Some(set_up) = self.set_ups_undone.pop() else {
            return false;
        };
        let before = self.swap_in(set_up);
        self.earlier.push(before);
        true
    }

    /// Shows `tree`'s tree, record and changes in place of those shown, which are
    /// returned.
    fn swap_in(&mut self, tree: Earlier) -> Earlier {
        Earlier {
            tree: std::mem::replace(&mut self.tree, tree.tree),
            record: std::mem::replace(&mut self.record, tree.record),
            edits: std::mem::replace(&mut self.edits, tree.edits),
            unsaved: std::mem::replace(&mut self.unsaved, tree.unsaved),
        }
    }

    /// A key while the position editor is open: the editor's keys (see
    /// [`editor_action`](super::app::editor_action)), the cursor's among them; Enter
    /// analyses the position set up, in a tree of its own, Esc leaves the board as it
    /// was.
    fn set_up_key(&mut self, key: &KeyEvent) {
        let Some(editor) = &mut self.setting_up else {
            return;
        };
        let Some(action) = super::app::editor_action(key, editor.fen.is_some()) else {
            self.say(Tone::Info, SET_UP_WELCOME);
            return;
        };
        if let Action::Cursor(direction) = action {
            let shown = editor.board;
            self.board.move_cursor(direction, &shown);
            return;
        }
        match editor.apply(action, self.board.cursor_square()) {
            Edited::Cancelled => {
                self.setting_up = None;
                self.say(Tone::Info, "No position set up: the board is as it was");
                self.restart();
            }
            Edited::Play(position) => {
                self.setting_up = None;
                self.start_from(position);
            }
            Edited::Said(refused, text) => {
                let tone = if refused { Tone::Error } else { Tone::Info };
                self.say(tone, text);
            }
        }
    }

    /// A new tree from `position`, set up on the board, with a record of its own; the
    /// tree before it is kept for `u` to bring back.
    fn start_from(&mut self, position: Position) {
        // A tree of one position is nothing to lose yet.
        let mut before = self.swap_in(Earlier {
            tree: MoveTree::new(position),
            record: PdnGame::new(position),
            edits: Edits::default(),
            unsaved: false,
        });
        // The set-up is the last change: what was taken back before it stays taken
        // back, so that U after undoing the set-up sets it up again.
        before.edits.forget_undone();
        self.earlier.push(before);
        self.set_ups_undone.clear();
        self.say(
            Tone::Info,
            format!("Analysing the position set up: {position} (u goes back)"),
        );
        self.restart();
    }

    /// Stops the search and drops its lines (while a position is set up).
    fn on_hold(&mut self) {
        self.job += 1;
        self.report = Report {
            id: self.job,
            ..Report::default()
        };
        if let Some(analyser) = &self.analyser {
            analyser.pause();
        }
    }

    /// The record as a save writes it: the loaded record's tags, and for a tree begun
    /// here, the board's Event and today's date. Its result only while the main line is
    /// the one it was recorded for: a game played on (or another line made the main
    /// one) is unfinished, `*`, as a review played on from a record's end is saved.
    pub(crate) fn record_to_write(&self) -> PdnGame {
        record_to_write(&self.record, &self.tree)
    }

    /// Ctrl-C: the moves and variations not saved written as `s` writes them to a new
    /// file in `folder` (the data folder; `None`: there is none), so that the quit that
    /// cannot be asked about loses nothing. See [`Unsaved::keep`].
    pub(crate) fn keep_unsaved(&self, folder: Option<&std::path::Path>) -> Option<Kept> {
        self.unsaved_moves().keep(folder)
    }

    /// The moves and variations not saved (the tree shown, and those before a set-up or
    /// of a set-up taken back, each a game of its own after it), as `s` writes them: kept
    /// by the event loop after each event for a signal that ends the program (SIGTERM,
    /// SIGHUP), whose watcher cannot reach the board itself.
    pub(crate) fn unsaved_moves(&self) -> Unsaved {
        let mut texts = Vec::new();
        if self.unsaved {
            texts.push(crate::pdn::write_tree(&self.record_to_write(), &self.tree));
        }
        for other in self.earlier.iter().rev().chain(&self.set_ups_undone) {
            if other.unsaved {
                let record = record_to_write(&other.record, &other.tree);
                texts.push(crate::pdn::write_tree(&record, &other.tree));
            }
        }
        Unsaved(texts)
    }

    /// `y` or `Y`: the position shown as FEN, or the tree as PDN, handed to the event
    /// loop for the terminal's clipboard (OSC 52), and said.
    fn copy(&mut self, pdn: bool) {
        let (text, said) = if pdn {
            let text = crate::pdn::write_tree(&self.record_to_write(), &self.tree);
            let moves = self.tree.len();
            let plural = if moves == 1 { "" } else { "s" };
            let said = format!("Copied to the clipboard: the game as PDN ({moves} move{plural})");
            (text, said)
        } else {
            let fen = self.tree.position().to_string();
            let said = format!("Copied to the clipboard: {fen}");
            (fen, said)
        };
        if clipboard_bytes(&text) > MAX_CLIPBOARD_BYTES {
            // Said in the text's bytes, which the player can judge, not base64's.
            let most = MAX_CLIPBOARD_BYTES / 4 * 3;
            self.say(
                Tone::Error,
                format!(
                    "Too long for the clipboard ({} bytes; at most {most}): s saves it",
                    text.len()
                ),
            );
            return;
        }
        self.clipboard = Some(text);
        self.say(Tone::Info, said);
    }

    /// The text waiting for the terminal's clipboard, taken by the event loop.
    pub(crate) fn take_clipboard(&mut self) -> Option<String> {
        self.clipboard.take()
    }

    /// Writes the tree as PDN to `path` as `how` says (a new file, added after the
    /// existing file's games, or replacing them), and says where it went or why not.
    fn save(&mut self, path: PathBuf, how: Write) {
        let record = self.record_to_write();
        let text = crate::pdn::write_tree(&record, &self.tree);
        // A file named in a folder that is not there is refused, not given folders.
        let written = crate::store::in_existing_folder(&path).and_then(|()| match how {
            Write::New | Write::Append => {
                crate::store::files::append_text(&path, &text).map(|how| match how {
                    crate::store::Appended::Created => "Saved to",
                    crate::store::Appended::Added => "Added after the games of",
                })
            }
            Write::Replace => crate::store::write_atomic(&path, text.as_bytes())
                .map(|()| "Replaced")
                .map_err(|e| crate::store::files::write_error(&path, e)),
        });
        match written {
            Ok(verb) => {
                let shown = crate::text::printable_path(&path);
                self.say(Tone::Info, format!("{verb} {shown}"));
                self.last_saved = Some(path);
                self.unsaved = false;
            }
            Err(e) => self.say(
                Tone::Error,
                crate::text::printable(&format!("Not saved: {e}"), 300),
            ),
        }
    }
}

impl Drop for AnalysisBoard {
    fn drop(&mut self) {
        self.stop();
    }
}

/// The analysis board's moves not saved, as PDN games ready to be written (see
/// [`AnalysisBoard::unsaved_moves`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Unsaved(Vec<String>);

impl Unsaved {
    /// Writes the games to a new file in `folder` (the data folder; `None`: there is
    /// none). What to tell once the terminal is restored: where they are and how to
    /// open them, or why they could not be kept; `None` when nothing was unsaved.
    pub(crate) fn keep(&self, folder: Option<&std::path::Path>) -> Option<Kept> {
        let texts = &self.0;
        if texts.is_empty() {
            return None;
        }
        let Some(folder) = folder else {
            return Some(Kept::Lost(
                "no data folder (no home folder is known)".to_string(),
            ));
        };
        let path = crate::store::unsaved_analysis_path(folder, crate::store::now_unix());
        let text = texts.join("\n");
        Some(match crate::store::write_atomic(&path, text.as_bytes()) {
            Ok(()) => Kept::Written(path, texts.len()),
            Err(e) => Kept::Lost(crate::store::files::write_error(&path, e).to_string()),
        })
    }
}

/// Where Ctrl-C (or a signal that ends the program) left the analysis board's moves
/// not saved.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Kept {
    /// Written to this file, as this many games.
    Written(PathBuf, usize),
    /// Not written: why.
    Lost(String),
}

impl std::fmt::Display for Kept {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Kept::Written(path, games) => {
                let shown = crate::text::printable_path(path);
                let open = crate::text::printable(&shell_word(&path.to_string_lossy()), 600);
                write!(
                    f,
                    "The analysis not saved is kept in {shown}; to open it: checkers --analyse --load {open}"
                )?;
                if *games > 1 {
                    write!(f, " (its {games} games: --game 2 and on the others)")?;
                }
                Ok(())
            }
            Kept::Lost(why) => write!(
                f,
                "The analysis not saved could not be kept, its moves are lost: {}",
                crate::text::printable(why, 600)
            ),
        }
    }
}

/// `word` as a shell reads it back whole: as it is when it holds nothing the shell
/// reads otherwise, else in single quotes (macOS's data folder has a space in it).
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

/// The record a save writes for `tree`, whose loaded (or begun) record is `record`:
/// its tags, and for a tree begun here, the board's Event and today's date. Its result
/// only while the main line is the one it was recorded for: a game played on (or
/// another line made the main one) is unfinished, `*`, as a review played on from a
/// record's end is saved.
fn record_to_write(record: &PdnGame, tree: &MoveTree) -> PdnGame {
    let mut record = record.clone();
    if tree.main_line() != record.moves {
        record.result = Some("*".to_string());
        record.tags.retain(|(name, _)| {
            !name.eq_ignore_ascii_case("Result") && !name.eq_ignore_ascii_case("Termination")
        });
    }
    // A tree begun here (a loaded record has its Event and Date tags, if only
    // unknown ones: see `keep_as_loaded`).
    if record.tag("Event").is_none() {
        record.set_tag("Event", "Analysis");
    }
    if record.tag("Date").is_none() {
        record.set_tag("Date", &crate::store::today());
    }
    record
}

/// Marks `record` as one read from a file, so that a save from the board keeps its
/// tags as they were: a Date or Event it lacks is written unknown (`????.??.??`, `?`),
/// as the writer writes its other missing roster tags, never today's date or the
/// board's own Event, which only a tree begun on the board gets.
pub(crate) fn keep_as_loaded(record: &mut PdnGame) {
    if record.tag("Date").is_none() {
        record.set_tag("Date", crate::pdn::UNKNOWN_DATE);
    }
    if record.tag("Event").is_none() {
        record.set_tag("Event", "?");
    }
}

/// The tags of a game in play that its analysis keeps: who played it, where and when,
/// at what event (`Event`, `Site`, `Date`, `Round`, `Black`, `White`), and its result
/// with how it came (`Termination`), which stand while its moves stay the main line.
/// Not those that only resume the game itself (its clocks, its moves taken back, its
/// match), which would make the analysis saved another game in play when opened.
const IN_PLAY_TAGS: [&str; 7] = [
    "Event",
    "Site",
    "Date",
    "Round",
    "Black",
    "White",
    "Termination",
];

/// The record of an analysis opened from a game in play (from `start`), whose own
/// record is `game`: its players, event, place and date, its result, and its moves
/// with their clock readings.
pub(crate) fn in_play_record(game: &PdnGame, start: Position) -> PdnGame {
    let mut record = PdnGame::new(start);
    record.tags = game
        .tags
        .iter()
        .filter(|(name, _)| IN_PLAY_TAGS.contains(&name.as_str()))
        .cloned()
        .collect();
    record.result = game.result.clone();
    // Its moves and their clock readings, which a save keeps.
    if game.start == start {
        record.moves = game.moves.clone();
        record.clocks = game.clocks.clone();
    }
    record
}

/// What the board says on opening a record whose move `fault` cannot be played: it
/// is shown up to that move.
pub(crate) fn fault_notice(fault: &crate::pdn::GameError) -> String {
    format!("Shown up to a move that cannot be played: {fault}")
}

/// The tree of game `number` of the PDN file at `path`, with its variations and
/// comments, its record (tags), and where a move cannot be played, the fault (the tree
/// then holds the moves before it); a file that does not read says why.
pub(crate) fn load_tree(
    path: &std::path::Path,
    number: usize,
) -> Result<(PdnGame, MoveTree, Option<Box<crate::pdn::GameError>>), crate::store::StoreError> {
    let (mut record, fault) = crate::store::load_record_up_to_fault(path, number)?;
    keep_as_loaded(&mut record);
    // The file is read again as a stream, the game alone kept with its tree.
    let tree = crate::store::load_record_tree(path, number)
        .map(|(_, tree)| tree)
        .filter(|tree| tree.main_line() == record.moves)
        .unwrap_or_else(|| MoveTree::from_moves(record.start, &record.moves));
    Ok((record, tree, fault))
}
