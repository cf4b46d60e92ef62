//! Drawing the analysis board: the board (the best move marked), the analysis panel
//! (the best lines with their scores in men and depth, the databases' result), the move
//! tree with its variations indented and the move shown highlighted, the status line
//! and the keys; without room for the panel, the best line in one row under the board.

use super::{AnalysisBoard, Ask, Collection, KEYS};
use crate::game::tree::{NodeId, Piece};
use crate::rules::{Color, Move, Position};
use crate::session::score_in_men as score_text;
use crate::tui::app::Tone;
use crate::tui::geometry::{MIN_HEIGHT, MIN_WIDTH, ScreenLayout, screen_layout};
use crate::tui::keyline::KeyLine;
use crate::tui::view::board::{Marks, Scene, draw_board, free_edge};
use crate::tui::view::{labelled, wrapped};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

/// Undo's entry on a key line too short for "u U undo/redo": u alone, which undoes.
const UNDO_ALONE: (&str, &str) = ("u", "undo");

/// The key line's entries (their words) left out first where the line is too long:
/// the number of lines and the engine's switch, which the panel's own lines show at
/// work, before the explorer and redo, which are found nowhere else on the screen.
const LEFT_OUT_FIRST: [&str; 2] = ["lines", "engine"];

/// The explorer key's help when `--explore-pdn` gave a file: `m` goes round three
/// collections.
const EXPLORER_HELP_WITH_FILE: &str =
    "explorer: Up/Down, Enter plays; m: Tinsley's / yours / the file";

/// `moves` in numbered notation (`3... 9-14`, `4. 22-17`, `11-15`, a capture with its
/// route: `24x15x6`): each move with its number where it has one, the first being ply
/// `ply` of a game from `start`.
pub(crate) fn numbered_line(start: &Position, ply: usize, moves: &[Move]) -> Vec<String> {
    let mut units = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        let (number, color) = crate::game::move_number(start, ply + i);
        let text = m.to_string();
        units.push(match color {
            Color::Black => format!("{number}. {text}"),
            Color::White if i == 0 => format!("{number}... {text}"),
            Color::White => text,
        });
    }
    units
}

/// Words of the move list, each with the node it names (none for a move number, a
/// parenthesis or a comment).
type Words = Vec<(String, Option<NodeId>)>;

/// The rows of the move list: the tree's text with each variation on lines of its own,
/// indented by its depth, wrapped to `width`; each word with the node it names. Also
/// the row of the move shown.
fn tree_rows(board: &AnalysisBoard, width: usize) -> (Vec<Words>, usize) {
    let width = width.max(8);
    let mut logical: Vec<(usize, Words)> = vec![(0, Vec::new())];
    let mut depth = 0usize;
    for piece in board.tree.pieces() {
        match piece {
            Piece::Move {
                node,
                number,
                route,
                ..
            } => {
                let words = &mut logical.last_mut().expect("a line").1;
                if let Some(number) = number {
                    words.push((number, None));
                }
                // A capture's route, as the game's move list shows it (PDN keeps the
                // record's short form).
                words.push((route, Some(node)));
            }
            Piece::Open => {
                depth += 1;
                logical.push((depth, vec![("(".into(), None)]));
            }
            Piece::Close => {
                logical
                    .last_mut()
                    .expect("a line")
                    .1
                    .push((")".into(), None));
                depth = depth.saturating_sub(1);
                logical.push((depth, Vec::new()));
            }
            Piece::Comment(text) => {
                let text: String = text.chars().take(60).collect();
                // Each of the comment's own lines on a row of its own, as it was
                // written (a record's comment over several lines, a poem, a table).
                let lines: Vec<&str> = text.lines().map(|l| l.trim_end()).collect();
                let count = lines.len();
                // A comment over several rows starts a row of its own, so that its
                // rows stand one under the other.
                if count > 1 && !logical.last().is_some_and(|(_, w)| w.is_empty()) {
                    logical.push((depth, Vec::new()));
                }
                for (i, line) in lines.into_iter().enumerate() {
                    if i > 0 {
                        logical.push((depth, Vec::new()));
                    }
                    // Its next rows start under its first row's text, after the `{`.
                    let open = if i == 0 { "{" } else { " " };
                    let close = if i + 1 == count { "}" } else { "" };
                    logical
                        .last_mut()
                        .expect("a line")
                        .1
                        .push((format!("{open}{line}{close}"), None));
                }
                if count > 1 {
                    // The moves after it start a row of their own.
                    logical.push((depth, Vec::new()));
                }
            }
        }
    }
    let current = board.tree.current();
    let mut rows: Vec<Words> = Vec::new();
    let mut shown_row = 0;
    for (indent, words) in logical {
        if words.is_empty() {
            continue;
        }
        let indent = (2 * indent).min(width / 2);
        let mut row: Words = vec![(" ".repeat(indent), None)];
        let mut len = indent;
        let mut after_number = false;
        for (i, (word, node)) in words.iter().enumerate() {
            let (word, node) = (word.clone(), *node);
            // Columns, not characters: a comment in Chinese takes two a character.
            let w = crate::text::columns(&word);
            // A move number goes to the next row with its move, and a word with the
            // ")"s after it (a ")" that still does not fit goes on its own); a move
            // after its number stays on the row.
            let close = word == ")";
            let is_number = node.is_none() && word.ends_with('.');
            let closing = |from: usize| {
                let rest = words.get(from..).unwrap_or_default();
                rest.iter().take_while(|(w, _)| w == ")").count()
            };
            let needed = match words.get(i + 1) {
                Some((next, _)) if is_number => w + 1 + crate::text::columns(next) + closing(i + 2),
                _ => w + closing(i + 1),
            };
            // A ")" takes no space before it.
            let gap = usize::from(!close);
            let glued = after_number;
            after_number = is_number;
            if len > indent && len + gap + needed > width && !glued {
                rows.push(std::mem::take(&mut row));
                row.push((" ".repeat(indent + 1), None));
                len = indent + 1;
            } else if len > indent && word != ")" && row.last().is_some_and(|(t, _)| t != "(") {
                row.push((" ".into(), None));
                len += 1;
            }
            if node == Some(current) {
                shown_row = rows.len();
            }
            len += w;
            row.push((word, node));
        }
        rows.push(row);
    }
    (rows, shown_row)
}

/// The move of the move list drawn at (`column`, `row`) of a screen `area`, as the
/// board draws it: a click there goes to that move.
pub(crate) fn node_at(board: &AnalysisBoard, area: Rect, column: u16, row: u16) -> Option<NodeId> {
    if board.help || board.explorer.is_some() {
        return None;
    }
    let (_, bottom) = board.panel_parts(area)?;
    if bottom.height < 3 {
        return None;
    }
    let inside = board.moves_block().inner(bottom);
    if !inside.contains(ratatui::layout::Position::new(column, row)) {
        return None;
    }
    let words = board
        .shown_tree_rows(inside)
        .into_iter()
        .nth(usize::from(row - inside.y))?;
    let mut x = usize::from(inside.x);
    for (text, node) in words {
        let width = crate::text::columns(&text);
        if (x..x + width).contains(&usize::from(column)) {
            return node;
        }
        x += width;
    }
    None
}

impl Widget for &AnalysisBoard {
    fn render(self, area: Rect, buf: &mut Buffer) {
        Clear.render(area, buf);
        let theme = &self.theme;
        let Some(layout) = screen_layout(area, self.board.flipped) else {
            Paragraph::new(format!(
                "terminal too small:\nneed {MIN_WIDTH}x{MIN_HEIGHT}\nq leaves"
            ))
            .style(theme.error)
            .wrap(Wrap { trim: true })
            .render(area, buf);
            return;
        };
        let pos = self.position();
        let (selected, path) = match &self.board.pick {
            Some(pick) => {
                let mut selected = vec![pick.from];
                selected.extend(&pick.hops);
                (selected, pick.hops.clone())
            }
            None => (Vec::new(), Vec::new()),
        };
        let turn_words = if pos.legal_moves().is_empty() {
            format!("{} cannot move", pos.turn())
        } else {
            format!("{} to move", pos.turn())
        };
        let scene = Scene {
            theme,
            position: pos,
            marks: Marks {
                cursor: Some(self.board.cursor),
                targets: self.board.targets(pos),
                selected,
                path,
                jumped: self.board.jumped_so_far(),
                capturers: pos.capturers().into_iter().collect(),
                last_move: self
                    .tree
                    .last_move()
                    .filter(|_| self.setting_up.is_none())
                    .map(|m| m.squares())
                    .unwrap_or_default(),
                hint: self.best_move().map(|m| m.squares()).unwrap_or_default(),
            },
            coordinates: self.board.coordinates,
            turn: Some((pos.turn(), turn_words)),
        };
        draw_board(&scene, &layout, buf);
        self.render_panel(area, buf);
        let status = match (&self.typing, &self.saving) {
            _ if self.commenting.is_some() => {
                let mut spans = vec![Span::styled(self.comment_heading(), theme.heading)];
                if let Some(field) = &self.commenting {
                    spans.extend(field.spans(theme.key));
                }
                spans.push(Span::raw("  Enter keeps it (blank: none), Esc cancels"));
                Line::from(spans)
            }
            (Some(text), _) => {
                let mut spans = vec![
                    Span::styled("Move: ", theme.heading),
                    Span::raw(text.clone()),
                    Span::styled(" ", theme.key),
                    Span::raw("  Enter plays, Esc cancels"),
                ];
                if let Some((Tone::Error, why)) = &self.message {
                    spans.push(Span::styled(format!("  {why}"), theme.error));
                }
                Line::from(spans)
            }
            (None, Some(prompt)) => match &prompt.exists {
                Some(path) => Line::from(vec![
                    Span::styled(crate::text::printable_path(path), theme.heading),
                    Span::raw(" is there already: "),
                    Span::styled("r", theme.key),
                    Span::raw(" replaces it, "),
                    Span::styled("a", theme.key),
                    Span::raw(" adds this after its games, "),
                    Span::styled("Esc", theme.key),
                    Span::raw(" changes the name"),
                ]),
                None => {
                    let mut spans = vec![Span::styled("Save to: ", theme.heading)];
                    spans.extend(prompt.path.spans(theme.key));
                    spans.push(Span::raw("  Enter saves, Ctrl-U clears, Esc cancels"));
                    if let Some((Tone::Error, why)) = &self.message {
                        spans.push(Span::styled(format!("  {why}"), theme.error));
                    }
                    Line::from(spans)
                }
            },
            (None, None) => match &self.message {
                Some((Tone::Error, text)) => Line::styled(text.clone(), theme.error),
                Some((Tone::Info, text)) => Line::styled(text.clone(), theme.text),
                None => Line::styled(self.place_words(), theme.text),
            },
        };
        // Without the panel the engine's best line has a row of its own: the status's
        // second row under a message that fits on the first (a longer one takes both
        // while it is shown), or where there is none, the keys' row (see `key_row`);
        // where that is too narrow for it beside help and leave, the status row while no
        // message takes it, and on the smallest screen, whose one row under the board is
        // the keys', the frame's free edge.
        let typing = self.prompting();
        let (status_area, engine_area, on_frame) = self.footer_rows(&layout, &status);
        let edge = free_edge(&layout, Some(pos.turn()), self.board.coordinates);
        if let Some(row) = engine_area {
            Paragraph::new(self.engine_line(usize::from(row.width))).render(row, buf);
        }
        if let Some(status_area) = status_area {
            let status_area = self.message_area(status_area, &status, area);
            Clear.render(status_area, buf);
            Paragraph::new(status.clone())
                .wrap(Wrap { trim: true })
                .render(status_area, buf);
        }
        match on_frame {
            // On the frame, a blank each side, as the turn's title has.
            Some(OnFrame::Message) if !typing => {
                let text = crate::text::one_row(
                    &status.to_string(),
                    usize::from(edge.width.saturating_sub(2)),
                    self.theme.glyphs.ellipsis(),
                );
                Line::styled(format!(" {text} "), status.style).render(edge, buf);
            }
            Some(OnFrame::Engine) => {
                let mut line = self.engine_line(usize::from(edge.width.saturating_sub(2)));
                line.spans.insert(0, Span::raw(" "));
                line.spans.push(Span::raw(" "));
                line.render(edge, buf);
            }
            _ => {}
        }
        if let Some((line, row)) = self.key_row(&layout) {
            Paragraph::new(line.line()).render(row, buf);
        }
        if self.help {
            self.render_help(area, buf);
        }
    }
}

/// What the analysis board writes on the board's frame, on the edge the turn leaves
/// free, where the rows under the board have no room for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum OnFrame {
    /// The message (news, or why a key was refused).
    Message,
    /// The engine's best line in one row.
    Engine,
}

/// Where the footer's parts go: the status line's area, the engine's one-row line's
/// row, and what goes on the frame.
type FooterRows = (Option<Rect>, Option<Rect>, Option<OnFrame>);

impl AnalysisBoard {
    /// Where the status line (`status`, as drawn) and the engine's one-row line go on a
    /// screen `layout` (the key line's row is [`AnalysisBoard::key_row`]'s): with the
    /// panel, the status line under the board and the engine in the panel; without it,
    /// the engine line on a row of its own where there is one (the status's second row,
    /// the keys' row beside help and leave), else on the status row while no message
    /// takes it; on the smallest screen, whose one row is the keys', the message or else
    /// the engine line on the frame. A move or a file name being typed keeps the
    /// status row, the engine line going on the frame.
    fn footer_rows(&self, layout: &ScreenLayout, status: &Line) -> FooterRows {
        if !layout.panel.is_empty() {
            return (Some(layout.status), None, None);
        }
        let typing = self.prompting();
        let width = usize::from(layout.status.width);
        if layout.status.height >= 2 {
            if status.width() > width {
                return (Some(layout.status), None, None);
            }
            let first = Rect {
                height: 1,
                ..layout.status
            };
            let second = Rect {
                y: layout.status.y + 1,
                ..first
            };
            return (Some(first), Some(second), None);
        }
        if layout.hints.height > 0 && self.engine_beside_keys(layout) {
            return (Some(layout.status), None, None);
        }
        if typing {
            return (Some(layout.status), None, Some(OnFrame::Engine));
        }
        // A message is shown until the next key.
        let message = self.message.is_some();
        if layout.hints.height > 0 && message {
            return (Some(layout.status), None, None);
        }
        if layout.hints.height > 0 {
            return (None, Some(layout.status), None);
        }
        let on_frame = if message {
            OnFrame::Message
        } else {
            OnFrame::Engine
        };
        (None, None, Some(on_frame))
    }

    /// Where the status line `status` goes, from its rows `rows` on `screen`: a message
    /// longer than they hold (a faulty record's notice at 80x24) grows up from them
    /// over what is drawn above, until the next key, so that all of it is read.
    fn message_area(&self, rows: Rect, status: &Line, screen: Rect) -> Rect {
        if self.message.is_none() || self.prompting() || rows.width == 0 {
            return rows;
        }
        let needed = wrapped_rows(&status.to_string(), usize::from(rows.width));
        let needed = u16::try_from(needed).unwrap_or(u16::MAX);
        if needed <= rows.height {
            return rows;
        }
        let top = rows.bottom().saturating_sub(needed).max(screen.y);
        Rect {
            y: top,
            height: rows.bottom() - top,
            ..rows
        }
    }

    /// Whether, without the panel and with one status row, the engine's line goes on
    /// the keys' row, before help and leave: where it has room enough there.
    fn engine_beside_keys(&self, layout: &ScreenLayout) -> bool {
        let width = usize::from(layout.hints.width);
        let keys = self.few_keys().line().width();
        width.saturating_sub(keys + 2) >= ENGINE_LINE_MIN
    }

    /// Help and leave, the keys every row of keys keeps.
    fn few_keys(&self) -> KeyLine {
        KeyLine::of_keys(&self.theme, &[("?", "help"), ("q", "leave")])
    }

    /// The key line's row and what it shows, each entry with the key a click on it
    /// presses: the row under the board, or on the smallest screen (no row under the
    /// status row) the status row, unless a move or a file name is being typed there.
    pub(crate) fn key_row(&self, layout: &ScreenLayout) -> Option<(KeyLine, Rect)> {
        if layout.hints.height > 0 {
            return Some((self.hints_line(layout), layout.hints));
        }
        if self.prompting() {
            return None;
        }
        let keys = self.keys_line(usize::from(layout.status.width));
        Some((keys, layout.status))
    }

    /// The row under the board: the keys, the most used that fit; or, without the
    /// panel and with one status row, the engine's best line with help and leave after
    /// it where it has room for them (? names every key).
    fn hints_line(&self, layout: &ScreenLayout) -> KeyLine {
        let width = usize::from(layout.hints.width);
        if layout.panel.is_empty()
            && layout.status.height < 2
            && self.asking.is_none()
            && self.engine_beside_keys(layout)
        {
            let keys = self.few_keys();
            let room = width.saturating_sub(keys.line().width() + 2);
            let engine = self.engine_line(room);
            let pad = room.saturating_sub(engine.width()) + 2;
            let mut line = KeyLine::default();
            for span in engine.spans {
                line.push(span, None);
            }
            line.push(Span::raw(" ".repeat(pad)), None);
            line.push_entry(self.theme.key, "?", " help");
            line.push(Span::raw("  "), None);
            line.push_entry(self.theme.key, "q", " leave");
            return line;
        }
        self.keys_line(width)
    }

    /// The keys that fit in `width` columns, the most used first; help and leave always.
    fn keys_line(&self, width: usize) -> KeyLine {
        // While a question waits, its answers are the keys.
        match self.asking {
            Some(Ask::Leave) => {
                return KeyLine::of_keys(
                    &self.theme,
                    &[("y", "leave"), ("s", "save"), ("Esc", "stay")],
                );
            }
            Some(Ask::LeaveEarlier) => {
                return KeyLine::of_keys(
                    &self.theme,
                    &[
                        ("y", "leave"),
                        ("s", "save the earlier moves"),
                        ("Esc", "stay"),
                    ],
                );
            }
            Some(Ask::LeaveUndone) => {
                return KeyLine::of_keys(
                    &self.theme,
                    &[
                        ("y", "leave"),
                        ("s", "set it up again to save"),
                        ("Esc", "stay"),
                    ],
                );
            }
            Some(Ask::Delete) => {
                return KeyLine::of_keys(&self.theme, &[("y", "delete"), ("Esc", "keep")]);
            }
            None => {}
        }
        if self.setting_up.is_some() {
            return KeyLine::of_keys(
                &self.theme,
                &[
                    ("b w", "man"),
                    ("B W", "king"),
                    ("Space", "clear"),
                    ("t", "side"),
                    ("c", "empty"),
                    ("Enter", "analyse"),
                    ("Esc", "back"),
                ],
            );
        }
        let mut keys: Vec<(&str, &str)> = KEYS
            .iter()
            .filter(|k| !k.short.is_empty())
            .map(|k| (k.label, k.short))
            .collect();
        let length = |keys: &[(&str, &str)]| -> usize {
            keys.iter().map(|(k, s)| k.len() + s.len() + 3).sum()
        };
        for short in LEFT_OUT_FIRST {
            if length(&keys) > width + 2 {
                keys.retain(|(_, words)| *words != short);
            }
        }
        // Where the line is too long, undo's entry names u alone ("u U undo" would say
        // U undoes too): redo stays in the help.
        if length(&keys) > width + 2
            && let Some(undo) = keys.iter_mut().find(|(label, _)| *label == "u U")
        {
            *undo = UNDO_ALONE;
        }
        while length(&keys) > width + 2 && keys.len() > 2 {
            keys.remove(keys.len() - 3);
        }
        KeyLine::of_keys(&self.theme, &keys)
    }
}

/// The rows `text` takes wrapped at word boundaries to `width` columns, as a
/// wrapping paragraph lays it out (a word longer than the row is cut).
fn wrapped_rows(text: &str, width: usize) -> usize {
    let mut rows = 1;
    let mut used = 0;
    for word in text.split(' ') {
        let len = unicode_width::UnicodeWidthStr::width(word);
        let needed = if used == 0 { len } else { used + 1 + len };
        if needed <= width {
            used = needed;
        } else if used == 0 {
            rows += len.saturating_sub(1) / width;
            used = len % width;
        } else {
            rows += 1 + len.saturating_sub(1) / width;
            used = (len - 1) % width + 1;
        }
    }
    rows
}

/// What the panel says while a position is set up.
const SETTING_UP: &str = "Setting up: Enter analyses it";

/// `line` never past `width` columns: a narrow row keeps what fits of its words, in
/// `style`.
fn cut_line(line: Line<'static>, width: usize, style: Style) -> Line<'static> {
    if line.width() <= width {
        return line;
    }
    let text: String = line.to_string().chars().take(width).collect();
    Line::styled(text, style)
}

/// The narrowest engine line that leaves room for the help key after it.
const ENGINE_LINE_MIN: usize = 20;

impl AnalysisBoard {
    /// The engine's view in one row of `width` for a screen without the panel: the
    /// databases' result, the best line's score and depth and its first moves (cut
    /// after a whole move), or why there is none (`Engine: +0.35 d14 3... 9-14 4. 22-17`).
    /// Where the words leave too little room for the line's first two moves, they are
    /// said shorter: the database's result without the engine's score, then without
    /// its label (`White wins in 4 moves: 1... 22-17 2. 15-18`), then the score alone,
    /// which says the win too (`#W4 d9: 1... 22-17`); the score without the word Engine
    /// (`+0.35 d14: 3... 9-14 4. 22-17`).
    pub(crate) fn engine_line(&self, width: usize) -> Line<'static> {
        let theme = &self.theme;
        let pos = *self.position();
        if self.setting_up.is_some() {
            return Line::styled(SETTING_UP, theme.heading);
        }
        if let Some(outcome) = pos.outcome() {
            return Line::styled(format!("Game over: {outcome}"), theme.heading);
        }
        let verdict = self
            .egdb
            .as_ref()
            .and_then(|db| db.probe(&pos))
            .map(|verdict| verdict.describe(pos.turn()));
        let best = self.report.lines.first().filter(|_| self.on);
        let Some(best) = best else {
            let mut spans = Vec::new();
            match &verdict {
                Some(verdict) => spans.push(Span::styled(
                    format!("Endgame database: {verdict}"),
                    theme.heading,
                )),
                None if !self.on => {
                    spans.push(Span::styled("Analysis off: e turns it on", theme.text));
                }
                None => spans.push(Span::styled("Engine: thinking...", theme.text)),
            }
            return cut_line(Line::from(spans), width, theme.text);
        };
        let score = score_text(pos.turn(), best.score);
        let depth = self.report.depth;
        let head_style = theme.heading.add_modifier(Modifier::BOLD);
        // The heads, the fullest first.
        let heads: Vec<Vec<Span<'static>>> = match &verdict {
            Some(verdict) => vec![
                vec![
                    Span::styled(format!("Endgame database: {verdict}"), theme.heading),
                    Span::raw("; "),
                    Span::styled(format!("Engine {score} d{depth}:"), head_style),
                ],
                vec![Span::styled(
                    format!("Endgame database: {verdict}:"),
                    head_style,
                )],
                vec![Span::styled(format!("{verdict}:"), head_style)],
                // The score says the win too ("#W7").
                vec![Span::styled(format!("{score} d{depth}:"), head_style)],
            ],
            None => vec![
                vec![Span::styled(
                    format!("Engine {score} d{depth}:"),
                    head_style,
                )],
                vec![Span::styled(format!("{score} d{depth}:"), head_style)],
            ],
        };
        let units = numbered_line(self.tree.start(), self.tree.ply(), &best.pv);
        let wanted = units.len().min(2);
        let with_moves = |head: &Vec<Span<'static>>| {
            let mut spans = head.clone();
            let mut len: usize = spans.iter().map(Span::width).sum();
            let mut shown = 0;
            for unit in &units {
                let unit_len = unit.chars().count() + 1;
                if len + unit_len > width {
                    break;
                }
                spans.push(Span::styled(format!(" {unit}"), theme.text));
                len += unit_len;
                shown += 1;
            }
            (spans, shown)
        };
        let mut chosen = None;
        for head in &heads {
            let (spans, shown) = with_moves(head);
            let fits = spans.iter().map(Span::width).sum::<usize>() <= width;
            chosen = Some(spans);
            if shown >= wanted && fits {
                break;
            }
        }
        cut_line(Line::from(chosen.unwrap_or_default()), width, theme.text)
    }

    /// Where the position shown is, for the status line.
    fn place_words(&self) -> String {
        let ply = self.tree.ply();
        let line = if self.tree.on_main_line() {
            "main line"
        } else {
            "variation"
        };
        match ply.checked_sub(1) {
            None => format!("The start ({} moves in the tree)", self.tree.len()),
            Some(last) => {
                let (number, color) = crate::game::move_number(self.tree.start(), last);
                format!("After move {number} ({color}'s), {line}")
            }
        }
    }

    /// The panel's two parts on a screen `area`: the analysis above, the move tree (or
    /// the explorer) below. `None` without a panel.
    fn panel_parts(&self, area: Rect) -> Option<(Rect, Rect)> {
        let layout = screen_layout(area, self.board.flipped)?;
        let panel = layout.panel;
        if panel.is_empty() {
            return None;
        }
        let inner_width = usize::from(panel.width.saturating_sub(2));
        let analysis = self.analysis_lines(inner_width);
        // The analysis takes what it needs, leaving the tree at least four rows.
        let wanted = u16::try_from(analysis.len()).unwrap_or(u16::MAX) + 2;
        let analysis_height = wanted.min(panel.height.saturating_sub(6).max(3));
        let top = Rect {
            height: analysis_height.min(panel.height),
            ..panel
        };
        let bottom = Rect {
            y: panel.y + top.height,
            height: panel.height - top.height,
            ..panel
        };
        Some((top, bottom))
    }

    /// The move list's block.
    fn moves_block(&self) -> Block<'static> {
        Block::bordered()
            .title(Line::styled(" Moves ", self.theme.heading))
            .border_set(self.theme.glyphs.border)
            .border_style(self.theme.border)
    }

    /// The rows of the move list that show inside `inside`, with the first's index.
    fn shown_tree_rows(&self, inside: Rect) -> Vec<Words> {
        let (rows, shown) = tree_rows(self, usize::from(inside.width));
        let visible = usize::from(inside.height);
        let first = shown.saturating_sub(visible.saturating_sub(1) / 2);
        let first = first.min(rows.len().saturating_sub(visible));
        rows.into_iter().skip(first).take(visible).collect()
    }

    /// The panel: the analysis above, the move tree below.
    fn render_panel(&self, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        let Some((top, bottom)) = self.panel_parts(area) else {
            return;
        };
        let inner_width = usize::from(top.width.saturating_sub(2));
        let analysis = self.analysis_lines(inner_width);
        let title = if self.on {
            " Analysis: on (e) "
        } else {
            " Analysis: off (e) "
        };
        Paragraph::new(analysis)
            .block(
                Block::bordered()
                    .title(Line::styled(title, theme.heading))
                    .border_set(theme.glyphs.border)
                    .border_style(theme.border),
            )
            .render(top, buf);
        if bottom.height < 3 {
            return;
        }
        if let Some(row) = self.explorer {
            self.render_explorer(row, bottom, buf);
            return;
        }
        let block = self.moves_block();
        let inside = block.inner(bottom);
        block.render(bottom, buf);
        let rows = self.shown_tree_rows(inside);
        if rows.is_empty() {
            Paragraph::new("No moves yet: play one on the board")
                .style(theme.text)
                .wrap(Wrap { trim: true })
                .render(inside, buf);
            return;
        }
        let current = self.tree.current();
        let lines: Vec<Line> = rows
            .into_iter()
            .map(|row| {
                Line::from(
                    row.into_iter()
                        .map(|(text, node)| match node {
                            // Not by colour alone: bold and underlined too.
                            Some(n) if n == current => Span::styled(
                                text,
                                theme
                                    .cursor
                                    .add_modifier(Modifier::BOLD | Modifier::UNDERLINED),
                            ),
                            _ => Span::styled(text, theme.text),
                        })
                        .collect::<Vec<_>>(),
                )
            })
            .collect();
        Paragraph::new(lines).render(inside, buf);
    }

    /// The opening explorer in `area`: the opening's name, then the moves played from
    /// the position shown in the collection explored (Tinsley's games or the player's
    /// own, named in the title), most played first, each with its games
    /// and their results (Black wins, draws, White wins); `row` chosen.
    fn render_explorer(&self, row: usize, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        let keys = if self.collection == Collection::Tinsley {
            "(o)"
        } else {
            "(o, m)"
        };
        // A file's name as long as the border has room for (cut with an ellipsis): its
        // two corners, the title's three spaces and one line left before the corner.
        let room = usize::from(area.width).saturating_sub(6 + "Explorer: ".len() + keys.len());
        let name = crate::text::one_row(self.collection_name(), room, theme.glyphs.ellipsis());
        let title = format!(" Explorer: {name} {keys} ");
        let block = Block::bordered()
            .title(Line::styled(title, theme.heading))
            .border_set(theme.glyphs.border)
            .border_style(theme.border);
        let inside = block.inner(area);
        block.render(area, buf);
        let mut lines = vec![Line::styled(
            self.opening().unwrap_or("(no opening name)").to_string(),
            theme.heading,
        )];
        let moves = self.explored();
        // The move column as wide as the longest route (a multi-jump's `27x18x9` ran
        // into its games), and the results' heading in short where the panel is
        // narrow (at 70 columns it was cut to "B win/draw/W").
        let column = moves
            .iter()
            .map(|(m, _)| m.to_string().len())
            .max()
            .unwrap_or(0)
            .max(6);
        if moves.is_empty() {
            // Wrapped: the panel is narrower than the sentence at 80 and 120 columns.
            lines.extend(wrapped(
                &self.nothing_explored(),
                usize::from(inside.width),
                theme.text,
            ));
        } else {
            let results = if usize::from(inside.width) >= 2 + column + 7 + 16 {
                "B win/draw/W win"
            } else {
                "B/draw/W"
            };
            lines.push(Line::styled(
                format!("  {:<column$}{:>5}  {results}", "move", "games"),
                theme.text,
            ));
        }
        let visible = usize::from(inside.height).saturating_sub(2).max(1);
        let first = row.saturating_sub(visible.saturating_sub(1));
        for (i, (m, tally)) in moves.iter().enumerate().skip(first).take(visible) {
            let chosen = i == row;
            let text = format!(
                "{}{:<column$}{:>5}  {}/{}/{}",
                if chosen { "> " } else { "  " },
                m.to_string(),
                tally.games,
                tally.black_wins,
                tally.draws,
                tally.white_wins
            );
            let style = if chosen {
                theme.cursor.add_modifier(Modifier::BOLD)
            } else {
                theme.text
            };
            lines.push(Line::styled(text, style));
        }
        Paragraph::new(lines).render(inside, buf);
    }

    /// The analysis panel's lines: what it says of the position, the databases'
    /// result, then each best line (`1 +0.35 d14 3... 9-14 4. 22-17`), wrapped.
    fn analysis_lines(&self, width: usize) -> Vec<Line<'static>> {
        let theme = &self.theme;
        let pos = *self.position();
        let mut out = Vec::new();
        if self.setting_up.is_some() {
            out.push(Line::styled(SETTING_UP, theme.heading));
            return out;
        }
        if let Some(outcome) = pos.outcome() {
            out.push(Line::styled(format!("Game over: {outcome}"), theme.heading));
            return out;
        }
        if let Some(verdict) = self.egdb.as_ref().and_then(|db| db.probe(&pos)) {
            out.extend(labelled(
                "Endgame database",
                &verdict.describe(pos.turn()),
                width,
                theme.heading,
            ));
        }
        if !self.on {
            out.push(Line::styled("e starts the analysis", theme.text));
            return out;
        }
        let report = &self.report;
        if report.lines.is_empty() {
            out.push(Line::styled("Thinking...", theme.text));
            return out;
        }
        let state = if report.done { ", done" } else { "" };
        out.push(Line::styled(
            format!("depth {}{state}; + is Black ahead", report.depth),
            theme.text,
        ));
        for (i, line) in report.lines.iter().enumerate() {
            let head = format!(
                "{} {:>6} d{:<2} ",
                i + 1,
                score_text(pos.turn(), line.score),
                report.depth
            );
            let moves = numbered_line(self.tree.start(), self.tree.ply(), &line.pv);
            let head_style = if i == 0 {
                theme.heading.add_modifier(Modifier::BOLD)
            } else {
                theme.heading
            };
            // Each line on two rows at most, cut after a whole move (a move number
            // stays with its move).
            let mut spans = vec![Span::styled(head, head_style)];
            let mut len = spans[0].content.chars().count();
            let mut rows = 1;
            for unit in moves {
                let unit_len = unit.chars().count();
                if len + unit_len > width && len > 4 {
                    if rows == 2 {
                        break;
                    }
                    out.push(Line::from(std::mem::take(&mut spans)));
                    spans.push(Span::raw("    "));
                    len = 4;
                    rows += 1;
                }
                spans.push(Span::styled(format!("{unit} "), theme.text));
                len += unit_len + 1;
            }
            out.push(Line::from(spans));
        }
        out
    }

    /// The help's lines: every key of the table with what it does, then the notes.
    fn help_text(&self) -> Vec<Line<'static>> {
        let theme = &self.theme;
        let mut lines: Vec<Line> = KEYS
            .iter()
            .filter(|k| !k.help.is_empty())
            .map(|k| {
                Line::from(vec![
                    Span::styled(format!("{:<12}", k.label), theme.key),
                    // With `--explore-pdn`, `m` goes on to the file's games too.
                    Span::raw(match &self.file_games {
                        Some(_) if k.act == super::Act::Explorer => EXPLORER_HELP_WITH_FILE,
                        _ => k.help,
                    }),
                ])
            })
            .collect();
        lines.push(Line::raw(""));
        lines.push(Line::raw(
            "Scores are in men for Black: + Black ahead, - White; #B7 Black wins in 7.",
        ));
        lines.push(Line::raw("A click on a move of the list goes to it."));
        lines.push(Line::raw(format!(
            "q goes back to {}. Any key or a click closes this help.",
            self.opened_from
        )));
        lines
    }

    /// Where the help overlay goes on `area`, and how many rows its text takes there
    /// (wrapped to the box's width).
    fn help_box(&self, area: Rect) -> (Rect, u16) {
        let width = area.width.min(78);
        let inner = usize::from(width.saturating_sub(2)).max(1);
        let rows: usize = self
            .help_text()
            .iter()
            .map(|l| wrapped_rows(&l.to_string(), inner))
            .sum();
        let rows = u16::try_from(rows).unwrap_or(u16::MAX);
        let height = rows.saturating_add(2).min(area.height);
        let rect = Rect {
            x: area.x + (area.width - width) / 2,
            y: area.y + (area.height - height) / 2,
            width,
            height,
        };
        (rect, rows)
    }

    /// The furthest the help scrolls on the screen (0: it fits whole).
    pub(crate) fn help_last_top(&self) -> u16 {
        let (rect, rows) = self.help_box(self.screen);
        rows.saturating_sub(rect.height.saturating_sub(2))
    }

    /// The help overlay: every key of the table with what it does; where the screen
    /// is too short for it, scrolled to `help_top` and saying how to scroll.
    fn render_help(&self, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        let (rect, rows) = self.help_box(area);
        let last = rows.saturating_sub(rect.height.saturating_sub(2));
        let top = self.help_top.min(last);
        let mut block = Block::bordered()
            .title(Line::styled(" Analysis board: keys ", theme.heading))
            .border_set(theme.glyphs.border)
            .border_style(theme.border);
        if last > 0 {
            let more = match (top > 0, top < last) {
                (false, _) => " PgDn: more ",
                (true, true) => " PgDn PgUp: more ",
                (true, false) => " PgUp: back ",
            };
            block = block.title_bottom(Line::styled(more, theme.key).right_aligned());
        }
        // A blank cell round the box: its border beside the panel's read as one
        // doubled line ("┐┐").
        Clear.render(
            crate::tui::geometry::overlay_cleared(rect, area, self.board.flipped),
            buf,
        );
        Paragraph::new(self.help_text())
            .wrap(Wrap { trim: false })
            .scroll((top, 0))
            .block(block)
            .style(Style::default())
            .render(rect, buf);
    }
}
