//! Puzzles in plain mode (`checkers puzzle --plain`): the position as text, the goal,
//! then a move or a command a line, each answered in a line of words.

use super::position::{board_text_from, pieces_text};
use super::{Failure, Plain};
use crate::lines::BoundedLine;
use crate::puzzles::{Answer, Attempt, Judge, Progress, Puzzle, Record, builtin};
use crate::text::printable;
use std::io::{BufRead, Write};

/// The commands, as `help` lists them.
const HELP: &str = "Commands: a move (23-27, 15x22), list (every puzzle, solved ones marked), \
                    puzzle N (open puzzle N), next, retry (the position before the wrong move), \
                    restart, solution, hint (where the puzzle's file gives one), board, pieces, \
                    goal, help, quit.";

/// A plain-mode puzzle session: the puzzle open, the judge of its moves, the progress.
pub(crate) struct PlainPuzzles {
    /// The attempt at the puzzle open.
    attempt: Attempt,
    /// Its number in the list, from 1.
    number: usize,
    /// Who answers the moves.
    judge: Judge,
    /// What the player has solved.
    progress: Progress,
    /// Whether this attempt has been counted in the progress (at its first move).
    counted: bool,
}

impl PlainPuzzles {
    /// A session opening puzzle `number` (from 1; a number past the list opens the last).
    pub(crate) fn new(number: usize, judge: Judge, progress: Progress) -> PlainPuzzles {
        let all = progress.puzzles();
        let number = number.clamp(1, all.len());
        PlainPuzzles {
            attempt: Attempt::new(&all[number - 1]),
            number,
            judge,
            progress,
            counted: false,
        }
    }

    /// The puzzle open.
    fn puzzle(&self) -> &Puzzle {
        &self.attempt.puzzle
    }

    /// The introduction of the open puzzle: its number, title, source, the board, the
    /// pieces in words and the goal (and that there is a hint, where there is one).
    pub(super) fn intro(&self) -> String {
        let p = self.puzzle();
        let record = self.progress.of(&p.id);
        let state = if record.solved {
            " (solved before)"
        } else {
            ""
        };
        let hint = if p.hint.is_some() {
            " Type hint for a hint."
        } else {
            ""
        };
        format!(
            "Puzzle {} of {}: {}{state}. {}.\n{}{}\n{}.{hint}",
            self.number,
            self.progress.puzzles().len(),
            p.title,
            p.source,
            board_text_from(&self.attempt.position(), crate::rules::Color::Black),
            pieces_text(&self.attempt.position()),
            p.goal_text()
        )
    }

    /// The list of every puzzle, a line each, solved ones marked.
    fn list(&self) -> String {
        let mut lines: Vec<String> = self
            .progress
            .puzzles()
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let record = self.progress.of(&p.id);
                // Said in words (a screen reader reads blank brackets as nothing), and
                // padded so the titles still line up.
                let mark = if record.solved {
                    "solved:"
                } else {
                    "not solved:"
                };
                format!("{:>3}. {mark:<11} {} — {}", i + 1, p.title, p.goal_text())
            })
            .collect();
        lines.push(format!(
            "{} of {} solved.",
            self.progress.solved_count(),
            self.progress.puzzles().len()
        ));
        lines.join("\n")
    }

    /// Opens puzzle `number` (from 1).
    pub(super) fn open(&mut self, number: usize) -> String {
        if let Some(why) = crate::puzzles::no_such_puzzle(number, self.progress.puzzles().len()) {
            return format!("{}.", crate::text::capitalized(&why));
        }
        *self = PlainPuzzles::new(
            number,
            self.judge.clone(),
            std::mem::take(&mut self.progress),
        );
        self.intro()
    }

    /// Writes a change of the progress, saying so only if it fails.
    fn record(&mut self, change: impl FnOnce(&mut Record)) -> Option<String> {
        let id = self.puzzle().id.clone();
        self.progress
            .update(&id, change)
            .err()
            .map(|e| format!(" The progress is not saved: {e}."))
    }

    /// The answer to one line of input; `None` to quit.
    pub(crate) fn answer(&mut self, line: &str) -> Option<String> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let text = match word.to_ascii_lowercase().as_str() {
            "" => String::new(),
            "quit" | "exit" | "q" => return None,
            "help" | "?" => HELP.to_string(),
            "list" => self.list(),
            "goal" => format!("{}.", self.puzzle().goal_text()),
            "hint" => match &self.puzzle().hint {
                Some(hint) => format!("Hint: {hint}"),
                None => "This puzzle has no hint (a puzzle file's comment before the first \
                         move is its hint)."
                    .to_string(),
            },
            "board" => board_text_from(&self.attempt.position(), crate::rules::Color::Black),
            "pieces" => pieces_text(&self.attempt.position()),
            "puzzle" | "open" => match rest.trim().parse::<usize>() {
                Ok(n) => self.open(n),
                Err(_) => format!(
                    "Say which puzzle: puzzle N, N from 1 to {}.",
                    self.progress.puzzles().len()
                ),
            },
            "next" => {
                let next = self.number % self.progress.puzzles().len() + 1;
                self.open(next)
            }
            "retry" => {
                self.attempt.refutation = None;
                format!(
                    "Try again. {}. Moves so far: {}.",
                    self.puzzle().goal_text(),
                    self.moves_or_none()
                )
            }
            "restart" => {
                self.attempt.restart();
                self.counted = false;
                self.intro()
            }
            "solution" => {
                let solved = self.attempt.solved;
                self.attempt.show_solution();
                let note = if solved || !self.counted {
                    None
                } else {
                    self.record(Record::count_failure)
                };
                format!(
                    "The solution: {}. {}.{}{}",
                    self.puzzle().solution_text(),
                    crate::text::capitalized(&self.puzzle().proof),
                    self.explanation(),
                    note.unwrap_or_default()
                )
            }
            // A word with no square in it is no move: answered as the game answers it,
            // not counted as an attempt.
            _ if !line.chars().any(|c| c.is_ascii_digit()) => format!(
                "'{}' is not a move or a command; type help for the list.",
                printable(line, super::QUOTED_CHARS)
            ),
            _ => self.play(line),
        };
        Some(text)
    }

    /// The explanation of the puzzle (its file's comments on the solution's moves), on a
    /// line of its own, or nothing.
    fn explanation(&self) -> String {
        self.puzzle()
            .explanation
            .as_ref()
            .map_or_else(String::new, |text| format!("\n{text}"))
    }

    /// The moves of the attempt so far, or "none".
    fn moves_or_none(&self) -> String {
        match self.attempt.moves_text() {
            t if t.is_empty() => "none".to_string(),
            t => t,
        }
    }

    /// Plays the typed move `text` and says what came of it.
    fn play(&mut self, text: &str) -> String {
        if self.attempt.is_over() {
            return "This puzzle is over: next, puzzle N, restart or list.".to_string();
        }
        let mut note = None;
        if !self.counted {
            self.counted = true;
            note = self.record(Record::count_attempt);
        }
        let player = self.puzzle().player();
        let answer = self.attempt.play_text(&self.judge, text);
        let said = match answer {
            Answer::Correct {
                played,
                answer: None,
                ..
            } => {
                note = note.or(self.record(|r| r.solved = true));
                format!(
                    "{played}: correct. Solved! {} The solution: {}.{}",
                    self.progress_words(),
                    self.puzzle().solution_text(),
                    self.explanation()
                )
            }
            Answer::Correct {
                played,
                answer: Some(reply),
                ..
            } => format!(
                "{played}: correct. {} answers {reply}. Your move ({player}).",
                !player
            ),
            Answer::Wrong(refutation) if !refutation.proven => format!(
                "{}: {} {}. The solution plays another move: type another, or solution.",
                refutation.wrong,
                crate::puzzles::UNPROVEN,
                refutation.sentence()
            ),
            Answer::Wrong(refutation) => {
                if self.attempt.wrong_moves == 1 {
                    note = note.or(self.record(Record::count_failure));
                }
                format!(
                    "{}: not the move. {}. Type another move to retry, or solution.",
                    refutation.wrong,
                    refutation.sentence()
                )
            }
            Answer::Illegal(why) => format!("{}.", printable(&why, 200)),
            Answer::Over => "This puzzle is over.".to_string(),
        };
        format!("{said}{}", note.unwrap_or_default())
    }

    /// How many puzzles are solved, in words.
    fn progress_words(&self) -> String {
        format!(
            "{} of {} puzzles solved.",
            self.progress.solved_count(),
            self.progress.puzzles().len()
        )
    }

    /// Runs the conversation over `input` and `output` until `quit` or the end of input.
    /// Lines are read as the game's plain mode reads them: at most 64 KB kept, a longer
    /// one answered and dropped, bytes that are not UTF-8 replaced.
    pub(crate) fn run(&mut self, input: impl BufRead, out: &mut impl Write) -> Result<(), Failure> {
        writeln!(out, "{}", self.intro())?;
        writeln!(out, "Type a move, or help.")?;
        out.flush()?;
        let mut input = input;
        // Read as the game's plain mode reads: bounded, faulty UTF-8 replaced.
        while let Some(line) = super::next_line(&mut input).map_err(Failure::Input)? {
            let line = match line {
                BoundedLine::Text(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                BoundedLine::TooLong(_) => {
                    writeln!(out, "{}", super::too_long())?;
                    out.flush()?;
                    continue;
                }
            };
            match self.answer(&line) {
                None => break,
                Some(text) if text.is_empty() => {}
                Some(text) => writeln!(out, "{text}")?,
            }
            out.flush()?;
        }
        Ok(())
    }
}

/// The puzzles visited from a game in plain mode: `puzzle [N]` at the game's prompt,
/// `back` (or `quit`) returning to the game as it was.
impl Plain {
    /// `puzzle [N]`: the puzzles, with puzzle `N` open (without it, the one left last
    /// time, or the first). Not across the network, where the other player waits; a
    /// game on the clock has its clocks stopped first, as the analysis board does.
    pub(super) fn open_puzzles(&mut self, argument: &str) -> String {
        let count = builtin().len();
        let number = match argument.trim() {
            "" => None,
            text => match text.parse::<usize>() {
                Ok(n) if (1..=count).contains(&n) => Some(n),
                _ => {
                    return format!(
                        "There is no puzzle {}: they are numbered 1 to {count} (puzzle N).",
                        printable(text, 20)
                    );
                }
            },
        };
        if self.runtime.table().is_some() {
            return "No puzzles during a game across the network: the other player waits."
                .to_string();
        }
        let mut said = Vec::new();
        let running = self
            .session()
            .clock()
            .is_some_and(|clock| clock.running().is_some());
        if running
            && self
                .runtime
                .command(crate::runtime::Command::Pause(true))
                .is_ok()
        {
            said.push("The clocks are paused; type pause in the game to start them again.");
        }
        let puzzles = match (self.puzzles.take(), number) {
            (Some(mut puzzles), Some(n)) => {
                puzzles.open(n);
                puzzles
            }
            (Some(puzzles), None) => puzzles,
            (None, number) => {
                let (progress, warning) = crate::puzzles::saved_progress();
                let judge = crate::puzzles::judge(self.session().egdb());
                if let Some(why) = warning {
                    self.notices.push(printable(&why, 300));
                }
                let first = number.unwrap_or_else(|| progress.first_unsolved());
                Box::new(PlainPuzzles::new(first, judge, progress))
            }
        };
        let intro = puzzles.intro();
        self.puzzles = Some(puzzles);
        self.solving = true;
        let mut text = vec![
            "Puzzles: the game waits; back returns to it, help lists the commands.".to_string(),
        ];
        text.extend(said.into_iter().map(str::to_string));
        text.extend(std::mem::take(&mut self.notices));
        text.push(intro);
        text.join("\n")
    }

    /// A line typed while solving: `back` (or `quit`) returns to the game and shows it,
    /// the rest goes to the puzzles.
    pub(super) fn puzzle_line(&mut self, line: &str) -> String {
        let word = line.trim().to_ascii_lowercase();
        let answer = match (word.as_str(), self.puzzles.as_mut()) {
            ("back" | "game", _) | (_, None) => None,
            (_, Some(puzzles)) => puzzles.answer(line),
        };
        match answer {
            Some(text) if word == "help" || word == "?" => {
                format!("{text} In a game's puzzles, back (or quit) returns to the game.")
            }
            Some(text) => text,
            None => {
                self.solving = false;
                format!(
                    "Back to the game.\n{}{}",
                    board_text_from(self.session().position(), self.bottom()),
                    self.status()
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The puzzle commands' words: whole sentences.
    #![allow(clippy::unwrap_used)]
    use super::*;
    use crate::engine::Limits;

    /// The list says of each puzzle in words whether it is solved, the titles lined up.
    #[test]
    fn the_list_says_solved_or_not_solved_in_words() {
        let mut progress = Progress::default();
        progress
            .update(&builtin()[1].id, |r| r.solved = true)
            .unwrap();
        let puzzles = PlainPuzzles::new(1, Judge::new(None, Limits::depth(4)), progress);
        let list = puzzles.list();
        let lines: Vec<&str> = list.lines().collect();
        let title = |n: usize| format!("{} — ", builtin()[n].title);
        assert!(
            lines[0].starts_with(&format!("  1. not solved: {}", title(0))),
            "{list}"
        );
        assert!(
            lines[1].starts_with(&format!("  2. solved:     {}", title(1))),
            "{list}"
        );
        assert!(!list.contains('['), "{list}");
    }

    /// A teacher's file: its comment before the first move is the hint, those on the
    /// solution's moves the explanation told once it is solved or shown.
    #[test]
    fn a_puzzle_files_comments_are_its_hint_and_its_explanation() {
        let lesson = "[Event \"Two for one\"]\n[FEN \"B:W22:B11,14\"]\n\
            {Two men against one: keep them together.}\n1. ... 14-17 {Now White cannot \
            stop the pair.} *\n";
        let read = crate::puzzles::file::from_text(lesson, "lesson.pdn");
        assert!(read.left_out.is_empty(), "{:?}", read.left_out);
        let progress = Progress {
            set: Some(Box::leak(read.puzzles.into_boxed_slice())),
            ..Progress::default()
        };
        let mut puzzles = PlainPuzzles::new(1, Judge::new(None, Limits::depth(4)), progress);
        assert!(puzzles.intro().ends_with("Type hint for a hint."));
        assert_eq!(
            puzzles.answer("hint").unwrap(),
            "Hint: Two men against one: keep them together."
        );
        let solved = puzzles.answer("14-17").unwrap();
        assert!(
            solved.ends_with("\nAfter 14-17: Now White cannot stop the pair."),
            "{solved}"
        );
        puzzles.answer("restart");
        let shown = puzzles.answer("solution").unwrap();
        assert!(
            shown.contains("\nAfter 14-17: Now White cannot stop the pair."),
            "{shown}"
        );
    }

    #[test]
    fn retry_and_solution_answer_in_whole_sentences() {
        let mut puzzles =
            PlainPuzzles::new(3, Judge::new(None, Limits::depth(4)), Progress::default());
        let retry = puzzles.answer("retry").unwrap();
        assert_eq!(
            retry,
            "Try again. Black to move and win. Moves so far: none."
        );
        let solution = puzzles.answer("solution").unwrap();
        let proof = &builtin()[2].proof;
        assert!(
            solution.contains(&format!(". {}", crate::text::capitalized(proof))),
            "{solution}"
        );
        assert!(
            proof.starts_with(char::is_lowercase),
            "{proof}: the case tested"
        );
    }
}
