//! `checkers online SERVER`: a player at a `checkers server`, in plain mode (text in,
//! text out). The connection is TLS, the server's certificate pinned on first contact
//! (`known_servers` in the data folder) and a changed one refused, as SSH does; the
//! player logs in by signing the server's challenge with their key (`identity`).

mod identity;
mod line;
pub(crate) mod orders;

pub(crate) use identity::parse_fingerprint;
pub(crate) use line::{LineNews, ServerLine};

use crate::commands::CommandError;
use crate::plain::board_text_from;
use crate::rules::{Color, Position};
use crate::server::protocol::{self, ClientMessage, ServerMessage};
use crate::server::tls::Pinned;
use crate::server::{LineEnd, read_line_or_end, write_message};
use ed25519_dalek::Signer;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::sync::mpsc;

/// The time to connect and log in.
const CONNECT_TIME: Duration = Duration::from_secs(15);

/// How often the client says it is still there.
const PING_EVERY: Duration = Duration::from_secs(60);

/// How long a move sent may go unanswered before the player is told the line is slow
/// or down (a move is answered at once on a sound line).
const MOVE_UNANSWERED: Duration = Duration::from_secs(5);

/// What `checkers online` needs from its command line.
pub(crate) struct OnlineOptions {
    /// The server, `HOST[:PORT]`.
    pub(crate) server: String,
    /// The name to play under.
    pub(crate) name: Option<String>,
    /// Write the player's finished games to this PDN file, then stop (no lobby).
    pub(crate) export: Option<std::path::PathBuf>,
    /// The server's certificate fingerprint as the player was given it (`--fingerprint`,
    /// or said yes to on the home screen): trusted and pinned if the server presents
    /// it, the server refused if not.
    pub(crate) fingerprint: Option<[u8; 32]>,
}

/// A network error.
fn network(text: String) -> CommandError {
    CommandError::Network(text)
}

/// The server `checkers online` goes to when none is named: the one last logged in
/// to, or why there is none.
pub(crate) fn default_server() -> Result<String, CommandError> {
    crate::store::data_dir()
        .and_then(|dir| identity::last_server(&dir))
        .ok_or_else(|| {
            network(
                "no server named and none logged in to before: checkers online HOST[:PORT]"
                    .to_string(),
            )
        })
}

/// The server's address with the port, the default one when not given; a port that is
/// not one (`host:99999`, `host:`) is refused, not read as part of the host.
fn server_address(server: &str) -> Result<String, String> {
    let server = server.trim();
    let bare_ipv6 = server.matches(':').count() > 1 && !server.starts_with('[');
    if bare_ipv6 {
        return Ok(format!("[{server}]:{}", crate::server::DEFAULT_PORT));
    }
    match server.rsplit_once(':') {
        // `[::1]` alone: its colons are the address's.
        Some((host, port)) if !port.contains(']') => match port.parse::<u16>() {
            Ok(number) if number > 0 && !host.is_empty() => Ok(server.to_string()),
            _ => Err(format!(
                "the server {:?} does not read as HOST or HOST:PORT: {}",
                crate::text::printable(server, 80),
                if host.is_empty() {
                    "no host before the ':'".to_string()
                } else {
                    format!(
                        "{:?} is not a port (1-65535)",
                        crate::text::printable(port, 20)
                    )
                }
            )),
        },
        _ => Ok(format!("{server}:{}", crate::server::DEFAULT_PORT)),
    }
}

/// The reading half of a connection to a server.
pub(crate) type ServerReader = tokio::io::BufReader<
    tokio::io::ReadHalf<tokio_rustls::client::TlsStream<tokio::net::TcpStream>>,
>;

/// The writing half of a connection to a server.
pub(crate) type ServerWriter =
    tokio::io::WriteHalf<tokio_rustls::client::TlsStream<tokio::net::TcpStream>>;

/// Who logs in where: what `checkers online` read from its command line and the data
/// folder, before connecting.
pub(crate) struct Login {
    /// The data folder (the key, the known servers).
    dir: std::path::PathBuf,
    /// The server's address with its port.
    pub(crate) address: String,
    /// The name to play under.
    name: String,
    /// The player's key.
    key: ed25519_dalek::SigningKey,
    /// The fingerprint the player vouches for (see [`OnlineOptions::fingerprint`]).
    trusted: Option<[u8; 32]>,
}

impl Login {
    /// The login `options` ask: the name checked, the key read or made.
    pub(crate) fn of(options: &OnlineOptions) -> Result<Login, CommandError> {
        let address = server_address(&options.server).map_err(network)?;
        let dir = crate::store::data_dir().ok_or_else(|| {
            network("no data folder for the key and the known servers".to_string())
        })?;
        // The name given, else the one last used at this server, else the user's.
        let name = options
            .name
            .clone()
            .or_else(|| identity::last_name(&dir, &address))
            .or_else(|| std::env::var("USER").ok())
            .unwrap_or_else(|| "player".to_string());
        // Refused before it is sent, in the server's words.
        if let Some(problem) = protocol::name_problem(&name) {
            return Err(network(format!(
                "the name {}: {problem} (--name NAME gives another)",
                crate::text::printable(&name, 40)
            )));
        }
        crate::store::files::create_folder(&dir)
            .map_err(|e| network(format!("{}: {e}", crate::text::printable_path(&dir))))?;
        let key = identity::key(&dir).map_err(network)?;
        Ok(Login {
            dir,
            address,
            name,
            key,
            trusted: options.fingerprint,
        })
    }
}

/// `checkers online SERVER` on the full screen: connects and logs in (what the first
/// contact and the login say printed first, a refused login an error before the
/// terminal changes), then the lobby, its games on the board.
pub(crate) fn screen(options: &OnlineOptions) -> Result<(), CommandError> {
    let mut args = crate::cli::PlayArgs::default();
    let (prefs, notices) = crate::commands::preferences::load_into(&mut args);
    let settings = crate::commands::play::tui_settings(&args, &prefs);
    let farewell = Arc::new(std::sync::Mutex::new(None));
    if std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        confirm_first_contact(&Login::of(options)?)?;
    }
    let start = lobby_start(options, settings.theme, Arc::clone(&farewell))?;
    let ended = crate::tui::run(settings, start, notices);
    let said = farewell
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .take();
    if let Some(text) = said {
        println!("{}", crate::text::printable(&text, 600));
    }
    ended
}

/// The lobby of the server `options` name, connected and logged in, as the full screen
/// starts it (from the command line, or the home screen's opener): drawn with `theme`;
/// what is to be printed once the terminal is given back goes into `farewell`.
pub(crate) fn lobby_start(
    options: &OnlineOptions,
    theme: crate::tui::Theme,
    farewell: Arc<std::sync::Mutex<Option<String>>>,
) -> Result<crate::tui::Start, CommandError> {
    let line = ServerLine::open(Login::of(options)?)?;
    let mut screen = crate::tui::lobby::LobbyScreen::new(&line.name, &line.address, theme);
    screen.moderator = line.moderator();
    screen.tells = line.tells;
    screen.ignores = line.ignores;
    // Printed too, but under the screen (opened from the home screen): said where it
    // can be read and compared.
    // In halves, so that the status lines of an 80-column lobby hold it whole.
    if let Some(fingerprint) = &line.first_contact {
        let bytes: Vec<String> = fingerprint.iter().map(|b| format!("{b:02X}")).collect();
        let (first, second) = (bytes[..16].join(":"), bytes[16..].join(":"));
        let text = format!("Pinned as trusted: SHA256:{first}: {second}");
        screen.say(&text, false);
    }
    Ok(crate::tui::Start::Online(Box::new(
        crate::tui::lobby::Online {
            line,
            screen,
            copies: crate::commands::network::copies_folder(),
            farewell,
        },
    )))
}

/// `checkers online SERVER --plain`.
pub(crate) fn run(options: &OnlineOptions) -> Result<(), CommandError> {
    let login = Login::of(options)?;
    confirm_first_contact(&login)?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| network(format!("cannot start: {e}")))?;
    runtime.block_on(session(&login, options.export.as_deref()))
}

/// Connects, logs in and plays until `quit` or the end of the input.
async fn session(login: &Login, export: Option<&std::path::Path>) -> Result<(), CommandError> {
    let address = login.address.as_str();
    let (mut reader, mut writer, logged_in, _) = connect(login).await?;
    if let Some(file) = export {
        return export_games(&mut reader, &mut writer, address, file, EXPORT_MOST_BYTES).await;
    }
    let mut lines = input_lines();
    println!("Type help for the commands.");
    let mut view = View {
        moderator: logged_in.moderator,
        tells: logged_in.tells,
        ignores: logged_in.ignores,
        ..View::default()
    };
    let mut ping = tokio::time::interval(PING_EVERY);
    let mut unanswered = MoveWatch::default();
    loop {
        let told_at = unanswered.due_at();
        tokio::select! {
            heard = next_line(&mut reader, address) => match heard.map_err(|e| view.line_gone(e))? {
                (ServerMessage::Refused { reason }, _) => return Err(let_go(address, &reason)),
                (message, _) => {
                    unanswered.heard(&message);
                    view.show(message);
                }
            },
            () = async {
                match told_at {
                    Some(at) => tokio::time::sleep_until(tokio::time::Instant::from_std(at)).await,
                    None => std::future::pending().await,
                }
            } => {
                if let Some(words) = unanswered.due(std::time::Instant::now()) {
                    println!("{words}");
                }
            }
            line = lines.recv() => {
                let Some(line) = line else {
                    view.leave();
                    break;
                };
                let Some(message) = view.command(line.trim()) else {
                    if matches!(line.trim(), "quit" | "exit") {
                        view.leave();
                        break;
                    }
                    continue;
                };
                if let ClientMessage::Play { text } = &message {
                    unanswered.sent(text, std::time::Instant::now());
                }
                if let Err(e) = write_message(&mut writer, &message).await {
                    return Err(gone(&mut reader, address, e, &mut view).await);
                }
            }
            _ = ping.tick() => {
                if let Err(e) = write_message(&mut writer, &ClientMessage::Ping).await {
                    return Err(gone(&mut reader, address, e, &mut view).await);
                }
            }
        }
        let _ = std::io::stdout().flush();
    }
    let _ = writer.shutdown().await;
    Ok(())
}

/// Why the plain client's line broke when writing failed with `error` (see
/// [`broken_line`]): the server's reason, or else the failure with what the server does
/// with the game the player plays.
async fn gone<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    address: &str,
    error: std::io::Error,
    view: &mut View,
) -> CommandError {
    match last_words(reader, address, |m| view.show(m)).await {
        Some(reason) => let_go(address, &reason),
        None => view.line_gone(network(write_failed(address, &error))),
    }
}

/// A TLS connection to a server.
type ServerTls = tokio_rustls::client::TlsStream<tokio::net::TcpStream>;

/// The TLS connection to the server at `address`, its certificate checked against the
/// fingerprint `trusted` (the one the player gave), else the one pinned in the data
/// folder `dir` (any, on first contact): the connection, the fingerprint pinned before
/// (if one was) and the one seen. A certificate that is not the one expected is an
/// error that says what to do.
async fn tls_connect(
    dir: &std::path::Path,
    address: &str,
    trusted: Option<[u8; 32]>,
) -> Result<(ServerTls, Option<[u8; 32]>, [u8; 32]), CommandError> {
    let pinned = identity::pinned(dir, address).map_err(network)?;
    let verifier = Arc::new(Pinned::new(trusted.or(pinned)));
    let config =
        crate::server::tls::client_config(verifier.clone()).map_err(|e| network(e.to_string()))?;
    let connector = tokio_rustls::TlsConnector::from(Arc::new(config));
    let host = address
        .rsplit_once(':')
        .map_or(address, |(host, _)| host)
        .trim_matches(['[', ']']);
    // The certificate is pinned, not checked against the name: any name serves.
    let server_name = rustls::pki_types::ServerName::try_from(host.to_string())
        .or_else(|_| rustls::pki_types::ServerName::try_from("checkers".to_string()))
        .map_err(|e| network(e.to_string()))?;
    let connect = async {
        let tcp = tokio::net::TcpStream::connect(address)
            .await
            .map_err(|e| network(format!("cannot reach {address}: {e}")))?;
        let _ = tcp.set_nodelay(true);
        connector.connect(server_name, tcp).await.map_err(|e| {
            match (trusted, pinned, verifier.seen()) {
                (Some(given), _, Some(seen)) if given != seen => {
                    network(not_the_one_given(address, &given, &seen))
                }
                (None, Some(expected), Some(seen)) if expected != seen => {
                    certificate_changed(dir, address, &expected, &seen)
                }
                _ => network(format!("no TLS connection to {address}: {e}")),
            }
        })
    };
    let tls = tokio::time::timeout(CONNECT_TIME, connect)
        .await
        .map_err(|_| network(format!("{address} did not answer in time")))??;
    let fingerprint = verifier
        .seen()
        .ok_or_else(|| network("the server showed no certificate".to_string()))?;
    Ok((tls, pinned, fingerprint))
}

/// The question a first contact with `address` asks, its certificate's `fingerprint`
/// shown (in two lines of 16 bytes, so that it is read whole on an 80-column terminal),
/// as SSH asks: on the terminal before any screen, and on the home screen's network
/// page in the same words.
pub(crate) fn first_contact_question(address: &str, fingerprint: &[u8; 32]) -> [String; 5] {
    let bytes: Vec<String> = fingerprint.iter().map(|b| format!("{b:02X}")).collect();
    [
        format!("First contact with {address}. Its certificate's fingerprint is"),
        format!("  SHA256:{}:", bytes[..16].join(":")),
        format!("         {}", bytes[16..].join(":")),
        "Compare it with the one the server printed (its operator can tell you).".to_string(),
        "Trust it, pin it and connect? [y/N]".to_string(),
    ]
}

/// Why nothing was pinned when the player did not trust `address`'s certificate.
pub(crate) fn not_trusted(address: &str) -> String {
    format!(
        "not connected: the certificate of {address} was not trusted (nothing pinned, \
         nothing sent)"
    )
}

/// The server `options` name, if it is met for the first time (nothing pinned for it,
/// no fingerprint given): its address with the port and its certificate's fingerprint,
/// looked at without logging in, for the player to be asked about before anything is
/// pinned ([`first_contact_question`]); `None` for a server met before.
pub(crate) fn unmet_server(
    options: &OnlineOptions,
) -> Result<Option<(String, [u8; 32])>, CommandError> {
    let login = Login::of(options)?;
    Ok(unmet(&login)?.map(|fingerprint| (login.address, fingerprint)))
}

/// [`unmet_server`] for `login`: the certificate's fingerprint of a server met for the
/// first time.
fn unmet(login: &Login) -> Result<Option<[u8; 32]>, CommandError> {
    let (dir, address) = (login.dir.as_path(), login.address.as_str());
    if login.trusted.is_some() || identity::pinned(dir, address).map_err(network)?.is_some() {
        return Ok(None);
    }
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| network(format!("cannot start: {e}")))?;
    // Only the certificate is looked at; the line is let go while the player reads.
    let (_, _, fingerprint) = runtime.block_on(tls_connect(dir, address, None))?;
    Ok(Some(fingerprint))
}

/// On first contact with the server `login` names, asked on the standard input (the
/// terminal before any screen takes it; in plain mode whatever the input is, a script
/// answering `y` in its first line), as SSH asks: its certificate's fingerprint shown,
/// to compare with the one the server printed, and pinned only if the player says yes
/// (the end of the input, or another answer, leaves nothing pinned and connects to
/// nothing). A server met before (or one whose certificate changed, refused when
/// connecting), or one whose fingerprint the player gave (`--fingerprint`, checked
/// when connecting), asks nothing.
pub(crate) fn confirm_first_contact(login: &Login) -> Result<(), CommandError> {
    let (dir, address) = (login.dir.as_path(), login.address.as_str());
    let Some(fingerprint) = unmet(login)? else {
        return Ok(());
    };
    print!(
        "{} ",
        first_contact_question(address, &fingerprint).join("\n")
    );
    let _ = std::io::stdout().flush();
    let mut answer = String::new();
    let _ = std::io::stdin().read_line(&mut answer);
    if !matches!(answer.trim().to_lowercase().as_str(), "y" | "yes") {
        return Err(network(not_trusted(address)));
    }
    let file = identity::pin(dir, address, &fingerprint).map_err(network)?;
    println!("Pinned in {}.", crate::text::printable_path(&file));
    Ok(())
}

/// Connects to the server and logs in: the first contact's fingerprint and the login
/// said on the standard output (before any screen takes the terminal), a changed
/// certificate or a refused login an error that says why. Gives the connection, the
/// name logged in and, if this was the first contact, the fingerprint pinned.
pub(crate) async fn connect(
    login: &Login,
) -> Result<(ServerReader, ServerWriter, LoggedIn, Option<[u8; 32]>), CommandError> {
    let Login {
        dir,
        address,
        name,
        key,
        trusted,
    } = login;
    let (dir, address, name) = (dir.as_path(), address.as_str(), name.as_str());
    let (tls, pinned, fingerprint) = tls_connect(dir, address, *trusted).await?;
    let mut first_contact = None;
    if pinned != Some(fingerprint) {
        // Never pinned unasked: only the fingerprint the player gave (and the server
        // presented, as tls_connect checked).
        if *trusted != Some(fingerprint) {
            return Err(network(format!(
                "not connected: {address} was never met before, and nobody was asked to \
                 trust its certificate ({}): nothing pinned, nothing sent. Connect from a \
                 terminal to be asked, or give --fingerprint with the one the server printed.",
                protocol::fingerprint_text(&fingerprint)
            )));
        }
        let file = identity::pin(dir, address, &fingerprint).map_err(network)?;
        let instead = pinned.map_or_else(String::new, |old| {
            format!(" (in place of {})", protocol::fingerprint_text(&old))
        });
        println!(
            "The certificate of {address} is the one given: {}. Pinned in {}{instead}.",
            protocol::fingerprint_text(&fingerprint),
            crate::text::printable_path(&file)
        );
        first_contact = Some(fingerprint);
    }
    let (reader, mut writer) = tokio::io::split(tls);
    let mut reader = tokio::io::BufReader::new(reader);
    let login = async {
        let (version, challenge) = match next(&mut reader, address).await? {
            ServerMessage::Challenge { version, challenge } => (version, challenge),
            // A full server says so instead of greeting.
            ServerMessage::Refused { reason } => {
                return Err(network(format!(
                    "{address} refused: {}",
                    crate::text::printable(&reason, 500)
                )));
            }
            _ => {
                return Err(network(format!(
                    "{address} did not greet as a checkers server"
                )));
            }
        };
        if version != protocol::VERSION {
            return Err(network(format!(
                "{address} speaks protocol {version}, this client {}: update checkers",
                protocol::VERSION
            )));
        }
        let challenge = protocol::unhex::<32>(&challenge)
            .ok_or_else(|| network(format!("{address} sent a malformed challenge")))?;
        let signature = key.sign(&protocol::login_message(&challenge, &fingerprint, name));
        let login = ClientMessage::Login {
            version: protocol::VERSION,
            name: name.to_string(),
            key: protocol::hex(key.verifying_key().as_bytes()),
            signature: protocol::hex(&signature.to_bytes()),
            knows: vec![
                protocol::KNOWS_NO_RESULT.to_string(),
                protocol::KNOWS_TELL.to_string(),
            ],
        };
        write_message(&mut writer, &login)
            .await
            .map_err(|e| network(format!("{address}: {e}")))?;
        match next(&mut reader, address).await? {
            ServerMessage::Welcome {
                name: welcomed,
                new,
                rating,
                moderator,
                knows,
            } => {
                // The server welcomes the name signed for, and no other: one it made
                // up could hold escape sequences, and would be kept as this player's.
                if welcomed != name {
                    return Err(network(format!(
                        "{address} welcomed another name than {name}: {} (not the answer of a checkers server)",
                        crate::text::printable(&welcomed, 100)
                    )));
                }
                let name = welcomed;
                let first = if new {
                    " (the name is now bound to your key)"
                } else {
                    ""
                };
                let role = if moderator { ", a moderator" } else { "" };
                println!("Logged in to {address} as {name}{first}, rating {rating:.0}{role}.");
                identity::remember_server(dir, address, &name);
                let tells = knows.iter().any(|word| word == protocol::KNOWS_TELL);
                let ignores = knows.iter().any(|word| word == protocol::KNOWS_IGNORE);
                Ok(LoggedIn {
                    name,
                    moderator,
                    tells,
                    ignores,
                })
            }
            ServerMessage::Refused { reason } => Err(network(format!(
                "{address} refused: {}",
                crate::text::printable(&reason, 500)
            ))),
            _ => Err(network(format!("{address} did not answer the login"))),
        }
    };
    let logged_in = tokio::time::timeout(CONNECT_TIME, login)
        .await
        .map_err(|_| network(format!("{address} did not answer the login in time")))??;
    Ok((reader, writer, logged_in, first_contact))
}

/// Who the server's welcome says is logged in.
pub(crate) struct LoggedIn {
    /// The name.
    pub(crate) name: String,
    /// Whether they are one of the server's moderators.
    pub(crate) moderator: bool,
    /// Whether the server takes a `tell` ([`protocol::KNOWS_TELL`]).
    pub(crate) tells: bool,
    /// Whether the server takes an `ignore` ([`protocol::KNOWS_IGNORE`]).
    pub(crate) ignores: bool,
}

/// The most bytes of records one export gathers before writing them: far more than one
/// player's games (some hundred thousand), and a bound on what a server that pages on
/// without end can make this client hold.
const EXPORT_MOST_BYTES: usize = 256 * 1024 * 1024;

/// Asks the player's finished games page by page and writes them to `file`; more than
/// `most_bytes` of records is refused, and nothing is written.
async fn export_games<R, W>(
    reader: &mut R,
    writer: &mut W,
    address: &str,
    file: &std::path::Path,
    most_bytes: usize,
) -> Result<(), CommandError>
where
    R: tokio::io::AsyncBufRead + Unpin,
    W: tokio::io::AsyncWrite + Unpin,
{
    let mut text = String::new();
    let (mut after, mut count) = (0, 0usize);
    loop {
        write_message(writer, &ClientMessage::Export { after })
            .await
            .map_err(|e| network(format!("{address}: {e}")))?;
        let (games, next) = loop {
            match next(reader, address).await? {
                ServerMessage::Records { games, next } => break (games, next),
                ServerMessage::Rejected { reason } | ServerMessage::Refused { reason } => {
                    return Err(network(format!(
                        "{address} refused: {}",
                        crate::text::printable(&reason, 500)
                    )));
                }
                // What the lobby tells meanwhile (an adjourned game) is not asked here.
                _ => {}
            }
        };
        if games.len() > protocol::EXPORT_PAGE {
            return Err(network(format!(
                "{address} sent more games than a page holds"
            )));
        }
        for pdn in games {
            // Only records that read are written: the file must read back.
            if crate::pdn::read_games(&pdn)
                .first()
                .is_some_and(Result::is_ok)
            {
                text.push_str(pdn.trim_end());
                text.push_str("\n\n");
                count += 1;
            }
        }
        if text.len() > most_bytes {
            let _ = writer.shutdown().await;
            return Err(network(format!(
                "{address} sent more than {} MB of games and had not ended: nothing was \
                 written to {}",
                most_bytes / (1024 * 1024),
                crate::text::printable_path(file)
            )));
        }
        match next {
            Some(n) if n > after => after = n,
            _ => break,
        }
    }
    let _ = writer.shutdown().await;
    crate::store::write_atomic(file, text.as_bytes())
        .map_err(|e| network(format!("{}: {e}", crate::text::printable_path(file))))?;
    let games = if count == 1 { "game" } else { "games" };
    println!(
        "Wrote {count} {games} to {}.",
        crate::text::printable_path(file)
    );
    Ok(())
}

/// How long a client whose write failed reads on for what the server said last.
const LAST_WORDS: Duration = Duration::from_secs(2);

/// The most messages a client whose write failed reads on for the server's reason: a
/// server's last few, not a stream kept in memory for [`LAST_WORDS`].
const LAST_WORDS_MOST: usize = 64;

/// Why the line broke when writing to it failed with `error`: a server that lets a
/// client go says why, then closes, and the client's next write can fail before it
/// reads that. So what came before the close is read on for a moment, each message
/// but the reason given to `show`, and the server's reason is told if it gave one.
async fn broken_line<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    address: &str,
    error: std::io::Error,
    mut show: impl FnMut(ServerMessage),
) -> CommandError {
    match last_words(reader, address, &mut show).await {
        Some(reason) => let_go(address, &reason),
        None => network(write_failed(address, &error)),
    }
}

/// What the client says when the line to the server at `address` ended without the
/// server's word (a server that stops in order says so first, and is told as it says
/// it): closed in order by the server, or cut.
fn line_ended(address: &str, end: LineEnd) -> String {
    match end {
        LineEnd::Closed => {
            format!("the server at {address} closed the connection (it may have stopped)")
        }
        LineEnd::Cut => format!(
            "the line to the server at {address} was cut (the network failed, or the server \
             ended without stopping in order)"
        ),
    }
}

/// What the client says when a write to the server at `address` failed with `error`
/// (with no word from the server: see [`broken_line`]): the line was cut, in those
/// words, or the failure.
fn write_failed(address: &str, error: &std::io::Error) -> String {
    if crate::server::closed_by_peer(error) {
        line_ended(address, LineEnd::Cut)
    } else {
        format!("{address}: {error}")
    }
}

/// The server's reason for letting this client go, if it gave one before closing:
/// read on for a moment, each message before it given to `show`.
async fn last_words<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    address: &str,
    mut show: impl FnMut(ServerMessage),
) -> Option<String> {
    let reason = tokio::time::timeout(LAST_WORDS, async {
        for _ in 0..LAST_WORDS_MOST {
            match next_line(reader, address).await {
                Ok((ServerMessage::Refused { reason }, _)) => return Some(reason),
                Ok((message, _)) => show(message),
                Err(_) => return None,
            }
        }
        None
    });
    reason.await.ok().flatten()
}

/// The server at `address` let this client go, saying `reason`.
fn let_go(address: &str, reason: &str) -> CommandError {
    network(format!(
        "{address} let go: {}",
        crate::text::printable(reason, 500)
    ))
}

/// The server's next message.
async fn next<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    address: &str,
) -> Result<ServerMessage, CommandError> {
    next_line(reader, address).await.map(|(message, _)| message)
}

/// The server's next message, with the length of its line in bytes (what the message
/// may weigh in memory is a small multiple of that).
async fn next_line<R: tokio::io::AsyncBufRead + Unpin>(
    reader: &mut R,
    address: &str,
) -> Result<(ServerMessage, usize), CommandError> {
    let line = read_line_or_end(reader, protocol::MAX_SERVER_LINE)
        .await
        .map_err(|e| network(format!("{address}: {e}")))?
        .map_err(|end| network(line_ended(address, end)))?;
    let message = serde_json::from_str::<ServerMessage>(&line).map_err(|_| {
        network(format!(
            "{address} sent a message this client does not know"
        ))
    })?;
    Ok((message, line.len()))
}

/// Why a server whose certificate is not the one the player gave (`--fingerprint`) is
/// refused.
fn not_the_one_given(address: &str, given: &[u8; 32], seen: &[u8; 32]) -> String {
    format!(
        "not connected: the certificate of {address} is not the one given!\n\
         given (--fingerprint): {}\n\
         presented now:         {}\n\
         Someone may be intercepting the connection, or the fingerprint given is not this \
         server's: compare it with the one the server printed. Nothing pinned, nothing sent.",
        protocol::fingerprint_text(given),
        protocol::fingerprint_text(seen)
    )
}

/// The warning for a server whose certificate is not the one pinned.
fn changed_warning(
    dir: &std::path::Path,
    address: &str,
    expected: &[u8; 32],
    seen: &[u8; 32],
) -> String {
    format!(
        "WARNING: the certificate of {address} has changed! Nothing was sent, nothing \
         pinned.\n\
         pinned on first contact: {}\n\
         presented now:           {}\n\
         Someone may be intercepting the connection, or the server made a new certificate. \
         If its operator confirms the new fingerprint, connect again with --fingerprint and \
         the one the operator gives you (pinned in place of the old one), or remove the line \
         for {address} from {} and connect again to be asked.",
        protocol::fingerprint_text(expected),
        protocol::fingerprint_text(seen),
        crate::text::printable_path(&identity::known_servers(dir))
    )
}

/// The error of a server `address` whose certificate (`seen`) is not the one pinned
/// (`expected`) in the data folder `dir`: its warning in full and in short.
pub(crate) fn certificate_changed(
    dir: &std::path::Path,
    address: &str,
    expected: &[u8; 32],
    seen: &[u8; 32],
) -> CommandError {
    CommandError::CertificateChanged {
        warning: changed_warning(dir, address, expected, seen),
        short: changed_in_short(dir, address, seen),
    }
}

/// The warning for a server whose certificate is not the one pinned, in short for the
/// home screen's message box (its 76 columns by some 20 rows at 80x24 hold it whole,
/// however long the data folder's path): what happened, the fingerprint presented now
/// (to compare with the operator's), and what to do there.
fn changed_in_short(dir: &std::path::Path, address: &str, seen: &[u8; 32]) -> String {
    let file = crate::text::printable_path(&identity::known_servers(dir));
    format!(
        "not connected: the certificate of {address} has changed since it was pinned! \
         Nothing was sent. Someone may be intercepting the connection, or the server made a \
         new certificate; it presents {}. Only if the server's operator confirms that \
         fingerprint: remove the line for {address} from {} and connect again, to be asked \
         whether to trust it.",
        protocol::fingerprint_text(seen),
        crate::text::printable(&file, 200)
    )
}

/// Standard input's lines, read on a thread of their own (the rest waits on the
/// network).
fn input_lines() -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel(16);
    std::thread::spawn(move || {
        for line in std::io::stdin().lines() {
            let Ok(line) = line else { break };
            if tx.blocking_send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// What the client knows of the player's game, to show it.
#[derive(Default)]
struct View {
    /// The game's number and the side played (none: a game watched).
    game: Option<(u64, Option<Color>)>,
    /// The position now.
    position: Option<Position>,
    /// The clocks as the server last told them (none: untimed, or not told).
    clocks: Option<Clocks>,
    /// Whether the server welcomed this player as a moderator.
    moderator: bool,
    /// Whether the server takes a `tell` ([`protocol::KNOWS_TELL`]).
    tells: bool,
    /// Whether the server takes an `ignore` ([`protocol::KNOWS_IGNORE`]).
    ignores: bool,
    /// Whether the opponent offers a draw now (`n` declines it then).
    draw_offered: bool,
    /// Whether a draw offered was declined and the server has not answered yet: a
    /// server older than declining a draw refuses it as a rematch declined.
    draw_declined: bool,
}

/// A game's clocks as the server last told them: counted on from then, the running
/// one only, as the server counts.
#[derive(Clone, Copy, Debug)]
struct Clocks {
    /// Black's and White's time left when told.
    left: [Duration; 2],
    /// Whose clock ran then, as far as the server said.
    running: Running,
    /// When they were told.
    told_at: std::time::Instant,
}

/// Whose clock runs, as far as the server said.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Running {
    /// This side's.
    Side(Color),
    /// Neither: both stand still.
    Neither,
    /// The server did not say (one older than the `running` field): the clocks are
    /// shown as told, counted on for neither side.
    Untold,
}

impl Running {
    /// What the server said in `running` (the message's field): none when the field
    /// was not there at all.
    fn of(running: Option<Option<protocol::Side>>) -> Running {
        match running {
            None => Running::Untold,
            Some(Some(side)) => Running::Side(side.into()),
            Some(None) => Running::Neither,
        }
    }
}

impl Clocks {
    /// The clocks the server told as milliseconds left (Black's, White's) and the
    /// running side, at `now`; none for an untimed game.
    fn told(clocks: Option<[u64; 2]>, running: Running, now: std::time::Instant) -> Option<Clocks> {
        clocks.map(|millis| Clocks {
            left: millis.map(Duration::from_millis),
            running,
            told_at: now,
        })
    }

    /// Both clocks at `now`, in words: `Clocks: Black 4:58, White 5:00 (White's
    /// running).`
    fn text(&self, now: std::time::Instant) -> String {
        let elapsed = now.saturating_duration_since(self.told_at);
        let [black, white] = [Color::Black, Color::White].map(|color| {
            let i = usize::from(color == Color::White);
            let left = if self.running == Running::Side(color) {
                self.left[i].saturating_sub(elapsed)
            } else {
                self.left[i]
            };
            crate::session::clock_text(left)
        });
        match self.running {
            Running::Side(color) => {
                format!("Clocks: Black {black}, White {white} ({color}'s running).")
            }
            Running::Neither => format!("Clocks: Black {black}, White {white} (both stopped)."),
            Running::Untold => format!(
                "Clocks when last told: Black {black}, White {white} (this server does not \
                 say which one runs)."
            ),
        }
    }
}

/// The plain mode's commands.
const HELP: &str = "Commands: who, seeks, seek CLOCK [rated|casual] [black|white|either] \
[ballot|free] (e.g. seek 5+3 rated, seek 10+5 casual white ballot: the side is yours, and \
ballot opens with three moves drawn from the ACF deck), accept N, challenge NAME [CLOCK] \
[rated|casual] [black|white|either] [ballot|free] (a seek only NAME sees; e.g. challenge \
bob 10+5 casual white ballot), invite [CLOCK] [rated|casual] [black|white|either] \
[ballot|free] (a private table: casual unless rated; e.g. invite 5+3 black), join CODE, \
cancel N (withdraw your seek, challenge or private table N), decline N (decline the \
challenge N made to you), games, watch N, player NAME; in a game: a move (11-15, 15x24), board, clock (both clocks \
now), draw (offer, or accept the one offered), decline or n (the draw offered), resign; at a table (playing or watching): say TEXT (heard by the \
players and spectators there); anywhere: tell NAME TEXT (heard by NAME alone, wherever they \
are); ignore NAME (their tells, lines, challenges, seeks and rematch offers do not reach you), unignore NAME, \
ignore (whom you ignore); after a game: rematch (offer the same game, colours \
swapped, or accept the one offered), decline; adjourn (to the lobby: the game goes on, the \
clocks running, until both players have left it), resume; quit (in a game in play: the \
game goes on at the server, its clocks running, while your opponent is at it). The terms \
after seek, challenge NAME and invite come in any order.";

impl View {
    /// The message for the server that a typed `line` asks, or none (answered here).
    fn command(&mut self, line: &str) -> Option<ClientMessage> {
        let mut words = line.split_whitespace();
        let first = words.next()?;
        match orders::typed(line) {
            Some(_) if !self.moderator => return say(&orders::not_a_moderator(first)),
            Some(Ok(order)) => return Some(ClientMessage::Moderate { order }),
            Some(Err(wrong)) => return say(&wrong),
            None => {}
        }
        match orders::tell_typed(line) {
            Some(_) if !self.tells => return say(protocol::TELL_UNKNOWN),
            Some(Ok(tell)) => return Some(tell),
            Some(Err(wrong)) => return say(&wrong),
            None => {}
        }
        match orders::ignore_typed(line) {
            Some(_) if !self.ignores => return say(protocol::IGNORE_UNKNOWN),
            Some(Ok(ignore)) => return Some(ignore),
            Some(Err(wrong)) => return say(&wrong),
            None => {}
        }
        let rest: Vec<&str> = words.collect();
        let message = match (first, rest.as_slice()) {
            ("who", []) => ClientMessage::Who,
            ("seeks", []) => ClientMessage::Seeks,
            ("games", []) => ClientMessage::Games,
            ("seek", terms) => offer_of(Offer::Seek, terms)?,
            ("challenge", [name, terms @ ..]) => offer_of(Offer::Challenge(name), terms)?,
            ("invite", terms) => offer_of(Offer::Invite, terms)?,
            ("join", code) if !code.is_empty() => ClientMessage::Join {
                code: code.join(" "),
            },
            ("accept", [n]) => match n.parse() {
                Ok(number) => ClientMessage::Accept { number },
                Err(_) => {
                    return say(&format!(
                        "accept takes a seek's number (seeks lists them), not {n}"
                    ));
                }
            },
            ("cancel" | "decline", [n]) => match n.parse() {
                Ok(number) => ClientMessage::Cancel { number },
                Err(_) => {
                    return say(&format!(
                        "{first} takes a seek's number (seeks lists them), not {n}"
                    ));
                }
            },
            ("watch", [n]) => match n.parse() {
                Ok(number) => ClientMessage::Watch { number },
                Err(_) => {
                    return say(&format!(
                        "watch takes a game's number (games lists them), not {n}"
                    ));
                }
            },
            ("player", [name]) => ClientMessage::Player {
                name: (*name).to_string(),
            },
            ("resign", []) => ClientMessage::Resign,
            ("adjourn", []) => ClientMessage::Adjourn,
            ("resume", []) => ClientMessage::Resume,
            ("rematch", []) => ClientMessage::Rematch,
            // The server declines the draw offered first, else the rematch.
            ("decline", []) => {
                self.draw_declined = std::mem::take(&mut self.draw_offered);
                ClientMessage::Decline
            }
            ("n" | "no", []) if self.draw_offered => {
                self.draw_offered = false;
                self.draw_declined = true;
                ClientMessage::Decline
            }
            ("draw", []) => ClientMessage::Draw,
            ("say", words) if !words.is_empty() => ClientMessage::Say {
                text: line.trim_start()["say".len()..].trim().to_string(),
            },
            ("board", []) => return self.board(),
            ("clock" | "clocks", []) => return self.clock(),
            ("help", []) if self.moderator => {
                return say(&format!("{HELP} As a moderator: {}.", orders::ORDERS_HELP));
            }
            ("help", []) => return say(HELP),
            ("quit" | "exit", []) => return None,
            (text, [])
                if text
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-x:".contains(c))
                    && text.chars().any(|c| c.is_ascii_digit()) =>
            {
                ClientMessage::Play {
                    text: text.to_string(),
                }
            }
            _ => return say(&not_understood(line)),
        };
        Some(message)
    }

    /// Prints the board, if in a game (played or watched), and its clocks.
    fn board(&self) -> Option<ClientMessage> {
        match (self.position, self.game) {
            (Some(position), Some((_, side))) => {
                print!(
                    "{}",
                    board_text_from(&position, side.unwrap_or(Color::Black))
                );
                println!("{} to move.", position.turn());
                if let Some(clocks) = &self.clocks {
                    println!("{}", clocks.text(std::time::Instant::now()));
                }
            }
            _ => println!("You are not playing or watching a game."),
        }
        None
    }

    /// Prints both clocks of the game played or watched, as they stand now.
    fn clock(&self) -> Option<ClientMessage> {
        match (&self.clocks, self.game) {
            (Some(clocks), Some(_)) => println!("{}", clocks.text(std::time::Instant::now())),
            (None, Some(_)) => println!("This game has no clock."),
            (_, None) => println!("You are not playing or watching a game."),
        }
        None
    }

    /// What this client says of the server's refusal `reason`: a draw declined that a
    /// server older than declining one refuses as a rematch declined is said as what
    /// it is.
    fn refusal(&mut self, reason: &str) -> String {
        if std::mem::take(&mut self.draw_declined) && reason == protocol::NO_REMATCH_OFFERED {
            return protocol::DRAW_DECLINE_UNKNOWN.to_string();
        }
        format!("Refused: {}", crate::text::printable_lines(reason, 20_000))
    }

    /// Shows what the server said: `message`.
    fn show(&mut self, message: ServerMessage) {
        let text = |t: &str| crate::text::printable_lines(t, 20_000);
        match &message {
            ServerMessage::DrawOffered { .. } => self.draw_offered = true,
            // A move lapses the offer; a game started or ended has none.
            ServerMessage::Moved { .. }
            | ServerMessage::Ended { .. }
            | ServerMessage::Started { .. } => self.draw_offered = false,
            _ => {}
        }
        match message {
            ServerMessage::Info { text: t } => {
                // The server's answer to a draw declined, if one was.
                self.draw_declined = false;
                println!("{}", text(&t));
            }
            ServerMessage::Rejected { reason } => println!("{}", self.refusal(&reason)),
            ServerMessage::Refused { reason } => println!("The server let go: {}", text(&reason)),
            ServerMessage::Started {
                game,
                black,
                white,
                side,
                clock,
                rated,
                fen,
                moves,
                ballot,
                ballot_moves,
                clocks,
                running,
            } => {
                let side = crate::rules::Color::from(side);
                let kind = if rated { "rated" } else { "casual" };
                let goes_on = moves.len() > ballot_moves;
                let how = if goes_on { "goes on" } else { "starts" };
                let opening = ballot.map_or(String::new(), |b| format!(", {}", text(&b)));
                println!(
                    "Game {game} {how}: {} (Black) - {} (White), {} {kind}{opening}. You play {side}.",
                    text(&black),
                    text(&white),
                    text(&clock)
                );
                if goes_on {
                    println!("Moves so far: {}.", text(&moves.join(" ")));
                }
                self.game = Some((game, Some(side)));
                self.position = fen.parse().ok();
                self.clocks = Clocks::told(clocks, Running::of(running), std::time::Instant::now());
                self.board();
                self.prompt();
            }
            ServerMessage::Watching {
                game,
                black,
                white,
                clock,
                moves,
                fen,
                clocks,
                running,
            } => {
                println!(
                    "Watching game {game}: {} (Black) - {} (White), {}; moves so far: {}.",
                    text(&black),
                    text(&white),
                    text(&clock),
                    if moves.is_empty() {
                        "none".to_string()
                    } else {
                        text(&moves.join(" "))
                    }
                );
                self.game = Some((game, None));
                self.position = fen.parse().ok();
                self.clocks = Clocks::told(clocks, Running::of(running), std::time::Instant::now());
                self.board();
            }
            ServerMessage::Moved {
                side,
                squares,
                fen,
                clocks,
                running,
                ..
            } => {
                println!("{} played {}.", Color::from(side), text(&squares));
                self.position = fen.parse().ok();
                self.clocks = Clocks::told(clocks, Running::of(running), std::time::Instant::now());
                self.board();
                self.prompt();
            }
            ServerMessage::DrawOffered { side, .. } => {
                println!(
                    "{} offers a draw: draw accepts it; decline (or n) declines it, and so does a move.",
                    Color::from(side)
                );
            }
            ServerMessage::Ended {
                game,
                result,
                text: how,
                ratings,
            } => {
                if result == protocol::NO_RESULT {
                    // Abandoned: the server's words say which game, and why.
                    println!("{}", text(&how));
                } else {
                    println!("Game {game} over: {} {}.", text(&result), text(&how));
                }
                if let Some(ratings) = ratings {
                    println!("Ratings: {}.", text(&ratings));
                }
                self.game = None;
                self.position = None;
                self.clocks = None;
            }
            ServerMessage::Said { name, text: said } => {
                println!("{}: {}", text(&name), crate::text::printable(&said, 400));
            }
            ServerMessage::Told { name, text: told } => {
                println!("{}", orders::told_words(&name, &told));
            }
            // Welcomed again: the operator made this player a moderator, or no longer
            // one, while they are online (the server says so in words too).
            ServerMessage::Welcome { moderator, .. } => self.moderator = moderator,
            ServerMessage::Challenge { .. }
            | ServerMessage::Records { .. }
            | ServerMessage::Table { .. }
            | ServerMessage::Lobby { .. }
            | ServerMessage::Pong => {}
        }
    }

    /// `error`, the line to the server gone without its word, with what the server does
    /// with the game this player plays, if one.
    fn line_gone(&self, error: CommandError) -> CommandError {
        match (error, self.game) {
            (CommandError::Network(why), Some((game, Some(side)))) => network(format!(
                "{why}. {}",
                line_gone_note(game, self.my_move(side))
            )),
            (error, _) => error,
        }
    }

    /// Says, as the client leaves, what becomes of the game this player plays (if one):
    /// it goes on at the server, the clock running, as the board's leave question says.
    fn leave(&self) {
        if let Some((game, Some(side))) = self.game {
            println!("Goodbye. {}.", line_gone_note(game, self.my_move(side)));
        }
    }

    /// Whether it is `side`'s move in the game shown (this player's side; not known
    /// before its position is: then said as their move, the clock that may be theirs).
    fn my_move(&self, side: Color) -> bool {
        self.position.is_none_or(|position| position.turn() == side)
    }

    /// Says whose move it is.
    fn prompt(&self) {
        if let (Some(position), Some((_, Some(side)))) = (self.position, self.game) {
            if position.turn() == side {
                println!("Your move ({side}).");
            } else {
                println!("Waiting for {}'s move.", position.turn());
            }
        }
    }
}

/// A move sent to the server and not answered yet, watched so that the player is told
/// once it has gone unanswered for [`MOVE_UNANSWERED`] (the plain client and the
/// full-screen board alike).
#[derive(Debug, Default)]
pub(crate) struct MoveWatch {
    /// The move as sent, and when the player is told of it if nothing came meanwhile.
    sent: Option<(String, std::time::Instant)>,
}

impl MoveWatch {
    /// The move `text` was sent at `now`.
    pub(crate) fn sent(&mut self, text: &str, now: std::time::Instant) {
        self.sent = Some((text.to_string(), now + MOVE_UNANSWERED));
    }

    /// The server sent `message`: any word but a pong follows the move (the server
    /// answers in order), so it was answered.
    pub(crate) fn heard(&mut self, message: &ServerMessage) {
        if !matches!(message, ServerMessage::Pong) {
            self.sent = None;
        }
    }

    /// When the player is to be told of the move unanswered, if one is watched.
    pub(crate) fn due_at(&self) -> Option<std::time::Instant> {
        self.sent.as_ref().map(|(_, at)| *at)
    }

    /// What to tell the player at `now` (once) of a move unanswered that long.
    pub(crate) fn due(&mut self, now: std::time::Instant) -> Option<String> {
        let (text, _) = self.sent.take_if(|(_, at)| *at <= now)?;
        Some(unanswered_words(&text))
    }
}

/// What a player is told of move `text` the server has not answered within
/// [`MOVE_UNANSWERED`]: the line is slow or down, and what becomes of the move.
fn unanswered_words(text: &str) -> String {
    format!(
        "The server has not answered your move {text} for {} seconds: the line is slow or \
         down. The move is played if it reaches the server, and you are told when it is; if \
         the line drops, checkers online takes you back to the game.",
        MOVE_UNANSWERED.as_secs()
    )
}

/// What the server does with game `game` in play whose player's line is gone, as its
/// lobby does for a player who leaves (or as it does when it stops); `my_move`: whether
/// it is that player's move, whose clock then runs.
fn line_gone_note(game: u64, my_move: bool) -> String {
    let clock = crate::server::protocol::clock_while_away(my_move);
    format!(
        "At the server game {game} goes on, {clock}, while your opponent is at it, and is \
         adjourned, its clocks stopped, once neither is (or when the server stops); \
         checkers online takes you back to it"
    )
}

/// What to say of a typed `line` that asks nothing: for a command given the wrong
/// words, what it takes; for a word that is no command, the commands.
fn not_understood(line: &str) -> String {
    let first = line.split_whitespace().next().unwrap_or_default();
    let takes = match first {
        "who" | "seeks" | "games" | "board" | "clock" | "clocks" | "draw" | "resign"
        | "adjourn" | "resume" | "rematch" | "help" | "quit" | "exit" => "takes nothing more",
        "accept" => "takes one seek's number: accept N (seeks lists them)",
        "cancel" => "takes one seek's number: cancel N (your seek, challenge or private table)",
        "decline" => {
            "takes nothing (a rematch offered) or one challenge's number: decline N (seeks \
             lists them)"
        }
        "watch" => "takes one game's number: watch N (games lists them)",
        "challenge" => {
            "takes the player's name first: challenge NAME [CLOCK] [rated|casual] \
             [black|white|either] [ballot|free] (who lists who is online)"
        }
        "join" => "takes the private table's code: join CODE (as its player gave it)",
        "player" => "takes one name: player NAME",
        "say" => "takes what to say: say TEXT (at a table)",
        "tell" => "takes a player's name and what to tell them: tell NAME TEXT",
        _ => {
            return format!(
                "Unknown command: {}. {HELP}",
                crate::text::printable(line, 80)
            );
        }
    };
    format!("{first} {takes}. help lists every command.")
}

/// The words that give a game's terms after `seek`, `challenge NAME` and `invite`, in
/// any order, but the clock (a seek's comes first, not in brackets).
const TERMS: &str = "[rated|casual] [black|white|either] [ballot|free]";

/// A game's terms as typed: what was given of them.
#[derive(Debug, Default, PartialEq)]
struct Terms {
    /// The clock (`5+3`), if given.
    clock: Option<String>,
    /// Rated or casual, if given.
    rated: Option<bool>,
    /// The side the player asking plays; none: either, by lot.
    side: Option<protocol::Side>,
    /// Whether the game opens with a ballot drawn from the three-move deck.
    ballot: bool,
}

/// The terms in `words`, in any order (the last word of a kind counts, but one clock
/// only); else what is wrong, naming the word that did not read.
fn terms_of(words: &[&str]) -> Result<Terms, String> {
    let mut terms = Terms::default();
    for word in words {
        match *word {
            "rated" | "casual" => terms.rated = Some(*word == "rated"),
            "black" => terms.side = Some(protocol::Side::Black),
            "white" => terms.side = Some(protocol::Side::White),
            "either" => terms.side = None,
            "ballot" | "free" => terms.ballot = *word == "ballot",
            word => {
                let shown = crate::text::printable(word, 40);
                // A word that looks like a clock is told what is wrong with it.
                let clockish = word
                    .chars()
                    .any(|c| c.is_ascii_digit() || "+/:".contains(c));
                match word.parse::<crate::session::TimeControl>() {
                    Ok(_) => {
                        if let Some(first) = &terms.clock {
                            return Err(format!(
                                "{shown} is a second clock after {} (give one)",
                                crate::text::printable(first, 40)
                            ));
                        }
                        terms.clock = Some(word.to_string());
                    }
                    Err(e) if clockish => {
                        return Err(format!(
                            "{shown} is not a clock: {}",
                            crate::text::error_chain(&e)
                        ));
                    }
                    Err(_) => {
                        return Err(format!(
                            "{shown} is none of these (a clock such as 5+3 or G/15; rated, \
                             casual; black, white, either; ballot, free)"
                        ));
                    }
                }
            }
        }
    }
    Ok(terms)
}

/// What a game's terms are typed for.
#[derive(Clone, Copy)]
enum Offer<'a> {
    /// `seek`: a game anyone may accept.
    Seek,
    /// `challenge NAME`: a game this player only may accept.
    Challenge(&'a str),
    /// `invite`: a private table, taken with its code.
    Invite,
}

/// How `offer` is typed: the command, then its terms (the clock named once).
fn offer_usage(offer: Offer) -> String {
    let command = match offer {
        Offer::Seek => "seek CLOCK",
        Offer::Challenge(_) => "challenge NAME [CLOCK]",
        Offer::Invite => "invite [CLOCK]",
    };
    format!("{command} {TERMS}")
}

/// The message that `offer` with the terms in `words` asks; none (said why, with the
/// command's usage) if a word does not read. A seek or challenge is rated and an
/// invite casual unless told; a challenge or invite plays 5+3 unless told; a seek
/// needs its clock.
fn offer_of(offer: Offer, words: &[&str]) -> Option<ClientMessage> {
    let (example, rated) = match offer {
        Offer::Seek => ("seek 5+3 casual white ballot", true),
        Offer::Challenge(_) => ("challenge bob 10+5 casual white", true),
        Offer::Invite => ("invite 5+3 black ballot", false),
    };
    let usage = offer_usage(offer);
    let terms = match terms_of(words) {
        Ok(terms) => terms,
        Err(e) => return say(&format!("{usage}: {e} (e.g. {example})")),
    };
    let (rated, side, ballot) = (terms.rated.unwrap_or(rated), terms.side, terms.ballot);
    let clock = match (offer, terms.clock) {
        (_, Some(clock)) => clock,
        (Offer::Seek, None) => {
            return say(&format!("{usage}: the clock is missing (e.g. {example})"));
        }
        (_, None) => "5+3".to_string(),
    };
    Some(match offer {
        Offer::Seek => ClientMessage::Seek {
            clock,
            rated,
            side,
            ballot,
        },
        Offer::Challenge(name) => ClientMessage::Challenge {
            name: name.to_string(),
            clock,
            rated,
            side,
            ballot,
        },
        Offer::Invite => ClientMessage::Invite {
            clock,
            rated,
            side,
            ballot,
        },
    })
}

/// Prints `text`, asking the server nothing.
fn say(text: &str) -> Option<ClientMessage> {
    println!("{text}");
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use protocol::Side;

    #[test]
    fn a_server_named_with_a_port_that_is_not_one_is_refused_saying_which() {
        assert_eq!(server_address("example.org").unwrap(), "example.org:4620");
        assert_eq!(server_address("127.0.0.1:4700").unwrap(), "127.0.0.1:4700");
        assert_eq!(server_address("::1").unwrap(), "[::1]:4620");
        assert_eq!(server_address("[::1]").unwrap(), "[::1]:4620");
        assert_eq!(server_address("[::1]:4700").unwrap(), "[::1]:4700");
        for (named, why) in [
            ("127.0.0.1:99999", "\"99999\" is not a port (1-65535)"),
            ("127.0.0.1:0", "\"0\" is not a port"),
            ("example.org:", "\"\" is not a port"),
            ("example.org:http", "\"http\" is not a port"),
            ("[::1]:70000", "\"70000\" is not a port"),
            (":4620", "no host before the ':'"),
        ] {
            let said = server_address(named).unwrap_err();
            assert!(said.contains(why), "{named}: {said}");
            assert!(said.contains(&format!("{named:?}")), "{named}: {said}");
        }
    }

    #[test]
    fn an_export_that_pages_on_without_end_stops_at_its_bound_and_writes_nothing() {
        let folder = tempfile::tempdir().unwrap();
        let file = folder.path().join("games.pdn");
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        let result = runtime.block_on(async {
            let (server, client) = tokio::io::duplex(64 * 1024);
            let (client_reader, mut client_writer) = tokio::io::split(client);
            let (server_reader, mut server_writer) = tokio::io::split(server);
            // A server answering every page with a full one and a next, for ever.
            tokio::spawn(async move {
                let mut asked = tokio::io::BufReader::new(server_reader);
                let game = format!("[Event \"{}\"]\n1. 11-15 23-19 *", "x".repeat(1000));
                let mut after = 0;
                while let Ok(Some(_)) = crate::server::read_line(&mut asked, 4096).await {
                    after += 1;
                    let page = ServerMessage::Records {
                        games: vec![game.clone(); protocol::EXPORT_PAGE],
                        next: Some(after),
                    };
                    if write_message(&mut server_writer, &page).await.is_err() {
                        return;
                    }
                }
            });
            let mut reader = tokio::io::BufReader::new(client_reader);
            export_games(&mut reader, &mut client_writer, "hostile", &file, 1 << 20).await
        });
        let error = result.unwrap_err().to_string();
        assert!(
            error.contains("hostile sent more than 1 MB of games and had not ended"),
            "{error}"
        );
        assert!(!file.exists());
    }

    #[test]
    fn the_terms_come_in_any_order_and_a_word_that_does_not_read_is_named() {
        let read = terms_of(&["white", "ballot", "casual", "10+5"]).unwrap();
        assert_eq!(
            read,
            Terms {
                clock: Some("10+5".to_string()),
                rated: Some(false),
                side: Some(Side::White),
                ballot: true,
            }
        );
        assert_eq!(terms_of(&[]).unwrap(), Terms::default());
        let purple = terms_of(&["5+3", "purple"]).unwrap_err();
        assert!(purple.starts_with("purple is none of these"), "{purple}");
        let bad_clock = terms_of(&["5+x"]).unwrap_err();
        assert!(bad_clock.starts_with("5+x is not a clock: "), "{bad_clock}");
        assert!(bad_clock.contains("'x' is not an increment"), "{bad_clock}");
        let two = terms_of(&["5+3", "G/15"]).unwrap_err();
        assert_eq!(two, "G/15 is a second clock after 5+3 (give one)");
    }

    #[test]
    fn seek_challenge_and_invite_read_the_same_terms_with_their_own_defaults() {
        assert_eq!(
            offer_of(
                Offer::Challenge("bob"),
                &["10+5", "casual", "white", "ballot"]
            ),
            Some(ClientMessage::Challenge {
                name: "bob".to_string(),
                clock: "10+5".to_string(),
                rated: false,
                side: Some(Side::White),
                ballot: true,
            })
        );
        assert_eq!(
            offer_of(Offer::Challenge("bob"), &[]),
            Some(ClientMessage::Challenge {
                name: "bob".to_string(),
                clock: "5+3".to_string(),
                rated: true,
                side: None,
                ballot: false,
            })
        );
        assert_eq!(
            offer_of(Offer::Invite, &["black", "5+3"]),
            Some(ClientMessage::Invite {
                clock: "5+3".to_string(),
                rated: false,
                side: Some(Side::Black),
                ballot: false,
            })
        );
        assert_eq!(
            offer_of(Offer::Seek, &["casual", "3+2"]),
            Some(ClientMessage::Seek {
                clock: "3+2".to_string(),
                rated: false,
                side: None,
                ballot: false,
            })
        );
        // A seek needs its clock; a word that does not read asks nothing.
        assert_eq!(offer_of(Offer::Seek, &["rated"]), None);
        assert_eq!(offer_of(Offer::Invite, &["blue"]), None);
        // A player may be called as a command is.
        let mut view = View::default();
        assert!(matches!(
            view.command("challenge invite white"),
            Some(ClientMessage::Challenge { name, side: Some(Side::White), .. }) if name == "invite"
        ));
    }

    #[test]
    fn n_declines_the_draw_offered_and_only_then() {
        let mut view = View::default();
        assert_eq!(view.command("n"), None, "no offer: n is not a command");
        let offered = ServerMessage::DrawOffered {
            game: 1,
            side: Side::Black,
        };
        view.show(offered.clone());
        assert_eq!(view.command("n"), Some(ClientMessage::Decline));
        assert_eq!(view.command("n"), None, "declined once");
        view.show(offered);
        assert_eq!(view.command("decline"), Some(ClientMessage::Decline));
        assert_eq!(view.command("n"), None, "decline answered the offer");
    }

    #[test]
    fn a_draw_declined_at_an_older_server_is_not_said_to_be_a_rematch_refused() {
        let mut view = View::default();
        let offered = ServerMessage::DrawOffered {
            game: 1,
            side: Side::Black,
        };
        let older = protocol::NO_REMATCH_OFFERED;
        for decline in ["n", "decline"] {
            view.show(offered.clone());
            assert_eq!(view.command(decline), Some(ClientMessage::Decline));
            assert_eq!(view.refusal(older), protocol::DRAW_DECLINE_UNKNOWN);
        }
        // With no draw offered, decline is the rematch's, and so is its refusal.
        assert_eq!(view.command("decline"), Some(ClientMessage::Decline));
        assert_eq!(view.refusal(older), "Refused: no rematch is offered to you");
    }

    /// `tell NAME TEXT` goes to a server that takes it, its text as typed; one that
    /// does not read is said here, and nothing goes to a server older than tells (it
    /// would let the client go).
    #[test]
    fn tell_is_typed_to_a_server_that_knows_it_and_said_not_sent_to_an_older_one() {
        let mut view = View {
            tells: true,
            ..View::default()
        };
        assert_eq!(
            view.command("tell  bob  good game, well played "),
            Some(ClientMessage::Tell {
                name: "bob".into(),
                text: "good game, well played".into()
            })
        );
        assert_eq!(view.command("tell bob"), None, "nothing to tell");
        assert_eq!(view.command("tell"), None);
        assert_eq!(view.command(&format!("tell bob {}", "x".repeat(201))), None);
        let mut older = View::default();
        assert_eq!(older.command("tell bob hi"), None);
        assert!(not_understood("tell").contains("tell NAME TEXT"));
        assert!(HELP.contains("tell NAME TEXT"));
    }

    /// `ignore NAME`, `unignore NAME` and `ignore` go to a server that takes them; to
    /// an older one nothing goes (it would let the client go), said in words.
    #[test]
    fn ignore_is_typed_to_a_server_that_knows_it_and_said_not_sent_to_an_older_one() {
        let mut view = View {
            ignores: true,
            ..View::default()
        };
        assert_eq!(
            view.command("ignore bob"),
            Some(ClientMessage::Ignore {
                name: Some("bob".into())
            })
        );
        assert_eq!(
            view.command("unignore bob"),
            Some(ClientMessage::Unignore { name: "bob".into() })
        );
        assert_eq!(
            view.command("ignore"),
            Some(ClientMessage::Ignore { name: None })
        );
        assert_eq!(view.command("unignore"), None, "whom?");
        let mut older = View {
            tells: true,
            ..View::default()
        };
        assert_eq!(older.command("ignore bob"), None);
        assert_eq!(older.command("ignore"), None);
        assert!(HELP.contains("ignore NAME"));
        assert!(HELP.contains("unignore NAME"));
    }

    #[test]
    fn a_player_made_a_moderator_while_online_gives_orders_and_loses_them_when_removed() {
        let mut view = View::default();
        let welcome = |moderator| ServerMessage::Welcome {
            name: "ann".to_string(),
            new: false,
            rating: 1500.0,
            moderator,
            knows: Vec::new(),
        };
        assert_eq!(view.command("kick bob"), None, "not a moderator yet");
        view.show(welcome(true));
        assert!(
            matches!(
                view.command("kick bob"),
                Some(ClientMessage::Moderate { .. })
            ),
            "a moderator now"
        );
        view.show(welcome(false));
        assert_eq!(view.command("kick bob"), None, "no longer a moderator");
    }

    #[test]
    fn cancel_and_decline_with_a_number_withdraw_or_decline_that_seek() {
        let mut view = View::default();
        assert_eq!(
            view.command("cancel 3"),
            Some(ClientMessage::Cancel { number: 3 })
        );
        assert_eq!(
            view.command("decline 4"),
            Some(ClientMessage::Cancel { number: 4 })
        );
        // Alone, decline still declines the rematch offered.
        assert_eq!(view.command("decline"), Some(ClientMessage::Decline));
        assert!(not_understood("cancel").starts_with("cancel takes one seek's number"));
        assert!(HELP.contains("decline N"));
    }

    #[test]
    fn a_command_given_the_wrong_words_says_what_it_takes_not_that_it_is_unknown() {
        for (line, says) in [
            ("accept", "accept takes one seek's number: accept N"),
            ("watch", "watch takes one game's number: watch N"),
            (
                "challenge",
                "challenge takes the player's name first: challenge NAME [CLOCK]",
            ),
            ("join", "join takes the private table's code: join CODE"),
            ("player", "player takes one name: player NAME"),
            ("who is there", "who takes nothing more"),
        ] {
            let said = not_understood(line);
            assert!(said.starts_with(says), "{line}: {said}");
            assert!(!said.contains("Unknown command"), "{line}: {said}");
        }
        assert!(not_understood("frobnicate 3").starts_with("Unknown command: frobnicate 3."));
        // A usage names the clock once: a seek's first, the others' in brackets.
        assert_eq!(
            offer_usage(Offer::Seek),
            "seek CLOCK [rated|casual] [black|white|either] [ballot|free]"
        );
        assert_eq!(
            offer_usage(Offer::Challenge("bob")),
            "challenge NAME [CLOCK] [rated|casual] [black|white|either] [ballot|free]"
        );
    }

    #[test]
    fn an_older_servers_clocks_without_running_are_not_told_as_both_stopped() {
        // A move as a server from before the `running` field tells it.
        let fen = crate::rules::Position::start().to_string();
        let older = format!(
            r#"{{"type":"moved","game":1,"side":"black","squares":"11-15","fen":"{fen}","clocks":[298000,300000]}}"#
        );
        let newer = |running: &str| older.replace("}", &format!(r#","running":{running}}}"#));
        let clocks_after = |line: &str| {
            let message = serde_json::from_str::<ServerMessage>(line).expect("a server message");
            let mut view = View::default();
            view.show(message);
            let clocks = view.clocks.expect("the clocks told");
            clocks.text(clocks.told_at + Duration::from_secs(3))
        };
        // Shown as told, counted on for neither side, and said so.
        assert_eq!(
            clocks_after(&older),
            "Clocks when last told: Black 4:58, White 5:00 (this server does not say which \
             one runs)."
        );
        // A server that says so: both stopped, or one running (and counted on).
        assert_eq!(
            clocks_after(&newer("null")),
            "Clocks: Black 4:58, White 5:00 (both stopped)."
        );
        assert_eq!(
            clocks_after(&newer(r#""white""#)),
            "Clocks: Black 4:58, White 4:57 (White's running)."
        );
    }
}
