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

/// Whether `c` changes how a terminal shows what follows it.
pub(crate) fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}')
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_become_question_marks() {
        assert_eq!(
            printable("a\x1b[2Jb\x07\u{9b}c\u{202e}d\te", 80),
            "a?[2Jb??c?d e"
        );
        assert_eq!(printable("Zürich", 80), "Zürich");
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
