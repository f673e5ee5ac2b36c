//! `from_slice` on any input, into `Value` and into typed structs (every
//! serde data-model type, borrowed strings and bytes, the with-modules,
//! the time crates' types):
//! never a panic. What it accepts must write back: a `Value` to the very
//! bytes it was read from (the format has one encoding per value), a typed
//! value to a document that reads back to the same bytes again.
#![no_main]

use std::collections::{BTreeMap, HashMap};
use std::time::SystemTime;

use libfuzzer_sys::fuzz_target;
use serde::{Deserialize, Serialize};
use yac::Value;

#[derive(Serialize, Deserialize)]
enum Kind<'a> {
    Unit,
    Newtype(i32),
    Tuple(u8, char),
    Struct { s: &'a str },
}

#[derive(Serialize, Deserialize)]
struct Unit;

#[derive(Serialize, Deserialize)]
struct Flat<'a> {
    b: bool,
    i: i64,
    u: u128,
    n: i128,
    f: f64,
    g: f32,
    c: Option<char>,
    s: &'a str,
    #[serde(with = "serde_bytes")]
    raw: &'a [u8],
    list: Vec<u16>,
    map: HashMap<String, i8>,
    kind: Kind<'a>,
    t: (u8, String, ()),
    unit: Unit,
}

#[derive(Serialize, Deserialize)]
struct Formats {
    #[serde(with = "yac::serde::tai64")]
    at: SystemTime,
    #[serde(with = "yac::serde::hexlet")]
    id: [u8; 16],
    #[serde(with = "yac::serde::magic")]
    magic: [u8; 12],
}

/// The time crates' types: every TAI64 label, in range or not, leap
/// second or not, reads or is refused without a panic.
#[derive(Serialize, Deserialize)]
struct Times {
    #[serde(with = "yac::serde::tai64::time")]
    t: time::OffsetDateTime,
    #[serde(with = "yac::serde::tai64::time::utc")]
    u: time::UtcDateTime,
    #[serde(with = "yac::serde::tai64::chrono")]
    c: chrono::DateTime<chrono::Utc>,
    #[serde(with = "yac::serde::tai64::jiff")]
    j: jiff::Timestamp,
}

#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Any<'a> {
    #[serde(borrow)]
    Flat(Box<Flat<'a>>),
    Formats(Formats),
    Kinds(Vec<Kind<'a>>),
    Deep(BTreeMap<String, Vec<Option<Box<Any<'a>>>>>),
}

/// A typed value that `from_slice` accepted writes a document that reads
/// back and writes the same bytes again (a macro: each read borrows from
/// its own input).
macro_rules! typed_round_trip {
    ($t:ty, $data:expr) => {
        if let Ok(v) = yac::from_slice::<$t>($data) {
            let doc = yac::to_vec(&v).expect("what was read writes");
            let again = yac::from_slice::<$t>(&doc).expect("what was written reads");
            assert_eq!(yac::to_vec(&again).expect("writes again"), doc);
        }
    };
}

fuzz_target!(|data: &[u8]| {
    if let Ok(v) = yac::from_slice::<Value>(data) {
        assert_eq!(yac::to_vec(&v).expect("a Value read writes"), data);
        let _ = v.to_string();
    }
    typed_round_trip!(Flat, data);
    typed_round_trip!(Formats, data);
    typed_round_trip!(Times, data);
    typed_round_trip!(Vec<Kind>, data);
    typed_round_trip!(Any, data);
    let _ = yac::from_reader::<_, Value>(data);
});
