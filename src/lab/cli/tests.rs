//! Parsing of the lab's command line: defaults, ranges and refusals.

use super::*;
use clap::CommandFactory;

#[test]
fn the_labs_command_line_is_consistent() {
    LabCli::command().debug_assert();
}

#[test]
fn match_values_are_typed() {
    let cli = LabCli::try_parse_from([
        "checkers-lab",
        "match",
        "--level",
        "10",
        "--level",
        "1",
        "--movetime",
        "250",
    ])
    .unwrap();
    let LabCommand::Match(args) = cli.command else {
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
        let cli = LabCli::try_parse_from(["checkers-lab", "match"].iter().chain(options)).unwrap();
        let LabCommand::Match(args) = cli.command else {
            panic!("not a match");
        };
        assert_eq!(args.hash_mb(), megabytes, "{options:?}");
    }
    assert_eq!(args.openings, None);
}

#[test]
fn match_takes_level_twice_or_not_at_all() {
    let cli = LabCli::try_parse_from(["checkers-lab", "match"]).unwrap();
    let LabCommand::Match(args) = cli.command else {
        panic!("not a match");
    };
    assert_eq!(args.levels, MatchLevels([Level::MAX, Level::MAX]));
    for count in [1, 3] {
        let mut args = vec!["checkers-lab", "match"];
        for _ in 0..count {
            args.extend(["--level", "3"]);
        }
        let err = LabCli::try_parse_from(&args).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{count}: {err}");
        if count > 0 {
            assert_eq!(err.kind(), ErrorKind::WrongNumberOfValues, "{err}");
            assert!(err.to_string().contains("--level twice"), "{err}");
        }
    }
    let err = LabCli::try_parse_from(["checkers-lab", "match", "--level", "3", "--level", "11"])
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::ValueValidation, "{err}");
}

#[test]
fn the_help_names_the_labs_own_commands() {
    // `train` is the lab's: `checkers train` would be refused.
    let mut cli = LabCli::command();
    for sub in ["match", "selfplay"] {
        let help = cli
            .find_subcommand_mut(sub)
            .unwrap()
            .render_long_help()
            .to_string();
        assert!(
            help.contains("`checkers-lab train --model net`"),
            "{sub}: {help}"
        );
        assert!(!help.contains("`checkers train"), "{sub}: {help}");
    }
}

/// A count that must be positive is refused in words, not clap's raw range
/// ("0 is not in 1..18446744073709551615", "1..=4294967295").
#[test]
fn a_count_below_one_is_told_to_be_one_or_more() {
    for args in [
        ["checkers-lab", "match", "--nodes", "0"],
        ["checkers-lab", "match", "--nodes", "-1"],
        ["checkers-lab", "book", "--min-games", "0"],
    ] {
        let err = LabCli::try_parse_from(args).unwrap_err();
        assert_eq!(err.exit_code(), 2, "{err}");
        let said = err.to_string();
        assert!(said.contains(&format!("'{}'", args[3])), "{said}");
        assert!(said.contains("must be 1 or more"), "{said}");
        assert!(!said.contains(".."), "{said}");
    }
    let ok = LabCli::try_parse_from(["checkers-lab", "match", "--nodes", "18446744073709551615"]);
    assert!(ok.is_ok());
}
