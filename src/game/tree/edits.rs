//! Changes to a [`MoveTree`] that can be taken back and made again: a move entered, a
//! variation promoted or deleted, a comment changed. The analysis board keeps them in
//! an [`Edits`] list for its undo and redo.
//!
//! Every change is undone exactly, in the reverse order of making: nodes keep their
//! ids (a node taken back is only marked dead, so a redo revives it where it was).

use super::{MoveTree, NodeId};
use crate::rules::Move;

/// The most changes kept for undo; older ones can no longer be taken back.
const MAX_EDITS: usize = 10_000;

/// One change to a tree, with what undoing it needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Edit {
    /// A move entered at `from`, leading to `to`; `made` when it was new there (its
    /// node made for it), else the tree only went on to a move played before.
    Played {
        /// The node the move was entered at.
        from: NodeId,
        /// The node it leads to.
        to: NodeId,
        /// Whether the move's node was made for it.
        made: bool,
    },
    /// The variation that begins with `start` became the main line at its branch
    /// point, where it had been move `index` of its position's moves.
    Promoted {
        /// The variation's first move.
        start: NodeId,
        /// Its place among its position's moves before.
        index: usize,
        /// The node shown when it was promoted.
        shown: NodeId,
    },
    /// The variation that begins with `start`, move `index` of its position's moves,
    /// was deleted with every move after it.
    Deleted {
        /// The variation's first move.
        start: NodeId,
        /// Its place among its position's moves.
        index: usize,
        /// The node shown when it was deleted.
        shown: NodeId,
    },
    /// The comment on `node` changed from `before` to `after`.
    Commented {
        /// The node whose comment changed.
        node: NodeId,
        /// The comment before.
        before: Option<String>,
        /// The comment after.
        after: Option<String>,
    },
}

impl MoveTree {
    /// Enters `m` (legal in the position shown) as [`play`](Self::play) does, and
    /// returns the change made; `None` when the tree is full.
    pub(crate) fn enter(&mut self, m: Move) -> Option<Edit> {
        let from = self.current;
        let known = self.nodes.len();
        if !self.play(m) {
            return None;
        }
        Some(Edit::Played {
            from,
            to: self.current,
            made: self.nodes.len() > known,
        })
    }

    /// Promotes the variation shown as [`promote`](Self::promote) does, and returns
    /// the change made; `None` on the main line.
    pub(crate) fn promote_edit(&mut self) -> Option<Edit> {
        let shown = self.current;
        let start = self.variation_start()?;
        let index = self.place(start)?;
        self.promote().then_some(Edit::Promoted {
            start,
            index,
            shown,
        })
    }

    /// Deletes the variation shown as [`delete_variation`](Self::delete_variation)
    /// does, and returns the change made with how many moves went; `None` on the main
    /// line.
    pub(crate) fn delete_edit(&mut self) -> Option<(Edit, usize)> {
        let shown = self.current;
        let start = self.variation_start()?;
        let index = self.place(start)?;
        let gone = self.delete_variation()?;
        Some((
            Edit::Deleted {
                start,
                index,
                shown,
            },
            gone,
        ))
    }

    /// Sets the comment on `node` as [`set_comment`](Self::set_comment) does, and
    /// returns the change made; `None` when it is the same as before.
    pub(crate) fn comment_edit(&mut self, node: NodeId, text: &str) -> Option<Edit> {
        let before = self.comment(node).map(str::to_string);
        self.set_comment(node, text);
        let after = self.comment(node).map(str::to_string);
        (after != before).then_some(Edit::Commented {
            node,
            before,
            after,
        })
    }

    /// Takes `edit` back (the last change made, or the last not yet taken back): the
    /// tree is as it was before it, shown where the change was made.
    pub(crate) fn undo_edit(&mut self, edit: &Edit) {
        match edit {
            Edit::Played { from, to, made } => {
                if *made {
                    self.unlink(*to);
                    self.nodes[to.0].alive = false;
                }
                self.current = *from;
            }
            Edit::Promoted {
                start,
                index,
                shown,
            } => {
                self.unlink(*start);
                self.link(*start, *index);
                self.current = *shown;
            }
            Edit::Deleted {
                start,
                index,
                shown,
            } => {
                self.set_alive(*start, true);
                self.link(*start, *index);
                self.current = *shown;
            }
            Edit::Commented { node, before, .. } => {
                self.nodes[node.0].comment = before.clone();
                self.current = *node;
            }
        }
    }

    /// Makes `edit` again after [`undo_edit`](Self::undo_edit) took it back: the tree
    /// is as it was after it, shown as it was then.
    pub(crate) fn redo_edit(&mut self, edit: &Edit) {
        match edit {
            Edit::Played { to, made, .. } => {
                if *made {
                    let index = self.children_of_parent(*to).len();
                    self.nodes[to.0].alive = true;
                    self.link(*to, index);
                }
                self.current = *to;
            }
            Edit::Promoted { start, shown, .. } => {
                self.unlink(*start);
                self.link(*start, 0);
                self.current = *shown;
            }
            Edit::Deleted { start, .. } => {
                self.unlink(*start);
                self.set_alive(*start, false);
                self.current = self.nodes[start.0].parent.unwrap_or(super::ROOT);
            }
            Edit::Commented { node, after, .. } => {
                self.nodes[node.0].comment = after.clone();
                self.current = *node;
            }
        }
    }

    /// The move to `node` in notation (`11-15`, `22x15`), as PDN writes it; `None` for
    /// the root.
    pub(crate) fn move_text(&self, node: NodeId) -> Option<String> {
        let played = self.nodes.get(node.0)?.played?;
        let parent = self.nodes[node.0].parent?;
        Some(self.nodes[parent.0].position.notation(&played))
    }

    /// The place of `node` among its parent's moves.
    fn place(&self, node: NodeId) -> Option<usize> {
        self.children_of_parent(node)
            .iter()
            .position(|c| *c == node)
    }

    /// The moves from the position before `node` (none for the root).
    fn children_of_parent(&self, node: NodeId) -> &[NodeId] {
        match self.nodes[node.0].parent {
            Some(parent) => &self.nodes[parent.0].children,
            None => &[],
        }
    }

    /// Takes `node` out of its parent's moves.
    fn unlink(&mut self, node: NodeId) {
        if let Some(parent) = self.nodes[node.0].parent {
            self.nodes[parent.0].children.retain(|c| *c != node);
        }
    }

    /// Puts `node` back among its parent's moves at `index` (or last).
    fn link(&mut self, node: NodeId, index: usize) {
        if let Some(parent) = self.nodes[node.0].parent {
            let children = &mut self.nodes[parent.0].children;
            if !children.contains(&node) {
                children.insert(index.min(children.len()), node);
            }
        }
    }

    /// Marks `node` and every move after it alive or dead (a deleted variation keeps
    /// its moves' links, so that an undo brings it back whole).
    fn set_alive(&mut self, node: NodeId, alive: bool) {
        let mut stack = vec![node];
        while let Some(id) = stack.pop() {
            self.nodes[id.0].alive = alive;
            stack.extend(self.nodes[id.0].children.iter().copied());
        }
    }
}

/// The changes made to a tree, for undo, and those taken back, for redo.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Edits {
    /// The changes made, the last last.
    done: Vec<Edit>,
    /// The changes taken back, the last taken back last.
    undone: Vec<Edit>,
}

impl Edits {
    /// Keeps `edit`, a change just made: the changes taken back can no longer be made
    /// again (the tree went another way).
    pub(crate) fn made(&mut self, edit: Edit) {
        self.undone.clear();
        if self.done.len() == MAX_EDITS {
            self.done.remove(0);
        }
        self.done.push(edit);
    }

    /// Drops the changes taken back: another change (a set-up, outside the tree) was
    /// made after them, so they can no longer be made again.
    pub(crate) fn forget_undone(&mut self) {
        self.undone.clear();
    }

    /// Takes the last change back in `tree`; the change, or `None` when there is none.
    pub(crate) fn undo(&mut self, tree: &mut MoveTree) -> Option<&Edit> {
        let edit = self.done.pop()?;
        tree.undo_edit(&edit);
        self.undone.push(edit);
        self.undone.last()
    }

    /// Whether a change taken back can be made again.
    pub(crate) fn can_redo(&self) -> bool {
        !self.undone.is_empty()
    }

    /// Makes the last change taken back again in `tree`; the change, or `None` when
    /// there is none.
    pub(crate) fn redo(&mut self, tree: &mut MoveTree) -> Option<&Edit> {
        let edit = self.undone.pop()?;
        tree.redo_edit(&edit);
        self.done.push(edit);
        self.done.last()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Position;

    #[test]
    fn every_change_is_undone_and_redone_exactly() {
        let mut tree = MoveTree::new(Position::start());
        let mut edits = Edits::default();
        // The tree (its text, the node shown, its size) before and after each change.
        let look = |t: &MoveTree| (t.pieces(), t.current(), t.len());
        let mut seen = vec![look(&tree)];
        let mut change = |tree: &mut MoveTree, edits: &mut Edits, edit: Option<Edit>| {
            edits.made(edit.unwrap());
            seen.push(look(tree));
        };
        for word in ["11-15", "23-19", "8-11", "22-17"] {
            let m = tree.position().parse_move(word).unwrap();
            let edit = tree.enter(m);
            change(&mut tree, &mut edits, edit);
        }
        tree.back();
        tree.back();
        for word in ["9-14", "22-17"] {
            let m = tree.position().parse_move(word).unwrap();
            let edit = tree.enter(m);
            change(&mut tree, &mut edits, edit);
        }
        let edit = tree.promote_edit();
        change(&mut tree, &mut edits, edit);
        let edit = tree.comment_edit(tree.current(), "sharper");
        change(&mut tree, &mut edits, edit);
        // Into the old main line, now a variation, and deleted.
        tree.back();
        tree.switch_variation(false);
        let (deleted, gone) = tree.delete_edit().unwrap();
        assert_eq!(gone, 2);
        change(&mut tree, &mut edits, Some(deleted));
        assert_eq!(tree.len(), 4);
        // Back through each change: the tree as it was before it.
        let mut redone = vec![seen.pop().unwrap()];
        while let Some(before) = seen.pop() {
            edits.undo(&mut tree).unwrap();
            let (text, _, len) = look(&tree);
            assert_eq!((&text, len), (&before.0, before.2));
            redone.push(before);
        }
        assert_eq!(tree.len(), 0);
        assert_eq!(tree.current(), super::super::ROOT);
        assert_eq!(edits.undo(&mut tree), None);
        // And on again to the end, each change as it was made.
        redone.pop();
        while let Some(next) = redone.pop() {
            edits.redo(&mut tree).unwrap();
            assert_eq!(look(&tree), next);
        }
        assert_eq!(edits.redo(&mut tree), None);
        // A change after an undo drops the redo list.
        edits.undo(&mut tree).unwrap();
        let m = tree.position().parse_move("24-20").unwrap();
        edits.made(tree.enter(m).unwrap());
        assert_eq!(edits.redo(&mut tree), None);
    }

    #[test]
    fn undo_shows_where_the_change_was_made() {
        let mut tree = MoveTree::new(Position::start());
        let mut edits = Edits::default();
        for word in ["11-15", "23-19", "8-11"] {
            let m = tree.position().parse_move(word).unwrap();
            edits.made(tree.enter(m).unwrap());
        }
        tree.go_to_start();
        // The last move entered is taken back, wherever the tree is shown.
        assert!(matches!(edits.undo(&mut tree), Some(Edit::Played { .. })));
        assert_eq!(tree.main_line().len(), 2);
        assert_eq!(tree.ply(), 2, "shown where 8-11 was entered");
        // Entering a move played before changes no node: undo only goes back.
        let m = tree.position().parse_move("8-11").unwrap();
        edits.made(tree.enter(m).unwrap());
        tree.back();
        let m = tree.position().parse_move("8-11").unwrap();
        let again = tree.enter(m).unwrap();
        assert!(matches!(again, Edit::Played { made: false, .. }));
        edits.made(again);
        edits.undo(&mut tree);
        assert_eq!((tree.len(), tree.ply()), (3, 2));
    }
}
