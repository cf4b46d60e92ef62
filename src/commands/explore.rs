//! `checkers explore`: the opening explorer on the command line.

use super::CommandError;
use crate::cli::ExploreArgs;
use crate::explorer::{Explorer, Tally, builtin, builtin_limited};
use crate::rules::{Color, Move, Position};
use crate::session::opening_name;
use std::io::Write;

/// Runs `checkers explore`: the position (the start, or `--fen`, after `--moves`), then
/// each move played from it in the collection, most played first, one a line: the
/// move, its games, Black wins / draws / White wins, the score of the side to move and
/// the opening's name; then how many games were read and skipped (for a file, with
/// where to see why). An empty collection is said as such: a file with no game is
/// refused, no saved game of the player's yet is said with the folder games go to.
pub(crate) fn run(args: &ExploreArgs, out: &mut impl Write) -> Result<(), CommandError> {
    let start = args.fen.unwrap_or_else(Position::start);
    let mut pos = start;
    let mut line: Vec<Move> = Vec::new();
    for word in args.moves.split_whitespace().filter(|w| !is_move_number(w)) {
        let m = pos.parse_move(word).map_err(|e| {
            // Which move of the list, numbered as `pdn check` and `analyse --load` number
            // a record's: `move 2. 14-19 (Black)`.
            let (number, color) = crate::game::move_number(&start, line.len());
            let dots = if color == Color::Black { "." } else { "..." };
            let word = crate::text::printable(word, 40);
            CommandError::BadMove(format!(
                "--moves: move {number}{dots} {word} ({color}): {e}"
            ))
        })?;
        pos = pos.play_unchecked(&m);
        line.push(m);
    }
    let owned;
    let explorer: &Explorer = match (&args.pdn, args.games_limit) {
        _ if args.mine => {
            owned = crate::explorer::mine(args.games_limit)?;
            if owned.games_read() + owned.games_skipped() == 0 {
                let folder = crate::store::games_dir().map_or_else(
                    || "the games folder".to_string(),
                    |d| d.display().to_string(),
                );
                writeln!(
                    out,
                    "no game of yours is saved yet: each game you play is kept in {folder} as it is played"
                )?;
                return Ok(());
            }
            &owned
        }
        (Some(file), limit) => {
            // An empty file, or one with no game in it, is said as `analyse --load`
            // says it, not as a position no game reaches.
            owned = crate::explorer::of_file(file, limit).map_err(CommandError::CheckFile)?;
            &owned
        }
        (None, Some(limit)) => {
            owned = builtin_limited(limit);
            &owned
        }
        (None, None) => builtin(),
    };
    write_moves(explorer, &start, &line, out)?;
    if let Some(file) = args.pdn.as_ref().filter(|_| explorer.games_skipped() > 0) {
        writeln!(
            out,
            "checkers pdn check {} lists the games skipped, each with its faulty move",
            crate::text::printable_path(file)
        )?;
    }
    Ok(())
}

/// Whether `word` of a list of moves is a move number (`1.`, `12...`), which is skipped
/// as a record's movetext skips it.
fn is_move_number(word: &str) -> bool {
    let digits = word.trim_end_matches('.');
    digits.len() < word.len() && !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit())
}

/// The explorer's moves at the position `line` leads to from `start`, as
/// `checkers explore` prints them (plain mode's `explore` shows the same text).
pub(crate) fn moves_text(explorer: &Explorer, start: &Position, line: &[Move]) -> String {
    let mut text = Vec::new();
    // Writing into memory cannot fail.
    let _ = write_moves(explorer, start, line, &mut text);
    String::from_utf8_lossy(&text).into_owned()
}

/// Writes the explorer's moves at the position `line` leads to from `start`, and the
/// count of games read and skipped.
fn write_moves(
    explorer: &Explorer,
    start: &Position,
    line: &[Move],
    out: &mut impl Write,
) -> Result<(), CommandError> {
    let pos = line.iter().fold(*start, |p, m| p.play_unchecked(m));
    if let Some(name) = opening_name(start, line) {
        writeln!(out, "Opening: {name}")?;
    }
    let moves = explorer.moves_from(&pos);
    if moves.is_empty() {
        writeln!(out, "no game in the collection reaches this position")?;
    } else {
        let mover = pos.turn();
        let side = match mover {
            Color::Black => "Black",
            Color::White => "White",
        };
        // Each move by its route (`19x10x1`), as the game's move list gives it; the
        // column as wide as the longest.
        let width = moves
            .iter()
            .map(|(m, _)| m.to_string().len())
            .max()
            .unwrap_or(0)
            .max(MOVE_COLUMN);
        writeln!(
            out,
            "{:<width$} {:>6} {:>6} {:>6} {:>6} {:>7}  opening",
            "move",
            "games",
            "black",
            "draws",
            "white",
            format!("{side}%")
        )?;
        for (m, tally) in &moves {
            let mut next = line.to_vec();
            next.push(*m);
            write_move(
                out,
                &m.to_string(),
                width,
                tally,
                mover,
                opening_name(start, &next),
            )?;
        }
    }
    let read = explorer.games_read();
    let mut said = format!("{read} game{} read", if read == 1 { "" } else { "s" });
    let (faulty, other_kinds) = (explorer.games_skipped(), explorer.games_of_other_kinds());
    // The reason only where a game was skipped: "0 skipped" had puzzled.
    if faulty > 0 {
        said.push_str(&format!(", {faulty} skipped (their moves do not replay)"));
    }
    // Games of another kind of draughts are said to be that, not faulty games.
    if other_kinds > 0 {
        said.push_str(&format!(
            ", {other_kinds} skipped as another kind of draughts (not GameType 21)"
        ));
    }
    writeln!(out, "{said}")?;
    Ok(())
}

/// The move column's least width, in characters.
const MOVE_COLUMN: usize = 8;

/// One move's line: the move (its route, padded to the column's width), games,
/// results, the mover's score and the opening name.
fn write_move(
    out: &mut impl Write,
    route: &str,
    width: usize,
    tally: &Tally,
    mover: Color,
    name: Option<&str>,
) -> Result<(), CommandError> {
    let score = tally
        .score_percent(mover)
        .map_or_else(|| "-".to_string(), |s| format!("{s:.1}%"));
    let line = format!(
        "{route:<width$} {:>6} {:>6} {:>6} {:>6} {score:>7}  {}",
        tally.games,
        tally.black_wins,
        tally.draws,
        tally.white_wins,
        name.unwrap_or("")
    );
    writeln!(out, "{}", line.trim_end())?;
    Ok(())
}
