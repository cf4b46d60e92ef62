//! The WCDF draw claims (rule 1.32), the one place they are written down.
//!
//! - **Repetition**: the player to move may claim a draw if their next move would create
//!   the same position (same pieces, same side to move) for the third time.
//! - **Forty moves**: the player to move may claim a draw if, in each side's previous 40
//!   moves ([`FORTY_MOVE_PLIES`] plies), no man has moved and no piece has been captured.
//!
//! These are claims a player may make, never automatic endings. Every function here looks
//! at a line of play given as `history` (the earlier positions, oldest first, each one
//! move before the next) and `current` (the position after the last of them, not part of
//! `history`). Positions before the first one in `history` are unknown and not counted.
//!
//! `Game` (in the game module) answers its claim questions with these functions, and the
//! engine takes its forty-move horizon and its reversibility test from here.

use super::{Color, DrawReason, Move, Position, Role};

/// Plies in "each side's previous 40 moves" of the forty-move rule: with this many quiet
/// plies (no man moved, nothing captured) behind it, the player to move may claim a draw.
pub const FORTY_MOVE_PLIES: usize = 80;

/// Whether playing `m` in `before` is quiet (reversible): a king moves and captures
/// nothing. A man's move or any capture resets the forty-move count.
#[inline]
pub(crate) fn is_quiet_move(before: &Position, m: &Move) -> bool {
    !m.is_capture() && before.kings().contains(m.from())
}

/// Whether going from `before` to `after` (one move apart) was quiet: no man moved and
/// nothing was captured. For a legal move `m`, the same as [`is_quiet_move`]`(before, m)`.
#[inline]
pub(crate) fn is_reversible(before: &Position, after: &Position) -> bool {
    before.occupied().count() == after.occupied().count()
        && before.pieces(Color::Black, Role::Man) == after.pieces(Color::Black, Role::Man)
        && before.pieces(Color::White, Role::Man) == after.pieces(Color::White, Role::Man)
}

/// Counts the quiet plies at the end of the line, stopping at `limit`.
fn quiet_plies_up_to(history: &[Position], current: &Position, limit: usize) -> usize {
    let mut after = current;
    let mut count = 0;
    for before in history.iter().rev() {
        if count >= limit || !is_reversible(before, after) {
            break;
        }
        count += 1;
        after = before;
    }
    count
}

/// Consecutive quiet plies (no man moved, nothing captured) at the end of the line
/// `history` then `current`.
pub(crate) fn quiet_plies(history: &[Position], current: &Position) -> usize {
    quiet_plies_up_to(history, current, usize::MAX)
}

/// Whether the player to move in `current` may claim a draw by the forty-move rule: it
/// has a legal move, and the last [`FORTY_MOVE_PLIES`] plies were all quiet.
pub(crate) fn can_claim_forty_moves(history: &[Position], current: &Position) -> bool {
    quiet_plies_up_to(history, current, FORTY_MOVE_PLIES) >= FORTY_MOVE_PLIES
        && current.has_legal_move()
}

/// How many times `pos` (same pieces, same side to move) occurs in the line `history`
/// then `current`.
pub(crate) fn occurrences(history: &[Position], current: &Position, pos: &Position) -> usize {
    history
        .iter()
        .chain(std::iter::once(current))
        .filter(|p| *p == pos)
        .count()
}

/// Whether playing `m` in `current` creates a position for the third time: the player to
/// move may then claim a draw by repetition.
pub(crate) fn creates_third_occurrence(history: &[Position], current: &Position, m: &Move) -> bool {
    occurrences(history, current, &current.play_unchecked(m)) >= 2
}

/// The legal moves in `current` that create a position for the third time.
pub(crate) fn repeating_moves(history: &[Position], current: &Position) -> Vec<Move> {
    let mut moves = current.legal_moves();
    moves.retain(|m| creates_third_occurrence(history, current, m));
    moves
}

/// Whether the player to move in `current` may claim a draw by repetition: one of their
/// legal moves creates a position for the third time.
pub(crate) fn can_claim_repetition(history: &[Position], current: &Position) -> bool {
    current
        .legal_moves()
        .iter()
        .any(|m| creates_third_occurrence(history, current, m))
}

/// The draw the player to move in `current` may claim if they play `m`: repetition when
/// `m` creates a position for the third time, otherwise forty moves when the last
/// [`FORTY_MOVE_PLIES`] plies were quiet. This is what a computer player about to play
/// `m` may claim instead.
pub(crate) fn claim_for_move(
    history: &[Position],
    current: &Position,
    m: &Move,
) -> Option<DrawReason> {
    if creates_third_occurrence(history, current, m) {
        Some(DrawReason::Repetition)
    } else if quiet_plies_up_to(history, current, FORTY_MOVE_PLIES) >= FORTY_MOVE_PLIES {
        Some(DrawReason::FortyMoves)
    } else {
        None
    }
}

/// The draw the player to move in `current` may claim now, if any: repetition (some
/// legal move creates a position for the third time) first, then forty moves. `None`
/// when the side to move has no legal move (the game is over).
pub(crate) fn available_claim(history: &[Position], current: &Position) -> Option<DrawReason> {
    if can_claim_repetition(history, current) {
        Some(DrawReason::Repetition)
    } else if can_claim_forty_moves(history, current) {
        Some(DrawReason::FortyMoves)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forty_moves_of_kings_open_a_claim() {
        let mut pos: Position = "B:WK28:BK1".parse().unwrap();
        let mut history = Vec::new();
        // Both kings go round a loop, so positions repeat; a move off the loop shows the
        // forty-move claim, a move along it the repetition claim (checked first).
        let black = ["1-6", "6-10", "10-6", "6-1"];
        let white = ["28-24", "24-27", "27-24", "24-28"];
        for i in 0..40 {
            for text in [black[i % 4], white[i % 4]] {
                history.push(pos);
                pos = pos.play_text(text).unwrap();
            }
        }
        let off_loop = pos.parse_move("1-5").unwrap();
        assert_eq!(
            claim_for_move(&history, &pos, &off_loop),
            Some(DrawReason::FortyMoves)
        );
        let along = pos.parse_move("1-6").unwrap();
        assert_eq!(
            claim_for_move(&history, &pos, &along),
            Some(DrawReason::Repetition)
        );
        // One ply short of forty moves each: no forty-move claim yet.
        let short = &history[1..];
        assert_eq!(quiet_plies(short, &pos), FORTY_MOVE_PLIES - 1);
        assert_eq!(claim_for_move(short, &pos, &off_loop), None);
        // One man move in the window closes it.
        let with_man: Position = "B:WK28:BK1,12".parse().unwrap();
        let after = with_man.play_text("12-16").unwrap();
        let m = after.legal_moves()[0];
        assert_eq!(claim_for_move(&[with_man], &after, &m), None);
    }

    #[test]
    fn no_claim_without_a_legal_move() {
        // White is blocked: over, so nothing to claim even after quiet plies.
        let blocked: Position = "W:W29:B25,22".parse().unwrap();
        assert!(!blocked.has_legal_move());
        assert_eq!(available_claim(&[], &blocked), None);
        assert!(!can_claim_forty_moves(&[], &blocked));
    }

    /// A small deterministic generator for the random-ish games.
    fn next_random(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn available_claim_agrees_with_claim_for_move() {
        let mut seen_repetition = false;
        let mut seen_forty = false;
        for seed in 1..=12u64 {
            let mut state = seed;
            let mut pos: Position = "B:WK32,K30,21:BK1,K3,12".parse().unwrap();
            let mut history: Vec<Position> = Vec::new();
            for _ in 0..240 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let claims: Vec<Option<DrawReason>> = moves
                    .iter()
                    .map(|m| claim_for_move(&history, &pos, m))
                    .collect();
                let available = available_claim(&history, &pos);
                assert_eq!(
                    available == Some(DrawReason::Repetition),
                    claims.contains(&Some(DrawReason::Repetition)),
                    "seed {seed}, {pos}"
                );
                assert_eq!(
                    available.is_some(),
                    claims.iter().any(Option::is_some),
                    "seed {seed}, {pos}"
                );
                assert_eq!(
                    repeating_moves(&history, &pos).is_empty(),
                    available != Some(DrawReason::Repetition)
                );
                seen_repetition |= available == Some(DrawReason::Repetition);
                seen_forty |= available == Some(DrawReason::FortyMoves);
                // Random king shuffles, mostly avoiding moves that give up a piece so
                // that the quiet runs get long.
                let safe: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| {
                        let next = pos.play_unchecked(m);
                        next.legal_moves().iter().all(|r| !r.is_capture())
                    })
                    .collect();
                let pool = if safe.is_empty() || next_random(&mut state).is_multiple_of(50) {
                    &moves
                } else {
                    &safe
                };
                let m = pool[(next_random(&mut state) % pool.len() as u64) as usize];
                let next = pos.play_unchecked(&m);
                assert_eq!(is_quiet_move(&pos, &m), is_reversible(&pos, &next));
                history.push(pos);
                pos = next;
            }
        }
        assert!(seen_repetition && seen_forty);
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_draw() {
        use checkers::rules::draw;
        use checkers::rules::{DrawReason, Position};
        let mut history = Vec::new();
        let mut pos: Position = "B:WK32:BK1".parse().unwrap();
        for text in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"] {
            history.push(pos);
            pos = pos.play_text(text).unwrap();
        }
        // White's 28-32 would bring back the start position for the third time.
        assert_eq!(
            draw::available_claim(&history, &pos),
            Some(DrawReason::Repetition)
        );
        assert_eq!(draw::quiet_plies(&history, &pos), 7);
    }

    #[test]
    fn example_of_is_quiet_move() {
        use checkers::rules::Position;
        use checkers::rules::draw::is_quiet_move;
        let pos: Position = "B:WK28:BK1,12".parse().unwrap();
        assert!(is_quiet_move(&pos, &pos.parse_move("1-5").unwrap()));
        assert!(!is_quiet_move(&pos, &pos.parse_move("12-16").unwrap()));
    }

    #[test]
    fn example_of_is_reversible() {
        use checkers::rules::Position;
        use checkers::rules::draw::is_reversible;
        let pos: Position = "B:WK28:BK1,12".parse().unwrap();
        assert!(is_reversible(&pos, &pos.play_text("1-5").unwrap()));
        assert!(!is_reversible(&pos, &pos.play_text("12-16").unwrap()));
    }

    #[test]
    fn example_of_can_claim_forty_moves() {
        use checkers::rules::Position;
        use checkers::rules::draw::{FORTY_MOVE_PLIES, can_claim_forty_moves};
        let mut history = Vec::new();
        let mut pos: Position = "B:WK32:BK1".parse().unwrap();
        for ply in 0..FORTY_MOVE_PLIES {
            assert!(!can_claim_forty_moves(&history, &pos));
            history.push(pos);
            pos = pos
                .play_text(["1-5", "32-28", "5-1", "28-32"][ply % 4])
                .unwrap();
        }
        assert!(can_claim_forty_moves(&history, &pos));
    }

    #[test]
    fn example_of_creates_third_occurrence() {
        use checkers::rules::Position;
        use checkers::rules::draw::creates_third_occurrence;
        let mut history = Vec::new();
        let mut pos: Position = "B:WK32:BK1".parse().unwrap();
        for text in ["1-5", "32-28", "5-1", "28-32", "1-5", "32-28", "5-1"] {
            history.push(pos);
            pos = pos.play_text(text).unwrap();
        }
        assert!(creates_third_occurrence(
            &history,
            &pos,
            &pos.parse_move("28-32").unwrap()
        ));
        assert!(!creates_third_occurrence(
            &history,
            &pos,
            &pos.parse_move("28-24").unwrap()
        ));
    }

    #[test]
    fn example_of_can_claim_repetition() {
        use checkers::rules::Position;
        use checkers::rules::draw::can_claim_repetition;
        let a: Position = "B:WK32:BK1".parse().unwrap();
        assert!(!can_claim_repetition(&[], &a));
    }

    #[test]
    fn example_of_claim_for_move() {
        use checkers::rules::draw::claim_for_move;
        use checkers::rules::{DrawReason, Position};
        let mut history = Vec::new();
        let mut pos: Position = "B:WK28:BK1".parse().unwrap();
        for text in ["1-5", "28-24", "5-1", "24-28", "1-5", "28-24", "5-1"] {
            history.push(pos);
            pos = pos.play_text(text).unwrap();
        }
        // White's 24-28 would make the position after it (Black to move, kings on 1 and 28)
        // for the third time; 24-19 would not.
        let m = pos.parse_move("24-28").unwrap();
        assert_eq!(
            claim_for_move(&history, &pos, &m),
            Some(DrawReason::Repetition)
        );
        let m = pos.parse_move("24-19").unwrap();
        assert_eq!(claim_for_move(&history, &pos, &m), None);
    }

    #[test]
    fn example_of_available_claim() {
        use checkers::rules::Position;
        use checkers::rules::draw::available_claim;
        assert_eq!(available_claim(&[], &Position::start()), None);
    }

    #[test]
    fn example_of_quiet_plies() {
        use checkers::rules::Position;
        use checkers::rules::draw::quiet_plies;
        let a: Position = "B:WK28:BK1,12".parse().unwrap();
        let b = a.play_text("12-16").unwrap();
        let c = b.play_text("28-24").unwrap();
        let d = c.play_text("1-5").unwrap();
        assert_eq!(quiet_plies(&[a, b, c], &d), 2);
        assert_eq!(quiet_plies(&[], &a), 0);
    }

    #[test]
    fn example_of_occurrences() {
        use checkers::rules::Position;
        use checkers::rules::draw::occurrences;
        let a: Position = "B:WK32:BK1".parse().unwrap();
        let b = a.play_text("1-5").unwrap();
        assert_eq!(occurrences(&[a], &b, &a), 1);
        assert_eq!(
            occurrences(&[a], &b, &a.with_turn(checkers::rules::Color::White)),
            0
        );
    }

    #[test]
    fn example_of_repeating_moves() {
        use checkers::rules::Position;
        use checkers::rules::draw::repeating_moves;
        let pos: Position = "B:WK32:BK1".parse().unwrap();
        assert!(repeating_moves(&[], &pos).is_empty());
    }
}
