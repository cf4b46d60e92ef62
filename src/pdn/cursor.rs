//! The reader's character cursor, over a text in memory or streamed from bytes read a
//! block at a time: a file of any size is read in memory bounded by one block (the
//! tokens it makes are copied out, so no text is held behind the cursor).

use super::error::SyntaxError;
use std::borrow::Cow;
use std::io::Read;

/// Bytes read from a stream at a time.
const BLOCK: usize = 1 << 16;

/// How a stream's bytes are characters (see [`decode`](super::decode)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 (a byte-order mark at the start is dropped).
    Utf8,
    /// ISO-8859-1: every byte is one character (a UTF-8 byte-order mark at the start is
    /// dropped all the same).
    Latin1,
}

impl Encoding {
    /// The encoding of a file whose bytes `reader` gives, read to its end a block at a
    /// time (memory stays one block): UTF-8 if they all are, else ISO-8859-1, as
    /// [`decode`](super::decode) decides for a whole text.
    pub fn of(mut reader: impl Read) -> std::io::Result<Encoding> {
        let mut block = vec![0u8; BLOCK];
        let mut carry = 0;
        loop {
            let n = match reader.read(&mut block[carry..]) {
                Ok(n) => n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let filled = carry + n;
            match std::str::from_utf8(&block[..filled]) {
                Ok(_) => carry = 0,
                // A character cut by the block's end: it goes on in the next block.
                Err(e) if e.error_len().is_none() && n > 0 => {
                    let valid = e.valid_up_to();
                    block.copy_within(valid..filled, 0);
                    carry = filled - valid;
                }
                Err(_) => return Ok(Encoding::Latin1),
            }
            if n == 0 {
                return Ok(Encoding::Utf8);
            }
        }
    }
}

/// Where the cursor's text comes from.
enum Source<'a> {
    /// All of it is in the window already.
    Text,
    /// Bytes to decode, a block at a time.
    Stream {
        reader: Box<dyn Read + 'a>,
        encoding: Encoding,
        /// Bytes read but not decoded yet (a character cut by a block's end).
        carry: Vec<u8>,
        /// Whether any block was read (a byte-order mark is looked for in the first).
        started: bool,
        /// Whether the reader is at its end (or failed).
        done: bool,
    },
}

/// A character cursor with line and column (from 1) and the byte offset in the source.
pub(super) struct Cursor<'a> {
    window: Cow<'a, str>,
    at: usize,
    /// Bytes of the source before `window`.
    window_offset: u64,
    /// Whether each character of the window stands for one byte of the source.
    latin1: bool,
    /// For ISO-8859-1: how many more bytes the window's text before `at` takes than
    /// the source did (a character above 0x7F is one byte there, two here).
    widened: usize,
    pub(super) line: usize,
    pub(super) column: usize,
    source: Source<'a>,
}

impl<'a> Cursor<'a> {
    /// A cursor over `text`, at its start.
    pub(super) fn over_text(text: &'a str) -> Cursor<'a> {
        Cursor {
            window: Cow::Borrowed(text),
            at: 0,
            window_offset: 0,
            latin1: false,
            widened: 0,
            line: 1,
            column: 1,
            source: Source::Text,
        }
    }

    /// A cursor over the bytes of `reader` in `encoding`, which start at `place` of
    /// their file (a reader may start in the middle of one; the default place is the
    /// file's start).
    pub(super) fn over_stream(
        reader: impl Read + 'a,
        encoding: Encoding,
        place: super::reader::Place,
    ) -> Cursor<'a> {
        let (line, column) = (place.line.max(1), place.column.max(1));
        Cursor {
            window: Cow::Owned(String::new()),
            at: 0,
            window_offset: place.offset,
            latin1: encoding == Encoding::Latin1,
            widened: 0,
            line,
            column,
            source: Source::Stream {
                reader: Box::new(reader),
                encoding,
                carry: Vec::new(),
                started: place.offset > 0,
                done: false,
            },
        }
    }

    /// The byte offset of the next character in the source (for a stream, counted from
    /// where the reader started).
    pub(super) fn offset(&self) -> u64 {
        self.window_offset + (self.at - self.widened) as u64
    }

    /// Reads the next block of a stream into the window, once the window is used up.
    /// Whether there is more text.
    #[cold]
    fn refill(&mut self) -> bool {
        let Source::Stream {
            reader,
            encoding,
            carry,
            started,
            done,
        } = &mut self.source
        else {
            return false;
        };
        let consumed = (self.window.len() - self.widened) as u64;
        let mut bytes = std::mem::take(carry);
        // A read gives what it has; the first block must hold the three bytes of a
        // byte-order mark, if there is one.
        while !*done {
            let before = bytes.len();
            bytes.resize(before + BLOCK, 0);
            match reader.read(&mut bytes[before..]) {
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => bytes.truncate(before),
                Ok(0) | Err(_) => {
                    bytes.truncate(before);
                    *done = true;
                }
                Ok(n) => {
                    bytes.truncate(before + n);
                    if *started || bytes.len() >= 3 {
                        break;
                    }
                }
            }
        }
        let mut skipped = 0;
        // A byte-order mark is dropped in a Latin-1 file too: a file saved with one
        // and Latin-1 text after it (two files joined, an editor's doing) is no text
        // that begins "ï»¿", as `decode` reads it too.
        if !*started && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
            skipped = 3;
        }
        *started = true;
        let text = match encoding {
            Encoding::Latin1 => bytes.iter().map(|&b| char::from(b)).collect(),
            Encoding::Utf8 => {
                let valid = match std::str::from_utf8(&bytes) {
                    Ok(_) => bytes.len(),
                    Err(e) if e.error_len().is_none() && !*done => e.valid_up_to(),
                    // Bytes that are not UTF-8 after all (the file changed since it was
                    // looked at): shown as U+FFFD rather than stopping.
                    Err(_) => bytes.len(),
                };
                *carry = bytes.split_off(valid);
                String::from_utf8(bytes)
                    .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
            }
        };
        let more = !*done || !carry.is_empty();
        self.window_offset += consumed + skipped;
        self.window = Cow::Owned(text);
        self.at = 0;
        self.widened = 0;
        // A block of only a byte-order mark, or of a character's first bytes: read on.
        !self.window.is_empty() || (more && self.refill())
    }

    #[inline]
    pub(super) fn peek(&mut self) -> Option<char> {
        match self.window.as_bytes().get(self.at).copied() {
            Some(b) if b < 0x80 => Some(char::from(b)),
            Some(_) => self.window[self.at..].chars().next(),
            None if self.refill() => self.peek(),
            None => None,
        }
    }

    #[inline]
    pub(super) fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        let len = c.len_utf8();
        self.at += len;
        if len > 1 && self.latin1 {
            self.widened += len - 1;
        }
        // A lone '\r' ends a line too: files from the classic Mac OS end lines so.
        if c == '\n' || (c == '\r' && self.peek() != Some('\n')) {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    pub(super) fn error(
        &self,
        line: usize,
        column: usize,
        message: impl Into<String>,
    ) -> SyntaxError {
        SyntaxError {
            line,
            column,
            message: message.into(),
        }
    }

    pub(super) fn skip_space(&mut self) {
        loop {
            // Runs of ASCII spaces and line breaks, a window at a time; anything else
            // one character at a time.
            let bytes = &self.window.as_bytes()[self.at..];
            let mut n = 0;
            for &b in bytes {
                match b {
                    b'\n' => {
                        self.line += 1;
                        self.column = 1;
                    }
                    // A lone '\r' ends a line (as `bump` says); one at the window's
                    // end is left to `bump`, which sees what follows it.
                    b'\r' if n + 1 == bytes.len() => break,
                    b'\r' if bytes[n + 1] != b'\n' => {
                        self.line += 1;
                        self.column = 1;
                    }
                    b' ' | b'\t' | b'\r' | b'\x0b' | b'\x0c' => self.column += 1,
                    _ => break,
                }
                n += 1;
            }
            self.at += n;
            if n < bytes.len() || n == 0 {
                break;
            }
        }
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }

    /// Adds to `word` the run of ASCII characters at the cursor that are neither
    /// spaces nor one of `stops`, as far as the window goes, while `word` is shorter
    /// than `max` bytes; returns how many characters were taken. (The caller goes on a
    /// character at a time from there.)
    pub(super) fn take_ascii_run(&mut self, word: &mut String, stops: &[u8], max: usize) -> usize {
        let bytes = &self.window.as_bytes()[self.at..];
        let room = max.saturating_sub(word.len());
        let n = bytes
            .iter()
            .take(room)
            .take_while(|&&b| b.is_ascii_graphic() && !stops.contains(&b))
            .count();
        // ASCII: one byte, one character, one column each.
        if let Ok(run) = std::str::from_utf8(&bytes[..n]) {
            word.push_str(run);
        }
        self.at += n;
        self.column += n;
        n
    }

    /// Skips to the end of the line (a `;` comment): its `\n`, or its `\r` (a lone one
    /// ends a line; before a `\n`, the `\n` left is a space).
    pub(super) fn skip_line(&mut self) {
        while let Some(c) = self.bump() {
            if c == '\n' || c == '\r' {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader handing out its bytes a few at a time, as a pipe or a slow disk may.
    struct Trickle<'a>(&'a [u8], usize);

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.1.min(buf.len()).min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    fn all(mut c: Cursor) -> (String, u64) {
        let mut out = String::new();
        while let Some(ch) = c.bump() {
            out.push(ch);
        }
        (out, c.offset())
    }

    #[test]
    fn a_stream_reads_as_the_text_does_across_cut_characters() {
        let text = "\u{feff}[Black \"Zoë\"]\n1. 11-15 é€ *\n".repeat(5000);
        let bytes = text.as_bytes();
        assert_eq!(Encoding::of(bytes).unwrap(), Encoding::Utf8);
        for step in [1, 3, 7, 100_000] {
            let (read, offset) = all(Cursor::over_stream(
                Trickle(bytes, step),
                Encoding::Utf8,
                Default::default(),
            ));
            assert_eq!(read, text.trim_start_matches('\u{feff}'), "step {step}");
            assert_eq!(offset, bytes.len() as u64);
        }
    }

    #[test]
    fn latin1_bytes_are_one_character_each() {
        let bytes = b"[Black \"Zo\xEB\"]\n".repeat(10_000);
        assert_eq!(Encoding::of(&bytes[..]).unwrap(), Encoding::Latin1);
        let (read, offset) = all(Cursor::over_stream(
            &bytes[..],
            Encoding::Latin1,
            Default::default(),
        ));
        assert_eq!(read, super::super::decode(&bytes));
        assert_eq!(offset, bytes.len() as u64);
    }
}
