//! A move tree: a start position and the moves played from it, with variations. The
//! analysis board keeps its moves in one; PDN variations are read into it and written
//! from it (see `pdn::reader` and `pdn::writer`).
//!
//! The tree owns its nodes in one list, each naming its parent and its children; a
//! node's first child is its main line, the others are variations (alternatives to
//! that first child). One node is the current one: the position shown.

mod edits;

use crate::rules::{Color, Move, Position};
pub(crate) use edits::{Edit, Edits};
use std::time::Duration;

/// A node of a [`MoveTree`], by its place in the tree's list.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct NodeId(usize);

/// The root of every tree: the start position, before any move.
pub(crate) const ROOT: NodeId = NodeId(0);

/// The most nodes one tree holds: a bound on what a record's variations cost.
pub(crate) const MAX_NODES: usize = 200_000;

/// The longest comment kept on a move (a longer one is cut).
pub(crate) const MAX_COMMENT_CHARS: usize = 2_000;

/// One position of the tree and the move that led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Node {
    /// The node before it (`None` for the root).
    parent: Option<NodeId>,
    /// The move from the parent's position (`None` for the root).
    played: Option<Move>,
    /// The position after the move.
    position: Position,
    /// Moves from here: the first is the main line, the rest variations.
    children: Vec<NodeId>,
    /// Moves from the start to here.
    ply: usize,
    /// A comment after the move (before the first move, for the root).
    comment: Option<String>,
    /// The mover's clock reading after the move, where the record gave one (PDN
    /// writes it in the move's comment, `{[%clk 0:04:31] good move}`).
    clock: Option<Duration>,
    /// False once deleted: its slot is kept so other nodes' ids stay valid.
    alive: bool,
}

/// The moves played from a start position, with variations, and the one shown.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MoveTree {
    /// Every node ever made, the root first; deleted ones are marked dead.
    nodes: Vec<Node>,
    /// The node shown.
    current: NodeId,
}

/// What a tree's text is made of, in order: for writing PDN and for the move list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// A move: the node it leads to, its number as written before it (`12.`, `12...`,
    /// or none, when the number of the move before covers it) and its notation.
    Move {
        /// The node the move leads to.
        node: NodeId,
        /// `Some("12.")` before Black's move, `Some("12...")` before White's where
        /// something came between; `None` for White's reply after Black's move.
        number: Option<String>,
        /// The move in notation (`11-15`, `22x15`), as PDN writes it.
        text: String,
        /// The move with every landing square (`24x15x6`), as the move list shows it.
        route: String,
    },
    /// A variation opens (`(`).
    Open,
    /// A variation closes (`)`).
    Close,
    /// A comment (without braces).
    Comment(String),
}

impl MoveTree {
    /// A tree with no moves from `start`.
    pub(crate) fn new(start: Position) -> MoveTree {
        MoveTree {
            nodes: vec![Node {
                parent: None,
                played: None,
                position: start,
                children: Vec::new(),
                ply: 0,
                comment: None,
                clock: None,
                alive: true,
            }],
            current: ROOT,
        }
    }

    /// A tree whose main line is `moves` from `start` (each legal in turn), shown at
    /// its end.
    pub(crate) fn from_moves(start: Position, moves: &[Move]) -> MoveTree {
        let mut tree = MoveTree::new(start);
        for m in moves {
            tree.play(*m);
        }
        tree
    }

    fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id.0]
    }

    /// The start position.
    pub(crate) fn start(&self) -> &Position {
        &self.node(ROOT).position
    }

    /// The node shown.
    pub(crate) fn current(&self) -> NodeId {
        self.current
    }

    /// The position shown.
    pub(crate) fn position(&self) -> &Position {
        &self.node(self.current).position
    }

    /// The move that led to the position shown (none at the start).
    pub(crate) fn last_move(&self) -> Option<Move> {
        self.node(self.current).played
    }

    /// Moves from the start to the position shown.
    pub(crate) fn ply(&self) -> usize {
        self.node(self.current).ply
    }

    /// Shows `node` (a live node of this tree).
    pub(crate) fn go_to(&mut self, node: NodeId) {
        if self.nodes.get(node.0).is_some_and(|n| n.alive) {
            self.current = node;
        }
    }

    /// Plays `m` from the position shown (a legal move there): the existing move if it
    /// was played before, else a new one (a variation when the position already has a
    /// move). Returns false when the tree is full and nothing was played.
    pub(crate) fn play(&mut self, m: Move) -> bool {
        let here = self.current;
        if let Some(&child) = self
            .node(here)
            .children
            .iter()
            .find(|c| self.node(**c).played == Some(m))
        {
            self.current = child;
            return true;
        }
        self.branch(m)
    }

    /// Plays `m` from the position shown (a legal move there) as a new move, even where
    /// the same move was played before: a record's variation that begins with the move
    /// it stands beside is a line of its own. Returns false when the tree is full.
    pub(crate) fn branch(&mut self, m: Move) -> bool {
        let here = self.current;
        if self.nodes.len() >= MAX_NODES {
            return false;
        }
        let id = NodeId(self.nodes.len());
        let parent = self.node(here);
        let node = Node {
            parent: Some(here),
            played: Some(m),
            position: parent.position.play_unchecked(&m),
            children: Vec::new(),
            ply: parent.ply + 1,
            comment: None,
            clock: None,
            alive: true,
        };
        self.nodes.push(node);
        self.nodes[here.0].children.push(id);
        self.current = id;
        true
    }

    /// Plays `m` as [`play`](Self::play) does, and makes it the main line from the
    /// position it was played in (a record's main line, read after its variations).
    pub(crate) fn play_main(&mut self, m: Move) -> bool {
        if !self.play(m) {
            return false;
        }
        let node = self.current;
        if let Some(parent) = self.node(node).parent {
            let children = &mut self.nodes[parent.0].children;
            children.retain(|c| *c != node);
            children.insert(0, node);
        }
        true
    }

    /// One move back; false at the start.
    pub(crate) fn back(&mut self) -> bool {
        match self.node(self.current).parent {
            Some(parent) => {
                self.current = parent;
                true
            }
            None => false,
        }
    }

    /// One move on along the line shown (the main line of the node shown); false at
    /// its end.
    pub(crate) fn forward(&mut self) -> bool {
        match self.node(self.current).children.first() {
            Some(&child) => {
                self.current = child;
                true
            }
            None => false,
        }
    }

    /// Back to the start position.
    pub(crate) fn go_to_start(&mut self) {
        self.current = ROOT;
    }

    /// On to the end of the line shown.
    pub(crate) fn go_to_end(&mut self) {
        while self.forward() {}
    }

    /// The other moves played from the position before the one shown (the move shown
    /// among them): the next (or, `back`, the previous) is shown, round in a ring.
    /// Returns its place and how many there are, or `None` when there is no other.
    pub(crate) fn switch_variation(&mut self, back: bool) -> Option<(usize, usize)> {
        let parent = self.node(self.current).parent?;
        let siblings = &self.node(parent).children;
        let count = siblings.len();
        if count < 2 {
            return None;
        }
        let here = siblings.iter().position(|c| *c == self.current)?;
        let next = if back {
            (here + count - 1) % count
        } else {
            (here + 1) % count
        };
        self.current = siblings[next];
        Some((next, count))
    }

    /// The variation the node shown is on: its first move, the nearest node from the
    /// shown one back that is not its parent's main line. `None` on the main line.
    fn variation_start(&self) -> Option<NodeId> {
        let mut node = self.current;
        while let Some(parent) = self.node(node).parent {
            if self.node(parent).children.first() != Some(&node) {
                return Some(node);
            }
            node = parent;
        }
        None
    }

    /// Makes the variation the node shown is on the main line at its branch point (the
    /// line it branched from becomes its first variation). False on the main line.
    pub(crate) fn promote(&mut self) -> bool {
        let Some(start) = self.variation_start() else {
            return false;
        };
        let Some(parent) = self.node(start).parent else {
            return false;
        };
        let children = &mut self.nodes[parent.0].children;
        if let Some(i) = children.iter().position(|c| *c == start) {
            let moved = children.remove(i);
            children.insert(0, moved);
        }
        true
    }

    /// Deletes the variation the node shown is on, with everything played from it; the
    /// position it branched from is shown. Returns how many moves went, or `None` on
    /// the main line (nothing is deleted).
    pub(crate) fn delete_variation(&mut self) -> Option<usize> {
        let start = self.variation_start()?;
        let parent = self.node(start).parent?;
        self.nodes[parent.0].children.retain(|c| *c != start);
        let mut gone = 0;
        let mut stack = vec![start];
        // The deleted moves keep their links, so that an undo brings them back whole.
        while let Some(id) = stack.pop() {
            let node = &mut self.nodes[id.0];
            node.alive = false;
            gone += 1;
            stack.extend(node.children.iter().copied());
        }
        self.current = parent;
        Some(gone)
    }

    /// Whether the move to the node shown is a variation where it was played: not
    /// the first move played from the position before it.
    pub(crate) fn is_variation_move(&self) -> bool {
        self.node(self.current)
            .parent
            .is_some_and(|p| self.node(p).children.first() != Some(&self.current))
    }

    /// Whether the node shown is on the main line.
    pub(crate) fn on_main_line(&self) -> bool {
        self.variation_start().is_none()
    }

    /// The positions from the start to the one shown, the start first, the shown one
    /// left out: the game history a search of the shown position needs.
    pub(crate) fn history(&self) -> Vec<Position> {
        let mut positions = Vec::with_capacity(self.ply());
        let mut node = self.node(self.current).parent;
        while let Some(id) = node {
            positions.push(self.node(id).position);
            node = self.node(id).parent;
        }
        positions.reverse();
        positions
    }

    /// The moves from the start to the position shown.
    pub(crate) fn moves_to_current(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(self.ply());
        let mut node = self.current;
        while let Some(m) = self.node(node).played {
            moves.push(m);
            node = self.node(node).parent.unwrap_or(ROOT);
        }
        moves.reverse();
        moves
    }

    /// The main line's moves, from the start to its end.
    pub(crate) fn main_line(&self) -> Vec<Move> {
        let mut moves = Vec::new();
        let mut node = ROOT;
        while let Some(&child) = self.node(node).children.first() {
            moves.extend(self.node(child).played);
            node = child;
        }
        moves
    }

    /// How many moves the tree holds, variations included.
    pub(crate) fn len(&self) -> usize {
        self.nodes.iter().filter(|n| n.alive).count() - 1
    }

    /// Deletes every move played from the position shown (a record that stops here
    /// has no main line after it to write).
    pub(crate) fn cut_after_current(&mut self) {
        let mut stack = std::mem::take(&mut self.nodes[self.current.0].children);
        while let Some(id) = stack.pop() {
            let node = &mut self.nodes[id.0];
            node.alive = false;
            stack.extend(node.children.iter().copied());
        }
    }

    /// Makes the moves played from the position shown a variation beside the move
    /// shown: that move again, as the variation's first move, with everything played
    /// after it. A record that stops here then still shows where the file went on, as
    /// PDN shows a line (`10. 22-18 (10. 22-18 15x22 ...)`). False at the start or with
    /// nothing played from here (nothing changes).
    pub(crate) fn continuation_as_variation(&mut self) -> bool {
        let here = self.current;
        let Some(m) = self.node(here).played else {
            return false;
        };
        let Some(parent) = self.node(here).parent else {
            return false;
        };
        if self.node(here).children.is_empty() {
            return false;
        }
        self.current = parent;
        if !self.branch(m) {
            self.current = here;
            return false;
        }
        let twin = self.current;
        // The same move as played in the record: its clock reading too.
        self.nodes[twin.0].clock = self.node(here).clock;
        let children = std::mem::take(&mut self.nodes[here.0].children);
        for child in &children {
            self.nodes[child.0].parent = Some(twin);
        }
        self.nodes[twin.0].children = children;
        self.current = here;
        true
    }

    /// Whether the tree holds more than its main line's moves: a comment or a
    /// variation.
    pub(crate) fn has_notes(&self) -> bool {
        self.nodes
            .iter()
            .any(|n| n.alive && (n.comment.is_some() || n.children.len() > 1))
    }

    /// The comment after the move to `node` (before the first move, for the root).
    pub(crate) fn comment(&self, node: NodeId) -> Option<&str> {
        self.node(node).comment.as_deref()
    }

    /// Adds `text` to the comment of `node` (cut to [`MAX_COMMENT_CHARS`]; a `}`
    /// would end it in PDN, so it becomes `)`).
    pub(crate) fn add_comment(&mut self, node: NodeId, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        let slot = &mut self.nodes[node.0].comment;
        let mut whole = slot.take().map(|c| c + " ").unwrap_or_default();
        whole.push_str(&text.replace('}', ")"));
        *slot = Some(whole.chars().take(MAX_COMMENT_CHARS).collect());
    }

    /// Puts `text` as the comment of `node` in place of any there (blank: none; cut and
    /// its `}` changed as [`add_comment`](Self::add_comment) does).
    pub(crate) fn set_comment(&mut self, node: NodeId, text: &str) {
        self.nodes[node.0].comment = None;
        self.add_comment(node, text);
    }

    /// The mover's clock reading after the move to `node`, if the tree has one.
    pub(crate) fn clock(&self, node: NodeId) -> Option<Duration> {
        self.node(node).clock
    }

    /// Puts `reading` as the clock reading after the move to `node` (none: no reading).
    pub(crate) fn set_clock(&mut self, node: NodeId, reading: Option<Duration>) {
        self.nodes[node.0].clock = reading;
    }

    /// Gives the main line's moves the clock readings of a record whose moves are
    /// `moves` (`clocks[i]` is the reading after `moves[i]`), as far as the main line
    /// is those moves, where a move has no reading of its own.
    pub(crate) fn add_main_line_clocks(&mut self, moves: &[Move], clocks: &[Option<Duration>]) {
        let mut node = ROOT;
        for (m, reading) in moves.iter().zip(clocks) {
            let Some(&child) = self.node(node).children.first() else {
                return;
            };
            if self.node(child).played != Some(*m) {
                return;
            }
            if self.node(child).clock.is_none() {
                self.nodes[child.0].clock = *reading;
            }
            node = child;
        }
    }

    /// The tree as text pieces, as PDN writes it: the main line, each variation in
    /// parentheses after the main-line move it is an alternative to, nested as deep as
    /// it goes; move numbers where PDN puts them.
    pub(crate) fn pieces(&self) -> Vec<Piece> {
        let mut out = Vec::new();
        if let Some(comment) = self.comment(ROOT) {
            out.push(Piece::Comment(comment.to_string()));
        }
        if let Some(&first) = self.node(ROOT).children.first() {
            self.line_pieces(first, true, &mut out);
        }
        out
    }

    /// Writes the line starting at `first` (its siblings after it, as variations) and
    /// on along the main line; `numbered` when its first move needs its number.
    fn line_pieces(&self, first: NodeId, numbered: bool, out: &mut Vec<Piece>) {
        let mut node = first;
        let mut numbered = numbered;
        loop {
            let n = self.node(node);
            let Some(m) = n.played else { return };
            let parent = n.parent.unwrap_or(ROOT);
            let before = &self.node(parent).position;
            let (number, color) = super::move_number(self.start(), n.ply - 1);
            let number = match color {
                Color::Black => Some(format!("{number}.")),
                Color::White if numbered && n.ply == 1 => Some(format!("{number}. ...")),
                Color::White if numbered => Some(format!("{number}...")),
                Color::White => None,
            };
            out.push(Piece::Move {
                node,
                number,
                text: before.notation(&m),
                route: m.to_string(),
            });
            numbered = false;
            if let Some(comment) = &n.comment {
                out.push(Piece::Comment(comment.clone()));
                numbered = true;
            }
            // The alternatives to this move, each a variation.
            let siblings = &self.node(parent).children;
            if siblings.first() == Some(&node) {
                for &other in &siblings[1..] {
                    out.push(Piece::Open);
                    self.line_pieces(other, true, out);
                    out.push(Piece::Close);
                    numbered = true;
                }
            }
            match n.children.first() {
                Some(&child) => node = child,
                None => return,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    fn play(tree: &mut MoveTree, text: &str) {
        for word in text.split_whitespace() {
            let m = tree.position().parse_move(word).expect("a legal move");
            assert!(tree.play(m));
        }
    }

    fn text(tree: &MoveTree) -> String {
        let mut words = Vec::new();
        for piece in tree.pieces() {
            match piece {
                Piece::Move { number, text, .. } => {
                    words.extend(number);
                    words.push(text);
                }
                Piece::Open => words.push("(".into()),
                Piece::Close => words.push(")".into()),
                Piece::Comment(c) => words.push(format!("{{{c}}}")),
            }
        }
        words.join(" ")
    }

    #[test]
    fn a_move_from_an_earlier_position_makes_a_variation_and_steps_follow_the_main_line() {
        let mut tree = MoveTree::new(Position::start());
        play(&mut tree, "11-15 23-19 8-11");
        tree.back();
        tree.back();
        play(&mut tree, "22-18 15x22");
        assert_eq!(
            text(&tree),
            "1. 11-15 23-19 ( 1... 22-18 2. 15x22 ) 2. 8-11"
        );
        // Playing a move that was played before goes there, making nothing new.
        tree.go_to_start();
        play(&mut tree, "11-15 22-18");
        assert_eq!(tree.len(), 5);
        assert!(!tree.on_main_line());
        tree.go_to_start();
        tree.go_to_end();
        assert_eq!(tree.moves_to_current(), tree.main_line());
        assert_eq!(tree.ply(), 3);
        tree.back();
        assert_eq!(tree.switch_variation(false), Some((1, 2)));
        assert_eq!(tree.position().to_string(), {
            let mut p = Position::start();
            for w in ["11-15", "22-18"] {
                p = p.play_unchecked(&p.parse_move(w).unwrap());
            }
            p.to_string()
        });
        assert_eq!(tree.history().len(), 2);
    }

    #[test]
    fn promote_makes_the_variation_the_main_line_and_delete_removes_it() {
        let mut tree = MoveTree::new(Position::start());
        play(&mut tree, "11-15 23-19 8-11");
        tree.go_to_start();
        play(&mut tree, "9-13 22-18");
        assert!(tree.promote());
        assert_eq!(text(&tree), "1. 9-13 ( 1. 11-15 23-19 2. 8-11 ) 1... 22-18");
        assert_eq!(tree.main_line().len(), 2);
        // On the main line now: nothing more to promote, nothing to delete.
        assert!(!tree.promote());
        assert_eq!(tree.delete_variation(), None);
        tree.go_to_start();
        tree.switch_variation(false);
        tree.forward();
        tree.forward();
        assert_eq!(tree.switch_variation(false), None);
        tree.go_to_start();
        tree.forward();
        tree.switch_variation(false);
        tree.forward();
        assert_eq!(tree.delete_variation(), Some(3));
        assert_eq!(tree.current(), ROOT);
        assert_eq!(text(&tree), "1. 9-13 22-18");
        assert_eq!(tree.len(), 2);
    }
}
