//! The C API: the only place with `extern "C"` and raw pointers. It converts
//! C types to the core's, calls the core, and converts results back; it holds
//! no format logic.
//!
//! Every entry point goes through one mechanism: the pointer helpers below
//! turn NULL or oversized arguments into `YACErrInvalid`, and `run` turns
//! the body's `Result` into a `YACErr`. Panics cannot cross into C: the
//! core has no panicking paths reachable from these functions (checked by
//! the symbol test), the release library is built with `panic = "abort"`,
//! and in every other profile a panic reaching an `extern "C"` function
//! aborts the process (Rust 1.81 and later, the minimum supported version;
//! tests/panic_guard.rs proves it on a debug build).

use core::ffi::{c_char, c_int};

use yac::atom::ItemType;
use yac::error::Error;

pub mod atom;
pub mod builder;
pub mod enc;
pub mod items;
// After `items`: cbindgen emits the declarations in module order.
pub mod cursor;
mod layout;
pub mod tai64;
pub mod validate;
pub mod writer;

/// Result of every libyac entry point. `YACErrNo` (0) is success; every
/// other value names one failure class. Values are stable across versions.
/// In C, `YACErr` is a `uint32_t` (the enum only names the values), so its
/// size does not depend on `-fshort-enums`; the same holds for
/// `YACItemType`, `YACItemsFlag` and `YACWalkEvent`.
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(clippy::enum_variant_names)]
pub enum YACErr {
    /// Success.
    YACErrNo = 0,
    /// The input ends inside an item; the decoder says how many more bytes
    /// it needs at least (see each function).
    YACErrNotEnough = 1,
    /// Unknown tag byte.
    YACErrUnknownType = 2,
    /// Length beyond the input, `size_t` or the 64-bit length field.
    YACErrLenTooBig = 3,
    /// STR is not UTF-8 or holds NUL.
    YACErrBadUTF8 = 4,
    /// Integer magnitude with a leading zero.
    YACErrIntNonMinimal = 5,
    /// The item after +INT/-INT is not a BIN.
    YACErrIntNonBin = 6,
    /// Float not in its shortest width, or negative zero.
    YACErrFloatNonMinimal = 7,
    /// BLOB chunk longer than the chunk length.
    YACErrBlobBadChunk = 8,
    /// BLOB holds an item that is not a BIN chunk.
    YACErrBlobBadTerm = 9,
    /// TAI64 label at or above 2^63.
    YACErrTAI64TooBig = 10,
    /// TAI64 nanoseconds above 999999999.
    YACErrTAI64BadNsec = 11,
    /// TAI64 attoseconds above 999999999.
    YACErrTAI64BadAsec = 12,
    /// TAI64N/NA with zero ns/as where the shorter form is required.
    YACErrTAI64NonMinimal = 13,
    /// MAGIC not starting with "KEKS".
    YACErrBadMagic = 14,
    /// MAP key that is not a non-empty STR.
    YACErrMapBadKey = 15,
    /// MAP closed where a value was due.
    YACErrMapNoVal = 16,
    /// MAP keys out of order or duplicate.
    YACErrMapUnordered = 17,
    /// EOC outside any container.
    YACErrUnexpectedEOC = 18,
    /// Nesting deeper than the limit.
    YACErrDeepRecursion = 19,
    /// Caller memory (node pool, output buffer) too small.
    YACErrNoMem = 20,
    /// Bad argument: NULL pointer, index out of range, wrong node type.
    YACErrInvalid = 21,
    /// A writer finished with containers (or a BLOB) still open.
    YACErrUnclosed = 22,
    /// A LIST closed as a MAP, or a MAP as a LIST.
    YACErrWrongClose = 23,
    /// A second root item where one document was expected.
    YACErrSecondRoot = 24,
}

impl From<Error> for YACErr {
    fn from(e: Error) -> Self {
        match e {
            Error::NotEnough(_) => YACErr::YACErrNotEnough,
            Error::UnknownType => YACErr::YACErrUnknownType,
            Error::LenTooBig => YACErr::YACErrLenTooBig,
            Error::BadUtf8 => YACErr::YACErrBadUTF8,
            Error::IntNonMinimal => YACErr::YACErrIntNonMinimal,
            Error::IntNonBin => YACErr::YACErrIntNonBin,
            Error::FloatNonMinimal => YACErr::YACErrFloatNonMinimal,
            Error::BlobBadChunk => YACErr::YACErrBlobBadChunk,
            Error::BlobBadTerm => YACErr::YACErrBlobBadTerm,
            Error::Tai64TooBig => YACErr::YACErrTAI64TooBig,
            Error::Tai64BadNsec => YACErr::YACErrTAI64BadNsec,
            Error::Tai64BadAsec => YACErr::YACErrTAI64BadAsec,
            Error::Tai64NonMinimal => YACErr::YACErrTAI64NonMinimal,
            Error::BadMagic => YACErr::YACErrBadMagic,
            Error::MapBadKey => YACErr::YACErrMapBadKey,
            Error::MapNoVal => YACErr::YACErrMapNoVal,
            Error::MapUnordered => YACErr::YACErrMapUnordered,
            Error::UnexpectedEoc => YACErr::YACErrUnexpectedEOC,
            Error::DeepRecursion => YACErr::YACErrDeepRecursion,
            Error::NoMem => YACErr::YACErrNoMem,
            Error::Invalid => YACErr::YACErrInvalid,
            Error::Unclosed => YACErr::YACErrUnclosed,
            Error::WrongClose => YACErr::YACErrWrongClose,
            Error::SecondRoot => YACErr::YACErrSecondRoot,
        }
    }
}

/// The high-level type of an atom or node (same values as the Rust
/// `ItemType`).
#[repr(u32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum YACItemType {
    /// Not a valid item.
    YACItemInvalid = 0,
    /// End of container.
    YACItemEOC = 1,
    /// NIL.
    YACItemNIL = 2,
    /// FALSE.
    YACItemFalse = 3,
    /// TRUE.
    YACItemTrue = 4,
    /// HEXLET: 16 bytes.
    YACItemHexlet = 5,
    /// +INT fitting uint64_t.
    YACItemPint = 6,
    /// -INT fitting int64_t.
    YACItemNint = 7,
    /// LIST.
    YACItemList = 8,
    /// MAP.
    YACItemMap = 9,
    /// BLOB.
    YACItemBlob = 10,
    /// IEEE float (2, 4, 8, 16 or 32 bytes).
    YACItemFloat = 11,
    /// TAI64 / TAI64N / TAI64NA label (8, 12 or 16 bytes).
    YACItemTAI64 = 12,
    /// MAGIC (12 bytes after "KEKS").
    YACItemMagic = 13,
    /// BIN.
    YACItemBin = 14,
    /// STR.
    YACItemStr = 15,
    /// +INT beyond uint64_t: big-endian magnitude.
    YACItemPbig = 16,
    /// -INT beyond int64_t: wire magnitude v, value -1 - v.
    YACItemNbig = 17,
}

impl YACItemType {
    /// The type a C caller stored as a plain word; `None` for values that
    /// name no type (C may store anything in `struct YACAtom.typ`).
    pub(crate) fn from_code(code: u32) -> Option<YACItemType> {
        let t = ItemType::from_u8(u8::try_from(code).ok()?);
        (t as u32 == code).then(|| t.into())
    }
}

impl From<ItemType> for YACItemType {
    fn from(t: ItemType) -> Self {
        match t {
            ItemType::Invalid => YACItemType::YACItemInvalid,
            ItemType::Eoc => YACItemType::YACItemEOC,
            ItemType::Nil => YACItemType::YACItemNIL,
            ItemType::False => YACItemType::YACItemFalse,
            ItemType::True => YACItemType::YACItemTrue,
            ItemType::Hexlet => YACItemType::YACItemHexlet,
            ItemType::Pint => YACItemType::YACItemPint,
            ItemType::Nint => YACItemType::YACItemNint,
            ItemType::List => YACItemType::YACItemList,
            ItemType::Map => YACItemType::YACItemMap,
            ItemType::Blob => YACItemType::YACItemBlob,
            ItemType::Float => YACItemType::YACItemFloat,
            ItemType::Tai64 => YACItemType::YACItemTAI64,
            ItemType::Magic => YACItemType::YACItemMagic,
            ItemType::Bin => YACItemType::YACItemBin,
            ItemType::Str => YACItemType::YACItemStr,
            ItemType::Pbig => YACItemType::YACItemPbig,
            ItemType::Nbig => YACItemType::YACItemNbig,
        }
    }
}

/// Runs an entry point's body and turns its outcome into a `YACErr`.
#[inline]
pub(crate) fn run(body: impl FnOnce() -> Result<(), YACErr>) -> YACErr {
    match body() {
        Ok(()) => YACErr::YACErrNo,
        Err(e) => e,
    }
}

/// Borrows `len` readable bytes at `ptr`. NULL is accepted only with
/// `len == 0`; lengths beyond `isize::MAX` are refused.
///
/// # Safety
/// A non-NULL `ptr` must be readable for `len` bytes for `'a`.
#[inline]
pub(crate) unsafe fn input<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], YACErr> {
    if ptr.is_null() {
        return if len == 0 {
            Ok(&[])
        } else {
            Err(YACErr::YACErrInvalid)
        };
    }
    if len > isize::MAX as usize {
        return Err(YACErr::YACErrInvalid);
    }
    // SAFETY: non-NULL, length within isize::MAX, and the caller promises
    // (the C API's contract) that `len` bytes at `ptr` are readable for 'a.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// Borrows `cap` writable bytes at `ptr`; NULL only with `cap == 0`.
///
/// # Safety
/// A non-NULL `ptr` must be writable for `cap` bytes for `'a` and not
/// aliased by any other reference during that time.
#[inline]
pub(crate) unsafe fn output<'a>(ptr: *mut u8, cap: usize) -> Result<&'a mut [u8], YACErr> {
    if ptr.is_null() {
        return if cap == 0 {
            Ok(&mut [])
        } else {
            Err(YACErr::YACErrInvalid)
        };
    }
    if cap > isize::MAX as usize {
        return Err(YACErr::YACErrInvalid);
    }
    // SAFETY: non-NULL, size within isize::MAX, and the caller promises the
    // region is writable and unaliased for the call.
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, cap) })
}

/// Borrows one out-parameter; NULL gives `YACErrInvalid`.
///
/// # Safety
/// A non-NULL `ptr` must be valid, aligned and unaliased for `'a`.
#[inline]
pub(crate) unsafe fn out<'a, T>(ptr: *mut T) -> Result<&'a mut T, YACErr> {
    // SAFETY: `as_mut` checks NULL; validity is the caller's promise.
    unsafe { ptr.as_mut() }.ok_or(YACErr::YACErrInvalid)
}

/// Borrows one in-parameter; NULL gives `YACErrInvalid`.
///
/// # Safety
/// A non-NULL `ptr` must be valid and aligned for `'a`.
#[inline]
#[allow(dead_code)] // used by the tree entry points
pub(crate) unsafe fn inp<'a, T>(ptr: *const T) -> Result<&'a T, YACErr> {
    // SAFETY: `as_ref` checks NULL; validity is the caller's promise.
    unsafe { ptr.as_ref() }.ok_or(YACErr::YACErrInvalid)
}

/// Every error text, NUL-terminated, indexed by `YACErr` value.
const ERR_TEXT: [&str; 25] = [
    "no error\0",
    "not enough input\0",
    "unknown tag\0",
    "length too big\0",
    "invalid UTF-8 or NUL in STR\0",
    "integer not in minimal form (leading zero)\0",
    "integer body is not a BIN\0",
    "float not in shortest form, or negative zero\0",
    "BLOB chunk longer than the chunk length\0",
    "BLOB holds an item that is not a BIN chunk\0",
    "TAI64 label at or above 2^63\0",
    "TAI64 nanoseconds above 999999999\0",
    "TAI64 attoseconds above 999999999\0",
    "TAI64N/NA with zero ns/as: shorter form required\0",
    "MAGIC does not start with KEKS\0",
    "MAP key is not a non-empty STR\0",
    "MAP key without a value\0",
    "MAP keys out of order or duplicate\0",
    "EOC outside a container\0",
    "nesting deeper than the limit\0",
    "not enough room\0",
    "invalid argument\0",
    "containers left open at the end\0",
    "close of the other kind of container\0",
    "a second root item\0",
];

/// A static, NUL-terminated, human-readable description of an error code.
/// Takes the code as `int` so that any value is safe to pass; unknown
/// values give "unknown error". The string must not be freed or modified.
#[no_mangle]
pub extern "C" fn YACErr2Str(err: c_int) -> *const c_char {
    let text = usize::try_from(err)
        .ok()
        .and_then(|i| ERR_TEXT.get(i))
        .copied()
        .unwrap_or("unknown error\0");
    text.as_ptr().cast()
}

/// The library's version, "MAJOR.MINOR.PATCH", NUL-terminated: the
/// version of the library actually linked, which a program can compare with
/// the `YAC_VERSION` it was compiled against. A static string: never free
/// or modify it.
#[no_mangle]
pub extern "C" fn YACVersion() -> *const c_char {
    VERSION.as_ptr().cast()
}

/// Panics: the probe of tests/panic_guard.rs, which proves that a panic
/// inside an `extern "C"` function aborts the process instead of unwinding
/// into C. Exported only with the `test-panic` feature, never in a shipped
/// library, and not in the header.
///
/// cbindgen:ignore
#[cfg(feature = "test-panic")]
#[no_mangle]
pub extern "C" fn YACTestPanic() {
    panic!("YACTestPanic panics on purpose");
}

/// The crate version from Cargo.toml, NUL-terminated (the header's
/// `YAC_VERSION` macros come from the same field).
const VERSION: &str = concat!(env!("CARGO_PKG_VERSION"), "\0");

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_text_matches_core_text() {
        // Every core error, by its code (yac::Error::code), maps onto the
        // YACErr of the same value, whose text is the core's.
        for code in 1..ERR_TEXT.len() as u32 {
            let e = Error::from_code(code).expect("a core error per code");
            assert_eq!(e.code(), code);
            assert_eq!(YACErr::from(e) as u32, code, "{e:?} has a stable code");
            let text = ERR_TEXT[code as usize].trim_end_matches('\0');
            assert_eq!(text, e.as_str());
        }
        assert_eq!(Error::from_code(ERR_TEXT.len() as u32), None);
        assert_eq!(ERR_TEXT[0], "no error\0");
    }

    #[test]
    fn item_types_have_the_core_values() {
        // C reads `meta & YACItemTypeMask` as a YACItemType: the C values
        // must be the core's, which the nodes store.
        for v in 0..=255u8 {
            let t = ItemType::from_u8(v);
            if t == ItemType::Invalid && v != 0 {
                assert_eq!(YACItemType::from_code(u32::from(v)), None, "{v}");
                continue;
            }
            assert_eq!(YACItemType::from(t) as u32, u32::from(v), "{t:?}");
            assert_eq!(YACItemType::from_code(u32::from(v)), Some(t.into()));
        }
    }

    #[test]
    fn version_is_the_crate_version() {
        // SAFETY: YACVersion returns a static NUL-terminated string.
        let v = unsafe { core::ffi::CStr::from_ptr(YACVersion()) };
        assert_eq!(v.to_str(), Ok(env!("CARGO_PKG_VERSION")));
        let mut parts = env!("CARGO_PKG_VERSION").split('.');
        for _ in 0..3 {
            assert!(parts.next().is_some_and(|p| p.parse::<u32>().is_ok()));
        }
        assert_eq!(parts.next(), None, "MAJOR.MINOR.PATCH");
    }
}
