//! The lab: the engine's workshop, apart from the player's program. It builds only with
//! the `lab` feature, as the `checkers-lab` binary:
//!
//! ```sh
//! cargo run --release --features lab --bin checkers-lab -- match --level 10 --level 9
//! ```
//!
//! - `matches`: games between two engines (levels, search parameters, networks, or
//!   another program speaking the CheckerBoard protocol through a wrapper, see
//!   `opponent`) from the ACF ballots, with an Elo estimate by games and by pairs, and
//!   SPRT (`rating`);
//! - `selfplay` and `games`: fast games of the computer against itself, their quiet
//!   positions written as training data;
//! - `train`, `training` and `net_training`: the pattern table and the network
//!   fitted to that data;
//! - `book`: the opening book built from deep searches;
//! - `puzzles`: puzzles found in master games, and the built-in ones proven;
//! - [`bench`](mod@bench): what the benchmarks time of the crate's insides.
//!
//! The lab's notebook, [`notes`], says how each is run and what the runs gave: the
//! ladder of levels, the evaluation's generations, the search's trials, the matches
//! against other engines.

pub mod bench;
pub(crate) mod book;
pub(crate) mod cli;
mod error;
pub(crate) mod games;
pub(crate) mod hub_engine;
pub(crate) mod interrupt;
pub(crate) mod load;
pub(crate) mod matches;
pub(crate) mod net_training;
#[doc = include_str!("notes.md")]
pub mod notes {}
pub(crate) mod opponent;
pub(crate) mod puzzles;
pub(crate) mod rating;
pub(crate) mod selfplay;
pub(crate) mod train;
pub(crate) mod training;

pub(crate) use error::{LabError, exit};

use cli::{LabCli, LabCommand};

/// The `checkers-lab` program as one call: parses the process's command line, runs it,
/// prints how it ended and gives the exit status.
pub fn main() -> std::process::ExitCode {
    interrupt::watch_signals_in_this_process();
    crate::commands::main_of(|cli: LabCli| match cli.check() {
        // A usage error clap's rules could not see: said as clap says its own, status 2.
        Err(usage) => crate::commands::Exit {
            code: 2,
            message: Some(crate::text::printable_lines(
                usage.render().to_string().trim_end(),
                8192,
            )),
        },
        Ok(()) => exit(&run(cli)),
    })
}

/// Runs what the lab's command line `cli` asks for, writing its report to standard
/// output.
fn run(cli: LabCli) -> Result<(), LabError> {
    run_to(cli, &mut std::io::stdout().lock())
}

/// Runs what the lab's command line `cli` asks for, writing its report to `out`.
fn run_to(cli: LabCli, out: &mut impl std::io::Write) -> Result<(), LabError> {
    match cli.command {
        LabCommand::Match(args) => matches::run(&args, out),
        LabCommand::Selfplay(args) => selfplay::run(&args, out),
        LabCommand::Train(args) => train::run(&args, out),
        LabCommand::Book(args) => book::run(&args, out),
        LabCommand::Load(args) => load::run(&args, out),
        LabCommand::Puzzles(args) => puzzles::run(&args, out),
    }
}

#[cfg(test)]
mod tests;
