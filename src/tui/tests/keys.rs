//! Driving the terminal game with keys and clicks, and checking what the players see.

use crate::rules::{Color, DrawReason, Outcome, Position, WinReason};
use crate::session::PlayerKind;
use crate::tui::Flow;
use crate::tui::app::Mode;
use crate::tui::geometry::screen_layout;
use crate::tui::tests::*;
use crate::tui::{App, Settings};
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers,
};

const OPENING: [&str; 6] = ["11-15", "22-18", "15x22", "25x18", "8-11", "29-25"];

#[test]
fn a_game_played_with_the_cursor_equals_the_same_game_typed() {
    let mut typed = app();
    for m in OPENING {
        type_move(&mut typed, m);
        assert_eq!(typed.mode, Mode::Board, "{m}: {}", message(&typed));
    }
    let mut by_cursor = app();
    for m in OPENING {
        let squares: Vec<u8> = m.split(['-', 'x']).map(|s| s.parse().unwrap()).collect();
        cursor_move(&mut by_cursor, &squares);
    }
    assert_eq!(typed.game().moves().len(), OPENING.len());
    assert_eq!(by_cursor.game().position(), typed.game().position());
    assert_eq!(by_cursor.game().movetext(), typed.game().movetext());
    assert_eq!(
        typed.game().movetext(),
        "1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25"
    );
    // The move list is on screen.
    let screen = screen_text(&typed);
    assert!(screen.contains("3. 8-11     29-25"), "{screen}");
}

#[test]
fn a_refused_typed_move_keeps_its_text_and_says_why() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "11-17");
    assert_eq!(app.game().position(), &Position::start());
    assert_eq!(app.mode, Mode::Prompt("11-17".to_string()));
    assert!(!message(&app).is_empty());
    // Edit the text in place and play it.
    press(&mut app, KeyCode::Backspace);
    type_move(&mut app, "6");
    assert_eq!(app.mode, Mode::Board);
    assert_eq!(app.game().movetext(), "1. 11-16");
}

#[test]
fn a_letter_and_a_digit_start_a_move_in_letters() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "11-15");
    // White's c3-d4 is 22-18: not a draw claim, nor c and then "3-d4".
    type_move(&mut app, "c3-d4");
    assert_eq!(app.mode, Mode::Board, "{}", message(&app));
    assert_eq!(app.game().result(), None);
    // e has no command: it opens the prompt with itself.
    press(&mut app, KeyCode::Char('e'));
    assert_eq!(app.mode, Mode::Prompt("e".to_string()));
    type_move(&mut app, "5xc3");
    // b asks about handing Black to the computer; the digit takes the question back.
    press(&mut app, KeyCode::Char('b'));
    assert!(matches!(app.mode, Mode::Asking(_)));
    type_text(&mut app, "2xd4");
    assert_eq!(app.mode, Mode::Prompt("b2xd4".to_string()));
    press(&mut app, KeyCode::Enter);
    // g (no file of games here), a (coordinates) and f (flip) are put back as they were.
    type_move(&mut app, "g7-f6");
    type_move(&mut app, "a1b2");
    type_move(&mut app, "f6 e5");
    assert_eq!(
        app.game().movetext(),
        "1. 11-15 22-18 2. 15x22 25x18 3. 8-11 29-25 4. 11-15"
    );
    assert!(!app.board.flipped && !app.board.coordinates);
    assert_eq!(app.session().seats().black.kind(), PlayerKind::Human);
    // Alone, f still flips the board.
    press(&mut app, KeyCode::Char('f'));
    assert!(app.board.flipped);
    // A letter's command and then a move in numbers: a1 holds no piece of Black's, so
    // the 1 starts 11-15 rather than a square.
    let mut app = crate::tui::tests::app();
    press(&mut app, KeyCode::Char('a'));
    assert!(app.board.coordinates);
    type_move(&mut app, "11-15");
    assert!(app.board.coordinates);
    assert_eq!(app.game().movetext(), "1. 11-15", "{}", message(&app));
}

#[test]
fn the_move_list_shows_whole_capture_routes_and_the_status_line_a_crowning() {
    let mut app = app_from("W:W22,6:B18,11,3");
    type_move(&mut app, "22x8");
    let screen = screen_text(&app);
    assert!(screen.contains("1. ...      22x15x8"), "{screen}");
    assert_eq!(
        app.game().movetext(),
        "1. ... 22x8",
        "records keep the short form"
    );
    type_move(&mut app, "3x12");
    type_move(&mut app, "6-1");
    assert_eq!(
        message(&app),
        "White played 6-1, crowned: now a king, it moves both ways"
    );
}

#[test]
fn the_players_names_are_on_screen_where_their_sides_are() {
    use crate::game::Game;
    use crate::pdn::Players;
    use crate::session::{Session, TimeControl};
    use crate::tui::{App, Settings};
    let control: TimeControl = "G/5".parse().unwrap();
    let session = Session::new(Game::new())
        .with_names(Players {
            black: Some("Ann".to_string()),
            white: Some("Bob".to_string()),
        })
        .with_clock(control, std::time::Instant::now());
    let mut app = App::with_session(Settings::default(), session, 100, 30);
    let screen = screen_text(&app);
    assert!(screen.contains("Ann (Black) v Bob (White)"), "{screen}");
    assert!(screen.contains("Black \u{25b6}    5:00  Ann"), "{screen}");
    assert!(screen.contains("White      5:00  Bob"), "{screen}");
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Char('b'));
    assert!(
        screen_text(&app).contains("Game over: Bob wins"),
        "{}",
        screen_text(&app)
    );
}

#[test]
fn the_game_is_browsed_without_undoing_and_a_move_returns_to_it() {
    let mut app = crate::tui::tests::app();
    for m in ["11-15", "23-19", "8-11", "22-17"] {
        type_move(&mut app, m);
    }
    let live = app.game().clone();
    type_text(&mut app, "<<");
    assert_eq!(app.panel.browse, Some(2));
    assert_eq!(app.shown_position(), &app.game().positions()[2]);
    assert_eq!(app.game(), &live, "nothing undone");
    assert!(
        // In the move list's numbers: White's 23-19 is move 1 of the list's 2, not ply 2.
        message(&app).starts_with("After move 1 (White's 23-19) of 2: < > step"),
        "{}",
        message(&app)
    );
    let screen = screen_text(&app);
    assert!(
        screen.contains("Shown: move 1 (White's 23-19) of 2"),
        "{screen}"
    );
    // Esc goes back to the game as it stands.
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.panel.browse, None);
    assert_eq!(app.shown_position(), app.position());
    // Stepping on past the last move returns too; a move played returns at once.
    type_text(&mut app, "<>");
    assert_eq!(app.panel.browse, None);
    // Home shows the start, End the game as it stands.
    press(&mut app, KeyCode::Home);
    assert_eq!(app.panel.browse, Some(0));
    assert_eq!(app.shown_position(), app.game().start());
    press(&mut app, KeyCode::End);
    assert_eq!(app.panel.browse, None);
    type_text(&mut app, "<<<");
    type_move(&mut app, "9-14");
    assert_eq!(app.panel.browse, None);
    assert_eq!(app.game().moves().len(), 5);
}

#[test]
fn moves_typed_with_a_space_a_full_stop_or_as_four_digits() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "11 15");
    type_move(&mut app, "2318");
    type_move(&mut app, "8.11");
    assert_eq!(
        app.game().movetext(),
        "1. 11-15 23-18 2. 8-11",
        "{}",
        message(&app)
    );
}

#[test]
fn a_refused_move_hands_the_keys_back() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "12-13");
    assert!(matches!(app.mode, Mode::Prompt(_)));
    // q asks to quit (a game has not started: it quits at once) rather than typing q.
    type_move(&mut app, "11-15");
    type_move(&mut app, "22-25");
    assert_eq!(app.mode, Mode::Prompt("22-25".to_string()));
    press(&mut app, KeyCode::Char('q'));
    assert!(matches!(app.mode, Mode::Asking(_)), "{:?}", app.mode);
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.mode, Mode::Board);
    // u undoes at once after a refusal.
    type_move(&mut app, "22-25");
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.mode, Mode::Board);
    assert!(app.game().moves().is_empty());
}

#[test]
fn after_a_refusal_the_next_move_typed_replaces_the_old_text() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "12-13");
    assert_eq!(app.mode, Mode::Prompt("12-13".to_string()));
    assert!(screen_text(&app).contains("type a new move"));
    // Not "12-1311-15": the refused text goes as the new move is typed.
    type_move(&mut app, "11-15");
    assert_eq!(app.mode, Mode::Board, "{}", message(&app));
    assert_eq!(app.game().movetext(), "1. 11-15");
    // Esc drops a refused move altogether.
    type_move(&mut app, "21-17x");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Board);
    press(&mut app, KeyCode::Char('2'));
    assert_eq!(app.mode, Mode::Prompt("2".to_string()));
}

#[test]
fn skipping_a_compulsory_capture_is_refused_with_the_allowed_captures() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "11-15");
    type_move(&mut app, "22-18");
    let before = *app.game().position();
    type_move(&mut app, "9-13");
    assert_eq!(app.game().position(), &before);
    let reason = message(&app);
    assert!(reason.contains("15x22"), "{reason}");
    assert!(screen_text(&app).contains("15x22"));
    // With the cursor: the man on 9 cannot move and says why.
    press(&mut app, KeyCode::Esc);
    cursor_move(&mut app, &[9]);
    assert!(app.board.pick.is_none());
    let reason = message(&app);
    assert!(
        reason.contains("compulsory") && reason.contains("15x22"),
        "{reason}"
    );
    assert!(screen_text(&app).contains("Must capture (!): 15"));
}

#[test]
fn refused_cursor_choices_explain_themselves() {
    let mut app = crate::tui::tests::app();
    cursor_move(&mut app, &[22]);
    assert!(message(&app).contains("not yours"), "{}", message(&app));
    cursor_move(&mut app, &[14]);
    assert!(message(&app).contains("No piece on 14"));
    cursor_move(&mut app, &[1]);
    assert!(
        message(&app).contains("has no legal move"),
        "{}",
        message(&app)
    );
    // A light square.
    app.board.cursor = (0, 1);
    press(&mut app, KeyCode::Enter);
    assert!(message(&app).contains("Light square"));
    // A picked-up piece refuses a square it cannot reach (the cursor keys keep to its
    // landing squares; a click can go anywhere).
    cursor_move(&mut app, &[11]);
    click_square(&mut app, sq(18));
    assert!(app.board.pick.is_some());
    assert!(message(&app).contains("Cannot land on 18"));
    assert_eq!(app.game().position(), &Position::start());
}

#[test]
fn a_game_opened_with_a_move_to_make_says_a_piece_can_be_clicked() {
    // A resumed game, a position set up: the first words say how to move, mouse too.
    for fen in ["W:W21,22:B9,10", "B:W21,22:B9,10"] {
        let app = app_from(fen);
        let said = message(&app);
        assert!(said.contains("to move"), "{fen}: {said}");
        assert!(said.contains("(or click it)"), "{fen}: {said}");
    }
}

#[test]
fn a_refused_landing_says_which_rule_refuses_it() {
    // Each refusal names the rule, then where the piece may land; nothing is played.
    let refused = |fen: &str, clicks: &[u8], rule: &str| {
        let mut app = app_from(fen);
        for square in clicks {
            click_square(&mut app, sq(*square));
        }
        let said = message(&app);
        assert!(said.contains(rule), "{fen} {clicks:?}: {said}");
        assert!(app.board.pick.is_some(), "{said}");
        assert!(app.game().moves().is_empty(), "{said}");
    };
    refused(
        "B:W30:B15",
        &[15, 11],
        "a man moves only forward, toward White's side (a king, made on the far row, \
         moves back too). Land on 18 or 19",
    );
    refused("B:W19,24:B15", &[15, 19], "19 is taken");
    refused("B:W30:B15", &[15, 16], "one square diagonally");
    refused(
        "B:W14:B9",
        &[9, 13],
        "a capture is compulsory, so this piece must jump. Land on 18",
    );
    refused(
        "B:W14:B9",
        &[9, 14],
        "jump over it to the empty square beyond",
    );
    refused("B:W14,22:B9", &[9, 18, 22], "jump over it");
    refused("B:W14,22:B9", &[9, 18, 23], "the capture goes on");
}

#[test]
fn a_multi_jump_is_built_hop_by_hop_and_stepped_back() {
    let mut app = app_from("B:W6,7,14,15:B2");
    cursor_move(&mut app, &[2]);
    assert_eq!(app.board.targets(app.position()), vec![sq(9), sq(11)]);
    cursor_move(&mut app, &[9]);
    assert!(app.game().moves().is_empty(), "not played until complete");
    assert_eq!(app.board.targets(app.position()), vec![sq(18)]);
    assert_eq!(app.board.jumped_so_far(), vec![sq(6)]);
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.board.targets(app.position()), vec![sq(9), sq(11)]);
    cursor_move(&mut app, &[11, 18]);
    assert_eq!(app.game().movetext(), "1. 2x11x18");
    // Esc twice from a picked piece puts it down.
    let mut app = app_from("B:W6,7,14,15:B2");
    cursor_move(&mut app, &[2, 9]);
    press(&mut app, KeyCode::Backspace);
    press(&mut app, KeyCode::Backspace);
    assert!(app.board.pick.is_none());
}

#[test]
fn clicks_pick_up_and_land_like_the_cursor() {
    let mut app = crate::tui::tests::app();
    let layout = screen_layout(app.screen, app.board.flipped).unwrap();
    let at = |n: u8| {
        let r = layout.board.square_rect(sq(n));
        (r.x + 1, r.y + 1)
    };
    let (x, y) = at(11);
    click(&mut app, x, y);
    assert!(app.board.pick.is_some());
    let (x, y) = at(15);
    click(&mut app, x, y);
    assert_eq!(app.game().movetext(), "1. 11-15");
    // A click outside the board does nothing.
    click(&mut app, 79, 0);
    assert_eq!(app.game().moves().len(), 1);
    // With --no-mouse, clicks mean nothing.
    app.mouse = false;
    let (x, y) = at(22);
    click(&mut app, x, y);
    assert!(app.board.pick.is_none());
}

#[test]
fn clicks_follow_the_flipped_board() {
    let mut app = crate::tui::tests::app();
    press(&mut app, KeyCode::Char('f'));
    let layout = screen_layout(app.screen, true).unwrap();
    for n in [11, 15] {
        let r = layout.board.square_rect(sq(n));
        click(&mut app, r.x + 2, r.y);
    }
    assert_eq!(app.game().movetext(), "1. 11-15");
}

#[test]
fn undo_and_redo_any_number_of_moves() {
    let mut app = crate::tui::tests::app();
    for m in OPENING {
        type_move(&mut app, m);
    }
    let full = app.game().clone();
    for _ in 0..OPENING.len() {
        press(&mut app, KeyCode::Char('u'));
    }
    assert_eq!(app.game().position(), &Position::start());
    press(&mut app, KeyCode::Char('u'));
    assert!(message(&app).contains("Nothing to take back"));
    for _ in 0..3 {
        press(&mut app, KeyCode::Char('U'));
    }
    for _ in 0..3 {
        ctrl(&mut app, 'r');
    }
    assert_eq!(app.game(), &full);
}

#[test]
fn flip_turns_the_board_and_keeps_numbers_with_squares() {
    let mut app = crate::tui::tests::app();
    press(&mut app, KeyCode::Char('f'));
    assert!(app.board.flipped);
    let screen = screen_text(&app);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[0].contains("Black") && lines[19].contains("White"));
    // Square 4 is now at the top right, 29 at the bottom left.
    assert!(
        lines[2].starts_with("│      1") && lines[2].contains("4   │"),
        "{screen}"
    );
    assert!(lines[16].starts_with("│29"), "{screen}");
    // Cursor keys follow the screen: Up now moves toward Black's side.
    let before = app.board.cursor;
    press(&mut app, KeyCode::Up);
    assert_eq!(app.board.cursor.0, before.0 - 1);
    press(&mut app, KeyCode::Char('f'));
    assert!(!app.board.flipped);
}

#[test]
fn an_agreed_draw_is_taken_back_by_both_and_redone() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('y'));
    press(&mut app, KeyCode::Char('y'));
    let drawn = Some(Outcome::Draw {
        reason: DrawReason::Agreement,
    });
    assert_eq!(app.game().result(), drawn);
    // One player alone does not cancel it: the other is asked.
    press(&mut app, KeyCode::Char('u'));
    assert!(
        screen_text(&app).contains("Take back the agreed draw and play on? Both players agree"),
        "{}",
        screen_text(&app)
    );
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.game().result(), drawn);
    press(&mut app, KeyCode::Char('u'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(app.game().result(), None);
    assert!(message(&app).starts_with("Took back the end of the game"));
    // Redo puts the draw back.
    press(&mut app, KeyCode::Char('U'));
    assert_eq!(app.game().result(), drawn, "{}", message(&app));
    assert_eq!(
        message(&app),
        "Put back the end of the game. Draw by agreement."
    );
    assert_eq!(app.game().movetext(), "1. 11-15");
}

#[test]
fn resigning_asks_who_and_ends_the_game() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('r'));
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.game().result(), None);
    press(&mut app, KeyCode::Char('r'));
    assert!(screen_text(&app).contains("Who resigns?"));
    press(&mut app, KeyCode::Char('w'));
    let over = Outcome::Win {
        winner: Color::Black,
        reason: WinReason::Resignation,
    };
    assert_eq!(app.game().result(), Some(over));
    let screen = screen_text(&app);
    assert!(screen.contains("Game over") && screen.contains("Black wins: White resigned"));
    assert!(screen.contains("1. 11-15"), "the move list stays");
    // The footer offers what can be done now: undo the ending, or a new game.
    let footer = screen.lines().nth(22).unwrap_or_default();
    assert!(
        footer.contains("u undo") && footer.contains("n new game"),
        "{footer}"
    );
    assert!(
        !footer.contains("pick") && !footer.contains("type"),
        "{footer}"
    );
    // No more moves; undo brings the game back.
    type_move(&mut app, "23-19");
    assert_eq!(app.game().moves().len(), 1);
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.game().result(), None);
}

#[test]
fn a_draw_offer_can_be_declined_or_accepted() {
    let mut app = crate::tui::tests::app();
    // The offer is asked first: n takes it back before it is made.
    press(&mut app, KeyCode::Char('d'));
    assert!(screen_text(&app).contains("Offer White a draw? y yes  n no"));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.game().draw_offer(), None);
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('y'));
    assert!(screen_text(&app).contains("Black offers a draw. White, accept?"));
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.game().result(), None);
    assert!(message(&app).contains("declines"));
    press(&mut app, KeyCode::Char('d'));
    press(&mut app, KeyCode::Char('y'));
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(
        app.game().result(),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
    assert!(screen_text(&app).contains("Draw by agreement"));
}

#[test]
fn a_draw_claim_is_shown_when_available_and_ends_the_game() {
    let mut app = app_from("B:WK32:BK1");
    press(&mut app, KeyCode::Char('c'));
    assert_eq!(app.game().result(), None, "no claim yet");
    for m in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"] {
        assert!(!screen_text(&app).contains("Draw claim available"));
        type_move(&mut app, m);
    }
    let screen = screen_text(&app);
    assert!(
        screen.contains("Draw claim available (repetition): c"),
        "{screen}"
    );
    press(&mut app, KeyCode::Char('c'));
    assert!(
        screen_text(&app).contains("Claim a draw by repetition? It ends the game."),
        "{}",
        screen_text(&app)
    );
    press(&mut app, KeyCode::Char('y'));
    assert_eq!(
        app.game().result(),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition
        })
    );
}

#[test]
fn winning_by_capturing_the_last_piece_is_announced() {
    let mut app = app_from("B:W14:B10");
    type_move(&mut app, "10x17");
    let screen = screen_text(&app);
    assert!(
        screen.contains("Black wins: White has no pieces left"),
        "{screen}"
    );
    press(&mut app, KeyCode::Enter);
    assert!(message(&app).contains("over"));
    // The game is over: a new game starts without asking to abandon it.
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.game().position(), &Position::start());
}

#[test]
fn quit_asks_only_with_a_game_in_progress_and_ctrl_c_always_quits() {
    let mut app = crate::tui::tests::app();
    let quit = Some(Flow::Quit);
    assert_eq!(
        press(&mut app, KeyCode::Char('q')),
        quit,
        "nothing to lose at the start"
    );
    let mut app = app_from("B:W21-32:B1-12");
    type_move(&mut app, "9-13");
    assert_ne!(press(&mut app, KeyCode::Char('q')), quit);
    assert_ne!(press(&mut app, KeyCode::Char('n')), quit);
    press(&mut app, KeyCode::Char('q'));
    assert_eq!(press(&mut app, KeyCode::Char('y')), quit);
    for setup in ["?", "1", "r", "d"] {
        let mut app = crate::tui::tests::app();
        type_text(&mut app, setup);
        assert_eq!(ctrl(&mut app, 'c'), quit, "Ctrl-C after {setup}");
    }
}

#[test]
fn key_releases_and_repeats_are_ignored() {
    let mut app = crate::tui::tests::app();
    for kind in [KeyEventKind::Release, KeyEventKind::Repeat] {
        let event = Event::Key(KeyEvent {
            code: KeyCode::Up,
            modifiers: KeyModifiers::NONE,
            kind,
            state: KeyEventState::NONE,
        });
        assert_eq!(app.handle_event(&event), None);
    }
    assert_eq!(app.board.cursor, (2, 2));
}

#[test]
fn help_opens_and_any_key_closes_it() {
    let mut app = crate::tui::tests::app();
    press(&mut app, KeyCode::Char('?'));
    assert!(screen_text(&app).contains("compulsory"));
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.mode, Mode::Board);
    assert_eq!(app.game().position(), &Position::start());
}

#[test]
fn a_small_terminal_says_what_size_is_needed_and_only_quit_acts() {
    let mut app = crate::tui::tests::app();
    app.handle_event(&Event::Resize(25, 20));
    assert!(screen_text(&app).contains("need 26x11"));
    // Keys do nothing to a game that cannot be seen...
    for key in ['1', '1', '-', '1', '5'] {
        press(&mut app, KeyCode::Char(key));
    }
    press(&mut app, KeyCode::Enter);
    press(&mut app, KeyCode::Char('u'));
    assert_eq!(app.mode, Mode::Board);
    assert!(app.game().moves().is_empty());
    app.handle_event(&Event::Resize(80, 24));
    assert!(screen_text(&app).contains("Black to move"));
    // ...except quitting.
    app.handle_event(&Event::Resize(20, 5));
    assert_eq!(press(&mut app, KeyCode::Char('q')), Some(Flow::Quit));
}

#[test]
fn a_new_game_after_the_end_starts_at_once_without_asking_to_abandon() {
    let mut app = crate::tui::tests::app_from("W:W22:B18");
    type_move(&mut app, "22x15");
    assert!(app.game().is_over());
    press(&mut app, KeyCode::Char('n'));
    assert_eq!(app.mode, Mode::Board, "no question: the game was over");
    assert!(app.game().moves().is_empty());
    assert_eq!(app.position(), &Position::start());
    // A game in progress is not abandoned without asking.
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('n'));
    assert!(matches!(app.mode, Mode::Asking(_)));
}

#[test]
fn after_a_loss_on_time_the_footer_offers_no_undo_or_redo() {
    let t0 = std::time::Instant::now();
    let mut session = crate::session::Session::new(crate::game::Game::new())
        .with_clock("G/1".parse().unwrap(), t0);
    session.tick(t0 + std::time::Duration::from_secs(60));
    assert!(session.flag_fell());
    let mut app = App::with_session(Settings::default(), session, 80, 24);
    let screen = screen_text(&app);
    assert!(
        screen.contains("White wins: Black lost on time"),
        "{screen}"
    );
    let footer = screen.lines().nth(22).unwrap_or_default();
    // The ending stands, so only what works is offered: a new game.
    assert!(footer.contains("n new game"), "{footer}");
    assert!(
        !footer.contains("undo") && !footer.contains("redo"),
        "{footer}"
    );
    press(&mut app, KeyCode::Char('u'));
    assert!(app.game().is_over(), "u still does nothing");
}

#[test]
fn the_new_game_question_says_the_game_in_progress_stays_saved_for_resume() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "11-15");
    press(&mut app, KeyCode::Char('n'));
    let text = screen_text(&app);
    // Not "abandon": that is what the resume picker's `a` does, and this game is kept.
    assert!(
        text.contains("New game? This one stays saved; checkers --resume offers it."),
        "{text}"
    );
    assert!(!text.contains("Abandon"), "{text}");
}

#[test]
fn from_a_fen_the_cursor_starts_on_a_piece_that_can_move_nearest_the_usual_square() {
    // 11 empty: Black's man on 12 is the nearest with a move (9 and 14 are farther).
    let app = app_from("B:W18,22,23,24:B9,12,14");
    assert_eq!(app.board.cursor_square(), Some(sq(12)));
    // A capture is compulsory: the man that must take, not the one on 11 itself.
    let app = app_from("B:W18:B14,11,1");
    assert_eq!(app.board.cursor_square(), Some(sq(14)));
    // White to move with 22 empty: its man on 25, nearest 22, with a move.
    let app = app_from("W:W21,25,30:B5");
    assert_eq!(app.board.cursor_square(), Some(sq(25)));
    // The side not to move finds its own cursor on its piece once it is its turn.
    let mut app = app_from("B:W25,30:B11");
    assert_eq!(app.board.cursor_square(), Some(sq(11)));
    type_move(&mut app, "11-15");
    assert_eq!(app.board.cursor_square(), Some(sq(25)));
    // A man that cannot move is passed over for one that can, however near.
    let app = app_from("B:W15,16,18,20:B11,1");
    assert_eq!(app.board.cursor_square(), Some(sq(1)));
    // The usual squares at the start, as ever.
    assert_eq!(crate::tui::tests::app().board.cursor_square(), Some(sq(11)));
}

#[test]
fn each_side_finds_its_cursor_where_it_left_it() {
    let mut app = crate::tui::tests::app();
    assert_eq!(
        app.board.cursor_square(),
        Some(sq(11)),
        "Black starts on 11"
    );
    cursor_move(&mut app, &[11, 15]);
    assert_eq!(app.game().movetext(), "1. 11-15");
    assert_eq!(
        app.board.cursor_square(),
        Some(sq(22)),
        "White starts on 22"
    );
    cursor_move(&mut app, &[22, 18]);
    assert_eq!(
        app.board.cursor_square(),
        Some(sq(15)),
        "Black's cursor is where Black left it, not on White's piece"
    );
}

#[test]
fn a_person_playing_white_against_the_computer_sits_at_the_bottom() {
    use crate::session::{Player, Seats, Session};
    let seats = Seats {
        black: Player::Computer(crate::engine::Level::MIN),
        white: Player::Person,
    };
    let session = || Session::new(crate::game::Game::new()).with_seats(seats);
    let app = App::with_session(Settings::default(), session(), WIDTH, HEIGHT);
    assert!(app.board.flipped, "White at the bottom");
    // --flip turns it back.
    let flipped = Settings {
        flipped: true,
        ..Settings::default()
    };
    assert!(
        !App::with_session(flipped, session(), WIDTH, HEIGHT)
            .board
            .flipped
    );
}

#[test]
fn coordinates_name_the_squares_the_algebraic_way_whichever_way_the_board_turns() {
    for flip in [false, true] {
        let mut app = crate::tui::tests::app();
        if flip {
            press(&mut app, KeyCode::Char('f'));
        }
        press(&mut app, KeyCode::Char('a'));
        assert!(app.board.coordinates);
        let terminal = render(&app);
        let buf = terminal.backend().buffer();
        let board = screen_layout(app.screen, app.board.flipped).unwrap().board;
        // a1 is square 29, h8 square 4.
        for (square, file, rank) in [(29, "a", "1"), (4, "h", "8"), (1, "b", "8")] {
            let r = board.square_rect(sq(square));
            let below = buf[(r.x + r.width / 2, board.frame.bottom() - 1)].symbol();
            let beside = buf[(board.frame.x, r.y + r.height / 2)].symbol();
            assert_eq!(
                (below, beside),
                (file, rank),
                "square {square}, flipped {flip}"
            );
        }
        press(&mut app, KeyCode::Char('a'));
        assert!(!app.board.coordinates);
    }
}

#[test]
fn the_move_list_scrolls_back_to_the_first_move() {
    let mut app = crate::tui::tests::app_from("B:WK32:BK1");
    for _ in 0..10 {
        for m in ["1-5", "32-28", "5-1", "28-32"] {
            type_move(&mut app, m);
        }
    }
    assert!(
        !screen_text(&app).contains("  1. 1-5"),
        "the first move scrolled away"
    );
    for _ in 0..5 {
        press(&mut app, KeyCode::PageUp);
    }
    let screen = screen_text(&app);
    assert!(screen.contains("  1. 1-5"), "{screen}");
    assert!(screen.contains("PgDn for the latest"), "{screen}");
    for _ in 0..5 {
        press(&mut app, KeyCode::PageDown);
    }
    assert!(
        screen_text(&app).contains(" 20. 5-1"),
        "{}",
        screen_text(&app)
    );
}

#[test]
fn a_move_in_letters_is_typed_after_a_colon_as_the_help_says() {
    let mut app = crate::tui::tests::app();
    let name = |n: u8| sq(n).algebraic();
    // 11-15 in letters: the help and the README say ":" opens the prompt for it.
    press(&mut app, KeyCode::Char(':'));
    type_move(&mut app, &format!("{}-{}", name(11), name(15)));
    assert_eq!(app.game().movetext(), "1. 11-15", "{}", message(&app));
    // Without the colon a letter is a command key, not the start of a move.
    press(&mut app, KeyCode::Char('f'));
    assert!(app.board.flipped);
}

#[test]
fn browsing_speaks_of_the_move_lists_numbers_in_the_status_and_the_panel() {
    let mut app = crate::tui::tests::app();
    // 1. 11-15 23-19 2. 8-11 22-17 3. 4-8 17-13: six plies, three numbered moves.
    for m in ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13"] {
        type_move(&mut app, m);
    }
    type_text(&mut app, "<");
    assert_eq!(
        message(&app),
        "After move 3 (Black's 4-8) of 3: < > step, Esc or a move returns to the game"
    );
    assert!(
        screen_text(&app).contains("Shown: move 3 (Black's 4-8) of 3"),
        "{}",
        screen_text(&app)
    );
    type_text(&mut app, "<<<<<");
    assert_eq!(
        message(&app),
        "The start, before 3 moves: < > step, Esc or a move returns to the game"
    );
}

#[test]
fn a_long_capture_keeps_whites_moves_in_one_column() {
    let mut app = crate::tui::tests::app_from("B:W10,11,18,19,30:BK7");
    for m in ["7x14x23x16x7", "30-26", "7-10", "26-22"] {
        type_move(&mut app, m);
    }
    let screen = screen_text(&app);
    let column = |black: &str, white: &str| {
        let line = screen
            .lines()
            .find(|l| l.contains(black))
            .unwrap_or_else(|| panic!("no line with {black}: {screen}"));
        let start = line.find(black).unwrap();
        line[start..].find(white).map(|i| start + i).unwrap()
    };
    assert_eq!(
        column("1. 7x14x23x16x7", "30-26"),
        column("2. 7-10", "26-22"),
        "{screen}"
    );
}

#[test]
fn the_chat_line_edits_as_every_typed_field_does() {
    use crate::tui::app::Mode;
    use crate::tui::field::TextField;
    let mut app = app();
    // The line `'` opens at a table across the network, set up here without one.
    app.mode = Mode::Chat(TextField::new("", crate::net::protocol::MAX_CHAT_CHARS));
    let chat = |app: &App| match &app.mode {
        Mode::Chat(field) => field.text.clone(),
        mode => panic!("the chat line closed: {mode:?}"),
    };
    type_text(&mut app, "well plyed");
    // A Ctrl-letter never types (nor acts on the board); Ctrl-U clears.
    for c in ['a', 'e', 'w', 'k', 'r', 's'] {
        ctrl(&mut app, c);
    }
    assert_eq!(chat(&app), "well plyed");
    // Left and Home move where typing goes; Delete takes the character under it.
    for _ in 0..3 {
        press(&mut app, KeyCode::Left);
    }
    type_text(&mut app, "a");
    assert_eq!(chat(&app), "well played");
    press(&mut app, KeyCode::Home);
    type_text(&mut app, "W");
    press(&mut app, KeyCode::Delete);
    press(&mut app, KeyCode::End);
    type_text(&mut app, "!");
    assert_eq!(chat(&app), "Well played!");
    let screen = screen_text(&app);
    assert!(screen.contains("Say: Well played!"), "{screen}");
    assert!(screen.contains("Ctrl-U clear"), "{screen}");
    ctrl(&mut app, 'u');
    assert_eq!(chat(&app), "");
    type_text(&mut app, "gg");
    assert_eq!(chat(&app), "gg");
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Board);
}

/// The chat line's row (the one that starts "Say: ") of `screen`.
pub(crate) fn chat_row(screen: &str) -> String {
    screen
        .lines()
        .find(|line| line.trim_start().starts_with("Say: "))
        .unwrap_or_else(|| panic!("no chat line: {screen}"))
        .to_string()
}

#[test]
fn a_long_chat_line_scrolls_at_80_columns_so_what_is_typed_stays_in_view() {
    use crate::tui::app::Mode;
    use crate::tui::field::TextField;
    let mut app = app();
    app.mode = Mode::Chat(TextField::new("", crate::net::protocol::MAX_CHAT_CHARS));
    // 200 characters: the start, a long middle, and the end being typed.
    let text = format!("START{}the end!", "-".repeat(187));
    type_text(&mut app, &text);
    let row = chat_row(&screen_text(&app));
    assert!(row.contains("the end!"), "what is typed is in view: {row}");
    assert!(
        row.contains('\u{2026}'),
        "the text cut before is marked: {row}"
    );
    assert!(
        row.contains("Enter send"),
        "the keys keep their place: {row}"
    );
    // Home: the start comes back in view, the rest marked as cut.
    press(&mut app, KeyCode::Home);
    let row = chat_row(&screen_text(&app));
    assert!(row.contains("Say: START--"), "{row}");
    assert!(!row.contains("the end!"), "{row}");
    // Typing at the start goes where it is seen.
    type_text(&mut app, ">>");
    let row = chat_row(&screen_text(&app));
    assert!(row.contains("Say: >>START--"), "{row}");
}

#[test]
fn a_key_that_does_nothing_on_the_board_says_so_and_names_it() {
    let mut app = crate::tui::tests::app();
    for (event, name) in [
        (key_event(KeyCode::Char('i'), KeyModifiers::NONE), "i"),
        (key_event(KeyCode::Char('X'), KeyModifiers::SHIFT), "X"),
        (
            key_event(KeyCode::Char('x'), KeyModifiers::CONTROL),
            "Ctrl-X",
        ),
        (key_event(KeyCode::F(5), KeyModifiers::NONE), "F5"),
        (key_event(KeyCode::Insert, KeyModifiers::NONE), "Insert"),
    ] {
        assert!(app.handle_event(&event).is_some(), "{name} is answered");
        assert_eq!(
            message(&app),
            format!("The key {name} does nothing here; ? shows every key")
        );
        assert!(screen_text(&app).contains("? shows every key"), "{name}");
    }
    assert_eq!(app.game().position(), &Position::start());
    assert_eq!(app.mode, Mode::Board);
    // In a question the question's own line says which keys answer it.
    press(&mut app, KeyCode::Char('r'));
    assert!(matches!(app.mode, Mode::Asking(_)));
    let asked = screen_text(&app);
    press(&mut app, KeyCode::Char('i'));
    assert!(matches!(app.mode, Mode::Asking(_)));
    assert!(!message(&app).contains("does nothing"), "{}", message(&app));
    assert_eq!(screen_text(&app), asked);
}

#[test]
fn tab_goes_round_the_landing_squares_and_keeps_saying_where_to_land() {
    let mut app = crate::tui::tests::app();
    // Without a piece picked up, Tab says what it is for.
    press(&mut app, KeyCode::Tab);
    assert!(
        message(&app).contains("Enter picks one up"),
        "{}",
        message(&app)
    );
    cursor_move(&mut app, &[11]);
    let hint = message(&app);
    assert!(hint.starts_with("Land on 15 or 16"), "{hint}");
    let first = app.board.cursor_square();
    press(&mut app, KeyCode::Tab);
    assert_ne!(
        app.board.cursor_square(),
        first,
        "Tab went to the other square"
    );
    assert_eq!(message(&app), hint, "the landing hint stays");
    press(&mut app, KeyCode::Tab);
    assert_eq!(app.board.cursor_square(), first);
    press(&mut app, KeyCode::Left);
    assert_eq!(message(&app), hint, "so it does for the arrows among them");
    assert!(screen_text(&app).contains("Land on 15 or 16"));
}

#[test]
fn shift_tab_goes_round_the_landing_squares_the_other_way() {
    // A king on 14 lands on 9, 10, 17 or 18.
    let mut app = app_from("B:W32:BK14");
    // Without a piece picked up, Shift-Tab says what it is for, as Tab does.
    press(&mut app, KeyCode::BackTab);
    assert!(
        message(&app).starts_with("Shift-Tab goes to the previous landing square")
            && message(&app).contains("Enter picks one up"),
        "{}",
        message(&app)
    );
    cursor_move(&mut app, &[14]);
    let hint = message(&app);
    assert!(hint.starts_with("Land on "), "{hint}");
    // The cursor is on one landing square: Shift-Tab goes round them backwards, Tab
    // forwards, in the order of their numbers.
    let targets = [9, 10, 17, 18];
    let start = app.board.cursor_square().unwrap().number();
    let at = targets.iter().position(|t| *t == start).unwrap();
    let mut back = Vec::new();
    for _ in 0..4 {
        press(&mut app, KeyCode::BackTab);
        back.push(app.board.cursor_square().unwrap().number());
    }
    let expected: Vec<u8> = (1..=4).map(|i| targets[(at + 4 - i) % 4]).collect();
    assert_eq!(back, expected);
    press(&mut app, KeyCode::BackTab);
    let mut on = Vec::new();
    for _ in 0..5 {
        press(&mut app, KeyCode::Tab);
        on.push(app.board.cursor_square().unwrap().number());
    }
    let expected: Vec<u8> = (0..5).map(|i| targets[(at + i) % 4]).collect();
    assert_eq!(on, expected);
    assert_eq!(message(&app), hint, "the landing hint stays");
    // The help names it where it names Tab.
    press(&mut app, KeyCode::Esc);
    press(&mut app, KeyCode::Char('?'));
    let help = screen_text(&app);
    assert!(help.contains("Tab Shift-Tab cycle landings"), "{help}");
}

#[test]
fn a_typed_move_off_the_diagonals_is_refused_in_the_words_plain_mode_uses() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "10-14");
    type_move(&mut app, "22-17");
    type_move(&mut app, "14-19");
    assert_eq!(app.mode, Mode::Prompt("14-19".to_string()));
    let said = message(&app);
    assert!(
        said.ends_with("14 and 19 are not on one diagonal; the man on 14 can play 14-18"),
        "{said}"
    );
}

#[test]
fn a_notice_given_at_the_start_is_read_before_the_unfinished_games_note() {
    let mut app = app();
    let notice = "--level 3 sets the computer's strength, but no computer plays this game: \
                  --white cpu (or --black cpu) plays the computer; during the game b or w \
                  hands it a side at that level";
    app.notify_first(crate::tui::app::Tone::Error, notice);
    // The first poll finds an unfinished game in the data folder.
    app.on_event(crate::runtime::Event::UnfinishedGames(1));
    assert_eq!(message(&app), notice);
    assert!(screen_text(&app).contains("--level 3 sets"));
    // The first key clears the notice: the note that waited takes its place.
    press(&mut app, KeyCode::Right);
    let note = "An unfinished game is saved too: after q, r on the home screen (checkers) \
                or checkers --resume continues it.";
    assert_eq!(message(&app), note);
    assert!(screen_text(&app).contains("checkers --resume continues it"));
    // Told once: the next key clears it for good.
    press(&mut app, KeyCode::Left);
    assert_eq!(message(&app), "");
    // With no notice to read, the note takes the line at once, after the welcome's
    // lead; both ways back to a game are named, the home screen's r among them.
    let mut app = crate::tui::tests::app();
    app.on_event(crate::runtime::Event::UnfinishedGames(2));
    assert_eq!(
        message(&app),
        "Black moves first. 2 unfinished games are saved too: after q, r on the home \
         screen (checkers) or checkers --resume continues one of them."
    );
    let screen = screen_text(&app);
    assert!(
        screen.contains("Black moves first. 2 unfinished games"),
        "{screen}"
    );
    assert!(screen.contains("continues one of them."), "{screen}");
}

#[test]
fn alt_letters_are_no_commands_on_the_board_and_shift_and_ctrl_bindings_still_act() {
    let mut app = crate::tui::tests::app();
    type_move(&mut app, "11-15");
    let alt = |c| key_event(KeyCode::Char(c), KeyModifiers::ALT);
    // Alt-u takes nothing back, Alt-q asks nothing, Alt-f flips nothing: each is said to
    // do nothing, by its name.
    for c in ['u', 'q', 'f', 'r'] {
        app.handle_event(&alt(c));
        assert_eq!(app.mode, Mode::Board, "Alt-{c}");
        assert_eq!(
            message(&app),
            format!("The key Alt-{c} does nothing here; ? shows every key")
        );
    }
    assert_eq!(app.game().moves().len(), 1);
    assert!(!app.board.flipped);
    // The plain letter, Shift's capital and the Ctrl bindings act as ever.
    press(&mut app, KeyCode::Char('u'));
    assert!(app.game().moves().is_empty());
    app.handle_event(&key_event(KeyCode::Char('U'), KeyModifiers::SHIFT));
    assert_eq!(app.game().moves().len(), 1);
    press(&mut app, KeyCode::Char('u'));
    ctrl(&mut app, 'r');
    assert_eq!(app.game().moves().len(), 1);
    // A question is answered by its plain letters only.
    press(&mut app, KeyCode::Char('q'));
    assert!(matches!(app.mode, Mode::Asking(_)));
    assert_eq!(app.handle_event(&alt('y')), None);
    assert!(matches!(app.mode, Mode::Asking(_)));
    press(&mut app, KeyCode::Char('n'));
    // On a screen too small for the board, Alt-q is not the q that quits.
    app.handle_event(&Event::Resize(20, 5));
    assert_eq!(app.handle_event(&alt('q')), None);
    assert_eq!(press(&mut app, KeyCode::Char('q')), Some(Flow::Quit));
}

/// Esc and a digit typed soon after it, which tmux (its `escape-time`) and screen send as
/// one key with Alt, are taken as Esc and then the digit, on the board and in the move
/// prompt: Esc leaves the move typed, and 9-14 typed at once after it is the new move.
/// (The 9 was lost, and the `-` after it, on the board, lowered the computer's level.)
#[test]
fn esc_then_a_digit_sent_as_alt_and_the_digit_types_a_new_move() {
    let alt =
        |app: &mut App, c: char| app.handle_event(&key_event(KeyCode::Char(c), KeyModifiers::ALT));
    let mut app = app();
    type_text(&mut app, "11");
    assert_eq!(app.mode, Mode::Prompt("11".to_string()));
    alt(&mut app, '9');
    type_text(&mut app, "-14");
    assert_eq!(app.mode, Mode::Prompt("9-14".to_string()));
    // On the board, with nothing typed: the digit opens the prompt.
    press(&mut app, KeyCode::Esc);
    assert_eq!(app.mode, Mode::Board);
    alt(&mut app, '9');
    assert_eq!(app.mode, Mode::Prompt("9".to_string()));
}

#[test]
fn with_a_piece_picked_up_the_key_line_says_enter_lands_it_and_esc_puts_it_down() {
    let mut app = crate::tui::tests::app();
    let key_line = |app: &crate::tui::App| {
        let screen = screen_text(app);
        screen
            .lines()
            .rfind(|line| line.contains("? help"))
            .unwrap_or_default()
            .to_string()
    };
    assert!(key_line(&app).contains("Enter pick"), "{}", key_line(&app));
    // The cursor starts on a man that can move: Enter picks it up.
    press(&mut app, KeyCode::Enter);
    assert!(app.board.pick.is_some());
    let line = key_line(&app);
    // It said "Enter pick" and had no Esc, though Esc is what puts the piece down.
    assert!(
        line.contains("Enter land  Esc put down") && line.contains("q quit"),
        "{line}"
    );
    press(&mut app, KeyCode::Esc);
    assert!(app.board.pick.is_none());
    assert!(key_line(&app).contains("Enter pick"), "{}", key_line(&app));
}

/// A typed move whose separator says wrong (`9x14` for a step, `9-18` for a capture) is
/// played, the squares deciding as in a record, and the player told how it is written:
/// it was played without a word.
#[test]
fn a_move_typed_with_the_wrong_separator_is_played_with_a_word_on_its_notation() {
    let mut app = app();
    type_move(&mut app, "9x14");
    assert_eq!(app.game().moves().len(), 1);
    assert!(
        message(&app).starts_with(
            "Black played 9-14 (9x14 was typed: 9 to 14 is no capture; \
             a plain move is written 9-14)"
        ),
        "{}",
        message(&app)
    );
    let mut app = app_from("B:W14,30:B9,1");
    type_move(&mut app, "9-18");
    assert_eq!(app.game().moves().len(), 1);
    assert!(
        message(&app).starts_with(
            "Black played 9x18 (9-18 was typed: 9 to 18 is a capture, written with x: 9x18)"
        ),
        "{}",
        message(&app)
    );
    // Written right, nothing more is said.
    let mut app = app_from("B:W14,30:B9,1");
    type_move(&mut app, "9x18");
    assert!(!message(&app).contains("typed"), "{}", message(&app));
}

/// In a game started from the home screen, `q` goes back there, whose `r` takes the
/// game up again: the help says so (it said "q quit (then --resume)", the command
/// line's way back); a game started from the command line keeps those words.
#[test]
fn the_help_of_a_game_from_the_home_screen_says_q_goes_back_there() {
    for from_home in [false, true] {
        let mut app = app();
        app.from_home = from_home;
        press(&mut app, KeyCode::Char('?'));
        let screen = screen_text(&app);
        assert_eq!(
            screen.contains("q home screen (r there resumes)"),
            from_home,
            "{screen}"
        );
        assert_eq!(
            screen.contains("q quit (then --resume)"),
            !from_home,
            "{screen}"
        );
    }
}
