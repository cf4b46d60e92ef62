//! Picking and the cursor: moving over the board, picking up a piece, building its move
//! hop by hop, and clicks. Every rule comes from the legal-move list.

use super::{App, Direction, Pick, join_or};
use crate::rules::{Move, Square};
use crate::runtime::Command;
use crate::tui::geometry::screen_layout;

impl App {
    /// The dark square under the cursor (`None` on a light square).
    pub(crate) fn cursor_square(&self) -> Option<Square> {
        Square::from_row_col(self.cursor.0, self.cursor.1)
    }

    /// The legal moves that continue the picked-up piece's hops so far.
    pub(crate) fn pick_candidates(&self) -> Vec<Move> {
        let Some(pick) = &self.pick else {
            return Vec::new();
        };
        self.position()
            .legal_moves()
            .into_iter()
            .filter(|m| {
                m.from() == pick.from
                    && m.landings()
                        .take(pick.hops.len())
                        .eq(pick.hops.iter().copied())
            })
            .collect()
    }

    /// Where the picked-up piece may land next.
    pub(crate) fn targets(&self) -> Vec<Square> {
        let hops = self.pick.as_ref().map_or(0, |p| p.hops.len());
        let mut targets: Vec<Square> = self
            .pick_candidates()
            .iter()
            .filter_map(|m| m.landings().nth(hops))
            .collect();
        targets.sort_unstable();
        targets.dedup();
        targets
    }

    /// The pieces jumped so far by the multi-jump being built: each lies midway between
    /// two successive squares of the route.
    pub(crate) fn jumped_so_far(&self) -> Vec<Square> {
        let Some(pick) = &self.pick else {
            return Vec::new();
        };
        std::iter::once(pick.from)
            .chain(pick.hops.iter().copied())
            .zip(pick.hops.iter().copied())
            .filter_map(|(a, b)| {
                // Rows and columns are 0-7, so the sums cannot overflow.
                Square::from_row_col((a.row() + b.row()) / 2, (a.col() + b.col()) / 2)
            })
            .collect()
    }

    /// Screen coordinates (row from the top, column from the left) of board `cell`.
    fn on_screen(&self, (row, col): (u8, u8)) -> (i8, i8) {
        let (row, col) = (row as i8, col as i8);
        if self.flipped {
            (row, 7 - col)
        } else {
            (7 - row, col)
        }
    }

    /// Moves the cursor like a piece: to the nearest playable square in `direction` on
    /// the screen (a diagonal neighbour for Up and Down, the next square of the row for
    /// Left and Right). With a piece picked up it moves only among the squares the piece
    /// may land on. It stays put when there is nothing that way.
    pub(super) fn move_cursor(&mut self, direction: Direction) {
        let stops: Vec<(u8, u8)> = if self.pick.is_some() {
            self.targets().iter().map(|s| (s.row(), s.col())).collect()
        } else {
            Square::ALL.iter().map(|s| (s.row(), s.col())).collect()
        };
        let (row, col) = self.on_screen(self.cursor);
        // Free, Left and Right keep to the row; among landing squares any row will do.
        let same_row_only = self.pick.is_none();
        let best = stops
            .into_iter()
            .filter(|cell| *cell != self.cursor)
            .filter_map(|cell| {
                let (r, c) = self.on_screen(cell);
                let (dr, dc) = (r - row, c - col);
                // Up and Down: the nearest row that way, then the nearest square in
                // it (a diagonal neighbour). Left and Right: the same row first. Ties go
                // toward the middle of the board.
                let middle = (2 * c - 7).abs();
                let key = match direction {
                    Direction::Up => (-dr, dc.abs(), middle),
                    Direction::Down => (dr, dc.abs(), middle),
                    Direction::Left => (dr.abs(), -dc, middle),
                    Direction::Right => (dr.abs(), dc, middle),
                };
                let ahead = match direction {
                    Direction::Up => dr < 0,
                    Direction::Down => dr > 0,
                    Direction::Left => dc < 0 && (dr == 0 || !same_row_only),
                    Direction::Right => dc > 0 && (dr == 0 || !same_row_only),
                };
                ahead.then_some((key, cell))
            })
            .min();
        if let Some((_, cell)) = best {
            self.cursor = cell;
        }
    }

    /// Tab with a piece picked up: the next square it may land on.
    pub(super) fn next_target(&mut self) {
        let targets = self.targets();
        let at = targets
            .iter()
            .position(|t| (t.row(), t.col()) == self.cursor)
            .map_or(0, |i| (i + 1) % targets.len().max(1));
        if let Some(t) = targets.get(at) {
            self.cursor = (t.row(), t.col());
        }
    }

    /// The board cell under a click, if it is on the board.
    pub(super) fn cell_at(&self, column: u16, row: u16) -> Option<(u8, u8)> {
        screen_layout(self.screen, self.flipped)?
            .board
            .cell_at(column, row)
    }

    pub(super) fn click(&mut self, column: u16, row: u16) {
        if let Some(cell) = self.cell_at(column, row) {
            // The cursor rests on playable squares only; a light square explains itself.
            let square = Square::from_row_col(cell.0, cell.1);
            if square.is_some() {
                self.cursor = cell;
            }
            self.select(square);
        }
    }

    /// Enter/Space/click on a square: pick up, land, switch piece or explain.
    pub(super) fn select(&mut self, square: Option<Square>) {
        if let Some(outcome) = self.game().result() {
            self.error(format!(
                "The game is over ({outcome}). {}",
                self.after_the_end(outcome)
            ));
            return;
        }
        let Some(sq) = square else {
            self.error("Light square: checkers is played on the dark, numbered squares only");
            return;
        };
        let Some(pick) = self.pick.clone() else {
            self.pick_up(sq);
            return;
        };
        let targets = self.targets();
        if targets.contains(&sq) {
            self.hop(sq);
        } else if sq == pick.from && pick.hops.is_empty() {
            self.pick = None;
            self.info(format!("Put the piece on {sq} down"));
        } else if pick.hops.is_empty() && self.movable(sq) {
            self.pick_up(sq);
        } else {
            let list = join_or(targets.iter().map(Square::to_string));
            self.error(format!(
                "The piece from {} cannot land on {sq}: choose {list} (Esc steps back)",
                pick.from
            ));
        }
    }

    /// Puts the cursor on the landing square nearest the piece picked up (toward the
    /// middle of the board on a tie), so landing is one more key.
    fn cursor_to_target(&mut self) {
        let Some(pick) = &self.pick else {
            return;
        };
        let at = pick.hops.last().copied().unwrap_or(pick.from);
        let (row, col) = self.on_screen((at.row(), at.col()));
        let nearest = self
            .targets()
            .into_iter()
            .map(|t| {
                let (r, c) = self.on_screen((t.row(), t.col()));
                (((r - row).abs() + (c - col).abs(), (2 * c - 7).abs()), t)
            })
            .min();
        if let Some((_, t)) = nearest {
            self.cursor = (t.row(), t.col());
        }
    }

    fn movable(&self, sq: Square) -> bool {
        self.position().legal_moves().iter().any(|m| m.from() == sq)
    }

    fn pick_up(&mut self, sq: Square) {
        let pos = *self.position();
        let turn = pos.turn();
        match pos.piece_at(sq) {
            None => self.error(format!("No piece on {sq}: pick up one of {turn}'s pieces")),
            Some(piece) if piece.color != turn => self.error(format!(
                "The {piece} on {sq} is not yours: {turn} is to move"
            )),
            Some(piece) => {
                let legal = pos.legal_moves();
                if legal.iter().any(|m| m.from() == sq) {
                    self.pick = Some(Pick {
                        from: sq,
                        hops: Vec::new(),
                    });
                    self.cursor_to_target();
                    let targets = join_or(self.targets().iter().map(Square::to_string));
                    // Where to land first: a narrow status line may show no more.
                    self.info(format!(
                        "Land on {targets} ({piece} on {sq} picked up; Esc puts it down)"
                    ));
                } else if legal.iter().any(Move::is_capture) {
                    let captures = join_or(legal.iter().map(|m| pos.notation(m)));
                    self.error(format!(
                        "A capture is compulsory: {captures}; the {} on {sq} cannot capture",
                        piece.role.name()
                    ));
                } else {
                    self.error(format!(
                        "The {} on {sq} is blocked: it has no legal move",
                        piece.role.name()
                    ));
                }
            }
        }
    }

    fn hop(&mut self, sq: Square) {
        let Some(pick) = &mut self.pick else {
            return;
        };
        pick.hops.push(sq);
        let hops = pick.hops.clone();
        let candidates = self.pick_candidates();
        if let Some(complete) = candidates
            .iter()
            .find(|m| m.landings().eq(hops.iter().copied()))
        {
            let m = *complete;
            let played = self.runtime.command(Command::Play(m));
            self.after_move(played, Some(m));
        } else {
            self.cursor_to_target();
            let next = join_or(self.targets().iter().map(Square::to_string));
            self.info(format!(
                "Jump {} done: keep jumping to {next} (Esc steps back)",
                hops.len()
            ));
        }
    }

    pub(super) fn back(&mut self) {
        match &mut self.pick {
            Some(pick) if !pick.hops.is_empty() => {
                pick.hops.pop();
                let at = pick.hops.last().copied().unwrap_or(pick.from);
                self.cursor = (at.row(), at.col());
                let from = pick.from;
                let next = join_or(self.targets().iter().map(Square::to_string));
                self.info(format!(
                    "Stepped back: the piece from {from} may land on {next}"
                ));
            }
            Some(pick) => {
                let from = pick.from;
                self.pick = None;
                self.cursor = (from.row(), from.col());
                self.info(format!("Put the piece on {from} down"));
            }
            None => {}
        }
    }
}
