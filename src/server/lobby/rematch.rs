//! Rematches: a game just ended may be played again, colours swapped, when one player
//! offers and the other accepts.

use super::chat::Chat;
use super::ratings::unrated_note;
use super::*;

/// A game just ended, which its players may play again, colours swapped.
pub(super) struct Rematch {
    /// Black's and White's names in the game ended.
    pub(super) names: [String; 2],
    /// Its clock.
    pub(super) clock: TimeControl,
    /// The clock as given.
    pub(super) clock_text: String,
    /// Whether it was rated.
    pub(super) rated: bool,
    /// The ballot it opened with: the rematch plays the other side of it, as a match
    /// plays each ballot with both colours.
    pub(super) opening: Option<crate::engine::Opening>,
    /// Who offered the rematch, if one did.
    pub(super) offered_by: Option<String>,
    /// The lines of its table's chat, the game's last ones kept: its players talk on
    /// after the game ("good game") within the table's bound.
    pub(super) chat: Chat,
}

impl Lobby {
    /// The game `name` may play again, and their opponent there.
    pub(super) fn rematch_of(&self, name: &str) -> Option<(u64, String)> {
        self.rematches.iter().find_map(|(game, r)| {
            let i = r.names.iter().position(|n| n == name)?;
            Some((*game, r.names[1 - i].clone()))
        })
    }

    /// `name` offers a rematch, or accepts the one their opponent offered: the new game
    /// has the same clock, kind and ballot, colours swapped.
    pub(super) fn rematch(&mut self, name: &str, now: Instant) {
        let Some((game, other)) = self.rematch_of(name) else {
            return self.reject(
                name,
                "no game to play again: rematch follows a game just ended",
            );
        };
        if self.online.get(name).is_some_and(|o| o.game.is_some()) {
            return self.reject(name, "you are playing a game: finish it first");
        }
        if !self.online.contains_key(&other) {
            self.rematches.remove(&game);
            return self.reject(name, format!("{other} is not online"));
        }
        let Some(offered_by) = self.rematches.get(&game).map(|r| r.offered_by.clone()) else {
            return;
        };
        match offered_by.as_deref() {
            Some(by) if by == name => self.reject(name, "you offered a rematch already"),
            Some(_) => {
                let Some(rematch) = self.rematches.remove(&game) else {
                    return;
                };
                let [black, white] = rematch.names;
                tracing::info!(game, "rematch");
                self.start_game(
                    [white, black],
                    (rematch.clock, rematch.clock_text, rematch.rated),
                    rematch.opening,
                    now,
                );
            }
            // Offered to one ignoring them: refused to them, never shown to the other.
            None if self.ignores(&other, name) => self.reject(
                name,
                format!("{other} is ignoring you: your rematch offer was not made"),
            ),
            None => {
                let Some(rematch) = self.rematches.get_mut(&game) else {
                    return;
                };
                rematch.offered_by = Some(name.to_string());
                let (rated, clock_text) = (rematch.rated, rematch.clock_text.clone());
                let kind = if rated { "rated" } else { "casual" };
                let unrated =
                    unrated_note(rated.then(|| self.unrated_why([name, &other])).flatten());
                // In the words of the client that takes it: the full screen's keys
                // (its board's key line says n, its lobby's help m and d), plain
                // mode's commands.
                let taking = if self.on_board(&other) {
                    "n on the board or m in the lobby accepts it, d in the lobby declines it"
                } else {
                    "rematch accepts it, decline declines it"
                };
                let told = format!(
                    "{name} offers a rematch ({clock_text} {kind}, colours swapped): \
                     {taking}.{unrated}"
                );
                self.send(&other, ServerMessage::Info { text: told });
                let text = format!("Rematch offered to {other}.{unrated}");
                self.send(name, ServerMessage::Info { text });
            }
        }
    }

    /// `name` declines the rematch their opponent offered (a new offer may follow).
    pub(super) fn decline(&mut self, name: &str) {
        if self.decline_draw(name) {
            return;
        }
        let offered = self.rematch_of(name).and_then(|(game, other)| {
            let rematch = self.rematches.get_mut(&game)?;
            (rematch.offered_by.as_deref() == Some(other.as_str())).then(|| {
                rematch.offered_by = None;
                other
            })
        });
        let Some(other) = offered else {
            return self.reject(name, protocol::NO_REMATCH_OFFERED);
        };
        let text = format!("{name} declines the rematch.");
        self.send(&other, ServerMessage::Info { text });
        let text = format!("You declined {other}'s rematch.");
        self.send(name, ServerMessage::Info { text });
    }

    /// `name` is gone or busy: the rematch of their last game lapses, and an opponent
    /// who offered or was offered one is told `text`.
    pub(super) fn drop_rematch(&mut self, name: &str, text: &str) {
        let Some((game, other)) = self.rematch_of(name) else {
            return;
        };
        if let Some(rematch) = self.rematches.remove(&game)
            && rematch.offered_by.is_some()
        {
            let text = text.to_string();
            self.send(&other, ServerMessage::Info { text });
        }
    }
}
