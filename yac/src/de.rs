//! serde deserialization from YAC, following serde_json's conventions
//! (feature `serde`): the mapping of [`crate::ser`] read backwards.
//!
//! STR and BIN borrow from the input (`&str`, `&[u8]` with serde_bytes,
//! `Cow`); a BLOB is read as bytes (its chunks joined, so owned). Every
//! rule of the format is checked on the way, MAP key order included, for
//! the parts a `Deserialize` skips too; the whole input must be one item.
//! Integers beyond 64 bits read as `i128`/`u128` when they fit.
//!
//! `deserialize_any` (what [`crate::Value`] and untyped consumers use)
//! gives HEXLET, TAI64, MAGIC, BLOB, NaN and 128/256-bit floats, and
//! integers beyond `i128`/`u128`, as an enum named `$yac` whose variant
//! (Hexlet, Tai64, Magic, Blob, Float, BigPos, BigNeg) holds the atom's
//! bytes; typed targets read HEXLET and BLOB as bytes.

use alloc::vec::Vec;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::Deserialize;

use crate::atom::Atom;
use crate::rules::{chunk_fits, key_above};
pub use crate::ser::{Error, ErrorKind};

/// The deepest nesting of LIST, MAP (and enum variants) the deserializer
/// follows: `Deserialize` implementations recurse once per level.
pub const MAX_DEPTH: u32 = 128;

impl de::Error for Error {
    fn custom<T: core::fmt::Display>(msg: T) -> Self {
        <Error as serde::ser::Error>::custom(msg)
    }
}

/// Deserializes a `T` from the whole of `input` (one item), borrowing
/// strings and bytes from it where `T` does.
pub fn from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<T, Error> {
    let mut de = Deserializer::from_slice(input);
    let v = T::deserialize(&mut de).map_err(|e| de.at(e))?;
    if de.pos != input.len() {
        return Err(Error::new(ErrorKind::TrailingBytes, de.pos));
    }
    Ok(v)
}

/// The serde deserializer over a byte slice. Use [`from_slice`].
pub struct Deserializer<'de> {
    input: &'de [u8],
    pos: usize,
    depth: u32,
    /// Where the atom being deserialized starts (for errors).
    last: usize,
}

impl<'de> Deserializer<'de> {
    /// A deserializer reading `input` from its start.
    pub fn from_slice(input: &'de [u8]) -> Self {
        Deserializer {
            input,
            pos: 0,
            depth: 0,
            last: 0,
        }
    }

    fn at(&self, mut e: Error) -> Error {
        if e.offset() == usize::MAX {
            e = Error::new(e.kind().clone(), self.last);
        }
        e
    }

    fn fail(&self, e: crate::Error, at: usize) -> Error {
        Error::new(ErrorKind::Format(e), at)
    }

    /// The next atom, not consumed.
    fn peek(&self) -> Result<(Atom<'de>, usize), Error> {
        let rest = self.input.get(self.pos..).unwrap_or(&[]);
        crate::atom::decode(rest).map_err(|e| self.fail(e, self.pos))
    }

    /// The next atom, consumed.
    fn next(&mut self) -> Result<Atom<'de>, Error> {
        let (a, used) = self.peek()?;
        self.last = self.pos;
        self.pos += used;
        Ok(a)
    }

    fn enter(&mut self) -> Result<(), Error> {
        if self.depth >= MAX_DEPTH {
            return Err(Error::new(ErrorKind::TooDeep, self.last));
        }
        self.depth += 1;
        Ok(())
    }

    /// Reads the chunks of a BLOB whose header was just consumed.
    fn blob(&mut self, chunk_len_minus_one: u64) -> Result<Vec<u8>, Error> {
        let mut data = Vec::new();
        loop {
            let at = self.pos;
            let Atom::Bin(b) = self.next()? else {
                return Err(self.fail(crate::Error::BlobBadTerm, at));
            };
            data.extend_from_slice(b);
            if !chunk_fits(b.len(), chunk_len_minus_one).map_err(|e| self.fail(e, at))? {
                return Ok(data);
            }
        }
    }

    /// A LIST's items to `visitor`; the LIST tag was just consumed.
    fn list<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.enter()?;
        let v = visitor.visit_seq(ListAccess { de: self })?;
        // A visitor that stopped early (a tuple shorter than the LIST).
        self.leave("LIST longer than the type it is read into")?;
        Ok(v)
    }

    /// A MAP's entries to `visitor`; the MAP tag was just consumed.
    fn map<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.enter()?;
        let v = visitor.visit_map(MapAccess {
            de: self,
            prev: None,
        })?;
        self.leave("MAP longer than the type it is read into")?;
        Ok(v)
    }

    /// The EOC that closes the container the visitor has read (else
    /// `why`, at the atom found instead).
    fn leave(&mut self, why: &str) -> Result<(), Error> {
        let at = self.pos;
        match self.next()? {
            Atom::Eoc => {
                self.depth -= 1;
                Ok(())
            }
            _ => Err(msg(why, at)),
        }
    }
}

/// One of the atoms serde has no type for, as the `$yac` enum.
fn ext<'de, V: Visitor<'de>>(
    variant: &'static str,
    bytes: Vec<u8>,
    visitor: V,
) -> Result<V::Value, Error> {
    visitor.visit_enum(ExtAccess { variant, bytes })
}

fn msg(m: &str, at: usize) -> Error {
    Error::new(ErrorKind::Message(m.into()), at)
}

trait AtOffset {
    fn at_offset(self, at: usize) -> Error;
}

impl AtOffset for Error {
    fn at_offset(self, at: usize) -> Error {
        Error::new(self.kind().clone(), at)
    }
}

/// `magnitude` (big-endian, no leading zero) as a u128 if it fits.
fn magnitude_u128(magnitude: &[u8]) -> Option<u128> {
    if magnitude.len() > 16 {
        return None;
    }
    Some(
        magnitude
            .iter()
            .fold(0u128, |v, &b| (v << 8) | u128::from(b)),
    )
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let at = self.pos;
        let r = match self.next()? {
            Atom::Nil => visitor.visit_unit(),
            Atom::Bool(b) => visitor.visit_bool(b),
            Atom::Uint(u) => visitor.visit_u64(u),
            Atom::Nint(i) => visitor.visit_i64(i),
            Atom::BigInt {
                negative,
                magnitude,
            } => match magnitude_u128(magnitude) {
                Some(m) if !negative => visitor.visit_u128(m),
                Some(m) if m <= i128::MAX as u128 => visitor.visit_i128(-1 - m as i128),
                _ => {
                    let v = if negative { "BigNeg" } else { "BigPos" };
                    ext(v, magnitude.into(), visitor)
                }
            },
            Atom::Str(s) => visitor.visit_borrowed_str(s),
            Atom::Bin(b) => visitor.visit_borrowed_bytes(b),
            Atom::List => self.list(visitor),
            Atom::Map => self.map(visitor),
            Atom::Float(b) => match crate::float::to_f64(b) {
                Some(f) if !f.is_nan() => visitor.visit_f64(f),
                _ => ext("Float", b.into(), visitor),
            },
            Atom::Hexlet(h) => ext("Hexlet", h.to_vec(), visitor),
            Atom::Tai64(t) => ext("Tai64", t.into(), visitor),
            Atom::Magic(m) => ext("Magic", m.to_vec(), visitor),
            Atom::Blob {
                chunk_len_minus_one,
            } => {
                let mut b = chunk_len_minus_one.to_be_bytes().to_vec();
                b.extend(self.blob(chunk_len_minus_one)?);
                ext("Blob", b, visitor)
            }
            Atom::Eoc => return Err(self.fail(crate::Error::UnexpectedEoc, at)),
        };
        r.map_err(|e| {
            if e.offset() == usize::MAX {
                e.at_offset(at)
            } else {
                e
            }
        })
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let at = self.pos;
        match self.peek()?.0 {
            Atom::Hexlet(h) => {
                self.next()?;
                visitor.visit_borrowed_bytes(h.as_slice())
            }
            Atom::Blob {
                chunk_len_minus_one,
            } => {
                self.next()?;
                let b = self.blob(chunk_len_minus_one)?;
                visitor.visit_byte_buf(b)
            }
            _ => self.deserialize_any(visitor),
        }
        .map_err(|e| {
            if e.offset() == usize::MAX {
                e.at_offset(at)
            } else {
                e
            }
        })
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if let Atom::Nil = self.peek()?.0 {
            self.next()?;
            return visitor.visit_none();
        }
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let at = self.pos;
        match self.next()? {
            // A unit variant: its name.
            Atom::Str(s) => visitor.visit_enum(s.into_deserializer()),
            // Any other variant: a MAP with one key, the name.
            Atom::Map => {
                self.enter()?;
                let v = visitor.visit_enum(VariantAccess { de: self })?;
                self.leave("an enum variant's MAP has more than one key")?;
                Ok(v)
            }
            _ => Err(msg("an enum must be a STR or a MAP with one key", at)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        unit unit_struct seq tuple tuple_struct map struct identifier
    }
}

struct ListAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'de> de::SeqAccess<'de> for ListAccess<'_, 'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if let Atom::Eoc = self.de.peek()?.0 {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
}

struct MapAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    prev: Option<&'de [u8]>,
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let at = self.de.pos;
        let key = match self.de.peek()?.0 {
            Atom::Eoc => return Ok(None),
            Atom::Str(s) if !s.is_empty() => s,
            _ => return Err(self.de.fail(crate::Error::MapBadKey, at)),
        };
        if let Some(prev) = self.prev {
            if !key_above(key.as_bytes(), prev) {
                return Err(self.de.fail(crate::Error::MapUnordered, at));
            }
        }
        self.de.next()?;
        self.prev = Some(key.as_bytes());
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
            .map_err(|e: Error| e.at_offset(at))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        if let Atom::Eoc = self.de.peek()?.0 {
            return Err(self.de.fail(crate::Error::MapNoVal, self.de.pos));
        }
        seed.deserialize(&mut *self.de)
    }
}

/// An enum variant written as a MAP with one key.
struct VariantAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'de> de::EnumAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let at = self.de.pos;
        let Atom::Str(s) = self.de.next()? else {
            return Err(self.de.fail(crate::Error::MapBadKey, at));
        };
        if s.is_empty() {
            return Err(self.de.fail(crate::Error::MapBadKey, at));
        }
        let v = seed
            .deserialize(de::value::BorrowedStrDeserializer::new(s))
            .map_err(|e: Error| e.at_offset(at))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for VariantAccess<'_, 'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        <() as Deserialize>::deserialize(&mut *self.de)
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(&mut *self.de)
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_seq(&mut *self.de, visitor)
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        de::Deserializer::deserialize_map(&mut *self.de, visitor)
    }
}

/// The `$yac` enum of [`Deserializer::ext`]: a variant name and bytes.
struct ExtAccess {
    variant: &'static str,
    bytes: Vec<u8>,
}

impl<'de> de::EnumAccess<'de> for ExtAccess {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(
            self.variant,
        ))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for ExtAccess {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::NewtypeVariant,
            &"unit variant",
        ))
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        seed.deserialize(de::value::BytesDeserializer::<Error>::new(&self.bytes))
    }
    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::NewtypeVariant,
            &"tuple variant",
        ))
    }
    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::NewtypeVariant,
            &"struct variant",
        ))
    }
}
