//! The Hub protocol's lines: their syntax (a command, then `name=value` pairs, a value
//! in double quotes when it holds a blank, `=` or `"` or is empty, a name alone as a
//! flag), what the program is asked ([`Request`]) and how its answers are written.

use std::fmt;
use std::time::Duration;

/// One line of the protocol: its command and its arguments in order. A flag (a name
/// without `=value`) has no value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// The first word.
    pub(crate) command: String,
    /// The `name=value` pairs (or lone names) after it, in order.
    pub(crate) args: Vec<(String, Option<String>)>,
}

/// Why a line does not follow the protocol's syntax.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SyntaxError {
    /// A `"` opens a value that no `"` closes.
    UnclosedQuote,
    /// An `=`, a `"` or a control character stands where a name should be.
    MissingName,
}

impl fmt::Display for SyntaxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SyntaxError::UnclosedQuote => write!(f, "a quoted value is not closed"),
            // No `"` in it: a message is written in quotes, which cannot hold one.
            SyntaxError::MissingName => write!(
                f,
                "a name is missing: an =, a quote mark or a control character stands where \
                 a name should"
            ),
        }
    }
}

/// Whether `c` may stand in a name or an unquoted value: neither a blank, a control
/// character, `=` nor `"` (as Scan reads it).
fn is_word_char(c: char) -> bool {
    !c.is_whitespace() && !c.is_control() && c != '=' && c != '"'
}

/// Reads lines of the protocol: the text not yet read.
struct Scanner<'a> {
    /// What is left of the line.
    rest: &'a str,
}

impl<'a> Scanner<'a> {
    /// Skips blanks; whether the line is over.
    fn at_end(&mut self) -> bool {
        self.rest = self.rest.trim_start();
        self.rest.is_empty()
    }

    /// The next name (after blanks): a run of word characters, never empty.
    fn name(&mut self) -> Result<&'a str, SyntaxError> {
        self.rest = self.rest.trim_start();
        let end = self
            .rest
            .find(|c| !is_word_char(c))
            .unwrap_or(self.rest.len());
        if end == 0 {
            return Err(SyntaxError::MissingName);
        }
        let (name, rest) = self.rest.split_at(end);
        self.rest = rest;
        Ok(name)
    }

    /// A value after `=`: quoted (anything up to the next `"`) or a name; empty when
    /// the line ends or a blank follows the `=`.
    fn value(&mut self) -> Result<String, SyntaxError> {
        self.rest = self.rest.trim_start();
        if let Some(quoted) = self.rest.strip_prefix('"') {
            let end = quoted.find('"').ok_or(SyntaxError::UnclosedQuote)?;
            self.rest = &quoted[end + 1..];
            return Ok(quoted[..end].to_string());
        }
        if self.rest.is_empty() {
            return Ok(String::new());
        }
        self.name().map(str::to_string)
    }
}

impl Line {
    /// A line with `command` and no arguments yet.
    pub(crate) fn new(command: &str) -> Line {
        Line {
            command: command.to_string(),
            args: Vec::new(),
        }
    }

    /// The same line with `name=value` added.
    pub(crate) fn with(mut self, name: &str, value: impl fmt::Display) -> Line {
        self.args.push((name.to_string(), Some(value.to_string())));
        self
    }

    /// Reads `text`: `None` for a blank line, the syntax error for one that breaks the
    /// protocol's syntax.
    pub(crate) fn parse(text: &str) -> Result<Option<Line>, SyntaxError> {
        let mut scanner = Scanner { rest: text };
        if scanner.at_end() {
            return Ok(None);
        }
        let command = scanner.name()?.to_string();
        let mut args = Vec::new();
        while !scanner.at_end() {
            let name = scanner.name()?.to_string();
            scanner.rest = scanner.rest.trim_start();
            let value = match scanner.rest.strip_prefix('=') {
                Some(rest) => {
                    scanner.rest = rest;
                    Some(scanner.value()?)
                }
                None => None,
            };
            args.push((name, value));
        }
        Ok(Some(Line { command, args }))
    }

    /// The value of the argument `name` (the last one given; `""` for a flag).
    pub(crate) fn get(&self, name: &str) -> Option<&str> {
        self.args
            .iter()
            .rev()
            .find(|(n, _)| n == name)
            .map(|(_, value)| value.as_deref().unwrap_or(""))
    }
}

/// Writes a value as the protocol reads it back: bare when it is a name, in double
/// quotes otherwise (a `"` inside, which no value can hold, becomes `'`).
fn quoted(value: &str) -> String {
    if !value.is_empty() && value.chars().all(is_word_char) {
        value.to_string()
    } else {
        format!("\"{}\"", value.replace('"', "'"))
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.command)?;
        for (name, value) in &self.args {
            match value {
                Some(value) => write!(f, " {name}={}", quoted(value))?,
                None => write!(f, " {name}")?,
            }
        }
        Ok(())
    }
}

/// How a search is launched (`go think`, `go ponder`, `go analyze`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GoMode {
    /// Find a move to play, within the level.
    Think,
    /// Search the position the expected answer leads to, while the opponent thinks:
    /// with no limit until `ponder-hit` (then as `go think`) or `stop`.
    Ponder,
    /// Analysis: no book, no dislike of draws, every move searched.
    Analyze,
}

/// The limits of the next searches, as `level` gives them. Every field given applies.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct LevelSpec {
    /// `depth=`: the deepest iteration.
    pub(crate) depth: Option<u32>,
    /// `nodes=`: the most nodes.
    pub(crate) nodes: Option<u64>,
    /// `move-time=`: the time for the move, in seconds.
    pub(crate) move_time: Option<Duration>,
    /// `time=`: the time left on the engine's clock.
    pub(crate) time: Option<Duration>,
    /// `inc=`: the increment, added before every move.
    pub(crate) inc: Option<Duration>,
    /// `moves=`: the moves to make in `time`.
    pub(crate) moves: Option<u32>,
    /// `infinite`: no limit (until `stop`).
    pub(crate) infinite: bool,
}

/// What the position of the next search is, as `pos` gives it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PosSpec {
    /// `pos=`: a Hub position (33 characters); the start position if neither it nor
    /// `fen` is given.
    pub(crate) pos: Option<String>,
    /// `fen=` (this program's own): a PDN FEN, read as the rest of the program reads it.
    pub(crate) fen: Option<String>,
    /// `moves=`: moves played from it, separated by blanks.
    pub(crate) moves: Vec<String>,
}

/// A line the program understands, typed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Request {
    /// `hub`: say who it is and its parameters, then `wait`.
    Hub,
    /// `set-param name=... value=...`.
    SetParam {
        /// The parameter's name.
        name: String,
        /// Its new value.
        value: String,
    },
    /// `init`: get ready, then `ready`.
    Init,
    /// `pos`: the position of the next search.
    Pos(PosSpec),
    /// `level`: the limits of the next searches.
    Level(LevelSpec),
    /// `go think|ponder|analyze`.
    Go(GoMode),
    /// `ponder-hit`: the opponent played the expected move.
    PonderHit,
    /// `stop`: answer `done` now.
    Stop,
    /// `new-game`: forget what earlier searches learnt.
    NewGame,
    /// `ping`: answer `pong`.
    Ping,
    /// `quit`.
    Quit,
}

/// Seconds as the protocol writes them (a real number, at least 0), as a duration; at
/// most a year.
fn seconds(name: &str, text: &str) -> Result<Duration, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map(|s| Duration::from_secs_f64(s.min(365.0 * 86_400.0)))
        .ok_or_else(|| format!("{name}={text} is not a number of seconds"))
}

/// A whole number the protocol gives, at least `min` and at most `max` if there is
/// one; refused with the range it must be in.
fn number(name: &str, text: &str, min: u64, max: Option<u64>) -> Result<u64, String> {
    let range = match max {
        Some(max) => format!("{name} is {min} to {max}"),
        None => format!("{name} is at least {min}"),
    };
    let digits = text.strip_prefix('-').unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("{name}={text} is not a whole number: {range}"));
    }
    // Too long for i128 is far out of range either way: too big, unless negative.
    let n = text.parse::<i128>().unwrap_or(if text.starts_with('-') {
        i128::MIN
    } else {
        i128::MAX
    });
    if n < i128::from(min) {
        return Err(format!("{name}={text} is out of range: {range}"));
    }
    // Past the largest number the program holds, with no maximum of its own, the
    // number is too big: "at least 1" would not say why it is refused.
    let max = max.unwrap_or(u64::MAX);
    u64::try_from(n)
        .ok()
        .filter(|&n| n <= max)
        .ok_or_else(|| format!("{name}={text} is out of range: {name} is {min} to {max}"))
}

impl Request {
    /// The request `line` makes: `None` for a command the program does not know (the
    /// protocol says to ignore it), the reason for a known one with a bad argument.
    /// Arguments it does not know are ignored.
    pub(crate) fn from_line(line: &Line) -> Option<Result<Request, String>> {
        let request = match line.command.as_str() {
            "hub" => Ok(Request::Hub),
            "init" => Ok(Request::Init),
            "set-param" => match line.get("name") {
                Some(name) if !name.is_empty() => Ok(Request::SetParam {
                    name: name.to_string(),
                    value: line.get("value").unwrap_or("").to_string(),
                }),
                _ => Err("set-param needs name=".to_string()),
            },
            "pos" => Ok(Request::Pos(PosSpec {
                pos: line.get("pos").map(str::to_string),
                fen: line.get("fen").map(str::to_string),
                moves: line
                    .get("moves")
                    .unwrap_or("")
                    .split_whitespace()
                    .map(str::to_string)
                    .collect(),
            })),
            "level" => level(line).map(Request::Level),
            "go" => {
                let has = |name| line.get(name).is_some();
                if has("analyze") || has("analyse") {
                    Ok(Request::Go(GoMode::Analyze))
                } else if has("ponder") {
                    Ok(Request::Go(GoMode::Ponder))
                } else if has("think") || line.args.is_empty() {
                    // A bare `go` is taken as `go think`, as programs that send it mean.
                    Ok(Request::Go(GoMode::Think))
                } else {
                    // A search named that the program does not know would answer with a
                    // move it may not want: say what `go` takes instead.
                    let given: Vec<&str> =
                        line.args.iter().map(|(name, _)| name.as_str()).collect();
                    Err(format!(
                        "go takes think, ponder or analyze, not {}",
                        given.join(" ")
                    ))
                }
            }
            "ponder-hit" => Ok(Request::PonderHit),
            "stop" => Ok(Request::Stop),
            "new-game" => Ok(Request::NewGame),
            "ping" => Ok(Request::Ping),
            "quit" => Ok(Request::Quit),
            _ => return None,
        };
        Some(request)
    }
}

/// The deepest search a `level` line may ask for, in plies.
const MAX_DEPTH: u32 = 64;

/// The limits of a `level` line.
fn level(line: &Line) -> Result<LevelSpec, String> {
    let mut spec = LevelSpec::default();
    for (name, value) in &line.args {
        let value = value.as_deref().unwrap_or("");
        match name.as_str() {
            "depth" => {
                let depth = number(name, value, 1, Some(u64::from(MAX_DEPTH)))?;
                spec.depth = Some(u32::try_from(depth).unwrap_or(MAX_DEPTH));
            }
            "nodes" => spec.nodes = Some(number(name, value, 1, None)?),
            // No time at all is no search: refused (the limits before kept), where the
            // clock's `time=0` is a state a game reaches and is played from.
            "move-time" => match seconds(name, value)? {
                time if time.is_zero() => {
                    return Err(format!(
                        "{name}={value} is out of range: {name} is more than 0 seconds"
                    ));
                }
                time => spec.move_time = Some(time),
            },
            "time" => spec.time = Some(seconds(name, value)?),
            "inc" => spec.inc = Some(seconds(name, value)?),
            "moves" => {
                let moves = number(name, value, 1, None)?;
                spec.moves = Some(u32::try_from(moves).unwrap_or(u32::MAX));
            }
            "infinite" => spec.infinite = true,
            _ => {}
        }
    }
    Ok(spec)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Line {
        Line::parse(text).unwrap().unwrap()
    }

    #[test]
    fn a_line_reads_its_command_pairs_flags_and_quoted_values() {
        let line = parse("pos pos=Wbbe moves=\"11-15 23x14x18\"  start");
        assert_eq!(line.command, "pos");
        assert_eq!(line.get("pos"), Some("Wbbe"));
        assert_eq!(line.get("moves"), Some("11-15 23x14x18"));
        assert_eq!(line.get("start"), Some(""));
        assert_eq!(line.get("fen"), None);
        // Blanks around `=` and an empty quoted value.
        let line = parse("  set-param name = variant value=\"\"");
        assert_eq!(line.get("name"), Some("variant"));
        assert_eq!(line.get("value"), Some(""));
        assert_eq!(Line::parse("   \t").unwrap(), None);
    }

    #[test]
    fn lines_written_read_back_the_same() {
        let line = Line::new("info")
            .with("depth", 12)
            .with("score", "-0.25")
            .with("pv", "11-15 23-19")
            .with("empty", "");
        let text = line.to_string();
        assert_eq!(
            text,
            "info depth=12 score=-0.25 pv=\"11-15 23-19\" empty=\"\""
        );
        assert_eq!(parse(&text), line);
        let flag = parse("go ponder");
        assert_eq!(flag.to_string(), "go ponder");
        // A quote inside a value cannot be written; it becomes an apostrophe.
        let said = Line::new("error").with("message", "a \"bad\" move=1");
        assert_eq!(said.to_string(), "error message=\"a 'bad' move=1\"");
        assert_eq!(
            parse(&said.to_string()).get("message"),
            Some("a 'bad' move=1")
        );
    }

    #[test]
    fn malformed_lines_are_syntax_errors_not_panics() {
        assert_eq!(
            Line::parse("pos moves=\"11-15"),
            Err(SyntaxError::UnclosedQuote)
        );
        assert_eq!(Line::parse("=x"), Err(SyntaxError::MissingName));
        assert_eq!(Line::parse("go =think"), Err(SyntaxError::MissingName));
        assert_eq!(Line::parse("go \"think\""), Err(SyntaxError::MissingName));
        for text in ["\u{0}", "é=ü", "a=b=c", "x \"", "\"", "level depth=="] {
            let _ = Line::parse(text); // whatever it says, it says it without a panic
        }
    }

    #[test]
    fn requests_are_typed_and_unknown_commands_are_none() {
        let request = |text: &str| Request::from_line(&parse(text));
        assert_eq!(request("hub"), Some(Ok(Request::Hub)));
        assert_eq!(request("go think"), Some(Ok(Request::Go(GoMode::Think))));
        assert_eq!(request("go ponder"), Some(Ok(Request::Go(GoMode::Ponder))));
        assert_eq!(
            request("go analyze"),
            Some(Ok(Request::Go(GoMode::Analyze)))
        );
        // A bare `go` thinks; one that names a search not known is refused.
        assert_eq!(request("go"), Some(Ok(Request::Go(GoMode::Think))));
        assert_eq!(
            request("go nonsense"),
            Some(Err(
                "go takes think, ponder or analyze, not nonsense".to_string()
            ))
        );
        assert_eq!(request("ponder-hit"), Some(Ok(Request::PonderHit)));
        assert_eq!(request("dance now=yes"), None);
        assert_eq!(
            request("set-param name=variant value=english"),
            Some(Ok(Request::SetParam {
                name: "variant".into(),
                value: "english".into()
            }))
        );
        assert!(matches!(request("set-param value=1"), Some(Err(_))));
        assert_eq!(
            request("pos pos=W moves=\" 9-14  22-17 \" colour=red"),
            Some(Ok(Request::Pos(PosSpec {
                pos: Some("W".into()),
                fen: None,
                moves: vec!["9-14".into(), "22-17".into()],
            })))
        );
    }

    #[test]
    fn levels_read_every_limit_and_refuse_bad_numbers() {
        let level = |text: &str| match Request::from_line(&parse(text)) {
            Some(Ok(Request::Level(spec))) => Ok(spec),
            Some(Err(why)) => Err(why),
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(level("level depth=7").unwrap().depth, Some(7));
        // Out of range is refused, with the range, not silently clamped.
        for (bad, why) in [
            ("depth=0", "depth=0 is out of range: depth is 1 to 64"),
            (
                "depth=100000",
                "depth=100000 is out of range: depth is 1 to 64",
            ),
            ("moves=0", "moves=0 is out of range: moves is at least 1"),
            ("moves=-1", "moves=-1 is out of range: moves is at least 1"),
            ("nodes=0", "nodes=0 is out of range: nodes is at least 1"),
            (
                "nodes=99999999999999999999999",
                "nodes=99999999999999999999999 is out of range: nodes is 1 to 18446744073709551615",
            ),
            ("depth=x", "depth=x is not a whole number: depth is 1 to 64"),
            (
                "move-time=0",
                "move-time=0 is out of range: move-time is more than 0 seconds",
            ),
        ] {
            assert_eq!(level(&format!("level {bad}")), Err(why.to_string()));
        }
        assert_eq!(level("level depth=64").unwrap().depth, Some(64));
        assert_eq!(level("level nodes=5000").unwrap().nodes, Some(5000));
        assert_eq!(
            level("level move-time=0.02").unwrap().move_time,
            Some(Duration::from_millis(20))
        );
        let clock = level("level moves=9 time=291.5 inc=2").unwrap();
        assert_eq!(clock.moves, Some(9));
        assert_eq!(clock.time, Some(Duration::from_millis(291_500)));
        assert_eq!(clock.inc, Some(Duration::from_secs(2)));
        assert!(level("level infinite").unwrap().infinite);
        for bad in [
            "level depth=x",
            "level move-time=-1",
            "level time=NaN",
            "level time=inf",
            "level nodes=-5",
        ] {
            assert!(level(bad).is_err(), "{bad}");
        }
        // A year at most, however many seconds are given.
        assert_eq!(
            level("level time=1e300").unwrap().time,
            Some(Duration::from_secs(365 * 86_400))
        );
    }

    /// `move-time=0` is refused, and the guide's engine chapter and the module's notes
    /// say the time must be more than 0 where they list the limits (they said only
    /// "seconds", so a script that asked for 0 learnt it from the error alone).
    #[test]
    fn the_guide_says_move_time_is_more_than_0_as_the_engine_refuses_0() {
        let refused = Request::from_line(&parse("level move-time=0"));
        assert!(
            matches!(&refused, Some(Err(why)) if why.contains("more than 0 seconds")),
            "{refused:?}"
        );
        let guide = include_str!("../guide/engine.md").replace("\n  ", " ");
        assert!(
            guide
                .contains("`move-time=S` (more than 0 seconds: `move-time=0` is answered `error`)"),
            "{guide}"
        );
        let notes = include_str!("mod.rs").replace("\n//!   ", " ");
        assert!(notes.contains("`move-time=` (seconds, more than 0)"));
    }
}
