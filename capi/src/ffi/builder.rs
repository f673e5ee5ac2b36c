//! C API of the tree builder: typed adders (`YACItemsAddUint`, ...), an
//! arena for payload copies (`struct YACArena`), and MAP set by key
//! (`YACItemsMapPut...`). A thin layer over `yac::items` (build.rs).
//!
//! Every adder makes one new, unlinked node and sets `*idx` to it; link it
//! with a cursor (`YACItemsCursorEnd` + `YACItemsCursorInsert` append in
//! O(1)), `YACItemsInsertAfter`, `YACItemsPrepend`, `YACItemsReplace`,
//! `YACItemsMapSet` or `YACItemsMapPut`. When the pool is full, every adder
//! calls `items->grow` if set (else `YACErrNoMem`, nothing changed).
//!
//! Payloads: a node points at its bytes, which must stay valid and
//! unchanged while the tree is used. The adders that take an `arena` copy
//! the bytes into it (then the caller's bytes may go at once); with `arena`
//! NULL (where allowed) the node points at the caller's bytes. Floats,
//! times and MAGICs always need an arena (their wire form is made here).

// Parameter names follow cyac's C style (camelCase) in the header.
#![allow(non_snake_case)]

use core::ffi::{c_char, c_uchar, CStr};

use super::items::{grow, with_mut, YACItems};
use super::{input, out, run, YACErr};
use yac::atom::Atom;
use yac::error::Error;
use yac::items::{Arena, ItemsMut};

/// Caller memory that node payloads are copied into: `mem`, `cap` bytes,
/// of which the first `len` are used. Set it up with `YACArenaInit` (or
/// fill in the fields); reset `len` to 0 to reuse the memory once no tree
/// points into it.
#[repr(C)]
pub struct YACArena {
    /// The memory.
    pub mem: *mut c_uchar,
    /// Its size in bytes.
    pub cap: usize,
    /// Bytes used so far.
    pub len: usize,
}

/// Sets up `arena` over the `cap` bytes at `mem` (NULL only with `cap` 0).
///
/// Returns: `YACErrInvalid` for a NULL `arena`, or NULL `mem` with `cap`
/// not 0.
///
/// # Safety
/// `arena` writable; `mem` writable for `cap` bytes for as long as trees
/// point into it.
#[no_mangle]
pub unsafe extern "C" fn YACArenaInit(
    arena: *mut YACArena,
    mem: *mut c_uchar,
    cap: usize,
) -> YACErr {
    run(|| {
        // SAFETY: NULL-checked; writable per the contract.
        let a = unsafe { out(arena)? };
        if (mem.is_null() && cap != 0) || cap > isize::MAX as usize {
            return Err(YACErr::YACErrInvalid);
        }
        *a = YACArena { mem, cap, len: 0 };
        Ok(())
    })
}

/// The nodes a call makes: `end` consecutive ones at the end of the pool
/// (a BLOB and its extension slot), and `singles` that may also come from
/// the free list.
#[derive(Clone, Copy)]
struct Room {
    end: u32,
    singles: u32,
}

impl Room {
    const ONE: Room = Room { end: 0, singles: 1 };
    const BLOB: Room = Room { end: 2, singles: 0 };

    /// Whether a pool of `cap` nodes with `len` in use and `free` on the
    /// free list has it.
    fn fits(self, len: u32, cap: u32, free: u32) -> bool {
        cap.saturating_sub(len)
            .checked_sub(self.end)
            .is_some_and(|rest| rest.saturating_add(free) >= self.singles)
    }
}

/// Makes sure the pool has `room`, growing it if it can.
///
/// # Safety
/// `items` as for `with_mut`.
unsafe fn reserve(items: *mut YACItems, room: Room) -> Result<(), YACErr> {
    // SAFETY: per this function's contract.
    let Some(it) = (unsafe { items.as_ref() }) else {
        return Err(YACErr::YACErrInvalid);
    };
    let free = it.free_list().len;
    let (mut len, mut cap) = (it.len, it.cap);
    while !room.fits(len, cap, free) {
        // SAFETY: per this function's contract.
        if !unsafe { grow(items) } {
            return Err(YACErr::YACErrNoMem);
        }
        // SAFETY: as above; `grow` changed only `list` and `cap`.
        let it = unsafe { items.as_ref() }.ok_or(YACErr::YACErrInvalid)?;
        (len, cap) = (it.len, it.cap);
    }
    Ok(())
}

/// Runs an adder that needs `room`: room first (growing the pool), then
/// `f` on the tree and, when `arena` is not NULL, an arena over its free
/// part, whose use is recorded afterwards.
///
/// # Safety
/// `idx` writable; `items` as for `with_mut`; `arena` NULL or a
/// `struct YACArena` whose `mem` is writable for `cap` bytes and lives as
/// long as the tree.
unsafe fn build(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    room: Room,
    f: impl FnOnce(&mut ItemsMut<'_, 'static>, Option<&mut Arena<'static>>) -> Result<u32, Error>,
) -> YACErr {
    run(|| {
        // SAFETY: per this function's contract.
        let idx = unsafe { out(idx)? };
        // SAFETY: per this function's contract.
        unsafe { reserve(items, room)? };
        // SAFETY: `arena` is NULL or valid (contract).
        let a = unsafe { arena.as_mut() };
        let mut arena = match a {
            None => None,
            Some(a) if a.len > a.cap || (a.mem.is_null() && a.cap != 0) => {
                return Err(YACErr::YACErrInvalid);
            }
            Some(a) => {
                let free: &'static mut [u8] = if a.mem.is_null() {
                    &mut []
                } else {
                    // SAFETY: `mem` is writable for `cap` bytes and lives as
                    // long as the tree (contract); bytes from `len` on are
                    // not pointed at by any node yet.
                    unsafe { core::slice::from_raw_parts_mut(a.mem.add(a.len), a.cap - a.len) }
                };
                Some((a, Arena::new(free)))
            }
        };
        // SAFETY: `items` per this function's contract.
        let r = unsafe {
            with_mut(items, |t| match arena.as_mut() {
                Some((_, ar)) => f(t, Some(ar)),
                None => f(t, None),
            })
        };
        let made = r?;
        if let Some((a, ar)) = arena {
            a.len += ar.used();
        }
        *idx = made;
        Ok(())
    })
}

/// The arena an adder cannot do without.
fn need<'x>(arena: Option<&'x mut Arena<'static>>) -> Result<&'x mut Arena<'static>, Error> {
    arena.ok_or(Error::Invalid)
}

/// Makes a NIL node.
///
/// # Safety
/// `idx` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddNIL(idx: *mut u32, items: *mut YACItems) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe {
        build(idx, items, core::ptr::null_mut(), Room::ONE, |t, _| {
            t.add_nil()
        })
    }
}

/// Makes a TRUE or FALSE node.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddBool(idx: *mut u32, items: *mut YACItems, v: bool) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe {
        build(idx, items, core::ptr::null_mut(), Room::ONE, |t, _| {
            t.add_bool(v)
        })
    }
}

/// Makes a +INT node.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddUint(idx: *mut u32, items: *mut YACItems, v: u64) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe {
        build(idx, items, core::ptr::null_mut(), Room::ONE, |t, _| {
            t.add_uint(v)
        })
    }
}

/// Makes a +INT (`v` >= 0) or -INT node.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddSint(idx: *mut u32, items: *mut YACItems, v: i64) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe {
        build(idx, items, core::ptr::null_mut(), Room::ONE, |t, _| {
            t.add_int(v)
        })
    }
}

/// Makes an empty LIST.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddList(idx: *mut u32, items: *mut YACItems) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe {
        build(idx, items, core::ptr::null_mut(), Room::ONE, |t, _| {
            t.add_list()
        })
    }
}

/// Makes an empty MAP (fill it with `YACItemsMapPut...`).
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddMap(idx: *mut u32, items: *mut YACItems) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe {
        build(idx, items, core::ptr::null_mut(), Room::ONE, |t, _| {
            t.add_map()
        })
    }
}

/// Makes an empty BLOB of chunks of `chunkLen` bytes (0: `YACErrInvalid`);
/// its chunks are BIN nodes linked under it. Takes two pool slots.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddBlob(
    idx: *mut u32,
    items: *mut YACItems,
    chunkLen: u64,
) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe {
        build(idx, items, core::ptr::null_mut(), Room::BLOB, |t, _| {
            t.add_blob(chunkLen.checked_sub(1).ok_or(Error::Invalid)?)
        })
    }
}

/// Makes a STR node of the `sLen` bytes at `s`: copied into `arena`, or
/// (`arena` NULL) pointed at, then they must outlive the tree. Invalid
/// UTF-8 or NUL: `YACErrBadUTF8`; arena full: `YACErrNoMem`.
///
/// # Safety
/// As for `YACItemsAddNIL`; `s` readable for `sLen` bytes; `arena` NULL or
/// set up by `YACArenaInit`, its memory alive while the tree is used.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddStr(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    s: *const c_char,
    sLen: usize,
) -> YACErr {
    // SAFETY: `s` readable for `sLen` bytes (contract); without an arena
    // the caller keeps them alive while the tree is used (hence 'static).
    let bytes = match unsafe { input(s.cast(), sLen) } {
        Ok(b) => b,
        Err(e) => return e,
    };
    // SAFETY: per the contract.
    unsafe {
        build(idx, items, arena, Room::ONE, |t, a| {
            let text = yac::utf8::validate_str(bytes)?;
            match a {
                Some(a) => t.add_str_copy(text, a),
                None => t.add_str(text),
            }
        })
    }
}

/// Makes a BIN node of the `vLen` bytes at `v`: copied into `arena`, or
/// (`arena` NULL) pointed at.
///
/// # Safety
/// As for `YACItemsAddStr`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddBin(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    v: *const c_uchar,
    vLen: usize,
) -> YACErr {
    // SAFETY: as in YACItemsAddStr.
    let bytes = match unsafe { input(v, vLen) } {
        Ok(b) => b,
        Err(e) => return e,
    };
    // SAFETY: per the contract.
    unsafe {
        build(idx, items, arena, Room::ONE, |t, a| match a {
            Some(a) => t.add_bin_copy(bytes, a),
            None => t.add_bin(bytes),
        })
    }
}

/// Makes a HEXLET node of the 16 bytes at `hexlet`: copied into `arena`,
/// or (`arena` NULL) pointed at.
///
/// # Safety
/// As for `YACItemsAddStr`; `hexlet` readable for 16 bytes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddHexlet(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    hexlet: *const c_uchar,
) -> YACErr {
    // SAFETY: as in YACItemsAddStr.
    let bytes = match unsafe { input(hexlet, 16) } {
        Ok(b) => b,
        Err(e) => return e,
    };
    // SAFETY: per the contract.
    unsafe {
        build(idx, items, arena, Room::ONE, |t, a| {
            let h: &'static [u8; 16] = bytes.try_into().map_err(|_| Error::Invalid)?;
            match a {
                Some(a) => t.add_copy(&Atom::Hexlet(h), a),
                None => t.add_hexlet(h),
            }
        })
    }
}

/// Makes a float node: `d` in the shortest width that holds it exactly,
/// stored in `arena` (required: NULL gives `YACErrInvalid`). Negative zero:
/// `YACErrFloatNonMinimal`.
///
/// # Safety
/// As for `YACItemsAddStr`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddFloat(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    d: f64,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe { build(idx, items, arena, Room::ONE, |t, a| t.add_f64(d, need(a)?)) }
}

/// Makes a TAI64 (TAI64N when `nsec` is not 0) node of a UNIX time, its
/// label stored in `arena` (required).
///
/// # Safety
/// As for `YACItemsAddStr`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddUTC(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    unixSec: i64,
    nsec: u32,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe {
        build(idx, items, arena, Room::ONE, |t, a| {
            t.add_utc(unixSec, nsec, need(a)?)
        })
    }
}

/// Makes a MAGIC node of the `magicLen` (at most 12) bytes at `magic`,
/// padded and stored in `arena` (required).
///
/// # Safety
/// As for `YACItemsAddStr`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddMagic(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    magic: *const c_uchar,
    magicLen: usize,
) -> YACErr {
    // SAFETY: `magic` readable for `magicLen` bytes (contract).
    let bytes = match unsafe { input(magic, magicLen) } {
        Ok(b) => b,
        Err(e) => return e,
    };
    // SAFETY: per the contract.
    unsafe {
        build(idx, items, arena, Room::ONE, |t, a| {
            t.add_magic(bytes, need(a)?)
        })
    }
}

/// Sets the NUL-terminated `key` of `map` to the unlinked node `value`,
/// keeping the keys in order: replaces the value of an equal key (`*old`
/// gets the old value, now unlinked) or inserts the pair (`*old` gets
/// `YACItemNone`). `old` may be NULL. The key is copied into `arena`, or
/// (`arena` NULL) pointed at. O(number of keys). An empty key:
/// `YACErrMapBadKey`; `map` not a MAP, or `value` linked already:
/// `YACErrInvalid`. Nothing changes on error.
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
    if key.is_null() {
        return YACErr::YACErrInvalid;
    }
    // SAFETY: non-NULL and NUL-terminated (contract); alive while the tree
    // is used when no arena copies it.
    let key: &'static [u8] = unsafe { CStr::from_ptr(key) }.to_bytes();
    let mut prev = 0u32;
    // SAFETY: per the contract.
    let e = unsafe {
        build(&mut prev, items, arena, Room::ONE, |t, a| {
            let k = yac::utf8::validate_str(key)?;
            let old = match a {
                Some(a) => t.map_put_copy(map, k, value, a)?,
                None => t.map_put(map, k, value)?,
            };
            Ok(old.unwrap_or(yac::items::NONE))
        })
    };
    // SAFETY: `old` NULL or writable (contract).
    if let (YACErr::YACErrNo, Ok(o)) = (e, unsafe { out(old) }) {
        *o = prev;
    }
    e
}

/// Sets `key` of `map` to a new node for `value` (see `YACItemsMapPut`):
/// both nodes are made, and the key and the value's payload copied into
/// `arena` (when not NULL), only when the whole call can succeed.
///
/// # Safety
/// As for `YACItemsMapPut`; `value`'s bytes as the key's.
unsafe fn put_with(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    value: &Atom<'_>,
    borrowed: Option<&Atom<'static>>,
) -> YACErr {
    if key.is_null() {
        return YACErr::YACErrInvalid;
    }
    // SAFETY: non-NULL and NUL-terminated (contract); alive while the tree
    // is used when no arena copies it.
    let key: &'static [u8] = unsafe { CStr::from_ptr(key) }.to_bytes();
    // The value's node(s), then the key's.
    let room = if matches!(value, Atom::Blob { .. }) {
        Room { end: 2, singles: 1 }
    } else {
        Room { end: 0, singles: 2 }
    };
    let mut unused = 0u32;
    // SAFETY: per the contract.
    unsafe {
        build(&mut unused, items, arena, room, |t, a| {
            let k = yac::utf8::validate_str(key)?;
            let old = match (a, borrowed) {
                (Some(a), _) => t.map_put_new(map, k, value, a)?,
                (None, Some(v)) => t.map_put_new_ref(map, k, v)?,
                (None, None) => return Err(Error::Invalid),
            };
            Ok(old.unwrap_or(yac::items::NONE))
        })
    }
}

/// `put_with` for a value whose bytes (if any) the caller keeps alive.
///
/// # Safety
/// As for `put_with`.
unsafe fn put_static(
    items: *mut YACItems,
    arena: *mut YACArena,
    map: u32,
    key: *const c_char,
    value: Atom<'static>,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe { put_with(items, arena, map, key, &value, Some(&value)) }
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
    unsafe { put_static(items, arena, map, key, Atom::Uint(v)) }
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
    unsafe { put_static(items, arena, map, key, Atom::from_i64(v)) }
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
    unsafe { put_static(items, arena, map, key, Atom::Bool(v)) }
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
    unsafe { put_static(items, arena, map, key, Atom::Nil) }
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
    if s.is_null() {
        return YACErr::YACErrInvalid;
    }
    // SAFETY: non-NULL and NUL-terminated (contract); alive while the tree
    // is used when no arena copies it.
    let b: &'static [u8] = unsafe { CStr::from_ptr(s) }.to_bytes();
    let Ok(text) = yac::utf8::validate_str(b) else {
        return YACErr::YACErrBadUTF8;
    };
    // SAFETY: per the contract.
    unsafe { put_static(items, arena, map, key, Atom::Str(text)) }
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
    let mut b = [0u8; 8];
    let n = match yac::float::shortest(d, &mut b) {
        Ok(n) => n,
        Err(e) => return e.into(),
    };
    // The arena (required) copies the bytes, so a local buffer will do.
    let value = Atom::Float(b.get(..n).unwrap_or(&[]));
    // SAFETY: per the contract.
    unsafe { put_with(items, arena, map, key, &value, None) }
}
