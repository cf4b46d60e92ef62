//! What the program writes, it reads back (issue 19, findings 3 and 4): the longest name
//! the command line takes, the longest tag value and undo list, and the longest game a
//! record holds are saved and read back; a longer name is refused where it is given, a
//! longer game is not saved (and the file keeps the last game that fits).

use crate::cli::Cli;
use crate::game::Game;
use crate::pdn::{
    MAX_NAME_CHARS, MAX_PLIES, MAX_TAG_CHARS, PdnGame, Players, game_from_record, game_record,
};
use crate::rules::Position;
use crate::store::{StoreError, load_record, save_record};
use clap::Parser;

/// Two kings shuffling in their corners for `plies` plies: a legal game of any length.
fn king_shuffle(plies: usize) -> Game {
    let start: Position = "B:WK32:BK1".parse().unwrap();
    let mut game = Game::from_position(start);
    for ply in 0..plies {
        game.play_text(["1-5", "32-28", "5-1", "28-32"][ply % 4])
            .unwrap();
    }
    game
}

#[test]
fn finding_3_the_longest_name_is_saved_and_read_back_and_a_longer_one_refused() {
    // Two bytes a character: the limit counts characters, as the reader does.
    let longest = "é".repeat(MAX_NAME_CHARS);
    let cli = Cli::try_parse_from(["checkers", "--black-name", &longest]).unwrap();
    assert_eq!(cli.play.black_name.as_deref(), Some(longest.as_str()));
    let too_long = "é".repeat(MAX_NAME_CHARS + 1);
    let error = Cli::try_parse_from(["checkers", "--white-name", &too_long])
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("a name is at most 1024 characters (this one has 1025)"),
        "{error}"
    );

    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("names.pdn");
    let players = Players {
        black: Some(longest.clone()),
        white: Some("W".repeat(MAX_NAME_CHARS)),
    };
    let record = game_record(&king_shuffle(2), &players, "2026.12.01");
    save_record(&path, &record).unwrap();
    let (_, back) = game_from_record(&load_record(&path, 1).unwrap());
    assert_eq!(back, players);
}

#[test]
fn finding_3_tag_values_and_undo_lists_are_cut_to_what_the_reader_takes() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tags.pdn");
    let mut record = PdnGame::new(Position::start());
    record.set_tag("Event", &"x".repeat(MAX_TAG_CHARS * 3));
    record.set_tag("Annotator", &"\"".repeat(MAX_TAG_CHARS));
    save_record(&path, &record).unwrap();
    let back = load_record(&path, 1).unwrap();
    assert_eq!(back.tag("Event").unwrap().len(), MAX_TAG_CHARS);
    assert_eq!(back.tag("Annotator").unwrap(), "\"".repeat(MAX_TAG_CHARS));

    // 3,000 moves taken back: the Undone tag is longer than the reader takes; the
    // record still reads, with the first moves to redo.
    let mut game = king_shuffle(3000);
    while game.undo() {}
    let record = game_record(&game, &Players::default(), "?");
    save_record(&path, &record).unwrap();
    let (resumed, _) = game_from_record(&load_record(&path, 1).unwrap());
    let redo = resumed.undone_moves();
    assert!(redo.len() > 500, "{} moves to redo", redo.len());
    assert_eq!(redo[..], game.undone_moves()[..redo.len()]);
}

#[test]
fn finding_4_the_longest_game_is_saved_and_read_back_and_a_longer_one_is_not_saved() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("long.pdn");
    let mut game = king_shuffle(MAX_PLIES);
    let record = game_record(&game, &Players::default(), "?");
    save_record(&path, &record).unwrap();
    let (back, _) = game_from_record(&load_record(&path, 1).unwrap());
    assert_eq!(back.moves().len(), MAX_PLIES);
    assert_eq!(back.moves(), game.moves());

    game.play_text("1-5").unwrap();
    let record = game_record(&game, &Players::default(), "?");
    let refused = save_record(&path, &record).unwrap_err();
    assert!(matches!(refused, StoreError::TooLong(n) if n == MAX_PLIES + 1));
    assert!(
        refused
            .to_string()
            .contains("more than a saved game can hold (20000)")
    );
    assert!(crate::store::append_record(&path, &record).is_err());
    // The file still holds the longest game, readable.
    assert_eq!(load_record(&path, 1).unwrap().moves.len(), MAX_PLIES);
}
