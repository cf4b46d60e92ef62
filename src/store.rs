//! Where games are kept: the data directory, atomic writes, saving and loading records,
//! and the autosave that `--resume` continues.
//!
//! A saved game is plain PDN that other checkers software reads. Two extra tags make a
//! resume exact: `Undone` holds the moves taken back (so redo still works) and
//! `Termination` says how a game ended that the board alone does not explain
//! (resignation, agreed or claimed draw).

use crate::game::Game;
use crate::pdn::{PdnGame, decode, read_games, write_game};
use crate::rules::{Color, DrawReason, Move, Outcome, Position, WinReason};
use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The players' names for a record's `Black` and `White` tags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Players {
    /// Black's name, if known.
    pub black: Option<String>,
    /// White's name, if known.
    pub white: Option<String>,
}

impl Players {
    /// The name of `color`'s player, if known.
    pub fn name(&self, color: Color) -> Option<&str> {
        match color {
            Color::Black => self.black.as_deref(),
            Color::White => self.white.as_deref(),
        }
    }
}

/// The directory games are kept in, as the platform expects it: on Linux
/// `$XDG_DATA_HOME/checkers` (`~/.local/share/checkers` by default), on macOS
/// `~/Library/Application Support/checkers`, on Windows `%APPDATA%\\checkers\\data`.
/// `None` if no home directory can be found.
pub fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "checkers").map(|dirs| dirs.data_dir().to_path_buf())
}

/// The endgame database folder: `egdb` in the [`data_dir`].
pub fn egdb_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join("egdb"))
}

/// The autosave file: `autosave.pdn` in the [`data_dir`].
pub fn autosave_path() -> Option<PathBuf> {
    data_dir().map(|d| d.join("autosave.pdn"))
}

/// A file name for saving a game in the data directory: `game-YYYY-MM-DD-HHMMSS.pdn`
/// from seconds since the Unix epoch (UTC).
pub fn default_save_path(unix_seconds: u64) -> Option<PathBuf> {
    let (y, mo, d) = civil_date(unix_seconds);
    let s = unix_seconds % 86_400;
    let name = format!(
        "game-{y:04}-{mo:02}-{d:02}-{:02}{:02}{:02}.pdn",
        s / 3600,
        s / 60 % 60,
        s % 60
    );
    data_dir().map(|dir| dir.join(name))
}

/// The PDN date (`YYYY.MM.DD`, UTC) of seconds since the Unix epoch.
pub fn pdn_date(unix_seconds: u64) -> String {
    let (y, m, d) = civil_date(unix_seconds);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Seconds since the Unix epoch now (0 if the clock is before it).
pub fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Year, month, day of a Unix time (days-from-civil, inverted; proleptic Gregorian).
fn civil_date(unix_seconds: u64) -> (i64, u32, u32) {
    let z = (unix_seconds / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// `path` with a leading `~` standing for the home directory, as a shell would read it.
pub fn expand_home(path: &Path) -> PathBuf {
    match (path.strip_prefix("~"), std::env::var_os("HOME")) {
        (Ok(rest), Some(home)) => PathBuf::from(home).join(rest),
        _ => path.to_path_buf(),
    }
}

/// Writes `contents` to `path` so that a crash never leaves a half-written file: the
/// bytes go to a temporary file beside it, are flushed to disk, and the temporary file
/// is renamed over `path`. Missing parent directories are created.
pub fn write_atomic(path: &Path, contents: &[u8]) -> io::Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // create_dir_all reports a plain file in the way as "File exists": name it instead.
    if let Some(file) = dir.ancestors().find(|a| a.is_file()) {
        return Err(io::Error::new(
            io::ErrorKind::NotADirectory,
            format!("{} is a file, not a folder", file.display()),
        ));
    }
    std::fs::create_dir_all(&dir)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let written = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(contents)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&temp);
    }
    written
}

/// The record of `game`: tags (players, date, result), start position, moves, and the
/// `Undone`/`Termination` tags needed to resume it exactly.
pub fn game_record(game: &Game, players: &Players, date: &str) -> PdnGame {
    let mut record = PdnGame::new(*game.start());
    record.moves = game.moves().to_vec();
    record.set_tag("Event", "Casual game");
    record.set_tag("Date", date);
    for color in Color::ALL {
        if let Some(name) = players.name(color) {
            record.set_tag(color.name(), name);
        }
    }
    record.result = Some(game.result().map_or("*", |o| o.pdn_result()).to_string());
    let undone = game.undone_moves();
    if !undone.is_empty() {
        let mut pos = *game.position();
        let mut words = Vec::new();
        for m in undone {
            words.push(m.to_string());
            pos = pos.play_unchecked(&m);
        }
        record.set_tag("Undone", &words.join(" "));
    }
    let termination = match game.result() {
        Some(Outcome::Win {
            reason: WinReason::Resignation,
            ..
        }) => Some("resignation"),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement,
        }) => Some("agreement"),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition,
        }) => Some("repetition claimed"),
        Some(Outcome::Draw {
            reason: DrawReason::FortyMoves,
        }) => Some("forty-move rule claimed"),
        _ => None,
    };
    if let Some(t) = termination {
        record.set_tag("Termination", t);
    }
    record
}

/// A game from a record: its moves played from its start, the `Undone` moves (if any)
/// ready for redo, and a declared ending restored from the result and `Termination`.
/// The players' names come back as well.
pub fn game_from_record(record: &PdnGame) -> (Game, Players) {
    let mut game = Game::from_position(record.start);
    for m in &record.moves {
        // The reader replayed every move, so each is legal in turn.
        let _ = game.play(m);
    }
    let mut undone: Vec<Move> = Vec::new();
    if let Some(text) = record.tag("Undone") {
        let mut pos: Position = *game.position();
        for word in text.split_whitespace() {
            match pos.parse_move(word) {
                Ok(m) => {
                    pos = pos.play_unchecked(&m);
                    undone.push(m);
                }
                Err(_) => break,
            }
        }
    }
    let played = undone.iter().take_while(|m| game.play(m).is_ok()).count();
    for _ in 0..played {
        game.undo();
    }
    if game.result().is_none() {
        let termination = record.tag("Termination").unwrap_or("");
        match record.result.as_deref().or(record.tag("Result")) {
            Some("1-0") => drop(game.resign(Color::White)),
            Some("0-1") => drop(game.resign(Color::Black)),
            Some("1/2-1/2") => {
                let claimed = termination.contains("claimed") && game.claim_draw().is_ok();
                if !claimed {
                    let turn = game.position().turn();
                    let _ = game.offer_draw(turn);
                    let _ = game.accept_draw();
                }
            }
            _ => {}
        }
    }
    let name = |tag| {
        record
            .tag(tag)
            .filter(|n| !n.is_empty() && *n != "?")
            .map(String::from)
    };
    (
        game,
        Players {
            black: name("Black"),
            white: name("White"),
        },
    )
}

/// Why a game could not be loaded or saved.
#[derive(Debug)]
pub enum StoreError {
    /// The file could not be read.
    Read(PathBuf, io::Error),
    /// The file could not be written (the old file, if any, is untouched).
    Write(PathBuf, io::Error),
    /// The file holds no game.
    NoGames(PathBuf),
    /// The file has fewer games than the one asked for.
    NoSuchGame {
        /// The file.
        path: PathBuf,
        /// The game asked for, from 1.
        wanted: usize,
        /// How many games it has.
        count: usize,
    },
    /// The game asked for does not replay.
    Game(PathBuf, Box<crate::pdn::GameError>),
    /// No data directory could be found (no home directory is known).
    NoDataDir,
    /// `--resume` found no autosave file: no game has been played yet.
    NothingToResume(PathBuf),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Read(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            StoreError::Write(p, e) => write!(f, "cannot write {}: {e}", p.display()),
            StoreError::NoGames(p) => write!(f, "{} holds no PDN game", p.display()),
            StoreError::NoSuchGame {
                path,
                wanted,
                count,
            } => write!(
                f,
                "{} has {count} game{}, so there is no game {wanted}",
                path.display(),
                if *count == 1 { "" } else { "s" }
            ),
            StoreError::Game(p, e) => write!(f, "{}: {e}", p.display()),
            StoreError::NoDataDir => {
                write!(f, "no place for saved games: set HOME or XDG_DATA_HOME")
            }
            StoreError::NothingToResume(p) => write!(
                f,
                "no game to resume: {} does not exist yet (a game is saved there as it is played)",
                p.display()
            ),
        }
    }
}

impl std::error::Error for StoreError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            StoreError::Read(_, e) | StoreError::Write(_, e) => Some(e),
            StoreError::Game(_, e) => Some(&**e),
            _ => None,
        }
    }
}

/// Reads game `number` (from 1) of the PDN file at `path`.
pub fn load_record(path: &Path, number: usize) -> Result<PdnGame, StoreError> {
    let mut games = load_records(path)?;
    let count = games.len();
    if number == 0 || number > count {
        return Err(StoreError::NoSuchGame {
            path: path.to_path_buf(),
            wanted: number,
            count,
        });
    }
    games
        .swap_remove(number - 1)
        .map_err(|e| StoreError::Game(path.to_path_buf(), Box::new(e)))
}

/// Reads every game of the PDN file at `path`, each as it replays or why it does not.
/// A file that cannot be read, or holds no game, is an error naming it.
pub fn load_records(
    path: &Path,
) -> Result<Vec<Result<PdnGame, crate::pdn::GameError>>, StoreError> {
    let bytes = std::fs::read(path).map_err(|e| StoreError::Read(path.to_path_buf(), e))?;
    let games = read_games(&decode(&bytes));
    if games.is_empty() {
        return Err(StoreError::NoGames(path.to_path_buf()));
    }
    Ok(games)
}

/// Reads game `number` (from 1) of the PDN file at `path` to review it: a game with a
/// faulty move comes back as far as it replays, with the fault (game, move, line and
/// reason) as the second value.
pub fn load_record_for_review(
    path: &Path,
    number: usize,
) -> Result<(PdnGame, Option<String>), StoreError> {
    match load_record(path, number) {
        Ok(record) => Ok((record, None)),
        Err(StoreError::Game(path, e)) => match &e.kind {
            crate::pdn::GameErrorKind::Move { played, .. } => {
                let fault = format!("{}: {e}", path.display());
                let mut record = (**played).clone();
                // It does not reach the end its result describes.
                record.set_tag("Result", "*");
                Ok((record, Some(fault)))
            }
            _ => Err(StoreError::Game(path, e)),
        },
        Err(e) => Err(e),
    }
}

/// Today's date as PDN writes it (`YYYY.MM.DD`, UTC).
pub fn today() -> String {
    pdn_date(now_unix())
}

/// Writes `record` as PDN to `path` (a leading `~` is the home directory), atomically.
pub fn save_record(path: &Path, record: &PdnGame) -> Result<(), StoreError> {
    let path = expand_home(path);
    write_atomic(&path, write_game(record).as_bytes()).map_err(|e| StoreError::Write(path, e))
}

/// Keeps the autosave file up to date with the game in progress: it writes the record
/// whenever it differs from the one last written, says when a write fails (once, until
/// one works again), and writes it once more on the way out after a signal.
#[derive(Debug, Default)]
pub struct Autosaver {
    /// Off for scripts and pipes, which must never replace a person's saved game.
    enabled: bool,
    /// The text last written (or found in place at the start).
    last: Option<String>,
    failed: bool,
}

impl Autosaver {
    /// An autosaver for a game whose record is now `initial` (a new game, or one just
    /// resumed): that counts as saved, so an unfinished game already in the autosave
    /// stays until a move is played.
    pub fn new(initial: Option<&PdnGame>) -> Autosaver {
        Autosaver {
            enabled: true,
            last: initial.map(write_game),
            failed: false,
        }
    }

    /// An autosaver that never writes.
    pub fn disabled() -> Autosaver {
        Autosaver::default()
    }

    /// Writes `record` (the game in progress, `None` when there is none) if it changed.
    /// Returns the outcome of a write: `Some(Err)` only for a failure that is news (the
    /// last write worked), so a front end says it once.
    pub fn update(&mut self, record: Option<PdnGame>) -> Option<Result<PathBuf, StoreError>> {
        let text = write_game(&record?);
        if !self.enabled || self.last.as_ref() == Some(&text) {
            return None;
        }
        let written = autosave_path()
            .ok_or(StoreError::NoDataDir)
            .and_then(|path| {
                write_atomic(&path, text.as_bytes())
                    .map(|()| path.clone())
                    .map_err(|e| StoreError::Write(path, e))
            });
        self.last = Some(text);
        let news = written.is_ok() || !self.failed;
        self.failed = written.is_err();
        news.then_some(written)
    }

    /// Whether the last write failed: the game in progress is not saved.
    pub fn failed(&self) -> bool {
        self.failed
    }

    /// Writes the last record again, in case the last write failed (on the way out
    /// after a signal).
    pub fn final_save(&self) {
        if self.enabled
            && let (Some(text), Some(path)) = (&self.last, autosave_path())
        {
            let _ = write_atomic(&path, text.as_bytes());
        }
    }
}

/// The record in the autosave file, to resume.
pub fn load_autosave() -> Result<PdnGame, StoreError> {
    let path = autosave_path().ok_or(StoreError::NoDataDir)?;
    match load_record(&path, 1) {
        Err(StoreError::Read(_, e)) if e.kind() == io::ErrorKind::NotFound => {
            Err(StoreError::NothingToResume(path))
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), (1970, 1, 1));
        assert_eq!(pdn_date(951_782_400), "2000.02.29");
        assert_eq!(pdn_date(1_795_996_800), "2026.11.30");
        assert_eq!(pdn_date(1_795_996_799), "2026.11.29");
    }

    #[test]
    fn record_round_trip_keeps_undo_history_and_endings() {
        let mut game = Game::new();
        for m in ["11-15", "23-19", "8-11", "22-17"] {
            game.play_text(m).unwrap();
        }
        game.undo();
        game.undo();
        let players = Players {
            black: Some("Ann".into()),
            white: None,
        };
        let record = game_record(&game, &players, "2026.11.30");
        assert_eq!(record.tag("Undone"), Some("8-11 22-17"));
        let text = write_game(&record);
        let back = read_games(&text).remove(0).unwrap();
        let (resumed, names) = game_from_record(&back);
        assert_eq!(resumed.moves(), game.moves());
        assert_eq!(resumed.undone_moves(), game.undone_moves());
        assert_eq!(names, players);

        let mut resigned = Game::new();
        resigned.play_text("11-15").unwrap();
        resigned.resign(Color::White).unwrap();
        let back = read_games(&write_game(&game_record(&resigned, &players, "?"))).remove(0);
        let (resumed, _) = game_from_record(&back.unwrap());
        assert_eq!(resumed.result(), resigned.result());
    }
}
