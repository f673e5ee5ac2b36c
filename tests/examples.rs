//! The C examples of the tree (`examples-c/print_tree.c`, `static_pool.c`,
//! `insert.c`, `stream_atoms.c`, `write.c`): each is built exactly as the C tests are
//! (module `cbuild`: strict C99 flags against the release `libyac.a`),
//! plainly, with ASan+UBSan and under valgrind when installed, and run
//! with its output checked against what the Rust side knows about the
//! input.

mod cbuild;
mod common;

use std::fs;
use std::path::{Path, PathBuf};

use cbuild::{Mode, Setup};
use common::native;
use common::vectors::walk;
use yac::items::{Arena, Item, Items, ItemsMut, NONE};
use yac::writer::Writer;
use yac::Atom;

fn example(name: &str) -> PathBuf {
    native::manifest_dir()
        .join("examples-c")
        .join(format!("{name}.c"))
}

/// Writes `data` to a file for the examples to read.
fn input_file(name: &str, data: &[u8]) -> PathBuf {
    let dir = native::c_out_dir().join("examples");
    fs::create_dir_all(&dir).expect("target/c-tests/examples can be created");
    let path = dir.join(name);
    fs::write(&path, data).expect("input file is writable");
    path
}

/// Runs `exe` on `file` (as an argument, then on stdin) and returns exit
/// code, stdout and stderr, checking both ways agree.
fn run_on(exe: &Path, file: &Path) -> (i32, String, String) {
    let data = fs::read(file).expect("input file");
    let by_arg = cbuild::run_with(exe, &[file.to_str().expect("UTF-8 path")], &[]);
    let by_stdin = cbuild::run_with(exe, &[], &data);
    let text = |v: &[u8]| String::from_utf8(v.to_vec()).expect("UTF-8 output");
    let (code, out, err) = (
        by_arg.status.code().expect("exited"),
        text(&by_arg.stdout),
        text(&by_arg.stderr),
    );
    assert_eq!(by_stdin.status.code(), Some(code), "{}", exe.display());
    assert_eq!(text(&by_stdin.stdout), out, "{}: stdin", exe.display());
    assert_eq!(text(&by_stdin.stderr), err, "{}: stdin", exe.display());
    (code, out, err)
}

/// A document of every printable kind, then a second item (TRUE).
fn sample() -> Vec<u8> {
    let mut buf = vec![0u8; 4096];
    let mut w = Writer::new(&mut buf).sequence();
    let hexlet = [
        0x0e, 0x87, 0x5e, 0x3f, 0xd3, 0x85, 0x49, 0xeb, 0x87, 0xb4, 0xbe, 0x42, 0xd6, 0x41, 0xc3,
        0x67,
    ];
    (|| -> Result<(), yac::Error> {
        w.map()?;
        w.str("a")?;
        w.list()?;
        w.uint(1)?;
        w.sint(-2)?;
        w.str("x\"y")?;
        w.eoc()?;
        w.str("b")?;
        w.bin(&[0x00, 0xFF])?;
        w.str("t")?;
        // One TAI second before 2017-01-01 00:00:00 UTC: the leap second.
        w.tai64(&[0x40, 0, 0, 0, 0x58, 0x68, 0x46, 0xA4])?;
        w.str("u")?;
        w.hexlet(&hexlet)?;
        w.str("bl")?;
        w.blob(1)?;
        w.bin(b"ab")?;
        w.bin(b"c")?;
        w.str("big")?;
        w.bigint(true, &[1, 0, 0, 0, 0, 0, 0, 0, 0])?;
        w.str("f16")?;
        w.float(1.5)?;
        w.str("mag")?;
        w.magic(b"cm/x\0\0\0\0\0\0\0\0")?;
        w.str("nil")?;
        w.nil()?;
        w.eoc()?;
        w.bool(true)
    })()
    .expect("sample encodes");
    let n = w.position();
    buf.truncate(n);
    buf
}

const SAMPLE_TREE: &str = r#"MAP(9) {
  "a": LIST(3) [
    1
    -2
    "x\"y"
  ]
  "b": BIN(2) 00FF
  "t": TAI64 2016-12-31T23:59:60Z
  "u": HEXLET 0e875e3f-d385-49eb-87b4-be42d641c367
  "bl": BLOB(chunk 2, 3 bytes) {
    BIN(2) 6162
    BIN(1) 63
  }
  "big": -INT -1-0x010000000000000000
  "f16": FLOAT16 1.5
  "mag": MAGIC "cm/x"
  "nil": NIL
}
TRUE
"#;

fn build(setup: &Setup, name: &str, mode: Mode) -> PathBuf {
    setup.compile(&example(name), mode)
}

#[test]
fn examples_build_run_and_print_what_they_should() {
    let setup = cbuild::setup();
    for mode in cbuild::modes() {
        print_tree(&setup, mode);
        static_pool(&setup, mode);
        insert(&setup, mode);
        stream_atoms(&setup, mode);
        write(&setup, mode);
    }
}

/// `examples-c/write.c`: the writer, the builder and the flushed stream
/// give the bytes the Rust writer gives for the same document.
fn write(setup: &Setup, mode: Mode) {
    let exe = build(setup, "write", mode);
    let mut buf = [0u8; 128];
    let mut w = Writer::new(&mut buf);
    (|| -> Result<(), yac::Error> {
        w.map()?;
        w.str("id")?;
        w.uint(7)?;
        w.str("name")?;
        w.str("sensor-7")?;
        w.str("tags")?;
        w.list()?;
        w.str("lab")?;
        w.str("east")?;
        w.list_close()?;
        w.str("when")?;
        w.tai64_utc(1_732_105_148, 0)?;
        w.str("ratio")?;
        w.float(0.5)?;
        w.str("limits")?;
        w.map()?;
        w.str("hi")?;
        w.sint(125)?;
        w.str("lo")?;
        w.sint(-40)?;
        w.map_close()?;
        w.map_close()
    })()
    .expect("document writes");
    let n = w.finish().expect("balanced");
    let want = &buf[..n];
    let path = native::c_out_dir().join("examples").join("written.yac");
    fs::create_dir_all(path.parent().expect("a parent")).expect("dir");
    let _ = fs::remove_file(&path);
    let out = cbuild::run_with(&exe, &[path.to_str().expect("UTF-8 path")], &[]);
    assert!(out.status.success(), "{out:?}");
    let hex: String = want.iter().map(|b| format!(" {b:02X}")).collect();
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!(
            "{n} bytes:{hex}\nbuilder: same bytes\nstreamed {n} bytes to {}\n{}{}",
            path.display(),
            write_mistakes(),
            build_mistakes()
        )
    );
    assert_eq!(fs::read(&path).expect("written file"), want);
}

/// What `write.c` prints for its mistakes, from the Rust writer given the
/// same calls.
fn write_mistakes() -> String {
    type Calls = fn(&mut Writer<'_>) -> Result<(), yac::Error>;
    let cases: [(&str, usize, Calls); 5] = [
        ("LIST closed as a MAP", 64, |w| {
            w.map()?;
            w.str("tags")?;
            w.list()?;
            w.str("lab")?;
            w.map_close()
        }),
        ("LIST left open", 64, |w| {
            w.map()?;
            w.str("tags")?;
            w.list()
        }),
        ("keys out of order", 4, |w| {
            w.map()?;
            w.str("name")?;
            w.nil()?;
            w.str("id")
        }),
        ("second root", 64, |w| {
            w.uint(1)?;
            w.uint(2)
        }),
        ("short MAGIC", 64, |w| w.magic(b"cm/x")),
    ];
    let mut text = String::new();
    for (name, cap, calls) in cases {
        let mut buf = vec![0u8; cap];
        let mut w = Writer::new(&mut buf);
        let _ = calls(&mut w);
        let err = w.finish().expect_err("a mistake");
        let f = w.failure().expect("a refusal");
        text += &format!(
            "{name}: {} (call {}, offset {}, depth {})\n",
            err.as_str(),
            f.call,
            f.offset,
            f.depth
        );
    }
    text
}

/// What `write.c` prints for the builder's mistakes, from the Rust tree
/// given the same build calls.
fn build_mistakes() -> String {
    type Calls = for<'p, 'a> fn(&mut ItemsMut<'p, 'a>, &mut Arena<'a>);
    let cases: [(&str, usize, Calls); 4] = [
        ("empty key", 8, |t, a| {
            let map = t.build_call(|t| t.add_map()).unwrap_or(NONE);
            let _ = t.build_call(|t| t.map_put_new(map, "", &Atom::Uint(1), a));
            let _ = t.build_call(|t| t.add_nil());
        }),
        ("put into a LIST", 8, |t, a| {
            let list = t.build_call(|t| t.add_list()).unwrap_or(NONE);
            let _ = t.build_call(|t| t.map_put_new(list, "id", &Atom::Uint(7), a));
        }),
        ("negative zero", 8, |t, a| {
            let map = t.build_call(|t| t.add_map()).unwrap_or(NONE);
            let _ = t.build_call(|t| {
                let v = t.add_f64(-0.0, a)?;
                t.map_put(map, "t", v)
            });
        }),
        ("pool full", 2, |t, a| {
            let map = t.build_call(|t| t.add_map()).unwrap_or(NONE);
            let _ = t.build_call(|t| t.map_put_new(map, "id", &Atom::Uint(7), a));
        }),
    ];
    let mut text = String::new();
    for (name, cap, calls) in cases {
        let mut pool = vec![Item::default(); cap];
        let mut mem = [0u8; 16];
        let mut arena = Arena::new(&mut mem);
        let mut items = Items::new(&mut pool);
        calls(&mut items, &mut arena);
        let f = items.build_failure().expect("a refusal");
        text += &format!("{name}: {} (call {})\n", f.error.as_str(), f.call);
    }
    text
}

fn print_tree(setup: &Setup, mode: Mode) {
    let exe = build(setup, "print_tree", mode);
    let doc = sample();
    let (code, out, err) = run_on(&exe, &input_file("tree.yac", &doc));
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    assert_eq!(out, SAMPLE_TREE);

    // Bad input: the reason and the offset of the offending atom.
    // Cut before the MAP's EOC (the last two bytes are EOC and TRUE): the
    // parser stops at the first missing atom.
    let cut = doc.len() - 2;
    let (code, out, err) = run_on(&exe, &input_file("tree-cut.yac", &doc[..cut]));
    assert_eq!((code, out.as_str()), (1, ""));
    assert_eq!(err, format!("error: not enough input at offset {cut}\n"));
    let unordered = [0x09, 0xC1, b'b', 0x01, 0xC1, b'a', 0x01, 0x00];
    let (code, _, err) = run_on(&exe, &input_file("tree-order.yac", &unordered));
    assert_eq!(code, 1);
    assert_eq!(
        err,
        "error: MAP keys out of order or duplicate at offset 4\n"
    );
    let (code, out, err) = run_on(&exe, &input_file("tree-tag.yac", &[0x03, 0x05]));
    assert_eq!((code, out.as_str()), (1, "TRUE\n"));
    assert_eq!(err, "error: unknown tag at offset 1\n");
}

fn static_pool(setup: &Setup, mode: Mode) {
    let exe = build(setup, "static_pool", mode);
    let out = cbuild::run_with(&exe, &[], &[]);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "parsed 59 bytes into 13 of 64 nodes\nname=sensor-7\nport=8080\nratio=0.5\n\
         enabled=true\ntags=2: lab east\nmissing=none\n"
    );
}

/// The unsigned integers of a LIST given in hex, parsed by the Rust tree.
fn uint_list(hex: &str) -> Vec<u64> {
    let bytes: Vec<u8> = (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).expect("hex"))
        .collect();
    let mut pool = vec![Item::default(); 32];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&bytes, &mut off).expect("output parses");
    assert_eq!(off, bytes.len(), "one whole item");
    let kids: Vec<u32> = items.children(root).collect();
    kids.iter()
        .map(|&k| items.get_uint(k).expect("unsigned"))
        .collect()
}

fn insert(setup: &Setup, mode: Mode) {
    let exe = build(setup, "insert", mode);
    let out = cbuild::run_with(&exe, &[], &[]);
    assert!(out.status.success(), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    let before = lines[0].strip_prefix("before: ").expect("before line");
    let after = lines[1].strip_prefix("after: ").expect("after line");
    assert_eq!(uint_list(before), [10, 20, 40, 50]);
    assert_eq!(uint_list(after), [10, 20, 30, 40, 50]);
}

/// The name stream_atoms prints for an atom.
fn atom_name(a: &Atom<'_>) -> &'static str {
    match a {
        Atom::Eoc => "EOC",
        Atom::Nil => "NIL",
        Atom::Bool(false) => "FALSE",
        Atom::Bool(true) => "TRUE",
        Atom::Hexlet(_) => "HEXLET",
        Atom::Uint(_) => "+INT",
        Atom::Nint(_) => "-INT",
        Atom::BigInt {
            negative: false, ..
        } => "+BIGINT",
        Atom::BigInt { negative: true, .. } => "-BIGINT",
        Atom::List => "LIST",
        Atom::Map => "MAP",
        Atom::Blob { .. } => "BLOB",
        Atom::Float(_) => "FLOAT",
        Atom::Tai64(_) => "TAI64",
        Atom::Magic(_) => "MAGIC",
        Atom::Bin(_) => "BIN",
        Atom::Str(_) => "STR",
    }
}

fn stream_atoms(setup: &Setup, mode: Mode) {
    let exe = build(setup, "stream_atoms", mode);
    // The sample, then a BIN far longer than the 7-byte reads and a STR.
    let mut doc = sample();
    let mut tail = vec![0u8; 2000];
    let mut w = Writer::new(&mut tail).sequence();
    w.bin(&[0xAB; 1000]).expect("BIN encodes");
    w.str("end").expect("STR encodes");
    let n = w.position();
    doc.extend_from_slice(&tail[..n]);
    let (atoms, bad) = walk(&doc);
    assert_eq!(bad, None);

    let (code, out, err) = run_on(&exe, &input_file("stream.yac", &doc));
    assert_eq!((code, err.as_str()), (0, ""), "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), atoms.len(), "one line per atom:\n{out}");
    for (line, (atom, range)) in lines.iter().zip(&atoms) {
        let want = format!("{} {}", range.start, atom_name(atom));
        assert!(
            line == &want || line.starts_with(&format!("{want} ")),
            "{line:?} for {atom:?} at {}",
            range.start
        );
    }
    assert!(out.contains(" +INT 1\n") && out.contains(" -INT -2\n"));
    assert!(out.contains(" BIN (1000) ABABABABABABABABABABABABABABABAB...\n"));
    assert!(out.ends_with(" STR \"end\"\n"));

    // Truncated inside the long BIN: its offset is reported.
    let bin_at = atoms[atoms.len() - 2].1.start;
    let (code, out, err) = run_on(&exe, &input_file("stream-cut.yac", &doc[..bin_at + 500]));
    assert_eq!(code, 1);
    assert_eq!(out.lines().count(), atoms.len() - 2);
    assert_eq!(err, format!("error: not enough input at offset {bin_at}\n"));
    let (code, _, err) = run_on(&exe, &input_file("stream-bad.yac", &[0x01, 0x05]));
    assert_eq!(code, 1);
    assert_eq!(err, "error: unknown tag at offset 1\n");
}
