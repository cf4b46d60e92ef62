//! What a key press or a click means: the actions that [`App::update`](super::App::update)
//! applies. The key map and the front end's state both speak this vocabulary.

use crate::rules::Color;
use crate::session::Step;
use ratatui::crossterm::event::KeyEvent;

/// A direction on the screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Direction {
    /// Toward the top of the screen.
    Up,
    /// Toward the bottom.
    Down,
    /// Toward the left.
    Left,
    /// Toward the right.
    Right,
}

/// What a key press or click means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Action {
    /// Open the analysis board on the game and the position shown (in review, or in
    /// play with assistance on).
    Analyse,
    /// Move the cursor one square on the screen.
    Cursor(Direction),
    /// Pick up the piece under the cursor, or land on the square under it.
    Select,
    /// With a piece picked up: the cursor to its next landing square.
    NextTarget,
    /// With a piece picked up: the cursor to its previous landing square.
    PreviousTarget,
    /// Step back one hop, or put the picked-up piece down.
    Back,
    /// A mouse click at a screen cell (column, row).
    Click {
        /// Screen column.
        column: u16,
        /// Screen row.
        row: u16,
    },
    /// Open the move prompt, starting with this character if any.
    OpenPrompt(Option<char>),
    /// Open the chat line (a game across the network).
    OpenChat,
    /// A letter a-h and then a digit were pressed on the board: an algebraic square
    /// (`c3`), which opens the move prompt with both typed.
    TypeSquare {
        /// The file letter pressed first.
        letter: char,
        /// The rank digit pressed after it.
        digit: char,
    },
    /// Type a character into the move prompt.
    Type(char),
    /// Delete the prompt's last character.
    Erase,
    /// Play the move typed in the prompt.
    Submit,
    /// Close the prompt without playing.
    CancelPrompt,
    /// Show the game being played one move earlier (`true`) or later, without undoing.
    Browse(bool),
    /// Open the position editor on the position on the board.
    OpenEditor,
    /// In the editor: put this piece on the square under the cursor (`None` clears it).
    EditPlace(Option<crate::rules::Piece>),
    /// In the editor: the other side to move.
    EditTurn,
    /// In the editor: an empty board.
    EditClear,
    /// In the editor: the start position.
    EditStart,
    /// In the editor: type or paste a FEN.
    EditFen,
    /// In the editor: take the FEN typed.
    EditFenDone,
    /// In the editor: play from the position set up.
    EditPlay,
    /// In the editor: stop typing a FEN, or leave the editor with the game unchanged.
    EditCancel,
    /// Show the position's FEN on the status line.
    ShowFen,
    /// Show the game being played from its start (`true`), or as it stands.
    BrowseEnd(bool),
    /// Take back the last move.
    Undo,
    /// Play again the last move taken back.
    Redo,
    /// Turn the board half round.
    Flip,
    /// Stop both clocks (the board is hidden), or start them again.
    Pause,
    /// Show or hide the algebraic coordinates (a-h, 1-8) round the board.
    ToggleCoordinates,
    /// Scroll the move list toward earlier moves (true) or later ones.
    ScrollMoves(bool),
    /// Open the list of the record file's games.
    GameList,
    /// Open the record file's next game (true) or previous one.
    OtherGame(bool),
    /// Move the choice in the list of games by this many lines.
    ChooseGame(i32),
    /// Choose this line of the list of games (a click on it).
    ChooseGameAt(usize),
    /// Open the game chosen in the list.
    OpenChosenGame,
    /// Close the list of games.
    CloseGameList,
    /// Hand this side to the computer, or back to a person.
    ToggleSide(Color),
    /// Make the thinking computer move now (its best move so far).
    MoveNow,
    /// The computer plays one level stronger (true) or weaker (false).
    ChangeLevel(bool),
    /// Ask the engine for a hint for the side to move.
    Hint,
    /// Ask whether to start a new game.
    AskNewGame,
    /// Start a match's next game: both players are ready.
    NextGame,
    /// Show or hide the help overlay.
    ToggleHelp,
    /// Scroll the help a page toward its end (true) or its start, where it does not fit.
    ScrollHelp(bool),
    /// Quit, asking first when a game is in progress.
    AskQuit,
    /// Quit at once.
    Quit,
    /// Suspend the program (Ctrl-Z); the event loop does it, `fg` comes back.
    Suspend,
    /// Ask who resigns.
    AskResign,
    /// Ask whether the side to move offers a draw.
    AskOfferDraw,
    /// Ask whether to claim the WCDF draw open (repetition or forty moves).
    AskClaimDraw,
    /// Answer the question on screen.
    Answer(Answer),
    /// Step through the game under review.
    Step(Step),
    /// Show the game under review after this many moves (a click on the move list).
    JumpTo(usize),
    /// Stop reviewing and play on from the position shown, changing nothing.
    LeaveReview,
    /// Open the save dialog (on the report screen: to save the annotated game).
    OpenSave,
    /// Show the game report (of the game under review, or the game just ended).
    OpenReport,
    /// On the report screen: step the move shown.
    ReportStep(Step),
    /// On the report screen: show the next marked move (true) or the previous one.
    ReportMark(bool),
    /// Leave the report screen for the board.
    LeaveReport,
    /// Move to the save dialog's next field.
    NextField,
    /// Move to the save dialog's previous field.
    PreviousField,
    /// Empty the save dialog's current field.
    ClearField,
    /// Move the text cursor within the save dialog's current field.
    MoveInField(FieldMotion),
    /// Delete the character under the text cursor in the save dialog.
    Delete,
    /// Save with the dialog's path and names.
    ConfirmSave,
    /// Close the save dialog without saving (or, when it asks about an existing file,
    /// go back to editing it).
    CancelSave,
    /// Save to the existing file the dialog asks about: append the game, or replace it.
    SaveExisting(IfExists),
    /// A key that does nothing on the board: the status line says so, naming it.
    Unbound(KeyEvent),
    /// The terminal was resized.
    Resize {
        /// New width.
        width: u16,
        /// New height.
        height: u16,
    },
}

/// An answer to a question.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// Yes.
    Yes,
    /// No, or cancel.
    No,
    /// This side (for "who resigns?").
    Side(Color),
    /// Resign (for leaving a game across the network).
    Resign,
}

/// A movement of the text cursor within a save dialog field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FieldMotion {
    /// One character left.
    Left,
    /// One character right.
    Right,
    /// To the start.
    Home,
    /// To the end.
    End,
}

pub(crate) use crate::runtime::IfExists;
