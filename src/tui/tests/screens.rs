//! Whole screens at 80x24, snapshotted. Read a changed snapshot before accepting it.

use crate::tui::app::Mode;
use crate::tui::tests::*;
use crate::tui::{App, Settings};
use insta::assert_snapshot;
use ratatui::crossterm::event::KeyCode;

fn snapshot(app: &crate::tui::App) -> String {
    screen_text(app)
}

#[test]
fn start() {
    assert_snapshot!(snapshot(&app()));
}

#[test]
fn compulsory_capture_marked_with_the_capturing_piece_picked_up() {
    let mut app = app();
    type_move(&mut app, "11-15");
    type_move(&mut app, "22-18");
    cursor_move(&mut app, &[15]);
    assert!(app.board.pick.is_some());
    assert_snapshot!(snapshot(&app));
}

#[test]
fn multi_jump_half_built() {
    let mut app = app_from("B:W6,7,14,15,22:B2,K28");
    cursor_move(&mut app, &[2, 11]);
    assert_eq!(app.game().moves().len(), 0);
    assert_snapshot!(snapshot(&app));
}

#[test]
fn game_over() {
    let mut app = app_from("W:W18:B10");
    type_move(&mut app, "18-14");
    type_move(&mut app, "10x17");
    assert!(app.game().is_over());
    assert_snapshot!(snapshot(&app));
}

#[test]
fn help() {
    let mut app = app();
    press(&mut app, KeyCode::Char('?'));
    assert_snapshot!(snapshot(&app));
}

#[test]
fn help_70x23_scrolled() {
    // The smallest standard layout: the help is two pages, PgDn turns to the second.
    let mut app = crate::tui::App::new(crate::tui::Settings::default(), 70, 23);
    press(&mut app, KeyCode::Char('?'));
    assert_snapshot!("help_70x23_page_1", snapshot(&app));
    press(&mut app, KeyCode::PageDown);
    assert_snapshot!("help_70x23_page_2", snapshot(&app));
}

#[test]
fn flipped() {
    let mut app = app();
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('f'));
    assert_snapshot!(snapshot(&app));
}

#[test]
fn colorless_ascii_mid_game() {
    let mut app = plain_app();
    for m in [
        "11-15", "22-18", "15x22", "25x18", "8-11", "29-25", "4-8", "25-22",
    ] {
        type_move(&mut app, m);
    }
    cursor_move(&mut app, &[11]);
    assert_snapshot!(snapshot(&app));
}

#[test]
fn typing_a_refused_move() {
    let mut app = app();
    type_move(&mut app, "11-15");
    type_move(&mut app, "22-18");
    type_move(&mut app, "9-13");
    assert_snapshot!(snapshot(&app));
}

#[test]
fn review_mid_game() {
    let mut app = review_app(REVIEW_PDN);
    for _ in 0..7 {
        press(&mut app, KeyCode::Right);
    }
    assert_eq!(app.session().review_progress(), (7, 12));
    assert_snapshot!(snapshot(&app));
}

#[test]
fn save_dialog_open() {
    let session =
        crate::session::Session::new(crate::game::Game::new()).with_names(crate::pdn::Players {
            black: Some("Ann".to_string()),
            white: None,
        });
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    type_move(&mut app, "11-15");
    type_move(&mut app, "23-19");
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Tab);
    // The default path holds the time and the data directory: fix it for the snapshot.
    let Mode::Save(dialog) = &mut app.mode else {
        panic!("no save dialog");
    };
    dialog.path.text = "/home/ann/.local/share/checkers/game-2026-11-30-090000.pdn".to_string();
    assert_snapshot!(snapshot(&app));
}

#[test]
fn computer_thinking() {
    let mut app = app();
    app.command(crate::runtime::Command::Seat(
        crate::rules::Color::White,
        crate::session::Player::Computer(crate::engine::Level::default()),
    ));
    type_move(&mut app, "11-15");
    // As the search begins (its depths would differ from machine to machine).
    assert_snapshot!(snapshot(&app));
}

#[test]
fn hint_marked_on_the_board() {
    // Black's only move is the capture 15x22: the hint is the same on any machine.
    let mut app = app();
    type_move(&mut app, "11-15");
    type_move(&mut app, "22-18");
    press(&mut app, KeyCode::Char('t'));
    let start = std::time::Instant::now();
    while app.current_hint().is_none() {
        assert!(start.elapsed().as_secs() < 30, "no hint came");
        app.poll(std::time::Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    assert_eq!(app.game().moves().len(), 2);
    assert_snapshot!(snapshot(&app));
}

/// The start and a mid-game with kings and a capture just made, at three sizes and in
/// the three themes (colour, no colour, ASCII), as text: the sizes and the glyphs show
/// here, the colours in `tui_theme`.
#[test]
fn sizes_and_themes() {
    use crate::session::Session;
    use crate::tui::{App, Settings, Theme};
    let themes = [
        ("color", Theme::new(true, false)),
        ("nocolor", Theme::new(false, false)),
        ("ascii", Theme::new(false, true)),
    ];
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        for (name, theme) in themes {
            let settings = Settings {
                theme,
                ..Settings::default()
            };
            let start = App::new(settings, width, height);
            if name == "ascii" {
                let wide: Vec<char> = snapshot(&start).chars().filter(|c| !c.is_ascii()).collect();
                assert!(wide.is_empty(), "{width}x{height}: {wide:?}");
            }
            assert_snapshot!(format!("start_{width}x{height}_{name}"), snapshot(&start));
            // Kings on 2 (Black) and 30 (White); White has just captured 19x10x1 and crowned.
            let game = crate::game::Game::from_position(
                "W:WK30,21,22,23,26,19:BK2,6,9,11,14,15".parse().unwrap(),
            );
            let mut mid = App::with_session(settings, Session::new(game), width, height);
            type_move(&mut mid, "19x10x1");
            assert_eq!(mid.game().moves().len(), 1, "{}", message(&mid));
            if name == "ascii" {
                let wide: Vec<char> = snapshot(&mid).chars().filter(|c| !c.is_ascii()).collect();
                assert!(wide.is_empty(), "{width}x{height}: {wide:?}");
            }
            assert_snapshot!(format!("mid_game_{width}x{height}_{name}"), snapshot(&mid));
        }
    }
}

/// The game being played, browsed back two moves: the earlier position with the move
/// that led to it marked, and the panel saying what is shown.
#[test]
fn browsing_the_game_being_played() {
    use crate::tui::{App, Settings};
    for (width, height) in [(80, 24), (120, 40)] {
        let mut app = App::new(Settings::default(), width, height);
        for m in ["11-15", "23-19", "8-11", "22-17", "4-8"] {
            type_move(&mut app, m);
        }
        type_text(&mut app, "<<");
        assert_eq!(app.panel.browse, Some(3));
        insta::assert_snapshot!(format!("browse_{width}x{height}"), snapshot(&app));
    }
}

/// The compact board (squares three columns wide) after 11-15 22-18: the last move's
/// squares marked `*` and the man that must jump `!`, as on the larger boards, at the
/// smallest screen the game takes and at 40x20, in colour and in ASCII.
#[test]
fn compact_board_marks_the_last_move_and_the_capture_due() {
    use crate::tui::Theme;
    for (width, height) in [(26, 11), (40, 20)] {
        for (name, theme) in [
            ("color", Theme::new(true, false)),
            ("ascii", Theme::new(false, true)),
        ] {
            let settings = Settings {
                theme,
                ..Settings::default()
            };
            let mut app = App::new(settings, width, height);
            type_move(&mut app, "11-15");
            type_move(&mut app, "22-18");
            assert_snapshot!(
                format!("compact_{width}x{height}_{name}_capture_due"),
                snapshot(&app)
            );
        }
    }
}
