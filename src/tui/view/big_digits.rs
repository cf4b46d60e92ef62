//! Clock readings three rows tall, to be read from across a desk: each digit three
//! columns of block characters, the separators one.

/// The rows of one character of a reading, or `None` for a character the font lacks.
fn glyph(c: char) -> Option<[&'static str; 3]> {
    Some(match c {
        '0' => ["█▀█", "█ █", "█▄█"],
        '1' => ["▀█ ", " █ ", "▄█▄"],
        '2' => ["▀▀█", "█▀▀", "█▄▄"],
        '3' => ["▀▀█", " ▀█", "▄▄█"],
        '4' => ["█ █", "▀▀█", "  █"],
        '5' => ["█▀▀", "▀▀█", "▄▄█"],
        '6' => ["█▀▀", "█▀█", "█▄█"],
        '7' => ["▀▀█", "  █", "  █"],
        '8' => ["█▀█", "█▀█", "█▄█"],
        '9' => ["█▀█", "▀▀█", "▄▄█"],
        ':' => [" ", "▀", "▀"],
        '.' => [" ", " ", "▄"],
        ' ' => [" ", " ", " "],
        _ => return None,
    })
}

/// The three rows of `text` (a clock reading such as `4:59` or `9.3`) in big digits,
/// a column apart; `None` if it has a character the font lacks.
pub(crate) fn big_rows(text: &str) -> Option<[String; 3]> {
    let mut rows = [String::new(), String::new(), String::new()];
    for (i, c) in text.chars().enumerate() {
        let g = glyph(c)?;
        for (row, part) in rows.iter_mut().zip(g) {
            if i > 0 {
                row.push(' ');
            }
            row.push_str(part);
        }
    }
    Some(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reading_is_three_even_rows() {
        let rows = big_rows("4:59").unwrap();
        assert_eq!(rows[0], "█ █   █▀▀ █▀█");
        assert_eq!(rows[1], "▀▀█ ▀ ▀▀█ ▀▀█");
        assert_eq!(rows[2], "  █ ▀ ▄▄█ ▄▄█");
        let widths: Vec<usize> = rows.iter().map(|r| r.chars().count()).collect();
        assert!(widths.iter().all(|&w| w == widths[0]), "{widths:?}");
        assert!(big_rows("1:00:00").is_some() && big_rows("9.3").is_some());
        assert!(big_rows("4m").is_none());
    }
}
