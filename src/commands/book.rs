//! `checkers book`: what the opening book says of a position (the lab builds it).

use super::CommandError;
use crate::cli::{BookArgs, BookCommand};
use crate::engine::book::Book;
use crate::rules::Position;
use std::io::Write;

/// Runs `checkers book`.
pub(crate) fn run(args: &BookArgs, out: &mut impl Write) -> Result<(), CommandError> {
    match &args.command {
        BookCommand::Show { fen } => {
            let pos = fen.unwrap_or_else(Position::start);
            match Book::embedded().entry(&pos) {
                Some(entry) => {
                    writeln!(out, "{}", entry.describe())?;
                    writeln!(out, "score {} depth {}", entry.score, entry.depth)?;
                    for (m, n) in &entry.played {
                        writeln!(out, "played {} {n}", pos.notation(m))?;
                    }
                    Ok(())
                }
                None => Err(CommandError::NotFound(format!(
                    "the position {pos} is not in the book ({} positions)",
                    Book::embedded().len()
                ))),
            }
        }
    }
}
