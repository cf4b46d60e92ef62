//! Where games are kept: the data directory, atomic writes, saving and loading records
//! (a save to an existing PDN file appends the game), and the per-game autosaves that
//! `--resume` continues ([`games`], [`Autosaver`]).
//!
//! A saved game is plain PDN that other checkers software reads. Two extra tags make a
//! resume exact: `Undone` holds the moves taken back (so redo still works) and
//! `Termination` says how a game ended that the board alone does not explain
//! (resignation, agreed or claimed draw).

mod autosave;
pub(crate) mod chat;
pub(crate) mod door;
pub(crate) mod files;
pub(crate) mod games;
mod index;
mod records;
pub(crate) mod seats;

pub(crate) use autosave::Autosaver;
pub(crate) use files::{Appended, read_file, write_atomic};
pub(crate) use games::{
    GameFile, SavedGame, games_dir, resumable_games, saved_games, tidy_data_dir,
};
pub(crate) use records::{
    file_games, file_games_measured, is_stdin, load_record, load_record_tree,
    load_record_up_to_fault, scan_summaries, shown_path, stdin_bytes,
};

use crate::pdn::{PdnGame, decode_owned, write_game};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// The directory games are kept in, as the platform expects it: on Linux
/// `$XDG_DATA_HOME/checkers` (`~/.local/share/checkers` by default), on macOS
/// `~/Library/Application Support/checkers`, on Windows `%APPDATA%\\checkers\\data`.
/// `None` if no home directory can be found.
pub(crate) fn data_dir() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "checkers").map(|dirs| dirs.data_dir().to_path_buf())
}

/// The endgame database folder's name in the data folder.
pub(crate) const EGDB_FOLDER: &str = "egdb";

/// The endgame database folder: `egdb` in the [`data_dir`].
pub(crate) fn egdb_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join(EGDB_FOLDER))
}

/// A file name for saving a game in the data directory: `game-YYYY-MM-DD-HHMMSS.pdn`
/// from seconds since the Unix epoch (UTC).
pub(crate) fn default_save_path(unix_seconds: u64) -> Option<PathBuf> {
    Some(data_dir()?.join(format!("game-{}.pdn", utc_stamp(unix_seconds))))
}

/// The file a match's games are written to when `--save` names none:
/// `match-YYYY-MM-DD-HHMMSS.pdn` in the data directory (UTC), beside the games saved
/// with the save dialog.
pub(crate) fn default_match_path(unix_seconds: u64) -> Option<PathBuf> {
    let game = default_save_path(unix_seconds)?;
    let name = game
        .file_name()?
        .to_string_lossy()
        .replacen("game-", "match-", 1);
    Some(game.with_file_name(name))
}

/// The file the analysis board offers to save to: `analysis-YYYY-MM-DD-HHMMSS.pdn` in
/// the data directory (UTC), beside the games saved with the save dialog.
pub(crate) fn default_analysis_path(unix_seconds: u64) -> Option<PathBuf> {
    let game = default_save_path(unix_seconds)?;
    let name = game
        .file_name()?
        .to_string_lossy()
        .replacen("game-", "analysis-", 1);
    Some(game.with_file_name(name))
}

/// The file the analysis board keeps its moves not saved in when Ctrl-C ends the
/// program: `analysis-unsaved-YYYY-MM-DD-HHMMSS.pdn` (UTC) in `folder` (the data
/// folder, beside the analyses saved with `s`, not the games folder the autosaves
/// own), `-2`, `-3`... added where a file of that name is there already.
pub(crate) fn unsaved_analysis_path(folder: &Path, unix_seconds: u64) -> PathBuf {
    let stamp = utc_stamp(unix_seconds);
    let mut path = folder.join(format!("analysis-unsaved-{stamp}.pdn"));
    let mut n = 1;
    while path.exists() && n < 1000 {
        n += 1;
        path = folder.join(format!("analysis-unsaved-{stamp}-{n}.pdn"));
    }
    path
}

/// The PDN date (`YYYY.MM.DD`, UTC) of seconds since the Unix epoch.
#[cfg(test)]
pub(crate) fn pdn_date(unix_seconds: u64) -> String {
    timestamp(unix_seconds).strftime("%Y.%m.%d").to_string()
}

/// Seconds since the Unix epoch now (0 if the clock is before it).
pub(crate) fn now_unix() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// The instant `unix_seconds` after the Unix epoch (the epoch itself for one out of
/// range).
fn timestamp(unix_seconds: u64) -> jiff::Timestamp {
    i64::try_from(unix_seconds)
        .ok()
        .and_then(|s| jiff::Timestamp::from_second(s).ok())
        .unwrap_or(jiff::Timestamp::UNIX_EPOCH)
}

/// `YYYY-MM-DD-HHMMSS` (UTC) of `unix_seconds`, for file names that sort by time
/// whatever the time zone and its changes.
pub(crate) fn utc_stamp(unix_seconds: u64) -> String {
    timestamp(unix_seconds)
        .strftime("%Y-%m-%d-%H%M%S")
        .to_string()
}

/// When `unix_seconds` was on the player's clock: `YYYY-MM-DD HH:MM` and the time
/// zone's abbreviation (the system's zone; UTC where none is set).
pub(crate) fn local_time(unix_seconds: u64) -> String {
    timestamp(unix_seconds)
        .to_zoned(jiff::tz::TimeZone::system())
        .strftime("%Y-%m-%d %H:%M %Z")
        .to_string()
}

/// `path` with a leading `~` standing for the home directory, as a shell would read it.
pub(crate) fn expand_home(path: &Path) -> PathBuf {
    let home = directories::BaseDirs::new().map(|dirs| dirs.home_dir().to_path_buf());
    match (path.strip_prefix("~"), home) {
        (Ok(rest), Some(home)) => home.join(rest),
        _ => path.to_path_buf(),
    }
}

/// Why a game could not be loaded or saved.
#[derive(Debug)]
pub(crate) enum StoreError {
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
    /// `--resume` found no unfinished game to take up in the games folder.
    NothingToResume {
        /// The games folder.
        dir: PathBuf,
        /// How many unfinished games are open in other windows.
        open_elsewhere: usize,
        /// How many game files in it cannot be read at all.
        unreadable: usize,
        /// How many unfinished games in it were played across the network (`checkers
        /// host --resume` goes on with them).
        across_the_network: usize,
        /// Where the newest unfinished game this terminal joined at another's host
        /// stands (see [`games::joined_unfinished`]).
        joined: Option<String>,
    },
    /// The path names something other than a regular file (a folder, a FIFO, a
    /// device: the words say which), which is never read or written as a game.
    NotRegular(PathBuf, &'static str),
    /// The file is larger than any PDN file (its size in bytes).
    TooBig(PathBuf, u64),
    /// The file reports no size (as procfs files do) and reads on past the most a PDN
    /// file is read (that limit in bytes).
    ReadsPast(PathBuf, u64),
    /// The existing file does not look like PDN, so no game is added to it.
    NotPdn(PathBuf),
    /// The file read is text but no PDN, and holds no game (its first word, not yet
    /// made printable).
    NoPdnText(PathBuf, String),
    /// The file read is not text: it has a NUL byte at this offset from 0 (binary
    /// data, or UTF-16 text), which no PDN file has.
    NotText(PathBuf, u64),
    /// The game is being played in another window, which holds its file.
    OpenElsewhere(PathBuf),
    /// The game file's lock could not be taken.
    Lock(PathBuf, io::Error),
    /// A save was asked for inside the games folder, which the autosaves own.
    GamesFolder(PathBuf),
    /// The folder a player named a file in does not exist: it is not made, as a
    /// mistyped path would make it where the player does not look.
    NoFolder(PathBuf),
    /// The game has this many plies, more than a record holds ([`MAX_PLIES`]): it is
    /// not written, so that every file written reads back.
    ///
    /// [`MAX_PLIES`]: crate::pdn::MAX_PLIES
    TooLong(usize),
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
            StoreError::NothingToResume {
                dir,
                open_elsewhere,
                unreadable,
                across_the_network,
                joined,
            } => {
                match (open_elsewhere, across_the_network, joined) {
                    (_, 1, _) => write!(
                        f,
                        "no game to resume at one terminal: the unfinished game in {} was played across the network, and checkers host --resume goes on with it (your opponent joins with the code it prints)",
                        dir.display()
                    )?,
                    (_, n @ 2.., _) => write!(
                        f,
                        "no game to resume at one terminal: the {n} unfinished games in {} were played across the network, and checkers host --resume goes on with the newest (your opponent joins with the code it prints)",
                        dir.display()
                    )?,
                    (0, _, Some(joined)) => write!(f, "no game to resume here: {joined}")?,
                    (0, _, None) => write!(
                        f,
                        "no game to resume: {} holds no unfinished game (each game is saved there as it is played)",
                        dir.display()
                    )?,
                    (1, _, _) => write!(
                        f,
                        "no game to resume: the unfinished game in {} is open in another window",
                        dir.display()
                    )?,
                    (busy, _, _) => write!(
                        f,
                        "no game to resume: the {busy} unfinished games in {} are open in other windows",
                        dir.display()
                    )?,
                }
                match unreadable {
                    0 => Ok(()),
                    1 => write!(
                        f,
                        "; 1 game file there cannot be read (checkers games lists it, and why)"
                    ),
                    n => write!(
                        f,
                        "; {n} game files there cannot be read (checkers games lists them, and why)"
                    ),
                }
            }
            StoreError::NotRegular(p, kind) => write!(
                f,
                "{} is {kind}, not a regular file: only files are read and written",
                p.display()
            ),
            StoreError::TooBig(p, size) => write!(
                f,
                "{} is {} MB, too big for a PDN file (at most {} MB)",
                p.display(),
                size / (1 << 20),
                files::MAX_READ_BYTES / (1 << 20)
            ),
            StoreError::ReadsPast(p, limit) => {
                let limit = if limit % (1 << 20) == 0 {
                    format!("{} MB", limit / (1 << 20))
                } else {
                    format!("{limit} bytes")
                };
                write!(
                    f,
                    "{} reads on past {limit} without giving its size beforehand: too long for a PDN file (at most {limit})",
                    p.display()
                )
            }
            StoreError::NotPdn(p) => write!(
                f,
                "{} exists and is not a PDN file: no game is added to it",
                p.display()
            ),
            StoreError::NoPdnText(p, begins) => write!(
                f,
                "{} holds no game: it is not a PDN file: {}",
                p.display(),
                crate::pdn::not_pdn_reason(begins)
            ),
            StoreError::NotText(p, at) => write!(
                f,
                "{} is not a PDN file: it is not text (byte {} is a NUL, as in binary data \
                 or UTF-16 text; PDN is read as UTF-8 or Latin-1)",
                p.display(),
                at + 1
            ),
            StoreError::OpenElsewhere(p) => {
                write!(f, "the game in {} is open in another window", p.display())
            }
            StoreError::Lock(p, e) => write!(f, "cannot lock {}: {e}", p.display()),
            StoreError::TooLong(plies) => write!(
                f,
                "the game has {plies} moves (plies), more than a saved game can hold ({}): it is not saved further (claim a draw: a game this long has long repeated itself)",
                crate::pdn::MAX_PLIES
            ),
            StoreError::NoFolder(dir) => write!(
                f,
                "no folder {}: create it first, or name a file in a folder that exists",
                dir.display()
            ),
            StoreError::GamesFolder(dir) => write!(
                f,
                "{} is where games are saved as they are played: save to a file elsewhere",
                dir.display()
            ),
        }
    }
}

/// Every message shows the file and the error beneath (a read's, a write's, a game's),
/// so none is a source as well: said once.
impl std::error::Error for StoreError {}

/// Today's date on the player's calendar (the system's time zone) as PDN writes it:
/// `YYYY.MM.DD`.
pub(crate) fn today() -> String {
    jiff::Zoned::now().strftime("%Y.%m.%d").to_string()
}

/// Refuses a save into the games folder, whose files the autosaves own (a game added
/// to one would be lost at that game's next save).
fn outside_games_folder(path: &Path) -> Result<(), StoreError> {
    let Some(dir) = games_dir() else {
        return Ok(());
    };
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    match (parent.canonicalize(), dir.canonicalize()) {
        (Ok(a), Ok(b)) if a == b => Err(StoreError::GamesFolder(dir)),
        _ => Ok(()),
    }
}

/// Checks a file a player named to save to, `path`, before anything is written: one in
/// the games folder is refused (the autosaves own it: a file there would be listed,
/// resumed and explored as one more game), and so is one in a folder that does not
/// exist (a mistyped path, most often), rather than make the folder. The data folder
/// itself, where the saves offer a file, is the program's own: it is made when missing,
/// as on a first save before any game was kept.
pub(crate) fn in_existing_folder(path: &Path) -> Result<(), StoreError> {
    outside_games_folder(path)?;
    let folder = files::folder_of(path);
    match std::fs::metadata(&folder) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            if data_dir().is_some_and(|data| data == folder) {
                files::create_folder(&folder).map_err(|e| files::write_error(path, e))
            } else {
                Err(StoreError::NoFolder(folder))
            }
        }
        // Anything else in the way (a file, no permission) is said by the write itself.
        _ => Ok(()),
    }
}

/// Refuses a record the reader would refuse: more than [`MAX_PLIES`](crate::pdn::MAX_PLIES)
/// plies. (Tag values the writer cuts to the reader's limit itself.)
pub(crate) fn fits_a_record(record: &PdnGame) -> Result<(), StoreError> {
    if record.moves.len() > crate::pdn::MAX_PLIES {
        return Err(StoreError::TooLong(record.moves.len()));
    }
    Ok(())
}

/// Writes `record` as PDN to `path` (a leading `~` is the home directory), atomically,
/// replacing the file if there is one.
pub(crate) fn save_record(path: &Path, record: &PdnGame) -> Result<(), StoreError> {
    save_pdn(path, record, &write_game(record))
}

/// Writes `text`, the PDN of `record` (annotated by the game report, say), as
/// [`save_record`] writes the record.
pub(crate) fn save_pdn(path: &Path, record: &PdnGame, text: &str) -> Result<(), StoreError> {
    fits_a_record(record)?;
    let path = expand_home(path);
    outside_games_folder(&path)?;
    // A FIFO or a device (`/dev/null`, say) is refused, never replaced.
    write_atomic(&path, text.as_bytes()).map_err(|e| files::write_error(&path, e))
}

/// Adds `record` as PDN at the end of the file at `path` (a leading `~` is the home
/// directory), as checkers programs add games to a database; a missing file is written
/// new. An existing file that does not look like PDN is left alone.
pub(crate) fn append_record(path: &Path, record: &PdnGame) -> Result<Appended, StoreError> {
    append_pdn(path, record, &write_game(record))
}

/// Adds `text`, the PDN of `record` (annotated by the game report, say), as
/// [`append_record`] adds the record.
pub(crate) fn append_pdn(
    path: &Path,
    record: &PdnGame,
    text: &str,
) -> Result<Appended, StoreError> {
    fits_a_record(record)?;
    let path = expand_home(path);
    outside_games_folder(&path)?;
    files::append_text(&path, text)
}

/// Adds a finished match game to the match's file, as [`append_record`] does, unless the
/// file holds it already (written before a crash, or a resume, took the match up
/// again): `Ok(None)` then. The file is searched a block at a time (a game in ASCII,
/// the usual case, reads the same in either encoding a PDN file may have).
pub(crate) fn add_match_game(
    path: &Path,
    record: &PdnGame,
) -> Result<Option<Appended>, StoreError> {
    let path = expand_home(path);
    let text = write_game(record);
    let held = if text.is_ascii() {
        files::contains_bytes(&path, text.as_bytes()).unwrap_or(false)
    } else {
        read_file(&path).is_ok_and(|bytes| decode_owned(bytes).contains(&text))
    };
    if held {
        return Ok(None);
    }
    append_record(&path, record).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_store_error_says_the_file_and_its_cause_once() {
        let e = StoreError::Write(
            "/full/game.pdn".into(),
            io::Error::new(io::ErrorKind::StorageFull, "No space left on device"),
        );
        assert_eq!(
            e.to_string(),
            "cannot write /full/game.pdn: No space left on device"
        );
        assert!(std::error::Error::source(&e).is_none());
        assert_eq!(crate::text::error_chain(&e), e.to_string());
    }

    #[test]
    fn civil_dates() {
        assert_eq!(pdn_date(0), "1970.01.01");
        assert_eq!(utc_stamp(951_782_400 + 3_723), "2000-02-29-010203");
        assert_eq!(pdn_date(951_782_400), "2000.02.29");
        assert_eq!(pdn_date(1_795_996_800), "2026.11.30");
        assert_eq!(pdn_date(1_795_996_799), "2026.11.29");
    }
}
