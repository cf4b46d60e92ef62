//! The messages two terminals exchange over a connection: one JSON object each, sealed
//! in a frame of the LAN line ([`secure`](super::secure): the connection opens with a
//! key exchange on the game's code, in plain JSON lines that carry the protocol's
//! version), read with a bound on its length. A peer is untrusted: a message too long,
//! not JSON, not one of the messages, or of another version is refused with a reason,
//! and nothing in a message names a file or runs anything.
//!
//! The host (the referee: it holds the game, its rules and clocks) sends
//! [`HostMessage`]s; a player or a spectator sends [`ClientMessage`]s. The moves, offers
//! and answers a player sends are [`RemoteCommand`]s, which the host checks and hands to
//! its runtime as the commands of the side that player plays, and no other.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::io::{self, BufRead, Read, Write};

/// The protocol's version: a peer of another one is told so and let go. Version 4 seals
/// the line with a key exchange on the code, which it never sends (version 3 sent
/// everything in clear, the code in its greeting); the news goes as values ([`Told`])
/// since version 3 (version 2 told it in words).
pub(crate) const VERSION: u32 = 4;

/// The longest message (a plain line, or a frame's message) read from a peer, in bytes:
/// a whole game's record fits many times.
pub(crate) const MAX_LINE: usize = 256 * 1024;

/// The longest chat line, in characters.
pub(crate) const MAX_CHAT_CHARS: usize = 300;

/// Who connects.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Role {
    /// The other player.
    Player,
    /// Someone watching, who never acts.
    Spectator,
}

/// A side of the board, as messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Side {
    /// Black, who moves first.
    Black,
    /// White.
    White,
}

impl From<crate::rules::Color> for Side {
    fn from(color: crate::rules::Color) -> Side {
        match color {
            crate::rules::Color::Black => Side::Black,
            crate::rules::Color::White => Side::White,
        }
    }
}

impl From<Side> for crate::rules::Color {
    fn from(side: Side) -> crate::rules::Color {
        match side {
            Side::Black => crate::rules::Color::Black,
            Side::White => crate::rules::Color::White,
        }
    }
}

/// What a remote player may ask, always for the side it plays (the host decides which).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub(crate) enum RemoteCommand {
    /// Play the move this text names (`11-15`, `15x22`).
    Play {
        /// The move as typed.
        text: String,
        /// The player's time left in milliseconds as its board showed it when the move
        /// was made: a host that was stopped meanwhile charges the move by it, within
        /// its stop, not until it read the move (an older board sends none).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_ms: Option<u64>,
    },
    /// Offer a draw.
    OfferDraw,
    /// Accept the draw offered.
    AcceptDraw,
    /// Decline the draw offered.
    DeclineDraw,
    /// Claim a draw (repetition or forty moves).
    ClaimDraw,
    /// Resign.
    Resign,
    /// Ask to take back the last move (the other player answers).
    AskUndo,
    /// Answer the other player's request to take back a move.
    AnswerUndo {
        /// Whether it is agreed.
        agreed: bool,
    },
    /// The player leaves for now: the host keeps the game (adjourned, its clocks
    /// stopped) for a later `join`.
    Adjourn,
}

/// A message from a player or spectator to the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub(crate) enum ClientMessage {
    /// The first message, sealed after the key exchange proved the game's code: who
    /// connects.
    Hello {
        /// A player or a spectator.
        role: Role,
        /// The player's name, for the record.
        name: Option<String>,
        /// The token a welcome gave this player (or spectator) before: a new connection
        /// with it takes the seat (or the place) over from its own stale one.
        #[serde(default)]
        seat: Option<String>,
    },
    /// Something the player asks of the game.
    Command {
        /// What it asks.
        command: RemoteCommand,
    },
    /// A line for the chat.
    Chat {
        /// The line.
        text: String,
    },
    /// Still there (the host answers [`HostMessage::Pong`]).
    Ping,
}

/// The game as the host holds it, for a board at the other end.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct GameState {
    /// The game's record so far, as PDN (its moves, names, result, clocks as `%clk`).
    pub(crate) pdn: String,
    /// Each side's time left in milliseconds (Black's, White's), in a timed game.
    pub(crate) clocks: Option<[u64; 2]>,
    /// The side whose clock runs.
    pub(crate) running: Option<Side>,
    /// A pending draw offer, by this side.
    pub(crate) draw_offer: Option<Side>,
    /// A pending request to take back the last move, by this side.
    pub(crate) undo_asked: Option<Side>,
    /// Whether the player who joined is connected (while not, the clocks stop and the
    /// game waits).
    pub(crate) player_connected: bool,
    /// How many spectators watch.
    pub(crate) spectators: u32,
    /// The side the player who joined plays (in a match it changes from game to game).
    pub(crate) joiner_side: Side,
    /// The host's number of this game in its session (a new game or a match's next
    /// game counts up): a joiner keeps each game's copy apart.
    #[serde(default)]
    pub(crate) game_number: u64,
}

/// What happened in the game, as the host tells its boards: values, never words. A board
/// checks them against its copy of the game (which the host's state, told first, brought
/// up to date) and says them in its own words; one that does not fit is not shown.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub(crate) enum Told {
    /// A move was played: the game's last move now.
    Played {
        /// The side that moved.
        side: Side,
        /// The move, every landing square named (`9-14`, `1x10x19`).
        squares: String,
        /// The move was played from a position under review, which it ended.
        #[serde(default)]
        review_over: bool,
    },
    /// Moves were taken back, oldest first: the first is played from the position now.
    TookBack {
        /// The moves, every landing square named.
        moves: Vec<String>,
    },
    /// A declared ending (resignation, draw) was taken back.
    TookBackEnding,
    /// This side resigned.
    Resigned {
        /// The side.
        side: Side,
    },
    /// This side offered a draw.
    DrawOffered {
        /// The side.
        side: Side,
    },
    /// This side accepted the draw offered.
    DrawAccepted {
        /// The side.
        side: Side,
    },
    /// This side declined the draw offered.
    DrawDeclined {
        /// The side.
        side: Side,
    },
    /// This side claimed a draw (the game's result says why).
    DrawClaimed {
        /// The side.
        side: Side,
    },
    /// This side's flag fell (the game's result says how it ended).
    FlagFell {
        /// The side whose time is up.
        side: Side,
    },
    /// The same two play a new game.
    NewGame,
    /// A match's next game began.
    NextGame {
        /// Its number, from 1.
        number: u32,
        /// The match's games.
        games: u32,
        /// Who plays Black.
        black: String,
        /// Who plays White.
        white: String,
        /// The number of the ballot it starts from, in the ACF deck.
        ballot: Option<u32>,
    },
    /// This side refused to take back the other's last move.
    UndoRefused {
        /// The side.
        side: Side,
    },
    /// The player of this side adjourned the game.
    Adjourned {
        /// The side.
        side: Side,
    },
    /// The player of this side left the table, the game over (or no move of the
    /// players' own played: nothing kept to adjourn).
    LeftTable {
        /// The side.
        side: Side,
    },
    /// The host steps through the game: it shows the position after `shown` of `total`
    /// moves.
    Review {
        /// The moves shown.
        shown: u32,
        /// The moves in all.
        total: u32,
    },
    /// The host's review ended: play goes on from the position shown.
    ReviewOver,
}

/// A message from the host.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "type")]
pub(crate) enum HostMessage {
    /// The connection is taken: the side the player plays (none for a spectator), and
    /// the game as it stands.
    Welcome {
        /// The protocol version the host speaks.
        version: u32,
        /// The player's side.
        side: Option<Side>,
        /// The player's seat token, or a spectator's token for its place among those
        /// watching, to greet with on connecting again (an older host gives a
        /// spectator none).
        #[serde(default)]
        seat: Option<String>,
        /// The game.
        state: GameState,
        /// The chat so far at this table, oldest first: (who, what).
        #[serde(default)]
        chat: Vec<(String, String)>,
    },
    /// The connection is refused, and why (a wrong code, another version, a full
    /// table): nothing of the game is told.
    Refused {
        /// Why.
        reason: String,
        /// Whether the same greeting would be refused again (a wrong code, another
        /// version); otherwise it may pass later (the seat is taken, the table full,
        /// a wait after wrong codes).
        #[serde(default)]
        lasting: bool,
    },
    /// The game changed: it stands so now.
    State {
        /// The game.
        state: GameState,
    },
    /// What happened (the session's news, as values).
    News {
        /// What.
        news: Told,
    },
    /// A request was refused, and why (not this side's turn, an illegal move).
    Rejected {
        /// Why.
        reason: String,
    },
    /// A chat line from a player.
    Chat {
        /// Who said it.
        from: String,
        /// The line.
        text: String,
    },
    /// The answer to [`ClientMessage::Ping`].
    Pong,
    /// The host ends the connection, and why.
    Bye {
        /// Why.
        reason: String,
    },
}

/// Why a peer's message could not be taken.
#[derive(Debug)]
pub(crate) enum ProtocolError {
    /// The connection failed.
    Io(io::Error),
    /// The connection closed.
    Closed,
    /// A line or frame over [`MAX_LINE`] bytes.
    TooLong,
    /// A plain JSON line where a sealed frame was due: an older checkers, or another
    /// program.
    Plain,
    /// A frame that does not open: tampered with, replayed, out of order.
    Tampered,
    /// The other end's first frame does not prove the game's code (its code is
    /// another, or it is not the end it claims to be).
    Unproven,
    /// The line is not one of the messages: what the parser said.
    Malformed(String),
    /// The peer speaks another version of the protocol.
    Version(u32),
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Io(e) => write!(f, "the connection failed: {e}"),
            ProtocolError::Closed => write!(f, "the connection closed"),
            ProtocolError::TooLong => {
                write!(f, "a message over {} KB", MAX_LINE / 1024)
            }
            ProtocolError::Plain => write!(
                f,
                "a plain message where a sealed one was due (an older checkers, or not \
                 checkers)"
            ),
            ProtocolError::Tampered => write!(
                f,
                "a message that does not open with the line's key (tampered with, replayed \
                 or out of order)"
            ),
            ProtocolError::Unproven => write!(f, "the other end did not prove the game's code"),
            ProtocolError::Malformed(why) => write!(
                f,
                "a message that is not one of this program's: {}",
                crate::text::printable(why, 200)
            ),
            ProtocolError::Version(v) => write!(
                f,
                "the other end speaks version {v} of the protocol, this program {VERSION}: \
                 use the same version of checkers at both ends"
            ),
        }
    }
}

/// The connection's failure is in the message, so it is no source as well.
impl std::error::Error for ProtocolError {}

/// Reads the next message from `reader`: one line of at most [`MAX_LINE`] bytes (a
/// longer one is refused without being kept in memory), parsed as a `T`.
pub(crate) fn read_message<T: DeserializeOwned, R: BufRead>(
    reader: &mut R,
) -> Result<T, ProtocolError> {
    read_message_weighed(reader).map(|(message, _)| message)
}

/// Reads the next message as [`read_message`] does, with the length of its line in
/// bytes: what a message parsed from it may weigh in memory is a small multiple of that.
pub(crate) fn read_message_weighed<T: DeserializeOwned, R: BufRead>(
    reader: &mut R,
) -> Result<(T, usize), ProtocolError> {
    let mut line = Vec::new();
    let read = <&mut R as Read>::take(reader, MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut line)
        .map_err(ProtocolError::Io)?;
    if read == 0 {
        return Err(ProtocolError::Closed);
    }
    if line.last() != Some(&b'\n') {
        return Err(if line.len() > MAX_LINE {
            ProtocolError::TooLong
        } else {
            ProtocolError::Closed
        });
    }
    let message =
        serde_json::from_slice(&line).map_err(|e| ProtocolError::Malformed(e.to_string()))?;
    Ok((message, line.len()))
}

/// Writes `message` as one line and flushes it.
pub(crate) fn write_message<T: Serialize>(writer: &mut impl Write, message: &T) -> io::Result<()> {
    let mut line = serde_json::to_vec(message).map_err(io::Error::other)?;
    line.push(b'\n');
    writer.write_all(&line)?;
    writer.flush()
}

/// Whether a peer's version (its opening's, the host's) is this program's.
pub(crate) fn check_version(version: u32) -> Result<(), ProtocolError> {
    if version == VERSION {
        Ok(())
    } else {
        Err(ProtocolError::Version(version))
    }
}

/// What a host tells a joiner of version `theirs` (an older one has sent its code in
/// clear by then; it is refused before the code is looked at).
pub(crate) fn version_refusal(theirs: u32) -> String {
    format!(
        "this host speaks version {VERSION} of the protocol, this program version {theirs}: \
         update checkers so that both ends run the same version"
    )
}

/// The version a host of version 3 or before speaks, read from its refusal of this
/// program's opening ("the other end speaks version 4 of the protocol, this program
/// 3: ..."), if that is what the refusal says.
pub(crate) fn older_host(reason: &str) -> Option<u32> {
    let rest = reason.strip_prefix(&format!(
        "the other end speaks version {VERSION} of the protocol, this program "
    ))?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

/// Whether `given` is the game's `code`, compared in time that does not depend on where
/// they differ (a guesser learns nothing from how long a refusal takes).
pub(crate) fn code_matches(given: &str, code: &str) -> bool {
    let (a, b) = (given.as_bytes(), code.as_bytes());
    let mut differ = u8::from(a.len() != b.len());
    for i in 0..a.len().max(b.len()) {
        differ |= a.get(i).copied().unwrap_or(0) ^ b.get(i).copied().unwrap_or(0);
    }
    differ == 0
}

/// A chat line as it is passed on: printable, and at most [`MAX_CHAT_CHARS`].
pub(crate) fn chat_line(text: &str) -> String {
    let line: String = text.chars().take(MAX_CHAT_CHARS).collect();
    crate::text::printable(line.trim(), MAX_CHAT_CHARS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn lines(messages: &[&str]) -> Cursor<Vec<u8>> {
        Cursor::new(messages.join("\n").into_bytes())
    }

    #[test]
    fn messages_go_as_one_json_line_each_and_come_back_the_same() {
        let hello = ClientMessage::Hello {
            role: Role::Player,
            name: Some("Ann".into()),
            seat: None,
        };
        let play = ClientMessage::Command {
            command: RemoteCommand::Play {
                text: "11-15".into(),
                left_ms: Some(299_000),
            },
        };
        let mut wire = Vec::new();
        write_message(&mut wire, &hello).unwrap();
        write_message(&mut wire, &play).unwrap();
        let text = String::from_utf8(wire.clone()).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(
            text.starts_with(r#"{"type":"hello","role":"player","name":"Ann""#),
            "{text}"
        );
        let mut reader = Cursor::new(wire);
        assert_eq!(
            read_message::<ClientMessage, _>(&mut reader).unwrap(),
            hello
        );
        assert_eq!(read_message::<ClientMessage, _>(&mut reader).unwrap(), play);
        assert!(matches!(
            read_message::<ClientMessage, _>(&mut reader),
            Err(ProtocolError::Closed)
        ));
    }

    #[test]
    fn garbage_unknown_messages_and_cut_lines_are_refused_with_a_reason() {
        let mut reader = lines(&[
            "not json",
            r#"{"type":"format_disk"}"#,
            r#"{"type":"ping"}"#,
        ]);
        let e = read_message::<ClientMessage, _>(&mut reader).unwrap_err();
        assert!(matches!(e, ProtocolError::Malformed(_)), "{e}");
        let e = read_message::<ClientMessage, _>(&mut reader).unwrap_err();
        assert!(e.to_string().contains("format_disk"), "{e}");
        // The last line has no end: the connection closed in the middle of it.
        assert!(matches!(
            read_message::<ClientMessage, _>(&mut reader),
            Err(ProtocolError::Closed)
        ));
        let mut whole = lines(&[r#"{"type":"ping"}"#, ""]);
        assert_eq!(
            read_message::<ClientMessage, _>(&mut whole).unwrap(),
            ClientMessage::Ping
        );
    }

    #[test]
    fn a_line_over_the_limit_is_refused_without_keeping_it() {
        let mut long = vec![b'x'; 10 * MAX_LINE];
        long.push(b'\n');
        let mut reader = Cursor::new(long);
        assert!(matches!(
            read_message::<ClientMessage, _>(&mut reader),
            Err(ProtocolError::TooLong)
        ));
        // At most the limit was read of it.
        assert!(reader.position() as usize <= MAX_LINE + 1);
    }

    #[test]
    fn news_goes_as_values_with_no_words() {
        let played = HostMessage::News {
            news: Told::Played {
                side: Side::Black,
                squares: "11-15".into(),
                review_over: false,
            },
        };
        let mut wire = Vec::new();
        write_message(&mut wire, &played).unwrap();
        assert_eq!(
            String::from_utf8(wire.clone()).unwrap(),
            "{\"type\":\"news\",\"news\":{\"kind\":\"played\",\"side\":\"black\",\
             \"squares\":\"11-15\",\"review_over\":false}}\n"
        );
        assert_eq!(
            read_message::<HostMessage, _>(&mut Cursor::new(wire)).unwrap(),
            played
        );
        // Version 2's news in words is not one of this version's messages.
        let mut old = lines(&[r#"{"type":"news","text":"Black played 11-15"}"#, ""]);
        let e = read_message::<HostMessage, _>(&mut old).unwrap_err();
        assert!(matches!(e, ProtocolError::Malformed(_)), "{e}");
    }

    #[test]
    fn an_old_peer_is_told_the_hosts_version_and_an_old_hosts_refusal_is_read() {
        assert_eq!(
            version_refusal(3),
            "this host speaks version 4 of the protocol, this program version 3: \
             update checkers so that both ends run the same version"
        );
        // What a host of version 3 answers this program's opening.
        let old = "the other end speaks version 4 of the protocol, this program 3: \
                   use the same version of checkers at both ends";
        assert_eq!(older_host(old), Some(3));
        assert_eq!(older_host("wrong code"), None);
    }

    #[test]
    fn versions_codes_and_chat_lines_are_checked() {
        assert!(check_version(VERSION).is_ok());
        let e = check_version(7).unwrap_err();
        assert!(e.to_string().contains("version 7"), "{e}");
        assert!(code_matches("maple", "maple"));
        for wrong in ["mapl", "maples", "Maple", ""] {
            assert!(!code_matches(wrong, "maple"), "{wrong}");
        }
        assert_eq!(chat_line(" gg \u{1b}]0;x\u{7} "), "gg ?]0;x?");
        assert_eq!(chat_line(&"a".repeat(1000)).chars().count(), MAX_CHAT_CHARS);
    }
}
