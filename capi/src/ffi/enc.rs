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
mod tests {
    extern crate std;
    use super::*;
    use core::ptr::{null, null_mut};
    use std::vec;
    use std::vec::Vec;

    type Call<'a> = &'a dyn Fn(*mut usize, *mut u8, usize) -> YACErr;

    /// Runs `f` with every capacity from 0 up: each too-small one must give
    /// NoMem, the size needed, and an untouched buffer; the first that fits
    /// must give `want`.
    fn check(f: Call<'_>, want: &[u8]) {
        for cap in 0..=want.len() {
            let mut buf = vec![0xAAu8; cap + 3];
            let mut len = 12345usize;
            let r = f(&mut len, buf.as_mut_ptr(), cap);
            if cap < want.len() {
                assert_eq!(r, YACErr::YACErrNoMem, "cap {cap} for {want:02X?}");
                assert_eq!(len, want.len());
                assert!(buf.iter().all(|&b| b == 0xAA));
            } else {
                assert_eq!(r, YACErr::YACErrNo, "{want:02X?}");
                assert_eq!(len, want.len());
                assert_eq!(&buf[..len], want);
                assert!(buf[len..].iter().all(|&b| b == 0xAA));
            }
        }
        // Size query with NULL/0, then NULL pointers.
        let mut len = 0usize;
        assert_eq!(f(&mut len, null_mut(), 0), YACErr::YACErrNoMem);
        assert_eq!(len, want.len());
        assert_eq!(f(&mut len, null_mut(), 5), YACErr::YACErrInvalid);
        let mut buf = [0u8; 64];
        assert_eq!(f(null_mut(), buf.as_mut_ptr(), 64), YACErr::YACErrInvalid);
    }

    /// Expects error `e` with `*len` 0 and nothing written.
    fn refuse(f: Call<'_>, e: YACErr) {
        let mut buf = [0xAAu8; 64];
        let mut len = 7usize;
        assert_eq!(f(&mut len, buf.as_mut_ptr(), buf.len()), e);
        assert_eq!(len, 0);
        assert!(buf.iter().all(|&b| b == 0xAA));
    }

    #[test]
    fn every_encoder_writes_the_vectors() {
        let magic_pub: [u8; 12] = *b"cm/pub\0\0\0\0\0\0";
        let uuid: [u8; 16] = [
            0x0E, 0x87, 0x5E, 0x3F, 0xD3, 0x85, 0x49, 0xEB, 0x87, 0xB4, 0xBE, 0x42, 0xD6, 0x41,
            0xC3, 0x67,
        ];
        let mut want_uuid = vec![0x04];
        want_uuid.extend(uuid);
        let two64 = [1u8, 0, 0, 0, 0, 0, 0, 0, 0];
        let hello = "hello world";
        let tai = [
            0x40u8, 0, 0, 0, 0x67, 0x3D, 0xD3, 0xE1, 0x36, 0xF1, 0x21, 0xD4,
        ];
        let a64 = [b'A'; 64];
        let mut want_a64 = vec![0xBD, 0x03];
        want_a64.extend(a64);
        // SAFETY (all closures): pointers come from live Rust buffers of
        // the stated lengths, or NULL, which the entry points check.
        let table: &[(Call<'_>, Vec<u8>)] = &[
            (&|l, b, c| unsafe { YACAtomEOCEncode(l, b, c) }, vec![0x00]),
            (&|l, b, c| unsafe { YACAtomNILEncode(l, b, c) }, vec![0x01]),
            (
                &|l, b, c| unsafe { YACAtomBoolEncode(l, b, c, false) },
                vec![0x02],
            ),
            (
                &|l, b, c| unsafe { YACAtomBoolEncode(l, b, c, true) },
                vec![0x03],
            ),
            (
                &|l, b, c| unsafe { YACAtomHexletEncode(l, b, c, uuid.as_ptr()) },
                want_uuid,
            ),
            (
                &|l, b, c| unsafe { YACAtomUintEncode(l, b, c, 0) },
                vec![0x0C, 0x80],
            ),
            (
                &|l, b, c| unsafe { YACAtomUintEncode(l, b, c, 100) },
                vec![0x0C, 0x81, 0x64],
            ),
            (
                &|l, b, c| unsafe { YACAtomUintEncode(l, b, c, u64::MAX) },
                vec![0x0C, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            ),
            (
                &|l, b, c| unsafe { YACAtomSintEncode(l, b, c, 123) },
                vec![0x0C, 0x81, 0x7B],
            ),
            (
                &|l, b, c| unsafe { YACAtomSintEncode(l, b, c, -1) },
                vec![0x0D, 0x80],
            ),
            (
                &|l, b, c| unsafe { YACAtomSintEncode(l, b, c, -65536) },
                vec![0x0D, 0x82, 0xFF, 0xFF],
            ),
            (
                &|l, b, c| unsafe { YACAtomBigintEncode(l, b, c, false, two64.as_ptr(), 9) },
                vec![0x0C, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &|l, b, c| unsafe { YACAtomBigintEncode(l, b, c, true, two64.as_ptr(), 9) },
                vec![0x0D, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &|l, b, c| unsafe {
                    YACAtomBigintEncode(l, b, c, true, [0u8, 0, 0xFF].as_ptr(), 3)
                },
                vec![0x0D, 0x81, 0xFF],
            ),
            (
                &|l, b, c| unsafe { YACAtomBigintEncode(l, b, c, false, null(), 0) },
                vec![0x0C, 0x80],
            ),
            (&|l, b, c| unsafe { YACAtomListEncode(l, b, c) }, vec![0x08]),
            (&|l, b, c| unsafe { YACAtomMapEncode(l, b, c) }, vec![0x09]),
            (
                &|l, b, c| unsafe { YACAtomBlobEncode(l, b, c, 500) },
                vec![0x0B, 0, 0, 0, 0, 0, 0, 0x01, 0xF3],
            ),
            (
                &|l, b, c| unsafe { YACAtomBlobEncode(l, b, c, 1) },
                vec![0x0B, 0, 0, 0, 0, 0, 0, 0, 0],
            ),
            (
                &|l, b, c| unsafe { YACAtomBinEncode(l, b, c, null(), 0) },
                vec![0x80],
            ),
            (
                &|l, b, c| unsafe { YACAtomBinEncode(l, b, c, a64.as_ptr(), 64) },
                want_a64.clone(),
            ),
            (
                &|l, b, c| unsafe { YACAtomChunkEncode(l, b, c, a64.as_ptr(), 64) },
                want_a64,
            ),
            (
                &|l, b, c| unsafe { YACAtomStrEncode(l, b, c, hello.as_ptr().cast(), hello.len()) },
                [&[0xCBu8][..], hello.as_bytes()].concat(),
            ),
            (
                &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, tai.as_ptr(), 12) },
                [&[0x19u8][..], &tai].concat(),
            ),
            (
                &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, tai.as_ptr(), 8) },
                [&[0x18u8][..], &tai[..8]].concat(),
            ),
            (
                &|l, b, c| unsafe { YACAtomMagicEncode(l, b, c, magic_pub.as_ptr(), 12) },
                [&b"KEKScm/pub"[..], &[0; 6]].concat(),
            ),
            (
                &|l, b, c| unsafe { YACAtomMagicEncode(l, b, c, b"cm/encrypted".as_ptr(), 12) },
                b"KEKScm/encrypted".to_vec(),
            ),
            (
                &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, 1.0) },
                vec![0x10, 0x3C, 0x00],
            ),
            (
                &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, 0.0) },
                vec![0x10, 0, 0],
            ),
            (
                &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, 1.0 + f64::from(f32::EPSILON)) },
                vec![0x11, 0x3F, 0x80, 0, 1],
            ),
            (
                &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, 0.1) },
                vec![0x12, 0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A],
            ),
            (
                &|l, b, c| unsafe { YACAtomFloatRawEncode(l, b, c, [0x3Cu8, 0x01].as_ptr(), 2) },
                vec![0x10, 0x3C, 0x01],
            ),
            (
                &|l, b, c| unsafe { YACAtomRawEncode(l, b, c, 0x05, [1u8, 2].as_ptr(), 2) },
                vec![0x05, 1, 2],
            ),
            (
                &|l, b, c| unsafe { YACAtomRawEncode(l, b, c, 0x7F, null(), 0) },
                vec![0x7F],
            ),
        ];
        for (f, want) in table {
            check(*f, want);
        }
    }

    #[test]
    fn invalid_values_are_refused() {
        let nul = "a\0b";
        let surrogate = [0xEDu8, 0xA0, 0x80];
        let tai_zero_ns = [0x40u8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
        let reserved = [0x80u8, 0, 0, 0, 0, 0, 0, 0];
        let one_f32 = [0x3Fu8, 0x80, 0, 0];
        let thirteen = [b'x'; 13];
        use YACErr::*;
        // SAFETY (all closures): as in every_encoder_writes_the_vectors.
        let table: [(Call<'_>, YACErr); 14] = [
            (
                &|l, b, c| unsafe { YACAtomStrEncode(l, b, c, nul.as_ptr().cast(), 3) },
                YACErrBadUTF8,
            ),
            (
                &|l, b, c| unsafe { YACAtomStrEncode(l, b, c, surrogate.as_ptr().cast(), 3) },
                YACErrBadUTF8,
            ),
            (
                &|l, b, c| unsafe { YACAtomStrEncode(l, b, c, null(), 1) },
                YACErrInvalid,
            ),
            (
                &|l, b, c| unsafe { YACAtomBlobEncode(l, b, c, 0) },
                YACErrInvalid,
            ),
            (
                &|l, b, c| unsafe { YACAtomHexletEncode(l, b, c, null()) },
                YACErrInvalid,
            ),
            (
                &|l, b, c| unsafe { YACAtomBinEncode(l, b, c, null(), 2) },
                YACErrInvalid,
            ),
            (
                &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, tai_zero_ns.as_ptr(), 12) },
                YACErrTAI64NonMinimal,
            ),
            (
                &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, reserved.as_ptr(), 8) },
                YACErrTAI64TooBig,
            ),
            (
                &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, reserved.as_ptr(), 7) },
                YACErrInvalid,
            ),
            (
                &|l, b, c| unsafe { YACAtomMagicEncode(l, b, c, thirteen.as_ptr(), 13) },
                YACErrInvalid,
            ),
            (
                &|l, b, c| unsafe { YACAtomMagicEncode(l, b, c, b"cm/pub".as_ptr(), 6) },
                YACErrInvalid,
            ),
            (
                &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, -0.0) },
                YACErrFloatNonMinimal,
            ),
            (
                &|l, b, c| unsafe { YACAtomFloatRawEncode(l, b, c, one_f32.as_ptr(), 4) },
                YACErrFloatNonMinimal,
            ),
            (
                &|l, b, c| unsafe { YACAtomFloatRawEncode(l, b, c, one_f32.as_ptr(), 3) },
                YACErrInvalid,
            ),
        ];
        for (f, e) in table {
            refuse(f, e);
            // Validation comes before the room check: no size is promised
            // for a value that cannot be encoded.
            let mut len = 9usize;
            assert_eq!(f(&mut len, null_mut(), 0), e);
            assert_eq!(len, 0);
        }
    }

    #[test]
    fn float_to_double() {
        let table: [(&[u8], f64); 4] = [
            (&[0x3C, 0x00], 1.0),
            (&[0xC0, 0x00], -2.0),
            (&[0x3F, 0x80, 0, 1], 1.0 + f64::from(f32::EPSILON)),
            (&[0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A], 0.1),
        ];
        for (p, want) in table {
            let mut d = 0.0f64;
            // SAFETY: live buffers of the stated lengths.
            let r = unsafe { YACFloatToDouble(&mut d, p.as_ptr(), p.len()) };
            assert_eq!((r, d), (YACErr::YACErrNo, want));
        }
        let mut d = 0.0f64;
        let wide = [0u8; 16];
        // SAFETY: live buffers of the stated lengths, or NULL.
        unsafe {
            assert_eq!(
                YACFloatToDouble(&mut d, wide.as_ptr(), 16),
                YACErr::YACErrInvalid
            );
            assert_eq!(
                YACFloatToDouble(null_mut(), wide.as_ptr(), 2),
                YACErr::YACErrInvalid
            );
            assert_eq!(YACFloatToDouble(&mut d, null(), 2), YACErr::YACErrInvalid);
        }
    }
}
