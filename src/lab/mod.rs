//! The lab: the engine's workshop, apart from the player's program. It builds only with
//! the `lab` feature, as the `checkers-lab` binary:
//!
//! ```sh
//! cargo run --release --features lab --bin checkers-lab -- match --level 10 --level 9
//! ```
//!
//! - [`matches`](mod@matches): games between two engines (levels, search parameters, networks, or
//!   another program speaking the CheckerBoard protocol through a wrapper, see
//!   [`opponent`]) from the ACF ballots, with an Elo estimate by games and by pairs, and
//!   SPRT ([`rating`]);
//! - [`selfplay`] and [`games`]: fast games of the computer against itself, their quiet
//!   positions written as training data;
//! - [`train`], [`training`] and [`net_training`]: the pattern table and the network
//!   fitted to that data;
//! - [`book`]: the opening book built from deep searches.
//!
//! The lab's notebook, [`notes`], says how each is run and what the runs gave: the
//! ladder of levels, the evaluation's generations, the search's trials, the matches
//! against other engines.

pub mod book;
pub mod cli;
mod error;
pub mod games;
pub mod matches;
pub mod net_training;
#[doc = include_str!("notes.md")]
pub mod notes {}
pub mod opponent;
pub mod rating;
pub mod selfplay;
pub mod train;
pub mod training;

pub use error::{LabError, exit};

use cli::{LabCli, LabCommand};

/// Runs what the lab's command line `cli` asks for.
pub fn run(cli: LabCli) -> Result<(), LabError> {
    let out = &mut std::io::stdout().lock();
    match cli.command {
        LabCommand::Match(args) => matches::run(&args, out),
        LabCommand::Selfplay(args) => selfplay::run(&args, out),
        LabCommand::Train(args) => train::run(&args, out),
        LabCommand::Book(args) => book::run(&args, out),
    }
}
