//! `checkers-lab puzzles`: finds puzzles in master games, and checks the built-in ones.
//!
//! `--from-games` replays Marion Tinsley's tournament games (built in) and, at each
//! position of at most `--max-pieces` pieces, searches the two best moves to a fixed
//! depth with the endgame databases of `--egdb`: a position where the best move is a
//! forced win and the second is not (exactly one move wins at that depth), or where
//! the second is a forced loss and the best is level (exactly one move saves the
//! game), becomes a puzzle, written in the form of `src/puzzles/puzzles.txt`. The
//! search is single-threaded with a fresh table, so the tests repeat it exactly.
//!
//! `--check` proves every built-in puzzle as deep as asked: the databases' verdict
//! where they hold the position, else a search of `--depth` plies.

use super::LabError;
use super::error::io_why;
use crate::engine::Score;
use crate::engine::egdb::Egdb;
use crate::puzzles::proof::{proof, two_best};
use crate::puzzles::{Goal, Puzzle};
use crate::rules::{Color, Position};
use clap::Args;
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;

/// `checkers-lab puzzles`: one of `--from-games` and `--check` must be given (a usage
/// error otherwise, as clap says any missing argument).
#[derive(Debug, Args)]
#[command(group(clap::ArgGroup::new("action").required(true).args(["from_games", "check"])))]
pub(crate) struct PuzzlesArgs {
    /// Scan the built-in Tinsley games for positions where exactly one move wins or
    /// saves the game, and write each as a puzzle.
    #[arg(long, conflicts_with = "check")]
    pub(crate) from_games: bool,
    /// Prove every built-in puzzle: the databases' verdict, else a search. Exits 1 if
    /// any proof fails.
    #[arg(long)]
    pub(crate) check: bool,
    /// The endgame database folder [default: egdb in the data folder].
    #[arg(long, value_name = "DIR")]
    pub(crate) egdb: Option<PathBuf>,
    /// The search depth in plies (1-40).
    #[arg(long, default_value_t = 11, allow_negative_numbers = true, value_parser = crate::cli::whole::<u32>(1, 40))]
    pub(crate) depth: u32,
    /// Positions with more pieces than this are skipped.
    #[arg(long, default_value_t = 12, allow_negative_numbers = true, value_parser = crate::cli::whole::<u32>(2, 24))]
    pub(crate) max_pieces: u32,
    /// Read only the first N games.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::cli::at_least(1usize))]
    pub(crate) games: Option<usize>,
    /// Write the puzzles found to this file instead of standard output.
    #[arg(long, value_name = "FILE")]
    pub(crate) out: Option<PathBuf>,
}

/// What the two best moves of a position say of it, when it is a puzzle.
struct Found {
    /// The goal.
    goal: Goal,
    /// The solution line.
    line: Vec<crate::rules::Move>,
    /// The best score and the second's.
    scores: (Score, Score),
}

/// Whether `pos` is a puzzle at `depth`: exactly one move wins, or exactly one saves.
fn judge(pos: &Position, depth: u32, egdb: Option<Arc<Egdb>>) -> Option<Found> {
    if pos.legal_moves().len() < 2 {
        return None;
    }
    let lines = two_best(pos, depth, egdb);
    let [best, second] = lines.get(..2)? else {
        return None;
    };
    let goal = if best.score.is_win() && !second.score.is_win() && second.score.0 < 60 {
        Goal::Win
    } else if second.score.is_loss()
        && best.score.plies_to_end().is_none()
        && best.score.0.abs() < 40
    {
        Goal::Draw
    } else {
        return None;
    };
    // A win's line: up to the player's second move; a save is its one move.
    let plies = match goal {
        Goal::Win => best.pv.len().min(3),
        Goal::Draw => 1,
    };
    let plies = if plies % 2 == 0 { plies - 1 } else { plies };
    Some(Found {
        goal,
        line: best.pv[..plies].to_vec(),
        scores: (best.score, second.score),
    })
}

/// The puzzle's block in the form of `puzzles.txt`.
fn block(puzzle: &Puzzle) -> String {
    let goal = match puzzle.goal {
        Goal::Win => "win",
        Goal::Draw => "draw",
    };
    format!(
        "[{}]\ntitle = {}\nsource = {}\nkind = game\nfen = {}\ngoal = {goal}\nonly = yes\nsolution = {}\nproof = {}\n\n",
        puzzle.id,
        puzzle.title,
        puzzle.source,
        puzzle.start,
        puzzle.solution_text(),
        puzzle.proof
    )
}

/// A player's surname from a PDN name tag ("MF Tinsley" is Tinsley; "Tinsley, M." too).
fn surname(name: &str) -> String {
    match name.split_once(',') {
        Some((last, _)) => last.trim().to_string(),
        None => name.split_whitespace().last().unwrap_or("?").to_string(),
    }
}

/// Runs `checkers-lab puzzles`.
pub(crate) fn run(args: &PuzzlesArgs, out: &mut impl Write) -> Result<(), LabError> {
    // An --out file that is there already (it may be anything: the training data named
    // by mistake) is refused before the search, as every lab command's --out is, and
    // so is a FIFO or a missing folder.
    if let Some(path) = &args.out {
        crate::store::files::check_replaceable(path)
            .map_err(|e| LabError::DataFile("--out", path.clone(), io_why(&e)))?;
        super::train::refuse_existing_out(path, None)?;
        super::train::refuse_missing_folder("--out", path)?;
    }
    let dir = match &args.egdb {
        // A mistyped folder would search without the databases, hours of puzzles
        // judged by search alone: refused, as any file an option names that is not there.
        Some(dir) => match std::fs::metadata(dir) {
            Ok(meta) if meta.is_dir() => dir.clone(),
            found => {
                let why = match found {
                    Ok(_) => "it is not a folder".to_string(),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                        "no such folder".to_string()
                    }
                    Err(e) => io_why(&e),
                };
                return Err(LabError::DataFile("--egdb", dir.clone(), why));
            }
        },
        None => crate::store::egdb_dir().ok_or(LabError::NoDataFolder)?,
    };
    let (db, problems) = Egdb::open(&dir);
    for p in &problems {
        eprintln!("endgame databases: {p}; left out");
    }
    let db = Arc::new(db);
    if args.check {
        return check(args, &db, out);
    }
    let text = crate::explorer::builtin_text();
    let games: Vec<_> = crate::pdn::games(&text)
        .take(args.games.unwrap_or(usize::MAX))
        .filter_map(Result::ok)
        .collect();
    let mut written: Vec<u8> = Vec::new();
    let bar = crate::commands::progress_bar(
        games.len() as u64,
        "{elapsed_precise} [{wide_bar}] {pos}/{len} games, {msg}",
    );
    let mut seen: HashSet<Position> = HashSet::new();
    let mut found = 0usize;
    let mut searched = 0usize;
    for (number, game) in games.iter().enumerate() {
        let mut pos = game.start;
        for (ply, m) in game.moves.iter().enumerate() {
            let pieces = pos.occupied().count();
            if pieces <= args.max_pieces && seen.insert(pos) {
                searched += 1;
                if let Some(hit) = judge(&pos, args.depth, Some(db.clone())) {
                    found += 1;
                    let puzzle = game_puzzle(game, number + 1, ply, &pos, &hit, args.depth, *m);
                    written.extend(block(&puzzle).as_bytes());
                }
            }
            pos = pos.play_unchecked(m);
        }
        bar.set_message(format!("{searched} positions searched, {found} puzzles"));
        bar.inc(1);
    }
    bar.finish();
    match &args.out {
        Some(path) => crate::store::write_atomic(path, &written)
            .map_err(|e| LabError::DataFile("--out", path.clone(), io_why(&e)))?,
        None => out.write_all(&written)?,
    }
    writeln!(
        out,
        "{} games, {searched} positions of at most {} pieces searched to depth {}: {found} puzzles",
        games.len(),
        args.max_pieces,
        args.depth
    )?;
    Ok(())
}

/// The puzzle of `pos`, reached at `ply` of game `number` (from 1), where the game went
/// on with `played`.
fn game_puzzle(
    game: &crate::pdn::PdnGame,
    number: usize,
    ply: usize,
    pos: &Position,
    hit: &Found,
    depth: u32,
    played: crate::rules::Move,
) -> Puzzle {
    let black = game.tag("Black").unwrap_or("?");
    let white = game.tag("White").unwrap_or("?");
    let mover = match pos.turn() {
        Color::Black => black,
        Color::White => white,
    };
    let event = game.tag("Event").unwrap_or("?");
    let date = game
        .tag("Date")
        .filter(|d| !d.starts_with('?'))
        .map(|d| format!(", {d}"))
        .unwrap_or_default();
    let (move_number, _) = crate::game::move_number(&game.start, ply);
    let key = hit.line[0];
    let verb = match hit.goal {
        Goal::Win => "wins",
        Goal::Draw => "saves the game",
    };
    let played_words = if played == key {
        format!("{} found it", surname(mover))
    } else {
        format!("{} played {}", surname(mover), pos.notation(&played))
    };
    Puzzle {
        id: format!("tinsley-{number:03}-{ply}"),
        title: format!(
            "{} v {}, move {move_number}",
            surname(black),
            surname(white)
        ),
        source: format!(
            "{black} (Black) v {white} (White), {event}{date}, game {number} of the built-in Tinsley collection; {played_words}"
        ),
        kind: crate::puzzles::Kind::Game,
        start: *pos,
        goal: hit.goal,
        only_move: true,
        solution: hit.line.clone(),
        proof: format!(
            "search to depth {depth} with the 4-piece databases: {} {verb} ({}), the next best move {}",
            pos.notation(&key),
            hit.scores.0,
            match hit.goal {
                Goal::Win => format!("does not ({})", hit.scores.1),
                Goal::Draw => format!("loses ({})", hit.scores.1),
            }
        ),
        hint: None,
        explanation: None,
    }
}

/// Proves every built-in puzzle with the databases `db` or a search of `args.depth`,
/// a line each.
fn check(args: &PuzzlesArgs, db: &Arc<Egdb>, out: &mut impl Write) -> Result<(), LabError> {
    let mut failed = 0;
    for puzzle in crate::puzzles::builtin() {
        let verdict = proof(puzzle, args.depth, db);
        if verdict.starts_with("FAILED") {
            failed += 1;
        }
        writeln!(out, "{:<32} {}", puzzle.id, verdict)?;
    }
    writeln!(out, "{failed} failed")?;
    // A failed proof fails the command, for a script or a CI job to see.
    match failed {
        0 => Ok(()),
        n => Err(LabError::PuzzlesFailed(n)),
    }
}
