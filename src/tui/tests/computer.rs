//! Computer players in the terminal game, through the App and its runtime: which search
//! it asks for, and what a result does (or is refused). The searches run on the
//! runtime's own thread, with the real engine, as in the game.

use crate::engine::Level;
use crate::game::Game;
use crate::rules::{Color, Outcome, WinReason};
use crate::runtime::{Command, Pace, Runtime, Saving};
use crate::runtime::{Purpose, SearchSpec};
use crate::session::{Player, PlayerKind, Session};
use crate::tui::tests::*;
use crate::tui::{App, Settings};
use ratatui::crossterm::event::KeyCode;
use std::time::{Duration, Instant};

/// A new game at level 1 with the computer playing `sides`.
fn against(black: PlayerKind, white: PlayerKind) -> App {
    let runtime = Runtime::new(Session::new(Game::new()), Saving::Off, Pace::NONE);
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    seat(&mut app, Color::Black, black);
    seat(&mut app, Color::White, white);
    app
}

/// Seats a person or the computer (at level 1) at `color`.
fn seat(app: &mut App, color: Color, kind: PlayerKind) {
    app.command(Command::Seat(color, Player::of_kind(kind, Level::MIN)));
}

/// The search the App waits for, if any.
fn wanted(app: &App) -> Option<SearchSpec> {
    app.runtime().wanted_search()
}

/// Runs the runtime (the computer's thread) until the move or hint the App waits for
/// has come. Returns whether one came.
fn think(app: &mut App) -> bool {
    let Some(spec) = wanted(app).filter(|s| s.purpose != Purpose::Review) else {
        return false;
    };
    let start = Instant::now();
    while wanted(app) == Some(spec) {
        assert!(start.elapsed() < Duration::from_secs(60), "no answer came");
        app.poll(Instant::now());
        std::thread::sleep(Duration::from_millis(5));
    }
    true
}

/// Polls the runtime until nothing is left to come: no search running, no result
/// held back, nothing due (the game wants no search, so a stopped search is gone).
fn settle(app: &mut App) {
    let start = Instant::now();
    loop {
        app.poll(Instant::now());
        if app.runtime().wait(Instant::now()).is_none() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the runtime never settled"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A position no opening book knows (White's man on 17 from the start, Black to
/// move): the computer searches rather than playing a book move at once.
const OUT_OF_THE_BOOK: &str = "B:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";

/// A game from `OUT_OF_THE_BOOK` against the computer at the strongest level, which
/// thinks a minute a move: its search runs until stopped, however busy the machine.
fn against_a_long_search() -> App {
    let session = Session::new(Game::from_position(OUT_OF_THE_BOOK.parse().unwrap()))
        .with_movetime(Duration::from_secs(60));
    let runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    app.command(Command::Seat(Color::White, Player::Computer(Level::MAX)));
    app
}

fn white_to_think(app: &App) -> SearchSpec {
    let spec = wanted(app).unwrap();
    assert_eq!(spec.purpose, Purpose::Move(Color::White));
    spec
}

#[test]
fn the_computer_answers_a_move_with_a_legal_move_and_says_so() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    assert_eq!(wanted(&app), None, "Black, a person, moves first");
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
    assert_eq!(wanted(&app), None, "back to the person");
}

#[test]
fn a_resumed_game_with_the_computer_to_move_waits_for_the_first_key_to_think() {
    // Resumed with White, the computer, to move: its clocks are held for Black's player.
    let t0 = Instant::now();
    let mut session = Session::new(Game::new()).with_clock("G/5".parse().unwrap(), t0);
    session.play_text("11-15").unwrap();
    let runtime = Runtime::new(session.with_clocks_held(), Saving::Off, Pace::NONE);
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    seat(&mut app, Color::White, PlayerKind::Cpu);
    assert!(app.session().clocks_held());
    // No search while the clocks are held: the computer gets no time off the clock.
    assert_eq!(wanted(&app), None);
    app.poll(t0 + Duration::from_secs(30));
    app.tick(t0 + Duration::from_secs(30));
    assert_eq!(app.game().moves().len(), 1);
    assert_eq!(
        app.session().time_left(Color::White),
        Some(Duration::from_secs(300))
    );
    let screen = screen_text(&app);
    assert!(!screen.contains("thinking"), "{screen}");
    // The first key starts the clocks, and the computer thinks on its own time.
    press(&mut app, KeyCode::Char(' '));
    assert!(!app.session().clocks_held() && !app.session().is_paused());
    white_to_think(&app);
    assert!(think(&mut app));
    assert_eq!(app.game().moves().len(), 2);
}

#[test]
fn a_pause_while_the_computer_thinks_stops_its_search_until_the_clocks_run_again() {
    // A timed game with White, the computer, thinking a minute a move.
    let session = Session::new(Game::from_position(OUT_OF_THE_BOOK.parse().unwrap()))
        .with_clock("G/5".parse().unwrap(), Instant::now())
        .with_movetime(Duration::from_secs(60));
    let runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    app.command(Command::Seat(Color::White, Player::Computer(Level::MAX)));
    type_move(&mut app, "9-13");
    white_to_think(&app);
    app.poll(Instant::now());
    assert!(screen_text(&app).contains("White is thinking"));
    // p while it thinks: the clocks stop, and so does its search.
    press(&mut app, KeyCode::Char('p'));
    assert!(app.session().is_paused());
    assert_eq!(wanted(&app), None, "no search while paused");
    settle(&mut app);
    let paused_at = app.session().time_left(Color::White).unwrap();
    assert_eq!(app.game().moves().len(), 1, "no move while paused");
    let screen = screen_text(&app);
    assert!(!screen.contains("thinking"), "{screen}");
    // The key line says what acts while paused, not the keys of a game in play.
    let keys = screen.lines().rfind(|l| !l.trim().is_empty()).unwrap();
    assert!(
        keys.contains("p starts the clocks") && keys.contains("q quit"),
        "{screen}"
    );
    assert!(!keys.contains("move now"), "{screen}");
    // p again: the clocks run and the computer thinks again, on its own time from now.
    // (The front end gives the time as a key comes: the clocks run from then.)
    let resumed = Instant::now();
    app.tick(resumed);
    press(&mut app, KeyCode::Char('p'));
    white_to_think(&app);
    app.poll(Instant::now());
    press(&mut app, KeyCode::Char('m'));
    assert!(think(&mut app));
    assert_eq!(app.game().moves().len(), 2);
    let used = paused_at - app.session().time_left(Color::White).unwrap();
    assert!(
        used <= resumed.elapsed(),
        "charged {used:?} for a search of {:?}",
        resumed.elapsed()
    );
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
    assert!(message(&app).contains("moves now"), "{}", message(&app));
    assert!(think(&mut app), "the computer moved");
    assert_eq!(app.game().moves().len(), 2);
}

#[test]
fn undo_or_a_new_game_mid_search_discards_the_result() {
    // A search of a minute: the undo certainly comes while it runs.
    let mut app = against_a_long_search();
    type_move(&mut app, "11-15");
    let spec = white_to_think(&app);
    app.poll(Instant::now());
    assert!(app.runtime().wait(Instant::now()).is_some(), "it searches");
    press(&mut app, KeyCode::Char('u'));
    settle(&mut app);
    assert!(app.game().moves().is_empty(), "a stale result is refused");
    assert_eq!(wanted(&app), None);

    // The same position reached again is a new revision: a new search.
    type_move(&mut app, "11-15");
    assert_ne!(wanted(&app), Some(spec));
    app.poll(Instant::now());
    assert!(app.runtime().wait(Instant::now()).is_some(), "it searches");
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Char('y'));
    settle(&mut app);
    assert!(app.game().moves().is_empty());

    // The search the new game wants plays its move (at once, when told to).
    type_move(&mut app, "11-15");
    white_to_think(&app);
    press(&mut app, KeyCode::Char('m'));
    assert!(think(&mut app));
    assert_eq!(app.game().moves().len(), 2);
}

#[test]
fn undo_takes_back_the_computers_reply_too() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    type_move(&mut app, "11-15");
    assert!(think(&mut app));
    press(&mut app, KeyCode::Char('u'));
    assert!(app.game().moves().is_empty(), "back to Black's first move");
    assert_eq!(wanted(&app), None);
    assert!(message(&app).contains("White's reply"), "{}", message(&app));
}

#[test]
fn b_and_w_hand_a_side_to_the_computer_and_back() {
    let mut app = against(PlayerKind::Human, PlayerKind::Human);
    press(&mut app, KeyCode::Char('b'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.session().seats().black.kind(), PlayerKind::Cpu);
    assert_eq!(
        wanted(&app).map(|s| s.purpose),
        Some(Purpose::Move(Color::Black))
    );
    assert!(think(&mut app));
    assert_eq!(app.game().moves().len(), 1);
    assert_eq!(wanted(&app), None, "White is still a person");
    press(&mut app, KeyCode::Char('w'));
    press(&mut app, KeyCode::Char('y'));
    white_to_think(&app);
    app.poll(Instant::now());
    // Handed back before the result came: the person plays White.
    press(&mut app, KeyCode::Char('w'));
    assert_eq!(app.session().seats().white.kind(), PlayerKind::Human);
    settle(&mut app);
    assert_eq!(app.game().moves().len(), 1);
    assert!(
        message(&app).starts_with("A person plays White"),
        "{}",
        message(&app)
    );
}

#[test]
fn r_against_the_computer_resigns_your_own_side_once_confirmed() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('r'));
    let screen = screen_text(&app);
    assert!(!screen.contains("Who resigns?"), "{screen}");
    assert!(screen.contains("Resign? Black loses the game"), "{screen}");
    // The computer's side is not on offer: w is no answer, n keeps the game going.
    press(&mut app, KeyCode::Char('w'));
    assert_eq!(app.game().result(), None);
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.game().result(), None);
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    let over = Outcome::Win {
        winner: Color::White,
        reason: WinReason::Resignation,
    };
    assert_eq!(app.game().result(), Some(over));
    // Said once: the result names who resigned.
    assert_eq!(message(&app), "White wins: Black resigned.");
    let text = screen_text(&app);
    assert!(text.contains("White wins: Black resigned."), "{text}");
    assert!(!text.contains("Black resigns"), "{text}");
}

#[test]
fn a_level_key_on_the_game_over_screen_leaves_the_record_alone() {
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('y'));
    assert!(app.game().is_over());
    press(&mut app, KeyCode::Char('+'));
    press(&mut app, KeyCode::Char('+'));
    assert!(
        message(&app).contains("level 3 when play goes on"),
        "{}",
        message(&app)
    );
    let record = app.session().record("2026.12.01");
    assert_eq!(record.tag("WhiteLevel"), Some("1"));
    assert_eq!(record.tag("White"), Some("checkers (level 1)"));
    // The next game is the first played at level 3.
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.session().seats().computer(Color::White), Level::new(3));
}

#[test]
fn handing_a_side_to_the_computer_asks_first() {
    let mut app = against(PlayerKind::Human, PlayerKind::Human);
    press(&mut app, KeyCode::Char('b'));
    assert!(
        screen_text(&app).contains("Hand Black to the computer (level 5)? It plays at once"),
        "{}",
        screen_text(&app)
    );
    assert_eq!(wanted(&app), None, "nothing moves before the answer");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.session().seats().black.kind(), PlayerKind::Human);
    assert_eq!(wanted(&app), None);
    assert_eq!(message(&app), "A person still plays Black");
    assert!(app.game().moves().is_empty());
}

#[test]
fn the_panel_shows_who_plays_and_that_the_computer_thinks() {
    // The strongest level with a minute to think: long enough to look at it.
    let mut app = against_a_long_search();
    type_move(&mut app, "11-15");
    white_to_think(&app);
    let start = Instant::now();
    while app.runtime().thinking().is_none_or(|t| t.depth < 3) {
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "no progress came"
        );
        app.poll(Instant::now());
        std::thread::sleep(Duration::from_millis(10));
    }
    let screen = screen_text(&app);
    assert!(screen.contains("White is thinking... depth "), "{screen}");
    // The score in words, for White, to move.
    assert!(
        ["even", "ahead", "behind"]
            .iter()
            .any(|w| screen.contains(w)),
        "{screen}"
    );
    assert!(screen.contains("Computer (level 10): White"), "{screen}");
    assert!(screen.contains("m move now"), "{screen}");
    // The engine's best line so far, from a legal move of White's.
    let line = app.thinking_line().expect("a line while it thinks");
    let first = line.split(' ').next().unwrap_or_default();
    assert!(app.position().parse_move(first).is_ok(), "{line}");
    assert!(screen.contains("Line: "), "{screen}");
    press(&mut app, KeyCode::Char('m'));
    assert!(think(&mut app), "it moved at once");
    assert!(start.elapsed() < Duration::from_secs(25));
    assert!(!screen_text(&app).contains("is thinking"));
}

/// The computer's best line shown while it thinks names a multi-jump by its route
/// (`27x18x9`), as the move list would, not the record's short form (`27x9`).
#[test]
fn the_thinking_line_names_a_multi_jump_by_its_route() {
    // White to move with three multi-jumps and nothing else: 27x18x9, 27x18x11 and
    // 26x19x10.
    let start = "W:W25,26,27,28,29,30,31,32:B1,2,3,4,5,6,8,12,14,15,23";
    let session = Session::new(Game::from_position(start.parse().unwrap()))
        .with_movetime(Duration::from_secs(60));
    let runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    app.command(Command::Seat(Color::White, Player::Computer(Level::MAX)));
    white_to_think(&app);
    let begun = Instant::now();
    let line = loop {
        if let Some(line) = app.thinking_line() {
            break line;
        }
        assert!(begun.elapsed() < Duration::from_secs(20), "no line came");
        app.poll(Instant::now());
        std::thread::sleep(Duration::from_millis(10));
    };
    let first = line.split(' ').next().unwrap_or_default();
    assert_eq!(first.split('x').count(), 3, "{line}");
    let screen = screen_text(&app);
    assert!(screen.contains(&format!("Line: {first}")), "{screen}");
}

#[test]
fn a_hint_is_marked_and_written_out_but_not_played() {
    let mut app = against(PlayerKind::Human, PlayerKind::Human);
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(wanted(&app).map(|s| s.purpose), Some(Purpose::Hint));
    assert!(think(&mut app));
    let hint = app.current_hint().unwrap();
    assert!(app.position().is_legal(&hint));
    assert!(app.game().moves().is_empty(), "nothing played");
    let text = app.position().notation(&hint);
    assert!(
        message(&app).starts_with(&format!("Hint for Black (not played): {text}")),
        "{}",
        message(&app)
    );
    // The start is in the opening book: the hint says so, and how often the move was
    // played.
    let book = crate::engine::book::Book::embedded();
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
    assert_eq!(wanted(&app), None);
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
    assert!(said.starts_with("Hint for White (not played): "), "{said}");
    assert!(!said.contains("book"), "{said}");
    assert!(
        ["even", "ahead", "wins in"]
            .iter()
            .any(|w| said.contains(w)),
        "{said}"
    );
}

/// The status line names a hint's multi-jump by its route, as the move list would.
#[test]
fn a_hints_multi_jump_is_told_by_its_route() {
    // Black's only move: 5x14x23 (the record's short form: 5x23).
    let mut app = app_from("B:W9,18:B5,11");
    press(&mut app, KeyCode::Char('t'));
    assert!(think(&mut app));
    let said = message(&app);
    assert!(
        said.starts_with("Hint for Black (not played): 5x14x23 "),
        "{said}"
    );
    let text = screen_text(&app);
    assert!(
        text.contains("Hint for Black (not played): 5x14x23"),
        "{text}"
    );
}

#[test]
fn a_hint_asked_for_is_cancelled_by_a_move() {
    let mut app = against(PlayerKind::Human, PlayerKind::Human);
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(wanted(&app).map(|s| s.purpose), Some(Purpose::Hint));
    app.poll(Instant::now());
    type_move(&mut app, "11-15");
    assert_eq!(wanted(&app), None);
    settle(&mut app);
    assert_eq!(app.current_hint(), None);
    assert!(!message(&app).contains("Hint"), "{}", message(&app));
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
    assert_eq!(wanted(&app), None);
}

#[test]
fn the_computer_waits_while_a_file_is_reviewed() {
    let mut app = review_app(REVIEW_PDN);
    seat(&mut app, Color::Black, PlayerKind::Cpu);
    // Only the engine's view of the reviewed position is searched for.
    let purpose = |app: &App| wanted(app).map(|spec| spec.purpose);
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
    assert_eq!(wanted(&app).map(|s| s.purpose), Some(Purpose::Review));
    assert!(!screen_text(&app).contains("Engine ("));
    let before = message(&app);
    let start = Instant::now();
    while wanted(&app).is_some() {
        assert!(start.elapsed() < Duration::from_secs(20), "no score came");
        app.poll(Instant::now());
        std::thread::sleep(Duration::from_millis(10));
    }
    // White to move after 11-15.
    let text = screen_text(&app);
    assert!(text.contains("Engine ("), "{text}");
    assert!(text.contains(" plies):"), "{text}");
    let analysis = app.review_analysis().expect("the score");
    assert!(analysis.done && analysis.depth > 3, "{analysis:?}");
    assert_eq!(wanted(&app), None, "one search per position");
    assert_eq!(message(&app), before, "the score shows in the panel only");
    // The next position is searched afresh; the old score is not shown for it.
    press(&mut app, KeyCode::Right);
    assert_eq!(wanted(&app).map(|s| s.purpose), Some(Purpose::Review));
    assert!(!screen_text(&app).contains("Engine ("));
}

#[test]
fn without_assistance_a_review_is_not_searched_and_t_gives_no_hint() {
    let record = crate::pdn::read_games(REVIEW_PDN).remove(0).unwrap();
    let session = Session::review_record(&record).with_assist(false);
    let runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    press(&mut app, KeyCode::Right);
    assert_eq!(wanted(&app), None, "no search of the position shown");
    press(&mut app, KeyCode::Char('t'));
    assert_eq!(wanted(&app), None);
    assert!(
        message(&app).starts_with("Assistance is off in this game"),
        "{}",
        message(&app)
    );
    assert!(!screen_text(&app).contains("Engine ("));
}

#[test]
fn a_reviewed_only_move_shows_a_searched_score_with_its_depth() {
    let pdn = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tinsley.pdn"
    ))
    .unwrap();
    let record = crate::pdn::read_games(&pdn).remove(302).unwrap();
    assert_eq!(record.tag("Event"), Some("London 1958, game 1"));
    let session = Session::review_record(&record);
    let runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    // After 5. 14-17 White's 21x14 is forced, in the middle of an even exchange.
    app.command(Command::StepTo(9));
    assert_eq!(app.position().legal_moves().len(), 1);
    let start = Instant::now();
    while wanted(&app).is_some() {
        assert!(start.elapsed() < Duration::from_secs(20), "no score came");
        app.poll(Instant::now());
        std::thread::sleep(Duration::from_millis(10));
    }
    let analysis = app.review_analysis().expect("the score");
    assert!(
        analysis.depth > 3,
        "searched, not judged statically: {analysis:?}"
    );
    assert!(analysis.score.0.abs() < 60, "{analysis:?}");
    let text = screen_text(&app);
    assert!(text.contains("Engine (only move, "), "{text}");
    assert!(!text.contains("well ahead"), "{text}");
}

#[test]
fn the_computer_answers_a_draw_offer_at_once() {
    // At the start the game is even with everything to play: it declines.
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('y'));
    assert!(!app.game().is_over(), "{}", message(&app));
    assert!(message(&app).contains("declines"), "{}", message(&app));

    // A king each, nothing left to play for: it accepts.
    let mut app = app_from("B:WK28:BK1");
    seat(&mut app, Color::White, PlayerKind::Cpu);
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('y'));
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
    press(&mut app, KeyCode::Char('y'));
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
    let app = against(PlayerKind::Human, PlayerKind::Cpu);
    let names = app.session().record_names();
    assert_eq!(names.black, None);
    assert_eq!(names.white.as_deref(), Some("checkers (level 1)"));
    let session = app.session().clone().with_names(crate::pdn::Players {
        black: None,
        white: Some("Chinook Jr".to_string()),
    });
    assert_eq!(session.record_names().white.as_deref(), Some("Chinook Jr"));
}

/// Polls the runtime until the status line says `text` (a save written, say).
fn poll_until_said(app: &mut App, text: &str) {
    let start = Instant::now();
    while !message(app).contains(text) {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{}",
            message(app)
        );
        app.poll(Instant::now());
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn saving_from_the_dialog_leaves_the_computer_named_by_its_level_once() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = against(PlayerKind::Human, PlayerKind::Cpu);
    // The dialog offers "checkers (level 1)" as White's name; saved as it stands.
    press(&mut app, KeyCode::Char('s'));
    ctrl(&mut app, 'u');
    type_text(&mut app, &dir.path().join("game.pdn").display().to_string());
    press(&mut app, KeyCode::Enter);
    poll_until_said(&mut app, "Saved to");
    let lines = who_plays_lines(&app);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("Computer (level 1): White"), "{lines:?}");
    // A name typed in the dialog is still the player's name.
    press(&mut app, KeyCode::Char('s'));
    for _ in 0..2 {
        press(&mut app, KeyCode::Tab);
    }
    ctrl(&mut app, 'u');
    type_text(&mut app, "HAL");
    press(&mut app, KeyCode::Enter);
    poll_until_said(&mut app, "already exists");
    press(&mut app, KeyCode::Char('r'));
    poll_until_said(&mut app, "Saved to");
    assert!(
        who_plays_lines(&app)[0].contains("HAL (level 1) plays White"),
        "{:?}",
        who_plays_lines(&app)
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
    assert_eq!(app.session().seats().computer(Color::White), Level::new(2));
    assert!(message(&app).contains("level 2"), "{}", message(&app));
    press(&mut app, KeyCode::Char('-'));
    press(&mut app, KeyCode::Char('-'));
    assert_eq!(app.session().seats().computer(Color::White), Level::new(1));
    assert!(
        message(&app).contains("levels run from 1 to 10"),
        "{}",
        message(&app)
    );
    // The record keeps the new level for --resume.
    press(&mut app, KeyCode::Char('+'));
    let record = app.session().record("2026.11.30");
    assert_eq!(record.tag("WhiteLevel"), Some("2"));
}

/// The panel's lines that say who plays, on a screen of `app`.
fn who_plays_lines(app: &App) -> Vec<String> {
    screen_text(app)
        .lines()
        .filter(|l| l.contains("plays") || l.contains("Computer") || l.contains("level"))
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn the_panel_says_once_who_plays_a_side_the_computer_plays() {
    use crate::pdn::read_games;
    use crate::session::Seats;
    let seats = Seats {
        black: Player::Person,
        white: Player::Computer(Level::new(9).unwrap()),
    };
    // Named: the name and the level on one line.
    let session = Session::new(Game::new())
        .with_seats(seats)
        .with_names(crate::pdn::Players {
            black: None,
            white: Some("HAL".to_string()),
        });
    let app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    let lines = who_plays_lines(&app);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("HAL (level 9) plays White"), "{lines:?}");
    // A game resumed from its record, which names the computer "checkers (level 9)":
    // that is the computer's seat, told once, not a player's name as well.
    let mut record = Session::new(Game::new())
        .with_seats(seats)
        .record("2026.01.01");
    assert_eq!(record.tag("White"), Some("checkers (level 9)"));
    record.moves.clear();
    let text = crate::pdn::write_game(&record);
    let read = read_games(&text).remove(0).unwrap();
    let resumed = Session::from_record(&read);
    assert_eq!(resumed.names().name(Color::White), None);
    let app = App::with_session(Settings::default(), resumed, WIDTH, HEIGHT);
    let lines = who_plays_lines(&app);
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].contains("Computer (level 9): White"), "{lines:?}");
}

#[test]
fn the_computers_first_crowning_says_what_a_king_is() {
    // White's man on 5 has one move, 5-1, which crowns it.
    let game = Game::from_position("W:W5:B28".parse().unwrap());
    let runtime = Runtime::new(Session::new(game), Saving::Off, Pace::NONE);
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    seat(&mut app, Color::White, PlayerKind::Cpu);
    assert!(think(&mut app), "the computer was not asked to move");
    assert_eq!(
        message(&app),
        "White (level 1) played 5-1, crowned: now a king, it moves both ways"
    );
}

/// An autosave that fails after the person's move is still told once the computer has
/// replied: its reply, within a second, replaced the news, and the player learnt that
/// the game was not kept only on quitting.
#[test]
fn a_failed_autosave_stays_in_view_with_the_computers_reply() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pdn");
    let runtime = Runtime::new(
        Session::new(Game::new()),
        Saving::Resumed(crate::store::GameFile::claim(&path).unwrap()),
        Pace::NONE,
    );
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    seat(&mut app, Color::White, PlayerKind::Cpu);
    // A folder in the way of the game's file: the autosave fails.
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("x"), "x").unwrap();
    type_move(&mut app, "11-15");
    app.poll(Instant::now());
    assert!(
        message(&app).starts_with("Autosave failed"),
        "{}",
        message(&app)
    );
    assert!(think(&mut app));
    assert_eq!(app.game().moves().len(), 2, "the computer replied");
    let told = message(&app);
    assert!(told.starts_with("White (level 1) played "), "{told}");
    assert!(told.contains("Autosave failed: "), "{told}");
    let screen = screen_text(&app).split_whitespace().collect::<String>();
    assert!(screen.contains("Autosavefailed"), "on screen: {screen}");
}

/// A game taken up (`--resume`, or a set-up position) with the computer to move tells
/// the person it is the computer's move and how to hurry it, not to pick a piece.
#[test]
fn a_game_taken_up_on_the_computers_move_says_it_is_the_computers() {
    let mut game = Game::new();
    game.play_text("11-15").unwrap();
    let mut session = Session::new(game);
    session.set_seat(Color::White, Player::Computer(Level::MIN));
    let runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    let app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    let told = message(&app);
    assert!(!told.contains("Pick a piece"), "{told}");
    assert!(
        told.starts_with("White (level 1) to move. m makes it move now"),
        "{told}"
    );
}
