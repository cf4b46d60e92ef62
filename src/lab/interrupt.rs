//! Ctrl-C in the lab's long commands (`selfplay`, `train --model net`, `match`,
//! `book`): hours of work must not go with it. The first interrupt (SIGINT, SIGTERM or
//! SIGHUP) raises a flag that the command looks at where it can stop cleanly: it keeps
//! what it has done (the games written, the checkpoint, the table so far, the book so
//! far) and says how to go on. A second interrupt ends the process at once.

use crate::engine::StopFlag;
use std::sync::atomic::{AtomicBool, Ordering};

/// Whether the commands watch for interrupts: only in the `checkers-lab` process. The
/// tests that run commands in-process leave Ctrl-C to end the test run at once.
static SIGNALS_WATCHED: AtomicBool = AtomicBool::new(false);

/// Lets the commands of this process watch for interrupts ([`Interrupt::watch`]).
pub(crate) fn watch_signals_in_this_process() {
    SIGNALS_WATCHED.store(true, Ordering::Relaxed);
}

/// The exit status of a command stopped by an interrupt: 128 + SIGINT's number, as
/// shells expect of Ctrl-C.
pub(crate) const INTERRUPTED_STATUS: u8 = 130;

/// Whether the user asked a lab command to stop. Its flag also stops the searches
/// that watch it (those of `book`).
#[derive(Clone, Debug, Default)]
pub(crate) struct Interrupt {
    /// Raised by the first interrupt.
    flag: StopFlag,
}

impl Interrupt {
    /// An interrupt no signal raises (for the commands' tests, which raise it
    /// themselves or not at all).
    #[cfg(test)]
    pub(crate) fn none() -> Interrupt {
        Interrupt::default()
    }

    /// Watches for interrupts from now on: the first raises the flag and says on
    /// standard error what the command does now (`stopping`, such as "finishing the
    /// games in progress", at most 33 characters for the line to fit 80 columns); the
    /// second ends the process. Where the signals cannot be
    /// watched (or outside the `checkers-lab` process), they end the process as
    /// before.
    pub(crate) fn watch(stopping: &'static str) -> Interrupt {
        let interrupt = Interrupt::default();
        #[cfg(unix)]
        if SIGNALS_WATCHED.load(Ordering::Relaxed) {
            use signal_hook::consts::signal::{SIGHUP, SIGINT, SIGTERM};
            let flag = interrupt.flag.clone();
            let _ = crate::signals::watch(&[SIGINT, SIGTERM, SIGHUP], move |_| {
                if flag.is_stopped() {
                    std::process::exit(i32::from(INTERRUPTED_STATUS));
                }
                flag.stop();
                // On a line of its own, below a progress bar; a closed terminal
                // (SIGHUP) cannot take it, and the work is kept all the same.
                use std::io::Write;
                let _ = writeln!(
                    std::io::stderr(),
                    "\ncheckers-lab: interrupted: {stopping} (Ctrl-C again quits)"
                );
            });
        }
        #[cfg(not(unix))]
        let _ = stopping;
        interrupt
    }

    /// Raises the flag, as the first interrupt does.
    #[cfg(test)]
    pub(crate) fn raise(&self) {
        self.flag.stop();
    }

    /// Whether an interrupt came.
    pub(crate) fn is_raised(&self) -> bool {
        self.flag.is_stopped()
    }

    /// The flag as a search's stop flag: an interrupt stops the search at once.
    pub(crate) fn stop_flag(&self) -> &StopFlag {
        &self.flag
    }
}
