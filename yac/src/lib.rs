//! yac: the YAC (KEKS) binary serialisation format.
//!
//! A `no_std` core that needs no allocator does all decoding, validation and
//! encoding; the C library (`libyac.a` + `yac.h`) is a thin `extern "C"`
//! layer over it. Every value has exactly one encoding (sorted MAP keys,
//! shortest integers and floats, UTF-8 strings), so documents can be
//! hashed and signed.
//!
//! # serde (feature `serde`)
//!
//! [`to_vec`], [`append_to_vec`], [`to_writer`] and [`from_slice`],
//! [`from_reader`], as in serde_json; the data-model mapping and the
//! `#[serde(with = ...)]` helpers for the format's own types (TAI64,
//! HEXLET, MAGIC, UUIDs) are in [`mod@serde`]. Errors convert to and from
//! [`Error`] and `std::io::Error`, so `?` works across them.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use serde::{Deserialize, Serialize};
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Point<'a> {
//!     name: &'a str, // borrowed from the input: zero-copy
//!     xy: (i32, i32),
//! }
//! let doc = yac::to_vec(&Point { name: "a", xy: (1, -2) })?;
//! assert_eq!(yac::from_slice::<Point>(&doc)?, Point { name: "a", xy: (1, -2) });
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Values of any shape (feature `alloc`)
//!
//! [`Value`] holds any item (every type of the format, integers and floats
//! of any width); [`value!`] builds one.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! let v = yac::value!({"id": 7, "tags": ["x", null]});
//! let doc = yac::to_vec(&v)?;
//! let back: yac::Value = yac::from_slice(&doc)?;
//! assert_eq!(back["tags"][0].as_str(), Some("x"));
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Without an allocator
//!
//! [`atom::decode`] reads one item; [`validate::validate`] checks a whole
//! document with a caller-sized stack; [`items::Items`] parses a document
//! into a tree in a caller's node pool (and edits and encodes it);
//! [`Writer`] writes documents into a caller's buffer, canonical by
//! construction.
//!
//! ```
//! use yac::{atom, items::{Item, Items}, Atom, Writer};
//! let mut buf = [0u8; 32];
//! let mut w = Writer::new(&mut buf);
//! w.map()?;
//! w.str("n")?;
//! w.uint(5)?;
//! w.eoc()?;
//! let n = w.finish()?;
//! let doc = &buf[..n];
//! assert_eq!(atom::decode(doc)?, (Atom::Map, 1));
//!
//! let mut levels = [0usize; 8];
//! let mut off = 0;
//! yac::validate::validate(doc, &mut off, &mut levels, Default::default())?;
//!
//! let mut pool = [Item::default(); 8];
//! let mut items = Items::new(&mut pool);
//! let root = items.parse_doc(doc)?;
//! assert_eq!(items.at(root).get("n").map(|n| n.as_u64()), Some(Ok(5)));
//! # Ok::<(), yac::Error>(())
//! ```
//!
//! Modules, one concept each, from the ground up: [`error`]; the rules of
//! single values, [`utf8`], [`float`], [`tai64`]; one atom at a time,
//! [`atom`] (decoding) and [`enc`] (encoding); [`rules`], the format's
//! rules above the atom (MAP key order, BLOB chunk fit, leading zeros, the
//! parse options); [`grammar`], the structural grammar (nesting, MAP
//! pairing and key order, BLOB chunks, depth, one root) as a pushdown
//! machine over levels the caller keeps; and their users: [`validate`]
//! (validation without a tree), [`items`] (the tree), [`writer`] (writing
//! whole documents); with `serde`, [`ser`], [`de`] and [`mod@serde`].
//!
//! Features: `std` (default: `std::error::Error`, `to_writer`,
//! `from_reader`, run-time SIMD for UTF-8), `alloc` ([`Value`]), `serde`,
//! `uuid` (`uuid::Uuid` fields as HEXLETs), `size-first` (smallest code).

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

/// Declares an item that only the C library (the `yac-capi` crate) needs:
/// public with the `capi-internals` feature, crate-private without it. The
/// feature is unstable and not for users: what it opens changes with the C
/// layer, without notice or semver.
macro_rules! capi_internal {
    ($(#[$meta:meta])* pub $($item:tt)*) => {
        #[cfg(feature = "capi-internals")]
        $(#[$meta])*
        pub $($item)*
        #[cfg(not(feature = "capi-internals"))]
        #[allow(dead_code, unused_imports)]
        $(#[$meta])*
        pub(crate) $($item)*
    };
}

pub mod atom;
pub mod enc;
pub mod error;
pub mod float;
pub mod grammar;
pub mod items;
pub mod rules;
pub mod tai64;
pub mod utf8;
pub mod validate;
pub mod writer;

#[cfg(test)]
mod sample;

#[cfg(feature = "serde")]
pub mod de;
#[cfg(feature = "serde")]
pub mod ser;
#[cfg(feature = "serde")]
pub mod serde;
#[cfg(feature = "alloc")]
pub mod value;

pub use atom::{Atom, ItemType};
#[cfg(all(feature = "serde", feature = "std"))]
pub use de::from_reader;
#[cfg(feature = "serde")]
pub use de::from_slice;
pub use error::{Error, ErrorAt};
#[cfg(feature = "std")]
#[cfg(feature = "serde")]
pub use ser::to_writer;
#[cfg(feature = "serde")]
pub use ser::{append_to_vec, to_vec};
#[cfg(feature = "alloc")]
pub use value::Value;
pub use writer::Writer;

/// The README's Rust examples, compiled and run as doc tests (with the
/// `serde` feature, which one of them uses).
#[cfg(all(doctest, feature = "serde"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
