//! Private lines (`tell NAME TEXT`): one player tells another wherever they are, in the
//! lobby or at a game, as FICS's `tell`.

use super::*;

/// The window a player's tells are counted in (see [`TELLS_PER_WINDOW`]).
pub(super) const TELL_WINDOW: std::time::Duration = std::time::Duration::from_secs(10);

/// The most lines one player may tell (to anyone) in a [`TELL_WINDOW`]: a person
/// talking tells far fewer, and a flooder cannot drown anyone's screen (nor fill their
/// queue, which would let them go).
pub(crate) const TELLS_PER_WINDOW: usize = 5;

impl Lobby {
    /// `name` tells `whom` the line `text`: `whom` alone hears it, wherever they are,
    /// and `name` is told it went, or why not. Cleaned as a line said at a table is
    /// ([`crate::text::cleaned_line`]).
    pub(super) fn tell(&mut self, name: &str, whom: &str, text: &str, now: Instant) {
        let whom = whom.trim();
        if whom.is_empty() {
            return self.reject(name, "tell whom? (tell NAME TEXT)");
        }
        if let Some(problem) = protocol::name_problem(whom) {
            return self.reject(name, format!("nobody can be named so: {problem}"));
        }
        if whom == name {
            return self.reject(name, "you cannot tell yourself: tell another player");
        }
        let text = crate::text::cleaned_line(text);
        let text = text.trim();
        if text.is_empty() {
            return self.reject(name, format!("tell {whom} what? (tell NAME TEXT)"));
        }
        if text.chars().count() > protocol::MAX_SAID {
            return self.reject(
                name,
                format!(
                    "a line told is at most {} characters (this one has {})",
                    protocol::MAX_SAID,
                    text.chars().count()
                ),
            );
        }
        let unix = crate::store::now_unix();
        if let Some(until) = self.muted_until(name, unix) {
            let when = moderation::until_words(until, unix);
            return self.reject(
                name,
                format!("a moderator muted you until {when}: nobody hears you until then"),
            );
        }
        let Some(recipient) = self.online.get(whom) else {
            let text = self.not_online(whom);
            return self.reject(name, text);
        };
        if recipient.ignoring.contains(name) {
            return self.reject(
                name,
                format!("{whom} is ignoring you: your line was not told to them"),
            );
        }
        let reads_told = recipient.reads_told;
        let Some(sender) = self.online.get_mut(name) else {
            return;
        };
        if sender.tells.recent(now, TELL_WINDOW).count() >= TELLS_PER_WINDOW {
            return self.reject(
                name,
                format!(
                    "you told {TELLS_PER_WINDOW} lines in {} s: tell it again in a moment",
                    TELL_WINDOW.as_secs()
                ),
            );
        }
        sender.tells.push(now, ());
        let message = if reads_told {
            ServerMessage::Told {
                name: name.to_string(),
                text: text.to_string(),
            }
        } else {
            // An older client prints words it does not know as a message it cannot
            // read: it is told the line in words.
            ServerMessage::Info {
                text: format!("{name} tells you: {text}"),
            }
        };
        self.send(whom, message);
        let text = format!("You told {whom}: {text}");
        self.send(name, ServerMessage::Info { text });
    }

    /// `name`'s client is older than [`protocol::KNOWS_TELL`] (its login did not say
    /// it): a line told to them comes as words.
    pub(crate) fn client_without_told(&mut self, name: &str) {
        if let Some(online) = self.online.get_mut(name) {
            online.reads_told = false;
        }
    }
}
