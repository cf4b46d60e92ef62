//! Signals, watched from a thread of their own so the game can be saved (and the
//! terminal restored) before the process ends. Unix only: elsewhere there are no such
//! signals, and the autosave after every change is what keeps the game.

#[cfg(unix)]
pub(crate) use unix::*;

#[cfg(unix)]
mod unix {
    use signal_hook::consts::signal::{
        SIGALRM, SIGCONT, SIGHUP, SIGINT, SIGPIPE, SIGPROF, SIGQUIT, SIGTERM, SIGTSTP, SIGUSR1,
        SIGUSR2, SIGVTALRM, SIGWINCH, SIGXCPU, SIGXFSZ,
    };
    use signal_hook::iterator::Signals;
    use std::io;

    /// A signal number.
    pub(crate) type Signal = i32;

    /// The signals whose default action ends the process: each is caught so the game is
    /// saved and the terminal restored first, and the process then exits with the
    /// conventional status, 128 + the signal's number ([`exit_status`]). SIGXFSZ is not
    /// among them: see [`file_size_limit_as_error`].
    pub(crate) const ENDING: [Signal; 11] = [
        SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGXCPU, SIGVTALRM,
        SIGPROF,
    ];

    /// Makes a write past the file size limit (`ulimit -f`) fail with "File too large",
    /// as a full disk fails with "No space left", instead of ending the process with
    /// SIGXFSZ: the autosave then says it could not save, and play goes on. (A handler
    /// that does nothing replaces the default action.)
    pub(crate) fn file_size_limit_as_error() {
        let ignored = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let _ = signal_hook::flag::register(SIGXFSZ, ignored);
    }

    /// The stop signal of Ctrl-Z (`kill -TSTP`).
    pub(crate) const STOP: Signal = SIGTSTP;

    /// The signal of `fg` (`kill -CONT`).
    pub(crate) const CONTINUE: Signal = SIGCONT;

    /// Broken pipe: plain mode leaves it to the write that fails, which ends the
    /// session cleanly.
    pub(crate) const PIPE: Signal = SIGPIPE;

    /// The status a process ended by `signal` exits with: 128 + its number.
    pub(crate) fn exit_status(signal: Signal) -> i32 {
        128 + signal
    }

    /// Runs `handler` for each of `signals` as it arrives, one at a time, on a thread of
    /// its own (never inside the signal handler, so it may lock, write files and the
    /// terminal).
    pub(crate) fn watch(
        signals: &[Signal],
        mut handler: impl FnMut(Signal) + Send + 'static,
    ) -> io::Result<()> {
        let mut signals = Signals::new(signals)?;
        std::thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                for signal in signals.forever() {
                    handler(signal);
                }
            })?;
        Ok(())
    }

    /// Stops the process as the default action of SIGTSTP would; returns once it is
    /// continued (`fg`).
    pub(crate) fn stop_process() {
        let _ = signal_hook::low_level::emulate_default_handler(SIGTSTP);
    }

    /// Sends SIGTSTP to this process, as Ctrl-Z would outside raw mode.
    pub(crate) fn suspend_self() {
        let _ = signal_hook::low_level::raise(SIGTSTP);
    }

    /// Sends SIGWINCH to this process: the terminal library's event reader wakes up
    /// with a resize event, so the screen is drawn again.
    pub(crate) fn wake_event_reader() {
        let _ = signal_hook::low_level::raise(SIGWINCH);
    }
}
