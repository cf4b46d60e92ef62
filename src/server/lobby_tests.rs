//! The server's [`Lobby`] without the network: players entered by hand, what it
//! posts read straight from its outbox (no postman, so nothing waits on the disk).

use super::lobby::Lobby;
use super::outbox::{Outbox, Post, Posts};
use super::protocol::{ClientMessage, ServerMessage, Side};
use super::store::Store;
use skillratings::glicko2::Glicko2Rating;
use std::time::{Duration, Instant};

/// A lobby on a database of its own, and what it posts.
struct Bench {
    /// The lobby.
    lobby: Lobby,
    /// What it posts, in order.
    posts: Posts,
    /// The database's folder, kept while the lobby lives.
    _dir: tempfile::TempDir,
    /// The next connection's number.
    conn: u64,
}

impl Bench {
    /// An empty lobby.
    fn new() -> Bench {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("server.sqlite")).unwrap();
        let (outbox, posts) = Outbox::new();
        let day = Duration::from_secs(86_400);
        let (lobby, restored) =
            Lobby::open(store, outbox, "test".to_string(), day, Instant::now()).unwrap();
        assert_eq!(restored, 0);
        Bench {
            lobby,
            posts,
            _dir: dir,
            conn: 0,
        }
    }

    /// `name` logs in (their player row made on the first time), their client
    /// showing a board when `board`.
    fn log_in(&mut self, name: &str, board: bool) {
        let who = name.to_string();
        let claimed = self
            .lobby
            .store()
            .ask_now(move |db| db.claim(&who, who.as_bytes(), 0, true))
            .unwrap()
            .unwrap();
        let super::db::Claim::Player(player, _) = claimed else {
            panic!("{name} could not log in: {claimed:?}");
        };
        let id = player.id;
        self.conn += 1;
        // Nothing is delivered here: the queue only has to exist.
        let (out, _) = tokio::sync::mpsc::channel(8);
        let address = std::net::IpAddr::from([127, 0, 0, 1]);
        self.lobby
            .enter(name, (id, Glicko2Rating::new()), (self.conn, address), out);
        if board {
            self.ask(name, ClientMessage::Board);
        }
    }

    /// `name` asks `message`.
    fn ask(&mut self, name: &str, message: ClientMessage) {
        self.ask_at(name, message, Instant::now());
    }

    /// `name` asks `message` at `now`.
    fn ask_at(&mut self, name: &str, message: ClientMessage, now: Instant) {
        self.lobby.handle(name, message, now);
    }

    /// The messages posted since the last call, each with who it goes to.
    fn told(&mut self) -> Vec<(String, ServerMessage)> {
        let mut told = Vec::new();
        while let Ok(post) = self.posts.try_recv() {
            if let Post::Message { to, message } = post {
                told.push((to.name, message));
            }
        }
        told
    }

    /// The messages posted since the last call to `name`.
    fn told_to(&mut self, name: &str) -> Vec<ServerMessage> {
        self.told()
            .into_iter()
            .filter(|(to, _)| to == name)
            .map(|(_, m)| m)
            .collect()
    }

    /// `name` logs in and watches game `number`.
    fn watch(&mut self, name: &str, number: u64, board: bool) {
        self.log_in(name, board);
        self.ask(name, ClientMessage::Watch { number });
    }

    /// alice (Black) and bob (White) in game 1, 5+0 casual, both clients showing a
    /// board when `boards`; what that posted is read.
    fn game(&mut self, boards: bool) {
        self.log_in("alice", boards);
        self.log_in("bob", boards);
        self.ask("alice", casual_seek_as_black());
        self.ask("bob", ClientMessage::Accept { number: 1 });
        self.told();
    }

    /// alice (Black) and bob (White) in game 1, 5+0 rated, both clients showing a
    /// board; what that posted is read.
    fn rated_game(&mut self) {
        self.log_in("alice", true);
        self.log_in("bob", true);
        let mut seek = casual_seek_as_black();
        if let ClientMessage::Seek { rated, .. } = &mut seek {
            *rated = true;
        }
        self.ask("alice", seek);
        self.ask("bob", ClientMessage::Accept { number: 1 });
        self.told();
    }
}

/// A 5+0 casual seek, its poster to play Black.
fn casual_seek_as_black() -> ClientMessage {
    ClientMessage::Seek {
        clock: "5+0".to_string(),
        rated: false,
        side: Some(Side::Black),
        ballot: false,
    }
}

/// The tables among `told`: their game, side and the moves their record holds.
fn tables(told: &[ServerMessage]) -> Vec<(u64, Option<Side>, String, bool)> {
    told.iter()
        .filter_map(|m| match m {
            ServerMessage::Table { game, side, state } => {
                Some((*game, *side, state.pdn.clone(), state.player_connected))
            }
            _ => None,
        })
        .collect()
}

/// The words (infos and refusals) among `told`.
fn words(told: &[ServerMessage]) -> Vec<String> {
    told.iter()
        .filter_map(|m| match m {
            ServerMessage::Info { text } => Some(text.clone()),
            ServerMessage::Rejected { reason } => Some(format!("refused: {reason}")),
            _ => None,
        })
        .collect()
}

#[test]
fn a_board_client_is_told_its_table_as_its_game_starts_and_after_each_move() {
    let mut bench = Bench::new();
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    bench.ask("alice", casual_seek_as_black());
    bench.ask("bob", ClientMessage::Accept { number: 1 });
    let told = bench.told();
    for (name, side) in [("alice", Side::Black), ("bob", Side::White)] {
        let mine: Vec<ServerMessage> = told
            .iter()
            .filter(|(to, _)| to == name)
            .map(|(_, m)| m.clone())
            .collect();
        let tables = tables(&mine);
        assert_eq!(tables.len(), 1, "{name}: {mine:#?}");
        let (game, seat, pdn, connected) = &tables[0];
        assert_eq!((*game, *seat, *connected), (1, Some(side), true));
        assert!(pdn.contains("[Black \"alice\"]"), "{pdn}");
    }
    bench.ask(
        "alice",
        ClientMessage::Play {
            text: "11-15".to_string(),
        },
    );
    let told = bench.told();
    for name in ["alice", "bob"] {
        let mine: Vec<ServerMessage> = told
            .iter()
            .filter(|(to, _)| to == name)
            .map(|(_, m)| m.clone())
            .collect();
        let tables = tables(&mine);
        assert_eq!(tables.len(), 1, "{name}: {mine:#?}");
        assert!(tables[0].2.contains("11-15"), "{name}: {}", tables[0].2);
    }
}

#[test]
fn a_client_without_a_board_is_not_told_tables_and_one_that_asks_is_told_its_game_now() {
    let mut bench = Bench::new();
    bench.game(false);
    bench.ask(
        "alice",
        ClientMessage::Play {
            text: "11-15".to_string(),
        },
    );
    assert!(tables(&bench.told_to("bob")).is_empty());
    bench.ask("bob", ClientMessage::Board);
    let tables = tables(&bench.told_to("bob"));
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].1, Some(Side::White));
    assert!(tables[0].2.contains("11-15"));
}

#[test]
fn the_lobby_lists_are_cut_and_say_how_many_more_there_are() {
    let mut bench = Bench::new();
    let crowd = super::protocol::LOBBY_LIST + 3;
    for i in 0..crowd {
        bench.log_in(&format!("p{i:03}"), false);
    }
    bench.told();
    bench.ask("p000", ClientMessage::Lobby);
    let told = bench.told_to("p000");
    let Some(ServerMessage::Lobby {
        players,
        seeks,
        games,
        more,
    }) = told.last()
    else {
        panic!("no lobby: {told:#?}");
    };
    assert_eq!(players.len(), super::protocol::LOBBY_LIST);
    assert_eq!(*more, [3, 0, 0]);
    assert!(seeks.is_empty() && games.is_empty());
    // The client says the rest as "and N more".
    let theme = crate::tui::Theme::new(false, false);
    let mut screen = crate::tui::lobby::LobbyScreen::new("p000", "here:1", theme);
    screen.heard(told.last().unwrap().clone());
    let drawn = crate::tui::tests::drawn_text(80, 24, |area, buf| {
        ratatui::widgets::Widget::render(&screen, area, buf);
    });
    assert!(drawn.contains("and 3 more"), "{drawn}");
}

#[test]
fn games_left_waiting_cannot_push_ones_own_game_or_the_games_in_play_off_the_list() {
    let mut bench = Bench::new();
    // A crowd of games whose players both left: adjourned, kept for days.
    let crowd = super::protocol::LOBBY_LIST + 5;
    for i in 0..crowd {
        let (black, white) = (format!("b{i:03}"), format!("w{i:03}"));
        bench.log_in(&black, false);
        bench.log_in(&white, false);
        bench.ask(&black, casual_seek_as_black());
        // Seeks are numbered from 1, each taken here as it is posted.
        let number = i as u64 + 1;
        bench.ask(&white, ClientMessage::Accept { number });
        bench.lobby.leave(&black, bench.conn - 1);
        bench.lobby.leave(&white, bench.conn);
    }
    // Then one real game, and a spectator.
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.ask("alice", casual_seek_as_black());
    let number = crowd as u64 + 1;
    bench.ask("bob", ClientMessage::Accept { number });
    bench.log_in("carol", false);
    bench.told();
    for viewer in ["carol", "alice"] {
        bench.ask(viewer, ClientMessage::Lobby);
        let told = bench.told_to(viewer);
        let Some(ServerMessage::Lobby { games, more, .. }) = told.last() else {
            panic!("no lobby: {told:#?}");
        };
        assert_eq!(games[0].black, "alice", "{viewer}: {:?}", &games[..2]);
        assert!(!games[0].adjourned);
        assert!(games[1..].iter().all(|g| g.adjourned));
        assert_eq!(more[2], 6);
    }
    bench.ask("carol", ClientMessage::Games);
    let words = words(&bench.told_to("carol"));
    let lines: Vec<&str> = words[0].lines().collect();
    assert!(lines[1].contains("alice - bob") && !lines[1].contains("adjourned"));
    assert!(
        lines[2].ends_with("moves played, adjourned"),
        "{}",
        words[0]
    );
}

#[test]
fn who_and_games_list_a_crowd_in_part_and_say_how_many_more() {
    let mut bench = Bench::new();
    // 203 games in play: 406 players, each pair by a seek taken.
    for i in 0..203 {
        let (black, white) = (format!("b{i:03}"), format!("w{i:03}"));
        bench.log_in(&black, false);
        bench.log_in(&white, false);
        bench.ask(&black, casual_seek_as_black());
        bench.ask(&white, ClientMessage::Accept { number: i + 1 });
    }
    bench.told();
    bench.ask("b000", ClientMessage::Who);
    bench.ask("b000", ClientMessage::Games);
    let said = words(&bench.told_to("b000"));
    let [who, games] = &said[..] else {
        panic!("two answers: {said:#?}");
    };
    assert!(who.starts_with("406 online:"), "{who}");
    assert_eq!(
        who.lines().filter(|l| l.contains("playing game")).count(),
        200
    );
    assert!(who.ends_with("... and 206 more"), "{who}");
    assert_eq!(
        games.lines().filter(|l| l.contains("moves played")).count(),
        200
    );
    assert!(games.ends_with("... and 3 more"), "{games}");
}

#[test]
fn a_tables_chat_carries_so_many_lines_at_a_time_whoever_says_them() {
    let mut bench = Bench::new();
    bench.game(false);
    for i in 0..5 {
        let name = format!("fan{i}");
        bench.watch(&name, 1, false);
    }
    bench.told();
    let start = Instant::now();
    let say = |i: usize| ClientMessage::Say {
        text: format!("line {i}"),
    };
    // Twenty lines among the five spectators: each goes to all seven at the table.
    for i in 0..20 {
        bench.ask_at(&format!("fan{}", i % 5), say(i), start);
    }
    let heard = |told: &[(String, ServerMessage)]| {
        told.iter()
            .filter(|(_, m)| matches!(m, ServerMessage::Said { .. }))
            .count()
    };
    assert_eq!(heard(&bench.told()), 20 * 7);
    // The next, by a player, is refused while the window is full, and heard by no one.
    bench.ask_at("alice", say(20), start + Duration::from_secs(9));
    let told = bench.told();
    assert_eq!(heard(&told), 0);
    let refused: Vec<_> = told.iter().filter(|(to, _)| to == "alice").collect();
    assert!(
        matches!(&refused[..], [(_, ServerMessage::Rejected { reason })] if reason.contains("chat is busy")),
        "{refused:#?}"
    );
    // Once the first lines are ten seconds old, the table talks again.
    bench.ask_at("alice", say(21), start + Duration::from_secs(10));
    assert_eq!(heard(&bench.told()), 7);
}

#[test]
fn a_player_who_leaves_the_board_for_the_lobby_cannot_stop_the_clocks() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.ask("bob", ClientMessage::Adjourn);
    let told = bench.told();
    let to = |name: &str| -> Vec<ServerMessage> {
        told.iter()
            .filter(|(to, _)| to == name)
            .map(|(_, m)| m.clone())
            .collect()
    };
    // bob is in the lobby: not shown the board; alice's board says bob is away, and
    // the game goes on.
    assert!(tables(&to("bob")).is_empty(), "{:#?}", to("bob"));
    assert!(words(&to("bob"))[0].contains("Game 1 goes on, your clock running"));
    assert!(!tables(&to("alice"))[0].3);
    assert!(words(&to("alice"))[0].contains("bob went to the lobby: game 1 goes on"));
    bench.ask(
        "alice",
        ClientMessage::Play {
            text: "11-15".to_string(),
        },
    );
    assert!(tables(&bench.told_to("alice"))[0].2.contains("11-15"));
    // bob's clock runs while he is away; he plays only from the board.
    bench.ask(
        "bob",
        ClientMessage::Play {
            text: "22-18".to_string(),
        },
    );
    assert!(words(&bench.told_to("bob"))[0].contains("refused: you left game 1: resume"));
    bench.ask("bob", ClientMessage::Adjourn);
    let told = bench.told();
    assert_eq!(told.len(), 1, "{told:#?}");
    assert!(
        matches!(&told[0], (to, ServerMessage::Rejected { reason }) if to == "bob" && reason.contains("left game 1 already"))
    );
    // Left alone at a running clock, bob's time runs out: he loses on time.
    let later = Instant::now() + Duration::from_secs(301);
    bench.lobby.tick(later);
    let told = bench.told();
    assert!(
        told.iter().any(|(to, m)| to == "alice"
            && matches!(m, ServerMessage::Ended { result, .. } if result == "1-0")),
        "{told:#?}"
    );
}

#[test]
fn a_player_back_from_the_lobby_plays_on_at_once() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.ask("bob", ClientMessage::Adjourn);
    bench.ask(
        "alice",
        ClientMessage::Play {
            text: "11-15".to_string(),
        },
    );
    bench.told();
    bench.ask("bob", ClientMessage::Resume);
    let told = bench.told();
    let bob: Vec<ServerMessage> = told
        .iter()
        .filter(|(to, _)| to == "bob")
        .map(|(_, m)| m.clone())
        .collect();
    assert!(
        bob.iter().any(
            |m| matches!(m, ServerMessage::Started { game: 1, moves, .. } if moves == &["11-15"])
        ),
        "{bob:#?}"
    );
    assert!(tables(&bob).iter().any(|t| t.3), "{bob:#?}");
    assert!(told.iter().any(|(to, m)| to == "alice"
        && matches!(m, ServerMessage::Info { text } if text.contains("bob is back at game 1"))));
    bench.ask(
        "bob",
        ClientMessage::Play {
            text: "22-18".to_string(),
        },
    );
    assert!(tables(&bench.told_to("alice"))[0].2.contains("22-18"));
}

#[test]
fn an_adjourned_game_goes_on_once_one_player_has_waited_at_it_for_two_minutes() {
    let mut bench = Bench::new();
    bench.game(true);
    // bob steps into the lobby; alice, to move, follows at once: adjourned.
    bench.ask("bob", ClientMessage::Adjourn);
    bench.ask("alice", ClientMessage::Adjourn);
    bench.ask("bob", ClientMessage::Resume);
    let bob = words(&bench.told_to("bob"));
    assert!(
        bob.iter()
            .any(|w| w.contains("Game 1 waits for alice: in 2 minutes it goes on")),
        "{bob:#?}"
    );
    // alice stays away: her clock is stopped for two minutes at most.
    let start = Instant::now();
    bench.lobby.tick(start);
    bench.lobby.tick(start + Duration::from_secs(119));
    assert!(bench.told_to("bob").is_empty());
    bench.lobby.tick(start + Duration::from_secs(120));
    let told = bench.told();
    assert!(
        told.iter()
            .any(|(to, m)| to == "bob" && matches!(m, ServerMessage::Started { game: 1, .. })),
        "{told:#?}"
    );
    assert!(told.iter().any(|(to, m)| to == "alice"
        && matches!(m, ServerMessage::Info { text } if text.contains("your clock running"))));
    bench.lobby.tick(start + Duration::from_secs(120 + 301));
    assert!(
        bench
            .told_to("bob")
            .iter()
            .any(|m| matches!(m, ServerMessage::Ended { result, .. } if result == "0-1"))
    );
}

#[test]
fn a_player_whose_line_drops_keeps_the_game_going_and_loses_on_time() {
    let mut bench = Bench::new();
    bench.rated_game();
    for (name, m) in [("alice", "11-15"), ("bob", "22-18"), ("alice", "15x22")] {
        bench.ask(
            name,
            ClientMessage::Play {
                text: m.to_string(),
            },
        );
    }
    bench.told();
    // bob (to move) cuts his line: the game is not adjourned, his clock runs.
    bench.lobby.leave("bob", 2);
    let alice = words(&bench.told_to("alice"));
    assert!(
        alice[0].contains("bob left: game 1 goes on, the clocks running"),
        "{alice:#?}"
    );
    bench.lobby.tick(Instant::now() + Duration::from_secs(301));
    let told = bench.told_to("alice");
    assert!(
        told.iter().any(
            |m| matches!(m, ServerMessage::Ended { result, ratings: Some(r), .. }
            if result == "1-0" && r.contains("alice 1500 ->") && !r.contains("alice 1500 -> 1500"))
        ),
        "{told:#?}"
    );
}

#[test]
fn a_game_over_before_both_sides_moved_changes_no_rating() {
    let mut bench = Bench::new();
    bench.rated_game();
    bench.told();
    bench.ask("bob", ClientMessage::Resign);
    let told = bench.told_to("alice");
    assert!(
        told.iter().any(
            |m| matches!(m, ServerMessage::Ended { ratings: Some(r), .. }
            if r.contains("none changed"))
        ),
        "{told:#?}"
    );
}

#[test]
fn ones_own_invite_code_forgives_no_wrong_codes() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.ask(
        "alice",
        ClientMessage::Invite {
            clock: "5+0".to_string(),
            rated: false,
            side: None,
            ballot: false,
        },
    );
    let told = words(&bench.told_to("alice"));
    let code = told[0].rsplit("join ").next().unwrap().to_string();
    for _ in 0..3 {
        bench.ask(
            "alice",
            ClientMessage::Join {
                code: "ZZZZ-ZZZZ-ZZZZ".to_string(),
            },
        );
    }
    bench.told();
    bench.ask("alice", ClientMessage::Join { code });
    assert!(words(&bench.told_to("alice"))[0].contains("is your own"));
    // The wrong codes still count: the next code waits.
    bench.ask(
        "alice",
        ClientMessage::Join {
            code: "ZZZZ-ZZZZ-ZZZY".to_string(),
        },
    );
    let told = words(&bench.told_to("alice"));
    assert!(told[0].contains("looked at in"), "{told:#?}");
}

#[test]
fn an_address_makes_ten_new_names_an_hour() {
    let mut bench = Bench::new();
    let (here, there) = (
        std::net::IpAddr::from([10, 0, 0, 1]),
        std::net::IpAddr::from([10, 0, 0, 2]),
    );
    let now = Instant::now();
    // Each name let through is counted at once (logins sent together cannot all
    // pass), and given back when the login made none.
    for _ in 0..10 {
        assert!(bench.lobby.may_make_name(here, now));
    }
    assert!(!bench.lobby.may_make_name(here, now));
    bench.lobby.no_name_made(here);
    assert!(bench.lobby.may_make_name(here, now));
    assert!(!bench.lobby.may_make_name(here, now));
    assert!(bench.lobby.may_make_name(there, now));
    assert!(
        bench
            .lobby
            .may_make_name(here, now + Duration::from_secs(3601))
    );
}

#[test]
fn both_away_in_the_lobby_the_game_goes_on_once_both_resume() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.ask("alice", ClientMessage::Adjourn);
    bench.ask("bob", ClientMessage::Adjourn);
    bench.told();
    bench.ask("alice", ClientMessage::Resume);
    let told = bench.told();
    let alice: Vec<ServerMessage> = told
        .iter()
        .filter(|(to, _)| to == "alice")
        .map(|(_, m)| m.clone())
        .collect();
    // alice's board waits for bob, who is told alice is back.
    assert!(
        words(&alice)[0].contains("Game 1 waits for bob: in 2 minutes it goes on"),
        "{alice:#?}"
    );
    assert_eq!(tables(&alice).len(), 1);
    assert!(!tables(&alice)[0].3);
    assert!(told.iter().any(|(to, m)| to == "bob"
        && matches!(m, ServerMessage::Info { text } if text.contains("alice is back at game 1"))));
    assert!(
        !told
            .iter()
            .any(|(to, m)| to == "bob" && matches!(m, ServerMessage::Table { .. }))
    );
    bench.ask("bob", ClientMessage::Resume);
    let told = bench.told();
    assert_eq!(
        told.iter()
            .filter(|(_, m)| matches!(m, ServerMessage::Started { .. }))
            .count(),
        2,
        "{told:#?}"
    );
}

#[test]
fn a_spectator_cannot_adjourn_a_game_nor_anyone_one_that_is_over() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.watch("carol", 1, true);
    bench.told();
    bench.ask("carol", ClientMessage::Adjourn);
    let told = bench.told();
    assert_eq!(told.len(), 1, "{told:#?}");
    assert!(words(&[told[0].1.clone()])[0].contains("only its players adjourn it"));
    // Nor is resuming a game one does not play.
    bench.ask("carol", ClientMessage::Resume);
    assert!(words(&bench.told_to("carol"))[0].contains("no game to resume"));
    bench.ask("alice", ClientMessage::Resign);
    bench.told();
    for name in ["alice", "bob"] {
        bench.ask(name, ClientMessage::Adjourn);
        let told = bench.told();
        assert_eq!(told.len(), 1, "{told:#?}");
        assert!(words(&[told[0].1.clone()])[0].contains("not playing a game"));
    }
}

#[test]
fn a_player_who_adjourned_and_logs_in_again_is_back_at_the_game() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.ask("bob", ClientMessage::Adjourn);
    bench.lobby.leave("bob", 2);
    bench.told();
    bench.log_in("bob", true);
    let told = bench.told();
    assert!(
        told.iter()
            .any(|(to, m)| to == "bob" && matches!(m, ServerMessage::Started { game: 1, .. })),
        "{told:#?}"
    );
}

#[test]
fn a_spectators_board_is_told_the_game_waits_when_a_player_adjourns() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.watch("carol", 1, true);
    bench.told();
    bench.ask("bob", ClientMessage::Adjourn);
    let tables = tables(&bench.told_to("carol"));
    assert_eq!(tables.len(), 1, "{tables:#?}");
    assert_eq!((tables[0].0, tables[0].1, tables[0].3), (1, None, false));
}
