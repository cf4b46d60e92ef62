//! The opening book: positions of the opening with the move a deep search found best,
//! and the moves the tournament games played from them.
//!
//! Built by `checkers-lab book` (deep searches of the position after every ballot of
//! the ACF deck and of the positions the tournament games reach most often in their
//! first moves, then dropout expansion from the ballots: see the lab's notes) and
//! embedded in the program as text compressed with zstd (`book.txt.zst`), one position
//! a line:
//!
//! ```text
//! FEN<TAB>best move<TAB>score<TAB>depth<TAB>move=count move=count ...
//! ```
//!
//! The score is the search's, for the side to move, in hundredths of a man; the counts
//! are how often the tournament games played each move from the position.

use super::zobrist::{hash, splitmix64};
use crate::rules::{Move, Position};
use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

/// The book the program ships with, compressed.
static EMBEDDED_ZST: &[u8] = include_bytes!("book.txt.zst");

/// The text of the book the program ships with.
fn embedded_text() -> String {
    let bytes = zstd::stream::decode_all(EMBEDDED_ZST)
        .expect("the embedded book is valid zstd (written by checkers-lab book)");
    String::from_utf8(bytes).expect("the embedded book is UTF-8 text")
}

/// What the book knows of one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BookEntry {
    /// The position.
    pub(crate) position: Position,
    /// The move the deep search found best.
    pub(crate) best: Move,
    /// Its score for the side to move, in hundredths of a man.
    pub(crate) score: i32,
    /// The depth of that search.
    pub(crate) depth: u32,
    /// The moves the tournament games played from here, most played first, with how
    /// often.
    pub(crate) played: Vec<(Move, u32)>,
}

/// Why the book plays a move that was played `times` in the tournament games: `played
/// 212 times in the tournament games`, or (never played) `a deep search's choice`.
pub(crate) fn reason_words(times: u32) -> String {
    match times {
        0 => "a deep search's choice".to_string(),
        1 => "played once in the tournament games".to_string(),
        n => format!("played {n} times in the tournament games"),
    }
}

impl BookEntry {
    /// How often the tournament games played `m` from this position.
    pub(crate) fn times_played(&self, m: &Move) -> u32 {
        self.played
            .iter()
            .find(|(p, _)| p == m)
            .map_or(0, |&(_, n)| n)
    }

    /// The book line for a player: `book: 11-15 (played 212 times in the tournament
    /// games)`, or `book: 11-15 (a deep search's choice)` for a move no game played; a
    /// multi-jump by its route (`15x22x29`), as the rest of the game gives it.
    pub(crate) fn describe(&self) -> String {
        format!("book: {} ({})", self.best, self.reason())
    }

    /// Why the book's move: `played 212 times in the tournament games`, or `a deep
    /// search's choice`.
    pub(crate) fn reason(&self) -> String {
        reason_words(self.times_played(&self.best))
    }

    /// The line of the book file for this entry.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn to_line(&self) -> String {
        let played: Vec<String> = self
            .played
            .iter()
            .map(|(m, n)| format!("{}={n}", self.position.notation(m)))
            .collect();
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.position,
            self.position.notation(&self.best),
            self.score,
            self.depth,
            played.join(" ")
        )
    }

    /// Reads a line of a book file.
    pub(crate) fn from_line(line: &str) -> Result<BookEntry, String> {
        let fields: Vec<&str> = line.split('\t').collect();
        let [fen, best, score, depth, played] = fields[..] else {
            return Err(format!(
                "expected five fields separated by tabs, found {}",
                fields.len()
            ));
        };
        let position: Position = fen
            .parse()
            .map_err(|e| format!("the FEN {fen:?}: {}", crate::text::error_chain(&e)))?;
        let best = position
            .parse_move(best)
            .map_err(|e| format!("the best move {best}: {e}"))?;
        let score = score
            .parse()
            .map_err(|_| format!("the score {score:?} is not a whole number"))?;
        let depth = depth
            .parse()
            .map_err(|_| format!("the depth {depth:?} is not a whole number"))?;
        let mut moves = Vec::new();
        for word in played.split_whitespace() {
            let (text, count) = word
                .split_once('=')
                .ok_or_else(|| format!("{word:?} is not move=count"))?;
            let m = position
                .parse_move(text)
                .map_err(|e| format!("the move {text}: {e}"))?;
            let count = count
                .parse()
                .map_err(|_| format!("the count in {word:?} is not a whole number"))?;
            moves.push((m, count));
        }
        Ok(BookEntry {
            position,
            best,
            score,
            depth,
            played: moves,
        })
    }
}

/// Why a book file cannot be read: the line (from 1) and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BookError {
    /// The line, from 1.
    pub(crate) line: usize,
    /// What is wrong.
    pub(crate) reason: String,
}

impl fmt::Display for BookError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for BookError {}

/// An opening book: entries by position.
#[derive(Clone, Debug, Default)]
pub(crate) struct Book {
    entries: HashMap<u64, BookEntry>,
}

impl Book {
    /// Reads a book file's text (`#` comments and blank lines skipped).
    pub(crate) fn parse(text: &str) -> Result<Book, BookError> {
        let mut entries = HashMap::new();
        for (i, line) in text.lines().enumerate() {
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let entry = BookEntry::from_line(line).map_err(|reason| BookError {
                line: i + 1,
                reason,
            })?;
            entries.insert(hash(&entry.position), entry);
        }
        Ok(Book { entries })
    }

    /// A book of these entries.
    #[cfg(test)]
    pub(crate) fn from_entries(list: impl IntoIterator<Item = BookEntry>) -> Book {
        Book {
            entries: list.into_iter().map(|e| (hash(&e.position), e)).collect(),
        }
    }

    /// The book built into the program.
    pub(crate) fn embedded() -> &'static Book {
        static BOOK: OnceLock<Book> = OnceLock::new();
        // A unit test reads the same text, so a broken book fails the tests.
        BOOK.get_or_init(|| Book::parse(&embedded_text()).expect("the embedded book reads"))
    }

    /// Positions in the book.
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }

    /// What the book knows of `pos`, if anything.
    pub(crate) fn entry(&self, pos: &Position) -> Option<&BookEntry> {
        self.entries.get(&hash(pos)).filter(|e| e.position == *pos)
    }

    /// The book's move in `pos`: the deep search's best, or with `variety` one of the
    /// moves the tournament games played, drawn by how often they were played (seeded
    /// by `seed`), when they played any at least twice.
    pub(crate) fn choose(
        &self,
        pos: &Position,
        variety: bool,
        seed: u64,
    ) -> Option<(&BookEntry, Move)> {
        let entry = self.entry(pos)?;
        if variety {
            let choices: Vec<&(Move, u32)> = entry.played.iter().filter(|(_, n)| *n >= 2).collect();
            let total: u32 = choices.iter().map(|(_, n)| n).sum();
            if total > 0 {
                let mut pick = (splitmix64(seed ^ hash(pos)) % u64::from(total)) as u32;
                for &&(m, n) in &choices {
                    if pick < n {
                        return Some((entry, m));
                    }
                    pick -= n;
                }
            }
        }
        Some((entry, entry.best))
    }

    /// Its entries, in no order.
    #[cfg(feature = "lab")]
    pub(crate) fn into_entries(self) -> Vec<BookEntry> {
        self.entries.into_values().collect()
    }

    /// Every entry, in no order.
    #[cfg(test)]
    pub(crate) fn entries(&self) -> impl Iterator<Item = &BookEntry> {
        self.entries.values()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn book_lines_round_trip() {
        let position = Position::start();
        let m = |t: &str| position.parse_move(t).unwrap();
        let entry = BookEntry {
            position,
            best: m("11-15"),
            score: 3,
            depth: 21,
            played: vec![(m("11-15"), 212), (m("9-14"), 40)],
        };
        let line = entry.to_line();
        assert!(
            line.ends_with("\t11-15\t3\t21\t11-15=212 9-14=40"),
            "{line}"
        );
        assert_eq!(BookEntry::from_line(&line), Ok(entry.clone()));
        assert_eq!(
            entry.describe(),
            "book: 11-15 (played 212 times in the tournament games)"
        );
    }

    #[test]
    fn a_book_move_that_jumps_twice_is_described_by_its_route() {
        // The seed's worked capture: White's man on 22 takes 18 and 11.
        let position: Position = "W:W22:B11,18".parse().unwrap();
        let jump = position.parse_move("22x8").unwrap();
        let entry = BookEntry {
            position,
            best: jump,
            score: 300,
            depth: 21,
            played: vec![(jump, 3)],
        };
        assert_eq!(
            entry.describe(),
            "book: 22x15x8 (played 3 times in the tournament games)"
        );
        // The book file keeps the record's short form.
        assert!(entry.to_line().contains("\t22x8\t"), "{}", entry.to_line());
    }

    #[test]
    fn a_faulty_book_line_is_named() {
        let err = Book::parse("# book\n\nB:W21-32:B1-12\t11-16x\t3\t21\t\n").unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.reason.contains("11-16x"), "{err}");
        let err = Book::parse("B:W21-32:B1-12\t11-15\t3\n").unwrap_err();
        assert!(err.reason.contains("five fields"), "{err}");
    }

    #[test]
    fn variety_follows_the_games_and_the_best_move_stands_without_it() {
        let position = Position::start();
        let m = |t: &str| position.parse_move(t).unwrap();
        let book = Book::from_entries([BookEntry {
            position,
            best: m("11-15"),
            score: 3,
            depth: 21,
            played: vec![(m("9-14"), 30), (m("11-16"), 10), (m("12-16"), 1)],
        }]);
        assert_eq!(
            book.choose(&position, false, 1).map(|c| c.1),
            Some(m("11-15"))
        );
        let mut seen = std::collections::HashMap::new();
        for seed in 0..400 {
            let (_, chosen) = book.choose(&position, true, seed).unwrap();
            *seen.entry(chosen).or_insert(0) += 1;
        }
        // Only moves played twice or more; the more played, the more chosen.
        assert!(!seen.contains_key(&m("12-16")) && !seen.contains_key(&m("11-15")));
        assert!(seen[&m("9-14")] > 2 * seen[&m("11-16")], "{seen:?}");
        let after = position.play_unchecked(&m("11-15"));
        assert!(book.choose(&after, false, 1).is_none());
    }

    #[test]
    fn the_embedded_book_reads_and_its_moves_are_legal() {
        let book = Book::parse(&embedded_text()).unwrap();
        // Every playable ballot (156 of the deck's 174) has a book move once its
        // three moves are made, unless the side to move has only one move.
        let playable: Vec<_> = crate::engine::acf_openings()
            .into_iter()
            .filter(|b| !b.is_barred())
            .collect();
        assert_eq!(playable.len(), 156);
        for ballot in playable {
            let pos = ballot.position();
            if pos.count_moves() > 1 {
                let entry = book.entry(&pos);
                assert!(entry.is_some(), "ballot {}", ballot.number);
            }
        }
        for entry in book.entries() {
            assert!(entry.position.is_legal(&entry.best));
        }
    }
}
