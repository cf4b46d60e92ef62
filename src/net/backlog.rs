//! What a peer told and a screen has not read yet, bounded in messages and in the bytes
//! of the lines they came in: a peer sending faster than the screen reads waits (or is
//! not read) rather than filling this terminal's memory. The LAN joiner's line and the
//! online client's line keep one each.

use std::collections::VecDeque;

/// Messages that may wait.
pub(crate) const MOST_MESSAGES: usize = 64;

/// The bytes of the lines whose messages may wait: a message parsed weighs a small
/// multiple of its line (a take-back of thousands of short moves, ten times), so a
/// backlog holds a few megabytes at most. One message longer than this still goes in,
/// alone.
pub(crate) const MOST_BYTES: usize = super::protocol::MAX_LINE;

/// The waiting messages, oldest first, each with the length of its line (0 for what
/// this end tells itself or puts back), and their sum.
#[derive(Debug)]
pub(crate) struct Backlog<T> {
    news: VecDeque<(T, usize)>,
    bytes: usize,
}

impl<T> Default for Backlog<T> {
    fn default() -> Backlog<T> {
        Backlog {
            news: VecDeque::new(),
            bytes: 0,
        }
    }
}

impl<T> Backlog<T> {
    /// Whether a message of a line of `bytes` may come in now.
    pub(crate) fn has_room_for(&self, bytes: usize) -> bool {
        self.news.is_empty()
            || (self.news.len() < MOST_MESSAGES && self.bytes + bytes <= MOST_BYTES)
    }

    /// Whether it is full: nothing more comes in until the screen reads.
    pub(crate) fn is_full(&self) -> bool {
        !self.has_room_for(1)
    }

    /// Puts `news`, which came in a line of `bytes`, last.
    pub(crate) fn push(&mut self, news: T, bytes: usize) {
        self.news.push_back((news, bytes));
        self.bytes += bytes;
    }

    /// Puts `news` back first, weighing nothing: what a reader took and leaves.
    pub(crate) fn put_back(&mut self, news: Vec<T>) {
        for item in news.into_iter().rev() {
            self.news.push_front((item, 0));
        }
    }

    /// Puts `news`, which came in a line of `bytes`, in the place of the first waiting
    /// message that `same` says it replaces (those after it that `same` says go too),
    /// so that it stands before what came after the one it replaces; given back when
    /// none waits.
    pub(crate) fn replace(
        &mut self,
        same: impl Fn(&T) -> bool,
        news: T,
        bytes: usize,
    ) -> Result<(), T> {
        let Some(first) = self.news.iter().position(|(waiting, _)| same(waiting)) else {
            return Err(news);
        };
        self.news[first] = (news, bytes);
        let mut i = 0;
        self.news.retain(|(waiting, _)| {
            i += 1;
            i - 1 <= first || !same(waiting)
        });
        self.bytes = self.news.iter().map(|(_, bytes)| bytes).sum();
        Ok(())
    }

    /// Everything waiting, oldest first.
    pub(crate) fn take(&mut self) -> Vec<T> {
        self.bytes = 0;
        self.news.drain(..).map(|(news, _)| news).collect()
    }

    /// How many messages wait.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.news.len()
    }
}
