//! Every writer through one hardened way to write (issue 19, findings 1, 2, 5, 6, 11 and
//! 14): concurrent creators of a new file keep every game, a full disk leaves each file
//! as it was (whole games, whole lines), a FIFO or a device is never replaced, orphan
//! temporaries are tidied in every folder the program writes, and a file size limit is
//! a failed write like a full disk.
//!
//! The full-disk tests use a real full tmpfs when run as root, and a file size limit
//! (`ulimit -f`) elsewhere: see `common/full_disk.rs`. Both fail a write part way.

use crate::common::command::{mkfifo, text};
use crate::common::full_disk::FullDisk;
use crate::common::pty::{Sandbox, Session, check_summary, run_in};
#[cfg(feature = "lab")]
use checkers::rules::Position;

/// Finding 1: eight programs save to the same new file at once (`save F` in plain
/// mode), ten rounds: all 80 games are in the files.
#[test]
fn finding_1_eight_programs_creating_one_file_keep_all_their_games() {
    let sandbox = Sandbox::new();
    for round in 0..10 {
        let name = format!("F{round}.pdn");
        let input = format!("11-15\n23-19\nsave {name}\nquit\n");
        std::thread::scope(|scope| {
            let runs: Vec<_> = (0..8)
                .map(|_| scope.spawn(|| run_in(&sandbox, &["--plain"], input.as_bytes())))
                .collect();
            for run in runs {
                let out = run.join().unwrap();
                let said = text(&out.stdout);
                assert!(
                    said.contains(&format!("Saved to {name}"))
                        || said.contains(&format!("Added the game at the end of {name}")),
                    "{said}"
                );
            }
        });
        assert_eq!(
            check_summary(&sandbox, &sandbox.home().join(&name)),
            "8 games: 8 replayed, 0 with errors",
            "round {round}"
        );
    }
}

/// Finding 2: `save FILE` onto an existing database on a full disk says it cannot save
/// and leaves the file byte for byte as it was (no half game for the next save to land
/// in); once there is room, the next save adds a game that reads back.
#[test]
fn finding_2_a_save_onto_a_database_on_a_full_disk_leaves_it_as_it_was() {
    let sandbox = Sandbox::new();
    let mut disk = FullDisk::new();
    let game =
        "[Event \"Club\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"*\"]\n1. 9-14 22-17 *\n\n";
    let db = disk.file("db.pdn", game.repeat(20).as_bytes());
    let before = std::fs::read(&db).unwrap();
    let save = format!("11-15\n23-19\n8-11\nsave {}\nquit\n", db.display());
    let out = disk.run(&sandbox, &["--plain"], save.as_bytes());
    let said = text(&out.stdout);
    assert!(said.contains("Cannot save"), "{}: {said}", disk.kind());
    assert_eq!(std::fs::read(&db).unwrap(), before, "{}", disk.kind());

    disk.make_room();
    let out = disk.run(&sandbox, &["--plain"], save.as_bytes());
    assert!(
        text(&out.stdout).contains("Added the game at the end of"),
        "{}",
        text(&out.stdout)
    );
    assert_eq!(
        check_summary(&sandbox, &db),
        "21 games: 21 replayed, 0 with errors"
    );
    let last = checkers::read_games(&std::fs::read_to_string(&db).unwrap())
        .remove(20)
        .unwrap();
    assert_eq!(last.moves.len(), 3);
}

/// A line of training data, as `selfplay` writes it.
#[cfg(feature = "lab")]
fn sample_line() -> String {
    format!("{}\t-\t1/2-1/2", Position::start())
}

/// Finding 5: `selfplay --out` on a full disk fails with the file still whole lines
/// (as it was); once there is room, it adds games and `train` reads every line.
#[cfg(feature = "lab")]
#[test]
fn finding_5_selfplay_on_a_full_disk_leaves_whole_lines() {
    let sandbox = Sandbox::new();
    let mut disk = FullDisk::new();
    let line = sample_line() + "\n";
    let data = disk.file("data.txt", line.repeat(30).as_bytes());
    // The padding newlines are blank lines, which train skips.
    let before = std::fs::read(&data).unwrap();
    let data_arg = data.to_str().unwrap();
    let selfplay = [
        "selfplay",
        "--games",
        "2",
        "--nodes",
        "300",
        "--threads",
        "1",
        "--out",
        data_arg,
    ];
    let out = disk.run(&sandbox, &selfplay, b"");
    assert!(!out.status.success(), "{}", disk.kind());
    assert!(
        text(&out.stderr).contains(data_arg),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(std::fs::read(&data).unwrap(), before, "{}", disk.kind());

    disk.make_room();
    let out = disk.run(&sandbox, &selfplay, b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    let written = std::fs::read_to_string(&data).unwrap();
    assert!(written.ends_with('\n'));
    let positions = written.lines().filter(|l| !l.trim().is_empty()).count();
    assert!(positions > 30);
    let weights = sandbox.home().join("w.bin");
    let out = run_in(
        &sandbox,
        &[
            "train",
            "--data",
            data_arg,
            "--out",
            weights.to_str().unwrap(),
            "--epochs",
            "1",
        ],
        b"",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains(&format!(": {positions} positions")),
        "{}",
        text(&out.stdout)
    );
}

/// Finding 6: `train --out` and `book build --out` naming a FIFO or a device are
/// refused before any work, and the FIFO stays a FIFO.
#[cfg(unix)]
#[cfg(feature = "lab")]
#[test]
fn finding_6_train_and_book_never_replace_a_fifo_or_a_device() {
    use std::os::unix::fs::FileTypeExt;
    let sandbox = Sandbox::new();
    let fifo = sandbox.home().join("out.bin");
    mkfifo(&fifo);
    let data = sandbox.home().join("data.txt");
    std::fs::write(&data, sample_line() + "\n").unwrap();
    for out_path in [fifo.to_str().unwrap(), "/dev/null"] {
        let train = [
            "train",
            "--data",
            data.to_str().unwrap(),
            "--out",
            out_path,
            "--epochs",
            "1",
        ];
        let book = ["book", "--out", out_path, "--movetime", "1"];
        for args in [&train[..], &book[..]] {
            let out = run_in(&sandbox, args, b"");
            assert_eq!(out.status.code(), Some(1), "{args:?}");
            let said = text(&out.stderr);
            assert!(said.contains("not a regular file"), "{args:?}: {said}");
        }
    }
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    assert!(
        std::fs::metadata("/dev/null")
            .unwrap()
            .file_type()
            .is_char_device()
    );
}

/// Finding 11: the temporaries a build killed mid-write left in the endgame database
/// folder (and those of any writer in the data and games folders) are removed at start;
/// those of running programs stay.
#[test]
fn finding_11_orphan_temporaries_are_tidied_in_every_folder_at_start() {
    let sandbox = Sandbox::new();
    let egdb = sandbox.data_dir().join("egdb");
    std::fs::create_dir_all(&egdb).unwrap();
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    // The indexes of big record files, in the cache folder ($HOME/.cache on Linux).
    let indexes = sandbox.home().join(".cache/checkers/pdn-index");
    std::fs::create_dir_all(&indexes).unwrap();
    // Process ids wrap well below this on every system this runs on.
    let mut orphans = vec![
        egdb.join(".2m0k-1m0k.egdb.999999999.tmp"),
        egdb.join(".1m1k-0m2k.egdb.999999998-0123456789abcdef.tmp"),
        sandbox
            .data_dir()
            .join(".notes.pdn.999999997-0123456789abcdef.tmp"),
        sandbox
            .games_dir()
            .join(".2026-01-01-000000-abcdef.pdn.999999996.tmp"),
    ];
    if cfg!(target_os = "linux") {
        orphans.push(indexes.join(".0123456789abcdef.idx.999999995-0123456789abcdef.tmp"));
    }
    let alive = egdb.join(format!(".0m2k-1m0k.egdb.{}.tmp", std::process::id()));
    for path in orphans.iter().chain([&alive]) {
        std::fs::write(path, "half a file").unwrap();
    }
    let out = run_in(&sandbox, &["games"], b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    for path in &orphans {
        assert!(!path.exists(), "{} left", path.display());
    }
    assert!(alive.exists());

    // An endgame database folder given with --dir is tidied by the commands that use it.
    let other = sandbox.home().join("db");
    std::fs::create_dir_all(&other).unwrap();
    let orphan = other.join(".2m0k-1m0k.egdb.999999999.tmp");
    std::fs::write(&orphan, "x").unwrap();
    run_in(
        &sandbox,
        &[
            "egdb",
            "probe",
            "--fen",
            "B:WK1:BK10",
            "--dir",
            other.to_str().unwrap(),
        ],
        b"",
    );
    assert!(!orphan.exists());
}

/// Finding 14: under a file size limit (`ulimit -f 0`) the full-screen game's autosave
/// fails and says so, and play goes on, as on a full disk (it used to end with SIGXFSZ
/// at the first autosave).
#[cfg(target_os = "linux")]
#[test]
fn finding_14_a_file_size_limit_fails_the_autosave_and_play_goes_on() {
    let sandbox = Sandbox::new();
    let program = env!("CARGO_BIN_EXE_checkers");
    let mut game = Session::start_shell(&sandbox, &format!("ulimit -f 0; exec {program}"), &[]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.send(b"11-15\r");
    game.wait_for("the failed autosave said", |s| {
        s.contents().contains("Autosave failed") && s.contents().contains("File too large")
    });
    // White's reply is typed too: the game goes on.
    game.send(b"23-19\r");
    game.wait_for("the second move", |s| {
        s.contents().contains("White played 23-19")
    });
    assert!(!game.exited(), "the game ended: {}", game.contents());
}

/// Finding 14: a dangling `games` symbolic link is named as such.
#[cfg(unix)]
#[test]
fn finding_14_a_dangling_games_link_is_named() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.data_dir()).unwrap();
    std::os::unix::fs::symlink(sandbox.home().join("gone"), sandbox.games_dir()).unwrap();
    let program = env!("CARGO_BIN_EXE_checkers");
    let mut game = Session::start_shell(&sandbox, &format!("exec {program}"), &[]);
    game.past_home();
    game.wait_for("the start screen", |s| s.contents().contains("(none yet)"));
    game.send(b"11-15\r");
    game.wait_for("the failed autosave said", |s| {
        s.contents().contains("is a symbolic link to")
    });
}

/// `analyse --load GAME --report --depth 1 --out OUT`: the game's report, quickly, and
/// its annotated record written to `out`.
fn report_args<'a>(game: &'a std::path::Path, out: &'a std::path::Path) -> [&'a str; 8] {
    [
        "analyse",
        "--load",
        game.to_str().unwrap(),
        "--report",
        "--depth",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]
}

/// `analyse --report --out FILE` on a full disk fails and leaves no file (not even an
/// empty one, which the next try would refuse as existing); once there is room, the
/// same command writes the annotated game.
#[test]
fn the_annotated_report_on_a_full_disk_leaves_no_file_and_a_rerun_writes_it() {
    let sandbox = Sandbox::new();
    let mut disk = FullDisk::new();
    // Tags long enough that the annotated game passes a 4 KB file size limit too.
    let game = sandbox.home().join("game.pdn");
    std::fs::write(
        &game,
        format!(
            "[Event \"{}\"]\n[Site \"{}\"]\n[Result \"*\"]\n1. 11-15 23-19 *\n",
            "E".repeat(3000),
            "S".repeat(3000)
        ),
    )
    .unwrap();
    disk.file("room.txt", b"");
    let out_file = disk.dir().join("report.pdn");
    let args = report_args(&game, &out_file);
    let out = disk.run(&sandbox, &args, b"");
    assert!(!out.status.success(), "{}", disk.kind());
    assert!(
        text(&out.stderr).contains("report.pdn"),
        "{}: {}",
        disk.kind(),
        text(&out.stderr)
    );
    let mut left: Vec<String> = std::fs::read_dir(disk.dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name != "filler")
        .collect();
    left.sort();
    assert_eq!(left, ["room.txt"], "{}", disk.kind());

    disk.make_room();
    let out = disk.run(&sandbox, &args, b"");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(
        text(&out.stdout).contains("annotated game written to"),
        "{}",
        text(&out.stdout)
    );
    let written = std::fs::read_to_string(&out_file).unwrap();
    assert!(
        written.contains("[Annotator \"checkers game report\"]"),
        "{written}"
    );
}

/// `analyse --report --out` into a folder that does not exist is refused before any
/// search, naming the folder, and makes no folder (a mistyped path, as `save` refuses).
#[test]
fn the_annotated_report_into_a_missing_folder_is_refused_and_makes_no_folder() {
    let sandbox = Sandbox::new();
    let game = sandbox.home().join("game.pdn");
    std::fs::write(&game, "[Result \"*\"]\n1. 11-15 23-19 *\n").unwrap();
    let missing = sandbox.home().join("reprots");
    let out_file = missing.join("report.pdn");
    let out = run_in(&sandbox, &report_args(&game, &out_file), b"");
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(
        said.contains("no folder") && said.contains("reprots"),
        "{said}"
    );
    assert!(!missing.exists(), "the folder was made");
    assert!(
        text(&out.stdout).is_empty(),
        "it searched: {}",
        text(&out.stdout)
    );
}

/// `analyse --report --out` into the games folder is refused before any search: a file
/// there would be one more game to `checkers games`, `--resume` and `explore --mine`.
#[test]
fn the_annotated_report_into_the_games_folder_is_refused() {
    let sandbox = Sandbox::new();
    std::fs::create_dir_all(sandbox.games_dir()).unwrap();
    let game = sandbox.home().join("game.pdn");
    std::fs::write(&game, "[Result \"*\"]\n1. 11-15 23-19 *\n").unwrap();
    let out_file = sandbox.games_dir().join("report.pdn");
    let out = run_in(&sandbox, &report_args(&game, &out_file), b"");
    assert!(!out.status.success());
    let said = text(&out.stderr);
    assert!(
        said.contains("is where games are saved as they are played"),
        "{said}"
    );
    assert!(
        !out_file.exists(),
        "the report was written in the games folder"
    );
    assert!(
        text(&out.stdout).is_empty(),
        "it searched: {}",
        text(&out.stdout)
    );
}
