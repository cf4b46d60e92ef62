//! `checkers manpage`: the manual page, to standard output, or with `--dir` a page for
//! the program and one for each command (`checkers-host.1`, `checkers-egdb-build.1`,
//! ...) into a folder, so that `man checkers` can lead to every page it names.

use super::CommandError;
use crate::cli::Cli;
use clap::CommandFactory;
use std::io::Write;
use std::path::{Path, PathBuf};

/// The section the pages belong to (user commands).
const SECTION: &str = "1";

/// The `.TH` source field: the program and its version number, without the words about
/// the build that `--version` adds (they hold quotes, which a `.TH` argument cannot).
fn source() -> String {
    format!("checkers {}", env!("CARGO_PKG_VERSION"))
}

/// The command line's definition as the pages show it: no `help` command (it has no
/// page; `--help` is on every page's options).
fn command() -> clap::Command {
    let mut command = Cli::command().disable_help_subcommand(true);
    command.build();
    command
}

/// `text` made safe as a line of roff text: backslashes and hyphens escaped, and a
/// leading `.` or `'` kept from reading as a request.
fn roff_text(text: &str) -> String {
    let escaped = text.replace('\\', "\\e").replace('-', "\\-");
    if escaped.starts_with(['.', '\'']) {
        format!("\\&{escaped}")
    } else {
        escaped
    }
}

/// Writes the program's page to `out`. Its commands are named as they are typed
/// (`checkers host`), since no page of theirs goes with it; the last lines say how to
/// get those pages.
pub(crate) fn write_page(out: &mut impl Write) -> Result<(), CommandError> {
    let command = command();
    let man = clap_mangen::Man::new(command.clone()).source(source());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    writeln!(page, ".SH COMMANDS")?;
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        writeln!(page, ".TP")?;
        writeln!(page, "\\fBcheckers {}\\fR", roff_text(sub.get_name()))?;
        if let Some(about) = sub.get_about() {
            for line in about.to_string().lines() {
                writeln!(page, "{}", roff_text(line))?;
            }
        }
    }
    writeln!(page, ".PP")?;
    writeln!(
        page,
        "{}",
        roff_text(
            "Each command's options: checkers COMMAND --help, or its own page, which \
             checkers manpage --dir DIR writes with this one (checkers-host.1, ...)."
        )
    )?;
    man.render_version_section(&mut page)?;
    out.write_all(&page)?;
    Ok(())
}

/// Writes `checkers.1` and a page for every command, and every command of a command
/// (`checkers-egdb-build.1`), into `dir` (made if missing, with the folders above it),
/// each referring only to pages written with it. The files written, the program's first.
pub(crate) fn write_pages(dir: &Path) -> Result<Vec<PathBuf>, CommandError> {
    // A file (or FIFO) where the folder should be is a usage error said in words, not
    // "File exists (os error 17)" from making the folder.
    if let Ok(meta) = std::fs::metadata(dir)
        && !meta.is_dir()
    {
        let kind = match meta.is_file() {
            true => "a file",
            false => crate::store::files::kind_of(meta.file_type()),
        };
        return Err(CommandError::ManualFolder(format!(
            "--dir {} is {kind}, not a folder",
            crate::text::printable_path(dir)
        )));
    }
    std::fs::create_dir_all(dir).map_err(|e| CommandError::ManualFile(dir.to_path_buf(), e))?;
    let mut written = Vec::new();
    let mut pending = vec![command()];
    while let Some(command) = pending.pop() {
        let man = clap_mangen::Man::new(command.clone())
            .source(source())
            .section(SECTION);
        let path = dir.join(man.get_filename());
        let mut page = Vec::new();
        man.render(&mut page)?;
        crate::store::files::write_atomic(&path, &page)
            .map_err(|e| CommandError::ManualFile(path.clone(), e))?;
        written.push(path);
        let mut subs: Vec<clap::Command> = command
            .get_subcommands()
            .filter(|s| !s.is_hide_set())
            .cloned()
            .collect();
        subs.reverse();
        pending.extend(subs);
    }
    Ok(written)
}

/// The highest folder of `dir`'s path that is not there (`dir` itself, or one above
/// it), which making `dir` makes; `None` when `dir` is there.
fn highest_missing(dir: &Path) -> Option<PathBuf> {
    let mut missing = None;
    let mut at = Some(dir);
    while let Some(path) = at {
        if path.as_os_str().is_empty() || std::fs::symlink_metadata(path).is_ok() {
            break;
        }
        missing = Some(path.to_path_buf());
        at = path.parent();
    }
    missing
}

/// Runs `checkers manpage`: the page to `out`, or with `dir` every page into that
/// folder and a line naming each file written.
pub(crate) fn run(dir: Option<&Path>, out: &mut impl Write) -> Result<(), CommandError> {
    match dir {
        None => write_page(out),
        Some(dir) => {
            // A mistyped path (`~/.local/shrae/man/man1`) is made, as the documented
            // `~/.local/share/man/man1` must be on a fresh account, but never quietly:
            // a line on standard error names the highest folder that was not there
            // (standard output stays the list of pages written).
            let made = highest_missing(dir);
            let written = write_pages(dir)?;
            if let Some(made) = made {
                eprintln!(
                    "checkers: made the folder {} (it was not there)",
                    crate::text::printable(
                        &made.display().to_string(),
                        crate::text::MAX_PATH_CHARS
                    )
                );
            }
            for path in written {
                writeln!(
                    out,
                    "{}",
                    crate::text::printable(
                        &path.display().to_string(),
                        crate::text::MAX_PATH_CHARS
                    )
                )?;
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_file_given_as_the_folder_is_a_usage_error_that_says_so() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("pages");
        std::fs::write(&file, "kept").unwrap();
        let error = write_pages(&file).unwrap_err();
        let exit = crate::commands::exit(&Err(error));
        assert_eq!(exit.code, 2);
        let said = exit.message.unwrap();
        assert!(said.contains("--dir "), "{said}");
        assert!(said.ends_with(" is a file, not a folder"), "{said}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "kept");
    }
}
