//! Wrong codes, counted per address: a few tries are free, then each wrong code makes
//! the address wait before its next greeting is judged, twice as long each time up to
//! [`LONGEST_WAIT`]. At that pace one address tries about 24 codes a day, and a code
//! of [`CODE_SPACE`](super::CODE_SPACE) takes it hundreds of millions of years to find.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Wrong codes an address may give before it must wait.
pub(crate) const FREE_TRIES: u32 = 3;

/// The wait after the first wrong code past the free ones; each one after doubles it.
pub(crate) const FIRST_WAIT: Duration = Duration::from_secs(2);

/// The longest wait between two judged greetings of an address.
pub(crate) const LONGEST_WAIT: Duration = Duration::from_secs(60 * 60);

/// How long an address's wrong codes are remembered after its last one.
const REMEMBERED: Duration = Duration::from_secs(24 * 60 * 60);

/// How often addresses quiet for [`REMEMBERED`] are looked for.
const SWEEP_EVERY: Duration = Duration::from_secs(60);

/// Addresses remembered at most (the oldest are forgotten first), so that a flood of
/// addresses cannot fill the host's memory.
const MOST_ADDRESSES: usize = 100_000;

/// One address's record.
#[derive(Clone, Copy, Debug)]
struct Tries {
    wrong: u32,
    last: Instant,
    judged_again: Instant,
}

/// A wrong code, as the host's screen tells it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct WrongCode {
    /// The address it came from (an IPv6 address's /64).
    pub(crate) address: IpAddr,
    /// Wrong codes from there so far.
    pub(crate) tries: u32,
    /// How long the address now waits before its next greeting is judged.
    pub(crate) wait: Option<Duration>,
}

/// Where from, how many so far, and the wait it earned: "Someone at 10.0.0.7 gave a
/// wrong code (4 wrong codes from there; it waits 2 seconds before its next try)".
impl std::fmt::Display for WrongCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Someone at {} gave a wrong code (", self.address)?;
        match self.tries {
            1 => write!(f, "its first")?,
            n => write!(f, "{n} wrong codes from there")?,
        }
        if let Some(wait) = self.wait {
            write!(f, "; it waits {} before its next try", wait_text(wait))?;
        }
        write!(f, ")")
    }
}

/// The wrong codes of every address that gave one.
#[derive(Debug, Default)]
pub(crate) struct Guesses {
    by_address: HashMap<IpAddr, Tries>,
    /// When addresses quiet for long were last forgotten.
    swept: Option<Instant>,
}

impl Guesses {
    /// How long `address` must still wait before a greeting of its is judged (none:
    /// it may greet now).
    pub(crate) fn wait_left(&self, address: IpAddr, now: Instant) -> Option<Duration> {
        let tries = self.by_address.get(&address)?;
        let left = tries.judged_again.saturating_duration_since(now);
        (!left.is_zero()).then_some(left)
    }

    /// `address` gave a wrong code at `now`.
    pub(crate) fn wrong(&mut self, address: IpAddr, now: Instant) -> WrongCode {
        self.forget_old(now);
        let tries = self.by_address.entry(address).or_insert(Tries {
            wrong: 0,
            last: now,
            judged_again: now,
        });
        tries.wrong += 1;
        tries.last = now;
        let wait = wait_after(tries.wrong);
        tries.judged_again = now + wait.unwrap_or_default();
        WrongCode {
            address,
            tries: tries.wrong,
            wait,
        }
    }

    /// `address` gave the right code: its wrong ones are forgiven (a player who
    /// mistyped is not held to them).
    pub(crate) fn right(&mut self, address: IpAddr) {
        self.by_address.remove(&address);
    }

    /// Forgets addresses quiet for a day, looking at most once a minute; and when the
    /// map is full, the tenth that has been quiet longest (so each wrong code costs
    /// little however many addresses guess).
    fn forget_old(&mut self, now: Instant) {
        let due = self
            .swept
            .is_none_or(|at| now.saturating_duration_since(at) >= SWEEP_EVERY);
        if due {
            self.swept = Some(now);
            self.by_address
                .retain(|_, t| now.saturating_duration_since(t.last) < REMEMBERED);
        }
        if self.by_address.len() >= MOST_ADDRESSES {
            let mut lasts: Vec<Instant> = self.by_address.values().map(|t| t.last).collect();
            let cut = MOST_ADDRESSES / 10;
            lasts.select_nth_unstable(cut);
            let before = lasts[cut];
            self.by_address.retain(|_, t| t.last > before);
        }
    }
}

/// The wait after an address's `wrong`th wrong code.
pub(crate) fn wait_after(wrong: u32) -> Option<Duration> {
    if wrong <= FREE_TRIES {
        return None;
    }
    let doublings = (wrong - FREE_TRIES - 1).min(20);
    Some((FIRST_WAIT * 2u32.pow(doublings)).min(LONGEST_WAIT))
}

/// A wait in words: "2 seconds", "17 minutes".
pub(crate) fn wait_text(wait: Duration) -> String {
    let secs = wait.as_secs_f64().ceil() as u64;
    match secs {
        0..=1 => "1 second".to_string(),
        2..=119 => format!("{secs} seconds"),
        _ => format!("{} minutes", secs.div_ceil(60)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_few_tries_are_free_then_the_wait_doubles_up_to_an_hour() {
        assert_eq!(wait_after(1), None);
        assert_eq!(wait_after(FREE_TRIES), None);
        assert_eq!(wait_after(FREE_TRIES + 1), Some(FIRST_WAIT));
        assert_eq!(wait_after(FREE_TRIES + 2), Some(FIRST_WAIT * 2));
        assert_eq!(wait_after(FREE_TRIES + 3), Some(FIRST_WAIT * 4));
        assert_eq!(wait_after(FREE_TRIES + 40), Some(LONGEST_WAIT));
    }

    #[test]
    fn an_address_waits_and_another_does_not() {
        let mut guesses = Guesses::default();
        let (a, b): (IpAddr, IpAddr) = ("127.0.0.2".parse().unwrap(), "::1".parse().unwrap());
        let now = Instant::now();
        for _ in 0..FREE_TRIES {
            assert_eq!(guesses.wait_left(a, now), None);
            assert_eq!(guesses.wrong(a, now).wait, None);
        }
        let told = guesses.wrong(a, now);
        assert_eq!(told.tries, FREE_TRIES + 1);
        assert_eq!(told.wait, Some(FIRST_WAIT));
        assert_eq!(guesses.wait_left(a, now), Some(FIRST_WAIT));
        assert_eq!(guesses.wait_left(b, now), None);
        assert_eq!(guesses.wait_left(a, now + FIRST_WAIT), None);
        guesses.right(a);
        assert_eq!(guesses.wrong(a, now).tries, 1);
    }

    #[test]
    fn a_flood_of_addresses_is_bounded_and_the_longest_quiet_go_first() {
        let mut guesses = Guesses::default();
        let start = Instant::now();
        let address = |i: u32| IpAddr::from(i.to_be_bytes());
        for i in 0..MOST_ADDRESSES as u32 + 10 {
            guesses.wrong(address(i), start + Duration::from_millis(u64::from(i)));
        }
        assert!(guesses.by_address.len() < MOST_ADDRESSES);
        assert!(!guesses.by_address.contains_key(&address(0)));
        let newest = address(MOST_ADDRESSES as u32 + 9);
        assert!(guesses.by_address.contains_key(&newest));
    }

    /// The figure the module's documentation gives: at the longest wait, one address
    /// needs hundreds of millions of years to find a code on average.
    #[test]
    fn finding_a_code_at_the_allowed_rate_takes_longer_than_a_century() {
        let per_year = 365.25 * 24.0 * 3600.0 / LONGEST_WAIT.as_secs_f64();
        let years = (crate::net::CODE_SPACE as f64 / 2.0) / per_year;
        assert!(years > 1e8, "{years}");
    }
}
