//! The application state, the actions that change it, and `update`, which applies an
//! action with no I/O. Keys and mouse events become actions in [`App::action_for`].
//!
//! Every rule comes from the rules engine: what may be picked up, where it may land and
//! why a move is refused are all read off the legal-move list.

use super::geometry::screen_layout;
use super::theme::Theme;
use crate::commands::StartingGame;
use crate::computer::{self, Sides, Turn};
use crate::engine::{Level, SearchRequest, SearchResult};
use crate::game::Game;
use crate::rules::{Color, Move, Position, Square};
use crate::store::{self, Players, StoreError};
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;
use std::path::PathBuf;

/// Longest text the move prompt accepts (the longest legal move is far shorter).
const PROMPT_MAX_CHARS: usize = 60;

/// Longest text a save dialog field accepts (paths can be long; names are short).
const FIELD_MAX_CHARS: usize = 1024;

/// The first message: how to start playing.
const WELCOME: &str = "Black moves first: pick a piece with Enter (or click it), or type a move like 11-15. ? shows every key.";

/// The first message when a loaded game opens for review.
const REVIEW_WELCOME: &str = "Review: Left/Right step through the moves, Home/End jump; play a move to go on from here, Esc to stop reviewing.";

/// A direction on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Direction {
    /// Toward the top of the screen.
    Up,
    /// Toward the bottom.
    Down,
    /// Toward the left.
    Left,
    /// Toward the right.
    Right,
}

/// What a key press or click means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Move the cursor one square on the screen.
    Cursor(Direction),
    /// Pick up the piece under the cursor, or land on the square under it.
    Select,
    /// Step back one hop, or put the picked-up piece down.
    Back,
    /// A mouse click at a screen cell (column, row).
    Click {
        /// Screen column.
        column: u16,
        /// Screen row.
        row: u16,
    },
    /// Open the move prompt, starting with this character if any.
    OpenPrompt(Option<char>),
    /// Type a character into the move prompt.
    Type(char),
    /// Delete the prompt's last character.
    Erase,
    /// Play the move typed in the prompt.
    Submit,
    /// Close the prompt without playing.
    CancelPrompt,
    /// Take back the last move.
    Undo,
    /// Play again the last move taken back.
    Redo,
    /// Turn the board half round.
    Flip,
    /// Hand this side to the computer, or back to a person.
    ToggleSide(Color),
    /// Make the thinking computer move now (its best move so far).
    MoveNow,
    /// Ask the engine for a hint for the side to move.
    Hint,
    /// Ask whether to start a new game.
    AskNewGame,
    /// Show or hide the help overlay.
    ToggleHelp,
    /// Quit, asking first when a game is in progress.
    AskQuit,
    /// Quit at once.
    Quit,
    /// Ask who resigns.
    AskResign,
    /// The side to move offers a draw.
    OfferDraw,
    /// Claim a WCDF draw (repetition or forty moves).
    ClaimDraw,
    /// Answer the question on screen.
    Answer(Answer),
    /// Step through the game under review.
    Step(Step),
    /// Stop reviewing and play on from the position shown, changing nothing.
    LeaveReview,
    /// Open the save dialog.
    OpenSave,
    /// Move to the save dialog's next field.
    NextField,
    /// Move to the save dialog's previous field.
    PreviousField,
    /// Empty the save dialog's current field.
    ClearField,
    /// Move the text cursor within the save dialog's current field.
    MoveInField(FieldMotion),
    /// Delete the character under the text cursor in the save dialog.
    Delete,
    /// Save with the dialog's path and names.
    ConfirmSave,
    /// Close the save dialog without saving.
    CancelSave,
    /// The terminal was resized.
    Resize {
        /// New width.
        width: u16,
        /// New height.
        height: u16,
    },
}

/// A step through the game under review.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// One move back.
    Back,
    /// One move forward.
    Forward,
    /// To the first position.
    Start,
    /// To the last move.
    End,
}

/// An answer to a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Yes.
    Yes,
    /// No, or cancel.
    No,
    /// This side (for "who resigns?").
    Side(Color),
}

/// A question waiting for an answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Quit with a game in progress?
    Quit,
    /// Abandon this game for a new one?
    NewGame,
    /// Which side resigns?
    Resign,
    /// The given side offers a draw: does the other accept?
    Draw(Color),
}

/// What the keyboard is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Playing on the board.
    Board,
    /// Typing a move.
    Prompt(String),
    /// Waiting for an answer.
    Asking(Question),
    /// The help overlay is shown.
    Help,
    /// The save dialog is open.
    Save(SaveDialog),
}

/// A movement of the text cursor within a save dialog field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FieldMotion {
    /// One character left.
    Left,
    /// One character right.
    Right,
    /// To the start.
    Home,
    /// To the end.
    End,
}

/// A field of the save dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SaveField {
    /// The file to write.
    Path,
    /// Black's name.
    Black,
    /// White's name.
    White,
}

impl SaveField {
    /// The fields in the order Tab visits them.
    pub const ALL: [SaveField; 3] = [SaveField::Path, SaveField::Black, SaveField::White];

    fn index(self) -> usize {
        match self {
            SaveField::Path => 0,
            SaveField::Black => 1,
            SaveField::White => 2,
        }
    }

    /// The field after this one (wrapping round).
    pub fn next(self) -> SaveField {
        SaveField::ALL[(self.index() + 1) % 3]
    }

    /// The field before this one (wrapping round).
    pub fn previous(self) -> SaveField {
        SaveField::ALL[(self.index() + 2) % 3]
    }
}

/// The save dialog: where to write the game, and the players' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveDialog {
    /// The file path, as typed.
    pub path: String,
    /// Black's name, as typed.
    pub black: String,
    /// White's name, as typed.
    pub white: String,
    /// The field being edited.
    pub focus: SaveField,
    /// Where typing goes in the focused field: a character index, `0..=length`.
    pub cursor: usize,
    /// A path that names an existing file the player agreed to replace (by pressing
    /// Enter again after being told).
    pub replace: Option<String>,
}

impl SaveDialog {
    /// The text of `field`.
    pub fn field(&self, field: SaveField) -> &str {
        match field {
            SaveField::Path => &self.path,
            SaveField::Black => &self.black,
            SaveField::White => &self.white,
        }
    }

    fn focused_mut(&mut self) -> &mut String {
        match self.focus {
            SaveField::Path => &mut self.path,
            SaveField::Black => &mut self.black,
            SaveField::White => &mut self.white,
        }
    }

    /// Moves to `field`, with the text cursor at its end.
    pub fn focus_on(&mut self, field: SaveField) {
        self.focus = field;
        self.cursor = self.field(field).chars().count();
    }

    /// The byte offset of the text cursor in the focused field (kept within it).
    fn cursor_byte(&self) -> usize {
        let text = self.field(self.focus);
        text.char_indices()
            .nth(self.cursor)
            .map_or(text.len(), |(i, _)| i)
    }

    fn insert(&mut self, c: char) {
        let at = self.cursor_byte();
        let text = self.focused_mut();
        if text.chars().count() < FIELD_MAX_CHARS {
            text.insert(at, c);
            self.cursor += 1;
        }
    }

    fn erase_before(&mut self) {
        if self.cursor > 0 {
            self.cursor -= 1;
            self.erase_at();
        }
    }

    fn erase_at(&mut self) {
        let at = self.cursor_byte();
        let text = self.focused_mut();
        if at < text.len() {
            text.remove(at);
        }
    }

    fn move_cursor(&mut self, motion: FieldMotion) {
        let length = self.field(self.focus).chars().count();
        self.cursor = match motion {
            FieldMotion::Left => self.cursor.saturating_sub(1),
            FieldMotion::Right => (self.cursor + 1).min(length),
            FieldMotion::Home => 0,
            FieldMotion::End => length,
        };
    }
}

/// A save the dialog asked for; the event loop writes it and reports back with
/// [`App::save_finished`], so [`App::update`] stays free of I/O.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SaveRequest {
    /// The file to write, as typed (a leading `~/` is the home directory).
    pub path: PathBuf,
    /// The names to write, kept for later saves once the save succeeds.
    pub players: Players,
    /// Whether an existing file at `path` may be replaced.
    pub replace: bool,
}

/// A game opened from a file to step through.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Review {
    /// The record's tags (name, value), in file order.
    pub tags: Vec<(String, String)>,
    /// The game as the record has it: every move, and its ending (resignation or draw)
    /// when the board alone does not show it.
    pub recorded: Game,
}

impl Review {
    /// The value of tag `name`, if the record has it.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// How a message should look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tone {
    /// Information.
    Info,
    /// Something was refused.
    Error,
}

/// A piece picked up, and the hops chosen so far in building its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Where the piece stands.
    pub from: Square,
    /// The landing squares chosen so far (a multi-jump is built one hop at a time).
    pub hops: Vec<Square>,
}

/// Start-up choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// White at the bottom.
    pub flipped: bool,
    /// Whether mouse clicks are wanted.
    pub mouse: bool,
    /// Colours and glyphs.
    pub theme: Theme,
    /// Who plays each side.
    pub sides: Sides,
    /// The computer players' level.
    pub level: Level,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            flipped: false,
            mouse: true,
            theme: Theme::new(true, false),
            sides: Sides::default(),
            level: Level::default(),
        }
    }
}

/// What a search is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Purpose {
    /// The computer's move for this side.
    Move(Color),
    /// A hint for the side to move.
    Hint,
}

/// A search the game wants, tagged with the game revision it was asked for: a result
/// is applied only while the game is still at that revision and still wants it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    /// What the search is for.
    pub purpose: Purpose,
    /// [`App::revision`] when it was asked for.
    pub revision: u64,
}

/// What the running search has reported so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thinking {
    /// The search reporting.
    pub spec: SearchSpec,
    /// The deepest iteration completed.
    pub depth: u32,
}

/// The whole state of the terminal game.
#[derive(Clone, Debug)]
pub struct App {
    /// The game being played.
    pub game: Game,
    /// The board cell under the cursor: `(row, col)` as in [`Square::row`] / [`Square::col`].
    pub cursor: (u8, u8),
    /// The piece picked up, if any.
    pub pick: Option<Pick>,
    /// What the keyboard is doing.
    pub mode: Mode,
    /// White at the bottom.
    pub flipped: bool,
    /// Colours and glyphs.
    pub theme: Theme,
    /// Whether mouse clicks are used.
    pub mouse: bool,
    /// The terminal's size, kept up to date by [`Action::Resize`]; mouse clicks are
    /// mapped to squares with the same layout function the view uses for this size.
    pub screen: Rect,
    /// The message on the status line.
    pub message: Option<(Tone, String)>,
    /// Set when the program should end.
    pub quit: bool,
    /// The players' names, for saved games and the autosave.
    pub players: Players,
    /// Set while stepping through a game opened with `--load`; `None` once play goes on.
    pub review: Option<Review>,
    /// A save waiting for the event loop to write it.
    pub save_request: Option<SaveRequest>,
    /// Whether the last autosave failed (the quit question then says the game is not saved).
    pub autosave_failed: bool,
    /// Who plays each side.
    pub sides: Sides,
    /// The computer players' level.
    pub level: Level,
    /// Counts changes to the game: a search is tagged with the revision it was made
    /// for, and its result is refused once the game has changed.
    pub revision: u64,
    /// A hint was asked for at this revision and is still awaited.
    pub hint_wanted: Option<u64>,
    /// The hint found, and the revision it is for (shown only while that is current).
    pub hint: Option<(u64, Move)>,
    /// Progress of the running search, as last reported.
    pub thinking: Option<Thinking>,
    /// Set when the player asked the computer to move now; the event loop stops the
    /// search (and clears this), and its result is played.
    pub move_now: bool,
    /// Varies the computer players' randomness from game to game.
    pub seed: u64,
}

impl App {
    /// A new game on a screen of `width` x `height`.
    pub fn new(settings: Settings, width: u16, height: u16) -> App {
        App::with_game(settings, StartingGame::default(), width, height)
    }

    /// The game `start` on a screen of `width` x `height`: a game to review opens at its
    /// first position with every move ready to step through; any other game goes on
    /// where it is.
    pub fn with_game(settings: Settings, start: StartingGame, width: u16, height: u16) -> App {
        let StartingGame {
            mut game,
            players,
            review,
            tags,
        } = start;
        let review = review.then(|| {
            // Only the record's own moves are stepped through: a fresh game from its
            // start, so no declared ending or older redo list comes along.
            let mut line = Game::from_position(*game.start());
            for m in game.moves() {
                // Each move came from this game, so each is legal in turn.
                let _ = line.play(m);
            }
            while line.undo() {}
            let recorded = std::mem::replace(&mut game, line);
            Review { tags, recorded }
        });
        let message = if review.is_some() {
            REVIEW_WELCOME.to_string()
        } else if game.moves().is_empty()
            && *game.start() == Position::start()
            && settings.sides.is_cpu(Color::Black)
        {
            format!(
                "{} moves first. m makes it move now; ? shows every key.",
                computer::player_name(Color::Black, settings.level)
            )
        } else if game.moves().is_empty() && *game.start() == Position::start() {
            WELCOME.to_string()
        } else {
            match game.result() {
                Some(outcome) => format!("{outcome}. u undoes, n starts a new game."),
                None => format!(
                    "{} to move. Pick a piece with Enter or type a move; ? shows every key.",
                    game.position().turn()
                ),
            }
        };
        App {
            game,
            // Square 11: a Black man with a move, where play usually starts.
            cursor: (2, 2),
            pick: None,
            mode: Mode::Board,
            flipped: settings.flipped,
            theme: settings.theme,
            mouse: settings.mouse,
            screen: Rect::new(0, 0, width, height),
            message: Some((Tone::Info, message)),
            quit: false,
            players,
            review,
            save_request: None,
            autosave_failed: false,
            sides: settings.sides,
            level: settings.level,
            revision: 0,
            hint_wanted: None,
            hint: None,
            thinking: None,
            move_now: false,
            seed: 0,
        }
    }

    /// The search the game wants now, if any: the computer's move when a computer
    /// player is to move (not while reviewing a file), else a hint that was asked for.
    pub fn wanted_search(&self) -> Option<SearchSpec> {
        if self.game.is_over() {
            return None;
        }
        let turn = self.position().turn();
        // While a file is reviewed the computer waits: stepping is not playing.
        let purpose = if self.sides.is_cpu(turn) && self.review.is_none() {
            Purpose::Move(turn)
        } else if self.hint_wanted == Some(self.revision) {
            Purpose::Hint
        } else {
            return None;
        };
        Some(SearchSpec {
            purpose,
            revision: self.revision,
        })
    }

    /// The engine's request for the search `spec`.
    pub fn search_request(&self, spec: SearchSpec) -> SearchRequest {
        match spec.purpose {
            Purpose::Move(_) => computer::move_request(
                &self.game,
                self.level,
                self.seed ^ spec.revision.wrapping_mul(0x9E37_79B9_7F4A_7C15),
            ),
            Purpose::Hint => computer::hint_request(&self.game),
        }
    }

    /// The search `spec` completed an iteration of `depth`. Returns whether the screen
    /// should show it (the search is still wanted and went deeper).
    pub fn search_progress(&mut self, spec: SearchSpec, depth: u32) -> bool {
        if self.wanted_search() != Some(spec) {
            return false;
        }
        let deeper = self
            .thinking
            .is_none_or(|t| t.spec != spec || t.depth < depth);
        if deeper {
            self.thinking = Some(Thinking { spec, depth });
        }
        deeper
    }

    /// The search `spec` ended with `result`: the computer plays (or claims a draw, or
    /// resigns), or the hint is shown. A result for a search the game no longer wants
    /// (the position changed, the side was handed back) is refused: returns false.
    pub fn search_done(&mut self, spec: SearchSpec, result: &SearchResult) -> bool {
        if self.wanted_search() != Some(spec) {
            return false;
        }
        self.thinking = None;
        match spec.purpose {
            Purpose::Move(color) => {
                let Some(turn) = computer::take_turn(&mut self.game, self.level, result) else {
                    return false;
                };
                self.revision += 1;
                self.move_now = false;
                let mut text = turn.describe(color, self.level);
                // Keep the person's move in view: "Black played 11-15; White (level 5) ...".
                if let Some((Tone::Info, previous)) = &self.message
                    && previous.starts_with(&format!("{} played ", !color))
                    && matches!(turn, Turn::Played(_))
                {
                    text = format!("{previous}; {text}");
                }
                if self.sides.both_cpu()
                    && let Some(adjudicated) = computer::adjudicate(&mut self.game)
                {
                    self.revision += 1;
                    text = format!("{text} {adjudicated}");
                }
                self.info(text);
            }
            Purpose::Hint => {
                let Some(m) = result.best_move else {
                    return false;
                };
                let pos = self.position();
                if !pos.is_legal(&m) {
                    return false;
                }
                let how = if pos.legal_moves().len() == 1 {
                    " (the only legal move)".to_string()
                } else if result.depth > 0 {
                    format!(" (searched {} plies deep)", result.depth)
                } else {
                    String::new()
                };
                let text = format!(
                    "Hint for {}: {}{how}. It is not played.",
                    pos.turn(),
                    pos.notation(&m),
                );
                self.hint_wanted = None;
                self.hint = Some((self.revision, m));
                self.info(text);
            }
        }
        true
    }

    /// The names a saved record gets: the players' names, and for a side the computer
    /// plays with no name given, "checkers (level N)".
    pub fn record_players(&self) -> Players {
        let mut players = self.players.clone();
        for (color, name) in [
            (Color::Black, &mut players.black),
            (Color::White, &mut players.white),
        ] {
            if self.sides.is_cpu(color) && name.is_none() {
                *name = Some(format!("checkers ({})", self.level));
            }
        }
        players
    }

    /// The hint to show on the board: only while the position it is for is on screen.
    pub fn current_hint(&self) -> Option<Move> {
        self.hint
            .filter(|(revision, _)| *revision == self.revision)
            .map(|(_, m)| m)
    }

    /// The line saying the computer is thinking, while it is.
    pub fn thinking_text(&self) -> Option<String> {
        let spec = self.wanted_search()?;
        let depth = self
            .thinking
            .filter(|t| t.spec == spec && t.depth > 0)
            .map(|t| format!(" depth {}", t.depth))
            .unwrap_or_default();
        Some(match spec.purpose {
            Purpose::Move(color) => format!("{color} is thinking...{depth}"),
            Purpose::Hint => format!("Looking for a hint...{depth}"),
        })
    }

    /// Refuses a human move when the computer plays the side to move.
    fn computers_turn(&mut self) -> bool {
        let turn = self.position().turn();
        if self.sides.is_cpu(turn) && !self.game.is_over() && self.review.is_none() {
            let key = if turn == Color::Black { 'b' } else { 'w' };
            self.error(format!(
                "{} plays {turn}: m makes it move now, {key} hands {turn} back to you",
                computer::player_name(turn, self.level)
            ));
            true
        } else {
            false
        }
    }

    /// Which move of the game under review is shown, and how many it has: `(k, n)`
    /// for "move k of n" (k is 0 at the first position).
    pub fn review_progress(&self) -> (usize, usize) {
        let shown = self.game.moves().len();
        (shown, shown + self.game.undone_moves().len())
    }

    /// The game a save writes: the whole recorded game while reviewing one (wherever
    /// the review stands), otherwise the game as it is, undo history included.
    pub fn game_to_save(&self) -> &Game {
        match &self.review {
            Some(review) => &review.recorded,
            None => &self.game,
        }
    }

    /// Shows a message on the status line (for news from the event loop, such as a
    /// failed autosave).
    pub fn notify(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Some((tone, text.into()));
    }

    /// Reports that the save asked for in `request` would replace an existing file:
    /// nothing was written, and Enter again (with the same path) replaces it.
    pub fn save_would_replace(&mut self, request: SaveRequest) {
        let path = request.path.display().to_string();
        if let Mode::Save(dialog) = &mut self.mode {
            dialog.replace = Some(path.clone());
        }
        self.error(format!(
            "{path} already exists: Enter again replaces it, or edit the path"
        ));
    }

    /// Reports how the save asked for in `request` went: on success the names entered
    /// are kept and the dialog closes; on failure the dialog stays open with the reason,
    /// and nothing else changes.
    pub fn save_finished(&mut self, request: SaveRequest, result: Result<(), StoreError>) {
        match result {
            Ok(()) => {
                self.players = request.players;
                if matches!(self.mode, Mode::Save(_)) {
                    self.mode = Mode::Board;
                }
                self.info(format!("Saved to {}", request.path.display()));
            }
            Err(e) => self.error(format!("Not saved: {e}")),
        }
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        self.game.position()
    }

    /// The dark square under the cursor (`None` on a light square).
    pub fn cursor_square(&self) -> Option<Square> {
        Square::from_row_col(self.cursor.0, self.cursor.1)
    }

    /// The legal moves that continue the picked-up piece's hops so far.
    pub fn pick_candidates(&self) -> Vec<Move> {
        let Some(pick) = &self.pick else {
            return Vec::new();
        };
        self.position()
            .legal_moves()
            .into_iter()
            .filter(|m| {
                m.from() == pick.from
                    && m.landings()
                        .take(pick.hops.len())
                        .eq(pick.hops.iter().copied())
            })
            .collect()
    }

    /// Where the picked-up piece may land next.
    pub fn targets(&self) -> Vec<Square> {
        let hops = self.pick.as_ref().map_or(0, |p| p.hops.len());
        let mut targets: Vec<Square> = self
            .pick_candidates()
            .iter()
            .filter_map(|m| m.landings().nth(hops))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        targets
    }

    /// The pieces jumped so far by the multi-jump being built: each lies midway between
    /// two successive squares of the route.
    pub fn jumped_so_far(&self) -> Vec<Square> {
        let Some(pick) = &self.pick else {
            return Vec::new();
        };
        std::iter::once(pick.from)
            .chain(pick.hops.iter().copied())
            .zip(pick.hops.iter().copied())
            .filter_map(|(a, b)| {
                // Rows and columns are 0-7, so the sums cannot overflow.
                Square::from_row_col((a.row() + b.row()) / 2, (a.col() + b.col()) / 2)
            })
            .collect()
    }

    /// Turns a terminal event into an action for the current mode. Key releases and
    /// repeats mean nothing.
    pub fn action_for(&self, event: &Event) -> Option<Action> {
        match event {
            Event::Key(key) => self.key_action(key),
            Event::Mouse(mouse) => match mouse.kind {
                MouseEventKind::Down(MouseButton::Left)
                    if self.mouse && self.mode == Mode::Board =>
                {
                    Some(Action::Click {
                        column: mouse.column,
                        row: mouse.row,
                    })
                }
                _ => None,
            },
            Event::Resize(width, height) => Some(Action::Resize {
                width: *width,
                height: *height,
            }),
            _ => None,
        }
    }

    fn key_action(&self, key: &KeyEvent) -> Option<Action> {
        if key.kind != KeyEventKind::Press {
            return None;
        }
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        if ctrl && matches!(key.code, KeyCode::Char('c' | 'C')) {
            return Some(Action::Quit);
        }
        match &self.mode {
            Mode::Help => Some(Action::ToggleHelp),
            Mode::Save(_) => match key.code {
                KeyCode::Enter => Some(Action::ConfirmSave),
                KeyCode::Char('s' | 'S') if ctrl => Some(Action::ConfirmSave),
                KeyCode::Char('u' | 'U') if ctrl => Some(Action::ClearField),
                KeyCode::Esc => Some(Action::CancelSave),
                KeyCode::Tab | KeyCode::Down => Some(Action::NextField),
                KeyCode::BackTab | KeyCode::Up => Some(Action::PreviousField),
                KeyCode::Backspace => Some(Action::Erase),
                KeyCode::Delete => Some(Action::Delete),
                KeyCode::Left => Some(Action::MoveInField(FieldMotion::Left)),
                KeyCode::Right => Some(Action::MoveInField(FieldMotion::Right)),
                KeyCode::Home => Some(Action::MoveInField(FieldMotion::Home)),
                KeyCode::End => Some(Action::MoveInField(FieldMotion::End)),
                KeyCode::Char(c) if !ctrl && !c.is_control() => Some(Action::Type(c)),
                _ => None,
            },
            Mode::Asking(question) => match (question, key.code) {
                (Question::Resign, KeyCode::Char('b' | 'B')) => {
                    Some(Action::Answer(Answer::Side(Color::Black)))
                }
                (Question::Resign, KeyCode::Char('w' | 'W')) => {
                    Some(Action::Answer(Answer::Side(Color::White)))
                }
                (Question::Resign, KeyCode::Char('n' | 'N') | KeyCode::Esc) => {
                    Some(Action::Answer(Answer::No))
                }
                (Question::Resign, _) => None,
                (_, KeyCode::Char('y' | 'Y')) => Some(Action::Answer(Answer::Yes)),
                (_, KeyCode::Char('n' | 'N') | KeyCode::Esc) => Some(Action::Answer(Answer::No)),
                _ => None,
            },
            Mode::Prompt(_) => match key.code {
                KeyCode::Enter => Some(Action::Submit),
                KeyCode::Esc => Some(Action::CancelPrompt),
                KeyCode::Backspace => Some(Action::Erase),
                KeyCode::Char(c) if !ctrl && !c.is_control() => Some(Action::Type(c)),
                _ => None,
            },
            Mode::Board => match key.code {
                KeyCode::Char('r') if ctrl => Some(Action::Redo),
                KeyCode::Char('s') if ctrl => Some(Action::OpenSave),
                _ if ctrl => None,
                KeyCode::Left if self.review.is_some() => Some(Action::Step(Step::Back)),
                KeyCode::Right if self.review.is_some() => Some(Action::Step(Step::Forward)),
                KeyCode::Home if self.review.is_some() => Some(Action::Step(Step::Start)),
                KeyCode::End if self.review.is_some() => Some(Action::Step(Step::End)),
                KeyCode::Esc if self.review.is_some() && self.pick.is_none() => {
                    Some(Action::LeaveReview)
                }
                KeyCode::Up | KeyCode::Char('k') => Some(Action::Cursor(Direction::Up)),
                KeyCode::Down | KeyCode::Char('j') => Some(Action::Cursor(Direction::Down)),
                KeyCode::Left | KeyCode::Char('h') => Some(Action::Cursor(Direction::Left)),
                KeyCode::Right | KeyCode::Char('l') => Some(Action::Cursor(Direction::Right)),
                KeyCode::Enter | KeyCode::Char(' ') => Some(Action::Select),
                KeyCode::Esc | KeyCode::Backspace => Some(Action::Back),
                KeyCode::Char(c) if c.is_ascii_digit() => Some(Action::OpenPrompt(Some(c))),
                KeyCode::Char(':') => Some(Action::OpenPrompt(None)),
                KeyCode::Char('u') => Some(Action::Undo),
                KeyCode::Char('U') => Some(Action::Redo),
                KeyCode::Char('f') => Some(Action::Flip),
                KeyCode::Char('n') => Some(Action::AskNewGame),
                KeyCode::Char('?') => Some(Action::ToggleHelp),
                KeyCode::Char('q') => Some(Action::AskQuit),
                KeyCode::Char('r') => Some(Action::AskResign),
                KeyCode::Char('d') => Some(Action::OfferDraw),
                KeyCode::Char('c') => Some(Action::ClaimDraw),
                KeyCode::Char('s') => Some(Action::OpenSave),
                KeyCode::Char('b') => Some(Action::ToggleSide(Color::Black)),
                KeyCode::Char('w') => Some(Action::ToggleSide(Color::White)),
                KeyCode::Char('m') => Some(Action::MoveNow),
                KeyCode::Char('t') => Some(Action::Hint),
                _ => None,
            },
        }
    }

    /// Handles a terminal event: maps it to an action and applies it. Returns whether
    /// anything happened (and the screen should be redrawn).
    pub fn handle_event(&mut self, event: &Event) -> bool {
        match self.action_for(event) {
            Some(action) => {
                self.update(action);
                true
            }
            None => false,
        }
    }

    fn info(&mut self, text: impl Into<String>) {
        self.message = Some((Tone::Info, text.into()));
    }

    fn error(&mut self, text: impl Into<String>) {
        self.message = Some((Tone::Error, text.into()));
    }

    /// Applies an action. No I/O. Any change to the game moves on [`App::revision`],
    /// so that a search made for the game as it was is not applied.
    pub fn update(&mut self, action: Action) {
        let before = self.game.clone();
        self.apply(action);
        if self.game != before {
            self.revision += 1;
            self.thinking = None;
            self.move_now = false;
        }
    }

    fn apply(&mut self, action: Action) {
        match action {
            Action::Resize { width, height } => {
                self.screen = Rect::new(0, 0, width, height);
                return;
            }
            Action::Quit => {
                self.quit = true;
                return;
            }
            // Typing keeps the reason a move was refused on screen while it is edited.
            Action::Type(_) | Action::Erase => {}
            _ => self.message = None,
        }
        match action {
            Action::Select | Action::Click { .. } | Action::OpenPrompt(_) | Action::Submit
                if self.computers_turn() =>
            {
                if let Action::Click { column, row } = action
                    && let Some(layout) = screen_layout(self.screen, self.flipped)
                    && let Some(cell) = layout.board.cell_at(column, row)
                {
                    self.cursor = cell;
                }
                self.pick = None;
                self.mode = Mode::Board;
            }
            Action::Cursor(direction) => self.move_cursor(direction),
            Action::Select => self.select(self.cursor_square()),
            Action::Back => self.back(),
            Action::Click { column, row } => self.click(column, row),
            Action::ToggleSide(color) => self.toggle_side(color),
            Action::MoveNow => match self.wanted_search() {
                Some(SearchSpec {
                    purpose: Purpose::Move(color),
                    ..
                }) => {
                    self.move_now = true;
                    self.info(format!(
                        "{} moves now",
                        computer::player_name(color, self.level)
                    ));
                }
                _ => self.error("The computer is not thinking: nothing to hurry"),
            },
            Action::Hint => self.ask_hint(),
            Action::OpenPrompt(first) => {
                if let Some(outcome) = self.game.result() {
                    self.error(format!(
                        "The game is over ({outcome}). u undoes, n starts a new game."
                    ));
                } else {
                    self.pick = None;
                    self.mode = Mode::Prompt(first.map(String::from).unwrap_or_default());
                }
            }
            Action::Type(c) => match &mut self.mode {
                Mode::Prompt(text) if text.chars().count() < PROMPT_MAX_CHARS => text.push(c),
                Mode::Save(dialog) => dialog.insert(c),
                _ => {}
            },
            Action::Erase => match &mut self.mode {
                Mode::Prompt(text) => {
                    text.pop();
                }
                Mode::Save(dialog) => dialog.erase_before(),
                _ => {}
            },
            Action::Submit => self.submit(),
            Action::CancelPrompt => self.mode = Mode::Board,
            Action::Undo => self.undo(),
            Action::Redo => self.redo(),
            Action::Flip => {
                self.flipped = !self.flipped;
                let bottom = if self.flipped { "White" } else { "Black" };
                self.info(format!("Board flipped: {bottom} at the bottom"));
            }
            Action::AskNewGame => self.mode = Mode::Asking(Question::NewGame),
            Action::ToggleHelp => {
                self.mode = if self.mode == Mode::Help {
                    Mode::Board
                } else {
                    Mode::Help
                }
            }
            Action::AskQuit => {
                // A game under review is the file's, already kept on disk.
                if self.game.moves().is_empty() || self.game.is_over() || self.review.is_some() {
                    self.quit = true;
                } else {
                    self.mode = Mode::Asking(Question::Quit);
                }
            }
            Action::AskResign => match self.game.result() {
                Some(outcome) => self.error(format!("The game is already over ({outcome})")),
                None => self.mode = Mode::Asking(Question::Resign),
            },
            Action::OfferDraw if self.sides.is_cpu(self.position().turn()) => {
                let turn = self.position().turn();
                self.error(format!(
                    "The computer plays {turn}, whose move it is: offer a draw on your own move"
                ));
            }
            Action::OfferDraw if self.sides.is_cpu(!self.position().turn()) => {
                self.computer_answers_draw_offer();
            }
            Action::OfferDraw => {
                let side = self.position().turn();
                match self.game.offer_draw(side) {
                    Ok(()) => {
                        self.review = None;
                        self.mode = Mode::Asking(Question::Draw(side));
                    }
                    Err(e) => self.error(capitalize(&e.to_string())),
                }
            }
            // Only the player about to move may claim (WCDF): not for the computer.
            Action::ClaimDraw if self.computers_turn() => {
                self.error(
                    "Only the player to move may claim a draw, and that is the computer now",
                );
            }
            Action::ClaimDraw => match self.game.claim_draw() {
                Ok(outcome) => {
                    self.pick = None;
                    self.review = None;
                    self.info(format!("{outcome}."));
                }
                Err(e) => self.error(capitalize(&e.to_string())),
            },
            Action::Answer(answer) => self.answer(answer),
            Action::Step(step) => self.step(step),
            Action::LeaveReview => {
                if self.review.take().is_some() {
                    self.info(
                        "Review over: play on from this position (U replays the recorded moves)",
                    );
                }
            }
            Action::OpenSave => {
                self.pick = None;
                let path = store::default_save_path(store::now_unix())
                    .map(|p| p.display().to_string())
                    .unwrap_or_default();
                let mut dialog = SaveDialog {
                    path,
                    black: self.record_players().black.unwrap_or_default(),
                    white: self.record_players().white.unwrap_or_default(),
                    focus: SaveField::Path,
                    cursor: 0,
                    replace: None,
                };
                dialog.focus_on(SaveField::Path);
                self.mode = Mode::Save(dialog);
            }
            Action::NextField
            | Action::PreviousField
            | Action::ClearField
            | Action::MoveInField(_)
            | Action::Delete => {
                if let Mode::Save(dialog) = &mut self.mode {
                    match action {
                        Action::NextField => dialog.focus_on(dialog.focus.next()),
                        Action::PreviousField => dialog.focus_on(dialog.focus.previous()),
                        Action::MoveInField(motion) => dialog.move_cursor(motion),
                        Action::Delete => dialog.erase_at(),
                        _ => {
                            dialog.focused_mut().clear();
                            dialog.cursor = 0;
                        }
                    }
                }
            }
            Action::ConfirmSave => self.confirm_save(),
            Action::CancelSave => {
                if matches!(self.mode, Mode::Save(_)) {
                    self.mode = Mode::Board;
                    self.info("Not saved");
                }
            }
            Action::Resize { .. } | Action::Quit => {}
        }
    }

    fn confirm_save(&mut self) {
        let Mode::Save(dialog) = &self.mode else {
            return;
        };
        let path = dialog.path.trim();
        if path.is_empty() {
            self.error("Type the file to save to");
            return;
        }
        let name = |text: &str| {
            let text = text.trim();
            (!text.is_empty()).then(|| text.to_string())
        };
        self.save_request = Some(SaveRequest {
            path: PathBuf::from(path),
            players: Players {
                black: name(&dialog.black),
                white: name(&dialog.white),
            },
            replace: dialog.replace.as_deref() == Some(path),
        });
    }

    fn step(&mut self, step: Step) {
        self.pick = None;
        match step {
            Step::Back => {
                self.game.undo();
            }
            Step::Forward => {
                self.game.redo();
            }
            Step::Start => while self.game.undo() {},
            Step::End => while self.game.redo() {},
        }
        let (shown, total) = self.review_progress();
        // The position before the last move is the one before last.
        let before = self.game.positions().iter().rev().nth(1);
        // Turns count each side's moves; the number shown with the move is the record's
        // move number (a pair of turns), as in the move list.
        let text = match (self.game.moves().last(), before) {
            (Some(m), Some(before)) => {
                let (number, color) = crate::pdn::move_number(self.game.start(), shown - 1);
                let dots = if color == Color::Black { "." } else { "..." };
                format!(
                    "Turn {shown} of {total}: {color} played {number}{dots} {}",
                    before.notation(m)
                )
            }
            _ => format!("The first position (turn 0 of {total})"),
        };
        self.info(text);
    }

    fn move_cursor(&mut self, direction: Direction) {
        // On a flipped board, screen directions run the other way over board rows/columns.
        let (up, right): (i8, i8) = if self.flipped { (-1, -1) } else { (1, 1) };
        let (dr, dc) = match direction {
            Direction::Up => (up, 0),
            Direction::Down => (-up, 0),
            Direction::Left => (0, -right),
            Direction::Right => (0, right),
        };
        let step = |v: u8, d: i8| v.saturating_add_signed(d).min(7);
        self.cursor = (step(self.cursor.0, dr), step(self.cursor.1, dc));
    }

    fn click(&mut self, column: u16, row: u16) {
        let Some(layout) = screen_layout(self.screen, self.flipped) else {
            return;
        };
        if let Some(cell) = layout.board.cell_at(column, row) {
            self.cursor = cell;
            self.select(self.cursor_square());
        }
    }

    /// Enter/Space/click on a square: pick up, land, switch piece or explain.
    fn select(&mut self, square: Option<Square>) {
        if let Some(outcome) = self.game.result() {
            self.error(format!(
                "The game is over ({outcome}). u undoes, n starts a new game."
            ));
            return;
        }
        let Some(sq) = square else {
            self.error("Light square: checkers is played on the dark, numbered squares only");
            return;
        };
        let Some(pick) = self.pick.clone() else {
            self.pick_up(sq);
            return;
        };
        let targets = self.targets();
        if targets.contains(&sq) {
            self.hop(sq);
        } else if sq == pick.from && pick.hops.is_empty() {
            self.pick = None;
            self.info(format!("Put the piece on {sq} down"));
        } else if pick.hops.is_empty() && self.movable(sq) {
            self.pick_up(sq);
        } else {
            let list = join_or(targets.iter().map(Square::to_string));
            self.error(format!(
                "The piece from {} cannot land on {sq}: choose {list} (Esc steps back)",
                pick.from
            ));
        }
    }

    fn movable(&self, sq: Square) -> bool {
        self.position().legal_moves().iter().any(|m| m.from() == sq)
    }

    fn pick_up(&mut self, sq: Square) {
        let pos = *self.position();
        let turn = pos.turn();
        match pos.piece_at(sq) {
            None => self.error(format!("No piece on {sq}: pick up one of {turn}'s pieces")),
            Some(piece) if piece.color != turn => self.error(format!(
                "The {piece} on {sq} is not yours: {turn} is to move"
            )),
            Some(piece) => {
                let legal = pos.legal_moves();
                if legal.iter().any(|m| m.from() == sq) {
                    self.pick = Some(Pick {
                        from: sq,
                        hops: Vec::new(),
                    });
                    let targets = join_or(self.targets().iter().map(Square::to_string));
                    self.info(format!(
                        "{} on {sq} picked up: land on {targets} (Esc puts it down)",
                        capitalize(&piece.to_string())
                    ));
                } else if legal.iter().any(Move::is_capture) {
                    let captures = join_or(legal.iter().map(|m| pos.notation(m)));
                    self.error(format!(
                        "A capture is compulsory: {captures}; the {} on {sq} cannot capture",
                        piece.role.name()
                    ));
                } else {
                    self.error(format!(
                        "The {} on {sq} is blocked: it has no legal move",
                        piece.role.name()
                    ));
                }
            }
        }
    }

    fn hop(&mut self, sq: Square) {
        let Some(pick) = &mut self.pick else {
            return;
        };
        pick.hops.push(sq);
        let hops = pick.hops.clone();
        let candidates = self.pick_candidates();
        if let Some(complete) = candidates
            .iter()
            .find(|m| m.landings().eq(hops.iter().copied()))
        {
            let m = *complete;
            self.play(&m);
        } else {
            let next = join_or(self.targets().iter().map(Square::to_string));
            self.info(format!(
                "Jump {} done: keep jumping to {next} (Esc steps back)",
                hops.len()
            ));
        }
    }

    fn play(&mut self, m: &Move) {
        let before = *self.position();
        match self.game.play(m) {
            Ok(()) => self.played(&before, m),
            Err(e) => self.error(capitalize(&e.to_string())),
        }
    }

    /// After `m` was played from `before`: clear the pick, end any review, say what
    /// happened.
    fn played(&mut self, before: &Position, m: &Move) {
        self.pick = None;
        self.cursor = (m.to().row(), m.to().col());
        let mut text = match self.game.result() {
            Some(outcome) => format!("{outcome}."),
            None => format!("{} played {}", before.turn(), before.notation(m)),
        };
        if self.review.take().is_some() {
            text.push_str(": review over, the game goes on from here");
        }
        self.info(text);
    }

    fn back(&mut self) {
        match &mut self.pick {
            Some(pick) if !pick.hops.is_empty() => {
                pick.hops.pop();
                let from = pick.from;
                let next = join_or(self.targets().iter().map(Square::to_string));
                self.info(format!(
                    "Stepped back: the piece from {from} may land on {next}"
                ));
            }
            Some(pick) => {
                let from = pick.from;
                self.pick = None;
                self.info(format!("Put the piece on {from} down"));
            }
            None => {}
        }
    }

    fn submit(&mut self) {
        let Mode::Prompt(text) = &self.mode else {
            return;
        };
        let text = text.clone();
        let before = *self.position();
        match self.game.play_text(&text) {
            Ok(m) => {
                self.mode = Mode::Board;
                self.played(&before, &m);
            }
            // The text stays in the prompt for editing.
            Err(e) => self.error(capitalize(&e.to_string())),
        }
    }

    fn undo(&mut self) {
        self.pick = None;
        let declared = self.game.result().is_some() && self.position().outcome().is_none();
        if !self.game.undo() {
            self.error("Nothing to undo");
        } else if declared {
            self.info("Took back the end of the game: play on");
        } else if let Some(m) = self.game.redo_preview() {
            let mut text = format!("Took back {}", self.position().notation(&m));
            // Against the computer, take back its reply too: back to the person's move.
            let turn = self.position().turn();
            if self.sides.is_cpu(turn)
                && !self.sides.both_cpu()
                && self.review.is_none()
                && self.game.undo()
                && let Some(mine) = self.game.redo_preview()
            {
                text = format!(
                    "Took back {} and {turn}'s reply",
                    self.position().notation(&mine)
                );
            }
            self.info(text);
        }
    }

    fn toggle_side(&mut self, color: Color) {
        self.sides.toggle(color);
        let key = if color == Color::Black { 'b' } else { 'w' };
        let text = if self.sides.is_cpu(color) {
            let mut text = format!(
                "The computer ({}) plays {color} now; {key} hands it back",
                self.level
            );
            if self.review.is_some() {
                text.push_str(" (it waits while you review: Esc to play on)");
            }
            text
        } else {
            format!("You play {color} now; {key} gives it to the computer")
        };
        self.info(text);
        if self.sides.both_cpu()
            && let Some(adjudicated) = computer::adjudicate(&mut self.game)
        {
            self.info(adjudicated);
        }
    }

    fn ask_hint(&mut self) {
        let turn = self.position().turn();
        if let Some(outcome) = self.game.result() {
            self.error(format!("The game is over ({outcome}): no hint to give"));
        } else if self.sides.is_cpu(turn) && self.review.is_none() {
            self.error(format!(
                "The computer plays {turn}: it is choosing its move"
            ));
        } else if let Some(m) = self.current_hint() {
            let text = self.position().notation(&m);
            self.info(format!("Hint for {turn}: {text}. It is not played."));
        } else {
            self.hint_wanted = Some(self.revision);
            self.info(format!("Looking for a hint for {turn}..."));
        }
    }

    /// The computer answers a person's draw offer at once: it accepts when its position
    /// is no better than level, as it would claim a draw.
    fn computer_answers_draw_offer(&mut self) {
        let side = self.position().turn();
        let name = computer::player_name(!side, self.level);
        if computer::accepts_draw(self.position())
            && self.game.offer_draw(side).is_ok()
            && let Ok(outcome) = self.game.accept_draw()
        {
            self.pick = None;
            self.review = None;
            self.info(format!("{name} accepts the draw. {outcome}."));
        } else {
            self.error(format!("{name} declines the draw: play on"));
        }
    }

    fn redo(&mut self) {
        self.pick = None;
        let before = *self.position();
        match self.game.redo_preview() {
            Some(m) if self.game.redo() => {
                self.info(format!("Replayed {}", before.notation(&m)));
                self.cursor = (m.to().row(), m.to().col());
            }
            _ => self.error("Nothing to redo"),
        }
    }

    fn answer(&mut self, answer: Answer) {
        let Mode::Asking(question) = self.mode else {
            return;
        };
        self.mode = Mode::Board;
        match (question, answer) {
            (Question::Quit, Answer::Yes) => self.quit = true,
            (Question::NewGame, Answer::Yes) => {
                self.game = Game::new();
                self.hint = None;
                self.hint_wanted = None;
                self.review = None;
                self.pick = None;
                self.cursor = (2, 2);
                self.info(WELCOME);
            }
            (Question::Resign, Answer::Side(color)) => {
                self.pick = None;
                self.review = None;
                match self.game.resign(color) {
                    Ok(outcome) => self.info(format!("{outcome}.")),
                    Err(e) => self.error(capitalize(&e.to_string())),
                }
            }
            (Question::Draw(by), Answer::Yes) => {
                self.pick = None;
                match self.game.accept_draw() {
                    Ok(outcome) => self.info(format!("{} accepted: {outcome}.", !by)),
                    Err(e) => self.error(capitalize(&e.to_string())),
                }
            }
            (Question::Draw(by), _) => {
                // Declining can only fail when no offer is pending, which is fine here.
                let _ = self.game.decline_draw();
                self.info(format!("{} declined {by}'s draw offer: play on", !by));
            }
            _ => {}
        }
    }
}

/// "15", "15 or 16", "14, 15 or 16".
fn join_or(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::KeyEventState;

    fn key(code: KeyCode) -> Event {
        Event::Key(KeyEvent {
            code,
            modifiers: KeyModifiers::NONE,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })
    }

    #[test]
    fn the_same_key_means_different_things_in_different_modes() {
        let mut app = App::new(Settings::default(), 80, 24);
        assert_eq!(
            app.action_for(&key(KeyCode::Char('h'))),
            Some(Action::Cursor(Direction::Left))
        );
        assert_eq!(
            app.action_for(&key(KeyCode::Char('1'))),
            Some(Action::OpenPrompt(Some('1')))
        );
        app.mode = Mode::Prompt(String::new());
        assert_eq!(
            app.action_for(&key(KeyCode::Char('h'))),
            Some(Action::Type('h'))
        );
        app.mode = Mode::Asking(Question::Resign);
        assert_eq!(
            app.action_for(&key(KeyCode::Char('w'))),
            Some(Action::Answer(Answer::Side(Color::White)))
        );
        assert_eq!(app.action_for(&key(KeyCode::Char('y'))), None);
        app.mode = Mode::Asking(Question::Quit);
        assert_eq!(
            app.action_for(&key(KeyCode::Char('y'))),
            Some(Action::Answer(Answer::Yes))
        );
        app.mode = Mode::Help;
        assert_eq!(
            app.action_for(&key(KeyCode::Char('q'))),
            Some(Action::ToggleHelp)
        );
    }

    #[test]
    fn lists_read_as_sentences() {
        let list = |items: &[&str]| join_or(items.iter().map(|s| s.to_string()));
        assert_eq!(list(&[]), "");
        assert_eq!(list(&["15"]), "15");
        assert_eq!(list(&["15", "16"]), "15 or 16");
        assert_eq!(list(&["14", "15", "16"]), "14, 15 or 16");
        assert_eq!(capitalize("no piece"), "No piece");
    }

    #[test]
    fn the_cursor_stops_at_the_edges() {
        let mut app = App::new(Settings::default(), 80, 24);
        for _ in 0..10 {
            app.update(Action::Cursor(Direction::Up));
            app.update(Action::Cursor(Direction::Left));
        }
        assert_eq!(app.cursor, (7, 0));
        for _ in 0..10 {
            app.update(Action::Cursor(Direction::Down));
            app.update(Action::Cursor(Direction::Right));
        }
        assert_eq!(app.cursor, (0, 7));
    }
}
