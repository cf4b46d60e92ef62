//! The computer player: legal moves always, forced wins, draws by repetition, stopping,
//! determinism, and levels that differ in strength.

use crate::engine::{Engine, Level, Limits, Score, SearchEvent, SearchRequest, StopFlag};
use crate::game::Game;
use crate::rules::{Color, Move, Position};
use crate::rules::{DrawReason, Outcome};
use crate::session::{Player, Seats, Session};
use proptest::prelude::*;
use std::time::Duration;

fn search(pos: &Position, limits: Limits) -> crate::engine::SearchResult {
    Engine::new(1).search(&SearchRequest::new(*pos, limits), &StopFlag::new(), |_| {})
}

fn fen(text: &str) -> Position {
    text.parse().unwrap()
}

/// Plays the line from `pos`, checking each move is legal, and returns the end position.
fn replay(pos: &Position, line: &[Move]) -> Position {
    line.iter().fold(*pos, |p, m| p.play(m).unwrap())
}

/// A position after `choices.len()` random legal moves from the start (fewer if the game
/// ends first).
fn playout(choices: &[usize]) -> Position {
    let mut pos = Position::start();
    for &c in choices {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.play_unchecked(&moves[c % moves.len()]);
    }
    pos
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_engine_always_plays_a_legal_move(
        choices in prop::collection::vec(any::<usize>(), 0..80),
        depth in 1u32..5,
        noise in 0i32..150,
    ) {
        let pos = playout(&choices);
        let mut request = SearchRequest::new(pos, Limits::depth(depth));
        request.noise = noise;
        let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
        match result.best_move {
            None => prop_assert!(pos.outcome().is_some()),
            Some(m) => {
                prop_assert!(pos.is_legal(&m), "{} in {}", m, pos);
                prop_assert_eq!(result.pv.first(), Some(&m));
                replay(&pos, &result.pv);
            }
        }
    }
}

#[test]
fn two_kings_catch_a_king_in_the_double_corner() {
    let pos = fen("B:WK1:BK10,K14");
    let result = search(&pos, Limits::depth(30));
    assert_eq!(result.score, Score::win_in(15), "{result:?}");
    assert_eq!(result.score.to_string(), "win in 15");
    assert_eq!(result.pv.len(), 15);
    let end = replay(&pos, &result.pv);
    assert_eq!(end.outcome().unwrap().pdn_result(), "1-0");
    // Seen from the defender, one ply earlier: a loss in 16.
    let result = search(&fen("W:WK5:BK14,K10"), Limits::depth(30));
    assert_eq!(result.score, Score::loss_in(16));
}

#[test]
fn short_wins_are_found_with_their_move() {
    // The White king in the single corner can only go to 8: fill it.
    let pos = fen("B:WK4:BK11,K12");
    let result = search(&pos, Limits::depth(10));
    assert_eq!(result.score, Score::win_in(1));
    assert_eq!(pos.notation(&result.best_move.unwrap()), "12-8");
    // Give way so that the king must step into a jump.
    let pos = fen("B:WK4:BK15,K16");
    let result = search(&pos, Limits::depth(10));
    assert_eq!(result.score, Score::win_in(3));
    assert!(replay(&pos, &result.pv).outcome().is_some());
}

#[test]
fn a_one_ply_search_sees_the_exchange_to_its_end() {
    // 14-18 would be taken at once by 23x14; the forced capture is searched even at
    // depth 1, so the man steps to 17 instead.
    let pos = fen("B:W23:B14");
    let result = search(&pos, Limits::depth(1));
    assert_eq!(pos.notation(&result.best_move.unwrap()), "14-17");
}

#[test]
fn repetition_is_scored_as_a_draw() {
    // Black's lone king against two kings is lost in the long run, but the game has been
    // shuffling: 1-5 28-24 5-1 24-28 brought the start back, and 1-5 now repeats the
    // position after Black's first move.
    let start = fen("B:WK28,K27:BK1");
    let line = ["1-5", "28-24", "5-1", "24-28"];
    let mut history = Vec::new();
    let mut pos = start;
    for text in line {
        history.push(pos);
        pos = pos.play_text(text).unwrap();
    }
    assert_eq!(pos, start);
    let without = search(&pos, Limits::depth(6));
    assert!(without.score < Score::DRAW, "{without:?}");
    let mut request = SearchRequest::new(pos, Limits::depth(6));
    request.history = history;
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    assert_eq!(result.score, Score::DRAW, "{result:?}");
    assert_eq!(pos.notation(&result.best_move.unwrap()), "1-5");
    // With contempt the draw costs the side to move a little, but is still its best.
    request.contempt = 15;
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    assert_eq!(result.score, Score(-15), "{result:?}");
    assert_eq!(pos.notation(&result.best_move.unwrap()), "1-5");
}

#[test]
fn a_search_stopped_before_it_starts_still_moves() {
    let stop = StopFlag::new();
    stop.stop();
    for pos in [
        Position::start(),
        fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"),
    ] {
        let request = SearchRequest::new(pos, Limits::infinite());
        let result = Engine::new(1).search(&request, &stop, |_| panic!("no depth completes"));
        assert!(pos.is_legal(&result.best_move.unwrap()));
        assert_eq!(result.depth, 0);
        assert!(result.nodes <= 1, "{}", result.nodes);
    }
}

#[test]
fn a_background_search_reports_depths_and_stops_on_request() {
    let handle = Engine::new(1).spawn(SearchRequest::new(Position::start(), Limits::infinite()));
    // Wait for the first completed depth, then ask for the move now.
    let first = handle.events().recv().unwrap();
    let SearchEvent::Depth(info) = first else {
        panic!("expected a depth report first, got {first:?}");
    };
    assert_eq!(info.depth, 1);
    handle.stop();
    let (_engine, result) = handle.join();
    let m = result.best_move.unwrap();
    assert!(Position::start().is_legal(&m));
    assert!(result.depth < 64);
}

#[test]
fn node_and_depth_limits_are_kept() {
    let result = search(&Position::start(), Limits::nodes(5_000));
    assert!(result.nodes <= 5_000);
    assert!(Position::start().is_legal(&result.best_move.unwrap()));
    let result = search(&Position::start(), Limits::depth(5));
    assert_eq!(result.depth, 5);
}

#[test]
fn a_fixed_depth_search_is_deterministic() {
    let pos = fen("W:W17,21,22,23,25,26,27,28,30,31,32:B1,2,3,5,6,7,9,10,11,12,15");
    let a = search(&pos, Limits::depth(9));
    let b = search(&pos, Limits::depth(9));
    assert_eq!(
        (a.best_move, a.score, a.nodes, &a.pv),
        (b.best_move, b.score, b.nodes, &b.pv)
    );
    // The same with a level's noise and seed.
    let level = Level::new(3).unwrap();
    let req = level.request(pos, Vec::new(), Duration::from_secs(60), 7);
    let run = || Engine::new(1).search(&req, &StopFlag::new(), |_| {});
    let (x, y) = (run(), run());
    assert_eq!(
        (x.best_move, x.score, x.nodes, &x.pv),
        (y.best_move, y.score, y.nodes, &y.pv)
    );
}
#[test]
fn the_avx2_build_of_the_network_searches_as_the_portable_one() {
    use crate::engine::nnue::Nnue;
    use std::sync::Arc;
    let net = Nnue::embedded();
    // Where the processor has AVX2, the network runs compiled for it.
    #[cfg(target_arch = "x86_64")]
    assert_eq!(
        net.uses_avx2(),
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("popcnt")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
    );
    assert!(!net.portable().uses_avx2());
    let with = |network: Nnue, pos: Position, depth: u32| {
        let request = SearchRequest {
            network: Some(Arc::new(network)),
            ..SearchRequest::new(pos, Limits::depth(depth))
        };
        Engine::new(1).search(&request, &StopFlag::new(), |_| {})
    };
    for (text, depth) in [
        (
            "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
            11,
        ),
        (
            "W:W17,21,22,23,25,26,27,28,30,31,32:B1,2,3,5,6,7,9,10,11,12,15",
            11,
        ),
        ("B:W18,20,22,24,27,28,31,K30:B3,5,9,11,12,16,K26", 12),
    ] {
        let pos = fen(text);
        let (a, b) = (
            with(net.clone(), pos, depth),
            with(net.portable(), pos, depth),
        );
        assert_eq!(
            (a.best_move, a.score, a.nodes, &a.pv),
            (b.best_move, b.score, b.nodes, &b.pv),
            "{text}"
        );
    }
}

#[test]
fn positions_without_moves_and_with_one_move() {
    let over = fen("B:W8,11:B4");
    assert_eq!(search(&over, Limits::depth(5)).best_move, None);
    // Diagram 87 after 14-9: Black must take 5x14. Searched, it scores what follows
    // (White has no piece left: a win in one ply)...
    let forced = fen("B:W9:B5,11");
    let result = search(&forced, Limits::infinite());
    assert_eq!(forced.notation(&result.best_move.unwrap()), "5x14");
    assert_eq!((result.depth, result.score), (1, Score::win_in(1)));
    // ...and a player, who has nothing to choose, plays it at once, unsearched.
    let request = SearchRequest {
        only_move_at_once: true,
        ..SearchRequest::new(forced, Limits::infinite())
    };
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    assert_eq!(forced.notation(&result.best_move.unwrap()), "5x14");
    assert_eq!(result.depth, 0);
    let level = Level::default().request(forced, Vec::new(), Duration::from_secs(60), 0);
    assert!(level.only_move_at_once);
}

/// How deep the strongest level (which has no depth of its own) searches in
/// [`computer_game`].
const STRONGEST_DEPTH: u32 = 8;

/// A game between two computer players through the session, as `checkers-lab match` plays
/// it: each with its own engine, adjudicated a draw at `cap` plies. Each level searches
/// to its own depth (the strongest to [`STRONGEST_DEPTH`]) with no time limit, so the
/// game is the same on any machine, however busy.
fn computer_game(game: Game, black: u8, white: u8, cap: usize, seed: u64) -> Session {
    let seats = Seats {
        black: Player::Computer(Level::new(black).unwrap()),
        white: Player::Computer(Level::new(white).unwrap()),
    };
    let mut session = Session::new(game)
        .with_seats(seats)
        .with_ply_cap(cap)
        .with_seed(seed);
    let mut engines = [Engine::new(1), Engine::new(1)];
    while let Some((color, level)) = session.computer_to_move() {
        let engine = &mut engines[usize::from(color == Color::White)];
        let mut request = session.move_request().unwrap();
        request.limits = Limits::depth(level.max_depth().unwrap_or(STRONGEST_DEPTH));
        request.threads = 1;
        let result = engine.search(&request, &StopFlag::new(), |_| {});
        session.computer_played(&result).unwrap();
    }
    session
}

#[test]
fn level_ten_beats_level_one() {
    let openings = [["9-13", "21-17", "5-9"], ["11-15", "23-19", "8-11"]];
    for (i, opening) in openings.iter().enumerate() {
        let mut game = Game::new();
        for text in opening {
            game.play_text(text).unwrap();
        }
        for strong in Color::ALL {
            let (black, white) = match strong {
                Color::Black => (10, 1),
                Color::White => (1, 10),
            };
            let session = computer_game(game.clone(), black, white, 300, i as u64);
            let result = session.game().result();
            assert!(
                matches!(result, Some(Outcome::Win { winner, .. }) if winner == strong),
                "{result:?} after {} plies",
                session.game().moves().len()
            );
        }
    }
}

#[test]
fn weak_levels_vary_with_the_seed_and_repeat_with_it() {
    let pos = Position::start();
    let level = Level::MIN;
    let choose = |seed| {
        let req = level.request(pos, Vec::new(), Duration::from_secs(60), seed);
        Engine::new(1)
            .search(&req, &StopFlag::new(), |_| {})
            .best_move
            .unwrap()
    };
    let moves: std::collections::BTreeSet<Move> = (0..16).map(choose).collect();
    assert!(moves.len() >= 2, "level 1 always plays {moves:?}");
    assert_eq!(choose(5), choose(5));
    // The strongest level has no noise.
    assert_eq!(Level::MAX.noise(), 0);
    assert_eq!(Level::MAX.max_depth(), None);
    assert!(Level::new(0).is_none() && Level::new(11).is_none());
}

#[test]
fn a_game_always_ends_at_the_ply_limit() {
    let session = computer_game(Game::new(), 4, 4, 12, 3);
    assert_eq!(
        session.game().result(),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        }),
        "adjudicated a draw"
    );
    assert_eq!(session.game().moves().len(), 12);
}

/// A search with helper threads (Lazy SMP) proves the same forced results, completes
/// its depth and stops at once when asked. One thread finds the shortest win; with
/// helpers, which thread's proof is taken depends on their timing, so the win is
/// forced and played out, but not always the shortest.
#[test]
fn helper_threads_find_the_same_forced_results_and_stop() {
    let threaded = |pos: Position, limits: Limits, threads: usize| {
        let request = SearchRequest {
            threads,
            ..SearchRequest::new(pos, limits)
        };
        Engine::new(1).search(&request, &StopFlag::new(), |_| {})
    };
    let pos = fen("B:WK1:BK10,K14");
    let alone = threaded(pos, Limits::depth(30), 1);
    assert_eq!(alone.score, Score::win_in(15), "{alone:?}");
    let result = threaded(pos, Limits::depth(30), 3);
    assert!(result.score.is_win(), "{result:?}");
    assert!(
        result.score.plies_to_end().is_some_and(|plies| plies >= 15),
        "no win is shorter than the shortest: {result:?}"
    );
    assert_eq!(
        replay(&pos, &result.pv).outcome().unwrap().pdn_result(),
        "1-0"
    );
    let mid = fen("B:W18,21,23,27,28,29,31,32:B1,2,3,4,5,6,8,12");
    let one = threaded(mid, Limits::depth(9), 1);
    let two = threaded(mid, Limits::depth(9), 2);
    assert_eq!((one.depth, two.depth), (9, 9));
    assert!(mid.is_legal(&two.best_move.unwrap()));
    let stop = StopFlag::new();
    stop.stop();
    let request = SearchRequest {
        threads: 4,
        ..SearchRequest::new(mid, Limits::infinite())
    };
    let stopped = Engine::new(1).search(&request, &stop, |_| panic!("no depth completes"));
    assert!(mid.is_legal(&stopped.best_move.unwrap()));
    assert_eq!(stopped.depth, 0);
}

/// A search of `pos` to `depth` for its `lines` best lines, from a fresh engine.
fn search_lines(pos: &Position, depth: u32, lines: usize) -> crate::engine::SearchResult {
    let request = SearchRequest::new(*pos, Limits::depth(depth)).with_lines(lines);
    Engine::new(1).search(&request, &StopFlag::new(), |_| {})
}

/// Checks that `result`'s lines start with different legal moves of `pos`, replay, are
/// in score order, and that the first is the best move's.
fn check_lines(pos: &Position, result: &crate::engine::SearchResult) {
    let firsts: Vec<Move> = result.lines.iter().map(|l| l.pv[0]).collect();
    for (i, m) in firsts.iter().enumerate() {
        assert!(pos.is_legal(m), "{m} in {pos}");
        assert!(!firsts[..i].contains(m), "{m} twice: {result:?}");
        replay(pos, &result.lines[i].pv);
    }
    assert!(
        result.lines.windows(2).all(|w| w[0].score >= w[1].score),
        "{result:?}"
    );
    assert_eq!(result.best_move, Some(firsts[0]));
    assert_eq!(
        (result.score, &result.pv),
        (result.lines[0].score, &result.lines[0].pv)
    );
}

#[test]
fn multi_pv_gives_the_best_lines_in_score_order() {
    let start = Position::start();
    let result = search_lines(&start, 8, 3);
    assert_eq!(result.lines.len(), 3, "{result:?}");
    assert_eq!(result.depth, 8);
    check_lines(&start, &result);
    // The first line is what a search of one line finds: the further lines are
    // searched in a table of their own.
    let single = search(&start, Limits::depth(8));
    assert_eq!(
        (single.best_move, single.score, &single.pv),
        (result.best_move, result.score, &result.pv)
    );
    assert_eq!(single.lines.len(), 1);
    assert_eq!(
        (single.lines[0].score, &single.lines[0].pv),
        (single.score, &single.pv)
    );
    // A middle game, and every depth reports its lines.
    let middle = fen("B:W19,20,21,22,24,25,26,29,31,32:B1,2,3,5,8,9,10,12,14,15");
    let request = SearchRequest::new(middle, Limits::depth(6)).with_lines(4);
    let mut reported = Vec::new();
    let result = Engine::new(1).search(&request, &StopFlag::new(), |info| {
        reported.push(info.lines.len());
    });
    assert_eq!(reported, [4; 6]);
    check_lines(&middle, &result);
}

#[test]
fn multi_pv_gives_as_many_lines_as_there_are_moves() {
    // 14-17 and 14-18 only.
    let pos = fen("B:W23:B14");
    let result = search_lines(&pos, 6, 5);
    assert_eq!(result.lines.len(), 2, "{result:?}");
    check_lines(&pos, &result);
    assert_eq!(pos.notation(&result.best_move.unwrap()), "14-17");
    // No legal move: no line.
    assert!(search_lines(&fen("B:W8,11:B4"), 6, 5).lines.is_empty());
}

#[test]
fn multi_pv_puts_the_winning_move_first_and_the_others_below() {
    // 12-8 shuts the White king in its corner: a win in one ply; no other move wins
    // as soon.
    let pos = fen("B:WK4:BK11,K12");
    let result = search_lines(&pos, 10, 3);
    assert_eq!(result.lines.len(), 3, "{result:?}");
    check_lines(&pos, &result);
    assert_eq!(pos.notation(&result.lines[0].pv[0]), "12-8");
    assert_eq!(result.lines[0].score, Score::win_in(1));
    assert!(result.lines[1].score < Score::win_in(1), "{result:?}");
}

#[test]
fn multi_pv_keeps_a_node_limit_over_all_its_lines() {
    let request = SearchRequest::new(Position::start(), Limits::nodes(20_000)).with_lines(5);
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    assert!(result.nodes <= 20_000, "{}", result.nodes);
    check_lines(&Position::start(), &result);
}
