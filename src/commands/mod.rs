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
    bar.set_style(progress_style(template));
    bar.enable_steady_tick(std::time::Duration::from_millis(500));
    bar
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
