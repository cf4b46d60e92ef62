//! `checkers moves`: every legal move of a position.

use super::CommandError;
use crate::cli::MovesArgs;
use crate::rules::Position;
use std::io::Write;

/// Runs `checkers moves`: every legal move, sorted, one per line, each with all its
/// landing squares. A finished position has none, and prints nothing.
pub(crate) fn run(args: &MovesArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let pos = args.fen.unwrap_or_else(Position::start);
    for m in pos.legal_moves() {
        writeln!(out, "{m}")?;
    }
    Ok(())
}
