//! The C API of libyac, the C library of the YAC (KEKS) binary
//! serialisation format.
//!
//! The `keks` crate (yac/, imported here as `yac`) does all decoding, validation and encoding;
//! [`ffi`] is a thin `extern "C"` layer over it, from which cbindgen
//! generates `include/yac.h`. An rlib: the root package (libyac) wraps it
//! into libyac.a and libyac.so; the tests and the fuzz targets link it.
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
