//! Boards and spectators: what the clients that show a board are told of their table,
//! and who watches a game.

use super::*;

impl Lobby {
    /// `name`'s client shows a board: told its table from now on, its game now.
    pub(super) fn board(&mut self, name: &str) {
        let Some(online) = self.online.get_mut(name) else {
            return;
        };
        online.board = true;
        let Some(game) = online.game.or(online.watching) else {
            return;
        };
        // Told to the asker alone: a spectator asking again and again must not make
        // the server tell the whole table each time.
        self.tell_one(game, name);
    }

    /// The message telling `name` the game `game` at `table` as it stands.
    pub(super) fn table_message(&self, game: u64, table: &Table, name: &str) -> ServerMessage {
        let side = table.side_of(name);
        // A player's board is told whether the other is at the game; a spectator's,
        // whether both are.
        let others_there = (0..2)
            .filter(|&i| side.map(index) != Some(i))
            .all(|i| self.at_table(table, i));
        let spectators = self
            .online
            .values()
            .filter(|o| o.watching == Some(game))
            .count();
        let mut record = table.session.record(&crate::store::today());
        record.set_tag("Event", "checkers server");
        record.set_tag("Site", &self.site);
        let facts = crate::net::table::TableFacts {
            undo_asked: None,
            player_connected: table.adjourned.is_none() && others_there,
            spectators: u32::try_from(spectators).unwrap_or(u32::MAX),
            joiner_side: side.unwrap_or(Color::Black),
        };
        ServerMessage::Table {
            game,
            side: side.map(Into::into),
            state: crate::net::table::game_state(&table.session, &record, facts),
        }
    }

    /// Tells the board clients at `game`'s table (its players, who watches it) the
    /// game as it stands.
    pub(super) fn tell_table(&mut self, game: u64) {
        self.tell_table_but(game, None);
    }

    /// Tells `name`'s board (if their client shows one, and they are not away in the
    /// lobby) `game` as it stands: what they asked changed nothing for the others.
    pub(super) fn tell_one(&mut self, game: u64, name: &str) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        if !table.away_in_lobby(name) && self.online.get(name).is_some_and(|o| o.board) {
            let message = self.table_message(game, table, name);
            self.send(name, message);
        }
    }

    /// Tells the board clients at `game`'s table but `but`'s the game as it stands.
    pub(super) fn tell_table_but(&mut self, game: u64, but: Option<&str>) {
        let Some(table) = self.games.get(&game) else {
            return;
        };
        let told: Vec<(String, ServerMessage)> = table
            .audience(game, &self.online)
            .into_iter()
            .filter(|n| Some(n.as_str()) != but)
            .filter(|n| !table.away_in_lobby(n) && self.online.get(n).is_some_and(|o| o.board))
            .map(|n| {
                let message = self.table_message(game, table, &n);
                (n, message)
            })
            .collect();
        for (n, message) in told {
            self.send(&n, message);
        }
    }

    /// `name` watches game `number`: told it as it stands, then each move.
    pub(super) fn watch(&mut self, name: &str, number: u64) {
        let Some(table) = self.games.get(&number) else {
            return self.reject(name, format!("no game {number} in play (games lists them)"));
        };
        if table.names.iter().any(|n| n == name) {
            return self.reject(name, "that is your own game");
        }
        let game = table.session.game();
        let (clocks, running) = table.clocks_now();
        let message = ServerMessage::Watching {
            game: number,
            black: table.names[0].clone(),
            white: table.names[1].clone(),
            clock: table.clock.clone(),
            moves: game.moves().iter().map(ToString::to_string).collect(),
            fen: game.position().to_string(),
            clocks,
            running: Some(running),
        };
        let was = self
            .online
            .get_mut(name)
            .and_then(|online| online.watching.replace(number));
        self.send(name, message);
        self.tell_table(number);
        // The table watched before counts one spectator fewer.
        if let Some(was) = was.filter(|&was| was != number) {
            self.tell_table(was);
        }
    }

    /// Whether `name`'s client shows the full screen's lobby (else plain mode), so that
    /// what they are told names the keys they have.
    pub(super) fn on_board(&self, name: &str) -> bool {
        self.online.get(name).is_some_and(|o| o.board)
    }

    /// `name` watches no game any more: the boards at its table are told, so that
    /// their count of who watches drops (it stayed until the next move).
    pub(super) fn unwatch(&mut self, name: &str) {
        let was = self
            .online
            .get_mut(name)
            .and_then(|online| online.watching.take());
        if let Some(game) = was {
            self.tell_table(game);
        }
    }
}
