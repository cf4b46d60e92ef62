//! A game and its record: the names for the `Black` and `White` tags, and the
//! conversions between a [`Game`] and its [`PdnGame`] record, with the two extra tags
//! that make a resume exact: `Undone` holds the moves taken back (so redo still works)
//! and `Termination` says how a game ended that the board alone does not explain
//! (resignation, agreed or claimed draw, a flag fall).

use super::PdnGame;
use crate::game::Game;
use crate::rules::{Color, DrawReason, Move, Outcome, Position, WinReason};

/// The players' names for a record's `Black` and `White` tags.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Players {
    /// Black's name, if known.
    pub black: Option<String>,
    /// White's name, if known.
    pub white: Option<String>,
}

impl Players {
    /// The name of `color`'s player, if known.
    pub fn name(&self, color: Color) -> Option<&str> {
        match color {
            Color::Black => self.black.as_deref(),
            Color::White => self.white.as_deref(),
        }
    }
}

/// The `Termination` tag of a game lost on time.
pub(crate) const TIME_FORFEIT: &str = "lost on time";

/// The record of `game`: tags (players, date, result), start position, moves, and the
/// `Undone`/`Termination` tags needed to resume it exactly.
pub fn game_record(game: &Game, players: &Players, date: &str) -> PdnGame {
    let mut record = PdnGame::new(*game.start());
    record.moves = game.moves().to_vec();
    record.set_tag("Event", "Casual game");
    record.set_tag("Date", date);
    for color in Color::ALL {
        if let Some(name) = players.name(color) {
            record.set_tag(color.name(), name);
        }
    }
    record.result = Some(game.result().map_or("*", |o| o.pdn_result()).to_string());
    let undone = game.undone_moves();
    if !undone.is_empty() {
        let mut pos = *game.position();
        let mut words = Vec::new();
        for m in undone {
            words.push(m.to_string());
            pos = pos.play_unchecked(&m);
        }
        record.set_tag("Undone", &words.join(" "));
    }
    let termination = match game.result() {
        Some(Outcome::Win {
            reason: WinReason::Resignation,
            ..
        }) => Some("resignation"),
        Some(Outcome::Win {
            reason: WinReason::Time,
            ..
        }) => Some(TIME_FORFEIT),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement,
        }) => Some("agreement"),
        Some(Outcome::Draw {
            reason: DrawReason::Repetition,
        }) => Some("repetition claimed"),
        Some(Outcome::Draw {
            reason: DrawReason::FortyMoves,
        }) => Some("forty-move rule claimed"),
        _ => None,
    };
    if let Some(t) = termination {
        record.set_tag("Termination", t);
    }
    record
}

/// A game from a record: its moves played from its start, the `Undone` moves (if any)
/// ready for redo, and a declared ending restored from the result and `Termination`.
/// The players' names come back as well.
pub fn game_from_record(record: &PdnGame) -> (Game, Players) {
    let mut game = Game::from_position(record.start);
    for m in &record.moves {
        // The reader replayed every move, so each is legal in turn.
        let _ = game.play(m);
    }
    let mut undone: Vec<Move> = Vec::new();
    if let Some(text) = record.tag("Undone") {
        let mut pos: Position = *game.position();
        for word in text.split_whitespace() {
            match pos.parse_move(word) {
                Ok(m) => {
                    pos = pos.play_unchecked(&m);
                    undone.push(m);
                }
                Err(_) => break,
            }
        }
    }
    let played = undone.iter().take_while(|m| game.play(m).is_ok()).count();
    for _ in 0..played {
        game.undo();
    }
    if game.result().is_none() {
        let termination = record.tag("Termination").unwrap_or("").trim();
        // Only the endings this program writes are restored as such; a bare result, or
        // another program's words ("adjudication"), is decided with its reason unknown.
        let winner = match record.recorded_result() {
            Some("1-0") => Some(Color::Black),
            Some("0-1") => Some(Color::White),
            Some("1/2-1/2") => None,
            _ => return (game, players_of(record)),
        };
        let ended = match (winner, termination) {
            (Some(winner), "resignation") => game.resign(!winner).is_ok(),
            (Some(winner), TIME_FORFEIT) => game.lose_on_time(!winner).is_ok(),
            (None, "agreement") => {
                let turn = game.position().turn();
                game.offer_draw(turn).is_ok() && game.accept_draw().is_ok()
            }
            (None, "repetition claimed" | "forty-move rule claimed") => game.claim_draw().is_ok(),
            _ => false,
        };
        if !ended {
            let _ = game.end_as_recorded(winner);
        }
    }
    (game, players_of(record))
}

/// The players' names in `record`'s `Black` and `White` tags (`?` is no name).
fn players_of(record: &PdnGame) -> Players {
    let name = |tag| {
        record
            .tag(tag)
            .filter(|n| !n.is_empty() && *n != "?")
            .map(String::from)
    };
    Players {
        black: name("Black"),
        white: name("White"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pdn::{read_games, write_game};

    #[test]
    fn record_round_trip_keeps_undo_history_and_endings() {
        let mut game = Game::new();
        for m in ["11-15", "23-19", "8-11", "22-17"] {
            game.play_text(m).unwrap();
        }
        game.undo();
        game.undo();
        let players = Players {
            black: Some("Ann".into()),
            white: None,
        };
        let record = game_record(&game, &players, "2026.11.30");
        assert_eq!(record.tag("Undone"), Some("8-11 22-17"));
        let text = write_game(&record);
        let back = read_games(&text).remove(0).unwrap();
        let (resumed, names) = game_from_record(&back);
        assert_eq!(resumed.moves(), game.moves());
        assert_eq!(resumed.undone_moves(), game.undone_moves());
        assert_eq!(names, players);

        let mut resigned = Game::new();
        resigned.play_text("11-15").unwrap();
        resigned.resign(Color::White).unwrap();
        let back = read_games(&write_game(&game_record(&resigned, &players, "?"))).remove(0);
        let (resumed, _) = game_from_record(&back.unwrap());
        assert_eq!(resumed.result(), resigned.result());
    }

    #[test]
    fn a_bare_result_is_decided_with_no_reason_and_written_back_without_one() {
        let text = "[Result \"0-1\"]\n1. 11-15 23-19 0-1\n";
        let (game, _) = game_from_record(&read_games(text).remove(0).unwrap());
        let outcome = game.result().unwrap();
        assert_eq!(outcome.to_string(), "White won (as recorded)");
        assert_eq!(outcome.pdn_result(), "0-1");
        let back = write_game(&game_record(&game, &Players::default(), "?"));
        assert!(back.contains("[Result \"0-1\"]"), "{back}");
        assert!(!back.contains("Termination"), "no ending invented: {back}");

        let text = "[Result \"1/2-1/2\"]\n1. 11-15 23-19 1/2-1/2\n";
        let (game, _) = game_from_record(&read_games(text).remove(0).unwrap());
        assert_eq!(game.result().unwrap().to_string(), "Drawn (as recorded)");
        let back = write_game(&game_record(&game, &Players::default(), "?"));
        assert!(
            !back.contains("Termination"),
            "no agreement invented: {back}"
        );
    }

    /// Three records whose `Result` tag and result token disagree, or use the points
    /// form (`2-0`): a draw by its tag and Black's win by its token; unfinished by its
    /// tag and White's win by its token; Black's win in points, no tag.
    const DISAGREEING: &str = "[Event \"a\"]\n[Result \"1/2-1/2\"]\n1. 11-15 23-19 1-0\n\n\
                               [Event \"b\"]\n[Result \"*\"]\n1. 11-15 23-19 0-1\n\n\
                               [Event \"c\"]\n1. 11-15 23-19 2-0\n";

    #[test]
    fn a_records_result_is_the_same_in_its_line_its_review_its_save_and_the_explorer() {
        // Before, the list and a load took the token (1-0: the save wrote 1-0), the
        // review's panel and the explorer the tag (a draw); a load ignored "2-0".
        let records: Vec<PdnGame> = read_games(DISAGREEING)
            .into_iter()
            .map(|g| g.unwrap())
            .collect();
        let expected = ["1/2-1/2", "0-1", "1-0"];
        let outcomes = [
            "Drawn (as recorded)",
            "White won (as recorded)",
            "Black won (as recorded)",
        ];
        for (i, record) in records.iter().enumerate() {
            let line = crate::session::GameSummary::of(i + 1, &Ok(record.clone())).text;
            assert!(
                line.contains(&format!(", {}, 1 move", expected[i])),
                "{line}"
            );
            let (game, _) = game_from_record(record);
            assert_eq!(
                game.result().map(|o| o.to_string()).as_deref(),
                Some(outcomes[i])
            );
            let written = write_game(record);
            assert!(
                written.contains(&format!("[Result \"{}\"]", expected[i]))
                    && written.trim_end().ends_with(expected[i]),
                "{written}"
            );
            let review = crate::session::Session::review_faulty_record(record, None);
            assert_eq!(review.review().unwrap().tag("Result"), Some(expected[i]));
        }
        let explorer = crate::explorer::Explorer::of_text(DISAGREEING, None);
        let tally = explorer.moves_from(&Position::start())[0].1;
        // One game each: a draw, White's win, Black's win.
        assert_eq!(
            (tally.black_wins, tally.draws, tally.white_wins),
            (1, 1, 1),
            "{tally:?}"
        );
    }
}
