//! `checkers-lab match`: two computer players (levels, search parameters, networks, or
//! another program) play each other from a deck of openings: the match, its games and
//! its report (the engines' knowledge, the games against another program, the score by
//! player).

use super::LabError;
use super::cli::{MatchArgs, MatchPlayers};
use super::hub_engine::HubSettings;
use super::interrupt::Interrupt;
use super::opponent::Opponent;
use super::rating::{PairResults, Results, Sprt, SprtVerdict};
use crate::cli::SearchChoice;
use crate::engine::egdb::Egdb;
use crate::engine::nnue::Nnue;
use crate::engine::{
    Engine, Evaluation, Level, Limits, Opening, SearchParams, SearchRequest, acf_openings,
    parse_openings, plan_time,
};
use crate::game::Game;
use crate::pdn::write_game;
use crate::rules::{Color, DrawReason, Outcome};
use crate::runtime::computer::play_turn_now;
use crate::session::{Player, Seats, Session};
use crate::store::files::{append_text, check_appendable, read_bounded};
use std::collections::HashMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

/// One player's tally in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Wins, losses, draws with Black.
    pub(crate) as_black: [u32; 3],
    /// Wins, losses, draws with White.
    pub(crate) as_white: [u32; 3],
    /// Time spent thinking, over all its moves.
    pub(crate) thinking: Duration,
    /// Moves it thought about (those of the opening not counted).
    pub(crate) moves: u32,
}

/// Player A's games by pairs, each pair one opening with the colours reversed (games
/// `2k` and `2k + 1`): the first game to end waits for the other.
#[derive(Default)]
struct PairTally {
    /// A's points, in halves, in the first game to end of each pair still open.
    waiting: HashMap<usize, usize>,
    /// The pairs complete.
    results: PairResults,
}

impl PairTally {
    /// Counts game `game`, in which A scored `half_points` (0, 1 or 2).
    fn add(&mut self, game: usize, half_points: usize) {
        match self.waiting.remove(&(game / 2)) {
            Some(first) => self.results.by_points[first + half_points] += 1,
            None => {
                self.waiting.insert(game / 2, half_points);
            }
        }
    }
}

impl Tally {
    fn add(&mut self, color: Color, index: usize) {
        match color {
            Color::Black => self.as_black[index] += 1,
            Color::White => self.as_white[index] += 1,
        }
    }

    /// Wins, losses and draws over both colours.
    pub(crate) fn total(&self) -> [u32; 3] {
        [0, 1, 2].map(|i| self.as_black[i] + self.as_white[i])
    }

    /// The mean time a move took, in milliseconds.
    pub(crate) fn mean_move_ms(&self) -> f64 {
        self.thinking.as_secs_f64() * 1000.0 / f64::from(self.moves.max(1))
    }

    /// Points (a win 1, a draw 1/2) as a percentage of the games played.
    pub(crate) fn score_percent(&self) -> f64 {
        let [w, l, d] = self.total();
        let games = w + l + d;
        if games == 0 {
            0.0
        } else {
            (f64::from(w) + f64::from(d) / 2.0) * 100.0 / f64::from(games)
        }
    }
}

/// The largest openings file read: a deck of a thousand openings is some 50 KB.
pub(crate) const MAX_OPENINGS_BYTES: u64 = 16 << 20;

/// The openings a match plays, barred ones left out: those of the `--openings` file,
/// or of the built-in ACF deck.
pub(crate) fn openings(args: &MatchArgs) -> Result<Vec<Opening>, LabError> {
    let openings = match &args.openings {
        Some(file) => {
            // A FIFO or a device would block or never end: only a regular file is read,
            // and only one of a deck's size.
            let bytes = read_bounded(file, MAX_OPENINGS_BYTES)
                .map_err(|e| LabError::OpeningsFile(file.clone(), e))?;
            let text = String::from_utf8(bytes).map_err(|_| {
                let e = std::io::Error::new(std::io::ErrorKind::InvalidData, "it is not text");
                LabError::OpeningsFile(file.clone(), e)
            })?;
            parse_openings(&text).map_err(|e| LabError::Openings(file.display().to_string(), e))?
        }
        None => acf_openings(),
    };
    let openings: Vec<_> = openings.into_iter().filter(|o| !o.is_barred()).collect();
    if openings.is_empty() {
        let source = args.openings.as_deref().map_or_else(
            || "the built-in ACF deck".to_string(),
            |file| file.display().to_string(),
        );
        return Err(LabError::NoOpenings(source));
    }
    Ok(openings)
}

/// `--pdn`'s file that cannot take the games, said as every file option says it:
/// "--pdn FILE: it is a folder, ..." (the option, the file, why).
fn pdn_error(path: &std::path::Path, e: &crate::store::StoreError) -> LabError {
    LabError::DataFile(
        "--pdn",
        path.to_path_buf(),
        super::error::store_why(path, e),
    )
}

/// What a match of `games` games says when its `openings` (each played twice, once
/// with either colour) are too few for them: which games play the openings again, so
/// that a score is not taken for one over that many different openings.
fn repeated_openings(openings: usize, games: usize) -> Option<String> {
    let covered = openings * 2;
    (games > covered).then(|| {
        let deck = if openings == 1 {
            "1 opening to play gives 2 games".to_string()
        } else {
            format!("{openings} openings to play give {covered} games")
        };
        let again = if games == covered + 1 {
            format!("game {games} plays the first again")
        } else {
            format!(
                "games {} to {games} play them again from the first",
                covered + 1
            )
        };
        format!("{deck} (one with each colour): {again}")
    })
}

/// The players that play from the opening book: as asked, or by default both, but
/// neither against another program (which plays without this book, so that the book
/// would be an advantage the score does not show).
fn book_players(args: &MatchArgs) -> MatchPlayers {
    args.book.unwrap_or(if args.against.is_some() {
        MatchPlayers::None
    } else {
        MatchPlayers::Both
    })
}

/// Runs `checkers-lab match`: a line per game, then the score table. With `--pdn`, the
/// file is checked before the first game (a regular PDN file that can be added to, or
/// a new one), and each game is added at its end as soon as it is over. Ctrl-C
/// abandons the games in progress and prints the table of the games played.
pub(crate) fn run(args: &MatchArgs, out: &mut impl Write) -> Result<(), LabError> {
    let interrupt = Interrupt::watch("abandoning the games in progress");
    play_match(args, &interrupt, out).map(|_| ())
}

/// Plays the match of `args`, reporting as [`run`] does, until the `interrupt`.
/// Returns the tallies of players A and B.
pub(crate) fn play_match(
    args: &MatchArgs,
    interrupt: &Interrupt,
    out: &mut impl Write,
) -> Result<[Tally; 2], LabError> {
    let openings = openings(args)?;
    if let Some(note) = repeated_openings(openings.len(), args.games as usize) {
        writeln!(out, "{note}")?;
    }
    let egdb = match_egdb(args.egdb != MatchPlayers::None || args.adjudicate_egdb, out)?;
    if let Some(db) = egdb.as_ref().filter(|_| args.adjudicate_egdb) {
        writeln!(
            out,
            "games are adjudicated by the endgame databases once {} pieces or fewer are left",
            db.complete_pieces()
        )?;
    }
    if let Some(path) = &args.pdn {
        super::train::refuse_missing_folder("--pdn", path)?;
        check_appendable(path).map_err(|e| pdn_error(path, &e))?;
    }
    let levels = args.levels.0;
    let evals: [Evaluation; 2] =
        [args.eval_a, args.eval_b].map(|e| e.map(Into::into).unwrap_or_default());
    let read = |option, path: &Option<std::path::PathBuf>| {
        path.as_ref()
            .map(|path| super::train::read_network(option, path))
            .transpose()
    };
    let networks = [read("--net-a", &args.net_a)?, read("--net-b", &args.net_b)?];
    let book = book_players(args);
    let opponent = args.against.clone().map(|command| Opponent {
        command,
        hub: args.hub.then(|| HubSettings {
            hash_mb: args.hash_mb(),
            book: book.uses(1),
        }),
    });
    if let Some(opponent) = &opponent {
        opponent.check(args.movetime).map_err(LabError::Opponent)?;
    }
    let names = [0, 1].map(|p| {
        if p == 1
            && let Some(opponent) = &opponent
        {
            return crate::text::printable(&opponent.command, 40);
        }
        let mut name = levels[p].to_string();
        if args.egdb.uses(p) {
            name.push_str("+egdb");
        }
        if book.uses(p) && book != MatchPlayers::Both {
            name.push_str("+book");
        }
        if p == 1 && args.search_b == SearchChoice::Candidate {
            name.push_str("+candidate");
        }
        if args.threads_a != args.threads_b {
            let threads = [args.threads_a, args.threads_b][p];
            name.push_str(&format!("+{threads}t"));
        }
        if args.eval_a.is_some() || args.eval_b.is_some() {
            name.push('+');
            name.push_str(evals[p].name());
        }
        if let Some(path) = [&args.net_a, &args.net_b][p]
            && evals[p] == Evaluation::Net
        {
            let file = path.file_name().unwrap_or(path.as_os_str());
            name.push('+');
            name.push_str(&crate::text::printable(&file.to_string_lossy(), 30));
        }
        name
    });
    let sprt = args.sprt.map(|(elo0, elo1)| Sprt {
        elo0,
        elo1,
        alpha: 0.05,
        beta: 0.05,
    });
    let mut tallies = [Tally::default(); 2];
    let mut pairs = PairTally::default();
    let games = args.games as usize;
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (done, finished) = mpsc::channel();
    let setup = MatchSetup {
        args,
        openings: &openings,
        levels,
        egdb: &egdb,
        evals,
        networks,
        book,
        opponent: opponent.as_ref(),
        interrupt,
    };
    let mut decided = None;
    std::thread::scope(|scope| -> Result<(), LabError> {
        for _ in 0..args.concurrency.min(args.games) {
            let done = done.clone();
            let (next, stop, setup) = (&next, &stop, &setup);
            scope.spawn(move || {
                let mut engine = Engine::new(setup.args.hash_mb());
                loop {
                    let game = next.fetch_add(1, Ordering::SeqCst);
                    if game >= games || stop.load(Ordering::SeqCst) || interrupt.is_raised() {
                        break;
                    }
                    let Some(played) = setup.play(game, &mut engine) else {
                        break;
                    };
                    if done.send(played).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        // Reported as each game ends: a line, the PDN record, the running test.
        for played in finished {
            match report_game(args, &names, &played, out, &mut tallies) {
                Ok(half_points) => pairs.add(played.index, half_points),
                Err(error) => {
                    stop.store(true, Ordering::SeqCst);
                    return Err(error);
                }
            }
            if let Some(sprt) = sprt
                && decided.is_none()
            {
                let verdict = sprt.verdict(results_of(&tallies[0]));
                if verdict != SprtVerdict::Undecided {
                    decided = Some(verdict);
                    stop.store(true, Ordering::SeqCst);
                }
            }
        }
        Ok(())
    })?;
    writeln!(out)?;
    // Interrupted: the games played are all reported; the table is theirs.
    let played = tallies[0].total().iter().sum::<u32>();
    if interrupt.is_raised() {
        writeln!(
            out,
            "interrupted: {played} of {games} games played, those in progress left out"
        )?;
    }
    for row in standings(&names, &tallies) {
        writeln!(out, "{row}")?;
    }
    let results = results_of(&tallies[0]);
    match results.elo() {
        Some(e) => writeln!(
            out,
            "Elo difference A - B: {:+.1} +- {:.1} (95 %), {} games",
            e.elo,
            e.margin,
            results.games()
        )?,
        None => writeln!(
            out,
            "Elo difference A - B: not measurable from {} game{} ({} won, {} lost, {} drawn)",
            results.games(),
            if results.games() == 1 { "" } else { "s" },
            results.wins,
            results.losses,
            results.draws
        )?,
    }
    let by_pairs = pairs.results;
    // A game whose opening's other game was not played (an odd --games, a decided
    // --sprt) is in the games' line but not in the pairs': say how many.
    let label = "By pairs (an opening with both colours)";
    let unpaired = match pairs.waiting.len() {
        0 => String::new(),
        1 => " (1 game without its pair left out)".to_string(),
        n => format!(" ({n} games without their pair left out)"),
    };
    if by_pairs.pairs() == 0 {
        if !unpaired.is_empty() {
            writeln!(out, "{label}: no pair complete{unpaired}")?;
        }
    } else {
        let [none, half, one, one_half, two] = by_pairs.by_points;
        let n = by_pairs.pairs();
        let counts = format!(
            "{n} {}{unpaired}, A scoring 0, 1/2, 1, 3/2, 2 in {none}, {half}, {one}, {one_half}, {two}",
            if n == 1 { "pair" } else { "pairs" }
        );
        match by_pairs.elo() {
            Some(e) => writeln!(
                out,
                "{label}: {counts}: Elo A - B {:+.1} +- {:.1} (95 %)",
                e.elo, e.margin
            )?,
            None => writeln!(out, "{label}: {counts}: not measurable")?,
        }
    }
    if let Some(sprt) = sprt {
        let (lower, upper) = sprt.bounds();
        let llr = results.llr(sprt.elo0, sprt.elo1);
        let verdict = match decided.unwrap_or(SprtVerdict::Undecided) {
            SprtVerdict::Better => format!("A is better by {} Elo or more (H1)", sprt.elo1),
            SprtVerdict::NotBetter => format!("A is not better than {} Elo (H0)", sprt.elo0),
            SprtVerdict::Undecided => "undecided: play more games".to_string(),
        };
        writeln!(
            out,
            "SPRT [{}, {}]: LLR {llr:.2} (bounds {lower:.2}, {upper:.2}): {verdict}",
            sprt.elo0, sprt.elo1
        )?;
    }
    if interrupt.is_raised() {
        let pdn = match &args.pdn {
            Some(path) => format!(
                " (each of them is in {})",
                crate::text::printable_path(path)
            ),
            None => String::new(),
        };
        return Err(LabError::Interrupted(format!(
            "the table above counts the {played} of {games} games played{pdn}"
        )));
    }
    Ok(tallies)
}

/// The match's table, a row a player under a heading: the player's name, then its
/// wins, losses and draws with each colour and in all, its score and its time a move.
/// The name's column is measured in the columns a terminal gives it (a Chinese name in
/// an opponent's command takes two a character), so the numbers stand in columns
/// whatever the names.
fn standings(names: &[String; 2], tallies: &[Tally; 2]) -> Vec<String> {
    use crate::text::{columns, padded_to_columns};
    let labels = [0, 1].map(|player| format!("{} {}", ["A", "B"][player], names[player]));
    let width = labels.iter().map(|l| columns(l)).max().unwrap_or(0).max(12);
    let mut rows = vec![format!(
        "{} {:>14} {:>14} {:>14} {:>7} {:>8}",
        padded_to_columns("player", width),
        "Black W-L-D",
        "White W-L-D",
        "total W-L-D",
        "score",
        "ms/move"
    )];
    for (label, tally) in labels.iter().zip(tallies) {
        let wld = |v: [u32; 3]| format!("{}-{}-{}", v[0], v[1], v[2]);
        rows.push(format!(
            "{} {:>14} {:>14} {:>14} {:>6.1}% {:>8.1}",
            padded_to_columns(label, width),
            wld(tally.as_black),
            wld(tally.as_white),
            wld(tally.total()),
            tally.score_percent(),
            tally.mean_move_ms()
        ));
    }
    rows
}

/// Player A's wins, draws and losses in `tally`.
fn results_of(tally: &Tally) -> Results {
    let [wins, losses, draws] = tally.total();
    Results {
        wins,
        draws,
        losses,
    }
}

/// A game played, ready to report.
struct PlayedGame {
    /// Its number in the match, from 0.
    index: usize,
    /// The opening it started from.
    opening: Opening,
    /// Player A's colour.
    a_color: Color,
    /// How it went.
    session: Session,
    /// How it ended, when not by play.
    ending: Option<Ending>,
    /// Each player's (A, B) time spent thinking and moves thought about.
    thinking: [(Duration, u32); 2],
}

/// What a player searches with besides its level: endgame databases, an evaluation.
/// And how it uses its time.
struct Knowledge {
    egdb: Option<Arc<Egdb>>,
    /// Threads it searches with.
    threads: usize,
    evaluation: Evaluation,
    /// Its network, when not the embedded one.
    network: Option<Arc<Nnue>>,
    /// The search's numbers.
    params: SearchParams,
    /// The time per move (on a clock, the time its plan gives) is a wall (stop once the
    /// next iteration could not finish in it), as before time budgets, instead of a
    /// budget.
    wall: bool,
    /// Plays from the opening book.
    book: bool,
    /// Searches this many nodes a move at most, with no time limit (`--nodes`).
    nodes: Option<u64>,
}

impl Knowledge {
    fn apply(&self, request: SearchRequest) -> SearchRequest {
        let mut request = request
            .with_egdb(self.egdb.clone())
            .with_evaluation(self.evaluation)
            .with_network(self.network.clone());
        request.params = self.params;
        request.book = self.book;
        request.threads = self.threads;
        if let Some(nodes) = self.nodes {
            // The level's depth, if it has one, and the nodes: no time at all.
            request.limits = Limits {
                depth: request.limits.depth,
                nodes: Some(nodes),
                ..Limits::infinite()
            };
        } else if request.limits.clock.is_some() {
            // On a clock the clock alone says how long: the engine's time manager
            // plans each move from it.
            request.limits.target = None;
            request.limits.movetime = None;
            if self.wall {
                request.limits.movetime = request.planned_limits().target;
            }
        } else if self.wall
            && let Some(target) = request.limits.target.take()
        {
            request.limits.movetime = Some(target);
        }
        request
    }
}

/// How a game of a match ended when it was not played out.
enum Ending {
    /// The opponent program forfeited: why.
    Forfeit(String),
    /// The endgame databases settled it: their verdict in words ("White wins in 12
    /// moves", "drawn").
    Database(String),
}

/// What every game of a match shares.
struct MatchSetup<'a> {
    args: &'a MatchArgs,
    openings: &'a [Opening],
    levels: [Level; 2],
    egdb: &'a Option<Arc<Egdb>>,
    evals: [Evaluation; 2],
    /// Each player's network, when not the embedded one.
    networks: [Option<Arc<Nnue>>; 2],
    /// The players that play from the book ([`book_players`]).
    book: MatchPlayers,
    opponent: Option<&'a Opponent>,
    /// Ctrl-C: the games in progress are abandoned.
    interrupt: &'a Interrupt,
}

impl MatchSetup<'_> {
    /// Game `index` of the match: its opening, A's colour (Black in even games, White
    /// in odd ones, the same opening each time) and its seed. None when an interrupt
    /// abandoned it.
    fn play(&self, index: usize, engine: &mut Engine) -> Option<PlayedGame> {
        let args = self.args;
        let opening = self.openings[(index / 2) % self.openings.len()].clone();
        let a_color = if index.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        };
        let player = |color: Color| usize::from(color != a_color);
        let seed = args
            .seed
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(index as u64);
        let knowledge = [0, 1].map(|p| Knowledge {
            egdb: self.egdb.clone().filter(|_| args.egdb.uses(p)),
            threads: [args.threads_a, args.threads_b][p],
            evaluation: self.evals[p],
            network: self.networks[p].clone(),
            params: match (p, args.search_b) {
                (1, SearchChoice::Candidate) => SearchParams::CANDIDATE,
                _ => SearchParams::DEFAULT,
            },
            wall: args.wall.uses(p),
            book: self.book.uses(p),
            nodes: args.nodes,
        });
        engine.clear();
        let mut thinking = [(Duration::ZERO, 0u32); 2];
        let adjudicator = self.egdb.as_deref().filter(|_| args.adjudicate_egdb);
        let (session, ending) = match self.opponent {
            None => {
                // Each player its own table: one engine each, cleared for the game.
                let mut engines = [
                    std::mem::replace(engine, Engine::new(1)),
                    Engine::new(args.hash_mb()),
                ];
                let played = play_game(
                    &opening,
                    self.levels,
                    player,
                    &mut engines,
                    &knowledge,
                    adjudicator,
                    args,
                    seed,
                    &mut thinking,
                    self.interrupt,
                );
                let [mine, _] = engines;
                *engine = mine;
                played?
            }
            Some(opponent) => play_against(
                &opening,
                self.levels[0],
                a_color,
                engine,
                &knowledge[0],
                opponent,
                adjudicator,
                args,
                seed,
                &mut thinking,
                self.interrupt,
            )?,
        };
        Some(PlayedGame {
            index,
            opening,
            a_color,
            session,
            ending,
            thinking,
        })
    }
}

/// Reports a finished game: its line, its record (with `--pdn`, added at once) and the
/// tallies. Returns player A's points in it, in halves.
fn report_game(
    args: &MatchArgs,
    names: &[String; 2],
    played: &PlayedGame,
    out: &mut impl Write,
    tallies: &mut [Tally; 2],
) -> Result<usize, LabError> {
    let a_color = played.a_color;
    let player = |color: Color| usize::from(color != a_color);
    let label = |color: Color| {
        let p = player(color);
        format!("{} {}", ["A", "B"][p], names[p])
    };
    let session = &played.session;
    let outcome = session.game().result();
    let how = match (&played.ending, outcome) {
        (Some(Ending::Forfeit(why)), _) => format!("B forfeits: {why}"),
        (Some(Ending::Database(verdict)), _) => {
            format!("Adjudicated by the endgame databases: {verdict}")
        }
        // A computer agrees a draw in a match only when the session adjudicates one.
        (
            None,
            Some(Outcome::Draw {
                reason: DrawReason::Agreement,
            })
            | None,
        ) => format!("Draw adjudicated: {} plies played", args.max_plies),
        (None, Some(outcome)) => outcome.to_string(),
    };
    let result = outcome.map_or("1/2-1/2", |o| o.pdn_result());
    let plies = session.game().moves().len();
    writeln!(
        out,
        "game {}: opening {} ({}), Black {} - White {}: {result} {how}, {plies} plies",
        played.index + 1,
        played.opening.number,
        played.opening.moves,
        label(Color::Black),
        label(Color::White),
    )?;
    if let Some(path) = &args.pdn {
        let mut record = session.record(&crate::store::today());
        record.set_tag("Event", "checkers match");
        record.set_tag("Round", &(played.index + 1).to_string());
        record.set_tag("Black", &label(Color::Black));
        record.set_tag("White", &label(Color::White));
        record.set_tag("Termination", &how);
        if args.against.is_some() {
            // The session seats the other program as a person, whose moves it is given.
            record.set_tag(&format!("{}Type", !a_color), "program");
        }
        record.result = Some(result.to_string());
        append_text(path, &write_game(&record)).map_err(|e| pdn_error(path, &e))?;
    }
    let winner = outcome.and_then(|o| match o {
        Outcome::Win { winner, .. } => Some(winner),
        Outcome::Draw { .. } => None,
    });
    for (p, tally) in tallies.iter_mut().enumerate() {
        let color = if p == 0 { a_color } else { !a_color };
        let index = match winner {
            Some(w) if w == color => 0,
            Some(_) => 1,
            None => 2,
        };
        tally.add(color, index);
        tally.thinking += played.thinking[p].0;
        tally.moves += played.thinking[p].1;
    }
    Ok(match winner {
        Some(w) if w == a_color => 2,
        Some(_) => 0,
        None => 1,
    })
}

/// One game of player A (this engine at `level`, playing `a_color`) against another
/// program, through the session: A's moves are the session's computer turns, the
/// opponent's are played for it; the game is adjudicated a draw at `args.max_plies`.
/// A program that fails to answer with a legal move in time forfeits (it resigns).
/// With an `adjudicator`, a position it holds ends the game with its verdict. None
/// when an `interrupt` abandoned the game (the program, interrupted too, may have
/// failed: no forfeit).
#[allow(clippy::too_many_arguments)]
fn play_against(
    opening: &Opening,
    level: Level,
    a_color: Color,
    engine: &mut Engine,
    knowledge: &Knowledge,
    opponent: &Opponent,
    adjudicator: Option<&Egdb>,
    args: &MatchArgs,
    seed: u64,
    thinking: &mut [(Duration, u32); 2],
    interrupt: &Interrupt,
) -> Option<(Session, Option<Ending>)> {
    let mut game = Game::new();
    for m in &opening.line {
        // The deck's moves were checked when it was read.
        let _ = game.play(m);
    }
    let mut seats = Seats::PEOPLE;
    seats.set(a_color, Player::Computer(level));
    let mut session = match_session(game, seats, args, seed);
    let mut opponent = match opponent.for_game() {
        Ok(opponent) => opponent,
        Err(why) => {
            let _ = session.resign(!a_color);
            return Some((session, Some(Ending::Forfeit(why))));
        }
    };
    let ending = loop {
        if interrupt.is_raised() {
            opponent.finish();
            return None;
        }
        // On a clock, the time is now: a flag that fell ends the game.
        session.tick(Instant::now());
        if session.game().is_over() || session.adjudicate_at_cap() {
            break None;
        }
        if let Some(verdict) = adjudicate(&mut session, adjudicator) {
            break Some(verdict);
        }
        if session.computer_to_move().is_some() {
            let Some((_, result)) = play_turn_now(&mut session, engine, |r| knowledge.apply(r))
            else {
                break None;
            };
            thinking[0].0 += result.elapsed;
            thinking[0].1 += 1;
            continue;
        }
        let pos = *session.position();
        // The other program gets a time per move: on a clock, what its clock's plan
        // gives.
        let movetime = session.clock_limits().map_or(args.movetime, |clock| {
            plan_time(&clock, &SearchParams::DEFAULT).target
        });
        let asked = Instant::now();
        let answer = opponent.best_move(session.game(), movetime);
        if interrupt.is_raised() {
            continue;
        }
        thinking[1].0 += asked.elapsed();
        thinking[1].1 += 1;
        if session.tick(Instant::now()).is_some() {
            break None; // It lost on time while it thought.
        }
        match answer {
            Ok(m) if session.play(&m).is_ok() => {}
            Ok(m) => {
                let why = format!("{} is not legal here", pos.notation(&m));
                let _ = session.resign(!a_color);
                break Some(Ending::Forfeit(why));
            }
            Err(why) => {
                let _ = session.resign(!a_color);
                break Some(Ending::Forfeit(why));
            }
        }
    };
    opponent.finish();
    Some((session, ending))
}

/// The endgame databases of the data folder when a player uses them or they adjudicate
/// (`needed`): an error when
/// there are none, a `warning:` line for each damaged file left out.
fn match_egdb(needed: bool, out: &mut impl Write) -> Result<Option<Arc<Egdb>>, LabError> {
    if !needed {
        return Ok(None);
    }
    let dir = crate::store::egdb_dir().ok_or(LabError::NoDataFolder)?;
    let (db, problems) = Egdb::open(&dir);
    for problem in problems {
        writeln!(
            out,
            "warning: endgame database left out: {}",
            crate::text::printable(&problem.to_string(), crate::text::MAX_PATH_CHARS)
        )?;
    }
    if db.slices() == 0 {
        return Err(crate::engine::egdb::EgdbError::Empty(dir).into());
    }
    writeln!(
        out,
        "endgame databases: {} slices, complete up to {} pieces, from {}",
        db.slices(),
        db.complete_pieces(),
        dir.display()
    )?;
    Ok(Some(Arc::new(db)))
}

/// One game of a match from `opening`, played through the same session as a game at the
/// terminal: player `player(color)` (0 for A, 1 for B) plays `color` at its level with
/// its engine and its databases (`databases[player]`), `args.movetime` a move,
/// adjudicated a draw at `args.max_plies`, or by the `adjudicator`'s verdict once it
/// holds the position. Adds each player's thinking to `thinking`. None when an
/// `interrupt` abandoned the game.
#[allow(clippy::too_many_arguments)]
fn play_game(
    opening: &Opening,
    levels: [Level; 2],
    player: impl Fn(Color) -> usize,
    engines: &mut [Engine; 2],
    knowledge: &[Knowledge; 2],
    adjudicator: Option<&Egdb>,
    args: &MatchArgs,
    seed: u64,
    thinking: &mut [(Duration, u32); 2],
    interrupt: &Interrupt,
) -> Option<(Session, Option<Ending>)> {
    let mut game = Game::new();
    for m in &opening.line {
        // The deck's moves were checked when it was read.
        let _ = game.play(m);
    }
    let seats = Seats {
        black: Player::Computer(levels[player(Color::Black)]),
        white: Player::Computer(levels[player(Color::White)]),
    };
    let mut session = match_session(game, seats, args, seed);
    loop {
        if interrupt.is_raised() {
            return None;
        }
        // On a clock, the time is now: a flag that fell ends the game.
        session.tick(Instant::now());
        if let Some(verdict) = adjudicate(&mut session, adjudicator) {
            return Some((session, Some(verdict)));
        }
        let Some((color, _)) = session.computer_to_move() else {
            break;
        };
        let p = player(color);
        let Some((_, result)) =
            play_turn_now(&mut session, &mut engines[p], |r| knowledge[p].apply(r))
        else {
            break;
        };
        thinking[p].0 += result.elapsed;
        thinking[p].1 += 1;
    }
    Some((session, None))
}

/// Ends the game of `session` with the `adjudicator`'s verdict when it holds the
/// position on the board.
fn adjudicate(session: &mut Session, adjudicator: Option<&Egdb>) -> Option<Ending> {
    let turn = session.position().turn();
    let verdict = session.adjudicate_by_database(adjudicator?)?;
    Some(Ending::Database(verdict.describe(turn)))
}

/// The session of a match game from `game`: `args.movetime` a move, or on
/// `args.clock` from now; adjudicated a draw at `args.max_plies`.
fn match_session(game: Game, seats: Seats, args: &MatchArgs, seed: u64) -> Session {
    let session = Session::new(game)
        .with_seats(seats)
        .with_movetime(args.movetime)
        .with_ply_cap(args.max_plies)
        .with_seed(seed);
    match args.clock {
        Some(control) => session.with_clock(control, Instant::now()),
        None => session,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::cli::{LabCli, LabCommand};
    use clap::Parser;

    fn match_args(words: &[&str]) -> Result<MatchArgs, clap::Error> {
        let words = ["checkers-lab", "match"].iter().chain(words);
        match LabCli::try_parse_from(words)?.command {
            LabCommand::Match(args) => Ok(args),
            other => panic!("not match: {other:?}"),
        }
    }

    #[test]
    fn a_match_longer_than_its_openings_says_which_games_repeat_them() {
        assert_eq!(repeated_openings(67, 134), None);
        assert_eq!(
            repeated_openings(67, 148).as_deref(),
            Some(
                "67 openings to play give 134 games (one with each colour): games 135 to 148 play them again from the first"
            )
        );
        assert_eq!(
            repeated_openings(1, 3).as_deref(),
            Some(
                "1 opening to play gives 2 games (one with each colour): game 3 plays the first again"
            )
        );
    }

    fn knowledge(wall: bool) -> Knowledge {
        Knowledge {
            egdb: None,
            threads: 1,
            evaluation: Evaluation::default(),
            network: None,
            params: SearchParams::DEFAULT,
            wall,
            book: true,
            nodes: None,
        }
    }

    #[test]
    fn a_match_by_nodes_searches_no_time_and_keeps_the_levels_depth() {
        let args = match_args(&["--nodes", "5000"]).expect("nodes are a match option");
        assert_eq!(args.nodes, Some(5000));
        let by_nodes = Knowledge {
            nodes: args.nodes,
            ..knowledge(false)
        };
        let seats = Seats {
            black: Player::Computer(Level::MIN),
            white: Player::Computer(Level::MAX),
        };
        let session = match_session(Game::new(), seats, &args, 1);
        let limits = by_nodes
            .apply(session.move_request().expect("Black"))
            .limits;
        assert_eq!(
            limits,
            Limits {
                depth: Level::MIN.max_depth(),
                nodes: Some(5000),
                ..Limits::infinite()
            }
        );
        let mut game = Game::new();
        game.play_text("11-15").expect("a legal move");
        let session = match_session(game, seats, &args, 1);
        let limits = by_nodes
            .apply(session.move_request().expect("White"))
            .limits;
        assert_eq!(limits, Limits::nodes(5000));
        for clash in [["--movetime", "50"], ["--clock", "G/1"], ["--wall", "a"]] {
            let mut words = vec!["--nodes", "5000"];
            words.extend(clash);
            assert!(match_args(&words).is_err(), "{words:?}");
        }
        assert!(match_args(&["--nodes", "0"]).is_err());
    }

    const COMPUTERS: Seats = Seats {
        black: Player::Computer(Level::MAX),
        white: Player::Computer(Level::MAX),
    };

    #[test]
    fn on_a_clock_a_match_player_takes_its_time_from_the_clock() {
        let secs = Duration::from_secs;
        let args = match_args(&["--clock", "G/1"]).expect("a clock is a match option");
        let session = match_session(Game::new(), COMPUTERS, &args, 1);
        let request = || session.move_request().expect("the computer is to move");
        // A twentieth of the minute as a budget, up to three times it, rather than
        // the 100 ms a move of a match without a clock.
        let planned = knowledge(false).apply(request()).planned_limits();
        assert_eq!(
            (planned.target, planned.movetime),
            (Some(secs(3)), Some(secs(9)))
        );
        // With --wall, that twentieth is a wall.
        let planned = knowledge(true).apply(request()).planned_limits();
        assert_eq!((planned.target, planned.movetime), (None, Some(secs(3))));
        let args = match_args(&[]).expect("the defaults");
        let untimed = match_session(Game::new(), COMPUTERS, &args, 1);
        let request = untimed.move_request().expect("the computer is to move");
        let planned = knowledge(false).apply(request).planned_limits();
        let ms = Duration::from_millis;
        assert_eq!(
            (planned.target, planned.movetime),
            (Some(ms(100)), Some(ms(300)))
        );
        assert!(match_args(&["--clock", "G/1", "--movetime", "50"]).is_err());
    }

    #[test]
    fn a_wide_name_keeps_the_table_in_columns() {
        let names = ["level 3".to_string(), "./引擎 --快".to_string()];
        let tallies = [
            Tally {
                as_black: [1, 0, 0],
                ..Tally::default()
            },
            Tally {
                as_white: [0, 1, 0],
                ..Tally::default()
            },
        ];
        let rows = standings(&names, &tallies);
        let widths: Vec<usize> = rows.iter().map(|r| crate::text::columns(r)).collect();
        // Every row as wide on the screen as the heading: the numbers stand under it.
        assert!(widths.iter().all(|w| *w == widths[0]), "{rows:#?}");
        assert!(rows[2].starts_with("B ./引擎 --快 "), "{rows:#?}");
    }

    #[test]
    fn a_match_on_a_clock_records_the_clocks_of_its_games() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let pdn = dir.path().join("match.pdn");
        let pdn_arg = pdn.to_string_lossy().to_string();
        let words = [
            "--clock", "G/0:30", "--games", "2", "--level", "2", "--level", "2", "--pdn",
        ];
        let mut words = words.to_vec();
        words.push(&pdn_arg);
        let args = match_args(&words).expect("a match on a clock");
        let mut out = Vec::new();
        let tallies = play_match(&args, &Interrupt::none(), &mut out).expect("the match is played");
        assert_eq!(tallies[0].total().iter().sum::<u32>(), 2);
        let text = std::fs::read_to_string(&pdn).expect("the games were written");
        let games = crate::pdn::read_games(&text);
        assert_eq!(games.len(), 2);
        for game in games {
            let game = game.expect("a readable game");
            assert_eq!(game.tag("TimeControl"), Some("G/0:30"), "{text}");
            assert!(game.tag("BlackClock").is_some(), "{text}");
            assert!(game.tag("WhiteClock").is_some(), "{text}");
        }
    }
}
