//! The annotated PDN of a report: the game's record with each marked move given its NAG
//! (`$6` inaccuracy, `$2` mistake, `$4` blunder, `$1` a proven good move) and a comment
//! saying why with the better move and its line, and a comment before the first move
//! with each player's summary. Only the main line is written: no variations.

use super::Report;
use crate::pdn::{PdnGame, write_game};
use crate::rules::Color;

/// Width that movetext lines are wrapped to, as the PDN writer's.
const WIDTH: usize = 79;

/// The tag naming who annotated the game.
const ANNOTATOR: &str = "checkers game report";

/// `record` as PDN text annotated with `report` (made of the same game): the tags as
/// the PDN writer writes them with `Annotator` added, then the movetext with the NAGs
/// and comments, each move's clock reading kept.
pub(crate) fn annotated_pdn(record: &PdnGame, report: &Report) -> String {
    let mut header = record.clone();
    header.moves.clear();
    header.clocks.clear();
    header.set_tag("Annotator", ANNOTATOR);
    // The writer's tags; its movetext (the result alone) is ours to write.
    let written = write_game(&header);
    let mut out: String = written
        .lines()
        .take_while(|line| line.starts_with('['))
        .flat_map(|line| [line, "\n"])
        .collect();
    let names = [record.tag("Black"), record.tag("White")]
        .map(|name| name.filter(|n| !n.is_empty() && *n != "?"));
    let mut words: Vec<String> = Vec::new();
    let summaries: Vec<String> = Color::ALL
        .into_iter()
        .zip(names)
        .map(|(color, name)| super::words::summary_line(report, color, name))
        .collect();
    push_comment(
        &mut words,
        &format!("Game report: {}.", summaries.join("; ")),
    );
    let mut pos = record.start;
    for (ply, m) in record.moves.iter().enumerate() {
        let (number, color) = crate::game::move_number(&record.start, ply);
        // White's move after a comment is numbered again, as PDN and PGN writers do.
        let after_comment = words.last().is_some_and(|w| w.ends_with('}'));
        if color == Color::Black {
            words.push(format!("{number}."));
        } else if ply == 0 || after_comment {
            words.push(format!("{number}. ..."));
        }
        words.push(pos.notation(m));
        let scored = report.moves.get(ply).filter(|s| s.played == *m);
        if let Some(mark) = scored.and_then(|s| s.mark) {
            words.push(mark.nag().to_string());
        }
        if let Some(comment) = scored.and_then(super::words::comment) {
            push_comment(&mut words, &comment);
        }
        if let Some(Some(reading)) = record.clocks.get(ply) {
            words.push(format!("{{[%clk {}]}}", crate::pdn::clock_text(*reading)));
        }
        pos = pos.play_unchecked(m);
    }
    words.push(written.lines().last().unwrap_or("*").to_string());
    let mut line_len = 0;
    for word in words {
        if line_len > 0 && line_len + 1 + word.len() > WIDTH {
            out.push('\n');
            line_len = 0;
        } else if line_len > 0 {
            out.push(' ');
            line_len += 1;
        }
        out.push_str(&word);
        line_len += word.len();
    }
    out.push('\n');
    out
}

/// Adds `text` as a `{...}` comment to `words`, a word at a time so that it wraps (a
/// closing brace in it, which would end the comment, becomes a parenthesis).
fn push_comment(words: &mut Vec<String>, text: &str) {
    let text = text.replace('}', ")");
    let mut parts: Vec<String> = text.split_whitespace().map(String::from).collect();
    if let Some(first) = parts.first_mut() {
        first.insert(0, '{');
    }
    if let Some(last) = parts.last_mut() {
        last.push('}');
    }
    words.extend(parts);
}
