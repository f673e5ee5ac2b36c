//! C API of cursors (`struct YACCursor`, `YACItemsCursor*`,
//! `YACItemsMapAppend`) and of what keeps edits safe: whether a parse is
//! unfinished (`YACItemsParsing`) and the invariant checker
//! (`YACItemsCheck`). Cursors are positions the tree itself hands out, for
//! O(1) insertion, removal and replacement anywhere in a list and O(1)
//! append.

use core::ffi::c_char;

use super::items::{with_mut, with_ref, YACItems};
use super::{inp, out, run, YACErr};
use yac::items::{Cursor, ItemsMut, ItemsRef, NONE};

/// A position among the children of a LIST, MAP or BLOB: before the first
/// child, between two, or after the last. Made by `YACItemsCursorFirst`,
/// `YACItemsCursorEnd` or `YACItemsCursorAfter` from the tree itself, so
/// that an edit there needs no check of where it is: O(1).
///
/// A cursor is valid for the tree that made it (the `struct YACItems` and
/// the `YACItemsInit` that set it up), until that tree unlinks a node
/// (`YACItemsRemove`, `YACItemsReplace`, `YACItemsMapSet` replacing a
/// value, `YACItemsMapDel`, `YACItemsCursorRemove`/`Replace` through
/// another cursor). Then every other cursor of the tree is stale, and a
/// call given one returns `YACErrInvalid` with nothing changed: make a new
/// one. Insertions (`YACItemsAdd`, `InsertAfter`, `Prepend`, cursor
/// inserts, `MapSet` adding a pair), parses and aborts keep cursors valid;
/// a cursor's own remove and replace keep it valid. A cursor from before
/// a `YACItemsInit` (of this `struct YACItems` over the same pool too) is
/// refused as well. Staleness is detected by a generation word that every
/// `YACItemsInit` and every unlinking edit draws from one process-wide
/// 32-bit counter, so no two of them in a process share it until 2^32
/// draws have passed (on targets without atomic read-modify-write, such as
/// Cortex-M0, only as long as no draw is preempted by another one in an
/// interrupt handler). Plain words, copied freely; never write them.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct YACCursor {
    /// Internal state.
    pub reserved: [u32; 4],
}

impl YACCursor {
    fn get(&self) -> Cursor {
        Cursor::from_words(self.reserved)
    }

    fn set(&mut self, c: Cursor) {
        self.reserved = c.to_words();
    }
}

/// Whether a parse of `items` is unfinished: a `YACItemsParse` returned
/// `YACErrNotEnough` (or `YACErrNoMem` on the way to growing) and was
/// neither continued to its end nor dropped by `YACItemsAbort`. Meanwhile
/// every edit is refused (`YACErrInvalid`), the unfinished document's
/// nodes are invisible to navigation and encoding, and `YACItemsParse`
/// accepts only the same buffer at the offset where it stopped. False for
/// NULL.
///
/// # Safety
/// `items` NULL or as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsParsing(items: *const YACItems) -> bool {
    // SAFETY: per the contract.
    unsafe { with_ref(items, |t| Ok(t.parsing())) }.unwrap_or(false)
}

/// Checks that the trees of `items` are consistent: every container's
/// stored child count equals its linked children, every node is in at most
/// one place (under one container, or unlinked), no container is inside
/// itself, the children of every container end, every container's parent
/// link names the container holding it, and MAPs have an even number of
/// children. Every successful call of this API keeps that, and every
/// failing one changes nothing: this is for tests and debug builds.
/// (`YACItemsSetValue` may change a MAP key or a BLOB chunk into what the
/// encoder refuses; that is no inconsistency.) During an unfinished parse
/// the unfinished document is not checked, the rest is.
///
/// `YACErrNo` when consistent; else `YACErrInvalid`, with `*node` the node
/// where the fault was seen (`YACItemNone` when it is not one node's) and
/// `*why` a static text naming it; `node` and `why` may be NULL.
///
/// Cost: O(len) time, no memory, no recursion. To tell in O(1) memory
/// whether a node is reached twice, it marks each node it finds in a
/// container (a bit of its type field) and clears every mark before it
/// returns: the pool is written during the call, so it needs the same
/// exclusive access as an edit.
///
/// # Safety
/// `items` as set up by `YACItemsInit`; `node`, `why` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCheck(
    node: *mut u32,
    why: *mut *const c_char,
    items: *mut YACItems,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let r = unsafe { with_mut(items, |t| Ok(t.check())) }?;
        let Err(fault) = r else {
            return Ok(());
        };
        // SAFETY: NULL or writable, per the contract.
        if let Some(n) = unsafe { node.as_mut() } {
            *n = fault.node;
        }
        // SAFETY: as above.
        if let Some(w) = unsafe { why.as_mut() } {
            *w = fault.text().as_ptr().cast();
        }
        Err(YACErr::YACErrInvalid)
    })
}

/// Makes a cursor of `items` with `f` and stores it in `*cur` (unchanged
/// on error).
///
/// # Safety
/// `cur` NULL or writable; `items` as for `with_ref`.
unsafe fn make(
    cur: *mut YACCursor,
    items: *const YACItems,
    f: impl FnOnce(&ItemsRef<'_, 'static>) -> Result<Cursor, yac::Error>,
) -> Result<(), YACErr> {
    // SAFETY: per this function's contract.
    let cur = unsafe { out(cur)? };
    let c = unsafe { with_ref(items, f)? };
    cur.set(c);
    Ok(())
}

/// A cursor before the first child of the LIST, MAP or BLOB `parent`.
/// O(1).
///
/// # Safety
/// `cur` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorFirst(
    cur: *mut YACCursor,
    items: *const YACItems,
    parent: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { make(cur, items, |t| t.cursor_first(parent)) })
}

/// A cursor after the last child of `parent`: where `YACItemsCursorInsert`
/// (LIST, BLOB) and `YACItemsMapAppend` (MAP) append. O(number of
/// children) once; each append then costs O(1) and moves the cursor past
/// what it added.
///
/// # Safety
/// `cur` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorEnd(
    cur: *mut YACCursor,
    items: *const YACItems,
    parent: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { make(cur, items, |t| t.cursor_end(parent)) })
}

/// A cursor right after `prev`, which must be a child of `parent` (before
/// the first child when `prev` is `YACItemNone`): checked, O(1) when `prev`
/// is a container in a LIST or BLOB, else O(position of `prev`).
///
/// # Safety
/// `cur` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorAfter(
    cur: *mut YACCursor,
    items: *const YACItems,
    parent: u32,
    prev: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { make(cur, items, |t| t.cursor_after(parent, prev)) })
}

/// `*child` = the child right after the cursor (the one
/// `YACItemsCursorRemove`/`Replace` act on), `YACItemNone` at the end.
/// O(1). A stale cursor: `YACErrInvalid`.
///
/// # Safety
/// `child` writable; `cur` valid; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorPeek(
    child: *mut u32,
    cur: *const YACCursor,
    items: *const YACItems,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (child, c) = unsafe { (out(child)?, inp(cur)?.get()) };
        let next = unsafe { with_ref(items, |t| t.cursor_peek(&c))? };
        *child = next.unwrap_or(NONE);
        Ok(())
    })
}

/// Moves the cursor over the child after it; `*child` = that child, or
/// `YACItemNone` at the end (the cursor stays). O(1). A loop of these
/// visits every child, as `YACItemsNext` does.
///
/// # Safety
/// `child` writable; `cur` valid and writable; `items` as set up by
/// `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorNext(
    child: *mut u32,
    cur: *mut YACCursor,
    items: *const YACItems,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let (child, cur) = unsafe { (out(child)?, out(cur)?) };
        let mut c = cur.get();
        let next = unsafe { with_ref(items, |t| t.cursor_next(&mut c))? };
        cur.set(c);
        *child = next.unwrap_or(NONE);
        Ok(())
    })
}

/// Runs a cursor edit; the cursor is stored back only on success.
///
/// # Safety
/// `cur` NULL or valid and writable; `items` as for `with_mut`.
unsafe fn edit<R>(
    items: *mut YACItems,
    cur: *mut YACCursor,
    f: impl FnOnce(&mut ItemsMut<'_, 'static>, &mut Cursor) -> Result<R, yac::Error>,
) -> Result<R, YACErr> {
    // SAFETY: per this function's contract.
    let cur = unsafe { out(cur)? };
    let mut c = cur.get();
    let r = unsafe { with_mut(items, |t| f(t, &mut c))? };
    cur.set(c);
    Ok(r)
}

/// Inserts the unlinked node `idx` at the cursor, in a LIST or BLOB, and
/// moves the cursor past it: repeated inserts keep their order, and a
/// cursor from `YACItemsCursorEnd` appends. O(1), anywhere in the list,
/// when `idx` is a leaf or an empty container (a tree built top-down) or
/// the cursor's container is a root (built bottom-up); a non-empty
/// container inserted into a nested one costs the walk up to the root that
/// rules out a cycle, O(depth). Refused (`YACErrInvalid`, nothing changed) for a stale cursor, a MAP
/// (use `YACItemsMapAppend` or `YACItemsMapSet`), a linked node, a cycle
/// and during an unfinished parse; a non-BIN into a BLOB is
/// `YACErrBlobBadTerm`.
///
/// # Safety
/// `items` as set up by `YACItemsInit`; `cur` valid and writable.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorInsert(
    items: *mut YACItems,
    cur: *mut YACCursor,
    idx: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe { edit(items, cur, |t, c| t.build_call(|t| t.cursor_insert(c, idx))) })
}

/// Unlinks the child after the cursor, in a LIST or BLOB; `*removed` gets
/// it (with its subtree, ready to be inserted elsewhere). O(1). The cursor
/// stays where it was, now before the next child, and valid; every other
/// cursor of the tree becomes stale.
///
/// # Safety
/// `removed` writable; `items` as set up by `YACItemsInit`; `cur` valid
/// and writable.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorRemove(
    removed: *mut u32,
    items: *mut YACItems,
    cur: *mut YACCursor,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let removed = unsafe { out(removed)? };
        *removed = unsafe { edit(items, cur, |t, c| t.cursor_remove(c))? };
        Ok(())
    })
}

/// Puts the unlinked node `idx` in place of the child after the cursor, in
/// a LIST or BLOB; `*old` gets the old child, now unlinked. O(1). The
/// cursor stays valid; every other cursor of the tree becomes stale.
///
/// # Safety
/// `old` writable; `items` as set up by `YACItemsInit`; `cur` valid and
/// writable.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorReplace(
    old: *mut u32,
    items: *mut YACItems,
    cur: *mut YACCursor,
    idx: u32,
) -> YACErr {
    run(|| {
        // SAFETY: per the contract.
        let old = unsafe { out(old)? };
        *old = unsafe { edit(items, cur, |t, c| t.cursor_replace(c, idx))? };
        Ok(())
    })
}

/// Appends the pair `key` (an unlinked non-empty STR node) and `value` (an
/// unlinked node) to the MAP at the cursor, which must be at the MAP's end
/// (`YACItemsCursorEnd`), and moves the cursor past the value. `key` must
/// sort above the MAP's last key (length first, then bytewise), else
/// `YACErrMapUnordered` (`YACItemsMapSet` takes keys in any order, in
/// O(number of keys)); a key that is no non-empty STR is
/// `YACErrMapBadKey`. O(1) plus one key comparison (plus the cycle check
/// of `YACItemsCursorInsert` when `value` is a non-empty container).
///
/// # Safety
/// `items` as set up by `YACItemsInit`; `cur` valid and writable.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapAppend(
    items: *mut YACItems,
    cur: *mut YACCursor,
    key: u32,
    value: u32,
) -> YACErr {
    // SAFETY: per the contract.
    run(|| unsafe {
        edit(items, cur, |t, c| {
            t.build_call(|t| t.map_append(c, key, value))
        })
    })
}

/// The container of a cursor (`YACItemNone` for NULL).
///
/// # Safety
/// `cur` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorParent(cur: *const YACCursor) -> u32 {
    // SAFETY: per the contract.
    unsafe { cur.as_ref() }.map_or(NONE, |c| c.get().parent())
}

/// The child right before a cursor, `YACItemNone` at the start (and for
/// NULL).
///
/// # Safety
/// `cur` NULL or valid.
#[no_mangle]
pub unsafe extern "C" fn YACItemsCursorPrev(cur: *const YACCursor) -> u32 {
    // SAFETY: per the contract.
    unsafe { cur.as_ref() }.map_or(NONE, |c| c.get().prev())
}
