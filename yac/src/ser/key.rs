//! The serializers of the parts of a value that accept one kind only: a
//! MAP key ([`KeySer`]: a string, or what serializes as one) and the
//! payload of an extension atom ([`ExtSer`]: bytes); whatever else
//! serde hands them is refused.

use serde::ser::{self, Serialize};

use super::{Error, ErrorKind, Serializer};
use crate::serde::error::UNKNOWN;
use crate::serde::ext::Ext;

/// Where a MAP key goes once it is known to be a string: the MAP
/// serializer (`map.rs`), which depends on this module and not the other
/// way round.
pub(super) trait KeySink {
    fn key_str(&mut self, key: &str) -> Result<(), Error>;
}

/// Serializes a MAP key: strings (and chars, unit variants, newtypes of
/// them) only, as serde_json does for its object keys.
pub(super) struct KeySer<'m, M: KeySink> {
    pub(super) map: &'m mut M,
}

/// Serializes the payload of an extension atom: bytes only.
pub(super) struct ExtSer<'a, 'o> {
    pub(super) ser: &'a mut Serializer<'o>,
    pub(super) kind: Ext,
}

fn not_key<T>() -> Result<T, Error> {
    Err(Error::new(ErrorKind::KeyNotString, UNKNOWN))
}

fn not_bytes<T>() -> Result<T, Error> {
    Err(Error::new(
        ErrorKind::Format(crate::Error::Invalid),
        UNKNOWN,
    ))
}

macro_rules! refuse {
    ($fail:ident; $($name:ident($($arg:ty),*)),* $(,)?) => {
        $(fn $name(self, $(_: $arg),*) -> Result<(), Error> { $fail() })*
    };
}

/// The compound types and the methods that only a whole-value serializer
/// accepts, refused with `$fail`.
macro_rules! refuse_compound {
    ($fail:ident) => {
        type SerializeSeq = ser::Impossible<(), Error>;
        type SerializeTuple = ser::Impossible<(), Error>;
        type SerializeTupleStruct = ser::Impossible<(), Error>;
        type SerializeTupleVariant = ser::Impossible<(), Error>;
        type SerializeMap = ser::Impossible<(), Error>;
        type SerializeStruct = ser::Impossible<(), Error>;
        type SerializeStructVariant = ser::Impossible<(), Error>;

        fn serialize_some<T: Serialize + ?Sized>(self, _: &T) -> Result<(), Error> {
            $fail()
        }
        fn serialize_newtype_variant<T: Serialize + ?Sized>(
            self,
            _: &'static str,
            _: u32,
            _: &'static str,
            _: &T,
        ) -> Result<(), Error> {
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

impl<M: KeySink> ser::Serializer for KeySer<'_, M> {
    type Ok = ();
    type Error = Error;
    refuse_compound!(not_key);

    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.map.key_str(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.map.key_str(v.encode_utf8(&mut [0u8; 4]))
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.map.key_str(variant)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        value: &T,
    ) -> Result<(), Error> {
        value.serialize(self)
    }
    refuse!(not_key;
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_bytes(&[u8]),
        serialize_none(), serialize_unit(), serialize_unit_struct(&'static str),
    );
}

impl ser::Serializer for ExtSer<'_, '_> {
    type Ok = ();
    type Error = Error;
    refuse_compound!(not_bytes);

    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.ser.ext(self.kind, v)
    }
    refuse!(not_bytes;
        serialize_bool(bool), serialize_i8(i8), serialize_i16(i16), serialize_i32(i32),
        serialize_i64(i64), serialize_u8(u8), serialize_u16(u16), serialize_u32(u32),
        serialize_u64(u64), serialize_f32(f32), serialize_f64(f64), serialize_char(char),
        serialize_str(&str), serialize_none(), serialize_unit(),
        serialize_unit_struct(&'static str),
    );
    fn serialize_unit_variant(self, _: &'static str, _: u32, _: &'static str) -> Result<(), Error> {
        not_bytes()
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _: &'static str,
        _: &T,
    ) -> Result<(), Error> {
        not_bytes()
    }
}
