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
