//! The C test harness: builds the real release `libyac.a`, compiles every
//! `c-tests/*.c` against it and `include/yac.h` with strict C99 flags, runs
//! each program, then does it all again under AddressSanitizer and
//! UndefinedBehaviorSanitizer. Any nonzero exit fails the test.
//!
//! The C tests read the shared vectors of `common/vectors.rs` from a
//! generated header, `target/c-tests/gen/yac_vectors.h`, so that Rust and C
//! check exactly the same table. The building is shared with
//! `tests/examples.rs` (module `cbuild`).

mod cbuild;
mod common;

use std::process::Command;

use cbuild::Mode;
use common::native;

#[test]
fn c_tests_pass_plain_and_sanitized() {
    let setup = cbuild::setup();
    for src in &cbuild::sources("c-tests") {
        for mode in [Mode::Plain, Mode::Sanitized] {
            let exe = setup.compile(src, mode);
            let out = native::run(&mut Command::new(&exe));
            let stdout = String::from_utf8_lossy(&out.stdout);
            println!("{}: {}", exe.display(), stdout.trim_end());
            assert!(
                stdout.contains(" passed, 0 failed"),
                "{} did not report its count",
                exe.display()
            );
        }
    }
}
