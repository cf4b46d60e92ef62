//! Puzzles from a PDN file of the player's own (a teacher's for a lesson): each game a
//! position set up (`[FEN "..."]`) with the solution as its moves, the way PDN puzzle
//! collections are written; `[Result "1/2-1/2"]` makes the goal a draw, any other a
//! win for the side to move. Every solution is replayed when the file is read: a
//! puzzle whose moves cannot be played is left out, and said which and why; the good
//! ones are kept. Their progress is kept in a file of its own for each puzzle file.
//!
//! The teacher's comments are kept: the one before the first move is the puzzle's hint,
//! those after the solution's moves its explanation, told once it is solved or its
//! solution shown.

use super::{Goal, Kind, Puzzle};
use crate::game::tree::{MoveTree, ROOT};
use crate::pdn::PdnGame;
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The folder of the data folder that holds each puzzle file's progress.
const PROGRESS_FOLDER: &str = "puzzle-files";

/// The puzzles read from a file, with what was left out of it.
#[derive(Debug)]
pub(crate) struct PuzzleFile {
    /// The good puzzles, in the file's order.
    pub(crate) puzzles: Vec<Puzzle>,
    /// Each good puzzle's number in the file (from 1), as a teacher finds it there.
    pub(crate) numbers: Vec<usize>,
    /// Each puzzle left out, in words: "puzzle 3 (line 12) left out: ...".
    pub(crate) left_out: Vec<String>,
}

/// The puzzles of the PDN file at `path`; a file that cannot be read, or holds no good
/// puzzle, is an error that says why (the faults of its puzzles among it).
pub(crate) fn read(path: &Path) -> Result<PuzzleFile, String> {
    let shown = crate::text::printable_path(path);
    let bytes = crate::store::files::read_file(path).map_err(|e| e.to_string())?;
    let text = crate::pdn::decode_owned(bytes);
    let read = from_text(&text, &shown);
    if read.puzzles.is_empty() {
        let mut why = format!("{shown} holds no puzzle that can be used");
        if !read.left_out.is_empty() {
            why.push_str(": ");
            why.push_str(&read.left_out.join("; "));
        } else {
            why.push_str(" (each game a [FEN \"...\"] set-up with its solution as its moves)");
        }
        return Err(why);
    }
    Ok(read)
}

/// The puzzles of PDN `text`, the file being named `shown` in each puzzle's source.
pub(crate) fn from_text(text: &str, shown: &str) -> PuzzleFile {
    let mut puzzles = Vec::new();
    let mut numbers = Vec::new();
    let mut left_out = Vec::new();
    for (index, game) in crate::pdn::games_with_trees(text).enumerate() {
        let number = index + 1;
        match game {
            Ok((game, tree)) => match puzzle_of(&game, &tree, number, shown) {
                Ok(puzzle) => {
                    puzzles.push(puzzle);
                    numbers.push(number);
                }
                Err(why) => left_out.push(format!("puzzle {number} left out: {why}")),
            },
            // The reader's words name the game (its number), the move and its line.
            Err(fault) => left_out.push(format!("puzzle {number} left out: {fault}")),
        }
    }
    PuzzleFile {
        puzzles,
        numbers,
        left_out,
    }
}

/// Puzzle `number` of the file `shown`, from its game `game` (its moves replayed
/// already) and its move tree `tree` (its comments), or why it cannot be one.
fn puzzle_of(
    game: &PdnGame,
    tree: &MoveTree,
    number: usize,
    shown: &str,
) -> Result<Puzzle, String> {
    let event = game.tag("Event").filter(|e| !e.is_empty() && *e != "?");
    let named = event.map_or(format!("game {number}"), |e| {
        format!("game {number} ({e:?})")
    });
    if game.tag("FEN").is_none() {
        return Err(format!(
            "{named} sets up no position (a puzzle needs a [FEN \"...\"] tag)"
        ));
    }
    let mut solution = game.moves.clone();
    // The solution ends on the player's move: a defender's answer after it is no part
    // of what the player finds.
    if solution.len().is_multiple_of(2) {
        solution.pop();
    }
    if solution.is_empty() {
        return Err(format!(
            "{named} has no solution (its moves are the solution)"
        ));
    }
    let goal = match game.result.as_deref().or(game.tag("Result")) {
        Some("1/2-1/2") => Goal::Draw,
        _ => Goal::Win,
    };
    let fen = game.start.to_string();
    Ok(Puzzle {
        // Its position and solution name it, so that progress follows a puzzle moved
        // about in the file, and an edited one starts afresh.
        id: format!("{fen} {}", crate::engine::route_line(&solution)),
        title: event.map_or(format!("Puzzle {number}"), str::to_string),
        source: format!("{shown}, game {number}"),
        kind: Kind::Study,
        start: game.start,
        goal,
        only_move: false,
        solution,
        proof: format!("the solution given in {shown}"),
        hint: tree.comment(ROOT).map(comment_text),
        explanation: explanation(tree),
    })
}

/// A comment as one line of words: its line breaks and runs of spaces made one space
/// (a teacher wraps a long comment in the file), and no control characters.
fn comment_text(comment: &str) -> String {
    let words: Vec<&str> = comment.split_whitespace().collect();
    crate::text::printable(&words.join(" "), crate::game::tree::MAX_COMMENT_CHARS)
}

/// The comments on the main line's moves, each after the move it follows ("After
/// 19-23: now Black must give way."), or `None` where there are none.
fn explanation(tree: &MoveTree) -> Option<String> {
    let mut tree = tree.clone();
    tree.go_to_start();
    let mut said = Vec::new();
    while tree.forward() {
        if let (Some(comment), Some(played)) = (tree.comment(tree.current()), tree.last_move()) {
            said.push(format!("After {played}: {}", comment_text(comment)));
        }
    }
    (!said.is_empty()).then(|| said.join(" "))
}

/// Where the progress with the puzzle file `path` is kept: a file of its own in the
/// data folder, named after the file and a digest of its full path, so that two files
/// (two lessons named alike in different folders) never share progress.
pub(crate) fn progress_path(path: &Path) -> Option<PathBuf> {
    let full = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let digest = Sha256::digest(full.to_string_lossy().as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    let stem: String = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .take(40)
        .collect();
    crate::store::data_dir().map(|dir| dir.join(PROGRESS_FOLDER).join(format!("{stem}-{hex}.json")))
}
