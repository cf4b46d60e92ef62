//! Ignore lists (`ignore NAME`, `unignore NAME`, `ignore`): a player stops a pest, as
//! FICS's `censor`. While alice ignores bob, bob's tells to her are refused to him in
//! words, his lines at a table are not shown to her, and his challenges to her are
//! refused to him in words. Kept for the account in the database (read at login).

use super::*;

impl Lobby {
    /// `name` ignores `whom`, or is told the names they ignore (`whom` none).
    pub(super) fn ignore(&mut self, name: &str, whom: Option<&str>) {
        let Some(online) = self.online.get(name) else {
            return;
        };
        let Some(whom) = whom.map(str::trim).filter(|w| !w.is_empty()) else {
            let text = if online.ignoring.is_empty() {
                "You ignore nobody (ignore NAME stops a player's tells, lines and \
                 challenges reaching you)"
                    .to_string()
            } else {
                let names: Vec<&str> = online.ignoring.iter().map(String::as_str).collect();
                format!(
                    "You ignore {} of at most {}: {}",
                    names.len(),
                    protocol::MAX_IGNORED,
                    names.join(", ")
                )
            };
            return self.send(name, ServerMessage::Info { text });
        };
        if let Some(problem) = protocol::name_problem(whom) {
            return self.reject(name, format!("nobody can be named so: {problem}"));
        }
        if whom == name {
            return self.reject(name, "you cannot ignore yourself");
        }
        if online.ignoring.contains(whom) {
            let text = format!("You ignore {whom} already (unignore {whom} to hear them again)");
            return self.send(name, ServerMessage::Info { text });
        }
        if online.ignoring.len() >= protocol::MAX_IGNORED {
            return self.reject(
                name,
                format!(
                    "you ignore {} players, the most: unignore one first (ignore lists them)",
                    protocol::MAX_IGNORED
                ),
            );
        }
        let id = online.id;
        if let Some(online) = self.online.get_mut(name) {
            online.ignoring.insert(whom.to_string());
        }
        let stored = whom.to_string();
        self.store_then_tell(None, move |db| db.set_ignored(id, &stored, true));
        // Short, so that an 80-column lobby's status line holds it whole.
        let text = format!("You ignore {whom} (unignore {whom} to hear them again)");
        self.send(name, ServerMessage::Info { text });
    }

    /// `name` no longer ignores `whom`.
    pub(super) fn unignore(&mut self, name: &str, whom: &str) {
        let whom = whom.trim();
        let Some(online) = self.online.get_mut(name) else {
            return;
        };
        if !online.ignoring.remove(whom) {
            let whom = crate::text::printable(whom, 40);
            return self.reject(
                name,
                format!("you do not ignore {whom} (ignore lists whom you do)"),
            );
        }
        let id = online.id;
        let stored = whom.to_string();
        self.store_then_tell(None, move |db| db.set_ignored(id, &stored, false));
        let text = format!("You no longer ignore {whom}");
        self.send(name, ServerMessage::Info { text });
    }

    /// Whether `name` ignores `whom` (both online).
    pub(super) fn ignores(&self, name: &str, whom: &str) -> bool {
        self.online
            .get(name)
            .is_some_and(|online| online.ignoring.contains(whom))
    }
}
