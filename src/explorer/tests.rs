//! Tests of the explorer's index: exact counts from a small collection, and the
//! built-in collection's counts against a count made independently from the PDN file.

use super::*;
use crate::game::Game;

/// The position after `moves` (PDN notation, space-separated) from the start.
fn after(moves: &str) -> Position {
    let mut game = Game::new();
    for word in moves.split_whitespace() {
        game.play_text(word).expect("the test's moves are legal");
    }
    *game.position()
}

/// The counts of `explorer` at `pos`, by move notation.
fn counts(explorer: &Explorer, pos: &Position) -> Vec<(String, Tally)> {
    explorer
        .moves_from(pos)
        .into_iter()
        .map(|(m, tally)| (pos.notation(&m), tally))
        .collect()
}

fn tally(games: u32, black_wins: u32, draws: u32, white_wins: u32) -> Tally {
    Tally {
        games,
        black_wins,
        draws,
        white_wins,
    }
}

const SMALL: &str = r#"[Event "a"]
[Result "1-0"]
1. 11-15 23-19 2. 8-11 22-17 1-0

[Event "b"]
[Result "1/2-1/2"]
1. 11-15 23-19 2. 9-13 1/2-1/2

[Event "c"]
[Result "0-1"]
1. 11-15 22-17 0-1

[Event "d"]
1. 9-14 23-19 *

[Event "broken"]
[Result "1-0"]
1. 11-15 11-15 1-0

[Event "set up"]
[FEN "W:W23,22:B11,8"]
[Result "0-1"]
1. ... 23-19 2. 11-15 0-1
"#;

#[test]
fn a_small_collection_is_counted_exactly() {
    let explorer = Explorer::of_text(SMALL, None);
    assert_eq!(explorer.games_read(), 5);
    assert_eq!(explorer.games_skipped(), 1);
    let start = Position::start();
    assert_eq!(
        counts(&explorer, &start),
        vec![
            ("11-15".to_string(), tally(3, 1, 1, 1)),
            // Game d has no result: counted, in no column.
            ("9-14".to_string(), tally(1, 0, 0, 0)),
        ]
    );
    assert_eq!(
        counts(&explorer, &after("11-15")),
        vec![
            ("23-19".to_string(), tally(2, 1, 1, 0)),
            ("22-17".to_string(), tally(1, 0, 0, 1)),
        ]
    );
    assert_eq!(
        counts(&explorer, &after("11-15 23-19")),
        vec![
            ("8-11".to_string(), tally(1, 1, 0, 0)),
            ("9-13".to_string(), tally(1, 0, 1, 0)),
        ]
    );
    // The set-up game is indexed from its own start.
    let set_up: Position = "W:W23,22:B11,8".parse().expect("a valid FEN");
    assert_eq!(
        counts(&explorer, &set_up),
        vec![("23-19".to_string(), tally(1, 0, 0, 1))]
    );
    // A position no game reaches has no moves.
    assert!(explorer.moves_from(&after("12-16")).is_empty());
    // A limit reads only the first games.
    let first_two = Explorer::of_text(SMALL, Some(2));
    assert_eq!(first_two.games_read(), 2);
    assert_eq!(
        counts(&first_two, &start),
        vec![("11-15".to_string(), tally(2, 1, 1, 0))]
    );
}

#[test]
fn scores_are_for_the_side_asked_over_games_with_a_result() {
    let t = tally(5, 2, 1, 1);
    assert_eq!(t.score_percent(Color::Black), Some(62.5));
    assert_eq!(t.score_percent(Color::White), Some(37.5));
    assert_eq!(tally(1, 0, 0, 0).score_percent(Color::Black), None);
}

/// The moves played at `pos` in `text`, counted the plain way: every game that replays,
/// replayed move by move with [`Game`], the move after each time it stands at `pos`
/// (once a game), with the game's result tag.
fn counted_by_hand(text: &str, pos: &Position) -> Vec<(String, Tally)> {
    let mut found: HashMap<String, Tally> = HashMap::new();
    for record in crate::pdn::read_games(text).into_iter().flatten() {
        let mut game = Game::from_position(record.start);
        let mut counted: Vec<String> = Vec::new();
        for m in &record.moves {
            if game.position() == pos {
                let word = pos.notation(m);
                if !counted.contains(&word) {
                    let t = found.entry(word.clone()).or_default();
                    t.games += 1;
                    match record.tag("Result") {
                        Some("1-0") => t.black_wins += 1,
                        Some("0-1") => t.white_wins += 1,
                        Some("1/2-1/2") => t.draws += 1,
                        _ => {}
                    }
                    counted.push(word);
                }
            }
            game.play(m).expect("a record that reads replays");
        }
    }
    let mut found: Vec<(String, Tally)> = found.into_iter().collect();
    found.sort_by(|(a, ta), (b, tb)| tb.games.cmp(&ta.games).then_with(|| a.cmp(b)));
    found
}

#[test]
fn the_builtin_counts_equal_a_count_made_from_the_pdn_file() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");
    let text = crate::pdn::decode_owned(std::fs::read(path).expect("the fixture reads"));
    // The shipped copy is the fixture.
    assert_eq!(builtin_text(), text);
    let explorer = builtin();
    let records = crate::pdn::read_games(&text);
    let bad = records.iter().filter(|r| r.is_err()).count();
    assert_eq!(explorer.games_read(), records.len() - bad);
    assert_eq!(explorer.games_skipped(), bad);
    assert_eq!((explorer.games_read(), bad), (723, 1));
    for line in ["", "11-15", "11-15 23-19 8-11", "11-15 23-18 8-11 27-23"] {
        let pos = after(line);
        let by_hand = counted_by_hand(&text, &pos);
        assert!(!by_hand.is_empty(), "games reach {line:?}");
        assert_eq!(counts(explorer, &pos), by_hand, "after {line:?}");
    }
    let at_start: u32 = counts(explorer, &Position::start())
        .iter()
        .map(|(_, t)| t.games)
        .sum();
    assert_eq!(at_start, 723);
}
