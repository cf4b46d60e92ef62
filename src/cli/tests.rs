//! Parsing of the command line: defaults, ranges and refusals.

use super::*;
use clap::CommandFactory;

#[test]
fn the_command_line_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn game_options_not_given_are_none_and_default_when_used() {
    let cli = Cli::try_parse_from(["checkers"]).unwrap();
    assert!(cli.command.is_none());
    let play = &cli.play;
    assert_eq!((play.black, play.white, play.level), (None, None, None));
    assert_eq!(play.black(), PlayerKind::Human);
    assert_eq!(play.white(), PlayerKind::Human);
    assert_eq!(play.level(), Level::default());
    assert_eq!(play.level().number(), 5);

    let cli = Cli::try_parse_from(["checkers", "--black", "cpu", "--level", "9"]).unwrap();
    assert_eq!(cli.play.black, Some(PlayerKind::Cpu));
    assert_eq!(cli.play.white, None);
    assert_eq!(cli.play.level, Level::new(9));
    assert!(Cli::try_parse_from(["checkers", "--level", "0"]).is_err());
    assert!(Cli::try_parse_from(["checkers", "--level", "11"]).is_err());
}

#[test]
fn values_are_typed() {
    let cli = Cli::try_parse_from([
        "checkers",
        "match",
        "--level",
        "10",
        "--level",
        "1",
        "--movetime",
        "250",
    ])
    .unwrap();
    let Some(Command::Match(args)) = cli.command else {
        panic!("not a match");
    };
    assert_eq!(args.levels, MatchLevels([Level::MAX, Level::MIN]));
    assert_eq!(args.movetime, Duration::from_millis(250));
    assert_eq!((args.games, args.max_plies, args.hash), (2, 300, None));
    assert_eq!(args.hash_mb(), 40);
    for (options, megabytes) in [
        (&["--movetime", "1000"][..], 160),
        (&["--movetime", "20"], 16),
        (&["--movetime", "60000"], 256),
        (&["--clock", "G/1"], 64),
        (&["--movetime", "1000", "--hash", "8"], 8),
    ] {
        let cli = Cli::try_parse_from(["checkers", "match"].iter().chain(options)).unwrap();
        let Some(Command::Match(args)) = cli.command else {
            panic!("not a match");
        };
        assert_eq!(args.hash_mb(), megabytes, "{options:?}");
    }
    assert_eq!(args.openings, None);

    let cli = Cli::try_parse_from(["checkers", "analyse", "--movetime", "40"]).unwrap();
    let Some(Command::Analyse(args)) = cli.command else {
        panic!("not analyse");
    };
    assert_eq!(args.movetime, Some(Duration::from_millis(40)));
    assert_eq!(args.hash, 64);

    let cli = Cli::try_parse_from(["checkers", "perft", "3", "--threads", "4"]).unwrap();
    let Some(Command::Perft(args)) = cli.command else {
        panic!("not perft");
    };
    assert_eq!((args.depth, args.threads), (3, 4));
}

#[test]
fn match_takes_level_twice_or_not_at_all() {
    let cli = Cli::try_parse_from(["checkers", "match"]).unwrap();
    let Some(Command::Match(args)) = cli.command else {
        panic!("not a match");
    };
    assert_eq!(args.levels, MatchLevels([Level::MAX, Level::MAX]));
    for count in [1, 3] {
        let mut args = vec!["checkers", "match"];
        for _ in 0..count {
            args.extend(["--level", "3"]);
        }
        let err = Cli::try_parse_from(&args).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{count}: {err}");
        if count > 0 {
            assert_eq!(err.kind(), ErrorKind::WrongNumberOfValues, "{err}");
            assert!(err.to_string().contains("--level twice"), "{err}");
        }
    }
    let err =
        Cli::try_parse_from(["checkers", "match", "--level", "3", "--level", "11"]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ValueValidation, "{err}");
}
