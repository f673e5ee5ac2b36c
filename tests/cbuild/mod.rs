//! Building C programs against the real library, shared by the C test
//! harness (`tests/c_api.rs`: `c-tests/*.c`) and the examples test
//! (`tests/examples.rs`: `examples-c/*.c`): the release `libyac.a`, the
//! generated vectors header, and one way to compile and link a C file
//! (strict C99 flags, `include/yac.h`), plainly or with sanitizers.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common::native::{self, C_FLAGS, SANITIZE, SYSTEM_LIBS};
use crate::common::vectors::{bytes, walk, INVALID_ATOM, INVALID_STREAM, VALID};
use yac::{Atom, Error};
use yac_capi::ffi::{YACErr, YACItemType};

/// What C programs are built with: the library and the directory of
/// generated headers.
pub struct Setup {
    /// `<target>/release/libyac.a`.
    pub lib: PathBuf,
    /// Holds `yac_vectors.h`.
    pub gen: PathBuf,
    /// Where executables go.
    pub out: PathBuf,
}

/// Builds the release library and writes the generated headers.
pub fn setup() -> Setup {
    let lib = native::build_release_lib(&native::target_dir(), &[]);
    let out = native::c_out_dir();
    let gen = out.join("gen");
    fs::create_dir_all(&gen).expect("target/c-tests/gen can be created");
    generate_vectors(&gen);
    Setup { lib, gen, out }
}

/// How to build one program. Every mode but `ShortEnums` builds with
/// `-fno-short-enums` (int-sized enums, the default of the hosted ABIs).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mode {
    /// Strict flags only.
    Plain,
    /// Strict flags and `-fshort-enums` (the default of arm-none-eabi):
    /// the header's layout must not depend on it.
    ShortEnums,
    /// Strict flags plus AddressSanitizer and UndefinedBehaviorSanitizer.
    Sanitized,
    /// The plain build, run under valgrind (see [`command`]).
    Valgrind,
}

/// Exit code valgrind gives on any error or leak: not 1, which the
/// examples use for bad input.
pub const VALGRIND_ERROR_EXIT: i32 = 99;

/// Depth of the nested-LIST C test under valgrind (`YAC_TEST_DEPTH`): a
/// million-node tree takes minutes there; the plain and sanitized runs
/// keep the full million.
pub const VALGRIND_TEST_DEPTH: &str = "20000";

/// The modes to run programs in: plain and sanitized always, valgrind when
/// installed. When `CI` is set valgrind is required (`.ci/run` installs it).
/// Not for a cross target (`--target i686-unknown-linux-gnu`): 32-bit
/// valgrind needs the i386 libc's debug symbols (libc6-dbg:i386, a second
/// architecture in dpkg); the host run covers it.
pub fn modes() -> Vec<Mode> {
    let mut modes = vec![Mode::Plain, Mode::Sanitized];
    if native::cross() {
        return modes;
    }
    let found = Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        modes.push(Mode::Valgrind);
    } else if std::env::var_os("CI").is_some() {
        panic!("valgrind is required when CI is set");
    } else {
        eprintln!("valgrind not found: skipping the valgrind pass");
    }
    modes
}

/// The command that runs `exe`: directly, or under valgrind (memcheck,
/// every leak kind an error) for executables built in [`Mode::Valgrind`].
pub fn command(exe: &Path) -> Command {
    let vg = exe
        .file_name()
        .is_some_and(|n| n.to_string_lossy().ends_with("-vg"));
    if !vg {
        return Command::new(exe);
    }
    let mut cmd = Command::new("valgrind");
    cmd.args([
        "-q",
        &format!("--error-exitcode={VALGRIND_ERROR_EXIT}"),
        "--leak-check=full",
        "--show-leak-kinds=all",
        "--errors-for-leak-kinds=all",
    ])
    .arg(exe)
    .env("YAC_TEST_DEPTH", VALGRIND_TEST_DEPTH);
    cmd
}

impl Setup {
    /// Compiles and links `src` (plus `extra` flags) into an executable
    /// named after it (with `-san` when sanitized) and returns its path;
    /// panics with the compiler's output on failure.
    pub fn compile(&self, src: &Path, mode: Mode) -> PathBuf {
        let stem = src.file_stem().expect("file name").to_string_lossy();
        let (exe, extra) = match mode {
            Mode::Plain => (self.out.join(&*stem), &[][..]),
            Mode::ShortEnums => (self.out.join(format!("{stem}-short")), &[][..]),
            Mode::Sanitized => (self.out.join(format!("{stem}-san")), SANITIZE),
            Mode::Valgrind => (self.out.join(format!("{stem}-vg")), &[][..]),
        };
        let enums = if mode == Mode::ShortEnums {
            "-fshort-enums"
        } else {
            "-fno-short-enums"
        };
        let include = native::manifest_dir().join("include");
        let mut cc = native::compiler(false);
        cc.args(C_FLAGS)
            .arg(enums)
            .args(extra)
            .arg("-I")
            .arg(&include)
            .arg("-I")
            .arg(&self.gen)
            .arg(src)
            .arg(&self.lib)
            .args(SYSTEM_LIBS)
            .arg("-o")
            .arg(&exe);
        native::run(&mut cc);
        exe
    }
}

/// The `*.c` files of a directory of the crate, sorted.
pub fn sources(dir: &str) -> Vec<PathBuf> {
    let mut sources: Vec<PathBuf> = fs::read_dir(native::manifest_dir().join(dir))
        .unwrap_or_else(|e| panic!("{dir}/ is readable: {e}"))
        .map(|e| e.expect("readable dir entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    assert!(!sources.is_empty(), "no C files in {dir}/");
    sources
}

/// Runs `exe` with `args` and `stdin` as input; returns its output
/// whatever its exit status.
pub fn run_with(exe: &Path, args: &[&str], stdin: &[u8]) -> Output {
    use std::io::Write as _;
    use std::process::Stdio;
    let mut child = command(exe)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {}: {e}", exe.display()));
    let mut input = child.stdin.take().expect("piped stdin");
    // A program may exit without reading all of stdin: ignore EPIPE.
    let _ = input.write_all(stdin);
    drop(input);
    child
        .wait_with_output()
        .unwrap_or_else(|e| panic!("{} did not finish: {e}", exe.display()))
}

/// A C string literal for `s`, with everything but plain ASCII escaped.
pub fn c_string(s: &str) -> String {
    let mut out = String::from("\"");
    for b in s.bytes() {
        match b {
            b'"' | b'\\' | b'?' => write!(out, "\\{:03o}", b).unwrap(),
            0x20..=0x7E => out.push(b as char),
            _ => write!(out, "\\{:03o}", b).unwrap(),
        }
    }
    out.push('"');
    out
}

/// A `static const unsigned char` array named `name` (NULL for no bytes:
/// C99 has no empty arrays); returns the expression to use for it.
pub fn c_bytes(out: &mut String, name: &str, data: &[u8]) -> String {
    if data.is_empty() {
        return "NULL".into();
    }
    write!(
        out,
        "static const unsigned char {name}[{}] = {{",
        data.len()
    )
    .unwrap();
    for (i, b) in data.iter().enumerate() {
        if i % 24 == 0 {
            out.push_str("\n  ");
        }
        write!(out, "0x{b:02X},").unwrap();
    }
    out.push_str("\n};\n");
    name.into()
}

/// What a C test expects of one atom: its type, length, and value, as
/// `{typ, used, kind, uint, sint, bytes_len}`; `kind` says which value
/// field holds (0 none, 1 uint, 2 sint, 3 bytes: the last `bytes_len`
/// bytes of the atom, compared by address and content).
pub fn c_atom(atom: &Atom<'_>, used: usize) -> String {
    let typ = format!("{:?}", YACItemType::from(atom.item_type()));
    let (kind, uint, sint, len) = match *atom {
        Atom::Uint(u) => (1, u, 0, 0),
        Atom::Blob {
            chunk_len_minus_one,
        } => (1, chunk_len_minus_one, 0, 0),
        Atom::Nint(i) => (2, 0, i, 0),
        Atom::Hexlet(b) => (3, 0, 0, b.len()),
        Atom::Magic(b) => (3, 0, 0, b.len()),
        Atom::BigInt { magnitude: b, .. } | Atom::Float(b) | Atom::Tai64(b) | Atom::Bin(b) => {
            (3, 0, 0, b.len())
        }
        Atom::Str(s) => (3, 0, 0, s.len()),
        Atom::Eoc | Atom::Nil | Atom::Bool(_) | Atom::List | Atom::Map => (0, 0, 0, 0),
    };
    // INT64_MIN has no literal form in C.
    let sint = match sint {
        i64::MIN => "INT64_MIN".to_string(),
        s => format!("INT64_C({s})"),
    };
    format!("{{{typ}, {used}, {kind}, UINT64_C({uint}), {sint}, {len}}}")
}

/// The C name of the `YACErr` for a core error.
pub fn c_err(e: Error) -> String {
    format!("{:?}", YACErr::from(e))
}

/// Writes `yac_vectors.h` with every valid and atom-level invalid vector.
pub fn generate_vectors(dir: &Path) -> PathBuf {
    generate_vectors_for(dir, usize::MAX, usize::BITS)
}

/// Writes `yac_vectors.h` into `dir` for a target whose `size_t` has
/// `size_bits` bits, with every vector of at most `max_len` bytes (a
/// microcontroller's flash and RAM cannot hold the 64 KiB ones). Where the
/// host decoder asks for more bytes than such a `size_t` holds, the
/// target's decoder says `LenTooBig`.
pub fn generate_vectors_for(dir: &Path, max_len: usize, size_bits: u32) -> PathBuf {
    let mut out = String::from(
        "/* Generated by tests/c_api.rs from testkit/src/vectors.rs. */\n\
         #include <stddef.h>\n#include <stdint.h>\n#include \"yac.h\"\n\n\
         struct ExpectAtom {\n  YACItemType typ;\n  size_t used;\n  int kind;\n  \
         uint64_t uint;\n  int64_t sint;\n  size_t bytes_len;\n};\n\
         struct ValidVector {\n  const char *name;\n  const unsigned char *buf;\n  \
         size_t len;\n  size_t natoms;\n  const struct ExpectAtom *atoms;\n};\n\
         struct InvalidVector {\n  const char *name;\n  const unsigned char *buf;\n  \
         size_t len;\n  YACErr err;\n  size_t got;\n};\n\
         struct StreamVector {\n  const char *name;\n  const unsigned char *buf;\n  \
         size_t len;\n  YACErr err;\n  size_t at;\n};\n\n",
    );
    let mut valid_rows = Vec::new();
    for (i, v) in VALID.iter().enumerate() {
        let input = bytes(v.hex);
        if input.len() > max_len {
            continue;
        }
        let (atoms, err) = walk(&input);
        assert_eq!(err, None, "{}", v.name);
        let buf = c_bytes(&mut out, &format!("valid{i}"), &input);
        let rows: Vec<String> = atoms.iter().map(|(a, r)| c_atom(a, r.len())).collect();
        writeln!(
            out,
            "static const struct ExpectAtom valid{i}_atoms[{}] = {{\n  {}\n}};",
            rows.len(),
            rows.join(",\n  ")
        )
        .unwrap();
        valid_rows.push(format!(
            "{{{}, {buf}, {}, {}, valid{i}_atoms}}",
            c_string(v.name),
            input.len(),
            rows.len()
        ));
    }
    writeln!(
        out,
        "\nstatic const struct ValidVector valid_vectors[{}] = {{\n  {}\n}};\n",
        valid_rows.len(),
        valid_rows.join(",\n  ")
    )
    .unwrap();
    let mut invalid_rows = Vec::new();
    for (i, v) in INVALID_ATOM.iter().enumerate() {
        let input = bytes(v.hex);
        if input.len() > max_len {
            continue;
        }
        let buf = c_bytes(&mut out, &format!("invalid{i}"), &input);
        let err = match v.err {
            Error::NotEnough(n) if (n as u128) >> size_bits != 0 => Error::LenTooBig,
            e => e,
        };
        let got = match err {
            Error::NotEnough(n) => n,
            _ => 0,
        };
        invalid_rows.push(format!(
            "{{{}, {buf}, {}, {}, {got}}}",
            c_string(v.name),
            input.len(),
            c_err(err)
        ));
    }
    writeln!(
        out,
        "static const struct InvalidVector invalid_vectors[{}] = {{\n  {}\n}};",
        invalid_rows.len(),
        invalid_rows.join(",\n  ")
    )
    .unwrap();
    let mut stream_rows = Vec::new();
    for (i, v) in INVALID_STREAM.iter().enumerate() {
        let input = bytes(v.hex);
        if input.len() > max_len {
            continue;
        }
        let buf = c_bytes(&mut out, &format!("stream{i}"), &input);
        stream_rows.push(format!(
            "{{{}, {buf}, {}, {}, {}}}",
            c_string(v.name),
            input.len(),
            c_err(v.err),
            v.at
        ));
    }
    writeln!(
        out,
        "static const struct StreamVector stream_vectors[{}] = {{\n  {}\n}};",
        stream_rows.len(),
        stream_rows.join(",\n  ")
    )
    .unwrap();
    let path = dir.join("yac_vectors.h");
    fs::write(&path, out).expect("generated header is writable");
    path
}
