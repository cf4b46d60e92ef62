//! Games between two computer players, as `checkers match` plays them.

use super::decision::{Decision, decide};
use super::level::Level;
use super::search::{Engine, StopFlag};
use crate::rules::draw::claim_for_move;
use crate::rules::{Color, Move, Outcome, Position, WinReason};
use std::time::Duration;

/// How a game between computer players ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// By the rules: a win (no move, no pieces, resignation) or a claimed draw.
    Decided(Outcome),
    /// Neither side won nor claimed a draw within the ply limit: adjudicated a draw.
    PlyLimit,
}

impl GameEnd {
    /// The winner, if any.
    pub fn winner(self) -> Option<Color> {
        match self {
            GameEnd::Decided(Outcome::Win { winner, .. }) => Some(winner),
            _ => None,
        }
    }

    /// The PDN result token (`1-0` Black won, `0-1` White won, `1/2-1/2`).
    pub fn pdn_result(self) -> &'static str {
        match self {
            GameEnd::Decided(outcome) => outcome.pdn_result(),
            GameEnd::PlyLimit => "1/2-1/2",
        }
    }
}

/// A computer player in a game: its level and its engine.
#[derive(Debug)]
pub struct ComputerPlayer {
    /// How strongly it plays.
    pub level: Level,
    /// Its searcher (its transposition table lives on from move to move).
    pub engine: Engine,
}

/// How to play a game.
#[derive(Clone, Copy, Debug)]
pub struct GameRules {
    /// Thinking time per move.
    pub movetime: Duration,
    /// Plies (opening included) after which the game is adjudicated a draw.
    pub max_plies: usize,
    /// Seed of the players' randomness.
    pub seed: u64,
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayedGame {
    /// The moves played after the given start.
    pub moves: Vec<Move>,
    /// How it ended.
    pub end: GameEnd,
    /// Plies in the whole game, opening included.
    pub plies: usize,
}

/// Plays a game from `start` (reached through `history`, oldest first) between
/// `black` and `white`. Each player claims draws and resigns as
/// [`decide`] says; the game always ends, at the latest at `rules.max_plies`.
pub fn play_game(
    start: Position,
    mut history: Vec<Position>,
    black: &mut ComputerPlayer,
    white: &mut ComputerPlayer,
    rules: GameRules,
) -> PlayedGame {
    let mut pos = start;
    let mut moves = Vec::new();
    let end = loop {
        if let Some(outcome) = pos.outcome() {
            break GameEnd::Decided(outcome);
        }
        if history.len() >= rules.max_plies {
            break GameEnd::PlyLimit;
        }
        let (player, salt) = match pos.turn() {
            Color::Black => (&mut *black, 0x0B1A_C000),
            Color::White => (&mut *white, 0x0FF1_7E00),
        };
        let request = player
            .level
            .request(pos, history.clone(), rules.movetime, rules.seed ^ salt);
        let result = player.engine.search(&request, &StopFlag::new(), |_| {});
        let Some(best) = result.best_move else {
            // Unreachable: a position with no move has an outcome, handled above.
            break GameEnd::Decided(Outcome::Win {
                winner: !pos.turn(),
                reason: WinReason::NoMoves,
            });
        };
        let claim = claim_for_move(&history, &pos, &best);
        match decide(player.level, best, result.score, claim) {
            Decision::ClaimDraw(reason) => break GameEnd::Decided(Outcome::Draw { reason }),
            Decision::Resign => {
                break GameEnd::Decided(Outcome::Win {
                    winner: !pos.turn(),
                    reason: WinReason::Resignation,
                });
            }
            Decision::Play(m) => {
                history.push(pos);
                pos = pos.play_unchecked(&m);
                moves.push(m);
            }
        }
    };
    PlayedGame {
        moves,
        end,
        plies: history.len(),
    }
}
