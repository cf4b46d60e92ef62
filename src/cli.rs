//! The command line: clap derive types, and the non-interactive commands.

use crate::engine::{Engine, Limits, SearchRequest, StopFlag, line_notation};
use crate::pdn::{decode, read_games};
use crate::rules::{Position, perft, perft_divide};
use clap::{Parser, Subcommand};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// English draughts (American checkers) in the terminal.
#[derive(Debug, Parser)]
#[command(name = "checkers", version, about)]
pub struct Cli {
    /// What to do; with none, the interactive game starts.
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Count the leaf positions of the move tree to DEPTH plies (every capture route counts).
    Perft {
        /// Plies to search (0-30).
        #[arg(value_parser = clap::value_parser!(u32).range(0..=30))]
        depth: u32,
        /// Start from this position (PDN FEN, e.g. "B:W21-32:B1-12") instead of the start.
        #[arg(long, value_parser = clap::value_parser!(Position))]
        fen: Option<Position>,
        /// Also print the count under each first move.
        #[arg(long)]
        divide: bool,
        /// Threads to split the first moves over.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
    },
    /// List every legal move of a position, one per line, with every landing square.
    Moves {
        /// The position (PDN FEN); the start position if not given.
        #[arg(long, value_parser = clap::value_parser!(Position))]
        fen: Option<Position>,
    },
    /// Search a position and print what each completed depth found, then the best move.
    Analyse {
        /// The position (PDN FEN); the start position if not given.
        #[arg(long, value_parser = clap::value_parser!(Position))]
        fen: Option<Position>,
        /// Search this many plies (1-64) instead of for a time.
        #[arg(long, conflicts_with = "movetime", value_parser = clap::value_parser!(u32).range(1..=64))]
        depth: Option<u32>,
        /// Search for this many milliseconds (default 3000).
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..=86_400_000))]
        movetime: Option<u64>,
        /// Transposition table size in MB.
        #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=4096))]
        hash: u32,
    },
    /// Work with PDN game records.
    Pdn {
        /// What to do with the file.
        #[command(subcommand)]
        action: PdnCommand,
    },
}

/// The `pdn` subcommands.
#[derive(Debug, Subcommand)]
pub enum PdnCommand {
    /// Read and replay every game of FILE; report each faulty game, then a summary.
    /// Exits 0 only if every game replays.
    Check {
        /// The PDN file.
        file: PathBuf,
    },
}

/// Runs `checkers perft`, writing the report to `out`.
pub fn run_perft(
    out: &mut impl Write,
    pos: &Position,
    depth: u32,
    divide: bool,
    threads: usize,
) -> io::Result<()> {
    let started = Instant::now();
    let total = if divide || threads > 1 {
        let split = perft_divide(pos, depth, threads);
        if divide {
            for (m, n) in &split {
                writeln!(out, "{m} {n}")?;
            }
        }
        if depth == 0 {
            1
        } else {
            split.iter().map(|(_, n)| n).sum()
        }
    } else {
        perft(pos, depth)
    };
    let seconds = started.elapsed().as_secs_f64();
    writeln!(out, "{total}")?;
    let per_second = if seconds > 0.0 {
        (total as f64 / seconds) as u64
    } else {
        0
    };
    writeln!(out, "time {seconds:.3} s, {per_second} nodes/s")?;
    Ok(())
}

/// Runs `checkers moves`: every legal move, sorted, each with all its landing squares.
pub fn run_moves(out: &mut impl Write, pos: &Position) -> io::Result<()> {
    for m in pos.legal_moves() {
        writeln!(out, "{m}")?;
    }
    Ok(())
}

/// The result of `checkers pdn check`: how many games, how many replayed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CheckSummary {
    /// Games in the file.
    pub games: usize,
    /// Games that replayed to their end.
    pub replayed: usize,
}

/// Runs `checkers pdn check FILE`: each faulty game on a line of `out`, then
/// `N games: K replayed, E with errors`. A file that cannot be read is an error naming it.
pub fn run_pdn_check(out: &mut impl Write, file: &Path) -> Result<CheckSummary, CliError> {
    let bytes = std::fs::read(file).map_err(|e| CliError::File(file.to_path_buf(), e))?;
    let games = read_games(&decode(&bytes));
    let mut replayed = 0;
    for game in &games {
        match game {
            Ok(_) => replayed += 1,
            Err(e) => writeln!(out, "{e}").map_err(CliError::Output)?,
        }
    }
    let errors = games.len() - replayed;
    writeln!(
        out,
        "{} games: {replayed} replayed, {errors} with errors",
        games.len()
    )
    .map_err(CliError::Output)?;
    Ok(CheckSummary {
        games: games.len(),
        replayed,
    })
}

/// Runs `checkers analyse`: one line per completed depth (depth, score, nodes, nodes
/// per second, time, principal variation), then `bestmove MOVE`. A position with no
/// legal move is an error naming the outcome.
pub fn run_analyse(
    out: &mut impl Write,
    pos: &Position,
    limits: Limits,
    hash_mb: usize,
) -> Result<(), CliError> {
    if let Some(outcome) = pos.outcome() {
        return Err(CliError::GameOver(outcome));
    }
    let mut engine = Engine::new(hash_mb);
    let request = SearchRequest::new(*pos, limits);
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
                line_notation(pos, &info.pv)
            );
        }
    });
    written.map_err(CliError::Output)?;
    let Some(best) = result.best_move else {
        // Unreachable: a position with no legal move was refused above.
        return Err(CliError::GameOver(pos.outcome().unwrap_or(
            crate::rules::Outcome::Win {
                winner: !pos.turn(),
                reason: crate::rules::WinReason::NoMoves,
            },
        )));
    };
    if result.depth == 0 {
        writeln!(out, "only move {}", pos.notation(&best)).map_err(CliError::Output)?;
    }
    writeln!(out, "bestmove {}", pos.notation(&best)).map_err(CliError::Output)?;
    Ok(())
}

/// A command that could not be carried out.
#[derive(Debug)]
pub enum CliError {
    /// The position given is already decided: the side to move has no legal move.
    GameOver(crate::rules::Outcome),
    /// A file could not be read or written.
    File(PathBuf, io::Error),
    /// Standard output could not be written.
    Output(io::Error),
}

impl std::fmt::Display for CliError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CliError::File(path, e) => write!(f, "cannot read {}: {e}", path.display()),
            CliError::Output(e) => write!(f, "cannot write the output: {e}"),
            CliError::GameOver(outcome) => {
                write!(f, "the game is over, there is no move to find: {outcome}")
            }
        }
    }
}

impl std::error::Error for CliError {}
