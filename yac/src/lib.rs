//! keks: the KEKS (also called YAC) binary serialisation format.
//!
//! A `no_std` core that needs no allocator does all decoding, validation and
//! encoding; the C library (`libyac.a` + `yac.h`) is a thin `extern "C"`
//! layer over it. Every value has exactly one encoding (sorted MAP keys,
//! shortest integers and floats, UTF-8 strings), so documents can be
//! hashed and signed.
//!
//! The guide below has one runnable example per part; each is a doc test.
//!
//! # serde (feature `serde`)
//!
//! [`to_vec`], [`append_to_vec`], [`to_writer`] and [`from_slice`],
//! [`from_reader`], as in serde_json. The data model mapping table (every
//! Rust type to its encoding and back) and the `#[serde(with = ...)]`
//! helpers for the format's own types (TAI64 for `SystemTime` and the time
//! crates' types, HEXLET, MAGIC, UUIDs) are in
//! [`mod@serde`]. Errors convert to and from [`Error`] and
//! `std::io::Error`, so `?` works across them.
//!
//! A struct is a MAP whose keys must be in the format's order (shorter
//! names first, then by bytes). A struct whose fields are declared in
//! another order is written in declaration order and then put in order
//! (the serializer learns each type's permutation once); one declared in
//! key order is written with nothing moved, the fastest way (on the
//! licenses, countries and emoji benchmarks of `benches/serde`, 0.80x,
//! 0.90x and 0.73x the instructions of rmp-serde, against 1.27x, 1.15x
//! and 1.19x in the source's field order). The companion crate
//! [keks-macros](https://docs.rs/keks-macros)'s attribute
//! `#[keks_macros::key_order]`, put above `#[derive(Serialize)]`,
//! declares a struct's fields in key order at compile time (following
//! serde's renames), so that the source keeps the order that reads best
//! and nothing is moved. [`ser::field_orders`] tells, for a sample value,
//! which of its struct types are declared out of key order and what the
//! key order is (a unit test can keep them so).
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use std::collections::HashMap;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! enum Unit { Celsius, Kelvin }
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Reading {
//!     sensor: String,
//!     value: f64,
//!     unit: Unit,
//!     labels: HashMap<String, u32>, // any order in, canonical order out
//! }
//! let r = Reading {
//!     sensor: "t1".into(),
//!     value: 21.5,
//!     unit: Unit::Celsius,
//!     labels: HashMap::from([("floor".into(), 3), ("room".into(), 12)]),
//! };
//! let doc = keks::to_vec(&r)?;
//! assert_eq!(keks::from_slice::<Reading>(&doc)?, r);
//!
//! // Streams: to_writer and from_reader.
//! let mut file = Vec::new();
//! keks::to_writer(&mut file, &r)?;
//! assert_eq!(file, doc);
//! let back: Reading = keks::from_reader(file.as_slice())?;
//! assert_eq!(back, r);
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Zero-copy reading
//!
//! [`from_slice`] lends `&str` and `&[u8]` fields straight from the input
//! (bytes through [serde_bytes](https://docs.rs/serde_bytes) or a
//! `&[u8]` field with `#[serde(borrow)]`): nothing is copied or allocated
//! for them.
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! use serde::{Deserialize, Serialize};
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Point<'a> {
//!     name: &'a str, // borrowed from `doc`
//!     xy: (i32, i32),
//! }
//! let doc = keks::to_vec(&Point { name: "a", xy: (1, -2) })?;
//! let p: Point = keks::from_slice(&doc)?;
//! assert_eq!(p, Point { name: "a", xy: (1, -2) });
//! let inside = doc.as_ptr_range();
//! assert!(inside.contains(&p.name.as_ptr()));
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Values of any shape (feature `alloc`)
//!
//! [`Value`] holds any item (every type of the format, integers and floats
//! of any width); [`value!`] builds one; it indexes like
//! `serde_json::Value`, and its `Display` is the tree form of the `yac`
//! tool's `print` ([`text`]).
//!
//! ```
//! let v = keks::value!({"id": 7, "tags": ["x", null]});
//! assert_eq!(v["tags"][0].as_str(), Some("x"));
//! assert!(v["nothing"].is_nil());
//! assert_eq!(
//!     v.to_string(),
//!     "MAP (2 pairs)\n  \"id\": +INT 7\n  \"tags\": LIST (2 items)\n    STR 1 \"x\"\n    NIL\n"
//! );
//! # #[cfg(feature = "serde")] {
//! let doc = keks::to_vec(&v)?;
//! let back: keks::Value = keks::from_slice(&doc)?;
//! assert_eq!(back, v);
//! # }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The writer: canonical by construction
//!
//! [`Writer`] writes a whole document into a caller's buffer (or through a
//! flush callback, or only counting), checking nesting, MAP key order and
//! BLOB chunks as it goes.
//!
//! ```
//! use keks::Writer;
//! let mut buf = [0u8; 32];
//! let mut w = Writer::new(&mut buf);
//! w.map()?;
//! w.str("n")?;
//! w.uint(5)?;
//! w.eoc()?;
//! let n = w.finish()?;
//! assert_eq!(buf[..n], [0x09, 0xC1, b'n', 0x0C, 0x81, 0x05, 0x00]);
//! # Ok::<(), keks::Error>(())
//! ```
//!
//! # Validation without a tree
//!
//! [`validate::validate`] checks a whole document as the parser would,
//! with a caller-sized stack of nesting levels and nothing else, and says
//! how many tree nodes it needs; errors come with their offset.
//!
//! ```
//! use keks::{validate::validate, Error};
//! let doc = [0x09, 0xC1, b'n', 0x0C, 0x81, 0x05, 0x00]; // {"n": 5}
//! let mut levels = [0usize; 8];
//! let mut off = 0;
//! let nodes = validate(&doc, &mut off, &mut levels, Default::default())?;
//! assert_eq!((nodes, off), (3, doc.len()));
//!
//! let bad = [0x09, 0xC1, b'n', 0x0C, 0x81, 0x05]; // no EOC
//! let mut off = 0;
//! let e = validate(&bad, &mut off, &mut levels, Default::default());
//! assert!(matches!(e, Err(Error::NotEnough(_))));
//! # Ok::<(), keks::Error>(())
//! ```
//!
//! # The tree
//!
//! [`items::Items`] parses a document into a tree in a caller's node pool
//! (sized by [`items::count_nodes`]), reads it with typed getters, edits
//! it and encodes it again; [`atom::decode`] reads one atom at a time.
//!
//! ```
//! use keks::items::{count_nodes, Item, Items};
//! use keks::{atom, Atom};
//! let doc = [0x09, 0xC1, b'n', 0x0C, 0x81, 0x05, 0x00]; // {"n": 5}
//! assert_eq!(atom::decode(&doc)?, (Atom::Map, 1));
//!
//! let (nodes, _) = count_nodes(&doc, 0)?;
//! let mut pool = [Item::default(); 8];
//! assert!(nodes < pool.len());
//! let mut items = Items::new(&mut pool);
//! let root = items.parse_doc(&doc)?;
//! assert_eq!(items.at(root).get("n").map(|n| n.as_u64()), Some(Ok(5)));
//!
//! // Set "n" to 6 (map_put replaces the value of an equal key) and encode.
//! let six = items.add(&Atom::Uint(6))?;
//! let five = items.map_put(root, "n", six)?;
//! assert!(five.is_some());
//! let mut out = [0u8; 16];
//! let n = items.encode(root, &mut out)?;
//! assert_eq!(out[..n], [0x09, 0xC1, b'n', 0x0C, 0x81, 0x06, 0x00]);
//! # Ok::<(), keks::Error>(())
//! ```
//!
//! # `no_std` use
//!
//! Without default features (`keks = { version = "0.3",
//! default-features = false }`) the crate is `#![no_std]` and needs no
//! allocator: everything above except serde and `Value` works on buffers
//! and pools the caller owns, on the stack here, as in firmware. (With
//! `alloc`, `Value` and serde work without `std` too.)
//!
//! ```
//! // Everything here is in `core`: no Vec, no String, no heap.
//! fn reading(out: &mut [u8], celsius_x10: i64) -> Result<usize, keks::Error> {
//!     let mut w = keks::Writer::new(out);
//!     w.map()?;
//!     w.str("t")?;
//!     w.sint(celsius_x10)?;
//!     w.eoc()?;
//!     w.finish()
//! }
//! let mut buf = [0u8; 16];
//! let n = reading(&mut buf, -15)?;
//!
//! let mut pool = [keks::items::Item::default(); 4];
//! let mut items = keks::items::Items::new(&mut pool);
//! let root = items.parse_doc(&buf[..n])?;
//! assert_eq!(items.at(root).get("t").map(|t| t.as_i64()), Some(Ok(-15)));
//! # Ok::<(), keks::Error>(())
//! ```
//!
//! # Modules
//!
//! One concept each, from the ground up: [`error`]; the rules of single
//! values, [`utf8`], [`float`], [`tai64`]; one atom at a time, [`atom`]
//! (decoding) and [`enc`] (encoding); [`rules`], the format's rules above
//! the atom (MAP key order, BLOB chunk fit, leading zeros, the parse
//! options); [`grammar`], the structural grammar (nesting, MAP pairing and
//! key order, BLOB chunks, depth, one root) as a pushdown machine over
//! levels the caller keeps; and their users: [`validate`] (validation
//! without a tree), [`items`] (the tree), [`writer`] (writing whole
//! documents); with `alloc`, [`mod@value`], [`text`] (the text form) and
//! [`bigint`] (decimal digits of integers of any size); with `serde`,
//! [`ser`], [`de`] and [`mod@serde`].
//!
//! Features: `std` (default: `std::error::Error`, `to_writer`,
//! `from_reader`, run-time SIMD for UTF-8), `alloc` ([`Value`], [`text`]),
//! `serde`, `uuid` (`uuid::Uuid` fields as HEXLETs), `time`, `chrono`,
//! `jiff` (their time types as TAI64 labels, `keks::serde::tai64`),
//! `size-first` (smallest code). The full API documentation needs every feature:
//! `cargo doc -p keks --no-deps --all-features` (docs.rs builds it so).

// The guide names items of every feature. Those this build leaves out are
// linked to the published docs, so that `cargo doc -p keks` with any set of
// features has no broken link.
#![cfg_attr(
    not(feature = "serde"),
    doc = "<!-- links to items this build leaves out -->

[`to_vec`]: https://docs.rs/keks/latest/keks/fn.to_vec.html
[`append_to_vec`]: https://docs.rs/keks/latest/keks/fn.append_to_vec.html
[`to_writer`]: https://docs.rs/keks/latest/keks/fn.to_writer.html
[`from_slice`]: https://docs.rs/keks/latest/keks/fn.from_slice.html
[`from_reader`]: https://docs.rs/keks/latest/keks/fn.from_reader.html
[`mod@serde`]: https://docs.rs/keks/latest/keks/serde/index.html
[`ser`]: https://docs.rs/keks/latest/keks/ser/index.html
[`de`]: https://docs.rs/keks/latest/keks/de/index.html
[`ser::field_orders`]: https://docs.rs/keks/latest/keks/ser/fn.field_orders.html"
)]
#![cfg_attr(
    all(feature = "serde", not(feature = "std")),
    doc = "<!-- links to items this build leaves out -->

[`to_writer`]: https://docs.rs/keks/latest/keks/fn.to_writer.html
[`from_reader`]: https://docs.rs/keks/latest/keks/fn.from_reader.html"
)]
#![cfg_attr(
    not(feature = "alloc"),
    doc = "<!-- links to items this build leaves out -->

[`Value`]: https://docs.rs/keks/latest/keks/value/enum.Value.html
[`mod@value`]: https://docs.rs/keks/latest/keks/value/index.html
[`value!`]: https://docs.rs/keks/latest/keks/macro.value.html
[`text`]: https://docs.rs/keks/latest/keks/text/index.html
[`bigint`]: https://docs.rs/keks/latest/keks/bigint/index.html"
)]
#![cfg_attr(not(feature = "std"), no_std)]
// docs.rs (`--cfg docsrs`, nightly): each item says which feature it needs.
#![cfg_attr(docsrs, feature(doc_cfg))]
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

#[cfg(feature = "alloc")]
pub mod bigint;
#[cfg(feature = "serde")]
pub mod de;
#[cfg(feature = "serde")]
pub mod ser;
#[cfg(feature = "serde")]
pub mod serde;
#[cfg(feature = "alloc")]
pub mod text;
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

/// The crate README's and docs/rust.md's Rust examples, run as doc tests
/// (with every feature: they use serde and `Value`'s `Display`).
#[cfg(all(doctest, feature = "serde", feature = "std"))]
#[doc = include_str!("../README.md")]
#[doc = include_str!("../../docs/rust.md")]
pub struct ReadmeDoctests;
