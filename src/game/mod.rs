//! A game: a start position and the moves played from it, with undo and redo, the
//! WCDF draw claims (answered by `rules::draw`), resignation, draw
//! offers and the result.
//!
//! Pure: no I/O. The terminal front end and the PDN module both build on it.
//!
//! ```
//! use checkers::game::Game;
//! let mut game = Game::new();
//! game.play_text("11-15").unwrap();
//! game.play_text("23-19").unwrap();
//! assert_eq!(game.movetext(), "1. 11-15 23-19");
//! game.undo();
//! assert_eq!(game.movetext(), "1. 11-15");
//! game.redo();
//! assert_eq!(game.moves().len(), 2);
//! ```

use crate::rules::{
    Color, DrawReason, IllegalMoveError, Move, MoveError, Outcome, Position, WinReason, draw,
};
use std::fmt;

pub(crate) mod tree;

/// A game of checkers from a start position.
///
/// The game ends by itself only when the side to move has no legal move. Resignation, an
/// accepted draw offer and a draw claim end it on request; repetition and the forty-move
/// rule are never applied automatically.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// `positions[0]` is the start; `positions[i]` the position after `moves[i - 1]`.
    positions: Vec<Position>,
    moves: Vec<Move>,
    /// Moves taken back, the most recently undone last.
    undone: Vec<Move>,
    /// An ending decided by the players rather than the board.
    declared: Option<Outcome>,
    /// A declared ending taken back, and how many moves had been played when it was
    /// made: redo puts it back once the game is there again.
    undone_ending: Option<(Outcome, usize)>,
    /// The side whose draw offer awaits an answer.
    draw_offer: Option<Color>,
}

/// The full-move number of the move (ply) at index `ply` of a game from `start`, as the
/// move list numbers it (1 for each side's first), and the side that made it. When White
/// moves first from a set-up position, White's first move is move 1 (`1. ... 7-3`).
///
/// ```
/// use checkers::game::move_number;
/// use checkers::rules::{Color, Position};
/// assert_eq!(move_number(&Position::start(), 3), (2, Color::White));
/// let white_first: Position = "W:W18:B11".parse().unwrap();
/// assert_eq!(move_number(&white_first, 1), (2, Color::Black));
/// ```
pub fn move_number(start: &Position, ply: usize) -> (usize, Color) {
    let n = ply + usize::from(start.turn() == Color::White);
    let color = if n.is_multiple_of(2) {
        Color::Black
    } else {
        Color::White
    };
    (n / 2 + 1, color)
}

/// How many numbered moves `plies` moves from `start` make: the move list's last number.
pub fn full_moves(start: &Position, plies: usize) -> usize {
    plies
        .checked_sub(1)
        .map_or(0, |last| move_number(start, last).0)
}

/// [`Game::place`] for a game from `start` whose move to the position shown is `made`
/// (in notation), where it is known: a move beyond what is known is named by its number
/// and side alone.
pub(crate) fn place_words(
    start: &Position,
    shown: usize,
    total: usize,
    made: Option<&str>,
) -> String {
    let total = full_moves(start, total.max(shown));
    let Some(ply) = shown.checked_sub(1) else {
        return match total {
            0 => "the start, before any move".to_string(),
            1 => "the start, before 1 move".to_string(),
            _ => format!("the start, before {total} moves"),
        };
    };
    let (number, color) = move_number(start, ply);
    let made = made.map(|m| format!(" {m}")).unwrap_or_default();
    format!("move {number} ({color}'s{made}) of {total}")
}

/// [`place_words`] as the start of a sentence, as [`Game::shown_text`] says it.
pub(crate) fn shown_words(
    start: &Position,
    shown: usize,
    total: usize,
    made: Option<&str>,
) -> String {
    let place = place_words(start, shown, total, made);
    if shown > 0 {
        return format!("After {place}");
    }
    let mut chars = place.chars();
    chars
        .next()
        .map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// One numbered line of the move list: `2. 8-11 22-17`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MovePair {
    /// The move number, from 1.
    pub number: usize,
    /// Black's move; `None` when White moved first from a set-up position (`1. ... 7-3`).
    pub black: Option<String>,
    /// White's move; `None` when White has not replied yet.
    pub white: Option<String>,
}

impl fmt::Display for MovePair {
    /// `2. 8-11 22-17`, `1. ... 7-3`, `3. 9-14`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}. {}",
            self.number,
            self.black.as_deref().unwrap_or("...")
        )?;
        if let Some(white) = &self.white {
            write!(f, " {white}")?;
        }
        Ok(())
    }
}

/// Why a request to end the game (resign, claim, agree a draw) or to offer a draw was
/// refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeclareError {
    /// The game is already over.
    Over(Outcome),
    /// A draw claim was made with no claim available.
    NoClaim,
    /// A draw was accepted or declined with no offer pending.
    NoOffer,
}

impl fmt::Display for DeclareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DeclareError::Over(outcome) => write!(f, "the game is over ({outcome})"),
            DeclareError::NoClaim => write!(
                f,
                "no draw can be claimed: no move repeats a position a third time, and the forty-move rule does not apply yet"
            ),
            DeclareError::NoOffer => write!(f, "no draw offer is waiting for an answer"),
        }
    }
}

impl std::error::Error for DeclareError {}

/// Why a move could not be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The game is over.
    Over(Outcome),
    /// The text does not name exactly one legal move.
    Move(MoveError),
    /// The move is not legal here.
    Illegal(IllegalMoveError),
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Over(outcome) => write!(f, "the game is over ({outcome})"),
            PlayError::Move(e) => e.fmt(f),
            PlayError::Illegal(e) => e.fmt(f),
        }
    }
}

/// Its message is the inner error's, so it has no source of its own.
impl std::error::Error for PlayError {}

impl From<MoveError> for PlayError {
    fn from(e: MoveError) -> PlayError {
        PlayError::Move(e)
    }
}

impl From<IllegalMoveError> for PlayError {
    fn from(e: IllegalMoveError) -> PlayError {
        PlayError::Illegal(e)
    }
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// A new game from the standard start position.
    pub fn new() -> Game {
        Game::from_position(Position::start())
    }

    /// A new game from any position (a set-up position, or one read from a record).
    pub fn from_position(start: Position) -> Game {
        Game {
            positions: vec![start],
            moves: Vec::new(),
            undone: Vec::new(),
            declared: None,
            undone_ending: None,
            draw_offer: None,
        }
    }

    /// The position the game started from.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }

    /// The current position.
    pub fn position(&self) -> &Position {
        // Never empty: `positions` always holds the start.
        &self.positions[self.positions.len() - 1]
    }

    /// The moves played so far, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Every position so far: the start, then the one after each move.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }

    /// Where the game stood after its first `shown` moves (plies), of `total`, in the
    /// move list's numbers and naming the half: "move 12 (White's 27-24) of 13" (after it),
    /// "move 13 (Black's 9-14) of 13", or "the start, before 13 moves". `total`
    /// counts the game's moves from its start, those not played here (a record under
    /// review, a game browsed) included. [`shown_text`](Self::shown_text) is the same
    /// as a sentence.
    ///
    /// ```
    /// use checkers::game::Game;
    /// let mut game = Game::new();
    /// for m in ["11-15", "23-19", "8-11"] {
    ///     game.play_text(m).unwrap();
    /// }
    /// assert_eq!(game.place(3, 3), "move 2 (Black's 8-11) of 2");
    /// assert_eq!(game.place(2, 3), "move 1 (White's 23-19) of 2");
    /// assert_eq!(game.shown_text(0, 3), "The start, before 2 moves");
    /// assert_eq!(game.place(0, 3), "the start, before 2 moves");
    /// assert_eq!(game.shown_text(2, 3), "After move 1 (White's 23-19) of 2");
    /// ```
    pub fn place(&self, shown: usize, total: usize) -> String {
        place_words(self.start(), shown, total, self.made(shown).as_deref())
    }

    /// [`place`](Self::place) as the start of a sentence: "After move 12 (White's 27-24)
    /// of 13", "The start, before 13 moves".
    pub fn shown_text(&self, shown: usize, total: usize) -> String {
        shown_words(self.start(), shown, total, self.made(shown).as_deref())
    }

    /// The move that leads to the position after `shown` moves, where this game holds
    /// it, with every landing square (`24x15x6`) as the move list shows it.
    pub(crate) fn made(&self, shown: usize) -> Option<String> {
        let ply = shown.checked_sub(1)?;
        Some(self.moves.get(ply)?.to_string())
    }

    /// The result, if the game is over: a declared ending (resignation, agreed or claimed
    /// draw), or the side to move having no legal move.
    pub fn result(&self) -> Option<Outcome> {
        self.declared.or_else(|| self.position().outcome())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        self.result().is_some()
    }

    /// Plays `m` if it is legal here and the game is not over. Clears the redo list
    /// (unless `m` is the next move in it) and any pending draw offer.
    pub fn play(&mut self, m: &Move) -> Result<(), PlayError> {
        if let Some(outcome) = self.result() {
            return Err(PlayError::Over(outcome));
        }
        let next = self.position().play(m).map_err(PlayError::Illegal)?;
        self.push(*m, next);
        Ok(())
    }

    /// Plays the move `text` names (`11-15`, `15x22x29`, `c3xe5`), see
    /// [`Position::parse_move`]; returns the move played.
    pub fn play_text(&mut self, text: &str) -> Result<Move, PlayError> {
        if let Some(outcome) = self.result() {
            return Err(PlayError::Over(outcome));
        }
        let m = self.position().parse_move(text).map_err(PlayError::Move)?;
        let next = self.position().play_unchecked(&m);
        self.push(m, next);
        Ok(m)
    }

    fn push(&mut self, m: Move, next: Position) {
        // Replaying the move that was undone keeps the rest of the redo line.
        if self.undone.last() == Some(&m) && self.ending_to_redo().is_none() {
            self.undone.pop();
        } else {
            self.undone.clear();
            self.undone_ending = None;
        }
        self.moves.push(m);
        self.positions.push(next);
        self.draw_offer = None;
    }

    /// Takes back the last step: a declared ending (resignation, agreed or claimed draw)
    /// first, otherwise the last move. Returns whether anything was taken back.
    pub fn undo(&mut self) -> bool {
        self.draw_offer = None;
        if let Some(outcome) = self.declared.take() {
            self.undone_ending = Some((outcome, self.moves.len()));
            return true;
        }
        match self.moves.pop() {
            Some(m) => {
                self.positions.pop();
                self.undone.push(m);
                true
            }
            None => false,
        }
    }

    /// Plays again the last move taken back, or puts back the declared ending taken
    /// back last. Returns whether there was one. Does nothing once the game has a
    /// declared ending.
    pub fn redo(&mut self) -> bool {
        if self.declared.is_some() {
            return false;
        }
        if let Some(outcome) = self.ending_to_redo() {
            self.undone_ending = None;
            self.declare(outcome);
            return true;
        }
        match self.undone.pop() {
            Some(m) => {
                let next = self.position().play_unchecked(&m);
                self.moves.push(m);
                self.positions.push(next);
                self.draw_offer = None;
                true
            }
            None => false,
        }
    }

    /// The move [`redo`](Self::redo) would play (`None` when it puts back an ending,
    /// see [`ending_to_redo`](Self::ending_to_redo)).
    pub fn redo_preview(&self) -> Option<Move> {
        if self.declared.is_some() || self.ending_to_redo().is_some() {
            None
        } else {
            self.undone.last().copied()
        }
    }

    /// The declared ending (resignation, agreed or claimed draw) that
    /// [`redo`](Self::redo) would put back: it was taken back in this very position.
    pub fn ending_to_redo(&self) -> Option<Outcome> {
        self.undone_ending
            .filter(|(_, plies)| self.declared.is_none() && *plies == self.moves.len())
            .map(|(outcome, _)| outcome)
    }

    /// Whether a move or an ending has been taken back and can be replayed.
    pub fn can_redo(&self) -> bool {
        self.declared.is_none() && (!self.undone.is_empty() || self.ending_to_redo().is_some())
    }

    /// The moves taken back, in the order [`redo`](Self::redo) would replay them.
    pub fn undone_moves(&self) -> Vec<Move> {
        self.undone.iter().rev().copied().collect()
    }

    /// The game's line for the draw rules: the earlier positions, oldest first, and the
    /// current one.
    fn line(&self) -> (&[Position], &Position) {
        // Never empty: `positions` always holds the start.
        let last = self.positions.len() - 1;
        (&self.positions[..last], &self.positions[last])
    }

    /// How many times `pos` (same pieces, same side to move) has occurred in this game so
    /// far, the current position included.
    pub fn occurrences(&self, pos: &Position) -> usize {
        let (history, current) = self.line();
        draw::occurrences(history, current, pos)
    }

    /// How many times the current position has occurred, this time included.
    pub fn repetition_count(&self) -> usize {
        self.occurrences(self.position())
    }

    /// The legal moves that would create a position for the third time (WCDF 1.32):
    /// playing any of them lets the player to move claim a draw. See
    /// `draw::repeating_moves`.
    pub fn repeating_moves(&self) -> Vec<Move> {
        let (history, current) = self.line();
        draw::repeating_moves(history, current)
    }

    /// Whether the player to move may claim a draw by repetition: their next move can
    /// create the same position (same pieces, same side to move) for the third time.
    pub fn can_claim_repetition(&self) -> bool {
        let (history, current) = self.line();
        !self.is_over() && draw::can_claim_repetition(history, current)
    }

    /// Consecutive plies, up to now, in which no man moved and nothing was captured.
    /// Moves before the start position are unknown and not counted.
    pub fn quiet_plies(&self) -> usize {
        let (history, current) = self.line();
        draw::quiet_plies(history, current)
    }

    /// Whether the player to move may claim a draw by the forty-move rule (WCDF 1.32): in
    /// each side's previous 40 moves no man has moved and no piece has been captured.
    pub fn can_claim_forty_moves(&self) -> bool {
        let (history, current) = self.line();
        !self.is_over() && draw::can_claim_forty_moves(history, current)
    }

    /// The draw the player to move may claim now, if any (repetition checked first), see
    /// `draw::available_claim`. `None` once the game is over.
    pub fn available_claim(&self) -> Option<DrawReason> {
        if self.is_over() {
            return None;
        }
        let (history, current) = self.line();
        draw::available_claim(history, current)
    }

    /// Claims the available draw for the player to move and ends the game. The game ends
    /// in the current position: the repeating move does not have to be played first.
    pub fn claim_draw(&mut self) -> Result<Outcome, DeclareError> {
        if let Some(outcome) = self.result() {
            return Err(DeclareError::Over(outcome));
        }
        let reason = self.available_claim().ok_or(DeclareError::NoClaim)?;
        Ok(self.declare(Outcome::Draw { reason }))
    }

    /// `color` resigns; the other side wins.
    pub fn resign(&mut self, color: Color) -> Result<Outcome, DeclareError> {
        if let Some(outcome) = self.result() {
            return Err(DeclareError::Over(outcome));
        }
        Ok(self.declare(Outcome::Win {
            winner: !color,
            reason: WinReason::Resignation,
        }))
    }

    /// `color`'s time ran out on the clock; the other side wins.
    pub fn lose_on_time(&mut self, color: Color) -> Result<Outcome, DeclareError> {
        if let Some(outcome) = self.result() {
            return Err(DeclareError::Over(outcome));
        }
        Ok(self.declare(Outcome::Win {
            winner: !color,
            reason: WinReason::Time,
        }))
    }

    /// Ends the game as a record scores it, with no word of how it came (a bare `1-0`,
    /// `0-1` or `1/2-1/2`): won by `winner`, or drawn when `None`. Saved again, it gains
    /// no `Termination` it never had.
    pub fn end_as_recorded(&mut self, winner: Option<Color>) -> Result<Outcome, DeclareError> {
        if let Some(outcome) = self.result() {
            return Err(DeclareError::Over(outcome));
        }
        Ok(self.declare(match winner {
            Some(winner) => Outcome::Win {
                winner,
                reason: WinReason::AsRecorded,
            },
            None => Outcome::Draw {
                reason: DrawReason::AsRecorded,
            },
        }))
    }

    /// `color` offers a draw; the other side may accept or decline.
    pub fn offer_draw(&mut self, color: Color) -> Result<(), DeclareError> {
        if let Some(outcome) = self.result() {
            return Err(DeclareError::Over(outcome));
        }
        self.draw_offer = Some(color);
        Ok(())
    }

    /// The side whose draw offer is waiting for an answer.
    pub fn draw_offer(&self) -> Option<Color> {
        self.draw_offer
    }

    /// Accepts the pending draw offer: the game is drawn by agreement.
    pub fn accept_draw(&mut self) -> Result<Outcome, DeclareError> {
        if let Some(outcome) = self.result() {
            return Err(DeclareError::Over(outcome));
        }
        if self.draw_offer.is_none() {
            return Err(DeclareError::NoOffer);
        }
        Ok(self.declare(Outcome::Draw {
            reason: DrawReason::Agreement,
        }))
    }

    /// Declines the pending draw offer; play goes on.
    pub fn decline_draw(&mut self) -> Result<(), DeclareError> {
        self.draw_offer
            .take()
            .map(|_| ())
            .ok_or(DeclareError::NoOffer)
    }

    fn declare(&mut self, outcome: Outcome) -> Outcome {
        self.declared = Some(outcome);
        self.undone_ending = None;
        self.draw_offer = None;
        outcome
    }

    /// The moves in record notation (short form unless ambiguous), paired by move number.
    pub fn move_pairs(&self) -> Vec<MovePair> {
        self.pairs(Position::notation)
    }

    /// The moves with every landing square of a capture (`24x15x6`, not the record's
    /// short `24x6`), paired by move number: the move list a player follows.
    pub fn route_pairs(&self) -> Vec<MovePair> {
        self.pairs(|_, m| m.to_string())
    }

    fn pairs(&self, write: impl Fn(&Position, &Move) -> String) -> Vec<MovePair> {
        let mut pairs: Vec<MovePair> = Vec::new();
        for (m, before) in self.moves.iter().zip(&self.positions) {
            let text = write(before, m);
            match before.turn() {
                Color::Black => pairs.push(MovePair {
                    number: pairs.len() + 1,
                    black: Some(text),
                    white: None,
                }),
                Color::White => match pairs.last_mut() {
                    Some(pair) if pair.white.is_none() => pair.white = Some(text),
                    _ => pairs.push(MovePair {
                        number: pairs.len() + 1,
                        black: None,
                        white: Some(text),
                    }),
                },
            }
        }
        pairs
    }

    /// The movetext: `1. 11-15 23-19 2. 8-11`, or `1. ... 7-3` when White moved first.
    pub fn movetext(&self) -> String {
        self.move_pairs()
            .iter()
            .map(MovePair::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests;
