//! `checkers hub`: the engine for another program, through the Hub protocol (see the
//! `hub` module).

use super::CommandError;
use crate::cli::HubArgs;
use std::io::Write;

/// Runs `checkers hub`: speaks the protocol on standard input and `out` until `quit`
/// or the end of the input.
pub(crate) fn run(args: &HubArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let settings = crate::hub::Settings {
        threads: args.threads,
        hash_mb: args.hash,
    };
    crate::hub::serve(settings, out).map_err(CommandError::Output)
}
