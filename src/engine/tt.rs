//! The transposition table: a fixed-size hash table of search results, shared by the
//! threads of a search.
//!
//! Each slot is two atomic words, the packed entry and the key XORed with it (the
//! "lockless hashing" of parallel chess programs): a slot torn by two threads writing
//! at once no longer matches its key, so a reader takes it for another position's and
//! ignores it. Relaxed loads and stores are enough for that; no lock, no `unsafe`.
//!
//! The slots come in buckets of [`WAYS`], one cache line each: a position may sit in
//! any slot of its bucket, and a new one takes the slot least worth keeping (the
//! shallowest, older searches' first), so that a probe costs one line from memory and
//! a deep result is not lost to the next shallow one that maps to its place.
//!
//! An entry's age is the distance from its search's 8-bit generation to the table's, by
//! wrapping subtraction (as Stockfish counts its own); each new search sweeps a share of
//! the table and sets back the ages of the oldest entries, so that no age reaches 256,
//! where it would wrap and read as current.

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

impl Clone for Slot {
    /// A copy of the slot as it reads now (the table is cloned between searches, when
    /// no thread writes).
    fn clone(&self) -> Slot {
        Slot {
            check: AtomicU64::new(self.check.load(Ordering::Relaxed)),
            data: AtomicU64::new(self.data.load(Ordering::Relaxed)),
        }
    }
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

/// Slots in one bucket: four entries of 16 bytes fill a cache line of 64.
const WAYS: usize = 4;

/// The slots one cache line holds (aligned to it, so that a probe reads one line).
#[repr(align(64))]
#[derive(Clone, Debug)]
struct Bucket([Slot; WAYS]);

impl Bucket {
    fn empty() -> Bucket {
        Bucket(std::array::from_fn(|_| Slot::empty()))
    }
}

/// Searches between two visits of a bucket by the sweep of
/// [`TranspositionTable::new_search`]: each new search visits this share of the table.
const SWEEP_PERIOD: u8 = 128;

/// The most searches an entry is taken to be old: the sweep sets an older one back to
/// this age (16 searches, at 8 plies each, already outweigh any depth).
const STALE_AGE: u8 = 64;

// An entry's age, counted by its 8-bit generation, would wrap at 256 searches and read
// as current again: the sweep comes round before it can get there.
const _: () = assert!(STALE_AGE as u16 + SWEEP_PERIOD as u16 <= u8::MAX as u16);

/// How many searches old `entry` is when the table's generation is `now`: the distance
/// forward from its generation, across the wrap of the 8-bit count (the sweep keeps it
/// under 256, so it is never ambiguous).
#[inline]
fn age(entry: &Entry, now: u8) -> u8 {
    now.wrapping_sub(entry.generation)
}

/// How much `entry` is worth keeping in a bucket when the table's generation is `now`:
/// its depth, less 8 plies for each search since its own (an empty slot is worth
/// nothing).
#[inline]
fn worth(entry: &Entry, now: u8) -> i32 {
    if entry.depth < 0 {
        i32::MIN
    } else {
        i32::from(entry.depth) - 8 * i32::from(age(entry, now))
    }
}

/// A fixed-size, always-usable transposition table. Probes and stores take `&self`, so
/// the threads of one search share it.
#[derive(Clone, Debug)]
pub(crate) struct TranspositionTable {
    buckets: Vec<Bucket>,
    generation: u8,
}

impl TranspositionTable {
    /// A table of about `megabytes` MB (at least one bucket).
    pub(crate) fn new(megabytes: usize) -> TranspositionTable {
        let count = (megabytes.saturating_mul(1 << 20) / size_of::<Bucket>()).max(1);
        TranspositionTable {
            buckets: (0..count).map(|_| Bucket::empty()).collect(),
            generation: 0,
        }
    }

    /// An empty table of this one's size.
    pub(crate) fn same_size(&self) -> TranspositionTable {
        TranspositionTable {
            buckets: (0..self.buckets.len()).map(|_| Bucket::empty()).collect(),
            generation: 0,
        }
    }

    /// Forgets everything stored.
    pub(crate) fn clear(&mut self) {
        for bucket in &mut self.buckets {
            *bucket = Bucket::empty();
        }
        self.generation = 0;
    }

    /// Marks the start of a new search, so that entries of older searches give way, and
    /// sweeps its share of the table (one [`SWEEP_PERIOD`]th, a different one each
    /// search): an entry older than [`STALE_AGE`] searches is set back to that age, so
    /// that no entry's age reaches 256, where it would wrap and read as current.
    pub(crate) fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        let now = self.generation;
        let (period, part) = (usize::from(SWEEP_PERIOD), usize::from(now % SWEEP_PERIOD));
        let count = self.buckets.len();
        for bucket in &self.buckets[count * part / period..count * (part + 1) / period] {
            for slot in &bucket.0 {
                let mut entry = slot.load();
                if entry.depth >= 0 && age(&entry, now) > STALE_AGE {
                    entry.generation = now.wrapping_sub(STALE_AGE);
                    slot.save(&entry);
                }
            }
        }
    }

    /// The bucket where `key`'s position may be.
    #[inline]
    fn bucket(&self, key: u64) -> &Bucket {
        // Multiply-shift maps the key onto any table length without a division.
        &self.buckets[((u128::from(key) * self.buckets.len() as u128) >> 64) as usize]
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub(crate) fn probe(&self, key: u64) -> Option<Entry> {
        self.bucket(key)
            .0
            .iter()
            .map(Slot::load)
            .find(|e| e.key == key && e.depth >= 0)
    }

    /// Stores a result (and the position's static value, or [`NO_STATIC_VALUE`]) in
    /// the position's own slot of its bucket, else in the slot least worth keeping.
    #[inline]
    pub(crate) fn store(
        &self,
        key: u64,
        depth: i32,
        score: i32,
        bound: Bound,
        move_index: u8,
        static_value: i16,
    ) {
        let generation = self.generation;
        let depth = depth.clamp(0, i32::from(i8::MAX));
        let slots = &self.bucket(key).0;
        let entries: [Entry; WAYS] = std::array::from_fn(|i| slots[i].load());
        let i = entries
            .iter()
            .position(|e| e.key == key && e.depth >= 0)
            .unwrap_or_else(|| {
                (0..WAYS)
                    .min_by_key(|&i| worth(&entries[i], generation))
                    .unwrap_or(0)
            });
        let (slot, old) = (&slots[i], entries[i]);
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
        tt.store(42, 5, -120, Bound::Lower, 3, -7);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.depth, e.score, e.bound, e.move_index, e.static_value),
            (5, -120, Bound::Lower, 3, -7)
        );
        tt.clear();
        assert!(tt.probe(42).is_none());
    }

    /// Keys that fall in the first bucket of a 1 MB table (the high bits choose it).
    const SAME_BUCKET: [u64; 5] = [1, 2, 3, 4, 5];

    #[test]
    fn a_bucket_keeps_four_positions_and_lets_the_shallowest_go() {
        let tt = TranspositionTable::new(1);
        // Shallower as they come: the fifth takes the place of the shallowest before
        // it (the fourth), not of the first.
        for (i, key) in SAME_BUCKET.into_iter().enumerate() {
            tt.store(key, 20 - i as i32, 0, Bound::Exact, 0, 0);
        }
        let kept: Vec<bool> = SAME_BUCKET
            .iter()
            .map(|&key| tt.probe(key).is_some())
            .collect();
        assert_eq!(kept, [true, true, true, false, true]);
    }

    #[test]
    fn a_bucket_lets_an_old_search_give_way_and_updates_a_position_in_place() {
        let mut tt = TranspositionTable::new(1);
        for key in &SAME_BUCKET[..4] {
            tt.store(*key, 20, 0, Bound::Exact, 0, 0);
        }
        tt.new_search();
        for key in &SAME_BUCKET[1..4] {
            tt.store(*key, 20, 0, Bound::Exact, 0, 0);
        }
        // Key 1's entry is a search old: a shallow new one takes its slot.
        tt.store(5, 3, 0, Bound::Exact, 0, 0);
        assert!(tt.probe(1).is_none());
        assert_eq!(tt.probe(5).map(|e| e.depth), Some(3));
        // A position already there is updated where it is, keeping its move when the
        // new result has none.
        tt.store(5, 4, 7, Bound::Lower, 2, 0);
        tt.store(5, 6, 8, Bound::Upper, NO_MOVE, 0);
        let e = tt.probe(5).unwrap();
        assert_eq!(
            (e.depth, e.score, e.bound, e.move_index),
            (6, 8, Bound::Upper, 2)
        );
        for key in &SAME_BUCKET[1..] {
            assert!(tt.probe(*key).is_some());
        }
    }

    /// Stores `key` as deep as `depth` in the table's first bucket.
    fn put(tt: &TranspositionTable, key: u64, depth: i32) {
        tt.store(key, depth, 0, Bound::Exact, 0, 0);
    }

    #[test]
    fn ages_count_across_the_wrap_of_the_generation() {
        let mut tt = TranspositionTable::new(1);
        tt.generation = 250;
        put(&tt, 1, 20);
        // Ten searches on, past generation 255: key 1's entry is ten searches old, and
        // a shallow new one takes its place rather than a current one's.
        for _ in 0..10 {
            tt.new_search();
        }
        assert_eq!(tt.generation, 4);
        for key in 2..=4 {
            put(&tt, key, 10);
        }
        put(&tt, 5, 3);
        assert!(tt.probe(1).is_none());
        // Entries stored after the wrap are one search old in the next: the shallowest
        // gives way, as before it.
        tt.new_search();
        put(&tt, 6, 2);
        let kept: Vec<u64> = (1..=6).filter(|&key| tt.probe(key).is_some()).collect();
        assert_eq!(kept, [2, 3, 4, 6]);
    }

    #[test]
    fn an_entry_256_searches_old_is_old_not_current() {
        let mut tt = TranspositionTable::new(1);
        put(&tt, 1, 20);
        // 256 searches on, the 8-bit generation is where it was: the deep entry must
        // still read as old, and give way to a shallow current one.
        for _ in 0..256 {
            tt.new_search();
        }
        assert_eq!(tt.generation, 0);
        let old = tt.probe(1).expect("kept until something takes its place");
        assert_eq!(age(&old, tt.generation), STALE_AGE);
        for key in 2..=4 {
            put(&tt, key, 10);
        }
        put(&tt, 5, 3);
        let kept: Vec<u64> = (1..=5).filter(|&key| tt.probe(key).is_some()).collect();
        assert_eq!(kept, [2, 3, 4, 5]);
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
        tt.store(42, 5, 10, Bound::Exact, 1, NO_STATIC_VALUE);
        let slot = tt.bucket(42).0.iter().find(|s| s.load().key == 42).unwrap();
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
