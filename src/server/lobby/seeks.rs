//! Seeks and challenges: the open offers of a game, public, to one player, or at a
//! private table by its code, and their taking, which starts a game.

use super::ratings::unrated_note;
use super::*;
use crate::net::guesses::Guesses;

/// The most seeks `seeks` lists (the oldest first).
pub(super) const MOST_SEEKS_LISTED: usize = 100;

/// An open seek.
pub(super) struct Seek {
    /// Who posted it.
    pub(super) by: String,
    /// Its clock.
    pub(super) clock: TimeControl,
    /// The clock as given.
    pub(super) clock_text: String,
    /// Whether the game would be rated.
    pub(super) rated: bool,
    /// A challenge's player: the only one who sees the seek and may take it.
    pub(super) only: Option<String>,
    /// A private table's code: the seek is hidden, and taken with the code only.
    pub(super) code: Option<String>,
    /// The side and opening asked.
    pub(super) terms: Terms,
}

/// What a seek asks of its game beyond the clock: a side, an opening.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Terms {
    /// The side the seeker plays; none: by lot.
    pub(crate) side: Option<Color>,
    /// Whether the game opens with a ballot drawn from the three-move deck.
    pub(crate) ballot: bool,
}

impl Terms {
    /// The terms a client's message asks: a side (none: by lot) and whether a ballot.
    pub(super) fn asked(side: Option<protocol::Side>, ballot: bool) -> Terms {
        Terms {
            side: side.map(Color::from),
            ballot,
        }
    }

    /// The terms in words, after the clock and kind, for `who` (the seeker's name, or
    /// `you`): `, alice plays White, a ballot opening`.
    pub(super) fn text(&self, who: &str) -> String {
        let mut text = String::new();
        if let Some(side) = self.side {
            let verb = if who == "you" { "play" } else { "plays" };
            text.push_str(&format!(", {who} {verb} {side}"));
        }
        if self.ballot {
            text.push_str(", a ballot opening");
        }
        text
    }
}

/// The open seeks, and the wrong invite codes given for private tables.
#[derive(Default)]
pub(super) struct Seeks {
    /// The open seeks, by number.
    pub(super) open: BTreeMap<u64, Seek>,
    /// The last seek's number (none yet: 0).
    last: u64,
    /// Wrong invite codes, by address: after a few, an address waits before its next
    /// code is looked at (as at a LAN host's door), so codes cannot be guessed.
    guesses: Guesses,
}

impl Seeks {
    /// `seek` is open, under the next number: which.
    fn add(&mut self, seek: Seek) -> u64 {
        self.last += 1;
        self.open.insert(self.last, seek);
        self.last
    }
}

impl Seek {
    /// Whether `name` sees this seek in the list.
    pub(super) fn shown_to(&self, name: &str) -> bool {
        self.code.is_none() && (self.by == name || self.only.as_deref().is_none_or(|o| o == name))
    }
}

impl Lobby {
    /// Whether `viewer` sees `seek` in the lists: as [`Seek::shown_to`] says, unless
    /// they ignore its seeker (whose seeks and challenges are then not theirs to see).
    pub(super) fn seek_shown(&self, seek: &Seek, viewer: &str) -> bool {
        seek.shown_to(viewer) && !self.ignores(viewer, &seek.by)
    }

    /// `name` gives an invite `code`. Wrong codes are counted by the player's address:
    /// three are free, then the address waits, twice as long after each, before its next
    /// code is looked at (even the right one).
    pub(super) fn join(&mut self, name: &str, code: &str, now: Instant) {
        let Some(address) = self.online.get(name).map(|o| o.address) else {
            return;
        };
        if let Some(wait) = self.seeks.guesses.wait_left(address, now) {
            let reason = format!(
                "too many wrong codes from your address: the next is looked at in {}",
                crate::net::guesses::wait_text(wait)
            );
            return self.reject(name, &reason);
        }
        let code = crate::net::normalize_code(code);
        let found = self
            .seeks
            .open
            .iter()
            .find(|(_, s)| s.code.as_deref() == Some(code.as_str()))
            .map(|(number, _)| *number);
        match found {
            // One's own code is no guess: it forgives none of the address's wrong ones.
            Some(number) if self.seeks.open.get(&number).is_some_and(|s| s.by == name) => {
                self.reject(
                    name,
                    "that private table is your own: give its code to a friend",
                );
            }
            Some(number) => {
                self.seeks.guesses.right(address);
                self.take_seek(name, number, now);
            }
            None => {
                let wrong = self.seeks.guesses.wrong(address, now);
                tracing::warn!(name, %address, tries = wrong.tries, "a wrong invite code");
                let reason = match wrong.wait {
                    Some(wait) => format!(
                        "no private table has that code (the next code from your address is \
                         looked at in {})",
                        crate::net::guesses::wait_text(wait)
                    ),
                    None => "no private table has that code".to_string(),
                };
                self.reject(name, &reason);
            }
        }
    }

    /// The open seeks.
    pub(super) fn seeks_text(&self, viewer: &str) -> String {
        let shown: Vec<_> = self
            .seeks
            .open
            .iter()
            .filter(|(_, s)| self.seek_shown(s, viewer))
            .collect();
        if shown.is_empty() {
            return "No open seeks (seek 5+3 rated posts one).".to_string();
        }
        let mut lines = vec!["Open seeks (accept N takes one):".to_string()];
        // A crowd's seeks must not make a list longer than a client reads in one line.
        let more = shown.len().saturating_sub(MOST_SEEKS_LISTED);
        for (n, seek) in shown.into_iter().take(MOST_SEEKS_LISTED) {
            let kind = match seek.rated.then(|| self.unrated_for(viewer, seek)).flatten() {
                Some(why) => format!("rated (unrated for you: {why})"),
                None if seek.rated => "rated".to_string(),
                None => "casual".to_string(),
            };
            let to = seek
                .only
                .as_ref()
                .map_or(String::new(), |o| format!(", a challenge to {o}"));
            lines.push(format!(
                "  {n}: {} ({}) {} {kind}{}{to}",
                seek.by,
                self.rating_of(&seek.by),
                seek.clock_text,
                seek.terms.text(&seek.by)
            ));
        }
        if more > 0 {
            lines.push(format!("  ... and {more} more (newer) seeks"));
        }
        lines.join("\n")
    }

    /// `name` posts a seek: its clock, whether rated, its terms.
    pub(super) fn seek(
        &mut self,
        name: &str,
        (clock, rated, terms): (&str, bool, Terms),
        only: Option<String>,
        code: Option<String>,
    ) {
        // Kept and shown as parsed: the spaces and line breaks the parser skips are
        // not carried into others' lists.
        let clock = clock.trim();
        let control = match clock.parse::<TimeControl>() {
            Ok(control) => control,
            Err(e) => {
                return self.reject(name, format!("{clock}: {}", crate::text::error_chain(&e)));
            }
        };
        if self.online.get(name).is_some_and(|o| o.game.is_some()) {
            return self.reject(name, "you are playing a game: finish it first");
        }
        if self.seeks.open.values().filter(|s| s.by == name).count() >= 3 {
            return self.reject(name, "you have three seeks open already");
        }
        let number = self.seeks.add(Seek {
            by: name.to_string(),
            clock: control,
            clock_text: clock.to_string(),
            rated,
            only: only.clone(),
            code: code.clone(),
            terms,
        });
        let kind = if rated { "rated" } else { "casual" };
        let yours = terms.text("you");
        let text = match (&only, &code) {
            (Some(whom), _) => {
                let unrated = unrated_note(rated.then(|| self.unrated_why([name, whom])).flatten());
                // Taken as the challenged player's client takes a seek: the full
                // screen's lobby by Enter on it, plain mode by typing accept.
                let taking = if self.on_board(whom) {
                    "Enter on it in Open seeks takes it, x declines it".to_string()
                } else {
                    format!("accept {number} takes it, decline {number} declines it")
                };
                let told = format!(
                    "{name} ({}) challenges you to a {clock} {kind} game{}: {taking}.{unrated}",
                    self.rating_of(name),
                    terms.text(name)
                );
                self.send(whom, ServerMessage::Info { text: told });
                let withdraw = self.withdrawing(name, number);
                format!(
                    "Challenge {number} sent to {whom}: {clock} {kind}{yours} ({withdraw}).{unrated}"
                )
            }
            (None, Some(code)) => format!(
                "Private table {number}: {clock} {kind}{yours}. Give your friend its code: join \
                 {code}"
            ),
            (None, None) => {
                let withdraw = self.withdrawing(name, number);
                format!(
                    "Seek {number} posted: {clock} {kind}{yours}. Waiting for someone to accept \
                     it ({withdraw})."
                )
            }
        };
        self.send(name, ServerMessage::Info { text });
    }

    /// How `name` withdraws their seek `number`, in their client's words.
    pub(super) fn withdrawing(&self, name: &str, number: u64) -> String {
        if self.on_board(name) {
            "x on it in Open seeks withdraws it".to_string()
        } else {
            format!("cancel {number} withdraws it")
        }
    }

    /// `name` challenges `whom` to a game of `clock`, rated or not, on `terms`.
    pub(super) fn challenge(
        &mut self,
        name: &str,
        whom: &str,
        (clock, rated, terms): (&str, bool, Terms),
    ) {
        if whom == name {
            return self.reject(name, "you cannot challenge yourself");
        }
        if !self.online.contains_key(whom) {
            let text = self.not_online(whom);
            return self.reject(name, text);
        }
        if self.ignores(whom, name) {
            return self.reject(
                name,
                format!("{whom} is ignoring you: your challenge was not sent"),
            );
        }
        self.seek(name, (clock, rated, terms), Some(whom.to_string()), None);
    }

    /// `name`'s seeks go (and, if `to_them`, the challenges made to them), because they
    /// `did` something (`left the server`): each challenge's other player is told, so
    /// that nobody waits on an offer that is gone.
    pub(super) fn drop_seeks(&mut self, name: &str, did: &str, to_them: bool) {
        let dropped: Vec<u64> = self
            .seeks
            .open
            .iter()
            .filter(|(_, s)| s.by == name || (to_them && s.only.as_deref() == Some(name)))
            .map(|(number, _)| *number)
            .collect();
        for number in dropped {
            let Some(seek) = self.seeks.open.remove(&number) else {
                continue;
            };
            let Some(whom) = seek.only else {
                continue;
            };
            let (told, text) = if seek.by == name {
                (
                    whom,
                    format!("{name} {did}: challenge {number} is withdrawn."),
                )
            } else {
                (
                    seek.by,
                    format!("{name} {did}: your challenge {number} to {name} is withdrawn."),
                )
            };
            self.send(&told, ServerMessage::Info { text });
        }
    }

    /// `name` has just ignored `whom`: the challenges between them go, as `cancel`
    /// ends each and tells it. `whom`'s to `name`, hidden from her from now on, is
    /// declined (he hears "declined", no more than a decline says); `name`'s to `whom`,
    /// which he may no longer take, is withdrawn. Neither waits on an offer that is dead.
    pub(super) fn drop_challenges_between(&mut self, name: &str, whom: &str) {
        let between: Vec<u64> = self
            .seeks
            .open
            .iter()
            .filter(|(_, s)| {
                (s.by == whom && s.only.as_deref() == Some(name))
                    || (s.by == name && s.only.as_deref() == Some(whom))
            })
            .map(|(number, _)| *number)
            .collect();
        for number in between {
            self.cancel(name, number);
        }
    }

    /// `name` accepts seek `number` (one shown to them): the game starts.
    pub(super) fn accept(&mut self, name: &str, number: u64, now: Instant) {
        match self.seeks.open.get(&number) {
            Some(seek) if self.seek_shown(seek, name) => self.take_seek(name, number, now),
            _ => self.reject(name, format!("no open seek {number} (seeks lists them)")),
        }
    }

    /// `name` withdraws their seek `number`, or declines the challenge `number` made
    /// to them; a challenge's other player is told either way, so that neither waits
    /// on an offer that is gone.
    pub(super) fn cancel(&mut self, name: &str, number: u64) {
        let Some(seek) = self.seeks.open.get(&number) else {
            return self.reject(name, format!("no open seek {number} (seeks lists them)"));
        };
        let mine = seek.by == name;
        if !mine && seek.only.as_deref() != Some(name) {
            return self.reject(
                name,
                format!("seek {number} is neither yours nor a challenge to you"),
            );
        }
        let Some(seek) = self.seeks.open.remove(&number) else {
            return;
        };
        let (told, other) = match (&seek.only, &seek.code, mine) {
            (Some(whom), _, true) => (
                format!("You withdrew challenge {number} to {whom}."),
                Some((whom.clone(), format!("{name} withdrew challenge {number}."))),
            ),
            (_, Some(_), true) => (format!("Private table {number} closed."), None),
            (_, _, true) => (format!("Seek {number} withdrawn."), None),
            (_, _, false) => (
                format!("You declined {}'s challenge {number}.", seek.by),
                Some((
                    seek.by.clone(),
                    format!("{name} declined your challenge {number}."),
                )),
            ),
        };
        tracing::info!(number, by = %seek.by, "seek withdrawn or declined");
        if let Some((whom, text)) = other {
            self.send(&whom, ServerMessage::Info { text });
        }
        self.send(name, ServerMessage::Info { text: told });
    }

    /// `name` takes seek `number`: the game starts.
    pub(super) fn take_seek(&mut self, name: &str, number: u64, now: Instant) {
        let Some(seek) = self.seeks.open.get(&number) else {
            return self.reject(name, format!("no open seek {number} (seeks lists them)"));
        };
        if seek.only.as_deref().is_some_and(|o| o != name) {
            return self.reject(name, format!("no open seek {number} (seeks lists them)"));
        }
        if seek.by == name {
            return self.reject(name, "that seek is your own");
        }
        if self.ignores(&seek.by, name) {
            let by = seek.by.clone();
            return self.reject(
                name,
                format!("{by} is ignoring you: you cannot take their seek"),
            );
        }
        let busy =
            |lobby: &Lobby, who: &str| lobby.online.get(who).is_none_or(|o| o.game.is_some());
        if busy(self, name) {
            return self.reject(name, "you are playing a game: finish it first");
        }
        if busy(self, &seek.by) {
            return self.reject(name, format!("{} is playing a game now", seek.by));
        }
        let Some(seek) = self.seeks.open.remove(&number) else {
            return;
        };
        // The seeker's side if asked, else by lot; a ballot drawn from the deck's
        // crossboard ballots (as `--ballot random` draws one).
        let mut coin = [0u8; 9];
        let _ = getrandom::fill(&mut coin);
        let seeker = seek.terms.side.unwrap_or(if coin[0] & 1 == 0 {
            Color::Black
        } else {
            Color::White
        });
        let names = if seeker == Color::Black {
            [seek.by.clone(), name.to_string()]
        } else {
            [name.to_string(), seek.by.clone()]
        };
        let mut seed = [0u8; 8];
        seed.copy_from_slice(&coin[1..]);
        let opening = seek
            .terms
            .ballot
            .then(|| crate::session::random_ballot(u64::from_le_bytes(seed), false));
        self.start_game(
            names,
            (seek.clock, seek.clock_text, seek.rated),
            opening,
            now,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_crowds_seeks_are_listed_a_hundred_at_most_with_how_many_more() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open(&dir.path().join("s.sqlite")).unwrap();
        let (outbox, _posts) = Outbox::new();
        let day = std::time::Duration::from_secs(86_400);
        let now = Instant::now();
        let settings = Settings {
            site: "here".to_string(),
            adjourned_for: day,
            table_chat: 20,
        };
        let (mut lobby, _) = Lobby::open(store, outbox, settings, now).unwrap();
        for i in 0..120 {
            let (out, _queue) = mpsc::channel(4);
            let name = format!("p{i}");
            let address = IpAddr::from([127, 0, 0, 1]);
            let player = crate::server::db::PlayerRow {
                id: 0,
                key: Vec::new(),
                rating: Glicko2Rating::new(),
                rated_games: 0,
                moderator: false,
                muted_until: None,
                ignoring: Vec::new(),
            };
            lobby.enter(&name, &player, (i, address), out);
            let seek = ClientMessage::Seek {
                clock: "5+3".to_string(),
                rated: true,
                side: None,
                ballot: false,
            };
            lobby.handle(&name, seek, now);
        }
        let text = lobby.seeks_text("p0");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 100 + 1, "{text}");
        assert!(lines[1].starts_with("  1: p0 (1500) 5+3 rated"), "{text}");
        assert!(lines[100].starts_with("  100: p99 "), "{text}");
        assert_eq!(lines[101], "  ... and 20 more (newer) seeks");
    }
}
