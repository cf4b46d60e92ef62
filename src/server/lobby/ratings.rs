//! Ratings: Glicko-2 after a rated game, damped against new players, and the rated
//! games two players may have in a day.

use super::seeks::Seek;
use super::*;

/// The moves (plies) a rated game must have had after its opening to change ratings:
/// one of each side, so that a game resigned or lost on time before both played (a
/// second account feeding a rating) counts for nothing.
pub(super) const RATED_FROM_PLIES: usize = 2;

/// The most rated games between the same two players that change ratings in
/// [`RATED_PAIR_WINDOW`]: a later one is played unrated (both told before it starts), so
/// that one person cannot feed one name's rating by short games against another name of
/// theirs. Counted from the database's finished games, so a restart forgets none.
pub(crate) const RATED_PER_PAIR: usize = 3;
/// The window [`RATED_PER_PAIR`] counts in (a rolling day).
pub(crate) const RATED_PAIR_WINDOW: std::time::Duration = std::time::Duration::from_secs(86_400);
/// The rated games a player has had before a result against them moves an established
/// player's rating in full: against one who has had `k`, fewer than this, an established
/// player's rating (one who has had this many or more) moves `k` / this of what Glicko-2
/// gives (its deviation as Glicko-2 gives), so that new names, each good for
/// [`RATED_PER_PAIR`] games, feed little; the new player's own rating moves in full.
pub(crate) const PROVISIONAL_GAMES: u32 = 10;

/// Two players' rows as [`RatedPairs`] keys them: the lower first.
pub(super) fn pair(ids: [i64; 2]) -> [i64; 2] {
    [ids[0].min(ids[1]), ids[0].max(ids[1])]
}

/// Glicko-2's new ratings `after` of two players rated `before`, who had `games` rated
/// games each: an established player's (one with [`PROVISIONAL_GAMES`] or more) against
/// one with `k`, fewer, moves `k` / [`PROVISIONAL_GAMES`] of the way, its deviation and
/// volatility as Glicko-2 gives them.
pub(super) fn damped(
    before: [Glicko2Rating; 2],
    after: [Glicko2Rating; 2],
    games: [u32; 2],
) -> [Glicko2Rating; 2] {
    let mut damped = after;
    for i in 0..2 {
        let theirs = games[1 - i];
        if games[i] >= PROVISIONAL_GAMES && theirs < PROVISIONAL_GAMES {
            let share = f64::from(theirs) / f64::from(PROVISIONAL_GAMES);
            damped[i].rating = before[i].rating + (after[i].rating - before[i].rating) * share;
        }
    }
    damped
}

/// A sentence saying why a game offered rated would change no rating, if it would not.
pub(super) fn unrated_note(why: Option<String>) -> String {
    why.map_or(String::new(), |why| {
        format!(" It would be played unrated: {why}.")
    })
}

/// Why a rated game between `names` changes no rating: the words every place says it
/// in (a seek list, a game's start, a challenge, a rematch, a game's end).
pub(super) fn pair_limit_reached(names: [&str; 2]) -> String {
    format!(
        "{} and {} have played {RATED_PER_PAIR} rated games in 24 hours",
        names[0], names[1]
    )
}

/// When (unix seconds) the rated games that changed ratings in the last
/// [`RATED_PAIR_WINDOW`] ended, by their players' rows (the lower first).
#[derive(Debug, Default)]
pub(super) struct RatedPairs {
    /// The end of each pair's games.
    ended: std::collections::HashMap<[i64; 2], Vec<u64>>,
}

impl RatedPairs {
    /// The rated games `ended` (their players' rows, their end), as the database holds
    /// them.
    pub(super) fn of(ended: Vec<([i64; 2], u64)>) -> RatedPairs {
        let mut pairs = RatedPairs::default();
        for (ids, ended) in ended {
            pairs.ended.entry(pair(ids)).or_default().push(ended);
        }
        pairs
    }

    /// The rated games that changed ratings between the players of rows `ids` in the
    /// last [`RATED_PAIR_WINDOW`].
    fn today(&self, ids: [i64; 2]) -> usize {
        let since = crate::store::now_unix().saturating_sub(RATED_PAIR_WINDOW.as_secs());
        self.ended
            .get(&pair(ids))
            .map_or(0, |ended| ended.iter().filter(|&&t| t >= since).count())
    }

    /// A rated game between the players of rows `ids` changed ratings, ending at `ended`
    /// (unix seconds): counted, and the pairs quiet for the window forgotten.
    pub(super) fn count(&mut self, ids: [i64; 2], ended: u64) {
        let since = ended.saturating_sub(RATED_PAIR_WINDOW.as_secs());
        self.ended.retain(|_, times| {
            times.retain(|&t| t >= since);
            !times.is_empty()
        });
        self.ended.entry(pair(ids)).or_default().push(ended);
    }
}

impl Lobby {
    /// Why `seek`, rated, would be played unrated if `viewer` took it, if it would.
    pub(super) fn unrated_for(&self, viewer: &str, seek: &Seek) -> Option<String> {
        (seek.by != viewer)
            .then(|| self.unrated_why([seek.by.as_str(), viewer]))
            .flatten()
    }

    /// Why a rated game between `names` (online players) would change no rating if it
    /// started now, if it would not: they had [`RATED_PER_PAIR`] rated games in 24 hours.
    pub(super) fn unrated_why(&self, names: [&str; 2]) -> Option<String> {
        let ids = names.map(|n| self.online.get(n).map(|o| o.id));
        let [Some(a), Some(b)] = ids else {
            return None;
        };
        (self.rated_pairs.today([a, b]) >= RATED_PER_PAIR).then(|| pair_limit_reached(names))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_established_player_against_a_new_one_moves_by_the_share_of_games_they_had() {
        let rated = |rating: f64| Glicko2Rating {
            rating,
            ..Glicko2Rating::new()
        };
        let (before, after) = ([rated(1500.0); 2], [rated(1510.0), rated(1400.0)]);
        // To a millionth of a point (a share is a float).
        let moved =
            |games: [u32; 2]| damped(before, after, games).map(|r| (r.rating * 1e6).round() / 1e6);
        assert_eq!(moved([PROVISIONAL_GAMES, 0]), [1500.0, 1400.0]);
        assert_eq!(moved([PROVISIONAL_GAMES + 3, 3]), [1503.0, 1400.0]);
        assert_eq!(moved([4, PROVISIONAL_GAMES]), [1510.0, 1460.0]);
        assert_eq!(moved([PROVISIONAL_GAMES; 2]), [1510.0, 1400.0]);
        assert_eq!(moved([2, 3]), [1510.0, 1400.0]);
    }
}
