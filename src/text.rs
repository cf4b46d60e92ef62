//! Text from outside the program (a file, a line of input, a tag of a saved game) made
//! safe to show on a terminal: control characters could move the cursor, change the
//! title or reset the screen, and a word of ten megabytes is no message.

/// `text` with every control character (C0, DEL, C1, and the bidirectional overrides
/// that reorder what follows) shown as `?`, a tab as a space, and cut after `max_chars`
/// characters with `...` to say so.
pub(crate) fn printable(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars.saturating_mul(4)) + 3);
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            out.push_str("...");
            break;
        }
        out.push(match c {
            '\t' => ' ',
            c if is_unsafe(c) => '?',
            c => c,
        });
    }
    out
}

/// The longest file name shown: longer ones are cut (with `...`).
pub(crate) const MAX_PATH_CHARS: usize = 4096;

/// `path` as [`printable`] shows it: a file name given as an argument or found in a
/// folder can hold escape sequences too.
pub(crate) fn printable_path(path: &std::path::Path) -> String {
    printable(&path.to_string_lossy(), MAX_PATH_CHARS)
}

/// Every line of `text` through [`printable`] (each cut after `max_chars` characters),
/// the line breaks kept: for messages of several lines.
pub(crate) fn printable_lines(text: &str, max_chars: usize) -> String {
    text.split('\n')
        .map(|line| printable(line.strip_suffix('\r').unwrap_or(line), max_chars))
        .collect::<Vec<_>>()
        .join("\n")
}

/// How many columns of a terminal `text` takes: a wide character (Chinese, Japanese,
/// Korean, most emoji) two, a combining mark none, as the screen draws it.
pub(crate) fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// The longest start of `text` that takes at most `width` columns: cut between
/// characters, a combining mark kept with its letter, never half of a wide character.
pub(crate) fn cut_to_columns(text: &str, width: usize) -> &str {
    let mut end = 0;
    for (i, c) in text.char_indices() {
        let next = i + c.len_utf8();
        if columns(&text[..next]) > width {
            break;
        }
        end = next;
    }
    &text[..end]
}

/// `text` in exactly `width` columns: cut to them ([`cut_to_columns`]), or followed by
/// spaces up to them, so that what comes after it stands in a column whatever the
/// script.
pub(crate) fn padded_to_columns(text: &str, width: usize) -> String {
    let cut = cut_to_columns(text, width);
    format!("{cut}{}", " ".repeat(width - columns(cut)))
}

/// `text` in one row of at most `width` columns: as it is when it fits, otherwise cut
/// between characters ([`cut_to_columns`]) with `ellipsis` at its end, so a reader sees
/// the row goes on (a list's row clipped at its border gave no sign of it).
pub(crate) fn one_row(text: &str, width: usize, ellipsis: &str) -> String {
    if columns(text) <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(columns(ellipsis));
    cut_to_columns(text, room).trim_end().to_string() + ellipsis
}

/// The end of `text` in one row of at most `width` columns: as it is when it fits,
/// otherwise `ellipsis` and the last characters that fit after it, so a line being
/// typed shows where typing goes on.
pub(crate) fn last_columns(text: &str, width: usize, ellipsis: &str) -> String {
    if columns(text) <= width {
        return text.to_string();
    }
    let room = width.saturating_sub(columns(ellipsis));
    let start = text
        .char_indices()
        .map(|(i, _)| i)
        .find(|&i| columns(&text[i..]) <= room)
        .unwrap_or(text.len());
    format!("{ellipsis}{}", &text[start..])
}

/// Takes the last grapheme off `text`: the letter a reader sees, with its combining
/// accents (`e` and U+0301 as one `é`), which is what Backspace erases.
pub(crate) fn pop_grapheme(text: &mut String) {
    use unicode_segmentation::UnicodeSegmentation;
    if let Some((start, _)) = text.grapheme_indices(true).next_back() {
        text.truncate(start);
    }
}

/// Whether `c` changes how a terminal shows what follows it.
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
}

/// Whether `c`, in text one person types for others to read (a moderator's reason),
/// hides or reorders what they read: a control character or text-direction mark
/// ([`is_unsafe`], which a client shows as `?`), the Arabic letter mark, or a
/// character of no width (a zero-width space or joiner, a word joiner, a byte-order
/// mark) that makes two texts that read alike differ.
pub(crate) fn is_hidden(c: char) -> bool {
    is_unsafe(c)
        || matches!(c, '\u{061C}' | '\u{200B}'..='\u{200D}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}')
}

/// A line one person types for others to read (said at a table, told to one player),
/// cleaned by one rule: control characters, text-direction marks and overrides, and
/// characters of no width that hide a word (a zero-width space, a word joiner, a
/// byte-order mark, a soft hyphen) are taken out; a zero-width joiner or non-joiner
/// between two visible characters stays, as variation selectors do, for an emoji
/// sequence (a family, a rainbow flag) or a script's letters are made of them.
/// (`say` kept every zero-width character and `tell` none, so an emoji sent in a
/// tell came apart.)
pub(crate) fn cleaned_line(text: &str) -> String {
    let joiner = |c: char| matches!(c, '\u{200C}' | '\u{200D}');
    let gone = |c: char| is_hidden(c) || matches!(c, '\u{00AD}' | '\u{180E}');
    let visible = |c: Option<char>| c.is_some_and(|c| !c.is_whitespace() && !gone(c));
    let mut kept = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let keep = if joiner(c) {
            // Between what is kept and what comes next, both visible.
            visible(kept.chars().next_back()) && visible(chars.peek().copied())
        } else {
            !gone(c)
        };
        if keep {
            kept.push(c);
        }
    }
    kept
}

/// What `c` is, for a message naming a hidden character ([`is_hidden`]): `U+202E
/// (right-to-left override)`.
fn hidden_name(c: char) -> String {
    let what = match c {
        '\u{202A}' => "left-to-right embedding",
        '\u{202B}' => "right-to-left embedding",
        '\u{202C}' => "pop directional formatting",
        '\u{202D}' => "left-to-right override",
        '\u{202E}' => "right-to-left override",
        '\u{2066}' => "left-to-right isolate",
        '\u{2067}' => "right-to-left isolate",
        '\u{2068}' => "first strong isolate",
        '\u{2069}' => "pop directional isolate",
        '\u{200E}' => "left-to-right mark",
        '\u{200F}' => "right-to-left mark",
        '\u{061C}' => "Arabic letter mark",
        '\u{200B}' => "zero-width space",
        '\u{200C}' => "zero-width non-joiner",
        '\u{200D}' => "zero-width joiner",
        '\u{2060}' => "word joiner",
        '\u{FEFF}' => "zero-width no-break space",
        '\t' => "a tab",
        '\n' | '\r' => "a line break",
        _ if c.is_control() => "a control character",
        _ => "an invisible character",
    };
    format!("U+{:04X} ({what})", u32::from(c))
}

/// Why `text`, typed for others to read, is refused: its first hidden character
/// ([`is_hidden`]), named by its code, what it is and its place; none if it has none.
pub(crate) fn hidden_problem(text: &str) -> Option<String> {
    let (place, c) = text.chars().enumerate().find(|&(_, c)| is_hidden(c))?;
    Some(format!(
        "character {} is {}, which would hide or reorder what players read: type the text \
         without control characters, text-direction marks or zero-width characters",
        place + 1,
        hidden_name(c)
    ))
}

/// `text` as [`printable`] shows it, but each hidden character ([`is_hidden`]) shown
/// as its code (`<U+202E>`), as [`hidden_problem`] names it: for the operator, who
/// reads what a stored text holds (a `?` said only that something was there).
pub(crate) fn with_hidden_named(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars.saturating_mul(4)) + 3);
    for (i, c) in text.chars().enumerate() {
        if i == max_chars {
            out.push_str("...");
            break;
        }
        if is_hidden(c) {
            out.push_str(&format!("<U+{:04X}>", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// `error` and every error beneath it ([`source`](std::error::Error::source)), in one
/// line: "FEN, White's pieces, entry '33': 33 is not a square: squares are numbered
/// 1-32". An error that shows its inner error in its own words returns no source, so
/// nothing is said twice.
pub(crate) fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(inner) = source {
        text.push_str(": ");
        text.push_str(&inner.to_string());
        source = inner.source();
    }
    text
}

/// Whether the locale `locale` (as [`character_locale`] finds it) writes UTF-8: its
/// name says so (`C.UTF-8`, `en_GB.utf8`). `C`, `POSIX` and the others (`en_US`,
/// `de_DE.ISO-8859-1`) have a character set of one byte a character; a locale not set
/// at all says nothing, and UTF-8 is taken.
pub(crate) fn utf8_locale(locale: Option<&std::ffi::OsStr>) -> bool {
    locale.is_none_or(|l| {
        let l = l.to_string_lossy().to_ascii_lowercase();
        l.contains("utf-8") || l.contains("utf8")
    })
}

/// The locale that sets the character set, as the C library picks it: the first of
/// `LC_ALL`, `LC_CTYPE` and `LANG` that is set and not empty.
pub(crate) fn character_locale() -> Option<std::ffi::OsString> {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .into_iter()
        .filter_map(std::env::var_os)
        .find(|v| !v.is_empty())
}

/// Plain mode's output: as it is in a UTF-8 locale; in another, every character
/// outside ASCII written as ASCII ([`ascii_for`]), since its UTF-8 bytes would show as
/// two or three characters of garbage there (`Game 1 of 2 · Ann 1½` as `Ann 1Â½`).
pub(crate) struct LocaleOut<W: std::io::Write> {
    /// Where the text goes.
    inner: W,
    /// Whether to write ASCII only.
    ascii: bool,
    /// The start of a character whose other bytes are yet to come.
    pending: Vec<u8>,
    /// The last character written, so that `2½` becomes `2 1/2`, not `21/2`.
    last: char,
}

impl LocaleOut<std::io::StdoutLock<'static>> {
    /// Standard output, for the locale of the environment.
    pub(crate) fn stdout() -> Self {
        LocaleOut::new(
            std::io::stdout().lock(),
            !utf8_locale(character_locale().as_deref()),
        )
    }
}

impl<W: std::io::Write> LocaleOut<W> {
    /// Output to `inner`, of ASCII only if `ascii`.
    pub(crate) fn new(inner: W, ascii: bool) -> Self {
        LocaleOut {
            inner,
            ascii,
            pending: Vec::new(),
            last: ' ',
        }
    }

    /// Writes `text` as ASCII.
    fn write_ascii(&mut self, text: &str) -> std::io::Result<()> {
        let mut out = String::with_capacity(text.len());
        for c in text.chars() {
            if c == '\u{bd}' && self.last.is_ascii_digit() {
                out.push(' ');
            }
            out.push_str(&ascii_for(c));
            self.last = c;
        }
        self.inner.write_all(out.as_bytes())
    }
}

impl<W: std::io::Write> std::io::Write for LocaleOut<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if !self.ascii {
            return self.inner.write(buf);
        }
        self.pending.extend_from_slice(buf);
        loop {
            let pending = std::mem::take(&mut self.pending);
            match std::str::from_utf8(&pending) {
                Ok(text) => {
                    self.write_ascii(text)?;
                    break;
                }
                Err(e) => {
                    let (good, rest) = pending.split_at(e.valid_up_to());
                    self.write_ascii(std::str::from_utf8(good).unwrap_or_default())?;
                    match e.error_len() {
                        // A character cut between two writes: the rest comes next.
                        None => {
                            self.pending = rest.to_vec();
                            break;
                        }
                        Some(n) => {
                            self.write_ascii("?")?;
                            self.pending = rest[n..].to_vec();
                        }
                    }
                }
            }
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

/// `c` in ASCII: itself if it is; the nearest ASCII for the characters the program
/// writes (`½` is `1/2`, `·` and dashes `-`, `…` `...`, `▶` `>`) and for the accented
/// Latin letters of names (`é` is `e`); `?` for anything else.
pub(crate) fn ascii_for(c: char) -> std::borrow::Cow<'static, str> {
    use std::borrow::Cow;
    if c.is_ascii() {
        return Cow::Owned(c.to_string());
    }
    const LETTERS: [(&str, char); 12] = [
        ("ÀÁÂÃÄÅ", 'A'),
        ("àáâãäå", 'a'),
        ("ÈÉÊË", 'E'),
        ("èéêë", 'e'),
        ("ÌÍÎÏ", 'I'),
        ("ìíîï", 'i'),
        ("ÒÓÔÕÖØ", 'O'),
        ("òóôõöø", 'o'),
        ("ÙÚÛÜ", 'U'),
        ("ùúûü", 'u'),
        ("Ý", 'Y'),
        ("ýÿ", 'y'),
    ];
    let named = match c {
        '\u{bd}' => "1/2",
        '\u{b7}' | '\u{2013}' | '\u{2014}' | '\u{2212}' => "-",
        '\u{2026}' => "...",
        '\u{25b6}' => ">",
        '\u{d7}' => "x",
        '\u{2018}' | '\u{2019}' => "'",
        '\u{201c}' | '\u{201d}' => "\"",
        'Ç' => "C",
        'ç' => "c",
        'Ñ' => "N",
        'ñ' => "n",
        'ß' => "ss",
        _ => "",
    };
    if !named.is_empty() {
        return Cow::Borrowed(named);
    }
    let letter = LETTERS
        .iter()
        .find(|(group, _)| group.contains(c))
        .map_or('?', |&(_, base)| base);
    Cow::Owned(letter.to_string())
}

/// `name` as a screen's font may show it: lower case, `l` and `1` as `i`, `0` as `o`,
/// so that two names that read alike (`Alice`, `A1ice`) compare equal.
pub(crate) fn name_as_it_looks(name: &str) -> String {
    name.to_lowercase()
        .chars()
        .map(|c| match c {
            'l' | '1' => 'i',
            '0' => 'o',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn a_locale_is_utf8_when_its_name_says_so_or_none_is_set() {
        let os = |s: &'static str| Some(std::ffi::OsStr::new(s));
        for utf8 in ["C.UTF-8", "en_GB.utf8", "de_DE.UTF-8@euro"] {
            assert!(utf8_locale(os(utf8)), "{utf8}");
        }
        assert!(utf8_locale(None));
        for other in ["C", "POSIX", "en_US.ISO-8859-1", "ja_JP.eucJP", "en_US"] {
            assert!(!utf8_locale(os(other)), "{other}");
        }
    }

    #[test]
    fn output_for_a_locale_not_utf8_is_ascii_and_reads_the_same() {
        let mut out = LocaleOut::new(Vec::new(), true);
        let text = "Game 2 of 2 \u{b7} Ann 1\u{bd} (W1 D1 L0) \u{b7} Zo\u{eb} \u{bd}\n 1. [ ] First \u{2014} win\u{2026}";
        // Written a byte at a time: characters cut between writes come out whole.
        for byte in text.as_bytes() {
            out.write_all(std::slice::from_ref(byte)).unwrap();
        }
        out.write_all(b"bad \xff byte").unwrap();
        assert_eq!(
            String::from_utf8(out.inner).unwrap(),
            "Game 2 of 2 - Ann 1 1/2 (W1 D1 L0) - Zoe 1/2\n 1. [ ] First - win...bad ? byte"
        );
        let mut same = LocaleOut::new(Vec::new(), false);
        same.write_all(text.as_bytes()).unwrap();
        assert_eq!(same.inner, text.as_bytes());
    }

    #[test]
    fn control_characters_become_question_marks() {
        assert_eq!(
            printable("a\x1b[2Jb\x07\u{9b}c\u{202e}d\te", 80),
            "a?[2Jb??c?d e"
        );
        assert_eq!(printable("Zürich", 80), "Zürich");
    }

    #[test]
    fn wide_characters_take_two_columns_and_are_never_cut_in_half() {
        assert_eq!(columns("王小明"), 6);
        assert_eq!(columns("Zoe\u{308}"), 3);
        assert_eq!(cut_to_columns("王小明", 5), "王小");
        assert_eq!(cut_to_columns("Zoe\u{308}x", 3), "Zoe\u{308}");
        assert_eq!(padded_to_columns("王小明", 5), "王小 ");
        assert_eq!(padded_to_columns("Ann", 5), "Ann  ");
    }

    #[test]
    fn hidden_characters_are_named_with_their_place() {
        assert_eq!(hidden_problem("spam in every game"), None);
        assert_eq!(hidden_problem("Zürich, 王小明"), None);
        let said = hidden_problem("abc\u{202e}def").expect("refused");
        assert!(
            said.starts_with("character 4 is U+202E (right-to-left override), which"),
            "{said}"
        );
        for c in [
            '\u{2066}', '\u{2069}', '\u{200e}', '\u{200f}', '\u{200d}', '\u{feff}', '\x1b',
        ] {
            assert!(
                hidden_problem(&format!("a{c}")).is_some(),
                "U+{:04X}",
                u32::from(c)
            );
        }
        assert!(
            hidden_problem("a\u{200d}b")
                .unwrap()
                .contains("zero-width joiner")
        );
    }

    #[test]
    fn long_text_is_cut_by_characters() {
        assert_eq!(printable("ééé", 2), "éé...");
        assert_eq!(printable("abc", 3), "abc");
        assert_eq!(printable(&"x".repeat(10_000_000), 10).len(), 13);
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_printable() {
        use checkers::text::printable;
        assert_eq!(printable("11-15\x1bc", 40), "11-15?c");
        assert_eq!(printable("abcdefgh", 5), "abcde...");
    }
}

/// `text` with its first letter a capital: "databases, 4 pieces" becomes "Databases, 4
/// pieces", to begin a sentence.
pub(crate) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
