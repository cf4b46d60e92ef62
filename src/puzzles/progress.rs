//! The player's progress with the puzzles: for each one tried, whether it was solved,
//! how many attempts and wrong moves it took. Kept as a small JSON file in the data
//! folder (`puzzles.json` beside the saved games), replaced atomically on each change.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The progress file's name in the data folder.
pub(crate) const FILE_NAME: &str = "puzzles.json";

/// The most a progress file may hold: a few lines per puzzle.
const MAX_BYTES: u64 = 1 << 20;

/// What the player did with one puzzle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct Record {
    /// Solved at least once.
    pub(crate) solved: bool,
    /// Attempts begun (a move played after opening it, or after a restart).
    pub(crate) attempts: u32,
    /// Attempts that ended with the solution shown, or a wrong move.
    pub(crate) failed: u32,
}

impl Record {
    /// One more attempt begun. The count stays at its largest rather than wrap to 0
    /// (a file edited by hand may hold any number).
    pub(crate) fn count_attempt(&mut self) {
        self.attempts = self.attempts.saturating_add(1);
    }

    /// One more attempt failed, the count held at its largest as
    /// [`count_attempt`](Self::count_attempt) holds it.
    pub(crate) fn count_failure(&mut self) {
        self.failed = self.failed.saturating_add(1);
    }
}

/// The progress of every puzzle tried, by the puzzle's id, and the file it lives in.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Progress {
    /// The records, by puzzle id.
    pub(crate) records: BTreeMap<String, Record>,
    /// The file (`None`: kept in memory only, when there is no data folder).
    pub(crate) path: Option<PathBuf>,
    /// The puzzles this is the progress with: a puzzle file's (read once and kept for
    /// the run), or `None`, the built-in ones.
    pub(crate) set: Option<&'static [super::Puzzle]>,
}

impl Progress {
    /// The progress file in the data folder: `puzzles.json`.
    pub(crate) fn default_path() -> Option<PathBuf> {
        crate::store::data_dir().map(|dir| dir.join(FILE_NAME))
    }

    /// The progress kept in `path` (none yet if there is no file). A file that cannot
    /// be read, or does not read as progress, is an error naming it; it is left alone.
    pub(crate) fn load(path: Option<PathBuf>) -> Result<Progress, String> {
        let Some(file) = path else {
            return Ok(Progress::default());
        };
        let shown = crate::text::printable(&file.display().to_string(), 400);
        let bytes = match crate::store::files::read_file(&file) {
            Ok(bytes) => bytes,
            Err(crate::store::StoreError::Read(_, e))
                if e.kind() == std::io::ErrorKind::NotFound =>
            {
                return Ok(Progress {
                    records: BTreeMap::new(),
                    path: Some(file),
                    set: None,
                });
            }
            Err(e) => return Err(e.to_string()),
        };
        if bytes.len() as u64 > MAX_BYTES {
            return Err(format!(
                "{shown} is over {} KB: not puzzle progress",
                MAX_BYTES / 1024
            ));
        }
        let records: BTreeMap<String, Record> = serde_json::from_slice(&bytes).map_err(|e| {
            // serde's words end with the place, said once here before them.
            let place = format!(" at line {} column {}", e.line(), e.column());
            let words = e.to_string();
            let why = words.strip_suffix(&place).unwrap_or(&words);
            format!(
                "{shown}, line {} column {}: {}; the puzzle progress is not read (and not written over)",
                e.line(),
                e.column(),
                crate::text::printable(why, 200)
            )
        })?;
        Ok(Progress {
            records,
            path: Some(file),
            set: None,
        })
    }

    /// The puzzles this progress is with: a puzzle file's, or the built-in ones.
    pub(crate) fn puzzles(&self) -> &'static [super::Puzzle] {
        self.set.unwrap_or_else(super::builtin)
    }

    /// The record of puzzle `id` (empty if never tried).
    pub(crate) fn of(&self, id: &str) -> Record {
        self.records.get(id).copied().unwrap_or_default()
    }

    /// The number (from 1) of the first puzzle not solved yet, where the
    /// puzzles open when none is named; the first when all are solved.
    pub(crate) fn first_unsolved(&self) -> usize {
        self.puzzles()
            .iter()
            .position(|puzzle| !self.of(&puzzle.id).solved)
            .unwrap_or(0)
            + 1
    }

    /// Puzzles solved: a record of an id no puzzle has (a file edited by hand,
    /// or a puzzle an earlier version had) is kept in the file but not counted.
    pub(crate) fn solved_count(&self) -> usize {
        self.puzzles()
            .iter()
            .filter(|puzzle| self.of(&puzzle.id).solved)
            .count()
    }

    /// Changes the record of `id` with `change` and writes the file.
    pub(crate) fn update(
        &mut self,
        id: &str,
        change: impl FnOnce(&mut Record),
    ) -> Result<(), String> {
        change(self.records.entry(id.to_string()).or_default());
        self.save()
    }

    /// Writes the file, atomically (the old file stays whole if the write fails).
    pub(crate) fn save(&self) -> Result<(), String> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let text = serde_json::to_string_pretty(&self.records).map_err(|e| e.to_string())?;
        write(path, &text)
    }
}

/// Writes `text` to `path` atomically, making the folder if needed.
fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent() {
        crate::store::files::create_folder(dir)
            .map_err(|e| format!("cannot make {}: {e}", dir.display()))?;
    }
    crate::store::write_atomic(path, format!("{text}\n").as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
