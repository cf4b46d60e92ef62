//! The event loop's view of the clocks: it gives the session the time, tells a flag
//! fall and a warning, redraws when a reading changes, and rings the bell.

use super::{App, Autosaver, Shared, app, autosave, lock};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;
use std::io::Stdout;
use std::time::Instant;

/// The event loop's view of the clocks: what was last shown.
#[derive(Default)]
pub(super) struct ClockWatch {
    shown: String,
    /// Whether the last [`watch`](Self::watch) wants the bell rung.
    ring: bool,
}

impl ClockWatch {
    /// [`watch`](Self::watch), then the news saved (a flag fall ends the game with no
    /// key pressed: saved before the wait) and the bell rung if it is wanted (`bell`).
    /// Returns whether the screen must be drawn again.
    pub(super) fn watch_and_ring(
        &mut self,
        app: &mut App,
        autosaver: &Autosaver,
        terminal: &mut Terminal<CrosstermBackend<Stdout>>,
        shared: &Shared,
        bell: bool,
    ) -> bool {
        if !self.watch(app) {
            return false;
        }
        autosave(autosaver, app);
        if bell && self.ring {
            use std::io::Write;
            // The bell is a control character, not drawing: the screen is unchanged.
            let _frame = lock(&shared.screen);
            let out = terminal.backend_mut();
            let _ = out.write_all(b"\x07");
            let _ = out.flush();
        }
        true
    }

    /// Gives the session the time: a flag fall ends the game and is told, a warning
    /// that time is nearly up is told. Returns whether the screen must be drawn again (a
    /// reading changed, or news); sets `ring` for a warning and a flag fall.
    fn watch(&mut self, app: &mut App) -> bool {
        self.ring = false;
        if app.session.clock().is_none() {
            return false;
        }
        if let Some(news) = app.session.tick(Instant::now()) {
            let news = app.with_match_news(news);
            app.notify(app::Tone::Info, news);
            self.ring = true;
        }
        if let Some(warning) = app.session.clock_warning() {
            app.notify(app::Tone::Error, warning);
            self.ring = true;
        }
        let mut shown = String::new();
        for color in crate::rules::Color::ALL {
            let left = app.session.time_left(color).unwrap_or_default();
            let running = app.session.clock().and_then(|c| c.running()) == Some(color);
            shown.push_str(&crate::session::clock_text(left));
            shown.push(if running { '*' } else { ' ' });
        }
        let changed = shown != self.shown;
        self.shown = shown;
        changed || self.ring
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::session::Session;
    use crate::tui::Settings;
    use crate::tui::app::Tone;

    #[test]
    fn the_clock_watch_tells_a_warning_once_and_rings_the_bell_for_it() {
        let session = Session::new(Game::new())
            .with_clock("0:05+0".parse().expect("a clock spec"), Instant::now());
        let mut app = App::with_session(Settings::default(), session, 80, 24);
        let mut watch = ClockWatch::default();
        assert!(watch.watch(&mut app));
        assert!(watch.ring, "five seconds left: the bell");
        let (tone, text) = app.message.clone().expect("a warning");
        assert_eq!(tone, Tone::Error);
        assert!(text.starts_with("Black: 5 seconds left"), "{text}");
        watch.watch(&mut app);
        assert!(!watch.ring, "rung once");
    }
}
