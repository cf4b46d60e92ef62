//! `selfplay` and `train`, the commands that make the learned evaluation, run as a user
//! runs them; and the evaluation they make, in `analyse` and `match`.

use checkers::engine::learned::Weights;
use checkers::engine::nnue::Nnue;
use checkers::lab::training::Sample;

use crate::common::command::{run, stderr, stdout};

#[test]
fn selfplay_writes_positions_that_train_reads_back_into_weights() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    let data_arg = data.to_str().unwrap();
    let o = run(&[
        "selfplay", "--games", "3", "--nodes", "300", "--out", data_arg,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stdout(&o);
    assert!(said.starts_with("3 games ("), "{said}");
    assert!(said.contains("positions a minute"), "{said}");
    let text = std::fs::read_to_string(&data).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines.len() > 30, "{} positions", lines.len());
    for line in &lines {
        let sample = Sample::from_line(line).unwrap();
        // Quiet: the side to move has no capture.
        assert!(sample.position.capturers().is_empty(), "{line}");
        assert!(sample.score.is_some(), "{line}");
    }
    // A second run adds to the file.
    let o = run(&[
        "selfplay", "--games", "1", "--nodes", "300", "--seed", "5", "--out", data_arg,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let more = std::fs::read_to_string(&data).unwrap().lines().count();
    assert!(more > lines.len());

    let weights = dir.path().join("weights.bin");
    let o = run(&[
        "train",
        "--data",
        data_arg,
        "--out",
        weights.to_str().unwrap(),
        "--epochs",
        "2",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stdout(&o);
    assert!(said.contains(&format!("{more} positions")), "{said}");
    assert!(said.contains("held-out error: hand-written "), "{said}");
    let bytes = std::fs::read(&weights).unwrap();
    assert_eq!(bytes.len(), Weights::FILE_BYTES);
    assert!(Weights::from_bytes(&bytes).is_ok());
}

#[test]
fn train_names_a_faulty_line_and_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    std::fs::write(
        &data,
        "B:W21,22:B9,10\t12\t1-0\nB:W21,22:B9,10\ttwelve\t1-0\n",
    )
    .unwrap();
    let weights = dir.path().join("weights.bin");
    std::fs::write(&weights, b"old weights").unwrap();
    let o = run(&[
        "train",
        "--data",
        data.to_str().unwrap(),
        "--out",
        weights.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("positions.txt: line 2: the score \"twelve\""),
        "{err}"
    );
    assert_eq!(std::fs::read(&weights).unwrap(), b"old weights");
    // Nothing to train on at all.
    let o = run(&["train", "--out", weights.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("no training positions"),
        "{}",
        stderr(&o)
    );
    // A bad option value says what is wrong.
    let o = run(&["train", "--out", "w.bin", "--lambda", "2"]);
    assert!(
        stderr(&o).contains("2 is not a number from 0 to 1"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn analyse_and_match_take_either_evaluation() {
    for eval in ["hand", "learned"] {
        let o = run(&["analyse", "--depth", "6", "--eval", eval]);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(stdout(&o).lines().last().unwrap().starts_with("bestmove "));
    }
    let o = run(&[
        "match",
        "--games",
        "2",
        "--movetime",
        "10",
        "--eval-a",
        "learned",
        "--eval-b",
        "hand",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("A level 10+learned"), "{out}");
    assert!(out.contains("B level 10+hand"), "{out}");
    let o = run(&["analyse", "--eval", "neural"]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("neural"), "{}", stderr(&o));
}

#[test]
fn book_build_searches_the_ballots_and_the_games_openings() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("book.txt");
    let games = env!("CARGO_MANIFEST_DIR").to_string() + "/tests/fixtures/tinsley.pdn";
    let o = run(&[
        "book",
        "--out",
        book.to_str().unwrap(),
        "--pdn",
        &games,
        "--movetime",
        "1",
        "--min-games",
        "40",
        "--plies",
        "4",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&book).unwrap();
    let parsed = checkers::engine::book::Book::parse(&text).unwrap();
    // Every playable ballot with a choice to make, and the start position (every game
    // passes it).
    for ballot in checkers::engine::acf_openings() {
        let pos = ballot.position();
        if !ballot.is_barred() && pos.count_moves() > 1 {
            assert!(parsed.entry(&pos).is_some(), "ballot {}", ballot.number);
        }
    }
    let start = parsed.entry(&checkers::rules::Position::start()).unwrap();
    let played: u32 = start.played.iter().map(|(_, n)| n).sum();
    assert!(played >= 700, "{played} games from the start");
    assert!(stdout(&o).contains(&format!("{} positions written", parsed.len())));
}

#[test]
fn book_show_says_what_the_built_in_book_knows() {
    let o = run(&["book", "show"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.starts_with("book: "), "{out}");
    assert!(out.contains("played "), "{out}");
    // A position far from any opening is not in it.
    let o = run(&["book", "show", "--fen", "W:WK19,K23:BK28,12"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("is not in the book"), "{}", stderr(&o));
}

#[test]
fn a_network_goes_on_training_from_the_last_generation() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    let data_arg = data.to_str().unwrap();
    let o = run(&[
        "selfplay", "--games", "2", "--nodes", "300", "--eval", "net", "--out", data_arg,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let generation = dir.path().join("gen.bin");
    let train = |from: &str, model: &str| {
        run(&[
            "train",
            "--model",
            model,
            "--from",
            from,
            "--data",
            data_arg,
            "--out",
            generation.to_str().unwrap(),
            "--epochs",
            "1",
            "--threads",
            "1",
            "--learning-rate",
            "0.5",
        ])
    };
    let o = train("embedded", "net");
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stdout(&o);
    assert!(
        said.contains("starting from the embedded network"),
        "{said}"
    );
    assert!(said.contains("pass 1: loss "), "{said}");
    let first = std::fs::read(&generation).unwrap();
    assert_eq!(first.len(), Nnue::FILE_BYTES);
    assert!(Nnue::from_bytes(&first).is_ok());
    // A step from the embedded network is small: most weights are as they were.
    let embedded = include_bytes!("../../src/engine/net.bin");
    let same = first
        .chunks(4)
        .zip(embedded.chunks(4))
        .filter(|(a, b)| a == b)
        .count();
    assert!(
        same * 2 > first.len() / 4,
        "{same} of {} words kept",
        first.len() / 4
    );
    // The file it wrote is a generation to go on from.
    let next = dir.path().join("next.bin");
    std::fs::copy(&generation, &next).unwrap();
    let o = train(next.to_str().unwrap(), "net");
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("starting from "), "{}", stdout(&o));
    // A file that is not a network is named, and the pattern table has no generations.
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, "not a network").unwrap();
    let o = train(junk.to_str().unwrap(), "net");
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("junk.bin: not a checkers network file (the --from network file)"),
        "{}",
        stderr(&o)
    );
    // It is read before the data, which can take minutes: a missing data file is not
    // reached.
    let o = run(&[
        "train",
        "--model",
        "net",
        "--from",
        junk.to_str().unwrap(),
        "--data",
        "missing.txt",
        "--out",
        generation.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("junk.bin: not a checkers network file"),
        "{}",
        stderr(&o)
    );
    let o = train("embedded", "table");
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--model net"), "{}", stderr(&o));
}

#[test]
fn selfplay_searches_deeper_from_a_number_of_pieces_and_refuses_an_impossible_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("deep.txt");
    let data_arg = data.to_str().unwrap();
    let o = run(&[
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "300",
        "--deep-nodes",
        "3000",
        "--deep-pieces",
        "30",
        "--out",
        data_arg,
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--deep-pieces"), "{err}");
    assert!(err.contains("30 is not in 2..=24"), "{err}");
    assert!(!data.exists(), "nothing is written for a refused option");
    // Without --deep-nodes, --deep-pieces would do nothing: it is refused, not ignored.
    let o = run(&["selfplay", "--deep-pieces", "16", "--out", data_arg]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("--deep-nodes <NODES>"), "{err}");
    assert!(!data.exists(), "nothing is written for a refused option");
    let o = run(&[
        "selfplay",
        "--games",
        "2",
        "--nodes",
        "300",
        "--deep-nodes",
        "3000",
        "--deep-pieces",
        "20",
        "--out",
        data_arg,
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with("2 games ("), "{}", stdout(&o));
    let text = std::fs::read_to_string(&data).unwrap();
    let samples: Vec<Sample> = text
        .lines()
        .map(|l| Sample::from_line(l).unwrap())
        .collect();
    assert!(samples.iter().any(|s| s.position.occupied().count() >= 20));
    assert!(samples.iter().any(|s| s.position.occupied().count() < 20));
}
