//! Presence: where each player of a game is (at it, in the lobby, gone), as the others
//! at its table are told, no more often than a notice every few seconds.

use super::*;

/// How often the others at a table hear where a player is, each kind of notice (gone to
/// the lobby, left, back at the game): one stepping in and out again and again is told
/// once an interval at most, where they are then told once the interval has passed.
pub(super) const PRESENCE_NOTICE_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Where a player of a game is, as the others at its table are told.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Whereabouts {
    /// At the game's board.
    At,
    /// Away from it in the lobby.
    Lobby,
    /// Not online.
    Gone,
}

/// What the others at a table were last told of where each player is, and when each
/// kind of notice (one for each of [`Whereabouts`]) last went.
#[derive(Clone, Copy, Debug)]
pub(super) struct Presence {
    /// Where Black, White were last told to be.
    pub(super) told: [Whereabouts; 2],
    /// When Black's, White's last notice of each kind went.
    pub(super) last: [[Option<Instant>; 3]; 2],
}

impl Presence {
    /// Both players told to be `at`.
    pub(super) fn told(at: Whereabouts) -> Presence {
        Presence {
            told: [at; 2],
            last: [[None; 3]; 2],
        }
    }
}

impl Lobby {
    /// Whether the player of `table` at `i` (0 Black, 1 White) is at the game: online,
    /// and not away in the lobby.
    pub(super) fn at_table(&self, table: &Table, i: usize) -> bool {
        table.is_at(i, &self.online)
    }

    /// Where the player of `table` at `i` (0 Black, 1 White) is.
    pub(super) fn whereabouts(&self, table: &Table, i: usize) -> Whereabouts {
        if !self.online.contains_key(&table.names[i]) {
            Whereabouts::Gone
        } else if table.away[i] {
            Whereabouts::Lobby
        } else {
            Whereabouts::At
        }
    }

    /// The player of `game` at `i` (0 Black, 1 White) went away from it (to the lobby,
    /// or gone) or came back: the other player is told where they are now, and the
    /// boards at the table but theirs the table (if they are at it or away now where
    /// they were not). Nothing is told if the others were last told the same (for an
    /// adjourned game, in the lobby and gone are the same: away); and if that player's
    /// last notice of this kind went within [`PRESENCE_NOTICE_EVERY`], not yet:
    /// [`tick`](Self::tick) tells where they are once the interval has passed (nothing,
    /// if back where they were last told to be).
    pub(super) fn presence_changed(&mut self, game: u64, i: usize, now: Instant) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let (told, here) = (table.presence.told[i], self.whereabouts(table, i));
        let adjourned = table.adjourned.is_some();
        let away = |w: Whereabouts| w != Whereabouts::At;
        if told == here || (adjourned && away(told) && away(here)) {
            return;
        }
        let last = table.presence.last[i][here as usize];
        if last.is_some_and(|t| now.saturating_duration_since(t) < PRESENCE_NOTICE_EVERY) {
            self.presence_pending.insert(game);
            return;
        }
        let (name, other) = (&table.names[i], &table.names[1 - i]);
        let minutes = ONE_BACK_WAIT.as_secs() / 60;
        // Short: a lobby's or a board's status is one line of 80 columns.
        let text = match (adjourned, here) {
            (false, Whereabouts::At) => format!("{name} is back at game {game}."),
            (false, Whereabouts::Lobby) => {
                format!("{name} went to the lobby: game {game} goes on, the clocks running.")
            }
            (false, Whereabouts::Gone) => format!(
                "{name} left: game {game} goes on; if {name}'s time runs out, {name} loses."
            ),
            (true, Whereabouts::At) => format!(
                "{name} is back at game {game}: resume it within {minutes} minutes, or your clock \
                 runs."
            ),
            (true, _) => {
                format!("{name} left game {game}: it stays adjourned, its clocks stopped.")
            }
        };
        let (name, other) = (name.clone(), other.clone());
        if let Some(table) = self.games.get_mut(&game) {
            table.presence.told[i] = here;
            table.presence.last[i][here as usize] = Some(now);
        }
        self.send(&other, ServerMessage::Info { text });
        if away(told) != away(here) {
            self.tell_table_but(game, Some(&name));
        }
    }

    /// Tells the notices of where players are held back (see [`presence_changed`])
    /// that may go at `now`: each where the player is now.
    ///
    /// [`presence_changed`]: Self::presence_changed
    pub(super) fn tell_pending_presence(&mut self, now: Instant) {
        for game in std::mem::take(&mut self.presence_pending) {
            for i in 0..2 {
                // Held back again if its interval has not passed.
                self.presence_changed(game, i, now);
            }
        }
    }

    /// The others at `game` have been told how its players stand (the game adjourned or
    /// going on): no notice of either player's going away or coming back is owed.
    pub(super) fn presence_told(&mut self, game: u64) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let here = [0, 1].map(|i| self.whereabouts(table, i));
        if let Some(table) = self.games.get_mut(&game) {
            table.presence.told = here;
        }
    }
}
