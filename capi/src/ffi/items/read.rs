//! C API of the tree, reading: navigation (`YACItemsFirst`, `Next`, `Nth`,
//! `MapGet`, `ChildCount`) and the typed getters.

use super::*;

/// Runs a navigation query returning a node index; `YACItemNone` on any
/// failure.
///
/// # Safety
/// As for `with_ref`.
pub(super) unsafe fn index_query(
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
pub(super) unsafe fn getter<T>(
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
pub(super) unsafe fn bytes_getter(
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
