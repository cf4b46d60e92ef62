//! The transposition table: a fixed-size hash table of search results.

/// How a stored score relates to the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value.
    Exact,
    /// At least this much (the search failed high).
    Lower,
    /// At most this much (the search failed low).
    Upper,
}

/// One stored search result. The best move is kept as its index in the position's
/// generated move list, which is deterministic for a position.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Entry {
    key: u64,
    pub(crate) score: i16,
    pub(crate) depth: i8,
    pub(crate) bound: Bound,
    pub(crate) move_index: u8,
    generation: u8,
}

/// No best move stored.
pub(crate) const NO_MOVE: u8 = u8::MAX;

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    move_index: NO_MOVE,
    generation: 0,
};

/// A fixed-size, single-slot, always-usable transposition table.
#[derive(Clone, Debug)]
pub(crate) struct TranspositionTable {
    entries: Vec<Entry>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one entry).
    pub(crate) fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes.saturating_mul(1 << 20) / size_of::<Entry>()).max(1);
        TranspositionTable {
            entries: vec![EMPTY; count],
            generation: 0,
        }
    }

    /// Forgets everything stored.
    pub(crate) fn clear(&mut self) {
        self.entries.fill(EMPTY);
        self.generation = 0;
    }

    /// Marks the start of a new search, so that entries of older searches give way.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto any table length without a division.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.entries[self.slot(key)];
        (e.key == key && e.depth >= 0).then_some(e)
    }

    /// Stores a result, replacing the slot's entry unless that one is from this search,
    /// of another position and more than `keep_deeper_by` plies deeper.
    #[inline]
    pub(crate) fn store(
        &mut self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        move_index: u8,
        keep_deeper_by: i32,
    ) {
        let generation = self.generation;
        let slot = self.slot(key);
        let old = &mut self.entries[slot];
        let depth = depth.clamp(0, i32::from(i8::MAX));
        if old.key != key
            && old.generation == generation
            && i32::from(old.depth) > depth + keep_deeper_by
        {
            return;
        }
        let move_index = if move_index == NO_MOVE && old.key == key {
            old.move_index
        } else {
            move_index
        };
        *old = Entry {
            key,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: depth as i8,
            bound,
            move_index,
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_an_entry() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.probe(42).is_none());
        tt.store(42, 5, -120, Bound::Lower, 3, 2);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.depth, e.score, e.bound, e.move_index),
            (5, -120, Bound::Lower, 3)
        );
        tt.clear();
        assert!(tt.probe(42).is_none());
    }
}
