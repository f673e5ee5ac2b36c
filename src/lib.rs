//! libyac: the C library of the YAC (KEKS) binary serialisation format,
//! built as `libyac.a` and `libyac.so`.
//!
//! A thin wrapper: the `extern "C"` functions are the `yac_capi` crate's
//! (capi/), an rlib that Rust tests and fuzzers link directly. Linking it
//! here puts its `#[no_mangle]` functions into the static and shared
//! libraries, which export exactly those.

#![cfg_attr(not(feature = "std"), no_std)]

pub use yac_capi::*;

/// A freestanding build has no std to supply the panic handler. Panics are
/// unreachable by construction (and checked by a symbol test); should one
/// happen anyway, stopping the core is the only safe response.
#[cfg(all(not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    loop {}
}
