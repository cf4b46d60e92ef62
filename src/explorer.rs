//! The opening explorer's data: from a collection of PDN games, the moves played from
//! each position they pass through, with how many games played each and how those games
//! ended.
//!
//! A collection is read once into an [`Explorer`]; games whose moves do not replay are
//! skipped and counted. Games from a set-up position (a `FEN` tag) are indexed from
//! their own start. The built-in collection ([`builtin`]), Marion Tinsley's tournament
//! games, ships compressed inside the program and is read at first use.

use crate::pdn::PdnGame;
use crate::rules::{Color, Move, Position};
use std::collections::HashMap;
use std::sync::OnceLock;

/// Marion Tinsley's tournament games (724, of which one does not replay), PDN
/// compressed with zstd.
const TINSLEY_PDN_ZST: &[u8] = include_bytes!("explorer/tinsley.pdn.zst");

/// How the games that played a move (or reached a position) ended.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Tally {
    /// Games counted.
    pub(crate) games: u32,
    /// Of them, won by Black.
    pub(crate) black_wins: u32,
    /// Of them, drawn.
    pub(crate) draws: u32,
    /// Of them, won by White.
    pub(crate) white_wins: u32,
}

impl Tally {
    /// Counts one more game, ending in `result` (`None`: no known result).
    fn add(&mut self, result: Option<GameResult>) {
        self.games += 1;
        match result {
            Some(GameResult::Win(Color::Black)) => self.black_wins += 1,
            Some(GameResult::Win(Color::White)) => self.white_wins += 1,
            Some(GameResult::Draw) => self.draws += 1,
            None => {}
        }
    }

    /// The score of `side` over the games with a known result, in percent (a win 1, a
    /// draw half); `None` when no game has one.
    pub(crate) fn score_percent(&self, side: Color) -> Option<f64> {
        let decided = self.black_wins + self.draws + self.white_wins;
        if decided == 0 {
            return None;
        }
        let wins = match side {
            Color::Black => self.black_wins,
            Color::White => self.white_wins,
        };
        Some((f64::from(wins) + f64::from(self.draws) / 2.0) * 100.0 / f64::from(decided))
    }
}

/// How a game ended, as its record says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum GameResult {
    /// This side won.
    Win(Color),
    /// A draw.
    Draw,
}

/// The result of a record, as [`PdnGame::recorded_result`] reads it (the same as a
/// review of the game shows).
fn game_result(game: &PdnGame) -> Option<GameResult> {
    match game.recorded_result()? {
        "1-0" => Some(GameResult::Win(Color::Black)),
        "0-1" => Some(GameResult::Win(Color::White)),
        "1/2-1/2" => Some(GameResult::Draw),
        _ => None,
    }
}

/// The moves played from each position of a collection of games.
#[derive(Debug, Default)]
pub(crate) struct Explorer {
    /// For each position, each move played from it and the games that played it.
    moves: HashMap<Position, Vec<(Move, Tally)>>,
    /// Games read and indexed.
    read: usize,
    /// Games skipped: their moves do not replay.
    skipped: usize,
    /// Games skipped as another kind of draughts (their `GameType`).
    other_kind: usize,
}

/// Why a game of a collection could not be read, as far as the explorer tells it.
pub(crate) trait Unread {
    /// Whether it is a game of another kind of draughts (its `GameType` says so), not
    /// a game whose moves do not replay.
    fn other_kind(&self) -> bool;
}

impl Unread for crate::pdn::GameError {
    /// Whether its fault is its `GameType`: another kind of draughts.
    fn other_kind(&self) -> bool {
        matches!(self.kind, crate::pdn::GameErrorKind::GameType { .. })
    }
}

impl Unread for String {
    /// A saved game that does not read says so in words: it is the player's own, of
    /// this program, so never another kind of draughts.
    fn other_kind(&self) -> bool {
        false
    }
}

impl Explorer {
    /// The index of `games` (a PDN reader's output): at most `limit` of them are read
    /// when a limit is given, faulty ones counted as skipped.
    pub(crate) fn of_games<E: Unread>(
        games: impl IntoIterator<Item = Result<PdnGame, E>>,
        limit: Option<usize>,
    ) -> Explorer {
        let mut explorer = Explorer::default();
        for game in games.into_iter().take(limit.unwrap_or(usize::MAX)) {
            match game {
                Ok(game) => explorer.add(&game),
                Err(e) if e.other_kind() => explorer.other_kind += 1,
                Err(_) => explorer.skipped += 1,
            }
        }
        explorer
    }

    /// The index of the games of a PDN text (see [`of_games`](Explorer::of_games)).
    pub(crate) fn of_text(text: &str, limit: Option<usize>) -> Explorer {
        Explorer::of_games(crate::pdn::games(text), limit)
    }

    /// Indexes one game: each move from the position before it. A game that plays the
    /// same move from the same position twice (a repetition) counts once.
    fn add(&mut self, game: &PdnGame) {
        self.read += 1;
        let result = game_result(game);
        let mut seen: Vec<(Position, Move)> = Vec::new();
        let mut pos = game.start;
        for m in &game.moves {
            if !seen.contains(&(pos, *m)) {
                seen.push((pos, *m));
                let entry = self.moves.entry(pos).or_default();
                match entry.iter_mut().find(|(played, _)| played == m) {
                    Some((_, tally)) => tally.add(result),
                    None => {
                        let mut tally = Tally::default();
                        tally.add(result);
                        entry.push((*m, tally));
                    }
                }
            }
            pos = pos.play_unchecked(m);
        }
    }

    /// The moves played from `pos`, most played first (ties in the order of their
    /// notation); empty when no game reaches it, or none moved on from it.
    pub(crate) fn moves_from(&self, pos: &Position) -> Vec<(Move, Tally)> {
        let mut moves = self.moves.get(pos).cloned().unwrap_or_default();
        moves.sort_by(|(a, ta), (b, tb)| {
            tb.games
                .cmp(&ta.games)
                .then_with(|| pos.notation(a).cmp(&pos.notation(b)))
        });
        moves
    }

    /// Games read and indexed.
    pub(crate) fn games_read(&self) -> usize {
        self.read
    }

    /// Games skipped because their moves do not replay.
    pub(crate) fn games_skipped(&self) -> usize {
        self.skipped
    }

    /// Games skipped because they are of another kind of draughts (their `GameType`).
    pub(crate) fn games_of_other_kinds(&self) -> usize {
        self.other_kind
    }
}

/// The text of the built-in collection, decompressed.
pub(crate) fn builtin_text() -> String {
    let bytes = zstd::stream::decode_all(TINSLEY_PDN_ZST)
        .expect("the built-in collection is valid zstd (made with the zstd tool)");
    crate::pdn::decode_owned(bytes)
}

/// The built-in collection's index: Marion Tinsley's tournament games, read the first
/// time it is asked for.
pub(crate) fn builtin() -> &'static Explorer {
    static BUILTIN: OnceLock<Explorer> = OnceLock::new();
    BUILTIN.get_or_init(|| Explorer::of_text(&builtin_text(), None))
}

/// The built-in collection's index of its first `limit` games (built anew each call;
/// [`builtin`] holds the whole one).
pub(crate) fn builtin_limited(limit: usize) -> Explorer {
    Explorer::of_text(&builtin_text(), Some(limit))
}

/// The index of the games of the PDN file at `path` (read once, streamed: a file of
/// 72,000 games is indexed in about half a second), at most `limit` of them when a limit
/// is given. A text that is no PDN at all (a `/etc/passwd`) is refused with why, as
/// `pdn check` refuses it, not counted as a game whose moves do not replay; a file with
/// no game in it is refused as [`NoGames`](crate::store::StoreError::NoGames).
pub(crate) fn of_file(
    path: &std::path::Path,
    limit: Option<usize>,
) -> Result<Explorer, crate::store::StoreError> {
    let mut games = crate::store::file_games(path)?;
    let first: Vec<_> = games.by_ref().take(2).collect();
    if let [Err(e)] = first.as_slice()
        && let crate::pdn::GameErrorKind::NotPdn { begins, .. } = &e.kind
    {
        return Err(crate::store::StoreError::NoPdnText(
            crate::store::shown_path(path),
            begins.clone(),
        ));
    }
    let explorer = Explorer::of_games(first.into_iter().chain(games), limit);
    if explorer.games_read() + explorer.games_skipped() + explorer.games_of_other_kinds() == 0
        && limit != Some(0)
    {
        return Err(crate::store::StoreError::NoGames(path.to_path_buf()));
    }
    Ok(explorer)
}

/// The index of the player's own games: every game saved in the games folder of the
/// data folder (see [`crate::store::saved_games`]), unfinished ones included (their
/// moves count, their result is unknown); a file that cannot be read counts as skipped.
/// At most `limit` games, the newest, when a limit is given.
pub(crate) fn mine(limit: Option<usize>) -> Result<Explorer, crate::store::StoreError> {
    let games = crate::store::saved_games()?;
    Ok(Explorer::of_games(
        games.into_iter().map(|saved| saved.record),
        limit,
    ))
}

#[cfg(test)]
mod tests;
