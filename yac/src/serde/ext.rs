//! The atoms serde has no type for (HEXLET, TAI64, MAGIC, BLOB, floats
//! wider than `f64`, integers beyond `i128`/`u128`) on their way through
//! serde: newtype variants of an enum named [`EXT`] holding the atom's
//! bytes. YAC's serializer writes them as those atoms and its deserializer
//! reads those atoms as them; any other format sees an ordinary enum, so
//! a value goes through JSON or CBOR and back too.

use core::fmt;

use serde::de::{self, Deserializer, EnumAccess, VariantAccess, Visitor};
use serde::ser::{Serialize, Serializer};

/// The enum's name.
pub(crate) const EXT: &str = "$yac";

/// The enum's variants, in the order of their index.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Ext {
    /// 16 bytes.
    Hexlet,
    /// A TAI64 (8 bytes), TAI64N (12) or TAI64NA (16) label.
    Tai64,
    /// The 12 bytes after "KEKS".
    Magic,
    /// The chunk length minus one (8 bytes, big-endian), then the data.
    Blob,
    /// A float of 16 or 32 bytes as on the wire.
    Float,
    /// The magnitude of a +INT beyond `u128`.
    BigPos,
    /// The magnitude of a -INT beyond `i128`.
    BigNeg,
}

pub(crate) const VARIANTS: &[&str] = &[
    "Hexlet", "Tai64", "Magic", "Blob", "Float", "BigPos", "BigNeg",
];

const ALL: [Ext; 7] = [
    Ext::Hexlet,
    Ext::Tai64,
    Ext::Magic,
    Ext::Blob,
    Ext::Float,
    Ext::BigPos,
    Ext::BigNeg,
];

impl Ext {
    pub(crate) fn name(self) -> &'static str {
        VARIANTS[self as usize]
    }

    pub(crate) fn from_name(name: &str) -> Option<Ext> {
        VARIANTS.iter().position(|v| *v == name).map(|i| ALL[i])
    }
}

/// Bytes through `serialize_bytes`.
pub(crate) struct Bytes<'a>(pub &'a [u8]);

impl Serialize for Bytes<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(self.0)
    }
}

/// Serializes the atom `kind` of payload `bytes`.
pub(crate) fn serialize<S: Serializer>(s: S, kind: Ext, bytes: &[u8]) -> Result<S::Ok, S::Error> {
    s.serialize_newtype_variant(EXT, kind as u32, kind.name(), &Bytes(bytes))
}

/// The payload of a fixed-size atom (at most 16 bytes), read back.
pub(crate) struct Fixed {
    buf: [u8; 16],
    len: usize,
}

impl Fixed {
    pub(crate) fn bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

/// Deserializes one of the fixed-size atoms in `want`.
pub(crate) fn deserialize_fixed<'de, D: Deserializer<'de>>(
    d: D,
    want: &'static [&'static str],
) -> Result<Fixed, D::Error> {
    d.deserialize_enum(EXT, want, FixedVisitor(want))
}

struct FixedVisitor(&'static [&'static str]);

impl<'de> Visitor<'de> for FixedVisitor {
    type Value = Fixed;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "one of the YAC atoms {:?}", self.0)
    }

    fn visit_enum<A: EnumAccess<'de>>(self, data: A) -> Result<Fixed, A::Error> {
        let (name, access): (&str, A::Variant) = data.variant()?;
        if !self.0.contains(&name) {
            return Err(de::Error::unknown_variant(name, self.0));
        }
        let (buf, len) = access.newtype_variant_seed(FixedBytes)?;
        Ok(Fixed { buf, len })
    }
}

/// At most 16 bytes, kept inline.
struct FixedBytes;

impl<'de> de::DeserializeSeed<'de> for FixedBytes {
    type Value = ([u8; 16], usize);

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_bytes(self)
    }
}

impl<'de> Visitor<'de> for FixedBytes {
    type Value = ([u8; 16], usize);

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("at most 16 bytes")
    }

    fn visit_bytes<E: de::Error>(self, v: &[u8]) -> Result<Self::Value, E> {
        let mut buf = [0u8; 16];
        match buf.get_mut(..v.len()) {
            Some(d) => d.copy_from_slice(v),
            None => return Err(E::invalid_length(v.len(), &self)),
        }
        Ok((buf, v.len()))
    }

    /// Formats without a bytes type (JSON) give a sequence of numbers.
    fn visit_seq<A: de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut buf = [0u8; 16];
        let mut len = 0;
        while let Some(b) = seq.next_element::<u8>()? {
            *buf.get_mut(len)
                .ok_or_else(|| de::Error::invalid_length(len + 1, &self))? = b;
            len += 1;
        }
        Ok((buf, len))
    }
}
