//! Endgame database probe speed.
//!
//! `cargo bench --bench egdb` probes the databases in `EGDB_DIR` if set (e.g. the
//! 5-piece build in the data folder), otherwise a 4-piece build made in a temporary
//! folder first (about 5 s). Each iteration probes a batch of positions:
//! - "random": positions drawn at random from every slice (nearly every probe
//!   decompresses a block: the slow path);
//! - "search": the positions of a small search tree below a few endgames (what the
//!   engine asks, mostly from the block cache).
//!
//! Probes per second = batch size / time per iteration.

use checkers::engine::egdb::{self, BuildOptions, Egdb, Layout, Signature};
use checkers::rules::{Color, Position};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::path::PathBuf;

fn database() -> (Egdb, Option<tempfile::TempDir>) {
    if let Some(dir) = std::env::var_os("EGDB_DIR") {
        let (db, problems) = Egdb::open(&PathBuf::from(dir));
        assert!(problems.is_empty(), "{problems:?}");
        return (db, None);
    }
    let temp = tempfile::tempdir().expect("a temporary folder");
    let options = BuildOptions {
        dir: temp.path().to_path_buf(),
        max_pieces: 4,
        threads: 2,
    };
    egdb::build(&options, None, |_| {}).expect("the 4-piece build");
    (Egdb::open(temp.path()).0, Some(temp))
}

/// A simple generator (splitmix64), so the batch is the same every run.
fn next(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn random_positions(db: &Egdb, n: usize) -> Vec<Position> {
    let sigs: Vec<Signature> = Signature::all(db.complete_pieces())
        .into_iter()
        .filter(|&s| db.has(s))
        .collect();
    let layouts: Vec<Layout> = sigs.iter().map(|&s| Layout::new(s)).collect();
    let mut state = 7;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let layout = &layouts[next(&mut state) as usize % layouts.len()];
        if let Some(p) = layout.position(next(&mut state) % layout.size) {
            let turn = if next(&mut state).is_multiple_of(2) {
                Color::Black
            } else {
                Color::White
            };
            out.push(p.with_turn(turn));
        }
    }
    out
}

fn tree_positions(roots: &[&str]) -> Vec<Position> {
    let mut out = Vec::new();
    for fen in roots {
        let root: Position = fen.parse().expect("valid FEN");
        let mut level = vec![root];
        for _ in 0..4 {
            let mut next_level = Vec::new();
            for p in &level {
                for m in p.legal_moves() {
                    next_level.push(p.play_unchecked(&m));
                }
            }
            out.extend_from_slice(&next_level);
            level = next_level;
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let (db, _temp) = database();
    let random = random_positions(&db, 100_000);
    let tree = tree_positions(&["W:WK19,K23:BK28,12", "B:WK1,K3:BK10", "B:W18,22:B11,K2"]);
    let tree: Vec<Position> = tree.into_iter().filter(|p| db.probe(p).is_some()).collect();
    let mut group = c.benchmark_group(format!("egdb {} pieces", db.complete_pieces()));
    group.sample_size(10);
    for (name, batch) in [("random", &random), ("search", &tree)] {
        group.throughput(Throughput::Elements(batch.len() as u64));
        group.bench_function(name, |b| {
            b.iter(|| batch.iter().filter_map(|p| db.probe(black_box(p))).count())
        });
    }
    group.finish();
}

criterion_group!(egdb_benches, benches);
criterion_main!(egdb_benches);
