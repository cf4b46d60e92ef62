//! The one key map of the board: a table that the key handler, the footer and the help
//! overlay all read, so a key cannot do one thing and be described as another.
//!
//! The other modes (the move prompt, the save dialog, a question, the help overlay) are
//! text entry or a single answer; their few keys live with them in [`super::app`].

use super::action::{Action, Direction};
use crate::rules::Color;
use crate::session::Step;
use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};

/// A key as the table names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Key {
    /// A character typed alone or with Shift, never with Ctrl or Alt (case counts: `u`
    /// and `U` differ).
    Char(char),
    /// A character with Ctrl held.
    Ctrl(char),
    /// Any digit, 0-9, typed alone (it opens the move prompt with itself typed).
    Digit,
    /// A named key pressed without Ctrl or Alt: arrows, Enter, Esc, Home, End, ...
    Code(KeyCode),
}

impl Key {
    /// Whether `key` is this key: the plain ones through [`plain_code`], so that Alt-u
    /// is no more `u` than Ctrl-U is.
    fn matches(self, key: &KeyEvent) -> bool {
        match (self, plain_code(key)) {
            (Key::Ctrl(c), _) => {
                key.modifiers.contains(KeyModifiers::CONTROL)
                    && matches!(key.code, KeyCode::Char(k) if k.eq_ignore_ascii_case(&c))
            }
            (Key::Char(c), KeyCode::Char(k)) => c == k,
            (Key::Digit, KeyCode::Char(k)) => k.is_ascii_digit(),
            (Key::Code(code), k) => code == k,
            _ => false,
        }
    }
}

/// When a binding applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum When {
    /// In every mode, dialogs and questions included.
    Anywhere,
    /// On the board, always.
    Board,
    /// On the board while a recorded game is stepped through.
    Reviewing,
    /// Reviewing, with no piece picked up.
    ReviewingAtRest,
    /// A match game has ended and the match's next game waits for the players.
    MatchWaits,
}

/// Where a binding shows in the footer, which lists only the keys that matter now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Footer {
    /// Playing, always.
    Play,
    /// Playing, while a draw can be claimed.
    PlayClaimOpen,
    /// Playing, while no draw can be claimed.
    PlayNoClaim,
    /// Reviewing a recorded game.
    Review,
    /// While the computer thinks about its move.
    Thinking,
    /// While the computer thinks for this side (the key to take it over).
    ThinkingFor(Color),
    /// While a match's next game waits for the players.
    NextGame,
    /// Once a match is over.
    MatchOver,
    /// Once the game (not a match's) is over.
    Over,
    /// Playing across the network.
    Table,
    /// Watching a game across the network.
    Watching,
    /// Playing a server's game, one of its players, while it is in play: the keys such
    /// a player needs (a draw offered, a resignation) were in the help alone.
    Seated,
}

/// One line of the key map.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Binding {
    /// The keys that do it.
    pub(crate) keys: &'static [Key],
    /// What they do; `None` for [`Key::Digit`], which opens the prompt with the digit.
    pub(crate) action: Option<Action>,
    /// When it applies.
    pub(crate) when: When,
    /// The keys as the footer and help show them; `{arrows}` and `{steps}` stand for
    /// the theme's arrow glyphs. Empty: not shown (another line describes it).
    pub(crate) label: &'static str,
    /// What it does, in a word or two, for the footer.
    pub(crate) short: &'static str,
    /// What it does, for the help overlay; empty: not listed there (another line
    /// names the key with this meaning too, so that the help names each key once).
    pub(crate) help: &'static str,
    /// Where the footer shows it.
    pub(crate) footer: &'static [Footer],
}

const fn bind(
    keys: &'static [Key],
    action: Action,
    when: When,
    label: &'static str,
    short: &'static str,
    help: &'static str,
    footer: &'static [Footer],
) -> Binding {
    Binding {
        keys,
        action: Some(action),
        when,
        label,
        short,
        help,
        footer,
    }
}

use Footer::*;
use Key::{Char, Code, Ctrl};

/// The board's keys, first match wins (so the review's arrows come before the cursor's).
#[rustfmt::skip]
pub(crate) const BOARD_KEYS: &[Binding] = &[
    bind(&[Code(KeyCode::Left)], Action::Step(Step::Back), When::Reviewing, "{steps}", "step", "", &[Review]),
    bind(&[Code(KeyCode::Right)], Action::Step(Step::Forward), When::Reviewing, "", "", "", &[]),
    bind(&[Code(KeyCode::Up)], Action::Step(Step::Back), When::Reviewing, "", "", "", &[]),
    bind(&[Code(KeyCode::Down)], Action::Step(Step::Forward), When::Reviewing, "", "", "", &[]),
    bind(&[Code(KeyCode::Home)], Action::Step(Step::Start), When::Reviewing, "Home/End", "first/last", "first/last (review, browse)", &[Review]),
    bind(&[Code(KeyCode::End)], Action::Step(Step::End), When::Reviewing, "", "", "", &[]),
    bind(&[Char(']')], Action::OtherGame(true), When::Reviewing, "[ ]", "other game", "review: previous/next game", &[]),
    bind(&[Char('[')], Action::OtherGame(false), When::Reviewing, "", "", "", &[]),
    bind(&[Char('g')], Action::GameList, When::Board, "g", "games", "the file's games (--load)", &[]),
    bind(&[Code(KeyCode::Esc)], Action::LeaveReview, When::ReviewingAtRest, "Esc", "stop reviewing", "", &[Review]),
    bind(&[Code(KeyCode::Up), Char('k')], Action::Cursor(Direction::Up), When::Board, "{arrows} hjkl", "move", "move cursor; review: step", &[Play]),
    bind(&[Code(KeyCode::Down), Char('j')], Action::Cursor(Direction::Down), When::Board, "", "", "", &[]),
    bind(&[Code(KeyCode::Left), Char('h')], Action::Cursor(Direction::Left), When::Board, "", "", "", &[]),
    bind(&[Code(KeyCode::Right), Char('l')], Action::Cursor(Direction::Right), When::Board, "", "", "", &[]),
    bind(&[Code(KeyCode::Tab)], Action::NextTarget, When::Board, "Tab Shift-Tab", "next landing", "cycle landings", &[]),
    bind(&[Code(KeyCode::BackTab)], Action::PreviousTarget, When::Board, "", "", "", &[]),
    bind(&[Code(KeyCode::Enter), Char(' ')], Action::Select, When::Board, "Enter Space", "pick", "pick up, then land", &[Play]),
    bind(&[Code(KeyCode::Esc), Code(KeyCode::Backspace)], Action::Back, When::Board, "Esc Backspace", "back", "back; review: play on", &[]),
    Binding { keys: &[Key::Digit], action: None, when: When::Board, label: "0-9", short: "type", help: "type a move: 11-15", footer: &[Play] },
    bind(&[Char(':')], Action::OpenPrompt(None), When::Board, ":", "type", "type c3-d4 (c3 also starts it)", &[]),
    bind(&[Char('\'')], Action::OpenChat, When::Board, "'", "say", "chat (across the network)", &[Table]),
    bind(&[Char('m')], Action::MoveNow, When::Board, "m", "move now", "computer: move now", &[Thinking]),
    bind(&[Char('b')], Action::ToggleSide(Color::Black), When::Board, "b w", "take over", "computer plays Black/White", &[ThinkingFor(Color::Black)]),
    bind(&[Char('w')], Action::ToggleSide(Color::White), When::Board, "w", "take over", "", &[ThinkingFor(Color::White)]),
    bind(&[Char('u')], Action::Undo, When::Board, "u", "undo", "undo (and the reply)", &[Play, Thinking, Over]),
    bind(&[Char('U'), Ctrl('r')], Action::Redo, When::Board, "U Ctrl-R", "redo", "redo", &[PlayNoClaim, Over]),
    bind(&[Char('c')], Action::AskClaimDraw, When::Board, "c", "claim draw", "claim a draw (asks)", &[PlayClaimOpen]),
    bind(&[Char('s'), Ctrl('s')], Action::OpenSave, When::Board, "s Ctrl-S", "save", "save as PDN", &[PlayNoClaim, Review, NextGame, MatchOver, Over, Watching]),
    bind(&[Char('R')], Action::OpenReport, When::Board, "R", "report", "game report (review, ended)", &[Review, Over]),
    bind(&[Char('d')], Action::AskOfferDraw, When::Board, "d", "offer draw", "offer a draw (asks)", &[Seated]),
    bind(&[Char('r')], Action::AskResign, When::Board, "r", "resign", "resign (asks)", &[Seated]),
    bind(&[Char('+'), Char('=')], Action::ChangeLevel(true), When::Board, "+ -", "level", "computer level up/down", &[]),
    bind(&[Char('-')], Action::ChangeLevel(false), When::Board, "", "", "", &[]),
    bind(&[Char('t')], Action::Hint, When::Board, "t", "hint", "hint (not played)", &[]),
    bind(&[Char('A')], Action::Analyse, When::Board, "A", "analyse", "analysis board here", &[Review]),
    bind(&[Char('a')], Action::ToggleCoordinates, When::Board, "a", "coordinates", "coordinates a-h 1-8", &[]),
    bind(&[Code(KeyCode::PageUp)], Action::ScrollMoves(true), When::Board, "PgUp PgDn", "scroll", "scroll the moves", &[]),
    bind(&[Code(KeyCode::PageDown)], Action::ScrollMoves(false), When::Board, "", "", "", &[]),
    bind(&[Code(KeyCode::Home)], Action::BrowseEnd(true), When::Board, "Home/End", "", "", &[]),
    bind(&[Code(KeyCode::End)], Action::BrowseEnd(false), When::Board, "", "", "", &[]),
    bind(&[Char('<')], Action::Browse(true), When::Board, "< >", "browse", "browse the game (Esc: back)", &[Watching]),
    bind(&[Char('>')], Action::Browse(false), When::Board, "", "", "", &[]),
    bind(&[Char('f')], Action::Flip, When::Board, "f", "flip", "flip the board", &[]),
    bind(&[Char('E')], Action::OpenEditor, When::Board, "E", "set up", "set up a position", &[]),
    bind(&[Char('F')], Action::ShowFen, When::Board, "F", "FEN", "the position's FEN in the panel", &[]),
    bind(&[Char('p')], Action::Pause, When::Board, "p", "pause", "pause the clocks", &[]),
    bind(&[Char('n')], Action::NextGame, When::MatchWaits, "n", "next game", "", &[NextGame]),
    bind(&[Char('n')], Action::AskNewGame, When::Board, "n", "new game", "new game; match: next game", &[Thinking, Over]),
    bind(&[Char('?')], Action::ToggleHelp, When::Board, "?", "help", "this help", &[Play, Review, Thinking, NextGame, MatchOver, Over, Watching]),
    bind(&[Char('q')], Action::AskQuit, When::Board, "q", "quit", "quit (then --resume)", &[Play, Review, Thinking, NextGame, MatchOver, Over, Watching]),
    bind(&[Ctrl('c')], Action::Quit, When::Anywhere, "Ctrl-C", "quit now", "quit at once", &[]),
    bind(&[Ctrl('z')], Action::Suspend, When::Anywhere, "Ctrl-Z", "suspend", "suspend (fg resumes)", &[]),
];

/// The state of the board that decides which bindings apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BoardState {
    /// A recorded game is being stepped through.
    pub(crate) reviewing: bool,
    /// A piece is picked up.
    pub(crate) picking: bool,
    /// A match's next game waits for the players.
    pub(crate) match_waits: bool,
}

impl When {
    fn applies(self, state: BoardState) -> bool {
        match self {
            When::Anywhere | When::Board => true,
            When::Reviewing => state.reviewing,
            When::ReviewingAtRest => state.reviewing && !state.picking,
            When::MatchWaits => state.match_waits,
        }
    }
}

/// The action of `key` on the board in `state`, if it has one. A file letter a-h with
/// no action of its own starts a move in letters (`e3-f4`).
pub(crate) fn board_action(key: &KeyEvent, state: BoardState) -> Option<Action> {
    BOARD_KEYS
        .iter()
        .filter(|b| b.when.applies(state))
        .find_map(|b| {
            let key_matches = b.keys.iter().any(|k| k.matches(key));
            match (key_matches, b.action, key.code) {
                (false, _, _) => None,
                (true, Some(action), _) => Some(action),
                (true, None, KeyCode::Char(c)) => Some(Action::OpenPrompt(Some(c))),
                (true, None, _) => None,
            }
        })
        .or_else(|| file_letter(key).map(|c| Action::OpenPrompt(Some(c))))
}

/// The file letter a-h that `key` types, if it is one (without Ctrl or Alt): it may
/// begin an algebraic square, as in `c3-d4`.
pub(crate) fn file_letter(key: &KeyEvent) -> Option<char> {
    match key.code {
        KeyCode::Char(c @ 'a'..='h') if !modified(key) => Some(c),
        _ => None,
    }
}

/// The key as its user typed it, for saying that it does nothing here: `x`, `X`,
/// `Ctrl-X`, `Alt-x`, `F5`, `Insert`, `Ctrl-Left`. `None` for a key that is not typed
/// on its own (Shift, Caps Lock) or that no one means to press.
pub(crate) fn key_name(key: &KeyEvent) -> Option<String> {
    let mut name = String::new();
    if key.modifiers.contains(KeyModifiers::CONTROL) {
        name.push_str("Ctrl-");
    }
    if key.modifiers.contains(KeyModifiers::ALT) {
        name.push_str("Alt-");
    }
    let named = match key.code {
        // Ctrl-x is written Ctrl-X, as the help writes Ctrl-R; a typed letter keeps its
        // case (Shift is in it already).
        KeyCode::Char(c) if key.modifiers.contains(KeyModifiers::CONTROL) => {
            c.to_uppercase().collect()
        }
        KeyCode::Char(' ') => "Space".to_string(),
        KeyCode::Char(c) if c.is_control() => return None,
        KeyCode::Char(c) => c.to_string(),
        KeyCode::F(n) => format!("F{n}"),
        KeyCode::BackTab => "Shift-Tab".to_string(),
        KeyCode::PageUp => "PgUp".to_string(),
        KeyCode::PageDown => "PgDn".to_string(),
        KeyCode::Backspace => "Backspace".to_string(),
        KeyCode::Enter => "Enter".to_string(),
        KeyCode::Left => "Left".to_string(),
        KeyCode::Right => "Right".to_string(),
        KeyCode::Up => "Up".to_string(),
        KeyCode::Down => "Down".to_string(),
        KeyCode::Home => "Home".to_string(),
        KeyCode::End => "End".to_string(),
        KeyCode::Tab => "Tab".to_string(),
        KeyCode::Delete => "Delete".to_string(),
        KeyCode::Insert => "Insert".to_string(),
        KeyCode::Esc => "Esc".to_string(),
        KeyCode::Menu => "Menu".to_string(),
        KeyCode::Pause => "Pause".to_string(),
        KeyCode::PrintScreen => "Print Screen".to_string(),
        KeyCode::KeypadBegin => "Keypad 5".to_string(),
        // Shift, Caps Lock, the media keys and the like are not pressed to act.
        KeyCode::Null
        | KeyCode::CapsLock
        | KeyCode::ScrollLock
        | KeyCode::NumLock
        | KeyCode::Media(_)
        | KeyCode::Modifier(_) => return None,
    };
    name.push_str(&named);
    Some(name)
}

/// What a screen says of `key` when it does nothing there, naming the key as typed and
/// `help`, the words of the screen's key that shows its keys ([`EVERY_KEY_HELP`] on
/// most): "The key i does nothing here; ? shows every key". `None` for a key no one
/// presses to act ([`key_name`]). Every screen says it in these words.
pub(crate) fn unbound_note(key: &KeyEvent, help: &str) -> Option<String> {
    key_name(key).map(|name| format!("The key {name} does nothing here; {help}"))
}

/// The code of `key` as a command reads it: with Ctrl or Alt held it is no key
/// ([`KeyCode::Null`]), so that Ctrl-p or Alt-p is not taken for p. Every screen's
/// single-key commands read their keys through it (the board's through [`Key`], the
/// editor's, the questions', the report's, the home screen's, the puzzles', the
/// lobby's); Ctrl-C, Ctrl-Z and the other Ctrl bindings are read before it, and typed
/// text through [`crate::tui::field::typed_char`].
pub(crate) fn plain_code(key: &KeyEvent) -> KeyCode {
    if modified(key) {
        KeyCode::Null
    } else {
        key.code
    }
}

/// `event` with a line feed taken as Enter. A line feed is Ctrl-J as raw mode reads it,
/// and it is how Enter comes when typed before raw mode was on: the terminal, still in
/// cooked mode, turned its carriage return into a line feed (ICRNL), so a move typed as
/// the screen starts would otherwise lose its Enter.
pub(crate) fn line_feed_as_enter(event: Event) -> Event {
    match event {
        Event::Key(key)
            if key.code == KeyCode::Char('j') && key.modifiers == KeyModifiers::CONTROL =>
        {
            Event::Key(KeyEvent::new_with_kind(
                KeyCode::Enter,
                KeyModifiers::NONE,
                key.kind,
            ))
        }
        other => other,
    }
}

/// Whether `key` was pressed with Ctrl or Alt held (Shift is part of the character).
pub(crate) fn modified(key: &KeyEvent) -> bool {
    key.modifiers
        .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}

/// The words of the `?` key on a screen where it shows every key.
pub(crate) const EVERY_KEY_HELP: &str = "? shows every key";

/// The action of `key` in any mode (Ctrl-C), if it has one.
pub(crate) fn global_action(key: &KeyEvent) -> Option<Action> {
    BOARD_KEYS
        .iter()
        .filter(|b| b.when == When::Anywhere)
        .find(|b| b.keys.iter().any(|k| k.matches(key)))
        .and_then(|b| b.action)
}

/// The footer's keys where `shown` says a binding belongs and `offered` says its action
/// can be taken: (label, short).
pub(crate) fn footer_keys(
    shown: impl Fn(Footer) -> bool,
    offered: impl Fn(Action) -> bool,
) -> Vec<(&'static str, &'static str)> {
    BOARD_KEYS
        .iter()
        .filter(|b| !b.label.is_empty() && b.footer.iter().any(|f| shown(*f)))
        .filter(|b| b.action.is_none_or(&offered))
        .map(|b| (b.label, b.short))
        .collect()
}

/// Where the game whose help is shown was started: what `q` does depends on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Quits {
    /// From the command line: `q` ends the program; `--resume` takes the game up.
    Program,
    /// From the home screen: `q` goes back there, whose `r` takes the game up.
    ToHome,
    /// From the command line, across the network: `q` leaves the table (it asks how).
    Table,
    /// From the home screen, across the network: `q` leaves the table (it asks how)
    /// for the home screen.
    TableToHome,
}

/// The help overlay's lines: (label, help), in the table's order, each key once, `q`
/// said as it `quits`; at a table across the network, without the keys every such
/// table refuses, and without the engine's help (`t`, `A`) unless it is `assisted`.
pub(crate) fn help_lines(
    quits: Quits,
    assisted: bool,
) -> impl Iterator<Item = (&'static str, &'static str)> {
    let at_table = matches!(quits, Quits::Table | Quits::TableToHome);
    // Without assistance a table's game is in play to its end and both keys are
    // refused (a joiner's board never has it: the host's engine is not lent).
    let refused = move |action: Action| {
        refused_across_the_network(action)
            || (!assisted && matches!(action, Action::Hint | Action::Analyse))
    };
    BOARD_KEYS
        .iter()
        .filter(|b| !b.label.is_empty() && !b.help.is_empty())
        .filter(move |b| !(at_table && b.action.is_some_and(refused)))
        .map(move |b| {
            let help = match (b.action, quits) {
                // "then --resume" would send someone at the home screen to the command
                // line.
                (Some(Action::AskQuit), Quits::ToHome) => "home screen (r there resumes)",
                (Some(Action::AskQuit), Quits::TableToHome) => "leave for the home screen (asks)",
                (Some(Action::AskQuit), Quits::Table) => "leave the table (asks)",
                _ => b.help,
            };
            (b.label, help)
        })
}

/// The help overlay's lines at a server's table: only the keys it takes (those for a
/// game at one terminal, which it refuses with a reason, are left out), in its words.
pub(crate) fn server_help_lines() -> impl Iterator<Item = (&'static str, &'static str)> {
    BOARD_KEYS
        .iter()
        .filter(|b| !b.label.is_empty() && !b.help.is_empty())
        .filter(|b| !b.action.is_some_and(refused_at_a_server))
        .map(|b| {
            let help = match b.action {
                Some(Action::AskQuit) => "leave the board (asks)",
                Some(Action::AskNewGame) => "after a game: offer a rematch",
                Some(Action::OpenChat) => "say a line at the table",
                _ => b.help,
            };
            (b.label, help)
        })
}

/// Whether every table across the network refuses `action` (a game at one terminal's:
/// the computer, set-ups, pauses, a file's games): each side is played at its own
/// terminal, and the clocks are both players'.
fn refused_across_the_network(action: Action) -> bool {
    matches!(
        action,
        Action::ToggleSide(_)
            | Action::ChangeLevel(_)
            | Action::OpenEditor
            | Action::Pause
            | Action::MoveNow
            | Action::GameList
            | Action::OtherGame(_)
    )
}

/// Whether a server's table refuses `action`: what every table across the network
/// refuses, and take-backs, the engine's help and claims the server makes itself.
fn refused_at_a_server(action: Action) -> bool {
    refused_across_the_network(action)
        || matches!(
            action,
            Action::Undo | Action::Redo | Action::Hint | Action::Analyse | Action::AskClaimDraw
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::crossterm::event::{KeyEventKind, KeyEventState};

    fn press(code: KeyCode, modifiers: KeyModifiers) -> KeyEvent {
        KeyEvent {
            code,
            modifiers,
            kind: KeyEventKind::Press,
            state: KeyEventState::NONE,
        }
    }

    #[test]
    fn a_line_feed_is_enter_and_a_plain_j_stays_j() {
        let read = |code, modifiers| line_feed_as_enter(Event::Key(press(code, modifiers)));
        assert_eq!(
            read(KeyCode::Char('j'), KeyModifiers::CONTROL),
            Event::Key(press(KeyCode::Enter, KeyModifiers::NONE))
        );
        for (code, modifiers) in [
            (KeyCode::Char('j'), KeyModifiers::NONE),
            (KeyCode::Char('J'), KeyModifiers::SHIFT),
            (
                KeyCode::Char('j'),
                KeyModifiers::CONTROL | KeyModifiers::ALT,
            ),
            (KeyCode::Char('k'), KeyModifiers::CONTROL),
        ] {
            assert_eq!(read(code, modifiers), Event::Key(press(code, modifiers)));
        }
    }

    const PLAYING: BoardState = BoardState {
        reviewing: false,
        picking: false,
        match_waits: false,
    };
    const REVIEWING: BoardState = BoardState {
        reviewing: true,
        picking: false,
        match_waits: false,
    };

    #[test]
    fn arrows_step_through_a_review_and_move_the_cursor_otherwise() {
        let left = press(KeyCode::Left, KeyModifiers::NONE);
        assert_eq!(
            board_action(&left, REVIEWING),
            Some(Action::Step(Step::Back))
        );
        assert_eq!(
            board_action(&left, PLAYING),
            Some(Action::Cursor(Direction::Left))
        );
        let esc = press(KeyCode::Esc, KeyModifiers::NONE);
        assert_eq!(board_action(&esc, REVIEWING), Some(Action::LeaveReview));
        let picking = BoardState {
            picking: true,
            ..REVIEWING
        };
        assert_eq!(board_action(&esc, picking), Some(Action::Back));
    }

    #[test]
    fn n_starts_a_matchs_next_game_only_when_it_waits() {
        let n = press(KeyCode::Char('n'), KeyModifiers::NONE);
        assert_eq!(board_action(&n, PLAYING), Some(Action::AskNewGame));
        let waits = BoardState {
            match_waits: true,
            ..PLAYING
        };
        assert_eq!(board_action(&n, waits), Some(Action::NextGame));
    }

    #[test]
    fn digits_open_the_prompt_and_ctrl_keys_are_not_letters() {
        let seven = press(KeyCode::Char('7'), KeyModifiers::NONE);
        assert_eq!(
            board_action(&seven, PLAYING),
            Some(Action::OpenPrompt(Some('7')))
        );
        let ctrl_r = press(KeyCode::Char('r'), KeyModifiers::CONTROL);
        assert_eq!(board_action(&ctrl_r, PLAYING), Some(Action::Redo));
        let r = press(KeyCode::Char('r'), KeyModifiers::NONE);
        assert_eq!(board_action(&r, PLAYING), Some(Action::AskResign));
        let ctrl_c = press(KeyCode::Char('c'), KeyModifiers::CONTROL);
        assert_eq!(global_action(&ctrl_c), Some(Action::Quit));
        assert_eq!(global_action(&r), None);
    }

    #[test]
    fn a_file_letter_without_a_command_starts_a_move_in_letters() {
        let e = press(KeyCode::Char('e'), KeyModifiers::NONE);
        assert_eq!(
            board_action(&e, PLAYING),
            Some(Action::OpenPrompt(Some('e')))
        );
        let alt_e = press(KeyCode::Char('e'), KeyModifiers::ALT);
        assert_eq!(board_action(&alt_e, PLAYING), None);
        let i = press(KeyCode::Char('i'), KeyModifiers::NONE);
        assert_eq!(board_action(&i, PLAYING), None);
    }

    #[test]
    fn a_key_is_named_as_it_was_typed() {
        let name = |code, modifiers| key_name(&press(code, modifiers));
        let none = KeyModifiers::NONE;
        assert_eq!(name(KeyCode::Char('i'), none).as_deref(), Some("i"));
        assert_eq!(
            name(KeyCode::Char('X'), KeyModifiers::SHIFT).as_deref(),
            Some("X")
        );
        assert_eq!(
            name(KeyCode::Char('x'), KeyModifiers::CONTROL).as_deref(),
            Some("Ctrl-X")
        );
        assert_eq!(
            name(KeyCode::Char('i'), KeyModifiers::ALT).as_deref(),
            Some("Alt-i")
        );
        assert_eq!(name(KeyCode::F(5), none).as_deref(), Some("F5"));
        assert_eq!(
            name(KeyCode::Left, KeyModifiers::CONTROL).as_deref(),
            Some("Ctrl-Left")
        );
        assert_eq!(name(KeyCode::CapsLock, none), None);
    }

    #[test]
    fn every_key_is_bound_once_where_it_applies() {
        // Two bindings for the same key must differ in when they apply.
        for (i, a) in BOARD_KEYS.iter().enumerate() {
            for b in &BOARD_KEYS[i + 1..] {
                let shared = a.keys.iter().any(|k| b.keys.contains(k));
                assert!(
                    !shared || a.when != b.when,
                    "{:?} is bound twice: {} and {}",
                    a.keys,
                    a.short,
                    b.short
                );
            }
        }
    }

    #[test]
    fn the_help_names_each_key_once() {
        let mut named: Vec<&str> = Vec::new();
        for (label, _) in help_lines(Quits::Program, true) {
            for key in label.split(' ') {
                assert!(!named.contains(&key), "{key} is in the help twice");
                named.push(key);
            }
        }
        // A binding left out of the help has its keys named by another line.
        for b in BOARD_KEYS.iter().filter(|b| !b.label.is_empty()) {
            let key = if b.label == "{steps}" {
                "{arrows}"
            } else {
                b.label
            };
            assert!(
                key.split(' ').all(|k| named.contains(&k)),
                "{} is bound but not in the help",
                b.label
            );
        }
    }
}
