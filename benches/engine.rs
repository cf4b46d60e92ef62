//! Search and evaluation speed.
//!
//! `cargo bench --bench engine`. Depth reached in a given time is measured with
//! `checkers analyse --movetime MS` instead (see the engine notes).

use checkers::engine::{Engine, Limits, SearchRequest, StopFlag, evaluate};
use checkers::rules::Position;
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

/// A middle game from Tinsley's games (20 pieces, Black to move).
const MIDDLE_GAME: &str = "B:W19,20,21,22,24,25,26,29,31,32:B1,2,3,5,8,9,10,12,14,15";

fn benches(c: &mut Criterion) {
    let start = Position::start();
    let middle: Position = MIDDLE_GAME.parse().expect("valid FEN");
    let mut group = c.benchmark_group("search");
    group.sample_size(10);
    for (name, pos, depth) in [
        ("start depth 11", start, 11),
        ("middle game depth 11", middle, 11),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                // A fresh table each time: the same work every iteration.
                let mut engine = Engine::new(16);
                let request = SearchRequest::new(black_box(pos), Limits::depth(depth));
                engine.search(&request, &StopFlag::new(), |_| {})
            })
        });
    }
    group.finish();
    c.bench_function("evaluate middle game", |b| {
        b.iter(|| evaluate(black_box(&middle)))
    });
}

criterion_group!(engine, benches);
criterion_main!(engine);
