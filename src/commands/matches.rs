//! `checkers match`: two computer levels play each other from a deck of openings.

use super::CommandError;
use crate::cli::{EgdbPlayers, MatchArgs};
use crate::engine::egdb::Egdb;
use crate::engine::{Engine, Level, Opening, StopFlag, acf_openings, parse_openings};
use crate::game::Game;
use crate::pdn::write_game;
use crate::rules::{Color, DrawReason, Outcome};
use crate::session::{Player, Seats, Session};
use crate::store::files::{append_text, check_appendable};
use std::io::Write;
use std::sync::Arc;

/// One player's tally in a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Wins, losses, draws with Black.
    pub as_black: [u32; 3],
    /// Wins, losses, draws with White.
    pub as_white: [u32; 3],
}

impl Tally {
    fn add(&mut self, color: Color, index: usize) {
        match color {
            Color::Black => self.as_black[index] += 1,
            Color::White => self.as_white[index] += 1,
        }
    }

    /// Wins, losses and draws over both colours.
    pub fn total(&self) -> [u32; 3] {
        [0, 1, 2].map(|i| self.as_black[i] + self.as_white[i])
    }

    /// Points (a win 1, a draw 1/2) as a percentage of the games played.
    pub fn score_percent(&self) -> f64 {
        let [w, l, d] = self.total();
        let games = w + l + d;
        if games == 0 {
            0.0
        } else {
            (f64::from(w) + f64::from(d) / 2.0) * 100.0 / f64::from(games)
        }
    }
}

/// The openings a match plays, barred ones left out: those of the `--openings` file,
/// or of the built-in ACF deck.
pub fn openings(args: &MatchArgs) -> Result<Vec<Opening>, CommandError> {
    let openings = match &args.openings {
        Some(file) => {
            // A FIFO or a device would block or never end: only a regular file is read.
            if let Ok(meta) = std::fs::metadata(file)
                && !meta.is_file()
            {
                let e = std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    "it is not a regular file",
                );
                return Err(CommandError::OpeningsFile(file.clone(), e));
            }
            let text = std::fs::read_to_string(file)
                .map_err(|e| CommandError::OpeningsFile(file.clone(), e))?;
            parse_openings(&text)
                .map_err(|e| CommandError::Openings(file.display().to_string(), e))?
        }
        None => acf_openings(),
    };
    let openings: Vec<_> = openings.into_iter().filter(|o| !o.is_barred()).collect();
    if openings.is_empty() {
        let source = args.openings.as_deref().map_or_else(
            || "the built-in ACF deck".to_string(),
            |file| file.display().to_string(),
        );
        return Err(CommandError::NoOpenings(source));
    }
    Ok(openings)
}

/// Runs `checkers match`: a line per game, then the score table. With `--pdn`, the
/// file is checked before the first game (a regular PDN file that can be added to, or
/// a new one), and each game is added at its end as soon as it is over.
pub fn run(args: &MatchArgs, out: &mut impl Write) -> Result<(), CommandError> {
    play_match(args, out).map(|_| ())
}

/// Plays the match of `args`, reporting as [`run`] does. Returns the tallies of
/// players A and B.
pub fn play_match(args: &MatchArgs, out: &mut impl Write) -> Result<[Tally; 2], CommandError> {
    let openings = openings(args)?;
    let egdb = match_egdb(args.egdb, out)?;
    if let Some(path) = &args.pdn {
        check_appendable(path).map_err(CommandError::PdnFile)?;
    }
    let levels = args.levels.0;
    let names = [0, 1].map(|p| {
        let level = levels[p].to_string();
        if args.egdb.uses(p) {
            format!("{level}+egdb")
        } else {
            level
        }
    });
    let mut engines = [Engine::new(args.hash), Engine::new(args.hash)];
    let mut tallies = [Tally::default(); 2];
    for game in 0..args.games as usize {
        let opening = &openings[(game / 2) % openings.len()];
        // Even games: A has Black; odd games: the same opening with colours swapped.
        let a_color = if game % 2 == 0 {
            Color::Black
        } else {
            Color::White
        };
        for engine in &mut engines {
            engine.clear();
        }
        let player = |color: Color| usize::from(color != a_color);
        let seed = args
            .seed
            .wrapping_mul(0x9E37_79B9)
            .wrapping_add(game as u64);
        let databases = [0, 1].map(|p| egdb.clone().filter(|_| args.egdb.uses(p)));
        let session = play_game(
            opening,
            levels,
            player,
            &mut engines,
            &databases,
            args,
            seed,
        );
        let label = |color: Color| {
            let p = player(color);
            format!("{} {}", ["A", "B"][p], names[p])
        };
        let outcome = session.game().result();
        let how = match outcome {
            // Two computers agree a draw only when the session adjudicates one.
            Some(Outcome::Draw {
                reason: DrawReason::Agreement,
            })
            | None => format!("Draw adjudicated: {} plies played", args.max_plies),
            Some(outcome) => outcome.to_string(),
        };
        let result = outcome.map_or("1/2-1/2", |o| o.pdn_result());
        let plies = session.game().moves().len();
        writeln!(
            out,
            "game {}: opening {} ({}), Black {} - White {}: {result} {how}, {plies} plies",
            game + 1,
            opening.number,
            opening.moves,
            label(Color::Black),
            label(Color::White),
        )?;
        if let Some(path) = &args.pdn {
            let mut record = session.record(&crate::store::today());
            record.set_tag("Event", "checkers match");
            record.set_tag("Round", &(game + 1).to_string());
            record.set_tag("Black", &label(Color::Black));
            record.set_tag("White", &label(Color::White));
            record.set_tag("Termination", &how);
            record.result = Some(result.to_string());
            append_text(path, &write_game(&record)).map_err(CommandError::PdnFile)?;
        }
        let winner = outcome.and_then(|o| match o {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        });
        for (player, tally) in tallies.iter_mut().enumerate() {
            let color = if player == 0 { a_color } else { !a_color };
            let index = match winner {
                Some(w) if w == color => 0,
                Some(_) => 1,
                None => 2,
            };
            tally.add(color, index);
        }
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:<12} {:>14} {:>14} {:>14} {:>7}",
        "player", "Black W-L-D", "White W-L-D", "total W-L-D", "score"
    )?;
    for (player, tally) in tallies.iter().enumerate() {
        let wld = |v: [u32; 3]| format!("{}-{}-{}", v[0], v[1], v[2]);
        writeln!(
            out,
            "{:<12} {:>14} {:>14} {:>14} {:>6.1}%",
            format!("{} {}", ["A", "B"][player], names[player]),
            wld(tally.as_black),
            wld(tally.as_white),
            wld(tally.total()),
            tally.score_percent()
        )?;
    }
    Ok(tallies)
}

/// The endgame databases of the data folder when a player uses them: an error when
/// there are none, a `warning:` line for each damaged file left out.
fn match_egdb(
    players: EgdbPlayers,
    out: &mut impl Write,
) -> Result<Option<Arc<Egdb>>, CommandError> {
    if players == EgdbPlayers::None {
        return Ok(None);
    }
    let dir = crate::store::egdb_dir().ok_or(CommandError::NoDataFolder)?;
    let (db, problems) = Egdb::open(&dir);
    for problem in problems {
        writeln!(out, "warning: endgame database left out: {problem}")?;
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
/// adjudicated a draw at `args.max_plies`.
fn play_game(
    opening: &Opening,
    levels: [Level; 2],
    player: impl Fn(Color) -> usize,
    engines: &mut [Engine; 2],
    databases: &[Option<Arc<Egdb>>; 2],
    args: &MatchArgs,
    seed: u64,
) -> Session {
    let mut game = Game::new();
    for m in &opening.line {
        // The deck's moves were checked when it was read.
        let _ = game.play(m);
    }
    let seats = Seats {
        black: Player::Computer(levels[player(Color::Black)]),
        white: Player::Computer(levels[player(Color::White)]),
    };
    let mut session = Session::new(game)
        .with_seats(seats)
        .with_movetime(args.movetime)
        .with_ply_cap(args.max_plies)
        .with_seed(seed);
    while let Some((color, _)) = session.computer_to_move() {
        let p = player(color);
        let Some(request) = session.move_request() else {
            break;
        };
        let request = request.with_egdb(databases[p].clone());
        let result = engines[p].search(&request, &StopFlag::new(), |_| {});
        if session.computer_played(&result).is_none() {
            break;
        }
    }
    session
}
