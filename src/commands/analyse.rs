//! `checkers analyse`: search a position and report each completed depth, with the
//! endgame databases of the data folder when there are any.

use super::CommandError;
use crate::cli::AnalyseArgs;
use crate::engine::egdb::Egdb;
use crate::engine::{ClockLimits, Engine, Limits, SearchRequest, StopFlag, line_notation};
use crate::rules::{Color, Outcome, Position, WinReason};
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// How long `analyse` searches when given neither `--depth` nor `--movetime`.
pub(crate) const DEFAULT_MOVETIME: Duration = Duration::from_millis(3000);

/// The search limits of `args`: `--depth`, else `--movetime`, else a clock with
/// `--time-left` (the engine plans the time), else [`DEFAULT_MOVETIME`] for a position
/// or [`DEFAULT_GAME_MOVETIME`] for each position of a `--load` game.
pub(crate) fn limits(args: &AnalyseArgs) -> Limits {
    let default = if args.load.is_some() {
        DEFAULT_GAME_MOVETIME
    } else {
        DEFAULT_MOVETIME
    };
    match (args.depth, args.movetime, args.time_left) {
        (Some(depth), _, _) => Limits::depth(depth),
        (None, None, Some(time_left)) => Limits::on_clock(ClockLimits {
            increment: args.increment.unwrap_or_default(),
            moves_to_go: args.moves_to_go,
            ..ClockLimits::sudden_death(time_left)
        }),
        (None, movetime, _) => Limits {
            movetime: Some(movetime.unwrap_or(default)),
            ..Limits::infinite()
        },
    }
}

/// The threads `analyse` searches with: `--threads`, or every core of the machine.
pub(crate) fn threads(args: &AnalyseArgs) -> usize {
    args.threads.unwrap_or_else(crate::engine::machine_cores)
}

/// The search's numbers `analyse` searches with (`--search`).
pub(crate) fn params(args: &AnalyseArgs) -> crate::engine::SearchParams {
    match args.search {
        crate::cli::SearchChoice::Current => crate::engine::SearchParams::DEFAULT,
        crate::cli::SearchChoice::Candidate => crate::engine::SearchParams::CANDIDATE,
    }
}

/// Runs `checkers analyse` (with `--load`, through a recorded game: see `run_game`):
/// in a position the endgame databases hold, first `endgame database: White wins in 23 moves`
/// (or `drawn`); then one line per completed depth (depth,
/// score, nodes, nodes per second, time, principal variation), with `--multipv` the
/// best lines (see `write_lines`), then `bestmove MOVE`. A
/// position with no legal move is an error naming the outcome. A damaged database file
/// is named on a `warning:` line and left out.
pub(crate) fn run(args: &AnalyseArgs, out: &mut impl Write) -> Result<(), CommandError> {
    if let Some(path) = &args.load {
        let (record, fault) = crate::store::load_record_up_to_fault(path, args.game as usize)
            .map_err(CommandError::GameOption)?;
        // A record with a faulty move is studied up to it, said first.
        if let Some(fault) = fault {
            let moves = crate::game::full_moves(&record.start, record.moves.len());
            writeln!(
                out,
                "{}: {fault}\n(a move that cannot be played: {} searched)",
                crate::text::printable_path(&crate::store::shown_path(path)),
                if moves == 1 {
                    "the move before it is".to_string()
                } else {
                    format!("the {moves} moves before it are")
                }
            )?;
        }
        if args.report {
            return run_report(args, &record, out);
        }
        let egdb = open_databases(out)?;
        return run_game(args, &record, egdb, out);
    }
    let pos = args.fen.unwrap_or_else(Position::start);
    if let Some(outcome) = pos.outcome() {
        return Err(CommandError::GameOver(outcome));
    }
    let mut engine = Engine::new(args.hash);
    let egdb = open_databases(out)?;
    if let Some(verdict) = egdb.as_ref().and_then(|db| db.probe(&pos)) {
        writeln!(out, "endgame database: {}", verdict.describe(pos.turn()))?;
    }
    let mut request = SearchRequest::new(pos, limits(args))
        .with_egdb(egdb)
        .with_evaluation(args.eval.map(Into::into).unwrap_or_default());
    request.threads = threads(args);
    request.params = params(args);
    let request = request.with_lines(args.multipv);
    let mut written = Ok(());
    let result = engine.search(&request, &StopFlag::new(), |info| {
        if written.is_ok() {
            written = writeln!(
                out,
                "depth {} score {} nodes {} nps {} time {} ms pv {}",
                info.depth,
                info.score,
                info.nodes,
                info.nodes_per_second(),
                info.elapsed.as_millis(),
                line_notation(&pos, &info.pv)
            );
        }
    });
    written?;
    let Some(best) = result.best_move else {
        // Unreachable: a position with no legal move was refused above.
        return Err(CommandError::GameOver(pos.outcome().unwrap_or(
            Outcome::Win {
                winner: !pos.turn(),
                reason: WinReason::NoMoves,
            },
        )));
    };
    if args.multipv > 1 {
        write_lines(&pos, &result, request.egdb.as_deref(), out)?;
    }
    if pos.legal_moves().len() == 1 {
        writeln!(out, "only move {}", pos.notation(&best))?;
    }
    writeln!(out, "bestmove {}", pos.notation(&best))?;
    Ok(())
}

/// `analyse --multipv`: each of the result's lines in score order, `line 1 depth 12
/// score 15 (even) pv 11-15 22-18`, its score also in men naming the side it favours,
/// and `; endgame database: drawn` where the databases hold the position after its move.
fn write_lines(
    pos: &Position,
    result: &crate::engine::SearchResult,
    egdb: Option<&Egdb>,
    out: &mut impl Write,
) -> Result<(), CommandError> {
    for (i, line) in result.lines.iter().enumerate() {
        let mut text = format!(
            "line {} depth {} score {} ({}) pv {}",
            i + 1,
            result.depth,
            line.score,
            crate::session::score_with_size(pos.turn(), line.score),
            line_notation(pos, &line.pv)
        );
        let after = line.pv.first().map(|m| pos.play_unchecked(m));
        if let Some((db, after)) = egdb.zip(after)
            && let Some(verdict) = db.probe(&after)
        {
            text.push_str(&format!(
                "; endgame database: {}",
                verdict.describe(after.turn())
            ));
        }
        writeln!(out, "{text}")?;
    }
    Ok(())
}

/// The endgame databases of the data folder, if there are any; a damaged file is named
/// on a `warning:` line and left out.
fn open_databases(out: &mut impl Write) -> Result<Option<Arc<Egdb>>, CommandError> {
    let Some(dir) = crate::store::egdb_dir().filter(|dir| dir.exists()) else {
        return Ok(None);
    };
    let (db, problems) = Egdb::open(&dir);
    for problem in problems {
        writeln!(
            out,
            "warning: endgame database left out: {}",
            crate::text::printable(&problem.to_string(), crate::text::MAX_PATH_CHARS)
        )?;
    }
    Ok((db.slices() > 0).then(|| Arc::new(db)))
}

/// Text from a game's file (a name, a result) as the command prints it: no control
/// character, so no escape sequence reaches the terminal, and a long name cut short.
fn shown(text: &str) -> String {
    crate::text::printable(text, crate::report::words::SHOWN_NAME_CHARS)
}

/// How long `analyse --load` searches each position when given neither `--depth` nor
/// `--movetime`.
pub(crate) const DEFAULT_GAME_MOVETIME: Duration = Duration::from_millis(1000);

/// `analyse --load`: one line per move of `record`, searched before it is played, its
/// score in men naming the side it favours, as the game screen says it (the same
/// words whichever side is to move): `12... 9-14     White is slightly ahead by 0.4 men
/// (depth 16), best 10-14`, then where the databases hold the
/// position `; endgame database: White wins in 9 moves`, and where the move makes their
/// verdict worse for its player `; White's 9-14 threw the win away: ...`. A summary
/// line counts those moves.
fn run_game(
    args: &AnalyseArgs,
    record: &crate::pdn::PdnGame,
    egdb: Option<Arc<Egdb>>,
    out: &mut impl Write,
) -> Result<(), CommandError> {
    let limits = limits(args);
    // Text from the file reaches the terminal only printable.
    let tag = |name: &str| {
        let value = record
            .tags
            .iter()
            .find(|(n, _)| n == name)
            .map_or("?", |(_, v)| v.as_str());
        shown(value)
    };
    // Moves as the move list numbers them, one of each side's.
    let moves = crate::game::full_moves(&record.start, record.moves.len());
    writeln!(
        out,
        "game {}: {} (Black) v {} (White), {}, {moves} move{}",
        args.game,
        tag("Black"),
        tag("White"),
        shown(record.recorded_result().unwrap_or("*")),
        if moves == 1 { "" } else { "s" },
    )?;
    let mut engine = Engine::new(args.hash);
    let mut history: Vec<Position> = Vec::new();
    let mut pos = record.start;
    let mut swings = 0;
    let mut number = 1;
    for m in &record.moves {
        let mut request = SearchRequest::new(pos, limits)
            .with_egdb(egdb.clone())
            .with_evaluation(args.eval.map(Into::into).unwrap_or_default());
        request.history = history.clone();
        request.threads = threads(args);
        request.params = params(args);
        let result = engine.search(&request, &StopFlag::new(), |_| {});
        let dots = match pos.turn() {
            Color::Black => ".",
            Color::White => "...",
        };
        // The moves in a column, whichever side made them.
        let mut line = format!(
            "{:<6}{:<9}{} (depth {})",
            format!("{number}{dots}"),
            pos.notation(m),
            crate::session::score_with_size(pos.turn(), result.score),
            result.depth
        );
        if let Some(best) = result.best_move.filter(|best| best != m) {
            line.push_str(&format!(", best {}", pos.notation(&best)));
        } else if pos.legal_moves().len() == 1 {
            line.push_str(", only move");
        }
        if let Some(db) = &egdb {
            if let Some(verdict) = db.probe(&pos) {
                line.push_str(&format!(
                    "; endgame database: {}",
                    verdict.describe(pos.turn())
                ));
            }
            if let Some(swing) =
                crate::session::database_swing(|p| db.probe(p), &history, &pos, m, &pos.notation(m))
            {
                line.push_str(&format!("; {swing}"));
                swings += 1;
            }
        }
        writeln!(out, "{line}")?;
        if pos.turn() == Color::White {
            number += 1;
        }
        history.push(pos);
        pos = pos.play_unchecked(m);
    }
    match &egdb {
        Some(_) => writeln!(
            out,
            "{swings} move{} made the databases' result worse for its player",
            if swings == 1 { "" } else { "s" }
        )?,
        None => writeln!(
            out,
            "no endgame databases: build them with `checkers egdb build`"
        )?,
    }
    Ok(())
}

/// `analyse --load --report`: the game's report (see [`crate::report`]) with a
/// heading naming the game and how each position was searched, a progress bar on
/// standard error while the positions are scored (where that is a terminal), and with
/// `--out` the annotated PDN written to a new file (an existing one, or a folder that
/// does not exist, is refused before any search, so no work is lost).
fn run_report(
    args: &AnalyseArgs,
    record: &crate::pdn::PdnGame,
    out: &mut impl Write,
) -> Result<(), CommandError> {
    if let Some(path) = &args.out {
        if std::fs::symlink_metadata(path).is_ok() {
            return Err(CommandError::ReportFile(
                path.clone(),
                "the file exists; the report writes only a new file, so name another".into(),
            ));
        }
        // A mistyped folder is said before the search, as a save says it.
        crate::store::in_existing_folder(path)
            .map_err(|e| CommandError::ReportFile(path.clone(), e.to_string()))?;
    }
    let egdb = open_databases(out)?;
    let name = |tag: &str| record.tag(tag).filter(|n| !n.is_empty() && *n != "?");
    let moves = crate::game::full_moves(&record.start, record.moves.len());
    writeln!(
        out,
        "report of game {}: {} (Black) v {} (White), {}, {moves} move{}",
        args.game,
        shown(name("Black").unwrap_or("?")),
        shown(name("White").unwrap_or("?")),
        shown(record.recorded_result().unwrap_or("*")),
        if moves == 1 { "" } else { "s" },
    )?;
    let limits = limits(args);
    let searched = match (limits.depth, limits.movetime) {
        (Some(depth), _) => format!("depth {depth}"),
        (None, Some(movetime)) => format!("{} ms", movetime.as_millis()),
        (None, None) => "the clock's time".to_string(),
    };
    let held = egdb.as_ref().map_or_else(
        || "no endgame databases".to_string(),
        |db| format!("endgame databases of up to {} pieces", db.complete_pieces()),
    );
    writeln!(out, "each position searched to {searched}; {held}")?;
    let judge = crate::report::judge::Judge {
        limits,
        egdb,
        threads: threads(args),
        hash_mb: args.hash,
        params: params(args),
        evaluation: args.eval.map(Into::into).unwrap_or_default(),
    };
    let positions = record.moves.len() as u64 + 1;
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        super::progress_bar(
            positions,
            "scoring positions [{wide_bar}] {pos}/{len} ({elapsed}, {eta} left)",
        )
    } else {
        indicatif::ProgressBar::hidden()
    };
    let judged = crate::report::judge::judge_game(
        &judge,
        record.start,
        &record.moves,
        &StopFlag::new(),
        |_| bar.inc(1),
    );
    bar.finish_and_clear();
    // Nothing raises the stop flag here, so every position is judged.
    let judged = judged.unwrap_or_default();
    let report = crate::report::Report::new(record.start, &record.moves, &judged);
    let names = [name("Black"), name("White")];
    write!(out, "{}", crate::report::words::report_text(&report, names))?;
    if let Some(path) = &args.out {
        let text = crate::report::annotate::annotated_pdn(record, &report);
        // Whole or not at all: a failed write (a full disk) leaves no file to refuse
        // the next try, and a file made meanwhile is not written over.
        if let Err(e) = crate::store::files::write_new(path, text.as_bytes()) {
            let why = match e.kind() {
                std::io::ErrorKind::AlreadyExists => {
                    "the file exists; the report writes only a new file, so name another"
                        .to_string()
                }
                _ => e.to_string(),
            };
            return Err(CommandError::ReportFile(path.clone(), why));
        }
        writeln!(out, "annotated game written to {}", path.display())?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cli::{Cli, Command};
    use clap::Parser;

    fn analyse_args(words: &[&str]) -> Result<AnalyseArgs, clap::Error> {
        let words = ["checkers", "analyse"].iter().chain(words);
        match Cli::try_parse_from(words)?.command {
            Some(Command::Analyse(args)) => Ok(args),
            other => panic!("not analyse: {other:?}"),
        }
    }

    #[test]
    fn analyse_on_a_clock_plans_its_time_from_the_clock() {
        let args = analyse_args(&["--time-left", "10000", "--increment", "2000"])
            .expect("a clock is an analyse option");
        let clock = ClockLimits {
            increment: Duration::from_secs(2),
            ..ClockLimits::sudden_death(Duration::from_secs(10))
        };
        assert_eq!(limits(&args), Limits::on_clock(clock));
        // A twentieth of the ten seconds and three quarters of the increment.
        let planned = SearchRequest::new(Position::start(), limits(&args)).planned_limits();
        assert_eq!(planned.target, Some(Duration::from_millis(2000)));
        let args = analyse_args(&["--time-left", "60000", "--moves-to-go", "4"])
            .expect("moves to go with a clock");
        let planned = SearchRequest::new(Position::start(), limits(&args)).planned_limits();
        assert_eq!(planned.target, Some(Duration::from_secs(15)));
    }

    #[test]
    fn the_report_never_writes_over_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("game.pdn");
        let text = "1. 11-15 23-19 *\n";
        std::fs::write(&game, text).unwrap();
        let notes = dir.path().join("notes.pdn");
        std::fs::write(&notes, "kept").unwrap();
        // The --load file itself, and another file that exists.
        for out in [&game, &notes] {
            let words = ["--load", game.to_str().unwrap(), "--report", "--out"];
            let args = analyse_args(&[&words[..], &[out.to_str().unwrap()]].concat())
                .expect("--report --out with --load");
            let mut printed = Vec::new();
            let refused = run(&args, &mut printed).expect_err("an existing --out");
            assert!(refused.to_string().contains("the file exists"), "{refused}");
            // Refused before any search: nothing printed, the file as it was.
            assert!(printed.is_empty());
            assert_eq!(std::fs::read_to_string(&game).unwrap(), text);
            assert_eq!(std::fs::read_to_string(&notes).unwrap(), "kept");
        }
        assert!(
            analyse_args(&["--report"]).is_err(),
            "--report needs --load"
        );
        assert!(
            analyse_args(&["--load", "g.pdn", "--out", "x.pdn"]).is_err(),
            "--out needs --report"
        );
    }

    #[test]
    fn names_from_the_file_reach_the_terminal_without_escape_sequences() {
        let dir = tempfile::tempdir().unwrap();
        let game = dir.path().join("hostile.pdn");
        std::fs::write(
            &game,
            "[Event \"E\"]\n[Black \"B\x1b[31mRED\"]\n[White \"W\x1b[5mblink\"]\n\
             [Result \"*\"]\n1. 11-15 23-19 *\n",
        )
        .unwrap();
        let load = ["--load", game.to_str().unwrap(), "--depth", "1"];
        for words in [&load[..], &[&load[..], &["--report"]].concat()] {
            let args = analyse_args(words).expect("analyse --load");
            let mut printed = Vec::new();
            run(&args, &mut printed).expect("the game is analysed");
            let printed = String::from_utf8(printed).unwrap();
            assert!(!printed.contains('\x1b'), "{words:?}: {printed:?}");
            assert!(
                printed.contains("B?[31mRED (Black) v W?[5mblink (White)"),
                "{printed}"
            );
        }
    }

    #[test]
    fn a_clock_is_refused_beside_a_depth_and_an_increment_without_a_clock() {
        assert!(analyse_args(&["--time-left", "1000", "--depth", "5"]).is_err());
        assert!(analyse_args(&["--time-left", "1000", "--movetime", "500"]).is_err());
        assert!(analyse_args(&["--increment", "1000"]).is_err());
        assert!(analyse_args(&["--moves-to-go", "10"]).is_err());
    }
}
