//! Tournament play: ballots from the ACF deck (and, below, clocks).

use crate::game::Game;
use crate::session::{Session, ballot, random_ballot};
use crate::tui::tests::*;
use crate::tui::{App, Settings};

fn balloted(number: u32) -> Session {
    Session::new(Game::new()).with_ballot(ballot(number, false).unwrap())
}

#[test]
fn a_ballot_game_starts_after_its_three_moves() {
    let session = balloted(126);
    let opening = session.ballot().unwrap();
    assert_eq!(
        (opening.number, opening.moves.as_str()),
        (126, "11-15 23-19 8-11")
    );
    assert_eq!(session.game().moves().len(), 3);
    assert_eq!(session.game().movetext(), "1. 11-15 23-19 2. 8-11");
    assert_eq!(session.position().turn(), crate::Color::White);
}

#[test]
fn undo_never_takes_back_the_ballot() {
    let mut session = balloted(126);
    assert!(session.undo().is_err(), "the ballot's moves stay");
    session.play_text("22-18").unwrap();
    assert!(session.undo().unwrap().to_string().contains("22-18"));
    assert!(session.undo().is_err());
    assert_eq!(session.game().moves().len(), 3);
    session.play_text("22-18").unwrap();
    session.new_game();
    assert_eq!(
        session.game().moves().len(),
        3,
        "a new game starts from the ballot"
    );
}

#[test]
fn barred_ballots_only_when_asked_and_random_ones_never() {
    let e = ballot(3, false).unwrap_err().to_string();
    assert!(e.contains("ballot 3") && e.contains("barred"), "{e}");
    assert!(ballot(3, true).unwrap().is_barred());
    assert!(ballot(175, true).is_err());
    assert!(
        (0..300).all(
            |seed| random_ballot(seed, false).status == crate::engine::BallotStatus::Crossboard
        )
    );
}

#[test]
fn the_record_keeps_the_ballot_and_a_resume_gets_it_back() {
    let mut session = balloted(126);
    session.play_text("22-18").unwrap();
    let record = session.record("2026.11.30");
    assert_eq!(record.tag("Ballot"), Some("126"));
    let text = crate::pdn::write_game(&record);
    let read = crate::pdn::read_games(&text).remove(0).unwrap();
    let mut resumed = Session::from_record(&read);
    assert_eq!(resumed.ballot().map(|o| o.number), Some(126));
    assert!(resumed.undo().is_ok());
    assert!(resumed.undo().is_err(), "undo still stops at the ballot");
    // A Ballot tag that does not match the moves is not believed.
    let mut wrong = read.clone();
    wrong.set_tag("Ballot", "1");
    assert!(Session::from_record(&wrong).ballot().is_none());
}

#[test]
fn the_panel_shows_the_ballot() {
    let app = App::with_session(Settings::default(), balloted(126), WIDTH, HEIGHT);
    let screen = screen_text(&app);
    assert!(screen.contains("Ballot 126: 11-15 23-19 8-11"), "{screen}");
}

#[test]
fn a_game_played_into_a_named_opening_shows_and_records_its_name() {
    // No ballot: the moves played make the Old Fourteenth.
    let mut session = Session::new(Game::new());
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        session.play_text(m).unwrap();
    }
    assert_eq!(session.record("2026.12.01").tag("Opening"), None);
    session.play_text("4-8").unwrap();
    let record = session.record("2026.12.01");
    assert_eq!(record.tag("Opening"), Some("Old Fourteenth"));
    assert_eq!(record.tag("Ballot"), None);
    let app = App::with_session(Settings::default(), session.clone(), WIDTH, HEIGHT);
    let screen = screen_text(&app);
    assert!(screen.contains("Opening: Old Fourteenth"), "{screen}");
    // The name stays as the game goes on, and goes with an undo past its last move.
    session.play_text("17-13").unwrap();
    assert_eq!(session.record("").tag("Opening"), Some("Old Fourteenth"));
    session.undo().unwrap();
    session.undo().unwrap();
    let app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    let screen = screen_text(&app);
    assert!(!screen.contains("Old Fourteenth"), "{screen}");
    // A game from a set-up position has no opening.
    let mut set_up = Session::new(Game::from_position("B:W21-32:B1-11".parse().unwrap()));
    set_up.play_text("11-15").unwrap();
    assert_eq!(set_up.record("").tag("Opening"), None);
}

#[test]
fn the_opening_named_is_that_of_the_position_shown() {
    use ratatui::crossterm::event::KeyCode;
    let mut session = Session::new(Game::new());
    for m in ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13"] {
        session.play_text(m).unwrap();
    }
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    assert!(screen_text(&app).contains("Opening: Old Fourteenth"));
    // Browsing: after move 5 (4-8) it is the Old Fourteenth, before it not yet.
    press(&mut app, KeyCode::Char('<'));
    assert!(screen_text(&app).contains("Opening: Old Fourteenth"));
    press(&mut app, KeyCode::Char('<'));
    let screen = screen_text(&app);
    // After White's 22-17: move 2 of the list's 3.
    assert!(
        screen.contains("Shown: move 2 (White's 22-17) of 3"),
        "{screen}"
    );
    assert!(!screen.contains("Opening:"), "{screen}");
    press(&mut app, KeyCode::Esc);
    assert!(screen_text(&app).contains("Opening: Old Fourteenth"));
    // The editor's position is not the game's: no opening is named there.
    press(&mut app, KeyCode::Char('E'));
    let screen = screen_text(&app);
    assert!(screen.contains("Setting up a position"), "{screen}");
    assert!(!screen.contains("Opening:"), "{screen}");
}

/// The panel's lines (the text right of the board's frame) of `app`'s screen, trimmed.
fn panel_lines(app: &App) -> Vec<String> {
    screen_text(app)
        .lines()
        .filter_map(|line| {
            let (_, panel) = line.split_once("\u{2502}\u{2502}")?;
            Some(panel.trim().trim_end_matches('\u{2502}').trim().to_string())
        })
        .collect()
}

#[test]
fn every_ballot_is_told_on_one_line_and_its_opening_on_the_next_at_any_size() {
    // Named in the deck (5, 9) or not (126, 1, whose moves make the Edinburgh): the
    // same two lines, at the smallest screen and a large one.
    for (number, moves, name) in [
        (5, "9-13 22-18 6-9", Some("Dreaded Edinburgh")),
        (126, "11-15 23-19 8-11", None),
        (1, "9-13 21-17 5-9", Some("Edinburgh")),
    ] {
        for (width, height) in [(80, 24), (120, 40)] {
            let app = App::with_session(Settings::default(), balloted(number), width, height);
            let lines = panel_lines(&app);
            let at = lines
                .iter()
                .position(|l| l.starts_with("Ballot "))
                .unwrap_or_else(|| panic!("no ballot line: {lines:#?}"));
            assert_eq!(lines[at], format!("Ballot {number}: {moves}"), "{lines:#?}");
            match name {
                Some(name) => assert_eq!(lines[at + 1], format!("Opening: {name}")),
                None => assert!(!lines[at + 1].starts_with("Opening"), "{lines:#?}"),
            }
        }
    }
}

#[test]
fn a_ballot_game_names_its_ballot_once_and_the_opening_it_grows_into() {
    // Ballot 5 is named in the deck: the panel names it once, the record in Opening.
    let app = App::with_session(Settings::default(), balloted(5), WIDTH, HEIGHT);
    let screen = screen_text(&app);
    assert!(screen.contains("Opening: Dreaded Edinburgh"), "{screen}");
    assert_eq!(screen.matches("Dreaded Edinburgh").count(), 1, "{screen}");
    assert_eq!(
        balloted(5).record("").tag("Opening"),
        Some("Dreaded Edinburgh")
    );
    // Ballot 126 has no name; with 22-17 4-8 it becomes the Old Fourteenth.
    let mut session = balloted(126);
    session.play_text("22-17").unwrap();
    session.play_text("4-8").unwrap();
    let app = App::with_session(Settings::default(), session.clone(), WIDTH, HEIGHT);
    let screen = screen_text(&app);
    assert!(screen.contains("Ballot 126: 11-15 23-19 8-11"), "{screen}");
    assert!(screen.contains("Opening: Old Fourteenth"), "{screen}");
    let record = session.record("");
    assert_eq!(record.tag("Ballot"), Some("126"));
    assert_eq!(record.tag("Opening"), Some("Old Fourteenth"));
}

mod clocks {
    use crate::Color;
    use crate::game::Game;
    use crate::session::{Session, TimeControl};
    use std::time::{Duration, Instant};

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    fn timed(spec: &str, t0: Instant) -> Session {
        Session::new(Game::new()).with_clock(spec.parse().unwrap(), t0)
    }

    #[test]
    fn moves_are_timed_at_the_time_the_front_end_gives() {
        let t0 = Instant::now();
        let mut s = timed("5+3", t0);
        assert_eq!(s.clock().unwrap().running(), Some(Color::Black));
        assert_eq!(s.tick(t0 + secs(20)), None);
        s.play_text("11-15").unwrap();
        assert_eq!(s.time_left(Color::Black), Some(secs(283)));
        assert_eq!(s.clock().unwrap().running(), Some(Color::White));
        s.tick(t0 + secs(30));
        assert_eq!(s.time_left(Color::White), Some(secs(290)));
    }

    #[test]
    fn a_flag_fall_loses_on_time_and_is_recorded() {
        let t0 = Instant::now();
        let mut s = timed("G/1", t0);
        assert_eq!(s.tick(t0 + secs(59)), None);
        let news = s.tick(t0 + secs(60)).unwrap();
        assert!(
            news.to_string().contains("White wins: Black lost on time"),
            "{news}"
        );
        assert_eq!(s.tick(t0 + secs(61)), None, "told once");
        assert!(s.undo_agreed().is_err(), "a flag fall stands");
        assert!(s.play_text("11-15").is_err());
        let record = s.record("2026.11.30");
        assert_eq!(record.result.as_deref(), Some("0-1"));
        assert_eq!(record.tag("Termination"), Some("lost on time"));
        assert_eq!(record.tag("TimeControl"), Some("G/1"));
        let text = crate::pdn::write_game(&record);
        let read = crate::pdn::read_games(&text).remove(0).unwrap();
        let back = Session::from_record(&read);
        assert_eq!(
            back.game().result().unwrap().to_string(),
            "White wins: Black lost on time"
        );
        // A new game gets fresh clocks.
        s.new_game();
        assert_eq!(s.time_left(Color::Black), Some(secs(60)));
        assert_eq!(s.tick(t0 + secs(62)), None);
        assert_eq!(s.clock().unwrap().running(), Some(Color::Black));
    }

    #[test]
    fn undo_puts_the_clocks_back_with_the_move() {
        let t0 = Instant::now();
        let mut s = timed("G/5", t0);
        s.tick(t0 + secs(40));
        s.play_text("11-15").unwrap();
        s.tick(t0 + secs(100));
        s.undo_agreed().unwrap();
        assert_eq!(s.time_left(Color::Black), Some(secs(300)));
        assert_eq!(s.time_left(Color::White), Some(secs(300)));
        assert_eq!(s.clock().unwrap().running(), Some(Color::Black));
    }

    #[test]
    fn a_half_played_timed_game_resumes_with_its_clocks() {
        let t0 = Instant::now();
        let mut s = timed("5+3", t0);
        s.tick(t0 + Duration::from_millis(20_400));
        s.play_text("11-15").unwrap();
        s.tick(t0 + secs(60));
        s.play_text("23-19").unwrap();
        let record = s.record("2026.11.30");
        assert_eq!(record.tag("BlackClock"), Some("0:04:42.6"));
        assert_eq!(record.tag("WhiteClock"), Some("0:04:23.4"));
        let text = crate::pdn::write_game(&record);
        let read = crate::pdn::read_games(&text).remove(0).unwrap();
        let t1 = t0 + secs(5000);
        let mut back = Session::from_record(&read).with_recorded_clock(t1);
        assert_eq!(back.clock().unwrap().control().to_string(), "5+3");
        assert_eq!(back.clock().unwrap().running(), Some(Color::Black));
        back.tick(t1 + secs(2));
        assert_eq!(
            back.time_left(Color::Black),
            Some(Duration::from_millis(280_600))
        );
        assert_eq!(
            back.time_left(Color::White),
            Some(Duration::from_millis(263_400))
        );
        assert!(
            Session::from_record(&read).clock().is_none(),
            "not started unless asked"
        );
    }

    #[test]
    fn the_computer_thinks_within_its_clock() {
        use crate::engine::Level;
        use crate::session::{Player, Seats};
        let t0 = Instant::now();
        let seats = Seats {
            black: Player::Computer(Level::MAX),
            white: Player::Person,
        };
        let mut s = Session::new(Game::new())
            .with_seats(seats)
            .with_clock("G/1".parse().unwrap(), t0);
        assert_eq!(s.clock_budget(), Some(secs(3)));
        // Three seconds as a budget, with a wall the budget may stretch to in a hard
        // position: three times it, and never more than half the time left but a
        // second, or on a short clock but a tenth of it (as the engine plans it from
        // the clock in the request).
        let limits = s.move_request().unwrap().planned_limits();
        assert_eq!(limits.target, Some(secs(3)));
        assert_eq!(limits.movetime, Some(secs(9)));
        s.tick(t0 + Duration::from_millis(57_000));
        let limits = s.move_request().unwrap().planned_limits();
        assert_eq!(limits.movetime, Some(Duration::from_millis(450)));
        // A second left: a twentieth of it, with a margin of a tenth, not the whole
        // second that would leave only the least time.
        s.tick(t0 + Duration::from_millis(59_000));
        let limits = s.move_request().unwrap().planned_limits();
        assert_eq!(limits.target, Some(Duration::from_millis(50)));
        assert_eq!(limits.movetime, Some(Duration::from_millis(150)));
        s.tick(t0 + Duration::from_millis(59_500));
        assert_eq!(s.clock_budget(), Some(Duration::from_millis(25)));
        s.tick(t0 + Duration::from_millis(59_950));
        assert_eq!(s.clock_budget(), Some(Duration::from_millis(10)));
    }

    #[test]
    fn on_the_clock_two_people_take_back_only_by_consent() {
        let t0 = Instant::now();
        let mut s = timed("G/5", t0);
        s.play_text("11-15").unwrap();
        assert!(s.undo_needs_consent());
        assert_eq!(
            s.undo(),
            Err(crate::session::SessionError::UndoNeedsConsent)
        );
        assert!(s.undo_agreed().unwrap().to_string().contains("11-15"));
        assert!(s.game().moves().is_empty());
    }

    #[test]
    fn pause_stops_both_clocks() {
        let t0 = Instant::now();
        let mut s = timed("G/1", t0);
        s.tick(t0 + secs(10));
        assert!(s.set_paused(true));
        assert!(s.is_paused());
        assert_eq!(s.tick(t0 + secs(1000)), None);
        assert_eq!(s.time_left(Color::Black), Some(secs(50)));
        s.set_paused(false);
        assert!(s.tick(t0 + secs(1050)).is_some());
    }

    #[test]
    fn periods_roll_over_and_the_move_timer_allows_a_minute_for_a_forced_jump() {
        let t0 = Instant::now();
        let mut s = timed("1/1", t0);
        s.tick(t0 + secs(50));
        s.play_text("11-15").unwrap();
        assert_eq!(
            s.time_left(Color::Black),
            Some(secs(70)),
            "10 s left plus a period"
        );
        let pos = "W:W23:B18,5".parse().unwrap();
        let mut s = Session::new(Game::from_position(pos)).with_clock(TimeControl::MoveTimer, t0);
        assert_eq!(s.time_left(Color::White), Some(secs(60)));
        s.tick(t0 + secs(30));
        s.play_text("23x14").unwrap();
        assert_eq!(s.time_left(Color::Black), Some(secs(300)));
        assert!(
            s.tick(t0 + secs(330))
                .unwrap()
                .to_string()
                .contains("Black lost on time")
        );
    }
}

mod clock_screen {
    use crate::game::Game;
    use crate::session::Session;
    use crate::tui::tests::*;
    use crate::tui::{Action, App, Settings};
    use std::time::{Duration, Instant};

    fn timed_app(spec: &str, t0: Instant) -> App {
        let session = Session::new(Game::new()).with_clock(spec.parse().unwrap(), t0);
        App::with_session(Settings::default(), session, WIDTH, HEIGHT)
    }

    #[test]
    fn the_panel_shows_both_clocks_the_running_one_marked_with_tenths_at_the_end() {
        let t0 = Instant::now();
        let mut app = timed_app("G/5", t0);
        app.poll(t0 + Duration::from_millis(1500));
        let screen = screen_text(&app);
        assert!(screen.contains("Black \u{25b6}    4:58"), "{screen}");
        assert!(screen.contains("White      5:00"), "{screen}");
        app.poll(t0 + Duration::from_millis(291_400));
        let screen = screen_text(&app);
        assert!(screen.contains("Black \u{25b6}     8.6"), "{screen}");
    }

    #[test]
    fn a_tall_panel_shows_the_clocks_in_big_digits_to_read_across_a_desk() {
        let t0 = Instant::now();
        let session = Session::new(Game::new()).with_clock("G/5".parse().unwrap(), t0);
        let mut app = App::with_session(Settings::default(), session, 120, 40);
        app.poll(t0 + Duration::from_millis(1500));
        let screen = screen_text(&app);
        // 4:58 and 5:00, three rows tall, under each side's line.
        for row in ["█ █   █▀▀ █▀█", "▀▀█ ▀ ▀▀█ █▀█", "  █ ▀ ▄▄█ █▄█"]
        {
            assert!(screen.contains(row), "{row}\n{screen}");
        }
        assert!(screen.contains("█▀▀   █▀█ █▀█"), "{screen}");
        assert!(screen.contains("Black \u{25b6}"), "{screen}");
        // The last ten seconds in tenths, big too.
        app.poll(t0 + Duration::from_millis(291_400));
        let screen = screen_text(&app);
        assert!(screen.contains("█▀█   █▀█"), "8.6: {screen}");
        // An ASCII screen keeps the plain reading.
        let session = Session::new(Game::new()).with_clock("G/5".parse().unwrap(), t0);
        let settings = Settings {
            theme: crate::tui::Theme::new(true, true),
            ..Settings::default()
        };
        let app = App::with_session(settings, session, 120, 40);
        assert!(screen_text(&app).contains("Black >    5:00"));
    }

    #[test]
    fn the_analysis_board_opened_over_a_game_on_the_clock_stops_both_clocks() {
        let t0 = Instant::now();
        let session = Session::new(Game::new())
            .with_clock("G/5".parse().unwrap(), t0)
            .with_assist(true);
        let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
        app.update(Action::Analyse);
        assert!(app.analysis.is_some(), "the analysis board opens");
        assert!(app.session().is_paused(), "the clocks wait for the player");
        assert!(
            screen_text(&app).contains("p starts them again"),
            "{}",
            screen_text(&app)
        );
    }

    #[test]
    fn pause_hides_the_board_and_stops_the_clocks() {
        let t0 = Instant::now();
        let mut app = timed_app("G/5", t0);
        app.update(Action::Pause);
        assert!(app.session().is_paused());
        let screen = screen_text(&app);
        assert!(
            screen.contains("Paused") && screen.contains("Clocks paused"),
            "{screen}"
        );
        assert!(
            !screen.contains("32        31"),
            "the board is hidden: {screen}"
        );
        type_move(&mut app, "11-15");
        assert!(app.game().moves().is_empty(), "no moves while paused");
        app.update(Action::Pause);
        assert!(!app.session().is_paused());
        type_move(&mut app, "11-15");
        assert_eq!(app.game().moves().len(), 1);
        // Undo on the clock asks both players.
        app.update(Action::Undo);
        assert!(screen_text(&app).contains("Both players agree"));
        press(&mut app, ratatui::crossterm::event::KeyCode::Char('n'));
        assert_eq!(app.game().moves().len(), 1);
        app.update(Action::Undo);
        press(&mut app, ratatui::crossterm::event::KeyCode::Char('y'));
        assert!(app.game().moves().is_empty());
    }

    #[test]
    fn a_window_resized_while_paused_takes_clicks_on_the_squares_drawn_after_the_pause() {
        let t0 = Instant::now();
        let mut app = timed_app("G/5", t0);
        app.update(Action::Pause);
        app.handle_event(&ratatui::crossterm::event::Event::Resize(120, 40));
        assert!(
            !message(&app).contains("p starts the clocks again"),
            "a resize is no key pressed while paused: {}",
            message(&app)
        );
        app.update(Action::Pause);
        // The board as drawn at 120x40: a click on 11, then on 15, plays 11-15.
        let drawn = ratatui::layout::Rect::new(0, 0, 120, 40);
        let layout = crate::tui::geometry::screen_layout(drawn, false).unwrap();
        for n in [11, 15] {
            let square = layout.board.square_rect(sq(n));
            click(&mut app, square.x + 1, square.y + 1);
        }
        assert_eq!(app.game().movetext(), "1. 11-15");
    }
}
