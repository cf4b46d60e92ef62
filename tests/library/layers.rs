//! The front ends stay thin: the computer's engine, its search threads and the autosave
//! belong to the runtime, so no file of the full-screen or the plain front end names
//! them. A front end that did would be wiring a side effect a second time.

use std::path::{Path, PathBuf};

/// The Rust files under `dir`, and `dir` itself if it is one.
fn rust_files(path: &Path) -> Vec<PathBuf> {
    if path.extension().is_some_and(|e| e == "rs") {
        return vec![path.to_path_buf()];
    }
    let mut files = Vec::new();
    for entry in std::fs::read_dir(path).unwrap() {
        files.extend(rust_files(&entry.unwrap().path()));
    }
    files
}

/// The code of `file` without its comments and string literals (the words on screen
/// may well speak of the engine).
fn code(file: &Path) -> String {
    std::fs::read_to_string(file)
        .unwrap()
        .lines()
        .map(|line| {
            let line = line.split("//").next().unwrap_or("");
            // Every other piece between quotes is a string's text.
            line.split('"').step_by(2).collect::<String>()
        })
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn no_front_end_file_names_the_engine_its_threads_or_the_autosaver() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let files: Vec<PathBuf> = [src.join("tui"), src.join("plain")]
        .iter()
        .flat_map(|p| rust_files(p))
        .collect();
    assert!(files.len() > 10, "{files:?}");
    for file in &files {
        let code = code(file);
        for name in ["Engine", "SearchHandle", "Autosaver", "StopFlag"] {
            let named = code
                .match_indices(name)
                .any(|(at, _)| !code[at + name.len()..].starts_with(|c: char| c.is_alphanumeric()));
            assert!(!named, "{} names {name}", file.display());
        }
    }
}
