//! The three-move restriction: a ballot from the ACF deck sets a game's first three
//! moves, and the game starts after them.

use crate::engine::{BallotStatus, Opening, acf_openings};
use std::fmt;

/// The PDN tag this program records a game's ballot in: `[Ballot "126"]`.
pub(crate) const BALLOT_TAG: &str = "Ballot";

/// Which ballot a game starts from, as `--ballot` gives it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum BallotChoice {
    /// The ballot of this number in the ACF deck (1-174).
    Number(u32),
    /// One drawn at random (never a barred one).
    Random,
}

impl std::str::FromStr for BallotChoice {
    type Err = String;

    /// `37` or `random`.
    fn from_str(text: &str) -> Result<BallotChoice, String> {
        let text = text.trim();
        if text.eq_ignore_ascii_case("random") {
            return Ok(BallotChoice::Random);
        }
        match text.parse::<u32>() {
            Ok(n) if (1..=DECK_SIZE).contains(&n) => Ok(BallotChoice::Number(n)),
            _ => Err(format!(
                "'{text}' is not a ballot: give a number from 1 to {DECK_SIZE}, or random"
            )),
        }
    }
}

/// The number of ballots in the ACF deck.
pub(crate) const DECK_SIZE: u32 = 174;

/// A ballot that cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum BallotError {
    /// No ballot of this number in the deck.
    NoSuchBallot(u32),
    /// The ballot is barred (lost by force) and `--barred` was not given.
    Barred {
        /// Its number.
        number: u32,
        /// Its moves (`9-13 21-17 10-14`).
        moves: String,
    },
}

impl fmt::Display for BallotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BallotError::NoSuchBallot(n) => write!(
                f,
                "there is no ballot {n}: the ACF deck has ballots 1 to {DECK_SIZE}"
            ),
            BallotError::Barred { number, moves } => write!(
                f,
                "ballot {number} ({moves}) is barred (lost by force); add --barred to play it anyway"
            ),
        }
    }
}

impl std::error::Error for BallotError {}

/// The ballot numbered `number` of the ACF deck; a barred one only if `barred` allows.
pub(crate) fn ballot(number: u32, barred: bool) -> Result<Opening, BallotError> {
    let opening = acf_openings()
        .into_iter()
        .find(|o| o.number == number)
        .ok_or(BallotError::NoSuchBallot(number))?;
    if opening.is_barred() && !barred {
        return Err(BallotError::Barred {
            number: opening.number,
            moves: opening.moves,
        });
    }
    Ok(opening)
}

/// A ballot drawn with `seed`: never a barred one; a crossboard one, or a mailplay one
/// too when `mailplay` allows.
pub(crate) fn random_ballot(seed: u64, mailplay: bool) -> Opening {
    let mut deck: Vec<Opening> = acf_openings()
        .into_iter()
        .filter(|o| {
            o.status == BallotStatus::Crossboard || (mailplay && o.status == BallotStatus::Mailplay)
        })
        .collect();
    // A splitmix64 step spreads nearby seeds (seconds) over the deck.
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let i = (z % deck.len() as u64) as usize;
    deck.swap_remove(i)
}

/// The ballot of round `round` (from 0) of a match whose ballots are drawn with `seed`:
/// the deck of [`random_ballot`] shuffled by the seed, so no ballot comes twice until
/// every one has been played, and a resumed match draws the same ones.
pub(crate) fn drawn_ballot(seed: u64, mailplay: bool, round: usize) -> Opening {
    let mut deck: Vec<Opening> = acf_openings()
        .into_iter()
        .filter(|o| {
            o.status == BallotStatus::Crossboard || (mailplay && o.status == BallotStatus::Mailplay)
        })
        .collect();
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for i in (1..deck.len()).rev() {
        let j = (next() % (i as u64 + 1)) as usize;
        deck.swap(i, j);
    }
    let i = round % deck.len();
    deck.swap_remove(i)
}

/// What the ballot is, for the panel and plain mode, with its name where the deck gives
/// one: `Ballot 126: 11-15 23-19 8-11`, `Ballot 5 (Dreaded Edinburgh): 9-13 22-18 6-9`.
pub(crate) fn ballot_text(opening: &Opening) -> String {
    if opening.name.is_empty() {
        format!("Ballot {}: {}", opening.number, opening.moves)
    } else {
        format!(
            "Ballot {} ({}): {}",
            opening.number, opening.name, opening.moves
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ballot_is_told_with_its_name_when_it_has_one() {
        let named = ballot(5, false).expect("ballot 5");
        assert_eq!(
            ballot_text(&named),
            "Ballot 5 (Dreaded Edinburgh): 9-13 22-18 6-9"
        );
        let unnamed = ballot(126, false).expect("ballot 126");
        assert_eq!(ballot_text(&unnamed), "Ballot 126: 11-15 23-19 8-11");
    }

    #[test]
    fn choices_parse_with_clear_errors() {
        assert_eq!("37".parse(), Ok(BallotChoice::Number(37)));
        assert_eq!("Random".parse(), Ok(BallotChoice::Random));
        for bad in ["0", "175", "x", ""] {
            let e = bad.parse::<BallotChoice>().unwrap_err();
            assert!(e.contains("1 to 174"), "{e}");
        }
    }

    #[test]
    fn a_match_draws_a_different_ballot_each_round() {
        let drawn: Vec<u32> = (0..144).map(|r| drawn_ballot(7, false, r).number).collect();
        let mut distinct = drawn.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 144, "every crossboard ballot once");
        assert_eq!(drawn_ballot(7, false, 3), drawn_ballot(7, false, 3));
        assert_ne!(
            (0..4)
                .map(|r| drawn_ballot(8, false, r).number)
                .collect::<Vec<_>>(),
            drawn[..4]
        );
    }

    #[test]
    fn random_ballots_are_never_barred_and_mailplay_only_if_asked() {
        for seed in 0..500 {
            let o = random_ballot(seed, false);
            assert_eq!(o.status, BallotStatus::Crossboard);
            assert!(!random_ballot(seed, true).is_barred());
        }
        assert!((0..2000).any(|s| random_ballot(s, true).status == BallotStatus::Mailplay));
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_ballot() {
        use checkers::session::ballot;
        assert_eq!(ballot(126, false).unwrap().moves, "11-15 23-19 8-11");
        assert!(
            ballot(3, false)
                .unwrap_err()
                .to_string()
                .contains("ballot 3 ")
        );
        assert!(ballot(3, true).is_ok());
    }
}
