//! A login as the server takes it ([`log_in`]), over an in-memory stream: what it counts
//! of an address's new names, however it ends.

use super::lobby::{Lobby, Settings};
use super::outbox::Outbox;
use super::protocol::{self, ClientMessage, ServerMessage};
use super::store::Store;
use super::{Shared, lock, log_in, read_line, write_message};
use ed25519_dalek::{Signer, SigningKey};
use std::net::IpAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The address the logins come from.
const ADDRESS: IpAddr = IpAddr::V4(std::net::Ipv4Addr::new(10, 0, 0, 7));

/// The fingerprint the logins sign.
const FINGERPRINT: [u8; 32] = [7; 32];

/// A lobby on a database of its own in `dir`, and its database's thread.
fn lobby(dir: &tempfile::TempDir) -> (Shared, Store) {
    let store = Store::open(&dir.path().join("server.sqlite")).unwrap();
    let (outbox, _posts) = Outbox::new();
    let settings = Settings {
        site: "test".to_string(),
        adjourned_for: Duration::from_secs(86_400),
        table_chat: 20,
    };
    let (lobby, _) = Lobby::open(store.clone(), outbox, settings, Instant::now()).unwrap();
    (Arc::new(Mutex::new(lobby)), store)
}

/// A login of `name` with the key of `seed` from [`ADDRESS`], its client's side played
/// here: the server's answer (the name, or why not).
async fn login(lobby: Shared, name: &str, seed: u8) -> Result<String, String> {
    login_knowing(lobby, name, seed, &[protocol::KNOWS_NO_RESULT]).await
}

/// [`login`] from a client whose login says it `knows` these words (none: a client
/// older than them).
async fn login_knowing(
    lobby: Shared,
    name: &str,
    seed: u8,
    knows: &[&str],
) -> Result<String, String> {
    let knows: Vec<String> = knows.iter().map(ToString::to_string).collect();
    login_edited(lobby, name, seed, knows, |_| {}).await
}

/// [`login_knowing`], its login (as JSON) changed by `edit` before it is sent: a
/// client that writes its fields wrong.
async fn login_edited(
    lobby: Shared,
    name: &str,
    seed: u8,
    knows: Vec<String>,
    edit: impl FnOnce(&mut serde_json::Value),
) -> Result<String, String> {
    let (server, client) = tokio::io::duplex(4096);
    let (out, _queue) = tokio::sync::mpsc::channel(8);
    let serving = async move {
        let (reader, mut writer) = tokio::io::split(server);
        let mut reader = tokio::io::BufReader::new(reader);
        let limits = (out, protocol::MAX_CLIENT_LINE);
        log_in(
            &mut reader,
            &mut writer,
            &lobby,
            FINGERPRINT,
            (1, ADDRESS),
            limits,
        )
        .await
        .map(|name| name.expect("the client sent its login"))
    };
    let name = name.to_string();
    let playing = async move {
        let (reader, mut writer) = tokio::io::split(client);
        let mut reader = tokio::io::BufReader::new(reader);
        let line = read_line(&mut reader, 4096).await.unwrap().unwrap();
        let Ok(ServerMessage::Challenge { challenge, .. }) = serde_json::from_str(&line) else {
            panic!("no challenge: {line}");
        };
        let challenge = protocol::unhex::<32>(&challenge).unwrap();
        let key = SigningKey::from_bytes(&[seed; 32]);
        let signed = protocol::login_message(&challenge, &FINGERPRINT, &name);
        let login = ClientMessage::Login {
            version: protocol::VERSION,
            name,
            key: protocol::hex(key.verifying_key().as_bytes()),
            signature: protocol::hex(&key.sign(&signed).to_bytes()),
            knows,
        };
        let mut login = serde_json::to_value(&login).unwrap();
        edit(&mut login);
        write_message(&mut writer, &login).await.unwrap();
        // Held open until the server has answered.
        std::future::pending::<()>().await;
    };
    tokio::select! {
        answer = serving => answer,
        () = playing => unreachable!(),
    }
}

/// A runtime as the server's.
fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap()
}

/// Waits, up to ten seconds, until `ready` holds.
async fn until(what: &str, mut ready: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(10);
    while !ready() {
        assert!(Instant::now() < deadline, "never: {what}");
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
}

#[test]
fn a_login_that_makes_no_name_gives_its_addresss_new_name_back_however_it_ends() {
    let dir = tempfile::tempdir().unwrap();
    let (lobby, store) = lobby(&dir);
    let counted = |lobby: &Shared| lock(lobby).new_names_counted(ADDRESS);
    runtime().block_on(async {
        // A new name is made and kept counted; logging in with it again makes none.
        assert_eq!(login(lobby.clone(), "alice", 1).await.unwrap(), "alice");
        assert_eq!(counted(&lobby), 1);
        lock(&lobby).leave("alice", 1);
        login(lobby.clone(), "alice", 1).await.unwrap();
        assert_eq!(counted(&lobby), 1);
        // Refused: another key's name.
        let refused = login(lobby.clone(), "alice", 2).await.unwrap_err();
        assert!(refused.contains("taken"), "{refused}");
        assert_eq!(counted(&lobby), 1);
        // Refused: a letter outside a-z and A-Z, named with its place; no name counted.
        assert_eq!(
            login(lobby.clone(), "jos\u{e9}", 5).await.unwrap_err(),
            "'\u{e9}' (the 4th character) is not allowed: a name is 1 to 20 of a-z, A-Z, \
             0-9, - and _"
        );
        assert_eq!(counted(&lobby), 1);
        // Out of time while the database works (its thread held meanwhile): the login
        // is dropped, as its timeout drops it; once the database answers, the name it
        // did not make is given back, and the one it made stays counted.
        let (release, held) = std::sync::mpsc::channel::<()>();
        let _held = store.ask(move |_| held.recv());
        for (name, seed) in [("alice", 1), ("bob", 3)] {
            let task = tokio::spawn(login(lobby.clone(), name, seed));
            let before = counted(&lobby);
            until("the login asks the database", || counted(&lobby) > before).await;
            task.abort();
            assert!(task.await.unwrap_err().is_cancelled());
        }
        assert_eq!(counted(&lobby), 3);
        drop(release);
        until("alice's name is given back", || counted(&lobby) == 2).await;
        assert!(
            store
                .ask(|db| db.player("bob"))
                .await
                .unwrap()
                .unwrap()
                .is_some()
        );
        // The database failing: no name is made, and none stays counted.
        store.ask(|db| db.lose_players_for_test()).await.unwrap();
        let failed = login(lobby.clone(), "carol", 4).await.unwrap_err();
        assert!(failed.contains("players"), "{failed}");
        assert_eq!(counted(&lobby), 2);
    });
}

/// A client whose login does not say it knows an abandoned game's end (one older than
/// that word) is marked so, to be told such an end in words it prints right; one that
/// says it is not. The word is a field an older server's login ignores.
#[test]
fn a_login_without_the_word_for_an_abandoned_game_marks_an_older_client() {
    let dir = tempfile::tempdir().unwrap();
    let (lobby, _store) = lobby(&dir);
    runtime().block_on(async {
        login_knowing(lobby.clone(), "old", 1, &[]).await.unwrap();
        login(lobby.clone(), "new", 2).await.unwrap();
    });
    assert!(!lock(&lobby).reads_no_result("old"));
    assert!(lock(&lobby).reads_no_result("new"));
    // A login as an older client sends it, and one with a field this server does not
    // know (as an older server reads this client's), both read.
    for line in [
        r#"{"type":"login","version":1,"name":"a","key":"","signature":""}"#,
        r#"{"type":"login","version":1,"name":"a","key":"","signature":"","knows":["no_result"],"later":true}"#,
    ] {
        assert!(
            matches!(
                serde_json::from_str::<ClientMessage>(line),
                Ok(ClientMessage::Login { .. })
            ),
            "{line}"
        );
    }
}

/// A login whose `knows` is not a list of words (a word alone, a list holding a number,
/// null) is refused saying so: it was told "the first message must be a login", which
/// it was. Anything else that is no login is still told that.
#[test]
fn a_login_whose_knows_is_not_a_list_of_words_is_refused_saying_so() {
    let dir = tempfile::tempdir().unwrap();
    let (lobby, _store) = lobby(&dir);
    runtime().block_on(async {
        for knows in [
            serde_json::json!("no_result"),
            serde_json::json!(["no_result", 7]),
            serde_json::Value::Null,
        ] {
            let edit = |login: &mut serde_json::Value| login["knows"] = knows.clone();
            let refused = login_edited(lobby.clone(), "alice", 1, Vec::new(), edit)
                .await
                .unwrap_err();
            assert_eq!(
                refused, "the login's knows must be a list of words",
                "{knows}"
            );
        }
        let edit = |login: &mut serde_json::Value| login["type"] = "who".into();
        let refused = login_edited(lobby.clone(), "alice", 1, Vec::new(), edit)
            .await
            .unwrap_err();
        assert_eq!(refused, "the first message must be a login");
        // Its fields right, the same login is let in.
        login(lobby.clone(), "alice", 1).await.unwrap();
    });
}

/// A ban stored before the server refused hidden characters in its reason (a
/// text-direction override, a zero-width joiner, a line break) reaches the banned
/// player at each login without them: what they read is neither reordered nor full of
/// `?`: a reason with U+202E before "ecnega" was told as "spam ?ecnega?").
#[test]
fn a_ban_reason_stored_with_hidden_characters_reaches_the_player_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let (lobby, store) = lobby(&dir);
    runtime().block_on(async {
        login(lobby.clone(), "bob", 1).await.unwrap();
        lock(&lobby).leave("bob", 1);
        for (stored, told) in [
            (
                "spam \u{202E}ecnega\u{202C} in\u{200D} chat\nagain",
                "spam ecnega in chat again",
            ),
            ("\u{2067}\u{200B}\u{2069}", "no reason given"),
        ] {
            store
                .ask(move |db| {
                    let found = db.find_player("bob")?.expect("bob is stored");
                    db.ban(&found, stored, "(operator)", 0)
                })
                .await
                .unwrap()
                .unwrap();
            assert_eq!(
                login(lobby.clone(), "bob", 1).await.unwrap_err(),
                format!(
                    "you are banned from this server: {told} (its operator or a moderator \
                     may lift the ban)"
                )
            );
        }
    });
}
