//! The terminal front end: two players sharing one terminal.
//!
//! [`App`] holds the state; keys and clicks become [`Action`]s; [`App::update`] applies
//! them without I/O; `impl Widget for &App` ([`view`]) draws; [`geometry`] is the one
//! place that decides where squares are, for drawing and for mouse clicks alike. This
//! module owns the terminal (set-up, the event loop, restoring it on every exit) and the
//! I/O the game asks for: saves from the dialog, the autosave after every change, the
//! [`picker`] of games to resume, and on Unix the signals: a last save and the terminal
//! restored on every signal that would end the program, and Ctrl-Z (SIGTSTP) suspending
//! it with the terminal restored, taken up again on `fg`.

pub mod action;
pub mod app;
pub mod choice;
mod clockwatch;
pub mod geometry;
pub mod keymap;
pub mod picker;
pub mod theme;
pub mod view;

pub use app::{Action, App, Purpose, SearchSpec, Settings};
pub use theme::Theme;

use crate::engine::{DEFAULT_HASH_MB, Engine, SearchEvent, SearchHandle, SearchResult};
use crate::pdn::PdnGame;
use crate::session::Session;
use crate::store::{self, Appended, Autosaver, SavedGame, StoreError};
use app::Tone;
use clockwatch::ClockWatch;
use picker::{Picked, Picker};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::io::{self, Stdout, stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// How the full-screen game starts.
pub enum Start {
    /// Play this session, kept by this autosaver (a resumed game's holds its file).
    Game(Box<Session>, Autosaver),
    /// `--resume` found several unfinished games (newest first): the [`picker`] asks
    /// which, then the session is made from the chosen record with `session`.
    Choose {
        /// The games to choose from.
        games: Vec<SavedGame>,
        /// The session of a chosen record (who plays, names and level as asked).
        session: Box<dyn Fn(&PdnGame) -> Session>,
    },
}

/// What the terminal, the event loop and the signal watcher share.
#[derive(Clone, Default)]
struct Shared {
    /// Held while a frame is written (or the terminal changed), so a signal never cuts
    /// one in half.
    screen: Arc<Mutex<()>>,
    /// The game's autosave, for the last save on a signal (none while picking).
    autosaver: Arc<Mutex<Autosaver>>,
    /// Set when the terminal was taken up again after a suspension: the whole screen
    /// must be drawn anew.
    redraw_all: Arc<AtomicBool>,
    /// Whether the program has the terminal (raw mode, the alternate screen): only
    /// then does a continue signal take it up again.
    #[cfg_attr(not(unix), allow(dead_code))]
    active: Arc<AtomicBool>,
}

/// Runs the game until the players quit, or a signal ends it (the game is then saved,
/// the terminal restored, and the program exits with status 128 + the signal's
/// number). The terminal is restored before returning, whether the game ended normally
/// or with an error, and by a panic hook on a panic.
pub fn run(settings: Settings, start: Start) -> io::Result<()> {
    let shared = Shared::default();
    if let Start::Game(_, autosaver) = &start {
        *lock(&shared.autosaver) = autosaver.clone();
    }
    watch_signals(settings.mouse, shared.clone())?;
    install_panic_hook(settings.mouse);
    let guard = {
        let _frame = lock(&shared.screen);
        let guard = TerminalGuard::enter(settings.mouse)?;
        shared.active.store(true, Ordering::SeqCst);
        guard
    };
    let result = (|| {
        let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
        let (session, autosaver) = match start {
            Start::Game(session, autosaver) => (*session, autosaver),
            Start::Choose { games, session } => {
                match pick(&mut terminal, &shared, Picker::new(games, settings.theme))? {
                    Some((file, record)) => {
                        let session = session(&record);
                        let autosaver = Autosaver::resumed(
                            file,
                            session.game_number(),
                            session.autosave_record(&store::today()).as_ref(),
                        );
                        *lock(&shared.autosaver) = autosaver.clone();
                        (session, autosaver)
                    }
                    None => return Ok(()),
                }
            }
        };
        let result = event_loop(&mut terminal, settings, session, &autosaver, &shared);
        autosaver.close();
        result
    })();
    let _frame = lock(&shared.screen);
    shared.active.store(false, Ordering::SeqCst);
    let restored = guard.leave();
    result.and(restored)
}

/// Runs the picker until a game is chosen and claimed (its file locked, its record read
/// again), or the player quits (`None`). A game another window took meanwhile is said
/// so, and the list is read again.
fn pick(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    mut picker: Picker,
) -> io::Result<Option<(store::GameFile, PdnGame)>> {
    loop {
        take_up_after_suspension(terminal, shared)?;
        {
            let _frame = lock(&shared.screen);
            terminal.draw(|frame| frame.render_widget(&picker, frame.area()))?;
        }
        let event = event::read()?;
        if is_suspend_key(&event) {
            suspend();
            continue;
        }
        let chosen = match picker.handle_event(&event) {
            Some(Picked::Quit) => return Ok(None),
            Some(Picked::Game(i)) => match picker.games.get(i) {
                Some(game) => game,
                None => continue,
            },
            None => continue,
        };
        match store::games::claim(chosen) {
            Ok(claimed) => return Ok(Some(claimed)),
            Err(e) => {
                picker.message = Some(crate::text::printable(&e.to_string(), 300));
                if let Ok((games, _)) = store::resumable_games() {
                    if games.is_empty() {
                        return Err(io::Error::other(e.to_string()));
                    }
                    picker.set_games(games);
                }
            }
        }
    }
}

/// Whether `event` is Ctrl-Z, which suspends the program as in any terminal program
/// (raw mode turns the terminal's own Ctrl-Z off, so the program does it).
fn is_suspend_key(event: &Event) -> bool {
    matches!(event, Event::Key(key)
        if key.kind == KeyEventKind::Press
            && keymap::global_action(key) == Some(Action::Suspend))
}

/// Suspends the program as Ctrl-Z does outside raw mode: the signal watcher restores
/// the terminal and stops the process; `fg` takes it up again. Unix only.
fn suspend() {
    #[cfg(unix)]
    crate::signals::suspend_self();
}

/// After a suspension (or any stop and continue), makes the next frame be drawn whole:
/// a blank frame first, so every cell of the next one differs from what ratatui thinks
/// is on the screen (the screen itself was cleared when it was taken up again).
/// `Terminal::clear` would do it too, but asks the terminal where its cursor is, and a
/// terminal that does not answer in time would end the game.
fn take_up_after_suspension(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
) -> io::Result<bool> {
    if !shared.redraw_all.swap(false, Ordering::SeqCst) {
        return Ok(false);
    }
    let _frame = lock(&shared.screen);
    terminal.draw(|frame| frame.render_widget(ratatui::widgets::Clear, frame.area()))?;
    Ok(true)
}

/// Watches the signals from a thread of its own. The event loop cannot do it: once the
/// terminal is gone (a closed window), crossterm's event reading spins on end-of-file
/// inside `poll`/`read` and never returns.
///
/// - Every signal whose default action ends the process ([`crate::signals::ENDING`]):
///   the game is saved, the terminal restored, and the process exits with 128 + the
///   signal's number.
/// - SIGTSTP (Ctrl-Z, `kill -TSTP`): the terminal is restored and the process stops.
/// - SIGCONT (`fg`): raw mode, the alternate screen and the mouse come back, and the
///   screen is drawn anew.
#[cfg(unix)]
fn watch_signals(mouse: bool, shared: Shared) -> io::Result<()> {
    use crate::signals::{self, CONTINUE, ENDING, STOP};
    let mut wanted = ENDING.to_vec();
    wanted.extend([STOP, CONTINUE]);
    signals::watch(&wanted, move |signal| {
        let _frame = lock(&shared.screen);
        let active = shared.active.load(Ordering::SeqCst);
        if signal == STOP {
            if active {
                let _ = restore(mouse);
            }
            signals::stop_process();
        } else if signal == CONTINUE {
            if active {
                let _ = take_up(mouse);
                shared.redraw_all.store(true, Ordering::SeqCst);
                signals::wake_event_reader();
            }
        } else {
            let autosaver = lock(&shared.autosaver).clone();
            let _ = autosaver.final_save();
            let _ = restore(mouse);
            std::process::exit(signals::exit_status(signal));
        }
    })
}

/// Without Unix signals, the autosave after every change is what keeps the game.
#[cfg(not(unix))]
fn watch_signals(_mouse: bool, _shared: Shared) -> io::Result<()> {
    Ok(())
}

/// Locks `mutex`, even if a panic poisoned it: the data is still worth saving.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    settings: Settings,
    session: Session,
    autosaver: &Autosaver,
    shared: &Shared,
) -> io::Result<()> {
    let size = terminal.size()?;
    let bell = settings.bell;
    let mut app = App::with_session(settings, session, size.width, size.height);
    warn_of_unfinished_games(&mut app);
    let mut computer = Computer::default();
    let mut clocks = ClockWatch::default();
    let mut between_games: Option<Instant> = None;
    let mut redraw = true;
    loop {
        redraw |= clocks.watch_and_ring(&mut app, autosaver, terminal, shared, bell);
        computer.sync(&mut app);
        redraw |= take_up_after_suspension(terminal, shared)?;
        if redraw {
            let _frame = lock(&shared.screen);
            terminal.draw(|frame| frame.render_widget(&app, frame.area()))?;
            computer.drawn();
        }
        // Blocking read while no search runs: an idle game uses no CPU and the screen
        // changes only when something happens. While one runs, wake up now and then
        // for its news.
        let wait = if computer.busy() {
            Some(POLL_WHILE_THINKING)
        } else if between_games.is_some() {
            Some(POLL_WHILE_CLOCK_RUNS)
        } else if app.session.clock().is_some_and(|c| c.running().is_some()) {
            // A running clock: the display ticks and a flag fall is seen at once.
            Some(POLL_WHILE_CLOCK_RUNS)
        } else {
            None
        };
        let event = if let Some(wait) = wait {
            event::poll(wait)?.then(event::read).transpose()?
        } else {
            Some(event::read()?)
        };
        // The time the event came at: a move, the end of a pause or the match's next
        // game is timed from now, not from before the wait.
        let ticked =
            event.is_some() && clocks.watch_and_ring(&mut app, autosaver, terminal, shared, bell);
        redraw = ticked
            | match event {
                Some(event) if is_suspend_key(&event) => {
                    suspend();
                    false
                }
                Some(event) => handle_event(&mut app, &event),
                None => false,
            };
        carry_out_save(&mut app);
        redraw |= computer.collect(&mut app);
        autosave(autosaver, &mut app);
        redraw |= file_match_game(&mut app);
        redraw |= next_game_between_computers(&mut app, &mut between_games);
        if app.quit {
            return Ok(());
        }
    }
}

/// Handles a terminal event as [`App::handle_event`] does, and a click on a move of the
/// move list in review (where the view alone knows the lines) as a jump to that move.
pub fn handle_event(app: &mut App, event: &event::Event) -> bool {
    use event::{MouseButton, MouseEventKind};
    if let event::Event::Mouse(mouse) = event
        && mouse.kind == MouseEventKind::Down(MouseButton::Left)
        && app.mouse
        && app.mode == app::Mode::Board
        && let Some(plies) = view::move_at(app, app.screen, mouse.column, mouse.row)
    {
        app.update(Action::JumpTo(plies));
        return true;
    }
    app.handle_event(event)
}

/// Writes a finished match game to the match's file, once, and tells the players.
/// Returns whether the screen changed.
fn file_match_game(app: &mut App) -> bool {
    let Some((path, record)) = app.session.match_game_to_file(&store::today()) else {
        return false;
    };
    let written = store::add_match_game(&path, &record)
        .map(|_| path)
        .map_err(|e| e.to_string());
    app.match_game_saved(written);
    true
}

/// How long a finished game between two computer players stays on screen before the
/// match's next game starts.
const BETWEEN_COMPUTER_GAMES: Duration = Duration::from_secs(3);

/// When the computer plays both sides of a match, starts its next game a few seconds
/// after one ends (`since` keeps when it ended). Returns whether it did.
fn next_game_between_computers(app: &mut App, since: &mut Option<Instant>) -> bool {
    if !(app.session.match_waits() && app.session.seats().both_computer()) {
        *since = None;
        return false;
    }
    let ended = *since.get_or_insert_with(Instant::now);
    if ended.elapsed() < BETWEEN_COMPUTER_GAMES || app.mode != app::Mode::Board {
        return false;
    }
    *since = None;
    app.update(Action::NextGame);
    true
}

/// How often the event loop looks at a running clock.
const POLL_WHILE_CLOCK_RUNS: Duration = Duration::from_millis(100);

/// How often the event loop looks for a running search's news.
const POLL_WHILE_THINKING: Duration = Duration::from_millis(40);

/// When the computer plays both sides, each move shows for at least this long, so the
/// game can be followed.
const PACE_BOTH_CPU: Duration = Duration::from_millis(400);

/// Shortest time between two redraws for search progress alone.
const PROGRESS_REDRAW: Duration = Duration::from_millis(250);

/// The searches the game asks for, run on a background thread: started and stopped to
/// match [`App::wanted_search`], their news handed to the app.
#[derive(Debug, Default)]
struct Computer {
    /// The engine while no search holds it (its table lives on from move to move).
    engine: Option<Engine>,
    /// The running search, what it is for, and when it started.
    running: Option<(SearchSpec, SearchHandle, Instant)>,
    /// A finished search's result held back until its time (see [`PACE_BOTH_CPU`]).
    held: Option<(SearchSpec, SearchResult, Instant)>,
    /// Progress not yet drawn.
    progress_pending: bool,
    /// When the screen was last drawn.
    last_draw: Option<Instant>,
}

impl Computer {
    /// Stops a search the game no longer wants (its result is dropped), starts the one
    /// it wants, and passes on a "move now".
    fn sync(&mut self, app: &mut App) {
        let wanted = app.wanted_search();
        let current = match (&self.running, &self.held) {
            (Some((spec, _, _)), _) | (None, Some((spec, _, _))) => Some(*spec),
            (None, None) => None,
        };
        if current != wanted {
            self.stop();
            if let Some(spec) = wanted {
                let engine = self
                    .engine
                    .take()
                    .unwrap_or_else(|| Engine::new(DEFAULT_HASH_MB));
                let handle = engine.spawn(app.search_request(spec));
                self.running = Some((spec, handle, Instant::now()));
            }
        }
        if std::mem::take(&mut app.move_now) {
            if let Some((_, handle, _)) = &self.running {
                handle.stop();
            }
            if let Some((_, _, due)) = &mut self.held {
                *due = Instant::now();
            }
        }
    }

    /// Stops the running search, if any, and takes the engine back.
    fn stop(&mut self) {
        if let Some((_, handle, _)) = self.running.take() {
            handle.stop();
            let (engine, _) = handle.join();
            self.engine = Some(engine);
        }
        self.held = None;
        self.progress_pending = false;
    }

    fn busy(&self) -> bool {
        self.running.is_some() || self.held.is_some()
    }

    fn drawn(&mut self) {
        self.progress_pending = false;
        self.last_draw = Some(Instant::now());
    }

    /// Hands the running search's news to `app`. Returns whether to redraw: a result
    /// arrived, or progress worth showing (at most a few times a second).
    fn collect(&mut self, app: &mut App) -> bool {
        let mut finished = None;
        if let Some((spec, handle, started)) = &self.running {
            while let Some(event) = handle.try_event() {
                match event {
                    SearchEvent::Depth(info) => {
                        self.progress_pending |= app.search_progress(*spec, &info);
                    }
                    SearchEvent::Done(result) => {
                        let due = if app.session.seats().both_computer() {
                            *started + PACE_BOTH_CPU
                        } else {
                            Instant::now()
                        };
                        finished = Some((*spec, result, due));
                        break;
                    }
                }
            }
        }
        if let Some(done) = finished {
            self.stop();
            self.held = Some(done);
        }
        if self
            .held
            .as_ref()
            .is_some_and(|(_, _, due)| Instant::now() >= *due)
            && let Some((spec, result, _)) = self.held.take()
        {
            app.search_done(spec, &result);
            return true;
        }
        self.progress_pending
            && self
                .last_draw
                .is_none_or(|at| at.elapsed() >= PROGRESS_REDRAW)
    }
}

/// Says so when unfinished games are saved that `--resume` could continue (not those
/// open in other windows), so a new game is not started by mistake.
fn warn_of_unfinished_games(app: &mut App) {
    if app.session.is_reviewing() || !app.game().moves().is_empty() {
        return;
    }
    let count = store::resumable_games().map_or(0, |(games, _)| games.len());
    let text = match count {
        0 => return,
        1 => "An unfinished game is saved: q, then checkers --resume continues it.".to_string(),
        n => format!(
            "{n} unfinished games are saved: q, then checkers --resume continues one of them."
        ),
    };
    app.notify(Tone::Info, text);
}

/// Writes the save the dialog asked for, if any, and reports back to `app`. An existing
/// file is changed only as the player chose: the game appended to it, or the file
/// replaced.
pub fn carry_out_save(app: &mut App) {
    let Some(request) = app.save_request.take() else {
        return;
    };
    let path = store::expand_home(&request.path);
    let exists = std::fs::symlink_metadata(&path).is_ok();
    let mut session = app.session.clone();
    session.set_names(request.players.clone());
    let record = session.record(&store::today());
    let result: Result<Appended, StoreError> = match request.existing {
        app::IfExists::Ask if exists => {
            app.save_would_replace(request);
            return;
        }
        app::IfExists::Append => store::append_record(&path, &record),
        app::IfExists::Ask | app::IfExists::Replace => {
            store::save_record(&path, &record).map(|()| Appended::Created)
        }
    };
    app.save_finished(request, result);
}

/// Keeps the autosave up to date with the game in `app`; a failure is shown once on the
/// status line (until a save works again) and never stops play.
fn autosave(autosaver: &Autosaver, app: &mut App) {
    let record = app.session.autosave_record(&store::today());
    if let Some(Err(e)) = autosaver.update(app.session.game_number(), record) {
        app.notify(Tone::Error, format!("Autosave failed: {e}"));
    }
    app.autosave_failed = autosaver.failed();
}

/// Raw mode, the alternate screen and (optionally) mouse capture, undone on drop.
struct TerminalGuard {
    mouse: bool,
    active: bool,
}

impl TerminalGuard {
    fn enter(mouse: bool) -> io::Result<TerminalGuard> {
        let mut guard = TerminalGuard {
            mouse,
            active: true,
        };
        let entered = enable_raw_mode().and_then(|()| {
            execute!(stdout(), EnterAlternateScreen)?;
            if mouse {
                execute!(stdout(), EnableMouseCapture)?;
            }
            Ok(())
        });
        if let Err(e) = entered {
            guard.active = false;
            let _ = restore(mouse);
            return Err(e);
        }
        Ok(guard)
    }

    fn leave(mut self) -> io::Result<()> {
        self.active = false;
        restore(self.mouse)
    }
}

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        if self.active {
            let _ = restore(self.mouse);
        }
    }
}

/// Puts the terminal back as it was; every step is tried even if an earlier one fails.
fn restore(mouse: bool) -> io::Result<()> {
    let mut out: Stdout = stdout();
    let mouse_off = if mouse {
        execute!(out, DisableMouseCapture)
    } else {
        Ok(())
    };
    let screen = execute!(out, LeaveAlternateScreen, Show);
    let raw = disable_raw_mode();
    mouse_off.and(screen).and(raw)
}

#[cfg(unix)]
/// Takes the terminal up again after the process was stopped and continued: raw mode
/// (set anew, as the shell may have changed the terminal meanwhile), the alternate
/// screen, the hidden cursor and (optionally) mouse capture.
fn take_up(mouse: bool) -> io::Result<()> {
    use ratatui::crossterm::cursor;
    use ratatui::crossterm::terminal::{Clear, ClearType};
    let _ = disable_raw_mode();
    enable_raw_mode()?;
    let mut out = stdout();
    execute!(
        out,
        EnterAlternateScreen,
        Clear(ClearType::All),
        cursor::Hide
    )?;
    if mouse {
        execute!(out, EnableMouseCapture)?;
    }
    Ok(())
}

/// Restores the terminal before the default hook prints the panic message, so the
/// message is readable and the shell usable.
fn install_panic_hook(mouse: bool) {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let _ = restore(mouse);
        previous(info);
    }));
}
