//! Game clocks: the time controls of checkers clubs, kept without reading the system
//! time. Every call that needs the time is given it (an [`Instant`]), so a test drives
//! a clock with made-up instants and a front end with `Instant::now()`.

use crate::rules::{Color, Position};
use std::fmt;
use std::str::FromStr;
use std::time::{Duration, Instant};

/// A move timer's allowance for a move.
pub(crate) const MOVE_TIME: Duration = Duration::from_secs(5 * 60);
/// A move timer's allowance when the move is a single forced jump.
pub(crate) const FORCED_JUMP_TIME: Duration = Duration::from_secs(60);
/// Time left at which a player is warned (and the bell rings once).
pub(crate) const WARNING: Duration = Duration::from_secs(10);
/// With the move timer's five minutes, a first warning at this much left (a minute
/// before the limit, as a timekeeper calls it), then another at [`WARNING`].
pub(super) const MOVE_TIMER_WARNING: Duration = Duration::from_secs(60);

/// How much time the players have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TimeControl {
    /// `30/60`: `moves` moves in each `period`; time left over carries on, and each
    /// completed period adds another.
    Moves {
        /// Moves per period.
        moves: u32,
        /// The time for them.
        period: Duration,
    },
    /// `G/15`: the whole game in this time.
    SuddenDeath(Duration),
    /// `5+3`: a starting time, and an increment added after each move.
    Increment {
        /// The time at the start.
        base: Duration,
        /// Added after each of the player's moves.
        increment: Duration,
    },
    /// The traditional limit without clocks: five minutes a move, one minute for a
    /// single forced jump.
    MoveTimer,
}

impl TimeControl {
    /// The time each player starts with.
    pub(crate) fn initial(&self) -> Duration {
        match *self {
            TimeControl::Moves { period, .. } => period,
            TimeControl::SuddenDeath(time) => time,
            TimeControl::Increment { base, .. } => base,
            TimeControl::MoveTimer => MOVE_TIME,
        }
    }
}

impl fmt::Display for TimeControl {
    /// The spec as `--clock` takes it (`30/60`, `G/15`, `5+3`), or `move timer`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControl::Moves { moves, period } => write!(f, "{moves}/{}", minutes(period)),
            TimeControl::SuddenDeath(time) => write!(f, "G/{}", minutes(time)),
            TimeControl::Increment { base, increment } => {
                write!(f, "{}+{}", minutes(base), increment.as_secs())
            }
            TimeControl::MoveTimer => write!(f, "move timer"),
        }
    }
}

/// Minutes as a spec writes them: `15`, or `0:03` when not whole minutes.
fn minutes(d: Duration) -> String {
    let secs = d.as_secs();
    if secs.is_multiple_of(60) {
        (secs / 60).to_string()
    } else {
        format!("{}:{:02}", secs / 60, secs % 60)
    }
}

/// Why a `--clock` spec cannot be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ClockSpecError(String);

impl fmt::Display for ClockSpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}; a clock is 30/60 (30 moves in 60 minutes, repeating), G/15 (the game in 15 \
             minutes) or 5+3 (5 minutes, 3 seconds added per move); minutes may be m:ss",
            self.0
        )
    }
}

impl std::error::Error for ClockSpecError {}

/// `15` minutes or `1:30` (minutes and seconds).
fn parse_minutes(text: &str, what: &str) -> Result<Duration, ClockSpecError> {
    let bad = || ClockSpecError(format!("'{text}' is not a number of minutes for {what}"));
    let secs = match text.split_once(':') {
        Some((m, s)) if s.len() == 2 => {
            let m: u64 = m.parse().map_err(|_| bad())?;
            let s: u64 = s.parse().map_err(|_| bad())?;
            if s >= 60 {
                return Err(bad());
            }
            m.checked_mul(60).and_then(|m| m.checked_add(s))
        }
        Some(_) => return Err(bad()),
        None => text.parse::<u64>().map_err(|_| bad())?.checked_mul(60),
    };
    match secs {
        Some(s) if s > 0 && s <= 24 * 3600 => Ok(Duration::from_secs(s)),
        _ => Err(ClockSpecError(format!(
            "{what} must be more than nothing and at most a day, not '{text}'"
        ))),
    }
}

impl FromStr for TimeControl {
    type Err = ClockSpecError;

    /// `30/60`, `G/15`, `5+3`, with `m:ss` wherever minutes go (`0:03+0`); `move timer`
    /// as a record writes the move timer.
    fn from_str(text: &str) -> Result<TimeControl, ClockSpecError> {
        let text = text.trim();
        if text == "move timer" {
            return Ok(TimeControl::MoveTimer);
        }
        if let Some((left, right)) = text.split_once('/') {
            if left.eq_ignore_ascii_case("g") {
                return Ok(TimeControl::SuddenDeath(parse_minutes(right, "the game")?));
            }
            let moves: u32 = left
                .parse()
                .ok()
                .filter(|n| (1..=1000).contains(n))
                .ok_or_else(|| ClockSpecError(format!("'{left}' is not a number of moves")))?;
            let period = parse_minutes(right, "the period")?;
            return Ok(TimeControl::Moves { moves, period });
        }
        if let Some((left, right)) = text.split_once('+') {
            let base = parse_minutes(left, "the starting time")?;
            let increment = right
                .parse::<u64>()
                .ok()
                .filter(|s| *s <= 3600)
                .ok_or_else(|| {
                    ClockSpecError(format!("'{right}' is not an increment in seconds"))
                })?;
            return Ok(TimeControl::Increment {
                base,
                increment: Duration::from_secs(increment),
            });
        }
        Err(ClockSpecError(format!("'{text}' is not a clock")))
    }
}

/// Whether the side to move in `pos` has one legal move and it is a capture: a single
/// forced jump, which the move timer gives one minute.
pub(crate) fn single_forced_jump(pos: &Position) -> bool {
    let moves = pos.legal_moves();
    moves.len() == 1 && moves[0].is_capture()
}

fn side(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

/// Both clocks as a move found them, so undo can put them back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Reading {
    left: [Duration; 2],
    moves: [u32; 2],
    turn: Color,
}

/// Two players' clocks, kept without reading the system time: every call that needs
/// the time is given it, so a test drives them with made-up instants.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Clock {
    control: TimeControl,
    /// Each side's time left when its clock last stopped (or at the start of its turn).
    left: [Duration; 2],
    /// Moves each side has made.
    moves: [u32; 2],
    /// The side whose clock runs, and since when (`None` for the instant while paused).
    running: Option<(Color, Option<Instant>)>,
    history: Vec<Reading>,
    /// The mover's time left after each move made on this clock (what a record's
    /// `%clk` comments keep), oldest first.
    after: Vec<Duration>,
    /// With the move timer: whether the running side's move is a single forced jump
    /// (one minute, not five).
    forced_jump: bool,
}

impl Clock {
    /// Both clocks set for `control`, neither running.
    pub(crate) fn new(control: TimeControl) -> Clock {
        Clock {
            control,
            left: [control.initial(); 2],
            moves: [0; 2],
            running: None,
            history: Vec::new(),
            after: Vec::new(),
            forced_jump: false,
        }
    }

    /// Clocks for `control` after the moves whose readings a record kept: `after` holds
    /// the mover's time left after each move made on the clock, the first of them by
    /// `first`. Both clocks stand as the last readings left them, neither running, and
    /// undo can take every one of those moves back with its time.
    pub(crate) fn replayed(control: TimeControl, first: Color, after: &[Duration]) -> Clock {
        let mut clock = Clock::new(control);
        let mut turn = first;
        for reading in after {
            clock.history.push(Reading {
                left: clock.left,
                moves: clock.moves,
                turn,
            });
            clock.left[side(turn)] = *reading;
            clock.moves[side(turn)] += 1;
            clock.after.push(*reading);
            turn = !turn;
        }
        clock
    }

    /// The mover's time left after each move made on this clock, oldest first (the last
    /// of them belongs to the last move of the game).
    pub(crate) fn readings_after_moves(&self) -> &[Duration] {
        &self.after
    }

    /// Sets `color`'s time left, as a record's clock tag kept it (a player's time used
    /// before a pause or a quit, after their last move).
    pub(crate) fn set_reading(&mut self, color: Color, left: Duration) {
        self.left[side(color)] = left;
    }

    /// Clocks for `control` showing `left` (Black's, White's), as a record kept them,
    /// with `moves` (Black's, White's) made; neither running.
    pub(crate) fn with_readings(
        control: TimeControl,
        left: [Duration; 2],
        moves: [u32; 2],
    ) -> Clock {
        Clock {
            left,
            moves,
            ..Clock::new(control)
        }
    }

    /// `color`'s time left when its clock last stopped, or when its turn began: what
    /// a record keeps (it changes only with the moves, so the autosave is not written
    /// at every tick).
    pub(crate) fn reading(&self, color: Color) -> Duration {
        self.left[side(color)]
    }

    /// The time control.
    pub(crate) fn control(&self) -> TimeControl {
        self.control
    }

    /// Starts `turn`'s clock at `now`; with the move timer its allowance is set for this
    /// move (one minute when it is a `single_jump`).
    pub(crate) fn start(&mut self, turn: Color, now: Instant, single_jump: bool) {
        self.forced_jump = single_jump;
        if self.control == TimeControl::MoveTimer {
            self.left[side(turn)] = if single_jump {
                FORCED_JUMP_TIME
            } else {
                MOVE_TIME
            };
        }
        self.running = Some((turn, Some(now)));
    }

    /// The side whose clock runs (none while paused or stopped).
    pub(crate) fn running(&self) -> Option<Color> {
        match self.running {
            Some((color, Some(_))) => Some(color),
            _ => None,
        }
    }

    /// The side whose turn the clock is timing, paused or not.
    pub(crate) fn turn(&self) -> Option<Color> {
        self.running.map(|(color, _)| color)
    }

    /// Whether the clocks are paused.
    pub(crate) fn is_paused(&self) -> bool {
        matches!(self.running, Some((_, None)))
    }

    /// `color`'s time left at `now` (never below zero).
    pub(crate) fn remaining(&self, color: Color, now: Instant) -> Duration {
        let left = self.left[side(color)];
        match self.running {
            Some((c, Some(since))) if c == color => {
                left.saturating_sub(now.saturating_duration_since(since))
            }
            _ => left,
        }
    }

    /// The side whose time has run out at `now`, if any.
    pub(crate) fn flagged(&self, now: Instant) -> Option<Color> {
        let color = self.running()?;
        self.remaining(color, now).is_zero().then_some(color)
    }

    /// Stops the running clock at `now`, its time used counted.
    pub(crate) fn stop(&mut self, now: Instant) {
        if let Some(color) = self.running() {
            self.left[side(color)] = self.remaining(color, now);
        }
        self.running = None;
    }

    /// Pauses both clocks at `now` (for a break).
    pub(crate) fn pause(&mut self, now: Instant) {
        if let Some(color) = self.running() {
            self.left[side(color)] = self.remaining(color, now);
            self.running = Some((color, None));
        }
    }

    /// Restarts the clock that was running when paused.
    pub(crate) fn resume(&mut self, now: Instant) {
        if let Some((color, None)) = self.running {
            self.running = Some((color, Some(now)));
        }
    }

    /// Shows the readings another terminal's clock gave: `left` (Black's, White's) at
    /// `now`, with `running`'s clock running from then (none: both stopped). A board
    /// that follows a game held elsewhere shows its time this way; the other terminal
    /// decides a flag fall.
    pub(crate) fn follow(&mut self, left: [Duration; 2], running: Option<Color>, now: Instant) {
        self.left = left;
        self.running = running.map(|c| (c, Some(now)));
    }

    /// The running side has moved at `now`: its clock stops (a period's time or the
    /// increment added), and the other side's starts; `single_jump` says whether the
    /// other side's move is a single forced jump (for the move timer).
    pub(crate) fn moved(&mut self, now: Instant, single_jump: bool) {
        let Some(color) = self.turn() else {
            return;
        };
        self.history.push(Reading {
            left: self.left,
            moves: self.moves,
            turn: color,
        });
        let i = side(color);
        self.left[i] = self.remaining(color, now);
        self.moves[i] += 1;
        match self.control {
            TimeControl::Moves { moves, period } if self.moves[i].is_multiple_of(moves) => {
                self.left[i] += period;
            }
            TimeControl::Increment { increment, .. } => self.left[i] += increment,
            _ => {}
        }
        self.after.push(self.left[i]);
        let paused = self.is_paused();
        self.start(!color, now, single_jump);
        if paused {
            self.pause(now);
        }
    }

    /// The last move, timed by [`Clock::moved`], was made `earlier` than it was timed
    /// (it waited in a line while the program holding the clocks was stopped): its
    /// mover is given that time back, and the clock that started with it counts from
    /// the moment it was made.
    pub(crate) fn moved_earlier(&mut self, earlier: Duration) {
        let Some(mover) = self.history.last().map(|reading| reading.turn) else {
            return;
        };
        self.left[side(mover)] += earlier;
        if let Some(after) = self.after.last_mut() {
            *after += earlier;
        }
        if let Some((color, Some(since))) = self.running
            && color != mover
        {
            self.running = Some((color, Some(since.checked_sub(earlier).unwrap_or(since))));
        }
    }

    /// The last move is taken back at `now`: both clocks are as they were when it began,
    /// and the mover's clock runs again. False if no move was timed.
    pub(crate) fn undo(&mut self, now: Instant) -> bool {
        let Some(reading) = self.history.pop() else {
            return false;
        };
        self.left = reading.left;
        self.moves = reading.moves;
        self.after.pop();
        self.running = Some((reading.turn, Some(now)));
        true
    }

    /// Moves `color` has made on this clock.
    pub(crate) fn moves(&self, color: Color) -> u32 {
        self.moves[side(color)]
    }

    /// The times left at which the running side is warned, largest first: ten seconds,
    /// and with the move timer's five minutes a minute before the limit too.
    pub(crate) fn warnings(&self) -> &'static [Duration] {
        if self.control == TimeControl::MoveTimer && !self.forced_jump {
            &[MOVE_TIMER_WARNING, WARNING]
        } else {
            &[WARNING]
        }
    }

    /// How many of the [`warnings`](Self::warnings) the running side has reached at
    /// `now` (0 while it has time enough).
    pub(crate) fn warnings_reached(&self, now: Instant) -> usize {
        let Some(color) = self.running() else {
            return 0;
        };
        let left = self.remaining(color, now);
        self.warnings().iter().filter(|w| left <= **w).count()
    }
}

/// A clock reading as players read it: `4:59`, `1:02:03`, and tenths under ten
/// seconds (`9.4`).
pub(crate) fn clock_text(d: Duration) -> String {
    let secs = d.as_secs();
    if secs < 10 {
        return format!("{secs}.{}", d.subsec_millis() / 100);
    }
    let (h, m, s) = (secs / 3600, secs / 60 % 60, secs % 60);
    if h > 0 {
        format!("{h}:{m:02}:{s:02}")
    } else {
        format!("{m}:{s:02}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn specs_parse_and_bad_ones_say_why() {
        assert_eq!(
            "30/60".parse(),
            Ok(TimeControl::Moves {
                moves: 30,
                period: secs(3600)
            })
        );
        assert_eq!("G/15".parse(), Ok(TimeControl::SuddenDeath(secs(900))));
        assert_eq!(
            "0:03+0".parse(),
            Ok(TimeControl::Increment {
                base: secs(3),
                increment: secs(0)
            })
        );
        for bad in ["", "x", "G/", "0/60", "5+x", "1:75+0", "G/0", "30/-1"] {
            let e = bad.parse::<TimeControl>().unwrap_err().to_string();
            assert!(e.contains("30/60"), "{bad}: {e}");
        }
        assert_eq!("30/60".parse::<TimeControl>().unwrap().to_string(), "30/60");
        assert_eq!(
            "0:03+2".parse::<TimeControl>().unwrap().to_string(),
            "0:03+2"
        );
    }

    #[test]
    fn readings_show_tenths_under_ten_seconds() {
        assert_eq!(clock_text(secs(299)), "4:59");
        assert_eq!(clock_text(secs(3723)), "1:02:03");
        assert_eq!(clock_text(Duration::from_millis(9_450)), "9.4");
        assert_eq!(clock_text(Duration::ZERO), "0.0");
    }

    #[test]
    fn a_period_adds_its_time_after_its_last_move() {
        let t0 = Instant::now();
        let mut clock = Clock::new("2/1".parse().unwrap());
        clock.start(Color::Black, t0, false);
        clock.moved(t0 + secs(20), false); // Black 1: 40 s left
        clock.moved(t0 + secs(30), false); // White 1: 50 s left
        clock.moved(t0 + secs(60), false); // Black 2: 10 s left, then the next period
        assert_eq!(clock.remaining(Color::Black, t0 + secs(60)), secs(70));
        assert_eq!(clock.remaining(Color::White, t0 + secs(80)), secs(30));
        assert_eq!(clock.flagged(t0 + secs(110)), Some(Color::White));
    }

    #[test]
    fn a_move_made_earlier_than_timed_gives_its_mover_the_time_and_starts_the_other_then() {
        let t0 = Instant::now();
        let mut clock = Clock::new("G/1".parse().unwrap());
        clock.start(Color::Black, t0, false);
        // Black moved at 10 s; the move was read only at 16 s.
        clock.moved(t0 + secs(16), false);
        clock.moved_earlier(secs(6));
        assert_eq!(clock.remaining(Color::Black, t0 + secs(20)), secs(50));
        assert_eq!(clock.readings_after_moves(), &[secs(50)]);
        // White's clock ran from 10 s.
        assert_eq!(clock.remaining(Color::White, t0 + secs(20)), secs(50));
    }

    #[test]
    fn sudden_death_flags_and_pause_stops_time() {
        let t0 = Instant::now();
        let mut clock = Clock::new("G/1".parse().unwrap());
        clock.start(Color::Black, t0, false);
        clock.pause(t0 + secs(30));
        assert!(clock.is_paused() && clock.running().is_none());
        assert_eq!(clock.flagged(t0 + secs(500)), None);
        clock.resume(t0 + secs(500));
        assert_eq!(clock.remaining(Color::Black, t0 + secs(510)), secs(20));
        assert_eq!(clock.flagged(t0 + secs(529)), None);
        assert_eq!(clock.flagged(t0 + secs(530)), Some(Color::Black));
    }

    #[test]
    fn undo_puts_both_clocks_back() {
        let t0 = Instant::now();
        let mut clock = Clock::new("5+3".parse().unwrap());
        clock.start(Color::Black, t0, false);
        clock.moved(t0 + secs(100), false);
        assert!(clock.undo(t0 + secs(150)));
        assert_eq!(clock.running(), Some(Color::Black));
        assert_eq!(clock.remaining(Color::Black, t0 + secs(150)), secs(300));
        assert_eq!(clock.moves(Color::Black), 0);
        assert!(!clock.undo(t0));
    }

    #[test]
    fn the_move_timer_gives_a_minute_for_a_single_forced_jump() {
        let t0 = Instant::now();
        let mut clock = Clock::new(TimeControl::MoveTimer);
        clock.start(Color::Black, t0, false);
        assert_eq!(clock.remaining(Color::Black, t0 + secs(200)), secs(100));
        clock.moved(t0 + secs(200), true);
        assert_eq!(clock.remaining(Color::White, t0 + secs(200)), secs(60));
        assert_eq!(clock.flagged(t0 + secs(260)), Some(Color::White));
        clock.moved(t0 + secs(230), false);
        assert_eq!(clock.remaining(Color::Black, t0 + secs(230)), MOVE_TIME);
    }

    #[test]
    fn a_single_forced_jump_is_told_from_a_choice() {
        let one: Position = "W:W14:B10,5".parse().unwrap();
        assert!(single_forced_jump(&one));
        assert!(!single_forced_jump(&Position::start()));
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_clock() {
        use checkers::Color;
        use checkers::session::Clock;
        use std::time::{Duration, Instant};
        let t0 = Instant::now();
        let mut clock = Clock::new("5+3".parse().unwrap());
        clock.start(Color::Black, t0, false);
        let t1 = t0 + Duration::from_secs(10);
        assert_eq!(clock.remaining(Color::Black, t1), Duration::from_secs(290));
        clock.moved(t1, false);
        assert_eq!(clock.remaining(Color::Black, t1), Duration::from_secs(293));
        assert_eq!(clock.running(), Some(Color::White));
    }
}
