//! The colourless theme still shows the cursor, the picked-up piece, the landing squares
//! and the last move, with attributes and glyphs instead of colour.

use crate::tui::geometry::screen_layout;
use crate::tui::tests::*;
use ratatui::crossterm::event::KeyCode;
use ratatui::style::{Color, Modifier};

#[test]
fn colorless_marks_use_attributes_and_no_colour_at_all() {
    let mut app = plain_app();
    type_move(&mut app, "11-15");
    type_move(&mut app, "22-18");
    cursor_move(&mut app, &[15]);
    let terminal = render(&app);
    let buf = terminal.backend().buffer();
    for cell in buf.content() {
        assert!(
            cell.fg == Color::Reset && cell.bg == Color::Reset,
            "{cell:?}"
        );
    }
    let board = screen_layout(app.screen, app.board.flipped).unwrap().board;
    let cell = |n: u8, dx: u16, dy: u16| {
        let r = board.square_rect(sq(n));
        buf[(r.x + dx, r.y + dy)].clone()
    };
    // The picked-up man on 15: reversed.
    assert!(cell(15, 2, 1).modifier.contains(Modifier::REVERSED));
    // Its landing square 22: a bold target glyph, the cursor's brackets round it (the
    // cursor goes to where the piece may land).
    assert_eq!(cell(22, 0, 1).symbol(), "[");
    assert_eq!(cell(22, 4, 1).symbol(), "]");
    assert_eq!(cell(22, 2, 1).symbol(), "+");
    assert!(cell(22, 2, 1).modifier.contains(Modifier::BOLD));
    // The last move 22-18: numbers bold and underlined, and a `*` mark on 18.
    assert!(cell(18, 0, 0).modifier.contains(Modifier::UNDERLINED));
    assert_eq!(cell(18, 4, 0).symbol(), "*");
    // The man that must capture is marked `!`.
    assert_eq!(cell(15, 4, 0).symbol(), "!");
}

#[test]
fn pieces_differ_by_glyph_not_only_colour() {
    for app in [app(), plain_app()] {
        let g = app.theme.glyphs;
        let glyphs = [g.black_man, g.black_king, g.white_man, g.white_king];
        for (i, a) in glyphs.iter().enumerate() {
            for b in &glyphs[i + 1..] {
                assert_ne!(a, b);
            }
        }
    }
}

#[test]
fn pieces_are_discs_filling_their_square_and_kings_carry_crowns() {
    let app = app_from("B:WK22,18:B11,K14");
    let terminal = render(&app);
    let buf = terminal.backend().buffer();
    let board = screen_layout(app.screen, app.board.flipped).unwrap().board;
    let square = |n: u8| {
        let r = board.square_rect(sq(n));
        let mut text = String::new();
        for y in r.top()..r.bottom() {
            for x in r.left()..r.right() {
                text.push_str(buf[(x, y)].symbol());
            }
        }
        text
    };
    // A man: a block several cells wide (the square is 5 x 2 at 80x24), solid for
    // Black and shaded for White, so the sides differ by more than colour.
    assert!(square(11).matches('█').count() >= 3, "{:?}", square(11));
    assert!(square(18).matches('▓').count() >= 3, "{:?}", square(18));
    // A king is as big, crowns across it drawn in reverse (the piece's colour round
    // each crown): a disc one row high is all crowns, unlike a man's.
    assert_eq!(square(14).matches('♚').count(), 3, "{:?}", square(14));
    assert_eq!(square(22).matches('♔').count(), 3, "{:?}", square(22));
    let r = board.square_rect(sq(14));
    assert!(
        buf[(r.x + 2, r.y + 1)]
            .modifier
            .contains(ratatui::style::Modifier::REVERSED)
    );
    // An empty square has none.
    assert!(!square(15).contains('█'));
}

#[test]
fn an_ascii_screen_has_no_character_above_0x7f_in_any_mode() {
    for colored in [false, true] {
        let settings = crate::tui::Settings {
            theme: crate::tui::Theme::new(colored, true),
            ..crate::tui::Settings::default()
        };
        let mut screens = Vec::new();
        let mut app = crate::tui::App::new(settings, WIDTH, HEIGHT);
        screens.push(screen_text(&app));
        type_move(&mut app, "11-15");
        type_move(&mut app, "22-18");
        cursor_move(&mut app, &[15]);
        screens.push(screen_text(&app));
        press(&mut app, KeyCode::Esc);
        press(&mut app, KeyCode::Char('?'));
        screens.push(screen_text(&app));
        press(&mut app, KeyCode::Char('?'));
        press(&mut app, KeyCode::Char('s'));
        screens.push(screen_text(&app));
        press(&mut app, KeyCode::Esc);
        press(&mut app, KeyCode::Char('q'));
        screens.push(screen_text(&app));
        for (i, screen) in screens.iter().enumerate() {
            let wide: Vec<char> = screen.chars().filter(|c| !c.is_ascii()).collect();
            assert!(wide.is_empty(), "screen {i} has {wide:?}:\n{screen}");
        }
    }
}

#[test]
fn an_ascii_screen_of_a_game_paused_or_waiting_for_its_player_has_an_ascii_frame() {
    let settings = crate::tui::Settings {
        theme: crate::tui::Theme::new(false, true),
        ..crate::tui::Settings::default()
    };
    let t0 = std::time::Instant::now();
    let session = crate::session::Session::new(crate::game::Game::new())
        .with_clock("G/5".parse().unwrap(), t0);
    let mut app = crate::tui::App::with_session(settings, session.clone(), WIDTH, HEIGHT);
    app.update(crate::tui::Action::Pause);
    let held = crate::tui::App::with_session(settings, session.with_clocks_held(), WIDTH, HEIGHT);
    for (screen, words) in [
        (screen_text(&app), "p starts the clocks again"),
        (screen_text(&held), "any key starts the clocks"),
    ] {
        assert!(screen.contains(words), "{screen}");
        let wide: Vec<char> = screen.chars().filter(|c| !c.is_ascii()).collect();
        assert!(wide.is_empty(), "{wide:?}:\n{screen}");
    }
}

#[test]
fn true_colour_has_a_board_of_its_own_colours_and_the_same_marks() {
    use crate::tui::Theme;
    use crate::tui::theme::true_color_wanted;
    let theme = Theme::true_color(false);
    assert!(matches!(theme.dark_square.bg, Some(Color::Rgb(..))));
    assert!(matches!(theme.light_square.bg, Some(Color::Rgb(..))));
    // Glyphs (and so every mark) are the 16-colour theme's.
    assert_eq!(theme.glyphs, Theme::new(true, false).glyphs);
    assert!(true_color_wanted(Some(std::ffi::OsStr::new("truecolor"))));
    assert!(true_color_wanted(Some(std::ffi::OsStr::new("24bit"))));
    assert!(!true_color_wanted(Some(std::ffi::OsStr::new("yes"))));
    assert!(!true_color_wanted(None));
}

/// The 256-colour board as a map of its cells' colours, one letter a colour (`.` the
/// terminal's own): what a text snapshot cannot show.
fn colour_map(app: &crate::tui::App) -> String {
    let terminal = render(app);
    let buf = terminal.backend().buffer();
    let letter = |color: Color| match color {
        Color::Reset => '.',
        Color::Indexed(65) => 'G',  // dark square: muted green
        Color::Indexed(187) => 'b', // light square: buff
        Color::Indexed(234) => 'K', // Black's pieces: ebony
        Color::Indexed(230) => 'W', // White's pieces and the last move's numbers: ivory
        Color::Indexed(233) => 'n', // square numbers
        Color::Indexed(73) => 'C',  // the cursor
        Color::Indexed(67) => 'L',  // the last move
        Color::Indexed(n) => char::from(b'0' + n % 10),
        // The panel's accents are the terminal's named colours, in lower case.
        Color::DarkGray => 'd',
        Color::Gray => 'g',
        Color::LightCyan => 'c',
        Color::LightRed => 'r',
        Color::LightYellow => 'y',
        Color::Black => 'k',
        Color::White => 'w',
        _ => '?',
    };
    let mut out = String::new();
    for y in 0..buf.area.height {
        for x in 0..buf.area.width {
            let cell = &buf[(x, y)];
            out.push(letter(cell.bg));
            out.push(letter(cell.fg));
        }
        out.push('\n');
    }
    out
}

#[test]
fn the_256_colour_board_in_colours_at_80x24_and_120x40() {
    for (width, height) in [(80, 24), (120, 40)] {
        let settings = crate::tui::Settings {
            theme: crate::tui::Theme::palette_256(false),
            ..crate::tui::Settings::default()
        };
        let mut app = crate::tui::App::new(settings, width, height);
        type_move(&mut app, "11-15");
        type_move(&mut app, "22-18");
        let map = colour_map(&app);
        // No colour but the fixed palette's, the panel's named accents and the
        // terminal's own.
        assert!(!map.contains('?'), "{map}");
        for (kind, c) in [
            ("green", "G"),
            ("buff", "b"),
            ("ebony", "K"),
            ("ivory", "W"),
        ] {
            assert!(map.contains(c), "no {kind} at {width}x{height}");
        }
        insta::assert_snapshot!(format!("palette_256_{width}x{height}"), map);
    }
}

#[test]
fn the_256_colour_board_has_its_muted_green_and_buff_and_high_contrast_pieces() {
    use crate::tui::theme::palette_256_wanted;
    use crate::tui::{App, Settings, Theme};
    use std::ffi::OsStr;
    for term in ["xterm-256color", "tmux-256color", "screen-256color"] {
        assert!(palette_256_wanted(Some(OsStr::new(term))), "{term}");
    }
    assert!(!palette_256_wanted(Some(OsStr::new("xterm"))));
    assert!(!palette_256_wanted(None));
    for (width, height) in [(80, 24), (120, 40)] {
        let settings = Settings {
            theme: Theme::palette_256(false),
            ..Settings::default()
        };
        let app = App::new(settings, width, height);
        let terminal = render(&app);
        let buf = terminal.backend().buffer();
        let board = screen_layout(app.screen, app.board.flipped).unwrap().board;
        let middle = |n: u8| {
            let r = board.square_rect(sq(n));
            buf[(r.x + r.width / 2, r.y + r.height / 2)].clone()
        };
        // A Black man on 9 and a White man on 24: ebony and ivory on the green squares.
        assert_eq!(middle(9).bg, Color::Indexed(65), "{width}x{height}");
        assert_eq!(middle(9).fg, Color::Indexed(234));
        assert_eq!(middle(24).fg, Color::Indexed(230));
        // Square 18's neighbour on its row, a light square, is buff.
        let r = board.square_rect(sq(18));
        assert_eq!(buf[(r.right(), r.y)].bg, Color::Indexed(187));
        // Nothing of the board is drawn in the 16 named colours.
        for sq_n in 1..=32u8 {
            assert!(matches!(middle(sq_n).bg, Color::Indexed(_)), "{sq_n}");
        }
    }
}

/// The symbols of the disc row (the square's second) of square `n`.
fn disc_row(app: &crate::tui::App, n: u8) -> String {
    let terminal = render(app);
    let buf = terminal.backend().buffer();
    let board = screen_layout(app.screen, app.board.flipped).unwrap().board;
    let r = board.square_rect(sq(n));
    (r.x..r.right())
        .map(|x| buf[(x, r.y + r.height - 1)].symbol().to_string())
        .collect()
}

#[test]
fn at_80x24_a_king_is_told_from_a_man_by_more_than_one_cell_in_every_theme() {
    use crate::session::Session;
    use crate::tui::{App, Settings, Theme};
    let game = crate::game::Game::from_position("B:WK30,22:BK2,6".parse().unwrap());
    for theme in [
        Theme::new(true, false),
        Theme::true_color(false),
        Theme::palette_256(false),
        Theme::new(false, false),
    ] {
        let settings = Settings {
            theme,
            ..Settings::default()
        };
        let app = App::with_session(settings, Session::new(game.clone()), 80, 24);
        for (king, man, crown) in [(2, 6, "♚"), (30, 22, "♔")] {
            let (king_row, man_row) = (disc_row(&app, king), disc_row(&app, man));
            // Crowns across the king's disc (the side's letter in their middle without
            // colour), none on the man's.
            assert!(
                king_row.matches(crown).count() >= 2,
                "{theme:?}: king {king_row:?}, man {man_row:?}"
            );
            assert!(!man_row.contains(crown), "{man_row:?}");
        }
    }
}

/// The help's legend ("███ Black  ▓▓▓ White  ♚♚♚ ♔♔♔ kings") draws each piece as the
/// board at 80x24 does, in the board's colours and attributes, with or without colour:
/// it was plain text in the terminal's own colour, a light block for Black on a dark
/// terminal, and without colour lacked the side's letter the board shows (`█b█`).
#[test]
fn the_help_legend_draws_each_piece_as_the_board_does() {
    let colourless = |fen: &str| {
        let pos: crate::rules::Position = fen.parse().unwrap();
        crate::tui::App::with_session(
            crate::tui::Settings {
                theme: crate::tui::theme::Theme::new(false, false),
                ..crate::tui::Settings::default()
            },
            crate::session::Session::new(crate::game::Game::from_position(pos)),
            WIDTH,
            HEIGHT,
        )
    };
    // No capture and no last move, so that no square is marked.
    let fen = "B:WK32,21:B5,K4";
    for mut app in [app_from(fen), colourless(fen)] {
        // The cursor on an empty square: on a piece it colours the square.
        cursor_to(&mut app, sq(15));
        let board = screen_layout(app.screen, app.board.flipped).unwrap().board;
        let drawn = |buf: &ratatui::buffer::Buffer, x: u16, y: u16| {
            (0..3)
                .map(|i| {
                    let cell = &buf[(x + i, y)];
                    (cell.symbol().to_string(), cell.fg, cell.bg, cell.modifier)
                })
                .collect::<Vec<_>>()
        };
        let terminal = render(&app);
        let on_board = |n: u8| {
            let r = board.square_rect(sq(n));
            drawn(terminal.backend().buffer(), r.x + 1, r.y + 1)
        };
        let pieces = [on_board(5), on_board(21), on_board(4), on_board(32)];
        press(&mut app, KeyCode::Char('?'));
        let terminal = render(&app);
        let buf = terminal.backend().buffer();
        let text = screen_text(&app);
        let (y, line) = text
            .lines()
            .enumerate()
            .find(|(_, line)| line.contains(" kings  "))
            .expect("the legend");
        let y = u16::try_from(y).unwrap();
        // Columns, not bytes: the glyphs are several bytes each.
        let column = |words: &str| {
            let at = line
                .find(words)
                .unwrap_or_else(|| panic!("{words}: {line}"));
            u16::try_from(line[..at].chars().count()).unwrap()
        };
        let black = column(" Black");
        let white = column(" White");
        let kings = column(" kings  ");
        let legend = [
            drawn(buf, black - 3, y),
            drawn(buf, white - 3, y),
            drawn(buf, kings - 7, y),
            drawn(buf, kings - 3, y),
        ];
        assert_eq!(legend, pieces, "{line}");
    }
}

/// On the larger boards (120x40, 200x60) a king is a disc with its crowns inside it,
/// not crowns across (as on the smallest board, 80x24): the help's legend draws the
/// pieces as the board on that screen does, the crowns in the board's style between
/// the disc's fill (it showed the smallest board's kings, `♚♚♚ ♔♔♔`, at every size).
#[test]
fn the_help_legend_draws_the_kings_as_the_board_of_that_size_does() {
    let fen = "B:WK32,21:B5,K4";
    for (width, height) in [(120, 40), (200, 60)] {
        let pos: Position = fen.parse().unwrap();
        let mut app = App::with_session(
            Settings::default(),
            Session::new(Game::from_position(pos)),
            width,
            height,
        );
        cursor_to(&mut app, sq(15));
        let board = screen_layout(app.screen, app.board.flipped).unwrap().board;
        let text = screen_text(&app);
        // The crown row of Black's king on 4 (the disc below the number row): crowns
        // within the disc's fill.
        let r = board.square_rect(sq(4));
        let king_y = r.y + 1 + (r.height - 1) / 2;
        let row = text.lines().nth(usize::from(king_y)).unwrap();
        let on_board: String = row
            .chars()
            .skip(usize::from(r.x))
            .take(usize::from(r.width))
            .collect();
        assert!(on_board.contains("█♚♚♚█"), "{width}x{height}: {on_board:?}");
        let crown_style = |buf: &ratatui::buffer::Buffer, line: &str, y: u16, glyph: &str| {
            let at = line.find(glyph).unwrap();
            let x = u16::try_from(line[..at].chars().count()).unwrap();
            let cell = &buf[(x, y)];
            (cell.fg, cell.bg, cell.modifier)
        };
        let terminal = render(&app);
        let board_crown = crown_style(terminal.backend().buffer(), row, king_y, "♚");
        press(&mut app, KeyCode::Char('?'));
        let text = screen_text(&app);
        let (y, line) = text
            .lines()
            .enumerate()
            .find(|(_, line)| line.contains(" kings  "))
            .expect("the legend");
        assert!(
            line.contains("█♚♚♚█ ▓♔♔♔▓ kings"),
            "{width}x{height}: {line}"
        );
        let terminal = render(&app);
        let y = u16::try_from(y).unwrap();
        let legend_crown = crown_style(terminal.backend().buffer(), line, y, "♚");
        assert_eq!(legend_crown, board_crown, "{width}x{height}: {line}");
    }
}
