//! serde support (feature `serde`): the data-model mapping, the error
//! type, and `#[serde(with = ...)]` helpers that put the format's own types
//! into typed fields.
//!
//! [`crate::to_vec`], [`crate::to_writer`] and [`crate::append_to_vec`]
//! serialize ([`crate::ser`]); [`crate::from_slice`] and
//! [`crate::from_reader`] deserialize ([`crate::de`]). Every value the
//! serializer accepts deserializes back equal, and every document it writes
//! is canonical (the only encoding of its value).
//!
//! | Rust (serde data model) | YAC written | read back from |
//! |---|---|---|
//! | `bool` | FALSE / TRUE | the same |
//! | `i8`..`i128`, `u8`..`u128` | +INT / -INT, minimal | any INT that fits the type |
//! | `f32`, `f64` | FLOAT16/32/64, the shortest holding the value exactly (NaN payloads, infinities, subnormals included); `-0.0` is refused ([`ErrorKind::NegativeZero`]) | FLOAT16/32/64, bit for bit |
//! | `char`, `str`, `String` | STR (a NUL is refused) | STR (`&str` borrows) |
//! | bytes (`serde_bytes`) | BIN | BIN (`&[u8]` borrows), BLOB (joined), HEXLET, TAI64*, MAGIC (their payload) |
//! | `None`, `()`, unit struct | NIL | NIL |
//! | `Some(v)`, newtype struct | `v` | `v` |
//! | sequence, tuple, tuple struct | LIST | LIST |
//! | map, struct | MAP, keys sorted canonically whatever the source order; a duplicate key is refused | MAP |
//! | unit variant | STR: the variant's name | STR |
//! | newtype, tuple, struct variant | MAP with one key, the name, and the value | the same |
//! | [`tai64`] (`SystemTime`) | TAI64 / TAI64N (UTC to TAI with the leap seconds) | TAI64 / TAI64N / TAI64NA (attoseconds dropped) |
//! | [`hexlet`] (`[u8; 16]`), [`mod@uuid`] (`uuid::Uuid`, feature `uuid`) | HEXLET | HEXLET |
//! | [`magic`] (`[u8; 12]`) | MAGIC | MAGIC |
//! | [`crate::Value`] | every atom as it is (BLOB, FLOAT128/256, integers of any size) | the same |
//!
//! MAP keys must serialize as non-empty strings (`char`, unit variants and
//! newtypes of strings are strings).
//!
//! ```
//! use std::time::{Duration, SystemTime, UNIX_EPOCH};
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Event {
//!     #[serde(with = "keks::serde::hexlet")]
//!     id: [u8; 16],
//!     #[serde(with = "keks::serde::tai64")]
//!     at: SystemTime,
//! }
//! let e = Event { id: [7; 16], at: UNIX_EPOCH + Duration::new(1_700_000_000, 5) };
//! let doc = keks::to_vec(&e)?;
//! assert_eq!(&doc[..6], [0x09, 0xC2, b'a', b't', 0x19, 0x40]); // TAI64N
//! assert_eq!(keks::from_slice::<Event>(&doc)?, e);
//! # Ok::<(), keks::serde::Error>(())
//! ```

pub(crate) mod error;
pub(crate) mod ext;
pub mod hexlet;
pub mod magic;
#[cfg(feature = "std")]
pub mod tai64;
#[cfg(feature = "uuid")]
pub mod uuid;

pub use error::{Error, ErrorKind, IoError};
