//! Drawing never panics, whatever the terminal size, and small screens say what they need.

use crate::tui::App;
use crate::tui::tests::*;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Modifier;
use ratatui::widgets::Widget;

fn apps() -> Vec<App> {
    let mut picked = app_from("B:W6,7,14,15,22:B2,K28");
    cursor_move(&mut picked, &[2, 11]);
    let mut help = app();
    type_text(&mut help, "?");
    let mut prompt = plain_app();
    type_move(&mut prompt, "11-17");
    let mut review = review_app(REVIEW_PDN);
    for _ in 0..5 {
        press(&mut review, ratatui::crossterm::event::KeyCode::Right);
    }
    let mut save = app();
    type_text(&mut save, "s");
    // A path far longer than the widest dialog, so it wraps.
    type_text(&mut save, &"/very/long/path".repeat(20));
    vec![app(), picked, help, prompt, review, save]
}

#[test]
fn every_size_from_0x0_to_120x40_renders() {
    for app in apps() {
        for width in 0..=120 {
            for height in 0..=40 {
                let area = Rect::new(0, 0, width, height);
                let mut buf = Buffer::empty(area);
                (&app).render(area, &mut buf);
            }
        }
    }
}

#[test]
fn an_offset_area_renders_inside_itself() {
    let app = app();
    let outer = Rect::new(0, 0, 100, 30);
    let mut buf = Buffer::empty(outer);
    (&app).render(Rect::new(10, 3, 80, 24), &mut buf);
    assert_eq!(buf[(0, 0)].symbol(), " ");
    assert_eq!(buf[(99, 29)].symbol(), " ");
}

#[test]
fn below_the_minimum_the_screen_says_what_is_needed() {
    let mut app = app();
    app.screen = Rect::new(0, 0, 25, 11);
    assert!(screen_text(&app).contains("need 26x11"));
    // The compact layout: the board (a piece, or the number of an empty square) and a
    // status line with the news, or whose move it is.
    app.screen = Rect::new(0, 0, 26, 11);
    let screen = screen_text(&app);
    assert!(screen.contains("Black moves first"), "{screen}");
    app.status.message = None;
    assert!(
        screen_text(&app).contains("Black to move"),
        "{}",
        screen_text(&app)
    );
    assert!(
        screen.contains("⬤") && screen.contains("◉") && screen.contains("16"),
        "{screen}"
    );
}

#[test]
fn a_narrow_screen_drops_whole_keys_and_words_rather_than_cutting_them() {
    let mut app = app();
    app.screen = Rect::new(0, 0, 70, 23);
    let screen = screen_text(&app);
    let footer = screen.lines().last().unwrap().trim_end();
    assert!(footer.ends_with("? help  q quit"), "{footer:?}");
    assert!(
        !screen.contains(" king│") && !screen.contains("q qui\n"),
        "{screen}"
    );
    assert!(screen.contains("Black ⬤ 12"), "{screen}");
}

#[test]
fn the_clocks_are_drawn_big_from_105_columns_and_39_rows_as_the_readme_says() {
    use crate::game::Game;
    use crate::session::{Session, TimeControl};
    use crate::tui::Settings;
    let timed = |width, height| {
        let control: TimeControl = "5+3".parse().unwrap();
        let session = Session::new(Game::new()).with_clock(control, std::time::Instant::now());
        App::with_session(Settings::default(), session, width, height)
    };
    // The top row of the big "5:00" (the panel beside the board must be tall enough).
    let big = |app: &App| screen_text(app).contains("█▀▀");
    assert!(big(&timed(105, 39)));
    assert!(big(&timed(200, 60)));
    assert!(
        !big(&timed(100, 40)),
        "the board, and the panel with it, is shorter"
    );
    assert!(!big(&timed(200, 38)));
}

#[test]
fn at_40x15_labels_marks_and_the_status_line_keep_clear_of_each_other() {
    use crate::tui::Settings;
    use ratatui::crossterm::event::KeyCode;
    let mut app = App::new(Settings::default(), 40, 15);
    press(&mut app, KeyCode::Char('a'));
    press(&mut app, KeyCode::Enter);
    let screen = screen_text(&app);
    // The rank label 4 and square 20 beside it, not "420"; the landing marks on 15 and
    // 16 instead of their numbers, not "1◌".
    assert!(screen.contains("4 20"), "{screen}");
    assert!(!screen.contains("420"), "{screen}");
    assert_eq!(screen.matches('◌').count(), 2, "{screen}");
    assert!(!screen.contains("1◌"), "{screen}");
    // Where to land comes first on a status line this narrow.
    assert!(screen.contains("Land on 15 or 16"), "{screen}");
}

#[test]
fn the_help_box_stands_clear_of_the_board_and_panel_borders() {
    use crate::tui::Settings;
    let mut app = App::new(Settings::default(), 100, 30);
    type_text(&mut app, "?");
    let screen = screen_text(&app);
    for doubled in ["┐┐", "┌│", "││", "└│", "│┘"] {
        assert!(!screen.contains(doubled), "{doubled}: {screen}");
    }
}

/// Every page of the help at `width` x `height`, PgDn after PgDn until the help closes
/// or stops changing.
fn help_pages(width: u16, height: u16) -> Vec<String> {
    use crate::tui::Settings;
    use crate::tui::app::Mode;
    use ratatui::crossterm::event::KeyCode;
    let mut app = App::new(Settings::default(), width, height);
    type_text(&mut app, "?");
    let mut pages = vec![screen_text(&app)];
    for _ in 0..40 {
        press(&mut app, KeyCode::PageDown);
        if !matches!(app.mode, Mode::Help(_)) {
            break;
        }
        let page = screen_text(&app);
        if pages.last() == Some(&page) {
            break;
        }
        pages.push(page);
    }
    pages
}

#[test]
fn the_whole_help_is_read_at_70x23_and_80x24() {
    use crate::tui::keymap;
    for (width, height, scrolls) in [(70, 23, true), (80, 24, false)] {
        let pages = help_pages(width, height);
        let all = pages.join("\n");
        for (label, help) in keymap::help_lines(keymap::Quits::Program, true) {
            let label = label.replace("{arrows}", "←↓↑→").replace("{steps}", "← →");
            let binding = format!("{label} {help}");
            assert!(
                all.contains(&binding),
                "{width}x{height}: {binding}:\n{all}"
            );
        }
        // Every binding starts at the box's edge or in the second column, none out of
        // line with the others.
        let mut starts = std::collections::BTreeSet::new();
        for line in all.lines() {
            for (label, help) in keymap::help_lines(keymap::Quits::Program, true) {
                let label = label.replace("{arrows}", "←↓↑→").replace("{steps}", "← →");
                if let Some(at) = line.find(&format!("{label} {help}")) {
                    starts.insert(line[..at].chars().count());
                }
            }
        }
        assert!(starts.len() <= 2, "{width}x{height}: {starts:?}\n{all}");
        // The rules and the pieces, to the help's last words.
        for words in [
            "Rules:",
            "crowned king",
            "quiet moves.",
            "♚♚♚ ♔♔♔ kings",
            "! must jump",
            "cursor",
        ] {
            assert!(all.contains(words), "{width}x{height}: {words}:\n{all}");
        }
        // At 70x23 the help is two pages, the first saying there is more; at 80x24 one.
        assert_eq!(pages.len() > 1, scrolls, "{width}x{height}: {pages:#?}");
        let note = if scrolls {
            "PgDn: more"
        } else {
            "any key closes"
        };
        assert!(pages[0].contains(note), "{width}x{height}: {}", pages[0]);
        assert!(!pages[0].contains("quiet moves") || !scrolls);
    }
}

#[test]
fn the_help_scrolls_back_and_any_other_key_closes_it() {
    use crate::tui::Settings;
    use crate::tui::app::Mode;
    use ratatui::crossterm::event::KeyCode;
    let mut app = App::new(Settings::default(), 26, 11);
    type_text(&mut app, "?");
    let first = screen_text(&app);
    press(&mut app, KeyCode::PageDown);
    assert_ne!(screen_text(&app), first);
    assert!(screen_text(&app).contains("PgUp PgDn: more"));
    press(&mut app, KeyCode::PageUp);
    assert_eq!(screen_text(&app), first);
    // Up at the start stays there; a key that does not scroll closes the help.
    press(&mut app, KeyCode::Up);
    assert_eq!(app.mode, Mode::Help(0));
    press(&mut app, KeyCode::Char('x'));
    assert_eq!(app.mode, Mode::Board);
    // Where the help fits whole, PgDn closes it like any key.
    let mut app = App::new(Settings::default(), 120, 40);
    type_text(&mut app, "?");
    press(&mut app, KeyCode::PageDown);
    assert_eq!(app.mode, Mode::Board);
}

#[test]
fn below_23_rows_the_turn_and_the_key_line_stay_in_view_and_no_sentence_is_cut() {
    use crate::tui::app::Tone;
    let mut app = app();
    // The start's news, two sentences the width of the screen each.
    let news = "3 unfinished games are saved: q, then checkers --resume continues one of them. \
                This second sentence is here to be left out whole where there is no room.";
    for (width, height) in [(80, 22), (80, 18), (40, 14), (30, 12)] {
        app.screen = Rect::new(0, 0, width, height);
        app.status.message = Some((Tone::Info, news.to_string()));
        let screen = screen_text(&app);
        assert!(
            screen.contains("Black to move"),
            "{width}x{height}:\n{screen}"
        );
        // The key line keeps its row under the news, so that help and quitting stay a
        // click away.
        assert!(
            screen
                .lines()
                .rfind(|l| !l.trim().is_empty())
                .unwrap()
                .contains("? help  q quit"),
            "{width}x{height}:\n{screen}"
        );
        // Whatever is shown of the news is whole sentences, in order, or the first
        // sentence cut between words and marked with an ellipsis.
        let status: String = screen
            .lines()
            .skip_while(|l| !l.contains("┘"))
            .skip(1)
            .filter(|l| !l.contains("Black to move") && !l.contains("q quit"))
            .map(str::trim)
            .collect::<Vec<_>>()
            .join(" ");
        let status = status.trim();
        let whole = |s: &str| {
            s == news
                || s == news.split(". ").next().unwrap().to_string() + "."
                || (s.ends_with('…') && news.starts_with(s.trim_end_matches('…').trim_end()))
        };
        assert!(whole(status), "{width}x{height}: {status:?}\n{screen}");
    }
    // With room, the first sentence is there whole: at 80x22 the line is the screen's
    // width, not the board's.
    app.screen = Rect::new(0, 0, 80, 22);
    app.status.message = Some((Tone::Info, news.to_string()));
    assert!(
        screen_text(&app).contains("q, then checkers --resume continues one of them."),
        "{}",
        screen_text(&app)
    );
    // White to move: White's name says so, and Black's is plain again.
    type_move(&mut app, "11-15");
    let screen = screen_text(&app);
    assert!(screen.contains("White to move"), "{screen}");
    assert!(!screen.contains("Black to move"), "{screen}");
}

/// The three cells of square `n` on the compact board as drawn, and their modifiers.
fn compact_cells(app: &App, n: u8) -> (String, Vec<Modifier>) {
    let layout = crate::tui::geometry::screen_layout(app.screen, app.board.flipped).unwrap();
    let rect = layout.board.square_rect(sq(n));
    assert_eq!((rect.width, rect.height), (3, 1), "the compact layout");
    let terminal = render(app);
    let buffer = terminal.backend().buffer();
    let text = (rect.x..rect.right())
        .map(|x| buffer[(x, rect.y)].symbol().to_string())
        .collect::<String>();
    let modifiers = (rect.x..rect.right())
        .map(|x| buffer[(x, rect.y)].modifier)
        .collect();
    (text, modifiers)
}

#[test]
fn the_compact_boards_cursor_is_bracketed_not_told_by_colour_alone() {
    let mut app = app();
    app.screen = Rect::new(0, 0, 40, 12);
    let cells = |app: &App, n: u8| compact_cells(app, n).0;
    // On a piece: brackets round it; on an empty square, before its number.
    cursor_to(&mut app, sq(11));
    assert_eq!(cells(&app, 11), "[⬤]");
    assert_eq!(cells(&app, 15), " 15", "no bracket off the cursor");
    cursor_to(&mut app, sq(15));
    assert_eq!(cells(&app, 15), "[15");
    assert_eq!(cells(&app, 11), " ⬤ ");
}

#[test]
fn the_compact_board_marks_the_last_move_and_the_pieces_that_must_jump() {
    use crate::tui::{Settings, Theme};
    use ratatui::crossterm::event::KeyCode;
    // Colour, no colour, ASCII: the same marks, glyphs and attributes rather than colour.
    for (theme, black, white) in [
        (Theme::new(true, false), "⬤", "◉"),
        (Theme::new(false, false), "⬤", "◉"),
        (Theme::new(false, true), "b", "w"),
    ] {
        let settings = Settings {
            theme,
            ..Settings::default()
        };
        // The smallest screen the game takes, and a compact one with names and hints.
        for (width, height) in [(26, 11), (40, 20)] {
            let mut app = App::new(settings, width, height);
            type_move(&mut app, "11-15");
            type_move(&mut app, "22-18");
            let cells = |app: &App, n: u8| compact_cells(app, n).0;
            // The man on 15 must jump (the cursor is on it, its bracket on the left); 18
            // and 22, the last move's squares, are marked `*`: beside the man, before
            // the empty square's number, which is underlined too.
            assert_eq!(cells(&app, 15), format!("[{black}!"), "{width}x{height}");
            assert_eq!(cells(&app, 18), format!(" {white}*"), "{width}x{height}");
            assert_eq!(cells(&app, 22), "*22", "{width}x{height}");
            let (_, modifiers) = compact_cells(&app, 22);
            assert!(modifiers[1].contains(Modifier::UNDERLINED), "{modifiers:?}");
            assert!(modifiers[2].contains(Modifier::UNDERLINED), "{modifiers:?}");
            // Under the cursor the bracket takes the mark's place; the underline stays.
            cursor_to(&mut app, sq(22));
            let (text, modifiers) = compact_cells(&app, 22);
            assert_eq!(text, "[22");
            assert!(modifiers[1].contains(Modifier::UNDERLINED), "{modifiers:?}");
            assert_eq!(cells(&app, 15), format!(" {black}!"));
            // Off the last move and the capture, nothing is marked.
            assert_eq!(cells(&app, 14), " 14");
            assert_eq!(cells(&app, 11), " 11");
            assert_eq!(cells(&app, 10), format!(" {black} "));
            // Once the capture is made, its squares are the last move, and White's men
            // that may take back must jump.
            press(&mut app, KeyCode::Esc);
            type_move(&mut app, "15x22");
            assert_eq!(cells(&app, 15), "*15");
            assert_eq!(cells(&app, 22), format!(" {black}*"));
            // The man taken is gone, its square unmarked (White's cursor waits there).
            assert_eq!(cells(&app, 18), "[18");
            assert_eq!(cells(&app, 25), format!(" {white}!"));
            assert_eq!(cells(&app, 26), format!(" {white}!"));
            assert_eq!(screen_text(&app).matches('!').count(), 2);
        }
    }
}

#[test]
fn the_compact_board_marks_the_men_jumped_by_a_jump_being_built() {
    let mut app = app_from("B:W6,7,14,15,22:B2,K28");
    app.screen = Rect::new(0, 0, 40, 20);
    cursor_move(&mut app, &[2, 11]);
    assert_eq!(compact_cells(&app, 7).0, " ◉x");
    // The men still to jump: not marked until jumped.
    assert_eq!(compact_cells(&app, 15).0, " ◉ ");
}

#[test]
fn on_the_smallest_board_the_turn_keeps_clear_of_the_file_letters() {
    use crate::tui::Settings;
    use ratatui::crossterm::event::KeyCode;
    // Black to move, Black at the bottom: the turn would go on the bottom edge, where
    // the letters a-h stand once `a` shows them.
    let mut app = App::new(Settings::default(), 26, 11);
    press(&mut app, KeyCode::Char('a'));
    app.status.message = None;
    let screen = screen_text(&app);
    let lines: Vec<&str> = screen.lines().collect();
    assert!(lines[0].contains(" Black to move "), "{screen}");
    assert_eq!(lines[9], "└─h──g──f──e──d──c──b──a─┘", "{screen}");
}

/// Every question of a game is read whole, every answer in it, from the smallest
/// screen the board is drawn on to 80x24: on the key line, wrapped onto the status
/// lines above it, or (where the footer is too small) in a box over the board. The
/// LAN host's and joiner's leave questions among them.
#[test]
fn every_question_of_a_game_is_shown_whole_at_every_size() {
    use crate::rules::{Color, DrawReason};
    use crate::tui::Settings;
    use crate::tui::app::{Mode, Question};
    use crate::tui::geometry::{MIN_HEIGHT, MIN_WIDTH};
    let questions = [
        Question::Quit,
        Question::NewGame,
        Question::WhoResigns,
        Question::Resign(Color::White),
        Question::HandOver(Color::White),
        Question::Draw(Color::White),
        Question::Undo,
        Question::RemoteUndo(Color::White),
        // Without a table: the joiner's words.
        Question::LeaveTable,
        Question::LeaveGoneLine,
        Question::LeaveUnplayed,
        Question::OfferDraw,
        Question::ClaimDraw(DrawReason::FortyMoves),
    ];
    // A host at a loopback port, for the host's words.
    let args = <crate::cli::Cli as clap::Parser>::try_parse_from(["checkers"])
        .unwrap()
        .play;
    let hosting = crate::tui::home::Chosen::Host {
        side: crate::tui::home::Side::Black,
        clock: None,
        port: 0,
        name: None,
    };
    let look = crate::tui::home::Look {
        colored: true,
        ascii: false,
        coordinates: false,
        assist: None,
        palette: |ascii| crate::tui::Theme::new(true, ascii),
    };
    let Some(Ok(crate::tui::Start::Game(session, _, Some(table)))) =
        crate::commands::play::network_from_home(&args, &hosting, &look)
    else {
        panic!("hosting starts a game at a table");
    };
    let runtime = crate::runtime::Runtime::new(
        *session,
        crate::runtime::Saving::Off,
        crate::runtime::Pace::WATCHED,
    )
    .at_table(table);
    let mut host = App::with_runtime(Settings::default(), runtime, 80, 24);
    // The screen's words, its lines joined (a box's borders left out).
    let words = |screen: &str| -> String {
        screen
            .lines()
            .map(|line| line.trim_matches(|c: char| c.is_whitespace() || c == '│'))
            .collect::<Vec<_>>()
            .join(" ")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    let mut plain = app();
    let mut cases: Vec<(bool, Question)> = questions.iter().map(|q| (false, *q)).collect();
    cases.push((true, Question::LeaveTable));
    for (hosting, question) in cases {
        let app = if hosting { &mut host } else { &mut plain };
        app.mode = Mode::Asking(question);
        // On a wide screen the question is one line, the screen's last.
        let wide = drawn_text(200, 50, |area, buf| (&*app).render(area, buf));
        let whole = wide
            .lines()
            .map(str::trim)
            .rfind(|line| !line.is_empty())
            .unwrap()
            .to_string();
        assert!(
            ["y yes  n no", "Esc cancel", "n stays"]
                .iter()
                .any(|end| whole.ends_with(end)),
            "{question:?}: {whole:?}"
        );
        if hosting {
            assert!(whole.contains("checkers host --resume"), "{whole}");
        }
        for (width, height) in [
            (MIN_WIDTH, MIN_HEIGHT),
            (30, 12),
            (40, 14),
            (50, 20),
            (60, 24),
            (73, 24),
            (70, 23),
            (80, 24),
        ] {
            let screen = drawn_text(width, height, |area, buf| (&*app).render(area, buf));
            assert!(
                words(&screen).contains(&words(&whole)),
                "{question:?} is not whole at {width}x{height}: {whole:?}\n{screen}"
            );
        }
    }
}

/// On the smallest screen the one row under the board is the key line, so that a
/// player by mouse alone gets help and quits; the news goes on the board's frame, on
/// the edge the turn leaves free.
#[test]
fn at_26x11_the_key_line_is_a_click_away_and_the_news_is_on_the_frame() {
    use crate::tui::Settings;
    use crate::tui::app::{Mode, Question};
    let mut app = App::new(Settings::default(), 26, 11);
    let screen = screen_text(&app);
    let lines: Vec<&str> = screen.lines().collect();
    assert_eq!(lines[10].trim_end(), "u undo  ? help  q quit", "{screen}");
    assert!(lines[9].contains(" Black to move "), "{screen}");
    assert!(lines[0].starts_with("┌ Black moves first"), "{screen}");
    // A click on help shows it; a click closes it; a click on quit asks.
    click(&mut app, 9, 10);
    assert!(matches!(app.mode, Mode::Help(_)), "{screen}");
    click(&mut app, 9, 10);
    assert_eq!(app.mode, Mode::Board);
    // A move made, quitting asks first.
    type_move(&mut app, "11-15");
    // White to move: the turn on the top edge, the news on the bottom one.
    let screen = screen_text(&app);
    assert!(
        screen.lines().next().unwrap().contains("White to move"),
        "{screen}"
    );
    assert!(screen.lines().nth(9).unwrap().contains("11-15"), "{screen}");
    click(&mut app, 17, 10);
    assert_eq!(app.mode, Mode::Asking(Question::Quit));
    // A move typed is shown where the keys were.
    press(&mut app, ratatui::crossterm::event::KeyCode::Esc);
    type_text(&mut app, "11");
    assert!(
        screen_text(&app)
            .lines()
            .nth(10)
            .unwrap()
            .starts_with("Move: 11")
    );
}

/// The help's box over the board and the panel leaves nothing of the panel standing
/// beside it: at 120x40 its right border did, a lone line right of the box with the
/// panel between them blanked.
#[test]
fn the_help_leaves_no_stray_border_beside_it() {
    use crate::tui::Settings;
    for (width, height) in [(120u16, 40u16), (200, 60), (100, 30)] {
        let mut app = App::new(Settings::default(), width, height);
        type_text(&mut app, "?");
        let screen = screen_text(&app);
        let lines: Vec<Vec<char>> = screen.lines().map(|l| l.chars().collect()).collect();
        let top = lines
            .iter()
            .position(|l| l.iter().collect::<String>().contains("┌ Help "))
            .unwrap_or_else(|| panic!("no help at {width}x{height}:\n{screen}"));
        let right = lines[top].iter().rposition(|&c| c == '┐').unwrap();
        let bottom = top + lines[top..].iter().position(|l| l[right] == '┘').unwrap();
        for line in &lines[top..=bottom] {
            let beside: String = line[right + 1..].iter().collect();
            assert!(
                beside.trim().is_empty(),
                "{width}x{height}: {beside:?} beside the help:\n{screen}"
            );
        }
    }
}

/// The help's legend names the mark of a piece that must jump as the panel's legend
/// does, "! must jump" (it said "! jump"), and the help still fits 80x24 whole.
#[test]
fn the_helps_legend_says_must_jump_as_the_panel_does() {
    use crate::tui::Settings;
    let mut app = App::new(Settings::default(), 80, 24);
    type_text(&mut app, "?");
    let screen = screen_text(&app);
    let legend = screen
        .lines()
        .find(|line| line.contains("[ ] cursor"))
        .unwrap_or_else(|| panic!("no legend:\n{screen}"));
    assert!(legend.contains("! must jump  "), "{screen}");
    assert!(!crate::tui::view::help_scrolls(&app), "{screen}");
    assert!(screen.contains("any key closes"), "{screen}");
}

/// On a small screen the news keeps to its status rows and the key line to its own row:
/// at 32x13 "The man on 31 is blocked: it has / no legal move" ended on the key line's
/// row in place of "u undo  s save". News too long for its rows is cut cleanly (whole
/// sentences, or the first one cut between words with an ellipsis) where the screen has
/// no free rows for it under the key line; at 32x13 a second status row (it was a blank
/// row) shows a sentence of two rows whole.
#[test]
fn the_news_and_the_key_line_never_share_a_row_on_a_small_screen() {
    use crate::tui::app::Tone;
    let news = "A capture is compulsory: 9x18, 10x17 or 27x18; the man on 31 cannot capture";
    let row = |screen: &str, y: u16| {
        let line = screen.lines().nth(usize::from(y)).unwrap_or_default();
        line.trim().to_string()
    };
    for (width, height) in [(26, 11), (30, 12), (32, 12), (32, 13), (32, 14), (40, 15)]
        .into_iter()
        .chain([(80, 24), (120, 40), (200, 60)])
    {
        let mut app = app_from("W:W31,26,27:B1");
        app.screen = Rect::new(0, 0, width, height);
        let layout = crate::tui::geometry::screen_layout(app.screen, false).unwrap();
        let hints = if layout.hints.height == 0 {
            layout.status
        } else {
            layout.hints
        };
        let keys = row(&screen_text(&app), hints.y);
        assert!(
            keys.ends_with("? help  q quit"),
            "{width}x{height}: {keys:?}"
        );
        app.status.message = Some((Tone::Error, news.to_string()));
        let screen = screen_text(&app);
        // The key line whole, on its row or (news taking the free rows under it) lower.
        let key_row = (hints.y..height).find(|&y| row(&screen, y) == keys);
        let key_row = key_row.unwrap_or_else(|| panic!("{width}x{height}:\n{screen}"));
        if layout.hints.height == 0 {
            continue;
        }
        let status = (layout.status.y..key_row)
            .map(|y| row(&screen, y))
            .collect::<Vec<_>>()
            .join(" ");
        let status = status.trim();
        let cut = status.strip_suffix('…').map(str::trim_end);
        assert!(
            status == news || cut.is_some_and(|cut| news.starts_with(&format!("{cut} "))),
            "{width}x{height}: {status:?}\n{screen}"
        );
    }
    // The blocked man's news at 32x13, whole, over the whole key line.
    let mut app = app_from("W:W31,26,27:B1");
    app.screen = Rect::new(0, 0, 32, 13);
    cursor_move(&mut app, &[31]);
    let screen = screen_text(&app);
    assert_eq!(
        screen.lines().nth(10).unwrap().trim_end(),
        "The man on 31 has no legal move",
        "{screen}"
    );
    app.status.message = Some((
        Tone::Error,
        "The man on 31 is blocked: it has no legal move".to_string(),
    ));
    let screen = screen_text(&app);
    let lines: Vec<&str> = screen.lines().map(str::trim_end).collect();
    assert_eq!(
        lines[10..],
        [
            "The man on 31 is blocked: it has",
            "no legal move",
            "u undo  s save  ? help  q quit"
        ],
        "{screen}"
    );
}
