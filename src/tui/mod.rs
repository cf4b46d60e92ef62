//! The terminal front end: two players sharing one terminal.
//!
//! [`App`] holds the state; keys and clicks become [`Action`]s; [`App::update`] applies
//! them without I/O; `impl Widget for &App` ([`view`]) draws; [`geometry`] is the one
//! place that decides where squares are, for drawing and for mouse clicks alike. This
//! module only owns the terminal: set-up, the event loop, and restoring it on every exit.

pub mod app;
pub mod geometry;
pub mod theme;
pub mod view;

pub use app::{Action, App, Settings};
pub use theme::Theme;

use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use ratatui::crossterm::event::{self, DisableMouseCapture, EnableMouseCapture};
use ratatui::crossterm::execute;
use ratatui::crossterm::terminal::{
    EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use std::io::{self, Stdout, stdout};

/// Runs the game until the players quit. The terminal is restored before returning,
/// whether the game ended normally or with an error, and by a panic hook on a panic.
pub fn run(settings: Settings) -> io::Result<()> {
    install_panic_hook(settings.mouse);
    let guard = TerminalGuard::enter(settings.mouse)?;
    let result = event_loop(settings);
    let restored = guard.leave();
    result.and(restored)
}

fn event_loop(settings: Settings) -> io::Result<()> {
    let mut terminal = Terminal::new(CrosstermBackend::new(stdout()))?;
    let size = terminal.size()?;
    let mut app = App::new(settings, size.width, size.height);
    let mut redraw = true;
    loop {
        if redraw {
            terminal.draw(|frame| frame.render_widget(&app, frame.area()))?;
        }
        // Blocking read: the screen changes only when something happens.
        let event = event::read()?;
        redraw = app.handle_event(&event);
        if app.quit {
            return Ok(());
        }
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
