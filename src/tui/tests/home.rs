//! The home screen: what `checkers` alone opens. Its pages at 80x24 and 120x40, the
//! keys that choose a game, the sessions those choices start, and the options that
//! skip it.

use crate::cli::Cli;
use crate::commands::play::{Begin, home_begin, home_wanted, network_from_home};
use crate::engine::Level;
use crate::net::protocol::Role;
use crate::rules::Color;
use crate::session::{Player, Seats, Session};
use crate::tui::Theme;
use crate::tui::home::{Chosen, Entry, Home, Look, Page, Side};
use crate::tui::tests::key_event;
use clap::Parser;
use insta::assert_snapshot;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

/// The settings as a terminal of 16 colours with no preferences gives them.
fn look() -> Look {
    Look {
        colored: true,
        ascii: false,
        coordinates: false,
        assist: None,
        palette: |ascii| Theme::new(true, ascii),
    }
}

fn home() -> Home {
    Home::new(look(), Level::default())
}

/// Presses `code`: `Some(None)` quits, `Some(Some(choice))` starts a game.
fn key(home: &mut Home, code: KeyCode) -> Option<Option<Chosen>> {
    home.handle_event(&key_event(code, KeyModifiers::NONE))
}

fn screen(home: &Home, width: u16, height: u16) -> String {
    crate::tui::tests::drawn_text(width, height, |area, buf| home.render(area, buf))
}

/// The session a choice starts, with no options given (as `checkers` alone).
fn started(chosen: &Chosen, look: &Look) -> Session {
    let args = Cli::try_parse_from(["checkers"]).unwrap().play;
    match home_begin(&args, chosen, look, &None).unwrap() {
        Begin::Play(session, None) => *session,
        _ => panic!("a new game is played at once, in no file yet"),
    }
}

#[test]
fn home_80x24() {
    let home = home();
    let text = screen(&home, 80, 24);
    assert!(text.contains("> p Two players at this terminal"), "{text}");
    assert_snapshot!(text);
}

#[test]
fn home_120x40() {
    assert_snapshot!(screen(&home(), 120, 40));
}

#[test]
fn computer_80x24_and_120x40() {
    let mut home = home();
    key(&mut home, KeyCode::Char('c'));
    assert_eq!(
        home.page,
        Page::Computer(2),
        "Start is chosen: Enter starts"
    );
    assert_snapshot!("computer_80x24", screen(&home, 80, 24));
    assert_snapshot!("computer_120x40", screen(&home, 120, 40));
}

/// At 40x15 the computer page's note ran past the bottom, cut off mid-word ("b, w or a
/// click"): there it is whole, on every row (its rows in short leave it room for the
/// whole note), and so are the keys.
#[test]
fn the_computer_pages_note_shows_whole_at_40x15() {
    let mut home = home();
    key(&mut home, KeyCode::Char('c'));
    for row in [2, 1, 0] {
        assert_eq!(home.page, Page::Computer(row));
        let text = screen(&home, 40, 15);
        let words = text
            .lines()
            .map(|l| l.trim_matches(|c: char| c == '│' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(
            words.contains(
                "Level 1 is a beginner, 10 the program at its best. b, w or a click on the \
                 side picks it; a digit (0 for 10) or < > the level."
            ),
            "row {row}:\n{text}"
        );
        assert!(words.contains("Enter start"), "row {row}:\n{text}");
        key(&mut home, KeyCode::Up);
    }
    let text = screen(&home, 80, 24);
    assert!(
        text.contains("a digit (0 for 10) or < > the level."),
        "{text}"
    );
}

#[test]
fn settings_80x24_and_120x40() {
    let mut home = home();
    home.preferences = Ok("/home/ann/.config/checkers/preferences.toml".into());
    key(&mut home, KeyCode::Char('s'));
    key(&mut home, KeyCode::Down);
    key(&mut home, KeyCode::Enter);
    assert!(home.look.ascii, "Enter switches the pieces to letters");
    assert_eq!(
        home.theme().glyphs.black_man,
        "b",
        "the change shows at once"
    );
    assert_snapshot!("settings_80x24", screen(&home, 80, 24));
    assert_snapshot!("settings_120x40", screen(&home, 120, 40));
}

#[test]
fn the_assistance_setting_says_what_it_gives_at_each_value() {
    let mut home = home();
    key(&mut home, KeyCode::Char('s'));
    for _ in 0..3 {
        key(&mut home, KeyCode::Down);
    }
    let mut told = Vec::new();
    for _ in 0..3 {
        for size in [(80, 24), (120, 40)] {
            let text = screen(&home, size.0, size.1);
            let row = text
                .lines()
                .find_map(|line| line.split("> Assistance").nth(1))
                .unwrap_or_else(|| panic!("{text}"));
            told.push(row.trim_end_matches([' ', '│']).trim().to_string());
        }
        key(&mut home, KeyCode::Enter);
    }
    told.dedup();
    assert_eq!(
        told,
        [
            "on: hints, score (off for two people on a clock)",
            "off: no hints, no engine score",
            "on: hints and the engine's score",
        ]
    );
}

#[test]
fn the_home_screen_says_what_a_pdn_file_is() {
    let mut home = home();
    while Entry::ALL[home.selected] != Entry::Open {
        key(&mut home, KeyCode::Down);
    }
    for (width, height) in [(80, 24), (120, 40)] {
        let text = screen(&home, width, height);
        assert!(text.contains("Enter open"), "{text}");
        assert!(
            text.contains("a PDN file (a checkers game record)"),
            "{text}"
        );
    }
}

#[test]
fn network_open_and_help_pages() {
    let mut home = home();
    key(&mut home, KeyCode::Char('n'));
    let text = screen(&home, 80, 24);
    assert!(text.contains("> Host a game here"), "{text}");
    assert!(text.contains("Play at a checkers server"), "{text}");
    assert_snapshot!("network_80x24", text);
    key(&mut home, KeyCode::Esc);
    assert_eq!(home.page, Page::Menu);
    key(&mut home, KeyCode::Char('o'));
    for c in "~/club.pdn".chars() {
        key(&mut home, KeyCode::Char(c));
    }
    assert_snapshot!("open_80x24", screen(&home, 80, 24));
    key(&mut home, KeyCode::Esc);
    key(&mut home, KeyCode::Char('?'));
    let text = screen(&home, 80, 24);
    assert!(text.contains("How to play:"), "{text}");
    assert_snapshot!("help_80x24", text);
    // The help scrolls no further than its end, and Esc goes back.
    for _ in 0..50 {
        key(&mut home, KeyCode::PageDown);
    }
    let Page::Help(top) = home.page else {
        panic!("still the help");
    };
    assert!(top < 40, "{top}");
    key(&mut home, KeyCode::Esc);
    assert_eq!(home.page, Page::Menu);
}

#[test]
fn the_homes_help_teaches_the_rules_before_the_keys() {
    // Someone who has never played opens the help from the list: its first page says
    // how pieces move and capture, how a man becomes a king, what the numbers are and
    // how to move with the mouse; the keys follow.
    let mut home = home();
    key(&mut home, KeyCode::Char('?'));
    let first = screen(&home, 80, 24);
    // The words as read, whatever line they are broken over.
    let read: Vec<&str> = first
        .split(|c: char| c.is_whitespace() || c == '│')
        .filter(|w| !w.is_empty())
        .collect();
    let read = read.join(" ");
    for words in [
        "How to play:",
        "numbered 1 to 32",
        "15x22 jumps",
        "Click one of your pieces",
        "Jumping is compulsory",
        "is crowned king",
        "backward",
        "You win when the other side cannot move",
    ] {
        assert!(read.contains(words), "{words}: {first}");
    }
    let mut all = first.clone();
    for _ in 0..10 {
        key(&mut home, KeyCode::PageDown);
        all.push_str(&screen(&home, 80, 24));
    }
    assert!(all.contains("u undo"), "{all}");
    assert!(all.contains("♚♚♚ ♔♔♔ kings"), "{all}");
    // The games started here come back here on q: not the command line's --resume.
    assert!(all.contains("q home screen (r there resumes)"), "{all}");
    assert!(!all.contains("--resume"), "{all}");
}

/// At 40x15 the computer page's rows fit a line each, at every side and level (they
/// wrapped: "You play     Black (you move" over "first)"), and say the same in short;
/// a wider page keeps the whole words.
#[test]
fn the_computer_pages_rows_fit_a_40_column_screen() {
    let mut home = home();
    key(&mut home, KeyCode::Char('c'));
    for (side, level, rows) in [
        (
            'b',
            '1',
            [
                "You play  Black (you move first)",
                "Level       1 > (0.75 s a move)",
            ],
        ),
        (
            'w',
            '0',
            [
                "You play  White (it moves first)",
                "Level     < 10   (3.00 s a move)",
            ],
        ),
    ] {
        key(&mut home, KeyCode::Char(side));
        key(&mut home, KeyCode::Char(level));
        let text = screen(&home, 40, 15);
        for row in rows {
            assert!(text.contains(row), "{row}:\n{text}");
        }
        // Each row alone on its line: the next line is the next row.
        let lines: Vec<&str> = text.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.contains("You play"))
            .expect("the side's row");
        assert!(lines[at + 1].contains("Level"), "{text}");
        assert!(lines[at + 2].contains("Start the game"), "{text}");
    }
    let text = screen(&home, 80, 24);
    assert!(
        text.contains("You play     White (the computer moves first)"),
        "{text}"
    );
    assert!(
        text.contains("< 10   of 10 (about 3.00 s a move)"),
        "{text}"
    );
}

/// The line of `text` (a screen) that holds `row`, and the line under it, read without
/// the frame and the chosen row's marker.
fn row_and_next(text: &str, row: &str) -> (String, String) {
    let lines: Vec<&str> = text
        .lines()
        .map(|l| {
            let l = l.trim_matches(|c| c == '│' || c == ' ');
            l.strip_prefix("> ").unwrap_or(l)
        })
        .collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(row))
        .unwrap_or_else(|| panic!("{row}:\n{text}"));
    let next = lines.get(at + 1).copied().unwrap_or_default();
    (lines[at].to_string(), next.to_string())
}

/// Below 40 columns the computer page's rows fit a line each, at every side and level
/// (at 30x12 "You play  White (it moves first)" wrapped onto the next line, where it
/// read as a row), in fewer words: the side's meaning in a word, then the side alone.
#[test]
fn the_computer_pages_rows_fit_a_line_at_30x12_and_26x11() {
    for (w, h, sides, levels) in [
        (
            30,
            12,
            ["Black (first)", "White (second)", "either, by lot"],
            ["Level       1 > 0.75 s", "Level     < 10   3.00 s"],
        ),
        (
            26,
            11,
            ["Black", "White", "either"],
            ["Level       1 >", "Level     < 10"],
        ),
    ] {
        for (side, words) in [Side::Black, Side::White, Side::Random]
            .into_iter()
            .zip(sides)
        {
            for (level, words_of_level) in [Level::MIN, Level::MAX].into_iter().zip(levels) {
                let mut home = home();
                key(&mut home, KeyCode::Char('c'));
                home.side = side;
                home.level = level;
                home.page = Page::Computer(1);
                let text = screen(&home, w, h);
                let (row, next) = row_and_next(&text, "You play");
                assert_eq!(row, format!("You play  {words}"), "{w}x{h}:\n{text}");
                assert_eq!(next, words_of_level, "{w}x{h}:\n{text}");
                let (_, next) = row_and_next(&text, "Level");
                assert_eq!(next, "Start the game", "{w}x{h}:\n{text}");
            }
        }
    }
}

/// The network page's host form says the side on one line at 40x15, 30x12 and 26x11
/// (White's and either's ran past 40 columns, wrapping onto the clock's line), in
/// fewer words the smaller the screen; at 80x24 in whole.
#[test]
fn the_host_forms_side_fits_a_line_on_small_screens() {
    for (w, h, sides) in [
        (
            40,
            15,
            [
                "Black (you move first)",
                "White (they move first)",
                "either, drawn by lot",
            ],
        ),
        (
            30,
            12,
            ["Black (first)", "White (second)", "either, by lot"],
        ),
        (26, 11, ["Black", "White", "either"]),
        (
            80,
            24,
            [
                "Black (you move first)",
                "White (your friend moves first)",
                "either, drawn at the start",
            ],
        ),
    ] {
        let gap = if w < 45 { "  " } else { "    " };
        for (side, words) in [Side::Black, Side::White, Side::Random]
            .into_iter()
            .zip(sides)
        {
            let mut home = home();
            key(&mut home, KeyCode::Char('n'));
            key(&mut home, KeyCode::Enter);
            home.network.side = side;
            let text = screen(&home, w, h);
            let (row, next) = row_and_next(&text, "You play");
            assert_eq!(row, format!("You play{gap}{words}"), "{w}x{h}:\n{text}");
            assert!(next.starts_with("Clock"), "{w}x{h}:\n{text}");
        }
    }
}

/// The help's key line offers "PgDn more" only while more of the help is below: not at
/// its end, and no scrolling at all where the whole help shows.
#[test]
fn the_helps_key_line_offers_more_only_while_more_is_below() {
    let mut home = home();
    home.screen = ratatui::layout::Rect::new(0, 0, 80, 24);
    key(&mut home, KeyCode::Char('?'));
    let keys = |home: &Home| {
        let drawn = screen(home, 80, 24);
        drawn
            .lines()
            .rfind(|line| line.contains("Esc back"))
            .unwrap_or_else(|| panic!("no key line: {drawn}"))
            .to_string()
    };
    assert!(keys(&home).contains("PgDn more"), "{}", keys(&home));
    key(&mut home, KeyCode::End);
    let at_end = keys(&home);
    assert!(!at_end.contains("PgDn"), "{at_end}");
    assert!(at_end.contains("Up/Down scroll"), "{at_end}");
    // Tall enough for the whole help: nothing to scroll.
    let whole = screen(&home, 120, 80);
    assert!(
        whole.contains("How to play:") && whole.contains("Ctrl-C quit"),
        "{whole}"
    );
    let last = whole
        .lines()
        .rfind(|line| line.contains("Esc back"))
        .unwrap();
    assert!(!last.contains("PgDn") && !last.contains("scroll"), "{last}");
}

/// Clicks the left button on the first place `text` is drawn on the home screen at
/// `width` x `height`: what the click came to.
fn click_on(home: &mut Home, width: u16, height: u16, text: &str) -> Option<Option<Chosen>> {
    home.screen = Rect::new(0, 0, width, height);
    let drawn = screen(home, width, height);
    home.handle_event(&super::click_on_text(&drawn, text))
}

#[test]
fn a_game_against_the_computer_is_set_up_and_started_by_mouse_alone() {
    for (width, height) in [(80, 24), (120, 40), (40, 15)] {
        let mut home = home();
        assert_eq!(
            click_on(&mut home, width, height, "Play the computer"),
            None
        );
        assert!(matches!(home.page, Page::Computer(_)), "{width}x{height}");
        // The level's < lowers it a click at a time, to the beginner's, where it is
        // gone; its > raises it; a click on the rest of its row changes nothing.
        for _ in 0..4 {
            assert_eq!(click_on(&mut home, width, height, "< "), None);
        }
        assert_eq!(home.level, Level::MIN, "{width}x{height}");
        let drawn = screen(&home, width, height);
        let row = drawn.lines().find(|l| l.contains("Level  ")).unwrap();
        assert!(!row.contains('<'), "{width}x{height}: {row}");
        // A narrow page says the level's time in short, without "of 10".
        let raise = if width < 50 { "> (" } else { "> of 10" };
        assert_eq!(click_on(&mut home, width, height, raise), None);
        assert_eq!(home.level.number(), 2, "{width}x{height}");
        assert_eq!(click_on(&mut home, width, height, "Level  "), None);
        assert_eq!(home.level.number(), 2, "{width}x{height}");
        assert_eq!(click_on(&mut home, width, height, "< "), None);
        assert_eq!(home.level, Level::MIN, "{width}x{height}");
        assert_eq!(click_on(&mut home, width, height, "You play"), None);
        assert_eq!(home.side, Side::White, "{width}x{height}");
        assert_eq!(
            click_on(&mut home, width, height, "Start the game"),
            Some(Some(Chosen::Computer {
                side: Side::White,
                level: Level::MIN,
            })),
            "{width}x{height}"
        );
    }
    // The other entries open as their letters do; a click off the list does nothing.
    let mut list = home();
    assert_eq!(click_on(&mut list, 80, 24, "Help: keys"), None);
    assert!(matches!(list.page, Page::Help(0)));
    let mut list = home();
    assert_eq!(click_on(&mut list, 80, 24, "English draughts"), None);
    assert_eq!(list.page, Page::Menu);
    assert_eq!(click_on(&mut list, 80, 24, "Quit"), Some(None));
}

/// The network page is used by mouse as the other pages are: a click on a form opens
/// it, in the form a click on a row chooses it (on the host's side, the next side), a
/// click on its last row starts it, and the key line's Esc goes back.
#[test]
fn a_game_is_hosted_and_a_join_form_filled_by_mouse_alone() {
    for (width, height) in [(80, 24), (120, 40), (30, 12)] {
        let size = format!("{width}x{height}");
        let mut home = home();
        key(&mut home, KeyCode::Char('n'));
        assert_eq!(click_on(&mut home, width, height, "Join a friend"), None);
        assert!(
            screen(&home, width, height).contains("> Address"),
            "{size}: the join form opens"
        );
        // Its Code row chosen by a click: typing goes there.
        assert_eq!(click_on(&mut home, width, height, "  Code"), None);
        type_text(&mut home, "42");
        assert_eq!(home.network.code.text, "42", "{size}");
        assert_eq!(click_on(&mut home, width, height, "Esc back"), None);
        assert_eq!(click_on(&mut home, width, height, "Host a game"), None);
        assert_eq!(click_on(&mut home, width, height, "You play"), None);
        assert_eq!(home.network.side, Side::White, "{size}");
        assert_eq!(
            click_on(&mut home, width, height, "Start hosting"),
            Some(Some(Chosen::Host {
                side: Side::White,
                clock: None,
                port: crate::net::DEFAULT_PORT,
                name: None,
            })),
            "{size}"
        );
    }
}

/// On a small screen the list and the pages scroll so what is chosen shows, and a
/// compact one drops their blank lines: a click still hits the row drawn under it.
#[test]
fn on_a_small_screen_a_click_hits_the_row_drawn_under_it_on_a_scrolled_page() {
    for (width, height) in [(26, 11), (30, 12), (39, 14), (40, 15), (44, 16)] {
        let size = format!("{width}x{height}");
        // Up from the first entry chooses the last, Quit: the list scrolls to it.
        let mut home = home();
        key(&mut home, KeyCode::Up);
        assert_eq!(click_on(&mut home, width, height, "s Settings"), None);
        assert!(matches!(home.page, Page::Settings(_)), "{size}");
        // Settings scrolled to its last row: a click on that row switches it alone.
        for _ in 0..3 {
            key(&mut home, KeyCode::Down);
        }
        assert_eq!(click_on(&mut home, width, height, "> Assistance"), None);
        assert_eq!(home.look.assist, Some(false), "{size}");
        assert!(
            home.look.colored,
            "{size}: a click on Assistance switched Colour"
        );
        // The computer page opens on its last row, scrolled to it where it must be: a
        // click on that row starts the game.
        key(&mut home, KeyCode::Esc);
        home.selected = 1;
        assert_eq!(click_on(&mut home, width, height, "> c "), None, "{size}");
        assert!(matches!(home.page, Page::Computer(_)), "{size}");
        assert_eq!(
            click_on(&mut home, width, height, "> Start the game"),
            Some(Some(Chosen::Computer {
                side: Side::Black,
                level: Level::default(),
            })),
            "{size}"
        );
    }
}

#[test]
fn every_size_draws_and_a_small_one_says_so() {
    let home = home();
    for (w, h) in [(40, 15), (80, 24), (120, 40), (200, 60)] {
        let text = screen(&home, w, h);
        assert!(
            text.contains("Two players at this terminal"),
            "{w}x{h}\n{text}"
        );
        assert!(text.contains("q quit"), "{w}x{h}: the keys show\n{text}");
    }
    // Down to the board's smallest screen, compact: the short names.
    for (w, h) in [(26, 11), (30, 12), (39, 14)] {
        let text = screen(&home, w, h);
        assert!(text.contains("> p Two players"), "{w}x{h}\n{text}");
        assert!(text.contains("q quit"), "{w}x{h}: the keys show\n{text}");
    }
    for (w, h) in [(25, 11), (26, 10)] {
        let text = screen(&home, w, h);
        assert!(text.contains("terminal too small"), "{text}");
        assert!(text.contains("need 26x11"), "{text}");
    }
}

#[test]
fn enter_starts_two_players() {
    let mut home = home();
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::TwoPlayers))
    );
    let session = started(&Chosen::TwoPlayers, &home.look);
    assert_eq!(session.seats(), Seats::PEOPLE);
    assert!(
        session.assist(),
        "two people without a clock have the engine's help"
    );
}

#[test]
fn c_chooses_the_computer_with_the_side_and_level_asked() {
    let mut home = home();
    key(&mut home, KeyCode::Char('c'));
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::Computer {
            side: Side::Black,
            level: Level::default(),
        }))
    );
    let session = started(
        &Chosen::Computer {
            side: Side::Black,
            level: Level::default(),
        },
        &home.look,
    );
    assert_eq!(session.seats().black, Player::Person);
    assert_eq!(session.seats().white, Player::Computer(Level::default()));
}

#[test]
fn arrows_and_enter_choose_the_computer_as_white_at_level_8() {
    let mut home = home();
    key(&mut home, KeyCode::Down);
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        None,
        "the computer page opens"
    );
    assert!(matches!(home.page, Page::Computer(_)));
    // Up twice to the side, Right to White; Down to the level, Right three times.
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Right);
    key(&mut home, KeyCode::Down);
    for _ in 0..3 {
        key(&mut home, KeyCode::Right);
    }
    let eight = Level::new(8).unwrap();
    let chosen = key(&mut home, KeyCode::Enter).unwrap().unwrap();
    assert_eq!(
        chosen,
        Chosen::Computer {
            side: Side::White,
            level: eight,
        }
    );
    let session = started(&chosen, &home.look);
    assert_eq!(session.seats().black, Player::Computer(eight));
    assert_eq!(session.seats().white, Player::Person);
    assert_eq!(session.seats().only_person_here(), Some(Color::White));
    // A digit sets the level (0 is 10), and the level stays within 1-10.
    let mut home = self::home();
    key(&mut home, KeyCode::Char('c'));
    key(&mut home, KeyCode::Char('0'));
    assert_eq!(home.level, Level::MAX);
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Right);
    assert_eq!(home.level, Level::MAX);
    key(&mut home, KeyCode::Char('w'));
    assert_eq!(home.side, Side::White);
    key(&mut home, KeyCode::Esc);
    assert_eq!(home.page, Page::Menu, "Esc goes back to the list");
}

#[test]
fn settings_reach_the_game() {
    let mut home = home();
    key(&mut home, KeyCode::Char('s'));
    for _ in 0..3 {
        key(&mut home, KeyCode::Down);
    }
    key(&mut home, KeyCode::Enter);
    assert_eq!(home.look.assist, Some(false));
    let session = started(&Chosen::TwoPlayers, &home.look);
    assert!(!session.assist(), "assistance switched off");
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Char(' '));
    assert!(home.look.coordinates);
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Enter);
    assert!(!home.look.colored && !home.theme().colored, "colour off");
}

#[test]
fn a_file_opens_for_review_and_a_missing_one_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.pdn");
    std::fs::write(&path, crate::tui::tests::REVIEW_PDN).unwrap();
    let mut home = home();
    key(&mut home, KeyCode::Char('o'));
    assert_eq!(key(&mut home, KeyCode::Enter), None, "no path yet");
    assert!(home.message.is_some());
    for c in path.display().to_string().chars() {
        key(&mut home, KeyCode::Char(c));
    }
    let chosen = key(&mut home, KeyCode::Enter).unwrap().unwrap();
    assert_eq!(chosen, Chosen::Open(path.clone()));
    let session = started(&chosen, &home.look);
    assert!(session.is_reviewing());
    let args = Cli::try_parse_from(["checkers"]).unwrap().play;
    let missing = Chosen::Open(dir.path().join("none.pdn"));
    assert!(home_begin(&args, &missing, &home.look, &None).is_err());
}

#[test]
fn r_resumes_and_q_esc_and_ctrl_c_quit() {
    let mut home = home();
    assert_eq!(
        key(&mut home, KeyCode::Char('r')),
        Some(Some(Chosen::Resume))
    );
    assert_eq!(key(&mut home, KeyCode::Char('q')), Some(None));
    assert_eq!(key(&mut home, KeyCode::Esc), Some(None));
    assert_eq!(
        home.handle_event(&key_event(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(None)
    );
    // The last entry is Quit too, and the arrows wrap round the list.
    let mut home = self::home();
    key(&mut home, KeyCode::Up);
    assert_eq!(key(&mut home, KeyCode::Enter), Some(None));
}

#[test]
fn a_game_option_skips_the_home_screen() {
    let wanted = |line: &[&str]| {
        let mut argv = vec!["checkers"];
        argv.extend(line);
        home_wanted(&Cli::try_parse_from(argv).unwrap().play)
    };
    assert!(wanted(&[]));
    // How the game is shown is no game named.
    for shown in [
        &["--flip"][..],
        &["--no-color"],
        &["--ascii"],
        &["--no-mouse"],
        &["--quiet"],
    ] {
        assert!(wanted(shown), "{shown:?}");
    }
    let file = tempfile::NamedTempFile::new().unwrap();
    let path = file.path().to_str().unwrap();
    for named in [
        &["--white", "cpu"][..],
        &["--black", "cpu"],
        &["--black", "human"],
        &["--level", "3"],
        &["--load", path],
        &["--load", path, "--game", "2"],
        &["--fen", "W:W18:B10"],
        &["--resume"],
        &["--setup"],
        &["--clock", "5+3"],
        &["--move-timer"],
        &["--ballot", "12"],
        &["--ballot", "random", "--mailplay"],
        &["--match", "2"],
        &["--match", "2", "--save", path],
        &["--assist", "off"],
        &["--threads", "2"],
        &["--black-name", "Ann"],
        &["--white-name", "Bob"],
        &["--plain"],
    ] {
        assert!(!wanted(named), "{named:?}");
    }
}

#[test]
fn z_opens_the_puzzles() {
    let mut home = home();
    assert_eq!(
        key(&mut home, KeyCode::Char('z')),
        Some(Some(Chosen::Puzzles))
    );
    assert!(screen(&home, 80, 24).contains("> z Puzzles"));
}

/// Types `text` into the field under the cursor.
fn type_text(home: &mut Home, text: &str) {
    for c in text.chars() {
        key(home, KeyCode::Char(c));
    }
}

#[test]
fn host_form_takes_the_side_clock_name_and_port_as_host_does() {
    let mut home = home();
    key(&mut home, KeyCode::Char('n'));
    assert_eq!(key(&mut home, KeyCode::Enter), None, "the host form opens");
    key(&mut home, KeyCode::Right);
    key(&mut home, KeyCode::Down);
    type_text(&mut home, "G/1x");
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        None,
        "a bad clock starts nothing"
    );
    let told = home.message.clone().unwrap_or_default();
    assert!(told.starts_with("Clock: "), "{told}");
    assert_snapshot!("host_form_refused_80x24", screen(&home, 80, 24));
    key(&mut home, KeyCode::Backspace);
    type_text(&mut home, "5");
    key(&mut home, KeyCode::Down);
    type_text(&mut home, "Ann");
    key(&mut home, KeyCode::Down);
    for _ in 0..4 {
        key(&mut home, KeyCode::Backspace);
    }
    type_text(&mut home, "0");
    assert_snapshot!("host_form_120x40", screen(&home, 120, 40));
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::Host {
            side: Side::White,
            clock: Some("G/15".parse().unwrap()),
            port: 0,
            name: Some("Ann".to_string()),
        }))
    );
    // Back to the list of forms, then to the home screen's list.
    key(&mut home, KeyCode::Esc);
    assert!(screen(&home, 80, 24).contains("> Host a game here"));
    key(&mut home, KeyCode::Esc);
    assert_eq!(home.page, Page::Menu);
}

#[test]
fn join_and_watch_forms_need_an_address_and_a_code() {
    let mut home = home();
    key(&mut home, KeyCode::Char('n'));
    key(&mut home, KeyCode::Down);
    key(&mut home, KeyCode::Enter);
    assert_eq!(key(&mut home, KeyCode::Enter), None);
    assert!(
        home.message
            .as_deref()
            .unwrap_or("")
            .starts_with("Address:"),
        "{:?}",
        home.message
    );
    type_text(&mut home, "192.0.2.7");
    assert_eq!(key(&mut home, KeyCode::Enter), None, "no code yet");
    assert!(home.message.as_deref().unwrap_or("").starts_with("Code:"));
    // The cursor went to the code's row: typing goes there.
    type_text(&mut home, "maple 4821");
    assert_snapshot!("join_form_80x24", screen(&home, 80, 24));
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::Join {
            address: "192.0.2.7".to_string(),
            code: "maple-4821".to_string(),
            name: None,
            role: Role::Player,
        }))
    );
    // Watching takes the same fields, kept from the join form.
    key(&mut home, KeyCode::Esc);
    key(&mut home, KeyCode::Down);
    key(&mut home, KeyCode::Enter);
    assert_snapshot!("watch_form_120x40", screen(&home, 120, 40));
    assert!(matches!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::Join {
            role: Role::Spectator,
            ..
        }))
    ));
}

#[test]
fn server_form_needs_an_address_and_a_name_a_server_takes() {
    let mut home = home();
    key(&mut home, KeyCode::Char('n'));
    for _ in 0..3 {
        key(&mut home, KeyCode::Down);
    }
    key(&mut home, KeyCode::Enter);
    assert_eq!(key(&mut home, KeyCode::Enter), None, "no server yet");
    assert!(
        home.message.as_deref().unwrap_or("").starts_with("Server:"),
        "{:?}",
        home.message
    );
    type_text(&mut home, "checkers.example.org");
    key(&mut home, KeyCode::Down);
    type_text(&mut home, "Ann Lee");
    assert_eq!(key(&mut home, KeyCode::Enter), None, "a space in the name");
    let told = home.message.clone().unwrap_or_default();
    assert_eq!(
        told,
        "Your name: U+0020 (the 4th character) is not allowed: a name is 1 to 20 of a-z, \
         A-Z, 0-9, - and _"
    );
    for _ in 0..4 {
        key(&mut home, KeyCode::Backspace);
    }
    type_text(&mut home, "_Lee");
    assert_snapshot!("server_form_80x24", screen(&home, 80, 24));
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::Online {
            server: "checkers.example.org".to_string(),
            name: Some("Ann_Lee".to_string()),
            trusted: None,
        }))
    );
}

#[test]
fn the_server_form_asks_before_trusting_a_server_met_for_the_first_time() {
    let mut home = Home::new(look(), Level::default());
    let fingerprint: [u8; 32] = std::array::from_fn(|i| (i * 8 + 5) as u8);
    let contact = crate::tui::home::FirstContact {
        address: "checkers.example.org:4620".to_string(),
        name: Some("ann".to_string()),
        fingerprint,
    };
    // Said while the server was looked at: the question replaces it.
    home.message = Some("Connecting to checkers.example.org...".to_string());
    home.ask_first_contact(contact.clone());
    let drawn = screen(&home, 80, 24);
    assert!(!drawn.contains("Connecting to"), "{drawn}");
    for words in [
        "First contact with checkers.example.org:4620.",
        "  SHA256:05:0D:15:1D:25:2D:35:3D:45:4D:55:5D:65:6D:75:7D:",
        "         85:8D:95:9D:A5:AD:B5:BD:C5:CD:D5:DD:E5:ED:F5:FD",
        "Compare it with the one the server printed",
        "Trust it, pin it and connect? [y/N]",
        "y trust, pin and connect",
    ] {
        assert!(drawn.contains(words), "{words:?} in {drawn}");
    }
    // Another key answers nothing.
    assert_eq!(key(&mut home, KeyCode::Enter), None);
    assert!(screen(&home, 80, 24).contains("Trust it, pin it"));
    // n: nothing pinned, the form again.
    assert_eq!(key(&mut home, KeyCode::Char('n')), None);
    let told = home.message.clone().unwrap_or_default();
    assert!(
        told.contains("was not trusted (nothing pinned, nothing sent)"),
        "{told}"
    );
    assert!(!screen(&home, 80, 24).contains("Trust it"));
    // y: the lobby, with the fingerprint trusted.
    home.ask_first_contact(contact);
    assert_eq!(
        key(&mut home, KeyCode::Char('y')),
        Some(Some(Chosen::Online {
            server: "checkers.example.org:4620".to_string(),
            name: Some("ann".to_string()),
            trusted: Some(fingerprint),
        }))
    );
}

#[test]
fn a_game_hosted_from_home_listens_and_a_join_that_fails_is_said() {
    let args = Cli::try_parse_from(["checkers"]).unwrap().play;
    let host = Chosen::Host {
        side: Side::Black,
        clock: None,
        port: 0,
        name: Some("Ann".to_string()),
    };
    let Some(Ok(crate::tui::Start::Game(session, _, Some(table)))) =
        network_from_home(&args, &host, &look())
    else {
        panic!("hosting starts a game at a table");
    };
    assert_eq!(session.seats().remote_side(), Some(Color::White));
    let runtime = crate::runtime::Runtime::new(
        *session,
        crate::runtime::Saving::Off,
        crate::runtime::Pace::WATCHED,
    )
    .at_table(table);
    let Some(crate::runtime::network::Seat::Host { address, code, .. }) =
        runtime.table().map(|view| &view.seat)
    else {
        panic!("the host's table shows where to join");
    };
    assert!(!code.is_empty());
    // A second host at the same port: the port is taken, and the home screen says how
    // to pick another.
    let again = Chosen::Host {
        side: Side::Black,
        clock: None,
        port: address.port(),
        name: None,
    };
    let Some(Err(why)) = network_from_home(&args, &again, &look()) else {
        panic!("a port taken is refused");
    };
    assert!(why.contains("type another port"), "{why}");
    // Nobody listens at a port just freed: joining says the host cannot be reached.
    let free = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed = free.local_addr().unwrap();
    drop(free);
    let join = Chosen::Join {
        address: closed.to_string(),
        code: "maple-4821".to_string(),
        name: None,
        role: Role::Player,
    };
    let Some(Err(why)) = network_from_home(&args, &join, &look()) else {
        panic!("nobody to join");
    };
    assert!(why.contains("cannot connect"), "{why}");
}

#[test]
fn settings_are_kept_in_the_preferences_file_with_its_comments_and_read_back() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("checkers").join("preferences.toml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let before = "# My checkers.\nlevel = 7 # a fair fight\n\n# Letters on the old terminal.\nascii = false\n";
    std::fs::write(&path, before).unwrap();
    let mut home = home();
    home.preferences = Ok(path.clone());
    key(&mut home, KeyCode::Char('s'));
    // Colour off, letters for pieces, the coordinates on, no assistance: each kept as
    // it changes.
    for row in 0..4 {
        key(&mut home, KeyCode::Enter);
        home.keep_settings();
        assert_eq!(home.message, None, "row {row} kept");
        key(&mut home, KeyCode::Down);
    }
    let text = std::fs::read_to_string(&path).unwrap();
    for kept in [
        "# My checkers.",
        "level = 7 # a fair fight",
        "# Letters on the old terminal.\nascii = true",
        "theme = \"none\"",
        "coordinates = true",
        "assist = false",
    ] {
        assert!(text.contains(kept), "{kept:?} in:\n{text}");
    }
    // The next start reads them back.
    let (prefs, warning) = crate::commands::preferences::read(&path);
    assert_eq!(warning, None);
    let mut args = Cli::try_parse_from(["checkers"]).unwrap().play;
    assert!(prefs.apply(&mut args).is_empty());
    let look = crate::commands::play::home_look(&args, &prefs);
    assert!(!look.colored && look.ascii && look.coordinates);
    assert_eq!(look.assist, Some(false));
    assert_eq!(args.level, Level::new(7), "the other keys still apply");
    // Colour on again takes the theme off, leaving the terminal to decide.
    key(&mut home, KeyCode::Home);
    for _ in 0..4 {
        key(&mut home, KeyCode::Up);
    }
    key(&mut home, KeyCode::Enter);
    home.keep_settings();
    assert!(!std::fs::read_to_string(&path).unwrap().contains("theme"));
}

/// The level chosen against the computer is offered again at the next start: it is
/// kept in the preferences file, as `level`, beside what the file had.
#[test]
fn the_level_chosen_against_the_computer_is_offered_again_next_time() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("preferences.toml");
    std::fs::write(&path, "# Mine.\nflip = true\n").unwrap();
    let mut home = home();
    home.preferences = Ok(path.clone());
    key(&mut home, KeyCode::Char('c'));
    key(&mut home, KeyCode::Char('8'));
    home.keep_settings();
    assert_eq!(home.message, None);
    let chosen = key(&mut home, KeyCode::Enter);
    assert!(
        matches!(chosen, Some(Some(Chosen::Computer { level, .. })) if level == Level::new(8).unwrap()),
        "{chosen:?}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("# Mine.\nflip = true\n"), "{text}");
    assert!(text.contains("level = 8"), "{text}");
    // The next start reads it back, and the computer page offers it.
    let (prefs, warning) = crate::commands::preferences::read(&path);
    assert_eq!(warning, None);
    let mut args = Cli::try_parse_from(["checkers"]).unwrap().play;
    assert!(prefs.apply(&mut args).is_empty());
    let next = Home::new(look(), args.level.unwrap_or_default());
    assert_eq!(next.level, Level::new(8).unwrap());
}

#[test]
fn a_setting_that_cannot_be_kept_is_said_and_still_applies() {
    let dir = tempfile::tempdir().unwrap();
    // A folder where the file should be: nothing can replace it.
    let path = dir.path().join("preferences.toml");
    std::fs::create_dir(&path).unwrap();
    let mut home = home();
    home.preferences = Ok(path.clone());
    key(&mut home, KeyCode::Char('s'));
    key(&mut home, KeyCode::Down);
    key(&mut home, KeyCode::Enter);
    home.keep_settings();
    assert!(home.look.ascii, "the change applies to this run");
    let told = home.message.clone().unwrap_or_default();
    assert!(
        told.contains("preferences.toml") && told.contains("not kept"),
        "{told}"
    );
    // A file that does not read as TOML is left as it is, and said with its line.
    let path = dir.path().join("broken.toml");
    std::fs::write(&path, "level = 7\nascii = = true\n").unwrap();
    home.preferences = Ok(path.clone());
    key(&mut home, KeyCode::Enter);
    home.keep_settings();
    let told = home.message.clone().unwrap_or_default();
    assert!(told.contains("line 2"), "{told}");
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        "level = 7\nascii = = true\n"
    );
}

#[test]
fn ctrl_u_clears_the_file_to_open_and_no_ctrl_letter_types() {
    let mut home = home();
    key(&mut home, KeyCode::Char('o'));
    type_text(&mut home, "~/old.pdn");
    let ctrl =
        |home: &mut Home, c| home.handle_event(&key_event(KeyCode::Char(c), KeyModifiers::CONTROL));
    ctrl(&mut home, 'u');
    ctrl(&mut home, 'a');
    type_text(&mut home, "~/club.pdn");
    let text = screen(&home, 80, 24);
    assert!(text.contains("File: ~/club.pdn "), "{text}");
    assert!(text.contains("Ctrl-U clear"), "{text}");
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::Open("~/club.pdn".into())))
    );
}

#[test]
fn the_network_forms_fields_edit_as_every_typed_line_does() {
    let ctrl =
        |home: &mut Home, c| home.handle_event(&key_event(KeyCode::Char(c), KeyModifiers::CONTROL));
    let mut home = home();
    // The join form: its address, code and name.
    key(&mut home, KeyCode::Char('n'));
    key(&mut home, KeyCode::Down);
    key(&mut home, KeyCode::Enter);
    type_text(&mut home, "192.0.2.7:4610");
    // A Ctrl-letter never types; Ctrl-U clears.
    for c in ['a', 'e', 'w', 'k'] {
        ctrl(&mut home, c);
    }
    assert_eq!(home.network.address.text, "192.0.2.7:4610");
    ctrl(&mut home, 'u');
    assert_eq!(home.network.address.text, "");
    // Left and Home move the text cursor: typing goes in there.
    type_text(&mut home, "192.0.2.7");
    key(&mut home, KeyCode::Left);
    key(&mut home, KeyCode::Left);
    key(&mut home, KeyCode::Backspace);
    type_text(&mut home, "1");
    assert_eq!(home.network.address.text, "192.0.1.7");
    key(&mut home, KeyCode::Home);
    key(&mut home, KeyCode::Delete);
    type_text(&mut home, "2");
    key(&mut home, KeyCode::End);
    type_text(&mut home, ":4611");
    assert_eq!(home.network.address.text, "292.0.1.7:4611");
    // The code's row: the same keys, and the screen shows where typing goes.
    key(&mut home, KeyCode::Down);
    type_text(&mut home, "maple4821");
    for _ in 0..4 {
        key(&mut home, KeyCode::Left);
    }
    type_text(&mut home, "-");
    assert_eq!(home.network.code.text, "maple-4821");
    let text = screen(&home, 80, 24);
    assert!(text.contains("Code        maple-4821"), "{text}");
    assert!(text.contains("Ctrl-U clear"), "{text}");
    // The name's row, then Ctrl-U there leaves the other rows as they were.
    key(&mut home, KeyCode::Down);
    type_text(&mut home, "Ann");
    ctrl(&mut home, 'u');
    type_text(&mut home, "Bea");
    assert_eq!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::Join {
            address: "292.0.1.7:4611".to_string(),
            code: "maple-4821".to_string(),
            name: Some("Bea".to_string()),
            role: Role::Player,
        }))
    );
    // The host form: Left and Right still choose the side on its first row, and edit
    // the clock and the port on theirs.
    key(&mut home, KeyCode::Esc);
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Enter);
    key(&mut home, KeyCode::Right);
    key(&mut home, KeyCode::Down);
    type_text(&mut home, "5+3");
    key(&mut home, KeyCode::Home);
    type_text(&mut home, "1");
    ctrl(&mut home, 'b');
    assert_eq!(home.network.clock.text, "15+3");
    key(&mut home, KeyCode::Down);
    key(&mut home, KeyCode::Down);
    ctrl(&mut home, 'u');
    type_text(&mut home, "0");
    assert!(matches!(
        key(&mut home, KeyCode::Enter),
        Some(Some(Chosen::Host {
            side: Side::White,
            port: 0,
            ..
        }))
    ));
}

#[test]
fn a_path_of_wide_characters_keeps_the_open_pages_keys_in_the_box() {
    let mut home = home();
    key(&mut home, KeyCode::Char('o'));
    // 30 CJK characters take 60 columns: with "File: " more than the box's row.
    type_text(&mut home, &format!("~/{}.pdn", "名".repeat(30)));
    let text = screen(&home, 80, 24);
    assert!(text.contains("Esc back"), "{text}");
}

#[test]
fn while_the_screen_is_too_small_only_q_acts() {
    let mut home = home();
    home.screen = Rect::new(0, 0, 25, 10);
    assert!(screen(&home, 25, 10).contains("terminal too small"));
    for code in [
        KeyCode::Char('c'),
        KeyCode::Esc,
        KeyCode::Char('s'),
        KeyCode::Esc,
        KeyCode::Char('?'),
        KeyCode::Enter,
    ] {
        assert_eq!(key(&mut home, code), None, "{code:?} does nothing unseen");
    }
    // Grown to the size needed: the list, as it was.
    home.screen = Rect::new(0, 0, 26, 11);
    assert_eq!(home.page, Page::Menu);
    assert!(screen(&home, 26, 11).contains("> p Two players"));
    home.screen = Rect::new(0, 0, 25, 10);
    assert_eq!(key(&mut home, KeyCode::Char('q')), Some(None), "q quits");
}

#[test]
fn a_key_that_does_nothing_on_the_list_says_so_and_names_it() {
    let mut home = home();
    for (code, modifiers, name) in [
        (KeyCode::Char('x'), KeyModifiers::NONE, "x"),
        (KeyCode::Char('P'), KeyModifiers::SHIFT, "P"),
        // Ctrl-P is not p: no game starts.
        (KeyCode::Char('p'), KeyModifiers::CONTROL, "Ctrl-P"),
        (KeyCode::F(5), KeyModifiers::NONE, "F5"),
    ] {
        assert_eq!(
            home.handle_event(&key_event(code, modifiers)),
            None,
            "{name}"
        );
        assert_eq!(home.page, Page::Menu, "{name}");
        let note = format!("The key {name} does nothing here; ? shows every key");
        assert_eq!(home.message.as_deref(), Some(note.as_str()));
        assert!(
            screen(&home, 80, 24).contains("? shows every key"),
            "{name}"
        );
    }
    // A key that acts clears it; ? is the key it names.
    key(&mut home, KeyCode::Down);
    assert_eq!(home.message, None);
    key(&mut home, KeyCode::Char('?'));
    assert!(matches!(home.page, Page::Help(_)));
}

#[test]
fn a_key_that_does_nothing_on_a_page_says_so_and_names_the_pages_keys() {
    // The text of the screen with its lines joined, as a wrapped note is read.
    let flat = |home: &Home| {
        screen(home, 80, 24)
            .lines()
            .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()))
            .collect::<Vec<_>>()
            .join(" ")
    };
    let press = |home: &mut Home, code, modifiers| {
        let before = (home.side, home.level, home.look.colored, home.page.clone());
        assert_eq!(home.handle_event(&key_event(code, modifiers)), None);
        let after = (home.side, home.level, home.look.colored, home.page.clone());
        assert_eq!(before, after, "{code:?} changed nothing");
    };
    // The computer page: x, and Ctrl-B (which is not b: the side stays White).
    let mut home = home();
    key(&mut home, KeyCode::Char('c'));
    key(&mut home, KeyCode::Char('w'));
    let keys = "this page's keys: Up/Down choose, Left/Right change, Enter start, Esc back";
    for (code, modifiers, name) in [
        (KeyCode::Char('x'), KeyModifiers::NONE, "x"),
        (KeyCode::Char('b'), KeyModifiers::CONTROL, "Ctrl-B"),
        (KeyCode::F(5), KeyModifiers::NONE, "F5"),
    ] {
        press(&mut home, code, modifiers);
        let note = format!("The key {name} does nothing here; {keys}");
        assert_eq!(home.message.as_deref(), Some(note.as_str()));
        assert!(flat(&home).contains(&note), "{}", flat(&home));
    }
    assert_eq!(home.side, Side::White);
    // A key that acts clears it.
    key(&mut home, KeyCode::Up);
    assert_eq!(home.message, None);
    // The settings page, the open page and the network page's list and forms.
    let mut home = crate::tui::tests::home::home();
    key(&mut home, KeyCode::Char('s'));
    press(&mut home, KeyCode::Char('l'), KeyModifiers::ALT);
    assert_eq!(
        home.message.as_deref(),
        Some(
            "The key Alt-l does nothing here; this page's keys: Up/Down choose, \
             Enter switch, Esc back"
        )
    );
    key(&mut home, KeyCode::Esc);
    key(&mut home, KeyCode::Char('o'));
    press(&mut home, KeyCode::F(2), KeyModifiers::NONE);
    assert_eq!(
        home.message.as_deref(),
        Some(
            "The key F2 does nothing here; this page's keys: Enter open, Ctrl-U clear, \
             Esc back"
        )
    );
    key(&mut home, KeyCode::Esc);
    // The help page: x (and Alt-q, which is not q) stays on it and names its keys;
    // q goes back, as on the other pages.
    key(&mut home, KeyCode::Char('?'));
    for (code, modifiers, name) in [
        (KeyCode::Char('x'), KeyModifiers::NONE, "x"),
        (KeyCode::Char('q'), KeyModifiers::ALT, "Alt-q"),
        (KeyCode::Enter, KeyModifiers::NONE, "Enter"),
    ] {
        press(&mut home, code, modifiers);
        let note = format!(
            "The key {name} does nothing here; this page's keys: Up/Down scroll, \
             PgDn more, Esc back"
        );
        assert_eq!(home.message.as_deref(), Some(note.as_str()));
        assert!(flat(&home).contains(&note), "{}", flat(&home));
        assert!(flat(&home).contains("Esc back"), "{}", flat(&home));
    }
    key(&mut home, KeyCode::Char('q'));
    assert_eq!(home.page, Page::Menu);
    key(&mut home, KeyCode::Char('n'));
    press(&mut home, KeyCode::Char('x'), KeyModifiers::NONE);
    assert_eq!(
        home.message.as_deref(),
        Some(
            "The key x does nothing here; this page's keys: Up/Down choose, Enter open, \
             Esc back"
        )
    );
    // The host form: on its side row Ctrl-W picks no side; on the button row a letter
    // types nowhere.
    key(&mut home, KeyCode::Enter);
    let side = home.network.side;
    press(&mut home, KeyCode::Char('w'), KeyModifiers::CONTROL);
    assert_eq!(home.network.side, side);
    assert!(
        home.message
            .as_deref()
            .is_some_and(|m| m.starts_with("The key Ctrl-W does nothing here; this page's keys: ")),
        "{:?}",
        home.message
    );
    for _ in 0..4 {
        key(&mut home, KeyCode::Down);
    }
    press(&mut home, KeyCode::Char('z'), KeyModifiers::NONE);
    assert_eq!(
        home.message.as_deref(),
        Some("The key z does nothing here; this page's keys: Up/Down choose, Enter host, Esc back")
    );
    // Shift-Tab goes back up a row, as Tab goes down.
    key(&mut home, KeyCode::BackTab);
    assert_eq!(home.network.row, 3);
}

/// Whether `text`, the home screen drawn, ends with its key line (naming `key`) inside
/// its frame: the page was drawn whole, its keys not cut off.
fn keys_show(text: &str, key: &str) -> bool {
    let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    rows.len() >= 2
        && rows[rows.len() - 1].trim_start().starts_with('└')
        && rows[rows.len() - 3..rows.len() - 1]
            .iter()
            .any(|row| row.contains(key))
}

#[test]
fn on_the_boards_smallest_screen_every_entry_and_page_shows_what_is_chosen() {
    let (w, h) = (26, 11);
    let mut home = home();
    home.screen = Rect::new(0, 0, w, h);
    // The list scrolls: each entry shows as it is chosen, down to Quit and round again.
    for name in [
        "c The computer",
        "n Network",
        "r Resume",
        "o Open a file",
        "a Analysis board",
        "z Puzzles",
        "s Settings",
        "? Help",
        "q Quit",
        "p Two players",
    ] {
        key(&mut home, KeyCode::Down);
        let text = screen(&home, w, h);
        assert!(text.contains(&format!("> {name}")), "{name}:\n{text}");
        assert!(keys_show(&text, "quit"), "{name}:\n{text}");
    }
    // Each page opens, its chosen row in view above its keys.
    let pages: [(&[KeyCode], &str); 6] = [
        (&[KeyCode::Char('c')], "> Start the game"),
        (
            &[KeyCode::Char('c'), KeyCode::Up, KeyCode::Up],
            "> You play",
        ),
        (
            &[
                KeyCode::Char('s'),
                KeyCode::Down,
                KeyCode::Down,
                KeyCode::Down,
            ],
            "> Assistance",
        ),
        (
            &[
                KeyCode::Char('n'),
                KeyCode::Down,
                KeyCode::Down,
                KeyCode::Down,
            ],
            "> Play at a checkers",
        ),
        (
            &[
                KeyCode::Char('n'),
                KeyCode::Enter,
                KeyCode::Down,
                KeyCode::Down,
                KeyCode::Down,
            ],
            "> Port",
        ),
        (
            &[
                KeyCode::Char('n'),
                KeyCode::Enter,
                KeyCode::Down,
                KeyCode::Down,
                KeyCode::Down,
                KeyCode::Down,
            ],
            "> Start hosting",
        ),
    ];
    for (keys, chosen) in pages {
        let mut home = crate::tui::tests::home::home();
        home.screen = Rect::new(0, 0, w, h);
        for code in keys {
            key(&mut home, *code);
        }
        let text = screen(&home, w, h);
        assert!(text.contains(chosen), "{chosen}:\n{text}");
        assert!(keys_show(&text, "back"), "{chosen}:\n{text}");
    }
    // The open page shows the file typed; the help scrolls to its last line.
    key(&mut home, KeyCode::Char('o'));
    for c in "games.pdn".chars() {
        key(&mut home, KeyCode::Char(c));
    }
    let text = screen(&home, w, h);
    assert!(text.contains("File: games.pdn"), "{text}");
    assert!(keys_show(&text, "back"), "{text}");
    key(&mut home, KeyCode::Esc);
    key(&mut home, KeyCode::Char('?'));
    key(&mut home, KeyCode::End);
    let text = screen(&home, w, h);
    assert!(text.contains("cursor"), "the help's last line:\n{text}");
    assert!(keys_show(&text, "back"), "{text}");
    // A key that does nothing is said, the keys still drawn under it.
    key(&mut home, KeyCode::Esc);
    key(&mut home, KeyCode::Char('x'));
    let text = screen(&home, w, h);
    assert!(text.contains("The key x does"), "{text}");
    assert!(keys_show(&text, "quit"), "{text}");
}

/// The open page's note is read whole at every small size, its heading and the file
/// typed above it and its keys below (at 26x11 it lost "your home folder.").
#[test]
fn at_every_small_size_the_open_pages_note_shows_whole() {
    for w in 26..=44 {
        for h in 11..=16 {
            let mut home = crate::tui::tests::home::home();
            home.screen = Rect::new(0, 0, w, h);
            key(&mut home, KeyCode::Char('o'));
            type_text(&mut home, "games.pdn");
            let text = screen(&home, w, h);
            let words = text
                .lines()
                .map(|l| l.trim_matches(|c: char| c == '│' || c.is_whitespace()))
                .collect::<Vec<_>>()
                .join(" ");
            for part in [
                "Open a PDN file",
                "File: games.pdn",
                "A game opens for review",
                "~ is your home folder.",
            ] {
                assert!(words.contains(part), "{w}x{h}: {part:?}\n{text}");
            }
            assert!(keys_show(&text, "back"), "{w}x{h}:\n{text}");
        }
    }
}

#[test]
fn at_every_small_size_each_page_shows_its_chosen_row_and_its_keys() {
    // Keys that reach each page and choose its rows, down to the last.
    let journeys: [&[KeyCode]; 7] = [
        &[KeyCode::End],
        &[KeyCode::Char('c'), KeyCode::Up, KeyCode::Up],
        &[
            KeyCode::Char('s'),
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Down,
        ],
        &[
            KeyCode::Char('n'),
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Down,
        ],
        &[
            KeyCode::Char('n'),
            KeyCode::Enter,
            KeyCode::Down,
            KeyCode::Down,
        ],
        &[KeyCode::Char('o'), KeyCode::Char('x'), KeyCode::F(5)],
        &[KeyCode::Char('?'), KeyCode::End],
    ];
    for w in 26..=44 {
        for h in 11..=16 {
            for keys in journeys {
                let mut home = crate::tui::tests::home::home();
                home.screen = Rect::new(0, 0, w, h);
                for code in keys {
                    key(&mut home, *code);
                    let text = screen(&home, w, h);
                    let last = text.lines().rfind(|l| !l.trim().is_empty()).unwrap();
                    assert!(
                        last.trim_start().starts_with('└'),
                        "{w}x{h} {keys:?}: the frame is whole\n{text}"
                    );
                    assert!(
                        text.contains("> ") || matches!(home.page, Page::Help(_) | Page::Open),
                        "{w}x{h} {keys:?}: the chosen row shows\n{text}"
                    );
                    assert!(
                        text.contains(" back") || text.contains(" quit"),
                        "{w}x{h} {keys:?}: the keys show\n{text}"
                    );
                }
            }
        }
    }
}

/// News on the home screen reads as a sentence, capitalized as the rest of the page
/// (it said "no game to resume: ...", the command line's error as it is written there).
#[test]
fn news_on_the_home_screen_starts_with_a_capital() {
    let mut home = home();
    home.message = Some(
        "no game to resume: /data/games holds no unfinished game (each game is saved there as it is played)"
            .to_string(),
    );
    for (width, height) in [(80, 24), (120, 40)] {
        let text = screen(&home, width, height);
        assert!(text.contains("No game to resume: /data/games"), "{text}");
        assert!(!text.contains("no game to resume"), "{text}");
        assert!(text.contains("Enter start"), "the key line: {text}");
    }
}

/// On the smallest screen the notes of the computer, settings and network pages are
/// read whole once the page's last row is chosen, and the key line keeps its rows.
#[test]
fn at_26x11_the_pages_notes_read_whole_under_their_last_row() {
    let (w, h) = (26, 11);
    let whole = |home: &Home, note: &str| {
        let drawn = screen(home, w, h);
        let text: String = drawn
            .lines()
            .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        assert!(text.contains(note), "{note}:\n{drawn}");
        assert!(text.contains("Esc back"), "{drawn}");
    };
    let mut home = home();
    home.screen = Rect::new(0, 0, w, h);
    key(&mut home, KeyCode::Char('c'));
    home.page = Page::Computer(2);
    whole(&home, "b or w picks your side, 0-9 the level.");
    let mut home = self::home();
    home.screen = Rect::new(0, 0, w, h);
    key(&mut home, KeyCode::Char('s'));
    home.page = Page::Settings(3);
    whole(&home, "the changes last for this run only.");
    let mut home = self::home();
    home.screen = Rect::new(0, 0, w, h);
    key(&mut home, KeyCode::Char('n'));
    for _ in 0..3 {
        key(&mut home, KeyCode::Down);
    }
    whole(&home, "for the friend who joins or watches.");
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Up);
    key(&mut home, KeyCode::Enter);
    for _ in 0..4 {
        key(&mut home, KeyCode::Down);
    }
    whole(&home, "or 30/60.");
}

/// A pinned server's changed certificate, refused from the network page's server form:
/// the message reads whole at 80x24 (it ran past the box, cutting what to do), with a
/// long data folder and a long server name, and at 120x40 and 200x60.
#[test]
fn a_changed_certificates_warning_reads_whole_on_the_home_screen_at_80x24() {
    let address = "checkers-club.example-secondary-school.org:4620";
    // A data folder on a synced drive, set by XDG_DATA_HOME.
    let dir = std::path::Path::new(
        "/home/annabelle.mcallister/Nextcloud/Teaching/Checkers club 2026-2027/program data/checkers",
    );
    let error = crate::online::certificate_changed(dir, address, &[0xAB; 32], &[0x5C; 32]);
    let mut home = home();
    key(&mut home, KeyCode::Char('n'));
    home.page = Page::Network;
    for _ in 0..3 {
        key(&mut home, KeyCode::Down);
    }
    key(&mut home, KeyCode::Enter);
    // As the run loop sets it.
    let why = crate::commands::play::not_connected(&error);
    home.message = Some(crate::text::printable(&why, 900));
    let new = format!("SHA256:{}", ["5C"; 32].join(":"));
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let drawn = screen(&home, width, height);
        let text: String = drawn
            .lines()
            .map(|l| l.trim_matches(|c| c == '│' || c == ' '))
            .collect::<Vec<_>>()
            .join(" ");
        // Read without blanks: a path or a fingerprint wraps across rows.
        let squashed = text.replace(' ', "");
        for said in [
            &format!("the certificate of {address} has changed"),
            "Nothing was sent",
            "Someone may be intercepting the connection",
            &new,
            "Checkers club 2026-2027/program data/checkers/known_servers and connect again",
            "to be asked",
            "Enter connect",
        ] {
            assert!(
                squashed.contains(&said.replace(' ', "")),
                "{said}, at {width}x{height}:\n{drawn}"
            );
        }
        assert!(!text.contains("..."), "cut: {drawn}");
        // What to do is what can be done from here: the home screen takes no
        // --fingerprint (the full warning's advice, for `checkers online`).
        assert!(!text.contains("--fingerprint"), "{drawn}");
    }
}
