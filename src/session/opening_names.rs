//! The names of openings, for a game played from the start position whether or not it
//! started from a ballot: the classic names of the go-as-you-please and two-move eras
//! (`Old Fourteenth`, `Single Corner`, `Bristol`, `Glasgow`, ...) and the names the ACF
//! three-move deck gives its ballots (`Dreaded Edinburgh`). A game's opening is the
//! longest named line its first moves follow.

use crate::engine::acf_openings;
use crate::game::Game;
use crate::rules::{Move, Position};
use std::sync::OnceLock;

/// The PDN tag a game's opening name is recorded in: `[Opening "Old Fourteenth"]`.
pub(crate) const OPENING_TAG: &str = "Opening";

/// The classic openings: name, then the moves that form it from the start position.
const CLASSIC: [(&str, &str); 31] = [
    ("Kelso", "10-15"),
    ("Denny", "10-14"),
    ("Edinburgh", "9-13"),
    ("Dundee", "12-16"),
    ("Switcher", "11-15 21-17"),
    ("Single Corner", "11-15 22-18"),
    ("Cross", "11-15 23-18"),
    ("Second Double Corner", "11-15 24-19"),
    ("Ayrshire Lassie", "11-15 24-20"),
    ("Bristol Cross", "11-16 23-18"),
    ("Paisley", "11-16 24-19"),
    ("Bristol", "11-16 24-20"),
    ("Kelso Cross", "10-15 23-18"),
    ("Double Corner", "9-14 22-18"),
    ("Dyke", "11-15 22-17 15-19"),
    ("Will o' the Wisp", "11-15 23-19 9-13"),
    ("Boston", "11-15 22-17 9-13 17-14"),
    ("Nailor", "11-15 23-19 8-11 26-23"),
    ("Defiance", "11-15 23-19 9-14 27-23"),
    ("Slip Cross", "11-15 23-18 8-11 27-23 11-16"),
    ("Maid of the Mill", "11-15 22-17 8-11 17-13 15-18"),
    ("Alma", "11-15 23-19 8-11 22-17 3-8"),
    ("Old Fourteenth", "11-15 23-19 8-11 22-17 4-8"),
    ("Laird and Lady", "11-15 23-19 8-11 22-17 9-13"),
    ("Glasgow", "11-15 23-19 8-11 22-17 11-16"),
    ("Centre", "11-15 23-19 8-11 22-17 15-18"),
    ("Fife", "11-15 23-19 9-14 22-17 5-9"),
    ("Souter", "11-15 23-19 9-14 22-17 6-9"),
    ("Whilter", "11-15 23-19 9-14 22-17 7-11"),
    ("Douglas", "11-15 22-17 8-11 17-13 4-8 25-22"),
    (
        "Black Doctor",
        "11-15 23-19 8-11 22-17 9-13 17-14 10x17 19x10 7x14",
    ),
];

/// Every named line, classic and ballot, replayed once.
fn named_lines() -> &'static [(String, Vec<Move>)] {
    static LINES: OnceLock<Vec<(String, Vec<Move>)>> = OnceLock::new();
    LINES.get_or_init(|| {
        let mut lines: Vec<(String, Vec<Move>)> = CLASSIC
            .iter()
            .filter_map(|(name, moves)| Some((name.to_string(), replay(moves)?)))
            .collect();
        lines.extend(
            acf_openings()
                .into_iter()
                .filter(|o| !o.name.is_empty())
                .map(|o| (o.name, o.line)),
        );
        lines
    })
}

/// The moves of `text` from the start position (a unit test proves every line replays).
fn replay(text: &str) -> Option<Vec<Move>> {
    let mut pos = Position::start();
    let mut line = Vec::new();
    for word in text.split_whitespace() {
        let m = pos.parse_move(word).ok()?;
        pos = pos.play_unchecked(&m);
        line.push(m);
    }
    Some(line)
}

/// The name of the opening `moves` played from `start` follow: the longest named line
/// they begin with, or `None` (a set-up position, or no named line).
pub(crate) fn opening_name(start: &Position, moves: &[Move]) -> Option<&'static str> {
    if *start != Position::start() {
        return None;
    }
    named_lines()
        .iter()
        .filter(|(_, line)| line.len() <= moves.len() && moves.starts_with(line))
        .max_by_key(|(_, line)| line.len())
        .map(|(name, _)| name.as_str())
}

/// The name of the opening of `game` (see [`opening_name`]).
pub(crate) fn game_opening_name(game: &Game) -> Option<&'static str> {
    opening_name(game.start(), game.moves())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(text: &str) -> Vec<Move> {
        replay(text).expect("the moves replay")
    }

    #[test]
    fn every_classic_line_replays_and_names_are_unique() {
        for (name, moves) in CLASSIC {
            let line = replay(moves).unwrap_or_else(|| panic!("{name}: {moves}"));
            assert_eq!(line.len(), moves.split_whitespace().count(), "{name}");
            assert_eq!(opening_name(&Position::start(), &line), Some(name));
        }
        let mut names: Vec<&str> = CLASSIC.iter().map(|(n, _)| *n).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), CLASSIC.len());
        assert_eq!(named_lines().len(), CLASSIC.len() + 24);
    }

    #[test]
    fn the_longest_named_line_wins() {
        let start = Position::start();
        assert_eq!(opening_name(&start, &[]), None);
        assert_eq!(opening_name(&start, &played("11-16")), None);
        assert_eq!(opening_name(&start, &played("11-15 23-19 8-11")), None);
        assert_eq!(opening_name(&start, &played("10-15 21-17")), Some("Kelso"));
        assert_eq!(
            opening_name(&start, &played("11-15 22-18 15x22 25x18 8-11")),
            Some("Single Corner")
        );
        assert_eq!(
            opening_name(&start, &played("11-15 23-19 8-11 22-17 9-13 17-14 10x17")),
            Some("Laird and Lady")
        );
        assert_eq!(
            opening_name(
                &start,
                &played("11-15 23-19 8-11 22-17 9-13 17-14 10x17 19x10 7x14 25-22")
            ),
            Some("Black Doctor")
        );
        // A ballot's name from the deck, reached by moves played, not drawn.
        assert_eq!(
            opening_name(&start, &played("9-13 22-18 6-9 18-14")),
            Some("Dreaded Edinburgh")
        );
        assert_eq!(
            opening_name(&start, &played("9-13 22-18")),
            Some("Edinburgh")
        );
    }

    #[test]
    fn a_set_up_position_has_no_opening() {
        let line = played("11-15 23-19 8-11 22-17 4-8");
        let after_one = Position::start().play_unchecked(&line[0]);
        assert_eq!(opening_name(&after_one, &line[1..]), None);
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_opening_name() {
        use checkers::rules::Position;
        use checkers::session::opening_name;
        let mut pos = Position::start();
        let mut moves = Vec::new();
        for text in ["11-15", "23-19", "8-11", "22-17", "4-8", "17-13"] {
            let m = pos.parse_move(text).unwrap();
            pos = pos.play(&m).unwrap();
            moves.push(m);
        }
        assert_eq!(opening_name(&Position::start(), &moves[..2]), None);
        assert_eq!(
            opening_name(&Position::start(), &moves),
            Some("Old Fourteenth")
        );
    }
}
