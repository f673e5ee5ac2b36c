//! The ABI check of `dist/abi-check.sh` is not vacuous: `abidiff` with its
//! options, run on the committed baseline against copies of it changed as
//! a break would change it, fails on a moved struct field, a removed
//! function and a changed soname, and passes on the baseline itself and on
//! an added function. (The check proper, which builds libyac.so, is run by
//! .ci/run.)
//!
//! Needs abigail-tools (`embedded/setup.sh`); skipped with a message
//! without it unless `CI` is set.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::native;

/// `abidiff` as dist/abi-check.sh runs it; its exit status.
fn abidiff(old: &Path, new: &Path) -> i32 {
    let out = Command::new("abidiff")
        .arg("--no-added-syms")
        .arg(old)
        .arg(new)
        .output()
        .expect("abidiff runs");
    let code = out.status.code().expect("abidiff exits");
    assert_eq!(code & 3, 0, "abidiff error: {out:?}");
    code
}

/// `xml` without the function `name` (its ELF symbol and its declaration).
fn without_function(xml: &str, name: &str) -> String {
    let sym = format!("<elf-symbol name='{name}'");
    let decl = format!("<function-decl name='{name}'");
    let mut out = String::new();
    let mut skipping = false;
    for line in xml.lines() {
        let t = line.trim_start();
        if t.starts_with(&sym) {
            continue;
        }
        if t.starts_with(&decl) {
            skipping = true;
        }
        if !skipping {
            out.push_str(line);
            out.push('\n');
        }
        if skipping && t.starts_with("</function-decl>") {
            skipping = false;
        }
    }
    out
}

/// `xml` with the first data member at `from` bits in struct `name` moved
/// to `to` bits.
fn with_member_moved(xml: &str, name: &str, from: u32, to: u32) -> String {
    let at = xml
        .find(&format!("<class-decl name='{name}'"))
        .unwrap_or_else(|| panic!("struct {name} in the baseline"));
    let old = format!("layout-offset-in-bits='{from}'");
    let pos = at + xml[at..].find(&old).expect("the member");
    format!(
        "{}layout-offset-in-bits='{to}'{}",
        &xml[..pos],
        &xml[pos + old.len()..]
    )
}

#[test]
fn abidiff_flags_breaks_and_not_additions() {
    if !native::tools_present("abi", &["abidiff"]) {
        return;
    }
    let baseline = native::manifest_dir().join("dist/abi/libyac.abi");
    let xml = fs::read_to_string(&baseline).expect("the committed baseline");
    let dir = native::target_dir().join("abi-test");
    fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, text: &str| {
        let p = dir.join(name);
        fs::write(&p, text).unwrap();
        p
    };

    assert_eq!(
        abidiff(&baseline, &baseline),
        0,
        "the baseline against itself"
    );
    let fewer = write("fewer.abi", &without_function(&xml, "YACVersion"));
    assert_eq!(
        abidiff(&fewer, &baseline),
        0,
        "an added function is no break"
    );
    assert_ne!(
        abidiff(&baseline, &fewer),
        0,
        "a removed function is a break"
    );

    // struct YACAtom's `tag` after `v` (16 bytes) and `typ` (4).
    let moved = write("moved.abi", &with_member_moved(&xml, "YACAtom", 160, 168));
    assert_ne!(abidiff(&baseline, &moved), 0, "a moved field is a break");

    let soname = xml
        .split("soname='")
        .nth(1)
        .and_then(|s| s.split('\'').next())
        .expect("the baseline has a soname");
    let renamed = write(
        "renamed.abi",
        &xml.replacen(&format!("soname='{soname}'"), "soname='libyac.so.9'", 1),
    );
    assert_ne!(abidiff(&baseline, &renamed), 0, "a new soname is a break");
}
