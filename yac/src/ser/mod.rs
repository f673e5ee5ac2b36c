//! serde serialization into YAC (feature `serde`): the mapping is in
//! [`crate::serde`].
//!
//! Atoms are encoded straight into the output `Vec` by the encoder's rules
//! ([`crate::enc`]: the one encoding of each value). A MAP's entries go out
//! in the order the source gives them; the serializer compares each key
//! with the one before ([`key_above`], the format's key order) and, only if
//! one came out of order, reorders the MAP's entries when it closes (a
//! duplicate key is refused then). A `HashMap` thus gives the same bytes as
//! a `BTreeMap` with the same contents. A struct's first key out of order
//! instead moves the small entry in its way aside (`SMALL_MOVE` bytes at most) and is
//! written in place, so that a large field after it is never moved; the
//! aside entries come back when a key above them comes or the MAP ends.
//! A struct type seen before is written by its field plan instead
//! (`serde/plan.rs`): its keys need no check, and its fields are put
//! in order by one permutation when it closes. Nothing is allocated per
//! MAP: the entries' offsets, the plans and the reordering's scratch space
//! are kept by the serializer for the whole document, and with `std` by
//! the thread for its next document (a program writing many learns its
//! types' plans once).
//!
//! [`to_writer`] streams: whatever lies outside every open MAP (the
//! elements of a top-level sequence, say) goes to the writer as soon as
//! [`FLUSH_AT`] bytes have gathered, checked after each element of a
//! sequence (a tuple's or an array's length is fixed by its type, so
//! their elements are not flush points); an open MAP stays in memory until
//! it closes, since a later key may move its entries.
//!
//! [`key_above`]: crate::rules::key_above
// Without `std` there is no `to_writer`; its links go to the published docs.
#![cfg_attr(
    not(feature = "std"),
    doc = "<!-- a link to an item this build leaves out -->

[`to_writer`]: https://docs.rs/keks/latest/keks/ser/fn.to_writer.html"
)]

mod field_order;
mod key;
mod map;
mod store;
#[cfg(test)]
mod tests;
mod workspace;

use alloc::vec::Vec;

use serde::ser::{self, Serialize};

use crate::atom::{tag, Atom};
use crate::grammar;
use crate::rules::{chunk_fits, strip_zeros};
use crate::serde::ext::{Ext, EXT};
use crate::serde::plan::Plans;
pub use crate::serde::{Error, ErrorKind};
pub use field_order::{field_orders, FieldOrder};
use key::ExtSer;
pub use map::MapSer;
use map::{Entry, MapState};
use store::{
    copy_checking_nul, first_nul_words, put, put_medium_str, put_short, put_words, short_window,
    short_words,
};
use workspace::Workspace;

/// Serializes `value` into a new YAC document.
pub fn to_vec<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    append_to_vec(&mut out, value)?;
    Ok(out)
}

/// Serializes `value` and appends the document to `out` (whose capacity
/// is reused: serialize many documents into one cleared `Vec`). On error
/// `out` is left as it was.
pub fn append_to_vec<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> Result<(), Error> {
    let base = out.len();
    // Owned while it writes: one indirection less per byte.
    let mut ser = Serializer::new(core::mem::take(out));
    let r = value
        .serialize(&mut ser)
        .map_err(|e| e.or_at(ser.position()));
    *out = ser.done();
    if r.is_err() {
        out.truncate(base);
    }
    r
}

/// How many bytes [`to_writer`] gathers before it writes them out (when
/// no MAP is open).
#[cfg_attr(
    not(feature = "std"),
    doc = "<!-- a link to an item this build leaves out -->

[`to_writer`]: https://docs.rs/keks/latest/keks/ser/fn.to_writer.html"
)]
pub const FLUSH_AT: usize = 64 * 1024;

/// Serializes `value` and writes the document to `writer`, streaming (see
/// the [module](self) documentation). An I/O failure is
/// [`ErrorKind::Io`]; `?` turns the error into an `std::io::Error`.
#[cfg(feature = "std")]
pub fn to_writer<W: std::io::Write, T: Serialize + ?Sized>(
    mut writer: W,
    value: &T,
) -> Result<(), Error> {
    let mut sink = |b: &[u8]| writer.write_all(b).map_err(Error::from);
    let mut ser = Serializer::new(Vec::new());
    ser.sink = Some(&mut sink);
    let r = value
        .serialize(&mut ser)
        .and_then(|()| ser.flush(0))
        .map_err(|e| e.or_at(ser.position()));
    ser.done();
    r
}

/// Where [`Serializer`] hands the bytes it streams.
type Sink<'o> = &'o mut dyn FnMut(&[u8]) -> Result<(), Error>;

/// The serde serializer: appends to a `Vec<u8>`. Use [`to_vec`],
/// [`append_to_vec`] or [`to_writer`].
#[cfg_attr(
    not(feature = "std"),
    doc = "<!-- a link to an item this build leaves out -->

[`to_writer`]: https://docs.rs/keks/latest/keks/ser/fn.to_writer.html"
)]
pub struct Serializer<'o> {
    out: Vec<u8>,
    /// Where this document starts in `out`.
    base: usize,
    /// Bytes handed to the sink.
    flushed: usize,
    sink: Option<Sink<'o>>,
    /// MAPs open.
    open_maps: usize,
    /// The entries of the open MAPs, innermost MAP's last.
    entries: Vec<Entry>,
    /// Where the fields of the open planned structs that reorder them
    /// start, in declaration order (a skipped field's start is the next
    /// one's), innermost struct's last.
    starts: Vec<usize>,
    /// Reordering space: the entries with their ends, then the MAP's bytes.
    order: Vec<(Entry, usize)>,
    scratch: Vec<u8>,
    /// Entries of the open structs set aside until a key above theirs
    /// comes, with their ends, in `stash`; each struct's smallest key last.
    stashed: Vec<(Entry, usize)>,
    stash: Vec<u8>,
    /// The field plans of the struct types seen ([`crate::serde::plan`]).
    plans: Plans,
    /// Field names of the open structs whose plan is being learnt.
    recorded: Vec<&'static str>,
    /// The states of the open MAPs written without a plan.
    maps: Vec<MapState>,
    /// Where the workspace goes back when the document is done.
    spare: workspace::Spare,
}

impl<'o> Serializer<'o> {
    /// A serializer appending to `out`, with the thread's workspace (see
    /// [`workspace`]).
    fn new(out: Vec<u8>) -> Self {
        let (ws, spare) = workspace::take();
        Serializer::with_workspace(out, ws, spare)
    }

    /// A serializer appending to `out`, with the workspace `ws` (given back
    /// to `spare` when done).
    fn with_workspace(out: Vec<u8>, ws: Workspace, spare: workspace::Spare) -> Self {
        let base = out.len();
        let Workspace {
            entries,
            starts,
            order,
            scratch,
            stashed,
            stash,
            plans,
            recorded,
            maps,
        } = ws;
        Serializer {
            out,
            base,
            flushed: 0,
            sink: None,
            open_maps: 0,
            entries,
            starts,
            order,
            scratch,
            stashed,
            stash,
            plans,
            recorded,
            maps,
            spare,
        }
    }

    /// Gives the workspace back to the thread, and the output.
    fn done(self) -> Vec<u8> {
        let Serializer {
            out,
            entries,
            starts,
            order,
            scratch,
            stashed,
            stash,
            plans,
            recorded,
            maps,
            spare,
            ..
        } = self;
        let ws = Workspace {
            entries,
            starts,
            order,
            scratch,
            stashed,
            stash,
            plans,
            recorded,
            maps,
        };
        workspace::keep(ws, spare);
        out
    }

    /// Bytes of the document written so far.
    fn position(&self) -> usize {
        self.flushed + self.out.len() - self.base
    }

    fn fail(&self, e: crate::Error) -> Error {
        Error::new(ErrorKind::Format(e), self.position())
    }

    /// Streams the buffered bytes once there are `at_least` of them, if no
    /// MAP is open.
    fn flush(&mut self, at_least: usize) -> Result<(), Error> {
        let n = self.out.len() - self.base;
        if self.open_maps != 0 || n < at_least || n == 0 {
            return Ok(());
        }
        if let Some(sink) = self.sink.as_mut() {
            sink(self.out.get(self.base..).unwrap_or(&[]))?;
            self.out.truncate(self.base);
            self.flushed += n;
        }
        Ok(())
    }

    #[inline(always)]
    fn byte(&mut self, b: u8) {
        self.out.push(b);
    }

    /// Stores the window `w` past the end of the output and keeps its
    /// first `n` bytes (see [`put`]).
    #[inline(always)]
    fn put<const N: usize>(&mut self, w: &[u8; N], n: usize) {
        put(&mut self.out, w, n);
    }

    /// +INT (`t` = PINT) or -INT (NINT) of a magnitude that fits `u64`.
    #[inline(always)]
    fn int(&mut self, t: u8, magnitude: u64) {
        let n = 8 - (magnitude.leading_zeros() / 8) as usize;
        // The magnitude's bytes moved to the top of the word (for n = 0
        // the magnitude is 0, and so is any shift of it).
        let top = u64::from_le_bytes(magnitude.wrapping_shl(64 - 8 * n as u32).to_be_bytes());
        // The atom's bytes: tag, BIN header, the magnitude's n bytes.
        let lo = u64::from(t) | u64::from(tag::BIN | n as u8) << 8 | top << 16;
        put_words(&mut self.out, lo, top >> 48, 2 + n);
    }

    #[inline(always)]
    fn i64(&mut self, v: i64) {
        const _: () = assert!(tag::NINT == tag::PINT + 1);
        // Branch-free: the sign's mask flips a negative value into its
        // wire magnitude (-1 - v) and picks NINT (PINT + 1).
        let sign = v >> 63;
        self.int(tag::PINT + (sign & 1) as u8, (v ^ sign) as u64);
    }

    fn u128(&mut self, v: u128) {
        match u64::try_from(v) {
            Ok(v) => self.int(tag::PINT, v),
            Err(_) => self.bigint(tag::PINT, &v.to_be_bytes()),
        }
    }

    fn i128(&mut self, v: i128) {
        match (u128::try_from(v), i64::try_from(v)) {
            (Ok(u), _) => self.u128(u),
            (_, Ok(i)) => self.i64(i),
            // -1 - v >= 0 for v < 0: the wire magnitude.
            _ => self.bigint(tag::NINT, &((-1 - v) as u128).to_be_bytes()),
        }
    }

    fn bigint(&mut self, t: u8, magnitude: &[u8]) {
        self.byte(t);
        self.string(tag::BIN, strip_zeros(magnitude));
    }

    /// A BIN or STR header and payload.
    #[inline(always)]
    fn string(&mut self, base: u8, payload: &[u8]) {
        let n = payload.len();
        if n <= 16 {
            let w = short_window(base, payload);
            self.put_window(&w, n);
            return;
        }
        self.long_header(base, n);
        self.out.extend_from_slice(payload);
    }

    /// The header of a BIN or STR of `n` bytes, with room made for its
    /// payload.
    #[inline]
    fn long_header(&mut self, base: u8, n: usize) {
        // In registers: a header built in memory and read back wider than
        // it was stored waits for the stores to land.
        let (first8, ninth, h) = crate::enc::string_header_words(base, n);
        self.out.reserve(h + n);
        put_words(&mut self.out, first8, u64::from(ninth), h);
    }

    /// Stores a window of [`short_window`] whose payload is `n` bytes long:
    /// tag and payload at once, with no call to memcpy.
    #[inline(always)]
    fn put_window(&mut self, w: &[u8; 24], n: usize) {
        self.put(w, 1 + n);
    }

    /// A STR; its payload's first 16 bytes (zero-padded) are returned as
    /// a big-endian number, as [`KeyRank`](map::KeyRank) compares them.
    #[inline(always)]
    fn str(&mut self, s: &str) -> Result<u128, Error> {
        let b = s.as_bytes();
        if b.len() <= 16 {
            let (lo, hi) = short_words(b);
            if first_nul_words(lo, hi) < b.len() {
                return Err(self.fail(crate::Error::BadUtf8));
            }
            put_short(&mut self.out, tag::STR | b.len() as u8, lo, hi, 1 + b.len());
            return Ok(key_head(lo, hi));
        }
        if b.len() <= 32 {
            // One header byte (32 < LEN_1).
            const _: () = assert!(32 < crate::enc::LEN_1);
            let (lo, hi) = self.medium_str::<2>(b)?;
            return Ok(key_head(lo, hi));
        }
        self.long_str(b)?;
        let head = b.first_chunk::<16>().copied().unwrap_or([0; 16]);
        Ok(u128::from_be_bytes(head))
    }

    /// A STR of `8 * W + 1` to `16 * W` bytes with a one-byte header, from
    /// registers ([`put_medium_str`]); its first 16 bytes as two
    /// little-endian words.
    #[inline(always)]
    fn medium_str<const W: usize>(&mut self, b: &[u8]) -> Result<(u64, u64), Error> {
        put_medium_str::<W>(&mut self.out, tag::STR | b.len() as u8, b)
            .ok_or_else(|| self.fail(crate::Error::BadUtf8))
    }

    /// A STR of more than 32 bytes: one of up to 64 with a one-byte header
    /// (below LEN_1) from registers, else its payload copied a block at a
    /// time, the copy checking for NUL on the way (one pass over the
    /// bytes).
    #[inline(never)]
    fn long_str(&mut self, b: &[u8]) -> Result<(), Error> {
        const _: () = assert!(crate::enc::LEN_1 <= 65);
        if b.len() < crate::enc::LEN_1 {
            return self.medium_str::<4>(b).map(|_| ());
        }
        let n = b.len();
        let Some(last) = n.checked_sub(8) else {
            // Not reached (the caller's STRs are longer): the plain way.
            if b.contains(&0) {
                return Err(self.fail(crate::Error::BadUtf8));
            }
            self.string(tag::STR, b);
            return Ok(());
        };
        let start = self.out.len();
        self.long_header(tag::STR, n);
        let at = self.out.len();
        // SAFETY: long_header left room for n bytes past `at`, and n >= 8:
        // copy_checking_nul reads only inside `b` and writes only the n
        // bytes past `at`; the length then covers those n bytes, all
        // written.
        let zeros = unsafe {
            let z = copy_checking_nul(b.as_ptr(), self.out.as_mut_ptr().add(at), n, last);
            self.out.set_len(at + n);
            z
        };
        if zeros {
            self.out.truncate(start);
            return Err(self.fail(crate::Error::BadUtf8));
        }
        Ok(())
    }

    fn f64(&mut self, v: f64) -> Result<(), Error> {
        if v == 0.0 && v.is_sign_negative() {
            return Err(Error::new(ErrorKind::NegativeZero, self.position()));
        }
        self.float_bits(v.to_bits())
    }

    /// The float of these binary64 bits, in its shortest exact width.
    fn float_bits(&mut self, bits: u64) -> Result<(), Error> {
        let mut b = [0u8; 8];
        let n = crate::float::shortest(f64::from_bits(bits), &mut b).map_err(|e| self.fail(e))?;
        self.byte(tag::FLOAT16 + n.trailing_zeros() as u8 - 1);
        self.out.extend_from_slice(b.get(..n).unwrap_or(&[]));
        Ok(())
    }

    /// A validated atom of the rare kinds (through the general encoder).
    fn atom(&mut self, atom: &Atom<'_>) -> Result<(), Error> {
        let mut head = [0u8; 48];
        let n = crate::enc::encode(atom, &mut head).map_err(|e| self.fail(e))?;
        self.out.extend_from_slice(head.get(..n).unwrap_or(&[]));
        Ok(())
    }

    /// One of the atoms of [`crate::serde::ext`], from its bytes.
    fn ext(&mut self, kind: Ext, b: &[u8]) -> Result<(), Error> {
        let bad = |s: &Self| s.fail(crate::Error::Invalid);
        match kind {
            Ext::Hexlet => self.atom(&Atom::Hexlet(b.try_into().map_err(|_| bad(self))?)),
            Ext::Tai64 => self.atom(&Atom::Tai64(b)),
            Ext::Magic => self.atom(&Atom::Magic(b.try_into().map_err(|_| bad(self))?)),
            Ext::Float => self.atom(&Atom::Float(b)),
            Ext::BigPos | Ext::BigNeg => {
                let t = if kind == Ext::BigNeg {
                    tag::NINT
                } else {
                    tag::PINT
                };
                self.bigint(t, b);
                Ok(())
            }
            Ext::Blob => {
                let (head, data) = b.split_first_chunk::<8>().ok_or_else(|| bad(self))?;
                self.blob(u64::from_be_bytes(*head), data)
            }
        }
    }

    /// A BLOB of `data` in chunks of `chunk_len_minus_one + 1` bytes: full
    /// chunks, then the short one that ends it.
    fn blob(&mut self, chunk_len_minus_one: u64, data: &[u8]) -> Result<(), Error> {
        self.byte(tag::BLOB);
        self.out
            .extend_from_slice(&chunk_len_minus_one.to_be_bytes());
        let step = usize::try_from(chunk_len_minus_one)
            .ok()
            .and_then(|c| c.checked_add(1))
            .unwrap_or(usize::MAX);
        let mut rest = data;
        loop {
            let (chunk, tail) = rest.split_at(rest.len().min(step));
            self.string(tag::BIN, chunk);
            if !chunk_fits(chunk.len(), chunk_len_minus_one).map_err(|e| self.fail(e))? {
                return Ok(());
            }
            rest = tail;
        }
    }

    /// A MAP with one key, `variant`, whose value follows.
    fn variant_start(&mut self, variant: &'static str) -> Result<(), Error> {
        // The MAP's first key.
        grammar::check_key(variant.as_bytes(), &[]).map_err(|e| self.fail(e))?;
        self.byte(tag::MAP);
        self.str(variant).map(drop)
    }
}

impl<'a, 'o> ser::Serializer for &'a mut Serializer<'o> {
    type Ok = ();
    type Error = Error;
    type SerializeSeq = ListSer<'a, 'o>;
    type SerializeTuple = ListSer<'a, 'o>;
    type SerializeTupleStruct = ListSer<'a, 'o>;
    type SerializeTupleVariant = ListSer<'a, 'o>;
    type SerializeMap = MapSer<'a, 'o>;
    type SerializeStruct = MapSer<'a, 'o>;
    type SerializeStructVariant = MapSer<'a, 'o>;

    #[inline(always)]
    fn serialize_bool(self, v: bool) -> Result<(), Error> {
        self.byte(if v { tag::TRUE } else { tag::FALSE });
        Ok(())
    }
    #[inline(always)]
    fn serialize_i8(self, v: i8) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    #[inline(always)]
    fn serialize_i16(self, v: i16) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    #[inline(always)]
    fn serialize_i32(self, v: i32) -> Result<(), Error> {
        self.serialize_i64(v.into())
    }
    #[inline(always)]
    fn serialize_i64(self, v: i64) -> Result<(), Error> {
        self.i64(v);
        Ok(())
    }
    fn serialize_i128(self, v: i128) -> Result<(), Error> {
        self.i128(v);
        Ok(())
    }
    #[inline(always)]
    fn serialize_u8(self, v: u8) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    #[inline(always)]
    fn serialize_u16(self, v: u16) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    #[inline(always)]
    fn serialize_u32(self, v: u32) -> Result<(), Error> {
        self.serialize_u64(v.into())
    }
    #[inline(always)]
    fn serialize_u64(self, v: u64) -> Result<(), Error> {
        self.int(tag::PINT, v);
        Ok(())
    }
    fn serialize_u128(self, v: u128) -> Result<(), Error> {
        self.u128(v);
        Ok(())
    }
    fn serialize_f32(self, v: f32) -> Result<(), Error> {
        if v == 0.0 && v.is_sign_negative() {
            return Err(Error::new(ErrorKind::NegativeZero, self.position()));
        }
        // Widened on the bits: a conversion instruction would quiet a
        // signalling NaN.
        let bits = crate::float::to_f64_bits(&v.to_bits().to_be_bytes()).unwrap_or(0);
        self.float_bits(bits)
    }
    #[inline(always)]
    fn serialize_f64(self, v: f64) -> Result<(), Error> {
        self.f64(v)
    }
    fn serialize_char(self, v: char) -> Result<(), Error> {
        self.str(v.encode_utf8(&mut [0u8; 4])).map(drop)
    }
    #[inline(always)]
    fn serialize_str(self, v: &str) -> Result<(), Error> {
        self.str(v).map(drop)
    }
    #[inline(always)]
    fn serialize_bytes(self, v: &[u8]) -> Result<(), Error> {
        self.string(tag::BIN, v);
        Ok(())
    }
    #[inline(always)]
    fn serialize_none(self) -> Result<(), Error> {
        self.byte(tag::NIL);
        Ok(())
    }
    #[inline(always)]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<(), Error> {
        value.serialize(self)
    }
    #[inline(always)]
    fn serialize_unit(self) -> Result<(), Error> {
        self.serialize_none()
    }
    fn serialize_unit_struct(self, _name: &'static str) -> Result<(), Error> {
        self.serialize_none()
    }
    fn serialize_unit_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
    ) -> Result<(), Error> {
        self.str(variant).map(drop)
    }
    #[inline(always)]
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
            if let Some(kind) = Ext::from_name(variant) {
                return value.serialize(ExtSer { ser: self, kind });
            }
        }
        self.variant_start(variant)?;
        value.serialize(&mut *self)?;
        self.byte(tag::EOC);
        Ok(())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<ListSer<'a, 'o>, Error> {
        self.byte(tag::LIST);
        Ok(ListSer {
            ser: self,
            closes: 1,
        })
    }
    #[inline(always)]
    fn serialize_tuple(self, len: usize) -> Result<ListSer<'a, 'o>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_struct(
        self,
        _name: &'static str,
        len: usize,
    ) -> Result<ListSer<'a, 'o>, Error> {
        self.serialize_seq(Some(len))
    }
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<ListSer<'a, 'o>, Error> {
        self.variant_start(variant)?;
        self.byte(tag::LIST);
        Ok(ListSer {
            ser: self,
            closes: 2,
        })
    }
    #[inline(always)]
    fn serialize_map(self, _len: Option<usize>) -> Result<MapSer<'a, 'o>, Error> {
        Ok(self.open_map(1, None))
    }
    #[inline(always)]
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<MapSer<'a, 'o>, Error> {
        Ok(self.open_map(1, Some(name)))
    }
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _index: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<MapSer<'a, 'o>, Error> {
        self.variant_start(variant)?;
        Ok(self.open_map(2, Some(variant)))
    }
}

/// A LIST being written (also a tuple variant's LIST).
pub struct ListSer<'a, 'o> {
    ser: &'a mut Serializer<'o>,
    /// EOCs at the end: 2 for a tuple variant (its LIST and its MAP).
    closes: u8,
}

impl ListSer<'_, '_> {
    /// A sequence's element, after which a streaming serializer may flush:
    /// a sequence's length is the data's, so it is where streaming bounds
    /// the memory held.
    #[inline(always)]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)?;
        if self.ser.sink.is_some() {
            self.ser.flush(FLUSH_AT)?;
        }
        Ok(())
    }

    /// An element of a tuple, an array, a tuple struct or a tuple variant:
    /// their length is the type's, so nothing is flushed between their
    /// elements (a sequence inside one still flushes at its own). Their
    /// flush test cost canada-list 8% of its serialize instructions, most
    /// of its LIST elements being those of `[i64; 2]` pairs.
    #[inline(always)]
    fn fixed_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }

    #[inline(always)]
    fn finish(self) -> Result<(), Error> {
        for _ in 0..self.closes {
            self.ser.byte(tag::EOC);
        }
        Ok(())
    }
}

/// The four serde traits of a LIST (sequence, tuple, tuple struct, tuple
/// variant) are one: each element (by `$element`: a sequence's may flush,
/// the others' not), then EOC.
macro_rules! list_traits {
    ($($trait:ident::$method:ident => $element:ident),*) => {$(
        impl ser::$trait for ListSer<'_, '_> {
            type Ok = ();
            type Error = Error;
            #[inline(always)]
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.$element(value)
            }
            #[inline(always)]
            fn end(self) -> Result<(), Error> {
                self.finish()
            }
        }
    )*};
}

list_traits!(
    SerializeSeq::serialize_element => element,
    SerializeTuple::serialize_element => fixed_element,
    SerializeTupleStruct::serialize_field => fixed_element,
    SerializeTupleVariant::serialize_field => fixed_element
);

/// A key's first 16 bytes, the words `lo`, `hi` of [`short_words`], as one
/// number, the first byte the most significant, as
/// [`KeyRank`](map::KeyRank) compares them.
#[inline(always)]
fn key_head(lo: u64, hi: u64) -> u128 {
    (u128::from(lo) | u128::from(hi) << 64).swap_bytes()
}
