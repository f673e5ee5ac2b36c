//! Human-readable forms of single values, shared by `print` and `atoms`.

use std::fmt::Write as _;

use yac::atom::Atom;
use yac::{float, tai64};

use crate::bigint;

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
    let body = &m[..end];
    match std::str::from_utf8(body) {
        Ok(s) => format!("{s:?}"),
        Err(_) => format!("hex {}", hex(body)),
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
