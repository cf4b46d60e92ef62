//! `checkers-lab train`: the learned evaluation's weights from training data and games.

use super::LabError;
use super::cli::{TrainArgs, TrainModel};
use super::error::{io_why, store_why};
use super::interrupt::Interrupt;
use super::net_training::{FloatNetwork, NetTrainOptions, TrainingState, train_network};
use super::training::{Sample, TrainOptions, train};
use crate::engine::nnue::Nnue;
use crate::rules::Color;
use crate::store::files::{check_replaceable, open_regular, write_atomic};
use crate::text::printable_path;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::Path;
use std::time::Instant;

/// The progress bar of `train` with the pattern table (as wide as the terminal leaves
/// room for).
pub(crate) const TRAIN_BAR: &str =
    "train [{wide_bar}] epoch {pos}/{len} {msg} (elapsed {elapsed}, left {eta})";

/// The progress bar of `train --model net` (as wide as the terminal leaves room for).
pub(crate) const TRAIN_NET_BAR: &str =
    "train net [{wide_bar}] pass {pos}/{len} {msg} (elapsed {elapsed}, left {eta})";

/// Plies of a game's start left out of its samples: the opening is the book's job.
const SKIP_OPENING_PLIES: usize = 6;

/// The report's line when too few positions were given for any to be held out: an
/// error of 0 would read as a perfect fit.
const NONE_HELD_OUT: &str = "held-out error: not measured, no position was held out (one run of \
     64 positions in 20 is, chosen by --seed): give more positions";

/// Whether any of `samples` positions is held out with `seed`, one run in `every`.
fn any_held_out(samples: usize, seed: u64, every: u64) -> bool {
    (0..samples)
        .step_by(64)
        .any(|i| super::training::held_out_sample(i, seed, every))
}

/// Runs `checkers-lab train`: reads every file (a faulty line or game stops it with its
/// place named), trains with a progress bar, writes the weights and reports the fit.
/// Ctrl-C stops the network's training, its last checkpoint kept, and the reading of
/// its data at once.
pub(crate) fn run(args: &TrainArgs, out: &mut impl Write) -> Result<(), LabError> {
    // The pattern table trains in minutes, with no checkpoint: Ctrl-C just ends it.
    let interrupt = match args.model {
        TrainModel::Net => Interrupt::watch("keeping the last checkpoint"),
        TrainModel::Table => Interrupt::default(),
    };
    train_until(args, &interrupt, out)
}

/// Trains as [`run`] says, the network until the `interrupt`.
pub(crate) fn train_until(
    args: &TrainArgs,
    interrupt: &Interrupt,
    out: &mut impl Write,
) -> Result<(), LabError> {
    // A FIFO or a device as --out is refused before the training, not after, and so
    // is a file that is there already (but the network --from goes on from).
    check_replaceable(&args.out)
        .map_err(|e| LabError::DataFile("--out", args.out.clone(), io_why(&e)))?;
    refuse_existing_out(&args.out, args.from.as_deref())?;
    refuse_missing_folder("--out", &args.out)?;
    if args.model == TrainModel::Table
        && let Some((option, path)) = (args.from.as_ref().map(|p| ("--from", p)))
            .or(args.resume.as_ref().map(|p| ("--resume", p)))
    {
        return Err(LabError::DataFile(
            option,
            path.clone(),
            "--from and --resume go on training a network (--model net); the pattern \
             table is trained afresh"
                .to_string(),
        ));
    }
    // The network to go on from is read before the data, which may take minutes.
    let from = match &args.from {
        Some(path) if path.as_os_str() == "embedded" => Some((
            FloatNetwork::from_network(Nnue::embedded()),
            "the embedded network".to_string(),
        )),
        Some(path) => Some((
            FloatNetwork::from_network(&*read_network("--from", path)?),
            printable_path(path),
        )),
        None => None,
    };
    let mut samples = Vec::new();
    for path in &args.data {
        let before = samples.len();
        if !read_data(path, &mut samples, interrupt)? {
            return Err(stopped_reading(args));
        }
        writeln!(
            out,
            "{}: {} positions",
            printable_path(path),
            samples.len() - before
        )?;
    }
    for path in &args.pdn {
        let before = samples.len();
        let Some((used, skipped)) = read_games(path, &mut samples, interrupt)? else {
            return Err(stopped_reading(args));
        };
        writeln!(
            out,
            "{}: {} positions from {used} games ({skipped} without a result or that do not replay left out)",
            printable_path(path),
            samples.len() - before
        )?;
    }
    if samples.is_empty() {
        return Err(LabError::NoTrainingData);
    }
    if args.model == TrainModel::Net {
        return run_net(args, from, &samples, interrupt, out);
    }
    let options = TrainOptions {
        epochs: args.epochs,
        lambda: args.lambda,
        learning_rate: args.learning_rate,
        seed: args.seed,
        ..TrainOptions::default()
    };
    let bar = crate::commands::progress_bar(u64::from(args.epochs), TRAIN_BAR);
    let started = Instant::now();
    let held_out = any_held_out(samples.len(), args.seed, options.validation_every);
    let (weights, report) = train(&samples, &options, |epoch| {
        bar.set_position(u64::from(epoch.epoch));
        bar.set_message(if held_out {
            format!(
                "loss {:.5} held out {:.5}",
                epoch.train_loss, epoch.validation_loss
            )
        } else {
            format!("loss {:.5}", epoch.train_loss)
        });
    });
    bar.finish_and_clear();
    write_atomic(&args.out, &weights.to_bytes())
        .map_err(|e| LabError::DataFile("--out", args.out.clone(), io_why(&e)))?;
    writeln!(
        out,
        "trained on {} positions ({} held out) in {:.1} s; K = {:.0}",
        report.train_samples,
        report.validation_samples,
        started.elapsed().as_secs_f64(),
        report.scale
    )?;
    if report.validation_samples == 0 {
        writeln!(out, "{NONE_HELD_OUT}")?;
    } else {
        writeln!(
            out,
            "held-out error: hand-written {:.5}, learned {:.5}",
            report.hand_loss, report.learned_loss
        )?;
    }
    writeln!(out, "weights written to {}", printable_path(&args.out))?;
    Ok(())
}

/// Refuses an `--out` file that exists already, before any work: it may be hours of
/// work (a network, a book, the training data given by mistake). Only `updated`, the
/// file the command goes on from (`--from`), may be written over.
pub(crate) fn refuse_existing_out(out: &Path, updated: Option<&Path>) -> Result<(), LabError> {
    if std::fs::symlink_metadata(out).is_err() {
        return Ok(());
    }
    let same = |other: &Path| {
        matches!(
            (std::fs::canonicalize(out), std::fs::canonicalize(other)),
            (Ok(a), Ok(b)) if a == b
        )
    };
    if updated.is_some_and(same) {
        return Ok(());
    }
    Err(LabError::DataFile(
        "--out",
        out.to_path_buf(),
        "is there already: --out writes a new file and does not replace one (it may be \
         hours of work); give another name, or remove it first"
            .to_string(),
    ))
}

/// Refuses an output file in a folder that does not exist, before any work, as the
/// `checkers` binary refuses one (`--save`, `analyse --out`): a mistyped folder is said
/// at once rather than made, hours later, where nobody looks.
pub(crate) fn refuse_missing_folder(option: &'static str, out: &Path) -> Result<(), LabError> {
    let folder = crate::store::files::folder_of(out);
    match std::fs::metadata(&folder) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(LabError::DataFile(
            option,
            out.to_path_buf(),
            crate::store::StoreError::NoFolder(folder).to_string(),
        )),
        // Anything else in the way (a file, no permission) is said by the write itself.
        _ => Ok(()),
    }
}

/// The checkpoint beside `out` that `train --model net` writes after every pass.
pub(crate) fn checkpoint_path(out: &Path) -> std::path::PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".checkpoint");
    name.into()
}

/// `train --model net`: trains the network on every core (or `--threads`), a line per
/// pass with its held-out loss beside a progress bar, a checkpoint after each pass
/// (`--resume` continues from one), then writes the network and the fit against the
/// pattern table's. `from` is the network `--from` named, read already, and its name.
/// The `interrupt` stops it: nothing written but the checkpoints, and a message that
/// says how to resume from the last.
fn run_net(
    args: &TrainArgs,
    from: Option<(FloatNetwork, String)>,
    samples: &[Sample],
    interrupt: &Interrupt,
    out: &mut impl Write,
) -> Result<(), LabError> {
    let fail =
        |option, path: &Path, why: String| LabError::DataFile(option, path.to_path_buf(), why);
    let checkpoint = checkpoint_path(&args.out);
    let start = match &args.resume {
        Some(path) => {
            let bytes = crate::store::files::read_bounded(path, 64 << 20)
                .map_err(|e| fail("--resume", path, io_why(&e)))?;
            let state = TrainingState::from_checkpoint(&bytes, args.seed)
                .map_err(|e| fail("--resume", path, e.to_string()))?;
            writeln!(
                out,
                "resuming after pass {} of {}",
                state.epochs_done, args.epochs
            )?;
            Some(state)
        }
        None => match from {
            Some((net, name)) => {
                writeln!(out, "starting from {name}")?;
                Some(TrainingState::start(net, args.seed))
            }
            None => None,
        },
    };
    let options = NetTrainOptions {
        epochs: args.epochs,
        lambda: args.lambda,
        learning_rate: args.learning_rate / 1000.0,
        seed: args.seed,
        threads: args.threads.unwrap_or_else(crate::engine::machine_cores),
        ..NetTrainOptions::default()
    };
    let bar = crate::commands::progress_bar(u64::from(args.epochs), TRAIN_NET_BAR);
    bar.set_position(start.as_ref().map_or(0, |s| u64::from(s.epochs_done)));
    let started = Instant::now();
    let mut saved = Ok(());
    // The last pass whose checkpoint is on disk (from --resume's, or none).
    let mut checkpointed = None;
    if let (Some(path), Some(state)) = (&args.resume, &start) {
        checkpointed = Some((path.clone(), state.epochs_done));
    }
    let held_out = any_held_out(samples.len(), args.seed, options.validation_every);
    let trained = train_network(samples, &options, start, interrupt, |state, epoch| {
        bar.set_position(u64::from(epoch.epoch));
        let mut line = format!("pass {}: loss {:.5}", epoch.epoch, epoch.train_loss);
        if held_out {
            line.push_str(&format!(", held out {:.5}", epoch.validation_loss));
        }
        if saved.is_ok() {
            saved = bar.suspend(|| writeln!(out, "{line}"));
        }
        if saved.is_ok() {
            saved = write_atomic(&checkpoint, &state.to_checkpoint());
            if saved.is_ok() {
                checkpointed = Some((checkpoint.clone(), epoch.epoch));
            }
        }
    });
    bar.finish_and_clear();
    // The checkpoint is written beside --out, under its name.
    saved.map_err(|e| fail("--out", &checkpoint, e.to_string()))?;
    let Some((net, report)) = trained else {
        return Err(LabError::Interrupted(match checkpointed {
            Some((path, pass)) => {
                let path = printable_path(&path);
                format!(
                    "{} not written; the checkpoint of pass {pass} of {} is {path}: go on \
                     with the same options and --resume {path}",
                    printable_path(&args.out),
                    args.epochs
                )
            }
            None => format!(
                "in the first pass, before any checkpoint: nothing written to {}",
                printable_path(&args.out)
            ),
        }));
    };
    write_atomic(&args.out, &net.to_bytes()).map_err(|e| fail("--out", &args.out, io_why(&e)))?;
    writeln!(
        out,
        "trained the network on {} positions ({} held out) in {:.1} s with {} thread{}; K = {:.0}",
        report.train_samples,
        report.validation_samples,
        started.elapsed().as_secs_f64(),
        options.threads,
        if options.threads == 1 { "" } else { "s" },
        report.scale
    )?;
    if report.validation_samples == 0 {
        writeln!(out, "{NONE_HELD_OUT}")?;
    } else {
        writeln!(
            out,
            "held-out error: pattern table {:.5}, network {:.5}",
            report.table_loss, report.net_loss
        )?;
    }
    writeln!(out, "network written to {}", printable_path(&args.out))?;
    Ok(())
}

/// Reads a network file (one `train --model net` wrote), given with `option`, for a
/// match or self-play. Only a regular file of a network's size is read.
pub(crate) fn read_network(
    option: &'static str,
    path: &Path,
) -> Result<std::sync::Arc<crate::engine::nnue::Nnue>, LabError> {
    let fail = |why: String| LabError::DataFile(option, path.to_path_buf(), why);
    let bytes = crate::store::files::read_bounded(path, Nnue::FILE_BYTES as u64 + 1)
        .map_err(|e| fail(io_why(&e)))?;
    Nnue::from_bytes(&bytes)
        .map(std::sync::Arc::new)
        .map_err(|e| fail(e.to_string()))
}

/// The largest training data file read: 4 GiB is some 50 million positions, more than
/// memory holds once read; a larger file is surely something else.
pub(crate) const MAX_DATA_BYTES: u64 = 4 << 30;

/// The longest line of a data file: a sample's line is under 100 bytes.
pub(crate) const MAX_LINE_BYTES: usize = 1024;

/// The interrupt came while the data was read (which may take minutes): nothing was
/// trained, and a checkpoint `--resume` named is still the one to go on from.
fn stopped_reading(args: &TrainArgs) -> LabError {
    let out = printable_path(&args.out);
    LabError::Interrupted(match &args.resume {
        Some(path) => {
            let path = printable_path(path);
            format!(
                "while reading the data: {out} not written; the checkpoint is still {path}: \
                 go on with the same options and --resume {path}"
            )
        }
        None => format!("while reading the data, before any checkpoint: nothing written to {out}"),
    })
}

/// Adds the samples of a `selfplay` data file. Only a regular file of at most
/// [`MAX_DATA_BYTES`] is read (a FIFO or a device is refused before it is opened), only
/// as far as its size when opened, a line at a time of at most [`MAX_LINE_BYTES`].
/// False when the `interrupt` stopped it (looked at every line, so it stops at once).
fn read_data(
    path: &Path,
    samples: &mut Vec<Sample>,
    interrupt: &Interrupt,
) -> Result<bool, LabError> {
    let fail = |why: String| LabError::DataFile("--data", path.to_path_buf(), why);
    let (file, size) = open_regular(path).map_err(|e| fail(io_why(&e)))?;
    if size > MAX_DATA_BYTES {
        return Err(fail(format!(
            "it is {} MB, more than training data can be ({} MB at most)",
            size >> 20,
            MAX_DATA_BYTES >> 20
        )));
    }
    let mut reader = BufReader::new(file.take(size));
    let mut line = Vec::new();
    for n in 1.. {
        if interrupt.is_raised() {
            return Ok(false);
        }
        line.clear();
        let read = (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut line)
            .map_err(|e| fail(format!("line {n}: {e}")))?;
        if read == 0 {
            break;
        }
        if line.len() > MAX_LINE_BYTES {
            return Err(fail(format!(
                "line {n} is longer than {MAX_LINE_BYTES} bytes: not training data"
            )));
        }
        let Ok(text) = std::str::from_utf8(&line) else {
            return Err(fail(format!("line {n} is not text: not training data")));
        };
        if text.trim().is_empty() {
            continue;
        }
        let sample = Sample::from_line(text.trim_end_matches(['\n', '\r']))
            .map_err(|e| fail(format!("line {n}: {e}")))?;
        samples.push(sample);
    }
    Ok(true)
}

/// Adds the quiet positions of every game of a PDN file that has a result and
/// replays; returns how many games were used and how many left out (`None` when the
/// `interrupt` stopped it, looked at every game).
fn read_games(
    path: &Path,
    samples: &mut Vec<Sample>,
    interrupt: &Interrupt,
) -> Result<Option<(usize, usize)>, LabError> {
    let games = crate::store::file_games(path)
        .map_err(|e| LabError::DataFile("--pdn", path.to_path_buf(), store_why(path, &e)))?;
    let (mut used, mut skipped) = (0, 0);
    for game in games {
        if interrupt.is_raised() {
            return Ok(None);
        }
        let Ok(game) = game else {
            skipped += 1;
            continue;
        };
        let black_result = match game.result.as_deref() {
            Some("1-0") => 1.0,
            Some("0-1") => 0.0,
            Some("1/2-1/2") => 0.5,
            _ => {
                skipped += 1;
                continue;
            }
        };
        used += 1;
        let mut pos = game.start;
        for (ply, m) in game.moves.iter().enumerate() {
            let quiet = pos.capturers().is_empty() && pos.count_moves() > 1;
            if ply >= SKIP_OPENING_PLIES && quiet {
                samples.push(Sample {
                    position: pos,
                    result: if pos.turn() == Color::Black {
                        black_result
                    } else {
                        1.0 - black_result
                    },
                    score: None,
                });
            }
            pos = pos.play_unchecked(m);
        }
    }
    Ok(Some((used, skipped)))
}
