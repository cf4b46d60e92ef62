//! Plain mode's choice of a game to resume, when several are saved or one was hosted
//! across the network: a numbered list, and a number read from the input.

use super::{Failure, QUOTED_CHARS};
use crate::lines::BoundedLine;
use crate::store::SavedGame;
use crate::text::printable;
use std::io::{BufRead, Write};

/// Asks which of `games` (newest first) to continue: a numbered list on `out`, then a
/// number read from `input` (an empty line takes the newest). `None` at the end of input
/// or on `q`.
pub(crate) fn choose_game(
    input: &mut impl BufRead,
    out: &mut impl Write,
    games: &[SavedGame],
) -> Result<Option<usize>, Failure> {
    writeln!(out, "Unfinished games, newest first:")?;
    for (i, game) in games.iter().enumerate() {
        // Such a game is hosted again when chosen (as the full screen's list marks it).
        let hosted = if game.across_the_network() {
            "across the network (hosted again): "
        } else {
            ""
        };
        writeln!(out, "{:>3}. {hosted}{}", i + 1, game.summary())?;
    }
    loop {
        writeln!(
            out,
            "Which game? Type its number (1-{}), Enter for 1, q to start none.",
            games.len()
        )?;
        out.flush()?;
        let line = match super::next_line(input).map_err(Failure::Input)? {
            None => return Ok(None),
            Some(BoundedLine::TooLong(_)) => {
                writeln!(out, "{}", super::too_long())?;
                continue;
            }
            Some(BoundedLine::Text(bytes)) => bytes,
        };
        let line = String::from_utf8_lossy(&line);
        let answer = line.trim();
        if answer.eq_ignore_ascii_case("q") || answer.eq_ignore_ascii_case("quit") {
            return Ok(None);
        }
        if answer.is_empty() {
            return Ok(Some(0));
        }
        match answer.parse::<usize>() {
            Ok(n) if (1..=games.len()).contains(&n) => return Ok(Some(n - 1)),
            _ => writeln!(
                out,
                "'{}' is not one of the numbers 1 to {}.",
                printable(answer, QUOTED_CHARS),
                games.len()
            )?,
        }
    }
}
