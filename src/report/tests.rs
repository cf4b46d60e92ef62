//! The game report: a blunder the 4-piece databases prove marked `$4` with the better
//! move, the annotated PDN read back, the marks' thresholds, the summaries.

use super::annotate::annotated_pdn;
use super::judge::{Judge, judge_game};
use super::*;
use crate::engine::egdb::Egdb;
use crate::engine::{Limits, StopFlag};
use crate::pdn::{PdnGame, read_games};
use std::sync::Arc;

/// Black's two kings against White's one: a database win that `14-18` throws away
/// (White's king takes it, and one king against one is a draw).
const THROWN_WIN: &str = r#"[Event "Endgame lesson"]
[Black "Ann"]
[White "Bob"]
[SetUp "1"]
[FEN "B:WK23:BK1,K14"]
1. 14-18 23x14 *
"#;

fn record(pdn: &str) -> PdnGame {
    read_games(pdn).remove(0).unwrap()
}

/// How the tests judge a game: a shallow search, the 4-piece databases if given.
fn judge(egdb: Option<Arc<Egdb>>) -> Judge {
    Judge {
        limits: Limits::depth(6),
        egdb,
        threads: 1,
        hash_mb: 4,
        params: crate::engine::SearchParams::DEFAULT,
        evaluation: crate::engine::Evaluation::default(),
    }
}

fn report_of(record: &PdnGame, egdb: Option<Arc<Egdb>>) -> Report {
    let judged = judge_game(
        &judge(egdb),
        record.start,
        &record.moves,
        &StopFlag::new(),
        |_| {},
    )
    .unwrap();
    assert_eq!(judged.len(), record.moves.len() + 1);
    Report::new(record.start, &record.moves, &judged)
}

#[test]
fn a_blunder_the_databases_prove_is_marked_4_with_the_better_move() {
    let db = crate::engine::tests::egdb::db().clone();
    let game = record(THROWN_WIN);
    let report = report_of(&game, Some(db.clone()));
    let blunder = &report.moves[0];
    assert_eq!(blunder.mark, Some(Mark::Blunder));
    assert!(matches!(
        blunder.exact,
        Some((Verdict::Win(_), Verdict::Draw))
    ));
    // The better move keeps the win, as the databases say.
    let better = *blunder.better.first().expect("a better move");
    assert_ne!(better, blunder.played);
    let after = db.probe(&game.start.play_unchecked(&better)).unwrap();
    assert!(matches!(after.before_move(), Verdict::Win(_)), "{after:?}");
    // White's forced capture is not marked: it made White's result better.
    assert_eq!(report.moves[1].mark, None);
    assert_eq!(report.summary(Color::Black).blunders, 1);
    assert_eq!(report.summary(Color::White).count(Mark::Blunder), 0);

    let text = annotated_pdn(&game, &report);
    // Comments wrap where the line is full: compared with single spaces.
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let better_text = game.start.notation(&better);
    assert!(
        flat.contains("1. 14-18 $4 {Blunder: threw the database win away."),
        "{text}"
    );
    assert!(flat.contains(&format!("Better {better_text}")), "{text}");
    assert!(
        text.contains("[Annotator \"checkers game report\"]"),
        "{text}"
    );
    // The crate's reader takes the annotated game back, comments and NAGs skipped.
    let back = record(&text);
    assert_eq!(back.moves, game.moves);
    assert_eq!(back.start, game.start);
    assert_eq!(back.tag("Black"), Some("Ann"));

    let words = super::words::report_text(&report, [Some("Ann"), Some("Bob")]);
    assert!(words.contains("14-18??"), "{words}");
    assert!(words.contains(&format!("better {better_text}")), "{words}");
    assert!(
        words.contains("Black (Ann): 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{words}"
    );
}

/// A judgement with `score` for the side to move and `best` as its best move.
fn judged(score: i32, best: Move) -> Judgement {
    Judgement {
        score: Score(score),
        line: vec![best],
        depth: 10,
        verdict: None,
        only_move: None,
    }
}

#[test]
fn marks_follow_the_men_given_away() {
    assert_eq!(Mark::for_loss(INACCURACY - 1), None);
    assert_eq!(Mark::for_loss(INACCURACY), Some(Mark::Inaccuracy));
    assert_eq!(Mark::for_loss(MISTAKE - 1), Some(Mark::Inaccuracy));
    assert_eq!(Mark::for_loss(MISTAKE), Some(Mark::Mistake));
    assert_eq!(Mark::for_loss(BLUNDER - 1), Some(Mark::Mistake));
    assert_eq!(Mark::for_loss(BLUNDER), Some(Mark::Blunder));
    let nags: Vec<&str> = [Mark::Good, Mark::Inaccuracy, Mark::Mistake, Mark::Blunder]
        .map(Mark::nag)
        .to_vec();
    assert_eq!(nags, ["$1", "$6", "$2", "$4"]);

    let start = Position::start();
    let played = start.parse_move("11-15").unwrap();
    let other = start.parse_move("9-13").unwrap();
    let after = start.play_unchecked(&played);
    let reply = after.parse_move("23-19").unwrap();
    // Black's 11-15 (not the best move) takes Black from `before` to `after`.
    let mark = |before: i32, after_for_white: i32| {
        let judgements = [judged(before, other), judged(after_for_white, reply)];
        let report = Report::new(start, &[played], &judgements);
        (report.moves[0].mark, report.moves[0].loss)
    };
    assert_eq!(mark(20, 9), (None, 29));
    assert_eq!(mark(20, 10), (Some(Mark::Inaccuracy), 30));
    assert_eq!(mark(20, 40), (Some(Mark::Mistake), 60));
    assert_eq!(mark(20, 100), (Some(Mark::Blunder), 120));
    // A better score after than before (the next search saw further) gives nothing.
    assert_eq!(mark(20, -50), (None, 0));
    // Beyond three men the game is decided: five men up to four is no mistake.
    assert_eq!(mark(500, -400), (None, 0));
    // ... but a won game let slip to an even one is.
    assert_eq!(mark(Score::win_in(9).0, 0), (Some(Mark::Blunder), DECIDED));
    // The search's own best move gives nothing away, whatever the next search says.
    let judgements = [judged(20, played), judged(200, reply)];
    let report = Report::new(start, &[played], &judgements);
    assert_eq!((report.moves[0].mark, report.moves[0].loss), (None, 0));
}

#[test]
fn summaries_count_each_players_marks_and_average_loss() {
    let game = record("1. 11-15 23-19 2. 8-11 22-17 *");
    let mut pos = game.start;
    let mut positions = vec![pos];
    for m in &game.moves {
        pos = pos.play_unchecked(m);
        positions.push(pos);
    }
    // Best moves that are never the ones played: 9-13 for Black, 24-20 for White.
    let best = |i: usize| {
        let p = positions[i];
        let word = if p.turn() == Color::Black {
            "9-13"
        } else {
            "24-20"
        };
        p.parse_move(word).unwrap()
    };
    // Scores for the side to move. Black's 11-15 gives nothing; White's 23-19 gives
    // 0.7 men (a mistake), Black's 8-11 0.3 (an inaccuracy), White's 22-17 1.6 (a
    // blunder).
    let scores = [0, 0, 70, -40, 200];
    let judgements: Vec<Judgement> = scores
        .iter()
        .enumerate()
        .map(|(i, s)| judged(*s, best(i)))
        .collect();
    let report = Report::new(game.start, &game.moves, &judgements);
    assert!(report.is_complete());
    let black = report.summary(Color::Black);
    let white = report.summary(Color::White);
    assert_eq!((black.moves, black.count(Mark::Inaccuracy)), (2, 1));
    assert_eq!(black.total_loss, 30);
    assert_eq!(report.moves[2].mark, Some(Mark::Inaccuracy));
    assert_eq!(report.moves[0].mark, None);
    assert_eq!(white.moves, 2);
    assert_eq!(
        (white.inaccuracies, white.mistakes, white.blunders),
        (0, 1, 1)
    );
    assert_eq!(white.total_loss, 70 + 160);
    assert!((white.average_loss() - 1.15).abs() < 1e-9);
    // The graph is Black's view of each position, held within three men.
    assert_eq!(report.graph, [0, 0, 70, 40, 200]);
    // A report of the first positions alone scores the moves so far.
    let partial = Report::new(game.start, &game.moves, &judgements[..3]);
    assert_eq!(partial.moves.len(), 2);
    assert!(!partial.is_complete());

    // The annotated game: the marked moves' NAGs, a comment with the better move.
    let text = annotated_pdn(&game, &report);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("2. 8-11 $6 {Inaccuracy: gave away 0.30 men. Better 9-13.}"),
        "{text}"
    );
    assert!(
        flat.contains("2. ... 22-17 $4 {Blunder: gave away 1.60 men. Better 24-20.}"),
        "{text}"
    );
    assert!(
        flat.contains("23-19 $2 {Mistake: gave away 0.70 men."),
        "{text}"
    );
    assert!(
        flat.contains("{Game report: Black: 1 inaccuracy, 0 mistakes, 0 blunders;"),
        "{text}"
    );
    assert_eq!(record(&text).moves, game.moves);
}

#[test]
fn report_in_plain_mode_prints_the_report_of_the_game_so_far() {
    let db = crate::engine::tests::egdb::db().clone();
    let game = crate::game::Game::from_position(record(THROWN_WIN).start);
    let session = crate::session::Session::new(game).with_egdb(Some(db));
    let mut plain = crate::plain::Plain::new(session, crate::runtime::Saving::Off);
    let (reply, _) = plain.answer("report");
    assert!(reply.contains("nothing to report"), "{reply}");
    plain.answer("14-18");
    plain.answer("23x14");
    let (reply, done) = plain.answer("report");
    assert!(!done);
    assert!(reply.starts_with("Game report"), "{reply}");
    assert!(
        reply.contains("14-18??") && reply.contains("blunder: threw the database win away"),
        "{reply}"
    );
    assert!(
        reply.contains("Black: 0 inaccuracies, 0 mistakes, 1 blunder"),
        "{reply}"
    );
}

#[test]
fn only_a_move_the_databases_prove_is_marked_good() {
    let start: Position = "B:WK23:BK1,K14".parse().unwrap();
    let played = start.parse_move("14-10").unwrap();
    let other = start.parse_move("1-6").unwrap();
    let after = start.play_unchecked(&played);
    let reply = after.legal_moves()[0];
    let exact = |only_move| {
        [
            Judgement {
                score: Score::win_in(9),
                line: vec![played],
                depth: 0,
                verdict: Some(Verdict::Win(9)),
                only_move,
            },
            Judgement {
                score: Score::loss_in(8),
                line: vec![reply],
                depth: 0,
                verdict: Some(Verdict::Loss(8)),
                only_move: None,
            },
        ]
    };
    // The one move of several that keeps the win: good, `$1`, no better move.
    let report = Report::new(start, &[played], &exact(Some(played)));
    assert_eq!(report.moves[0].mark, Some(Mark::Good));
    assert!(report.moves[0].better.is_empty());
    assert_eq!(report.summary(Color::Black).good, 1);
    let game = PdnGame {
        moves: vec![played],
        ..PdnGame::new(start)
    };
    let text = annotated_pdn(&game, &report);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains("1. 14-10 $1 {Good move: the only move that keeps the win.}"),
        "{text}"
    );
    // Another move kept the win too: a kept verdict is simply not marked.
    let report = Report::new(start, &[played], &exact(Some(other)));
    assert_eq!(report.moves[0].mark, None);
    let report = Report::new(start, &[played], &exact(None));
    assert_eq!(report.moves[0].mark, None);
}

#[test]
fn the_text_reports_scores_are_for_black_and_agree_with_the_amount_given_away() {
    let game = record("1. 11-15 23-19 2. 8-11 *");
    let mut pos = game.start;
    let mut best = Vec::new();
    for m in &game.moves {
        best.push(*pos.legal_moves().iter().find(|b| *b != m).unwrap());
        pos = pos.play_unchecked(m);
    }
    best.push(pos.legal_moves()[0]);
    // Scores for the side to move: White's 23-19 takes White from +0.20 to -0.70 (Black
    // +0.70); Black's 8-11 takes Black from +0.70 to -6.26, past the three men counted.
    let scores = [0, 20, 70, 626];
    let judgements: Vec<Judgement> = scores
        .iter()
        .zip(&best)
        .map(|(s, b)| judged(*s, *b))
        .collect();
    let report = Report::new(game.start, &game.moves, &judgements);
    let text = super::words::report_text(&report, [None, None]);
    assert!(
        text.starts_with("Scores are in men for Black: + Black ahead, - White;"),
        "{text}"
    );
    let line = |label: &str| {
        text.lines()
            .find(|l| l.starts_with(label))
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
    };
    // White's move: Black's view, + Black ahead, as the graph and analysis board say.
    assert!(
        line("1...").starts_with("1... 23-19? -0.20 -> +0.70 mistake: gave away 0.90 men;"),
        "{text}"
    );
    // The amount counts -6.26 as -3: the line says so.
    assert!(
        line("2.").starts_with(
            "2. 8-11?? +0.70 -> -6.26 blunder: gave away 3.70 men (a score past 3 men counts as 3);"
        ),
        "{text}"
    );
}

#[test]
fn a_better_multi_jump_is_given_by_its_route_and_its_comment_keeps_the_short_form() {
    // The seed's worked capture: White's man on 22 takes 18 and 11.
    let position: Position = "W:W22,30:B1,11,18".parse().unwrap();
    let jump = position.parse_move("22x8").unwrap();
    let reply = position.play_unchecked(&jump).parse_move("1-6").unwrap();
    let scored = ScoredMove {
        position,
        played: jump,
        before: Score(0),
        after: Score(-80),
        loss: 80,
        exact: None,
        mark: Some(Mark::Mistake),
        better: vec![jump, reply],
    };
    assert_eq!(words::marked_move(&scored), "22x15x8?");
    assert_eq!(
        words::better(&scored).as_deref(),
        Some("better 22x15x8 (22x15x8 1-6)")
    );
    let comment = words::comment(&scored).unwrap();
    assert!(comment.ends_with("Better 22x8 (22x8 1-6)."), "{comment}");
}
