//! Screen layout and board geometry: one function, [`screen_layout`], decides where
//! everything goes. Drawing and mouse hit-testing both call it with the same screen size,
//! so a click always lands on the square drawn under it.

use crate::rules::Square;
use ratatui::layout::Rect;

/// The smallest screen the game is drawn on.
pub const MIN_WIDTH: u16 = 70;
/// The smallest screen the game is drawn on.
pub const MIN_HEIGHT: u16 = 23;

/// Narrowest side panel.
const MIN_PANEL_WIDTH: u16 = 28;
/// Rows under the board and panel: two for messages, one for key hints or the prompt.
const FOOTER_ROWS: u16 = 3;
/// Rows for the side names above and below the board.
const LABEL_ROWS: u16 = 2;
/// Tallest square, in rows; squares are `2 * height + 1` columns wide so they look square.
const MAX_CELL_HEIGHT: u16 = 4;

/// Where the squares are: the frame's inside, and the size of one square.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// The board with its border.
    pub frame: Rect,
    /// The 8x8 squares (inside the border).
    pub squares: Rect,
    /// Columns per square.
    pub cell_width: u16,
    /// Rows per square.
    pub cell_height: u16,
    /// White at the bottom (the board turned half round).
    pub flipped: bool,
}

impl BoardGeometry {
    /// The screen area of the square at board `row`, `col` (as in [`Square::row`] and
    /// [`Square::col`], light squares included).
    pub fn cell_rect(&self, row: u8, col: u8) -> Rect {
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
    pub fn square_rect(&self, sq: Square) -> Rect {
        self.cell_rect(sq.row(), sq.col())
    }

    /// The board `(row, col)` under the screen cell `x`, `y`, if any.
    pub fn cell_at(&self, x: u16, y: u16) -> Option<(u8, u8)> {
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
pub struct ScreenLayout {
    /// The board.
    pub board: BoardGeometry,
    /// The name of the side sitting at the top of the board.
    pub top_label: Rect,
    /// The name of the side sitting at the bottom.
    pub bottom_label: Rect,
    /// The side panel: turn, piece counts, move list.
    pub panel: Rect,
    /// The status lines: messages (two rows, wrapped).
    pub status: Rect,
    /// The key-hint bar, which shows the move prompt or a question when there is one.
    pub hints: Rect,
}

/// The layout for a screen of `area`, or `None` when it is smaller than
/// [`MIN_WIDTH`] x [`MIN_HEIGHT`].
pub fn screen_layout(area: Rect, flipped: bool) -> Option<ScreenLayout> {
    if area.width < MIN_WIDTH || area.height < MIN_HEIGHT {
        return None;
    }
    let board_rows = area.height - FOOTER_ROWS - LABEL_ROWS - 2;
    let mut cell_height = (board_rows / 8).min(MAX_CELL_HEIGHT);
    // Shrink the squares until the panel fits beside the board.
    while cell_height >= 2 && 8 * (2 * cell_height + 1) + 2 + MIN_PANEL_WIDTH > area.width {
        cell_height -= 1;
    }
    if cell_height < 2 {
        return None;
    }
    let cell_width = 2 * cell_height + 1;
    let frame = Rect {
        x: area.x,
        y: area.y + 1,
        width: 8 * cell_width + 2,
        height: 8 * cell_height + 2,
    };
    let squares = Rect {
        x: frame.x + 1,
        y: frame.y + 1,
        width: 8 * cell_width,
        height: 8 * cell_height,
    };
    let footer_y = area.bottom() - FOOTER_ROWS;
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
            y: area.y,
            width: frame.width,
            height: 1,
        },
        bottom_label: Rect {
            x: frame.x,
            y: frame.bottom(),
            width: frame.width,
            height: 1,
        },
        panel: Rect {
            x: frame.right(),
            y: area.y,
            width: area.right() - frame.right(),
            height: footer_y - area.y,
        },
        status: Rect {
            x: area.x,
            y: footer_y,
            width: area.width,
            height: 2,
        },
        hints: Rect {
            x: area.x,
            y: footer_y + 2,
            width: area.width,
            height: 1,
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_square_is_hit_where_it_is_drawn() {
        for (w, h) in [(80, 24), (100, 30), (120, 40), (MIN_WIDTH, MIN_HEIGHT)] {
            for flipped in [false, true] {
                let layout = screen_layout(Rect::new(0, 0, w, h), flipped).unwrap();
                let board = layout.board;
                assert!(board.frame.bottom() <= layout.status.y);
                assert!(layout.panel.right() <= w);
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
}
