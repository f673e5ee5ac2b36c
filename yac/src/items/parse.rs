//! Parsing a document into the tree, incrementally, with constant stack.
//!
//! The open containers form a stack threaded through the nodes themselves:
//! a container links to its parent, and while it is open its own `next`
//! field (not needed until its next sibling arrives) keeps the parent's
//! child count. So the parser's whole state is a handful of words
//! ([`ParseState`]), kept between calls: when the input ends inside the
//! document the parser stops before the incomplete atom and continues from
//! there when called again with more bytes.

use super::fast::Stop;
use super::node::{Item, NONE, OPEN_IN_MAP};
use super::{payload, Items, UNLINKED};
use crate::atom::{self, tag, Atom, ItemType};
use crate::error::Error;
use crate::grammar::{Fed, Grammar, State, Step};
use crate::utf8;

/// Where an unfinished parse stands: plain words, so that the C layer can
/// keep it in the reserved words of `struct YACItems` (see
/// [`to_words`](Self::to_words)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseState {
    /// Innermost open container, `NONE` at top level.
    pub cur: u32,
    /// Last child appended to `cur` (or the root), `NONE` if none yet.
    pub last: u32,
    /// Children of `cur` so far.
    pub count: u32,
    /// Number of open containers.
    pub depth: u32,
    /// Pool length when the document began: where an error rolls back to.
    pub start: u32,
    /// The document's root, `NONE` until its first atom.
    pub root: u32,
    /// Previous key of `cur` when it is a MAP, `NONE` before the first.
    pub prev_key: u32,
    /// 1 while a document is being parsed, 0 between documents.
    pub active: u32,
    /// Type of `cur` (`ItemType` value; 0 at top level), cached so the hot
    /// loop need not read the container's node for every atom.
    pub cur_type: u32,
    /// Where an unfinished parse stopped: the low 32 bits of `*off`, so
    /// that a call with another offset is refused, not taken as more input.
    pub resume_off: u32,
    /// Low 32 bits of the address of the unfinished parse's buffer: a call
    /// with another buffer is refused likewise.
    pub resume_buf: u32,
    /// Edit generation, kept across documents: changed by every edit that
    /// unlinks a node and by `clear`, so that a cursor made
    /// before such an edit is known to be stale.
    pub gen: u32,
}

impl ParseState {
    capi_internal! {
    /// How many `u32` words [`to_words`](Self::to_words) gives: the C layer
    /// keeps the state in reserved words of `struct YACItems`.
    pub const WORDS: usize = 12;
    }

    capi_internal! {
    /// The state as plain words (field order), for storage outside Rust.
    pub const fn to_words(self) -> [u32; Self::WORDS] {
        let ParseState {
            cur,
            last,
            count,
            depth,
            start,
            root,
            prev_key,
            active,
            cur_type,
            resume_off,
            resume_buf,
            gen,
        } = self;
        [
            cur, last, count, depth, start, root, prev_key, active, cur_type, resume_off,
            resume_buf, gen,
        ]
    }
    }

    capi_internal! {
    /// The state stored by [`to_words`](Self::to_words).
    pub const fn from_words(w: [u32; Self::WORDS]) -> Self {
        let [cur, last, count, depth, start, root, prev_key, active, cur_type, resume_off, resume_buf, gen] =
            w;
        ParseState {
            cur,
            last,
            count,
            depth,
            start,
            root,
            prev_key,
            active,
            cur_type,
            resume_off,
            resume_buf,
            gen,
        }
    }
    }

    /// The state between documents.
    pub const fn idle() -> Self {
        ParseState {
            cur: NONE,
            last: NONE,
            count: 0,
            depth: 0,
            start: 0,
            root: NONE,
            prev_key: NONE,
            active: 0,
            cur_type: ItemType::Invalid as u32,
            resume_off: 0,
            resume_buf: 0,
            gen: 0,
        }
    }

    capi_internal! {
    /// The state of a new tree: idle, with an edit generation that no
    /// earlier tree or edit in the process took (see `generation`), so
    /// that every cursor made before is stale for it.
    pub fn new_tree() -> Self {
        ParseState {
            gen: super::generation::fresh(),
            ..ParseState::idle()
        }
    }
    }

    /// The state between documents, keeping the edit generation of `self`.
    const fn finished(&self) -> Self {
        ParseState {
            gen: self.gen,
            ..ParseState::idle()
        }
    }
}

impl Default for ParseState {
    fn default() -> Self {
        Self::idle()
    }
}

/// The grammar where `st` stands in the pool `nodes`: the state from the
/// open container's type and child count, its previous key, a BLOB's
/// chunk length from its extension slot.
#[inline(always)]
fn grammar_at<'a>(nodes: &[Item], st: &ParseState, max_depth: u32) -> Result<Grammar<'a>, Error> {
    let at = |i: u32| nodes.get(i as usize).ok_or(Error::Invalid);
    let (state, chunk_minus_one) = match ItemType::from_u8(st.cur_type as u8) {
        ItemType::Invalid => (State::Top, 0),
        ItemType::Map if st.count % 2 == 0 => (State::MapKey, 0),
        ItemType::Map => (State::MapValue, 0),
        ItemType::Blob => (State::Blob, at(st.cur.wrapping_add(1))?.raw_u64()),
        _ => (State::List, 0),
    };
    // Only a key compares with the previous key: a value after one
    // needs no lookup.
    let prev_key = if st.prev_key == NONE || state != State::MapKey {
        &[]
    } else {
        payload(at(st.prev_key)?)
    };
    Ok(Grammar {
        state,
        depth: st.depth,
        prev_key,
        chunk_minus_one,
        ..Grammar::new(max_depth)
    })
}

impl<'a> Items<'a, &mut [Item]> {
    /// Parses one whole item, with all its descendants, from `buf[*off..]`
    /// and returns the index of its root node (which is unlinked, ready to
    /// be grafted). `*off` advances past the item.
    ///
    /// When the input ends inside the item, returns `Err(NotEnough(n))`
    /// with `*off` at the first unconsumed byte and the progress kept: call
    /// again with the same buffer extended by at least `n` bytes (nodes
    /// already made keep pointing into it). `Err(NoMem)` likewise keeps the
    /// progress (grow with [`Items::move_to`] and call again, or
    /// [`Items::abort`]). Any other error rolls the pool back to where the
    /// document began and leaves `*off` at the offending atom.
    ///
    /// An `*off` beyond `buf` is `Err(Invalid)`, with nothing changed. So
    /// is a call during an unfinished parse whose buffer does not start at
    /// the same address or whose `*off` is not where that parse stopped:
    /// a new document is not silently taken as the rest of the old one
    /// (see [`Items::parsing`]; [`Items::abort`] drops the old one).
    pub fn parse(&mut self, buf: &'a [u8], off: &mut usize) -> Result<u32, Error> {
        if *off > buf.len() {
            return Err(Error::Invalid);
        }
        if self.state.active == 0 {
            self.state = ParseState {
                start: self.len,
                active: 1,
                ..self.state.finished()
            };
        } else if self.state.resume_off != *off as u32
            || self.state.resume_buf != buf.as_ptr() as usize as u32
        {
            // Not where the unfinished parse stopped: another document,
            // not more of this one.
            return Err(Error::Invalid);
        }
        match self.parse_atoms(buf, off) {
            Ok(root) => {
                self.state = self.state.finished();
                Ok(root)
            }
            Err(e @ (Error::NotEnough(_) | Error::NoMem)) => {
                self.state.resume_off = *off as u32;
                self.state.resume_buf = buf.as_ptr() as usize as u32;
                Err(e)
            }
            Err(e) => {
                self.abort();
                Err(e)
            }
        }
    }

    /// Abandons an unfinished parse: the pool goes back to where that
    /// document began. Nothing else changes (cursors stay valid: they
    /// cannot point into the unfinished document). A no-op when no parse
    /// is unfinished.
    pub fn abort(&mut self) {
        if self.state.active != 0 {
            self.len = self.state.start.min(self.len);
        }
        self.state = self.state.finished();
    }

    /// The atom loop: the fast loop takes the common atoms; whatever it
    /// leaves (rare types, BLOB chunks, the end of the input, and every
    /// error) goes through the exact path one atom at a time.
    fn parse_atoms(&mut self, buf: &'a [u8], off: &mut usize) -> Result<u32, Error> {
        loop {
            // Feature `size-first`: the exact path alone.
            if !cfg!(feature = "size-first") {
                if let Stop::Done(root) = self.fast_run(buf, off) {
                    return Ok(root);
                }
            }
            let rest = buf.get(*off..).unwrap_or(&[]);
            let (step, item, used) = self.decode_step(rest)?;
            let mut st = self.state;
            let done = self.apply(&mut st, step, item)?;
            self.state = st;
            *off += used;
            if done {
                return Ok(st.root);
            }
        }
    }

    /// Decodes the atom at the start of `rest`: its grammar step and, for
    /// a leaf, its node.
    #[inline(always)]
    fn decode_step(&self, rest: &'a [u8]) -> Result<(Step<'a>, Item, usize), Error> {
        let t = *rest.first().ok_or(Error::NotEnough(1))?;
        if t >= tag::BIN {
            let (body, used) = atom::string_raw(rest)?;
            let (step, ty) = if t >= tag::STR {
                if !self.opts.trust_utf8 {
                    utf8::check_str(body)?;
                }
                (Step::Str(body), ItemType::Str)
            } else {
                (Step::Bin(body.len()), ItemType::Bin)
            };
            return Ok((step, Item::bytes(ty, body, rest.as_ptr()), used));
        }
        let (a, used) = atom::decode(rest)?;
        let int_header = rest.get(1..).unwrap_or(&[]).as_ptr();
        // Containers and EOC make no leaf; strings are taken above.
        let none = Item::plain(ItemType::Invalid);
        let (step, item) = match a {
            Atom::Eoc => (Step::Eoc, none),
            Atom::List => (Step::List, none),
            Atom::Map => (Step::Map, none),
            Atom::Blob {
                chunk_len_minus_one,
            } => (Step::Blob(chunk_len_minus_one), none),
            leaf => (Step::Leaf, leaf_node(leaf, int_header)),
        };
        Ok((step, item, used))
    }
}

/// The node of a decoded leaf other than BIN and STR (`int_header`: where
/// a big integer's bytes start).
#[inline(always)]
fn leaf_node(a: Atom<'_>, int_header: *const u8) -> Item {
    match a {
        Atom::Nil => Item::plain(ItemType::Nil),
        Atom::Bool(false) => Item::plain(ItemType::False),
        Atom::Bool(true) => Item::plain(ItemType::True),
        Atom::Uint(u) => Item::uint(u),
        Atom::Nint(i) => Item::nint(i),
        Atom::BigInt {
            negative,
            magnitude,
        } => {
            let t = if negative {
                ItemType::Nbig
            } else {
                ItemType::Pbig
            };
            Item::bytes(t, magnitude, int_header)
        }
        Atom::Hexlet(h) => Item::bytes(ItemType::Hexlet, h, h.as_ptr()),
        Atom::Float(f) => Item::bytes(ItemType::Float, f, f.as_ptr()),
        Atom::Tai64(l) => Item::bytes(ItemType::Tai64, l, l.as_ptr()),
        Atom::Magic(m) => Item::bytes(ItemType::Magic, m, m.as_ptr()),
        _ => Item::plain(ItemType::Invalid),
    }
}

impl<'a> Items<'a, &mut [Item]> {
    /// Applies one step (with `item`, its node if a leaf), as the grammar
    /// decides; `Ok(true)` when the document is complete. On error nothing
    /// was changed, so the step can be retried (NoMem) or the document
    /// rolled back.
    fn apply(&mut self, st: &mut ParseState, step: Step<'a>, item: Item) -> Result<bool, Error> {
        let fed = {
            // The open containers are part of the unfinished document:
            // read from the whole pool, not through `node`.
            let mut g = grammar_at(self.all_nodes(), st, self.opts.max_depth)?;
            // Rebuilt before each step, so no levels.
            g.feed_alone(step)?
        };
        match step {
            Step::Eoc => close_container(self.nodes, st, self.len).ok_or(Error::Invalid),
            Step::List => self.open(st, ItemType::List, None),
            Step::Map => self.open(st, ItemType::Map, None),
            Step::Blob(chunk) => self.open(st, ItemType::Blob, Some(chunk)),
            Step::Leaf | Step::Bin(_) | Step::Str(_) => {
                let idx = self.push(item)?;
                if fed == Fed::Key {
                    st.prev_key = idx;
                }
                let done = appended(self.nodes, st, idx).ok_or(Error::Invalid)?;
                if done || matches!(fed, Fed::Key | Fed::Item) {
                    return Ok(done);
                }
                // A BLOB's last chunk.
                close_container(self.nodes, st, self.len).ok_or(Error::Invalid)
            }
        }
    }

    /// Appends leaf `item` to the pool, linked speculatively to the node
    /// that comes next (see [`appended`]).
    fn push(&mut self, item: Item) -> Result<u32, Error> {
        let idx = self.alloc(1)?;
        *self.node_mut(idx)? = Item {
            next: idx + 1,
            ..item
        };
        Ok(idx)
    }

    /// Opens a container; a BLOB takes a second slot for its chunk length.
    fn open(
        &mut self,
        st: &mut ParseState,
        t: ItemType,
        blob_chunk: Option<u64>,
    ) -> Result<bool, Error> {
        let slots = if blob_chunk.is_some() { 2 } else { 1 };
        let idx = self.alloc(slots)?;
        if let Some(chunk) = blob_chunk {
            *self.node_mut(idx + 1)? = Item::blob_ext(chunk);
        }
        open_container(self.nodes, st, idx, t, slots).ok_or(Error::Invalid)?;
        Ok(false)
    }
}

// Siblings are linked speculatively: the pool is filled in document order,
// so a node's next sibling, if any, is the next node made after it (after
// its subtree, for a container). Each node is written with that index as
// its `next` (a container's first child likewise), and when a container
// closes, its last child's `next` (or, when empty, its `first`) is set to
// NONE. Appending a node is thus one store, with no branch on whether it
// is a first child.

/// Bookkeeping after node `idx` was placed as the next child of the open
/// container (or as the root). `Some(true)` when that completes the
/// document. `None` only for a broken state (an index outside the pool).
#[inline(always)]
fn appended(nodes: &mut [Item], st: &mut ParseState, idx: u32) -> Option<bool> {
    st.last = idx;
    st.count = st.count.wrapping_add(1);
    if st.cur == NONE {
        st.root = idx;
        nodes.get_mut(idx as usize)?.next = UNLINKED;
        return Some(true);
    }
    Some(false)
}

/// Makes node `idx` (with `slots` nodes reserved: a BLOB has 2) an open
/// container of type `t` in the current one and descends into it. While
/// open, its `next` field keeps its parent's child count.
#[inline(always)]
fn open_container(
    nodes: &mut [Item],
    st: &mut ParseState,
    idx: u32,
    t: ItemType,
    slots: u32,
) -> Option<()> {
    let mut node = Item::container(t, st.cur);
    node.links_mut().first = idx + slots;
    node.next = st.count.wrapping_add(1);
    if st.cur_type == ItemType::Map as u32 {
        node.meta |= OPEN_IN_MAP;
    }
    *nodes.get_mut(idx as usize)? = node;
    if st.cur == NONE {
        st.root = idx;
    }
    *st = ParseState {
        cur: idx,
        last: NONE,
        count: 0,
        depth: st.depth + 1,
        prev_key: NONE,
        cur_type: t as u32,
        ..*st
    };
    Some(())
}

/// Closes the open container and returns to its parent; `len` is the index
/// the next node will get. `Some(true)` when it was the document's root.
#[inline(always)]
fn close_container(nodes: &mut [Item], st: &mut ParseState, len: u32) -> Option<bool> {
    let c = st.cur;
    if st.count == 0 {
        nodes.get_mut(c as usize)?.links_mut().first = NONE;
    } else {
        nodes.get_mut(st.last as usize)?.next = NONE;
    }
    let node = nodes.get_mut(c as usize)?;
    let parent_count = node.next;
    node.set_size(st.count as usize);
    let parent = node.links().parent;
    node.next = if parent == NONE { UNLINKED } else { len };
    st.cur = parent;
    st.last = c;
    st.count = parent_count;
    st.depth -= 1;
    if parent == NONE {
        st.cur_type = ItemType::Invalid as u32;
        return Some(true);
    }
    st.cur_type = nodes.get(parent as usize)?.type_bits();
    // A container inside a MAP is a value; its key is the node made just
    // before it.
    if st.cur_type == ItemType::Map as u32 {
        st.prev_key = c.wrapping_sub(1);
    }
    Some(false)
}

/// Validates one whole item at the start of `buf` and returns how many
/// nodes its tree needs and how many bytes it takes, without building it
/// (so that a pool can be sized exactly).
///
/// Every atom is fully validated and the nesting checked: balanced
/// containers, BLOB chunks, `max_depth` (0 = no limit). MAP key
/// type, order and pairing are not: they need memory per nesting level,
/// which this pass does without; [`Items::parse`] and
/// [`validate`](crate::validate::validate) check them. It is the
/// validator's loop with the key rules off ([`crate::validate::count`]).
pub fn count_nodes(buf: &[u8], max_depth: u32) -> Result<(usize, usize), Error> {
    crate::validate::count(buf, max_depth)
}
