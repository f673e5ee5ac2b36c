//! libyac: the YAC (KEKS) binary serialisation format.
//!
//! A `no_std` core that needs no allocator does all decoding, validation and
//! encoding; [`ffi`] is a thin `extern "C"` layer over it, from which
//! cbindgen generates `include/yac.h`.
//!
//! Modules, one concept each: [`error`], [`atom`] (decoding one item),
//! [`enc`] (encoding atoms), [`writer`] (writing documents), [`utf8`], [`float`], [`tai64`], and [`ffi`].
//!
//! # Safety contract of the C API
//! Every pointer/length pair handed to a C entry point must describe memory
//! that is readable (or, for output buffers, writable) for that many bytes
//! for the duration of the call, or be NULL (which gives `YACErrInvalid`).
//! No entry point keeps a pointer beyond the call unless its documentation
//! says so; none allocates; none panics into C.

#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

pub mod atom;
pub mod enc;
pub mod error;
pub mod ffi;
pub mod float;
pub mod items;
pub mod tai64;
pub mod utf8;
pub mod writer;

pub use atom::{Atom, ItemType};
pub use error::Error;

/// The README's Rust examples, compiled and run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeDoctests;

/// A freestanding build has no std to supply the panic handler. Panics are
/// unreachable by construction (and checked by a symbol test); should one
/// happen anyway, stopping the core is the only safe response.
#[cfg(all(not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
