//! [`Value`]: any YAC item, owned (feature `alloc`; its serde
//! implementations with feature `serde`).
//!
//! Every type of the format has its variant, integers of any size and
//! floats of every width included, so that decoding a document into a
//! `Value` and encoding it again gives the same bytes:
//!
//! ```
//! # #[cfg(feature = "serde")] {
//! let doc = [0x09, 0xC1, b'a', 0x0C, 0x81, 0x7B, 0x00]; // MAP {"a": 123}
//! let v: keks::Value = keks::from_slice(&doc).unwrap();
//! assert_eq!(v.get("a"), Some(&keks::Value::Uint(123)));
//! assert_eq!(keks::to_vec(&v).unwrap(), doc);
//! # }
//! ```

use alloc::string::String;
use alloc::vec::Vec;

/// One YAC item and everything in it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// NIL.
    Nil,
    /// FALSE or TRUE.
    Bool(bool),
    /// A +INT that fits `u64`.
    Uint(u64),
    /// A -INT that fits `i64` (always negative).
    Nint(i64),
    /// Any other integer: its sign and minimal big-endian wire magnitude
    /// (a negative one is -1 - magnitude), as [`crate::Atom::BigInt`].
    BigInt {
        /// -INT rather than +INT.
        negative: bool,
        /// Big-endian, no leading zero byte.
        magnitude: Vec<u8>,
    },
    /// A float as on the wire: big-endian IEEE 754 binary16, 32, 64, 128
    /// or 256, in its shortest exact width ([`Value::float`] makes one
    /// from an `f64`).
    Float(Vec<u8>),
    /// UTF-8 text without NUL.
    Str(String),
    /// Bytes.
    Bin(Vec<u8>),
    /// A BLOB: bytes written in chunks of `chunk_len_minus_one + 1`.
    Blob {
        /// The chunk length minus one, as on the wire.
        chunk_len_minus_one: u64,
        /// The bytes of all chunks.
        data: Vec<u8>,
    },
    /// 16 bytes (UUID, IPv6 address, ...).
    Hexlet([u8; 16]),
    /// A TAI64 (8 bytes), TAI64N (12) or TAI64NA (16) label as on the wire.
    Tai64(Vec<u8>),
    /// The 12 bytes after "KEKS".
    Magic([u8; 12]),
    /// A LIST.
    List(Vec<Value>),
    /// A MAP: keys are unique and non-empty. A decoded MAP has them in
    /// canonical order; `to_vec` (feature `serde`) writes them in that order
    /// whatever the order here.
    Map(Vec<(String, Value)>),
}

impl Value {
    /// A float holding `v` in its shortest exact width (NaN payloads kept);
    /// `None` for negative zero, which the format does not have.
    pub fn float(v: f64) -> Option<Value> {
        let mut b = [0u8; 8];
        let n = crate::float::shortest(v, &mut b).ok()?;
        Some(Value::Float(b.get(..n)?.to_vec()))
    }

    /// The value of `key` in a MAP.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(entries) => entries.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The text of a STR.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// A +INT that fits `u64`.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::Uint(u) => Some(u),
            _ => None,
        }
    }

    /// An integer that fits `i64`.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Uint(u) => i64::try_from(u).ok(),
            Value::Nint(i) => Some(i),
            _ => None,
        }
    }

    /// A float of 16, 32 or 64 bits, widened to `f64` exactly.
    pub fn as_f64(&self) -> Option<f64> {
        match self {
            Value::Float(b) => crate::float::to_f64(b),
            _ => None,
        }
    }

    /// The items of a LIST.
    pub fn as_list(&self) -> Option<&[Value]> {
        match self {
            Value::List(items) => Some(items),
            _ => None,
        }
    }

    /// The entries of a MAP.
    pub fn as_map(&self) -> Option<&[(String, Value)]> {
        match self {
            Value::Map(entries) => Some(entries),
            _ => None,
        }
    }

    /// TRUE or FALSE.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// The bytes of a BIN or of a BLOB's chunks.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::Bin(b) | Value::Blob { data: b, .. } => Some(b),
            _ => None,
        }
    }

    /// The 16 bytes of a HEXLET.
    pub fn as_hexlet(&self) -> Option<&[u8; 16]> {
        match self {
            Value::Hexlet(h) => Some(h),
            _ => None,
        }
    }

    /// Whether this is NIL.
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// Whether this is a STR.
    pub fn is_str(&self) -> bool {
        matches!(self, Value::Str(_))
    }

    /// Whether this is an integer (of any size).
    pub fn is_integer(&self) -> bool {
        matches!(self, Value::Uint(_) | Value::Nint(_) | Value::BigInt { .. })
    }

    /// Whether this is a LIST.
    pub fn is_list(&self) -> bool {
        matches!(self, Value::List(_))
    }

    /// Whether this is a MAP.
    pub fn is_map(&self) -> bool {
        matches!(self, Value::Map(_))
    }

    /// A MAP of `entries`, put in the format's key order (what decoding
    /// gives, so that the two compare equal); [`value!`](crate::value!)
    /// builds its MAPs with it.
    pub fn map(mut entries: Vec<(String, Value)>) -> Value {
        entries.sort_by(|a, b| crate::rules::key_cmp(a.0.as_bytes(), b.0.as_bytes()));
        Value::Map(entries)
    }
}

/// NIL, what indexing gives for a key or index that is not there.
static NIL: Value = Value::Nil;

impl core::ops::Index<&str> for Value {
    type Output = Value;
    /// The value of `key` in a MAP; NIL when absent or not a MAP (as
    /// `serde_json::Value` does), so that `v["a"]["b"]` never panics.
    fn index(&self, key: &str) -> &Value {
        self.get(key).unwrap_or(&NIL)
    }
}

impl core::ops::Index<usize> for Value {
    type Output = Value;
    /// Item `i` of a LIST; NIL when out of range or not a LIST.
    fn index(&self, i: usize) -> &Value {
        self.as_list().and_then(|l| l.get(i)).unwrap_or(&NIL)
    }
}

/// Builds a [`Value`] in a JSON-like syntax: `null`, `[...]`, `{"key":
/// value, ...}` (MAP keys are string literals; the MAP is put in key
/// order), and any expression a `Value` comes `From` (a negative number
/// or an operation in parentheses: `(-1)`).
///
/// ```
/// use keks::{value, Value};
/// let v = value!({"name": "Ann", "tags": ["a", (-1), null], "ok": true});
/// assert_eq!(v["tags"][1], Value::Nint(-1));
/// assert_eq!(v["name"].as_str(), Some("Ann"));
/// assert!(v["missing"].is_nil());
/// # #[cfg(feature = "serde")]
/// assert_eq!(keks::from_slice::<Value>(&keks::to_vec(&v).unwrap()).unwrap(), v);
/// ```
#[macro_export]
macro_rules! value {
    (null) => {
        $crate::Value::Nil
    };
    ([ $($item:tt),* $(,)? ]) => {
        $crate::Value::List($crate::value::__private::Vec::from([$($crate::value!($item)),*]))
    };
    ({ $($key:literal : $item:tt),* $(,)? }) => {
        $crate::Value::map($crate::value::__private::Vec::from([$(
            ($crate::value::__private::String::from($key), $crate::value!($item))
        ),*]))
    };
    ($other:expr) => {
        $crate::Value::from($other)
    };
}

#[doc(hidden)]
pub mod __private {
    pub use alloc::string::String;
    pub use alloc::vec::Vec;
}

impl From<bool> for Value {
    fn from(v: bool) -> Value {
        Value::Bool(v)
    }
}

impl From<u64> for Value {
    fn from(v: u64) -> Value {
        Value::Uint(v)
    }
}

impl From<i64> for Value {
    /// `Uint` for 0 and above, `Nint` below.
    fn from(v: i64) -> Value {
        match u64::try_from(v) {
            Ok(u) => Value::Uint(u),
            Err(_) => Value::Nint(v),
        }
    }
}

/// The integer types below 64 bits, as their 64-bit kin.
macro_rules! from_small_ints {
    ($($t:ty => $via:ty),*) => {$(
        impl From<$t> for Value {
            fn from(v: $t) -> Value {
                Value::from(<$via>::from(v))
            }
        }
    )*};
}

from_small_ints!(u8 => u64, u16 => u64, u32 => u64, i8 => i64, i16 => i64, i32 => i64);

impl From<u128> for Value {
    /// `Uint` when it fits, else a `BigInt`.
    fn from(v: u128) -> Value {
        match u64::try_from(v) {
            Ok(u) => Value::Uint(u),
            Err(_) => Value::BigInt {
                negative: false,
                magnitude: crate::rules::strip_zeros(&v.to_be_bytes()).to_vec(),
            },
        }
    }
}

impl From<i128> for Value {
    /// `Uint`/`Nint` when it fits, else a `BigInt`.
    fn from(v: i128) -> Value {
        match (u128::try_from(v), i64::try_from(v)) {
            (Ok(u), _) => Value::from(u),
            (_, Ok(i)) => Value::Nint(i),
            _ => Value::BigInt {
                negative: true,
                magnitude: crate::rules::strip_zeros(&((-1 - v) as u128).to_be_bytes()).to_vec(),
            },
        }
    }
}

impl From<[u8; 16]> for Value {
    /// A HEXLET.
    fn from(v: [u8; 16]) -> Value {
        Value::Hexlet(v)
    }
}

impl<T: Into<Value>> From<Option<T>> for Value {
    /// NIL for `None`.
    fn from(v: Option<T>) -> Value {
        v.map_or(Value::Nil, Into::into)
    }
}

impl From<&str> for Value {
    fn from(v: &str) -> Value {
        Value::Str(v.into())
    }
}

impl From<String> for Value {
    fn from(v: String) -> Value {
        Value::Str(v)
    }
}

impl From<Vec<u8>> for Value {
    /// A BIN.
    fn from(v: Vec<u8>) -> Value {
        Value::Bin(v)
    }
}

impl From<Vec<Value>> for Value {
    /// A LIST.
    fn from(v: Vec<Value>) -> Value {
        Value::List(v)
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    use alloc::string::String;
    use alloc::vec::Vec;
    use core::fmt;

    use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
    use serde::ser::{Serialize, SerializeMap, SerializeSeq, Serializer};

    use super::Value;
    use crate::serde::ext::{self, Ext};

    struct ByteBuf(Vec<u8>);

    impl<'de> Deserialize<'de> for ByteBuf {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl Visitor<'_> for V {
                type Value = ByteBuf;
                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("bytes")
                }
                fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<ByteBuf, E> {
                    Ok(ByteBuf(v.to_vec()))
                }
                fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<ByteBuf, E> {
                    Ok(ByteBuf(v))
                }
            }
            d.deserialize_byte_buf(V)
        }
    }

    /// `v`'s big-endian bytes without leading zeros.
    fn trim(v: &[u8]) -> Vec<u8> {
        crate::rules::strip_zeros(v).to_vec()
    }

    fn magnitude_u128(m: &[u8]) -> Option<u128> {
        (m.len() <= 16).then(|| m.iter().fold(0u128, |v, &b| (v << 8) | u128::from(b)))
    }

    impl Serialize for Value {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                Value::Nil => s.serialize_unit(),
                Value::Bool(b) => s.serialize_bool(*b),
                Value::Uint(u) => s.serialize_u64(*u),
                Value::Nint(i) => s.serialize_i64(*i),
                Value::BigInt {
                    negative,
                    magnitude,
                } => match magnitude_u128(magnitude) {
                    Some(m) if !negative => s.serialize_u128(m),
                    Some(m) if m <= i128::MAX as u128 => s.serialize_i128(-1 - m as i128),
                    _ if *negative => ext::serialize(s, Ext::BigNeg, magnitude),
                    _ => ext::serialize(s, Ext::BigPos, magnitude),
                },
                Value::Float(b) => match crate::float::to_f64(b) {
                    Some(f) => s.serialize_f64(f),
                    None => ext::serialize(s, Ext::Float, b),
                },
                Value::Str(t) => s.serialize_str(t),
                Value::Bin(b) => s.serialize_bytes(b),
                Value::Blob {
                    chunk_len_minus_one,
                    data,
                } => {
                    let mut b = chunk_len_minus_one.to_be_bytes().to_vec();
                    b.extend_from_slice(data);
                    ext::serialize(s, Ext::Blob, &b)
                }
                Value::Hexlet(h) => ext::serialize(s, Ext::Hexlet, h),
                Value::Tai64(t) => ext::serialize(s, Ext::Tai64, t),
                Value::Magic(m) => ext::serialize(s, Ext::Magic, m),
                Value::List(items) => {
                    let mut seq = s.serialize_seq(Some(items.len()))?;
                    for v in items {
                        seq.serialize_element(v)?;
                    }
                    seq.end()
                }
                Value::Map(entries) => {
                    let mut map = s.serialize_map(Some(entries.len()))?;
                    for (k, v) in entries {
                        map.serialize_entry(k, v)?;
                    }
                    map.end()
                }
            }
        }
    }

    impl<'de> Deserialize<'de> for Value {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            d.deserialize_any(ValueVisitor)
        }
    }

    struct ValueVisitor;

    impl<'de> Visitor<'de> for ValueVisitor {
        type Value = Value;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("any YAC value")
        }
        fn visit_unit<E: de::Error>(self) -> Result<Value, E> {
            Ok(Value::Nil)
        }
        fn visit_none<E: de::Error>(self) -> Result<Value, E> {
            Ok(Value::Nil)
        }
        fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            Value::deserialize(d)
        }
        fn visit_newtype_struct<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
            Value::deserialize(d)
        }
        fn visit_bool<E: de::Error>(self, v: bool) -> Result<Value, E> {
            Ok(Value::Bool(v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<Value, E> {
            Ok(Value::Uint(v))
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<Value, E> {
            Ok(match u64::try_from(v) {
                Ok(u) => Value::Uint(u),
                Err(_) => Value::Nint(v),
            })
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> Result<Value, E> {
            Ok(match u64::try_from(v) {
                Ok(u) => Value::Uint(u),
                Err(_) => Value::BigInt {
                    negative: false,
                    magnitude: trim(&v.to_be_bytes()),
                },
            })
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> Result<Value, E> {
            if v >= 0 {
                return self.visit_u128(v as u128);
            }
            Ok(match i64::try_from(v) {
                Ok(i) => Value::Nint(i),
                Err(_) => Value::BigInt {
                    negative: true,
                    magnitude: trim(&((-1 - v) as u128).to_be_bytes()),
                },
            })
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<Value, E> {
            Value::float(v).ok_or_else(|| E::custom("negative zero has no YAC float"))
        }
        fn visit_str<E: de::Error>(self, v: &str) -> Result<Value, E> {
            Ok(Value::Str(v.into()))
        }
        fn visit_string<E: de::Error>(self, v: String) -> Result<Value, E> {
            Ok(Value::Str(v))
        }
        fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Value, E> {
            Ok(Value::Bin(v.into()))
        }
        fn visit_byte_buf<E: de::Error>(self, v: Vec<u8>) -> Result<Value, E> {
            Ok(Value::Bin(v))
        }
        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
            let mut items = Vec::new();
            while let Some(v) = seq.next_element()? {
                items.push(v);
            }
            Ok(Value::List(items))
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
            let mut entries = Vec::new();
            while let Some(e) = map.next_entry::<String, Value>()? {
                entries.push(e);
            }
            Ok(Value::Map(entries))
        }
        fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
            use de::VariantAccess;
            let (variant, access): (String, A::Variant) = data.variant()?;
            let b = access.newtype_variant::<ByteBuf>()?.0;
            let wrong = || de::Error::invalid_length(b.len(), &"the atom's length");
            let kind = Ext::from_name(&variant)
                .ok_or_else(|| de::Error::unknown_variant(&variant, ext::VARIANTS))?;
            Ok(match kind {
                Ext::Hexlet => Value::Hexlet(b.as_slice().try_into().map_err(|_| wrong())?),
                Ext::Tai64 => Value::Tai64(b),
                Ext::Magic => Value::Magic(b.as_slice().try_into().map_err(|_| wrong())?),
                Ext::Float => Value::Float(b),
                Ext::BigPos | Ext::BigNeg => Value::BigInt {
                    negative: kind == Ext::BigNeg,
                    magnitude: b,
                },
                Ext::Blob => {
                    let (head, data) = b.split_first_chunk::<8>().ok_or_else(wrong)?;
                    Value::Blob {
                        chunk_len_minus_one: u64::from_be_bytes(*head),
                        data: data.to_vec(),
                    }
                }
            })
        }
    }
}
