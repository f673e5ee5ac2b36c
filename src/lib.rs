//! libyac: the C library of the YAC (KEKS) binary serialisation format.
//!
//! The `yac` crate (yac/) does all decoding, validation and encoding;
//! [`ffi`] is a thin `extern "C"` layer over it, from which cbindgen
//! generates `include/yac.h`. Built as staticlib + cdylib only (libyac.a,
//! libyac.so); testkit/libyac-rlib compiles the same sources as an rlib
//! for the tests and the fuzz targets.
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

pub mod ffi;

/// A freestanding build has no std to supply the panic handler. Panics are
/// unreachable by construction (and checked by a symbol test); should one
/// happen anyway, stopping the core is the only safe response.
#[cfg(all(not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
