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
use super::{inp, input, out, run, YACErr};
use yac::atom::Atom;
use yac::error::Error;
use yac::items::{Arena, ItemsMut, NONE};

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
unsafe fn reserve(items: *mut YACItems, room: Room) -> Result<(), Error> {
    // SAFETY: per this function's contract.
    let Some(it) = (unsafe { items.as_ref() }) else {
        return Err(Error::Invalid);
    };
    let free = it.free_list().len;
    let (mut len, mut cap) = (it.len, it.cap);
    while !room.fits(len, cap, free) {
        // SAFETY: per this function's contract.
        if !unsafe { grow(items) } {
            return Err(Error::NoMem);
        }
        // SAFETY: as above; `grow` changed only `list` and `cap`.
        let it = unsafe { items.as_ref() }.ok_or(Error::Invalid)?;
        (len, cap) = (it.len, it.cap);
    }
    Ok(())
}

/// The free part of a caller's arena, checked.
type Free<'x> = Option<(&'x mut YACArena, Arena<'static>)>;

/// Borrows the free part of `arena` (NULL: none).
///
/// # Safety
/// `arena` NULL or a `struct YACArena` whose `mem` is writable for `cap`
/// bytes and lives as long as the tree.
unsafe fn free_part<'x>(arena: *mut YACArena) -> Result<Free<'x>, Error> {
    // SAFETY: `arena` is NULL or valid (contract).
    let Some(a) = (unsafe { arena.as_mut() }) else {
        return Ok(None);
    };
    if a.len > a.cap || (a.mem.is_null() && a.cap != 0) {
        return Err(Error::Invalid);
    }
    let free: &'static mut [u8] = if a.mem.is_null() {
        &mut []
    } else {
        // SAFETY: `mem` is writable for `cap` bytes and lives as long as
        // the tree (contract); bytes from `len` on are not pointed at by
        // any node yet.
        unsafe { core::slice::from_raw_parts_mut(a.mem.add(a.len), a.cap - a.len) }
    };
    Ok(Some((a, Arena::new(free))))
}

/// Runs a build call that needs `room` and sets `*idx` to the node `f`
/// made. Once an error sticks (see `YACItemsBuildFailure`) the call is
/// refused with it before anything else, the pool not grown. Otherwise
/// room first (growing the pool), then `f` on the tree and, when `arena`
/// is not NULL, an arena over its free part, whose use is recorded
/// afterwards; an error met on the way sticks. `*idx` is set on success
/// only. A NULL `idx` is refused unless `optional`.
///
/// # Safety
/// `idx` NULL or writable; `items` as for `with_mut`; `arena` as for
/// `free_part`.
unsafe fn build(
    idx: *mut u32,
    optional: bool,
    items: *mut YACItems,
    arena: *mut YACArena,
    room: Room,
    f: impl FnOnce(&mut ItemsMut<'_, 'static>, Option<&mut Arena<'static>>) -> Result<u32, Error>,
) -> YACErr {
    // SAFETY: `idx` NULL or writable (contract).
    let idx = unsafe { idx.as_mut() };
    run(|| {
        // SAFETY: `items` per this function's contract.
        let stuck = unsafe { inp(items.cast_const()) }?
            .build_log()
            .failure()
            .is_some();
        let ready = if stuck {
            Ok(None)
        } else if idx.is_none() && !optional {
            Err(Error::Invalid)
        } else {
            // SAFETY: per this function's contract.
            unsafe { reserve(items, room).and_then(|()| free_part(arena)) }
        };
        // SAFETY: `items` per this function's contract.
        let made = unsafe {
            with_mut(items, |t| {
                t.build_call(|t| {
                    let mut free = ready?;
                    let made = f(t, free.as_mut().map(|(_, ar)| ar))?;
                    if let Some((a, ar)) = free {
                        a.len += ar.used();
                    }
                    Ok(made)
                })
            })
        }?;
        if let Some(i) = idx {
            *i = made;
        }
        Ok(())
    })
}

/// The arena an adder cannot do without.
fn need<'x>(arena: Option<&'x mut Arena<'static>>) -> Result<&'x mut Arena<'static>, Error> {
    arena.ok_or(Error::Invalid)
}

/// A pointer argument's bytes, as an error that can stick.
///
/// # Safety
/// As for `input`.
unsafe fn bytes<'x>(p: *const c_uchar, len: usize) -> Result<&'x [u8], Error> {
    // SAFETY: per this function's contract.
    unsafe { input(p, len) }.map_err(|_| Error::Invalid)
}

/// A NUL-terminated argument's bytes.
///
/// # Safety
/// `s` NULL or NUL-terminated and alive for `'x`.
unsafe fn c_str<'x>(s: *const c_char) -> Result<&'x [u8], Error> {
    if s.is_null() {
        return Err(Error::Invalid);
    }
    // SAFETY: non-NULL and NUL-terminated (contract).
    Ok(unsafe { CStr::from_ptr(s) }.to_bytes())
}

/// Makes a NIL node.
///
/// # Safety
/// `idx` writable; `items` as set up by `YACItemsInit`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddNIL(idx: *mut u32, items: *mut YACItems) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe { simple(idx, items, Room::ONE, |t| t.add_nil()) }
}

/// A build call of an adder that needs no arena.
///
/// # Safety
/// As for `YACItemsAddNIL`.
unsafe fn simple(
    idx: *mut u32,
    items: *mut YACItems,
    room: Room,
    f: impl FnOnce(&mut ItemsMut<'_, 'static>) -> Result<u32, Error>,
) -> YACErr {
    // SAFETY: per the contract (no arena).
    unsafe { build(idx, false, items, core::ptr::null_mut(), room, |t, _| f(t)) }
}

/// Makes a TRUE or FALSE node.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddBool(idx: *mut u32, items: *mut YACItems, v: bool) -> YACErr {
    // SAFETY: per the contract.
    unsafe { simple(idx, items, Room::ONE, |t| t.add_bool(v)) }
}

/// Makes a +INT node.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddUint(idx: *mut u32, items: *mut YACItems, v: u64) -> YACErr {
    // SAFETY: per the contract.
    unsafe { simple(idx, items, Room::ONE, |t| t.add_uint(v)) }
}

/// Makes a +INT (`v` >= 0) or -INT node.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddSint(idx: *mut u32, items: *mut YACItems, v: i64) -> YACErr {
    // SAFETY: per the contract.
    unsafe { simple(idx, items, Room::ONE, |t| t.add_int(v)) }
}

/// Makes an integer node of any size: +INT of value `mag` (`neg` false)
/// or -INT of value -1 - `mag` (`neg` true), `mag` being the big-endian
/// magnitude of `magLen` bytes (leading zero bytes are dropped, as the
/// wire form has none). A value that fits 64 bits makes the same node as
/// `YACItemsAddUint`/`YACItemsAddSint` (as a parse would); a larger one a
/// `YACItemPbig`/`YACItemNbig` node whose magnitude is copied into
/// `arena`, or (`arena` NULL) pointed at.
///
/// # Safety
/// As for `YACItemsAddStr`; `mag` readable for `magLen` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddBigint(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    neg: bool,
    mag: *const c_uchar,
    magLen: usize,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe {
        build(idx, false, items, arena, Room::ONE, |t, a| {
            // SAFETY: readable for `magLen` bytes, alive while the tree is
            // used when no arena copies them (contract).
            let m = bytes(mag, magLen)?;
            match a {
                Some(a) => t.add_bigint_copy(neg, m, a),
                None => t.add_bigint(neg, m),
            }
        })
    }
}

/// Makes an empty LIST.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddList(idx: *mut u32, items: *mut YACItems) -> YACErr {
    // SAFETY: per the contract.
    unsafe { simple(idx, items, Room::ONE, |t| t.add_list()) }
}

/// Makes an empty MAP (fill it with `YACItemsMapPut...`).
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddMap(idx: *mut u32, items: *mut YACItems) -> YACErr {
    // SAFETY: per the contract.
    unsafe { simple(idx, items, Room::ONE, |t| t.add_map()) }
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
    // SAFETY: per the contract.
    unsafe {
        simple(idx, items, Room::BLOB, |t| {
            t.add_blob(chunkLen.checked_sub(1).ok_or(Error::Invalid)?)
        })
    }
}

/// Makes an empty BLOB of chunks of `chunkLenMinus1 + 1` bytes, the
/// wire's own field: every chunk length from 1 to 2^64 (`UINT64_MAX`).
/// Otherwise as `YACItemsAddBlob`.
///
/// # Safety
/// As for `YACItemsAddNIL`.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddBlobMinus1(
    idx: *mut u32,
    items: *mut YACItems,
    chunkLenMinus1: u64,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe { simple(idx, items, Room::BLOB, |t| t.add_blob(chunkLenMinus1)) }
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
    // SAFETY: per the contract.
    unsafe {
        build(idx, false, items, arena, Room::ONE, |t, a| {
            // SAFETY: `s` readable for `sLen` bytes (contract); without an
            // arena the caller keeps them alive while the tree is used.
            let text = yac::utf8::validate_str(bytes(s.cast(), sLen)?)?;
            match a {
                Some(a) => t.add_str_copy(text, a),
                None => t.add_str(text),
            }
        })
    }
}

/// Makes a node of a bytes atom `atom` holds: copied into `arena` or
/// (`arena` NULL) pointed at.
///
/// # Safety
/// As for `YACItemsAddStr`; the atom's bytes alive while the tree is used
/// when no arena copies them.
unsafe fn add_bytes(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    atom: impl FnOnce() -> Result<Atom<'static>, Error>,
) -> YACErr {
    // SAFETY: per the contract.
    unsafe {
        build(idx, false, items, arena, Room::ONE, |t, a| {
            let atom = atom()?;
            match a {
                Some(a) => t.add_copy(&atom, a),
                None => t.add(&atom),
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
    // SAFETY: per the contract; the bytes as in YACItemsAddStr.
    unsafe { add_bytes(idx, items, arena, || Ok(Atom::Bin(bytes(v, vLen)?))) }
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
    // SAFETY: per the contract; the bytes as in YACItemsAddStr.
    unsafe {
        add_bytes(idx, items, arena, || {
            let h = bytes(hexlet, 16)?;
            Ok(Atom::Hexlet(h.try_into().map_err(|_| Error::Invalid)?))
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
    unsafe {
        build(idx, false, items, arena, Room::ONE, |t, a| {
            t.add_f64(d, need(a)?)
        })
    }
}

/// Makes a float node of its big-endian IEEE 754 bytes (`pLen` 2, 4, 8,
/// 16 or 32; other lengths: `YACErrInvalid`), which must be canonical
/// (`YACErrFloatNonMinimal` otherwise, as `YACWriterFloatRaw`): copied
/// into `arena`, or (`arena` NULL) pointed at.
///
/// # Safety
/// As for `YACItemsAddStr`; `p` readable for `pLen` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddFloatRaw(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    p: *const c_uchar,
    pLen: usize,
) -> YACErr {
    // SAFETY: per the contract; the bytes as in YACItemsAddStr.
    unsafe { add_bytes(idx, items, arena, || Ok(Atom::Float(bytes(p, pLen)?))) }
}

/// Makes a TAI64 node of a TAI64 (`labelLen` 8), TAI64N (12) or TAI64NA
/// (16) label, which must be valid and minimal (see
/// `YACAtomTAI64Encode`): copied into `arena`, or (`arena` NULL) pointed
/// at.
///
/// # Safety
/// As for `YACItemsAddStr`; `label` readable for `labelLen` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACItemsAddTAI64(
    idx: *mut u32,
    items: *mut YACItems,
    arena: *mut YACArena,
    label: *const c_uchar,
    labelLen: usize,
) -> YACErr {
    // SAFETY: per the contract; the bytes as in YACItemsAddStr.
    unsafe {
        add_bytes(idx, items, arena, || {
            Ok(Atom::Tai64(bytes(label, labelLen)?))
        })
    }
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
        build(idx, false, items, arena, Room::ONE, |t, a| {
            t.add_utc(unixSec, nsec, need(a)?)
        })
    }
}

/// Makes a MAGIC node of the 12 bytes at `magic`, stored in `arena`
/// (required): `magicLen` must be 12 (pad a shorter magic with zero bytes
/// yourself; another length gives `YACErrInvalid`, as `YACWriterMagic`).
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
    // SAFETY: per the contract.
    unsafe {
        build(idx, false, items, arena, Room::ONE, |t, a| {
            // SAFETY: `magic` readable for `magicLen` bytes (contract).
            let m = bytes(magic, magicLen)?;
            t.add_magic(m, need(a)?)
        })
    }
}

mod put;
pub use put::*;
mod sticky;
pub use sticky::*;
