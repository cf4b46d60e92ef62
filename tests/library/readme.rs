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
