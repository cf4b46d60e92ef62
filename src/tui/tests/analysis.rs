//! The analysis board: playing moves into its tree, variations, promote and delete
//! from the keyboard, and its screen at 80x24 and 120x40 with a fixed analysis (no
//! background search: the lines shown are set by the test).

use super::key_event;
use crate::engine::Score;
use crate::game::tree::MoveTree;
use crate::pdn::PdnGame;
use crate::rules::Position;
use crate::tui::Settings;
use crate::tui::analysis::search::{Found, Report};
use crate::tui::analysis::{Act, AnalysisBoard, Done};
use crate::tui::app::Tone;
use insta::assert_snapshot;
use ratatui::crossterm::event::{Event, KeyCode, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

/// A board with no background search, from the start position, on a `width` x
/// `height` screen.
fn board(width: u16, height: u16) -> AnalysisBoard {
    AnalysisBoard::new(
        MoveTree::new(Position::start()),
        PdnGame::new(Position::start()),
        &Settings::default(),
        None,
        Rect::new(0, 0, width, height),
        "the home screen",
        false,
    )
}

/// Plays `text`'s moves by typing their squares on the board: the cursor keys are not
/// what is tested here, so each move is played through the tree's legal moves.
fn play(board: &mut AnalysisBoard, text: &str) {
    for word in text.split_whitespace() {
        let m = board.position().parse_move(word).unwrap();
        // Pick up and land as a player does: the cursor to each square, Enter.
        for sq in m.squares().iter().take(1).chain(m.squares().last()) {
            board.board.cursor = (sq.row(), sq.col());
            board.act(Act::Select);
        }
        assert_eq!(board.tree.last_move(), Some(m), "{word} was played");
    }
}

fn press(board: &mut AnalysisBoard, code: KeyCode) -> Option<Done> {
    board.handle_event(&key_event(code, KeyModifiers::NONE))
}

fn screen(board: &AnalysisBoard, width: u16, height: u16) -> String {
    super::drawn_text(width, height, |area, buf| board.render(area, buf))
}

/// A board with a main line, a variation, and a fixed analysis of the position shown.
fn analysed(width: u16, height: u16) -> AnalysisBoard {
    let mut b = board(width, height);
    play(&mut b, "11-15 23-19 8-11 22-17");
    press(&mut b, KeyCode::Char('<'));
    press(&mut b, KeyCode::Char('<'));
    play(&mut b, "9-14 22-17");
    let pos = *b.position();
    let line = |words: &str| {
        let mut p = pos;
        words
            .split_whitespace()
            .map(|w| {
                let m = p.parse_move(w).unwrap();
                p = p.play_unchecked(&m);
                m
            })
            .collect::<Vec<_>>()
    };
    b.report = Report {
        id: b.report.id,
        depth: 12,
        lines: vec![
            Found {
                score: Score(35),
                pv: line("8-11 17-13 4-8"),
            },
            Found {
                score: Score(-12),
                pv: line("5-9 24-20"),
            },
        ],
        nodes: 1000,
        done: true,
    };
    b.message = None;
    b
}

#[test]
fn a_move_from_an_earlier_position_makes_a_variation_that_promote_and_delete_change() {
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19 8-11");
    press(&mut b, KeyCode::Char('<'));
    press(&mut b, KeyCode::Char('<'));
    play(&mut b, "22-18");
    assert!(!b.tree.on_main_line());
    assert_eq!(b.tree.main_line().len(), 3);
    press(&mut b, KeyCode::Char('P'));
    assert!(b.tree.on_main_line());
    assert_eq!(b.tree.main_line().len(), 2);
    // The old main line is a variation now: v shows it, D deletes it.
    press(&mut b, KeyCode::Char('v'));
    assert!(!b.tree.on_main_line());
    press(&mut b, KeyCode::Char('D'));
    press(&mut b, KeyCode::Char('y'));
    assert_eq!(b.tree.len(), 2);
    assert_eq!(b.tree.ply(), 1);
    press(&mut b, KeyCode::End);
    assert_eq!(b.tree.ply(), 2);
    press(&mut b, KeyCode::Home);
    assert_eq!(b.tree.ply(), 0);
    // Stepping restarts the analysis: the lines of another position are gone.
    let before = b.report.id;
    press(&mut b, KeyCode::Char('>'));
    assert!(b.report.id > before && b.report.lines.is_empty());
    assert_eq!(
        press(&mut b, KeyCode::Char('q')),
        None,
        "asked first: not saved"
    );
    assert_eq!(press(&mut b, KeyCode::Char('y')), Some(Done::Leave));
}

/// Leaving the board with moves not saved asks first, by q and by Esc: any key but y
/// stays with everything kept, s opens the save dialog, and once saved q leaves at once.
#[test]
fn leaving_with_moves_not_saved_asks_first_and_a_save_ends_the_question() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = board(80, 24);
    assert_eq!(
        press(&mut b, KeyCode::Char('q')),
        Some(Done::Leave),
        "nothing to lose"
    );
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19");
    for leave in [KeyCode::Char('q'), KeyCode::Esc] {
        assert_eq!(press(&mut b, leave), None, "{leave:?} asks");
        let drawn = screen(&b, 80, 24);
        assert!(
            drawn.contains("not saved: y leaves without them"),
            "{drawn}"
        );
        assert!(drawn.contains("y leave  s save  Esc stay"), "{drawn}");
        assert_eq!(press(&mut b, KeyCode::Esc), None, "Esc stays");
        assert_eq!(b.tree.len(), 2, "nothing lost");
        assert!(screen(&b, 80, 24).contains("Still here"));
    }
    press(&mut b, KeyCode::Char('q'));
    assert_eq!(press(&mut b, KeyCode::Char('s')), None);
    assert!(b.saving.is_some(), "s opens the save dialog");
    let path = dir.path().join("kept.pdn");
    if let Some(prompt) = &mut b.saving {
        *prompt = crate::tui::analysis::save::SavePrompt::new(&path);
    }
    press(&mut b, KeyCode::Enter);
    assert!(path.exists(), "saved");
    assert_eq!(
        press(&mut b, KeyCode::Char('q')),
        Some(Done::Leave),
        "saved: leaves"
    );
}

/// D asks before it deletes a variation (it cannot be had back): any key but y keeps it.
#[test]
fn delete_asks_before_a_variation_goes() {
    let mut b = board(120, 40);
    play(&mut b, "11-15 23-19 8-11");
    press(&mut b, KeyCode::Char('<'));
    press(&mut b, KeyCode::Char('<'));
    play(&mut b, "24-20 9-14");
    press(&mut b, KeyCode::Char('D'));
    let drawn = screen(&b, 120, 40);
    assert!(drawn.contains("Delete this variation"), "{drawn}");
    assert!(drawn.contains("y delete  Esc keep"), "{drawn}");
    press(&mut b, KeyCode::Char('j'));
    assert_eq!(b.tree.len(), 5, "kept");
    assert!(screen(&b, 120, 40).contains("Kept: nothing deleted"));
    press(&mut b, KeyCode::Char('D'));
    press(&mut b, KeyCode::Char('y'));
    assert_eq!(b.tree.len(), 3, "deleted");
}

#[test]
fn a_typed_move_is_played_and_a_wrong_one_stays_to_be_edited() {
    let mut b = board(80, 24);
    for c in "11-15".chars() {
        press(&mut b, KeyCode::Char(c));
    }
    press(&mut b, KeyCode::Enter);
    assert_eq!(b.tree.ply(), 1);
    assert_eq!(b.typing, None);
    for c in "9-13".chars() {
        press(&mut b, KeyCode::Char(c));
    }
    press(&mut b, KeyCode::Enter);
    assert_eq!(b.tree.ply(), 1, "not White's move");
    assert_eq!(b.typing.as_deref(), Some("9-13"));
    press(&mut b, KeyCode::Esc);
    assert_eq!(b.typing, None);
}

/// A move typed with the wrong separator (`9x14` for a step, `9-18` for a capture) is
/// played into the tree, and the player told how it is written, as on the play board:
/// it was played without a word.
#[test]
fn a_move_typed_with_the_wrong_separator_is_played_with_a_word_on_its_notation() {
    let typed = |b: &mut AnalysisBoard, text: &str| {
        for c in text.chars() {
            press(b, KeyCode::Char(c));
        }
        press(b, KeyCode::Enter);
    };
    let said = |b: &AnalysisBoard| b.message.clone().map(|(_, text)| text).unwrap_or_default();
    let mut b = board(120, 40);
    typed(&mut b, "9x14");
    assert_eq!(b.tree.ply(), 1);
    let note = "Black played 9-14 (9x14 was typed: 9 to 14 is no capture; \
                a plain move is written 9-14)";
    assert_eq!(said(&b), note);
    assert!(
        screen(&b, 120, 40).contains(note),
        "{}",
        screen(&b, 120, 40)
    );
    let start: Position = "B:W14,30:B9,1".parse().unwrap();
    let mut b = AnalysisBoard::new(
        MoveTree::new(start),
        PdnGame::new(start),
        &Settings::default(),
        None,
        Rect::new(0, 0, 80, 24),
        "the home screen",
        false,
    );
    typed(&mut b, "9-18");
    assert_eq!(b.tree.ply(), 1);
    assert_eq!(
        said(&b),
        "Black played 9x18 (9-18 was typed: 9 to 18 is a capture, written with x: 9x18)"
    );
    // Written right, nothing more is said.
    press(&mut b, KeyCode::Char('u'));
    typed(&mut b, "9x18");
    assert_eq!(said(&b), "Black played 9x18");
}

#[test]
fn the_explorer_lists_tinsleys_moves_and_enter_plays_the_chosen_one() {
    let mut b = board(80, 24);
    press(&mut b, KeyCode::Char('o'));
    let moves = b.explored();
    assert!(moves.len() > 3, "{moves:?}");
    assert!(moves.windows(2).all(|w| w[0].1.games >= w[1].1.games));
    press(&mut b, KeyCode::Down);
    press(&mut b, KeyCode::Enter);
    assert_eq!(b.tree.last_move(), Some(moves[1].0));
    let text = screen(&b, 80, 24);
    assert!(text.contains("Explorer"), "{text}");
    press(&mut b, KeyCode::Esc);
    assert_eq!(b.explorer, None);
}

/// Below the panel's size (70x23) the explorer and the engine's lines have nowhere to
/// show: their keys say so on the status line, with the size they need, and the
/// explorer's keys never play a move from a list no one sees.
#[test]
fn without_room_for_the_panel_the_explorer_and_lines_keys_say_the_size_they_need() {
    for (w, h) in [(30, 10), (39, 14), (40, 15), (69, 30), (100, 22)] {
        let mut b = board(w, h);
        press(&mut b, KeyCode::Char('o'));
        assert_eq!(b.explorer, None, "{w}x{h}");
        let text = screen(&b, w, h);
        if h < crate::tui::geometry::MIN_HEIGHT {
            // Not even the board: the screen says how big it must be.
            assert!(text.contains("terminal too small"), "{w}x{h}: {text}");
            continue;
        }
        assert!(
            text.contains("Explorer needs a 70x23 terminal"),
            "{w}x{h}: {text}"
        );
        press(&mut b, KeyCode::Down);
        press(&mut b, KeyCode::Enter);
        assert_eq!(b.tree.len(), 0, "{w}x{h}: no move played");
        let on = b.on;
        press(&mut b, KeyCode::Char('e'));
        if !on {
            let text = screen(&b, w, h);
            assert!(
                text.contains("Analysis on (more lines need 70x23)"),
                "{w}x{h}: {text}"
            );
        }
        press(&mut b, KeyCode::Char('+'));
        let text = screen(&b, w, h);
        let said = format!("Best lines: {} (all need 70x23)", b.lines);
        assert!(text.contains(&said), "{w}x{h}: {text}");
    }
    // With the panel the explorer opens; made too small, its keys act on the board
    // again (Enter does not play its first move unseen), and the panel's return
    // shows it again.
    let mut b = board(80, 24);
    press(&mut b, KeyCode::Char('o'));
    assert_eq!(b.explorer, Some(0));
    assert!(screen(&b, 80, 24).contains("Explorer"));
    b.handle_event(&Event::Resize(40, 15));
    press(&mut b, KeyCode::Enter);
    assert_eq!(b.tree.len(), 0, "no move played from the hidden explorer");
    b.handle_event(&Event::Resize(80, 24));
    press(&mut b, KeyCode::Char('e'));
    let text = screen(&b, 80, 24);
    assert!(text.contains("Explorer"), "{text}");
    assert!(text.contains("Analysis o"), "{text}");
    assert!(!text.contains("need 70x23"), "{text}");
}

/// The explorer's columns line up under their heading with a multi-jump listed (its
/// route ran into the games column), and at 70 columns, the narrowest panel, the
/// heading is whole in short (it was cut to "B win/draw/W").
#[test]
fn the_explorers_columns_line_up_and_its_heading_fits_the_narrowest_panel() {
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-18 9-14 18x9 5x14 22-17 12-16 24-19 16x23");
    press(&mut b, KeyCode::Char('o'));
    assert!(
        b.explored().iter().any(|(m, _)| m.to_string() == "27x18x9"),
        "{:?}",
        b.explored()
    );
    let text = screen(&b, 80, 24);
    let panel = |line: &str| line.rsplit_once("││").map(|(_, p)| p.to_string());
    let rows: Vec<String> = text.lines().filter_map(panel).collect();
    let heading = rows
        .iter()
        .find(|r| r.contains("games"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(heading.contains("B win/draw/W win"), "{text}");
    let games_end = heading.find("games").unwrap() + "games".len();
    let listed: Vec<&String> = rows
        .iter()
        .filter(|r| r.contains('/') && !r.contains("games"))
        .collect();
    assert!(!listed.is_empty(), "{text}");
    for row in listed {
        let end = row[..games_end].trim_end().len();
        assert_eq!(end, games_end, "games column: {row:?}\n{text}");
        assert_eq!(row.as_bytes()[games_end], b' ', "{row:?}\n{text}");
    }
    let mut b = board(70, 24);
    press(&mut b, KeyCode::Char('o'));
    let text = screen(&b, 70, 24);
    assert!(text.contains("  move  games  B/draw/W  "), "{text}");
}

#[test]
fn m_in_the_explorer_switches_to_the_players_own_games_and_back() {
    let mut b = board(120, 40);
    // The player's own games, as read from the games folder (set here so the test does
    // not read the machine's data folder).
    b.my_games = Some(crate::explorer::Explorer::of_text(
        "[Result \"0-1\"]\n\n1. 9-14 22-18 0-1\n",
        None,
    ));
    press(&mut b, KeyCode::Char('o'));
    let text = screen(&b, 120, 40);
    assert!(text.contains("Explorer: Tinsley's games"), "{text}");
    press(&mut b, KeyCode::Char('m'));
    let text = screen(&b, 120, 40);
    assert!(text.contains("Explorer: your games"), "{text}");
    let moves = b.explored();
    assert_eq!(moves.len(), 1, "{moves:?}");
    assert_eq!(Position::start().notation(&moves[0].0), "9-14");
    assert_eq!(moves[0].1.white_wins, 1);
    press(&mut b, KeyCode::Char('m'));
    let text = screen(&b, 120, 40);
    assert!(text.contains("Explorer: Tinsley's games"), "{text}");
    assert!(b.explored().len() > 3);
}

/// With a file given (`--explore-pdn`), `m` goes round Tinsley's games, the player's
/// own and the file's, the panel's title naming the file (a long name cut to fit, the
/// title's keys kept), and the help says `m` reaches the file.
#[test]
fn m_in_the_explorer_goes_round_tinsleys_yours_and_the_files_games() {
    let club = || crate::explorer::Explorer::of_text(CLUB_FILE, None);
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let mut b = board(w, h);
        b.my_games = Some(crate::explorer::Explorer::of_text("", None));
        b.file_games = Some(("club.pdn".to_string(), club()));
        press(&mut b, KeyCode::Char('o'));
        assert!(screen(&b, w, h).contains("Explorer: Tinsley's games (o)"));
        press(&mut b, KeyCode::Char('m'));
        let text = screen(&b, w, h);
        assert!(
            text.contains("Explorer: your games (o, m)"),
            "{w}x{h}: {text}"
        );
        // Where the player has no game yet, `m` is said to lead on to the file.
        press(&mut b, KeyCode::Enter);
        let said = b.message.clone().map(|(_, text)| text).unwrap_or_default();
        assert!(said.ends_with("(m: club.pdn)"), "{said}");
        press(&mut b, KeyCode::Char('m'));
        let text = screen(&b, w, h);
        assert!(
            text.contains("Explorer: club.pdn (o, m)"),
            "{w}x{h}: {text}"
        );
        let moves = b.explored();
        assert_eq!(moves.len(), 1, "{moves:?}");
        assert_eq!(Position::start().notation(&moves[0].0), "10-14");
        assert_eq!((moves[0].1.games, moves[0].1.black_wins), (2, 1));
        assert!(text.contains("> 10-14     2  1/1/0"), "{w}x{h}: {text}");
        press(&mut b, KeyCode::Char('m'));
        assert!(screen(&b, w, h).contains("Explorer: Tinsley's games (o)"));
        press(&mut b, KeyCode::Char('?'));
        // On one row of the help, beside its key.
        let text = screen(&b, w, h);
        let help = "o           explorer: Up/Down, Enter plays; m: Tinsley's / yours / the file";
        assert!(text.contains(help), "{w}x{h}: {text}");
    }
    // A name longer than the title's room is cut with an ellipsis, its keys and the
    // border's corner kept.
    let mut b = board(80, 24);
    b.file_games = Some((
        "club games of the twentieth century tournament.pdn".to_string(),
        club(),
    ));
    b.my_games = Some(crate::explorer::Explorer::of_text("", None));
    press(&mut b, KeyCode::Char('o'));
    press(&mut b, KeyCode::Char('m'));
    press(&mut b, KeyCode::Char('m'));
    let text = screen(&b, 80, 24);
    let title = text
        .lines()
        .find(|l| l.contains("Explorer:"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(title.contains("Explorer: club games"), "{text}");
    assert!(title.contains("\u{2026} (o, m) ─"), "{text}");
    assert!(title.trim_end().ends_with('┐'), "{text}");
}

/// Two games of a club's file, both opening 10-14: a Black win and a draw.
const CLUB_FILE: &str =
    "[Result \"1/2-1/2\"]\n\n1. 10-14 22-17 1/2-1/2\n\n[Result \"1-0\"]\n\n1. 10-14 21-17 1-0\n";

/// Where the explorer has nothing to list, the panel says why in full at 80 and 120
/// columns (it was cut to "...goes on fr"), and with no saved game of the player's, that
/// there is none yet.
#[test]
fn the_explorer_says_why_it_lists_nothing_in_full() {
    let panel_text = |text: &str| -> String {
        text.lines()
            .filter_map(|line| line.rsplit_once("││").map(|(_, panel)| panel))
            .map(|panel| panel.trim_end().trim_end_matches('│').trim())
            .collect::<Vec<_>>()
            .join(" ")
    };
    for (w, h) in [(80, 24), (120, 40)] {
        let mut b = board(w, h);
        // Moves no Tinsley game played.
        play(&mut b, "12-16 24-20 16-19");
        press(&mut b, KeyCode::Char('o'));
        assert!(b.explored().is_empty());
        let text = screen(&b, w, h);
        assert!(
            panel_text(&text).contains("No game of the collection goes on from here"),
            "{w}x{h}: {text}"
        );
        b.my_games = Some(crate::explorer::Explorer::of_text("", None));
        press(&mut b, KeyCode::Char('m'));
        let text = screen(&b, w, h);
        assert!(
            panel_text(&text).contains("No saved game of yours yet"),
            "{w}x{h}: {text}"
        );
        press(&mut b, KeyCode::Enter);
        let said = b.message.clone().map(|(_, text)| text).unwrap_or_default();
        assert!(said.starts_with("No saved game of yours yet"), "{said}");
    }
}

#[test]
fn plus_and_minus_change_the_lines_from_one_to_five() {
    let mut b = board(80, 24);
    for _ in 0..9 {
        press(&mut b, KeyCode::Char('+'));
    }
    assert_eq!(b.lines, 5);
    for _ in 0..9 {
        press(&mut b, KeyCode::Char('-'));
    }
    assert_eq!(b.lines, 1);
    press(&mut b, KeyCode::Char('e'));
    assert!(!b.on);
    assert_eq!(b.best_move(), None);
}

#[test]
fn analysis_board_80x24() {
    assert_snapshot!(screen(&analysed(80, 24), 80, 24));
}

#[test]
fn analysis_board_120x40() {
    assert_snapshot!(screen(&analysed(120, 40), 120, 40));
}

#[test]
fn analysis_board_help_80x24() {
    let mut b = analysed(80, 24);
    press(&mut b, KeyCode::Char('?'));
    assert_snapshot!(screen(&b, 80, 24));
}

/// The analysis board's help draws on a blank cell round it: its border does not run
/// into the panel's or the board's beside it (at 80x24 it had read "┐┐" and "┌│").
#[test]
fn the_analysis_help_stands_clear_of_the_board_and_panel_borders() {
    for (w, h) in [(80, 24), (100, 30), (120, 40), (200, 60)] {
        let mut b = analysed(w, h);
        press(&mut b, KeyCode::Char('?'));
        let text = screen(&b, w, h);
        assert!(text.contains("Analysis board: keys"), "{w}x{h}: {text}");
        // "││" is the board beside the panel, as without the help.
        for doubled in ["┐┐", "┌│", "└│", "│┘", "┘┘", "┌┌", "│─", "─│"]
        {
            assert!(!text.contains(doubled), "{w}x{h} {doubled}: {text}");
        }
    }
}

#[test]
fn the_best_move_is_played_with_b_and_marked_until_then() {
    let mut b = analysed(80, 24);
    let best = b.best_move().unwrap();
    press(&mut b, KeyCode::Char('b'));
    assert_eq!(b.tree.last_move(), Some(best));
    // A new position: no best move until the search has one.
    assert_eq!(b.best_move(), None);
}

#[test]
fn explorer_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut b = board(w, h);
        play(&mut b, "11-15");
        press(&mut b, KeyCode::Char('o'));
        press(&mut b, KeyCode::Down);
        b.message = None;
        assert_snapshot!(format!("explorer_{w}x{h}"), screen(&b, w, h));
    }
}

/// A left click at (`column`, `row`).
fn click(board: &mut AnalysisBoard, column: u16, row: u16) -> Option<Done> {
    use ratatui::crossterm::event::{Event, MouseButton, MouseEvent, MouseEventKind};
    board.handle_event(&Event::Mouse(MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column,
        row,
        modifiers: KeyModifiers::NONE,
    }))
}

/// Where `word` is drawn in the move list of the screen `text`: (column, row).
fn in_move_list(text: &str, word: &str) -> (u16, u16) {
    let lines: Vec<&str> = text.lines().collect();
    let title = lines.iter().position(|l| l.contains(" Moves ")).unwrap();
    for (row, line) in lines.iter().enumerate().skip(title + 1) {
        let chars: Vec<char> = line.chars().collect();
        let wanted: Vec<char> = word.chars().collect();
        if let Some(column) = chars.windows(wanted.len()).position(|w| w == wanted) {
            return (u16::try_from(column).unwrap(), u16::try_from(row).unwrap());
        }
    }
    panic!("{word} is not in the move list:\n{text}");
}

#[test]
fn a_click_on_a_move_of_the_list_goes_to_it_as_on_the_board() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut b = analysed(w, h);
        b.mouse = true;
        let shown = b.tree.current();
        let text = screen(&b, w, h);
        // The main line's second move, then the variation's first.
        let (column, row) = in_move_list(&text, "23-19");
        assert_eq!(click(&mut b, column + 2, row), None);
        assert_eq!(
            b.tree.moves_to_current(),
            vec![
                Position::start().parse_move("11-15").unwrap(),
                Position::start()
                    .play_unchecked(&Position::start().parse_move("11-15").unwrap())
                    .parse_move("23-19")
                    .unwrap()
            ],
            "{w}x{h}: at 23-19"
        );
        assert!(b.tree.on_main_line());
        let text = screen(&b, w, h);
        let (column, row) = in_move_list(&text, "9-14");
        click(&mut b, column, row);
        assert!(!b.tree.on_main_line(), "{w}x{h}: in the variation");
        assert_eq!(b.tree.ply(), 3);
        // A click beside the moves (on a move number, or a blank) changes nothing.
        let (column, row) = in_move_list(&screen(&b, w, h), "1.");
        click(&mut b, column, row);
        assert_eq!(b.tree.ply(), 3);
        assert_ne!(b.tree.current(), shown);
    }
}

#[test]
fn the_save_dialog_offers_a_new_file_asks_before_changing_one_and_says_where() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = analysed(80, 24);
    press(&mut b, KeyCode::Char('s'));
    let offered = b.saving.clone().unwrap().path.text;
    assert!(
        offered.contains("analysis-") && offered.ends_with(".pdn"),
        "{offered}"
    );
    // The name typed instead.
    for _ in 0..offered.chars().count() {
        press(&mut b, KeyCode::Backspace);
    }
    let path = dir.path().join("study.pdn");
    for c in path.display().to_string().chars() {
        press(&mut b, KeyCode::Char(c));
    }
    press(&mut b, KeyCode::Enter);
    assert_eq!(b.saving, None);
    let told = b.message.clone().unwrap().1;
    assert!(
        told.starts_with("Saved to ") && told.contains("study.pdn"),
        "{told}"
    );
    let games = |path: &std::path::Path| {
        std::fs::read_to_string(path)
            .unwrap()
            .matches("[Event \"Analysis\"]")
            .count()
    };
    assert_eq!(games(&path), 1);
    // Saved again: the same file is offered, and asked about before it changes.
    press(&mut b, KeyCode::Char('s'));
    assert_eq!(
        b.saving.clone().unwrap().path.text,
        path.display().to_string()
    );
    press(&mut b, KeyCode::Enter);
    b.message = None;
    let text = screen(&b, 80, 24);
    assert!(text.contains("is there already"), "{text}");
    assert_eq!(games(&path), 1, "nothing written while it asks");
    press(&mut b, KeyCode::Char('a'));
    assert!(
        b.message
            .clone()
            .unwrap()
            .1
            .starts_with("Added after the games of")
    );
    assert_eq!(games(&path), 2);
    press(&mut b, KeyCode::Char('s'));
    press(&mut b, KeyCode::Enter);
    press(&mut b, KeyCode::Char('r'));
    assert!(b.message.clone().unwrap().1.starts_with("Replaced"));
    assert_eq!(games(&path), 1);
    // Esc while it asks goes back to the name; Esc then closes, nothing saved.
    press(&mut b, KeyCode::Char('s'));
    press(&mut b, KeyCode::Enter);
    press(&mut b, KeyCode::Esc);
    assert_eq!(b.saving.as_ref().and_then(|s| s.exists.clone()), None);
    assert!(b.saving.is_some());
    press(&mut b, KeyCode::Esc);
    assert_eq!(b.saving, None);
    assert_eq!(b.message.clone().unwrap().1, "Not saved");
    // A folder is not a file to save to: said, and the name stays to be edited.
    press(&mut b, KeyCode::Char('s'));
    for _ in 0..path.display().to_string().chars().count() {
        press(&mut b, KeyCode::Backspace);
    }
    for c in dir.path().display().to_string().chars() {
        press(&mut b, KeyCode::Char(c));
    }
    press(&mut b, KeyCode::Enter);
    assert!(b.saving.is_some());
    assert!(b.message.clone().unwrap().1.contains("is a folder"));
}

#[test]
fn save_dialog_80x24_and_120x40() {
    for (w, h) in [(80, 24), (120, 40)] {
        let mut b = analysed(w, h);
        b.saving = Some(crate::tui::analysis::save::SavePrompt::new(
            std::path::Path::new("/home/ann/.local/share/checkers/analysis-2026-12-05-041500.pdn"),
        ));
        assert_snapshot!(format!("save_dialog_{w}x{h}"), screen(&b, w, h));
        b.saving.as_mut().unwrap().exists =
            Some("/home/ann/.local/share/checkers/study.pdn".into());
        assert_snapshot!(format!("save_dialog_exists_{w}x{h}"), screen(&b, w, h));
    }
}

#[test]
fn ctrl_u_clears_the_save_prompts_path_and_no_ctrl_letter_types() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = analysed(80, 24);
    press(&mut b, KeyCode::Char('s'));
    let ctrl = |b: &mut AnalysisBoard, c| {
        b.handle_event(&key_event(KeyCode::Char(c), KeyModifiers::CONTROL))
    };
    ctrl(&mut b, 'a');
    ctrl(&mut b, 'u');
    let path = dir.path().join("ana.pdn");
    for c in path.display().to_string().chars() {
        press(&mut b, KeyCode::Char(c));
    }
    let text = screen(&b, 80, 24);
    assert!(
        text.contains(&format!("Save to: {}", path.display())),
        "{text}"
    );
    press(&mut b, KeyCode::Enter);
    let told = b.message.clone().unwrap().1;
    assert_eq!(told, format!("Saved to {}", path.display()));
    assert!(path.is_file());
}

#[test]
fn a_key_that_does_nothing_on_the_analysis_board_says_so_and_names_it() {
    let mut board = board(80, 24);
    let before = board.tree.position().to_string();
    for (code, modifiers, name) in [
        (KeyCode::Char('x'), KeyModifiers::NONE, "x"),
        (KeyCode::Char('x'), KeyModifiers::CONTROL, "Ctrl-X"),
        (KeyCode::F(5), KeyModifiers::NONE, "F5"),
    ] {
        assert_eq!(board.handle_event(&key_event(code, modifiers)), None);
        let note = format!("The key {name} does nothing here; ? shows every key");
        assert_eq!(
            board.message.as_ref().map(|(_, m)| m.as_str()),
            Some(note.as_str())
        );
        assert!(
            screen(&board, 80, 24).contains("? shows every key"),
            "{name}"
        );
    }
    assert_eq!(board.tree.position().to_string(), before);
    // ? is the key it names: the help opens.
    press(&mut board, KeyCode::Char('?'));
    assert!(board.help);
    // While a move is typed, a Ctrl key neither types nor speaks.
    press(&mut board, KeyCode::Esc);
    press(&mut board, KeyCode::Char('1'));
    board.message = None;
    board.handle_event(&key_event(KeyCode::Char('x'), KeyModifiers::CONTROL));
    assert_eq!(board.typing.as_deref(), Some("1"));
    assert_eq!(board.message, None);
}

#[test]
fn a_key_with_alt_is_not_its_letter_on_the_analysis_board_and_says_so() {
    let mut board = analysed(80, 24);
    let shown = board.tree.current();
    let lines = board.lines;
    for (code, name) in [
        (KeyCode::Char('v'), "Alt-v"),
        (KeyCode::Char('+'), "Alt-+"),
        (KeyCode::Char('1'), "Alt-1"),
        (KeyCode::Char('q'), "Alt-q"),
        (KeyCode::Char('<'), "Alt-<"),
    ] {
        assert_eq!(
            board.handle_event(&key_event(code, KeyModifiers::ALT)),
            None,
            "{name}"
        );
        let note = format!("The key {name} does nothing here; ? shows every key");
        assert_eq!(
            board.message.as_ref().map(|(_, m)| m.as_str()),
            Some(note.as_str())
        );
        assert!(screen(&board, 80, 24).contains(&note), "{name}");
    }
    assert_eq!(board.tree.current(), shown, "no variation or step taken");
    assert_eq!(board.lines, lines);
    assert_eq!(board.typing, None, "Alt-1 opens no prompt");
    // Ctrl-C still quits.
    assert_eq!(
        board.handle_event(&key_event(KeyCode::Char('c'), KeyModifiers::CONTROL)),
        Some(Done::Quit)
    );
}

#[test]
fn alt_r_does_not_replace_a_file_the_save_dialog_asks_about() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("kept.pdn");
    std::fs::write(&path, "[Event \"Kept\"]\n1. 11-15 *\n").unwrap();
    let mut b = analysed(80, 24);
    press(&mut b, KeyCode::Char('s'));
    b.saving.as_mut().unwrap().path =
        crate::tui::field::TextField::new(path.display().to_string(), 300);
    press(&mut b, KeyCode::Enter);
    assert!(b.saving.as_ref().unwrap().exists.is_some(), "it asks");
    b.handle_event(&key_event(KeyCode::Char('r'), KeyModifiers::ALT));
    b.handle_event(&key_event(KeyCode::Char('a'), KeyModifiers::ALT));
    assert!(b.saving.as_ref().unwrap().exists.is_some(), "it still asks");
    assert!(std::fs::read_to_string(&path).unwrap().contains("Kept"));
    assert!(!std::fs::read_to_string(&path).unwrap().contains("Analysis"));
    // r, the key it names, replaces it.
    press(&mut b, KeyCode::Char('r'));
    assert_eq!(b.saving, None);
    assert!(!std::fs::read_to_string(&path).unwrap().contains("Kept"));
}

/// Below the panel's size the engine's best line still shows, on a row of its own: the
/// status's spare row where it has two, else the keys' row (with `?` for the keys).
#[test]
fn without_the_panel_the_engines_best_line_shows_in_one_row_cut_to_the_width() {
    let row_of = |text: &str, word: &str| -> Option<String> {
        text.lines().find(|l| l.contains(word)).map(str::to_string)
    };
    for (w, h, keys_row) in [
        (60, 20, false),
        (69, 22, false),
        (69, 26, true),
        (40, 15, true),
    ] {
        let b = analysed(w, h);
        let text = screen(&b, w, h);
        let rows: Vec<&str> = text.lines().collect();
        let engine =
            row_of(&text, "Engine +0.35 d12:").unwrap_or_else(|| panic!("{w}x{h}: {text}"));
        // The best line's moves, numbered, as far as whole moves fit.
        assert!(
            engine.contains("Engine +0.35 d12: 3. 8-11"),
            "{w}x{h}: {engine}"
        );
        if w >= 60 {
            assert!(engine.contains("3. 8-11 17-13 4. 4-8"), "{w}x{h}: {engine}");
        }
        let at = rows
            .iter()
            .position(|r| r.contains("Engine +0.35"))
            .unwrap();
        if keys_row {
            // The keys keep their row, below the engine's.
            assert!(rows[at + 1].contains("? help"), "{w}x{h}: {text}");
        } else {
            assert!(
                rows[at].trim_end().ends_with("? help  q leave"),
                "{w}x{h}: {text}"
            );
            // The status line above it keeps its news.
            assert!(rows[at - 1].contains("After move 2"), "{w}x{h}: {text}");
        }
    }
    // Cut after a whole move on a narrow screen: nothing past the width, no half move;
    // the word Engine left out to show two moves.
    let b = analysed(30, 12);
    let text = screen(&b, 30, 12);
    let engine = row_of(&text, "d12:").unwrap_or_else(|| panic!("{text}"));
    assert_eq!(engine.trim_end(), "+0.35 d12: 3. 8-11 17-13", "{text}");
    // Analysis off, it says how to turn it on.
    let mut b = analysed(60, 20);
    press(&mut b, KeyCode::Char('e'));
    let text = screen(&b, 60, 20);
    assert!(text.contains("Analysis off: e turns it on"), "{text}");
    // With the panel nothing changes: the lines are in it, the keys under the status.
    let b = analysed(80, 24);
    let text = screen(&b, 80, 24);
    assert!(!text.contains("Engine +"), "{text}");
    assert!(text.contains("q leave"), "{text}");
}

/// The analysis board names a multi-jump by its route (`19x10x1`), as the game's move
/// list does: in the engine's lines, the status line and the move list; its PDN keeps
/// the record's short form (`19x1`).
#[test]
fn the_analysis_board_names_a_multi_jump_by_its_route() {
    // White to move, with a capture 19x10x1 (kings on 2 and 30 besides).
    let start: Position = "W:WK30,21,22,23,26,19:BK2,6,9,11,14,15".parse().unwrap();
    let mut b = AnalysisBoard::new(
        MoveTree::new(start),
        PdnGame::new(start),
        &Settings::default(),
        None,
        Rect::new(0, 0, 120, 40),
        "the home screen",
        false,
    );
    let route = start.parse_move("19x1").unwrap();
    b.report = Report {
        id: b.report.id,
        depth: 3,
        lines: vec![Found {
            score: Score(120),
            pv: vec![route],
        }],
        nodes: 10,
        done: true,
    };
    let text = screen(&b, 120, 40);
    assert!(text.contains("1... 19x10x1"), "the engine's line: {text}");
    // Typed in the record's short form.
    for c in "19x1".chars() {
        press(&mut b, KeyCode::Char(c));
    }
    press(&mut b, KeyCode::Enter);
    assert_eq!(b.tree.last_move(), Some(route));
    let said = b.message.clone().map(|(_, text)| text).unwrap_or_default();
    assert_eq!(said, "White played 19x10x1", "the status line");
    b.message = None;
    let text = screen(&b, 120, 40);
    assert!(text.contains("? help"), "drawn whole: {text}");
    assert!(text.contains("19x10x1"), "the move list: {text}");
    assert!(!text.contains("19x1 "), "{text}");
    let pdn = crate::pdn::write_tree(&b.record, &b.tree);
    assert!(pdn.contains("19x1") && !pdn.contains("19x10x1"), "{pdn}");
}

/// A player with only a mouse leaves the analysis board by the key line's "q leave",
/// and, on a screen too small for the keys beside the engine's line, opens the help by
/// its "? help".
#[test]
fn the_key_line_is_clicked_to_leave_and_for_help() {
    for (width, height) in [(80, 24), (120, 40)] {
        let mut b = board(width, height);
        let drawn = screen(&b, width, height);
        let click = super::click_on_text(&drawn, "q leave");
        assert_eq!(
            b.handle_event(&click),
            Some(Done::Leave),
            "{width}x{height}"
        );
    }
    for (width, height) in [(40, 12), (34, 12)] {
        let mut b = board(width, height);
        let drawn = screen(&b, width, height);
        let help = drawn.lines().rfind(|row| row.contains("? help"));
        assert!(help.is_some(), "{width}x{height}:\n{drawn}");
        let click = super::click_on_text(&drawn, "? help");
        assert_eq!(b.handle_event(&click), None);
        assert!(b.help, "{width}x{height}: the help opens");
    }
}

#[test]
fn a_comment_in_chinese_leaves_the_moves_after_it_on_screen_and_clickable() {
    // The comment is 25 characters, 48 columns: counted as 25, the next move was put on
    // its row, past the panel's edge, and neither drawn nor clickable.
    let mut b = board(80, 24);
    b.mouse = true;
    play(&mut b, "11-15 23-19");
    let second = b.tree.current();
    b.tree
        .add_comment(second, "王小明太郎王小明太郎 東京東京東京東京東京東京");
    play(&mut b, "8-11");
    press(&mut b, KeyCode::Home);
    let text = screen(&b, 80, 24);
    // In the test buffer a wide character's second column is a space of its own.
    assert!(text.contains("王 小 明"), "{text}");
    let (column, row) = in_move_list(&text, "8-11");
    click(&mut b, column + 1, row);
    assert_eq!(b.tree.ply(), 3, "the click reached 8-11:\n{text}");
}

/// On a screen too narrow for the engine's line beside the keys, and on the smallest
/// one (whose one row under the board is the keys'), help and leave are drawn, a click
/// on them does what the key does, a click on the help closes it, and the engine's
/// line is still read (on the status row, or on the frame's free edge).
#[test]
fn on_the_smallest_screens_help_and_leave_are_a_click_away_and_the_engine_still_shows() {
    for (w, h) in [(26, 11), (30, 12), (40, 14)] {
        let mut b = analysed(w, h);
        let text = screen(&b, w, h);
        let keys = text.lines().rfind(|l| !l.trim().is_empty()).unwrap();
        assert!(keys.contains("? help  q leave"), "{w}x{h}:\n{text}");
        assert!(text.contains("d12: 3. 8-11"), "{w}x{h}:\n{text}");
        let at = |text: &str, word: &str| {
            let lines: Vec<&str> = text.lines().collect();
            let row = lines.iter().rposition(|l| l.contains(word)).unwrap();
            let line = lines[row];
            let column = line[..line.find(word).unwrap()].chars().count();
            (u16::try_from(column).unwrap(), u16::try_from(row).unwrap())
        };
        let (column, row) = at(&text, "? help");
        assert_eq!(click(&mut b, column, row), None);
        assert!(b.help, "{w}x{h}: a click on ? help shows the help");
        assert_eq!(click(&mut b, column, row), None);
        assert!(!b.help, "{w}x{h}: a click closes the help");
        let (column, row) = at(&text, "q leave");
        // The moves played are not saved: the click asks, and "y leave" leaves.
        assert_eq!(click(&mut b, column + 2, row), None, "{w}x{h}");
        let text = screen(&b, w, h);
        let (column, row) = at(&text, "y leave");
        assert_eq!(
            click(&mut b, column + 2, row),
            Some(Done::Leave),
            "{w}x{h}:\n{text}"
        );
    }
}

/// Without the panel, the one-row engine line of an endgame in the databases shows the
/// best line's moves: the longer words of the databases' result give way to them.
#[test]
fn the_one_row_engine_line_of_an_endgame_shows_its_moves() {
    let start: Position = "W:WK30,K22:BK11".parse().unwrap();
    let db = crate::engine::tests::egdb::db().clone();
    assert!(db.probe(&start).is_some());
    for (w, h) in [(70, 22), (60, 20), (26, 11)] {
        let mut b = AnalysisBoard::new(
            MoveTree::new(start),
            PdnGame::new(start),
            &Settings::default(),
            Some(db.clone()),
            Rect::new(0, 0, w, h),
            "the home screen",
            false,
        );
        let pv = db.best_line(&start, 6);
        assert!(pv.len() >= 2);
        b.report = Report {
            id: b.report.id,
            depth: 9,
            lines: vec![Found {
                score: Score(-9990),
                pv: pv.clone(),
            }],
            nodes: 1000,
            done: true,
        };
        b.message = None;
        let text = screen(&b, w, h);
        let first = format!("1... {}", pv[0]);
        assert!(text.contains(&first), "{w}x{h}: {first}\n{text}");
        if w >= 60 {
            // Two moves at least, and the databases' result.
            assert!(
                text.contains(&format!("{first} 2. {}", pv[1])),
                "{w}x{h}:\n{text}"
            );
            assert!(text.contains("White wins in"), "{w}x{h}:\n{text}");
        }
    }
}

/// c types a comment on the move shown, from the keyboard: the move list shows it, the
/// save writes it with the variations, and the file read back holds both.
#[test]
fn c_comments_on_the_move_shown_and_the_comment_and_variations_survive_a_save() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = board(120, 40);
    play(&mut b, "11-15 23-19 8-11");
    press(&mut b, KeyCode::Char('<'));
    press(&mut b, KeyCode::Char('<'));
    play(&mut b, "22-18");
    press(&mut b, KeyCode::Char('c'));
    let drawn = screen(&b, 120, 40);
    assert!(drawn.contains("Comment on 22-18:"), "{drawn}");
    for c in "the Single Corner".chars() {
        press(&mut b, KeyCode::Char(c));
    }
    press(&mut b, KeyCode::Enter);
    let drawn = screen(&b, 120, 40);
    assert!(drawn.contains("{the Single Corner}"), "{drawn}");
    assert!(b.unsaved, "a comment is work to keep");
    // Esc leaves a comment as it was.
    press(&mut b, KeyCode::Char('c'));
    press(&mut b, KeyCode::Char('x'));
    press(&mut b, KeyCode::Esc);
    assert_eq!(b.tree.comment(b.tree.current()), Some("the Single Corner"));
    let path = dir.path().join("commented.pdn");
    press(&mut b, KeyCode::Char('s'));
    if let Some(prompt) = &mut b.saving {
        *prompt = crate::tui::analysis::save::SavePrompt::new(&path);
    }
    press(&mut b, KeyCode::Enter);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("(1... 22-18 {the Single Corner})"), "{text}");
    let (record, tree, fault) = crate::tui::analysis::load_tree(&path, 1).unwrap();
    assert!(fault.is_none());
    assert_eq!(
        crate::pdn::write_tree(&record, &tree),
        text,
        "read back whole"
    );
}

#[test]
fn a_loaded_record_without_a_date_is_saved_from_the_analysis_board_undated() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("undated.pdn");
    std::fs::write(
        &from,
        "[Event \"Ohio State Ty 1946\"]\n[Black \"MF Tinsley\"]\n[White \"M Rex\"]\n\
         [Result \"*\"]\n1. 11-15 23-18 *\n",
    )
    .unwrap();
    let (record, tree, _) = crate::tui::analysis::load_tree(&from, 1).unwrap();
    let mut b = AnalysisBoard::new(
        tree,
        record,
        &Settings::default(),
        None,
        Rect::new(0, 0, 80, 24),
        "the command line",
        false,
    );
    let path = dir.path().join("saved.pdn");
    press(&mut b, KeyCode::Char('s'));
    if let Some(prompt) = &mut b.saving {
        *prompt = crate::tui::analysis::save::SavePrompt::new(&path);
    }
    press(&mut b, KeyCode::Enter);
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("[Date \"????.??.??\"]"), "{text}");
    assert!(text.contains("[Event \"Ohio State Ty 1946\"]"), "{text}");
    // A tree begun on the board is today's.
    let mut fresh = board(80, 24);
    play(&mut fresh, "11-15");
    let path = dir.path().join("fresh.pdn");
    press(&mut fresh, KeyCode::Char('s'));
    if let Some(prompt) = &mut fresh.saving {
        *prompt = crate::tui::analysis::save::SavePrompt::new(&path);
    }
    press(&mut fresh, KeyCode::Enter);
    let text = std::fs::read_to_string(&path).unwrap();
    let today = format!("[Date \"{}\"]", crate::store::today());
    assert!(text.contains(&today), "{text}");
}

/// Saves `board`'s tree to `path` as a player does (s, the file's name, Enter) and
/// returns the file's text.
fn saved_text(board: &mut AnalysisBoard, path: &std::path::Path) -> String {
    press(board, KeyCode::Char('s'));
    if let Some(prompt) = &mut board.saving {
        *prompt = crate::tui::analysis::save::SavePrompt::new(path);
    }
    press(board, KeyCode::Enter);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn a_loaded_record_without_an_event_is_saved_from_the_analysis_board_with_none_invented() {
    let dir = tempfile::tempdir().unwrap();
    let from = dir.path().join("no-event.pdn");
    let pdn = "[Date \"1946.05.01\"]\n[Black \"MF Tinsley\"]\n[White \"M Rex\"]\n\
               [Result \"1-0\"]\n1. 11-15 23-18 1-0\n";
    std::fs::write(&from, pdn).unwrap();
    let (record, tree, _) = crate::tui::analysis::load_tree(&from, 1).unwrap();
    let mut b = AnalysisBoard::new(
        tree,
        record,
        &Settings::default(),
        None,
        Rect::new(0, 0, 80, 24),
        "the command line",
        false,
    );
    let text = saved_text(&mut b, &dir.path().join("saved.pdn"));
    assert!(text.contains("[Event \"?\"]"), "{text}");
    assert!(!text.contains("Analysis"), "{text}");
    assert!(text.contains("[Date \"1946.05.01\"]"), "{text}");
    // The same record reviewed in the game, then `A`: the analysis board keeps it too.
    let mut app = super::review_app(pdn);
    super::press(&mut app, KeyCode::Char('A'));
    let b = app.analysis.as_mut().expect("the analysis board opened");
    let text = saved_text(b, &dir.path().join("from-review.pdn"));
    assert!(text.contains("[Event \"?\"]"), "{text}");
    assert!(!text.contains("Analysis"), "{text}");
    // A tree begun on the board is the board's own analysis.
    let mut fresh = board(80, 24);
    play(&mut fresh, "11-15");
    let text = saved_text(&mut fresh, &dir.path().join("fresh.pdn"));
    assert!(text.contains("[Event \"Analysis\"]"), "{text}");
}

#[test]
fn undo_takes_back_the_last_move_entered_and_redo_plays_it_again() {
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19 8-11");
    b.unsaved = false;
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(b.tree.main_line().len(), 2, "8-11 is gone from the tree");
    assert_eq!(b.tree.ply(), 2);
    let drawn = screen(&b, 80, 24);
    assert!(drawn.contains("Took back 8-11 (U redoes)"), "{drawn}");
    assert!(b.unsaved);
    // U and Ctrl-R play the moves taken back again.
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(b.tree.len(), 1);
    press(&mut b, KeyCode::Char('U'));
    assert_eq!(b.tree.len(), 2);
    b.handle_event(&key_event(KeyCode::Char('r'), KeyModifiers::CONTROL));
    assert_eq!(b.tree.main_line().len(), 3);
    assert_eq!(b.tree.ply(), 3);
    assert!(screen(&b, 80, 24).contains("Played again: 8-11"));
    press(&mut b, KeyCode::Char('U'));
    assert!(screen(&b, 80, 24).contains("Nothing to redo"));
    // A variation deleted (after its y) comes back with u, whole.
    press(&mut b, KeyCode::Char('<'));
    play(&mut b, "9-14 22-17");
    let before = crate::pdn::write_tree(&b.record, &b.tree);
    press(&mut b, KeyCode::Char('D'));
    press(&mut b, KeyCode::Char('y'));
    assert_eq!(b.tree.len(), 3);
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(crate::pdn::write_tree(&b.record, &b.tree), before);
    assert!(screen(&b, 80, 24).contains("the variation is back"));
    // Back to an empty tree, and no further.
    for _ in 0..5 {
        press(&mut b, KeyCode::Char('u'));
    }
    assert_eq!(b.tree.len(), 0);
    press(&mut b, KeyCode::Char('u'));
    assert!(screen(&b, 80, 24).contains("Nothing more to undo"));
}

#[test]
fn y_and_capital_y_hand_the_position_and_the_game_to_the_clipboard_and_say_so() {
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19");
    press(&mut b, KeyCode::Char('y'));
    let fen = b.tree.position().to_string();
    assert_eq!(b.take_clipboard().as_deref(), Some(fen.as_str()));
    assert_eq!(b.take_clipboard(), None, "sent once");
    let drawn = screen(&b, 80, 24);
    // The status line says it, the FEN wrapped onto its second row at 80 columns.
    assert!(drawn.contains("Copied to the clipboard:"), "{drawn}");
    assert!(drawn.contains(&fen), "{drawn}");
    assert!(drawn.contains("? help"), "{drawn}");
    press(&mut b, KeyCode::Char('Y'));
    let pdn = b.take_clipboard().unwrap();
    assert!(pdn.contains("[Event \"Analysis\"]"), "{pdn}");
    assert!(pdn.trim_end().ends_with("1. 11-15 23-19 *"), "{pdn}");
    assert!(screen(&b, 80, 24).contains("the game as PDN (2 moves)"));
}

/// The clipboard's bound is on what the OSC 52 sequence carries, the text's base64:
/// a game of 80,000 bytes (106,668 in base64, over the 100,000 sent at most) is
/// refused with the text's own bound said, and one of 74,000 (98,668) is copied.
#[test]
fn capital_y_refuses_a_game_whose_base64_is_over_the_clipboards_bound() {
    let sized = |bytes: usize| {
        let mut b = board(80, 24);
        // 45 moves (the first legal one each time), a comment of up to 1,990
        // characters on each, as long as makes the game `bytes` long as PDN.
        for _ in 0..45 {
            let m = b.tree.position().legal_moves()[0];
            b.tree.enter(m).unwrap();
        }
        let written =
            |b: &AnalysisBoard| crate::pdn::write_tree(&b.record_to_write(), &b.tree).len();
        b.tree.go_to_start();
        while b.tree.forward() {
            let left = bytes.saturating_sub(written(&b) + 5);
            let take = left.min(crate::game::tree::MAX_COMMENT_CHARS - 10);
            let node = b.tree.current();
            b.tree.comment_edit(node, &"x".repeat(take));
        }
        let got = written(&b);
        assert!(got.abs_diff(bytes) < 20, "{got} for {bytes}");
        b
    };
    let mut b = sized(80_000);
    press(&mut b, KeyCode::Char('Y'));
    assert_eq!(b.take_clipboard(), None, "not sent");
    let drawn = screen(&b, 80, 24);
    assert!(drawn.contains("Too long for the clipboard ("), "{drawn}");
    assert!(drawn.contains("at most 75000): s saves it"), "{drawn}");
    let mut b = sized(74_000);
    press(&mut b, KeyCode::Char('Y'));
    assert!(b.take_clipboard().is_some(), "sent");
}

#[test]
fn the_whole_help_is_read_at_80x24_by_scrolling_it() {
    let mut b = board(80, 24);
    press(&mut b, KeyCode::Char('?'));
    let mut pages = vec![screen(&b, 80, 24)];
    assert!(pages[0].contains("PgDn: more"), "{}", pages[0]);
    for _ in 0..10 {
        press(&mut b, KeyCode::PageDown);
        let page = screen(&b, 80, 24);
        if pages.last() == Some(&page) {
            break;
        }
        pages.push(page);
    }
    let all = pages.join("\n");
    for key in crate::tui::analysis::KEYS
        .iter()
        .filter(|k| !k.help.is_empty())
    {
        let line = format!("{:<12}{}", key.label, key.help);
        assert!(all.contains(&line), "{line}:\n{all}");
    }
    assert!(
        all.contains("Any key or a click closes this help."),
        "{all}"
    );
    assert!(pages.last().unwrap().contains("PgUp: back"), "{all}");
    press(&mut b, KeyCode::PageUp);
    assert!(b.help, "PgUp scrolls back");
    press(&mut b, KeyCode::Char('x'));
    assert!(!b.help, "any other key closes it");
}

#[test]
fn e_sets_up_a_position_to_analyse_and_u_brings_the_moves_back() {
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19");
    press(&mut b, KeyCode::Char('E'));
    let drawn = screen(&b, 80, 24);
    assert!(drawn.contains("Setting up: Enter analyses it"), "{drawn}");
    assert!(drawn.contains("B W king"), "{drawn}");
    // An empty board, a black king on 15, a white man on 22, White to move.
    press(&mut b, KeyCode::Char('c'));
    for (square, key) in [(15, 'B'), (22, 'w')] {
        let sq = crate::rules::Square::new(square).unwrap();
        b.board.cursor = (sq.row(), sq.col());
        press(&mut b, KeyCode::Char(key));
    }
    press(&mut b, KeyCode::Char('t'));
    assert!(screen(&b, 80, 24).contains("Setting up: W:W22:BK15"));
    assert_eq!(b.tree.len(), 2, "no move played while setting up");
    press(&mut b, KeyCode::Enter);
    assert_eq!(b.tree.start().to_string(), "W:W22:BK15");
    assert_eq!(b.tree.len(), 0);
    assert!(screen(&b, 80, 24).contains("Analysing the position set up: W:W22:BK15"));
    play(&mut b, "22-18");
    // u takes back the move, then the set-up itself.
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(*b.tree.start(), Position::start());
    assert_eq!(b.tree.main_line().len(), 2);
    assert!(screen(&b, 80, 24).contains("Back to the moves before the set-up"));
    // Esc leaves the editor with the board as it was; a position that cannot be
    // played is refused, saying why.
    press(&mut b, KeyCode::Char('E'));
    press(&mut b, KeyCode::Char('c'));
    press(&mut b, KeyCode::Enter);
    let drawn = screen(&b, 80, 24);
    assert!(drawn.contains("This position cannot be played"), "{drawn}");
    press(&mut b, KeyCode::Esc);
    assert_eq!(b.tree.main_line().len(), 2);
    assert!(screen(&b, 80, 24).contains("No position set up"));
}

/// Sets up `fen` on `board` from the position editor (`E`, the board cleared, each
/// piece put on its square, the side to move chosen) and analyses it (Enter).
fn set_up(board: &mut AnalysisBoard, fen: &str) {
    let position: Position = fen.parse().unwrap();
    press(board, KeyCode::Char('E'));
    press(board, KeyCode::Char('c'));
    for square in position.occupied() {
        let piece = position.piece_at(square).unwrap();
        board.board.cursor = (square.row(), square.col());
        press(board, KeyCode::Char(piece.letter()));
    }
    if position.turn() != crate::rules::Color::Black {
        press(board, KeyCode::Char('t'));
    }
    press(board, KeyCode::Enter);
    assert_eq!(board.tree.start().to_string(), fen, "set up");
}

#[test]
fn u_takes_back_a_set_up_and_capital_u_sets_it_up_again_with_its_moves() {
    let mut b = board(80, 24);
    // A move taken back before the set-up: the set-up is the change after it.
    play(&mut b, "11-15 23-19 8-11");
    press(&mut b, KeyCode::Char('u'));
    set_up(&mut b, "W:W22:BK15");
    play(&mut b, "22-18");
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(*b.tree.start(), Position::start());
    let drawn = screen(&b, 80, 24);
    assert!(drawn.contains("(U sets it up again)"), "{drawn}");
    // U: the set-up again (not 8-11, taken back before it), then its move.
    press(&mut b, KeyCode::Char('U'));
    assert_eq!(b.tree.start().to_string(), "W:W22:BK15");
    let drawn = screen(&b, 80, 24);
    assert!(drawn.contains("Set up again: W:W22:BK15"), "{drawn}");
    press(&mut b, KeyCode::Char('U'));
    assert_eq!(b.tree.main_line().len(), 1, "22-18 played again");
    assert_eq!(b.tree.ply(), 1);
    press(&mut b, KeyCode::Char('U'));
    assert!(screen(&b, 80, 24).contains("Nothing to redo"));
    // And back again through both; a move played then drops the set-up from redo.
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(b.tree.main_line().len(), 2, "8-11 stays taken back");
    play(&mut b, "9-14");
    press(&mut b, KeyCode::Char('U'));
    assert_eq!(*b.tree.start(), Position::start());
    assert!(screen(&b, 80, 24).contains("Nothing to redo"));
}

/// Saves `board`'s tree to `path` from the save dialog already open (Enter on the
/// file's name) and returns the file's text.
fn saved_from_dialog(board: &mut AnalysisBoard, path: &std::path::Path) -> String {
    let prompt = board.saving.as_mut().expect("the save dialog is open");
    *prompt = crate::tui::analysis::save::SavePrompt::new(path);
    press(board, KeyCode::Enter);
    std::fs::read_to_string(path).unwrap()
}

#[test]
fn leaving_after_a_set_up_s_saves_the_moves_before_it_that_the_question_is_about() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19");
    // A position set up (the one shown), nothing played from it.
    press(&mut b, KeyCode::Char('E'));
    press(&mut b, KeyCode::Enter);
    assert_eq!(b.tree.len(), 0);
    assert_eq!(press(&mut b, KeyCode::Char('q')), None, "q asks");
    let drawn = screen(&b, 80, 24);
    assert!(
        drawn.contains("The moves before the set-up are not saved"),
        "{drawn}"
    );
    assert!(
        drawn.contains("y leave  s save the earlier moves  Esc stay"),
        "{drawn}"
    );
    // s saves the moves asked about, not the position set up.
    assert_eq!(press(&mut b, KeyCode::Char('s')), None);
    let text = saved_from_dialog(&mut b, &dir.path().join("earlier.pdn"));
    assert!(text.contains("1. 11-15 23-19"), "{text}");
    assert!(!text.contains("SetUp"), "{text}");
    assert_eq!(
        press(&mut b, KeyCode::Char('q')),
        Some(Done::Leave),
        "all saved: q leaves"
    );
    // With moves of its own not saved either, the question names both and s saves
    // those it says.
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19");
    press(&mut b, KeyCode::Char('E'));
    press(&mut b, KeyCode::Enter);
    play(&mut b, "8-11");
    press(&mut b, KeyCode::Char('q'));
    let drawn = screen(&b, 80, 24);
    assert!(
        drawn.contains("These moves and those before the set-up are not saved"),
        "{drawn}"
    );
}

#[test]
fn leaving_after_u_took_back_a_set_up_with_moves_not_saved_asks_and_s_saves_them() {
    let dir = tempfile::tempdir().unwrap();
    let mut b = board(80, 24);
    // Nothing before the set-up; its move not saved; the set-up taken back by u.
    set_up(&mut b, "W:W22:BK15");
    play(&mut b, "22-18");
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(*b.tree.start(), Position::start(), "the set-up taken back");
    assert_eq!(press(&mut b, KeyCode::Char('q')), None, "q asks");
    let drawn = screen(&b, 80, 24);
    assert!(
        drawn.contains("The moves of the set-up taken back are not saved"),
        "{drawn}"
    );
    assert!(
        drawn.contains("s set it up again to save  Esc stay"),
        "{drawn}"
    );
    // s saves the moves asked about: the set-up with its move, made again.
    assert_eq!(press(&mut b, KeyCode::Char('s')), None);
    let text = saved_from_dialog(&mut b, &dir.path().join("set-up.pdn"));
    assert!(text.contains("W:W22:BK15"), "{text}");
    assert!(text.contains("22-18"), "{text}");
    assert_eq!(
        press(&mut b, KeyCode::Char('q')),
        Some(Done::Leave),
        "all saved"
    );
    // Esc keeps everything, as for the other questions.
    let mut b = board(80, 24);
    set_up(&mut b, "W:W22:BK15");
    play(&mut b, "22-18");
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('q'));
    assert_eq!(press(&mut b, KeyCode::Esc), None, "Esc stays");
    assert_eq!(press(&mut b, KeyCode::Char('q')), None, "asked again");
}

#[test]
fn a_faulty_records_notice_is_read_whole_at_80x24_over_the_rows_above_it() {
    let dir = tempfile::tempdir().unwrap();
    // Black's third move starts on 17, where White's man stands.
    let pdn = "[Event \"Club final, round two\"]\n[Result \"*\"]\n\
        1. 11-15 23-19 2. 8-11 22-17 3. 17-13 *\n";
    let from = dir.path().join("record.pdn");
    std::fs::write(&from, pdn).unwrap();
    let (record, tree, fault) = crate::tui::analysis::load_tree(&from, 1).unwrap();
    let notice = crate::tui::analysis::fault_notice(&fault.expect("the record is faulty"));
    assert!(notice.ends_with("and Black is to move"), "{notice}");
    let mut b = AnalysisBoard::new(
        tree,
        record,
        &Settings::default(),
        None,
        Rect::new(0, 0, 80, 24),
        "the command line",
        false,
    );
    b.say(Tone::Info, notice.clone());
    for (width, height) in [(80, 24), (120, 40)] {
        let drawn = screen(&b, width, height);
        let words = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words(&drawn).contains(&words(&notice)), "{drawn}");
        // The keys stay on their row under it.
        let last = drawn.lines().rfind(|row| !row.trim().is_empty());
        let last = last.unwrap_or_default();
        assert!(last.contains("q leave"), "{drawn}");
    }
    // The next key takes it away, and the board is whole again.
    press(&mut b, KeyCode::Char('>'));
    let drawn = screen(&b, 80, 24);
    assert!(!drawn.contains("Shown up to"), "{drawn}");
    assert!(drawn.contains("Black"), "{drawn}");
}

/// A record that White won, with how, as a file for `load_tree`.
const WON_BY_WHITE: &str = "[Event \"Club final\"]\n[Black \"Ann Smith\"]\n[White \"Bob Jones\"]\n\
     [Result \"0-1\"]\n[Termination \"resignation\"]\n1. 11-15 23-18 2. 8-11 0-1\n";

/// The board on the first game of `pdn`, written to `dir`, at the record's last move.
fn loaded_board(dir: &std::path::Path, pdn: &str) -> AnalysisBoard {
    let from = dir.join("record.pdn");
    std::fs::write(&from, pdn).unwrap();
    let (record, tree, _) = crate::tui::analysis::load_tree(&from, 1).unwrap();
    let mut b = AnalysisBoard::new(
        tree,
        record,
        &Settings::default(),
        None,
        Rect::new(0, 0, 80, 24),
        "the command line",
        false,
    );
    press(&mut b, KeyCode::End);
    b
}

#[test]
fn a_record_cut_short_at_an_unplayable_move_is_saved_unfinished_saying_where_it_stops() {
    let dir = tempfile::tempdir().unwrap();
    let faulty = WON_BY_WHITE.replace("8-11 0-1", "8-11 22-17 3. 30-26 0-1");
    let mut b = loaded_board(dir.path(), &faulty);
    assert_eq!(b.tree.main_line().len(), 4, "the moves before 30-26");
    let text = saved_text(&mut b, &dir.path().join("saved.pdn"));
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(
        text.contains(
            "[Termination \"stopped at unplayable move 3. 30-26 (Black); recorded result 0-1\"]"
        ),
        "{text}"
    );
    assert!(!text.contains("resignation"), "{text}");
    assert!(text.ends_with("2. 8-11 22-17 *\n"), "{text}");
}

#[test]
fn a_record_played_on_past_its_end_is_saved_unfinished_and_variations_keep_its_result() {
    let dir = tempfile::tempdir().unwrap();
    // Played on from the end: the old result is not this game's.
    let mut b = loaded_board(dir.path(), WON_BY_WHITE);
    play(&mut b, "22-17");
    let text = saved_text(&mut b, &dir.path().join("played-on.pdn"));
    assert!(text.contains("[Result \"*\"]"), "{text}");
    assert!(text.trim_end().ends_with("22-17 *"), "{text}");
    assert!(!text.contains("0-1"), "{text}");
    assert!(!text.contains("resignation"), "{text}");
    // Taken back, the main line is the record's again, and so is its result.
    press(&mut b, KeyCode::Char('u'));
    let text = saved_text(&mut b, &dir.path().join("taken-back.pdn"));
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.contains("[Termination \"resignation\"]"), "{text}");
    // A variation alone leaves the game as recorded.
    let mut b = loaded_board(dir.path(), WON_BY_WHITE);
    press(&mut b, KeyCode::Char('<'));
    play(&mut b, "9-14");
    let text = saved_text(&mut b, &dir.path().join("variation.pdn"));
    assert!(text.contains("9-14"), "{text}");
    assert!(text.contains("[Result \"0-1\"]"), "{text}");
    assert!(text.trim_end().ends_with("0-1"), "{text}");
    // ... until it is made the main line.
    press(&mut b, KeyCode::Char('P'));
    let text = saved_text(&mut b, &dir.path().join("promoted.pdn"));
    assert!(text.contains("[Result \"*\"]"), "{text}");
}

#[test]
fn the_analysis_of_a_game_in_play_keeps_its_event_players_place_and_date() {
    let dir = tempfile::tempdir().unwrap();
    let pdn = "[Event \"Club final\"]\n[Site \"Leeds\"]\n[Date \"2024.03.09\"]\n\
               [Round \"3\"]\n[Black \"Ann Smith\"]\n[White \"Bob Jones\"]\n\
               [Result \"*\"]\n1. 11-15 23-18 *\n";
    let record = crate::pdn::read_games(pdn).remove(0).unwrap();
    let session = crate::session::Session::from_record(&record);
    assert!(
        session.assist(),
        "assistance on: A opens the analysis board"
    );
    let mut app =
        crate::tui::App::with_session(Settings::default(), session, super::WIDTH, super::HEIGHT);
    super::press(&mut app, KeyCode::Char('A'));
    let b = app.analysis.as_mut().expect("the analysis board opened");
    let text = saved_text(b, &dir.path().join("in-play.pdn"));
    for tag in [
        "[Event \"Club final\"]",
        "[Site \"Leeds\"]",
        "[Date \"2024.03.09\"]",
        "[Round \"3\"]",
        "[Black \"Ann Smith\"]",
        "[White \"Bob Jones\"]",
    ] {
        assert!(text.contains(tag), "{tag} in {text}");
    }
    assert!(!text.contains("Analysis"), "{text}");
    assert!(text.contains("1. 11-15 23-18"), "{text}");
}

#[test]
fn ctrl_r_while_a_position_is_set_up_changes_nothing_under_the_editor() {
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19");
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('E'));
    b.handle_event(&key_event(KeyCode::Char('r'), KeyModifiers::CONTROL));
    assert_eq!(b.tree.len(), 1, "23-19 stays taken back while setting up");
    let drawn = screen(&b, 80, 24);
    assert!(!drawn.contains("Played again"), "{drawn}");
    assert!(drawn.contains("Setting up: Enter analyses it"), "{drawn}");
    // Back on the board, Ctrl-R redoes as before.
    press(&mut b, KeyCode::Esc);
    b.handle_event(&key_event(KeyCode::Char('r'), KeyModifiers::CONTROL));
    assert_eq!(b.tree.len(), 2);
}

#[test]
fn going_on_along_moves_already_in_the_tree_is_no_change_for_undo_or_redo() {
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19 8-11");
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(b.tree.main_line().len(), 2);
    // Back to the start, and on along the moves the tree has: nothing changes.
    press(&mut b, KeyCode::Home);
    play(&mut b, "11-15 23-19");
    // The move taken back can still be made again...
    press(&mut b, KeyCode::Char('U'));
    assert_eq!(b.tree.main_line().len(), 3, "{}", screen(&b, 80, 24));
    assert!(screen(&b, 80, 24).contains("Played again: 8-11"));
    // ...and u takes back 8-11, the last change, not a move that stays in the tree.
    press(&mut b, KeyCode::Home);
    play(&mut b, "11-15");
    press(&mut b, KeyCode::Char('u'));
    assert_eq!(b.tree.main_line().len(), 2);
    assert!(screen(&b, 80, 24).contains("Took back 8-11"));
}

#[test]
fn undo_with_every_change_taken_back_says_redo_brings_them_back() {
    let mut b = board(80, 24);
    play(&mut b, "11-15");
    press(&mut b, KeyCode::Char('u'));
    press(&mut b, KeyCode::Char('u'));
    let drawn = screen(&b, 80, 24);
    assert!(drawn.contains("Nothing more to undo (U redoes"), "{drawn}");
    assert!(!drawn.contains("no move entered yet"), "{drawn}");
    // A board with no move entered says so.
    let mut fresh = board(80, 24);
    press(&mut fresh, KeyCode::Char('u'));
    assert!(screen(&fresh, 80, 24).contains("no move entered yet"));
}

#[test]
fn a_comment_over_two_lines_is_shown_over_two_rows_of_the_move_list() {
    // Its lines were run together: "{The Old Faithfulline.}".
    let mut b = board(80, 24);
    play(&mut b, "11-15");
    let first = b.tree.current();
    b.tree.add_comment(first, "The Old Faithful\nline.");
    play(&mut b, "23-19 8-11");
    let text = screen(&b, 80, 24);
    let rows: Vec<&str> = text.lines().collect();
    let at = rows
        .iter()
        .position(|r| r.contains("{The Old Faithful"))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(rows[at + 1].contains("line.}"), "{text}");
    assert!(!text.contains("Faithfulline"), "{text}");
    // Its rows stand one under the other: the second starts under the first's text
    // (it started a column left of it, or, after the move, far left of it).
    let column = |row: &str, word: &str| row[..row.find(word).unwrap()].chars().count();
    assert_eq!(
        column(rows[at], "The Old"),
        column(rows[at + 1], "line."),
        "{text}"
    );
    // The moves after it go on under it, and the key line is drawn.
    assert!(rows[at + 2].contains("1... 23-19 2. 8-11"), "{text}");
    assert!(text.contains("? help"), "{text}");
    // In a variation, indented, the same.
    let mut b = board(80, 24);
    play(&mut b, "11-15 23-19");
    press(&mut b, KeyCode::Char('<'));
    play(&mut b, "22-18");
    let side = b.tree.current();
    b.tree.add_comment(side, "Sharper.\nRisky here.");
    let text = screen(&b, 80, 24);
    let rows: Vec<&str> = text.lines().collect();
    let at = rows
        .iter()
        .position(|r| r.contains("{Sharper."))
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        column(rows[at], "Sharper."),
        column(rows[at + 1], "Risky here.}"),
        "{text}"
    );
}

#[test]
fn a_in_a_finished_games_review_opens_the_analysis_board_at_the_move_shown() {
    let pdn = "[Event \"Club final\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n\
               1. 11-15 23-19 2. 8-11 22-17 1-0\n";
    let mut app = super::review_app(pdn);
    super::press(&mut app, KeyCode::Right);
    super::press(&mut app, KeyCode::Right);
    let review = super::screen_text(&app);
    assert!(
        review.contains("Review: move 1 (White's") && review.contains("? help"),
        "{review}"
    );
    super::press(&mut app, KeyCode::Char('A'));
    let b = app.analysis.as_ref().expect("A opened the analysis board");
    let drawn = screen(b, app.screen.width, app.screen.height);
    // The whole game in its move list, the board at the move the review showed (23-19
    // marked as the last move played), and the board's own keys, drawn last.
    assert!(drawn.contains("1. 11-15 23-19 2. 8-11 22-17"), "{drawn}");
    assert!(
        drawn.contains("23  *") && drawn.contains("19  *"),
        "{drawn}"
    );
    assert!(drawn.contains("Analysis board: play moves"), "{drawn}");
    assert!(drawn.contains("q leave"), "{drawn}");
    assert_eq!(b.tree.ply(), 2);
}

/// The key line names U only where it says what U does: "u U undo/redo" with room,
/// "u undo" without (it said "u U undo", as if both undid).
#[test]
fn the_key_line_says_u_undoes_and_u_redoes_or_names_u_alone() {
    let wide = screen(&analysed(120, 40), 120, 40);
    assert!(wide.contains("u U undo/redo"), "{wide}");
    // At 70 columns (the smallest with the panel) the line has no room for redo.
    let narrow = screen(&analysed(70, 23), 70, 23);
    let keys = narrow.lines().rfind(|l| !l.trim().is_empty()).unwrap();
    assert!(keys.contains("u undo"), "{narrow}");
    assert!(!keys.contains("u U"), "{narrow}");
    assert!(keys.contains("q leave"), "{narrow}");
}

/// A move list's `)` that falls at the right edge of its box goes to the next row
/// with the word before it, as every other word wraps: it was drawn past the edge,
/// cut off.
#[test]
fn a_closing_parenthesis_at_the_move_lists_edge_is_wrapped_not_cut_off() {
    // A comment of every length before the `)` puts it in every column of the row.
    for length in 1..=40 {
        let mut b = board(120, 40);
        for text in ["11-15 23-19 8-11 22-17", "22-18 15x22 25x18"] {
            for word in text.split_whitespace() {
                let m = b.tree.position().parse_move(word).unwrap();
                b.tree.play(m);
            }
            if text.starts_with("11-15") {
                b.tree.back();
            }
        }
        let here = b.tree.current();
        b.tree.set_comment(here, &"x".repeat(length));
        b.tree.go_to_start();
        let drawn = screen(&b, 120, 40);
        assert!(drawn.contains("q leave"), "drawn whole: {drawn}");
        let opened = drawn.matches('(').count();
        let closed = drawn.matches(')').count();
        assert!(opened >= 2, "the move list drawn: {drawn}");
        assert_eq!(opened, closed, "a comment of {length}: {drawn}");
    }
}

/// The analysis board says whose move it is at every size, as the game board does: at
/// 80x24 (a panel beside the board) its side names said only "White" and "Black".
#[test]
fn the_analysis_board_says_whose_move_it_is() {
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let mut b = board(width, height);
        let drawn = screen(&b, width, height);
        assert!(drawn.contains("Black to move"), "{width}x{height}: {drawn}");
        assert!(drawn.contains("q leave"), "drawn whole: {drawn}");
        play(&mut b, "11-15");
        let drawn = screen(&b, width, height);
        assert!(
            drawn.contains("White to move") && !drawn.contains("Black to move"),
            "{width}x{height}: {drawn}"
        );
    }
}

#[test]
fn home_and_end_where_the_board_already_is_say_so_as_the_steps_do() {
    let mut b = analysed(80, 24);
    press(&mut b, KeyCode::Home);
    assert_eq!(b.message, None, "a move back to the start is no news");
    press(&mut b, KeyCode::Home);
    let said = |b: &AnalysisBoard| b.message.clone().map(|(_, text)| text);
    assert_eq!(said(&b).as_deref(), Some("At the start"));
    assert!(screen(&b, 80, 24).contains("At the start"));
    // As `<` says there.
    press(&mut b, KeyCode::Char('<'));
    assert_eq!(said(&b).as_deref(), Some("At the start"));
    press(&mut b, KeyCode::End);
    assert_eq!(b.message, None);
    press(&mut b, KeyCode::End);
    assert_eq!(said(&b).as_deref(), Some("At the end of the line"));
    assert!(screen(&b, 80, 24).contains("At the end of the line"));
    press(&mut b, KeyCode::Char('>'));
    assert_eq!(said(&b).as_deref(), Some("At the end of the line"));
}

#[test]
fn the_key_line_keeps_the_explorer_and_undo_on_screens_from_70_columns() {
    let b = analysed(80, 24);
    for (width, height) in [(70, 23), (80, 24), (100, 30), (120, 40), (200, 60)] {
        let drawn = screen(&b, width, height);
        let keys = drawn
            .lines()
            .find(|line| line.contains("? help"))
            .unwrap_or_else(|| panic!("{width}x{height}: no key line in\n{drawn}"));
        for entry in [
            "< > step",
            "v V variation",
            "s save",
            "o explorer",
            "q leave",
        ] {
            assert!(
                keys.contains(entry),
                "{width}x{height}: {entry} in {keys:?}"
            );
        }
        // Redo where the line has room for it (80 columns on), undo everywhere.
        let undo = if width >= 80 {
            "u U undo/redo"
        } else {
            "u undo"
        };
        assert!(keys.contains(undo), "{width}x{height}: {undo} in {keys:?}");
        // The engine's and the lines' keys give way first; all there with room.
        if width >= 120 {
            assert!(
                keys.contains("e engine") && keys.contains("+ - lines"),
                "{keys:?}"
            );
        }
    }
}

#[test]
fn ctrl_c_keeps_the_moves_not_saved_in_a_file_that_the_board_opens_again() {
    let dir = tempfile::tempdir().unwrap();
    // Nothing played: nothing to keep, no file.
    let b = board(80, 24);
    assert_eq!(b.keep_unsaved(Some(dir.path())), None);
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    let b = analysed(80, 24);
    let kept = b.keep_unsaved(Some(dir.path())).unwrap();
    let crate::tui::analysis::Kept::Written(path, 1) = &kept else {
        panic!("{kept:?}");
    };
    assert_eq!(path.parent(), Some(dir.path()));
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    assert!(
        name.starts_with("analysis-unsaved-") && name.ends_with(".pdn"),
        "{name}"
    );
    // The line said after the terminal is restored names it and how to open it.
    let said = kept.to_string();
    assert!(said.contains(&path.display().to_string()), "{said}");
    assert!(
        said.contains(&format!("checkers --analyse --load {}", path.display())),
        "{said}"
    );
    // The whole tree, its variation too, as `s` saves it.
    let (_, tree, fault) = crate::tui::analysis::load_tree(path, 1).unwrap();
    assert!(fault.is_none());
    assert_eq!(tree.main_line(), b.tree.main_line());
    assert_eq!(
        tree.len(),
        b.tree.len(),
        "{}",
        std::fs::read_to_string(path).unwrap()
    );
    // A second one the same second does not replace the first.
    let again = b.keep_unsaved(Some(dir.path())).unwrap();
    let crate::tui::analysis::Kept::Written(second, _) = &again else {
        panic!("{again:?}");
    };
    assert_ne!(second, path);
    assert!(path.exists() && second.exists());
}

#[test]
fn ctrl_c_says_why_the_moves_could_not_be_kept_where_the_data_folder_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    // A file where the data folder should be: nothing can be written in it (as root
    // too, whom no permission stops).
    let folder = dir.path().join("checkers");
    std::fs::write(&folder, "not a folder").unwrap();
    let b = analysed(80, 24);
    let kept = b.keep_unsaved(Some(&folder)).unwrap();
    assert!(
        matches!(&kept, crate::tui::analysis::Kept::Lost(_)),
        "{kept:?}"
    );
    let said = kept.to_string();
    assert!(
        said.starts_with(
            "The analysis not saved could not be kept, its moves are lost: cannot write"
        ),
        "{said}"
    );
    assert!(said.contains(&folder.display().to_string()), "{said}");
    // No data folder at all.
    let none = b.keep_unsaved(None).unwrap().to_string();
    assert!(none.contains("no data folder"), "{none}");
}
