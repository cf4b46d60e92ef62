//! The runtime's files: the autosave after every change (and the last save on a
//! signal), a finished match game added to the match's file once, and saves to a file
//! the players name.

use super::{Event, Runtime};
use crate::pdn::Players;
use crate::session::Session;
use crate::store::{self, Appended, Autosaver, GameFile, StoreError};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// How the game in play is kept.
#[derive(Debug)]
pub(crate) enum Saving {
    /// Not at all (scripts and pipes, which must not fill the games folder; tests).
    Off,
    /// A new game, saved in a file of its own from its first change.
    New,
    /// A resumed game, saved in the file it came from (locked).
    Resumed(GameFile),
}

impl Saving {
    /// The autosaver for `session`, and the events to tell at the start: the file a
    /// resumed game goes on in, or the unfinished games a new one could be.
    pub(super) fn start(self, session: &Session) -> (Autosaver, Vec<Event>) {
        let record = session.autosave_record(&store::today());
        match self {
            Saving::Off => (Autosaver::disabled(), Vec::new()),
            Saving::Resumed(file) => (
                Autosaver::resumed(file, session.game_number(), record.as_ref()),
                Vec::new(),
            ),
            Saving::New => {
                let fresh = session.game().moves().is_empty() && !session.is_reviewing();
                // Only those left recently: older ones stay in the --resume list.
                let now = std::time::SystemTime::now();
                let unfinished = if fresh {
                    store::resumable_games().map_or(0, |found| {
                        found.games.iter().filter(|g| g.recent(now)).count()
                    })
                } else {
                    0
                };
                let events = (unfinished > 0)
                    .then_some(Event::UnfinishedGames(unfinished))
                    .into_iter()
                    .collect();
                (
                    Autosaver::new(session.game_number(), record.as_ref()),
                    events,
                )
            }
        }
    }
}

/// What [`Event::UnfinishedGames`] tells, `quit` being the front end's word for
/// leaving (`q`, `quit`): both ways back to a game, the home screen's `r` (`checkers`
/// opens it) as well as `checkers --resume`.
pub(crate) fn unfinished_games_note(count: usize, quit: &str) -> String {
    let (saved, which) = match count {
        1 => ("An unfinished game is saved too".to_string(), "it"),
        n => (format!("{n} unfinished games are saved too"), "one of them"),
    };
    format!(
        "{saved}: after {quit}, r on the home screen (checkers) or checkers --resume \
         continues {which}."
    )
}

/// What a save to a named file does when the file already exists.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) enum IfExists {
    /// Nothing yet: the player is asked ([`Event::SaveWouldReplace`]).
    #[default]
    Ask,
    /// Add the game at the end of the file, as to a game database.
    Append,
    /// Replace the file with this game.
    Replace,
}

/// A save the players asked for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SaveRequest {
    /// The file to write, as typed (a leading `~/` is the home directory).
    pub(crate) path: PathBuf,
    /// The names to write, kept for later saves once the save succeeds.
    pub(crate) players: Players,
    /// What to do if a file is at `path`.
    pub(crate) existing: IfExists,
    /// The game report to annotate the game with (the report screen's save), if any.
    pub(crate) annotations: Option<Box<crate::report::Report>>,
}

/// Makes the last save of the game in play, from any thread (a signal's watcher). A
/// handle made before the game (with `default`) saves nothing until
/// [`keep`](Self::keep) gives it a game.
#[derive(Clone, Debug, Default)]
pub(crate) struct LastSave(Arc<Mutex<Option<Autosaver>>>);

impl LastSave {
    /// From now on, saves the game of `runtime`.
    pub(crate) fn keep(&self, runtime: &Runtime) {
        *self.lock() = Some(runtime.autosaver.clone());
    }

    fn lock(&self) -> MutexGuard<'_, Option<Autosaver>> {
        // Even after a panic elsewhere the game is worth saving.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Writes the game if its last change is not on disk yet. The file the game is
    /// kept in (`None` when it is kept nowhere), or why it could not be saved.
    pub(crate) fn save(&self) -> Result<Option<PathBuf>, Arc<StoreError>> {
        let Some(autosaver) = self.lock().clone() else {
            return Ok(None);
        };
        autosaver.final_save()?;
        Ok(autosaver.path())
    }
}

/// Watches the signals that would end the program ([`ENDING`](crate::signals::ENDING),
/// less those in `left_alone`) from a thread of its own: the game is saved first, then
/// `before_exit` is told how that went (to restore the terminal, or say whether the game
/// is kept), and the process exits with 128 + the signal's number. Unix only: elsewhere
/// the autosave after every change is what keeps the game.
pub(crate) fn watch_ending_signals(
    last_save: LastSave,
    left_alone: &[i32],
    mut before_exit: impl FnMut(i32, Result<Option<PathBuf>, Arc<StoreError>>) + Send + 'static,
) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use crate::signals::{self, ENDING};
        let wanted: Vec<_> = ENDING
            .into_iter()
            .filter(|s| !left_alone.contains(s))
            .collect();
        signals::watch(&wanted, move |signal| {
            before_exit(signal, last_save.save());
            std::process::exit(signals::exit_status(signal));
        })?;
    }
    #[cfg(not(unix))]
    drop((last_save, left_alone, before_exit));
    Ok(())
}

impl Runtime {
    /// Keeps the autosave up to date: a failure is told once (until a save works
    /// again, which is told too).
    pub(super) fn autosave(&mut self, events: &mut Vec<Event>) {
        autosave(&self.autosaver, &self.session, events);
    }

    /// Flushes the autosave written since the last flush to the disk. Called once a
    /// change has been told (peers across the network hear of a move once it is
    /// written, which outlives the program being killed; the flush, milliseconds on a
    /// disk, then keeps it through a power cut).
    pub(super) fn flush_autosave(&mut self, events: &mut Vec<Event>) {
        if let Some(failed) = self.autosaver.sync() {
            events.push(Event::AutosaveFailed(failed));
        }
    }

    /// Adds a finished match game to the match's file, once, whether or not the write
    /// works (a failure is told, and the players may save the game elsewhere).
    pub(super) fn file_match_game(&mut self, events: &mut Vec<Event>) {
        let Some((path, record)) = self.session.match_game_to_file(&store::today()) else {
            return;
        };
        let written = store::add_match_game(&path, &record).map(|_| path);
        self.session.match_game_filed();
        events.push(Event::MatchFiled(written));
    }

    /// Writes the save asked for, if any. An existing file is changed only as the
    /// players chose: the game added at its end, or the file replaced.
    pub(super) fn carry_out_save(&mut self, events: &mut Vec<Event>) {
        let Some(request) = self.save_as.take() else {
            return;
        };
        let path = store::expand_home(&request.path);
        let exists = std::fs::symlink_metadata(&path).is_ok();
        let mut session = self.session.clone();
        session.set_names(request.players.clone());
        let record = session.record(&store::today());
        let text = match &request.annotations {
            Some(report) => crate::report::annotate::annotated_pdn(&record, report),
            None => with_loaded_notes(&session, &record),
        };
        // A folder (or anything else that is no file) is refused before the players are
        // asked whether to add the game at its end or replace it: neither can be done.
        if let Ok(found) = std::fs::metadata(&path)
            && !found.is_file()
        {
            let kind = store::files::kind_of(found.file_type());
            events.push(Event::Saved {
                result: Err(StoreError::NotRegular(path, kind)),
                request,
            });
            return;
        }
        // A file named in a folder that is not there is refused, not given folders.
        if !exists && let Err(e) = store::in_existing_folder(&path) {
            events.push(Event::Saved {
                request,
                result: Err(e),
            });
            return;
        }
        let result = match request.existing {
            IfExists::Ask if exists => {
                events.push(Event::SaveWouldReplace(request));
                return;
            }
            IfExists::Append => store::append_pdn(&path, &record, &text),
            IfExists::Ask | IfExists::Replace => {
                store::save_pdn(&path, &record, &text).map(|()| Appended::Created)
            }
        };
        if result.is_ok() {
            self.session.set_names(request.players.clone());
        }
        events.push(Event::Saved { request, result });
    }

    /// The players are done: the game is adjourned (its running clock stopped) and
    /// saved a last time, and its file let go. Why the game is not saved, if it is not.
    pub(crate) fn finish(&mut self) -> Option<Arc<StoreError>> {
        self.session.adjourn();
        self.autosave(&mut Vec::new());
        self.leave_table();
        let unsaved = self.unsaved();
        self.autosaver.close();
        unsaved
    }

    /// Why the game is not saved, if it is not: the autosave failed, and a last try
    /// failed too.
    pub(crate) fn unsaved(&self) -> Option<Arc<StoreError>> {
        if self.autosaver.final_save().is_ok() {
            return None;
        }
        self.autosaver.failure()
    }
}

/// `record`, the game of `session`, as PDN: with the comments and variations of the
/// file's game it was loaded from (read again from that file), where it was loaded
/// from one and that game still reads as it did.
fn with_loaded_notes(session: &Session, record: &crate::pdn::PdnGame) -> String {
    let loaded = session.loaded_from().and_then(|(path, number, source)| {
        let (again, tree) = store::load_record_tree(path, number)?;
        (again.start == source.start && again.moves == source.moves).then_some(tree)
    });
    match loaded {
        Some(tree) => crate::pdn::write_keeping(record, &tree),
        None => crate::pdn::write_game(record),
    }
}

/// Keeps `session`'s autosave up to date with `autosaver`: a failure is told once (until
/// a save works again, which is told too).
pub(super) fn autosave(autosaver: &Autosaver, session: &Session, events: &mut Vec<Event>) {
    let failed_before = autosaver.failed();
    let record = session.autosave_record(&store::today());
    match autosaver.update(session.game_number(), record) {
        Some(Err(e)) => events.push(Event::AutosaveFailed(e)),
        Some(Ok(path)) if failed_before => events.push(Event::SavedAgain(path)),
        _ => {}
    }
}
