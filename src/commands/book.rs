//! `checkers book`: what the opening book says of a position (the lab builds it).

use super::CommandError;
use crate::cli::{BookArgs, BookCommand};
use crate::engine::Score;
use crate::engine::book::Book;
use crate::rules::Position;
use crate::session::score_in_men;
use std::io::Write;

/// Runs `checkers book`.
pub(crate) fn run(args: &BookArgs, out: &mut impl Write) -> Result<(), CommandError> {
    match &args.command {
        BookCommand::Show { fen } => {
            let pos = fen.unwrap_or_else(Position::start);
            match Book::embedded().entry(&pos) {
                Some(entry) => {
                    writeln!(out, "{}", entry.describe())?;
                    // In men for Black, as every other score the program shows (the
                    // book keeps hundredths of a man for the side to move).
                    writeln!(
                        out,
                        "searched to depth {}: {} (in men for Black: + Black ahead, - White)",
                        entry.depth,
                        score_in_men(pos.turn(), Score(entry.score))
                    )?;
                    // Each move with how often the tournament games played it.
                    for (m, n) in &entry.played {
                        let times = if *n == 1 { "once" } else { "times" };
                        let n = if *n == 1 {
                            String::new()
                        } else {
                            format!("{n} ")
                        };
                        writeln!(out, "{m} played {n}{times}")?;
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
