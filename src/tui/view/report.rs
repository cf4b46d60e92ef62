//! The game report's panel: how far the scoring is, the score graph across the game
//! with the move shown marked, the move shown with its scores and the better move, the
//! list of marked moves, and each player's summary.

use super::*;
use crate::report::words::{SCORES_LEGEND, better, marked_move, move_label, scores, why};
use crate::report::{DECIDED, Mark, Report};
use crate::tui::app::ReportView;
use ratatui::symbols::Marker;
use ratatui::widgets::{Axis, Chart, Dataset, GraphType};

/// Rows of the summary at the panel's foot: one a player.
const SUMMARY_ROWS: u16 = 2;

/// Draws the report in `area` (the panel's place, or the board's on a screen with no
/// panel).
pub(super) fn render_report(app: &App, view: &ReportView, area: Rect, buf: &mut Buffer) {
    if area.is_empty() {
        return;
    }
    let theme = &app.theme;
    let block = Block::bordered()
        .border_set(theme.glyphs.border)
        .title(" Game report ")
        .title_style(theme.heading)
        .border_style(theme.border);
    let inner = block.inner(area);
    Clear.render(area, buf);
    block.render(area, buf);
    if inner.height < 4 || inner.width < 10 {
        return;
    }
    let width = usize::from(inner.width);
    let report = &view.report;
    let mut y = inner.y;
    let row = |y: u16| Rect::new(inner.x, y, inner.width, 1);
    progress_line(app, view, width).render(row(y), buf);
    y += 1;
    // The graph takes a third of the panel, at least four rows.
    let graph_rows = (inner.height / 3)
        .max(4)
        .min(inner.height.saturating_sub(4));
    let graph = Rect::new(inner.x, y, inner.width, graph_rows);
    render_graph(app, view, graph, buf);
    y += graph_rows;
    let bottom = inner.y + inner.height;
    let summary_top = bottom.saturating_sub(SUMMARY_ROWS);
    // The move shown, then the marked moves, above the summary.
    let mut lines = shown_lines(app, view, width);
    lines.push(Line::styled("Marked moves", theme.heading));
    let list_room = usize::from(summary_top.saturating_sub(y)).saturating_sub(lines.len());
    lines.extend(marked_lines(app, view, list_room));
    let room = summary_top.saturating_sub(y);
    Paragraph::new(lines)
        .style(theme.text)
        .render(Rect::new(inner.x, y, inner.width, room), buf);
    for (i, color) in Color::ALL.into_iter().enumerate() {
        let y = summary_top + i as u16;
        if y < bottom {
            summary_line(app, report, color).render(row(y), buf);
        }
    }
}

/// `Scoring 12 of 61 positions [#####.....]` while the scores come, then what the
/// report holds.
fn progress_line(app: &App, view: &ReportView, width: usize) -> Line<'static> {
    let theme = &app.theme;
    let (done, all) = view.progress();
    if !view.scoring() {
        let marked = view.report.marked().count();
        return Line::styled(
            format!(
                "{} move{} scored, {marked} marked",
                view.report.moves.len(),
                if view.report.moves.len() == 1 {
                    ""
                } else {
                    "s"
                }
            ),
            theme.text,
        );
    }
    let text = format!("Scoring {done} of {all} ");
    let bar_width = width.saturating_sub(text.chars().count() + 2).min(20);
    let filled = (bar_width * done).checked_div(all).unwrap_or(0);
    let (full, empty) = if theme.glyphs.arrows.is_ascii() {
        ("#", ".")
    } else {
        ("\u{2588}", "\u{2591}")
    };
    Line::from(vec![
        Span::styled(text, theme.question),
        Span::styled(full.repeat(filled), theme.heading),
        Span::styled(empty.repeat(bar_width - filled), theme.border),
    ])
}

/// The score graph: Black's advantage in men across the game (up is Black ahead), held
/// within three men, a line along the even score and one at the move shown. A Braille
/// chart, or in ASCII a plot of `*`.
fn render_graph(app: &App, view: &ReportView, area: Rect, buf: &mut Buffer) {
    let theme = &app.theme;
    let plies = view.moves().len().max(1) as f64;
    let top = f64::from(DECIDED) / 100.0;
    let points: Vec<(f64, f64)> = view
        .report
        .graph
        .iter()
        .enumerate()
        .map(|(i, v)| (i as f64, f64::from(*v) / 100.0))
        .collect();
    if theme.glyphs.arrows.is_ascii() {
        render_ascii_graph(view, &points, area, buf, theme);
        return;
    }
    let even = [(0.0, 0.0), (plies, 0.0)];
    let shown = view.shown as f64;
    let at = [(shown, -top), (shown, top)];
    let datasets = vec![
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.border)
            .data(&even),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.alert)
            .data(&at),
        Dataset::default()
            .marker(Marker::Braille)
            .graph_type(GraphType::Line)
            .style(theme.heading)
            .data(&points),
    ];
    Chart::new(datasets)
        .x_axis(Axis::default().bounds([0.0, plies]))
        .y_axis(
            Axis::default()
                .bounds([-top, top])
                .style(theme.border)
                .labels(["W", "=", "B"]),
        )
        .render(area, buf);
}

/// The graph in ASCII: a `*` a column, `-` along the even score, `|` at the move shown.
fn render_ascii_graph(
    view: &ReportView,
    points: &[(f64, f64)],
    area: Rect,
    buf: &mut Buffer,
    theme: &crate::tui::theme::Theme,
) {
    if area.width == 0 || area.height == 0 {
        return;
    }
    let columns = usize::from(area.width);
    let rows = f64::from(area.height - 1);
    let top = f64::from(DECIDED) / 100.0;
    let plies = view.moves().len().max(1);
    let row_of = |value: f64| -> u16 { ((top - value) / (2.0 * top) * rows).round() as u16 };
    let zero = row_of(0.0);
    for x in 0..area.width {
        buf[(area.x + x, area.y + zero)]
            .set_symbol("-")
            .set_style(theme.border);
    }
    let column_of = |ply: usize| (ply * (columns - 1) / plies) as u16;
    let shown = column_of(view.shown);
    for y in 0..area.height {
        buf[(area.x + shown, area.y + y)]
            .set_symbol("|")
            .set_style(theme.alert);
    }
    for (ply, value) in points {
        let x = column_of(*ply as usize);
        let y = row_of(*value).min(area.height - 1);
        buf[(area.x + x, area.y + y)]
            .set_symbol("*")
            .set_style(theme.heading);
    }
}

/// The move shown: `12... 9-14??  -0.80 -> +1.20` (for Black), why it is marked and
/// the better move with its line; at the start, how to step and what the scores mean.
fn shown_lines(app: &App, view: &ReportView, width: usize) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let Some(ply) = view.shown.checked_sub(1) else {
        return super::panel::wrapped(
            &format!("The start: step on with the arrows, n to a marked move. {SCORES_LEGEND}"),
            width,
            theme.text,
        );
    };
    let report = &view.report;
    let Some(scored) = report.moves.get(ply) else {
        return vec![Line::styled(
            format!("{} not scored yet", move_label(report, ply)),
            theme.text,
        )];
    };
    let arrow = if theme.glyphs.arrows.is_ascii() {
        "->"
    } else {
        "\u{2192}"
    };
    let (before, after) = scores(scored);
    let style = match scored.mark {
        Some(Mark::Blunder | Mark::Mistake) => theme.alert,
        Some(_) => theme.question,
        None => theme.text,
    };
    let mut lines = vec![Line::from(vec![
        Span::styled(
            format!("{} {}", move_label(report, ply), marked_move(scored)),
            style,
        ),
        Span::raw(format!("  {before} {arrow} {after}")),
    ])];
    if let Some(why) = why(scored) {
        lines.extend(super::panel::wrapped(&why, width, style));
    }
    if let Some(better) = better(scored) {
        lines.extend(super::panel::wrapped(&better, width, theme.text));
    }
    lines
}

/// The marked moves, `room` lines at most, the one shown highlighted and kept in view:
/// `12... 9-14??  better 10-14`.
fn marked_lines(app: &App, view: &ReportView, room: usize) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let report = &view.report;
    let marked: Vec<(usize, &crate::report::ScoredMove)> = report.marked().collect();
    if marked.is_empty() {
        let text = if view.scoring() {
            "none so far"
        } else {
            "none: no move gave anything away"
        };
        return vec![Line::styled(text, theme.text)];
    }
    let current = view.shown.checked_sub(1);
    let at = marked
        .iter()
        .position(|(ply, _)| Some(*ply) == current)
        .unwrap_or(0);
    let first = (at + 1).saturating_sub(room);
    marked
        .iter()
        .skip(first)
        .take(room)
        .map(|(ply, scored)| {
            let mut text = format!("{:<7}{:<8}", move_label(report, *ply), marked_move(scored));
            if let Some(first) = scored.better.first() {
                text.push_str(&format!(" better {first}"));
            }
            let style = if Some(*ply) == current {
                theme.selected
            } else {
                theme.text
            };
            Line::styled(text, style)
        })
        .collect()
}

/// A player's summary: `Black  ?! 1  ? 0  ?? 1  loss 0.12`.
fn summary_line(app: &App, report: &Report, color: Color) -> Line<'static> {
    let theme = &app.theme;
    let summary = report.summary(color);
    let mut spans = vec![Span::styled(format!("{:<6}", color.name()), theme.heading)];
    for mark in Mark::BAD {
        spans.push(Span::styled(format!("{} ", mark.symbol()), theme.key));
        spans.push(Span::raw(format!("{}  ", summary.count(mark))));
    }
    spans.push(Span::raw(format!("avg loss {:.2}", summary.average_loss())));
    Line::from(spans)
}
