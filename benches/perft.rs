//! Move generation and perft speed.
//!
//! `cargo bench --bench perft`. The headline figure, perft(12) from the start position,
//! takes seconds per run and is measured with `checkers perft 12` instead (see README).

use checkers::rules::{Position, perft};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;

fn benches(c: &mut Criterion) {
    let start = Position::start();
    let kings: Position = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"
        .parse()
        .expect("valid FEN");
    let mut group = c.benchmark_group("perft");
    group.sample_size(20);
    group.bench_function("start depth 8 (845931 leaves)", |b| {
        b.iter(|| perft(black_box(&start), 8))
    });
    group.bench_function("kings depth 6 (40745 leaves)", |b| {
        b.iter(|| perft(black_box(&kings), 6))
    });
    group.finish();
    c.bench_function("legal_moves start", |b| {
        b.iter(|| black_box(&start).legal_moves())
    });
    c.bench_function("legal_moves kings", |b| {
        b.iter(|| black_box(&kings).legal_moves())
    });
}

criterion_group!(perft_benches, benches);
criterion_main!(perft_benches);
