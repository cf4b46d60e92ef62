//! What the panel beside the board shows of the game: the move list, scrolled back or
//! browsed a move at a time (the board then shows that moment, and the game itself is
//! not changed), and the position's FEN.

use crate::game::Game;

/// Lines the move list scrolls by (PgUp, PgDn, the mouse wheel).
const LIST_PAGE: usize = 5;

/// The panel's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct Panel {
    /// How many lines the move list is scrolled back from its latest move.
    pub(crate) list_scroll: usize,
    /// While the game being played is browsed: the moves played up to the position
    /// shown (the game itself is not changed).
    pub(crate) browse: Option<usize>,
    /// The FEN of the position shown is in the panel (`F`).
    pub(crate) show_fen: bool,
}

impl Panel {
    /// A page of the move list back (`back`) or on, among `pairs` lines.
    pub(super) fn scroll(&mut self, back: bool, pairs: usize) {
        self.list_scroll = if back {
            (self.list_scroll + LIST_PAGE).min(pairs.saturating_sub(1))
        } else {
            self.list_scroll.saturating_sub(LIST_PAGE)
        };
    }

    /// `<` or `>`: `game` is shown one move earlier or later, with that move marked;
    /// past the last move it is the game as it stands again. What to say.
    pub(super) fn browse(&mut self, back: bool, game: &Game) -> String {
        let live = game.moves().len();
        let now = self.browse.unwrap_or(live);
        let next = if back { now.saturating_sub(1) } else { now + 1 };
        if next >= live {
            self.browse = None;
            return "Back to the game as it stands".to_string();
        }
        self.browse = Some(next);
        // In the move list's numbers: "After move 12 (White's 27-24) of 13".
        let text = game.shown_text(next, live);
        format!("{text}: < > step, Esc or a move returns to the game")
    }

    /// Before Home or End browses: one step past the start (or the end) of `game`,
    /// from where a single step lands there.
    pub(super) fn before_end(&mut self, start: bool, game: &Game) {
        let live = game.moves().len();
        self.browse = if start { Some(1.min(live)) } else { None };
    }

    /// `F`: the FEN line shown or hidden; whether it is shown now.
    pub(super) fn toggle_fen(&mut self) -> bool {
        self.show_fen = !self.show_fen;
        self.show_fen
    }
}
