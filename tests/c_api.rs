//! The C test harness: builds the real release `libyac.a`, compiles every
//! `c-tests/*.c` against it and `include/yac.h` with strict C99 flags, runs
//! each program, then does it all again under AddressSanitizer and
//! UndefinedBehaviorSanitizer, and runs the plain build under valgrind
//! (memcheck, every leak an error; all but test_no_heap, whose own malloc
//! valgrind replaces; required when `CI` is set, skipped with
//! a note when valgrind is missing otherwise; the million-deep test runs
//! at `YAC_TEST_DEPTH` = `cbuild::VALGRIND_TEST_DEPTH` there). Any nonzero
//! exit fails the test. One more plain run is built with `-fshort-enums`
//! (all the others with `-fno-short-enums`): the C ABI has no enum type,
//! so both must pass.
//!
//! The C tests read the shared vectors of `common/vectors.rs` from a
//! generated header, `target/c-tests/gen/yac_vectors.h`, so that Rust and C
//! check exactly the same table. The building is shared with
//! `tests/examples.rs` (module `cbuild`).

mod cbuild;
mod common;

use common::native;

#[test]
fn c_tests_pass_plain_and_sanitized() {
    let setup = cbuild::setup();
    for src in &cbuild::sources("c-tests") {
        for mode in cbuild::modes()
            .into_iter()
            .chain([cbuild::Mode::ShortEnums])
        {
            // test_no_heap proves "no allocation" with its own malloc,
            // which valgrind replaces by its own: its checks cannot hold
            // there (the other runs cover it).
            if mode == cbuild::Mode::Valgrind && src.ends_with("test_no_heap.c") {
                continue;
            }
            let exe = setup.compile(src, mode);
            let out = native::run(&mut cbuild::command(&exe));
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

/// The valgrind pass is not vacuous: a program that leaks and reads
/// uninitialised memory fails under it (and passes when run plainly).
#[test]
fn valgrind_pass_catches_leaks_and_bad_reads() {
    if !cbuild::modes().contains(&cbuild::Mode::Valgrind) {
        return;
    }
    let setup = cbuild::setup();
    let src = native::c_out_dir().join("leaky.c");
    std::fs::write(
        &src,
        "#include <stdlib.h>\n#include \"yac.h\"\n\
         int main(void) {\n  char *p = malloc(16);\n  \
         return p == NULL ? 2 : YACErr2Str(0) == NULL;\n}\n",
    )
    .unwrap();
    let plain = setup.compile(&src, cbuild::Mode::Plain);
    assert!(cbuild::command(&plain).status().unwrap().success());
    let vg = setup.compile(&src, cbuild::Mode::Valgrind);
    let status = cbuild::command(&vg).output().unwrap().status;
    assert_eq!(
        status.code(),
        Some(cbuild::VALGRIND_ERROR_EXIT),
        "leak not caught"
    );
}
