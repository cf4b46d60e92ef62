//! The session's news across the line: the host tells it as values ([`Told`]), and a
//! board turns them back into its own [`News`], checked against its copy of the game,
//! whose `Display` gives the same words as at the host. Nothing a host sends is
//! trusted: a move that is not the game's, a list longer than a take-back, a number
//! out of range, and the news is not shown.

use super::MAX_NAME_CHARS;
use crate::net::protocol::{Side, Told};
use crate::rules::{Color, Move, Position};
use crate::session::{MoveFrom, News, Reviewed, Session};

/// The most moves one take-back across the line takes back: the asker's last move and
/// the reply to it.
const MAX_TAKEN_BACK: usize = 2;

/// The longest move text a board reads: every landing square of the longest capture.
const MAX_MOVE_CHARS: usize = 100;

/// The most games a match told across the line is believed to have.
const MAX_GAMES: u32 = 10_000;

/// The most moves a game under review told across the line is believed to have.
const MAX_REVIEW_PLIES: u32 = 100_000;

/// What the peers are told of `news`, which `session` (the host's) has just made: `None`
/// for news that is this terminal's own (a hint, a review opened, the computer's
/// settings) or says nothing.
pub(super) fn told(news: &News) -> Option<Told> {
    Some(match news {
        News::Played {
            color,
            m,
            review_over,
            ..
        } => Told::Played {
            side: Side::from(*color),
            squares: m.to_string(),
            review_over: *review_over,
        },
        News::TookBack(moves) => Told::TookBack {
            moves: moves.iter().map(|m| m.m.to_string()).collect(),
        },
        News::TookBackEnding => Told::TookBackEnding,
        News::Resigned(color) => Told::Resigned {
            side: Side::from(*color),
        },
        News::DrawOffered(color) => Told::DrawOffered {
            side: Side::from(*color),
        },
        News::DrawAccepted(color) => Told::DrawAccepted {
            side: Side::from(*color),
        },
        News::DrawDeclined(color) => Told::DrawDeclined {
            side: Side::from(*color),
        },
        News::DrawClaimed(color) => Told::DrawClaimed {
            side: Side::from(*color),
        },
        News::FlagFell { color, .. } => Told::FlagFell {
            side: Side::from(*color),
        },
        News::NewGame => Told::NewGame,
        News::NextGame {
            number,
            games,
            black,
            white,
            ballot,
        } => Told::NextGame {
            number: u32::try_from(*number).unwrap_or(u32::MAX),
            games: u32::try_from(*games).unwrap_or(u32::MAX),
            black: black.clone(),
            white: white.clone(),
            ballot: *ballot,
        },
        News::UndoRefused(color) => Told::UndoRefused {
            side: Side::from(*color),
        },
        News::Adjourned(color) => Told::Adjourned {
            side: Side::from(*color),
        },
        News::LeftTable(color) => Told::LeftTable {
            side: Side::from(*color),
        },
        News::Review(Reviewed::At { shown, total, .. }) => Told::Review {
            shown: u32::try_from(*shown).unwrap_or(u32::MAX),
            total: u32::try_from(*total).unwrap_or(u32::MAX),
        },
        News::Review(Reviewed::Over) => Told::ReviewOver,
        // This terminal's own: what it opened, asked of its engine or its seats, and
        // news that says nothing.
        News::Review(Reviewed::Opened { .. })
        | News::Computer { .. }
        | News::Replayed(_)
        | News::ReplayedEnding
        | News::DrawAnswered { .. }
        | News::TimeLow { .. }
        | News::Seated { .. }
        | News::LevelChanged(_)
        | News::LevelWhenPlayGoesOn(_)
        | News::SetUp(_)
        | News::Paused
        | News::ClocksRun
        | News::LookingForHint(_)
        | News::Hint { .. }
        | News::MovingNow { .. }
        | News::HintNow
        | News::UndoAsked { .. }
        | News::Sent
        | News::KeptForLine(_)
        | News::Nothing => return None,
    })
}

/// The words a board shows for what the host told, made from its own copy of the game
/// (`session`, which follows the host's state, told first): as the host says them, the
/// result after them when the game is over. `None` when the news does not fit the game.
/// `typed`: this player's own move as it was sent, if it was typed with the wrong
/// separator: its news then says how it is written, as a move typed at one terminal does.
pub(super) fn heard(told: Told, session: &Session, typed: Option<&TypedNote>) -> Option<String> {
    let mut news = match told {
        // Said as they are: they speak of the table, not of a move.
        Told::UndoRefused { side } => return Some(News::UndoRefused(side.into()).to_string()),
        Told::Adjourned { side } => return Some(News::Adjourned(side.into()).to_string()),
        Told::LeftTable { side } => return Some(News::LeftTable(side.into()).to_string()),
        // A player is told its side, which a new game may have changed over.
        Told::NewGame => {
            return Some(match session.seats().only_person_here() {
                Some(mine) => new_game_words(mine, session.position().turn()),
                None => News::NewGame.to_string(),
            });
        }
        told => news_of(told, session)?,
    };
    if let (News::Played { m, note, .. }, Some(typed)) = (&mut news, typed) {
        let ply = session.game().moves().len().checked_sub(1);
        if *m == typed.m && ply == Some(typed.ply) {
            *note = Some(typed.note.clone());
        }
    }
    Some(session.announce(&news))
}

/// A new game at a table, said to the player of `mine` (`turn` to move): "New game: you
/// play White: Black moves first", "New game: you play Black, and move first". The
/// colours change over with each new game, so each side is told its own.
pub(crate) fn new_game_words(mine: Color, turn: Color) -> String {
    if mine == turn {
        format!("New game: you play {mine}, and move first")
    } else {
        format!("New game: you play {mine}: {turn} moves first")
    }
}

/// A move this board's player typed with the wrong separator (`9x14` for a step) and
/// sent as it is written: told how it is written when the news of it comes back.
#[derive(Debug)]
pub(crate) struct TypedNote {
    /// The ply the move was sent to be played at.
    pub(super) ply: usize,
    /// The move.
    pub(super) m: Move,
    /// What [`Position::typed_note`] said of it.
    pub(super) note: String,
}

/// The news `told` is on this board's game, if it fits it.
fn news_of(told: Told, session: &Session) -> Option<News> {
    let game = session.game();
    Some(match told {
        Told::Played {
            side,
            squares,
            review_over,
        } => {
            // The host's state came first: the move is the game's last.
            let ply = game.moves().len().checked_sub(1)?;
            let from = *game.positions().get(ply)?;
            let m = read_move(&from, &squares)?;
            if game.moves().get(ply) != Some(&m) || from.turn() != Color::from(side) {
                return None;
            }
            News::Played {
                color: from.turn(),
                m,
                crowned: crate::session::crowns(&from, &m),
                review_over,
                note: None,
            }
        }
        Told::TookBack { moves } => {
            if moves.is_empty() || moves.len() > MAX_TAKEN_BACK {
                return None;
            }
            // Gone from the game now: each is played again from where the take-back
            // left it, so each is checked as legal in turn.
            let mut from = *session.position();
            let mut taken = Vec::with_capacity(moves.len());
            for text in &moves {
                let m = read_move(&from, text)?;
                taken.push(MoveFrom { from, m });
                from = from.play_unchecked(&m);
            }
            News::TookBack(taken)
        }
        Told::TookBackEnding => News::TookBackEnding,
        Told::Resigned { side } => News::Resigned(side.into()),
        Told::DrawOffered { side } => News::DrawOffered(side.into()),
        Told::DrawAccepted { side } => News::DrawAccepted(side.into()),
        Told::DrawDeclined { side } => News::DrawDeclined(side.into()),
        Told::DrawClaimed { side } => News::DrawClaimed(side.into()),
        Told::FlagFell { side } => News::FlagFell {
            color: side.into(),
            // The game's own ending says how: a board whose copy has none shows nothing.
            outcome: game.result()?,
        },
        Told::NewGame => News::NewGame,
        Told::NextGame {
            number,
            games,
            black,
            white,
            ballot,
        } => {
            if number == 0 || number > games || games > MAX_GAMES {
                return None;
            }
            News::NextGame {
                number: number as usize,
                games: games as usize,
                black: crate::text::printable(&black, MAX_NAME_CHARS),
                white: crate::text::printable(&white, MAX_NAME_CHARS),
                ballot,
            }
        }
        Told::Review { shown, total } => {
            if shown > total || total > MAX_REVIEW_PLIES {
                return None;
            }
            News::Review(Reviewed::at(game, shown as usize, total as usize))
        }
        Told::ReviewOver => News::Review(Reviewed::Over),
        Told::UndoRefused { side } => News::UndoRefused(side.into()),
        Told::Adjourned { side } => News::Adjourned(side.into()),
        Told::LeftTable { side } => News::LeftTable(side.into()),
    })
}

/// The legal move in `from` that `text` names, if it is one (and of a move's length).
fn read_move(from: &Position, text: &str) -> Option<Move> {
    if text.len() > MAX_MOVE_CHARS {
        return None;
    }
    from.parse_move(text).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    /// A session that has played `moves`.
    fn played(moves: &[&str]) -> Session {
        let mut game = Game::new();
        for m in moves {
            game.play_text(m).unwrap();
        }
        Session::new(game)
    }

    #[test]
    fn the_news_told_is_said_at_the_board_in_the_hosts_words() {
        let host = played(&["11-15", "23-19"]);
        let board = played(&["11-15", "23-19"]);
        let m = host.game().moves()[1];
        let news = News::Played {
            color: Color::White,
            m,
            crowned: false,
            review_over: false,
            note: None,
        };
        let told = told(&news).unwrap();
        assert_eq!(heard(told, &board, None).unwrap(), host.announce(&news));
        assert_eq!(host.announce(&news), "White played 23-19");
        // A take-back: the moves come back from the position now.
        let mut host = played(&["11-15", "23-19"]);
        let undone = host.undo_agreed().unwrap();
        let board = played(&["11-15"]);
        assert_eq!(
            heard(self::told(&undone).unwrap(), &board, None).unwrap(),
            "Took back White 23-19"
        );
        assert_eq!(undone.to_string(), "Took back White 23-19");
        // Two moves, the asker's and the reply, in the order they were played.
        let board = played(&["11-15", "23-19"]);
        let pos = *board.position();
        let asked = pos.parse_move("8-11").unwrap();
        let after = pos.play_unchecked(&asked);
        let reply = after.parse_move("22-17").unwrap();
        let news = News::TookBack(vec![
            MoveFrom {
                from: pos,
                m: asked,
            },
            MoveFrom {
                from: after,
                m: reply,
            },
        ]);
        assert_eq!(
            heard(self::told(&news).unwrap(), &board, None).unwrap(),
            "Took back Black 8-11 and White's reply 22-17"
        );
        for news in [
            News::UndoRefused(Color::White),
            News::Adjourned(Color::Black),
            News::DrawOffered(Color::Black),
        ] {
            let told = self::told(&news).unwrap();
            assert_eq!(heard(told, &board, None).unwrap(), news.to_string());
        }
        // What is this terminal's own is not told.
        assert_eq!(self::told(&News::LookingForHint(Color::Black)), None);
        assert_eq!(self::told(&News::Nothing), None);
    }

    /// A flag fall told by the host is said once, with its result, on the joiner's and
    /// spectators' boards (it was said with the result twice: "White's time is up.
    /// Black wins: White lost on time.. Black wins: White lost on time.").
    #[test]
    fn a_flag_fall_told_is_said_with_its_result_once() {
        let mut game = Game::new();
        game.play_text("11-15").unwrap();
        game.lose_on_time(Color::White).unwrap();
        let board = Session::new(game);
        let told = Told::FlagFell { side: Side::White };
        assert_eq!(
            heard(told, &board, None).unwrap(),
            "White's time is up. Black wins: White lost on time."
        );
    }

    #[test]
    fn hostile_news_is_not_shown_and_never_panics() {
        let board = played(&["11-15"]);
        let side = Side::Black;
        let hostile = [
            // Not the game's last move, not a move, not the side that made it.
            Told::Played {
                side,
                squares: "9-13".into(),
                review_over: false,
            },
            Told::Played {
                side,
                squares: "x".repeat(200_000),
                review_over: false,
            },
            Told::Played {
                side: Side::White,
                squares: "11-15".into(),
                review_over: false,
            },
            // More moves than a take-back, none at all, and a move not legal here.
            Told::TookBack {
                moves: vec!["23-19".into(); 100_000],
            },
            Told::TookBack { moves: Vec::new() },
            Told::TookBack {
                moves: vec!["1-32".into()],
            },
            // Numbers out of range.
            Told::NextGame {
                number: 0,
                games: 2,
                black: "a".into(),
                white: "b".into(),
                ballot: None,
            },
            Told::NextGame {
                number: 3,
                games: u32::MAX,
                black: "a".into(),
                white: "b".into(),
                ballot: Some(u32::MAX),
            },
            Told::Review {
                shown: u32::MAX,
                total: 1,
            },
            // A flag fall the game does not show.
            Told::FlagFell { side },
        ];
        for told in hostile {
            assert_eq!(heard(told.clone(), &board, None), None, "{told:?}");
        }
        // Played into a game with no moves at all.
        let none = Told::Played {
            side,
            squares: "11-15".into(),
            review_over: false,
        };
        assert_eq!(heard(none, &played(&[]), None), None);
        // Names are made printable and short; a ballot not in the deck has no words.
        let next = Told::NextGame {
            number: 2,
            games: 2,
            black: format!("\u{1b}[2J{}", "A".repeat(500)),
            white: "Bob".into(),
            ballot: Some(9999),
        };
        let words = heard(next, &board, None).unwrap();
        assert!(!words.contains('\u{1b}'), "{words}");
        assert!(words.len() < 200, "{words}");
        assert!(
            words.starts_with("Game 2 of 2 (round 1.2): ?[2J"),
            "{words}"
        );
        assert!(words.ends_with("Bob White"), "{words}");
    }
}
