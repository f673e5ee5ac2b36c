//! `include/yac.h`: the committed header is the one cbindgen generates from
//! the current sources, and it compiles cleanly as C99 and as C++11.

mod common;

use std::fs;

use common::native::{self, C_FLAGS};

/// The header build.rs generated for this build.
fn generated_header() -> Vec<u8> {
    // option_env!, not env!: a build whose cbindgen failed still compiles
    // the other tests, and this one reports it.
    let Some(path) = option_env!("YAC_GENERATED_HEADER") else {
        panic!("build.rs generated no header (see the cbindgen warning of the build)");
    };
    fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The committed header, `include/yac.h`: build.rs writes only into
/// OUT_DIR, so the work tree holds what was committed (or edited since).
#[test]
fn committed_header_is_the_generated_one() {
    let fresh = generated_header();
    let path = native::manifest_dir().join("include/yac.h");
    let committed = fs::read(&path).unwrap_or_default();
    if fresh == committed {
        return;
    }
    if std::env::var_os("UPDATE_HEADER").is_some_and(|v| v == "1") {
        fs::write(&path, &fresh).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        eprintln!("UPDATE_HEADER=1: rewrote {}", path.display());
        return;
    }
    let first = fresh
        .split(|&b| b == b'\n')
        .zip(committed.split(|&b| b == b'\n'))
        .position(|(a, b)| a != b)
        .map_or("at the end".to_string(), |l| format!("at line {}", l + 1));
    panic!(
        "include/yac.h differs from the header cbindgen generates ({first}); \
         refresh it with `UPDATE_HEADER=1 cargo test -p libyac --test header`, \
         then review and commit include/yac.h"
    );
}

/// A translation unit that includes the header and touches every kind of
/// declaration in it.
const USE_HEADER: &str = r#"#include "yac.h"

int main(void) {
  struct YACAtom atom;
  size_t got = 0;
  enum YACErr err = YACAtomDecode(&got, &atom, 0, 0);
  enum YACItemType typ = YACItemNIL;
  (void)typ;
  return YACErr2Str(err)[0] == '\0' ? YAC_VERSION_MAJOR : 0;
}
"#;

#[test]
fn header_compiles_as_c99_and_cpp11() {
    let dir = native::c_out_dir().join("header");
    fs::create_dir_all(&dir).expect("target/c-tests/header can be created");
    let include = native::manifest_dir().join("include");
    let cpp_flags: &[&str] = &["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"];
    for (cpp, name, flags) in [
        (false, "use_header.c", C_FLAGS),
        (true, "use_header.cpp", cpp_flags),
    ] {
        let src = dir.join(name);
        fs::write(&src, USE_HEADER).expect("source is writable");
        let mut cc = native::compiler(cpp);
        cc.args(flags)
            .arg("-I")
            .arg(&include)
            .arg("-c")
            .arg(&src)
            .arg("-o")
            .arg(dir.join(format!("{name}.o")));
        native::run(&mut cc);
    }
}
