//! The position editor: pieces placed with the cursor, the side to move, a FEN typed;
//! an impossible position refused with its reason; Enter plays from the position.

use crate::rules::{Color, Position};
use crate::tui::app::Mode;
use crate::tui::tests::*;
use ratatui::crossterm::event::KeyCode;

/// Opens the editor with an empty board, the cursor on square `n`.
fn editor_on(app: &mut crate::tui::App, n: u8) {
    press(app, KeyCode::Char('E'));
    assert!(matches!(app.mode, Mode::Editor(_)));
    press(app, KeyCode::Char('c'));
    cursor_to(app, sq(n));
}

#[test]
fn pieces_placed_with_the_cursor_and_enter_plays_from_the_position() {
    let mut app = app();
    type_move(&mut app, "11-15");
    editor_on(&mut app, 18);
    press(&mut app, KeyCode::Char('W'));
    cursor_to(&mut app, sq(11));
    press(&mut app, KeyCode::Char('b'));
    cursor_to(&mut app, sq(14));
    press(&mut app, KeyCode::Char('B'));
    press(&mut app, KeyCode::Char('x'));
    // White was to move on the board; t turns it to Black, and back.
    press(&mut app, KeyCode::Char('t'));
    assert!(
        message(&app).contains("Setting up: B:WK18:B11"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Char('t'));
    // Shown as it is set up, the game itself untouched so far.
    assert!(
        message(&app).contains("Setting up: W:WK18:B11"),
        "{}",
        message(&app)
    );
    assert_eq!(app.game().moves().len(), 1);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Board);
    let expected: Position = "W:WK18:B11".parse().unwrap();
    assert_eq!(app.game().start(), &expected);
    assert!(app.game().moves().is_empty());
    assert_eq!(app.position().turn(), Color::White);
    assert!(
        message(&app).starts_with("A new game from the position set up: White to move"),
        "{}",
        message(&app)
    );
    // It plays: White's king moves.
    type_move(&mut app, "18-22");
    assert_eq!(app.game().moves().len(), 1);
}

#[test]
fn an_impossible_position_is_refused_with_the_reason() {
    let mut app = app();
    editor_on(&mut app, 29);
    press(&mut app, KeyCode::Char('b'));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode, Mode::Editor(_)), "still setting up");
    let said = message(&app);
    assert!(
        said.starts_with("This position cannot be played: a Black man cannot stand on 29"),
        "{said}"
    );
    // Thirteen men a side: the start and one more.
    press(&mut app, KeyCode::Char('s'));
    cursor_to(&mut app, sq(13));
    press(&mut app, KeyCode::Char('b'));
    press(&mut app, KeyCode::Enter);
    assert!(
        message(&app).contains("Black has 13 pieces: a side has at most 12"),
        "{}",
        message(&app)
    );
    // Esc leaves the game as it was.
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Board);
    assert_eq!(app.game().start(), &Position::start());
}

#[test]
fn a_fen_typed_in_the_editor_sets_the_board_and_a_bad_one_says_why() {
    let mut app = app();
    press(&mut app, KeyCode::Char('E'));
    press(&mut app, KeyCode::Char('f'));
    type_text(&mut app, "B:W33:B1");
    press(&mut app, KeyCode::Enter);
    assert!(
        message(&app).starts_with("Not a position: FEN, White's pieces, entry '33'"),
        "{}",
        message(&app)
    );
    // Still typing: Backspace edits, then a good one is taken.
    for _ in 0..8 {
        press(&mut app, KeyCode::Backspace);
    }
    type_text(&mut app, "W:WK4:B22,K27");
    press(&mut app, KeyCode::Enter);
    assert!(
        message(&app).contains("Setting up: W:WK4:B22,K27"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.game().start(),
        &"W:WK4:B22,K27".parse::<Position>().unwrap()
    );
}

/// Back from typing a FEN with Esc, the editor gives its instructions again (it said
/// "Setting up: B:W:B", the FEN of the board emptied, and the instructions were gone),
/// at any size the terminal has been.
#[test]
fn esc_from_typing_a_fen_brings_the_editors_instructions_back() {
    let mut app = app();
    press(&mut app, KeyCode::Char('E'));
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Char('f'));
    app.update(crate::tui::action::Action::Resize {
        width: 30,
        height: 12,
    });
    app.update(crate::tui::action::Action::Resize {
        width: WIDTH,
        height: HEIGHT,
    });
    press(&mut app, KeyCode::Esc);
    assert!(matches!(app.mode, Mode::Editor(_)), "still setting up");
    assert!(
        message(&app).starts_with("Set up a position: b w a man, B W a king"),
        "{}",
        message(&app)
    );
    let text = screen_text(&app);
    assert!(
        text.contains("Esc cancel"),
        "the key line, drawn last: {text}"
    );
    assert!(text.contains("Set up a position: b w a man"), "{text}");
    assert!(!text.contains("Setting up:"), "{text}");
}

#[test]
fn the_fen_of_the_position_on_the_board_is_shown_on_a_key() {
    let mut app = app();
    type_move(&mut app, "11-15");
    let fen = "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15";
    assert!(!screen_text(&app).contains("│FEN "));
    press(&mut app, KeyCode::Char('F'));
    assert!(
        message(&app).starts_with(&format!("FEN: {fen}")),
        "{}",
        message(&app)
    );
    // In the panel, following the game, until F hides it.
    assert!(
        screen_text(&app).contains("│FEN W:W21,22,23,24,"),
        "{}",
        screen_text(&app)
    );
    type_move(&mut app, "22-18");
    assert!(
        screen_text(&app).contains("│FEN B:W18,21,"),
        "{}",
        screen_text(&app)
    );
    press(&mut app, KeyCode::Char('F'));
    assert!(
        !screen_text(&app).contains("│FEN "),
        "{}",
        screen_text(&app)
    );
}

#[test]
fn snapshots_of_the_editor_at_80x24_and_120x40() {
    for (width, height) in [(80, 24), (120, 40)] {
        let mut app = crate::tui::App::new(crate::tui::Settings::default(), width, height);
        editor_on(&mut app, 18);
        press(&mut app, KeyCode::Char('W'));
        cursor_to(&mut app, sq(11));
        press(&mut app, KeyCode::Char('b'));
        insta::assert_snapshot!(format!("editor_{width}x{height}"), screen_text(&app));
    }
}

#[test]
fn a_position_where_a_side_has_no_pieces_is_refused_and_the_editor_stays_open() {
    let mut app = app();
    type_move(&mut app, "11-15");
    // `c` empties the board: neither side has a piece.
    press(&mut app, KeyCode::Char('E'));
    press(&mut app, KeyCode::Char('c'));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode, Mode::Editor(_)), "still setting up");
    assert_eq!(
        message(&app),
        "This position cannot be played: the board is empty: a game needs at least one piece on each side"
    );
    // A Black king alone: White has none.
    cursor_to(&mut app, sq(31));
    press(&mut app, KeyCode::Char('B'));
    press(&mut app, KeyCode::Enter);
    assert!(matches!(app.mode, Mode::Editor(_)), "still setting up");
    assert_eq!(
        message(&app),
        "This position cannot be played: White has no pieces: a game needs at least one piece on each side"
    );
    // The game on the board is as it was.
    assert_eq!(app.game().moves().len(), 1);
    assert!(!app.game().is_over());
    // A White man blocked in front of Black's: a finished game, but a game, scored at once.
    cursor_to(&mut app, sq(31));
    press(&mut app, KeyCode::Char('x'));
    cursor_to(&mut app, sq(5));
    press(&mut app, KeyCode::Char('b'));
    cursor_to(&mut app, sq(9));
    press(&mut app, KeyCode::Char('w'));
    cursor_to(&mut app, sq(14));
    press(&mut app, KeyCode::Char('w'));
    if app.position().turn() == Color::White {
        press(&mut app, KeyCode::Char('t'));
    }
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Board);
    assert!(app.game().is_over());
    assert!(
        message(&app).ends_with("White wins: Black has no legal move."),
        "{}",
        message(&app)
    );
}

#[test]
fn the_editors_letters_act_only_typed_plain() {
    use ratatui::crossterm::event::KeyModifiers;
    let mut app = app();
    editor_on(&mut app, 18);
    let before = message(&app);
    // Ctrl-B, Alt-b, Alt-W, Alt-t, Alt-s place nothing, turn nothing, set up nothing.
    for (c, held) in [
        ('b', KeyModifiers::CONTROL),
        ('b', KeyModifiers::ALT),
        ('W', KeyModifiers::ALT | KeyModifiers::SHIFT),
        ('t', KeyModifiers::ALT),
        ('s', KeyModifiers::ALT),
        ('x', KeyModifiers::CONTROL),
    ] {
        assert_eq!(app.handle_event(&key_event(KeyCode::Char(c), held)), None);
        assert_eq!(message(&app), before, "{held:?}-{c}");
    }
    let Mode::Editor(editor) = &app.mode else {
        panic!("the editor closed");
    };
    assert!(editor.squares.iter().all(Option::is_none));
    // The plain letter places its man.
    press(&mut app, KeyCode::Char('b'));
    let Mode::Editor(editor) = &app.mode else {
        panic!("the editor closed");
    };
    assert!(editor.squares[17].is_some());
}
