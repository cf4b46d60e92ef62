//! `checkers egdb`: build the endgame databases, probe a position, verify the slices.

use super::CommandError;
use crate::cli::{EgdbArgs, EgdbBuildArgs, EgdbCommand, EgdbProbeArgs, EgdbVerifyArgs};
use crate::engine::egdb::{self, BuildOptions, Egdb, SliceStats, Verdict};
use crate::rules::Move;
use crate::store;
use std::io::Write;
use std::path::{Path, PathBuf};

/// Runs `checkers egdb`.
pub(crate) fn run(args: &EgdbArgs, out: &mut impl Write) -> Result<(), CommandError> {
    match &args.action {
        EgdbCommand::Build(a) => build(a, out),
        EgdbCommand::Probe(a) => probe(a, out),
        EgdbCommand::Verify(a) => verify(a, out),
    }
}

/// The database folder: `--dir`, or `egdb` in the data folder. A `--dir` that is there
/// but is not a folder (a file) is refused, said as such; one that is not there at all
/// is refused too, said as missing: a build's is to be created first (a mistyped path
/// would get a database), while probe and verify have nothing to read there.
fn folder(dir: Option<&Path>, building: bool) -> Result<PathBuf, CommandError> {
    let Some(d) = dir else {
        return store::egdb_dir().ok_or(CommandError::NoDataFolder);
    };
    let d = store::expand_home(d);
    let shown = crate::text::printable_path(&d);
    match std::fs::metadata(&d) {
        Ok(meta) if meta.is_dir() => Ok(d),
        Ok(meta) => {
            let kind = match meta.is_file() {
                true => "a file",
                false => crate::store::files::kind_of(meta.file_type()),
            };
            Err(CommandError::EgdbFolder(format!(
                "--dir {shown} is {kind}, not a folder"
            )))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            Err(CommandError::EgdbFolder(match building {
                true => format!("no folder {shown}: create it first"),
                false => format!("--dir {shown} does not exist"),
            }))
        }
        Err(_) => Ok(d),
    }
}

/// Threads asked for, or one per core.
fn threads(asked: Option<usize>) -> usize {
    asked.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
}

/// "1.2 MB" from bytes.
fn size_text(bytes: u64) -> String {
    match bytes {
        b if b >= 10_000_000 => format!("{:.0} MB", b as f64 / 1e6),
        b if b >= 1_000_000 => format!("{:.1} MB", b as f64 / 1e6),
        b if b >= 1_000 => format!("{:.0} kB", b as f64 / 1e3),
        b => format!("{b} bytes"),
    }
}

fn stats_line(name: &str, s: &SliceStats, bytes: u64) -> String {
    format!(
        "{name:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9}",
        s.positions,
        s.wins,
        s.losses,
        s.draws,
        s.longest,
        size_text(bytes)
    )
}

fn stats_header() -> String {
    format!(
        "{:<12} {:>12} {:>12} {:>12} {:>12} {:>8} {:>9}",
        "slice", "positions", "wins", "losses", "draws", "longest", "size"
    )
}

/// `egdb build`: builds the missing slices with a progress bar on standard error, then
/// prints what was built (counts per slice for the side to move, Black; longest
/// distances in plies), the time and the size of the folder.
fn build(args: &EgdbBuildArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let dir = folder(args.dir.as_deref(), true)?;
    let options = BuildOptions {
        dir: dir.clone(),
        max_pieces: args.pieces,
        threads: threads(args.threads),
    };
    writeln!(
        out,
        "Building the endgame databases of up to {} pieces in {} ({} thread{})",
        args.pieces,
        crate::text::printable_path(&dir),
        options.threads,
        if options.threads == 1 { "" } else { "s" }
    )?;
    out.flush()?;
    let bar = super::progress_bar(
        1,
        "{prefix} [{wide_bar}] {percent:>3}% {msg} (elapsed {elapsed}, left {eta})",
    );
    #[cfg(unix)]
    say_what_an_interrupt_keeps(&bar, &dir, args.pieces);
    let report = egdb::build(&options, None, |p| {
        bar.set_length(p.total.max(1));
        bar.set_position(p.done);
        bar.set_prefix(format!("{} pieces", p.slice.pieces()));
        bar.set_message(format!("slice {}/{} {}", p.slice_number, p.slices, p.slice));
    });
    bar.finish_and_clear();
    let report = report?;
    for problem in &report.rebuilt {
        writeln!(
            out,
            "rebuilt a damaged slice: {}",
            crate::text::printable(problem, crate::text::MAX_PATH_CHARS)
        )?;
    }
    if !report.present.is_empty() {
        writeln!(
            out,
            "{} slices were already built and are kept",
            report.present.len()
        )?;
    }
    if !report.built.is_empty() {
        writeln!(out, "{}", stats_header())?;
        let mut total = SliceStats::default();
        let mut bytes = 0;
        for (sig, stats, _) in &report.built {
            let size = std::fs::metadata(egdb::file::path(&dir, *sig)).map_or(0, |m| m.len());
            writeln!(out, "{}", stats_line(&sig.to_string(), stats, size))?;
            total.merge(stats);
            bytes += size;
        }
        writeln!(out, "{}", stats_line("built", &total, bytes))?;
    }
    let folder_bytes: u64 = egdb::Signature::all(egdb::MAX_PIECES as u32)
        .into_iter()
        .filter_map(|s| std::fs::metadata(egdb::file::path(&dir, s)).ok())
        .map(|m| m.len())
        .sum();
    writeln!(
        out,
        "Built {} slice{} in {:.1} s; the folder holds {}",
        report.built.len(),
        if report.built.len() == 1 { "" } else { "s" },
        report.elapsed.as_secs_f64(),
        size_text(folder_bytes)
    )?;
    Ok(())
}

/// On Ctrl-C (or another ending signal) a build says, as it stops, how many slices are
/// built and kept in `dir` and that running it again goes on where it stopped (finished
/// slices are whole on disk; the one being solved is lost, its temporary file removed by
/// the next build). The process then ends as the signal would have ended it.
#[cfg(unix)]
fn say_what_an_interrupt_keeps(bar: &indicatif::ProgressBar, dir: &Path, pieces: u32) {
    use crate::signals;
    let (bar, dir) = (bar.clone(), dir.to_path_buf());
    let wanted: Vec<signals::Signal> = signals::ENDING
        .into_iter()
        .filter(|&s| s != signals::PIPE)
        .collect();
    // Without the watch, the signal ends the build as before, silently: nothing is lost.
    let _ = signals::watch(&wanted, move |signal| {
        let _ = tell_what_is_kept(&bar, &dir, pieces, &mut std::io::stderr().lock());
        std::process::exit(signals::exit_status(signal));
    });
}

/// Stops `bar` where the build was and writes, on a line of its own below it, how many
/// of the slices of up to `pieces` pieces are kept in `dir` (the bar counts them alike,
/// "slice 26/46" being solved when 25 are kept) and how to go on.
#[cfg(unix)]
fn tell_what_is_kept(
    bar: &indicatif::ProgressBar,
    dir: &Path,
    pieces: u32,
    err: &mut impl Write,
) -> std::io::Result<()> {
    bar.abandon();
    // The bar leaves the cursor at the end of its line.
    if !bar.is_hidden() {
        writeln!(err)?;
    }
    let all = egdb::Signature::all(pieces);
    let kept = all
        .iter()
        .filter(|&&s| egdb::file::path(dir, s).is_file())
        .count();
    writeln!(
        err,
        "checkers: interrupted: {kept} of {} slices built and kept in {}; run checkers egdb \
         build --pieces {pieces}{} again to go on where it stopped",
        all.len(),
        crate::text::printable_path(dir),
        dir_option(dir),
    )?;
    err.flush()
}

/// `egdb probe`: the verdict, the distance, the best move(s) and every move's verdict.
fn probe(args: &EgdbProbeArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let dir = folder(args.dir.as_deref(), false)?;
    let (db, problems) = Egdb::open(&dir);
    let pos = args.fen;
    // With no database at all, say so before anything is looked up.
    if db.slices() == 0 && problems.is_empty() {
        return Err(CommandError::NotFound(not_in_database(&db, &pos)));
    }
    let Some(verdict) = db.probe(&pos) else {
        if let Some(problem) = problems.into_iter().next() {
            return Err(problem.into());
        }
        return Err(CommandError::NotFound(not_in_database(&db, &pos)));
    };
    writeln!(out, "position {pos}")?;
    let plies = match verdict.plies() {
        Some(p) => format!(" ({p} plies)"),
        None => String::new(),
    };
    writeln!(
        out,
        "endgame database: {}{plies}",
        verdict.describe(pos.turn())
    )?;
    let moves = db.moves(&pos).unwrap_or_default();
    if let Some(best) = db.best_moves(&pos).filter(|b| !b.is_empty()) {
        let names: Vec<String> = best.iter().map(Move::to_string).collect();
        let label = if names.len() == 1 {
            "best move"
        } else {
            "best moves"
        };
        writeln!(out, "{label}: {}", names.join(", "))?;
        let line = db.best_line(&pos, 24);
        writeln!(out, "line: {}", crate::engine::route_line(&line))?;
    } else {
        // The position's slice is sound but a slice its moves lead to is not loaded:
        // say which, and why, rather than leave the best moves out silently.
        for problem in &problems {
            writeln!(
                out,
                "best moves unknown: a slice the moves lead to is left out: {}",
                crate::text::printable(&problem.to_string(), crate::text::MAX_PATH_CHARS)
            )?;
        }
    }
    for (m, v) in &moves {
        writeln!(out, "  {:<10} {}", m.to_string(), v.describe(pos.turn()))?;
    }
    debug_assert!(
        moves
            .first()
            .is_none_or(|(_, v)| *v == verdict || verdict == Verdict::Draw)
    );
    Ok(())
}

/// Why `pos` cannot be probed in `db`.
fn not_in_database(db: &Egdb, pos: &crate::rules::Position) -> String {
    let pieces = pos.occupied().count();
    match db.slices() {
        0 => format!(
            "no endgame database in {}: build one with checkers egdb build",
            db.dir().display()
        ),
        _ if pieces > crate::cli::EGDB_MOST_PIECES => format!(
            "the position has {pieces} pieces: the databases hold positions of up to {}",
            crate::cli::EGDB_MOST_PIECES
        ),
        _ => format!(
            "the position has {pieces} pieces and its slice ({}) is not in {}: build it \
             with checkers egdb build --pieces {pieces}{}",
            egdb::Signature::of(&egdb::index::canonical(pos)),
            db.dir().display(),
            dir_option(db.dir()),
        ),
    }
}

/// The ` --dir DIR` a command needs to reach the database folder `dir` (nothing for the
/// data folder's).
fn dir_option(dir: &Path) -> String {
    if store::egdb_dir().is_some_and(|d| d == dir) {
        String::new()
    } else {
        format!(" --dir {}", crate::text::printable_path(dir))
    }
}

/// `egdb verify`: a line per slice with its counts and the verdict of its check.
fn verify(args: &EgdbVerifyArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let dir = folder(args.dir.as_deref(), false)?;
    let mut written = Ok(());
    let mut headed = false;
    let checks = egdb::verify(&dir, threads(args.threads), |c| {
        // The header comes with the first slice: a folder with none gets only the error.
        if !std::mem::replace(&mut headed, true) {
            written = writeln!(out, "{}  check", stats_header());
        }
        if written.is_ok() {
            let verdict = match (&c.first_fault, c.header_agrees) {
                (None, true) => "ok".to_string(),
                (Some(f), _) => format!("{} FAULTS, first {f}", c.faults),
                (None, false) => "FAULT: the header's counts differ".to_string(),
            };
            written = writeln!(
                out,
                "{}  {verdict}",
                stats_line(&c.signature.to_string(), &c.stats, c.bytes as u64)
            )
            .and_then(|()| out.flush());
        }
    })?;
    written?;
    let mut total = SliceStats::default();
    for c in &checks {
        total.merge(&c.stats);
    }
    let bytes = checks.iter().map(|c| c.bytes as u64).sum();
    writeln!(out, "{}", stats_line("all", &total, bytes))?;
    let failed = checks.iter().filter(|c| !c.passed()).count();
    if failed > 0 {
        return Err(CommandError::EgdbFaults(failed));
    }
    writeln!(out, "{} slices verified: all consistent", checks.len())?;
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::commands::tests::Shared;

    /// Ctrl-C during `egdb build` on a terminal: the bar stays, and the words start a
    /// line of their own below it (they were glued to the bar's "(left 0s)"); the
    /// count they give is the one the bar gives, out of the same whole.
    #[test]
    fn an_interrupted_build_says_what_it_keeps_below_the_bar_in_the_bars_count() {
        let folder = tempfile::tempdir().unwrap();
        let all = egdb::Signature::all(3);
        for &s in &all[..2] {
            std::fs::write(egdb::file::path(folder.path(), s), b"slice").unwrap();
        }
        let terminal = Shared::default();
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(100),
            indicatif::ProgressDrawTarget::term_like(Box::new(super::super::EchoRoom::new(
                terminal.clone(),
                || 80,
            ))),
        );
        bar.set_style(super::super::progress_style(
            "{prefix} [{wide_bar}] {percent:>3}% {msg} (elapsed {elapsed}, left {eta})",
        ));
        bar.set_prefix("3 pieces");
        bar.set_message(format!("slice 3/{}", all.len()));
        bar.set_position(40);
        let mut err = terminal.clone();
        tell_what_is_kept(&bar, folder.path(), 3, &mut err).unwrap();
        let size = |n| std::num::NonZeroU16::new(n).unwrap();
        let mut screen = vt100::Parser::new(size(24), size(80), 0);
        let bytes = terminal.0.lock().unwrap().clone();
        screen.process(
            &String::from_utf8(bytes)
                .unwrap()
                .replace('\n', "\r\n")
                .into_bytes(),
        );
        let shown = screen.screen().contents();
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines.iter().any(|l| l.starts_with("3 pieces [")), "{shown}");
        assert!(
            lines.iter().any(|l| l.starts_with(&format!(
                "checkers: interrupted: 2 of {} slices built and kept in ",
                all.len()
            ))),
            "{shown}"
        );
    }
}
