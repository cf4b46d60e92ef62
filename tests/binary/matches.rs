//! Matches and clocks through the real binary: a two-round match played in plain mode
//! from a pipe, plain mode's flag fall with no input, and a match killed mid-game and
//! taken up again with `--resume` in the full-screen game.

use crate::common::pty::{Sandbox, Session, run_in};
use checkers::pdn::{PdnGame, read_games};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

fn tag<'a>(game: &'a PdnGame, name: &str) -> &'a str {
    game.tag(name).unwrap_or_else(|| panic!("no {name} tag"))
}

#[test]
fn a_two_round_match_in_plain_mode_fills_one_file_with_four_games() {
    let sandbox = Sandbox::new();
    // After a ballot White moves first: game 1 Bob resigns, game 2 is drawn, game 3 Bob
    // resigns, game 4 Ann (White then) resigns.
    let input = "resign\nnext\ndraw\naccept\nnext\nresign\nnext\nresign\nscore\n";
    let out = run_in(
        &sandbox,
        &[
            "--plain",
            "--match",
            "2",
            "--ballot",
            "random",
            "--clock",
            "5+3",
            "--black-name",
            "Ann",
            "--white-name",
            "Bob",
            "--save",
            "club.pdn",
        ],
        input.as_bytes(),
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(out.status.success(), "{stdout}");
    assert!(
        stdout.contains("A match of 4 games between Ann and Bob"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Match over: Ann wins the match 2\u{bd}-1\u{bd}"),
        "{stdout}"
    );
    assert!(
        stdout.contains("Game 4 of 4 \u{b7} Ann 2\u{bd} (W2 D1 L1) \u{b7} Bob 1\u{bd} (W1 D1 L2)"),
        "{stdout}"
    );
    let text = std::fs::read_to_string(sandbox.home().join("club.pdn")).unwrap();
    let games: Vec<PdnGame> = read_games(&text).into_iter().map(Result::unwrap).collect();
    assert_eq!(games.len(), 4, "{text}");
    let column = |name: &str| -> Vec<&str> { games.iter().map(|g| tag(g, name)).collect() };
    assert_eq!(column("Round"), ["1.1", "1.2", "2.1", "2.2"]);
    assert_eq!(column("Black"), ["Ann", "Bob", "Ann", "Bob"]);
    assert_eq!(column("White"), ["Bob", "Ann", "Bob", "Ann"]);
    assert_eq!(column("Result"), ["1-0", "1/2-1/2", "1-0", "1-0"]);
    assert!(column("Event").iter().all(|e| *e == "Match: Ann v Bob"));
    assert!(column("TimeControl").iter().all(|t| *t == "5+3"));
    let ballots = column("Ballot");
    assert_eq!(ballots[0], ballots[1], "one ballot a round");
    assert_eq!(ballots[2], ballots[3]);
    assert_ne!(ballots[0], ballots[2], "a new ballot for the next round");
    // Each game starts after its ballot's three moves.
    assert!(games.iter().all(|g| g.moves.len() == 3));
    assert!(!text.contains("MatchRounds"), "{text}");
}

#[test]
fn plain_mode_tells_a_flag_fall_at_once_with_no_input() {
    let sandbox = Sandbox::new();
    // Before the program starts, so before its clock does: the flag cannot fall sooner
    // than two seconds after this, however slow the machine.
    let spawned = Instant::now();
    let mut child = Killed(
        Command::new(env!("CARGO_BIN_EXE_checkers"))
            .args(["--plain", "--clock", "0:02+0"])
            .env("HOME", sandbox.home())
            .env("XDG_DATA_HOME", sandbox.data_home())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .unwrap(),
    );
    // Standard input stays open and silent: nothing is typed.
    let mut stdin = child.0.stdin.take().unwrap();
    let lines = lines_of(child.0.stdout.take().unwrap());
    let mut seen = Vec::new();
    // Counted from the game's first line, not the start of a program that a loaded
    // machine may take seconds to start; a program that says nothing at all fails the
    // test at the start's deadline, rather than hanging it.
    let mut started = None;
    let flag = loop {
        let deadline = started.map_or(STARTED_WITHIN, |first: Instant| {
            (first + Duration::from_secs(20)).saturating_duration_since(Instant::now())
        });
        let line = match lines.recv_timeout(deadline) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => panic!(
                "no flag fall within {:?} of {}: {seen:?}",
                deadline,
                if started.is_some() {
                    "the game's first line"
                } else {
                    "the start"
                }
            ),
            Err(RecvTimeoutError::Disconnected) => panic!("the output ended: {seen:?}"),
        };
        started.get_or_insert_with(Instant::now);
        if line.starts_with("Time is up") {
            break line;
        }
        seen.push(line);
    };
    let told_after = spawned.elapsed();
    assert_eq!(
        flag,
        "Time is up. White wins: Black lost on time. Type new for another game."
    );
    // Told with nothing typed (standard input stays open and silent until now), after
    // the warning, and not before the clock's two seconds ran out. How soon after them is
    // the runtime's to keep (it looks at a running clock every tenth of a second, which
    // its own test checks without a clock on the wall): a bound in seconds here would
    // only measure how loaded the machine is.
    assert!(
        told_after >= Duration::from_secs(2),
        "the flag fell early: {told_after:?}"
    );
    assert!(
        seen.iter().any(|l| l.starts_with("Black: 2 seconds left")),
        "the warning: {seen:?}"
    );
    stdin.write_all(b"11-15\nquit\n").unwrap();
    drop(stdin);
    // The rest, to the end of the output, within the start's deadline too.
    let until = Instant::now() + STARTED_WITHIN;
    let mut rest = Vec::new();
    loop {
        match lines.recv_timeout(until.saturating_duration_since(Instant::now())) {
            Ok(line) => rest.push(line),
            Err(RecvTimeoutError::Disconnected) => break,
            Err(RecvTimeoutError::Timeout) => panic!("quit did not end the program: {rest:?}"),
        }
    }
    assert!(
        rest.iter().any(|l| l.contains("Black lost on time")),
        "the game stays over: {rest:?}"
    );
    assert!(child.0.wait().unwrap().success());
}

/// How long a program may take to say its first line on a loaded machine, or to end
/// once told to.
const STARTED_WITHIN: Duration = Duration::from_secs(30);

/// A child process killed (and reaped) when the test is done with it, a failed one
/// included, so that a program that hangs does not outlive its test.
struct Killed(std::process::Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// The lines `output` prints, as they come, read on a thread of their own so that the
/// test waits for each with a deadline.
fn lines_of(output: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (sender, lines) = channel();
    std::thread::spawn(move || {
        for line in BufReader::new(output).lines() {
            let Ok(line) = line else { break };
            if sender.send(line).is_err() {
                break;
            }
        }
    });
    lines
}

#[test]
fn a_match_killed_mid_game_resumes_whole_and_finishes() {
    let sandbox = Sandbox::new();
    let args = [
        "--match",
        "1",
        "--ballot",
        "126",
        "--clock",
        "5+3",
        "--black-name",
        "Ann",
        "--white-name",
        "Bob",
        "--save",
        "m.pdn",
        "--quiet",
    ];
    let mut game = Session::start_in(&sandbox, &args, &[]);
    game.wait_for("the match", |s| s.contents().contains("Match game 1 of 2"));
    game.play(&["22-18"]);
    sandbox.wait_for_game("22-18 {[%clk");
    game.signal("KILL");
    let _ = game.exit_status();

    let mut resumed = Session::start_in(&sandbox, &["--resume", "--quiet"], &[]);
    resumed.wait_for("the match taken up again", |s| {
        let text = s.contents();
        text.contains("Match game 1 of 2, round 1.1")
            && text.contains("2. 8-11     22-18")
            && text.contains("Ann   0  W0 D0 L0  Black")
            && text.contains("Bob")
            && text.contains("Game resumed: Black to move")
    });
    // The clocks wait for Ann, whatever the time she takes to sit down (four seconds
    // here, that a running clock would show): her clock still reads the 5:00 it had at
    // the kill, and none of it is charged.
    let held = Instant::now();
    while held.elapsed() < Duration::from_secs(4) {
        std::thread::sleep(Duration::from_millis(100));
    }
    resumed.drain();
    let screen = resumed.contents();
    assert!(screen.contains("Black      5:00"), "{screen}");
    assert!(screen.contains("Clocks start at the first key"), "{screen}");
    // Her first key starts them (and shows the board), and she takes 18 at once.
    resumed.send(b" ");
    resumed.wait_for("the clocks started", |s| {
        s.contents().contains("the clocks run, Black to move")
    });
    resumed.play(&["15x22", "25x18"]);
    let saved = sandbox.wait_for_game("25x18");
    let after = saved
        .split("15x22 {[%clk ")
        .nth(1)
        .and_then(|rest| rest.split(']').next())
        .unwrap_or_else(|| panic!("no reading after 15x22: {saved}"));
    // 5:00 + 3 s, less the moment between her key and her move (up to three seconds on
    // a loaded machine): not the four seconds she sat (which would leave 4:59 at most).
    let seconds: f64 = after.split(':').fold(0.0, |total, part| {
        total * 60.0 + part.parse::<f64>().unwrap()
    });
    assert!(seconds > 300.0, "{after}: {saved}");
    // Ann (Black, to move) resigns: the game goes to the file, and game 2 waits.
    resumed.send(b"rb");
    resumed.wait_for("the end of game 1", |s| {
        s.contents().contains("Next: game 2, n when both ready")
    });
    resumed.send(b"n");
    resumed.wait_for("game 2", |s| {
        let text = s.contents();
        text.contains("Match game 2 of 2, round 1.2") && text.contains("Ann   0  W0 D0 L1  White")
    });
    resumed.send(b"rw");
    resumed.wait_for("the end of the match", |s| {
        s.contents().contains("Match over: Bob wins the match 2-0")
    });
    resumed.send(b"q");
    assert!(resumed.exit_status().success());
    let text = std::fs::read_to_string(sandbox.home().join("m.pdn")).unwrap();
    let games: Vec<PdnGame> = read_games(&text).into_iter().map(Result::unwrap).collect();
    assert_eq!(games.len(), 2, "{text}");
    assert_eq!(tag(&games[0], "Round"), "1.1");
    assert_eq!(tag(&games[0], "Result"), "0-1");
    assert!(text.contains("22-18 {[%clk 0:0"), "{text}");
    assert_eq!(tag(&games[1], "Black"), "Bob");
    assert_eq!(tag(&games[1], "Result"), "1-0");
    // Nothing is left to resume.
    let out = run_in(&sandbox, &["--resume"], b"");
    assert!(!out.status.success());
    // Each game of the match stays in the games folder as a record of its own, once.
    let out = run_in(&sandbox, &["games"], b"");
    let listed = String::from_utf8(out.stdout).unwrap();
    assert!(listed.contains("2 games in"), "{listed}");
    assert!(listed.contains("0-1, match game of round 1.1"), "{listed}");
    assert!(
        listed.contains("1-0, the match's last game (2 of 2)"),
        "{listed}"
    );
    assert_eq!(
        listed.matches("(the match's games: ").count(),
        2,
        "{listed}"
    );
}

#[test]
fn plain_mode_pauses_the_clocks_and_takes_no_move_meanwhile() {
    let sandbox = Sandbox::new();
    let input = "pause\n11-15\npause\n11-15\n";
    let out = run_in(&sandbox, &["--plain", "--clock", "G/5"], input.as_bytes());
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains("Paused: both clocks stopped")
            && stdout.contains("(paused: type pause to go on)"),
        "{stdout}"
    );
    assert!(
        stdout.contains("The clocks are paused: type pause to start them again, then move."),
        "{stdout}"
    );
    assert_eq!(stdout.matches("Black played 11-15").count(), 1, "{stdout}");
}
