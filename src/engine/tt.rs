//! The transposition table: a fixed-size hash table of search results, shared by the
//! threads of a search.
//!
//! Each slot is two atomic words, the packed entry and the key XORed with it (the
//! "lockless hashing" of parallel chess programs): a slot torn by two threads writing
//! at once no longer matches its key, so a reader takes it for another position's and
//! ignores it. Relaxed loads and stores are enough for that; no lock, no `unsafe`.

use std::sync::atomic::{AtomicU64, Ordering};

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Entry {
    key: u64,
    pub(crate) score: i16,
    pub(crate) depth: i8,
    pub(crate) bound: Bound,
    pub(crate) move_index: u8,
    generation: u8,
    /// The position's static value, when the search found it ([`NO_STATIC_VALUE`] when
    /// not): a later visit need not evaluate it again.
    pub(crate) static_value: i16,
}

/// No static value stored.
pub(crate) const NO_STATIC_VALUE: i16 = i16::MIN;

/// No best move stored.
pub(crate) const NO_MOVE: u8 = u8::MAX;

const EMPTY: Entry = Entry {
    key: 0,
    score: 0,
    depth: -1,
    bound: Bound::Upper,
    move_index: NO_MOVE,
    generation: 0,
    static_value: NO_STATIC_VALUE,
};

impl Entry {
    /// Everything but the key in one word: score, depth, bound, move, generation,
    /// static value.
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        u64::from(self.score as u16)
            | u64::from(self.depth as u8) << 16
            | bound << 24
            | u64::from(self.move_index) << 32
            | u64::from(self.generation) << 40
            | u64::from(self.static_value as u16) << 48
    }

    fn unpack(key: u64, data: u64) -> Entry {
        Entry {
            key,
            score: data as u16 as i16,
            depth: (data >> 16) as u8 as i8,
            bound: match (data >> 24) & 3 {
                0 => Bound::Exact,
                1 => Bound::Lower,
                _ => Bound::Upper,
            },
            move_index: (data >> 32) as u8,
            generation: (data >> 40) as u8,
            static_value: (data >> 48) as u16 as i16,
        }
    }
}

/// One slot: the packed entry, and its key XORed with it.
#[derive(Debug)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

impl Slot {
    fn empty() -> Slot {
        let data = EMPTY.pack();
        Slot {
            check: AtomicU64::new(EMPTY.key ^ data),
            data: AtomicU64::new(data),
        }
    }

    /// The entry as stored (a torn slot reads as another position's entry).
    #[inline]
    fn load(&self) -> Entry {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        Entry::unpack(check ^ data, data)
    }

    #[inline]
    fn save(&self, entry: &Entry) {
        let data = entry.pack();
        self.data.store(data, Ordering::Relaxed);
        self.check.store(entry.key ^ data, Ordering::Relaxed);
    }
}

/// A fixed-size, single-slot, always-usable transposition table. Probes and stores
/// take `&self`, so the threads of one search share it.
#[derive(Debug)]
pub(crate) struct TranspositionTable {
    slots: Vec<Slot>,
    generation: u8,
}

impl Clone for TranspositionTable {
    fn clone(&self) -> TranspositionTable {
        TranspositionTable {
            slots: self
                .slots
                .iter()
                .map(|s| Slot {
                    check: AtomicU64::new(s.check.load(Ordering::Relaxed)),
                    data: AtomicU64::new(s.data.load(Ordering::Relaxed)),
                })
                .collect(),
            generation: self.generation,
        }
    }
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one entry).
    pub(crate) fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes.saturating_mul(1 << 20) / size_of::<Slot>()).max(1);
        TranspositionTable {
            slots: (0..count).map(|_| Slot::empty()).collect(),
            generation: 0,
        }
    }

    /// An empty table of this one's size.
    pub(crate) fn same_size(&self) -> TranspositionTable {
        TranspositionTable {
            slots: (0..self.slots.len()).map(|_| Slot::empty()).collect(),
            generation: 0,
        }
    }

    /// Forgets everything stored.
    pub(crate) fn clear(&mut self) {
        for slot in &mut self.slots {
            *slot = Slot::empty();
        }
        self.generation = 0;
    }

    /// Marks the start of a new search, so that entries of older searches give way.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    #[inline]
    fn slot(&self, key: u64) -> &Slot {
        // Multiply-shift maps the key onto any table length without a division.
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        let e = self.slot(key).load();
        (e.key == key && e.depth >= 0).then_some(e)
    }

    /// Stores a result (and the position's static value, or [`NO_STATIC_VALUE`]),
    /// replacing the slot's entry unless that one is from this search, of another
    /// position and more than `keep_deeper_by` plies deeper.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn store(
        &self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        move_index: u8,
        static_value: i16,
        keep_deeper_by: i32,
    ) {
        let generation = self.generation;
        let slot = self.slot(key);
        let old = slot.load();
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
        slot.save(&Entry {
            key,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            depth: depth as i8,
            bound,
            move_index,
            generation,
            static_value,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_finds_an_entry() {
        let mut tt = TranspositionTable::new(1);
        assert!(tt.probe(42).is_none());
        tt.store(42, 5, -120, Bound::Lower, 3, -7, 2);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.depth, e.score, e.bound, e.move_index, e.static_value),
            (5, -120, Bound::Lower, 3, -7)
        );
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    #[test]
    fn every_field_survives_packing() {
        for (score, depth, bound, move_index, generation, static_value) in [
            (-32768i16, 0i8, Bound::Exact, 0u8, 0u8, NO_STATIC_VALUE),
            (32767, 127, Bound::Lower, 254, 255, i16::MAX),
            (-1, -1, Bound::Upper, NO_MOVE, 7, -1),
        ] {
            let e = Entry {
                key: 0xDEAD_BEEF_0123_4567,
                score,
                depth,
                bound,
                move_index,
                generation,
                static_value,
            };
            assert_eq!(Entry::unpack(e.key, e.pack()), e);
        }
    }

    #[test]
    fn a_torn_slot_reads_as_another_position() {
        // Half of one entry and half of another: the key check fails.
        let tt = TranspositionTable::new(1);
        tt.store(42, 5, 10, Bound::Exact, 1, NO_STATIC_VALUE, 2);
        let slot = tt.slot(42);
        let other = Entry {
            key: 42,
            score: 99,
            depth: 9,
            bound: Bound::Lower,
            move_index: 2,
            generation: 0,
            static_value: NO_STATIC_VALUE,
        };
        slot.data.store(other.pack(), Ordering::Relaxed);
        assert!(tt.probe(42).is_none());
    }
}
