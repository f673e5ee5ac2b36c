//! C API of the atom decoder.

use core::ffi::c_uchar;
use core::mem::size_of;

use super::{input, out, run, YACErr, YACItemType};
use yac::atom::{self, Atom, ItemType, Quick, Slot, Window};
use yac::error::Error;

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

impl YACAtomValue {
    /// A value of one word (`uint`, `sint` as its bits, or 0 for atoms
    /// without a value), with the rest of the union zeroed too: every
    /// byte of an atom libyac stores is set, so that a caller may copy or
    /// compare the whole struct.
    #[inline(always)]
    pub(crate) fn word(u: u64) -> YACAtomValue {
        let mut v = YACAtomValue {
            bytes: YACBytes {
                ptr: core::ptr::null(),
                len: 0,
            },
        };
        v.uint = u;
        v
    }
}

/// One decoded atom. Byte values point into the input buffer, which must
/// outlive the atom's use.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct YACAtom {
    /// The value; see `union YACAtomValue`.
    pub v: YACAtomValue,
    /// The high-level type: a `YACItemType` value. A plain word, not the
    /// enum, because C may store any value here (`YACItemsAdd` refuses
    /// unknown ones).
    pub typ: u32,
    /// The raw tag byte (tells FLOAT16 from FLOAT32, TAI64 from TAI64N, ...).
    pub tag: u8,
}

impl YACAtom {
    /// A C atom whose value is one word (0 for atoms without a value).
    #[inline(always)]
    fn word_atom(typ: ItemType, word: u64, tag: u8) -> YACAtom {
        YACAtom {
            v: YACAtomValue::word(word),
            typ: YACItemType::from(typ) as u32,
            tag,
        }
    }

    /// A C STR atom of `payload`.
    #[inline(always)]
    fn str_atom(payload: &[u8], tag: u8) -> YACAtom {
        YACAtom {
            v: YACAtomValue {
                bytes: YACBytes {
                    ptr: payload.as_ptr(),
                    len: payload.len(),
                },
            },
            typ: YACItemType::YACItemStr as u32,
            tag,
        }
    }

    /// The C atom of `a`, whose first wire byte is `tag`: one match gives
    /// both the value and the type.
    #[inline(always)]
    pub(crate) fn from_core(a: &Atom<'_>, tag: u8) -> YACAtom {
        use YACItemType as T;
        let bytes = |s: &[u8]| YACAtomValue {
            bytes: YACBytes {
                ptr: s.as_ptr(),
                len: s.len(),
            },
        };
        let none = YACAtomValue::word(0);
        let (v, typ) = match *a {
            Atom::Uint(u) => (YACAtomValue::word(u), T::YACItemPint),
            Atom::Nint(i) => (YACAtomValue::word(i as u64), T::YACItemNint),
            Atom::Str(s) => (bytes(s.as_bytes()), T::YACItemStr),
            Atom::Bin(b) => (bytes(b), T::YACItemBin),
            Atom::Eoc => (none, T::YACItemEOC),
            Atom::List => (none, T::YACItemList),
            Atom::Map => (none, T::YACItemMap),
            Atom::Nil => (none, T::YACItemNIL),
            Atom::Bool(false) => (none, T::YACItemFalse),
            Atom::Bool(true) => (none, T::YACItemTrue),
            Atom::Blob {
                chunk_len_minus_one,
            } => (YACAtomValue::word(chunk_len_minus_one), T::YACItemBlob),
            Atom::BigInt {
                negative: false,
                magnitude,
            } => (bytes(magnitude), T::YACItemPbig),
            Atom::BigInt {
                negative: true,
                magnitude,
            } => (bytes(magnitude), T::YACItemNbig),
            Atom::Hexlet(h) => (bytes(h), T::YACItemHexlet),
            Atom::Float(f) => (bytes(f), T::YACItemFloat),
            Atom::Tai64(t) => (bytes(t), T::YACItemTAI64),
            Atom::Magic(m) => (bytes(m), T::YACItemMagic),
        };
        YACAtom {
            v,
            typ: typ as u32,
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
    // The common atoms first, with no call: valid arguments, at least 16
    // bytes, and an atom `decode_window` takes (it gives exactly what
    // `decode` gives). `len as isize >= 16` also keeps `len` within
    // isize::MAX, as `from_raw_parts` needs. BIN and STR have their own
    // function (their checks need registers that every other atom would
    // then have to save).
    // Feature `size-first`: the checked path alone.
    if !cfg!(feature = "size-first")
        && !got.is_null()
        && !atom.is_null()
        && !buf.is_null()
        && len as isize >= 16
    {
        // SAFETY: non-NULL, at most isize::MAX, and the C API contract:
        // `buf` points to `len` readable bytes for the call.
        let bytes = unsafe { core::slice::from_raw_parts(buf, len) };
        match atom::decode_window_words(bytes) {
            Window::One(typ, tag) => {
                // SAFETY: both non-NULL, and the C API contract: they point
                // to writable objects of their types, not aliased during
                // the call. (`got` first: stored in another order than in
                // `store`, the compiler keeps these stores apart, with
                // constants, instead of merging them into one block.)
                unsafe {
                    *got = 1;
                    *atom = YACAtom::word_atom(typ, 0, tag);
                }
                return YACErr::YACErrNo;
            }
            Window::Done(Quick::Word(ItemType::Pint, value, used)) => {
                // SAFETY: as above. (`got` first again: the type stays a
                // constant.)
                unsafe {
                    *got = used;
                    // The only tag of a `Pint` atom.
                    *atom = YACAtom::word_atom(ItemType::Pint, value, atom::tag::PINT);
                }
                return YACErr::YACErrNo;
            }
            Window::Done(q) => {
                // SAFETY: both non-NULL, and the C API contract: they point
                // to writable objects of their types, not aliased during
                // the call.
                unsafe { store(got, atom, bytes, q) };
                return YACErr::YACErrNo;
            }
            // SAFETY: the caller's promises, passed on unchanged, with
            // `got` and `atom` checked not NULL.
            Window::Bytes => return unsafe { decode_window_bytes(got, atom, bytes) },
            Window::Other => {}
        }
    }
    // SAFETY: the caller's promises, passed on unchanged.
    unsafe { decode_checked(got, atom, buf, len) }
}

/// [`YACAtomDecode`] of an atom starting with a BIN or STR tag, with
/// valid arguments and at least 16 bytes.
///
/// # Safety
/// As for [`YACAtomDecode`], with `got` and `atom` not NULL and `bytes`
/// the input.
#[inline(never)]
unsafe fn decode_window_bytes(got: *mut usize, atom: *mut YACAtom, bytes: &[u8]) -> YACErr {
    match atom::decode_window_string(bytes) {
        Some(Quick::Bytes(ItemType::Str, payload)) => {
            // SAFETY: the caller's promises, passed on unchanged. (`got`
            // first, as for one-byte atoms: a block of its own, with the
            // type a constant.)
            unsafe {
                *got = 1 + payload.len();
                let tag = bytes.first().copied().unwrap_or(0);
                *atom = YACAtom::str_atom(payload, tag);
            }
            YACErr::YACErrNo
        }
        Some(q) => {
            // SAFETY: the caller's promises, passed on unchanged.
            unsafe { store(got, atom, bytes, q) };
            YACErr::YACErrNo
        }
        // SAFETY: the caller's promises, passed on unchanged.
        None => unsafe { decode_other_str(got, atom, bytes) },
    }
}

/// [`YACAtomDecode`] of an atom the window leaves, starting with a BIN or
/// STR tag: STRs of up to 60 bytes that are longer than the window or not
/// ASCII, then everything else (by the checked path).
///
/// # Safety
/// As for [`YACAtomDecode`], with `got` and `atom` not NULL and `bytes`
/// the input.
#[cold]
#[inline(never)]
unsafe fn decode_other_str(got: *mut usize, atom: *mut YACAtom, bytes: &[u8]) -> YACErr {
    if let Some(q) = atom::decode_short_str(bytes) {
        // SAFETY: the caller's promises, passed on unchanged.
        unsafe { store(got, atom, bytes, q) };
        return YACErr::YACErrNo;
    }
    // SAFETY: the caller's promises, passed on unchanged.
    unsafe { decode_checked(got, atom, bytes.as_ptr(), bytes.len()) }
}

/// Stores atom `q`, decoded from the start of `bytes`, to `*atom` and its
/// length to `*got`.
///
/// # Safety
/// `got` and `atom` point to writable objects of their types, not aliased
/// during the call.
#[inline(always)]
unsafe fn store(got: *mut usize, atom: *mut YACAtom, bytes: &[u8], q: Quick<'_>) {
    let (a, used) = YACAtom::quick(q, bytes.first().copied().unwrap_or(0));
    // SAFETY: the caller's promise: writable objects of their types, not
    // aliased during the call.
    unsafe {
        *atom = a;
        *got = used;
    }
}

/// Decodes and fully validates the atoms at `buf` (`len` bytes), one after
/// another, into `atoms` (room for `cap`): the same atoms, one by one, as
/// `YACAtomDecode` gives, with one call for many (a walk over a document
/// then costs no call per atom).
///
/// It stops when `cap` atoms are stored, when the input is used up, or at
/// an atom that does not decode. `*n` is the number of atoms stored and
/// `*got` the bytes they took: the next call starts at `buf + *got`.
///
/// Returns: `YACErrNo` when it stopped because `atoms` is full or the input
/// ended after a whole atom; else the error of the atom at `buf + *got`
/// (`YACErrNotEnough` when the input ends inside it: read more and call
/// again from there; `YACAtomDecode` at that offset tells how many bytes
/// are missing). The `*n` atoms before it are valid either way.
///
/// Pointers: `n`, `got` writable; `atoms` writable for `cap` atoms; `buf`
/// readable for `len` bytes (NULL only when `len` is 0). Byte values in
/// the atoms point into `buf`.
///
/// # Safety
/// As stated under "Pointers".
#[no_mangle]
pub unsafe extern "C" fn YACAtomsDecode(
    n: *mut usize,
    got: *mut usize,
    atoms: *mut YACAtom,
    cap: usize,
    buf: *const c_uchar,
    len: usize,
) -> YACErr {
    run(|| {
        // SAFETY: NULL-checked; writable/readable per the contract.
        let (n, got, buf) = unsafe { (out(n)?, out(got)?, input(buf, len)?) };
        if atoms.is_null() && cap != 0 || cap > isize::MAX as usize / size_of::<YACAtom>() {
            return Err(YACErr::YACErrInvalid);
        }
        let atoms: &mut [YACAtom] = if cap == 0 {
            &mut []
        } else {
            // SAFETY: non-NULL, size within isize::MAX, and the caller
            // promises `cap` writable atoms, not aliased during the call.
            unsafe { core::slice::from_raw_parts_mut(atoms, cap) }
        };
        let (count, used, r) = atom::decode_batch(atoms, buf);
        (*n, *got) = (count, used);
        r.map_err(YACErr::from)
    })
}

/// The C atom as the core's batch decoder stores it: type mapping only.
impl<'a> Slot<'a> for YACAtom {
    #[inline(always)]
    fn one(typ: ItemType, tag: u8) -> YACAtom {
        YACAtom::word_atom(typ, 0, tag)
    }

    #[inline(always)]
    fn word(typ: ItemType, word: u64, tag: u8) -> YACAtom {
        YACAtom::word_atom(typ, word, tag)
    }

    #[inline(always)]
    fn atom(a: &Atom<'a>, tag: u8) -> YACAtom {
        YACAtom::from_core(a, tag)
    }

    #[inline(always)]
    fn quick(q: Quick<'a>, tag: u8) -> (YACAtom, usize) {
        let used = q.wire_len();
        let (v, typ) = match q {
            Quick::Word(typ, word, _) => (YACAtomValue::word(word), typ),
            Quick::Bytes(typ, payload) => (
                YACAtomValue {
                    bytes: YACBytes {
                        ptr: payload.as_ptr(),
                        len: payload.len(),
                    },
                },
                typ,
            ),
        };
        let a = YACAtom {
            v,
            typ: YACItemType::from(typ) as u32,
            tag,
        };
        (a, used)
    }
}

/// [`YACAtomDecode`] for everything: argument checks, every atom, errors.
///
/// # Safety
/// As for [`YACAtomDecode`].
#[cold]
#[inline(never)]
unsafe fn decode_checked(
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

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;
    use yac::atom::ItemType;

    /// What a C atom means: its type, tag, and the value member its type
    /// sets (the other bytes of the union are unspecified).
    fn meaning(a: &YACAtom) -> (YACItemType, u8, u64, usize) {
        use YACItemType as T;
        // SAFETY: each arm reads the member that `from_core` writes for
        // that type.
        let (x, n) = unsafe {
            match YACItemType::from_code(a.typ).expect("a known type") {
                T::YACItemPint | T::YACItemBlob => (a.v.uint, 0),
                T::YACItemNint => (a.v.sint as u64, 0),
                T::YACItemEOC
                | T::YACItemNIL
                | T::YACItemFalse
                | T::YACItemTrue
                | T::YACItemList
                | T::YACItemMap
                | T::YACItemInvalid => (a.v.uint, 0),
                _ => (a.v.bytes.ptr as u64, a.v.bytes.len),
            }
        };
        (YACItemType::from_code(a.typ).unwrap(), a.tag, x, n)
    }

    /// Runs a decoder on `buf` with zeroed outputs.
    #[allow(clippy::type_complexity)]
    fn call(
        f: unsafe fn(*mut usize, *mut YACAtom, *const c_uchar, usize) -> YACErr,
        buf: &[u8],
    ) -> (YACErr, usize, (YACItemType, u8, u64, usize)) {
        let mut a = YACAtom {
            v: YACAtomValue {
                bytes: YACBytes {
                    ptr: core::ptr::null(),
                    len: 0,
                },
            },
            typ: YACItemType::YACItemInvalid as u32,
            tag: 0,
        };
        let mut got = 7usize;
        // SAFETY: valid pointers to locals and to `buf`.
        let e = unsafe { f(&mut got, &mut a, buf.as_ptr(), buf.len()) };
        (e, got, meaning(&a))
    }

    unsafe fn entry(g: *mut usize, a: *mut YACAtom, b: *const c_uchar, l: usize) -> YACErr {
        // SAFETY: passed on from the caller.
        unsafe { YACAtomDecode(g, a, b, l) }
    }

    #[test]
    fn entry_point_agrees_with_the_checked_path() {
        let mut inputs: std::vec::Vec<std::vec::Vec<u8>> = std::vec![std::vec![]];
        for a in 0..=255u8 {
            for b in [0u8, 1, 0x41, 0x80, 0x81, 0x84, 0x88, 0x89, 0xC3, 0xFF] {
                for tail in [
                    &[][..],
                    &[0x41, 0x42, 0x43],
                    &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10],
                    // Long enough for the 16-byte window.
                    &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
                    &[0x41; 20],
                    &[
                        0x7F, 0x80, 0, 0x41, 0xFF, 0xC3, 0xA9, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                    ],
                    &[0; 70],
                ] {
                    let mut v = std::vec![a, b];
                    v.extend_from_slice(tail);
                    inputs.push(v);
                }
            }
            inputs.push(std::vec![a]);
        }
        for buf in &inputs {
            assert_eq!(call(entry, buf), call(decode_checked, buf), "{buf:02X?}");
        }
    }

    #[test]
    fn c_type_is_the_atom_type() {
        let atoms = [
            Atom::Eoc,
            Atom::Nil,
            Atom::Bool(false),
            Atom::Bool(true),
            Atom::Hexlet(&[0; 16]),
            Atom::Uint(5),
            Atom::Nint(-5),
            Atom::BigInt {
                negative: false,
                magnitude: &[1; 9],
            },
            Atom::BigInt {
                negative: true,
                magnitude: &[1; 9],
            },
            Atom::List,
            Atom::Map,
            Atom::Blob {
                chunk_len_minus_one: 3,
            },
            Atom::Float(&[0x3C, 0]),
            Atom::Tai64(&[0x40, 0, 0, 0, 0, 0, 0, 0]),
            Atom::Magic(&[0; 12]),
            Atom::Bin(b"x"),
            Atom::Str("x"),
        ];
        for a in atoms {
            let c = YACAtom::from_core(&a, 0);
            assert_eq!(c.typ, YACItemType::from(a.item_type()) as u32, "{a:?}");
            assert_ne!(a.item_type(), ItemType::Invalid);
        }
    }
}
