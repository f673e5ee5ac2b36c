//! C API of the atom decoder.

use core::ffi::c_uchar;

use super::{atom_type, input, out, run, YACErr, YACItemType};
use crate::atom::{self, Atom};
use crate::error::Error;

/// Pointer and length of bytes inside the decoded input.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct YACBytes {
    /// First byte (points into the caller's input buffer).
    pub ptr: *const c_uchar,
    /// Number of bytes.
    pub len: usize,
}

/// The value of a `struct YACAtom`; which member is set depends on `typ`.
#[repr(C)]
#[derive(Clone, Copy)]
pub union YACAtomValue {
    /// `YACItemPint`: the value. `YACItemBlob`: the chunk length minus one.
    pub uint: u64,
    /// `YACItemNint`: the (negative) value.
    pub sint: i64,
    /// `YACItemBin`, `YACItemStr`: the payload. `YACItemPbig`/`Nbig`: the
    /// big-endian magnitude. `YACItemHexlet` (16), `YACItemFloat` (2..32),
    /// `YACItemTAI64` (8, 12, 16), `YACItemMagic` (12): the raw bytes.
    pub bytes: YACBytes,
}

/// One decoded atom. Byte values point into the input buffer, which must
/// outlive the atom's use.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct YACAtom {
    /// The value; see `union YACAtomValue`.
    pub v: YACAtomValue,
    /// The high-level type.
    pub typ: YACItemType,
    /// The raw tag byte (tells FLOAT16 from FLOAT32, TAI64 from TAI64N, ...).
    pub tag: u8,
}

impl YACAtom {
    pub(crate) fn from_core(a: &Atom<'_>, tag: u8) -> YACAtom {
        let bytes = |s: &[u8]| YACAtomValue {
            bytes: YACBytes {
                ptr: s.as_ptr(),
                len: s.len(),
            },
        };
        let v = match *a {
            Atom::Uint(u) => YACAtomValue { uint: u },
            Atom::Nint(i) => YACAtomValue { sint: i },
            Atom::Blob {
                chunk_len_minus_one,
            } => YACAtomValue {
                uint: chunk_len_minus_one,
            },
            Atom::BigInt { magnitude, .. } => bytes(magnitude),
            Atom::Hexlet(h) => bytes(h),
            Atom::Float(f) => bytes(f),
            Atom::Tai64(t) => bytes(t),
            Atom::Magic(m) => bytes(m),
            Atom::Bin(b) => bytes(b),
            Atom::Str(s) => bytes(s.as_bytes()),
            Atom::Eoc | Atom::Nil | Atom::Bool(_) | Atom::List | Atom::Map => {
                YACAtomValue { uint: 0 }
            }
        };
        YACAtom {
            v,
            typ: atom_type(a),
            tag,
        }
    }
}

/// Decodes and fully validates one atom at `buf` (`len` bytes).
///
/// On `YACErrNo`, `*atom` is filled and `*got` is the number of bytes the
/// atom took. On `YACErrNotEnough`, `*got` is how many more bytes are needed
/// at least (read more and call again with the same start). On any other
/// error `*got` is 0 and `*atom` is left unchanged.
///
/// A LIST or MAP atom is just its opening tag; EOC is an atom; a BLOB atom
/// is its 9-byte header, its chunks follow as BIN atoms; +INT/-INT are
/// decoded with their BIN body. `buf` may be NULL only when `len` is 0.
///
/// # Safety
/// `got` and `atom` must each be NULL or point to a writable object of
/// their type; `buf` must point to `len` readable bytes. None of them is
/// kept after the call, but byte values in `*atom` point into `buf`.
#[no_mangle]
pub unsafe extern "C" fn YACAtomDecode(
    got: *mut usize,
    atom: *mut YACAtom,
    buf: *const c_uchar,
    len: usize,
) -> YACErr {
    run(|| {
        // SAFETY: the C API contract: `got` points to a writable `size_t`
        // (NULL checked inside).
        let got = unsafe { out(got) }?;
        // Zeroed first, so that every error but NotEnough leaves it 0, bad
        // arguments included.
        *got = 0;
        // SAFETY: the C API contract: `atom` points to a writable object and
        // `buf` to `len` readable bytes (NULL checked inside).
        let (atom, buf) = unsafe { (out(atom)?, input(buf, len)?) };
        match atom::decode(buf) {
            Ok((a, used)) => {
                // `decode` succeeded, so `buf` is not empty; `first` keeps
                // a panicking index out of the C entry point.
                let tag = buf.first().copied().unwrap_or(0);
                *atom = YACAtom::from_core(&a, tag);
                *got = used;
                Ok(())
            }
            Err(e) => {
                if let Error::NotEnough(n) = e {
                    *got = n;
                }
                Err(e.into())
            }
        }
    })
}
