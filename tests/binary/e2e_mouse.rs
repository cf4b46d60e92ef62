//! The full-screen game played by a player who uses only the mouse: the home screen's
//! rows, the board's squares, and every action its key line offers (undo, help, quit
//! and the question's answers), clicked in a pseudo-terminal as a terminal sends clicks.

use crate::common::pty::Session;

/// Whether the screen's last row is the board's key line, drawn whole (the frame is
/// done, not half drawn over the one before).
fn keys_drawn(screen: &vt100::Screen) -> bool {
    // A game started from the home screen goes back there with q: "q home".
    let text = screen.contents();
    let text = text.trim_end();
    text.ends_with("q quit") || text.ends_with("q home")
}

/// Clicks square `number` where its number is drawn on the board (on the square, above
/// the news that may name it too).
fn click_square(game: &mut Session, number: &str) {
    let (column, row) = game
        .find_first(&format!(" {number} "))
        .unwrap_or_else(|| panic!("no square {number}:\n{}", game.contents()));
    game.click(column + 1, row);
}

/// Plays 11-15 by clicking square 11, then square 15.
fn click_11_15(game: &mut Session) {
    click_square(game, "11");
    game.wait_for("11 picked up", |s| s.contents().contains("on 11 picked up"));
    click_square(game, "15");
    game.wait_for("the move in the list", |s| {
        s.contents().contains("1. 11-15") && s.contents().contains("White to move") && keys_drawn(s)
    });
}

#[test]
fn a_game_is_played_undone_and_left_by_mouse_alone() {
    let mut game = Session::start(&[], &[]);
    game.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    game.click_on("Two players at this terminal");
    game.wait_for("the board", |s| {
        s.contents().contains("(none yet)") && keys_drawn(s)
    });
    click_11_15(&mut game);

    // The key line's "u undo" takes the move back.
    game.click_on("u undo");
    game.wait_for("the move undone", |s| {
        s.contents().contains("(none yet)")
            && s.contents().contains("Black to move")
            && keys_drawn(s)
    });
    click_11_15(&mut game);

    // "? help" opens the help; a click closes it, as any key does.
    game.click_on("? help");
    game.wait_for("the help", |s| s.contents().contains("Help"));
    let (column, row) = game.find("Help").unwrap();
    game.click(column, row);
    game.wait_for("the help closed", |s| {
        !s.contents().contains("this help") && keys_drawn(s)
    });

    // "q home" (the game was started there) asks; a click on "n no" keeps the game,
    // on "y yes" leaves it for the home screen, whose "q quit" ends the program.
    let asked = "Back to the home screen? The game is saved";
    game.click_on("q home");
    game.wait_for("the quit question", |s| {
        s.contents().contains(asked) && s.contents().contains("n no")
    });
    game.click_on("n no");
    game.wait_for("the game kept", |s| {
        !s.contents().contains(asked) && keys_drawn(s)
    });
    game.click_on("q home");
    game.wait_for("the quit question", |s| {
        s.contents().contains(asked) && s.contents().contains("n no")
    });
    game.click_on("y yes");
    game.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal") && frame_drawn(s)
    });
    game.click_on("q quit");
    let status = game.exit_status();
    assert!(status.success(), "exit status {status:?}");
    assert!(
        game.contents()
            .contains("The game is saved: checkers --resume continues it."),
        "{}",
        game.contents()
    );
}

/// Whether the home screen's frame is drawn whole: its bottom border is the last thing
/// drawn on the screen.
fn frame_drawn(screen: &vt100::Screen) -> bool {
    screen
        .contents()
        .lines()
        .rfind(|line| !line.trim().is_empty())
        .is_some_and(|line| line.trim_start().starts_with('└'))
}

/// On the board's smallest screens the computer page opens at its start (its heading
/// and its rows in view, not scrolled down to "Start the game" and its note), the
/// wheel moves the chosen row on the list and on the page, and a click on the key
/// line's Esc goes back.
#[test]
fn at_30x12_the_computer_page_opens_at_its_start_and_the_wheel_moves_its_row() {
    let mut game = Session::start(&[], &[]);
    game.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    game.resize(30, 12);
    game.wait_for("the compact list", |s| {
        s.contents().contains("> p Two players") && frame_drawn(s)
    });
    let (column, row) = game.find("Two players").unwrap();
    game.wheel(column, row, true);
    game.wait_for("the wheel on the list", |s| {
        s.contents().contains("> c The computer") && frame_drawn(s)
    });
    game.click_on("The computer");
    game.wait_for("the computer page", |s| {
        s.contents().contains("> Start the game") && frame_drawn(s)
    });
    let page = game.contents();
    for shown in ["Play the computer", "You play", "Level"] {
        assert!(page.contains(shown), "{shown} is not in view:\n{page}");
    }
    let (column, row) = game.find("Start the game").unwrap();
    game.wheel(column, row, false);
    game.wait_for("the wheel on the page", |s| {
        s.contents().contains("> Level") && frame_drawn(s)
    });
    game.wheel(column, row, false);
    game.wait_for("the wheel on the page", |s| {
        s.contents().contains("> You play") && frame_drawn(s)
    });
    // The key line's "Esc back" (wrapped over two rows here) goes back to the list.
    game.click_on("Esc");
    game.wait_for("the list again", |s| {
        s.contents().contains("> c The computer") && frame_drawn(s)
    });
}

/// The computer's level goes up by a click on its ">" and down by one on its "<", and
/// the game starts at the level chosen.
#[test]
fn the_level_is_raised_and_lowered_by_clicks_on_its_arrows() {
    let mut game = Session::start(&[], &[]);
    game.wait_for("the home screen", |s| {
        s.contents().contains("Two players at this terminal")
    });
    game.click_on("Play the computer");
    game.wait_for("the computer page", |s| {
        s.contents().contains("< 5 > of 10") && frame_drawn(s)
    });
    game.click_on("> of 10");
    game.wait_for("level 6", |s| {
        s.contents().contains("< 6 > of 10") && frame_drawn(s)
    });
    game.click_on("> of 10");
    game.wait_for("level 7", |s| {
        s.contents().contains("< 7 > of 10") && frame_drawn(s)
    });
    game.click_on("< 7");
    game.wait_for("level 6", |s| {
        s.contents().contains("< 6 > of 10") && frame_drawn(s)
    });
    game.click_on("Start the game");
    game.wait_for("the game at level 6", |s| {
        s.contents().contains("level 6") && keys_drawn(s)
    });
}
