//! What a request did, as a value: the session and the runtime answer with [`News`],
//! whose `Display` gives the words both front ends show. A front end that needs to know
//! what happened matches on the value; none parses the words.

use super::computer::DrawAnswer;
use super::review::Reviewed;
use super::{Player, computer_name, score_with_size};
use crate::engine::egdb::Verdict;
use crate::engine::{Level, Score};
use crate::rules::{Color, Move, Outcome, Position};
use std::fmt;
use std::time::Duration;

/// A move with the position it was played from: its side is that position's turn. Its
/// words give every landing square (`24x15x6`), as the move list does, so that a
/// player can follow a capture's route square by square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MoveFrom {
    /// The position before the move.
    pub(crate) from: Position,
    /// The move.
    pub(crate) m: Move,
}

impl MoveFrom {
    /// The side that made the move.
    pub(crate) fn color(&self) -> Color {
        self.from.turn()
    }
}

impl fmt::Display for MoveFrom {
    /// The move with every landing square: "11-15", "15x22", "24x15x6".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.m.fmt(f)
    }
}

/// What the computer did on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ComputerTurn {
    /// It played this move.
    Played(MoveFrom),
    /// It claimed a draw.
    ClaimedDraw,
    /// It resigned.
    Resigned,
}

/// What a hint is based on, said after its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum HintBasis {
    /// The endgame databases: their verdict for the side to move (said as "Black wins
    /// in 12 moves").
    Database(Verdict),
    /// It is the only legal move; what the search through it found, if it got that far.
    OnlyMove(Option<Searched>),
    /// The opening book: how often its move was played in the tournament games (none:
    /// a deep search's choice).
    Book(u32),
    /// A search.
    Search(Searched),
    /// A search stopped before its first depth: nothing to add.
    Nothing,
}

/// What a hint's search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Searched {
    /// The position searched: its side to move is the side the score is for.
    pub(crate) from: Position,
    /// The score, for the side to move.
    pub(crate) score: Score,
    /// Plies searched.
    pub(crate) depth: u32,
    /// The engine's best line from the position, the move first (shown when it has
    /// more than the move itself).
    pub(crate) line: Vec<Move>,
}

impl Searched {
    /// The score in words, with its size: "Black is slightly ahead by 0.3 men".
    pub(crate) fn verdict(&self) -> String {
        score_with_size(self.from.turn(), self.score)
    }
}

impl fmt::Display for Searched {
    /// "searched 12 plies: Black is ahead by 0.8 men; best line 11-15 23-19 8-11", a
    /// capture with its route (`24x15x6`), as the hint's move is said.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plies = if self.depth == 1 { "ply" } else { "plies" };
        write!(f, "searched {} {plies}: {}", self.depth, self.verdict())?;
        if self.line.len() > 1 {
            write!(f, "; best line {}", crate::engine::route_line(&self.line))?;
        }
        Ok(())
    }
}

/// What a request did (or what happened by itself: the computer's move, a flag fall).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum News {
    /// A person played a move.
    Played {
        /// The side that moved.
        color: Color,
        /// The move, said with every landing square (`24x15x6`), as the move list
        /// says it.
        m: Move,
        /// The move crowned a man.
        crowned: bool,
        /// The move was played from a position under review, which it ended.
        review_over: bool,
        /// How the move is written, where it was typed with the wrong separator (`9x14`
        /// for a step): said after the move.
        note: Option<String>,
    },
    /// The computer's turn: its move, claim or resignation.
    Computer {
        /// The side it plays.
        color: Color,
        /// Its level.
        level: Level,
        /// What it did.
        turn: ComputerTurn,
        /// The move it played crowned a man.
        crowned: bool,
        /// The game between two computers reached this many plies and was adjudicated
        /// a draw.
        adjudicated: Option<usize>,
    },
    /// Moves taken back, in the order they were played.
    TookBack(Vec<MoveFrom>),
    /// A declared ending (resignation, draw) was taken back.
    TookBackEnding,
    /// A declared ending taken back was put back.
    ReplayedEnding,
    /// Moves played again, in order.
    Replayed(Vec<MoveFrom>),
    /// This side resigned.
    Resigned(Color),
    /// This side offered a draw, which waits for the other's answer.
    DrawOffered(Color),
    /// The computer (playing `color` at `level`) answered a draw offer at once.
    DrawAnswered {
        /// The computer's side.
        color: Color,
        /// Its level.
        level: Level,
        /// Its answer.
        answer: DrawAnswer,
    },
    /// This side accepted the draw offered.
    DrawAccepted(Color),
    /// This side declined the draw offered.
    DrawDeclined(Color),
    /// This side claimed a draw (repetition or forty moves).
    DrawClaimed(Color),
    /// A flag fell and ended the game.
    FlagFell {
        /// Whose time is up.
        color: Color,
        /// The result.
        outcome: Outcome,
    },
    /// A side's time is nearly up.
    TimeLow {
        /// The side whose clock runs.
        color: Color,
        /// Its time left.
        left: Duration,
        /// Whether that is the move timer's time for this move.
        this_move: bool,
    },
    /// A side was handed to the computer or to a person.
    Seated {
        /// The side.
        color: Color,
        /// Who plays it now.
        player: Player,
        /// Two computers now play a game that has reached this many plies: adjudicated
        /// a draw.
        adjudicated: Option<usize>,
    },
    /// The computer plays at this level now.
    LevelChanged(Level),
    /// The computer plays at this level when play goes on; the finished game (or the
    /// record under review) keeps the level it was played at.
    LevelWhenPlayGoesOn(Level),
    /// A match's next game began.
    NextGame {
        /// Its number, from 1.
        number: usize,
        /// The match's games.
        games: usize,
        /// Who plays Black.
        black: String,
        /// Who plays White.
        white: String,
        /// The number of the ballot it starts from, in the ACF deck.
        ballot: Option<u32>,
    },
    /// A new game from the start.
    NewGame,
    /// A new game from a position set up: this side to move.
    SetUp(Color),
    /// Both clocks stopped.
    Paused,
    /// The clocks run again.
    ClocksRun,
    /// A hint for this side is being looked for.
    LookingForHint(Color),
    /// A hint: the move for this side, and what it is based on.
    Hint {
        /// The side to move.
        color: Color,
        /// The move suggested, said with every landing square (`24x15x6`), as the
        /// move list says it.
        m: Move,
        /// Why it is suggested.
        basis: HintBasis,
    },
    /// The computer (playing `color` at `level`) is told to move now.
    MovingNow {
        /// The computer's side.
        color: Color,
        /// Its level.
        level: Level,
    },
    /// The hint search is told to end now.
    HintNow,
    /// Where the review of a record stands, or what it opened.
    Review(Reviewed),
    /// A player asked the other (`to`), across the network, to agree to take back
    /// `moves` (in the order played; none for a declared ending): the other side
    /// answers.
    UndoAsked {
        /// The side asked.
        to: Color,
        /// What goes back if they agree (see
        /// [`Session::asked_take_back`](super::Session::asked_take_back)).
        moves: Vec<MoveFrom>,
    },
    /// This side refused, across the network, to take back the other's last move.
    UndoRefused(Color),
    /// The player of this side, across the network, adjourned the game (it goes on
    /// when they join again).
    Adjourned(Color),
    /// The player of this side, across the network, left the table once the game was
    /// over, or before any move of the players' own (no game kept to adjourn).
    LeftTable(Color),
    /// A request went to the terminal holding the game, which answers with what it did.
    Sent,
    /// This move was typed while the line to the host was down: it is kept, and sent
    /// once the line is back (if the game still stands where it was typed).
    KeptForLine(String),
    /// Done, with nothing to say (a save asked for is told when done).
    Nothing,
}

impl News {
    /// The move a person played, if this is the news of one.
    pub(crate) fn played_move(&self) -> Option<Move> {
        match self {
            News::Played { m, .. } => Some(*m),
            _ => None,
        }
    }

    /// Whether the words of this news end with the move's crowning ("White played
    /// 19x10x1, crowned"): a front end may say there what a king is.
    pub(crate) fn ends_with_crowning(&self) -> bool {
        match self {
            News::Played {
                crowned,
                review_over,
                ..
            } => *crowned && !*review_over,
            News::Computer {
                turn: ComputerTurn::Played(_),
                crowned,
                adjudicated,
                ..
            } => *crowned && adjudicated.is_none(),
            _ => false,
        }
    }
}

impl fmt::Display for News {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            News::Played {
                color,
                m,
                crowned,
                review_over,
                note,
            } => {
                write!(f, "{color} played {m}")?;
                if *crowned {
                    write!(f, ", crowned")?;
                }
                if *review_over {
                    write!(f, ": review over, the game goes on from here")?;
                }
                if let Some(note) = note {
                    write!(f, " ({note})")?;
                }
                Ok(())
            }
            News::Computer {
                color,
                level,
                turn,
                crowned,
                adjudicated,
            } => {
                let name = computer_name(*color, *level);
                match turn {
                    ComputerTurn::Played(m) if *crowned => write!(f, "{name} played {m}, crowned")?,
                    ComputerTurn::Played(m) => write!(f, "{name} played {m}")?,
                    ComputerTurn::ClaimedDraw => write!(f, "{name} claims a draw")?,
                    ComputerTurn::Resigned => write!(f, "{name} resigns")?,
                }
                adjudication(f, *adjudicated)
            }
            News::TookBack(moves) => turn_text(f, "Took back", moves),
            News::TookBackEnding => write!(f, "Took back the end of the game: play on"),
            News::ReplayedEnding => write!(f, "Put back the end of the game"),
            News::Replayed(moves) => turn_text(f, "Replayed", moves),
            News::Resigned(color) => write!(f, "{color} resigns"),
            News::DrawOffered(by) => write!(f, "{by} offers a draw; {}, accept or decline", !*by),
            News::DrawAnswered {
                color,
                level,
                answer,
            } => {
                let name = computer_name(*color, *level);
                match answer {
                    DrawAnswer::Accept => write!(f, "{name} accepts the draw"),
                    DrawAnswer::DeclineBetter => {
                        write!(f, "{name} declines the draw: it thinks it stands better")
                    }
                    DrawAnswer::DeclineEarly => write!(
                        f,
                        "{name} declines the draw: the game is even, with much still to play"
                    ),
                }
            }
            News::DrawAccepted(color) => write!(f, "{color} accepts the draw"),
            News::DrawDeclined(color) => {
                write!(f, "{color} declines {}'s draw offer: play on", !*color)
            }
            News::DrawClaimed(color) => write!(f, "{color} claims a draw"),
            News::FlagFell { color, outcome } => write!(f, "{color}'s time is up. {outcome}."),
            News::TimeLow {
                color,
                left,
                this_move,
            } => {
                if *left > super::clock::WARNING {
                    write!(f, "{color}: a minute left")?;
                } else {
                    write!(f, "{color}: {} seconds left", left.as_secs_f64().ceil())?;
                }
                if *this_move {
                    write!(f, " for this move")?;
                }
                Ok(())
            }
            News::Seated {
                color,
                player,
                adjudicated,
            } => {
                match player {
                    Player::Computer(level) => {
                        write!(f, "The computer ({level}) plays {color} now")?
                    }
                    Player::Person => write!(f, "A person plays {color} now")?,
                    Player::Remote => write!(f, "A person across the network plays {color} now")?,
                }
                adjudication(f, *adjudicated)
            }
            News::LevelChanged(level) => write!(f, "The computer plays at {level} now"),
            News::LevelWhenPlayGoesOn(level) => write!(
                f,
                "The computer plays at {level} when play goes on; this game keeps its level"
            ),
            News::NextGame {
                number,
                games,
                black,
                white,
                ballot,
            } => {
                let round = super::matches::Match::round_text(number.saturating_sub(1));
                write!(
                    f,
                    "Game {number} of {games} (round {round}): {black} plays Black, {white} White"
                )?;
                // The deck is this program's own: a number not in it has no words.
                if let Some(opening) = ballot.and_then(|n| super::ballot::ballot(n, true).ok()) {
                    write!(f, ". {}", super::ballot::ballot_text(&opening))?;
                }
                Ok(())
            }
            News::NewGame => write!(f, "New game"),
            News::SetUp(turn) => write!(f, "A new game from the position set up: {turn} to move"),
            News::Paused => write!(f, "Paused: both clocks stopped"),
            News::ClocksRun => write!(f, "The clocks run again"),
            News::LookingForHint(color) => write!(f, "Looking for a hint for {color}..."),
            News::Hint { color, m, basis } => {
                write!(f, "Hint for {color} (not played): {m}")?;
                match basis {
                    HintBasis::Database(verdict) => {
                        write!(f, " (endgame database: {})", verdict.describe(*color))?
                    }
                    HintBasis::OnlyMove(None) => write!(f, " (the only legal move)")?,
                    HintBasis::OnlyMove(Some(searched)) => {
                        write!(f, " (the only legal move; {searched})")?
                    }
                    HintBasis::Book(times) => {
                        write!(f, " (book: {})", crate::engine::book::reason_words(*times))?
                    }
                    HintBasis::Search(searched) => write!(f, " ({searched})")?,
                    HintBasis::Nothing => {}
                }
                Ok(())
            }
            News::MovingNow { color, level } => {
                write!(f, "{} moves now", computer_name(*color, *level))
            }
            News::HintNow => write!(f, "The hint comes now"),
            News::Review(reviewed) => write!(f, "{reviewed}"),
            News::Nothing | News::Sent => Ok(()),
            News::KeptForLine(text) => write!(
                f,
                "Your line to the host is down: your move {text} is kept, and sent once you \
                 are connected again"
            ),
            News::UndoAsked { to, moves } => write!(
                f,
                "Asked {to} to agree to take back {}",
                take_back_words(moves, !*to)
            ),
            News::UndoRefused(color) => {
                write!(f, "{color} refused the take-back: the move stands")
            }
            News::Adjourned(color) => write!(
                f,
                "{color} adjourned the game: it is saved, and goes on when they join again"
            ),
            News::LeftTable(color) => write!(f, "{color} left the table"),
        }
    }
}

/// ". No result after 300 plies: adjudicated a draw", when it was.
fn adjudication(f: &mut fmt::Formatter<'_>, plies: Option<usize>) -> fmt::Result {
    match plies {
        Some(plies) => write!(f, ". No result after {plies} plies: adjudicated a draw"),
        None => Ok(()),
    }
}

/// What a take-back of `moves` (in the order played) takes back, said to the player
/// of `mine`: "your move 22-18 and their reply 9-14", "their move 9-14"; "the end of
/// the game" for none (a declared ending goes back alone).
pub(crate) fn take_back_words(moves: &[MoveFrom], mine: Color) -> String {
    let whose = |m: &MoveFrom| if m.color() == mine { "your" } else { "their" };
    let mut moves = moves.iter();
    let Some(first) = moves.next() else {
        return "the end of the game".to_string();
    };
    let mut words = format!("{} move {first}", whose(first));
    for m in moves {
        words.push_str(&format!(" and {} reply {m}", whose(m)));
    }
    words
}

/// "Took back Black 11-15" or "Took back Black 11-15 and White's reply 23-19": `moves`
/// in the order they were played.
fn turn_text(f: &mut fmt::Formatter<'_>, verb: &str, moves: &[MoveFrom]) -> fmt::Result {
    write!(f, "{verb}")?;
    let mut moves = moves.iter();
    if let Some(m) = moves.next() {
        write!(f, " {} {m}", m.color())?;
    }
    for m in moves {
        write!(f, " and {}'s reply {m}", m.color())?;
    }
    Ok(())
}
