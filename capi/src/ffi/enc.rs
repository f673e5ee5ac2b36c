//! C API of the encoder: one entry point per atom type.
//!
//! All encoders share one contract: `YACErr YACAtomXxxEncode(size_t *len,
//! unsigned char *buf, size_t cap, ...value...)` writes the atom's canonical
//! encoding at `buf`, which has `cap` bytes of room, and sets `*len` to the
//! number of bytes written. When `cap` is too small, nothing is written,
//! the result is `YACErrNoMem` and `*len` is the number of bytes needed (so
//! `buf = NULL, cap = 0` asks for the size). On any other error `*len` is 0.

// Parameter names follow cyac's C style (camelCase) in the header.
#![allow(non_snake_case)]

use core::ffi::{c_char, c_uchar};

use super::{input, out, output, run, YACErr};
use yac::atom::Atom;
use yac::enc;
use yac::error::Error;
use yac::{float, utf8};

/// The common body of every encoder: checks `len` and `buf`, asks `need`
/// for the size, and only when it fits lets `write` fill the buffer.
///
/// # Safety
/// `len` must be NULL or valid for writes; `buf` NULL or writable for `cap`
/// bytes and not aliased during the call.
pub(crate) unsafe fn emit(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    need: impl FnOnce() -> Result<usize, YACErr>,
    write: impl FnOnce(&mut [u8]) -> Result<usize, Error>,
) -> Result<(), YACErr> {
    // SAFETY: forwarded from this function's contract; NULL is checked by
    // the helpers.
    let (len, buf) = unsafe { (out(len)?, output(buf, cap)?) };
    *len = 0;
    let n = need()?;
    if n > buf.len() {
        *len = n;
        return Err(YACErr::YACErrNoMem);
    }
    *len = write(buf)?;
    Ok(())
}

/// [`emit`] for one atom of the core, or the error met while building it.
///
/// # Safety
/// As for [`emit`].
unsafe fn emit_atom(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    atom: Result<Atom<'_>, YACErr>,
) -> YACErr {
    let atom = match atom {
        Ok(a) => a,
        // SAFETY: forwarded from this function's contract.
        Err(e) => return unsafe { fail(len, e) },
    };
    run(|| {
        // SAFETY: forwarded from this function's contract.
        unsafe {
            emit(
                len,
                buf,
                cap,
                || Ok(enc::encoded_len(&atom)?),
                |b| enc::encode(&atom, b),
            )
        }
    })
}

/// Reports an error found before [`emit`] could run, clearing `*len` when
/// `len` is not NULL.
///
/// # Safety
/// `len` must be NULL or valid for writes.
unsafe fn fail(len: *mut usize, e: YACErr) -> YACErr {
    // SAFETY: forwarded from this function's contract (NULL checked).
    if let Ok(l) = unsafe { out(len) } {
        *l = 0;
    }
    e
}

/// Encodes EOC (0x00), which closes the innermost LIST or MAP.
///
/// The contract of every `YACAtom...Encode` function: it writes the atom's
/// canonical encoding at `buf`, which has `cap` bytes of room, and sets
/// `*len` to the number of bytes written. When `cap` is too small it writes
/// nothing, returns `YACErrNoMem` and sets `*len` to the number of bytes
/// needed (so `buf` NULL with `cap` 0 asks for the size). The value is
/// validated before the room is checked; on any other error `*len` is 0 and
/// nothing is written. A NULL `len`, or a NULL `buf` with `cap` > 0, gives
/// `YACErrInvalid`. No pointer is kept after the call.
///
/// # Safety
/// `len` must point to a writable `size_t`; `buf` must be writable for
/// `cap` bytes and not overlap any input of the call (or be NULL with
/// `cap` 0).
#[no_mangle]
pub unsafe extern "C" fn YACAtomEOCEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
) -> YACErr {
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, Ok(Atom::Eoc)) }
}

/// Encodes NIL.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomNILEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
) -> YACErr {
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, Ok(Atom::Nil)) }
}

/// Encodes TRUE or FALSE.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomBoolEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    v: bool,
) -> YACErr {
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, Ok(Atom::Bool(v))) }
}

/// Encodes a HEXLET from the 16 bytes at `hexlet` (UUID, IPv6 address...).
///
/// # Safety
/// As for `YACAtomEOCEncode`; `hexlet` must be readable for 16 bytes
/// (NULL gives `YACErrInvalid`).
#[no_mangle]
pub unsafe extern "C" fn YACAtomHexletEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    hexlet: *const c_uchar,
) -> YACErr {
    // SAFETY: `hexlet` is readable for 16 bytes by contract (NULL checked).
    let h = unsafe { input(hexlet, 16) }
        .and_then(|s| <&[u8; 16]>::try_from(s).map_err(|_| YACErr::YACErrInvalid));
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, h.map(Atom::Hexlet)) }
}

/// Encodes a +INT.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomUintEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    v: u64,
) -> YACErr {
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, Ok(Atom::Uint(v))) }
}

/// Encodes a signed integer: +INT when `v >= 0`, -INT otherwise.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomSintEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    v: i64,
) -> YACErr {
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, Ok(Atom::from_i64(v))) }
}

/// Encodes an integer of any size: +INT (`neg` false) with value `mag`, or
/// -INT (`neg` true) with value -1 - `mag`, where `mag` is the big-endian
/// wire magnitude of `magLen` bytes (as `YACAtomDecode` returns it for
/// `YACItemPbig`/`YACItemNbig`). Leading zero bytes of `mag` are dropped, so
/// the result is canonical; `magLen` 0 encodes 0 or -1.
///
/// # Safety
/// As for `YACAtomEOCEncode`; `mag` must be readable for `magLen` bytes
/// (NULL only with `magLen` 0).
#[no_mangle]
pub unsafe extern "C" fn YACAtomBigintEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    neg: bool,
    mag: *const c_uchar,
    magLen: usize,
) -> YACErr {
    // SAFETY: `mag` is readable for `magLen` bytes by contract.
    let magnitude = unsafe { input(mag, magLen) };
    let atom = magnitude.map(|magnitude| Atom::BigInt {
        negative: neg,
        magnitude,
    });
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, atom) }
}

/// Encodes the opening tag of a LIST; its items follow, then EOC.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomListEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
) -> YACErr {
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, Ok(Atom::List)) }
}

/// Encodes the opening tag of a MAP; STR keys (non-empty, ascending by
/// length then bytewise) each followed by a value follow, then EOC.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomMapEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
) -> YACErr {
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, Ok(Atom::Map)) }
}

/// Encodes a BLOB header (9 bytes) for chunks of `chunkLen` bytes
/// (`chunkLen` 0 gives `YACErrInvalid`; for the format's largest chunk
/// length, 2^64, use `YACAtomBlobEncodeMinus1`). The chunks follow,
/// written with `YACAtomChunkEncode`: each of exactly `chunkLen` bytes,
/// then a last, shorter (possibly empty) one that ends the BLOB.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomBlobEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    chunkLen: u64,
) -> YACErr {
    match chunkLen.checked_sub(1) {
        // SAFETY: this function's contract is the callee's.
        Some(m) => unsafe { YACAtomBlobEncodeMinus1(len, buf, cap, m) },
        // SAFETY: this function's contract is emit_atom's.
        None => unsafe { emit_atom(len, buf, cap, Err(YACErr::YACErrInvalid)) },
    }
}

/// Encodes a BLOB header (9 bytes) for chunks of `chunkLenMinus1 + 1`
/// bytes, the wire's own field: every chunk length from 1 to 2^64 (then
/// `UINT64_MAX`). Otherwise as `YACAtomBlobEncode`.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomBlobEncodeMinus1(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    chunkLenMinus1: u64,
) -> YACErr {
    let atom = Atom::Blob {
        chunk_len_minus_one: chunkLenMinus1,
    };
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, Ok(atom)) }
}

/// Encodes a BIN of the `vLen` bytes at `v`.
///
/// # Safety
/// As for `YACAtomEOCEncode`; `v` must be readable for `vLen` bytes (NULL
/// only with `vLen` 0).
#[no_mangle]
pub unsafe extern "C" fn YACAtomBinEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    v: *const c_uchar,
    vLen: usize,
) -> YACErr {
    // SAFETY: `v` is readable for `vLen` bytes by contract.
    let bytes = unsafe { input(v, vLen) };
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, bytes.map(Atom::Bin)) }
}

/// Encodes one BLOB chunk of the `vLen` bytes at `v`. A chunk is a BIN, so
/// the bytes are those of `YACAtomBinEncode`; the chunk-length rules of the
/// enclosing BLOB are the caller's to keep (see `YACAtomBlobEncode`).
///
/// # Safety
/// As for `YACAtomBinEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomChunkEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    v: *const c_uchar,
    vLen: usize,
) -> YACErr {
    // SAFETY: same contract as YACAtomBinEncode.
    unsafe { YACAtomBinEncode(len, buf, cap, v, vLen) }
}

/// Encodes a STR of the `sLen` bytes at `s` (no terminating NUL needed or
/// read). Invalid UTF-8 (overlong, surrogate, above U+10FFFF, truncated)
/// and NUL bytes give `YACErrBadUTF8`.
///
/// # Safety
/// As for `YACAtomEOCEncode`; `s` must be readable for `sLen` bytes (NULL
/// only with `sLen` 0).
#[no_mangle]
pub unsafe extern "C" fn YACAtomStrEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    s: *const c_char,
    sLen: usize,
) -> YACErr {
    // SAFETY: `s` is readable for `sLen` bytes by contract.
    let text =
        unsafe { input(s.cast(), sLen) }.and_then(|b| utf8::validate_str(b).map_err(YACErr::from));
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, text.map(Atom::Str)) }
}

/// Encodes a TAI64 (`labelLen` 8), TAI64N (12) or TAI64NA (16) atom from
/// its label. The label is validated: other lengths give `YACErrInvalid`,
/// labels at or above 2^63 `YACErrTAI64TooBig`, fractions above 999999999
/// `YACErrTAI64BadNsec`/`YACErrTAI64BadAsec`, and a zero last fraction
/// (a non-minimal form) `YACErrTAI64NonMinimal`. `YACUTCToTAI64` and
/// `YACTAIToTAI64` make labels.
///
/// # Safety
/// As for `YACAtomEOCEncode`; `label` must be readable for `labelLen` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACAtomTAI64Encode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    label: *const c_uchar,
    labelLen: usize,
) -> YACErr {
    // SAFETY: `label` is readable for `labelLen` bytes by contract.
    let bytes = unsafe { input(label, labelLen) };
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, bytes.map(Atom::Tai64)) }
}

/// Encodes a MAGIC: "KEKS" then the 12 bytes at `magic`: `magicLen` must
/// be 12 (pad a shorter magic with zero bytes yourself; another length
/// gives `YACErrInvalid`, as `YACWriterMagic` and `YACItemsAddMagic`).
///
/// # Safety
/// As for `YACAtomEOCEncode`; `magic` must be readable for `magicLen` bytes
/// (NULL only with `magicLen` 0).
#[no_mangle]
pub unsafe extern "C" fn YACAtomMagicEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    magic: *const c_uchar,
    magicLen: usize,
) -> YACErr {
    // SAFETY: `magic` is readable for `magicLen` bytes by contract.
    let m = unsafe { input(magic, magicLen) }
        .and_then(|m| enc::exact_magic(m).map_err(YACErr::from))
        .map(Atom::Magic);
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, m) }
}

/// Encodes a float in the shortest IEEE 754 width (2, 4 or 8 bytes) that
/// holds `d` exactly, NaN payloads included. Negative zero has no encoding:
/// `YACErrFloatNonMinimal`.
///
/// # Safety
/// As for `YACAtomEOCEncode`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomFloatEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    d: f64,
) -> YACErr {
    let mut bytes = [0u8; 8];
    let atom = float::shortest(d, &mut bytes)
        .map_err(YACErr::from)
        .and_then(|n| bytes.get(..n).ok_or(YACErr::YACErrInvalid))
        .map(Atom::Float);
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, atom) }
}

/// Encodes a float given as its big-endian IEEE 754 bytes: `pLen` 2, 4, 8,
/// 16 or 32 (else `YACErrInvalid`). The float must be canonical: not
/// negative zero and not exactly representable in a narrower width, else
/// `YACErrFloatNonMinimal`.
///
/// # Safety
/// As for `YACAtomEOCEncode`; `p` must be readable for `pLen` bytes.
#[no_mangle]
pub unsafe extern "C" fn YACAtomFloatRawEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    p: *const c_uchar,
    pLen: usize,
) -> YACErr {
    // SAFETY: `p` is readable for `pLen` bytes by contract.
    let bytes = unsafe { input(p, pLen) };
    // SAFETY: this function's contract is emit_atom's.
    unsafe { emit_atom(len, buf, cap, bytes.map(Atom::Float)) }
}

/// Writes the byte `tag` followed by the `valLen` bytes at `val`, verbatim.
/// UNCHECKED: nothing is validated, so the output is valid YAC only if the
/// caller made it so (for example a tag it knows plus a payload it built).
///
/// # Safety
/// As for `YACAtomEOCEncode`; `val` must be readable for `valLen` bytes
/// (NULL only with `valLen` 0).
#[no_mangle]
pub unsafe extern "C" fn YACAtomRawEncode(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    tag: u8,
    val: *const c_uchar,
    valLen: usize,
) -> YACErr {
    // SAFETY: `val` is readable for `valLen` bytes by contract.
    let val = match unsafe { input(val, valLen) } {
        Ok(v) => v,
        // SAFETY: `len` as for emit, by this function's contract.
        Err(e) => return unsafe { fail(len, e) },
    };
    run(|| {
        // SAFETY: `len` and `buf` as for emit, by this function's contract.
        unsafe {
            emit(
                len,
                buf,
                cap,
                || Ok(enc::raw_len(val)?),
                |b| enc::encode_raw(tag, val, b),
            )
        }
    })
}

/// Converts a binary16, binary32 or binary64 float (`len` 2, 4 or 8 bytes,
/// big-endian, as in a `YACItemFloat` atom) to `double`, exactly, NaN
/// payloads and the signalling bit included (as `YACItemsGetFloat`, whose
/// note on x87 targets applies here too). Other widths give
/// `YACErrInvalid` (binary128/256 do not fit a double). The pattern is not
/// checked for canonical form.
///
/// # Safety
/// `d` must point to a writable `double`; `p` must be readable for `len`
/// bytes.
#[no_mangle]
pub unsafe extern "C" fn YACFloatToDouble(d: *mut f64, p: *const c_uchar, len: usize) -> YACErr {
    run(|| {
        // SAFETY: by contract `d` is writable and `p` readable for `len`.
        // The bits are stored as an integer: no float register on the way
        // (`u64` has the size and alignment of `f64`).
        let (d, p) = unsafe { (out(d.cast::<u64>())?, input(p, len)?) };
        *d = float::to_f64_bits(p).ok_or(YACErr::YACErrInvalid)?;
        Ok(())
    })
}

#[cfg(test)]
mod tests;
