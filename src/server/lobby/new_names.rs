//! New names: how many an address makes in an hour.

use super::*;

/// The most new names one address (an IPv6 /64) makes in [`NEW_NAMES_WINDOW`]: a club
/// behind one router signs up in an evening, a script making names to feed a rating
/// is held back.
pub(crate) const NEW_NAMES_PER_WINDOW: usize = 10;
/// The window [`NEW_NAMES_PER_WINDOW`] counts in.
pub(crate) const NEW_NAMES_WINDOW: std::time::Duration = std::time::Duration::from_secs(3600);

/// When each address made its new names, in the last [`NEW_NAMES_WINDOW`].
#[derive(Debug, Default)]
pub(super) struct NewNames {
    /// The times of each address's new names, oldest first.
    made: std::collections::HashMap<IpAddr, window::Window<()>>,
}

impl NewNames {
    /// Whether `address` may make a new name `now` (counted at once if so).
    fn may_make(&mut self, address: IpAddr, now: Instant) -> bool {
        // Addresses quiet for the window are forgotten, so the map stays small.
        self.made
            .retain(|_, made| made.recent(now, NEW_NAMES_WINDOW).next().is_some());
        let made = self.made.entry(address).or_default();
        if made.recent(now, NEW_NAMES_WINDOW).count() >= NEW_NAMES_PER_WINDOW {
            return false;
        }
        made.push(now, ());
        true
    }

    /// The name last counted for `address` was not made after all.
    fn give_back(&mut self, address: IpAddr) {
        if let Some(made) = self.made.get_mut(&address) {
            made.undo_newest();
        }
    }

    /// The new names counted for `address` (as of the last count).
    #[cfg(test)]
    fn counted(&self, address: IpAddr) -> usize {
        self.made.get(&address).map_or(0, window::Window::held)
    }
}

impl Lobby {
    /// Whether `address` may make a new name `now` (fewer than [`NEW_NAMES_PER_WINDOW`]
    /// in the last [`NEW_NAMES_WINDOW`]); if so, one is counted at once, so that logins
    /// sent together cannot all pass (see [`no_name_made`](Self::no_name_made)).
    pub(crate) fn may_make_name(&mut self, address: IpAddr, now: Instant) -> bool {
        self.new_names.may_make(address, now)
    }

    /// The login `address` was let make a name with made none (the name was its own
    /// already, or was refused): the name counted for it is given back.
    pub(crate) fn no_name_made(&mut self, address: IpAddr) {
        self.new_names.give_back(address);
    }

    /// The new names counted for `address` in the last [`NEW_NAMES_WINDOW`] (as of the
    /// last count).
    #[cfg(test)]
    pub(crate) fn new_names_counted(&self, address: IpAddr) -> usize {
        self.new_names.counted(address)
    }
}
