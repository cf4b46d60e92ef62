//! Randomness from the operating system, for what must not be guessed: a game's code, a
//! seat token, a temporary file's name.

use std::hash::{BuildHasher, Hasher};

/// Fills `bytes` from the operating system's randomness. Should the system refuse, the
/// process's own keyed hashes (random keys, the time, a counter) are used instead:
/// still unknown outside the process.
pub(crate) fn fill(bytes: &mut [u8]) {
    if getrandom::fill(bytes).is_ok() {
        return;
    }
    static COUNTER: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    for chunk in bytes.chunks_mut(8) {
        let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
        hasher.write_u64(COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        hasher.write_u128(
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos()),
        );
        let n = hasher.finish().to_le_bytes();
        chunk.copy_from_slice(&n[..chunk.len()]);
    }
}

/// 64 random bits.
pub(crate) fn u64() -> u64 {
    let mut bytes = [0u8; 8];
    fill(&mut bytes);
    u64::from_le_bytes(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn draws_differ() {
        let draws: std::collections::HashSet<u64> = (0..100).map(|_| super::u64()).collect();
        assert_eq!(draws.len(), 100);
    }
}
