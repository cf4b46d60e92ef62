//! `checkers-lab selfplay`: training data from fast games of the computer against itself.

use super::LabError;
use super::cli::SelfplayArgs;
use super::error::io_why;
use super::games::{SelfplayOptions, play_game};
use super::interrupt::Interrupt;
use super::training::Sample;
use crate::engine::{Engine, Opening, acf_openings};
use crate::store::files::LineFile;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::Instant;

/// The progress bar of `selfplay` (its bar as wide as the terminal leaves room for, so
/// that the line fits 80 columns).
pub(crate) const SELFPLAY_BAR: &str =
    "selfplay [{wide_bar}] {pos}/{len} games {msg} (elapsed {elapsed}, left {eta})";

/// Runs `checkers-lab selfplay`: games on every core, each game's positions added to the
/// file as the game ends, a progress bar on standard error, and a summary (games,
/// positions, positions a minute) at the end. Ctrl-C finishes the games in progress,
/// adds them, and says how to play more without playing the same games again.
pub(crate) fn run(args: &SelfplayArgs, out: &mut impl Write) -> Result<(), LabError> {
    play(
        args,
        &Interrupt::watch("finishing the games in progress"),
        out,
    )
}

/// Plays the self-play games of `args` as [`run`] says, until the `interrupt`.
pub(crate) fn play(
    args: &SelfplayArgs,
    interrupt: &Interrupt,
    out: &mut impl Write,
) -> Result<(), LabError> {
    let network = match &args.net {
        Some(path) => Some(super::train::read_network("--net", path)?),
        None => None,
    };
    // A FIFO or a device is refused here, before any game is played, and so is a file
    // of something else, which adding lines would damage.
    check_training_data(&args.out)?;
    super::train::refuse_missing_folder("--out", &args.out)?;
    refuse_seed_played(args)?;
    let file = LineFile::open(&args.out)
        .map_err(|e| LabError::DataFile("--out", args.out.clone(), io_why(&e)))?;
    record_seed(args)?;
    // Barred ballots are lost by force: games from them teach little.
    let openings: Vec<Opening> = acf_openings()
        .into_iter()
        .filter(|o| !o.is_barred())
        .collect();
    let options = SelfplayOptions {
        nodes: args.nodes,
        deep_nodes: args.deep_nodes,
        deep_pieces: args.deep_pieces,
        evaluation: args.eval.into(),
        network,
        ..SelfplayOptions::default()
    };
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let games = args.games as usize;
    let bar = crate::commands::progress_bar(games as u64, SELFPLAY_BAR);
    let started = Instant::now();
    let next = AtomicUsize::new(0);
    let (send, receive) = mpsc::channel();
    let (mut positions, mut wins, mut draws) = (0usize, 0usize, 0usize);
    let written = std::thread::scope(|scope| -> Result<(), LabError> {
        for _ in 0..threads.min(games) {
            let send = send.clone();
            let (next, openings, options) = (&next, &openings, &options);
            scope.spawn(move || {
                let mut engine = Engine::new(if args.deep_nodes.is_some() { 16 } else { 4 });
                while !interrupt.is_raised() {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= games {
                        break;
                    }
                    let opening = &openings[index % openings.len()];
                    let seed = args.seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ index as u64;
                    let game = play_game(&mut engine, opening, seed, options);
                    if send.send(game).is_err() {
                        break;
                    }
                }
            });
        }
        drop(send);
        for game in receive {
            let result = match game.winner {
                None => 0.5,
                Some(_) => 1.0,
            };
            let mut lines = String::new();
            for scored in &game.positions {
                let to_move_won = match game.winner {
                    None => result,
                    Some(w) => f32::from(u8::from(w == scored.position.turn())),
                };
                let sample = Sample {
                    position: scored.position,
                    result: to_move_won,
                    score: Some(scored.score),
                };
                lines.push_str(&sample.to_line());
                lines.push('\n');
            }
            // A whole game at a time, all or nothing: stopped by Ctrl-C or a full disk,
            // the file ends with a whole line.
            file.append(&lines)
                .map_err(|e| LabError::DataFile("--out", args.out.clone(), io_why(&e)))?;
            positions += game.positions.len();
            if game.winner.is_some() {
                wins += 1;
            } else {
                draws += 1;
            }
            bar.inc(1);
            bar.set_message(format!("{positions} positions"));
        }
        Ok(())
    });
    bar.finish_and_clear();
    written?;
    let elapsed = started.elapsed();
    let minutes = elapsed.as_secs_f64() / 60.0;
    let played = wins + draws;
    let out_name = crate::text::printable_path(&args.out);
    writeln!(
        out,
        "{played} games ({wins} won, {draws} drawn), {positions} positions in {} ({:.0} positions a minute) added to {out_name}",
        time_taken(elapsed),
        positions as f64 / minutes.max(1e-9),
    )?;
    if interrupt.is_raised() {
        // Game n's seed comes from --seed and n: the same seed plays the same games.
        return Err(LabError::Interrupted(format!(
            "{played} of {games} games added to {out_name}; to add the other {}, run \
             again with another --seed (such as --seed {}): the same seed plays the same \
             games again",
            games - played,
            fresh_seed(&[seeds_played(&args.out), vec![args.seed]].concat())
        )));
    }
    Ok(())
}

/// The file beside `out` that lists the `--seed` of each run that added games to it,
/// one a line (`OUT.seeds`).
pub(crate) fn seeds_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".seeds");
    name.into()
}

/// The seeds whose games `out` holds: none when it is missing or empty (a fresh file,
/// whatever an old seeds file says).
fn seeds_played(out: &Path) -> Vec<u64> {
    if std::fs::metadata(out).map_or(true, |m| m.len() == 0) {
        return Vec::new();
    }
    let text = crate::store::files::read_bounded(&seeds_path(out), 1 << 20).unwrap_or_default();
    String::from_utf8_lossy(&text)
        .lines()
        .filter_map(|line| line.trim().parse().ok())
        .collect()
}

/// A seed none of `played` is: the one after the highest.
fn fresh_seed(played: &[u64]) -> u64 {
    let mut seed = played.iter().max().map_or(1, |s| s.wrapping_add(1));
    while played.contains(&seed) {
        seed = seed.wrapping_add(1);
    }
    seed
}

/// A time taken as a report says it: seconds under a minute ("in 12.3 s", where "in
/// 0.2 min" said little), minutes from there.
fn time_taken(elapsed: std::time::Duration) -> String {
    match elapsed.as_secs_f64() {
        s if s < 59.95 => format!("{s:.1} s"),
        s => format!("{:.1} min", s / 60.0),
    }
}

/// Refuses a `--seed` whose games `--out` holds already: the same seed plays the same
/// games, so they would be added twice (training data weighted twice over, for nothing).
fn refuse_seed_played(args: &SelfplayArgs) -> Result<(), LabError> {
    let played = seeds_played(&args.out);
    if !played.contains(&args.seed) {
        return Ok(());
    }
    Err(LabError::DataFile(
        "--out",
        args.out.clone(),
        format!(
            "holds the games of --seed {} already ({} lists the seeds that added to it): \
             the same seed plays the same games again; give another, such as --seed {}",
            args.seed,
            crate::text::printable_path(&seeds_path(&args.out)),
            fresh_seed(&played)
        ),
    ))
}

/// Adds `--seed` to the seeds file of `--out` (started afresh with a fresh `--out`),
/// before its first game is added.
fn record_seed(args: &SelfplayArgs) -> Result<(), LabError> {
    use std::io::Write as _;
    let path = seeds_path(&args.out);
    let fresh = std::fs::metadata(&args.out).map_or(true, |m| m.len() == 0);
    let mut options = std::fs::OpenOptions::new();
    options.create(true);
    if fresh {
        options.write(true).truncate(true);
    } else {
        options.append(true);
    }
    options
        .open(&path)
        .and_then(|mut file| writeln!(file, "{}", args.seed))
        .map_err(|e| LabError::DataFile("--out", path, io_why(&e)))
}

/// Checks that `path`, if it is there, is training data (its first line that is not
/// blank a position, score and result) for `selfplay` to add to: a network, a book or
/// a PDN file given by mistake is left alone (adding lines would cut a file that does
/// not end with a newline back to its last one).
fn check_training_data(path: &std::path::Path) -> Result<(), LabError> {
    use std::io::Read;
    /// How much of the file's start is looked at: blank lines may come first.
    const HEAD_BYTES: u64 = 64 << 10;
    let fail = |why: String| LabError::DataFile("--out", path.to_path_buf(), why);
    let (file, size) = match crate::store::files::open_regular(path) {
        Ok(opened) => opened,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(fail(io_why(&e))),
    };
    let mut head = Vec::new();
    file.take(HEAD_BYTES.min(size))
        .read_to_end(&mut head)
        .map_err(|e| fail(e.to_string()))?;
    let whole = head.len() as u64 == size;
    let mut lines = head.split(|&b| b == b'\n').enumerate().peekable();
    while let Some((n, line)) = lines.next() {
        // A line the head cuts short is not judged.
        let complete = lines.peek().is_some() || whole;
        if !complete || line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let not_data = |why: String| {
            fail(format!(
                "is not training data (line {}: {why}): --out adds positions to a file of \
                 them only; give another name",
                n + 1
            ))
        };
        let Ok(text) = std::str::from_utf8(line) else {
            return Err(not_data("not text".to_string()));
        };
        return Sample::from_line(text.trim_end_matches('\r'))
            .map(drop)
            .map_err(|e| not_data(e.to_string()));
    }
    Ok(())
}
