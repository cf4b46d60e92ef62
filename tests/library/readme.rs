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
