//! The games of a record file opened with `--load`: a list to choose from, and moving
//! from one game to the next while reviewing.

use super::Session;
use crate::pdn::{GameError, GameErrorKind, PdnGame};
use std::path::PathBuf;
use std::sync::Arc;

/// A record file's games, each as it reads (a game with a faulty move is kept as far as
/// it replays).
#[derive(Debug)]
pub struct RecordFile {
    /// Where the games were read from.
    pub path: PathBuf,
    /// Each game, or why it does not read.
    pub games: Vec<Result<PdnGame, GameError>>,
    /// Whether one game was asked for (`--game N`); if not, a front end offers the list.
    pub chosen: bool,
}

/// One line of the list of games: "5. Club final: Ann v Bob, 1-0, 32 moves".
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// Its number in the file, from 1.
    pub number: usize,
    /// The line the list shows.
    pub text: String,
}

impl RecordFile {
    /// The game numbered `number` (from 1) as a record to review: its moves up to a
    /// faulty one, and the fault. `None` for a number not in the file, or a game that does
    /// not read at all (a syntax error before its moves).
    pub fn game(&self, number: usize) -> Option<(PdnGame, Option<String>)> {
        match self.games.get(number.checked_sub(1)?)? {
            Ok(record) => Some((record.clone(), None)),
            Err(e) => match &e.kind {
                GameErrorKind::Move { played, .. } => {
                    let mut record = (**played).clone();
                    // It does not reach the end its result describes.
                    record.set_tag("Result", "*");
                    Some((record, Some(format!("{}: {e}", self.path.display()))))
                }
                _ => None,
            },
        }
    }

    /// The list of games, one line each: number, event, players, result, moves.
    pub fn summaries(&self) -> Vec<GameSummary> {
        self.games
            .iter()
            .enumerate()
            .map(|(i, game)| {
                let number = i + 1;
                let text = match game {
                    Ok(record) => {
                        let tag = |name| record.tag(name).unwrap_or("?");
                        let moves = record.moves.len().div_ceil(2);
                        format!(
                            "{number}. {}: {} v {}, {}, {moves} moves",
                            tag("Event"),
                            tag("Black"),
                            tag("White"),
                            record.result.as_deref().unwrap_or(tag("Result")),
                        )
                    }
                    Err(e) => format!("{number}. (faulty) {e}"),
                };
                GameSummary { number, text }
            })
            .collect()
    }
}

impl Session {
    /// Game `number` (from 1) of `file` opened for review, the file kept so the review
    /// can move to another of its games. `None` if that game cannot be opened.
    pub fn review_file(file: Arc<RecordFile>, number: usize) -> Option<Session> {
        let (record, fault) = file.game(number)?;
        let mut session = Session::review_faulty_record(&record, fault);
        session.file = Some((file, number));
        Some(session)
    }

    /// The record file being reviewed and the number of the game open, if a game came
    /// from a file with `--load`.
    pub fn file(&self) -> Option<(&RecordFile, usize)> {
        self.file.as_ref().map(|(file, n)| (&**file, *n))
    }

    /// Opens game `number` of the record file for review, in place of the game shown;
    /// who plays each side stays. Returns "Game 5 of 724: ...", or why not.
    pub fn open_game(&mut self, number: usize) -> Result<String, String> {
        let Some((file, _)) = self.file.clone() else {
            return Err("no record file is open (--load FILE opens one)".to_string());
        };
        let count = file.games.len();
        let Some(mut session) = Session::review_file(Arc::clone(&file), number) else {
            return Err(if number == 0 || number > count {
                format!("the file has {count} games: there is no game {number}")
            } else {
                format!("game {number} of the file cannot be read")
            });
        };
        session.seats = self.seats;
        session.egdb = self.egdb.clone();
        session.level = self.level;
        session.seed = self.seed;
        session.movetime = self.movetime;
        session.revision = self.revision + 1;
        *self = session;
        let summary = file
            .summaries()
            .into_iter()
            .nth(number - 1)
            .map(|s| s.text)
            .unwrap_or_default();
        Ok(format!("Game {summary} ({number} of {count})"))
    }
}
