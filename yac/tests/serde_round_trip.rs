//! serde: every value the serializer accepts reads back equal (a property
//! test over generated values of every serde data-model type, and the
//! float cases: NaN payloads, infinities, subnormals, -0.0 refused); the
//! format's own types go into typed fields both ways.
#![cfg(feature = "serde")]

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use yac::serde::ErrorKind;

/// An `f64` compared by its bits (NaN payloads included).
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(transparent)]
struct F64(f64);

impl PartialEq for F64 {
    fn eq(&self, o: &F64) -> bool {
        self.0.to_bits() == o.0.to_bits()
    }
}

/// An `f32` compared by its bits.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(transparent)]
struct F32(f32);

impl PartialEq for F32 {
    fn eq(&self, o: &F32) -> bool {
        self.0.to_bits() == o.0.to_bits()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct UnitStruct;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Newtype(i16);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct TupleStruct(u16, String);

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Record {
    zebra: bool,
    a: Option<Box<Node>>,
    middle: i128,
}

/// One of every serde data-model type, nested.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
enum Node {
    Unit,
    Bool(bool),
    I8(i8),
    I16(i16),
    I32(i32),
    I64(i64),
    I128(i128),
    U8(u8),
    U16(u16),
    U32(u32),
    U64(u64),
    U128(u128),
    F32(F32),
    F64(F64),
    Char(char),
    Str(String),
    Bytes(#[serde(with = "serde_bytes")] Vec<u8>),
    Option(Option<Box<Node>>),
    UnitValue(()),
    UnitStruct(UnitStruct),
    Newtype(Newtype),
    Seq(Vec<Node>),
    Tuple((u8, Box<Node>, String)),
    TupleStruct(TupleStruct),
    Map(BTreeMap<String, Node>),
    HashMap(HashMap<String, i32>),
    Struct(Record),
    TupleVariant(i8, Box<Node>),
    StructVariant { y: u8, x: Box<Node> },
    Array([u8; 3]),
}

/// xorshift64*: deterministic, no dependency.
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
    /// Bits of every kind of float: NaNs (quiet and signalling, any
    /// payload, either sign), infinities, subnormals, zeros, normals, and
    /// values narrower widths hold.
    fn f64_bits(&mut self) -> u64 {
        let r = self.next();
        match self.below(8) {
            0 => 0x7FF0_0000_0000_0000 | (r & 0x800F_FFFF_FFFF_FFFF) | 1, // NaN
            1 => r & 0x800F_FFFF_FFFF_FFFF,                               // subnormal or zero
            2 => [f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0][(r % 4) as usize].to_bits(),
            3 => f64::from(f32::from_bits(r as u32)).to_bits(),
            4 => ((r % 2000) as f64 / 8.0 - 100.0).to_bits(),
            _ => r,
        }
    }
    fn string(&mut self, nul_ok: bool) -> String {
        let max = if self.below(8) == 0 { 400 } else { 12 };
        let n = self.below(max);
        (0..n)
            .map(|_| match self.below(10) {
                0 if nul_ok => '\0',
                0..=5 => char::from(b'a' + self.below(26) as u8),
                _ => char::from_u32(self.below(0x11_0000) as u32).unwrap_or('é'),
            })
            .collect()
    }
    fn key(&mut self) -> String {
        let mut s = self.string(false);
        if s.is_empty() && self.below(16) != 0 {
            s.push('k');
        }
        s
    }
    fn node(&mut self, depth: u32) -> Node {
        let leaf = depth >= 4;
        let kinds = if leaf { 21 } else { 31 };
        let r = self.next();
        match self.below(kinds) {
            0 => Node::Unit,
            1 => Node::Bool(r & 1 == 1),
            2 => Node::I8(r as i8),
            3 => Node::I16(r as i16),
            4 => Node::I32(r as i32),
            5 => Node::I64(r as i64 >> self.below(64)),
            6 => Node::I128(((r as i128) << 64 | self.next() as i128) >> self.below(128)),
            7 => Node::U8(r as u8),
            8 => Node::U16(r as u16),
            9 => Node::U32(r as u32),
            10 => Node::U64(r >> self.below(64)),
            11 => Node::U128(((r as u128) << 64 | self.next() as u128) >> self.below(128)),
            12 => Node::F32(F32(f32::from_bits(r as u32))),
            13 => Node::F64(F64(f64::from_bits(self.f64_bits()))),
            14 => Node::Char(char::from_u32(r as u32 % 0x11_0000).unwrap_or('\u{FFFD}')),
            15 => Node::Str(self.string(true)),
            16 => Node::Bytes((0..self.below(80)).map(|_| self.next() as u8).collect()),
            17 => Node::UnitValue(()),
            18 => Node::UnitStruct(UnitStruct),
            19 => Node::Newtype(Newtype(r as i16)),
            20 => Node::Array([r as u8, (r >> 8) as u8, (r >> 16) as u8]),
            21 => Node::Option((r & 1 == 1).then(|| Box::new(self.node(depth + 1)))),
            22 => Node::Seq((0..self.below(5)).map(|_| self.node(depth + 1)).collect()),
            23 => Node::Tuple((r as u8, Box::new(self.node(depth + 1)), self.string(true))),
            24 => Node::TupleStruct(TupleStruct(r as u16, self.string(false))),
            25 => Node::Map(
                (0..self.below(6))
                    .map(|_| (self.key(), self.node(depth + 1)))
                    .collect(),
            ),
            26 => Node::HashMap(
                (0..self.below(40))
                    .map(|_| (self.key(), self.next() as i32))
                    .collect(),
            ),
            27 => Node::Struct(Record {
                zebra: r & 1 == 1,
                a: (r & 2 == 2).then(|| Box::new(self.node(depth + 1))),
                middle: r as i128 * -3,
            }),
            28 => Node::TupleVariant(r as i8, Box::new(self.node(depth + 1))),
            29 => Node::StructVariant {
                y: r as u8,
                x: Box::new(self.node(depth + 1)),
            },
            _ => Node::Seq(vec![self.node(depth + 1), self.node(depth + 1)]),
        }
    }
}

/// What the format has no encoding for, anywhere in `n`: a NUL in a
/// string, -0.0, an empty MAP key.
fn unwritable(n: &Node) -> bool {
    let s = |s: &str| s.contains('\0');
    let f = |f: f64| f == 0.0 && f.is_sign_negative();
    match n {
        Node::F32(x) => f(x.0.into()),
        Node::F64(x) => f(x.0),
        Node::Char(c) => *c == '\0',
        Node::Str(t) => s(t),
        Node::Option(Some(b)) | Node::TupleVariant(_, b) => unwritable(b),
        Node::StructVariant { x, .. } => unwritable(x),
        Node::Seq(v) => v.iter().any(unwritable),
        Node::Tuple((_, b, t)) => s(t) || unwritable(b),
        Node::TupleStruct(t) => s(&t.1),
        Node::Map(m) => m.iter().any(|(k, v)| k.is_empty() || s(k) || unwritable(v)),
        Node::HashMap(m) => m.keys().any(|k| k.is_empty() || s(k)),
        Node::Struct(r) => r.a.as_deref().is_some_and(unwritable),
        _ => false,
    }
}

#[test]
fn every_value_the_serializer_accepts_reads_back_equal() {
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut written, mut refused) = (0, 0);
    for i in 0..20_000 {
        let v = rng.node(0);
        match yac::to_vec(&v) {
            Ok(doc) => {
                assert!(!unwritable(&v), "case {i}: wrote the unwritable {v:?}");
                let back: Node =
                    yac::from_slice(&doc).unwrap_or_else(|e| panic!("case {i}: {e} reading {v:?}"));
                assert_eq!(back, v, "case {i}");
                // Canonical: the value read back writes the same bytes.
                assert_eq!(yac::to_vec(&back).unwrap(), doc, "case {i}");
                written += 1;
            }
            Err(e) => {
                assert!(unwritable(&v), "case {i}: refused {v:?}: {e}");
                refused += 1;
            }
        }
    }
    // Both outcomes were exercised.
    assert!(written > 10_000 && refused > 100, "{written} {refused}");
}

#[derive(Debug, Serialize, Deserialize)]
struct Reading {
    t: f64,
    id: u32,
}

#[test]
fn nan_writes_and_reads_back() {
    let doc = yac::to_vec(&Reading { t: f64::NAN, id: 1 }).unwrap();
    let back: Reading = yac::from_slice(&doc).unwrap();
    assert_eq!(back.t.to_bits(), f64::NAN.to_bits());
    for bits in [
        0x7FF0_0000_0000_0001u64, // signalling, payload 1
        0xFFF8_0000_0000_0000,    // negative quiet
        0x7FF4_0000_0000_0000,    // signalling, fits binary16
        0x7FFF_FFFF_FFFF_FFFF,
        f64::INFINITY.to_bits(),
        f64::NEG_INFINITY.to_bits(),
        1,                     // smallest subnormal
        0x000F_FFFF_FFFF_FFFF, // largest subnormal
        f64::MIN_POSITIVE.to_bits(),
    ] {
        let doc = yac::to_vec(&f64::from_bits(bits)).unwrap();
        let back: f64 = yac::from_slice(&doc).unwrap();
        assert_eq!(back.to_bits(), bits, "{bits:016X}");
    }
    for bits in [0x7F80_0001u32, 0x7FA0_0000, 0xFFC0_0001, 1, 0x7F80_0000] {
        let doc = yac::to_vec(&f32::from_bits(bits)).unwrap();
        assert!(doc.len() <= 5, "{bits:08X}: an f32 takes at most FLOAT32");
        let back: f32 = yac::from_slice(&doc).unwrap();
        assert_eq!(back.to_bits(), bits, "{bits:08X}");
    }
}

#[test]
fn negative_zero_is_refused_at_write_time_saying_why() {
    for e in [
        yac::to_vec(&-0.0f64).unwrap_err(),
        yac::to_vec(&-0.0f32).unwrap_err(),
    ] {
        assert_eq!(e.kind(), &ErrorKind::NegativeZero);
        assert!(e.to_string().contains("no negative zero"), "{e}");
    }
    let mut out = vec![7];
    let e = yac::append_to_vec(&mut out, &(1, -0.0)).unwrap_err();
    assert_eq!(e.offset(), 4, "after the LIST tag and the 1");
    assert_eq!(out, [7], "a failed append leaves the Vec as it was");
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Stamped {
    #[serde(with = "yac::serde::hexlet")]
    id: [u8; 16],
    #[serde(with = "yac::serde::magic")]
    kind: [u8; 12],
    #[serde(with = "yac::serde::tai64")]
    at: std::time::SystemTime,
}

/// TAI64N and HEXLET written by the core's writer (what the C library
/// writes) read into typed fields, and the typed struct writes the same.
#[test]
fn tai64_hexlet_and_magic_from_the_core_writer_read_into_typed_fields() {
    let mut buf = [0u8; 128];
    let mut w = yac::Writer::new(&mut buf);
    w.map().unwrap();
    w.str("at").unwrap();
    w.tai64_utc(1_732_105_148, 921_772_500).unwrap();
    w.str("id").unwrap();
    w.hexlet(&[0xAB; 16]).unwrap();
    w.str("kind").unwrap();
    w.magic(b"cm/pub\0\0\0\0\0\0").unwrap();
    w.eoc().unwrap();
    let n = w.finish().unwrap();
    let doc = &buf[..n];
    let s: Stamped = yac::from_slice(doc).unwrap();
    assert_eq!(s.id, [0xAB; 16]);
    assert_eq!(&s.kind, b"cm/pub\0\0\0\0\0\0");
    assert_eq!(s.at, UNIX_EPOCH + Duration::new(1_732_105_148, 921_772_500));
    assert_eq!(yac::to_vec(&s).unwrap(), doc);
    // The spec's vector: 2024-11-20 12:19:08.921772500 UTC.
    assert_eq!(
        &doc[4..17],
        yac_testkit::hex("19 40000000673DD3E1 36F121D4")
    );

    // The same fields go through Value, and bytes fields take them too.
    let v: yac::Value = yac::from_slice(doc).unwrap();
    assert!(matches!(v.get("at"), Some(yac::Value::Tai64(l)) if l.len() == 12));
    assert_eq!(yac::to_vec(&v).unwrap(), doc);
    #[derive(Deserialize)]
    struct Raw<'a> {
        #[serde(borrow)]
        at: &'a [u8],
        id: serde_bytes::ByteBuf,
    }
    let raw: Raw = yac::from_slice(doc).unwrap();
    assert_eq!(raw.at, &doc[5..17]);
    assert_eq!(raw.id.as_slice(), &[0xAB; 16]);
}

#[test]
fn typed_time_before_1970_and_a_tai64na_read() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct T(#[serde(with = "yac::serde::tai64")] std::time::SystemTime);
    let before = UNIX_EPOCH - Duration::new(86_400, 250);
    let doc = yac::to_vec(&T(before)).unwrap();
    assert_eq!(doc[0], 0x19, "TAI64N");
    assert_eq!(yac::from_slice::<T>(&doc).unwrap().0, before);
    // TAI64NA: the attoseconds go, the rest reads.
    let na = yac_testkit::hex("1A 4000000000000000 00000001 00000001");
    let t: T = yac::from_slice(&na).unwrap();
    assert_eq!(
        t.0,
        UNIX_EPOCH - Duration::from_secs(10) + Duration::from_nanos(1)
    );
    // A HEXLET is not a time.
    let e = yac::from_slice::<T>(&yac_testkit::hex("04 00000000000000000000000000000000"));
    assert!(e.unwrap_err().to_string().contains("Tai64"));
}

#[cfg(feature = "uuid")]
#[test]
fn uuid_fields_are_hexlets() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Row {
        #[serde(with = "yac::serde::uuid")]
        id: uuid::Uuid,
    }
    let id = uuid::Uuid::from_u128(0x0e87_5e3f_d385_49eb_87b4_be42_d641_c367);
    let doc = yac::to_vec(&Row { id }).unwrap();
    assert_eq!(
        doc,
        yac_testkit::hex("09 C26964 04 0E875E3FD38549EB87B4BE42D641C367 00")
    );
    assert_eq!(yac::from_slice::<Row>(&doc).unwrap(), Row { id });
}

#[test]
fn a_corrupt_length_in_a_complete_buffer_says_so() {
    // MAP {"a": BIN whose 64-bit length field is garbage}.
    let doc = yac_testkit::hex("09 C161 BF 8129BB5D4DB1A000 00");
    let e = yac::from_slice::<yac::Value>(&doc).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::LengthPastEnd { left: 1, .. }),
        "{e}"
    );
    assert_eq!(e.offset(), 3);
    assert!(e.to_string().starts_with("corrupt length"), "{e}");
    // A cut input is a cut.
    let e = yac::from_slice::<yac::Value>(&yac_testkit::hex("09 C161 0C")).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (&ErrorKind::Truncated, 3));
    let e = yac::from_slice::<Vec<u8>>(&yac_testkit::hex("08 BE00")).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (&ErrorKind::Truncated, 1));
}

#[test]
fn from_reader_reads_one_document_at_a_time() {
    let mut stream = yac::to_vec(&vec![1u32, 2, 3]).unwrap();
    let first = stream.len();
    stream.extend(yac::to_vec(&("x".repeat(70_000), 5u8)).unwrap());
    let mut r = std::io::Cursor::new(&stream);
    let a: Vec<u32> = yac::from_reader(&mut r).unwrap();
    assert_eq!(a, [1, 2, 3]);
    let b: (String, u8) = yac::from_reader(&mut r).unwrap();
    assert_eq!((b.0.len(), b.1), (70_000, 5));
    assert_eq!(r.position() as usize, stream.len());
    // Cut short, or a corrupt length: an error, and no huge allocation.
    let cut = &stream[..stream.len() - 10];
    let mut r = std::io::Cursor::new(&cut[first..]);
    let e = yac::from_reader::<_, (String, u8)>(&mut r).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::LengthPastEnd { .. }), "{e}");
    let huge = yac_testkit::hex("BF 7FFFFFFFFFFFFFFF 00");
    let e = yac::from_reader::<_, yac::Value>(&huge[..]).unwrap_err();
    assert!(e.format_error().is_some(), "{e}");
}

/// Writes `value` by `to_writer`, checks that the bytes are `to_vec`'s,
/// and says in how many writes they came.
fn writes_to_stream<T: Serialize + ?Sized>(value: &T) -> usize {
    /// A writer that keeps what it is given and counts the writes.
    struct Counting(Vec<u8>, usize);
    impl std::io::Write for Counting {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.extend_from_slice(b);
            self.1 += 1;
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut w = Counting(Vec::new(), 0);
    yac::to_writer(&mut w, value).unwrap();
    assert_eq!(w.0, yac::to_vec(value).unwrap());
    w.1
}

#[test]
fn to_writer_streams_a_long_list_and_reports_io_errors() {
    let rows: Vec<BTreeMap<String, u64>> = (0..20_000)
        .map(|i| [("n".to_string(), i), ("sq".to_string(), i * i)].into())
        .collect();
    let pieces = writes_to_stream(&rows);
    assert!(pieces > 3, "written in {pieces} pieces");

    struct Broken;
    impl std::io::Write for Broken {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let e = yac::to_writer(Broken, &rows).unwrap_err();
    assert!(matches!(e.kind(), ErrorKind::Io(_)), "{e}");
    let io: std::io::Error = e.into();
    assert_eq!(io.kind(), std::io::ErrorKind::BrokenPipe);
}

#[test]
fn to_writer_streams_sequences_of_tuples_and_tuples_of_sequences() {
    // Fixed-length LISTs (tuples, arrays, tuple structs) hold no flush
    // point; a sequence of them still streams, and a sequence inside one
    // flushes at its own elements.
    let pairs: Vec<[u64; 2]> = (0..40_000).map(|i| [i, i * i]).collect();
    let pieces = writes_to_stream(&pairs);
    assert!(pieces > 3, "written in {pieces} pieces");

    #[derive(Serialize)]
    struct Wrapped(Vec<u64>, [String; 2]);
    let tuple = (
        Wrapped((0..100_000).collect(), ["a".into(), "b".repeat(70_000)]),
        (1u8, -2i16),
    );
    let pieces = writes_to_stream(&tuple);
    assert!(pieces > 3, "written in {pieces} pieces");
}

#[test]
fn large_maps_out_of_order_are_sorted_and_duplicates_refused() {
    let m: HashMap<String, u32> = (0..5000).map(|i| (format!("k{i}"), i)).collect();
    let b: BTreeMap<String, u32> = m.clone().into_iter().collect();
    assert_eq!(yac::to_vec(&m).unwrap(), yac::to_vec(&b).unwrap());
    let back: BTreeMap<String, u32> = yac::from_slice(&yac::to_vec(&m).unwrap()).unwrap();
    assert_eq!(back, b);
    let pairs: Vec<(String, u32)> = (0..100).rev().map(|i| (format!("{}", i % 99), i)).collect();
    struct Pairs(Vec<(String, u32)>);
    impl Serialize for Pairs {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map(self.0.iter().map(|(k, v)| (k, v)))
        }
    }
    let e = yac::to_vec(&Pairs(pairs)).unwrap_err();
    assert_eq!(e.format_error(), Some(yac::Error::MapUnordered));
}
