//! `checkers puzzle FILE --check`: a teacher finds out whether the solutions of a puzzle
//! file hold before the pupils meet them. Each puzzle is checked in turn (see
//! [`crate::puzzles::check`]), a line of words for each; a progress bar on standard
//! error where that is a terminal; Ctrl-C stops it, the puzzles checked so far told.

use super::CommandError;
use crate::engine::egdb::Egdb;
use crate::engine::{Limits, StopFlag};
use crate::puzzles::Judge;
use crate::puzzles::check::{Finding, check};
use crate::puzzles::file::PuzzleFile;
use std::io::Write;
use std::path::Path;
use std::sync::Arc;

/// What the check of a file came to: how many puzzles hold, are not proven either way,
/// are wrong, and were left out of the file (their moves cannot be played).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Puzzles whose every move is proven to keep the goal.
    pub(crate) holding: usize,
    /// Puzzles with nothing proven against them, not all proven either.
    pub(crate) unproven: usize,
    /// Puzzles proven wrong.
    pub(crate) wrong: usize,
    /// Puzzles left out of the file.
    pub(crate) left_out: usize,
}

impl Tally {
    /// The puzzles checked (and left out).
    fn checked(&self) -> usize {
        self.holding + self.unproven + self.wrong + self.left_out
    }
}

/// Runs `checkers puzzle FILE --check`, each position searched for `movetime_ms` where
/// the databases do not hold it: the findings on standard output, then a summary; an
/// error when a puzzle is wrong, or the check is interrupted.
pub(crate) fn run(path: &Path, movetime_ms: u64) -> Result<(), CommandError> {
    let read = crate::puzzles::file::read(path).map_err(CommandError::PuzzleFile)?;
    let (db, notices) = super::play::open_databases();
    for notice in &notices {
        eprintln!("checkers: {}", crate::text::printable(notice, 600));
    }
    let stop = StopFlag::new();
    watch_interrupts(&stop);
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        super::progress_bar(
            read.puzzles.len() as u64,
            "checking puzzles [{bar:40}] {pos}/{len} ({elapsed})",
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let judge = crate::puzzles::judge(db.clone());
    let judge = Judge::new(judge.egdb, Limits::movetime_ms(movetime_ms)).with_stop(stop.clone());
    let out = &mut AboveBar {
        bar: &bar,
        out: std::io::stdout().lock(),
    };
    let shown = crate::text::printable_path(path);
    let heading = heading(&read, &shown, movetime_ms, db.as_ref());
    writeln!(out, "{heading}").map_err(CommandError::Output)?;
    let tally = check_file(&read, &judge, &stop, || bar.inc(1), out);
    bar.finish_and_clear();
    let tally = tally.map_err(CommandError::Output)?;
    if stop.is_stopped() {
        return Err(CommandError::Interrupted(None));
    }
    match tally.wrong + tally.left_out {
        0 => Ok(()),
        wrong => Err(CommandError::WrongPuzzles(wrong)),
    }
}

/// Standard output written above the progress bar on standard error: the bar is taken
/// off the terminal for each write and drawn again under it, so that the lines and the
/// bar do not run into each other.
struct AboveBar<'a, W: Write> {
    /// The bar.
    bar: &'a indicatif::ProgressBar,
    /// Where the lines go.
    out: W,
}

impl<W: Write> Write for AboveBar<'_, W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let out = &mut self.out;
        self.bar.suspend(|| out.write(buf))
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let out = &mut self.out;
        self.bar.suspend(|| out.flush())
    }
}

/// The first line: what is checked, and how.
fn heading(read: &PuzzleFile, shown: &str, movetime_ms: u64, db: Option<&Arc<Egdb>>) -> String {
    let count = read.puzzles.len();
    let held = db.filter(|db| db.slices() > 0).map_or_else(
        || "no endgame databases".to_string(),
        |db| format!("endgame databases of up to {} pieces", db.complete_pieces()),
    );
    format!(
        "checking {count} puzzle{} of {shown}: each move searched for {movetime_ms} ms; {held}",
        if count == 1 { "" } else { "s" },
    )
}

/// Checks every puzzle of `read` with `judge`, a line on `out` for each (those left
/// out of the file first), `each` called after each puzzle, then the summary; stops
/// before the next puzzle once `stop` is raised (the one in progress not told).
pub(crate) fn check_file(
    read: &PuzzleFile,
    judge: &Judge,
    stop: &StopFlag,
    mut each: impl FnMut(),
    out: &mut impl Write,
) -> std::io::Result<Tally> {
    let mut tally = Tally::default();
    let mut faults = Vec::new();
    // Without databases a long ending (First Position) is beyond the search's time:
    // the verdict says what would prove it.
    let unproven = match &judge.egdb {
        Some(db) if db.slices() > 0 => "not proven in the time",
        _ => {
            "not proven in the time (no endgame databases: `checkers egdb build` builds \
             those that prove such endings)"
        }
    };
    for why in &read.left_out {
        writeln!(out, "{why}")?;
        tally.left_out += 1;
    }
    for (puzzle, number) in read.puzzles.iter().zip(&read.numbers) {
        if stop.is_stopped() {
            break;
        }
        let finding = check(puzzle, judge);
        // A search cut short by the interrupt proves nothing.
        if stop.is_stopped() {
            break;
        }
        let named = format!("puzzle {number} ({})", puzzle.title);
        let line = match finding {
            Finding::Holds => {
                tally.holding += 1;
                format!("{named}: the solution holds: {}", puzzle.solution_text())
            }
            Finding::Unproven(words) => {
                tally.unproven += 1;
                format!("{named}: {unproven}, nothing found against it: {words}")
            }
            Finding::Wrong(wrong) => {
                tally.wrong += 1;
                faults.push(number.to_string());
                format!("{named}: WRONG: {}", wrong.sentence(puzzle.goal))
            }
        };
        writeln!(out, "{line}")?;
        each();
    }
    let total = read.puzzles.len() + read.left_out.len();
    if stop.is_stopped() {
        writeln!(
            out,
            "interrupted: {} of {total} puzzles checked, the one in progress left out",
            tally.checked()
        )?;
    }
    let wrong = if faults.is_empty() {
        String::new()
    } else {
        let puzzles = if faults.len() == 1 {
            "puzzle"
        } else {
            "puzzles"
        };
        format!(" ({puzzles} {})", faults.join(", "))
    };
    let left_out = match tally.left_out {
        0 => String::new(),
        n => format!(", {n} left out"),
    };
    writeln!(
        out,
        "{} puzzle{}: {} hold, {} not proven, {} wrong{wrong}{left_out}",
        tally.checked(),
        if tally.checked() == 1 { "" } else { "s" },
        tally.holding,
        tally.unproven,
        tally.wrong,
    )?;
    Ok(tally)
}

/// Makes the first Ctrl-C (or SIGTERM, SIGHUP) raise `stop`, which ends the search in
/// progress and the check with what it found; a second ends the process at once.
fn watch_interrupts(stop: &StopFlag) {
    #[cfg(unix)]
    {
        use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
        let flag = stop.clone();
        let _ = crate::signals::watch(&[SIGINT, SIGTERM, SIGHUP], move |signal| {
            if flag.is_stopped() {
                std::process::exit(crate::signals::exit_status(signal));
            }
            flag.stop();
        });
    }
    #[cfg(not(unix))]
    let _ = stop;
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A teacher's file: a draw held, the same draw with a first move that loses, a win
    /// whose first move loses at once, and a game whose solution cannot be played.
    const LESSON: &str = "[Event \"Hold the draw\"]\n[FEN \"B:WK19,K23:BK28,12\"]\n\
        [Result \"1/2-1/2\"]\n1. 28-32 19-15 2. 12-16 1/2-1/2\n\n\
        [Event \"Wrong key\"]\n[FEN \"B:WK19,K23:BK28,12\"]\n[Result \"1/2-1/2\"]\n\
        1. 28-24 1/2-1/2\n\n\
        [Event \"Broken\"]\n[FEN \"B:WK19,K23:BK28,12\"]\n[Result \"1/2-1/2\"]\n\
        1. 12-17 1/2-1/2\n\n\
        [Event \"Gives it away\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n[Result \"1-0\"]\n\
        1. 19-24 1-0\n";

    /// The check of [`LESSON`], the engine searching to a fixed depth (so it repeats
    /// exactly), `stop` raised or not: what it wrote, and its tally.
    fn checked(stop: &StopFlag) -> (String, Tally) {
        let read = crate::puzzles::file::from_text(LESSON, "lesson.pdn");
        let judge = Judge::new(None, Limits::depth(10)).with_stop(stop.clone());
        let mut out = Vec::new();
        let mut told = 0;
        let tally = check_file(&read, &judge, stop, || told += 1, &mut out).unwrap();
        assert_eq!(told, tally.holding + tally.unproven + tally.wrong);
        (String::from_utf8(out).unwrap(), tally)
    }

    #[test]
    fn a_wrong_solution_is_named_with_its_number_and_the_move_found_instead() {
        let (out, tally) = checked(&StopFlag::new());
        let lines: Vec<&str> = out.lines().collect();
        assert!(
            lines[0].starts_with("puzzle 3 left out: game 3 (\"Broken\")"),
            "{out}"
        );
        assert_eq!(
            lines[1], "puzzle 1 (Hold the draw): the solution holds: 28-32 19-15 12-16",
            "{out}"
        );
        assert!(
            lines[2].starts_with(
                "puzzle 2 (Wrong key): WRONG: its move 1, 28-24, does not keep the draw: \
                 after it White wins (the engine: White wins in "
            ),
            "{out}"
        );
        assert!(
            lines[2].contains("a different move is needed: 28-32, which keeps it"),
            "{out}"
        );
        assert!(
            lines[3].starts_with(
                "puzzle 4 (Gives it away): WRONG: its move 1, 19-24, does not keep the win: \
                 after it Black wins (the engine: Black wins in 1 move)"
            ),
            "{out}"
        );
        assert_eq!(
            lines[4], "4 puzzles: 1 hold, 0 not proven, 2 wrong (puzzles 2, 4), 1 left out",
            "{out}"
        );
        assert_eq!(
            tally,
            Tally {
                holding: 1,
                unproven: 0,
                wrong: 2,
                left_out: 1,
            }
        );
    }

    /// Without databases, a long win the search does not prove in its time says what
    /// would prove it (the verdict said only "not proven in the time").
    #[test]
    fn an_unproven_verdict_without_databases_names_the_command_that_builds_them() {
        let text = "[Event \"First Position\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n\
            [Result \"0-1\"]\n1. 23-27 28-32 2. 19-23 32-28 3. 27-32 28-24 4. 23-18 0-1\n";
        let read = crate::puzzles::file::from_text(text, "first.pdn");
        let stop = StopFlag::new();
        let judge = Judge::new(None, Limits::depth(4)).with_stop(stop.clone());
        let mut out = Vec::new();
        let tally = check_file(&read, &judge, &stop, || {}, &mut out).unwrap();
        let out = String::from_utf8(out).unwrap();
        assert_eq!(tally.unproven, 1, "{out}");
        assert!(
            out.contains(
                "puzzle 1 (First Position): not proven in the time (no endgame databases: \
                 `checkers egdb build` builds those that prove such endings), nothing found \
                 against it: "
            ),
            "{out}"
        );
    }

    #[test]
    fn an_interrupted_check_says_how_far_it_got() {
        let stop = StopFlag::new();
        stop.stop();
        let (out, tally) = checked(&stop);
        // Only what needs no search (the puzzle left out) is told.
        assert!(
            out.contains("interrupted: 1 of 4 puzzles checked, the one in progress left out"),
            "{out}"
        );
        assert!(!out.contains("Hold the draw"), "{out}");
        assert_eq!(tally.holding + tally.unproven, 0);
    }
}
