//! The command line: clap derive types only, every value typed and checked by its
//! value parser. What each command does is in the `commands` module.
//!
//! The clap types of every subcommand are read together here, as the command line's one
//! definition (a game across the network's are in `cli/net.rs`).

use crate::engine::{Evaluation, Level};
use crate::rules::Position;
use crate::session::{BallotChoice, PlayerKind, TimeControl};
use clap::builder::TypedValueParser;
use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;
use std::time::Duration;

/// What `--version` prints. No note on the build's instructions: the network's inner
/// loops pick AVX2 at run time where the processor has it, so a plain build is as fast
/// as one for the machine's own processor.
const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where `--help` ends: a newcomer reading it learns where the rules are, which no
/// option names.
const NEW_TO_CHECKERS: &str = "New to checkers? Run `checkers` and choose \"Help: keys and \
    rules\" (key ?) on the home screen for the rules; in a game, ? shows them in short.";

/// English draughts (American checkers) in the terminal.
#[derive(Debug, Parser)]
#[command(name = "checkers", version = VERSION, about, after_help = NEW_TO_CHECKERS)]
pub(crate) struct Cli {
    /// What to do; with none, the interactive game starts.
    #[command(subcommand)]
    pub(crate) command: Option<Command>,
    /// The interactive game's options.
    #[command(flatten)]
    pub(crate) play: PlayArgs,
}

/// The options of the interactive game (`checkers` with no subcommand).
///
/// `--black`, `--white` and `--level` have no default here, so that it can be told
/// whether they were given; [`black`](Self::black), [`white`](Self::white) and
/// [`level`](Self::level) give the values the game uses.
#[derive(Clone, Debug, Default, Args)]
pub(crate) struct PlayArgs {
    /// Turn the board round: without it, the side you play is at the bottom (Black
    /// when you play both sides or neither).
    #[arg(long)]
    pub(crate) flip: bool,
    /// How the game is shown: plain mode, mouse, colour, characters, bell.
    #[command(flatten)]
    pub(crate) screen: ScreenArgs,
    /// Start from this position (PDN FEN, e.g. "W:W18,K30:B11,K2").
    #[arg(long, value_parser = parse_start_fen, conflicts_with_all = ["load", "resume"])]
    pub(crate) fen: Option<Position>,
    /// Open a game from a PDN file, to review it or play on from any point.
    #[arg(long, value_name = "FILE", conflicts_with = "resume", value_parser = parse_board_file)]
    pub(crate) load: Option<PathBuf>,
    /// Which game of the --load file to open, counting from 1.
    #[arg(long, value_name = "N", requires = "load", value_parser = parse_game_number)]
    pub(crate) game: Option<u32>,
    /// Continue the game in progress, saved automatically after every move.
    #[arg(long)]
    pub(crate) resume: bool,
    /// Open the position editor first: set up a position, then play from it.
    #[arg(long, conflicts_with_all = ["load", "resume"])]
    pub(crate) setup: bool,
    /// Black's name, for saved records.
    #[arg(long, value_name = "NAME", value_parser = parse_name)]
    pub(crate) black_name: Option<String>,
    /// White's name, for saved records.
    #[arg(long, value_name = "NAME", value_parser = parse_name)]
    pub(crate) white_name: Option<String>,
    /// Who plays Black: a person or the computer (a person if not given).
    #[arg(long, value_enum)]
    pub(crate) black: Option<PlayerKind>,
    /// Who plays White: a person or the computer (a person if not given).
    #[arg(long, value_enum)]
    pub(crate) white: Option<PlayerKind>,
    /// The computer players' strength, 1 (a beginner) to 10 (its best). Not given: the
    /// preferences file's `level = N` (the level last chosen on the home screen's "Play
    /// the computer" is kept there), else 5; given, it wins over the preferences.
    /// Level N thinks 0.5 + N/4 seconds a move as a budget: about that on average, up to
    /// three times it for a hard move (on the clock, what the clock allows).
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = level_parser())]
    pub(crate) level: Option<Level>,
    /// Start from a three-move ballot of the ACF deck: its number (1-174), or random
    /// (a crossboard ballot; see --mailplay). The game starts after its three moves.
    #[arg(long, value_name = "N|random", value_parser = clap::value_parser!(BallotChoice), conflicts_with_all = ["fen", "load", "resume"])]
    pub(crate) ballot: Option<BallotChoice>,
    /// Allow a barred ballot (one lost by force) with --ballot N.
    #[arg(long, requires = "ballot")]
    pub(crate) barred: bool,
    /// Let --ballot random draw the mailplay ballots too.
    #[arg(long, requires = "ballot")]
    pub(crate) mailplay: bool,
    /// Play on a clock: 30/60 (30 moves in 60 minutes, repeating), G/15 (the game in 15
    /// minutes) or 5+3 (5 minutes, 3 seconds added per move); minutes may be m:ss. Out of
    /// time loses.
    #[arg(long, value_name = "SPEC", value_parser = clap::value_parser!(TimeControl), conflicts_with_all = ["move_timer", "load"])]
    pub(crate) clock: Option<TimeControl>,
    /// The traditional move limit: five minutes a move, one minute for a single forced
    /// jump. Out of time loses.
    #[arg(long, conflicts_with = "load")]
    pub(crate) move_timer: bool,
    /// Play a match of N rounds (1-100): two games a round on the same ballot, colours
    /// reversed, a new ballot each round with --ballot random. --black-name and
    /// --white-name name the players of the first game. --resume continues a match.
    #[arg(long = "match", allow_negative_numbers = true, value_name = "N", value_parser = whole::<u32>(1, 100), conflicts_with_all = ["fen", "load", "resume"])]
    pub(crate) match_rounds: Option<u32>,
    /// With --match: the PDN file the match's games are written to as each ends (added
    /// at its end if it exists) [default: match-DATE-TIME.pdn in the data folder].
    #[arg(long, value_name = "FILE", requires = "match_rounds")]
    pub(crate) save: Option<PathBuf>,
    /// The engine's help to the players: hints, its score and the databases' verdict in
    /// the panel, the review's search. Off by default between two people on a clock or
    /// in a match, on otherwise.
    // The value name says the two values: a list of them would only say "on: On".
    #[arg(long, value_enum, value_name = "on|off", hide_possible_values = true)]
    pub(crate) assist: Option<Switch>,
    /// Threads each search of the engine runs (hints, the review, the computer's
    /// moves): more search deeper in the same time [default: 1].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = threads())]
    pub(crate) threads: Option<usize>,
    /// Open the analysis board instead of a game: the start position, --fen FEN, or
    /// --load FILE [--game N] with its variations; both sides' moves are played
    /// freely and the engine shows the best lines.
    #[arg(long, visible_alias = "analyze", conflicts_with_all = ["resume", "setup", "match_rounds", "black", "white", "clock", "move_timer", "ballot"])]
    pub(crate) analyse: bool,
    /// With --analyse: the games of this PDN file in the board's opening explorer too
    /// (o opens it; m goes round Tinsley's games, your own and this file's), read once
    /// as the board opens, as `checkers explore --pdn FILE` reads them.
    #[arg(long, value_name = "FILE", requires = "analyse", value_parser = parse_board_file)]
    pub(crate) explore_pdn: Option<PathBuf>,
}

mod net;
pub(crate) use net::{HostArgs, JoinArgs, SideChoice, parse_code};

/// How a game is shown, the same at one terminal and across the network: the options
/// `play`, `host`, `join` and `watch` share (the board's look and the clock's bell).
#[derive(Clone, Debug, Default, Args)]
pub(crate) struct ScreenArgs {
    /// How the board is drawn and read.
    #[command(flatten)]
    pub(crate) look: LookArgs,
    /// No bell at ten seconds left or when time runs out.
    #[arg(long)]
    pub(crate) quiet: bool,
}

/// How a board is drawn and read: the options of every command with a board on screen
/// (`puzzle` too, which has no clock, so no bell to quiet).
#[derive(Clone, Debug, Default, Args)]
pub(crate) struct LookArgs {
    /// Play in plain line mode: text in, text out (automatic when standard input or
    /// output is not a terminal, or TERM=dumb).
    #[arg(long)]
    pub(crate) plain: bool,
    /// Leave mouse capture off, so text on screen can be selected.
    #[arg(long)]
    pub(crate) no_mouse: bool,
    /// No colours (also when NO_COLOR is set, TERM=dumb or a monochrome TERM: vt100, xterm-mono).
    #[arg(long)]
    pub(crate) no_color: bool,
    /// Draw with ASCII characters only (also where the locale is not UTF-8, TERM=linux or vt100, unless the preferences say ascii = false).
    #[arg(long)]
    pub(crate) ascii: bool,
}

impl LookArgs {
    /// Each option on where it is on here or in `other` (the same options given before
    /// a command's name, and after it).
    pub(crate) fn or(&self, other: &LookArgs) -> LookArgs {
        LookArgs {
            plain: self.plain || other.plain,
            no_mouse: self.no_mouse || other.no_mouse,
            no_color: self.no_color || other.no_color,
            ascii: self.ascii || other.ascii,
        }
    }
}

/// An option that is on or off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Switch {
    /// On.
    On,
    /// Off.
    Off,
}

impl PlayArgs {
    /// Who plays Black: `--black`, or a person.
    #[cfg(test)]
    pub(crate) fn black(&self) -> PlayerKind {
        self.black.unwrap_or_default()
    }

    /// Who plays White: `--white`, or a person.
    #[cfg(test)]
    pub(crate) fn white(&self) -> PlayerKind {
        self.white.unwrap_or_default()
    }

    /// The time control `--clock` or `--move-timer` asks for, if any.
    pub(crate) fn time_control(&self) -> Option<TimeControl> {
        match self.clock {
            Some(control) => Some(control),
            None => self.move_timer.then_some(TimeControl::MoveTimer),
        }
    }

    /// The computer players' level: `--level`, or level 5.
    #[cfg(test)]
    pub(crate) fn level(&self) -> Level {
        self.level.unwrap_or_default()
    }
}

/// The subcommands: a player's first (across the network, the games kept, analysis,
/// records, databases, the shell's helpers), then perft and the book. The engine's
/// workshop (matches, self-play, training, building the book) is the lab's
/// (`checkers-lab`, with the `lab` feature).
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Hold a game for a player at another terminal: print where to join, then open the
    /// board. Takes the game options of a game at one terminal.
    Host(HostArgs),
    /// Join a game held by `checkers host`, as its other player.
    Join(JoinArgs),
    /// Watch a game held by `checkers host`: step through its moves, never act.
    // A spectator has no side of the board nor panel of their own, and plays nothing:
    // the player's words for these options would not hold.
    #[command(
        mut_arg("flip", |a| a.help(
            "Start with White at the bottom of the board (Black is at the bottom without it)"
        )),
        mut_arg("name", |a| a.help(
            "Your name, told to the host (only the players' names go on the record and panels)"
        )),
        mut_arg("plain", |a| a.help(
            "Watch in plain line mode: text in, text out (automatic when standard input or \
             output is not a terminal, or TERM=dumb)"
        )),
        mut_arg("quiet", |a| a.help(
            "No bell when a player's clock reaches ten seconds or a flag falls"
        ))
    )]
    Watch(JoinArgs),
    /// Run a server that many players reach with `checkers online`: a lobby, seeks,
    /// rated games (Glicko-2), every move stored in an SQLite database before anyone
    /// hears of it. TLS with a certificate made on first start (its fingerprint is
    /// printed: tell it to the players), or one from a certificate authority (--cert,
    /// --key); stop it with SIGTERM or Ctrl-C (every game is adjourned and kept).
    ///
    /// For a club on a small rented machine (measured: 1,000 players with 300 games in
    /// play took 42 MB and a sixth of one core): open TCP port 4620 and run `checkers server --listen 0.0.0.0:4620 --db
    /// /var/lib/checkers/server.sqlite` (with --create the first time) under a service manager that restarts it (with
    /// systemd: Restart=on-failure, and LimitNOFILE= above the players you expect, as
    /// each is an open connection). Logs go to stderr (the journal). Back the database
    /// up with `sqlite3 server.sqlite ".backup copy.sqlite"` while it runs, or copy the
    /// file once it has stopped (all of it is then in that one file). Players in
    /// one club room behind one router share an address: raise
    /// --max-connections-per-address for them.
    Server(ServerArgs),
    /// Play at a `checkers server` (in plain mode: who, seeks, seek CLOCK [rated|casual]
    /// [black|white|either] [ballot|free], accept N, challenge NAME and invite with the
    /// same terms, join CODE,
    /// games, watch N, player NAME, a move (11-15), board, draw, resign, say TEXT at a
    /// table, tell NAME TEXT (to one player, wherever they are), ignore NAME (their
    /// tells, lines, challenges, seeks and rematch offers do not reach you), unignore NAME, ignore (the list), rematch or decline after a game, adjourn, resume, help, quit (in a game in
    /// play: the game goes on at the server, its clocks running)). Your key is made on first use;
    /// the server's certificate is pinned on first contact, once you say yes to its
    /// fingerprint (or it matches --fingerprint), and a changed one refused.
    Online(OnlineArgs),
    /// List the games kept in the data folder (each game is saved there as it is
    /// played), newest first: when, players, moves, result or "unfinished" (then
    /// where it stands: "last 12. 9-14 22x15x8", the last move of each side), file.
    Games(GamesArgs),
    /// Search a position and print what each completed depth found, then the best move;
    /// with --load, a recorded game move by move, or its game report (--report). The
    /// analysis board, to play through lines yourself, is `checkers --analyse`.
    Analyse(AnalyseArgs),
    /// List every legal move of a position, one per line, with every landing square.
    Moves(MovesArgs),
    /// Be the engine of another program (a GUI, pydraughts, a tournament manager): speak
    /// Scan's Hub protocol on standard input and output, variant english (`hub`, `init`,
    /// `pos`, `level`, `go think`, `go ponder`, `stop`, `ping`, `quit`; see the guide's
    /// engine chapter).
    Hub(HubArgs),
    /// Work with PDN game records.
    Pdn(PdnArgs),
    /// Endgame databases: build them, probe a position, verify them.
    Egdb(EgdbArgs),
    /// Write a completion script for SHELL to standard output.
    ///
    /// For bash, e.g.:
    /// `checkers completions bash > ~/.local/share/bash-completion/completions/checkers`
    Completions {
        /// The shell to complete in.
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
    /// Write the manual page (roff) to standard output (`checkers manpage > checkers.1`,
    /// then `man ./checkers.1`), or with --dir a page for every command into a folder
    /// (`checkers manpage --dir ~/.local/share/man/man1`, then `man checkers`).
    Manpage {
        /// Write checkers.1 and a page for each command (checkers-host.1, ...) into
        /// this folder (made if missing, in a folder that exists), instead of the one
        /// page to standard output.
        #[arg(long, value_name = "DIR")]
        dir: Option<PathBuf>,
    },
    /// Count the leaf positions of the move tree to DEPTH plies (every capture route counts).
    Perft(PerftArgs),
    /// The opening book: what it says of a position.
    Book(BookArgs),
    /// The opening explorer: the moves played from a position in a collection of games
    /// (Marion Tinsley's tournament games, built in, your own saved games, or a PDN
    /// file), most played first,
    /// each with its games, their results and the opening's name.
    Explore(ExploreArgs),
    /// Puzzles: find the move that wins or saves the game, in classic endings and in
    /// positions from Marion Tinsley's games, or in a PDN file of your own; the program
    /// answers each move, shows why a wrong one fails, and keeps your progress
    /// (puzzles.json in the data folder; a file's puzzles apart, in puzzle-files/).
    Puzzle(PuzzleArgs),
}

/// `checkers puzzle`.
#[derive(Debug, Args)]
pub(crate) struct PuzzleArgs {
    /// Solve the puzzles of this PDN file instead of the built-in ones: each game a
    /// position set up with a [FEN "..."] tag and the solution as its moves (the
    /// player's first); [Result "1/2-1/2"] makes the goal a draw, else it is a win. A
    /// puzzle whose moves cannot be played is left out, and said which and why. A
    /// comment {...} before the first move is the puzzle's hint (i, or hint in plain
    /// mode); comments after its moves explain it once it is solved.
    /// A number alone, with no such file, is puzzle N of the built-in ones
    /// (`checkers puzzle 12`).
    #[arg(value_name = "FILE")]
    pub(crate) file: Option<PathBuf>,
    /// Open puzzle N of the list (from 1) instead of the list (`checkers puzzle FILE 3`).
    // Any number is taken here: one outside the list is refused with the list's range.
    #[arg(value_name = "N", conflicts_with = "number")]
    pub(crate) at: Option<u32>,
    /// Open puzzle N of the list (from 1) instead of the list, as N after FILE does.
    #[arg(long, value_name = "N")]
    pub(crate) number: Option<u32>,
    /// Check FILE's solutions instead of solving them: each of the player's moves
    /// judged by the endgame databases, else the engine (--movetime a position); each
    /// puzzle whose solution is proven not to reach its goal is named, with the move
    /// found instead. Exits 0 only if none is.
    #[arg(long, requires = "file", conflicts_with_all = ["at", "number"])]
    pub(crate) check: bool,
    /// With --check: how long the engine searches each position, in milliseconds.
    #[arg(long, value_name = "MS", requires = "check", default_value_t = 2000,
          allow_negative_numbers = true, value_parser = whole::<u64>(1, 600_000))]
    pub(crate) movetime: u64,
    /// How the puzzles are shown: plain mode, mouse, colour, characters (no clock, so
    /// no `--quiet`).
    #[command(flatten)]
    pub(crate) look: LookArgs,
}

/// `checkers explore`.
#[derive(Debug, Args)]
pub(crate) struct ExploreArgs {
    /// The position (PDN FEN); the start position if not given.
    #[arg(long, value_parser = parse_start_fen)]
    pub(crate) fen: Option<Position>,
    /// Moves played from the position first, in PDN notation (`--moves "11-15 23-19"`;
    /// move numbers such as `1.` may be written, and are skipped).
    #[arg(long, value_name = "MOVES", default_value = "")]
    pub(crate) moves: String,
    /// The collection: the games of this PDN file instead of the built-in one.
    #[arg(long, value_name = "FILE")]
    pub(crate) pdn: Option<PathBuf>,
    /// The collection: your own games, every game saved in the games folder of the data
    /// folder (`checkers games` lists them), unfinished ones included.
    #[arg(long, conflicts_with = "pdn")]
    pub(crate) mine: bool,
    /// Read only the collection's first N games (1 or more).
    #[arg(long, value_name = "N", value_parser = parse_games_limit)]
    pub(crate) games_limit: Option<usize>,
}

/// `checkers server`.
#[derive(Debug, Args)]
pub(crate) struct ServerArgs {
    /// The address and port to listen at: ADDR:PORT, HOST:PORT (localhost:4620, the
    /// name resolved), or a port alone (4620: every interface, as the default).
    #[arg(long, value_name = "ADDR:PORT", default_value = "0.0.0.0:4620", value_parser = parse_listen)]
    pub(crate) listen: std::net::SocketAddr,
    /// The database file, one that exists (--create makes a new one; the certificate
    /// and its key are kept beside it) [default: server/server.sqlite in the data
    /// folder, made on first use].
    #[arg(long, value_name = "FILE", global = true)]
    pub(crate) db: Option<PathBuf>,
    /// Make the --db file if it is not there: a new database, with no players, ratings
    /// or games, and a new certificate (so a mistyped --db is refused, not started
    /// afresh).
    #[arg(long)]
    pub(crate) create: bool,
    /// Serve this certificate (PEM: the server's, then the intermediates, as a
    /// certificate authority issues them) instead of the self-signed one; with --key.
    #[arg(long, value_name = "FILE", requires = "key")]
    pub(crate) cert: Option<PathBuf>,
    /// The private key (PEM) of --cert.
    #[arg(long, value_name = "FILE", requires = "cert")]
    pub(crate) key: Option<PathBuf>,
    /// The most connections at once, from everyone (each is an open file: keep it under
    /// the process's LimitNOFILE); one more is told the server is full and closed.
    #[arg(long, value_name = "N", default_value_t = crate::server::Limits::DEFAULT.max_connections,
          allow_negative_numbers = true, value_parser = at_least(1u32))]
    pub(crate) max_connections: u32,
    /// The most connections from one address at once (players behind one router share
    /// an address: raise it for a club room).
    #[arg(long, value_name = "N", default_value_t = crate::server::Limits::DEFAULT.per_address,
          allow_negative_numbers = true, value_parser = at_least(1u32))]
    pub(crate) max_connections_per_address: u32,
    /// Seconds a client has from connecting to being logged in, TLS handshake included
    /// (at most an hour: a huge time overflowed the clock at every connection).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::server::Limits::DEFAULT.login_seconds,
          allow_negative_numbers = true, value_parser = whole::<u64>(1, 3600))]
    pub(crate) login_timeout: u64,
    /// Seconds of silence after which a client is let go (clients ping every minute;
    /// at most a day).
    #[arg(long, value_name = "SECONDS", default_value_t = crate::server::Limits::DEFAULT.idle_seconds,
          allow_negative_numbers = true, value_parser = whole::<u64>(1, 86_400))]
    pub(crate) idle_timeout: u64,
    /// The most messages a client may send in ten seconds: more is a flood, let go.
    #[arg(long, value_name = "N", default_value_t = crate::server::Limits::DEFAULT.message_rate,
          allow_negative_numbers = true, value_parser = at_least(1u32))]
    pub(crate) message_rate: u32,
    /// The most lines a table's chat carries in ten seconds, all who speak there
    /// together (each line goes to everyone at the table): more are refused.
    #[arg(long, value_name = "N", default_value_t = crate::server::Limits::DEFAULT.table_chat,
          allow_negative_numbers = true, value_parser = at_least(1u32))]
    pub(crate) table_chat: u32,
    /// The most messages waiting for one client: one that does not read is let go.
    #[arg(long, value_name = "N", default_value_t = crate::server::Limits::DEFAULT.queue,
          allow_negative_numbers = true, value_parser = at_least(1u32))]
    pub(crate) queue: u32,
    /// The longest line a client may send, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = crate::server::Limits::DEFAULT.max_line,
          allow_negative_numbers = true, value_parser = at_least(256u32))]
    pub(crate) max_line: u32,
    /// Days an adjourned game waits for its players; then it ends as abandoned (in both
    /// players' records, unrated). Fractions are allowed.
    #[arg(long, value_name = "DAYS", default_value_t = crate::server::Limits::DEFAULT.adjourned_days)]
    pub(crate) adjourned_days: f64,
    /// Work on the database instead of serving (also while the server runs on it).
    #[command(subcommand)]
    pub(crate) command: Option<ServerCommand>,
}

/// `checkers server` subcommands: the operator's work on the database.
#[derive(Debug, Subcommand)]
pub(crate) enum ServerCommand {
    /// The moderators: players who may mute, kick and ban others from their client
    /// (mute NAME [MINUTES], unmute NAME, kick NAME, ban NAME [REASON], unban NAME).
    /// A running server knows a change within a second or two, and tells the player if
    /// online.
    Moderator {
        /// What to do.
        #[command(subcommand)]
        action: ModeratorAction,
    },
}

/// `checkers server moderator` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum ModeratorAction {
    /// Make a player a moderator (one who has logged in at least once).
    Add {
        /// The player's name.
        name: String,
    },
    /// Make a moderator a player like the others.
    Remove {
        /// The moderator's name.
        name: String,
    },
    /// List the moderators.
    List,
    /// Show the last orders of the moderators and the operator, oldest first: when,
    /// who, what, to whom, and the minutes or reason.
    Log {
        /// How many orders to show.
        #[arg(long, value_name = "N", default_value_t = 50)]
        last: u32,
    },
}

/// `checkers online`.
#[derive(Debug, Args)]
pub(crate) struct OnlineArgs {
    /// The server: HOST or HOST:PORT (port 4620 when not given) [default: the server
    /// last logged in to].
    pub(crate) server: Option<String>,
    /// The name to play under, 1 to 20 of a-z, A-Z, 0-9, - and _: the server binds it
    /// to your key on first login [default: the name last used at that server, else your
    /// user name].
    #[arg(long, value_name = "NAME")]
    pub(crate) name: Option<String>,
    /// Play in plain line mode: text in, text out (automatic when standard input or
    /// output is not a terminal, or TERM=dumb); without it, the full-screen lobby, its
    /// games on the board.
    #[arg(long)]
    pub(crate) plain: bool,
    /// Write your finished games at the server to this PDN file (replaced if it
    /// exists), then stop.
    #[arg(long, value_name = "FILE")]
    pub(crate) export: Option<PathBuf>,
    /// Trust the server's certificate if it has this fingerprint, as `checkers server`
    /// prints it (SHA256:AD:C9:...; the SHA256: and the colons may be left out): it is
    /// pinned without asking, in place of one pinned before (a certificate the operator
    /// changed); a server presenting another is refused, both fingerprints named, and
    /// nothing pinned.
    #[arg(long, value_name = "SHA256:..", value_parser = crate::online::parse_fingerprint)]
    pub(crate) fingerprint: Option<[u8; 32]>,
}

/// `checkers book`.
#[derive(Debug, Args)]
pub(crate) struct BookArgs {
    /// What to do.
    #[command(subcommand)]
    pub(crate) command: BookCommand,
}

/// `checkers book` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum BookCommand {
    /// What the built-in book says of a position.
    Show {
        /// The position (PDN FEN); the start position if not given.
        #[arg(long, value_parser = parse_start_fen)]
        fen: Option<Position>,
    },
}

/// Which evaluation a search uses, on the command line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum EvalChoice {
    /// The hand-written evaluation.
    Hand,
    /// The learned pattern table.
    #[value(alias = "table")]
    Learned,
    /// The network evaluation.
    Net,
}

impl From<EvalChoice> for Evaluation {
    fn from(choice: EvalChoice) -> Evaluation {
        match choice {
            EvalChoice::Hand => Evaluation::Hand,
            EvalChoice::Learned => Evaluation::Learned,
            EvalChoice::Net => Evaluation::Net,
        }
    }
}

/// A FEN a game starts from, or a search, `moves` or `perft` reads: a position, or the
/// whole reason it is not one (the entry and the square's own fault), and each side
/// must have a piece (with none, the game is over before it began, as a game from it
/// is refused).
fn parse_start_fen(text: &str) -> Result<Position, String> {
    Position::parse_start(text).map_err(|e| crate::text::error_chain(&e))
}

/// A player's name, at most [`MAX_NAME_CHARS`](crate::pdn::MAX_NAME_CHARS) characters:
/// a saved game must read back with its names. A control character (an escape
/// sequence's start, a line break) or a mark that turns the text's direction is
/// refused: the name goes into records other programs show on a terminal.
pub(crate) fn parse_name(text: &str) -> Result<String, String> {
    let chars = text.chars().count();
    if chars > crate::pdn::MAX_NAME_CHARS {
        return Err(format!(
            "a name is at most {} characters (this one has {chars})",
            crate::pdn::MAX_NAME_CHARS
        ));
    }
    if let Some((place, c)) = text
        .chars()
        .enumerate()
        .find(|(_, c)| crate::text::is_unsafe(*c))
    {
        return Err(format!(
            "a name cannot hold control characters or text-direction marks (character {} is U+{:04X})",
            place + 1,
            u32::from(c)
        ));
    }
    Ok(text.to_string())
}

/// `checkers games`.
#[derive(Debug, Args)]
pub(crate) struct GamesArgs {
    /// Only the unfinished games (those `checkers --resume` can continue, and those open
    /// in another window).
    #[arg(long)]
    pub(crate) unfinished: bool,
}

/// `checkers perft`.
#[derive(Debug, Args)]
pub(crate) struct PerftArgs {
    /// Plies to search (0-30).
    #[arg(value_parser = whole::<u32>(0, 30))]
    pub(crate) depth: u32,
    /// Start from this position (PDN FEN, e.g. "B:W21-32:B1-12") instead of the start;
    /// each side must have a piece, as in a game.
    #[arg(long, value_parser = parse_start_fen)]
    pub(crate) fen: Option<Position>,
    /// Also print the count under each first move.
    #[arg(long)]
    pub(crate) divide: bool,
    /// Threads to split the first moves over.
    #[arg(long, allow_negative_numbers = true, default_value = "1", value_parser = whole::<u16>(1, 256).map(usize::from))]
    pub(crate) threads: usize,
}

/// `checkers moves`.
#[derive(Debug, Args)]
pub(crate) struct MovesArgs {
    /// The position (PDN FEN); the start position if not given. Each side must have a
    /// piece, as in a game.
    #[arg(long, value_parser = parse_start_fen)]
    pub(crate) fen: Option<Position>,
}

/// `checkers hub`.
#[derive(Debug, Args)]
pub(crate) struct HubArgs {
    /// Threads each search runs (the program may change it with `set-param name=threads`).
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value = "1", value_parser = threads())]
    pub(crate) threads: usize,
    /// Transposition table size in MB (or `set-param name=hash`).
    #[arg(long, allow_negative_numbers = true, value_name = "HASH", default_value = "64", value_parser = megabytes())]
    pub(crate) hash: usize,
}

/// `checkers analyse`.
#[derive(Debug, Args)]
pub(crate) struct AnalyseArgs {
    /// The position (PDN FEN); the start position if not given.
    #[arg(long, value_parser = parse_start_fen, conflicts_with = "load")]
    pub(crate) fen: Option<Position>,
    /// Go through a recorded game instead (a PDN file; `-`: standard input): every
    /// position before a move is searched (--movetime, 1000 ms by default here, or
    /// --depth), and each move is printed with the engine's score, its best move, the
    /// endgame databases' result where they hold the position, and a warning where a
    /// move throws a win or a draw away.
    #[arg(long, value_name = "FILE")]
    pub(crate) load: Option<PathBuf>,
    /// Which game of the --load file, counting from 1.
    #[arg(long, value_name = "N", requires = "load", default_value = "1", value_parser = parse_game_number)]
    pub(crate) game: u32,
    /// Search this many plies (1-64) instead of for a time.
    #[arg(long, allow_negative_numbers = true, conflicts_with = "movetime", value_parser = whole::<u32>(1, 64))]
    pub(crate) depth: Option<u32>,
    /// Search for this many milliseconds (default 3000), as a wall: the search stops
    /// within it, and often sooner, once another iteration could not finish in it.
    #[arg(long, allow_negative_numbers = true, value_name = "MOVETIME", value_parser = millis(86_400_000))]
    pub(crate) movetime: Option<Duration>,
    /// Search as a player on a clock with this many milliseconds left: the engine plans
    /// the move's time from it as in a game (a twentieth of it, or a share by
    /// --moves-to-go, plus most of --increment; never near the flag).
    #[arg(long, allow_negative_numbers = true, value_name = "MS", value_parser = millis(86_400_000), conflicts_with_all = ["depth", "movetime", "load"])]
    pub(crate) time_left: Option<Duration>,
    /// With --time-left: the milliseconds added to the clock after each move.
    #[arg(long, allow_negative_numbers = true, value_name = "MS", requires = "time_left", value_parser = whole::<u64>(0, 3_600_000).map(Duration::from_millis))]
    pub(crate) increment: Option<Duration>,
    /// With --time-left: the moves to make in that time before more comes (a 30/60
    /// control's moves still to make in its period).
    #[arg(long, allow_negative_numbers = true, value_name = "N", requires = "time_left", value_parser = whole::<u32>(1, 1000))]
    pub(crate) moves_to_go: Option<u32>,
    /// Transposition table size in MB.
    #[arg(long, allow_negative_numbers = true, value_name = "HASH", default_value = "64", value_parser = megabytes())]
    pub(crate) hash: usize,
    /// The evaluation to search with (the program's default if not given).
    #[arg(long, value_enum)]
    pub(crate) eval: Option<EvalChoice>,
    /// The search's numbers: the computer's, or the search on trial.
    #[arg(long, value_enum, default_value_t = SearchChoice::Current)]
    pub(crate) search: SearchChoice,
    /// Threads searching at once (1 is deterministic) [default: the machine's cores].
    #[arg(long, allow_negative_numbers = true, value_name = "N", value_parser = threads())]
    pub(crate) threads: Option<usize>,
    /// Search the N best moves (1-10), each with an exact score, and print their lines
    /// in score order after the depths: `line 2 depth 12 score -15 (even) pv 9-13 ...`,
    /// with the endgame databases' result after the move where they hold it. Slower
    /// than one line. A position only (not with --load).
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value = "1", value_parser = whole::<u8>(1, 10).map(usize::from), conflicts_with = "load")]
    pub(crate) multipv: usize,
    /// With --load: the game report instead of the move-by-move search. Every position
    /// is scored (--movetime, 1000 ms by default, or --depth, each position), then each
    /// move is printed with the mover's score before and after it, inaccuracies (?!,
    /// 0.3 men given away), mistakes (?, 0.6) and blunders (??, 1.2, or any move the
    /// endgame databases prove throws a win or a draw away) with the better move and
    /// its line, and a summary for each player. A progress bar on standard error
    /// while it works, where that is a terminal.
    #[arg(long, requires = "load")]
    pub(crate) report: bool,
    /// With --report: also write the game as PDN annotated with the report (NAGs $6
    /// $2 $4, comments with the better move) to this file. A file that exists is
    /// refused, the --load file among them: the report never overwrites a file.
    #[arg(long, value_name = "FILE", requires = "report")]
    pub(crate) out: Option<PathBuf>,
}

/// Parses a thread count of a search: 1 to 256.
pub(crate) fn threads() -> impl clap::builder::TypedValueParser<Value = usize> {
    whole::<u16>(1, crate::engine::MAX_THREADS as i64).map(usize::from)
}

/// A whole number of `low` or more, as `T`: one below is told "must be 1 or more"
/// (clap's own range said "0 is not in 1..18446744073709551615"). Its options allow
/// negative numbers, so that `-1` is told the same instead of taken for an option.
pub(crate) fn at_least<T>(low: T) -> impl TypedValueParser<Value = T>
where
    T: std::str::FromStr + PartialOrd + std::fmt::Display + Clone + Send + Sync + 'static,
{
    move |text: &str| -> Result<T, String> {
        let text = text.trim();
        match (text.parse::<T>(), text.parse::<i128>()) {
            (Ok(n), _) if n >= low => Ok(n),
            (Ok(_), _) => Err(format!("must be {low} or more")),
            (Err(_), Ok(n)) if n > 0 => Err(format!("{n} is too big")),
            (Err(_), Ok(_)) => Err(format!("must be {low} or more")),
            (Err(_), Err(_)) => Err(format!(
                "'{}' is not a whole number: give one of {low} or more",
                crate::text::printable(text, 40)
            )),
        }
    }
}

/// A whole number from `low` to `high`, as `T`: text that is none is told so with the
/// numbers taken ("'x' is not a whole number: give one from 1 to 10", where clap's own
/// parser said "invalid digit found in string"), and one out of range "must be a whole
/// number from 1 to 10" (clap's own range printed "11 is not in 1..=10"). Its options
/// allow negative numbers, so that `-1` reaches this check instead of being taken for
/// an option. A whole number past what 64 bits hold is out of range too, not "not a
/// whole number".
pub(crate) fn whole<T>(low: i64, high: i64) -> impl TypedValueParser<Value = T>
where
    T: TryFrom<i64> + Clone + Send + Sync + 'static,
{
    move |text: &str| -> Result<T, String> {
        let out_of_range = || format!("must be a whole number from {low} to {high}");
        match text.trim().parse::<i128>() {
            Ok(n) if (i128::from(low)..=i128::from(high)).contains(&n) => i64::try_from(n)
                .ok()
                .and_then(|n| T::try_from(n).ok())
                .ok_or_else(out_of_range),
            Ok(_) => Err(out_of_range()),
            Err(_) => Err(format!(
                "'{}' is not a whole number: give one from {low} to {high}",
                crate::text::printable(text, 40)
            )),
        }
    }
}

/// Which search's numbers a match player uses (`match --search-b`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SearchChoice {
    /// The search the computer plays with.
    #[default]
    Current,
    /// The search on trial in the lab (for now the same as the computer's).
    Candidate,
}

/// `checkers pdn`.
#[derive(Debug, Args)]
pub(crate) struct PdnArgs {
    /// What to do with the file.
    #[command(subcommand)]
    pub(crate) action: PdnCommand,
}

/// The `pdn` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum PdnCommand {
    /// Read and replay every game of FILE; report each faulty game, then a summary.
    /// Exits 0 only if every game replays.
    Check(CheckArgs),
    /// One line per game of FILE: number, date, White, Black, event, result, moves.
    /// The file is read as a stream: a file of any size takes the memory of one game.
    #[command(after_help = "Example: checkers pdn list club.pdn --player tinsley \
                            --opening \"11-15 23-19\"")]
    List(ListArgs),
    /// Write the games of FILE chosen by the filters (and --games) to a new file,
    /// each byte for byte as FILE has it. OUT is never replaced unless --force; it is
    /// written whole or not at all (a full disk leaves no half file).
    Extract(ExtractArgs),
    /// Write the games of several files, one after another, to a new file (each game
    /// byte for byte); with --dedupe a game whose moves, players and result are an
    /// earlier game's is left out, and the number left out is said.
    Merge(MergeArgs),
}

/// `checkers pdn check`.
#[derive(Debug, Args)]
pub(crate) struct CheckArgs {
    /// The PDN file (`-`: standard input).
    pub(crate) file: PathBuf,
}

/// Which games of a file `pdn list` and `pdn extract` take: every filter given must
/// hold.
#[derive(Debug, Args, Default, Clone)]
pub(crate) struct GameFilters {
    /// Games NAME played, with either color (part of the Black or White tag, any case:
    /// `tinsley` finds "MF Tinsley").
    #[arg(long, value_name = "NAME")]
    pub(crate) player: Option<String>,
    /// Games whose Event tag holds TEXT (any case).
    #[arg(long, value_name = "TEXT")]
    pub(crate) event: Option<String>,
    /// Games with this result.
    #[arg(long, value_name = "RESULT", value_parser = ["1-0", "0-1", "1/2-1/2", "*"])]
    pub(crate) result: Option<String>,
    /// Games that start with these moves from the standard start (`"11-15 23-19"`;
    /// move numbers may be written).
    #[arg(long, value_name = "MOVES")]
    pub(crate) opening: Option<String>,
}

impl GameFilters {
    /// Whether no filter is given: every game is taken.
    pub(crate) fn is_empty(&self) -> bool {
        self.player.is_none()
            && self.event.is_none()
            && self.result.is_none()
            && self.opening.is_none()
    }
}

/// `checkers pdn list`.
#[derive(Debug, Args)]
pub(crate) struct ListArgs {
    /// The PDN file (`-`: standard input).
    pub(crate) file: PathBuf,
    /// Which games.
    #[command(flatten)]
    pub(crate) filters: GameFilters,
}

/// `checkers pdn extract`.
#[derive(Debug, Args)]
pub(crate) struct ExtractArgs {
    /// The PDN file the games are taken from (`-`: standard input).
    pub(crate) file: PathBuf,
    /// The new file the chosen games are written to (`-`: standard output).
    #[arg(long, short, value_name = "OUT")]
    pub(crate) output: PathBuf,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub(crate) force: bool,
    /// Only these games, by their numbers in FILE (from 1): `3,7-9`.
    #[arg(long, value_name = "LIST", value_parser = parse_game_numbers)]
    pub(crate) games: Option<GameNumbers>,
    /// Which games (with --games too, a game must be in both).
    #[command(flatten)]
    pub(crate) filters: GameFilters,
}

/// `checkers pdn merge`.
#[derive(Debug, Args)]
pub(crate) struct MergeArgs {
    /// The PDN files, in the order their games are written (one may be `-`: standard
    /// input).
    #[arg(required = true, num_args = 1..)]
    pub(crate) files: Vec<PathBuf>,
    /// The new file the games are written to (`-`: standard output).
    #[arg(long, short, value_name = "OUT")]
    pub(crate) output: PathBuf,
    /// Replace OUT if it exists.
    #[arg(long)]
    pub(crate) force: bool,
    /// Leave out a game whose moves, players (Black and White) and result are those of
    /// a game written before it.
    #[arg(long)]
    pub(crate) dedupe: bool,
}

/// Game numbers of a file as `--games` gives them: `3,7-9`, ranges inclusive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct GameNumbers(pub(crate) Vec<(usize, usize)>);

impl GameNumbers {
    /// Whether game `number` is among them.
    pub(crate) fn contains(&self, number: usize) -> bool {
        self.0.iter().any(|&(lo, hi)| (lo..=hi).contains(&number))
    }

    /// The highest number among them: no game after it is wanted.
    pub(crate) fn last(&self) -> usize {
        self.0.iter().map(|&(_, hi)| hi).max().unwrap_or(0)
    }
}

/// `--games`: numbers from 1 and ranges, by commas (`3,7-9`).
fn parse_game_numbers(text: &str) -> Result<GameNumbers, String> {
    let mut ranges = Vec::new();
    for part in text.split(',').map(str::trim) {
        let number = |t: &str| {
            t.trim()
                .parse::<usize>()
                .ok()
                .filter(|n| *n >= 1)
                .ok_or_else(|| format!("{t:?} is not a game number (games count from 1)"))
        };
        let range = match part.split_once('-') {
            Some((lo, hi)) => (number(lo)?, number(hi)?),
            None => (number(part)?, number(part)?),
        };
        if range.0 > range.1 {
            return Err(format!("{part}: a range goes from the lower number up"));
        }
        ranges.push(range);
    }
    Ok(GameNumbers(ranges))
}

/// `checkers egdb`.
#[derive(Debug, Args)]
pub(crate) struct EgdbArgs {
    /// What to do with the databases.
    #[command(subcommand)]
    pub(crate) action: EgdbCommand,
}

/// The `egdb` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum EgdbCommand {
    /// Build every slice of up to N pieces by retrograde analysis (slices already built
    /// are kept: an interrupted build goes on where it stopped).
    Build(EgdbBuildArgs),
    /// The exact result of a position, its distance in moves and the best moves.
    Probe(EgdbProbeArgs),
    /// Re-check every slice (each value must follow from its moves) and print counts.
    Verify(EgdbVerifyArgs),
}

/// The most pieces `checkers egdb build` builds the slices of.
pub(crate) const EGDB_MOST_PIECES: u32 = 6;

/// `checkers egdb build`.
#[derive(Debug, Args)]
pub(crate) struct EgdbBuildArgs {
    /// Build every slice of up to this many pieces (2-6).
    #[arg(long, allow_negative_numbers = true, value_name = "N", default_value_t = 5, value_parser = whole::<u32>(2, i64::from(EGDB_MOST_PIECES)))]
    pub(crate) pieces: u32,
    /// Threads to build with [default: the number of cores].
    #[arg(long, allow_negative_numbers = true, value_name = "T", value_parser = whole::<u16>(1, 256).map(usize::from))]
    pub(crate) threads: Option<usize>,
    /// The database folder, one that exists [default: egdb in the data folder, made if
    /// need be].
    #[arg(long, value_name = "D")]
    pub(crate) dir: Option<PathBuf>,
}

/// `checkers egdb probe`.
#[derive(Debug, Args)]
pub(crate) struct EgdbProbeArgs {
    /// The position (PDN FEN), e.g. "W:WK19,K23:BK28,12".
    #[arg(long, value_parser = parse_start_fen)]
    pub(crate) fen: Position,
    /// The database folder [default: egdb in the data folder].
    #[arg(long, value_name = "D")]
    pub(crate) dir: Option<PathBuf>,
}

/// `checkers egdb verify`.
#[derive(Debug, Args)]
pub(crate) struct EgdbVerifyArgs {
    /// The database folder [default: egdb in the data folder].
    #[arg(long, value_name = "D")]
    pub(crate) dir: Option<PathBuf>,
    /// Threads to check with [default: the number of cores].
    #[arg(long, allow_negative_numbers = true, value_name = "T", value_parser = whole::<u16>(1, 256).map(usize::from))]
    pub(crate) threads: Option<usize>,
}

/// A playing level, 1-10.
pub(crate) fn level_parser() -> impl TypedValueParser<Value = Level> {
    whole::<u8>(1, 10).try_map(|n| Level::new(n).ok_or("a level is 1 to 10"))
}

/// The PDN file a full-screen board opens (`--load`): a file, not `-` (standard input,
/// which `analyse --load` and `pdn check` read), as the board is played at the keyboard.
fn parse_board_file(text: &str) -> Result<PathBuf, String> {
    if crate::store::is_stdin(std::path::Path::new(text)) {
        return Err(
            "the board reads no game from standard input (- is for analyse --load and \
             pdn check): save the game to a file and name it"
                .to_string(),
        );
    }
    Ok(PathBuf::from(text))
}

/// A game of a PDN file by its place in it, counting from 1 (`--game N`): anything else
/// is refused in words that say how games are counted.
pub(crate) fn parse_game_number(text: &str) -> Result<u32, String> {
    match text.trim().parse::<u32>() {
        Ok(0) => Err("games are counted from 1: --game 1 is the file's first game".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "'{}' is not a game number: give 1 for the file's first game, 2 for the second, and so on",
            crate::text::printable(text, 40)
        )),
    }
}

/// `server --listen`: an address and port (`0.0.0.0:4620`, `[::1]:4620`), a host name
/// that resolves and a port (`localhost:4620`: its first address), or a port alone
/// (every interface, as the default listens); an address or a name without a port
/// takes the default port.
fn parse_listen(text: &str) -> Result<std::net::SocketAddr, String> {
    use std::net::{IpAddr, Ipv4Addr, SocketAddr, ToSocketAddrs};
    let text = text.trim();
    let port = crate::server::DEFAULT_PORT;
    let example = "give ADDR:PORT (0.0.0.0:4620, every interface), HOST:PORT \
                   (localhost:4620) or a port alone (4620, every interface)";
    let shown = crate::text::printable(text, 80);
    if let Ok(address) = text.parse::<SocketAddr>() {
        return Ok(address);
    }
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::from((Ipv4Addr::UNSPECIFIED, port)));
    }
    if let Ok(ip) = text.trim_matches(['[', ']']).parse::<IpAddr>() {
        return Ok(SocketAddr::from((ip, port)));
    }
    let (host, port) = match text.rsplit_once(':') {
        Some((host, given)) => match given.parse::<u16>() {
            Ok(given) => (host, given),
            Err(_) => return Err(format!("'{shown}': '{given}' is not a port: {example}")),
        },
        None => (text, port),
    };
    if host.is_empty() || host.contains(char::is_whitespace) {
        return Err(format!(
            "'{shown}' is not an address to listen at: {example}"
        ));
    }
    match (host, port).to_socket_addrs() {
        Ok(mut found) => found
            .next()
            .ok_or_else(|| format!("'{shown}': {host} has no address: {example}")),
        Err(e) => Err(format!(
            "'{shown}': {host} does not resolve ({e}): {example}"
        )),
    }
}

/// `explore --games-limit`: how many games to read, 1 or more (0 would read none and
/// answer every position with nothing).
fn parse_games_limit(text: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(0) => Err("0 games would read nothing: give 1 or more".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err(format!(
            "'{}' is not a number of games: give 1 or more",
            crate::text::printable(text, 40)
        )),
    }
}

/// A time in milliseconds, 1 to `max`.
pub(crate) fn millis(max: u64) -> impl TypedValueParser<Value = Duration> {
    whole::<u64>(1, max as i64).map(Duration::from_millis)
}

/// A transposition table size in MB, 1-1024.
pub(crate) fn megabytes() -> impl TypedValueParser<Value = usize> {
    whole::<u16>(1, 1024).map(usize::from)
}

#[cfg(test)]
mod tests;
