//! Building a tree by hand: typed adders (no [`Atom`] to fill in), an
//! arena for the bytes a node must point at, and MAP set by key.
//!
//! A node holds no bytes itself: a STR, BIN, float, TAI64, MAGIC or HEXLET
//! node points at its payload, which must live as long as the tree (`'a`).
//! The payload is either borrowed from the caller (`add_str`, `add_bin`,
//! ...) or copied into an [`Arena`] over caller memory (`add_str_copy`,
//! ...; floats, times and MAGICs, which the caller does not hold in wire
//! form, always go there).
//!
//! Every adder makes one new, unlinked node (a BLOB takes two slots) and
//! returns its index; link it with the edit calls, or set it under a key of
//! a MAP with [`Items::map_put`] (keys stay ordered: O(1) when the key
//! sorts above the one the previous put appended to the same MAP, else
//! O(number of keys)).
//!
//! A refusal changes nothing, the arena included: every call checks all
//! it can fail on (an unfinished parse, the value, room in the pool and in
//! the arena) before it copies a byte or makes a node.
//!
//! ```
//! use keks::items::{Arena, Item, Items};
//! let mut pool = [Item::default(); 16];
//! let mut mem = [0u8; 64];
//! let mut arena = Arena::new(&mut mem);
//! let mut items = Items::new(&mut pool);
//! let map = items.add_map().unwrap();
//! let v = items.add_uint(7).unwrap();
//! items.map_put(map, "b", v).unwrap();
//! let v = items.add_f64(0.5, &mut arena).unwrap();
//! let key = arena.copy_str("a").unwrap();
//! items.map_put(map, key, v).unwrap();
//! let mut out = [0u8; 32];
//! let n = items.encode(map, &mut out).unwrap();
//! assert_eq!(&out[..n], &[0x09, 0xC1, b'a', 0x10, 0x38, 0x00, 0xC1, b'b', 0x0C, 0x81, 0x07, 0x00]);
//! ```

use super::node::Item;
use super::{Items, NONE};
use crate::atom::{Atom, ItemType};
use crate::error::Error;
use crate::{enc, float, tai64};

/// Bump allocation of byte copies in caller memory (`&'a mut [u8]`): each
/// copy lives as long as the memory. Nothing is ever freed but all at once
/// (drop the arena and the tree together).
pub struct Arena<'a> {
    rest: &'a mut [u8],
    used: usize,
}

impl<'a> Arena<'a> {
    /// An empty arena over `mem`.
    pub fn new(mem: &'a mut [u8]) -> Self {
        Arena { rest: mem, used: 0 }
    }

    /// Bytes handed out so far.
    pub fn used(&self) -> usize {
        self.used
    }

    /// Bytes still free.
    pub fn free(&self) -> usize {
        self.rest.len()
    }

    /// A copy of `bytes`; [`Error::NoMem`] when the arena is full.
    pub fn copy(&mut self, bytes: &[u8]) -> Result<&'a [u8], Error> {
        if bytes.len() > self.rest.len() {
            return Err(Error::NoMem);
        }
        let rest = core::mem::take(&mut self.rest);
        let Some((dst, tail)) = rest.split_at_mut_checked(bytes.len()) else {
            return Err(Error::NoMem);
        };
        dst.copy_from_slice(bytes);
        self.rest = tail;
        self.used += bytes.len();
        Ok(dst)
    }

    /// A copy of `s`.
    pub fn copy_str(&mut self, s: &str) -> Result<&'a str, Error> {
        let b = self.copy(s.as_bytes())?;
        core::str::from_utf8(b).map_err(|_| Error::BadUtf8)
    }
}

impl<'a> Items<'a, &mut [Item]> {
    /// A new NIL node.
    pub fn add_nil(&mut self) -> Result<u32, Error> {
        self.add(&Atom::Nil)
    }

    /// A new TRUE or FALSE node.
    pub fn add_bool(&mut self, v: bool) -> Result<u32, Error> {
        self.add(&Atom::Bool(v))
    }

    /// A new +INT node.
    pub fn add_uint(&mut self, v: u64) -> Result<u32, Error> {
        self.add(&Atom::Uint(v))
    }

    /// A new +INT or -INT node.
    pub fn add_int(&mut self, v: i64) -> Result<u32, Error> {
        self.add(&Atom::from_i64(v))
    }

    /// A new empty LIST.
    pub fn add_list(&mut self) -> Result<u32, Error> {
        self.add(&Atom::List)
    }

    /// A new empty MAP.
    pub fn add_map(&mut self) -> Result<u32, Error> {
        self.add(&Atom::Map)
    }

    /// A new empty BLOB of chunks of `chunk_len_minus_one + 1` bytes (its
    /// chunks are BIN nodes linked under it).
    pub fn add_blob(&mut self, chunk_len_minus_one: u64) -> Result<u32, Error> {
        self.add(&Atom::Blob {
            chunk_len_minus_one,
        })
    }

    /// A new STR node pointing at `s` (NUL refused: [`Error::BadUtf8`]).
    pub fn add_str(&mut self, s: &'a str) -> Result<u32, Error> {
        self.add(&Atom::Str(s))
    }

    /// A new STR node holding a copy of `s` made in `arena`.
    pub fn add_str_copy(&mut self, s: &str, arena: &mut Arena<'a>) -> Result<u32, Error> {
        self.add_copy(&Atom::Str(s), arena)
    }

    /// A new node for `atom` with its payload (if it has one) copied into
    /// `arena`. Everything is checked before the copy, so a refusal leaves
    /// the tree and the arena as they were.
    pub fn add_copy(&mut self, atom: &Atom<'_>, arena: &mut Arena<'a>) -> Result<u32, Error> {
        let (item, slots) = self.prepare(atom, 0)?;
        let Some(bytes) = atom_payload(atom) else {
            return self.store(item, slots, atom);
        };
        if bytes.len() > arena.free() {
            return Err(Error::NoMem);
        }
        let copied = rebase(atom, arena.copy(bytes)?)?;
        self.add(&copied)
    }

    /// A new integer node of a sign and a big-endian magnitude: +INT
    /// `magnitude` or -INT -1 - `magnitude`, leading zero bytes dropped, a
    /// +INT/-INT node when the value fits 64 bits (as parsed), else a big
    /// integer node pointing at `magnitude`.
    pub fn add_bigint(&mut self, negative: bool, magnitude: &'a [u8]) -> Result<u32, Error> {
        self.add(&Atom::from_magnitude(negative, magnitude))
    }

    /// [`Items::add_bigint`] with a big magnitude copied into `arena`.
    pub fn add_bigint_copy(
        &mut self,
        negative: bool,
        magnitude: &[u8],
        arena: &mut Arena<'a>,
    ) -> Result<u32, Error> {
        self.add_copy(&Atom::from_magnitude(negative, magnitude), arena)
    }

    /// A new BIN node pointing at `b`.
    pub fn add_bin(&mut self, b: &'a [u8]) -> Result<u32, Error> {
        self.add(&Atom::Bin(b))
    }

    /// A new BIN node holding a copy of `b` made in `arena`.
    pub fn add_bin_copy(&mut self, b: &[u8], arena: &mut Arena<'a>) -> Result<u32, Error> {
        self.add_copy(&Atom::Bin(b), arena)
    }

    /// A new HEXLET node pointing at `h`.
    pub fn add_hexlet(&mut self, h: &'a [u8; 16]) -> Result<u32, Error> {
        self.add(&Atom::Hexlet(h))
    }

    /// A new float node: `v` in the shortest of 2, 4 or 8 bytes that holds
    /// it exactly, stored in `arena` (negative zero:
    /// [`Error::FloatNonMinimal`]).
    pub fn add_f64(&mut self, v: f64, arena: &mut Arena<'a>) -> Result<u32, Error> {
        let mut b = [0u8; 8];
        let n = float::shortest(v, &mut b)?;
        self.add_copy(&Atom::Float(b.get(..n).unwrap_or(&[])), arena)
    }

    /// A new TAI64 (or TAI64N) node of a UNIX time (seconds since
    /// 1970-01-01 UTC and nanoseconds), its label stored in `arena`.
    pub fn add_utc(&mut self, unix: i64, nsec: u32, arena: &mut Arena<'a>) -> Result<u32, Error> {
        let mut label = [0u8; 16];
        let n = tai64::utc_to_label(unix, nsec, &mut label)?;
        self.add_copy(&Atom::Tai64(label.get(..n).unwrap_or(&[])), arena)
    }

    /// A new MAGIC node of `magic`, exactly 12 bytes (pad a shorter one
    /// with zero bytes; another length is [`Error::Invalid`]), stored in
    /// `arena`.
    pub fn add_magic(&mut self, magic: &[u8], arena: &mut Arena<'a>) -> Result<u32, Error> {
        let m = enc::exact_magic(magic)?;
        self.add_copy(&Atom::Magic(m), arena)
    }

    /// Sets `key` to the unlinked node `value` in `map` (the key node is
    /// made here, pointing at `key`): replaces the value of an equal key,
    /// returning the old value (now unlinked), or inserts the pair in key
    /// order, returning `None`. O(1) for a key above the one the previous
    /// put appended to `map`, else O(number of keys). An empty key is
    /// [`Error::MapBadKey`]; nothing is changed on error.
    pub fn map_put(&mut self, map: u32, key: &'a str, value: u32) -> Result<Option<u32>, Error> {
        self.check_put(map, key, Some(value), 0)?;
        let k = self.add_str(key)?;
        self.set_checked(map, k, value)
    }

    /// [`Items::map_put`] with the key copied into `arena` (checked all
    /// first: a refusal leaves the arena as it was too).
    pub fn map_put_copy(
        &mut self,
        map: u32,
        key: &str,
        value: u32,
        arena: &mut Arena<'a>,
    ) -> Result<Option<u32>, Error> {
        self.check_put(map, key, Some(value), 0)?;
        if key.len() > arena.free() {
            return Err(Error::NoMem);
        }
        let k = self.add_str(arena.copy_str(key)?)?;
        self.set_checked(map, k, value)
    }

    /// Sets `key` of `map` to a new node for `value` (see
    /// [`Items::map_put`]), the key and the value's payload copied into
    /// `arena`: the nodes are made and the bytes copied only when the
    /// whole call can succeed.
    pub fn map_put_new(
        &mut self,
        map: u32,
        key: &str,
        value: &Atom<'_>,
        arena: &mut Arena<'a>,
    ) -> Result<Option<u32>, Error> {
        let (_, slots) = self.prepare(value, 1)?;
        self.check_put(map, key, None, slots)?;
        if key.len().saturating_add(payload_len(value)) > arena.free() {
            return Err(Error::NoMem);
        }
        let v = self.add_copy(value, arena)?;
        let k = self.add_str(arena.copy_str(key)?)?;
        self.set_checked(map, k, v)
    }

    /// [`Items::map_put_new`] with the key and the value's payload pointed
    /// at, not copied.
    pub fn map_put_new_ref(
        &mut self,
        map: u32,
        key: &'a str,
        value: &Atom<'a>,
    ) -> Result<Option<u32>, Error> {
        let (_, slots) = self.prepare(value, 1)?;
        self.check_put(map, key, None, slots)?;
        let v = self.add(value)?;
        let k = self.add_str(key)?;
        self.set_checked(map, k, v)
    }

    /// Checks what a put of `key` under `map` can fail on, with room for
    /// the key node after `extra` more nodes, changing nothing: `map` is
    /// a MAP, the key is a valid non-empty STR, and `value` (when made
    /// already) may be linked there.
    fn check_put(&self, map: u32, key: &str, value: Option<u32>, extra: u32) -> Result<(), Error> {
        if self.item_type(map) != ItemType::Map {
            return Err(Error::Invalid);
        }
        // Placed by key: no order to keep.
        crate::grammar::check_key(key.as_bytes(), &[])?;
        self.prepare(&Atom::Str(key), extra)?;
        match value {
            Some(v) => self.check_link(map, v),
            None => Ok(()),
        }
    }

    /// [`Items::map_set`] of a key node made for a put that
    /// [`Items::check_put`] passed.
    fn set_checked(&mut self, map: u32, key: u32, value: u32) -> Result<Option<u32>, Error> {
        match self.map_set(map, key, value)? {
            NONE => Ok(None),
            old => Ok(Some(old)),
        }
    }
}

/// The payload length of a bytes atom (0 for the others).
fn payload_len(atom: &Atom<'_>) -> usize {
    atom_payload(atom).map_or(0, <[u8]>::len)
}

/// The payload of a bytes atom.
fn atom_payload<'x>(atom: &Atom<'x>) -> Option<&'x [u8]> {
    match *atom {
        Atom::Hexlet(h) => Some(h),
        Atom::Magic(m) => Some(m),
        Atom::BigInt { magnitude, .. } => Some(magnitude),
        Atom::Float(b) | Atom::Tai64(b) | Atom::Bin(b) => Some(b),
        Atom::Str(s) => Some(s.as_bytes()),
        _ => None,
    }
}

/// The bytes atom `atom` with its payload replaced by `copy` (a copy of
/// it).
fn rebase<'a>(atom: &Atom<'_>, c: &'a [u8]) -> Result<Atom<'a>, Error> {
    let fixed = |_| Error::Invalid;
    Ok(match *atom {
        Atom::Hexlet(_) => Atom::Hexlet(c.try_into().map_err(fixed)?),
        Atom::Magic(_) => Atom::Magic(c.try_into().map_err(fixed)?),
        Atom::BigInt { negative, .. } => Atom::BigInt {
            negative,
            magnitude: c,
        },
        Atom::Float(_) => Atom::Float(c),
        Atom::Tai64(_) => Atom::Tai64(c),
        Atom::Bin(_) => Atom::Bin(c),
        Atom::Str(_) => Atom::Str(core::str::from_utf8(c).map_err(|_| Error::BadUtf8)?),
        _ => return Err(Error::Invalid),
    })
}
#[cfg(test)]
mod tests {
    use super::*;
    use crate::items::Item;

    #[test]
    fn typed_adders_and_map_put_encode_canonically() {
        let mut pool = [Item::default(); 32];
        let mut mem = [0u8; 64];
        let mut arena = Arena::new(&mut mem);
        let mut items = Items::new(&mut pool);
        let map = items.add_map().unwrap();
        let keys = ["zz", "b", "a", "c", "aa"];
        let values = [
            items.add_nil().unwrap(),
            items.add_bool(true).unwrap(),
            items.add_int(-2).unwrap(),
            items.add_utc(1483228800, 0, &mut arena).unwrap(),
            items.add_str_copy("é", &mut arena).unwrap(),
        ];
        for (k, v) in keys.iter().zip(values) {
            assert_eq!(items.map_put(map, k, v), Ok(None));
        }
        // Replacing a value gives the old one back.
        let seven = items.add_uint(7).unwrap();
        assert_eq!(items.map_put(map, "b", seven), Ok(Some(values[1])));
        let mut out = [0u8; 64];
        let n = items.encode(map, &mut out).unwrap();
        let want: &[u8] = &[
            0x09, 0xC1, b'a', 0x0D, 0x81, 0x01, 0xC1, b'b', 0x0C, 0x81, 0x07, 0xC1, b'c', 0x18,
            0x40, 0, 0, 0, 0x58, 0x68, 0x46, 0xA5, 0xC2, b'a', b'a', 0xC2, 0xC3, 0xA9, 0xC2, b'z',
            b'z', 0x01, 0x00,
        ];
        assert_eq!(&out[..n], want);
        let len = items.len();
        assert_eq!(items.map_put(map, "", seven), Err(Error::MapBadKey));
        assert_eq!(items.map_put(seven, "x", seven), Err(Error::Invalid));
        assert_eq!(items.len(), len, "nothing made on error");
    }

    #[test]
    fn map_put_in_key_order_is_linear() {
        extern crate std;
        use std::{format, string::String, vec, vec::Vec};
        let count = |n: usize| {
            let keys: Vec<String> = (0..n).map(|i| format!("{i:08}")).collect();
            let mut pool = vec![Item::default(); 2 * n + 1];
            let mut items = Items::new(&mut pool);
            let map = items.add_map().unwrap();
            super::super::edit::compares::take();
            for k in &keys {
                let v = items.add_nil().unwrap();
                assert_eq!(items.map_put(map, k, v), Ok(None));
            }
            let made = super::super::edit::compares::take();
            assert_eq!(items.child_count(map), Ok(2 * n));
            made
        };
        // One comparison with the last key per put (the first put has none).
        // Under Miri (about 1000 times slower) small MAPs show it as well,
        // and leave the time budget to the other tests.
        let sizes: &[usize] = if cfg!(miri) {
            &[100, 300]
        } else {
            &[10_000, 100_000]
        };
        for &n in sizes {
            assert_eq!(count(n), n as u64 - 1, "{n} keys");
        }
    }

    #[test]
    fn map_put_after_an_unlink_walks_and_keeps_order() {
        let mut pool = [Item::default(); 16];
        let mut items = Items::new(&mut pool);
        let map = items.add_map().unwrap();
        for k in ["a", "c", "d"] {
            let v = items.add_nil().unwrap();
            items.map_put(map, k, v).unwrap();
        }
        // Removing the last pair drops the hint; a smaller and a larger
        // key then land in order.
        assert!(items.map_remove(map, b"d").unwrap().is_some());
        for k in ["b", "e"] {
            let v = items.add_nil().unwrap();
            items.map_put(map, k, v).unwrap();
        }
        let mut out = [0u8; 32];
        let n = items.encode(map, &mut out).unwrap();
        let want: &[u8] = &[
            0x09, 0xC1, b'a', 0x01, 0xC1, b'b', 0x01, 0xC1, b'c', 0x01, 0xC1, b'e', 0x01, 0x00,
        ];
        assert_eq!(&out[..n], want);
    }

    #[test]
    fn arena_runs_out() {
        let mut mem = [0u8; 5];
        let mut arena = Arena::new(&mut mem);
        assert_eq!(arena.copy(b"abc"), Ok(&b"abc"[..]));
        assert_eq!(arena.copy(b"abc"), Err(Error::NoMem));
        assert_eq!((arena.used(), arena.free()), (3, 2));
        let mut pool = [Item::default(); 4];
        let mut items = Items::new(&mut pool);
        assert_eq!(items.add_f64(0.1, &mut arena), Err(Error::NoMem));
        assert_eq!(items.add_f64(1.0, &mut arena), Ok(0));
        assert_eq!(items.add_str_copy("a\0", &mut arena), Err(Error::BadUtf8));
        assert_eq!(items.add_magic(b"x", &mut arena), Err(Error::Invalid));
        assert_eq!(items.add_magic(&[b'x'; 12], &mut arena), Err(Error::NoMem));
    }
}
