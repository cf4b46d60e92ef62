//! Scores in words, for players: "Black is ahead", "White wins in 7 moves".

use crate::engine::Score;
use crate::rules::Color;

/// Below this many hundredths of a man the game counts as even.
const LEVEL_BELOW: i32 = 20;
/// From this many it is "ahead" rather than "slightly ahead".
const AHEAD_FROM: i32 = 60;
/// From this many it is "well ahead" (a man and a half).
const WELL_AHEAD_FROM: i32 = 150;

/// `score` (for `to_move`, the side to move, as the engine gives it) in words that name
/// the side it favours: "even", "Black is slightly ahead", "White is well ahead",
/// "Black wins in 4 moves". ("Level" is kept for the computer's strength.)
pub(crate) fn score_in_words(to_move: Color, score: Score) -> String {
    if let Some(plies) = score.plies_to_end() {
        let winner = if score.is_win() { to_move } else { !to_move };
        // A move is one of each side's: the winner's last move ends it.
        let moves = plies.div_ceil(2).max(1);
        let plural = if moves == 1 { "" } else { "s" };
        return format!("{winner} wins in {moves} move{plural}");
    }
    let centi = score.0;
    let (side, amount) = if centi >= 0 {
        (to_move, centi)
    } else {
        (!to_move, -centi)
    };
    match amount {
        a if a < LEVEL_BELOW => "even".to_string(),
        a if a < AHEAD_FROM => format!("{side} is slightly ahead"),
        a if a < WELL_AHEAD_FROM => format!("{side} is ahead"),
        _ => format!("{side} is well ahead"),
    }
}

/// [`score_in_words`] with the size of the advantage in men: "Black is ahead by 0.8
/// men", "White is well ahead by 2.8 men"; "even" and "White wins in 9 moves" as they
/// are.
pub(crate) fn score_with_size(to_move: Color, score: Score) -> String {
    let words = score_in_words(to_move, score);
    match score.centi_men() {
        Some(centi) if centi.abs() >= LEVEL_BELOW => {
            // Tenths of a man, rounded: enough to tell a man from a king's worth.
            let tenths = (centi.abs() + 5) / 10;
            let (whole, tenth) = (tenths / 10, tenths % 10);
            let amount = if tenth == 0 {
                whole.to_string()
            } else {
                format!("{whole}.{tenth}")
            };
            let unit = if tenths == 10 { "man" } else { "men" };
            format!("{words} by {amount} {unit}")
        }
        _ => words,
    }
}

/// A score in men for the side to move, as the panel shows it for Black (who moves
/// first): `+0.35` Black better, `-1.20` White better, `#B7` Black wins in 7 moves,
/// `#W7` White wins in 7.
pub(crate) fn score_in_men(to_move: Color, score: crate::engine::Score) -> String {
    if let Some(plies) = score.plies_to_end() {
        let winner = if score.is_win() { to_move } else { !to_move };
        let letter = if winner == Color::Black { 'B' } else { 'W' };
        return format!("#{letter}{}", plies.div_ceil(2).max(1));
    }
    let centi = score.centi_men().unwrap_or(0);
    let for_black = if to_move == Color::Black {
        centi
    } else {
        -centi
    };
    let sign = if for_black < 0 { '-' } else { '+' };
    let amount = for_black.unsigned_abs();
    format!("{sign}{}.{:02}", amount / 100, amount % 100)
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_score_in_words() {
        use checkers::engine::Score;
        use checkers::rules::Color;
        use checkers::session::words::score_in_words;
        assert_eq!(score_in_words(Color::Black, Score(5)), "even");
        assert_eq!(score_in_words(Color::White, Score(-80)), "Black is ahead");
        assert_eq!(
            score_in_words(Color::Black, Score::win_in(7)),
            "Black wins in 4 moves"
        );
    }

    #[test]
    fn example_of_score_with_size() {
        use checkers::engine::Score;
        use checkers::rules::Color;
        use checkers::session::score_with_size;
        assert_eq!(
            score_with_size(Color::White, Score(-275)),
            "Black is well ahead by 2.8 men"
        );
        assert_eq!(
            score_with_size(Color::Black, Score(100)),
            "Black is ahead by 1 man"
        );
        assert_eq!(score_with_size(Color::Black, Score(-5)), "even");
    }
}
