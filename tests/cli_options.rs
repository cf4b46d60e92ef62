//! The command line's options for the interactive game.
#![allow(clippy::unwrap_used)]

use checkers::cli::Cli;
use checkers::commands::play::{sides, tui_settings};
use checkers::computer::PlayerKind;
use clap::Parser;

#[test]
fn game_options_parse_into_settings() {
    let cli =
        Cli::try_parse_from(["checkers", "--flip", "--no-mouse", "--no-color", "--ascii"]).unwrap();
    assert!(cli.command.is_none(), "no subcommand starts the game");
    let settings = tui_settings(&cli.play);
    assert!(settings.flipped);
    assert!(!settings.mouse);
    assert!(!settings.theme.colored);
    assert_eq!(settings.theme.glyphs.black_man, "b");
}

#[test]
fn defaults_are_black_at_the_bottom_with_mouse_and_unicode() {
    let settings = tui_settings(&Cli::try_parse_from(["checkers"]).unwrap().play);
    assert!(!settings.flipped);
    assert!(settings.mouse);
    assert_ne!(settings.theme.glyphs.black_man, "b");
}

#[test]
fn players_default_to_people_at_level_five() {
    let cli = Cli::try_parse_from(["checkers"]).unwrap();
    let settings = tui_settings(&cli.play);
    assert_eq!(settings.sides, sides(&cli.play));
    assert_eq!(settings.sides.black, PlayerKind::Human);
    assert_eq!(settings.sides.white, PlayerKind::Human);
    assert_eq!(settings.level.number(), 5);

    let cli = Cli::try_parse_from(["checkers", "--white", "cpu", "--level", "8"]).unwrap();
    let settings = tui_settings(&cli.play);
    assert_eq!(settings.sides.black, PlayerKind::Human);
    assert_eq!(settings.sides.white, PlayerKind::Cpu);
    assert_eq!(settings.level.number(), 8);
}

#[test]
fn unknown_options_are_refused() {
    assert!(Cli::try_parse_from(["checkers", "--colour"]).is_err());
}
