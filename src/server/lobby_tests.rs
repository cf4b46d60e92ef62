//! The server's [`Lobby`] without the network: players entered by hand, what it
//! posts read straight from its outbox (no postman, so nothing waits on the disk).

use super::lobby::{Lobby, Settings};
use super::outbox::{Outbox, Post, Posts};
use super::protocol::{ClientMessage, ServerMessage, Side};
use super::store::Store;
use std::time::{Duration, Instant};

/// A lobby on a database of its own, and what it posts.
struct Bench {
    /// The lobby.
    lobby: Lobby,
    /// What it posts, in order.
    posts: Posts,
    /// The database's folder, kept while the lobby lives.
    dir: tempfile::TempDir,
    /// The next connection's number.
    conn: u64,
}

impl Bench {
    /// An empty lobby.
    fn new() -> Bench {
        Bench::adjourned_for(Duration::from_secs(86_400))
    }

    /// An empty lobby whose adjourned games wait `wait` for their players.
    fn adjourned_for(wait: Duration) -> Bench {
        let dir = tempfile::tempdir().unwrap();
        let (lobby, posts, restored) = open_waiting(&dir, wait);
        assert_eq!(restored, 0);
        Bench {
            lobby,
            posts,
            dir,
            conn: 0,
        }
    }

    /// The server stops (every write asked done first, as it waits for them) and starts
    /// again on the same database: how many games it took back.
    fn restart(&mut self) -> usize {
        self.lobby.store().ask_now(|_| ()).unwrap();
        let (lobby, posts, restored) = open(&self.dir);
        self.lobby = lobby;
        self.posts = posts;
        restored
    }

    /// Runs `job` on the database, after every write asked before it.
    fn db<T: Send + 'static>(
        &self,
        job: impl FnOnce(&mut super::db::Db) -> T + Send + 'static,
    ) -> T {
        self.lobby.store().ask_now(job).unwrap()
    }

    /// `name` logs in (their player row made on the first time), their client
    /// showing a board when `board`.
    fn log_in(&mut self, name: &str, board: bool) {
        self.log_in_with(name, board, None);
    }

    /// `name` logs in as [`log_in`](Self::log_in) does, with `rated_games` rated games
    /// behind them if given (else as many as the database holds).
    fn log_in_with(&mut self, name: &str, board: bool, rated_games: Option<u32>) {
        self.log_in_keyed(name, name, board, rated_games);
    }

    /// `name` logs in as [`log_in_with`](Self::log_in_with) does, with the key `key`
    /// (one person's second name has their first name's key).
    fn log_in_keyed(&mut self, name: &str, key: &str, board: bool, rated_games: Option<u32>) {
        let (who, key) = (name.to_string(), key.to_string());
        let claimed = self
            .lobby
            .store()
            .ask_now(move |db| db.claim(&who, key.as_bytes(), 0, true))
            .unwrap()
            .unwrap();
        let super::db::Claim::Player(mut player, _) = claimed else {
            panic!("{name} could not log in: {claimed:?}");
        };
        if let Some(games) = rated_games {
            player.rated_games = games;
        }
        self.conn += 1;
        // Nothing is delivered here: the queue only has to exist.
        let (out, _) = tokio::sync::mpsc::channel(8);
        let address = std::net::IpAddr::from([127, 0, 0, 1]);
        self.lobby.enter(name, &player, (self.conn, address), out);
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
            match post {
                Post::Message { to, message } => told.push((to.name, message)),
                // A database's answer the lobby acts on, as the postman does: what it
                // posts comes next in line.
                Post::Apply(answer) => {
                    if let Ok(apply) = answer.blocking_recv() {
                        apply(&mut self.lobby);
                    }
                }
                _ => {}
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

/// A lobby on the database in `dir`: it, what it posts, and the games it took back.
fn open(dir: &tempfile::TempDir) -> (Lobby, Posts, usize) {
    open_waiting(dir, Duration::from_secs(86_400))
}

/// As [`open`], its adjourned games waiting `wait` for their players.
fn open_waiting(dir: &tempfile::TempDir, wait: Duration) -> (Lobby, Posts, usize) {
    let store = Store::open(&dir.path().join("server.sqlite")).unwrap();
    let (outbox, posts) = Outbox::new();
    let settings = Settings {
        site: "test".to_string(),
        adjourned_for: wait,
        table_chat: super::Limits::DEFAULT.table_chat as usize,
    };
    let (lobby, restored) = Lobby::open(store, outbox, settings, Instant::now()).unwrap();
    (lobby, posts, restored)
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
    // Twenty lines: ten among the five spectators, five of each player's: each goes to
    // all seven at the table.
    for i in 0..10 {
        bench.ask_at(&format!("fan{}", i % 5), say(i), start);
    }
    for i in 10..20 {
        bench.ask_at(["alice", "bob"][i % 2], say(i), start);
    }
    let heard = |told: &[(String, ServerMessage)]| {
        told.iter()
            .filter(|(_, m)| matches!(m, ServerMessage::Said { .. }))
            .count()
    };
    assert_eq!(heard(&bench.told()), 20 * 7);
    // The next, by anyone, is refused while the window is full, and heard by no one.
    for name in ["alice", "fan4"] {
        bench.ask_at(name, say(20), start + Duration::from_secs(9));
        let told = bench.told();
        assert_eq!(heard(&told), 0);
        let refused: Vec<_> = told.iter().filter(|(to, _)| to == name).collect();
        assert!(
            matches!(&refused[..], [(_, ServerMessage::Rejected { reason })] if reason.contains("share")),
            "{refused:#?}"
        );
    }
    // Once the first lines are ten seconds old, the table talks again.
    bench.ask_at("fan0", say(21), start + Duration::from_secs(10));
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
    // On alice's move: hers runs, then bob's (it said "your clock running" to bob).
    assert!(
        words(&to("bob"))[0].contains("Game 1 goes on, your opponent's clock running, then yours")
    );
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
        alice[0].contains("bob left: game 1 goes on; if bob's time runs out, bob loses."),
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

/// The two minutes one player waits at an adjourned game start afresh at each
/// adjournment: a wait begun before both came back is not carried into the next one
/// (lines that drop and logins come between the lobby's ticks).
#[test]
fn a_second_adjournment_waits_its_own_two_minutes() {
    let mut bench = Bench::new();
    bench.game(true);
    let (alice, bob) = (bench.conn - 1, bench.conn);
    bench.lobby.leave("alice", alice);
    bench.lobby.leave("bob", bob);
    bench.log_in("bob", false);
    let bob = bench.conn;
    // bob waits alone, then alice is back: the game goes on.
    let start = Instant::now();
    bench.lobby.tick(start);
    bench.log_in("alice", false);
    let alice = bench.conn;
    // Both lines drop and bob is back before the next tick: adjourned again. (Logins
    // without a board: a board's request would tick the lobby.)
    bench.lobby.leave("alice", alice);
    bench.lobby.leave("bob", bob);
    bench.log_in("bob", false);
    bench.told();
    // Three minutes after the first wait began, at the start of this one.
    bench.lobby.tick(start + Duration::from_secs(180));
    let told = bench.told();
    assert!(
        !told
            .iter()
            .any(|(_, m)| matches!(m, ServerMessage::Started { .. })),
        "went on without alice at once: {told:#?}"
    );
    bench.lobby.tick(start + Duration::from_secs(180 + 120));
    assert!(
        bench
            .told_to("bob")
            .iter()
            .any(|m| matches!(m, ServerMessage::Started { game: 1, .. }))
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

/// A 5+0 rated seek, its poster to play Black.
fn rated_seek_as_black() -> ClientMessage {
    let mut seek = casual_seek_as_black();
    if let ClientMessage::Seek { rated, .. } = &mut seek {
        *rated = true;
    }
    seek
}

/// The number of the seek that `told` (its poster's messages) says was posted.
fn posted(told: &[ServerMessage]) -> u64 {
    words(told)
        .iter()
        .find_map(|w| w.strip_prefix("Seek ")?.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("no seek posted: {told:#?}"))
}

/// The rating changes the end of a game said to `name` among `told`.
fn ratings_told(told: &[(String, ServerMessage)], name: &str) -> Option<String> {
    told.iter()
        .find_map(|(to, m)| match m {
            ServerMessage::Ended { ratings, .. } if to == name => Some(ratings.clone()),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no end told to {name}: {told:#?}"))
}

impl Bench {
    /// `black` posts a 5+0 seek, rated or not, as Black, `white` takes it, each plays a
    /// move and `white` resigns: what everyone was told from the seek on.
    fn short_game(
        &mut self,
        (black, white): (&str, &str),
        rated: bool,
    ) -> Vec<(String, ServerMessage)> {
        self.told();
        let seek = if rated {
            rated_seek_as_black()
        } else {
            casual_seek_as_black()
        };
        self.ask(black, seek);
        let mut told = self.told();
        let number = posted(
            &told
                .iter()
                .filter(|(to, _)| to == black)
                .map(|(_, m)| m.clone())
                .collect::<Vec<_>>(),
        );
        self.ask(white, ClientMessage::Accept { number });
        for (name, m) in [(black, "11-15"), (white, "22-18")] {
            let text = m.to_string();
            self.ask(name, ClientMessage::Play { text });
        }
        self.ask(white, ClientMessage::Resign);
        told.extend(self.told());
        told
    }

    /// The clocks (Black's, White's ms left) of the last table told to `name` since the
    /// last read.
    fn clocks_told(&mut self, name: &str) -> [u64; 2] {
        let told = self.told_to(name);
        told.iter()
            .rev()
            .find_map(|m| match m {
                ServerMessage::Table { state, .. } => state.clocks,
                _ => None,
            })
            .unwrap_or_else(|| panic!("no table: {told:#?}"))
    }

    /// The rated games that changed `name`'s rating, as the database holds them.
    fn rated_games(&self, name: &str) -> u32 {
        let name = name.to_string();
        self.db(move |db| db.player(&name).unwrap().unwrap().rated_games)
    }
}

#[test]
fn two_names_have_three_rated_games_a_day_that_change_ratings_then_play_unrated() {
    let mut bench = Bench::new();
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    for _ in 0..super::lobby::RATED_PER_PAIR {
        let told = bench.short_game(("alice", "bob"), true);
        let ratings = ratings_told(&told, "alice").unwrap();
        assert!(!ratings.contains("none changed"), "{ratings}");
    }
    // The next rated seek of alice's is unrated for bob: he sees so before he takes it,
    // and both are told so as it starts.
    bench.ask("alice", rated_seek_as_black());
    let number = posted(&bench.told_to("alice"));
    bench.ask("bob", ClientMessage::Seeks);
    let listed = words(&bench.told_to("bob")).join("\n");
    assert!(
        listed.contains(
            "5+0 rated (unrated for you: alice and bob have played 3 rated games in 24 hours)"
        ),
        "{listed}"
    );
    for (viewer, rated) in [("bob", false), ("alice", true)] {
        bench.ask(viewer, ClientMessage::Lobby);
        let told = bench.told_to(viewer);
        let Some(ServerMessage::Lobby { seeks, .. }) = told.last() else {
            panic!("no lobby: {told:#?}");
        };
        assert_eq!(seeks[0].rated, rated, "{viewer}: {seeks:#?}");
    }
    bench.ask("bob", ClientMessage::Accept { number });
    let told = bench.told();
    for name in ["alice", "bob"] {
        assert!(
            told.iter()
                .any(|(to, m)| to == name
                    && matches!(m, ServerMessage::Started { rated: false, .. })),
            "{told:#?}"
        );
        assert!(
            told.iter().any(|(to, m)| to == name
                && matches!(m, ServerMessage::Info { text } if text.starts_with(
                    "Game 4 is played unrated: alice and bob have played 3 rated games in 24 hours"
                ))),
            "{told:#?}"
        );
    }
    // Played and recorded, changing no rating.
    for (name, m) in [("alice", "11-15"), ("bob", "22-18")] {
        let text = m.to_string();
        bench.ask(name, ClientMessage::Play { text });
    }
    bench.ask("bob", ClientMessage::Resign);
    let told = bench.told();
    assert_eq!(
        ratings_told(&told, "bob").as_deref(),
        Some("none changed, as alice and bob have played 3 rated games in 24 hours")
    );
    assert_eq!(
        [bench.rated_games("alice"), bench.rated_games("bob")],
        [3, 3]
    );
    assert_eq!(bench.db(|db| db.record(1).unwrap()), [4, 0, 0, 0]);
    // A challenge says so too, to both; a rematch offer as well.
    bench.ask(
        "alice",
        ClientMessage::Challenge {
            name: "bob".to_string(),
            clock: "5+0".to_string(),
            rated: true,
            side: None,
            ballot: false,
        },
    );
    let told = bench.told();
    for name in ["alice", "bob"] {
        assert!(
            told.iter().any(|(to, m)| to == name
                && matches!(m, ServerMessage::Info { text } if text.ends_with(
                    "It would be played unrated: alice and bob have played 3 rated games in 24 hours."
                ))),
            "{told:#?}"
        );
    }
    // Another pair's games change ratings still.
    bench.log_in("carol", true);
    let told = bench.short_game(("carol", "alice"), true);
    let ratings = ratings_told(&told, "carol").unwrap();
    assert!(ratings.contains("carol 1500 -> "), "{ratings}");
}

#[test]
fn the_rated_games_two_names_had_today_still_count_after_a_restart() {
    let mut bench = Bench::new();
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    for _ in 0..super::lobby::RATED_PER_PAIR {
        bench.short_game(("alice", "bob"), true);
    }
    assert_eq!(bench.restart(), 0);
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    let told = bench.short_game(("alice", "bob"), true);
    assert_eq!(
        ratings_told(&told, "alice").as_deref(),
        Some("none changed, as alice and bob have played 3 rated games in 24 hours")
    );
    // A day on, those games count no more.
    bench.db(|db| db.age_games_for_test(86_401).unwrap());
    assert_eq!(bench.restart(), 0);
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    let told = bench.short_game(("alice", "bob"), true);
    let ratings = ratings_told(&told, "alice").unwrap();
    assert!(!ratings.contains("none changed"), "{ratings}");
    assert_eq!(bench.rated_games("alice"), 4);
}

#[test]
fn a_new_names_result_moves_an_established_players_rating_a_little_its_own_in_full() {
    let established = super::lobby::PROVISIONAL_GAMES;
    let mut bench = Bench::new();
    bench.log_in_with("vet", true, Some(established));
    bench.log_in_with("newbie", true, Some(0));
    let told = bench.short_game(("vet", "newbie"), true);
    let ratings = ratings_told(&told, "vet").unwrap();
    assert!(
        ratings.starts_with("vet 1500 -> 1500, newbie 1500 -> 1"),
        "{ratings}"
    );
    assert!(!ratings.ends_with("newbie 1500 -> 1500"), "{ratings}");
    // Two of the same strength, both established or both new, move as Glicko-2 says.
    bench.log_in_with("old", true, Some(established));
    bench.log_in_with("older", true, Some(established + 5));
    let told = bench.short_game(("old", "older"), true);
    let ratings = ratings_told(&told, "old").unwrap();
    assert!(!ratings.starts_with("old 1500 -> 1500"), "{ratings}");
}

#[test]
fn a_game_taken_back_after_a_restart_keeps_each_clock_to_the_millisecond() {
    let mut bench = Bench::new();
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    let start = Instant::now();
    bench.ask_at("alice", casual_seek_as_black(), start);
    bench.ask_at("bob", ClientMessage::Accept { number: 1 }, start);
    let ms = Duration::from_millis;
    for (name, m, at) in [("alice", "11-15", 1234), ("bob", "22-18", 1234 + 2345)] {
        let text = m.to_string();
        bench.ask_at(name, ClientMessage::Play { text }, start + ms(at));
    }
    assert_eq!(bench.clocks_told("alice"), [300_000 - 1234, 300_000 - 2345]);
    assert_eq!(bench.restart(), 1);
    bench.log_in("alice", true);
    assert_eq!(bench.clocks_told("alice"), [300_000 - 1234, 300_000 - 2345]);
    // A row stored before the milliseconds were (its columns empty) is read from its
    // record, in tenths.
    bench.db(|db| db.forget_clocks_for_test(1).unwrap());
    assert_eq!(bench.restart(), 1);
    bench.log_in("alice", true);
    assert_eq!(bench.clocks_told("alice"), [298_700, 297_600]);
}

/// alice (Black) and bob in a casual game of 5 minutes each begun at the instant
/// returned, alice playing 11-15 at 1,234 ms and bob 22-18 at 3,579 ms.
fn two_timed_moves(bench: &mut Bench) -> Instant {
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    let start = Instant::now();
    bench.ask_at("alice", casual_seek_as_black(), start);
    bench.ask_at("bob", ClientMessage::Accept { number: 1 }, start);
    for (name, m, at) in [("alice", "11-15", 1234), ("bob", "22-18", 3579)] {
        let text = m.to_string();
        bench.ask_at(
            name,
            ClientMessage::Play { text },
            start + Duration::from_millis(at),
        );
    }
    start
}

/// An adjournment keeps the time the player to move thought before it: a restart
/// gives none of it back.
#[test]
fn an_adjournment_keeps_the_time_thought_before_it_across_a_restart() {
    let mut bench = Bench::new();
    let start = two_timed_moves(&mut bench);
    let ms = Duration::from_millis;
    // alice, to move, thinks 4,321 ms; bob is in the lobby meanwhile; then she goes
    // too, and the game is adjourned.
    bench.ask_at("bob", ClientMessage::Adjourn, start + ms(4000));
    bench.ask_at("alice", ClientMessage::Adjourn, start + ms(3579 + 4321));
    assert_eq!(bench.restart(), 1);
    bench.told();
    bench.log_in("alice", true);
    assert_eq!(
        bench.clocks_told("alice"),
        [300_000 - 1234 - 4321, 300_000 - 2345]
    );
}

/// A server stopped (SIGTERM) while a player thinks keeps the time thought: the next
/// start gives none of it back.
#[test]
fn a_stop_keeps_the_time_the_player_to_move_thought() {
    let mut bench = Bench::new();
    let start = two_timed_moves(&mut bench);
    let ms = Duration::from_millis;
    // alice, to move, thinks 4,321 ms, and the server stops.
    bench.told();
    bench.lobby.stop_all(start + ms(3579 + 4321));
    let told = bench.told_to("alice");
    assert!(
        matches!(told.last(), Some(ServerMessage::Refused { reason }) if reason.contains("stopping")),
        "{told:#?}"
    );
    assert_eq!(bench.restart(), 1);
    bench.log_in("alice", true);
    assert_eq!(
        bench.clocks_told("alice"),
        [300_000 - 1234 - 4321, 300_000 - 2345]
    );
}

/// A game played unrated for its players' rated games of the day, taken back after a
/// restart, ends saying why it changed no rating, as it would have without the restart.
#[test]
fn a_game_unrated_for_the_pairs_games_today_says_so_at_its_end_after_a_restart() {
    let mut bench = Bench::new();
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    for _ in 0..super::lobby::RATED_PER_PAIR {
        bench.short_game(("alice", "bob"), true);
    }
    bench.ask("alice", rated_seek_as_black());
    let number = posted(&bench.told_to("alice"));
    bench.ask("bob", ClientMessage::Accept { number });
    for (name, m) in [("alice", "11-15"), ("bob", "22-18")] {
        let text = m.to_string();
        bench.ask(name, ClientMessage::Play { text });
    }
    assert_eq!(bench.restart(), 1);
    bench.log_in("alice", true);
    bench.log_in("bob", true);
    bench.ask("bob", ClientMessage::Resign);
    let told = bench.told();
    assert_eq!(
        ratings_told(&told, "bob").as_deref(),
        Some("none changed, as alice and bob have played 3 rated games in 24 hours")
    );
}

#[test]
fn a_player_stepping_in_and_out_again_and_again_is_told_to_the_other_a_few_times() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.watch("carol", 1, true);
    bench.told();
    let start = Instant::now();
    let at = |ms: u64| start + Duration::from_millis(ms);
    // Fifty trips to the lobby and back within five seconds.
    for i in 0..50 {
        bench.ask_at("bob", ClientMessage::Adjourn, at(i * 100));
        bench.ask_at("bob", ClientMessage::Resume, at(i * 100 + 50));
    }
    let told = bench.told();
    let heard = |name: &str| -> Vec<ServerMessage> {
        told.iter()
            .filter(|(to, _)| to == name)
            .map(|(_, m)| m.clone())
            .collect()
    };
    let alice = heard("alice");
    assert_eq!(
        words(&alice),
        [
            "bob went to the lobby: game 1 goes on, the clocks running.",
            "bob is back at game 1."
        ],
        "{alice:#?}"
    );
    let tables_told = tables(&alice);
    assert_eq!(tables_told.len(), 2, "{alice:#?}");
    assert!(tables_told[1].3, "bob is shown back: {tables_told:#?}");
    assert_eq!(tables(&heard("carol")).len(), 2);
    // Back as he was last told: nothing is owed.
    bench.lobby.tick(at(10_000));
    assert!(bench.told_to("alice").is_empty());
    // Out and back once more, then out again within the interval: that last is told
    // once the interval has passed, as he is then.
    bench.ask_at("bob", ClientMessage::Adjourn, at(10_100));
    bench.ask_at("bob", ClientMessage::Resume, at(10_200));
    bench.ask_at("bob", ClientMessage::Adjourn, at(10_300));
    assert_eq!(
        words(&bench.told_to("alice")),
        [
            "bob went to the lobby: game 1 goes on, the clocks running.",
            "bob is back at game 1."
        ]
    );
    bench.lobby.tick(at(15_000));
    assert!(bench.told_to("alice").is_empty());
    bench.lobby.tick(at(15_100));
    let alice = bench.told_to("alice");
    assert_eq!(
        words(&alice),
        ["bob went to the lobby: game 1 goes on, the clocks running."],
        "{alice:#?}"
    );
    assert!(!tables(&alice)[0].3, "{alice:#?}");
    // His line dropping is news of another kind: told at once.
    bench.lobby.leave("bob", 2);
    let alice = bench.told_to("alice");
    assert_eq!(
        words(&alice),
        ["bob left: game 1 goes on; if bob's time runs out, bob loses."],
        "{alice:#?}"
    );
}

/// When game 1 waits adjourned since, as the database holds it (unix seconds), and
/// whether it is still unfinished there.
fn stored_waiting_since(bench: &Bench) -> Option<u64> {
    bench
        .db(|db| db.unfinished().unwrap())
        .into_iter()
        .find(|g| g.id == 1)
        .and_then(|g| g.adjourned)
}

/// The days an adjourned game waits count only while the server runs: a server
/// stopped for weeks starts again with the game's days as they stood at the stop (the
/// hours it had waited before still counted), not abandoning it.
#[test]
fn the_time_a_stopped_server_is_down_does_not_count_against_an_adjourned_game() {
    let hour = 3600;
    let mut bench = Bench::new();
    bench.game(true);
    bench.ask("bob", ClientMessage::Adjourn);
    bench.ask("alice", ClientMessage::Adjourn);
    // It waits 20 of its 24 hours, then the server stops, and starts 20 days later.
    bench.db(move |db| db.age_server_for_test(20 * hour).unwrap());
    bench.lobby.stop_all(Instant::now());
    bench.db(move |db| db.age_server_for_test(20 * 24 * hour).unwrap());
    assert_eq!(bench.restart(), 1);
    bench.lobby.tick(Instant::now());
    let waited = crate::store::now_unix() - stored_waiting_since(&bench).expect("kept");
    assert!(
        (20 * hour..20 * hour + 60).contains(&(waited as i64)),
        "{waited}"
    );
    bench.log_in("alice", true);
    let alice = words(&bench.told_to("alice"));
    assert!(!alice.iter().any(|w| w.contains("abandoned")), "{alice:#?}");
}

/// A server killed (no stop said) counts its downtime from its last heartbeat, noted
/// every minute.
#[test]
fn the_time_a_killed_server_is_down_counts_from_its_last_heartbeat() {
    let hour = 3600;
    let mut bench = Bench::new();
    // It ran two hours, then game 1 is adjourned; a minute on, its heartbeat.
    bench.db(move |db| db.age_server_for_test(2 * hour).unwrap());
    bench.game(true);
    bench.ask("bob", ClientMessage::Adjourn);
    bench.ask("alice", ClientMessage::Adjourn);
    bench.lobby.tick(Instant::now() + Duration::from_secs(61));
    // Killed, and started 20 days later: the game waited only until the heartbeat.
    bench.db(move |db| db.age_server_for_test(20 * 24 * hour).unwrap());
    assert_eq!(bench.restart(), 1);
    bench.lobby.tick(Instant::now());
    let waited =
        crate::store::now_unix() as i64 - stored_waiting_since(&bench).expect("kept") as i64;
    assert!((0..60).contains(&waited), "{waited}");
}

/// A rematch offered tells the opponent how their client takes it: the full screen's
/// keys (`n` at its board, `m` and `d` in its lobby), plain mode's commands. A board
/// client was told "rematch accepts it, decline declines it", commands it has not.
#[test]
fn a_rematch_offered_says_the_keys_of_a_board_client_and_the_commands_of_a_plain_one() {
    for (board, taking) in [
        (
            true,
            "n on the board or m in the lobby accepts it, d in the lobby declines it.",
        ),
        (false, "rematch accepts it, decline declines it."),
    ] {
        let mut bench = Bench::new();
        bench.log_in("alice", false);
        bench.log_in("bob", board);
        bench.short_game(("alice", "bob"), false);
        bench.ask("alice", ClientMessage::Rematch);
        let told = bench.told_to("bob");
        assert!(
            told.iter().any(|m| matches!(m, ServerMessage::Info { text }
                if text.starts_with("alice offers a rematch") && text.ends_with(taking))),
            "{told:#?}"
        );
    }
}

/// A challenge tells the one challenged how their client takes it: the full screen's
/// lobby by Enter on it in its open seeks, plain mode by `accept N`.
#[test]
fn a_challenge_says_the_key_of_a_board_client_and_the_command_of_a_plain_one() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", true);
    bench.log_in("carol", false);
    let challenge = |name: &str| ClientMessage::Challenge {
        name: name.to_string(),
        clock: "5+0".to_string(),
        rated: false,
        side: None,
        ballot: false,
    };
    let _ = bench.told();
    bench.ask("alice", challenge("bob"));
    let told = bench.told_to("bob");
    assert!(
        told.iter().any(|m| matches!(m, ServerMessage::Info { text }
            if text.ends_with("challenges you to a 5+0 casual game: Enter on it in Open seeks takes it, x declines it."))),
        "{told:#?}"
    );
    bench.ask("alice", challenge("carol"));
    let told = bench.told_to("carol");
    assert!(
        told.iter().any(|m| matches!(m, ServerMessage::Info { text }
            if text.ends_with("challenges you to a 5+0 casual game: accept 2 takes it, decline 2 declines it."))),
        "{told:#?}"
    );
}

/// The seeks `name` sees in the lobby's list, by number.
fn listed_seeks(bench: &mut Bench, name: &str) -> Vec<u64> {
    let _ = bench.told();
    bench.ask(name, ClientMessage::Lobby);
    let told = bench.told_to(name);
    told.into_iter()
        .find_map(|m| match m {
            ServerMessage::Lobby { seeks, .. } => {
                Some(seeks.into_iter().map(|s| s.number).collect())
            }
            _ => None,
        })
        .expect("the lobby's lists")
}

/// Whether `to` was told, among `told`, a line (or a refusal) that says `words`.
fn was_told(told: &[(String, ServerMessage)], to: &str, words: &str) -> bool {
    told.iter().any(|(name, m)| {
        name == to
            && matches!(m, ServerMessage::Info { text } | ServerMessage::Rejected { reason: text }
                if text.contains(words))
    })
}

/// A seek posted by mistake is withdrawn without leaving the server, a challenge is
/// withdrawn by its challenger or declined by the one challenged (the other told
/// either way), and nobody else can take another's seek off the list.
#[test]
fn a_seek_is_withdrawn_and_a_challenge_withdrawn_or_declined_the_other_told() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.log_in("carol", false);
    let seek = ClientMessage::Seek {
        clock: "5+3".to_string(),
        rated: true,
        side: None,
        ballot: false,
    };
    let challenge = ClientMessage::Challenge {
        name: "bob".to_string(),
        clock: "5+0".to_string(),
        rated: false,
        side: None,
        ballot: false,
    };
    let _ = bench.told();
    bench.ask("alice", seek);
    let told = bench.told();
    assert!(
        was_told(&told, "alice", "(cancel 1 withdraws it)"),
        "{told:#?}"
    );
    assert_eq!(listed_seeks(&mut bench, "carol"), [1]);
    // Not carol's to withdraw.
    bench.ask("carol", ClientMessage::Cancel { number: 1 });
    let told = bench.told();
    assert!(
        was_told(&told, "carol", "neither yours nor a challenge to you"),
        "{told:#?}"
    );
    assert_eq!(listed_seeks(&mut bench, "carol"), [1]);
    bench.ask("alice", ClientMessage::Cancel { number: 1 });
    assert!(was_told(&bench.told(), "alice", "Seek 1 withdrawn."));
    assert!(listed_seeks(&mut bench, "carol").is_empty());

    // The challenged player declines: the challenger hears it.
    bench.ask("alice", challenge.clone());
    assert!(was_told(&bench.told(), "alice", "(cancel 2 withdraws it)"));
    assert_eq!(listed_seeks(&mut bench, "bob"), [2]);
    bench.ask("bob", ClientMessage::Cancel { number: 2 });
    let told = bench.told();
    assert!(was_told(&told, "bob", "You declined alice's challenge 2."));
    assert!(was_told(&told, "alice", "bob declined your challenge 2."));
    assert!(listed_seeks(&mut bench, "bob").is_empty());
    assert!(listed_seeks(&mut bench, "alice").is_empty());

    // The challenger withdraws: the one challenged hears it, and cannot take it.
    bench.ask("alice", challenge);
    bench.ask("alice", ClientMessage::Cancel { number: 3 });
    let told = bench.told();
    assert!(was_told(&told, "alice", "You withdrew challenge 3 to bob."));
    assert!(was_told(&told, "bob", "alice withdrew challenge 3."));
    bench.ask("bob", ClientMessage::Accept { number: 3 });
    assert!(was_told(&bench.told(), "bob", "no open seek 3"));
}

/// A line said at a table (a moderator's too) is heard without the characters that
/// would turn what follows around or move the cursor: the clients showed each as `?`.
#[test]
fn a_line_said_is_heard_without_text_direction_marks() {
    let mut bench = Bench::new();
    bench.game(false);
    bench.ask(
        "bob",
        ClientMessage::Say {
            text: "g\u{202e}g\u{2066} \u{200f}wp\u{2069}\u{7}".to_string(),
        },
    );
    let told = bench.told();
    let heard: Vec<&str> = told
        .iter()
        .filter_map(|(to, m)| match m {
            ServerMessage::Said { text, .. } if to == "alice" => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(heard, ["gg wp"], "{told:#?}");
}

/// After a game its two players still talk at its table ("good game"), a third player
/// hears none of it, and a speaker's share of the table's lines (5 of its 20 in ten
/// seconds) still holds.
#[test]
fn the_players_of_a_game_just_ended_still_talk_at_its_table() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", true);
    bench.log_in("carol", false);
    bench.short_game(("alice", "bob"), false);
    let say = |text: &str| ClientMessage::Say {
        text: text.to_string(),
    };
    bench.ask("bob", say("gg"));
    let told = bench.told();
    let heard = |to: &str| {
        told.iter().any(|(n, m)| {
            n == to
                && matches!(m, ServerMessage::Said { name, text } if name == "bob" && text == "gg")
        })
    };
    assert!(heard("alice") && heard("bob"), "{told:#?}");
    assert!(!told.iter().any(|(n, _)| n == "carol"), "{told:#?}");
    // A flood after the game meets the speaker's share as one during it does.
    let now = Instant::now();
    for i in 0..25 {
        bench.ask_at("alice", say(&format!("line {i}")), now);
    }
    let told = bench.told();
    let said = told
        .iter()
        .filter(|(n, m)| n == "bob" && matches!(m, ServerMessage::Said { .. }))
        .count();
    assert_eq!(said, 5, "{told:#?}");
    assert!(
        was_told(&told, "alice", "you said 5 lines in 10 s, your share"),
        "{told:#?}"
    );
    // carol, never at that table, still cannot talk.
    bench.ask("carol", say("hi"));
    assert!(was_told(&bench.told(), "carol", "you are not at a table"));
}

/// One flooder takes their share of a table's chat (5 of its 20 lines in ten seconds)
/// and no more: the players and the other spectators still talk.
#[test]
fn one_flooder_at_a_table_cannot_silence_the_others() {
    let mut bench = Bench::new();
    bench.game(false);
    bench.watch("flooder", 1, false);
    bench.watch("fan", 1, false);
    bench.told();
    let start = Instant::now();
    let say = |text: &str| ClientMessage::Say {
        text: text.to_string(),
    };
    for i in 0..30 {
        bench.ask_at("flooder", say(&format!("spam {i}")), start);
    }
    let told = bench.told();
    let spam = told
        .iter()
        .filter(|(to, m)| to == "alice" && matches!(m, ServerMessage::Said { .. }))
        .count();
    assert_eq!(spam, 5, "{told:#?}");
    assert!(
        was_told(
            &told,
            "flooder",
            "you said 5 lines in 10 s, your share of this table's chat"
        ),
        "{told:#?}"
    );
    for name in ["alice", "bob", "fan"] {
        bench.ask_at(
            name,
            say(&format!("{name} here")),
            start + Duration::from_secs(1),
        );
        let told = bench.told();
        assert!(
            told.iter().any(|(to, m)| to == "alice"
                && matches!(m, ServerMessage::Said { name: n, .. } if n == name)),
            "{name} was not heard: {told:#?}"
        );
    }
}

/// Spectators, however many one person makes, cannot silence the players: the lines
/// they say together stop at what the players' shares leave.
#[test]
fn spectators_together_cannot_silence_the_players() {
    let mut bench = Bench::new();
    bench.game(false);
    let fans = ["fan1", "fan2", "fan3", "fan4"];
    for fan in fans {
        bench.watch(fan, 1, false);
    }
    bench.told();
    let start = Instant::now();
    let say = |text: &str| ClientMessage::Say {
        text: text.to_string(),
    };
    // Each of four says their own share (5 lines of the table's 20).
    for fan in fans {
        for i in 0..5 {
            bench.ask_at(fan, say(&format!("{fan} {i}")), start);
        }
    }
    let told = bench.told();
    let heard = told
        .iter()
        .filter(|(to, m)| to == "alice" && matches!(m, ServerMessage::Said { .. }))
        .count();
    assert_eq!(heard, 10, "{told:#?}");
    assert!(
        was_told(
            &told,
            "fan3",
            "the spectators said 10 lines in 10 s, their share"
        ),
        "{told:#?}"
    );
    for name in ["alice", "bob"] {
        for i in 0..5 {
            bench.ask_at(name, say(&format!("{name} {i}")), start);
        }
        let told = bench.told();
        let heard = told
            .iter()
            .filter(|(to, m)| {
                to == "fan1" && matches!(m, ServerMessage::Said { name: n, .. } if n == name)
            })
            .count();
        assert_eq!(heard, 5, "{name} was silenced: {told:#?}");
    }
}

/// A challenger who leaves the server withdraws their challenge: the one challenged is
/// told, and the challenge is gone from their list; a challenge to a player who leaves
/// is withdrawn too, its challenger told.
#[test]
fn a_challenge_is_withdrawn_and_the_other_told_when_either_leaves_the_server() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.log_in("carol", false);
    let challenge = |name: &str| ClientMessage::Challenge {
        name: name.to_string(),
        clock: "5+0".to_string(),
        rated: false,
        side: None,
        ballot: false,
    };
    bench.ask("alice", challenge("bob"));
    bench.ask("carol", challenge("alice"));
    assert_eq!(listed_seeks(&mut bench, "bob"), [1]);
    bench.lobby.leave("alice", 1);
    let told = bench.told();
    assert!(
        was_told(
            &told,
            "bob",
            "alice left the server: challenge 1 is withdrawn."
        ),
        "{told:#?}"
    );
    assert!(
        was_told(
            &told,
            "carol",
            "alice left the server: your challenge 2 to alice is withdrawn."
        ),
        "{told:#?}"
    );
    assert!(listed_seeks(&mut bench, "bob").is_empty());
    assert!(listed_seeks(&mut bench, "carol").is_empty());
}

impl Bench {
    /// The operator makes `name` (who has logged in) a moderator, and the lobby reads
    /// the moderators again, as it does every half minute.
    fn make_moderator(&mut self, name: &str) {
        let who = name.to_string();
        self.db(move |db| {
            let found = db.find_player(&who).unwrap().unwrap();
            db.set_moderator(&found, true, 0).unwrap()
        });
        self.lobby.read_moderators();
        self.told();
    }

    /// `by` gives `order`; what it posted (once the database has it) is read.
    fn order(&mut self, by: &str, order: super::protocol::Order) -> Vec<(String, ServerMessage)> {
        self.ask(by, ClientMessage::Moderate { order });
        self.told()
    }
}

/// A muted player is told until when, and their lines at any table are refused with
/// those words, heard by nobody; unmuted, they talk again.
#[test]
fn a_moderator_mutes_a_player_whose_lines_are_refused_saying_until_when() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.game(false);
    bench.watch("mod", 1, false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Mute {
            name: "Bob".to_string(),
            minutes: Some(30),
        },
    );
    assert!(was_told(&told, "mod", "Muted bob until "), "{told:#?}");
    assert!(
        was_told(&told, "bob", "A moderator muted you until ")
            && was_told(&told, "bob", "in 30 minutes"),
        "{told:#?}"
    );
    bench.ask(
        "bob",
        ClientMessage::Say {
            text: "hello".to_string(),
        },
    );
    let told = bench.told();
    assert!(
        was_told(&told, "bob", "a moderator muted you until ")
            && was_told(&told, "bob", "in 30 minutes: nobody hears you until then"),
        "{told:#?}"
    );
    assert!(
        !told
            .iter()
            .any(|(_, m)| matches!(m, ServerMessage::Said { .. }))
    );
    // Still muted after a restart: the mute is stored.
    bench.restart();
    bench.log_in("bob", false);
    bench.log_in("alice", false);
    bench.ask(
        "bob",
        ClientMessage::Say {
            text: "hi".to_string(),
        },
    );
    assert!(was_told(
        &bench.told(),
        "bob",
        "a moderator muted you until "
    ));
    bench.log_in("mod", false);
    let told = bench.order(
        "mod",
        Order::Unmute {
            name: "bob".to_string(),
        },
    );
    assert!(
        was_told(&told, "bob", "you may talk at tables again"),
        "{told:#?}"
    );
    bench.ask(
        "bob",
        ClientMessage::Say {
            text: "back".to_string(),
        },
    );
    let told = bench.told();
    assert!(
        told.iter().any(|(to, m)| to == "alice"
            && matches!(m, ServerMessage::Said { text, .. } if text == "back")),
        "{told:#?}"
    );
    let log = bench.db(|db| db.moderation_log(10).unwrap());
    let actions: Vec<_> = log
        .iter()
        .map(|l| format!("{} {} {} {}", l.by, l.action, l.player, l.detail))
        .collect();
    assert_eq!(
        actions,
        [
            "(operator) moderator add mod ",
            "mod mute bob 30 minutes",
            "mod unmute bob "
        ]
    );
}

/// A player not a moderator who sends an order by hand is refused, saying so, and
/// nothing is done or stored; a moderator cannot ban themself, another moderator, or
/// a name nobody has; a reason too long is refused.
#[test]
fn orders_from_a_non_moderator_or_against_oneself_or_nobody_are_refused() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.log_in("mod", false);
    bench.log_in("mod2", false);
    bench.make_moderator("mod");
    bench.make_moderator("mod2");
    let ban = |name: &str, reason: &str| Order::Ban {
        name: name.to_string(),
        reason: Some(reason.to_string()),
    };
    let told = bench.order("alice", ban("bob", "spite"));
    assert!(
        was_told(
            &told,
            "alice",
            "ban is for the server's moderators, and you are not one"
        ),
        "{told:#?}"
    );
    assert!(!told.iter().any(|(to, _)| to == "bob"), "{told:#?}");
    let told = bench.order("mod", ban("MOD", "oops"));
    assert!(
        was_told(&told, "mod", "you cannot ban yourself"),
        "{told:#?}"
    );
    let told = bench.order("mod", ban("mod2", "rival"));
    assert!(
        was_told(
            &told,
            "mod",
            "only the server's operator deals with a moderator such as mod2"
        ),
        "{told:#?}"
    );
    let told = bench.order("mod", ban("nobody", "ghost"));
    assert!(
        was_told(&told, "mod", "no player nobody at this server"),
        "{told:#?}"
    );
    let told = bench.order("mod", ban("bob", &"x".repeat(201)));
    assert!(
        was_told(&told, "mod", "a ban's reason is at most 200 characters"),
        "{told:#?}"
    );
    assert!(bench.lobby.connected("bob", 2));
    assert!(
        bench
            .db(|db| db.moderation_log(10).unwrap())
            .iter()
            .all(|l| l.by == "(operator)")
    );
}

/// A ban's reason holding a character that hides or reorders what the banned player
/// reads (a right-to-left override, an isolate, a direction mark, a zero-width joiner,
/// an escape) is refused, the moderator told which and where; nobody is banned or
/// kicked for it (the reason was kept, and the player's client showed `?` for each).
/// From a player who is not a moderator the same order is refused as any order is.
#[test]
fn a_ban_reason_with_hidden_characters_is_refused_naming_the_character() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    let ban = |reason: &str| Order::Ban {
        name: "bob".to_string(),
        reason: Some(reason.to_string()),
    };
    let told = bench.order("alice", ban("spam\u{202e}"));
    assert!(
        was_told(&told, "alice", "ban is for the server's moderators"),
        "{told:#?}"
    );
    for (reason, named) in [
        (
            "spam \u{202e}emag yreve ni",
            "character 6 is U+202E (right-to-left override)",
        ),
        (
            "\u{2066}spam\u{2069}",
            "character 1 is U+2066 (left-to-right isolate)",
        ),
        ("sp\u{200f}am", "character 3 is U+200F (right-to-left mark)"),
        ("spa\u{200d}m", "character 4 is U+200D (zero-width joiner)"),
        (
            "spam\u{1b}[2J",
            "character 5 is U+001B (a control character)",
        ),
    ] {
        let told = bench.order("mod", ban(reason));
        assert!(
            was_told(&told, "mod", &format!("ban bob: the reason's {named}")),
            "{reason:?}: {told:#?}"
        );
        assert!(!told.iter().any(|(to, _)| to == "bob"), "{told:#?}");
    }
    assert!(bench.lobby.connected("bob", 2));
    assert!(bench.lobby.banned_now("bob").is_none());
    let told = bench.order("mod", ban("spam, in every game"));
    assert!(
        was_told(&told, "mod", "Banned bob (spam, in every game)"),
        "{told:#?}"
    );
}

/// A kicked player's game in play is adjourned at once, though the opponent is at it,
/// and waits for them longer than an adjourned game waits for one player (it is never
/// lost for a kick); back, they play on.
#[test]
fn a_kicked_players_game_is_adjourned_and_goes_on_when_they_are_back() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.game(true);
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Kick {
            name: "bob".to_string(),
        },
    );
    assert!(
        was_told(&told, "mod", "Kicked bob; game 1 is adjourned."),
        "{told:#?}"
    );
    assert!(
        told.iter().any(|(to, m)| to == "bob"
            && matches!(m, ServerMessage::Refused { reason } if reason.contains("a moderator disconnected you"))),
        "{told:#?}"
    );
    assert!(
        was_told(
            &told,
            "alice",
            "A moderator disconnected bob: game 1 is adjourned"
        ),
        "{told:#?}"
    );
    assert!(!bench.lobby.connected("bob", 2));
    // alice waits at the board far past the two minutes: the game stays adjourned.
    let start = Instant::now();
    bench.lobby.tick(start);
    bench.lobby.tick(start + Duration::from_secs(3600));
    let later = bench.told();
    // One notice of the kick: bob's leaving is not told again.
    let to_alice: Vec<ServerMessage> = told
        .iter()
        .chain(&later)
        .filter(|(to, _)| to == "alice")
        .map(|(_, m)| m.clone())
        .collect();
    assert_eq!(
        words(&to_alice),
        [
            "A moderator disconnected bob: game 1 is adjourned, its clocks stopped, until you \
          are both back."
        ]
    );
    let told = later;
    assert!(
        !told.iter().any(|(_, m)| matches!(
            m,
            ServerMessage::Started { .. } | ServerMessage::Ended { .. }
        )),
        "{told:#?}"
    );
    bench.log_in("bob", true);
    let told = bench.told();
    assert!(
        told.iter()
            .any(|(to, m)| to == "bob" && matches!(m, ServerMessage::Started { game: 1, .. })),
        "{told:#?}"
    );
    bench.ask(
        "alice",
        ClientMessage::Play {
            text: "11-15".to_string(),
        },
    );
    assert!(
        bench
            .told()
            .iter()
            .any(|(to, m)| to == "bob" && matches!(m, ServerMessage::Moved { .. }))
    );
}

/// A banned player is let go at once with the reason, and the database refuses their
/// key's every later login with it, also after a restart; unbanned, they log in.
#[test]
fn a_banned_players_logins_are_refused_with_the_reason_until_unbanned() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.log_in("bob", false);
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Ban {
            name: "bob".to_string(),
            reason: Some("abuse in chat".to_string()),
        },
    );
    assert!(
        told.iter().any(|(to, m)| to == "bob"
            && matches!(m, ServerMessage::Refused { reason } if reason.contains("you are banned from this server: abuse in chat"))),
        "{told:#?}"
    );
    assert!(bench.lobby.banned_now("bob").is_some());
    bench.restart();
    let claim = |bench: &Bench| bench.db(|db| db.claim("bob", b"bob", 0, true).unwrap());
    assert!(matches!(claim(&bench), super::db::Claim::Banned(r) if r == "abuse in chat"));
    // A new name made with the same key is refused as well.
    let other = bench.db(|db| db.claim("bobby", b"bob", 0, true).unwrap());
    assert!(matches!(other, super::db::Claim::Banned(_)), "{other:?}");
    bench.log_in("mod", false);
    let told = bench.order(
        "mod",
        Order::Unban {
            name: "bob".to_string(),
        },
    );
    assert!(
        was_told(&told, "mod", "Unbanned bob: they may log in again."),
        "{told:#?}"
    );
    assert!(matches!(claim(&bench), super::db::Claim::Player(..)));
}

#[test]
fn a_draw_declined_is_told_to_the_player_who_offered_it() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.ask("alice", ClientMessage::Draw);
    bench.told();
    bench.ask("bob", ClientMessage::Decline);
    let told = bench.told();
    let to = |name: &str| -> Vec<ServerMessage> {
        told.iter()
            .filter(|(to, _)| to == name)
            .map(|(_, m)| m.clone())
            .collect()
    };
    assert_eq!(words(&to("alice")), ["bob declines the draw."]);
    assert_eq!(words(&to("bob")), ["You declined the draw: alice is told."]);
    // Both boards show the offer gone.
    for name in ["alice", "bob"] {
        let offers: Vec<Option<Side>> = to(name)
            .iter()
            .filter_map(|m| match m {
                ServerMessage::Table { state, .. } => Some(state.draw_offer),
                _ => None,
            })
            .collect();
        assert_eq!(offers, [None], "{name}");
    }
    // Nothing left to decline: the rematch's refusal, as before.
    bench.ask("bob", ClientMessage::Decline);
    assert_eq!(
        words(&bench.told_to("bob")),
        ["refused: no rematch is offered to you"]
    );
}

/// A banned player's game ends at once as abandoned, counting for neither player: its
/// opponent is told, and free to seek a game at once (not kept waiting for an unban).
#[test]
fn a_banned_players_game_ends_as_abandoned_and_frees_the_opponent() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.game(true);
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Ban {
            name: "bob".to_string(),
            reason: Some("abuse".to_string()),
        },
    );
    assert!(
        was_told(
            &told,
            "mod",
            "Banned bob (abuse) and kicked them; game 1 ends as abandoned (unrated)."
        ),
        "{told:#?}"
    );
    let to_alice: Vec<ServerMessage> = told
        .iter()
        .filter(|(to, _)| to == "alice")
        .map(|(_, m)| m.clone())
        .collect();
    // Told as the game's end (no result), which her board shows in place of "your
    // opponent is away".
    let text = "A moderator banned bob: game 1 ends as abandoned, counting for neither of you. \
                You are free to play.";
    assert_eq!(
        to_alice.last(),
        Some(&ServerMessage::Ended {
            game: 1,
            result: super::protocol::NO_RESULT.to_string(),
            text: text.to_string(),
            ratings: None,
        }),
        "{to_alice:#?}"
    );
    assert!(words(&to_alice).is_empty(), "{to_alice:#?}");
    bench.ask("alice", casual_seek_as_black());
    let seeks = words(&bench.told_to("alice"));
    assert!(
        !seeks.iter().any(|w| w.starts_with("refused")),
        "{seeks:#?}"
    );
    let [_, _, _, abandoned] = bench.db(|db| {
        let alice = db.find_player("alice").unwrap().unwrap();
        db.record(alice.id).unwrap()
    });
    assert_eq!(abandoned, 1);
}

/// The game's end (no result) told to `name` among `told`: its words.
fn abandoned_told(told: &[(String, ServerMessage)], name: &str) -> Vec<String> {
    told.iter()
        .filter(|(to, _)| to == name)
        .filter_map(|(_, m)| match m {
            ServerMessage::Ended {
                game: 1,
                result,
                text,
                ratings: None,
            } if result == super::protocol::NO_RESULT => Some(text.clone()),
            _ => None,
        })
        .collect()
}

/// A spectator of a banned player's game is told it ended as abandoned, and why (in
/// words for a spectator, not the players' "neither of you"), as its players are: their
/// board stops saying a player is away.
#[test]
fn a_spectator_is_told_a_banned_players_game_ended_as_abandoned() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.game(true);
    bench.watch("carol", 1, true);
    bench.watch("dave", 1, false);
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Ban {
            name: "bob".to_string(),
            reason: Some("abuse".to_string()),
        },
    );
    for fan in ["carol", "dave"] {
        assert_eq!(
            abandoned_told(&told, fan),
            ["A moderator banned bob: game 1 ends as abandoned (unrated)."],
            "{fan}: {told:#?}"
        );
    }
    assert_eq!(abandoned_told(&told, "alice").len(), 1, "{told:#?}");
}

/// How many watch, as the last table told to `name` among `told` says (none told:
/// `None`).
fn watching_told(told: &[(String, ServerMessage)], name: &str) -> Option<u32> {
    told.iter()
        .filter(|(to, _)| to == name)
        .filter_map(|(_, m)| match m {
            ServerMessage::Table { state, .. } => Some(state.spectators),
            _ => None,
        })
        .next_back()
}

/// The count of who watches on a player's and a spectator's board follows the
/// spectators who go: one who leaves the board, one who goes to watch another game,
/// one whose line drops (the boards said "3 watching" until the next move).
#[test]
fn the_boards_count_of_spectators_drops_as_each_spectator_goes() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.watch("carol", 1, true);
    bench.watch("dave", 1, true);
    bench.watch("erin", 1, true);
    let erin = bench.conn;
    assert_eq!(watching_told(&bench.told(), "alice"), Some(3));
    bench.ask("carol", ClientMessage::Unwatch);
    let told = bench.told();
    assert_eq!(watching_told(&told, "alice"), Some(2), "{told:#?}");
    assert_eq!(watching_told(&told, "erin"), Some(2), "{told:#?}");
    // dave goes to watch another game.
    bench.log_in("fay", false);
    bench.log_in("gus", false);
    bench.ask("fay", casual_seek_as_black());
    bench.ask("gus", ClientMessage::Accept { number: 2 });
    bench.told();
    bench.ask("dave", ClientMessage::Watch { number: 2 });
    let told = bench.told();
    assert_eq!(watching_told(&told, "bob"), Some(1), "{told:#?}");
    bench.lobby.leave("erin", erin);
    let told = bench.told();
    assert_eq!(watching_told(&told, "alice"), Some(0), "{told:#?}");
    assert_eq!(watching_told(&told, "bob"), Some(0), "{told:#?}");
}

/// A player and a spectator whose clients are older than the word for an abandoned
/// game's end are told it with words in place of its result: their plain client, which
/// prints "Game N over: RESULT WORDS.", reads "Game 1 over: abandoned (unrated). A
/// moderator banned bob: ..." (it read "Game 1 over: * A moderator ..."). A newer
/// client is told the result `*` as before.
#[test]
fn an_older_client_is_told_an_abandoned_games_end_in_words_it_prints_right() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.game(false);
    bench.lobby.older_client("alice");
    bench.watch("carol", 1, false);
    bench.lobby.older_client("carol");
    bench.watch("dave", 1, false);
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Ban {
            name: "bob".to_string(),
            reason: Some("abuse".to_string()),
        },
    );
    // As the older plain client prints it.
    let printed = |name: &str| -> Vec<String> {
        told.iter()
            .filter(|(to, _)| to == name)
            .filter_map(|(_, m)| match m {
                ServerMessage::Ended {
                    game, result, text, ..
                } => Some(format!("Game {game} over: {result} {text}.")),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        printed("alice"),
        [
            "Game 1 over: abandoned (unrated). A moderator banned bob: game 1 ends as \
          abandoned, counting for neither of you. You are free to play."
        ],
        "{told:#?}"
    );
    assert_eq!(
        printed("carol"),
        [
            "Game 1 over: abandoned (unrated). A moderator banned bob: game 1 ends as \
          abandoned (unrated)."
        ],
        "{told:#?}"
    );
    assert_eq!(
        abandoned_told(&told, "dave"),
        ["A moderator banned bob: game 1 ends as abandoned (unrated)."],
        "{told:#?}"
    );
}

/// A player and a spectator whose full-screen clients (they ask for a board) are older
/// than the word for an abandoned game's end are told its words whole: such a client
/// shows them as they come ("Game over: WORDS"), and read "... You are free to play"
/// without the full stop an older plain client adds.
#[test]
fn an_older_full_screen_client_is_told_an_abandoned_games_end_with_its_full_stop() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.game(true);
    bench.lobby.older_client("alice");
    bench.watch("carol", 1, true);
    bench.lobby.older_client("carol");
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Ban {
            name: "bob".to_string(),
            reason: Some("abuse".to_string()),
        },
    );
    // As the older full-screen lobby shows it.
    let shown = |name: &str| -> Vec<String> {
        told.iter()
            .filter(|(to, _)| to == name)
            .filter_map(|(_, m)| match m {
                ServerMessage::Ended { text, .. } => Some(format!("Game over: {text}")),
                _ => None,
            })
            .collect()
    };
    assert_eq!(
        shown("alice"),
        [
            "Game over: A moderator banned bob: game 1 ends as abandoned, counting for neither \
             of you. You are free to play."
        ],
        "{told:#?}"
    );
    assert_eq!(
        shown("carol"),
        ["Game over: A moderator banned bob: game 1 ends as abandoned (unrated)."],
        "{told:#?}"
    );
}

/// A spectator of an adjourned game is told when it ends as abandoned for waiting
/// its time, as its players are.
#[test]
fn a_spectator_is_told_an_adjourned_game_that_waited_its_time_ended_as_abandoned() {
    let mut bench = Bench::adjourned_for(Duration::ZERO);
    bench.game(true);
    bench.watch("carol", 1, true);
    // Adjourned once both players left it for the lobby.
    bench.ask("bob", ClientMessage::Adjourn);
    bench.ask("alice", ClientMessage::Adjourn);
    bench.told();
    bench.lobby.tick(Instant::now());
    let told = bench.told();
    let said = abandoned_told(&told, "carol");
    assert_eq!(said.len(), 1, "{told:#?}");
    assert!(
        said[0].ends_with(
            "is abandoned: it was adjourned longer than the server keeps a game waiting."
        ),
        "{said:#?}"
    );
    assert_eq!(abandoned_told(&told, "alice"), said, "{told:#?}");
}

/// A player the operator makes a moderator while they are online is told so (welcomed
/// again as one) when the lobby next reads the moderators, and their orders work;
/// removed, they are told, and their orders are refused, all without logging in again.
#[test]
fn a_moderator_made_or_removed_while_online_has_the_right_or_loses_it_at_once() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.log_in("ann", false);
    bench.log_in("bob", false);
    bench.told();
    let set = |bench: &mut Bench, moderator: bool| {
        bench.db(move |db| {
            let found = db.find_player("ann").unwrap().unwrap();
            db.set_moderator(&found, moderator, 0).unwrap()
        });
        bench.lobby.read_moderators();
        bench.told_to("ann")
    };
    let mute = || Order::Mute {
        name: "bob".to_string(),
        minutes: None,
    };
    let told = set(&mut bench, true);
    assert!(
        told.iter().any(|m| matches!(
            m,
            ServerMessage::Welcome {
                moderator: true,
                ..
            }
        )),
        "{told:#?}"
    );
    assert_eq!(
        words(&told),
        ["You are a moderator now: help lists the orders (mute, unmute, kick, ban, unban NAME)."]
    );
    let told = bench.order("ann", mute());
    assert!(was_told(&told, "ann", "Muted bob until"), "{told:#?}");
    let told = set(&mut bench, false);
    assert!(
        told.iter().any(|m| matches!(
            m,
            ServerMessage::Welcome {
                moderator: false,
                ..
            }
        )),
        "{told:#?}"
    );
    assert_eq!(
        words(&told),
        ["You are no longer a moderator: your orders are refused from now on."]
    );
    let told = bench.order("ann", mute());
    assert!(!was_told(&told, "ann", "Muted bob"), "{told:#?}");
    // Read again with nothing changed: nobody is told anything.
    assert!(set(&mut bench, false).is_empty());
}

/// The operator's `checkers server moderator add` (another connection to the database)
/// reaches a player online within a couple of seconds, without waiting for the
/// moderators' half-minute read; `remove` too. The server's own writes make it read
/// nothing again.
#[test]
fn a_moderator_added_by_the_operator_while_the_server_runs_is_told_within_seconds() {
    let mut bench = Bench::new();
    bench.log_in("ann", false);
    bench.told();
    let path = bench.dir.path().join("server.sqlite");
    let operator = |moderator: bool| {
        let db = super::db::Db::open(&path).unwrap();
        let found = db.find_player("ann").unwrap().unwrap();
        db.set_moderator(&found, moderator, 0).unwrap();
    };
    let start = Instant::now();
    let mut at = start;
    let mut tick = |bench: &mut Bench| {
        at += Duration::from_millis(1100);
        bench.lobby.tick(at);
        bench.told_to("ann")
    };
    // The first look reads the moderators as they are: nobody is told anything.
    assert!(words(&tick(&mut bench)).is_empty());
    operator(true);
    assert_eq!(
        words(&tick(&mut bench)),
        ["You are a moderator now: help lists the orders (mute, unmute, kick, ban, unban NAME)."]
    );
    operator(false);
    assert_eq!(
        words(&tick(&mut bench)),
        ["You are no longer a moderator: your orders are refused from now on."]
    );
    assert!(at < start + Duration::from_secs(10));
}

/// A mute follows the player's key: their second name, made before or after the mute,
/// online or not, is not heard either; the unmute of either name lifts it from both.
#[test]
fn a_mute_reaches_every_name_of_the_muted_players_key() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.game(false);
    bench.log_in_keyed("bob2", "bob", false, None);
    bench.ask("bob2", ClientMessage::Watch { number: 1 });
    bench.watch("mod", 1, false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Mute {
            name: "bob".to_string(),
            minutes: Some(30),
        },
    );
    assert!(
        was_told(&told, "mod", "The same key's other names too: bob2."),
        "{told:#?}"
    );
    let say = |text: &str| ClientMessage::Say {
        text: text.to_string(),
    };
    bench.ask("bob2", say("still here"));
    // A third name made after the mute, logging in afresh.
    bench.log_in_keyed("bob3", "bob", false, None);
    bench.ask("bob3", ClientMessage::Watch { number: 1 });
    bench.ask("bob3", say("and here"));
    let told = bench.told();
    for name in ["bob2", "bob3"] {
        assert!(
            was_told(&told, name, "a moderator muted you until "),
            "{name}: {told:#?}"
        );
    }
    assert!(
        !told
            .iter()
            .any(|(_, m)| matches!(m, ServerMessage::Said { .. })),
        "{told:#?}"
    );
    bench.order(
        "mod",
        Order::Unmute {
            name: "bob3".to_string(),
        },
    );
    bench.ask("bob", say("free"));
    assert!(
        bench.told().iter().any(|(to, m)| to == "alice"
            && matches!(m, ServerMessage::Said { name, .. } if name == "bob")),
        "bob still muted after bob3's unmute"
    );
}

/// A ban follows the key: the banned player's other names online are let go at once
/// too (not served until their next login), their games ended as abandoned.
#[test]
fn a_ban_lets_go_every_name_of_the_banned_players_key_online() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.game(false);
    bench.log_in_keyed("bob2", "bob", false, None);
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    let told = bench.order(
        "mod",
        Order::Ban {
            name: "bob".to_string(),
            reason: Some("abuse".to_string()),
        },
    );
    for name in ["bob", "bob2"] {
        assert!(
            told.iter().any(|(to, m)| to == name
                && matches!(m, ServerMessage::Refused { reason } if reason.contains("you are banned from this server: abuse"))),
            "{name} not let go: {told:#?}"
        );
        assert!(bench.lobby.banned_now(name).is_some(), "{name}");
    }
    bench.ask("bob2", ClientMessage::Who);
    assert!(bench.told_to("bob2").is_empty(), "bob2 still served");
}

impl Bench {
    /// `by` tells `whom` the line `text`; what it posted is read.
    fn tell(&mut self, by: &str, whom: &str, text: &str) -> Vec<(String, ServerMessage)> {
        self.tell_at(by, whom, text, Instant::now())
    }

    /// `by` tells `whom` the line `text` at `now`; what it posted is read.
    fn tell_at(
        &mut self,
        by: &str,
        whom: &str,
        text: &str,
        now: Instant,
    ) -> Vec<(String, ServerMessage)> {
        let tell = ClientMessage::Tell {
            name: whom.to_string(),
            text: text.to_string(),
        };
        self.ask_at(by, tell, now);
        self.told()
    }
}

/// The lines told among `told` (to whom, from whom, what).
fn tells(told: &[(String, ServerMessage)]) -> Vec<(String, String, String)> {
    told.iter()
        .filter_map(|(to, m)| match m {
            ServerMessage::Told { name, text } => Some((to.clone(), name.clone(), text.clone())),
            _ => None,
        })
        .collect()
}

/// A line told reaches its player alone, wherever they are (in the lobby, at a game
/// they play), and its teller is told it went; nobody else hears it.
#[test]
fn a_line_told_reaches_its_player_alone_wherever_they_are() {
    let mut bench = Bench::new();
    bench.game(true);
    bench.watch("carol", 1, true);
    bench.log_in("dave", false);
    bench.told();
    // From the lobby to a player at their board.
    let told = bench.tell("dave", "alice", "  good luck  ");
    assert_eq!(
        tells(&told),
        [("alice".into(), "dave".into(), "good luck".into())]
    );
    assert!(
        was_told(&told, "dave", "You told alice: good luck"),
        "{told:#?}"
    );
    assert!(
        told.iter().all(|(to, _)| to == "alice" || to == "dave"),
        "{told:#?}"
    );
    // From a game to the lobby.
    let told = bench.tell("bob", "dave", "thanks");
    assert_eq!(
        tells(&told),
        [("dave".into(), "bob".into(), "thanks".into())]
    );
}

/// A line told to a player not online, to oneself, to no name or of nothing is
/// refused saying why, and nobody hears it.
#[test]
fn a_line_told_to_nobody_online_or_oneself_is_refused_saying_why() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.told();
    for (whom, text, why) in [
        ("carol", "hi", "refused: carol is not online"),
        ("alice", "hi", "refused: you cannot tell yourself"),
        ("bob", "   ", "refused: tell bob what?"),
        (
            "b\u{1b}[2Jb",
            "hi",
            "refused: nobody can be named so: U+001B",
        ),
        ("", "hi", "refused: tell whom?"),
    ] {
        let told = bench.tell("alice", whom, text);
        assert!(tells(&told).is_empty(), "{told:#?}");
        let said = words(&told.into_iter().map(|(_, m)| m).collect::<Vec<_>>());
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(said[0].starts_with(why), "{whom:?}: {said:?}");
    }
    // Gone: no longer online.
    bench.lobby.leave("bob", 2);
    let told = bench.tell("alice", "bob", "still there?");
    assert!(was_told(&told, "alice", "bob is not online"), "{told:#?}");
}

/// Control characters, text-direction marks and zero-width characters are taken out
/// of a line told (it cannot move the cursor, turn the line around, or hide a word);
/// a line longer than a table's is refused, and a line of nothing but them too.
#[test]
fn a_line_told_loses_its_hidden_characters_and_is_held_to_a_said_lines_length() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.told();
    let told = bench.tell("alice", "bob", "gg\u{1b}[2J \u{202e}wp\u{200b}!\u{7}");
    assert_eq!(
        tells(&told),
        [("bob".into(), "alice".into(), "gg[2J wp!".into())]
    );
    let told = bench.tell("alice", "bob", "\u{202e}\u{200b}\u{feff}");
    assert!(tells(&told).is_empty(), "{told:#?}");
    assert!(was_told(&told, "alice", "tell bob what?"), "{told:#?}");
    let long = "x".repeat(super::protocol::MAX_SAID + 1);
    let told = bench.tell("alice", "bob", &long);
    assert!(tells(&told).is_empty(), "{told:#?}");
    assert!(
        was_told(&told, "alice", "a line told is at most 200 characters"),
        "{told:#?}"
    );
    let told = bench.tell("alice", "bob", &"x".repeat(super::protocol::MAX_SAID));
    assert_eq!(tells(&told).len(), 1);
}

/// One cleaning rule for a line said and a line told: an emoji sequence keeps its
/// zero-width joiners and variation selectors (a tell lost them, the family came apart),
/// a joiner hiding between words, a zero-width space or a word joiner goes (a `say`
/// kept them), and so do text-direction overrides and control characters.
#[test]
fn a_line_said_and_a_line_told_are_cleaned_alike_keeping_emoji_whole() {
    let family = "\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}";
    let heart = "\u{2764}\u{FE0F}";
    let typed = format!("{family} {heart} g\u{200b}g \u{200d}w\u{2060}p\u{200d} \u{202e}ok\u{7}");
    let clean = format!("{family} {heart} gg wp ok");
    let mut bench = Bench::new();
    bench.game(false);
    bench.ask(
        "bob",
        ClientMessage::Say {
            text: typed.clone(),
        },
    );
    let told = bench.told();
    let heard: Vec<&str> = told
        .iter()
        .filter_map(|(to, m)| match m {
            ServerMessage::Said { text, .. } if to == "alice" => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(heard, [clean.as_str()], "{told:#?}");
    let told = bench.tell("bob", "alice", &typed);
    assert_eq!(
        tells(&told),
        [("alice".into(), "bob".into(), clean.clone())]
    );
}

/// A muted player cannot tell anyone either: refused in the mute's words, heard by
/// nobody.
#[test]
fn a_muted_player_cannot_tell() {
    use super::protocol::Order;
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.log_in("mod", false);
    bench.make_moderator("mod");
    bench.order(
        "mod",
        Order::Mute {
            name: "bob".to_string(),
            minutes: Some(30),
        },
    );
    let told = bench.tell("bob", "alice", "psst");
    assert!(tells(&told).is_empty(), "{told:#?}");
    assert!(
        was_told(&told, "bob", "a moderator muted you until "),
        "{told:#?}"
    );
    bench.order("mod", Order::Unmute { name: "bob".into() });
    let told = bench.tell("bob", "alice", "psst");
    assert_eq!(tells(&told).len(), 1, "{told:#?}");
}

/// A flood of tells is cut at the sender's share of a window, whoever they go to (a
/// flooder cannot drown a player, nor fill their queue): refused saying so, heard
/// again once the window has passed; another player's tells are not counted with it.
#[test]
fn a_flood_of_tells_is_cut_at_the_senders_share() {
    let most = super::lobby::TELLS_PER_WINDOW;
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.log_in("carol", false);
    bench.told();
    let start = Instant::now();
    let mut heard = 0;
    for i in 0..3 * most {
        let whom = if i % 2 == 0 { "alice" } else { "carol" };
        let told = bench.tell_at("bob", whom, &format!("spam {i}"), start);
        heard += tells(&told).len();
        if i >= most {
            assert!(
                was_told(&told, "bob", &format!("you told {most} lines in 10 s")),
                "{told:#?}"
            );
        }
    }
    assert_eq!(heard, most);
    // Another player talks on.
    let told = bench.tell_at("carol", "alice", "are you there?", start);
    assert_eq!(tells(&told).len(), 1, "{told:#?}");
    // The window passed: the flooder is heard again.
    let later = start + Duration::from_secs(11);
    let told = bench.tell_at("bob", "alice", "sorry", later);
    assert_eq!(tells(&told).len(), 1, "{told:#?}");
}

/// A client older than tells (its login did not say it knows them) is told a line in
/// words it prints, not as a message it cannot read.
#[test]
fn an_older_client_is_told_a_line_in_words() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.lobby.client_without_told("bob");
    bench.told();
    let told = bench.tell("alice", "bob", "hi");
    assert!(tells(&told).is_empty(), "{told:#?}");
    assert!(was_told(&told, "bob", "alice tells you: hi"), "{told:#?}");
}

impl Bench {
    /// `by` ignores `whom` (none: asks the list); what it posted is read.
    fn ignore(&mut self, by: &str, whom: Option<&str>) -> Vec<(String, ServerMessage)> {
        let name = whom.map(str::to_string);
        self.ask(by, ClientMessage::Ignore { name });
        self.told()
    }

    /// `by` no longer ignores `whom`; what it posted is read.
    fn unignore(&mut self, by: &str, whom: &str) -> Vec<(String, ServerMessage)> {
        let name = whom.to_string();
        self.ask(by, ClientMessage::Unignore { name });
        self.told()
    }

    /// `by` ignores `whom` at `now`; what it posted is read.
    fn ignore_at(&mut self, by: &str, whom: &str, now: Instant) -> Vec<(String, ServerMessage)> {
        let name = Some(whom.to_string());
        self.ask_at(by, ClientMessage::Ignore { name }, now);
        self.told()
    }

    /// Accounts named `names` are made, as their first logins would (each its own
    /// key), without logging them in; a database from before names differing only
    /// in case were refused holds such pairs.
    fn accounts(&self, names: &[&str]) {
        let names: Vec<String> = names.iter().map(|n| n.to_string()).collect();
        self.db(move |db| {
            for name in names {
                db.add_player(&name, name.as_bytes(), 0).unwrap();
            }
        });
    }
}

/// The lines said at a table among `told` that reached `to` (from whom, what).
fn said_to(told: &[(String, ServerMessage)], to: &str) -> Vec<(String, String)> {
    told.iter()
        .filter_map(|(n, m)| match m {
            ServerMessage::Said { name, text } if n == to => Some((name.clone(), text.clone())),
            _ => None,
        })
        .collect()
}

/// A player alice ignores: his tells to her are refused to him in words, his lines at
/// their table are not shown to her (the others still hear them, he his echo), his
/// challenge to her is refused to him in words; unignored, all reach her again.
#[test]
fn an_ignored_players_tells_lines_and_challenges_do_not_reach_the_one_ignoring() {
    let mut bench = Bench::new();
    bench.game(false);
    bench.watch("carol", 1, false);
    bench.told();
    let told = bench.ignore("alice", Some("bob"));
    assert!(was_told(&told, "alice", "You ignore bob"), "{told:#?}");
    assert!(told.iter().all(|(to, _)| to == "alice"), "bob is not told");
    // A tell: refused to bob, saying why.
    let told = bench.tell("bob", "alice", "you play badly");
    assert!(tells(&told).is_empty(), "{told:#?}");
    assert!(
        was_told(
            &told,
            "bob",
            "alice is ignoring you: your line was not told"
        ),
        "{told:#?}"
    );
    // A line at their table: not shown to alice, shown to carol and bob.
    bench.ask("bob", ClientMessage::Say { text: "boo".into() });
    let told = bench.told();
    assert!(said_to(&told, "alice").is_empty(), "{told:#?}");
    assert_eq!(said_to(&told, "carol"), [("bob".into(), "boo".into())]);
    assert_eq!(said_to(&told, "bob"), [("bob".into(), "boo".into())]);
    // carol, not ignored, is heard by alice.
    bench.ask("carol", ClientMessage::Say { text: "hi".into() });
    let told = bench.told();
    assert_eq!(said_to(&told, "alice"), [("carol".into(), "hi".into())]);
    // A challenge from a player ignored, refused to him in words (dave, not at a game).
    bench.log_in("dave", false);
    bench.ignore("dave", Some("carol"));
    bench.ask("carol", ClientMessage::Unwatch);
    bench.told();
    let challenge = ClientMessage::Challenge {
        name: "dave".to_string(),
        clock: "5+0".to_string(),
        rated: false,
        side: None,
        ballot: false,
    };
    bench.ask("carol", challenge.clone());
    let told = bench.told();
    assert!(
        was_told(
            &told,
            "carol",
            "dave is ignoring you: your challenge was not sent"
        ),
        "{told:#?}"
    );
    assert!(told.iter().all(|(to, _)| to == "carol"), "{told:#?}");
    // Unignored: all of it reaches them again.
    let told = bench.unignore("alice", "bob");
    assert!(
        was_told(&told, "alice", "You no longer ignore bob"),
        "{told:#?}"
    );
    assert_eq!(tells(&bench.tell("bob", "alice", "sorry")).len(), 1);
    bench.ask("bob", ClientMessage::Say { text: "gg".into() });
    let told = bench.told();
    assert_eq!(said_to(&told, "alice"), [("bob".into(), "gg".into())]);
    bench.unignore("dave", "carol");
    bench.ask("carol", challenge);
    let told = bench.told();
    assert!(was_told(&told, "carol", "sent to dave"), "{told:#?}");
}

/// Oneself and a name nobody can have are refused in words; the list says whom, and
/// is bounded (the changes spaced out, as their own bound asks).
#[test]
fn ignoring_oneself_a_bad_name_or_past_the_bound_is_refused_saying_why() {
    let most = super::protocol::MAX_IGNORED;
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.told();
    let told = bench.ignore("alice", None);
    assert!(was_told(&told, "alice", "You ignore nobody"), "{told:#?}");
    let told = bench.ignore("alice", Some("alice"));
    assert!(
        was_told(&told, "alice", "you cannot ignore yourself"),
        "{told:#?}"
    );
    let told = bench.ignore("alice", Some("b\u{1b}[2Jb"));
    assert!(
        was_told(&told, "alice", "nobody can be named so: U+001B"),
        "{told:#?}"
    );
    let told = bench.unignore("alice", "zed");
    assert!(
        was_told(&told, "alice", "you do not ignore zed"),
        "{told:#?}"
    );
    let mut pests: Vec<String> = (0..most).map(|i| format!("pest{i}")).collect();
    pests.push("onemore".to_string());
    bench.accounts(&pests.iter().map(String::as_str).collect::<Vec<_>>());
    let start = Instant::now();
    let spaced = |i: u32| start + super::lobby::IGNORE_CHANGE_WINDOW * i;
    for i in 0..most {
        let told = bench.ignore_at("alice", &format!("pest{i}"), spaced(i as u32));
        assert!(
            was_told(&told, "alice", "You ignore pest"),
            "{i}: {told:#?}"
        );
    }
    let told = bench.ignore_at("alice", "onemore", spaced(most as u32));
    assert!(
        was_told(
            &told,
            "alice",
            &format!("you ignore {most} players, the most")
        ),
        "{told:#?}"
    );
    let told = bench.ignore("alice", None);
    assert!(
        was_told(
            &told,
            "alice",
            &format!("You ignore {most} of at most {most}: pest0, pest1, ")
        ),
        "{told:#?}"
    );
    assert!(!was_told(&told, "alice", "onemore"), "{told:#?}");
    // One taken off makes room again.
    let later = spaced(most as u32 + 1);
    bench.ask_at(
        "alice",
        ClientMessage::Unignore {
            name: "pest7".into(),
        },
        later,
    );
    let told = bench.ignore_at("alice", "onemore", later);
    assert!(was_told(&told, "alice", "You ignore onemore"), "{told:#?}");
}

/// The list is kept for the account: after alice logs out and in again (and after the
/// server restarts) bob's tells are still refused, and the list says him.
#[test]
fn an_ignore_list_is_kept_across_a_reconnect_and_a_restart() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.accounts(&["newcomer"]);
    bench.ignore("alice", Some("bob"));
    bench.ignore("alice", Some("newcomer"));
    bench.lobby.leave("alice", 1);
    bench.log_in("alice", false);
    bench.told();
    let told = bench.tell("bob", "alice", "back again");
    assert!(tells(&told).is_empty(), "{told:#?}");
    assert!(was_told(&told, "bob", "alice is ignoring you"), "{told:#?}");
    bench.restart();
    bench.conn = 0;
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    let told = bench.ignore("alice", None);
    assert!(
        was_told(&told, "alice", "You ignore 2 of at most 100: bob, newcomer"),
        "{told:#?}"
    );
    let told = bench.tell("bob", "alice", "still?");
    assert!(was_told(&told, "bob", "alice is ignoring you"), "{told:#?}");
    // Unignored, and so kept.
    bench.unignore("alice", "bob");
    bench.lobby.leave("alice", 1);
    bench.log_in("alice", false);
    bench.told();
    assert_eq!(tells(&bench.tell("bob", "alice", "hello")).len(), 1);
}

/// `ignore NAME` takes the account of exactly that name, else the one whose name
/// differs only in case (saying what was typed), and refuses in words a name no
/// account has, or one several accounts differ from only in case (a database from
/// before such pairs were refused); `unignore` looks the same way in the list. A tell
/// to a name not online names the player online it differs from only in case.
#[test]
fn ignore_takes_the_account_meant_by_case_and_refuses_a_name_nobody_has() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.accounts(&["Dan", "dan"]);
    bench.told();
    let told = bench.ignore("alice", Some("Carol"));
    assert!(
        was_told(&told, "alice", "no player is named Carol: nothing changed"),
        "{told:#?}"
    );
    let told = bench.ignore("alice", Some("BOB"));
    assert!(
        was_told(&told, "alice", "You ignore bob (you typed BOB)"),
        "{told:#?}"
    );
    let told = bench.tell("bob", "alice", "hi");
    assert!(was_told(&told, "bob", "alice is ignoring you"), "{told:#?}");
    let told = bench.ignore("alice", Some("Bob"));
    assert!(
        was_told(&told, "alice", "You ignore bob (you typed Bob) already"),
        "{told:#?}"
    );
    let told = bench.ignore("alice", Some("DAN"));
    assert!(
        was_told(&told, "alice", "Dan and dan differ from DAN only in case"),
        "{told:#?}"
    );
    let told = bench.ignore("alice", Some("dan"));
    assert!(was_told(&told, "alice", "You ignore dan ("), "{told:#?}");
    let told = bench.ignore("alice", Some("ALICE"));
    assert!(
        was_told(&told, "alice", "you cannot ignore yourself"),
        "{told:#?}"
    );
    let told = bench.ignore("alice", None);
    assert!(
        was_told(&told, "alice", "You ignore 2 of at most 100: bob, dan"),
        "{told:#?}"
    );
    // The list as the database holds it: the accounts' names, nothing for Carol.
    let kept = bench.db(|db| {
        let id = db.find_player("alice").unwrap().unwrap().id;
        db.ignored_by(id).unwrap()
    });
    assert_eq!(kept, ["bob", "dan"]);
    let told = bench.unignore("alice", "BOB");
    assert!(
        was_told(&told, "alice", "You no longer ignore bob (you typed BOB)"),
        "{told:#?}"
    );
    let told = bench.unignore("alice", "Carol");
    assert!(
        was_told(&told, "alice", "you do not ignore Carol"),
        "{told:#?}"
    );
    assert_eq!(tells(&bench.tell("bob", "alice", "hello")).len(), 1);
    // Names are exact for a tell: the one online it differs from in case is named.
    let told = bench.tell("bob", "Alice", "hi");
    assert!(
        was_told(
            &told,
            "bob",
            "Alice is not online (names are exact: did you mean alice?)"
        ),
        "{told:#?}"
    );
}

/// A player's ignore list changes at most [`IGNORE_CHANGES_PER_WINDOW`] times in a
/// window: the next change is refused in words saying when to try again (and is not
/// stored); once the window has passed, changes are taken again.
///
/// [`IGNORE_CHANGES_PER_WINDOW`]: super::lobby::IGNORE_CHANGES_PER_WINDOW
#[test]
fn ignore_changes_are_bounded_per_player_saying_when_to_try_again() {
    let most = super::lobby::IGNORE_CHANGES_PER_WINDOW;
    let window = super::lobby::IGNORE_CHANGE_WINDOW;
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.accounts(&["carol"]);
    bench.told();
    let start = Instant::now();
    for i in 0..most {
        let (whom, message) = if i % 2 == 0 {
            (
                "bob",
                ClientMessage::Ignore {
                    name: Some("bob".into()),
                },
            )
        } else {
            ("bob", ClientMessage::Unignore { name: "bob".into() })
        };
        bench.ask_at("alice", message, start);
        let told = bench.told();
        assert!(was_told(&told, "alice", whom), "{i}: {told:#?}");
        assert!(!was_told(&told, "alice", "try again"), "{i}: {told:#?}");
    }
    let told = bench.ignore_at("alice", "carol", start + window / 2);
    assert!(
        was_told(
            &told,
            "alice",
            &format!(
                "you changed your ignore list {most} times in {} s: nothing changed; try \
                 again in {} s",
                window.as_secs(),
                window.as_secs() / 2
            )
        ),
        "{told:#?}"
    );
    let kept = bench.db(|db| {
        let id = db.find_player("alice").unwrap().unwrap().id;
        db.ignored_by(id).unwrap()
    });
    assert!(kept.is_empty(), "{kept:?}");
    // bob, not bounded by alice's changes, changes his own.
    let told = bench.ignore_at("bob", "carol", start + window / 2);
    assert!(was_told(&told, "bob", "You ignore carol"), "{told:#?}");
    let told = bench.ignore_at("alice", "carol", start + window);
    assert!(was_told(&told, "alice", "You ignore carol"), "{told:#?}");
}

/// While alice ignores bob, he cannot take her seek (refused to him in words), his
/// seeks and challenges are not listed to her (nor hers to take by number), others
/// still see them; and his rematch offer to her is refused to him and never told her.
#[test]
fn an_ignored_player_cannot_take_the_seeks_of_nor_offer_a_rematch_to_the_one_ignoring() {
    let mut bench = Bench::new();
    bench.log_in("alice", false);
    bench.log_in("bob", false);
    bench.log_in("carol", false);
    bench.ignore("alice", Some("bob"));
    bench.ask("alice", casual_seek_as_black());
    bench.told();
    bench.ask("bob", ClientMessage::Accept { number: 1 });
    let told = bench.told();
    assert!(
        was_told(
            &told,
            "bob",
            "alice is ignoring you: you cannot take their seek"
        ),
        "{told:#?}"
    );
    assert!(told.iter().all(|(to, _)| to == "bob"), "{told:#?}");
    assert_eq!(listed_seeks(&mut bench, "bob"), [1]);
    // bob's seek: listed to carol, not to alice, in the lobby's list or in words.
    bench.ask("bob", casual_seek_as_black());
    assert_eq!(listed_seeks(&mut bench, "carol"), [1, 2]);
    assert_eq!(listed_seeks(&mut bench, "alice"), [1]);
    bench.ask("alice", ClientMessage::Seeks);
    let told = bench.told();
    assert!(!was_told(&told, "alice", "bob"), "{told:#?}");
    bench.ask("alice", ClientMessage::Accept { number: 2 });
    let told = bench.told();
    assert!(was_told(&told, "alice", "no open seek 2"), "{told:#?}");
    // A game between them (bob takes it by alice's leave: she unignores him, then
    // ignores him again once it is over), then his rematch offer.
    bench.unignore("alice", "bob");
    bench.ask("bob", ClientMessage::Cancel { number: 2 });
    bench.ask("bob", ClientMessage::Accept { number: 1 });
    bench.ask("bob", ClientMessage::Resign);
    bench.told();
    bench.ignore("alice", Some("bob"));
    bench.ask("bob", ClientMessage::Rematch);
    let told = bench.told();
    assert!(
        was_told(
            &told,
            "bob",
            "alice is ignoring you: your rematch offer was not made"
        ),
        "{told:#?}"
    );
    assert!(told.iter().all(|(to, _)| to == "bob"), "{told:#?}");
    // Nothing was offered: her rematch is an offer of her own, told to bob.
    bench.ask("alice", ClientMessage::Rematch);
    let told = bench.told();
    assert!(
        was_told(&told, "bob", "alice offers a rematch"),
        "{told:#?}"
    );
}

/// A challenge bob made to alice before she ignored him is declined when she does (it
/// stayed open, hidden from her, and bob waited on it), told to him as any decline is
/// and no more; hers to him, which he may no longer take, is withdrawn as a
/// withdrawal is told. carol's challenge to alice stays.
#[test]
fn ignoring_a_player_ends_the_challenges_between_them_told_as_a_decline() {
    let mut bench = Bench::new();
    for name in ["alice", "bob", "carol"] {
        bench.log_in(name, false);
    }
    let challenge = |whom: &str| ClientMessage::Challenge {
        name: whom.to_string(),
        clock: "5+0".to_string(),
        rated: false,
        side: None,
        ballot: false,
    };
    bench.ask("bob", challenge("alice"));
    bench.ask("alice", challenge("bob"));
    bench.ask("carol", challenge("alice"));
    bench.told();
    assert_eq!(listed_seeks(&mut bench, "alice"), [1, 2, 3]);
    assert_eq!(listed_seeks(&mut bench, "bob"), [1, 2]);
    let told = bench.ignore("alice", Some("bob"));
    assert!(
        was_told(&told, "bob", "alice declined your challenge 1."),
        "{told:#?}"
    );
    assert!(
        was_told(&told, "bob", "alice withdrew challenge 2."),
        "{told:#?}"
    );
    assert!(
        was_told(&told, "alice", "You declined bob's challenge 1."),
        "{told:#?}"
    );
    assert!(
        was_told(&told, "alice", "You withdrew challenge 2 to bob."),
        "{told:#?}"
    );
    // Nothing told to bob says more than a decline and a withdrawal do.
    let to_bob: Vec<_> = told.iter().filter(|(to, _)| to == "bob").collect();
    assert_eq!(to_bob.len(), 2, "{told:#?}");
    assert!(!format!("{to_bob:?}").contains("ignor"), "{told:#?}");
    // alice's last word is her list's change, for her status line.
    let to_alice: Vec<_> = told.iter().filter(|(to, _)| to == "alice").collect();
    assert!(
        format!("{:?}", to_alice.last()).contains("You ignore bob"),
        "{told:#?}"
    );
    assert!(listed_seeks(&mut bench, "bob").is_empty());
    assert_eq!(listed_seeks(&mut bench, "alice"), [3]);
    // bob's next challenge is refused as before.
    bench.ask("bob", challenge("alice"));
    let told = bench.told();
    assert!(
        was_told(
            &told,
            "bob",
            "alice is ignoring you: your challenge was not sent"
        ),
        "{told:#?}"
    );
}
