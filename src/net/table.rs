//! One table logic for the boards at the other end of a line: a LAN host and a
//! server's table tell their players and spectators the game as the same
//! [`GameState`], built here from the table's session and what the table knows
//! beyond it.

use super::protocol::{GameState, Side};
use crate::pdn::PdnGame;
use crate::rules::Color;
use crate::session::Session;

/// What a table knows of its game beyond the session: who is there, what is asked.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TableFacts {
    /// A take-back asked for and not yet answered, by this side.
    pub(crate) undo_asked: Option<Color>,
    /// Whether the other player (for a host: the joiner) is connected.
    pub(crate) player_connected: bool,
    /// How many watch.
    pub(crate) spectators: u32,
    /// The side the board told plays (for a spectator, any).
    pub(crate) joiner_side: Color,
}

/// The game as `session` holds it, its record `record` (with the tags the table adds),
/// as a board at the other end is told it.
pub(crate) fn game_state(session: &Session, record: &PdnGame, facts: TableFacts) -> GameState {
    let followed = session.followed();
    let clocks = followed
        .clocks
        .map(|(left, _)| left.map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX)));
    GameState {
        pdn: crate::pdn::write_game(record),
        clocks,
        running: followed
            .clocks
            .and_then(|(_, running)| running)
            .map(Side::from),
        draw_offer: session.game().draw_offer().map(Side::from),
        undo_asked: facts.undo_asked.map(Side::from),
        player_connected: facts.player_connected,
        spectators: facts.spectators,
        joiner_side: Side::from(facts.joiner_side),
        game_number: session.game_number(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_state_carries_the_game_its_clocks_and_the_tables_facts() {
        let now = std::time::Instant::now();
        let mut session =
            Session::new(crate::game::Game::new()).with_clock("5+3".parse().expect("a clock"), now);
        session.play_text("11-15").expect("a legal move");
        let record = session.record(&crate::store::today());
        let facts = TableFacts {
            undo_asked: None,
            player_connected: true,
            spectators: 2,
            joiner_side: Color::White,
        };
        let state = game_state(&session, &record, facts);
        assert!(state.pdn.contains("11-15"), "{}", state.pdn);
        assert_eq!(state.running, Some(Side::White));
        assert!(state.clocks.is_some_and(|[black, _]| black > 0));
        assert_eq!((state.spectators, state.joiner_side), (2, Side::White));
        assert!(state.player_connected);
    }
}
