//! The lab's commands run in-process as `checkers-lab` runs them (the binary itself is
//! run in the program's tests): self-play writes positions that training reads back
//! into weights and networks, and the book is built from the ballots and the games.
#![allow(clippy::unwrap_used)]

use super::cli::LabCli;
use crate::engine::learned::Weights;
use crate::engine::nnue::Nnue;
use crate::lab::training::Sample;
use clap::Parser;

/// What a run of the lab said: its exit code, its report and its closing message.
struct Ran {
    code: u8,
    stdout: String,
    stderr: String,
}

/// Runs `checkers-lab` with `args` in this process: the exit code and words a user
/// would see.
fn run(args: &[&str]) -> Ran {
    let cli =
        match LabCli::try_parse_from(std::iter::once("checkers-lab").chain(args.iter().copied())) {
            Ok(cli) => cli,
            Err(refused) => {
                return Ran {
                    code: u8::try_from(refused.exit_code()).unwrap(),
                    stdout: String::new(),
                    stderr: refused.render().to_string(),
                };
            }
        };
    let mut out = Vec::new();
    let exit = super::exit(&super::run_to(cli, &mut out));
    Ran {
        code: exit.code,
        stdout: String::from_utf8(out).unwrap(),
        stderr: exit.message.unwrap_or_default(),
    }
}

#[test]
fn selfplay_writes_positions_that_train_reads_back_into_weights() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    let data_arg = data.to_str().unwrap();
    let o = run(&[
        "selfplay", "--games", "3", "--nodes", "300", "--out", data_arg,
    ]);
    assert!(o.code == 0, "{}", o.stderr);
    let said = o.stdout.clone();
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
    assert!(o.code == 0, "{}", o.stderr);
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
    assert!(o.code == 0, "{}", o.stderr);
    let said = o.stdout.clone();
    assert!(said.contains(&format!("{more} positions")), "{said}");
    assert!(said.contains("held-out error: "), "{said}");
    let bytes = std::fs::read(&weights).unwrap();
    assert_eq!(bytes.len(), Weights::FILE_BYTES);
    assert!(Weights::from_bytes(&bytes).is_ok());
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
    assert!(o.code == 0, "{}", o.stderr);
    let text = std::fs::read_to_string(&book).unwrap();
    let parsed = crate::engine::book::Book::parse(&text).unwrap();
    // Every playable ballot with a choice to make, and the start position (every game
    // passes it).
    for ballot in crate::engine::acf_openings() {
        let pos = ballot.position();
        if !ballot.is_barred() && pos.count_moves() > 1 {
            assert!(parsed.entry(&pos).is_some(), "ballot {}", ballot.number);
        }
    }
    let start = parsed.entry(&crate::rules::Position::start()).unwrap();
    let played: u32 = start.played.iter().map(|(_, n)| n).sum();
    assert!(played >= 700, "{played} games from the start");
    assert!(
        o.stdout
            .contains(&format!("{} positions written", parsed.len()))
    );
}

#[test]
fn dropout_expansion_grows_the_book_from_the_ballots_along_near_best_moves() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.txt");
    let grown = dir.path().join("grown.txt.zst");
    let o = run(&["book", "--out", first.to_str().unwrap(), "--movetime", "1"]);
    assert!(o.code == 0, "{}", o.stderr);
    let o = run(&[
        "book",
        "--from",
        first.to_str().unwrap(),
        "--out",
        grown.to_str().unwrap(),
        "--movetime",
        "1",
        "--expand",
        "12",
        "--lines",
        "2",
    ]);
    assert!(o.code == 0, "{}", o.stderr);
    assert!(o.stdout.contains("0 positions to search"), "{}", o.stdout);
    assert!(
        o.stdout
            .contains("dropout expansion: 12 positions searched"),
        "{}",
        o.stdout
    );
    let text = std::fs::read_to_string(&first).unwrap();
    let before = crate::engine::book::Book::parse(&text).unwrap();
    let bytes = zstd::stream::decode_all(std::fs::read(&grown).unwrap().as_slice()).unwrap();
    let after = crate::engine::book::Book::parse(&String::from_utf8(bytes).unwrap()).unwrap();
    assert_eq!(after.len(), before.len() + 12);
    // Each new position follows from a position of the book by one move (and the only
    // moves after it), or is a playable ballot's first choice after its only moves.
    let follow = |mut pos: crate::rules::Position| {
        while let [only] = pos.legal_moves()[..] {
            pos = pos.play_unchecked(&only);
        }
        pos
    };
    let children = |pos: crate::rules::Position| {
        let moves = pos.legal_moves();
        moves
            .into_iter()
            .map(move |m| follow(pos.play_unchecked(&m)))
    };
    let ballots = crate::engine::acf_openings()
        .into_iter()
        .filter(|b| !b.is_barred())
        .map(|b| follow(b.position()));
    let reached: std::collections::HashSet<_> = after
        .entries()
        .flat_map(|e| children(e.position))
        .chain(ballots)
        .collect();
    let new: Vec<_> = after
        .entries()
        .filter(|e| before.entry(&e.position).is_none())
        .collect();
    assert_eq!(new.len(), 12);
    for entry in new {
        assert!(reached.contains(&entry.position), "{}", entry.position);
        assert!(entry.position.count_moves() > 1, "{}", entry.position);
    }
}

#[test]
fn a_network_goes_on_training_from_the_last_generation() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    let data_arg = data.to_str().unwrap();
    let o = run(&[
        "selfplay", "--games", "2", "--nodes", "300", "--eval", "net", "--out", data_arg,
    ]);
    assert!(o.code == 0, "{}", o.stderr);
    let generation = dir.path().join("gen.bin");
    // Each generation a new file: --out replaces none.
    let train = |from: &str, model: &str| {
        let _ = std::fs::remove_file(&generation);
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
    assert!(o.code == 0, "{}", o.stderr);
    let said = o.stdout.clone();
    assert!(
        said.contains("starting from the embedded network"),
        "{said}"
    );
    assert!(said.contains("pass 1: loss "), "{said}");
    let first = std::fs::read(&generation).unwrap();
    assert_eq!(first.len(), Nnue::FILE_BYTES);
    assert!(Nnue::from_bytes(&first).is_ok());
    // A step from the embedded network is small: most weights are as they were.
    let embedded = include_bytes!("../engine/net.bin");
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
    assert!(o.code == 0, "{}", o.stderr);
    assert!(o.stdout.contains("starting from "), "{}", o.stdout);
    // A file that is not a network is named, and the pattern table has no generations.
    let junk = dir.path().join("junk.bin");
    std::fs::write(&junk, "not a network").unwrap();
    let o = train(junk.to_str().unwrap(), "net");
    assert_eq!(Some(o.code), Some(1));
    assert!(
        o.stderr.contains(&format!(
            "--from {}: not a checkers network file",
            junk.display()
        )),
        "{}",
        o.stderr
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
        o.stderr.contains("junk.bin: not a checkers network file"),
        "{}",
        o.stderr
    );
    let o = train("embedded", "table");
    assert_eq!(Some(o.code), Some(1));
    assert!(o.stderr.contains("--model net"), "{}", o.stderr);
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
    assert_eq!(Some(o.code), Some(2));
    let err = o.stderr.clone();
    assert!(err.contains("--deep-pieces"), "{err}");
    assert!(err.contains("must be a whole number from 2 to 24"), "{err}");
    assert!(!data.exists(), "nothing is written for a refused option");
    // Without --deep-nodes, --deep-pieces would do nothing: it is refused, not ignored.
    let o = run(&["selfplay", "--deep-pieces", "16", "--out", data_arg]);
    assert_eq!(Some(o.code), Some(2));
    let err = o.stderr.clone();
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
    assert!(o.code == 0, "{}", o.stderr);
    assert!(o.stdout.starts_with("2 games ("), "{}", o.stdout);
    let text = std::fs::read_to_string(&data).unwrap();
    let samples: Vec<Sample> = text
        .lines()
        .map(|l| Sample::from_line(l).unwrap())
        .collect();
    assert!(samples.iter().any(|s| s.position.occupied().count() >= 20));
    assert!(samples.iter().any(|s| s.position.occupied().count() < 20));
}

#[test]
fn selfplay_refuses_a_seed_whose_games_its_file_holds_and_names_a_fresh_one() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    let data_arg = data.to_str().unwrap();
    let selfplay = |seed: &str| {
        run(&[
            "selfplay", "--games", "1", "--nodes", "100", "--seed", seed, "--out", data_arg,
        ])
    };
    assert_eq!(selfplay("3").code, 0);
    assert_eq!(selfplay("7").code, 0);
    let before = std::fs::read_to_string(&data).unwrap();
    let o = selfplay("3");
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains(
            "holds the games of --seed 3 already (" // then the seeds file's name
        ) && o.stderr.ends_with(
            "positions.txt.seeds lists the seeds that added to it): the same seed plays the \
             same games again; give another, such as --seed 8"
        ),
        "{}",
        o.stderr
    );
    assert_eq!(
        std::fs::read_to_string(&data).unwrap(),
        before,
        "nothing added"
    );
    // A fresh file starts a fresh list.
    std::fs::remove_file(&data).unwrap();
    assert_eq!(selfplay("3").code, 0);
}

#[test]
fn a_missing_output_folder_is_refused_before_any_work_as_the_player_refuses_it() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing");
    let out = missing.join("x.txt");
    let out_arg = out.to_str().unwrap();
    for args in [
        &["book", "--out", out_arg, "--movetime", "1"][..],
        &[
            "selfplay", "--games", "1", "--nodes", "100", "--out", out_arg,
        ],
        &["train", "--data", out_arg, "--out", out_arg],
        &["match", "--games", "1", "--movetime", "1", "--pdn", out_arg],
    ] {
        let o = run(args);
        assert_eq!(o.code, 1, "{args:?}: {}", o.stderr);
        let said = format!(
            "{out_arg}: no folder {}: create it first, or name a file in a folder that exists",
            missing.display()
        );
        assert!(o.stderr.contains(&said), "{args:?}: {}", o.stderr);
        assert!(!missing.exists(), "{args:?} made the folder");
    }
}

#[test]
fn match_pdn_that_is_a_folder_is_named_as_every_file_option_names_one() {
    let dir = tempfile::tempdir().unwrap();
    let folder = dir.path().to_str().unwrap();
    let o = run(&["match", "--games", "1", "--movetime", "1", "--pdn", folder]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr
            .starts_with(&format!("checkers-lab: --pdn {folder}: it is a folder")),
        "{}",
        o.stderr
    );
    assert_eq!(o.stdout, "", "refused before the first game");
}

/// `load`'s numbers are bounded and told so in words: `--think-ms` and `--seconds`
/// took any number, and a huge one overflowed the clock (a player's task, or the
/// run, panicked); `--games` and `--server-pid` took 4294967295.
#[test]
fn load_numbers_out_of_their_range_are_refused_in_words() {
    for (option, bad, range) in [
        ("--think-ms", "-1", "from 0 to 60000"),
        ("--think-ms", "18446744073709551615", "from 0 to 60000"),
        ("--seconds", "0", "from 1 to 86400"),
        ("--seconds", "18446744073709551615", "from 1 to 86400"),
        ("--games", "4294967295", "from 1 to 30000"),
        ("--server-pid", "0", "from 1 to 4194304"),
    ] {
        let o = run(&["load", "--server", "127.0.0.1:1", option, bad]);
        assert_eq!(o.code, 2, "{option} {bad}: {}", o.stderr);
        assert!(
            o.stderr.contains(option)
                && o.stderr
                    .contains(&format!("must be a whole number {range}")),
            "{option} {bad}: {}",
            o.stderr
        );
    }
    let cli = LabCli::try_parse_from([
        "checkers-lab",
        "load",
        "--server",
        "127.0.0.1:1",
        "--think-ms",
        "0",
    ]);
    assert!(cli.is_ok(), "0 ms: moves at once");
}

/// A seed may be any u64: 0 and the largest play their games without a panic (the
/// games' seeds are mixed from it with wrapping arithmetic).
#[test]
fn seeds_of_0_and_the_largest_play_their_games() {
    let dir = tempfile::tempdir().unwrap();
    for seed in ["0", "18446744073709551615"] {
        let data = dir.path().join(format!("data-{seed}.txt"));
        let o = run(&[
            "selfplay",
            "--games",
            "1",
            "--nodes",
            "100",
            "--seed",
            seed,
            "--out",
            data.to_str().unwrap(),
        ]);
        assert_eq!(o.code, 0, "selfplay --seed {seed}: {}", o.stderr);
        let o = run(&["match", "--games", "2", "--movetime", "1", "--seed", seed]);
        assert_eq!(o.code, 0, "match --seed {seed}: {}", o.stderr);
        assert!(o.stdout.contains("game 2:"), "{}", o.stdout);
    }
}

/// Runs `checkers-lab` with `args` in this process as a Ctrl-C that came at once leaves
/// it (the interrupt raised before the first game, search or pass).
fn run_interrupted(args: &[&str]) -> Ran {
    use super::cli::LabCommand;
    let cli = LabCli::try_parse_from(std::iter::once("checkers-lab").chain(args.iter().copied()))
        .unwrap();
    let interrupt = super::interrupt::Interrupt::none();
    interrupt.raise();
    let mut out = Vec::new();
    let result = match cli.command {
        LabCommand::Book(args) => super::book::build(&args, &interrupt, &mut out),
        LabCommand::Selfplay(args) => super::selfplay::play(&args, &interrupt, &mut out),
        LabCommand::Train(args) => super::train::train_until(&args, &interrupt, &mut out),
        LabCommand::Match(args) => {
            super::matches::play_match(&args, &interrupt, &mut out).map(|_| ())
        }
        other => panic!("{other:?} has no interrupt"),
    };
    let exit = super::exit(&result);
    Ran {
        code: exit.code,
        stdout: String::from_utf8(out).unwrap(),
        stderr: exit.message.unwrap_or_default(),
    }
}

#[test]
fn an_interrupted_book_writes_what_it_has_and_says_to_go_on_from_it() {
    let dir = tempfile::tempdir().unwrap();
    let first = dir.path().join("first.txt");
    let first_arg = first.to_str().unwrap();
    let o = run(&["book", "--out", first_arg, "--movetime", "1"]);
    assert!(o.code == 0, "{}", o.stderr);
    let kept = crate::engine::book::Book::parse(&std::fs::read_to_string(&first).unwrap())
        .unwrap()
        .len();
    // Interrupted at once: the book so far is --from's, written whole, and the message
    // says how to go on.
    let book = dir.path().join("book.txt");
    let book_arg = book.to_str().unwrap();
    let games = env!("CARGO_MANIFEST_DIR").to_string() + "/tests/fixtures/tinsley.pdn";
    let o = run_interrupted(&[
        "book",
        "--out",
        book_arg,
        "--from",
        first_arg,
        "--pdn",
        &games,
        "--min-games",
        "1",
        "--movetime",
        "1",
    ]);
    assert_eq!(o.code, 130, "{}", o.stderr);
    assert!(
        o.stderr.starts_with("checkers-lab: interrupted: 0 of "),
        "{}",
        o.stderr
    );
    assert!(
        o.stderr
            .contains(&format!("go on with --from {book_arg} (its positions")),
        "{}",
        o.stderr
    );
    let written =
        crate::engine::book::Book::parse(&std::fs::read_to_string(&book).unwrap()).unwrap();
    assert_eq!(written.len(), kept);
    // With nothing searched and nothing to keep, nothing is written.
    let none = dir.path().join("none.txt");
    let o = run_interrupted(&["book", "--out", none.to_str().unwrap(), "--movetime", "1"]);
    assert_eq!(o.code, 130);
    assert!(o.stderr.contains("nothing written"), "{}", o.stderr);
    assert!(!none.exists());
}

#[test]
fn interrupted_selfplay_match_and_training_keep_their_work_and_say_how_to_go_on() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    let data_arg = data.to_str().unwrap();
    let o = run_interrupted(&[
        "selfplay", "--games", "3", "--nodes", "300", "--seed", "4", "--out", data_arg,
    ]);
    assert_eq!(o.code, 130);
    assert!(
        o.stdout.starts_with("0 games (0 won, 0 drawn)"),
        "{}",
        o.stdout
    );
    assert!(
        o.stderr
            .contains("to add the other 3, run again with another --seed (such as --seed 5)"),
        "{}",
        o.stderr
    );
    // The match prints the table of the games played.
    let o = run_interrupted(&["match", "--games", "2", "--movetime", "10"]);
    assert_eq!(o.code, 130);
    assert!(
        o.stdout.contains("interrupted: 0 of 2 games played"),
        "{}",
        o.stdout
    );
    assert!(o.stdout.contains("total W-L-D"), "{}", o.stdout);
    assert!(
        o.stderr
            .contains("the table above counts the 0 of 2 games played"),
        "{}",
        o.stderr
    );
    // The network's training writes no network, and names the checkpoint to resume.
    let o = run(&[
        "selfplay", "--games", "2", "--nodes", "300", "--out", data_arg,
    ]);
    assert!(o.code == 0, "{}", o.stderr);
    let net = dir.path().join("net.bin");
    let net_arg = net.to_str().unwrap();
    /// The training's command line: `epochs` passes, and `more`.
    fn train_args<'a>(
        data: &'a str,
        out: &'a str,
        epochs: &'a str,
        more: &[&'a str],
    ) -> Vec<&'a str> {
        let mut args = vec![
            "train",
            "--model",
            "net",
            "--data",
            data,
            "--out",
            out,
            "--epochs",
            epochs,
            "--threads",
            "1",
        ];
        args.extend_from_slice(more);
        args
    }
    let train = |epochs, more| train_args(data_arg, net_arg, epochs, more);
    // Interrupted at once, it stops while reading the data, not once it is all read.
    let o = run_interrupted(&train("2", &[]));
    assert_eq!(o.code, 130);
    assert!(
        o.stderr
            .contains("while reading the data, before any checkpoint: nothing written"),
        "{}",
        o.stderr
    );
    assert!(!o.stdout.contains("positions"), "{}", o.stdout);
    assert!(!net.exists());
    let games = env!("CARGO_MANIFEST_DIR").to_string() + "/tests/fixtures/tinsley.pdn";
    let o = run_interrupted(&["train", "--model", "net", "--pdn", &games, "--out", net_arg]);
    assert_eq!(o.code, 130, "{}", o.stderr);
    assert!(o.stderr.contains("while reading the data"), "{}", o.stderr);
    assert!(!o.stdout.contains("positions from"), "{}", o.stdout);
    let o = run(&train("1", &[]));
    assert!(o.code == 0, "{}", o.stderr);
    std::fs::remove_file(&net).unwrap();
    let checkpoint = super::train::checkpoint_path(&net);
    let checkpoint_arg = checkpoint.to_str().unwrap().to_string();
    let o = run_interrupted(&train("2", &["--resume", &checkpoint_arg]));
    assert_eq!(o.code, 130);
    assert!(
        o.stderr.contains(&format!(
            "while reading the data: {net_arg} not written; the checkpoint is still \
             {checkpoint_arg}: go on with the same options and --resume {checkpoint_arg}"
        )),
        "{}",
        o.stderr
    );
    assert!(!net.exists());
}

#[test]
fn an_out_file_of_other_work_is_refused_before_any_work_and_left_whole() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    let data_arg = data.to_str().unwrap();
    let o = run(&[
        "selfplay", "--games", "1", "--nodes", "300", "--out", data_arg,
    ]);
    assert!(o.code == 0, "{}", o.stderr);
    let positions = std::fs::read(&data).unwrap();
    // Training data given as train's --out by mistake.
    let o = run(&["train", "--data", data_arg, "--out", data_arg]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr
            .contains("positions.txt: is there already: --out writes a new file"),
        "{}",
        o.stderr
    );
    assert_eq!(std::fs::read(&data).unwrap(), positions);
    // A network given as selfplay's --out: lines added would cut it back to its last
    // newline.
    let net = dir.path().join("net.bin");
    let embedded = include_bytes!("../engine/net.bin");
    std::fs::write(&net, embedded).unwrap();
    let o = run(&[
        "selfplay",
        "--games",
        "1",
        "--nodes",
        "300",
        "--out",
        net.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 1);
    assert!(
        o.stderr.contains("net.bin: is not training data (line 1: "),
        "{}",
        o.stderr
    );
    assert_eq!(std::fs::read(&net).unwrap(), embedded);
    // A book is not written over, but the book --from grows may be.
    let book = dir.path().join("book.txt");
    let book_arg = book.to_str().unwrap();
    let o = run(&["book", "--out", book_arg, "--movetime", "1"]);
    assert!(o.code == 0, "{}", o.stderr);
    let o = run(&["book", "--out", book_arg, "--movetime", "1"]);
    assert_eq!(o.code, 1);
    assert!(o.stderr.contains("is there already"), "{}", o.stderr);
    let o = run(&[
        "book",
        "--out",
        book_arg,
        "--from",
        book_arg,
        "--movetime",
        "1",
    ]);
    assert!(o.code == 0, "{}", o.stderr);
}

#[test]
fn training_on_too_few_positions_to_hold_any_out_says_so_instead_of_an_error_of_zero() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("positions.txt");
    let data_arg = data.to_str().unwrap();
    let o = run(&[
        "selfplay", "--games", "1", "--nodes", "300", "--out", data_arg,
    ]);
    assert!(o.code == 0, "{}", o.stderr);
    for model in ["table", "net"] {
        let out = dir.path().join(format!("{model}.bin"));
        let o = run(&[
            "train",
            "--model",
            model,
            "--data",
            data_arg,
            "--out",
            out.to_str().unwrap(),
            "--epochs",
            "1",
            "--threads",
            "1",
        ]);
        assert!(o.code == 0, "{}", o.stderr);
        assert!(o.stdout.contains("(0 held out)"), "{}", o.stdout);
        assert!(
            o.stdout
                .contains("held-out error: not measured, no position was held out"),
            "{}",
            o.stdout
        );
        assert!(!o.stdout.contains("held out 0.0"), "{}", o.stdout);
    }
}

/// A terminal of `width` columns that keeps the text drawn on it, for progress bars.
#[derive(Debug, Clone)]
struct DrawnTerminal {
    /// Its columns.
    width: u16,
    /// The lines drawn, the last one last.
    lines: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
}

impl indicatif::TermLike for DrawnTerminal {
    fn width(&self) -> u16 {
        self.width
    }
    fn move_cursor_up(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_down(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_right(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn move_cursor_left(&self, _: usize) -> std::io::Result<()> {
        Ok(())
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        self.write_str(s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        self.lines.lock().unwrap().push(s.to_string());
        Ok(())
    }
    fn clear_line(&self) -> std::io::Result<()> {
        Ok(())
    }
    fn flush(&self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_long_commands_progress_bars_fit_80_columns() {
    for (template, len, message) in [
        (super::selfplay::SELFPLAY_BAR, 40_000, "4123456 positions"),
        (
            super::train::TRAIN_BAR,
            300,
            "loss 0.02618 held out 0.02255",
        ),
        (
            super::train::TRAIN_NET_BAR,
            300,
            "loss 0.01309 held out 0.01728",
        ),
    ] {
        let terminal = DrawnTerminal {
            width: 80,
            lines: Default::default(),
        };
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(len),
            indicatif::ProgressDrawTarget::term_like(Box::new(terminal.clone())),
        );
        bar.set_style(crate::commands::progress_style(template));
        bar.set_position(len / 3);
        bar.set_message(message);
        bar.abandon();
        let lines = terminal.lines.lock().unwrap();
        let drawn = lines
            .iter()
            .find(|line| line.contains(message))
            .unwrap_or_else(|| panic!("the bar is drawn with its message: {lines:?}"));
        let columns = drawn.chars().count();
        assert!(columns <= 80, "{columns} columns: {drawn}");
    }
}

#[test]
fn puzzles_out_refuses_a_file_that_is_there_and_leaves_it_whole() {
    let dir = tempfile::tempdir().unwrap();
    let kept = dir.path().join("positions.txt");
    std::fs::write(&kept, "W:W18:B14\t5\t1-0\n").unwrap();
    let o = run(&[
        "puzzles",
        "--from-games",
        "--games",
        "1",
        "--depth",
        "1",
        "--egdb",
        dir.path().to_str().unwrap(),
        "--out",
        kept.to_str().unwrap(),
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(o.stderr.contains("is there already"), "{}", o.stderr);
    assert_eq!(
        std::fs::read_to_string(&kept).unwrap(),
        "W:W18:B14\t5\t1-0\n",
        "the file named with --out was written over"
    );
}

#[test]
fn puzzles_check_fails_the_command_when_a_proof_fails() {
    // No databases and a one-ply search: the endings' wins are beyond it.
    let dir = tempfile::tempdir().unwrap();
    let o = run(&[
        "puzzles",
        "--check",
        "--depth",
        "1",
        "--egdb",
        dir.path().to_str().unwrap(),
    ]);
    assert!(o.stdout.contains("FAILED"), "{}", o.stdout);
    assert_eq!(o.code, 1, "{}", o.stdout);
    assert!(
        o.stderr
            .contains("of the built-in puzzles failed their proof"),
        "{}",
        o.stderr
    );
}

#[test]
fn puzzles_without_an_action_or_with_depth_0_is_a_usage_error() {
    let o = run(&["puzzles"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--from-games"), "{}", o.stderr);
    assert!(o.stderr.contains("--check"), "{}", o.stderr);
    assert!(!o.stderr.contains("egdb"), "{}", o.stderr);
    let o = run(&["puzzles", "--check", "--depth", "0"]);
    assert_eq!(o.code, 2, "{}", o.stderr);
    assert!(o.stderr.contains("--depth"), "{}", o.stderr);
}

#[test]
fn book_from_a_folder_or_a_fifo_is_refused_in_words_without_waiting() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book.txt");
    let o = run(&[
        "book",
        "--out",
        out.to_str().unwrap(),
        "--from",
        dir.path().to_str().unwrap(),
    ]);
    assert_eq!(o.code, 1, "{}", o.stderr);
    assert!(
        o.stderr.contains("it is a folder, not a regular file"),
        "{}",
        o.stderr
    );
    #[cfg(unix)]
    {
        let fifo = dir.path().join("fifo");
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        let o = run(&[
            "book",
            "--out",
            out.to_str().unwrap(),
            "--from",
            fifo.to_str().unwrap(),
        ]);
        assert_eq!(o.code, 1, "{}", o.stderr);
        assert!(o.stderr.contains("FIFO"), "{}", o.stderr);
    }
    assert!(!out.exists());
}
