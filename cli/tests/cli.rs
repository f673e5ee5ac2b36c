//! The `yac` command-line tool, run as a user runs it: valid and invalid
//! inputs (FORMAT.md's vectors), exit codes, stdin, JSON mapping rules, round
//! trips of generated documents, the reference documents of ../shared/data.

use yac_testkit as common;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use common::vectors::{bytes, INVALID_ATOM, INVALID_STREAM, VALID};
use yac::{Atom, Error};

const YAC: &str = env!("CARGO_BIN_EXE_yac");

/// Runs `yac ARGS` with `stdin` as its standard input.
fn yac(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(YAC)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the yac binary runs");
    let mut input = child.stdin.take().unwrap();
    let data = stdin.to_vec();
    // Written from a thread: a large input must not deadlock against a
    // full stdout pipe.
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    out
}

/// `yac CMD -` on `input`; asserts success and no stderr, returns stdout.
fn ok(cmd: &str, input: &[u8]) -> Vec<u8> {
    let out = yac(&[cmd, "-"], input);
    assert!(
        out.status.success() && out.stderr.is_empty(),
        "yac {cmd} failed ({}): {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn ok_text(cmd: &str, input: &[u8]) -> String {
    String::from_utf8(ok(cmd, input)).unwrap()
}

/// `yac CMD -` on `input` must fail with `code`; returns stderr.
fn fails(cmd: &str, input: &[u8], code: i32) -> String {
    let out = yac(&[cmd, "-"], input);
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(code), "yac {cmd}: {err}");
    assert!(err.starts_with("yac: "), "{err}");
    err
}

fn put(out: &mut Vec<u8>, a: &Atom<'_>) {
    let n = a.encoded_len().unwrap();
    let at = out.len();
    out.resize(at + n, 0);
    a.encode(&mut out[at..]).unwrap();
}

fn temp_file(name: &str, data: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("cli-test");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, data).unwrap();
    p
}

#[test]
fn check_accepts_every_valid_vector_quietly() {
    for v in VALID {
        let doc = bytes(v.hex);
        // Some vectors are single atoms of a container (an EOC, a LIST
        // opening): only whole items are documents.
        if yac::items::count_nodes(&doc, 0).map(|(_, used)| used) != Ok(doc.len()) {
            continue;
        }
        assert_eq!(ok("check", &doc), b"", "{}", v.name);
        let verbose = String::from_utf8(yac(&["check", "-v", "-"], &doc).stdout).unwrap();
        assert!(verbose.starts_with("ok: 1 item, "), "{}: {verbose}", v.name);
        assert!(verbose.ends_with(&format!(", {} bytes\n", doc.len())) || doc.len() == 1);
    }
}

#[test]
fn check_reports_the_error_and_its_offset() {
    // Empty input is its own case, below.
    let cases = INVALID_ATOM
        .iter()
        .filter(|i| !i.hex.is_empty())
        .map(|i| (i.name, i.hex, i.err, 0))
        .chain(INVALID_STREAM.iter().map(|i| (i.name, i.hex, i.err, i.at)));
    for (name, hex, want, at) in cases {
        let err = fails("check", &bytes(hex), 1);
        let text = match want {
            Error::NotEnough(_) => "not enough input",
            e => e.as_str(),
        };
        assert!(err.contains(&format!("offset {at} (")), "{name}: {err}");
        assert!(err.contains(text), "{name}: {err}");
        // The other commands refuse it too.
        for cmd in ["print", "to-json"] {
            assert_eq!(fails(cmd, &bytes(hex), 1), err, "{name}");
        }
    }
    // `atoms` checks each atom (MAP rules are left to `check`).
    for i in INVALID_ATOM.iter().filter(|i| !i.hex.is_empty()) {
        let err = fails("atoms", &bytes(i.hex), 1);
        assert!(err.contains("offset 0 ("), "{}: {err}", i.name);
    }
    // A corrupt length inside a whole input is named as one.
    let err = fails("check", &bytes("09 C161 BF 8129BB5D4DB1A000 00"), 1);
    assert!(err.contains("offset 3 (0x3)"), "{err}");
    assert!(err.contains("a corrupt length"), "{err}");
    // An error after a valid first item is found too.
    let err = fails("check", &bytes("08 00  09 C161 01 C161 01 00"), 1);
    assert!(err.contains("offset 6 (0x6)"), "{err}");
    assert!(fails("check", b"", 1).contains("empty input"));
}

#[test]
fn usage_and_io_errors_exit_2() {
    for args in [
        &[][..],
        &["frob", "-"],
        &["print"],
        &["print", "-", "-"],
        &["print", "-x", "-"],
        &["to-json", "-v", "-"],
    ] {
        let out = yac(args, b"");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("usage: yac"));
    }
    let out = yac(&["print", "/nonexistent/file.yac"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/file.yac"));
    let help = yac(&["--help"], b"");
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).starts_with("usage: yac"));
}

#[test]
fn reads_files_and_stdin_alike() {
    let doc = bytes("09 C3666F6F 08 C3626172 00 00"); // MAP {foo: ["bar"]}
    let path = temp_file("foo.yac", &doc);
    let from_file = Command::new(YAC)
        .args(["to-json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(from_file.status.success());
    assert_eq!(from_file.stdout, ok("to-json", &doc));
    assert_eq!(from_file.stdout, b"{\"foo\":[\"bar\"]}\n");
}

#[test]
fn print_shows_types_lengths_and_values() {
    // Spec vectors inside one MAP (keys in length-first order).
    let mut doc = bytes("4B 454B53 636D2F707562 000000000000"); // MAGIC "cm/pub"
    doc.extend(bytes(
        "09
         C161 04 0E875E3FD38549EB87B4BE42D641C367
         C162 19 40000000673DD3E1 36F121D4
         C163 84 01020304
         C164 CB 68656C6C6F20776F726C64
         C165 0C 89 010000000000000000
         C166 0D 89 010000000000000000
         C167 0B 0000000000000001 82 3132 82 3334 81 35
         C168 08 0C817B 02 00
         C169 18 40000000586846A4
         C16A 12 3FB999999999999A
         C16B C3 22 0A 5C
         00",
    ));
    let out = ok_text("print", &doc);
    let want = r#"MAGIC "cm/pub"
MAP (11 pairs)
  "a": HEXLET 0e875e3f-d385-49eb-87b4-be42d641c367
  "b": TAI64N 2024-11-20 12:19:08.921772500 UTC
  "c": BIN 4 01020304
  "d": STR 11 "hello world"
  "e": +INT 18446744073709551616
  "f": -INT -18446744073709551617
  "g": BLOB chunk 2 (3 chunks, 5 bytes)
    BIN 2 3132
    BIN 2 3334
    BIN 1 35
  "h": LIST (2 items)
    +INT 123
    FALSE
  "i": TAI64 2016-12-31 23:59:60 UTC
  "j": FLOAT64 0.1
  "k": STR 3 "\"\n\\"
"#;
    assert_eq!(out, want);

    let atoms = ok_text("atoms", &bytes("08 0C817B 02 00"));
    assert_eq!(
        atoms,
        "00000000 LIST\n00000001   +INT 123\n00000004   FALSE\n00000005 EOC\n"
    );
}

#[test]
fn from_json_follows_the_mapping() {
    let cases: &[(&str, &str)] = &[
        ("null", "01"),
        ("[true,false]", "08 03 02 00"),
        ("0", "0C 80"),
        ("-0", "0C 80"),
        ("100", "0C 81 64"),
        ("-1", "0D 80"),
        ("-65536", "0D 82 FFFF"),
        ("18446744073709551615", "0C 88 FFFFFFFFFFFFFFFF"),
        ("18446744073709551616", "0C 89 010000000000000000"),
        ("-18446744073709551616", "0D 88 FFFFFFFFFFFFFFFF"),
        ("-18446744073709551617", "0D 89 010000000000000000"),
        ("0.5", "10 3800"),
        ("1.0", "10 3C00"),
        ("100000.0", "11 47C35000"),
        ("0.1", "12 3FB999999999999A"),
        ("1e300", "12 7E37E43C8800759C"),
        ("\"hello world\"", "CB 68656C6C6F20776F726C64"),
        ("\"\\u043f\\u0440\\u0438\"", "C6 D0BFD180D0B8"),
        ("\"\\ud83d\\ude00\"", "C4 F09F9880"),
        // Keys sorted by length, then bytewise.
        ("{\"sig\":null,\"dh\":null}", "09 C26468 01 C3736967 01 00"),
        (
            "{\"bb\":1,\"c\":2,\"a\":3}",
            "09 C161 0C8103 C163 0C8102 C26262 0C8101 00",
        ),
        ("{\"$bin\":\"01020304\"}", "84 01020304"),
        (
            "{\"$hexlet\":\"0e875e3f-d385-49eb-87b4-be42d641c367\"}",
            "04 0E875E3FD38549EB87B4BE42D641C367",
        ),
        ("{\"$tai64\":\"400000000000000a\"}", "18 400000000000000A"),
        ("{\"$float\":\"7e00\"}", "10 7E00"),
        (
            "{\"$magic\":\"cm/pub\"}",
            "4B 454B53 636D2F707562 000000000000",
        ),
        (
            "{\"$blob\":[2,\"3132333435\"]}",
            "0B 0000000000000001 82 3132 82 3334 81 35",
        ),
        ("{\"$blob\":[5,\"\"]}", "0B 0000000000000004 80"),
        (
            "{\"$blob\":[5,\"3132333435\"]}",
            "0B 0000000000000004 85 3132333435 80",
        ),
        ("{\"$map\":{\"$bin\":1}}", "09 C42462696E 0C8101 00"),
        (
            "{\"$bin\":1,\"x\":2}",
            "09 C178 0C8102 C42462696E 0C8101 00",
        ),
        // A sequence of values is a sequence of items.
        (" 1\n[] ", "0C 81 01 08 00"),
    ];
    for (json, hex) in cases {
        assert_eq!(ok("from-json", json.as_bytes()), bytes(hex), "{json}");
    }
}

#[test]
fn from_json_refuses_what_yac_cannot_hold() {
    for (json, why) in [
        ("{\"a\":1,\"a\":2}", "line 1, column 12"),
        ("{\"a\":1,\"a\":2}", "duplicate key \"a\""),
        ("{\"\":1}", "empty key"),
        ("\"a\\u0000b\"", "NUL"),
        ("-0.0", "negative zero"),
        ("1e999", "range"),
        ("[1,\n 2,]", "line 2, column 4"),
        ("{\"$nope\":1}", "unknown special form"),
        ("{\"$bin\":\"0\"}", "hex"),
        ("{\"$blob\":[0,\"\"]}", "chunk length"),
        (
            "{\"$tai64\":\"8000000000000000\"}",
            "TAI64 label at or above 2^63",
        ),
        ("{\"$float\":\"3c000000\"}", "float not in shortest form"),
        ("{\"$magic\":\"0123456789abc\"}", "longer than 12 bytes"),
        ("\"\\ud800\"", "surrogate"),
        ("", "no JSON value"),
        ("[1] x", "expected a JSON value"),
    ] {
        let err = fails("from-json", json.as_bytes(), 1);
        assert!(err.contains(why), "{json}: {err}");
    }
    let err = fails("from-json", b"\"\xff\"", 1);
    assert!(err.contains("not UTF-8"), "{err}");
}

#[test]
fn to_json_forms() {
    for (hex, json) in [
        ("0C 89 010000000000000000", "18446744073709551616"),
        ("0D 89 010000000000000000", "-18446744073709551617"),
        ("10 3C00", "1.0"),
        ("10 7C00", "{\"$float\":\"7c00\"}"),
        (
            "13 3FFF0000000000000000000000001000",
            "{\"$float\":\"3fff0000000000000000000000001000\"}",
        ),
        ("C3 22 0A 5C", "\"\\\"\\n\\\\\""),
        ("09 C42462696E 0C8101 00", "{\"$map\":{\"$bin\":1}}"),
        (
            "4B 454B53 00FF 00000000000000000000",
            "{\"$magic\":{\"$bin\":\"00ff\"}}",
        ),
    ] {
        assert_eq!(
            ok_text("to-json", &bytes(hex)),
            format!("{json}\n"),
            "{hex}"
        );
    }
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn bytes(&mut self, max: u64) -> Vec<u8> {
        (0..self.below(max + 1))
            .map(|_| self.next() as u8)
            .collect()
    }
    fn text(&mut self, max: u64) -> String {
        const PIECES: &[&str] = &[
            "a",
            "Z",
            "$",
            "\"",
            "\\",
            "\n",
            "\u{1}",
            "\u{7f}",
            "é",
            "привет",
            "😀",
            " ",
            "/",
        ];
        (0..self.below(max + 1))
            .map(|_| PIECES[self.below(PIECES.len() as u64) as usize])
            .collect()
    }
}

/// Appends a random canonical item (any type, nesting up to `depth`).
fn gen_item(r: &mut Rng, depth: u32, out: &mut Vec<u8>) {
    let kinds = if depth == 0 { 14 } else { 17 };
    match r.below(kinds) {
        0 => put(out, &Atom::Nil),
        1 => put(out, &Atom::Bool(r.below(2) == 1)),
        2 => put(out, &Atom::Uint(r.next() >> r.below(64))),
        3 => put(
            out,
            &Atom::from_i64(-1 - (r.next() >> (1 + r.below(63))) as i64),
        ),
        4 => {
            let mut magnitude = r.bytes(24);
            magnitude.insert(0, 1 + r.below(255) as u8);
            magnitude.extend([0u8; 8]);
            put(
                out,
                &Atom::BigInt {
                    negative: r.below(2) == 1,
                    magnitude: &magnitude,
                },
            );
        }
        5 => {
            let v = match r.below(3) {
                0 => f64::from_bits(r.next()),
                1 => (r.below(2000) as f64 - 1000.0) / 8.0,
                _ => f64::from(f32::from_bits(r.next() as u32)),
            };
            let mut b = [0u8; 8];
            if let Ok(n) = yac::float::shortest(v, &mut b) {
                put(out, &Atom::Float(&b[..n]));
            } else {
                put(out, &Atom::Nil);
            }
        }
        6 => put(out, &Atom::Str(&r.text(20))),
        7 => put(out, &Atom::Bin(&r.bytes(40))),
        8 => {
            let h: [u8; 16] = std::array::from_fn(|_| r.next() as u8);
            put(out, &Atom::Hexlet(&h));
        }
        9 => {
            let mut label = [0u8; 16];
            let nsec = if r.below(2) == 0 {
                0
            } else {
                r.below(1_000_000_000) as u32
            };
            let unix = (r.next() >> 30) as i64 - (1 << 33);
            let n = yac::tai64::utc_to_label(unix, nsec, &mut label).unwrap();
            put(out, &Atom::Tai64(&label[..n]));
        }
        10 => {
            let body = if r.below(2) == 0 {
                r.text(3).into_bytes()
            } else {
                r.bytes(12)
            };
            match yac::enc::pad_magic(&body) {
                Ok(m) => put(out, &Atom::Magic(&m)),
                Err(_) => put(out, &Atom::Nil),
            }
        }
        11..=13 => {
            let chunk = 1 + r.below(5);
            put(
                out,
                &Atom::Blob {
                    chunk_len_minus_one: chunk - 1,
                },
            );
            let data = r.bytes(17);
            let mut rest = &data[..];
            while rest.len() as u64 >= chunk {
                put(out, &Atom::Bin(&rest[..chunk as usize]));
                rest = &rest[chunk as usize..];
            }
            put(out, &Atom::Bin(rest));
        }
        14 => {
            put(out, &Atom::List);
            for _ in 0..r.below(5) {
                gen_item(r, depth - 1, out);
            }
            put(out, &Atom::Eoc);
        }
        _ => {
            let mut keys: Vec<String> = (0..r.below(5))
                .map(|_| format!("{}{}", if r.below(3) == 0 { "$" } else { "" }, r.text(4)))
                .filter(|k| !k.is_empty())
                .collect();
            keys.sort_by(|a, b| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
            keys.dedup();
            put(out, &Atom::Map);
            for k in keys {
                put(out, &Atom::Str(&k));
                gen_item(r, depth - 1, out);
            }
            put(out, &Atom::Eoc);
        }
    }
}

#[test]
fn generated_documents_round_trip_through_json() {
    let mut r = Rng(0x9E37_79B9_7F4A_7C15);
    let mut doc = Vec::new();
    let mut items = 0;
    while items < 400 {
        let before = doc.len();
        gen_item(&mut r, 4, &mut doc);
        // The generator never makes a bad item; the library agrees.
        let (_, used) = yac::items::count_nodes(&doc[before..], 0).unwrap();
        assert_eq!(before + used, doc.len());
        items += 1;
    }
    assert!(ok_text("check", &doc).is_empty());
    let json = ok("to-json", &doc);
    assert_eq!(json.iter().filter(|&&b| b == b'\n').count(), items);
    assert_eq!(ok("from-json", &json), doc, "YAC -> JSON -> YAC");
    // print and atoms take every type.
    assert!(ok_text("print", &doc).lines().count() >= items);
    assert!(ok_text("atoms", &doc).lines().count() >= items);
}

/// `yac print` and `Value`'s Display are one text form: every generated
/// item prints the same both ways.
#[test]
fn print_is_the_text_form_of_value() {
    let mut r = Rng(0x2545_F491_4F6C_DD1D);
    let mut all = Vec::new();
    let mut want = String::new();
    for _ in 0..200 {
        let mut doc = Vec::new();
        gen_item(&mut r, 4, &mut doc);
        let v: yac::Value = yac::from_slice(&doc).unwrap();
        want.push_str(&v.to_string());
        all.extend(doc);
    }
    assert_eq!(ok_text("print", &all), want);
}

#[test]
fn deep_nesting_does_not_overflow_the_stack() {
    let depth = 200_000;
    let mut doc = vec![0x08u8; depth];
    doc.extend(std::iter::repeat(0x00).take(depth));
    assert!(ok_text("check", &doc).is_empty());
    let json = ok("to-json", &doc);
    assert_eq!(json.len(), 2 * depth + 1);
    assert_eq!(ok("from-json", &json), doc);
    // The printed tree is indented, so its size grows with the square of
    // the depth: a shallower one.
    let depth = 3000;
    let mut doc = vec![0x08u8; depth];
    doc.extend(std::iter::repeat(0x00).take(depth));
    assert_eq!(ok_text("print", &doc).lines().count(), depth);
}

#[test]
fn reference_documents_from_json_byte_for_byte() {
    let Some(dir) = common::shared_data_dir("licenses.json") else {
        return;
    };
    for name in ["canada-list", "canada-map", "licenses"] {
        let json: &Path = &dir.join(format!("{name}.json"));
        let want = std::fs::read(dir.join(format!("{name}.yac"))).unwrap();
        let out = Command::new(YAC)
            .arg("from-json")
            .arg(json)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{name}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stdout == want,
            "{name}: from-json differs from {name}.yac"
        );
        // And back: to-json then from-json gives the same bytes again.
        let back = ok("to-json", &want);
        assert!(ok("from-json", &back) == want, "{name}: YAC -> JSON -> YAC");
    }
}

#[test]
fn version_and_per_command_help() {
    let out = yac(&["--version"], b"");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        format!("yac {}\n", env!("CARGO_PKG_VERSION"))
    );
    for cmd in ["print", "atoms", "check", "to-json", "from-json"] {
        let out = yac(&[cmd, "--help"], b"");
        assert!(out.status.success(), "{cmd}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(text.starts_with(&format!("usage: yac {cmd} ")), "{text}");
    }
}

#[test]
fn several_files_and_an_output_file() {
    let a = temp_file("several-a.yac", &bytes("08 00"));
    let b = temp_file("several-b.yac", &bytes("0C 81 07"));
    let bad = temp_file("several-bad.yac", &bytes("08 0C 81 00 00"));
    let (a, b, bad) = (
        a.to_str().unwrap(),
        b.to_str().unwrap(),
        bad.to_str().unwrap(),
    );
    let out = yac(&["to-json", a, b], b"");
    assert!(out.status.success());
    assert_eq!(out.stdout, b"[]\n7\n");
    let out = yac(&["check", "-v", a, b], b"");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with(&format!("{a}: ok: 1 item")), "{text}");
    assert!(text.contains(&format!("\n{b}: ok: 1 item")), "{text}");
    // A bad file in the middle: reported with its name, the others done.
    let out = yac(&["to-json", a, bad, b], b"");
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(out.stdout, b"[]\n7\n");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("yac: {bad}: invalid YAC at offset 1")),
        "{err}"
    );
    // -o: the output goes to the file, none to stdout.
    let json = temp_file("several.json", b"{\"a\": [1, true]}");
    let dest = json.with_extension("out.yac");
    let out = yac(
        &[
            "from-json",
            "-o",
            dest.to_str().unwrap(),
            json.to_str().unwrap(),
        ],
        b"",
    );
    assert!(out.status.success() && out.stdout.is_empty());
    assert_eq!(
        std::fs::read(&dest).unwrap(),
        bytes("09 C161 08 0C8101 03 00 00")
    );
    for args in [
        &["check", "-o", "x", "-"][..],
        &["print", "-o"],
        &["print", "-o", "x", "-o", "y", "-"],
    ] {
        assert_eq!(yac(args, b"").status.code(), Some(2), "{args:?}");
    }
}

#[test]
fn from_json_refuses_a_terminal() {
    // `script` gives the command a terminal as its standard output.
    let json = temp_file("tty.json", b"[1, 2]");
    let cmd = format!("{YAC} from-json {}", json.display());
    let Ok(out) = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
    else {
        eprintln!("SKIPPED: no `script` to give yac a terminal");
        return;
    };
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("refusing to write binary YAC to a terminal"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(2), "{text}");
    // With -o it writes.
    let dest = json.with_extension("tty.yac");
    let cmd = format!("{YAC} from-json -o {} {}", dest.display(), json.display());
    let out = Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert_eq!(std::fs::read(&dest).unwrap(), bytes("08 0C8101 0C8102 00"));
}

#[test]
fn print_and_atoms_cap_their_indentation() {
    // 20,000 levels in 40 KB: the output stays proportional to the input.
    let depth = 20_000;
    let mut doc = vec![0x08u8; depth];
    doc.extend(std::iter::repeat(0x00).take(depth));
    let print = ok_text("print", &doc);
    assert_eq!(print.lines().count(), depth);
    assert!(print.len() < depth * 100, "print: {} bytes", print.len());
    let deepest = print.lines().last().unwrap();
    assert!(
        deepest.starts_with(&format!("{}[{}] LIST", "  ".repeat(32), depth - 1)),
        "{deepest}"
    );
    let atoms = ok_text("atoms", &doc);
    assert_eq!(atoms.lines().count(), 2 * depth);
    assert!(
        atoms.len() < 2 * depth * 100,
        "atoms: {} bytes",
        atoms.len()
    );
}

#[test]
fn atoms_prints_everything_up_to_the_error() {
    // LIST, 1, then an unknown tag at offset 4.
    let out = yac(&["atoms", "-"], &bytes("08 0C 81 01 FF"));
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(text.lines().count(), 2, "{text}");
    assert!(
        text.lines().nth(1).unwrap().starts_with("00000001   "),
        "{text}"
    );
    assert!(String::from_utf8_lossy(&out.stderr).contains("offset 4 (0x4)"));
}
