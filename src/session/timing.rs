//! The session's clocks and ballot. [`Timing`] owns the clocks of a timed game as read at
//! the time the front end last gave: started, ticked, paused, warned and kept in step
//! with the game's moves. The session's requests about time hand it the game.

use super::*;
use crate::engine::ClockLimits;

/// The players' clocks in a timed game, and the time the front end last gave
/// ([`Session::tick`]): moves are timed at it.
#[derive(Clone, Debug)]
pub(crate) struct Timing {
    clock: Clock,
    now: Instant,
    /// The revision at which the running side was last warned of its time, and how many
    /// of the clock's warnings it has had in that turn.
    warned: (u64, usize),
}

impl Timing {
    /// `clock` read at `now`, started for the side to move in `game` unless it is over.
    fn started(mut clock: Clock, game: &Game, now: Instant) -> Timing {
        if !game.is_over() {
            let pos = game.position();
            clock.start(pos.turn(), now, single_forced_jump(pos));
        }
        Timing {
            clock,
            now,
            warned: (0, 0),
        }
    }

    /// The clocks.
    pub(crate) fn clock(&self) -> &Clock {
        &self.clock
    }

    /// `color`'s time left at the last tick.
    fn time_left(&self, color: Color) -> Duration {
        self.clock.remaining(color, self.now)
    }

    /// The time is `now` (never earlier than the last): whose flag fell, if one did.
    fn tick(&mut self, now: Instant) -> Option<Color> {
        self.shown_at(now);
        self.clock.flagged(self.now)
    }

    /// The clocks shown at `now`, with no flag fall looked for.
    pub(super) fn shown_at(&mut self, now: Instant) {
        self.now = now.max(self.now);
    }

    /// A warning for the running side, once for each of the clock's warnings in the
    /// turn the game's `revision` names: the side, its time left, and whether that is
    /// the move timer's time for this move.
    fn warning(&mut self, revision: u64) -> Option<(Color, Duration, bool)> {
        let color = self.clock.running()?;
        let reached = self.clock.warnings_reached(self.now);
        let left = self.time_left(color);
        let already = if self.warned.0 == revision {
            self.warned.1
        } else {
            0
        };
        self.warned = (revision, reached.max(already));
        if reached <= already || left.is_zero() {
            return None;
        }
        Some((color, left, self.clock.control() == TimeControl::MoveTimer))
    }

    /// Whether `color`'s time is within the first of the clock's warnings while its
    /// clock runs, or within ten seconds.
    fn is_low(&self, color: Color) -> bool {
        let first = if self.clock.turn() == Some(color) {
            self.clock.warnings()[0]
        } else {
            clock::WARNING
        };
        self.time_left(color) <= first
    }

    /// Pauses both clocks (`true`) or starts them again.
    fn set_paused(&mut self, paused: bool) {
        if paused {
            self.clock.pause(self.now);
        } else {
            self.clock.resume(self.now);
        }
    }

    /// Pauses both clocks as they stood at `at` (never before the running clock last
    /// started, so no move's time is undone): the running side, and the time it is
    /// given back since then (none if no clock ran).
    fn pause_as_of(&mut self, at: Instant) -> Option<(Color, Duration)> {
        let color = self.clock.running()?;
        let at = at.min(self.now);
        let given_back = self
            .clock
            .remaining(color, at)
            .saturating_sub(self.time_left(color));
        self.clock.pause(at);
        Some((color, given_back))
    }

    /// After a change to `game` from `before` moves: a move stops the mover's clock and
    /// starts the other's, a move taken back puts them back, any other change starts
    /// fresh clocks, and the end of the game stops them.
    fn follow_game(&mut self, before: usize, game: &Game) {
        let pos = *game.position();
        let after = game.moves().len();
        let now = self.now;
        let clock = &mut self.clock;
        if after == before + 1 {
            clock.moved(now, single_forced_jump(&pos));
        } else if after + 1 == before {
            clock.undo(now);
        } else if after != before {
            *clock = Clock::new(clock.control());
            clock.start(pos.turn(), now, single_forced_jump(&pos));
        }
        if game.is_over() {
            clock.stop(now);
        } else if clock.turn().is_none() {
            clock.start(pos.turn(), now, single_forced_jump(&pos));
        }
    }

    /// Fresh clocks of the same control for a new game from `pos`.
    pub(super) fn restart(&mut self, pos: &Position) {
        self.clock = Clock::new(self.clock.control());
        self.clock
            .start(pos.turn(), self.now, single_forced_jump(pos));
    }

    /// The times another terminal told (Black's, White's, and the running side), from
    /// `now` on.
    pub(super) fn follow(&mut self, left: [Duration; 2], running: Option<Color>, now: Instant) {
        self.shown_at(now);
        self.clock.follow(left, running, self.now);
    }

    /// The times left (Black's, White's) and the running side, to tell another terminal.
    pub(super) fn readings(&self) -> ([Duration; 2], Option<Color>) {
        let left = [Color::Black, Color::White].map(|c| self.time_left(c));
        (left, self.clock.running())
    }

    /// The clock of the side to move (`turn`) as the engine sees it: its time left and
    /// its control's increment, moves still to make in the period, or move timer.
    pub(super) fn limits(&self, turn: Color) -> ClockLimits {
        let on_clock = ClockLimits::sudden_death(self.time_left(turn));
        match self.clock.control() {
            TimeControl::Moves { moves, .. } => ClockLimits {
                moves_to_go: Some(moves - self.clock.moves(turn) % moves),
                ..on_clock
            },
            TimeControl::Increment { increment, .. } => ClockLimits {
                increment,
                ..on_clock
            },
            TimeControl::SuddenDeath(_) => on_clock,
            TimeControl::MoveTimer => ClockLimits {
                move_timer: true,
                ..on_clock
            },
        }
    }
}

impl Session {
    /// The clocks the record this session came from kept (its `TimeControl` and clock
    /// tags), started at `now` for the side to move; unchanged if it kept none.
    pub(crate) fn with_recorded_clock(mut self, now: Instant) -> Session {
        if let Some(clock) = self.recorded_clock.take() {
            self.timing = Some(Timing::started(clock, &self.game, now));
        }
        self
    }

    /// With each side's time left (Black's, White's) read as `left` instead of from the
    /// record's clock tags, which keep tenths only (a server keeps the milliseconds
    /// beside the record); before [`with_recorded_clock`](Self::with_recorded_clock), and
    /// nothing for a record that kept no clocks.
    pub(crate) fn with_clock_readings(mut self, left: [Duration; 2]) -> Session {
        if let Some(clock) = &mut self.recorded_clock {
            for (color, left) in Color::ALL.into_iter().zip(left) {
                clock.set_reading(color, left);
            }
        }
        self
    }

    /// With the game started from `opening`'s ballot: its three moves are played, and
    /// play goes on from there (undo stops there too).
    pub(crate) fn with_ballot(mut self, opening: Opening) -> Session {
        let mut game = Game::new();
        for m in &opening.line {
            // The deck replays from the start position (a unit test of the deck).
            if game.play(m).is_err() {
                return self;
            }
        }
        self.game = game;
        self.ballot = Some(opening);
        self
    }

    /// With clocks for `control`, the side to move's started at `now`.
    pub(crate) fn with_clock(mut self, control: TimeControl, now: Instant) -> Session {
        self.timing = Some(Timing::started(Clock::new(control), &self.game, now));
        self
    }

    /// The clocks, in a timed game.
    pub(crate) fn clock(&self) -> Option<&Clock> {
        self.timing.as_ref().map(Timing::clock)
    }

    /// `color`'s time left at the last [`tick`](Self::tick), in a timed game.
    pub(crate) fn time_left(&self, color: Color) -> Option<Duration> {
        self.timing.as_ref().map(|timing| timing.time_left(color))
    }

    /// The time is `now`: the front end calls this before each request and while it
    /// waits, so moves are timed and a flag fall ends the game. Returns the news of a
    /// flag fall ("Black lost on time. White wins: Black lost on time."), once.
    pub(crate) fn tick(&mut self, now: Instant) -> Option<News> {
        let flagged = self.timing.as_mut()?.tick(now)?;
        let outcome = self.track(|s| s.game.lose_on_time(flagged)).ok()?;
        self.review = None;
        Some(News::FlagFell {
            color: flagged,
            outcome,
        })
    }

    /// A warning that the running side's time is nearly up ("Black: 10 seconds left"),
    /// once for each of the clock's warnings in a turn (see [`Clock::warnings`]): with
    /// the move timer's five minutes a minute before the limit, then at ten seconds; with
    /// any clock at ten seconds. Front ends show it and ring the bell.
    pub(crate) fn clock_warning(&mut self) -> Option<News> {
        let (color, left, timer) = self.timing.as_mut()?.warning(self.revision)?;
        Some(News::TimeLow {
            color,
            left,
            this_move: timer,
        })
    }

    /// Whether `color`'s time is low enough to be shown as a warning (within the first
    /// of the clock's warnings while its clock runs, or within ten seconds).
    pub(crate) fn time_is_low(&self, color: Color) -> bool {
        self.timing
            .as_ref()
            .is_some_and(|timing| timing.is_low(color))
    }

    /// Pauses both clocks (`true`) or starts them again; false in an untimed game or a
    /// finished one. Clocks started again are held no more.
    pub(crate) fn set_paused(&mut self, paused: bool) -> bool {
        let over = self.game.is_over();
        if !paused {
            self.clocks_held = false;
        }
        match self.timing.as_mut() {
            Some(timing) if !over => {
                timing.set_paused(paused);
                true
            }
            _ => false,
        }
    }

    /// Pauses both clocks as they stood at `at`, not now (the time since is given back
    /// to the running side; never before its clock last started): for a player whose
    /// line went silent some time before it was known to be down. The running side and
    /// the time given back; none in an untimed or finished game, or with no clock
    /// running.
    pub(crate) fn pause_as_of(&mut self, at: Instant, now: Instant) -> Option<(Color, Duration)> {
        if self.game.is_over() {
            return None;
        }
        let timing = self.timing.as_mut()?;
        timing.shown_at(now);
        timing.pause_as_of(at)
    }

    /// The last move was made `earlier` than the time it was played at (see
    /// [`Clock::moved_earlier`]); nothing in an untimed game.
    pub(crate) fn move_made_earlier(&mut self, earlier: Duration) {
        if let Some(timing) = self.timing.as_mut() {
            timing.clock.moved_earlier(earlier);
        }
    }

    /// Whether the running side's time had run out by `at` (its flag fell then,
    /// whatever is decided later).
    pub(crate) fn flagged_by(&self, at: Instant) -> bool {
        self.timing
            .as_ref()
            .is_some_and(|timing| timing.clock().flagged(at).is_some())
    }

    /// With the clocks of a game resumed at one terminal held (paused) until the
    /// player is back: the front end starts them at the first key, so the time the
    /// window stood open unattended is charged to no one. Unchanged for an untimed or
    /// finished game.
    pub(crate) fn with_clocks_held(mut self) -> Session {
        if self.set_paused(true) {
            self.clocks_held = true;
        }
        self
    }

    /// The clocks held from now as a resumed game's are (see
    /// [`with_clocks_held`](Self::with_clocks_held)), while one of them runs: the program
    /// was suspended (Ctrl-Z), and the time until the player is back is charged to no
    /// one. False (nothing done) when no clock runs: an untimed, finished or paused game.
    pub(crate) fn hold_clocks(&mut self) -> bool {
        if self.clock().and_then(Clock::running).is_none() || !self.set_paused(true) {
            return false;
        }
        self.clocks_held = true;
        true
    }

    /// Whether the clocks are held for the player of a resumed game to be back (see
    /// [`with_clocks_held`](Self::with_clocks_held)).
    pub(crate) fn clocks_held(&self) -> bool {
        self.clocks_held && self.is_paused()
    }

    /// The players stop for now (they quit; `--resume` goes on): the running clock is
    /// paused, so the time its side has used since its turn began is kept in the record.
    /// Only once a move has been made on the clock: a game not begun is not worth a save
    /// for the seconds looked at it.
    pub(crate) fn adjourn(&mut self) {
        if self
            .clock()
            .is_some_and(|c| !c.readings_after_moves().is_empty())
        {
            self.set_paused(true);
        }
    }

    /// Whether the clocks are paused.
    pub(crate) fn is_paused(&self) -> bool {
        self.clock().is_some_and(Clock::is_paused)
    }

    /// After a change to the game from `before` (so many moves): the clocks follow, a
    /// move stopping the mover's and starting the other's, a move taken back putting
    /// them back, the end of the game stopping them.
    pub(super) fn clock_follows(&mut self, before: usize) {
        if let Some(timing) = self.timing.as_mut() {
            timing.follow_game(before, &self.game);
        }
    }

    /// The ballot the game started from, if any (its number and moves).
    pub(crate) fn ballot(&self) -> Option<&Opening> {
        self.ballot.as_ref()
    }
}
