//! `checkers pdn list`, `extract` and `merge`: a club's PDN files kept as an archivist
//! keeps them. Every file is read as a stream, one game (and the one after it) at a
//! time, so a file of any size takes the memory of a game; the games written are
//! copied byte for byte from the files they come from, into a file that appears whole
//! or not at all.

mod filter;
mod spans;

use super::CommandError;
use crate::cli::{ExtractArgs, ListArgs, MergeArgs};
use crate::pdn::{Encoding, GameError, PdnGame};
use crate::store::files::{StreamedWrite, write_streamed};
use crate::store::{StoreError, shown_path};
use crate::text::{padded_to_columns, printable, printable_path};
use filter::Filter;
use spans::{CopyError, SpannedFile, separator};
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::io::{self, Write};
use std::path::Path;

/// The longest line said about a faulty game (text from the file is already cut
/// short in it; this bounds the whole).
const NOTE_CHARS: usize = 300;

/// The columns of `pdn list` after the game's number: date, White, Black, event,
/// result, moves (79 columns in all, with the number's 6).
const COLUMNS: [usize; 6] = [10, 14, 14, 16, 7, 5];

/// Runs `checkers pdn list FILE`: a header, one line per game the filters take, and
/// how many they took of how many. The date column is left out when no game listed has
/// a date (most files give none), as far as the first [`MAX_HELD_ROWS`] games listed
/// show: the rows are held until a date shows the column is needed, or that many.
pub(crate) fn run_list(args: &ListArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let filter = Filter::new(&args.filters, None)?;
    let games = crate::store::file_games(&args.file).map_err(CommandError::CheckFile)?;
    let mut listing = Listing::default();
    let (mut count, mut shown) = (0usize, 0usize);
    for game in games {
        // Text that is no PDN, and no game after it: the file holds none.
        if let Err(e) = &game
            && super::no_game_in(e).is_some()
        {
            return Err(super::no_game_error(&args.file, e));
        }
        count += 1;
        if !filter.takes(count, &game) {
            continue;
        }
        shown += 1;
        listing.push(list_line(count, &game), out)?;
    }
    if count == 0 {
        return Err(CommandError::CheckFile(StoreError::NoGames(shown_path(
            &args.file,
        ))));
    }
    listing.finish(out)?;
    let plural = if count == 1 { "" } else { "s" };
    if args.filters.is_empty() {
        writeln!(out, "{count} game{plural}")?;
    } else {
        writeln!(out, "{shown} of {count} game{plural}")?;
    }
    Ok(())
}

/// The most rows of `pdn list` held while no game listed has a date: past them the
/// date column is kept (blank where unknown), so that memory stays bounded.
const MAX_HELD_ROWS: usize = 1000;

/// A row of `pdn list`, before it is known whether the date column is written.
enum Row {
    /// A game that reads: its number and its cells (date, White, Black, event, result,
    /// moves).
    Game(usize, [String; 6]),
    /// A game that does not read: what is said of it.
    Faulty(String),
}

impl Row {
    /// Whether the row is a game with a known date.
    fn dated(&self) -> bool {
        matches!(self, Row::Game(_, cells) if !cells[0].is_empty())
    }

    /// The row as written, with the date column or without it.
    fn text(&self, with_date: bool) -> String {
        match self {
            Row::Game(number, cells) => {
                let cells: Vec<&str> = cells.iter().map(String::as_str).collect();
                list_row(&number.to_string(), &cells, with_date)
            }
            Row::Faulty(text) => text.clone(),
        }
    }
}

/// The rows of `pdn list` as they are written: held (at most [`MAX_HELD_ROWS`]) until
/// it is known whether the date column is, then streamed.
#[derive(Default)]
struct Listing {
    /// Whether the date column is written, once known (with the header written).
    with_date: Option<bool>,
    /// The rows held while it is not known.
    held: Vec<Row>,
}

impl Listing {
    /// Lists `row`: written at once when the columns are known, else held (and all
    /// written, with the date column, when it has a date or too many are held).
    fn push(&mut self, row: Row, out: &mut impl Write) -> io::Result<()> {
        if let Some(with_date) = self.with_date {
            return writeln!(out, "{}", row.text(with_date));
        }
        let decided = row.dated() || self.held.len() + 1 >= MAX_HELD_ROWS;
        self.held.push(row);
        if decided {
            self.write_held(true, out)?;
        }
        Ok(())
    }

    /// Writes what is held at the end of the list: the date column only if a row held
    /// has a date (none does, or it would have been written).
    fn finish(&mut self, out: &mut impl Write) -> io::Result<()> {
        if self.with_date.is_none() {
            self.write_held(false, out)?;
        }
        Ok(())
    }

    /// Writes the header and the rows held, with the date column or without it.
    fn write_held(&mut self, with_date: bool, out: &mut impl Write) -> io::Result<()> {
        self.with_date = Some(with_date);
        let header = ["date", "white", "black", "event", "result", "moves"];
        writeln!(out, "{}", list_row("game", &header, with_date))?;
        for row in self.held.drain(..) {
            writeln!(out, "{}", row.text(with_date))?;
        }
        Ok(())
    }
}

/// The row of `pdn list` for game `number`.
fn list_line(number: usize, game: &Result<PdnGame, GameError>) -> Row {
    match game {
        Ok(record) => {
            let tag = |name| {
                record
                    .tag(name)
                    .map(str::trim)
                    .filter(|v| !v.is_empty())
                    .unwrap_or("?")
            };
            let moves = record.moves.len().div_ceil(2).to_string();
            // An unknown date (none, `????.??.??`) is left blank: most files give no
            // dates, and a column of `?` says nothing while it hides the names.
            let date = Some(tag("Date"))
                .filter(|d| d.chars().any(|c| c.is_ascii_digit()))
                .unwrap_or("");
            Row::Game(
                number,
                [
                    date,
                    tag("White"),
                    tag("Black"),
                    tag("Event"),
                    record.recorded_result().unwrap_or("?"),
                    &moves,
                ]
                .map(String::from),
            )
        }
        Err(e) => Row::Faulty(printable(
            &format!("{number:>6} does not read: {e}"),
            NOTE_CHARS,
        )),
    }
}

/// A row of `pdn list`: the number right-aligned in 6 columns, then each cell in its
/// column of [`COLUMNS`] (cut with `…` when longer, the moves right-aligned); the
/// first, the date, left out unless `with_date`.
fn list_row(number: &str, cells: &[&str], with_date: bool) -> String {
    let mut row = format!("{number:>6}");
    let skip = usize::from(!with_date);
    for (i, (cell, width)) in cells.iter().zip(COLUMNS).enumerate().skip(skip) {
        let cell = crate::text::one_row(&printable(cell, 200), width, "…");
        row.push(' ');
        if i + 1 == COLUMNS.len() {
            row.push_str(&" ".repeat(width.saturating_sub(crate::text::columns(&cell))));
            row.push_str(&cell);
        } else {
            row.push_str(&padded_to_columns(&cell, width));
        }
    }
    row.trim_end().to_string()
}

/// Why a new file could not be made.
fn output_error(path: &Path, force: bool, e: &io::Error) -> CommandError {
    let shown = printable_path(path);
    CommandError::PdnOutput(if e.kind() == io::ErrorKind::AlreadyExists && !force {
        format!("{shown} exists: give --force to replace it (it was left as it is)")
    } else {
        format!("cannot write {shown}: {e} (nothing was written)")
    })
}

/// Refuses, before any work, an output file that is there without `--force`, or that
/// is no regular file.
fn check_output(path: &Path, force: bool) -> Result<(), CommandError> {
    match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => Err(CommandError::PdnOutput(format!(
            "cannot write {}: it is not a regular file (a folder, a FIFO or a device)",
            printable_path(path)
        ))),
        Ok(_) if !force => Err(output_error(
            path,
            force,
            &io::Error::new(io::ErrorKind::AlreadyExists, "exists"),
        )),
        _ => Ok(()),
    }
}

/// The most faulty games said one by one; the rest are counted (`pdn check` lists
/// them all), so that a file of many keeps the memory bounded.
const MAX_NOTES: usize = 20;

/// What writing a new file of games came to.
#[derive(Debug, Default)]
struct Written {
    /// Games written.
    games: usize,
    /// Games left out as duplicates (`merge --dedupe`).
    dropped: usize,
    /// What is said of faulty games, each naming its file and number (the first
    /// [`MAX_NOTES`]).
    notes: Vec<String>,
    /// Faulty games not said one by one.
    more_notes: usize,
}

impl Written {
    /// Keeps `note` on a faulty game to say (or counts it, past [`MAX_NOTES`]).
    fn note(&mut self, note: String) {
        if self.notes.len() < MAX_NOTES {
            self.notes.push(note);
        } else {
            self.more_notes += 1;
        }
    }

    /// Says the notes kept on `out`.
    fn say_notes(&self, out: &mut dyn Write) -> io::Result<()> {
        for note in &self.notes {
            writeln!(out, "{note}")?;
        }
        if self.more_notes > 0 {
            writeln!(
                out,
                "warning: and {} more games that do not read (checkers pdn check FILE lists \
                 them all)",
                self.more_notes
            )?;
        }
        Ok(())
    }
}

/// Why filling a new file failed.
#[derive(Debug)]
enum Filling {
    /// A file read could not be read on: which, and why.
    Reading(String),
    /// The new file could not be written (a full disk).
    Writing(io::Error),
    /// No game was chosen: no file is made.
    Nothing,
}

/// The note on a faulty game of `path` that is written as it is.
fn faulty_note(path: &Path, e: &GameError, what: &str) -> String {
    printable(
        &format!("warning: {}: {e} ({what})", printable_path(path)),
        NOTE_CHARS,
    )
}

/// Runs `checkers pdn extract FILE --output OUT` (FILE `-`: standard input; OUT `-`:
/// standard output, and what is said goes to standard error).
pub(crate) fn run_extract(args: &ExtractArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let filter = Filter::new(&args.filters, args.games.as_ref())?;
    let to_stdout = is_stdout(&args.output);
    if !to_stdout {
        check_output(&args.output, args.force)?;
    }
    let mut file = SpannedFile::open(&args.file).map_err(CommandError::CheckFile)?;
    let mut count = 0;
    // The one "game" of a text that is no PDN: no game to copy.
    let mut no_pdn = None;
    let mut fill = |w: &mut dyn Write| {
        let mut written = Written::default();
        while let Some(span) = file.spans.next() {
            if let Err(e) = &span.game
                && super::no_game_in(e).is_some()
            {
                no_pdn = Some(e.clone());
                continue;
            }
            count = span.number;
            if filter.takes(span.number, &span.game) {
                copy_span(&mut file, &span, false, w)?;
                written.games += 1;
                if let Err(e) = &span.game {
                    written.note(faulty_note(&file.path, e, "copied as it is"));
                }
            } else if let Err(e) = &span.game
                && e.up_to_fault().is_none()
                && !args.filters.is_empty()
            {
                written.note(faulty_note(
                    &file.path,
                    e,
                    "it does not read, so no filter could choose it",
                ));
            }
            if !filter.wants_after(span.number) {
                break;
            }
        }
        if written.games == 0 {
            return Err(Filling::Nothing);
        }
        Ok(written)
    };
    let written = if to_stdout {
        to_standard_output(&mut *out, fill)
    } else {
        write_streamed(&args.output, args.force, |w| fill(w))
    };
    let shown_file = printable_path(&shown_path(&args.file));
    let written = match written {
        Ok(w) => w,
        Err(StreamedWrite::Filling(Filling::Nothing)) if count == 0 => {
            return Err(match &no_pdn {
                Some(e) => super::no_game_error(&args.file, e),
                None => CommandError::CheckFile(StoreError::NoGames(shown_path(&args.file))),
            });
        }
        Err(StreamedWrite::Filling(Filling::Nothing)) => {
            return Err(CommandError::PdnOutput(format!(
                "none of the {count} game{} of {shown_file} read is chosen: {} was not written",
                if count == 1 { "" } else { "s" },
                shown_output(&args.output)
            )));
        }
        Err(StreamedWrite::Filling(Filling::Reading(why))) => {
            return Err(CommandError::PdnOutput(why));
        }
        Err(StreamedWrite::Filling(Filling::Writing(e)) | StreamedWrite::Writing(e)) => {
            return Err(output_error(&args.output, args.force, &e));
        }
    };
    let mut stderr = io::stderr().lock();
    let said: &mut dyn Write = if to_stdout { &mut stderr } else { out };
    written.say_notes(said)?;
    let plural = if written.games == 1 { "" } else { "s" };
    writeln!(
        said,
        "{} game{plural} of {shown_file} ({count} read) written to {}",
        written.games,
        shown_output(&args.output)
    )?;
    Ok(())
}

/// Whether `path` is `-`: standard output (as an output).
fn is_stdout(path: &Path) -> bool {
    crate::store::is_stdin(path)
}

/// How the output `path` is named in messages: standard output by those words.
fn shown_output(path: &Path) -> String {
    if is_stdout(path) {
        "standard output".to_string()
    } else {
        printable_path(path)
    }
}

/// The games `fill` writes, written to standard output (`out`) as they come: a pipe
/// takes them as a stream, so a failure part way leaves what was written before it.
fn to_standard_output<T>(
    out: &mut dyn Write,
    fill: impl FnOnce(&mut dyn Write) -> Result<T, Filling>,
) -> Result<T, StreamedWrite<Filling>> {
    let mut w = io::BufWriter::with_capacity(1 << 16, out);
    let made = fill(&mut w).map_err(StreamedWrite::Filling)?;
    w.flush().map_err(StreamedWrite::Writing)?;
    Ok(made)
}

/// Copies `span`'s bytes from `file` to `w` (Latin-1 as UTF-8 when `to_utf8`), with a
/// blank line after it where its text has none.
fn copy_span(
    file: &mut SpannedFile,
    span: &spans::Spanned,
    to_utf8: bool,
    mut w: &mut dyn Write,
) -> Result<(), Filling> {
    let tail = file
        .copy(span.start, span.end, to_utf8, &mut w)
        .map_err(|e| match e {
            CopyError::Reading(e) => Filling::Reading(format!(
                "{}: game {}: {e} (nothing was written)",
                printable_path(&file.path),
                span.number
            )),
            CopyError::Writing(e) => Filling::Writing(e),
        })?;
    w.write_all(separator(tail)).map_err(Filling::Writing)
}

/// What makes two games the same for `merge --dedupe`: their start, moves, players
/// and result, hashed twice over (128 bits: two different games of a file of millions
/// have next to no chance of one).
fn game_key(record: &PdnGame) -> u128 {
    let halves = [0u8, 1u8].map(|seed| {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        seed.hash(&mut hasher);
        // The position itself, not its FEN: no text made per game.
        record.start.hash(&mut hasher);
        record.moves.hash(&mut hasher);
        for name in ["Black", "White"] {
            record.tag(name).map(str::trim).hash(&mut hasher);
        }
        record.recorded_result().hash(&mut hasher);
        hasher.finish()
    });
    (u128::from(halves[0]) << 64) | u128::from(halves[1])
}

/// Runs `checkers pdn merge A B ... --output OUT [--dedupe]` (one of the files may be
/// `-`, standard input; OUT `-` is standard output, and what is said goes to standard
/// error).
pub(crate) fn run_merge(args: &MergeArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let to_stdout = is_stdout(&args.output);
    if !to_stdout {
        check_output(&args.output, args.force)?;
    }
    if args
        .files
        .iter()
        .filter(|p| crate::store::is_stdin(p))
        .count()
        > 1
    {
        return Err(CommandError::PdnOutput(
            "standard input (-) is named twice: it can be read once (nothing was written)".into(),
        ));
    }
    // Every file is opened first: one that cannot be read stops the merge before
    // anything is written.
    let mut files = Vec::with_capacity(args.files.len());
    for path in &args.files {
        let mut file = SpannedFile::open(path).map_err(CommandError::CheckFile)?;
        // A file that holds no game (empty, or text that is no PDN) is refused as
        // `pdn check` refuses it, before anything is written: its text is no game to
        // copy (it was copied as a faulty one).
        match file.spans.first() {
            None => {
                return Err(CommandError::CheckFile(StoreError::NoGames(shown_path(
                    path,
                ))));
            }
            Some(Err(e)) if super::no_game_in(e).is_some() => {
                return Err(super::no_game_error(path, e));
            }
            Some(_) => {}
        }
        files.push(file);
    }
    // Files of both encodings: the Latin-1 ones' games are written as UTF-8, so that the
    // merged file reads as one text.
    let mixed = files.iter().any(|f| f.encoding == Encoding::Latin1)
        && files.iter().any(|f| f.encoding == Encoding::Utf8);
    let mut fill = |w: &mut dyn Write| {
        let mut written = Written::default();
        let mut seen: HashSet<u128> = HashSet::new();
        for file in &mut files {
            while let Some(span) = file.spans.next() {
                match &span.game {
                    Ok(record) if args.dedupe && !seen.insert(game_key(record)) => {
                        written.dropped += 1;
                        continue;
                    }
                    Ok(_) => {}
                    Err(e) => written.note(faulty_note(
                        &file.path,
                        e,
                        "written as it is, never taken as a duplicate",
                    )),
                }
                copy_span(file, &span, mixed, w)?;
                written.games += 1;
            }
        }
        Ok(written)
    };
    let written = if to_stdout {
        to_standard_output(&mut *out, fill)
    } else {
        write_streamed(&args.output, args.force, |w| fill(w))
    };
    let written = match written {
        Ok(w) => w,
        Err(StreamedWrite::Filling(Filling::Reading(why))) => {
            return Err(CommandError::PdnOutput(why));
        }
        // Every file holds a game (or the merge stopped before), and its first is
        // written.
        Err(StreamedWrite::Filling(Filling::Nothing)) => {
            return Err(CommandError::PdnOutput(format!(
                "no game to write: {} was not written",
                shown_output(&args.output)
            )));
        }
        Err(StreamedWrite::Filling(Filling::Writing(e)) | StreamedWrite::Writing(e)) => {
            return Err(output_error(&args.output, args.force, &e));
        }
    };
    let mut stderr = io::stderr().lock();
    let said: &mut dyn Write = if to_stdout { &mut stderr } else { out };
    written.say_notes(said)?;
    if mixed {
        for file in files.iter().filter(|f| f.encoding == Encoding::Latin1) {
            writeln!(
                said,
                "{} is Latin-1 text: its games are written as UTF-8, as the other files are",
                printable_path(&file.path)
            )?;
        }
    }
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let dropped = if args.dedupe {
        format!(", {} dropped", plural(written.dropped, "duplicate"))
    } else {
        String::new()
    };
    writeln!(
        said,
        "{} of {} written to {}{dropped}",
        plural(written.games, "game"),
        plural(files.len(), "file"),
        shown_output(&args.output)
    )?;
    Ok(())
}
