//! Cursors: positions between two children of a container, made from the
//! tree itself, so that an edit there needs no check of where it is: O(1)
//! insertion, removal and replacement anywhere in a list, and O(1) append.
//!
//! Leaves carry no parent link, so an index `prev` handed to
//! [`Items::insert_after`] must be searched for among `parent`'s children
//! (O(position)). A cursor is that pair (`parent`, `prev`) as the tree gave
//! it, plus the tree's edit generation when it was made or last used: an
//! edit that unlinks a node anywhere (remove, replace, a MAP edit that
//! drops a value) or [`Items::clear`] changes the generation, and a cursor
//! from before is refused as stale (`Invalid`) instead of trusted.
//! Insertions and parses keep the generation: no position they leave
//! behind can be wrong.

use super::edit::key_bytes;
use super::node::Item;
use super::{Items, NONE, UNLINKED};
use crate::atom::ItemType;
use crate::error::Error;
use crate::grammar::{self, check_key};

/// A position among the children of a container: before its first child,
/// between two children or after the last. Made by [`Items::cursor_first`],
/// [`Items::cursor_end`] or [`Items::cursor_after`]; valid for the tree that
/// made it until that tree unlinks a node (the cursor's own edits keep it
/// valid) or is cleared. Plain words with a C layout (`struct YACCursor`).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// The container.
    pub(crate) parent: u32,
    /// The child before the position, `NONE` at the start.
    pub(crate) prev: u32,
    /// For a MAP: the last key at or before `prev` (`NONE` before the
    /// first); `NONE` for other containers.
    pub(crate) key: u32,
    /// The tree's edit generation the cursor is valid for.
    pub(crate) gen: u32,
}

impl Cursor {
    /// How many `u32` words [`to_words`](Self::to_words) gives (the C
    /// layer's `struct YACCursor`).
    pub const WORDS: usize = 4;

    /// The cursor as plain words, for storage outside Rust.
    pub const fn to_words(self) -> [u32; Self::WORDS] {
        [self.parent, self.prev, self.key, self.gen]
    }

    /// The cursor stored by [`to_words`](Self::to_words). Words from
    /// anywhere else make a cursor that is stale or, if forged, wrong.
    pub const fn from_words(w: [u32; Self::WORDS]) -> Self {
        let [parent, prev, key, gen] = w;
        Cursor {
            parent,
            prev,
            key,
            gen,
        }
    }

    /// The container the cursor is in.
    pub fn parent(&self) -> u32 {
        self.parent
    }

    /// The child before the position, `NONE` at the start.
    pub fn prev(&self) -> u32 {
        self.prev
    }
}

impl<'a, S: AsRef<[Item]>> Items<'a, S> {
    /// A cursor before the first child of container `parent`. O(1).
    pub fn cursor_first(&self, parent: u32) -> Result<Cursor, Error> {
        if !self.node(parent)?.is_container() {
            return Err(Error::Invalid);
        }
        Ok(Cursor {
            parent,
            prev: NONE,
            key: NONE,
            gen: self.state.gen,
        })
    }

    /// A cursor after the last child of container `parent`, where
    /// [`Items::cursor_insert`] (LIST, BLOB) and [`Items::map_append`]
    /// (MAP) append. O(number of children), once: each append moves the
    /// cursor past the new child.
    pub fn cursor_end(&self, parent: u32) -> Result<Cursor, Error> {
        let mut c = self.cursor_first(parent)?;
        while self.cursor_next(&mut c)?.is_some() {}
        Ok(c)
    }

    /// A cursor right after `prev`, a child of container `parent` (before
    /// the first child when `prev` is `NONE`). Checked: O(1) when `prev`
    /// is a container of a LIST or BLOB, else O(position of `prev`).
    pub fn cursor_after(&self, parent: u32, prev: u32) -> Result<Cursor, Error> {
        let mut c = self.cursor_first(parent)?;
        if prev == NONE {
            return Ok(c);
        }
        let p = self.node(prev)?;
        if self.item_type(parent) != ItemType::Map && p.is_container() {
            if p.next == UNLINKED || p.links().parent != parent {
                return Err(Error::Invalid);
            }
            c.prev = prev;
            return Ok(c);
        }
        while let Some(child) = self.cursor_next(&mut c)? {
            if child == prev {
                return Ok(c);
            }
        }
        Err(Error::Invalid)
    }

    /// Checks that `c` is valid for this tree now: same edit generation,
    /// and (cheap sanity, not the guarantee) indices that fit.
    fn cursor_check(&self, c: &Cursor) -> Result<(), Error> {
        if c.gen != self.state.gen || !self.node(c.parent)?.is_container() {
            return Err(Error::Invalid);
        }
        if c.prev != NONE {
            let p = self.node(c.prev)?;
            if p.next == UNLINKED || p.item_type() == ItemType::Invalid {
                return Err(Error::Invalid);
            }
            if p.is_container() && p.links().parent != c.parent {
                return Err(Error::Invalid);
            }
        }
        Ok(())
    }

    /// The child right after the cursor (the one
    /// [`Items::cursor_remove`]/[`Items::cursor_replace`] act on), `None`
    /// at the end. O(1).
    pub fn cursor_peek(&self, c: &Cursor) -> Result<Option<u32>, Error> {
        self.cursor_check(c)?;
        let after = if c.prev == NONE {
            self.node(c.parent)?.links().first
        } else {
            self.node(c.prev)?.next
        };
        Ok((after < UNLINKED).then_some(after))
    }

    /// Moves the cursor over the child after it and returns that child;
    /// `None` (cursor unchanged) at the end. O(1).
    pub fn cursor_next(&self, c: &mut Cursor) -> Result<Option<u32>, Error> {
        let Some(child) = self.cursor_peek(c)? else {
            return Ok(None);
        };
        if self.item_type(c.parent) == ItemType::Map {
            // Children alternate key, value: the child after a key is its
            // value, any other is a key.
            let after_key = c.prev != NONE && c.prev == c.key;
            if !after_key {
                c.key = child;
            }
        }
        c.prev = child;
        Ok(Some(child))
    }
}

impl<'a> Items<'a, &mut [Item]> {
    /// Inserts the unlinked node `child` at the cursor, in a LIST or BLOB,
    /// and moves the cursor past it (so repeated inserts keep their order,
    /// and a cursor from [`Items::cursor_end`] appends). O(1) for a leaf
    /// or an empty container (see `check_link` for the cycle check a
    /// non-empty one needs). Refused as
    /// [`Items::insert_after`] refuses (MAP, linked `child`, cycle, non-BIN
    /// into a BLOB) and when the cursor is stale.
    pub fn cursor_insert(&mut self, c: &mut Cursor, child: u32) -> Result<(), Error> {
        self.check_link(c.parent, child)?;
        self.cursor_check(c)?;
        if self.item_type(c.parent) == ItemType::Map {
            return Err(Error::Invalid);
        }
        self.relink_at(c.parent, c.prev, child)?;
        self.adjust_count(c.parent, 1)?;
        c.prev = child;
        Ok(())
    }

    /// Unlinks and returns the child after the cursor, in a LIST or BLOB.
    /// O(1). The cursor stays where it was (before the next child) and
    /// valid; every other cursor of the tree becomes stale.
    pub fn cursor_remove(&mut self, c: &mut Cursor) -> Result<u32, Error> {
        self.editable()?;
        self.cursor_check(c)?;
        if self.item_type(c.parent) == ItemType::Map {
            return Err(Error::Invalid);
        }
        let victim = self.remove_at(c.parent, c.prev)?;
        c.gen = self.state.gen;
        Ok(victim)
    }

    /// Puts the unlinked node `new` in place of the child after the cursor,
    /// in a LIST or BLOB, and returns the old child, now unlinked. O(1).
    /// The cursor stays valid; every other cursor becomes stale.
    pub fn cursor_replace(&mut self, c: &mut Cursor, new: u32) -> Result<u32, Error> {
        self.check_link(c.parent, new)?;
        self.cursor_check(c)?;
        if self.item_type(c.parent) == ItemType::Map {
            return Err(Error::Invalid);
        }
        let old = self.replace_at(c.parent, c.prev, new)?;
        c.gen = self.state.gen;
        Ok(old)
    }

    /// Appends the pair `key` (an unlinked non-empty STR node) and `value`
    /// (an unlinked node) to the MAP at the cursor, which must be at its
    /// end ([`Items::cursor_end`]); `key` must sort above the MAP's last
    /// key (`MapUnordered` otherwise: use [`Items::map_set`] for keys in
    /// any order). O(1) plus one key comparison. The cursor moves past the
    /// value.
    pub fn map_append(&mut self, c: &mut Cursor, key: u32, value: u32) -> Result<(), Error> {
        self.check_link(c.parent, key)?;
        self.check_link(c.parent, value)?;
        self.cursor_check(c)?;
        if self.item_type(c.parent) != ItemType::Map || key == value {
            return Err(Error::Invalid);
        }
        if self.cursor_peek(c)?.is_some() || (c.prev != NONE && c.prev == c.key) {
            // Not at the end, or after a key (which a MAP never ends with).
            return Err(Error::Invalid);
        }
        let k = key_bytes(self.node(key)?).unwrap_or(&[]);
        check_key(k, &[])?;
        if c.key != NONE {
            // A last key that is no STR (`set_value` may put any leaf
            // there) has no place in the order to be above.
            let last = key_bytes(self.node(c.key)?).ok_or(grammar::UNORDERED_KEY)?;
            check_key(k, last)?;
        }
        self.relink_at(c.parent, c.prev, value)?;
        self.relink_at(c.parent, c.prev, key)?;
        self.adjust_count(c.parent, 2)?;
        (c.prev, c.key) = (value, key);
        Ok(())
    }
}
