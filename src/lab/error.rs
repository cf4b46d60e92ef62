//! What can go wrong in the lab's commands, and how each ends `checkers-lab`.

use crate::commands::CommandError;
use crate::engine::OpeningsError;
use crate::engine::egdb::EgdbError;
use crate::store::StoreError;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// A lab command that could not be carried out.
#[derive(Debug)]
pub(crate) enum LabError {
    /// What the player's program can say too (output, databases, game options).
    Command(CommandError),
    /// The openings file given with `--openings` cannot be read.
    OpeningsFile(PathBuf, io::Error),
    /// A deck of openings (named) has a line that cannot be used.
    Openings(String, OpeningsError),
    /// Every opening of the deck (named) is barred.
    NoOpenings(String),
    /// A file given with an option (`--out`, `--data`, `--pdn`, `--from`, ...) cannot be
    /// read or written: the option, the file and why (with the line, for a faulty
    /// line), so that a message says which of a command's files is at fault.
    DataFile(&'static str, PathBuf, String),
    /// `train`: the files given hold no training position (or none were given).
    NoTrainingData,
    /// `match --against`: the program cannot play (missing, failing, no move), found
    /// before the first game.
    Opponent(String),
    /// No data folder (no home directory) for the endgame databases.
    NoDataFolder,
    /// `puzzles --check`: this many built-in puzzles failed their proof.
    PuzzlesFailed(usize),
    /// Ctrl-C (or SIGTERM) stopped the command: what was kept and how to go on.
    Interrupted(String),
}

impl fmt::Display for LabError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LabError::Command(e) => write!(f, "{e}"),
            LabError::OpeningsFile(path, e) => {
                write!(f, "--openings {}: {}", path.display(), io_why(e))
            }
            LabError::Openings(source, e) => write!(f, "{source}: {e}"),
            LabError::NoOpenings(source) => write!(f, "{source}: no opening that is not barred"),
            LabError::DataFile(option, path, why) => {
                write!(f, "{option} {}: {why}", path.display())
            }
            LabError::NoTrainingData => write!(
                f,
                "no training positions: give --data files made by checkers-lab selfplay, or \
                 --pdn files of games with results"
            ),
            LabError::Opponent(why) => write!(f, "--against: {why}"),
            LabError::NoDataFolder => write!(
                f,
                "no data folder (no home directory was found) for the endgame databases"
            ),
            LabError::PuzzlesFailed(n) => write!(
                f,
                "{n} of the built-in puzzles failed their proof (marked FAILED above)"
            ),
            LabError::Interrupted(kept) => write!(f, "interrupted: {kept}"),
        }
    }
}

/// Why a file cannot be used, in words: "no such file" rather than the system's "No
/// such file or directory (os error 2)", as the option and the file are named before it.
pub(crate) fn io_why(e: &io::Error) -> String {
    match e.kind() {
        io::ErrorKind::NotFound => "no such file".to_string(),
        io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string(),
    }
}

/// Why the PDN file `path` cannot be read or written, without the file's name that the store's
/// messages start with (the option and the file are named before it).
pub(crate) fn store_why(path: &std::path::Path, e: &StoreError) -> String {
    if let StoreError::Read(_, io) | StoreError::Write(_, io) = e {
        return io_why(io);
    }
    let said = e.to_string();
    let name = path.display().to_string();
    match said.strip_prefix(&name) {
        Some(rest) if rest.starts_with(": ") => rest[2..].to_string(),
        Some(rest) if rest.starts_with(' ') => format!("it{rest}"),
        _ => said,
    }
}

/// Every message shows the error it wraps, so none is a source as well.
impl std::error::Error for LabError {}

impl From<CommandError> for LabError {
    fn from(e: CommandError) -> LabError {
        LabError::Command(e)
    }
}

/// A failed write to standard output.
impl From<io::Error> for LabError {
    fn from(e: io::Error) -> LabError {
        LabError::Command(CommandError::Output(e))
    }
}

/// An endgame database that cannot be used.
impl From<EgdbError> for LabError {
    fn from(e: EgdbError) -> LabError {
        LabError::Command(CommandError::Egdb(e))
    }
}

/// How the result of a lab command ends the program: 0 on success, as the player's
/// program for what it can say too (a closed standard output is silent), 130 when
/// interrupted (128 + SIGINT, as shells expect), 1 otherwise;
/// every message is `checkers-lab: ` and the error.
pub(crate) fn exit(result: &Result<(), LabError>) -> crate::commands::Exit {
    match result {
        Ok(()) => crate::commands::exit(&Ok(())),
        Err(LabError::Command(e)) => {
            let mut exit = crate::commands::exit(&Err(clone_command(e)));
            exit.message = exit
                .message
                .map(|m| m.replacen("checkers: ", "checkers-lab: ", 1));
            exit
        }
        Err(e) => crate::commands::Exit {
            code: match e {
                LabError::Interrupted(_) => super::interrupt::INTERRUPTED_STATUS,
                _ => 1,
            },
            message: Some(crate::text::printable_lines(
                &format!("checkers-lab: {e}"),
                8192,
            )),
        },
    }
}

/// The product's error for its exit code and message (the code depends on its kind
/// only, so an output failure is rebuilt from its kind).
fn clone_command(e: &CommandError) -> CommandError {
    match e {
        CommandError::Output(io) => CommandError::Output(io::Error::from(io.kind())),
        other => CommandError::NotFound(other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lab_errors_exit_one_with_the_labs_name_and_a_closed_output_is_silent() {
        let e = LabError::OpeningsFile("deck".into(), io::Error::from(io::ErrorKind::NotFound));
        let exit = exit(&Err(e));
        assert_eq!(exit.code, 1);
        let message = exit.message.unwrap();
        assert!(
            message.starts_with("checkers-lab: --openings deck: no such file"),
            "{message}"
        );
        let interrupted = super::exit(&Err(LabError::Interrupted("kept".into())));
        assert_eq!(interrupted.code, 130);
        assert_eq!(
            interrupted.message.as_deref(),
            Some("checkers-lab: interrupted: kept")
        );
        let closed = LabError::from(io::Error::from(io::ErrorKind::BrokenPipe));
        let exit = super::exit(&Err(closed));
        assert_eq!((exit.code, exit.message), (0, None));
    }
}
