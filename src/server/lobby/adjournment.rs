//! Adjournment: a game waits, its clocks stopped, while neither player is at it, and
//! goes on when both are back (or one has waited long enough); it is abandoned after
//! the days it is kept.

use super::presence::{Presence, Whereabouts};
use super::ratings::pair_limit_reached;
use super::*;

/// How long an adjourned game waits, once one of its players is back at it, for the
/// other: then it goes on, the clocks running, so that a player cannot keep their own
/// clock stopped (a game adjourned the moment the opponent glanced at the lobby, or
/// restored after a restart) by staying away.
pub(crate) const ONE_BACK_WAIT: std::time::Duration = std::time::Duration::from_secs(120);

/// What became of a game a player left (see [`Lobby::left_game`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Left {
    /// It goes on, its clocks running: the other player is at it.
    GoesOn,
    /// It is adjourned now, its clocks stopped: neither player is at it.
    AdjournedNow,
    /// It was adjourned already, and stays so (or it is gone).
    StillAdjourned,
}

impl Lobby {
    /// Takes back the games not finished, adjourned: how many.
    pub(super) fn restore(&mut self, now: Instant) -> Result<usize, String> {
        for stored in self.store.ask_now(|db| db.unfinished())?? {
            let Some(Ok(record)) = crate::pdn::read_games(&stored.pdn).into_iter().next() else {
                tracing::error!(game = stored.id, "a stored game's record does not read");
                continue;
            };
            let mut session = Session::from_record(&record)
                .with_seats(Seats::PEOPLE)
                .with_assist(false);
            // The clocks to the millisecond where the row keeps them (the record's own
            // readings are in tenths).
            if let Some(left) = stored.clocks {
                session = session.with_clock_readings(left);
            }
            let mut session = session.with_recorded_clock(now);
            session.set_paused(true);
            // A game in play when the server was killed (a stop adjourns each) waits from now.
            let since = match stored.adjourned {
                Some(since) => since,
                None => {
                    let since = crate::store::now_unix();
                    let game = stored.id;
                    self.store
                        .ask_now(move |db| db.adjourn(game, Some(since), None))??;
                    since
                }
            };
            let unrated_why = stored
                .pair_limited
                .then(|| pair_limit_reached([&stored.names[0], &stored.names[1]]));
            self.games.insert(
                stored.id as u64,
                Table {
                    session,
                    names: stored.names,
                    ids: stored.ids,
                    ratings: stored.ratings,
                    rated_games: stored.rated_games,
                    rated: stored.rated,
                    unrated_why,
                    clock: stored.clock,
                    control: None,
                    adjourned: Some(since),
                    away: [false; 2],
                    one_back_since: None,
                    held_for: None,
                    chat: Default::default(),
                    presence: Presence::told(Whereabouts::Gone),
                },
            );
        }
        Ok(self.games.len())
    }

    /// `game` goes on if it is adjourned and both its players are at it (online, and
    /// not away in the lobby): its clocks run again, both are told. Whether it did.
    pub(super) fn resume_if_both_back(&mut self, game: u64) -> bool {
        let Some(table) = self.games.get(&game) else {
            return false;
        };
        if table.adjourned.is_none() || !self.at_table(table, 0) || !self.at_table(table, 1) {
            return false;
        }
        self.go_on(game);
        let Some(table) = self.games.get(&game) else {
            return false;
        };
        tracing::info!(game, "resumed");
        let names = table.names.clone();
        let messages = [Color::Black, Color::White].map(|c| table.started(game, c));
        for (n, message) in names.iter().zip(messages) {
            self.send(n, message);
        }
        self.tell_table(game);
        true
    }

    /// Adjourned `game` goes on, its clocks running (stored so), its wait for one player
    /// back forgotten, so that a later adjournment waits afresh. Its players are told by
    /// the caller.
    pub(super) fn go_on(&mut self, game: u64) {
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        table.adjourned = None;
        table.one_back_since = None;
        table.held_for = None;
        table.session.set_paused(false);
        self.store_then_tell(Some(game), move |db| db.adjourn(game as i64, None, None));
        self.presence_told(game);
    }

    /// `name` is back at `game`, which went on without them (its clocks running): their
    /// board is shown the game as it stands, and the others are told (see
    /// [`presence_changed`](Self::presence_changed)).
    pub(super) fn back_in_play(&mut self, game: u64, name: &str, now: Instant) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let Some(color) = table.side_of(name) else {
            return;
        };
        let started = table.started(game, color);
        self.send(name, started);
        self.tell_one(game, name);
        self.presence_changed(game, index(color), now);
    }

    /// `game` is adjourned now: its clocks stop until both its players are back
    /// (stored, and its boards told).
    pub(super) fn adjourn_now(&mut self, game: u64) {
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        let since = crate::store::now_unix();
        table.adjourned = Some(since);
        table.session.set_paused(true);
        // Paused, the clocks' readings hold the time used since the last move.
        let clocks = table.clocks();
        self.store_then_tell(Some(game), move |db| {
            db.adjourn(game as i64, Some(since), clocks)
        });
        self.presence_told(game);
        self.tell_table(game);
    }

    /// `name` is back at their adjourned `game` while `other` keeps it adjourned (from
    /// the lobby, or gone): `name` is told who it waits for, and `other` (if online) that
    /// `name` is back.
    pub(super) fn waits_for_other(&mut self, game: u64, name: &str, other: &str, now: Instant) {
        let Some(color) = self.games.get(&game).and_then(|t| t.side_of(name)) else {
            return;
        };
        let minutes = ONE_BACK_WAIT.as_secs() / 60;
        let text = format!(
            "Game {game} waits for {other}: in {minutes} minutes it goes on, {other}'s clock \
             running."
        );
        self.send(name, ServerMessage::Info { text });
        self.tell_one(game, name);
        self.presence_changed(game, index(color), now);
    }

    /// `name` leaves the board of the game they play for the lobby. The game is
    /// adjourned, its clocks stopped, only once both its players have left it (each for
    /// the lobby, or gone): while the other player is at it, it goes on, the clocks
    /// running, so that leaving never stops one's own clock. Refused to a spectator (who
    /// cannot adjourn someone else's game) and to a player with no game in play.
    pub(super) fn adjourn(&mut self, name: &str, now: Instant) {
        let Some(online) = self.online.get(name) else {
            return;
        };
        let watching = online.watching;
        let Some((game, color)) = self.seat_of(name) else {
            let reason = match watching {
                Some(n) => format!("you watch game {n}: only its players adjourn it"),
                None => "you are not playing a game: there is none to adjourn".to_string(),
            };
            return self.reject(name, reason);
        };
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        let other = table.names[index(!color)].clone();
        if table.away[index(color)] {
            return self.reject(
                name,
                format!("you left game {game} already: resume goes back to it"),
            );
        }
        table.away[index(color)] = true;
        let my_move = table.session.position().turn() == color;
        match self.left_game(game, index(color), now) {
            Left::GoesOn => {
                tracing::info!(game, name, "left for the lobby, the game going on");
                let clock = crate::server::protocol::clock_while_away(my_move);
                let text =
                    format!("Game {game} goes on, {clock}: resume it (Enter on it) to go back.");
                return self.send(name, ServerMessage::Info { text });
            }
            Left::AdjournedNow => {
                let text =
                    format!("{name} left game {game} too: it is adjourned, its clocks stopped.");
                self.send(&other, ServerMessage::Info { text });
            }
            Left::StillAdjourned => {}
        }
        tracing::info!(game, name, "adjourned in the lobby");
        let text = format!(
            "Game {game} is adjourned, its clocks stopped: resume it (Enter on it) to go on."
        );
        self.send(name, ServerMessage::Info { text });
    }

    /// `name` goes back to their game: it goes on if the other player is at it too;
    /// else `name`'s board waits for them (and they are told). A game in play is only
    /// shown again to `name`'s board.
    pub(super) fn resume(&mut self, name: &str, now: Instant) {
        let Some((game, color)) = self.seat_of(name) else {
            return self.reject(name, "you have no game to resume");
        };
        let Some(table) = self.games.get_mut(&game) else {
            return;
        };
        let was_away = std::mem::replace(&mut table.away[index(color)], false);
        let other = table.names[index(!color)].clone();
        if table.adjourned.is_none() {
            if was_away {
                return self.back_in_play(game, name, now);
            }
            // Nothing changed for the others: the asker alone is told.
            return self.tell_one(game, name);
        }
        if !self.resume_if_both_back(game) {
            self.waits_for_other(game, name, &other, now);
        }
    }

    /// The player of `game` at `i` (0 Black, 1 White) has left it (for the lobby, or
    /// gone): a game in play goes on while the other player is at it, and is adjourned
    /// once neither is; otherwise the other is told where the player is now (see
    /// [`presence_changed`](Self::presence_changed)). What became of the game; the
    /// caller tells the players what is theirs to hear.
    pub(super) fn left_game(&mut self, game: u64, i: usize, now: Instant) -> Left {
        let Some(table) = self.games.get(&game) else {
            return Left::StillAdjourned;
        };
        let in_play = table.adjourned.is_none();
        if in_play && !self.at_table(table, 1 - i) {
            self.adjourn_now(game);
            return Left::AdjournedNow;
        }
        // Back at an adjourned game and gone again: the other, told they were back,
        // hears it.
        self.presence_changed(game, i, now);
        if in_play {
            Left::GoesOn
        } else {
            Left::StillAdjourned
        }
    }

    /// Adjourned `game` goes on, its clocks running, though one player is still away:
    /// the one at it is shown the game, the one away told their clock runs.
    pub(super) fn go_on_without_the_other(&mut self, game: u64) {
        self.go_on(game);
        let Some(table) = self.games.get(&game) else {
            return;
        };
        tracing::info!(game, "goes on, one player away");
        let mut told = Vec::new();
        for (i, color) in [(0, Color::Black), (1, Color::White)] {
            let (name, other) = (&table.names[i], &table.names[1 - i]);
            if self.at_table(table, i) {
                let text = format!(
                    "{other} has not come back: game {game} goes on; if {other}'s time runs \
                     out, {other} loses."
                );
                told.push((name.clone(), table.started(game, color)));
                told.push((name.clone(), ServerMessage::Info { text }));
            } else {
                let clock = crate::server::protocol::clock_while_away(
                    table.session.position().turn() == color,
                );
                let text =
                    format!("Game {game} goes on, {clock}: resume it (Enter on it) to go back.");
                told.push((name.clone(), ServerMessage::Info { text }));
            }
        }
        for (name, message) in told {
            self.send(&name, message);
        }
        self.tell_table(game);
    }

    /// The adjourned games one player has waited at for [`ONE_BACK_WAIT`] by `now` go
    /// on (see [`go_on_without_the_other`](Self::go_on_without_the_other)).
    pub(super) fn go_on_after_one_back_wait(&mut self, now: Instant) {
        // Five times a second: the games are looked at in place, and a list is made
        // only of those due (none, mostly: an empty list takes no memory).
        let online = &self.online;
        let mut waited = Vec::new();
        for (game, table) in self.games.iter_mut() {
            if table.adjourned.is_none() {
                continue;
            }
            let kicked_away = table.held_for.is_some_and(|i| !table.is_at(i, online));
            if kicked_away || (0..2).filter(|&i| table.is_at(i, online)).count() != 1 {
                table.one_back_since = None;
                continue;
            }
            let since = *table.one_back_since.get_or_insert(now);
            if now.saturating_duration_since(since) >= ONE_BACK_WAIT {
                waited.push(*game);
            }
        }
        for game in waited {
            self.go_on_without_the_other(game);
        }
    }

    /// The adjourned games that waited their time for their players are abandoned.
    pub(super) fn abandon_expired(&mut self) {
        let wait = self.adjourned_for.as_secs();
        let unix = crate::store::now_unix();
        let expired: Vec<u64> = self
            .games
            .iter()
            .filter(|(_, t)| {
                t.adjourned
                    .is_some_and(|since| unix.saturating_sub(since) >= wait)
            })
            .map(|(game, _)| *game)
            .collect();
        for game in expired {
            let Some(table) = self.games.get(&game) else {
                continue;
            };
            let text = format!(
                "Game {game} ({} - {}) is abandoned: it was adjourned longer than the server \
                 keeps a game waiting.",
                table.names[0], table.names[1]
            );
            self.abandon(game, &text, &text);
        }
    }
}
