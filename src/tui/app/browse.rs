//! Browsing the game being played: the board shows it a move earlier or later, with
//! that move marked, and the game itself is not changed.

use super::App;

impl App {
    /// `<` or `>`: the board shows the game one move earlier or later, with that move
    /// marked; past the last move it is the game as it stands again.
    pub(super) fn browse(&mut self, back: bool) {
        if self.session().is_reviewing() {
            self.info("In review the arrows step through the moves");
            return;
        }
        let live = self.game().moves().len();
        let now = self.browse.unwrap_or(live);
        let next = if back { now.saturating_sub(1) } else { now + 1 };
        self.pick = None;
        if next >= live {
            self.browse = None;
            self.info("Back to the game as it stands");
            return;
        }
        self.browse = Some(next);
        // In the move list's numbers: "After move 12 (White's 4-8) of 13".
        let text = self.game().shown_text(next, live);
        self.info(format!(
            "{text}: < > step, Esc or a move returns to the game"
        ));
    }
}
