//! `checkers-lab load`: a crowd for a `checkers server`, to measure it. Players log in
//! with keys of their own (the same each run, so their names stay theirs), spread over
//! loopback addresses to stay within the server's share per address; some pairs play
//! games of random legal moves at once, the rest stay idle in the lobby. It measures
//! the time from a move sent to the opponent receiving it, and reads the server's
//! memory and CPU time from /proc when given its process id.

use super::LabError;
use crate::commands::CommandError;
use crate::server::protocol::{self, ClientMessage, ServerMessage, Side};
use ed25519_dalek::{Signer, SigningKey};
use std::collections::HashMap;
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::watch;

/// How many connections one loopback address carries: under the server's default
/// share (16).
const PER_ADDRESS: usize = 15;

/// How many players shake hands at once while the crowd logs in.
const HANDSHAKES: usize = 64;

/// `checkers-lab load`'s options.
#[derive(Debug, clap::Args)]
pub(crate) struct LoadArgs {
    /// The server, ADDR:PORT.
    #[arg(long, value_name = "ADDR:PORT")]
    pub(crate) server: SocketAddr,
    /// Players to log in.
    #[arg(long, default_value_t = 1000, allow_negative_numbers = true, value_parser = crate::cli::whole::<u32>(2, 60_000))]
    pub(crate) players: u32,
    /// Games in play at once (two players each; the other players stay idle).
    #[arg(long, default_value_t = 300, allow_negative_numbers = true, value_parser = crate::cli::whole::<u32>(1, 30_000))]
    pub(crate) games: u32,
    /// Seconds of play to measure (at most a day: a longer run overflowed the clock).
    #[arg(long, default_value_t = 60, allow_negative_numbers = true, value_parser = crate::cli::whole::<u64>(1, 86_400))]
    pub(crate) seconds: u64,
    /// A player's mean thinking time before each move, in milliseconds (each waits a
    /// random time up to twice it): 0 moves at once, for the most load; at most a
    /// minute, as a huge time overflowed the clock.
    #[arg(long, value_name = "MS", default_value_t = 500, allow_negative_numbers = true, value_parser = crate::cli::whole::<u64>(0, 60_000))]
    pub(crate) think_ms: u64,
    /// The server's process id, to read its memory and CPU time from /proc (1 to
    /// Linux's highest, 4194304).
    #[arg(long, value_name = "PID", allow_negative_numbers = true, value_parser = crate::cli::whole::<u32>(1, 4_194_304))]
    pub(crate) server_pid: Option<u32>,
}

/// What the crowd counts, shared by its players.
#[derive(Default)]
struct Tally {
    /// When each move was sent, by game and ply, until its opponent hears it.
    sent: HashMap<(u64, usize), Instant>,
    /// The times from a move sent to the opponent hearing it.
    latencies: Vec<Duration>,
    /// Players logged in.
    logged_in: usize,
    /// Games started.
    games: usize,
    /// Games over.
    ended: usize,
    /// Requests the server refused (a move on a game just ended, say).
    rejected: usize,
}

/// The shared tally.
type Shared = Arc<Mutex<Tally>>;

/// Locks the tally.
fn lock(tally: &Shared) -> std::sync::MutexGuard<'_, Tally> {
    tally.lock().unwrap_or_else(|e| e.into_inner())
}

/// What one player does.
#[derive(Clone)]
enum Role {
    /// Stays in the lobby.
    Idle,
    /// Challenges this player, again after each game.
    Challenger(String),
    /// Accepts the challenges that come.
    Accepter,
}

/// What every player shares: where to go, how, and when.
struct Crowd {
    /// The server.
    server: SocketAddr,
    /// The TLS side.
    connector: tokio_rustls::TlsConnector,
    /// The fingerprint check, which also gives the fingerprint logins sign.
    verifier: Arc<crate::server::tls::Pinned>,
    /// Handshakes at once.
    handshakes: tokio::sync::Semaphore,
    /// The tally.
    tally: Shared,
    /// When play ends.
    until: watch::Receiver<Option<tokio::time::Instant>>,
    /// The mean thinking time.
    think: Duration,
}

/// A player's name.
fn name(i: usize) -> String {
    format!("load{i}")
}

/// A player's key: the same each run.
fn key(i: usize) -> SigningKey {
    use sha2::Digest;
    let seed: [u8; 32] = sha2::Sha256::digest(format!("checkers-lab load {i}")).into();
    SigningKey::from_bytes(&seed)
}

/// The loopback address player `i` connects from (none for a server elsewhere).
fn local_address(server: &SocketAddr, i: usize) -> Option<IpAddr> {
    if !server.ip().is_loopback() || !server.is_ipv4() {
        return None;
    }
    let n = i / PER_ADDRESS;
    Some(IpAddr::V4(Ipv4Addr::new(
        127,
        1,
        (n / 250) as u8,
        (n % 250 + 1) as u8,
    )))
}

/// A random number below `n`, from the system's randomness.
fn random_below(n: usize) -> usize {
    let mut bytes = [0u8; 8];
    let _ = getrandom::fill(&mut bytes);
    (u64::from_le_bytes(bytes) % n.max(1) as u64) as usize
}

/// Player `i` in `role`: logs in, then plays or idles until the end.
async fn player(i: usize, role: Role, crowd: Arc<Crowd>) -> Result<(), String> {
    let permit = crowd
        .handshakes
        .acquire()
        .await
        .map_err(|e| e.to_string())?;
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    if let Some(local) = local_address(&crowd.server, i) {
        socket
            .bind(SocketAddr::new(local, 0))
            .map_err(|e| format!("cannot bind {local}: {e}"))?;
    }
    let tcp = socket
        .connect(crowd.server)
        .await
        .map_err(|e| format!("cannot connect: {e}"))?;
    let _ = tcp.set_nodelay(true);
    let server_name =
        rustls::pki_types::ServerName::try_from("checkers").map_err(|e| e.to_string())?;
    let tls = crowd
        .connector
        .connect(server_name, tcp)
        .await
        .map_err(|e| format!("no TLS: {e}"))?;
    let fingerprint = crowd.verifier.seen().ok_or("no certificate")?;
    let (reader, mut writer) = tokio::io::split(tls);
    // Lines are read by a task of their own: a line half read is never dropped when
    // the player stops waiting to make a move.
    let (heard, mut hearing) = tokio::sync::mpsc::unbounded_channel();
    tokio::spawn(async move {
        let mut reader = BufReader::new(reader);
        loop {
            let message =
                match crate::server::read_line(&mut reader, protocol::MAX_SERVER_LINE).await {
                    Ok(Some(line)) => serde_json::from_str(&line).map_err(|e| e.to_string()),
                    Ok(None) => Err("the server closed the connection".to_string()),
                    Err(e) => Err(e),
                };
            let last = message.is_err();
            if heard.send(message).is_err() || last {
                break;
            }
        }
    });
    let mut read = async || -> Result<ServerMessage, String> {
        hearing
            .recv()
            .await
            .unwrap_or_else(|| Err("the server closed the connection".to_string()))
    };
    let ServerMessage::Challenge { challenge, .. } = read().await? else {
        return Err("no challenge".to_string());
    };
    let challenge = protocol::unhex::<32>(&challenge).ok_or("a bad challenge")?;
    let (name, key) = (name(i), key(i));
    let signature = key.sign(&protocol::login_message(&challenge, &fingerprint, &name));
    let login = ClientMessage::Login {
        version: protocol::VERSION,
        name: name.clone(),
        key: protocol::hex(key.verifying_key().as_bytes()),
        signature: protocol::hex(&signature.to_bytes()),
        knows: vec![protocol::KNOWS_NO_RESULT.to_string()],
    };
    crate::server::write_message(&mut writer, &login)
        .await
        .map_err(|e| e.to_string())?;
    match read().await? {
        ServerMessage::Welcome { .. } => {}
        other => return Err(format!("not logged in: {other:?}")),
    }
    drop(permit);
    lock(&crowd.tally).logged_in += 1;
    // Play starts for everyone at once, when the whole crowd is in.
    let mut until = crowd.until.clone();
    let end = loop {
        if let Some(end) = *until.borrow() {
            break end;
        }
        until.changed().await.map_err(|e| e.to_string())?;
    };
    let send = async |writer: &mut _, message: &ClientMessage| {
        crate::server::write_message(writer, message)
            .await
            .map_err(|e| e.to_string())
    };
    let challenge = |opponent: &String| ClientMessage::Challenge {
        name: opponent.clone(),
        clock: "60+0".to_string(),
        rated: true,
        side: None,
        ballot: false,
    };
    if let Role::Challenger(opponent) = &role {
        send(&mut writer, &challenge(opponent)).await?;
    }
    // This player's game: its number, side, position and moves so far.
    let mut game: Option<(u64, Side, crate::rules::Position, usize)> = None;
    let mut next_move: Option<tokio::time::Instant> = None;
    loop {
        let wake = next_move.map_or(end, |at| at.min(end));
        let message = tokio::select! {
            message = read() => message?,
            () = tokio::time::sleep_until(wake) => {
                if tokio::time::Instant::now() >= end {
                    break;
                }
                next_move = None;
                let Some((number, side, position, ply)) = &game else { continue };
                let moves = position.legal_moves();
                if Side::from(position.turn()) != *side || moves.is_empty() {
                    continue;
                }
                let m = &moves[random_below(moves.len())];
                lock(&crowd.tally).sent.insert((*number, *ply), Instant::now());
                send(&mut writer, &ClientMessage::Play { text: m.to_string() }).await?;
                continue;
            }
        };
        let think = || {
            let ms = crowd.think.as_millis() as usize;
            tokio::time::Instant::now() + Duration::from_millis(random_below(2 * ms + 1) as u64)
        };
        match message {
            ServerMessage::Info { text } if text.contains("challenges you") => {
                if let Some(number) = text
                    .split("accept ")
                    .nth(1)
                    .and_then(|t| t.split(' ').next())
                    .and_then(|n| n.parse().ok())
                {
                    send(&mut writer, &ClientMessage::Accept { number }).await?;
                }
            }
            ServerMessage::Started {
                game: number,
                side,
                fen,
                moves,
                ..
            } => {
                let position = fen.parse().map_err(|e| format!("{fen}: {e}"))?;
                if matches!(role, Role::Challenger(_)) {
                    lock(&crowd.tally).games += 1;
                }
                game = Some((number, side, position, moves.len()));
                next_move = Some(think());
            }
            ServerMessage::Moved {
                game: number,
                side: mover,
                fen,
                ..
            } => {
                if let Some((current, side, position, ply)) = &mut game
                    && *current == number
                {
                    if mover != *side {
                        let mut tally = lock(&crowd.tally);
                        if let Some(sent) = tally.sent.remove(&(number, *ply)) {
                            tally.latencies.push(sent.elapsed());
                        }
                    }
                    *position = fen.parse().map_err(|e| format!("{fen}: {e}"))?;
                    *ply += 1;
                    next_move = Some(think());
                }
            }
            ServerMessage::Ended { .. } => {
                game = None;
                if let Role::Challenger(opponent) = &role {
                    lock(&crowd.tally).ended += 1;
                    send(&mut writer, &challenge(opponent)).await?;
                }
            }
            ServerMessage::Rejected { .. } => lock(&crowd.tally).rejected += 1,
            ServerMessage::Refused { reason } => return Err(format!("let go: {reason}")),
            _ => {}
        }
    }
    let _ = writer.shutdown().await;
    Ok(())
}

/// A process's resident memory in KiB and its CPU time (user and system), from /proc.
fn process_use(pid: u32) -> Option<(u64, Duration)> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command's name (which may hold spaces), from the state on:
    // utime and stime are the 14th and 15th fields of the line.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    // Linux counts CPU time in ticks of 1/100 s (USER_HZ) on every common platform.
    Some((rss, Duration::from_millis(ticks * 10)))
}

/// The `q` quantile of sorted `values`.
fn quantile(values: &[Duration], q: f64) -> Duration {
    if values.is_empty() {
        return Duration::ZERO;
    }
    values[((values.len() - 1) as f64 * q).round() as usize]
}

/// `checkers-lab load`.
pub(crate) fn run(args: &LoadArgs, out: &mut impl Write) -> Result<(), LabError> {
    let network = |e: String| LabError::Command(CommandError::Network(e));
    let (players, games) = (args.players as usize, args.games as usize);
    if 2 * games > players {
        return Err(network(format!(
            "--games {games} needs {} players: --players {players} is too few",
            2 * games
        )));
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| network(e.to_string()))?;
    let verifier = Arc::new(crate::server::tls::Pinned::new(None));
    let config =
        crate::server::tls::client_config(verifier.clone()).map_err(|e| network(e.to_string()))?;
    let (start, until) = watch::channel(None);
    let tally = Shared::default();
    let crowd = Arc::new(Crowd {
        server: args.server,
        connector: tokio_rustls::TlsConnector::from(Arc::new(config)),
        verifier,
        handshakes: tokio::sync::Semaphore::new(HANDSHAKES),
        tally: tally.clone(),
        until,
        think: Duration::from_millis(args.think_ms),
    });
    let at_start = args.server_pid.and_then(process_use);
    let report = runtime.block_on(async {
        let mut tasks = tokio::task::JoinSet::new();
        for i in 0..players {
            let role = match i {
                i if i >= 2 * games => Role::Idle,
                i if i % 2 == 0 => Role::Challenger(name(i + 1)),
                _ => Role::Accepter,
            };
            let crowd = crowd.clone();
            tasks.spawn(async move { player(i, role, crowd).await });
        }
        let bar = indicatif::ProgressBar::new(players as u64).with_style(
            indicatif::ProgressStyle::with_template("{msg:>12} [{wide_bar}] {pos}/{len}")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar.set_message("logging in");
        let login_started = Instant::now();
        let mut failures = Vec::new();
        loop {
            let logged_in = lock(&tally).logged_in;
            bar.set_position(logged_in as u64);
            // A player's task ends before play only when it failed.
            while let Some(result) = tasks.try_join_next() {
                failures.push(match result {
                    Ok(Err(e)) => e,
                    Ok(Ok(())) => "ended early".to_string(),
                    Err(e) => e.to_string(),
                });
            }
            if logged_in + failures.len() >= players
                || login_started.elapsed() > Duration::from_secs(120)
            {
                break;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        let login_time = login_started.elapsed();
        bar.finish_and_clear();
        let connected = args.server_pid.and_then(process_use);
        let play = Duration::from_secs(args.seconds);
        let end = tokio::time::Instant::now() + play;
        let _ = start.send(Some(end));
        let bar = indicatif::ProgressBar::new(args.seconds).with_style(
            indicatif::ProgressStyle::with_template("{msg:>12} [{wide_bar}] {pos}/{len} s")
                .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        let play_started = Instant::now();
        while play_started.elapsed() < play {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let moves = lock(&tally).latencies.len();
            bar.set_position(play_started.elapsed().as_secs());
            bar.set_message(format!("{moves} moves"));
        }
        bar.finish_and_clear();
        let after = args.server_pid.and_then(process_use);
        while let Some(result) = tasks.join_next().await {
            if let Ok(Err(e)) = result {
                failures.push(e);
            }
        }
        (login_time, connected, after, failures)
    });
    let (login_time, connected, after, failures) = report;
    let mut tally = lock(&tally);
    tally.latencies.sort();
    let lat = &tally.latencies;
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let write = |out: &mut dyn Write, text: String| {
        writeln!(out, "{text}").map_err(|e| LabError::Command(CommandError::Output(e)))
    };
    write(
        out,
        format!(
            "{} of {players} players logged in in {:.1} s ({} failed); {} games started, {} ended",
            tally.logged_in,
            login_time.as_secs_f64(),
            failures.len(),
            tally.games,
            tally.ended
        ),
    )?;
    write(
        out,
        format!(
            "{} moves relayed in {} s ({:.0} a second), {} requests refused",
            lat.len(),
            args.seconds,
            lat.len() as f64 / args.seconds as f64,
            tally.rejected
        ),
    )?;
    write(
        out,
        format!(
            "move sent to opponent told: p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(quantile(lat, 0.5)),
            ms(quantile(lat, 0.99)),
            ms(lat.last().copied().unwrap_or_default())
        ),
    )?;
    if let (Some((rss0, cpu0)), Some((rss1, cpu1)), Some((rss2, cpu2))) =
        (at_start, connected, after)
    {
        let per = (rss1.saturating_sub(rss0)) as f64 / tally.logged_in.max(1) as f64;
        write(
            out,
            format!(
                "server memory (RSS): {rss0} KiB before, {rss1} KiB with everyone logged in, \
                 {rss2} KiB after play: {per:.1} KiB per connection"
            ),
        )?;
        let play_cpu = cpu2.saturating_sub(cpu1);
        write(
            out,
            format!(
                "server CPU time: {:.2} s logging everyone in, {:.2} s during {} s of play ({:.1}% of one core)",
                cpu1.saturating_sub(cpu0).as_secs_f64(),
                play_cpu.as_secs_f64(),
                args.seconds,
                100.0 * play_cpu.as_secs_f64() / args.seconds as f64
            ),
        )?;
    }
    for failure in failures.iter().take(5) {
        write(out, format!("a player failed: {failure}"))?;
    }
    Ok(())
}
