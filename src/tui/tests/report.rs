//! The game report screen: fixed scores drawn at 80x24 and 120x40 (the move shown
//! stepped with `n` to a marked one), and its keys: `R` opens it in review, the arrows
//! step the board, Esc goes back and stops the scoring.

use crate::engine::Score;
use crate::report::Judgement;
use crate::session::Session;
use crate::tui::app::{Mode, ReportView};
use crate::tui::tests::*;
use crate::tui::{App, Settings};
use ratatui::crossterm::event::KeyCode;

/// The review game of [`REVIEW_PDN`] on a `width` x `height` screen.
fn review_sized(width: u16, height: u16) -> App {
    let record = crate::pdn::read_games(REVIEW_PDN).remove(0).unwrap();
    App::with_session(
        Settings::default(),
        Session::review_record(&record),
        width,
        height,
    )
}

/// The report of the review game from fixed scores (for the side to move), each
/// position's best line a legal move other than the one played (where there is one)
/// and the first reply: Black's 8-11 (ply 2) gives away 0.35 men, White's 23-19 (ply
/// 5) 0.7 and Black's 10-14 (ply 6) 1.5.
fn fixed_report(app: &App) -> ReportView {
    let game = &app.review().unwrap().recorded;
    let scores = [0, 5, -5, 40, -40, 40, 30, 120, -120, 120, -120, 120, -110];
    let judged = game
        .positions()
        .iter()
        .zip(scores)
        .enumerate()
        .map(|(ply, (pos, score))| {
            let played = game.moves().get(ply).copied();
            let moves = pos.legal_moves();
            let best = moves
                .iter()
                .copied()
                .find(|m| Some(*m) != played)
                .or(moves.first().copied());
            let mut line = Vec::new();
            if let Some(best) = best {
                line.push(best);
                let after = pos.play_unchecked(&best);
                line.extend(after.legal_moves().first().copied());
            }
            Judgement {
                score: Score(score),
                line,
                depth: 12,
                verdict: None,
                only_move: None,
            }
        })
        .collect();
    ReportView::from_judgements(*game.start(), game.moves().to_vec(), judged)
}

#[test]
fn report_screen_snapshots() {
    for (width, height) in [(80, 24), (120, 40)] {
        let mut app = review_sized(width, height);
        let view = fixed_report(&app);
        app.show_report(view);
        press(&mut app, KeyCode::Char('n'));
        let view = app.report.as_ref().unwrap();
        let marked: Vec<usize> = view.report.marked().map(|(ply, _)| ply).collect();
        assert_eq!(view.shown, marked[0] + 1, "n shows the first marked move");
        insta::assert_snapshot!(format!("report_{width}x{height}"), screen_text(&app));
    }
}

#[test]
fn r_opens_the_report_in_review_and_the_arrows_step_the_board() {
    let mut app = review_app(REVIEW_PDN);
    press(&mut app, KeyCode::Char('R'));
    assert_eq!(app.mode, Mode::Report);
    let view = app.report.as_ref().unwrap();
    assert!(view.scoring(), "scored in the background");
    let positions = app.review().unwrap().recorded.positions().to_vec();
    assert_eq!(*app.shown_position(), positions[0]);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    assert_eq!(*app.shown_position(), positions[2]);
    press(&mut app, KeyCode::End);
    assert_eq!(*app.shown_position(), positions[12]);
    press(&mut app, KeyCode::Left);
    assert_eq!(*app.shown_position(), positions[11]);
    // Leaving stops the unfinished scoring.
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Board);
    assert!(app.report.is_none());
}

#[test]
fn the_report_waits_for_the_game_to_end() {
    let mut app = app();
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('R'));
    assert_eq!(app.mode, Mode::Board);
    assert!(app.report.is_none());
    assert!(message(&app).contains("finished game"), "{}", message(&app));
}

#[test]
fn s_on_the_report_opens_the_save_dialog_for_the_annotated_game() {
    let mut app = review_sized(80, 24);
    let view = fixed_report(&app);
    app.show_report(view);
    press(&mut app, KeyCode::Char('s'));
    let Mode::Save(dialog) = &app.mode else {
        panic!("the dialog is open: {:?}", app.mode);
    };
    assert!(dialog.annotated);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Report, "Esc goes back to the report");
}

#[test]
fn r_opens_the_report_once_the_game_is_over() {
    let mut app = app_from("W:W18:B10");
    type_move(&mut app, "18-14");
    type_move(&mut app, "10x17");
    assert!(app.game().is_over());
    press(&mut app, KeyCode::Char('R'));
    assert_eq!(app.mode, Mode::Report);
    assert_eq!(app.report.as_ref().unwrap().moves().len(), 2);
}

/// The squares the rendered board marks as the last move's (with the last-move glyph in
/// a square's corner), in order.
fn last_move_marks(app: &App) -> Vec<u8> {
    let layout = crate::tui::geometry::screen_layout(app.screen, app.board.flipped).unwrap();
    let terminal = render(app);
    let buffer = terminal.backend().buffer();
    (1..=32)
        .filter(|&n| {
            let rect = layout.board.square_rect(sq(n));
            buffer[(rect.right() - 1, rect.y)].symbol() == app.theme.glyphs.last_move
        })
        .collect()
}

#[test]
fn the_reports_board_marks_the_move_shown() {
    let mut app = review_sized(80, 24);
    let view = fixed_report(&app);
    app.show_report(view);
    press(&mut app, KeyCode::Home);
    assert_eq!(last_move_marks(&app), Vec::<u8>::new(), "none on the start");
    press(&mut app, KeyCode::Right);
    assert_eq!(last_move_marks(&app), [11, 15], "1. 11-15");
    press(&mut app, KeyCode::Right);
    assert_eq!(last_move_marks(&app), [18, 23], "1... 23-18");
    press(&mut app, KeyCode::End);
    assert_eq!(last_move_marks(&app), [20, 24], "6... 24-20, the last");
}
