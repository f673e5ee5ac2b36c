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
/// or the compiler's own builtins) provides; and the linker itself
/// (`_GLOBAL_OFFSET_TABLE_`, which i386 position-independent code uses).
fn freestanding_provides(name: &str) -> bool {
    name.starts_with("mem")
        || name.starts_with("str")
        || name == "bcmp"
        || name == "_GLOBAL_OFFSET_TABLE_"
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

// ------------------------------------------------- panic reachability

/// The arguments that make binutils read this target's ELF objects (the
/// objects embed LLVM bitcode; see `symbols`).
fn elf_target() -> Option<&'static str> {
    if cfg!(all(target_os = "linux", target_arch = "x86_64")) {
        Some("--target=elf64-x86-64")
    } else if cfg!(all(target_os = "linux", target_arch = "aarch64")) {
        Some("--target=elf64-littleaarch64")
    } else {
        None
    }
}

/// Extracts the crate's own object (the member defining `YACAtomDecode`)
/// from the archive at `lib` into `dir` and returns its path.
fn own_object(lib: &Path, dir: &Path) -> std::path::PathBuf {
    let syms = symbols(lib);
    let own: BTreeSet<&str> = syms
        .iter()
        .filter(|s| s.name == "YACAtomDecode" && s.kind == 'T')
        .map(|s| s.member.as_str())
        .collect();
    assert_eq!(own.len(), 1, "YACAtomDecode defined once: {own:?}");
    let member = *own.first().unwrap();
    std::fs::create_dir_all(dir).unwrap();
    native::run(
        Command::new("ar")
            .current_dir(dir)
            .arg("x")
            .arg(lib)
            .arg(member),
    );
    dir.join(member)
}

/// The relocation graph of an object compiled with one section per
/// function (rustc's default): which section refers to which symbol or
/// section, and where each symbol is defined.
struct Graph {
    /// Symbol name -> defining section.
    section_of: std::collections::BTreeMap<String, String>,
    /// Section -> the symbols defined in it.
    defines: std::collections::BTreeMap<String, Vec<String>>,
    /// Section -> the symbols and sections its relocations name.
    refs: std::collections::BTreeMap<String, BTreeSet<String>>,
    /// Global function symbols starting with "YAC".
    entry_points: Vec<String>,
}

fn objdump(obj: &Path, what: &str) -> String {
    let mut cmd = Command::new("objdump");
    cmd.args(elf_target()).arg(what).arg(obj);
    String::from_utf8_lossy(&native::run(&mut cmd).stdout).into_owned()
}

fn graph(obj: &Path) -> Graph {
    let mut g = Graph {
        section_of: Default::default(),
        defines: Default::default(),
        refs: Default::default(),
        entry_points: Vec::new(),
    };
    // "0000000000000000 g     F .text.YACAtomDecode\t00000000000001a2 YACAtomDecode"
    for line in objdump(obj, "-t").lines() {
        let Some((left, right)) = line.split_once('\t') else {
            continue;
        };
        let (Some(section), Some(name)) = (
            left.split_whitespace().last(),
            right.split_whitespace().nth(1),
        ) else {
            continue;
        };
        if section.starts_with('*') {
            continue; // *UND*, *ABS*, *COM*
        }
        let flags = left.get(17..24).unwrap_or("");
        if flags.starts_with('g') && flags.contains('F') && name.starts_with("YAC") {
            g.entry_points.push(name.to_string());
        }
        g.section_of.insert(name.to_string(), section.to_string());
        let defs = g.defines.entry(section.to_string()).or_default();
        defs.push(name.to_string());
    }
    // "RELOCATION RECORDS FOR [.text.X]:" then "OFFSET TYPE VALUE" rows,
    // VALUE being a symbol or section, plus or minus an addend.
    let mut cur: Option<String> = None;
    for line in objdump(obj, "-r").lines() {
        if let Some(sec) = line
            .strip_prefix("RELOCATION RECORDS FOR [")
            .and_then(|r| r.strip_suffix("]:"))
        {
            cur = Some(sec.to_string());
            continue;
        }
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (Some(sec), [_, _, value]) = (&cur, &fields[..]) else {
            continue;
        };
        if fields[0] == "OFFSET" {
            continue;
        }
        let target = ["+0x", "-0x"]
            .iter()
            .fold(*value, |v, sep| v.rsplit_once(sep).map_or(v, |(a, _)| a));
        g.refs
            .entry(sec.clone())
            .or_default()
            .insert(target.to_string());
    }
    g
}

impl Graph {
    /// Every symbol reachable from `start` (defined in a section reached
    /// through relocations, code and data alike, or named by one), and the
    /// number of sections reached.
    fn reach(&self, start: &str) -> (BTreeSet<String>, usize) {
        let first = self.section_of.get(start).expect("start symbol defined");
        let mut seen = BTreeSet::from([first.clone()]);
        let mut todo = vec![first.clone()];
        let mut names = BTreeSet::new();
        while let Some(sec) = todo.pop() {
            names.extend(self.defines.get(&sec).into_iter().flatten().cloned());
            for r in self.refs.get(&sec).into_iter().flatten() {
                names.insert(r.clone());
                let next = if r.starts_with('.') {
                    Some(r)
                } else {
                    self.section_of.get(r)
                };
                if let Some(next) = next {
                    if seen.insert(next.clone()) {
                        todo.push(next.clone());
                    }
                }
            }
        }
        (names, seen.len())
    }
}

impl Graph {
    /// The section a relocation value names (itself, or its symbol's).
    fn section(&self, value: &str) -> Option<String> {
        if value.starts_with('.') {
            Some(value.to_string())
        } else {
            self.section_of.get(value).cloned()
        }
    }

    /// The functions (text sections) function `f` may call or take the
    /// address of: directly, or through data it refers to (vtables,
    /// function pointer tables). Data referring back to `f` itself (its
    /// jump tables) is no call.
    fn calls(&self, f: &str) -> BTreeSet<String> {
        let mut out = BTreeSet::new();
        let mut data_seen = BTreeSet::new();
        let mut todo: Vec<(String, bool)> = vec![(f.to_string(), true)];
        while let Some((sec, is_f)) = todo.pop() {
            for r in self.refs.get(&sec).into_iter().flatten() {
                let Some(t) = self.section(r) else { continue };
                if t.starts_with(".text") {
                    if is_f || t != f {
                        out.insert(t);
                    }
                } else if data_seen.insert(t.clone()) {
                    todo.push((t, false));
                }
            }
        }
        out
    }

    /// The cycles of the call graph among `funcs` (functions that can reach
    /// themselves), each given by one of its members.
    fn recursive(&self, funcs: &BTreeSet<String>) -> Vec<String> {
        let calls: std::collections::BTreeMap<&String, BTreeSet<String>> =
            funcs.iter().map(|f| (f, self.calls(f))).collect();
        funcs
            .iter()
            .filter(|&f| {
                let mut seen = BTreeSet::new();
                let mut todo: Vec<&String> = calls[f].iter().collect();
                while let Some(g) = todo.pop() {
                    if g == f {
                        return true;
                    }
                    if seen.insert(g) {
                        todo.extend(calls.get(g).into_iter().flatten());
                    }
                }
                false
            })
            .cloned()
            .collect()
    }

    /// Every function reachable by calls from the exported entry points.
    fn reachable_functions(&self) -> BTreeSet<String> {
        let mut seen = BTreeSet::new();
        let mut todo: Vec<String> = self
            .entry_points
            .iter()
            .filter_map(|e| self.section_of.get(e).cloned())
            .collect();
        while let Some(f) = todo.pop() {
            if seen.insert(f.clone()) {
                todo.extend(self.calls(&f));
            }
        }
        seen
    }
}

/// Names of panic machinery: core::panicking (panic, panic_fmt,
/// panic_bounds_check, panic_const_*...), the slice/str index failures,
/// unwrap/expect/assert failures, the panic handler and unwinding.
fn panic_related(name: &str) -> bool {
    ["panic", "unwind", "_fail", "assert_failed", "begin_unwind"]
        .iter()
        .any(|p| name.to_ascii_lowercase().contains(p))
}

/// The C entry points the brief names must reach no panic (every other
/// exported function is checked too): the relocation graph of the release
/// object (code, jump tables and vtables alike) is walked from each, and
/// the panic-related symbols reached are listed on failure.
fn check_entry_points(lib: &Path, dir: &Path) -> Graph {
    let obj = own_object(lib, dir);
    let g = graph(&obj);
    for must in [
        "YACAtomDecode",
        "YACItemsParse",
        "YACItemsEncode",
        "YACItemsNodesNeeded",
        "YACAtomUintEncode",
        "YACAtomStrEncode",
        "YACAtomFloatEncode",
    ] {
        assert!(g.entry_points.iter().any(|e| e == must), "{must} exported");
    }
    let encoders = g
        .entry_points
        .iter()
        .filter(|e| e.starts_with("YACAtom") && e.ends_with("Encode"))
        .count();
    assert!(encoders >= 17, "the YACAtom*Encode family: {encoders}");
    let mut bad = Vec::new();
    for e in &g.entry_points {
        let (names, _) = g.reach(e);
        let panics: Vec<&String> = names.iter().filter(|n| panic_related(n)).collect();
        if !panics.is_empty() {
            bad.push(format!("{e} -> {panics:?}"));
        }
    }
    // The parser's graph is not trivial (the walk follows its calls).
    assert!(g.reach("YACItemsParse").1 > 3, "relocations were read");
    assert!(bad.is_empty(), "panics reachable:\n{}", bad.join("\n"));
    g
}

#[test]
fn c_entry_points_reach_no_panic_and_nothing_recurses() {
    if elf_target().is_none() {
        eprintln!("not an ELF target this test knows: skipped");
        return;
    }
    // The library as shipped (std feature), whose object also holds std's
    // panic machinery: the check must find it when it looks from there.
    let lib = native::build_release_lib(&native::target_dir(), &[]);
    let g = check_entry_points(&lib, &native::target_dir().join("panic-check/std"));
    let panic_fn = g
        .section_of
        .keys()
        .find(|n| n.contains("9panicking5panic") && !n.starts_with('.'))
        .expect("std's object defines core::panicking::panic");
    let (from_panic, _) = g.reach(panic_fn);
    assert!(
        from_panic.iter().any(|n| n.contains("panic_fmt")),
        "the graph leads from panic to panic_fmt"
    );
    // No recursion: no function reachable from an entry point can call
    // itself, directly or through others (so stack use cannot depend on the
    // input). The control: std's formatting machinery, also in this
    // object, is recursive through its vtables, and is found so.
    let funcs = g.reachable_functions();
    assert!(
        funcs.len() > 10,
        "call graph read: {} functions",
        funcs.len()
    );
    let rec = g.recursive(&funcs);
    assert!(rec.is_empty(), "recursive functions in libyac: {rec:?}");
    let all: BTreeSet<String> = g
        .defines
        .keys()
        .filter(|s| s.starts_with(".text"))
        .cloned()
        .collect();
    assert!(!g.recursive(&all).is_empty(), "std's recursion is found");
    // The freestanding library.
    let dir = native::target_dir().join("freestanding");
    let lib = native::build_release_lib(&dir, &["--no-default-features"]);
    let g = check_entry_points(&lib, &native::target_dir().join("panic-check/freestanding"));
    let rec = g.recursive(&g.reachable_functions());
    assert!(
        rec.is_empty(),
        "recursive functions (freestanding): {rec:?}"
    );
}
