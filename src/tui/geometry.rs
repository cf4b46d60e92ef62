//! Screen layout and board geometry: one function, [`screen_layout`], decides where
//! everything goes. Drawing and mouse hit-testing both call it with the same screen size,
//! so a click always lands on the square drawn under it.

use ratatui::layout::Rect;

/// The smallest screen the game is drawn on (the compact layout: squares three columns
/// by one row, and a status line).
pub(crate) const MIN_WIDTH: u16 = 26;
/// The smallest screen the game is drawn on.
pub(crate) const MIN_HEIGHT: u16 = 11;

/// Narrowest side panel.
const MIN_PANEL_WIDTH: u16 = 28;
/// The panel's natural width: room for the move list and messages, no more.
const PANEL_WIDTH: u16 = 40;
/// Fewest rows for a panel below the board (on a tall, narrow screen).
const MIN_PANEL_ROWS: u16 = 8;
/// Rows under the board and panel: two for messages, one for key hints or the prompt.
const FOOTER_ROWS: u16 = 3;
/// Rows for the side names above and below the board.
const LABEL_ROWS: u16 = 2;
/// Tallest square, in rows; squares are `2 * height + 1` columns wide so they look square.
const MAX_CELL_HEIGHT: u16 = 6;

/// `area` parted at `rows` from its top: those rows (all of `area` where it has fewer)
/// and the rest below them, each as wide as `area`.
pub(crate) fn split_top(area: Rect, rows: u16) -> (Rect, Rect) {
    let rows = rows.min(area.height);
    let top = Rect {
        height: rows,
        ..area
    };
    let rest = Rect {
        y: area.y + rows,
        height: area.height - rows,
        ..area
    };
    (top, rest)
}

/// Where the squares are: the frame's inside, and the size of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoardGeometry {
    /// The board with its border.
    pub(crate) frame: Rect,
    /// The 8x8 squares (inside the border).
    pub(crate) squares: Rect,
    /// Columns per square.
    pub(crate) cell_width: u16,
    /// Rows per square.
    pub(crate) cell_height: u16,
    /// White at the bottom (the board turned half round).
    pub(crate) flipped: bool,
}

impl BoardGeometry {
    /// The screen area of the square at board `row`, `col` (as in [`Square::row`] and
    /// [`Square::col`], light squares included).
    pub(crate) fn cell_rect(&self, row: u8, col: u8) -> Rect {
        let (screen_row, screen_col) = if self.flipped {
            (row, 7 - col)
        } else {
            (7 - row, col)
        };
        Rect {
            x: self.squares.x + u16::from(screen_col) * self.cell_width,
            y: self.squares.y + u16::from(screen_row) * self.cell_height,
            width: self.cell_width,
            height: self.cell_height,
        }
    }

    /// The screen area of a dark square.
    #[cfg(test)]
    pub(crate) fn square_rect(&self, sq: crate::rules::Square) -> Rect {
        self.cell_rect(sq.row(), sq.col())
    }

    /// The board `(row, col)` under the screen cell `x`, `y`, if any.
    pub(crate) fn cell_at(&self, x: u16, y: u16) -> Option<(u8, u8)> {
        let inside = x >= self.squares.x
            && y >= self.squares.y
            && x < self.squares.right()
            && y < self.squares.bottom();
        if !inside {
            return None;
        }
        let screen_col = u8::try_from((x - self.squares.x) / self.cell_width).ok()?;
        let screen_row = u8::try_from((y - self.squares.y) / self.cell_height).ok()?;
        if screen_col > 7 || screen_row > 7 {
            return None;
        }
        Some(if self.flipped {
            (screen_row, 7 - screen_col)
        } else {
            (7 - screen_row, screen_col)
        })
    }
}

/// Where every part of the screen goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ScreenLayout {
    /// The board.
    pub(crate) board: BoardGeometry,
    /// The name of the side sitting at the top of the board.
    pub(crate) top_label: Rect,
    /// The name of the side sitting at the bottom.
    pub(crate) bottom_label: Rect,
    /// The side panel: turn, piece counts, move list.
    pub(crate) panel: Rect,
    /// The status lines: messages (two rows, wrapped; one in the compact layout, across
    /// the whole screen).
    pub(crate) status: Rect,
    /// The key-hint bar, which shows the move prompt or a question when there is one.
    pub(crate) hints: Rect,
}

/// The smallest squares drawn with a panel (rows): smaller ones leave only the board.
const SMALLEST_PANEL_CELL: u16 = 2;

/// The smallest screen with a side panel (the smallest squares it has, the narrowest
/// panel beside them), as `(width, height)`: what a smaller one lacks (the move list,
/// the engine's lines, the opening explorer) is said with this size. A tall, narrow
/// screen has the panel below the board instead.
pub(crate) const PANEL_SCREEN: (u16, u16) = (
    board_size(SMALLEST_PANEL_CELL).0 + MIN_PANEL_WIDTH,
    board_size(SMALLEST_PANEL_CELL).1 + LABEL_ROWS + FOOTER_ROWS,
);

/// The board's width and height with its frame, for squares `cell_height` rows high.
const fn board_size(cell_height: u16) -> (u16, u16) {
    (8 * (2 * cell_height + 1) + 2, 8 * cell_height + 2)
}

/// How the screen is arranged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arrangement {
    /// The panel beside the board.
    Beside,
    /// The panel below the board (a tall, narrow screen).
    Below,
    /// The board and a status line only.
    Compact,
}

/// What an overlay box `rect` (a help) blanks on a screen of `area` laid out with the
/// board `flipped`: the box with a blank cell round it, so that its border does not run
/// into the board's and the panel's beside it ("┐┐"), widened to the panel's edges in
/// the rows where it covers part of the panel: the panel's far border would otherwise
/// stand alone beside the box, a stray line with nothing of the panel left within it.
pub(crate) fn overlay_cleared(rect: Rect, area: Rect, flipped: bool) -> Rect {
    let x = rect.x.saturating_sub(1).max(area.x);
    let y = rect.y.saturating_sub(1).max(area.y);
    let mut margin = Rect {
        x,
        y,
        width: (rect.right() + 1).min(area.right()) - x,
        height: (rect.bottom() + 1).min(area.bottom()) - y,
    };
    let panel = screen_layout(area, flipped)
        .map(|layout| layout.panel)
        .unwrap_or_default();
    if !panel.is_empty() && margin.intersects(panel) {
        let left = margin.x.min(panel.x);
        let right = margin.right().max(panel.right());
        margin.x = left;
        margin.width = right - left;
    }
    margin
}

/// The layout for a screen of `area`, or `None` when it is smaller than
/// [`MIN_WIDTH`] x [`MIN_HEIGHT`]: the largest squares that fit (about twice as wide as
/// tall, as cells are tall), the panel beside the board at its natural width, or below
/// it on a tall narrow screen, or (on a small one) only the board and a status line;
/// everything centred.
pub(crate) fn screen_layout(area: Rect, flipped: bool) -> Option<ScreenLayout> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let (width, height) = (area.width, area.height);
    let fits = |h: u16, extra_width: u16, extra_rows: u16| {
        let (w, b) = board_size(h);
        w + extra_width <= width && b + extra_rows <= height
    };
    let largest = |extra_width, extra_rows, smallest| {
        (smallest..=MAX_CELL_HEIGHT)
            .rev()
            .find(|&h| fits(h, extra_width, extra_rows))
    };
    let beside = largest(
        MIN_PANEL_WIDTH,
        LABEL_ROWS + FOOTER_ROWS,
        SMALLEST_PANEL_CELL,
    );
    let below = largest(
        0,
        LABEL_ROWS + MIN_PANEL_ROWS + FOOTER_ROWS,
        SMALLEST_PANEL_CELL,
    );
    let (arrangement, cell_height) = match (beside, below) {
        (Some(a), Some(b)) if b > a => (Arrangement::Below, b),
        (Some(a), _) => (Arrangement::Beside, a),
        (None, Some(b)) => (Arrangement::Below, b),
        (None, None) => (Arrangement::Compact, largest(0, 1, 1)?),
    };
    let (board_width, board_height) = board_size(cell_height);
    let cell_width = 2 * cell_height + 1;
    // The group (board, panel, labels, footer) and where it sits, centred.
    let (group_width, group_height, labels, footer) = match arrangement {
        Arrangement::Beside => {
            let panel = (width - board_width).min(PANEL_WIDTH);
            (
                board_width + panel,
                board_height + LABEL_ROWS + FOOTER_ROWS,
                1,
                FOOTER_ROWS,
            )
        }
        Arrangement::Below => (
            board_width.max(MIN_PANEL_WIDTH.min(width)),
            height,
            1,
            FOOTER_ROWS,
        ),
        Arrangement::Compact => {
            // Side names and key hints only where there is room for them.
            let spare = height - board_height - 1;
            let labels = u16::from(spare >= 3);
            // A second status row where there is room for it after the labels (a row
            // left blank at 13 rows holds it: a sentence of news then fits whole).
            let footer = (spare + 1 - 2 * labels).min(FOOTER_ROWS);
            (
                board_width,
                board_height + 2 * labels + footer,
                labels,
                footer,
            )
        }
    };
    let x0 = area.x + (width - group_width) / 2;
    let y0 = area.y + (height - group_height.min(height)) / 2;
    let frame = Rect {
        x: x0,
        y: y0 + labels,
        width: board_width,
        height: board_height,
    };
    let squares = Rect {
        x: frame.x + 1,
        y: frame.y + 1,
        width: 8 * cell_width,
        height: 8 * cell_height,
    };
    let footer_y = y0 + group_height.min(height) - footer;
    let panel = match arrangement {
        Arrangement::Beside => Rect {
            x: frame.right(),
            y: y0,
            width: group_width - board_width,
            height: footer_y - y0,
        },
        Arrangement::Below => Rect {
            x: x0,
            y: frame.bottom() + labels,
            width: group_width,
            height: footer_y - (frame.bottom() + labels),
        },
        Arrangement::Compact => Rect::new(x0, y0, 0, 0),
    };
    let status_rows = if footer == FOOTER_ROWS { 2 } else { 1 };
    // Without a panel, the status and key lines have the whole width: a board narrower
    // than the screen would otherwise cut the news into many short lines.
    let (footer_x, footer_width) = match arrangement {
        Arrangement::Compact => (area.x, width),
        _ => (x0, group_width),
    };
    Some(ScreenLayout {
        board: BoardGeometry {
            frame,
            squares,
            cell_width,
            cell_height,
            flipped,
        },
        top_label: Rect {
            x: frame.x,
            y: y0,
            width: frame.width,
            height: labels,
        },
        bottom_label: Rect {
            x: frame.x,
            y: frame.bottom(),
            width: frame.width,
            height: labels,
        },
        panel,
        status: Rect {
            x: footer_x,
            y: footer_y,
            width: footer_width,
            height: status_rows,
        },
        hints: Rect {
            x: footer_x,
            y: footer_y + status_rows,
            width: footer_width,
            height: footer - status_rows,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The top rows and the rest meet without a gap or an overlap, and rows past the
    /// area's height give all of it to the top.
    #[test]
    fn split_top_parts_an_area_into_its_top_rows_and_the_rest() {
        let area = Rect::new(3, 5, 20, 10);
        assert_eq!(
            split_top(area, 4),
            (Rect::new(3, 5, 20, 4), Rect::new(3, 9, 20, 6))
        );
        assert_eq!(split_top(area, 12), (area, Rect::new(3, 15, 20, 0)));
    }
    use crate::rules::Square;

    #[test]
    fn the_panel_screen_is_the_smallest_with_a_panel_beside_the_board() {
        let (w, h) = PANEL_SCREEN;
        assert_eq!((w, h), (70, 23));
        let panel = |w, h| screen_layout(Rect::new(0, 0, w, h), false).unwrap().panel;
        assert!(!panel(w, h).is_empty());
        assert!(panel(w, h).x > 0, "beside the board");
        assert!(panel(w - 1, h).is_empty() && panel(w, h - 1).is_empty());
    }

    #[test]
    fn every_square_is_hit_where_it_is_drawn() {
        for (w, h) in [
            (80, 24),
            (100, 30),
            (120, 40),
            (200, 60),
            (60, 50),
            (40, 20),
            (MIN_WIDTH, MIN_HEIGHT),
        ] {
            for flipped in [false, true] {
                let layout = screen_layout(Rect::new(0, 0, w, h), flipped).unwrap();
                let board = layout.board;
                assert!(board.frame.bottom() <= layout.status.y);
                assert!(layout.panel.right() <= w && layout.panel.bottom() <= h);
                assert!(layout.hints.bottom() <= h && layout.status.right() <= w);
                for row in 0..8 {
                    for col in 0..8 {
                        let r = board.cell_rect(row, col);
                        for y in r.top()..r.bottom() {
                            for x in r.left()..r.right() {
                                assert_eq!(board.cell_at(x, y), Some((row, col)));
                            }
                        }
                    }
                }
                assert_eq!(board.cell_at(board.frame.x, board.frame.y), None);
                assert_eq!(board.cell_at(w - 1, h - 1), None);
            }
        }
    }

    #[test]
    fn black_is_at_the_bottom_unless_flipped() {
        let layout = screen_layout(Rect::new(0, 0, 80, 24), false).unwrap();
        let sq = |n| Square::new(n).unwrap();
        let (four, twenty_nine) = (
            layout.board.square_rect(sq(4)),
            layout.board.square_rect(sq(29)),
        );
        // Square 4 is Black's near-left corner; 29 White's, top right.
        assert!(four.y > twenty_nine.y && four.x < twenty_nine.x);
        let flipped = screen_layout(Rect::new(0, 0, 80, 24), true).unwrap();
        let (four, twenty_nine) = (
            flipped.board.square_rect(sq(4)),
            flipped.board.square_rect(sq(29)),
        );
        assert!(four.y < twenty_nine.y && four.x > twenty_nine.x);
    }

    #[test]
    fn squares_are_about_twice_as_wide_as_tall_and_80x24_fits() {
        let layout = screen_layout(Rect::new(0, 0, 80, 24), false).unwrap();
        assert_eq!((layout.board.cell_width, layout.board.cell_height), (5, 2));
        assert!(layout.panel.width >= MIN_PANEL_WIDTH);
        assert!(screen_layout(Rect::new(0, 0, MIN_WIDTH - 1, 24), false).is_none());
        assert!(screen_layout(Rect::new(0, 0, 80, MIN_HEIGHT - 1), false).is_none());
    }

    #[test]
    fn the_board_grows_with_the_screen_and_stays_centred() {
        let big = screen_layout(Rect::new(0, 0, 200, 60), false).unwrap();
        assert_eq!(big.board.cell_height, 6);
        assert_eq!(
            big.panel.width, PANEL_WIDTH,
            "the panel keeps its natural width"
        );
        let left = big.board.frame.x;
        let right = 200 - big.panel.right();
        assert!(
            left.abs_diff(right) <= 1,
            "centred: {left} and {right} spare"
        );
        let mid = screen_layout(Rect::new(0, 0, 120, 40), false).unwrap();
        assert_eq!(mid.board.cell_height, 4);
        // Tall and narrow: the panel goes below the board.
        let tall = screen_layout(Rect::new(0, 0, 60, 50), false).unwrap();
        assert!(tall.panel.y >= tall.board.frame.bottom());
        assert_eq!(tall.board.cell_height, 3);
        // Small: the board and a status line, no panel.
        let small = screen_layout(Rect::new(0, 0, 40, 20), false).unwrap();
        assert_eq!(small.board.cell_height, 1);
        assert!(small.panel.is_empty());
        assert!(small.status.height >= 1);
    }
}
