//! Endgame database probe speed.
//!
//! `cargo bench --bench egdb` probes the databases in `EGDB_DIR` if set (e.g. the
//! 5-piece build in the data folder), otherwise a 4-piece build that `checkers egdb
//! build` makes in a temporary folder first (about 5 s). Each iteration probes a batch of positions:
//! - "random": positions drawn at random from every slice (nearly every probe
//!   decompresses a block: the slow path);
//! - "search": the positions of a small search tree below a few endgames (what the
//!   engine asks, mostly from the block cache).
//!
//! Probes per second = batch size / time per iteration.

use checkers::engine::egdb::Egdb;
use checkers::rules::{Bitboard, Color, Position, Square};
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
    let built = std::process::Command::new(env!("CARGO_BIN_EXE_checkers"))
        .args(["egdb", "build", "--pieces", "4", "--threads", "2", "--dir"])
        .arg(temp.path())
        .output()
        .expect("checkers egdb build runs");
    assert!(built.status.success(), "{built:?}");
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

/// `n` positions the databases hold, drawn at random: two to `complete_pieces`
/// pieces, each a man or a king of either side, on random squares (no man on its
/// crowning row), either side to move.
fn random_positions(db: &Egdb, n: usize) -> Vec<Position> {
    let mut state = 7;
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let pieces = 2 + next(&mut state) as u32 % (db.complete_pieces() - 1);
        let mut sides = [Bitboard::EMPTY; 2];
        let mut kings = Bitboard::EMPTY;
        for i in 0..pieces {
            let square = Square::from_index((next(&mut state) % 32) as u8);
            // Each side has a piece; the rest fall to either.
            let side = if i < 2 {
                i as usize
            } else {
                next(&mut state) as usize % 2
            };
            sides[side] = sides[side].with(square);
            if next(&mut state).is_multiple_of(2) {
                kings = kings.with(square);
            }
        }
        let turn = if next(&mut state).is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        if let Ok(p) = Position::from_parts(sides[0], sides[1], kings, turn)
            && db.probe(&p).is_some()
        {
            out.push(p);
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
