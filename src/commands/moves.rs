//! `checkers moves`: every legal move of a position.

use super::CommandError;
use crate::cli::MovesArgs;
use crate::rules::Position;
use std::io::Write;

/// Runs `checkers moves`: every legal move, sorted, one per line, each with all its
/// landing squares. A position whose side to move is blocked has none: standard output
/// stays empty (a list of no moves, for scripts), and standard error says that side
/// has lost, as the game announces it.
pub(crate) fn run(args: &MovesArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let pos = args.fen.unwrap_or_else(Position::start);
    for m in pos.legal_moves() {
        writeln!(out, "{m}")?;
    }
    if let Some(outcome) = pos.outcome() {
        eprintln!("{} cannot move and so has lost. {outcome}.", pos.turn());
    }
    Ok(())
}
