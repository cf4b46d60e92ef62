//! Perft counts against the published figures (every capture route counts).

use checkers::rules::{Position, perft, perft_divide, perft_threads};

const START: [u64; 13] = [
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963680, 18391564, 85242128, 388623673,
    1766623630,
];

const KINGS_FEN: &str = "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29";
const KINGS: [u64; 8] = [5, 38, 178, 1378, 5836, 40745, 197933, 1377007];

#[test]
fn start_position_depths_1_to_10() {
    let pos = Position::start();
    assert_eq!(perft(&pos, 0), 1);
    for (depth, &expected) in (1..=10).zip(START.iter()) {
        assert_eq!(perft(&pos, depth), expected, "depth {depth}");
    }
}

#[test]
fn king_position_depths_1_to_8() {
    let pos: Position = KINGS_FEN.parse().unwrap();
    for (depth, &expected) in (1..=8).zip(KINGS.iter()) {
        assert_eq!(perft(&pos, depth), expected, "depth {depth}");
    }
}

#[test]
fn divide_adds_up_and_names_each_first_move() {
    let pos = Position::start();
    let split = perft_divide(&pos, 6, 1);
    let names: Vec<String> = split.iter().map(|(m, _)| m.to_string()).collect();
    assert_eq!(
        names,
        ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    );
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), START[5]);
    assert_eq!(
        perft_divide(&pos, 6, 3),
        split,
        "threads must not change the split"
    );
}

#[test]
fn threads_give_the_same_count() {
    let pos: Position = KINGS_FEN.parse().unwrap();
    assert_eq!(perft_threads(&pos, 6, 2), KINGS[5]);
    assert_eq!(perft_threads(&Position::start(), 8, 4), START[7]);
}

/// The deep figures: run with `cargo test --release -- --ignored` (about 12 s).
#[test]
#[ignore]
fn start_position_depths_11_to_13() {
    let pos = Position::start();
    for depth in 11..=13 {
        assert_eq!(
            perft_threads(&pos, depth, 2),
            START[depth as usize - 1],
            "depth {depth}"
        );
    }
}
