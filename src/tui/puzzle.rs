//! The puzzles screen (`checkers puzzle`, or `z` on the home screen): the list of every
//! puzzle with the solved ones marked, and the board of the puzzle open with its goal.
//! The player makes the moves (the cursor and Enter, a click, or a typed move); each
//! good one is answered by the defender, a wrong one with its refutation.
//!
//! Like the home screen it is state ([`PuzzleScreen`]), keys turned into changes
//! ([`PuzzleScreen::handle_event`]: the only I/O is the progress file, written when it
//! changes) and drawing (`impl Widget for &PuzzleScreen`).

use super::geometry::{BoardGeometry, screen_layout};
use super::keyline::{KeyLine, fit_keys};
use super::theme::Theme;
use super::view::board::render_disc;
use super::view::{piece_glyph, piece_style, wrapped};
use crate::puzzles::{Answer, Attempt, Judge, Progress, Puzzle, Record};
use crate::rules::{Color, Move, Square};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEventKind, KeyModifiers, MouseButton, MouseEventKind,
};
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget, Wrap};

/// Every key of the list, as `?` there shows them.
const LIST_KEYS: &[&str] = &[
    "Keys: Up/Down (j/k, Tab) choose, PgUp/PgDn ten at a time, Home/End the first/last; \
     Enter or Space opens the puzzle; q or Esc leaves.",
];

/// Every key of the board, as `?` there shows them.
const BOARD_KEYS: &[&str] = &[
    "Keys:",
    "arrows or hjkl move the cursor; Enter or Space picks up a piece and lands it (or click)",
    "0-9 types a move (11-15), Enter plays it",
    "u takes your last move back, r starts again, s shows the solution",
    "i shows the hint, where the puzzle's file gives one",
    "n / p the next / previous puzzle, z the list",
    "PgDn / PgUp page through the side panel, where it says more than it has room for",
    "Esc puts a piece down, else leaves; q leaves",
];

/// The board's keys in short, for a box too small for [`BOARD_KEYS`].
const BOARD_KEYS_SHORT: &[&str] = &[
    "arrows/hjkl cursor; Enter or a click picks up and lands; 0-9 types a move; \
     u back, r again, s solution, i hint; n/p next/previous, z list; q leaves",
];

/// What the screen shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum View {
    /// The list of puzzles, this one chosen.
    List(usize),
    /// The board of the puzzle open.
    Board,
}

/// The tone of the news line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tone {
    /// Neutral news.
    Info,
    /// A good move, a solved puzzle.
    Good,
    /// A wrong move, a refused one.
    Bad,
}

/// The puzzles screen's whole state.
#[derive(Clone, Debug)]
pub(crate) struct PuzzleScreen {
    /// The list or the board.
    pub(crate) view: View,
    /// The puzzle open, by its index in the list.
    pub(crate) index: usize,
    /// The attempt at it.
    pub(crate) attempt: Attempt,
    /// Who answers the moves.
    judge: Judge,
    /// What the player has solved.
    pub(crate) progress: Progress,
    /// Whether this attempt is counted in the progress yet (at its first move).
    counted: bool,
    /// The cursor: board row and column.
    pub(crate) cursor: (u8, u8),
    /// The piece picked up, and the squares it has landed on so far in a capture.
    picked: Option<(Square, Vec<Square>)>,
    /// A move being typed (`Some` while the prompt is open).
    typed: Option<String>,
    /// The news: what the last move came to.
    news: Vec<(Tone, String)>,
    /// What the last key was answered with when it did not act (the keys `?` shows,
    /// or that the key does nothing), below the news; the next key clears it.
    note: Vec<String>,
    /// Why the saved progress could not be read: shown on the list and the board for
    /// as long as the screen is open, as opening a puzzle replaces the news.
    warning: Option<String>,
    /// How many rows the side panel is scrolled down (PgDn), where what it says takes
    /// more rows than it has (a teacher's long explanation); any other key resets it.
    panel_scroll: usize,
    /// The colours and glyphs.
    theme: Theme,
}

impl PuzzleScreen {
    /// The screen with puzzle `index` open on the board (or the list shown, with it
    /// chosen, when `list` is true); moves judged by `judge`, progress in `progress`.
    pub(crate) fn new(
        index: usize,
        list: bool,
        judge: Judge,
        progress: Progress,
        theme: Theme,
    ) -> PuzzleScreen {
        let index = index.min(progress.puzzles().len() - 1);
        let mut screen = PuzzleScreen {
            view: if list { View::List(index) } else { View::Board },
            index,
            attempt: Attempt::new(&progress.puzzles()[index]),
            judge,
            progress,
            counted: false,
            cursor: (0, 0),
            picked: None,
            typed: None,
            news: Vec::new(),
            note: Vec::new(),
            warning: None,
            panel_scroll: 0,
            theme,
        };
        screen.open(index);
        if list {
            screen.view = View::List(index);
        }
        screen
    }

    /// Tells `why` (a progress file that could not be read, a puzzle left out of a
    /// file, preferences or databases that could not be used) on the list and under
    /// the news, for as long as the screen is open, after what was told before.
    pub(crate) fn warn(&mut self, why: String) {
        let why = crate::text::printable(&why, 600);
        self.warning = Some(match self.warning.take() {
            Some(before) => format!("{before} {why}"),
            None => why,
        });
    }

    /// The puzzle open.
    fn puzzle(&self) -> &Puzzle {
        &self.attempt.puzzle
    }

    /// Opens puzzle `index` on the board.
    fn open(&mut self, index: usize) {
        self.index = index.min(self.progress.puzzles().len() - 1);
        self.attempt = Attempt::new(&self.progress.puzzles()[self.index]);
        self.counted = false;
        self.picked = None;
        self.typed = None;
        let hint = if self.puzzle().hint.is_some() {
            " (i for a hint)"
        } else {
            ""
        };
        // The goal is said once, above the news (on the board's frame without a panel).
        self.news = vec![(Tone::Info, format!("Your move{hint}."))];
        // The cursor starts on the solution's piece's row, at the player's first piece.
        let first = self.attempt.position().side(self.puzzle().player()).first();
        self.cursor = first.map_or((0, 0), |sq| (sq.row(), sq.col()));
        self.view = View::Board;
    }

    /// Whether White sits at the bottom: when the player plays White.
    fn flipped(&self) -> bool {
        self.puzzle().player() == Color::White
    }

    /// Applies a terminal event: a key, or a click (on an entry of the key line: its
    /// key; on a puzzle of the list: chooses it, or opens it if chosen; on the board:
    /// that square), or the wheel (along the list); `true` when the player leaves the
    /// puzzles.
    pub(crate) fn handle_event(&mut self, event: &Event, area: Rect) -> bool {
        match event {
            Event::Key(key) if key.kind == KeyEventKind::Press => {
                if key.code == KeyCode::Char('c') && key.modifiers.contains(KeyModifiers::CONTROL) {
                    return true;
                }
                let had_note = !std::mem::take(&mut self.note).is_empty();
                // Ctrl-s or Alt-s is not s: it shows no solution.
                let code = crate::tui::keymap::plain_code(key);
                // PgDn / PgUp page through a side panel that says more than it holds.
                let paging = matches!(code, KeyCode::PageDown | KeyCode::PageUp);
                if self.view == View::Board
                    && paging
                    && self.typed.is_none()
                    && let Some((most, page)) = self.panel_scroll_room(area)
                {
                    self.panel_scroll = match code {
                        KeyCode::PageDown => (self.panel_scroll + page).min(most),
                        _ => self.panel_scroll.min(most).saturating_sub(page),
                    };
                    self.note.clear();
                    return false;
                }
                self.panel_scroll = 0;
                // Esc closes the keys `?` showed; it does not leave the puzzles too.
                if had_note && code == KeyCode::Esc {
                    return false;
                }
                let acted = match self.view {
                    View::List(chosen) => self.list_key(chosen, code),
                    View::Board => self.board_key(code),
                };
                match acted {
                    Some(leave) => leave,
                    None => {
                        self.note = crate::tui::keymap::unbound_note(
                            key,
                            crate::tui::keymap::EVERY_KEY_HELP,
                        )
                        .into_iter()
                        .collect();
                        false
                    }
                }
            }
            // The wheel moves along the list, as the arrows do, stopping at its ends as
            // a wheel does.
            Event::Mouse(mouse)
                if matches!(
                    mouse.kind,
                    MouseEventKind::ScrollUp | MouseEventKind::ScrollDown
                ) =>
            {
                if let View::List(chosen) = self.view {
                    let last = self.progress.puzzles().len() - 1;
                    self.view = View::List(match mouse.kind {
                        MouseEventKind::ScrollUp => chosen.saturating_sub(1),
                        _ => (chosen + 1).min(last),
                    });
                }
                false
            }
            Event::Mouse(mouse) if mouse.kind == MouseEventKind::Down(MouseButton::Left) => {
                // A click on an entry of the key line presses its key ("q leave").
                let press = self.key_line_area(area).and_then(|keys| {
                    self.key_line(keys.width)
                        .press_in(keys, mouse.column, mouse.row)
                });
                // A click on the note's box over the board closes it (the board under
                // it is not seen).
                let on_note = screen_layout(area, self.flipped())
                    .and_then(|layout| self.note_box(&layout))
                    .filter(|_| self.view == View::Board)
                    .is_some_and(|boxed| {
                        boxed.contains(ratatui::layout::Position::new(mouse.column, mouse.row))
                    });
                if on_note {
                    self.note.clear();
                    return false;
                }
                if let Some(key) = press {
                    return self.handle_event(&Event::Key(key), area);
                }
                // On the list a click on a puzzle chooses it, and one on the puzzle
                // chosen (the second of a double click) opens it, as Enter does.
                if let View::List(chosen) = self.view {
                    use crate::tui::choice::Clicked;
                    match self
                        .puzzle_at(chosen, area, mouse.column, mouse.row)
                        .map(|clicked| Clicked::on(clicked, chosen))
                    {
                        Some(Clicked::Open(clicked)) => self.open(clicked),
                        Some(Clicked::Choose(clicked)) => self.view = View::List(clicked),
                        None => {}
                    }
                    self.note.clear();
                    return false;
                }
                let cell = screen_layout(area, self.flipped())
                    .and_then(|layout| layout.board.cell_at(mouse.column, mouse.row));
                if let Some(cell) = cell {
                    self.cursor = cell;
                    self.select();
                }
                false
            }
            _ => false,
        }
    }

    /// A key on the list: the arrows choose, Enter opens, `?` shows every key, Esc or
    /// `q` leave. `Some(true)` to leave; `None` when the key does nothing here.
    fn list_key(&mut self, chosen: usize, code: KeyCode) -> Option<bool> {
        let last = self.progress.puzzles().len() - 1;
        match code {
            KeyCode::Up | KeyCode::Char('k') => {
                self.view = View::List(chosen.checked_sub(1).unwrap_or(last));
            }
            KeyCode::Down | KeyCode::Char('j') | KeyCode::Tab => {
                self.view = View::List(if chosen == last { 0 } else { chosen + 1 });
            }
            KeyCode::PageUp => self.view = View::List(chosen.saturating_sub(10)),
            KeyCode::PageDown => self.view = View::List((chosen + 10).min(last)),
            KeyCode::Home => self.view = View::List(0),
            KeyCode::End => self.view = View::List(last),
            KeyCode::Enter | KeyCode::Char(' ') => self.open(chosen),
            KeyCode::Char('?') => self.note = LIST_KEYS.iter().map(|l| l.to_string()).collect(),
            KeyCode::Esc | KeyCode::Char('q') => return Some(true),
            _ => return None,
        }
        Some(false)
    }

    /// A key on the board. `Some(true)` to leave; `None` when the key does nothing here.
    fn board_key(&mut self, code: KeyCode) -> Option<bool> {
        if let Some(typed) = &mut self.typed {
            match code {
                KeyCode::Char(c)
                    if (c.is_ascii_digit() || matches!(c, '-' | 'x' | 'X')) && typed.len() < 40 =>
                {
                    typed.push(c);
                }
                KeyCode::Backspace => {
                    typed.pop();
                }
                KeyCode::Enter => {
                    let text = std::mem::take(typed);
                    self.typed = None;
                    let pos = self.attempt.position();
                    match pos.parse_move(&text) {
                        Ok(m) => {
                            let over = self.attempt.is_over();
                            self.play(&m);
                            // Played with the wrong separator: said under the verdict,
                            // as on the play board.
                            if let Some(note) = pos.typed_note(&text, &m).filter(|_| !over) {
                                let at = self.news.len().min(1);
                                self.news.insert(at, (Tone::Info, format!("{note}.")));
                            }
                        }
                        Err(e) => self.news = vec![(Tone::Bad, format!("{text}: {e}"))],
                    }
                }
                KeyCode::Esc => self.typed = None,
                _ => {}
            }
            return Some(false);
        }
        let (row, col) = self.cursor;
        // Up is toward the top of the screen, whichever side sits there.
        let toward = |up: bool| -> i8 { if up != self.flipped() { 1 } else { -1 } };
        let step = |v: u8, d: i8| v.saturating_add_signed(d).min(7);
        match code {
            KeyCode::Up | KeyCode::Char('k') => self.cursor = (step(row, toward(true)), col),
            KeyCode::Down | KeyCode::Char('j') => self.cursor = (step(row, toward(false)), col),
            KeyCode::Left | KeyCode::Char('h') => {
                self.cursor = (row, step(col, if self.flipped() { 1 } else { -1 }));
            }
            KeyCode::Right | KeyCode::Char('l') => {
                self.cursor = (row, step(col, if self.flipped() { -1 } else { 1 }));
            }
            KeyCode::Enter | KeyCode::Char(' ') => self.select(),
            KeyCode::Char(c) if c.is_ascii_digit() => self.typed = Some(c.to_string()),
            KeyCode::Char('u') => {
                self.attempt.take_back();
                self.picked = None;
                self.news = vec![(Tone::Info, "Took your last move back.".to_string())];
            }
            KeyCode::Char('r') => {
                self.attempt.restart();
                self.counted = false;
                self.picked = None;
                self.news = vec![(Tone::Info, "From the start.".to_string())];
            }
            KeyCode::Char('s') => self.show_solution(),
            KeyCode::Char('i') => self.show_hint(),
            KeyCode::Char('n') => self.open((self.index + 1) % self.progress.puzzles().len()),
            KeyCode::Char('p') => self.open(
                self.index
                    .checked_sub(1)
                    .unwrap_or(self.progress.puzzles().len() - 1),
            ),
            KeyCode::Char('L') | KeyCode::Char('z') => self.view = View::List(self.index),
            KeyCode::Esc if self.picked.is_some() => self.picked = None,
            KeyCode::Char('?') => self.note = BOARD_KEYS.iter().map(|l| l.to_string()).collect(),
            KeyCode::Esc | KeyCode::Char('q') => return Some(true),
            _ => return None,
        }
        Some(false)
    }

    /// The moves of the position that start with the picked piece's squares so far.
    fn candidates(&self) -> Vec<Move> {
        let Some((from, hops)) = &self.picked else {
            return Vec::new();
        };
        self.attempt
            .position()
            .legal_moves()
            .into_iter()
            .filter(|m| m.from() == *from && m.landings().take(hops.len()).eq(hops.iter().copied()))
            .collect()
    }

    /// Enter on the cursor's square: picks up a piece that can move, or lands the
    /// picked one (a capture of several jumps lands on each square in turn).
    fn select(&mut self) {
        if self.attempt.is_over() {
            return;
        }
        let Some(sq) = Square::from_row_col(self.cursor.0, self.cursor.1) else {
            return;
        };
        let pos = self.attempt.position();
        let movable = pos.legal_moves().iter().any(|m| m.from() == sq);
        if movable && self.picked.as_ref().is_none_or(|(_, hops)| hops.is_empty()) {
            self.picked = Some((sq, Vec::new()));
            return;
        }
        if self.picked.is_none() {
            return;
        }
        let before = self.candidates();
        let depth = self.picked.as_ref().map_or(0, |(_, h)| h.len());
        let matching: Vec<Move> = before
            .into_iter()
            .filter(|m| m.landings().nth(depth) == Some(sq))
            .collect();
        match matching.as_slice() {
            [] => {}
            [only] if only.landings().len() == depth + 1 => {
                let m = *only;
                self.picked = None;
                self.play(&m);
            }
            _ => {
                if let Some((_, hops)) = &mut self.picked {
                    hops.push(sq);
                }
                let complete: Vec<Move> = self
                    .candidates()
                    .into_iter()
                    .filter(|m| m.landings().len() == depth + 1)
                    .collect();
                if let [m] = complete.as_slice() {
                    let m = *m;
                    self.picked = None;
                    self.play(&m);
                }
            }
        }
    }

    /// Writes a change of the open puzzle's record; a failure is told.
    fn record(&mut self, change: impl FnOnce(&mut Record)) {
        let id = self.puzzle().id.clone();
        if let Err(e) = self.progress.update(&id, change) {
            self.news.push((
                Tone::Bad,
                crate::text::printable(&format!("Progress not saved: {e}"), 300),
            ));
        }
    }

    /// The player plays `m`.
    pub(crate) fn play(&mut self, m: &Move) {
        let player = self.puzzle().player();
        let answer = self.attempt.play(&self.judge, m);
        self.news.clear();
        if !self.counted && !matches!(answer, Answer::Illegal(_) | Answer::Over) {
            self.counted = true;
            self.record(Record::count_attempt);
        }
        match answer {
            Answer::Correct {
                played,
                answer: None,
                ..
            } => {
                self.news.push((
                    Tone::Good,
                    format!(
                        "{played}: correct. Solved! The solution: {}",
                        self.puzzle().solution_text()
                    ),
                ));
                self.tell_explanation();
                self.record(|r| r.solved = true);
            }
            Answer::Correct {
                played,
                answer: Some(reply),
                ..
            } => self.news.push((
                Tone::Good,
                format!("{played}: correct. {} answers {reply}. Your move.", !player),
            )),
            Answer::Wrong(refutation) if !refutation.proven => {
                self.news.push((
                    Tone::Info,
                    format!(
                        "{}: {} {}",
                        refutation.wrong,
                        crate::puzzles::UNPROVEN,
                        refutation.sentence()
                    ),
                ));
                self.news.push((
                    Tone::Info,
                    "The solution plays another move: try again, or s for it.".to_string(),
                ));
            }
            Answer::Wrong(refutation) => {
                self.news.push((
                    Tone::Bad,
                    format!(
                        "{}: not the move. {}",
                        refutation.wrong,
                        refutation.sentence()
                    ),
                ));
                self.news.push((
                    Tone::Info,
                    "Try another move, or s for the solution.".to_string(),
                ));
                if self.attempt.wrong_moves == 1 {
                    self.record(Record::count_failure);
                }
            }
            Answer::Illegal(why) => self.news.push((Tone::Bad, why)),
            Answer::Over => self.news.push((
                Tone::Info,
                "This puzzle is over: n for the next, r to start again.".to_string(),
            )),
        }
    }

    /// Gives up and shows the solution on the board.
    fn show_solution(&mut self) {
        let was_over = self.attempt.is_over();
        self.attempt.show_solution();
        self.picked = None;
        self.news = vec![(
            Tone::Info,
            format!(
                "The solution: {}. {}.",
                self.puzzle().solution_text(),
                crate::text::capitalized(&self.puzzle().proof)
            ),
        )];
        self.tell_explanation();
        if !was_over && self.counted && self.attempt.wrong_moves == 0 {
            self.record(Record::count_failure);
        }
    }

    /// Shows the hint (the comment before the puzzle file's first move) in the news,
    /// until the next move; a puzzle without one says so.
    fn show_hint(&mut self) {
        let said = match &self.puzzle().hint {
            Some(hint) => (Tone::Info, format!("Hint: {hint}")),
            None => (
                Tone::Info,
                "This puzzle has no hint (a puzzle file's comment before the first move \
                 is its hint)."
                    .to_string(),
            ),
        };
        // Shown once, however often the key is pressed.
        if !self.news.contains(&said) {
            self.news.push(said);
        }
    }

    /// Adds the explanation (the comments on the solution's moves) to the news, once
    /// the puzzle is solved or its solution shown.
    fn tell_explanation(&mut self) {
        if let Some(explanation) = self.puzzle().explanation.clone() {
            self.news.push((Tone::Info, explanation));
        }
    }

    /// The side panel's lines: the puzzle, its goal, the moves, the news, fitted to
    /// `room` (columns, rows) where it is given, by [`fit_panel`].
    fn panel_lines(&self, with_note: bool, room: Option<(usize, usize)>) -> Vec<Line<'static>> {
        let theme = &self.theme;
        let p = self.puzzle();
        let record = self.progress.of(&p.id);
        let mut lines = vec![
            (
                Keep::Always,
                Line::styled(
                    format!(
                        "Puzzle {} of {}",
                        self.index + 1,
                        self.progress.puzzles().len()
                    ),
                    theme.heading,
                ),
            ),
            (Keep::Always, Line::styled(p.title.clone(), theme.heading)),
            (Keep::Until(Spare::Source), Line::raw(p.source.clone())),
            (Keep::Until(Spare::Blanks), Line::raw("")),
            (Keep::Always, Line::styled(p.goal_text(), theme.question)),
        ];
        let state = if self.attempt.solved {
            "Solved".to_string()
        } else if self.attempt.shown {
            "Solution shown".to_string()
        } else {
            format!(
                "Move {} of {}",
                (self.attempt.player_moves() + 1).min(p.moves_to_make()),
                p.moves_to_make()
            )
        };
        let history = match (record.solved, record.attempts) {
            _ if self.attempt.is_over() => String::new(),
            (true, _) => " (solved before)".to_string(),
            (false, 0) => String::new(),
            (false, 1) => " (tried once)".to_string(),
            (false, n) => format!(" (tried {n} times)"),
        };
        lines.push((Keep::Always, Line::raw(format!("{state}{history}"))));
        let moves = self.attempt.moves_text();
        if !moves.is_empty() {
            // Once over, the news says the whole solution: the moves again.
            let keep = if self.attempt.is_over() {
                Keep::Until(Spare::Moves)
            } else {
                Keep::Always
            };
            lines.push((keep, Line::raw(format!("Moves: {moves}"))));
        }
        lines.push((Keep::Until(Spare::Blanks), Line::raw("")));
        for (tone, text) in &self.news {
            let style = match tone {
                Tone::Info => theme.text,
                Tone::Good => theme.heading,
                Tone::Bad => theme.error,
            };
            lines.push((Keep::Always, Line::styled(text.clone(), style)));
        }
        if with_note {
            lines.extend(
                self.note
                    .iter()
                    .map(|l| (Keep::Always, Line::styled(l.clone(), theme.text))),
            );
        }
        if self.warning.is_some() {
            lines.extend(
                self.warning_lines(usize::MAX)
                    .into_iter()
                    .map(|line| (Keep::Until(Spare::Warning), line)),
            );
            // The list (z) tells the warning whole.
            lines.push((
                Keep::From(Spare::Warning),
                Line::styled("Warning: z shows it on the list.", theme.error),
            ));
        }
        fit_panel(lines, room)
    }

    /// The warning about the saved progress, if there is one, wrapped in `width` columns.
    fn warning_lines(&self, width: usize) -> Vec<Line<'static>> {
        self.warning.as_ref().map_or_else(Vec::new, |why| {
            wrapped(&format!("Warning: {why}"), width, self.theme.error)
        })
    }

    /// The list's lines: each puzzle with its solved mark, the chosen one marked.
    fn list_lines(&self, chosen: usize, rows: usize, width: usize) -> Vec<Line<'static>> {
        let theme = &self.theme;
        let all = self.progress.puzzles();
        let mut lines = vec![Line::styled(
            format!(
                "Puzzles: {} of {} solved",
                all.iter()
                    .filter(|p| self.progress.of(&p.id).solved)
                    .count(),
                all.len()
            ),
            theme.heading,
        )];
        lines.extend(self.warning_lines(width));
        let (top, shown) = list_window(chosen, rows, lines.len(), self.progress.puzzles().len());
        for (i, p) in all.iter().enumerate().skip(top).take(shown) {
            let mark = if self.progress.of(&p.id).solved {
                "[x]"
            } else {
                "[ ]"
            };
            let (marker, style) = if i == chosen {
                ("> ", theme.cursor)
            } else {
                ("  ", theme.text)
            };
            lines.push(Line::from(vec![
                Span::styled(marker, theme.question),
                Span::styled(
                    format!("{mark} {:>2}. {} ({})", i + 1, p.title, p.goal_text()),
                    style,
                ),
            ]));
        }
        lines
    }

    /// The puzzle whose row of the list is drawn at `column`, `row` of the screen
    /// `area`, the list being shown with puzzle `chosen` chosen.
    fn puzzle_at(&self, chosen: usize, area: Rect, column: u16, row: u16) -> Option<usize> {
        let inner = Block::bordered().inner(area);
        if !inner.contains(ratatui::layout::Position::new(column, row)) {
            return None;
        }
        // The rows list_body gives list_lines, and the heading and warning above them.
        let width = usize::from(area.width.saturating_sub(2));
        let note_rows: usize = self
            .note
            .iter()
            .map(|l| wrapped(l, width, self.theme.text).len())
            .sum();
        let rows = usize::from(area.height.saturating_sub(2)).saturating_sub(note_rows);
        let above = 1 + self.warning_lines(width).len();
        let (top, shown) = list_window(chosen, rows, above, self.progress.puzzles().len());
        let line = usize::from(row - inner.y).checked_sub(above)?;
        (line < shown).then_some(top + line)
    }

    /// Draws the board of the position now, the cursor, the picked piece and its
    /// landings so far.
    fn render_board(&self, board: &BoardGeometry, buf: &mut Buffer) {
        let theme = &self.theme;
        Block::bordered()
            .border_set(theme.glyphs.border)
            .border_style(theme.border)
            .render(board.frame, buf);
        let pos = self.attempt.position();
        let last: Vec<Square> = self
            .attempt
            .moves
            .last()
            .map(Move::squares)
            .unwrap_or_default();
        let (picked, hops) = match &self.picked {
            Some((from, hops)) => (Some(*from), hops.clone()),
            None => (None, Vec::new()),
        };
        let depth = hops.len();
        let targets: Vec<Square> = self
            .candidates()
            .iter()
            .filter_map(|m| m.landings().nth(depth))
            .collect();
        for row in 0..8 {
            for col in 0..8 {
                let rect = board.cell_rect(row, col);
                let Some(sq) = Square::from_row_col(row, col) else {
                    buf.set_style(rect, theme.light_square);
                    if !theme.colored {
                        for y in rect.top()..rect.bottom() {
                            for x in rect.left()..rect.right() {
                                buf.set_string(x, y, theme.glyphs.light_fill, theme.light_square);
                            }
                        }
                    }
                    continue;
                };
                let mut style = theme.dark_square;
                if last.contains(&sq) {
                    style = style.patch(theme.last_move);
                }
                if targets.contains(&sq) {
                    style = style.patch(theme.target);
                }
                if picked == Some(sq) || hops.contains(&sq) {
                    style = style.patch(theme.selected);
                }
                let is_cursor = self.cursor == (row, col);
                if is_cursor {
                    style = style.patch(theme.cursor);
                }
                buf.set_style(rect, style);
                let piece = pos.piece_at(sq);
                if rect.height > 1 || piece.is_none() {
                    let x = if rect.width <= 3 { rect.x + 1 } else { rect.x };
                    buf.set_string(x, rect.y, format!("{:>2}", sq.number()), style);
                }
                let disc_rows = rect.height.saturating_sub(1).max(1);
                let disc_top = rect.bottom() - disc_rows;
                let middle = disc_top + disc_rows / 2;
                let center = rect.x + rect.width / 2;
                if let Some(piece) = piece {
                    if rect.height > 1 {
                        render_disc(theme, piece, rect, disc_top, disc_rows, style, buf);
                    } else {
                        buf.set_string(
                            center,
                            rect.y,
                            piece_glyph(theme, piece),
                            style.patch(piece_style(theme, piece.color)),
                        );
                    }
                } else if targets.contains(&sq) {
                    buf.set_string(center, middle, theme.glyphs.target, style);
                }
                if is_cursor && rect.width >= 5 {
                    let (left, right) = theme.glyphs.cursor;
                    buf.set_string(rect.x, middle, left, style);
                    buf.set_string(rect.right() - 1, middle, right, style);
                }
            }
        }
    }

    /// The list's lines above its key line on the screen `area`: the puzzles, a blank
    /// line and the note.
    fn list_body(&self, chosen: usize, area: Rect) -> Vec<Line<'static>> {
        let width = usize::from(area.width.saturating_sub(2));
        let note: Vec<Line> = self
            .note
            .iter()
            .flat_map(|l| wrapped(l, width, self.theme.text))
            .collect();
        let rows = usize::from(area.height.saturating_sub(2)).saturating_sub(note.len());
        let mut lines = self.list_lines(chosen, rows, width);
        lines.push(Line::raw(""));
        lines.extend(note);
        lines
    }

    /// The key line of what is shown in `width` columns (those that fit, `q leave`
    /// always), each entry with the key a click on it presses.
    fn key_line(&self, width: u16) -> KeyLine {
        KeyLine::of_keys(&self.theme, &fit_keys(self.keys(), usize::from(width)))
    }

    /// Where the key line is drawn on the screen `area`: its row (in the list's box, or
    /// under the board); `None` where it is not drawn (a move being typed takes its row,
    /// or the list's box has no room left for it).
    fn key_line_area(&self, area: Rect) -> Option<Rect> {
        match self.view {
            View::List(chosen) => {
                let above = u16::try_from(self.list_body(chosen, area).len()).ok()?;
                let row = area.y + 1 + above;
                (row + 1 < area.bottom()).then(|| Rect {
                    x: area.x + 1,
                    y: row,
                    width: area.width.saturating_sub(2),
                    height: 1,
                })
            }
            View::Board if self.typed.is_some() => None,
            View::Board => screen_layout(area, self.flipped()).and_then(|l| self.key_row(&l)),
        }
    }

    /// The key line of what is shown.
    fn keys(&self) -> Vec<(&'static str, &'static str)> {
        match self.view {
            View::List(_) => vec![
                ("Up/Down", "choose"),
                ("Enter", "open"),
                ("?", "keys"),
                ("q", "leave"),
            ],
            View::Board if self.typed.is_some() => vec![("Enter", "play"), ("Esc", "cancel")],
            View::Board if self.attempt.is_over() => {
                vec![("n", "next"), ("r", "again"), ("z", "list"), ("q", "leave")]
            }
            // The board's keys, `i hint` among them where the puzzle has a hint.
            View::Board => {
                let hint = self.puzzle().hint.is_some().then_some(("i", "hint"));
                std::iter::once(("Enter", "pick/move"))
                    .chain(hint)
                    .chain([
                        ("u", "back"),
                        ("s", "solution"),
                        ("n", "next"),
                        ("z", "list"),
                        ("?", "keys"),
                        ("q", "leave"),
                    ])
                    .collect()
            }
        }
    }
}

/// The window of the list drawn in `rows` rows, `above` of them taken by its heading
/// (and a warning): the first puzzle shown and how many are, so that the chosen one,
/// `chosen`, shows, in the middle where it can; `count` puzzles in all.
fn list_window(chosen: usize, rows: usize, above: usize, count: usize) -> (usize, usize) {
    let shown = rows.saturating_sub(2 + above).max(1);
    crate::tui::choice::window(chosen, shown, count)
}

/// The side panel's first lines, its heading: the puzzle's number and title.
const PANEL_HEAD_LINES: usize = 2;

/// The side panel's `lines` in `inside` parted in two, each with its place: the heading
/// (the puzzle's number and title), which stays in view, and the rest, which PgDn and
/// PgUp page through under it.
type PanelPart = (Vec<Line<'static>>, Rect);

/// See [`PanelPart`]: `lines` in `inside`, the heading and the rest.
fn part_panel(mut lines: Vec<Line<'static>>, inside: Rect) -> (PanelPart, PanelPart) {
    let body = lines.split_off(PANEL_HEAD_LINES.min(lines.len()));
    let rows: usize = lines
        .iter()
        .map(|l| super::keyline::line_rows(l, usize::from(inside.width)))
        .sum();
    let rows = u16::try_from(rows).unwrap_or(u16::MAX).min(inside.height);
    let (head_area, body_area) = super::geometry::split_top(inside, rows);
    ((lines, head_area), (body, body_area))
}

/// Where `lines`, wrapped in `inside`, take more rows than it has: the furthest they
/// scroll with a row kept to tell there is more, and the rows left to them (a page).
fn scroll_room(lines: &[Line], inside: Rect) -> Option<(usize, usize)> {
    let height = usize::from(inside.height);
    let total: usize = lines
        .iter()
        .map(|l| super::keyline::line_rows(l, usize::from(inside.width)))
        .sum();
    let page = height.checked_sub(1).filter(|&page| page > 0)?;
    (total > height).then(|| (total - page, page))
}

/// What the side panel can spare where it has no room for all it says, least needed
/// first, so that the news (the explanation of a puzzle solved) reads whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Spare {
    /// The moves played, once the news says the whole solution.
    Moves,
    /// The blank lines between the heading, the goal and the news.
    Blanks,
    /// Where the puzzle comes from.
    Source,
    /// The warning, told whole on the list, said in short.
    Warning,
}

/// Whether a line of the side panel is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Keep {
    /// Always.
    Always,
    /// Until this is spared.
    Until(Spare),
    /// Once this is spared (what is said in its place).
    From(Spare),
}

/// The side panel's `lines` that fit in `room` (columns, rows): all of them but the
/// [`Keep::From`] ones where they fit, else with what it can [`Spare`] left out,
/// least needed first, until they do (or nothing more can be spared).
fn fit_panel(
    lines: Vec<(Keep, Line<'static>)>,
    room: Option<(usize, usize)>,
) -> Vec<Line<'static>> {
    let shown = |spared: Option<Spare>| -> Vec<Line<'static>> {
        lines
            .iter()
            .filter(|(keep, _)| match (keep, spared) {
                (Keep::Always, _) => true,
                (Keep::Until(what), Some(up_to)) => *what > up_to,
                (Keep::Until(_), None) => true,
                (Keep::From(what), Some(up_to)) => *what <= up_to,
                (Keep::From(_), None) => false,
            })
            .map(|(_, line)| line.clone())
            .collect()
    };
    let Some((width, height)) = room else {
        return shown(None);
    };
    let fits = |lines: &[Line]| {
        lines
            .iter()
            .map(|l| super::keyline::line_rows(l, width))
            .sum::<usize>()
            <= height
    };
    let mut lines = shown(None);
    for spared in [Spare::Moves, Spare::Blanks, Spare::Source, Spare::Warning] {
        if fits(&lines) {
            break;
        }
        lines = shown(Some(spared));
    }
    lines
}

impl Widget for &PuzzleScreen {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = &self.theme;
        Clear.render(area, buf);
        if let View::List(chosen) = self.view {
            let mut lines = self.list_body(chosen, area);
            lines.push(self.key_line(area.width.saturating_sub(2)).line());
            Paragraph::new(lines)
                .block(
                    Block::bordered()
                        .border_set(theme.glyphs.border)
                        .border_style(theme.heading)
                        .title(" puzzles ")
                        .title_style(theme.heading),
                )
                .render(area, buf);
            return;
        }
        let Some(layout) = screen_layout(area, self.flipped()) else {
            Paragraph::new("terminal too small: need 26x11\nq leaves")
                .wrap(Wrap { trim: true })
                .render(area, buf);
            return;
        };
        let (top, bottom) = if self.flipped() {
            (Color::Black, Color::White)
        } else {
            (Color::White, Color::Black)
        };
        Paragraph::new(top.name())
            .style(theme.heading)
            .alignment(Alignment::Center)
            .render(layout.top_label, buf);
        Paragraph::new(bottom.name())
            .style(theme.heading)
            .alignment(Alignment::Center)
            .render(layout.bottom_label, buf);
        self.render_board(&layout.board, buf);
        if !layout.panel.is_empty() {
            // The note goes in a box over the board where the panel has no room left
            // for it under the news (the keys `?` lists were cut at 80x24).
            self.render_panel(&layout, buf);
            self.render_note_box(&layout, buf);
        } else {
            self.render_compact(&layout, buf);
        }
        let Some(keys) = self.key_row(&layout) else {
            return;
        };
        let status = match &self.typed {
            Some(text) => Line::from(vec![
                Span::styled("Move: ", theme.heading),
                Span::raw(text.clone()),
                Span::styled(" ", theme.key),
            ]),
            None => self.key_line(keys.width).line(),
        };
        Paragraph::new(status).render(keys, buf);
    }
}

impl PuzzleScreen {
    /// The side panel's lines on the board's screen `layout`, fitted to its room, and
    /// that room inside its margins.
    fn fitted_panel(&self, layout: &super::geometry::ScreenLayout) -> (Vec<Line<'static>>, Rect) {
        let boxed = self.note_box(layout).is_some();
        let inside = layout.panel.inner(ratatui::layout::Margin::new(1, 0));
        let room = (usize::from(inside.width), usize::from(inside.height));
        (self.panel_lines(!boxed, Some(room)), inside)
    }

    /// Where the side panel on the screen `area` says more than it has rows for: the
    /// furthest it scrolls, and the rows of a page (its rows but the one that tells
    /// there is more).
    fn panel_scroll_room(&self, area: Rect) -> Option<(usize, usize)> {
        let layout = screen_layout(area, self.flipped())?;
        if layout.panel.is_empty() {
            return None;
        }
        let (lines, inside) = self.fitted_panel(&layout);
        let (_, body) = part_panel(lines, inside);
        scroll_room(&body.0, body.1)
    }

    /// The side panel: what it says, from [`panel_scroll`](Self::panel_scroll)'s row
    /// where it says more than it has rows for, its last row then telling where the
    /// rest is (PgDn below, PgUp above).
    fn render_panel(&self, layout: &super::geometry::ScreenLayout, buf: &mut Buffer) {
        let (lines, inside) = self.fitted_panel(layout);
        let ((head, head_area), (body, body_area)) = part_panel(lines, inside);
        let Some((most, page)) = scroll_room(&body, body_area) else {
            Paragraph::new(head.into_iter().chain(body).collect::<Vec<_>>())
                .wrap(Wrap { trim: false })
                .render(inside, buf);
            return;
        };
        // The heading stays in view; what follows it pages.
        Paragraph::new(head)
            .wrap(Wrap { trim: false })
            .render(head_area, buf);
        let (lines, inside) = (body, body_area);
        let from = self.panel_scroll.min(most);
        let rows = u16::try_from(page).unwrap_or(u16::MAX);
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((u16::try_from(from).unwrap_or(u16::MAX), 0))
            .render(
                Rect {
                    height: rows,
                    ..inside
                },
                buf,
            );
        let more = match (from > 0, from < most) {
            (false, _) => "More below: PgDn",
            (true, true) => "More: PgDn below, PgUp above",
            (true, false) => "The end; PgUp goes back",
        };
        Line::styled(
            crate::text::one_row(
                more,
                usize::from(inside.width),
                self.theme.glyphs.ellipsis(),
            ),
            self.theme.key,
        )
        .render(
            Rect {
                y: inside.y + rows,
                height: 1,
                ..inside
            },
            buf,
        );
    }

    /// The row of the key line (or of the move being typed) on the board's screen
    /// `layout`: the row under the status rows, or on the smallest screen (no row
    /// under its one status row) that row, the news going on the board's frame.
    fn key_row(&self, layout: &super::geometry::ScreenLayout) -> Option<Rect> {
        match layout.hints.height {
            0 if layout.panel.is_empty() => Some(layout.status),
            0 => None,
            _ => Some(layout.hints),
        }
    }

    /// Without room for the panel: the goal on the board's top edge where the side
    /// names leave it free (else first on the status rows), the news on the status
    /// rows, or on the bottom edge where the one status row is the key line's; the
    /// keys `?` shows (or a key's note) in a box over the board, until the next key or
    /// click.
    fn render_compact(&self, layout: &super::geometry::ScreenLayout, buf: &mut Buffer) {
        let theme = &self.theme;
        let frame = layout.board.frame;
        let ellipsis = theme.glyphs.ellipsis();
        // A row of the frame, with a blank each side, as a title.
        let on_edge = |text: &str, style, y, buf: &mut Buffer| {
            let width = usize::from(frame.width.saturating_sub(4));
            let text = crate::text::one_row(text, width, ellipsis);
            Line::styled(format!(" {text} "), style).render(
                Rect {
                    x: frame.x + 1,
                    y,
                    width: frame.width.saturating_sub(2),
                    height: 1,
                },
                buf,
            );
        };
        let goal = self.puzzle().goal_text();
        let goal_on_frame = layout.top_label.height == 0;
        let mut news: Vec<Line> = Vec::new();
        if goal_on_frame {
            on_edge(&goal, theme.question, frame.y, buf);
        } else {
            news.push(Line::styled(goal, theme.question));
        }
        news.extend(self.news.iter().map(|(tone, text)| {
            let style = match tone {
                Tone::Info => theme.text,
                Tone::Good => theme.heading,
                Tone::Bad => theme.error,
            };
            Line::styled(text.clone(), style)
        }));
        if layout.hints.height == 0 {
            // One row for all of it: the news (the goal first, where the frame has no
            // room for it), the warning, told whole on the list, only pointed to after
            // it where the row has room left.
            let mut text = news
                .iter()
                .map(Line::to_string)
                .collect::<Vec<_>>()
                .join(" ");
            let style = news.first().map_or(theme.text, |line| line.style);
            let room = usize::from(frame.width.saturating_sub(4));
            if self.warning.is_some() {
                let pointer = format!("{text} Warning: z shows it on the list.");
                if crate::text::columns(&pointer) <= room {
                    text = pointer;
                }
            }
            on_edge(&text, style, frame.bottom() - 1, buf);
        } else {
            news.extend(self.warning_lines(usize::MAX));
            Paragraph::new(news)
                .wrap(Wrap { trim: false })
                .render(layout.status.inner(ratatui::layout::Margin::new(1, 0)), buf);
        }
        self.render_note_box(layout, buf);
    }

    /// The note (the keys `?` shows, or a key's note) in a box over the board, where
    /// [`note_box`](Self::note_box) puts one, until the next key or click.
    fn render_note_box(&self, layout: &super::geometry::ScreenLayout, buf: &mut Buffer) {
        let theme = &self.theme;
        if let Some(area) = self.note_box(layout) {
            Clear.render(area, buf);
            let inside = Block::bordered().inner(area);
            let note: Vec<&str> = self.note.iter().map(String::as_str).collect();
            // The keys in short where the whole of them would be cut.
            let rows: usize = note
                .iter()
                .map(|l| super::keyline::line_rows(&Line::raw(*l), usize::from(inside.width)))
                .sum();
            let note = if rows > usize::from(inside.height) && note == BOARD_KEYS {
                BOARD_KEYS_SHORT.to_vec()
            } else {
                note
            };
            let lines: Vec<Line> = note.iter().map(|l| Line::raw(l.to_string())).collect();
            Paragraph::new(lines)
                .wrap(Wrap { trim: true })
                .block(
                    Block::bordered()
                        .border_set(theme.glyphs.border)
                        .border_style(theme.heading)
                        .title(Line::styled(" a click closes ", theme.heading)),
                )
                .render(area, buf);
        }
    }

    /// The box over the board where, without room for the panel, the note (the keys
    /// `?` shows, or why a key did nothing) is read; `None` without a note.
    /// Also with the panel, where the note would not fit in it under the news.
    fn note_box(&self, layout: &super::geometry::ScreenLayout) -> Option<Rect> {
        if self.note.is_empty() {
            return None;
        }
        if layout.panel.is_empty() {
            return Some(layout.board.frame);
        }
        let inside = layout.panel.inner(ratatui::layout::Margin::new(1, 0));
        let rows: usize = self
            // Measured unspared: a passing note does not drop what the panel says.
            .panel_lines(true, None)
            .iter()
            .map(|l| super::keyline::line_rows(l, usize::from(inside.width)))
            .sum();
        (rows > usize::from(inside.height)).then_some(layout.board.frame)
    }
}
