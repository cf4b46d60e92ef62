//! The picker of games to resume: keys choose, every size draws, names from files are
//! shown safely.

use crate::pdn::read_games;
use crate::store::SavedGame;
use crate::tui::Theme;
use crate::tui::picker::{Picked, Picker};
use crate::tui::tests::key_event;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::widgets::Widget;
use std::time::{Duration, SystemTime};

fn saved(black: &str, moves: &str, hours_ago: u64) -> SavedGame {
    let text = format!("[Black \"{black}\"]\n1. {moves} *\n");
    SavedGame {
        path: format!("/games/{black}.pdn").into(),
        modified: SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 - hours_ago * 3600),
        record: read_games(&text).remove(0).map_err(|e| e.to_string()),
        fault: None,
        open_elsewhere: false,
    }
}

fn picker() -> Picker {
    Picker::new(
        vec![
            saved("Ann", "11-15 23-19", 1),
            saved("Bob", "9-13", 2),
            saved("Cy\u{1b}]0;x\u{7}", "10-14", 3),
        ],
        Theme::new(false, true),
    )
}

fn key(picker: &mut Picker, code: KeyCode) -> Option<Picked> {
    picker.handle_event(&key_event(code, KeyModifiers::NONE))
}

fn screen(picker: &Picker, width: u16, height: u16) -> String {
    crate::tui::tests::drawn_text(width, height, |area, buf| picker.render(area, buf))
}

#[test]
fn keys_move_and_choose() {
    let mut p = picker();
    assert_eq!(key(&mut p, KeyCode::Up), None);
    assert_eq!(key(&mut p, KeyCode::Down), None);
    assert_eq!(key(&mut p, KeyCode::Char('j')), None);
    assert_eq!(key(&mut p, KeyCode::Down), None, "stays on the last");
    assert_eq!(p.selected, 2);
    assert_eq!(key(&mut p, KeyCode::Char('k')), None);
    assert_eq!(key(&mut p, KeyCode::Enter), Some(Picked::Game(1)));
    assert_eq!(key(&mut p, KeyCode::Home), None);
    assert_eq!(key(&mut p, KeyCode::Char(' ')), Some(Picked::Game(0)));
    assert_eq!(key(&mut p, KeyCode::Char('3')), Some(Picked::Game(2)));
    assert_eq!(key(&mut p, KeyCode::Char('9')), None);
    assert_eq!(p.message.as_deref(), Some("There is no game 9"));
    assert_eq!(key(&mut p, KeyCode::Esc), Some(Picked::Quit));
    assert_eq!(
        p.handle_event(&key_event(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Picked::Quit)
    );
    p.set_games(vec![saved("Dan", "9-14", 1)]);
    assert_eq!(p.selected, 0, "kept within the shorter list");
}

#[test]
fn the_list_shows_when_who_and_how_far_with_the_choice_marked() {
    let text = screen(&picker(), 80, 12);
    assert!(
        text.contains("Unfinished games: which one goes on?"),
        "{text}"
    );
    assert!(
        text.contains("> 1. Ann - unnamed  1 move  last 1. 11-15 23-19  2027-01-15 07:00 UTC"),
        "{text}"
    );
    assert!(text.contains("  2. Bob - unnamed  1 move  last 1. 9-13  2027-01-15 06:00 UTC"));
    assert!(
        text.contains("Cy?]0;x? - unnamed"),
        "names are made printable: {text}"
    );
}

/// Games against the computer differ by where they stand: at 80 columns the row was cut
/// before it ("... unfinished  level 5  last…"); who played, the moves, the last move
/// and when come first, whole at 80 columns, the last move whole at 60.
#[test]
fn a_row_tells_its_game_apart_at_80_columns() {
    let game = |moves: &str, hours_ago: u64| {
        let text = format!(
            "[Black \"?\"]\n[White \"checkers (level 5)\"]\n[BlackType \"human\"]\n\
             [WhiteType \"program\"]\n[WhiteLevel \"5\"]\n1. {moves} *\n"
        );
        SavedGame {
            path: "/games/a.pdn".into(),
            modified: SystemTime::UNIX_EPOCH
                + Duration::from_secs(1_800_000_000 - hours_ago * 3600),
            record: read_games(&text).remove(0).map_err(|e| e.to_string()),
            fault: None,
            open_elsewhere: false,
        }
    };
    let p = Picker::new(
        vec![
            game("10-14", 1),
            game("11-15 23-19 2. 8-11 22-17 3. 9-13", 2),
        ],
        Theme::new(false, true),
    );
    for width in [80, 120] {
        let text = screen(&p, width, 12);
        assert!(
            text.contains("> 1. you - computer  1 move  last 1. 10-14  2027-01-15 07:00 UTC"),
            "{width}:\n{text}"
        );
        assert!(
            text.contains("  2. you - computer  3 moves  last 3. 9-13  2027-01-15 06:00 UTC"),
            "{width}:\n{text}"
        );
    }
    let text = screen(&p, 60, 12);
    assert!(
        text.contains("> 1. you - computer  1 move  last 1. 10-14  2027"),
        "{text}"
    );
    assert!(
        text.contains("  2. you - computer  3 moves  last 3. 9-13  2027"),
        "{text}"
    );
}

#[test]
fn every_size_draws_and_the_cursor_stays_in_view() {
    let mut p = picker();
    for _ in 0..2 {
        key(&mut p, KeyCode::Down);
    }
    for width in 0..=90 {
        for height in 0..=20 {
            screen(&p, width, height);
        }
    }
    let text = screen(&p, 80, 8);
    assert!(text.contains("> 3. "), "{text}");
}

#[test]
fn an_ascii_picker_draws_in_ascii() {
    // The picker of these tests uses the ASCII theme; names are made printable ASCII.
    let text = screen(&picker(), 80, 12);
    let wide: Vec<char> = text.chars().filter(|c| !c.is_ascii()).collect();
    assert!(wide.is_empty(), "{wide:?}\n{text}");
}

#[test]
fn delete_and_abandon_ask_first_and_any_other_key_keeps_the_game() {
    let mut p = picker();
    key(&mut p, KeyCode::Down);
    assert_eq!(key(&mut p, KeyCode::Char('d')), None, "asked first");
    assert!(screen(&p, 100, 20).contains("Delete game 2 for good?"));
    assert_eq!(key(&mut p, KeyCode::Char('n')), None);
    assert_eq!(p.message.as_deref(), Some("Nothing changed"));
    key(&mut p, KeyCode::Char('d'));
    assert_eq!(key(&mut p, KeyCode::Char('y')), Some(Picked::Delete(1)));
    key(&mut p, KeyCode::Char('a'));
    assert!(screen(&p, 100, 20).contains("Abandon game 2?"));
    assert_eq!(key(&mut p, KeyCode::Char('y')), Some(Picked::Abandon(1)));
    // The key line names both.
    let text = screen(&p, 100, 20);
    assert!(
        text.contains("a abandon") && text.contains("d delete"),
        "{text}"
    );
}

#[test]
fn the_list_shows_each_games_clock_and_level() {
    let text = "[Black \"Ann\"]\n[TimeControl \"5+3\"]\n[BlackClock \"0:04:12\"]\n\
                [WhiteClock \"0:03:59\"]\n[WhiteLevel \"6\"]\n1. 11-15 *\n";
    let game = SavedGame {
        path: "/games/a.pdn".into(),
        modified: SystemTime::UNIX_EPOCH,
        record: read_games(text).remove(0).map_err(|e| e.to_string()),
        fault: None,
        open_elsewhere: false,
    };
    assert_eq!(game.conditions(), "5+3 4:12-3:59, level 6");
    assert!(
        game.summary()
            .ends_with("unfinished  5+3 4:12-3:59, level 6  last 1. 11-15"),
        "{}",
        game.summary()
    );
    // Between two people, untimed: nothing to add.
    assert_eq!(saved("Bob", "9-13", 1).conditions(), "");
}

#[test]
fn an_abandoned_game_stays_in_the_folder_but_is_not_offered_and_a_deleted_one_is_gone() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("game.pdn");
    std::fs::write(&path, "[Black \"Ann\"]\n1. 11-15 23-19 *\n").unwrap();
    let read = |path: &std::path::Path| SavedGame {
        path: path.to_path_buf(),
        modified: SystemTime::UNIX_EPOCH,
        record: crate::store::load_record(path, 1).map_err(|e| e.to_string()),
        fault: None,
        open_elsewhere: false,
    };
    let game = read(&path);
    assert!(game.resumable());
    crate::store::games::abandon(&game).unwrap();
    let game = read(&path);
    assert!(!game.resumable(), "no longer offered");
    assert_eq!(game.state(), "abandoned");
    assert_eq!(game.plies(), 2, "its moves are kept");
    crate::store::games::delete(&game).unwrap();
    assert!(!path.exists());
}

/// A game of the folder whose file holds the PDN `text`.
fn saved_record(text: &str) -> SavedGame {
    SavedGame {
        path: "/games/a.pdn".into(),
        modified: SystemTime::UNIX_EPOCH,
        record: read_games(text).remove(0).map_err(|e| e.to_string()),
        fault: None,
        open_elsewhere: false,
    }
}

#[test]
fn unfinished_games_are_told_apart_by_who_played_and_where_they_stand() {
    let game = saved_record;
    // Against the computer, no names: the computer is named by what it is, not "?", and
    // the record's "checkers (level 3)" is not shown as a name.
    let computer = game(
        "[Black \"?\"]\n[White \"checkers (level 3)\"]\n[BlackType \"human\"]\n\
         [WhiteType \"program\"]\n[WhiteLevel \"3\"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 *\n",
    );
    // The person who gave no name is the reader: "you", not "unnamed" (someone else).
    assert_eq!(computer.players(), "you - computer");
    let as_white =
        game("[WhiteType \"human\"]\n[BlackType \"program\"]\n[BlackLevel \"3\"]\n1. 11-15 *\n");
    assert_eq!(as_white.players(), "computer - you");
    // Two players at one terminal who gave no names: said so, not "? - ?".
    assert_eq!(game("1. 9-13 *\n").players(), "unnamed players");
    assert_eq!(computer.where_it_stands(), "last 3. 9-13");
    assert!(
        computer
            .summary()
            .ends_with("you - computer  3 moves  unfinished  level 3  last 3. 9-13"),
        "{}",
        computer.summary()
    );
    // A position set up, White first: where it started, and its last move.
    let set_up = game("[SetUp \"1\"]\n[FEN \"W:W18,K30:B11,K2\"]\n1. ... 18-15 2. 11x18 *\n");
    assert_eq!(
        set_up.where_it_stands(),
        "from W:W18,K30:BK2,11; last 2. 11x18"
    );
    // A multi-jump by its route, as the move list gives it (its record keeps 19x1).
    let route =
        game("[SetUp \"1\"]\n[FEN \"W:WK30,21,22,23,26,19:BK2,6,9,11,14,15\"]\n1. 19x1 *\n");
    assert!(
        route.summary().ends_with("last 1. ... 19x10x1"),
        "{}",
        route.summary()
    );
    // A finished game needs none of it: its result tells it.
    let finished = game("[Black \"Ann\"]\n1. 11-15 0-1\n");
    assert!(
        !finished.summary().contains("last"),
        "{}",
        finished.summary()
    );
}

#[test]
fn only_unfinished_games_saved_in_the_last_30_days_are_announced() {
    let mut game = saved("Ann", "11-15", 1);
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(100 * 86_400);
    game.modified = now - Duration::from_secs(29 * 86_400);
    assert!(game.recent(now));
    game.modified = now - Duration::from_secs(31 * 86_400);
    assert!(!game.recent(now));
    assert!(game.resumable(), "still offered by --resume");
}

#[test]
fn a_game_with_no_move_played_is_not_offered_nor_listed_as_unfinished() {
    let game = saved_record;
    // Both moves taken back, then quit: kept for the folder, but nothing to resume.
    let taken_back = game(
        "[White \"checkers (level 4)\"]\n[WhiteType \"program\"]\n[WhiteLevel \"4\"]\n\
         [Undone \"11-15 23-19\"]\n*\n",
    );
    assert!(!taken_back.resumable());
    assert!(taken_back.finished(), "not counted among the unfinished");
    assert!(
        taken_back
            .summary()
            .ends_with("unnamed - computer  0 moves  not begun  level 4"),
        "{}",
        taken_back.summary()
    );
    // Set up from a position: resumable with no move played too (the setting up was
    // the player's work), and with one.
    let set_up = game("[SetUp \"1\"]\n[FEN \"W:W18,K30:B11,K2\"]\n*\n");
    assert!(set_up.resumable());
    let set_up_played = game("[SetUp \"1\"]\n[FEN \"W:W18,K30:B11,K2\"]\n1. ... 18-15 *\n");
    assert!(set_up_played.resumable());
    assert!(set_up_played.summary().contains("unfinished"));
    // A match's next game, not begun, still carries the match on.
    let next_in_match = game("[MatchRounds \"2\"]\n[MatchResults \"1-0\"]\n*\n");
    assert!(next_in_match.resumable());
}

#[test]
fn many_long_games_keep_one_row_each_so_the_choice_and_the_keys_stay_in_view() {
    let name = "Annabelle Cornwallis";
    let games = (0..16)
        .map(|i| saved(name, "11-15 23-19 8-11 22-17", i + 1))
        .collect();
    let mut p = Picker::new(games, Theme::new(false, true));
    for _ in 0..12 {
        key(&mut p, KeyCode::Down);
    }
    let text = screen(&p, 80, 24);
    assert!(text.contains("> 13. "), "the choice is in view:\n{text}");
    assert!(
        text.contains("Enter continue it"),
        "the keys are in view:\n{text}"
    );
    // Each game on a row of its own, cut short where it is too wide.
    assert!(text.contains("Annabelle Cornwallis - unnamed"), "{text}");
    assert!(text.contains("..."), "{text}");
    for line in text.lines().filter(|l| l.contains(" UTC ")) {
        assert!(line.starts_with('|') && line.ends_with('|'), "{line}");
    }
}

/// A player with only a mouse uses the picker by its key line, wrapped or not: "Enter
/// continue it" continues the game chosen, "Down" chooses the next, "q quit" quits.
#[test]
fn the_key_line_is_clicked_to_choose_continue_and_quit() {
    for (width, height) in [(80, 24), (120, 40), (40, 15)] {
        let mut p = picker();
        p.screen = ratatui::layout::Rect::new(0, 0, width, height);
        let click = |p: &Picker, text: &str| {
            crate::tui::tests::click_on_text(&screen(p, width, height), text)
        };
        assert_eq!(p.handle_event(&click(&p, "Down")), None);
        assert_eq!(p.selected, 1, "{width}x{height}");
        assert_eq!(
            p.handle_event(&click(&p, "Enter")),
            Some(Picked::Game(1)),
            "{width}x{height}"
        );
        assert_eq!(
            p.handle_event(&click(&p, "q quit")),
            Some(Picked::Quit),
            "{width}x{height}"
        );
    }
}

/// A player with only a mouse chooses a game by clicking its row (the list scrolled
/// or not, wrapped heading or not), and continues it by clicking it again.
#[test]
fn a_click_on_a_game_chooses_it_and_a_second_continues_it() {
    for (width, height) in [(80, 24), (120, 40), (30, 14)] {
        let games = (0..16).map(|i| saved("Ann", "11-15", i + 1)).collect();
        let mut p = Picker::new(games, Theme::new(false, true));
        p.screen = ratatui::layout::Rect::new(0, 0, width, height);
        for _ in 0..12 {
            key(&mut p, KeyCode::Down);
        }
        let click = |p: &Picker, text: &str| {
            crate::tui::tests::click_on_text(&screen(p, width, height), text)
        };
        // The game above the chosen one, as drawn now.
        assert_eq!(p.handle_event(&click(&p, "12. ")), None);
        assert_eq!(p.selected, 11, "{width}x{height}");
        assert_eq!(
            p.handle_event(&click(&p, "12. ")),
            Some(Picked::Game(11)),
            "{width}x{height}"
        );
    }
    // The wheel moves the choice as the arrows do.
    let mut p = picker();
    let wheel = ratatui::crossterm::event::Event::Mouse(ratatui::crossterm::event::MouseEvent {
        kind: ratatui::crossterm::event::MouseEventKind::ScrollDown,
        column: 5,
        row: 5,
        modifiers: KeyModifiers::NONE,
    });
    assert_eq!(p.handle_event(&wheel), None);
    assert_eq!(p.selected, 1);
}
