//! A table's chat: what is said at a game (or after it, while its rematch stands), and
//! how much a table carries.

use super::*;

/// The window a table's chat lines are counted in (see [`Limits::table_chat`]).
///
/// [`Limits::table_chat`]: crate::server::Limits::table_chat
pub(super) const TABLE_CHAT_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

/// The lines said at a table in the last [`TABLE_CHAT_WINDOW`]: when, by whom, and
/// whether a player of the table said it.
#[derive(Clone, Debug, Default)]
pub(super) struct Chat {
    /// Each line's speaker and whether they play at the table, oldest first.
    pub(super) said: super::window::Window<(String, bool)>,
}

/// Why a line is not carried at a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ChatFull {
    /// The table carried its `lines` in the window, all who speak together.
    Table,
    /// The speaker said their share of them (see [`speakers_share`]).
    Speaker,
    /// The spectators together said theirs (see [`spectators_share`]).
    Spectators,
}

/// The lines one speaker may say at a table in a [`TABLE_CHAT_WINDOW`], of the
/// `lines` it carries: a quarter (at least one), so that one flooder cannot take
/// every line and silence the others; a person talking says far fewer.
pub(super) fn speakers_share(lines: usize) -> usize {
    (lines / 4).max(1)
}

/// The lines the spectators of a table may say together in a [`TABLE_CHAT_WINDOW`], of
/// the `lines` it carries: what the two players' shares leave (at least one), so that
/// spectators, however many one person makes, never silence the players.
pub(super) fn spectators_share(lines: usize) -> usize {
    lines.saturating_sub(2 * speakers_share(lines)).max(1)
}

impl Chat {
    /// Whether `speaker` (a `player` of the table, or a spectator) may say a line `now`
    /// (counted if so): at most `lines` in any [`TABLE_CHAT_WINDOW`] at the table,
    /// [`speakers_share`] of them each speaker's, [`spectators_share`] all the
    /// spectators'.
    pub(super) fn allows(
        &mut self,
        speaker: &str,
        player: bool,
        now: Instant,
        lines: usize,
    ) -> Result<(), ChatFull> {
        let (mut own, mut spectators, mut all) = (0, 0, 0);
        for (said_by, by_player) in self.said.recent(now, TABLE_CHAT_WINDOW) {
            own += usize::from(said_by == speaker);
            spectators += usize::from(!by_player);
            all += 1;
        }
        if own >= speakers_share(lines) {
            return Err(ChatFull::Speaker);
        }
        if !player && spectators >= spectators_share(lines) {
            return Err(ChatFull::Spectators);
        }
        if all >= lines {
            return Err(ChatFull::Table);
        }
        self.said.push(now, (speaker.to_string(), player));
        Ok(())
    }
}

impl Lobby {
    /// `name` says `text` at their table (the game they play, or else the one they
    /// watch): everyone there hears it, the speaker too, its control characters and
    /// text-direction marks and hidden characters stripped ([`crate::text::cleaned_line`]).
    pub(super) fn say(&mut self, name: &str, text: &str, now: Instant) {
        let Some(online) = self.online.get(name) else {
            return;
        };
        let game = online
            .game
            .or(online.watching)
            .filter(|g| self.games.contains_key(g));
        // After a game its two players still talk at its table, while its rematch
        // stands (until either leaves or starts another game).
        let ended = self.rematch_of(name).filter(|_| game.is_none());
        if game.is_none() && ended.is_none() {
            return self.reject(
                name,
                "you are not at a table: play or watch a game to talk there",
            );
        }
        // Stripped, so that a line cannot move another player's cursor or ring, nor
        // turn what follows it around (a right-to-left override, which clients showed
        // as `?`), nor hide a word: the rule a line told is held to.
        let text = crate::text::cleaned_line(text);
        let text = text.trim();
        if text.is_empty() {
            return self.reject(name, "say what? (say TEXT)");
        }
        if text.chars().count() > protocol::MAX_SAID {
            return self.reject(
                name,
                format!(
                    "a line said at a table is at most {} characters",
                    protocol::MAX_SAID
                ),
            );
        }
        let message = ServerMessage::Said {
            name: name.to_string(),
            text: text.to_string(),
        };
        let unix = crate::store::now_unix();
        if let Some(until) = self.muted_until(name, unix) {
            let when = moderation::until_words(until, unix);
            return self.reject(
                name,
                format!("a moderator muted you until {when}: nobody hears you until then"),
            );
        }
        let lines = self.table_chat;
        let allowed = match (game, &ended) {
            (Some(game), _) => self.games.get_mut(&game).map(|t| {
                let player = t.side_of(name).is_some();
                t.chat.allows(name, player, now, lines)
            }),
            // Only the two players talk at an ended game's table.
            (None, Some((ended, _))) => self
                .rematches
                .get_mut(ended)
                .map(|r| r.chat.allows(name, true, now, lines)),
            (None, None) => None,
        };
        let window = TABLE_CHAT_WINDOW.as_secs();
        match allowed {
            Some(Ok(())) => {}
            Some(Err(ChatFull::Speaker)) => {
                let share = speakers_share(lines);
                return self.reject(
                    name,
                    format!(
                        "you said {share} lines in {window} s, your share of this table's \
                         chat: say it again in a moment"
                    ),
                );
            }
            Some(Err(ChatFull::Spectators)) => {
                let share = spectators_share(lines);
                return self.reject(
                    name,
                    format!(
                        "the spectators said {share} lines in {window} s, their share of this \
                         table's chat (the rest is kept for the players): say it again in a \
                         moment"
                    ),
                );
            }
            Some(Err(ChatFull::Table)) | None => {
                return self.reject(
                    name,
                    format!(
                        "this table's chat is busy ({lines} lines in {window} s): \
                         say it again in a moment"
                    ),
                );
            }
        }
        // The speaker hears it too, as the others do: the echo says it went out.
        let audience = match (game, ended) {
            (Some(game), _) => self.games[&game].audience(game, &self.online),
            (None, Some((_, other))) => vec![name.to_string(), other],
            (None, None) => Vec::new(),
        };
        // Who ignores the speaker is not shown the line (nor told it was kept from
        // them: the speaker learns nothing).
        for n in audience {
            if self.ignores(&n, name) {
                continue;
            }
            self.send(&n, message.clone());
        }
    }
}
