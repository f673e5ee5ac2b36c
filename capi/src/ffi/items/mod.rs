//! C API of the item tree (`struct YACItems`, `YACItemsParse`, navigation,
//! edits, `YACItemsEncode`).
//!
//! Ownership and lifetimes, for every function here: the node pool belongs
//! to the caller (`YACItemsInit` keeps a pointer to it in `struct
//! YACItems`; nothing is ever freed by libyac). Nodes point into the
//! buffers given to `YACItemsParse` and to the `YACItemsAdd*` functions:
//! those bytes must stay valid and unchanged for as long as the tree is
//! used. Nodes may be read directly (the layout is public), but must be
//! changed only through these functions.
//!
//! Edits: every call either succeeds and leaves every tree of the pool
//! consistent (`YACItemsCheck` says what that means), or fails and changes
//! nothing. Every edit is refused while a parse is unfinished
//! (`YACItemsParsing`).

use core::ffi::{c_char, c_uchar, c_void, CStr};
use core::mem::MaybeUninit;

use super::atom::YACAtom;
use super::{inp, input, out, output, run, YACErr, YACItemType};
use yac::atom::Atom;
use yac::error::Error;
use yac::items::{
    BuildLog, Event, FreeList, Item, ItemsMut, ItemsRef, Options, ParseState, WalkState, MAX_NODES,
    NONE,
};
use yac::validate::count_at;

mod edit;
mod encode;
mod read;
pub use edit::*;
pub use encode::*;
pub use read::*;

/// Flags of `struct YACItems` (bits of its `flags` word).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YACItemsFlag {
    /// Skip UTF-8 (and NUL) validation of STR payloads: trusted input only.
    YACItemsTrustUTF8 = 1,
}

/// The bits of `struct YACItem.meta`, which the header's inline readers
/// use: the type in the low bits, the size above (a byte length, or a
/// child count) up to `YACItemSizeEsc`, which means "does not fit: ask
/// `YACItemsChildCount` / `YACItemsGetBytes`".
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YACItemMeta {
    /// Mask of the type bits (a `YACItemType` value).
    YACItemTypeMask = 0x1F,
    /// Shift of the size bits.
    YACItemSizeShift = 5,
    /// The size that means "too large for the meta word".
    YACItemSizeEsc = (1 << 27) - 1,
}

// The C constants are the core's node layout.
const _: () = {
    assert!(YACItemMeta::YACItemTypeMask as u32 == yac::items::TYPE_MASK);
    assert!(YACItemMeta::YACItemSizeShift as u32 == yac::items::SIZE_SHIFT);
    assert!(YACItemMeta::YACItemSizeEsc as u32 == yac::items::SIZE_ESC);
    assert!(u32::MAX >> YACItemMeta::YACItemSizeShift as u32 == yac::items::SIZE_ESC);
};

/// Growth callback: like `realloc`, return a block of at least
/// `*newCap` nodes (set `*newCap` to what you allocated, more is fine)
/// holding the first `oldCap` nodes of `old`, or NULL to refuse. libyac
/// proposes `*newCap` = twice `oldCap` (at least 64).
pub type YACItemsGrowFn = Option<
    unsafe extern "C" fn(
        ctx: *mut c_void,
        old: *mut Item,
        old_cap: usize,
        new_cap: *mut usize,
    ) -> *mut Item,
>;

/// A tree in caller memory: the node pool, its use, and the parser's
/// options and state. Initialise with `YACItemsInit`; then `list`, `len`
/// and `cap` may be read, `maxDepth`, `flags`, `grow` and `growCtx` set.
/// Nodes are taken from the end of the pool (`len` grows) or, for the
/// adders, from the nodes `YACItemsFree` gave back: see there for how
/// pool use grows under edits.
#[repr(C)]
#[allow(non_snake_case)]
pub struct YACItems {
    /// The node pool (caller memory).
    pub list: *mut Item,
    /// Nodes in use.
    pub len: u32,
    /// Nodes the pool holds.
    pub cap: u32,
    /// Deepest nesting accepted by the parser; 0 = no limit.
    pub maxDepth: u32,
    /// `YACItemsFlag` bits.
    pub flags: u32,
    /// Optional pool growth (NULL: running out of nodes is `YACErrNoMem`).
    pub grow: YACItemsGrowFn,
    /// Passed to `grow`.
    pub growCtx: *mut c_void,
    /// Internal: where an unfinished parse stands, the free list and the
    /// builder's sticky error. Set by `YACItemsInit`, kept by libyac
    /// between calls; never read or write it.
    pub reserved: [u32; 20],
}

/// Where a walk stands. Set up with `YACItemsWalkInit`; the words are
/// libyac's (a walk needs no other memory, so C code walks without
/// recursion too); never read or write them.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct YACWalk {
    /// Internal state.
    pub reserved: [u32; 8],
}

impl YACWalk {
    fn state(&self) -> WalkState {
        WalkState::from_words(prefix(&self.reserved))
    }

    fn set_state(&mut self, w: WalkState) {
        store(&mut self.reserved, w.to_words());
    }
}

/// The first `N` of the reserved words `words`.
fn prefix<const N: usize, const M: usize>(words: &[u32; M]) -> [u32; N] {
    const { assert!(N <= M, "the state fits the reserved words") };
    *words.first_chunk().unwrap_or(&[0; N])
}

/// Stores `state` in the first words of `words`, zeroing the rest.
fn store<const N: usize, const M: usize>(words: &mut [u32; M], state: [u32; N]) {
    const { assert!(N <= M, "the state fits the reserved words") };
    *words = core::array::from_fn(|i| if i < N { state[i] } else { 0 });
}

/// What `YACItemsWalkNext` found.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YACWalkEvent {
    /// The walk is over.
    YACWalkEnd = 0,
    /// A node that is not a container.
    YACWalkLeaf = 1,
    /// A LIST, MAP or BLOB, before its children.
    YACWalkEnter = 2,
    /// The same container, after its children.
    YACWalkExit = 3,
}

impl YACItems {
    fn state(&self) -> ParseState {
        ParseState::from_words(prefix(&self.reserved))
    }

    /// The reserved word `i`, `NONE` past the end.
    fn word(&self, i: usize) -> u32 {
        self.reserved.get(i).copied().unwrap_or(NONE)
    }

    /// The free list, kept in the reserved words after the parser's state.
    pub(super) fn free_list(&self) -> FreeList {
        let at = ParseState::WORDS;
        FreeList::from_words(core::array::from_fn(|i| self.word(at + i)))
    }

    /// The builder's log, kept after the free list.
    pub(super) fn build_log(&self) -> BuildLog {
        let at = ParseState::WORDS + FreeList::WORDS;
        BuildLog::from_words(core::array::from_fn(|i| self.word(at + i)))
    }

    /// Stores the parser's state, the free list and the builder's log in
    /// the reserved words, in that order, zeroing the rest.
    fn set_state(&mut self, s: ParseState, free: FreeList, log: BuildLog) {
        const FREE: usize = ParseState::WORDS;
        const LOG: usize = FREE + FreeList::WORDS;
        const END: usize = LOG + BuildLog::WORDS;
        const { assert!(END <= 20, "all fit") };
        let r = &mut self.reserved;
        r[..FREE].copy_from_slice(&s.to_words());
        r[FREE..LOG].copy_from_slice(&free.to_words());
        r[LOG..END].copy_from_slice(&log.to_words());
        r[END..].fill(0);
    }

    fn options(&self) -> Options {
        Options {
            max_depth: self.maxDepth,
            trust_utf8: self.flags & YACItemsFlag::YACItemsTrustUTF8 as u32 != 0,
        }
    }
}

/// Runs `f` on the tree of `items` (mutable) and stores its new length and
/// parser state back.
///
/// # Safety
/// `items` must be NULL or point to a `struct YACItems` set up by
/// `YACItemsInit` and changed only by libyac since (fields the caller may
/// set excepted), with `list` valid for `cap` nodes.
pub(super) unsafe fn with_mut<R>(
    items: *mut YACItems,
    f: impl FnOnce(&mut ItemsMut<'_, 'static>) -> Result<R, Error>,
) -> Result<R, YACErr> {
    // SAFETY: per this function's contract.
    let it = unsafe { out(items)? };
    if it.list.is_null() && it.cap != 0 {
        return Err(YACErr::YACErrInvalid);
    }
    let pool: &mut [Item] = if it.list.is_null() {
        &mut []
    } else {
        // SAFETY: `list` is non-NULL and valid for `cap` nodes (contract);
        // the pool is distinct from `*items`, and no other reference to it
        // exists during the call.
        unsafe { core::slice::from_raw_parts_mut(it.list, it.cap as usize) }
    };
    // SAFETY: the pool holds what earlier libyac calls left (contract),
    // with input the caller keeps alive for as long as the tree is used.
    let mut tree = unsafe {
        ItemsMut::from_parts(
            pool,
            it.len,
            it.options(),
            it.state(),
            it.free_list(),
            it.build_log(),
        )
    };
    let r = f(&mut tree);
    it.len = tree.len() as u32;
    it.set_state(tree.parse_state(), tree.free_list(), tree.build_log());
    r.map_err(YACErr::from)
}

/// Runs `f` on a read-only view of the tree of `items`.
///
/// # Safety
/// As for `with_mut`, with `items` only read.
pub(super) unsafe fn with_ref<R>(
    items: *const YACItems,
    f: impl FnOnce(&ItemsRef<'_, 'static>) -> Result<R, Error>,
) -> Result<R, YACErr> {
    let mut tree = MaybeUninit::uninit();
    // SAFETY: per this function's contract.
    unsafe { view(items, &mut tree)? };
    // SAFETY: `view` succeeded, so it wrote the view.
    f(unsafe { tree.assume_init_ref() }).map_err(YACErr::from)
}

/// Writes the read-only view of the tree of `items` (an empty one without
/// a pool) to `tree`. One copy for every reader, writing in place: the
/// view is some 25 words to set up.
///
/// # Safety
/// As for `with_ref`; the view must not outlive the call that made it.
#[inline(never)]
unsafe fn view<'p>(
    items: *const YACItems,
    tree: &mut MaybeUninit<ItemsRef<'p, 'static>>,
) -> Result<(), YACErr> {
    // SAFETY: per this function's contract.
    let it = unsafe { inp(items)? };
    let (pool, state): (&[Item], _) = if it.list.is_null() {
        (&[], ParseState::idle())
    } else {
        // SAFETY: `list` is valid for `cap` nodes (contract), only read
        // while the view is used (by the caller's call).
        let pool = unsafe { core::slice::from_raw_parts(it.list, it.len.min(it.cap) as usize) };
        (pool, it.state())
    };
    // SAFETY: the nodes were made by libyac for input kept alive by the
    // caller, and the state is what the calls that made them left
    // (contract); an empty pool holds no node, so no invariant can fail.
    tree.write(unsafe { ItemsRef::view_parts(pool, it.len, state) });
    Ok(())
}

/// Sets up `items` over the caller's pool `mem` of `cap` nodes (a static
/// array is fine; pools above 2^32 - 2 nodes are used up to that). No
/// allocation, ever, unless `items->grow` is set. `mem` may be NULL with
/// `cap` 0 (then every parse needs `grow`). The pool must outlive `items`.
///
/// # Safety
/// `items` must point to writable memory for a `struct YACItems`; `mem` to
/// `cap` writable nodes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsInit(items: *mut YACItems, mem: *mut Item, cap: usize) -> YACErr {
    run(|| {
        if mem.is_null() && cap != 0 {
            return Err(YACErr::YACErrInvalid);
        }
        // SAFETY: checked for NULL by `out`; writable per the contract.
        let it = unsafe { out(items)? };
        *it = YACItems {
            list: mem,
            len: 0,
            cap: cap.min(MAX_NODES) as u32,
            maxDepth: 0,
            flags: 0,
            grow: None,
            growCtx: core::ptr::null_mut(),
            reserved: [0; 20],
        };
        // A new tree: a fresh edit generation, so that every cursor made
        // before (of an earlier tree over this pool too) is stale here.
        it.set_state(ParseState::new_tree(), FreeList::EMPTY, BuildLog::EMPTY);
        Ok(())
    })
}

/// Parses one whole item (with all descendants) from `buf[*off]`, `len`
/// bytes of input in all, into new nodes of `items`; `*root` gets the index
/// of its root node and `*off` advances past it. Validates everything the
/// format demands (UTF-8 unless `YACItemsTrustUTF8`, minimal forms, MAP
/// key order, BLOB and TAI64 rules, `maxDepth`). Never allocates: when the
/// pool is full it calls `items->grow` if set, else fails.
///
/// Nodes point into `buf`, which must stay valid and unchanged while the
/// tree is used. The call may be repeated on the same tree: each parse adds
/// nodes after the existing ones (so documents can be grafted together).
///
/// Incremental input: on `YACErrNotEnough` `*off` is at the first byte not
/// yet consumed and the progress is kept in `items`; call again with the
/// same `buf` (same address, with more bytes: `len` larger) and `*off`.
/// While a parse is unfinished (`YACItemsParsing`), a call with another
/// `buf` address or another `*off` is refused with `YACErrInvalid` and
/// changes nothing, so a new document is never taken for the rest of an
/// old one (`YACItemsAbort` drops the old one); every edit is refused; and
/// the unfinished document's nodes are invisible (navigation, getters,
/// encoding and walks see the pool as before it began).
/// On `YACErrNoMem` (no `grow`, or it refused) and on every other error,
/// the nodes of this document are dropped (`items->len` is back to what it
/// was before the document began, and only the pool's unused nodes past it
/// may have been written) and `*off` is at the offending atom.
///
/// Limits: at most 2^32 - 2 nodes in a pool; `maxDepth` (0: none) on
/// nesting; no limit on lengths (a BIN/STR of 2^27 - 1 bytes or more
/// keeps pointing at its wire header) or on the number of children (2^27
/// - 1 or more makes `YACItemsChildCount` O(n)).
///
/// # Safety
/// `items` as set up by `YACItemsInit`; `root` and `off` writable; `buf`
/// readable for `len` bytes and kept alive and unchanged while the tree is
/// used.
#[no_mangle]
pub unsafe extern "C" fn YACItemsParse(
    items: *mut YACItems,
    root: *mut u32,
    off: *mut usize,
    buf: *const c_uchar,
    len: usize,
) -> YACErr {
    run(|| {
        // SAFETY: NULL-checked; writable/readable per the contract, and the
        // caller keeps `buf` alive while the tree is used (hence 'static).
        let (root, off, buf) = unsafe { (out(root)?, out(off)?, input(buf, len)?) };
        loop {
            let mut at = *off;
            // SAFETY: `items` per the contract.
            let r = unsafe { with_mut(items, |t| t.parse(buf, &mut at)) };
            *off = at;
            match r {
                Ok(idx) => {
                    *root = idx;
                    return Ok(());
                }
                // SAFETY: `items` per the contract (non-NULL: with_mut ran).
                Err(YACErr::YACErrNoMem) if unsafe { grow(items) } => continue,
                Err(YACErr::YACErrNoMem) => {
                    // SAFETY: as above.
                    unsafe {
                        with_mut(items, |t| {
                            t.abort();
                            Ok(())
                        })?
                    };
                    return Err(YACErr::YACErrNoMem);
                }
                Err(e) => return Err(e),
            }
        }
    })
}

/// Asks `items->grow` for a bigger pool; false when there is none.
///
/// # Safety
/// `items` non-NULL and valid per `with_mut`'s contract.
pub(super) unsafe fn grow(items: *mut YACItems) -> bool {
    // SAFETY: per this function's contract.
    let Some(it) = (unsafe { items.as_mut() }) else {
        return false;
    };
    let Some(grow) = it.grow else {
        return false;
    };
    let old_cap = it.cap as usize;
    let mut new_cap = old_cap.saturating_mul(2).clamp(64, MAX_NODES);
    if old_cap >= MAX_NODES {
        return false;
    }
    // SAFETY: calling the caller's callback with the documented arguments.
    let list = unsafe { grow(it.growCtx, it.list, old_cap, &mut new_cap) };
    if list.is_null() || new_cap <= old_cap {
        return false;
    }
    it.list = list;
    it.cap = new_cap.min(MAX_NODES) as u32;
    true
}

/// Abandons an unfinished incremental parse: the nodes of that document
/// are dropped, and the pool is as it was before that document began
/// (edits are allowed again; cursors stay valid). A no-op when no parse is
/// unfinished.
///
/// # Safety
/// `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAbort(items: *mut YACItems) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe {
        with_mut(items, |t| {
            t.abort();
            Ok(())
        })
    })
}

/// Counting pass: validates one whole item at `buf` (`len` bytes) and sets
/// `*nodes` to the number of nodes `YACItemsParse` needs for it and `*used`
/// to its length in bytes, so that a pool can be sized exactly. Checks
/// every atom, the nesting, BLOB chunks and `maxDepth` (0 = no limit); MAP
/// key type, order and pairing are left to `YACItemsParse`. No memory.
///
/// On an error in the document (a bad atom, nesting, `maxDepth`),
/// `*used` is the offset of the offending atom (for `YACErrNotEnough`, of
/// the incomplete one), as `YACValidate`'s `*off`, and `*nodes` is
/// unchanged. On `YACErrInvalid` for a NULL pointer neither is written.
///
/// This is the pre-count that needs no memory at all, not a validator: a
/// document it accepts may still fail `YACItemsParse` (on MAP keys only).
/// `YACValidate` checks everything the parse checks, with a small caller
/// array, and gives the same node count.
///
/// # Safety
/// `nodes`, `used` writable; `buf` readable for `len` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsNodesNeeded(
    nodes: *mut usize,
    used: *mut usize,
    buf: *const c_uchar,
    len: usize,
    max_depth: u32,
) -> YACErr {
    run(|| {
        // SAFETY: NULL-checked, valid per the contract.
        let (nodes, used, buf) = unsafe { (out(nodes)?, out(used)?, input(buf, len)?) };
        let mut at = 0;
        let r = count_at(buf, &mut at, max_depth);
        *used = at;
        *nodes = r?;
        Ok(())
    })
}
