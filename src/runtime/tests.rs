//! The runtime driven in-process with the real computer player: its moves arrive as
//! events from its own thread, stale results are dropped, files are written once.

use super::*;
use crate::engine::Level;
use crate::game::Game;
use crate::plain::Plain;
use crate::session::{MatchBallots, Player, Seats};
use crate::store::{GameFile, StoreError};

/// A game with a person playing Black and the computer White, at level 1; at the
/// strongest level (which searches as deep as its time allows) when `movetime` fixes
/// its time per move.
fn against_the_computer(movetime: Option<Duration>) -> Session {
    let level = if movetime.is_some() {
        Level::MAX
    } else {
        Level::MIN
    };
    let session = Session::new(out_of_the_book())
        .with_seats(Seats {
            black: Player::Person,
            white: Player::Computer(level),
        })
        .with_seed(3);
    match movetime {
        Some(time) => session.with_movetime(time),
        None => session,
    }
}

/// A game from a position no opening book knows (White's man on 17 from the start, Black
/// to move), so the computer searches rather than playing a book move at once.
fn out_of_the_book() -> Game {
    let fen = "B:W17,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
    Game::from_position(fen.parse().expect("a FEN"))
}

/// Polls `runtime` as a front end would (waiting as long as it says) until `until`
/// picks an event, or `limit` passes. The events seen, in order.
fn poll_until(
    runtime: &mut Runtime,
    limit: Duration,
    until: impl Fn(&Event) -> bool,
) -> (Vec<Event>, bool) {
    let start = Instant::now();
    let mut seen = Vec::new();
    while start.elapsed() < limit {
        let events = runtime.poll(Instant::now());
        let found = events.iter().any(&until);
        seen.extend(events);
        if found {
            return (seen, true);
        }
        let wait = runtime
            .wait(Instant::now())
            .unwrap_or(Duration::from_millis(20));
        std::thread::sleep(wait.min(Duration::from_millis(50)));
    }
    (seen, false)
}

fn is_computer_move(event: &Event) -> bool {
    matches!(event, Event::ComputerPlayed { .. })
}

#[test]
fn the_computers_move_arrives_as_an_event_from_its_thread() {
    let mut runtime = Runtime::new(against_the_computer(None), Saving::Off, Pace::NONE);
    assert_eq!(
        runtime.wanted_search(),
        None,
        "Black, a person, moves first"
    );
    let answer = runtime.command(Command::PlayText("11-15".into()));
    assert_eq!(
        answer.map(|n| n.to_string()).as_deref(),
        Ok("Black played 11-15")
    );
    assert!(runtime.awaits_search(), "White, the computer, is to move");
    // The command answered at once: nothing has been searched yet.
    assert_eq!(runtime.session().game().moves().len(), 1);
    let (events, found) = poll_until(&mut runtime, Duration::from_secs(30), is_computer_move);
    assert!(found, "the computer moved: {events:?}");
    let Some(Event::ComputerPlayed { color, news }) = events.into_iter().find(is_computer_move)
    else {
        unreachable!("found above");
    };
    assert_eq!(color, Color::White);
    assert!(
        matches!(
            &news,
            News::Computer {
                color: Color::White,
                turn: crate::session::ComputerTurn::Played(_),
                ..
            }
        ),
        "{news:?}"
    );
    assert!(
        news.to_string().starts_with("White (level 1) played "),
        "{news}"
    );
    let game = runtime.session().game();
    assert_eq!(game.moves().len(), 2);
    assert_eq!(game.position().turn(), Color::Black);
    assert!(!runtime.awaits_search(), "back to the person");
}

#[test]
fn move_now_makes_the_computer_move_at_once_in_plain_mode() {
    // A minute to think: only "now" brings the move in time.
    let minute = Duration::from_secs(60);
    let mut plain = Plain::new(against_the_computer(Some(minute)), Saving::Off);
    let (reply, _) = plain.answer("11-15");
    assert!(reply.starts_with("Black played 11-15."), "{reply}");
    assert!(plain.busy(), "the computer thinks");
    let asked = Instant::now();
    let (reply, _) = plain.answer("now");
    assert_eq!(reply, "White (level 10) moves now.");
    let mut out = Vec::new();
    plain.computer_moves(&mut out).expect("written to memory");
    let out = String::from_utf8(out).expect("text");
    assert!(out.starts_with("White (level 10) played "), "{out}");
    assert_eq!(plain.session().game().moves().len(), 2);
    assert!(
        asked.elapsed() < minute / 2,
        "the search was stopped, not run out"
    );
    // Nothing left to hurry.
    let (reply, _) = plain.answer("now");
    assert!(
        reply.starts_with("Cannot move now: the computer is not thinking"),
        "{reply}"
    );
}

#[test]
fn plain_mode_tells_what_the_computer_thinks_while_it_thinks() {
    let mut plain = Plain::new(
        against_the_computer(Some(Duration::from_secs(60))),
        Saving::Off,
    );
    plain.answer("11-15");
    // Let it complete a few iterations.
    let start = Instant::now();
    while plain.runtime().thinking().is_none_or(|t| t.depth < 3)
        && start.elapsed() < Duration::from_secs(20)
    {
        plain.news(Instant::now());
        std::thread::sleep(Duration::from_millis(20));
    }
    let (reply, _) = plain.answer("thinking");
    assert!(reply.starts_with("White is thinking: depth "), "{reply}");
    assert!(
        reply.ends_with("type now to have the move at once."),
        "{reply}"
    );
    plain.answer("now");
    plain.computer_moves(&mut std::io::sink()).expect("sink");
    let (reply, _) = plain.answer("thinking");
    assert_eq!(reply, "The computer is not thinking.");
}

#[test]
fn a_result_that_comes_after_an_undo_is_dropped() {
    // Level 1: a search one ply deep, over at once.
    let mut runtime = Runtime::new(against_the_computer(None), Saving::Off, Pace::NONE);
    runtime
        .command(Command::PlayText("11-15".into()))
        .expect("a legal move");
    // The search starts at the first poll. Wait (without polling, which would collect
    // it) until it has ended: its result waits to be collected when the undo comes.
    assert!(runtime.poll(Instant::now()).is_empty());
    assert!(runtime.computer.searching(), "the search started");
    let start = Instant::now();
    while !runtime.computer.search_ended() {
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "the search never ended"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let answer = runtime
        .command(Command::Undo)
        .expect("the move is taken back");
    assert!(
        matches!(&answer, News::TookBack(moves) if moves.len() == 1 && moves[0].color() == Color::Black),
        "{answer:?}"
    );
    assert_eq!(answer.to_string(), "Took back Black 11-15");
    // The next poll collects the finished search's result, and drops it: nothing is
    // left running or held that could play it later.
    let events = runtime.poll(Instant::now());
    assert!(
        !events.iter().any(is_computer_move),
        "the stale move was not played: {events:?}"
    );
    assert!(!runtime.computer.busy(), "the result was dropped");
    assert_eq!(runtime.wait(Instant::now()), None, "nothing more to come");
    assert!(runtime.session().game().moves().is_empty());
    assert_eq!(runtime.wanted_search(), None);
    // The same position reached again is a new search, and its move comes.
    runtime
        .command(Command::PlayText("11-15".into()))
        .expect("a legal move");
    let (_, found) = poll_until(&mut runtime, Duration::from_secs(30), is_computer_move);
    assert!(found);
    assert_eq!(runtime.session().game().moves().len(), 2);
}

#[test]
fn a_failed_autosave_arrives_as_an_event_and_so_does_its_recovery() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("game.pdn");
    let file = GameFile::claim(&path).expect("the lock");
    let mut runtime = Runtime::new(Session::new(Game::new()), Saving::Resumed(file), Pace::NONE);
    // A folder (not empty) where the file should be: no write can replace it.
    std::fs::create_dir(&path).expect("a folder");
    std::fs::write(path.join("in the way"), "x").expect("a file in it");
    runtime
        .command(Command::PlayText("11-15".into()))
        .expect("a legal move");
    let events = runtime.poll(Instant::now());
    assert!(
        matches!(events.as_slice(), [Event::AutosaveFailed(why)]
            if matches!(&**why, StoreError::Write(file, _) | StoreError::NotRegular(file, _)
                if *file == path)),
        "{events:?}"
    );
    assert!(runtime.autosave_failed());
    // Told once, not at every change.
    runtime
        .command(Command::PlayText("22-18".into()))
        .expect("a legal move");
    assert!(runtime.poll(Instant::now()).is_empty());
    std::fs::remove_dir_all(&path).expect("cleared");
    runtime
        .command(Command::PlayText("15x22".into()))
        .expect("a legal move");
    let events = runtime.poll(Instant::now());
    assert!(
        matches!(events.as_slice(), [Event::SavedAgain(saved)] if *saved == path),
        "{events:?}"
    );
    assert!(!runtime.autosave_failed());
    let saved = std::fs::read_to_string(&path).expect("the game is saved");
    assert!(saved.contains("1. 11-15 22-18 2. 15x22"), "{saved}");
    assert!(runtime.finish().is_none(), "nothing lost");
}

#[test]
fn a_finished_match_game_is_filed_exactly_once() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("match.pdn");
    let session = Session::new(Game::new()).with_match(1, MatchBallots::None, Some(path.clone()));
    let mut runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    runtime
        .command(Command::PlayText("11-15".into()))
        .expect("a legal move");
    assert!(
        runtime.poll(Instant::now()).is_empty(),
        "nothing to file yet"
    );
    runtime
        .command(Command::Resign(Color::White))
        .expect("White resigns");
    let events = runtime.poll(Instant::now());
    assert!(
        matches!(events.as_slice(), [Event::MatchFiled(Ok(filed)), Event::GameOver] if *filed == path),
        "{events:?}"
    );
    assert!(matches!(
        runtime.session().game().result(),
        Some(Outcome::Win {
            winner: Color::Black,
            ..
        })
    ));
    for _ in 0..3 {
        assert!(runtime.poll(Instant::now()).is_empty(), "filed once");
    }
    let text = std::fs::read_to_string(&path).expect("the match's file");
    assert_eq!(text.matches("[Event ").count(), 1, "{text}");
    assert!(text.contains("1-0"), "{text}");
    // The next game starts; its end is filed in turn, after the first.
    runtime.command(Command::NextGame).expect("game 2");
    runtime
        .command(Command::Resign(Color::Black))
        .expect("Black resigns");
    let events = runtime.poll(Instant::now());
    assert!(
        matches!(
            events.as_slice(),
            [Event::MatchFiled(Ok(_)), Event::GameOver]
        ),
        "{events:?}"
    );
    let text = std::fs::read_to_string(&path).expect("the match's file");
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
}

#[test]
fn two_computers_play_a_match_on_by_themselves() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("match.pdn");
    let seats = Seats {
        black: Player::Computer(Level::MIN),
        white: Player::Computer(Level::MIN),
    };
    let session = Session::new(Game::new())
        .with_seats(seats)
        .with_movetime(Duration::from_millis(2))
        .with_ply_cap(40)
        .with_match(1, MatchBallots::None, Some(path.clone()));
    let mut runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    let (events, found) = poll_until(&mut runtime, Duration::from_secs(60), |e| {
        matches!(e, Event::NextGame(_))
    });
    assert!(found, "game 2 began by itself: {events:?}");
    let filed = events
        .iter()
        .filter(|e| matches!(e, Event::MatchFiled(Ok(_))))
        .count();
    assert_eq!(filed, 1);
    assert!(matches!(events.last(), Some(Event::NextGame(Ok(_)))));
    let (_, found) = poll_until(&mut runtime, Duration::from_secs(60), |e| {
        matches!(e, Event::MatchFiled(_))
    });
    assert!(found, "game 2 was played out and filed");
    assert!(runtime.session().match_over());
    let text = std::fs::read_to_string(&path).expect("the match's file");
    assert_eq!(text.matches("[Event ").count(), 2, "{text}");
}

#[test]
fn a_hint_is_searched_in_the_background_and_told_when_found() {
    let mut runtime = Runtime::new(Session::new(Game::new()), Saving::Off, Pace::NONE);
    let answer = runtime
        .command(Command::Hint)
        .expect("a hint is looked for");
    assert_eq!(answer, News::LookingForHint(Color::Black));
    assert_eq!(answer.to_string(), "Looking for a hint for Black...");
    assert!(runtime.awaits_search());
    let (events, found) = poll_until(&mut runtime, Duration::from_secs(30), |e| {
        matches!(e, Event::Hint(_))
    });
    assert!(found, "{events:?}");
    let hint = runtime.current_hint().expect("kept for the position");
    assert!(runtime.session().position().is_legal(&hint));
    assert!(runtime.session().game().moves().is_empty(), "not played");
    // Asked again, it is told at once.
    let again = runtime.command(Command::Hint).expect("the hint");
    assert!(
        matches!(
            again,
            News::Hint {
                color: Color::Black,
                ..
            }
        ),
        "{again:?}"
    );
    assert!(
        again
            .to_string()
            .starts_with("Hint for Black (not played): "),
        "{again}"
    );
    assert!(!runtime.awaits_search());
}

#[test]
fn a_flag_fall_arrives_as_an_event_with_no_input() {
    let start = Instant::now();
    let session = Session::new(Game::new()).with_clock("0:01+0".parse().expect("a spec"), start);
    let mut runtime = Runtime::new(session, Saving::Off, Pace::NONE);
    // Looked at every tenth of a second while it runs: a front end that waits this long
    // for input tells the flag's fall within moments, with nothing typed.
    assert!(
        runtime
            .wait(start)
            .is_some_and(|wait| wait <= Duration::from_millis(100)),
        "a running clock is watched: {:?}",
        runtime.wait(start)
    );
    let events = runtime.poll(start + Duration::from_millis(1500));
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::FlagFell(news) if news.to_string().starts_with("Black's time is up"))),
        "{events:?}"
    );
    assert!(events.iter().any(|e| matches!(e, Event::GameOver)));
    assert!(matches!(
        runtime.session().game().result(),
        Some(Outcome::Win {
            winner: Color::White,
            ..
        })
    ));
    assert!(
        runtime.poll(start + Duration::from_secs(3)).is_empty(),
        "the end told once"
    );
    assert_eq!(
        runtime.wait(start + Duration::from_secs(2)),
        None,
        "nothing more is due"
    );
}

/// What a game left at this terminal leaves behind, said by each front end in its own
/// words: a game (or a match) kept names how that front end takes it up (the home
/// screen's `r`, the command line's `--resume`); one finished or never kept, nothing.
#[test]
fn the_farewell_says_what_became_of_the_game_and_each_front_end_words_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("game.pdn");
    let file = GameFile::claim(&path).expect("the lock");
    let mut runtime = Runtime::new(Session::new(Game::new()), Saving::Resumed(file), Pace::NONE);
    runtime
        .command(Command::PlayText("11-15".into()))
        .expect("a legal move");
    runtime.poll(Instant::now());
    assert_eq!(runtime.farewell(), Farewell::Saved { is_match: false });
    assert_eq!(
        runtime.farewell().words(Front::Terminal).as_deref(),
        Some("The game is saved: checkers --resume continues it.")
    );
    assert_eq!(
        runtime.farewell().words(Front::Home).as_deref(),
        Some("The game is saved: r continues it.")
    );
    runtime
        .command(Command::Resign(Color::White))
        .expect("White resigns");
    runtime.poll(Instant::now());
    assert_eq!(runtime.farewell(), Farewell::Finished);
    assert_eq!(runtime.farewell().words(Front::Home), None);
    let unkept = Runtime::new(Session::new(Game::new()), Saving::Off, Pace::NONE);
    assert_eq!(unkept.farewell(), Farewell::NotKept);
    assert_eq!(unkept.farewell().words(Front::Terminal), None);
    // A match is said to be kept as a match, its game over with the next to come.
    let path = dir.path().join("match-game.pdn");
    let file = GameFile::claim(&path).expect("the lock");
    let session = Session::new(Game::new()).with_match(2, MatchBallots::None, None);
    let mut runtime = Runtime::new(session, Saving::Resumed(file), Pace::NONE);
    runtime
        .command(Command::PlayText("11-15".into()))
        .expect("a legal move");
    runtime
        .command(Command::Resign(Color::White))
        .expect("White resigns");
    runtime.poll(Instant::now());
    assert!(runtime.session().match_waits());
    assert_eq!(
        runtime.farewell().words(Front::Home).as_deref(),
        Some("The match is saved: r continues it.")
    );
}
