//! The two front ends are thin: the same requests made at the full-screen game (keys)
//! and in plain mode (lines) leave the same game, the same record and the same news,
//! because both go through one session.

use crate::engine::Level;
use crate::game::Game;
use crate::plain::Plain;
use crate::rules::Color;
use crate::runtime::Saving;
use crate::session::{Player, Seats, Session};
use crate::tui::tests::*;
use crate::tui::{App, Settings};
use ratatui::crossterm::event::KeyCode;

/// A session against the computer (White, level 1), seeded so both front ends see the
/// same replies.
fn against_the_computer(fen: Option<&str>) -> Session {
    let game = fen.map_or_else(Game::new, |f| Game::from_position(f.parse().unwrap()));
    Session::new(game)
        .with_seats(Seats {
            black: Player::Person,
            white: Player::Computer(Level::MIN),
        })
        .with_seed(7)
}

/// Lets the runtime play the computer's turn the App waits for, as the event loop does.
fn think(app: &mut App) {
    let start = std::time::Instant::now();
    while app.runtime().awaits_search() {
        assert!(start.elapsed().as_secs() < 60, "the computer never moved");
        app.poll(std::time::Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

/// One request, as a key press at the screen and as a line in plain mode.
struct Request {
    keys: &'static [KeyCode],
    line: &'static str,
}

const fn req(keys: &'static [KeyCode], line: &'static str) -> Request {
    Request { keys, line }
}

/// Makes each request at both front ends and checks after each that the games, their
/// records and the news agree.
fn same_at_both(fen: Option<&str>, requests: &[Request]) -> (App, Plain) {
    let mut app = App::with_session(Settings::default(), against_the_computer(fen), 80, 24);
    let mut plain = Plain::new(against_the_computer(fen), Saving::Off);
    for request in requests {
        for key in request.keys {
            press(&mut app, *key);
        }
        think(&mut app);
        let (answer, _) = plain.answer(request.line);
        plain.computer_moves(&mut std::io::sink()).unwrap();
        let (tui, line) = (app.game(), plain.session().game());
        assert_eq!(tui.moves(), line.moves(), "after {}", request.line);
        assert_eq!(
            tui.undone_moves(),
            line.undone_moves(),
            "after {}",
            request.line
        );
        assert_eq!(tui.result(), line.result(), "after {}", request.line);
        assert_eq!(
            app.session().record("2026.11.30"),
            plain.session().record("2026.11.30"),
            "after {}",
            request.line
        );
        // Plain mode adds the state of the game, and the screen the computer's reply on
        // the same line; the news itself is the same words.
        let news = message(&app);
        let news = news.split(". ").next().unwrap().split("; ").next().unwrap();
        // A refusal reads "Cannot undo: nothing to take back." in plain mode.
        let reason = match answer.strip_prefix("Cannot ") {
            Some(rest) => rest.split_once(": ").unwrap().1.to_string(),
            None => answer.clone(),
        };
        assert!(
            reason.to_lowercase().starts_with(&news.to_lowercase()),
            "after {}: the screen says {news:?}, plain mode {answer:?}",
            request.line
        );
    }
    (app, plain)
}

#[test]
fn undo_redo_against_the_computer_the_same_in_both() {
    let (app, _) = same_at_both(
        None,
        &[
            req(
                &[
                    KeyCode::Char('1'),
                    KeyCode::Char('1'),
                    KeyCode::Char('-'),
                    KeyCode::Char('1'),
                    KeyCode::Char('5'),
                    KeyCode::Enter,
                ],
                "11-15",
            ),
            req(&[KeyCode::Char('u')], "undo"),
            req(&[KeyCode::Char('U')], "redo"),
            req(&[KeyCode::Char('u')], "undo"),
            req(&[KeyCode::Char('u')], "undo"),
        ],
    );
    assert!(app.game().moves().is_empty());
    assert_eq!(app.game().undone_moves().len(), 2, "the move and its reply");
}

#[test]
fn draw_offers_and_resignation_the_same_in_both() {
    // At the start the computer declines; then Black resigns, and undo takes it back.
    same_at_both(
        None,
        &[
            req(&[KeyCode::Char('d'), KeyCode::Char('y')], "draw"),
            req(&[KeyCode::Char('r'), KeyCode::Char('y')], "resign"),
            req(&[KeyCode::Char('u')], "undo"),
        ],
    );
    // A king each: the computer accepts.
    let (app, plain) = same_at_both(
        Some("B:WK28:BK1"),
        &[req(&[KeyCode::Char('d'), KeyCode::Char('y')], "draw")],
    );
    assert!(app.game().is_over() && plain.session().game().is_over());
    assert_eq!(
        app.session().seats().computer(Color::White),
        Some(Level::MIN)
    );
}
