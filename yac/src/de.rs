//! serde deserialization from YAC (feature `serde`): the mapping of
//! [`crate::serde`] read backwards.
//!
//! STR and BIN borrow from the input (`&str`, `&[u8]` with serde_bytes,
//! `Cow`); a BLOB is read as bytes (its chunks joined, so owned), and so
//! are the payloads of HEXLET, TAI64* and MAGIC. Every rule of the format
//! is checked on the way, MAP key order included, for the parts a
//! `Deserialize` skips too; the whole input must be one item. Integers
//! beyond 64 bits read as `i128`/`u128` when they fit.
//!
//! Each atom is decoded once, where it is consumed (the decoder's inline
//! path takes the common ones); to find where a LIST or MAP ends, or a
//! NIL for an `Option`, the deserializer looks at the next tag byte only.
//!
//! `deserialize_any` (what [`crate::Value`] and untyped consumers use)
//! gives HEXLET, TAI64, MAGIC, BLOB, 128/256-bit floats, and integers
//! beyond `i128`/`u128`, as the enum of [`crate::serde`]'s extension atoms.

use alloc::borrow::Cow;
use alloc::vec::Vec;

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use serde::Deserialize;

use crate::atom::{tag, Atom};
use crate::grammar::{self, Fed, Grammar, State, Step};
use crate::serde::ext::{Ext, EXT};
pub use crate::serde::{Error, ErrorKind};

/// The deepest nesting of LIST, MAP (and enum variants) the deserializer
/// follows: `Deserialize` implementations recurse once per level.
pub const MAX_DEPTH: u32 = 128;

/// Deserializes a `T` from the whole of `input` (one item), borrowing
/// strings and bytes from it where `T` does.
pub fn from_slice<'de, T: Deserialize<'de>>(input: &'de [u8]) -> Result<T, Error> {
    let mut de = Deserializer::from_slice(input);
    let v = T::deserialize(&mut de).map_err(|e| e.or_at(de.last))?;
    if de.pos != input.len() {
        return Err(Error::new(ErrorKind::TrailingBytes, de.pos));
    }
    Ok(v)
}

/// Reads one item from `reader` and deserializes a `T` from it. Reads
/// exactly the item's bytes (a stream of documents can be read one after
/// another), keeps them (and no more) in memory, and never reserves more
/// than it has read: a corrupt length costs at most the stream's length.
#[cfg(feature = "std")]
pub fn from_reader<R: std::io::Read, T: de::DeserializeOwned>(reader: R) -> Result<T, Error> {
    let mut buf = Vec::new();
    read_item(reader, &mut buf)?;
    from_slice(&buf)
}

/// Appends the bytes of one item from `reader` to `buf`: atom after atom,
/// reading what each one lacks (at most 64 KiB at a time), until the
/// grammar says the item is complete. An atom that is invalid, or that
/// the grammar refuses, stops it early: the deserializer then reports it
/// where it is. The grammar keeps no levels and no previous key here (a
/// key would borrow the growing input): after a container inside a MAP it
/// takes what follows as a LIST would, and it leaves key order to the
/// deserializer, so it refuses no more than the deserializer does.
#[cfg(feature = "std")]
fn read_item<R: std::io::Read>(mut reader: R, buf: &mut Vec<u8>) -> Result<(), Error> {
    use std::io::Read;
    let mut pos = 0;
    let mut g = Grammar::new(0);
    loop {
        match crate::atom::decode(buf.get(pos..).unwrap_or(&[])) {
            Ok((atom, n)) => {
                pos += n;
                let mut here = g;
                match here.feed_alone(Step::of(&atom)) {
                    Ok(Fed::Done) | Err(_) => return Ok(()),
                    Ok(_) => g = here.without_key(),
                }
            }
            Err(crate::Error::NotEnough(more)) => {
                let step = more.min(64 * 1024) as u64;
                let got = (&mut reader).take(step).read_to_end(buf)?;
                if got == 0 {
                    return Ok(()); // the deserializer reports the truncation
                }
            }
            Err(_) => return Ok(()),
        }
    }
}

/// An extension atom's kind and bytes.
type ExtAtom<'de> = (Ext, Cow<'de, [u8]>);

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

    /// The core error `e` of the atom at `at`. The input is complete, so
    /// "more bytes needed" means it was cut short, or a length is corrupt.
    #[cold]
    fn fail(&self, e: crate::Error, at: usize) -> Error {
        let kind = match e {
            crate::Error::NotEnough(_) => self.short_input(at),
            // A length past `usize` (on 32-bit targets) is past the end
            // of any input too.
            crate::Error::LenTooBig => match self.short_input(at) {
                ErrorKind::Truncated => ErrorKind::Format(e),
                past_end => past_end,
            },
            crate::Error::DeepRecursion => ErrorKind::TooDeep,
            e => ErrorKind::Format(e),
        };
        Error::new(kind, at)
    }

    /// What the grammar says of `step`, met at `at` where the innermost
    /// container expects `state`: the deserializer's levels are its call
    /// stack, and its inline paths take what is usual (an item where one
    /// is due, an EOC where a container may end) and hand anything else
    /// over to the machine, rebuilt where the deserializer stands.
    #[cold]
    #[inline(never)]
    fn refused(&self, state: State, step: Step<'de>, at: usize) -> Error {
        let verdict = Grammar::at(state, self.depth, MAX_DEPTH, &[]).feed_alone(step);
        // The callers hand over only what the grammar refuses.
        self.fail(verdict.err().unwrap_or(crate::Error::Invalid), at)
    }

    /// Why the atom at `at` does not fit the input: a BIN or STR (maybe
    /// an integer's) whose whole header states more than is left, or a
    /// cut.
    fn short_input(&self, at: usize) -> ErrorKind {
        let rest = self.input.get(at..).unwrap_or(&[]);
        let s = match rest.first() {
            Some(&(tag::PINT | tag::NINT)) => rest.get(1..).unwrap_or(&[]),
            _ => rest,
        };
        if s.first().is_some_and(|&t| t >= tag::BIN) {
            if let Ok((head, len)) = crate::atom::string_header_u64(s) {
                let left = s.len() - head;
                if len > left as u64 {
                    return ErrorKind::LengthPastEnd {
                        declared: len,
                        left,
                    };
                }
            }
        }
        ErrorKind::Truncated
    }

    /// The next tag byte, not consumed.
    #[inline(always)]
    fn tag(&self) -> Result<u8, Error> {
        match self.input.get(self.pos) {
            Some(&t) => Ok(t),
            None => Err(Error::new(ErrorKind::Truncated, self.pos)),
        }
    }

    /// The next atom, consumed.
    #[inline(always)]
    fn atom(&mut self) -> Result<Atom<'de>, Error> {
        let at = self.pos;
        let rest = self.input.get(at..).unwrap_or(&[]);
        match crate::atom::decode(rest) {
            Ok((a, n)) => {
                self.last = at;
                self.pos = at + n;
                Ok(a)
            }
            Err(e) => Err(self.fail(e, at)),
        }
    }

    /// A +INT/-INT at the position whose magnitude takes at most 8 bytes
    /// (minimal) and whose value fits `u64`/`i64`, consumed: as the value
    /// for `visit_u64` (`Ok`) or `visit_i64` (`Err`). `None`, consuming
    /// nothing, for anything else: the general path decides.
    #[inline(always)]
    fn small_int(&mut self) -> Option<Result<u64, i64>> {
        let at = self.pos;
        // The longest such atom's bytes at once; closer to the end, the
        // general path decodes it.
        let w: &[u8; 10] = self.input.get(at..at + 10)?.try_into().ok()?;
        let negative = match w[0] {
            tag::PINT => false,
            tag::NINT => true,
            _ => return None,
        };
        let n = usize::from(w[1] ^ tag::BIN);
        if n > 8 || w[2] == 0 && n > 0 {
            return None;
        }
        // One 8-byte load, shifted down to the magnitude's n bytes.
        let mut b = [0u8; 8];
        b.copy_from_slice(&w[2..]);
        let m = u64::from_be_bytes(b)
            .checked_shr(64 - 8 * n as u32)
            .unwrap_or(0);
        let v = if negative {
            // -1 - m, which is !m, fits i64 when it is negative as one.
            let v = !m as i64;
            if v >= 0 {
                return None;
            }
            Err(v)
        } else {
            Ok(m)
        };
        self.last = at;
        self.pos = at + 2 + n;
        Some(v)
    }

    /// An integer of any size to `visitor`.
    #[inline(always)]
    fn int<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let at = self.pos;
        let r = match self.small_int() {
            Some(Ok(u)) => visitor.visit_u64(u),
            Some(Err(i)) => visitor.visit_i64(i),
            None => return self.any_atom(visitor),
        };
        r.map_err(|e: Error| e.or_at(at))
    }

    /// The next atom, decoded whole, to `visitor` (out of the inline
    /// paths, which it would make larger).
    #[inline(never)]
    fn any_atom<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        let at = self.pos;
        let atom = self.atom()?;
        self.visit(atom, at, visitor)
    }

    /// A LIST's items to `visitor`; its tag was just consumed.
    #[inline(always)]
    fn list<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.enter()?;
        let v = visitor.visit_seq(ListAccess { de: self })?;
        // A visitor that stopped early (a tuple shorter than the LIST).
        self.leave("LIST longer than the type it is read into")?;
        Ok(v)
    }

    /// A MAP's entries to `visitor`; its tag was just consumed.
    #[inline]
    fn map<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value, Error> {
        self.enter()?;
        let v = visitor.visit_map(MapAccess {
            de: self,
            prev: &[],
        })?;
        self.leave("MAP longer than the type it is read into")?;
        Ok(v)
    }

    /// Consumes the next atom if it is the one-byte `t`.
    #[inline(always)]
    fn take(&mut self, t: u8) -> bool {
        if self.input.get(self.pos) == Some(&t) {
            self.last = self.pos;
            self.pos += 1;
            return true;
        }
        false
    }

    /// A LIST (`t` LIST) or MAP (MAP) to `visitor`, its tag read without
    /// decoding an atom; anything else as `deserialize_any`.
    #[inline(always)]
    fn container<V: Visitor<'de>>(&mut self, t: u8, visitor: V) -> Result<V::Value, Error> {
        let at = self.pos;
        let r = if self.take(t) {
            if t == tag::LIST {
                self.list(visitor)
            } else {
                self.map(visitor)
            }
        } else {
            return self.any_atom(visitor);
        };
        r.map_err(|e: Error| e.or_at(at))
    }

    /// Opens the LIST or MAP just consumed, if the grammar's depth limit
    /// allows one more.
    #[inline(always)]
    fn enter(&mut self) -> Result<(), Error> {
        match grammar::deeper(self.depth, MAX_DEPTH) {
            Ok(depth) => {
                self.depth = depth;
                Ok(())
            }
            Err(e) => Err(self.fail(e, self.last)),
        }
    }

    /// The EOC that closes the container the visitor has read (else
    /// `why`, at the atom found instead).
    #[inline]
    fn leave(&mut self, why: &str) -> Result<(), Error> {
        if self.tag()? == tag::EOC {
            self.pos += 1;
            self.depth -= 1;
            return Ok(());
        }
        Err(msg(why, self.pos))
    }

    /// Reads the chunks of a BLOB whose header was just consumed, as the
    /// BLOB's grammar takes them.
    fn blob(&mut self, chunk_len_minus_one: u64) -> Result<Vec<u8>, Error> {
        let mut g = Grammar::blob(chunk_len_minus_one);
        let mut data = Vec::new();
        loop {
            let at = self.pos;
            let atom = self.atom()?;
            let fed = g
                .feed_alone(Step::of(&atom))
                .map_err(|e| self.fail(e, at))?;
            if let Atom::Bin(b) = atom {
                data.extend_from_slice(b);
            }
            if fed != Fed::Item {
                return Ok(data);
            }
        }
    }

    /// The extension atom `atom` stands for, and its bytes; `None` for
    /// the atoms serde has a type for.
    fn ext(&mut self, atom: &Atom<'de>) -> Result<Option<ExtAtom<'de>>, Error> {
        Ok(Some(match *atom {
            Atom::Hexlet(h) => (Ext::Hexlet, Cow::Borrowed(&h[..])),
            Atom::Tai64(t) => (Ext::Tai64, Cow::Borrowed(t)),
            Atom::Magic(m) => (Ext::Magic, Cow::Borrowed(&m[..])),
            Atom::Float(b) if crate::float::to_f64_bits(b).is_none() => {
                (Ext::Float, Cow::Borrowed(b))
            }
            Atom::BigInt {
                negative,
                magnitude,
            } if int_128(negative, magnitude).is_none() => {
                let kind = if negative { Ext::BigNeg } else { Ext::BigPos };
                (kind, Cow::Borrowed(magnitude))
            }
            Atom::Blob {
                chunk_len_minus_one,
            } => {
                let mut b = chunk_len_minus_one.to_be_bytes().to_vec();
                b.extend(self.blob(chunk_len_minus_one)?);
                (Ext::Blob, Cow::Owned(b))
            }
            _ => return Ok(None),
        }))
    }

    /// Hands the atom just consumed (at `at`) to `visitor`.
    #[inline]
    fn visit<V: Visitor<'de>>(
        &mut self,
        atom: Atom<'de>,
        at: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        let r = match atom {
            Atom::Nil => visitor.visit_unit(),
            Atom::Bool(b) => visitor.visit_bool(b),
            Atom::Uint(u) => visitor.visit_u64(u),
            Atom::Nint(i) => visitor.visit_i64(i),
            Atom::Str(s) => visitor.visit_borrowed_str(s),
            Atom::Bin(b) => visitor.visit_borrowed_bytes(b),
            Atom::List => self.list(visitor),
            Atom::Map => self.map(visitor),
            Atom::Float(b) if b.len() <= 8 => match crate::float::to_f64_bits(b) {
                Some(bits) => visitor.visit_f64(f64::from_bits(bits)),
                None => Err(self.fail(crate::Error::Invalid, at)),
            },
            Atom::BigInt {
                negative,
                magnitude,
            } => match int_128(negative, magnitude) {
                Some(Ok(u)) => visitor.visit_u128(u),
                Some(Err(i)) => visitor.visit_i128(i),
                None => self.visit_ext(&atom, visitor),
            },
            // Every other place that reads a value looks for an EOC
            // first: this is the top, or an enum variant's value (that
            // MAP's key was read).
            Atom::Eoc => {
                let state = if self.depth == 0 {
                    State::Top
                } else {
                    State::MapValue
                };
                return Err(self.refused(state, Step::Eoc, at));
            }
            _ => self.visit_ext(&atom, visitor),
        };
        r.map_err(|e: Error| e.or_at(at))
    }

    /// An extension atom as the enum of [`crate::serde::ext`].
    fn visit_ext<V: Visitor<'de>>(
        &mut self,
        atom: &Atom<'de>,
        visitor: V,
    ) -> Result<V::Value, Error> {
        match self.ext(atom)? {
            Some((kind, bytes)) => visitor.visit_enum(ExtAccess { kind, bytes }),
            None => Err(self.fail(crate::Error::Invalid, self.last)),
        }
    }
}

fn msg(m: &str, at: usize) -> Error {
    Error::new(ErrorKind::Message(m.into()), at)
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

/// A big integer as the `u128` (`Ok`) or `i128` (`Err`) it is, if it
/// fits one; else it is an extension atom.
fn int_128(negative: bool, magnitude: &[u8]) -> Option<Result<u128, i128>> {
    let m = magnitude_u128(magnitude)?;
    if !negative {
        return Some(Ok(m));
    }
    // -1 - m
    i128::try_from(m).ok().map(|m| Err(-1 - m))
}

/// The integer methods: the inline path of small integers first.
macro_rules! deserialize_ints {
    ($($method:ident)*) => {$(
        #[inline(always)]
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
            self.int(visitor)
        }
    )*};
}

impl<'de> de::Deserializer<'de> for &mut Deserializer<'de> {
    type Error = Error;

    #[inline]
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.input.get(self.pos) {
            Some(&(tag::PINT | tag::NINT)) => self.int(visitor),
            Some(&tag::MAP) => self.container(tag::MAP, visitor),
            _ => self.container(tag::LIST, visitor),
        }
    }

    #[inline(always)]
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.container(tag::LIST, visitor)
    }

    #[inline(always)]
    fn deserialize_tuple<V: Visitor<'de>>(
        self,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.container(tag::LIST, visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.container(tag::LIST, visitor)
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.container(tag::MAP, visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.container(tag::MAP, visitor)
    }

    fn deserialize_bytes<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let at = self.pos;
        let atom = self.atom()?;
        let r = match atom {
            Atom::Hexlet(b) => visitor.visit_borrowed_bytes(&b[..]),
            Atom::Magic(b) => visitor.visit_borrowed_bytes(&b[..]),
            Atom::Tai64(b) => visitor.visit_borrowed_bytes(b),
            Atom::Blob {
                chunk_len_minus_one,
            } => visitor.visit_byte_buf(self.blob(chunk_len_minus_one)?),
            _ => return self.visit(atom, at, visitor),
        };
        r.map_err(|e: Error| e.or_at(at))
    }

    fn deserialize_byte_buf<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_bytes(visitor)
    }

    /// A FLOAT16/32 as the `f32` it holds, bit for bit (NaN payloads
    /// included, which an `f64` to `f32` conversion would not keep).
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        let at = self.pos;
        let atom = self.atom()?;
        if let Atom::Float(b) = atom {
            if b.len() <= 4 {
                let bits = crate::float::to_f64_bits(b).unwrap_or(0);
                let f = f32::from_bits(crate::float::narrow_f64_bits(bits));
                return visitor.visit_f32(f).map_err(|e: Error| e.or_at(at));
            }
        }
        self.visit(atom, at, visitor)
    }

    #[inline]
    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        if self.tag()? == tag::NIL {
            self.last = self.pos;
            self.pos += 1;
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
        name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let at = self.pos;
        let atom = self.atom()?;
        let r = match atom {
            // A unit variant: its name.
            Atom::Str(s) => visitor.visit_enum(s.into_deserializer()),
            // Any other variant: a MAP with one key, the name.
            Atom::Map => {
                self.enter()?;
                let v = visitor.visit_enum(VariantAccess { de: self })?;
                self.leave("an enum variant's MAP has more than one key")?;
                Ok(v)
            }
            _ if name == EXT => self.visit_ext(&atom, visitor),
            _ => Err(msg("an enum must be a STR or a MAP with one key", at)),
        };
        r.map_err(|e: Error| e.or_at(at))
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        self.deserialize_any(visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i128 u128 f64 char str string unit unit_struct identifier
    }

    deserialize_ints!(
        deserialize_i8 deserialize_i16 deserialize_i32 deserialize_i64
        deserialize_u8 deserialize_u16 deserialize_u32 deserialize_u64
    );
}

struct ListAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
}

impl<'de> de::SeqAccess<'de> for ListAccess<'_, 'de> {
    type Error = Error;

    #[inline(always)]
    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        if self.de.tag()? == tag::EOC {
            return Ok(None);
        }
        seed.deserialize(&mut *self.de).map(Some)
    }
}

struct MapAccess<'a, 'de> {
    de: &'a mut Deserializer<'de>,
    /// The previous key (empty before the first).
    prev: &'de [u8],
}

impl<'de> de::MapAccess<'de> for MapAccess<'_, 'de> {
    type Error = Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let at = self.de.pos;
        if self.de.tag()? == tag::EOC {
            return Ok(None);
        }
        let key = match self.de.atom()? {
            Atom::Str(s) => s,
            // Not a STR: no key.
            _ => "",
        };
        grammar::check_key(key.as_bytes(), self.prev).map_err(|e| self.de.fail(e, at))?;
        self.prev = key.as_bytes();
        seed.deserialize(de::value::BorrowedStrDeserializer::new(key))
            .map(Some)
            .map_err(|e: Error| e.or_at(at))
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        if self.de.tag()? == tag::EOC {
            return Err(self.de.refused(State::MapValue, Step::Eoc, self.de.pos));
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
        let s = match self.de.atom()? {
            Atom::Str(s) => s,
            // Not a STR: no key.
            _ => "",
        };
        // The MAP's first key.
        grammar::check_key(s.as_bytes(), &[]).map_err(|e| self.de.fail(e, at))?;
        let v = seed
            .deserialize(de::value::BorrowedStrDeserializer::new(s))
            .map_err(|e: Error| e.or_at(at))?;
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

/// An extension atom as the enum of [`crate::serde::ext`]: a variant name
/// and bytes.
struct ExtAccess<'de> {
    kind: Ext,
    bytes: Cow<'de, [u8]>,
}

impl<'de> de::EnumAccess<'de> for ExtAccess<'de> {
    type Error = Error;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self), Error> {
        let name = self.kind.name();
        let v = seed.deserialize(de::value::BorrowedStrDeserializer::<Error>::new(name))?;
        Ok((v, self))
    }
}

impl<'de> de::VariantAccess<'de> for ExtAccess<'de> {
    type Error = Error;

    fn unit_variant(self) -> Result<(), Error> {
        Err(de::Error::invalid_type(
            de::Unexpected::NewtypeVariant,
            &"unit variant",
        ))
    }
    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value, Error> {
        match self.bytes {
            Cow::Borrowed(b) => seed.deserialize(de::value::BorrowedBytesDeserializer::new(b)),
            Cow::Owned(b) => seed.deserialize(de::value::BytesDeserializer::new(&b)),
        }
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
