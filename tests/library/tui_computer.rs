//! Computer players in the terminal game, through the App: which search it asks for, and
//! what a result does (or is refused). The searches run here synchronously, as the event
//! loop would run them on a background thread.

use crate::common::*;
use checkers::engine::{Engine, Level, SearchResult, StopFlag};
use checkers::rules::Color;
use checkers::session::{Player, PlayerKind};
use checkers::tui::{App, Purpose, SearchSpec};
use ratatui::crossterm::event::KeyCode;

/// A new game at level 1 with the computer playing `sides`.
fn against(black: PlayerKind, white: PlayerKind) -> App {
    let mut app = app();
    seat(&mut app, Color::Black, black);
    seat(&mut app, Color::White, white);
    app
}

/// Seats a person or the computer (at level 1) at `color`.
fn seat(app: &mut App, color: Color, kind: PlayerKind) {
    app.session
        .set_seat(color, Player::of_kind(kind, Level::MIN));
}

fn search(app: &App, spec: SearchSpec) -> SearchResult {
    Engine::new(1).search(&app.search_request(spec), &StopFlag::new(), |_| {})
}

/// Runs the search the App wants, if any, and hands it the result.
fn think(app: &mut App) -> bool {
    match app.wanted_search() {
        Some(spec) => {
            let result = search(app, spec);
            app.search_done(spec, &result)
        }
        None => false,
    }
}

fn white_to_think(app: &App) -> SearchSpec {
    let spec = app.wanted_search().unwrap();
    assert_eq!(spec.purpose, Purpose::Move(Color::White));
    spec
}

#[test]
fn the_computer_answers_a_move_with_a_legal_move_and_says_so() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    assert_eq!(app.wanted_search(), None, "Black, a person, moves first");
    type_move(&mut app, "11-15");
    white_to_think(&app);
    assert!(think(&mut app));
    assert_eq!(app.game().moves().len(), 2);
    assert!(replays_legally(app.game()));
    assert_eq!(app.position().turn(), Color::Black);
    assert!(
        message(&app).starts_with("Black played 11-15; White (level 1) played "),
        "{}",
        message(&app)
    );
    assert_eq!(app.wanted_search(), None, "back to the person");
}

#[test]
fn a_person_cannot_move_for_the_computer() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    type_move(&mut app, "11-15");
    type_move(&mut app, "22-18");
    assert_eq!(app.game().moves().len(), 1);
    assert!(
        message(&app).contains("m makes it move now"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Char('m'));
    assert!(app.move_now, "the loop is asked to stop the search");
}

#[test]
fn undo_or_a_new_game_mid_search_discards_the_result() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    type_move(&mut app, "11-15");
    let spec = white_to_think(&app);
    let result = search(&app, spec);
    press(&mut app, KeyCode::Char('u'));
    assert!(!app.search_done(spec, &result), "a stale result is refused");
    assert!(app.game().moves().is_empty());
    assert_eq!(app.wanted_search(), None);

    type_move(&mut app, "11-15");
    let spec = white_to_think(&app);
    let result = search(&app, spec);
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Char('y'));
    assert!(!app.search_done(spec, &result));
    assert!(app.game().moves().is_empty());

    // The same position reached again is a new revision: the old result stays refused.
    type_move(&mut app, "11-15");
    assert_ne!(app.wanted_search(), Some(spec));
    assert!(!app.search_done(spec, &result));
    assert_eq!(app.game().moves().len(), 1);
}

#[test]
fn undo_takes_back_the_computers_reply_too() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    type_move(&mut app, "11-15");
    assert!(think(&mut app));
    press(&mut app, KeyCode::Char('u'));
    assert!(app.game().moves().is_empty(), "back to Black's first move");
    assert_eq!(app.wanted_search(), None);
    assert!(message(&app).contains("White's reply"), "{}", message(&app));
}

#[test]
fn b_and_w_hand_a_side_to_the_computer_and_back() {
    let mut app = against(PlayerKind::Human, PlayerKind::Human);
    press(&mut app, KeyCode::Char('b'));
    assert_eq!(app.session.seats().black.kind(), PlayerKind::Cpu);
    assert_eq!(
        app.wanted_search().map(|s| s.purpose),
        Some(Purpose::Move(Color::Black))
    );
    assert!(think(&mut app));
    assert_eq!(app.game().moves().len(), 1);
    assert_eq!(app.wanted_search(), None, "White is still a person");
    press(&mut app, KeyCode::Char('w'));
    let spec = white_to_think(&app);
    let result = search(&app, spec);
    // Handed back before the result came: the person plays White.
    press(&mut app, KeyCode::Char('w'));
    assert_eq!(app.session.seats().white.kind(), PlayerKind::Human);
    assert!(!app.search_done(spec, &result));
    assert_eq!(app.game().moves().len(), 1);
    assert!(
        message(&app).starts_with("A person plays White"),
        "{}",
        message(&app)
    );
}

#[test]
fn the_panel_shows_who_plays_and_that_the_computer_thinks() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    type_move(&mut app, "11-15");
    let spec = white_to_think(&app);
    assert!(app.search_progress(spec, &depth_info(3, 70)));
    let screen = screen_text(&app);
    assert!(screen.contains("White is thinking... depth 3"), "{screen}");
    // The score in words: 0.7 of a man for White, to move.
    assert!(screen.contains("White is ahead"), "{screen}");
    assert!(screen.contains("Computer (level 1): White"), "{screen}");
    assert!(screen.contains("m move now"), "{screen}");
}

#[test]
fn a_hint_is_marked_and_written_out_but_not_played() {
    let mut app = against(PlayerKind::Human, PlayerKind::Human);
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(app.wanted_search().map(|s| s.purpose), Some(Purpose::Hint));
    assert!(think(&mut app));
    let hint = app.current_hint().unwrap();
    assert!(app.position().is_legal(&hint));
    assert!(app.game().moves().is_empty(), "nothing played");
    let text = app.position().notation(&hint);
    assert!(
        message(&app).starts_with(&format!("Hint for Black: {text}")),
        "{}",
        message(&app)
    );
    // The start is in the opening book: the hint says so, and how often the move was
    // played.
    let book = checkers::engine::book::Book::embedded();
    let entry = book
        .entry(app.position())
        .expect("the start is in the book");
    assert_eq!(hint, entry.best);
    let said = message(&app);
    assert!(
        said.contains(&format!("(book: {})", entry.reason())),
        "{said}"
    );
    assert!(said.contains("times in the tournament games"), "{said}");
    assert_eq!(app.wanted_search(), None);
    // Any move makes the hint old news.
    type_move(&mut app, "12-16");
    assert_eq!(app.current_hint(), None);
    // Out of the book (White's first reply the book does not know), the engine's view
    // of the position in words.
    let out_of_book = app
        .position()
        .legal_moves()
        .into_iter()
        .flat_map(|w| {
            let after = app.position().play_unchecked(&w);
            after.legal_moves().into_iter().map(move |b| (w, b, after))
        })
        .find(|(_, b, after)| {
            let pos = after.play_unchecked(b);
            book.entry(&pos).is_none() && pos.count_moves() > 1
        })
        .expect("a line out of the book");
    let (w, b, after) = out_of_book;
    let white_move = app.position().notation(&w);
    type_move(&mut app, &white_move);
    type_move(&mut app, &after.notation(&b));
    assert!(book.entry(app.position()).is_none(), "out of the book");
    press(&mut app, KeyCode::Char('t'));
    assert!(think(&mut app));
    let said = message(&app);
    assert!(said.starts_with("Hint for White: "), "{said}");
    assert!(!said.contains("book"), "{said}");
    assert!(
        ["level", "ahead", "wins in"]
            .iter()
            .any(|w| said.contains(w)),
        "{said}"
    );
}

#[test]
fn a_hint_asked_for_is_cancelled_by_a_move() {
    let mut app = against(PlayerKind::Human, PlayerKind::Human);
    press(&mut app, KeyCode::Char('t'));
    let spec = app.wanted_search().unwrap();
    let result = search(&app, spec);
    type_move(&mut app, "11-15");
    assert_eq!(app.wanted_search(), None);
    assert!(!app.search_done(spec, &result));
    assert_eq!(app.current_hint(), None);
}

#[test]
fn two_computer_players_always_finish_the_game() {
    let mut app = against(PlayerKind::Cpu, PlayerKind::Cpu);
    let mut searches = 0;
    while think(&mut app) {
        searches += 1;
        assert!(searches <= 400, "the game never ends");
    }
    assert!(app.game().is_over(), "{}", message(&app));
    assert!(replays_legally(app.game()));
    assert_eq!(app.wanted_search(), None);
}

#[test]
fn the_computer_waits_while_a_file_is_reviewed() {
    let mut app = review_app(REVIEW_PDN);
    seat(&mut app, Color::Black, PlayerKind::Cpu);
    // Only the engine's view of the reviewed position is searched for.
    let purpose = |app: &App| app.wanted_search().map(|spec| spec.purpose);
    assert_eq!(purpose(&app), Some(Purpose::Review));
    press(&mut app, KeyCode::Esc);
    assert_eq!(
        purpose(&app),
        Some(Purpose::Move(Color::Black)),
        "play goes on: the computer moves"
    );
}

#[test]
fn a_reviewed_position_shows_the_engines_score_once_searched() {
    let mut app = review_app(REVIEW_PDN);
    press(&mut app, KeyCode::Right);
    let spec = app.wanted_search().unwrap();
    assert_eq!(spec.purpose, Purpose::Review);
    assert!(!screen_text(&app).contains("Engine ("));
    assert!(app.search_progress(spec, &depth_info(3, -140)));
    // White to move after 11-15, 140 hundredths down: Black is ahead by 1.40.
    let text = screen_text(&app);
    assert!(text.contains("Engine (3 plies):"), "{text}");
    assert!(text.contains("Black is ahead"), "{text}");
    let before = message(&app);
    let result = search(&app, spec);
    assert!(app.search_done(spec, &result));
    assert_eq!(app.wanted_search(), None, "one search per position");
    assert_eq!(message(&app), before, "the score shows in the panel only");
    // The next position is searched afresh; the old score is not shown for it.
    press(&mut app, KeyCode::Right);
    assert_eq!(
        app.wanted_search().map(|s| s.purpose),
        Some(Purpose::Review)
    );
    assert!(!screen_text(&app).contains("Engine ("));
}

#[test]
fn the_computer_answers_a_draw_offer_at_once() {
    // At the start the game is level with everything to play: it declines.
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    press(&mut app, KeyCode::Char('d'));
    assert!(!app.game().is_over(), "{}", message(&app));
    assert!(message(&app).contains("declines"), "{}", message(&app));

    // A king each, nothing left to play for: it accepts.
    let mut app = app_from("B:WK28:BK1");
    seat(&mut app, Color::White, PlayerKind::Cpu);
    press(&mut app, KeyCode::Char('d'));
    assert!(app.game().is_over(), "{}", message(&app));
    assert!(
        message(&app).contains("accepts the draw"),
        "{}",
        message(&app)
    );

    // A king up against a lone man: it declines, and play goes on.
    let mut app = app_from("B:WK22,K27:B5");
    seat(&mut app, Color::White, PlayerKind::Cpu);
    press(&mut app, KeyCode::Char('d'));
    assert!(!app.game().is_over());
    assert!(message(&app).contains("declines"), "{}", message(&app));

    // On the computer's own move a person cannot offer for it.
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('d'));
    assert!(!app.game().is_over());
    assert_eq!(app.game().draw_offer(), None);
}

#[test]
fn a_record_names_the_computer_unless_a_name_was_given() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    let names = app.session.record_names();
    assert_eq!(names.black, None);
    assert_eq!(names.white.as_deref(), Some("checkers (level 1)"));
    app.session.set_names(checkers::store::Players {
        black: None,
        white: Some("Chinook Jr".to_string()),
    });
    assert_eq!(
        app.session.record_names().white.as_deref(),
        Some("Chinook Jr")
    );
}

#[test]
fn only_the_player_to_move_may_claim_a_draw_not_for_the_computer() {
    // Kings shuffle until White, the computer, could claim a repetition on its move.
    let mut app = app_from("B:WK28:BK1");
    for m in ["1-5", "28-24", "5-1", "24-28", "1-5", "28-24", "5-1"] {
        type_move(&mut app, m);
    }
    seat(&mut app, Color::White, PlayerKind::Cpu);
    assert_eq!(app.position().turn(), Color::White);
    assert!(
        app.game().available_claim().is_some(),
        "White may claim now"
    );
    press(&mut app, KeyCode::Char('c'));
    assert_eq!(
        app.game().result(),
        None,
        "the person claimed the computer's draw"
    );
    assert!(
        message(&app).contains("plays White, and it is White's move"),
        "{}",
        message(&app)
    );
}

#[test]
fn the_level_changes_during_the_game() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    press(&mut app, KeyCode::Char('+'));
    assert_eq!(app.session.seats().computer(Color::White), Level::new(2));
    assert!(message(&app).contains("level 2"), "{}", message(&app));
    press(&mut app, KeyCode::Char('-'));
    press(&mut app, KeyCode::Char('-'));
    assert_eq!(app.session.seats().computer(Color::White), Level::new(1));
    assert!(
        message(&app).contains("levels run from 1 to 10"),
        "{}",
        message(&app)
    );
    // The record keeps the new level for --resume.
    press(&mut app, KeyCode::Char('+'));
    let record = app.session.record("2026.11.30");
    assert_eq!(record.tag("WhiteLevel"), Some("2"));
}
