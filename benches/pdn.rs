//! PDN reading speed on a big database.
//!
//! `cargo bench --bench pdn` generates a 50 MB file (the Tinsley games of the test
//! fixtures, repeated) in a temporary folder and reads it as `checkers pdn check`
//! does: its encoding found, then streamed from the file, every game replayed. Criterion reports the throughput
//! in bytes a second (one core). The target is 50 MB/s.

use checkers::pdn::{Encoding, games_in};
use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::fs::File;
use std::io::BufReader;
use std::time::Duration;

const TINSLEY: &str = include_str!("../tests/fixtures/tinsley.pdn");

/// Bytes of the generated database.
const DATABASE_BYTES: usize = 50 << 20;

fn benches(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("database.pdn");
    let mut text = String::with_capacity(DATABASE_BYTES + TINSLEY.len());
    while text.len() < DATABASE_BYTES {
        text.push_str(TINSLEY);
        text.push('\n');
    }
    std::fs::write(&path, &text).expect("the database written");
    let mut group = c.benchmark_group("pdn");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(10));
    group.throughput(Throughput::Bytes(text.len() as u64));
    group.bench_function("stream and replay 50 MB", |b| {
        b.iter(|| {
            let encoding = Encoding::of(File::open(&path).expect("the database"));
            let file = BufReader::new(File::open(&path).expect("the database"));
            let games = games_in(file, encoding.expect("the database read"));
            games.filter(Result::is_ok).count()
        })
    });
    group.finish();
}

criterion_group!(pdn_benches, benches);
criterion_main!(pdn_benches);
