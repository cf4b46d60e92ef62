//! A monkey at the keyboard and mouse: random events never panic, and the game always
//! holds a position reachable from its start by legal moves.

use crate::game::Game;
use crate::rules::{Move, Position, Square};
use crate::tui::App;
use crate::tui::geometry::screen_layout;
use crate::tui::tests::*;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{
    Event, KeyCode, KeyEvent, KeyEventKind, KeyEventState, KeyModifiers, MouseButton, MouseEvent,
    MouseEventKind,
};
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

/// A small deterministic generator (xorshift64*), so failures replay.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

const KEYS: &[KeyCode] = &[
    KeyCode::Esc,
    KeyCode::Esc,
    KeyCode::Up,
    KeyCode::Down,
    KeyCode::Left,
    KeyCode::Right,
    KeyCode::Enter,
    KeyCode::Esc,
    KeyCode::Backspace,
    KeyCode::Tab,
    KeyCode::Home,
    KeyCode::End,
    KeyCode::BackTab,
    KeyCode::F(1),
];

// Mostly cursor keys and Space; the keys that end or reset a game are rarer.
const CHARS: &str = "hjklhjklhjklhjklhjklhjkl                uUfnqyrbwdcy?x-:0123456789 s";

fn random_event(rng: &mut Rng, app: &App) -> Event {
    match rng.below(14) {
        // Clicks aimed at squares, so that games actually get played.
        10..=13 => {
            let Some(layout) = screen_layout(app.screen, app.board.flipped) else {
                return Event::Resize(80, 24);
            };
            // Half the time a square that matters: a landing square or a movable piece.
            let useful: Vec<Square> = if app.board.pick.is_some() {
                app.board.targets(app.position())
            } else {
                app.position()
                    .legal_moves()
                    .iter()
                    .map(|m| m.from())
                    .collect()
            };
            let square = if !useful.is_empty() && rng.below(2) == 0 {
                useful[rng.below(useful.len() as u64) as usize]
            } else {
                Square::ALL[rng.below(32) as usize]
            };
            let rect = layout.board.square_rect(square);
            Event::Mouse(MouseEvent {
                kind: MouseEventKind::Down(MouseButton::Left),
                column: rect.x + rng.below(u64::from(rect.width)) as u16,
                row: rect.y + rng.below(u64::from(rect.height)) as u16,
                modifiers: KeyModifiers::NONE,
            })
        }
        0..=3 => Event::Key(KeyEvent {
            code: KeyCode::Char(
                CHARS
                    .chars()
                    .nth(rng.below(CHARS.len() as u64) as usize)
                    .unwrap(),
            ),
            modifiers: if rng.below(40) == 0 {
                KeyModifiers::CONTROL
            } else {
                KeyModifiers::NONE
            },
            kind: if rng.below(10) == 0 {
                KeyEventKind::Release
            } else {
                KeyEventKind::Press
            },
            state: KeyEventState::NONE,
        }),
        4..=6 if rng.below(2) == 0 => Event::Key(KeyEvent::new(
            KEYS[rng.below(KEYS.len() as u64) as usize],
            KeyModifiers::NONE,
        )),
        4..=8 => Event::Mouse(MouseEvent {
            kind: if rng.below(5) == 0 {
                MouseEventKind::Up(MouseButton::Left)
            } else {
                MouseEventKind::Down(MouseButton::Left)
            },
            column: rng.below(130) as u16,
            row: rng.below(45) as u16,
            modifiers: KeyModifiers::NONE,
        }),
        _ => {
            if rng.below(20) == 0 {
                Event::Resize(rng.below(130) as u16, rng.below(45) as u16)
            } else {
                Event::Resize(80, 24)
            }
        }
    }
}

/// The moves of the game checked so far, with the positions they lead to, so that after
/// every event only the changed tail of the move list has to be replayed.
#[derive(Default)]
struct Verified {
    moves: Vec<Move>,
    /// `positions[i]` follows `moves[..i]`; empty until the first check.
    positions: Vec<Position>,
}

impl Verified {
    /// Checks that the game starts from the start position and that its current
    /// position follows from its moves, each legal where it was played.
    fn check(&mut self, game: &Game, i: usize, event: &Event) {
        assert_eq!(
            game.start(),
            &Position::start(),
            "after event {i}: {event:?}"
        );
        let shared = self
            .moves
            .iter()
            .zip(game.moves())
            .take_while(|(a, b)| a == b)
            .count();
        self.moves.truncate(shared);
        self.positions.truncate(shared + 1);
        if self.positions.is_empty() {
            self.positions.push(Position::start());
        }
        for m in &game.moves()[shared..] {
            let before = self.positions[self.positions.len() - 1];
            assert!(
                before.legal_moves().contains(m),
                "after event {i} ({event:?}): {m} is not legal in {before}"
            );
            self.moves.push(*m);
            self.positions.push(before.play_unchecked(m));
        }
        assert_eq!(
            self.positions.last(),
            Some(game.position()),
            "after event {i}: {event:?}"
        );
    }
}

#[test]
fn a_hundred_thousand_random_events() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut app: App = app();
    let mut verified = Verified::default();
    let mut moves_seen = 0usize;
    let mut plies_played = 0usize;
    for i in 0..100_000 {
        let event = random_event(&mut rng, &app);
        let before = app.game().moves().len();
        // The runtime is not polled: a save asked for is never written, and no search
        // runs.
        let flow = app.handle_event(&event);
        if app.game().moves().len() > before {
            plies_played += 1;
        }
        if flow == Some(crate::tui::Flow::Quit) {
            // Keep going with a fresh game, or a recorded one to review: quitting is a
            // normal outcome.
            app = if rng.below(2) == 0 {
                crate::tui::tests::app()
            } else {
                review_app(REVIEW_PDN)
            };
        }
        moves_seen = moves_seen.max(app.game().moves().len());
        // Cheap check every time, full replay now and then (replay is the slow part).
        assert!(app.game().positions().len() == app.game().moves().len() + 1);
        verified.check(app.game(), i, &event);
        if i % 500 == 0 {
            let area = app.screen;
            let mut buf = Buffer::empty(Rect::new(0, 0, area.width, area.height));
            (&app).render(buf.area, &mut buf);
        }
    }
    assert!(replays_legally(app.game()));
    eprintln!("longest game: {moves_seen} moves; {plies_played} moves played in all");
    assert!(
        moves_seen > 10 && plies_played > 1000,
        "the monkey should get games played"
    );
}
