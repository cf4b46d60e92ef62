//! The position in text, for plain mode: a board of square numbers and letters, and each
//! side's pieces by square in words (for screen readers).

use crate::game::Game;
use crate::rules::{Color, Piece, Position, Role, Square};

/// The board as text with `bottom`'s side nearest the reader (White: turned round, as
/// for the player of White across the network).
pub(crate) fn board_text_from(pos: &Position, bottom: Color) -> String {
    let rule = "+----".repeat(8) + "+\n";
    let mut out = format!("{:^41}\n{rule}", (!bottom).name());
    let turned = bottom == Color::White;
    for line in 0..8u8 {
        let row = if turned { line } else { 7 - line };
        for step in 0..8u8 {
            let col = if turned { 7 - step } else { step };
            let cell = match Square::from_row_col(row, col) {
                None => "    ".to_string(),
                Some(sq) => format!("{:>2} {}", sq.number(), glyph(pos.piece_at(sq))),
            };
            out.push('|');
            out.push_str(&cell);
        }
        out.push_str("|\n");
    }
    out.push_str(&rule);
    out.push_str(&format!("{:^41}\n", bottom.name()));
    out.push_str("b = Black man, B = Black king, w = White man, W = White king\n");
    out
}

fn glyph(piece: Option<Piece>) -> char {
    piece.map_or(' ', Piece::letter)
}

/// Each side's men and kings by square, in words a screen reader reads well: "Black:
/// men on 9, 10 and 11; a king on 28. White: men on 21 and 22; no kings."
pub(crate) fn pieces_text(pos: &Position) -> String {
    let squares = |color, role| -> Vec<String> {
        pos.pieces(color, role)
            .into_iter()
            .map(|sq: Square| sq.number().to_string())
            .collect()
    };
    let list = |items: &[String]| match items {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let group = |items: Vec<String>, one: &str, many: &str| match items.len() {
        0 => format!("no {many}"),
        1 => format!("{one} on {}", list(&items)),
        _ => format!("{many} on {}", list(&items)),
    };
    Color::ALL
        .into_iter()
        .map(|color| {
            format!(
                "{color}: {}; {}.",
                group(squares(color, Role::Man), "a man", "men"),
                group(squares(color, Role::King), "a king", "kings")
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The game's last move in words, for a player who cannot glance at the board: who
/// played it, its route, each piece it took and whether it crowned: "Last move: White's
/// 23x14, taking the Black man on 18." `None` before the first move.
pub(crate) fn last_move_text(game: &Game) -> Option<String> {
    let played = game.moves().last()?;
    let positions = game.positions();
    // `positions` holds the start and the position after each move.
    let before = positions.get(positions.len().checked_sub(2)?)?;
    let mover = before.turn();
    let taken: Vec<String> = played
        .captured()
        .into_iter()
        .filter_map(|sq: Square| {
            let piece = before.piece_at(sq)?;
            Some(format!("the {piece} on {}", sq.number()))
        })
        .collect();
    let mut text = format!("Last move: {mover}'s {played}");
    match taken.as_slice() {
        [] => {}
        [one] => text.push_str(&format!(", taking {one}")),
        [rest @ .., last] => text.push_str(&format!(", taking {} and {last}", rest.join(", "))),
    }
    let was_man = before
        .piece_at(played.from())
        .is_some_and(|p| p.role == Role::Man);
    let is_king = game
        .position()
        .piece_at(played.to())
        .is_some_and(|p| p.role == Role::King);
    if was_man && is_king {
        text.push_str(", crowned");
    }
    text.push('.');
    Some(text)
}

/// How many pieces each side has, men and kings: "Black has 11 (10 men, 1 king), White 12
/// (12 men, no kings)."
pub(crate) fn counts_text(pos: &Position) -> String {
    let count = |color: Color| {
        let men = pos.pieces(color, Role::Man).into_iter().count();
        let kings = pos.pieces(color, Role::King).into_iter().count();
        let men_words = match men {
            0 => "no men".to_string(),
            1 => "1 man".to_string(),
            n => format!("{n} men"),
        };
        let king_words = match kings {
            0 => "no kings".to_string(),
            1 => "1 king".to_string(),
            n => format!("{n} kings"),
        };
        format!("{} ({men_words}, {king_words})", men + kings)
    };
    format!(
        "Black has {}, White {}.",
        count(Color::Black),
        count(Color::White)
    )
}
