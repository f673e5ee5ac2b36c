//! The serde data model mapping table of `keks::serde` and docs/rust.md,
//! row by row: what each Rust type writes (the bytes, from FORMAT.md's
//! encodings) and what it reads back from.
#![cfg(feature = "serde")]

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use keks::serde::ErrorKind;
use keks::Value;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_bytes::ByteBuf;
use yac_testkit::vectors::bytes;

/// `v` writes exactly `hex` and reads back equal.
fn row<T: Serialize + DeserializeOwned + PartialEq + Debug>(v: T, hex: &str) {
    let doc = keks::to_vec(&v).unwrap_or_else(|e| panic!("{v:?}: {e}"));
    assert_eq!(doc, bytes(hex), "{v:?} writes {hex}");
    assert_eq!(keks::from_slice::<T>(&doc).unwrap(), v, "{hex} reads back");
}

/// `hex` reads as `want` into a `T`.
fn reads<T: DeserializeOwned + PartialEq + Debug>(hex: &str, want: T) {
    assert_eq!(keks::from_slice::<T>(&bytes(hex)).unwrap(), want, "{hex}");
}

/// `hex` does not read into a `T`.
fn refused<T: DeserializeOwned + Debug>(hex: &str) {
    let got = keks::from_slice::<T>(&bytes(hex));
    assert!(got.is_err(), "{hex} read as {got:?}");
}

#[test]
fn bool_row() {
    row(false, "02");
    row(true, "03");
}

#[test]
fn unsigned_rows() {
    row(0u8, "0C 80");
    row(5u16, "0C 81 05");
    row(u32::MAX, "0C 84 FFFFFFFF");
    row(u64::MAX, "0C 88 FFFFFFFFFFFFFFFF");
    row(1u128 << 64, "0C 89 010000000000000000");
    row(u128::MAX, "0C 90 FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
    // Any +INT that fits; a -INT or a too large one is refused.
    reads::<u8>("0C 81 FF", 255);
    refused::<u8>("0C 82 0100");
    refused::<u64>("0D 80");
}

#[test]
fn signed_rows() {
    row(0i8, "0C 80");
    row(-1i8, "0D 80");
    row(-124i16, "0D 81 7B");
    row(i64::MIN, "0D 88 7FFFFFFFFFFFFFFF");
    row(i128::MIN, "0D 90 7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF");
    row(-(1i128 << 64) - 1, "0D 89 010000000000000000");
    reads::<i32>("0C 81 7B", 123);
    refused::<i8>("0D 81 80"); // -129
}

/// An `f64` compared by its bits (NaN included).
#[derive(Debug, Serialize, Deserialize)]
#[serde(transparent)]
struct Bits(f64);

impl PartialEq for Bits {
    fn eq(&self, o: &Bits) -> bool {
        self.0.to_bits() == o.0.to_bits()
    }
}

#[test]
fn float_rows() {
    // The shortest width that holds the value exactly.
    row(1.5f64, "10 3E00");
    row(1.5f32, "10 3E00");
    row(0.1f32, "11 3DCCCCCD");
    row(0.1f64, "12 3FB999999999999A");
    row(f64::INFINITY, "10 7C00");
    row(f64::MIN_POSITIVE / 2.0, "12 0008000000000000"); // subnormal
    row(Bits(f64::NAN), "10 7E00");
    row(
        Bits(f64::from_bits(0x7FF0_0000_0000_0001)),
        "12 7FF0000000000001",
    );
    // -0.0 is refused when written.
    let e = keks::to_vec(&-0.0f64).unwrap_err();
    assert_eq!(e.kind(), &ErrorKind::NegativeZero);
    // Read back bit for bit into f64; into f32 narrowed as `as` does.
    reads::<f64>("10 3E00", 1.5);
    reads::<f32>("12 3FB999999999999A", 0.1);
}

#[test]
fn text_rows() {
    row('é', "C2 C3A9");
    row(String::from("hi"), "C2 6869");
    refused::<char>("C2 6162"); // two chars
                                // &str borrows from the input.
    let doc = bytes("C2 6869");
    let s: &str = keks::from_slice(&doc).unwrap();
    assert!(doc.as_ptr_range().contains(&s.as_ptr()));
    assert!(keks::to_vec("a\0b").is_err());
}

#[test]
fn bytes_rows() {
    row(ByteBuf::from(vec![1, 2]), "82 0102");
    let doc = bytes("82 0102");
    let b: &[u8] = keks::from_slice(&doc).unwrap();
    assert!(doc.as_ptr_range().contains(&b.as_ptr()));
    // A BLOB's chunks joined; the payload of HEXLET, TAI64 and MAGIC.
    reads(
        "0B 0000000000000001 82 3132 82 3334 81 35",
        ByteBuf::from(b"12345".to_vec()),
    );
    reads(
        "04 0E875E3FD38549EB87B4BE42D641C367",
        ByteBuf::from(bytes("0E875E3FD38549EB87B4BE42D641C367")),
    );
    reads(
        "18 40000000586846A5",
        ByteBuf::from(bytes("40000000586846A5")),
    );
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Unit;

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Newtype(u8);

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Pair(u8, String);

#[test]
fn option_unit_newtype_rows() {
    row(None::<u8>, "01");
    row(Some(5u8), "0C 81 05");
    row((), "01");
    row(Unit, "01");
    row(Newtype(5), "0C 81 05");
}

#[test]
fn sequence_rows() {
    row(vec![1u8, 2], "08 0C8101 0C8102 00");
    row((1u8, String::from("a")), "08 0C8101 C161 00");
    row(Pair(1, "a".into()), "08 0C8101 C161 00");
    row([7u8; 2], "08 0C8107 0C8107 00");
    refused::<(u8, u8)>("08 0C8101 0C8102 0C8103 00");
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Record {
    zz: u8,
    a: bool,
}

#[test]
fn map_and_struct_rows() {
    // Keys in canonical order (shorter first, then bytewise) whatever the
    // source order.
    let m = BTreeMap::from([("bb".to_string(), 1u8), ("c".to_string(), 2)]);
    row(m, "09 C163 0C8102 C26262 0C8101 00");
    row(Record { zz: 1, a: true }, "09 C161 03 C27A7A 0C8101 00");
    // Unknown fields are skipped.
    reads(
        "09 C161 03 C162 01 C27A7A 0C8101 00",
        Record { zz: 1, a: true },
    );
    // A duplicate or empty key is refused.
    struct Dup;
    impl Serialize for Dup {
        fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            s.collect_map([("a", 1), ("a", 2)])
        }
    }
    assert!(keks::to_vec(&Dup).is_err());
    assert!(keks::to_vec(&BTreeMap::from([("", 1)])).is_err());
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
enum E {
    A,
    B(u8),
    C(u8, u8),
    D { f: u8 },
}

#[test]
fn enum_rows() {
    row(E::A, "C1 41");
    row(E::B(5), "09 C142 0C8105 00");
    row(E::C(1, 2), "09 C143 08 0C8101 0C8102 00 00");
    row(E::D { f: 1 }, "09 C144 09 C166 0C8101 00 00");
}

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct At(#[serde(with = "keks::serde::tai64")] SystemTime);

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Id(#[serde(with = "keks::serde::hexlet")] [u8; 16]);

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Kind(#[serde(with = "keks::serde::magic")] [u8; 12]);

#[test]
fn with_module_rows() {
    // 2017-01-01 00:00:00 UTC: FORMAT.md's TAI64 vector.
    let new_year = UNIX_EPOCH + Duration::from_secs(1_483_228_800);
    row(At(new_year), "18 40000000586846A5");
    row(
        At(new_year + Duration::from_nanos(5)),
        "19 40000000586846A5 00000005",
    );
    // TAI64NA: the attoseconds are dropped.
    reads(
        "1A 40000000586846A5 00000005 00000007",
        At(new_year + Duration::from_nanos(5)),
    );
    row(
        Id(bytes("0E875E3FD38549EB87B4BE42D641C367")
            .try_into()
            .unwrap()),
        "04 0E875E3FD38549EB87B4BE42D641C367",
    );
    row(
        Kind(*b"cm/pub\0\0\0\0\0\0"),
        "4B454B53 636D2F707562 000000000000",
    );
    refused::<Id>("82 0102");
}

/// Every `with` module's `option` twin, with `default` for absent fields.
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Maybe {
    #[serde(with = "keks::serde::tai64::option", default)]
    at: Option<SystemTime>,
    #[serde(with = "keks::serde::hexlet::option", default)]
    id: Option<[u8; 16]>,
    #[serde(with = "keks::serde::magic::option", default)]
    kind: Option<[u8; 12]>,
}

#[test]
fn option_module_rows() {
    // `None` is NIL; `Some` is what the plain module writes.
    let none = Maybe {
        at: None,
        id: None,
        kind: None,
    };
    row(none, "09 C2 6174 01 C2 6964 01 C4 6B696E64 01 00");
    let some = Maybe {
        at: Some(UNIX_EPOCH + Duration::from_secs(1_483_228_800)),
        id: Some([0xAB; 16]),
        kind: Some(*b"cm/pub\0\0\0\0\0\0"),
    };
    let hexlet = "04 ABABABABABABABABABABABABABABABAB";
    let magic = "4B454B53 636D2F707562 000000000000";
    let doc = format!("09 C2 6174 18 40000000586846A5 C2 6964 {hexlet} C4 6B696E64 {magic} 00");
    row(some, &doc);
    // An absent field reads as `None` (`default`); a wrong type is refused.
    reads(
        &format!("09 C2 6964 {hexlet} 00"),
        Maybe {
            at: None,
            id: Some([0xAB; 16]),
            kind: None,
        },
    );
    refused::<Maybe>("09 C2 6964 0C 81 05 00");
}

#[cfg(feature = "uuid")]
#[test]
fn uuid_row() {
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct U(#[serde(with = "keks::serde::uuid")] uuid::Uuid);
    let u = uuid::Uuid::from_u128(0x0E87_5E3F_D385_49EB_87B4_BE42_D641_C367);
    row(U(u), "04 0E875E3FD38549EB87B4BE42D641C367");
    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct MaybeU(#[serde(with = "keks::serde::uuid::option")] Option<uuid::Uuid>);
    row(MaybeU(Some(u)), "04 0E875E3FD38549EB87B4BE42D641C367");
    row(MaybeU(None), "01");
}

#[test]
fn value_rows() {
    // What no Rust type holds: integers beyond 128 bits, FLOAT128, BLOBs
    // with their chunk size; byte for byte.
    for hex in [
        "0C 91 0100000000000000000000000000000000",
        "0D 91 0100000000000000000000000000000000",
        "13 3FFF0000000000000000000000000001",
        "0B 0000000000000001 82 3132 80",
    ] {
        let v: Value = keks::from_slice(&bytes(hex)).unwrap();
        assert_eq!(keks::to_vec(&v).unwrap(), bytes(hex), "{v:?}");
    }
    // Value's Display gives their decimal digits: 2^128.
    let v: Value = keks::from_slice(&bytes("0C 91 0100000000000000000000000000000000")).unwrap();
    assert_eq!(
        v.to_string(),
        "+INT 340282366920938463463374607431768211456\n"
    );
}
