//! Parsing a document into the tree, incrementally, with constant stack.
//!
//! The open containers form a stack threaded through the nodes themselves:
//! a container links to its parent, and while it is open its own `next`
//! field (not needed until its next sibling arrives) keeps the parent's
//! child count. So the parser's whole state is a handful of words
//! ([`ParseState`]), kept between calls: when the input ends inside the
//! document the parser stops before the incomplete atom and continues from
//! there when called again with more bytes.

use super::node::{Item, NONE};
use super::{payload, Items, UNLINKED};
use crate::atom::{self, tag, Atom, ItemType};
use crate::error::Error;
use crate::utf8;

/// Where an unfinished parse stands. Plain words with a C layout, so that
/// the C layer can keep it inside `struct YACItems`; callers treat it as
/// opaque.
#[repr(C)]
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
}

impl ParseState {
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
        }
    }
}

impl Default for ParseState {
    fn default() -> Self {
        Self::idle()
    }
}

/// What one atom turned into.
enum Step<'a> {
    /// A leaf node to append.
    Leaf(Item),
    /// A STR that may be a MAP key (kept apart for the key checks).
    Str(Item, &'a [u8]),
    /// A LIST or MAP to open.
    Open(ItemType),
    /// A BLOB header to open.
    Blob(u64),
    /// EOC.
    Close,
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
    /// An `*off` beyond `buf` is `Err(Invalid)`, with nothing changed.
    pub fn parse(&mut self, buf: &'a [u8], off: &mut usize) -> Result<u32, Error> {
        if *off > buf.len() {
            return Err(Error::Invalid);
        }
        if self.state.active == 0 {
            self.state = ParseState {
                start: self.len,
                active: 1,
                ..ParseState::idle()
            };
        }
        match self.parse_atoms(buf, off) {
            Ok(root) => {
                self.state = ParseState::idle();
                Ok(root)
            }
            Err(e @ (Error::NotEnough(_) | Error::NoMem)) => Err(e),
            Err(e) => {
                self.abort();
                Err(e)
            }
        }
    }

    /// Abandons an unfinished parse: the pool goes back to where that
    /// document began.
    pub fn abort(&mut self) {
        if self.state.active != 0 {
            self.len = self.state.start.min(self.len);
        }
        self.state = ParseState::idle();
    }

    /// The atom loop. `*off` is kept at the first unconsumed byte.
    fn parse_atoms(&mut self, buf: &'a [u8], off: &mut usize) -> Result<u32, Error> {
        let mut st = self.state;
        let result = loop {
            let rest = buf.get(*off..).unwrap_or(&[]);
            let (step, used) = match self.decode_step(rest) {
                Ok(s) => s,
                Err(e) => break Err(e),
            };
            match self.apply(&mut st, step) {
                Ok(done) => {
                    *off += used;
                    if done {
                        break Ok(st.root);
                    }
                }
                Err(e) => break Err(e),
            }
        };
        self.state = st;
        result
    }

    /// Decodes the atom at the start of `rest` into a parser step.
    #[inline(always)]
    fn decode_step(&self, rest: &'a [u8]) -> Result<(Step<'a>, usize), Error> {
        let t = *rest.first().ok_or(Error::NotEnough(1))?;
        if t >= tag::BIN {
            let (body, used) = atom::string_raw(rest)?;
            if t >= tag::STR {
                if !self.opts.trust_utf8 {
                    utf8::check_str(body)?;
                }
                return Ok((
                    Step::Str(Item::bytes(ItemType::Str, body, rest.as_ptr()), body),
                    used,
                ));
            }
            return Ok((
                Step::Leaf(Item::bytes(ItemType::Bin, body, rest.as_ptr())),
                used,
            ));
        }
        let (a, used) = atom::decode(rest)?;
        let int_header = rest.get(1..).unwrap_or(&[]).as_ptr();
        let step = match a {
            Atom::Eoc => Step::Close,
            Atom::Nil => Step::Leaf(Item::plain(ItemType::Nil)),
            Atom::Bool(false) => Step::Leaf(Item::plain(ItemType::False)),
            Atom::Bool(true) => Step::Leaf(Item::plain(ItemType::True)),
            Atom::Uint(u) => Step::Leaf(Item::uint(u)),
            Atom::Nint(i) => Step::Leaf(Item::nint(i)),
            Atom::BigInt {
                negative,
                magnitude,
            } => {
                let t = if negative {
                    ItemType::Nbig
                } else {
                    ItemType::Pbig
                };
                Step::Leaf(Item::bytes(t, magnitude, int_header))
            }
            Atom::List => Step::Open(ItemType::List),
            Atom::Map => Step::Open(ItemType::Map),
            Atom::Blob {
                chunk_len_minus_one,
            } => Step::Blob(chunk_len_minus_one),
            Atom::Hexlet(h) => Step::Leaf(Item::bytes(ItemType::Hexlet, h, h.as_ptr())),
            Atom::Float(f) => Step::Leaf(Item::bytes(ItemType::Float, f, f.as_ptr())),
            Atom::Tai64(l) => Step::Leaf(Item::bytes(ItemType::Tai64, l, l.as_ptr())),
            Atom::Magic(m) => Step::Leaf(Item::bytes(ItemType::Magic, m, m.as_ptr())),
            // Handled above; kept for exhaustiveness.
            Atom::Bin(b) => Step::Leaf(Item::bytes(ItemType::Bin, b, rest.as_ptr())),
            Atom::Str(s) => Step::Str(
                Item::bytes(ItemType::Str, s.as_bytes(), rest.as_ptr()),
                s.as_bytes(),
            ),
        };
        Ok((step, used))
    }

    /// Applies one step; `Ok(true)` when the document is complete. On error
    /// nothing was changed, so the step can be retried (NoMem) or the
    /// document rolled back.
    #[inline(always)]
    fn apply(&mut self, st: &mut ParseState, step: Step<'a>) -> Result<bool, Error> {
        let parent = self.container_type(st.cur)?;
        if parent == ItemType::Blob {
            return self.blob_chunk(st, step);
        }
        let key_due = parent == ItemType::Map && st.count % 2 == 0;
        match step {
            Step::Close => self.close(st, parent),
            Step::Str(item, key) => {
                if key_due {
                    self.check_key(st, key)?;
                }
                let idx = self.alloc(1)?;
                self.place(idx, item)?;
                if key_due {
                    st.prev_key = idx;
                }
                Ok(self.append(st, idx)?)
            }
            _ if key_due => Err(Error::MapBadKey),
            Step::Leaf(item) => {
                let idx = self.alloc(1)?;
                self.place(idx, item)?;
                self.append(st, idx)
            }
            Step::Open(t) => self.open(st, t, 1, 0),
            Step::Blob(chunk) => self.open(st, ItemType::Blob, 2, chunk),
        }
    }

    /// Type of the open container `cur` (`Invalid` at top level).
    #[inline(always)]
    fn container_type(&self, cur: u32) -> Result<ItemType, Error> {
        if cur == NONE {
            return Ok(ItemType::Invalid);
        }
        Ok(self.node(cur)?.item_type())
    }

    #[inline(always)]
    fn place(&mut self, idx: u32, item: Item) -> Result<(), Error> {
        *self.node_mut(idx)? = item;
        Ok(())
    }

    /// A MAP key must be a non-empty STR above the previous key.
    #[inline(always)]
    fn check_key(&self, st: &ParseState, key: &[u8]) -> Result<(), Error> {
        if key.is_empty() {
            return Err(Error::MapBadKey);
        }
        if st.prev_key != NONE {
            let prev = payload(self.node(st.prev_key)?);
            if !key_above(key, prev) {
                return Err(Error::MapUnordered);
            }
        }
        Ok(())
    }

    /// Links the new node `idx` as the last child of `cur` (or as the
    /// root). `Ok(true)` when that completes the document.
    #[inline(always)]
    fn append(&mut self, st: &mut ParseState, idx: u32) -> Result<bool, Error> {
        if st.last != NONE {
            self.node_mut(st.last)?.next = idx;
        } else if st.cur != NONE {
            self.node_mut(st.cur)?.links_mut().first = idx;
        } else {
            st.root = idx;
        }
        st.last = idx;
        st.count = st.count.wrapping_add(1);
        if st.cur == NONE {
            self.node_mut(idx)?.next = UNLINKED;
            return Ok(true);
        }
        Ok(false)
    }

    /// Opens a container of `slots` nodes (BLOB: 2, the second holding the
    /// chunk length).
    fn open(
        &mut self,
        st: &mut ParseState,
        t: ItemType,
        slots: u32,
        chunk: u64,
    ) -> Result<bool, Error> {
        let depth = st.depth + 1;
        if self.opts.max_depth != 0 && depth > self.opts.max_depth {
            return Err(Error::DeepRecursion);
        }
        let idx = self.alloc(slots)?;
        self.place(idx, Item::container(t, st.cur))?;
        if slots == 2 {
            self.place(idx + 1, Item::blob_ext(chunk))?;
        }
        self.append(st, idx)?;
        // While open, the container's `next` keeps its parent's count.
        self.node_mut(idx)?.next = st.count;
        *st = ParseState {
            cur: idx,
            last: NONE,
            count: 0,
            depth,
            prev_key: NONE,
            ..*st
        };
        Ok(false)
    }

    /// Closes `cur` (EOC, or the end of a BLOB). `Ok(true)` when it was the
    /// root.
    fn close(&mut self, st: &mut ParseState, t: ItemType) -> Result<bool, Error> {
        match t {
            ItemType::Invalid => return Err(Error::UnexpectedEoc),
            ItemType::Map if st.count % 2 == 1 => return Err(Error::MapNoVal),
            _ => {}
        }
        let c = st.cur;
        let node = self.node_mut(c)?;
        let parent_count = node.next;
        node.next = NONE;
        node.set_size(st.count as usize);
        let parent = node.links().parent;
        st.cur = parent;
        st.last = c;
        st.count = parent_count;
        st.depth -= 1;
        if parent == NONE {
            self.node_mut(c)?.next = UNLINKED;
            return Ok(true);
        }
        // A container inside a MAP is a value; its key is the node made
        // just before it.
        if self.node(parent)?.item_type() == ItemType::Map {
            st.prev_key = c.wrapping_sub(1);
        }
        Ok(false)
    }

    /// A step inside a BLOB: full chunks continue it, a shorter one ends it.
    fn blob_chunk(&mut self, st: &mut ParseState, step: Step<'a>) -> Result<bool, Error> {
        let Step::Leaf(item) = step else {
            return Err(Error::BlobBadTerm);
        };
        if item.item_type() != ItemType::Bin {
            return Err(Error::BlobBadTerm);
        }
        let chunk_minus_one = self.node(st.cur + 1)?.raw_u64();
        let len = payload(&item).len() as u64;
        let full = len != 0 && len - 1 == chunk_minus_one;
        if len != 0 && len - 1 > chunk_minus_one {
            return Err(Error::BlobBadChunk);
        }
        let idx = self.alloc(1)?;
        self.place(idx, item)?;
        self.append(st, idx)?;
        if full {
            Ok(false)
        } else {
            self.close(st, ItemType::Blob)
        }
    }
}

/// Whether MAP key `key` sorts strictly above `prev`: by length, then
/// bytewise.
#[inline(always)]
pub(crate) fn key_above(key: &[u8], prev: &[u8]) -> bool {
    (key.len(), key) > (prev.len(), prev)
}

/// Validates one whole item at the start of `buf` and returns how many
/// nodes its tree needs and how many bytes it takes, without building it
/// (so that a pool can be sized exactly).
///
/// Every atom is fully validated and the nesting checked: balanced
/// containers, BLOB chunk rules, `max_depth` (0 = no limit). MAP key
/// type, order and pairing are not: they need memory per nesting level,
/// which this pass does without; [`Items::parse`] checks them.
pub fn count_nodes(buf: &[u8], max_depth: u32) -> Result<(usize, usize), Error> {
    let mut off = 0usize;
    let mut nodes = 0usize;
    let mut depth = 0u32;
    let mut blob_chunk: Option<u64> = None;
    loop {
        let rest = buf.get(off..).unwrap_or(&[]);
        let (a, used) = atom::decode(rest)?;
        off += used;
        if let Some(chunk_minus_one) = blob_chunk {
            let Atom::Bin(b) = a else {
                return Err(Error::BlobBadTerm);
            };
            let len = b.len() as u64;
            nodes += 1;
            if len != 0 && len - 1 > chunk_minus_one {
                return Err(Error::BlobBadChunk);
            }
            if len == 0 || len - 1 < chunk_minus_one {
                blob_chunk = None;
                depth -= 1;
                if depth == 0 {
                    return Ok((nodes, off));
                }
            }
            continue;
        }
        match a {
            Atom::Eoc => {
                depth = depth.checked_sub(1).ok_or(Error::UnexpectedEoc)?;
                if depth == 0 {
                    return Ok((nodes, off));
                }
                continue;
            }
            Atom::List | Atom::Map | Atom::Blob { .. } => {
                depth += 1;
                if max_depth != 0 && depth > max_depth {
                    return Err(Error::DeepRecursion);
                }
                nodes += 1;
                if let Atom::Blob {
                    chunk_len_minus_one,
                } = a
                {
                    nodes += 1;
                    blob_chunk = Some(chunk_len_minus_one);
                }
            }
            _ => nodes += 1,
        }
        if depth == 0 {
            return Ok((nodes, off));
        }
    }
}
