//! The games folder: one autosave file per game, each locked by the program that plays
//! it, so two windows never share or overwrite a game.
//!
//! A game in progress is `games/YYYY-MM-DD-HHMMSS-ID.pdn` in the data folder (UTC time
//! of its first save). While a program plays it, that program holds an exclusive lock
//! on `games/.NAME.lock` (the game file itself is replaced at every save, so it cannot
//! carry the lock). The lock goes with the process: a killed program's game is free
//! again at once. Finished games stay in the folder as a history; the program never
//! deletes a game.

use super::files::{
    MAX_READ_BYTES, create_folder, read_bounded, read_file, remove_stale_temp_files,
    replace_unsynced, sync_replaced, write_new,
};
use super::{StoreError, data_dir};
use crate::pdn::{GameError, GameErrorKind, PdnGame, write_game};
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// The games folder's name in the data folder.
pub(crate) const GAMES_FOLDER: &str = "games";

/// The single autosave file of earlier versions, moved into the games folder at start.
pub(crate) const OLD_AUTOSAVE: &str = "autosave.pdn";

/// The folder of per-game autosaves: `games` in the [`data_dir`].
pub(crate) fn games_dir() -> Option<PathBuf> {
    data_dir().map(|d| d.join(GAMES_FOLDER))
}

/// The lock file of the game file `path`: `.NAME.lock` beside it.
fn lock_path(path: &Path) -> PathBuf {
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!(".{stem}.lock"))
}

/// An exclusive lock on the file at `path` (created if missing), or `None` if another
/// process holds it. On Unix the lock file may be removed by its holder as it lets go
/// (see [`Lock::release`]); a lock taken on a file removed meanwhile is taken again.
fn try_lock(path: &Path) -> io::Result<Option<File>> {
    for _ in 0..8 {
        let file = OpenOptions::new()
            .read(true)
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => return Ok(None),
            Err(TryLockError::Error(e)) => return Err(e),
        }
        if still_in_place(&file, path)? {
            return Ok(Some(file));
        }
    }
    Err(io::Error::other(format!(
        "{} keeps changing: cannot lock it",
        path.display()
    )))
}

/// Whether the open `file` is still the one at `path` (not removed or replaced since
/// it was opened).
#[cfg(unix)]
fn still_in_place(file: &File, path: &Path) -> io::Result<bool> {
    use std::os::unix::fs::MetadataExt;
    let held = file.metadata()?;
    match fs::metadata(path) {
        Ok(now) => Ok(held.dev() == now.dev() && held.ino() == now.ino()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(e),
    }
}

/// Lock files are never removed off Unix, so an open one is always in place.
#[cfg(not(unix))]
fn still_in_place(_file: &File, _path: &Path) -> io::Result<bool> {
    Ok(true)
}

/// A lock held on a lock file, let go (and the file removed) when dropped.
#[derive(Debug)]
pub(crate) struct Lock {
    /// The lock file.
    path: PathBuf,
    /// The open lock file, while the lock is held.
    file: Option<File>,
}

impl Lock {
    /// The lock on the lock file at `path` (created if missing; its folder must exist),
    /// or `None` while another process holds it.
    pub(crate) fn take(path: &Path) -> io::Result<Option<Lock>> {
        Ok(try_lock(path)?.map(|file| Lock {
            path: path.to_path_buf(),
            file: Some(file),
        }))
    }

    /// Lets go of the lock, removing the lock file first (on Unix, where a file can be
    /// removed while open and [`try_lock`] notices), so the folder keeps no clutter.
    fn release(&mut self) {
        if let Some(file) = self.file.take() {
            #[cfg(unix)]
            let _ = fs::remove_file(&self.path);
            drop(file);
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        self.release();
    }
}

/// A game's autosave file, locked by this process for as long as this value lives.
#[derive(Debug)]
pub(crate) struct GameFile {
    path: PathBuf,
    lock: Lock,
    /// When the record claimed stopped at a faulty move: what to tell the players (the
    /// fault, and where the file as it was is kept).
    fault: Option<String>,
}

impl GameFile {
    /// A new game file in the games folder, named after `unix_seconds` (UTC) and a
    /// number of its own, and locked. Nothing is written yet.
    pub(crate) fn create(unix_seconds: u64) -> Result<GameFile, StoreError> {
        let dir = games_dir().ok_or(StoreError::NoDataDir)?;
        create_folder(&dir).map_err(|e| StoreError::Write(dir.clone(), e))?;
        let stamp = super::utc_stamp(unix_seconds);
        let mut seed = u64::from(std::process::id()) << 20
            ^ u64::from(
                SystemTime::now()
                    .duration_since(SystemTime::UNIX_EPOCH)
                    .map_or(0, |d| d.subsec_nanos()),
            );
        for _ in 0..64 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let path = dir.join(format!("{stamp}-{:06x}.pdn", (seed >> 40) & 0xFF_FFFF));
            if path.exists() {
                continue;
            }
            let lock = lock_path(&path);
            match try_lock(&lock) {
                Ok(Some(file)) if !path.exists() => {
                    return Ok(GameFile {
                        path,
                        lock: Lock {
                            path: lock,
                            file: Some(file),
                        },
                        fault: None,
                    });
                }
                Ok(_) => continue,
                Err(e) => return Err(StoreError::Write(lock, e)),
            }
        }
        Err(StoreError::Write(
            dir,
            io::Error::other("no free name for a new game file"),
        ))
    }

    /// Locks the existing game file `path` for this process, or says it is open in
    /// another window. A lock held for a moment only (another program looking at the
    /// folder, as `checkers games` does) is waited for.
    pub(crate) fn claim(path: &Path) -> Result<GameFile, StoreError> {
        let lock = lock_path(path);
        for attempt in 0..5 {
            match try_lock(&lock) {
                Ok(Some(file)) => {
                    return Ok(GameFile {
                        path: path.to_path_buf(),
                        lock: Lock {
                            path: lock,
                            file: Some(file),
                        },
                        fault: None,
                    });
                }
                Ok(None) if attempt < 4 => {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                Ok(None) => break,
                Err(e) => return Err(StoreError::Lock(path.to_path_buf(), e)),
            }
        }
        Err(StoreError::OpenElsewhere(path.to_path_buf()))
    }

    /// The game file.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }

    /// When the game was claimed from a record that stops at a faulty move: the words
    /// that tell the players so, naming the file, the fault and the copy of the file
    /// as it was.
    pub(crate) fn fault(&self) -> Option<&str> {
        self.fault.as_deref()
    }

    /// Writes `text` as the game, atomically: whole for any reader at once, on the disk
    /// once [`sync`](Self::sync) has flushed it.
    pub(crate) fn write(&self, text: &str) -> Result<(), StoreError> {
        replace_unsynced(&self.path, text.as_bytes())
            .map_err(|e| StoreError::Write(self.path.clone(), e))
    }

    /// Flushes the game last written to the disk.
    pub(crate) fn sync(&self) -> Result<(), StoreError> {
        sync_replaced(&self.path).map_err(|e| StoreError::Write(self.path.clone(), e))
    }

    /// The record in the file.
    pub(crate) fn load(&self) -> Result<PdnGame, StoreError> {
        super::load_record(&self.path, 1)
    }

    /// Lets go of the game: another window may take it up.
    pub(crate) fn release(mut self) {
        self.lock.release();
    }
}

/// A game in the games folder, as found there.
#[derive(Clone, Debug)]
pub(crate) struct SavedGame {
    /// Its file.
    pub(crate) path: PathBuf,
    /// When it was last saved.
    pub(crate) modified: SystemTime,
    /// The game, or why it cannot be read. A record that stops at a faulty move is the
    /// game up to it (see [`fault`](Self::fault)).
    pub(crate) record: Result<PdnGame, String>,
    /// Why the record stops early, when a move of it is faulty: the game goes on from
    /// the move before it.
    pub(crate) fault: Option<String>,
    /// Whether another program holds it (a game being played in another window).
    pub(crate) open_elsewhere: bool,
}

/// How many days an unfinished game is announced at the start of a new one (see
/// [`SavedGame::recent`]).
pub(crate) const ANNOUNCED_DAYS: u64 = 30;

/// The `Termination` of a game its players gave up at the list of games to resume: it
/// stays in the folder, but is no longer offered.
pub(crate) const ABANDONED: &str = "abandoned";

impl SavedGame {
    /// Whether the game has ended (a result other than `*`) and, for a match's game,
    /// the match with it, or was abandoned, or was never begun (see
    /// [`not_begun`](Self::not_begun)). An unreadable file counts as finished: there is
    /// nothing to resume (a record that stops at a faulty move is read up to it).
    pub(crate) fn finished(&self) -> bool {
        match &self.record {
            Ok(record) => {
                self.abandoned()
                    || self.not_begun()
                    || (record.result.as_deref().is_some_and(|r| r != "*")
                        && self.match_game().is_none_or(|(game, games)| game >= games))
            }
            Err(_) => true,
        }
    }

    /// Whether it has no result and no move played (all taken back, or none made; a
    /// ballot's moves are none of the players') from the start position, and is no later game of a match: nothing in it to resume, so
    /// `--resume` does not offer it. A position set up is kept on offer: setting it up
    /// was the player's work.
    pub(crate) fn not_begun(&self) -> bool {
        self.record.as_ref().is_ok_and(not_begun)
    }

    /// Whether its players abandoned it (see [`abandon`]).
    pub(crate) fn abandoned(&self) -> bool {
        self.record
            .as_ref()
            .is_ok_and(|r| r.tag("Termination") == Some(ABANDONED))
    }

    /// How it was played, in a few words: the time control with each side's time left
    /// (Black's first) and the computer's level: "5+3 4:12-3:59, level 6". Empty for an
    /// untimed game between two people.
    pub(crate) fn conditions(&self) -> String {
        let Ok(record) = &self.record else {
            return String::new();
        };
        // "0:04:12.5" reads "4:12.5": no hours in a game of minutes.
        let short = |t: &str| {
            let t = crate::text::printable(t, 12);
            match t.strip_prefix("0:") {
                Some(minutes) => minutes
                    .strip_prefix('0')
                    .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
                    .unwrap_or(minutes)
                    .to_string(),
                None => t,
            }
        };
        let mut parts = Vec::new();
        if let Some(control) = record.tag("TimeControl") {
            let mut clock = crate::text::printable(control, 20);
            if let (Some(black), Some(white)) = (record.tag("BlackClock"), record.tag("WhiteClock"))
            {
                clock.push_str(&format!(" {}-{}", short(black), short(white)));
            }
            parts.push(clock);
        }
        let levels: Vec<String> = ["BlackLevel", "WhiteLevel"]
            .iter()
            .filter_map(|tag| record.tag(tag))
            .map(|level| crate::text::printable(level, 4))
            .collect();
        match levels.as_slice() {
            [] => {}
            [one] => parts.push(format!("level {one}")),
            [black, white] => parts.push(format!("levels {black} and {white}")),
            _ => {}
        }
        parts.join(", ")
    }

    /// For a match's game: which game it is and how many the match has (`(2, 4)` for
    /// game 2 of 4), from the tags the session keeps a match in (`MatchRounds` and
    /// `MatchResults`, the earlier games' results).
    pub(crate) fn match_game(&self) -> Option<(usize, usize)> {
        match_game(self.record.as_ref().ok()?)
    }

    /// For a match game, the file the match's finished games are added to: the game
    /// in play keeps the match's state, each finished game of it its own record here.
    pub(crate) fn match_file(&self) -> Option<PathBuf> {
        let file = self.record.as_ref().ok()?.tag("MatchFile")?.trim();
        (!file.is_empty()).then(|| PathBuf::from(file))
    }

    /// For a finished game of a match that went on to its next game (see
    /// [`left_match_game`]): its round, `1.2` (round 1, its second game).
    pub(crate) fn match_round(&self) -> Option<String> {
        if self.match_game().is_some() {
            return None;
        }
        let record = self.record.as_ref().ok()?;
        record.tag("MatchFile")?;
        let round = record.tag("Round").unwrap_or("?");
        Some(crate::text::printable(round, 12))
    }

    /// Whether it was last saved within [`ANNOUNCED_DAYS`] of `now`: an unfinished game
    /// older than that is still offered by `--resume`, but no longer announced at every
    /// start.
    pub(crate) fn recent(&self, now: SystemTime) -> bool {
        now.duration_since(self.modified)
            .map_or(true, |age| age.as_secs() <= ANNOUNCED_DAYS * 86_400)
    }

    /// Whether it can be taken up again: unfinished and not open elsewhere (by
    /// `--resume`, or by `checkers host --resume` for a game played across the network).
    pub(crate) fn resumable(&self) -> bool {
        !self.finished() && !self.open_elsewhere
    }

    /// Whether it was played across the network, held by this terminal's
    /// `checkers host`: a side of it played at another terminal, or, for a record whose
    /// players' kinds were lost (an older program resumed it at one terminal), the
    /// `Site` its host gave it. Only `checkers host --resume` goes on with it, so that
    /// the game stays the two players' and is found where its host looks.
    pub(crate) fn across_the_network(&self) -> bool {
        self.record.as_ref().is_ok_and(hosted_here)
    }

    /// The moves (plies) played.
    #[cfg(test)]
    pub(crate) fn plies(&self) -> usize {
        self.record.as_ref().map_or(0, |r| r.moves.len())
    }

    /// "Ann - Bob" (Black first); a side with no name is told by who played it,
    /// "computer" (at the level [`conditions`](Self::conditions) gives) or "network" (at
    /// another terminal), else "you" for the person at this terminal who played the
    /// computer or someone across the network, else "unnamed" ("unnamed players" for
    /// both: a record's `?` read as a name would say nothing); names are made safe to
    /// show on a terminal.
    pub(crate) fn players(&self) -> String {
        use crate::rules::Color;
        let record = self.record.as_ref().ok();
        let kind = |color: Color| record.and_then(|r| r.tag(&format!("{color}Type")));
        // None: a side with no name, nor any word of who played it.
        let name = |color: Color| {
            let tag = |name: &str| record.and_then(|r| r.tag(name));
            let kind = tag(&format!("{color}Type"));
            match tag(color.name()).filter(|n| !n.is_empty() && *n != "?") {
                // The name a record gives a computer with none is its kind, as above.
                Some(n) if kind == Some("program") && crate::session::is_program_name(n) => {
                    Some("computer".to_string())
                }
                Some(n) => Some(crate::text::printable(n, 30)),
                None => match kind {
                    Some("program") => Some("computer".to_string()),
                    Some(crate::session::REMOTE_TYPE) => Some("network".to_string()),
                    _ => None,
                },
            }
        };
        // A person with no name facing the computer or the network is the one reading
        // the list: "unnamed" there reads as someone else.
        let unnamed = |color: Color| {
            let facing = kind(!color);
            if kind(color) == Some("human")
                && (facing == Some("program") || facing == Some(crate::session::REMOTE_TYPE))
            {
                "you"
            } else {
                "unnamed"
            }
        };
        match (name(Color::Black), name(Color::White)) {
            (None, None) => "unnamed players".to_string(),
            (black, white) => format!(
                "{} - {}",
                black.as_deref().unwrap_or(unnamed(Color::Black)),
                white.as_deref().unwrap_or(unnamed(Color::White))
            ),
        }
    }

    /// The game as the list of games to resume shows it on one row: what tells it from
    /// the others first (who played, the moves, where it stands, when), then its state
    /// where it is not plainly "unfinished", then how it is played. Cut to a narrow
    /// screen's width, the row loses the least telling parts, at its end.
    pub(crate) fn resume_row(&self) -> String {
        let moves = self
            .record
            .as_ref()
            .map_or(0, |r| crate::game::full_moves(&r.start, r.moves.len()));
        let state = self.state();
        let parts = [
            self.players(),
            format!("{moves} move{}", if moves == 1 { "" } else { "s" }),
            self.where_it_stands(),
            self.when(),
            if state == "unfinished" {
                String::new()
            } else {
                state
            },
            self.conditions(),
        ];
        parts
            .into_iter()
            .filter(|part| !part.is_empty())
            .collect::<Vec<_>>()
            .join("  ")
    }

    /// Where an unfinished game stands, to tell it from the others: its last numbered
    /// move (`last 12. 9-14 22-17`, a capture by its route: `last 3. 19x10x1`), after the position it was set up from if it was
    /// (`from W:W18:B11; last 1. ... 18-15`). Empty for a game that cannot be read.
    pub(crate) fn where_it_stands(&self) -> String {
        let Ok(record) = &self.record else {
            return String::new();
        };
        let (game, _) = crate::pdn::game_from_record(record);
        let mut parts = Vec::new();
        if record.start != crate::rules::Position::start() {
            parts.push(format!(
                "from {}",
                crate::text::printable(&record.start.to_string(), 60)
            ));
        }
        if let Some(pair) = game.route_pairs().last() {
            parts.push(format!("last {pair}"));
        }
        parts.join("; ")
    }

    /// When it was last saved, on the player's clock: `YYYY-MM-DD HH:MM` and the time
    /// zone (`UTC` where none is set).
    pub(crate) fn when(&self) -> String {
        let seconds = self
            .modified
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        super::local_time(seconds)
    }

    /// The state in a few words: "unfinished", "open in another window", the result,
    /// or why the file cannot be read; for a record that stops at a faulty move, the
    /// fault after it.
    pub(crate) fn state(&self) -> String {
        let state = self.state_of_record();
        match &self.fault {
            Some(fault) => format!("{state} (its record stops at a faulty move: {fault})"),
            None => state,
        }
    }

    /// The state in a few words, as [`state`](Self::state) says it, without the fault.
    fn state_of_record(&self) -> String {
        match &self.record {
            Err(e) => format!("unreadable: {e}"),
            Ok(_) if self.open_elsewhere => "open in another window".to_string(),
            Ok(_) if self.abandoned() => "abandoned".to_string(),
            Ok(_) if self.not_begun() => "not begun".to_string(),
            Ok(record) => match (record.result.as_deref(), self.match_game()) {
                (None | Some("*"), Some((game, games))) => {
                    format!("unfinished (match game {game} of {games})")
                }
                (Some(result), Some((game, games))) if game < games => {
                    format!("{result}, match goes on (game {game} of {games})")
                }
                (Some(result), Some((game, games))) => {
                    format!("{result}, the match's last game ({game} of {games})")
                }
                (None | Some("*"), None) => "unfinished".to_string(),
                (Some(result), None) => match self.match_round() {
                    Some(round) => format!("{result}, match game of round {round}"),
                    None => result.to_string(),
                },
            },
        }
    }

    /// One line: date, players, moves (a move is one of each side's, as the record
    /// numbers them), state (as the lists of games show it), how it is played, and for
    /// an unfinished game where it stands (see [`where_it_stands`](Self::where_it_stands)).
    pub(crate) fn summary(&self) -> String {
        let moves = self
            .record
            .as_ref()
            .map_or(0, |r| crate::game::full_moves(&r.start, r.moves.len()));
        let mut line = format!(
            "{}  {}  {} move{}  {}",
            self.when(),
            self.players(),
            moves,
            if moves == 1 { "" } else { "s" },
            self.state(),
        );
        let stands = if self.finished() {
            String::new()
        } else {
            self.where_it_stands()
        };
        for part in [self.conditions(), stands] {
            if !part.is_empty() {
                line.push_str("  ");
                line.push_str(&part);
            }
        }
        line
    }
}

/// Whether another process holds the lock of the game file `path`.
fn open_elsewhere(path: &Path) -> bool {
    let lock = lock_path(path);
    if !lock.exists() {
        return false;
    }
    match try_lock(&lock) {
        Ok(Some(file)) => {
            Lock {
                path: lock,
                file: Some(file),
            }
            .release();
            false
        }
        Ok(None) => true,
        Err(_) => false,
    }
}

/// Reads one game file of the folder: only its first game, streamed (a FIFO or a
/// device put there is refused unopened, a huge file costs one block and one game).
/// A record that stops at a faulty move reads as the game up to it, with the fault.
fn read_saved(path: &Path) -> (Result<PdnGame, String>, Option<String>) {
    let mut games = match super::file_games(path) {
        Ok(games) => games,
        Err(e) => return (Err(e.to_string()), None),
    };
    match games.next() {
        Some(Ok(record)) => (Ok(record), None),
        Some(Err(e)) => match up_to_fault(&e) {
            Some(record) => (Ok(record), Some(e.to_string())),
            None => (Err(e.to_string()), None),
        },
        None => (Err("no game in it".to_string()), None),
    }
}

/// The game to go on with from a record that stops at a faulty move: its moves before
/// the fault, its tags (its result that of its `Result` tag, as a resumed game reads
/// it), less the moves taken back, which followed the record's end. `None` for any
/// other error (a syntax error, a bad position), which leaves nothing to go on from.
fn up_to_fault(error: &GameError) -> Option<PdnGame> {
    let GameErrorKind::Move { played, .. } = &error.kind else {
        return None;
    };
    let mut record = (**played).clone();
    record.tags.retain(|(name, _)| name != "Undone");
    record.result = record.tag("Result").map(String::from);
    Some(record)
}

/// Every game in the games folder, newest (last saved) first. A folder that does not
/// exist holds no games.
pub(crate) fn saved_games() -> Result<Vec<SavedGame>, StoreError> {
    let dir = games_dir().ok_or(StoreError::NoDataDir)?;
    let mut list = games_in(dir)?;
    settle_left_match_games(&mut list);
    Ok(list)
}

/// The joiner's copies of the games it played at another terminal's host (the data
/// folder's `network` folder), newest first; none where there is no such folder.
pub(crate) fn joined_games() -> Vec<SavedGame> {
    super::data_dir()
        .and_then(|dir| games_in(dir.join("network")).ok())
        .unwrap_or_default()
}

/// Where the newest unfinished game this terminal joined at another's host stands, in
/// a sentence for a player who looks for it here: the game is its host's, and goes on
/// there. `None` where no copy of an unfinished game is kept.
pub(crate) fn joined_unfinished() -> Option<String> {
    let joined = joined_games().into_iter().find(|g| !g.finished())?;
    let record = joined.record.as_ref().ok()?;
    let host = record
        .tag("Site")
        .and_then(|site| site.strip_prefix(crate::session::HOST_SITE))
        .map(|address| crate::text::printable(address.trim(), 60))
        .unwrap_or_else(|| "another terminal".to_string());
    let stands = joined.where_it_stands();
    let stands = if stands.is_empty() {
        String::new()
    } else {
        format!(", {stands}")
    };
    Some(format!(
        "the game you joined at {host} ({}{stands}) is kept by its host: it goes on when they \
         run checkers host --resume, and you checkers join with the address and code that \
         prints",
        joined.players()
    ))
}

/// Every game file in the folder `dir`, newest (last saved) first. A folder that does
/// not exist holds no games.
fn games_in(dir: PathBuf) -> Result<Vec<SavedGame>, StoreError> {
    let entries = match fs::read_dir(&dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreError::Read(dir, e)),
    };
    let mut list = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || !name.ends_with(".pdn") {
            continue;
        }
        let modified = entry
            .metadata()
            .and_then(|m| m.modified())
            .unwrap_or(SystemTime::UNIX_EPOCH);
        let (record, fault) = read_saved(&path);
        list.push(SavedGame {
            record,
            fault,
            open_elsewhere: open_elsewhere(&path),
            path,
            modified,
        });
    }
    list.sort_by(|a, b| b.modified.cmp(&a.modified).then(b.path.cmp(&a.path)));
    Ok(list)
}

/// The games of `list` that a match went on from, read as the finished games they are
/// (see [`left_match_game`]) where their files still keep the match's state: the
/// program wrote the match's next game to a file of its own, and ended before it wrote
/// the finished one again. Its next game is the match to resume; offering this one
/// too would play the match's next game twice.
fn settle_left_match_games(list: &mut [SavedGame]) {
    let in_play: Vec<String> = list
        .iter()
        .filter_map(|game| {
            let record = game.record.as_ref().ok()?;
            game.match_game()?;
            Some(match_key(record, record.tag("MatchResults").unwrap_or("")))
        })
        .collect();
    for game in list.iter_mut() {
        let Ok(record) = &game.record else {
            continue;
        };
        let Some(left) = left_match_game(record) else {
            continue;
        };
        // The match as its next game's record keeps it: one result more, this one's.
        let results = format!(
            "{} {}",
            record.tag("MatchResults").unwrap_or(""),
            record.result.as_deref().unwrap_or("")
        );
        if in_play.contains(&match_key(record, &results)) {
            game.record = Ok(left);
        }
    }
}

/// What tells one match from another in the records of its games: its event (the
/// players), file, rounds, ballots and seed, and `results`, those of the games before
/// the one a record is of.
fn match_key(record: &PdnGame, results: &str) -> String {
    let mut key: Vec<&str> = [
        "Event",
        "MatchFile",
        "MatchRounds",
        "MatchBallots",
        "MatchSeed",
    ]
    .iter()
    .map(|name| record.tag(name).unwrap_or("").trim())
    .collect();
    key.extend(results.split_whitespace());
    key.join("\n")
}

/// The games of the games folder `--resume` may continue, and what it may not.
#[derive(Debug)]
pub(crate) struct Resumable {
    /// The unfinished games no other window holds, newest first.
    pub(crate) games: Vec<SavedGame>,
    /// How many unfinished games are open in other windows.
    pub(crate) open_elsewhere: usize,
    /// How many game files do not read at all (`checkers games` lists them, and why).
    pub(crate) unreadable: usize,
    /// How many unfinished games were played across the network: `checkers host
    /// --resume` goes on with them, not `--resume` at one terminal.
    pub(crate) across_the_network: usize,
    /// Those games, no other window holding them, newest first: the home screen offers
    /// them too, hosted again when chosen.
    pub(crate) hosted: Vec<SavedGame>,
}

impl Resumable {
    /// The games offered to go on with, newest first: those `--resume` continues at
    /// one terminal and, with `hosted_too` (the home screen's list), those hosted
    /// across the network, which go on hosted again, never at one terminal.
    pub(crate) fn offered(self, hosted_too: bool) -> Vec<SavedGame> {
        let mut games = self.games;
        if hosted_too {
            games.extend(self.hosted);
            games.sort_by_key(|game| std::cmp::Reverse(game.modified));
        }
        games
    }
}

/// Whether `record` is of a game played across the network, held by this terminal's
/// `checkers host` (see [`SavedGame::across_the_network`]).
pub(crate) fn hosted_here(record: &PdnGame) -> bool {
    record
        .tag("Site")
        .is_some_and(|site| site.starts_with(crate::session::HOST_SITE))
        || crate::rules::Color::ALL.into_iter().any(|c| {
            record
                .tag(&format!("{c}Type"))
                .is_some_and(|t| t.trim() == crate::session::REMOTE_TYPE)
        })
}

/// Whether `record` has no result and no move played from the start position (a
/// ballot's moves alone are none of the players'), and is no later game of a match (see
/// [`SavedGame::not_begun`]): `--resume` does not offer it, so leaving it adjourns
/// nothing.
pub(crate) fn not_begun(record: &PdnGame) -> bool {
    (record.moves.is_empty() || only_its_ballot(record))
        && record.start == crate::rules::Position::start()
        && record.result.as_deref().is_none_or(|r| r == "*")
        && match_game(record).is_none_or(|(game, _)| game == 1)
}

/// Whether `record`'s moves are its ballot's, as its `Ballot` tag names it, and no
/// more: the players made no move of their own (a game at one terminal is not even
/// written then; a host's is, once its joiner's name is in it).
fn only_its_ballot(record: &PdnGame) -> bool {
    let Some(number) = record
        .tag(crate::session::BALLOT_TAG)
        .and_then(|n| n.trim().parse::<u32>().ok())
    else {
        return false;
    };
    crate::engine::acf_openings()
        .into_iter()
        .find(|opening| opening.number == number)
        .is_some_and(|opening| opening.line == record.moves)
}

/// Which game of a match `record` is, and how many the match has (see
/// [`SavedGame::match_game`]).
fn match_game(record: &PdnGame) -> Option<(usize, usize)> {
    let rounds: usize = record.tag("MatchRounds")?.trim().parse().ok()?;
    let before = record
        .tag("MatchResults")
        .map_or(0, |r| r.split_whitespace().count());
    Some((before + 1, rounds.saturating_mul(2)))
}

/// The games `--resume` may continue, newest first, and how many others are open in
/// other windows or cannot be read.
pub(crate) fn resumable_games() -> Result<Resumable, StoreError> {
    let all = saved_games()?;
    let open_elsewhere = all
        .iter()
        .filter(|g| !g.finished() && g.open_elsewhere)
        .count();
    let unreadable = all.iter().filter(|g| g.record.is_err()).count();
    let (network, games): (Vec<SavedGame>, Vec<SavedGame>) = all
        .into_iter()
        .filter(SavedGame::resumable)
        .partition(SavedGame::across_the_network);
    Ok(Resumable {
        games,
        open_elsewhere,
        unreadable,
        across_the_network: network.len(),
        hosted: network,
    })
}

/// Takes up the saved game `game` for this process: locks its file, then reads it again
/// (it may have changed since it was listed). Refused if another window took it since.
/// A record that stops at a faulty move is taken up to the move before it: the file as
/// it was is copied beside it first (see [`keep_faulty`]), so the next save loses
/// nothing, and the [`GameFile`] says so ([`GameFile::fault`]).
pub(crate) fn claim(game: &SavedGame) -> Result<(GameFile, PdnGame), StoreError> {
    let mut file = GameFile::claim(&game.path)?;
    match file.load() {
        Ok(record) => Ok((file, record)),
        Err(StoreError::Game(path, error)) => {
            let Some(record) = up_to_fault(&error) else {
                return Err(StoreError::Game(path, error));
            };
            let kept = keep_faulty(&path)?;
            file.fault = Some(format!(
                "The game saved in {} stops at a faulty move ({error}); play goes on from \
                 the move before it, and the file as it was is kept in {}.",
                crate::text::printable_path(&path),
                crate::text::printable_path(&kept)
            ));
            Ok((file, record))
        }
        Err(e) => Err(e),
    }
}

/// The ending of the copy of a game file whose record stops at a faulty move: the
/// games folder lists only `.pdn` files, so the copy is never offered nor counted.
pub(crate) const FAULTY_ENDING: &str = "faulty";

/// Copies the game file `path` as it is to `NAME.pdn.faulty` beside it (or
/// `NAME.pdn.faulty-2`, and so on, where that name holds something else), before a
/// game resumed from it is saved over it. A copy already there with the same bytes
/// (an earlier resume that saved nothing) is kept as the copy. Returns the copy's path.
fn keep_faulty(path: &Path) -> Result<PathBuf, StoreError> {
    let bytes = read_file(path)?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for n in 1..=100 {
        let kept = match n {
            1 => path.with_file_name(format!("{name}.{FAULTY_ENDING}")),
            _ => path.with_file_name(format!("{name}.{FAULTY_ENDING}-{n}")),
        };
        match read_bounded(&kept, MAX_READ_BYTES) {
            Ok(held) if held == bytes => return Ok(kept),
            Ok(_) => continue,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(StoreError::Read(kept, e)),
        }
        match write_new(&kept, &bytes) {
            Ok(()) => return Ok(kept),
            // Taken meanwhile (the game's lock keeps other windows out, not all else).
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(super::files::write_error(&kept, e)),
        }
    }
    Err(StoreError::Write(
        path.to_path_buf(),
        io::Error::other("no free name for a copy of the faulty game file"),
    ))
}

/// Abandons the saved `game`: it stays in the games folder (and `checkers games` lists
/// it) but `--resume` no longer offers it. Refused while it is open in another window.
pub(crate) fn abandon(game: &SavedGame) -> Result<(), StoreError> {
    let (file, mut record) = claim(game)?;
    record.set_tag("Termination", ABANDONED);
    let written = file.write(&game_text(&record));
    if written.is_ok() {
        // No host goes on with it: its code is kept no longer.
        super::door::remove(&game.path);
    }
    file.release();
    written
}

/// Deletes the saved `game`'s file (and the chat and the door kept beside it). Refused
/// while it is open in another window.
pub(crate) fn delete(game: &SavedGame) -> Result<(), StoreError> {
    let file = GameFile::claim(&game.path)?;
    let removed = fs::remove_file(&game.path).map_err(|e| StoreError::Write(game.path.clone(), e));
    if removed.is_ok() {
        super::chat::remove(&game.path);
        super::door::remove(&game.path);
    }
    file.release();
    removed
}

/// Gets the data folder ready, as every start does: the single `autosave.pdn` of
/// earlier versions becomes a game of the games folder (so its game is not lost), and
/// temporary files and locks left by killed programs are removed (from the data
/// folder, the games folder, the endgame database folder and the folder of indexes of
/// big record files). Nothing here is
/// worth stopping for: failures are ignored.
pub(crate) fn tidy_data_dir() {
    let Some(data) = data_dir() else {
        return;
    };
    migrate_old_autosave(&data);
    remove_stale_temp_files(&data, None);
    let games = data.join(GAMES_FOLDER);
    remove_stale_temp_files(&games, None);
    remove_stale_temp_files(&data.join(super::EGDB_FOLDER), None);
    super::index::tidy();
    remove_stale_locks(&games);
}

/// Moves `autosave.pdn` of `data` into the games folder, named after the time it was
/// last saved: it is treated as one more game (unfinished, if it was).
fn migrate_old_autosave(data: &Path) {
    let old = data.join(OLD_AUTOSAVE);
    let Ok(meta) = fs::metadata(&old) else {
        return;
    };
    if !meta.is_file() {
        return;
    }
    let seconds = meta
        .modified()
        .ok()
        .and_then(|m| m.duration_since(SystemTime::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_secs());
    let dir = data.join(GAMES_FOLDER);
    if create_folder(&dir).is_err() {
        return;
    }
    let stamp = super::utc_stamp(seconds);
    let mut target = dir.join(format!("{stamp}-autosave.pdn"));
    let mut n = 1;
    while target.exists() {
        n += 1;
        target = dir.join(format!("{stamp}-autosave-{n}.pdn"));
    }
    let _ = fs::rename(&old, &target);
}

/// Removes lock files no process holds (left by a program that was killed).
fn remove_stale_locks(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.')
            && name.ends_with(".lock")
            && let Ok(Some(file)) = try_lock(&entry.path())
        {
            Lock {
                path: entry.path(),
                file: Some(file),
            }
            .release();
        }
    }
}

/// The tags a match's game in play keeps the match's state in, less `MatchFile`
/// (the session's `MATCH_TAGS`): a finished game left for the match's next one has
/// them no more, so it is no longer the match to resume.
const MATCH_STATE_TAGS: [&str; 4] = ["MatchRounds", "MatchResults", "MatchBallots", "MatchSeed"];

/// The record a finished match game (`record`, as the autosave kept it with the
/// match's state) stays in the games folder as once the match goes on to its next
/// game, which has a file of its own: a finished game like any other, with its
/// `Event` (`Match: Ann v Bob`), `Round` (`1.2`) and `MatchFile` (where the match's
/// games are), without the match's state or moves taken back. `None` for any other
/// record: a game that is not a match's, or not finished.
pub(crate) fn left_match_game(record: &PdnGame) -> Option<PdnGame> {
    record.tag("MatchRounds")?;
    if record.result.as_deref().is_none_or(|r| r == "*") {
        return None;
    }
    let mut left = record.clone();
    left.tags
        .retain(|(name, _)| !MATCH_STATE_TAGS.contains(&name.as_str()) && name != "Undone");
    Some(left)
}

/// The text a game file holds for `record`.
pub(crate) fn game_text(record: &PdnGame) -> String {
    write_game(record)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_finished_match_game_left_for_the_next_is_a_game_of_its_own() {
        let text = "[Event \"Match: Ann v Bob\"]\n[Round \"1.1\"]\n[MatchRounds \"2\"]\n\
                    [MatchResults \"\"]\n[MatchBallots \"none\"]\n[MatchFile \"/m.pdn\"]\n\
                    [Result \"0-1\"]\n1. 11-15 0-1\n";
        let record = crate::pdn::read_games(text).remove(0).unwrap();
        let saved = |record: PdnGame| SavedGame {
            path: PathBuf::from("/games/g.pdn"),
            modified: SystemTime::UNIX_EPOCH,
            record: Ok(record),
            fault: None,
            open_elsewhere: false,
        };
        let waiting = saved(record.clone());
        assert!(waiting.resumable(), "the match waits for its next game");
        let left = saved(left_match_game(&record).expect("a finished match game"));
        assert!(left.finished() && !left.resumable());
        assert_eq!(left.state(), "0-1, match game of round 1.1");
        assert_eq!(left.match_file(), Some(PathBuf::from("/m.pdn")));
        let kept = left.record.as_ref().unwrap();
        assert_eq!(kept.tag("Event"), Some("Match: Ann v Bob"));
        assert_eq!(kept.tag("MatchRounds"), None);
        // A game in play, or one that is no match's, is left as it is.
        let mut unfinished = record.clone();
        unfinished.result = Some("*".into());
        assert!(left_match_game(&unfinished).is_none());
        assert!(left_match_game(kept).is_none());
    }

    #[test]
    fn a_match_game_whose_next_game_was_written_is_not_offered_again_after_a_crash() {
        // The program wrote game 2's file, then ended before it wrote game 1's again:
        // game 1's file still keeps the match waiting for its next game.
        let game = |round: &str, results: &str, result: &str, moves: &str| {
            let text = format!(
                "[Event \"Match: Ann v Bob\"]\n[Round \"{round}\"]\n[MatchRounds \"2\"]\n\
                 [MatchResults \"{results}\"]\n[MatchBallots \"none\"]\n\
                 [MatchFile \"/m.pdn\"]\n[Result \"{result}\"]\n{moves} {result}\n"
            );
            SavedGame {
                path: PathBuf::from(format!("/games/{round}.pdn")),
                modified: SystemTime::UNIX_EPOCH,
                record: Ok(crate::pdn::read_games(&text).remove(0).unwrap()),
                fault: None,
                open_elsewhere: false,
            }
        };
        let stale = game("1.1", "", "0-1", "1. 11-15");
        let next = game("1.2", "0-1", "*", "");
        // Another match between them, waiting after a draw in its first game.
        let other = game("1.1", "", "1/2-1/2", "1. 9-13");
        let mut list = vec![next, stale, other];
        assert!(list.iter().all(SavedGame::resumable));
        settle_left_match_games(&mut list);
        let offered: Vec<&Path> = list
            .iter()
            .filter(|g| g.resumable())
            .map(|g| g.path.as_path())
            .collect();
        assert_eq!(offered.len(), 2, "{offered:?}");
        assert_eq!(list[0].match_game(), Some((2, 4)), "the match goes on here");
        assert!(list[0].resumable());
        assert_eq!(list[1].state(), "0-1, match game of round 1.1");
        assert!(list[2].resumable(), "the other match still waits");
    }

    #[test]
    fn a_ballot_game_with_no_move_of_the_players_own_is_not_offered_to_resume() {
        let game = |moves: &str| SavedGame {
            path: PathBuf::from("/games/g.pdn"),
            modified: SystemTime::UNIX_EPOCH,
            record: Ok(crate::pdn::read_games(&format!(
                "[Black \"Ann\"]\n[White \"Bob\"]\n[Ballot \"126\"]\n{moves} *\n"
            ))
            .remove(0)
            .unwrap()),
            fault: None,
            open_elsewhere: false,
        };
        // Ballot 126's own moves: a host writes them once its joiner's name comes.
        let ballot_only = game("1. 11-15 23-19 8-11");
        assert!(ballot_only.not_begun() && !ballot_only.resumable());
        assert_eq!(ballot_only.state(), "not begun");
        // One move of the players' own, or moves that are not the ballot's: offered.
        assert!(game("1. 11-15 23-19 8-11 22-18").resumable());
        assert!(game("1. 11-15 23-19 9-14").resumable());
    }

    #[test]
    fn stamps_sort_by_time() {
        assert_eq!(crate::store::utc_stamp(0), "1970-01-01-000000");
        assert_eq!(crate::store::utc_stamp(1_795_996_799), "2026-11-29-235959");
    }

    #[test]
    fn a_lock_is_held_once_and_freed_on_release() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("g.pdn");
        let lock = lock_path(&game);
        assert_eq!(lock.file_name().unwrap(), ".g.lock");
        let mut held = Lock {
            file: try_lock(&lock).unwrap(),
            path: lock.clone(),
        };
        assert!(held.file.is_some());
        assert!(open_elsewhere(&game), "a second handle is refused");
        assert!(try_lock(&lock).unwrap().is_none());
        held.release();
        assert!(!open_elsewhere(&game));
        assert!(try_lock(&lock).unwrap().is_some());
    }
}
