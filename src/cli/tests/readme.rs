//! The README says what the program does: its key table lists what the key map does (so
//! the fourth copy of the keys cannot drift from the one the program reads), its
//! preferences example reads, and every command line it shows parses as the program's
//! (or the lab's) command line, as does every one the guides show.

use crate::tui::keymap::{Quits, help_lines};

#[test]
fn the_readme_lists_every_key_as_the_key_map_has_it() {
    let readme = include_str!("../../../README.md");
    for (label, help) in help_lines(Quits::Program, true) {
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
    let readme = include_str!("../../../README.md");
    let start = readme.find("```toml\n").expect("an example") + "```toml\n".len();
    let example = &readme[start..start + readme[start..].find("```").unwrap()];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("preferences.toml");
    std::fs::write(&path, example).unwrap();
    let (prefs, warning) = crate::commands::preferences::read(&path);
    assert_eq!(warning, None);
    assert_eq!(prefs.level, Some(7));
    assert_eq!(prefs.clock.as_deref(), Some("5+3"));
    assert_eq!(prefs.coordinates, Some(true));
}

/// The README's text with its line breaks as spaces, to find a sentence wrapped anywhere.
fn readme_text() -> String {
    include_str!("../../../README.md")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_readmes_size_for_big_clocks_is_where_they_turn_big() {
    use crate::game::Game;
    use crate::session::{Session, TimeControl};
    use crate::tui::tests::screen_text;
    use crate::tui::{App, Settings};
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

/// A command line of the README's shell examples, as the program would get it: the
/// program's name (`checkers` or `checkers-lab`) and its arguments, or `None` for a line
/// that runs another program (`man`, `cargo install`, ...).
fn program_args(segment: &str) -> Option<Vec<String>> {
    let words = shell_words(segment);
    // Leading `NAME=value` settings of the environment.
    let mut words = words
        .into_iter()
        .skip_while(|w| w.contains('=') && !w.starts_with('-'))
        .peekable();
    let program = words.next()?;
    let rest: Vec<String> = words.collect();
    match program.as_str() {
        "checkers" | "checkers-lab" => Some([vec![program], rest].concat()),
        "cargo" if rest.first().map(String::as_str) == Some("run") => {
            let dash = rest.iter().position(|w| w == "--");
            let cargo_args = &rest[..dash.unwrap_or(rest.len())];
            let bin = cargo_args
                .iter()
                .position(|w| w == "--bin")
                .and_then(|i| cargo_args.get(i + 1))
                .cloned()
                .unwrap_or_else(|| "checkers".to_string());
            let args = dash.map_or(&[][..], |d| &rest[d + 1..]);
            Some([vec![bin], args.to_vec()].concat())
        }
        _ => None,
    }
}

/// `line` split into words as a POSIX shell splits them (quotes, backslashes), up to a
/// comment or a redirection.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.chars();
    let mut quote: Option<char> = None;
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') => word.get_or_insert_default().extend(chars.next()),
            (Some(_), c) => word.get_or_insert_default().push(c),
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_default();
            }
            (None, '\\') => word.get_or_insert_default().extend(chars.next()),
            (None, '#') if word.is_none() => break,
            (None, '>' | '<') => break,
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (None, c) => word.get_or_insert_default().push(c),
        }
    }
    words.extend(word);
    // `2>` and the like: a redirection of a numbered descriptor.
    if line.contains('>')
        && words
            .last()
            .is_some_and(|w| w.chars().all(|c| c.is_ascii_digit()))
    {
        words.pop();
    }
    words
}

/// Every command line in the `sh` blocks of a Markdown text (the README, a guide),
/// continuation lines joined, each pipeline and `&&` list split into its commands.
fn shown_commands(readme: &str) -> Vec<String> {
    let mut commands = Vec::new();
    let mut in_block = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_block = line == "```sh";
            continue;
        }
        if !in_block {
            continue;
        }
        if let Some(start) = line.strip_suffix('\\') {
            pending.push_str(start);
            continue;
        }
        let whole = std::mem::take(&mut pending) + line;
        for command in whole.split("&&").flat_map(|c| c.split(" | ")) {
            if !command.trim().is_empty() {
                commands.push(command.trim().to_string());
            }
        }
    }
    commands
}

/// The documents a user copies commands from, by name: the README, then the guides (and
/// the lab's notebook) that `cargo doc` shows.
const DOCUMENTS: [(&str, &str); 9] = [
    ("README.md", include_str!("../../../README.md")),
    (
        "src/guide/playing.md",
        include_str!("../../guide/playing.md"),
    ),
    (
        "src/guide/network.md",
        include_str!("../../guide/network.md"),
    ),
    (
        "src/guide/records.md",
        include_str!("../../guide/records.md"),
    ),
    (
        "src/guide/databases.md",
        include_str!("../../guide/databases.md"),
    ),
    ("src/guide/engine.md", include_str!("../../guide/engine.md")),
    (
        "src/guide/architecture.md",
        include_str!("../../guide/architecture.md"),
    ),
    (
        "src/guide/rules_and_notation.md",
        include_str!("../../guide/rules_and_notation.md"),
    ),
    ("src/lab/notes.md", include_str!("../../lab/notes.md")),
];

#[test]
fn every_command_the_readme_and_the_guides_show_parses() {
    let mut checked = 0;
    for (name, text) in DOCUMENTS {
        let in_this: usize = shown_commands(text)
            .iter()
            .map(|command| parses(name, command))
            .sum();
        if name == "README.md" {
            assert!(in_this >= 40, "only {in_this} commands found in README.md");
        }
        checked += in_this;
    }
    assert!(
        checked >= 80,
        "only {checked} commands found in the documents"
    );
}

/// Whether `command`, shown in the document `name`, runs one of the programs (1) or
/// another (0); panics where it names one of them and does not parse.
fn parses(name: &str, command: &str) -> usize {
    use clap::Parser;
    let Some(args) = program_args(command) else {
        return 0;
    };
    let parsed = match args[0].as_str() {
        "checkers" => crate::cli::Cli::try_parse_from(&args).map(drop),
        #[cfg(feature = "lab")]
        "checkers-lab" => crate::lab::cli::LabCli::try_parse_from(&args).map(drop),
        #[cfg(not(feature = "lab"))]
        "checkers-lab" => return 0,
        other => panic!("{name} runs {other}, which is not one of the programs: {command}"),
    };
    if let Err(e) = parsed {
        panic!("{name} shows a command that does not parse: {command}\n{e}");
    }
    1
}

#[test]
fn the_readme_command_reader_splits_as_a_shell_does() {
    let args = |line: &str| program_args(line).unwrap_or_default();
    assert_eq!(
        args(r#"checkers --fen "B:W6,7:B2" --plain > out.txt  # a comment"#),
        ["checkers", "--fen", "B:W6,7:B2", "--plain"]
    );
    assert_eq!(
        args("cargo run --release --features lab --bin checkers-lab -- match --games 2"),
        ["checkers-lab", "match", "--games", "2"]
    );
    assert_eq!(args("cargo run --release -q"), ["checkers"]);
    assert_eq!(
        args("RUSTFLAGS='-C x' checkers perft 3"),
        ["checkers", "perft", "3"]
    );
    assert_eq!(program_args("man ./checkers.1"), None);
    assert_eq!(program_args("cargo install --path ."), None);
    assert_eq!(program_args("# Waiting for a player: checkers join"), None);
}

/// The README says what `checkers puzzle --plain` does: it opens puzzle 1 and lists the
/// puzzles at `list` (it said "the same in words" as the full screen, which opens on the
/// list).
#[test]
fn the_readme_says_plain_puzzles_start_at_puzzle_one_with_a_list_command() {
    let readme = readme_text();
    assert!(
        readme.contains("(`--plain`: in words, from puzzle 1; `list` lists them")
            && !readme.contains("`--plain`: the same in words"),
        "README.md's puzzle paragraph"
    );
}

/// What the README says `+` and `-` do against the computer is what they do: in play the
/// level changes at once, the computer's next move made at it; once a game is over, the
/// next game's. (It said they set the level for the next game, and a player who pressed
/// `-` in a game too hard found the game itself easier, against the words.)
#[test]
fn the_readmes_level_keys_change_the_level_at_once_as_the_session_does() {
    use crate::engine::Level;
    use crate::game::Game;
    use crate::rules::Color;
    use crate::session::{Player, Seats, Session};
    let text = readme_text();
    assert!(
        text.contains(
            "`+` and `-` change its level at once (once a game is over, the next game's)"
        ),
        "the README says what + and - do"
    );
    let mut session = Session::new(Game::new())
        .with_seats(Seats {
            black: Player::Person,
            white: Player::Computer(Level::new(5).unwrap()),
        })
        .with_level(Level::new(5).unwrap());
    session.play_text("11-15").unwrap();
    session.change_level(false).unwrap();
    assert_eq!(
        session.computer_to_move(),
        Some((Color::White, Level::new(4).unwrap())),
        "in play, at once"
    );
    session.resign(Color::Black).unwrap();
    session.change_level(false).unwrap();
    assert_eq!(
        session.record("2026.12.07").tag("WhiteLevel"),
        Some("4"),
        "once the game is over, the next game's"
    );
    assert_eq!(session.level(), Level::new(3).unwrap());
}
