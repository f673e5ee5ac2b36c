//! Reclaiming nodes: a free list that node making reuses.
//!
//! An edit never frees a node it unlinks: the node (with its subtree) is
//! handed back to the caller, who may insert it elsewhere. Only the caller
//! knows when it is garbage, and says so with [`Items::free`]: the node and
//! its whole subtree go onto a free list, linked through their `next`
//! words, and the next nodes made by [`Items::add`] (and every adder and
//! MAP put built on it) take them back one by one before the pool grows.
//! The parser always appends (a document's nodes must be consecutive for
//! its rollback), and so does a BLOB (its extension slot follows it).
//!
//! So a tree that is edited in a loop needs, if each removed subtree is
//! freed, no more nodes than its largest size plus what its parses take;
//! without [`Items::free`], the pool's use only grows, by one node per
//! node made.

use super::node::{Item, ItemValue, NONE, TYPE_MASK};
use super::{Items, UNLINKED};
use crate::atom::ItemType;
use crate::error::Error;

/// The meta word of a free node: type 0 (no node type), size bits all
/// set, which no node in use has (a BLOB's extension slot has meta 0).
pub const FREE_META: u32 = !TYPE_MASK;

/// The free list: its first node and its length. Plain words (the C layer
/// keeps them in reserved words of `struct YACItems`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FreeList {
    /// The first free node, `NONE` when the list is empty.
    pub head: u32,
    /// Free nodes on the list.
    pub len: u32,
}

impl FreeList {
    /// No free node.
    pub const EMPTY: FreeList = FreeList { head: NONE, len: 0 };
    capi_internal! {
    /// How many `u32` words [`to_words`](Self::to_words) gives.
    pub const WORDS: usize = 2;
    }

    capi_internal! {
    /// The list as plain words, for storage outside Rust.
    pub const fn to_words(self) -> [u32; Self::WORDS] {
        [self.head, self.len]
    }
    }

    capi_internal! {
    /// The list stored by [`to_words`](Self::to_words).
    pub const fn from_words(w: [u32; Self::WORDS]) -> Self {
        FreeList {
            head: w[0],
            len: w[1],
        }
    }
    }
}

/// Whether `item` is a free node.
pub(super) fn is_free(item: &Item) -> bool {
    item.meta == FREE_META
}

impl<'a> Items<'a, &mut [Item]> {
    /// Frees the unlinked node `idx` and its whole subtree: their slots go
    /// onto the free list, for the next nodes made. The caller's indices
    /// of these nodes must not be used again. O(size of the subtree), no
    /// memory. Every cursor becomes stale. `Invalid` (nothing changed) for
    /// a linked node (remove it first), a node not in use, a broken
    /// subtree, and during an unfinished parse. Returns the number of
    /// nodes freed.
    pub fn free(&mut self, idx: u32) -> Result<usize, Error> {
        self.editable()?;
        let n = self.node(idx)?;
        if n.next != UNLINKED || n.item_type() == ItemType::Invalid {
            return Err(Error::Invalid);
        }
        // Checked whole first (the walk is bounded and refuses broken
        // links), so that freeing cannot stop half-way.
        for ev in self.walk(idx) {
            ev?;
        }
        self.bump_gen();
        // The nodes still to free, linked through `next` (their old
        // links are read before they are overwritten).
        let mut work = idx;
        self.node_mut(idx)?.next = NONE;
        let mut freed = 0usize;
        while work != NONE {
            let at = work;
            let node = *self.node(at)?;
            work = node.next;
            if node.is_container() {
                let mut child = node.links().first;
                while child < UNLINKED {
                    let after = self.node(child)?.next;
                    self.node_mut(child)?.next = work;
                    work = child;
                    child = after;
                }
                if node.item_type() == ItemType::Blob {
                    self.push_free(at + 1)?;
                    freed += 1;
                }
            }
            self.push_free(at)?;
            freed += 1;
        }
        Ok(freed)
    }

    fn push_free(&mut self, at: u32) -> Result<(), Error> {
        let head = self.free.head;
        *self.node_mut(at)? = Item {
            v: ItemValue { u: 0 },
            next: head,
            meta: FREE_META,
        };
        self.free = FreeList {
            head: at,
            len: self.free.len + 1,
        };
        Ok(())
    }

    /// Takes a node off the free list, if there is one.
    pub(super) fn pop_free(&mut self) -> Option<u32> {
        let at = self.free.head;
        let next = self.get(at).filter(|n| is_free(n))?.next;
        self.free = FreeList {
            head: next,
            len: self.free.len.saturating_sub(1),
        };
        Some(at)
    }
}

#[cfg(test)]
mod tests {
    use crate::error::Error;
    use crate::items::{Item, Items};

    /// A list whose second child (a LIST of a STR and a MAP) is replaced
    /// again and again in a pool that holds only three of them: freeing
    /// each old one keeps the pool's use bounded.
    #[test]
    fn an_edit_loop_runs_in_a_fixed_pool() {
        let mut pool = [Item::default(); 16];
        let mut items = Items::new(&mut pool);
        let list = items.add_list().unwrap();
        let mut end = items.cursor_end(list).unwrap();
        let one = items.add_uint(1).unwrap();
        items.cursor_insert(&mut end, one).unwrap();
        for round in 0..crate::sample::count(10_000, 100) as u64 {
            let sub = items.add_list().unwrap();
            let mut at = items.cursor_end(sub).unwrap();
            let s = items.add_str("s").unwrap();
            items.cursor_insert(&mut at, s).unwrap();
            let map = items.add_map().unwrap();
            let v = items.add_uint(round).unwrap();
            items.map_put(map, "k", v).unwrap();
            items.cursor_insert(&mut at, map).unwrap();
            let mut c = items.cursor_after(list, one).unwrap();
            let old = if round == 0 {
                items.cursor_insert(&mut c, sub).unwrap();
                continue;
            } else {
                items.cursor_replace(&mut c, sub).unwrap()
            };
            // LIST, STR, MAP, key, value.
            assert_eq!(items.free(old), Ok(5));
            assert_eq!(items.check(), Ok(()), "round {round}");
        }
        assert_eq!(items.len(), 12, "two nodes, two subtrees, no more");
    }

    #[test]
    fn refusals_change_nothing() {
        let mut pool = [Item::default(); 8];
        let mut items = Items::new(&mut pool);
        let list = items.add_list().unwrap();
        let x = items.add_nil().unwrap();
        items.prepend(list, x).unwrap();
        let (len, free) = (items.len(), items.free);
        assert_eq!(items.free(x), Err(Error::Invalid), "linked");
        assert_eq!(items.free(99), Err(Error::Invalid), "not in use");
        assert_eq!((items.len(), items.free), (len, free));
        assert_eq!(items.free(list), Ok(2));
        assert_eq!(items.free(list), Err(Error::Invalid), "freed already");
        assert_eq!(items.check(), Ok(()));
        // Single nodes come back from the free list, last freed first; a
        // BLOB takes new slots at the end.
        assert_eq!(items.add_blob(0), Ok(2));
        assert_eq!(items.add_nil(), Ok(x));
        assert_eq!(items.add_nil(), Ok(list));
        assert_eq!(items.add_nil(), Ok(4));
    }
}
