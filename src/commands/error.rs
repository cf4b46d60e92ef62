//! What can go wrong in a command, and the one place that turns it into an exit code
//! and a message.

use super::pdn::CheckSummary;
use crate::engine::egdb::EgdbError;
use crate::rules::Outcome;
use crate::store::StoreError;
use std::fmt;
use std::io;
use std::path::PathBuf;

/// A command that could not be carried out, or (for `pdn check`) a verdict that is not
/// a success. [`exit`] says how each one ends the program.
#[derive(Debug)]
pub(crate) enum CommandError {
    /// An option of the interactive game (or of `analyse`) cannot be used: the `--load`
    /// file or the autosave cannot be read or replayed. Found before the screen changes.
    GameOption(StoreError),
    /// `--explore-pdn` names a file whose games the analysis board's explorer cannot
    /// show: it cannot be read, or holds no game. Found before the screen changes.
    ExploreFile(StoreError),
    /// `--ballot` names a ballot that cannot be played (a barred one without `--barred`).
    Ballot(crate::session::BallotError),
    /// `--save` names a file a match's games cannot be written to (checked before the
    /// screen changes).
    SaveFile(StoreError),
    /// The interactive game's terminal, or plain mode's input or output, failed.
    Terminal(io::Error),
    /// Plain mode ended with the game not saved (the autosave failed, and a last try
    /// too): why.
    NotSaved(std::sync::Arc<StoreError>),
    /// The full screen was left with Ctrl-C (a key in raw mode, not a signal): the
    /// program ends as an interrupt does, the game kept as on quitting, or why not.
    Interrupted(Option<std::sync::Arc<StoreError>>),
    /// Standard output could not be written.
    Output(io::Error),
    /// Standard input could not be read.
    Input(io::Error),
    /// The position given is already decided: the side to move has no legal move.
    GameOver(Outcome),
    /// `pdn check`: the file cannot be read (or is not a regular file).
    CheckFile(StoreError),
    /// `pdn check`: the report could not be written to standard output.
    CheckOutput(io::Error),
    /// `pdn extract` or `pdn merge`: the new file was not written (it exists, cannot
    /// be written, or a file read failed midway): why, naming the files.
    PdnOutput(String),
    /// `pdn check`: some games do not replay (each is reported on standard output).
    FaultyGames(CheckSummary),
    /// An endgame database cannot be built, read or written (the error names the file).
    Egdb(EgdbError),
    /// `egdb --dir` names no folder that can hold the databases (why, in words).
    EgdbFolder(String),
    /// No data folder (no home directory) and no `--dir` given.
    NoDataFolder,
    /// `egdb verify`: this many slices fail their check (each is reported on standard
    /// output).
    EgdbFaults(usize),
    /// `egdb probe` or `book show`: the position is not in the loaded databases or the
    /// book.
    NotFound(String),
    /// A game across the network cannot begin: `host` cannot listen, `join` or `watch`
    /// cannot reach the host or is refused, or an option does not apply (why, in words).
    Network(String),
    /// A pinned server presents another certificate: the warning in full (both
    /// fingerprints lined up, what to do), and in short for the home screen's message
    /// box, which must hold it whole at 80x24.
    CertificateChanged {
        /// The warning as `checkers online` prints it.
        warning: String,
        /// The same in short: what happened, the new fingerprint, what to do.
        short: String,
    },
    /// `explore --moves`: a move that cannot be played (which, and why).
    BadMove(String),
    /// `puzzle --number`: there is no such puzzle (why, in plain mode's words).
    NoSuchPuzzle(String),
    /// `puzzle FILE`: the file cannot be read, or holds no puzzle that can be used
    /// (why, each puzzle's fault among it).
    PuzzleFile(String),
    /// `puzzle FILE --check`: this many puzzles of the file are wrong or cannot be
    /// played (each is reported on standard output).
    WrongPuzzles(usize),
    /// `manpage --dir`: a page (or the folder) cannot be written: which, and why.
    ManualFile(PathBuf, io::Error),
    /// `manpage --dir` names something that is not a folder (why, in words).
    ManualFolder(String),
    /// `analyse --report --out`: the annotated PDN cannot be written there (the file
    /// exists, or cannot be created): which, and why.
    ReportFile(PathBuf, String),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::GameOption(e) => write!(f, "{e}"),
            CommandError::Network(why) => write!(f, "{why}"),
            CommandError::CertificateChanged { warning, .. } => write!(f, "{warning}"),
            CommandError::Ballot(e) => write!(f, "--ballot: {e}"),
            CommandError::SaveFile(e) => write!(f, "--save: {e}"),
            CommandError::ExploreFile(e) => write!(f, "--explore-pdn: {e}"),
            CommandError::Terminal(e) => write!(f, "{e}"),
            CommandError::NotSaved(why) | CommandError::Interrupted(Some(why)) => {
                write!(f, "the game is not saved: {why}")
            }
            CommandError::Interrupted(None) => write!(f, "interrupted"),
            CommandError::Output(e) | CommandError::CheckOutput(e) => {
                write!(f, "cannot write the output: {e}")
            }
            CommandError::Input(e) => write!(f, "cannot read the input: {e}"),
            CommandError::GameOver(outcome) => {
                write!(f, "the game is over, there is no move to find: {outcome}")
            }
            CommandError::CheckFile(e) => write!(f, "{e}"),
            CommandError::Egdb(e) => write!(f, "{e}"),
            CommandError::NoDataFolder => write!(
                f,
                "no data folder (no home directory was found): give the database folder with --dir"
            ),
            CommandError::WrongPuzzles(n) => write!(
                f,
                "{n} puzzle{} of the file do{} not hold",
                if *n == 1 { "" } else { "s" },
                if *n == 1 { "es" } else { "" }
            ),
            CommandError::EgdbFaults(n) => write!(
                f,
                "{n} slice{} of the endgame database fail their check",
                if *n == 1 { "" } else { "s" }
            ),
            CommandError::NotFound(why)
            | CommandError::BadMove(why)
            | CommandError::NoSuchPuzzle(why)
            | CommandError::PuzzleFile(why)
            | CommandError::EgdbFolder(why)
            | CommandError::ManualFolder(why)
            | CommandError::PdnOutput(why) => write!(f, "{why}"),
            CommandError::ReportFile(path, why) => write!(f, "--out {}: {why}", path.display()),
            CommandError::ManualFile(path, e) => {
                write!(f, "cannot write the manual page {}: {e}", path.display())
            }
            CommandError::FaultyGames(summary) => write!(
                f,
                "{} of {} games do not replay",
                summary.games - summary.replayed,
                summary.games
            ),
        }
    }
}

/// Every message shows the error it wraps, so none is a source as well.
impl std::error::Error for CommandError {}

/// A failed write to standard output.
impl From<io::Error> for CommandError {
    fn from(e: io::Error) -> CommandError {
        CommandError::Output(e)
    }
}

/// Plain mode's input could not be read, or its output not written.
impl From<crate::plain::Failure> for CommandError {
    fn from(e: crate::plain::Failure) -> CommandError {
        match e {
            crate::plain::Failure::Input(e) => CommandError::Input(e),
            crate::plain::Failure::Output(e) => CommandError::Output(e),
        }
    }
}

/// An endgame database that cannot be used.
impl From<EgdbError> for CommandError {
    fn from(e: EgdbError) -> CommandError {
        CommandError::Egdb(e)
    }
}

/// A game option that cannot be used.
impl From<StoreError> for CommandError {
    fn from(e: StoreError) -> CommandError {
        CommandError::GameOption(e)
    }
}

/// How a command ends the program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Exit {
    /// The exit code.
    pub(crate) code: u8,
    /// The line to print on standard error (`checkers: ...`), if any.
    pub(crate) message: Option<String>,
}

/// The exit status of a program ended by an interrupt: 128 + SIGINT's number (2), as
/// shells expect of Ctrl-C.
const INTERRUPTED: u8 = 130;

/// The longest line of an error message shown: a file name of thousands of characters
/// is cut.
const MESSAGE_LINE_CHARS: usize = 8192;

/// How the result of a command ends the program; the one place exit codes are decided.
///
/// - success: 0;
/// - `pdn check`: 1 when some game does not replay (the report on standard output says
///   which; nothing on standard error), 2 when the file cannot be read or the report
///   cannot be written, 1 with no message when standard output is closed (the check is
///   incomplete);
/// - a game option that cannot be used (`--load` of a missing file, no unfinished game
///   to `--resume`, a barred `--ballot`, a `--save` file that cannot take the games): 2;
/// - plain mode ending with the game not saved (the autosave failed): 1;
/// - the full screen left with Ctrl-C: 130, as an interrupt ends plain mode (128 +
///   SIGINT), with no message, or the one that says the game is not saved;
/// - standard output closed (`checkers moves | head -1`), by a command or by plain
///   mode: 0 with no message;
/// - any other error: 1.
///
/// Every message is `checkers: ` and the error, made printable (it may quote a file
/// name, a line of a file or an argument).
pub(crate) fn exit(result: &Result<(), CommandError>) -> Exit {
    let Err(error) = result else {
        return Exit {
            code: 0,
            message: None,
        };
    };
    let closed = |e: &io::Error| e.kind() == io::ErrorKind::BrokenPipe;
    let (code, silent) = match error {
        CommandError::FaultyGames(_) => (1, true),
        CommandError::CheckOutput(e) if closed(e) => (1, true),
        CommandError::CheckOutput(_) | CommandError::CheckFile(..) => (2, false),
        CommandError::GameOption(_)
        | CommandError::ExploreFile(_)
        | CommandError::Ballot(_)
        | CommandError::SaveFile(_)
        | CommandError::BadMove(_)
        | CommandError::NoSuchPuzzle(_)
        | CommandError::PuzzleFile(_)
        | CommandError::EgdbFolder(_)
        | CommandError::ManualFolder(_)
        | CommandError::ReportFile(..)
        | CommandError::PdnOutput(_) => (2, false),
        CommandError::Output(e) | CommandError::Terminal(e) if closed(e) => (0, true),
        CommandError::Interrupted(unsaved) => (INTERRUPTED, unsaved.is_none()),
        CommandError::Output(_)
        | CommandError::Input(_)
        | CommandError::Terminal(_)
        | CommandError::NotSaved(_)
        | CommandError::GameOver(_)
        | CommandError::Egdb(_)
        | CommandError::NoDataFolder
        | CommandError::EgdbFaults(_)
        | CommandError::WrongPuzzles(_)
        | CommandError::NotFound(_)
        | CommandError::Network(_)
        | CommandError::CertificateChanged { .. }
        | CommandError::ManualFile(..) => (1, false),
    };
    Exit {
        code,
        message: (!silent).then(|| {
            crate::text::printable_lines(&format!("checkers: {error}"), MESSAGE_LINE_CHARS)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::error::Error;

    fn exit_of(error: CommandError) -> (u8, Option<String>) {
        let Exit { code, message } = exit(&Err(error));
        (code, message)
    }

    fn pipe() -> io::Error {
        io::Error::from(io::ErrorKind::BrokenPipe)
    }

    fn missing() -> io::Error {
        io::Error::from(io::ErrorKind::NotFound)
    }

    #[test]
    fn success_is_zero_and_silent() {
        let exit = exit(&Ok(()));
        assert_eq!((exit.code, exit.message), (0, None));
    }

    #[test]
    fn a_closed_output_is_silent() {
        assert_eq!(exit_of(CommandError::Output(pipe())), (0, None));
        assert_eq!(exit_of(CommandError::Terminal(pipe())), (0, None));
        // pdn check did not finish its check.
        assert_eq!(exit_of(CommandError::CheckOutput(pipe())), (1, None));
    }

    #[test]
    fn pdn_check_exits_one_for_a_faulty_game_and_two_for_an_unreadable_file() {
        let summary = CheckSummary {
            games: 3,
            replayed: 2,
        };
        assert_eq!(exit_of(CommandError::FaultyGames(summary)), (1, None));
        let (code, message) = exit_of(CommandError::CheckFile(StoreError::Read(
            "a.pdn".into(),
            missing(),
        )));
        assert_eq!(code, 2);
        assert!(
            message
                .unwrap()
                .starts_with("checkers: cannot read a.pdn: ")
        );
        let (code, _) = exit_of(CommandError::CheckOutput(missing()));
        assert_eq!(code, 2);
    }

    #[test]
    fn ctrl_c_on_the_full_screen_exits_130_as_an_interrupt_does() {
        assert_eq!(exit_of(CommandError::Interrupted(None)), (130, None));
        let why = std::sync::Arc::new(StoreError::NoGames("game.pdn".into()));
        let (code, message) = exit_of(CommandError::Interrupted(Some(why)));
        assert_eq!(code, 130);
        assert_eq!(
            message.as_deref(),
            Some("checkers: the game is not saved: game.pdn holds no PDN game")
        );
    }

    #[test]
    fn a_bad_game_option_exits_two_and_others_one() {
        let e = CommandError::GameOption(StoreError::NoGames("empty.pdn".into()));
        assert_eq!(
            exit_of(e),
            (2, Some("checkers: empty.pdn holds no PDN game".to_string()))
        );
        assert_eq!(exit_of(CommandError::Output(missing())).0, 1);
        assert_eq!(exit_of(CommandError::Terminal(missing())).0, 1);
        assert_eq!(exit_of(CommandError::NoDataFolder).0, 1);
    }

    #[test]
    fn the_wrapped_error_is_said_once_in_the_message_and_is_no_source() {
        let e = CommandError::from(StoreError::NoGames("empty.pdn".into()));
        assert!(matches!(e, CommandError::GameOption(_)));
        assert_eq!(e.to_string(), "empty.pdn holds no PDN game");
        assert!(e.source().is_none());
        assert_eq!(crate::text::error_chain(&e), e.to_string(), "said once");
        let e = CommandError::from(pipe());
        assert!(
            matches!(&e, CommandError::Output(inner) if inner.kind() == io::ErrorKind::BrokenPipe)
        );
        assert!(
            e.to_string().starts_with("cannot write the output: "),
            "{e}"
        );
        assert!(e.source().is_none());
        // A plain session's failed read is the input's, not the output's.
        let e = CommandError::from(crate::plain::Failure::Input(pipe()));
        assert!(e.to_string().starts_with("cannot read the input: "), "{e}");
    }
}
