//! The board on screen: the cursor, the piece picked up and the hops chosen for it,
//! where each side's cursor rests, which way up the board is and its coordinates.
//! Every rule comes from the legal-move list of the position it is given.

use super::{Direction, Tone};
use crate::rules::{Color, Move, Position, Square};
use crate::tui::geometry::screen_layout;
use ratatui::layout::Rect;

/// Where the cursors usually start: square 11 for Black and 22 for White, pieces with a
/// move where play usually starts.
const START_CURSORS: [(u8, u8); 2] = [(2, 2), (5, 5)];

fn color_index(color: Color) -> usize {
    usize::from(color == Color::White)
}

/// Where `side`'s cursor starts on `position` (a `--fen` may leave square 11 or 22
/// empty): on its piece nearest the usual square that has a legal move, were `side` to
/// move (so a piece that must capture, when one must); on its piece nearest it when
/// none has a move; on the usual square itself when `side` has no piece.
fn start_cursor(side: Color, position: &Position) -> (u8, u8) {
    let usual = START_CURSORS[color_index(side)];
    let movable: Vec<Square> = position
        .with_turn(side)
        .legal_moves()
        .iter()
        .map(Move::from)
        .collect();
    let pieces = if movable.is_empty() {
        position.side(side).into_iter().collect()
    } else {
        movable
    };
    let distance = |square: &Square| {
        let rows = i32::from(square.row()) - i32::from(usual.0);
        let cols = i32::from(square.col()) - i32::from(usual.1);
        // Ties go to the lower number, so the choice never depends on the move order.
        (rows * rows + cols * cols, square.number())
    };
    pieces
        .iter()
        .min_by_key(|square| distance(square))
        .map_or(usual, |square| (square.row(), square.col()))
}

/// "15", "15 or 16", "14, 15 or 16".
pub(super) fn join_or(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

/// A piece picked up, and the hops chosen so far in building its move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Pick {
    /// Where the piece stands.
    pub(crate) from: Square,
    /// The landing squares chosen so far (a multi-jump is built one hop at a time).
    pub(crate) hops: Vec<Square>,
}

/// What a key on the board came to: words for the status line, or a whole move to play.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Picked {
    /// Nothing to play yet: this is said.
    Said(Tone, String),
    /// The piece picked up has its move.
    Play(Move),
}

/// The board on screen and what the player does on it before a move is played.
#[derive(Clone, Debug)]
pub(crate) struct BoardView {
    /// The board cell under the cursor: `(row, col)` as in [`Square::row`] / [`Square::col`].
    pub(crate) cursor: (u8, u8),
    /// The piece picked up, if any.
    pub(crate) pick: Option<Pick>,
    /// Where each side's cursor rests while the other side moves (Black's, White's):
    /// each player finds it where they left it. `None` until a side first had the
    /// cursor: it starts then where [`start_cursor`] says, on the position it moves in.
    resting: [Option<(u8, u8)>; 2],
    /// White at the bottom.
    pub(crate) flipped: bool,
    /// The board's side was fixed with `--flip`: it does not turn as a match's colours
    /// change.
    flip_fixed: bool,
    /// The side this board's player had when last looked at, across the network: a
    /// match's colours change at the host, and the board turns with them.
    own_side: Option<Color>,
    /// The algebraic coordinates (a-h, 1-8) are shown round the board.
    pub(crate) coordinates: bool,
}

impl BoardView {
    /// A board of `position` with nothing picked up, the cursor on `side`'s starting
    /// piece (see [`start_cursor`]); `flip_fixed` when `--flip` fixed which way up it is.
    pub(crate) fn new(
        side: Color,
        position: &Position,
        flipped: bool,
        flip_fixed: bool,
        own_side: Option<Color>,
        coordinates: bool,
    ) -> BoardView {
        BoardView {
            cursor: start_cursor(side, position),
            pick: None,
            resting: [None; 2],
            flipped,
            flip_fixed,
            own_side,
            coordinates,
        }
    }

    /// A new game from `position`: nothing picked up, and the cursors where they start,
    /// `side`'s shown.
    pub(super) fn start_again(&mut self, side: Color, position: &Position) {
        self.pick = None;
        self.resting = [None; 2];
        self.cursor = start_cursor(side, position);
    }

    /// The side to move changed from `before` to `now` in `position`: the cursor rests
    /// where it was, and the side now to move finds its own where it left it (on its
    /// first turn, on a piece that can move: see [`start_cursor`]).
    pub(super) fn hand_over(&mut self, before: Color, now: Color, position: &Position) {
        if now != before {
            self.resting[color_index(before)] = Some(self.cursor);
            self.cursor =
                self.resting[color_index(now)].unwrap_or_else(|| start_cursor(now, position));
        }
    }

    /// Turns the board over; says which side is now at the bottom.
    pub(crate) fn flip(&mut self) -> String {
        self.flipped = !self.flipped;
        let bottom = if self.flipped { "White" } else { "Black" };
        format!("Board flipped: {bottom} at the bottom")
    }

    /// Shows or hides the coordinates; says which.
    pub(crate) fn toggle_coordinates(&mut self) -> &'static str {
        self.coordinates = !self.coordinates;
        if self.coordinates {
            "Coordinates shown: a1 is square 29, h8 is square 4 (a hides them)"
        } else {
            "Coordinates hidden"
        }
    }

    /// The match's next game has begun: the board turns when the side a person plays
    /// against the computer changed (`person_moved_over`), or for two people (each keeps
    /// their side of the screen) unless `--flip` fixed it.
    pub(super) fn next_game(
        &mut self,
        turn: Color,
        position: &Position,
        person_moved_over: bool,
        people: bool,
    ) {
        self.start_again(turn, position);
        if person_moved_over || (people && !self.flip_fixed) {
            self.flipped = !self.flipped;
        }
    }

    /// A joiner keeps its own `side` at the bottom as a match's colours change at the
    /// host (which turns its own board at its `n`), unless `--flip` fixed the board.
    pub(super) fn follow_own_side(&mut self, side: Color) {
        if self.own_side.is_some_and(|before| before != side) && !self.flip_fixed {
            self.flipped = !self.flipped;
            self.pick = None;
        }
        self.own_side = Some(side);
    }

    /// The dark square under the cursor (`None` on a light square).
    pub(crate) fn cursor_square(&self) -> Option<Square> {
        Square::from_row_col(self.cursor.0, self.cursor.1)
    }

    /// The legal moves in `position` that continue the picked-up piece's hops so far.
    pub(crate) fn pick_candidates(&self, position: &Position) -> Vec<Move> {
        let Some(pick) = &self.pick else {
            return Vec::new();
        };
        position
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

    /// Where the picked-up piece may land next in `position`.
    pub(crate) fn targets(&self, position: &Position) -> Vec<Square> {
        let hops = self.pick.as_ref().map_or(0, |p| p.hops.len());
        let mut targets: Vec<Square> = self
            .pick_candidates(position)
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
    pub(crate) fn move_cursor(&mut self, direction: Direction, position: &Position) {
        let stops: Vec<(u8, u8)> = if self.pick.is_some() {
            self.targets(position)
                .iter()
                .map(|s| (s.row(), s.col()))
                .collect()
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

    /// Tab with a piece picked up: the next square it may land on; Shift-Tab (`back`)
    /// the one before (from off them, the first or the last).
    pub(crate) fn next_target(&mut self, position: &Position, back: bool) {
        let targets = self.targets(position);
        let count = targets.len().max(1);
        let at = targets
            .iter()
            .position(|t| (t.row(), t.col()) == self.cursor)
            .map_or(if back { count - 1 } else { 0 }, |i| {
                if back {
                    (i + count - 1) % count
                } else {
                    (i + 1) % count
                }
            });
        if let Some(t) = targets.get(at) {
            self.cursor = (t.row(), t.col());
        }
    }

    /// The board cell under a click on a `screen` of that size, if it is on the board.
    pub(crate) fn cell_at(&self, screen: Rect, column: u16, row: u16) -> Option<(u8, u8)> {
        screen_layout(screen, self.flipped)?
            .board
            .cell_at(column, row)
    }

    /// Enter/Space/click on a square of `position`: pick up, land, switch piece or
    /// explain; the move, once whole, is for the caller to play.
    pub(crate) fn select(&mut self, square: Option<Square>, position: &Position) -> Picked {
        let Some(sq) = square else {
            return Picked::Said(
                Tone::Error,
                "Light square: checkers is played on the dark, numbered squares only".into(),
            );
        };
        let Some(pick) = self.pick.clone() else {
            return self.pick_up(sq, position);
        };
        let targets = self.targets(position);
        if targets.contains(&sq) {
            self.hop(pick, sq, position)
        } else if sq == pick.from && pick.hops.is_empty() {
            self.pick = None;
            Picked::Said(Tone::Info, format!("Put the piece on {sq} down"))
        } else if pick.hops.is_empty() && position.legal_moves().iter().any(|m| m.from() == sq) {
            self.pick_up(sq, position)
        } else {
            let list = join_or(targets.iter().map(Square::to_string));
            let why = why_not_there(&pick, sq, &targets, position);
            Picked::Said(
                Tone::Error,
                format!("Cannot land on {sq}: {why}. Land on {list} (Esc steps back)"),
            )
        }
    }

    /// Puts the cursor on the landing square nearest the piece picked up (toward the
    /// middle of the board on a tie), so landing is one more key.
    fn cursor_to_target(&mut self, position: &Position) {
        let Some(pick) = &self.pick else {
            return;
        };
        let at = pick.hops.last().copied().unwrap_or(pick.from);
        let (row, col) = self.on_screen((at.row(), at.col()));
        let nearest = self
            .targets(position)
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

    fn pick_up(&mut self, sq: Square, pos: &Position) -> Picked {
        let turn = pos.turn();
        let error = |text| Picked::Said(Tone::Error, text);
        match pos.piece_at(sq) {
            None => error(format!("No piece on {sq}: pick up one of {turn}'s pieces")),
            Some(piece) if piece.color != turn => error(format!(
                "The {piece} on {sq} is not yours: {turn} is to move"
            )),
            Some(piece) => {
                let legal = pos.legal_moves();
                if legal.iter().any(|m| m.from() == sq) {
                    self.pick = Some(Pick {
                        from: sq,
                        hops: Vec::new(),
                    });
                    self.cursor_to_target(pos);
                    let targets = join_or(self.targets(pos).iter().map(Square::to_string));
                    // Where to land first: a narrow status line may show no more.
                    Picked::Said(
                        Tone::Info,
                        format!("Land on {targets} ({piece} on {sq} picked up; Esc puts it down)"),
                    )
                } else if legal.iter().any(Move::is_capture) {
                    let captures = join_or(legal.iter().map(Move::to_string));
                    error(format!(
                        "A capture is compulsory: {captures}; the {} on {sq} cannot capture",
                        piece.role.name()
                    ))
                } else {
                    error(format!(
                        "The {} on {sq} has no legal move",
                        piece.role.name()
                    ))
                }
            }
        }
    }

    fn hop(&mut self, mut pick: Pick, sq: Square, position: &Position) -> Picked {
        pick.hops.push(sq);
        let hops = pick.hops.clone();
        self.pick = Some(pick);
        let candidates = self.pick_candidates(position);
        if let Some(complete) = candidates
            .iter()
            .find(|m| m.landings().eq(hops.iter().copied()))
        {
            Picked::Play(*complete)
        } else {
            self.cursor_to_target(position);
            let next = join_or(self.targets(position).iter().map(Square::to_string));
            Picked::Said(
                Tone::Info,
                format!(
                    "Jump {} done: keep jumping to {next} (Esc steps back)",
                    hops.len()
                ),
            )
        }
    }

    /// Esc with a piece picked up: the last hop is taken back, or the piece put down.
    /// What to say, if anything happened.
    pub(crate) fn back(&mut self, position: &Position) -> Option<String> {
        match &mut self.pick {
            Some(pick) if !pick.hops.is_empty() => {
                pick.hops.pop();
                let at = pick.hops.last().copied().unwrap_or(pick.from);
                self.cursor = (at.row(), at.col());
                let from = pick.from;
                let next = join_or(self.targets(position).iter().map(Square::to_string));
                Some(format!(
                    "Stepped back: the piece from {from} may land on {next}"
                ))
            }
            Some(pick) => {
                let from = pick.from;
                self.pick = None;
                self.cursor = (from.row(), from.col());
                Some(format!("Put the piece on {from} down"))
            }
            None => None,
        }
    }
}

/// Why the piece of `pick` may not land on `sq` in `position`, where it may land on
/// `targets` instead, in the words of the rules (someone new to the game learns them
/// from the refusal): a piece to jump is jumped over, a square taken is no landing, a
/// capture is compulsory, a man goes forward only.
fn why_not_there(pick: &Pick, sq: Square, targets: &[Square], position: &Position) -> String {
    let at = pick.hops.last().copied().unwrap_or(pick.from);
    let Some(piece) = position.piece_at(pick.from) else {
        return "that square is not one it can reach".to_string();
    };
    // A click on the piece to capture: the landing is the square beyond it.
    let jumped = targets.iter().any(|t| {
        at.row().abs_diff(t.row()) == 2
            && Square::from_row_col((at.row() + t.row()) / 2, (at.col() + t.col()) / 2) == Some(sq)
    });
    if jumped {
        return format!("to capture the piece on {sq}, jump over it to the empty square beyond");
    }
    if !pick.hops.is_empty() {
        return "the capture goes on while the piece can jump again".to_string();
    }
    if sq != pick.from && position.piece_at(sq).is_some() {
        return format!("{sq} is taken, and a piece lands only on an empty square");
    }
    let rows = i16::from(sq.row()) - i16::from(at.row());
    let diagonal_step = rows.abs() == 1 && sq.col().abs_diff(at.col()) == 1;
    // Row 0 is Black's side: Black's men go up the rows, White's down.
    let forward = match piece.color {
        Color::Black => rows > 0,
        Color::White => rows < 0,
    };
    let capturing = targets.iter().any(|t| t.row().abs_diff(at.row()) == 2);
    if piece.role == crate::rules::Role::Man && rows != 0 && !forward {
        format!(
            "a man moves only forward, toward {}'s side (a king, made on the far row, \
             moves back too)",
            !piece.color
        )
    } else if diagonal_step && capturing {
        "a capture is compulsory, so this piece must jump".to_string()
    } else {
        format!(
            "a {} moves one square diagonally, or jumps over a piece",
            piece.role.name()
        )
    }
}
