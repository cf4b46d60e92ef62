//! The game's own tests: move lists, undo and redo, endings, offers and claims.

use super::*;
use crate::rules::Square;
use crate::rules::draw::FORTY_MOVE_PLIES;

fn game_from(fen: &str) -> Game {
    Game::from_position(fen.parse().unwrap())
}

fn play_all(game: &mut Game, moves: &[&str]) {
    for m in moves {
        game.play_text(m).unwrap();
    }
}

#[test]
fn move_list_is_numbered_in_pdn_style() {
    let mut game = Game::new();
    play_all(&mut game, &["11-15", "23-19", "8-11"]);
    assert_eq!(game.movetext(), "1. 11-15 23-19 2. 8-11");
    let pairs = game.move_pairs();
    assert_eq!(pairs.len(), 2);
    assert_eq!(pairs[1].to_string(), "2. 8-11");
}

#[test]
fn white_first_from_a_setup_starts_with_an_ellipsis() {
    let mut game = game_from("W:WK7,28:B1,12");
    play_all(&mut game, &["7-3", "12-16"]);
    assert_eq!(game.movetext(), "1. ... 7-3 2. 12-16");
}

#[test]
fn ambiguous_captures_are_written_in_full() {
    let mut game = game_from("B:W6,7,14,15:B2");
    game.play_text("2x9x18").unwrap();
    assert_eq!(game.movetext(), "1. 2x9x18");
}

#[test]
fn illegal_moves_change_nothing() {
    let mut game = Game::new();
    let before = game.clone();
    assert!(matches!(game.play_text("11-17"), Err(PlayError::Move(_))));
    assert!(matches!(game.play_text("22-18"), Err(PlayError::Move(_))));
    assert_eq!(game, before);
    let white_move = "W:W21-32:B1-12".parse::<Position>().unwrap().legal_moves()[0];
    assert!(matches!(game.play(&white_move), Err(PlayError::Illegal(_))));
    assert_eq!(game, before);
}

#[test]
fn undo_and_redo_any_number_of_moves() {
    let mut game = Game::new();
    play_all(&mut game, &["11-15", "23-19", "8-11", "22-17"]);
    let full = game.clone();
    while game.undo() {}
    assert_eq!(game.position(), &Position::start());
    assert!(game.moves().is_empty());
    assert!(game.can_redo());
    while game.redo() {}
    assert_eq!(game, full);
    assert!(!game.redo());
}

#[test]
fn a_new_move_after_undo_drops_the_redo_line_but_the_same_move_keeps_it() {
    let mut game = Game::new();
    play_all(&mut game, &["11-15", "23-19", "8-11"]);
    game.undo();
    game.undo();
    game.play_text("23-19").unwrap();
    assert!(
        game.can_redo(),
        "replaying the undone move keeps the redo line"
    );
    game.undo();
    game.play_text("22-18").unwrap();
    assert!(!game.can_redo());
    assert_eq!(game.movetext(), "1. 11-15 22-18");
}

#[test]
fn no_legal_move_ends_the_game() {
    let mut game = game_from("B:W14:B10");
    game.play_text("10x17").unwrap();
    assert_eq!(
        game.result(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoPieces
        })
    );
    assert!(matches!(game.play_text("17-21"), Err(PlayError::Over(_))));
    assert!(game.undo());
    assert_eq!(game.result(), None);
}

#[test]
fn blocked_side_loses() {
    // White's man on 29 is blocked by Black's man on 25 backed by 22.
    let game = game_from("W:W29:B25,22");
    assert_eq!(
        game.result(),
        Some(Outcome::Win {
            winner: Color::Black,
            reason: WinReason::NoMoves
        })
    );
}

#[test]
fn resignation_ends_the_game_and_undo_takes_it_back() {
    let mut game = Game::new();
    game.play_text("11-15").unwrap();
    let outcome = game.resign(Color::White).unwrap();
    assert_eq!(
        outcome,
        Outcome::Win {
            winner: Color::Black,
            reason: WinReason::Resignation
        }
    );
    assert_eq!(game.result(), Some(outcome));
    assert!(game.resign(Color::Black).is_err());
    assert!(game.play_text("23-19").is_err());
    assert!(!game.redo());
    assert!(game.undo());
    assert_eq!(game.result(), None);
    assert_eq!(
        game.moves().len(),
        1,
        "undo takes back the resignation first"
    );
}

#[test]
fn draw_offers_can_be_accepted_or_declined() {
    let mut game = Game::new();
    assert_eq!(game.accept_draw(), Err(DeclareError::NoOffer));
    game.offer_draw(Color::Black).unwrap();
    assert_eq!(game.draw_offer(), Some(Color::Black));
    game.decline_draw().unwrap();
    assert_eq!(game.draw_offer(), None);
    assert_eq!(game.result(), None);
    game.offer_draw(Color::Black).unwrap();
    game.play_text("11-15").unwrap();
    assert_eq!(game.draw_offer(), None, "a move withdraws the offer");
    game.offer_draw(Color::White).unwrap();
    assert_eq!(
        game.accept_draw().unwrap(),
        Outcome::Draw {
            reason: DrawReason::Agreement
        }
    );
    assert!(game.is_over());
}

/// Two kings shuffling: positions repeat every four plies.
fn shuffle(game: &mut Game, times: usize) {
    for _ in 0..times {
        play_all(game, &["1-5", "32-28", "5-1", "28-32"]);
    }
}

#[test]
fn repetition_claim_is_offered_only_when_the_next_move_makes_a_third_occurrence() {
    let mut game = game_from("B:WK32:BK1");
    assert!(!game.can_claim_repetition());
    shuffle(&mut game, 1);
    // Start position occurred twice; Black's 1-5 reaches a position seen once.
    assert_eq!(game.repetition_count(), 2);
    assert!(!game.can_claim_repetition());
    game.play_text("1-5").unwrap();
    // White's 32-28 would create "B:WK28:BK5" for the second time only.
    assert!(!game.can_claim_repetition());
    play_all(&mut game, &["32-28", "5-1"]);
    // White's 28-32 recreates the start position for the third time.
    assert!(game.can_claim_repetition());
    assert_eq!(game.repeating_moves().len(), 1);
    assert_eq!(game.repeating_moves()[0].to().number(), 32);
    assert_eq!(game.available_claim(), Some(DrawReason::Repetition));
    assert_eq!(
        game.claim_draw().unwrap(),
        Outcome::Draw {
            reason: DrawReason::Repetition
        }
    );
    assert!(game.is_over());
    assert!(game.claim_draw().is_err());
}

#[test]
fn repetition_needs_the_same_side_to_move() {
    let mut game = game_from("B:WK32:BK1");
    // The same pieces with White to move do not count as the start position.
    let white_to_move = game.start().with_turn(Color::White);
    assert_eq!(game.occurrences(&white_to_move), 0);
    shuffle(&mut game, 2);
    assert_eq!(game.occurrences(&white_to_move), 0);
    assert_eq!(game.repetition_count(), 3);
}

#[test]
fn claiming_without_a_claim_is_refused() {
    let mut game = Game::new();
    assert_eq!(game.claim_draw(), Err(DeclareError::NoClaim));
    assert_eq!(game.result(), None);
}

#[test]
fn forty_move_rule_counts_king_moves_without_captures() {
    let mut game = game_from("B:WK32:BK1");
    let cycle = ["1-5", "32-28", "5-1", "28-32"];
    for ply in 0..FORTY_MOVE_PLIES {
        assert_eq!(game.quiet_plies(), ply);
        assert!(!game.can_claim_forty_moves());
        game.play_text(cycle[ply % 4]).unwrap();
    }
    assert_eq!(game.quiet_plies(), FORTY_MOVE_PLIES);
    assert!(game.can_claim_forty_moves());
    assert!(game.available_claim().is_some());
}

#[test]
fn a_man_move_or_capture_resets_the_forty_move_count() {
    let mut game = game_from("B:WK32,20:BK1,9");
    play_all(&mut game, &["1-5", "32-28"]);
    assert_eq!(game.quiet_plies(), 2);
    game.play_text("9-13").unwrap();
    assert_eq!(game.quiet_plies(), 0, "a man moved");
    game.play_text("28-24").unwrap();
    assert_eq!(game.quiet_plies(), 1);
    let mut capture = game_from("W:WK18:BK14,K1");
    capture.play_text("18x9").unwrap();
    assert_eq!(capture.quiet_plies(), 0, "a capture");
}

#[test]
fn never_ends_by_repetition_or_move_count_alone() {
    let mut game = game_from("B:WK32:BK1");
    shuffle(&mut game, 30);
    assert_eq!(game.result(), None);
    assert!(game.can_claim_forty_moves());
    assert!(game.can_claim_repetition());
}

#[test]
fn from_position_keeps_the_start() {
    let start: Position = "W:W9,K20:BK5".parse().unwrap();
    let mut game = Game::from_position(start);
    let m = game.position().legal_moves()[0];
    game.play(&m).unwrap();
    assert_eq!(game.start(), &start);
    assert_eq!(game.moves(), &[m]);
    assert_eq!(game.positions().len(), 2);
    assert_eq!(game.position(), &start.play_unchecked(&m));
    assert!(Square::new(20).is_some());
}

#[test]
fn the_start_of_a_game_with_no_move_yet_is_before_any_move_not_before_0_moves() {
    let game = Game::new();
    assert_eq!(game.shown_text(0, 0), "The start, before any move");
    let mut one = Game::new();
    one.play_text("11-15").unwrap();
    assert_eq!(one.shown_text(0, 1), "The start, before 1 move");
}
