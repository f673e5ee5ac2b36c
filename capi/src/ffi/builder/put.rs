//! MAP set by key: `YACItemsMapPut` and its typed forms
//! (`YACItemsMapPutUint`, ...), each an adder and a put in one call.

// Parameter names follow cyac's C style (camelCase) in the header.
#![allow(non_snake_case)]

use super::*;

/// Sets the NUL-terminated `key` of `map` to the unlinked node `value`,
/// keeping the keys in order: replaces the value of an equal key (`*old`
/// gets the old value, now unlinked) or inserts the pair (`*old` gets
/// `YACItemNone`). `old` may be NULL. The key is copied into `arena`, or
/// (`arena` NULL) pointed at. O(1) when the tree's previous put (or
/// `YACItemsMapSet`) appended a pair to this same MAP, no node was
/// unlinked since, and `key` sorts above that pair's key: so filling one
/// MAP with keys in order is linear. Otherwise O(number of keys). An empty key: `YACErrMapBadKey`;
/// `map` not a MAP, or `value` linked already: `YACErrInvalid`.
///
/// # Safety
/// As for `YACItemsAddStr`; `key` NUL-terminated; `old` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapPut(
    old: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    value: u32,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe {
        build(old, true, items, arena, Room::ONE, |t, a| {
            // SAFETY: NUL-terminated (contract); alive while the tree is
            // used when no arena copies it.
            let k = yac::utf8::validate_str(c_str(key)?)?;
            let old = match a {
                Some(a) => t.map_put_copy(map, k, value, a)?,
                None => t.map_put(map, k, value)?,
            };
            Ok(old.unwrap_or(NONE))
        })
    }
}

/// A put of a new value node under `key` of `map` (see `YACItemsMapPut`):
/// `f` makes the value and sets it under the checked key; room for both
/// nodes is made first.
///
/// # Safety
/// As for `YACItemsMapPut`.
unsafe fn put(
    items: *mut YACItems,
    arena: *mut YACArena,
    key: *const c_char,
    f: impl FnOnce(
        &mut ItemsMut<'_, 'static>,
        &'static str,
        Option<&mut Arena<'static>>,
    ) -> Result<Option<u32>, Error>,
) -> YACErr {
    // The value's node, then the key's.
    let room = Room { end: 0, singles: 2 };
    // SAFETY: per the contract.
    unsafe {
        build(core::ptr::null_mut(), true, items, arena, room, |t, a| {
            // SAFETY: NUL-terminated (contract); alive while the tree is
            // used when no arena copies it.
            let k = yac::utf8::validate_str(c_str(key)?)?;
            Ok(f(t, k, a)?.unwrap_or(NONE))
        })
    }
}

/// Sets `key` of `map` to a new node for `value` (see `YACItemsMapPut`):
/// both nodes are made, and the key and the value's payload copied into
/// `arena` (when not NULL), only when the whole call can succeed.
///
/// # Safety
/// As for `YACItemsMapPut`; `value`'s bytes as the key's.
unsafe fn put_static(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    value: impl FnOnce() -> Result<Atom<'static>, Error>,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe {
        put(items, arena, key, |t, k, a| {
            let v = value()?;
            match a {
                Some(a) => t.map_put_new(map, k, &v, a),
                None => t.map_put_new_ref(map, k, &v),
            }
        })
    }
}

/// Sets `key` of `map` to a new +INT node (see `YACItemsMapPut`; an old
/// value is left unlinked).
///
/// # Safety
/// As for `YACItemsMapPut`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapPutUint(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    v: u64,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe { put_static(items, arena, map, key, || Ok(Atom::Uint(v))) }
}

/// Sets `key` of `map` to a new +INT/-INT node.
///
/// # Safety
/// As for `YACItemsMapPut`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapPutSint(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    v: i64,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe { put_static(items, arena, map, key, || Ok(Atom::from_i64(v))) }
}

/// Sets `key` of `map` to a new TRUE/FALSE node.
///
/// # Safety
/// As for `YACItemsMapPut`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapPutBool(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    v: bool,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe { put_static(items, arena, map, key, || Ok(Atom::Bool(v))) }
}

/// Sets `key` of `map` to a new NIL node.
///
/// # Safety
/// As for `YACItemsMapPut`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapPutNIL(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe { put_static(items, arena, map, key, || Ok(Atom::Nil)) }
}

/// Sets `key` of `map` to a new STR node of the NUL-terminated `s`
/// (copied into `arena` like the key, or pointed at).
///
/// # Safety
/// As for `YACItemsMapPut`; `s` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapPutStr(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    s: *const c_char,
) -> YACErr {
    // SAFETY: per the contract; `s` NUL-terminated and alive while the
    // tree is used when no arena copies it.
    unsafe {
        put_static(items, arena, map, key, || {
            Ok(Atom::Str(yac::utf8::validate_str(c_str(s)?)?))
        })
    }
}

/// Sets `key` of `map` to a new float node of `d` (`arena` required).
///
/// # Safety
/// As for `YACItemsMapPut`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsMapPutFloat(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    d: f64,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe {
        put(items, arena, key, |t, k, a| {
            let mut b = [0u8; 8];
            let n = yac::float::shortest(d, &mut b)?;
            // The arena (required) copies the bytes.
            let value = Atom::Float(b.get(..n).unwrap_or(&[]));
            t.map_put_new(map, k, &value, need(a)?)
        })
    }
}
