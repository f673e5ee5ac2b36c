//! The item tree: a whole document decoded into nodes inside memory the
//! caller hands over once (a static array is fine), never touching the heap.
//!
//! Nodes ([`Item`], 16 bytes) are linked by index: a container knows its
//! first child and its parent, every node knows its next sibling. So the
//! array can be moved or copied, an element can be inserted anywhere in a
//! list in O(1), and every walk (parse, encode, print) is a loop over links
//! with constant stack, whatever the nesting depth.
//!
//! Byte payloads are not copied: nodes point into the parsed input, or into
//! caller memory for nodes the caller creates; `'a` is that memory's
//! lifetime.
//!
//! ```
//! use keks::items::{Item, Items};
//! let doc = [0x08, 0x0C, 0x81, 0x7B, 0x02, 0x00]; // LIST [123, FALSE]
//! let mut pool = [Item::default(); 8];
//! let mut items = Items::new(&mut pool);
//! let mut off = 0;
//! let root = items.parse(&doc, &mut off).unwrap();
//! assert_eq!(off, doc.len());
//! assert_eq!(items.child_count(root), Ok(2));
//! let first = items.nth_child(root, 0).unwrap();
//! assert_eq!(items.get_uint(first), Ok(123));
//! let mut out = [0u8; 16];
//! let n = items.encode(root, &mut out).unwrap();
//! assert_eq!(&out[..n], &doc);
//! ```

mod build;
mod build_log;
mod check;
mod cursor;
mod edit;
mod encode;
#[cfg(test)]
mod encode_ref;
mod encode_sink;
mod fast;
mod free;
mod generation;
mod node;
mod parse;
mod read;
mod walk;

#[cfg(test)]
mod tests;

use core::marker::PhantomData;

pub use crate::rules::Options;
pub use build::Arena;
pub use build_log::{BuildFailure, BuildLog};
pub use check::Fault;
pub use cursor::Cursor;
capi_internal! {
/// The free list and the parser's state between calls: the parts of a
/// tree the C layer keeps in `struct YACItems`.
pub use free::{FreeList, FREE_META};
}
pub use node::{Item, ItemValue, Links, NONE, SIZE_ESC, SIZE_SHIFT, TYPE_MASK};
pub use parse::count_nodes;
capi_internal! {
pub use parse::ParseState;
}
pub use read::Node;
pub use walk::{Event, Walk, WalkState};

use crate::atom::ItemType;
use crate::error::Error;

/// Marks a node that is not linked into any tree (created by the caller or
/// removed, or the root of a parsed document): only such a node may be
/// inserted somewhere, which keeps every node in at most one place and
/// every walk finite.
pub const UNLINKED: u32 = u32::MAX - 1;

/// The largest number of nodes a pool may hold (indices stay below
/// [`UNLINKED`]).
pub const MAX_NODES: usize = (u32::MAX - 1) as usize;

/// A tree (or several) in a caller-provided node pool `S`: `&mut [Item]`
/// to parse and edit, `&[Item]` for a read-only view (navigation, walks,
/// encoding) that several threads may share.
pub struct Items<'a, S> {
    pub(crate) nodes: S,
    pub(crate) len: u32,
    /// Parser options; may be changed between documents.
    pub opts: Options,
    pub(crate) state: ParseState,
    /// Nodes freed by [`Items::free`], for the next nodes made.
    pub(crate) free: FreeList,
    /// The sticky build error and the MAP append hint.
    pub(crate) log: BuildLog,
    pub(crate) _input: PhantomData<&'a [u8]>,
}

/// A mutable tree over a borrowed pool.
pub type ItemsMut<'p, 'a> = Items<'a, &'p mut [Item]>;
/// A read-only tree over a borrowed pool.
pub type ItemsRef<'p, 'a> = Items<'a, &'p [Item]>;

impl<'p, 'a> Items<'a, &'p mut [Item]> {
    /// An empty tree over `pool`. Only the first [`MAX_NODES`] nodes of a
    /// larger pool are used. The tree takes a fresh edit generation, so no
    /// cursor made before (for an earlier tree over the same pool
    /// included) is valid for it.
    pub fn new(pool: &'p mut [Item]) -> Self {
        let mut items = Items::over(pool, ParseState::idle());
        items.state.gen = generation::fresh();
        items
    }

    /// A tree over `pool` (its first [`MAX_NODES`] nodes) with no node in
    /// use and parser state `state`.
    fn over(pool: &'p mut [Item], state: ParseState) -> Self {
        let cap = pool.len().min(MAX_NODES);
        let nodes = match pool.get_mut(..cap) {
            Some(n) => n,
            None => &mut [],
        };
        Items {
            nodes,
            len: 0,
            opts: Options::default(),
            state,
            free: FreeList::EMPTY,
            log: BuildLog::EMPTY,
            _input: PhantomData,
        }
    }

    capi_internal! {
    /// Rebuilds a tree from its parts (the C layer keeps them in `struct
    /// YACItems` between calls).
    ///
    /// # Safety
    /// `pool[..len]` must hold nodes made by this module for input that
    /// lives for `'a`, unchanged since (or changed only by this module), and
    /// `state` and `free` must be what those calls left.
    pub unsafe fn from_parts(
        pool: &'p mut [Item],
        len: u32,
        opts: Options,
        state: ParseState,
        free: FreeList,
        log: BuildLog,
    ) -> Self {
        let mut items = Items::over(pool, state);
        items.len = len.min(items.cap());
        items.opts = opts;
        items.free = free;
        items.log = log;
        items
    }
    }

    capi_internal! {
    /// The free list (the C layer keeps it in `struct YACItems`).
    pub fn free_list(&self) -> FreeList {
        self.free
    }
    }

    capi_internal! {
    /// The parser's state between calls (the C layer keeps it in `struct
    /// YACItems`, and gives it back to [`Items::from_parts`]).
    pub fn parse_state(&self) -> ParseState {
        self.state
    }
    }

    /// A read-only view of the same tree.
    pub fn view(&self) -> ItemsRef<'_, 'a> {
        Items {
            nodes: &*self.nodes,
            len: self.len,
            opts: self.opts,
            state: self.state,
            free: self.free,
            log: self.log,
            _input: PhantomData,
        }
    }

    /// Moves the tree into a larger pool (for hosts that grow it) and
    /// returns it there. Fails with `NoMem` if `bigger` is too small.
    pub fn move_to<'q>(self, bigger: &'q mut [Item]) -> Result<ItemsMut<'q, 'a>, Error> {
        let used = self.all_nodes();
        let dst = bigger.get_mut(..used.len()).ok_or(Error::NoMem)?;
        dst.copy_from_slice(used);
        let (len, opts, state, free, log) = (self.len, self.opts, self.state, self.free, self.log);
        let mut items = Items::over(bigger, state);
        items.len = len;
        items.opts = opts;
        items.free = free;
        items.log = log;
        Ok(items)
    }

    /// Drops every node (and any unfinished parse). Every cursor becomes
    /// stale.
    pub fn clear(&mut self) {
        self.len = 0;
        self.free = FreeList::EMPTY;
        self.log = BuildLog::EMPTY;
        self.state = ParseState {
            gen: generation::fresh(),
            ..ParseState::idle()
        };
    }

    /// Refuses an edit while a parse is unfinished: the open document's
    /// nodes are linked speculatively (to nodes not made yet) and the
    /// parser's state points into them, so no edit may touch the pool
    /// until the parse ends or [`Items::abort`] drops it.
    #[inline]
    fn editable(&self) -> Result<(), Error> {
        if self.state.active != 0 {
            return Err(Error::Invalid);
        }
        Ok(())
    }

    /// Records an edit that unlinked a node (or dropped nodes): every
    /// cursor made before it becomes stale.
    #[inline]
    fn bump_gen(&mut self) {
        self.state.gen = generation::fresh();
        self.log.drop_hint();
    }

    #[inline]
    fn node_mut(&mut self, idx: u32) -> Result<&mut Item, Error> {
        let len = self.len as usize;
        self.nodes
            .get_mut(..len)
            .and_then(|n| n.get_mut(idx as usize))
            .ok_or(Error::Invalid)
    }

    /// Reserves `n` consecutive nodes at the end of the pool.
    #[inline]
    fn alloc(&mut self, n: u32) -> Result<u32, Error> {
        let idx = self.len;
        let end = idx
            .checked_add(n)
            .filter(|&e| e <= self.cap())
            .ok_or(Error::NoMem)?;
        self.len = end;
        Ok(idx)
    }
}

impl<'p, 'a> Items<'a, &'p [Item]> {
    capi_internal! {
    /// A read-only tree over `nodes[..len]` with parser state `state`
    /// (the C layer's view; the nodes of an unfinished parse stay
    /// invisible, and cursors see the edit generation).
    ///
    /// # Safety
    /// The nodes must have been made by this module (parse or edits) for
    /// input living for `'a`, unchanged since, and `state` the state those
    /// calls left.
    pub unsafe fn view_parts(nodes: &'p [Item], len: u32, state: ParseState) -> Self {
        let len = len.min(nodes.len().min(MAX_NODES) as u32);
        Items {
            nodes,
            len,
            opts: Options::default(),
            state,
            free: FreeList::EMPTY,
            log: BuildLog::EMPTY,
            _input: PhantomData,
        }
    }
    }
}

impl<'a, S: AsRef<[Item]>> Items<'a, S> {
    /// Number of nodes in use.
    pub fn len(&self) -> usize {
        self.len as usize
    }

    /// Whether no node is in use.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Number of nodes the pool can hold.
    pub fn capacity(&self) -> usize {
        self.nodes.as_ref().len()
    }

    fn cap(&self) -> u32 {
        self.nodes.as_ref().len() as u32
    }

    /// Whether a parse is unfinished (it returned `NotEnough` or `NoMem`
    /// and was neither continued to its end nor aborted). Edits are
    /// refused meanwhile, and the unfinished document's nodes are not
    /// visible ([`Items::get`], navigation, encoding and walks see the
    /// pool as it was before that document began).
    pub fn parsing(&self) -> bool {
        self.state.active != 0
    }

    /// The number of nodes visible to navigation and edits: all of them,
    /// except those of an unfinished parse.
    #[inline]
    fn visible_len(&self) -> u32 {
        if self.state.active != 0 {
            self.state.start.min(self.len)
        } else {
            self.len
        }
    }

    /// The nodes in use, except those of an unfinished parse.
    pub fn nodes(&self) -> &[Item] {
        let n = self.visible_len() as usize;
        self.nodes.as_ref().get(..n).unwrap_or(&[])
    }

    /// Every node in use, an unfinished parse's included (whose links are
    /// the parser's until it ends).
    pub fn all_nodes(&self) -> &[Item] {
        self.nodes.as_ref().get(..self.len as usize).unwrap_or(&[])
    }

    /// The node at `idx`, if in use (and not part of an unfinished parse).
    #[inline]
    pub fn get(&self, idx: u32) -> Option<&Item> {
        self.nodes().get(idx as usize)
    }

    #[inline]
    fn node(&self, idx: u32) -> Result<&Item, Error> {
        self.get(idx).ok_or(Error::Invalid)
    }

    /// The type of node `idx` (`Invalid` when out of range).
    pub fn item_type(&self, idx: u32) -> ItemType {
        self.get(idx).map_or(ItemType::Invalid, Item::item_type)
    }

    /// The payload of a bytes node (HEXLET, FLOAT, TAI64, MAGIC, BIN, STR,
    /// Pbig, Nbig).
    pub fn bytes(&self, idx: u32) -> Result<&'a [u8], Error> {
        let item = self.node(idx)?;
        match item.item_type() {
            ItemType::Hexlet
            | ItemType::Float
            | ItemType::Tai64
            | ItemType::Magic
            | ItemType::Bin
            | ItemType::Str
            | ItemType::Pbig
            | ItemType::Nbig => Ok(payload(item)),
            _ => Err(Error::Invalid),
        }
    }
}

/// The payload of a bytes node that `Items<'_, 'a>` holds.
///
/// Every bytes node in use was made by the parser from a `&'a [u8]` input,
/// or by the edit functions from a `&'a [u8]` the caller lent; `Items` keeps
/// that borrow alive for `'a` through its `PhantomData`, and the pool is
/// mutably borrowed by `Items`, so no one else can have changed the node.
/// Nodes in C pools carry the same promise from the C caller (see the
/// safety contract of `YACItemsParse`).
#[inline]
fn payload<'a>(item: &Item) -> &'a [u8] {
    let size = item.size();
    let ptr = item.ptr();
    if size != SIZE_ESC {
        // SAFETY: per the invariant above, `ptr` points at `size` readable
        // bytes of an input living for 'a.
        return unsafe { core::slice::from_raw_parts(ptr, size as usize) };
    }
    // The size escaped: `ptr` is the 9-byte wire header (tag, u64 length
    // minus 65853) that precedes the payload in the same input.
    // SAFETY: the parser stores a header pointer only for payloads of at
    // least 65853 bytes, whose header is the 9-byte form, in the input.
    let head = unsafe { core::slice::from_raw_parts(ptr, 9) };
    let len = head
        .get(1..9)
        .and_then(|b| <[u8; 8]>::try_from(b).ok())
        .map(u64::from_be_bytes)
        .and_then(|x| x.checked_add(crate::atom::LEN_8_BASE))
        .and_then(|x| usize::try_from(x).ok())
        .unwrap_or(0);
    // SAFETY: the parser checked that the whole payload follows the header
    // inside the input (the header's length was validated against it).
    unsafe { core::slice::from_raw_parts(ptr.wrapping_add(9), len) }
}
