//! The side panel: whose move, who plays, the pieces, claims and captures, the record
//! under review, and the move list (which a click in review reads the same way).

use super::*;
use crate::text::printable;
use unicode_width::UnicodeWidthStr;

/// `text` cut into lines of the panel's `width`: a FEN is longer than a narrow panel is
/// wide, and has no spaces to wrap at, so a line ends after a comma or colon where one
/// fits (a square's number is never cut in two), else at the width.
fn cut_lines(text: &str, width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width.max(1));
    let mut lines = Vec::new();
    let mut rest: Vec<char> = text.chars().collect();
    while rest.len() > width {
        let end = rest[..width]
            .iter()
            .rposition(|c| matches!(c, ',' | ':' | ' '))
            .map_or(width, |i| i + 1);
        lines.push(Line::raw(rest[..end].iter().collect::<String>()));
        rest.drain(..end);
    }
    if !rest.is_empty() {
        lines.push(Line::raw(rest.into_iter().collect::<String>()));
    }
    lines
}

/// The panel's turn line once the server ended the game as abandoned (its reason is
/// said further down, where the table's state is).
pub(crate) const ABANDONED_HEAD: &str = "Game over: abandoned (unrated)";

/// The panel's lines above the move list, its "Moves" heading last: what both drawing
/// and a click on the move list count from.
fn panel_head(app: &App, inner: Rect) -> Vec<Line<'static>> {
    let theme = &app.theme;
    let pos = app.shown_position();
    let g = &theme.glyphs;
    let mut lines: Vec<Line> = Vec::new();
    if let crate::tui::app::Mode::Editor(editor) = &app.mode {
        // The side to move is the turn line's, below: said once.
        lines.push(Line::styled("Setting up a position", theme.question));
        lines.extend(cut_lines(
            &format!("FEN {}", editor.fen_text()),
            inner.width,
        ));
    }
    if app.panel.show_fen && !matches!(app.mode, crate::tui::app::Mode::Editor(_)) {
        lines.extend(cut_lines(&format!("FEN {pos}"), inner.width));
    }
    if let Some(plies) = app.panel.browse {
        // In the move list's numbers, as the status line says it.
        let game = app.game();
        let text = format!(
            "Shown: {} (Esc: back)",
            game.place(plies, game.moves().len())
        );
        lines.extend(wrapped(&text, usize::from(inner.width), theme.question));
    }
    // A record under review is over at its last position, however it ended there.
    let over = match app.game().result() {
        Some(outcome) => Some((outcome, outcome.to_string())),
        None => app.session().review_over(),
    };
    // Ended by the server with no result, or the line to it gone: nobody is to move
    // on this board any more (the seat line below says why).
    let ended_here = app.ended_here_head();
    match over {
        None if ended_here.is_some() => {
            lines.extend(wrapped(
                ended_here.as_deref().unwrap_or(ABANDONED_HEAD),
                usize::from(inner.width),
                theme.question,
            ));
        }
        Some((outcome, how)) => {
            // The winner by name, when the players gave theirs.
            let winner = match outcome {
                crate::rules::Outcome::Win { winner, .. } => app.session().names().name(winner),
                crate::rules::Outcome::Draw { .. } => None,
            };
            let over = match winner {
                Some(name) => format!("Game over: {} wins", printable(name, NAME_CHARS)),
                None => "Game over".to_string(),
            };
            lines.extend(wrapped(&over, usize::from(inner.width), theme.question));
            lines.push(Line::styled(format!("{how}."), theme.question));
        }
        None => {
            let turn = pos.turn();
            let man = Piece {
                color: turn,
                role: Role::Man,
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{turn} to move "), theme.heading),
                Span::styled(
                    piece_glyph(theme, man),
                    theme.dark_square.patch(piece_style(theme, turn)),
                ),
            ]));
            if let Some(text) = app.thinking_text() {
                // A narrow panel gets the verdict on a line of its own.
                if text.chars().count() > usize::from(inner.width)
                    && let Some((thinking, verdict)) = text.split_once(" (")
                {
                    lines.push(Line::styled(thinking.to_string(), theme.question));
                    lines.push(Line::styled(
                        format!("  {}", verdict.trim_end_matches(')')),
                        theme.question,
                    ));
                } else {
                    lines.push(Line::styled(text, theme.question));
                }
                if let Some(line) = app.thinking_line() {
                    let text = format!("Line: {line}");
                    lines.extend(wrapped(&text, usize::from(inner.width), theme.text));
                }
            }
        }
    }
    // A tall panel has room for clocks in big digits.
    let big = inner.height >= BIG_CLOCK_PANEL_ROWS && !app.theme.glyphs.arrows.is_ascii();
    clock_lines(app, big, &mut lines);
    match_lines(app, usize::from(inner.width), &mut lines);
    if let Some(text) = names_text(app) {
        lines.extend(wrapped(&text, usize::from(inner.width), theme.text));
    }
    for text in players_text(app, usize::from(inner.width)) {
        lines.push(Line::styled(text, theme.text));
    }
    table_lines(app, usize::from(inner.width), &mut lines);
    // The ballot on one line, its number and moves; its name, as every opening's, on
    // the line below: the same two lines for every ballot, named or not.
    let ballot = app.session().ballot();
    if let Some(opening) = ballot {
        let text = format!("Ballot {}: {}", opening.number, opening.moves);
        lines.extend(wrapped(&text, usize::from(inner.width), theme.text));
    }
    // The opening the moves up to the position shown have formed (not in the editor,
    // whose position is not the game's), else the name the deck gives the ballot.
    let game = app.game();
    let shown = &game.moves()[..app
        .panel
        .browse
        .unwrap_or(usize::MAX)
        .min(game.moves().len())];
    if let Some(name) = crate::session::opening_name(game.start(), shown)
        .map(str::to_string)
        .or_else(|| ballot.map(|o| o.name.clone()).filter(|n| !n.is_empty()))
        .filter(|_| !matches!(app.mode, crate::tui::app::Mode::Editor(_)))
    {
        let text = format!("Opening: {name}");
        lines.extend(wrapped(&text, usize::from(inner.width), theme.text));
    }
    for color in Color::ALL {
        let men = pos.pieces(color, Role::Man).count();
        let kings = pos.pieces(color, Role::King).count();
        let glyph = |role| piece_glyph(theme, Piece { color, role });
        let on_square = theme.dark_square.patch(piece_style(theme, color));
        // A narrow panel gets the counts without the words, rather than cut short.
        let wide = inner.width >= 28;
        let (men_word, kings_word) = if wide {
            (
                format!(" {:<5} ", plural(men, "man", "men")),
                format!(" {}", plural(kings, "king", "kings")),
            )
        } else {
            ("  ".to_string(), String::new())
        };
        lines.push(Line::from(vec![
            Span::styled(format!("{:<6}", color.name()), theme.text),
            Span::styled(glyph(Role::Man), on_square),
            Span::raw(format!(" {men:>2}{men_word}")),
            Span::styled(glyph(Role::King), on_square),
            Span::raw(format!(" {kings:>2}{kings_word}")),
        ]));
    }
    if !app.no_side_to_move() {
        let capturers = pos.capturers();
        if !capturers.is_empty() {
            let squares: Vec<String> = capturers.into_iter().map(|s| s.to_string()).collect();
            lines.push(Line::styled(
                format!("Must capture ({}): {}", g.must_capture, squares.join(", ")),
                theme.alert,
            ));
        }
        if let Some(reason) = app.game().available_claim() {
            let why = match reason {
                crate::rules::DrawReason::Repetition => "repetition",
                crate::rules::DrawReason::FortyMoves => "40 moves",
                // Neither is ever claimed; named all the same.
                crate::rules::DrawReason::Agreement | crate::rules::DrawReason::AsRecorded => {
                    "agreement"
                }
            };
            lines.push(Line::styled(
                format!("Draw claim available ({why}): c"),
                theme.question,
            ));
        }
    }
    let width = usize::from(inner.width);
    // While reviewing, the engine's view of the position, and beside it the endgame
    // databases' exact result where they hold it: a player sees where a win was lost.
    if let Some(analysis) = app.review_analysis() {
        let d = analysis.depth;
        let depth = if pos.legal_moves().len() == 1 {
            format!("only move, {d} {}", plural(d, "ply", "plies"))
        } else {
            format!("{d} {}", plural(d, "ply", "plies"))
        };
        let text = format!(
            "Engine ({depth}): {}",
            engine_view(pos.turn(), analysis.score)
        );
        lines.extend(wrapped(&text, width, theme.text));
    }
    if let Some(verdict) = app.session().database_verdict() {
        lines.extend(labelled(
            "Endgame database",
            &verdict,
            width,
            theme.question,
        ));
    }
    if let Some(swing) = app.session().database_swing() {
        lines.extend(wrapped(&swing, width, theme.alert));
    }
    if let Some(review) = app.review() {
        lines.extend(wrapped_keeping_the_count(
            &format!("Review: {}", app.session().review_place()),
            width,
            theme.question,
        ));
        if review.fault.is_some() {
            lines.push(Line::styled(
                "Stops here: the next move is faulty",
                theme.error,
            ));
        }
        for tag in ["Event", "Black", "White", "Result"] {
            let value = review.tag(tag).unwrap_or("?");
            // 1-0 means Black won in checkers, unlike chess: say so.
            let meaning = match (tag, value) {
                ("Result", "1-0") => " (Black won)",
                ("Result", "0-1") => " (White won)",
                ("Result", "1/2-1/2") => " (draw)",
                _ => "",
            };
            lines.push(Line::from(vec![
                Span::styled(format!("{tag:<7}"), theme.heading),
                Span::raw(format!("{value}{meaning}")),
            ]));
        }
        // How it ended, where the record tells: a bare 0-1 may be a resignation, a
        // flag fall or a blocked side.
        if let Some(ending) = app.session().review_ending() {
            let mut ended = wrapped(&ending, width.saturating_sub(7), Style::new()).into_iter();
            if let Some(first) = ended.next() {
                let mut spans = vec![Span::styled("Ended  ", theme.heading)];
                spans.extend(first.spans);
                lines.push(Line::from(spans));
            }
            lines.extend(ended.map(|line| {
                let mut spans = vec![Span::raw("       ")];
                spans.extend(line.spans);
                Line::from(spans)
            }));
        }
    }
    let scroll = if app.review().is_some() {
        0
    } else {
        app.panel.list_scroll
    };
    lines.push(Line::styled(
        if scroll > 0 {
            "Moves (earlier; PgDn for the latest)"
        } else {
            "Moves"
        },
        theme.heading,
    ));
    lines
}

/// Panel rows from which the clocks are drawn in big digits.
const BIG_CLOCK_PANEL_ROWS: u16 = 32;

/// The clocks of a timed game, one bold line per side, the running one marked:
/// `Black   4:59` / `White ▶ 5:00`; a side whose time is nearly up in the alert colour.
/// With `big`, each reading follows its line in digits three rows tall. In review of a
/// record that kept clock readings, each side's clock as it stood at the move shown.
fn clock_lines(app: &App, big: bool, lines: &mut Vec<Line<'static>>) {
    let theme = &app.theme;
    if let Some(readings) = app.session().review_clocks() {
        let when = if app.session().review_end_clocks().is_some() {
            "Clocks at the end"
        } else {
            "Clocks at this move"
        };
        lines.push(Line::styled(when, theme.text));
        for (color, reading) in Color::ALL.into_iter().zip(readings) {
            let text = reading.map_or_else(|| "?".to_string(), crate::session::clock_text);
            lines.push(Line::styled(
                format!("{:<6}  {text:>7}", color.name()),
                theme.heading,
            ));
        }
        return;
    }
    let Some(clock) = app.session().clock() else {
        return;
    };
    let marker = if theme.glyphs.arrows.is_ascii() {
        ">"
    } else {
        "\u{25b6}"
    };
    for color in Color::ALL {
        let left = app.session().time_left(color).unwrap_or_default();
        let running = clock.running() == Some(color);
        let mark = if running { marker } else { " " };
        // Low time is told by more than colour: bold, and a "!" after the reading.
        let (style, low) = if app.session().time_is_low(color) {
            (
                theme.alert.add_modifier(ratatui::style::Modifier::BOLD),
                " !",
            )
        } else {
            (theme.heading, "")
        };
        let reading = crate::session::clock_text(left);
        let rows = big.then(|| super::big_digits::big_rows(&reading)).flatten();
        let mut text = if rows.is_some() {
            format!("{:<6}{mark}{low}", color.name())
        } else {
            format!("{:<6}{mark} {reading:>7}{low}", color.name())
        };
        // Whose clock it is: in a match, or when the players gave their names.
        if let Some(contest) = app.session().match_play() {
            text = format!("{text:<17}{}", contest.name_of(color));
        } else if let Some(name) = app.session().names().name(color) {
            text = format!("{text:<17}{}", printable(name, NAME_CHARS));
        }
        lines.push(Line::styled(text, style));
        for row in rows.into_iter().flatten() {
            lines.push(Line::styled(format!("  {row}"), style));
        }
    }
    if clock.is_paused() && app.runtime().table().is_some() {
        lines.push(Line::styled("Clocks stopped: player away", theme.question));
    } else if app.session().clocks_held() {
        lines.push(Line::styled(
            "Clocks start at the first key",
            theme.question,
        ));
    } else if clock.is_paused() {
        lines.push(Line::styled("Clocks paused: p", theme.question));
    }
}

/// The match's state: which game, the score by player (points, wins, draws, losses,
/// and the colour each has now), and what comes next once a game has ended.
fn match_lines(app: &App, width: usize, lines: &mut Vec<Line<'static>>) {
    let theme = &app.theme;
    let (Some(contest), Some(tallies)) =
        (app.session().match_play(), app.session().match_tallies())
    else {
        return;
    };
    let index = contest.game_index();
    lines.push(Line::styled(
        format!(
            "Match game {} of {}, round {}",
            index + 1,
            contest.games(),
            crate::session::Match::round_text(index)
        ),
        theme.heading,
    ));
    // "Ann   1½  W1 D1 L0  Black": the name cut to what the panel leaves it.
    let with_color = width >= 27;
    let room = width
        .saturating_sub(if with_color { 21 } else { 14 })
        .max(3);
    // Columns, not characters: a Chinese name takes two a character.
    let names = contest.names().each_ref().map(|n| printable(n, NAME_CHARS));
    let longest = names
        .iter()
        .map(|n| crate::text::columns(n))
        .max()
        .unwrap_or(0);
    let name_width = longest.min(room);
    for (player, (name, tally)) in names.iter().zip(tallies).enumerate() {
        let name = crate::text::padded_to_columns(name, name_width);
        let mut text = format!("{name} {:>3}  {}", tally.points(), tally.record());
        if with_color {
            let color = crate::session::Match::color_of(player, index);
            text.push_str(&format!("  {}", color.name()));
        }
        lines.push(Line::styled(text, theme.text));
    }
    if let Some(result) = app.session().match_result_text() {
        lines.push(Line::styled(result, theme.question));
    } else if app.session().match_waits() {
        lines.push(Line::styled(
            format!("Next: game {}, n when both ready", index + 2),
            theme.question,
        ));
    }
}

/// The panel block, without its inside.
fn panel_block(theme: &Theme) -> Block<'static> {
    Block::bordered()
        .border_set(theme.glyphs.border)
        .title(" Checkers ")
        .title_style(theme.heading)
        .border_style(theme.border)
}

pub(super) fn render_panel(app: &App, area: Rect, buf: &mut Buffer) {
    // The compact layout has no panel.
    if area.is_empty() {
        return;
    }
    let theme = &app.theme;
    let g = &theme.glyphs;
    let block = panel_block(theme);
    let inner = block.inner(area);
    block.render(area, buf);
    let mut lines = panel_head(app, inner);
    let scroll = if app.review().is_some() {
        0
    } else {
        app.panel.list_scroll
    };
    let header = lines.len();
    // The legend sits on the panel's last line.
    let legend = Line::styled(
        format!(
            "{} last  {} must jump  {} land",
            g.last_move, g.must_capture, g.target
        ),
        theme.border,
    );
    let room = usize::from(inner.height).saturating_sub(header + 1);
    if app.review().is_some() {
        review_move_lines(app, room, inner.width, &mut lines);
    } else {
        let pairs = app.game().route_pairs();
        let column = black_column(&pairs, inner.width);
        // At least the first move stays in view, however far it is scrolled.
        let end = pairs.len() - scroll.min(pairs.len().saturating_sub(1));
        let shown = end.saturating_sub(room);
        for pair in &pairs[shown..end] {
            // White's moves in a column after the longest of Black's.
            lines.push(Line::raw(format!(
                "{:>3}. {:<column$} {}",
                pair.number,
                pair.black.as_deref().unwrap_or("..."),
                pair.white.as_deref().unwrap_or("")
            )));
        }
    }
    if app.game().moves().is_empty() && app.review().is_none() && room > 0 {
        lines.push(Line::styled("  (none yet)", theme.border));
    }
    Paragraph::new(lines).render(inner, buf);
    if inner.height > 0 {
        let last_row = Rect {
            y: inner.bottom() - 1,
            height: 1,
            ..inner
        };
        Paragraph::new(legend).render(last_row, buf);
    }
}

/// How wide the move list's column of Black's moves is: the longest of them (a long
/// capture route, `7x14x23x30`), at least 8, so that White's moves stand in a column;
/// narrowed, where the panel is narrow, to leave White's move 8 columns.
fn black_column(pairs: &[MovePair], panel_width: u16) -> usize {
    let longest = pairs
        .iter()
        .map(|p| p.black.as_deref().map_or(3, |b| b.chars().count()))
        .max()
        .unwrap_or(0);
    let room = usize::from(panel_width).saturating_sub(1 + 5 + 1 + 8);
    longest.min(room).max(8)
}

/// The first pair of moves the review's move list shows in `room` lines: the move shown
/// is kept in the middle.
fn review_first_pair(app: &App, room: usize) -> usize {
    let (shown, total) = app.session().review_progress();
    let offset = usize::from(app.game().start().turn() == Color::White);
    let pairs = (total + offset).div_ceil(2);
    let current_pair = shown.checked_sub(1).map_or(0, |ply| (ply + offset) / 2);
    current_pair
        .saturating_sub(room / 2)
        .min(pairs.saturating_sub(room))
}

/// In review, the move of the move list at screen cell `column`, `row` of a screen of
/// `area`: the number of moves played up to and including it (what to step to), or
/// `None` where no move is drawn. Drawing and clicks count the lines the same way.
pub(crate) fn move_at(app: &App, area: Rect, column: u16, row: u16) -> Option<usize> {
    app.review()?;
    let layout = screen_layout(area, app.board.flipped)?;
    if layout.panel.is_empty() {
        return None;
    }
    let inner = panel_block(&app.theme).inner(layout.panel);
    if column < inner.x || column >= inner.right() {
        return None;
    }
    let header = panel_head(app, inner).len();
    let room = usize::from(inner.height).saturating_sub(header + 1);
    let line = usize::from(row.checked_sub(inner.y)?).checked_sub(header)?;
    if line >= room {
        return None;
    }
    let pair = review_first_pair(app, room) + line;
    // ">  1. 11-15    23-18": Black's move from column 6, White's after Black's column.
    let half = usize::from(usize::from(column - inner.x) >= 7 + review_column(app, inner.width));
    let offset = usize::from(app.game().start().turn() == Color::White);
    let ply = (pair * 2 + half).checked_sub(offset)?;
    let (_, total) = app.session().review_progress();
    (ply < total).then_some(ply + 1)
}

/// The whole recorded game's move list, in review.
fn review_pairs(app: &App) -> Vec<MovePair> {
    let mut whole = app.game().clone();
    while whole.redo() {}
    whole.route_pairs()
}

/// The width of Black's column in the review's move list (see [`black_column`]), with
/// the `>` mark before it.
fn review_column(app: &App, panel_width: u16) -> usize {
    black_column(&review_pairs(app), panel_width.saturating_sub(1))
}

/// The whole game under review in `room` lines, scrolled to keep the move shown on
/// screen; that move is marked with `>` and the cursor style.
fn review_move_lines(app: &App, room: usize, width: u16, lines: &mut Vec<Line<'_>>) {
    let theme = &app.theme;
    let pairs = review_pairs(app);
    let column = review_column(app, width);
    let (shown, _) = app.session().review_progress();
    // Where the move shown sits: White's first move may be the first slot's second half.
    let offset = usize::from(app.game().start().turn() == Color::White);
    let current = shown.checked_sub(1).map(|ply| ply + offset);
    let first = review_first_pair(app, room);
    for (index, pair) in pairs.iter().enumerate().skip(first).take(room) {
        let marked = |half: usize| current == Some(index * 2 + half);
        let style = |half: usize| {
            if marked(half) {
                theme.cursor
            } else {
                Style::new()
            }
        };
        let black = pair.black.as_deref().unwrap_or("...");
        let white = pair.white.as_deref().unwrap_or("");
        let marker = if marked(0) || marked(1) { ">" } else { " " };
        lines.push(Line::from(vec![
            Span::styled(marker, theme.question),
            Span::raw(format!("{:>3}. ", pair.number)),
            Span::styled(black.to_string(), style(0)),
            // A long capture route still keeps a space before White's move.
            Span::raw(" ".repeat((column + 1).saturating_sub(black.chars().count()).max(1))),
            Span::styled(white.to_string(), style(1)),
        ]));
    }
}

/// Longest part of a player's name the panel shows.
const NAME_CHARS: usize = 30;

/// The players' names where they were given, outside a match and a review (whose lines
/// name them), with the computer's level for a side it plays: "Ann (Black) v HAL
/// (White, level 9)", "Ann plays Black", "HAL (level 9) plays White". A computer side with no
/// name is [`players_text`]'s, so that no side is told twice.
fn names_text(app: &App) -> Option<String> {
    // Across the network the seat line names the players with their sides, once.
    if app.session().match_play().is_some()
        || app.review().is_some()
        || you_play_text(app).is_some()
    {
        return None;
    }
    let names = app.session().names();
    let seats = app.session().seats();
    let name = |color| names.name(color).map(|n| printable(n, NAME_CHARS));
    let level = |color| {
        seats
            .computer(color)
            .map_or_else(String::new, |level| format!(", {level}"))
    };
    match (name(Color::Black), name(Color::White)) {
        (Some(black), Some(white)) => Some(format!(
            "{black} (Black{}) v {white} (White{})",
            level(Color::Black),
            level(Color::White)
        )),
        (Some(one), None) | (None, Some(one)) => {
            let color = if name(Color::Black).is_some() {
                Color::Black
            } else {
                Color::White
            };
            match seats.computer(color) {
                Some(level) => Some(format!("{one} ({level}) plays {color}")),
                None => Some(format!("{one} plays {color}")),
            }
        }
        (None, None) => None,
    }
}

/// A game across the network: where to join while the host waits, who plays at the
/// other terminal, whether the line is up, who watches, and the chat's last lines.
fn table_lines(app: &App, width: usize, lines: &mut Vec<Line<'static>>) {
    use crate::runtime::Seat;
    let Some(view) = app.runtime().table() else {
        return;
    };
    let theme = &app.theme;
    let names = app.session().names();
    let clocks_run = app.session().clock().is_some_and(|c| c.running().is_some());
    // A game without clocks has none to stop while this terminal's line is down.
    let line_down = match app.session().clock() {
        Some(_) => "the line to the host is down, the clocks stopped: trying again",
        None => "the line to the host is down: trying again",
    };
    let (text, style) = match &view.seat {
        Seat::Host {
            address,
            code,
            every_interface,
        } if !view.connected => {
            let listening = if *every_interface {
                " (listening on every interface)"
            } else {
                ""
            };
            let remote = app.session().seats().remote_side().unwrap_or(Color::White);
            // Over, nobody is awaited: where to join is still shown for a rematch.
            // Else the head above says where to join ([`App::host_waiting_head`]).
            match app.host_waiting_head() {
                Some(_) => (format!("They play {remote}{listening}"), theme.text),
                None => (
                    format!(
                        "Waiting for a player{listening}: checkers join {address} --code {code}"
                    ),
                    theme.question,
                ),
            }
        }
        Seat::Host { .. } => (you_play_text(app).unwrap_or_default(), theme.text),
        Seat::Player(_) | Seat::Spectator if view.server_gone => (
            if view.let_go.is_some() {
                "The server let you go: q leaves the board".to_string()
            } else {
                "The line to the server is gone: q leaves the board".to_string()
            },
            theme.alert,
        ),
        // Ended by the server with no result: nobody is waited for any more.
        Seat::Player(_) | Seat::Spectator if view.abandoned.is_some() => {
            (view.abandoned.clone().unwrap_or_default(), theme.alert)
        }
        // At a server the game goes on while one player is at it, the clocks running:
        // a running clock says so, a stopped one that the game waits.
        Seat::Player(_) if !view.connected && view.at_server && clocks_run => (
            "Your opponent is away: the game goes on, the clocks running".to_string(),
            theme.alert,
        ),
        Seat::Player(_) if !view.connected && view.at_server => (
            "Your opponent is away: the game waits for them, its clocks stopped".to_string(),
            theme.alert,
        ),
        Seat::Player(_) if !view.connected => (crate::text::capitalized(line_down), theme.alert),
        Seat::Player(_) => (you_play_text(app).unwrap_or_default(), theme.text),
        Seat::Spectator if !view.connected && view.at_server && clocks_run => (
            "Watching; a player is away: the game goes on, the clocks running".to_string(),
            theme.alert,
        ),
        Seat::Spectator if !view.connected && view.at_server => (
            "Watching; a player is away: the game waits for them, its clocks stopped".to_string(),
            theme.alert,
        ),
        Seat::Spectator if !view.connected => {
            (away_from_watched_table(view, names, line_down), theme.alert)
        }
        Seat::Spectator => ("Watching the game".to_string(), theme.text),
    };
    lines.extend(wrapped(&text, width, style));
    if view.spectators > 0 {
        let text = format!("{} watching", view.spectators);
        lines.push(Line::styled(text, theme.text));
    }
    let shown = view.chat.len().saturating_sub(CHAT_LINES);
    for (from, said) in view.chat.iter().skip(shown) {
        lines.extend(wrapped(&format!("{from}: {said}"), width, theme.text));
    }
}

/// At a table across the network where this terminal plays and the other player is
/// there: each side and who plays it, said once ("You (Ann) play Black; Bob plays White
/// across the network"), in place of [`names_text`]'s line, which said the names again.
fn you_play_text(app: &App) -> Option<String> {
    use crate::runtime::Seat;
    let view = app.runtime().table()?;
    if !view.connected || view.server_gone || view.abandoned.is_some() {
        return None;
    }
    let mine = match view.seat {
        Seat::Host { .. } => !app.session().seats().remote_side().unwrap_or(Color::White),
        Seat::Player(mine) => mine,
        Seat::Spectator => return None,
    };
    let names = app.session().names();
    let name = |color| names.name(color).map(|n| printable(n, NAME_CHARS));
    let you = match name(mine) {
        Some(name) => format!("You ({name}) play {mine}"),
        None => format!("You play {mine}"),
    };
    let other = match (name(!mine), &view.seat) {
        (Some(name), _) => format!("{name} plays {} across the network", !mine),
        (None, Seat::Host { .. }) => format!("the player who joined plays {}", !mine),
        (None, _) => format!("the host plays {}", !mine),
    };
    Some(format!("{you}; {other}"))
}

/// Who is away from the LAN table a spectator watches: its own line to the host (down,
/// tried again, as `line_down` says), or the player who joined the host, by name where
/// known, and side.
fn away_from_watched_table(
    view: &crate::runtime::TableView,
    names: &crate::pdn::Players,
    line_down: &str,
) -> String {
    if view.line_down {
        return format!("Watching; {line_down}");
    }
    let Some(side) = view.joiner_side else {
        return "Watching; the player who joined is not connected: the game waits for them"
            .to_string();
    };
    match names.name(side) {
        Some(name) => format!(
            "Watching; {} ({side}), who joined the host, is not connected: the game waits \
             for them",
            printable(name, NAME_CHARS)
        ),
        None => format!(
            "Watching; the player who joins the host to play {side} is not connected: the \
             game waits for them"
        ),
    }
}

/// The chat lines the panel shows (the newest).
const CHAT_LINES: usize = 3;

/// Who the computer plays, when it plays a side the players gave no name (a named one is
/// [`names_text`]'s): "Computer (level 5): White". Two sides at two levels are said on
/// one line where it fits the panel's `width`, else a line each ("Computer: Black (level
/// 3)", "Computer: White (level 5)"), so that neither level is cut off.
fn players_text(app: &App, width: usize) -> Vec<String> {
    let seats = app.session().seats();
    // In a match and a review the names are told elsewhere, and not with the level.
    let named = |color| {
        app.session().match_play().is_none()
            && app.review().is_none()
            && app.session().names().name(color).is_some()
    };
    let cpu: Vec<(Color, Level)> = Color::ALL
        .into_iter()
        .filter(|c| !named(*c))
        .filter_map(|c| seats.computer(c).map(|level| (c, level)))
        .collect();
    match cpu[..] {
        [] => Vec::new(),
        [(color, level)] => vec![format!("Computer ({level}): {color}")],
        [(_, a), (_, b)] if a == b => vec![format!("Computer ({a}): both sides")],
        _ => {
            let sides: Vec<String> = cpu.iter().map(|(c, l)| format!("{c} ({l})")).collect();
            let one_line = format!("Computer: {}", sides.join(", "));
            if one_line.width() <= width {
                vec![one_line]
            } else {
                sides
                    .iter()
                    .map(|side| format!("Computer: {side}"))
                    .collect()
            }
        }
    }
}

fn plural(n: u32, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 { one } else { many }
}

/// The engine's score in words with its size in men: "Black is ahead by 0.8 men",
/// "even", "White wins in 9 moves".
fn engine_view(to_move: Color, score: crate::engine::Score) -> String {
    crate::session::score_with_size(to_move, score)
}

/// `label: value` on one row where it fits in `width`, else the label on a row of its
/// own and the value under it, indented and wrapped: broken at the colon, a row never
/// ends in the middle of the value's phrase ("Endgame database: White wins in 31" over
/// "moves" read as two sentences).
pub(crate) fn labelled(label: &str, value: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    let whole = format!("{label}: {value}");
    if whole.width() <= width {
        return vec![Line::styled(whole, style)];
    }
    let mut lines = wrapped(&format!("{label}:"), width, style);
    for line in wrapped(value, width.saturating_sub(2), style) {
        lines.push(Line::styled(format!("  {line}"), style));
    }
    lines
}

/// `text` as lines of at most `width` columns, broken between words (a word longer
/// than the width is cut), each in `style`.
pub(crate) fn wrapped(text: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    let width = width.max(1);
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        // Columns, not characters: a wide (CJK) character takes two.
        let taken = line.width();
        if taken > 0 && taken + 1 + word.width() > width {
            lines.push(Line::styled(std::mem::take(&mut line), style));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(Line::styled(line, style));
    }
    lines
}

/// [`wrapped`], with the last word never alone on its line when the word before it
/// can go down with it: "of 14" stays together (at 80x24 "Review: move 14 (Black's
/// 10-15) of" left the count "14" alone on the next line).
fn wrapped_keeping_the_count(text: &str, width: usize, style: Style) -> Vec<Line<'static>> {
    let mut rows: Vec<String> = wrapped(text, width, style)
        .iter()
        .map(|line| line.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect();
    if let [.., before, last] = rows.as_mut_slice()
        && !last.contains(' ')
        && let Some((kept, moved)) = before.rsplit_once(' ')
        && moved.width() + 1 + last.width() <= width
    {
        let (kept, moved) = (kept.to_string(), moved.to_string());
        *last = format!("{moved} {last}");
        *before = kept;
    }
    rows.into_iter()
        .map(|row| Line::styled(row, style))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::cut_lines;

    #[test]
    fn a_fen_is_cut_after_a_comma_or_colon_never_inside_a_square() {
        let fen = "FEN W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12";
        let lines: Vec<String> = cut_lines(fen, 20).iter().map(|l| l.to_string()).collect();
        assert!(lines.iter().all(|l| l.chars().count() <= 20), "{lines:#?}");
        assert_eq!(lines.concat(), fen);
        for line in &lines[..lines.len() - 1] {
            assert!(line.ends_with([',', ':', ' ']), "{lines:#?}");
        }
    }
}
