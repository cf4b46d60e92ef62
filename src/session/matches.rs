//! A match at one terminal, as checkers clubs play one: rounds of two games, the same
//! ballot for both games of a round and the colours reversed between them, a new
//! ballot each round when they are drawn at random, and the running score by player.
//!
//! The two players are *A* (Black in the first game of every round) and *B*. Each
//! keeps their name and their kind (a person, or the computer at its level) from game
//! to game: when the colours reverse, the players change sides of the board.
//!
//! The record of the game in play carries the match (tags of this program's own,
//! [`MATCH_TAGS`]), so `--resume` takes the whole match up again from the autosave:
//! the games before, the score, the round, the ballot, the game in progress and its
//! clocks. Each finished game is also written to the match's PDN file (the front end
//! does it; see [`Session::match_game_to_file`]), with its Event, Round, players,
//! result, time control and ballot.

use super::*;
use std::path::PathBuf;

/// The tags this program keeps the state of a match in (the autosave's record only):
/// the number of rounds, the earlier games' results, how ballots are chosen, the seed
/// of random ballots, and the match's file.
pub(crate) const MATCH_TAGS: [&str; 5] = [
    "MatchRounds",
    "MatchResults",
    "MatchBallots",
    "MatchSeed",
    "MatchFile",
];

/// The most rounds a match may have.
pub(crate) const MAX_ROUNDS: u32 = 100;

/// How a match's games begin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MatchBallots {
    /// Go-as-you-please: from the start position.
    None,
    /// Every round from this ballot of the ACF deck.
    Fixed(u32),
    /// A ballot drawn for each round (never a barred one, and none twice while the
    /// deck lasts), from `seed`; mailplay ballots too with `mailplay`.
    Random {
        /// Decides the draw, so a resumed match draws the same ballots.
        seed: u64,
        /// Whether the mailplay ballots are in the draw.
        mailplay: bool,
    },
}

impl MatchBallots {
    /// As the `MatchBallots` tag writes it: `none`, `126`, `random` or `random mailplay`.
    fn tag(self) -> String {
        match self {
            MatchBallots::None => "none".to_string(),
            MatchBallots::Fixed(n) => n.to_string(),
            MatchBallots::Random {
                mailplay: false, ..
            } => "random".to_string(),
            MatchBallots::Random { mailplay: true, .. } => "random mailplay".to_string(),
        }
    }

    /// From the `MatchBallots` and `MatchSeed` tags.
    fn from_tags(ballots: &str, seed: Option<&str>) -> Option<MatchBallots> {
        let seed = || seed.and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(0);
        match ballots.trim() {
            "none" | "" => Some(MatchBallots::None),
            "random" => Some(MatchBallots::Random {
                seed: seed(),
                mailplay: false,
            }),
            "random mailplay" => Some(MatchBallots::Random {
                seed: seed(),
                mailplay: true,
            }),
            n => n.parse().ok().map(MatchBallots::Fixed),
        }
    }
}

/// One player's games so far: won, drawn, lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Games won.
    pub(crate) wins: u32,
    /// Games drawn.
    pub(crate) draws: u32,
    /// Games lost.
    pub(crate) losses: u32,
}

impl Tally {
    /// Points in halves: a win is two, a draw one.
    pub(crate) fn half_points(self) -> u32 {
        2 * self.wins + self.draws
    }

    /// The points as players write them: `1½`, `2`, `½`, `0`.
    pub(crate) fn points(self) -> String {
        half_points_text(self.half_points())
    }

    /// `W1 D1 L0`.
    pub(crate) fn record(self) -> String {
        format!("W{} D{} L{}", self.wins, self.draws, self.losses)
    }
}

/// Half points as players write them: 3 is `1½`, 1 is `½`.
fn half_points_text(halves: u32) -> String {
    match (halves / 2, halves % 2) {
        (0, 1) => "\u{bd}".to_string(),
        (n, 1) => format!("{n}\u{bd}"),
        (n, _) => n.to_string(),
    }
}

/// A match: its rounds, its players (A, Black in each round's first game, and B), how
/// its games begin, the results so far, and the file its finished games go to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Match {
    rounds: u32,
    /// The players' names: A's, then B's.
    names: [String; 2],
    ballots: MatchBallots,
    /// The winner of each game before the one on the board (`None`: drawn), in order.
    results: Vec<Option<Color>>,
    /// The PDN file the finished games go to.
    file: Option<PathBuf>,
    /// Whether the game on the board, finished, is in the file.
    filed: bool,
}

impl Match {
    /// A match of `rounds` rounds (1 to [`MAX_ROUNDS`]) between A and B (`names`),
    /// its games begun as `ballots` says, each finished game written to `file`.
    pub(crate) fn new(
        rounds: u32,
        names: [String; 2],
        ballots: MatchBallots,
        file: Option<PathBuf>,
    ) -> Match {
        Match {
            rounds: rounds.clamp(1, MAX_ROUNDS),
            names,
            ballots,
            results: Vec::new(),
            file,
            filed: false,
        }
    }

    /// The number of games: two a round.
    pub(crate) fn games(&self) -> usize {
        2 * self.rounds as usize
    }

    /// The players' names: A's (Black in each round's first game), then B's.
    pub(crate) fn names(&self) -> &[String; 2] {
        &self.names
    }

    /// The game on the board, counted from 0.
    pub(crate) fn game_index(&self) -> usize {
        self.results.len()
    }

    /// Where the finished games are written.
    pub(crate) fn file(&self) -> Option<&PathBuf> {
        self.file.as_ref()
    }

    /// The Round tag of game `index` (from 0): `1.1`, `1.2`, `2.1`, ... (round, then the
    /// game of the round).
    pub(crate) fn round_text(index: usize) -> String {
        format!("{}.{}", index / 2 + 1, index % 2 + 1)
    }

    /// The colour player `player` (0 for A, 1 for B) has in game `index`: A is Black in
    /// the first game of each round, White in the second.
    pub(crate) fn color_of(player: usize, index: usize) -> Color {
        if (player == 0) == index.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    /// The player (0 for A, 1 for B) who has `color` in game `index`.
    pub(crate) fn player_of(color: Color, index: usize) -> usize {
        usize::from(Match::color_of(0, index) != color)
    }

    /// The name of the player who has `color` in the game on the board.
    pub(crate) fn name_of(&self, color: Color) -> &str {
        &self.names[Match::player_of(color, self.game_index())]
    }

    /// Names the player who has `color` in the game on the board (one who joined
    /// across the network says who they are).
    pub(crate) fn rename(&mut self, color: Color, name: String) {
        self.names[Match::player_of(color, self.game_index())] = name;
    }

    /// The ballot game `index` (from 0) begins from, if any: the same for both games of
    /// a round.
    pub(crate) fn ballot_for(&self, index: usize) -> Option<Opening> {
        let round = index / 2;
        match self.ballots {
            MatchBallots::None => None,
            MatchBallots::Fixed(n) => ballot::ballot(n, true).ok(),
            MatchBallots::Random { seed, mailplay } => {
                Some(ballot::drawn_ballot(seed, mailplay, round))
            }
        }
    }

    /// Each player's games (A's, B's), the game on the board counted when `current`
    /// gives its ending (`Some(None)` for a draw).
    pub(crate) fn tallies(&self, current: Option<Option<Color>>) -> [Tally; 2] {
        let mut tallies = [Tally::default(); 2];
        for (index, winner) in self.results.iter().copied().chain(current).enumerate() {
            for (player, tally) in tallies.iter_mut().enumerate() {
                match winner {
                    None => tally.draws += 1,
                    Some(c) if c == Match::color_of(player, index) => tally.wins += 1,
                    Some(_) => tally.losses += 1,
                }
            }
        }
        tallies
    }

    /// The Event tag of its games: "Match: Ann v Bob".
    pub(crate) fn event(&self) -> String {
        format!("Match: {} v {}", self.names[0], self.names[1])
    }
}

/// The winner of a finished game (`Some(None)` for a draw); `None` while it goes on.
fn ending(game: &Game) -> Option<Option<Color>> {
    game.result().map(|outcome| match outcome {
        crate::rules::Outcome::Win { winner, .. } => Some(winner),
        crate::rules::Outcome::Draw { .. } => None,
    })
}

impl Session {
    /// With the game a match of `rounds` rounds: its first game set up (the first
    /// ballot's moves played, if it has ballots), the players named (a person with no
    /// name "Player A" or "Player B", the computer after its level), each finished game
    /// to be written to `file`. The players as seated now are A (Black) and B.
    pub(crate) fn with_match(
        mut self,
        rounds: u32,
        ballots: MatchBallots,
        file: Option<PathBuf>,
    ) -> Session {
        let named = self.record_names();
        let mut names = [Color::Black, Color::White].map(|color| {
            named.name(color).map_or_else(
                || {
                    let letter = if color == Color::Black { 'A' } else { 'B' };
                    format!("Player {letter}")
                },
                |n| crate::text::printable(n, 40),
            )
        });
        if names[0] == names[1] {
            names[0].push_str(" A");
            names[1].push_str(" B");
        }
        self.names = Players {
            black: Some(names[0].clone()),
            white: Some(names[1].clone()),
        };
        let contest = Match::new(rounds, names, ballots, file);
        let opening = contest.ballot_for(0);
        self.match_play = Some(contest);
        match opening {
            Some(opening) => self.with_ballot(opening),
            None => self,
        }
    }

    /// The match being played, if this is one.
    pub(crate) fn match_play(&self) -> Option<&Match> {
        self.match_play.as_ref()
    }

    /// Each player's games so far (A's, B's), the game on the board counted once it
    /// has ended.
    pub(crate) fn match_tallies(&self) -> Option<[Tally; 2]> {
        let contest = self.match_play.as_ref()?;
        Some(contest.tallies(ending(&self.game)))
    }

    /// Whether the match is over: its last game has ended.
    pub(crate) fn match_over(&self) -> bool {
        self.match_play
            .as_ref()
            .is_some_and(|m| m.game_index() + 1 >= m.games() && self.game.is_over())
    }

    /// Whether the match waits for the players to be ready for its next game: the game
    /// on the board has ended and more are to come.
    pub(crate) fn match_waits(&self) -> bool {
        self.match_play.is_some() && self.game.is_over() && !self.match_over()
    }

    /// The score in one line: "Game 2 of 4 · Ann 1½ (W1 D1 L0) · Bob ½ (W0 D1 L1)".
    pub(crate) fn match_score_text(&self) -> Option<String> {
        let contest = self.match_play.as_ref()?;
        let tallies = self.match_tallies()?;
        let players = contest
            .names
            .iter()
            .zip(tallies)
            .map(|(name, t)| format!("{name} {} ({})", t.points(), t.record()))
            .collect::<Vec<_>>()
            .join(" \u{b7} ");
        Some(format!(
            "Game {} of {} \u{b7} {players}",
            contest.game_index() + 1,
            contest.games()
        ))
    }

    /// The final word on a finished match: "Match over: Ann wins the match 2½-1½" or
    /// "Match over: drawn 2-2".
    pub(crate) fn match_result_text(&self) -> Option<String> {
        if !self.match_over() {
            return None;
        }
        let contest = self.match_play.as_ref()?;
        let [a, b] = self.match_tallies()?;
        let (ha, hb) = (a.half_points(), b.half_points());
        let score = |x: u32, y: u32| format!("{}-{}", half_points_text(x), half_points_text(y));
        Some(match ha.cmp(&hb) {
            std::cmp::Ordering::Greater => format!(
                "Match over: {} wins the match {}",
                contest.names[0],
                score(ha, hb)
            ),
            std::cmp::Ordering::Less => format!(
                "Match over: {} wins the match {}",
                contest.names[1],
                score(hb, ha)
            ),
            std::cmp::Ordering::Equal => format!("Match over: drawn {}", score(ha, hb)),
        })
    }

    /// What the players are told when a match game has ended: the score, and the next
    /// game or the match's result.
    pub(crate) fn match_news(&self) -> Option<String> {
        if let Some(result) = self.match_result_text() {
            return Some(format!("{result}. {}", self.match_score_text()?));
        }
        if !self.match_waits() {
            return None;
        }
        let contest = self.match_play.as_ref()?;
        let next = contest.game_index() + 1;
        let black = &contest.names[Match::player_of(Color::Black, next)];
        let white = &contest.names[Match::player_of(Color::White, next)];
        Some(format!(
            "{}. Next: game {} of {}, {black} Black, {white} White",
            self.match_score_text()?,
            next + 1,
            contest.games()
        ))
    }

    /// Starts the match's next game, once the players are ready: the game on the board
    /// must have ended. The players change colours (names, and who is the computer, go
    /// with them), a new round brings its ballot, and the clocks start afresh. Returns
    /// "Game 2 of 4 (round 1.2): Bob plays Black, Ann White".
    pub(crate) fn next_match_game(&mut self) -> Result<News, SessionError> {
        let Some(contest) = self.match_play.as_ref() else {
            return Err(SessionError::NoMatch);
        };
        let Some(winner) = ending(&self.game) else {
            return Err(SessionError::MatchGameInPlay);
        };
        if self.match_over() {
            return Err(SessionError::MatchOver);
        }
        let mut contest = contest.clone();
        contest.results.push(winner);
        contest.filed = false;
        let index = contest.game_index();
        let opening = contest.ballot_for(index);
        let mut game = Game::new();
        for m in opening.iter().flat_map(|o| &o.line) {
            let _ = game.play(m);
        }
        self.change_sides();
        self.ballot = opening;
        self.match_play = Some(contest);
        self.track(|s| s.game = game);
        self.play_goes_on();
        if let Some(timing) = self.timing.as_mut() {
            timing.restart(self.game.position());
        }
        self.review = None;
        // The record's own Event, Date and Round were the last game's.
        self.origin.new_game();
        // A game of its own: the autosave keeps the finished one in its file.
        self.game_number += 1;
        Ok(News::NextGame {
            number: index + 1,
            games: self.match_play.as_ref().map_or(0, Match::games),
            black: self.names.black.clone().unwrap_or_else(|| "?".to_string()),
            white: self.names.white.clone().unwrap_or_else(|| "?".to_string()),
            ballot: self.ballot.as_ref().map(|o| o.number),
        })
    }

    /// The finished match game to write to the match's file, and the file, if it is
    /// not written yet: the game's record without this program's match-keeping tags.
    /// The front end writes it, then calls [`match_game_filed`](Self::match_game_filed).
    pub(crate) fn match_game_to_file(&self, today: &str) -> Option<(PathBuf, PdnGame)> {
        let contest = self.match_play.as_ref()?;
        if contest.filed || !self.game.is_over() {
            return None;
        }
        let mut record = self.record(today);
        record
            .tags
            .retain(|(name, _)| !MATCH_TAGS.contains(&name.as_str()));
        // Nothing of play in progress belongs in the match's file.
        record.tags.retain(|(name, _)| name != "Undone");
        Some((contest.file.clone()?, record))
    }

    /// The finished game is in the match's file.
    pub(crate) fn match_game_filed(&mut self) {
        if let Some(contest) = self.match_play.as_mut() {
            contest.filed = true;
        }
    }

    /// The tags a match game's record has: Event and Round, and the match's state.
    pub(super) fn match_tags(&self) -> Vec<(String, String)> {
        let Some(contest) = &self.match_play else {
            return Vec::new();
        };
        let results: Vec<&str> = contest
            .results
            .iter()
            .map(|w| match w {
                Some(Color::Black) => "1-0",
                Some(Color::White) => "0-1",
                None => "1/2-1/2",
            })
            .collect();
        let mut tags = vec![
            ("Event".to_string(), contest.event()),
            ("Round".to_string(), Match::round_text(contest.game_index())),
            ("MatchRounds".to_string(), contest.rounds.to_string()),
            ("MatchResults".to_string(), results.join(" ")),
            ("MatchBallots".to_string(), contest.ballots.tag()),
        ];
        if let MatchBallots::Random { seed, .. } = contest.ballots {
            tags.push(("MatchSeed".to_string(), seed.to_string()));
        }
        if let Some(file) = &contest.file {
            tags.push(("MatchFile".to_string(), file.display().to_string()));
        }
        tags
    }
}

/// The match a record's tags keep (see [`MATCH_TAGS`]), with the players named from
/// its Black and White tags; `None` if the record is not a match game's.
pub(super) fn match_from_record(record: &PdnGame) -> Option<Match> {
    let rounds: u32 = record.tag("MatchRounds")?.trim().parse().ok()?;
    let results: Vec<Option<Color>> = record
        .tag("MatchResults")
        .unwrap_or("")
        .split_whitespace()
        .map(|r| match r {
            "1-0" => Some(Some(Color::Black)),
            "0-1" => Some(Some(Color::White)),
            "1/2-1/2" => Some(None),
            _ => None,
        })
        .collect::<Option<_>>()?;
    let ballots = MatchBallots::from_tags(
        record.tag("MatchBallots").unwrap_or("none"),
        record.tag("MatchSeed"),
    )?;
    let index = results.len();
    if !(1..=MAX_ROUNDS).contains(&rounds) || index >= 2 * rounds as usize {
        return None;
    }
    // A player the record leaves unnamed (no tag, or PDN's "?") is called as a new
    // match calls them: "Player A" (Black in each round's first game) or "Player B".
    let name = |player: usize| {
        let color = Match::color_of(player, index);
        record
            .tag(color.name())
            .map(str::trim)
            .filter(|name| !name.is_empty() && *name != "?")
            .map_or_else(
                || format!("Player {}", if player == 0 { 'A' } else { 'B' }),
                str::to_string,
            )
    };
    let names = [name(0), name(1)];
    let file = record
        .tag("MatchFile")
        .filter(|f| !f.is_empty())
        .map(PathBuf::from);
    Some(Match {
        results,
        ..Match::new(rounds, names, ballots, file)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colours_reverse_within_a_round_and_points_count_halves() {
        assert_eq!(Match::color_of(0, 0), Color::Black);
        assert_eq!(Match::color_of(0, 1), Color::White);
        assert_eq!(Match::color_of(1, 1), Color::Black);
        assert_eq!(Match::player_of(Color::Black, 1), 1);
        assert_eq!(Match::round_text(3), "2.2");
        assert_eq!(half_points_text(3), "1\u{bd}");
        assert_eq!(half_points_text(1), "\u{bd}");
        assert_eq!(half_points_text(4), "2");
        let mut m = Match::new(2, ["A".into(), "B".into()], MatchBallots::None, None);
        // A wins with Black, then B wins with Black, then a draw, then A wins with White.
        m.results = vec![Some(Color::Black), Some(Color::Black), None];
        let [a, b] = m.tallies(Some(Some(Color::White)));
        assert_eq!((a.wins, a.draws, a.losses), (2, 1, 1));
        assert_eq!((b.wins, b.draws, b.losses), (1, 1, 2));
        assert_eq!(
            (a.points(), b.points()),
            ("2\u{bd}".into(), "1\u{bd}".into())
        );
        assert_eq!(m.tallies(None)[1].record(), "W1 D1 L1");
    }

    #[test]
    fn ballot_tags_read_back() {
        for b in [
            MatchBallots::None,
            MatchBallots::Fixed(37),
            MatchBallots::Random {
                seed: 9,
                mailplay: true,
            },
        ] {
            assert_eq!(MatchBallots::from_tags(&b.tag(), Some("9")), Some(b));
        }
        assert_eq!(MatchBallots::from_tags("x", None), None);
    }
}
