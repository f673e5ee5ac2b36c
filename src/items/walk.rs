//! Iterating over a subtree in document order with constant memory: the
//! walk follows `first`, `next` and the containers' `parent` links, and
//! bounds its steps by the pool size so that even a corrupted pool (a C
//! caller writing nodes by hand) cannot make it loop forever.

use super::node::NONE;
use super::{Items, UNLINKED};
use crate::error::Error;

/// One step of a walk.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// A node that is not a container.
    Leaf(u32),
    /// A LIST, MAP or BLOB, before its children.
    Enter(u32),
    /// The same container, after its children.
    Exit(u32),
}

/// What the walk does next.
#[derive(Clone, Copy)]
enum Pending {
    Visit(u32),
    Exit(u32),
    Done,
}

/// Iterator over the events of a subtree; see [`Items::walk`].
pub struct Walk<'t, 'p, 'a> {
    items: &'t Items<'p, 'a>,
    root: u32,
    pending: Pending,
    /// Container holding the node to visit (meaningless at the root).
    cur: u32,
    depth: u32,
    steps_left: usize,
}

impl<'p, 'a> Items<'p, 'a> {
    /// Walks the subtree at `root` in document order (MAP keys before
    /// their values). Yields `Err(Invalid)` once and stops if the links
    /// are broken.
    pub fn walk(&self, root: u32) -> Walk<'_, 'p, 'a> {
        Walk {
            items: self,
            root,
            pending: Pending::Visit(root),
            cur: NONE,
            depth: 0,
            // Each node is entered and left at most once in a sound tree.
            steps_left: 2 * self.len() + 2,
        }
    }
}

impl Walk<'_, '_, '_> {
    /// After `n`: its next sibling, or the exit of its container.
    fn advance(&mut self, n: u32) -> Result<Pending, Error> {
        if n == self.root {
            return Ok(Pending::Done);
        }
        let next = self.items.node(n)?.next;
        if next < UNLINKED {
            return Ok(Pending::Visit(next));
        }
        if self.cur == NONE {
            return Err(Error::Invalid);
        }
        Ok(Pending::Exit(self.cur))
    }

    fn step(&mut self) -> Result<Option<(Event, u32)>, Error> {
        let (event, pending) = match self.pending {
            Pending::Done => return Ok(None),
            Pending::Visit(n) => {
                let node = self.items.node(n)?;
                let depth = self.depth;
                if node.is_container() {
                    self.depth += 1;
                    let first = node.links().first;
                    if first == NONE {
                        ((Event::Enter(n), depth), Pending::Exit(n))
                    } else {
                        self.cur = n;
                        ((Event::Enter(n), depth), Pending::Visit(first))
                    }
                } else {
                    ((Event::Leaf(n), depth), self.advance(n)?)
                }
            }
            Pending::Exit(c) => {
                self.depth = self.depth.saturating_sub(1);
                self.cur = self.items.node(c)?.links().parent;
                ((Event::Exit(c), self.depth), self.advance(c)?)
            }
        };
        self.pending = pending;
        Ok(Some(event))
    }
}

impl Iterator for Walk<'_, '_, '_> {
    /// An event and the nesting depth of its node (the root is at 0).
    type Item = Result<(Event, u32), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if matches!(self.pending, Pending::Done) {
            return None;
        }
        if self.steps_left == 0 {
            self.pending = Pending::Done;
            return Some(Err(Error::Invalid));
        }
        self.steps_left -= 1;
        match self.step() {
            Ok(e) => e.map(Ok),
            Err(e) => {
                self.pending = Pending::Done;
                Some(Err(e))
            }
        }
    }
}
