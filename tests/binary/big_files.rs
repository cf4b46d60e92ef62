//! Big record files (issue 19): `--load` keeps an index of the file in the cache folder
//! on first open, and opens a game through it as a full read does; a changed file gets
//! a new index.

use crate::common::pty::{Sandbox, run_in};
use std::path::{Path, PathBuf};

const TINSLEY: &str = include_str!("../fixtures/tinsley.pdn");

/// The index files in the sandbox's cache folder.
fn index_files(sandbox: &Sandbox) -> Vec<PathBuf> {
    let dir = sandbox.home().join(".cache/checkers/pdn-index");
    std::fs::read_dir(dir)
        .map(|entries| entries.map(|e| e.unwrap().path()).collect())
        .unwrap_or_default()
}

/// What plain mode shows of game `number` of `file` (its board at the end).
fn shown(sandbox: &Sandbox, file: &Path, number: usize) -> String {
    let out = run_in(
        sandbox,
        &[
            "--plain",
            "--load",
            file.to_str().unwrap(),
            "--game",
            &number.to_string(),
        ],
        b"quit\n",
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn load_opens_a_game_of_a_big_file_through_its_index_as_a_full_read_does() {
    let sandbox = Sandbox::new();
    // Over the 1 MB from which an index is kept: 2,896 games.
    let file = sandbox.home().join("big.pdn");
    std::fs::write(&file, TINSLEY.repeat(4)).unwrap();
    assert!(index_files(&sandbox).is_empty());
    let first = shown(&sandbox, &file, 2000);
    assert_eq!(index_files(&sandbox).len(), 1, "an index is kept");
    let again = shown(&sandbox, &file, 2000);
    assert_eq!(again, first);
    assert_ne!(shown(&sandbox, &file, 1995), first);
    // The same game without the index (a full read) shows the same.
    for index in index_files(&sandbox) {
        std::fs::remove_file(index).unwrap();
    }
    // (No index of this file is kept in this process's cache folder: a full read.)
    let game_2000 = checkers::read_games(&std::fs::read_to_string(&file).unwrap())
        .remove(1999)
        .unwrap();
    let small = sandbox.home().join("one.pdn");
    std::fs::write(&small, checkers::pdn::write_game(&game_2000)).unwrap();
    assert_eq!(shown(&sandbox, &small, 1), first);

    // A grown file: the index is built again and counts the new game.
    let mut grown = TINSLEY.repeat(4);
    grown.push_str("\n[Event \"new\"]\n1. 11-15 23-19 *\n");
    std::fs::write(&file, grown).unwrap();
    let last = shown(&sandbox, &file, 2897);
    assert_ne!(last, first);
    let out = run_in(
        &sandbox,
        &[
            "--plain",
            "--load",
            file.to_str().unwrap(),
            "--game",
            "2898",
        ],
        b"quit\n",
    );
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("has 2897 games"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
