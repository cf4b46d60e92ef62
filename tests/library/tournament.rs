//! Tournament play: ballots from the ACF deck (and, below, clocks).

use crate::common::*;
use checkers::game::Game;
use checkers::session::{Session, ballot, random_ballot};
use checkers::tui::{App, Settings};

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
    assert_eq!(session.position().turn(), checkers::Color::White);
}

#[test]
fn undo_never_takes_back_the_ballot() {
    let mut session = balloted(126);
    assert!(session.undo().is_err(), "the ballot's moves stay");
    session.play_text("22-18").unwrap();
    assert!(session.undo().unwrap().contains("22-18"));
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
    assert!((0..300).all(|seed| random_ballot(seed, false).status == "crossboard"));
}

#[test]
fn the_record_keeps_the_ballot_and_a_resume_gets_it_back() {
    let mut session = balloted(126);
    session.play_text("22-18").unwrap();
    let record = session.record("2026.11.30");
    assert_eq!(record.tag("Ballot"), Some("126"));
    let text = checkers::pdn::write_game(&record);
    let read = checkers::pdn::read_games(&text).remove(0).unwrap();
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
