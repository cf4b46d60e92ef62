//! Search and evaluation speed.
//!
//! `cargo bench --bench engine` (with `--features lab`, the network's step of one move
//! too). Depth reached in a given time is measured with
//! `checkers analyse --movetime MS` instead (see the engine notes).

use checkers::engine::{Engine, Evaluation, Limits, SearchRequest, StopFlag};
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
    // Each evaluation side by side: the learned table against the hand-written one it
    // replaced (the trees differ, so compare nodes per second with `analyse` too).
    for evaluation in [Evaluation::Learned, Evaluation::Hand] {
        for (name, pos, depth) in [
            ("start depth 11", start, 11),
            ("middle game depth 11", middle, 11),
        ] {
            group.bench_function(format!("{name} {}", evaluation.name()), |b| {
                b.iter(|| {
                    // A fresh table each time: the same work every iteration.
                    let mut engine = Engine::new(16);
                    let request = SearchRequest::new(black_box(pos), Limits::depth(depth))
                        .with_evaluation(evaluation);
                    engine.search(&request, &StopFlag::new(), |_| {})
                })
            });
        }
    }
    // Nodes per second, net against table: a search of a fixed number of nodes, so
    // that 200,000 divided by the median time is each evaluation's speed in the search
    // (the network's accumulator updated move by move).
    for evaluation in [Evaluation::Net, Evaluation::Learned] {
        group.bench_function(
            format!("middle game 200000 nodes {}", evaluation.name()),
            |b| {
                b.iter(|| {
                    let mut engine = Engine::new(16);
                    let request = SearchRequest::new(black_box(middle), Limits::nodes(200_000))
                        .with_evaluation(evaluation);
                    engine.search(&request, &StopFlag::new(), |_| {})
                })
            },
        );
    }
    group.finish();
    #[cfg(feature = "lab")]
    {
        let step = checkers::lab::bench::NetworkStep::new(middle);
        c.bench_function("network update and evaluate a move", |b| {
            b.iter(|| black_box(&step).run())
        });
    }
    let moves = middle.count_moves();
    for evaluation in [Evaluation::Net, Evaluation::Learned, Evaluation::Hand] {
        c.bench_function(
            &format!("evaluate middle game {}", evaluation.name()),
            |b| b.iter(|| evaluation.evaluate_with_moves(black_box(&middle), moves)),
        );
    }
}

criterion_group!(engine, benches);
criterion_main!(engine);
