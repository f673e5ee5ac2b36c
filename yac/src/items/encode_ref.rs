//! The reference encoder: the walk iterator and `enc::encode` per atom,
//! with no fast loop; the oracle of the fast encoder's differential tests.

use super::node::{Item, NONE};
use super::walk::Event;
use super::{payload, Items, UNLINKED};
use crate::atom::{tag, Atom, ItemType};
use crate::enc;
use crate::error::Error;

/// Where encoded bytes go: a buffer, or just a byte count.
trait Sink {
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error>;
    /// A BIN or STR (`tag_base` 0x80 or 0xC0) whose payload is trusted.
    fn string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error>;
}

struct Counter(usize);

impl Sink for Counter {
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error> {
        self.0 = self
            .0
            .checked_add(enc::encoded_len(a)?)
            .ok_or(Error::LenTooBig)?;
        Ok(())
    }
    fn string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error> {
        let mut head = [0u8; 9];
        let h = enc::string_header(tag_base, payload.len(), &mut head);
        self.0 = self
            .0
            .checked_add(h)
            .and_then(|n| n.checked_add(payload.len()))
            .ok_or(Error::LenTooBig)?;
        Ok(())
    }
}

struct Buffer<'b> {
    buf: &'b mut [u8],
    pos: usize,
}

impl Sink for Buffer<'_> {
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error> {
        let room = self.buf.get_mut(self.pos..).ok_or(Error::NoMem)?;
        self.pos += enc::encode(a, room)?;
        Ok(())
    }
    fn string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error> {
        let mut head = [0u8; 9];
        let h = enc::string_header(tag_base, payload.len(), &mut head);
        let head = head.get(..h).ok_or(Error::Invalid)?;
        let body_at = self.pos.checked_add(h).ok_or(Error::NoMem)?;
        // Each destination is cut to exactly its source's length, so the
        // copies cannot fail (and pull in no panic path).
        put(self.buf, self.pos, head)?;
        put(self.buf, body_at, payload)?;
        self.pos = body_at + payload.len();
        Ok(())
    }
}

/// Copies `src` to `buf[at..]`, or `NoMem` when it does not fit.
#[inline]
fn put(buf: &mut [u8], at: usize, src: &[u8]) -> Result<(), Error> {
    let dst = buf
        .get_mut(at..)
        .and_then(|d| d.get_mut(..src.len()))
        .ok_or(Error::NoMem)?;
    dst.copy_from_slice(src);
    Ok(())
}

/// State of the BLOB being written (BLOBs do not nest).
struct BlobOut {
    chunk_minus_one: u64,
    last_full: bool,
}

impl<'a, S: AsRef<[Item]>> Items<'a, S> {
    /// Writes the subtree at `idx` into `buf` and returns the number of
    /// bytes written. `Err(NoMem)` when `buf` is too small (its contents
    /// are then unspecified; [`Items::encoded_len`] tells the size needed).
    pub(super) fn encode_ref(&self, idx: u32, buf: &mut [u8]) -> Result<usize, Error> {
        let mut sink = Buffer { buf, pos: 0 };
        self.emit_ref(idx, &mut sink)?;
        Ok(sink.pos)
    }

    /// The number of bytes [`Items::encode`] writes for the subtree at
    /// `idx`, with the same checks.
    pub(super) fn encoded_len_ref(&self, idx: u32) -> Result<usize, Error> {
        let mut sink = Counter(0);
        self.emit_ref(idx, &mut sink)?;
        Ok(sink.0)
    }

    fn emit_ref(&self, idx: u32, sink: &mut impl Sink) -> Result<(), Error> {
        let mut blob: Option<BlobOut> = None;
        for event in self.walk(idx) {
            let (event, _) = event?;
            match event {
                Event::Leaf(n) => {
                    let item = self.node(n)?;
                    if let Some(b) = blob.as_mut() {
                        b.last_full = check_chunk(item, b.chunk_minus_one)?;
                    }
                    self.leaf_ref(item, sink)?;
                }
                Event::Enter(n) => {
                    let item = self.node(n)?;
                    if blob.is_some() {
                        // Only BIN chunks may follow a BLOB header.
                        return Err(Error::BlobBadTerm);
                    }
                    match item.item_type() {
                        ItemType::List => sink.atom(&Atom::List)?,
                        ItemType::Map => {
                            self.check_map_ref(item)?;
                            sink.atom(&Atom::Map)?;
                        }
                        ItemType::Blob => {
                            let chunk_minus_one = self.node(n.wrapping_add(1))?.raw_u64();
                            sink.atom(&Atom::Blob {
                                chunk_len_minus_one: chunk_minus_one,
                            })?;
                            blob = Some(BlobOut {
                                chunk_minus_one,
                                last_full: true,
                            });
                        }
                        _ => return Err(Error::Invalid),
                    }
                }
                Event::Exit(n) => match blob.take() {
                    // A BLOB ends with a chunk shorter than the chunk
                    // length: add an empty one after a full last chunk.
                    Some(b) if b.last_full => sink.string(tag::BIN, &[])?,
                    Some(_) => {}
                    None if self.node(n)?.item_type() == ItemType::Blob => {
                        return Err(Error::Invalid)
                    }
                    None => sink.atom(&Atom::Eoc)?,
                },
            }
        }
        Ok(())
    }

    /// Writes a node that is not a container.
    fn leaf_ref(&self, item: &Item, sink: &mut impl Sink) -> Result<(), Error> {
        let bytes = || -> &'a [u8] { payload(item) };
        let atom = match item.item_type() {
            ItemType::Nil => Atom::Nil,
            ItemType::False => Atom::Bool(false),
            ItemType::True => Atom::Bool(true),
            ItemType::Pint => Atom::Uint(item.raw_u64()),
            ItemType::Nint => Atom::Nint(item.raw_i64()),
            ItemType::Pbig => Atom::BigInt {
                negative: false,
                magnitude: bytes(),
            },
            ItemType::Nbig => Atom::BigInt {
                negative: true,
                magnitude: bytes(),
            },
            ItemType::Hexlet => Atom::Hexlet(bytes().try_into().map_err(|_| Error::Invalid)?),
            ItemType::Float => Atom::Float(bytes()),
            ItemType::Tai64 => Atom::Tai64(bytes()),
            ItemType::Magic => Atom::Magic(bytes().try_into().map_err(|_| Error::Invalid)?),
            ItemType::Bin => return sink.string(tag::BIN, bytes()),
            ItemType::Str => return sink.string(tag::STR, bytes()),
            _ => return Err(Error::Invalid),
        };
        sink.atom(&atom)
    }

    /// A MAP must hold non-empty STR keys in strictly ascending order, each
    /// followed by a value.
    fn check_map_ref(&self, map: &Item) -> Result<(), Error> {
        let mut child = map.links().first;
        let mut prev: Option<&[u8]> = None;
        let mut budget = self.len();
        while child != NONE && child != UNLINKED {
            budget = budget.checked_sub(2).ok_or(Error::Invalid)?;
            let key = self.node(child)?;
            if key.item_type() != ItemType::Str || key.size() == 0 {
                return Err(Error::MapBadKey);
            }
            let k = payload(key);
            if prev.is_some_and(|p| !key_above(k, p)) {
                return Err(Error::MapUnordered);
            }
            prev = Some(k);
            let value = key.next;
            if value == NONE || value == UNLINKED {
                return Err(Error::MapNoVal);
            }
            child = self.node(value)?.next;
        }
        Ok(())
    }
}

/// A BLOB chunk must be a BIN no longer than the chunk length; returns
/// whether it is full (only the last chunk may be shorter).
fn check_chunk(item: &Item, chunk_minus_one: u64) -> Result<bool, Error> {
    if item.item_type() != ItemType::Bin {
        return Err(Error::BlobBadTerm);
    }
    let full = chunk_fits(payload(item).len(), chunk_minus_one)?;
    if !full && item.next < UNLINKED {
        // A short chunk must be the last one.
        return Err(Error::BlobBadChunk);
    }
    Ok(full)
}

fn chunk_fits(len: usize, chunk_minus_one: u64) -> Result<bool, Error> {
    let len = len as u64;
    if len != 0 && len - 1 > chunk_minus_one {
        return Err(Error::BlobBadChunk);
    }
    Ok(len != 0 && len - 1 == chunk_minus_one)
}

fn key_above(key: &[u8], prev: &[u8]) -> bool {
    (key.len(), key) > (prev.len(), prev)
}
