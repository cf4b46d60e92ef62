//! `checkers server`: one process holding many players and their games, which players
//! reach over TLS (`checkers online`), so nobody opens a port. It runs on a tokio
//! runtime of its own, made here: the rest of the program stays synchronous.
//!
//! Every connection is bounded as a LAN host bounds its peers: a line's length, the
//! time to log in, the messages queued for it, the connections from one address.
//!
//! Its parts: the [`lobby`] (who is online, seeks, tables: the state, under one lock),
//! the [`store`] (the database on a thread of its own), the [`outbox`] (messages told
//! in order, each after the writes before it), and here the connections.

mod db;
mod lobby;
#[cfg(test)]
mod lobby_tests;
#[cfg(test)]
mod login_tests;
pub(crate) mod operator;
mod outbox;
pub(crate) mod protocol;
mod store;
pub(crate) mod tls;

use crate::commands::CommandError;
use ed25519_dalek::{Signature, VerifyingKey};
use lobby::Lobby;
use protocol::{ClientMessage, ServerMessage};
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt, AsyncWrite, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;

/// The port a server listens at, and a client connects to, when none is given.
pub(crate) const DEFAULT_PORT: u16 = 4620;

/// The window a client's messages are counted in ([`Limits::message_rate`]).
const RATE_WINDOW: Duration = Duration::from_secs(10);

/// What one client, and one address, may take of the server: each is an option of
/// `checkers server`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// The most connections at once, from everyone: one more is told the server is
    /// full and closed, so that a crowd cannot take every file descriptor.
    pub(crate) max_connections: u32,
    /// The most connections from one address at once.
    pub(crate) per_address: u32,
    /// Seconds from connecting to being logged in (the TLS handshake included): a
    /// connection that says nothing is let go.
    pub(crate) login_seconds: u64,
    /// Seconds of silence after which a client is let go (the client pings every
    /// minute).
    pub(crate) idle_seconds: u64,
    /// The most messages a client sends in ten seconds, as a LAN host allows: more is a
    /// flood, and the client is let go.
    pub(crate) message_rate: u32,
    /// The most lines a table's chat carries in ten seconds, all who speak there
    /// together: each line goes to everyone at the table, so a crowd of spectators,
    /// each within its message rate, must not multiply what the server sends.
    pub(crate) table_chat: u32,
    /// The messages waiting for one connection: bounded, so that a client that does
    /// not read is let go rather than holding the server's memory.
    pub(crate) queue: u32,
    /// The longest line a client may send, in bytes.
    pub(crate) max_line: u32,
    /// Days an adjourned game waits for its players before it ends as abandoned.
    pub(crate) adjourned_days: f64,
}

impl Limits {
    /// The limits when no option changes them.
    pub(crate) const DEFAULT: Limits = Limits {
        max_connections: 4096,
        per_address: 16,
        login_seconds: 10,
        idle_seconds: 5 * 60,
        message_rate: 200,
        table_chat: 20,
        queue: 256,
        max_line: protocol::MAX_CLIENT_LINE as u32,
        adjourned_days: 14.0,
    };

    /// The time to log in.
    fn login_time(&self) -> Duration {
        Duration::from_secs(self.login_seconds)
    }

    /// How long an adjourned game waits, or why the days given are no such time.
    fn adjourned_for(&self) -> Result<Duration, String> {
        Duration::try_from_secs_f64(self.adjourned_days * 86_400.0)
            .ok()
            .filter(|d| !d.is_zero())
            .ok_or_else(|| {
                format!(
                    "--adjourned-days {}: give a number of days above 0",
                    self.adjourned_days
                )
            })
    }
}

/// What a server needs from its command line.
pub(crate) struct ServerOptions {
    /// Where to listen.
    pub(crate) listen: SocketAddr,
    /// The database file.
    pub(crate) db: Option<PathBuf>,
    /// A `db` not there is made (`--create`), not refused.
    pub(crate) create: bool,
    /// A certificate chain and its key (PEM files) to serve instead of the
    /// self-signed certificate.
    pub(crate) pem: Option<(PathBuf, PathBuf)>,
    /// What a client may take.
    pub(crate) limits: Limits,
}

/// The lobby, shared by every connection.
type Shared = Arc<Mutex<Lobby>>;

/// Locks the lobby (a panic elsewhere leaves it usable: each step is whole).
fn lock(lobby: &Shared) -> std::sync::MutexGuard<'_, Lobby> {
    lobby.lock().unwrap_or_else(|e| e.into_inner())
}

/// `checkers server`.
pub(crate) fn run(options: &ServerOptions) -> Result<(), CommandError> {
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .try_init();
    let db_path = match &options.db {
        Some(path) => {
            if let Some(refusal) = missing_database(path, options.create) {
                return Err(network(refusal));
            }
            path.clone()
        }
        None => {
            let path = default_db().map_err(network)?;
            if let Some(dir) = path.parent() {
                crate::store::files::create_folder(dir)
                    .map_err(|e| network(format!("{}: {e}", crate::text::printable_path(dir))))?;
            }
            path
        }
    };
    let limits = options.limits;
    let adjourned_for = limits.adjourned_for().map_err(network)?;
    // A certificate pair given that does not serve (unreadable, or a key not the
    // certificate's) is said before anything is made or opened.
    let served = match &options.pem {
        Some((cert, key)) => {
            let (chain, key) = tls::certificate_from_pem(cert, key).map_err(network)?;
            let fingerprint = protocol::fingerprint(&chain[0]);
            Some((
                fingerprint,
                tls::server_config(chain, key).map_err(network)?,
            ))
        }
        None => None,
    };
    if let Some(problem) = database_problem(&db_path) {
        return Err(network(problem));
    }
    // Held until the process ends: a second server on this database is refused.
    let _held = hold_database(&db_path).map_err(network)?;
    // The database before a certificate is made beside it: a --db that is no database
    // is said with nothing left beside it.
    let store = open_store(&db_path).map_err(network)?;
    let (fingerprint, config, made) = match served {
        Some((fingerprint, config)) => (fingerprint, config, false),
        None => {
            let (cert, key, made) =
                tls::certificate(&beside(&db_path, "cert.der"), &beside(&db_path, "key.der"))
                    .map_err(network)?;
            let fingerprint = protocol::fingerprint(&cert);
            let config = tls::server_config(vec![cert], key).map_err(network)?;
            (fingerprint, config, made)
        }
    };
    let (outbox, posts) = outbox::Outbox::new();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| network(format!("cannot start: {e}")))?;
    // Bound before the runtime starts, so that the lobby (which waits for the
    // database to open) is ready, knowing its address, before any connection is taken.
    let listener = std::net::TcpListener::bind(options.listen)
        .and_then(|l| l.set_nonblocking(true).map(|()| l))
        .map_err(|e| {
            network(format!(
                "cannot listen at {}: {e} (--listen ADDR:PORT picks another)",
                options.listen
            ))
        })?;
    let address = listener.local_addr().map_err(|e| network(e.to_string()))?;
    let settings = lobby::Settings {
        site: format!("checkers server {address}"),
        adjourned_for,
        table_chat: limits.table_chat as usize,
    };
    let (lobby, adjourned) =
        Lobby::open(store.clone(), outbox, settings, Instant::now()).map_err(network)?;
    runtime.block_on(async {
        let listener = TcpListener::from_std(listener).map_err(|e| network(e.to_string()))?;
        let stop = stop_signal();
        println!("checkers server listening at {address}");
        println!(
            "Certificate fingerprint {}{}",
            protocol::fingerprint_text(&fingerprint),
            if made { " (made now)" } else { "" }
        );
        println!("Database {}", crate::text::printable_path(&db_path));
        if adjourned > 0 {
            if adjourned == 1 {
                println!("1 adjourned game waits for its players");
            } else {
                println!("{adjourned} adjourned games wait for their players");
            }
        }
        let lobby = Arc::new(Mutex::new(lobby));
        tokio::spawn(outbox::deliver(posts, lobby.clone()));
        let acceptor = tokio_rustls::TlsAcceptor::from(Arc::new(config));
        serve(listener, acceptor, lobby, (fingerprint, limits), stop).await;
        // Every write asked is done before the process ends, and all of it is in the
        // database file itself: a copy of that file alone, made now, is whole.
        match store.ask(|db| db.checkpoint()).await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!(
                error = e,
                "the database's log is not emptied: copy the -wal file with the database"
            ),
            Err(_) => tracing::error!("the database's thread is gone"),
        }
        println!("{}", store.counts_text());
        println!("checkers server stopped");
        Ok(())
    })
}

/// The database when no `--db` is given: `server/server.sqlite` in the data folder.
fn default_db() -> Result<PathBuf, String> {
    let dir = crate::store::data_dir().ok_or("no data folder: give --db FILE")?;
    Ok(dir.join("server").join("server.sqlite"))
}

/// Why a `--db` that names no file is refused, unless `create` asks for a new database:
/// a mistyped path would otherwise start a server with no players and a new certificate,
/// every rating looking lost and every player told the fingerprint changed.
fn missing_database(db: &Path, create: bool) -> Option<String> {
    // Only a file known to be missing: one that cannot be looked at is said when opened.
    (!create && matches!(db.try_exists(), Ok(false))).then(|| {
        format!(
            "{}: no such database. Check the path (a new database has no players, ratings \
             or games, and a new certificate); to make a new one there, give --create too",
            crate::text::printable_path(db)
        )
    })
}

/// Why `db` can be no server's database, looked at before anything is made beside it:
/// a folder, or a file that is not SQLite's (a mistyped `--db` naming some other file).
fn database_problem(db: &Path) -> Option<String> {
    use std::io::Read;
    let shown = crate::text::printable_path(db);
    if db.is_dir() {
        return Some(format!(
            "{shown} is a folder: --db names the database file (such as {})",
            crate::text::printable_path(&db.join("server.sqlite"))
        ));
    }
    let mut head = Vec::new();
    let file = std::fs::File::open(db).ok()?;
    file.take(16).read_to_end(&mut head).ok()?;
    (!head.is_empty() && head != b"SQLite format 3\0").then(|| {
        format!(
            "{shown} is not a database (an SQLite file): --db names the server's database, \
             or, with --create, a file not there yet to make one"
        )
    })
}

/// Opens the database at `db` on its own thread, or says, naming the file, why not (one
/// of a newer program, say).
fn open_store(db: &Path) -> Result<store::Store, String> {
    store::Store::open(db).map_err(|e| format!("{}: {e}", crate::text::printable_path(db)))
}

/// Takes the database's lock (`server.lock` beside `server.sqlite`), writing this
/// process's id in it: two servers on one database would each take back its unfinished
/// games and play them apart, so a second one is refused, naming the first. The
/// system lets go of the lock when the process ends, killed or not, so a lock is never
/// left stale.
fn hold_database(db: &Path) -> Result<std::fs::File, String> {
    use std::io::{Read, Seek, Write};
    let lock = beside(db, "lock");
    let shown = crate::text::printable_path(&lock);
    if let Some(parent) = lock.parent().filter(|p| !p.as_os_str().is_empty()) {
        crate::store::files::create_folder(parent).map_err(|e| format!("{shown}: {e}"))?;
    }
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(&lock)
        .map_err(|e| format!("{shown}: cannot open the database's lock: {e}"))?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut text = String::new();
            let _ = file.read_to_string(&mut text);
            let holder = match text.trim().parse::<u32>() {
                Ok(pid) => format!("another checkers server (process {pid})"),
                Err(_) => "another checkers server".to_string(),
            };
            return Err(format!(
                "{} is in use by {holder}: stop it first, or give this one another --db \
                 (two servers on one database would each play its games)",
                crate::text::printable_path(db)
            ));
        }
        Err(std::fs::TryLockError::Error(e)) => {
            return Err(format!("{shown}: cannot lock the database: {e}"));
        }
    }
    // The holder's id, for the refusal above: told, not relied on.
    let _ = file.set_len(0).and_then(|()| file.rewind());
    let _ = writeln!(file, "{}", std::process::id()).and_then(|()| file.flush());
    Ok(file)
}

/// A file beside the database: `server.sqlite` gives `server.cert.der`.
fn beside(db: &Path, extension: &str) -> PathBuf {
    db.with_extension(extension)
}

/// A network error.
fn network(text: String) -> CommandError {
    CommandError::Network(text)
}

/// The connections open now, counted as they are taken and as they end.
#[derive(Default)]
struct Counts {
    /// Each connection counted, by number, with the address it is counted under (an
    /// IPv6 address's /64: one machine commonly holds a whole /64).
    live: HashMap<u64, IpAddr>,
    /// How many are counted under each address.
    by_address: HashMap<IpAddr, usize>,
    /// The connections not logged in yet, oldest first: when the server is full, the
    /// oldest makes room for a new one, so that connections that never log in cannot
    /// keep players out.
    waiting: std::collections::BTreeMap<u64, tokio::task::AbortHandle>,
}

impl Counts {
    /// Counts connection `conn` from `address`.
    fn add(&mut self, conn: u64, address: IpAddr) {
        self.live.insert(conn, address);
        *self.by_address.entry(address).or_default() += 1;
    }

    /// Stops counting connection `conn` (once, however often asked).
    fn remove(&mut self, conn: u64) {
        self.waiting.remove(&conn);
        let Some(address) = self.live.remove(&conn) else {
            return;
        };
        if let Some(count) = self.by_address.get_mut(&address) {
            *count -= 1;
            if *count == 0 {
                self.by_address.remove(&address);
            }
        }
    }

    /// Lets go of the oldest connection not logged in, if any: whether one was.
    fn make_room(&mut self) -> bool {
        let Some((conn, task)) = self.waiting.pop_first() else {
            return false;
        };
        task.abort();
        self.remove(conn);
        true
    }
}

/// Counts a connection while its task runs: it is no longer counted once the task
/// ends or is aborted to make room.
struct Counted {
    /// The server's counts.
    counts: Arc<Mutex<Counts>>,
    /// The connection's number.
    conn: u64,
}

impl Counted {
    /// The connection logged in: it no longer makes room for others.
    fn logged_in(&self) {
        lock_counts(&self.counts).waiting.remove(&self.conn);
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        lock_counts(&self.counts).remove(self.conn);
    }
}

/// The counts, even if a task panicked holding them.
fn lock_counts(counts: &Mutex<Counts>) -> std::sync::MutexGuard<'_, Counts> {
    counts.lock().unwrap_or_else(|e| e.into_inner())
}

/// The most connections turned away at once (each told why over TLS): more are closed
/// without a word, so that turning a crowd away costs little.
const TURNING_AWAY: usize = 64;

/// Why a connection over `--max-connections` is turned away.
fn full_reason(max: u32) -> String {
    format!("the server is full ({max} connections at once): try again later")
}

/// Turns `stream` away with `reason` on a task of its own, holding one of the
/// [`TURNING_AWAY`] tokens; past that bound it is closed unread, so a flood costs no
/// more handshakes than the bound.
fn turn_away_bounded(
    turning_away: &Arc<()>,
    stream: TcpStream,
    acceptor: &tokio_rustls::TlsAcceptor,
    reason: String,
) {
    if Arc::strong_count(turning_away) <= TURNING_AWAY {
        let (token, acceptor) = (Arc::clone(turning_away), acceptor.clone());
        tokio::spawn(async move {
            let _token = token;
            turn_away(stream, acceptor, reason).await;
        });
    }
}

/// Tells a connection over the server's cap why it is closed (within two seconds,
/// TLS handshake included), then closes it.
async fn turn_away(stream: TcpStream, acceptor: tokio_rustls::TlsAcceptor, reason: String) {
    let told = async {
        let mut tls = acceptor.accept(stream).await.ok()?;
        write_message(&mut tls, &ServerMessage::Refused { reason })
            .await
            .ok()?;
        tls.shutdown().await.ok()
    };
    let _ = tokio::time::timeout(Duration::from_secs(2), told).await;
}

/// Takes connections until SIGTERM or Ctrl-C; the clocks are ticked meanwhile. Every
/// move is in the database already when it stops.
async fn serve(
    listener: TcpListener,
    acceptor: tokio_rustls::TlsAcceptor,
    lobby: Shared,
    (fingerprint, limits): ([u8; 32], Limits),
    stop: impl std::future::Future<Output = ()>,
) {
    let counts: Arc<Mutex<Counts>> = Arc::default();
    let turning_away = Arc::new(());
    // Held by each connection's writer: the last words are written when none is left.
    let writers = Arc::new(());
    let mut next_conn = 0u64;
    let mut ticks = tokio::time::interval(Duration::from_millis(200));
    tokio::pin!(stop);
    loop {
        tokio::select! {
            () = &mut stop => {
                tracing::info!("stopping");
                let outbox = lock(&lobby).outbox();
                lock(&lobby).stop_all(Instant::now());
                outbox.flushed().await;
                let deadline = Instant::now() + Duration::from_secs(3);
                while Arc::strong_count(&writers) > 1 && Instant::now() < deadline {
                    tokio::time::sleep(Duration::from_millis(10)).await;
                }
                return;
            }
            _ = ticks.tick() => lock(&lobby).tick(Instant::now()),
            accepted = listener.accept() => {
                let Ok((stream, peer)) = accepted else { continue };
                let address = crate::net::listener::address_key(peer.ip());
                next_conn += 1;
                let conn = next_conn;
                let mut counting = lock_counts(&counts);
                if counting.by_address.get(&address).copied().unwrap_or(0) >= limits.per_address as usize {
                    tracing::warn!(%peer, "too many connections from one address");
                    let reason = format!(
                        "too many connections from your address ({} at once): close one, or \
                         ask the server's operator to raise --max-connections-per-address",
                        limits.per_address
                    );
                    turn_away_bounded(&turning_away, stream, &acceptor, reason);
                    continue;
                }
                if counting.live.len() >= limits.max_connections as usize && !counting.make_room() {
                    tracing::warn!(%peer, max = limits.max_connections, "the server is full: a connection turned away");
                    turn_away_bounded(&turning_away, stream, &acceptor, full_reason(limits.max_connections));
                    continue;
                }
                counting.add(conn, address);
                let (acceptor, lobby) = (acceptor.clone(), lobby.clone());
                let counted = Counted { counts: counts.clone(), conn };
                let writer = writers.clone();
                let task = tokio::spawn(async move {
                    let server = Server { acceptor, lobby, fingerprint, writer, limits };
                    connection(stream, peer, conn, server, counted).await;
                });
                // Still counted (its task may have ended already): it waits to log in.
                if counting.live.contains_key(&conn) {
                    counting.waiting.insert(conn, task.abort_handle());
                }
                drop(counting);
            }
        }
    }
}

/// Resolves on SIGTERM or Ctrl-C. The handlers are in place when this returns (not at
/// the first poll), so a stop sent as soon as the server says it listens is heard.
fn stop_signal() -> impl std::future::Future<Output = ()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let term = signal(SignalKind::terminate()).ok();
        let interrupt = signal(SignalKind::interrupt()).ok();
        async move {
            let wait = |signal: Option<tokio::signal::unix::Signal>| async move {
                match signal {
                    Some(mut signal) => {
                        signal.recv().await;
                    }
                    None => std::future::pending::<()>().await,
                }
            };
            tokio::select! {
                () = wait(term) => {}
                () = wait(interrupt) => {}
            }
        }
    }
    #[cfg(not(unix))]
    {
        async {
            let _ = tokio::signal::ctrl_c().await;
        }
    }
}

/// One line of at most `max` bytes, without its end; none at the end of the stream
/// (also when the peer closed without TLS's goodbye, or reset the line: it is gone
/// all the same, and TLS's wording would only puzzle whoever reads it).
pub(crate) async fn read_line<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> Result<Option<String>, String> {
    Ok(read_line_or_end(reader, max).await?.ok())
}

/// How a line ended with no more to read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineEnd {
    /// The peer closed it in order (TLS's goodbye): it meant to.
    Closed,
    /// It ended without TLS's goodbye, or was reset: the network cut it, or the peer's
    /// program ended without closing it (killed, or crashed).
    Cut,
}

/// One line of at most `max` bytes, without its end, as [`read_line`] reads it; at
/// the end of the stream, how it ended.
pub(crate) async fn read_line_or_end<R: AsyncBufRead + Unpin>(
    reader: &mut R,
    max: usize,
) -> Result<Result<String, LineEnd>, String> {
    let mut line = Vec::new();
    let read = match (&mut *reader)
        .take(max as u64 + 1)
        .read_until(b'\n', &mut line)
        .await
    {
        Ok(read) => read,
        Err(e) if closed_by_peer(&e) => return Ok(Err(LineEnd::Cut)),
        Err(e) => return Err(e.to_string()),
    };
    if read == 0 {
        return Ok(Err(LineEnd::Closed));
    }
    if line.last() != Some(&b'\n') {
        return if line.len() > max {
            Err(format!("a line longer than {max} bytes"))
        } else {
            Ok(Err(LineEnd::Closed))
        };
    }
    line.pop();
    String::from_utf8(line)
        .map(Ok)
        .map_err(|_| "a line that is not UTF-8".to_string())
}

/// Whether `error` says only that the other end of the line is gone (it closed without
/// TLS's goodbye, reset the line, or a write found it closed).
pub(crate) fn closed_by_peer(error: &std::io::Error) -> bool {
    use std::io::ErrorKind::{BrokenPipe, ConnectionAborted, ConnectionReset, UnexpectedEof};
    matches!(
        error.kind(),
        UnexpectedEof | ConnectionReset | ConnectionAborted | BrokenPipe
    )
}

/// Writes `message` as one line.
pub(crate) async fn write_message<W: AsyncWrite + Unpin, M: serde::Serialize>(
    writer: &mut W,
    message: &M,
) -> std::io::Result<()> {
    let mut line = serde_json::to_vec(message).map_err(std::io::Error::other)?;
    line.push(b'\n');
    writer.write_all(&line).await?;
    writer.flush().await
}

/// What every connection shares of the server.
struct Server {
    /// The TLS side.
    acceptor: tokio_rustls::TlsAcceptor,
    /// The lobby.
    lobby: Shared,
    /// The certificate's fingerprint, which logins sign.
    fingerprint: [u8; 32],
    /// A token the connection's writer holds while it runs (see `serve`).
    writer: Arc<()>,
    /// What a client may take.
    limits: Limits,
}

/// One client, from its TLS handshake to its leaving.
async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    conn: u64,
    server: Server,
    counted: Counted,
) {
    let Server {
        acceptor,
        lobby,
        fingerprint,
        writer: token,
        limits,
    } = server;
    let _ = stream.set_nodelay(true);
    let deadline = tokio::time::Instant::now() + limits.login_time();
    let Ok(Ok(tls)) = tokio::time::timeout_at(deadline, acceptor.accept(stream)).await else {
        tracing::debug!(%peer, "no TLS handshake");
        return;
    };
    let (reader, mut writer) = tokio::io::split(tls);
    let mut reader = tokio::io::BufReader::new(reader);
    let (out, queue) = mpsc::channel::<ServerMessage>(limits.queue as usize);
    let login = tokio::time::timeout_at(
        deadline,
        log_in(
            &mut reader,
            &mut writer,
            &lobby,
            fingerprint,
            (conn, crate::net::listener::address_key(peer.ip())),
            (out, limits.max_line as usize),
        ),
    )
    .await;
    let refusal = match login {
        Ok(Ok(None)) => {
            // Not a refusal: a first contact that only looks at the certificate
            // (its player then asked whether to trust it) leaves so.
            tracing::info!(%peer, "left before logging in (a first contact's look at the certificate, or a client that gave up)");
            return;
        }
        Ok(Ok(Some(name))) => {
            tracing::info!(%peer, name, "logged in");
            counted.logged_in();
            let connection = Connection {
                conn,
                name,
                lobby,
                token,
                limits,
            };
            return play(reader, writer, queue, connection).await;
        }
        Ok(Err(reason)) => reason,
        Err(_) => format!("not logged in within {} seconds", limits.login_seconds),
    };
    tracing::info!(%peer, reason = refusal, "login refused");
    let _ = write_message(&mut writer, &ServerMessage::Refused { reason: refusal }).await;
    let _ = writer.shutdown().await;
    linger(&mut reader).await;
}

/// The login: a fresh challenge, signed by the key the name is bound to (or, for a
/// new name, by the key that takes it). Gives the name, or none if the client left
/// without a login (as a first contact does that only looks at the certificate).
async fn log_in<R: AsyncBufRead + Unpin, W: AsyncWrite + Unpin>(
    reader: &mut R,
    writer: &mut W,
    lobby: &Shared,
    fingerprint: [u8; 32],
    (conn, address): (u64, std::net::IpAddr),
    (out, max_line): (mpsc::Sender<ServerMessage>, usize),
) -> Result<Option<String>, String> {
    let mut challenge = [0u8; 32];
    getrandom::fill(&mut challenge).map_err(|e| format!("no randomness: {e}"))?;
    let hello = ServerMessage::Challenge {
        version: protocol::VERSION,
        challenge: protocol::hex(&challenge),
    };
    match write_message(writer, &hello).await {
        Err(e) if closed_by_peer(&e) => return Ok(None),
        written => written.map_err(|e| e.to_string())?,
    }
    let Some(line) = read_line(reader, max_line).await? else {
        return Ok(None);
    };
    let Ok(ClientMessage::Login {
        version,
        name,
        key,
        signature,
        knows,
    }) = serde_json::from_str::<ClientMessage>(&line)
    else {
        return Err(login_problem(&line));
    };
    if version != protocol::VERSION {
        return Err(format!(
            "this server speaks protocol {}, the client {version}: update checkers",
            protocol::VERSION
        ));
    }
    if let Some(problem) = protocol::name_problem(&name) {
        return Err(problem);
    }
    let key = protocol::unhex::<32>(&key).ok_or("the key is not 32 bytes in hex")?;
    let signature =
        protocol::unhex::<64>(&signature).ok_or("the signature is not 64 bytes in hex")?;
    let verifying = VerifyingKey::from_bytes(&key).map_err(|_| "the key is not an Ed25519 key")?;
    verifying
        .verify_strict(
            &protocol::login_message(&challenge, &fingerprint, &name),
            &Signature::from_bytes(&signature),
        )
        .map_err(|_| "the login's signature does not verify".to_string())?;
    let claimed = claim(lobby, address, name.clone(), key)
        .await
        .map_err(|_| "the server is stopping".to_string())??;
    let (player, new) = match claimed {
        db::Claim::Player(player, new) => (player, new),
        db::Claim::Taken => {
            return Err(format!(
                "the name {name} is taken by another player's key: pick another name (--name)"
            ));
        }
        db::Claim::LooksLike(other) => {
            return Err(format!(
                "the name {name} reads too much like the player {other}'s: pick another name \
                 (--name)"
            ));
        }
        db::Claim::Banned(reason) => return Err(lobby::banned_words(&reason)),
        db::Claim::NoNewName => {
            return Err(format!(
                "{} new names were made from your address within the hour: log in with a name \
                 you have, or make a new one later",
                lobby::NEW_NAMES_PER_WINDOW
            ));
        }
    };
    let mut lobby = lock(lobby);
    // Banned after the database let this login in.
    if let Some(reason) = lobby.banned_now(&name) {
        return Err(lobby::banned_words(&reason));
    }
    // As the database says now: the operator may have changed it while the server runs.
    lobby.note_moderator(&name, player.moderator);
    // The key proves it is the same player: a new connection takes over from one
    // that may be stale (a dropped line the server has not noticed yet).
    lobby.take_over(&name);
    // The welcome goes first through the queue, then whatever the lobby tells.
    let welcome = ServerMessage::Welcome {
        name: name.clone(),
        new,
        rating: player.rating.rating,
        moderator: lobby.is_moderator(&name),
        knows: protocol::server_knows(),
    };
    out.try_send(welcome).map_err(|e| e.to_string())?;
    lobby.enter(&name, &player, (conn, address), out);
    if !knows.iter().any(|word| word == protocol::KNOWS_NO_RESULT) {
        lobby.older_client(&name);
    }
    if !knows.iter().any(|word| word == protocol::KNOWS_TELL) {
        lobby.client_without_told(&name);
    }
    Ok(Some(name))
}

/// Why a first `line` that does not read as a login is refused: a login whose `knows`
/// is not a list of words is told so (its writer would look for the fault elsewhere);
/// anything else is told the first message must be a login.
fn login_problem(line: &str) -> String {
    let value = serde_json::from_str::<serde_json::Value>(line).ok();
    let login = value
        .as_ref()
        .filter(|v| v.get("type").and_then(serde_json::Value::as_str) == Some("login"));
    let knows_words = |knows: &serde_json::Value| {
        knows
            .as_array()
            .is_some_and(|words| words.iter().all(serde_json::Value::is_string))
    };
    match login.and_then(|login| login.get("knows")) {
        Some(knows) if !knows_words(knows) => {
            "the login's knows must be a list of words".to_string()
        }
        _ => "the first message must be a login".to_string(),
    }
}

/// The database's answer to a login of `name` with `key` from `address`, on a task of
/// its own: a new name may be made if the address has made fewer than its hour's new
/// names, and the one counted for it is given back once the database has answered
/// without making one (the name was the key's already or is refused, or the database
/// failed). The task goes on if the login is dropped (out of time): the database still
/// answers, so the count follows what it did.
fn claim(
    lobby: &Shared,
    address: IpAddr,
    name: String,
    key: [u8; 32],
) -> tokio::task::JoinHandle<Result<db::Claim, String>> {
    let (store, new_allowed) = {
        let mut lobby = lock(lobby);
        (lobby.store(), lobby.may_make_name(address, Instant::now()))
    };
    let answer = store.ask(move |db| db.claim(&name, &key, crate::store::now_unix(), new_allowed));
    let lobby = lobby.clone();
    tokio::spawn(async move {
        let claimed = answer
            .await
            .map_err(|_| "the server's database is gone".to_string())
            .flatten();
        if new_allowed && !matches!(claimed, Ok(db::Claim::Player(_, true))) {
            lock(&lobby).no_name_made(address);
        }
        claimed
    })
}

/// A logged-in client, as its connection's task knows it.
struct Connection {
    /// The connection's number.
    conn: u64,
    /// The player's name.
    name: String,
    /// The lobby.
    lobby: Shared,
    /// The writer's token (see `serve`).
    token: Arc<()>,
    /// What the client may take.
    limits: Limits,
}

/// The longest a client may take to take one message (the kernel's buffers for it
/// full): one that takes nothing for so long does not read, and is let go.
const WRITE_TIME: Duration = Duration::from_secs(20);

/// A logged-in client: its requests to the lobby, the lobby's messages to it.
async fn play<R, W>(
    mut reader: R,
    mut writer: W,
    mut queue: mpsc::Receiver<ServerMessage>,
    connection: Connection,
) where
    R: AsyncBufRead + Unpin,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let Connection {
        conn,
        name,
        lobby,
        token,
        limits,
    } = connection;
    let mut writing = tokio::spawn(async move {
        let _token = token;
        while let Some(message) = queue.recv().await {
            let write = tokio::time::timeout(WRITE_TIME, write_message(&mut writer, &message));
            match write.await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => break,
                // Stuck: a goodbye would wait as long again; the socket just closes.
                Err(_) => return,
            }
        }
        let _ = tokio::time::timeout(Duration::from_secs(5), writer.shutdown()).await;
    });
    let (mut window, mut sent) = (Instant::now(), 0u32);
    let mut written = false;
    loop {
        let read = tokio::time::timeout(
            Duration::from_secs(limits.idle_seconds),
            read_line(&mut reader, limits.max_line as usize),
        );
        // The writer ends when the client takes nothing, or the lobby let it go: the
        // connection ends with it, not at the next line the client sends.
        let read = tokio::select! {
            read = read => read,
            _ = &mut writing => {
                written = true;
                break;
            }
        };
        let line = match read {
            Ok(Ok(Some(line))) => line,
            Ok(Ok(None)) | Err(_) => break,
            Ok(Err(reason)) => {
                lock(&lobby).refuse(&name, conn, reason);
                break;
            }
        };
        if window.elapsed() > RATE_WINDOW {
            (window, sent) = (Instant::now(), 0);
        }
        sent += 1;
        if sent > limits.message_rate {
            let reason = format!(
                "more than {} messages in {} seconds",
                limits.message_rate,
                RATE_WINDOW.as_secs()
            );
            lock(&lobby).refuse(&name, conn, reason);
            break;
        }
        let message = match read_message(&line) {
            Ok(message) => message,
            Err(Unread::Unknown(kind)) => {
                // A newer client's message: answered in words, the line kept (it was
                // closed). It counted above, so a flood of them is let go as any is.
                let mut lobby = lock(&lobby);
                if !lobby.connected(&name, conn) {
                    break;
                }
                lobby.unknown_message(&name, &kind);
                continue;
            }
            Err(Unread::Malformed) => {
                lock(&lobby).refuse(&name, conn, "a message this server cannot read".to_string());
                break;
            }
        };
        let mut lobby = lock(&lobby);
        if !lobby.connected(&name, conn) {
            break;
        }
        lobby.handle(&name, message, Instant::now());
    }
    lock(&lobby).leave(&name, conn);
    tracing::info!(name, "left");
    if !written {
        let _ = tokio::time::timeout(Duration::from_secs(5), writing).await;
    }
    linger(&mut reader).await;
}

/// Why a logged-in client's line is not a message this server takes.
#[derive(Debug, PartialEq, Eq)]
enum Unread {
    /// A JSON object whose `type` this server does not know (a newer client's
    /// message): named, cleaned and cut to [`UNKNOWN_TYPE_CHARS`], in the answer.
    Unknown(String),
    /// Not JSON, no `type`, or a type this server knows with fields that do not read:
    /// a broken client, whose next lines would be no better; let go as before.
    Malformed,
}

/// The most characters of an unknown message type said back to its client.
const UNKNOWN_TYPE_CHARS: usize = 40;

/// A logged-in client's `line` as a message, or why not ([`Unread`]).
fn read_message(line: &str) -> Result<ClientMessage, Unread> {
    let error = match serde_json::from_str::<ClientMessage>(line) {
        Ok(message) => return Ok(message),
        Err(error) => error,
    };
    // serde names a tag it has no variant for so; a known one with bad fields it
    // names otherwise.
    if !error.to_string().starts_with("unknown variant") {
        return Err(Unread::Malformed);
    }
    let value: serde_json::Value = serde_json::from_str(line).map_err(|_| Unread::Malformed)?;
    let kind = value
        .get("type")
        .and_then(serde_json::Value::as_str)
        .ok_or(Unread::Malformed)?;
    let kind: String = crate::text::cleaned_line(kind)
        .chars()
        .take(UNKNOWN_TYPE_CHARS)
        .collect();
    Err(Unread::Unknown(kind))
}

/// How long a connection that is over reads on (and drops) what its client still sends.
const LINGER: Duration = Duration::from_secs(2);

/// The most a connection that is over reads on: a client's last few messages, not a
/// stream the server would spend its time taking apart.
const LINGER_BYTES: usize = 64 * 1024;

/// Reads and drops what the client still sends, until it closes, for [`LINGER`] or
/// [`LINGER_BYTES`], once the goodbye is written: a socket closed with bytes unread
/// resets the line, and a client still writing then fails before it has read the
/// goodbye (why it was let go).
async fn linger<R: tokio::io::AsyncRead + Unpin>(reader: &mut R) {
    let mut sink = [0u8; 4096];
    let drain = async {
        let mut left = LINGER_BYTES;
        while let Ok(read @ 1..) = reader.read(&mut sink).await {
            left = left.saturating_sub(read);
            if left == 0 {
                break;
            }
        }
    };
    let _ = tokio::time::timeout(LINGER, drain).await;
}
