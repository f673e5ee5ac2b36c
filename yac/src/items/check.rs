//! The tree invariant as one checker: every edit either succeeds and keeps
//! it or fails and changes nothing, and the randomized tests and the fuzz
//! target run this after every call.
//!
//! Consistent means: each container's stored child count equals the
//! number of children linked to it; each node is in at most one place
//! (linked once under one container, or unlinked: a root); the children
//! of a container are a finite chain; no container is inside itself; and
//! the links a walk relies on hold (a container's parent link names the
//! container holding it, a MAP has an even number of children); and the
//! free list holds exactly the free nodes, each once. What
//! `set_value` may change in place without knowing a leaf's container —
//! a MAP key into another type or out of order, a BLOB chunk into another
//! type or length — is no inconsistency here: the encoder refuses it.
//!
//! "At most one place" is the hard part with no memory: leaves carry no
//! parent link, and telling whether any node is reached twice among n
//! links, read-only in O(1) space, costs Θ(n²) (element distinctness). So
//! the checker marks each node it finds in a container by flipping bit 4
//! of its type field (the valid types 2..=17 become 18..=31, 0, 1, which
//! no unmarked node has), and restores every mark before it returns, on
//! every path. Cost: four passes over the pool, O(len) time, O(1) space,
//! no recursion; it writes to the pool during the call, so it needs the
//! same exclusive access as an edit.

use super::free::is_free;
use super::node::{Item, SIZE_ESC, TYPE_MASK};
use super::{Event, Items, NONE, UNLINKED};
use crate::atom::ItemType;

/// Why [`Items::check`] found the tree inconsistent: the node where it
/// noticed (`NONE` when the fault is not at one node), and what.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The node, or `NONE`.
    pub node: u32,
    /// What is wrong, in a few words, NUL-terminated (for C).
    text: &'static str,
}

impl Fault {
    /// What is wrong, in a few words.
    pub fn what(&self) -> &'static str {
        self.text.strip_suffix('\0').unwrap_or(self.text)
    }

    /// The same, NUL-terminated.
    pub fn text(&self) -> &'static str {
        self.text
    }
}

/// The mark: bit 4 of the type field.
const MARK: u32 = 0x10;
const BLOB: u32 = ItemType::Blob as u32;
const MAP: u32 = ItemType::Map as u32;

/// A fault at `node` (`usize::MAX`: none); `text` ends with a NUL.
fn fault<T>(node: usize, text: &'static str) -> Result<T, Fault> {
    let node = u32::try_from(node).unwrap_or(NONE);
    Err(Fault { node, text })
}

/// The type bits of a node, marked or not (only for nodes that passed the
/// first pass, which are never 0, 1 or above 17 unmarked).
fn is_marked(item: &Item) -> bool {
    let t = item.meta & TYPE_MASK;
    t <= 1 || t >= 18
}

fn real_type(item: &Item) -> u32 {
    let t = item.meta & TYPE_MASK;
    if is_marked(item) {
        t ^ MARK
    } else {
        t
    }
}

fn is_container(t: u32) -> bool {
    matches!(t, 8..=10)
}

/// Whether `j` is a BLOB's extension slot: the node right after a BLOB
/// (marked or not: 10 or 26, which no other marked type gives).
fn is_ext(nodes: &[Item], j: usize) -> bool {
    j.checked_sub(1)
        .and_then(|p| nodes.get(p))
        .is_some_and(|p| (p.meta & TYPE_MASK) & !MARK == BLOB)
}

/// A link that must name a node in `0..n` or be `NONE`.
fn link_ok(link: u32, n: usize) -> bool {
    link == NONE || (link as usize) < n
}

impl<'a> Items<'a, &mut [Item]> {
    /// Checks that the trees in the pool are consistent (see the module
    /// documentation of `check.rs`: counts, at most one place per node, no
    /// cycle, parent links). During an unfinished parse the nodes of the
    /// unfinished document are not checked (their links are the parser's
    /// until it ends), the rest is. O(len) time, no memory, no recursion;
    /// marks nodes while it runs and restores them before it returns.
    pub fn check(&mut self) -> Result<(), Fault> {
        if self.len > self.cap() || (self.state.active != 0 && self.state.start > self.len) {
            return fault(usize::MAX, "pool length or parse state out of range\0");
        }
        let n = self.visible_len() as usize;
        let (roots, linked) = self.check_nodes(n)?;
        self.check_free_list(n)?;
        let marked = self.mark_chains(n);
        let orphan = self.unmark(n);
        let marked = marked?;
        if marked != linked {
            return fault(orphan, "a linked node is in no container\0");
        }
        let mut reached = 0usize;
        for r in 0..n {
            let nodes = self.nodes();
            if is_ext(nodes, r) || !matches!(nodes.get(r), Some(x) if x.next == UNLINKED) {
                continue;
            }
            for ev in self.walk(r as u32) {
                match ev {
                    Ok((Event::Leaf(_) | Event::Enter(_), _)) => reached += 1,
                    Ok(_) => {}
                    Err(_) => return fault(r, "the walk from this root fails\0"),
                }
            }
        }
        if reached != roots + linked {
            return fault(usize::MAX, "containers inside each other in a cycle\0");
        }
        Ok(())
    }

    /// Pass 1, read-only: every node has a valid type and links in range,
    /// BLOBs have their extension slot. Returns (roots, linked nodes).
    fn check_nodes(&self, n: usize) -> Result<(usize, usize), Fault> {
        let nodes = self.nodes();
        let (mut roots, mut linked) = (0, 0);
        let mut i = 0;
        while let Some(it) = nodes.get(i) {
            let t = it.meta & TYPE_MASK;
            if is_free(it) {
                i += 1;
                continue;
            }
            if !(2..=17).contains(&t) {
                return fault(i, "not a node (bad type)\0");
            }
            if it.next == UNLINKED {
                roots += 1;
            } else if link_ok(it.next, n) {
                linked += 1;
            } else {
                return fault(i, "next link out of range\0");
            }
            if is_container(t) {
                let l = it.links();
                if !link_ok(l.first, n) || !link_ok(l.parent, n) {
                    return fault(i, "child or parent link out of range\0");
                }
                if it.next == UNLINKED && l.parent != NONE {
                    return fault(i, "unlinked container with a parent\0");
                }
            }
            if t == BLOB {
                if !matches!(nodes.get(i + 1), Some(x) if x.meta == 0) {
                    return fault(i, "BLOB without its extension slot\0");
                }
                i += 1;
            }
            i += 1;
        }
        Ok((roots, linked))
    }

    /// The free list: a chain of free nodes that ends, and holds every
    /// free node of the pool.
    fn check_free_list(&self, n: usize) -> Result<(), Fault> {
        let nodes = self.nodes();
        let free = nodes.iter().filter(|x| is_free(x)).count();
        if self.free.len as usize != free {
            return fault(usize::MAX, "free list length differs from the free nodes\0");
        }
        let mut at = self.free.head;
        for _ in 0..free {
            match nodes.get(at as usize) {
                Some(x) if is_free(x) => at = x.next,
                _ => return fault(at as usize, "free list names a node not free\0"),
            }
        }
        if at != NONE || (free == 0 && self.free.head != NONE) || !link_ok(at, n) {
            return fault(at as usize, "free list does not end after its free nodes\0");
        }
        Ok(())
    }

    /// Pass 2: walks the children of every container, marking each; a
    /// node met marked is in two places (or its chain loops). Checks the
    /// stored counts. Returns the number of nodes marked. Leaves marks
    /// behind, also on error: [`Self::unmark`] must follow.
    fn mark_chains(&mut self, n: usize) -> Result<usize, Fault> {
        let nodes = self.nodes.get_mut(..n).unwrap_or_default();
        let mut marked = 0usize;
        for c in 0..n {
            let Some(&it) = nodes.get(c) else { break };
            let t = real_type(&it);
            if is_ext(nodes, c) || !is_container(t) {
                continue;
            }
            let mut count = 0usize;
            let mut x = it.links().first;
            while x != NONE {
                let xi = x as usize;
                if is_ext(nodes, xi) {
                    return fault(xi, "a BLOB's extension slot in a container\0");
                }
                let Some(node) = nodes.get_mut(xi) else {
                    return fault(xi, "link out of range\0");
                };
                if is_marked(node) {
                    return fault(xi, "in two places, or its siblings loop\0");
                }
                if node.next == UNLINKED {
                    return fault(xi, "unlinked node in a container\0");
                }
                let xt = real_type(node);
                if is_container(xt) && node.links().parent as usize != c {
                    return fault(xi, "parent link names another container\0");
                }
                node.meta ^= MARK;
                marked += 1;
                count += 1;
                x = node.next;
            }
            let size = it.size();
            if size != SIZE_ESC && size as usize != count {
                return fault(c, "stored count differs from the linked children\0");
            }
            if t == MAP && count % 2 != 0 {
                return fault(c, "MAP with a key and no value\0");
            }
        }
        Ok(marked)
    }

    /// Pass 3: removes every mark. Returns the first linked node that was
    /// not marked (in no container), `usize::MAX` if none.
    fn unmark(&mut self, n: usize) -> usize {
        let nodes = self.nodes.get_mut(..n).unwrap_or_default();
        let mut orphan = usize::MAX;
        for j in 0..n {
            if is_ext(nodes, j) {
                continue;
            }
            let Some(node) = nodes.get_mut(j) else { break };
            if is_free(node) {
                continue;
            }
            if is_marked(node) {
                node.meta ^= MARK;
            } else if node.next != UNLINKED && orphan == usize::MAX {
                orphan = j;
            }
        }
        orphan
    }
}
