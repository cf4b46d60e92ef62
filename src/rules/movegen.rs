//! Board geometry as bit shifts, and legal move generation.
//!
//! With bit `i` standing for square `i + 1`, a diagonal neighbour is a shift by 3, 4 or 5
//! bits depending on the row's parity; the masks below keep shifts from wrapping round
//! the board edge. Jumps use per-square tables so a route can be followed square by square.

use super::mv::MAX_LANDINGS;
use super::{Bitboard, Color, Move, Position, Square};

const EVEN_ROWS: u32 = 0x0F0F_0F0F;
const ODD_ROWS: u32 = 0xF0F0_F0F0;
/// Rightmost square of each row on the diagram (squares 1, 5, 9, ...).
const RIGHT_EDGE: u32 = 0x1111_1111;
/// Leftmost square of each row on the diagram (squares 4, 8, 12, ...).
const LEFT_EDGE: u32 = 0x8888_8888;
const ROW_0: u32 = 0x0000_000F;
const ROW_7: u32 = 0xF000_0000;

/// The squares where each colour's men are crowned.
pub(crate) const fn crown_row(color: Color) -> u32 {
    match color {
        Color::Black => ROW_7,
        Color::White => ROW_0,
    }
}

/// A diagonal direction on the diagram with Black at the bottom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Dir {
    /// Toward White, to the right: Black's forward.
    UpRight = 0,
    /// Toward White, to the left: Black's forward.
    UpLeft = 1,
    /// Toward Black, to the right: White's forward.
    DownRight = 2,
    /// Toward Black, to the left: White's forward.
    DownLeft = 3,
}

const ALL_DIRS: [Dir; 4] = [Dir::UpRight, Dir::UpLeft, Dir::DownRight, Dir::DownLeft];

impl Dir {
    #[inline(always)]
    const fn opposite(self) -> Dir {
        match self {
            Dir::UpRight => Dir::DownLeft,
            Dir::UpLeft => Dir::DownRight,
            Dir::DownRight => Dir::UpLeft,
            Dir::DownLeft => Dir::UpRight,
        }
    }

    /// Moves every square of `x` one step in this direction; squares that would leave
    /// the board vanish.
    #[inline(always)]
    pub(crate) const fn shift(self, x: u32) -> u32 {
        match self {
            Dir::UpRight => ((x & EVEN_ROWS) << 4) | ((x & ODD_ROWS & !RIGHT_EDGE & !ROW_7) << 3),
            Dir::UpLeft => ((x & EVEN_ROWS & !LEFT_EDGE) << 5) | ((x & ODD_ROWS & !ROW_7) << 4),
            Dir::DownRight => ((x & EVEN_ROWS & !ROW_0) >> 4) | ((x & ODD_ROWS & !RIGHT_EDGE) >> 5),
            Dir::DownLeft => ((x & EVEN_ROWS & !ROW_0 & !LEFT_EDGE) >> 3) | ((x & ODD_ROWS) >> 4),
        }
    }
}

const NONE: u8 = 255;

/// `NEIGHBOUR[d][i]`: the square index one step from `i` in direction `d`, or `NONE`.
const NEIGHBOUR: [[u8; 32]; 4] = {
    let mut t = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut i = 0;
        while i < 32 {
            let s = ALL_DIRS[d].shift(1 << i);
            if s != 0 {
                t[d][i] = s.trailing_zeros() as u8;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

/// `JUMP[d][i]`: the landing square of a jump from `i` in direction `d`, or `NONE`.
const JUMP: [[u8; 32]; 4] = {
    let mut t = [[NONE; 32]; 4];
    let mut d = 0;
    while d < 4 {
        let mut i = 0;
        while i < 32 {
            let s = ALL_DIRS[d].shift(ALL_DIRS[d].shift(1 << i));
            if s != 0 {
                t[d][i] = s.trailing_zeros() as u8;
            }
            i += 1;
        }
        d += 1;
    }
    t
};

/// The square one diagonal step from `sq` toward `dir`, if on the board.
pub(crate) fn neighbour(sq: Square, dir: Dir) -> Option<Square> {
    let n = NEIGHBOUR[dir as usize][sq.index()];
    (n != NONE).then(|| Square::from_index(n))
}

/// All four directions.
pub(crate) const fn all_dirs() -> [Dir; 4] {
    ALL_DIRS
}

/// The population count of two sets together. Without a hardware population-count
/// instruction (baseline x86-64) one 64-bit count costs about what a 32-bit one does.
#[inline(always)]
fn count2(a: u32, b: u32) -> u32 {
    ((u64::from(a) << 32) | u64::from(b)).count_ones()
}

/// The directions a man of this colour moves in.
#[inline(always)]
const fn forward_of(black: bool) -> [Dir; 2] {
    if black {
        [Dir::UpRight, Dir::UpLeft]
    } else {
        [Dir::DownLeft, Dir::DownRight]
    }
}

/// The opposite of each of [`forward_of`]'s directions, in the same order.
#[inline(always)]
const fn backward(black: bool) -> [Dir; 2] {
    let [f1, f2] = forward_of(black);
    [f1.opposite(), f2.opposite()]
}

/// The side to move's pieces, seen from that side. `BLACK` picks the colour at compile
/// time so the hot paths carry no branch on whose turn it is.
#[derive(Clone, Copy)]
struct View {
    us: u32,
    them: u32,
    kings: u32,
    empty: u32,
}

impl View {
    #[inline(always)]
    fn of<const BLACK: bool>(pos: &Position) -> View {
        let (us, them) = if BLACK {
            (pos.side(Color::Black).0, pos.side(Color::White).0)
        } else {
            (pos.side(Color::White).0, pos.side(Color::Black).0)
        };
        View {
            us,
            them,
            kings: us & pos.kings().0,
            empty: !(us | them),
        }
    }

    /// Landing squares of single forward jumps by men, one set per forward direction.
    /// Each bit is one jump: a landing square determines its start in that direction.
    #[inline(always)]
    fn man_jumps<const BLACK: bool>(&self) -> [u32; 2] {
        let men = self.us & !self.kings;
        forward_of(BLACK).map(|d| d.shift(d.shift(men) & self.them) & self.empty)
    }

    /// Squares from which a man could jump forward in each forward direction, on the
    /// board as it stands. A man's later jumps look only at rows ahead of it, where
    /// nothing has changed during its move, so these sets stay right for a whole route.
    #[inline(always)]
    fn man_continuations<const BLACK: bool>(&self) -> [u32; 2] {
        backward(BLACK).map(|o| o.shift(o.shift(self.empty) & self.them))
    }

    /// Squares of our kings that can capture.
    #[inline(always)]
    fn king_capturers(&self) -> u32 {
        if self.kings == 0 {
            return 0;
        }
        let mut found = 0;
        for d in ALL_DIRS {
            let land = d.shift(d.shift(self.kings) & self.them) & self.empty;
            let o = d.opposite();
            found |= o.shift(o.shift(land));
        }
        found
    }

    /// The number of step moves (valid only when no capture exists).
    #[inline(always)]
    fn count_steps<const BLACK: bool>(&self) -> u32 {
        let [f1, f2] = forward_of(BLACK);
        let [b1, b2] = backward(BLACK);
        let men_steps = count2(
            f1.shift(self.us) & self.empty,
            f2.shift(self.us) & self.empty,
        );
        if self.kings == 0 {
            return men_steps;
        }
        men_steps
            + count2(
                b1.shift(self.kings) & self.empty,
                b2.shift(self.kings) & self.empty,
            )
    }
}

/// Routes of a man that has just landed on `at` (one bit), given the continuation sets.
fn man_routes<const BLACK: bool>(at: u32, cont: [u32; 2]) -> u64 {
    let mut n = 0;
    for (d, c) in forward_of(BLACK).into_iter().zip(cont) {
        if at & c != 0 {
            n += man_routes::<BLACK>(d.shift(d.shift(at)), cont);
        }
    }
    n.max(1)
}

/// Pushes every route of a man continuing from the bit `at` after `depth` jumps.
fn man_generate<const BLACK: bool>(
    from: Square,
    at: u32,
    cont: [u32; 2],
    captured: u32,
    path: &mut [u8; MAX_LANDINGS],
    depth: usize,
    out: &mut Vec<Move>,
) {
    let mut extended = false;
    for (d, c) in forward_of(BLACK).into_iter().zip(cont) {
        if at & c != 0 && depth < MAX_LANDINGS {
            extended = true;
            let over = d.shift(at);
            let land = d.shift(over);
            path[depth] = land.trailing_zeros() as u8;
            man_generate::<BLACK>(from, land, cont, captured | over, path, depth + 1, out);
        }
    }
    if !extended {
        out.push(Move::capture(from, &path[..depth], Bitboard(captured)));
    }
}

/// A king's capture search from one start square. Captured pieces stay on the board
/// (and block landings) until the move ends; the king's own start square counts as empty.
struct KingJumps {
    /// Squares a jump may not land on.
    blocked: u32,
}

impl KingJumps {
    fn new(view: &View, from: u32) -> KingJumps {
        KingJumps {
            blocked: !view.empty & !(1 << from),
        }
    }

    /// Counts the complete routes from `sq`; `enemy` is what may still be jumped.
    fn count(&self, sq: usize, enemy: u32, depth: usize) -> u64 {
        let mut total = 0;
        for d in 0..4 {
            let land = JUMP[d][sq];
            if land == NONE {
                continue;
            }
            let over = 1u32 << NEIGHBOUR[d][sq];
            if enemy & over == 0 || self.blocked & (1 << land) != 0 {
                continue;
            }
            total += self.count(land as usize, enemy & !over, depth + 1);
        }
        if depth > 0 { total.max(1) } else { total }
    }

    /// Pushes every complete route from `sq` after `depth` jumps.
    #[allow(clippy::too_many_arguments)]
    fn generate(
        &self,
        from: Square,
        sq: usize,
        enemy: u32,
        captured: u32,
        path: &mut [u8; MAX_LANDINGS],
        depth: usize,
        out: &mut Vec<Move>,
    ) {
        let mut extended = false;
        for d in 0..4 {
            let land = JUMP[d][sq];
            if land == NONE || depth == MAX_LANDINGS {
                continue;
            }
            let over = 1u32 << NEIGHBOUR[d][sq];
            if enemy & over == 0 || self.blocked & (1 << land) != 0 {
                continue;
            }
            extended = true;
            path[depth] = land;
            self.generate(
                from,
                land as usize,
                enemy & !over,
                captured | over,
                path,
                depth + 1,
                out,
            );
        }
        if !extended && depth > 0 {
            out.push(Move::capture(from, &path[..depth], Bitboard(captured)));
        }
    }
}

fn count_moves_for<const BLACK: bool>(pos: &Position) -> u64 {
    let v = View::of::<BLACK>(pos);
    let [m1, m2] = v.man_jumps::<BLACK>();
    let king_capturers = v.king_capturers();
    if m1 | m2 | king_capturers == 0 {
        return u64::from(v.count_steps::<BLACK>());
    }
    let cont = v.man_continuations::<BLACK>();
    let any_cont = cont[0] | cont[1];
    let mut total = u64::from(count2(m1 & !any_cont, m2 & !any_cont));
    for at in Bitboard(m1 & any_cont)
        .into_iter()
        .chain(Bitboard(m2 & any_cont))
    {
        total += man_routes::<BLACK>(1 << at.index(), cont);
    }
    for from in Bitboard(king_capturers) {
        total += KingJumps::new(&v, from.index() as u32).count(from.index(), v.them, 0);
    }
    total
}

fn generate_for<const BLACK: bool>(pos: &Position, out: &mut Vec<Move>) {
    let v = View::of::<BLACK>(pos);
    let [m1, m2] = v.man_jumps::<BLACK>();
    let king_capturers = v.king_capturers();
    if m1 | m2 | king_capturers != 0 {
        let cont = v.man_continuations::<BLACK>();
        let mut path = [0u8; MAX_LANDINGS];
        for (o, landings) in backward(BLACK).into_iter().zip([m1, m2]) {
            for land in Bitboard(landings) {
                let over = o.shift(1 << land.index());
                let from = Square::from_index(o.shift(over).trailing_zeros() as u8);
                path[0] = land.index() as u8;
                man_generate::<BLACK>(from, 1 << land.index(), cont, over, &mut path, 1, out);
            }
        }
        for from in Bitboard(king_capturers) {
            KingJumps::new(&v, from.index() as u32).generate(
                from,
                from.index(),
                v.them,
                0,
                &mut path,
                0,
                out,
            );
        }
        return;
    }
    let steppers = [v.us, v.us, v.kings, v.kings];
    let [f1, f2] = forward_of(BLACK);
    let [b1, b2] = backward(BLACK);
    for (d, movers) in [f1, f2, b1, b2].into_iter().zip(steppers) {
        let o = d.opposite();
        for to in Bitboard(d.shift(movers) & v.empty) {
            let from = o.shift(1 << to.index()).trailing_zeros() as u8;
            out.push(Move::step(Square::from_index(from), to));
        }
    }
}

/// The sum of the legal-move counts of every child of `pos`: perft at depth 2.
///
/// Steps are applied straight from the bitboards, with no move list; positions with a
/// capture fall back to generating the moves into `buffer`.
fn count_grandchildren_for<const BLACK: bool>(pos: &Position, buffer: &mut Vec<Move>) -> u64 {
    let v = View::of::<BLACK>(pos);
    let [m1, m2] = v.man_jumps::<BLACK>();
    let count_child = |child: &Position| {
        if BLACK {
            count_moves_for::<false>(child)
        } else {
            count_moves_for::<true>(child)
        }
    };
    if m1 | m2 | v.king_capturers() != 0 {
        buffer.clear();
        generate_for::<BLACK>(pos, buffer);
        return buffer
            .iter()
            .map(|m| count_child(&pos.play_unchecked(m)))
            .sum();
    }
    // The opponent's pieces do not change when we step, so their shifted sets are
    // computed once here; each child then needs only a few masks and population counts.
    let crown = crown_row(if BLACK { Color::Black } else { Color::White });
    let opp_men = v.them & !pos.kings().0;
    let opp_kings = v.them & pos.kings().0;
    let opp_forward = backward(BLACK);
    let opp_backward = forward_of(BLACK);
    let men_reach = opp_forward.map(|g| g.shift(opp_men));
    let king_reach = [
        opp_forward[0],
        opp_forward[1],
        opp_backward[0],
        opp_backward[1],
    ]
    .map(|g| g.shift(opp_kings));
    let reach = [
        men_reach[0] | king_reach[0],
        men_reach[1] | king_reach[1],
        king_reach[2],
        king_reach[3],
    ];
    // The opponent's step count in a child is this parent's count, plus the steps into
    // the square we vacate, minus the steps into the square we fill.
    let base_steps = count2(reach[0] & v.empty, reach[1] & v.empty)
        + count2(reach[2] & v.empty, reach[3] & v.empty);
    let steps_into = |sq: u32| reach.iter().map(|r| u32::from(r & sq != 0)).sum::<u32>();
    let [f1, f2] = forward_of(BLACK);
    let [b1, b2] = backward(BLACK);
    let mut total = 0;
    for (d, movers) in [f1, f2, b1, b2]
        .into_iter()
        .zip([v.us, v.us, v.kings, v.kings])
    {
        let o = d.opposite();
        let mut targets = d.shift(movers) & v.empty;
        while targets != 0 {
            let to = targets & targets.wrapping_neg();
            targets &= targets - 1;
            let moved = to | o.shift(to);
            let us = v.us ^ moved;
            let empty = v.empty ^ moved;
            let men_jumps = [
                opp_forward[0].shift(men_reach[0] & us) & empty,
                opp_forward[1].shift(men_reach[1] & us) & empty,
            ];
            let king_jumps = if opp_kings != 0 {
                opp_forward[0].shift(king_reach[0] & us) & empty
                    | opp_forward[1].shift(king_reach[1] & us) & empty
                    | opp_backward[0].shift(king_reach[2] & us) & empty
                    | opp_backward[1].shift(king_reach[3] & us) & empty
            } else {
                0
            };
            let jumps = men_jumps[0] | men_jumps[1];
            if jumps | king_jumps == 0 {
                let from = moved ^ to;
                total += u64::from(base_steps + steps_into(from) - steps_into(to));
                continue;
            }
            if king_jumps == 0 {
                // Only men capture: when no landing square allows a further jump, each
                // landing is one route.
                let further = opp_backward
                    .map(|o| o.shift(o.shift(empty) & us))
                    .into_iter()
                    .fold(0, |a, b| a | b);
                if jumps & further == 0 {
                    total += u64::from(count2(men_jumps[0], men_jumps[1]));
                    continue;
                }
            }
            let kings = pos.kings().0;
            let kings = if kings & moved != 0 {
                kings ^ moved
            } else {
                kings | (to & crown)
            };
            let (black, white) = if BLACK { (us, v.them) } else { (v.them, us) };
            let child = Position::from_parts_unchecked(
                Bitboard(black),
                Bitboard(white),
                Bitboard(kings),
                if BLACK { Color::White } else { Color::Black },
            );
            total += count_child(&child);
        }
    }
    total
}

impl Position {
    /// Perft at depth 2: the number of legal moves summed over every child position.
    pub(crate) fn count_grandchildren(&self, buffer: &mut Vec<Move>) -> u64 {
        match self.turn() {
            Color::Black => count_grandchildren_for::<true>(self, buffer),
            Color::White => count_grandchildren_for::<false>(self, buffer),
        }
    }
}

impl Position {
    /// Squares holding a piece of the side to move that can capture.
    pub(crate) fn capturers(&self) -> Bitboard {
        self.capturers_of(self.turn())
    }

    /// Squares holding a piece of `color` that could capture if it were `color`'s turn
    /// (for the side not to move: what it threatens).
    pub(crate) fn capturers_of(&self, color: Color) -> Bitboard {
        let black = color == Color::Black;
        let v = if black {
            View::of::<true>(self)
        } else {
            View::of::<false>(self)
        };
        let jumps = if black {
            v.man_jumps::<true>()
        } else {
            v.man_jumps::<false>()
        };
        let mut found = v.king_capturers();
        for (o, landings) in backward(black).into_iter().zip(jumps) {
            found |= o.shift(o.shift(landings));
        }
        Bitboard(found)
    }

    /// Appends every legal move of the side to move to `out`.
    ///
    /// Captures are compulsory, so when any piece can capture only captures are given,
    /// one move per route.
    #[inline]
    pub(crate) fn generate_moves(&self, out: &mut Vec<Move>) {
        match self.turn() {
            Color::Black => generate_for::<true>(self, out),
            Color::White => generate_for::<false>(self, out),
        }
    }

    /// Every legal move of the side to move, sorted by the squares they name.
    ///
    /// ```
    /// use checkers::rules::Position;
    /// let moves = Position::start().legal_moves();
    /// let text: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    /// assert_eq!(text, ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]);
    /// ```
    pub fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(32);
        self.generate_moves(&mut moves);
        moves.sort_unstable();
        moves
    }

    /// The number of legal moves, counted without building them (every route counts).
    #[inline]
    pub fn count_moves(&self) -> u64 {
        match self.turn() {
            Color::Black => count_moves_for::<true>(self),
            Color::White => count_moves_for::<false>(self),
        }
    }

    /// Whether the side to move has at least one legal move.
    pub fn has_legal_move(&self) -> bool {
        self.count_moves() > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_follow_the_diagram_geometry() {
        let deltas = [(1i8, 1i8), (1, -1), (-1, 1), (-1, -1)];
        for sq in Square::ALL {
            for (d, (dr, dc)) in ALL_DIRS.iter().zip(deltas) {
                let r = sq.row() as i8 + dr;
                let c = sq.col() as i8 + dc;
                let expected = if (0..8).contains(&r) && (0..8).contains(&c) {
                    Square::from_row_col(r as u8, c as u8).map(|s| 1u32 << s.index())
                } else {
                    None
                };
                assert_eq!(
                    d.shift(1 << sq.index()),
                    expected.unwrap_or(0),
                    "{sq:?} {d:?}"
                );
            }
        }
    }
}
