//! serde serialization into YAC, following serde_json's conventions
//! (feature `serde`).
//!
//! | Rust (serde data model) | YAC |
//! |---|---|
//! | `bool` | TRUE / FALSE |
//! | integers, `i128`/`u128` | +INT / -INT, minimal |
//! | `f32`, `f64` | FLOAT in the shortest of 16, 32, 64 bits holding it exactly (-0.0 is refused: the format has no negative zero) |
//! | `char`, `str`, `String` | STR (no NUL) |
//! | bytes (`serde_bytes`) | BIN |
//! | `None`, `()`, unit struct | NIL |
//! | `Some(v)`, newtype struct | `v` |
//! | sequences, tuples, tuple structs | LIST |
//! | maps, structs | MAP, keys in canonical order |
//! | unit variant | STR with the variant's name |
//! | newtype, tuple, struct variant | MAP with one key, the variant's name |
//!
//! MAP keys must serialize as non-empty strings. Entries are written in the
//! format's canonical key order (shorter keys first, then bytewise) whatever
//! order the source yields them in, so a `HashMap` gives the same bytes as a
//! `BTreeMap` with the same contents; two equal keys are an error
//! ([`crate::Error::MapUnordered`]).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::ser::{self, Serialize};

use crate::atom::Atom;
use crate::rules::{key_above, key_cmp, strip_zeros};

/// The enum name under which [`crate::Value`] hands the types serde has no
/// name for (HEXLET, TAI64, MAGIC, BLOB, floats and integers beyond
/// f64/i128/u128) to a serializer, as newtype variants holding bytes. This
/// serializer writes them as those atoms; another serializer sees an
/// ordinary enum.
pub(crate) const EXT: &str = "$yac";

/// Why serializing or deserializing failed, and where: for deserializing
/// the offset in the input of the atom at fault, for serializing the
/// number of bytes written when it failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    offset: usize,
}

/// What went wrong in an [`Error`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The format's own rule, as the core decoder or encoder reports it.
    Format(crate::Error),
    /// The document goes on after the value.
    TrailingBytes,
    /// A MAP key that is not a string (serializing).
    KeyNotString,
    /// Nesting deeper than the deserializer's limit ([`crate::de::MAX_DEPTH`]).
    TooDeep,
    /// A message from the `Serialize`/`Deserialize` implementation (a
    /// missing field, a value of the wrong type, ...).
    Message(String),
}

impl Error {
    pub(crate) fn new(kind: ErrorKind, offset: usize) -> Self {
        Error { kind, offset }
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.kind
    }

    /// Byte offset: of the atom at fault in the input when deserializing,
    /// of the output's end when serializing.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The core error, when the format's rule was broken.
    pub fn format_error(&self) -> Option<crate::Error> {
        match self.kind {
            ErrorKind::Format(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            ErrorKind::Format(e) => write!(f, "{e}")?,
            ErrorKind::TrailingBytes => f.write_str("bytes after the value")?,
            ErrorKind::KeyNotString => f.write_str("MAP key is not a string")?,
            ErrorKind::TooDeep => f.write_str("nesting too deep")?,
            ErrorKind::Message(m) => f.write_str(m)?,
        }
        write!(f, " at offset {}", self.offset)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for Error {}

impl ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        // The serializer fills the offset in (`Serializer::at`).
        Error::new(ErrorKind::Message(msg.to_string()), usize::MAX)
    }
}

/// Serializes `value` into a new YAC document.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    let mut ser = Serializer { out: Vec::new() };
    value.serialize(&mut ser)?;
    Ok(ser.out)
}

/// Serializes `value` and writes the document to `writer` (built whole in
/// memory first: MAP entries are reordered before they are written).
#[cfg(feature = "std")]
pub fn to_writer<W: std::io::Write, T: Serialize + ?Sized>(
    mut writer: W,
    value: &T,
) -> std::io::Result<()> {
    let doc = to_vec(value).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
    writer.write_all(&doc)
}

/// The serde serializer: appends to a `Vec<u8>`. Use [`to_vec`].
pub struct Serializer {
    out: Vec<u8>,
}

impl Serializer {
    fn fail(&self, e: crate::Error) -> Error {
        Error::new(ErrorKind::Format(e), self.out.len())
    }

    /// Gives a message error from a nested `Serialize` its offset.
    fn at(&self, mut e: Error) -> Error {
        if e.offset == usize::MAX {
            e.offset = self.out.len();
        }
        e
    }

    fn atom(&mut self, atom: &Atom<'_>) -> Result<(), Error> {
        let n = atom.encoded_len().map_err(|e| self.fail(e))?;
        let at = self.out.len();
        self.out.resize(at + n, 0);
        match atom.encode(&mut self.out[at..]) {
            Ok(_) => Ok(()),
            Err(e) => {
                self.out.truncate(at);
                Err(self.fail(e))
            }
        }
    }

    fn u128(&mut self, v: u128) -> Result<(), Error> {
        match u64::try_from(v) {
            Ok(v) => self.atom(&Atom::Uint(v)),
            Err(_) => self.atom(&Atom::BigInt {
                negative: false,
                magnitude: strip_zeros(&v.to_be_bytes()),
            }),
        }
    }

    fn i128(&mut self, v: i128) -> Result<(), Error> {
        if v >= 0 {
            return self.u128(v as u128);
        }
        match i64::try_from(v) {
            Ok(v) => self.atom(&Atom::Nint(v)),
            Err(_) => self.atom(&Atom::BigInt {
                negative: true,
                // -1 - v >= 0 for v < 0.
                magnitude: strip_zeros(&((-1 - v) as u128).to_be_bytes()),
            }),
        }
    }

    /// Writes one of [`crate::Value`]'s extension atoms from its bytes.
    fn ext(&mut self, variant: &str, b: &[u8]) -> Result<(), Error> {
        let bad = || crate::Error::Invalid;
        let atom = match variant {
            "Hexlet" => Atom::Hexlet(b.try_into().map_err(|_| self.fail(bad()))?),
            "Tai64" => Atom::Tai64(b),
            "Magic" => Atom::Magic(b.try_into().map_err(|_| self.fail(bad()))?),
            "Float" => Atom::Float(b),
            "BigPos" | "BigNeg" => Atom::BigInt {
                negative: variant == "BigNeg",
                magnitude: b,
            },
            "Blob" => {
                let (head, data) = b.split_first_chunk::<8>().ok_or_else(|| self.fail(bad()))?;
                return self.blob(u64::from_be_bytes(*head), data);
            }
            _ => return Err(self.fail(bad())),
        };
        self.atom(&atom)
    }

    /// A BLOB of `data` in chunks of `chunk_len_minus_one + 1` bytes.
    fn blob(&mut self, chunk_len_minus_one: u64, data: &[u8]) -> Result<(), Error> {
        self.atom(&Atom::Blob {
            chunk_len_minus_one,
        })?;
        let chunk = usize::try_from(chunk_len_minus_one)
            .ok()
            .and_then(|c| c.checked_add(1))
            .unwrap_or(usize::MAX);
        let mut rest = data;
        while rest.len() >= chunk {
            let (c, r) = rest.split_at(chunk);
            self.atom(&Atom::Bin(c))?;
            rest = r;
        }
        self.atom(&Atom::Bin(rest))
    }

    fn map_start(&mut self) -> Result<MapSer<'_>, Error> {
        self.atom(&Atom::Map)?;
        let start = self.out.len();
        Ok(MapSer {
            ser: self,
            start,
            entries: Vec::new(),
            variant: false,
        })
    }

    /// A MAP with one key, `variant`, whose value follows.
    fn variant_start(&mut self, variant: &'static str) -> Result<(), Error> {
        self.atom(&Atom::Map)?;
        self.key_str(variant)
    }

    fn key_str(&mut self, key: &str) -> Result<(), Error> {
        if key.is_empty() {
            return Err(self.fail(crate::Error::MapBadKey));
        }
        self.atom(&Atom::Str(key))
    }
}

impl<'a> ser::Serializer for &'a mut Serializer {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ListSer<'a>;
    type SerializeTuple = ListSer<'a>;
    type SerializeTupleStruct = ListSer<'a>;
    type SerializeTupleVariant = ListSer<'a>;
    type SerializeMap = MapSer<'a>;
    type SerializeStruct = MapSer<'a>;
    type SerializeStructVariant = MapSer<'a>;

    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.atom(&Atom::Bool(v))
    }
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.i128(v.into())
    }
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.i128(v.into())
    }
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.i128(v.into())
    }
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.i128(v.into())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.i128(v)
    }
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.u128(v.into())
    }
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.u128(v.into())
    }
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.u128(v.into())
    }
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.u128(v.into())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.u128(v)
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        self.serialize_f64(v.into())
    }
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        let mut b = [0u8; 8];
        let n = crate::float::shortest(v, &mut b).map_err(|e| self.fail(e))?;
        self.atom(&Atom::Float(&b[..n]))
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.serialize_str(v.encode_utf8(&mut [0u8; 4]))
    }
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.atom(&Atom::Str(v))
    }
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.atom(&Atom::Bin(v))
    }
    fn serialize_none(self) -> Result<(), Error> {
        self.atom(&Atom::Nil)
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<(), Error> {
        self.atom(&Atom::Nil)
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.atom(&Atom::Nil)
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.serialize_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        _index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        if name == EXT {
            let b = value
                .serialize(BytesOnly)
                .map_err(|_| self.fail(crate::Error::Invalid))?;
            return self.ext(variant, &b);
        }
        self.variant_start(variant)?;
        value.serialize(&mut *self).map_err(|e| self.at(e))?;
        self.atom(&Atom::Eoc)
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<ListSer<'a>, Error> {
        self.atom(&Atom::List)?;
        Ok(ListSer {
            ser: self,
            variant: false,
        })
    }
    fn serialize_tuple(self, len: usize) -> Result<ListSer<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(self, _name: &'static str, len: usize) -> Result<ListSer<'a>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<ListSer<'a>, Error> {
        self.variant_start(variant)?;
        self.atom(&Atom::List)?;
        Ok(ListSer {
            ser: self,
            variant: true,
        })
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSer<'a>, Error> {
        self.map_start()
    }
    fn serialize_struct(self, _name: &'static str, _len: usize) -> Result<MapSer<'a>, Error> {
        self.map_start()
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<MapSer<'a>, Error> {
        self.variant_start(variant)?;
        let mut m = self.map_start()?;
        m.variant = true;
        Ok(m)
    }
}

/// A LIST being written (also a tuple variant's LIST).
pub struct ListSer<'a> {
    ser: &'a mut Serializer,
    variant: bool,
}

impl ListSer<'_> {
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser).map_err(|e| self.ser.at(e))
    }

    fn finish(self) -> Result<(), Error> {
        self.ser.atom(&Atom::Eoc)?;
        if self.variant {
            self.ser.atom(&Atom::Eoc)?;
        }
        Ok(())
    }
}

/// The four serde traits of a LIST (sequence, tuple, tuple struct, tuple
/// variant) are one: each element, then EOC.
macro_rules! list_traits {
    ($($trait:ident::$method:ident),*) => {$(
        impl ser::$trait for ListSer<'_> {
            type Ok = ();
            type Error = Error;
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }
            fn end(self) -> Result<(), Error> {
                self.finish()
            }
        }
    )*};
}

list_traits!(
    SerializeSeq::serialize_element,
    SerializeTuple::serialize_element,
    SerializeTupleStruct::serialize_field,
    SerializeTupleVariant::serialize_field
);

/// A MAP being written: entries go out in the order given, and are put in
/// canonical key order when the MAP ends.
pub struct MapSer<'a> {
    ser: &'a mut Serializer,
    /// Where the first entry starts (after the MAP tag).
    start: usize,
    /// Per entry: where its key atom starts and where its key's payload
    /// ends (the value follows; the entry ends where the next starts).
    entries: Vec<(usize, usize)>,
    variant: bool,
}

impl MapSer<'_> {
    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        let at = self.ser.out.len();
        let k = key.serialize(KeyOnly).map_err(|e| {
            let mut e = e;
            e.offset = at;
            e
        })?;
        self.ser.key_str(&k)?;
        self.entries.push((at, self.ser.out.len()));
        Ok(())
    }

    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser).map_err(|e| self.ser.at(e))
    }

    fn field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), Error> {
        let at = self.ser.out.len();
        self.ser.key_str(key)?;
        self.entries.push((at, self.ser.out.len()));
        self.value(value)
    }

    /// Reorders the entries into canonical key order and closes the MAP.
    fn finish(self) -> Result<(), Error> {
        let out = &mut self.ser.out;
        let end = out.len();
        // Per entry: its key's payload range (the key atom decoded again
        // gives its length) and the entry's range.
        let mut spans: Vec<(usize, usize, usize, usize)> = Vec::with_capacity(self.entries.len());
        for (i, &(at, key_end)) in self.entries.iter().enumerate() {
            let next = self.entries.get(i + 1).map_or(end, |e| e.0);
            let key_start = match crate::atom::decode(&out[at..key_end]) {
                Ok((Atom::Str(s), _)) => key_end - s.len(),
                _ => return Err(Error::new(ErrorKind::Format(crate::Error::Invalid), at)),
            };
            spans.push((key_start, key_end, at, next));
        }
        let sorted = spans
            .windows(2)
            .all(|w| key_above(&out[w[1].0..w[1].1], &out[w[0].0..w[0].1]));
        if !sorted {
            // Stable sort by canonical key order, then check for equal keys.
            spans.sort_by(|a, b| key_cmp(&out[a.0..a.1], &out[b.0..b.1]));
            for w in spans.windows(2) {
                if !key_above(&out[w[1].0..w[1].1], &out[w[0].0..w[0].1]) {
                    return Err(Error::new(
                        ErrorKind::Format(crate::Error::MapUnordered),
                        w[1].2,
                    ));
                }
            }
            let mut body = Vec::with_capacity(end - self.start);
            for &(_, _, from, to) in &spans {
                body.extend_from_slice(&out[from..to]);
            }
            out[self.start..end].copy_from_slice(&body);
        }
        self.ser.atom(&Atom::Eoc)?;
        if self.variant {
            self.ser.atom(&Atom::Eoc)?;
        }
        Ok(())
    }
}

impl ser::SerializeMap for MapSer<'_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.value(value)
    }
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

/// A struct and a struct variant are MAPs whose keys are the field names.
macro_rules! struct_traits {
    ($($trait:ident),*) => {$(
        impl ser::$trait for MapSer<'_> {
            type Ok = ();
            type Error = Error;
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.field(key, value)
            }
            fn end(self) -> Result<(), Error> {
                self.finish()
            }
        }
    )*};
}

struct_traits!(SerializeStruct, SerializeStructVariant);

/// Serializes a MAP key: strings (and chars, unit variants, newtypes of
/// them) only, as serde_json does for its object keys.
struct KeyOnly;

/// Serializes the payload of an extension variant: bytes only.
struct BytesOnly;

fn not_key<T>() -> Result<T, Error> {
    Err(Error::new(ErrorKind::KeyNotString, 0))
}

macro_rules! refuse {
    ($fail:ident, $ok:ty; $($name:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $name(self, $(_: $arg),*) -> Result<$ok, Error> { $fail() })*
    };
}

/// The compound types and the methods that only a whole-value serializer
/// accepts, refused with `$fail`.
macro_rules! refuse_compound {
    ($fail:ident, $ok:ty) => {
        type SerializeSeq = ser::Impossible<$ok, Error>;
        type SerializeTuple = ser::Impossible<$ok, Error>;
        type SerializeTupleStruct = ser::Impossible<$ok, Error>;
        type SerializeTupleVariant = ser::Impossible<$ok, Error>;
        type SerializeMap = ser::Impossible<$ok, Error>;
        type SerializeStruct = ser::Impossible<$ok, Error>;
        type SerializeStructVariant = ser::Impossible<$ok, Error>;

        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<$ok, Error> {
            $fail()
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<$ok, Error> {
            $fail()
        }
        fn serialize_seq(self, _: Option<usize>) -> Result<Self::SerializeSeq, Error> {
            $fail()
        }
        fn serialize_tuple(self, _: usize) -> Result<Self::SerializeTuple, Error> {
            $fail()
        }
        fn serialize_tuple_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleStruct, Error> {
            $fail()
        }
        fn serialize_tuple_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeTupleVariant, Error> {
            $fail()
        }
        fn serialize_map(self, _: Option<usize>) -> Result<Self::SerializeMap, Error> {
            $fail()
        }
        fn serialize_struct(
            self,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStruct, Error> {
            $fail()
        }
        fn serialize_struct_variant(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: usize,
        ) -> Result<Self::SerializeStructVariant, Error> {
            $fail()
        }
    };
}

impl ser::Serializer for KeyOnly {
    type Ok = String;
    type Error = Error;
    refuse_compound!(not_key, String);

    fn serialize_str(self, v: &str) -> Result<String, Error> {
        Ok(v.into())
    }
    fn serialize_char(self, v: char) -> Result<String, Error> {
        Ok(v.into())
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<String, Error> {
        Ok(variant.into())
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<String, Error> {
        value.serialize(self)
    }
    refuse!(not_key, String;
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_bytes(&[u8]),
        serialize_none(), serialize_unit(), serialize_unit_struct(&'static str),
    );
}

fn not_bytes<T>() -> Result<T, Error> {
    Err(Error::new(ErrorKind::Format(crate::Error::Invalid), 0))
}

impl ser::Serializer for BytesOnly {
    type Ok = Vec<u8>;
    type Error = Error;
    refuse_compound!(not_bytes, Vec<u8>);

    fn serialize_bytes(self, v: &[u8]) -> Result<Vec<u8>, Error> {
        Ok(v.into())
    }
    refuse!(not_bytes, Vec<u8>;
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_str(&str), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
    );
    fn serialize_unit_variant(
        self,
        _: &'static str,
        _: u32,
        _: &'static str,
    ) -> Result<Vec<u8>, Error> {
        not_bytes()
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<Vec<u8>, Error> {
        not_bytes()
    }
}
