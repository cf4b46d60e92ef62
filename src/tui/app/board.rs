//! Picking and the cursor: moving over the board, picking up a piece, building its move
//! hop by hop, and clicks. Every rule comes from the legal-move list.

use super::{App, Direction, Pick, capitalize, join_or};
use crate::rules::{Move, Square};
use crate::tui::geometry::screen_layout;

impl App {
    /// The dark square under the cursor (`None` on a light square).
    pub fn cursor_square(&self) -> Option<Square> {
        Square::from_row_col(self.cursor.0, self.cursor.1)
    }

    /// The legal moves that continue the picked-up piece's hops so far.
    pub fn pick_candidates(&self) -> Vec<Move> {
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
    pub fn targets(&self) -> Vec<Square> {
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
    pub fn jumped_so_far(&self) -> Vec<Square> {
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

    pub(super) fn move_cursor(&mut self, direction: Direction) {
        // On a flipped board, screen directions run the other way over board rows/columns.
        let (up, right): (i8, i8) = if self.flipped { (-1, -1) } else { (1, 1) };
        let (dr, dc) = match direction {
            Direction::Up => (up, 0),
            Direction::Down => (-up, 0),
            Direction::Left => (0, -right),
            Direction::Right => (0, right),
        };
        let step = |v: u8, d: i8| v.saturating_add_signed(d).min(7);
        self.cursor = (step(self.cursor.0, dr), step(self.cursor.1, dc));
    }

    /// The board cell under a click, if it is on the board.
    pub(super) fn cell_at(&self, column: u16, row: u16) -> Option<(u8, u8)> {
        screen_layout(self.screen, self.flipped)?
            .board
            .cell_at(column, row)
    }

    pub(super) fn click(&mut self, column: u16, row: u16) {
        if let Some(cell) = self.cell_at(column, row) {
            self.cursor = cell;
            self.select(self.cursor_square());
        }
    }

    /// Enter/Space/click on a square: pick up, land, switch piece or explain.
    pub(super) fn select(&mut self, square: Option<Square>) {
        if let Some(outcome) = self.game().result() {
            self.error(format!(
                "The game is over ({outcome}). u undoes, n starts a new game."
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
                    let targets = join_or(self.targets().iter().map(Square::to_string));
                    self.info(format!(
                        "{} on {sq} picked up: land on {targets} (Esc puts it down)",
                        capitalize(&piece.to_string())
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
            let played = self.session.play(&m);
            self.after_move(played, Some(m));
        } else {
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
                let from = pick.from;
                let next = join_or(self.targets().iter().map(Square::to_string));
                self.info(format!(
                    "Stepped back: the piece from {from} may land on {next}"
                ));
            }
            Some(pick) => {
                let from = pick.from;
                self.pick = None;
                self.info(format!("Put the piece on {from} down"));
            }
            None => {}
        }
    }
}
