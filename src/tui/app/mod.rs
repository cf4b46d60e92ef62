//! The application state, the actions that change it, and `update`, which applies an
//! action with no I/O. Keys and mouse events become actions through the key map
//! ([`super::keymap`]); what an action does to the game is the [`Session`]'s.
//!
//! [`App`] is made of parts that each own their state and what is done to it, and
//! `update`'s match is the one place an action is dispatched to them:
//! [`BoardView`] (`board`) the cursor, the piece picked up, which way up the board is;
//! [`StatusLine`] (`status`) the message and the prompt's refused text; [`Panel`]
//! (`panel`) the move list, browsing and the FEN line; [`WaitingQuestions`] (`table`)
//! the other terminal's questions; [`SaveMemory`] (`save_dialog`) the file last saved
//! to. What needs the game as well (playing a move, a question's answer, a match's next
//! game) is the App's, in the file of the part it is about: `prompt` the typed move,
//! `question` the questions, `computer` the runtime's news, `games` a record file's
//! list, `report` the game report screen, `editor` the position editor, `tournament` the clocks and a match, `input`
//! terminal events.

mod board;
pub(crate) mod computer;
mod editor;
mod games;
mod input;
mod panel;
mod prompt;
mod question;
mod report;
mod save_dialog;
mod status;
mod table;
mod tournament;

pub(crate) use super::action::{Action, Answer, Direction};
pub(crate) use crate::runtime::Purpose;
pub(crate) use board::BoardView;
pub(crate) use board::Picked;
pub(crate) use editor::{Edited, Editor, editor_action};
pub(crate) use games::GameList;
use input::LetterPressed;
pub(crate) use panel::Panel;
pub(crate) use question::Question;
pub(crate) use report::ReportView;
pub(crate) use save_dialog::{SaveDialog, SaveField, SaveMemory};
pub(crate) use status::{StatusLine, Tone};
use status::{capitalize, opening_line};
pub(crate) use table::WaitingQuestions;

use super::geometry::screen_layout;
use super::keymap::{self, BoardState};
use super::theme::Theme;
use crate::game::Game;
use crate::rules::{Color, Move, Position, Square};
use crate::runtime::{Command, Runtime};
use crate::session::{News, Review, Session, SessionError};
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, MouseButton, MouseEventKind,
};
use ratatui::layout::Rect;

/// What the keyboard is doing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// Playing on the board.
    Board,
    /// Typing a move.
    Prompt(String),
    /// Waiting for an answer.
    Asking(Question),
    /// The help overlay is shown, from this line of it (where it does not fit whole).
    Help(u16),
    /// The save dialog is open.
    Save(SaveDialog),
    /// The list of a record file's games is open.
    Games(GameList),
    /// A position is being set up.
    Editor(Editor),
    /// A chat line is being typed (a game across the network), edited as every typed
    /// field is.
    Chat(crate::tui::field::TextField),
    /// The game report is shown (the App's [`ReportView`]).
    Report,
}

/// Start-up choices of the screen (who plays is the session's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    /// White at the bottom.
    pub(crate) flipped: bool,
    /// Whether mouse clicks are wanted.
    pub(crate) mouse: bool,
    /// Colours and glyphs.
    pub(crate) theme: Theme,
    /// The terminal bell at ten seconds left and when time runs out (off with `--quiet`).
    pub(crate) bell: bool,
    /// The algebraic coordinates round the board from the start.
    pub(crate) coordinates: bool,
    /// The position editor open at the start (`--setup`).
    pub(crate) setup: bool,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            flipped: false,
            mouse: true,
            theme: Theme::new(true, false),
            bell: true,
            coordinates: false,
            setup: false,
        }
    }
}

/// What the event loop is to do after an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Go on.
    Continue,
    /// The players are done: end the game, and the program unless it came from the
    /// home screen (the game was adjourned and is kept).
    Quit,
}

/// The whole state of the terminal game: the game in play with its side effects (the
/// [`Runtime`]), and what the screen adds to it (the cursor, a piece picked up, the
/// prompt or dialog open, the message shown).
#[derive(Debug)]
pub(crate) struct App {
    /// The game in play, and who plays it, with the computer, the saving and the clocks.
    runtime: Runtime,
    /// What the keyboard is doing.
    pub(crate) mode: Mode,
    /// The board on screen: the cursor, the piece picked up, which way up it is.
    pub(crate) board: BoardView,
    /// The status line.
    pub(crate) status: StatusLine,
    /// The panel's move list and FEN line, and the game browsed.
    pub(crate) panel: Panel,
    /// Questions from the other terminal waiting their turn.
    questions: WaitingQuestions,
    /// What the save dialog offers again.
    saves: SaveMemory,
    /// The game report: shown in [`Mode::Report`], and kept once finished.
    pub(crate) report: Option<ReportView>,
    /// A file letter a-h was just pressed on the board and did its command: a digit
    /// next makes the two a square (`c3`) instead.
    letter: Option<LetterPressed>,
    /// Colours and glyphs.
    pub(crate) theme: Theme,
    /// Whether mouse clicks are used.
    pub(crate) mouse: bool,
    /// The terminal's size, kept up to date by [`Action::Resize`]; mouse clicks are
    /// mapped to squares with the same layout function the view uses for this size.
    pub(crate) screen: Rect,
    /// The analysis board asked for ([`Action::Analyse`]): the event loop runs it and
    /// comes back to the game.
    pub(crate) analysis: Option<Box<crate::tui::analysis::AnalysisBoard>>,
    /// The clocks are held because the program was suspended (Ctrl-Z), not because the
    /// game was resumed from its file: the hidden board says which.
    pub(crate) held_by_suspension: bool,
    /// The game was started from the home screen: quitting it goes back there (the
    /// quit question says so), not out of the program.
    pub(crate) from_home: bool,
}

impl App {
    /// A new game between two people on a screen of `width` x `height`.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn new(settings: Settings, width: u16, height: u16) -> App {
        App::with_session(settings, Session::new(Game::new()), width, height)
    }

    /// `session` on a screen of `width` x `height`, kept nowhere (see
    /// [`with_runtime`](Self::with_runtime) for a game that is saved).
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn with_session(
        settings: Settings,
        session: Session,
        width: u16,
        height: u16,
    ) -> App {
        App::with_runtime(
            settings,
            Runtime::new(
                session,
                crate::runtime::Saving::Off,
                crate::runtime::Pace::WATCHED,
            ),
            width,
            height,
        )
    }

    /// The game in play `runtime` on a screen of `width` x `height`.
    pub(crate) fn with_runtime(
        settings: Settings,
        runtime: Runtime,
        width: u16,
        height: u16,
    ) -> App {
        // A LAN host plays the side its player does not: its own, kept at the bottom
        // as a rematch changes the colours over (see [`BoardView::follow_own_side`]).
        let own_side = match runtime.table().map(|t| &t.seat) {
            Some(crate::runtime::Seat::Player(side)) => Some(*side),
            Some(crate::runtime::Seat::Host { .. }) => runtime.session().seats().only_person_here(),
            _ => None,
        };
        let session = runtime.session();
        // A person playing White against the computer sits at the bottom.
        let person_plays_white = session.seats().only_person_here() == Some(Color::White);
        // Two people in a match keep their sides of the screen as the colours change:
        // a resumed match at an even-numbered game has them the other way round.
        let turned = !settings.flipped
            && session.seats().people()
            && session
                .match_play()
                .is_some_and(|contest| contest.game_index() % 2 == 1);
        let flipped = (settings.flipped != person_plays_white) != turned;
        // The cursor starts on this terminal's own men: across the network the side it
        // plays, whoever is to move.
        let cursor_side = own_side.unwrap_or(session.position().turn());
        let board = BoardView::new(
            cursor_side,
            session.position(),
            flipped,
            settings.flipped,
            own_side,
            settings.coordinates,
        );
        let fault = session.review().and_then(|r| r.fault.clone());
        // A file of several games opens on its list, not yet on a game to review.
        let listing = matches!(session.file(), Some((file, _)) if !file.chosen && file.len() > 1);
        // A game resumed from a record that stops at a faulty move says so first.
        let status = match (&fault, runtime.resumed_fault()) {
            (Some(fault), _) => StatusLine::saying(
                Tone::Error,
                format!("The record has a faulty move; it is shown up to it. {fault}"),
            ),
            (None, Some(resumed)) => StatusLine::saying(Tone::Error, resumed),
            (None, None) if listing => {
                StatusLine::saying(Tone::Info, status::GAME_LIST_WELCOME.to_string())
            }
            (None, None) if session.is_reviewing() => {
                StatusLine::saying(Tone::Info, status::REVIEW_WELCOME.to_string())
            }
            (None, None) => StatusLine::saying(Tone::Info, status::start_words(&runtime)),
        };
        let mode = match session.file() {
            Some((_, number)) if listing => Mode::Games(GameList {
                filter: String::new(),
                selected: number - 1,
                opening: true,
            }),
            _ => Mode::Board,
        };
        let mut app = App {
            runtime,
            mode,
            board,
            status,
            panel: Panel::default(),
            questions: WaitingQuestions::default(),
            saves: SaveMemory::default(),
            report: None,
            letter: None,
            theme: settings.theme,
            mouse: settings.mouse,
            screen: Rect::new(0, 0, width, height),
            analysis: None,
            held_by_suspension: false,
            from_home: false,
        };
        if fault.is_none() && !app.session().is_reviewing() {
            app.match_welcome();
        }
        if settings.setup {
            app.open_editor();
        }
        app
    }

    /// From now on, `waker` is called whenever the line across the network tells
    /// something (see [`Runtime::wake_with`]).
    pub(crate) fn wake_with(&mut self, waker: crate::net::Waker) {
        self.runtime.wake_with(waker);
    }

    /// The game in play, with its side effects.
    pub(crate) fn runtime(&self) -> &Runtime {
        &self.runtime
    }

    /// The game in play: the rules of play, who plays, the clocks, the review.
    pub(crate) fn session(&self) -> &Session {
        self.runtime.session()
    }

    /// Carries out `command` on the game in play and shows the answer.
    pub(crate) fn command(&mut self, command: Command) {
        let answer = self.runtime.command(command);
        self.show(answer);
    }

    /// The game.
    pub(crate) fn game(&self) -> &Game {
        self.session().game()
    }

    /// The current position.
    pub(crate) fn position(&self) -> &Position {
        self.session().position()
    }

    /// The position the board shows: an earlier one while the game is browsed, else the
    /// current one.
    pub(crate) fn shown_position(&self) -> &Position {
        if let Mode::Editor(editor) = &self.mode {
            return &editor.board;
        }
        if let (Mode::Report, Some(view)) = (&self.mode, &self.report) {
            return view.position();
        }
        self.panel
            .browse
            .and_then(|plies| self.game().positions().get(plies))
            .unwrap_or_else(|| self.position())
    }

    /// The move that led to the position the board shows (the report's move shown, or
    /// the move browsed to, else the game's last move); none on the start position.
    pub(crate) fn shown_last_move(&self) -> Option<&Move> {
        if let (Mode::Report, Some(view)) = (&self.mode, &self.report) {
            return view
                .shown
                .checked_sub(1)
                .and_then(|ply| view.moves().get(ply));
        }
        match self.panel.browse {
            Some(plies) => plies
                .checked_sub(1)
                .and_then(|ply| self.game().moves().get(ply)),
            None => self.game().moves().last(),
        }
    }

    /// The record under review, while a loaded game is stepped through.
    pub(crate) fn review(&self) -> Option<&Review> {
        self.session().review()
    }

    /// Shows a message on the status line (for news from the event loop, such as a
    /// failed autosave).
    pub(crate) fn notify(&mut self, tone: Tone, text: impl Into<String>) {
        self.status.say(tone, text);
    }

    /// Shows a notice the player must read on the status line (those given at the
    /// start): news that comes after it waits until a key clears it.
    pub(crate) fn notify_first(&mut self, tone: Tone, text: impl Into<String>) {
        self.status.hold(tone, text);
    }

    /// Shows what the session answered: its news, or why it refused (with the keys
    /// that help when the computer is to move).
    fn show(&mut self, answer: crate::runtime::Answer) {
        match answer {
            Ok(News::Nothing) => {}
            Ok(news) => {
                let text = self.news_words(&news);
                let text = self.with_match_news(text);
                self.status.info(text);
            }
            Err(e @ SessionError::ComputersTurn { color, .. }) => {
                let key = if color == Color::Black { 'b' } else { 'w' };
                self.status.error(format!(
                    "{}: m makes it move now, {key} hands {color} back to you",
                    capitalize(&e.to_string())
                ));
            }
            Err(e) => self.status.error(capitalize(&e.to_string())),
        }
    }

    /// The session's words for `news`; the first crowning also says what a king may do
    /// (while the game goes on: at its end the result is told instead).
    pub(super) fn news_words(&mut self, news: &News) -> String {
        if news.ends_with_crowning() && !self.game().is_over() && !self.status.crowning_told {
            self.status.crowning_told = true;
            return format!("{news}{}", status::CROWNING);
        }
        self.session().announce(news)
    }

    /// After a person's move (`played`, the session's answer): the piece is put down
    /// and the cursor waits on the square it landed on.
    fn after_move(&mut self, played: crate::runtime::Answer, m: Option<Move>) {
        if played.is_ok() {
            let mover = !self.position().turn();
            self.status.person_moved(mover, self.session().revision());
            self.board.pick = None;
            if let Some(m) = m {
                self.board.cursor = (m.to().row(), m.to().col());
            }
        }
        self.show(played);
    }

    /// Applies an action. No I/O: what the game is asked to do goes to the runtime as a
    /// [`Command`] (a save is written at its next poll). Any change to the game moves
    /// the session's revision on, so that a search made for the game as it was is not
    /// applied. Returns what the event loop is to do.
    pub(crate) fn update(&mut self, action: Action) -> Flow {
        // A resumed game's clocks wait for its player: the first key starts them and
        // shows the board (it does nothing else, as the board was hidden).
        if self.session().clocks_held()
            && self.mode == Mode::Board
            && !matches!(
                action,
                Action::Quit
                    | Action::AskQuit
                    | Action::ToggleHelp
                    | Action::ScrollHelp(_)
                    | Action::Suspend
                    | Action::Resize { .. }
            )
        {
            let _ = self.runtime.command(Command::Pause(false));
            self.held_by_suspension = false;
            let turn = self.position().turn();
            self.status
                .info(format!("Welcome back: the clocks run, {turn} to move"));
            return Flow::Continue;
        }
        // While paused only the pause key, help and quitting act: the board is hidden.
        // Across the network the clocks stop while a player is away, with no break to
        // end with p: the board stays in use, and a move is refused as the table says.
        // A resize is the terminal's news, not the player's: it is kept (clicks after
        // the pause land on the squares drawn), with no word about the pause.
        if self.session().is_paused()
            && self.runtime.table().is_none()
            && !matches!(
                action,
                Action::Pause
                    | Action::Quit
                    | Action::AskQuit
                    | Action::ToggleHelp
                    | Action::Resize { .. }
            )
            && self.mode == Mode::Board
        {
            self.status.info("Paused: p starts the clocks again");
            return Flow::Continue;
        }
        let before = self.session().revision();
        let turn = self.position().turn();
        let flow = self.apply(action);
        self.status.give_way();
        // News in the game brings the move list back to its latest move.
        if self.session().revision() != before && !matches!(action, Action::ScrollMoves(_)) {
            self.panel.list_scroll = 0;
        }
        self.hand_over_cursor(turn);
        flow
    }

    /// When the side to move changed from `before`: its cursor rests where it was, and
    /// the side now to move finds its own where it left it (two people at this
    /// terminal).
    pub(super) fn hand_over_cursor(&mut self, before: Color) {
        let now = self.position().turn();
        // Stepping through a record is one person looking, and so is a board across
        // the network (it plays one side, or watches): the cursor stays put.
        let one_person = self.session().is_reviewing() || self.runtime.table().is_some();
        if !one_person {
            let position = *self.position();
            self.board.hand_over(before, now, &position);
        }
    }

    /// Enter/Space/click on a square: what the board makes of it, and the move played
    /// once the piece picked up has one.
    fn select(&mut self, square: Option<Square>) {
        if let Some(outcome) = self.game().result() {
            let text = format!(
                "The game is over ({outcome}). {}",
                self.after_the_end(outcome)
            );
            self.status.error(text);
            return;
        }
        if self.refused_as_ended_at_server() {
            return;
        }
        match self.board.select(square, self.runtime.session().position()) {
            Picked::Said(tone, text) => self.status.say(tone, text),
            Picked::Play(m) => {
                let played = self.runtime.command(Command::Play(m));
                self.after_move(played, Some(m));
            }
        }
    }

    /// A click on the board: the cursor goes there (if it is a playable square), and
    /// the square is selected.
    fn click(&mut self, column: u16, row: u16) {
        if let Some(cell) = self.board.cell_at(self.screen, column, row) {
            // The cursor rests on playable squares only; a light square explains itself.
            let square = Square::from_row_col(cell.0, cell.1);
            if square.is_some() {
                self.board.cursor = cell;
            }
            self.select(square);
        }
    }

    /// `A`: the analysis board on the game, at the position shown: the recorded game
    /// in review, the game in play (assistance on) as far as it went.
    fn open_analysis(&mut self) {
        let session = self.session();
        let (record, moves, start, shown) = match session.review() {
            Some(review) => {
                let mut record = crate::pdn::PdnGame::new(*review.recorded.start());
                record.tags = review.tags.clone();
                // The recorded game's own tags: no date of today's, no Event invented.
                crate::tui::analysis::keep_as_loaded(&mut record);
                let moves = review.recorded.moves().to_vec();
                // Its clock readings, which a save from the board keeps.
                record.moves.clone_from(&moves);
                record.clocks.clone_from(&review.clocks);
                (
                    record,
                    moves,
                    *review.recorded.start(),
                    self.game().moves().len(),
                )
            }
            None if session.assist() => {
                let game = self.game();
                let shown = self.panel.browse.unwrap_or(game.moves().len());
                let record = crate::tui::analysis::in_play_record(
                    &session.record(&crate::store::today()),
                    *game.start(),
                );
                (record, game.moves().to_vec(), *game.start(), shown)
            }
            None => {
                self.status.error(
                    "The analysis board opens from a game in play only with assistance on \
                     (--assist on); in review it always does",
                );
                return;
            }
        };
        // A game of a file comes with its comments and variations, read again from
        // that file while its game there is still the one reviewed.
        let from_file = session.review().and_then(|_| {
            let (path, number, _) = session.loaded_from()?;
            let (_, tree) = crate::store::load_record_tree(path, number)?;
            (*tree.start() == start && tree.main_line() == moves).then_some(tree)
        });
        let mut tree =
            from_file.unwrap_or_else(|| crate::game::tree::MoveTree::from_moves(start, &moves));
        tree.go_to_start();
        for _ in 0..shown {
            tree.forward();
        }
        let settings = Settings {
            flipped: self.board.flipped,
            mouse: self.mouse,
            theme: self.theme,
            coordinates: self.board.coordinates,
            ..Settings::default()
        };
        let egdb = session.egdb();
        // A game in play on the clock waits while its player analyses: both clocks stop
        // (the board hidden, as a pause hides it) until p starts them again.
        let in_play = session.review().is_none() && !session.is_paused();
        if in_play && self.runtime.command(Command::Pause(true)).is_ok() {
            self.status
                .info("Paused while you analysed: both clocks stopped. p starts them again");
        }
        self.board.pick = None;
        self.analysis = Some(Box::new(crate::tui::analysis::AnalysisBoard::new(
            tree,
            record,
            &settings,
            egdb,
            self.screen,
            "the game",
            cfg!(not(test)),
        )));
    }

    /// `<` or `>`: the game browsed a move back or on (the panel says how).
    fn browse(&mut self, back: bool) {
        if self.session().is_reviewing() {
            self.status
                .info("In review the arrows step through the moves");
            return;
        }
        self.board.pick = None;
        let text = self.panel.browse(back, self.runtime.session().game());
        self.status.info(text);
    }

    fn apply(&mut self, action: Action) -> Flow {
        match action {
            Action::Resize { width, height } => {
                self.screen = Rect::new(0, 0, width, height);
                return Flow::Continue;
            }
            Action::Quit => return self.quit_now(),
            // The event loop suspends the program: nothing changes here.
            Action::Suspend => return Flow::Continue,
            // Typing keeps the reason a move was refused on screen while it is edited.
            Action::Type(_) | Action::Erase => {}
            // Moving among the landing squares of the piece picked up keeps in view
            // where it may land.
            Action::NextTarget | Action::PreviousTarget | Action::Cursor(_)
                if self.board.pick.is_some() => {}
            _ => self.status.message = None,
        }
        // Browsing ends with anything but stepping on and looking (a move, Esc, ...).
        if self.panel.browse.is_some()
            && !matches!(
                action,
                Action::Browse(_)
                    | Action::BrowseEnd(_)
                    | Action::Flip
                    | Action::ToggleCoordinates
                    | Action::ToggleHelp
                    | Action::ScrollHelp(_)
                    | Action::ScrollMoves(_)
                    | Action::Unbound(_)
                    | Action::Resize { .. }
            )
        {
            self.panel.browse = None;
            if action == Action::Back {
                self.status.info("Back to the game as it stands");
                return Flow::Continue;
            }
        }
        // A refused move's prompt closes when a key acts on the board instead.
        if self.status.prompt_selected
            && matches!(self.mode, Mode::Prompt(_))
            && !matches!(
                action,
                Action::Type(_) | Action::Erase | Action::Submit | Action::CancelPrompt
            )
        {
            self.status.prompt_selected = false;
            self.mode = Mode::Board;
        }
        let computers_turn = self.session().computer_to_move();
        match action {
            Action::Select
            | Action::Click { .. }
            | Action::OpenPrompt(_)
            | Action::TypeSquare { .. }
            | Action::Submit
                if computers_turn.is_some() =>
            {
                if let Action::Click { column, row } = action
                    && let Some(cell) = self.board.cell_at(self.screen, column, row)
                    && Square::from_row_col(cell.0, cell.1).is_some()
                {
                    self.board.cursor = cell;
                }
                self.board.pick = None;
                self.mode = Mode::Board;
                if let Some((color, level)) = computers_turn {
                    self.show(Err(SessionError::ComputersTurn { color, level }));
                }
            }
            // What one terminal may not do to a game both share is refused at the key,
            // saying why, before any question or editor opens.
            Action::ToggleSide(_) | Action::ChangeLevel(_) | Action::OpenEditor | Action::Pause
                if self.runtime.table().is_some() =>
            {
                self.board.pick = None;
                self.status.error(not_at_a_table(action));
            }
            Action::Browse(back) => self.browse(back),
            Action::BrowseEnd(start) => {
                self.panel.before_end(start, self.runtime.session().game());
                self.browse(start);
            }
            // A LAN host waiting for its player draws no cursor: moving it unseen
            // would only put it somewhere unexpected once they join. Say why instead.
            Action::Cursor(_) if self.host_waiting_head().is_some() => {
                self.refused_as_ended_at_server();
            }
            Action::Cursor(direction) => self
                .board
                .move_cursor(direction, self.runtime.session().position()),
            Action::NextTarget if self.board.pick.is_none() => self.status.info(
                "Tab goes to the next landing square of a piece picked up: Enter picks one up",
            ),
            Action::PreviousTarget if self.board.pick.is_none() => self.status.info(
                "Shift-Tab goes to the previous landing square of a piece picked up: Enter \
                 picks one up",
            ),
            Action::NextTarget => self
                .board
                .next_target(self.runtime.session().position(), false),
            Action::PreviousTarget => self
                .board
                .next_target(self.runtime.session().position(), true),
            Action::Select => self.select(self.board.cursor_square()),
            Action::Back => {
                if let Some(text) = self.board.back(self.runtime.session().position()) {
                    self.status.info(text);
                }
            }
            Action::Click { column, row } => self.click(column, row),
            // Handing a person's side to the computer asks first (it moves at once);
            // taking a side back from it does not.
            Action::ToggleSide(color) if !self.session().seats().is_computer(color) => {
                self.board.pick = None;
                self.mode = Mode::Asking(Question::HandOver(color));
            }
            Action::ToggleSide(color) => self.toggle_side(color),
            Action::MoveNow => self.ask_move_now(),
            Action::ChangeLevel(stronger) => self.command(Command::ChangeLevel(stronger)),
            Action::Hint => self.ask_hint(),
            Action::Analyse => self.open_analysis(),
            Action::OpenPrompt(first) => self.open_prompt(first),
            Action::OpenChat => self.open_chat(),
            Action::TypeSquare { letter, digit } => {
                self.open_prompt(Some(letter));
                if let Mode::Prompt(text) = &mut self.mode {
                    text.push(digit);
                }
            }
            Action::GameList => self.open_game_list(),
            Action::OtherGame(next) => self.other_game(next),
            Action::ChooseGame(by) => self.choose_game(by),
            Action::ChooseGameAt(line) => {
                if let Mode::Games(list) = &mut self.mode {
                    list.selected = line;
                }
            }
            Action::OpenChosenGame => self.open_chosen_game(),
            Action::CloseGameList => {
                if let Mode::Games(list) = &self.mode {
                    // Closed as the file opened: the review of its game shown begins.
                    if list.opening {
                        self.status.info(status::REVIEW_WELCOME.to_string());
                    }
                    self.mode = Mode::Board;
                }
            }
            Action::OpenEditor => self.open_editor(),
            Action::ShowFen => {
                if self.panel.toggle_fen() {
                    let fen = self.shown_position().to_string();
                    self.status
                        .info(format!("FEN: {fen} (also in the panel; F hides it)"));
                } else {
                    self.status.info("FEN hidden");
                }
            }
            Action::EditPlace(_)
            | Action::EditTurn
            | Action::EditClear
            | Action::EditStart
            | Action::EditFen
            | Action::EditFenDone
            | Action::EditPlay
            | Action::EditCancel => self.edit(action),
            Action::Type(_) | Action::Erase if matches!(self.mode, Mode::Editor(_)) => {
                self.edit(action)
            }
            Action::Type(c) => self.type_char(c),
            Action::Erase => self.erase(),
            Action::Submit if matches!(self.mode, Mode::Chat(_)) => {
                self.send_chat();
                self.say_host_still_waits();
            }
            Action::Submit => self.submit(),
            Action::CancelPrompt if matches!(self.mode, Mode::Chat(_)) => {
                self.mode = Mode::Board;
                self.say_host_still_waits();
            }
            Action::CancelPrompt => self.mode = Mode::Board,
            Action::Undo => self.ask_undo(),
            Action::Redo => {
                self.board.pick = None;
                let answer = self.runtime.command(Command::Redo);
                let last = self.game().moves().last().copied();
                self.after_move(answer, last);
            }
            Action::ToggleCoordinates => {
                let text = self.board.toggle_coordinates();
                self.status.info(text);
            }
            Action::ScrollMoves(back) if self.session().is_reviewing() => self.page_review(back),
            Action::ScrollMoves(back) => {
                let pairs = self.game().move_pairs().len();
                self.panel.scroll(back, pairs);
            }
            Action::Pause => self.toggle_pause(),
            Action::Flip => {
                let text = self.board.flip();
                self.status.info(text);
            }
            Action::NextGame => self.next_match_game(),
            Action::AskNewGame if self.session().match_play().is_some() => self.new_game_in_match(),
            Action::AskNewGame => self.ask_new_game(),
            Action::ToggleHelp => {
                self.mode = if matches!(self.mode, Mode::Help(_)) {
                    Mode::Board
                } else {
                    Mode::Help(0)
                }
            }
            Action::ScrollHelp(on) => {
                if let Mode::Help(top) = self.mode {
                    self.mode = Mode::Help(crate::tui::view::help_scrolled(self, top, on));
                }
            }
            Action::AskQuit if self.runtime.table().is_some() => return self.ask_leave_table(),
            Action::AskQuit => return self.ask_quit(),
            Action::AskResign => self.ask_resign(),
            Action::AskOfferDraw => self.ask_offer_draw(),
            Action::AskClaimDraw => self.ask_claim_draw(),
            Action::Answer(answer) => return self.answer(answer),
            Action::JumpTo(plies) => self.step_review(Command::StepTo(plies)),
            Action::Step(step) => self.step_review(Command::Step(step)),
            Action::LeaveReview => {
                if let Ok(news) = self.runtime.command(Command::LeaveReview) {
                    self.status.info(news.to_string());
                }
            }
            Action::OpenSave if self.mode == Mode::Report => self.open_annotated_save(),
            Action::OpenSave => self.open_save(),
            Action::OpenReport => self.open_report(),
            Action::ReportStep(_) | Action::ReportMark(_) => self.report_key(action),
            Action::LeaveReport => self.leave_report(),
            Action::NextField
            | Action::PreviousField
            | Action::ClearField
            | Action::MoveInField(_)
            | Action::Delete => match &mut self.mode {
                Mode::Save(dialog) => dialog.edit(action),
                Mode::Chat(field) => {
                    field.edit(&action);
                }
                _ => {}
            },
            // The leave question's keys are its own: another letter is told them.
            Action::Unbound(_) if self.mode == Mode::Asking(Question::LeaveTable) => {
                self.status.error("Leave the game? Answer a, r or n");
            }
            Action::Unbound(key) => {
                let help = status::help_words(&self.runtime);
                if let Some(note) = keymap::unbound_note(&key, help) {
                    self.status.info(note);
                }
            }
            Action::ConfirmSave => self.confirm_save(),
            Action::CancelSave => self.cancel_save(),
            Action::SaveExisting(choice) => self.save_existing(choice),
            Action::Resize { .. } | Action::Quit | Action::Suspend => {}
        }
        Flow::Continue
    }
}

/// Why `action`, which acts on a game at one terminal only, is refused in a game across
/// the network.
fn not_at_a_table(action: Action) -> &'static str {
    match action {
        Action::ToggleSide(_) => {
            "In a game across the network each side is played at its own terminal: the \
             computer takes neither"
        }
        Action::ChangeLevel(_) => {
            "No computer plays in a game across the network: no level to change"
        }
        Action::OpenEditor => {
            "A game across the network cannot be set up here: its position is the game's"
        }
        _ => "A game across the network cannot be paused: its clocks are both players'",
    }
}

#[cfg(test)]
mod tests;
