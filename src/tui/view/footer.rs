//! The footer under the board: the status line's news, a question and its answers,
//! and the key line; laid out once ([`FooterLayout`]) for the drawing and the mouse.

use super::key_label;
use crate::text::{columns, cut_to_columns};
use crate::tui::Action;
use crate::tui::app::{App, Editor, Mode, Purpose, Question, Tone};
use crate::tui::geometry::ScreenLayout;
use crate::tui::keyline::{KeyLine, fit_keys};
use crate::tui::keymap::{self, Footer};
use crate::tui::theme::Theme;
use crate::tui::view::help_scrolls;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Clear, Paragraph, Widget};
/// The save dialog's note on the status line: what Enter does, said as to come (it
/// began "Saved as ...", read as done before anything was written).
/// PDN is named with what it is: a beginner has not met the word.
const SAVE_NOTE: &str = "Enter writes the game record (a PDN file); its folder must exist. For a file that exists you choose: add the game at its end, or replace the file.";

/// The footer as laid out on a screen: the news, a question and the key line, each
/// with where it goes. Worked out in one place for the drawing and for the mouse, so
/// that a click on an entry of the key line (or on a question's answer) presses the key
/// drawn under it.
pub(crate) struct FooterLayout {
    /// The news: its lines, their style, where they go.
    message: Option<(Vec<String>, Style, Rect)>,
    /// The question's rows and where they go; `true`: in a box over the board (its
    /// frame round `Rect`), the footer being too small for it.
    question: Option<(Vec<KeyLine>, Rect, bool)>,
    /// The key line and its row; `None` while a question takes it.
    keys: Option<(KeyLine, Rect)>,
}

impl FooterLayout {
    /// The footer of `app` laid out on the screen `layout`, whose last row is above
    /// `bottom`.
    pub(crate) fn new(app: &App, layout: &ScreenLayout, bottom: u16) -> FooterLayout {
        let theme = &app.theme;
        // In the save dialog, what a save does stays in view until there is news.
        let dialog_note = (Tone::Info, SAVE_NOTE.to_string());
        // Without a panel (the compact layout) the status line says whose move it is.
        let turn_note = (Tone::Info, compact_status(app));
        let news = match (&app.status.message, &app.mode) {
            (None, Mode::Save(_)) => Some(&dialog_note),
            (None, _) if layout.panel.is_empty() => Some(&turn_note),
            (message, _) => message.as_ref(),
        };
        let mut status = layout.status;
        // A question longer than the key line takes the status lines above it too, the
        // news keeping the rows left; where even the whole footer is too small for it, it
        // is asked in a box over the board. Every answer stays in view.
        let question = match app.mode {
            Mode::Asking(question) => {
                let asked = asked(app, question);
                let lines = asked.lines(usize::from(layout.hints.width));
                let rows = u16::try_from(lines.len()).unwrap_or(u16::MAX);
                let footer_rows = layout.status.height + layout.hints.height;
                if rows <= layout.hints.height {
                    Some((lines, layout.hints, false))
                } else if rows <= footer_rows {
                    status.height = footer_rows - rows;
                    let area = Rect {
                        y: status.y + status.height,
                        height: rows,
                        ..layout.status
                    };
                    Some((lines, area, false))
                } else {
                    let (lines, area) = question_box(&asked, layout.board.frame);
                    Some((lines, area, true))
                }
            }
            _ => None,
        };
        // A footer of one row (the smallest screens) is the key line's, so that help and
        // quitting stay a click away: the news goes on the board's frame instead, on the
        // edge the turn leaves free. Elsewhere the news keeps to the status rows and the
        // key line to its own row, however long the news is.
        let one_row = layout.hints.height == 0;
        let mut hints = if one_row { layout.status } else { layout.hints };
        let turn = super::compact_turn(app);
        let mut news = news;
        if one_row {
            // The report takes the board's place, its frame too.
            status = match app.mode {
                Mode::Report => Rect::default(),
                _ => super::board::free_edge(
                    layout,
                    turn.as_ref().map(|(side, _)| *side),
                    app.board.coordinates,
                ),
            };
            // The frame says the turn already.
            news = news.filter(|(_, text)| turn.as_ref().is_none_or(|(_, said)| said != text));
        }
        let mut message = None;
        if let Some((tone, text)) = news.filter(|_| status.height > 0) {
            let style = match tone {
                Tone::Info => theme.text,
                Tone::Error => theme.error,
            };
            let ellipsis = theme.glyphs.ellipsis();
            let mut lines = if one_row {
                // On the frame, a blank each side, as the turn's title has.
                let width = usize::from(status.width.saturating_sub(2));
                fitted_lines(text, width, 1, ellipsis)
                    .into_iter()
                    .map(|line| format!(" {line} "))
                    .collect()
            } else {
                // The news keeps to the status rows, whole sentences or the first cut
                // between words with an ellipsis: the key line under it stays whole (news
                // ending on the key line's row read as a key line half overwritten).
                let width = usize::from(status.width);
                // News longer than the status rows takes the rows left free under the
                // key line (the screen taller than the layout), the key line going down.
                let needed = fitted_lines(text, width, usize::MAX, ellipsis).len();
                let needed = u16::try_from(needed).unwrap_or(u16::MAX);
                if question.is_none() && needed > status.height {
                    let free = bottom.saturating_sub(hints.bottom());
                    let grow = free.min(needed - status.height);
                    status.height += grow;
                    hints.y += grow;
                }
                fitted_lines(text, width, usize::from(status.height), ellipsis)
            };
            lines.truncate(usize::from(status.height));
            message = Some((lines, style, status));
        }
        let keys = key_line(app, hints.width).map(|line| (line, hints));
        FooterLayout {
            message,
            question,
            keys,
        }
    }

    /// Draws the footer.
    pub(crate) fn render(self, theme: &Theme, buf: &mut Buffer) {
        if let Some((lines, area, boxed)) = self.question {
            let lines: Vec<Line> = lines.iter().map(KeyLine::line).collect();
            let paragraph = Paragraph::new(lines).style(theme.question);
            if boxed {
                Clear.render(area, buf);
                paragraph
                    .block(
                        Block::bordered()
                            .border_set(theme.glyphs.border)
                            .border_style(theme.question)
                            .padding(ratatui::widgets::Padding::horizontal(1)),
                    )
                    .render(area, buf);
            } else {
                paragraph.render(area, buf);
            }
        }
        if let Some((lines, style, area)) = self.message {
            let lines: Vec<Line> = lines.into_iter().map(Line::raw).collect();
            Paragraph::new(lines).style(style).render(area, buf);
        }
        if let Some((line, area)) = self.keys {
            line.line().render(area, buf);
        }
    }

    /// The key a click at `column`, `row` of the screen presses: the one of the key
    /// line's entry, or of the question's answer, drawn there.
    pub(crate) fn press_at(&self, column: u16, row: u16) -> Option<KeyEvent> {
        let at = |line: &KeyLine, area: Rect| {
            let inside = column >= area.x && column < area.right();
            inside.then(|| line.press_at(column - area.x)).flatten()
        };
        if let Some((lines, area, boxed)) = &self.question {
            // Inside a box the text has the frame and a blank column round it.
            let text = if *boxed {
                Rect {
                    x: area.x + 2,
                    y: area.y + 1,
                    width: area.width.saturating_sub(4),
                    height: area.height.saturating_sub(2),
                }
            } else {
                *area
            };
            if row >= text.y && row < text.bottom() {
                let line = lines.get(usize::from(row - text.y))?;
                return at(line, text);
            }
        }
        let (line, area) = self.keys.as_ref()?;
        if row != area.y || area.height == 0 {
            return None;
        }
        at(line, *area)
    }
}

/// The key line under the board in the mode the game is in, `width` columns wide (the
/// entries that fit), each entry with the key it names; `None` while a question takes
/// its row.
fn key_line(app: &App, width: u16) -> Option<KeyLine> {
    let theme = &app.theme;
    let line = match &app.mode {
        Mode::Prompt(text) if app.status.prompt_selected => {
            let mut line = KeyLine::default();
            line.push(Span::styled("Move: ", theme.heading), None);
            line.push(Span::styled(text.clone(), theme.selected), None);
            line.push(Span::raw("   type a new move or a key, "), None);
            line.push_entry(theme.key, "Backspace", " edits");
            line.push(Span::raw("  "), None);
            line.push_entry(theme.key, "Esc", " cancel");
            line
        }
        Mode::Prompt(text) => typing_line(
            theme,
            "Move: ",
            text,
            &[("Enter", "play"), ("Esc", "cancel"), ("Backspace", "erase")],
        ),
        // Drawn above, on as many rows as it takes.
        Mode::Asking(_) => return None,
        Mode::Help(_) if help_scrolls(app) => KeyLine::of_keys(
            theme,
            &[("PgDn PgUp", "scroll"), ("any other key", "closes help")],
        ),
        Mode::Help(_) => KeyLine::of_keys(theme, &[("any key", "closes help")]),
        Mode::Chat(field) => chat_line(theme, field, width),
        Mode::Editor(Editor { fen: Some(fen), .. }) => typing_line(
            theme,
            "FEN: ",
            fen,
            &[("Enter", "take it"), ("Esc", "back")],
        ),
        // The side to move is in the panel's turn line: `t` changes it. `c` (empty) and
        // `s` (start) are in the first message, to keep this line within 80 columns.
        Mode::Editor(_) => KeyLine::of_keys(
            theme,
            &[
                ("b w", "man"),
                ("B W", "king"),
                ("Space", "clear"),
                ("t", "side"),
                ("f", "FEN"),
                ("Enter", "play"),
                ("Esc", "cancel"),
            ],
        ),
        // Whole entries that do not fit go, none cut in half.
        Mode::Games(_) => KeyLine::of_keys(
            theme,
            &fit_keys(
                vec![
                    ("type", "filter"),
                    (theme.glyphs.arrows, "choose"),
                    ("Enter", "open"),
                    ("Esc", "close"),
                ],
                usize::from(width),
            ),
        ),
        Mode::Save(dialog) if dialog.exists.is_some() => {
            KeyLine::of_keys(theme, &[("a", "append"), ("r", "replace"), ("Esc", "back")])
        }
        Mode::Save(_) => KeyLine::of_keys(
            theme,
            &[
                ("Tab", "next field"),
                ("Enter", "save"),
                ("Esc", "cancel"),
                ("Ctrl-U", "clear field"),
                (theme.glyphs.steps, "edit"),
            ],
        ),
        Mode::Report => KeyLine::of_keys(
            theme,
            &fit_keys(
                vec![
                    (theme.glyphs.steps, "step"),
                    ("Home/End", "ends"),
                    ("n N", "next/prev mark"),
                    ("s", "save PDN"),
                    ("Esc", "back"),
                ],
                usize::from(width),
            ),
        ),
        // A resumed game held for its player: the first key starts the clocks.
        Mode::Board if app.session().clocks_held() => KeyLine::of_keys(
            theme,
            &[
                ("any key", "starts the clocks"),
                ("?", "help"),
                ("q", "quit"),
            ],
        ),
        // A break in a timed game: only p, help and quitting act (the board is hidden).
        Mode::Board if app.session().is_paused() && app.runtime().table().is_none() => {
            KeyLine::of_keys(
                theme,
                &[("p", "starts the clocks"), ("?", "help"), ("q", "quit")],
            )
        }
        Mode::Board => {
            let reviewing = app.review().is_some();
            let thinking = match app.runtime().wanted_search().map(|spec| spec.purpose) {
                Some(Purpose::Move(color)) => Some(color),
                _ => None,
            };
            let claim_open = app.game().available_claim().is_some();
            let match_waits = app.session().match_waits();
            let match_over = app.session().match_over();
            // A game the server ended as abandoned is over too, with no result, and so
            // is play on a board whose line to the server is gone (a ban, a kick, a
            // lost network): no move, rematch, report or chat at its table is left (the
            // line offered "Enter pick  0-9 type" as if play went on).
            let ended_at_server = app.abandoned_at_server() || app.server_line_gone();
            // Adjourned at the server, waiting for the opponent: nothing is played
            // until they are back (the line offered "Enter pick" as if play went on),
            // and nothing is over either (no rematch, no report).
            let waiting = app.adjourned_head().is_some();
            let over = app.no_side_to_move();
            let flag_fell = app.session().flag_fell();
            let seat = app.runtime().table().map(|t| t.seat.clone());
            let watching = seat == Some(crate::runtime::Seat::Spectator);
            // A server's spectators talk at the table; a LAN host's do not.
            let at_server = app.runtime().table().is_some_and(|t| t.at_server);
            // A LAN host's player: the host starts the next game (a finished game is
            // still taken back, with the host's consent, as any move is).
            let joiner = matches!(seat, Some(crate::runtime::Seat::Player(_))) && !at_server;
            let keys = keymap::footer_keys(
                |place| match place {
                    Footer::Watching => watching,
                    Footer::Table if watching => at_server && !over,
                    _ if watching => false,
                    // Its players still talk after a game (over a rematch, say).
                    Footer::Table => seat.is_some() && !ended_at_server,
                    Footer::Review => reviewing,
                    _ if reviewing => false,
                    Footer::NextGame => match_waits,
                    Footer::MatchOver => match_over,
                    // Between a match's games only what leads to the next one is shown.
                    _ if match_waits || match_over => false,
                    Footer::Thinking => thinking.is_some(),
                    Footer::ThinkingFor(color) => thinking == Some(color),
                    _ if thinking.is_some() => false,
                    Footer::Over => over,
                    _ if over => false,
                    Footer::Play => true,
                    Footer::Seated => at_server && seat.is_some(),
                    Footer::PlayClaimOpen => claim_open,
                    Footer::PlayNoClaim => !claim_open,
                },
                // Across the network a redo is refused (an undo is asked of the other
                // player; a server takes no move back), so none is offered; after a flag
                // fall neither undo nor redo works. A joiner does not start the next game
                // (the host does). An abandoned game has no rematch (the server keeps
                // none) and no report (it has no result).
                |action| match action {
                    // Nobody to ask while the game waits for its player (a LAN
                    // host's not yet joined): nothing to take back either.
                    Action::Undo => !flag_fell && !at_server && !waiting,
                    Action::AskNewGame => !joiner && !ended_at_server && !waiting,
                    Action::OpenReport => !ended_at_server && !waiting,
                    Action::Redo => seat.is_none() && !flag_fell,
                    _ => true,
                },
            );
            // With a piece picked up Enter lands it and Esc puts it down (or, in a
            // jump half built, takes back its last hop): the line said "Enter pick"
            // and left Esc out.
            let picking = app.board.pick.is_some() && !reviewing;
            let esc = match &app.board.pick {
                Some(pick) if !pick.hops.is_empty() => "step back",
                _ => "put down",
            };
            let mut keys: Vec<(&str, &str)> = keys
                .into_iter()
                .map(|(label, short)| {
                    // At a server, n after the game offers the same game again.
                    let short = match short {
                        "new game" if at_server => "rematch",
                        "pick" if picking => "land",
                        // q leaves a game started from the home screen for it.
                        "quit" if app.from_home => "home",
                        short => short,
                    };
                    (key_label(theme, label), short)
                })
                .collect();
            if let Some(land) = keys.iter().position(|(_, short)| *short == "land") {
                keys.insert(land + 1, ("Esc", esc));
            }
            // A narrow line keeps the draw offer and the resignation longer than the
            // chat and saving (a line left out loses from its end first).
            if let Some(first) = keys.iter().position(|(_, s)| ["say", "save"].contains(s)) {
                let game = |short: &str| ["offer draw", "resign"].contains(&short);
                let (mut ahead, behind): (Vec<_>, Vec<_>) = keys
                    .split_off(first)
                    .into_iter()
                    .partition(|(_, s)| game(s));
                keys.append(&mut ahead);
                keys.extend(behind);
            }
            KeyLine::of_keys(theme, &fit_keys(keys, usize::from(width)))
        }
    };
    Some(line)
}

/// A question as the footer asks it: its words, then its answers, each a key and what
/// it does ("y yes"), so that a narrow screen breaks it between answers, not inside one.
struct Asked {
    /// The question itself: "Quit? The game is saved; ...".
    words: String,
    /// The answers: (key, what it does).
    answers: Vec<(&'static str, String)>,
}

impl Asked {
    /// The question `words`, answered by `answers`: (key, what it does).
    fn new(words: impl Into<String>, answers: &[(&'static str, &str)]) -> Asked {
        Asked {
            words: words.into(),
            answers: answers.iter().map(|(k, w)| (*k, w.to_string())).collect(),
        }
    }

    /// The question on rows of `width` columns: broken between words, an answer kept
    /// whole on a row where it fits on one (two spaces between answers on a row).
    fn lines(&self, width: usize) -> Vec<KeyLine> {
        let width = width.max(1);
        // Each unit with the gap before it and the key a click on it presses.
        let mut units: Vec<(&str, String, Option<KeyEvent>)> = self
            .words
            .split_whitespace()
            .map(|word| (" ", word.to_string(), None))
            .collect();
        for (i, (key, what)) in self.answers.iter().enumerate() {
            let press = crate::tui::keyline::press_named(key);
            units.push((
                if i == 0 { " " } else { "  " },
                format!("{key} {what}"),
                press,
            ));
        }
        let mut lines: Vec<KeyLine> = Vec::new();
        // The row being filled, and how many columns it takes.
        let mut line = (KeyLine::default(), 0);
        // Puts `unit` on the row, after `gap`, or begins the next row with it.
        let place = |lines: &mut Vec<KeyLine>,
                     line: &mut (KeyLine, usize),
                     gap: &str,
                     unit: &str,
                     press: Option<KeyEvent>| {
            let length = columns(unit);
            if line.1 > 0 && line.1 + gap.len() + length > width {
                lines.push(std::mem::take(line).0);
            } else if line.1 > 0 {
                line.0.push(Span::raw(gap.to_string()), None);
                line.1 += gap.len();
            }
            let text = cut_to_columns(unit, width);
            line.1 += columns(text);
            line.0.push(Span::raw(text.to_string()), press);
        };
        for (gap, unit, press) in units {
            if columns(&unit) <= width {
                place(&mut lines, &mut line, gap, &unit, press);
            } else {
                // An answer longer than a row: its words, one by one, from a row of
                // its own, so that its key begins a row.
                if line.1 > 0 {
                    lines.push(std::mem::take(&mut line).0);
                }
                for (i, word) in unit.split(' ').enumerate() {
                    let gap = if i == 0 { gap } else { " " };
                    place(&mut lines, &mut line, gap, word, press);
                }
            }
        }
        if line.1 > 0 {
            lines.push(line.0);
        }
        lines
    }
}

/// The question `question` as the footer asks it.
fn asked(app: &App, question: Question) -> Asked {
    const YES_NO: &[(&str, &str)] = &[("y", "yes"), ("n", "no")];
    // Quitting a game (or a match) started from the home screen goes back to it, where
    // its resume entry (r) continues the game.
    let quit = if app.from_home {
        "Back to the home screen?"
    } else {
        "Quit?"
    };
    let resume = if app.from_home {
        "r there"
    } else {
        "checkers --resume"
    };
    match question {
        Question::Quit if app.autosave_failed() => Asked::new(
            format!("{quit} The game is NOT saved (autosave failed; s saves it)."),
            YES_NO,
        ),
        Question::Quit if app.session().match_play().is_some() => Asked::new(
            format!("{quit} The match is saved; {resume} continues it."),
            YES_NO,
        ),
        Question::Quit => Asked::new(
            format!("{quit} The game is saved; {resume} continues it."),
            YES_NO,
        ),
        // "Abandon" would promise what the picker's `a abandon` does: this game is
        // kept, unfinished, for --resume.
        Question::NewGame if app.autosave_failed() => Asked::new(
            "New game? This one is NOT saved (autosave failed; s saves it).",
            YES_NO,
        ),
        Question::NewGame => Asked::new(
            "New game? This one stays saved; checkers --resume offers it.",
            YES_NO,
        ),
        Question::WhoResigns => Asked::new(
            "Who resigns?",
            &[("b", "Black"), ("w", "White"), ("Esc", "cancel")],
        ),
        Question::Resign(color) => Asked::new(format!("Resign? {color} loses the game."), YES_NO),
        Question::HandOver(color) => Asked::new(
            format!(
                "Hand {color} to the computer ({})? It plays at once.",
                app.session().level()
            ),
            YES_NO,
        ),
        Question::OfferDraw => {
            Asked::new(format!("Offer {} a draw?", draw_offered_to(app)), YES_NO)
        }
        Question::ClaimDraw(reason) => {
            let why = match reason {
                crate::rules::DrawReason::Repetition => "repetition",
                crate::rules::DrawReason::FortyMoves => "the forty-move rule",
                // Neither is ever claimed; named all the same.
                crate::rules::DrawReason::Agreement | crate::rules::DrawReason::AsRecorded => {
                    "agreement"
                }
            };
            Asked::new(format!("Claim a draw by {why}? It ends the game."), YES_NO)
        }
        Question::Draw(by) => Asked::new(format!("{by} offers a draw. {}, accept?", !by), YES_NO),
        Question::Undo if app.session().agreed_draw() => Asked::new(
            "Take back the agreed draw and play on? Both players agree:",
            YES_NO,
        ),
        Question::Undo => Asked::new(
            "Take back the last move (clocks too)? Both players agree:",
            YES_NO,
        ),
        Question::RemoteUndo(by) => {
            // Named, as it will happen: one move, or their move and your reply.
            let moves = app.session().asked_take_back(by);
            let words = crate::session::take_back_words(&moves, !by);
            Asked::new(format!("{by} asks to take back {words}. Agree?"), YES_NO)
        }
        Question::LeaveTable => {
            let table = app.runtime().table();
            let hosting = matches!(
                table.map(|t| &t.seat),
                Some(crate::runtime::Seat::Host { .. })
            );
            // At a server the clocks stop only once both players leave; the host's
            // command is said in full as it ends.
            let adjourn = match (table.is_some_and(|t| t.at_server), hosting) {
                (true, _) => "goes to the lobby, the clocks running",
                (false, true) => "adjourns it (checkers host --resume)",
                (false, false) => "adjourns it (connect again to go on)",
            };
            Asked::new(
                "Leave the game?",
                &[("a", adjourn), ("r", "resigns"), ("n", "stays")],
            )
        }
        Question::LeaveUnplayed => Asked::new(
            "Leave the game? No move yet: nothing to resume.",
            &[("y", "leaves"), ("n", "stays")],
        ),
        Question::LeaveGoneLine => Asked::new(
            "Leave the board?",
            &[("q", "quits checkers online"), ("n", "stays")],
        ),
    }
}

/// Whom a draw offered from this board goes to: across the network the opponent of
/// the player here, by name where the game has one ("Offer bob a draw?" named a colour,
/// and the wrong one when offered on the opponent's move); else the side not to move.
fn draw_offered_to(app: &App) -> String {
    let session = app.session();
    let opponent = match app.runtime().table() {
        Some(_) => session.seats().only_person_here().map(|mine| !mine),
        None => None,
    };
    let Some(opponent) = opponent else {
        return (!app.position().turn()).to_string();
    };
    match session.names().name(opponent) {
        Some(name) => crate::text::printable(name, 30),
        None => opponent.to_string(),
    }
}

/// A question too long for the footer of a small screen, asked in a box over the board
/// `frame`: its rows, and the box's place (its frame round them, a blank column each
/// side).
fn question_box(asked: &Asked, frame: Rect) -> (Vec<KeyLine>, Rect) {
    let lines = asked.lines(usize::from(frame.width.saturating_sub(4)));
    let height = u16::try_from(lines.len() + 2)
        .unwrap_or(u16::MAX)
        .min(frame.height);
    let area = Rect {
        y: frame.y + (frame.height - height) / 2,
        height,
        ..frame
    };
    (lines, area)
}

/// `text` as at most `rows` lines of `width` columns, broken between words, with no
/// sentence cut: sentences that do not fit are left out, the last ones first, and only a
/// first sentence too long by itself is cut short, between words, with `…` (`...` in
/// ASCII) to say so.
fn fitted_lines(text: &str, width: usize, rows: usize, ellipsis: &str) -> Vec<String> {
    let width = width.max(1);
    let wrap = |text: &str| wrap_words(text, |_| width);
    // Sentences end with ". " (or "? ", "! ").
    let mut ends: Vec<usize> = text
        .match_indices(['.', '?', '!'])
        .map(|(i, _)| i + 1)
        .filter(|&i| text[i..].starts_with(' '))
        .collect();
    ends.push(text.len());
    for &end in ends.iter().rev() {
        let lines = wrap(&text[..end]);
        if lines.len() <= rows {
            return lines;
        }
    }
    // The first sentence alone is too long: as much of it as fits, marked as cut.
    let mut lines = wrap(&text[..ends[0]]);
    lines.truncate(rows);
    if let Some(last) = lines.last_mut() {
        let room = width.saturating_sub(columns(ellipsis));
        while columns(last) > room {
            match last.rfind(' ') {
                Some(space) => last.truncate(space),
                None => {
                    *last = cut_to_columns(last, room).to_string();
                }
            }
        }
        last.push_str(ellipsis);
    }
    lines
}

/// `text` broken between words into rows, row `i` at most `room(i)` columns wide
/// (columns as the screen draws them: a Chinese character takes two); a word wider than
/// its row is cut to it.
fn wrap_words(text: &str, room: impl Fn(usize) -> usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        let taken = columns(&line);
        if taken > 0 && taken + 1 + columns(word) > room(lines.len()) {
            lines.push(std::mem::take(&mut line));
        }
        let word = cut_to_columns(word, room(lines.len()));
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The state of the game in a few words, for a screen with no panel; in a timed game
/// the clock of the side to move too (`Black to move, 4:59`).
fn compact_status(app: &App) -> String {
    match app.game().result() {
        Some(outcome) => format!("{outcome}."),
        None if app.abandoned_at_server() => format!("{}.", super::panel::ABANDONED_HEAD),
        None => match app.thinking_text() {
            Some(text) => text,
            None => {
                let turn = app.position().turn();
                match app.session().time_left(turn) {
                    Some(left) => format!("{turn} to move, {}", crate::session::clock_text(left)),
                    None => format!("{turn} to move"),
                }
            }
        },
    }
}

/// The chat line, `width` columns wide (0: not known): "Say: ", the text typed and
/// its keys. A text too long for the row scrolls within it, the cursor always in view
/// (the line is cut at the row's end, so at 80 columns the end of a long line was out
/// of sight); on a narrow row the keys give way to the text.
fn chat_line(theme: &Theme, field: &crate::tui::field::TextField, width: u16) -> KeyLine {
    /// Fewer columns left for the text than this, and the keys are left out.
    const LEAST_ROOM: usize = 16;
    let keys = [("Enter", "send"), ("Esc", "cancel"), ("Ctrl-U", "clear")];
    if width == 0 {
        return KeyLine::typing(theme, "Say: ", field.spans(theme.key), &keys);
    }
    let width = usize::from(width);
    let ellipsis = theme.glyphs.ellipsis();
    let bare = KeyLine::typing(theme, "Say: ", Vec::new(), &keys)
        .line()
        .width();
    let room = width.saturating_sub(bare);
    if room >= LEAST_ROOM {
        let typed = field.spans_within(theme.key, room, ellipsis);
        return KeyLine::typing(theme, "Say: ", typed, &keys);
    }
    let room = width.saturating_sub(crate::text::columns("Say: "));
    KeyLine::typing(
        theme,
        "Say: ",
        field.spans_within(theme.key, room, ellipsis),
        &[],
    )
}

/// A line being typed (`Move: 11-1`, `FEN: B:W`), its cursor a key-styled cell, then the
/// keys that finish it.
fn typing_line(
    theme: &Theme,
    heading: &'static str,
    text: &str,
    keys: &[(&'static str, &'static str)],
) -> KeyLine {
    let typed = vec![Span::raw(text.to_string()), Span::styled(" ", theme.key)];
    KeyLine::typing(theme, heading, typed, keys)
}
