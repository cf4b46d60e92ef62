//! A board at a server's table whose line to the server drops: its clocks show what the
//! server charges from then on.

use super::*;
use crate::net::table::TableFacts;
use crate::online::{LineNews, ServerLine};

/// A timed game at the server after Black's 11-15 (White's clock running), told to a
/// board as the server tells it: `opponent_there` says whether the others at the table
/// are at the game.
fn told_state(opponent_there: bool) -> GameState {
    let now = Instant::now();
    let mut session =
        Session::new(crate::game::Game::new()).with_clock("5+3".parse().expect("a clock"), now);
    session.play_text("11-15").expect("a legal move");
    let record = session.record(&crate::store::today());
    let facts = TableFacts {
        undo_asked: None,
        player_connected: opponent_there,
        spectators: 0,
        joiner_side: Color::White,
    };
    crate::net::table::game_state(&session, &record, facts)
}

/// A board at the server's table (playing `side`, or watching), its line detached:
/// the runtime, and what tells the line's news.
fn board(side: Option<Color>, opponent_there: bool) -> (Runtime, impl Fn(LineNews)) {
    let (line, tell) = ServerLine::detached();
    let state = told_state(opponent_there);
    let session = server_session(&state, side, Instant::now()).expect("the record reads");
    let following = Following::at_server(line, side, &state, None);
    let runtime = Runtime::new(
        session,
        super::super::Saving::Off,
        super::super::Pace::WATCHED,
    )
    .at_table(Table::Guest(Box::new(following)));
    (runtime, tell)
}

/// White's time left as `runtime` shows it at `at` (the board polled then).
fn white_shown_at(runtime: &mut Runtime, at: Instant) -> Duration {
    runtime.poll(at);
    runtime.session().time_left(Color::White).expect("a clock")
}

/// The line drops; gives how much of White's time the board shows spent over the next
/// three seconds.
fn spent_after_the_line_drops(runtime: &mut Runtime, tell: impl Fn(LineNews)) -> Duration {
    let start = Instant::now();
    runtime.poll(start);
    tell(LineNews::Down("the network failed".to_string()));
    let before = white_shown_at(runtime, start);
    assert!(runtime.table().is_some_and(|t| t.server_gone));
    before.saturating_sub(white_shown_at(runtime, start + Duration::from_secs(3)))
}

#[test]
fn a_players_clock_runs_on_the_board_when_its_line_drops_while_the_opponent_is_at_the_game() {
    // The server charges White (this player, to move) while the opponent is at the game.
    let (mut runtime, tell) = board(Some(Color::White), true);
    let spent = spent_after_the_line_drops(&mut runtime, tell);
    assert_eq!(spent, Duration::from_secs(3));
    assert_eq!(
        runtime.session().clock().and_then(|c| c.running()),
        Some(Color::White)
    );
}

#[test]
fn a_spectators_board_keeps_the_game_running_when_its_own_line_drops() {
    let (mut runtime, tell) = board(None, true);
    assert_eq!(
        spent_after_the_line_drops(&mut runtime, tell),
        Duration::from_secs(3)
    );
}

#[test]
fn with_the_opponent_away_too_the_game_is_adjourned_and_the_clocks_stop_on_the_board() {
    // Neither player at it once this line is gone: the server adjourns it.
    let (mut runtime, tell) = board(Some(Color::White), false);
    assert_eq!(
        spent_after_the_line_drops(&mut runtime, tell),
        Duration::ZERO
    );
}
