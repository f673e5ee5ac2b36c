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
/// happen anyway, stopping the core at once is the only safe response.
#[cfg(all(not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    trap()
}

/// Stops the program on an undefined-instruction trap, the instruction C
/// compilers emit for `__builtin_trap()`: the fault handler or debugger
/// sees where it stopped, and nothing runs on. Stable Rust has no portable
/// trap (core's `abort` intrinsic is unstable, `std::process::abort` needs
/// std), but `asm!` is stable; targets without a trap listed here spin.
#[cfg(all(not(feature = "std"), not(test)))]
fn trap() -> ! {
    // SAFETY: each instruction raises an exception and never returns (hence
    // `noreturn`); it reads and writes no memory and no stack.
    #[cfg(target_arch = "arm")]
    unsafe {
        core::arch::asm!("udf #254", options(noreturn, nomem, nostack))
    };
    // SAFETY: as above.
    #[cfg(target_arch = "aarch64")]
    unsafe {
        core::arch::asm!("brk #1", options(noreturn, nomem, nostack))
    };
    // SAFETY: as above.
    #[cfg(any(target_arch = "x86", target_arch = "x86_64"))]
    unsafe {
        core::arch::asm!("ud2", options(noreturn, nomem, nostack))
    };
    // SAFETY: as above.
    #[cfg(any(target_arch = "riscv32", target_arch = "riscv64"))]
    unsafe {
        core::arch::asm!("unimp", options(noreturn, nomem, nostack))
    };
    #[cfg(not(any(
        target_arch = "arm",
        target_arch = "aarch64",
        target_arch = "x86",
        target_arch = "x86_64",
        target_arch = "riscv32",
        target_arch = "riscv64"
    )))]
    loop {}
}
