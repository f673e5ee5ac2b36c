//! The freestanding build (`--no-default-features`): `libyac.a` must link
//! with nothing but what a freestanding C toolchain provides (mem*, str*,
//! bcmp), must carry no std, unwinding or personality routine, and the
//! crate's own code must not reach a panic.

mod common;

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use common::native;

/// One symbol of an archive member, from `nm -P`.
struct Symbol {
    member: String,
    name: String,
    kind: char,
}

/// Every symbol of every member of the archive at `lib`.
fn symbols(lib: &Path) -> Vec<Symbol> {
    let mut nm = Command::new("nm");
    nm.args(["-A", "-P"]);
    // The objects embed LLVM bitcode, which makes GNU nm try (and fail with)
    // its LLVM plugin and then list nothing for them; naming the plain ELF
    // target makes it read the ELF symbol tables.
    if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        nm.arg("--target=elf64-x86-64");
    } else if cfg!(all(target_os = "linux", target_arch = "aarch64")) {
        nm.arg("--target=elf64-littleaarch64");
    }
    let out = native::run(nm.arg(lib));
    // nm may warn on stderr (LLVM plugin); only stdout matters.
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            // "lib.a[member.o]: name T value size"
            let (owner, rest) = line.split_once(": ")?;
            let member = owner.split_once('[')?.1.trim_end_matches(']');
            let mut fields = rest.split_whitespace();
            let name = fields.next()?;
            let kind = fields.next()?.chars().next()?;
            Some(Symbol {
                member: member.to_string(),
                name: name.to_string(),
                kind,
            })
        })
        .collect()
}

/// What a freestanding C toolchain (libgcc/compiler-rt and a minimal libc
/// or the compiler's own builtins) provides.
fn freestanding_provides(name: &str) -> bool {
    name.starts_with("mem") || name.starts_with("str") || name == "bcmp"
}

/// Symbols that would mean std, unwinding or panic machinery got in.
fn forbidden(name: &str) -> bool {
    name.contains("rust_eh_personality")
        || name.contains("_Unwind_")
        || name.starts_with("_ZN3std")
        || name.contains("_3std")
}

/// The members a C linker takes from the archive for a program that calls
/// libyac: the crate's own object, then every member that defines a symbol
/// a member already taken needs, until nothing changes. (Members nobody
/// needs, such as compiler_builtins' libm routines, are never linked.)
fn linked_members<'a>(syms: &'a [Symbol], own: &'a str) -> BTreeSet<&'a str> {
    let mut taken = BTreeSet::from([own]);
    loop {
        let needed: BTreeSet<&str> = syms
            .iter()
            .filter(|s| taken.contains(s.member.as_str()) && s.kind == 'U')
            .map(|s| s.name.as_str())
            .collect();
        let more: BTreeSet<&str> = syms
            .iter()
            .filter(|s| is_definition(s.kind) && needed.contains(s.name.as_str()))
            .map(|s| s.member.as_str())
            .filter(|m| !taken.contains(m))
            .collect();
        if more.is_empty() {
            return taken;
        }
        taken.extend(more);
    }
}

/// Whether an nm symbol type defines the symbol (globally or locally).
fn is_definition(kind: char) -> bool {
    !matches!(kind, 'U' | 'w' | 'v')
}

#[test]
fn freestanding_archive_needs_only_freestanding_symbols() {
    let dir = native::target_dir().join("freestanding");
    let lib = native::build_release_lib(&dir, &["--no-default-features"]);
    let syms = symbols(&lib);

    // The crate's own object, found by what it must define; if nm could not
    // read it, everything below would pass vacuously.
    let own: Vec<&str> = syms
        .iter()
        .filter(|s| s.name == "YACAtomDecode" && s.kind == 'T')
        .map(|s| s.member.as_str())
        .collect();
    let [own] = own[..] else {
        panic!("YACAtomDecode must be defined exactly once: {own:?}");
    };
    let of_own = |s: &&Symbol| s.member == own;
    assert!(
        syms.iter()
            .filter(of_own)
            .any(|s| s.name == "YACErr2Str" && s.kind == 'T'),
        "nm lists the crate's own symbols"
    );

    let linked = linked_members(&syms, own);
    let in_link: Vec<&Symbol> = syms
        .iter()
        .filter(|s| linked.contains(s.member.as_str()))
        .collect();
    let defined: BTreeSet<&str> = in_link
        .iter()
        .filter(|s| is_definition(s.kind))
        .map(|s| s.name.as_str())
        .collect();
    let missing: BTreeSet<&str> = in_link
        .iter()
        .filter(|s| s.kind == 'U')
        .map(|s| s.name.as_str())
        .filter(|n| !defined.contains(n) && !freestanding_provides(n))
        .collect();
    assert!(
        missing.is_empty(),
        "linking libyac.a needs symbols a freestanding toolchain lacks: {missing:?} \
         (members linked: {linked:?})"
    );

    let bad: BTreeSet<&str> = in_link
        .iter()
        .map(|s| s.name.as_str())
        .filter(|n| forbidden(n))
        .collect();
    assert!(
        bad.is_empty(),
        "std/unwind symbols linked from libyac.a: {bad:?}"
    );

    // No panic reachable from the crate's code: its object neither refers to
    // nor contains a core::panicking routine (a panicking index, unwrap,
    // overflow check...).
    let panics: BTreeSet<&str> = syms
        .iter()
        .filter(of_own)
        .map(|s| s.name.as_str())
        .filter(|n| n.contains("9panicking") || n.contains("rust_begin_unwind"))
        .collect();
    assert!(panics.is_empty(), "libyac's code can panic: {panics:?}");
}
