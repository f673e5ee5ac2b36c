//! The one error type of the core. Every failure class of the format has its
//! own variant, so that a caller (and a test table) can tell exactly what was
//! wrong with an input. The C layer maps these one to one onto the C `YACErr` codes.

use core::fmt;

/// Why decoding, validating or encoding failed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Error {
    /// The input ends inside an item; at least this many more bytes are
    /// needed before decoding can make progress (always >= 1).
    NotEnough(usize),
    /// The byte at the item's start is not a tag of the format.
    UnknownType,
    /// A length is beyond what the input, `usize` or the 64-bit length field
    /// can hold (for example BF FFFFFFFFFFFFFFFF).
    LenTooBig,
    /// A STR payload is not UTF-8 (overlong, surrogate, > U+10FFFF,
    /// truncated sequence) or holds a NUL byte.
    BadUtf8,
    /// An integer magnitude with a leading zero byte.
    IntNonMinimal,
    /// The item after +INT/-INT is not a BIN.
    IntNonBin,
    /// A float that a narrower width holds exactly, or negative zero.
    FloatNonMinimal,
    /// A BLOB chunk longer than the BLOB's chunk length.
    BlobBadChunk,
    /// A BLOB not terminated properly: an item other than BIN among its chunks.
    BlobBadTerm,
    /// A TAI64 label at or above 2^63 (reserved).
    Tai64TooBig,
    /// TAI64N/NA nanoseconds above 999999999.
    Tai64BadNsec,
    /// TAI64NA attoseconds above 999999999.
    Tai64BadAsec,
    /// TAI64N with zero nanoseconds, or TAI64NA with zero attoseconds: the
    /// shorter form must be used.
    Tai64NonMinimal,
    /// A MAGIC atom that does not read "KEKS".
    BadMagic,
    /// A MAP key that is not a STR, or is empty.
    MapBadKey,
    /// A MAP closed (EOC) where a value was due.
    MapNoVal,
    /// A MAP key not strictly above the previous one (length first, then
    /// bytewise): out of order or duplicate.
    MapUnordered,
    /// EOC where no LIST or MAP is open.
    UnexpectedEoc,
    /// Nesting deeper than the caller's limit.
    DeepRecursion,
    /// The caller's memory (node pool, output buffer) is too small.
    NoMem,
    /// A bad argument: NULL pointer, index out of range, wrong node type.
    Invalid,
    /// A writer finished with containers (or a BLOB) still open.
    Unclosed,
    /// A close of the other kind of container: a LIST closed as a MAP or
    /// a MAP as a LIST.
    WrongClose,
    /// A second root item where one document was expected.
    SecondRoot,
}

impl Error {
    /// A short, static, human-readable description.
    pub const fn as_str(self) -> &'static str {
        match self {
            Error::NotEnough(_) => "not enough input",
            Error::UnknownType => "unknown tag",
            Error::LenTooBig => "length too big",
            Error::BadUtf8 => "invalid UTF-8 or NUL in STR",
            Error::IntNonMinimal => "integer not in minimal form (leading zero)",
            Error::IntNonBin => "integer body is not a BIN",
            Error::FloatNonMinimal => "float not in shortest form, or negative zero",
            Error::BlobBadChunk => "BLOB chunk longer than the chunk length",
            Error::BlobBadTerm => "BLOB holds an item that is not a BIN chunk",
            Error::Tai64TooBig => "TAI64 label at or above 2^63",
            Error::Tai64BadNsec => "TAI64 nanoseconds above 999999999",
            Error::Tai64BadAsec => "TAI64 attoseconds above 999999999",
            Error::Tai64NonMinimal => "TAI64N/NA with zero ns/as: shorter form required",
            Error::BadMagic => "MAGIC does not start with KEKS",
            Error::MapBadKey => "MAP key is not a non-empty STR",
            Error::MapNoVal => "MAP key without a value",
            Error::MapUnordered => "MAP keys out of order or duplicate",
            Error::UnexpectedEoc => "EOC outside a container",
            Error::DeepRecursion => "nesting deeper than the limit",
            Error::NoMem => "not enough room",
            Error::Invalid => "invalid argument",
            Error::Unclosed => "containers left open at the end",
            Error::WrongClose => "close of the other kind of container",
            Error::SecondRoot => "a second root item",
        }
    }
}

impl Error {
    /// Every error, in the order of their codes (1, 2, ...).
    const ALL: [Error; 24] = [
        Error::NotEnough(1),
        Error::UnknownType,
        Error::LenTooBig,
        Error::BadUtf8,
        Error::IntNonMinimal,
        Error::IntNonBin,
        Error::FloatNonMinimal,
        Error::BlobBadChunk,
        Error::BlobBadTerm,
        Error::Tai64TooBig,
        Error::Tai64BadNsec,
        Error::Tai64BadAsec,
        Error::Tai64NonMinimal,
        Error::BadMagic,
        Error::MapBadKey,
        Error::MapNoVal,
        Error::MapUnordered,
        Error::UnexpectedEoc,
        Error::DeepRecursion,
        Error::NoMem,
        Error::Invalid,
        Error::Unclosed,
        Error::WrongClose,
        Error::SecondRoot,
    ];

    /// The error's stable number, 1..=24 (the C API's `YACErr` value; 0 is
    /// success). `NotEnough` loses its count.
    pub fn code(self) -> u32 {
        let same = |e: &Error| core::mem::discriminant(e) == core::mem::discriminant(&self);
        Error::ALL.iter().position(same).map_or(0, |i| i as u32 + 1)
    }

    /// The error of a code made by [`Error::code`] (`NotEnough` comes back
    /// as `NotEnough(1)`); `None` for 0 and unknown codes.
    pub fn from_code(code: u32) -> Option<Error> {
        Error::ALL.get((code as usize).checked_sub(1)?).copied()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotEnough(n) => write!(f, "not enough input: {n} more byte(s) needed"),
            other => f.write_str(other.as_str()),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

impl Error {
    /// This error found at byte `offset`.
    pub const fn at(self, offset: usize) -> ErrorAt {
        ErrorAt {
            error: self,
            offset,
        }
    }
}

/// An [`Error`] and the byte offset where it was found. What
/// [`Items::parse_doc`](crate::items::Items::parse_doc) returns, so that an
/// error propagated with `?` still says where: its `Display` is
/// "MAP keys out of order or duplicate at offset 6", its `Debug` names both.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ErrorAt {
    /// What was wrong.
    pub error: Error,
    /// Offset of the atom at fault in the input (for `NotEnough`, of the
    /// incomplete one).
    pub offset: usize,
}

impl fmt::Display for ErrorAt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at offset {}", self.error, self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ErrorAt {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl From<ErrorAt> for Error {
    fn from(e: ErrorAt) -> Error {
        e.error
    }
}

/// So that `?` takes a core error out of a function returning
/// `std::io::Result` (a reader or writer built on the core): a document
/// cut short is `UnexpectedEof`, every other error `InvalidData`, with
/// this error inside.
#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    fn from(e: Error) -> std::io::Error {
        std::io::Error::new(e.io_kind(), e)
    }
}

/// As for [`Error`], the offset kept in the message.
#[cfg(feature = "std")]
impl From<ErrorAt> for std::io::Error {
    fn from(e: ErrorAt) -> std::io::Error {
        std::io::Error::new(e.error.io_kind(), e)
    }
}

#[cfg(feature = "std")]
impl Error {
    fn io_kind(self) -> std::io::ErrorKind {
        match self {
            Error::NotEnough(_) => std::io::ErrorKind::UnexpectedEof,
            _ => std::io::ErrorKind::InvalidData,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_names_the_missing_count() {
        extern crate std;
        use std::string::ToString;
        assert_eq!(
            Error::NotEnough(3).to_string(),
            "not enough input: 3 more byte(s) needed"
        );
        assert_eq!(
            Error::BadMagic.to_string(),
            "MAGIC does not start with KEKS"
        );
        assert_eq!(
            Error::MapUnordered.at(6).to_string(),
            "MAP keys out of order or duplicate at offset 6"
        );
    }

    #[cfg(feature = "std")]
    #[test]
    fn question_mark_turns_core_errors_into_io_errors() {
        extern crate std;
        use std::string::ToString;
        fn check(doc: &[u8]) -> std::io::Result<usize> {
            let (mut off, mut levels) = (0, [0usize; 4]);
            let opts = crate::items::Options::default();
            Ok(crate::validate::validate(doc, &mut off, &mut levels, opts)?)
        }
        assert_eq!(check(&[0x08, 0x00]).unwrap(), 1);
        let e = check(&[0x09, 0xC1, b'b', 0x01, 0xC1, b'a', 0x01, 0x00]).unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(e.to_string(), Error::MapUnordered.to_string());
        assert_eq!(
            check(&[0x08]).unwrap_err().kind(),
            std::io::ErrorKind::UnexpectedEof
        );
        fn at() -> std::io::Result<()> {
            Err(Error::MapUnordered.at(6))?
        }
        let e = at().unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(
            e.to_string(),
            "MAP keys out of order or duplicate at offset 6"
        );
        let inner = e.get_ref().and_then(|i| i.downcast_ref::<ErrorAt>());
        assert_eq!(inner, Some(&Error::MapUnordered.at(6)));
        fn cut() -> std::io::Result<()> {
            Err(Error::NotEnough(2))?
        }
        assert_eq!(cut().unwrap_err().kind(), std::io::ErrorKind::UnexpectedEof);
    }

    #[test]
    fn codes_round_trip() {
        for (i, e) in Error::ALL.iter().enumerate() {
            assert_eq!(e.code(), i as u32 + 1);
            assert_eq!(Error::from_code(e.code()), Some(*e));
        }
        assert_eq!(Error::NotEnough(7).code(), 1);
        assert_eq!(Error::from_code(0), None);
        assert_eq!(Error::from_code(Error::ALL.len() as u32 + 1), None);
    }
}
