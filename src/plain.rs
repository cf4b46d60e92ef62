//! The line-oriented front end, for screen readers, scripts and dumb terminals.
//!
//! It prints the board as text (square numbers, Black at the bottom) and whose move it
//! is, then reads one move or command per line and answers each with one line: the move
//! played, or why it was refused. End of input ends the session cleanly.

use crate::computer::{self, Sides};
use crate::engine::{DEFAULT_HASH_MB, Engine, Level, StopFlag};
use crate::game::Game;
use crate::rules::{Piece, Position, Square};
use crate::store::{Players, autosave, expand_home, save_game};
use std::io::{self, BufRead, Write};
use std::path::Path;

/// The commands, as `help` lists them.
pub const HELP: &str = "Commands: a move (11-15, 15x22, 15x22x29), undo, redo, board, moves, \
                        resign, draw (offer), accept, decline, claim, hint, save FILE, help, quit.";

/// The board as text, Black at the bottom: each dark square shows its number and what
/// stands on it (`b`/`w` a man, `B`/`W` a king).
pub fn board_text(pos: &Position) -> String {
    let rule = "+----".repeat(8) + "+\n";
    let mut out = format!("{:^41}\n{rule}", "White");
    for row in (0..8).rev() {
        for col in 0..8 {
            let cell = match Square::from_row_col(row, col) {
                None => "    ".to_string(),
                Some(sq) => format!("{:>2} {}", sq.number(), glyph(pos.piece_at(sq))),
            };
            out.push('|');
            out.push_str(&cell);
        }
        out.push_str("|\n");
    }
    out.push_str(&rule);
    out.push_str(&format!("{:^41}\n", "Black"));
    out.push_str("b = Black man, B = Black king, w = White man, W = White king\n");
    out
}

fn glyph(piece: Option<Piece>) -> char {
    piece.map_or(' ', Piece::letter)
}

/// Where the session is: the game, the names, whether to autosave after each move.
pub struct Session {
    /// The game being played.
    pub game: Game,
    /// Names for saved records.
    pub players: Players,
    /// Write the autosave file after every change (interactive use only, so a script
    /// never overwrites a person's game in progress).
    pub autosave: bool,
    /// Who plays each side.
    pub sides: Sides,
    /// The computer players' level.
    pub level: Level,
    /// The computer players' searcher, made when first needed.
    pub engine: Option<Engine>,
    /// Varies the computer players' randomness.
    pub seed: u64,
}

impl Session {
    /// A session for `game` between two people.
    pub fn new(game: Game, players: Players, autosave: bool) -> Session {
        Session {
            game,
            players,
            autosave,
            sides: Sides::default(),
            level: Level::default(),
            engine: None,
            seed: 0,
        }
    }

    /// Plays the computer's moves while a computer player is to move (the whole game
    /// when it plays both sides); one line per move, claim or resignation, each with the
    /// state of the game after it.
    pub fn computer_moves(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        while !self.game.is_over() {
            let color = self.game.position().turn();
            if !self.sides.is_cpu(color) {
                break;
            }
            if self.sides.both_cpu()
                && let Some(text) = computer::adjudicate(&mut self.game)
            {
                self.changed();
                lines.push(text);
                break;
            }
            let engine = self
                .engine
                .get_or_insert_with(|| Engine::new(DEFAULT_HASH_MB));
            let seed = self.seed ^ (self.game.moves().len() as u64).wrapping_mul(0x9E37_79B9);
            let request = computer::move_request(&self.game, self.level, seed);
            let result = engine.search(&request, &StopFlag::new(), |_| {});
            let Some(turn) = computer::take_turn(&mut self.game, self.level, &result) else {
                break;
            };
            self.changed();
            let text = turn.describe(color, self.level);
            lines.push(match turn {
                computer::Turn::Played(_) => format!("{text} {}", self.status()),
                computer::Turn::Ended(_) => text,
            });
        }
        lines
    }

    /// What the game state is, in one sentence: the result, or who is to move and
    /// anything they must know (a compulsory capture, a draw claim they may make).
    pub fn status(&self) -> String {
        if let Some(outcome) = self.game.result() {
            return format!("{outcome}.");
        }
        let pos = self.game.position();
        let mut s = format!("{} to move", pos.turn());
        if !pos.capturers().is_empty() {
            s.push_str(", a capture is compulsory");
        }
        if let Some(offer) = self.game.draw_offer() {
            s.push_str(&format!("; {offer} offers a draw (accept or decline)"));
        }
        if let Some(reason) = self.game.available_claim() {
            let why = match reason {
                crate::rules::DrawReason::Repetition => "threefold repetition",
                crate::rules::DrawReason::FortyMoves => "forty-move rule",
                crate::rules::DrawReason::Agreement => "agreement",
            };
            s.push_str(&format!("; a draw may be claimed ({why}): type claim"));
        }
        s.push('.');
        s
    }

    /// Answers one line of input. Returns the answer (one line, or the board for
    /// `board`) and whether the session should end.
    pub fn answer(&mut self, line: &str) -> (String, bool) {
        let line = line.trim();
        let (command, argument) = match line.split_once(char::is_whitespace) {
            Some((c, a)) => (c, a.trim()),
            None => (line, ""),
        };
        let turn = self.game.position().turn();
        let reply = match command.to_ascii_lowercase().as_str() {
            "quit" | "exit" => return ("Goodbye.".to_string(), true),
            "help" | "?" => HELP.to_string(),
            "hint" => self.hint(),
            "board" => format!("{}{}", board_text(self.game.position()), self.status()),
            "moves" => {
                let pos = self.game.position();
                let moves: Vec<String> =
                    pos.legal_moves().iter().map(|m| pos.notation(m)).collect();
                if self.game.is_over() || moves.is_empty() {
                    format!("No legal moves. {}", self.status())
                } else {
                    format!("Legal moves: {}.", moves.join(", "))
                }
            }
            "undo" => {
                // A declared ending (resignation, draw) is taken back before any move.
                let declared =
                    self.game.result().is_some() && self.game.position().outcome().is_none();
                let positions = self.game.positions();
                let last = self.game.moves().last().copied();
                let before = positions.len().checked_sub(2).map(|i| positions[i]);
                if !self.game.undo() {
                    "Nothing to take back.".to_string()
                } else {
                    // Against the computer, its reply goes too: back to the person's move.
                    let turn = self.game.position().turn();
                    let (last, before) = if !declared
                        && self.sides.is_cpu(turn)
                        && !self.sides.both_cpu()
                        && self.game.undo()
                    {
                        let positions = self.game.positions();
                        (self.game.redo_preview(), positions.last().copied())
                    } else {
                        (last, before)
                    };
                    self.changed();
                    match (declared, last, before) {
                        (false, Some(m), Some(pos)) => {
                            format!(
                                "Took back {} {}. {}",
                                pos.turn(),
                                pos.notation(&m),
                                self.status()
                            )
                        }
                        _ => format!("Took back the ending. {}", self.status()),
                    }
                }
            }
            "redo" => match self.game.redo_preview() {
                Some(m) => {
                    let pos = *self.game.position();
                    self.game.redo();
                    self.changed();
                    format!(
                        "Replayed {} {}. {}",
                        pos.turn(),
                        pos.notation(&m),
                        self.status()
                    )
                }
                None => "Nothing to replay.".to_string(),
            },
            "resign" => match self.game.resign(turn) {
                Ok(outcome) => {
                    self.changed();
                    format!("{turn} resigns. {outcome}.")
                }
                Err(e) => format!("Cannot resign: {e}."),
            },
            "draw" => match self.game.offer_draw(turn) {
                // The computer answers for itself, at once.
                Ok(()) if self.sides.is_cpu(!turn) => {
                    let name = crate::computer::player_name(!turn, self.level);
                    if crate::computer::accepts_draw(self.game.position())
                        && let Ok(outcome) = self.game.accept_draw()
                    {
                        self.changed();
                        format!("{name} accepts the draw. {outcome}.")
                    } else {
                        let _ = self.game.decline_draw();
                        format!("{name} declines the draw. {}", self.status())
                    }
                }
                Ok(()) => format!("{turn} offers a draw; {}, answer accept or decline.", !turn),
                Err(e) => format!("Cannot offer a draw: {e}."),
            },
            "accept" => match self.game.accept_draw() {
                Ok(outcome) => {
                    self.changed();
                    format!("{outcome}.")
                }
                Err(e) => format!("Cannot accept: {e}."),
            },
            "decline" => match self.game.draw_offer() {
                Some(offer) => {
                    let _ = self.game.decline_draw();
                    format!("{} declines the draw. {}", !offer, self.status())
                }
                None => "Cannot decline: no draw offer is waiting for an answer.".to_string(),
            },
            "claim" => match self.game.claim_draw() {
                Ok(outcome) => {
                    self.changed();
                    format!("{outcome}.")
                }
                Err(e) => format!("Cannot claim a draw: {e}."),
            },
            "save" if argument.is_empty() => {
                "Cannot save: give a file name, as in save game.pdn.".to_string()
            }
            "save" => match save_game(&expand_home(Path::new(argument)), &self.game, &self.players)
            {
                Ok(()) => format!("Saved to {argument}."),
                Err(e) => format!("Cannot save: {e}."),
            },
            "" => return (String::new(), false),
            _ if !line.chars().any(|c| c.is_ascii_digit()) => {
                format!("'{line}' is not a move or a command; type help for the list.")
            }
            _ => {
                let pos = *self.game.position();
                match self.game.play_text(line) {
                    Ok(m) => {
                        self.changed();
                        format!("{turn} played {}. {}", pos.notation(&m), self.status())
                    }
                    Err(e) => format!("Refused {line}: {e}. {}", self.status()),
                }
            }
        };
        (reply, false)
    }

    /// The engine's move for the side to move, written out and not played.
    fn hint(&mut self) -> String {
        if let Some(outcome) = self.game.result() {
            return format!("No hint: the game is over ({outcome}).");
        }
        let engine = self
            .engine
            .get_or_insert_with(|| Engine::new(DEFAULT_HASH_MB));
        let result = engine.search(
            &computer::hint_request(&self.game),
            &StopFlag::new(),
            |_| {},
        );
        let pos = self.game.position();
        match result.best_move {
            Some(m) => format!(
                "Hint for {}: {} (not played). {}",
                pos.turn(),
                pos.notation(&m),
                self.status()
            ),
            None => format!("No hint: no legal move. {}", self.status()),
        }
    }

    /// Keeps the autosave up to date. A failure is not fatal: play goes on.
    fn changed(&self) {
        if self.autosave {
            let _ = autosave(&self.game, &self.players);
        }
    }
}

/// Runs a plain session: the board and status first, then one answer per input line
/// until `quit` or the end of input.
pub fn run(input: impl BufRead, out: &mut impl Write, session: &mut Session) -> io::Result<()> {
    writeln!(
        out,
        "Checkers (plain mode). Type a move such as 11-15, or help."
    )?;
    write!(out, "{}", board_text(session.game.position()))?;
    writeln!(out, "{}", session.status())?;
    out.flush()?;
    let both_cpu = session.sides.both_cpu();
    let computer = |session: &mut Session, out: &mut dyn Write| -> io::Result<()> {
        for line in session.computer_moves() {
            writeln!(out, "{line}")?;
            out.flush()?;
        }
        Ok(())
    };
    computer(session, out)?;
    if both_cpu {
        // The computer played the whole game.
        return Ok(());
    }
    for line in input.lines() {
        let (reply, done) = session.answer(&line?);
        if !reply.is_empty() {
            writeln!(out, "{reply}")?;
            out.flush()?;
        }
        if done {
            break;
        }
        computer(session, out)?;
    }
    Ok(())
}
