//! Iterating over a subtree in document order with constant memory: the
//! walk follows `first`, `next` and the containers' `parent` links, and
//! bounds its steps by the pool size so that even a corrupted pool (a C
//! caller writing nodes by hand) cannot make it loop forever.

use super::node::{Item, NONE};
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

const VISIT: u32 = 0;
const EXIT: u32 = 1;
const DONE: u32 = 2;

/// Where a walk stands: plain words, so that the C layer can keep it in the
/// reserved words of `struct YACWalk` and C code can walk without recursion
/// too (see [`to_words`](Self::to_words)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkState {
    /// The subtree's root.
    pub root: u32,
    /// The node to visit or leave next.
    pub node: u32,
    /// 0: visit `node`; 1: leave container `node`; 2: done.
    pub what: u32,
    /// The container holding `node` (meaningless at the root).
    pub cur: u32,
    /// Nesting depth of `node`.
    pub depth: u32,
    /// Steps left before the walk declares the links broken.
    pub steps_left: u32,
}

impl WalkState {
    /// How many `u32` words [`to_words`](Self::to_words) gives.
    pub const WORDS: usize = 6;

    /// The state as plain words (field order), for storage outside Rust.
    pub const fn to_words(self) -> [u32; Self::WORDS] {
        let WalkState {
            root,
            node,
            what,
            cur,
            depth,
            steps_left,
        } = self;
        [root, node, what, cur, depth, steps_left]
    }

    /// The state stored by [`to_words`](Self::to_words).
    pub const fn from_words(w: [u32; Self::WORDS]) -> Self {
        let [root, node, what, cur, depth, steps_left] = w;
        WalkState {
            root,
            node,
            what,
            cur,
            depth,
            steps_left,
        }
    }

    /// A walk of the subtree at `root` in a pool of `pool_len` nodes.
    pub fn new(root: u32, pool_len: usize) -> Self {
        // Each node is entered and left at most once in a sound tree.
        let steps = pool_len
            .saturating_mul(2)
            .saturating_add(2)
            .min(u32::MAX as usize) as u32;
        WalkState {
            root,
            node: root,
            what: VISIT,
            cur: NONE,
            depth: 0,
            steps_left: steps,
        }
    }
}

/// Iterator over the events of a subtree; see [`Items::walk`].
pub struct Walk<'t, 'a, S> {
    items: &'t Items<'a, S>,
    state: WalkState,
}

impl<'a, S: AsRef<[Item]>> Items<'a, S> {
    /// Walks the subtree at `root` in document order (MAP keys before
    /// their values), yielding each event with the nesting depth of its
    /// node (the root is at 0). Yields `Err(Invalid)` once and stops if
    /// the links are broken.
    pub fn walk(&self, root: u32) -> Walk<'_, 'a, S> {
        Walk {
            items: self,
            state: WalkState::new(root, self.len()),
        }
    }

    /// One step of a walk: the next event, or `None` at the end.
    pub fn walk_step(&self, st: &mut WalkState) -> Result<Option<(Event, u32)>, Error> {
        if st.what == DONE {
            return Ok(None);
        }
        if st.steps_left == 0 {
            st.what = DONE;
            return Err(Error::Invalid);
        }
        st.steps_left -= 1;
        let step = self.walk_event(st);
        if step.is_err() {
            st.what = DONE;
        }
        step.map(Some)
    }

    fn walk_event(&self, st: &mut WalkState) -> Result<(Event, u32), Error> {
        let n = st.node;
        let depth = st.depth;
        if st.what == EXIT {
            st.depth = st.depth.saturating_sub(1);
            st.cur = self.node(n)?.links().parent;
            self.advance(st, n)?;
            return Ok((Event::Exit(n), st.depth));
        }
        let node = self.node(n)?;
        if !node.is_container() {
            self.advance(st, n)?;
            return Ok((Event::Leaf(n), depth));
        }
        // Leaving a container goes to its parent link, so that link must
        // name the container the walk found it in; edits given a `prev`
        // from another container could break this (see `insert_after`).
        if n != st.root && node.links().parent != st.cur {
            return Err(Error::Invalid);
        }
        st.depth += 1;
        let first = node.links().first;
        if first == NONE {
            st.what = EXIT;
        } else {
            st.cur = n;
            st.node = first;
        }
        Ok((Event::Enter(n), depth))
    }

    /// After `n`: its next sibling, or leaving its container.
    fn advance(&self, st: &mut WalkState, n: u32) -> Result<(), Error> {
        if n == st.root {
            st.what = DONE;
            return Ok(());
        }
        let next = self.node(n)?.next;
        if next < UNLINKED {
            (st.node, st.what) = (next, VISIT);
        } else if st.cur != NONE {
            (st.node, st.what) = (st.cur, EXIT);
        } else {
            return Err(Error::Invalid);
        }
        Ok(())
    }
}

impl<S: AsRef<[Item]>> Iterator for Walk<'_, '_, S> {
    /// An event and the nesting depth of its node (the root is at 0).
    type Item = Result<(Event, u32), Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.items.walk_step(&mut self.state).transpose()
    }
}
