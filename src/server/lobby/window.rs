//! A sliding window of what was done lately: the lines a table carried, the lines a
//! player told. Each limit on them ("5 lines in 10 s") counts in one.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

/// What was done in the last while, oldest first, each with its time: what is older
/// than the span a limit asks about is forgotten as it is asked.
#[derive(Clone, Debug)]
pub(super) struct Window<T> {
    /// Each deed's time and what it was, oldest first.
    within: VecDeque<(Instant, T)>,
}

impl<T> Default for Window<T> {
    fn default() -> Window<T> {
        Window {
            within: VecDeque::new(),
        }
    }
}

impl<T> Window<T> {
    /// What was done within `span` before `now`, oldest first; what is older is
    /// forgotten.
    pub(super) fn recent(&mut self, now: Instant, span: Duration) -> impl Iterator<Item = &T> {
        while self
            .within
            .front()
            .is_some_and(|(at, _)| now.saturating_duration_since(*at) >= span)
        {
            self.within.pop_front();
        }
        self.within.iter().map(|(_, what)| what)
    }

    /// How long from `now` until fewer than `most` deeds were done within `span` (so
    /// one more may be), or none if fewer are already.
    pub(super) fn wait_for_room(
        &mut self,
        now: Instant,
        span: Duration,
        most: usize,
    ) -> Option<Duration> {
        let count = self.recent(now, span).count();
        // The deed whose forgetting leaves `most - 1`: the (count - most + 1)th oldest.
        let (at, _) = self.within.get(count.checked_sub(most.max(1))?)?;
        Some((*at + span).saturating_duration_since(now))
    }

    /// `what` was done `now`.
    pub(super) fn push(&mut self, now: Instant, what: T) {
        self.within.push_back((now, what));
    }

    /// The newest deed was not done after all: it no longer counts.
    pub(super) fn undo_newest(&mut self) {
        self.within.pop_back();
    }

    /// How many deeds it holds, as of the last look at it.
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        self.within.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What is done counts for the span asked about, then is forgotten: its deeds
    /// count again from nothing.
    #[test]
    fn a_deed_counts_for_the_span_then_is_forgotten() {
        let span = Duration::from_secs(10);
        let start = Instant::now();
        let mut window = Window::default();
        window.push(start, "a");
        window.push(start + Duration::from_secs(4), "b");
        let at = |s| start + Duration::from_secs(s);
        assert_eq!(window.recent(at(9), span).collect::<Vec<_>>(), [&"a", &"b"]);
        assert_eq!(window.recent(at(10), span).collect::<Vec<_>>(), [&"b"]);
        assert_eq!(window.recent(at(14), span).count(), 0);
    }

    /// A window holding its most waits until its oldest deed is forgotten; one below
    /// its most does not wait.
    #[test]
    fn a_full_window_says_how_long_until_room() {
        let span = Duration::from_secs(60);
        let start = Instant::now();
        let at = |s| start + Duration::from_secs(s);
        let mut window = Window::default();
        window.push(at(0), ());
        window.push(at(20), ());
        assert_eq!(window.wait_for_room(at(30), span, 3), None);
        window.push(at(30), ());
        assert_eq!(
            window.wait_for_room(at(30), span, 3),
            Some(Duration::from_secs(30))
        );
        assert_eq!(window.wait_for_room(at(60), span, 3), None);
        assert_eq!(
            window.wait_for_room(at(60), span, 2),
            Some(Duration::from_secs(20))
        );
    }
}
