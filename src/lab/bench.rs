//! What the benchmarks time that the library does not show: the full-screen game's
//! frame (`cargo bench --features lab --bench render`) and the network's step from a
//! position to the next (`cargo bench --features lab --bench engine`).

use crate::engine::nnue::{Accumulator, Nnue};
use crate::rules::Position;
use crate::runtime::Command;
use crate::tui::{App, Settings};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

/// The full-screen game a few moves in, at one terminal size.
pub struct MidGameScreen(App);

impl MidGameScreen {
    /// The game after eight moves of a common opening, on a `width` x `height` screen.
    pub fn new(width: u16, height: u16) -> MidGameScreen {
        let mut app = App::new(Settings::default(), width, height);
        for m in [
            "11-15", "22-18", "15x22", "25x18", "8-11", "29-25", "4-8", "25-22",
        ] {
            app.command(Command::PlayText(m.to_string()));
        }
        MidGameScreen(app)
    }

    /// Draws one whole frame into `buffer`, whose area is the screen.
    pub fn draw(&self, buffer: &mut Buffer) {
        let area: Rect = buffer.area;
        (&self.0).render(area, buffer);
    }
}

/// The embedded network's work for one move of a search: its first layer brought up to
/// date from the position before, then the position valued.
pub struct NetworkStep {
    before: Position,
    after: Position,
    accumulator: Accumulator,
}

impl NetworkStep {
    /// The step from `before` by its first legal move (`before` must have one).
    pub fn new(before: Position) -> NetworkStep {
        let after = before.play_unchecked(&before.legal_moves()[0]);
        NetworkStep {
            before,
            after,
            accumulator: Nnue::embedded().accumulate(&before),
        }
    }

    /// Updates the first layer and values the position after the move.
    pub fn run(&self) -> i32 {
        let net = Nnue::embedded();
        let updated = net.update(&self.accumulator, &self.before, &self.after);
        net.evaluate(&updated, &self.after)
    }
}
