//! The online lobby: the server's lists drawn at both sizes, its keys turned into the
//! requests a player means, the seek form.

use crate::server::protocol::{
    ClientMessage, LobbyGame, LobbyPlayer, LobbySeek, ServerMessage, Side,
};
use crate::tui::Theme;
use crate::tui::lobby::{LobbyAction, LobbyScreen};
use crate::tui::tests::key_event;
use insta::assert_snapshot;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::widgets::Widget;

/// A lobby of alice's with two seeks (one hers), a game in play and three players.
fn lobby() -> LobbyScreen {
    let mut lobby = LobbyScreen::new("alice", "127.0.0.1:4620", Theme::new(false, false));
    let seek = |number, by: &str, side, ballot| LobbySeek {
        number,
        by: by.into(),
        rating: 1512,
        clock: "5+3".into(),
        rated: true,
        side,
        ballot,
        only: None,
    };
    lobby.heard(ServerMessage::Lobby {
        players: ["alice", "bob", "carol"]
            .iter()
            .map(|n| LobbyPlayer {
                name: (*n).into(),
                rating: 1500,
                playing: (*n == "carol").then_some(7),
            })
            .collect(),
        seeks: vec![
            seek(2, "bob", Some(Side::White), true),
            seek(3, "alice", None, false),
        ],
        games: vec![LobbyGame {
            number: 7,
            black: "carol".into(),
            white: "dave".into(),
            clock: "10+5".into(),
            rated: false,
            moves: 14,
            adjourned: false,
        }],
        more: [0, 0, 3],
    });
    lobby.heard(ServerMessage::Info {
        text: "Seek 3 posted: 5+3 rated.".into(),
    });
    lobby
}

fn key(lobby: &mut LobbyScreen, code: KeyCode) -> Option<LobbyAction> {
    lobby.handle_event(&key_event(code, KeyModifiers::NONE))
}

fn screen(lobby: &LobbyScreen, width: u16, height: u16) -> String {
    crate::tui::tests::drawn_text(width, height, |area, buf| lobby.render(area, buf))
}

#[test]
fn lobby_80x24() {
    assert_snapshot!(screen(&lobby(), 80, 24));
}

#[test]
fn lobby_120x40() {
    assert_snapshot!(screen(&lobby(), 120, 40));
}

#[test]
fn seek_form_80x24() {
    let mut lobby = lobby();
    assert_eq!(key(&mut lobby, KeyCode::Char('s')), None);
    // Ten minutes, casual, White, a ballot.
    key(&mut lobby, KeyCode::Backspace);
    key(&mut lobby, KeyCode::Backspace);
    key(&mut lobby, KeyCode::Backspace);
    for c in "10+5".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Right);
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Left);
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Char(' '));
    assert_snapshot!(screen(&lobby, 80, 24));
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Seek {
            clock: "10+5".into(),
            rated: false,
            side: Some(Side::White),
            ballot: true,
        }))
    );
    assert!(lobby.form.is_none(), "the form closes once sent");
}

#[test]
fn enter_accepts_a_seek_watches_a_game_and_challenges_a_player() {
    let mut lobby = lobby();
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Accept { number: 2 }))
    );
    key(&mut lobby, KeyCode::Down);
    assert_eq!(key(&mut lobby, KeyCode::Enter), None, "her own seek");
    assert!(lobby.status.last().is_some_and(|(_, refused)| *refused));
    key(&mut lobby, KeyCode::Tab);
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Watch { number: 7 }))
    );
    key(&mut lobby, KeyCode::Tab);
    key(&mut lobby, KeyCode::Down);
    assert_eq!(key(&mut lobby, KeyCode::Enter), None, "opens the form");
    // A challenge names the side as a seek does: Black, then White.
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Right);
    key(&mut lobby, KeyCode::Right);
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Challenge {
            name: "bob".into(),
            clock: "5+3".into(),
            rated: true,
            side: Some(Side::White),
            ballot: false,
        }))
    );
    assert_eq!(
        key(&mut lobby, KeyCode::Char('p')),
        Some(LobbyAction::Send(ClientMessage::Player {
            name: "bob".into()
        }))
    );
    assert_eq!(key(&mut lobby, KeyCode::Char('q')), Some(LobbyAction::Quit));
}

#[test]
fn a_private_table_is_opened_and_one_is_joined_by_its_code() {
    let mut lobby = lobby();
    key(&mut lobby, KeyCode::Char('i'));
    // A private table may open with a ballot, as a seek may.
    for _ in 0..3 {
        key(&mut lobby, KeyCode::Down);
    }
    key(&mut lobby, KeyCode::Right);
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Invite {
            clock: "5+3".into(),
            rated: false,
            side: None,
            ballot: true,
        }))
    );
    key(&mut lobby, KeyCode::Char('e'));
    for c in "maple 4821 river 0937".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Join {
            code: "maple 4821 river 0937".into()
        }))
    );
    // What the server refuses is said, as an error.
    lobby.heard(ServerMessage::Rejected {
        reason: "no private table has that code".into(),
    });
    assert!(screen(&lobby, 80, 24).contains("No private table has that code"));
}

#[test]
fn the_players_own_adjourned_game_says_enter_resumes_it_and_enter_does() {
    let mut lobby = lobby();
    let mut games = lobby.games.clone();
    games.push(LobbyGame {
        number: 9,
        black: "bob".into(),
        white: "alice".into(),
        clock: "5+3".into(),
        rated: true,
        moves: 6,
        adjourned: true,
    });
    lobby.heard(ServerMessage::Lobby {
        players: lobby.players.clone(),
        seeks: lobby.seeks.clone(),
        games,
        more: [0; 3],
    });
    let drawn = screen(&lobby, 80, 24);
    assert!(
        drawn.contains("9  bob - alice  5+3 rated, 6 moves, yours, adjourned"),
        "{drawn}"
    );
    assert!(
        drawn.contains("7  carol - dave  10+5 casual, 14 moves "),
        "{drawn}"
    );
    key(&mut lobby, KeyCode::Tab);
    key(&mut lobby, KeyCode::Down);
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Resume)),
        "her own game is resumed, not watched"
    );
}

#[test]
fn the_seek_clock_and_the_invite_code_edit_as_every_typed_field_does() {
    let ctrl = |lobby: &mut LobbyScreen, c| {
        lobby.handle_event(&key_event(KeyCode::Char(c), KeyModifiers::CONTROL))
    };
    let typed = |lobby: &mut LobbyScreen, text: &str| {
        for c in text.chars() {
            key(lobby, KeyCode::Char(c));
        }
    };
    let mut lobby = lobby();
    key(&mut lobby, KeyCode::Char('s'));
    // A Ctrl-letter never types; Ctrl-U clears; Left and Home move where typing goes.
    for c in ['a', 'e', 'k', 'w'] {
        ctrl(&mut lobby, c);
    }
    assert_eq!(lobby.form.as_ref().unwrap().clock.text, "5+3");
    ctrl(&mut lobby, 'u');
    typed(&mut lobby, "0+5");
    key(&mut lobby, KeyCode::Home);
    typed(&mut lobby, "1");
    key(&mut lobby, KeyCode::End);
    key(&mut lobby, KeyCode::Left);
    key(&mut lobby, KeyCode::Backspace);
    typed(&mut lobby, "-");
    key(&mut lobby, KeyCode::Delete);
    typed(&mut lobby, "3");
    assert_eq!(lobby.form.as_ref().unwrap().clock.text, "10-3");
    key(&mut lobby, KeyCode::Left);
    key(&mut lobby, KeyCode::Backspace);
    typed(&mut lobby, "+");
    // The text cursor's cell on the 3, the hint naming Ctrl-U.
    let drawn = screen(&lobby, 80, 24);
    assert!(drawn.contains("> Clock:   10+3  (minutes"), "{drawn}");
    assert!(drawn.contains("Ctrl-U clear"), "{drawn}");
    // Off the clock, Left and Right change the choice as before.
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Left);
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Seek {
            clock: "10+3".into(),
            rated: false,
            side: None,
            ballot: false,
        }))
    );
    // The invite code.
    key(&mut lobby, KeyCode::Char('e'));
    typed(&mut lobby, "maple 4821");
    ctrl(&mut lobby, 'u');
    typed(&mut lobby, "river 0937");
    ctrl(&mut lobby, 'j');
    key(&mut lobby, KeyCode::Home);
    typed(&mut lobby, "maple 4821 ");
    let drawn = screen(&lobby, 80, 24);
    assert!(drawn.contains("Code: maple 4821 river 0937"), "{drawn}");
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Join {
            code: "maple 4821 river 0937".into()
        }))
    );
}

#[test]
fn a_clock_that_does_not_read_keeps_the_form_open_and_says_why_in_it() {
    let mut lobby = lobby();
    key(&mut lobby, KeyCode::Char('s'));
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Right);
    key(&mut lobby, KeyCode::Up);
    key(&mut lobby, KeyCode::End);
    key(&mut lobby, KeyCode::Backspace);
    assert_eq!(key(&mut lobby, KeyCode::Enter), None, "nothing is sent");
    let form = lobby.form.as_ref().expect("the form stays open");
    assert_eq!(form.clock.text, "5+", "what was typed is kept");
    assert!(!form.rated, "the choices made are kept");
    let drawn = screen(&lobby, 80, 24);
    // The whole fault shows, wrapped in the form, its end included.
    assert!(
        drawn.contains("Clock 5+: '' is not an increment in"),
        "{drawn}"
    );
    assert!(drawn.contains("may be m:ss"), "{drawn}");
    // Mended, it is sent with the choices made.
    key(&mut lobby, KeyCode::Char('3'));
    assert!(!screen(&lobby, 80, 24).contains("is not an increment"));
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Seek {
            clock: "5+3".into(),
            rated: false,
            side: None,
            ballot: false,
        }))
    );
}

#[test]
fn a_key_that_does_nothing_in_the_lobby_says_so_once_and_names_it() {
    let mut lobby = lobby();
    let note = "The key z does nothing here; ? shows every key";
    assert_eq!(key(&mut lobby, KeyCode::Char('z')), None);
    assert!(screen(&lobby, 80, 24).contains(note));
    // Pressed again, it is not said twice: the news above it stays.
    let before = lobby.status.clone();
    key(&mut lobby, KeyCode::Char('z'));
    assert_eq!(lobby.status, before);
    assert_eq!(key(&mut lobby, KeyCode::F(5)), None);
    assert!(screen(&lobby, 80, 24).contains("The key F5 does nothing here"));
    // ? is the key it names.
    key(&mut lobby, KeyCode::Char('?'));
    assert!(lobby.help);
}

#[test]
fn a_key_with_ctrl_or_alt_is_not_its_letter_in_the_lobby_and_says_so() {
    let mut lobby = lobby();
    let modified = |lobby: &mut LobbyScreen, c, modifiers| {
        lobby.handle_event(&key_event(KeyCode::Char(c), modifiers))
    };
    // Ctrl-S opens no seek form, Alt-q leaves nothing, Alt-r asks for nothing.
    for (c, modifiers, name) in [
        ('s', KeyModifiers::CONTROL, "Ctrl-S"),
        ('q', KeyModifiers::ALT, "Alt-q"),
        ('r', KeyModifiers::ALT, "Alt-r"),
        ('p', KeyModifiers::CONTROL, "Ctrl-P"),
    ] {
        assert_eq!(modified(&mut lobby, c, modifiers), None, "{name}");
        assert_eq!(lobby.form, None, "{name}");
        let note = format!("The key {name} does nothing here; ? shows every key");
        assert_eq!(
            lobby.status.last().map(|(text, _)| text.as_str()),
            Some(note.as_str())
        );
        assert!(screen(&lobby, 80, 24).contains(&note), "{name}");
    }
    // The plain keys still act, and Ctrl-C still leaves.
    key(&mut lobby, KeyCode::Char('s'));
    assert!(lobby.form.is_some());
    key(&mut lobby, KeyCode::Esc);
    assert_eq!(
        modified(&mut lobby, 'c', KeyModifiers::CONTROL),
        Some(LobbyAction::Quit)
    );
}

/// In the seek form Ctrl and Alt with Left, Right or Space change no choice, nor do
/// Ctrl or Alt with Enter send it or with Esc close it: only the plain keys act, as
/// everywhere else (Ctrl-Right turned the rated choice, Alt-Space the ballot).
#[test]
fn the_seek_form_changes_a_choice_only_with_a_plain_key() {
    let mut lobby = lobby();
    key(&mut lobby, KeyCode::Char('s'));
    let unchanged = lobby.form.clone();
    // Off the clock, on each choice in turn.
    for _ in 0..3 {
        key(&mut lobby, KeyCode::Down);
        let before = lobby.form.clone();
        for code in [KeyCode::Left, KeyCode::Right, KeyCode::Char(' ')] {
            for modifiers in [KeyModifiers::CONTROL, KeyModifiers::ALT] {
                let event = key_event(code, modifiers);
                assert_eq!(lobby.handle_event(&event), None);
                assert_eq!(lobby.form, before, "{code:?} with {modifiers:?}");
            }
        }
        for code in [KeyCode::Enter, KeyCode::Esc] {
            let event = key_event(code, KeyModifiers::ALT);
            assert_eq!(lobby.handle_event(&event), None, "Alt-{code:?}");
            assert_eq!(lobby.form, before, "Alt-{code:?}");
        }
    }
    // Back up, the form is as it opened, and the plain keys still change a choice.
    for _ in 0..3 {
        key(&mut lobby, KeyCode::Up);
    }
    assert_eq!(lobby.form, unchanged);
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Right);
    assert!(
        !lobby.form.as_ref().unwrap().rated,
        "Right turned it casual"
    );
    // The invite code's field alike: Alt-Enter joins nothing, Ctrl-Esc keeps it open.
    key(&mut lobby, KeyCode::Esc);
    key(&mut lobby, KeyCode::Char('e'));
    for c in "maple 4821".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    let alt_enter = key_event(KeyCode::Enter, KeyModifiers::ALT);
    assert_eq!(lobby.handle_event(&alt_enter), None);
    lobby.handle_event(&key_event(KeyCode::Esc, KeyModifiers::CONTROL));
    assert_eq!(
        lobby.code.as_ref().map(|c| c.text.as_str()),
        Some("maple 4821")
    );
}

/// `j` and `k` move in a list, as in every list of the program (`j` opened the code
/// field, and only `k` moved); `e` enters a private table's code, and the key line and
/// the help say so.
#[test]
fn j_and_k_move_in_the_lists_and_e_enters_a_code() {
    let mut lobby = lobby();
    // The seeks (two), then past the games (one) the players (three).
    for slot in [0, 2] {
        assert_eq!(key(&mut lobby, KeyCode::Char('j')), None);
        assert!(lobby.code.is_none(), "list {slot}: j opens no code field");
        assert_eq!(lobby.selected[slot], 1, "list {slot}: j moves down");
        key(&mut lobby, KeyCode::Char('k'));
        assert_eq!(lobby.selected[slot], 0, "list {slot}: k moves up");
        key(&mut lobby, KeyCode::Tab);
        key(&mut lobby, KeyCode::Tab);
    }
    assert!(screen(&lobby, 80, 24).contains("e join"));
    key(&mut lobby, KeyCode::Char('e'));
    assert!(lobby.code.is_some());
    key(&mut lobby, KeyCode::Esc);
    key(&mut lobby, KeyCode::Char('?'));
    let help = screen(&lobby, 80, 24);
    assert!(help.contains("Up/Down (k/j), Home/End"), "{help}");
    assert!(help.contains("e enter a private table's code"), "{help}");
}

/// A player with only a mouse uses the lobby by its key line: "s seek" opens the seek
/// form, its "Esc cancel" closes it, and "q quit" leaves.
#[test]
fn the_key_line_is_clicked_to_seek_cancel_and_quit() {
    for (width, height) in [(80, 24), (120, 40)] {
        let mut lobby = lobby();
        lobby.screen = ratatui::layout::Rect::new(0, 0, width, height);
        let click = |lobby: &LobbyScreen, text: &str| {
            crate::tui::tests::click_on_text(&screen(lobby, width, height), text)
        };
        assert_eq!(lobby.handle_event(&click(&lobby, "s seek")), None);
        assert!(
            lobby.form.is_some(),
            "{width}x{height}: the seek form opens"
        );
        assert_eq!(lobby.handle_event(&click(&lobby, "Esc cancel")), None);
        assert!(lobby.form.is_none(), "{width}x{height}: the form closes");
        assert_eq!(
            lobby.handle_event(&click(&lobby, "q quit")),
            Some(LobbyAction::Quit),
            "{width}x{height}"
        );
    }
}

#[test]
fn x_withdraws_ones_own_seek_and_declines_a_challenge_but_no_other_seek() {
    let mut lobby = lobby();
    // bob's open seek is not alice's to withdraw: said, nothing sent.
    assert_eq!(key(&mut lobby, KeyCode::Char('x')), None);
    assert!(
        lobby
            .status
            .last()
            .is_some_and(|(text, refused)| *refused && text.ends_with("that seek is neither")),
        "{:?}",
        lobby.status
    );
    key(&mut lobby, KeyCode::Down);
    assert_eq!(
        key(&mut lobby, KeyCode::Char('x')),
        Some(LobbyAction::Send(ClientMessage::Cancel { number: 3 }))
    );
    // A challenge of bob's to alice: x declines it.
    lobby.heard(ServerMessage::Lobby {
        players: Vec::new(),
        seeks: vec![LobbySeek {
            number: 4,
            by: "bob".into(),
            rating: 1500,
            clock: "5+0".into(),
            rated: false,
            side: None,
            ballot: false,
            only: Some("alice".into()),
        }],
        games: Vec::new(),
        more: [0; 3],
    });
    key(&mut lobby, KeyCode::Home);
    assert_eq!(
        key(&mut lobby, KeyCode::Char('x')),
        Some(LobbyAction::Send(ClientMessage::Cancel { number: 4 }))
    );
    // The help names the key.
    key(&mut lobby, KeyCode::Char('?'));
    assert!(screen(&lobby, 80, 24).contains("decline a challenge to you"));
}

/// A moderator's `/` opens the order prompt (the key line says so), whose order goes to
/// the server as typed; one that does not read stays open, said why; a player who is
/// not a moderator is told `/` is not theirs, and nothing is sent.
#[test]
fn a_moderators_slash_gives_an_order_and_a_players_is_refused() {
    use crate::server::protocol::Order;
    let mut lobby = lobby();
    assert_eq!(key(&mut lobby, KeyCode::Char('/')), None);
    assert!(lobby.order.is_none());
    assert!(screen(&lobby, 80, 24).contains("/ is for moderators: you are not one"));
    lobby.moderator = true;
    assert!(screen(&lobby, 80, 24).contains("/ moderate"));
    key(&mut lobby, KeyCode::Char('/'));
    for c in "mute bob soon".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    assert_eq!(key(&mut lobby, KeyCode::Enter), None);
    let drawn = screen(&lobby, 80, 24);
    assert!(
        drawn.contains("A moderator's order") && drawn.contains("not soon"),
        "{drawn}"
    );
    for _ in 0.."soon".len() {
        key(&mut lobby, KeyCode::Backspace);
    }
    for c in "30".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Moderate {
            order: Order::Mute {
                name: "bob".into(),
                minutes: Some(30)
            }
        }))
    );
    assert!(lobby.order.is_none());
}

/// A player the operator makes a moderator while they are online is welcomed again as
/// one: `/` gives orders at once; welcomed as a player again, it is refused.
#[test]
fn a_player_made_a_moderator_while_online_has_the_slash_at_once() {
    let mut lobby = lobby();
    let welcome = |moderator| ServerMessage::Welcome {
        name: "p000".to_string(),
        new: false,
        rating: 1500.0,
        moderator,
        knows: Vec::new(),
    };
    lobby.heard(welcome(true));
    key(&mut lobby, KeyCode::Char('/'));
    assert!(lobby.order.is_some(), "the order prompt is open");
    lobby.order = None;
    assert!(screen(&lobby, 80, 24).contains("/ moderate"));
    lobby.heard(welcome(false));
    assert_eq!(key(&mut lobby, KeyCode::Char('/')), None);
    assert!(lobby.order.is_none());
    assert!(screen(&lobby, 80, 24).contains("/ is for moderators: you are not one"));
}

/// `t` on a player types a private line to them (`tell bob ` is there already), sent
/// as typed on Enter; a line told is shown with its teller's name; at a server older
/// than tells nothing is sent, and the player is told why.
#[test]
fn t_tells_the_player_under_the_cursor_and_a_line_told_is_shown() {
    let mut lobby = lobby();
    lobby.tells = true;
    // The help names the key (the key line at 80 columns has no room for it).
    key(&mut lobby, KeyCode::Char('?'));
    assert!(screen(&lobby, 80, 24).contains("tell the player under the cursor"));
    key(&mut lobby, KeyCode::Char(' '));
    // The players' list, on bob.
    key(&mut lobby, KeyCode::Tab);
    key(&mut lobby, KeyCode::Tab);
    key(&mut lobby, KeyCode::Down);
    key(&mut lobby, KeyCode::Char('t'));
    assert_eq!(
        lobby.order.as_ref().map(|f| f.text.as_str()),
        Some("tell bob ")
    );
    assert!(screen(&lobby, 80, 24).contains("A private line"));
    // Labelled for what it holds (it said "Order:"), its help the tell's.
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let shown = screen(&lobby, width, height);
        assert!(shown.contains("Private line: tell bob"), "{shown}");
        assert!(!shown.contains("Order:"), "{shown}");
        assert!(
            shown.contains("tell NAME TEXT (heard by NAME alone"),
            "{shown}"
        );
    }
    for c in "good game".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Tell {
            name: "bob".into(),
            text: "good game".into()
        }))
    );
    assert!(lobby.order.is_none());
    lobby.heard(ServerMessage::Told {
        name: "bob".into(),
        text: "thanks!".into(),
    });
    assert!(screen(&lobby, 80, 24).contains("bob tells you: thanks!"));
    // A server older than tells.
    lobby.tells = false;
    key(&mut lobby, KeyCode::Char('t'));
    for c in "hi".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    assert_eq!(key(&mut lobby, KeyCode::Enter), None);
    assert!(screen(&lobby, 80, 24).contains("This server does not know tell"));
}

/// `ignore NAME` typed in the field `t` opens is sent as typed on Enter (labelled for
/// what it holds, its help naming it); at a server older than ignore lists nothing is
/// sent, and the player is told why.
#[test]
fn ignore_typed_in_the_private_line_field_is_sent_and_not_to_an_older_server() {
    let mut lobby = lobby();
    lobby.tells = true;
    lobby.ignores = true;
    key(&mut lobby, KeyCode::Char('t'));
    lobby.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    for c in "ignore bob".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let shown = screen(&lobby, width, height);
        assert!(shown.contains("Ignore: ignore bob"), "{shown}");
        assert!(shown.contains("unignore NAME"), "{shown}");
    }
    assert_eq!(
        key(&mut lobby, KeyCode::Enter),
        Some(LobbyAction::Send(ClientMessage::Ignore {
            name: Some("bob".into())
        }))
    );
    assert!(lobby.order.is_none());
    // A server older than ignore lists.
    lobby.ignores = false;
    key(&mut lobby, KeyCode::Char('t'));
    lobby.handle_event(&key_event(KeyCode::Char('u'), KeyModifiers::CONTROL));
    for c in "ignore bob".chars() {
        key(&mut lobby, KeyCode::Char(c));
    }
    assert_eq!(key(&mut lobby, KeyCode::Enter), None);
    assert!(screen(&lobby, 80, 24).contains("This server does not know ignore"));
}

/// The server's list of a hundred names ignored, too long for the status line at 80
/// columns, shows its count and as many names as fit, saying how many more; a short
/// list is shown whole.
#[test]
fn a_long_ignore_list_shows_its_count_and_the_names_that_fit() {
    let names: Vec<String> = (0..100).map(|i| format!("pest{i}")).collect();
    let text = format!("You ignore 100 of at most 100: {}", names.join(", "));
    let mut lobby = lobby();
    lobby.heard(ServerMessage::Info { text: text.clone() });
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let shown = screen(&lobby, width, height);
        // The newest word, longer than a line, has both status rows.
        let rows: Vec<&str> = shown.lines().collect();
        let at = rows
            .iter()
            .position(|l| l.contains("You ignore"))
            .unwrap_or_else(|| panic!("{shown}"));
        let line = match rows[at].contains("... and ") {
            true => rows[at].to_string(),
            false => format!("{} {}", rows[at], rows[at + 1]),
        };
        assert!(
            line.contains("You ignore 100 players: pest0, pest1, "),
            "{shown}"
        );
        let more = line
            .split("... and ")
            .nth(1)
            .and_then(|rest| rest.split(" more").next())
            .and_then(|n| n.trim().parse::<usize>().ok())
            .unwrap_or_else(|| panic!("{shown}"));
        // The names shown and the count of the rest make the hundred.
        let shown_names = line.matches("pest").count();
        assert_eq!(shown_names + more, 100, "{shown}");
    }
    // Alone on the status line it has both rows, and more names fit.
    let mut alone = LobbyScreen::new("alice", "127.0.0.1:4620", Theme::new(false, false));
    alone.heard(ServerMessage::Info { text });
    let shown = screen(&alone, 80, 24);
    assert!(shown.contains("You ignore 100 players: pest0,"), "{shown}");
    assert!(shown.contains(" more"), "{shown}");
    let short = "You ignore 2 of at most 100: bob, carol";
    alone.heard(ServerMessage::Info { text: short.into() });
    assert!(screen(&alone, 80, 24).contains(short));
}

/// A word longer than the status line, said after another, has both of its lines: its
/// end, which says what to do next, was cut off at 80 columns ("... (x on it in Open
/// se") under the older word.
#[test]
fn a_long_word_said_after_another_is_shown_whole_at_80_columns() {
    let mut lobby = lobby();
    let long = "Seek 4 posted: 2+1 rated. Waiting for someone to accept it (x on it in Open \
                seeks withdraws it).";
    lobby.heard(ServerMessage::Info { text: long.into() });
    let shown = screen(&lobby, 80, 24);
    assert!(shown.contains("seeks withdraws it)."), "{shown}");
    // Two short words keep a line each.
    lobby.heard(ServerMessage::Info {
        text: "Back in the lobby".into(),
    });
    let shown = screen(&lobby, 80, 24);
    assert!(shown.contains("Back in the lobby"), "{shown}");
    assert!(shown.contains("Seek 4 posted"), "{shown}");
}
