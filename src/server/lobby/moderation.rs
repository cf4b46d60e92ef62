//! Moderation, as a club's server needs it: the players its operator made moderators
//! (`checkers server moderator add NAME`) mute, kick and ban the players who spoil the
//! lobby for the others. Each order is checked here, stored (with a line in the
//! moderation log) by the database's thread, logged to stderr, and only then acted on,
//! in its turn among the lobby's messages.

use super::super::db::{Db, Found, ban_reason};
use super::super::outbox::{Apply, Post};
use super::super::protocol::{self, Order, ServerMessage};
use super::Lobby;
use std::collections::{BTreeSet, HashMap};

/// How often the moderators are read again from the database, whatever
/// [`OTHERS_CHANGES_CHECKED_EVERY`] finds: a change it missed is known within this time.
pub(crate) const MODERATORS_READ_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

/// How often the server asks whether another program changed its database (see
/// [`Db::moderators_changed_since`]): a moderator the operator adds or removes while
/// the server runs is told within this time, not at the next [`MODERATORS_READ_EVERY`].
pub(crate) const OTHERS_CHANGES_CHECKED_EVERY: std::time::Duration =
    std::time::Duration::from_secs(1);

/// What the lobby knows of moderation.
#[derive(Default)]
pub(crate) struct Moderation {
    /// The moderators' names, as the database last said.
    moderators: BTreeSet<String>,
    /// The mutes in force: when each ends (unix seconds), by name.
    mutes: HashMap<String, u64>,
    /// The bans ordered since the server started, with their reasons, by name: a login
    /// the database let in just before the ban was stored is refused all the same.
    banned: HashMap<String, String>,
    /// The database's version when the moderators were last read on another
    /// program's change (none: not yet).
    seen_version: Option<i64>,
}

impl Moderation {
    /// Moderation as the database holds it at `now` (unix seconds): its moderators and
    /// the mutes in force.
    pub(crate) fn read(db: &Db, now: u64) -> Result<Moderation, String> {
        Ok(Moderation {
            moderators: db.moderators()?.into_iter().collect(),
            mutes: db.mutes(now)?.into_iter().collect(),
            banned: HashMap::new(),
            seen_version: None,
        })
    }
}

/// What became of an order at the database.
enum Stored {
    /// Done (for `unmute`, `unban`: whether there was a mute, a ban, to lift), with
    /// every name of the player's key, theirs among them.
    Done(Found, bool, Vec<String>),
    /// No player of that name.
    NoSuchPlayer,
    /// The player is a moderator: only the operator deals with them.
    Moderator(Found),
}

/// What a moderator is told of the key's `others` names an order reached too.
fn also(others: &[String]) -> String {
    if others.is_empty() {
        String::new()
    } else {
        format!(" The same key's other names too: {}.", others.join(", "))
    }
}

/// The end of a mute of `minutes` from `now` (unix seconds).
fn mute_end(now: u64, minutes: u32) -> u64 {
    now + u64::from(minutes) * 60
}

/// `until` (unix seconds) as a player reads it, from `now`: `14:32 UTC, in 12 minutes`
/// (the date too when it is not today's).
pub(crate) fn until_words(until: u64, now: u64) -> String {
    let at = |t: u64| jiff::Timestamp::from_second(t as i64).unwrap_or(jiff::Timestamp::UNIX_EPOCH);
    let (end, today) = (at(until), at(now));
    let same_day = end.strftime("%F").to_string() == today.strftime("%F").to_string();
    let clock = if same_day {
        end.strftime("%H:%M UTC").to_string()
    } else {
        end.strftime("%F %H:%M UTC").to_string()
    };
    let minutes = until.saturating_sub(now).div_ceil(60);
    let left = match minutes {
        1 => "1 minute".to_string(),
        m if m < 120 => format!("{m} minutes"),
        m if m < 48 * 60 => format!("{} hours", m / 60),
        m => format!("{} days", m / (24 * 60)),
    };
    format!("{clock}, in {left}")
}

/// A reason as stored and told ([`ban_reason`]), or words saying none was given.
fn reason_of(reason: Option<&str>) -> String {
    ban_reason(reason.unwrap_or_default())
}

/// What a banned player is told at each login refused.
pub(crate) fn banned_words(reason: &str) -> String {
    format!(
        "{}: {reason} (its operator or a moderator may lift the ban)",
        protocol::BANNED_HEAD
    )
}

impl Lobby {
    /// Whether `name` is one of the server's moderators.
    pub(crate) fn is_moderator(&self, name: &str) -> bool {
        self.moderation.moderators.contains(name)
    }

    /// The database says at `name`'s login until when their key is muted, if it is (a
    /// mute ordered since the database answered is kept: it was stored after).
    pub(crate) fn note_mute(&mut self, name: &str, until: Option<u64>) {
        if let Some(until) = until {
            let kept = self
                .moderation
                .mutes
                .entry(name.to_string())
                .or_insert(until);
            *kept = (*kept).max(until);
        }
    }

    /// The database says at `name`'s login whether they are a moderator.
    pub(crate) fn note_moderator(&mut self, name: &str, moderator: bool) {
        if moderator {
            self.moderation.moderators.insert(name.to_string());
        } else {
            self.moderation.moderators.remove(name);
        }
    }

    /// The reason of a ban on `name` ordered since the server started, if one is in
    /// force.
    pub(crate) fn banned_now(&self, name: &str) -> Option<String> {
        self.moderation.banned.get(name).cloned()
    }

    /// When `name`'s mute ends (unix seconds), if they are muted at `now`.
    pub(crate) fn muted_until(&self, name: &str, now: u64) -> Option<u64> {
        self.moderation
            .mutes
            .get(name)
            .copied()
            .filter(|&until| until > now)
    }

    /// The moderators read again from the database (see [`MODERATORS_READ_EVERY`]).
    pub(crate) fn read_moderators(&mut self) {
        let answer = self.store.ask(|db| -> Apply {
            match db.moderators() {
                Ok(names) => Box::new(move |lobby: &mut Lobby| {
                    lobby.moderators_are(names.into_iter().collect());
                }),
                Err(error) => {
                    tracing::error!(error, "cannot read the moderators");
                    Box::new(|_: &mut Lobby| {})
                }
            }
        });
        self.outbox.post(Post::Apply(answer));
    }

    /// The moderators read again if another program (the operator's `checkers server
    /// moderator`) changed the database since the last look (see
    /// [`OTHERS_CHANGES_CHECKED_EVERY`]).
    pub(crate) fn read_moderators_if_changed(&mut self) {
        let seen = self.moderation.seen_version;
        let answer = self.store.ask(move |db| -> Apply {
            match db.moderators_changed_since(seen) {
                Ok(Some((version, names))) => Box::new(move |lobby: &mut Lobby| {
                    lobby.moderation.seen_version = Some(version);
                    lobby.moderators_are(names.into_iter().collect());
                }),
                Ok(None) => Box::new(|_: &mut Lobby| {}),
                Err(error) => {
                    tracing::error!(error, "cannot read the moderators");
                    Box::new(|_: &mut Lobby| {})
                }
            }
        });
        self.outbox.post(Post::Apply(answer));
    }

    /// The database says the moderators are `moderators`: each player online made one,
    /// or no longer one, is told so at once, with a welcome that says it (a client
    /// offers the orders by it), so that nobody logs in again for it.
    fn moderators_are(&mut self, moderators: BTreeSet<String>) {
        let changed: Vec<(String, bool, f64)> = self
            .online
            .iter()
            .filter_map(|(name, online)| {
                let now = moderators.contains(name);
                (now != self.moderation.moderators.contains(name))
                    .then(|| (name.clone(), now, online.rating.rating))
            })
            .collect();
        self.moderation.moderators = moderators;
        for (name, moderator, rating) in changed {
            tracing::warn!(
                player = name,
                moderator,
                "a moderator's right changed while online"
            );
            let welcome = ServerMessage::Welcome {
                name: name.clone(),
                new: false,
                rating,
                moderator,
                knows: protocol::server_knows(),
            };
            self.send(&name, welcome);
            let text = if !moderator {
                "You are no longer a moderator: your orders are refused from now on.".to_string()
            } else if self.on_board(&name) {
                "You are a moderator now: / in the lobby types an order (mute, unmute, kick, ban, \
                 unban NAME)."
                    .to_string()
            } else {
                "You are a moderator now: help lists the orders (mute, unmute, kick, ban, unban \
                 NAME)."
                    .to_string()
            };
            self.send(&name, ServerMessage::Info { text });
        }
    }

    /// `by` gives `order`: checked here, then stored and acted on once the database
    /// has it (see [`moderated`](Self::moderated)).
    pub(crate) fn moderate(&mut self, by: &str, order: Order) {
        let word = order.word();
        if !self.is_moderator(by) {
            tracing::warn!(
                player = by,
                order = word,
                target = order.name(),
                "a moderator's order from a player who is not one: refused"
            );
            return self.reject(
                by,
                format!(
                    "{word} is for the server's moderators, and you are not one (its operator \
                     makes moderators)"
                ),
            );
        }
        let target = order.name().to_string();
        if let Some(problem) = protocol::name_problem(&target) {
            return self.reject(by, format!("{word} {target}: {problem}"));
        }
        if target.eq_ignore_ascii_case(by) && !matches!(order, Order::Unmute { .. }) {
            return self.reject(by, format!("you cannot {word} yourself"));
        }
        // Checked and made whole here, so that the database stores what is acted on.
        let order = match order {
            Order::Mute { name, minutes } => {
                let minutes = minutes.unwrap_or(protocol::MUTE_MINUTES);
                if !(1..=protocol::MUTE_MINUTES_MOST).contains(&minutes) {
                    return self.reject(
                        by,
                        format!(
                            "a mute lasts 1 to {} minutes (a week), not {minutes}: for longer, ban",
                            protocol::MUTE_MINUTES_MOST
                        ),
                    );
                }
                Order::Mute {
                    name,
                    minutes: Some(minutes),
                }
            }
            Order::Ban { name, reason } => {
                // Refused, not cleaned, so that the moderator sees what they sent: a
                // banned player's client showed each such character as `?`.
                if let Some(problem) = reason.as_deref().and_then(crate::text::hidden_problem) {
                    return self.reject(by, format!("ban {name}: the reason's {problem}"));
                }
                let reason = reason_of(reason.as_deref());
                if reason.chars().count() > protocol::MAX_REASON {
                    return self.reject(
                        by,
                        format!(
                            "a ban's reason is at most {} characters (this one has {})",
                            protocol::MAX_REASON,
                            reason.chars().count()
                        ),
                    );
                }
                Order::Ban {
                    name,
                    reason: Some(reason),
                }
            }
            Order::Kick { name } => {
                // Exactly as logged in: only a player online is kicked.
                let online = self
                    .online
                    .keys()
                    .find(|n| n.eq_ignore_ascii_case(&name))
                    .cloned();
                let Some(name) = online else {
                    return self.reject(by, format!("{name} is not online (who lists who is)"));
                };
                Order::Kick { name }
            }
            order => order,
        };
        let by = by.to_string();
        let now = crate::store::now_unix();
        let answer = self.store.ask(move |db| -> Apply {
            let stored = store_order(db, &by, &order, now);
            Box::new(move |lobby: &mut Lobby| lobby.moderated(&by, order, stored, now))
        });
        self.outbox.post(Post::Apply(answer));
    }

    /// `by`'s `order`, given at `now` (unix seconds), is stored (or why not): acted on,
    /// logged, and everyone concerned told.
    fn moderated(&mut self, by: &str, order: Order, stored: Result<Stored, String>, now: u64) {
        let word = order.word();
        let found = match stored {
            Ok(Stored::Done(found, done, names)) => (found, done, names),
            Ok(Stored::NoSuchPlayer) => {
                let text = format!(
                    "no player {} at this server: nobody to {word}",
                    order.name()
                );
                return self.reject(by, text);
            }
            Ok(Stored::Moderator(found)) => {
                let text = format!(
                    "only the server's operator deals with a moderator such as {} \
                     (checkers server moderator remove {})",
                    found.name, found.name
                );
                return self.reject(by, text);
            }
            Err(error) => {
                tracing::error!(
                    error,
                    moderator = by,
                    order = word,
                    "a moderator's order is not stored"
                );
                return self.reject(by, format!("the server cannot store that now: {error}"));
            }
        };
        let (found, done, names) = found;
        let name = found.name;
        // The key's other names: a mute or a ban reaches them as it does `name`.
        let others: Vec<String> = names.into_iter().filter(|n| *n != name).collect();
        let online = self.online.contains_key(&name);
        let told = match order {
            Order::Mute { minutes, .. } => {
                let minutes = minutes.unwrap_or(protocol::MUTE_MINUTES);
                let until = mute_end(now, minutes);
                tracing::warn!(moderator = by, player = name, minutes, "muted");
                let when = until_words(until, now);
                let text = format!(
                    "A moderator muted you until {when}: nothing you say at a table is heard \
                     until then."
                );
                for muted in std::iter::once(&name).chain(&others) {
                    self.moderation.mutes.insert(muted.clone(), until);
                    self.send(muted, ServerMessage::Info { text: text.clone() });
                }
                format!("Muted {name} until {when}.{}", also(&others))
            }
            Order::Unmute { .. } => {
                for muted in std::iter::once(&name).chain(&others) {
                    self.moderation.mutes.remove(muted);
                }
                tracing::warn!(moderator = by, player = name, was_muted = done, "unmuted");
                if !done {
                    format!("{name} was not muted: nothing to lift.")
                } else {
                    let text =
                        "A moderator lifted your mute: you may talk at tables again.".to_string();
                    self.send(&name, ServerMessage::Info { text });
                    format!("Unmuted {name}: they may talk again.")
                }
            }
            Order::Kick { .. } => {
                tracing::warn!(moderator = by, player = name, "kicked");
                let reason = match self.online.get(&name).and_then(|o| o.game) {
                    Some(game) => format!(
                        "a moderator disconnected you: game {game} is adjourned, its clocks \
                         stopped, not lost; log in again to go on with it"
                    ),
                    None => "a moderator disconnected you".to_string(),
                };
                let game = self.kick(&name, reason, false);
                match game {
                    Some(game) => format!("Kicked {name}; game {game} is adjourned."),
                    None => format!("Kicked {name}."),
                }
            }
            Order::Ban { reason, .. } => {
                let reason = reason.unwrap_or_default();
                tracing::warn!(moderator = by, player = name, reason, "banned");
                for banned in std::iter::once(&name).chain(&others) {
                    self.moderation
                        .banned
                        .insert(banned.clone(), reason.clone());
                }
                // The key's other names go too, their games ended as its own.
                for other in &others {
                    self.banned_away(other, &reason);
                }
                let game = self.banned_away(&name, &reason);
                let told = match game {
                    Some(game) if online => format!(
                        "Banned {name} ({reason}) and kicked them; game {game} ends as \
                         abandoned (unrated)."
                    ),
                    Some(game) => format!(
                        "Banned {name} ({reason}); game {game} ends as abandoned (unrated)."
                    ),
                    None if online => format!("Banned {name} ({reason}) and kicked them."),
                    None => format!("Banned {name} ({reason})."),
                };
                format!("{told}{}", also(&others))
            }
            Order::Unban { .. } => {
                for banned in std::iter::once(&name).chain(&others) {
                    self.moderation.banned.remove(banned);
                }
                tracing::warn!(moderator = by, player = name, was_banned = done, "unbanned");
                if done {
                    format!("Unbanned {name}: they may log in again.")
                } else {
                    format!("{name} was not banned: nothing to lift.")
                }
            }
        };
        self.send(by, ServerMessage::Info { text: told });
    }

    /// `name`, just banned for `reason`, is kicked if online, and their game (adjourned
    /// by the kick or before) ends as abandoned: it cannot go on, and its opponent is
    /// not kept waiting on it for an unban. The game ended, if one.
    fn banned_away(&mut self, name: &str, reason: &str) -> Option<u64> {
        let kicked = self
            .online
            .contains_key(name)
            .then(|| self.kick(name, banned_words(reason), true))
            .flatten();
        let game = kicked.or_else(|| {
            self.games
                .iter()
                .find(|(_, table)| table.side_of(name).is_some())
                .map(|(game, _)| *game)
        })?;
        let text = format!(
            "A moderator banned {name}: game {game} ends as abandoned, counting for neither \
             of you. You are free to play."
        );
        let watchers_text =
            format!("A moderator banned {name}: game {game} ends as abandoned (unrated).");
        self.abandon(game, &text, &watchers_text);
        Some(game)
    }

    /// A moderator lets `name` go (`banned` too), telling them `reason`: a game they
    /// play is adjourned at once (even with the other player at it), and waits for them
    /// however long the other is back, so that it is never lost for the kick. The
    /// game adjourned, if one.
    fn kick(&mut self, name: &str, reason: String, banned: bool) -> Option<u64> {
        let game = self.online.get(name)?.game;
        let adjourned = game.and_then(|game| {
            let table = self.games.get_mut(&game)?;
            let color = table.side_of(name)?;
            table.held_for = Some(super::index(color));
            let other = table.names[super::index(!color)].clone();
            let in_play = table.adjourned.is_none();
            if in_play {
                self.adjourn_now(game);
            }
            // A ban's notice is the game's end, told by the caller.
            if !banned {
                let text = format!(
                    "A moderator disconnected {name}: game {game} is adjourned, its clocks \
                     stopped, until you are both back."
                );
                self.send(&other, ServerMessage::Info { text });
            }
            // Told of the kick: leaving the game is not told again.
            if let Some(table) = self.games.get_mut(&game) {
                table.presence.told[super::index(color)] = super::presence::Whereabouts::Gone;
            }
            Some(game)
        });
        self.send(name, ServerMessage::Refused { reason });
        self.gone(name);
        adjourned
    }
}

/// Stores `by`'s `order` at `now` (unix seconds), and its line in the moderation log.
fn store_order(db: &mut Db, by: &str, order: &Order, now: u64) -> Result<Stored, String> {
    let Some(found) = db.find_player(order.name())? else {
        return Ok(Stored::NoSuchPlayer);
    };
    if found.moderator && !matches!(order, Order::Unmute { .. } | Order::Unban { .. }) {
        return Ok(Stored::Moderator(found));
    }
    let (done, detail) = match order {
        Order::Mute { minutes, .. } => {
            let minutes = minutes.unwrap_or(protocol::MUTE_MINUTES);
            db.mute(&found, mute_end(now, minutes), by)?;
            (true, format!("{minutes} minutes"))
        }
        Order::Unmute { .. } => (db.unmute(&found, now)?, String::new()),
        Order::Kick { .. } => (true, String::new()),
        Order::Ban { reason, .. } => {
            let reason = reason.clone().unwrap_or_default();
            db.ban(&found, &reason, by, now)?;
            (true, reason)
        }
        Order::Unban { .. } => (db.unban(&found)?, String::new()),
    };
    db.log_moderation(now, by, order.word(), &found.name, &detail)?;
    let names = db.names_of_key(&found)?;
    Ok(Stored::Done(found, done, names))
}
