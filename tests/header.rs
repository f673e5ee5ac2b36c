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
#include "yac.h" /* twice: the include guard covers the hand-written parts */

/* The inline reads and both iteration macros. */
static size_t use_inline(const struct YACItems *items, uint32_t root) {
  size_t n = 0, len = 0;
  YAC_UNSAFE_FOREACH(items, root, child) {
    n += YACUnsafeNodeType(items, child) + YACUnsafeNodeCount(items, child) + YACUnsafeNodeFirst(items, child);
  }
  YAC_UNSAFE_MAP_FOREACH(items, root, key, val) {
    n += (size_t)YACUnsafeNodeStr(items, key, &len)[0] + len + YACUnsafeNodeUint(items, val) +
         (size_t)YACUnsafeNodeSint(items, val) + YACUnsafeNodeNext(items, val);
    n += YACUnsafeNodeBytes(items, val, &len)[0];
  }
  return n;
}

int main(void) {
  struct YACAtom atom;
  struct YACItems items;
  size_t got = 0;
  YACErr err = YACAtomDecode(&got, &atom, 0, 0);
  YACItemType typ = YACItemNIL;
  (void)typ;
  if (YACItemsInit(&items, 0, 0) == YACErrNo && got == 1) {
    got = use_inline(&items, 0);
  }
  return YACErr2Str(err)[0] == '\0' ? YAC_VERSION_MAJOR : (int)got;
}
"#;

#[test]
fn header_compiles_as_c99_and_cpp11() {
    let dir = native::c_out_dir().join("header");
    fs::create_dir_all(&dir).expect("target/c-tests/header can be created");
    let include = native::manifest_dir().join("include");
    let cpp_flags: &[&str] = &["-std=c++11", "-Wall", "-Wextra", "-Werror", "-pedantic"];
    let c11_flags: &[&str] = &["-std=c11", "-Wall", "-Wextra", "-Werror", "-pedantic"];
    for (cpp, name, flags) in [
        (false, "use_header.c", C_FLAGS),
        (false, "use_header_c11.c", c11_flags),
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

/// Compiles `source` (which includes the header) as C99, with `extra`
/// flags; whether it compiled.
fn compiles(name: &str, source: &str, extra: &[&str]) -> bool {
    let dir = native::c_out_dir().join("header");
    fs::create_dir_all(&dir).expect("target/c-tests/header can be created");
    let src = dir.join(name);
    fs::write(&src, source).expect("source is writable");
    let mut cc = native::compiler(false);
    cc.args(C_FLAGS)
        .args(extra)
        .arg("-I")
        .arg(native::manifest_dir().join("include"))
        .arg("-fsyntax-only")
        .arg(&src);
    cc.output().expect("the C compiler runs").status.success()
}

/// The ABI does not depend on enum size: the header's layout checks hold
/// with short and with int-sized enums, and every code type is 4 bytes.
#[test]
fn layout_is_the_same_with_short_and_long_enums() {
    for flag in ["-fshort-enums", "-fno-short-enums"] {
        assert!(
            compiles("enums.c", USE_HEADER, &[flag]),
            "the header's layout checks fail with {flag}"
        );
    }
}

/// The layout checks can fail: packed structs move `struct YACAtom.tag`
/// and shrink the structs, and the header must refuse to compile.
#[test]
fn layout_checks_catch_a_different_layout() {
    let packed = format!("#pragma pack(push, 1)\n{USE_HEADER}");
    assert!(
        !compiles("packed.c", &packed, &[]),
        "a packed layout passed the header's layout checks"
    );
}

/// No C enum type appears as a return type, a parameter or a struct field:
/// only as the definition of the names (`enum YACErr { ... }`) beside the
/// `typedef uint32_t` that the declarations use.
#[test]
fn no_enum_type_crosses_the_abi() {
    let header = String::from_utf8(generated_header()).expect("the header is UTF-8");
    for (n, line) in header.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        let Some(at) = code.find("enum YAC") else {
            continue;
        };
        let rest = code[at + "enum ".len()..].trim_end();
        let name_only = rest.chars().all(|c| c.is_ascii_alphanumeric());
        assert!(
            name_only && code[..at].trim().is_empty(),
            "line {}: a C enum type in a declaration: {line}",
            n + 1
        );
    }
}
