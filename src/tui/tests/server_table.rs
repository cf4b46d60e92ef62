//! A spectator's board at a server's table as its game ends: the status line says the
//! result and what to do next, however the game ended and whichever of the server's
//! two words (the game's state, then its end in words) came first.

use super::message;
use crate::net::table::TableFacts;
use crate::online::{LineNews, ServerLine};
use crate::rules::Color;
use crate::runtime::network::{Following, server_session};
use crate::runtime::{Pace, Runtime, Saving, Table};
use crate::server::protocol::ServerMessage;
use crate::session::Session;
use crate::tui::{App, Settings};
use crossterm::event::KeyCode;
use std::time::{Duration, Instant};

/// What a spectator is told it can do once the game is over.
const NEXT: &str = "You are watching: < and > step through the moves; q leaves.";

/// A timed game at the server after 11-15 22-18, then what `end` does to it (given
/// the session and the time the game began): the server's state of it for a spectator.
fn told(end: impl FnOnce(&mut Session, Instant)) -> (ServerMessage, Session) {
    let start = Instant::now();
    let mut session =
        Session::new(crate::game::Game::new()).with_clock("5+3".parse().expect("a clock"), start);
    session.play_text("11-15").expect("a legal move");
    session.play_text("22-18").expect("a legal move");
    end(&mut session, start);
    let record = session.record(&crate::store::today());
    let facts = TableFacts {
        undo_asked: None,
        player_connected: true,
        spectators: 1,
        joiner_side: Color::Black,
    };
    let state = crate::net::table::game_state(&session, &record, facts);
    let table = ServerMessage::Table {
        game: 1,
        side: None,
        state,
    };
    (table, session)
}

/// The game ended by `end`: the server's state of it for a spectator, and the end as
/// the server says it in words.
fn ended(end: impl FnOnce(&mut Session, Instant)) -> (ServerMessage, ServerMessage) {
    let (table, session) = told(end);
    let outcome = session.game().result().expect("the game is over");
    let words = ServerMessage::Ended {
        game: 1,
        result: outcome.pdn_result().to_string(),
        text: outcome.to_string(),
        ratings: None,
    };
    (table, words)
}

/// A spectator's board at 80x24 on the game before its end (`before`, the server's
/// state of it), its line detached: the app, and what tells the line's news.
fn spectator(before: &ServerMessage) -> (App, impl Fn(LineNews) + use<>) {
    seated(before, None)
}

/// [`spectator`]'s board, or the player's of `side` (none: watching).
fn seated(before: &ServerMessage, side: Option<Color>) -> (App, impl Fn(LineNews) + use<>) {
    seated_on(before, side, (80, 24))
}

/// [`seated`]'s board on a screen of `size` (columns, rows).
fn seated_on(
    before: &ServerMessage,
    side: Option<Color>,
    size: (u16, u16),
) -> (App, impl Fn(LineNews) + use<>) {
    let ServerMessage::Table { game, state, .. } = before else {
        panic!("not a table: {before:?}");
    };
    let (line, tell) = ServerLine::detached();
    let session = server_session(state, side, Instant::now()).expect("the record reads");
    let following = Following::at_server(line, side, state, None).of_server_game(*game);
    let runtime = Runtime::new(session, Saving::Off, Pace::WATCHED)
        .at_table(Table::Guest(Box::new(following)));
    let app = App::with_runtime(Settings::default(), runtime, size.0, size.1);
    (app, tell)
}

/// The game before its end, as the server tells a spectator.
fn in_play() -> ServerMessage {
    told(|_, _| {}).0
}

/// Each ending, as the game's state and the words come: in one poll, or the words a
/// poll later (the server says them once the end is on its disk).
fn check_ending(name: &str, end: impl Fn(&mut Session, Instant)) {
    for apart in [false, true] {
        let (table, words) = ended(&end);
        let (mut app, tell) = spectator(&in_play());
        tell(LineNews::Message(table));
        if apart {
            app.poll(Instant::now());
        }
        tell(LineNews::Message(words.clone()));
        app.poll(Instant::now());
        let ServerMessage::Ended { text, .. } = words else {
            unreachable!()
        };
        let shown = message(&app);
        assert_eq!(
            shown,
            format!("{text}. {NEXT}"),
            "{name}, the words {} the state",
            if apart { "after" } else { "with" }
        );
    }
}

#[test]
fn a_spectator_is_told_the_result_and_the_keys_however_the_servers_game_ends() {
    check_ending("a resignation", |session, _| {
        session.resign(Color::Black).expect("a resignation");
    });
    check_ending("an agreed draw", |session, _| {
        session.offer_draw().expect("an offer");
        session.accept_draw().expect("accepted");
    });
    check_ending("a flag", |session, start| {
        session.tick(start + Duration::from_secs(600));
    });
}

#[test]
fn a_players_key_line_after_the_game_says_the_chat_key_and_fits_80_columns() {
    let (table, _) = ended(|session, _| {
        session.resign(Color::White).expect("a resignation");
    });
    let (app, _tell) = seated(&table, Some(Color::Black));
    assert!(app.game().is_over());
    let screen = super::screen_text(&app);
    let keys = screen
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .expect("a key line")
        .trim_end();
    // The players still talk after the game (over a rematch): ' is on the line, whole,
    // beside the rematch.
    assert!(keys.contains("' say"), "{screen}");
    assert!(keys.contains("n rematch"), "{screen}");
    assert!(keys.ends_with("q quit"), "{screen}");
}

#[test]
fn the_chat_line_at_a_server_stops_at_its_limit_and_says_so() {
    use crate::server::protocol::MAX_SAID;
    let (mut app, _tell) = spectator(&in_play());
    super::type_text(&mut app, "'");
    super::type_text(&mut app, &"a".repeat(MAX_SAID));
    assert!(
        !super::message(&app).contains("limit"),
        "nothing said before the limit"
    );
    super::type_text(&mut app, "bc");
    let screen = super::screen_text(&app);
    assert!(
        super::message(&app).contains(&format!("at its limit, {MAX_SAID} characters")),
        "{screen}"
    );
    let crate::tui::app::Mode::Chat(field) = &app.mode else {
        panic!("the chat line closed: {screen}");
    };
    assert_eq!(field.text, "a".repeat(MAX_SAID));
}

#[test]
fn a_long_line_said_at_a_server_stays_in_view_as_it_is_typed() {
    use crate::server::protocol::MAX_SAID;
    let (mut app, _tell) = spectator(&in_play());
    super::type_text(&mut app, "'");
    // Up to the server's limit, the cursor at character 200.
    let text = format!("{}see you", "a".repeat(MAX_SAID - 7));
    super::type_text(&mut app, &text);
    let row = super::keys::chat_row(&super::screen_text(&app));
    assert!(row.contains("see you "), "the end typed is in view: {row}");
    assert!(row.contains("Esc cancel"), "{row}");
}

#[test]
fn declining_a_draw_offered_at_a_server_tells_the_server_and_says_the_offerer_was_told() {
    use crate::server::protocol::ClientMessage;
    use crate::tui::app::{Mode, Question};
    // Black, to move, offered a draw: White's board asks.
    let (table, _) = told(|session, _| {
        session.offer_draw().expect("an offer");
    });
    let ServerMessage::Table { state, .. } = &table else {
        unreachable!()
    };
    let side = Some(Color::White);
    let (line, tell, mut sent) = ServerLine::detached_sent();
    let session = server_session(state, side, Instant::now()).expect("the record reads");
    let following = Following::at_server(line, side, state, None);
    let runtime = Runtime::new(session, Saving::Off, Pace::WATCHED)
        .at_table(Table::Guest(Box::new(following)));
    let mut app = App::with_runtime(Settings::default(), runtime, 80, 24);
    app.mode = Mode::Asking(Question::Draw(Color::Black));
    let screen = super::screen_text(&app);
    assert!(screen.contains("Black offers a draw"), "{screen}");
    super::type_text(&mut app, "n");
    assert_eq!(sent(), [ClientMessage::Decline]);
    assert!(!message(&app).contains("not told"), "{}", message(&app));
    // The server's answer is the board's word.
    tell(LineNews::Message(ServerMessage::Info {
        text: "You declined the draw: alice is told.".to_string(),
    }));
    app.poll(Instant::now());
    assert_eq!(message(&app), "You declined the draw: alice is told.");
}

#[test]
fn a_players_board_says_the_rematch_started_not_the_offer_still() {
    let (table, _) = ended(|session, _| {
        session.resign(Color::White).expect("a resignation");
    });
    let (mut app, tell) = seated(&table, Some(Color::Black));
    tell(LineNews::Message(ServerMessage::Info {
        text: "Rematch offered to alice.".to_string(),
    }));
    app.poll(Instant::now());
    assert_eq!(message(&app), "Rematch offered to alice.");
    // The rematch: the next game, colours swapped.
    let session = Session::new(crate::game::Game::new());
    let record = session.record(&crate::store::today());
    let facts = TableFacts {
        undo_asked: None,
        player_connected: true,
        spectators: 0,
        joiner_side: Color::White,
    };
    // A server's game is its own session: its count of games is 1 as the first's
    // was (the board told them apart by it, so the real rematch went unsaid).
    let state = crate::net::table::game_state(&session, &record, facts);
    let ServerMessage::Table { state: before, .. } = &table else {
        unreachable!()
    };
    assert_eq!(state.game_number, before.game_number);
    assert!(!app.board.flipped, "Black at the bottom");
    tell(LineNews::Message(ServerMessage::Table {
        game: 2,
        side: Some(Color::White.into()),
        state,
    }));
    app.poll(Instant::now());
    assert_eq!(message(&app), "The rematch starts: you play White");
    assert!(app.board.flipped, "the board turned: White at the bottom");
}

#[test]
fn a_kicked_players_board_says_the_server_let_them_go_and_the_game_is_adjourned() {
    let (mut app, tell) = seated(&in_play(), Some(Color::Black));
    tell(LineNews::Message(ServerMessage::Refused {
        reason: "a moderator disconnected you: game 1 is adjourned, its clocks stopped, not \
                 lost; log in again to go on with it"
            .to_string(),
    }));
    app.poll(Instant::now());
    // Once, in the server's words.
    let said = message(&app);
    assert!(
        said.ends_with("log in again to go on with it. q leaves the board"),
        "{said}"
    );
    super::type_text(&mut app, "q");
    let said = message(&app);
    assert!(
        said.starts_with(
            "The server let you go: a moderator disconnected you: game 1 is adjourned"
        ),
        "{said}"
    );
    assert!(!said.contains("goes on there"), "{said}");
    // The panel's line, wrapped at its width.
    let screen = super::screen_text(&app);
    let panel: String = screen
        .lines()
        .filter_map(|l| l.split('│').nth(3))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        panel.contains("The server let you go: q leaves the board"),
        "{screen}"
    );
}

/// The panel's lines at the board's right, joined (they wrap at its width).
fn panel_text(app: &App) -> String {
    super::screen_text(app)
        .lines()
        .filter_map(|l| l.split('│').nth(3))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_players_board_says_the_game_ended_abandoned_when_a_moderator_banned_the_opponent() {
    // The opponent was kicked: the game waits for them, its clocks stopped.
    let (table, mut session) = told(|_, _| {});
    session.set_paused(true);
    let record = session.record(&crate::store::today());
    let facts = TableFacts {
        undo_asked: None,
        player_connected: false,
        spectators: 0,
        joiner_side: Color::Black,
    };
    let state = crate::net::table::game_state(&session, &record, facts);
    let (mut app, tell) = seated(&table, Some(Color::Black));
    tell(LineNews::Message(ServerMessage::Table {
        game: 1,
        side: Some(Color::Black.into()),
        state,
    }));
    app.poll(Instant::now());
    assert!(
        panel_text(&app).contains("Your opponent is away"),
        "{}",
        panel_text(&app)
    );
    // Banned: the server ends the game, abandoned, with no result.
    let text = "A moderator banned bob: game 1 ends as abandoned, counting for neither of you. \
                You are free to play.";
    tell(LineNews::Message(ServerMessage::Ended {
        game: 1,
        result: crate::server::protocol::NO_RESULT.to_string(),
        text: text.to_string(),
        ratings: None,
    }));
    app.poll(Instant::now());
    let panel = panel_text(&app);
    assert!(!panel.contains("Your opponent is away"), "{panel}");
    assert!(
        panel.contains("A moderator banned bob: game 1 ends as abandoned"),
        "{panel}"
    );
    assert_eq!(message(&app), text);
    // Over: leaving the board asks the server to adjourn nothing.
    assert!(crate::tui::server_game_over(&app));
    // Nothing is left to adjourn or resign: q leaves the board without asking.
    super::type_text(&mut app, "q");
    assert!(
        !matches!(app.mode, crate::tui::app::Mode::Asking(_)),
        "{}",
        super::screen_text(&app)
    );
}

/// The board's squares (left of the panel), joined.
fn board_text(app: &App) -> String {
    super::screen_text(app)
        .lines()
        .filter(|l| l.starts_with('│'))
        .filter_map(|l| l.split('│').nth(1))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Once the server ended the game as abandoned, the board of its player and of its
/// spectator says the game is over: no side is to move, and no piece must capture
/// (after 11-15 22-18 Black owed 15x22).
#[test]
fn a_board_says_a_game_abandoned_at_the_server_is_over_with_nobody_to_move() {
    for side in [Some(Color::Black), None] {
        let (mut app, tell) = seated(&in_play(), side);
        app.poll(Instant::now());
        // The panel's first line shares its row with the board's frame.
        let screen = super::screen_text(&app);
        assert!(screen.contains("│Black to move"), "{side:?}: {screen}");
        let before = panel_text(&app);
        assert!(
            before.contains("Must capture (!): 15"),
            "{side:?}: {before}"
        );
        assert!(board_text(&app).contains('!'), "{}", board_text(&app));
        tell(LineNews::Message(ServerMessage::Ended {
            game: 1,
            result: crate::server::protocol::NO_RESULT.to_string(),
            text: "A moderator banned bob: game 1 ends as abandoned (unrated).".to_string(),
            ratings: None,
        }));
        app.poll(Instant::now());
        let screen = super::screen_text(&app);
        assert!(
            screen.contains("│Game over: abandoned (unrated)"),
            "{side:?}: {screen}"
        );
        assert!(!screen.contains("to move"), "{side:?}: {screen}");
        let panel = panel_text(&app);
        assert!(!panel.contains("Must capture"), "{side:?}: {panel}");
        let board = board_text(&app);
        assert!(!board.contains('!'), "{side:?}: {board}");
    }
}

/// The key line, the screen's last row with text on it.
fn key_line(app: &App) -> String {
    super::screen_text(app)
        .lines()
        .rfind(|l| !l.trim().is_empty())
        .unwrap_or_default()
        .trim_end()
        .to_string()
}

/// Once the server ended the game as abandoned, a player's key line offers only what
/// works then (it offered "Enter pick  0-9 type" as if moves were played, and the
/// rematch, report and chat the server no longer has), a piece picked up or a move
/// typed is refused in words, and the count of who watched is gone with them (the
/// server lets the spectators go at a game's end; it said "1 watching").
#[test]
fn an_abandoned_games_board_offers_no_move_and_counts_no_spectator() {
    for size in [(80, 24), (120, 40)] {
        let (mut app, tell) = seated_on(&in_play(), Some(Color::Black), size);
        app.poll(Instant::now());
        assert!(key_line(&app).contains("pick"), "{}", key_line(&app));
        assert!(
            panel_text(&app).contains("1 watching"),
            "{}",
            panel_text(&app)
        );
        tell(LineNews::Message(ServerMessage::Ended {
            game: 1,
            result: crate::server::protocol::NO_RESULT.to_string(),
            text: "A moderator banned bob: game 1 ends as abandoned, counting for neither of \
                   you. You are free to play."
                .to_string(),
            ratings: None,
        }));
        app.poll(Instant::now());
        let keys = key_line(&app);
        assert!(keys.ends_with("q quit"), "{keys}");
        for gone in ["pick", "type", "rematch", "report", "say", "move"] {
            assert!(!keys.contains(gone), "{gone}: {keys}");
        }
        let panel = panel_text(&app);
        assert!(!panel.contains("watching"), "{panel}");
        for key in [KeyCode::Enter, KeyCode::Char('1')] {
            super::press(&mut app, key);
            assert!(
                message(&app).starts_with("Game over: abandoned (unrated): no more moves"),
                "{key:?}: {}",
                message(&app)
            );
            assert!(
                matches!(app.mode, crate::tui::app::Mode::Board),
                "{}",
                super::screen_text(&app)
            );
        }
    }
}

/// Once the server let a player go (banned, kicked) or their line to it is lost, their
/// board says so and its key line offers only what works then: save, help, quit (it
/// offered "Enter pick  0-9 type  ' say" as if the game went on), and a piece picked up
/// or a move typed is refused in words. Let go, its clocks stand.
#[test]
fn a_board_whose_server_let_its_player_go_offers_only_save_help_and_quit() {
    let ban = "you are banned from this server: spam (its operator or a moderator may lift \
               the ban)";
    // The server's last words (a ban), or the network's failure.
    let ending = |let_go: bool| {
        if let_go {
            let reason = ban.to_string();
            (
                LineNews::Message(ServerMessage::Refused { reason }),
                "The server let you go",
            )
        } else {
            (
                LineNews::Down("the network failed".to_string()),
                "The line to the server is gone",
            )
        }
    };
    for size in [(80, 24), (120, 40)] {
        for let_go in [true, false] {
            let (news, head) = ending(let_go);
            let (mut app, tell) = seated_on(&in_play(), Some(Color::Black), size);
            app.poll(Instant::now());
            assert!(key_line(&app).contains("pick"), "{}", key_line(&app));
            let running = |app: &App| app.runtime().session().clock().and_then(|c| c.running());
            assert_eq!(running(&app), Some(Color::Black));
            tell(news);
            app.poll(Instant::now());
            // Let go, the game is adjourned or ended at the server: its clocks stand
            // (the player's own ran on as if the game went on).
            if let_go {
                assert_eq!(running(&app), None);
            }
            let keys = key_line(&app);
            assert!(keys.ends_with("q quit"), "{keys}");
            assert!(keys.contains("s save") && keys.contains("? help"), "{keys}");
            for gone in ["pick", "type", "rematch", "report", "say", "move", "draw"] {
                assert!(!keys.contains(gone), "{head} {gone}: {keys}");
            }
            assert!(panel_text(&app).contains(head), "{}", panel_text(&app));
            for key in [KeyCode::Enter, KeyCode::Char('1')] {
                super::press(&mut app, key);
                assert_eq!(
                    message(&app),
                    format!("{head}: no more moves here. q leaves the board"),
                    "{key:?}"
                );
                assert!(
                    matches!(app.mode, crate::tui::app::Mode::Board),
                    "{}",
                    super::screen_text(&app)
                );
            }
        }
    }
}

/// Once the server let a player go or their line to it is lost, the panel's turn line
/// says no side moves here any more (it said "Black to move" under a seat line saying
/// the server let them go): a ban's game is abandoned at the server, a kicked player's
/// or a lost line's has no more moves here; no capture is owed on this board.
#[test]
fn a_board_let_go_by_the_server_says_nobody_is_to_move_there() {
    let kicked = "a moderator disconnected you: game 1 is adjourned, its clocks stopped, not \
                  lost; log in again to go on with it";
    let endings = [
        (
            LineNews::Message(ServerMessage::Refused {
                reason: "you are banned from this server: spam (its operator or a moderator \
                         may lift the ban)"
                    .to_string(),
            }),
            "Game over: abandoned (unrated)",
        ),
        (
            LineNews::Message(ServerMessage::Refused {
                reason: kicked.to_string(),
            }),
            "No more moves here",
        ),
        (
            LineNews::Down("the network failed".to_string()),
            "No more moves here",
        ),
    ];
    for (news, head) in endings {
        let (mut app, tell) = seated(&in_play(), Some(Color::Black));
        app.poll(Instant::now());
        let screen = super::screen_text(&app);
        assert!(screen.contains("│Black to move"), "{screen}");
        tell(news);
        app.poll(Instant::now());
        // The panel's first line shares its row with the board's frame.
        let screen = super::screen_text(&app);
        assert!(screen.contains(&format!("│{head}")), "{head}: {screen}");
        assert!(!screen.contains("to move"), "{head}: {screen}");
        let panel = panel_text(&app);
        assert!(!panel.contains("Must capture"), "{head}: {panel}");
        assert!(!board_text(&app).contains('!'), "{}", board_text(&app));
    }
}

#[test]
fn a_draw_declined_at_an_older_server_is_not_said_to_be_a_rematch_refused() {
    use crate::server::protocol::ClientMessage;
    use crate::tui::app::{Mode, Question};
    let (table, _) = told(|session, _| {
        session.offer_draw().expect("an offer");
    });
    let ServerMessage::Table { state, .. } = &table else {
        unreachable!()
    };
    let side = Some(Color::White);
    let (line, tell, mut sent) = ServerLine::detached_sent();
    let session = server_session(state, side, Instant::now()).expect("the record reads");
    let following = Following::at_server(line, side, state, None);
    let runtime = Runtime::new(session, Saving::Off, Pace::WATCHED)
        .at_table(Table::Guest(Box::new(following)));
    let mut app = App::with_runtime(Settings::default(), runtime, 80, 24);
    app.mode = Mode::Asking(Question::Draw(Color::Black));
    super::type_text(&mut app, "n");
    assert_eq!(sent(), [ClientMessage::Decline]);
    // A server that knows only a rematch declined refuses it so.
    tell(LineNews::Message(ServerMessage::Rejected {
        reason: "no rematch is offered to you".to_string(),
    }));
    app.poll(Instant::now());
    let said = message(&app);
    assert!(!said.contains("rematch"), "{said}");
    assert_eq!(said, crate::server::protocol::DRAW_DECLINE_UNKNOWN);
}

/// A line told to a player at their board is said on its status line with its
/// teller's name as it is (not capitalized), made safe to show.
#[test]
fn a_line_told_at_the_board_is_said_with_its_tellers_name() {
    let (mut app, tell) = seated(&in_play(), Some(Color::White));
    tell(LineNews::Message(ServerMessage::Told {
        name: "cat".to_string(),
        text: "good luck \u{1b}[2J".to_string(),
    }));
    app.poll(Instant::now());
    assert_eq!(message(&app), "A tell: cat tells you: good luck ?[2J");
}

/// A move typed on a server's board with the wrong separator (`15-22` for a capture) is
/// sent as it is written, and the player told how it is written when the server's news
/// of it comes, as on a board of one terminal: it was played without a word.
#[test]
fn a_move_typed_with_the_wrong_separator_at_a_server_is_played_with_a_word_on_its_notation() {
    use crate::server::protocol::ClientMessage;
    // After 11-15 22-18, Black (this player) must take: 15x22.
    let ServerMessage::Table { state, .. } = in_play() else {
        unreachable!()
    };
    let side = Some(Color::Black);
    let (line, tell, mut sent) = ServerLine::detached_sent();
    let session = server_session(&state, side, Instant::now()).expect("the record reads");
    let following = Following::at_server(line, side, &state, None);
    let runtime = Runtime::new(session, Saving::Off, Pace::WATCHED)
        .at_table(Table::Guest(Box::new(following)));
    let mut app = App::with_runtime(Settings::default(), runtime, 80, 24);
    super::type_move(&mut app, "15-22");
    assert!(
        sent()
            .iter()
            .any(|m| matches!(m, ClientMessage::Play { text } if text == "15x22")),
        "sent as it is written"
    );
    // The server tells the game, then the move.
    let (after, _) = told(|session, _| {
        session.play_text("15x22").expect("a legal move");
    });
    let ServerMessage::Table { state, .. } = after else {
        unreachable!()
    };
    tell(LineNews::Message(ServerMessage::Table {
        game: 1,
        side: Some(crate::net::protocol::Side::Black),
        state,
    }));
    tell(LineNews::Message(ServerMessage::Moved {
        game: 1,
        side: crate::net::protocol::Side::Black,
        squares: "15x22".to_string(),
        fen: String::new(),
        clocks: None,
        running: None,
    }));
    app.poll(Instant::now());
    assert_eq!(app.game().moves().len(), 3);
    let said = message(&app);
    assert!(
        said.starts_with(
            "Black played 15x22 (15-22 was typed: 15 to 22 is a capture, written with x: 15x22)"
        ),
        "{said}"
    );
}

/// The server's state of the game after 11-15 22-18 between ann (Black) and bob
/// (White), for Black's board: in play, or adjourned with bob away (kicked), its clocks
/// stopped.
fn ann_and_bob(adjourned: bool) -> ServerMessage {
    let (table, _) = told(|session, _| {
        session.set_names(crate::pdn::Players {
            black: Some("ann".to_string()),
            white: Some("bob".to_string()),
        });
        if adjourned {
            session.set_paused(true);
        }
    });
    let ServerMessage::Table { mut state, .. } = table else {
        unreachable!()
    };
    state.player_connected = !adjourned;
    ServerMessage::Table {
        game: 1,
        side: Some(crate::net::protocol::Side::Black),
        state,
    }
}

/// The side panel's rows, from the column its frame starts at (its top row, the turn
/// line, included), joined.
fn side_panel(app: &App) -> String {
    let screen = super::screen_text(app);
    let column = screen
        .lines()
        .find_map(|row| Some(row[..row.find("┌ Checkers")?].chars().count()))
        .expect("the panel's frame");
    screen
        .lines()
        .map(|row| row.chars().skip(column + 1).collect::<String>())
        .map(|row| row.trim_end().trim_end_matches('│').trim().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Once the opponent is kicked, the game adjourned at the server (which refuses every
/// move then), the panel says the game waits for them and the key line offers no move:
/// they said "Black to move" and "Enter pick" as if play went on. Once the opponent is
/// back, play goes on.
#[test]
fn a_players_board_says_the_game_waits_for_a_kicked_opponent_and_offers_no_move() {
    for size in [(80, 24), (120, 40), (200, 60)] {
        let (mut app, tell) = seated_on(&ann_and_bob(false), Some(Color::Black), size);
        let screen = super::screen_text(&app);
        assert!(
            side_panel(&app).contains("Black to move"),
            "{size:?}: {screen}"
        );
        assert!(key_line(&app).contains("pick"), "{screen}");
        tell(LineNews::Message(ServerMessage::Info {
            text: "A moderator disconnected bob: game 1 is adjourned, its clocks stopped, \
                   until you are both back."
                .to_string(),
        }));
        tell(LineNews::Message(ann_and_bob(true)));
        app.poll(Instant::now());
        let screen = super::screen_text(&app);
        let panel = side_panel(&app);
        assert!(
            panel.contains("Adjourned: waiting for bob to come back"),
            "{size:?}: {screen}"
        );
        assert!(!panel.contains("to move"), "{size:?}: {screen}");
        assert!(!panel.contains("Must capture"), "{size:?}: {screen}");
        let keys = key_line(&app);
        for offered in ["pick", "type", "rematch", "report"] {
            assert!(!keys.contains(offered), "{size:?}: {offered} in {keys}");
        }
        assert!(keys.contains("' say") && keys.ends_with("q quit"), "{keys}");
        // A piece picked up, or a move typed, is refused here, in those words.
        super::press(&mut app, KeyCode::Enter);
        assert!(app.board.pick.is_none());
        assert!(
            message(&app).starts_with(
                "Adjourned: waiting for bob to come back: no move is played until then"
            ),
            "{}",
            message(&app)
        );
        // bob is back: play goes on.
        tell(LineNews::Message(ann_and_bob(false)));
        app.poll(Instant::now());
        let screen = super::screen_text(&app);
        assert!(
            side_panel(&app).contains("Black to move"),
            "{size:?}: {screen}"
        );
        assert!(key_line(&app).contains("pick"), "{screen}");
    }
}

/// A LAN host whose player has not joined says so, with how to join, and offers no
/// pick (it said "Black to move" and "Enter pick", and the host refused the move);
/// once the player is in, play starts.
#[test]
fn a_lan_host_waits_for_its_player_in_words_and_offers_no_move_until_they_join() {
    use crate::net::listener::Connections;
    use crate::runtime::network::Hosting;
    const CODE: &str = "oak-4821-elm-0937";
    for size in [(80, 24), (120, 40), (200, 60)] {
        let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
        let connections = Connections::listen(loopback, CODE).expect("a port");
        let address = connections.address();
        let hosting = Hosting::new(connections, address, CODE.to_string(), Color::White);
        let mut seats = crate::session::Seats::PEOPLE;
        seats.set(Color::White, crate::session::Player::Remote);
        let session = Session::new(crate::game::Game::new()).with_seats(seats);
        let runtime = Runtime::new(session, Saving::Off, Pace::WATCHED)
            .at_table(Table::Host(Box::new(hosting)));
        let mut app = App::with_runtime(Settings::default(), runtime, size.0, size.1);
        let screen = super::screen_text(&app);
        let panel = side_panel(&app);
        let join = format!("checkers join {address} --code {CODE}");
        assert!(
            panel.contains(&format!("Waiting for a player to join: give them {join}")),
            "{size:?}: {screen}"
        );
        assert!(!panel.contains("to move"), "{size:?}: {screen}");
        assert!(
            message(&app).starts_with("Waiting for a player to join"),
            "{}",
            message(&app)
        );
        // Nothing to take back, and nobody to ask; no square to pick either: no cursor
        // on the board (its brackets, "[███]").
        let keys = key_line(&app);
        for offered in ["pick", "type", "undo"] {
            assert!(!keys.contains(offered), "{size:?}: {offered} in {keys}");
        }
        assert!(!screen.contains('['), "{size:?}: a cursor: {screen}");
        super::press(&mut app, KeyCode::Enter);
        assert!(app.board.pick.is_none());
        assert!(
            message(&app).ends_with("No move is played until then"),
            "{}",
            message(&app)
        );
        // The player joins: play starts.
        let player =
            crate::runtime::network::greeting(address, CODE, crate::net::protocol::Role::Player);
        let deadline = Instant::now() + Duration::from_secs(90);
        while !app.runtime().table().is_some_and(|t| t.connected) {
            assert!(Instant::now() < deadline, "the player never sat down");
            app.poll(Instant::now());
            std::thread::sleep(Duration::from_millis(5));
        }
        let _joined = player.join().expect("the player's thread").expect("joined");
        let screen = super::screen_text(&app);
        assert!(
            side_panel(&app).contains("Black to move"),
            "{size:?}: {screen}"
        );
        assert!(key_line(&app).contains("pick"), "{screen}");
        assert!(key_line(&app).contains("u undo"), "{screen}");
        assert!(
            screen.contains('['),
            "{size:?}: the cursor is back: {screen}"
        );
    }
}

/// A LAN host holding the game for a player at another terminal (playing White, the
/// player Black), with its address and code; the player not yet joined. Its game has
/// the engine's help, as a new session's has.
fn lan_host(size: (u16, u16)) -> (App, std::net::SocketAddr) {
    lan_host_assisted(size, true)
}

/// [`lan_host`], its game with the engine's help where `assisted` (`--assist on`).
fn lan_host_assisted(size: (u16, u16), assisted: bool) -> (App, std::net::SocketAddr) {
    use crate::net::listener::Connections;
    use crate::runtime::network::Hosting;
    let loopback = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    let connections = Connections::listen(loopback, LAN_CODE).expect("a port");
    let address = connections.address();
    let hosting = Hosting::new(connections, address, LAN_CODE.to_string(), Color::Black);
    let mut seats = crate::session::Seats::PEOPLE;
    seats.set(Color::Black, crate::session::Player::Remote);
    let session = Session::new(crate::game::Game::new())
        .with_seats(seats)
        .with_assist(assisted);
    let runtime =
        Runtime::new(session, Saving::Off, Pace::WATCHED).at_table(Table::Host(Box::new(hosting)));
    (
        App::with_runtime(Settings::default(), runtime, size.0, size.1),
        address,
    )
}

/// The code of [`lan_host`]'s game.
const LAN_CODE: &str = "oak-4821-elm-0937";

/// The player greets `app`'s host at `address`, which is polled until they sit down:
/// their line, to keep for as long as they are to stay.
fn lan_player_joins(app: &mut App, address: std::net::SocketAddr) -> crate::net::link::Link {
    let player =
        crate::runtime::network::greeting(address, LAN_CODE, crate::net::protocol::Role::Player);
    let deadline = Instant::now() + Duration::from_secs(90);
    while !app.runtime().table().is_some_and(|t| t.connected) {
        assert!(Instant::now() < deadline, "the player never sat down");
        app.poll(Instant::now());
        std::thread::sleep(Duration::from_millis(5));
    }
    player
        .join()
        .expect("the player's thread")
        .expect("joined")
        .0
}

/// A joiner's board (`size`) at `host`'s table at `address`, sat down as its player
/// (the host polled until then).
fn lan_joiner(host: &mut App, address: std::net::SocketAddr, size: (u16, u16)) -> App {
    let player =
        crate::runtime::network::greeting(address, LAN_CODE, crate::net::protocol::Role::Player);
    poll_until(host, None, &|host, _| {
        player.is_finished() && host.runtime().table().is_some_and(|t| t.connected)
    });
    let (link, welcome) = player.join().expect("the player's thread").expect("joined");
    let session =
        crate::runtime::network::joined_session(&welcome, Instant::now()).expect("the host's game");
    let following = Following::new(link, &welcome, None);
    let runtime = Runtime::new(session, Saving::Off, Pace::WATCHED)
        .at_table(Table::Guest(Box::new(following)));
    App::with_runtime(Settings::default(), runtime, size.0, size.1)
}

/// Polls `host` (and `joiner`, where there is one) until `done` says so, within 30
/// seconds.
fn poll_until(
    host: &mut App,
    mut joiner: Option<&mut App>,
    done: &dyn Fn(&App, Option<&App>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(30);
    while !done(host, joiner.as_deref()) {
        assert!(
            Instant::now() < deadline,
            "{}\n{}",
            super::screen_text(host),
            joiner
                .as_deref()
                .map(super::screen_text)
                .unwrap_or_default()
        );
        host.poll(Instant::now());
        if let Some(joiner) = joiner.as_deref_mut() {
            joiner.poll(Instant::now());
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The label over a board: the side at its top.
fn top_label(app: &App) -> String {
    super::screen_text(app)
        .lines()
        .next()
        .map(|line| line.split('┌').next().unwrap_or("").trim().to_string())
        .unwrap_or_default()
}

/// After the host's `n`, each side is told its colour in the new game (the joiner's
/// status said only "New game" as the colours changed over), and the joiner's board
/// turns to keep its own side at the bottom.
#[test]
fn a_new_game_at_a_lan_table_tells_each_side_its_colour() {
    for size in [(80, 24), (120, 40)] {
        let (mut host, address) = lan_host(size);
        let mut joiner = lan_joiner(&mut host, address, size);
        // The host plays White, its player Black (at the bottom of their board).
        assert_eq!(
            top_label(&joiner),
            "White",
            "{}",
            super::screen_text(&joiner)
        );
        super::press(&mut host, KeyCode::Char('r'));
        super::press(&mut host, KeyCode::Char('y'));
        super::press(&mut host, KeyCode::Char('n'));
        assert_eq!(
            message(&host),
            "New game: you play Black, and move first. ? shows every key.",
            "{size:?}"
        );
        poll_until(&mut host, Some(&mut joiner), &|_, joiner| {
            joiner.is_some_and(|j| message(j).starts_with("New game"))
        });
        assert_eq!(
            message(&joiner),
            "New game: you play White: Black moves first",
            "{size:?}"
        );
        assert_eq!(
            top_label(&joiner),
            "Black",
            "{}",
            super::screen_text(&joiner)
        );
    }
}

/// Esc on a waiting LAN host's chat line leaves its status line saying what it waits
/// for (opening the line cleared it, and after Esc it stayed empty: only the panel
/// said it).
#[test]
fn a_waiting_lan_host_says_again_what_it_waits_for_once_the_chat_line_closes() {
    for size in [(80, 24), (120, 40)] {
        let (mut app, _address) = lan_host(size);
        super::press(&mut app, KeyCode::Char('\''));
        super::press(&mut app, KeyCode::Esc);
        assert!(
            message(&app).starts_with("Waiting for a player to join: give them checkers join")
                && message(&app).contains(LAN_CODE),
            "{size:?}: {}",
            super::screen_text(&app)
        );
    }
}

/// At the joiner's leave question (a adjourns, r resigns, n stays) only those keys
/// answer it: `y` adjourned the game; now it is told the keys, and the question stays.
#[test]
fn the_leave_question_at_a_lan_table_takes_only_the_keys_it_names() {
    use crate::tui::app::{Mode, Question};
    let (mut host, address) = lan_host((80, 24));
    let mut joiner = lan_joiner(&mut host, address, (80, 24));
    super::type_move(&mut joiner, "11-15");
    poll_until(&mut host, Some(&mut joiner), &|host, _| {
        host.game().moves().len() == 1
    });
    super::type_move(&mut host, "22-18");
    poll_until(&mut host, Some(&mut joiner), &|_, joiner| {
        joiner.is_some_and(|j| j.game().moves().len() == 2)
    });
    super::press(&mut joiner, KeyCode::Char('q'));
    assert_eq!(joiner.mode, Mode::Asking(Question::LeaveTable));
    for key in ['y', 'x'] {
        super::press(&mut joiner, KeyCode::Char(key));
        assert_eq!(joiner.mode, Mode::Asking(Question::LeaveTable), "{key}");
        assert_eq!(
            message(&joiner),
            "Leave the game? Answer a, r or n",
            "{key}"
        );
    }
    super::press(&mut joiner, KeyCode::Char('n'));
    assert_eq!(joiner.mode, Mode::Board);
}

/// The arrows at a LAN host waiting for its player say why nothing moves (they moved
/// the cursor the board does not draw then, silently, so that it turned up somewhere
/// else once the player joined).
#[test]
fn the_arrows_at_a_lan_host_waiting_for_its_player_say_why_and_move_no_hidden_cursor() {
    let (mut app, address) = lan_host((80, 24));
    let before = app.board.cursor;
    for arrow in [KeyCode::Up, KeyCode::Up, KeyCode::Left, KeyCode::Right] {
        super::press(&mut app, arrow);
        assert!(
            message(&app).starts_with("Waiting for a player to join: give them checkers join")
                && message(&app).ends_with("No move is played until then"),
            "{arrow:?}: {}",
            message(&app)
        );
    }
    let _link = lan_player_joins(&mut app, address);
    assert_eq!(app.board.cursor, before, "the cursor moved unseen");
    // Once the player is in, the arrows move it again.
    super::press(&mut app, KeyCode::Up);
    assert_ne!(app.board.cursor, before);
}

/// A LAN host's own side stays at the bottom of its board when `n` starts the next game
/// with the colours changed over, as its player's board does (the host playing White
/// had White at the bottom, then Black at the top when it played Black).
#[test]
fn a_lan_hosts_own_side_stays_at_the_bottom_as_the_rematch_changes_the_colours() {
    for size in [(80, 24), (120, 40)] {
        let (mut app, address) = lan_host(size);
        let _link = lan_player_joins(&mut app, address);
        let top = |app: &App| {
            super::screen_text(app)
                .lines()
                .next()
                .map(|line| line.split('┌').next().unwrap_or("").trim().to_string())
                .unwrap_or_default()
        };
        assert_eq!(top(&app), "Black", "{}", super::screen_text(&app));
        // The host (White) resigns, then starts the next game: it plays Black.
        super::press(&mut app, KeyCode::Char('r'));
        super::press(&mut app, KeyCode::Char('y'));
        assert!(app.game().is_over(), "{}", message(&app));
        super::press(&mut app, KeyCode::Char('n'));
        assert_eq!(
            app.session().seats().only_person_here(),
            Some(Color::Black),
            "{}",
            message(&app)
        );
        assert_eq!(top(&app), "White", "{size:?}: {}", super::screen_text(&app));
    }
}

/// The take-back asked at a LAN table names the moves that go back, as they will:
/// the asker's last move, and the reply to it where one was made (it said "the last
/// move" when two went back), to the asker and in the other side's question.
#[test]
fn a_take_back_asked_at_a_lan_table_names_the_moves_that_go_back() {
    use crate::net::protocol::{ClientMessage, RemoteCommand};
    let (mut app, address) = lan_host((120, 40));
    let link = lan_player_joins(&mut app, address);
    let send = |command| link.send(ClientMessage::Command { command });
    let play = |text: &str| RemoteCommand::Play {
        text: text.into(),
        left_ms: None,
    };
    // The player (Black) 11-15, the host (White) 22-18: the player asks.
    send(play("11-15"));
    poll_until(&mut app, None, &|app, _| app.game().moves().len() == 1);
    super::type_move(&mut app, "22-18");
    send(RemoteCommand::AskUndo);
    poll_until(&mut app, None, &|app, _| key_line(app).contains("Agree?"));
    assert!(
        key_line(&app)
            .contains("Black asks to take back their move 11-15 and your reply 22-18. Agree?"),
        "{}",
        super::screen_text(&app)
    );
    super::press(&mut app, KeyCode::Char('n'));
    // The player's 15x22: the host, to move, asks for its own move and the reply.
    send(play("15x22"));
    poll_until(&mut app, None, &|app, _| app.game().moves().len() == 3);
    super::press(&mut app, KeyCode::Char('u'));
    assert_eq!(
        message(&app),
        "Asked Black to agree to take back your move 22-18 and their reply 15x22"
    );
}

/// `?` at a LAN table lists the engine's help (`t` hint, `A` analysis board) only where
/// the game has assistance (`host --assist on`): without it both are refused, yet the
/// help listed them.
#[test]
fn the_help_at_a_lan_table_lists_hint_and_analysis_only_with_assistance() {
    for assisted in [false, true] {
        let (mut app, address) = lan_host_assisted((100, 50), assisted);
        let _link = lan_player_joins(&mut app, address);
        super::press(&mut app, KeyCode::Char('?'));
        let screen = super::screen_text(&app);
        for engine in ["t hint (not played)", "A analysis board here"] {
            assert_eq!(screen.contains(engine), assisted, "{engine}: {screen}");
        }
        assert!(screen.contains("u undo"), "{screen}");
        super::press(&mut app, KeyCode::Esc);
        // What the keys do then, as the help says.
        super::press(&mut app, KeyCode::Char('t'));
        assert_eq!(
            message(&app).starts_with("Assistance is off"),
            !assisted,
            "{}",
            message(&app)
        );
    }
}

/// `?` at a LAN table lists only the keys a table across the network takes: the
/// computer's, set-ups, pauses and a file's games are refused there (each said so when
/// pressed), so the help left them out at a server's table but listed them at a LAN
/// one; `q` there leaves the table, asking how.
#[test]
fn the_help_at_a_lan_table_leaves_out_the_keys_it_refuses() {
    let (mut app, address) = lan_host((100, 50));
    let _link = lan_player_joins(&mut app, address);
    super::press(&mut app, KeyCode::Char('?'));
    let screen = super::screen_text(&app);
    for refused in [
        "computer plays Black/White",
        "computer level up/down",
        "computer: move now",
        "set up a position",
        "pause the clocks",
        "the file's games",
    ] {
        assert!(!screen.contains(refused), "{refused}: {screen}");
    }
    for taken in ["undo", "offer a draw", "resign", "q leave the table (asks)"] {
        assert!(screen.contains(taken), "{taken}: {screen}");
    }
    assert!(!screen.contains("quit (then --resume)"), "{screen}");
}

/// `d` at a server's table asks whether to offer the opponent, by name, a draw: it
/// named a colour, and on the opponent's move the player's own ("Offer White a draw?"
/// on White's board).
#[test]
fn the_draw_offer_question_at_a_server_names_the_opponent() {
    for (side, opponent) in [(Color::Black, "bob"), (Color::White, "ann")] {
        let (mut app, _tell) = seated_on(&ann_and_bob(false), Some(side), (80, 24));
        super::press(&mut app, KeyCode::Char('d'));
        let screen = super::screen_text(&app);
        assert!(
            screen.contains(&format!("Offer {opponent} a draw? y yes  n no")),
            "{side:?}: {screen}"
        );
    }
}

/// A player's key line at a server's game in play offers the draw offer and the
/// resignation (they were in the help alone), whole, on every screen: a narrow one
/// leaves out how to move, then saving, before either. A spectator, and a game over,
/// offer neither.
#[test]
fn a_players_key_line_at_a_server_offers_a_draw_and_resigning() {
    for size in [(80, 24), (120, 40), (200, 60), (50, 24)] {
        let (app, _tell) = seated_on(&ann_and_bob(false), Some(Color::Black), size);
        let keys = key_line(&app);
        let screen = super::screen_text(&app);
        assert!(keys.contains("d offer draw"), "{size:?}: {screen}");
        assert!(keys.contains("r resign"), "{size:?}: {screen}");
        assert!(keys.ends_with("q quit"), "{size:?}: {screen}");
        assert!(
            keys.chars().count() <= usize::from(size.0),
            "{size:?}: {keys}"
        );
        if size.0 >= 80 {
            assert!(keys.contains("s save"), "{size:?}: {keys}");
        } else {
            assert!(!keys.contains("save"), "{size:?}: {keys}");
        }
    }
    let (app, _tell) = spectator(&in_play());
    assert!(!key_line(&app).contains("draw"), "{}", key_line(&app));
    let (table, _) = ended(|session, _| {
        session.resign(Color::White).expect("a resignation");
    });
    let (app, _tell) = seated(&table, Some(Color::Black));
    let keys = key_line(&app);
    assert!(!keys.contains("draw") && !keys.contains("resign"), "{keys}");
}

/// White's board asked whether to accept Black's draw offer: once the game ends (on
/// time) the question goes, the status saying the result, and once the line to the
/// server is gone it goes too, the status saying so (it stayed asked, its answer only
/// refused).
#[test]
fn a_draw_offered_at_a_server_is_no_longer_asked_once_the_game_ends_or_the_line_goes() {
    use crate::tui::app::{Mode, Question};
    let (offered, _) = told(|session, _| {
        session.offer_draw().expect("an offer");
    });
    for size in [(80, 24), (120, 40), (200, 60)] {
        for line_gone in [false, true] {
            let (mut app, tell) = seated_on(&offered, Some(Color::White), size);
            app.poll(Instant::now());
            app.mode = Mode::Asking(Question::Draw(Color::Black));
            assert!(super::screen_text(&app).contains("Black offers a draw"));
            if line_gone {
                tell(LineNews::Down("the network failed".to_string()));
            } else {
                let (table, words) = ended(|session, start| {
                    session.offer_draw().expect("an offer");
                    session.tick(start + Duration::from_secs(600));
                });
                let ServerMessage::Table { game, state, .. } = table else {
                    unreachable!()
                };
                let side = Some(crate::net::protocol::Side::White);
                tell(LineNews::Message(ServerMessage::Table {
                    game,
                    side,
                    state,
                }));
                tell(LineNews::Message(words));
            }
            app.poll(Instant::now());
            let screen = super::screen_text(&app);
            assert!(matches!(app.mode, Mode::Board), "{size:?}: {screen}");
            assert!(!screen.contains("offers a draw"), "{size:?}: {screen}");
            let said = if line_gone {
                "The network failed"
            } else {
                "White wins: Black lost on time"
            };
            assert!(message(&app).contains(said), "{size:?}: {}", message(&app));
        }
    }
}
