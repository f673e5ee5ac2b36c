//! serde: derived structs and maps round-trip canonically, borrowing works,
//! every FORMAT.md vector and the reference documents go through `Value`
//! and back byte for byte, and errors carry their offset.
#![cfg(feature = "serde")]

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use std::borrow::Cow;
use std::collections::{BTreeMap, HashMap};

use serde::{Deserialize, Serialize};
use yac::ser::ErrorKind;
use yac::Value;
use yac_testkit::hex;
use yac_testkit::vectors::{bytes, VALID};

#[derive(Serialize, Deserialize, Debug, PartialEq)]
struct Person {
    name: String,
    age: u8,
    emails: Vec<String>,
    #[serde(with = "serde_bytes")]
    key: Vec<u8>,
    height: f64,
    boss: Option<Box<Person>>,
    kind: Kind,
    big: u128,
    small: i128,
}

#[derive(Serialize, Deserialize, Debug, PartialEq)]
enum Kind {
    Staff,
    Guest(u32),
    Pair(i8, i8),
    Other { why: String },
}

fn person() -> Person {
    Person {
        name: "Ann".into(),
        age: 42,
        emails: vec!["ann@example.org".into()],
        key: vec![0, 1, 2, 255],
        height: 1.5,
        boss: Some(Box::new(Person {
            name: "Bob".into(),
            age: 50,
            emails: vec![],
            key: vec![],
            height: 0.1,
            boss: None,
            kind: Kind::Other { why: "x".into() },
            big: 1 << 100,
            small: -(1 << 90),
        })),
        kind: Kind::Pair(-1, 2),
        big: 7,
        small: -7,
    }
}

/// The document is valid YAC (the core's tree parser accepts it whole).
fn assert_valid(doc: &[u8]) {
    let mut pool = vec![yac::items::Item::default(); doc.len() + 1];
    let mut items = yac::items::Items::new(&mut pool);
    let mut off = 0;
    items.parse(doc, &mut off).expect("valid YAC");
    assert_eq!(off, doc.len());
}

#[test]
fn derived_structs_round_trip() {
    let p = person();
    let doc = yac::to_vec(&p).unwrap();
    assert_valid(&doc);
    let back: Person = yac::from_slice(&doc).unwrap();
    assert_eq!(back, p);
    for k in [Kind::Staff, Kind::Guest(9), Kind::Pair(3, -4)] {
        let doc = yac::to_vec(&k).unwrap();
        assert_eq!(yac::from_slice::<Kind>(&doc).unwrap(), k);
    }
    // A unit variant is a STR; a newtype variant a MAP with one key.
    assert_eq!(yac::to_vec(&Kind::Staff).unwrap(), hex("C5 5374616666"));
    assert_eq!(
        yac::to_vec(&Kind::Guest(1)).unwrap(),
        hex("09 C5 4775657374 0C 81 01 00")
    );
}

#[test]
fn struct_fields_are_written_in_canonical_key_order() {
    #[derive(Serialize)]
    struct S {
        zz: u8,
        a: u8,
        bbb: u8,
    }
    // "a" < "zz" < "bbb": length first.
    let doc = yac::to_vec(&S {
        zz: 1,
        a: 2,
        bbb: 3,
    })
    .unwrap();
    assert_eq!(
        doc,
        hex("09 C1 61 0C 81 02  C2 7A7A 0C 81 01  C3 626262 0C 81 03 00")
    );
}

/// A struct whose fields come in no canonical order, nested in itself.
#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Scrambled {
    zz: u8,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    mid: Option<String>,
    a: u8,
    long_field_name_beyond_sixteen_b: u8,
    long_field_name_beyond_sixteen_a: u8,
    bbb: Vec<Scrambled>,
    b: u8,
    ab: u8,
    #[serde(skip_serializing_if = "Option::is_none", default)]
    c: Option<u8>,
    aa: Option<Box<Scrambled>>,
    k: u8,
    x: (),
    yy: u8,
    e: u8,
    dddd: u8,
    d: u8,
}

fn scrambled(depth: u8) -> Scrambled {
    Scrambled {
        zz: depth,
        mid: (depth % 2 == 0).then(|| "mid".into()),
        a: 1,
        long_field_name_beyond_sixteen_b: 2,
        long_field_name_beyond_sixteen_a: 3,
        bbb: (0..depth).map(scrambled).collect(),
        b: 4,
        ab: 5,
        c: (depth % 3 == 0).then_some(depth),
        aa: depth.checked_sub(1).map(|d| Box::new(scrambled(d))),
        k: 6,
        x: (),
        yy: 7,
        e: 8,
        dddd: 9,
        d: 10,
    }
}

#[test]
fn structs_out_of_order_many_fields_nested_are_canonical() {
    for depth in 0..5 {
        let v = scrambled(depth);
        let doc = yac::to_vec(&v).unwrap();
        // The core's parser refuses MAP keys out of order.
        assert_valid(&doc);
        let back: Scrambled = yac::from_slice(&doc).unwrap();
        assert_eq!(back, v);
        let value: Value = yac::from_slice(&doc).unwrap();
        assert_eq!(yac::to_vec(&value).unwrap(), doc);
        let mut streamed = Vec::new();
        yac::to_writer(&mut streamed, &vec![v.clone(), v]).unwrap();
        assert_valid(&streamed);
    }
}

#[test]
fn struct_fields_with_one_name_are_refused() {
    #[derive(Serialize)]
    struct Twice {
        zz: u8,
        #[serde(rename = "zz")]
        a: u8,
    }
    #[derive(Serialize)]
    struct TwiceLater {
        zz: u8,
        bbb: u8,
        #[serde(rename = "bbb")]
        a: u8,
    }
    #[derive(Serialize)]
    struct TwiceStashed {
        zz: u8,
        a: u8,
        #[serde(rename = "zz")]
        b: u8,
    }
    for e in [
        yac::to_vec(&Twice { zz: 1, a: 2 }).unwrap_err(),
        yac::to_vec(&TwiceLater {
            zz: 1,
            bbb: 2,
            a: 3,
        })
        .unwrap_err(),
        yac::to_vec(&TwiceStashed { zz: 1, a: 2, b: 3 }).unwrap_err(),
    ] {
        assert_eq!(e.format_error(), Some(yac::Error::MapUnordered));
    }
}

#[test]
fn hashmap_and_btreemap_give_the_same_bytes() {
    let mut h = HashMap::new();
    let mut b = BTreeMap::new();
    for i in 0..200u32 {
        let k = format!("k{}", i * 7919 % 1000);
        h.insert(k.clone(), i);
        b.insert(k, i);
    }
    let dh = yac::to_vec(&h).unwrap();
    let db = yac::to_vec(&b).unwrap();
    assert_eq!(dh, db);
    assert_valid(&dh);
    let back: HashMap<String, u32> = yac::from_slice(&dh).unwrap();
    assert_eq!(back, h);
    // Nested maps are sorted too.
    let nested: HashMap<String, HashMap<String, u8>> = [
        (
            "bb".to_string(),
            [("y".to_string(), 1), ("x".to_string(), 2)].into(),
        ),
        (
            "a".to_string(),
            [("long".to_string(), 3), ("s".to_string(), 4)].into(),
        ),
    ]
    .into();
    let doc = yac::to_vec(&nested).unwrap();
    assert_valid(&doc);
    assert_eq!(
        yac::from_slice::<HashMap<String, HashMap<String, u8>>>(&doc).unwrap(),
        nested
    );
}

#[test]
fn strings_and_bytes_borrow_from_the_input() {
    #[derive(Serialize, Deserialize)]
    struct B<'a> {
        s: &'a str,
        #[serde(with = "serde_bytes")]
        b: &'a [u8],
        #[serde(borrow)]
        c: Cow<'a, str>,
    }
    let doc = yac::to_vec(&B {
        s: "text",
        b: b"raw",
        c: Cow::Borrowed("cow"),
    })
    .unwrap();
    let r: B<'_> = yac::from_slice(&doc).unwrap();
    let range = doc.as_ptr_range();
    assert!(range.contains(&r.s.as_ptr()));
    assert!(range.contains(&r.b.as_ptr()));
    assert!(matches!(r.c, Cow::Borrowed(c) if range.contains(&c.as_ptr())));
}

#[test]
fn every_valid_vector_goes_through_value_byte_for_byte() {
    let mut n = 0;
    for v in VALID {
        let doc = bytes(v.hex);
        // Only whole items (the table also holds lone atoms such as EOC).
        let Ok(value) = yac::from_slice::<Value>(&doc) else {
            continue;
        };
        assert_eq!(yac::to_vec(&value).unwrap(), doc, "{}", v.hex);
        n += 1;
    }
    assert!(n > 40, "only {n} vectors are whole items");
}

#[test]
fn value_holds_big_integers_and_every_width() {
    // +INT of 17 bytes, -INT beyond i128, FLOAT128, TAI64NA, HEXLET, MAGIC,
    // BLOB, and -INT of 16 bytes beyond i128 (fits u128, but not negated).
    let doc = hex("08 0C 91 0100000000000000000000000000000000 \
         0D 91 0100000000000000000000000000000000 \
         13 3FFF8000000000000000000000000001 \
         1A 4000000000000001 00000001 00000001 \
         04 000102030405060708090A0B0C0D0E0F \
         4B 454B53 636D2F707562 000000000000 \
         0B 0000000000000001 82 6162 82 6364 80 \
         0D 90 80000000000000000000000000000000 00");
    let v: Value = yac::from_slice(&doc).unwrap();
    let items = v.as_list().unwrap();
    assert!(
        matches!(&items[0], Value::BigInt { negative: false, magnitude } if magnitude.len() == 17)
    );
    assert!(matches!(&items[1], Value::BigInt { negative: true, .. }));
    assert!(matches!(&items[2], Value::Float(b) if b.len() == 16));
    assert!(matches!(&items[6], Value::Blob { chunk_len_minus_one: 1, data } if data == b"abcd"));
    assert!(
        matches!(&items[7], Value::BigInt { negative: true, magnitude } if magnitude.len() == 16)
    );
    assert_eq!(yac::to_vec(&v).unwrap(), doc);
}

#[test]
fn reference_documents_go_through_value_byte_for_byte() {
    let Some(dir) = yac_testkit::shared_data_dir("counts.json") else {
        return;
    };
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_none_or(|e| e != "yac") {
            continue;
        }
        let doc = std::fs::read(&path).unwrap();
        let v: Value = yac::from_slice(&doc).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(yac::to_vec(&v).unwrap() == doc, "{}", path.display());
        seen += 1;
    }
    assert!(seen >= 3, "{seen} documents in {}", dir.display());
}

#[test]
fn errors_carry_the_offset() {
    // MAP {"b": 1, "a": 2}: "a" at offset 6 is out of order.
    let doc = hex("09 C1 62 0C 81 01 C1 61 0C 81 02 00");
    let e = yac::from_slice::<Value>(&doc).unwrap_err();
    assert_eq!(e.format_error(), Some(yac::Error::MapUnordered));
    assert_eq!(e.offset(), 6);
    assert!(e.to_string().ends_with("at offset 6"), "{e}");
    // A missing field is reported at the MAP's end.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Need {
        x: u8,
    }
    let e = yac::from_slice::<Need>(&hex("09 00")).unwrap_err();
    assert!(
        matches!(e.kind(), ErrorKind::Message(m) if m.contains("x")),
        "{e}"
    );
    // Wrong type at a nested offset.
    let e = yac::from_slice::<Vec<u8>>(&hex("08 0C 81 01 C1 61 00")).unwrap_err();
    assert_eq!(e.offset(), 4, "{e}");
    // Trailing bytes.
    let e = yac::from_slice::<Value>(&hex("01 01")).unwrap_err();
    assert_eq!((e.kind(), e.offset()), (&ErrorKind::TrailingBytes, 1));
    // Unknown fields are skipped, but still validated.
    let bad = hex("09 C1 78 0C 81 01 C1 79 0C 81 00 00");
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct X {
        x: u8,
    }
    let e = yac::from_slice::<X>(&bad).unwrap_err();
    assert_eq!(e.format_error(), Some(yac::Error::IntNonMinimal));
    assert_eq!(e.offset(), 8);
}

#[test]
fn serializing_refuses_what_the_format_has_not() {
    let e = yac::to_vec(&-0.0f64).unwrap_err();
    assert_eq!(e.format_error(), Some(yac::Error::FloatNonMinimal));
    let e = yac::to_vec(&"a\0b").unwrap_err();
    assert_eq!(e.format_error(), Some(yac::Error::BadUtf8));
    let m: BTreeMap<u8, u8> = [(1, 2)].into();
    assert_eq!(
        yac::to_vec(&m).unwrap_err().kind(),
        &ErrorKind::KeyNotString
    );
    let m: BTreeMap<&str, u8> = [("", 2)].into();
    assert_eq!(
        yac::to_vec(&m).unwrap_err().format_error(),
        Some(yac::Error::MapBadKey)
    );
    // A map whose keys collide: two entries, one key.
    struct Twice;
    impl Serialize for Twice {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let mut m = s.serialize_map(None)?;
            m.serialize_entry("k", &1)?;
            m.serialize_entry("j", &2)?;
            m.serialize_entry("k", &3)?;
            m.end()
        }
    }
    let e = yac::to_vec(&Twice).unwrap_err();
    assert_eq!(e.format_error(), Some(yac::Error::MapUnordered));
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let depth = 100_000;
    let mut doc = vec![0x08; depth];
    doc.extend(vec![0x00; depth]);
    let e = yac::from_slice::<Value>(&doc).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::TooDeep);
    assert_eq!(e.offset(), yac::de::MAX_DEPTH as usize);
}

#[test]
fn to_writer_writes_what_to_vec_returns() {
    let mut out = Vec::new();
    yac::to_writer(&mut out, &person()).unwrap();
    assert_eq!(out, yac::to_vec(&person()).unwrap());
}

#[test]
fn values_built_from_rust_types_encode_canonically() {
    let v = Value::Map(vec![
        (
            "zz".into(),
            Value::from(vec![Value::from(-2i64), Value::from(7u64)]),
        ),
        ("a".into(), Value::from("x")),
        ("b".into(), Value::from(vec![1u8, 2])),
        ("c".into(), Value::from(true)),
        ("d".into(), Value::float(0.5).unwrap()),
    ]);
    // Keys in canonical order whatever the order in the Vec.
    let doc = yac::to_vec(&v).unwrap();
    assert_eq!(
        doc,
        hex(
            "09 C161 C178  C162 82 0102  C163 03  C164 10 3800  C27A7A 08 0D 81 01 0C 81 07 00  00"
        )
    );
    assert!(Value::float(-0.0).is_none());
    // Decoding gives the canonical order back.
    let back: Value = yac::from_slice(&doc).unwrap();
    assert_eq!(back.get("zz"), v.get("zz"));
    assert_eq!(back.as_list(), None);
}
