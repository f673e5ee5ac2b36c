//! yac: the YAC (KEKS) binary serialisation format.
//!
//! A `no_std` core that needs no allocator does all decoding, validation and
//! encoding. The C library (the workspace's root package, `libyac.a` +
//! `yac.h`) is a thin `extern "C"` layer over this crate.
//!
//! Modules, one concept each: [`error`], [`atom`] (decoding one item),
//! [`enc`] (encoding atoms), [`writer`] (writing whole documents), [`items`]
//! (the tree), [`validate`] (validation without a tree), [`utf8`],
//! [`float`], [`tai64`].

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

/// The README's Rust examples, compiled and run as doc tests (with the
/// `serde` feature, which one of them uses).
#[cfg(all(doctest, feature = "serde"))]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
