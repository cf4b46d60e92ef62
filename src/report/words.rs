//! The report in words: each move with its mark and scores, the better move and its
//! line where a move is marked, and each player's summary. The command and the plain
//! line mode print [`report_text`]; the screen and the PDN comments use the pieces.

use super::{DECIDED, Mark, Report, ScoredMove};
use crate::engine::Score;
use crate::engine::egdb::Verdict;
use crate::engine::{line_notation, route_line};
use crate::rules::{Color, Move, Position};
use crate::session::score_in_men;
use std::fmt::Write;

/// What the report's scores mean, as its legend says it.
pub(crate) const SCORES_LEGEND: &str = "Scores are in men for Black: + Black ahead, - White; \
#B7 Black wins in 7. What a move gave away counts a score past 3 men as 3.";

/// A move's scores before and after it, in men for Black as the analysis board gives
/// them (whichever side moved): `+0.35` Black ahead, `-1.20` White ahead, `#B7` Black
/// wins in 7 moves, `#W4` White in 4.
pub(crate) fn scores(scored: &ScoredMove) -> (String, String) {
    let mover = scored.position.turn();
    (
        score_in_men(mover, scored.before),
        score_in_men(mover, scored.after),
    )
}

/// Whether the report counts `score` as [`DECIDED`] rather than as it is: a score past
/// three men either way, or a forced win or loss.
fn counted_as_decided(score: Score) -> bool {
    score.centi_men().is_none_or(|centi| centi.abs() > DECIDED)
}

/// A move's number as the move list writes it: `12.` for Black's, `12...` for White's.
pub(crate) fn move_label(report: &Report, ply: usize) -> String {
    let (number, color) = crate::game::move_number(&report.start, ply);
    match color {
        Color::Black => format!("{number}."),
        Color::White => format!("{number}..."),
    }
}

/// The move with its mark's symbol, a multi-jump by its route: `9-14??`, `15x22x29?`.
pub(crate) fn marked_move(scored: &ScoredMove) -> String {
    let symbol = scored.mark.map_or("", Mark::symbol);
    format!("{}{symbol}", scored.played)
}

/// What the databases' verdicts before and after a move say, for its player: "threw
/// the win away", "turned the win into a loss", "lost the draw"; `None` where the
/// verdict held.
fn verdict_change(was: Verdict, now: Verdict) -> Option<&'static str> {
    match (was, now) {
        (Verdict::Win(_), Verdict::Draw) => Some("threw the database win away"),
        (Verdict::Win(_), Verdict::Loss(_)) => Some("turned the database win into a loss"),
        (Verdict::Draw, Verdict::Loss(_)) => Some("lost the database draw"),
        _ => None,
    }
}

/// Why a move is marked, in a few words: "blunder: threw the database win away",
/// "mistake: gave away 0.75 men", "blunder: gave away 1.64 men (a score past 3 men
/// counts as 3)", "good move: the only move that keeps the win".
pub(crate) fn why(scored: &ScoredMove) -> Option<String> {
    let mark = scored.mark?;
    let reason = match (mark, scored.exact) {
        (Mark::Good, Some((Verdict::Win(_), _))) => "the only move that keeps the win".into(),
        (Mark::Good, _) => "the only move that keeps the draw".into(),
        (_, Some((was, now))) => verdict_change(was, now)
            .unwrap_or("made the databases' result worse")
            .to_string(),
        // The amount is counted within three men: where a score went past them, say so,
        // or the amount would not match the scores shown.
        _ if counted_as_decided(scored.before) || counted_as_decided(scored.after) => format!(
            "gave away {:.2} men (a score past 3 men counts as 3)",
            f64::from(scored.loss) / 100.0
        ),
        _ => format!("gave away {:.2} men", f64::from(scored.loss) / 100.0),
    };
    Some(format!("{}: {reason}", mark.name()))
}

/// The better move and its line, for a move marked bad, as a person reads them (a
/// multi-jump by its route): `better 10-14 (10-14 23-19 ...)`, or just `better 10-14`
/// where the line is the move alone.
pub(crate) fn better(scored: &ScoredMove) -> Option<String> {
    better_written(scored, |_, moves| route_line(moves))
}

/// [`better`] as `write` writes a line of moves from a position: by route for a
/// person, in record notation for a PDN comment.
fn better_written(
    scored: &ScoredMove,
    write: impl Fn(&Position, &[Move]) -> String,
) -> Option<String> {
    let first = scored.better.first()?;
    let mv = write(&scored.position, std::slice::from_ref(first));
    if scored.better.len() == 1 {
        return Some(format!("better {mv}"));
    }
    Some(format!(
        "better {mv} ({})",
        write(&scored.position, &scored.better)
    ))
}

/// The comment the annotated PDN gives a marked move: "Blunder: threw the database win
/// away. Better 10-14 (10-14 23-19 ...)."
pub(crate) fn comment(scored: &ScoredMove) -> Option<String> {
    let mut text = crate::text::capitalized(&why(scored)?);
    // A record's comment keeps the record's short form.
    if let Some(better) = better_written(scored, line_notation) {
        text.push_str(". ");
        text.push_str(&crate::text::capitalized(&better));
    }
    text.push('.');
    Some(text)
}

/// The words of a summary's counts: `2 inaccuracies, 1 mistake, 0 blunders` (and the
/// proven good moves where there are any).
pub(crate) fn counts(report: &Report, color: Color) -> String {
    let summary = report.summary(color);
    let mut parts: Vec<String> = Mark::BAD
        .iter()
        .map(|mark| {
            let n = summary.count(*mark);
            let name = match (mark, n) {
                (Mark::Inaccuracy, 1) => "inaccuracy",
                (Mark::Inaccuracy, _) => "inaccuracies",
                (Mark::Mistake, 1) => "mistake",
                (Mark::Mistake, _) => "mistakes",
                (_, 1) => "blunder",
                _ => "blunders",
            };
            format!("{n} {name}")
        })
        .collect();
    if summary.good > 0 {
        parts.push(format!(
            "{} good move{}",
            summary.good,
            if summary.good == 1 { "" } else { "s" }
        ));
    }
    parts.join(", ")
}

/// How much of a player's name (from a file, perhaps a hostile one) the report shows.
pub(crate) const SHOWN_NAME_CHARS: usize = 60;

/// One player's summary line: `Black (Ann): 1 inaccuracy, 0 mistakes, 1 blunder;
/// average loss 0.12 men a move`. The name is shown as
/// [`printable`](crate::text::printable) makes it: no escape sequence reaches the
/// terminal.
pub(crate) fn summary_line(report: &Report, color: Color, name: Option<&str>) -> String {
    let who = match name {
        Some(name) => format!(
            "{color} ({})",
            crate::text::printable(name, SHOWN_NAME_CHARS)
        ),
        None => color.to_string(),
    };
    format!(
        "{who}: {}; average loss {:.2} men a move",
        counts(report, color),
        report.summary(color).average_loss()
    )
}

/// The whole report as text: the legend of the scores, a line per move (its number,
/// the move and its mark, the score before and after it for Black, and for a marked
/// move why and the better move with its line), then a summary line for each player.
/// `names` are Black's and White's, where known.
pub(crate) fn report_text(report: &Report, names: [Option<&str>; 2]) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{SCORES_LEGEND}");
    for (ply, scored) in report.moves.iter().enumerate() {
        let (before, after) = scores(scored);
        let mut line = format!(
            "{:<7}{:<10}{before:>9} -> {after:<9}",
            move_label(report, ply),
            marked_move(scored),
        );
        if let Some(why) = why(scored) {
            line.push_str("  ");
            line.push_str(&why);
        }
        if let Some(better) = better(scored) {
            line.push_str("; ");
            line.push_str(&better);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    if !report.is_complete() {
        let _ = writeln!(
            out,
            "(scored {} of {} moves)",
            report.moves.len(),
            report.total
        );
    }
    for (color, name) in Color::ALL.into_iter().zip(names) {
        let _ = writeln!(out, "{}", summary_line(report, color, name));
    }
    out
}
