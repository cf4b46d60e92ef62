//! The status line: the message shown (news, or why something was refused), whether the
//! prompt's refused text is shown selected, and the words a game starts with.

use super::question::after_the_end;
use crate::rules::{Color, Position};
use crate::runtime::{Runtime, Seat};
use std::collections::VecDeque;

/// The first message: how to start playing.
const WELCOME: &str = "Black moves first: pick a piece with Enter (or click it), or type a move like 11-15. ? shows every key.";

/// The first message when a loaded game opens for review.
pub(super) const REVIEW_WELCOME: &str = "Review: Left/Right step through the moves, Home/End jump; play a move to go on from here, Esc to stop reviewing.";

/// The first message when a file of several games opens on its list of games: the
/// list's own keys (the review's come once a game is chosen).
pub(super) const GAME_LIST_WELCOME: &str = "The file holds several games: type to filter the list, Up/Down choose, Enter opens the game chosen; Esc closes the list on game 1.";

/// How the status line begins the news that the game's autosave failed.
pub(super) const AUTOSAVE_FAILED: &str = "Autosave failed: ";

/// How a message should look.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Tone {
    /// Information.
    Info,
    /// Something was refused.
    Error,
}

/// The status line's state.
#[derive(Clone, Debug, Default)]
pub(crate) struct StatusLine {
    /// The message on the status line.
    pub(crate) message: Option<(Tone, String)>,
    /// The prompt's text was refused and is shown selected: the next digit typed
    /// replaces it, Backspace edits it, and any other key acts on the board.
    pub(crate) prompt_selected: bool,
    /// The side whose person last moved, and the revision the move made: the
    /// computer's reply is told beside it.
    last_person_move: Option<(Color, u64)>,
    /// The message shown is a notice the player must read (one given at the start):
    /// news told after it waits its turn instead of replacing it.
    held: bool,
    /// News waiting for the notice shown to give way, oldest first.
    waiting: VecDeque<(Tone, String)>,
    /// What a crowned man becomes has been said (once is enough: see [`CROWNING`]).
    pub(super) crowning_told: bool,
}

/// Said after "crowned" the first time a man is crowned: a beginner may not know what
/// a king is, and the help that says it is a key away.
pub(super) const CROWNING: &str = ": now a king, it moves both ways";

impl StatusLine {
    /// A status line saying `text`.
    pub(super) fn saying(tone: Tone, text: String) -> StatusLine {
        StatusLine {
            message: Some((tone, text)),
            ..StatusLine::default()
        }
    }

    /// Says `text` as `tone`.
    pub(super) fn say(&mut self, tone: Tone, text: impl Into<String>) {
        self.message = Some((tone, text.into()));
        self.held = false;
    }

    /// Says `text` as `tone`, a notice the player must read: news told after it waits
    /// until a key clears it ([`StatusLine::say_after`]).
    pub(super) fn hold(&mut self, tone: Tone, text: impl Into<String>) {
        self.say(tone, text);
        self.held = true;
    }

    /// Says `text` as `tone`, unless a notice the player must read is shown: then it is
    /// told once a key clears that notice ([`StatusLine::give_way`]).
    pub(super) fn say_after(&mut self, tone: Tone, text: impl Into<String>) {
        if self.held && self.message.is_some() {
            self.waiting.push_back((tone, text.into()));
        } else {
            self.say(tone, text);
        }
    }

    /// After a key: when the line is empty, the oldest news waiting takes it (as a
    /// notice to read in its turn).
    pub(super) fn give_way(&mut self) {
        if self.message.is_none()
            && let Some((tone, text)) = self.waiting.pop_front()
        {
            self.hold(tone, text);
        }
    }

    /// Says `text` as information.
    pub(super) fn info(&mut self, text: impl Into<String>) {
        self.say(Tone::Info, text);
    }

    /// Says `text` as a refusal.
    pub(super) fn error(&mut self, text: impl Into<String>) {
        self.say(Tone::Error, text);
    }

    /// The information shown, if the line shows any.
    pub(super) fn info_shown(&self) -> Option<&str> {
        match &self.message {
            Some((Tone::Info, text)) => Some(text),
            _ => None,
        }
    }

    /// The news that the autosave failed, if the line shows it.
    pub(super) fn autosave_failure_shown(&self) -> Option<&str> {
        match &self.message {
            Some((Tone::Error, text)) if text.starts_with(AUTOSAVE_FAILED) => Some(text),
            _ => None,
        }
    }

    /// `mover`, a person, played a move that made `revision`.
    pub(super) fn person_moved(&mut self, mover: Color, revision: u64) {
        self.last_person_move = Some((mover, revision));
    }

    /// The computer (`color`) replied with `text`, making `revision`: the person's move
    /// just before it stays in view ("Black played 11-15; White (level 5) ...").
    pub(super) fn with_person_move(&self, color: Color, revision: u64, text: String) -> String {
        match self.info_shown() {
            Some(previous) if self.last_person_move == Some((!color, revision - 1)) => {
                format!("{previous}; {text}")
            }
            _ => text,
        }
    }
}

/// Where `?` leads, in the status line's words: at a server's table the help lists only
/// the keys the table takes, so it is named as its box is titled.
pub(super) fn help_words(runtime: &Runtime) -> &'static str {
    if runtime.table().is_some_and(|t| t.at_server) {
        "? shows the table's keys"
    } else {
        crate::tui::keymap::EVERY_KEY_HELP
    }
}

/// What the status line says as a game starts (or is joined): whose move it is, and
/// what this terminal can do about it. Across the network a terminal is told to move
/// only when its own side is to move; a spectator is told it watches.
pub(super) fn start_words(runtime: &Runtime) -> String {
    let session = runtime.session();
    let game = session.game();
    let turn = game.position().turn();
    let fresh = game.moves().is_empty() && *game.start() == Position::start();
    if let Some(outcome) = game.result() {
        let next = after_the_end_at_table(runtime).unwrap_or_else(|| after_the_end(outcome));
        return format!("{outcome}. {next}");
    }
    if session.clocks_held() {
        // The board is hidden until then: picking a piece is not yet what to do.
        return format!("Game resumed: {turn} to move. Any key starts the clocks.");
    }
    if let Some(Seat::Host { address, code, .. }) = runtime.table().map(|t| &t.seat)
        && !runtime.table().is_some_and(|t| t.connected)
    {
        // The host refuses every move until its player joins: picking a piece is not
        // yet what to do (it said "Black moves first: pick a piece with Enter").
        return format!(
            "Waiting for a player to join: give them checkers join {address} --code {code}. {}.",
            help_words(runtime)
        );
    }
    let here = match runtime.table().map(|t| &t.seat) {
        Some(Seat::Spectator) => {
            return format!(
                "You are watching: {turn} to move. < and > step through the moves; q leaves."
            );
        }
        Some(Seat::Player(side)) => Some(*side),
        Some(Seat::Host { .. }) => session.seats().only_person_here(),
        None => None,
    };
    if let Some(mine) = here.filter(|mine| *mine != turn) {
        // A board joining again mid-game is told whose move it is, not who starts.
        let moves = if fresh { "moves first" } else { "to move" };
        return format!(
            "You play {mine}: {turn} {moves}, at the other terminal. {}.",
            help_words(runtime)
        );
    }
    // The computer's move, in a new game or one taken up (--resume, a set-up position):
    // the person waits or hurries it, and is not told to pick a piece.
    if let Some(level) = session.seats().computer(turn) {
        let moves = if fresh { "moves first" } else { "to move" };
        return format!(
            "{} {moves}. m makes it move now; ? shows every key.",
            crate::session::computer_name(turn, level)
        );
    }
    if fresh && turn == Color::Black {
        WELCOME.to_string()
    } else {
        format!(
            "{turn} to move. Pick a piece with Enter (or click it) or type a move; {}.",
            help_words(runtime)
        )
    }
}

/// What a board across the network can do once its game is over, where that is not
/// what a game at one terminal allows (`u` undoing the end, `n` a new game): a
/// spectator only looks, a server's player is offered the rematch (the server has no
/// take-backs), and a LAN host's joiner waits for the host's next game. None at one
/// terminal or at the host.
pub(super) fn after_the_end_at_table(runtime: &Runtime) -> Option<&'static str> {
    let table = runtime.table()?;
    Some(match table.seat {
        Seat::Spectator => "You are watching: < and > step through the moves; q leaves.",
        Seat::Player(_) if table.at_server => "n offers a rematch; q goes back to the lobby.",
        // A match over is a match's word (nothing comes next).
        Seat::Player(_) if runtime.session().match_over() => return None,
        Seat::Player(_) => "The host starts the next game; q leaves.",
        Seat::Host { .. } => return None,
    })
}

/// `text` to open the status line: its first letter a capital, unless it begins with
/// one of `names` (a player's name keeps the case its player gave it: "alice left").
pub(super) fn opening_line(text: &str, names: &crate::pdn::Players) -> String {
    let begins_with_a_name = [&names.black, &names.white]
        .into_iter()
        .flatten()
        .filter(|name| !name.is_empty())
        .any(|name| {
            text.strip_prefix(name.as_str()).is_some_and(|rest| {
                !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '-')
            })
        });
    if begins_with_a_name {
        text.to_string()
    } else {
        capitalize(text)
    }
}

/// `text` with its first letter a capital, to open the status line.
pub(super) fn capitalize(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
