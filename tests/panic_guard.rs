//! No panic crosses into C, in any profile: a C program calling a libyac
//! function that panics (YACTestPanic, exported with the `test-panic`
//! feature) is aborted, not returned to or unwound into, in a debug build,
//! where panics unwind (the release build has `panic = "abort"`).

mod common;

use std::os::unix::process::ExitStatusExt;
use std::process::Command;

use common::native;

#[test]
fn panic_in_an_extern_c_function_aborts_in_a_debug_build() {
    let dir = native::target_dir().join("panic-guard");
    let lib = native::build_lib_in(&dir, native::Profile::Debug, &["--features", "test-panic"]);
    let exe = native::build_c_program(
        &native::manifest_dir().join("tests/panic_guard/calls_panic.c"),
        &[],
        &lib,
        &[],
        &native::c_out_dir().join("calls_panic"),
    );

    // The control: the program runs and exits normally when nothing panics.
    let out = native::run(&mut Command::new(&exe));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "ran");

    let out = Command::new(&exe).arg("panic").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !stdout.contains("returned"),
        "YACTestPanic returned into C: {stdout}"
    );
    assert_eq!(
        out.status.signal(),
        Some(SIGABRT),
        "the process is aborted ({}); stderr:\n{stderr}",
        out.status
    );
    assert!(
        stderr.contains("YACTestPanic panics on purpose"),
        "the abort is the panic's: {stderr}"
    );
}

/// SIGABRT, the same number on every Unix this crate is tested on.
const SIGABRT: i32 = 6;
