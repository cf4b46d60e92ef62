//! Computer players inside a game, shared by both front ends: who plays each side, how
//! long a level thinks, and what a computer player does with its search's result (play
//! the move, claim a draw, resign), as [`engine::decide`](crate::engine::decide) says.

use crate::engine::{Decision, Level, SearchRequest, SearchResult, decide};
use crate::game::Game;
use crate::rules::draw::claim_for_move;
use crate::rules::{Color, Outcome};
use std::time::Duration;

/// Who plays a side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, clap::ValueEnum)]
pub enum PlayerKind {
    /// A person at the keyboard.
    #[default]
    Human,
    /// The computer.
    Cpu,
}

/// Who plays each side.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Sides {
    /// Black's player.
    pub black: PlayerKind,
    /// White's player.
    pub white: PlayerKind,
}

impl Sides {
    /// Who plays `color`.
    pub fn of(self, color: Color) -> PlayerKind {
        match color {
            Color::Black => self.black,
            Color::White => self.white,
        }
    }

    /// Whether the computer plays `color`.
    pub fn is_cpu(self, color: Color) -> bool {
        self.of(color) == PlayerKind::Cpu
    }

    /// Hands `color` to the computer, or back to a person.
    pub fn toggle(&mut self, color: Color) {
        let side = match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        };
        *side = match side {
            PlayerKind::Human => PlayerKind::Cpu,
            PlayerKind::Cpu => PlayerKind::Human,
        };
    }

    /// Whether the computer plays both sides (it then brings the game to an end by
    /// itself, see [`PLY_CAP`]).
    pub fn both_cpu(self) -> bool {
        self.black == PlayerKind::Cpu && self.white == PlayerKind::Cpu
    }
}

/// Plies after which a game between two computer players, neither winning nor claiming
/// a draw, is adjudicated a draw (agreed on both sides' behalf).
pub const PLY_CAP: usize = 300;

/// Thinking time for a hint.
pub const HINT_TIME: Duration = Duration::from_millis(700);

/// The longest a computer player of `level` thinks about a move (the lower levels stop
/// earlier, at their depth).
pub fn movetime(level: Level) -> Duration {
    Duration::from_millis(500 + 250 * u64::from(level.number()))
}

/// "White (level 5)".
pub fn player_name(color: Color, level: Level) -> String {
    format!("{color} ({level})")
}

/// The search a computer player of `level` makes for the side to move in `game`.
pub fn move_request(game: &Game, level: Level, seed: u64) -> SearchRequest {
    let (current, history) = split(game);
    level.request(current, history, movetime(level), seed)
}

/// The search behind a hint: the strongest level, no randomness, a short time.
pub fn hint_request(game: &Game) -> SearchRequest {
    let (current, history) = split(game);
    Level::MAX.request(current, history, HINT_TIME, 0)
}

fn split(game: &Game) -> (crate::rules::Position, Vec<crate::rules::Position>) {
    let positions = game.positions();
    let current = *game.position();
    let history = positions[..positions.len().saturating_sub(1)].to_vec();
    (current, history)
}

/// Whether a computer player accepts a draw offered by the side to move in `pos`: when
/// its own position is no better than level, as when it would claim a draw.
pub fn accepts_draw(pos: &crate::rules::Position) -> bool {
    // The evaluation is for the side to move, the one offering.
    -crate::engine::evaluate(pos) <= crate::engine::CLAIM_DRAW_AT_MOST
}

/// What a computer player did on its turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Turn {
    /// It played this move (in notation).
    Played(String),
    /// It claimed a draw, or resigned: the game is over.
    Ended(Outcome),
}

impl Turn {
    /// One sentence for the player: "White (level 5) played 23-19." or the ending.
    pub fn describe(&self, color: Color, level: Level) -> String {
        let who = player_name(color, level);
        match self {
            Turn::Played(text) => format!("{who} played {text}."),
            Turn::Ended(outcome @ Outcome::Draw { .. }) => {
                format!("{who} claims a draw. {outcome}.")
            }
            Turn::Ended(outcome) => format!("{who} resigns. {outcome}."),
        }
    }
}

/// Carries out, for the side to move in `game`, what a computer player of `level` does
/// with `result` (a search of this very position): claims a draw when one is open and
/// its score does not favour it, resigns at a hopeless score if its level allows, and
/// otherwise plays the move. `None` (and `game` unchanged) when the game is over or the
/// result has no move legal here.
pub fn take_turn(game: &mut Game, level: Level, result: &SearchResult) -> Option<Turn> {
    if game.is_over() {
        return None;
    }
    let best = result.best_move?;
    let pos = *game.position();
    if !pos.is_legal(&best) {
        return None;
    }
    // A search stopped before its first depth has no score to judge by: just play
    // the move (claiming or resigning on a made-up 0 could throw a won game away).
    if result.depth == 0 {
        let text = pos.notation(&best);
        return game.play(&best).ok().map(|()| Turn::Played(text));
    }
    let (_, history) = split(game);
    let claim = claim_for_move(&history, &pos, &best);
    match decide(level, best, result.score, claim) {
        Decision::ClaimDraw(_) => {
            if let Ok(outcome) = game.claim_draw() {
                return Some(Turn::Ended(outcome));
            }
        }
        Decision::Resign => {
            if let Ok(outcome) = game.resign(pos.turn()) {
                return Some(Turn::Ended(outcome));
            }
        }
        Decision::Play(_) => {}
    }
    // A claim the game does not see the same way is not made: the move is played.
    game.play(&best).ok()?;
    Some(Turn::Played(pos.notation(&best)))
}

/// Ends a game between two computer players that has reached [`PLY_CAP`] plies as a
/// draw; returns the sentence saying so, or `None` if the game goes on.
pub fn adjudicate(game: &mut Game) -> Option<String> {
    if game.is_over() || game.moves().len() < PLY_CAP {
        return None;
    }
    game.offer_draw(game.position().turn()).ok()?;
    let outcome = game.accept_draw().ok()?;
    Some(format!(
        "No result after {PLY_CAP} plies: adjudicated a draw. {outcome}."
    ))
}
