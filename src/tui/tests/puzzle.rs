//! The puzzles screen: the board of a puzzle with its goal at 80x24 and 120x40, a wrong
//! move answered with its refutation, the list with the solved ones marked, and the
//! progress written as the player goes.

use crate::engine::Limits;
use crate::puzzles::{Judge, Progress, builtin};
use crate::tui::Theme;
use crate::tui::puzzle::{PuzzleScreen, View};
use crate::tui::tests::{drawn_text, key_event};
use insta::assert_snapshot;
use ratatui::crossterm::event::{KeyCode, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

/// The screen with puzzle `index` open, the engine answering at a small fixed depth (no
/// databases), the progress kept in `file`.
fn screen(index: usize, file: &std::path::Path) -> PuzzleScreen {
    let progress = Progress::load(Some(file.to_path_buf())).unwrap();
    PuzzleScreen::new(
        index,
        false,
        Judge::new(None, Limits::depth(6)),
        progress,
        Theme::new(true, false),
    )
}

/// Presses `code` on a screen of 80x24; whether it left.
fn key(screen: &mut PuzzleScreen, code: KeyCode) -> bool {
    screen.handle_event(
        &key_event(code, KeyModifiers::NONE),
        Rect::new(0, 0, 80, 24),
    )
}

/// Types the move `text` (its digits open the prompt) and plays it.
fn type_move(screen: &mut PuzzleScreen, text: &str) {
    for c in text.chars() {
        key(screen, KeyCode::Char(c));
    }
    key(screen, KeyCode::Enter);
}

/// The screen's words in one line: its rows' text, framing and padding dropped, joined
/// by single spaces (a sentence wrapped over rows reads whole).
fn flat(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || "│┌┐└┘─".contains(c))
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The side panel of a board drawn at 80x24: each row from its 43rd column on.
fn panel(text: &str) -> String {
    text.lines()
        .map(|row| row.chars().skip(42).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

fn drawn(screen: &PuzzleScreen, width: u16, height: u16) -> String {
    drawn_text(width, height, |area, buf| screen.render(area, buf))
}

#[test]
fn puzzle_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let screen = screen(0, &dir.path().join("puzzles.json"));
    let text = drawn(&screen, 80, 24);
    assert!(text.contains("White to move and win"), "{text}");
    assert_snapshot!(text);
}

#[test]
fn puzzle_120x40_after_a_wrong_move() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.json");
    // Better than First: only 4-8 wins; 2-6 lets White draw.
    let index = builtin()
        .iter()
        .position(|p| p.id == "better-than-first")
        .unwrap();
    let mut screen = screen(index, &file);
    type_move(&mut screen, "2-6");
    let text = drawn(&screen, 120, 40);
    assert!(text.contains("2-6: not the move. After 2-6"), "{text}");
    assert!(
        text.contains("White holds as far as the engine sees"),
        "{text}"
    );
    assert_snapshot!(text);
    // The wrong move is counted: one attempt, failed, not solved.
    let record = Progress::load(Some(file)).unwrap().of("better-than-first");
    assert_eq!(
        (record.attempts, record.failed, record.solved),
        (1, 1, false)
    );
}

#[test]
fn the_solution_played_on_the_board_solves_it_and_the_list_marks_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.json");
    let index = builtin()
        .iter()
        .position(|p| p.id == "better-than-first")
        .unwrap();
    let mut screen = screen(index, &file);
    let puzzle = builtin()[index].clone();
    let mut pos = puzzle.start;
    for (i, m) in puzzle.solution.iter().enumerate() {
        if i % 2 == 0 {
            type_move(&mut screen, &pos.notation(m));
        }
        pos = pos.play_unchecked(m);
    }
    assert!(screen.attempt.solved);
    assert_eq!(screen.attempt.position(), pos);
    assert!(drawn(&screen, 120, 40).contains("Solved!"));
    assert!(Progress::load(Some(file)).unwrap().of(&puzzle.id).solved);
    key(&mut screen, KeyCode::Char('z'));
    assert_eq!(screen.view, View::List(index));
    let list = drawn(&screen, 80, 24);
    assert!(list.contains("Puzzles: 1 of"), "{list}");
    assert!(
        list.contains(&format!("> [x] {:>2}. Better than First", index + 1)),
        "{list}"
    );
    assert_snapshot!("puzzle_list_80x24", list);
    // Enter opens the chosen one; q leaves.
    key(&mut screen, KeyCode::Down);
    key(&mut screen, KeyCode::Enter);
    assert_eq!(screen.view, View::Board);
    assert_eq!(screen.index, index + 1);
    assert!(key(&mut screen, KeyCode::Char('q')));
}

#[test]
fn a_move_is_made_with_the_cursor_and_enter() {
    let dir = tempfile::tempdir().unwrap();
    let mut screen = screen(0, &dir.path().join("puzzles.json"));
    // First Position: the cursor starts on White's first piece (19); 23-27 is picked
    // up on 23 and put down on 27. White sits at the bottom: up is toward 27.
    let start = screen.attempt.position();
    let go = |screen: &mut PuzzleScreen, to: crate::rules::Square| {
        for _ in 0..16 {
            let (row, col) = screen_cursor(screen);
            let code = if row < to.row() {
                KeyCode::Down
            } else if row > to.row() {
                KeyCode::Up
            } else if col < to.col() {
                KeyCode::Left
            } else if col > to.col() {
                KeyCode::Right
            } else {
                return;
            };
            key(screen, code);
        }
    };
    let sq = |n: u8| crate::rules::Square::new(n).unwrap();
    go(&mut screen, sq(23));
    key(&mut screen, KeyCode::Enter);
    go(&mut screen, sq(27));
    key(&mut screen, KeyCode::Enter);
    assert_eq!(
        screen
            .attempt
            .moves
            .first()
            .map(|m| start.notation(m))
            .as_deref(),
        Some("23-27")
    );
    assert_eq!(screen.attempt.moves.len(), 2, "answered by the defender");
}

/// The screen's cursor (row, column), read from its drawing's bracket would be
/// indirect: the state says it.
fn screen_cursor(screen: &PuzzleScreen) -> (u8, u8) {
    screen.cursor
}

#[test]
fn every_size_draws_the_board_or_says_it_is_too_small() {
    let dir = tempfile::tempdir().unwrap();
    let screen = screen(0, &dir.path().join("puzzles.json"));
    for (w, h) in [(0, 0), (1, 1), (20, 8), (40, 13), (80, 24), (200, 60)] {
        let text = drawn(&screen, w, h);
        if w >= 26 && h >= 11 {
            assert!(text.contains("White"), "{w}x{h}: {text}");
        }
    }
    assert!(drawn(&screen, 20, 8).contains("terminal too small"));
}

#[test]
fn a_progress_file_that_cannot_be_read_is_told_on_the_list_and_stays() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.json");
    std::fs::write(&file, "{garbage").unwrap();
    let why = Progress::load(Some(file)).unwrap_err();
    let mut screen = PuzzleScreen::new(
        0,
        true,
        Judge::new(None, Limits::depth(6)),
        Progress::default(),
        Theme::new(true, false),
    );
    screen.warn(why);
    let text = drawn(&screen, 80, 24);
    assert!(text.contains("Warning: "), "the list says it\n{text}");
    // Opening a puzzle and going back to the list keeps it.
    key(&mut screen, KeyCode::Enter);
    let text = drawn(&screen, 80, 24);
    assert!(text.contains("Warning: "), "the board says it\n{text}");
    key(&mut screen, KeyCode::Char('z'));
    assert_eq!(screen.view, View::List(0));
    let text = drawn(&screen, 80, 24);
    assert!(text.contains("Warning: "), "the list says it again\n{text}");
}

/// `s` shows the solution and how it is proven, that as a sentence of its own
/// ("... 23-18. Databases, 4 pieces: ..."), as plain mode writes it.
#[test]
fn the_solution_shown_with_s_says_its_proof_as_a_sentence() {
    let dir = tempfile::tempdir().unwrap();
    let mut screen = screen(0, &dir.path().join("puzzles.json"));
    let proof = &builtin()[0].proof;
    assert!(proof.starts_with("databases, "), "{proof}");
    key(&mut screen, KeyCode::Char('s'));
    let text = drawn(&screen, 120, 40);
    assert!(text.contains("The solution: "), "{text}");
    assert!(text.contains(". Databases,"), "{text}");
    assert!(!text.contains("databases,"), "{text}");
}

#[test]
fn a_key_that_does_nothing_on_the_puzzles_screen_says_so_and_question_mark_lists_the_keys() {
    let dir = tempfile::tempdir().unwrap();
    let mut screen = screen(0, &dir.path().join("puzzles.json"));
    let start = screen.attempt.position().to_string();
    let note = "The key v does nothing here; ? shows every key";
    assert!(!key(&mut screen, KeyCode::Char('v')));
    let text = drawn(&screen, 80, 24);
    assert!(flat(&panel(&text)).contains(note), "{text}");
    // Ctrl-S is not s: the solution stays hidden.
    screen.handle_event(
        &key_event(KeyCode::Char('s'), KeyModifiers::CONTROL),
        Rect::new(0, 0, 80, 24),
    );
    let text = drawn(&screen, 80, 24);
    assert!(
        flat(&panel(&text)).contains("The key Ctrl-S does nothing here"),
        "{text}"
    );
    assert!(!text.contains("Solution shown"), "{text}");
    assert_eq!(screen.attempt.position().to_string(), start);
    // ? lists every key, the key line names it, and the next key clears the list.
    key(&mut screen, KeyCode::Char('?'));
    let text = drawn(&screen, 80, 24);
    assert!(text.contains("? keys"), "{text}");
    // Whole: where the panel has no room for them they are in a box over the board.
    let board: String = text
        .lines()
        .map(|row| row.chars().take(42).collect::<String>() + "\n")
        .collect();
    assert!(flat(&board).contains("r starts again"), "{text}");
    assert!(
        flat(&board).contains("Esc puts a piece down, else leaves; q leaves"),
        "{text}"
    );
    assert!(!text.contains("does nothing"), "{text}");
    key(&mut screen, KeyCode::Left);
    assert!(!flat(&drawn(&screen, 80, 24)).contains("r starts again"));
    // The list says so too, above its key line.
    key(&mut screen, KeyCode::Char('z'));
    assert_eq!(screen.view, View::List(0));
    key(&mut screen, KeyCode::Char('v'));
    let text = drawn(&screen, 80, 24);
    assert!(flat(&text).contains(note), "{text}");
    assert!(text.contains("Enter open"), "{text}");
    key(&mut screen, KeyCode::Char('?'));
    let text = drawn(&screen, 80, 24);
    assert!(flat(&text).contains("PgUp/PgDn ten at a time"), "{text}");
    assert!(text.contains("q leave"), "{text}");
}

/// A player with only a mouse uses the puzzles by their key lines: on the list its
/// "Enter open" opens the puzzle chosen, on the board "z list" goes back to the list,
/// and the list's "q leave" leaves; on a small screen the key lines keep "q leave"
/// whole (they were cut short before it).
#[test]
fn the_key_lines_are_clicked_to_open_go_back_and_leave() {
    let dir = tempfile::tempdir().unwrap();
    for (width, height) in [(30, 12), (40, 15)] {
        let area = Rect::new(0, 0, width, height);
        for view in [View::Board, View::List(0)] {
            let mut s = screen(0, &dir.path().join("progress.toml"));
            s.view = view;
            let click = super::click_on_text(&drawn(&s, width, height), "q leave");
            assert!(s.handle_event(&click, area), "{width}x{height} {view:?}");
        }
    }
    for (width, height) in [(80, 24), (120, 40)] {
        let area = Rect::new(0, 0, width, height);
        let mut s = screen(0, &dir.path().join("progress.toml"));
        s.view = View::List(0);
        let click =
            |s: &PuzzleScreen, text: &str| super::click_on_text(&drawn(s, width, height), text);
        assert!(!s.handle_event(&click(&s, "Enter open"), area));
        assert_eq!(s.view, View::Board, "{width}x{height}: the puzzle opens");
        assert!(!s.handle_event(&click(&s, "z list"), area));
        assert!(matches!(s.view, View::List(_)), "{width}x{height}");
        assert!(
            s.handle_event(&click(&s, "q leave"), area),
            "{width}x{height}: the list's q leaves"
        );
    }
}

/// A left click at (`column`, `row`) on a `width` x `height` screen; whether it left.
fn click_at(screen: &mut PuzzleScreen, width: u16, height: u16, column: u16, row: u16) -> bool {
    use ratatui::crossterm::event::{Event, MouseButton, MouseEvent, MouseEventKind};
    screen.handle_event(
        &Event::Mouse(MouseEvent {
            kind: MouseEventKind::Down(MouseButton::Left),
            column,
            row,
            modifiers: KeyModifiers::NONE,
        }),
        Rect::new(0, 0, width, height),
    )
}

/// Where `text` is first drawn on `drawn`: (column, row).
fn drawn_at(drawn: &str, text: &str) -> (u16, u16) {
    let (row, line) = drawn
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(text))
        .unwrap_or_else(|| panic!("{text} is not drawn:\n{drawn}"));
    let column = line[..line.find(text).unwrap()].chars().count();
    (u16::try_from(column).unwrap(), u16::try_from(row).unwrap())
}

/// On the list a click on a puzzle chooses it, and a click on the chosen one (the
/// second of a double click) opens it, as Enter does; the wheel moves along the list.
#[test]
fn a_click_on_a_puzzle_of_the_list_chooses_it_and_a_second_opens_it() {
    let dir = tempfile::tempdir().unwrap();
    for (w, h) in [(80, 24), (26, 11)] {
        let mut s = screen(0, &dir.path().join("p.json"));
        s.view = View::List(0);
        let drawn = drawn_text(w, h, |area, buf| (&s).render(area, buf));
        let (column, row) = drawn_at(&drawn, " 3. ");
        assert!(!click_at(&mut s, w, h, column, row));
        assert_eq!(s.view, View::List(2), "{w}x{h}");
        assert!(!click_at(&mut s, w, h, column, row));
        assert_eq!((s.view, s.index), (View::Board, 2), "{w}x{h}");
    }
}

/// On the smallest screen the puzzle's board keeps a key line (its one row under the
/// board), the goal and the news on the board's frame; ? shows the keys in a box
/// over the board that a click closes, and q leave leaves.
#[test]
fn at_26x11_the_puzzle_board_has_its_keys_and_its_goal_in_view() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = screen(0, &dir.path().join("p.json"));
    let (w, h) = (26, 11);
    let drawn = drawn_text(w, h, |area, buf| (&s).render(area, buf));
    let lines: Vec<&str> = drawn.lines().collect();
    assert!(lines[10].contains("? keys  q leave"), "{drawn}");
    assert!(lines[0].contains(&builtin()[0].goal_text()), "{drawn}");
    let (column, row) = drawn_at(&drawn, "? keys");
    assert!(!click_at(&mut s, w, h, column, row));
    let shown = drawn_text(w, h, |area, buf| (&s).render(area, buf));
    assert!(shown.contains("arrows/hjkl cursor"), "{shown}");
    assert!(!click_at(&mut s, w, h, 5, 4));
    let closed = drawn_text(w, h, |area, buf| (&s).render(area, buf));
    assert_eq!(closed, drawn);
    let (column, row) = drawn_at(&drawn, "q leave");
    assert!(click_at(&mut s, w, h, column, row));
}

/// Without the databases, First Position's other winning move 23-18 is not proven: it
/// is not called "not the move" nor counted as a failure in the progress file.
#[test]
fn a_move_that_may_win_more_slowly_is_not_called_wrong_nor_counted_as_a_failure() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.json");
    let mut s = screen(0, &file);
    type_move(&mut s, "23-18");
    let text = flat(&drawn(&s, 120, 40));
    assert!(!text.contains("not the move"), "{text}");
    assert!(
        text.contains("23-18: not the solution's move, and not proven wrong"),
        "{text}"
    );
    assert!(text.contains("try again, or s for it"), "{text}");
    let record = Progress::load(Some(file)).unwrap().of("first-position");
    assert_eq!((record.attempts, record.failed), (1, 0));
}

#[test]
fn a_puzzle_files_puzzles_are_listed_and_solved_on_the_full_screen() {
    let dir = tempfile::tempdir().unwrap();
    // Two puzzles of a teacher's file: the second a draw to hold.
    let lesson = "[Event \"First Position\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n\
        1. 23-27 28-32 *\n\n[Event \"Hold the draw\"]\n[FEN \"B:WK19,K23:BK28,12\"]\n\
        [Result \"1/2-1/2\"]\n1. 28-32 19-15 2. 12-16 1/2-1/2\n";
    let read = crate::puzzles::file::from_text(lesson, "lesson.pdn");
    assert!(read.left_out.is_empty(), "{:?}", read.left_out);
    let mut progress = Progress::load(Some(dir.path().join("lesson.json"))).unwrap();
    progress.set = Some(Box::leak(read.puzzles.into_boxed_slice()));
    let mut s = PuzzleScreen::new(
        1,
        true,
        Judge::new(None, Limits::depth(6)),
        progress,
        Theme::new(true, false),
    );
    for (width, height) in [(80, 24), (120, 40)] {
        let list = flat(&drawn(&s, width, height));
        assert!(list.contains("Puzzles: 0 of 2 solved"), "{list}");
        assert!(
            list.contains("2. Hold the draw (Black to move and draw)"),
            "{list}"
        );
    }
    key(&mut s, KeyCode::Enter);
    type_move(&mut s, "28-32");
    type_move(&mut s, "12-16");
    let board = flat(&drawn(&s, 80, 24));
    assert!(board.contains("Puzzle 2 of 2"), "{board}");
    assert!(board.contains("Solved"), "{board}");
    let kept = std::fs::read_to_string(dir.path().join("lesson.json")).unwrap();
    assert!(kept.contains("\"solved\": true"), "{kept}");
}

/// A teacher's puzzle with a hint (the comment before the first move) and an
/// explanation (the comments on the solution's moves).
const COMMENTED: &str = "[Event \"First Position\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n\
    {Drive the king out of the double corner.}\n\
    1. 23-27 28-32 2. 19-23 {Now Black must give way.} 32-28 3. 27-32 28-24\n\
    4. 23-18 {The man on 12 falls soon.} 1-0\n";

/// The side panel of a board drawn in any size, in one line as [`flat`] gives it: each
/// row from the column of its "Puzzle N of M" heading on.
fn panel_words(text: &str) -> String {
    let column = text
        .lines()
        .find_map(|row| {
            let at = row.find("Puzzle ")?;
            Some(row[..at].chars().count())
        })
        .unwrap_or(0);
    flat(
        &text
            .lines()
            .map(|row| row.chars().skip(column).collect::<String>())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// The screen with `text`'s puzzles, the first open, the progress kept in `dir`.
fn file_screen(text: &str, dir: &std::path::Path) -> PuzzleScreen {
    let read = crate::puzzles::file::from_text(text, "lesson.pdn");
    assert!(read.left_out.is_empty(), "{:?}", read.left_out);
    let mut progress = Progress::load(Some(dir.join("lesson.json"))).unwrap();
    progress.set = Some(Box::leak(read.puzzles.into_boxed_slice()));
    PuzzleScreen::new(
        0,
        false,
        Judge::new(None, Limits::depth(6)),
        progress,
        Theme::new(true, false),
    )
}

#[test]
fn a_puzzle_files_comments_are_its_hint_on_i_and_its_explanation_once_solved() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = file_screen(COMMENTED, dir.path());
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let board = drawn(&s, width, height);
        assert!(
            panel_words(&board).contains("Your move (i for a hint)"),
            "{board}"
        );
        assert!(board.contains("i hint"), "{board}");
        assert!(
            !board.contains("double corner"),
            "not before it is asked: {board}"
        );
    }
    key(&mut s, KeyCode::Char('i'));
    for (width, height) in [(80, 24), (120, 40), (200, 60)] {
        let board = panel_words(&drawn(&s, width, height));
        assert!(
            board.contains("Hint: Drive the king out of the double corner."),
            "{board}"
        );
    }
    for m in ["23-27", "19-23", "27-32"] {
        type_move(&mut s, m);
    }
    let before = flat(&drawn(&s, 80, 24));
    assert!(!before.contains("give way"), "not before the end: {before}");
    type_move(&mut s, "23-18");
    for (width, height) in [(80, 24), (120, 40)] {
        let board = panel_words(&drawn(&s, width, height));
        assert!(board.contains("Solved!"), "{board}");
        assert!(
            board.contains(
                "After 19-23: Now Black must give way. After 23-18: The man on 12 falls soon."
            ),
            "{board}"
        );
    }
    // Shown with the solution too, as a pupil who gives up reads it.
    key(&mut s, KeyCode::Char('r'));
    key(&mut s, KeyCode::Char('s'));
    let shown = panel_words(&drawn(&s, 80, 24));
    assert!(
        shown.contains("After 23-18: The man on 12 falls soon."),
        "{shown}"
    );
}

#[test]
fn a_puzzle_without_a_hint_says_so_on_i() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = screen(0, &dir.path().join("puzzles.json"));
    assert!(!drawn(&s, 80, 24).contains("i hint"));
    key(&mut s, KeyCode::Char('i'));
    key(&mut s, KeyCode::Char('i'));
    let board = panel_words(&drawn(&s, 120, 40));
    assert_eq!(
        board.matches("This puzzle has no hint").count(),
        1,
        "{board}"
    );
}

/// A teacher's puzzle whose explanation is long, as a lesson's is.
const EXPLAINED: &str = "[Event \"First Position\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n\
    {Drive the black king out of the double corner before you go after the man.}\n\
    1. 23-27 28-32 2. 19-23 {Now Black must give way: the two white kings hold the double \
    corner between them and the black king has no safe square left.} 32-28 3. 27-32 28-24\n\
    4. 23-18 {The man on 12 falls soon, and with it the game: this is the First Position, \
    which every player must know by heart, as it comes up again and again.} 1-0\n";

#[test]
fn a_long_explanation_and_a_long_warning_read_whole_at_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = file_screen(EXPLAINED, dir.path());
    s.warn(
        "lesson.pdn: puzzle 2 left out: game 2 (\"Broken one\"), move 3. 12-17 (Black, \
         line 13, column 25): a capture is compulsory: 32x23"
            .to_string(),
    );
    key(&mut s, KeyCode::Char('s'));
    let board = drawn(&s, 80, 24);
    let said = panel_words(&board);
    // The explanation to its last word, and the warning at least pointed to.
    assert!(
        said.contains(
            "After 23-18: The man on 12 falls soon, and with it the game: this is the \
             First Position, which every player must know by heart, as it comes up again \
             and again."
        ),
        "{board}"
    );
    assert!(said.contains("Warning:"), "{board}");
    assert!(board.contains("q leave"), "{board}");
    // The list tells the warning whole.
    key(&mut s, KeyCode::Char('z'));
    let list = flat(&drawn(&s, 80, 24));
    assert!(list.contains("a capture is compulsory: 32x23"), "{list}");
}

#[test]
fn the_goal_is_said_once_on_the_board_at_80x24() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = screen(0, &dir.path().join("puzzles.json"));
    let board = flat(&drawn(&s, 80, 24));
    assert_eq!(board.matches("to move and win").count(), 1, "{board}");
    assert!(board.contains("Your move."), "{board}");
    key(&mut s, KeyCode::Char('r'));
    let again = flat(&drawn(&s, 80, 24));
    assert_eq!(again.matches("to move and win").count(), 1, "{again}");
}

/// A teacher's explanation of some 900 characters: at 80x24 the panel says there is
/// more, PgDn pages to its last word, PgUp back (it was cut, with no sign of the rest).
#[test]
fn a_long_explanation_pages_with_pgdn_and_says_there_is_more() {
    let long = "The black king must be driven out of the double corner first, and that \
        takes patience, because every hasty step lets it slip back in. "
        .repeat(6);
    let text = format!(
        "[Event \"First Position\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n\
         1. 23-27 28-32 2. 19-23 32-28 3. 27-32 28-24\n4. 23-18 {{{long}The last word.}} 1-0\n"
    );
    assert!(long.len() > 700);
    let dir = tempfile::tempdir().unwrap();
    let mut s = file_screen(&text, dir.path());
    key(&mut s, KeyCode::Char('s'));
    let first = drawn(&s, 80, 24);
    assert!(panel_words(&first).contains("More below: PgDn"), "{first}");
    assert!(!panel_words(&first).contains("The last word."), "{first}");
    assert!(first.contains("q leave"), "{first}");
    let mut pages = 0;
    while !panel_words(&drawn(&s, 80, 24)).contains("The end; PgUp goes back") {
        assert!(pages < 10, "{}", drawn(&s, 80, 24));
        key(&mut s, KeyCode::PageDown);
        pages += 1;
    }
    let last = drawn(&s, 80, 24);
    assert!(panel_words(&last).contains("The last word."), "{last}");
    assert!(last.contains("q leave"), "{last}");
    // PgUp pages back toward the top, the heading in view again at the top.
    for _ in 0..pages {
        key(&mut s, KeyCode::PageUp);
    }
    let back = panel_words(&drawn(&s, 80, 24));
    assert!(back.contains("Puzzle 1 of 1"), "{back}");
    assert!(back.contains("More below: PgDn"), "{back}");
    // Any other key brings the panel back to its top.
    key(&mut s, KeyCode::PageDown);
    key(&mut s, KeyCode::Left);
    let again = panel_words(&drawn(&s, 80, 24));
    assert!(again.contains("Puzzle 1 of 1"), "{again}");
}

/// On the smallest screen the news and a warning share one row, on the board's frame:
/// the news reads there, the warning (told whole on the list) left to the list (they
/// were joined and cut into a row that told neither).
#[test]
fn at_26x11_the_news_has_its_row_and_a_warning_does_not_cut_it() {
    let dir = tempfile::tempdir().unwrap();
    let mut s = screen(0, &dir.path().join("p.json"));
    s.warn("the progress file cannot be read: it is not JSON".to_string());
    let (w, h) = (26, 11);
    let drawn = drawn_text(w, h, |area, buf| (&s).render(area, buf));
    let lines: Vec<&str> = drawn.lines().collect();
    assert!(lines[10].contains("? keys  q leave"), "{drawn}");
    assert!(lines[9].contains(" Your move. "), "{drawn}");
    assert!(!drawn.contains("Warning"), "{drawn}");
    // The list tells the warning.
    key(&mut s, KeyCode::Char('z'));
    let list = drawn_text(80, 24, |area, buf| (&s).render(area, buf));
    assert!(
        list.contains("Warning: the progress file cannot be read"),
        "{list}"
    );
}

/// Paging the side panel (PgDn, PgUp) keeps its heading, the puzzle's number and title,
/// at its top: only what follows pages (the heading went up with the rest).
#[test]
fn paging_the_panel_keeps_the_puzzles_number_and_title_at_its_top() {
    let long = "The black king must be driven out of the double corner first, and that \
        takes patience, because every hasty step lets it slip back in. "
        .repeat(6);
    let text = format!(
        "[Event \"First Position\"]\n[FEN \"W:WK19,K23:BK28,12\"]\n\
         1. 23-27 28-32 2. 19-23 32-28 3. 27-32 28-24\n4. 23-18 {{{long}The last word.}} 1-0\n"
    );
    let dir = tempfile::tempdir().unwrap();
    let mut s = file_screen(&text, dir.path());
    key(&mut s, KeyCode::Char('s'));
    let first = drawn(&s, 80, 24);
    let top = drawn_at(&first, "Puzzle 1 of 1");
    let title = |drawn: &str| {
        let row = drawn
            .lines()
            .nth(usize::from(top.1) + 1)
            .unwrap_or_default();
        row.chars()
            .skip(usize::from(top.0))
            .collect::<String>()
            .starts_with("First Position")
    };
    assert!(title(&first), "{first}");
    // PgDn pages (the panel says so), the heading where it was.
    key(&mut s, KeyCode::PageDown);
    let paged = drawn(&s, 80, 24);
    assert!(!panel_words(&paged).contains("More below"), "{paged}");
    assert_eq!(drawn_at(&paged, "Puzzle 1 of 1"), top, "{paged}");
    assert!(title(&paged), "{paged}");
    key(&mut s, KeyCode::PageUp);
    assert_eq!(drawn(&s, 80, 24), first);
    // The last page still reaches the explanation's last word.
    let mut pages = 0;
    while !panel_words(&drawn(&s, 80, 24)).contains("The end; PgUp goes back") {
        assert!(pages < 10, "{}", drawn(&s, 80, 24));
        key(&mut s, KeyCode::PageDown);
        pages += 1;
    }
    let last = drawn(&s, 80, 24);
    assert!(panel_words(&last).contains("The last word."), "{last}");
    assert_eq!(drawn_at(&last, "Puzzle 1 of 1"), top, "{last}");
}

/// A move typed with the wrong separator (`4x8` for a step) is judged as the move it
/// names, and the player told how it is written, as on the play board: it was judged
/// without a word.
#[test]
fn a_move_typed_with_the_wrong_separator_is_judged_with_a_word_on_its_notation() {
    let dir = tempfile::tempdir().unwrap();
    let index = builtin()
        .iter()
        .position(|p| p.id == "better-than-first")
        .unwrap();
    let mut screen = screen(index, &dir.path().join("puzzles.json"));
    type_move(&mut screen, "4x8");
    for (width, height) in [(80, 24), (120, 40)] {
        let drawn = drawn(&screen, width, height);
        // The side panel: each row from the column its heading starts at.
        let column = drawn
            .lines()
            .find_map(|row| {
                let at = row.find("Puzzle 3 of")?;
                Some(row[..at].chars().count())
            })
            .expect("the puzzle's heading");
        let text = flat(
            &drawn
                .lines()
                .map(|row| row.chars().skip(column).collect::<String>())
                .collect::<Vec<_>>()
                .join("\n"),
        );
        assert!(text.contains("4-8: correct."), "{text}");
        assert!(
            text.contains("4x8 was typed: 4 to 8 is no capture; a plain move is written 4-8."),
            "{width}x{height}: {text}"
        );
    }
    // Written right, nothing more is said.
    key(&mut screen, KeyCode::Char('r'));
    type_move(&mut screen, "4-8");
    let text = flat(&drawn(&screen, 80, 24));
    assert!(text.contains("4-8: correct."), "{text}");
    assert!(!text.contains("typed"), "{text}");
}
