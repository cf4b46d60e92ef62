//! Lines of input read with a bound on each: a line longer than the bound is read to its
//! end a buffer at a time and dropped, so no input, however long its lines, fills the
//! memory (`head -c 1000000000 /dev/zero | checkers --plain` keeps a buffer, not a
//! gigabyte).

use std::io::{self, BufRead};

/// A line of input as read.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum BoundedLine {
    /// The line's bytes, without its line break (`\n`; a `\r` before it is kept).
    Text(Vec<u8>),
    /// A line longer than the bound: how many bytes it had (none of them kept).
    TooLong(u64),
}

/// Reads the next line of `input`, keeping at most `max` bytes of it: `None` at the end
/// of input. A longer line is read to its end (a line break, or the end of input) and
/// dropped as it is read. A read interrupted by a signal is tried again.
pub(crate) fn read_bounded_line(
    input: &mut impl BufRead,
    max: usize,
) -> io::Result<Option<BoundedLine>> {
    Ok(read_bounded_line_and_end(input, max)?.map(|(line, _)| line))
}

/// [`read_bounded_line`], and whether the line ended with a line break: one that did
/// not was cut by the end of input (Ctrl-D after a partly typed line, at a terminal,
/// where the cursor is still after the typed text).
pub(crate) fn read_bounded_line_and_end(
    input: &mut impl BufRead,
    max: usize,
) -> io::Result<Option<(BoundedLine, bool)>> {
    let mut broken = false;
    let mut kept = Vec::new();
    let mut length: u64 = 0;
    let mut read_any = false;
    loop {
        let buffer = match input.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            if !read_any {
                return Ok(None);
            }
            break;
        }
        read_any = true;
        let (text, used, ended) = match buffer.iter().position(|b| *b == b'\n') {
            Some(end) => (&buffer[..end], end + 1, true),
            None => (buffer, buffer.len(), false),
        };
        length += text.len() as u64;
        if length <= max as u64 {
            kept.extend_from_slice(text);
        } else if !kept.is_empty() {
            // Too long: what was kept goes, and nothing more is.
            kept = Vec::new();
        }
        input.consume(used);
        if ended {
            broken = true;
            break;
        }
    }
    let line = if length > max as u64 {
        BoundedLine::TooLong(length)
    } else {
        BoundedLine::Text(kept)
    };
    Ok(Some((line, broken)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_over_the_bound_is_dropped_and_the_next_one_read() {
        let mut input = io::BufReader::with_capacity(4, &b"ab\r\nabcdefghij\nxyz"[..]);
        let mut next = || read_bounded_line(&mut input, 5).unwrap();
        assert_eq!(next(), Some(BoundedLine::Text(b"ab\r".to_vec())));
        assert_eq!(next(), Some(BoundedLine::TooLong(10)));
        assert_eq!(next(), Some(BoundedLine::Text(b"xyz".to_vec())));
        assert_eq!(next(), None);
        let mut input = &b"\n12345\n123456"[..];
        let mut next = || read_bounded_line(&mut input, 5).unwrap();
        assert_eq!(next(), Some(BoundedLine::Text(Vec::new())));
        assert_eq!(next(), Some(BoundedLine::Text(b"12345".to_vec())));
        assert_eq!(next(), Some(BoundedLine::TooLong(6)));
        assert_eq!(next(), None);
    }
}
