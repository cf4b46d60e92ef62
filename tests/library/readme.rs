//! The README's key table lists what the key map does, so the fourth copy of the keys
//! cannot drift from the one the program reads.

use checkers::tui::keymap::help_lines;

#[test]
fn the_readme_lists_every_key_as_the_key_map_has_it() {
    let readme = include_str!("../../README.md");
    for (label, help) in help_lines() {
        let keys: Vec<String> = label
            .replace("{arrows}", "arrows")
            .replace("{steps}", "Left Right")
            .split_whitespace()
            .map(|k| format!("`{k}`"))
            .collect();
        let row = format!("| {} | {help} |", keys.join(" "));
        assert!(readme.contains(&row), "README.md lacks the row {row}");
    }
}

#[test]
fn the_readmes_preferences_example_reads_as_preferences() {
    let readme = include_str!("../../README.md");
    let start = readme.find("```toml\n").expect("an example") + "```toml\n".len();
    let example = &readme[start..start + readme[start..].find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("preferences.toml");
    std::fs::write(&path, example).unwrap();
    let (prefs, warning) = checkers::commands::preferences::read(&path);
    assert_eq!(warning, None);
    assert_eq!(prefs.level, Some(7));
    assert_eq!(prefs.clock.as_deref(), Some("5+3"));
    assert_eq!(prefs.coordinates, Some(true));
}

/// The README's text with its line breaks as spaces, to find a sentence wrapped anywhere.
fn readme_text() -> String {
    include_str!("../../README.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_readmes_size_for_big_clocks_is_where_they_turn_big() {
    use crate::common::screen_text;
    use checkers::game::Game;
    use checkers::session::{Session, TimeControl};
    use checkers::tui::{App, Settings};
    // "on a terminal of 105x39 or more (not with `--ascii`) the readings are three rows
    // tall": the size the README gives, and no smaller one in either direction.
    let text = readme_text();
    let size = text
        .split("on a terminal of ")
        .nth(1)
        .and_then(|rest| rest.split(" or more").next())
        .and_then(|size| size.split_once('x'))
        .and_then(|(w, h)| Some((w.parse::<u16>().ok()?, h.parse::<u16>().ok()?)))
        .expect("the README gives the terminal size (WxH) for the big clocks");
    let big = |(width, height): (u16, u16)| {
        let control: TimeControl = "5+3".parse().unwrap();
        let session = Session::new(Game::new()).with_clock(control, std::time::Instant::now());
        let app = App::with_session(Settings::default(), session, width, height);
        // The top row of the big "5:00".
        screen_text(&app).contains("█▀▀")
    };
    assert!(big(size), "{size:?}");
    assert!(!big((size.0 - 1, size.1 + 20)), "{size:?}: narrower");
    assert!(!big((size.0 + 95, size.1 - 1)), "{size:?}: lower");
}
