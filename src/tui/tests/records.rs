//! Game records in the terminal game, driven by keys: stepping through a loaded game,
//! playing on from the middle of it, and the save dialog (the file itself is written by
//! `tui::save`, which the event loop calls).

use crate::game::Game;
use crate::pdn::Players;
use crate::runtime::{IfExists, SaveRequest};
use crate::runtime::{Pace, Runtime, Saving};
use crate::session::Session;
use crate::store::{Appended, GameFile, load_record};
use crate::tui::app::computer::Polled;
use crate::tui::app::{Mode, SaveField, Tone};
use crate::tui::tests::*;
use crate::tui::{App, Flow, Settings};
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use std::time::Instant;

/// The review game's moves as the file gives them.
fn recorded() -> Game {
    let record = crate::pdn::read_games(REVIEW_PDN).remove(0).unwrap();
    let mut game = Game::from_position(record.start);
    for m in &record.moves {
        game.play(m).unwrap();
    }
    game
}

/// At 80x24 the review's place keeps its count with its "of": the panel said "Review:
/// move 14 (Black's 10-15) of", then "14" alone on the next line.
#[test]
fn the_reviews_place_keeps_of_and_the_count_on_one_line_at_80x24() {
    let pdn = "[Event \"x\"]\n1. 11-15 23-18 2. 9-14 18x11 3. 8x15 22-18 4. 15x22 25x18x9 \
               5. 5x14 27-23 6. 4-8 29-25 7. 8-11 24-19 8. 6-9 26-22 9. 11-15 32-27 10. 15x24 \
               28x19 11. 7-11 30-26 12. 3-7 22-18 13. 12-16 19x12 14. 10-15 1-0\n";
    let mut app = review_app(pdn);
    press(&mut app, KeyCode::End);
    assert_eq!(
        app.session().review_place(),
        "move 14 (Black's 10-15) of 14"
    );
    let text = screen_text(&app);
    let panel: Vec<&str> = text
        .lines()
        .filter_map(|line| {
            line.rsplit_once("││")
                .map(|(_, p)| p.trim_end_matches('│').trim())
        })
        .collect();
    let at = panel
        .iter()
        .position(|row| row.starts_with("Review: move 14"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(panel[at + 1].ends_with("of 14"), "{text}");
    assert!(!panel.contains(&"14"), "{text}");
}

#[test]
fn a_loaded_game_opens_at_its_first_position_and_steps_with_left_right_home_end() {
    let whole = recorded();
    let mut app = review_app(REVIEW_PDN);
    assert!(app.review().is_some());
    assert_eq!(app.session().review_progress(), (0, 12));
    assert_eq!(app.game().position(), whole.start());
    assert!(screen_text(&app).contains("Review: the start, before 6 moves"));
    assert!(screen_text(&app).contains("Event  Club final"));

    // Left at the start stays there.
    press(&mut app, KeyCode::Left);
    assert_eq!(app.session().review_progress(), (0, 12));
    for k in 1..=3 {
        press(&mut app, KeyCode::Right);
        assert_eq!(app.session().review_progress(), (k, 12));
        assert_eq!(app.game().position(), &whole.positions()[k]);
    }
    press(&mut app, KeyCode::Left);
    assert_eq!(app.session().review_progress(), (2, 12));
    // Counted in moves (a move is one of each side's), not plies.
    assert_eq!(message(&app), "After move 1 (White's 23-18) of 6");
    assert!(screen_text(&app).contains(">  1. 11-15    23-18"));

    press(&mut app, KeyCode::End);
    assert_eq!(app.session().review_progress(), (12, 12));
    assert_eq!(app.game().position(), whole.position());
    press(&mut app, KeyCode::Right);
    assert_eq!(app.session().review_progress(), (12, 12));
    press(&mut app, KeyCode::Home);
    assert_eq!(app.session().review_progress(), (0, 12));
    assert_eq!(app.game().position(), whole.start());
    assert!(app.review().is_some(), "stepping never ends the review");
}

#[test]
fn in_review_up_down_step_and_hjkl_move_the_cursor() {
    let mut app = review_app(REVIEW_PDN);
    let start = app.board.cursor;
    press(&mut app, KeyCode::Char('l'));
    assert_eq!(
        app.board.cursor,
        (start.0, start.1 + 2),
        "the next square of the row"
    );
    press(&mut app, KeyCode::Char('h'));
    assert_eq!(app.board.cursor, start);
    assert_eq!(app.session().review_progress(), (0, 12));
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Down);
    assert_eq!(app.session().review_progress(), (2, 12));
    press(&mut app, KeyCode::Up);
    assert_eq!(app.session().review_progress(), (1, 12));
    assert_eq!(app.board.cursor, start, "stepping leaves the cursor");
}

#[test]
fn playing_from_the_middle_leaves_review_and_drops_the_later_moves() {
    let whole = recorded();
    let mut app = review_app(REVIEW_PDN);
    for _ in 0..4 {
        press(&mut app, KeyCode::Right);
    }
    // The record goes on 10x14; play 9-13 instead.
    type_move(&mut app, "9-13");
    assert!(app.review().is_none());
    assert_eq!(app.game().moves().len(), 5);
    assert_eq!(app.game().moves()[..4], whole.moves()[..4]);
    assert!(
        app.game().undone_moves().is_empty(),
        "the later moves are gone"
    );
    assert!(!screen_text(&app).contains("Review:"));
    assert!(screen_text(&app).contains("3. 9-13"));

    // Undo and redo walk the new line only.
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.game().moves()[..], whole.moves()[..4]);
    assert_eq!(app.game().undone_moves().len(), 1);
    press(&mut app, KeyCode::Char('U'));
    assert_eq!(app.game().moves().len(), 5);
    assert!(!app.game().can_redo());
    // Arrows are the cursor's again.
    let cursor = app.board.cursor;
    press(&mut app, KeyCode::Left);
    assert_ne!(app.board.cursor, cursor);
    assert_eq!(app.game().moves().len(), 5);
}

#[test]
fn a_move_picked_with_the_cursor_also_ends_the_review() {
    let mut app = review_app(REVIEW_PDN);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    cursor_move(&mut app, &[9, 13]);
    assert!(app.review().is_none());
    assert_eq!(app.game().movetext(), "1. 11-15 23-18 2. 9-13");
}

#[test]
fn esc_leaves_review_and_changes_nothing() {
    let mut app = review_app(REVIEW_PDN);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Right);
    // With a piece picked up, Esc first puts it down.
    cursor_move(&mut app, &[9]);
    assert!(app.board.pick.is_some());
    press(&mut app, KeyCode::Esc);
    assert!(app.board.pick.is_none());
    assert!(app.review().is_some());

    let before = app.game().clone();
    press(&mut app, KeyCode::Esc);
    assert!(app.review().is_none());
    assert_eq!(app.game(), &before);
    assert_eq!(app.game().undone_moves().len(), 10);
    // The recorded moves can still be replayed one by one.
    press(&mut app, KeyCode::Char('U'));
    assert_eq!(app.game().moves().len(), 3);
}

#[test]
fn quitting_a_review_does_not_ask_but_quitting_a_game_does_and_says_it_is_saved() {
    let mut review = review_app(REVIEW_PDN);
    press(&mut review, KeyCode::Right);
    assert_eq!(press(&mut review, KeyCode::Char('q')), Some(Flow::Quit));

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pdn");
    let runtime = Runtime::new(
        Session::new(Game::new()),
        Saving::Resumed(GameFile::claim(&path).unwrap()),
        Pace::NONE,
    );
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    type_move(&mut app, "11-15");
    app.poll(Instant::now());
    assert_ne!(press(&mut app, KeyCode::Char('q')), Some(Flow::Quit));
    assert!(screen_text(&app).contains("checkers --resume continues it"));
    press(&mut app, KeyCode::Char('n'));
    // A folder in the way of the game's file: the next autosave fails.
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("x"), "x").unwrap();
    type_move(&mut app, "22-18");
    app.poll(Instant::now());
    assert!(
        message(&app).starts_with("Autosave failed"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Char('q'));
    assert!(screen_text(&app).contains("NOT saved"));
}

#[test]
fn an_autosave_that_works_again_after_failing_says_so_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pdn");
    let runtime = Runtime::new(
        Session::new(Game::new()),
        Saving::Resumed(GameFile::claim(&path).unwrap()),
        Pace::NONE,
    );
    let mut app = App::with_runtime(Settings::default(), runtime, WIDTH, HEIGHT);
    // A folder in the way of the game's file: the autosave fails.
    std::fs::create_dir(&path).unwrap();
    std::fs::write(path.join("x"), "x").unwrap();
    type_move(&mut app, "11-15");
    app.poll(Instant::now());
    assert!(
        message(&app).starts_with("Autosave failed"),
        "{}",
        message(&app)
    );
    // The folder gone, the next move is saved, and the players are told, with the move.
    std::fs::remove_dir_all(&path).unwrap();
    type_move(&mut app, "22-18");
    app.poll(Instant::now());
    let told = message(&app);
    let again = format!("The game is saved again, in {}.", path.display());
    assert!(told.ends_with(&again), "{told}");
    assert!(told.contains("22-18"), "the move's news stays: {told}");
    assert!(
        screen_text(&app)
            .split_whitespace()
            .collect::<String>()
            .contains("Thegameissavedagain"),
        "on screen"
    );
    assert!(!app.autosave_failed());
    // Once: the next save that works says nothing of it.
    type_move(&mut app, "15x22");
    app.poll(Instant::now());
    assert!(!message(&app).contains("saved again"), "{}", message(&app));
    assert!(std::fs::read_to_string(&path).unwrap().contains("15x22"));
}

#[test]
fn the_save_dialog_has_three_fields_tab_moves_between_them_and_enter_asks_for_a_save() {
    let session = Session::new(Game::new()).with_names(Players {
        white: Some("Bob".to_string()),
        ..Players::default()
    });
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.pdn");
    type_move(&mut app, "11-15");
    ctrl(&mut app, 's');
    let Mode::Save(dialog) = &app.mode else {
        panic!("Ctrl-S opens the save dialog");
    };
    assert_eq!(dialog.focus, SaveField::Path);
    assert_eq!(dialog.black.text, "");
    assert_eq!(dialog.white.text, "Bob", "prefilled from the players");

    press(&mut app, KeyCode::Tab);
    type_text(&mut app, "Ann");
    press(&mut app, KeyCode::Tab);
    press(&mut app, KeyCode::Tab);
    assert!(matches!(&app.mode, Mode::Save(d) if d.focus == SaveField::Path));
    press(&mut app, KeyCode::BackTab);
    assert!(matches!(&app.mode, Mode::Save(d) if d.focus == SaveField::White));
    // Typed letters go into the dialog, never to the board's keys.
    type_text(&mut app, "qu");
    press(&mut app, KeyCode::Backspace);
    assert_ne!(press(&mut app, KeyCode::Backspace), Some(Flow::Quit));
    press(&mut app, KeyCode::BackTab);
    press(&mut app, KeyCode::BackTab);
    app.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    type_text(&mut app, path.to_str().unwrap());
    press(&mut app, KeyCode::Enter);

    // Nothing is written or kept until the runtime does the save.
    assert!(!path.exists());
    assert_eq!(app.session().names().black, None);
    app.poll(Instant::now());
    assert_eq!(app.mode, Mode::Board);
    let record = load_record(&path, 1).unwrap();
    assert_eq!(record.tag("Black"), Some("Ann"));
    assert_eq!(record.tag("White"), Some("Bob"));
    assert_eq!(app.session().names().black.as_deref(), Some("Ann"));
    assert_eq!(message(&app), format!("Saved to {}", path.display()));
    // The names come back in the next save dialog, and so does the file.
    press(&mut app, KeyCode::Char('s'));
    assert!(matches!(&app.mode, Mode::Save(d) if d.black.text == "Ann"));
    assert!(
        matches!(&app.mode, Mode::Save(d) if d.path.text == path.display().to_string()),
        "the dialog offers the file last saved to"
    );
}

#[test]
fn the_save_dialog_refuses_a_file_in_a_folder_that_does_not_exist() {
    let mut app = app();
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("mistyped");
    let path = missing.join("x.pdn");
    type_move(&mut app, "11-15");
    ctrl(&mut app, 's');
    app.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    type_text(&mut app, path.to_str().unwrap());
    press(&mut app, KeyCode::Enter);
    app.poll(Instant::now());
    assert_eq!(
        message(&app),
        format!(
            "Not saved: no folder {}: create it first, or name a file in a folder that exists",
            missing.display()
        )
    );
    assert!(matches!(app.mode, Mode::Save(_)), "the dialog stays open");
    assert!(!missing.exists(), "no folder is made");
}

/// A folder typed as the file is refused at once: the dialog does not ask whether to add
/// the game at its end or replace it (it did, then said it was a folder either way).
#[test]
fn the_save_dialog_refuses_a_folder_at_once_without_asking_to_append_or_replace() {
    let mut app = app();
    let dir = tempfile::tempdir().unwrap();
    type_move(&mut app, "11-15");
    ctrl(&mut app, 's');
    app.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    type_text(&mut app, dir.path().to_str().unwrap());
    press(&mut app, KeyCode::Enter);
    app.poll(Instant::now());
    assert_eq!(
        message(&app),
        format!(
            "Not saved: {} is a folder, not a regular file: only files are read and written",
            dir.path().display()
        )
    );
    assert!(
        matches!(&app.mode, Mode::Save(d) if d.exists.is_none()),
        "the dialog stays open, asking nothing"
    );
    assert!(!screen_text(&app).contains("a append  r replace"));
}

#[test]
fn esc_cancels_the_save_dialog_and_an_empty_path_is_refused() {
    let mut app = app();
    type_move(&mut app, "11-15");
    let before = app.game().clone();
    press(&mut app, KeyCode::Char('s'));
    press(&mut app, KeyCode::Tab);
    type_text(&mut app, "Ann");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Board);
    assert_eq!(
        app.poll(Instant::now()),
        Polled::default(),
        "nothing to save"
    );
    assert_eq!(app.session().names().black, None);
    assert_eq!(app.game(), &before);

    press(&mut app, KeyCode::Char('s'));
    app.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    press(&mut app, KeyCode::Enter);
    assert_eq!(
        app.poll(Instant::now()),
        Polled::default(),
        "nothing to save"
    );
    assert!(matches!(app.mode, Mode::Save(_)));
    assert!(matches!(app.status.message, Some((Tone::Error, _))));
}

/// Saves the game of `app` under `players`' names, as the save dialog does.
fn save(
    path: &std::path::Path,
    app: &crate::tui::App,
    players: &Players,
) -> Result<(), crate::store::StoreError> {
    let mut session = app.session().clone();
    session.set_names(players.clone());
    crate::store::save_record(path, &session.record("2026.11.30"))
}

#[test]
fn the_save_dialog_offers_the_file_last_saved_to() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app();
    type_move(&mut app, "11-15");
    let path = dir.path().join("club.pdn");
    let players = Players::default();
    app.save_finished(
        SaveRequest {
            path: path.clone(),
            players,
            existing: IfExists::Ask,
            annotations: None,
        },
        Ok(Appended::Created),
    );
    press(&mut app, KeyCode::Char('s'));
    let Mode::Save(dialog) = &app.mode else {
        panic!("the dialog is open: {:?}", app.mode);
    };
    assert_eq!(dialog.path.text, path.display().to_string());
}

#[test]
fn a_save_writes_a_record_that_loads_back_and_a_failed_save_changes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let mut app = app();
    for m in ["11-15", "23-19", "8-11"] {
        type_move(&mut app, m);
    }
    press(&mut app, KeyCode::Char('u'));
    let players = Players {
        black: Some("Ann".to_string()),
        white: None,
    };
    let path = dir.path().join("sub").join("game.pdn");
    save(&path, &app, &players).unwrap();
    let (game, names) = crate::pdn::game_from_record(&load_record(&path, 1).unwrap());
    assert_eq!(&game, app.game(), "moves and undo history come back");
    assert_eq!(names, players);

    // A directory as the path, and a path under a plain file: errors, nothing changed.
    let before = app.game().clone();
    for (bad, why) in [
        (dir.path().join("sub"), "is a folder, not a regular file"),
        (path.join("x.pdn"), "cannot write"),
    ] {
        press(&mut app, KeyCode::Char('s'));
        let result = save(&bad, &app, &players);
        assert!(result.is_err(), "{}", bad.display());
        app.save_finished(
            SaveRequest {
                path: bad,
                players: players.clone(),
                existing: IfExists::Ask,
                annotations: None,
            },
            result.map(|()| Appended::Created),
        );
        assert!(matches!(app.mode, Mode::Save(_)), "the dialog stays open");
        assert!(
            message(&app).starts_with("Not saved: ") && message(&app).contains(why),
            "{}",
            message(&app)
        );
        assert_eq!(app.session().names(), &Players::default());
        press(&mut app, KeyCode::Esc);
        assert_eq!(app.game(), &before);
    }
    assert!(
        std::fs::read_to_string(&path)
            .unwrap()
            .contains("[Black \"Ann\"]")
    );
    let error = save(&path.join("y.pdn"), &app, &players).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "cannot write {}: {} is a file, not a folder",
            path.join("y.pdn").display(),
            path.display()
        )
    );
    type_move(&mut app, "8-11");
    assert_eq!(app.game().moves().len(), 3, "the game goes on");
}

#[test]
fn the_move_list_marks_the_move_shown_when_white_moved_first() {
    let pdn = r#"[Event "Set-up"]
[SetUp "1"]
[FEN "W:W18,30:B1,2"]
1. ... 18-14 2. 1-6 30-26 3. 2-7 *
"#;
    let mut app = review_app(pdn);
    assert_eq!(app.session().review_progress(), (0, 4));
    assert!(!screen_text(&app).contains('>'), "no move shown yet");
    press(&mut app, KeyCode::Right);
    assert!(screen_text(&app).contains(">  1. ...      18-14"));
    press(&mut app, KeyCode::Right);
    assert!(screen_text(&app).contains(">  2. 1-6      30-26"));
    press(&mut app, KeyCode::End);
    assert!(screen_text(&app).contains(">  3. 2-7"));
    assert!(screen_text(&app).contains("   2. 1-6      30-26"));
}

#[test]
fn saving_to_an_existing_file_asks_append_replace_or_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("old.pdn");
    let old = "[Event \"Old\"]\n1. 9-13 *\n";
    std::fs::write(&path, old).unwrap();
    let mut app = app();
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('s'));
    app.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    type_text(&mut app, path.to_str().unwrap());
    press(&mut app, KeyCode::Enter);
    app.poll(std::time::Instant::now());
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);
    assert!(
        message(&app).contains(
            "already exists: a adds this game at its end, r replaces the file, Esc goes back"
        ),
        "{}",
        message(&app)
    );
    assert!(screen_text(&app).contains("a append  r replace  Esc back"));

    // Esc goes back to the dialog, nothing written; typing works again.
    press(&mut app, KeyCode::Esc);
    assert!(matches!(&app.mode, Mode::Save(d) if d.exists.is_none()));
    assert_eq!(std::fs::read_to_string(&path).unwrap(), old);

    // Append: both games are in the file.
    press(&mut app, KeyCode::Enter);
    app.poll(std::time::Instant::now());
    press(&mut app, KeyCode::Char('a'));
    app.poll(std::time::Instant::now());
    assert_eq!(app.mode, Mode::Board);
    assert!(
        message(&app).starts_with("Added the game at the end of"),
        "{}",
        message(&app)
    );
    assert_eq!(load_record(&path, 1).unwrap().tag("Event"), Some("Old"));
    assert_eq!(load_record(&path, 2).unwrap().moves.len(), 1);

    // Replace: only this game is left.
    press(&mut app, KeyCode::Char('s'));
    app.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    type_text(&mut app, path.to_str().unwrap());
    press(&mut app, KeyCode::Enter);
    app.poll(std::time::Instant::now());
    press(&mut app, KeyCode::Char('r'));
    app.poll(std::time::Instant::now());
    assert!(message(&app).starts_with("Saved to"), "{}", message(&app));
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        !text.contains("Old") && text.contains("1. 11-15 *"),
        "{text}"
    );
}

#[test]
fn dialog_fields_are_edited_anywhere_with_the_text_cursor() {
    let session = Session::new(Game::new()).with_names(Players {
        black: Some("Ann".to_string()),
        ..Players::default()
    });
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    press(&mut app, KeyCode::Char('s'));
    app.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    type_text(&mut app, "abc");
    press(&mut app, KeyCode::Left);
    press(&mut app, KeyCode::Left);
    type_text(&mut app, "Xé");
    let path = |app: &crate::tui::App| match &app.mode {
        Mode::Save(dialog) => dialog.path.text.clone(),
        _ => panic!("the dialog closed"),
    };
    assert_eq!(path(&app), "aXébc");
    press(&mut app, KeyCode::Delete);
    assert_eq!(path(&app), "aXéc");
    press(&mut app, KeyCode::Home);
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Left);
    assert_eq!(path(&app), "aXéc");
    type_text(&mut app, "/");
    press(&mut app, KeyCode::End);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Delete);
    press(&mut app, KeyCode::Backspace);
    assert_eq!(path(&app), "/aXé");
    // Another field starts with the cursor at its end.
    press(&mut app, KeyCode::Tab);
    type_text(&mut app, " Lee");
    assert!(matches!(&app.mode, Mode::Save(d) if d.black.text == "Ann Lee"));
    assert!(screen_text(&app).contains("/aXé"));
}

#[test]
fn saving_during_a_review_writes_the_whole_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("review.pdn");
    let mut app = review_app(REVIEW_PDN);
    press(&mut app, KeyCode::Right);
    press(&mut app, KeyCode::Char('s'));
    app.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    type_text(&mut app, path.to_str().unwrap());
    press(&mut app, KeyCode::Enter);
    app.poll(std::time::Instant::now());
    assert!(message(&app).starts_with("Saved to"), "{}", message(&app));
    let record = load_record(&path, 1).unwrap();
    assert_eq!(record.moves, recorded().moves());
    assert_eq!(record.tag("Undone"), None);
    assert_eq!(
        record.result.as_deref(),
        Some("1/2-1/2"),
        "the recorded result"
    );
    assert_eq!(record.tag("Black"), Some("Ann Smith"));
    assert_eq!(
        record.tag("Event"),
        Some("Club final"),
        "the record's event is kept"
    );
    assert_eq!(record.tag("Date"), Some("????.??.??"), "not today: unknown");
    // The review goes on where it was.
    assert_eq!(app.session().review_progress(), (1, 12));
}

#[test]
fn a_record_with_a_faulty_move_opens_for_review_up_to_the_fault() {
    let path = std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/tinsley.pdn"
    ));
    let text = std::fs::read_to_string(path).unwrap();
    let file = std::sync::Arc::new(crate::session::RecordFile::in_memory(
        path.to_path_buf(),
        crate::pdn::read_games(&text),
        true,
    ));
    let (_, fault) = file.game(541).unwrap();
    let fault = fault.expect("game 541 has a faulty move");
    assert!(fault.contains("move 62. 32-28"), "{fault}");
    let session = crate::session::Session::review_file(file.clone(), 541).unwrap();
    let mut app =
        crate::tui::App::with_session(crate::tui::Settings::default(), session, WIDTH, HEIGHT);
    // Every good move before the fault can be stepped through: 61 moves each.
    assert_eq!(app.session().review_progress(), (0, 122));
    assert!(message(&app).contains("faulty move"), "{}", message(&app));
    press(&mut app, KeyCode::End);
    assert_eq!(app.session().review_progress(), (122, 122));
    assert!(screen_text(&app).contains("Stops here: the next move is faulty"));
    // A good game of the same file has no fault.
    assert_eq!(file.game(540).unwrap().1, None);
}

/// A record file of `pdn`, as `--load` reads it (`chosen`: `--game` was given).
fn record_file(pdn: &str, chosen: bool) -> std::sync::Arc<crate::session::RecordFile> {
    std::sync::Arc::new(crate::session::RecordFile::in_memory(
        "games.pdn".into(),
        crate::pdn::read_games(pdn),
        chosen,
    ))
}

const THREE_GAMES: &str = r#"[Event "Spring open"]
[Black "Ann"]
[White "Bob"]
[Result "*"]
1. 11-15 23-19 *

[Event "Club final"]
[Black "Carol"]
[White "Dan"]
[Result "0-1"]
1. 9-14 22-18 2. 5-9 24-19 0-1

[Event "Blitz"]
[Black "Eve"]
[White "Fay"]
[Result "1-0"]
1. 10-14 *
"#;

#[test]
fn a_file_of_several_games_opens_with_the_list_to_choose_from() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    let session = Session::review_file(record_file(THREE_GAMES, false), 1).unwrap();
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    assert!(
        matches!(app.mode, Mode::Games(_)),
        "the list first, not game 1 silently"
    );
    let screen = screen_text(&app);
    assert!(
        screen.contains("3 of 3 games") && screen.contains("2. Club final: Carol v Dan"),
        "{screen}"
    );
    // Typing filters; Enter opens the game chosen.
    type_text(&mut app, "carol");
    assert_eq!(app.listed_games().len(), 1);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Board);
    assert_eq!(app.review().unwrap().tag("Event"), Some("Club final"));
    assert_eq!(app.session().review_progress(), (0, 4));
    // In review ] and [ go to the next and previous game of the file.
    press(&mut app, KeyCode::Char(']'));
    assert_eq!(app.review().unwrap().tag("Event"), Some("Blitz"));
    press(&mut app, KeyCode::Char(']'));
    assert!(
        message(&app).contains("is the last of 3"),
        "{}",
        message(&app)
    );
    press(&mut app, KeyCode::Char('['));
    press(&mut app, KeyCode::Char('['));
    assert_eq!(app.review().unwrap().tag("Event"), Some("Spring open"));
    // g opens the list again, at the game shown; Esc closes it.
    press(&mut app, KeyCode::Char('g'));
    assert!(matches!(&app.mode, Mode::Games(list) if list.selected == 0));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Board);
}

/// A file of `count` short games, each of its own event.
fn many_games(count: usize) -> String {
    (1..=count)
        .map(|n| format!("[Event \"Round {n}\"]\n[Result \"*\"]\n1. 11-15 23-19 *\n\n"))
        .collect()
}

#[test]
fn the_files_list_at_80x24_leaves_the_whole_news_above_its_key_line_in_view() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    // A list longer than the screen: the box takes all the room it is given.
    let session = Session::review_file(record_file(&many_games(40), false), 1).unwrap();
    let app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    assert!(matches!(app.mode, Mode::Games(_)));
    let screen = screen_text(&app);
    // The words are two rows at 80 columns: its first row was under the box, so the
    // screen showed only the end of them without what it goes with.
    assert!(
        screen.contains("The file holds several games: type to filter the list")
            && screen.contains("Esc closes the list on game 1.")
            && screen.contains("Enter open  Esc close"),
        "{screen}"
    );
}

#[test]
fn a_file_of_several_games_opens_on_the_lists_keys_and_the_reviews_come_with_a_game() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let session = Session::review_file(record_file(THREE_GAMES, false), 1).unwrap();
        let mut app = App::with_session(Settings::default(), session, width, height);
        assert!(matches!(app.mode, Mode::Games(_)));
        // While the list is open, the review's keys (Left/Right, Esc to stop
        // reviewing) are not the keys that work: the list's are said.
        let screen = screen_text(&app);
        assert!(
            !screen.contains("Review: Left/Right"),
            "{width}x{height}: {screen}"
        );
        assert!(
            screen.contains("The file holds several games: type to filter"),
            "{width}x{height}: {screen}"
        );
        assert!(
            message(&app).contains("Up/Down choose, Enter opens the game chosen; Esc closes"),
            "{}",
            message(&app)
        );
        // Esc closes it on the first game: now the review's words.
        press(&mut app, KeyCode::Esc);
        assert_eq!(app.mode, Mode::Board);
        assert!(
            message(&app).starts_with("Review: Left/Right step"),
            "{}",
            message(&app)
        );
    }
    // Enter opens the game chosen, and says which.
    let session = Session::review_file(record_file(THREE_GAMES, false), 1).unwrap();
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert_eq!(app.mode, Mode::Board);
    assert!(message(&app).starts_with("Game 2."), "{}", message(&app));
}

#[test]
fn a_game_opened_from_the_list_says_which_and_the_reviews_keys() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let session = Session::review_file(record_file(THREE_GAMES, false), 1).unwrap();
        let mut app = App::with_session(Settings::default(), session, width, height);
        press(&mut app, KeyCode::Down);
        press(&mut app, KeyCode::Enter);
        assert_eq!(app.mode, Mode::Board);
        // Which game, then what can be done with it, as a file of one game says on
        // opening: the key line's arrows alone did not say it.
        let said = message(&app);
        assert!(
            said.starts_with("Game 2.") && said.contains("Review: Left/Right step"),
            "{said}"
        );
        // Whole on the screen, however many rows it wraps to.
        let screen = screen_text(&app);
        let words = screen.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            words.contains(
                "(2 of 3). Review: Left/Right step through the moves, Home/End jump; \
                 play a move to go on from here, Esc to stop reviewing."
            ),
            "{width}x{height}: {screen}"
        );
    }
}

#[test]
fn a_game_asked_for_by_number_opens_at_once() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    let session = Session::review_file(record_file(THREE_GAMES, true), 2).unwrap();
    let app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    assert_eq!(app.mode, Mode::Board);
    assert_eq!(app.review().unwrap().tag("Event"), Some("Club final"));
}

#[test]
fn a_click_on_a_move_of_the_list_shows_the_game_after_it() {
    let mut app = review_app(REVIEW_PDN);
    let screen = screen_text(&app);
    let (y, line) = screen
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("3. 4-8"))
        .unwrap();
    // Column of White's move 23-19 on that line, counted in characters (cells).
    let chars: Vec<char> = line.chars().collect();
    let at = (0..chars.len())
        .find(|&i| chars[i..].iter().collect::<String>().starts_with("23-19"))
        .unwrap();
    let click = ratatui::crossterm::event::Event::Mouse(ratatui::crossterm::event::MouseEvent {
        kind: ratatui::crossterm::event::MouseEventKind::Down(
            ratatui::crossterm::event::MouseButton::Left,
        ),
        column: at as u16,
        row: y as u16,
        modifiers: KeyModifiers::NONE,
    });
    assert!(crate::tui::handle_event(&mut app, &click).is_some());
    // 3... 23-19 is the sixth move played.
    assert_eq!(app.session().review_progress(), (6, 12));
    assert!(message(&app).contains("23-19"), "{}", message(&app));
}

#[test]
fn names_of_wide_characters_wrap_whole_in_the_panel() {
    let session = Session::new(Game::new()).with_names(Players {
        black: Some("Alice Ünïcødé 名前".to_string()),
        white: Some("Bob \"the\" [Builder]".to_string()),
    });
    let app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    let text = screen_text(&app);
    // 名 and 前 take two columns each: the line breaks before the name that no longer
    // fits, and no character is lost past the panel's edge.
    assert!(text.contains("(Black) v Bob"), "{text}");
    assert!(text.contains("\"the\" [Builder] (White)"), "{text}");
}

#[test]
fn a_chinese_event_name_on_the_status_line_is_wrapped_by_columns_not_cut_off() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    // Each word is 12 characters, 24 columns: wrapped as if 12 columns wide, the
    // status line's rows ran past the screen's edge and their ends were lost.
    let word = "東京".repeat(6);
    let event = [word.as_str(); 5].join(" ");
    let game = format!(
        "[Event \"{event}\"]\n[Black \"王\"]\n[White \"李\"]\n[Result \"*\"]\n1. 11-15 *\n\n"
    );
    let pdn = format!("{game}{game}");
    let session = Session::review_file(record_file(&pdn, false), 1).unwrap();
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    press(&mut app, KeyCode::Down);
    press(&mut app, KeyCode::Enter);
    assert!(
        message(&app).contains("(2 of 2). Review:"),
        "{}",
        message(&app)
    );
    // The footer's rows, under the board and the panel; the test buffer holds a wide
    // character's second column as a space.
    let screen = screen_text(&app);
    let footer: Vec<&str> = screen
        .lines()
        .filter(|row| !row.contains(['\u{2502}', '\u{250c}', '\u{2514}']))
        .collect();
    let drawn_word = word.chars().map(|c| format!("{c} ")).collect::<String>();
    let whole_words: usize = footer
        .iter()
        .map(|row| row.matches(drawn_word.trim_end()).count())
        .sum();
    assert_eq!(whole_words, 5, "every word of the event, whole: {screen}");
    assert!(
        footer.iter().any(|row| row.contains("(2 of 2)")),
        "{screen}"
    );
}

#[test]
fn a_game_too_long_for_the_list_of_the_file_ends_its_row_with_an_ellipsis() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    // 東 and 京 take two columns each: 120 of them take 240, past any list's border.
    let event = "東京".repeat(60);
    let game = format!(
        "[Event \"{event}\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"*\"]\n1. 11-15 *\n\n"
    );
    let pdn = format!("{game}{game}");
    let session = Session::review_file(record_file(&pdn, false), 1).unwrap();
    let app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    assert!(matches!(app.mode, Mode::Games(_)));
    let screen = screen_text(&app);
    for number in ["> 1. 東", "  2. 東"] {
        let row = screen
            .lines()
            .find(|row| row.contains(number))
            .unwrap_or_else(|| panic!("no row {number}: {screen}"));
        // Inside the border, the row's text ends with the ellipsis: it was cut, and
        // says so.
        let inside = row.trim_end().trim_end_matches('\u{2502}').trim_end();
        assert!(inside.ends_with('\u{2026}'), "{row:?} in {screen}");
    }
}

#[test]
fn backspace_in_the_games_filter_erases_an_accented_letter_whole() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    let session = Session::review_file(record_file(THREE_GAMES, false), 1).unwrap();
    let mut app = App::with_session(Settings::default(), session, WIDTH, HEIGHT);
    // é as e and a combining acute accent (U+0301): one letter to the reader.
    type_text(&mut app, "Jose\u{301}");
    press(&mut app, KeyCode::Backspace);
    assert!(
        matches!(&app.mode, Mode::Games(list) if list.filter == "Jos"),
        "{:?}",
        app.mode
    );
}

#[test]
fn a_long_filter_keeps_to_one_row_with_its_end_and_the_count_in_view() {
    use crate::session::Session;
    use crate::tui::{App, Settings};
    for (width, height) in [(80, 24), (40, 16)] {
        let session = Session::review_file(record_file(THREE_GAMES, false), 1).unwrap();
        let mut app = App::with_session(Settings::default(), session, width, height);
        let typed = format!("{}carol", "x".repeat(100));
        type_text(&mut app, &typed);
        let screen = screen_text(&app);
        let row = screen
            .lines()
            .find(|row| row.contains("Filter: "))
            .unwrap_or_else(|| panic!("no filter row: {screen}"));
        // Where typing goes is shown, cut at its start with `…`, and the count after
        // it, inside the box's border.
        assert!(row.contains("Filter: \u{2026}x"), "{row:?} in {screen}");
        assert!(row.contains("xcarol"), "{row:?} in {screen}");
        assert!(row.contains("0 of 3 games"), "{row:?} in {screen}");
        assert!(row.trim_end().ends_with('\u{2502}'), "{row:?} in {screen}");
        assert!(
            !screen.contains(
                "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
            ),
            "{screen}"
        );
    }
}

#[test]
fn a_click_on_the_files_list_chooses_a_game_and_a_click_on_the_chosen_one_opens_it() {
    use ratatui::crossterm::event::{Event, MouseEvent, MouseEventKind};
    let session = Session::review_file(record_file(THREE_GAMES, false), 1).unwrap();
    let mut app = App::with_session(Settings::default(), session, 80, 24);
    let drawn = screen_text(&app);
    app.handle_event(&click_on_text(&drawn, "Carol v Dan"));
    assert!(
        matches!(&app.mode, Mode::Games(list) if list.selected == 1),
        "one click chooses"
    );
    // The wheel moves the choice as the arrows do.
    let wheel = |kind| {
        Event::Mouse(MouseEvent {
            kind,
            column: 40,
            row: 5,
            modifiers: KeyModifiers::NONE,
        })
    };
    app.handle_event(&wheel(MouseEventKind::ScrollDown));
    assert!(matches!(&app.mode, Mode::Games(list) if list.selected == 2));
    app.handle_event(&wheel(MouseEventKind::ScrollUp));
    assert!(matches!(&app.mode, Mode::Games(list) if list.selected == 1));
    // A click on the game chosen opens it.
    let drawn = screen_text(&app);
    app.handle_event(&click_on_text(&drawn, "Carol v Dan"));
    assert_eq!(app.mode, Mode::Board);
    assert_eq!(app.review().unwrap().tag("Event"), Some("Club final"));
}

#[test]
fn at_30_columns_the_files_list_key_line_drops_whole_entries() {
    let session = Session::review_file(record_file(THREE_GAMES, false), 1).unwrap();
    let app = App::with_session(Settings::default(), session, 30, 12);
    let drawn = screen_text(&app);
    let key_line = drawn.lines().rev().find(|l| !l.trim().is_empty()).unwrap();
    // Every entry drawn is whole; the last ones (open, close) always stay.
    assert!(key_line.trim_end().ends_with("Esc close"), "{drawn}");
    assert!(key_line.contains("Enter open"), "{drawn}");
    for (i, word) in key_line.split("  ").map(str::trim).enumerate() {
        assert!(
            [
                "type filter",
                "↑↓ choose",
                "Up/Down choose",
                "Enter open",
                "Esc close",
                ""
            ]
            .contains(&word),
            "entry {i} cut: {word:?} in {drawn}"
        );
    }
}

/// The save dialog's note says what Enter will do, not that the game is saved: it said
/// "Saved as a game record ..." while nothing had been written yet.
#[test]
fn the_save_dialogs_note_says_what_enter_will_do_before_anything_is_saved() {
    let mut app = app();
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('s'));
    assert!(matches!(app.mode, Mode::Save(_)), "s opens the save dialog");
    let text = screen_text(&app);
    let footer: String = text
        .lines()
        .skip(usize::from(HEIGHT) - 4)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(footer.contains("Enter writes the game record"), "{footer}");
    assert!(!footer.contains("Saved"), "{footer}");
    assert!(
        footer.contains("Enter save"),
        "the key line stays: {footer}"
    );
}

/// The review's key line at 80x24 offers the game report and the analysis board,
/// which nothing else on its screen names; a wider screen offers every review key.
#[test]
fn the_review_key_line_at_80x24_offers_the_report_and_the_analysis_board() {
    // At 80x24 the line dropped "R report" and "A analyse" for "Home/End first/last".
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let record = crate::pdn::read_games(REVIEW_PDN).remove(0).unwrap();
        let mut app = App::with_session(
            Settings::default(),
            Session::review_record(&record),
            width,
            height,
        );
        press(&mut app, KeyCode::Right);
        let screen = screen_text(&app);
        let keys = screen.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("");
        for wanted in [
            "step",
            "Esc stop reviewing",
            "s save",
            "R report",
            "A analyse",
        ] {
            assert!(
                keys.contains(wanted),
                "{width}x{height}: {wanted} in {keys:?}"
            );
        }
        assert!(keys.trim_end().ends_with("? help  q quit"), "{keys:?}");
        if width >= 120 {
            assert!(keys.contains("Home/End first/last"), "{keys:?}");
        }
    }
}
