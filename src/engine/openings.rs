//! The three-move openings that engine matches start from.

use crate::rules::{Move, Position};
use std::fmt;

/// The ACF three-move deck, one ballot per line (`number<TAB>moves<TAB>status<TAB>name`,
/// `#` comments): the 174 openings of the American Checker Federation, 144 played over
/// the board, 12 in mail play only and 18 barred (lost by force). Read it with
/// [`parse_openings`], or take it parsed from [`acf_openings`].
pub(crate) const ACF_DECK: &str = include_str!("acf-3move.txt");

/// The openings of the [`ACF_DECK`], in deck order, barred ones included.
pub(crate) fn acf_openings() -> Vec<Opening> {
    // The deck is part of the program and replays (a unit test below proves it).
    parse_openings(ACF_DECK).expect("the embedded ACF deck replays")
}

/// Where a ballot may be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BallotStatus {
    /// Played over the board.
    Crossboard,
    /// Played in correspondence (mail) play only.
    Mailplay,
    /// Lost by force: not played.
    Barred,
}

impl BallotStatus {
    /// The word an openings file gives it: `crossboard`, `mailplay` or `barred`.
    pub(crate) fn word(self) -> &'static str {
        match self {
            BallotStatus::Crossboard => "crossboard",
            BallotStatus::Mailplay => "mailplay",
            BallotStatus::Barred => "barred",
        }
    }
}

impl fmt::Display for BallotStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl std::str::FromStr for BallotStatus {
    type Err = String;

    fn from_str(word: &str) -> Result<BallotStatus, String> {
        match word.trim().to_ascii_lowercase().as_str() {
            "" | "crossboard" => Ok(BallotStatus::Crossboard),
            "mailplay" => Ok(BallotStatus::Mailplay),
            "barred" => Ok(BallotStatus::Barred),
            _ => Err(format!(
                "'{}' is not a ballot status (crossboard, mailplay or barred)",
                crate::text::printable(word, 40)
            )),
        }
    }
}

/// One ballot of the ACF three-move deck.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Opening {
    /// Its number in the deck (1-174).
    pub(crate) number: u32,
    /// The moves as written in the file (`9-13 21-17 5-9`).
    pub(crate) moves: String,
    /// Where it may be played.
    pub(crate) status: BallotStatus,
    /// Its name (may be empty).
    pub(crate) name: String,
    /// The opening's moves, from the start position.
    pub(crate) line: Vec<Move>,
    /// The positions from the start position to the one after the last opening move.
    pub(crate) positions: Vec<Position>,
}

impl Opening {
    /// Whether the opening is barred from play.
    pub(crate) fn is_barred(&self) -> bool {
        self.status == BallotStatus::Barred
    }

    /// The position the game goes on from.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn position(&self) -> Position {
        self.positions
            .last()
            .copied()
            .unwrap_or_else(Position::start)
    }
}

/// A line of an openings file that cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct OpeningsError {
    /// The line number, from 1.
    pub(crate) line: usize,
    /// What is wrong with it.
    pub(crate) reason: String,
}

impl fmt::Display for OpeningsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl std::error::Error for OpeningsError {}

/// Reads an openings file: `number<TAB>moves<TAB>status<TAB>name` per line, `#`
/// comments and blank lines skipped. Every move is replayed from the start position.
pub(crate) fn parse_openings(text: &str) -> Result<Vec<Opening>, OpeningsError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_number = i + 1;
        let error = |reason: String| OpeningsError {
            line: line_number,
            reason,
        };
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let mut fields = line.split('\t');
        let number = fields.next().unwrap_or_default().trim();
        let number: u32 = number
            .parse()
            .map_err(|_| error(format!("'{number}' is not an opening number")))?;
        let moves = fields
            .next()
            .ok_or_else(|| error("no moves (fields are separated by tabs)".to_string()))?
            .trim()
            .to_string();
        let status: BallotStatus = fields.next().unwrap_or_default().parse().map_err(error)?;
        let name = fields.next().unwrap_or_default().trim().to_string();
        let mut pos = Position::start();
        let mut positions = vec![pos];
        let mut line = Vec::new();
        for text in moves.split_whitespace() {
            let m = pos
                .parse_move(text)
                .map_err(|e| error(format!("move {text}: {e}")))?;
            pos = pos.play_unchecked(&m);
            positions.push(pos);
            line.push(m);
        }
        openings.push(Opening {
            number,
            moves,
            status,
            name,
            line,
            positions,
        });
    }
    Ok(openings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_lines_and_reports_bad_ones() {
        let text = "# deck\n1\t9-13 21-17 5-9\tcrossboard\t\n3\t9-13 21-17 10-14\tbarred\tx\n";
        let openings = parse_openings(text).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(openings[0].positions.len(), 4);
        assert!(!openings[0].is_barred() && openings[1].is_barred());
        assert_eq!(openings[0].position().turn(), crate::rules::Color::White);
        let err = parse_openings("\n7\t9-13 9-14\tcrossboard\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.to_string().starts_with("line 2: move 9-14"), "{err}");
        assert!(parse_openings("x\t9-13").is_err());
        let err = parse_openings("1\t9-13 21-17 5-9\tsometimes\n").unwrap_err();
        assert!(
            err.to_string()
                .contains("'sometimes' is not a ballot status"),
            "{err}"
        );
    }

    #[test]
    fn the_embedded_acf_deck_replays() {
        let openings = parse_openings(ACF_DECK).unwrap();
        assert_eq!(openings, acf_openings());
        assert_eq!(openings.len(), 174);
        let count = |status| openings.iter().filter(|o| o.status == status).count();
        assert_eq!(count(BallotStatus::Crossboard), 144);
        assert_eq!(count(BallotStatus::Mailplay), 12);
        assert_eq!(count(BallotStatus::Barred), 18);
        assert_eq!(openings.iter().filter(|o| o.is_barred()).count(), 18);
        // Numbered 1-174 in order, each three moves from the start position.
        assert!(openings.iter().zip(1..).all(|(o, n)| o.number == n));
        assert!(openings.iter().all(|o| o.line.len() == 3));
        assert_eq!(openings[2].moves, "9-13 21-17 10-14");
        assert!(openings[2].is_barred());
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_acf_openings() {
        let deck = checkers::engine::acf_openings();
        assert_eq!(deck.len(), 174);
        assert_eq!(deck[0].moves, "9-13 21-17 5-9");
    }
}
