//! Ignore lists (`ignore NAME`, `unignore NAME`, `ignore`): a player stops a pest, as
//! FICS's `censor`. While alice ignores bob, bob's tells to her are refused to him in
//! words, his lines at a table are not shown to her, his challenges and rematch offers
//! to her are refused to him in words, her seeks are not his to take, and his seeks are
//! not listed to her. The challenges open between them when she ignores him go: his
//! to her declined, hers to him withdrawn, each told as `cancel` tells it. Kept for the
//! account in the database (read at login).
//!
//! Names are exact (`Alice` and `alice` may be two players in a database from before
//! such pairs were refused), so `ignore NAME` takes the account of exactly that name,
//! else the one whose name differs from it only in case, saying so; a name no account
//! has is refused in words rather than kept for nobody.

use super::super::outbox::{Apply, Post};
use super::*;

/// The most changes (`ignore NAME`, `unignore NAME`) one player makes to their list in
/// an [`IGNORE_CHANGE_WINDOW`]: each is a write to the database, and a person tidying
/// their list makes far fewer.
pub(crate) const IGNORE_CHANGES_PER_WINDOW: usize = 20;
/// The window [`IGNORE_CHANGES_PER_WINDOW`] counts in.
pub(crate) const IGNORE_CHANGE_WINDOW: std::time::Duration = std::time::Duration::from_secs(60);

/// What a change asked of an ignore list came to in the database.
enum Changed {
    /// Done, to this account's name.
    Done(String),
    /// Nothing to do: this account's name was ignored already (`ignore`).
    Already(String),
    /// No account (`ignore`), or no name on the list (`unignore`), is meant.
    NoneMeant,
    /// Several accounts (or names on the list) differ from the name typed only in case.
    Several(Vec<String>),
    /// The account meant is the player's own.
    Yourself,
    /// The list holds its most already.
    Full,
}

/// `id` (named `asker`) ignores the account `typed` means (`on`), or no longer ignores
/// the name on their list it means: what came of it.
fn change_list(
    db: &mut super::super::db::Db,
    (id, asker): (i64, &str),
    typed: &str,
    on: bool,
) -> Result<Changed, String> {
    let list = db.ignored_by(id)?;
    let meant = if on {
        db.names_meant(typed)?
    } else if list.iter().any(|n| n == typed) {
        vec![typed.to_string()]
    } else {
        list.iter()
            .filter(|n| n.eq_ignore_ascii_case(typed))
            .cloned()
            .collect()
    };
    let whom = match meant.as_slice() {
        [] => return Ok(Changed::NoneMeant),
        [one] => one.clone(),
        several => return Ok(Changed::Several(several.to_vec())),
    };
    if on {
        if whom == asker {
            return Ok(Changed::Yourself);
        }
        if list.contains(&whom) {
            return Ok(Changed::Already(whom));
        }
        if list.len() >= protocol::MAX_IGNORED {
            return Ok(Changed::Full);
        }
    }
    db.set_ignored(id, &whom, on)?;
    Ok(Changed::Done(whom))
}

/// ` (you typed Alice)` where the name taken differs from the one typed, else nothing.
fn typed_note(whom: &str, typed: &str) -> String {
    if whom == typed {
        String::new()
    } else {
        format!(" (you typed {typed})")
    }
}

impl Lobby {
    /// `name` ignores the account `whom` means at `now`, or is told the names they
    /// ignore (`whom` none).
    pub(super) fn ignore(&mut self, name: &str, whom: Option<&str>, now: Instant) {
        let Some(online) = self.online.get(name) else {
            return;
        };
        let Some(whom) = whom.map(str::trim).filter(|w| !w.is_empty()) else {
            let text = if online.ignoring.is_empty() {
                "You ignore nobody (ignore NAME stops a player's tells, lines, \
                 challenges, seeks and rematch offers reaching you)"
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
        self.change_ignoring(name, whom, true, now);
    }

    /// `name` no longer ignores the name on their list `whom` means, at `now`.
    pub(super) fn unignore(&mut self, name: &str, whom: &str, now: Instant) {
        let whom = whom.trim();
        if whom.is_empty() {
            return self.reject(name, "unignore whom? (unignore NAME; ignore lists them)");
        }
        if let Some(problem) = protocol::name_problem(whom) {
            return self.reject(name, format!("nobody can be named so: {problem}"));
        }
        self.change_ignoring(name, whom, false, now);
    }

    /// `name` asks at `now` to ignore (`on`) the account `typed` means, or to stop
    /// ignoring it: bounded per player, decided and stored by the database's thread
    /// (which holds the list as it stands), then told and kept online.
    fn change_ignoring(&mut self, name: &str, typed: &str, on: bool, now: Instant) {
        let Some(online) = self.online.get_mut(name) else {
            return;
        };
        let span = IGNORE_CHANGE_WINDOW;
        if let Some(wait) =
            online
                .ignore_changes
                .wait_for_room(now, span, IGNORE_CHANGES_PER_WINDOW)
        {
            let reason = format!(
                "you changed your ignore list {IGNORE_CHANGES_PER_WINDOW} times in {} s: \
                 nothing changed; try again in {} s",
                span.as_secs(),
                wait.as_secs().max(1)
            );
            return self.reject(name, reason);
        }
        online.ignore_changes.push(now, ());
        let id = online.id;
        let (asker, typed) = (name.to_string(), typed.to_string());
        let answer = self.store.ask(move |db| -> Apply {
            let changed = change_list(db, (id, &asker), &typed, on);
            Box::new(move |lobby: &mut Lobby| lobby.ignoring_changed(&asker, &typed, on, changed))
        });
        self.outbox.post(Post::Apply(answer));
    }

    /// What `name`'s change to their list (ignoring `typed`: `on`) came to in the
    /// database: kept online, and told.
    fn ignoring_changed(
        &mut self,
        name: &str,
        typed: &str,
        on: bool,
        changed: Result<Changed, String>,
    ) {
        let typed = crate::text::printable(typed, 40);
        let changed = match changed {
            Ok(changed) => changed,
            Err(error) => {
                tracing::error!(error, player = name, "cannot change an ignore list");
                return self.reject(name, format!("the server cannot store that now: {error}"));
            }
        };
        let text = match changed {
            Changed::Done(whom) => {
                let note = typed_note(&whom, &typed);
                if let Some(online) = self.online.get_mut(name) {
                    if on {
                        online.ignoring.insert(whom.clone());
                    } else {
                        online.ignoring.remove(&whom);
                    }
                }
                if on {
                    self.drop_challenges_between(name, &whom);
                    // Short, so that an 80-column lobby's status line holds it whole.
                    format!("You ignore {whom}{note} (unignore {whom} to hear them again)")
                } else {
                    format!("You no longer ignore {whom}{note}")
                }
            }
            Changed::Already(whom) => {
                let note = typed_note(&whom, &typed);
                format!("You ignore {whom}{note} already (unignore {whom} to hear them again)")
            }
            Changed::NoneMeant if on => {
                return self.reject(
                    name,
                    format!(
                        "no player is named {typed}: nothing changed (who lists who is online)"
                    ),
                );
            }
            Changed::NoneMeant => {
                return self.reject(
                    name,
                    format!("you do not ignore {typed} (ignore lists whom you do)"),
                );
            }
            Changed::Several(names) => {
                return self.reject(
                    name,
                    format!(
                        "{} differ from {typed} only in case: type the name exactly; nothing \
                         changed",
                        names.join(" and ")
                    ),
                );
            }
            Changed::Yourself => return self.reject(name, "you cannot ignore yourself"),
            Changed::Full => {
                return self.reject(
                    name,
                    format!(
                        "you ignore {} players, the most: unignore one first (ignore lists them)",
                        protocol::MAX_IGNORED
                    ),
                );
            }
        };
        self.send(name, ServerMessage::Info { text });
    }

    /// Whether `name` ignores `whom` (both online).
    pub(super) fn ignores(&self, name: &str, whom: &str) -> bool {
        self.online
            .get(name)
            .is_some_and(|online| online.ignoring.contains(whom))
    }

    /// `whom` is not online, in words: names are exact, so a player online whose name
    /// differs only in case is named (`Alice is not online (did you mean alice?)`).
    pub(super) fn not_online(&self, whom: &str) -> String {
        match self.online.keys().find(|n| n.eq_ignore_ascii_case(whom)) {
            Some(like) => format!("{whom} is not online (names are exact: did you mean {like}?)"),
            None => format!("{whom} is not online (who lists who is)"),
        }
    }
}
