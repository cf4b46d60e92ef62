//! Fast games of the engine against itself, for training data: quiet positions labelled
//! by the game's result and by a shallow search's score.
//!
//! Games start from a ballot of the ACF deck and vary further by an occasional random
//! move early on, so that the same ballot does not give the same game twice.

use crate::engine::Evaluation;
use crate::engine::Opening;
use crate::engine::nnue::Nnue;
use crate::engine::splitmix64;
use crate::engine::{Engine, Limits, SearchRequest, StopFlag};
use crate::rules::draw::available_claim;
use crate::rules::{Color, Position};
use std::sync::Arc;

/// How self-play games are played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SelfplayOptions {
    /// Nodes searched per move.
    pub(crate) nodes: u64,
    /// Nodes searched per move while the board has at least [`Self::deep_pieces`]
    /// pieces: a deeper search where the game is decided, for sharper labels there,
    /// while the ending is played out at [`Self::nodes`].
    pub(crate) deep_nodes: Option<u64>,
    /// The fewest pieces on the board at which [`Self::deep_nodes`] applies.
    pub(crate) deep_pieces: u32,
    /// Plies after the ballot during which a random move may be played.
    pub(crate) random_plies: usize,
    /// Chance in a thousand of a random move at each of those plies.
    pub(crate) random_per_mille: u64,
    /// Plies after which an unfinished game counts as drawn.
    pub(crate) max_plies: usize,
    /// The evaluation the games are played (and positions scored) with.
    pub(crate) evaluation: Evaluation,
    /// The network it evaluates with, when that is the network's (`None`: the
    /// embedded one).
    pub(crate) network: Option<Arc<Nnue>>,
}

impl Default for SelfplayOptions {
    fn default() -> SelfplayOptions {
        SelfplayOptions {
            nodes: 5_000,
            deep_nodes: None,
            deep_pieces: 14,
            random_plies: 10,
            random_per_mille: 150,
            max_plies: 300,
            evaluation: Evaluation::Hand,
            network: None,
        }
    }
}

/// A quiet position of a self-play game and what the search made of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScoredPosition {
    /// The position (its side to move has no capture).
    pub(crate) position: Position,
    /// The search's score for the side to move, in hundredths of a man.
    pub(crate) score: i32,
}

/// A finished self-play game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SelfplayGame {
    /// Its quiet positions after the opening, in order.
    pub(crate) positions: Vec<ScoredPosition>,
    /// The winner, or `None` for a draw.
    pub(crate) winner: Option<Color>,
    /// Plies played, the ballot's included.
    pub(crate) plies: usize,
}

/// Plays one game from `opening` with `engine` (cleared first), its random moves drawn
/// from `seed`.
pub(crate) fn play_game(
    engine: &mut Engine,
    opening: &Opening,
    seed: u64,
    options: &SelfplayOptions,
) -> SelfplayGame {
    engine.clear();
    let mut history: Vec<Position> = opening.positions.clone();
    let mut pos = history.pop().unwrap_or_else(Position::start);
    let mut rng = seed;
    let mut positions = Vec::new();
    let stop = StopFlag::new();
    let mut after_ballot = 0;
    let winner = loop {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break Some(!pos.turn());
        }
        if available_claim(&history, &pos).is_some() || history.len() >= options.max_plies {
            break None;
        }
        rng = splitmix64(rng);
        let random = after_ballot < options.random_plies
            && moves.len() > 1
            && rng % 1000 < options.random_per_mille;
        let chosen = if random {
            moves[((rng >> 20) % moves.len() as u64) as usize]
        } else {
            let nodes = match options.deep_nodes {
                Some(deep) if pos.occupied().count() >= options.deep_pieces => deep,
                _ => options.nodes,
            };
            let mut request = SearchRequest::new(pos, Limits::nodes(nodes));
            request.history = history.clone();
            request.evaluation = options.evaluation;
            request.network = options.network.clone();
            let result = engine.search(&request, &stop, |_| {});
            let Some(best) = result.best_move else {
                break Some(!pos.turn());
            };
            if result.score.is_win() {
                break Some(pos.turn());
            }
            if result.score.is_forced() {
                break Some(!pos.turn());
            }
            let quiet = !moves[0].is_capture();
            if quiet && moves.len() > 1 {
                positions.push(ScoredPosition {
                    position: pos,
                    score: result.score.0,
                });
            }
            best
        };
        history.push(pos);
        pos = pos.play_unchecked(&chosen);
        after_ballot += 1;
    };
    SelfplayGame {
        positions,
        winner,
        plies: history.len(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::acf_openings;

    #[test]
    fn a_selfplay_game_ends_and_keeps_only_quiet_positions() {
        let openings = acf_openings();
        let mut engine = Engine::new(1);
        let options = SelfplayOptions {
            nodes: 300,
            ..SelfplayOptions::default()
        };
        let game = play_game(&mut engine, &openings[0], 7, &options);
        assert!(game.plies > 3 && game.plies <= options.max_plies);
        assert!(!game.positions.is_empty());
        for scored in &game.positions {
            assert!(scored.position.capturers().is_empty(), "not quiet");
            assert!(scored.score.abs() < crate::engine::Score::WIN_THRESHOLD);
        }
        // The same seed plays the same game; another seed another one.
        let again = play_game(&mut engine, &openings[0], 7, &options);
        assert_eq!(game, again);
        let other = play_game(&mut engine, &openings[0], 8, &options);
        assert_ne!(game.positions, other.positions);
    }

    #[test]
    fn deep_nodes_search_the_positions_with_enough_pieces_harder() {
        let openings = acf_openings();
        let mut engine = Engine::new(1);
        let fast = SelfplayOptions {
            nodes: 300,
            ..SelfplayOptions::default()
        };
        let slow = SelfplayOptions {
            nodes: 1_500,
            ..SelfplayOptions::default()
        };
        let slow_game = play_game(&mut engine, &openings[2], 5, &slow);
        // Deep from 2 pieces on: every move searched as the slow game's.
        let deep_throughout = SelfplayOptions {
            deep_nodes: Some(1_500),
            deep_pieces: 2,
            ..fast.clone()
        };
        assert_eq!(
            play_game(&mut engine, &openings[2], 5, &deep_throughout),
            slow_game
        );
        // Deep only with 16 pieces or more: the opening as the slow game's, then not.
        let deep_early = SelfplayOptions {
            deep_nodes: Some(1_500),
            deep_pieces: 16,
            ..fast.clone()
        };
        let mixed = play_game(&mut engine, &openings[2], 5, &deep_early);
        let early = |game: &SelfplayGame| -> Vec<ScoredPosition> {
            game.positions
                .iter()
                .take_while(|s| s.position.occupied().count() >= 16)
                .copied()
                .collect()
        };
        assert!(!early(&slow_game).is_empty());
        assert_eq!(early(&mixed), early(&slow_game));
        assert_ne!(mixed, slow_game);
        assert_ne!(mixed, play_game(&mut engine, &openings[2], 5, &fast));
    }
}
