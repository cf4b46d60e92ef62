//! The board: squares with their numbers, pieces drawn as discs that fill their square,
//! and the marks (cursor, picked-up piece, landing squares, last move, compulsory
//! captures, hint).

use super::piece_style;
use crate::rules::{Color, Piece, Position, Role, Square};
use crate::tui::app::App;
use crate::tui::geometry::{BoardGeometry, ScreenLayout};
use crate::tui::theme::Theme;
use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::widgets::{Block, Paragraph, Widget};

/// What the board marks on each square this frame.
#[derive(Default)]
pub(crate) struct Marks {
    /// The cell under the cursor; none where no piece is picked (a spectator's board).
    pub(crate) cursor: Option<(u8, u8)>,
    /// Where the piece picked up may land next.
    pub(crate) targets: Vec<Square>,
    /// The piece picked up and the hops chosen for it.
    pub(crate) selected: Vec<Square>,
    /// The hops chosen so far.
    pub(crate) path: Vec<Square>,
    /// The pieces jumped so far.
    pub(crate) jumped: Vec<Square>,
    /// The pieces that must capture.
    pub(crate) capturers: Vec<Square>,
    /// The squares of the move that led here.
    pub(crate) last_move: Vec<Square>,
    /// The hint's squares: where the piece stands, then where it lands.
    pub(crate) hint: Vec<Square>,
}

/// What a board shows: the position, its marks, its look and its labels.
pub(crate) struct Scene<'a> {
    /// Colours and glyphs.
    pub(crate) theme: &'a Theme,
    /// The position drawn.
    pub(crate) position: &'a Position,
    /// The marks on its squares.
    pub(crate) marks: Marks,
    /// The a-h, 1-8 coordinates round it.
    pub(crate) coordinates: bool,
    /// The side to move and the words for its label, where the label says the turn
    /// (none where a panel beside the board says it).
    pub(crate) turn: Option<(Color, String)>,
}

impl Marks {
    fn of(app: &App) -> Marks {
        // A position being set up has no moves, captures or hints to mark: the cursor.
        if matches!(app.mode, crate::tui::app::Mode::Editor(_)) {
            return Marks {
                cursor: Some(app.board.cursor),
                ..Marks::default()
            };
        }
        let pos = app.shown_position();
        let over = app.no_side_to_move() && app.panel.browse.is_none();
        let (selected, path) = match &app.board.pick {
            Some(pick) => {
                let mut selected = vec![pick.from];
                selected.extend(&pick.hops);
                (selected, pick.hops.clone())
            }
            None => (Vec::new(), Vec::new()),
        };
        // A spectator picks no piece, nor does a LAN host before its player joins (it
        // refuses every move): a cursor would offer what it cannot do.
        let watching = app
            .runtime()
            .table()
            .is_some_and(|t| t.seat == crate::runtime::Seat::Spectator);
        let unplayable = watching || app.host_waiting_head().is_some();
        Marks {
            cursor: (!unplayable).then_some(app.board.cursor),
            targets: app.board.targets(app.position()),
            selected,
            path,
            jumped: app.board.jumped_so_far(),
            capturers: if over {
                Vec::new()
            } else {
                pos.capturers().into_iter().collect()
            },
            // The move that led to the position shown, in the report or browsing too.
            last_move: app
                .shown_last_move()
                .map(|m| m.squares())
                .unwrap_or_default(),
            hint: match app.panel.browse {
                Some(_) => Vec::new(),
                None => app.current_hint().map(|m| m.squares()).unwrap_or_default(),
            },
        }
    }
}

/// Draws the board, its frame and the side names above and below it.
pub(super) fn render_board(app: &App, layout: &ScreenLayout, buf: &mut Buffer) {
    let scene = Scene {
        theme: &app.theme,
        position: app.shown_position(),
        marks: Marks::of(app),
        coordinates: app.board.coordinates,
        // With a panel, its first line says whose move it is.
        turn: super::compact_turn(app).filter(|_| layout.panel.is_empty()),
    };
    draw_board(&scene, layout, buf);
}

/// Draws `scene`'s board in `layout`, its frame and the side names above and below it.
pub(crate) fn draw_board(scene: &Scene, layout: &ScreenLayout, buf: &mut Buffer) {
    let theme = scene.theme;
    let board = &layout.board;
    let (top, bottom) = if board.flipped {
        (Color::Black, Color::White)
    } else {
        (Color::White, Color::Black)
    };
    // The side to move's name says so where the scene has the turn (the game board's
    // compact layout, the analysis board always), so that the turn stays in view
    // whatever the status line says.
    let turn = scene.turn.clone();
    let label = |color: Color| match &turn {
        Some((side, text)) if *side == color => text.clone(),
        _ => color.name().to_string(),
    };
    Paragraph::new(label(top))
        .style(theme.heading)
        .alignment(Alignment::Center)
        .render(layout.top_label, buf);
    Paragraph::new(label(bottom))
        .style(theme.heading)
        .alignment(Alignment::Center)
        .render(layout.bottom_label, buf);
    let mut frame = Block::bordered()
        .border_set(theme.glyphs.border)
        .border_style(theme.border);
    // No room for the names: the turn goes on the frame, on the side to move's edge;
    // on the top edge when the file letters take the bottom one.
    if let Some((side, text)) = turn.filter(|_| layout.top_label.height == 0) {
        let title = ratatui::text::Line::styled(format!(" {text} "), theme.heading).centered();
        frame = if turn_on_top(layout, side, scene.coordinates) {
            frame.title_top(title)
        } else {
            frame.title_bottom(title)
        };
    }
    frame.render(board.frame, buf);
    for row in 0..8 {
        for col in 0..8 {
            render_cell(scene, board, row, col, buf);
        }
    }
    if scene.coordinates {
        render_coordinates(theme, board, buf);
    }
}

/// Whether the turn of `side` to move, written on the frame (where there is no room
/// for the side names), goes on its top edge: the side to move's own edge, or the top
/// when the file letters (`coordinates`) take the bottom one.
fn turn_on_top(layout: &ScreenLayout, side: Color, coordinates: bool) -> bool {
    let top = if layout.board.flipped {
        Color::Black
    } else {
        Color::White
    };
    side == top || coordinates
}

/// The row of the board's frame where news goes on a screen whose footer has one row
/// only (that row being the key line's): the inside of the edge that neither the turn
/// of `turn` (the side to move, where the frame says it) nor the file letters
/// (`coordinates`) take. An empty area when both edges are taken, or where the side
/// names have rows of their own (the turn is not on the frame, and the footer has room).
pub(crate) fn free_edge(layout: &ScreenLayout, turn: Option<Color>, coordinates: bool) -> Rect {
    let frame = layout.board.frame;
    let edge = |y| Rect {
        x: frame.x + 1,
        y,
        width: frame.width.saturating_sub(2),
        height: 1,
    };
    let none = Rect {
        height: 0,
        ..edge(frame.y)
    };
    if layout.top_label.height > 0 || frame.height < 2 {
        return none;
    }
    match turn.map(|side| turn_on_top(layout, side, coordinates)) {
        Some(true) if coordinates => none,
        Some(true) => edge(frame.bottom() - 1),
        Some(false) => edge(frame.y),
        None if coordinates => edge(frame.y),
        None => edge(frame.bottom() - 1),
    }
}

/// The algebraic coordinates on the frame: files a-h along the bottom, ranks 1-8 up the
/// left side, attached to the squares (a1 is square 29) whichever way the board is turned.
fn render_coordinates(theme: &Theme, board: &BoardGeometry, buf: &mut Buffer) {
    let style = theme.heading;
    for i in 0..8u8 {
        // Screen column `i` holds board column `col`; screen row `i` board row `row`.
        let (col, row) = if board.flipped {
            (7 - i, i)
        } else {
            (i, 7 - i)
        };
        let file = char::from(b'a' + (7 - col));
        let rank = char::from(b'1' + (7 - row));
        let cell = board.cell_rect(row, col);
        buf.set_string(
            cell.x + cell.width / 2,
            board.frame.bottom() - 1,
            file.to_string(),
            style,
        );
        buf.set_string(
            board.frame.x,
            cell.y + cell.height / 2,
            rank.to_string(),
            style,
        );
    }
}

fn render_cell(scene: &Scene, board: &BoardGeometry, row: u8, col: u8, buf: &mut Buffer) {
    let theme = scene.theme;
    let marks = &scene.marks;
    let g = &theme.glyphs;
    let rect = board.cell_rect(row, col);
    let is_cursor = marks.cursor == Some((row, col));
    // The pieces sit below the number row (on it, when a square is one row high).
    let disc_rows = rect.height.saturating_sub(1).max(1);
    let disc_top = rect.bottom() - disc_rows;
    let middle_row = disc_top + disc_rows / 2;
    let Some(sq) = Square::from_row_col(row, col) else {
        buf.set_style(rect, theme.light_square);
        if !theme.colored {
            for y in rect.top()..rect.bottom() {
                for x in rect.left()..rect.right() {
                    buf.set_string(x, y, g.light_fill, theme.light_square);
                }
            }
        }
        return;
    };
    let mut style = theme.dark_square;
    let last = marks.last_move.contains(&sq);
    if last {
        style = style.patch(theme.last_move);
    }
    let hint_landing = marks.hint.get(1..).is_some_and(|rest| rest.contains(&sq));
    if marks.targets.contains(&sq) || hint_landing {
        style = style.patch(theme.target);
    }
    if marks.hint.first() == Some(&sq) || marks.selected.contains(&sq) {
        style = style.patch(theme.selected);
    }
    if is_cursor {
        style = style.patch(theme.cursor);
    }
    buf.set_style(rect, style);
    // A square three columns wide (the compact layout) has no corner for the marks: they
    // take a spare column beside the piece or number, drawn below.
    let compact = rect.width <= 3;
    let number_style = match (last, compact) {
        // Underlined as well, so that a last-move square under the cursor (whose bracket
        // takes the mark's column) is still told without colour.
        (true, true) => style
            .patch(theme.last_move_number)
            .add_modifier(Modifier::UNDERLINED),
        (true, false) => style.patch(theme.last_move_number),
        (false, _) => style,
    };
    let piece = scene.position.piece_at(sq);
    let landing = marks.targets.contains(&sq) || hint_landing;
    // A square one row high shows its piece, or its landing mark, or else its number;
    // a narrow one keeps its number off its left edge, where a rank label may stand.
    if rect.height > 1 || (piece.is_none() && !landing) {
        let x = if rect.width <= 3 { rect.x + 1 } else { rect.x };
        buf.set_string(x, rect.y, format!("{:>2}", sq.number()), number_style);
    }
    let corner = if marks.jumped.contains(&sq) {
        Some((g.jumped, theme.alert))
    } else if marks.capturers.contains(&sq) {
        Some((g.must_capture, theme.alert))
    } else if last {
        Some((g.last_move, theme.last_move_number))
    } else {
        None
    };
    if let Some((mark, mark_style)) = corner
        && !compact
    {
        buf.set_string(rect.right() - 1, rect.y, mark, style.patch(mark_style));
    }
    let center = rect.x + rect.width / 2;
    if let Some(piece) = piece {
        if rect.height > 1 {
            render_disc(theme, piece, rect, disc_top, disc_rows, style, buf);
        } else {
            let glyph = super::piece_glyph(theme, piece);
            buf.set_string(
                center,
                rect.y,
                glyph,
                style.patch(piece_style(theme, piece.color)),
            );
        }
    } else if landing {
        buf.set_string(center, middle_row, g.target, style);
    } else if marks.path.contains(&sq) {
        buf.set_string(center, middle_row, g.path, style);
    }
    // The compact layout's mark: in the right column where it is free (beside a piece or
    // a landing mark: `⬤!`), else the left one (before an empty square's number: `*22`),
    // where the cursor's bracket takes its place.
    if let Some((mark, mark_style)) = corner
        && compact
    {
        let right = rect.right() - 1;
        let x = if buf[(right, rect.y)].symbol() == " " {
            right
        } else {
            rect.x
        };
        buf.set_string(x, rect.y, mark, style.patch(mark_style));
    }
    if is_cursor {
        let (left, right) = g.cursor;
        let bracket = style.patch(theme.cursor);
        buf.set_string(rect.x, middle_row, left, bracket);
        // In a square three columns wide (the compact layout) the number or a mark ends
        // on the right edge: the left bracket alone marks the cursor there, so that it is
        // never told by colour alone; the right one where the edge is free.
        let right_free = rect.width >= 5 || buf[(rect.right() - 1, middle_row)].symbol() == " ";
        if right_free {
            buf.set_string(rect.right() - 1, middle_row, right, bracket);
        }
    }
}

fn pick(first: bool, left: &'static str, right: &'static str) -> &'static str {
    if first { left } else { right }
}

/// Draws `piece` as a disc filling the square `rect` from row `top`, `rows` high: solid
/// blocks rounded with half blocks, a king with crowns across its middle drawn in
/// reverse, so it shows at a glance on a piece of the same size. The sides differ by the
/// fill as well as the colour (solid Black, shaded White), and without colour by the
/// side's letter in the middle too; the ASCII theme uses the letter, with braces instead
/// of parentheses round a king.
pub(in crate::tui) fn render_disc(
    theme: &Theme,
    piece: Piece,
    rect: Rect,
    top: u16,
    rows: u16,
    square: Style,
    buf: &mut Buffer,
) {
    let g = &theme.glyphs;
    let width = rect.width.saturating_sub(2).max(1);
    let left = rect.x + (rect.width - width) / 2;
    let style = square.patch(piece_style(theme, piece.color));
    let king = piece.role == Role::King;
    // The sides differ by shape as well as colour: White's discs are shaded.
    let fill = super::disc_fill(theme, piece);
    let fill = fill.as_str();
    let rounded = !g.disc_letters;
    let crown_row = top + rows / 2;
    let last = top + rows - 1;
    for y in top..top + rows {
        // Where the row is in the disc: its top, its bottom, or between (a disc one row
        // high is all "between").
        let (is_top, is_bottom) = (rows >= 2 && y == top, rows >= 2 && y == last);
        for i in 0..width {
            let edge = width >= 3 && (i == 0 || i == width - 1);
            let first = i == 0;
            let symbol = match (edge, g.disc_letters, king) {
                (false, ..) => fill,
                (true, true, true) => pick(first, "{", "}"),
                (true, true, false) if is_top => pick(first, "/", "\\"),
                (true, true, false) if is_bottom => pick(first, "\\", "/"),
                (true, true, false) => pick(first, "(", ")"),
                (true, false, _) if !rounded => fill,
                (true, false, _) if is_top => g.disc_top_edge,
                (true, false, _) if is_bottom => g.disc_bottom_edge,
                (true, false, _) => fill,
            };
            buf.set_string(left + i, y, symbol, style);
        }
    }
    if king && !g.disc_letters {
        // The crown row: crowns across the middle of the disc, drawn in reverse.
        let crown = match piece.color {
            Color::Black => g.black_king,
            Color::White => g.white_king,
        };
        // Up to three crowns in the middle of the row; across the whole of a disc one
        // row high (80x24), where one crown in three cells is hard to tell from a man.
        let crowns = if rows == 1 {
            width.min(5)
        } else {
            width.saturating_sub(2).clamp(1, 3)
        };
        let first = (width - crowns) / 2;
        for i in first..first + crowns {
            buf.set_string(
                left + i,
                crown_row,
                crown,
                style.add_modifier(Modifier::REVERSED),
            );
        }
    }
    if !theme.colored && !g.disc_letters {
        // Without colour, solid and shaded read the other way round on a dark terminal
        // (solid shows light): the side's letter in the middle says it, in reverse on a
        // man; on a king, whose crowns are reversed, not, so it stands apart from them.
        let letter_style = if king {
            style
        } else {
            style.add_modifier(Modifier::REVERSED)
        };
        buf.set_string(
            left + width / 2,
            crown_row,
            piece.letter().to_string(),
            letter_style,
        );
    }
}
