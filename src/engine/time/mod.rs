//! Time management in one place: the [`Limits`] a search honours, the plan a player on
//! a clock makes of its time, and the [`budget`] that decides between iterations when a
//! search stops. Given the side to move's clock ([`ClockLimits`] in [`Limits::clock`]),
//! the search plans a target and a wall itself, so anything that plays on a clock (a
//! session, a match, `analyse`, a protocol adapter) only says what the clock reads. Its
//! numbers are [`SearchParams`]'s.

use super::params::SearchParams;
use std::time::Duration;

pub(crate) mod budget;

/// When a search must end. Every limit given applies; with none, the search runs until
/// stopped (or until it has proved the result or reached `MAX_DEPTH`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration to complete.
    pub(crate) depth: Option<u32>,
    /// Time for the whole search: a wall it never passes.
    pub(crate) movetime: Option<Duration>,
    /// Nodes to visit at most.
    pub(crate) nodes: Option<u64>,
    /// Time to spend as a budget rather than a wall: the search aims at it on average,
    /// stopping sooner when the best move has stayed the same for several iterations
    /// and running on (never past `movetime`) when the best move changes or the score
    /// falls. Without it, the search stops once the next iteration could not finish
    /// within `movetime`.
    pub(crate) target: Option<Duration>,
    /// The side to move's clock, when it plays on one: the search then plans its time
    /// from it (see [`plan_time`](crate::engine::plan_time)), within any `target` and
    /// `movetime` also given.
    pub(crate) clock: Option<ClockLimits>,
}

impl Limits {
    /// No limit: search until stopped.
    pub const fn infinite() -> Limits {
        Limits {
            depth: None,
            movetime: None,
            nodes: None,
            target: None,
            clock: None,
        }
    }

    /// Search to `depth` plies (deterministic).
    pub const fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            movetime: None,
            nodes: None,
            target: None,
            clock: None,
        }
    }

    /// Search for `ms` milliseconds.
    pub const fn movetime_ms(ms: u64) -> Limits {
        Limits {
            depth: None,
            movetime: Some(Duration::from_millis(ms)),
            nodes: None,
            target: None,
            clock: None,
        }
    }

    /// Spend about `target` on average, never more than `most`: see [`target`](Self::target).
    pub(crate) fn budget(target: Duration, most: Duration) -> Limits {
        Limits {
            depth: None,
            movetime: Some(most.max(target)),
            nodes: None,
            target: Some(target),
            clock: None,
        }
    }

    /// Play on `clock`: the search plans its own target and wall from it.
    pub(crate) const fn on_clock(clock: ClockLimits) -> Limits {
        Limits {
            clock: Some(clock),
            ..Limits::infinite()
        }
    }

    /// Search at most `nodes` nodes (deterministic).
    pub const fn nodes(nodes: u64) -> Limits {
        Limits {
            depth: None,
            movetime: None,
            nodes: Some(nodes),
            target: None,
            clock: None,
        }
    }
}

/// The side to move's clock, as the search needs it to plan its time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClockLimits {
    /// The time left on the side to move's clock.
    pub(crate) time_left: Duration,
    /// The time added to it after each of its moves (zero without an increment).
    pub(crate) increment: Duration,
    /// The moves it must make with `time_left` before more time comes (in a `30/60`
    /// control, its moves still to make in this period); `None` when the time must
    /// last the rest of the game.
    pub(crate) moves_to_go: Option<u32>,
    /// Whether `time_left` is this move's allowance alone, none of it carrying over
    /// (a move timer's five minutes a move).
    pub(crate) move_timer: bool,
}

impl ClockLimits {
    /// A clock with `time_left` for the rest of the game, no increment.
    pub(crate) const fn sudden_death(time_left: Duration) -> ClockLimits {
        ClockLimits {
            time_left,
            increment: Duration::ZERO,
            moves_to_go: None,
            move_timer: false,
        }
    }
}

/// What the time manager plans for one move on a clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimePlan {
    /// The time to spend as a budget (see [`Limits::target`]).
    pub(crate) target: Duration,
    /// The time the move may never pass, however hard the position.
    pub(crate) wall: Duration,
}

/// Plans one move's time on `clock`. The target is a share of the time left (as though
/// [`clock_moves_assumed`](SearchParams::clock_moves_assumed) moves were to go, or the
/// clock's moves to go; with a move timer, a
/// [`move_timer_divisor`](SearchParams::move_timer_divisor)th of the allowance) plus most
/// of an increment, never nearer the flag than [`flag_margin`] (a second, or a tenth of
/// a short clock). The wall is half (by default) of what is left before that margin.
/// Both are at least [`least_time`](SearchParams::least_time), so a move is always
/// searched a little.
pub(crate) fn plan_time(clock: &ClockLimits, params: &SearchParams) -> TimePlan {
    let left = clock.time_left;
    let share = if clock.move_timer {
        left / params.move_timer_divisor.max(1)
    } else {
        let to_go = clock.moves_to_go.unwrap_or(params.clock_moves_assumed);
        let increment = clock
            .increment
            .saturating_mul(params.clock_increment_per_mille)
            / 1000;
        (left / to_go.max(1)).saturating_add(increment)
    };
    let before_flag = left.saturating_sub(flag_margin(left, params));
    TimePlan {
        target: share.min(before_flag).max(params.least_time),
        wall: (before_flag / params.clock_wall_divisor.max(1)).max(params.least_time),
    }
}

/// How near the flag a plan may come with `left` on the clock: the
/// [`flag_margin`](SearchParams::flag_margin) (a second), or on a short clock a
/// [`flag_margin_divisor`](SearchParams::flag_margin_divisor)th of the time left, so that
/// a second for five moves is spent on them rather than kept; never less than
/// [`least_flag_margin`](SearchParams::least_flag_margin), which the move needs to reach
/// the clock.
fn flag_margin(left: Duration, params: &SearchParams) -> Duration {
    (left / params.flag_margin_divisor.max(1))
        .min(params.flag_margin)
        .max(params.least_flag_margin)
}

/// The limits a search honours: `limits` with its clock, if it has one, planned into a
/// target and a wall. A target given is kept if the plan's is longer; with neither a
/// target nor a movetime, the plan's target is the budget. The wall is the least of the
/// movetime given, [`budget_most`](SearchParams::budget_most) times the target, and the
/// plan's wall. A movetime without a target stays a wall (the search then stops once
/// the next iteration could not finish), shortened to the plan's target.
pub(crate) fn planned(limits: Limits, params: &SearchParams) -> Limits {
    let Some(clock) = limits.clock else {
        return limits;
    };
    let plan = plan_time(&clock, params);
    let target = match (limits.target, limits.movetime) {
        (Some(target), _) => Some(target.min(plan.target)),
        (None, None) => Some(plan.target),
        (None, Some(_)) => None,
    };
    let movetime = match (target, limits.movetime) {
        (Some(target), given) => Some(
            given
                .unwrap_or(Duration::MAX)
                .min(target.saturating_mul(params.budget_most))
                .min(plan.wall),
        ),
        (None, given) => given.map(|wall| wall.min(plan.target).min(plan.wall)),
    };
    Limits {
        target,
        movetime,
        ..limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    const fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    fn plan(clock: ClockLimits) -> TimePlan {
        plan_time(&clock, &SearchParams::default())
    }

    #[test]
    fn with_ten_seconds_left_and_no_increment_no_plan_reaches_the_flag() {
        let ten = ClockLimits::sudden_death(secs(10));
        assert_eq!(plan(ten).target, ms(500), "a twentieth");
        assert_eq!(
            plan(ten).wall,
            ms(4500),
            "half of the nine seconds before the margin"
        );
        // However the time is described, neither the target nor the wall comes within
        // the second's margin of the flag (a tenth of the time left is as much).
        for moves_to_go in [None, Some(1), Some(2), Some(40)] {
            for move_timer in [false, true] {
                let clock = ClockLimits {
                    moves_to_go,
                    move_timer,
                    ..ten
                };
                let TimePlan { target, wall } = plan(clock);
                assert!(target <= secs(9), "{clock:?}: {target:?}");
                assert!(wall <= secs(9), "{clock:?}: {wall:?}");
            }
        }
        // With a single move to go, it may use all but the margin.
        let last = ClockLimits {
            moves_to_go: Some(1),
            ..ten
        };
        assert_eq!(plan(last).target, secs(9));
    }

    #[test]
    fn moves_to_go_divide_the_time_and_an_increment_adds_most_of_itself() {
        let period = ClockLimits {
            moves_to_go: Some(30),
            ..ClockLimits::sudden_death(secs(60 * 60))
        };
        assert_eq!(plan(period).target, secs(120));
        let fischer = ClockLimits {
            increment: secs(4),
            ..ClockLimits::sudden_death(secs(60))
        };
        assert_eq!(plan(fischer).target, secs(3) + secs(3));
        let timer = ClockLimits {
            move_timer: true,
            ..ClockLimits::sudden_death(secs(5 * 60))
        };
        assert_eq!(
            plan(timer).target,
            secs(75),
            "a quarter of the five minutes"
        );
    }

    #[test]
    fn a_clock_almost_out_still_gives_the_least_time() {
        for left in [Duration::ZERO, ms(5), ms(50), ms(60)] {
            let TimePlan { target, wall } = plan(ClockLimits::sudden_death(left));
            assert_eq!((target, wall), (ms(10), ms(10)), "{left:?}");
        }
    }

    #[test]
    fn a_second_for_five_moves_is_spent_on_them_and_never_reaches_the_flag() {
        let params = SearchParams::default();
        let clock = |left, moves_to_go| ClockLimits {
            moves_to_go: Some(moves_to_go),
            ..ClockLimits::sudden_death(left)
        };
        // A fifth of the second each, where the second's margin left only the least.
        let first = plan(clock(secs(1), 5));
        assert_eq!(
            first,
            TimePlan {
                target: ms(200),
                wall: ms(450),
            },
            "half of the nine tenths before a tenth's margin"
        );
        let limits = planned(Limits::on_clock(clock(secs(1), 5)), &params);
        assert_eq!(
            (limits.target, limits.movetime),
            (Some(ms(200)), Some(ms(450)))
        );
        // Each move spending its target, or at worst its whole wall, the five moves end
        // with the least margin or more still on the clock.
        for wall_each_time in [false, true] {
            let mut left = secs(1);
            for to_go in (1..=5).rev() {
                let limits = planned(Limits::on_clock(clock(left, to_go)), &params);
                let wall = limits.movetime.unwrap();
                let spent = if wall_each_time {
                    wall
                } else {
                    limits.target.unwrap().min(wall)
                };
                assert!(spent >= ms(30), "{to_go} to go, {left:?} left: {spent:?}");
                left = left.checked_sub(spent).expect("flag fell");
            }
            assert!(left >= params.least_flag_margin, "{left:?}");
        }
    }

    #[test]
    fn on_a_short_clock_the_margin_is_a_tenth_of_it_and_never_less_than_the_least() {
        let least = SearchParams::default().least_flag_margin;
        assert_eq!(plan(ClockLimits::sudden_death(secs(1))).target, ms(50));
        assert_eq!(plan(ClockLimits::sudden_death(secs(5))).wall, ms(2250));
        // From 60 ms up (the least margin and the least time), no plan on any kind of
        // clock comes within the least margin of the flag.
        let mut left = ms(60);
        while left <= secs(10) {
            for moves_to_go in [None, Some(1), Some(2), Some(5)] {
                for move_timer in [false, true] {
                    let clock = ClockLimits {
                        moves_to_go,
                        move_timer,
                        increment: Duration::ZERO,
                        time_left: left,
                    };
                    let TimePlan { target, wall } = plan(clock);
                    assert!(target + least <= left, "{clock:?}: {target:?}");
                    assert!(wall + least <= left, "{clock:?}: {wall:?}");
                    assert!(target <= left - left / 10, "{clock:?}: {target:?}");
                }
            }
            left += ms(10);
        }
    }

    #[test]
    fn the_clock_shortens_a_budget_and_its_wall_but_never_lengthens_them() {
        let params = SearchParams::default();
        let level = Limits::budget(secs(3), secs(9));
        let roomy = ClockLimits::sudden_death(secs(600));
        let on = |limits: Limits, clock| {
            planned(
                Limits {
                    clock: Some(clock),
                    ..limits
                },
                &params,
            )
        };
        let roomy_level = on(level, roomy);
        assert_eq!(
            (roomy_level.target, roomy_level.movetime),
            (Some(secs(3)), Some(secs(9)))
        );
        // 1.9 s left: a twentieth is the budget, half of 0.9 s the wall.
        let short = on(level, ClockLimits::sudden_death(ms(1900)));
        assert_eq!(
            (short.target, short.movetime),
            (Some(ms(95)), Some(ms(285)))
        );
        let tight = on(level, ClockLimits::sudden_death(ms(3000)));
        assert_eq!(
            (tight.target, tight.movetime),
            (Some(ms(150)), Some(ms(450)))
        );
        // A clock alone: the plan is the budget.
        let alone = on(Limits::infinite(), ClockLimits::sudden_death(secs(60)));
        assert_eq!(
            (alone.target, alone.movetime),
            (Some(secs(3)), Some(secs(9)))
        );
        // A wall without a budget stays a wall, within the plan.
        let wall = on(
            Limits::movetime_ms(5000),
            ClockLimits::sudden_death(secs(60)),
        );
        assert_eq!((wall.target, wall.movetime), (None, Some(secs(3))));
        // Without a clock, nothing changes.
        assert_eq!(planned(level, &params), level);
    }
}

#[cfg(test)]
mod examples {
    //! The examples the documentation of these crate-private items gave, run as tests.
    #![allow(clippy::unwrap_used)]
    use crate as checkers;

    #[test]
    fn example_of_plan_time() {
        use checkers::engine::{ClockLimits, SearchParams, plan_time};
        use std::time::Duration;
        let minute = ClockLimits::sudden_death(Duration::from_secs(60));
        let plan = plan_time(&minute, &SearchParams::default());
        assert_eq!(plan.target, Duration::from_secs(3)); // a twentieth
        assert_eq!(plan.wall, Duration::from_millis(29_500)); // half of 59 s
    }
}
