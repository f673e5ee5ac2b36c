//! Navigating and editing a tree. Navigation follows links; edits relink
//! nodes (MAP edits walk the keys to keep them ordered).
//!
//! Invariants every edit keeps (and [`Items::check`] verifies): each
//! container's stored count is its number of linked children, a node sits
//! in at most one place (only an unlinked node — new, removed, or a parsed
//! root — can be inserted), no container ends up inside itself, and MAPs
//! stay paired. An edit either succeeds with these kept or fails with
//! nothing changed; edits are refused while a parse is unfinished.
//!
//! A `prev` given by index is checked to be a child of `parent`: leaves
//! carry no parent link, so that check walks the children up to `prev`
//! (O(1) when `prev` is a container, whose parent link answers). A
//! [`super::Cursor`] holds a position known to be right by construction
//! and edits there in O(1).

use super::node::{Item, SIZE_ESC};
use super::{payload, Items, NONE, UNLINKED};
use crate::atom::{Atom, ItemType};
use crate::error::Error;
use crate::float;
use crate::grammar::{check_key, NOT_A_CHUNK};
use crate::utf8;

impl<'a, S: AsRef<[Item]>> Items<'a, S> {
    // ----- navigation -----

    /// First child of a container, `None` if empty or not a container.
    pub fn first_child(&self, idx: u32) -> Option<u32> {
        let item = self.get(idx)?;
        if !item.is_container() {
            return None;
        }
        let first = item.links().first;
        (first != NONE).then_some(first)
    }

    /// Next sibling, `None` for the last child or a root.
    pub fn next_sibling(&self, idx: u32) -> Option<u32> {
        let next = self.get(idx)?.next;
        (next < UNLINKED).then_some(next)
    }

    /// Iterator over the children of a container (empty for other nodes).
    pub fn children(&self, idx: u32) -> impl Iterator<Item = u32> + '_ {
        let mut at = self.first_child(idx);
        // Bounded by the pool size in case of broken links.
        (0..self.len()).map_while(move |_| {
            let here = at?;
            at = self.next_sibling(here);
            Some(here)
        })
    }

    /// Number of children of a container (keys and values for a MAP,
    /// chunks for a BLOB). O(1) unless the count exceeds 2^27 - 2.
    pub fn child_count(&self, idx: u32) -> Result<usize, Error> {
        let item = self.node(idx)?;
        if !item.is_container() {
            return Err(Error::Invalid);
        }
        match item.size() {
            SIZE_ESC => Ok(self.children(idx).count()),
            n => Ok(n as usize),
        }
    }

    /// The `n`-th child (from 0) of a container. O(n).
    pub fn nth_child(&self, idx: u32, n: usize) -> Option<u32> {
        self.children(idx).nth(n)
    }

    /// The value stored under `key` in a MAP. O(number of keys).
    pub fn map_get(&self, map: u32, key: &[u8]) -> Option<u32> {
        if self.item_type(map) != ItemType::Map {
            return None;
        }
        let mut kids = self.children(map);
        while let (Some(k), Some(v)) = (kids.next(), kids.next()) {
            if key_bytes(self.get(k)?) == Some(key) {
                return Some(v);
            }
        }
        None
    }

    /// The value of a `Pint` node.
    pub fn get_uint(&self, idx: u32) -> Result<u64, Error> {
        let item = self.node(idx)?;
        match item.item_type() {
            ItemType::Pint => Ok(item.raw_u64()),
            _ => Err(Error::Invalid),
        }
    }

    /// The value of a `Pint` or `Nint` node as `i64` (`LenTooBig` when a
    /// `Pint` exceeds `i64::MAX`).
    pub fn get_int(&self, idx: u32) -> Result<i64, Error> {
        let item = self.node(idx)?;
        match item.item_type() {
            ItemType::Pint => i64::try_from(item.raw_u64()).map_err(|_| Error::LenTooBig),
            ItemType::Nint => Ok(item.raw_i64()),
            _ => Err(Error::Invalid),
        }
    }

    /// The value of a FALSE or TRUE node.
    pub fn get_bool(&self, idx: u32) -> Result<bool, Error> {
        match self.item_type(idx) {
            ItemType::False => Ok(false),
            ItemType::True => Ok(true),
            _ => Err(Error::Invalid),
        }
    }

    /// The text of a STR node (validated again here, since the tree may have
    /// been parsed with `trust_utf8`).
    pub fn get_str(&self, idx: u32) -> Result<&'a str, Error> {
        if self.item_type(idx) != ItemType::Str {
            return Err(Error::Invalid);
        }
        utf8::validate_str(self.bytes(idx)?)
    }

    /// The bytes of a BIN node.
    pub fn get_bin(&self, idx: u32) -> Result<&'a [u8], Error> {
        match self.item_type(idx) {
            ItemType::Bin => self.bytes(idx),
            _ => Err(Error::Invalid),
        }
    }

    /// A FLOAT16/32/64 node widened to `f64` exactly, NaN payloads and
    /// the signalling bit included (`Invalid` for other types and for
    /// 128/256-bit floats, which only [`Items::bytes`] gives).
    pub fn get_f64(&self, idx: u32) -> Result<f64, Error> {
        self.get_f64_bits(idx).map(f64::from_bits)
    }

    /// The bits of [`Items::get_f64`]'s `f64`, made without any float
    /// instruction (see [`float::to_f64_bits`]).
    pub fn get_f64_bits(&self, idx: u32) -> Result<u64, Error> {
        match self.item_type(idx) {
            ItemType::Float => float::to_f64_bits(self.bytes(idx)?).ok_or(Error::Invalid),
            _ => Err(Error::Invalid),
        }
    }

    /// A BLOB's chunk length minus one.
    pub fn blob_chunk_len_minus_one(&self, idx: u32) -> Result<u64, Error> {
        if self.item_type(idx) != ItemType::Blob {
            return Err(Error::Invalid);
        }
        Ok(self.node(idx.wrapping_add(1))?.raw_u64())
    }

    /// Total payload length of a BLOB (the sum of its chunks).
    pub fn blob_len(&self, idx: u32) -> Result<u64, Error> {
        if self.item_type(idx) != ItemType::Blob {
            return Err(Error::Invalid);
        }
        self.children(idx).try_fold(0u64, |acc, c| {
            let n = self.get_bin(c)?.len() as u64;
            acc.checked_add(n).ok_or(Error::LenTooBig)
        })
    }
}

impl<'a> Items<'a, &mut [Item]> {
    // ----- making nodes -----

    /// Makes a new, unlinked node holding `atom` and returns its index.
    /// LIST and MAP atoms give empty containers, a BLOB atom an empty BLOB
    /// (add BIN chunks with [`Items::insert_after`]/[`Items::prepend`]).
    /// Byte values are borrowed, not copied. EOC is `Invalid`. A STR must
    /// be valid (the `Atom::Str` type guarantees UTF-8; NUL is refused);
    /// floats, TAI64 labels and bigints are checked as the parser would.
    /// Byte values of 2^27 - 1 bytes or more are `LenTooBig` (a node
    /// stores shorter lengths; only parsed values can point at a wire
    /// header for longer ones). `NoMem` when the pool is full; `Invalid`
    /// while a parse is unfinished.
    pub fn add(&mut self, atom: &Atom<'a>) -> Result<u32, Error> {
        let (item, slots) = self.prepare(atom, 0)?;
        self.store(item, slots, atom)
    }

    /// Stores the node `prepare` made for `atom` in new slots.
    pub(super) fn store(&mut self, item: Item, slots: u32, atom: &Atom<'_>) -> Result<u32, Error> {
        let reused = if slots == 1 { self.pop_free() } else { None };
        let idx = match reused {
            Some(idx) => idx,
            None => self.alloc(slots)?,
        };
        *self.node_mut(idx)? = item;
        if let Atom::Blob {
            chunk_len_minus_one,
        } = *atom
        {
            *self.node_mut(idx + 1)? = Item::blob_ext(chunk_len_minus_one);
        }
        self.node_mut(idx)?.next = UNLINKED;
        Ok(idx)
    }

    /// Checks everything [`Items::add`] checks for `atom`, with room left
    /// for `extra` more nodes, and changes nothing: the node to store and
    /// the slots it takes. So a call that makes several nodes, or copies
    /// bytes first, can refuse before it has changed anything.
    pub(super) fn prepare(&self, atom: &Atom<'_>, extra: u32) -> Result<(Item, u32), Error> {
        self.editable()?;
        let slots: u32 = if matches!(atom, Atom::Blob { .. }) {
            2
        } else {
            1
        };
        let item = node_for(atom)?;
        // A BLOB's two slots come from the end; single nodes from the free
        // list first.
        let at_end = self.cap().saturating_sub(self.len);
        let (end_needed, singles) = if slots == 2 {
            (2, extra)
        } else {
            (0, extra.saturating_add(1))
        };
        let room = at_end
            .checked_sub(end_needed)
            .map(|rest| rest.saturating_add(self.free.len));
        if !room.is_some_and(|r| r >= singles) {
            return Err(Error::NoMem);
        }
        Ok((item, slots))
    }

    /// Replaces the value of a non-container node in place with a
    /// non-container `atom` (links are kept). A leaf carries no link to
    /// its container, so nothing here depends on where it is: a MAP key
    /// may be changed (the encoder refuses a MAP whose keys it made out of
    /// order or not STR), and so may a BLOB chunk (the encoder refuses a
    /// BLOB whose chunks are then not BINs of the right lengths).
    pub fn set_value(&mut self, idx: u32, atom: &Atom<'a>) -> Result<(), Error> {
        self.editable()?;
        let old = *self.node(idx)?;
        // A BLOB's extension slot (type `Invalid`) is not a node.
        if old.is_container()
            || old.item_type() == ItemType::Invalid
            || matches!(atom, Atom::List | Atom::Map | Atom::Blob { .. })
        {
            return Err(Error::Invalid);
        }
        let mut item = node_for(atom)?;
        item.next = old.next;
        *self.node_mut(idx)? = item;
        Ok(())
    }

    // ----- linking -----

    /// Checks that `child` may be linked under `parent`: it is unlinked,
    /// `parent` is a container that is not `child` or inside it, and a BLOB
    /// only takes BIN chunks.
    ///
    /// O(1) when `child` is a leaf or an empty container (neither can hold
    /// `parent`), or when `parent` is a root; otherwise the walk from
    /// `parent` up to its root that rules out a cycle: O(depth of
    /// `parent`).
    pub(super) fn check_link(&self, parent: u32, child: u32) -> Result<(), Error> {
        self.editable()?;
        let c = self.node(child)?;
        let p = self.node(parent)?;
        if c.next != UNLINKED || !p.is_container() || parent == child {
            return Err(Error::Invalid);
        }
        if p.item_type() == ItemType::Blob && c.item_type() != ItemType::Bin {
            return Err(NOT_A_CHUNK);
        }
        if c.is_container() && c.links().first != NONE {
            // Walk up from `parent`: meeting `child` would make a cycle.
            let mut at = parent;
            for _ in 0..=self.len() {
                if at == child {
                    return Err(Error::Invalid);
                }
                if at == NONE {
                    return Ok(());
                }
                at = self.node(at)?.links().parent;
            }
            return Err(Error::Invalid);
        }
        Ok(())
    }

    /// Bookkeeping after linking `child` under `parent`.
    pub(super) fn linked(&mut self, parent: u32, child: u32, delta: isize) -> Result<(), Error> {
        if self.node(child)?.is_container() {
            self.node_mut(child)?.links_mut().parent = parent;
        }
        self.adjust_count(parent, delta)
    }

    pub(super) fn adjust_count(&mut self, parent: u32, delta: isize) -> Result<(), Error> {
        if let Some(n) = self.counted(parent, delta)? {
            self.node_mut(parent)?.set_size(n);
        }
        Ok(())
    }

    /// The child count `parent` stores after `delta` more children, read
    /// without changing anything (`None` when the count escapes and is not
    /// stored); `Invalid` when it would go below zero (a broken tree), so
    /// that an edit can check before it changes anything.
    fn counted(&self, parent: u32, delta: isize) -> Result<Option<usize>, Error> {
        let p = self.node(parent)?;
        if p.size() == SIZE_ESC {
            return Ok(None);
        }
        (p.size() as usize)
            .checked_add_signed(delta)
            .map(Some)
            .ok_or(Error::Invalid)
    }

    /// Checks that `prev` is a child of `parent` (and so neither the
    /// parent itself, nor unlinked, nor a BLOB's extension slot). O(1)
    /// when `prev` is a container (its parent link answers); otherwise a
    /// walk of `parent`'s children up to `prev`: O(position of `prev`).
    pub(super) fn check_child(&self, parent: u32, prev: u32) -> Result<(), Error> {
        let p = self.node(prev)?;
        if p.next == UNLINKED || p.item_type() == ItemType::Invalid || prev == parent {
            return Err(Error::Invalid);
        }
        let found = if p.is_container() {
            p.links().parent == parent
        } else {
            self.children(parent).any(|c| c == prev)
        };
        found.then_some(()).ok_or(Error::Invalid)
    }

    /// Inserts the unlinked node `child` right after `prev`, a child of the
    /// LIST or BLOB `parent`. `prev` is checked to be a child of `parent`:
    /// O(1) when it is a container, else O(position of `prev`); a
    /// [`super::Cursor`] ([`Items::cursor_insert`]) inserts in O(1)
    /// anywhere. (MAPs: use [`Items::map_set`].)
    pub fn insert_after(&mut self, parent: u32, prev: u32, child: u32) -> Result<(), Error> {
        self.check_link(parent, child)?;
        if self.item_type(parent) == ItemType::Map {
            return Err(Error::Invalid);
        }
        self.check_child(parent, prev)?;
        self.relink_at(parent, prev, child)?;
        self.adjust_count(parent, 1)
    }

    /// Inserts the unlinked node `child` as the first child of the LIST or
    /// BLOB `parent`. O(1).
    pub fn prepend(&mut self, parent: u32, child: u32) -> Result<(), Error> {
        self.check_link(parent, child)?;
        if self.item_type(parent) == ItemType::Map {
            return Err(Error::Invalid);
        }
        self.relink_at(parent, NONE, child)?;
        self.adjust_count(parent, 1)
    }

    /// Unlinks and returns the child after `prev` (the first child when
    /// `prev` is `NONE`) of the LIST or BLOB `parent`. The removed
    /// node keeps its subtree and may be inserted elsewhere. `prev` is
    /// checked as in [`Items::insert_after`]; [`Items::cursor_remove`] is
    /// the O(1) way.
    pub fn remove(&mut self, parent: u32, prev: u32) -> Result<u32, Error> {
        self.editable()?;
        let p = self.node(parent)?;
        if !p.is_container() || p.item_type() == ItemType::Map {
            return Err(Error::Invalid);
        }
        if prev != NONE {
            self.check_child(parent, prev)?;
        }
        self.remove_at(parent, prev)
    }

    /// Unlinks the child after `prev` (or the first) of `parent`, known to
    /// be a child (or NONE), and counts it out. Checks both before it
    /// changes anything.
    pub(super) fn remove_at(&mut self, parent: u32, prev: u32) -> Result<u32, Error> {
        self.child_after(parent, prev)?;
        self.counted(parent, -1)?;
        let victim = self.unlink_after(parent, prev)?;
        self.adjust_count(parent, -1)?;
        Ok(victim)
    }

    /// The child after `prev` (or the first) of `parent`, and the one
    /// after that; `Invalid` when there is none.
    fn child_after(&self, parent: u32, prev: u32) -> Result<(u32, u32), Error> {
        let victim = if prev == NONE {
            self.node(parent)?.links().first
        } else {
            self.node(prev)?.next
        };
        if victim >= UNLINKED {
            return Err(Error::Invalid);
        }
        Ok((victim, self.node(victim)?.next))
    }

    /// Detaches the child after `prev` (or the first) of `parent`. Fails
    /// with nothing changed when there is none. Makes every cursor stale.
    fn unlink_after(&mut self, parent: u32, prev: u32) -> Result<u32, Error> {
        let (victim, after) = self.child_after(parent, prev)?;
        if prev == NONE {
            self.node_mut(parent)?.links_mut().first = after;
        } else {
            self.node_mut(prev)?.next = after;
        }
        let v = self.node_mut(victim)?;
        v.next = UNLINKED;
        if v.is_container() {
            v.links_mut().parent = NONE;
        }
        self.bump_gen();
        Ok(victim)
    }

    /// Puts the unlinked node `new` where the child after `prev` (or the
    /// first child) of the LIST or BLOB `parent` was, and returns the old
    /// one, now unlinked. `prev` is checked as in [`Items::insert_after`];
    /// [`Items::cursor_replace`] is the O(1) way.
    pub fn replace(&mut self, parent: u32, prev: u32, new: u32) -> Result<u32, Error> {
        self.check_link(parent, new)?;
        if self.item_type(parent) == ItemType::Map {
            return Err(Error::Invalid);
        }
        if prev != NONE {
            self.check_child(parent, prev)?;
        }
        self.replace_at(parent, prev, new)
    }

    /// Replaces the child after `prev` (or the first) of `parent` with the
    /// unlinked `new`, both known to be fit.
    pub(super) fn replace_at(&mut self, parent: u32, prev: u32, new: u32) -> Result<u32, Error> {
        let old = self.unlink_after(parent, prev)?;
        self.relink_at(parent, prev, new)?;
        Ok(old)
    }

    /// Links unlinked `new` after `prev` (or first), without count change.
    pub(super) fn relink_at(&mut self, parent: u32, prev: u32, new: u32) -> Result<(), Error> {
        let after = if prev == NONE {
            self.node(parent)?.links().first
        } else {
            self.node(prev)?.next
        };
        self.node_mut(new)?.next = after;
        if prev == NONE {
            self.node_mut(parent)?.links_mut().first = new;
        } else {
            self.node_mut(prev)?.next = new;
        }
        self.linked(parent, new, 0)
    }

    /// Sets `key` (an unlinked non-empty STR node) to `value` (an unlinked
    /// node) in `map`, keeping the keys ordered: replaces the value of an
    /// equal key (returning the old value, now unlinked) or inserts the
    /// pair in its place (returning `NONE`). O(1) when the previous set
    /// appended a pair to `map`, nothing was unlinked since and `key` sorts
    /// above that pair's key; else O(number of keys).
    pub fn map_set(&mut self, map: u32, key: u32, value: u32) -> Result<u32, Error> {
        if self.item_type(map) != ItemType::Map || key == value {
            return Err(Error::Invalid);
        }
        self.check_link(map, key)?;
        self.check_link(map, value)?;
        let k = key_bytes(self.node(key)?).unwrap_or(&[]);
        // The key rule: a non-empty STR (its place among the keys is
        // found below).
        check_key(k, &[])?;
        let (prev_value, equal) = match self.after_tail(map, k) {
            Some(last_value) => (last_value, None),
            None => self.find_pair(map, k)?,
        };
        if let Some(ck) = equal {
            let old = self.unlink_after(map, ck)?;
            self.relink_at(map, ck, value)?;
            return Ok(old);
        }
        self.relink_at(map, prev_value, value)?;
        self.relink_at(map, prev_value, key)?;
        self.adjust_count(map, 2)?;
        if self.node(value)?.next == NONE {
            self.log.tail_map = map;
            self.log.tail_key = key;
        }
        Ok(NONE)
    }

    /// The last value of `map` when the append hint names `map` (the last
    /// pair that a put appended, with nothing unlinked since) and `key`
    /// sorts above that pair's key: the new pair then goes last, found in
    /// O(1). `None` sends the caller to the walk.
    fn after_tail(&self, map: u32, key: &[u8]) -> Option<u32> {
        let hint = self.log;
        if hint.tail_map != map || map == NONE {
            return None;
        }
        let tail = self.node(hint.tail_key).ok()?;
        let last = key_bytes(tail)?;
        let value = tail.next;
        if value >= UNLINKED || self.node(value).ok()?.next != NONE {
            return None;
        }
        key_sorts_above(key, last).then_some(value)
    }

    /// Finds where `key` belongs in `map`: the value of the last pair whose
    /// key sorts below it (`NONE` if none), and the key node equal to it.
    fn find_pair(&self, map: u32, key: &[u8]) -> Result<(u32, Option<u32>), Error> {
        let mut prev_value = NONE;
        let mut kids = self.children(map);
        while let (Some(ck), Some(cv)) = (kids.next(), kids.next()) {
            // A key turned into another type by `set_value` matches
            // nothing (the encoder refuses it).
            let Some(cb) = key_bytes(self.node(ck)?) else {
                prev_value = cv;
                continue;
            };
            if cb == key {
                return Ok((prev_value, Some(ck)));
            }
            if key_sorts_above(cb, key) {
                break;
            }
            prev_value = cv;
        }
        Ok((prev_value, None))
    }

    /// Removes `key` and its value from `map`; returns the value's index
    /// (unlinked, as is the key node) or `None` when the key is absent.
    pub fn map_remove(&mut self, map: u32, key: &[u8]) -> Result<Option<u32>, Error> {
        self.editable()?;
        if self.item_type(map) != ItemType::Map {
            return Err(Error::Invalid);
        }
        let (prev_value, found) = self.find_pair(map, key)?;
        let Some(found_key) = found else {
            return Ok(None);
        };
        // Checked first (a pair and a count to take it from), so that a
        // broken tree is refused with nothing changed.
        let (value, _) = self.child_after(map, found_key)?;
        self.counted(map, -2)?;
        self.unlink_after(map, prev_value)?;
        self.unlink_after(map, prev_value)?;
        self.adjust_count(map, -2)?;
        Ok(Some(value))
    }
}

/// Whether MAP key `key` sorts above `prev` (the tree's one key
/// comparison, counted in tests).
fn key_sorts_above(key: &[u8], prev: &[u8]) -> bool {
    #[cfg(test)]
    compares::count();
    crate::rules::key_above(key, prev)
}

/// The bytes of a MAP key node, `None` when it is no STR: `set_value` may
/// put any leaf in a key position, and only bytes nodes hold a pointer.
pub(super) fn key_bytes<'a>(item: &Item) -> Option<&'a [u8]> {
    (item.item_type() == ItemType::Str).then(|| payload(item))
}

/// The node for an atom the caller supplies, checked as the parser would.
fn node_for<'a>(atom: &Atom<'a>) -> Result<Item, Error> {
    let none = core::ptr::null();
    Ok(match *atom {
        Atom::Eoc => return Err(Error::Invalid),
        Atom::Nil => Item::plain(ItemType::Nil),
        Atom::Bool(false) => Item::plain(ItemType::False),
        Atom::Bool(true) => Item::plain(ItemType::True),
        Atom::Uint(u) => Item::uint(u),
        Atom::Nint(i) if i < 0 => Item::nint(i),
        Atom::Nint(_) => return Err(Error::Invalid),
        Atom::BigInt {
            negative,
            magnitude,
        } => {
            let m = crate::rules::strip_zeros(magnitude);
            let t = if negative {
                ItemType::Nbig
            } else {
                ItemType::Pbig
            };
            caller_bytes(t, m, none)?
        }
        Atom::List => Item::container(ItemType::List, NONE),
        Atom::Map => Item::container(ItemType::Map, NONE),
        Atom::Blob { .. } => Item::container(ItemType::Blob, NONE),
        Atom::Hexlet(h) => caller_bytes(ItemType::Hexlet, h, none)?,
        Atom::Float(f) => {
            float::check(f)?;
            caller_bytes(ItemType::Float, f, none)?
        }
        Atom::Tai64(l) => {
            crate::tai64::check_label(l)?;
            caller_bytes(ItemType::Tai64, l, none)?
        }
        Atom::Magic(m) => caller_bytes(ItemType::Magic, m, none)?,
        Atom::Bin(b) => caller_bytes(ItemType::Bin, b, none)?,
        Atom::Str(s) => {
            if s.as_bytes().contains(&0) {
                return Err(Error::BadUtf8);
            }
            caller_bytes(ItemType::Str, s.as_bytes(), none)?
        }
    })
}

/// A bytes node for caller memory: there is no wire header to point at, so
/// lengths that do not fit the node are refused.
fn caller_bytes(t: ItemType, bytes: &[u8], none: *const u8) -> Result<Item, Error> {
    if bytes.len() >= SIZE_ESC as usize {
        return Err(Error::LenTooBig);
    }
    Ok(Item::bytes(t, bytes, none))
}

/// A per-thread count of the key comparisons the tree made: the test hook
/// that shows MAP building in key order to be linear.
#[cfg(test)]
pub(super) mod compares {
    extern crate std;
    use core::cell::Cell;

    std::thread_local! {
        static COUNT: Cell<u64> = const { Cell::new(0) };
    }

    pub(super) fn count() {
        COUNT.with(|c| c.set(c.get() + 1));
    }

    /// The comparisons made on this thread since the last `take`.
    pub fn take() -> u64 {
        COUNT.with(|c| c.replace(0))
    }
}
