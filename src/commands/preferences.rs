//! The players' preferences: a small TOML file in the config folder
//! (`$XDG_CONFIG_HOME/checkers/preferences.toml` on Linux) giving what the command line
//! would otherwise have to say each time: the board's side and look, names, the
//! computer's level, a clock. What the command line gives wins. A file that cannot be
//! used is named, with its line, and left aside: the game starts as if it were not there.

use crate::cli::{PlayArgs, Switch};
use crate::engine::Level;
use crate::session::TimeControl;
use crate::text::printable;
use crate::tui::home::{Look, Setting};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// The file's name in the config folder.
pub(crate) const FILE_NAME: &str = "preferences.toml";

/// The most a preferences file may hold: it is a few lines.
const MAX_BYTES: u64 = 64 * 1024;

/// Which colours the board uses.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub(crate) enum ThemeChoice {
    /// As the terminal says (`COLORTERM`, `TERM`): the default.
    Auto,
    /// The board's own colours, for a terminal that shows any colour.
    TrueColor,
    /// The fixed 256-colour palette.
    #[serde(rename = "256")]
    Palette256,
    /// The terminal's 16 named colours.
    #[serde(rename = "16")]
    Palette16,
    /// No colour at all.
    None,
}

/// What the preferences file may say; every key is optional.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields, rename_all = "kebab-case")]
pub(crate) struct Preferences {
    /// White at the bottom (`--flip`).
    pub(crate) flip: Option<bool>,
    /// The board's colours.
    pub(crate) theme: Option<ThemeChoice>,
    /// ASCII only (`--ascii`).
    pub(crate) ascii: Option<bool>,
    /// The a-h, 1-8 coordinates round the board from the start (the `a` key).
    pub(crate) coordinates: Option<bool>,
    /// Mouse clicks (`false` as `--no-mouse`).
    pub(crate) mouse: Option<bool>,
    /// The bell at ten seconds left and at a flag fall (`false` as `--quiet`).
    pub(crate) bell: Option<bool>,
    /// Black's name for records (`--black-name`).
    pub(crate) black_name: Option<String>,
    /// White's name for records (`--white-name`).
    pub(crate) white_name: Option<String>,
    /// The computer's level for a new game, 1-10 (`--level`).
    pub(crate) level: Option<u8>,
    /// A clock for every new game, as `--clock` takes it (`5+3`, `G/15`, `30/60`).
    pub(crate) clock: Option<String>,
    /// The engine's help (hints, its score and the databases' verdict) for a new game,
    /// as `--assist on|off`; unset, the game decides (off between two people on a clock
    /// or in a match).
    pub(crate) assist: Option<bool>,
}

/// The environment variable naming another preferences file (empty: none at all).
pub(crate) const PATH_VARIABLE: &str = "CHECKERS_PREFERENCES";

/// Where the preferences file is: [`PATH_VARIABLE`] if set (empty for none), else in
/// the platform's config folder. `None` without a home folder.
pub(crate) fn path() -> Option<PathBuf> {
    place().ok()
}

/// Why a setting changed on the settings page lasts for this run only, when
/// [`PATH_VARIABLE`] is set empty.
pub(crate) const OFF_BY_VARIABLE: &str =
    "CHECKERS_PREFERENCES is empty (no preferences file): the changes last for this run only.";

/// Why a setting changed on the settings page lasts for this run only, when there is
/// no home folder to keep the file in.
pub(crate) const NO_HOME: &str = "Without a home folder, the changes last for this run only.";

/// [`path`], or why there is no file, as the settings page says it ([`OFF_BY_VARIABLE`]
/// or [`NO_HOME`]).
pub(crate) fn place() -> Result<PathBuf, &'static str> {
    if let Some(given) = std::env::var_os(PATH_VARIABLE) {
        return if given.is_empty() {
            Err(OFF_BY_VARIABLE)
        } else {
            Ok(PathBuf::from(given))
        };
    }
    directories::ProjectDirs::from("", "", "checkers")
        .map(|dirs| dirs.config_dir().join(FILE_NAME))
        .ok_or(NO_HOME)
}

/// The preferences of [`path`], applied to `args` (see [`Preferences::apply`]), and what
/// could not be used, each in a line that names the file. Where neither they nor the
/// command line say how to draw, a terminal that cannot show the Unicode board (a
/// locale not UTF-8, the Linux console, a DEC VT) gets ASCII.
pub(crate) fn load_into(args: &mut PlayArgs) -> (Preferences, Vec<String>) {
    let Some(path) = path() else {
        args.screen.look.ascii |= !terminal_draws_unicode();
        return (Preferences::default(), Vec::new());
    };
    let (prefs, warning) = read(&path);
    let mut notices: Vec<String> = warning.into_iter().collect();
    let shown = printable(&path.display().to_string(), 400);
    notices.extend(
        prefs
            .apply(args)
            .into_iter()
            .map(|why| format!("{shown}: {why}; not used")),
    );
    // `ascii = false` in the file is a choice: a terminal the locale misjudges.
    if prefs.ascii.is_none() {
        args.screen.look.ascii |= !terminal_draws_unicode();
    }
    (prefs, notices)
}

/// Whether this terminal draws the Unicode board, as its locale and `TERM` say.
fn terminal_draws_unicode() -> bool {
    crate::tui::theme::unicode_drawn(
        crate::text::character_locale().as_deref(),
        std::env::var_os("TERM").as_deref(),
    )
}

/// The preferences in `path`, or none (and why, naming the file and its line) when the
/// file is not a regular file of a few lines or does not read as preferences. A missing
/// file is no news.
pub(crate) fn read(path: &Path) -> (Preferences, Option<String>) {
    let shown = printable(&path.display().to_string(), 400);
    let refused = |why: String| {
        (
            Preferences::default(),
            Some(format!("{shown}: {why}; the preferences are not used")),
        )
    };
    let Ok(meta) = std::fs::metadata(path) else {
        return (Preferences::default(), None);
    };
    if !meta.is_file() {
        return refused("not a regular file".to_string());
    }
    if meta.len() > MAX_BYTES {
        return refused(format!("over {} KB", MAX_BYTES / 1024));
    }
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => return refused(e.to_string()),
    };
    match toml::from_str::<Preferences>(&text) {
        Ok(prefs) => (prefs, None),
        Err(e) => {
            let line = unknown_key_line(&text, e.message()).or_else(|| {
                e.span()
                    .map(|span| text[..span.start.min(text.len())].lines().count().max(1))
            });
            let why = printable(e.message().trim(), 200);
            match line {
                Some(line) => refused(format!("line {line}: {why}")),
                None => refused(why),
            }
        }
    }
}

/// Keeps `setting` as `look` has it in the preferences file `path` (made when there is
/// none, its folder too): the file's other keys, its comments and its layout stay as
/// they were, and the new file replaces the old whole (a crash leaves one or the
/// other). Colour on removes a `theme = "none"` and leaves any other theme. Returns
/// why the file could not be changed, naming it; it is then as it was.
pub(crate) fn keep(path: &Path, setting: Setting, look: &Look) -> Result<(), String> {
    let shown = printable(&path.display().to_string(), 400);
    let refused = |why: String| format!("{shown}: {why}; the setting is not kept");
    let text = match std::fs::metadata(path) {
        Ok(meta) if !meta.is_file() => return Err(refused("not a regular file".to_string())),
        Ok(meta) if meta.len() > MAX_BYTES => {
            return Err(refused(format!("over {} KB", MAX_BYTES / 1024)));
        }
        Ok(_) => std::fs::read_to_string(path).map_err(|e| refused(e.to_string()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(refused(e.to_string())),
    };
    let mut doc: toml_edit::DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| {
        let line = e
            .span()
            .map(|span| text[..span.start.min(text.len())].lines().count().max(1));
        let why = printable(e.message().trim(), 200);
        refused(match line {
            Some(line) => format!("line {line}: {why}"),
            None => why,
        })
    })?;
    let (key, value) = match setting {
        Setting::Colour if look.colored => {
            if doc.get("theme").and_then(|item| item.as_str()) == Some("none") {
                doc.remove("theme");
            }
            ("theme", None)
        }
        Setting::Colour => ("theme", Some(toml_edit::value("none"))),
        Setting::Pieces => ("ascii", Some(toml_edit::value(look.ascii))),
        Setting::Coordinates => ("coordinates", Some(toml_edit::value(look.coordinates))),
        Setting::Assist => ("assist", look.assist.map(toml_edit::value)),
        Setting::Level(level) => ("level", Some(toml_edit::value(i64::from(level.number())))),
    };
    if let Some(value) = value {
        // Kept in place when the key is there, so its comments stay beside it.
        match doc.get_mut(key).and_then(|item| item.as_value_mut()) {
            Some(old) => {
                let decor = old.decor().clone();
                let mut new = value.into_value().unwrap_or_else(|_| false.into());
                *new.decor_mut() = decor;
                *old = new;
            }
            None => doc[key] = value,
        }
    }
    if let Some(folder) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        crate::store::files::create_folder(folder).map_err(|e| refused(e.to_string()))?;
    }
    crate::store::write_atomic(path, doc.to_string().as_bytes()).map_err(|e| refused(e.to_string()))
}

/// The line of the key an "unknown field `name`" message names: the parser places that
/// fault at the whole table, not at the key.
fn unknown_key_line(text: &str, message: &str) -> Option<usize> {
    let name = message.strip_prefix("unknown field `")?.split('`').next()?;
    text.lines()
        .position(|line| {
            line.trim_start()
                .strip_prefix(name)
                .is_some_and(|rest| rest.trim_start().starts_with('='))
        })
        .map(|i| i + 1)
}

impl Preferences {
    /// `args` with what they do not say taken from here: each flag set here is set, each
    /// value not given on the command line is this one's. The level and the clock
    /// apply to a new game only (a resumed or loaded one has its own). Returns what
    /// could not be used, in words (a level out of range, a clock spec that does not
    /// read).
    pub(crate) fn apply(&self, args: &mut PlayArgs) -> Vec<String> {
        let mut unused = Vec::new();
        args.flip |= self.flip == Some(true);
        args.screen.look.ascii |= self.ascii == Some(true);
        args.screen.look.no_mouse |= self.mouse == Some(false);
        args.screen.quiet |= self.bell == Some(false);
        args.screen.look.no_color |= self.theme == Some(ThemeChoice::None);
        if args.black_name.is_none() {
            args.black_name = self.black_name.clone();
        }
        if args.white_name.is_none() {
            args.white_name = self.white_name.clone();
        }
        let new_game = !args.resume && args.load.is_none();
        if let Some(on) = self.assist
            && new_game
            && args.assist.is_none()
        {
            args.assist = Some(if on { Switch::On } else { Switch::Off });
        }
        if let Some(n) = self.level
            && new_game
            && args.level.is_none()
        {
            match Level::new(n) {
                Some(level) => args.level = Some(level),
                None => unused.push(format!("level {n}: levels run from 1 to 10")),
            }
        }
        if let Some(spec) = &self.clock
            && new_game
            && args.clock.is_none()
            && !args.move_timer
        {
            match spec.parse::<TimeControl>() {
                Ok(control) => args.clock = Some(control),
                Err(e) => unused.push(format!("clock {}: {e}", printable(spec, 40))),
            }
        }
        unused
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn args(line: &[&str]) -> PlayArgs {
        let mut argv = vec!["checkers"];
        argv.extend(line);
        crate::cli::Cli::parse_from(argv).play
    }

    fn file(text: &str) -> (tempfile::TempDir, PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE_NAME);
        std::fs::write(&path, text).unwrap();
        (dir, path)
    }

    #[test]
    fn preferences_fill_in_what_the_command_line_leaves_out() {
        let (_dir, path) = file(
            "flip = true\ntheme = \"256\"\ncoordinates = true\nblack-name = \"Ann\"\n\
             level = 7\nclock = \"5+3\"\nbell = false\nassist = false\n",
        );
        let (prefs, warning) = read(&path);
        assert_eq!(warning, None);
        assert_eq!(prefs.theme, Some(ThemeChoice::Palette256));
        let mut plain = args(&[]);
        assert!(prefs.apply(&mut plain).is_empty());
        assert!(plain.flip && plain.screen.quiet);
        assert_eq!(plain.black_name.as_deref(), Some("Ann"));
        assert_eq!(plain.level, Level::new(7));
        assert_eq!(plain.clock, "5+3".parse().ok());
        assert_eq!(plain.assist, Some(Switch::Off));
        // The command line wins.
        let mut given = args(&["--level", "3", "--black-name", "Bo", "--clock", "G/15"]);
        prefs.apply(&mut given);
        assert_eq!(given.level, Level::new(3));
        assert_eq!(given.black_name.as_deref(), Some("Bo"));
        assert_eq!(given.clock, "G/15".parse().ok());
        // A resumed game keeps its own level and clock.
        let mut resumed = args(&["--resume"]);
        prefs.apply(&mut resumed);
        assert_eq!((resumed.level, resumed.clock), (None, None));
    }

    #[test]
    fn a_bad_file_is_named_with_its_line_and_left_aside() {
        let (_dir, path) = file("flip = true\ncolour = \"red\"\n");
        let (prefs, warning) = read(&path);
        assert_eq!(prefs, Preferences::default());
        let warning = warning.unwrap();
        assert!(
            warning.contains(FILE_NAME) && warning.contains("line 2"),
            "{warning}"
        );
        assert!(warning.contains("colour"), "{warning}");
        assert!(
            warning.ends_with("the preferences are not used"),
            "{warning}"
        );
        let (_dir, path) = file("level = \"ten\"\n");
        assert!(read(&path).1.unwrap().contains("line 1"));
        // Values that read but cannot be used are said, and the rest applies.
        let (_dir, path) = file("level = 12\nclock = \"soon\"\nflip = true\n");
        let (prefs, warning) = read(&path);
        assert_eq!(warning, None);
        let mut a = args(&[]);
        let unused = prefs.apply(&mut a);
        assert_eq!(unused.len(), 2, "{unused:?}");
        assert!(unused[0].starts_with("level 12"), "{unused:?}");
        assert!(a.flip && a.level.is_none() && a.clock.is_none());
        // A folder where the file should be, and no file at all.
        let dir = tempfile::tempdir().unwrap();
        assert!(read(dir.path()).1.unwrap().contains("not a regular file"));
        assert_eq!(
            read(&dir.path().join("none.toml")),
            (Preferences::default(), None)
        );
    }
}
