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

/// Whether a line of PDN movetext ends in a move number (`12.`, `12...`, `1. ...`),
/// its move on the next line.
fn ends_in_a_move_number(line: &str) -> bool {
    // No move, comment or result ends in a dot.
    line.split_whitespace()
        .last()
        .is_some_and(|last| last.ends_with('.'))
}

/// Games of `plies` moves, each move the `(ply * seed) % n`-th legal one, so that
/// their lines break at every kind of word.
fn varied_games(plies: usize) -> Vec<super::PdnGame> {
    (1..12)
        .map(|seed| {
            let mut game = super::PdnGame::new(Position::start());
            let mut pos = Position::start();
            for ply in 0..plies {
                let legal = pos.legal_moves();
                let Some(m) = legal.get((ply * seed + seed) % legal.len().max(1)) else {
                    break;
                };
                game.moves.push(*m);
                game.clocks
                    .push(Some(std::time::Duration::from_secs(300 - ply as u64)));
                pos = pos.play_unchecked(m);
            }
            game
        })
        .collect()
}

#[test]
fn a_move_number_is_never_the_last_word_of_a_line() {
    // The writer wrapped lines between "2." and "8-11", which other PDN writers never
    // do: a reader of the file saw a number with no move after it.
    for game in varied_games(60) {
        for text in [
            super::write_game(&game),
            write_tree(&game, &MoveTree::from_moves(game.start, &game.moves)),
        ] {
            let (back, _) = games_with_trees(&text).next().unwrap().unwrap();
            assert_eq!(back.moves, game.moves, "{text}");
            for line in text.lines() {
                assert!(!ends_in_a_move_number(line), "{line:?} in\n{text}");
                assert!(line.chars().count() <= 79, "{text}");
            }
        }
    }
}

/// A club game with a clock reading after every move, one with a comment too.
const CLOCKED_CLUB: &str = "[Event \"Club\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\
                            [Result \"*\"]\n1. 11-15 {[%clk 0:04:50]} 23-19 {[%clk 0:04:45]} \
                            2. 8-11 {[%clk 0:04:20] good} 22-17 {[%clk 0:04:10]} \
                            3. 9-13 {[%clk 0:04:00]} *\n";

/// Each move of `tree`'s main line from its start, and of the variation beside its last
/// move, with its comment and clock reading as the analysis board keeps them.
fn notes(tree: &MoveTree) -> Vec<(String, Option<String>, Option<std::time::Duration>)> {
    let mut tree = tree.clone();
    let mut all = Vec::new();
    tree.go_to_start();
    loop {
        let here = tree.current();
        if here != ROOT {
            let m = tree.last_move().unwrap().to_string();
            all.push((m, tree.comment(here).map(String::from), tree.clock(here)));
        }
        if !tree.forward() {
            break;
        }
    }
    all
}

#[test]
fn moves_taken_back_keep_their_clock_readings_in_the_saved_variation() {
    // The variation of the file's moves after the point taken back lost their
    // readings: "2. 8-11 {good}" where the file had "{[%clk 0:04:20] good}".
    let (loaded, tree) = games_with_trees(CLOCKED_CLUB).next().unwrap().unwrap();
    let mut session = crate::session::Session::from_record(&loaded);
    while session.game().moves().len() > 2 {
        session.undo().unwrap();
    }
    let record = session.record("2026.12.07");
    let saved = super::write_keeping(&record, &tree);
    let flat = saved.replace('\n', " ");
    assert!(
        flat.contains(
            "1. 11-15 {[%clk 0:04:50]} 23-19 {[%clk 0:04:45]} (1... 23-19 {[%clk 0:04:45]} \
             2. 8-11 {[%clk 0:04:20] good} 2... 22-17 {[%clk 0:04:10]} \
             3. 9-13 {[%clk 0:04:00]}) *"
        ),
        "{saved}"
    );
    // Read back, the variation is the file's game, readings and comment as it had them.
    let (back, back_tree) = games_with_trees(&saved).next().unwrap().unwrap();
    assert_eq!(back.moves, record.moves);
    let mut variation = back_tree.clone();
    variation.go_to_start();
    variation.forward();
    variation.forward();
    assert!(variation.switch_variation(false).is_some());
    let mut from_variation = notes(&tree);
    let mut seen = Vec::new();
    loop {
        let here = variation.current();
        let m = variation.last_move().unwrap().to_string();
        seen.push((
            m,
            variation.comment(here).map(String::from),
            variation.clock(here),
        ));
        if !variation.forward() {
            break;
        }
    }
    assert_eq!(seen, from_variation.split_off(1), "{saved}");
}

#[test]
fn a_save_from_the_analysis_board_keeps_the_clock_readings() {
    // write_tree wrote the comments and no reading: "2. 8-11 {good} 22-17".
    let (record, tree) = games_with_trees(CLOCKED_CLUB).next().unwrap().unwrap();
    let saved = write_tree(&record, &tree);
    let (back, back_tree) = games_with_trees(&saved).next().unwrap().unwrap();
    assert_eq!(back.clocks, record.clocks, "{saved}");
    assert_eq!(notes(&back_tree), notes(&tree), "{saved}");
    let flat = saved.replace('\n', " ");
    let wanted = "2. 8-11 {[%clk 0:04:20] good} 2... 22-17 {[%clk 0:04:10]}";
    assert!(flat.contains(wanted), "{saved}");
    // A tree with no readings of its own (a game reviewed or in play) gets the
    // record's, as the board opens it.
    let mut bare = MoveTree::from_moves(record.start, &record.moves);
    bare.add_main_line_clocks(&record.moves, &record.clocks);
    let saved = write_tree(&record, &bare);
    let (back, _) = games_with_trees(&saved).next().unwrap().unwrap();
    assert_eq!(back.clocks, record.clocks, "{saved}");
}

#[test]
fn a_long_comment_is_wrapped_at_its_spaces_and_reads_back_the_same() {
    // A comment was written as one word: a line of the saved file ran past 79
    // columns, as long as the comment.
    let long = "Black has given up the centre, and White's men on 22 and 23 hold it; \
                the trade that follows is forced, since anything else loses a man at \
                once to the shot 19-16, as Tinsley showed in 1975.";
    let unbroken = format!("https://example.org/{}", "x".repeat(90));
    let mut tree = MoveTree::new(Position::start());
    for word in "11-15 23-19 8-11 22-17".split_whitespace() {
        let m = tree.position().parse_move(word).unwrap();
        tree.play(m);
    }
    tree.go_to_start();
    tree.forward();
    tree.add_comment(tree.current(), long);
    tree.set_clock(tree.current(), Some(std::time::Duration::from_secs(271)));
    tree.forward();
    tree.add_comment(tree.current(), &format!("see  {unbroken} for more"));
    let record = read_games("[Event \"x\"]\n*").remove(0).unwrap();
    let saved = write_tree(&record, &tree);
    // Every line fits, but the one that holds the word longer than a line alone.
    for line in saved.lines() {
        assert!(
            line.chars().count() <= 79 || line.trim() == unbroken,
            "{line:?} in\n{saved}"
        );
    }
    assert!(
        saved.contains("1. 11-15 {[%clk 0:04:31] Black has given up the centre,"),
        "{saved}"
    );
    let (back, back_tree) = games_with_trees(&saved).next().unwrap().unwrap();
    assert_eq!(back.moves, tree.main_line());
    assert_eq!(
        back.clocks.first(),
        Some(&Some(std::time::Duration::from_secs(271)))
    );
    assert_eq!(notes(&back_tree), notes(&tree), "{saved}");
    assert_eq!(write_tree(&record, &back_tree), saved);
}

#[test]
fn an_outer_variation_closes_on_the_line_of_its_last_move() {
    // Its ')' after a nested variation's sat on a row of its own.
    let text = "[Event \"x\"]\n1. 11-15 23-19 (1... 22-18 2. 15x22 25x18 (2... 26x17 3. 8-11)) \
                (1... 24-20 2. 8-11 (2. 9-13 28-24 (2... 27-24)) 27-24) 2. 8-11 *\n";
    let (record, tree) = games_with_trees(text).next().unwrap().unwrap();
    let saved = write_tree(&record, &tree);
    assert!(
        saved.lines().all(|l| !l.trim_start().starts_with(')')),
        "{saved}"
    );
}
