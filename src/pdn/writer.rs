//! The strict PDN writer.

use super::{MAX_TAG_CHARS, MAX_TAGS, PdnGame, move_number};
use crate::game::tree::{MoveTree, Piece};
use crate::rules::Color;
use std::fmt::Write;

/// Tags written first, in this order, when present (GameType always is).
const ROSTER: [&str; 10] = [
    "GameType", "Event", "Site", "Date", "Round", "Black", "White", "Result", "SetUp", "FEN",
];

/// The Date tag of a record whose date is not known: the tag is one of the roster's,
/// always written.
pub(crate) const UNKNOWN_DATE: &str = "????.??.??";

/// Width that movetext lines are wrapped to.
const WIDTH: usize = 79;

/// `value` cut to the [`MAX_TAG_CHARS`] characters the reader takes, so that every
/// record written reads back: at the last space in reach (a list of moves, such as the
/// `Undone` tag, loses whole words from its end), else at the limit.
fn within_tag_limit(value: &str) -> &str {
    match value.char_indices().nth(MAX_TAG_CHARS) {
        None => value,
        Some((end, _)) => {
            let cut = &value[..end];
            match cut.rfind(' ') {
                Some(space) if space + 100 >= end => cut[..space].trim_end(),
                _ => cut,
            }
        }
    }
}

fn escape(value: &str) -> String {
    within_tag_limit(value)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace(['\n', '\r'], " ")
}

/// The game as strict PDN text: `[GameType "21"]` and the standard tags (Event, Site,
/// Date, Round, Black, White, Result; `??` where unknown), `SetUp`/`FEN` for a game
/// that does not start from the standard position, other tags after them (within the
/// reader's limits: a value cut to `MAX_TAG_CHARS`, at most `MAX_TAGS` tags), then the
/// numbered movetext wrapped at 79 columns (each move's clock reading in a comment after
/// it, `{[%clk 0:04:53]}`, where the game has one) and the result token.
///
/// ```
/// use checkers::pdn::{PdnGame, write_game};
/// use checkers::rules::Position;
/// let mut game = PdnGame::new(Position::start());
/// game.moves.push(Position::start().parse_move("11-15").unwrap());
/// let text = write_game(&game);
/// assert!(text.starts_with("[GameType \"21\"]\n[Event \"?\"]"));
/// assert!(text.ends_with("\n1. 11-15 *\n"));
/// ```
pub fn write_game(game: &PdnGame) -> String {
    let (mut out, result) = write_tags(game);
    let mut words = Vec::with_capacity(game.moves.len() * 3 / 2 + 2);
    let mut pos = game.start;
    for (ply, m) in game.moves.iter().enumerate() {
        let (number, color) = move_number(&game.start, ply);
        let notation = pos.notation(m);
        // A move number is one word with its move: a line never ends between them.
        words.push(if color == Color::Black {
            format!("{number}. {notation}")
        } else if ply == 0 {
            format!("{number}. ... {notation}")
        } else {
            notation
        });
        if let Some(Some(reading)) = game.clocks.get(ply) {
            words.push(format!("{{[%clk {}]}}", super::clock_text(*reading)));
        }
        pos = pos.play_unchecked(m);
    }
    words.push(result);
    wrap_into(&mut out, words);
    out
}

/// The game's tags as [`write_game`] writes them, with `tree`'s moves instead of the
/// game's: its main line, each variation in parentheses after the move it is an
/// alternative to (nested as deep as they go, numbered as PDN numbers them:
/// `1. 11-15 23-19 (1... 22-18 2. 15x22) 2. 8-11`), and its comments in braces, a
/// move's clock reading first in its comment (`{[%clk 0:04:31] good move}`), a long
/// one wrapped at its spaces as the moves are.
/// CheckerBoard and this program's reader read it back whole.
pub(crate) fn write_tree(game: &PdnGame, tree: &MoveTree) -> String {
    let mut header = game.clone();
    header.start = *tree.start();
    let (mut out, result) = write_tags(&header);
    let mut words = Vec::new();
    // The clock reading of the move just written, for the comment after it.
    let mut clock: Option<String> = None;
    for piece in tree.pieces() {
        if !matches!(piece, Piece::Comment(_))
            && let Some(reading) = clock.take()
        {
            words.push(format!("{{{reading}}}"));
        }
        match piece {
            Piece::Move {
                node, number, text, ..
            } => {
                // A move number is one word with its move: a line never ends between.
                words.push(match number {
                    Some(number) => format!("{number} {text}"),
                    None => text,
                });
                clock = (tree.clock(node)).map(|r| format!("[%clk {}]", super::clock_text(r)));
            }
            Piece::Open => words.push("(".into()),
            // A closing parenthesis sits against the word before it.
            Piece::Close => match words.last_mut() {
                Some(last) if last != "(" => last.push(')'),
                _ => words.push(")".into()),
            },
            // A move's clock reading and comment in one comment, the reading first.
            Piece::Comment(text) => {
                let text = text.replace('}', ")");
                let head = match clock.take() {
                    Some(reading) => format!("{{{reading}"),
                    None => "{".to_string(),
                };
                words.extend(comment_words(&head, &text));
            }
        }
    }
    if let Some(reading) = clock {
        words.push(format!("{{{reading}}}"));
    }
    // An opening parenthesis sits against the word after it.
    let mut joined: Vec<String> = Vec::with_capacity(words.len() + 1);
    let mut opening = false;
    for word in words {
        if opening {
            joined.push(format!("({word}"));
            opening = false;
        } else if word == "(" {
            opening = true;
        } else {
            joined.push(word);
        }
    }
    joined.push(result);
    wrap_into(&mut out, joined);
    out
}

/// `record` as the file it was loaded from had it, where `loaded` is that game's tree
/// (its variations and comments): the tree with `record`'s moves as its main line (a
/// line the record left, as where play went on from a move of it, stays as a
/// variation), each clock reading of `record` in the comment of its move
/// (`{[%clk 0:04:31] good move}`). Where the record stops before the file's game does
/// (moves taken back), the file's moves from there, with their clock readings, are a
/// variation beside the record's last move, as other PDN programs show them; the record's `Undone` tag still holds
/// what redo plays. [`write_game`]'s text when the tree has nothing more than the
/// record's moves, starts elsewhere, or cannot take the record's moves.
pub(crate) fn write_keeping(record: &PdnGame, loaded: &MoveTree) -> String {
    if *loaded.start() != record.start {
        return write_game(record);
    }
    let mut tree = loaded.clone();
    tree.go_to_start();
    for (ply, m) in record.moves.iter().enumerate() {
        if !tree.play_main(*m) {
            return write_game(record);
        }
        // The record's reading, not the file's, where the two differ.
        let here = tree.current();
        tree.set_clock(here, record.clocks.get(ply).copied().flatten());
    }
    // The file's moves after the record's last are not the record's: a variation.
    let went_on = tree.continuation_as_variation();
    tree.cut_after_current();
    if !went_on && !loaded.has_notes() {
        return write_game(record);
    }
    write_tree(record, &tree)
}

/// The words of the comment `{head text}` (`head` is `{` and any clock reading), for
/// the line filler to wrap at its spaces as it wraps moves: a line break it puts
/// between two words stands for one space, which the reader reads back as one. A run
/// of spaces stays with the word after it, so that none is lost at a break, and a line
/// break in `text` is a space (the reader reads one so).
fn comment_words(head: &str, text: &str) -> Vec<String> {
    let text = text.replace("\r\n", " ").replace(['\r', '\n'], " ");
    let mut words = vec![head.to_string()];
    // The comment's first word sits against a bare brace.
    let mut against_brace = head == "{";
    // Spaces not yet written: the one between two words and any more of a run.
    let mut spaces = usize::from(!against_brace);
    for part in text.split(' ') {
        if part.is_empty() {
            spaces += 1;
            continue;
        }
        match words.last_mut() {
            Some(brace) if against_brace => {
                brace.push_str(&" ".repeat(spaces));
                brace.push_str(part);
            }
            _ => words.push(format!("{}{part}", " ".repeat(spaces.saturating_sub(1)))),
        }
        against_brace = false;
        spaces = 1;
    }
    if let Some(last) = words.last_mut() {
        // Spaces at the end (none in a tree's comment, which is trimmed) are kept.
        last.push_str(&" ".repeat(spaces.saturating_sub(1)));
        last.push('}');
    }
    words
}

/// `words` after `out`, spaced and wrapped at [`WIDTH`] columns, and a newline.
fn wrap_into(out: &mut String, words: Vec<String>) {
    let mut line_len = 0;
    for word in words {
        let chars = word.chars().count();
        if line_len > 0 && line_len + 1 + chars > WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&word);
        line_len += chars;
    }
    out.push('\n');
}

/// The tag section of `game` as [`write_game`] writes it, and the result token that
/// closes its movetext.
fn write_tags(game: &PdnGame) -> (String, String) {
    // The result as the program reads the record, else unfinished.
    let result = game.recorded_result().unwrap_or("*").to_string();
    let set_up = game.start != crate::rules::Position::start();
    let mut out = String::new();
    for name in ROSTER {
        let value = match name {
            "GameType" => Some("21".to_string()),
            "Result" => Some(result.clone()),
            "SetUp" => set_up.then(|| "1".to_string()),
            "FEN" => set_up.then(|| game.start.to_string()),
            "Date" => Some(game.tag(name).unwrap_or(UNKNOWN_DATE).to_string()),
            "Event" | "Site" | "Round" | "Black" | "White" => {
                Some(game.tag(name).unwrap_or("?").to_string())
            }
            _ => None,
        };
        if let Some(value) = value {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(&value));
        }
    }
    // The reader takes at most MAX_TAGS tags, the roster's among them.
    let others = game
        .tags
        .iter()
        .filter(|(name, _)| !ROSTER.iter().any(|r| r.eq_ignore_ascii_case(name)))
        .filter(|(name, _)| !name.is_empty() && name.len() < MAX_TAG_CHARS)
        .take(MAX_TAGS - ROSTER.len());
    for (name, value) in others {
        let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
    }
    (out, result)
}
