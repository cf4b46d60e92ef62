//! Parsing of the command line: defaults, ranges and refusals.

use super::*;

mod options;
mod readme;
mod record_limits;
use clap::CommandFactory;

#[test]
fn the_command_line_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn help_tells_a_newcomer_where_the_rules_are_in_the_home_screens_words() {
    use crate::tui::home::Entry;
    let entry = format!("\"{}\" (key {})", Entry::Help.label(), Entry::Help.key());
    for help in [
        Cli::command().render_help().to_string(),
        Cli::command().render_long_help().to_string(),
    ] {
        // However the terminal's width wraps it.
        let words = help.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains("New to checkers?"), "{help}");
        assert!(words.contains(&entry), "{entry} not in: {help}");
        assert!(words.contains("for the rules"), "{help}");
    }
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
