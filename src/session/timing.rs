//! The session's clocks and ballot: time controls started, read and ticked with the
//! time a front end gives, paused, and kept in step with the game's moves.

use super::*;

impl Session {
    /// The clocks the record this session came from kept (its `TimeControl` and clock
    /// tags), started at `now` for the side to move; unchanged if it kept none.
    pub(crate) fn with_recorded_clock(mut self, now: Instant) -> Session {
        if let Some(mut clock) = self.recorded_clock.take() {
            if !self.game.is_over() {
                let pos = self.position();
                clock.start(pos.turn(), now, single_forced_jump(pos));
            }
            self.clock = Some((clock, now));
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
        let mut clock = Clock::new(control);
        if !self.game.is_over() {
            let pos = self.position();
            clock.start(pos.turn(), now, single_forced_jump(pos));
        }
        self.clock = Some((clock, now));
        self
    }

    /// The clocks, in a timed game.
    pub(crate) fn clock(&self) -> Option<&Clock> {
        self.clock.as_ref().map(|(clock, _)| clock)
    }

    /// `color`'s time left at the last [`tick`](Self::tick), in a timed game.
    pub(crate) fn time_left(&self, color: Color) -> Option<Duration> {
        self.clock
            .as_ref()
            .map(|(clock, now)| clock.remaining(color, *now))
    }

    /// The time is `now`: the front end calls this before each request and while it
    /// waits, so moves are timed and a flag fall ends the game. Returns the news of a
    /// flag fall ("Black lost on time. White wins: Black lost on time."), once.
    pub(crate) fn tick(&mut self, now: Instant) -> Option<News> {
        let (clock, then) = self.clock.as_mut()?;
        *then = now.max(*then);
        let flagged = clock.flagged(*then)?;
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
        let (clock, now) = self.clock.as_ref()?;
        let color = clock.running()?;
        let reached = clock.warnings_reached(*now);
        let left = clock.remaining(color, *now);
        let timer = clock.control() == TimeControl::MoveTimer;
        let already = if self.warned.0 == self.revision {
            self.warned.1
        } else {
            0
        };
        self.warned = (self.revision, reached.max(already));
        if reached <= already || left.is_zero() {
            return None;
        }
        Some(News::TimeLow {
            color,
            left,
            this_move: timer,
        })
    }

    /// Whether `color`'s time is low enough to be shown as a warning (within the first
    /// of the clock's warnings while its clock runs, or within ten seconds).
    pub(crate) fn time_is_low(&self, color: Color) -> bool {
        let Some((clock, now)) = self.clock.as_ref() else {
            return false;
        };
        let left = clock.remaining(color, *now);
        let first = if clock.turn() == Some(color) {
            clock.warnings()[0]
        } else {
            clock::WARNING
        };
        left <= first
    }

    /// Pauses both clocks (`true`) or starts them again; false in an untimed game or a
    /// finished one.
    pub(crate) fn set_paused(&mut self, paused: bool) -> bool {
        let over = self.game.is_over();
        let Some((clock, now)) = self.clock.as_mut() else {
            return false;
        };
        if over {
            return false;
        }
        if paused {
            clock.pause(*now);
        } else {
            clock.resume(*now);
        }
        true
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
        let pos = *self.game.position();
        let over = self.game.is_over();
        let after = self.game.moves().len();
        let Some((clock, now)) = self.clock.as_mut() else {
            return;
        };
        let now = *now;
        if after == before + 1 {
            clock.moved(now, single_forced_jump(&pos));
        } else if after + 1 == before {
            clock.undo(now);
        } else if after != before {
            *clock = Clock::new(clock.control());
            clock.start(pos.turn(), now, single_forced_jump(&pos));
        }
        if over {
            clock.stop(now);
        } else if clock.turn().is_none() {
            clock.start(pos.turn(), now, single_forced_jump(&pos));
        }
    }

    /// The ballot the game started from, if any (its number and moves).
    pub(crate) fn ballot(&self) -> Option<&Opening> {
        self.ballot.as_ref()
    }
}
