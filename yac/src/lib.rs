//! yac: the YAC (KEKS) binary serialisation format.
//!
//! A `no_std` core that needs no allocator does all decoding, validation and
//! encoding. The C library (the workspace's root package, `libyac.a` +
//! `yac.h`) is a thin `extern "C"` layer over this crate.
//!
//! Modules, one concept each, from the ground up: [`error`]; the rules of
//! single values, [`utf8`], [`float`], [`tai64`]; one atom at a time,
//! [`atom`] (decoding) and [`enc`] (encoding); [`rules`], the format's
//! rules above the atom (MAP key order, BLOB chunk fit, leading zeros, the
//! parse options); and their users: [`validate`] (validation without a
//! tree), [`items`] (the tree), [`writer`] (writing whole documents).

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod atom;
pub mod enc;
pub mod error;
pub mod float;
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
#[cfg(feature = "alloc")]
pub mod value;

pub use atom::{Atom, ItemType};
#[cfg(feature = "serde")]
pub use de::from_slice;
pub use error::{Error, ErrorAt};
#[cfg(feature = "serde")]
pub use ser::to_vec;
#[cfg(feature = "std")]
#[cfg(feature = "serde")]
pub use ser::to_writer;
#[cfg(feature = "alloc")]
pub use value::Value;
pub use writer::Writer;

/// The README's Rust examples, compiled and run as doc tests (with the
/// `serde` feature, which one of them uses).
#[cfg(all(doctest, feature = "serde"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
