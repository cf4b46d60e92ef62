//! Which games of a file `pdn list` and `pdn extract` take.

use crate::cli::{GameFilters, GameNumbers};
use crate::commands::CommandError;
use crate::pdn::{GameError, PdnGame};
use crate::rules::{Move, Position};

/// The filters of the command line, made ready: names in lower case, the opening's
/// moves replayed.
#[derive(Debug, Default)]
pub(crate) struct Filter {
    /// Part of either player's name, in lower case.
    player: Option<String>,
    /// Part of the Event tag, in lower case.
    event: Option<String>,
    /// The result, in its standard form.
    result: Option<String>,
    /// The moves a game starts with, from the standard start.
    opening: Option<Vec<Move>>,
    /// The games' numbers asked for (`--games`).
    numbers: Option<GameNumbers>,
}

impl Filter {
    /// The filter `filters` and `numbers` give; an opening whose move cannot be played
    /// says which and why.
    pub(crate) fn new(
        filters: &GameFilters,
        numbers: Option<&GameNumbers>,
    ) -> Result<Filter, CommandError> {
        let opening = match &filters.opening {
            Some(text) => Some(opening_moves(text)?),
            None => None,
        };
        Ok(Filter {
            player: filters.player.as_ref().map(|p| p.trim().to_lowercase()),
            event: filters.event.as_ref().map(|e| e.trim().to_lowercase()),
            result: filters.result.clone(),
            opening,
            numbers: numbers.cloned(),
        })
    }

    /// Whether any game after number `number` may still be taken (`--games` names
    /// none after it: the file is read no further).
    pub(crate) fn wants_after(&self, number: usize) -> bool {
        self.numbers.as_ref().is_none_or(|n| number < n.last())
    }

    /// Whether the filters choose nothing but by number: every game read is taken,
    /// faulty or not.
    fn by_number_only(&self) -> bool {
        self.player.is_none()
            && self.event.is_none()
            && self.result.is_none()
            && self.opening.is_none()
    }

    /// Whether game `number`, as it reads, is taken. A game with a move that cannot be
    /// be played is judged by its tags and the moves before that one; one that does
    /// not read at all only when no filter but `--games` is given.
    pub(crate) fn takes(&self, number: usize, game: &Result<PdnGame, GameError>) -> bool {
        if self.numbers.as_ref().is_some_and(|n| !n.contains(number)) {
            return false;
        }
        if self.by_number_only() {
            return true;
        }
        let record = match game {
            Ok(record) => std::borrow::Cow::Borrowed(record),
            Err(e) => match e.up_to_fault() {
                Some(record) => std::borrow::Cow::Owned(record),
                None => return false,
            },
        };
        self.takes_record(&record)
    }

    /// Whether `record` passes every filter given.
    fn takes_record(&self, record: &PdnGame) -> bool {
        let has = |tag: &str, part: &str| {
            record
                .tag(tag)
                .is_some_and(|v| v.to_lowercase().contains(part))
        };
        if let Some(name) = &self.player
            && !has("Black", name)
            && !has("White", name)
        {
            return false;
        }
        if let Some(event) = &self.event
            && !has("Event", event)
        {
            return false;
        }
        if let Some(result) = &self.result
            && record.recorded_result() != Some(result.as_str())
        {
            return false;
        }
        if let Some(opening) = &self.opening
            && (record.start != Position::start() || !record.moves.starts_with(opening))
        {
            return false;
        }
        true
    }
}

/// The moves of `--opening` (`"11-15 23-19"`, move numbers allowed), replayed from the
/// standard start.
fn opening_moves(text: &str) -> Result<Vec<Move>, CommandError> {
    let mut pos = Position::start();
    let mut moves = Vec::new();
    for word in text.split_whitespace() {
        // "1." or "1..." carries nothing; "1.11-15" keeps its move.
        let rest = word.trim_start_matches(|c: char| c.is_ascii_digit());
        let word = match rest.strip_prefix('.') {
            Some(after) => after.trim_start_matches('.'),
            None => word,
        };
        if word.is_empty() {
            continue;
        }
        let m = pos.parse_move(word).map_err(|e| {
            CommandError::BadMove(format!(
                "--opening: {} cannot be played after {}: {e}",
                crate::text::printable(word, 40),
                if moves.is_empty() {
                    "the start".to_string()
                } else {
                    format!("{} move(s)", moves.len())
                }
            ))
        })?;
        pos = pos.play_unchecked(&m);
        moves.push(m);
    }
    if moves.is_empty() {
        return Err(CommandError::BadMove(
            "--opening: give the moves a game starts with, as in \"11-15 23-19\"".into(),
        ));
    }
    Ok(moves)
}
