//! The text form of items (feature `alloc`): what the `yac` tool's `print`
//! and `atoms` commands show and what [`Value`]'s `Display` writes, one
//! home for both. One item per line, two spaces per nesting level, MAP keys
//! before their values, containers with their sizes:
//!
//! ```
//! let v = keks::value!({"a": [1, (-2)], "b": "x"});
//! assert_eq!(
//!     v.to_string(),
//!     "MAP (2 pairs)\n  \"a\": LIST (2 items)\n    +INT 1\n    -INT -2\n  \"b\": STR 1 \"x\"\n"
//! );
//! ```
//!
//! Also the hex, UUID, decimal and UTC forms the tool's JSON conversion
//! writes and reads.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::{self, Write as _};

use crate::atom::Atom;
use crate::value::Value;
use crate::{bigint, float, tai64};

/// `print` and `atoms` indent by at most this many levels: deeper lines
/// carry their depth instead, so that the output of a deeply nested
/// document grows with its size, not with the square of its depth.
pub const MAX_INDENT: usize = 32;

/// Two spaces per level of `depth` (at most [`MAX_INDENT`] levels; beyond,
/// the depth in brackets).
pub fn indent(s: &mut String, depth: usize) {
    for _ in 0..depth.min(MAX_INDENT) {
        s.push_str("  ");
    }
    if depth > MAX_INDENT {
        let _ = write!(s, "[{depth}] ");
    }
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}

/// Bytes of a hex string (either case, even length), `None` if malformed.
pub fn unhex(s: &str) -> Option<Vec<u8>> {
    let b = s.as_bytes();
    if b.len() % 2 != 0 {
        return None;
    }
    b.chunks(2)
        .map(|p| {
            let d = |c: u8| (c as char).to_digit(16);
            Some((d(p[0])? * 16 + d(p[1])?) as u8)
        })
        .collect()
}

/// A HEXLET in the UUID form 8-4-4-4-12, lowercase.
pub fn uuid(h: &[u8; 16]) -> String {
    let x = hex(h);
    format!(
        "{}-{}-{}-{}-{}",
        &x[0..8],
        &x[8..12],
        &x[12..16],
        &x[16..20],
        &x[20..32]
    )
}

/// A HEXLET from the UUID form or 32 plain hex digits.
pub fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let dashes = [8, 13, 18, 23];
    let plain: String = if s.len() == 36 {
        if !dashes.iter().all(|&i| s.as_bytes().get(i) == Some(&b'-')) {
            return None;
        }
        s.chars().filter(|&c| c != '-').collect()
    } else {
        s.to_string()
    };
    if plain.len() != 32 {
        return None;
    }
    unhex(&plain)?.try_into().ok()
}

/// The decimal value of an integer atom.
pub fn integer(a: &Atom<'_>) -> Option<String> {
    Some(match *a {
        Atom::Uint(u) => u.to_string(),
        Atom::Nint(i) => i.to_string(),
        Atom::BigInt {
            negative: false,
            magnitude,
        } => bigint::to_decimal(magnitude),
        Atom::BigInt {
            negative: true,
            magnitude,
        } => format!("-{}", bigint::to_decimal(&bigint::add_one(magnitude))),
        _ => return None,
    })
}

/// A float's width name (FLOAT16 ... FLOAT256).
fn float_name(bytes: &[u8]) -> &'static str {
    match bytes.len() {
        2 => "FLOAT16",
        4 => "FLOAT32",
        8 => "FLOAT64",
        16 => "FLOAT128",
        _ => "FLOAT256",
    }
}

/// A finite binary16/32/64 as a number that reads back exactly (Rust's
/// shortest round-trip form, always with a '.' or an exponent, so that it
/// is a float in JSON too); `None` for other floats.
pub fn float_number(bytes: &[u8]) -> Option<String> {
    let v = float::to_f64(bytes).filter(|v| v.is_finite())?;
    Some(format!("{v:?}"))
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (H. Hinnant's civil_from_days).
fn civil(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// A TAI64/N/NA label as UTC: "2024-11-20 12:19:08.921772500 UTC", with
/// the nanoseconds for TAI64N, nano- and attoseconds for TAI64NA, and
/// 23:59:60 inside a leap second. `None` if out of range.
pub fn tai64_utc(label: &[u8]) -> Option<String> {
    let tai = tai64::label_to_tai(label).ok()?;
    let utc = tai64::tai_to_utc(&tai).ok()?;
    let days = utc.secs.div_euclid(86_400);
    let sod = utc.secs.rem_euclid(86_400);
    let (y, mo, d) = civil(days);
    let (h, mi, mut s) = (sod / 3600, sod / 60 % 60, sod % 60);
    if utc.leap {
        s += 1;
    }
    let frac = match label.len() {
        8 => String::new(),
        12 => format!(".{:09}", utc.nsec),
        _ => format!(".{:09}{:09}", utc.nsec, tai.asec),
    };
    Some(format!(
        "{y:04}-{mo:02}-{d:02} {h:02}:{mi:02}:{s:02}{frac} UTC"
    ))
}

/// One atom as text: type, then length and value. Containers are their
/// opening atoms (the tree printer adds the counts).
pub fn describe(a: &Atom<'_>) -> String {
    match *a {
        Atom::Eoc => "EOC".into(),
        Atom::Nil => "NIL".into(),
        Atom::Bool(false) => "FALSE".into(),
        Atom::Bool(true) => "TRUE".into(),
        Atom::Hexlet(h) => format!("HEXLET {}", uuid(h)),
        Atom::Uint(_)
        | Atom::BigInt {
            negative: false, ..
        } => {
            format!("+INT {}", integer(a).unwrap_or_default())
        }
        Atom::Nint(_) | Atom::BigInt { negative: true, .. } => {
            format!("-INT {}", integer(a).unwrap_or_default())
        }
        Atom::List => "LIST".into(),
        Atom::Map => "MAP".into(),
        Atom::Blob {
            chunk_len_minus_one,
        } => format!("BLOB chunk {}", u128::from(chunk_len_minus_one) + 1),
        Atom::Float(b) => match float_number(b) {
            Some(n) => format!("{} {n}", float_name(b)),
            None => match float::to_f64(b) {
                Some(v) => format!("{} {v}", float_name(b)),
                None => format!("{} {}", float_name(b), hex(b)),
            },
        },
        Atom::Tai64(l) => {
            let name = match l.len() {
                8 => "TAI64",
                12 => "TAI64N",
                _ => "TAI64NA",
            };
            match tai64_utc(l) {
                Some(t) => format!("{name} {t}"),
                None => format!("{name} {}", hex(l)),
            }
        }
        Atom::Magic(m) => format!("MAGIC {}", magic_text(m)),
        Atom::Bin(b) => format!("BIN {} {}", b.len(), hex(b)),
        Atom::Str(s) => format!("STR {} {s:?}", s.len()),
    }
}

/// A MAGIC's 12 bytes, trailing zero bytes dropped, as a quoted string
/// (escapes for anything unprintable).
fn magic_text(m: &[u8; 12]) -> String {
    let end = m.iter().rposition(|&b| b != 0).map_or(0, |p| p + 1);
    let body = m.get(..end).unwrap_or(&[]);
    match core::str::from_utf8(body) {
        Ok(s) => format!("{s:?}"),
        Err(_) => format!("hex {}", hex(body)),
    }
}

/// What a container line says after its opening atom.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Size {
    /// A LIST of this many items.
    List(usize),
    /// A MAP of this many pairs.
    Map(usize),
    /// A BLOB of this many chunks and bytes.
    Blob {
        /// Its chunks (BIN items), the last one shorter.
        chunks: usize,
        /// The bytes of all chunks.
        bytes: u64,
    },
}

/// "1 item", "2 items".
pub fn plural(n: u64, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// Appends one line of the tree form to `s`: the indent for `depth`, the
/// MAP key if any, the atom and, for a container, its size.
pub fn line(s: &mut String, depth: usize, key: Option<&str>, a: &Atom<'_>, size: Option<Size>) {
    indent(s, depth);
    if let Some(k) = key {
        let _ = write!(s, "{k:?}: ");
    }
    s.push_str(&describe(a));
    let _ = match size {
        None => Ok(()),
        Some(Size::List(n)) => write!(s, " ({})", plural(n as u64, "item", "items")),
        Some(Size::Map(n)) => write!(s, " ({})", plural(n as u64, "pair", "pairs")),
        Some(Size::Blob { chunks, bytes }) => write!(
            s,
            " ({}, {})",
            plural(chunks as u64, "chunk", "chunks"),
            plural(bytes, "byte", "bytes")
        ),
    };
    s.push('\n');
}

/// The atom that opens `v` (a container's opening atom), and its size.
fn value_atom(v: &Value) -> (Atom<'_>, Option<Size>) {
    let atom = match v {
        Value::Nil => Atom::Nil,
        Value::Bool(b) => Atom::Bool(*b),
        Value::Uint(u) => Atom::Uint(*u),
        Value::Nint(i) => Atom::Nint(*i),
        Value::BigInt {
            negative,
            magnitude,
        } => Atom::BigInt {
            negative: *negative,
            magnitude,
        },
        Value::Float(b) => Atom::Float(b),
        Value::Str(t) => Atom::Str(t),
        Value::Bin(b) => Atom::Bin(b),
        Value::Hexlet(h) => Atom::Hexlet(h),
        Value::Tai64(t) => Atom::Tai64(t),
        Value::Magic(m) => Atom::Magic(m),
        Value::List(items) => return (Atom::List, Some(Size::List(items.len()))),
        Value::Map(entries) => return (Atom::Map, Some(Size::Map(entries.len()))),
        Value::Blob {
            chunk_len_minus_one,
            data,
        } => {
            let chunks = blob_chunks(*chunk_len_minus_one, data).count();
            let size = Size::Blob {
                chunks,
                bytes: data.len() as u64,
            };
            return (
                Atom::Blob {
                    chunk_len_minus_one: *chunk_len_minus_one,
                },
                Some(size),
            );
        }
    };
    (atom, None)
}

/// A BLOB's chunks as the wire has them: full ones, then a shorter last
/// one (empty when the data fills the full ones exactly).
fn blob_chunks(chunk_len_minus_one: u64, data: &[u8]) -> impl Iterator<Item = &[u8]> {
    let len = usize::try_from(chunk_len_minus_one)
        .ok()
        .and_then(|l| l.checked_add(1))
        .unwrap_or(usize::MAX);
    let full = data.len() / len;
    let (head, last) = data.split_at(full * len);
    head.chunks(len).chain(core::iter::once(last))
}

/// One step of the tree walk: a value to print under an optional key, or a
/// BLOB chunk.
enum Next<'v> {
    Item(Option<&'v str>, &'v Value),
    Chunk(&'v [u8]),
}

/// `v`'s tree form, one line per item, walked with a stack of its own
/// whatever the nesting depth.
fn value_text(v: &Value) -> String {
    let mut s = String::new();
    let mut stack: Vec<(usize, Next<'_>)> = Vec::from([(0, Next::Item(None, v))]);
    while let Some((depth, next)) = stack.pop() {
        let (key, v) = match next {
            Next::Chunk(c) => {
                line(&mut s, depth, None, &Atom::Bin(c), None);
                continue;
            }
            Next::Item(key, v) => (key, v),
        };
        let (atom, size) = value_atom(v);
        line(&mut s, depth, key, &atom, size);
        let inner = depth + 1;
        match v {
            Value::List(items) => {
                stack.extend(items.iter().rev().map(|i| (inner, Next::Item(None, i))))
            }
            Value::Map(entries) => stack.extend(
                entries
                    .iter()
                    .rev()
                    .map(|(k, i)| (inner, Next::Item(Some(k.as_str()), i))),
            ),
            Value::Blob {
                chunk_len_minus_one,
                data,
            } => {
                let chunks: Vec<&[u8]> = blob_chunks(*chunk_len_minus_one, data).collect();
                stack.extend(chunks.into_iter().rev().map(|c| (inner, Next::Chunk(c))));
            }
            _ => {}
        }
    }
    s
}

impl fmt::Display for Value {
    /// The tree form of `yac print`: one item per line, two spaces per
    /// level, MAP keys before their values, containers with their sizes
    /// ([`line()`]), each line ending in a newline.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&value_text(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tai64_vectors_as_utc() {
        let cases: [(&str, &str); 5] = [
            ("400000000000000a", "1970-01-01 00:00:00 UTC"),
            ("400000002a2b2c2d", "1992-06-02 08:06:43 UTC"),
            ("40000000586846a3", "2016-12-31 23:59:59 UTC"),
            ("40000000586846a5", "2017-01-01 00:00:00 UTC"),
            (
                "40000000673dd3e136f121d4",
                "2024-11-20 12:19:08.921772500 UTC",
            ),
        ];
        for (label, text) in cases {
            assert_eq!(tai64_utc(&unhex(label).unwrap()).as_deref(), Some(text));
        }
        // The inserted second before 2017-01-01.
        let leap = unhex("40000000586846a4").unwrap();
        assert_eq!(tai64_utc(&leap).as_deref(), Some("2016-12-31 23:59:60 UTC"));
    }

    #[test]
    fn uuid_both_ways() {
        let h = parse_uuid("0e875e3f-d385-49eb-87b4-be42d641c367").unwrap();
        assert_eq!(uuid(&h), "0e875e3f-d385-49eb-87b4-be42d641c367");
        assert_eq!(parse_uuid("0E875E3FD38549EB87B4BE42D641C367"), Some(h));
        assert_eq!(parse_uuid("0e875e3f-d385-49eb-87b4-be42d641c36"), None);
        assert_eq!(parse_uuid("0e875e3fxd385-49eb-87b4-be42d641c367"), None);
    }

    #[test]
    fn floats_read_back() {
        for v in [0.1f64, 1.0, 1e300, -2.5e-300, 65504.0, 1e16] {
            let s = float_number(&v.to_bits().to_be_bytes()).unwrap();
            assert_eq!(s.parse::<f64>().unwrap(), v);
            assert!(s.contains('.') || s.contains('e'), "{s}");
        }
        assert_eq!(float_number(&[0x7C, 0x00]), None); // +inf
    }
}
