//! `checkers perft`: count the leaf positions of the move tree.

use super::CommandError;
use crate::cli::PerftArgs;
use crate::rules::{Position, perft, perft_divide};
use std::io::Write;
use std::time::Instant;

/// Runs `checkers perft`: with `--divide` the count under each first move, then the
/// total, then the time taken and the speed.
pub(crate) fn run(args: &PerftArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let pos = args.fen.unwrap_or_else(Position::start);
    let started = Instant::now();
    let total = if args.divide || args.threads > 1 {
        let split = perft_divide(&pos, args.depth, args.threads);
        if args.divide {
            for (m, n) in &split {
                writeln!(out, "{m} {n}")?;
            }
        }
        if args.depth == 0 {
            1
        } else {
            split.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(&pos, args.depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "{total}")?;
    let per_second = if seconds > 0.0 {
        (total as f64 / seconds) as u64
    } else {
        0
    };
    writeln!(out, "time {seconds:.3} s, {per_second} nodes/s")?;
    Ok(())
}
