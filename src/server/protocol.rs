//! What a `checkers online` client and `checkers server` say to each other over TLS:
//! one JSON object a line, as across the LAN (`net::protocol`), read with a bound on
//! its length. The client is untrusted: a line too long or not one of the messages
//! closes its connection with the reason.

use serde::{Deserialize, Serialize};

/// The server protocol's version: a client of another one is told so and let go.
pub(crate) const VERSION: u32 = 1;

/// The longest line the server reads from a client, in bytes: every message a client
/// sends is short, so a far smaller bound than a LAN host's (which reads whole records).
pub(crate) const MAX_CLIENT_LINE: usize = 4096;

/// The longest line the client reads from the server, in bytes (a list of seeks or
/// games, a game's record): as across the LAN.
pub(crate) const MAX_SERVER_LINE: usize = crate::net::protocol::MAX_LINE;

/// Whose clock runs, for a player away from their game in play at the server (the
/// game going on while the opponent is at it): their own when it is their move
/// (`my_move`), else the opponent's until they move, then theirs.
pub(crate) fn clock_while_away(my_move: bool) -> &'static str {
    if my_move {
        "your clock running"
    } else {
        "your opponent's clock running, then yours"
    }
}

/// What a client sends.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub(crate) enum ClientMessage {
    /// The answer to the server's challenge: who, with which key, and the signature of
    /// [`login_message`].
    Login {
        /// The protocol version the client speaks.
        version: u32,
        /// The player's name.
        name: String,
        /// The player's Ed25519 public key, in hex.
        key: String,
        /// The signature, in hex.
        signature: String,
        /// What this client reads of what came after the protocol's version, each by
        /// its word ([`KNOWS_NO_RESULT`]): a server speaks to a client without it in
        /// words its older code prints right. An older server ignores the field.
        #[serde(default)]
        knows: Vec<String>,
    },
    /// The players online.
    Who,
    /// The open seeks.
    Seeks,
    /// Post a seek.
    Seek {
        /// The clock, as `--clock` takes it (`5+3`).
        clock: String,
        /// Whether the game is rated.
        rated: bool,
        /// The side the seeker plays; none: either, by lot.
        #[serde(default)]
        side: Option<Side>,
        /// Whether the game opens with a ballot drawn from the three-move deck.
        #[serde(default)]
        ballot: bool,
    },
    /// Offer a game to one player: a seek only they see and may accept.
    Challenge {
        /// The player challenged.
        name: String,
        /// The clock, as `--clock` takes it.
        clock: String,
        /// Whether the game is rated.
        rated: bool,
        /// The side the challenger plays; none: either, by lot.
        #[serde(default)]
        side: Option<Side>,
        /// Whether the game opens with a ballot drawn from the three-move deck.
        #[serde(default)]
        ballot: bool,
    },
    /// Open a private table: a seek nobody sees, taken with the code the server gives.
    Invite {
        /// The clock, as `--clock` takes it.
        clock: String,
        /// Whether the game is rated.
        rated: bool,
        /// The side the host plays; none: either, by lot.
        #[serde(default)]
        side: Option<Side>,
        /// Whether the game opens with a ballot drawn from the three-move deck.
        #[serde(default)]
        ballot: bool,
    },
    /// Take the private table of this code.
    Join {
        /// The code `invite` gave.
        code: String,
    },
    /// Accept the seek of this number.
    Accept {
        /// Its number, as `seeks` shows it.
        number: u64,
    },
    /// Withdraw this player's own seek of this number (a challenge, a private table
    /// too), or decline the challenge of this number made to this player: its
    /// challenger is told.
    Cancel {
        /// Its number, as `seeks` shows it (or as the seek's post said).
        number: u64,
    },
    /// The games in play.
    Games,
    /// Watch the game of this number.
    Watch {
        /// Its number, as `games` shows it.
        number: u64,
    },
    /// A player's rating and record.
    Player {
        /// The player's name.
        name: String,
    },
    /// A move in the player's game, as typed (`11-15`).
    Play {
        /// The move.
        text: String,
    },
    /// Resign the player's game.
    Resign,
    /// Offer a draw, or accept the one offered.
    Draw,
    /// The player's finished games as PDN, a page at a time: those after the game of
    /// this number (0: from the first).
    Export {
        /// The last game of the page before.
        after: u64,
    },
    /// Say a line at the player's table (the game played or watched): its players
    /// and spectators hear it.
    Say {
        /// The line, at most [`MAX_SAID`] characters.
        text: String,
    },
    /// Tell one player a line, wherever they are (in the lobby, at a game): they alone
    /// hear it (as FICS's `tell`). A server older than it does not know it: a client
    /// sends it only to a server whose welcome [`knows`](ServerMessage::Welcome::knows)
    /// [`KNOWS_TELL`].
    Tell {
        /// The player told.
        name: String,
        /// The line, at most [`MAX_SAID`] characters.
        text: String,
    },
    /// Ignore a player (as FICS's `censor`): their tells to this player are refused,
    /// their lines at a table not shown to this player, their challenges to this player
    /// refused; kept for the account. No name: the list of those ignored, in words. A
    /// client sends it only to a server whose welcome knows [`KNOWS_IGNORE`].
    Ignore {
        /// The player ignored; none asks for the list.
        #[serde(default)]
        name: Option<String>,
    },
    /// Stop ignoring a player ([`ClientMessage::Ignore`]).
    Unignore {
        /// The player no longer ignored.
        name: String,
    },
    /// Offer a new game to the opponent of the game just ended (same clock and kind,
    /// colours swapped), or accept the one they offered.
    Rematch,
    /// Decline the draw the opponent offers in this player's game in play (the offerer
    /// is told), or else the rematch offered. One message for both, so that a client
    /// declining a draw at an older server is refused in words, not let go.
    Decline,
    /// Still there.
    Ping,
    /// This client shows a board: from now on it is told its table (the game played or
    /// watched) as a [`ServerMessage::Table`] after each change, its game now if any.
    Board,
    /// The lobby as lists: answered by [`ServerMessage::Lobby`].
    Lobby,
    /// Stop watching the game watched (its board was left).
    Unwatch,
    /// Adjourn the game this player plays (its board was left): its clocks stop and it
    /// waits on the server while the player stays in the lobby, until they
    /// [`ClientMessage::Resume`] it. Refused to a spectator and to a player with no
    /// game in play.
    Adjourn,
    /// Go back to this player's adjourned game: it goes on once both players are back
    /// at it (told as [`ServerMessage::Table`]s and [`ServerMessage::Started`]).
    Resume,
    /// A moderator's order (mute, kick, ban and their undoing): refused to a player who
    /// is not one of the server's moderators.
    Moderate {
        /// What to do, and to whom.
        order: Order,
    },
}

/// How a server refuses a `decline` when no rematch is offered: also how one older
/// than declining a draw refuses a draw declined (it knows no other decline).
pub(crate) const NO_REMATCH_OFFERED: &str = "no rematch is offered to you";

/// What a client says when a server refuses its draw declined as [`NO_REMATCH_OFFERED`]:
/// a server older than declining a draw, which does not pass it on.
pub(crate) const DRAW_DECLINE_UNKNOWN: &str = "This server does not know declining a draw: \
     your opponent is not told, and the offer simply lapses when you move.";

/// The result [`ServerMessage::Ended`] gives a game that ends abandoned, counting
/// for neither player (PDN's "no result").
pub(crate) const NO_RESULT: &str = "*";

/// The word a client's login [`knows`](ClientMessage::Login::knows) when it reads a
/// game's end with [`NO_RESULT`] itself, as an abandoned game: an older one printed it
/// as `Game 1 over: * ...`.
pub(crate) const KNOWS_NO_RESULT: &str = "no_result";

/// The word of [`ClientMessage::Tell`] and [`ServerMessage::Told`]: a client's login
/// [`knows`](ClientMessage::Login::knows) it when it reads a `told` (an older client is
/// told a tell as an [`ServerMessage::Info`]); a server's welcome
/// [`knows`](ServerMessage::Welcome::knows) it when it takes a `tell` (an older server
/// lets a client go at a message it does not know, so such a client says so itself).
pub(crate) const KNOWS_TELL: &str = "tell";

/// What this server's welcome [`knows`](ServerMessage::Welcome::knows).
pub(crate) fn server_knows() -> Vec<String> {
    vec![KNOWS_TELL.to_string(), KNOWS_IGNORE.to_string()]
}

/// The word of [`ClientMessage::Ignore`] and [`ClientMessage::Unignore`] in a server's
/// welcome [`knows`](ServerMessage::Welcome::knows): an older server lets a client go
/// at a message it does not know, so such a client says so itself.
pub(crate) const KNOWS_IGNORE: &str = "ignore";

/// The most players one player may ignore: far more than a person needs, and a list
/// that stays short to keep and to read.
pub(crate) const MAX_IGNORED: usize = 100;

/// What a client says when the player ignores someone at a server older than
/// [`ClientMessage::Ignore`]: nothing is sent.
pub(crate) const IGNORE_UNKNOWN: &str = "This server does not know ignore (it is older \
     than this client): nothing was sent.";

/// What a client says when the player tells someone at a server older than
/// [`ClientMessage::Tell`]: nothing is sent.
pub(crate) const TELL_UNKNOWN: &str = "This server does not know tell (it is older than \
     this client): nothing was sent. Talk at a table with say, or update the server.";

/// The result an abandoned game's end gives a client that does not know
/// [`NO_RESULT`]: it prints `Game 1 over: abandoned (unrated). A moderator banned ...`
/// where it printed `Game 1 over: * A moderator banned ...`.
pub(crate) const ABANDONED_FOR_OLDER: &str = "abandoned (unrated).";

/// A field that is there, `null` included, as `Some` (serde's default gives none when
/// it is not there at all).
fn present<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: serde::Deserializer<'de>,
    T: Deserialize<'de>,
{
    T::deserialize(deserializer).map(Some)
}

/// A moderator's order, as `mute`, `unmute`, `kick`, `ban` and `unban` give it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "do")]
pub(crate) enum Order {
    /// No chat at any table for `minutes` (none: [`MUTE_MINUTES`]).
    Mute {
        /// The player.
        name: String,
        /// For how long, in minutes: 1 to [`MUTE_MINUTES_MOST`].
        #[serde(default)]
        minutes: Option<u32>,
    },
    /// Talk again.
    Unmute {
        /// The player.
        name: String,
    },
    /// Disconnected now: a game in play is adjourned (never lost), to go on when both
    /// players are back.
    Kick {
        /// The player.
        name: String,
    },
    /// Kicked, and refused at every later login with the reason.
    Ban {
        /// The player.
        name: String,
        /// Why, as the player is told at each login refused: at most [`MAX_REASON`]
        /// characters.
        #[serde(default)]
        reason: Option<String>,
    },
    /// Lets a banned player log in again.
    Unban {
        /// The player.
        name: String,
    },
}

impl Order {
    /// The player the order is about.
    pub(crate) fn name(&self) -> &str {
        match self {
            Order::Mute { name, .. }
            | Order::Unmute { name }
            | Order::Kick { name }
            | Order::Ban { name, .. }
            | Order::Unban { name } => name,
        }
    }

    /// The order's word (`mute`), as typed and as the log says it.
    pub(crate) fn word(&self) -> &'static str {
        match self {
            Order::Mute { .. } => "mute",
            Order::Unmute { .. } => "unmute",
            Order::Kick { .. } => "kick",
            Order::Ban { .. } => "ban",
            Order::Unban { .. } => "unban",
        }
    }
}

/// How long a mute lasts when no minutes are given.
pub(crate) const MUTE_MINUTES: u32 = 60;

/// The longest mute, in minutes (a week): longer is a ban.
pub(crate) const MUTE_MINUTES_MOST: u32 = 7 * 24 * 60;

/// How the words that let a banned player go begin (the reason follows): a board let
/// go with them knows its game ends abandoned, as a ban ends it.
pub(crate) const BANNED_HEAD: &str = "you are banned from this server";

/// The most characters a ban's reason may hold.
pub(crate) const MAX_REASON: usize = 200;

/// The most characters a line said at a table may hold.
pub(crate) const MAX_SAID: usize = 200;

/// A side of the board, as messages name it.
pub(crate) use crate::net::protocol::Side;

/// What the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub(crate) enum ServerMessage {
    /// The first message: a fresh challenge for the login to sign, in hex.
    Challenge {
        /// The protocol version the server speaks.
        version: u32,
        /// 32 random bytes in hex.
        challenge: String,
    },
    /// The login is taken.
    Welcome {
        /// The name logged in.
        name: String,
        /// Whether the name was bound to the key just now (its first login).
        new: bool,
        /// The player's rating.
        rating: f64,
        /// Whether the player is one of the server's moderators (their client offers
        /// mute, kick and ban).
        #[serde(default)]
        moderator: bool,
        /// What this server takes of what came after the protocol's version, each by
        /// its word ([`KNOWS_TELL`]): a client sends nothing else. An older server does
        /// not say it, and an older client ignores it.
        #[serde(default)]
        knows: Vec<String>,
    },
    /// The connection is refused, and why; it is closed after.
    Refused {
        /// Why.
        reason: String,
    },
    /// A request was refused, and why; the connection stays.
    Rejected {
        /// Why.
        reason: String,
    },
    /// An answer in words (a list of players, seeks, games; a player's record).
    Info {
        /// The lines.
        text: String,
    },
    /// A game of this player's started, or goes on (resumed).
    Started {
        /// The game's number on the server.
        game: u64,
        /// Black's name.
        black: String,
        /// White's name.
        white: String,
        /// The side this player plays.
        side: Side,
        /// The clock.
        clock: String,
        /// Whether it is rated.
        rated: bool,
        /// The position it starts from, or goes on from (PDN FEN).
        fen: String,
        /// The moves played so far (a game resumed), every landing square named.
        #[serde(default)]
        moves: Vec<String>,
        /// The ballot the game opened with, in words (`Ballot 126: 11-15 23-19 8-11`).
        #[serde(default)]
        ballot: Option<String>,
        /// How many of `moves` are the ballot's (played before the game starts).
        #[serde(default)]
        ballot_moves: usize,
        /// Black's and White's time left, in milliseconds, as it starts or goes on
        /// (none: untimed).
        #[serde(default)]
        clocks: Option<[u64; 2]>,
        /// The side whose clock runs now: `Some(None)` (`null`) while the clocks stand
        /// still; none (the field not there) from a server older than it, which does
        /// not say, and must not be read as both standing still.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        running: Option<Option<Side>>,
    },
    /// The game this client watches, as it stands.
    Watching {
        /// The game's number.
        game: u64,
        /// Black's name.
        black: String,
        /// White's name.
        white: String,
        /// The clock.
        clock: String,
        /// The moves played so far, every landing square named.
        moves: Vec<String>,
        /// The position now (PDN FEN).
        fen: String,
        /// Black's and White's time left now, in milliseconds (none: untimed).
        #[serde(default)]
        clocks: Option<[u64; 2]>,
        /// The side whose clock runs now: `Some(None)` (`null`) while the clocks stand
        /// still; none (the field not there) from a server older than it, which does
        /// not say, and must not be read as both standing still.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        running: Option<Option<Side>>,
    },
    /// A move was played in this client's game, or the one it watches: the position
    /// after it.
    Moved {
        /// The game's number.
        game: u64,
        /// The side that moved.
        side: Side,
        /// The move, every landing square named.
        squares: String,
        /// The position now (PDN FEN).
        fen: String,
        /// Black's and White's time left, in milliseconds.
        clocks: Option<[u64; 2]>,
        /// The side whose clock runs after the move: `Some(None)` (`null`) while the clocks stand
        /// still; none (the field not there) from a server older than it, which does
        /// not say, and must not be read as both standing still.
        #[serde(
            default,
            deserialize_with = "present",
            skip_serializing_if = "Option::is_none"
        )]
        running: Option<Option<Side>>,
    },
    /// The player's opponent offered a draw (`draw` accepts it, `decline` declines it).
    DrawOffered {
        /// The game's number.
        game: u64,
        /// The side that offered it.
        side: Side,
    },
    /// The game ended.
    Ended {
        /// The game's number.
        game: u64,
        /// The PDN result (`1-0`, `0-1`, `1/2-1/2`), or [`NO_RESULT`] for a game
        /// abandoned, unrated (its `text` says why).
        result: String,
        /// How it ended, in words.
        text: String,
        /// The rating changes, in words, for a rated game.
        ratings: Option<String>,
    },
    /// A page of the player's finished games.
    Records {
        /// Each game's record, as PDN.
        games: Vec<String>,
        /// The number of the page's last game, to ask the next page after; none at the
        /// end.
        next: Option<u64>,
    },
    /// A line said at this client's table.
    Said {
        /// Who said it.
        name: String,
        /// What they said (no control characters).
        text: String,
    },
    /// A line told to this player alone ([`ClientMessage::Tell`]), wherever they are.
    Told {
        /// Who told it.
        name: String,
        /// What they told (no control, text-direction or zero-width characters).
        text: String,
    },
    /// The answer to a ping.
    Pong,
    /// The game at this client's table as it stands (a board client's, after each
    /// change: start, resume, move, offer, end, adjournment), as a LAN host tells it.
    Table {
        /// The game's number.
        game: u64,
        /// The side this client plays there; none: it watches.
        side: Option<Side>,
        /// The game.
        state: crate::net::protocol::GameState,
    },
    /// The lobby as lists, each cut at [`LOBBY_LIST`] entries.
    Lobby {
        /// The players online.
        players: Vec<LobbyPlayer>,
        /// The open seeks this client sees.
        seeks: Vec<LobbySeek>,
        /// The games in play.
        games: Vec<LobbyGame>,
        /// How many of each (players, seeks, games) did not fit.
        #[serde(default)]
        more: [usize; 3],
    },
}

/// The most entries a list of [`ServerMessage::Lobby`] holds, so that it stays far
/// under the line bound.
pub(crate) const LOBBY_LIST: usize = 200;

/// A player online, as the lobby lists them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LobbyPlayer {
    /// Their name.
    pub(crate) name: String,
    /// Their rating, rounded.
    pub(crate) rating: u32,
    /// The game they play, if any.
    pub(crate) playing: Option<u64>,
}

/// An open seek, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LobbySeek {
    /// Its number (to accept it).
    pub(crate) number: u64,
    /// Who posted it.
    pub(crate) by: String,
    /// Their rating, rounded.
    pub(crate) rating: u32,
    /// The clock.
    pub(crate) clock: String,
    /// Whether the game would be rated.
    pub(crate) rated: bool,
    /// The side the seeker plays; none: by lot.
    pub(crate) side: Option<Side>,
    /// Whether the game opens with a ballot.
    pub(crate) ballot: bool,
    /// A challenge's player, the only one who may take it.
    pub(crate) only: Option<String>,
}

/// A game in play, as the lobby lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct LobbyGame {
    /// Its number (to watch it).
    pub(crate) number: u64,
    /// Black's name.
    pub(crate) black: String,
    /// White's name.
    pub(crate) white: String,
    /// The clock.
    pub(crate) clock: String,
    /// Whether it is rated.
    pub(crate) rated: bool,
    /// The moves played so far.
    pub(crate) moves: usize,
    /// Whether it waits for a player to come back.
    pub(crate) adjourned: bool,
}

/// The most games a page of an export holds, so that a page stays far under the line
/// bound a client reads with.
pub(crate) const EXPORT_PAGE: usize = 20;

/// What a login signs: the server's challenge, the server's certificate fingerprint
/// (so a signature made for one server is worth nothing at another, a relay included)
/// and the name (so it is worth nothing for another name).
pub(crate) fn login_message(challenge: &[u8], fingerprint: &[u8; 32], name: &str) -> Vec<u8> {
    let mut message = Vec::with_capacity(challenge.len() + 32 + name.len());
    message.extend_from_slice(challenge);
    message.extend_from_slice(fingerprint);
    message.extend_from_slice(name.as_bytes());
    message
}

/// Bytes in lowercase hex.
pub(crate) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex to exactly `N` bytes, or none.
pub(crate) fn unhex<const N: usize>(text: &str) -> Option<[u8; N]> {
    if text.len() != 2 * N || !text.is_ascii() {
        return None;
    }
    let mut out = [0u8; N];
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(&text[2 * i..2 * i + 2], 16).ok()?;
    }
    Some(out)
}

/// A certificate's fingerprint as people compare it: SHA-256, hex pairs.
pub(crate) fn fingerprint_text(fingerprint: &[u8; 32]) -> String {
    let pairs: Vec<String> = fingerprint.iter().map(|b| format!("{b:02X}")).collect();
    format!("SHA256:{}", pairs.join(":"))
}

/// The SHA-256 fingerprint of a certificate (DER).
pub(crate) fn fingerprint(der: &[u8]) -> [u8; 32] {
    use sha2::Digest;
    sha2::Sha256::digest(der).into()
}

/// What a player's name on a server may be. ASCII only: letters from other scripts that
/// look like these would let one player pass for another.
pub(crate) const NAME_RULE: &str = "a name is 1 to 20 of a-z, A-Z, 0-9, - and _";

/// The longest name, in characters.
const NAME_MOST: usize = 20;

/// Why `name` may not be a player's name on a server (see [`NAME_RULE`]), naming the
/// first character refused and its place; none if it may.
pub(crate) fn name_problem(name: &str) -> Option<String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_';
    if let Some((i, c)) = name.chars().enumerate().find(|&(_, c)| !allowed(c)) {
        // A space, a mark or an invisible character is named by its code.
        let shown = if c.is_alphanumeric() || c.is_ascii_graphic() {
            format!("'{c}'")
        } else {
            format!("U+{:04X}", u32::from(c))
        };
        return Some(format!(
            "{shown} (the {} character) is not allowed: {NAME_RULE}",
            ordinal(i + 1)
        ));
    }
    match name.len() {
        0 => Some(format!("the name is empty: {NAME_RULE}")),
        n if n > NAME_MOST => Some(format!("the name is {n} characters long: {NAME_RULE}")),
        _ => None,
    }
}

/// `n` as an English ordinal: 1st, 2nd, 3rd, 4th, 11th, 22nd.
fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_and_refuses_bad_text() {
        assert_eq!(unhex::<2>(&hex(&[0xab, 0x01])), Some([0xab, 0x01]));
        assert_eq!(unhex::<2>("abc"), None);
        assert_eq!(unhex::<2>("zzzz"), None);
        assert_eq!(unhex::<2>("éé"), None);
    }

    #[test]
    fn the_lobby_and_a_table_read_back_as_sent() {
        let lobby = ServerMessage::Lobby {
            players: vec![LobbyPlayer {
                name: "alice".into(),
                rating: 1500,
                playing: Some(3),
            }],
            seeks: vec![LobbySeek {
                number: 1,
                by: "bob".into(),
                rating: 1480,
                clock: "5+3".into(),
                rated: true,
                side: Some(Side::White),
                ballot: true,
                only: None,
            }],
            games: vec![],
            more: [0, 0, 4],
        };
        let line = serde_json::to_string(&lobby).expect("serializes");
        assert!(line.len() < MAX_SERVER_LINE);
        assert_eq!(
            serde_json::from_str::<ServerMessage>(&line).expect("reads"),
            lobby
        );
        let asked = serde_json::to_string(&ClientMessage::Board).expect("serializes");
        assert_eq!(asked, r#"{"type":"board"}"#);
    }

    #[test]
    fn the_running_clock_reads_as_said_absent_from_an_older_server_null_when_none_runs() {
        let moved = |running: Option<Option<Side>>| ServerMessage::Moved {
            game: 1,
            side: Side::Black,
            squares: "11-15".into(),
            fen: "B:W21,22:B1,2".into(),
            clocks: Some([298_000, 300_000]),
            running,
        };
        // The server says it always: a side, or null while neither clock runs.
        for running in [Some(Some(Side::White)), Some(None)] {
            let line = serde_json::to_string(&moved(running)).expect("serializes");
            assert!(line.contains(r#""running":"#), "{line}");
            let read: ServerMessage = serde_json::from_str(&line).expect("reads");
            assert_eq!(read, moved(running));
        }
        // A server older than the field: none, not "both stopped".
        let older = r#"{"type":"moved","game":1,"side":"black","squares":"11-15","fen":"B:W21,22:B1,2","clocks":[298000,300000]}"#;
        let read: ServerMessage = serde_json::from_str(older).expect("reads");
        assert_eq!(read, moved(None));
        let older = r#"{"type":"watching","game":2,"black":"a","white":"b","clock":"5+3","moves":[],"fen":"B:W21:B1"}"#;
        let read: ServerMessage = serde_json::from_str(older).expect("reads");
        assert!(matches!(
            read,
            ServerMessage::Watching { running: None, .. }
        ));
        let older = r#"{"type":"started","game":3,"black":"a","white":"b","side":"white","clock":"5+3","rated":false,"fen":"B:W21:B1"}"#;
        let read: ServerMessage = serde_json::from_str(older).expect("reads");
        assert!(matches!(read, ServerMessage::Started { running: None, .. }));
        let newer = older.replace("}", r#","running":null}"#);
        let read: ServerMessage = serde_json::from_str(&newer).expect("reads");
        assert!(matches!(
            read,
            ServerMessage::Started {
                running: Some(None),
                ..
            }
        ));
    }

    #[test]
    fn a_challenge_or_invite_without_side_or_ballot_still_reads() {
        let old = r#"{"type":"challenge","name":"bob","clock":"5+3","rated":true}"#;
        let read: ClientMessage = serde_json::from_str(old).unwrap();
        assert_eq!(
            read,
            ClientMessage::Challenge {
                name: "bob".to_string(),
                clock: "5+3".to_string(),
                rated: true,
                side: None,
                ballot: false,
            }
        );
        let old = r#"{"type":"invite","clock":"5+3","rated":false}"#;
        let read: ClientMessage = serde_json::from_str(old).unwrap();
        assert!(matches!(
            read,
            ClientMessage::Invite {
                side: None,
                ballot: false,
                ..
            }
        ));
    }

    /// Whether `name` may be a player's name.
    fn valid_name(name: &str) -> bool {
        name_problem(name).is_none()
    }

    #[test]
    fn names() {
        assert!(valid_name("alice_2"));
        assert!(!valid_name(""));
        assert!(!valid_name("a b"));
        assert!(!valid_name(&"x".repeat(21)));
        assert!(valid_name(&"x".repeat(20)));
    }

    /// A name refused names what is wrong and where, and says exactly what is allowed
    /// (not "letters", which `ó` is).
    #[test]
    fn a_name_refused_names_the_character_and_its_place() {
        let rule = "is not allowed: a name is 1 to 20 of a-z, A-Z, 0-9, - and _";
        assert_eq!(
            name_problem("jos\u{f3}"),
            Some(format!("'\u{f3}' (the 4th character) {rule}"))
        );
        assert_eq!(
            name_problem("an n"),
            Some(format!("U+0020 (the 3rd character) {rule}"))
        );
        // A Cyrillic a, which reads as a Latin one.
        assert_eq!(
            name_problem("b\u{430}b"),
            Some(format!("'\u{430}' (the 2nd character) {rule}"))
        );
        assert_eq!(
            name_problem("ab\u{200b}"),
            Some(format!("U+200B (the 3rd character) {rule}"))
        );
        assert_eq!(
            name_problem(&"x".repeat(21)).as_deref(),
            Some("the name is 21 characters long: a name is 1 to 20 of a-z, A-Z, 0-9, - and _")
        );
        assert!(name_problem("").unwrap().starts_with("the name is empty"));
        let places = [1, 2, 3, 4, 11, 12, 13, 21, 22].map(ordinal);
        assert_eq!(
            places,
            [
                "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd"
            ]
        );
    }
}
