//! Reading PDN variations and comments into a move tree and writing them back.
#![allow(clippy::unwrap_used)]

use super::{games_with_trees, read_games, write_tree};
use crate::game::tree::{MoveTree, ROOT};
use crate::rules::Position;

/// A CheckerBoard-style record: comments before and after moves, a variation with a
/// nested one, a move number repeated after a variation, NAGs and a mark.
const CHECKERBOARD: &str = r#"[Event "Annotated"]
[Black "Tinsley"]
[White "Chinook"]
[Result "1/2-1/2"]
{An old opening.}
1. 11-15 23-19 {the usual reply} (1... 22-18 {the Single Corner} 2. 15x22
25x18 (2... 26x17) 3. 8-11) 2. 8-11 $1 22-17! 3. 9-13 (3. 4-8) 17-14 10x17 21x14 1/2-1/2
"#;

#[test]
fn a_checkerboard_style_file_reads_with_its_variations_and_comments() {
    let (game, tree) = games_with_trees(CHECKERBOARD).next().unwrap().unwrap();
    // The main line is the game's, as the plain reader gives it.
    let plain = read_games(CHECKERBOARD).remove(0).unwrap();
    assert_eq!(game, plain);
    assert_eq!(tree.main_line(), plain.moves);
    assert_eq!(tree.comment(ROOT), Some("An old opening."));
    // 8 main-line moves, 4 in the first variation, 1 nested in it, 1 more.
    assert_eq!(tree.len(), 8 + 4 + 1 + 1);
    let written = write_tree(&game, &tree).replace('\n', " ");
    assert!(
        written.contains(
            "1. 11-15 23-19 {the usual reply} (1... 22-18 {the Single Corner} 2. 15x22 \
             25x18 (2... 26x17) 3. 8-11) 2. 8-11 22-17 3. 9-13 (3. 4-8) 3... 17-14 \
             4. 10x17 21x14 1/2-1/2"
        ),
        "{written}"
    );
}

#[test]
fn a_tree_with_nested_variations_round_trips_through_pdn() {
    let mut tree = MoveTree::new(Position::start());
    let play = |tree: &mut MoveTree, text: &str| {
        for word in text.split_whitespace() {
            let m = tree.position().parse_move(word).unwrap();
            tree.play(m);
        }
    };
    play(&mut tree, "11-15 23-19 8-11 22-17 9-13");
    tree.go_to_start();
    play(&mut tree, "11-15 22-18 15x22 25x18");
    tree.back();
    play(&mut tree, "26x17");
    tree.back();
    tree.back();
    tree.back();
    play(&mut tree, "24-20");
    tree.add_comment(tree.current(), "a side line");
    tree.go_to_start();
    play(&mut tree, "9-14");
    let record = read_games("[Event \"x\"]\n*").remove(0).unwrap();
    let text = write_tree(&record, &tree);
    let (_, back) = games_with_trees(&text).next().unwrap().unwrap();
    assert_eq!(write_tree(&record, &back), text);
    assert_eq!(back.len(), tree.len());
    assert_eq!(back.main_line(), tree.main_line());
    // Written lines stay within 79 columns.
    assert!(text.lines().all(|l| l.chars().count() <= 79), "{text}");
}

#[test]
fn a_bad_move_in_a_variation_drops_the_rest_of_it_and_keeps_the_game() {
    let text = "1. 11-15 23-19 (1... 22-18 2. 15x22 30-26 25x18) 2. 8-11 *";
    let (game, tree) = games_with_trees(text).next().unwrap().unwrap();
    assert_eq!(game.moves.len(), 3);
    // 22-18 and 15x22 replay; 30-26 is not White's move: the rest is left out.
    assert_eq!(tree.len(), 3 + 2);
}

#[test]
fn an_unclosed_variation_is_a_fault_named_where_it_opens_and_the_next_game_still_reads() {
    let text = "[Event \"a\"]\n1. 11-15 (1. 9-13 22-18\n[Event \"b\"]\n1. 11-15 *\n";
    let games: Vec<_> = games_with_trees(text).collect();
    assert_eq!(games.len(), 2);
    let error = games[0].as_ref().unwrap_err().to_string();
    assert!(error.contains("variation '(' never closed"), "{error}");
    assert!(error.contains("line 2, column 10"), "{error}");
    assert!(games[1].is_ok());
    // The reader that skips variations says the same of this game.
    let skipped = read_games(text);
    assert!(skipped[0].is_err());
}

/// A record whose moves carry both a comment and a clock reading, in one comment or in
/// two, and a clock reading alone.
const CLOCKED: &str = "[Event \"Clocked\"]\n[Result \"*\"]\n\
                       1. 11-15 {[%clk 0:04:50]} 23-19 {[%clk 0:04:40] good move} \
                       2. 8-11 {good} {[%clk 0:04:31]} 22-17 *\n";

#[test]
fn a_move_with_a_comment_and_a_clock_reading_keeps_both_when_saved_again() {
    // Saved again, the second move lost its comment (the reader kept only the clock
    // of "{[%clk ...] good move}") and the third its clock (a move with a comment got
    // no clock written).
    let (record, tree) = games_with_trees(CLOCKED).next().unwrap().unwrap();
    let seconds = |s: u64| Some(std::time::Duration::from_secs(s));
    let readings = [seconds(290), seconds(280), seconds(271)];
    assert_eq!(record.clocks[..3], readings[..]);
    let saved = super::write_keeping(&record, &tree);
    let (back, back_tree) = games_with_trees(&saved).next().unwrap().unwrap();
    assert_eq!(back.clocks, record.clocks, "{saved}");
    assert_eq!(back.moves, record.moves);
    // The comments, as the analysis board's move list shows them.
    let comments = |tree: &MoveTree| {
        let mut tree = tree.clone();
        tree.go_to_start();
        let mut all = Vec::new();
        while tree.forward() {
            all.push(tree.comment(tree.current()).map(String::from));
        }
        all
    };
    let expected = [
        None,
        Some("good move".to_string()),
        Some("good".into()),
        None,
    ];
    assert_eq!(comments(&tree), expected, "as read");
    assert_eq!(comments(&back_tree), expected, "{saved}");
    assert!(saved.contains("{[%clk 0:04:40] good move}"), "{saved}");
    assert!(saved.contains("{[%clk 0:04:31] good}"), "{saved}");
    // Played on from the file (Esc in its review, or resumed), with no clock of its
    // own: the save still has the file's readings (it had none).
    let session = crate::session::Session::from_record(&record);
    let played_on = session.record("2026.12.07");
    assert_eq!(played_on.clocks, record.clocks);
    let saved = super::write_keeping(&played_on, &tree);
    assert!(saved.contains("{[%clk 0:04:40] good move}"), "{saved}");
}

#[test]
fn moves_taken_back_in_a_loaded_game_stay_in_its_save_as_a_variation() {
    // The file's moves after the point taken back to were kept only in the Undone
    // tag, which other programs do not show.
    let file = "[Event \"Club\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n\
                1. 11-15 23-19 2. 8-11 {solid} 22-17 3. 9-13 1-0\n";
    let (loaded, tree) = games_with_trees(file).next().unwrap().unwrap();
    let (mut game, players) = super::game_from_record(&loaded);
    // The game ended as recorded: the first undo takes back that ending.
    while game.moves().len() > 2 {
        assert!(game.undo());
    }
    let record = super::game_record(&game, &players, "?");
    let saved = super::write_keeping(&record, &tree);
    let flat = saved.replace('\n', " ");
    assert!(
        flat.contains("1. 11-15 23-19 (1... 23-19 2. 8-11 {solid} 2... 22-17 3. 9-13) *"),
        "{saved}"
    );
    // Read back: the game is where it was left, redo plays the file's moves again, and
    // the analysis board shows them as the variation.
    let (back, back_tree) = games_with_trees(&saved).next().unwrap().unwrap();
    assert_eq!(back.moves, game.moves());
    let (resumed, _) = super::game_from_record(&back);
    assert_eq!(resumed.undone_moves(), game.undone_moves());
    assert_eq!(back_tree.main_line(), back.moves);
    assert_eq!(back_tree.len(), 2 + 4);
    assert_eq!(
        super::write_keeping(&back, &back_tree),
        saved,
        "saved again"
    );
    // Taken back to the start, there is no move for a variation to stand beside: the
    // Undone tag keeps the moves.
    let mut start = game.clone();
    while start.undo() {}
    let record = super::game_record(&start, &players, "?");
    let saved = super::write_keeping(&record, &tree);
    assert!(
        saved.contains("[Undone \"11-15 23-19 8-11 22-17 9-13\"]"),
        "{saved}"
    );
    assert!(games_with_trees(&saved).next().unwrap().is_ok(), "{saved}");
}
