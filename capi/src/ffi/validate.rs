//! C API of the validator without a tree (`YACValidate`).

use core::ffi::c_uchar;

use super::items::YACItemsFlag;
use super::{input, out, run, YACErr};
use yac::items::Options;
use yac::validate::validate;

/// Validates one whole item at `buf[*off]` (`len` bytes of input in all)
/// exactly as `YACItemsParse` with the same `maxDepth` and `flags` would,
/// without building a tree: every atom (UTF-8 unless `YACItemsTrustUTF8`,
/// minimal forms, TAI64, MAGIC), balanced containers, BLOB chunks, MAP keys
/// (non-empty STR, strictly ascending, each with a value) and `maxDepth`
/// (0 = no limit). The verdict, the error code and `*off` are the ones
/// `YACItemsParse` gives for the same input.
///
/// Memory: `levels`, `levelsLen` words of the caller's (a small array on
/// the stack is fine), one per nesting level below the root; nothing else
/// beyond a few locals, no recursion. A document nested deeper than
/// `levelsLen + 1` gives `YACErrNoMem` at the container that did not fit
/// (unless `maxDepth` stops it first with `YACErrDeepRecursion`); `levels`
/// may be NULL when `levelsLen` is 0 (flat documents only).
///
/// Returns: `YACErrNo` with `*off` past the item and `*nodes` the number
/// of nodes `YACItemsParse` takes for it (so a pool can be sized exactly);
/// else the error, with `*off` at the offending atom (`YACErrNotEnough`:
/// at the incomplete one) and `*nodes` unchanged.
///
/// Pointers: `off`, `nodes` writable; `levels` writable for `levelsLen`
/// words; `buf` readable for `len` bytes. None is kept after the call.
///
/// # Safety
/// As stated under "Pointers".
#[no_mangle]
pub unsafe extern "C" fn YACValidate(
    off: *mut usize,
    nodes: *mut usize,
    levels: *mut usize,
    levels_len: usize,
    buf: *const c_uchar,
    len: usize,
    max_depth: u32,
    flags: u32,
) -> YACErr {
    run(|| {
        // SAFETY: NULL-checked; valid per the contract.
        let (off, nodes, buf) = unsafe { (out(off)?, out(nodes)?, input(buf, len)?) };
        // SAFETY: as above; `levels` is writable for `levels_len` words
        // and aliases none of the other arguments (contract).
        let levels = unsafe { words(levels, levels_len)? };
        let opts = Options {
            max_depth,
            trust_utf8: flags & YACItemsFlag::YACItemsTrustUTF8 as u32 != 0,
        };
        let mut at = *off;
        let r = validate(buf, &mut at, levels, opts);
        *off = at;
        *nodes = r?;
        Ok(())
    })
}

/// Borrows `len` writable words at `ptr`; NULL only with `len == 0`.
///
/// # Safety
/// A non-NULL `ptr` must be writable for `len` words for `'a`, aligned and
/// not aliased by any other reference during that time.
unsafe fn words<'a>(ptr: *mut usize, len: usize) -> Result<&'a mut [usize], YACErr> {
    if ptr.is_null() {
        return if len == 0 {
            Ok(&mut [])
        } else {
            Err(YACErr::YACErrInvalid)
        };
    }
    if len > isize::MAX as usize / core::mem::size_of::<usize>() {
        return Err(YACErr::YACErrInvalid);
    }
    // SAFETY: non-NULL, size within isize::MAX, and the caller promises
    // the region is writable, aligned and unaliased for the call.
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}
