//! What a newcomer reads in the full-screen game: a capture's route told as the move
//! list shows it, what "crowned" means, both computer levels in the panel, and no engine
//! verdict where a finished record's game is over.

use crate::engine::Level;
use crate::game::Game;
use crate::runtime::Purpose;
use crate::session::{Player, Seats, Session};
use crate::tui::tests::*;
use crate::tui::{App, Settings};
use ratatui::crossterm::event::KeyCode;

/// White to move, with a capture 19x10x1 that crowns (kings on 2 and 30 besides).
const ROUTE_FEN: &str = "W:WK30,21,22,23,26,19:BK2,6,9,11,14,15";

/// The key line's first words on the board: drawn last, so a screen that shows them
/// is whole.
const KEY_LINE: &str = "Enter pick";

#[test]
fn a_multi_jump_is_told_with_every_landing_square_as_the_move_list_shows_it() {
    let mut app = app_from(ROUTE_FEN);
    // Typed in the record's short form: the status line still gives the route.
    type_move(&mut app, "19x1");
    assert_eq!(app.game().moves().len(), 1, "{}", message(&app));
    assert!(
        message(&app).starts_with("White played 19x10x1, crowned"),
        "{}",
        message(&app)
    );
    let text = screen_text(&app);
    assert!(text.contains(KEY_LINE), "{text}");
    assert!(text.contains("White played 19x10x1"), "{text}");
    assert!(text.contains("19x10x1 "), "the move list: {text}");
}

/// A move refused because a capture is due names the capture by its route, typed or
/// picked with the cursor, as the move list would give it.
#[test]
fn a_refusal_for_a_compulsory_capture_names_the_capture_by_its_route() {
    let mut app = app_from(ROUTE_FEN);
    type_move(&mut app, "22-18");
    assert!(app.game().moves().is_empty());
    assert!(
        message(&app).ends_with("capture is compulsory: 19x10x1"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Esc);
    cursor_move(&mut app, &[22]);
    assert_eq!(
        message(&app),
        "A capture is compulsory: 19x10x1; the man on 22 cannot capture"
    );
    let text = screen_text(&app);
    assert!(text.contains(KEY_LINE), "{text}");
    assert!(text.contains("compulsory: 19x10x1"), "{text}");
}

#[test]
fn a_record_under_review_names_a_multi_jump_by_its_route() {
    let pdn = format!("[FEN \"{ROUTE_FEN}\"]\n1. 19x1 *\n");
    let mut app = review_app(&pdn);
    press(&mut app, KeyCode::End);
    assert!(
        message(&app).contains("(White's 19x10x1)"),
        "{}",
        message(&app)
    );
    let text = screen_text(&app);
    assert!(text.contains("Review: move 1 (White's 19x10x1)"), "{text}");
}

#[test]
fn the_first_crowning_says_what_a_king_is_and_the_next_is_told_short() {
    // White's men on 6 and 7 crown on 1 and 3; Black's kings wait far away.
    let mut app = app_from("W:W6,7:BK28,K32");
    type_move(&mut app, "6-1");
    assert_eq!(
        message(&app),
        "White played 6-1, crowned: now a king, it moves both ways"
    );
    let text = screen_text(&app);
    assert!(text.contains(KEY_LINE), "{text}");
    assert!(text.contains("now a king, it moves both ways"), "{text}");
    type_move(&mut app, "32-27");
    type_move(&mut app, "7-3");
    assert_eq!(message(&app), "White played 7-3, crowned");
}

#[test]
fn the_panel_shows_both_computer_levels_whole_at_every_size() {
    let level = |n| Player::Computer(Level::new(n).unwrap());
    for (width, height) in [(80, 24), (100, 30), (120, 40)] {
        let seats = Seats {
            black: level(3),
            white: level(5),
        };
        let session = Session::new(Game::new()).with_seats(seats);
        let app = App::with_session(Settings::default(), session, width, height);
        let text = screen_text(&app);
        assert!(text.contains("* last"), "{width}x{height}: {text}");
        for side in ["Black (level 3)", "White (level 5)"] {
            assert!(text.contains(side), "{width}x{height}: {side} cut: {text}");
        }
    }
}

#[test]
fn a_finished_record_at_its_end_shows_its_result_and_no_engine_view() {
    // The record ends in a draw agreed, with moves still on the board.
    let mut app = review_app(REVIEW_PDN);
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Left);
    assert_eq!(
        app.runtime().wanted_search().map(|s| s.purpose),
        Some(Purpose::Review),
        "before the end the engine weighs the position"
    );
    press(&mut app, KeyCode::End);
    assert_eq!(app.runtime().wanted_search(), None, "nothing to weigh");
    let text = screen_text(&app);
    assert!(text.contains("Game over"), "{text}");
    assert!(text.contains("Drawn"), "{text}");
    assert!(!text.contains("Engine"), "{text}");
}

#[test]
fn a_hint_at_a_finished_records_end_says_the_game_is_over() {
    // The record ends in a draw agreed, with moves still on the board.
    let mut app = review_app(REVIEW_PDN);
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(app.runtime().wanted_search(), None, "no hint looked for");
    let said = message(&app);
    assert!(said.starts_with("The game is over (Drawn"), "{said}");
    let text = screen_text(&app);
    assert!(text.contains("The game is over (Drawn"), "{text}");
}

/// Back from Ctrl-Z on the clock, the hidden board says the clocks stopped while the
/// game was suspended (it said "Game resumed", as for a game taken up from its file),
/// and any key starts them.
#[test]
fn back_from_a_suspension_the_hidden_board_says_the_clocks_stopped_meanwhile() {
    for (width, height) in [(80, 24), (120, 40)] {
        let start = std::time::Instant::now();
        let session = Session::new(Game::new()).with_clock("0:05+0".parse().unwrap(), start);
        let mut app = App::with_session(Settings::default(), session, width, height);
        let _ = app.stopped_at(start);
        assert!(app.session().clocks_held(), "{width}x{height}");
        let text = screen_text(&app);
        for line in [
            "The clocks stopped",
            "while the game was suspended",
            "Black to move:",
            "any key starts the clocks",
        ] {
            assert!(text.contains(line), "{width}x{height}: {line}: {text}");
        }
        assert!(!text.contains("resumed"), "{width}x{height}: {text}");
    }
}
