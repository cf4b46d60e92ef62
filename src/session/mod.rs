//! A game in play, the one place both front ends call: the [`Game`], who plays each
//! side (a person, or the computer at a level), the players' names, a record under
//! review, the computer's turns and its answers to draw offers, undo and redo against
//! the computer, resignation, claims, and the record that saves and the autosave write.
//!
//! Pure like [`game`](crate::game): no terminal and no files. The full-screen game and
//! the plain line mode only turn input into calls here and answers into text, so a
//! behaviour exists once and cannot drift between them.
//!
//! Here are the `Session`'s state and its requests (play, undo, draws, seats, levels);
//! clocks, records, matches, review, the mirror of a game across the network and the
//! opening names are modules of their own.

pub(crate) mod ballot;
mod clock;
pub(crate) mod computer;
mod databases;
mod error;
mod library;
mod matches;
mod mirror;
mod news;
mod opening_names;
mod players;
mod records;
mod review;
mod timing;
use timing::Timing;
mod turns;
mod words;

pub(crate) use ballot::{
    BALLOT_TAG, BallotChoice, BallotError, ballot, ballot_text, random_ballot,
};
pub(crate) use clock::{Clock, TimeControl, clock_text, single_forced_jump};
pub(crate) use databases::database_swing;
pub(crate) use error::SessionError;
pub(crate) use library::{GameSummary, RecordFile};
pub(crate) use matches::{Match, MatchBallots};
pub(crate) use mirror::Followed;
pub(crate) use news::{ComputerTurn, HintBasis, MoveFrom, News, Searched, take_back_words};
pub(crate) use opening_names::{OPENING_TAG, game_opening_name, opening_name};
pub(crate) use players::{
    HOST_SITE, Player, PlayerKind, REMOTE_TYPE, Seats, computer_name, is_program_name,
    record_names, seat_tags, seats_from_tags,
};
pub(crate) use review::{Review, Reviewed, Step};
pub(crate) use words::{score_in_men, score_with_size};

use crate::engine::egdb::Egdb;
use crate::engine::{Level, Opening, SearchRequest, SearchResult};
use crate::game::{DeclareError, Game};
use crate::pdn::PdnGame;
use crate::pdn::{Players, game_from_record, game_record};
use crate::rules::{Color, Move, Position};
use computer::{DrawAnswer, Turn};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Tags of a loaded record that its saves keep: where and when the game was played.
const KEPT_TAGS: [&str; 4] = ["Event", "Site", "Date", "Round"];

/// A game in play. See the [module documentation](self).
#[derive(Clone, Debug)]
pub(crate) struct Session {
    game: Game,
    seats: Seats,
    /// How the computer plays.
    computer: computer::Computer,
    names: Players,
    review: Option<Review>,
    /// Where the game's record comes from.
    origin: records::Origin,
    /// Counts changes to the game: a search is made for one revision, and its result
    /// is refused once the game has moved on.
    revision: u64,
    /// Counts new games started in this session (see [`game_number`](Self::game_number)).
    game_number: u64,
    /// The ballot the game started from: its three moves are not taken back.
    ballot: Option<Opening>,
    /// The players' clocks, in a timed game.
    timing: Option<Timing>,
    /// The clocks of a resumed record, until [`with_recorded_clock`](Self::with_recorded_clock)
    /// starts them.
    recorded_clock: Option<Clock>,
    /// Whether the clocks wait, paused, for the player of a game resumed at one
    /// terminal to be back (see [`with_clocks_held`](Self::with_clocks_held)).
    clocks_held: bool,
    /// The match the game belongs to, if it is a match game.
    match_play: Option<Match>,
    /// Whether the engine helps the players: hints, its score and the databases'
    /// verdict on screen, the review's search.
    assist: bool,
}

impl Session {
    /// `game` between two people.
    pub(crate) fn new(game: Game) -> Session {
        Session {
            game,
            seats: Seats::PEOPLE,
            computer: computer::Computer::default(),
            names: Players::default(),
            review: None,
            origin: records::Origin::default(),
            revision: 0,
            game_number: 0,
            ballot: None,
            timing: None,
            recorded_clock: None,
            clocks_held: false,
            match_play: None,
            assist: true,
        }
    }

    /// With `seats` as who plays each side.
    pub(crate) fn with_seats(mut self, seats: Seats) -> Session {
        self.seats = seats;
        if let Some(level) = Color::ALL.into_iter().find_map(|c| seats.computer(c)) {
            self.computer.level = level;
        }
        self
    }

    /// With `level` for every computer player, and for a side handed over later.
    pub(crate) fn with_level(mut self, level: Level) -> Session {
        self.computer.level = level;
        for color in Color::ALL {
            if self.seats.is_computer(color) {
                self.seats.set(color, Player::Computer(level));
            }
        }
        self
    }

    /// With the players' names (each name given replaces the one known).
    pub(crate) fn with_names(mut self, names: Players) -> Session {
        self.names.black = names.black.or(self.names.black.take());
        self.names.white = names.white.or(self.names.white.take());
        self
    }

    /// With `seed` varying the computer players' randomness.
    pub(crate) fn with_seed(mut self, seed: u64) -> Session {
        self.computer.seed = seed;
        self
    }

    /// With the computer's time per move fixed at `movetime` instead of its level's.
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn with_movetime(mut self, movetime: Duration) -> Session {
        self.computer.movetime = Some(movetime);
        self
    }

    /// With a game between two computers adjudicated a draw after `plies` plies
    /// (default [`computer::PLY_CAP`]).
    #[cfg(any(test, feature = "lab"))]
    pub(crate) fn with_ply_cap(mut self, plies: usize) -> Session {
        self.computer.ply_cap = plies;
        self
    }

    /// With the engine's help to the players on (`true`, the default) or off: off, there
    /// are no hints, no databases' verdict for players to see, and no search of a
    /// position under review; the record says which (an `Assist` tag).
    pub(crate) fn with_assist(mut self, assist: bool) -> Session {
        self.assist = assist;
        self
    }

    /// Whether the engine helps the players (see [`with_assist`](Self::with_assist)).
    pub(crate) fn assist(&self) -> bool {
        self.assist
    }

    /// Refuses a request for the engine's help while assistance is off.
    pub(crate) fn assistance(&self) -> Result<(), SessionError> {
        if self.assist {
            Ok(())
        } else {
            Err(SessionError::NoAssistance)
        }
    }

    /// The endgame databases the session's searches (the computer, the game report, the
    /// analysis board) use, if any.
    pub(crate) fn egdb(&self) -> Option<Arc<Egdb>> {
        self.computer.egdb.clone()
    }

    /// With endgame databases: the computer plays the positions they hold perfectly,
    /// hints and [`database_verdict`](Self::database_verdict) give their exact result.
    pub(crate) fn with_egdb(mut self, egdb: Option<Arc<Egdb>>) -> Session {
        self.computer.egdb = egdb;
        self
    }

    /// With the computer's searches (moves, hints, reviews) on `threads` threads at
    /// once (at least 1; one is deterministic).
    pub(crate) fn with_threads(mut self, threads: usize) -> Session {
        self.computer.threads = threads.max(1);
        self
    }

    /// The game.
    pub(crate) fn game(&self) -> &Game {
        &self.game
    }

    /// The position on the board.
    pub(crate) fn position(&self) -> &Position {
        self.game.position()
    }

    /// Who plays each side.
    pub(crate) fn seats(&self) -> Seats {
        self.seats
    }

    /// The level of a side handed to the computer.
    pub(crate) fn level(&self) -> Level {
        self.computer.level
    }

    /// The players' names as given (a computer's may be missing, see
    /// [`record_names`](Self::record_names)).
    pub(crate) fn names(&self) -> &Players {
        &self.names
    }

    /// Sets the players' names (a save dialog's). The dialog shows a computer with no
    /// name as "checkers (level N)": that stays the computer's seat, not a name.
    pub(crate) fn set_names(&mut self, names: Players) {
        self.names = players::without_program_names(names, self.seats);
    }

    /// The names a record gets: a computer player with no name is "checkers (level N)".
    pub(crate) fn record_names(&self) -> Players {
        record_names(&self.names, self.seats)
    }

    /// The record under review, while a loaded game is stepped through.
    pub(crate) fn review(&self) -> Option<&Review> {
        self.review.as_ref()
    }

    /// Whether a loaded game is being stepped through.
    pub(crate) fn is_reviewing(&self) -> bool {
        self.review.is_some()
    }

    /// Counts changes to the game (see [`computer_to_move`](Self::computer_to_move)).
    pub(crate) fn revision(&self) -> u64 {
        self.revision
    }

    /// Which game of the session this is: 0 for the first, one more for each
    /// [`new_game`](Self::new_game). The autosave gives each game a file of its own.
    pub(crate) fn game_number(&self) -> u64 {
        self.game_number
    }

    /// Runs `change` and counts a revision if the game changed.
    fn track<R>(&mut self, change: impl FnOnce(&mut Session) -> R) -> R {
        let before = self.game.clone();
        let result = change(self);
        if self.game != before {
            self.revision += 1;
            self.origin.untouched = false;
            self.clock_follows(before.moves().len());
            if self.game.moves().len() > before.moves().len() {
                self.play_goes_on();
            }
        }
        result
    }

    /// The side to move and the computer's level, when the computer is to move: the
    /// game is not over and no record is being stepped through (stepping is not
    /// playing).
    pub(crate) fn computer_to_move(&self) -> Option<(Color, Level)> {
        if self.game.is_over() || self.review.is_some() {
            return None;
        }
        let turn = self.position().turn();
        // A level chosen since the game was over is the one its next move is made at.
        let pending = |level| {
            if self.computer.level_pending {
                self.computer.level
            } else {
                level
            }
        };
        self.seats
            .computer(turn)
            .map(|level| (turn, pending(level)))
    }

    /// Refuses a person's move or claim while the computer is to move.
    fn persons_turn(&self) -> Result<(), SessionError> {
        match self.computer_to_move() {
            Some((color, level)) => Err(SessionError::ComputersTurn { color, level }),
            None => Ok(()),
        }
    }

    /// Refuses a person's request made for `color` (resigning, answering a draw offer)
    /// when the computer plays it: a person acts only for a side a person plays.
    fn persons_side(&self, color: Color) -> Result<(), SessionError> {
        match self.seats.computer(color) {
            Some(level) => Err(SessionError::ComputersSide { color, level }),
            None => Ok(()),
        }
    }

    /// After a person's move from `before`: "Black played 11-15", and the end of a
    /// review when the move was played from one; `note` on how the move was typed.
    fn played(&mut self, before: &Position, m: &Move, note: Option<String>) -> News {
        let review_over = self.review.take().is_some();
        self.play_goes_on();
        News::Played {
            color: before.turn(),
            m: *m,
            crowned: crowns(before, m),
            review_over,
            note,
        }
    }

    /// A person plays `m`. Refused while the computer is to move, or if illegal.
    pub(crate) fn play(&mut self, m: &Move) -> Result<News, SessionError> {
        self.persons_turn()?;
        let before = *self.position();
        self.track(|s| s.game.play(m))?;
        Ok(self.played(&before, m, None))
    }

    /// A person plays the move `text` names (`11-15`, `15x22x29`, `c3xe5`).
    pub(crate) fn play_text(&mut self, text: &str) -> Result<News, SessionError> {
        self.persons_turn()?;
        let before = *self.position();
        let m = self.track(|s| s.game.play_text(text))?;
        // `9x14` for a step, `9-18` for a capture: played, and the player told.
        let note = before.typed_note(text, &m);
        Ok(self.played(&before, &m, note))
    }

    /// Takes back the last step: a declared ending (resignation, draw) first, else the
    /// last move. Against the computer the computer's reply goes with the person's
    /// move, so it is the person's turn again.
    pub(crate) fn undo(&mut self) -> Result<News, SessionError> {
        if self.undo_needs_consent() {
            return Err(SessionError::UndoNeedsConsent);
        }
        self.undo_agreed()
    }

    /// The moves a take-back `asker` asked for across the network takes back, agreed,
    /// in the order played: back to before the asker's last move (theirs and the reply
    /// to it), or to the start (a ballot's moves stay). None when it takes back a
    /// declared ending instead.
    pub(crate) fn asked_take_back(&self, asker: Color) -> Vec<MoveFrom> {
        if self.game.result().is_some() && self.position().outcome().is_none() {
            return Vec::new();
        }
        let fixed = self.ballot.as_ref().map_or(0, |o| o.line.len());
        let positions = self.game.positions();
        let mut taken = Vec::new();
        for (i, m) in self.game.moves().iter().enumerate().skip(fixed).rev() {
            let from = positions[i];
            taken.push(MoveFrom { from, m: *m });
            if from.turn() == asker {
                break;
            }
        }
        taken.reverse();
        taken
    }

    /// Whether [`undo`](Self::undo) needs both players' consent: two people play on
    /// the clock and there is a move to take back, or two people agreed a draw (one of
    /// them alone does not cancel it). The front end asks the other player, then calls
    /// [`undo_agreed`](Self::undo_agreed).
    pub(crate) fn undo_needs_consent(&self) -> bool {
        // Across the network the other terminal is asked by the runtime instead.
        if !self.seats.people() || self.seats.remote_side().is_some() || self.review.is_some() {
            return false;
        }
        let on_the_clock = self.timing.is_some()
            && !self.game.moves().is_empty()
            && (self.match_play.is_none() || !self.game.is_over());
        on_the_clock || (self.agreed_draw() && self.match_play.is_none())
    }

    /// Whether the game was lost on time. That ending stands: the time is gone, and
    /// taking it back would only let the flag fall again; so neither undo nor redo
    /// works after it.
    pub(crate) fn flag_fell(&self) -> bool {
        matches!(
            self.game.result(),
            Some(crate::rules::Outcome::Win {
                reason: crate::rules::WinReason::Time,
                ..
            })
        )
    }

    /// Whether the game ended in a draw the players agreed.
    pub(crate) fn agreed_draw(&self) -> bool {
        self.game.result()
            == Some(crate::rules::Outcome::Draw {
                reason: crate::rules::DrawReason::Agreement,
            })
    }

    /// [`undo`](Self::undo) with both players' consent given: the clocks go back with
    /// the move.
    pub(crate) fn undo_agreed(&mut self) -> Result<News, SessionError> {
        if self.match_play.is_some() && self.game.is_over() {
            return Err(SessionError::MatchGameCounts);
        }
        if let Some(outcome) = self.game.result().filter(|_| self.flag_fell()) {
            return Err(DeclareError::Over(outcome).into());
        }
        let declared = self.game.result().is_some() && self.position().outcome().is_none();
        if declared {
            self.track(|s| s.game.undo());
            return Ok(News::TookBackEnding);
        }
        if self.only_the_computer_moved() {
            return Err(SessionError::NoMoveOfYours);
        }
        let moves = self
            .whole_turn(Session::take_back)
            .ok_or(SessionError::NothingToUndo)?;
        // Taken back newest first; told in the order they were played.
        Ok(News::TookBack(moves.into_iter().rev().collect()))
    }

    /// Steps once with `step` (a move taken back or replayed), and once more against
    /// the computer when that leaves the computer to move, so a person's move and the
    /// computer's reply go together. Returns the moves in the order stepped over.
    fn whole_turn(&mut self, step: fn(&mut Session) -> Option<MoveFrom>) -> Option<Vec<MoveFrom>> {
        let mut moves = vec![step(self)?];
        if self.review.is_none()
            && self.seats.against_computer()
            && self.seats.is_computer(self.position().turn())
        {
            moves.extend(step(self));
        }
        Some(moves)
    }

    /// Whether, against the computer, the one move played (after a ballot's fixed
    /// moves) is the computer's: taken back, it would only be played again at once.
    fn only_the_computer_moved(&self) -> bool {
        let fixed = self.ballot.as_ref().map_or(0, |o| o.line.len());
        self.review.is_none()
            && self.seats.against_computer()
            && self.game.moves().len() == fixed + 1
            && self.seats.is_computer(!self.position().turn())
    }

    /// Takes back one move, with the position it was played from.
    fn take_back(&mut self) -> Option<MoveFrom> {
        let fixed = self.ballot.as_ref().map_or(0, |o| o.line.len());
        if self.game.moves().len() <= fixed {
            return None;
        }
        let m = *self.game.moves().last()?;
        self.track(|s| s.game.undo());
        Some(MoveFrom {
            from: *self.position(),
            m,
        })
    }

    /// Plays again the last move taken back; against the computer also its reply, as
    /// undo took them back together. An ending taken back (resignation, draw) is put
    /// back first.
    pub(crate) fn redo(&mut self) -> Result<News, SessionError> {
        if self.game.ending_to_redo().is_some() {
            self.track(|s| s.game.redo());
            return Ok(News::ReplayedEnding);
        }
        let moves = self
            .whole_turn(Session::replay)
            .ok_or(SessionError::NothingToRedo)?;
        Ok(News::Replayed(moves))
    }

    /// Replays one move taken back, with the position it is played from.
    fn replay(&mut self) -> Option<MoveFrom> {
        let m = self.game.redo_preview()?;
        let from = *self.position();
        self.track(|s| s.game.redo())
            .then_some(MoveFrom { from, m })
    }

    /// `color` resigns: "Black resigns". Ends a review. Refused for a side the computer
    /// plays (it resigns by itself, on its turn).
    pub(crate) fn resign(&mut self, color: Color) -> Result<News, SessionError> {
        self.persons_side(color)?;
        self.track(|s| s.game.resign(color))?;
        self.review = None;
        Ok(News::Resigned(color))
    }

    /// The side a plain "resign" gives up for: the side of the one person at this
    /// terminal (against the computer, or across the network), else the side to move.
    pub(crate) fn resigning_side(&self) -> Color {
        self.seats
            .only_person_here()
            .unwrap_or_else(|| self.position().turn())
    }

    /// The side to move offers a draw. Against the computer it answers at once (see
    /// [`computer::answer_draw_offer`]); between people the offer waits for
    /// [`accept_draw`](Self::accept_draw) or [`decline_draw`](Self::decline_draw).
    pub(crate) fn offer_draw(&mut self) -> Result<News, SessionError> {
        self.persons_turn()?;
        let by = self.position().turn();
        if let Some(outcome) = self.game.result() {
            return Err(DeclareError::Over(outcome).into());
        }
        self.review = None;
        let Some(level) = self.seats.computer(!by) else {
            self.game.offer_draw(by)?;
            return Ok(News::DrawOffered(by));
        };
        let answer = computer::answer_draw_offer(&self.game, self.computer.egdb.as_deref());
        if answer == DrawAnswer::Accept {
            self.track(|s| {
                s.game.offer_draw(by)?;
                s.game.accept_draw()
            })?;
        }
        Ok(News::DrawAnswered {
            color: !by,
            level,
            answer,
        })
    }

    /// The pending draw offer is accepted: drawn by agreement. Refused when the
    /// computer plays the side that answers.
    pub(crate) fn accept_draw(&mut self) -> Result<News, SessionError> {
        let by = self.game.draw_offer();
        if let Some(by) = by {
            self.persons_side(!by)?;
        }
        self.track(|s| s.game.accept_draw())?;
        let by = by.unwrap_or_else(|| self.position().turn());
        Ok(News::DrawAccepted(!by))
    }

    /// The pending draw offer is declined; play goes on. Refused when the computer plays
    /// the side that answers.
    pub(crate) fn decline_draw(&mut self) -> Result<News, SessionError> {
        let by = self.game.draw_offer();
        if let Some(by) = by {
            self.persons_side(!by)?;
        }
        self.game.decline_draw()?;
        let by = by.unwrap_or_else(|| self.position().turn());
        Ok(News::DrawDeclined(!by))
    }

    /// The side to move claims the draw open to it (repetition or forty moves). Only
    /// the player to move may claim, so not a person for the computer.
    pub(crate) fn claim_draw(&mut self) -> Result<News, SessionError> {
        self.persons_turn()?;
        let turn = self.position().turn();
        self.track(|s| s.game.claim_draw())?;
        self.review = None;
        Ok(News::DrawClaimed(turn))
    }

    /// Seats `player` at `color` (a computer player's level becomes the one for sides
    /// handed over later).
    pub(crate) fn set_seat(&mut self, color: Color, player: Player) {
        self.seats.set(color, player);
        if let Player::Computer(level) = player {
            self.computer.level = level;
        }
    }

    /// The computer plays one level stronger (`stronger`) or weaker, on every side it
    /// plays and on a side handed to it later: "The computer plays at level 6 now".
    /// Once the game is over (or while a record is reviewed) the game's record keeps
    /// the level it was played at, and the new one is taken when play goes on.
    /// Refused at the end of the range.
    pub(crate) fn change_level(&mut self, stronger: bool) -> Result<News, SessionError> {
        let n = self.computer.level.number();
        let next = if stronger {
            n.checked_add(1)
        } else {
            n.checked_sub(1)
        };
        let level = next
            .and_then(Level::new)
            .ok_or(SessionError::LevelLimit(self.computer.level))?;
        self.computer.level = level;
        if self.game.is_over() || self.review.is_some() {
            self.computer.level_pending = true;
            return Ok(News::LevelWhenPlayGoesOn(level));
        }
        self.seat_level();
        Ok(News::LevelChanged(level))
    }

    /// A level chosen while the game was over or under review is taken once play goes
    /// on: a move is played, not under review (an ending taken back and put back again
    /// leaves the record as it was).
    pub(super) fn play_goes_on(&mut self) {
        if self.computer.level_pending && self.review.is_none() {
            self.seat_level();
        }
    }

    /// Every side the computer plays takes the session's level.
    fn seat_level(&mut self) {
        self.computer.level_pending = false;
        for color in Color::ALL {
            if self.seats.is_computer(color) {
                self.seats.set(color, Player::Computer(self.computer.level));
            }
        }
    }

    /// Hands `color` to the computer (at the session's level), or back to a person.
    pub(crate) fn toggle_seat(&mut self, color: Color) -> News {
        let player = match self.seats.of(color) {
            Player::Person => Player::Computer(self.computer.level),
            Player::Computer(_) => Player::Person,
            // Refused before it comes here (see the runtime); a remote seat stays.
            Player::Remote => Player::Remote,
        };
        self.seats.set(color, player);
        let adjudicated = (self.seats.both_computer()
            && self.track(|s| computer::adjudicate(&mut s.game, s.computer.ply_cap)))
        .then_some(self.computer.ply_cap);
        News::Seated {
            color,
            player,
            adjudicated,
        }
    }

    /// A new game from the start position (after the ballot's moves, if the game had
    /// one); who plays each side stays.
    pub(crate) fn new_game(&mut self) {
        let mut game = Game::new();
        for m in self.ballot.iter().flat_map(|o| &o.line) {
            let _ = game.play(m);
        }
        self.track(|s| s.game = game);
        if self.computer.level_pending {
            self.seat_level();
        }
        if let Some(timing) = self.timing.as_mut() {
            timing.restart(self.game.position());
        }
        self.game_number += 1;
        self.review = None;
        self.origin.new_game();
    }

    /// A new game with the sides changed over (a game across the network played
    /// again): who played Black plays White, names and all.
    pub(crate) fn rematch(&mut self) {
        self.change_sides();
        self.new_game();
    }

    /// Who played Black plays White and the other way round, names and all.
    fn change_sides(&mut self) {
        self.seats = Seats {
            black: self.seats.white,
            white: self.seats.black,
        };
        self.names = Players {
            black: self.names.white.take(),
            white: self.names.black.take(),
        };
    }

    /// A new game from `position` (a position set up in the editor), with no ballot; who
    /// plays each side stays.
    pub(crate) fn set_up(&mut self, position: Position) {
        self.ballot = None;
        self.track(|s| s.game = Game::from_position(position));
        if self.computer.level_pending {
            self.seat_level();
        }
        if let Some(timing) = self.timing.as_mut() {
            timing.restart(&position);
        }
        self.game_number += 1;
        self.review = None;
        self.origin.new_game();
    }

    /// `news` followed by the result when the game is over: "White played 22x8. White
    /// wins: Black has no pieces left."; a resignation by the result alone, which says
    /// who resigned ("White wins: Black resigned.", not "Black resigns. White wins: Black
    /// resigned."); a flag fall by its news, which has the result already ("White's time
    /// is up. Black wins: White lost on time.").
    pub(crate) fn announce(&self, news: &News) -> String {
        match self.game.result() {
            Some(outcome) if matches!(news, News::Resigned(_)) => format!("{outcome}."),
            Some(_) if matches!(news, News::FlagFell { .. }) => news.to_string(),
            Some(outcome) => format!("{news}. {outcome}."),
            None => news.to_string(),
        }
    }
}

#[cfg(test)]
mod tests;

/// Whether playing `m` in `before` crowns a man: it reaches the far row (which ends the
/// move, so a king standing there afterwards is the man crowned).
pub(crate) fn crowns(before: &Position, m: &Move) -> bool {
    let man = |p: Option<crate::rules::Piece>| p.is_some_and(|p| p.role == crate::rules::Role::Man);
    man(before.piece_at(m.from())) && !man(before.play_unchecked(m).piece_at(m.to()))
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_session() {
        use checkers::engine::{Engine, Level, StopFlag};
        use checkers::game::Game;
        use checkers::session::{Player, Seats, Session};
        let seats = Seats {
            black: Player::Person,
            white: Player::Computer(Level::MIN),
        };
        let mut session = Session::new(Game::new()).with_seats(seats);
        let played = session.play_text("11-15").unwrap();
        assert_eq!(played.to_string(), "Black played 11-15");
        // The computer's turn: the session says what to search, the engine searches (the
        // runtime does it on a thread of its own), and the session plays what it found.
        let request = session.move_request().unwrap();
        let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
        let reply = session.computer_played(&result);
        assert!(
            reply
                .unwrap()
                .to_string()
                .starts_with("White (level 1) played")
        );
        // Undo takes back the person's move and the computer's reply.
        assert!(
            session
                .undo()
                .unwrap()
                .to_string()
                .contains("White's reply")
        );
        assert!(session.game().moves().is_empty());
    }
}
