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
//! The mapping, both ways (each row is checked by
//! `yac/tests/serde_mapping.rs`, the time types' by
//! `yac/tests/serde_time.rs`; docs/rust.md has the same table):
//!
#![doc = include_str!("mapping.md")]
// Without `std` there is no `to_writer` nor `from_reader`; their links go to
// the published docs.
#![cfg_attr(
    not(feature = "std"),
    doc = "<!-- links to items this build leaves out -->

[`crate::to_writer`]: https://docs.rs/keks/latest/keks/fn.to_writer.html
[`crate::from_reader`]: https://docs.rs/keks/latest/keks/fn.from_reader.html"
)]
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
mod option;
pub(crate) mod plan;
#[cfg(any(
    feature = "std",
    feature = "time",
    feature = "chrono",
    feature = "jiff"
))]
pub mod tai64;
#[cfg(feature = "uuid")]
pub mod uuid;

pub use error::{Error, ErrorKind, IoError};
