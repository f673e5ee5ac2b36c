//! The bundled example: `examples-c/sample.yac` is exactly the annotated
//! `examples-c/sample.hex` and is valid YAC, and `examples-c/print_atoms.c`
//! builds with the strict C flags and prints every atom of it at its offset
//! and depth (the job `./run-example.sh` runs), plainly, sanitized and
//! under valgrind when installed (see `cbuild::modes`).

mod cbuild;
mod common;

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use common::native::{self, SANITIZE};
use common::vectors::{bytes, check_containers, walk};
use yac::Atom;

fn example_dir() -> PathBuf {
    native::manifest_dir().join("examples-c")
}

fn sample() -> Vec<u8> {
    fs::read(example_dir().join("sample.yac")).expect("examples-c/sample.yac exists")
}

#[test]
fn sample_is_its_annotated_hex_and_valid() {
    let listing = fs::read_to_string(example_dir().join("sample.hex")).expect("sample.hex");
    let hex: String = listing
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join(" ");
    let sample = sample();
    assert_eq!(sample, bytes(&hex), "sample.yac differs from sample.hex");
    let (atoms, err) = walk(&sample);
    assert_eq!(err, None);
    assert_eq!(check_containers(&atoms, sample.len()), Ok(()));
    // It exercises every atom type but the rare ones.
    for t in [
        "Magic", "Map", "List", "Str", "Bin", "Blob", "Hexlet", "Uint", "Nint", "BigInt", "Float",
        "Tai64", "Nil", "Bool", "Eoc",
    ] {
        assert!(
            atoms.iter().any(|(a, _)| format!("{a:?}").starts_with(t)),
            "sample has no {t}"
        );
    }
}

/// Builds print_atoms (with `extra` flags) against the release library.
fn build_print_atoms(extra: &[&str], name: &str) -> PathBuf {
    let lib = native::build_release_lib(&native::target_dir(), &[]);
    let exe = native::c_out_dir().join(name);
    native::build_c_program(&example_dir().join("print_atoms.c"), &[], &lib, extra, &exe)
}

fn print_atoms(exe: &Path, file: &Path) -> Output {
    cbuild::command(exe)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("{}: {e}", exe.display()))
}

#[test]
fn print_atoms_prints_every_atom_at_its_offset_and_depth() {
    let sample = sample();
    let (atoms, _) = walk(&sample);
    let mut builds = vec![(&[][..], "print_atoms"), (SANITIZE, "print_atoms-san")];
    if cbuild::modes().contains(&cbuild::Mode::Valgrind) {
        builds.push((&[][..], "print_atoms-vg"));
    }
    for (extra, name) in builds {
        let exe = build_print_atoms(extra, name);
        let out = print_atoms(&exe, &example_dir().join("sample.yac"));
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8(out.stdout).expect("UTF-8 output");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), atoms.len(), "one line per atom:\n{text}");
        // Offsets, and indentation by container depth (BLOB chunks one
        // deeper than their BLOB).
        let mut depth = 0usize;
        let mut blob_chunk: Option<u64> = None;
        for ((atom, range), line) in atoms.iter().zip(&lines) {
            let (offset, rest) = line.split_once(' ').expect("offset, then the atom");
            assert_eq!(usize::from_str_radix(offset, 16), Ok(range.start), "{line}");
            if *atom == Atom::Eoc {
                depth -= 1;
            }
            let indent = depth + usize::from(blob_chunk.is_some());
            let body = rest.trim_start_matches(' ');
            assert_eq!(rest.len() - body.len(), 2 * indent, "{line}");
            match (atom, blob_chunk) {
                (Atom::Bin(b), Some(m)) if (b.len() as u64) <= m => blob_chunk = None,
                (_, Some(_)) => {}
                (Atom::List | Atom::Map, None) => depth += 1,
                (
                    Atom::Blob {
                        chunk_len_minus_one,
                    },
                    None,
                ) => blob_chunk = Some(*chunk_len_minus_one),
                _ => {}
            }
        }
        for want in [
            "00000000 MAGIC \"cm/pub\"",
            "  STR \"привет мир\"",
            "  +INT 1000000000000",
            "  -INT -65536",
            "  FLOAT16 3800 = 0.5",
            "  HEXLET 0E875E3F-D385-49EB-87B4-BE42D641C367",
            "  TAI64 1970 TAI + 0 s",
            "    BIN 1 bytes 35",
        ] {
            assert!(text.contains(want), "no {want:?} in:\n{text}");
        }

        // A truncated file: the decoder's reason, and exit status 1.
        let cut = native::c_out_dir().join(format!("{name}-truncated.yac"));
        fs::write(&cut, &sample[..sample.len() / 2]).expect("writable");
        let out = print_atoms(&exe, &cut);
        assert_eq!(out.status.code(), Some(1));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not enough input"), "{err}");
    }
}

/// The README's C quick-start compiles with the strict flags and prints the
/// one unsigned integer of its input.
#[test]
fn readme_quick_start_runs() {
    let readme = fs::read_to_string(native::manifest_dir().join("README.md")).expect("README");
    let code = readme
        .split("```c\n")
        .nth(1)
        .and_then(|rest| rest.split("```").next())
        .expect("README has a ```c block");
    let dir = native::c_out_dir();
    let src = dir.join("readme_quick_start.c");
    fs::write(&src, code).expect("writable");
    let lib = native::build_release_lib(&native::target_dir(), &[]);
    let mut names = vec!["readme_quick_start"];
    if cbuild::modes().contains(&cbuild::Mode::Valgrind) {
        names.push("readme_quick_start-vg");
    }
    for name in names {
        let exe = native::build_c_program(&src, &[], &lib, &[], &dir.join(name));
        let out = native::run(&mut cbuild::command(&exe));
        assert_eq!(String::from_utf8_lossy(&out.stdout), "uint 123\n");
    }
}

/// The C guide's error table lists every `YACErr` value of the header
/// under its number.
#[test]
fn c_guide_lists_every_error_code() {
    let root = native::manifest_dir();
    let readme = fs::read_to_string(root.join("docs/c-guide.md")).expect("C guide");
    let header = fs::read_to_string(root.join("include/yac.h")).expect("yac.h");
    let codes: Vec<(&str, &str)> = header
        .lines()
        .filter_map(|l| l.trim().strip_suffix(','))
        .filter_map(|l| l.split_once(" = "))
        .filter(|(name, _)| name.starts_with("YACErr"))
        .collect();
    assert!(codes.len() > 20, "found the enum in the header: {codes:?}");
    for (name, value) in codes {
        let row = format!("| {value} | `{name}` |");
        assert!(readme.contains(&row), "docs/c-guide.md lacks {row:?}");
    }
}
