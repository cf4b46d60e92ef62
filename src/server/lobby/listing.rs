//! What the lobby lists: who is online, the games in play, a player's record, one's
//! own finished games.

use super::*;

/// The most players `who` and games `games` list: a crowd must not make an answer
/// longer than a client reads in one line.
pub(super) const MOST_LISTED: usize = 200;

/// The first [`protocol::LOBBY_LIST`] entries of a list of the lobby.
pub(super) fn first<T>(mut list: Vec<T>) -> Vec<T> {
    list.truncate(protocol::LOBBY_LIST);
    list
}

impl Lobby {
    /// The lobby as lists, as `viewer` sees it.
    pub(super) fn lobby(&self, viewer: &str) -> ServerMessage {
        let rating = |name: &str| {
            self.online
                .get(name)
                .map_or(0, |o| o.rating.rating.round().max(0.0) as u32)
        };
        let players: Vec<protocol::LobbyPlayer> = self
            .online
            .iter()
            .map(|(name, online)| protocol::LobbyPlayer {
                name: name.clone(),
                rating: rating(name),
                playing: online.game,
            })
            .collect();
        let seeks: Vec<protocol::LobbySeek> = self
            .seeks
            .open
            .iter()
            .filter(|(_, s)| self.seek_shown(s, viewer))
            .map(|(number, seek)| protocol::LobbySeek {
                number: *number,
                by: seek.by.clone(),
                rating: rating(&seek.by),
                clock: seek.clock_text.clone(),
                // Casual for a viewer it would change no rating for.
                rated: seek.rated && self.unrated_for(viewer, seek).is_none(),
                side: seek.terms.side.map(Into::into),
                ballot: seek.terms.ballot,
                only: seek.only.clone(),
            })
            .collect();
        let games: Vec<protocol::LobbyGame> = self
            .listed_games(viewer)
            .into_iter()
            .map(|(number, table)| protocol::LobbyGame {
                number: *number,
                black: table.names[0].clone(),
                white: table.names[1].clone(),
                clock: table.clock.clone(),
                rated: table.rated,
                moves: table.session.game().moves().len(),
                adjourned: table.adjourned.is_some(),
            })
            .collect();
        let cut = |n: usize| n.saturating_sub(protocol::LOBBY_LIST);
        let more = [cut(players.len()), cut(seeks.len()), cut(games.len())];
        ServerMessage::Lobby {
            players: first(players),
            seeks: first(seeks),
            games: first(games),
            more,
        }
    }

    /// A player's rating, shown rounded (of players online, who alone have seeks).
    pub(super) fn rating_of(&self, name: &str) -> String {
        match self.online.get(name) {
            Some(online) => format!("{:.0}", online.rating.rating),
            None => "?".to_string(),
        }
    }

    /// The players online.
    pub(super) fn who(&self) -> String {
        let mut lines = vec![format!("{} online:", self.online.len())];
        for (name, online) in self.online.iter().take(MOST_LISTED) {
            let doing = match online.game {
                Some(game) => format!("playing game {game}"),
                None => "in the lobby".to_string(),
            };
            lines.push(format!("  {name} ({}) {doing}", self.rating_of(name)));
        }
        let more = self.online.len().saturating_sub(MOST_LISTED);
        if more > 0 {
            lines.push(format!("  ... and {more} more"));
        }
        lines.join("\n")
    }

    /// The games in play.
    pub(super) fn games_text(&self, viewer: &str) -> String {
        if self.games.is_empty() {
            return "No games in play.".to_string();
        }
        let mut lines = vec!["Games in play:".to_string()];
        for (n, table) in self.listed_games(viewer).into_iter().take(MOST_LISTED) {
            let kind = if table.rated { "rated" } else { "casual" };
            let waiting = if table.adjourned.is_some() {
                ", adjourned"
            } else {
                ""
            };
            lines.push(format!(
                "  {n}: {} - {}, {} {kind}, {} moves played{waiting}",
                table.names[0],
                table.names[1],
                table.clock,
                table.session.game().moves().len()
            ));
        }
        let more = self.games.len().saturating_sub(MOST_LISTED);
        if more > 0 {
            lines.push(format!("  ... and {more} more"));
        }
        lines.join("\n")
    }

    /// The games as lists show them to `viewer`: their own first, then those in play,
    /// then the adjourned, the newest first in each, so that games left waiting (up to
    /// the days an adjourned game is kept) cannot push the games in play off a list.
    pub(super) fn listed_games(&self, viewer: &str) -> Vec<(&u64, &Table)> {
        let mut games: Vec<(&u64, &Table)> = self.games.iter().collect();
        games.sort_by_key(|(number, table)| {
            (
                !table.names.iter().any(|n| n == viewer),
                table.adjourned.is_some(),
                std::cmp::Reverse(**number),
            )
        });
        games
    }

    /// Tells `name` a player's rating and record, as the database holds them.
    pub(super) fn player(&mut self, name: &str, who: String) {
        let Some(to) = self.recipient(name) else {
            return;
        };
        let online = if self.online.contains_key(&who) {
            "; online"
        } else {
            ""
        };
        let answer = self.store.ask(move |db| {
            let text = match db.player(&who) {
                Ok(Some(p)) => {
                    let [won, lost, drawn, abandoned] = db.record(p.id).unwrap_or_default();
                    format!(
                        "{who}: rating {:.0} (deviation {:.0}); {won} won, {lost} lost, \
                         {drawn} drawn, {abandoned} abandoned{online}",
                        p.rating.rating, p.rating.deviation,
                    )
                }
                Ok(None) => format!("No player is called {who} here."),
                Err(e) => e,
            };
            ServerMessage::Info { text }
        });
        self.outbox.post(Post::Answer { to, answer });
    }

    /// A page of `name`'s finished games, after game `after`.
    pub(super) fn export(&mut self, name: &str, after: u64) {
        let Some(id) = self.online.get(name).map(|o| o.id) else {
            return;
        };
        let Some(to) = self.recipient(name) else {
            return;
        };
        let page = protocol::EXPORT_PAGE;
        let answer = self.store.ask(move |db| match db.records(id, after, page) {
            Ok(records) => {
                let next = (records.len() == page)
                    .then(|| records.last().map(|(game, _)| *game))
                    .flatten();
                let games = records.into_iter().map(|(_, pdn)| pdn).collect();
                ServerMessage::Records { games, next }
            }
            Err(e) => {
                tracing::error!(error = e, "cannot read a player's games");
                ServerMessage::Rejected {
                    reason: "the server cannot read your games now".to_string(),
                }
            }
        });
        self.outbox.post(Post::Answer { to, answer });
    }
}
