//! The analysis board's save dialog: the file's path, offered as a new file in the data
//! folder (or the file saved to last), edited on the status line; Enter saves. A file
//! that is there already is not touched until the player says whether to replace it or
//! add the analysis after its games.

use crate::tui::field::{TextField, field_action};
use ratatui::crossterm::event::{KeyCode, KeyEvent};
use std::path::{Path, PathBuf};

/// The longest path the dialog takes.
const PATH_MAX_CHARS: usize = 1024;

/// How the tree goes into the file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Write {
    /// A new file (it was not there when asked).
    New,
    /// After the games of the existing file, as to a game database.
    Append,
    /// Instead of what the existing file holds.
    Replace,
}

/// What a key in the dialog asks of the board.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Step {
    /// Nothing beyond the dialog's own change.
    Stay,
    /// The dialog is closed, nothing saved.
    Cancel,
    /// The path typed cannot be saved to: why.
    Refused(String),
    /// Write the tree to this file, so.
    Write(PathBuf, Write),
}

/// The save dialog's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SavePrompt {
    /// The path as typed (`~` stands for the home folder).
    pub(crate) path: TextField,
    /// The existing file the save would change, while the dialog asks what to do with
    /// it (`r` replace, `a` add, Esc back to the name).
    pub(crate) exists: Option<PathBuf>,
}

impl SavePrompt {
    /// The dialog on `path`, as text to edit.
    pub(crate) fn new(path: &Path) -> SavePrompt {
        SavePrompt {
            path: TextField::new(path.display().to_string(), PATH_MAX_CHARS),
            exists: None,
        }
    }

    /// Applies a key: typing edits the path (as every text field: Ctrl-U clears it, the
    /// side arrows move in it), Enter saves (or asks first about a file already there),
    /// Esc cancels; while it asks, `r` replaces the file, `a` adds to it, Esc goes back
    /// to the name.
    pub(crate) fn key(&mut self, key: &KeyEvent) -> Step {
        // Alt-r is not r: a file is replaced only by the key the question names.
        let code = crate::tui::keymap::plain_code(key);
        if let Some(existing) = &self.exists {
            return match code {
                KeyCode::Char('r' | 'R') => Step::Write(existing.clone(), Write::Replace),
                KeyCode::Char('a' | 'A') => Step::Write(existing.clone(), Write::Append),
                KeyCode::Esc => {
                    self.exists = None;
                    Step::Stay
                }
                _ => Step::Stay,
            };
        }
        match code {
            KeyCode::Esc => Step::Cancel,
            KeyCode::Enter => self.submit(),
            _ => {
                if let Some(action) = field_action(key) {
                    self.path.edit(&action);
                }
                Step::Stay
            }
        }
    }

    /// Enter: the file to write, or the question about the one there, or why not.
    fn submit(&mut self) -> Step {
        let typed = self.path.text.trim();
        if typed.is_empty() {
            return Step::Refused("Type the file's name first".to_string());
        }
        let path = crate::store::expand_home(&PathBuf::from(typed));
        let shown = crate::text::printable_path(&path);
        match std::fs::metadata(&path) {
            Ok(meta) if meta.is_dir() => {
                Step::Refused(format!("{shown} is a folder: type a file's name in it"))
            }
            Ok(_) => {
                self.exists = Some(path);
                Step::Stay
            }
            Err(_) => Step::Write(path, Write::New),
        }
    }
}
