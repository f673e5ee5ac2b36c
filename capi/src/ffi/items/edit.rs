//! C API of the tree, edits: `YACItemsAdd`, `SetValue`, `InsertAfter`,
//! `Prepend`, `Remove`, `Free`, `Replace`, `MapSet`, `MapDel`.

use super::*;

/// The core atom described by a C `struct YACAtom` (for node creation).
///
/// # Safety
/// `atom` NULL or valid; its byte pointers readable for their lengths and
/// kept alive while the tree uses them.
pub(super) unsafe fn core_atom(atom: *const YACAtom) -> Result<Atom<'static>, YACErr> {
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
pub(super) unsafe fn getter_mut(
    v: *mut u32,
    items: *mut YACItems,
    f: impl FnOnce(&mut ItemsMut<'_, 'static>) -> Result<u32, Error>,
) -> Result<(), YACErr> {
    // SAFETY: per this function's contract.
    let v = unsafe { out(v)? };
    *v = unsafe { with_mut(items, f)? };
    Ok(())
}
