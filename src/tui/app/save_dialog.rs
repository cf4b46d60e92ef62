//! The save dialog: the file to write and the players' names, edited in place; the
//! save itself is a [`SaveRequest`] that the event loop carries out, so
//! [`App::update`] stays free of I/O. When the file exists, the dialog asks whether to
//! append the game to it (as to a game database), replace it, or go back.

use super::{Action, App, Mode};
use crate::pdn::Players;
use crate::runtime::{Command, IfExists, SaveRequest};
use crate::store::{self, Appended, StoreError};
use crate::tui::field::{TextField, field_action};
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::path::PathBuf;

/// Longest text a save dialog field accepts (paths can be long; names are short).
const FIELD_MAX_CHARS: usize = 1024;

/// A field of the save dialog.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SaveField {
    /// The file to write.
    Path,
    /// Black's name.
    Black,
    /// White's name.
    White,
}

impl SaveField {
    /// The fields in the order Tab visits them.
    pub(crate) const ALL: [SaveField; 3] = [SaveField::Path, SaveField::Black, SaveField::White];

    fn index(self) -> usize {
        match self {
            SaveField::Path => 0,
            SaveField::Black => 1,
            SaveField::White => 2,
        }
    }

    /// The field after this one (wrapping round).
    pub(crate) fn next(self) -> SaveField {
        SaveField::ALL[(self.index() + 1) % 3]
    }

    /// The field before this one (wrapping round).
    pub(crate) fn previous(self) -> SaveField {
        SaveField::ALL[(self.index() + 2) % 3]
    }
}

/// The save dialog: where to write the game, and the players' names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SaveDialog {
    /// The file path, as typed.
    pub(crate) path: TextField,
    /// Black's name, as typed.
    pub(crate) black: TextField,
    /// White's name, as typed.
    pub(crate) white: TextField,
    /// The field being edited.
    pub(crate) focus: SaveField,
    /// The existing file the save would change, while the dialog asks what to do with
    /// it (`a` append, `r` replace, Esc back).
    pub(crate) exists: Option<PathBuf>,
    /// Opened from the game report: the game is saved annotated with it.
    pub(crate) annotated: bool,
}

impl SaveDialog {
    /// The field `field`.
    pub(crate) fn field(&self, field: SaveField) -> &TextField {
        match field {
            SaveField::Path => &self.path,
            SaveField::Black => &self.black,
            SaveField::White => &self.white,
        }
    }

    /// The field being edited.
    pub(super) fn focused_mut(&mut self) -> &mut TextField {
        match self.focus {
            SaveField::Path => &mut self.path,
            SaveField::Black => &mut self.black,
            SaveField::White => &mut self.white,
        }
    }

    /// Moves to `field`, with the text cursor at its end.
    pub(crate) fn focus_on(&mut self, field: SaveField) {
        self.focus = field;
        self.focused_mut().cursor_to_end();
    }
}

/// The keys while the dialog asks about an existing file: `a` append, `r` replace, Esc
/// back to the dialog.
pub(super) fn existing_file_action(key: &KeyEvent) -> Option<Action> {
    match crate::tui::keymap::plain_code(key) {
        KeyCode::Char('a' | 'A') => Some(Action::SaveExisting(IfExists::Append)),
        KeyCode::Char('r' | 'R') => Some(Action::SaveExisting(IfExists::Replace)),
        KeyCode::Esc => Some(Action::CancelSave),
        _ => None,
    }
}

/// The save dialog's keys: text editing (see [`field_action`]), Tab between fields,
/// Enter saves, Esc cancels.
pub(super) fn dialog_action(key: &KeyEvent) -> Option<Action> {
    let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
    match key.code {
        KeyCode::Enter => Some(Action::ConfirmSave),
        KeyCode::Char('s' | 'S') if ctrl => Some(Action::ConfirmSave),
        KeyCode::Esc => Some(Action::CancelSave),
        KeyCode::Tab | KeyCode::Down => Some(Action::NextField),
        KeyCode::BackTab | KeyCode::Up => Some(Action::PreviousField),
        _ => field_action(key),
    }
}

/// What the save dialog keeps between openings: the file the game was last saved to,
/// offered again.
#[derive(Clone, Debug, Default)]
pub(crate) struct SaveMemory {
    /// The file the game was last saved to.
    last_saved: Option<PathBuf>,
}

impl SaveMemory {
    /// The dialog with the record's `names`, on the file last saved to, or a new file
    /// in the data folder.
    fn dialog(&self, names: Players) -> SaveDialog {
        let path = self
            .last_saved
            .clone()
            .or_else(|| store::default_save_path(store::now_unix()))
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let mut dialog = SaveDialog {
            path: TextField::new(path, FIELD_MAX_CHARS),
            black: TextField::new(names.black.unwrap_or_default(), FIELD_MAX_CHARS),
            white: TextField::new(names.white.unwrap_or_default(), FIELD_MAX_CHARS),
            focus: SaveField::Path,
            exists: None,
            annotated: false,
        };
        dialog.focus_on(SaveField::Path);
        dialog
    }
}

impl SaveDialog {
    /// The save of the dialog's names to `path`, `existing` saying what to do with a
    /// file already there, the game annotated with `annotations` if given.
    fn request(
        &self,
        path: PathBuf,
        existing: IfExists,
        annotations: Option<Box<crate::report::Report>>,
    ) -> SaveRequest {
        let name = |text: &str| {
            let text = text.trim();
            (!text.is_empty()).then(|| text.to_string())
        };
        SaveRequest {
            path,
            players: Players {
                black: name(&self.black.text),
                white: name(&self.white.text),
            },
            existing,
            annotations,
        }
    }

    /// Carries out a field action: Tab and Shift-Tab, or an edit of the focused field.
    pub(super) fn edit(&mut self, action: Action) {
        match action {
            Action::NextField => self.focus_on(self.focus.next()),
            Action::PreviousField => self.focus_on(self.focus.previous()),
            _ => {
                self.focused_mut().edit(&action);
            }
        }
    }
}

impl App {
    /// Opens the save dialog with the record's names.
    pub(super) fn open_save(&mut self) {
        self.board.pick = None;
        self.mode = Mode::Save(self.saves.dialog(self.session().record_names()));
    }

    /// Opens the save dialog from the game report: the game is saved annotated with it.
    pub(super) fn open_annotated_save(&mut self) {
        let mut dialog = self.saves.dialog(self.session().record_names());
        dialog.annotated = true;
        self.mode = Mode::Save(dialog);
    }

    /// The report to annotate the dialog's save with: the report screen's, where the
    /// dialog was opened from it.
    fn dialog_annotations(&self) -> Option<Box<crate::report::Report>> {
        match &self.mode {
            Mode::Save(dialog) if dialog.annotated => self
                .report
                .as_ref()
                .map(|view| Box::new(view.report.clone())),
            _ => None,
        }
    }

    /// What the screen goes back to when the dialog closes: the report it was opened
    /// from, else the board.
    fn after_dialog(&self) -> Mode {
        match &self.mode {
            Mode::Save(dialog) if dialog.annotated && self.report.is_some() => Mode::Report,
            _ => Mode::Board,
        }
    }

    /// Enter in the dialog: asks the event loop to save with the dialog's path and names.
    pub(super) fn confirm_save(&mut self) {
        let Mode::Save(dialog) = &self.mode else {
            return;
        };
        let path = dialog.path.text.trim();
        if path.is_empty() {
            self.status.error("Type the file to save to");
            return;
        }
        let request = dialog.request(
            PathBuf::from(path),
            IfExists::Ask,
            self.dialog_annotations(),
        );
        let _ = self.runtime.command(Command::SaveAs(request));
    }

    /// `a` or `r` while the dialog asks about an existing file: saves to it as chosen.
    pub(super) fn save_existing(&mut self, choice: IfExists) {
        let annotations = self.dialog_annotations();
        let Mode::Save(dialog) = &mut self.mode else {
            return;
        };
        let Some(path) = dialog.exists.take() else {
            return;
        };
        let request = dialog.request(path, choice, annotations);
        let _ = self.runtime.command(Command::SaveAs(request));
    }

    /// Esc in the dialog: back to editing when it asks about an existing file (nothing
    /// written), else the dialog closes unsaved.
    pub(super) fn cancel_save(&mut self) {
        let after = self.after_dialog();
        let Mode::Save(dialog) = &mut self.mode else {
            return;
        };
        if dialog.exists.take().is_some() {
            self.status
                .info("Not saved: edit the path, or Esc again to close");
        } else {
            self.mode = after;
            self.status.info("Not saved");
        }
    }

    /// Reports that the file of the save asked for in `request` exists: nothing was
    /// written, and the dialog asks whether to append the game to it, replace it, or
    /// go back.
    pub(crate) fn save_would_replace(&mut self, request: SaveRequest) {
        let path = request.path.display().to_string();
        if let Mode::Save(dialog) = &mut self.mode {
            dialog.exists = Some(request.path);
        }
        self.status.error(format!(
            "{path} already exists: a adds this game at its end, r replaces the file, Esc goes back"
        ));
    }

    /// Reports how the save asked for in `request` went: on success the names entered
    /// are kept and the dialog closes; on failure the dialog stays open with the reason,
    /// and nothing else changes.
    pub(crate) fn save_finished(
        &mut self,
        request: SaveRequest,
        result: Result<Appended, StoreError>,
    ) {
        match result {
            Ok(how) => {
                if matches!(self.mode, Mode::Save(_)) {
                    self.mode = self.after_dialog();
                }
                let path = request.path.display().to_string();
                self.saves.last_saved = Some(request.path);
                self.status.info(match how {
                    Appended::Added => format!("Added the game at the end of {path}"),
                    Appended::Created => format!("Saved to {path}"),
                });
            }
            Err(e) => self.status.error(format!("Not saved: {e}")),
        }
    }
}
