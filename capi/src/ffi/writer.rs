//! C API of the streaming writer (`struct YACWriter`, `YACWriter...`): a
//! thin layer over the core's writer (`yac::writer`), which holds every
//! rule. The header's inline calls (`capi/src/ffi/header/writer_inline.h`) do
//! the common writes on the public hot state and call these functions for
//! everything else.

// Parameter names follow cyac's C style (camelCase) in the header.
#![allow(non_snake_case)]

use core::ffi::{c_char, c_uchar, c_void, CStr};

use super::{input, out, YACErr, YACItemType};
use yac::error::Error;
use yac::utf8;
use yac::writer::{Core, Hot, Level, Sink, State};

/// Flush callback of a streaming writer: receives `len` (> 0) bytes at
/// `buf` to pass on (write to a file or socket), in order. Returns
/// `YACErrNo` (0) on success; any other `YACErr` value becomes the
/// writer's sticky error (unknown values give `YACErrInvalid`).
pub type YACWriterFlushFn =
    Option<unsafe extern "C" fn(ctx: *mut c_void, buf: *const c_uchar, len: usize) -> u32>;

/// A streaming writer: set it up with `YACWriterInit` or
/// `YACWriterInitCount`, write items with the `YACWriter...` calls (or
/// their inline forms, `YACWriter...Inline`), and end with
/// `YACWriterFinish`.
///
/// Lifetimes: the writer lives in caller memory and keeps pointers to the
/// output buffer, the array of `struct YACWriterLevel` (one per open
/// container: as deep as documents nest) and the optional key area that
/// `YACWriterInit` was given. They must stay valid, and be changed by no
/// one else, until the last call on the writer (reading the buffer between
/// calls is fine); the writer frees nothing.
///
/// Errors: every call returns the writer's error after the call:
/// `YACErrNo`, or the first error met, which sticks (the call and every
/// later one then do nothing), so checking the result of
/// `YACWriterFinish` alone is enough; `YACWriterFailure` tells which call
/// failed and at what output offset. `YACErrNoMem` (the buffer is full)
/// is the exception: the writer writes nothing more but goes on counting
/// and checking, so that `YACWriterFinish` gives the exact size needed; a
/// refusal met later replaces it. The buffer's content is then
/// unspecified.
///
/// The fields before `reserved` are the hot state that the header's inline
/// calls use: read them if you like (`hot.pos` is the bytes in the buffer),
/// never write them. The rest is internal. 192 bytes with 64-bit pointers,
/// 168 with 32-bit ones.
#[repr(C)]
pub struct YACWriter {
    /// The output buffer.
    pub buf: *mut c_uchar,
    /// The caller's level array.
    pub levels: *mut Level,
    /// The state the inline calls read and update.
    pub hot: Hot,
    /// Internal state: do not touch.
    pub reserved: [u64; 15],
}

/// Where a writer's sticky error was met (`YACWriterFailure`).
#[repr(C)]
pub struct YACWriterFailure {
    /// The index of the refused call: 0 for the first call on the writer
    /// after `YACWriterInit` (every item call, inline or not, and
    /// `YACWriterFinish` count; the setup and query calls do not).
    pub call: u64,
    /// The output offset where the refused item would have started.
    pub offset: u64,
    /// Containers (and BLOBs) open at the refusal: at `YACWriterFinish`,
    /// how many were left open.
    pub depth: u32,
    /// The innermost of them then: `YACItemList`, `YACItemMap` or
    /// `YACItemBlob`; `YACItemInvalid` (0) at the top level.
    pub open: u32,
}

/// What `struct YACWriter` holds: plain integers and raw pointers, so that
/// every bit pattern is a valid value of it. Its first fields are the
/// public ones of `struct YACWriter`.
#[repr(C)]
struct Raw {
    buf: *mut u8,
    levels: *mut Level,
    st: State,
    cap: usize,
    n_levels: usize,
    keys: *mut u8,
    n_keys: usize,
    flush: YACWriterFlushFn,
    ctx: *mut c_void,
    magic: u64,
}

/// `Raw::magic` of an initialised writer ("YACWrite").
const MAGIC: u64 = 0x5941_4357_7269_7465;

const _: () = {
    use core::mem::{align_of, offset_of, size_of};
    assert!(size_of::<Raw>() <= size_of::<YACWriter>());
    assert!(align_of::<Raw>() <= align_of::<YACWriter>());
    assert!(offset_of!(Raw, buf) == offset_of!(YACWriter, buf));
    assert!(offset_of!(Raw, levels) == offset_of!(YACWriter, levels));
    assert!(offset_of!(Raw, st) == offset_of!(YACWriter, hot));
};

/// The writer's error as a `YACErr`.
#[inline(always)]
fn status(st: &State) -> YACErr {
    match st.error() {
        None => YACErr::YACErrNo,
        Some(e) => YACErr::from(e),
    }
}

/// A caller's memory region as a slice.
///
/// # Safety
/// `ptr` must be non-NULL, aligned, and valid for reads and writes of `len`
/// `T`s (dangling when `len` is 0), and not otherwise referenced, for `'a`.
#[inline(always)]
unsafe fn region<'a, T>(ptr: *mut T, len: usize) -> &'a mut [T] {
    // SAFETY: by this function's contract (`init` stored a dangling
    // pointer for an empty region and checked the sizes).
    unsafe { core::slice::from_raw_parts_mut(ptr, len) }
}

/// The initialised writer at `w`, if any.
///
/// # Safety
/// `w` must be NULL or point to a `struct YACWriter`, initialised or not.
#[inline(always)]
unsafe fn raw<'a>(w: *mut YACWriter) -> Option<&'a mut Raw> {
    // SAFETY: `Raw` fits in `YACWriter` (size and alignment asserted) and
    // every bit pattern is a valid `Raw`; `w` is valid if non-NULL.
    let raw = unsafe { w.cast::<Raw>().as_mut() }?;
    (raw.magic == MAGIC).then_some(raw)
}

/// Runs `f`, one call on the writer, on the core writer kept in `w` and
/// returns the writer's error after it.
///
/// # Safety
/// `w` must be NULL or point to a `struct YACWriter` (initialised or not;
/// an uninitialised one gives `YACErrInvalid`) whose regions, when it was
/// initialised by `YACWriterInit`, are still valid and not referenced
/// elsewhere.
#[inline(always)]
unsafe fn with(
    w: *mut YACWriter,
    f: impl FnOnce(&mut Core<'_, '_>) -> Result<(), Error>,
) -> YACErr {
    // SAFETY: per this function's contract.
    let Some(raw) = (unsafe { raw(w) }) else {
        return YACErr::YACErrInvalid;
    };
    raw.st.count_call();
    let (flush, ctx) = (raw.flush, raw.ctx);
    let mut call = move |b: &[u8]| -> Result<(), Error> {
        let Some(f) = flush else { return Ok(()) };
        // SAFETY: the caller's callback, called as its contract says.
        match unsafe { f(ctx, b.as_ptr(), b.len()) } {
            0 => Ok(()),
            code => Err(Error::from_code(code).unwrap_or(Error::Invalid)),
        }
    };
    let sink: Option<Sink<'_>> = match flush {
        Some(_) => Some(&mut call),
        None => None,
    };
    // SAFETY: the regions YACWriterInit checked and recorded, valid and
    // unaliased per this function's contract; they are distinct from
    // `*w` (the caller's own memory) and from each other.
    let mut core = unsafe {
        Core {
            buf: region(raw.buf, raw.cap),
            levels: region(raw.levels, raw.n_levels),
            keys: region(raw.keys, raw.n_keys),
            sink,
            st: &mut raw.st,
        }
    };
    let _ = f(&mut core);
    status(&raw.st)
}

/// Checks the regions of `raw` and stores it in `w`.
///
/// # Safety
/// As for `YACWriterInit`.
unsafe fn init(w: *mut YACWriter, mut raw: Raw) -> YACErr {
    let bad =
        |null: bool, n: usize, size: usize| (null && n != 0) || n > isize::MAX as usize / size;
    if bad(raw.buf.is_null(), raw.cap, 1)
        || bad(
            raw.levels.is_null(),
            raw.n_levels,
            core::mem::size_of::<Level>(),
        )
        || bad(raw.keys.is_null(), raw.n_keys, 1)
    {
        return YACErr::YACErrInvalid;
    }
    // Empty regions get a dangling, aligned, non-NULL pointer, so that
    // every call makes its slices without a test.
    if raw.buf.is_null() {
        raw.buf = core::ptr::NonNull::dangling().as_ptr();
    }
    if raw.levels.is_null() {
        raw.levels = core::ptr::NonNull::dangling().as_ptr();
    }
    if raw.keys.is_null() {
        raw.keys = core::ptr::NonNull::dangling().as_ptr();
    }
    // SAFETY: `w` is NULL or writable for a `struct YACWriter`, which
    // `Raw` fits (asserted); it need not be initialised.
    match unsafe { out(w.cast::<Raw>()) } {
        Ok(r) => {
            *r = raw;
            YACErr::YACErrNo
        }
        Err(e) => e,
    }
}

/// A writer's parts before its first item.
fn fresh(
    buf: *mut c_uchar,
    cap: usize,
    levels: *mut Level,
    n_levels: usize,
    keys: *mut c_uchar,
    n_keys: usize,
    st: State,
) -> Raw {
    Raw {
        magic: MAGIC,
        buf,
        cap,
        levels,
        n_levels,
        keys,
        n_keys,
        flush: None,
        ctx: core::ptr::null_mut(),
        st,
    }
}

/// Initialises a writer into the buffer `buf` of `cap` bytes, with the
/// stack `levels` of `levelsLen` entries (the deepest nesting allowed;
/// deeper gives `YACErrDeepRecursion`) and an optional key area `keys` of
/// `keysLen` bytes (NULL, 0 for none).
///
/// MAP keys are checked against the MAP's previous key, kept in the key
/// area when there is one (each open MAP keeps its last key there:
/// `YAC_WRITER_KEYS_SIZE(depth, longestKey)` bytes are enough for MAPs
/// nested `depth` deep with keys of at most `longestKey` bytes; a key that
/// does not fit gives `YACErrLenTooBig`), else read back from the buffer.
/// A flushing writer (`YACWriterSetFlush`) without a key area therefore
/// keeps each open MAP's last key in the buffer, which a large value under
/// a MAP may fill, and refuses a key longer than the buffer (both
/// `YACErrNoMem`): give streams a key area. A writer
/// without a key area that runs out of room uses its buffer as one from
/// then on: key order stays checked while the open MAPs' last keys fit in
/// the buffer.
///
/// One document: a second root item gives `YACErrSecondRoot` (see
/// `YACWriterAllowSequence`). The whole buffer is the writer's: the bytes
/// past those written may be used as scratch (a few bytes are stored at
/// once when there is room).
///
/// The writer keeps the four pointers (see `struct YACWriter` on
/// lifetimes). `w` may be uninitialised; an initialised one is reset.
///
/// Returns: `YACErrInvalid` for a NULL `w`, or a NULL region of non-zero
/// length.
///
/// # Safety
/// `w` must be writable for a `struct YACWriter`; `buf` for `cap` bytes,
/// `levels` for `levelsLen` entries and `keys` for `keysLen` bytes, each
/// distinct, for as long as the writer is used.
#[no_mangle]
pub unsafe extern "C" fn YACWriterInit(
    w: *mut YACWriter,
    buf: *mut c_uchar,
    cap: usize,
    levels: *mut Level,
    levelsLen: usize,
    keys: *mut c_uchar,
    keysLen: usize,
) -> YACErr {
    let st = State::new(cap, levelsLen, keysLen != 0);
    let raw = fresh(buf, cap, levels, levelsLen, keys, keysLen, st);
    // SAFETY: this function's contract is init's.
    unsafe { init(w, raw) }
}

/// Initialises a count-only writer: nothing is written, every call is
/// checked as usual, and `YACWriterFinish` gives the document's size (to
/// size a buffer exactly). Parameters as for `YACWriterInit`. Key order is
/// checked only with a key area (without one there is nowhere to keep the
/// previous keys). MAPs sorted on close are counted exactly, but their
/// duplicate keys cannot be seen.
///
/// # Safety
/// As for `YACWriterInit`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterInitCount(
    w: *mut YACWriter,
    levels: *mut Level,
    levelsLen: usize,
    keys: *mut c_uchar,
    keysLen: usize,
) -> YACErr {
    let null = core::ptr::null_mut();
    let st = State::count_only(levelsLen, keysLen != 0);
    let raw = fresh(null, 0, levels, levelsLen, keys, keysLen, st);
    // SAFETY: this function's contract is init's (no buffer).
    unsafe { init(w, raw) }
}

/// Makes `w` a streaming writer: whenever the buffer is full, and at
/// `YACWriterFinish`, its bytes go to `flush(flushCtx, bytes, len)`
/// (payloads larger than the buffer go straight through). Call it after
/// `YACWriterInit` and before the first item. The bytes of an open MAP
/// sorted on close (`YACWriterMapOpenSorted`) stay in the buffer until it is
/// closed (a larger one gives `YACErrNoMem`).
///
/// # Safety
/// `w` as for every writer call; `flush` must be safe to call with
/// `flushCtx` until the last call on the writer.
#[no_mangle]
pub unsafe extern "C" fn YACWriterSetFlush(
    w: *mut YACWriter,
    flush: YACWriterFlushFn,
    flushCtx: *mut c_void,
) -> YACErr {
    // SAFETY: `w` per this function's contract.
    match unsafe { raw(w) } {
        Some(raw) if raw.st.is_fresh() => {
            raw.flush = flush;
            raw.ctx = flushCtx;
            YACErr::YACErrNo
        }
        _ => YACErr::YACErrInvalid,
    }
}

/// Lets `w` write a sequence of documents: any number of root items one
/// after another. Without it a second root item gives `YACErrSecondRoot`
/// (which catches a forgotten outer `YACWriterListOpen`); a new document
/// may still follow each `YACWriterFinish`. Call it after `YACWriterInit`
/// and before the first item (else `YACErrInvalid`).
///
/// # Safety
/// `w` as for every writer call.
#[no_mangle]
pub unsafe extern "C" fn YACWriterAllowSequence(w: *mut YACWriter) -> YACErr {
    // SAFETY: `w` per this function's contract.
    match unsafe { raw(w) } {
        Some(raw) if raw.st.is_fresh() => {
            raw.st.allow_sequence();
            YACErr::YACErrNo
        }
        _ => YACErr::YACErrInvalid,
    }
}

/// Ends the document(s) written so far: refuses containers or a BLOB left
/// open (`YACErrUnclosed`; `YACWriterFailure` tells how many and the
/// innermost one's kind), hands the rest of the buffer to the flush
/// callback, and sets `*len` (if `len` is not NULL) to the total size in
/// bytes. After `YACErrNoMem`, `*len` is the size the buffer needs. The
/// writer may go on with another document afterwards.
///
/// # Safety
/// `w` as for every writer call; `len` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn YACWriterFinish(w: *mut YACWriter, len: *mut usize) -> YACErr {
    let mut total = 0u64;
    // SAFETY: `w` per this function's contract.
    let e = unsafe {
        with(w, |c| {
            let r = c.finish().map(|_| ());
            total = c.st.total();
            r
        })
    };
    // SAFETY: `len` is NULL or writable (contract).
    if let Ok(l) = unsafe { out(len) } {
        *l = usize::try_from(total).unwrap_or(usize::MAX);
    }
    e
}

/// The writer's error: `YACErrNo`, or the first error met (see `struct
/// YACWriter` on errors). `YACErrInvalid` for a NULL or uninitialised `w`.
/// Not a call on the writer: it counts for no `YACWriterFailure` index.
///
/// # Safety
/// `w` as for every writer call.
#[no_mangle]
pub unsafe extern "C" fn YACWriterError(w: *mut YACWriter) -> YACErr {
    // SAFETY: `w` per this function's contract.
    match unsafe { raw(w) } {
        Some(raw) => status(&raw.st),
        None => YACErr::YACErrInvalid,
    }
}

/// The writer's error, as `YACWriterError`, and where it was met: sets
/// `*outWhere` (if not NULL) to the refused call's index and output offset
/// and the containers open then. Without a refusal (`YACErrNo`,
/// `YACErrNoMem`) `*outWhere` is all zero.
///
/// # Safety
/// `w` as for every writer call; `outWhere` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn YACWriterFailure(
    w: *mut YACWriter,
    out_where: *mut YACWriterFailure,
) -> YACErr {
    // SAFETY: `w` per this function's contract.
    let Some(raw) = (unsafe { raw(w) }) else {
        return YACErr::YACErrInvalid;
    };
    let f = raw.st.failure().unwrap_or_default();
    let open = match f.open {
        Some(yac::atom::tag::LIST) => YACItemType::YACItemList,
        Some(yac::atom::tag::MAP) => YACItemType::YACItemMap,
        Some(_) => YACItemType::YACItemBlob,
        None => YACItemType::YACItemInvalid,
    };
    // SAFETY: `where` is NULL or writable (contract).
    if let Ok(o) = unsafe { out(out_where) } {
        *o = YACWriterFailure {
            call: f.call,
            offset: f.offset,
            depth: f.depth,
            open: open as u32,
        };
    }
    status(&raw.st)
}

mod calls;
pub use calls::*;
