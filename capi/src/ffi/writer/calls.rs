//! The writer's item calls: containers, scalars, strings and BLOBs, each
//! one call of the core's writer through [`with`].

// Parameter names follow cyac's C style (camelCase) in the header.
#![allow(non_snake_case)]

use super::*;

/// Opens a LIST; close it with `YACWriterListClose`.
///
/// # Safety
/// The contract of every item call: `w` must be NULL or a writer set up by
/// `YACWriterInit`/`YACWriterInitCount` whose regions are still valid.
/// Byte arguments must be readable for their lengths (NULL only with
/// length 0) and may not overlap the writer's regions.
#[no_mangle]
pub unsafe extern "C" fn YACWriterListOpen(w: *mut YACWriter) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.list()) }
}

/// Opens a MAP: then a key (`YACWriterStr`) and its value, for each pair,
/// keys in ascending order (length first, then bytewise); close it with
/// `YACWriterMapClose`. A key that is not a non-empty STR gives
/// `YACErrMapBadKey`, one not above the previous key `YACErrMapUnordered`.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterMapOpen(w: *mut YACWriter) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.map()) }
}

/// Opens a MAP whose keys may come in any order: `YACWriterMapClose` sorts its
/// pairs in place in the buffer (an insertion sort: free when the keys
/// come in order, O(n^2) in the number of keys otherwise, no heap) and
/// refuses a duplicate key (`YACErrMapUnordered`, and the MAP is taken
/// back out of the buffer). The whole MAP must fit in the buffer.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterMapOpenSorted(w: *mut YACWriter) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.map_sorted()) }
}

/// Closes the innermost container, a LIST. Refused: nothing open
/// (`YACErrUnexpectedEOC`), a MAP (`YACErrWrongClose`), an open BLOB
/// (`YACErrBlobBadTerm`).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterListClose(w: *mut YACWriter) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.close_checked(false)) }
}

/// Closes the innermost container, a MAP (sorted on close or not).
/// Refused: nothing open (`YACErrUnexpectedEOC`), a LIST
/// (`YACErrWrongClose`), a MAP whose last key has no value
/// (`YACErrMapNoVal`), an open BLOB (`YACErrBlobBadTerm`).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterMapClose(w: *mut YACWriter) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.close_checked(true)) }
}

/// Writes NIL.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterNIL(w: *mut YACWriter) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.nil()) }
}

/// Writes TRUE or FALSE.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterBool(w: *mut YACWriter, v: bool) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.bool(v)) }
}

/// Writes a +INT.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterUint(w: *mut YACWriter, v: u64) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.uint(v)) }
}

/// Writes a +INT (`v` >= 0) or -INT.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterSint(w: *mut YACWriter, v: i64) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.sint(v)) }
}

/// Writes an integer of any size: +INT (`neg` false) of value `mag`, or
/// -INT (`neg` true) of value -1 - `mag`, `mag` being the big-endian
/// magnitude of `magLen` bytes (leading zero bytes are dropped).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterBigint(
    w: *mut YACWriter,
    neg: bool,
    mag: *const c_uchar,
    magLen: usize,
) -> YACErr {
    // SAFETY: `w` and `mag` per this function's contract.
    unsafe {
        with(w, |c| match input(mag, magLen) {
            Ok(m) => c.bigint(neg, m),
            Err(_) => Err(c.refuse(Error::Invalid)),
        })
    }
}

/// Writes a float in the shortest IEEE 754 width (2, 4 or 8 bytes) that
/// holds `d` exactly (NaN payloads kept). Negative zero has no encoding:
/// `YACErrFloatNonMinimal`.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterFloat(w: *mut YACWriter, d: f64) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.float(d)) }
}

/// Writes a float given as its big-endian IEEE 754 bytes (`pLen` 2, 4, 8,
/// 16 or 32), which must be canonical (`YACErrFloatNonMinimal` otherwise).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterFloatRaw(
    w: *mut YACWriter,
    p: *const c_uchar,
    pLen: usize,
) -> YACErr {
    // SAFETY: `w` and `p` per this function's contract.
    unsafe {
        with(w, |c| match input(p, pLen) {
            Ok(b) => c.scalar(&yac::Atom::Float(b)),
            Err(_) => Err(c.refuse(Error::Invalid)),
        })
    }
}

/// Writes a TAI64 (`labelLen` 8), TAI64N (12) or TAI64NA (16) label, which
/// must be valid and minimal (see `YACAtomTAI64Encode`).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterTAI64(
    w: *mut YACWriter,
    label: *const c_uchar,
    labelLen: usize,
) -> YACErr {
    // SAFETY: `w` and `label` per this function's contract.
    unsafe {
        with(w, |c| match input(label, labelLen) {
            Ok(l) => c.scalar(&yac::Atom::Tai64(l)),
            Err(_) => Err(c.refuse(Error::Invalid)),
        })
    }
}

/// Writes the TAI64 label (TAI64N when `nsec` is not 0) of a UNIX time:
/// `unixSec` seconds since 1970-01-01 00:00:00 UTC and `nsec`
/// nanoseconds (leap seconds are added; `nsec` above 999999999 gives
/// `YACErrTAI64BadNsec`).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterUTC(w: *mut YACWriter, unixSec: i64, nsec: u32) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.tai64_utc(unixSec, nsec)) }
}

/// Writes a STR of the `sLen` bytes at `s` (no terminating NUL needed):
/// a value, or the next key when a MAP is open. Invalid UTF-8 or a NUL
/// byte gives `YACErrBadUTF8`.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterStr(w: *mut YACWriter, s: *const c_char, sLen: usize) -> YACErr {
    // SAFETY: `w` and `s` per this function's contract.
    unsafe {
        with(w, |c| match input(s.cast(), sLen) {
            // validate_str refuses NUL too.
            Ok(b) => match utf8::validate_str(b) {
                Ok(t) => c.str_without_nul(t),
                Err(e) => Err(c.refuse(e)),
            },
            Err(_) => Err(c.refuse(Error::Invalid)),
        })
    }
}

/// Writes a STR of the NUL-terminated string `s` (as `YACWriterStr` with
/// `strlen(s)`).
///
/// # Safety
/// As for `YACWriterListOpen`; `s` must be NULL (`YACErrInvalid`) or
/// NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn YACWriterStrZ(w: *mut YACWriter, s: *const c_char) -> YACErr {
    if s.is_null() {
        // SAFETY: `w` per this function's contract.
        return unsafe { with(w, |c| Err(c.refuse(Error::Invalid))) };
    }
    // SAFETY: non-NULL and NUL-terminated by contract.
    let bytes = unsafe { CStr::from_ptr(s) }.to_bytes();
    // SAFETY: `bytes` is readable for its length.
    unsafe { YACWriterStr(w, bytes.as_ptr().cast(), bytes.len()) }
}

/// Writes a BIN of the `vLen` bytes at `v`; inside a BLOB, a chunk (see
/// `YACWriterChunk`).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterBin(w: *mut YACWriter, v: *const c_uchar, vLen: usize) -> YACErr {
    // SAFETY: `w` and `v` per this function's contract.
    unsafe {
        with(w, |c| match input(v, vLen) {
            Ok(b) => c.bin(b),
            Err(_) => Err(c.refuse(Error::Invalid)),
        })
    }
}

/// Writes a HEXLET of the 16 bytes at `hexlet`.
///
/// # Safety
/// As for `YACWriterListOpen`; `hexlet` readable for 16 bytes.
#[no_mangle]
pub unsafe extern "C" fn YACWriterHexlet(w: *mut YACWriter, hexlet: *const c_uchar) -> YACErr {
    // SAFETY: `w` and `hexlet` per this function's contract.
    unsafe {
        with(w, |c| {
            match input(hexlet, 16)
                .ok()
                .and_then(|h| <&[u8; 16]>::try_from(h).ok())
            {
                Some(h) => c.hexlet(h),
                None => Err(c.refuse(Error::Invalid)),
            }
        })
    }
}

/// Writes a MAGIC: "KEKS" then the 12 bytes at `magic`: `magicLen` must be
/// 12 (pad a shorter magic with zero bytes yourself; another length gives
/// `YACErrInvalid`). Before a document's root it does not count as the
/// root.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterMagic(
    w: *mut YACWriter,
    magic: *const c_uchar,
    magicLen: usize,
) -> YACErr {
    // SAFETY: `w` and `magic` per this function's contract.
    unsafe {
        with(w, |c| match input(magic, magicLen) {
            Ok(m) => c.magic(m),
            Err(_) => Err(c.refuse(Error::Invalid)),
        })
    }
}

/// Opens a BLOB of chunks of `chunkLen` bytes (0 gives `YACErrInvalid`;
/// for the format's largest chunk length, 2^64, use
/// `YACWriterBlobOpenMinus1`): then `YACWriterChunk` with chunks of
/// exactly `chunkLen` bytes, and a last, shorter one (possibly empty),
/// which ends the BLOB. Anything else before that gives
/// `YACErrBlobBadTerm`.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterBlobOpen(w: *mut YACWriter, chunkLen: u64) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe {
        with(w, |c| match chunkLen.checked_sub(1) {
            Some(m) => c.blob(m),
            None => Err(c.refuse(Error::Invalid)),
        })
    }
}

/// Opens a BLOB of chunks of `chunkLenMinus1 + 1` bytes, the wire's own
/// field: every chunk length from 1 to 2^64 (`UINT64_MAX`). Otherwise as
/// `YACWriterBlobOpen`.
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterBlobOpenMinus1(w: *mut YACWriter, chunkLenMinus1: u64) -> YACErr {
    // SAFETY: `w` per this function's contract.
    unsafe { with(w, |c| c.blob(chunkLenMinus1)) }
}

/// Writes one chunk of the open BLOB: `vLen` equal to its chunk length, or
/// shorter to end it (longer: `YACErrBlobBadChunk`; no BLOB open:
/// `YACErrInvalid`).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterChunk(
    w: *mut YACWriter,
    v: *const c_uchar,
    vLen: usize,
) -> YACErr {
    // SAFETY: `w` and `v` per this function's contract.
    unsafe {
        with(w, |c| match input(v, vLen) {
            Ok(b) => c.chunk(b),
            Err(_) => Err(c.refuse(Error::Invalid)),
        })
    }
}

/// Writes a whole BLOB of the `vLen` bytes at `v`, in chunks of `chunkLen`
/// bytes (0 gives `YACErrInvalid`).
///
/// # Safety
/// As for `YACWriterListOpen`.
#[no_mangle]
pub unsafe extern "C" fn YACWriterBlob(
    w: *mut YACWriter,
    chunkLen: u64,
    v: *const c_uchar,
    vLen: usize,
) -> YACErr {
    // SAFETY: `w` and `v` per this function's contract.
    unsafe {
        with(w, |c| match input(v, vLen) {
            Ok(b) => c.blob_bytes(chunkLen, b),
            Err(_) => Err(c.refuse(Error::Invalid)),
        })
    }
}
