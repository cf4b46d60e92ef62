//! Perft: the number of leaf positions of the move tree to a given depth.
//!
//! Every route is its own move, so a king taking the same pieces in another order counts
//! twice. The last ply is counted, not played: at depth 1 the moves are counted straight
//! from bitboards (a population count for steps, a route count for captures).

use super::{Move, Position};

/// The number of leaf positions `depth` plies below `pos` (1 at depth 0).
///
/// ```
/// use checkers::rules::{perft, Position};
/// assert_eq!(perft(&Position::start(), 3), 302);
/// ```
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(),
        _ => {
            let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
            perft_with(pos, depth, &mut buffers)
        }
    }
}

/// Perft for `depth >= 2`, with one reusable move buffer per remaining ply.
fn perft_with(pos: &Position, depth: u32, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 0;
    };
    if depth == 2 {
        return pos.count_grandchildren(moves);
    }
    moves.clear();
    pos.generate_moves(moves);
    moves
        .iter()
        .map(|m| perft_with(&pos.play_unchecked(m), depth - 1, deeper))
        .sum()
}

/// Perft split by first move: each legal move with the leaf count below it, sorted by
/// move. The counts add up to `perft(pos, depth)`. `threads` (at least 1) work on the
/// first moves in parallel.
pub fn perft_divide(pos: &Position, depth: u32, threads: usize) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    let below = depth.saturating_sub(1);
    let count = |m: &Move| perft(&pos.play_unchecked(m), below);
    if depth == 0 {
        return Vec::new();
    }
    let threads = threads.clamp(1, moves.len().max(1));
    if threads == 1 {
        return moves.iter().map(|m| (*m, count(m))).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut results: Vec<(Move, u64)> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(m) = moves.get(i) else { break };
                        mine.push((*m, count(m)));
                    }
                    mine
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    });
    results.sort_unstable_by_key(|(m, _)| *m);
    results
}

/// Perft using `threads` threads over the first moves (1 means single-threaded).
pub fn perft_threads(pos: &Position, depth: u32, threads: usize) -> u64 {
    if threads <= 1 || depth < 2 {
        perft(pos, depth)
    } else {
        perft_divide(pos, depth, threads)
            .iter()
            .map(|(_, n)| n)
            .sum()
    }
}
