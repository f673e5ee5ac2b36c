//! [`Error`]: why serializing or deserializing failed, and where; with the
//! conversions from and to [`crate::Error`], [`crate::ErrorAt`] and
//! `std::io::Error` that let `?` carry it across the three.

use alloc::string::{String, ToString};
use core::fmt;

/// Why serializing or deserializing failed, and where: for deserializing
/// the offset in the input of the atom at fault, for serializing the
/// number of bytes written when it failed.
///
/// One pointer wide (the rest is boxed), so that the `Result`s on the hot
/// paths stay small.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error(alloc::boxed::Box<Inner>);

#[derive(Clone, Debug, PartialEq, Eq)]
struct Inner {
    kind: ErrorKind,
    offset: usize,
}

/// What went wrong in an [`Error`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The format's own rule, as the core decoder or encoder reports it.
    Format(crate::Error),
    /// The input ends inside an item: it was cut short.
    Truncated,
    /// A BIN or STR whose whole header states a length that runs past the
    /// input's end: a corrupt length, or an input cut inside the payload.
    LengthPastEnd {
        /// The payload length the header states.
        declared: u64,
        /// The bytes left after the header.
        left: usize,
    },
    /// The document goes on after the value.
    TrailingBytes,
    /// A MAP key that is not a string (serializing).
    KeyNotString,
    /// `-0.0` (serializing): the format has no negative zero, and writing
    /// `0.0` instead would not read back equal.
    NegativeZero,
    /// Nesting deeper than the deserializer's limit ([`crate::de::MAX_DEPTH`]).
    TooDeep,
    /// Reading or writing the `std::io` stream failed.
    Io(IoError),
    /// A message from the `Serialize`/`Deserialize` implementation (a
    /// missing field, a value of the wrong type, ...).
    Message(String),
}

/// A `std::io::Error` kept in an [`ErrorKind::Io`] (shared, so that the
/// error stays `Clone`; compared by its kind).
#[derive(Clone, Debug)]
pub struct IoError(
    #[cfg(feature = "std")] pub alloc::sync::Arc<std::io::Error>,
    #[cfg(not(feature = "std"))] (),
);

impl PartialEq for IoError {
    fn eq(&self, _other: &IoError) -> bool {
        #[cfg(feature = "std")]
        return self.0.kind() == _other.0.kind();
        #[cfg(not(feature = "std"))]
        true
    }
}

impl Eq for IoError {}

/// The offset of an error made where the position is not known yet (by a
/// `custom` message or a `From` conversion); the serializer or
/// deserializer fills it in on the way out.
pub(crate) const UNKNOWN: usize = usize::MAX;

impl Error {
    #[cold]
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> Self {
        Error(alloc::boxed::Box::new(Inner { kind, offset }))
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// Byte offset: of the atom at fault in the input when deserializing,
    /// of the output's end when serializing.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// The core error that says what rule was broken, when there is one
    /// (a truncated input is [`crate::Error::NotEnough`], a length past the
    /// input's end [`crate::Error::LenTooBig`], `-0.0`
    /// [`crate::Error::FloatNonMinimal`]).
    pub fn format_error(&self) -> Option<crate::Error> {
        match self.0.kind {
            ErrorKind::Format(e) => Some(e),
            ErrorKind::Truncated => Some(crate::Error::NotEnough(1)),
            ErrorKind::LengthPastEnd { .. } => Some(crate::Error::LenTooBig),
            ErrorKind::NegativeZero => Some(crate::Error::FloatNonMinimal),
            ErrorKind::TooDeep => Some(crate::Error::DeepRecursion),
            _ => None,
        }
    }

    /// The error with its offset set to `at` unless it has one.
    pub(crate) fn or_at(mut self, at: usize) -> Error {
        if self.0.offset == UNKNOWN {
            self.0.offset = at;
        }
        self
    }

    /// A message error (the serde traits' `custom`).
    pub(crate) fn message<T: fmt::Display>(msg: T) -> Error {
        Error::new(ErrorKind::Message(msg.to_string()), UNKNOWN)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0.kind {
            ErrorKind::Format(e) => write!(f, "{e}")?,
            ErrorKind::Truncated => f.write_str("the input ends inside an item")?,
            ErrorKind::LengthPastEnd { declared, left } => write!(
                f,
                "corrupt length (or cut input): {declared} bytes stated where {left} are left"
            )?,
            ErrorKind::TrailingBytes => f.write_str("bytes after the value")?,
            ErrorKind::KeyNotString => f.write_str("MAP key is not a string")?,
            ErrorKind::NegativeZero => f.write_str(
                "-0.0 cannot be written: the format has no negative zero \
                 (and 0.0 would not read back equal)",
            )?,
            ErrorKind::TooDeep => f.write_str("nesting too deep")?,
            ErrorKind::Io(e) => {
                #[cfg(feature = "std")]
                write!(f, "I/O error: {}", e.0)?;
                #[cfg(not(feature = "std"))]
                let _ = e;
            }
            ErrorKind::Message(m) => f.write_str(m)?,
        }
        if self.0.offset != UNKNOWN {
            write!(f, " at offset {}", self.0.offset)?;
        }
        Ok(())
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.0.kind {
            ErrorKind::Format(e) => Some(e),
            ErrorKind::Io(e) => Some(&*e.0),
            _ => None,
        }
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::message(msg)
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::message(msg)
    }
}

/// A core error with no position (from a `with` helper, say).
impl From<crate::Error> for Error {
    fn from(e: crate::Error) -> Error {
        Error::new(ErrorKind::Format(e), UNKNOWN)
    }
}

/// A core error and its offset (from [`crate::items::Items::parse_doc`], say).
impl From<crate::ErrorAt> for Error {
    fn from(e: crate::ErrorAt) -> Error {
        Error::new(ErrorKind::Format(e.error), e.offset)
    }
}

#[cfg(feature = "std")]
impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Error {
        Error::new(ErrorKind::Io(IoError(alloc::sync::Arc::new(e))), UNKNOWN)
    }
}

/// An I/O error gives back its own kind and message; every other error is
/// `InvalidData` with this error inside.
#[cfg(feature = "std")]
impl From<Error> for std::io::Error {
    fn from(e: Error) -> std::io::Error {
        if let ErrorKind::Io(io) = e.kind() {
            return std::io::Error::new(io.0.kind(), e.to_string());
        }
        std::io::Error::new(std::io::ErrorKind::InvalidData, e)
    }
}

#[cfg(all(test, feature = "std"))]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn question_mark_goes_from_each_error_to_the_next() {
        fn core() -> Result<(), Error> {
            Err(crate::Error::MapUnordered.at(6))?
        }
        let e = core().unwrap_err();
        assert_eq!(
            (e.format_error(), e.offset()),
            (Some(crate::Error::MapUnordered), 6)
        );
        fn io() -> std::io::Result<()> {
            Err(Error::new(ErrorKind::TrailingBytes, 3))?
        }
        let e = io().unwrap_err();
        assert_eq!(e.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(e.to_string(), "bytes after the value at offset 3");
        fn back() -> Result<(), Error> {
            Err(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "gone"))?
        }
        let e = back().unwrap_err();
        assert!(matches!(e.kind(), ErrorKind::Io(_)), "{e}");
        assert_eq!(
            std::io::Error::from(e).kind(),
            std::io::ErrorKind::BrokenPipe
        );
    }
}
