//! The session's own tests: the conduct both front ends share.

use super::*;
use crate::engine::{Engine, StopFlag};
use crate::rules::DrawReason;
use records::ASSIST_TAG;

fn against_white_computer() -> Session {
    Session::new(Game::new()).with_seats(Seats {
        black: Player::Person,
        white: Player::Computer(Level::MIN),
    })
}

#[test]
fn redo_replays_the_computers_reply_as_undo_took_it_back() {
    let mut session = against_white_computer();
    let mut engine = Engine::new(1);
    session.play_text("11-15").unwrap();
    let request = session.move_request().unwrap();
    let result = engine.search(&request, &StopFlag::new(), |_| {});
    session.computer_played(&result).unwrap();
    let played = session.game().moves().to_vec();
    let undone = session.undo().unwrap();
    assert!(
        matches!(&undone, News::TookBack(moves) if moves.len() == 2 && moves[0].color() == Color::Black && moves[0].to_string() == "11-15"),
        "{undone:?}"
    );
    assert!(
        undone
            .to_string()
            .starts_with("Took back Black 11-15 and White's reply"),
        "{undone}"
    );
    assert!(session.game().moves().is_empty());
    assert_eq!(session.computer_to_move(), None, "the person is to move");
    let redone = session.redo().unwrap();
    assert!(
        redone
            .to_string()
            .starts_with("Replayed Black 11-15 and White's reply"),
        "{redone}"
    );
    assert_eq!(session.game().moves(), &played[..]);
    assert_eq!(
        session.computer_to_move(),
        None,
        "the person is to move again"
    );
    assert_eq!(session.redo(), Err(SessionError::NothingToRedo));
}

#[test]
fn a_person_cannot_move_or_claim_for_the_computer() {
    let mut session = against_white_computer();
    session.play_text("11-15").unwrap();
    let refused = session.play_text("23-19").unwrap_err();
    assert!(matches!(
        refused,
        SessionError::ComputersTurn {
            color: Color::White,
            ..
        }
    ));
    assert!(matches!(
        session.claim_draw(),
        Err(SessionError::ComputersTurn { .. })
    ));
    assert!(matches!(
        session.offer_draw(),
        Err(SessionError::ComputersTurn { .. })
    ));
    assert_eq!(session.game().moves().len(), 1);
}

#[test]
fn a_person_resigns_only_for_a_side_a_person_plays() {
    let mut session = against_white_computer();
    session.play_text("11-15").unwrap();
    let refused = session.resign(Color::White).unwrap_err();
    assert!(
        matches!(
            refused,
            SessionError::ComputersSide {
                color: Color::White,
                ..
            }
        ),
        "{refused:?}"
    );
    assert_eq!(
        refused.to_string(),
        "White (level 1) plays White: a person acts only for a side a person plays"
    );
    assert_eq!(session.game().result(), None);
    // The plain "resign" gives up the person's side, even on the computer's turn.
    assert_eq!(session.resigning_side(), Color::Black);
    assert_eq!(
        session.resign(Color::Black),
        Ok(News::Resigned(Color::Black))
    );
    // Two computers: nobody at the keyboard resigns for either.
    let mut watched = Session::new(Game::new()).with_seats(Seats {
        black: Player::Computer(Level::MIN),
        white: Player::Computer(Level::MIN),
    });
    let side = watched.resigning_side();
    assert!(matches!(
        watched.resign(side),
        Err(SessionError::ComputersSide { .. })
    ));
}

#[test]
fn a_person_does_not_answer_a_draw_offer_for_the_computer() {
    // Black (a person) offers to Black's opponent; White is then handed to the computer.
    let mut session = Session::new(Game::new());
    session.offer_draw().unwrap();
    session.set_seat(Color::White, Player::Computer(Level::MIN));
    assert!(matches!(
        session.accept_draw(),
        Err(SessionError::ComputersSide {
            color: Color::White,
            ..
        })
    ));
    assert!(matches!(
        session.decline_draw(),
        Err(SessionError::ComputersSide {
            color: Color::White,
            ..
        })
    ));
    assert_eq!(session.game().result(), None);
}

#[test]
fn the_computer_declines_a_draw_at_move_zero() {
    let mut session = against_white_computer();
    let answer = session.offer_draw().unwrap();
    assert!(answer.to_string().contains("declines"), "{answer}");
    assert!(!session.game().is_over());
    assert_eq!(session.game().draw_offer(), None);
}

#[test]
fn between_people_an_offer_waits_for_an_answer() {
    let mut session = Session::new(Game::new());
    session.offer_draw().unwrap();
    assert_eq!(session.game().draw_offer(), Some(Color::Black));
    let accepted = session.accept_draw().unwrap();
    assert_eq!(accepted, News::DrawAccepted(Color::White));
    assert_eq!(accepted.to_string(), "White accepts the draw");
    assert_eq!(
        session.game().result(),
        Some(crate::rules::Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
    // One player alone does not cancel what both agreed.
    assert!(session.undo_needs_consent());
    assert_eq!(session.undo(), Err(SessionError::UndoNeedsConsent));
    assert!(session.game().is_over());
    let undone = session.undo_agreed().unwrap();
    assert_eq!(undone, News::TookBackEnding);
    assert_eq!(undone.to_string(), "Took back the end of the game: play on");
    assert!(!session.game().is_over());
}

#[test]
fn an_ending_taken_back_is_put_back_by_redo() {
    let drawn = Some(crate::rules::Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    // Against the computer, which accepts a draw with a king each.
    let mut session =
        Session::new(Game::from_position("B:WK28:BK1".parse().unwrap())).with_seats(Seats {
            black: Player::Person,
            white: Player::Computer(Level::MIN),
        });
    session.offer_draw().unwrap();
    assert_eq!(session.game().result(), drawn);
    assert!(!session.undo_needs_consent(), "against the computer");
    assert_eq!(session.undo(), Ok(News::TookBackEnding));
    assert_eq!(session.game().result(), None);
    let redone = session.redo().unwrap();
    assert_eq!(redone, News::ReplayedEnding);
    assert_eq!(
        session.announce(&redone),
        "Put back the end of the game. Draw by agreement."
    );
    assert_eq!(session.game().result(), drawn);
    // A move played instead of the redo plays on: the ending is gone.
    session.undo().unwrap();
    session.play_text("1-6").unwrap();
    session.undo().unwrap();
    assert_eq!(
        session.redo().map(|n| n.to_string()),
        Ok("Replayed Black 1-6".to_string())
    );
    assert_eq!(session.game().result(), None);
}

/// Against the computer, its first move alone is not taken back (it would be played
/// again at once, and the person told nothing): undo says why.
#[test]
fn undo_with_only_the_computers_first_move_played_says_there_is_none_of_yours() {
    let mut session = Session::new(Game::new()).with_seats(Seats {
        black: Player::Computer(Level::MIN),
        white: Player::Person,
    });
    let mut engine = Engine::new(1);
    let request = session.move_request().unwrap();
    let result = engine.search(&request, &StopFlag::new(), |_| {});
    session.computer_played(&result).unwrap();
    assert_eq!(session.undo(), Err(SessionError::NoMoveOfYours));
    assert_eq!(
        session.game().moves().len(),
        1,
        "the computer's move stands"
    );
    assert!(
        SessionError::NoMoveOfYours
            .to_string()
            .starts_with("no move of yours to take back"),
    );
    // Once the person has moved, undo takes that move back.
    session.play_text("22-18").unwrap();
    assert!(matches!(session.undo(), Ok(News::TookBack(_))));
}

#[test]
fn a_level_chosen_after_the_end_leaves_the_finished_record_alone() {
    let mut session = against_white_computer().with_level(Level::new(5).unwrap());
    session.play_text("11-15").unwrap();
    session.resign(Color::Black).unwrap();
    let before = session.record("2026.12.01");
    assert_eq!(before.tag("WhiteLevel"), Some("5"));
    let news = session.change_level(true).unwrap();
    assert_eq!(
        news.to_string(),
        "The computer plays at level 6 when play goes on; this game keeps its level"
    );
    let after = session.record("2026.12.01");
    assert_eq!(after.tag("WhiteLevel"), Some("5"));
    assert_eq!(after.tag("White"), Some("checkers (level 5)"));
    assert_eq!(session.level(), Level::new(6).unwrap());
    // Taking the ending back and putting it back again changes nothing either; the
    // computer's next move, if play went on, would be made at level 6.
    session.undo().unwrap();
    assert_eq!(
        session.computer_to_move(),
        Some((Color::White, Level::new(6).unwrap()))
    );
    assert_eq!(session.record("2026.12.01").tag("WhiteLevel"), Some("5"));
    session.redo().unwrap();
    assert_eq!(session.record("2026.12.01").tag("WhiteLevel"), Some("5"));
    // The next game is played at the level chosen.
    session.new_game();
    assert_eq!(session.seats().computer(Color::White), Level::new(6));
    // In play, the level changes at once.
    assert_eq!(
        session.change_level(false),
        Ok(News::LevelChanged(Level::new(5).unwrap()))
    );
    assert_eq!(session.seats().computer(Color::White), Level::new(5));
}

#[test]
fn the_record_restores_who_plays_and_the_level() {
    let mut session = against_white_computer().with_level(Level::new(3).unwrap());
    session.play_text("11-15").unwrap();
    let record = session.record("2026.11.30");
    assert_eq!(record.tag("White"), Some("checkers (level 3)"));
    assert_eq!(record.tag("WhiteType"), Some("program"));
    let text = crate::pdn::write_game(&record);
    let back = crate::pdn::read_games(&text).remove(0).unwrap();
    let resumed = Session::from_record(&back);
    assert_eq!(resumed.seats(), session.seats());
    assert_eq!(resumed.level(), Level::new(3).unwrap());
    assert_eq!(resumed.game().moves(), session.game().moves());
    assert_eq!(
        resumed.computer_to_move(),
        Some((Color::White, Level::new(3).unwrap()))
    );
}

#[test]
fn nothing_is_autosaved_while_a_record_is_reviewed_or_only_left() {
    let mut game = Game::new();
    game.play_text("11-15").unwrap();
    game.play_text("23-19").unwrap();
    let mut record = game_record(&game, &Players::default(), "1950.01.01");
    record.set_tag("Event", "Club final");
    let mut session = Session::review_record(&record);
    assert!(session.game().moves().is_empty());
    assert_eq!(session.autosave_record("2026.11.30"), None);
    session.step(Step::Forward);
    session.leave_review().unwrap();
    assert_eq!(
        session.autosave_record("2026.11.30"),
        None,
        "nothing played yet"
    );
    session.play_text("23-19").unwrap();
    let saved = session.autosave_record("2026.11.30").unwrap();
    assert_eq!(saved.tag("Event"), Some("Club final"));
    assert_eq!(saved.tag("Date"), Some("1950.01.01"));
}

#[test]
fn on_the_clock_the_computers_search_is_given_its_clock() {
    use crate::engine::ClockLimits;
    let secs = Duration::from_secs;
    let t0 = Instant::now();
    let seats = Seats {
        black: Player::Computer(Level::MAX),
        white: Player::Person,
    };
    let clock_of = |control: TimeControl| {
        let session = Session::new(Game::new())
            .with_seats(seats)
            .with_clock(control, t0);
        session.move_request().map(|request| request.limits.clock)
    };
    let start = ClockLimits::sudden_death;
    assert_eq!(
        clock_of("G/15".parse().unwrap()),
        Some(Some(start(secs(900))))
    );
    assert_eq!(
        clock_of("5+3".parse().unwrap()),
        Some(Some(ClockLimits {
            increment: secs(3),
            ..start(secs(300))
        }))
    );
    assert_eq!(
        clock_of("30/60".parse().unwrap()),
        Some(Some(ClockLimits {
            moves_to_go: Some(30),
            ..start(secs(3600))
        }))
    );
    assert_eq!(
        clock_of(TimeControl::MoveTimer),
        Some(Some(ClockLimits {
            move_timer: true,
            ..start(secs(300))
        }))
    );
    let untimed = Session::new(Game::new()).with_seats(seats);
    assert_eq!(untimed.move_request().map(|r| r.limits.clock), Some(None));
    // A period's moves still to make count down with the side's moves.
    let mut people = Session::new(Game::new()).with_clock("30/60".parse().unwrap(), t0);
    people.play_text("11-15").unwrap();
    people.play_text("23-19").unwrap();
    let black = people.clock_limits().unwrap();
    assert_eq!(black.moves_to_go, Some(29));
}

#[test]
fn a_crowning_is_told_with_the_move() {
    let mut session = Session::new(Game::from_position("B:W26,5:B23".parse().unwrap()));
    let played = session.play_text("23x30").unwrap();
    assert_eq!(played.to_string(), "Black played 23x30, crowned");
    // The computer's crowning too: White's man on 5 steps to 1.
    session.set_seat(Color::White, Player::Computer(Level::MIN));
    let request = session.move_request().unwrap();
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    let reply = session.computer_played(&result).unwrap().to_string();
    assert!(reply.ends_with(", crowned"), "{reply}");
    // A king's move is no crowning.
    let mut kings = Session::new(Game::from_position("B:WK28:BK1".parse().unwrap()));
    assert_eq!(
        kings.play_text("1-5").unwrap().to_string(),
        "Black played 1-5"
    );
}

#[test]
fn a_hint_gives_the_searched_score_with_its_size_and_the_best_line() {
    // White's man on 17 from the start: a position the book does not know.
    let fen = "B:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    let session = Session::new(Game::from_position(fen.parse().unwrap()));
    let mut request = session.hint_request();
    request.limits = crate::engine::Limits::depth(6);
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    let (_, news) = session.hint(&result).unwrap();
    let text = news.to_string();
    assert!(text.contains("(searched 6 plies: "), "{text}");
    assert!(text.contains("; best line "), "{text}");
    let HintBasis::Search(searched) = &news_basis(&news) else {
        panic!("a searched hint: {news:?}");
    };
    assert!(searched.line.len() > 1);
    let verdict = searched.verdict();
    assert!(
        verdict == "even" || verdict.ends_with(" men") || verdict.ends_with(" man"),
        "{text}"
    );
    // An only move's hint carries its search as well.
    let forced = Session::new(Game::from_position("B:W9:B5,11".parse().unwrap()));
    let result = Engine::new(1).search(&forced.hint_request(), &StopFlag::new(), |_| {});
    let (_, news) = forced.hint(&result).unwrap();
    assert_eq!(
        news.to_string(),
        "Hint for Black (not played): 5x14 (the only legal move; searched 1 ply: Black wins in 1 move)"
    );
}

/// A hint names a multi-jump by its route (`5x14x23`), as the move list and the news of
/// a move played do, not by the record's short form (`5x23`).
#[test]
fn a_hint_names_a_multi_jump_by_its_route() {
    let forced = Session::new(Game::from_position("B:W9,18:B5,11".parse().unwrap()));
    let result = Engine::new(1).search(&forced.hint_request(), &StopFlag::new(), |_| {});
    let (m, news) = forced.hint(&result).unwrap();
    assert_eq!(m.landings().len(), 2, "{m}");
    let text = news.to_string();
    assert!(
        text.starts_with("Hint for Black (not played): 5x14x23 (the only legal move"),
        "{text}"
    );
}

fn news_basis(news: &News) -> HintBasis {
    match news {
        News::Hint { basis, .. } => basis.clone(),
        other => panic!("not a hint: {other:?}"),
    }
}

#[test]
fn without_assistance_the_record_says_so_and_keeps_it() {
    let mut session = Session::new(Game::new()).with_assist(false);
    assert_eq!(session.assistance(), Err(SessionError::NoAssistance));
    session.play_text("11-15").unwrap();
    let record = session.record("2026.12.01");
    assert_eq!(record.tag(ASSIST_TAG), Some("off"));
    let back = Session::from_record(&record);
    assert!(!back.assist());
    // Between two people the record says it was on, too; against the computer the
    // engine's help is no news.
    let on = Session::new(Game::new()).record("2026.12.01");
    assert_eq!(on.tag(ASSIST_TAG), Some("on"));
    assert!(Session::from_record(&on).assist());
    assert_eq!(
        against_white_computer()
            .record("2026.12.01")
            .tag(ASSIST_TAG),
        None
    );
}

#[test]
fn the_sessions_searches_use_the_threads_it_was_given_and_one_by_default() {
    use crate::engine::Level;
    let seats = Seats {
        black: Player::Computer(Level::MIN),
        white: Player::Person,
    };
    let alone = Session::new(Game::new()).with_seats(seats);
    assert_eq!(alone.hint_request().threads, 1);
    assert_eq!(alone.move_request().map(|r| r.threads), Some(1));
    let shared = alone.with_threads(3);
    assert_eq!(shared.hint_request().threads, 3);
    assert_eq!(shared.move_request().map(|r| r.threads), Some(3));
    assert_eq!(
        Session::new(Game::new())
            .with_threads(0)
            .hint_request()
            .threads,
        1
    );
}

#[test]
fn a_tournament_record_saved_again_gains_no_ending_or_engine_help() {
    let text = "[Event \"Club final\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\
                [Result \"1-0\"]\n[Termination \"adjudication\"]\n1. 11-15 23-19 1-0\n";
    let record = crate::pdn::read_games(text).remove(0).unwrap();
    let mut session = Session::review_record(&record);
    session.leave_review_as_recorded();
    assert_eq!(
        session.game().result().unwrap().to_string(),
        "Black won (as recorded)"
    );
    let saved = session.record("2026.11.30");
    assert_eq!(saved.tag("Termination"), Some("adjudication"));
    assert_eq!(saved.tag(ASSIST_TAG), None, "the engine never helped here");
    // Played on, the record's words are no longer its ending's.
    session.undo().unwrap();
    session.play_text("8-11").unwrap();
    let saved = session.record("2026.11.30");
    assert_eq!(saved.tag("Termination"), None);
}

#[test]
fn a_loaded_record_without_a_date_is_saved_undated_and_only_a_new_game_gets_today() {
    // A tournament game as some files keep it: players and result, no Date, Event, Site
    // or Round.
    let text = "[Black \"MF Tinsley\"]\n[White \"M Rex\"]\n[Result \"*\"]\n1. 11-15 23-18 *\n";
    let record = crate::pdn::read_games(text).remove(0).unwrap();
    let mut session = Session::from_record(&record);
    assert_eq!(session.record("2026.12.07").tag("Date"), Some("????.??.??"));
    session.play_text("8-11").unwrap();
    assert_eq!(
        session.record("2026.12.07").tag("Date"),
        Some("????.??.??"),
        "played on, still the record's game"
    );
    session.new_game();
    assert_eq!(session.record("2026.12.07").tag("Date"), Some("2026.12.07"));
}

#[test]
fn a_loaded_record_without_an_event_is_saved_with_none_invented() {
    // Another program's record: players and result, no Event.
    let text = "[Black \"MF Tinsley\"]\n[White \"M Rex\"]\n[Result \"*\"]\n1. 11-15 23-18 *\n";
    let record = crate::pdn::read_games(text).remove(0).unwrap();
    let mut session = Session::from_record(&record);
    let saved = crate::pdn::write_game(&session.record("2026.12.07"));
    assert!(saved.contains("[Event \"?\"]"), "{saved}");
    assert!(!saved.contains("Casual game"), "{saved}");
    session.play_text("8-11").unwrap();
    assert_eq!(
        session.record("2026.12.07").tag("Event"),
        Some("?"),
        "played on, still the record's game"
    );
    // Reviewed and saved unplayed, the same.
    let reviewed = Session::review_record(&record);
    assert_eq!(reviewed.record("2026.12.07").tag("Event"), Some("?"));
    // A record's own Event is kept; only a game begun here is a casual game.
    let text = "[Event \"Ohio 1946\"]\n[Result \"*\"]\n1. 11-15 *\n";
    let named = Session::from_record(&crate::pdn::read_games(text).remove(0).unwrap());
    assert_eq!(named.record("2026.12.07").tag("Event"), Some("Ohio 1946"));
    session.new_game();
    assert_eq!(
        session.record("2026.12.07").tag("Event"),
        Some("Casual game")
    );
}

#[test]
fn a_review_left_at_a_finished_records_end_keeps_its_result_until_a_move_is_played() {
    let text = "[Event \"Club final\"]\n[Result \"0-1\"]\n1. 11-15 23-19 0-1\n";
    let record = crate::pdn::read_games(text).remove(0).unwrap();
    let mut session = Session::review_record(&record);
    session.step(Step::End);
    assert_eq!(session.leave_review(), Some(Reviewed::Over));
    assert!(!session.game().is_over(), "play may go on");
    let saved = crate::pdn::write_game(&session.record("2026.12.07"));
    assert!(saved.contains("[Result \"0-1\"]"), "{saved}");
    assert!(saved.trim_end().ends_with("23-19 0-1"), "{saved}");
    // A move played: the game goes on, unfinished.
    session.play_text("8-11").unwrap();
    assert_eq!(session.record("2026.12.07").result.as_deref(), Some("*"));
    // Taken back, the move played stays ready for redo: still a game played on.
    session.undo().unwrap();
    assert_eq!(session.record("2026.12.07").result.as_deref(), Some("*"));
    // Left before the end, the game is unfinished from the start.
    let mut early = Session::review_record(&record);
    early.step(Step::Forward);
    early.leave_review().unwrap();
    assert_eq!(early.record("2026.12.07").result.as_deref(), Some("*"));
}

/// A record whose third move cannot be played, which its players ended by resignation.
const STOPS_AT_MOVE_3: &str = "[Event \"Club final\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\
    [Result \"0-1\"]\n[Termination \"resignation\"]\n\
    1. 11-15 23-19 2. 8-11 22-17 3. 30-26 17-13 0-1\n";

#[test]
fn a_record_cut_short_at_an_unplayable_move_is_saved_unfinished_saying_where_it_stops() {
    let error = crate::pdn::read_games(STOPS_AT_MOVE_3)
        .remove(0)
        .unwrap_err();
    let record = error.up_to_fault().unwrap();
    let session = Session::review_faulty_record(&record, Some(error.to_string()));
    let saved = crate::pdn::write_game(&session.record("2026.01.01"));
    assert!(saved.contains("[Result \"*\"]"), "{saved}");
    assert!(
        saved.contains(
            "[Termination \"stopped at unplayable move 3. 30-26 (Black); recorded result 0-1\"]"
        ),
        "{saved}"
    );
    assert!(!saved.contains("resignation"), "{saved}");
    assert!(saved.ends_with("2. 8-11 22-17 *\n"), "{saved}");
}
