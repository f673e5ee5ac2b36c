//! yac: the YAC (KEKS) binary serialisation format.
//!
//! A `no_std` core that needs no allocator does all decoding, validation and
//! encoding. The C library (the workspace's root package, `libyac.a` +
//! `yac.h`) is a thin `extern "C"` layer over this crate.
//!
//! Modules, one concept each: [`error`], [`atom`] (decoding one item),
//! [`enc`] (encoding), [`items`] (the tree), [`utf8`], [`float`], [`tai64`].

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod atom;
pub mod enc;
pub mod error;
pub mod float;
pub mod items;
pub mod tai64;
pub mod utf8;

pub use atom::{Atom, ItemType};
pub use error::Error;

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
