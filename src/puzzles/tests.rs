//! The built-in puzzles: each reads, its solution is legal, and its result is proven
//! (the 4-piece databases, or the fixed-depth search its `proof` names, repeated
//! exactly; the deeper proofs of the larger studies behind `#[ignore]`); an attempt
//! accepts a solution and keeps the progress, and answers a wrong move with its
//! refutation.

use super::proof::proof;
use super::*;
use crate::engine::Limits;
use crate::engine::egdb::{self, BuildOptions, Egdb};
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// The databases of up to `pieces` pieces, built once per test run beside the test
/// binary (a build keeps the slices already there, so a later run is quick).
fn databases(pieces: u32) -> Arc<Egdb> {
    let binary = std::env::current_exe().unwrap();
    let dir: PathBuf = binary
        .parent()
        .unwrap()
        .join(format!("puzzles-egdb-{pieces}"));
    let options = BuildOptions {
        dir: dir.clone(),
        max_pieces: pieces,
        threads: 2,
    };
    egdb::build(&options, None, |_| {}).unwrap();
    let (db, problems) = Egdb::open(&dir);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(db.complete_pieces(), pieces);
    Arc::new(db)
}

/// The 4-piece databases, for every test here.
fn four() -> Arc<Egdb> {
    static DB: OnceLock<Arc<Egdb>> = OnceLock::new();
    DB.get_or_init(|| databases(4)).clone()
}

/// The depth of the search a puzzle's proof names ("search to depth 11 with the
/// 4-piece databases"), if it names one with the 4-piece databases.
fn four_piece_search_depth(puzzle: &Puzzle) -> Option<u32> {
    let rest = puzzle.proof.strip_prefix("search to depth ")?;
    let (depth, rest) = rest.split_once(' ')?;
    rest.starts_with("with the 4-piece databases")
        .then(|| depth.parse().ok())
        .flatten()
}

#[test]
fn every_builtin_puzzle_reads_with_a_legal_solution_and_a_goal() {
    let all = builtin();
    assert!(all.len() >= 10, "{}", all.len());
    for p in all {
        // The solution replays from the position (the reader checked each move).
        let end = p
            .solution
            .iter()
            .fold(p.start, |pos, m| pos.play(m).unwrap());
        assert_ne!(end, p.start);
        assert!(
            p.goal_text().ends_with("to move and win")
                || p.goal_text().ends_with("to move and draw")
        );
        assert!(!p.title.is_empty() && !p.source.is_empty(), "{}", p.id);
        assert_eq!(
            p.solution.len() % 2,
            1,
            "{}: the solution ends on the player's move",
            p.id
        );
    }
    let ids: std::collections::HashSet<_> = all.iter().map(|p| &p.id).collect();
    assert_eq!(ids.len(), all.len());
    assert!(all.iter().any(|p| p.kind == Kind::Study));
    assert!(all.iter().any(|p| p.kind == Kind::Game));
}

#[test]
fn a_faulty_puzzle_is_refused_with_its_line() {
    let text = "[a]\ntitle = A\nsource = S\nkind = study\nfen = W:WK19,K23:BK28,12\ngoal = win\nonly = yes\nsolution = 23-27 28-33\nproof = p\n";
    let e = parse(text).unwrap_err();
    assert_eq!(e.line, 8, "{e}");
    assert!(e.to_string().contains("28-33"), "{e}");
    let e = parse("[a]\nfen = W:WK33\n").unwrap_err();
    assert!(e.to_string().starts_with("puzzles, line 2: the FEN"), "{e}");
    let e = parse("[a]\nfen = W:WK19:B1\n").unwrap_err();
    assert_eq!(e.to_string(), "puzzles, line 1: the puzzle has no `goal`");
}

/// Every puzzle the 4-piece databases hold, or whose proof is a search with them, is
/// proven again here: the goal holds, and where the puzzle says so, its first move is
/// the only one that achieves it.
#[test]
fn every_puzzle_of_the_four_piece_databases_or_a_short_search_is_proven() {
    let db = four();
    let mut proven = 0;
    for p in builtin() {
        let depth = if db.probe(&p.start).is_some() {
            1
        } else if let Some(depth) = four_piece_search_depth(p) {
            depth
        } else {
            continue;
        };
        let words = proof(p, depth, &db);
        assert!(!words.starts_with("FAILED"), "{}: {words}", p.id);
        proven += 1;
    }
    let games = builtin().iter().filter(|p| p.kind == Kind::Game).count();
    assert!(proven > games, "{proven} proven");
}

/// The larger studies, with the 5-piece databases (built here the first time: about
/// three minutes of one core) and a search of 25 plies.
#[test]
#[ignore = "deep: builds the 5-piece databases and searches 25 plies"]
fn every_puzzle_is_proven_with_the_five_piece_databases() {
    let db = databases(5);
    for p in builtin() {
        let depth = four_piece_search_depth(p).unwrap_or(25);
        let words = proof(p, depth, &db);
        assert!(!words.starts_with("FAILED"), "{}: {words}", p.id);
    }
}

/// First Position, the first built-in puzzle.
fn first_position() -> &'static Puzzle {
    builtin().iter().find(|p| p.id == "first-position").unwrap()
}

#[test]
fn a_solution_is_accepted_and_the_progress_kept() {
    let judge = Judge::new(Some(four()), Limits::depth(6));
    let puzzle = first_position();
    let mut attempt = Attempt::new(puzzle);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("data").join(progress::FILE_NAME);
    let mut progress = Progress::load(Some(file.clone())).unwrap();
    progress.update(&puzzle.id, |r| r.attempts += 1).unwrap();
    let mine: Vec<_> = puzzle.solution.iter().step_by(2).collect();
    for (i, m) in mine.iter().enumerate() {
        let answer = attempt.play(&judge, m);
        let Answer::Correct { answer, solved, .. } = answer else {
            panic!("{answer:?}");
        };
        let last = i + 1 == mine.len();
        assert_eq!(solved, last);
        // The defender answers with the solution's move while the player follows it.
        if !last {
            let reply = puzzle.solution[2 * i + 1];
            let before = attempt.positions()[2 * i + 1];
            assert_eq!(answer, Some(before.notation(&reply)));
        }
    }
    assert!(attempt.solved);
    assert_eq!(attempt.play_text(&judge, "18-15"), Answer::Over);
    progress.update(&puzzle.id, |r| r.solved = true).unwrap();
    let read = Progress::load(Some(file)).unwrap();
    assert_eq!(
        read.of(&puzzle.id),
        Record {
            solved: true,
            attempts: 1,
            failed: 0
        }
    );
    assert_eq!(read.solved_count(), 1);
}

#[test]
fn another_winning_move_is_accepted_and_answered_by_the_databases() {
    // First Position: 23-18 is not the solution's move but wins too, more slowly: the
    // databases prove it, and answer with their best defence.
    let puzzle = first_position();
    let judge = Judge::new(Some(four()), Limits::depth(4));
    let mut attempt = Attempt::new(puzzle);
    let Answer::Correct {
        answer: Some(reply),
        solved: false,
        ..
    } = attempt.play_text(&judge, "23-18")
    else {
        panic!("23-18 wins too");
    };
    let after = puzzle.start.play_text("23-18").unwrap();
    let best = four().best_moves(&after).unwrap();
    assert!(best.iter().any(|m| after.notation(m) == reply), "{reply}");
}

#[test]
fn a_wrong_move_is_answered_with_its_refutation() {
    let judge = Judge::new(Some(four()), Limits::depth(6));
    let puzzle = first_position();
    let mut attempt = Attempt::new(puzzle);
    // 19-16 walks into the man's double capture: Black wins at once.
    let Answer::Wrong(refutation) = attempt.play_text(&judge, "19-16") else {
        panic!("19-16 throws the win away");
    };
    // The double capture by its route, as the board and the move list give it.
    assert_eq!(refutation.answer.as_deref(), Some("12x19x26"));
    assert_eq!(refutation.result, "the databases: Black wins in 1 move");
    assert_eq!(
        refutation.sentence(),
        "After 19-16 12x19x26 Black wins: 12x19x26 (the databases: Black wins in 1 move)"
    );
    // The position is as before: the player tries again, and the right move is taken.
    assert_eq!(attempt.position(), puzzle.start);
    assert_eq!(attempt.wrong_moves, 1);
    assert!(matches!(
        attempt.play_text(&judge, "23-27"),
        Answer::Correct { solved: false, .. }
    ));
    // The solution shown ends the attempt unsolved.
    attempt.show_solution();
    assert!(attempt.is_over() && !attempt.solved);
    assert_eq!(attempt.moves, puzzle.solution);
}

#[test]
fn a_drawing_move_that_the_puzzle_needs_is_the_only_one_taken() {
    // First Position with Black to move: only 28-32 draws; 12-16 loses, and says how.
    let puzzle = builtin()
        .iter()
        .find(|p| p.id == "first-position-black-to-move")
        .unwrap();
    let judge = Judge::new(Some(four()), Limits::depth(4));
    let mut attempt = Attempt::new(puzzle);
    let Answer::Wrong(refutation) = attempt.play_text(&judge, "12-16") else {
        panic!("12-16 loses");
    };
    assert_eq!(refutation.outcome, "White wins");
    assert!(
        refutation
            .result
            .starts_with("the databases: White wins in")
    );
    assert!(matches!(
        attempt.play_text(&judge, "28-32"),
        Answer::Correct { .. }
    ));
}

#[test]
fn only_built_in_puzzles_count_as_solved_and_the_counts_never_wrap() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join(progress::FILE_NAME);
    let most = u32::MAX;
    std::fs::write(
        &file,
        format!(
            "{{\"zz\": {{\"solved\": true, \"attempts\": 1, \"failed\": 0}}, \
             \"first-position\": {{\"solved\": false, \"attempts\": {most}, \"failed\": {most}}}}}"
        ),
    )
    .unwrap();
    let mut progress = Progress::load(Some(file.clone())).unwrap();
    assert_eq!(progress.solved_count(), 0, "no puzzle has the id zz");
    progress
        .update("first-position", |r| {
            r.count_attempt();
            r.count_failure();
        })
        .unwrap();
    let read = Progress::load(Some(file)).unwrap();
    assert_eq!(
        read.of("first-position"),
        Record {
            solved: false,
            attempts: most,
            failed: most
        }
    );
    assert!(read.of("zz").solved, "kept in the file all the same");
}

#[test]
fn a_progress_file_that_does_not_read_says_where_once() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("puzzles.json");
    std::fs::write(&file, "{bad").unwrap();
    let said = Progress::load(Some(file)).unwrap_err();
    assert!(
        said.contains("puzzles.json, line 1 column 2: key must be a string; the puzzle progress"),
        "{said}"
    );
    assert_eq!(said.matches("column").count(), 1, "{said}");
}

#[test]
fn a_puzzles_moves_and_answers_give_a_multi_jump_by_its_route() {
    // Black to move and win; 14-18 loses both men to White's 22x15x8.
    let start: Position = "B:W22:B11,14".parse().unwrap();
    let puzzle = Puzzle {
        id: "route".into(),
        title: "A double jump".into(),
        source: "test".into(),
        kind: Kind::Study,
        start,
        goal: Goal::Win,
        only_move: false,
        solution: vec![start.parse_move("14-17").unwrap()],
        proof: String::new(),
        hint: None,
        explanation: None,
    };
    let judge = Judge::new(Some(four()), Limits::depth(4));
    let mut attempt = Attempt::new(&puzzle);
    let Answer::Wrong(refutation) = attempt.play_text(&judge, "14-18") else {
        panic!("14-18 loses");
    };
    assert_eq!(refutation.answer.as_deref(), Some("22x15x8"));
    assert!(
        refutation.line.starts_with("22x15x8"),
        "{}",
        refutation.line
    );

    // White's side of it: the solution, and the move played, by route.
    let after = start.play_unchecked(&start.parse_move("14-18").unwrap());
    let jump = after.parse_move("22x8").unwrap();
    let puzzle = Puzzle {
        start: after,
        solution: vec![jump],
        ..puzzle
    };
    assert_eq!(puzzle.solution_text(), "22x15x8");
    let mut attempt = Attempt::new(&puzzle);
    let Answer::Correct { played, .. } = attempt.play_text(&judge, "22x8") else {
        panic!("the solution is correct");
    };
    assert_eq!(played, "22x15x8");
    assert_eq!(attempt.moves_text(), "22x15x8");
}

#[test]
fn another_winning_move_the_engine_cannot_prove_is_not_called_a_mistake() {
    // First Position without the databases: 23-18 wins too (see above), but the win is
    // far beyond a search; it is not the solution's move, and not a wrong one either.
    let puzzle = first_position();
    let judge = Judge::new(None, Limits::depth(6));
    let mut attempt = Attempt::new(puzzle);
    let Answer::Wrong(refutation) = attempt.play_text(&judge, "23-18") else {
        panic!("23-18 is not taken without a proof");
    };
    assert!(!refutation.proven, "{refutation:?}");
    assert_eq!(attempt.wrong_moves, 0, "not counted as a wrong move");
    assert_eq!(attempt.position(), puzzle.start);
    // A blunder the engine sees through is proven wrong and counted.
    let Answer::Wrong(refutation) = attempt.play_text(&judge, "19-16") else {
        panic!("19-16 throws the win away");
    };
    assert!(refutation.proven);
    assert_eq!(attempt.wrong_moves, 1);
}
