//! Clocks kept in records: each move's `{[%clk ...]}` comment written and read, a timed
//! game resumed from them exactly (periods, ballot moves, undo after the resume), the
//! time used before a quit kept and the time away not charged, the warnings before time
//! runs out, and a loaded record's clocks shown as they stood at each move.

use crate::Color;
use crate::game::Game;
use crate::pdn::{read_games, write_game};
use crate::session::{Session, TimeControl, ballot};
use crate::tui::tests::*;
use crate::tui::{App, Settings};
use std::time::{Duration, Instant};

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn millis(ms: u64) -> Duration {
    Duration::from_millis(ms)
}

/// The record of `session` written as PDN and read back, as the autosave and `--resume`
/// do.
fn through_a_file(session: &Session) -> (String, crate::pdn::PdnGame) {
    let text = write_game(&session.record("2026.11.30"));
    let record = read_games(&text).remove(0).unwrap();
    (text, record)
}

#[test]
fn each_move_is_followed_by_its_clock_reading() {
    let t0 = Instant::now();
    let mut s = Session::new(Game::new()).with_clock("5+3".parse().unwrap(), t0);
    s.tick(t0 + millis(7_500));
    s.play_text("11-15").unwrap();
    s.tick(t0 + secs(67));
    s.play_text("23-19").unwrap();
    let (text, record) = through_a_file(&s);
    // Black: 300 - 7.5 + 3; White: 300 - 59.5 + 3.
    assert!(
        text.contains("1. 11-15 {[%clk 0:04:55.5]} 23-19 {[%clk 0:04:03.5]} *"),
        "{text}"
    );
    assert_eq!(
        record.clocks,
        [Some(millis(295_500)), Some(millis(243_500))]
    );
}

#[test]
fn the_reader_takes_clock_readings_as_other_programs_write_them() {
    let text = "[Event \"x\"]\n1. 11-15 { [%emt 0:00:05] [%clk 1:00:00] } 23-19 {[%clk 0:59:58.25]}\n\
                2. 8-11 {a comment, no clock} 22-17 {[%clk soon]} *";
    let game = read_games(text).remove(0).unwrap();
    assert_eq!(game.moves.len(), 4);
    let reading = |ply: usize| game.clocks.get(ply).copied().flatten();
    assert_eq!(
        (0..4).map(reading).collect::<Vec<_>>(),
        [Some(secs(3600)), Some(millis(3_598_200)), None, None]
    );
    // A comment before the first move has no move to belong to.
    let game = read_games("{[%clk 0:05:00]} 1. 11-15 *").remove(0).unwrap();
    assert!(game.clocks.iter().all(Option::is_none));
}

#[test]
fn a_resumed_game_rebuilds_its_clocks_move_by_move_and_undo_gives_time_back() {
    let t0 = Instant::now();
    let mut s = Session::new(Game::new()).with_clock("G/5".parse().unwrap(), t0);
    for (at, m) in [(10, "11-15"), (30, "23-19"), (45, "8-11"), (85, "22-17")] {
        s.tick(t0 + secs(at));
        s.play_text(m).unwrap();
    }
    let (_, record) = through_a_file(&s);
    // Resumed long after: the time away is charged to no one.
    let t1 = t0 + secs(10_000);
    let mut back = Session::from_record(&record).with_recorded_clock(t1);
    assert_eq!(back.time_left(Color::Black), Some(secs(275)));
    assert_eq!(back.time_left(Color::White), Some(secs(240)));
    assert_eq!(back.clock().unwrap().running(), Some(Color::Black));
    back.tick(t1 + secs(5));
    assert_eq!(back.time_left(Color::Black), Some(secs(270)));
    // Undo after the resume takes White's 22-17 back with the 40 seconds it cost.
    back.undo_agreed().unwrap();
    assert_eq!(back.time_left(Color::White), Some(secs(280)));
    assert_eq!(back.time_left(Color::Black), Some(secs(275)));
    assert_eq!(back.clock().unwrap().running(), Some(Color::White));
}

#[test]
fn a_resumed_30_per_hour_game_knows_its_period_and_the_ballot_moves_do_not_count() {
    let t0 = Instant::now();
    // Two moves a minute, after ballot 126's three moves (White to move first).
    let mut s = Session::new(Game::new())
        .with_ballot(ballot(126, false).unwrap())
        .with_clock("2/1".parse().unwrap(), t0);
    assert_eq!(s.clock().unwrap().running(), Some(Color::White));
    s.tick(t0 + secs(10));
    s.play_text("22-18").unwrap(); // White's first move on the clock: 50 s left
    s.tick(t0 + secs(20));
    s.play_text("15x22").unwrap(); // Black's first: 50 s left
    let (text, record) = through_a_file(&s);
    assert!(
        text.contains("8-11 22-18 {[%clk 0:00:50]}"),
        "the ballot's moves have no reading: {text}"
    );
    let t1 = t0 + secs(500);
    let mut back = Session::from_record(&record).with_recorded_clock(t1);
    assert_eq!(back.clock().unwrap().moves(Color::White), 1);
    assert_eq!(back.clock().unwrap().moves(Color::Black), 1);
    back.tick(t1 + secs(20));
    back.play_text("25x18").unwrap();
    // White's second move on the clock ends the period: 30 s left and a new minute.
    assert_eq!(back.time_left(Color::White), Some(secs(90)));
}

#[test]
fn quitting_keeps_the_time_used_and_a_game_not_begun_is_not_touched() {
    let t0 = Instant::now();
    let mut s = Session::new(Game::new()).with_clock("G/5".parse().unwrap(), t0);
    s.tick(t0 + secs(100));
    s.adjourn();
    assert!(!s.is_paused(), "no move made on the clock: nothing to keep");
    s.play_text("11-15").unwrap();
    s.tick(t0 + secs(130));
    s.adjourn();
    let (text, record) = through_a_file(&s);
    assert!(text.contains("[WhiteClock \"0:04:30\"]"), "{text}");
    let t1 = t0 + secs(9_999);
    let back = Session::from_record(&record).with_recorded_clock(t1);
    assert_eq!(back.time_left(Color::White), Some(secs(270)));
    assert_eq!(back.time_left(Color::Black), Some(secs(200)));
    assert_eq!(back.clock().unwrap().running(), Some(Color::White));
}

#[test]
fn the_move_timer_warns_a_minute_before_its_five_and_again_at_ten_seconds() {
    let t0 = Instant::now();
    let mut s = Session::new(Game::new()).with_clock(TimeControl::MoveTimer, t0);
    s.tick(t0 + secs(200));
    assert_eq!(s.clock_warning(), None);
    assert!(!s.time_is_low(Color::Black));
    s.tick(t0 + secs(240));
    assert_eq!(
        s.clock_warning().map(|n| n.to_string()).as_deref(),
        Some("Black: a minute left for this move")
    );
    assert_eq!(s.clock_warning(), None, "told once");
    assert!(s.time_is_low(Color::Black));
    s.tick(t0 + millis(290_500));
    assert_eq!(
        s.clock_warning().map(|n| n.to_string()).as_deref(),
        Some("Black: 10 seconds left for this move")
    );
    s.play_text("11-15").unwrap();
    assert!(!s.time_is_low(Color::White), "a new move, a new allowance");
    // A single forced jump has one minute: only the ten-second warning.
    let pos = "W:W23:B18,5".parse().unwrap();
    let mut s = Session::new(Game::from_position(pos)).with_clock(TimeControl::MoveTimer, t0);
    s.tick(t0 + secs(45));
    assert_eq!(s.clock_warning(), None);
    s.tick(t0 + secs(51));
    assert_eq!(
        s.clock_warning().map(|n| n.to_string()).as_deref(),
        Some("White: 9 seconds left for this move")
    );
}

#[test]
fn the_screen_warns_in_words_and_marks_the_low_clock() {
    let t0 = Instant::now();
    let session = Session::new(Game::new()).with_clock("G/1".parse().unwrap(), t0);
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    app.poll(t0 + secs(51));
    let screen = screen_text(&app);
    assert!(screen.contains("Black \u{25b6}     9.0 !"), "{screen}");
    assert!(screen.contains("White      1:00"), "{screen}");
}

#[test]
fn a_loaded_record_shows_each_clock_as_it_stood_at_the_move_viewed() {
    let pdn = "[TimeControl \"G/5\"]\n1. 11-15 {[%clk 0:04:50]} 23-19 {[%clk 0:04:40]} \
               2. 8-11 {[%clk 0:04:20]} *";
    let mut app = review_app(pdn);
    let screen = screen_text(&app);
    assert!(screen.contains("Clocks at this move"), "{screen}");
    assert!(screen.contains("Black      5:00"), "{screen}");
    press(&mut app, ratatui::crossterm::event::KeyCode::Right);
    press(&mut app, ratatui::crossterm::event::KeyCode::Right);
    let screen = screen_text(&app);
    assert!(screen.contains("Black      4:50"), "{screen}");
    assert!(screen.contains("White      4:40"), "{screen}");
    press(&mut app, ratatui::crossterm::event::KeyCode::End);
    assert!(screen_text(&app).contains("Black      4:20"));
    // A save of the record keeps its readings.
    let saved = write_game(&app.session().record("2026.11.30"));
    assert!(saved.contains("8-11 {[%clk 0:04:20]}"), "{saved}");
}

#[test]
fn a_reviewed_record_says_how_it_ended_and_shows_the_clocks_at_the_end() {
    // Black resigned on move 2 with 4:12.5 left, after its last reading of 4:50.
    let pdn = "[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"0-1\"]\n[Termination \"resignation\"]\n\
               [TimeControl \"G/5\"]\n[BlackClock \"0:04:12.5\"]\n[WhiteClock \"0:04:40\"]\n\
               1. 11-15 {[%clk 0:04:50]} 23-19 {[%clk 0:04:40]} 0-1";
    let mut app = review_app(pdn);
    let screen = screen_text(&app);
    assert!(screen.contains("Clocks at this move"), "{screen}");
    assert!(screen.contains("Ended  Black resigned"), "{screen}");
    press(&mut app, ratatui::crossterm::event::KeyCode::End);
    let screen = screen_text(&app);
    assert!(screen.contains("Clocks at the end"), "{screen}");
    assert!(screen.contains("Black      4:12"), "{screen}");
    assert!(screen.contains("White      4:40"), "{screen}");
    assert!(screen.contains("Result 0-1 (White won)"), "{screen}");
    // A step back shows the clocks of that move again.
    press(&mut app, ratatui::crossterm::event::KeyCode::Left);
    let screen = screen_text(&app);
    assert!(screen.contains("Clocks at this move"), "{screen}");
    assert!(screen.contains("Black      4:50"), "{screen}");
    // A flag fall, another program's words, and a board that ends the game itself.
    for (tags, moves, said) in [
        (
            "[Result \"1-0\"]\n[Termination \"lost on time\"]",
            "1. 11-15 23-19 1-0",
            Some("White lost on time"),
        ),
        (
            "[Result \"1/2-1/2\"]\n[Termination \"adjudication\"]",
            "1. 11-15 23-19 1/2-1/2",
            Some("adjudication"),
        ),
        (
            "[Result \"1/2-1/2\"]\n[Termination \"agreement\"]",
            "1. 11-15 23-19 1/2-1/2",
            Some("Draw by agreement"),
        ),
        ("[Result \"1-0\"]", "1. 11-15 23-19 1-0", None),
        (
            "[Result \"1-0\"]\n[SetUp \"1\"]\n[FEN \"B:W28:B15,24\"]",
            "1. 15-19 1-0",
            Some("White has no legal move"),
        ),
    ] {
        let app = review_app(&format!("{tags}\n{moves}"));
        let screen = screen_text(&app);
        match said {
            Some(said) => assert!(screen.contains(&format!("Ended  {said}")), "{screen}"),
            None => assert!(!screen.contains("Ended"), "not told, not guessed: {screen}"),
        }
    }
}

#[test]
fn a_reviewed_record_at_its_end_says_the_game_is_over_not_whose_move_it_is() {
    use ratatui::crossterm::event::KeyCode;
    // (result, tags, what the panel says at the end)
    for (result, tags, over, how) in [
        (
            "0-1",
            "[Black \"Ann\"]\n[White \"Bob\"]\n[Termination \"resignation\"]",
            "Game over: Bob wins",
            "White wins: Black resigned.",
        ),
        (
            "1-0",
            "[Termination \"lost on time\"]",
            "Game over",
            "Black wins: White lost on time.",
        ),
        (
            "1/2-1/2",
            "[Termination \"agreement\"]",
            "Game over",
            "Draw by agreement.",
        ),
        // Another program's words, and a bare result: said as the record says them.
        (
            "1/2-1/2",
            "[Termination \"adjudication\"]",
            "Game over",
            "Drawn: adjudication.",
        ),
        ("1-0", "", "Game over", "Black won (as recorded)."),
    ] {
        let pdn = format!("[Result \"{result}\"]\n{tags}\n1. 11-15 23-19 2. 8-11 22-17 {result}");
        let mut app = review_app(&pdn);
        // Before its end the game goes on: the side to move is said.
        assert!(screen_text(&app).contains("Black to move"));
        press(&mut app, KeyCode::End);
        let screen = screen_text(&app);
        assert!(screen.contains(over), "{pdn}: {screen}");
        assert!(screen.contains(how), "{pdn}: {screen}");
        assert!(!screen.contains("Black to move"), "{pdn}: {screen}");
        // A step back from the end: the game goes on there again.
        press(&mut app, KeyCode::Left);
        let screen = screen_text(&app);
        assert!(screen.contains("White to move"), "{screen}");
        assert!(!screen.contains("Game over"), "{screen}");
    }
    // A record with no result ends with the side to move, as the game stands.
    let mut app = review_app("1. 11-15 23-19 *");
    press(&mut app, KeyCode::End);
    let screen = screen_text(&app);
    assert!(screen.contains("Black to move"), "{screen}");
    assert!(!screen.contains("Game over"), "{screen}");
}

#[test]
fn a_resumed_game_holds_its_clocks_and_hides_the_board_until_the_first_key() {
    let t0 = Instant::now();
    let session = Session::new(Game::new())
        .with_clock("G/5".parse().unwrap(), t0)
        .with_clocks_held();
    let mut app = App::with_session(Settings::default(), session, 80, 24);
    let screen = screen_text(&app);
    assert!(screen.contains("Game resumed: Black to move"), "{screen}");
    assert!(screen.contains("any key starts the clocks"), "{screen}");
    // The status and key lines say so too, not how to pick a piece on the hidden board.
    assert!(
        message(&app).contains("Any key starts the clocks"),
        "{}",
        message(&app)
    );
    assert!(
        !screen.contains("Pick a piece") && !screen.contains("undo"),
        "{screen}"
    );
    assert!(
        !screen.contains("32        31"),
        "the board is hidden: {screen}"
    );
    assert!(app.session().clocks_held());
    app.tick(t0 + Duration::from_secs(30));
    assert_eq!(
        app.session().time_left(Color::Black),
        Some(Duration::from_secs(300))
    );
    // The first key starts the clocks and does nothing else.
    press(&mut app, ratatui::crossterm::event::KeyCode::Char('r'));
    assert!(!app.session().clocks_held() && !app.session().is_paused());
    assert_eq!(app.mode, crate::tui::app::Mode::Board, "no resign question");
    let screen = screen_text(&app);
    assert!(!screen.contains("Game resumed"), "{screen}");
    assert!(
        message(&app).contains("the clocks run, Black to move"),
        "{}",
        message(&app)
    );
    type_move(&mut app, "11-15");
    assert_eq!(app.game().moves().len(), 1);
}
