//! The command line's options for the interactive game.
#![allow(clippy::unwrap_used)]

use checkers::cli::Cli;
use clap::Parser;

#[test]
fn game_options_parse_into_settings() {
    let cli =
        Cli::try_parse_from(["checkers", "--flip", "--no-mouse", "--no-color", "--ascii"]).unwrap();
    assert!(cli.command.is_none(), "no subcommand starts the game");
    let settings = cli.tui_settings();
    assert!(settings.flipped);
    assert!(!settings.mouse);
    assert!(!settings.theme.colored);
    assert_eq!(settings.theme.glyphs.black_man, "b");
}

#[test]
fn defaults_are_black_at_the_bottom_with_mouse_and_unicode() {
    let settings = Cli::try_parse_from(["checkers"]).unwrap().tui_settings();
    assert!(!settings.flipped);
    assert!(settings.mouse);
    assert_ne!(settings.theme.glyphs.black_man, "b");
}

#[test]
fn unknown_options_are_refused() {
    assert!(Cli::try_parse_from(["checkers", "--colour"]).is_err());
}
