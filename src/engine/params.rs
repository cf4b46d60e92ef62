//! The search's tunable numbers, in one place.

#[cfg(test)]
mod tests {
    use crate::engine::{Engine, Limits, SearchRequest, StopFlag, line_notation};
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
B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12 10-15 -1 11 334382 10-15 24-20 7-10 27-24 9-14 23-19 6-9 26-23 9-13 22-17 13x22 25x9 5x14 29-25
B:W18,21,23,27,28,29,31,32:B1,2,3,4,5,6,8,12 8-11 8 11 565037 8-11 28-24 6-10 24-19 11-16 18-15 1-6 27-24 16-20 23-18 20x27 31x24
B:W14,22,26,28,29,32:B1,5,13,15,16,19 1-6 -111 13 149753 1-6 14-10 6-9 10-7 9-14 32-27 14-18 29-25 16-20 7-3 5-9 3-7 9-14
W:WK19,K23:B12,K28 23-18 31 14 27699 23-18 28-32 18-15 32-28 15-11 28-32 11-7 32-27 7-10 27-32 19-23 32-28 10-14 28-24
0 9-14 -4 9 111299 9-14 22-17 11-16 25-22 16-20 23-18 14x23 26x19 10-15 19x10 7x14 17x10 6x15
1 24-20 4 9 137912 24-20 6-9 23-19 11-16 20x11 8x24 28x19 4-8 22-18 10-14
2 5-9 -1 9 72897 5-9 26-23 11-16 22-18 10-15 19x10 7x14 25-22 6-10
3 19-15 4 9 45691 19-15 10x19 24x15 16-20 22-18 7-10 27-24 20x27 31x24 10x19 24x15 2-7 28-24
4 10x19 89 0 1 10x19
5 24x15 4 0 1 24x15
6 16-20 5 9 61063 16-20 22-18 12-16 27-23 8-12 32-27 7-10 27-24 20x27 31x24 10x19 24x15
7 27-23 4 9 49991 27-23 12-16 23-19 16x23 26x19 7-10 30-26 2-7 21-17 8-11 15x8 4x11
nodes 8-11 15 8 50000 8-11 18-14 6-9 31-26 9x18 23x14 2-6 21-17 6-9 14-10";

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
            request.history = history.clone();
            out.push(format!("{i} {}", summary(&mut engine, &request)));
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
