//! Time to draw one full 80x24 frame of the game into a buffer
//! (`cargo bench --features lab --bench render`).

use checkers::lab::bench::MidGameScreen;
use criterion::{Criterion, criterion_group, criterion_main};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::hint::black_box;

fn render(c: &mut Criterion) {
    let screen = MidGameScreen::new(80, 24);
    let area = Rect::new(0, 0, 80, 24);
    c.bench_function("render 80x24 mid-game frame", |b| {
        b.iter(|| {
            let mut buf = Buffer::empty(area);
            black_box(&screen).draw(&mut buf);
            black_box(buf)
        })
    });
}

criterion_group!(benches, render);
criterion_main!(benches);
