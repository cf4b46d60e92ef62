//! The autosave: every change to the game in progress is written at once to the game's
//! own file in the games folder (see [`games`](super::games)), so a crash or a `kill -9`
//! loses at most the move being typed.

use super::StoreError;
use super::files::sync_replaced;
use super::games::{GameFile, game_text};
use crate::pdn::PdnGame;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Keeps the game in progress saved in a file of its own. It writes the record whenever
/// it differs from the one last written, says when a write fails (once, until one works
/// again), and can write once more on the way out after a signal. A new game (a new
/// game number from the front end) gets a new file; the last one is left as it was.
///
/// A handle: clones share one autosave, so the signal watcher can make the last save
/// while the front end plays.
#[derive(Clone, Debug, Default)]
pub(crate) struct Autosaver {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Debug, Default)]
struct Inner {
    /// Off for scripts and pipes, which must not fill the games folder.
    enabled: bool,
    /// The game's file, locked, once it has been written (or the resumed game's).
    file: Option<GameFile>,
    /// The front end's number of the game being kept.
    game: u64,
    /// The text last written (or found in place at the start).
    last: Option<String>,
    /// The record `last` is the text of: a finished match game left for the match's
    /// next one is written once more from it (see [`Autosaver::update`]).
    last_record: Option<PdnGame>,
    /// Whether `last` is not on disk yet.
    dirty: bool,
    /// Whether the file was written and not yet handed to be flushed to the disk (see
    /// [`Autosaver::sync`]).
    unsynced: bool,
    /// The thread that flushes written files, once one was.
    flusher: Option<Flusher>,
    /// Why the last write failed, if it did.
    failure: Option<Arc<StoreError>>,
}

impl Autosaver {
    /// An autosaver for a new game (game number `game`) whose record is now `initial`:
    /// that counts as saved, so nothing is written until the game changes.
    pub(crate) fn new(game: u64, initial: Option<&PdnGame>) -> Autosaver {
        Autosaver::with(Inner {
            enabled: true,
            game,
            last: initial.map(game_text),
            last_record: initial.cloned(),
            ..Inner::default()
        })
    }

    /// An autosaver for a resumed game: its file (locked) and its record as read.
    pub(crate) fn resumed(file: GameFile, game: u64, initial: Option<&PdnGame>) -> Autosaver {
        Autosaver::with(Inner {
            enabled: true,
            file: Some(file),
            game,
            last: initial.map(game_text),
            last_record: initial.cloned(),
            ..Inner::default()
        })
    }

    /// An autosaver that never writes.
    pub(crate) fn disabled() -> Autosaver {
        Autosaver::default()
    }

    fn with(inner: Inner) -> Autosaver {
        Autosaver {
            inner: Arc::new(Mutex::new(inner)),
        }
    }

    /// The state, even if a panic elsewhere poisoned the lock: it is still worth saving.
    fn lock(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes `record` (the game in progress, `None` when there is none) if it changed;
    /// `game` is the front end's number of the game, which changes for a new game (that
    /// one gets a file of its own, written from its first change). A match's next game
    /// is written at once, and only then is the finished game it follows written
    /// again as a game of its own, without the match's state (see
    /// [`left_match_game`](super::games::left_match_game)): `--resume` finds the match
    /// at every moment, and offers it once, and each finished game stays in the folder. Returns
    /// the outcome of a write: `Some(Err)` only for a failure that is news (the last
    /// write worked), so a front end says it once.
    pub(crate) fn update(
        &self,
        game: u64,
        record: Option<PdnGame>,
    ) -> Option<Result<PathBuf, Arc<StoreError>>> {
        let mut inner = self.lock();
        if !inner.enabled {
            return None;
        }
        if inner.game != game {
            return inner.next_game(game, record);
        }
        let record = record?;
        if let Err(too_long) = super::fits_a_record(&record) {
            // The file keeps the game as it was at the longest a record holds, which
            // `--resume` reads back; the failure is said once.
            let news = inner.failure.is_none();
            let too_long = Arc::new(too_long);
            inner.failure = Some(Arc::clone(&too_long));
            return news.then_some(Err(too_long));
        }
        let text = game_text(&record);
        if inner.last.as_ref() == Some(&text) {
            return None;
        }
        inner.last = Some(text);
        inner.last_record = Some(record);
        inner.dirty = true;
        let written = inner.write().map_err(Arc::new);
        let news = written.is_ok() || inner.failure.is_none();
        inner.failure = written.as_ref().err().cloned();
        news.then_some(written)
    }

    /// Whether the last write failed: the game in progress is not saved.
    pub(crate) fn failed(&self) -> bool {
        self.lock().failure.is_some()
    }

    /// Why the last write failed, if it did.
    pub(crate) fn failure(&self) -> Option<Arc<StoreError>> {
        self.lock().failure.clone()
    }

    /// Whether it keeps a game and has written nothing for it, nor failed to: the game is
    /// as it began (an autosaver that never writes is not untouched).
    pub(crate) fn untouched(&self) -> bool {
        let inner = self.lock();
        inner.enabled && inner.file.is_none() && inner.failure.is_none() && !inner.dirty
    }

    /// The file the game is saved in, once it has one.
    pub(crate) fn path(&self) -> Option<PathBuf> {
        self.lock().file.as_ref().map(|f| f.path().to_path_buf())
    }

    /// For a game resumed from a record that stops at a faulty move: the words that
    /// tell the players so (see [`GameFile::fault`]).
    pub(crate) fn fault(&self) -> Option<String> {
        self.lock()
            .file
            .as_ref()
            .and_then(|f| f.fault().map(String::from))
    }

    /// Has what the last [`update`](Self::update) wrote flushed to the disk, on a
    /// thread of its own: the runtime calls it once whoever was to hear of the change
    /// has been told, so neither a peer nor the screen waits on the disk (the file,
    /// once written, outlives the program being killed; the flush keeps it through a
    /// power cut). Returns a failure of a flush that is news (the last write or flush
    /// worked), so a front end says it once.
    pub(crate) fn sync(&self) -> Option<Arc<StoreError>> {
        let mut inner = self.lock();
        let flush_failed = inner.flusher.as_ref().and_then(Flusher::failure);
        if inner.unsynced
            && let Some(path) = inner.file.as_ref().map(|f| f.path().to_path_buf())
        {
            let handed = inner.flusher.get_or_insert_with(Flusher::start).flush(path);
            if handed {
                inner.unsynced = false;
            } else if let Err(e) = inner.sync() {
                // No thread to flush on: flushed here.
                return inner.failed(e);
            }
        }
        inner.failed(flush_failed?)
    }

    /// Writes the last record again if it is not on disk, and flushes it (on the way
    /// out after a signal, or at the end of plain mode). `Ok` when the game is saved
    /// (or there is nothing to save).
    pub(crate) fn final_save(&self) -> Result<(), Arc<StoreError>> {
        let mut inner = self.lock();
        if !inner.enabled || (!inner.dirty && !inner.unsynced) {
            return Ok(());
        }
        let written = if inner.dirty {
            inner.write().map(drop)
        } else {
            Ok(())
        }
        .and_then(|()| inner.sync())
        .map_err(Arc::new);
        inner.failure = written.as_ref().err().cloned();
        written
    }

    /// Lets go of the game's file (another window may take it up); nothing more is
    /// written.
    pub(crate) fn close(&self) {
        let mut inner = self.lock();
        let _ = inner.sync();
        inner.enabled = false;
        if let Some(file) = inner.file.take() {
            file.release();
        }
    }
}

impl Inner {
    /// A new game, number `game`, now `record`. The last one stays in its file as it
    /// was, free for --resume; unless it is a finished match game whose match goes on:
    /// then the next game is written at once to a file of its own, and the finished one
    /// is written again as a game of its own (a failure to write the next game leaves
    /// the match waiting for it in the finished game's file, for --resume).
    fn next_game(
        &mut self,
        game: u64,
        record: Option<PdnGame>,
    ) -> Option<Result<PathBuf, Arc<StoreError>>> {
        let left = self
            .last_record
            .take()
            .and_then(|r| super::games::left_match_game(&r));
        let _ = self.sync();
        let old = self.file.take();
        self.game = game;
        self.last = record.as_ref().map(game_text);
        self.last_record = record;
        self.dirty = false;
        let written = match (&left, &self.last) {
            (Some(_), Some(_)) => {
                self.dirty = true;
                Some(self.write().map_err(Arc::new))
            }
            _ => None,
        };
        // The next game on the disk before the finished game's file is written again:
        // at no moment is the match in neither file. In both for a moment, it is
        // offered once (see `settle_left_match_games`).
        let safe = matches!(written, Some(Ok(_))) && self.sync().is_ok();
        if let Some(old) = old {
            if let (Some(left), true) = (&left, safe) {
                // The match is safe in the next game's file: the finished one is
                // a game of the folder's history from now on.
                let _ = old.write(&game_text(left)).and_then(|()| old.sync());
            }
            old.release();
        }
        let written = written?;
        let news = written.is_ok() || self.failure.is_none();
        self.failure = written.as_ref().err().cloned();
        news.then_some(written)
    }

    /// Writes `last` to the game's file, making the file first if the game has none.
    fn write(&mut self) -> Result<PathBuf, StoreError> {
        let text = self.last.clone().unwrap_or_default();
        let file = match self.file.take() {
            Some(file) => file,
            None => GameFile::create(super::now_unix())?,
        };
        let written = file.write(&text);
        let path = file.path().to_path_buf();
        self.file = Some(file);
        written?;
        self.dirty = false;
        self.unsynced = true;
        Ok(path)
    }

    /// Keeps `failed` as why the game is not saved: returned when it is news (the last
    /// write or flush worked).
    fn failed(&mut self, failed: StoreError) -> Option<Arc<StoreError>> {
        let failed = Arc::new(failed);
        let news = self.failure.is_none();
        self.failure = Some(Arc::clone(&failed));
        news.then_some(failed)
    }

    /// Flushes the file written last to the disk here, if it is not yet.
    fn sync(&mut self) -> Result<(), StoreError> {
        if let (true, Some(file)) = (self.unsynced, &self.file) {
            file.sync()?;
        }
        self.unsynced = false;
        Ok(())
    }
}

/// Flushes written autosaves to the disk on a thread of its own.
#[derive(Debug)]
struct Flusher {
    /// The files to flush, in the order written.
    files: Sender<PathBuf>,
    /// Why the last flush failed, until it is told.
    failed: Arc<Mutex<Option<StoreError>>>,
}

impl Flusher {
    /// The flushing thread, started. It ends when the autosaver is dropped.
    fn start() -> Flusher {
        let (files, written) = mpsc::channel::<PathBuf>();
        let failed = Arc::new(Mutex::new(None));
        let told = Arc::clone(&failed);
        let spawned = std::thread::Builder::new()
            .name("autosave-flush".to_string())
            .spawn(move || {
                while let Ok(mut path) = written.recv() {
                    // Of writes come in a burst, the last of a file is the one to flush.
                    while let Ok(newer) = written.try_recv() {
                        if newer != path {
                            flush(&path, &told);
                        }
                        path = newer;
                    }
                    flush(&path, &told);
                }
            });
        // Without a thread, nothing is handed over and the autosaver flushes itself.
        let files = match spawned {
            Ok(_) => files,
            Err(_) => mpsc::channel().0,
        };
        Flusher { files, failed }
    }

    /// Hands `path` over to be flushed; false if the thread is gone.
    fn flush(&self, path: PathBuf) -> bool {
        self.files.send(path).is_ok()
    }

    /// Why the last flush failed, once.
    fn failure(&self) -> Option<StoreError> {
        self.failed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

/// Flushes `path` to the disk, keeping in `failed` why it could not be.
fn flush(path: &Path, failed: &Mutex<Option<StoreError>>) {
    if let Err(e) = sync_replaced(path) {
        let e = StoreError::Write(path.to_path_buf(), e);
        *failed.lock().unwrap_or_else(PoisonError::into_inner) = Some(e);
    }
}
