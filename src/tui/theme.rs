//! Colours, text attributes and glyphs.
//!
//! Meaning never rests on colour alone: every mark also has a glyph, brackets or an
//! attribute, so the colourless theme shows everything the coloured one does.

use ratatui::style::{Color, Modifier, Style};
use ratatui::symbols::border;
use std::ffi::OsStr;

/// The characters the board is drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Glyphs {
    /// A Black man.
    pub(crate) black_man: &'static str,
    /// A Black king.
    pub(crate) black_king: &'static str,
    /// A White man.
    pub(crate) white_man: &'static str,
    /// A White king.
    pub(crate) white_king: &'static str,
    /// An empty square the picked-up piece may land on next.
    pub(crate) target: &'static str,
    /// A square the piece has already hopped to while a multi-jump is built.
    pub(crate) path: &'static str,
    /// Fill for light squares in the colourless theme (coloured themes use a background).
    pub(crate) light_fill: &'static str,
    /// Corner mark: this piece can capture (captures are compulsory).
    pub(crate) must_capture: &'static str,
    /// Corner mark: a square of the last move.
    pub(crate) last_move: &'static str,
    /// Corner mark: a piece jumped by the multi-jump being built.
    pub(crate) jumped: &'static str,
    /// The cursor's brackets, left and right.
    pub(crate) cursor: (&'static str, &'static str),
    /// The arrow keys, as shown in key hints.
    pub(crate) arrows: &'static str,
    /// The Left and Right arrow keys, which step through a game under review.
    pub(crate) steps: &'static str,
    /// The lines around the board, the panel and dialogs.
    pub(crate) border: border::Set<'static>,
    /// A Black disc's fill.
    pub(crate) disc_black: &'static str,
    /// A White disc's fill in colour (shaded, so the sides differ by more than colour).
    pub(crate) disc_white_colored: &'static str,
    /// A White piece's fill without colour (shaded darker than the light squares' fill).
    pub(crate) disc_white: &'static str,
    /// The ends of a disc's top row (rounding it).
    pub(crate) disc_top_edge: &'static str,
    /// The ends of a disc's bottom row.
    pub(crate) disc_bottom_edge: &'static str,
    /// Discs drawn with the piece's letter (`b`, `B`, `w`, `W`) instead of blocks.
    pub(crate) disc_letters: bool,
}

/// Borders of plain ASCII: `+`, `-` and `|`.
const ASCII_BORDER: border::Set<'static> = border::Set {
    top_left: "+",
    top_right: "+",
    bottom_left: "+",
    bottom_right: "+",
    vertical_left: "|",
    vertical_right: "|",
    horizontal_top: "-",
    horizontal_bottom: "-",
};

impl Glyphs {
    /// Unicode glyphs. The block and half-block characters of the discs are East-Asian
    /// ambiguous in width: a terminal set to draw those wide mis-draws them, and
    /// `--ascii` is the answer there.
    pub(crate) const UNICODE: Glyphs = Glyphs {
        black_man: "⬤",
        black_king: "♚",
        white_man: "◉",
        white_king: "♔",
        target: "◌",
        path: "∙",
        light_fill: "░",
        must_capture: "!",
        last_move: "*",
        jumped: "x",
        cursor: ("[", "]"),
        arrows: "←↓↑→",
        steps: "← →",
        border: border::PLAIN,
        disc_black: "█",
        disc_white_colored: "▓",
        disc_white: "▒",
        disc_top_edge: "▄",
        disc_bottom_edge: "▀",
        disc_letters: false,
    };

    /// Plain ASCII: men are lower-case, kings capitals.
    pub(crate) const ASCII: Glyphs = Glyphs {
        black_man: "b",
        black_king: "B",
        white_man: "w",
        white_king: "W",
        target: "+",
        path: "o",
        light_fill: ".",
        must_capture: "!",
        last_move: "*",
        jumped: "x",
        cursor: ("[", "]"),
        arrows: "arrows",
        steps: "Left Right",
        border: ASCII_BORDER,
        disc_black: "b",
        disc_white_colored: "w",
        disc_white: "w",
        disc_top_edge: "/",
        disc_bottom_edge: "\\",
        disc_letters: true,
    };

    /// The mark at the end of a text cut short: `…`, or `...` in the ASCII set.
    pub(crate) fn ellipsis(&self) -> &'static str {
        if self.arrows.is_ascii() {
            "..."
        } else {
            "\u{2026}"
        }
    }
}

/// Every style the view uses, plus the glyph set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Theme {
    /// Whether colours are used at all.
    pub(crate) colored: bool,
    /// The glyph set.
    pub(crate) glyphs: Glyphs,
    /// A dark (playing) square.
    pub(crate) dark_square: Style,
    /// A light square.
    pub(crate) light_square: Style,
    /// A Black piece (added to the square's style).
    pub(crate) black_piece: Style,
    /// A White piece.
    pub(crate) white_piece: Style,
    /// The square under the cursor.
    pub(crate) cursor: Style,
    /// The picked-up piece and the squares it has hopped to.
    pub(crate) selected: Style,
    /// A landing square for the picked-up piece.
    pub(crate) target: Style,
    /// The squares of the last move, the path of a capture included (a background).
    pub(crate) last_move: Style,
    /// The number and mark of a last-move square.
    pub(crate) last_move_number: Style,
    /// The must-capture and jumped marks.
    pub(crate) alert: Style,
    /// Headings and the side to move.
    pub(crate) heading: Style,
    /// Ordinary panel text.
    pub(crate) text: Style,
    /// Error messages.
    pub(crate) error: Style,
    /// Questions waiting for an answer, and the game result.
    pub(crate) question: Style,
    /// The key names in the hint bar.
    pub(crate) key: Style,
    /// Borders.
    pub(crate) border: Style,
}

impl Theme {
    /// The theme for the given choices.
    pub(crate) fn new(colored: bool, ascii: bool) -> Theme {
        let glyphs = if ascii {
            Glyphs::ASCII
        } else {
            Glyphs::UNICODE
        };
        if colored {
            Theme::colored(glyphs)
        } else {
            Theme::colorless(glyphs)
        }
    }

    /// The true-colour theme, for terminals whose `COLORTERM` says they show any colour:
    /// a classic tournament board of its own colours (dark squares a muted green, light
    /// squares buff, ebony and ivory pieces), the same on every palette.
    pub(crate) fn true_color(ascii: bool) -> Theme {
        let base = Theme::new(true, ascii);
        let rgb = |hex: u32| Color::Rgb((hex >> 16) as u8, (hex >> 8) as u8, hex as u8);
        let bold = Modifier::BOLD;
        Theme {
            dark_square: Style::new().bg(rgb(0x3c6e47)).fg(rgb(0x0f1a12)),
            light_square: Style::new().bg(rgb(0xe8d9b0)),
            black_piece: Style::new().fg(rgb(0x1b1b1b)).add_modifier(bold),
            white_piece: Style::new().fg(rgb(0xf6f1e4)).add_modifier(bold),
            cursor: Style::new().bg(rgb(0x4f9fbf)).add_modifier(bold),
            selected: Style::new().bg(rgb(0xb07a3c)).add_modifier(bold),
            target: Style::new()
                .bg(rgb(0x7fb069))
                .fg(rgb(0x0f1a12))
                .add_modifier(bold),
            last_move: Style::new().bg(rgb(0x5d7f9e)),
            last_move_number: Style::new().fg(rgb(0xf6f1e4)).add_modifier(bold),
            ..base
        }
    }

    /// The 256-colour theme, for terminals whose `TERM` advertises 256 colours (tmux,
    /// most SSH sessions) but not true colour: the true-colour board's muted green and
    /// buff, ebony and ivory pieces, in the nearest colours of the xterm palette's
    /// fixed cube and grey ramp (the same on every terminal, unlike the first 16).
    pub(crate) fn palette_256(ascii: bool) -> Theme {
        let base = Theme::new(true, ascii);
        let bold = Modifier::BOLD;
        let ix = Color::Indexed;
        Theme {
            dark_square: Style::new().bg(ix(65)).fg(ix(233)),
            light_square: Style::new().bg(ix(187)),
            black_piece: Style::new().fg(ix(234)).add_modifier(bold),
            white_piece: Style::new().fg(ix(230)).add_modifier(bold),
            cursor: Style::new().bg(ix(73)).add_modifier(bold),
            selected: Style::new().bg(ix(137)).add_modifier(bold),
            target: Style::new().bg(ix(107)).fg(ix(233)).add_modifier(bold),
            last_move: Style::new().bg(ix(67)),
            last_move_number: Style::new().fg(ix(230)).add_modifier(bold),
            ..base
        }
    }

    /// The 16-colour theme: a green and buff tournament board, in the terminal's own
    /// palette (the fallback where true colour is not known to work).
    fn colored(glyphs: Glyphs) -> Theme {
        let bold = Modifier::BOLD;
        Theme {
            colored: true,
            glyphs,
            dark_square: Style::new().bg(Color::Green).fg(Color::Black),
            light_square: Style::new().bg(Color::Yellow),
            black_piece: Style::new().fg(Color::Black).add_modifier(bold),
            white_piece: Style::new().fg(Color::White).add_modifier(bold),
            cursor: Style::new().bg(Color::Cyan).add_modifier(bold),
            selected: Style::new().bg(Color::Blue).add_modifier(bold),
            target: Style::new()
                .bg(Color::LightGreen)
                .fg(Color::Black)
                .add_modifier(bold),
            last_move: Style::new().bg(Color::Blue),
            last_move_number: Style::new().fg(Color::White).add_modifier(bold),
            alert: Style::new().fg(Color::LightRed).add_modifier(bold),
            heading: Style::new().fg(Color::LightCyan).add_modifier(bold),
            text: Style::new(),
            error: Style::new().fg(Color::LightRed).add_modifier(bold),
            question: Style::new().fg(Color::LightYellow).add_modifier(bold),
            key: Style::new().fg(Color::Black).bg(Color::Gray),
            border: Style::new().fg(Color::DarkGray),
        }
    }

    /// No colour at all: bold, underline and reverse on uncoloured cells carry the marks.
    fn colorless(glyphs: Glyphs) -> Theme {
        let bold = Modifier::BOLD;
        Theme {
            colored: false,
            glyphs,
            dark_square: Style::new(),
            light_square: Style::new(),
            black_piece: Style::new().add_modifier(bold),
            white_piece: Style::new(),
            cursor: Style::new().add_modifier(bold),
            selected: Style::new().add_modifier(Modifier::REVERSED),
            target: Style::new().add_modifier(bold),
            last_move: Style::new(),
            last_move_number: Style::new().add_modifier(bold | Modifier::UNDERLINED),
            alert: Style::new().add_modifier(bold),
            heading: Style::new().add_modifier(bold),
            text: Style::new(),
            error: Style::new().add_modifier(bold),
            question: Style::new().add_modifier(bold | Modifier::REVERSED),
            key: Style::new().add_modifier(Modifier::REVERSED),
            border: Style::new(),
        }
    }
}

/// Whether the terminal shows true colour: `COLORTERM` is `truecolor` or `24bit`.
pub(crate) fn true_color_wanted(colorterm: Option<&OsStr>) -> bool {
    colorterm.is_some_and(|v| v == "truecolor" || v == "24bit")
}

/// Whether the terminal advertises the 256-colour palette: `TERM` names it
/// (`xterm-256color`, `tmux-256color`, `screen-256color`, ...).
pub(crate) fn palette_256_wanted(term: Option<&OsStr>) -> bool {
    term.is_some_and(|t| t.to_string_lossy().contains("256color"))
}

/// Whether to use colour: not with `--no-color`, a non-empty `NO_COLOR`, `TERM=dumb`,
/// or a `TERM` that names a monochrome terminal (see [`monochrome_term`]).
///
/// (crossterm itself reacts to `NO_COLOR` by turning colour changes into attribute
/// resets, which would wipe bold and reverse marks; a colourless theme avoids that.)
pub(crate) fn colors_wanted(
    no_color_flag: bool,
    no_color: Option<&OsStr>,
    term: Option<&OsStr>,
) -> bool {
    let no_color_env = no_color.is_some_and(|v| !v.is_empty());
    let dumb = term.is_some_and(|t| t == "dumb");
    !(no_color_flag || no_color_env || dumb || monochrome_term(term))
}

/// Whether `TERM` names a terminal without colours: a DEC VT (`vt100`, `vt220`, ...;
/// not `vte`, nor a `vt...-color` entry) or a terminfo monochrome variant (`xterm-mono`,
/// `linux-m`). There the coloured board's dark and light squares would look the same.
pub(crate) fn monochrome_term(term: Option<&OsStr>) -> bool {
    let Some(term) = term.map(|t| t.to_string_lossy().to_ascii_lowercase()) else {
        return false;
    };
    dec_vt(&term) || term.ends_with("-mono") || term.ends_with("-m")
}

/// Whether `term` (lower case) is a DEC VT: `vt` and a digit, with no colour named.
fn dec_vt(term: &str) -> bool {
    term.strip_prefix("vt")
        .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        && !term.contains("color")
}

/// Whether the terminal can be trusted to draw the Unicode board (box lines, blocks,
/// discs, crowns). Not where the locale's character set is not UTF-8 (`locale`: the
/// first non-empty of `LC_ALL`, `LC_CTYPE` and `LANG`, such as `C`, `POSIX` or
/// `de_DE.ISO-8859-1`), where those bytes come out as garbage; nor on the Linux console
/// (`TERM=linux`), whose fonts have no discs or crowns, or a DEC VT, which has no
/// Unicode. A locale not set at all says nothing, and Unicode stays.
pub(crate) fn unicode_drawn(locale: Option<&OsStr>, term: Option<&OsStr>) -> bool {
    let utf8_locale = crate::text::utf8_locale(locale);
    let term = term.map(|t| t.to_string_lossy().to_ascii_lowercase());
    let plain_console = term.is_some_and(|t| t == "linux" || dec_vt(&t));
    utf8_locale && !plain_console
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_is_off_for_the_flag_a_non_empty_no_color_and_dumb_terminals() {
        let xterm = Some(OsStr::new("xterm-256color"));
        assert!(colors_wanted(false, None, xterm));
        assert!(colors_wanted(false, Some(OsStr::new("")), xterm));
        assert!(!colors_wanted(false, Some(OsStr::new("1")), xterm));
        assert!(!colors_wanted(true, None, xterm));
        assert!(!colors_wanted(false, None, Some(OsStr::new("dumb"))));
    }

    #[test]
    fn monochrome_terminals_get_no_colour_and_colour_ones_keep_it() {
        for mono in [
            "vt100",
            "vt220",
            "VT102",
            "vt100-am",
            "xterm-mono",
            "linux-m",
        ] {
            assert!(
                !colors_wanted(false, None, Some(OsStr::new(mono))),
                "{mono}"
            );
        }
        for coloured in [
            "xterm",
            "vte",
            "vte-256color",
            "linux",
            "screen",
            "vt100-color",
        ] {
            assert!(
                colors_wanted(false, None, Some(OsStr::new(coloured))),
                "{coloured}"
            );
        }
        assert!(colors_wanted(false, None, None));
    }

    #[test]
    fn unicode_is_drawn_only_in_a_utf8_locale_on_a_terminal_with_the_glyphs() {
        let os = |s: &'static str| Some(OsStr::new(s));
        let xterm = os("xterm-256color");
        for utf8 in ["C.UTF-8", "en_GB.utf8", "de_DE.UTF-8@euro"] {
            assert!(unicode_drawn(os(utf8), xterm), "{utf8}");
        }
        assert!(unicode_drawn(None, xterm), "no locale set says nothing");
        assert!(unicode_drawn(None, None));
        for other in ["C", "POSIX", "en_US.ISO-8859-1", "ja_JP.eucJP", "en_US"] {
            assert!(!unicode_drawn(os(other), xterm), "{other}");
        }
        for console in ["linux", "vt100", "vt220"] {
            assert!(!unicode_drawn(os("C.UTF-8"), os(console)), "{console}");
        }
        assert!(unicode_drawn(os("C.UTF-8"), os("vte")));
    }

    #[test]
    fn the_256_colour_theme_is_chosen_by_term_and_uses_only_the_fixed_palette() {
        assert!(palette_256_wanted(Some(OsStr::new("tmux-256color"))));
        assert!(palette_256_wanted(Some(OsStr::new("xterm-256color"))));
        assert!(!palette_256_wanted(Some(OsStr::new("xterm"))));
        assert!(!palette_256_wanted(None));
        let theme = Theme::palette_256(false);
        for style in [
            theme.dark_square,
            theme.light_square,
            theme.black_piece,
            theme.white_piece,
            theme.cursor,
            theme.selected,
            theme.target,
            theme.last_move,
        ] {
            for color in [style.fg, style.bg].into_iter().flatten() {
                // Not the first 16, which each terminal colours its own way.
                assert!(matches!(color, Color::Indexed(n) if n >= 16), "{color:?}");
            }
        }
        // Ebony and ivory: the pieces differ in lightness, not just hue.
        assert_eq!(theme.black_piece.fg, Some(Color::Indexed(234)));
        assert_eq!(theme.white_piece.fg, Some(Color::Indexed(230)));
    }

    #[test]
    fn colorless_theme_uses_no_colour() {
        let theme = Theme::new(false, true);
        for style in [
            theme.dark_square,
            theme.cursor,
            theme.selected,
            theme.target,
            theme.last_move,
            theme.question,
        ] {
            assert_eq!(style.fg, None);
            assert_eq!(style.bg, None);
        }
    }

    #[test]
    fn ascii_glyphs_are_ascii() {
        let g = Glyphs::ASCII;
        for s in [
            g.black_man,
            g.black_king,
            g.white_man,
            g.white_king,
            g.target,
            g.path,
            g.light_fill,
            g.must_capture,
            g.last_move,
            g.jumped,
            g.cursor.0,
            g.cursor.1,
            g.arrows,
        ] {
            assert!(s.is_ascii(), "{s}");
        }
    }
}
