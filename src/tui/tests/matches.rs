//! Matches at one terminal: rounds of two games on one ballot with the colours
//! reversed, the players (and the computer) keeping their seats by name, the score,
//! the next game when both are ready, the match's file, and a resume mid-match, driven
//! with a fake clock; and the full-screen game showing it.

use crate::Color;
use crate::engine::Level;
use crate::game::Game;
use crate::pdn::Players;
use crate::pdn::{read_games, write_game};
use crate::session::ballot::drawn_ballot;
use crate::session::{MatchBallots, Player, Seats, Session, SessionError, ballot};
use crate::tui::tests::*;
use crate::tui::{App, Settings};
use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;
use std::path::PathBuf;
use std::time::{Duration, Instant};

fn secs(s: u64) -> Duration {
    Duration::from_secs(s)
}

fn named(black: &str, white: &str) -> Players {
    Players {
        black: Some(black.into()),
        white: Some(white.into()),
    }
}

/// A match of `rounds` rounds between Ann (Black first) and Bob, on `clock` from `t0`.
fn match_of(rounds: u32, ballots: MatchBallots, clock: &str, t0: Instant) -> Session {
    Session::new(Game::new())
        .with_names(named("Ann", "Bob"))
        .with_match(rounds, ballots, Some(PathBuf::from("/nowhere/match.pdn")))
        .with_clock(clock.parse().unwrap(), t0)
}

/// The side to move resigns: the game ends.
fn resign(s: &mut Session) {
    let side = s.position().turn();
    s.resign(side).unwrap();
}

fn names(s: &Session) -> (String, String) {
    let n = s.names();
    (n.black.clone().unwrap(), n.white.clone().unwrap())
}

/// Through a PDN file and back, as the autosave and `--resume` carry a game.
fn resumed(s: &Session, at: Instant) -> Session {
    let text = write_game(&s.autosave_record("2026.11.30").unwrap());
    Session::from_record(&read_games(&text).remove(0).unwrap()).with_recorded_clock(at)
}

#[test]
fn colours_reverse_within_a_round_on_its_ballot_and_a_new_round_draws_another() {
    let t0 = Instant::now();
    let random = MatchBallots::Random {
        seed: 42,
        mailplay: false,
    };
    let mut s = match_of(2, random, "G/5", t0);
    let first = drawn_ballot(42, false, 0);
    assert_eq!(s.ballot().unwrap().number, first.number);
    assert_eq!(
        s.game().moves().len(),
        3,
        "the game starts after the ballot"
    );
    assert_eq!(names(&s), ("Ann".into(), "Bob".into()));
    assert_eq!(
        s.next_match_game(),
        Err(SessionError::MatchGameInPlay),
        "a game is played out first"
    );
    resign(&mut s); // White (Bob) resigns: Ann wins game 1.
    assert!(s.match_waits());
    let news = s.match_news().unwrap();
    assert!(
        news.contains("Ann 1 (W1 D0 L0)") && news.contains("Bob 0 (W0 D0 L1)"),
        "{news}"
    );
    assert!(news.contains("game 2 of 4, Bob Black, Ann White"), "{news}");

    s.tick(t0 + secs(100));
    let text = s.next_match_game().unwrap();
    assert!(
        text.to_string()
            .starts_with("Game 2 of 4 (round 1.2): Bob plays Black, Ann White"),
        "{text}"
    );
    assert_eq!(names(&s), ("Bob".into(), "Ann".into()));
    assert_eq!(s.ballot().unwrap().number, first.number, "the same ballot");
    assert_eq!(s.record("2026.11.30").tag("Round"), Some("1.2"));
    // Fresh clocks, started when the players were ready.
    s.tick(t0 + secs(110));
    assert_eq!(s.time_left(Color::White), Some(secs(290)));
    assert_eq!(s.time_left(Color::Black), Some(secs(300)));

    s.resign(Color::Black).unwrap(); // Bob resigns: Ann again.
    s.next_match_game().unwrap();
    let second = drawn_ballot(42, false, 1);
    assert_ne!(second.number, first.number);
    assert_eq!(
        s.ballot().unwrap().number,
        second.number,
        "round 2's own ballot"
    );
    assert_eq!(names(&s), ("Ann".into(), "Bob".into()));
    s.offer_draw().unwrap();
    s.accept_draw().unwrap();
    s.next_match_game().unwrap();
    assert_eq!(s.ballot().unwrap().number, second.number);
    s.resign(Color::White).unwrap(); // Ann, White now, resigns.
    assert!(s.match_over() && !s.match_waits());
    assert_eq!(s.next_match_game(), Err(SessionError::MatchOver));
    let [ann, bob] = s.match_tallies().unwrap();
    assert_eq!((ann.wins, ann.draws, ann.losses), (2, 1, 1));
    assert_eq!(bob.record(), "W1 D1 L2");
    assert_eq!(
        s.match_result_text().as_deref(),
        Some("Match over: Ann wins the match 2\u{bd}-1\u{bd}")
    );
}

#[test]
fn every_round_from_a_fixed_ballot_or_from_the_start() {
    let t0 = Instant::now();
    let mut s = match_of(2, MatchBallots::Fixed(126), "G/5", t0);
    for _ in 0..3 {
        assert_eq!(s.ballot().unwrap().moves, "11-15 23-19 8-11");
        resign(&mut s);
        s.next_match_game().unwrap();
    }
    assert_eq!(s.ballot().unwrap().number, 126);
    let mut s = match_of(1, MatchBallots::None, "G/5", t0);
    resign(&mut s);
    s.next_match_game().unwrap();
    assert!(s.ballot().is_none() && s.game().moves().is_empty());
}

#[test]
fn the_computer_keeps_its_seat_by_player_as_the_colours_change() {
    let seats = Seats {
        black: Player::Person,
        white: Player::Computer(Level::MIN),
    };
    let mut s = Session::new(Game::new())
        .with_seats(seats)
        .with_names(Players {
            black: Some("Ann".into()),
            white: None,
        })
        .with_match(1, MatchBallots::None, None);
    assert_eq!(s.match_play().unwrap().names()[1], "checkers (level 1)");
    s.resign(Color::Black).unwrap();
    s.next_match_game().unwrap();
    assert_eq!(s.seats().black, Player::Computer(Level::MIN));
    assert_eq!(s.seats().white, Player::Person);
    assert_eq!(names(&s), ("checkers (level 1)".into(), "Ann".into()));
    assert!(s.computer_to_move().is_some(), "the computer opens game 2");
    // Two unnamed people are told apart.
    let s = Session::new(Game::new()).with_match(1, MatchBallots::None, None);
    assert_eq!(s.match_play().unwrap().names(), &["Player A", "Player B"]);
}

#[test]
fn a_finished_game_stands_and_goes_to_the_match_file_with_its_tags() {
    let t0 = Instant::now();
    let mut s = match_of(2, MatchBallots::Fixed(126), "5+3", t0);
    s.tick(t0 + secs(20));
    s.play_text("22-18").unwrap();
    assert!(s.match_game_to_file("2026.11.30").is_none(), "not over yet");
    resign(&mut s);
    assert!(!s.undo_needs_consent());
    assert_eq!(s.undo_agreed(), Err(SessionError::MatchGameCounts));
    let (path, record) = s.match_game_to_file("2026.11.30").unwrap();
    assert_eq!(path, PathBuf::from("/nowhere/match.pdn"));
    let text = write_game(&record);
    for tag in [
        "[Event \"Match: Ann v Bob\"]",
        "[Round \"1.1\"]",
        "[Black \"Ann\"]",
        "[White \"Bob\"]",
        "[Result \"0-1\"]",
        "[Ballot \"126\"]",
        "[TimeControl \"5+3\"]",
    ] {
        assert!(text.contains(tag), "{tag} missing:\n{text}");
    }
    assert!(text.contains("22-18 {[%clk 0:04:43]}"), "{text}");
    for kept in [
        "MatchRounds",
        "MatchResults",
        "MatchFile",
        "MatchBallots",
        "Undone",
    ] {
        assert!(
            !text.contains(kept),
            "{kept} is the autosave's only:\n{text}"
        );
    }
    s.match_game_filed();
    assert!(s.match_game_to_file("2026.11.30").is_none(), "filed once");
}

#[test]
fn a_match_interrupted_mid_game_resumes_whole() {
    let t0 = Instant::now();
    let random = MatchBallots::Random {
        seed: 7,
        mailplay: false,
    };
    let mut s = match_of(2, random, "G/5", t0);
    resign(&mut s); // Ann wins game 1.
    s.tick(t0 + secs(10));
    s.next_match_game().unwrap();
    let ballot_1 = s.ballot().unwrap().number;
    let first = s.position().legal_moves()[0];
    s.tick(t0 + secs(40));
    s.play(&first).unwrap();
    // A crash: only the autosave is left. Resumed an hour later.
    let t1 = t0 + secs(3600);
    let mut back = resumed(&s, t1);
    let contest = back.match_play().unwrap();
    assert_eq!(contest.game_index(), 1);
    assert_eq!(contest.names(), &["Ann", "Bob"]);
    assert_eq!(contest.file(), Some(&PathBuf::from("/nowhere/match.pdn")));
    assert_eq!(names(&back), ("Bob".into(), "Ann".into()));
    assert_eq!(back.ballot().unwrap().number, ballot_1);
    assert_eq!(back.game().moves(), s.game().moves());
    let [ann, bob] = back.match_tallies().unwrap();
    assert_eq!((ann.wins, bob.losses), (1, 1));
    assert_eq!(back.time_left(Color::White), Some(secs(270)));
    assert_eq!(back.time_left(Color::Black), Some(secs(300)));
    assert_eq!(back.clock().unwrap().running(), Some(Color::Black));
    // The match goes on as it would have: round 2 draws the ballot the seed gives.
    resign(&mut back);
    back.next_match_game().unwrap();
    assert_eq!(
        back.ballot().unwrap().number,
        drawn_ballot(7, false, 1).number
    );
    assert_eq!(back.match_play().unwrap().game_index(), 2);
}

#[test]
fn a_match_resumed_between_games_waits_for_the_players() {
    let t0 = Instant::now();
    let mut s = match_of(1, MatchBallots::Fixed(126), "G/5", t0);
    resign(&mut s);
    let back = resumed(&s, t0 + secs(60));
    assert!(back.match_waits());
    assert!(
        back.match_game_to_file("2026.11.30").is_some(),
        "filed again if missing"
    );
    // The game is written the same way, so a file that has it is not given it twice.
    let (_, again) = back.match_game_to_file("2026.11.30").unwrap();
    let (_, first) = s.match_game_to_file("2026.11.30").unwrap();
    assert_eq!(write_game(&again), write_game(&first));
    let mut back = back;
    back.next_match_game().unwrap();
    assert_eq!(names(&back), ("Bob".into(), "Ann".into()));
    assert_eq!(back.ballot(), Some(&ballot(126, false).unwrap()));
}

/// A timed match on the screen: Ann and Bob, ballot 126, G/5 on a fake clock.
fn match_app(t0: Instant) -> App {
    let session = match_of(2, MatchBallots::Fixed(126), "G/5", t0);
    App::with_session(Settings::default(), session, WIDTH, HEIGHT)
}

#[test]
fn the_panel_shows_the_score_and_n_starts_the_next_game_when_both_are_ready() {
    let t0 = Instant::now();
    let mut app = match_app(t0);
    let screen = screen_text(&app);
    assert!(screen.contains("Match game 1 of 4, round 1.1"), "{screen}");
    assert!(screen.contains("Ann   0  W0 D0 L0  Black"), "{screen}");
    assert!(screen.contains("White \u{25b6}    5:00  Bob"), "{screen}");
    assert!(message(&app).contains("match.pdn"), "{}", message(&app));
    press(&mut app, KeyCode::Char('n'));
    assert!(message(&app).contains("played out"), "{}", message(&app));
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('w'));
    let screen = screen_text(&app);
    assert!(screen.contains("Ann   1  W1 D0 L0  Black"), "{screen}");
    assert!(
        screen.contains("Next: game 2, n when both ready"),
        "{screen}"
    );
    assert!(screen.contains("n next game"), "the footer: {screen}");
    assert!(
        message(&app).contains("n starts game 2 of 4 when both players are ready"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Char('u'));
    assert!(app.game().is_over(), "a finished match game stands");
    assert!(!app.board.flipped, "Ann, Black, sat at the bottom");
    press(&mut app, KeyCode::Char('n'));
    assert!(
        app.board.flipped,
        "the board turns: Ann, now White, keeps the bottom"
    );
    let screen = screen_text(&app);
    assert!(screen.contains("Match game 2 of 4, round 1.2"), "{screen}");
    assert!(screen.contains("Black      5:00  Bob"), "{screen}");
    assert!(screen.contains("Ann   1  W1 D0 L0  White"), "{screen}");
}

#[test]
fn q_after_a_match_game_has_ended_asks_as_during_it_and_the_match_is_kept() {
    let t0 = Instant::now();
    let mut app = match_app(t0);
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('w'));
    assert!(app.session().match_waits());
    assert_eq!(
        press(&mut app, KeyCode::Char('q')),
        Some(crate::tui::app::Flow::Continue)
    );
    let screen = screen_text(&app);
    assert!(
        screen.contains("Quit? The match is saved; checkers --resume continues it"),
        "{screen}"
    );
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.mode, crate::tui::app::Mode::Board, "the match goes on");
    // Game 2 before its first move asks too: the match is in play.
    press(&mut app, KeyCode::Char('n'));
    press(&mut app, KeyCode::Char('q'));
    assert!(matches!(app.mode, crate::tui::app::Mode::Asking(_)));
    press(&mut app, KeyCode::Char('n'));
    // Once the match is over there is nothing to go on with: q quits at once.
    let session = match_of(1, MatchBallots::Fixed(126), "G/5", t0);
    let mut over = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    press(&mut over, KeyCode::Char('r'));
    press(&mut over, KeyCode::Char('w'));
    press(&mut over, KeyCode::Char('n'));
    press(&mut over, KeyCode::Char('r'));
    press(&mut over, KeyCode::Char('w'));
    assert!(over.session().match_over());
    assert_eq!(
        press(&mut over, KeyCode::Char('q')),
        Some(crate::tui::app::Flow::Quit)
    );
}

#[test]
fn each_player_keeps_their_side_of_the_screen_as_the_colours_change() {
    let t0 = Instant::now();
    let mut app = match_app(t0);
    assert!(!app.board.flipped, "Ann, Black in game 1, at the bottom");
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('w'));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.session().match_play().map(|m| m.game_index()), Some(1));
    assert!(
        app.board.flipped,
        "Ann plays White in game 2: White at the bottom"
    );
    // With --flip the board stays as it was put.
    let session = match_of(2, MatchBallots::Fixed(126), "G/5", t0);
    let settings = Settings {
        flipped: true,
        ..Settings::default()
    };
    let mut fixed = App::with_session(settings, session, WIDTH, HEIGHT);
    press(&mut fixed, KeyCode::Char('r'));
    press(&mut fixed, KeyCode::Char('w'));
    press(&mut fixed, KeyCode::Char('n'));
    assert!(fixed.board.flipped);
}

#[test]
fn snapshot_of_a_timed_match_in_progress() {
    let t0 = Instant::now();
    let mut app = match_app(t0);
    type_move(&mut app, "22-18");
    type_move(&mut app, "15x22");
    type_move(&mut app, "25x18");
    app.poll(t0 + secs(30));
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('y'));
    press(&mut app, KeyCode::Char('y'));
    app.poll(t0 + secs(45));
    press(&mut app, KeyCode::Char('n'));
    for (at, m) in [(50, "22-18"), (62, "15x22"), (80, "25x18"), (95, "4-8")] {
        app.poll(t0 + secs(at));
        type_move(&mut app, m);
    }
    app.poll(t0 + Duration::from_millis(113_400));
    assert_snapshot!(screen_text(&app));
}

#[test]
fn a_record_with_faulty_match_tags_is_an_ordinary_game() {
    let t0 = Instant::now();
    let mut s = match_of(1, MatchBallots::None, "G/5", t0);
    s.play_text("11-15").unwrap();
    let record = s.autosave_record("2026.11.30").unwrap();
    for (tag, value) in [
        ("MatchRounds", "0"),
        ("MatchRounds", "18446744073709551616"),
        ("MatchRounds", "1000"),
        ("MatchResults", "1-0 1-0"),
        ("MatchResults", "won"),
        ("MatchBallots", "several"),
    ] {
        let mut faulty = record.clone();
        faulty.set_tag(tag, value);
        let back = Session::from_record(&faulty);
        assert!(back.match_play().is_none(), "{tag} {value}");
        assert_eq!(back.game().moves().len(), 1);
    }
}

#[test]
fn a_chinese_name_in_the_match_panel_keeps_the_scores_in_a_column() {
    // 王小明太郎王小明太郎 takes 20 columns: counted as 10 characters, the name ran into
    // the score and pushed the colour out of the panel, and Ann's score stood apart.
    let session = Session::new(Game::new())
        .with_names(named("王小明太郎王小明太郎", "Ann"))
        .with_match(2, MatchBallots::None, None);
    let app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    let screen = screen_text(&app);
    // The test buffer holds a wide character's second column as a cell of its own (a
    // space), so a row's columns are its characters.
    let rows: Vec<&str> = screen.lines().collect();
    let row_of = |text: &str| {
        rows.iter()
            .find(|r| r.contains(text))
            .unwrap_or_else(|| panic!("no {text:?} in\n{screen}"))
            .to_string()
    };
    let (chinese, ann) = (row_of("王 小 明"), row_of("Ann "));
    let column_of = |row: &str, text: &str| {
        let at = row
            .find(text)
            .unwrap_or_else(|| panic!("no {text:?} in {row:?}"));
        row[..at].chars().count()
    };
    assert_eq!(
        column_of(&chinese, "W0 D0 L0"),
        column_of(&ann, "W0 D0 L0"),
        "{chinese}\n{ann}"
    );
    assert!(
        chinese.contains("Black") && ann.contains("White"),
        "{screen}"
    );
}

#[test]
fn a_match_resumed_from_a_record_without_names_calls_its_players_a_and_b() {
    // Another program's record (or one edited by hand): a match in progress, its
    // players unnamed ("?" is PDN's unknown, or no tag at all).
    let text = "[Black \"?\"]\n[MatchRounds \"2\"]\n[MatchResults \"1-0\"]\n1. 9-13 *\n";
    let session = Session::from_record(&read_games(text).remove(0).unwrap());
    let app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    let said = message(&app);
    assert!(
        said.contains("game 2 of 4: Player B plays Black, Player A White."),
        "{said}"
    );
    assert!(!said.contains('?'), "{said}");
    let screen = screen_text(&app);
    assert!(
        screen.contains("Player A   1"),
        "the score names them too: {screen}"
    );
}

/// A match taken up from the home screen (its `r`) goes back there on q, as a game
/// does: the question says so, and how the match goes on from there (it asked "Quit?
/// The match is saved; checkers --resume continues it." and went back to the home
/// screen all the same).
#[test]
fn q_in_a_match_from_the_home_screen_asks_to_go_back_there() {
    let mut app = match_app(Instant::now());
    app.from_home = true;
    assert_eq!(
        press(&mut app, KeyCode::Char('q')),
        Some(crate::tui::app::Flow::Continue)
    );
    let screen = screen_text(&app);
    let asked = screen.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        asked.contains("Back to the home screen? The match is saved; r there continues it."),
        "{screen}"
    );
    assert!(!asked.contains("checkers --resume"), "{screen}");
}
