//! Why the session refuses a request.

use super::computer_name;
use crate::engine::Level;
use crate::game::{DeclareError, PlayError};
use crate::rules::Color;
use std::fmt;

/// Why the session refused a request. The game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SessionError {
    /// The move was refused.
    Play(PlayError),
    /// An ending or an offer was refused (the game is over, no claim, no offer).
    Declare(DeclareError),
    /// No move or ending to take back.
    NothingToUndo,
    /// Against the computer, only its first move has been played: undo takes back a
    /// person's move with the reply, and the computer's alone would be played again.
    NoMoveOfYours,
    /// No move taken back to replay.
    NothingToRedo,
    /// Two people on the clock, or after a draw they agreed: a take-back needs both
    /// (see [`Session::undo_agreed`](super::Session::undo_agreed)).
    UndoNeedsConsent,
    /// A match's next game is asked for while this one is still played.
    MatchGameInPlay,
    /// A match's finished game counts: its ending is not taken back.
    MatchGameCounts,
    /// The match is over: no more games.
    MatchOver,
    /// A match's next game is asked for, and this is no match.
    NoMatch,
    /// No clock runs: the game is not timed (or it is over).
    NoClock,
    /// The computer's level is at the end of the range already.
    LevelLimit(Level),
    /// No record is being stepped through.
    NotReviewing,
    /// The record under review is shown at its end, where its game is over: how it
    /// ended ("Black wins: White resigned"), as the panel says it.
    ReviewOver(String),
    /// Another game of the record file cannot be opened: why.
    NoGame(String),
    /// The computer is not thinking: there is nothing to hurry.
    NotThinking,
    /// Assistance is off: the engine gives no hint or view of the game.
    NoAssistance,
    /// The computer plays this side: a person cannot resign or answer for it.
    ComputersSide {
        /// The side asked for.
        color: Color,
        /// The computer's level there.
        level: Level,
    },
    /// A person at another terminal plays this side: this terminal does not act for it.
    RemoteSide(Color),
    /// Not in a game across the network (a new game, a set-up, the computer's seats,
    /// its level, a pause): both players agree on those at one terminal, not here.
    NotAcrossTheNetwork,
    /// This terminal watches the game: it does not act in it.
    Spectating,
    /// The other player is not connected: the game waits for them.
    OtherPlayerAway,
    /// This terminal's own line to a LAN host is down: it is tried again, and
    /// nothing asked reaches the host until it is back.
    OwnLineDown,
    /// This terminal's line to the server is gone: it is not tried again.
    ServerGone,
    /// Across the network, a match's next game is the host's to start.
    HostStartsNextGame,
    /// Across the network, a new game after one ends is the host's to start.
    HostStartsNewGame,
    /// A new game across the network waits for this one to end.
    GameInPlay,
    /// A server's games have no take-backs.
    NoTakeBacksOnServer,
    /// The computer plays the side to move: a person cannot move or claim for it.
    ComputersTurn {
        /// The side to move.
        color: Color,
        /// The computer's level there.
        level: Level,
    },
}

impl fmt::Display for SessionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SessionError::Play(e) => e.fmt(f),
            SessionError::Declare(e) => e.fmt(f),
            SessionError::NothingToUndo => write!(f, "nothing to take back"),
            SessionError::NoMoveOfYours => write!(
                f,
                "no move of yours to take back: undo takes back your move and the computer's \
                 reply"
            ),
            SessionError::NothingToRedo => write!(f, "nothing to replay"),
            SessionError::UndoNeedsConsent => write!(
                f,
                "on the clock, or after an agreed draw, a take-back needs both players' agreement"
            ),
            SessionError::MatchGameInPlay => write!(
                f,
                "this game is still being played: a match game is played out (resign, or \
                 agree a draw) before the next one"
            ),
            SessionError::MatchGameCounts => write!(
                f,
                "a finished match game counts in the score: it is not taken back"
            ),
            SessionError::MatchOver => write!(f, "the match is over"),
            SessionError::ReviewOver(told) => write!(f, "the game is over ({told})"),
            SessionError::NoMatch => write!(f, "this is not a match (--match N plays one)"),
            SessionError::NoClock => {
                write!(f, "no clock runs (--clock or --move-timer times a game)")
            }
            SessionError::LevelLimit(level) => write!(
                f,
                "the computer is at {level} already: levels run from 1 to 10"
            ),
            SessionError::NotReviewing => write!(f, "no record is being reviewed"),
            SessionError::NoGame(why) => write!(f, "{why}"),
            SessionError::NotThinking => {
                write!(f, "the computer is not thinking: nothing to hurry")
            }
            SessionError::NoAssistance => write!(
                f,
                "assistance is off in this game: no hints or engine view (--assist on allows them)"
            ),
            SessionError::ComputersSide { color, level } => write!(
                f,
                "{} plays {color}: a person acts only for a side a person plays",
                computer_name(*color, *level)
            ),
            SessionError::RemoteSide(color) => write!(
                f,
                "{color} is played at the other terminal: you act only for your own side"
            ),
            SessionError::NotAcrossTheNetwork => {
                write!(f, "not in a game across the network")
            }
            SessionError::HostStartsNewGame => write!(
                f,
                "the host starts a new game once this one is over (the colours change)"
            ),
            SessionError::GameInPlay => write!(
                f,
                "a new game across the network starts once this one is over (resign, or \
                 offer a draw)"
            ),
            SessionError::HostStartsNextGame => write!(
                f,
                "the host starts the match's next game, when both players are ready"
            ),
            SessionError::NoTakeBacksOnServer => {
                write!(
                    f,
                    "a server's games have no take-backs: a move played stands"
                )
            }
            SessionError::Spectating => write!(f, "you are watching: a spectator does not act"),
            SessionError::OtherPlayerAway => write!(
                f,
                "the other player is not connected: the game waits for them"
            ),
            SessionError::OwnLineDown => write!(
                f,
                "your line to the host is down, so nothing reaches it: the line is tried \
                 again, and you move once you are connected again"
            ),
            SessionError::ServerGone => write!(
                f,
                "your line to the server is gone, so nothing reaches it: q leaves; log in \
                 again with checkers online to go back to the game"
            ),
            SessionError::ComputersTurn { color, level } => write!(
                f,
                "{} plays {color}, and it is {color}'s move",
                computer_name(*color, *level)
            ),
        }
    }
}

/// A refused move or ending shows the inner error's message, so it has no source.
impl std::error::Error for SessionError {}

impl From<PlayError> for SessionError {
    fn from(e: PlayError) -> SessionError {
        SessionError::Play(e)
    }
}

impl From<DeclareError> for SessionError {
    fn from(e: DeclareError) -> SessionError {
        SessionError::Declare(e)
    }
}
