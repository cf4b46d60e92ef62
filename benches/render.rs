//! Time to draw one full 80x24 frame of the game into a buffer.

use checkers::runtime::Command;
use checkers::tui::{App, Settings};
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use std::hint::black_box;

fn mid_game() -> App {
    let mut app = App::new(Settings::default(), 80, 24);
    for m in [
        "11-15", "22-18", "15x22", "25x18", "8-11", "29-25", "4-8", "25-22",
    ] {
        // The opening is legal; a failure would show up as a shorter move list, not a panic.
        app.command(Command::PlayText(m.to_string()));
    }
    app
}

fn render(c: &mut Criterion) {
    let app = mid_game();
    let area = Rect::new(0, 0, 80, 24);
    c.bench_function("render 80x24 mid-game frame", |b| {
        b.iter(|| {
            let mut buf = Buffer::empty(area);
            black_box(&app).render(area, &mut buf);
            black_box(buf)
        })
    });
}

criterion_group!(benches, render);
criterion_main!(benches);
