//! The games of a record file opened with `--load`: a list to choose from, and moving
//! from one game to the next while reviewing. Only a line per game is kept; a game is
//! read from the file when it is opened, so a file of any size costs little memory.

use super::Session;
use crate::pdn::{GameError, PdnGame};
use std::fmt;
use std::path::PathBuf;
use std::sync::Arc;

/// Reads game `number` (from 1) of the file again: the game, or why it does not read.
/// `None` if the file no longer has it.
pub(super) type GameLoader = dyn Fn(usize) -> Option<Result<PdnGame, GameError>> + Send + Sync;

/// A record file's games: a line for each to choose from, and a way to read one.
pub(crate) struct RecordFile {
    /// Where the games are read from.
    pub(crate) path: PathBuf,
    /// A line per game, in file order.
    pub(crate) summaries: Vec<GameSummary>,
    /// Whether one game was asked for (`--game N`); if not, a front end offers the list.
    pub(crate) chosen: bool,
    /// Reads one game (the file is read again; the session does no I/O of its own).
    pub(crate) loader: Box<GameLoader>,
}

impl fmt::Debug for RecordFile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RecordFile")
            .field("path", &self.path)
            .field("games", &self.summaries.len())
            .field("chosen", &self.chosen)
            .finish()
    }
}

/// What a faulty game's line says after its number.
const FAULTY: &str = "(faulty) ";

/// One line of the list of games: "5. 1950.06.01 Club final, round 2.1: Ann v Bob, 1-0,
/// 32 moves" (the date where the record has one).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct GameSummary {
    /// Its number in the file, from 1.
    pub(crate) number: usize,
    /// The line the list shows.
    pub(crate) text: String,
}

impl GameSummary {
    /// The line for game `number` of a file, as it reads.
    pub(crate) fn of(number: usize, game: &Result<PdnGame, GameError>) -> GameSummary {
        let text = match game {
            Ok(record) => {
                let tag = |name| record.tag(name).unwrap_or("?");
                let moves = match record.moves.len().div_ceil(2) {
                    1 => "1 move".to_string(),
                    n => format!("{n} moves"),
                };
                // The games of a match or a tournament share their Event: the round
                // tells them apart.
                let round = record
                    .tag("Round")
                    .map(str::trim)
                    .filter(|r| !r.is_empty() && *r != "?" && *r != "-")
                    .map_or_else(String::new, |r| format!(", round {r}"));
                // When it was played, where the record says: first, so that it stays
                // in sight however long the rest is.
                let date = record
                    .tag("Date")
                    .map(str::trim)
                    .filter(|d| !d.is_empty() && d.chars().any(|c| c.is_ascii_digit()))
                    .map_or_else(String::new, |d| format!("{d} "));
                format!(
                    "{number}. {date}{}{round}: {} v {}, {}, {moves}",
                    tag("Event"),
                    tag("Black"),
                    tag("White"),
                    record.recorded_result().unwrap_or("?"),
                )
            }
            Err(e) => format!("{number}. {FAULTY}{e}"),
        };
        GameSummary { number, text }
    }

    /// Whether the game's line says it does not read as recorded (a faulty move, or a
    /// fault before its moves).
    pub(crate) fn is_faulty(&self) -> bool {
        self.text
            .split_once(". ")
            .is_some_and(|(_, rest)| rest.starts_with(FAULTY))
    }
}

impl RecordFile {
    /// A record file of the games `games` (all in memory; for tests and small files),
    /// each game read from that list.
    #[cfg(test)]
    pub(crate) fn in_memory(
        path: PathBuf,
        games: Vec<Result<PdnGame, GameError>>,
        chosen: bool,
    ) -> RecordFile {
        let summaries = games
            .iter()
            .enumerate()
            .map(|(i, g)| GameSummary::of(i + 1, g))
            .collect();
        RecordFile {
            path,
            summaries,
            chosen,
            loader: Box::new(move |n| games.get(n.checked_sub(1)?).cloned()),
        }
    }

    /// How many games the file has.
    pub(crate) fn len(&self) -> usize {
        self.summaries.len()
    }

    /// The game numbered `number` (from 1) as a record to review: its moves up to a
    /// faulty one, and the fault. `None` for a number not in the file, or a game that does
    /// not read at all (a syntax error before its moves).
    pub(crate) fn game(&self, number: usize) -> Option<(PdnGame, Option<String>)> {
        match (self.loader)(number)? {
            Ok(record) => Some((record, None)),
            Err(e) => {
                let record = e.up_to_fault()?;
                Some((record, Some(format!("{}: {e}", self.path.display()))))
            }
        }
    }

    /// The list of games, one line each: number, date, event, players, result,
    /// moves.
    pub(crate) fn summaries(&self) -> &[GameSummary] {
        &self.summaries
    }
}

impl Session {
    /// Game `number` (from 1) of `file` opened for review, the file kept so the review
    /// can move to another of its games. `None` if that game cannot be opened.
    pub(crate) fn review_file(file: Arc<RecordFile>, number: usize) -> Option<Session> {
        let (record, fault) = file.game(number)?;
        let mut session = Session::review_faulty_record(&record, fault);
        session.origin.file = Some((file, number));
        Some(session)
    }

    /// The record file being reviewed and the number of the game open, if a game came
    /// from a file with `--load`.
    pub(crate) fn file(&self) -> Option<(&RecordFile, usize)> {
        self.origin.file.as_ref().map(|(file, n)| (&**file, *n))
    }

    /// Opens game `number` of the record file for review, in place of the game shown;
    /// who plays each side stays. Returns "Game 5. Club final: ... (5 of 724)", or why
    /// not.
    pub(crate) fn open_game(&mut self, number: usize) -> Result<super::Reviewed, String> {
        let Some((file, _)) = self.origin.file.clone() else {
            return Err("no record file is open (--load FILE opens one)".to_string());
        };
        let count = file.len();
        let Some(mut session) = Session::review_file(Arc::clone(&file), number) else {
            return Err(if number == 0 || number > count {
                format!("the file has {count} games: there is no game {number}")
            } else {
                // Why, in the reader's words ("game 1 ("x"), line 1, column 1: ...").
                match (file.loader)(number) {
                    Some(Err(e)) => format!("it cannot be read: {e}"),
                    _ => format!("game {number} of the file cannot be read"),
                }
            });
        };
        session.seats = self.seats;
        session.computer = self.computer.clone();
        session.revision = self.revision + 1;
        *self = session;
        let summary = file
            .summaries()
            .get(number - 1)
            .map(|s| s.text.clone())
            .unwrap_or_default();
        Ok(super::Reviewed::Opened {
            summary,
            number,
            count,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::GameSummary;

    #[test]
    fn a_games_line_gives_its_date_first_where_the_record_has_one() {
        // It gave none: games of one event could not be told apart by when.
        let text = "[Event \"Open\"]\n[Date \"1950.06.01\"]\n[Black \"Cy\"]\n\
                    [White \"Di\"]\n1. 11-15 *\n\n\
                    [Event \"Open\"]\n[Date \"????.??.??\"]\n1. 11-15 *\n";
        let games = crate::pdn::read_games(text);
        assert_eq!(
            GameSummary::of(1, &games[0]).text,
            "1. 1950.06.01 Open: Cy v Di, *, 1 move"
        );
        // An unknown date says nothing.
        assert_eq!(
            GameSummary::of(2, &games[1]).text,
            "2. Open: ? v ?, *, 1 move"
        );
    }

    #[test]
    fn a_games_line_names_its_round_when_the_record_has_one() {
        let text = "[Event \"Match: Ann v Bob\"]\n[Round \"2.1\"]\n[Black \"Ann\"]\n\
                    [White \"Bob\"]\n[Result \"0-1\"]\n1. 10-15 21-17 0-1\n\n\
                    [Event \"Club night\"]\n[Round \"?\"]\n[Black \"Cy\"]\n\
                    [White \"Di\"]\n[Result \"1-0\"]\n1. 11-15 1-0\n";
        let games = crate::pdn::read_games(text);
        assert_eq!(
            GameSummary::of(3, &games[0]).text,
            "3. Match: Ann v Bob, round 2.1: Ann v Bob, 0-1, 1 move"
        );
        // An unknown round ("?") is left out.
        assert_eq!(
            GameSummary::of(4, &games[1]).text,
            "4. Club night: Cy v Di, 1-0, 1 move"
        );
    }

    #[test]
    fn opening_a_game_that_does_not_read_says_why() {
        // It said only "game 1 of the file cannot be read".
        let text =
            "[GameType \"25\"]\n[Event \"Moscow\"]\n1. 9-13 *\n\n[Event \"ok\"]\n1. 11-15 *\n";
        let file =
            super::RecordFile::in_memory("mixed.pdn".into(), crate::pdn::read_games(text), false);
        let file = std::sync::Arc::new(file);
        let summaries = file.summaries();
        assert!(summaries[0].is_faulty() && !summaries[1].is_faulty());
        let mut session = crate::session::Session::review_file(file, 2).unwrap();
        let refused = session.open_game(1).unwrap_err();
        assert_eq!(
            refused,
            "it cannot be read: game 1 (\"Moscow\"), line 1, column 1: GameType 25 is \
             Russian draughts, not English checkers (GameType 21), the only game this \
             program reads"
        );
    }
}
