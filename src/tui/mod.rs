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

pub(crate) mod action;
pub(crate) mod analysis;
pub(crate) mod app;
pub(crate) mod choice;
pub(crate) mod field;
pub(crate) mod geometry;
pub(crate) mod home;
pub(crate) mod keyline;
pub(crate) mod keymap;
pub(crate) mod lobby;
pub(crate) mod picker;
pub(crate) mod puzzle;
pub(crate) mod theme;
pub(crate) mod view;

pub(crate) use app::{Action, App, Flow, Settings};
pub(crate) use theme::Theme;

use crate::commands::CommandError;
use crate::pdn::PdnGame;
use crate::runtime::{LastSave, Pace, Runtime, Saving};
use crate::session::Session;
use crate::store::{self, SavedGame};
use home::Home;
use picker::{Picked, Picker};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::cursor::Show;
use ratatui::crossterm::event::{
    self, DisableMouseCapture, EnableMouseCapture, Event, KeyEventKind,
};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    BeginSynchronizedUpdate, EndSynchronizedUpdate, EnterAlternateScreen, LeaveAlternateScreen,
    disable_raw_mode, enable_raw_mode,
};
use std::io::{self, Stdout, stdout};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError, mpsc};
use std::time::{Duration, Instant};

/// How the full-screen game starts.
pub(crate) enum Start {
    /// Play this session, kept as `Saving` says (a resumed game's holds its file), at
    /// this table when it is played across the network.
    Game(Box<Session>, Saving, Option<crate::runtime::Table>),
    /// `--resume` found several unfinished games (newest first): the [`picker`] asks
    /// which, then the session is made from the chosen record with `session`.
    Choose {
        /// The games to choose from.
        games: Vec<SavedGame>,
        /// Whether the list holds the games hosted across the network too (the home
        /// screen's), which go on hosted again, never at one terminal.
        hosted_too: bool,
        /// The chosen game taken up: its file claimed, its record read again.
        take_up: TakeUp,
    },
    /// No game named on the command line: the [`home`] screen asks what to do, and
    /// the opener starts it (the game, or the picker of games to resume) or says why
    /// it cannot (a file that does not read), which the home screen then shows.
    Home(Box<Home>, Opener),
    /// The analysis board (`--analyse`, or the home screen's entry): leaving it goes
    /// back to the home screen it was opened from, else ends the program.
    Analysis(Box<analysis::AnalysisBoard>),
    /// The [`puzzle`] screen; leaving it goes back to the home screen it came from, or
    /// ends the program.
    Puzzles(Box<puzzle::PuzzleScreen>),
    /// The [`lobby`] of a server: its games on the board, back to the lobby after each;
    /// leaving it goes back to the home screen it came from, or ends the program.
    Online(Box<lobby::Online>),
    /// A server chosen on the home screen and met for the first time: the home screen
    /// asks whether to trust its certificate before anything is pinned.
    FirstContact(Box<home::FirstContact>),
}

/// A game chosen in the [`picker`], taken up: its session (who plays, names and level
/// as asked), how it is kept (its claimed file), its table if it is hosted across the
/// network again, and what to tell at its start (a door that changed).
pub(crate) struct TakenUp {
    /// The game.
    pub(crate) session: Session,
    /// How it is kept: the claimed file.
    pub(crate) saving: Saving,
    /// The table it is hosted at again, for a game played across the network.
    pub(crate) table: Option<crate::runtime::Table>,
    /// Said on the status line at its start.
    pub(crate) notices: Vec<String>,
}

/// What takes up the game chosen in the [`picker`] (its file claimed, its record read
/// again), or says why it cannot (a port that cannot be listened at), which the picker
/// then shows.
pub(crate) type TakeUp = Box<dyn Fn(store::GameFile, &PdnGame) -> Result<TakenUp, String>>;

/// What starts a choice of the home screen with its settings; see [`Start::Home`].
pub(crate) type Opener = Box<dyn FnMut(&home::Chosen, &home::Look) -> Result<Start, String>>;

/// What the terminal, the event loop and the signal watcher share.
#[derive(Clone, Default)]
struct Shared {
    /// Held while a frame is written (or the terminal changed), so a signal never cuts
    /// one in half.
    screen: Arc<Mutex<()>>,
    /// The game's last save on a signal (nothing while picking).
    last_save: LastSave,
    /// Set when the terminal was taken up again after a suspension: the whole screen
    /// must be drawn anew.
    redraw_all: Arc<AtomicBool>,
    /// Whether the program has the terminal (raw mode, the alternate screen): only
    /// then does a continue signal take it up again.
    #[cfg_attr(not(unix), allow(dead_code))]
    active: Arc<AtomicBool>,
    /// Set when Ctrl-C was pressed: every screen quits at once on it, and the program
    /// then ends as an interrupt does (see [`run`]), not back on the home screen.
    interrupted: Arc<AtomicBool>,
    /// When the program was last stopped (Ctrl-Z), until the game's event loop takes
    /// it: the clocks stand still from then (see [`App::stopped_at`]).
    #[cfg_attr(not(unix), allow(dead_code))]
    stopped_at: Arc<Mutex<Option<Instant>>>,
    /// Where Ctrl-C on the analysis board left its moves not saved, told once the
    /// terminal is restored.
    kept: Arc<Mutex<Option<analysis::Kept>>>,
    /// The analysis board's moves not saved, while it is shown: a signal that ends the
    /// program keeps them as Ctrl-C does (its watcher cannot reach the board).
    #[cfg_attr(not(unix), allow(dead_code))]
    analysis: Arc<Mutex<Option<analysis::Unsaved>>>,
}

impl Shared {
    /// Notes that `event` is Ctrl-C, if it is: raw mode turns the terminal's interrupt
    /// into this key, which each screen takes as quitting at once.
    fn note_interrupt(&self, event: &Event) {
        if is_interrupt_key(event) {
            self.interrupted.store(true, Ordering::SeqCst);
        }
    }

    /// Whether Ctrl-C was pressed.
    fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// When the program was stopped, if it was since the last look.
    fn take_stopped_at(&self) -> Option<Instant> {
        lock(&self.stopped_at).take()
    }

    /// Tells `app` when the program was stopped, if it was since the last look: its
    /// clocks stand still from then. Called before the app is given any later time, so
    /// that the time stopped is charged to no one.
    fn hold_clocks_if_stopped(&self, app: &mut App) -> app::computer::Polled {
        match self.take_stopped_at() {
            Some(at) => app.stopped_at(at),
            None => app::computer::Polled::default(),
        }
    }
}

/// Runs the game until the players quit, or a signal ends it (the game is then saved,
/// the terminal restored, and the program exits with status 128 + the signal's
/// number). The terminal is restored before returning, whether the game ended normally
/// or with an error, and by a panic hook on a panic.
/// `notices` are told on the status line at the start (preferences that could not be
/// used). Fails with why the game is not saved, when it is not (the autosave failed,
/// and a last try too); with [`CommandError::Interrupted`] when Ctrl-C ended it, the
/// game kept as on quitting (the key of an interrupt in raw mode: the program ends as
/// one ends plain mode, status 130).
pub(crate) fn run(
    settings: Settings,
    start: Start,
    notices: Vec<String>,
) -> Result<(), CommandError> {
    let shared = Shared::default();
    let ended = run_shared(settings, start, notices, &shared);
    let unsaved = ended.map_err(CommandError::Terminal)?;
    match (unsaved, shared.interrupted()) {
        (unsaved, true) => Err(CommandError::Interrupted(unsaved)),
        (Some(why), false) => Err(CommandError::NotSaved(why)),
        (None, false) => Ok(()),
    }
}

/// [`run`] with `shared` (which says whether Ctrl-C ended it); why the game is not
/// saved, when it is not.
fn run_shared(
    settings: Settings,
    start: Start,
    notices: Vec<String>,
    shared: &Shared,
) -> io::Result<Option<Arc<crate::store::StoreError>>> {
    watch_signals(settings.mouse, shared.clone())?;
    install_panic_hook(settings.mouse);
    let guard = {
        let _frame = lock(&shared.screen);
        let guard = TerminalGuard::enter(settings.mouse)?;
        shared.active.store(true, Ordering::SeqCst);
        guard
    };
    let mut settings = settings;
    // Said once the terminal is restored: how to take up a game left unfinished.
    let mut farewell = None;
    // Why a game quit back to the home screen is not saved: the program ends saying so.
    let mut left_unsaved = None;
    let result = (|| -> io::Result<Option<Arc<crate::store::StoreError>>> {
        let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
        let mut start = start;
        let mut notices = notices;
        // The analysis board says them on its own status line (a game says them below).
        if let Start::Analysis(board) = &mut start
            && !notices.is_empty()
        {
            let text = crate::text::printable(&notices.join(" "), 600);
            board.say(app::Tone::Error, text);
            notices.clear();
        }
        // The home screen, kept while the picker it opened is shown: quitting the
        // picker goes back to it.
        let mut left_home = None;
        // One game after another: a game started from the home screen goes back to it
        // when quit (not on Ctrl-C), as the analysis board and the puzzles do.
        loop {
            let (session, saving, table) = loop {
                match start {
                    Start::Game(session, saving, table) => break (*session, saving, table),
                    Start::Analysis(mut board) => {
                        let left = analyse(&mut terminal, shared, &mut board);
                        // Left: a signal from now on has no moves of the board to keep.
                        // Left on an error of the terminal (closed), they are kept as on
                        // Ctrl-C, the lock held meanwhile so a signal's exit does not cut
                        // it short.
                        let mut moves = lock(&shared.analysis);
                        let unsaved = moves.take();
                        let left = match left {
                            Ok(left) => left,
                            Err(e) => {
                                let folder = crate::store::data_dir();
                                *lock(&shared.kept) =
                                    unsaved.and_then(|u| u.keep(folder.as_deref()));
                                return Err(e);
                            }
                        };
                        drop(moves);
                        board.stop();
                        match left_home.take() {
                            Some((home, open))
                                if left == analysis::Done::Leave && !shared.interrupted() =>
                            {
                                start = Start::Home(home, open)
                            }
                            _ => return Ok(None),
                        }
                    }
                    Start::Choose {
                        games,
                        hosted_too,
                        take_up,
                    } => {
                        let picker = Picker::new(games, settings.theme);
                        match pick(&mut terminal, shared, picker, hosted_too, &take_up)? {
                            Some(taken) => {
                                notices.extend(taken.notices);
                                break (taken.session, taken.saving, taken.table);
                            }
                            None => match left_home.take() {
                                Some((home, open)) if !shared.interrupted() => {
                                    start = Start::Home(home, open)
                                }
                                _ => return Ok(None),
                            },
                        }
                    }
                    Start::Online(mut online) => {
                        // What the login printed over the home screen is wiped, and the
                        // lobby drawn whole (ratatui's own clear asks the terminal for its
                        // cursor, which not every terminal answers).
                        execute!(
                            stdout(),
                            ratatui::crossterm::terminal::Clear(
                                ratatui::crossterm::terminal::ClearType::All
                            )
                        )?;
                        draw_whole(&mut terminal, |frame| {
                            frame.render_widget(ratatui::widgets::Clear, frame.area());
                        })?;
                        in_lobby(&mut terminal, shared, settings, &mut online)?;
                        match left_home.take() {
                            Some((mut home, open)) if !shared.interrupted() => {
                                // Said on the home screen: its terminal is not given back.
                                let said = lock(&online.farewell).take();
                                home.message = said.map(|why| crate::text::printable(&why, 600));
                                start = Start::Home(home, open);
                            }
                            _ => return Ok(None),
                        }
                    }
                    Start::FirstContact(contact) => match left_home.take() {
                        Some((mut home, open)) => {
                            home.ask_first_contact(*contact);
                            start = Start::Home(home, open);
                        }
                        None => return Ok(None),
                    },
                    Start::Puzzles(mut screen) => {
                        // Told there, as the analysis board tells them: the puzzles have
                        // no game's status line below.
                        if !notices.is_empty() {
                            screen.warn(std::mem::take(&mut notices).join(" "));
                        }
                        solve(&mut terminal, shared, &mut screen)?;
                        match left_home.take() {
                            Some((home, open)) if !shared.interrupted() => {
                                start = Start::Home(home, open)
                            }
                            _ => return Ok(None),
                        }
                    }
                    Start::Home(mut home, mut open) => {
                        let Some(chosen) = at_home(&mut terminal, shared, &mut home)? else {
                            return Ok(None);
                        };
                        settings.theme = home.theme();
                        settings.coordinates = home.look.coordinates;
                        if let Some(note) = chosen.waiting_note() {
                            home.message = Some(note);
                            draw_home(&mut terminal, shared, &mut home)?;
                        }
                        match open(&chosen, &home.look) {
                            Ok(next) => {
                                start = next;
                                left_home = Some((home, open));
                            }
                            Err(why) => {
                                // Long enough for a changed certificate's warning whole: both
                                // fingerprints and what to do.
                                home.message = Some(crate::text::printable(&why, 900));
                                start = Start::Home(home, open);
                            }
                        }
                    }
                }
            };
            // A game resumed at this terminal waits for its player: the clocks start at
            // the first key.
            let session = if matches!(saving, Saving::Resumed(_)) && table.is_none() {
                session.with_clocks_held()
            } else {
                session
            };
            let mut runtime = Runtime::new(session, saving, Pace::WATCHED);
            if let Some(table) = table {
                runtime = runtime.at_table(table);
            }
            shared.last_save.keep(&runtime);
            let size = terminal.size()?;
            let mut app = App::with_runtime(settings, runtime, size.width, size.height);
            app.from_home = left_home.is_some();
            if !notices.is_empty() {
                let text = crate::text::printable(&notices.join(" "), 600);
                app.notify_first(app::Tone::Error, text);
            }
            let result = event_loop(&mut terminal, settings.bell, &mut app, shared, None);
            // Read before the finish lets the table and the file go; said only if the
            // last save holds.
            let left = app.runtime().farewell();
            let left_words = left.words(crate::runtime::Front::Terminal);
            let unsaved = app.finish();
            result?;
            match left_home.take() {
                Some((mut home, open)) if !shared.interrupted() => {
                    // Back at the list, not the page the game was started from.
                    home.page = home::Page::Menu;
                    // Said on the home screen, whose resume entry takes the game up.
                    home.message = match &unsaved {
                        Some(why) => Some(format!("The game is NOT saved: {why}.")),
                        None => left.words(crate::runtime::Front::Home),
                    }
                    .map(|words| crate::text::printable(&words, 600));
                    // Said again once the program ends, as when it ends with the game.
                    match unsaved {
                        Some(why) => left_unsaved = Some(why),
                        None => farewell = left_words.or(farewell.take()),
                    }
                    notices.clear();
                    start = Start::Home(home, open);
                }
                _ => {
                    if unsaved.is_none() {
                        farewell = left_words;
                    }
                    return Ok(unsaved);
                }
            }
        }
    })();
    let _frame = lock(&shared.screen);
    shared.active.store(false, Ordering::SeqCst);
    let restored = guard.leave();
    if let Some(line) = farewell {
        println!("{line}");
    }
    if let Some(kept) = lock(&shared.kept).take() {
        tell_kept(&kept);
    }
    let unsaved = result?.or(left_unsaved);
    restored.map(|()| unsaved)
}

/// Says, once the terminal is restored, where the analysis board's moves not saved
/// were kept (on standard output), or why they could not be (on standard error). A
/// write that fails (the terminal closed: SIGHUP) is let be: the file is what matters.
fn tell_kept(kept: &analysis::Kept) {
    use std::io::Write as _;
    let _ = match kept {
        analysis::Kept::Written(..) => writeln!(stdout(), "{kept}"),
        analysis::Kept::Lost(_) => writeln!(io::stderr(), "checkers: {kept}"),
    };
}

/// Runs the home screen until a game is chosen (`Some`) or the player quits (`None`).
fn at_home(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    home: &mut Home,
) -> io::Result<Option<home::Chosen>> {
    loop {
        take_up_after_suspension(terminal, shared)?;
        draw_home(terminal, shared, home)?;
        let event = read_event()?;
        shared.note_interrupt(&event);
        if is_suspend_key(&event) {
            suspend();
            continue;
        }
        if let Some(done) = home.handle_event(&event) {
            return Ok(done);
        }
        home.keep_settings();
    }
}

/// Draws the home screen as it stands.
fn draw_home(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    home: &mut Home,
) -> io::Result<()> {
    let _frame = lock(&shared.screen);
    let size = terminal.size()?;
    home.screen = ratatui::layout::Rect::new(0, 0, size.width, size.height);
    draw_whole(terminal, |frame| frame.render_widget(&*home, frame.area()))?;
    Ok(())
}

/// Runs the puzzles screen until the player leaves it.
fn solve(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    screen: &mut puzzle::PuzzleScreen,
) -> io::Result<()> {
    loop {
        take_up_after_suspension(terminal, shared)?;
        let area = {
            let _frame = lock(&shared.screen);
            let size = terminal.size()?;
            draw_whole(terminal, |frame| {
                frame.render_widget(&*screen, frame.area())
            })?;
            ratatui::layout::Rect::new(0, 0, size.width, size.height)
        };
        let event = read_event()?;
        shared.note_interrupt(&event);
        if is_suspend_key(&event) {
            suspend();
            continue;
        }
        if screen.handle_event(&event, area) {
            return Ok(());
        }
    }
}

/// How often the analysis board looks for the search's news while it searches.
const ANALYSIS_POLL: Duration = Duration::from_millis(150);

/// Runs the analysis board until it is left (back where it was opened from) or the
/// program is to end (Ctrl-C). Its search runs in the background; the screen is drawn
/// again when a key changes it or the search has news.
fn analyse(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    board: &mut analysis::AnalysisBoard,
) -> io::Result<analysis::Done> {
    let mut redraw = true;
    *lock(&shared.analysis) = Some(board.unsaved_moves());
    loop {
        redraw |= take_up_after_suspension(terminal, shared)?;
        if redraw {
            let _frame = lock(&shared.screen);
            let size = terminal.size()?;
            board.screen = ratatui::layout::Rect::new(0, 0, size.width, size.height);
            draw_whole(terminal, |frame| frame.render_widget(&*board, frame.area()))?;
        }
        // While the search works, wake now and then for its news; else wait for a key.
        let event = if board.searching() {
            event::poll(ANALYSIS_POLL)?.then(read_event).transpose()?
        } else {
            Some(read_event()?)
        };
        let Some(event) = event else {
            redraw = board.poll();
            continue;
        };
        shared.note_interrupt(&event);
        if is_suspend_key(&event) {
            suspend();
            continue;
        }
        if let Some(done) = board.handle_event(&event) {
            // Ctrl-C quits without asking: what is not saved is kept in a file instead.
            if done == analysis::Done::Quit {
                // Kept here, so a signal now does not keep them a second time (nor
                // end the program before the file is written).
                let mut moves = lock(&shared.analysis);
                *moves = None;
                let folder = crate::store::data_dir();
                *lock(&shared.kept) = board.keep_unsaved(folder.as_deref());
                drop(moves);
            }
            return Ok(done);
        }
        *lock(&shared.analysis) = Some(board.unsaved_moves());
        if let Some(text) = board.take_clipboard() {
            copy_to_clipboard(terminal, shared, board, &text);
        }
        board.poll();
        redraw = true;
    }
}

/// Sends `text` to the terminal's clipboard with the OSC 52 escape sequence, which
/// reaches the terminal the player sits at over SSH too (tmux passes it on with
/// `set-clipboard on`); a write that fails is said on `board`'s status line.
fn copy_to_clipboard(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    board: &mut analysis::AnalysisBoard,
    text: &str,
) {
    let _frame = lock(&shared.screen);
    let copy = ratatui::crossterm::clipboard::CopyToClipboard::to_clipboard_from(text);
    if let Err(e) = ratatui::crossterm::execute!(terminal.backend_mut(), copy) {
        board.say(app::Tone::Error, format!("Not copied: {e}"));
    }
}

/// Runs the picker until a game is chosen, claimed (its file locked, its record read
/// again) and taken up with `take_up`, or the player quits (`None`). A game another
/// window took meanwhile, or one that cannot be taken up, is said so, and the list is
/// read again (with the games hosted across the network when `hosted_too`).
fn pick(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    mut picker: Picker,
    hosted_too: bool,
    take_up: &TakeUp,
) -> io::Result<Option<TakenUp>> {
    let offered = || store::resumable_games().map(|found| found.offered(hosted_too));
    loop {
        take_up_after_suspension(terminal, shared)?;
        {
            let _frame = lock(&shared.screen);
            draw_whole(terminal, |frame| {
                picker.screen = frame.area();
                frame.render_widget(&picker, frame.area())
            })?;
        }
        let event = read_event()?;
        shared.note_interrupt(&event);
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
            Some(Picked::Delete(i) | Picked::Abandon(i)) if i >= picker.games.len() => continue,
            Some(picked @ (Picked::Delete(i) | Picked::Abandon(i))) => {
                let game = &picker.games[i];
                let (done, verb) = match picked {
                    Picked::Delete(_) => (store::games::delete(game), "deleted"),
                    _ => (store::games::abandon(game), "abandoned"),
                };
                picker.message = Some(match done {
                    Ok(()) => format!("Game {} {verb}", i + 1),
                    Err(e) => crate::text::printable(&format!("Not {verb}: {e}"), 300),
                });
                match offered() {
                    Ok(games) if games.is_empty() => return Ok(None),
                    Ok(games) => picker.set_games(games),
                    Err(_) => {}
                }
                continue;
            }
            None => continue,
        };
        let why = match store::games::claim(chosen) {
            Ok((file, record)) => match take_up(file, &record) {
                Ok(taken) => return Ok(Some(taken)),
                Err(why) => why,
            },
            Err(e) => e.to_string(),
        };
        picker.message = Some(crate::text::printable(&why, 300));
        if let Ok(games) = offered() {
            if games.is_empty() {
                return Err(io::Error::other(why));
            }
            picker.set_games(games);
        }
    }
}

/// The terminal's next event, as every screen reads it: a line feed is Enter (see
/// [`keymap::line_feed_as_enter`]).
fn read_event() -> io::Result<Event> {
    event::read().map(keymap::line_feed_as_enter)
}

/// Whether `event` is Ctrl-C, which quits every screen at once and ends the program as
/// an interrupt does (raw mode turns the terminal's own Ctrl-C, SIGINT, into this key).
fn is_interrupt_key(event: &Event) -> bool {
    matches!(event, Event::Key(key)
        if key.kind == KeyEventKind::Press
            && keymap::global_action(key) == Some(Action::Quit))
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
    draw_whole(terminal, |frame| {
        frame.render_widget(ratatui::widgets::Clear, frame.area())
    })?;
    Ok(true)
}

/// Watches the signals from a thread of its own. The event loop cannot do it: once the
/// terminal is gone (a closed window), crossterm's event reading spins on end-of-file
/// inside `poll`/`read` and never returns.
///
/// - Every signal whose default action ends the process ([`crate::signals::ENDING`]):
///   the game is saved (the analysis board's moves not saved kept in a file, as on
///   Ctrl-C), the terminal restored, and the process exits with 128 + the signal's
///   number.
/// - SIGTSTP (Ctrl-Z, `kill -TSTP`): the terminal is restored and the process stops.
/// - SIGCONT (`fg`): raw mode, the alternate screen and the mouse come back, and the
///   screen is drawn anew.
#[cfg(unix)]
fn watch_signals(mouse: bool, shared: Shared) -> io::Result<()> {
    use crate::signals::{self, CONTINUE, STOP};
    let screen = Arc::clone(&shared.screen);
    let board = Arc::clone(&shared.analysis);
    crate::runtime::watch_ending_signals(shared.last_save.clone(), &[], move |_, _| {
        let _frame = lock(&screen);
        let _ = restore(mouse);
        // The analysis board's moves not saved, kept in a file as on Ctrl-C.
        let unsaved = lock(&board).take();
        let folder = crate::store::data_dir();
        if let Some(kept) = unsaved.and_then(|moves| moves.keep(folder.as_deref())) {
            tell_kept(&kept);
        }
    })?;
    signals::watch(&[STOP, CONTINUE], move |signal| {
        let _frame = lock(&shared.screen);
        let active = shared.active.load(Ordering::SeqCst);
        if signal == STOP {
            if active {
                *lock(&shared.stopped_at) = Some(Instant::now());
                let _ = restore(mouse);
            }
            signals::stop_process();
        } else if active {
            let _ = take_up(mouse);
            shared.redraw_all.store(true, Ordering::SeqCst);
            signals::wake_event_reader();
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

/// Draws the game and hands it what happens: keys, clicks and resizes as actions,
/// and whatever the runtime says is due (the computer's news, the clocks) as it comes.
fn event_loop(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    bell: bool,
    app: &mut App,
    shared: &Shared,
    woken: Option<&Woken>,
) -> io::Result<()> {
    let mut redraw = true;
    let started;
    let line = match woken {
        Some(woken) => {
            app.wake_with(woken.waker.clone());
            Some(woken)
        }
        None if app.runtime().table().is_some() => {
            let woken = Woken::start();
            app.wake_with(woken.waker.clone());
            started = woken;
            Some(&started)
        }
        None => None,
    };
    // A stop before this game (on the home screen) is not this game's.
    shared.take_stopped_at();
    loop {
        let stopped = shared.hold_clocks_if_stopped(app);
        redraw |= stopped.redraw;
        let polled = app.poll(Instant::now());
        if bell && (polled.bell || stopped.bell) {
            ring_bell(terminal, shared);
        }
        redraw |= polled.redraw;
        redraw |= take_up_after_suspension(terminal, shared)?;
        if redraw {
            let _frame = lock(&shared.screen);
            draw_whole(terminal, |frame| frame.render_widget(&*app, frame.area()))?;
        }
        // A blocking read while nothing is due: an idle game uses no CPU and the screen
        // changes only when something happens.
        let event = match &line {
            Some(line) => line.next(app.wait(Instant::now()))?,
            None => match app.wait(Instant::now()) {
                Some(wait) => event::poll(wait)?.then(read_event).transpose()?,
                None => Some(read_event()?),
            },
        };
        let Some(event) = event else {
            redraw = false;
            continue;
        };
        // The time the event came at: a move, the end of a pause or the match's next
        // game is timed from now, not from before the wait (nor the time stopped).
        let stopped = shared.hold_clocks_if_stopped(app);
        let polled = app.tick(Instant::now());
        if bell && (polled.bell || stopped.bell) {
            ring_bell(terminal, shared);
        }
        redraw = polled.redraw || stopped.redraw;
        shared.note_interrupt(&event);
        if is_suspend_key(&event) {
            suspend();
            continue;
        }
        match handle_event(app, &event) {
            Some(Flow::Quit) => return Ok(()),
            Some(Flow::Continue) => redraw = true,
            None => {}
        }
        if let Some(mut board) = app.analysis.take() {
            let left = analyse(terminal, shared, &mut board)?;
            board.stop();
            if left == analysis::Done::Quit {
                return Ok(());
            }
            let size = terminal.size()?;
            app.update(Action::Resize {
                width: size.width,
                height: size.height,
            });
            app.notify(app::Tone::Info, "Back from the analysis board");
            redraw = true;
        }
    }
}

/// What ends the wait of a game across the network: the terminal's next event, or the
/// line telling something. The terminal is read on a thread of its own, so that the
/// line can end the wait too (crossterm's wait cannot be woken).
struct Woken {
    events: mpsc::Receiver<Option<io::Result<event::Event>>>,
    rung: crate::net::WakeOnce,
    /// What the line calls to end the wait.
    waker: crate::net::Waker,
    /// Set when this reader is done with, so its thread stops before it takes a key
    /// meant for the screen that follows (the home screen after a lobby).
    stop: Arc<AtomicBool>,
    /// The reading thread, joined when this is dropped.
    reader: Option<std::thread::JoinHandle<()>>,
}

/// How long the reading thread waits for the terminal between looks at its stop flag.
const READER_LOOK: Duration = Duration::from_millis(50);

impl Woken {
    /// Reads the terminal on a thread of its own (one at a time: a second reader would
    /// take half the keys; it stops when this is dropped), the line waking the loop
    /// with [`Woken::waker`] (once until it looks), so that a peer's move is shown at
    /// once.
    fn start() -> Woken {
        let (send, events) = mpsc::channel();
        let wake = send.clone();
        let stop = Arc::new(AtomicBool::new(false));
        let stopped = Arc::clone(&stop);
        let reader = std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                let event = match event::poll(READER_LOOK) {
                    Ok(false) => continue,
                    Ok(true) => read_event(),
                    Err(e) => Err(e),
                };
                let failed = event.is_err();
                if send.send(Some(event)).is_err() || failed {
                    return;
                }
            }
        });
        let (waker, rung) = crate::net::wake_once(wake, || None);
        Woken {
            events,
            rung,
            waker,
            stop,
            reader: Some(reader),
        }
    }

    /// The next event within `wait` (none: the line told something, or the time is up).
    fn next(&self, wait: Option<Duration>) -> io::Result<Option<event::Event>> {
        let received = match wait {
            Some(wait) => self.events.recv_timeout(wait),
            None => self
                .events
                .recv()
                .map_err(|_| mpsc::RecvTimeoutError::Disconnected),
        };
        match received {
            Ok(Some(event)) => event.map(Some),
            Ok(None) => {
                self.rung.taken();
                Ok(None)
            }
            Err(mpsc::RecvTimeoutError::Timeout) => Ok(None),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                Err(io::Error::other("the terminal's input ended"))
            }
        }
    }
}

impl Drop for Woken {
    /// Stops the reading thread and waits for it, so the next screen reads alone.
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

/// How often the lobby's lists are asked again while it is shown.
const LOBBY_REFRESH: Duration = Duration::from_secs(4);

/// Runs a server's lobby until the player leaves it or the line is gone: a game
/// started, resumed or watched takes the board, and leaving the board comes back here
/// (a game in play left adjourned at the server, waiting there to be resumed).
fn in_lobby(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    settings: Settings,
    online: &mut lobby::Online,
) -> io::Result<()> {
    use crate::online::LineNews;
    use crate::server::protocol::{ClientMessage, ServerMessage};
    let woken = Woken::start();
    let line = online.line.clone();
    line.wake_with(woken.waker.clone());
    // The lists are asked at once, then every few seconds.
    let mut refresh = Instant::now();
    // The game asked to watch: its table takes the board when it comes.
    let mut watch_asked = None;
    loop {
        let mut news = line.news().into_iter();
        let mut board = None;
        for item in news.by_ref() {
            match item {
                LineNews::Message(ServerMessage::Table { game, side, state })
                    if side.is_some() || watch_asked == Some(game) =>
                {
                    board = Some((game, side, state));
                    break;
                }
                LineNews::Message(message) => {
                    // The server's word often changes the lists (a challenge, a seek
                    // gone): they are asked again at once.
                    if matches!(message, ServerMessage::Info { .. }) {
                        refresh = Instant::now();
                    }
                    online.screen.heard(message);
                }
                LineNews::Down(why) => {
                    online.screen.say(&why, true);
                    store_farewell(online, why);
                    return Ok(());
                }
            }
        }
        if let Some((game, side, state)) = board {
            // What came after the table is the board's to read.
            line.unread(news.collect());
            watch_asked = None;
            let side = side.map(crate::rules::Color::from);
            match at_server_table(
                terminal,
                shared,
                settings,
                online,
                (game, side),
                &state,
                &woken,
            )? {
                Some(why) => {
                    store_farewell(online, why);
                    return Ok(());
                }
                // Ctrl-C on the board ends the program, not only the board.
                None if shared.interrupted() => return Ok(()),
                None => {
                    line.wake_with(woken.waker.clone());
                    // Made a moderator, or no longer one, while at the board.
                    online.screen.moderator = line.moderator();
                    refresh = Instant::now();
                    continue;
                }
            }
        }
        take_up_after_suspension(terminal, shared)?;
        {
            let _frame = lock(&shared.screen);
            draw_whole(terminal, |frame| {
                online.screen.screen = frame.area();
                frame.render_widget(&online.screen, frame.area())
            })?;
        }
        let now = Instant::now();
        if now >= refresh {
            line.send(ClientMessage::Lobby);
            refresh = now + LOBBY_REFRESH;
        }
        let event = woken.next(Some(refresh.saturating_duration_since(now)))?;
        let Some(event) = event else {
            continue;
        };
        shared.note_interrupt(&event);
        if is_suspend_key(&event) {
            suspend();
            continue;
        }
        match online.screen.handle_event(&event) {
            Some(lobby::LobbyAction::Quit) => return Ok(()),
            Some(lobby::LobbyAction::Send(message)) => {
                if let ClientMessage::Watch { number } = message {
                    watch_asked = Some(number);
                }
                line.send(message);
                line.send(ClientMessage::Lobby);
            }
            Some(lobby::LobbyAction::Refresh) => line.send(ClientMessage::Lobby),
            None => {}
        }
    }
}

/// Keeps `why` to print once the terminal is given back.
fn store_farewell(online: &lobby::Online, why: String) {
    *lock(&online.farewell) = Some(why);
}

/// A server's game `game` on the board (`side` played, or watched), as told by `state`, until
/// the board is left (a game in play is then adjourned at the server, which tells the
/// lobby so). Gives why the line is gone, if it is.
fn at_server_table(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    shared: &Shared,
    settings: Settings,
    online: &mut lobby::Online,
    (game, side): (u64, Option<crate::rules::Color>),
    state: &crate::net::protocol::GameState,
    woken: &Woken,
) -> io::Result<Option<String>> {
    use crate::runtime::network::{Following, server_session};
    let Some(session) = server_session(state, side, Instant::now()) else {
        online
            .screen
            .say("The server's record of the game does not read", true);
        return Ok(None);
    };
    let following = Following::at_server(online.line.clone(), side, state, online.copies.clone())
        .of_server_game(game);
    let runtime = Runtime::new(session, Saving::Off, Pace::WATCHED)
        .at_table(crate::runtime::Table::Guest(Box::new(following)));
    shared.last_save.keep(&runtime);
    let size = terminal.size()?;
    let mut app = App::with_runtime(settings, runtime, size.width, size.height);
    let result = event_loop(terminal, settings.bell, &mut app, shared, Some(woken));
    let over = server_game_over(&app);
    let _ = app.finish();
    result?;
    if online.line.is_down() {
        return Ok(Some(format!(
            "The line to {} is gone.",
            online.line.address
        )));
    }
    if side.is_none() {
        // The game's news is no longer this terminal's.
        online
            .line
            .send(crate::server::protocol::ClientMessage::Unwatch);
    }
    if over || side.is_none() || game_ended(&online.line) {
        online.screen.say("Back in the lobby", false);
        return Ok(None);
    }
    // A game in play was left: it waits on the server, the player in the lobby (the
    // server's word on it comes there).
    online
        .line
        .send(crate::server::protocol::ClientMessage::Adjourn);
    game_ended(&online.line);
    Ok(None)
}

/// Whether the game on a server's board is over for its player: ended with a result,
/// or ended by the server as abandoned (then there is nothing to adjourn as the board
/// is left).
pub(crate) fn server_game_over(app: &App) -> bool {
    app.runtime().session().game().result().is_some()
        || app.runtime().table().is_some_and(|t| t.abandoned.is_some())
}

/// How long the lobby waits for the server's answer to a ping.
const PING_WAIT: Duration = Duration::from_secs(3);

/// Whether the player's game ended by what the board sent last (a resignation as the
/// board is left): the server answers a ping after everything asked before it, so
/// whatever it told of the game came before the answer. The tables it told meanwhile
/// are the board's just left, and are dropped (else the lobby would take the board
/// again); what else came is left for the lobby.
fn game_ended(line: &crate::online::ServerLine) -> bool {
    use crate::online::LineNews;
    use crate::server::protocol::{ClientMessage, ServerMessage};
    line.send(ClientMessage::Ping);
    let deadline = Instant::now() + PING_WAIT;
    let (mut kept, mut ended) = (Vec::new(), false);
    let (ring, rung) = mpsc::channel();
    line.wake_with(std::sync::Arc::new(move || {
        let _ = ring.send(());
    }));
    'wait: while Instant::now() < deadline {
        for item in line.news() {
            match item {
                LineNews::Message(ServerMessage::Pong) => break 'wait,
                LineNews::Message(ServerMessage::Table { .. }) => {}
                LineNews::Message(ServerMessage::Ended { .. }) => {
                    ended = true;
                    kept.push(item);
                }
                LineNews::Down(_) => {
                    kept.push(item);
                    break 'wait;
                }
                item => kept.push(item),
            }
        }
        let _ = rung.recv_timeout(deadline.saturating_duration_since(Instant::now()));
    }
    line.unread(kept);
    ended
}

/// Rings the terminal's bell (a control character, not drawing: the screen is unchanged).
fn ring_bell(terminal: &mut Terminal<CrosstermBackend<Stdout>>, shared: &Shared) {
    use std::io::Write;
    let _frame = lock(&shared.screen);
    let out = terminal.backend_mut();
    let _ = out.write_all(b"\x07");
    let _ = out.flush();
}

/// Handles a terminal event as [`App::handle_event`] does, and a click on a move of the
/// move list in review (where the view alone knows the lines) as a jump to that move.
pub(crate) fn handle_event(app: &mut App, event: &event::Event) -> Option<Flow> {
    use event::{MouseButton, MouseEventKind};
    if let event::Event::Mouse(mouse) = event
        && mouse.kind == MouseEventKind::Down(MouseButton::Left)
        && app.mouse
        && app.mode == app::Mode::Board
        && let Some(plies) = view::move_at(app, app.screen, mouse.column, mouse.row)
    {
        return Some(app.update(Action::JumpTo(plies)));
    }
    app.handle_event(event)
}

/// Draws one frame as a synchronized update (DEC mode 2026): a terminal that knows the
/// mode shows the frame whole, never the top of a new screen over the rest of the old
/// one (a frame goes out in several writes); others ignore the marks.
fn draw_whole(
    terminal: &mut Terminal<CrosstermBackend<Stdout>>,
    render: impl FnOnce(&mut ratatui::Frame),
) -> io::Result<()> {
    execute!(terminal.backend_mut(), BeginSynchronizedUpdate)?;
    let drawn = terminal
        .draw(|frame| {
            render(frame);
            if !locale_writes_utf8() {
                ascii_cells(frame.buffer_mut());
            }
        })
        .map(|_| ());
    // Ended even when the frame failed, so that the terminal shows again what it has.
    let ended = execute!(terminal.backend_mut(), EndSynchronizedUpdate);
    drawn.and(ended)
}

/// Whether the locale's character set is UTF-8 ([`crate::text::utf8_locale`]), found
/// once: the environment does not change while the program runs.
fn locale_writes_utf8() -> bool {
    static UTF8: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *UTF8.get_or_init(|| crate::text::utf8_locale(crate::text::character_locale().as_deref()))
}

/// Every cell of `buffer` in ASCII, for a locale that is not UTF-8: the theme draws
/// the board in ASCII there, but a name or an event from a file (`José`, `王小明`) would
/// go out as UTF-8 bytes, garbage of one column a byte that pushes the rest of the row
/// out of place. An accented letter becomes its letter ([`crate::text::ascii_for`]),
/// anything else `?`; a wide character's second column is a blank cell already, so the
/// columns stay where they were drawn.
pub(crate) fn ascii_cells(buffer: &mut ratatui::buffer::Buffer) {
    for cell in &mut buffer.content {
        let symbol = cell.symbol();
        if symbol.is_ascii() {
            continue;
        }
        // A letter and its combining marks are one cell: the letter says it.
        let first = symbol.chars().next().unwrap_or(' ');
        let ascii = crate::text::ascii_for(first);
        let shown = match ascii.as_ref() {
            "..." => ".",
            one if one.len() == 1 => one,
            _ => "?",
        }
        .to_string();
        cell.set_symbol(&shown);
    }
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
            // crossterm starts watching for resizes at its first look at the input: a
            // resize between the first frame and the first read was lost, and the
            // screen stayed drawn for the old size until a key.
            event::poll(Duration::ZERO)?;
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

#[cfg(test)]
pub(crate) mod tests;
