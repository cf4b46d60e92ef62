//! The search's tunable numbers, in one place: what the search prunes and reduces, how
//! it orders and remembers, how a time budget stretches, and how a clock is shared out
//! between moves. [`SearchParams::default`] is the computer's play; a tuning run or an
//! experiment changes a copy in its [`SearchRequest`](super::SearchRequest).

use std::time::Duration;

/// Every number of the search that tuning may change. The defaults are the numbers the
/// computer plays with (changing one changes its play; the levels' depths and noise and
/// the contempt are the [`Level`](super::Level)'s, and the decisions to claim or resign
/// are [`decide`](super::decide)'s).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct SearchParams {
    // The tree.
    /// Half the width of the aspiration window round the last iteration's score, in
    /// hundredths of a man: a score outside it is searched again with the full window.
    pub(crate) aspiration_window: i32,
    /// The first iteration searched with an aspiration window (shallower ones are
    /// quick and their scores swing too much to aim at).
    pub(crate) aspiration_from_depth: u32,
    /// Plies added below a position with a single legal move (a forced move costs the
    /// opponent nothing to find).
    pub(crate) single_move_extension: i32,
    /// Truncation (as Cake searches): off the principal variation, a quiet position
    /// whose static value is more than this (hundredths of a man) outside the window is
    /// searched shallower, by its distance from the window divided by
    /// [`truncation_divisor`](Self::truncation_divisor) quarter plies; the plies taken
    /// are given back below once a position is valued within this of the window again
    /// (0: never).
    pub(crate) truncation_soft: i32,
    /// Truncation: a distance beyond this takes plies that are given back only once a
    /// position comes within it again, and at most
    /// [`truncation_most`](Self::truncation_most) quarter plies a node.
    pub(crate) truncation_hard: i32,
    /// Truncation: hundredths of a man outside the window per quarter ply taken.
    pub(crate) truncation_divisor: i32,
    /// Truncation: the most quarter plies a node beyond the hard distance takes.
    pub(crate) truncation_most: i32,
    /// Late-move reduction: the first place in the move order (0 is the first move)
    /// from which quiet moves are searched [`reduction`](Self::reduction) plies less.
    pub(crate) reduce_from_move: usize,
    /// Late-move reduction: the least remaining depth at which moves are reduced.
    pub(crate) reduce_from_depth: i32,
    /// Late-move reduction: the plies a late quiet move is searched less (and again at
    /// full depth if it beats alpha all the same).
    pub(crate) reduction: i32,
    /// Late-move reduction: from this place in the move order, and
    /// [`deeper_reduction_from_depth`](Self::deeper_reduction_from_depth) plies left or
    /// more, a late quiet move is reduced a ply more (`usize::MAX`: never).
    pub(crate) deeper_reduction_from_move: usize,
    /// Late-move reduction: the least remaining depth of the deeper reduction.
    pub(crate) deeper_reduction_from_depth: i32,
    /// At the start of each search the history counts are divided by this, so that
    /// old positions do not dominate the move order.
    pub(crate) history_aging: i32,
    /// The most a history count grows to (it must stay below the killer moves' rank in
    /// the move order, 1 << 22).
    pub(crate) history_most: i32,

    // Time without a budget.
    /// With a `movetime` but no target, another iteration starts only while less than
    /// this share of the time is spent (a deeper one would hardly finish).
    pub(crate) iteration_start_share: f64,

    // Time as a budget (see [`Limits::target`](super::Limits::target)).
    /// The wall a computer player's budget stretches to, as a multiple of the budget
    /// (when its best move keeps changing or its score falls).
    pub(crate) budget_most: u32,
    /// The share of the target that the time allowed is counted from (before the
    /// shares below): an iteration begun near the end of the time allowed runs on
    /// past it, so aiming short of the target brings the average time of a move to
    /// about the target (1: the whole target, and moves take longer on average).
    pub(crate) budget_aim: f64,
    /// Iterations shallower than this always go on.
    pub(crate) budget_from_depth: u32,
    /// The time allowed is the target times this while the best move changes.
    pub(crate) budget_changed_share: f64,
    /// The iterations the best move must have stood, its score holding (falling less
    /// than [`budget_small_fall`](Self::budget_small_fall)), for the move to count as
    /// settled.
    pub(crate) budget_settled_after: u32,
    /// The time allowed is the target times this once the best move is settled.
    pub(crate) budget_settled_share: f64,
    /// A fall of the score since the last iteration by this much or more (hundredths
    /// of a man) multiplies the time allowed by
    /// [`budget_small_fall_share`](Self::budget_small_fall_share).
    pub(crate) budget_small_fall: i32,
    /// What a small fall multiplies the time allowed by.
    pub(crate) budget_small_fall_share: f64,
    /// A fall by this much or more multiplies the time allowed by
    /// [`budget_big_fall_share`](Self::budget_big_fall_share) instead.
    pub(crate) budget_big_fall: i32,
    /// What a big fall multiplies the time allowed by.
    pub(crate) budget_big_fall_share: f64,
    /// A position with at least this many pieces on the board is in the opening or
    /// the early middle game, where the games are won and lost: its target is
    /// multiplied by [`budget_opening_share`](Self::budget_opening_share).
    pub(crate) budget_opening_pieces: u32,
    /// What the opening's target is multiplied by (1: no different).
    pub(crate) budget_opening_share: f64,
    /// What the target of a position between the opening and the ending is multiplied
    /// by (1: no different).
    pub(crate) budget_middle_share: f64,
    /// A position with at most this many pieces is in the ending, where the search
    /// reaches far in little time: its target is multiplied by
    /// [`budget_ending_share`](Self::budget_ending_share).
    pub(crate) budget_ending_pieces: u32,
    /// What the ending's target is multiplied by (1: no different).
    pub(crate) budget_ending_share: f64,

    // The clock (see [`plan_time`](super::plan_time)).
    /// On a clock with no moves to go given, a move plans for a share of the time left
    /// as though this many moves were still to make.
    pub(crate) clock_moves_assumed: u32,
    /// The share of an increment a move plans to spend, in thousandths.
    pub(crate) clock_increment_per_mille: u32,
    /// With a move timer, a move plans for this share of its allowance (a quarter).
    pub(crate) move_timer_divisor: u32,
    /// No plan comes nearer the flag than this, or than a
    /// [`flag_margin_divisor`](Self::flag_margin_divisor)th of the time left when that is
    /// less (on a short clock a whole second would leave nothing to think with).
    pub(crate) flag_margin: Duration,
    /// On a short clock the margin before the flag is the time left divided by this.
    pub(crate) flag_margin_divisor: u32,
    /// The least margin before the flag, however short the clock: the time between the
    /// search's stop and the move reaching whoever runs the clock (the search's last
    /// look at its clock, the answer written, a pipe, a busy machine's scheduling).
    pub(crate) least_flag_margin: Duration,
    /// The wall on a clock: the time left before the flag margin divided by this.
    pub(crate) clock_wall_divisor: u32,
    /// The least a move on the clock is given, however short the time.
    pub(crate) least_time: Duration,
}

impl SearchParams {
    /// The numbers the computer plays with.
    pub(crate) const DEFAULT: SearchParams = SearchParams {
        aspiration_window: 30,
        aspiration_from_depth: 5,
        single_move_extension: 1,
        truncation_soft: 20,
        truncation_hard: 100,
        truncation_divisor: 16,
        truncation_most: 10,
        reduce_from_move: 3,
        reduce_from_depth: 3,
        reduction: 1,
        deeper_reduction_from_move: 5,
        deeper_reduction_from_depth: 6,
        history_aging: 8,
        history_most: 1 << 20,
        iteration_start_share: 0.6,
        budget_most: 3,
        budget_aim: 0.8,
        budget_from_depth: 4,
        budget_changed_share: 2.0,
        budget_settled_after: 4,
        budget_settled_share: 0.8,
        budget_small_fall: 20,
        budget_small_fall_share: 1.4,
        budget_big_fall: 50,
        budget_big_fall_share: 2.0,
        budget_opening_pieces: 19,
        budget_opening_share: 1.0,
        budget_middle_share: 1.0,
        budget_ending_pieces: 12,
        budget_ending_share: 1.0,
        clock_moves_assumed: 20,
        clock_increment_per_mille: 750,
        move_timer_divisor: 4,
        flag_margin: Duration::from_secs(1),
        flag_margin_divisor: 10,
        least_flag_margin: Duration::from_millis(50),
        clock_wall_divisor: 2,
        least_time: Duration::from_millis(10),
    };
}

impl SearchParams {
    /// The search on trial (`checkers-lab match --search-b candidate`, `checkers analyse
    /// --search candidate`): none is now, so it is the computer's. The table of the
    /// search's trials in the lab's notes (`checkers::lab::notes`, built with the `lab`
    /// feature) records their matches.
    pub(crate) const CANDIDATE: SearchParams = SearchParams::DEFAULT;
}

impl SearchParams {
    /// What a time budget's target is multiplied by in a position with `pieces` on the
    /// board: more in the opening, less in the ending.
    pub(crate) fn stage_share(&self, pieces: u32) -> f64 {
        if pieces >= self.budget_opening_pieces {
            self.budget_opening_share
        } else if pieces <= self.budget_ending_pieces {
            self.budget_ending_share
        } else {
            self.budget_middle_share
        }
    }
}

impl Default for SearchParams {
    /// [`SearchParams::DEFAULT`]: the numbers the computer plays with.
    fn default() -> SearchParams {
        SearchParams::DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use crate::engine::{Engine, Evaluation, Limits, SearchRequest, StopFlag, line_notation};
    use crate::rules::Position;

    /// A position `plies` moves into a deterministic playout from the start.
    fn playout(plies: usize, stride: usize) -> Position {
        let mut pos = Position::start();
        for i in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play_unchecked(&moves[(i * stride + 1) % moves.len()]);
        }
        pos
    }

    fn summary(engine: &mut Engine, request: &SearchRequest) -> String {
        // Recorded with the pattern table, before the network became the default: the
        // numbers are what is checked here, so the evaluation stays the table's.
        let request = &request.clone().with_evaluation(Evaluation::Learned);
        let r = engine.search(request, &StopFlag::new(), |_| {});
        let best = r
            .best_move
            .map(|m| request.position.notation(&m))
            .unwrap_or_default();
        format!(
            "{} {} {} {} {}",
            best,
            r.score.0,
            r.depth,
            r.nodes,
            line_notation(&request.position, &r.pv)
        )
    }

    /// Fixed-depth and fixed-node searches of a few positions as the search answered
    /// them before its numbers were gathered here (best move, score, depth, nodes,
    /// principal variation): the defaults must keep the computer's play exactly.
    const RECORDED: &str = "\
B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 10-15 -2 11 200682 10-15 22-18 15x22 25x18 11-16 26-22 16-20 23-19 7-11 21-17 11-15 18x11 8x15 19x10 6x15
B:W18,21,23,27,28,29,31,32:B1,2,3,4,5,6,8,12 5-9 10 11 125250 5-9 18-14 9x18 23x14 1-5 27-23 12-16 23-18 8-11 29-25 6-9 14-10 9-14 18x9 5x14
B:W14,22,26,28,29,32:B1,5,13,15,16,19 16-20 -111 13 22273 16-20 29-25 1-6 14-10 6-9 10-7 9-14 7-3 14-18 32-27 5-9 3-7 9-14
W:WK19,K23:B12,K28 23-18 32 14 14397 23-18 28-32 18-15 32-28 15-11 28-32 11-7 32-28 7-2 28-32 19-23 32-28 23-18 28-24
0 9-13 -6 9 77755 9-13 24-19 5-9 22-17 13x22 26x17 10-15 19x10 6x15 23-19 15x24 27x20
1 24-20 3 9 49179 24-20 9-14 23-18 14x23 27x11 7x16 20x11 8x15 22-18 15x22 26x17 10-15 25-22
2 7-11 7 9 24952 7-11 27-23 3-7 22-17 15x22 25x18 9-13 24-19 13x22 26x17 11-15 18x11 8x24 28x19 4-8
3 26-23 1 9 30215 26-23 10-14 24-19 15x24 27x20 11-16 20x11 7x16 28-24 6-10 31-27 16-20
4 10-14 5 9 17299 10-14 24-19 15x24 27x20 6-10 30-26 11-16 20x11 7x16 28-24 4-8 24-19
5 24-19 -7 9 10753 24-19 15x24 28x19 7-10 27-24 11-16 22-17 9-13 18x9 13x22 25x18 5x14 18x9 6x13
6 15x24 244 0 1 15x24
7 28x19 -3 9 11602 28x19 11-16 18-15 7-10 22-17 9-13 25-22 4-8 29-25
nodes 5-9 12 9 50000 5-9 18-14 9x18 23x14 1-5 27-23 8-11 28-24 2-7 21-17 6-9";

    #[test]
    fn truncation_reaches_a_depth_with_a_fraction_of_the_nodes() {
        let nodes = |truncation_soft: i32, pos: Position, depth: u32| {
            let mut request = SearchRequest::new(pos, Limits::depth(depth));
            request.params.truncation_soft = truncation_soft;
            Engine::new(1)
                .search(&request, &StopFlag::new(), |_| {})
                .nodes
        };
        let mid = playout(14, 3);
        for (pos, depth) in [(Position::start(), 13), (mid, 12)] {
            let (with, without) = (nodes(20, pos, depth), nodes(0, pos, depth));
            assert!(
                with * 2 < without,
                "{pos}: {with} nodes with, {without} without"
            );
        }
    }

    #[test]
    fn the_default_numbers_search_exactly_as_before() {
        let mut out = Vec::new();
        let mid = playout(14, 3);
        let late = playout(36, 7);
        let kings: Position = "W:WK19,K23:BK28,12".parse().expect("a valid position");
        for (pos, depth) in [(Position::start(), 11), (mid, 11), (late, 13), (kings, 14)] {
            let request = SearchRequest::new(pos, Limits::depth(depth));
            out.push(format!("{pos} {}", summary(&mut Engine::new(1), &request)));
        }
        // One engine over several searches (its table and history carry over), with
        // noise, contempt and a game history.
        let mut engine = Engine::new(1);
        let mut history = Vec::new();
        let mut pos = Position::start();
        for i in 0..8 {
            let mut request = SearchRequest::new(pos, Limits::depth(9));
            request.noise = 35;
            request.contempt = 15;
            request.seed = 7;
            // As a player searches: the only moves of plies 4 and 5 are played at once.
            request.only_move_at_once = true;
            request.history = history.clone();
            out.push(format!("{i} {}", summary(&mut engine, &request)));
            let request = request.with_evaluation(Evaluation::Learned);
            let result = engine.search(&request, &StopFlag::new(), |_| {});
            history.push(pos);
            pos = pos.play_unchecked(&result.best_move.expect("a move"));
        }
        let request = SearchRequest::new(mid, Limits::nodes(50_000));
        out.push(format!("nodes {}", summary(&mut Engine::new(1), &request)));
        for (now, before) in out.iter().zip(RECORDED.lines()) {
            assert_eq!(now, before);
        }
        assert_eq!(out.len(), RECORDED.lines().count());
    }
}
