//! Key exchanges counted per address (an IPv6 /64): each connection's opening costs the
//! host a SPAKE2 computation, so one address gets at most [`OPENINGS`] connections in
//! [`OPENINGS_WINDOW`], one more each `OPENINGS_WINDOW / OPENINGS` as time passes (a
//! token bucket); past that a connection is refused at once, for now, before any of
//! that work. A joiner whose line dropped connects again once a second, half the pace
//! this allows, so a real player is never kept out.
//!
//! An address is remembered only while its bucket is not full again, and at most
//! [`MOST_ADDRESSES`] at once (the one nearest to full forgotten first), so a flood from
//! many addresses cannot fill the host's memory.

use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// Connections one address may open at once, after a quiet spell.
pub(crate) const OPENINGS: u32 = 20;

/// The window [`OPENINGS`] counts in: one more opening each `OPENINGS_WINDOW /
/// OPENINGS` (half a second).
pub(crate) const OPENINGS_WINDOW: Duration = Duration::from_secs(10);

/// Addresses remembered at most.
const MOST_ADDRESSES: usize = 4096;

/// The openings of every address lately seen.
#[derive(Debug)]
pub(crate) struct Openings {
    /// Openings an address may make at once.
    most: u32,
    /// The window `most` counts in.
    window: Duration,
    /// Each address's time when its bucket is full again: its openings spent, one
    /// `window / most` each, from then backwards (the generic cell rate algorithm).
    full_again: HashMap<IpAddr, Instant>,
}

impl Openings {
    /// At most `most` openings an address in `window`.
    pub(crate) fn new(most: u32, window: Duration) -> Openings {
        Openings {
            most: most.max(1),
            window,
            full_again: HashMap::new(),
        }
    }

    /// What one opening costs in time.
    fn each(&self) -> Duration {
        self.window / self.most
    }

    /// When `address`'s openings so far are paid off, if later than `now`.
    fn spent_until(&self, address: IpAddr, now: Instant) -> Instant {
        self.full_again
            .get(&address)
            .copied()
            .filter(|t| *t > now)
            .unwrap_or(now)
    }

    /// Whether `address` may open one more connection at `now`: what it spent, this
    /// one with it, fits in the window.
    pub(crate) fn may_open(&self, address: IpAddr, now: Instant) -> bool {
        self.spent_until(address, now) + self.each() <= now + self.window
    }

    /// Counts one opening of `address`'s at `now` (one [`may_open`](Self::may_open)
    /// allowed: taken only once the connection goes on to its key exchange).
    pub(crate) fn open(&mut self, address: IpAddr, now: Instant) {
        let spent_until = self.spent_until(address, now) + self.each();
        if !self.full_again.contains_key(&address) && self.full_again.len() >= MOST_ADDRESSES {
            self.make_room(now);
        }
        self.full_again.insert(address, spent_until);
    }

    /// Whether `address` may open one more connection at `now`, counting it if so.
    #[cfg(test)]
    fn take(&mut self, address: IpAddr, now: Instant) -> bool {
        let may = self.may_open(address, now);
        if may {
            self.open(address, now);
        }
        may
    }

    /// Forgets the addresses whose buckets are full again, or failing that the one
    /// nearest to full.
    fn make_room(&mut self, now: Instant) {
        self.full_again.retain(|_, t| *t > now);
        if self.full_again.len() < MOST_ADDRESSES {
            return;
        }
        let nearest = self
            .full_again
            .iter()
            .min_by_key(|(_, t)| **t)
            .map(|(address, _)| *address);
        if let Some(address) = nearest {
            self.full_again.remove(&address);
        }
    }

    /// Addresses remembered now.
    #[cfg(test)]
    fn remembered(&self) -> usize {
        self.full_again.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    /// The address 10.0.0.`last`.
    fn v4(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, last))
    }

    #[test]
    fn an_address_gets_its_openings_at_once_then_one_each_share_of_the_window() {
        let mut openings = Openings::new(OPENINGS, OPENINGS_WINDOW);
        let start = Instant::now();
        let taken = (0..100).filter(|_| openings.take(v4(1), start)).count();
        assert_eq!(taken, OPENINGS as usize);
        // Another address is not held back by the first one's.
        assert!(openings.take(v4(2), start));
        // Half a second later, one more; not two.
        let later = start + Duration::from_millis(500);
        assert!(openings.take(v4(1), later));
        assert!(!openings.take(v4(1), later));
    }

    #[test]
    fn a_joiner_connecting_every_second_for_a_minute_is_never_refused() {
        let mut openings = Openings::new(OPENINGS, OPENINGS_WINDOW);
        let start = Instant::now();
        for second in 0..60 {
            assert!(
                openings.take(v4(1), start + Duration::from_secs(second)),
                "refused at {second} s"
            );
        }
    }

    #[test]
    fn memory_stays_bounded_under_many_addresses_and_a_full_bucket_is_forgotten() {
        let mut openings = Openings::new(OPENINGS, OPENINGS_WINDOW);
        let start = Instant::now();
        for n in 0..(3 * MOST_ADDRESSES as u16) {
            let address = IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, n, 0, 0, 0, 0, 0));
            assert!(openings.take(address, start));
        }
        assert_eq!(openings.remembered(), MOST_ADDRESSES);
        // Once the buckets are full again, the next address makes room by forgetting them.
        assert!(openings.take(v4(1), start + OPENINGS_WINDOW));
        assert_eq!(openings.remembered(), 1);
    }
}
