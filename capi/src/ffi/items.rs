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

use super::atom::YACAtom;
use super::{inp, input, out, output, run, YACErr, YACItemType};
use yac::atom::Atom;
use yac::error::Error;
use yac::items::{
    BuildLog, Event, FreeList, Item, ItemsMut, ItemsRef, Options, ParseState, WalkState, MAX_NODES,
    NONE,
};
use yac::validate::count_at;

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
    core::array::from_fn(|i| words[i])
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

    fn set_state(&mut self, s: ParseState, free: FreeList, log: BuildLog) {
        const WORDS: usize = ParseState::WORDS + FreeList::WORDS + BuildLog::WORDS;
        const { assert!(WORDS <= 20, "all fit") };
        let (st, fl, lg) = (s.to_words(), free.to_words(), log.to_words());
        let words: [u32; WORDS] = core::array::from_fn(|i| {
            let (f, l) = (ParseState::WORDS, ParseState::WORDS + FreeList::WORDS);
            let w = if i < f {
                st.get(i)
            } else if i < l {
                fl.get(i - f)
            } else {
                lg.get(i - l)
            };
            w.copied().unwrap_or(0)
        });
        store(&mut self.reserved, words);
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
    // SAFETY: per this function's contract.
    let it = unsafe { inp(items)? };
    if it.list.is_null() {
        return f(&empty_view()).map_err(YACErr::from);
    }
    let used = it.len.min(it.cap) as usize;
    // SAFETY: `list` is valid for `cap` >= `used` nodes (contract), only
    // read during the call.
    let pool = unsafe { core::slice::from_raw_parts(it.list, used) };
    // SAFETY: the nodes were made by libyac for input kept alive by the
    // caller, and the state is what the calls that made them left
    // (contract).
    let tree = unsafe { ItemsRef::view_parts(pool, it.len, it.state()) };
    f(&tree).map_err(YACErr::from)
}

fn empty_view() -> ItemsRef<'static, 'static> {
    // SAFETY: an empty pool holds no node, so no invariant can fail.
    unsafe { ItemsRef::view_parts(&[], 0, ParseState::idle()) }
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

/// Runs a navigation query returning a node index; `YACItemNone` on any
/// failure.
///
/// # Safety
/// As for `with_ref`.
unsafe fn index_query(
    items: *const YACItems,
    f: impl FnOnce(&ItemsRef<'_, 'static>) -> Option<u32>,
) -> u32 {
    // SAFETY: per this function's contract.
    unsafe { with_ref(items, |t| Ok(f(t))) }
        .ok()
        .flatten()
        .unwrap_or(NONE)
}

/// The type of node `idx` (`YACItemInvalid` for a bad index).
///
/// # Safety
/// `items` as set up by `YACItemsInit` (or NULL).
#[no_mangle]
pub unsafe extern "C" fn YACItemsType(items: *const YACItems, idx: u32) -> YACItemType {
    // SAFETY: per the contract.
    unsafe { with_ref(items, |t| Ok(t.item_type(idx).into())) }
        .unwrap_or(YACItemType::YACItemInvalid)
}

/// First child of container `idx`, or `YACItemNone` (empty, not a
/// container, bad index).
///
/// # Safety
/// `items` as set up by `YACItemsInit` (or NULL).
#[no_mangle]
pub unsafe extern "C" fn YACItemsFirst(items: *const YACItems, idx: u32) -> u32 {
    // SAFETY: per the contract.
    unsafe { index_query(items, |t| t.first_child(idx)) }
}

/// Next sibling of `idx`, or `YACItemNone`.
///
/// # Safety
/// `items` as set up by `YACItemsInit` (or NULL).
#[no_mangle]
pub unsafe extern "C" fn YACItemsNext(items: *const YACItems, idx: u32) -> u32 {
    // SAFETY: per the contract.
    unsafe { index_query(items, |t| t.next_sibling(idx)) }
}

/// The `n`-th child (from 0) of container `idx`, or `YACItemNone`. O(n).
///
/// # Safety
/// `items` as set up by `YACItemsInit` (or NULL).
#[no_mangle]
pub unsafe extern "C" fn YACItemsNth(items: *const YACItems, idx: u32, n: usize) -> u32 {
    // SAFETY: per the contract.
    unsafe { index_query(items, |t| t.nth_child(idx, n)) }
}

/// The value under the NUL-terminated `key` in MAP `map`, or `YACItemNone`.
///
/// # Safety
/// `items` as set up by `YACItemsInit` (or NULL); `key` NULL or a
/// NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapGet(
    items: *const YACItems,
    map: u32,
    key: *const c_char,
) -> u32 {
    if key.is_null() {
        return NONE;
    }
    // SAFETY: non-NULL and NUL-terminated per the contract.
    let k = unsafe { CStr::from_ptr(key) }.to_bytes();
    // SAFETY: per the contract.
    unsafe { index_query(items, |t| t.map_get(map, k)) }
}

/// The value under `key` (`keyLen` bytes) in MAP `map`, or `YACItemNone`.
///
/// # Safety
/// `items` as set up by `YACItemsInit` (or NULL); `key` readable for
/// `keyLen` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapGetN(
    items: *const YACItems,
    map: u32,
    key: *const c_char,
    key_len: usize,
) -> u32 {
    // SAFETY: per the contract.
    let Ok(k) = (unsafe { input(key.cast(), key_len) }) else {
        return NONE;
    };
    // SAFETY: per the contract.
    unsafe { index_query(items, |t| t.map_get(map, k)) }
}

/// Sets `*count` to the number of children of container `idx` (keys and
/// values of a MAP, chunks of a BLOB). O(1) below 2^27 - 1 children; a
/// container with more (the count does not fit the node) is counted by
/// walking its children, O(n).
///
/// # Safety
/// `count` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsChildCount(
    count: *mut usize,
    items: *const YACItems,
    idx: u32,
) -> YACErr {
    run(|| {
        // SAFETY: NULL-checked; per the contract.
        let count = unsafe { out(count)? };
        *count = unsafe { with_ref(items, |t| t.child_count(idx))? };
        Ok(())
    })
}

/// Typed getter: `*v` = value of the `YACItemPint` node `idx`; other
/// types give `YACErrInvalid`.
///
/// # Safety
/// `v` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsGetUint(v: *mut u64, items: *const YACItems, idx: u32) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { getter(v, items, |t| t.get_uint(idx)) })
}

/// Typed getter: `*v` = value of a `YACItemPint` (up to INT64_MAX, else
/// `YACErrLenTooBig`) or `YACItemNint` node.
///
/// # Safety
/// `v` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsGetSint(v: *mut i64, items: *const YACItems, idx: u32) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { getter(v, items, |t| t.get_int(idx)) })
}

/// Typed getter: `*v` = value of a `YACItemFalse`/`YACItemTrue` node.
///
/// # Safety
/// `v` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsGetBool(v: *mut bool, items: *const YACItems, idx: u32) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { getter(v, items, |t| t.get_bool(idx)) })
}

/// Typed getter: `*v` = a FLOAT16/32/64 node widened to double exactly,
/// NaNs included: a NaN keeps its sign, its payload (shifted to the top of
/// the double's fraction) and its signalling or quiet bit, so that
/// `YACAtomFloatEncode` gives the same bytes back (FLOAT128/256:
/// `YACErrInvalid`; `YACItemsGetBytes` gives any FLOAT's raw bytes).
///
/// libyac computes the double on integers and stores its 8 bytes, so
/// `*v` holds the exact bits on every target. What the caller's code then
/// does with it is up to the compiler: on i686 with x87 floating point
/// (`-m32` without `-mfpmath=sse`, and every x86 target without SSE2),
/// loading a double into an x87 register (arithmetic, passing or returning
/// it by value, sometimes a plain copy) quiets a signalling NaN. There,
/// read the bits with `memcpy` from `*v`, or the raw bytes with
/// `YACItemsGetBytes`. x86_64, i686 with SSE2 math, ARM and the other
/// targets keep them.
///
/// # Safety
/// `v` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsGetFloat(v: *mut f64, items: *const YACItems, idx: u32) -> YACErr {
    // The bits are stored as an integer: no float register on the way.
    // SAFETY: per the contract; `u64` has the size and alignment of `f64`.
    run(|| unsafe { getter(v.cast::<u64>(), items, |t| t.get_f64_bits(idx)) })
}

/// Typed getter: the text of a `YACItemStr` node, validated UTF-8 (NOT
/// NUL-terminated: use `*len`). Points into the parsed buffer.
///
/// # Safety
/// `s`, `len` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsGetStr(
    s: *mut *const c_char,
    len: *mut usize,
    items: *const YACItems,
    idx: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { bytes_getter(s.cast(), len, items, |t| t.get_str(idx).map(str::as_bytes)) })
}

/// Typed getter: the bytes of a `YACItemBin` node.
///
/// # Safety
/// `p`, `len` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsGetBin(
    p: *mut *const c_uchar,
    len: *mut usize,
    items: *const YACItems,
    idx: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { bytes_getter(p, len, items, |t| t.get_bin(idx)) })
}

/// The payload of any bytes node: HEXLET (16), FLOAT (2..32), TAI64 (8,
/// 12, 16), MAGIC (12), BIN, STR (unvalidated), `YACItemPbig`/`YACItemNbig`
/// (magnitude).
///
/// # Safety
/// `p`, `len` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsGetBytes(
    p: *mut *const c_uchar,
    len: *mut usize,
    items: *const YACItems,
    idx: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { bytes_getter(p, len, items, |t| t.bytes(idx)) })
}

/// A BLOB's chunk length minus one (`*chunkLenMinus1`) and total payload
/// length (`*total`, the sum of its chunks: O(chunks)).
///
/// # Safety
/// Both out-pointers writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsGetBlob(
    chunk_len_minus1: *mut u64,
    total: *mut u64,
    items: *const YACItems,
    idx: u32,
) -> YACErr {
    run(|| {
        // SAFETY: NULL-checked; per the contract.
        let (c, t) = unsafe { (out(chunk_len_minus1)?, out(total)?) };
        // SAFETY: per the contract.
        let (cv, tv) = unsafe {
            with_ref(items, |tr| {
                Ok((tr.blob_chunk_len_minus_one(idx)?, tr.blob_len(idx)?))
            })?
        };
        (*c, *t) = (cv, tv);
        Ok(())
    })
}

/// Shared body of the scalar getters.
///
/// # Safety
/// `v` NULL or writable; `items` as for `with_ref`.
unsafe fn getter<T>(
    v: *mut T,
    items: *const YACItems,
    f: impl FnOnce(&ItemsRef<'_, 'static>) -> Result<T, Error>,
) -> Result<(), YACErr> {
    // SAFETY: per this function's contract.
    let v = unsafe { out(v)? };
    *v = unsafe { with_ref(items, f)? };
    Ok(())
}

/// Shared body of the byte getters.
///
/// # Safety
/// `p`, `len` NULL or writable; `items` as for `with_ref`.
unsafe fn bytes_getter(
    p: *mut *const c_uchar,
    len: *mut usize,
    items: *const YACItems,
    f: impl FnOnce(&ItemsRef<'_, 'static>) -> Result<&'static [u8], Error>,
) -> Result<(), YACErr> {
    // SAFETY: per this function's contract.
    let (p, len) = unsafe { (out(p)?, out(len)?) };
    let b = unsafe { with_ref(items, f)? };
    (*p, *len) = (b.as_ptr(), b.len());
    Ok(())
}

/// The core atom described by a C `struct YACAtom` (for node creation).
///
/// # Safety
/// `atom` NULL or valid; its byte pointers readable for their lengths and
/// kept alive while the tree uses them.
unsafe fn core_atom(atom: *const YACAtom) -> Result<Atom<'static>, YACErr> {
    // SAFETY: per this function's contract.
    let a = unsafe { inp(atom)? };
    use YACItemType as T;
    let typ = YACItemType::from_code(a.typ).ok_or(YACErr::YACErrInvalid)?;
    let bytes = || -> Result<&'static [u8], YACErr> {
        // SAFETY: the union's `bytes` member is what the C caller set for
        // the bytes types (contract); the pointer is checked by `input`.
        unsafe { input(a.v.bytes.ptr, a.v.bytes.len) }
    };
    // SAFETY (for the `uint`/`sint` reads below): any bit pattern is a
    // valid integer, and the union is at least 8 initialised bytes when C
    // filled `uint`/`sint`, which is the contract for those types.
    Ok(match typ {
        T::YACItemNIL => Atom::Nil,
        T::YACItemFalse => Atom::Bool(false),
        T::YACItemTrue => Atom::Bool(true),
        T::YACItemPint => Atom::Uint(unsafe { a.v.uint }),
        T::YACItemNint => Atom::Nint(unsafe { a.v.sint }),
        T::YACItemPbig => Atom::BigInt {
            negative: false,
            magnitude: bytes()?,
        },
        T::YACItemNbig => Atom::BigInt {
            negative: true,
            magnitude: bytes()?,
        },
        T::YACItemList => Atom::List,
        T::YACItemMap => Atom::Map,
        T::YACItemBlob => Atom::Blob {
            chunk_len_minus_one: unsafe { a.v.uint },
        },
        T::YACItemHexlet => Atom::Hexlet(bytes()?.try_into().map_err(|_| YACErr::YACErrInvalid)?),
        T::YACItemFloat => Atom::Float(bytes()?),
        T::YACItemTAI64 => Atom::Tai64(bytes()?),
        T::YACItemMagic => Atom::Magic(bytes()?.try_into().map_err(|_| YACErr::YACErrInvalid)?),
        T::YACItemBin => Atom::Bin(bytes()?),
        T::YACItemStr => Atom::Str(yac::utf8::validate_str(bytes()?)?),
        T::YACItemInvalid | T::YACItemEOC => return Err(YACErr::YACErrInvalid),
    })
}

/// Makes a new, unlinked node from `atom` (`typ` and the matching `v`
/// member; `tag` is ignored) and sets `*idx` to it. LIST/MAP give empty
/// containers; BLOB (`v.uint` = chunk length minus one) an empty BLOB to
/// which BIN chunks are added. Bytes are not copied: they must stay valid
/// while the tree is used. Checked as the parser would (UTF-8 and no NUL
/// in STR, float and TAI64 rules; bigint leading zeros are dropped).
/// Link the node with `YACItemsInsertAfter`, `YACItemsPrepend`,
/// `YACItemsReplace`, `YACItemsMapSet` or a cursor (`YACItemsCursorInsert`,
/// `YACItemsMapAppend`). `YACErrNoMem` when the pool is full (no growth
/// here); `YACErrInvalid` during an unfinished parse.
///
/// Limit: byte values (BIN, STR, bigint magnitudes, ...) of 2^27 - 1 bytes
/// or more are refused with `YACErrLenTooBig`: a node stores lengths below
/// that, and only parsed values can point at a wire header for longer
/// ones (`YACItemsParse` takes them).
///
/// # Safety
/// `idx` writable; `items` as set up by `YACItemsInit`; `atom` valid, its
/// bytes alive while the tree is used.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAdd(
    idx: *mut u32,
    items: *mut YACItems,
    atom: *const YACAtom,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (idx, a) = unsafe { (out(idx)?, core_atom(atom)?) };
        *idx = unsafe { with_mut(items, |t| t.build_call(|t| t.add(&a)))? };
        Ok(())
    })
}

/// Replaces in place the value of the non-container node `idx` with the
/// non-container `atom` (links kept). Checked as `YACItemsAdd` (same
/// limits). A leaf knows no container, so where it is makes no
/// difference here: changing a MAP key out of order or into another type,
/// or a BLOB chunk into another type or length, is allowed, and refused by
/// `YACItemsEncode`.
///
/// # Safety
/// As for `YACItemsAdd`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsSetValue(
    items: *mut YACItems,
    idx: u32,
    atom: *const YACAtom,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let a = unsafe { core_atom(atom)? };
        unsafe { with_mut(items, |t| t.set_value(idx, &a)) }
    })
}

/// Inserts the unlinked node `idx` right after `prev`, which must be a
/// child of the LIST or BLOB `parent`. An already linked node, a `prev`
/// that is not a child of `parent`, a MAP parent (use `YACItemsMapSet`),
/// a cycle or an unfinished parse give `YACErrInvalid`; a non-BIN into a
/// BLOB `YACErrBlobBadTerm`; nothing is changed then.
///
/// Cost: leaves carry no link to their container, so `prev` is checked by
/// walking `parent`'s children up to it: O(position of `prev`), O(1) when
/// `prev` is a container (its parent link answers). For O(1) insertion
/// anywhere, and O(1) append, use a cursor (`YACItemsCursorAfter`,
/// `YACItemsCursorEnd`, `YACItemsCursorInsert`): the tree hands out the
/// position, so it needs no check.
///
/// # Safety
/// `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsInsertAfter(
    items: *mut YACItems,
    parent: u32,
    prev: u32,
    idx: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe {
        with_mut(items, |t| {
            t.build_call(|t| t.insert_after(parent, prev, idx))
        })
    })
}

/// Inserts the unlinked node `idx` as the first child of the LIST or BLOB
/// `parent`. O(1) (with the cycle check of `YACItemsCursorInsert` when
/// `idx` is a non-empty container). Refused as `YACItemsInsertAfter` is.
///
/// # Safety
/// `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsPrepend(items: *mut YACItems, parent: u32, idx: u32) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { with_mut(items, |t| t.build_call(|t| t.prepend(parent, idx))) })
}

/// Unlinks the child after `prev` (the first child when `prev` is
/// `YACItemNone`) of the LIST or BLOB `parent`; `*removed` gets it (it
/// keeps its subtree and may be inserted elsewhere). O(1) for the first
/// child; otherwise `prev` is checked as in `YACItemsInsertAfter`,
/// O(position of `prev`) (`YACItemsCursorRemove`: O(1)). Every cursor of
/// the tree becomes stale.
///
/// # Safety
/// `removed` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsRemove(
    removed: *mut u32,
    items: *mut YACItems,
    parent: u32,
    prev: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { getter_mut(removed, items, |t| t.remove(parent, prev)) })
}

/// Frees the unlinked node `idx` (one that was removed, replaced, made and
/// never linked, or a parsed document's root) and its whole subtree: their
/// slots go onto a free list, and the next nodes made (`YACItemsAdd*`,
/// `YACItemsMapPut*`) take them before the pool's end; `*freed` (NULL:
/// not wanted) gets how many were freed. The indices of the freed nodes
/// must not be used again, and every cursor becomes stale. O(size of the
/// subtree), no memory. A linked node (remove it first), an index not in
/// use, a broken subtree, or an unfinished parse: `YACErrInvalid`, nothing
/// changed.
///
/// Pool use: no edit frees a node by itself (it hands the unlinked node
/// back to the caller, who may insert it elsewhere), so without this call
/// a pool's `len` only grows, by one per node made (two per BLOB), and a
/// long-lived tree edited in a loop runs out of nodes. Freeing what is
/// removed bounds it to the largest tree plus what parses take: parses
/// and BLOBs always take new nodes at the end.
///
/// # Safety
/// `freed` NULL or writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsFree(freed: *mut usize, items: *mut YACItems, idx: u32) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let n = unsafe { with_mut(items, |t| t.free(idx))? };
        // SAFETY: NULL or writable (contract).
        if let Some(f) = unsafe { freed.as_mut() } {
            *f = n;
        }
        Ok(())
    })
}

/// Puts the unlinked node `idx` in place of the child after `prev` (or the
/// first) of the LIST or BLOB `parent`; `*old` gets the replaced node, now
/// unlinked. `prev` is checked as in `YACItemsRemove` (O(1) for the first
/// child, else O(position of `prev`); `YACItemsCursorReplace`: O(1)).
/// Every cursor of the tree becomes stale. (Graft: parse other bytes into
/// the same `items`, then replace or insert their root.)
///
/// # Safety
/// `old` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsReplace(
    old: *mut u32,
    items: *mut YACItems,
    parent: u32,
    prev: u32,
    idx: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { getter_mut(old, items, |t| t.replace(parent, prev, idx)) })
}

/// Sets key node `key` (unlinked non-empty STR) to value node `value`
/// (unlinked) in MAP `map`, keeping keys ordered: an equal key's value is
/// replaced (`*oldValue` gets the old one; `key` stays unused) or the pair
/// is inserted in order (`*oldValue` = `YACItemNone`). O(number of keys);
/// `YACItemsMapAppend` adds a pair after the last in O(1). Replacing a
/// value makes every cursor of the tree stale.
///
/// # Safety
/// `oldValue` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapSet(
    old_value: *mut u32,
    items: *mut YACItems,
    map: u32,
    key: u32,
    value: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe {
        getter_mut(old_value, items, |t| {
            t.build_call(|t| t.map_set(map, key, value))
        })
    })
}

/// Removes `key` (`keyLen` bytes) and its value from MAP `map`; `*oldValue`
/// gets the value node (unlinked), or `YACItemNone` when absent.
/// O(number of keys). Removing makes every cursor of the tree stale.
///
/// # Safety
/// `oldValue` writable; `key` readable for `keyLen` bytes; `items` as set
/// up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapDel(
    old_value: *mut u32,
    items: *mut YACItems,
    map: u32,
    key: *const c_char,
    key_len: usize,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let k = unsafe { input(key.cast(), key_len)? };
        unsafe {
            getter_mut(old_value, items, |t| {
                Ok(t.map_remove(map, k)?.unwrap_or(NONE))
            })
        }
    })
}

/// Shared body of the edits that return an index.
///
/// # Safety
/// `v` NULL or writable; `items` as for `with_mut`.
unsafe fn getter_mut(
    v: *mut u32,
    items: *mut YACItems,
    f: impl FnOnce(&mut ItemsMut<'_, 'static>) -> Result<u32, Error>,
) -> Result<(), YACErr> {
    // SAFETY: per this function's contract.
    let v = unsafe { out(v)? };
    *v = unsafe { with_mut(items, f)? };
    Ok(())
}

/// Writes the subtree at `idx` at `buf[*off]` (room: `cap - *off`) and
/// advances `*off`. The output is canonical: parse then encode gives the
/// input back byte for byte, and edited trees are checked (MAP key order
/// and pairing, BLOB chunks). On `YACErrNoMem` `*off` is unchanged and the
/// bytes after it are unspecified; `YACItemsEncodedLen` gives the size.
///
/// # Safety
/// `items` as set up by `YACItemsInit`; `off` writable; `buf` writable for
/// `cap` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsEncode(
    items: *const YACItems,
    idx: u32,
    off: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (off, buf) = unsafe { (out(off)?, output(buf, cap)?) };
        let room = buf.get_mut(*off..).ok_or(YACErr::YACErrInvalid)?;
        let n = unsafe { with_ref(items, |t| t.encode(idx, room))? };
        *off += n;
        Ok(())
    })
}

/// Sets `*len` to the number of bytes `YACItemsEncode` writes for `idx`.
///
/// # Safety
/// `len` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsEncodedLen(
    len: *mut usize,
    items: *const YACItems,
    idx: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { getter(len, items, |t| t.encoded_len(idx)) })
}

/// Starts a walk of the subtree at `root` (document order, MAP keys before
/// values, constant memory: no recursion at any depth).
///
/// # Safety
/// `walk` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsWalkInit(
    walk: *mut YACWalk,
    items: *const YACItems,
    root: u32,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (w, it) = unsafe { (out(walk)?, inp(items)?) };
        w.set_state(WalkState::new(root, it.len as usize));
        Ok(())
    })
}

/// Next step of a walk: `*event` (`YACWalkEnd` when over), `*idx` the node
/// and `*depth` its nesting depth (the root is at 0). A broken tree gives
/// `YACErrInvalid` and ends the walk.
///
/// # Safety
/// Out-pointers writable; `walk` from `YACItemsWalkInit` on this `items`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsWalkNext(
    event: *mut YACWalkEvent,
    idx: *mut u32,
    depth: *mut u32,
    walk: *mut YACWalk,
    items: *const YACItems,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (event, idx, depth, w) = unsafe { (out(event)?, out(idx)?, out(depth)?, out(walk)?) };
        let mut state = w.state();
        let step = unsafe { with_ref(items, |t| t.walk_step(&mut state)) };
        w.set_state(state);
        let step = step?;
        let (e, n, d) = match step {
            None => (YACWalkEvent::YACWalkEnd, NONE, 0),
            Some((Event::Leaf(n), d)) => (YACWalkEvent::YACWalkLeaf, n, d),
            Some((Event::Enter(n), d)) => (YACWalkEvent::YACWalkEnter, n, d),
            Some((Event::Exit(n), d)) => (YACWalkEvent::YACWalkExit, n, d),
        };
        (*event, *idx, *depth) = (e, n, d);
        Ok(())
    })
}
