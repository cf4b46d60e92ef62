//! Endgame databases: the index round-trips for every signature up to five pieces, a
//! build checked position by position against an independent exhaustive search, known
//! results from the literature, `verify` on a 4-piece build, damaged files, and the
//! engine playing database endings perfectly.
//!
//! One 4-piece build (about 5 s of one core in release) serves every test here.

use crate::engine::egdb::{self, BuildOptions, Egdb, Layout, Signature, Verdict, index};
use crate::engine::{Engine, Level, Limits, Score, SearchRequest, StopFlag};
use crate::game::Game;
use crate::rules::{Bitboard, Color, Outcome, Position, Square};
use crate::session::{Player, Seats, Session};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::{Arc, OnceLock};

/// The folder of the shared build, made afresh once per test run: beside the test
/// binary, in the build's own folder (so nothing is left outside it).
fn folder() -> PathBuf {
    let binary = std::env::current_exe().unwrap();
    binary.parent().unwrap().join("egdb-unit-tests")
}

/// The slices of up to four pieces, built once for all the tests of this module (and
/// the game report's, which prove a blunder with them).
pub(crate) fn db() -> &'static Arc<Egdb> {
    static DB: OnceLock<Arc<Egdb>> = OnceLock::new();
    DB.get_or_init(|| {
        let dir = folder();
        let _ = std::fs::remove_dir_all(&dir);
        let options = BuildOptions {
            dir: dir.clone(),
            max_pieces: 4,
            threads: 2,
        };
        let report = egdb::build(&options, None, |_| {}).unwrap();
        assert_eq!(report.built.len(), 41);
        let (db, problems) = Egdb::open(&dir);
        assert!(problems.is_empty(), "{problems:?}");
        assert_eq!(db.complete_pieces(), 4);
        Arc::new(db)
    })
}

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

#[test]
fn indexing_round_trips_for_every_signature_up_to_five_pieces() {
    let all = Signature::all(5);
    assert_eq!(all.len(), 85);
    for sig in all {
        let layout = Layout::new(sig);
        // Every index of the small tables; about 3000 spread over each large one.
        let step = (layout.size / 3000).max(1);
        let mut seen = 0;
        let mut i = 0;
        while i < layout.size {
            if let Some(p) = layout.position(i) {
                seen += 1;
                assert_eq!(p.turn(), Color::Black);
                assert_eq!(Signature::of(&p), sig, "{p}");
                let checked = Position::from_parts(
                    p.side(Color::Black),
                    p.side(Color::White),
                    p.kings(),
                    Color::Black,
                );
                assert_eq!(checked, Ok(p), "{sig} index {i}");
                assert_eq!(layout.index(&p).0, i, "{sig}: {p}");
                // The same position with White to move is its mirror in the mirror table.
                let white = p.with_turn(Color::White);
                let mirrored = index::canonical(&white);
                assert_eq!(Signature::of(&mirrored), sig.mirror());
                assert_eq!(index::canonical(&mirrored.with_turn(Color::White)), p);
            }
            i += step;
        }
        assert!(seen > 0, "{sig}");
        assert_eq!(layout.position(layout.size), None);
    }
}

/// Every placement of `pieces` (each a colour and whether a king) on the board, men
/// off their crowning rows, one square each.
fn placements(
    pieces: &[(Color, bool)],
    taken: Bitboard,
    out: &mut Vec<Vec<(Square, Color, bool)>>,
) {
    fn go(
        pieces: &[(Color, bool)],
        taken: Bitboard,
        from: usize,
        acc: &mut Vec<(Square, Color, bool)>,
        out: &mut Vec<Vec<(Square, Color, bool)>>,
    ) {
        let Some(&(color, king)) = pieces.first() else {
            out.push(acc.clone());
            return;
        };
        // Pieces of one kind are placed in increasing square order (no duplicates).
        let same_as_last = acc.last().is_some_and(|&(_, c, k)| (c, k) == (color, king));
        let start = if same_as_last { from } else { 0 };
        for i in start..32 {
            let sq = Square::ALL[i];
            let crown = match color {
                Color::Black => sq.row() == 7,
                Color::White => sq.row() == 0,
            };
            if taken.contains(sq) || (!king && crown) {
                continue;
            }
            acc.push((sq, color, king));
            go(&pieces[1..], taken.with(sq), i + 1, acc, out);
            acc.pop();
        }
    }
    go(pieces, taken, 0, &mut Vec::new(), out);
}

/// Every position of two or three pieces (each side at least one), both sides to move.
fn small_positions() -> Vec<Position> {
    let kinds = [
        (Color::Black, false),
        (Color::Black, true),
        (Color::White, false),
        (Color::White, true),
    ];
    let mut positions = Vec::new();
    for n in 2..=3usize {
        // Multisets of kinds of size n, in kind order.
        let mut stack = vec![(Vec::new(), 0usize)];
        while let Some((chosen, next)) = stack.pop() {
            if chosen.len() == n {
                let pieces: Vec<(Color, bool)> = chosen.iter().map(|&k| kinds[k]).collect();
                if !pieces.iter().any(|p| p.0 == Color::Black)
                    || !pieces.iter().any(|p| p.0 == Color::White)
                {
                    continue;
                }
                let mut out = Vec::new();
                placements(&pieces, Bitboard::EMPTY, &mut out);
                for placement in out {
                    let mut sides = [Bitboard::EMPTY; 2];
                    let mut kings = Bitboard::EMPTY;
                    for (sq, color, king) in placement {
                        sides[color as usize] = sides[color as usize].with(sq);
                        if king {
                            kings = kings.with(sq);
                        }
                    }
                    for turn in Color::ALL {
                        positions
                            .push(Position::from_parts(sides[0], sides[1], kings, turn).unwrap());
                    }
                }
                continue;
            }
            for k in next..4 {
                let mut more = chosen.clone();
                more.push(k);
                stack.push((more, k));
            }
        }
    }
    positions
}

/// Solves `positions` (closed under moves, apart from moves that leave the side to move
/// without a piece) by forward value iteration: distance by distance, a position is won
/// at `n` if a move reaches a loss at `n - 1`, lost at `n` if every move reaches a win
/// and the longest is at `n - 1`. Nothing in common with the builder but the rules.
fn exhaustive(positions: &[Position]) -> Vec<Option<(bool, u32)>> {
    let number: HashMap<Position, usize> =
        positions.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    // Children as indices; `usize::MAX` stands for a child with no piece to move (lost).
    let children: Vec<Vec<usize>> = positions
        .iter()
        .map(|p| {
            p.legal_moves()
                .iter()
                .map(|m| {
                    let c = p.play_unchecked(m);
                    if c.side(c.turn()).is_empty() {
                        usize::MAX
                    } else {
                        number[&c]
                    }
                })
                .collect()
        })
        .collect();
    let mut value: Vec<Option<(bool, u32)>> = vec![None; positions.len()];
    let child_value = |value: &[Option<(bool, u32)>], c: usize| {
        if c == usize::MAX {
            Some((false, 0))
        } else {
            value[c]
        }
    };
    for (i, ch) in children.iter().enumerate() {
        if ch.is_empty() {
            value[i] = Some((false, 0));
        }
    }
    let mut open: Vec<usize> = (0..positions.len())
        .filter(|&i| value[i].is_none())
        .collect();
    for n in 1.. {
        let mut found = Vec::new();
        for &i in &open {
            let mut win = false;
            let mut all_won = true;
            let mut longest = 0;
            for &c in &children[i] {
                match child_value(&value, c) {
                    Some((false, p)) if p == n - 1 => win = true,
                    Some((true, p)) => longest = longest.max(p),
                    _ => all_won = false,
                }
            }
            if win {
                found.push((i, (true, n)));
            } else if all_won && longest == n - 1 {
                found.push((i, (false, n)));
            }
        }
        if found.is_empty() {
            break;
        }
        for &(i, v) in &found {
            value[i] = Some(v);
        }
        open.retain(|&i| value[i].is_none());
    }
    value
}

#[test]
fn a_three_piece_build_agrees_with_an_exhaustive_search_on_every_position() {
    let db = db();
    let positions = small_positions();
    assert_eq!(
        positions.len(),
        2 * 199_520,
        "both sides to move, up to 3 pieces"
    );
    let truth = exhaustive(&positions);
    for (p, t) in positions.iter().zip(truth) {
        let expected = match t {
            None => Verdict::Draw,
            Some((true, n)) => Verdict::Win(n),
            Some((false, n)) => Verdict::Loss(n),
        };
        assert_eq!(db.probe(p), Some(expected), "{p}");
    }
}

/// Two kings against one king: the lone king to move with no capture loses, except
/// in 66 positions (of 12,856 for each colour) that the exhaustive search above confirms:
/// either its best defence wins a king within three plies, or the two kings are shut in
/// a single corner (a king on 4 or 29).
#[test]
fn two_kings_beat_one_king_wherever_the_lone_king_cannot_capture() {
    let db = db();
    let mut losses = 0;
    let mut exceptions = 0;
    for p in small_positions() {
        let lone = p.turn();
        let sig = Signature::of(&p);
        let lone_king = match lone {
            Color::Black => sig == Signature::new(0, 1, 0, 2),
            Color::White => sig == Signature::new(0, 2, 0, 1),
        };
        if !lone_king || !p.capturers().is_empty() {
            continue;
        }
        match db.probe(&p) {
            Some(Verdict::Loss(_)) => losses += 1,
            Some(Verdict::Draw) => {
                exceptions += 1;
                let line = db.best_line(&p, 3);
                let mut q = p;
                let wins_a_king = line.iter().any(|m| {
                    q = q.play_unchecked(m);
                    q.occupied().count() == 2
                });
                let single_corner = [4, 29]
                    .into_iter()
                    .any(|n| p.side(!lone).contains(Square::new(n).unwrap()));
                assert!(wins_a_king || single_corner, "{p}");
            }
            other => panic!("{p}: {other:?}"),
        }
    }
    assert_eq!((losses, exceptions), (2 * 12_790, 2 * 66));
}

/// One king against one king: the side with "the opposition" can drive the other king
/// to the edge and trap it, as in Lasker's Diagram 88 (same book as below: "White wins
/// by playing 32-27", and with Black to move "26-31" draws), so the ending is not always
/// drawn; but a king on a double-corner square (1, 5, 28, 32) never loses, and most
/// positions without a capture are drawn.
#[test]
fn one_king_against_one_king_is_drawn_from_the_double_corner() {
    let db = db();
    assert!(matches!(
        db.probe(&pos("W:WK32:BK26")),
        Some(Verdict::Win(_))
    ));
    assert_eq!(db.probe(&pos("B:WK32:BK26")), Some(Verdict::Draw));
    let (mut draws, mut quiet) = (0, 0);
    for p in small_positions() {
        if Signature::of(&p) != Signature::new(0, 1, 0, 1) {
            continue;
        }
        let verdict = db.probe(&p).unwrap();
        if p.capturers().is_empty() {
            quiet += 1;
            draws += u32::from(verdict == Verdict::Draw);
        }
        let own = p.side(p.turn()).first().unwrap().number();
        if [1, 5, 28, 32].contains(&own) {
            assert!(!matches!(verdict, Verdict::Loss(_)), "{p}");
        }
    }
    assert_eq!((draws, quiet), (2 * 654, 2 * 920));
    // A king in the single corner, though, is lost: from 4 it must step to 8, where the
    // king on 12 jumps it.
    assert_eq!(db.probe(&pos("B:WK12:BK4")), Some(Verdict::Loss(2)));
}

/// First Position, the classic win of two kings against a king and a man, from Edward
/// Lasker, "Chess and Checkers: The Way to Mastership" (1918), Diagram 93, "White to
/// Move and Win": White kings on 19 and 23, Black king on 28, Black man on 12. The book
/// begins 23-27 28-32 19-23 32-28 27-32 28-24 23-18 and says that with Black to move
/// the ending is a draw. (The ACF's "Standard Positions" page gives the same setting.)
#[test]
fn first_position_is_a_win_with_white_to_move_and_a_draw_with_black_to_move() {
    let db = db();
    let first = pos("W:WK19,K23:BK28,12");
    let Some(Verdict::Win(plies)) = db.probe(&first) else {
        panic!("not a win: {:?}", db.probe(&first));
    };
    assert_eq!(
        Verdict::Win(plies).describe(Color::White),
        "White wins in 31 moves"
    );
    assert_eq!(
        db.best_moves(&first).unwrap(),
        [first.parse_move("23-27").unwrap()]
    );
    let line = db.best_line(&first, 7);
    let text = crate::engine::line_notation(&first, &line);
    assert_eq!(text, "23-27 28-32 19-23 32-28 27-32 28-24 23-18");
    assert_eq!(
        db.probe(&first.with_turn(Color::Black)),
        Some(Verdict::Draw)
    );
}

#[test]
fn verify_passes_on_the_four_piece_build() {
    let db = db();
    let checks = egdb::verify(db.dir(), 2, |_| {}).unwrap();
    assert_eq!(checks.len(), 41);
    let failed: Vec<_> = checks.iter().filter(|c| !c.passed()).collect();
    assert!(failed.is_empty(), "{failed:?}");
    let positions: u64 = checks.iter().map(|c| c.stats.positions).sum();
    // With both sides to move: 12,817,672, the 1.3e7 of the issue.
    assert_eq!(positions, 6_408_836);
}

#[test]
fn a_damaged_file_is_named_and_left_out() {
    let dir = tempfile::tempdir().unwrap();
    let sig = Signature::new(0, 2, 0, 1);
    for s in [sig, sig.mirror()] {
        let from = egdb::file::path(db().dir(), s);
        std::fs::copy(&from, egdb::file::path(dir.path(), s)).unwrap();
    }
    let path = egdb::file::path(dir.path(), sig);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes.truncate(bytes.len() / 2);
    std::fs::write(&path, &bytes).unwrap();
    let (damaged, problems) = Egdb::open(dir.path());
    assert_eq!(problems.len(), 1);
    let message = problems[0].to_string();
    assert!(message.contains("0m2k-0m1k.egdb"), "{message}");
    assert!(message.contains("checksum"), "{message}");
    // The damaged slice is not probed; its mirror is.
    assert_eq!(damaged.probe(&pos("B:WK1:BK10,K14")), None);
    assert!(damaged.probe(&pos("W:WK1:BK10,K14")).is_some());
    // A flipped byte is caught too, and garbage is not taken for a slice.
    let mut bytes = std::fs::read(egdb::file::path(db().dir(), sig)).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    assert_eq!(Egdb::open(dir.path()).1.len(), 1);
    std::fs::write(&path, b"not a database").unwrap();
    let (_, problems) = Egdb::open(dir.path());
    assert!(problems[0].to_string().contains("not an endgame database"));
}

#[test]
fn the_search_scores_database_positions_exactly_and_plays_from_them() {
    let db = db();
    let first = pos("W:WK19,K23:BK28,12");
    let request = SearchRequest::new(first, Limits::movetime_ms(2000)).with_egdb(Some(db.clone()));
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    assert_eq!(result.score, Score::win_in(61));
    assert_eq!(result.depth, 1, "a database root needs no deeper search");
    assert_eq!(result.best_move, first.parse_move("23-27").ok());
    assert!(result.pv.len() > 7, "the databases' line is shown");
    // Without databases the search plays as before.
    let plain = SearchRequest::new(first, Limits::depth(6));
    let result = Engine::new(1).search(&plain, &StopFlag::new(), |_| {});
    assert!(!result.score.is_forced());
    // A position above the databases searches on, with exact scores at its captures.
    let five = pos("W:WK19,K23:BK28,12,3");
    let request = SearchRequest::new(five, Limits::depth(4)).with_egdb(Some(db.clone()));
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    assert!(result.best_move.is_some());
}

#[test]
fn several_lines_of_a_database_position_are_the_databases_moves_in_their_order() {
    let db = db();
    // First Position: won with White to move, drawn with Black to move.
    for fen in ["W:WK19,K23:BK28,12", "B:WK19,K23:BK28,12"] {
        let root = pos(fen);
        let request = SearchRequest::new(root, Limits::depth(6))
            .with_egdb(Some(db.clone()))
            .with_lines(3);
        let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
        assert_eq!(result.lines.len(), 3.min(root.legal_moves().len()), "{fen}");
        assert_eq!(result.best_move, Some(result.lines[0].pv[0]));
        let verdicts = db.moves(&root).unwrap();
        for (i, line) in result.lines.iter().enumerate() {
            assert!(!result.lines[..i].iter().any(|l| l.pv[0] == line.pv[0]));
            let (_, verdict) = verdicts.iter().find(|(m, _)| *m == line.pv[0]).unwrap();
            let expected = match verdict {
                Verdict::Win(p) => Score::win_in(*p),
                Verdict::Loss(p) => Score::loss_in(*p),
                Verdict::Draw => Score::DRAW,
            };
            assert_eq!(line.score, expected, "{fen}: {result:?}");
            line.pv.iter().fold(root, |p, m| p.play(m).unwrap());
        }
        assert!(result.lines.windows(2).all(|w| w[0].score >= w[1].score));
    }
}

/// Plays from `start` with `white` and `black` searching 20 ms a move (each with or
/// without the databases) for at most `plies`; returns the game.
fn play_out(start: Position, egdb_for: [bool; 2], plies: usize) -> Game {
    let mut game = Game::from_position(start);
    let mut engines = [Engine::new(1), Engine::new(1)];
    while game.result().is_none() && game.moves().len() < plies {
        let side = game.position().turn() as usize;
        let request = Level::MAX
            .request(
                *game.position(),
                Vec::new(),
                std::time::Duration::from_millis(20),
                1,
            )
            .with_egdb(egdb_for[side].then(|| db().clone()));
        let result = engines[side].search(&request, &StopFlag::new(), |_| {});
        game.play(&result.best_move.unwrap()).unwrap();
    }
    game
}

#[test]
fn the_engine_converts_first_position_within_the_database_distance() {
    // White with the databases, Black without: the win comes within 61 plies whatever
    // Black plays (a shortest-win move always brings the distance down).
    let game = play_out(pos("W:WK19,K23:BK28,12"), [false, true], 61);
    assert!(
        matches!(
            game.result(),
            Some(Outcome::Win {
                winner: Color::White,
                ..
            })
        ),
        "{:?} after {} plies",
        game.result(),
        game.moves().len()
    );
}

#[test]
fn the_engine_never_loses_a_drawn_database_ending() {
    // First Position with Black to move is drawn: Black holds it with the databases.
    let game = play_out(pos("B:WK19,K23:BK28,12"), [true, false], 120);
    assert!(
        !matches!(
            game.result(),
            Some(Outcome::Win {
                winner: Color::White,
                ..
            })
        ),
        "{:?}",
        game.result()
    );
}

#[test]
fn the_session_tells_the_database_verdict_and_hints_with_it() {
    let game = Game::from_position(pos("W:WK19,K23:BK28,12"));
    let session = Session::new(game.clone()).with_egdb(Some(db().clone()));
    assert_eq!(
        session.database_verdict().as_deref(),
        Some("White wins in 31 moves")
    );
    let result = Engine::new(1).search(&session.hint_request(), &StopFlag::new(), |_| {});
    let (_, text) = session.hint(&result).unwrap();
    assert_eq!(
        text.to_string(),
        "Hint for White (not played): 23-27 (endgame database: White wins in 31 moves)"
    );
    // Without databases, or with more pieces than they hold: no verdict.
    assert_eq!(Session::new(game).database_verdict(), None);
    let start = Session::new(Game::new()).with_egdb(Some(db().clone()));
    assert_eq!(start.database_verdict(), None);
    // The computer, to move in a database position, plays the database's move.
    let seats = Seats {
        black: Player::Person,
        white: Player::Computer(Level::MAX),
    };
    let mut session = Session::new(Game::from_position(pos("W:WK19,K23:BK28,12")))
        .with_seats(seats)
        .with_movetime(std::time::Duration::from_millis(50))
        .with_egdb(Some(db().clone()));
    let request = session.move_request().unwrap();
    let result = Engine::new(1).search(&request, &StopFlag::new(), |_| {});
    let news = session.computer_played(&result).unwrap();
    assert_eq!(news.to_string(), "White (level 10) played 23-27");
}

#[test]
fn the_full_screen_panel_shows_the_database_verdict() {
    use crate::tui::{App, Settings};
    let game = Game::from_position(pos("W:WK19,K23:BK28,12"));
    let session = Session::new(game).with_egdb(Some(db().clone()));
    // Where the panel is too narrow for the sentence (80 and 120 columns), it breaks
    // at the colon: the verdict is read whole on the row under its name.
    for (w, h) in [(80, 24), (120, 40), (200, 60)] {
        let app = App::with_session(Settings::default(), session.clone(), w, h);
        let text = crate::tui::tests::screen_text(&app);
        assert!(text.contains("? help"), "{w}x{h}: drawn whole: {text}");
        let rows: Vec<&str> = text.lines().collect();
        let at = rows
            .iter()
            .position(|r| r.contains("Endgame database:"))
            .unwrap_or_else(|| panic!("{w}x{h}: {text}"));
        let verdict = "White wins in 31 moves";
        assert!(
            rows[at].contains(&format!("Endgame database: {verdict}"))
                || rows[at + 1].contains(&format!("  {verdict}")),
            "{w}x{h}: {text}"
        );
    }
    // Without databases, no such line.
    let text = crate::tui::tests::screen_text(&crate::tui::tests::app_from("W:WK19,K23:BK28,12"));
    assert!(!text.contains("Database:"), "{text}");
}

#[test]
fn the_computer_answers_a_draw_offer_from_the_database() {
    // First Position with Black to move is a draw (Lasker, Diagram 93), though White
    // has a king more than Black's man: on the board White looks better.
    let offer = |egdb: Option<Arc<Egdb>>| {
        let seats = Seats {
            black: Player::Person,
            white: Player::Computer(Level::MAX),
        };
        let mut session = Session::new(Game::from_position(pos("B:WK19,K23:BK28,12")))
            .with_seats(seats)
            .with_egdb(egdb);
        let answer = session.offer_draw().unwrap();
        (answer, session.game().is_over())
    };
    let (answer, over) = offer(None);
    assert!(!over && answer.to_string().contains("declines"), "{answer}");
    let (answer, over) = offer(Some(db().clone()));
    assert!(over && answer.to_string().contains("accepts"), "{answer}");
}

#[test]
fn the_thinking_line_gives_the_database_result() {
    use crate::tui::{App, Settings};
    let seats = Seats {
        black: Player::Computer(Level::MAX),
        white: Player::Person,
    };
    // Two kings each: drawn, with several drawing moves, among which the ordinary
    // search chooses (so it thinks, and says what the databases say meanwhile).
    let game = Game::from_position(pos("B:WK5,K9:BK28,K32"));
    let session = Session::new(game)
        .with_seats(seats)
        .with_egdb(Some(db().clone()));
    let mut app = App::with_session(Settings::default(), session, 80, 24);
    let start = std::time::Instant::now();
    while app.runtime().thinking().is_none_or(|t| t.depth == 0) {
        assert!(start.elapsed().as_secs() < 20, "no progress came");
        app.poll(std::time::Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    let thinking = app.thinking_text().unwrap();
    assert!(thinking.contains("(endgame database: drawn)"), "{thinking}");
}

#[test]
fn the_databases_line_converts_every_won_position_within_the_forty_move_rule() {
    use crate::rules::FORTY_MOVE_PLIES;
    use crate::rules::draw::is_quiet_move;
    // From won positions spread over every slice, the databases' line (fastest win,
    // longest defence) ends the game in the distance they give, and never lets the
    // loser claim a draw: no 40 moves of each side pass with only kings moving.
    let db = db();
    let (mut lines, mut longest_quiet) = (0, 0);
    for sig in Signature::all(4) {
        let layout = Layout::new(sig);
        let step = (layout.size / 300).max(1);
        for index in (0..layout.size).step_by(step as usize) {
            let Some(start) = layout.position(index) else {
                continue;
            };
            let Some(Verdict::Win(plies)) = db.probe(&start) else {
                continue;
            };
            let line = db.best_line(&start, 400);
            assert_eq!(line.len() as u32, plies, "{start}");
            let (mut end, mut quiet) = (start, 0);
            for m in &line {
                quiet = if is_quiet_move(&end, m) { quiet + 1 } else { 0 };
                longest_quiet = longest_quiet.max(quiet);
                end = end.play_unchecked(m);
            }
            assert!(
                end.legal_moves().is_empty(),
                "{start}: the line ends in {end}"
            );
            lines += 1;
        }
    }
    assert!(lines > 5_000, "{lines} lines");
    assert!(
        longest_quiet < FORTY_MOVE_PLIES,
        "{longest_quiet} quiet plies"
    );
}

/// The review of kings on 1 and 3 against one on 10, where White's 1-6 throws the
/// win away, at 120x40 with the databases, stepped to the position before that move;
/// the record ends with `result`.
fn reviewed_before_white_threw_the_win(result: &str) -> crate::tui::App {
    use crate::tui::{App, Settings};
    use ratatui::crossterm::event::KeyCode;
    let pdn = format!("[FEN \"B:WK1,K3:BK10\"]\n1. 10-14 3-8 2. 14-9 1-6 {result}\n");
    let record = crate::pdn::read_games(&pdn).remove(0).unwrap();
    let session = Session::review_record(&record).with_egdb(Some(db().clone()));
    let mut app = App::with_session(Settings::default(), session, 120, 40);
    crate::tui::tests::press(&mut app, KeyCode::End);
    crate::tui::tests::press(&mut app, KeyCode::Left);
    app
}

#[test]
fn review_shows_the_database_result_beside_the_engines_score_and_the_move_that_threw_a_win_away() {
    use crate::runtime::Purpose;
    use ratatui::crossterm::event::KeyCode;
    let mut app = reviewed_before_white_threw_the_win("*");
    // Before White's 1-6: the engine's score (once searched) and the exact result.
    assert_eq!(
        app.runtime().wanted_search().map(|s| s.purpose),
        Some(Purpose::Review)
    );
    let start = std::time::Instant::now();
    while app.runtime().wanted_search().is_some() {
        assert!(start.elapsed().as_secs() < 20, "no score came");
        app.poll(std::time::Instant::now());
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let text = crate::tui::tests::screen_text(&app);
    assert!(
        text.contains("Engine (1 ply): White wins in 5 moves"),
        "{text}"
    );
    // Wider than the panel: the verdict on the row under its name.
    assert!(text.contains("Endgame database:"), "{text}");
    assert!(text.contains("  White wins in 5 moves"), "{text}");
    assert!(!text.contains("threw"), "{text}");
    // After it: drawn, and the panel says which move threw the win away.
    crate::tui::tests::press(&mut app, KeyCode::Right);
    let text = crate::tui::tests::screen_text(&app);
    assert!(text.contains("Endgame database: drawn"), "{text}");
    assert!(text.contains("White's 1-6 threw the win away:"), "{text}");
    assert!(text.contains("White wins in 5 moves"), "{text}");
}

#[test]
fn review_at_the_end_of_a_finished_record_gives_no_database_verdict() {
    use ratatui::crossterm::event::KeyCode;
    // Black resigned after White's 1-6: the databases hold the position, yet the game
    // is over there.
    let mut app = reviewed_before_white_threw_the_win("0-1");
    let text = crate::tui::tests::screen_text(&app);
    assert!(text.contains("Endgame database:"), "{text}");
    assert!(text.contains("  White wins"), "{text}");
    crate::tui::tests::press(&mut app, KeyCode::End);
    let text = crate::tui::tests::screen_text(&app);
    assert!(text.contains("Game over"), "{text}");
    assert!(!text.contains("database:"), "{text}");
}

#[test]
fn a_match_arbiter_ends_a_game_the_databases_settle_with_their_verdict() {
    use crate::rules::{DrawReason, WinReason};
    let computers = Seats {
        black: Player::Computer(Level::MAX),
        white: Player::Computer(Level::MAX),
    };
    let session = |fen: &str| Session::new(Game::from_position(pos(fen))).with_seats(computers);
    // White to move wins (the computer plays both sides, and resignation on its behalf
    // is the arbiter's, not a person's): Black resigns.
    let mut won = session("W:WK19,K23:BK28,12");
    assert_eq!(won.adjudicate_by_database(db()), Some(Verdict::Win(61)));
    assert_eq!(
        won.game().result(),
        Some(Outcome::Win {
            winner: Color::White,
            reason: WinReason::Resignation
        })
    );
    // The same with Black to move is First Position's draw: drawn as agreed.
    let mut drawn = session("B:WK19,K23:BK28,12");
    assert_eq!(drawn.adjudicate_by_database(db()), Some(Verdict::Draw));
    assert_eq!(
        drawn.game().result(),
        Some(Outcome::Draw {
            reason: DrawReason::Agreement
        })
    );
    // Lost for the side to move: that side resigns.
    let mut lost = session("B:WK1,K3:BK10");
    assert!(matches!(
        lost.adjudicate_by_database(db()),
        Some(Verdict::Loss(_))
    ));
    assert_eq!(
        lost.game().result().and_then(|o| match o {
            Outcome::Win { winner, .. } => Some(winner),
            Outcome::Draw { .. } => None,
        }),
        Some(Color::White)
    );
    // More pieces than the databases hold, or a game already over: it goes on as it was.
    let mut start = session("B:W21,22,23,24,25:B1,2,3,4,5");
    assert_eq!(start.adjudicate_by_database(db()), None);
    assert!(!start.game().is_over());
    assert_eq!(drawn.adjudicate_by_database(db()), None);
}

#[test]
fn a_second_build_in_a_folder_is_refused_while_one_runs_and_an_unwritable_folder_at_once() {
    let dir = folder().with_file_name("egdb-unit-tests-locked");
    let _ = std::fs::remove_dir_all(&dir);
    let mut options = BuildOptions {
        dir: dir.clone(),
        max_pieces: 2,
        threads: 1,
    };
    let running = egdb::lock_folder(&dir).unwrap();
    let mut solved = 0;
    let refused = egdb::build(&options, None, |_| solved += 1);
    assert!(
        matches!(&refused, Err(egdb::EgdbError::BuildRunning(d)) if *d == dir),
        "{refused:?}"
    );
    assert_eq!(solved, 0, "nothing is solved while the other build runs");
    drop(running);
    let report = egdb::build(&options, None, |_| {}).unwrap();
    assert_eq!(report.built.len(), 4);
    // A folder that cannot be made (a file is in its way) is refused, named, before any
    // slice is solved.
    let in_the_way = dir.join("a-file");
    std::fs::write(&in_the_way, "not a folder").unwrap();
    options.dir = in_the_way.join("egdb");
    let refused = egdb::build(&options, None, |_| solved += 1);
    assert!(
        matches!(&refused, Err(egdb::EgdbError::Io { path, .. }) if *path == options.dir),
        "{refused:?}"
    );
    assert_eq!(
        solved, 0,
        "nothing is solved for a folder that cannot be written"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The analysis board names the databases as the game's panel does: "Endgame database:
/// White wins in 31 moves" (it said "Database:"), in its panel and, on a screen too
/// small for the panel, in its engine row.
#[test]
fn the_analysis_board_says_endgame_database() {
    use crate::game::tree::MoveTree;
    use crate::pdn::PdnGame;
    use crate::tui::Settings;
    use crate::tui::analysis::AnalysisBoard;
    use ratatui::layout::Rect;
    use ratatui::widgets::Widget;
    let start = pos("W:WK19,K23:BK28,12");
    for (w, h) in [(120, 40), (80, 24), (60, 20)] {
        let b = AnalysisBoard::new(
            MoveTree::new(start),
            PdnGame::new(start),
            &Settings::default(),
            Some(db().clone()),
            Rect::new(0, 0, w, h),
            "the home screen",
            false,
        );
        let text = crate::tui::tests::drawn_text(w, h, |area, buf| b.render(area, buf));
        assert!(text.contains("? help"), "{w}x{h}: drawn whole: {text}");
        assert!(text.contains("Endgame database:"), "{w}x{h}: {text}");
        assert!(text.contains("White wins in 31 moves"), "{w}x{h}: {text}");
        assert!(!text.contains(" Database:"), "{w}x{h}: {text}");
    }
}
