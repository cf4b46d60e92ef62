//! PDN reading (lenient, on real and hand-made files) and writing (strict), round trips,
//! and a fuzzer showing the reader never panics.

use checkers::pdn::{GameErrorKind, PdnGame, decode, read_games, write_game};
use checkers::rules::{Color, MoveError, Position};
use proptest::prelude::*;

const TINSLEY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/fixtures/tinsley.pdn");

fn one(text: &str) -> PdnGame {
    let games = read_games(text);
    assert_eq!(games.len(), 1, "{games:?}");
    games
        .into_iter()
        .next()
        .unwrap()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn moves_of(game: &PdnGame) -> Vec<String> {
    game.moves.iter().map(|m| m.to_string()).collect()
}

#[test]
fn tinsley_corpus_replays_all_but_game_541() {
    let text = decode(&std::fs::read(TINSLEY).unwrap());
    let games = read_games(&text);
    assert_eq!(games.len(), 724);
    let errors: Vec<_> = games.iter().filter_map(|g| g.as_ref().err()).collect();
    assert_eq!(errors.len(), 1, "{errors:#?}");
    let e = errors[0];
    assert_eq!(e.game, 541);
    assert_eq!(e.event.as_deref(), Some("Petal 1981, game 18"));
    // The file numbers this move 62 (its second 32-28 after 60. 32-28 left 32 empty).
    match &e.kind {
        GameErrorKind::Move {
            number,
            color,
            text,
            line,
            error,
            ..
        } => {
            assert_eq!(
                (*number, *color, text.as_str(), *line),
                (62, Color::Black, "32-28", 5588)
            );
            assert!(matches!(**error, MoveError::Illegal(_)));
            assert_eq!(error.to_string(), "no piece of yours on 32: it is empty");
        }
        other => panic!("unexpected {other:?}"),
    }
    assert_eq!(
        e.to_string(),
        "game 541 (\"Petal 1981, game 18\"), move 62. 32-28 (Black, line 5588, column 5): \
         no piece of yours on 32: it is empty"
    );
    // The first game ends in a three-piece jump: 24x15x6.
    let first = games[0].as_ref().unwrap();
    assert_eq!(first.tag("Black"), Some("MF Tinsley"));
    assert_eq!(first.result.as_deref(), Some("1/2-1/2"));
    assert_eq!(moves_of(first).last().map(String::as_str), Some("24x15x6"));
}

#[test]
fn tags_with_escaped_quotes_and_backslashes() {
    let g = one(r#"[Event "The \"Big\" One \\ 1950"] [Black "A"] 1. 11-15 *"#);
    assert_eq!(g.tag("Event"), Some(r#"The "Big" One \ 1950"#));
    assert_eq!(g.result.as_deref(), Some("*"));
}

#[test]
fn comments_variations_nags_and_marks_are_skipped() {
    let g = one(
        "[Event \"x\"]\n1. 11-15! {a good {start} 23-19?! ; a line comment\n\
         2. 8-11 (2. 9-14 (2. 10-14 22-17) 22-17) $1 22-17 $14 *\n",
    );
    assert_eq!(moves_of(&g), ["11-15", "23-19", "8-11", "22-17"]);
}

#[test]
fn move_numbers_are_optional_and_may_be_glued() {
    let g = one("11-15 23-19 2.8-11 22-17 3... 4-8 *");
    assert_eq!(moves_of(&g), ["11-15", "23-19", "8-11", "22-17", "4-8"]);
}

#[test]
fn wrong_separators_and_both_jump_forms() {
    // 11x15 for a step, 15-24 for a capture, short 22x8 for a double jump.
    let g = one("[FEN \"W:W22,23:B18,11,1\"]\n1. ... 22-8 2. 1x6 23x18 *");
    assert_eq!(moves_of(&g), ["22x15x8", "1-6", "23-18"]);
    let g = one("[FEN \"W:W22,23:B18,11,1\"]\n1. ... 22x15x8 2. 1-6 *");
    assert_eq!(moves_of(&g), ["22x15x8", "1-6"]);
}

#[test]
fn set_up_position_with_white_to_move_ranges_and_trailing_dot() {
    let g = one("[SetUp \"1\"]\n[FEN \"W:W21-32:B1-12.\"]\n1. ... 23-19 2. 11-15 *");
    assert_eq!(g.start.turn(), Color::White);
    assert_eq!(moves_of(&g), ["23-19", "11-15"]);
}

#[test]
fn several_games_with_and_without_result_tokens() {
    let text =
        "[Event \"a\"]\n1. 11-15 1-0\n\n[Event \"b\"]\n1. 9-14\n[Event \"c\"]\n1. 10-14 23-19 0-1";
    let games = read_games(text);
    assert_eq!(games.len(), 3);
    let events: Vec<_> = games
        .iter()
        .map(|g| g.as_ref().unwrap().tag("Event").unwrap())
        .collect();
    assert_eq!(events, ["a", "b", "c"]);
    assert_eq!(games[1].as_ref().unwrap().result, None);
    assert_eq!(games[2].as_ref().unwrap().moves.len(), 2);
}

#[test]
fn latin1_and_utf8_text() {
    let mut bytes = b"[Event \"Z\xfcrich\"] 1. 11-15 *".to_vec();
    assert_eq!(one(&decode(&bytes)).tag("Event"), Some("Zürich"));
    bytes = "\u{feff}[Event \"Zürich\"] 1. 11-15 *".as_bytes().to_vec();
    assert_eq!(one(&decode(&bytes)).tag("Event"), Some("Zürich"));
}

#[test]
fn text_glued_to_a_move_is_cut_off() {
    let g = one("1. 11-15 23-19 2. 8-11Redoversteppedthetime. 0-1");
    assert_eq!(moves_of(&g), ["11-15", "23-19", "8-11"]);
}

#[test]
fn a_faulty_game_is_reported_and_the_next_still_loads() {
    let text = "[Event \"bad\"]\n1. 11-15 23-19\n2. 11-16 22-17 *\n[Event \"good\"]\n1. 9-13 *";
    let games = read_games(text);
    assert_eq!(games.len(), 2);
    let e = games[0].as_ref().unwrap_err();
    assert_eq!(
        e.to_string(),
        "game 1 (\"bad\"), move 2. 11-16 (Black, line 3, column 4): no piece of yours on 11: it is empty"
    );
    assert!(games[1].is_ok());
}

#[test]
fn ambiguous_short_jump_in_a_record_is_an_error_not_a_guess() {
    let games = read_games("[FEN \"B:W6,7,14,15:B2\"] 1. 2x18 *");
    let e = games[0].as_ref().unwrap_err();
    assert!(
        e.to_string()
            .ends_with("2x18 is ambiguous: 2x9x18 or 2x11x18"),
        "{e}"
    );
}

#[test]
fn syntax_errors_carry_line_and_column() {
    let cases = [
        (
            "[Event \"x\"]\n1. 11-15 {never closed",
            "line 2, column 10: comment '{' never closed",
        ),
        (
            "[Event \"x]\n1. 11-15",
            "line 1, column 1: tag Event: its value's quote is never closed",
        ),
        (
            "[Event x]\n1. 11-15 *",
            "line 1, column 8: tag Event: its value must be in quotes",
        ),
        (
            "1. 11-15 ) 23-19 *",
            "line 1, column 10: ')' without a variation to close",
        ),
        (
            "1. 11-15\n  (2. 9-14 *",
            "line 2, column 3: variation '(' never closed",
        ),
    ];
    for (text, message) in cases {
        let games = read_games(text);
        let e = games
            .first()
            .and_then(|g| g.as_ref().err())
            .unwrap_or_else(|| panic!("{text}"));
        assert!(matches!(e.kind, GameErrorKind::Syntax(_)), "{text}");
        // A text that ends in the fault (an unclosed comment) may add that it ends there.
        let said = e.to_string();
        let rest = said.split_once(message).map(|(_, rest)| rest);
        assert!(
            rest.is_some_and(|rest| rest.is_empty() || rest.starts_with("; the file ends there")),
            "{text}: {e}"
        );
    }
    let e = read_games("[FEN \"B:W33:B1\"] 1. 1-5 *")
        .remove(0)
        .unwrap_err();
    assert!(
        e.to_string()
            .contains("line 1, column 1: FEN, White's pieces, entry '33'"),
        "{e}"
    );
    // The FEN tag's own place, not the game's first line.
    let e = read_games("[Event \"E\"]\n\n  [FEN \"B:W33:B1\"] 1. 1-5 *")
        .remove(0)
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("game 1 (\"E\"), line 3, column 3: FEN, White's pieces"),
        "{e}"
    );
}

#[test]
fn writer_is_strict_and_wraps() {
    let text = decode(&std::fs::read(TINSLEY).unwrap());
    let game = read_games(&text).into_iter().next().unwrap().unwrap();
    let out = write_game(&game);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        &lines[..8],
        [
            "[GameType \"21\"]",
            "[Event \"Ohio State Ty 1946\"]",
            "[Site \"?\"]",
            "[Date \"????.??.??\"]",
            "[Round \"?\"]",
            "[Black \"MF Tinsley\"]",
            "[White \"M Rex\"]",
            "[Result \"1/2-1/2\"]",
        ]
    );
    assert!(lines[8].starts_with("1. 11-15 23-18 2. 8-11 27-23 3. 4-8 23-19 4. 10-14 19x10"));
    assert!(lines.iter().all(|l| l.len() <= 79));
    // The record's long 24x15x6 is written short: no other route joins 24 and 6.
    assert!(out.ends_with(" 17x10 24x6 1/2-1/2\n"), "{out}");
}

#[test]
fn writer_marks_set_up_positions_and_white_first() {
    let start: Position = "W:W22:B18,11".parse().unwrap();
    let mut game = PdnGame::new(start);
    game.moves.push(start.parse_move("22x8").unwrap());
    game.result = Some("0-1".into());
    let out = write_game(&game);
    assert!(
        out.contains("[SetUp \"1\"]\n[FEN \"W:W22:B11,18\"]\n"),
        "{out}"
    );
    assert!(out.ends_with("\n1. ... 22x8 0-1\n"), "{out}");
    let ambiguous: Position = "B:W6,7,14,15:B2".parse().unwrap();
    let mut game = PdnGame::new(ambiguous);
    game.moves.push(ambiguous.parse_move("2x11x18").unwrap());
    assert!(write_game(&game).ends_with("\n1. 2x11x18 *\n"));
}

fn arb_tag_value() -> impl Strategy<Value = String> {
    "[ -~]{0,20}"
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn write_then_read_gives_the_same_tags_and_moves(
        choices in proptest::collection::vec(any::<usize>(), 0..150),
        event in arb_tag_value(),
        black in arb_tag_value(),
        extra in arb_tag_value(),
        white_first in any::<bool>(),
    ) {
        let start = if white_first { Position::start().with_turn(Color::White) } else { Position::start() };
        let mut game = PdnGame::new(start);
        let mut pos = start;
        for c in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() { break; }
            let m = moves[c % moves.len()];
            pos = pos.play_unchecked(&m);
            game.moves.push(m);
        }
        game.set_tag("Event", &event);
        game.set_tag("Black", &black);
        game.set_tag("Annotator", &extra);
        game.result = Some("*".into());
        let text = write_game(&game);
        let back = read_games(&text);
        prop_assert_eq!(back.len(), 1);
        let back = back.into_iter().next().unwrap().unwrap();
        prop_assert_eq!(&back.moves, &game.moves);
        prop_assert_eq!(back.start, game.start);
        prop_assert_eq!(back.tag("Event"), Some(event.as_str()));
        prop_assert_eq!(back.tag("Black"), Some(black.as_str()));
        prop_assert_eq!(back.tag("Annotator"), Some(extra.as_str()));
        prop_assert_eq!(back.tag("GameType"), Some("21"));
        prop_assert_eq!(write_game(&back), text);
    }
}

/// A small deterministic generator (xorshift), so the fuzz run is the same every time.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Feeds the reader and the FEN parser `count` inputs: pieces of the real corpus with
/// random bytes flipped, inserted (PDN's special characters favoured), deleted or cut.
fn fuzz(count: usize) {
    let corpus = std::fs::read(TINSLEY).unwrap();
    let special = b"{}()[]\"\\$;%.-x:*!?K,WB0123456789\n \xff\xc3";
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..count {
        let len = 1 + rng.below(600);
        let at = rng.below(corpus.len() - len);
        let mut bytes = corpus[at..at + len].to_vec();
        for _ in 0..rng.below(8) {
            let i = rng.below(bytes.len() + 1);
            match rng.below(4) {
                0 if i < bytes.len() => bytes[i] = rng.next() as u8,
                1 => bytes.insert(i, special[rng.below(special.len())]),
                2 if i < bytes.len() => {
                    bytes.remove(i);
                }
                _ => bytes.truncate(i),
            }
        }
        let text = decode(&bytes);
        for game in read_games(&text).into_iter().flatten() {
            // Whatever loads must write out and read back the same.
            let again = read_games(&write_game(&game));
            assert_eq!(
                again[0].as_ref().map(|g| &g.moves),
                Ok(&game.moves),
                "{text:?}"
            );
        }
        let _ = text.parse::<Position>();
        let _ = text
            .get(..text.len().min(40))
            .map(|t| t.parse::<Position>());
    }
}

/// The default run's share of the fuzzing: the first 5,000 inputs of the long run
/// below, a few hundredths of a second.
#[test]
fn reader_never_panics_on_5000_mutated_real_files() {
    fuzz(5_000);
}

/// The long run, out of the default one: `cargo test --release --test library --
/// --ignored reader_never_panics`.
#[test]
#[ignore = "long fuzzing: run with --ignored"]
fn reader_never_panics_on_100000_mutated_real_files() {
    fuzz(100_000);
}

#[test]
fn writer_falls_back_to_the_result_tag() {
    let g = one("[Result \"0-1\"]\n1. 11-15 23-19\n");
    assert_eq!(g.result, None);
    assert!(write_game(&g).ends_with("1. 11-15 23-19 0-1\n"));
    let g = one("[Result \"2-0\"]\n1. 11-15\n");
    assert!(
        write_game(&g).ends_with("1. 11-15 1-0\n"),
        "points are written as a result"
    );
    let g = one("1. 11-15 1-1");
    assert!(write_game(&g).ends_with("1. 11-15 1/2-1/2\n"));
    let g = one("[Result \"won\"]\n1. 11-15\n");
    assert!(
        write_game(&g).ends_with("1. 11-15 *\n"),
        "an unknown result is not copied"
    );
}

#[test]
fn a_set_up_position_where_a_side_has_no_pieces_is_refused_naming_the_game() {
    let text = "[Event \"lone king\"]\n[SetUp \"1\"]\n[FEN \"B:W:BK31\"]\n1. 31-27 *\n\n\
                [Event \"blocked\"]\n[SetUp \"1\"]\n[FEN \"B:W9,14:B5\"]\n0-1\n";
    let games = read_games(text);
    assert_eq!(games.len(), 2);
    let e = games[0].as_ref().unwrap_err();
    assert_eq!(
        e.to_string(),
        "game 1 (\"lone king\"), line 3, column 1: the FEN's position cannot be played: White has no pieces: a game needs at least one piece on each side"
    );
    // A side with pieces but no move: a finished game, read as one.
    let blocked = games[1].as_ref().unwrap();
    assert_eq!(blocked.start, "B:W9,14:B5".parse::<Position>().unwrap());
}

#[test]
fn a_mark_written_apart_from_its_move_is_skipped_not_read_as_a_move() {
    // Hand-typed files and some programs put the mark after a space; the game went on
    // past it (it stopped there: "move 4. ??: no move given", and lost the rest).
    let text =
        "[Event \"marks\"]\n1. 11-15 ! 23-19 ?? 2. 8-11 !? (2. 9-14 ?) 22-17 ?! 3. 9-13 !! *";
    let g = one(text);
    assert_eq!(moves_of(&g), ["11-15", "23-19", "8-11", "22-17", "9-13"]);
    assert_eq!(g.result.as_deref(), Some("*"));
}

#[test]
fn a_game_of_another_kind_of_draughts_is_refused_not_replayed_as_checkers() {
    // Its moves replayed by English rules, as a wrong game (these ones even replay);
    // a game of another kind whose moves did not replay was said to have an illegal
    // move ("no piece of yours on 32"), as though the record were wrong.
    let text = "[GameType \"20\"]\n[Event \"Dutch league\"]\n1. 11-15 23-19 *\n\n\
                [Event \"ours\"]\n[GameType \"21,B,8,8,N1,0\"]\n1. 11-15 *\n\n\
                [GameType \"?\"]\n1. 9-14 *\n";
    let games = read_games(text);
    assert_eq!(games.len(), 3);
    let refused = games[0].as_ref().unwrap_err();
    assert!(
        matches!(
            refused.kind,
            GameErrorKind::GameType {
                number: 20,
                line: 1,
                column: 1
            }
        ),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "game 1 (\"Dutch league\"), line 1, column 1: GameType 20 is international draughts \
         (10x10), not English checkers (GameType 21), the only game this program reads"
    );
    // English checkers with the board described, and a value that is no number, read.
    assert_eq!(moves_of(games[1].as_ref().unwrap()), ["11-15"]);
    assert_eq!(moves_of(games[2].as_ref().unwrap()), ["9-14"]);
}
