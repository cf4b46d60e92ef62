//! The App's own tests: keys per mode, the cursor, lists as sentences.

use super::board::join_or;
use super::question::after_the_end;
use super::*;
use ratatui::crossterm::event::KeyEventState;
use ratatui::crossterm::event::KeyModifiers;

fn key(code: KeyCode) -> Event {
    Event::Key(KeyEvent {
        code,
        modifiers: KeyModifiers::NONE,
        kind: KeyEventKind::Press,
        state: KeyEventState::NONE,
    })
}

#[test]
fn the_same_key_means_different_things_in_different_modes() {
    let mut app = App::new(Settings::default(), 80, 24);
    assert_eq!(
        app.action_for(&key(KeyCode::Char('h'))),
        Some(Action::Cursor(Direction::Left))
    );
    assert_eq!(
        app.action_for(&key(KeyCode::Char('1'))),
        Some(Action::OpenPrompt(Some('1')))
    );
    app.mode = Mode::Prompt(String::new());
    assert_eq!(
        app.action_for(&key(KeyCode::Char('h'))),
        Some(Action::Type('h'))
    );
    app.mode = Mode::Asking(Question::WhoResigns);
    assert_eq!(
        app.action_for(&key(KeyCode::Char('w'))),
        Some(Action::Answer(Answer::Side(Color::White)))
    );
    assert_eq!(app.action_for(&key(KeyCode::Char('y'))), None);
    app.mode = Mode::Asking(Question::Quit);
    assert_eq!(
        app.action_for(&key(KeyCode::Char('y'))),
        Some(Action::Answer(Answer::Yes))
    );
    app.mode = Mode::Help(0);
    assert_eq!(
        app.action_for(&key(KeyCode::Char('q'))),
        Some(Action::ToggleHelp)
    );
}

#[test]
fn lists_read_as_sentences() {
    let list = |items: &[&str]| join_or(items.iter().map(|s| s.to_string()));
    assert_eq!(list(&[]), "");
    assert_eq!(list(&["15"]), "15");
    assert_eq!(list(&["15", "16"]), "15 or 16");
    assert_eq!(list(&["14", "15", "16"]), "14, 15 or 16");
    assert_eq!(capitalize("no piece"), "No piece");
}

#[test]
fn a_line_that_begins_with_a_players_name_keeps_its_case() {
    let names = crate::pdn::Players {
        black: Some("alice".to_string()),
        white: Some("bob".to_string()),
    };
    assert_eq!(
        opening_line("alice left: game 1 is adjourned", &names),
        "alice left: game 1 is adjourned"
    );
    assert_eq!(opening_line("bob resigned", &names), "bob resigned");
    // A word that only begins like a name, and other words, open with a capital.
    assert_eq!(opening_line("bobby is away", &names), "Bobby is away");
    assert_eq!(
        opening_line("the game is drawn", &names),
        "The game is drawn"
    );
}

#[test]
fn the_cursor_rests_on_playable_squares_and_stops_at_the_edges() {
    let mut app = App::new(Settings::default(), 80, 24);
    for _ in 0..10 {
        app.update(Action::Cursor(Direction::Up));
        app.update(Action::Cursor(Direction::Left));
        assert!(
            app.board.cursor_square().is_some(),
            "{:?}",
            app.board.cursor
        );
    }
    // The top left playable square is 32.
    assert_eq!(app.board.cursor_square().map(Square::number), Some(32));
    for _ in 0..10 {
        app.update(Action::Cursor(Direction::Down));
        app.update(Action::Cursor(Direction::Right));
        assert!(
            app.board.cursor_square().is_some(),
            "{:?}",
            app.board.cursor
        );
    }
    assert_eq!(app.board.cursor_square().map(Square::number), Some(1));
}

#[test]
fn eleven_fifteen_with_the_cursor_takes_at_most_four_keys() {
    let mut app = App::new(Settings::default(), 80, 24);
    let mut keys = 0;
    // The cursor starts on 11; Enter picks it up and puts the cursor on a landing
    // square; at most one arrow then reaches 15.
    app.update(Action::Select);
    keys += 1;
    if app.board.cursor_square().map(Square::number) != Some(15) {
        app.update(Action::Cursor(Direction::Left));
        keys += 1;
    }
    app.update(Action::Select);
    keys += 1;
    assert_eq!(app.game().movetext(), "1. 11-15");
    assert!(keys <= 4, "{keys} keys");
}

#[test]
fn after_a_flag_fall_undo_is_not_offered() {
    use crate::rules::{Outcome, WinReason};
    let time = Outcome::Win {
        winner: Color::White,
        reason: WinReason::Time,
    };
    assert_eq!(after_the_end(time), "n starts a new game.");
    let resigned = Outcome::Win {
        winner: Color::White,
        reason: WinReason::Resignation,
    };
    assert!(after_the_end(resigned).starts_with("u undoes"));
}

#[test]
fn a_dropped_line_speaks_of_stopped_clocks_only_in_a_game_with_clocks() {
    use crate::runtime::TableNews;
    use std::time::Instant;
    let said = |app: &mut App, news: TableNews| {
        app.on_table(news);
        app.status
            .message
            .as_ref()
            .map(|(_, m)| m.clone())
            .unwrap_or_default()
    };
    let left = || TableNews::Left {
        color: Color::White,
        why: Some("the connection closed".to_string()),
    };
    let down = || TableNews::LineDown("the connection closed".to_string());
    let mut untimed = App::new(Settings::default(), 80, 24);
    let text = said(&mut untimed, left());
    assert!(
        text.ends_with("the game waits for them to join again") && !text.contains("clock"),
        "{text}"
    );
    let text = said(&mut untimed, down());
    assert!(
        text.ends_with("): trying again") && !text.contains("clock"),
        "{text}"
    );
    let control: crate::session::TimeControl = "5+0".parse().unwrap();
    let session = Session::new(Game::new()).with_clock(control, Instant::now());
    let mut timed = App::with_session(Settings::default(), session, 80, 24);
    let text = said(&mut timed, left());
    assert!(
        text.contains("the clocks are stopped until they join again"),
        "{text}"
    );
    let text = said(&mut timed, down());
    assert!(
        text.contains("the clocks are stopped; trying again"),
        "{text}"
    );
}

/// Alt-x types no x in any line typed in (the move prompt, the FEN, the games' filter);
/// AltGr (Ctrl and Alt together, on some terminals) and Shift type their character.
#[test]
fn alt_letters_type_nothing_in_the_lines_typed_in() {
    let with = |c, modifiers| {
        Event::Key(KeyEvent {
            code: KeyCode::Char(c),
            modifiers,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        })
    };
    let alt_gr = KeyModifiers::CONTROL | KeyModifiers::ALT;
    let mut app = App::new(Settings::default(), 80, 24);
    let modes = [
        Mode::Prompt(String::new()),
        Mode::Editor(Editor {
            fen: Some(String::new()),
            ..Editor::of(app.position())
        }),
        Mode::Games(GameList {
            filter: String::new(),
            selected: 0,
            opening: false,
        }),
    ];
    for mode in modes {
        app.mode = mode.clone();
        assert_eq!(
            app.action_for(&with('x', KeyModifiers::ALT)),
            None,
            "{mode:?}"
        );
        assert_eq!(
            app.action_for(&with('@', alt_gr)),
            Some(Action::Type('@')),
            "{mode:?}"
        );
        assert_eq!(
            app.action_for(&with('X', KeyModifiers::SHIFT)),
            Some(Action::Type('X')),
            "{mode:?}"
        );
    }
}
