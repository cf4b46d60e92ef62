//! The terminal front end: two players sharing one terminal.
//!
//! [`App`] holds the state; keys and clicks become [`Action`]s; [`App::update`] applies
//! them without I/O; `impl Widget for &App` ([`view`]) draws; [`geometry`] is the one
//! place that decides where squares are, for drawing and for mouse clicks alike. This
//! module owns the terminal (set-up, the event loop, restoring it on every exit) and the
//! I/O the game asks for: saves from the dialog, the autosave after every change, and
//! a last save on SIGTERM or SIGHUP.

pub mod action;
pub mod app;
pub mod geometry;
pub mod keymap;
pub mod theme;
pub mod view;

pub use app::{Action, App, Purpose, SearchSpec, Settings};
pub use theme::Theme;

use crate::engine::{DEFAULT_HASH_MB, Engine, SearchEvent, SearchHandle, SearchResult};
use crate::session::Session;
use crate::store::{self, Autosaver};
use app::Tone;
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::io::{self, Stdout, stdout};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

/// Runs the game of `session` until the players quit, or a SIGTERM or SIGHUP arrives (the
/// game is then saved and the program exits with status 128 + the signal's number). The
/// terminal is restored before returning, whether the game ended normally or with an
/// error, and by a panic hook on a panic.
pub fn run(settings: Settings, session: Session) -> io::Result<()> {
    let autosaver = Arc::new(Mutex::new(Autosaver::new(
        session.autosave_record(&store::today()).as_ref(),
    )));
    // Held while a frame is written, so a signal never cuts one in half.
    let screen = Arc::new(Mutex::new(()));
    watch_signals(settings.mouse, Arc::clone(&autosaver), Arc::clone(&screen))?;
    install_panic_hook(settings.mouse);
    let guard = TerminalGuard::enter(settings.mouse)?;
    let result = event_loop(settings, session, &autosaver, &screen);
    let restored = guard.leave();
    result.and(restored)
}

/// On SIGTERM or SIGHUP: save, restore the terminal and exit, from a thread of its own.
/// The event loop cannot do it: once the terminal is gone (a closed window), crossterm's
/// event reading spins on end-of-file inside `poll`/`read` and never returns. Unix
/// only: elsewhere there are no such signals to watch.
#[cfg(unix)]
fn watch_signals(
    mouse: bool,
    autosaver: Arc<Mutex<Autosaver>>,
    screen: Arc<Mutex<()>>,
) -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGTERM};
    use signal_hook::iterator::Signals;
    let mut signals = Signals::new([SIGTERM, SIGHUP])?;
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            let _frame = lock(&screen);
            lock(&autosaver).final_save();
            let _ = restore(mouse);
            std::process::exit(128 + signal);
        }
    });
    Ok(())
}

/// Without Unix signals, the autosave after every change is what keeps the game.
#[cfg(not(unix))]
fn watch_signals(
    _mouse: bool,
    _autosaver: Arc<Mutex<Autosaver>>,
    _screen: Arc<Mutex<()>>,
) -> io::Result<()> {
    Ok(())
}

/// Locks `mutex`, even if a panic poisoned it: the data is still worth saving.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn event_loop(
    settings: Settings,
    session: Session,
    autosaver: &Mutex<Autosaver>,
    screen: &Mutex<()>,
) -> io::Result<()> {
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    let size = terminal.size()?;
    let mut app = App::with_session(settings, session, size.width, size.height);
    warn_of_unfinished_game(&mut app);
    let mut computer = Computer::default();
    let mut redraw = true;
    loop {
        computer.sync(&mut app);
        if redraw {
            let _frame = lock(screen);
            terminal.draw(|frame| frame.render_widget(&app, frame.area()))?;
            computer.drawn();
        }
        // Blocking read while no search runs: an idle game uses no CPU and the screen
        // changes only when something happens. While one runs, wake up now and then
        // for its news.
        let event = if computer.busy() {
            event::poll(POLL_WHILE_THINKING)?
                .then(event::read)
                .transpose()?
        } else {
            Some(event::read()?)
        };
        redraw = match event {
            Some(event) => handle_event(&mut app, &event),
            None => false,
        };
        carry_out_save(&mut app);
        redraw |= computer.collect(&mut app);
        autosave(&mut lock(autosaver), &mut app);
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

/// A new game would replace the autosave at its first move: say so when the autosave
/// holds an unfinished game, so it is not lost by surprise.
fn warn_of_unfinished_game(app: &mut App) {
    if app.session.is_reviewing() || !app.game().moves().is_empty() {
        return;
    }
    if let Ok(saved) = store::load_autosave()
        && !saved.moves.is_empty()
        && saved.result.as_deref().is_none_or(|r| r == "*")
    {
        app.notify(
            Tone::Info,
            "An unfinished game is saved: q, then checkers --resume continues it (a move here replaces it).",
        );
    }
}

/// Writes the save the dialog asked for, if any, and reports back to `app`. An existing
/// file is replaced only once the player has agreed.
pub fn carry_out_save(app: &mut App) {
    let Some(request) = app.save_request.take() else {
        return;
    };
    if !request.replace && store::expand_home(&request.path).is_file() {
        app.save_would_replace(request);
    } else {
        let mut session = app.session.clone();
        session.set_names(request.players.clone());
        let result = store::save_record(&request.path, &session.record(&store::today()));
        app.save_finished(request, result);
    }
}

/// Keeps the autosave up to date with the game in `app`; a failure is shown once on the
/// status line (until a save works again) and never stops play.
fn autosave(autosaver: &mut Autosaver, app: &mut App) {
    if let Some(Err(e)) = autosaver.update(app.session.autosave_record(&store::today())) {
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
    let screen = execute!(out, LeaveAlternateScreen, ratatui::crossterm::cursor::Show);
    let raw = disable_raw_mode();
    mouse_off.and(screen).and(raw)
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
