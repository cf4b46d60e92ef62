//! What the program does with its command line: one runner per subcommand, the
//! interactive game ([`play`]) when there is none, and [`exit`], which decides the exit
//! code and message of every outcome.
//!
//! Each runner takes its typed arguments from [`cli`](crate::cli) and, for the
//! line-oriented commands, the output to write to (standard output in the program, a
//! buffer in tests).

pub(crate) mod analyse;
pub(crate) mod book;
pub(crate) mod egdb;
mod error;
pub(crate) mod explore;
pub(crate) mod games;
pub(crate) mod hub;
pub(crate) mod manual;
pub(crate) mod moves;
pub(crate) mod network;
pub(crate) mod pdn;
pub(crate) mod perft;
pub(crate) mod play;
pub(crate) mod preferences;
pub(crate) mod puzzle;
mod puzzle_check;
pub(crate) mod records;

pub(crate) use error::{CommandError, Exit, exit};

use crate::cli::{Cli, Command};

/// A progress bar on standard error for a long command: `template` in indicatif's
/// terms, drawn twice a second.
pub(crate) fn progress_bar(len: u64, template: &str) -> indicatif::ProgressBar {
    let bar = indicatif::ProgressBar::new(len);
    // Hidden where standard error is no terminal (or TERM=dumb), as indicatif decides.
    if !bar.is_hidden() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::term_like_with_hz(
            Box::new(EchoRoom::new(std::io::stderr(), terminal_width)),
            20,
        ));
    }
    bar.set_style(progress_style(template));
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    bar
}

/// The terminal's width in columns (80 where it cannot be told).
fn terminal_width() -> u16 {
    crossterm::terminal::size().map_or(80, |(width, _)| width)
}

/// A progress bar's terminal, said to be two columns narrower than it is. indicatif
/// pads the bar's line to the terminal's width, which leaves the cursor past the last
/// column: the `^C` a terminal echoes for Ctrl-C then wrapped to a new line, the bar
/// cleared was that line, and the bar's last state stayed above the words printed
/// after it ("interrupted: ..."). Two columns free hold the `^C` on the bar's line.
#[derive(Debug)]
struct EchoRoom<W: std::io::Write + Send + std::fmt::Debug> {
    /// What is written, kept until a flush (one write a frame, as indicatif's own).
    out: std::sync::Mutex<(W, Vec<u8>)>,
    /// The terminal's real width.
    width: fn() -> u16,
}

/// Columns kept free at the end of the bar's line: the `^C` echoed for Ctrl-C.
const ECHO_ROOM: u16 = 2;

impl<W: std::io::Write + Send + std::fmt::Debug> EchoRoom<W> {
    /// A terminal writing to `out`, `width` columns wide.
    fn new(out: W, width: fn() -> u16) -> EchoRoom<W> {
        EchoRoom {
            out: std::sync::Mutex::new((out, Vec::new())),
            width,
        }
    }

    /// Adds `text` to what the next flush writes.
    fn put(&self, text: &str) -> std::io::Result<()> {
        let mut out = self
            .out
            .lock()
            .map_err(|_| std::io::Error::other("progress bar poisoned"))?;
        out.1.extend_from_slice(text.as_bytes());
        Ok(())
    }

    /// The control sequence moving the cursor `n` times by `code` (none for 0).
    fn moved(&self, n: usize, code: char) -> std::io::Result<()> {
        match n {
            0 => Ok(()),
            n => self.put(&format!("\x1b[{n}{code}")),
        }
    }
}

impl<W: std::io::Write + Send + std::fmt::Debug> indicatif::TermLike for EchoRoom<W> {
    fn width(&self) -> u16 {
        (self.width)().saturating_sub(ECHO_ROOM).max(1)
    }

    fn height(&self) -> u16 {
        crossterm::terminal::size().map_or(24, |(_, height)| height)
    }

    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        self.moved(n, 'A')
    }

    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        self.moved(n, 'B')
    }

    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        self.moved(n, 'C')
    }

    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        self.moved(n, 'D')
    }

    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.put(s)?;
        self.put("\n")
    }

    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.put(s)
    }

    fn clear_line(&self) -> std::io::Result<()> {
        self.put("\r\x1b[2K")
    }

    fn flush(&self) -> std::io::Result<()> {
        let mut out = self
            .out
            .lock()
            .map_err(|_| std::io::Error::other("progress bar poisoned"))?;
        let (writer, pending) = &mut *out;
        writer.write_all(pending)?;
        pending.clear();
        writer.flush()
    }
}

/// The look of [`progress_bar`]'s bars: `template` in indicatif's terms.
pub(crate) fn progress_style(template: &str) -> indicatif::ProgressStyle {
    indicatif::ProgressStyle::with_template(template)
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ")
}

/// A program's `main`: parses its command line `C` (a refused value or option is said
/// printable, with clap's exit code; `--help` and `--version` go to standard output),
/// runs it with `run`, prints the message of how it ended, and gives its exit code.
pub(crate) fn main_of<C: clap::Parser>(run: impl FnOnce(C) -> Exit) -> std::process::ExitCode {
    let cli = match C::try_parse() {
        Ok(cli) => cli,
        Err(error) if error.use_stderr() => {
            // A refused value (`--fen`, a file name) is quoted in the message: shown
            // printable, as every message is.
            let text = error.render().to_string();
            eprint!("{}", crate::text::printable_lines(&text, 8192));
            return std::process::ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2));
        }
        // --help and --version: the program's own words, on standard output.
        Err(help) => help.exit(),
    };
    let exit = run(cli);
    if let Some(message) = &exit.message {
        eprintln!("{message}");
    }
    std::process::ExitCode::from(exit.code)
}

/// The lab's commands, which the player's program once had: named, they are said to be
/// the lab's, with how to get it.
pub(crate) fn moved_to_the_lab(command: &str) -> Option<String> {
    let moved = ["match", "selfplay", "train"].contains(&command);
    moved.then(|| {
        format!(
            "checkers: {command} is the lab's command now: checkers-lab {command} (cargo install \
             --path . --features lab installs it)"
        )
    })
}

/// Runs what the command line `cli` asks for.
pub(crate) fn run(cli: Cli) -> Result<(), CommandError> {
    #[cfg(unix)]
    crate::signals::file_size_limit_as_error();
    let Some(command) = cli.command else {
        return play::run(&cli.play);
    };
    // Only the line-oriented commands hold stdout; the game draws through its own handle
    // (and its signal watcher restores the terminal through it, from another thread).
    let command = match command {
        Command::Host(args) => return network::host(&args),
        Command::Join(args) => return network::join(&args, crate::net::protocol::Role::Player),
        Command::Watch(args) => {
            return network::join(&args, crate::net::protocol::Role::Spectator);
        }
        Command::Server(args) => {
            if let Some(command) = &args.command {
                return crate::server::operator::run(args.db.as_deref(), command);
            }
            return crate::server::run(&crate::server::ServerOptions {
                listen: args.listen,
                db: args.db,
                create: args.create,
                pem: args.cert.zip(args.key),
                limits: crate::server::Limits {
                    max_connections: args.max_connections,
                    per_address: args.max_connections_per_address,
                    login_seconds: args.login_timeout,
                    idle_seconds: args.idle_timeout,
                    message_rate: args.message_rate,
                    table_chat: args.table_chat,
                    queue: args.queue,
                    max_line: args.max_line,
                    adjourned_days: args.adjourned_days,
                },
            });
        }
        Command::Online(args) => {
            let plain = args.plain
                || args.export.is_some()
                || play::plain_wanted(&crate::cli::PlayArgs::default());
            let server = match args.server {
                Some(server) => server,
                None => crate::online::default_server()?,
            };
            let options = crate::online::OnlineOptions {
                server,
                name: args.name,
                export: args.export,
                fingerprint: args.fingerprint,
            };
            return if plain {
                crate::online::run(&options)
            } else {
                crate::online::screen(&options)
            };
        }
        Command::Puzzle(mut args) => {
            // `checkers --plain puzzle FILE`: the look asked before the command name
            // is the puzzles' too (it was passed over, and the full screen opened).
            args.look = args.look.or(&cli.play.screen.look);
            return puzzle::run(&args);
        }
        command => command,
    };
    let out = &mut std::io::stdout().lock();
    match command {
        Command::Perft(args) => perft::run(&args, out),
        Command::Moves(args) => moves::run(&args, out),
        Command::Analyse(args) => analyse::run(&args, out),
        Command::Pdn(args) => pdn::run(&args, out),
        Command::Egdb(args) => egdb::run(&args, out),
        Command::Games(args) => games::run(&args, out),
        Command::Hub(args) => hub::run(&args, out),
        Command::Book(args) => book::run(&args, out),
        Command::Explore(args) => explore::run(&args, out),
        Command::Completions { shell } => {
            let mut command = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut command, "checkers", out);
            Ok(())
        }
        Command::Host(_)
        | Command::Join(_)
        | Command::Watch(_)
        | Command::Server(_)
        | Command::Online(_)
        | Command::Puzzle(_) => Ok(()),
        Command::Manpage { dir } => manual::run(dir.as_deref(), out),
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;
    use std::io::Write;
    use std::sync::{Arc, Mutex};

    /// Bytes written, read back by the test (the commands' tests share it).
    #[derive(Clone, Debug, Default)]
    pub(super) struct Shared(pub(super) Arc<Mutex<Vec<u8>>>);

    impl Write for Shared {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// Ctrl-C during `puzzle FILE --check`: the terminal echoes `^C` where the cursor is,
    /// after the bar; the bar cleared, then the words printed, nothing of the bar is left
    /// (its last state stayed above "interrupted: ...", the `^C` having wrapped).
    #[test]
    fn after_ctrl_c_the_bar_is_cleared_before_the_words_that_follow() {
        let terminal = Shared::default();
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(30),
            indicatif::ProgressDrawTarget::term_like(Box::new(EchoRoom::new(
                terminal.clone(),
                || 80,
            ))),
        );
        bar.set_style(progress_style(
            "checking puzzles [{bar:40}] {pos}/{len} ({elapsed})",
        ));
        bar.inc(7);
        terminal.clone().write_all(b"^C").unwrap();
        bar.finish_and_clear();
        terminal
            .clone()
            .write_all(b"interrupted: 7 of 30 puzzles checked\r\n")
            .unwrap();
        let size = |n| std::num::NonZeroU16::new(n).unwrap();
        let mut screen = vt100::Parser::new(size(24), size(80), 0);
        screen.process(&terminal.0.lock().unwrap());
        let shown = screen.screen().contents();
        assert!(
            shown.contains("interrupted: 7 of 30") && !shown.contains("checking puzzles"),
            "{shown}"
        );
    }
}
