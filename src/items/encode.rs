//! Writing a subtree back to bytes. Parse then encode reproduces the input
//! byte for byte; edited trees are checked on the way out so that what is
//! written is always canonical (MAP keys ordered and paired, BLOB chunks of
//! the right lengths, minimal integers and floats).
//!
//! The encoder is one loop over the links (first child, next sibling,
//! parent), like [`Items::walk`] but without its iterator state: each node
//! is written with one room check and exact stores. Common nodes (small
//! integers, short strings, containers, EOC) take the inline path; the
//! rare types go through [`enc::encode`], which validates them.

use super::node::{Item, NONE};
use super::{payload, Items, UNLINKED};
use crate::atom::{tag, Atom, ItemType};
use crate::enc;
use crate::error::Error;

/// Where encoded bytes go: a buffer, or just a byte count. Every method
/// either appends all its bytes or fails, appending nothing.
trait Sink {
    /// One byte.
    fn byte(&mut self, b: u8) -> Result<(), Error>;
    /// An integer: tag `t`, then the minimal big-endian `magnitude` as a
    /// BIN.
    fn int(&mut self, t: u8, magnitude: u64) -> Result<(), Error>;
    /// A BIN or STR (`tag_base` 0x80 or 0xC0) whose payload is trusted.
    fn string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error>;
    /// A validated atom (the slow path for rare types).
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error>;
}

/// Length of the minimal big-endian form of `v` (0 for 0).
#[inline(always)]
fn magnitude_len(v: u64) -> usize {
    8 - (v.leading_zeros() / 8) as usize
}

struct Counter(usize);

impl Counter {
    #[inline(always)]
    fn add(&mut self, n: usize) -> Result<(), Error> {
        self.0 = self.0.checked_add(n).ok_or(Error::LenTooBig)?;
        Ok(())
    }
}

impl Sink for Counter {
    #[inline(always)]
    fn byte(&mut self, _: u8) -> Result<(), Error> {
        self.add(1)
    }
    #[inline(always)]
    fn int(&mut self, _: u8, magnitude: u64) -> Result<(), Error> {
        self.add(2 + magnitude_len(magnitude))
    }
    #[inline(always)]
    fn string(&mut self, _: u8, payload: &[u8]) -> Result<(), Error> {
        let len = payload.len();
        let head = if len < enc::LEN_1 {
            1
        } else {
            let mut h = [0u8; 9];
            enc::string_header(tag::BIN, len, &mut h)
        };
        self.add(head.checked_add(len).ok_or(Error::LenTooBig)?)
    }
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error> {
        self.add(enc::encoded_len(a)?)
    }
}

struct Buffer<'b> {
    buf: &'b mut [u8],
    pos: usize,
}

impl Buffer<'_> {
    /// The next `len` bytes of the buffer, or `NoMem`.
    #[inline(always)]
    fn room(&mut self, len: usize) -> Result<&mut [u8], Error> {
        self.buf
            .get_mut(self.pos..)
            .and_then(|d| d.get_mut(..len))
            .ok_or(Error::NoMem)
    }

    /// A BIN/STR of 61 bytes or more: header, then payload.
    #[inline(never)]
    fn long_string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error> {
        let mut head = [0u8; 9];
        let h = enc::string_header(tag_base, payload.len(), &mut head);
        let total = h.checked_add(payload.len()).ok_or(Error::NoMem)?;
        let dst = self.room(total)?;
        if let (Some(d), Some(s)) = (dst.get_mut(..h), head.get(..h)) {
            d.copy_from_slice(s);
        }
        if let Some(d) = dst.get_mut(h..) {
            if d.len() == payload.len() {
                d.copy_from_slice(payload);
            }
        }
        self.pos += total;
        Ok(())
    }
}

impl Sink for Buffer<'_> {
    #[inline(always)]
    fn byte(&mut self, b: u8) -> Result<(), Error> {
        let d = self.buf.get_mut(self.pos).ok_or(Error::NoMem)?;
        *d = b;
        self.pos += 1;
        Ok(())
    }
    #[inline(always)]
    fn int(&mut self, t: u8, m: u64) -> Result<(), Error> {
        let n = magnitude_len(m);
        let dst = self.room(2 + n)?;
        // Exact stores only: the bytes after the encoding stay untouched.
        store(dst, 0, [t, tag::BIN | n as u8]);
        if n >= 4 {
            // Two overlapping 4-byte stores cover the 4..=8 bytes.
            store(dst, 2, ((m >> (8 * (n - 4))) as u32).to_be_bytes());
            store(dst, n - 2, (m as u32).to_be_bytes());
        } else if n >= 2 {
            store(dst, 2, ((m >> (8 * (n - 2))) as u16).to_be_bytes());
            store(dst, n, (m as u16).to_be_bytes());
        } else if n == 1 {
            store(dst, 2, [m as u8]);
        }
        self.pos += 2 + n;
        Ok(())
    }
    #[inline(always)]
    fn string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error> {
        let len = payload.len();
        if len >= enc::LEN_1 {
            return self.long_string(tag_base, payload);
        }
        let dst = self.room(1 + len)?;
        if let Some((h, body)) = dst.split_first_mut() {
            *h = tag_base | len as u8;
            copy_bytes(body, payload);
        }
        self.pos += 1 + len;
        Ok(())
    }
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error> {
        let room = self.buf.get_mut(self.pos..).ok_or(Error::NoMem)?;
        self.pos += enc::encode(a, room)?;
        Ok(())
    }
}

/// `dst[at..at + N] = v` when that range exists.
#[inline(always)]
fn store<const N: usize>(dst: &mut [u8], at: usize, v: [u8; N]) {
    if let Some(d) = dst.get_mut(at..).and_then(|d| d.first_chunk_mut::<N>()) {
        *d = v;
    }
}

/// `dst[at..at + N] = src[at..at + N]` when both ranges exist.
#[inline(always)]
fn copy_fixed<const N: usize>(dst: &mut [u8], src: &[u8], at: usize) {
    if let Some(s) = src.get(at..).and_then(|s| s.first_chunk::<N>()) {
        store(dst, at, *s);
    }
}

/// Copies `src` into `dst` (of the same length): short payloads with two
/// overlapping word copies, longer ones with `copy_from_slice`.
#[inline(always)]
fn copy_bytes(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if dst.len() != n {
        return;
    }
    if n > 16 {
        dst.copy_from_slice(src);
    } else if n >= 8 {
        copy_fixed::<8>(dst, src, 0);
        copy_fixed::<8>(dst, src, n - 8);
    } else if n >= 4 {
        copy_fixed::<4>(dst, src, 0);
        copy_fixed::<4>(dst, src, n - 4);
    } else if n >= 2 {
        copy_fixed::<2>(dst, src, 0);
        copy_fixed::<2>(dst, src, n - 2);
    } else if n == 1 {
        copy_fixed::<1>(dst, src, 0);
    }
}

/// Raw type bits of the node types (`ItemType as u32`).
const T_NIL: u32 = ItemType::Nil as u32;
const T_FALSE: u32 = ItemType::False as u32;
const T_TRUE: u32 = ItemType::True as u32;
const T_PINT: u32 = ItemType::Pint as u32;
const T_NINT: u32 = ItemType::Nint as u32;
const T_LIST: u32 = ItemType::List as u32;
const T_MAP: u32 = ItemType::Map as u32;
const T_BLOB: u32 = ItemType::Blob as u32;
const T_BIN: u32 = ItemType::Bin as u32;
const T_STR: u32 = ItemType::Str as u32;

/// State of the BLOB being written (BLOBs do not nest).
#[derive(Clone, Copy)]
struct BlobOut {
    chunk_minus_one: u64,
    last_full: bool,
}

impl<'a, S: AsRef<[Item]>> Items<'a, S> {
    /// Writes the subtree at `idx` into `buf` and returns the number of
    /// bytes written. `Err(NoMem)` when `buf` is too small (its contents
    /// are then unspecified; [`Items::encoded_len`] tells the size needed).
    /// Bytes after the written ones are left untouched.
    pub fn encode(&self, idx: u32, buf: &mut [u8]) -> Result<usize, Error> {
        let mut sink = Buffer { buf, pos: 0 };
        self.emit(idx, &mut sink)?;
        Ok(sink.pos)
    }

    /// The number of bytes [`Items::encode`] writes for the subtree at
    /// `idx`, with the same checks.
    pub fn encoded_len(&self, idx: u32) -> Result<usize, Error> {
        let mut sink = Counter(0);
        self.emit(idx, &mut sink)?;
        Ok(sink.0)
    }

    /// The encoding loop: the events of [`Items::walk`] (same order, same
    /// step bound, same errors), each written as it comes.
    #[inline(always)]
    fn emit(&self, root: u32, sink: &mut impl Sink) -> Result<(), Error> {
        let nodes = self.nodes();
        let mut blob: Option<BlobOut> = None;
        // Each node is entered and left at most once in a sound tree.
        let mut steps = nodes
            .len()
            .saturating_mul(2)
            .saturating_add(2)
            .min(u32::MAX as usize);
        let mut n = root;
        // The container holding `n` (meaningless at the root).
        let mut cur = NONE;
        'visit: loop {
            steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
            let item = nodes.get(n as usize).ok_or(Error::Invalid)?;
            let bits = item.type_bits();
            if matches!(bits, T_LIST | T_MAP | T_BLOB) {
                match bits {
                    T_LIST => sink.byte(tag::LIST)?,
                    T_MAP => {
                        self.check_map(item)?;
                        sink.byte(tag::MAP)?;
                    }
                    _ => blob = Some(self.blob_head(n, sink)?),
                }
                let first = item.links().first;
                if first != NONE {
                    cur = n;
                    n = first;
                    continue;
                }
                // Empty: left right away (the next step).
                steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                cur = item.links().parent;
                let next = step_after(n, item.next, root, cur)?;
                close(bits, &mut blob, sink)?;
                if let Some(x) = next {
                    n = x;
                    continue;
                }
            } else {
                let next = step_after(n, item.next, root, cur)?;
                if let Some(b) = blob.as_mut() {
                    b.last_full = check_chunk(item, b.chunk_minus_one)?;
                }
                leaf(item, bits, sink)?;
                if let Some(x) = next {
                    n = x;
                    continue;
                }
            }
            if n == root {
                return Ok(());
            }
            // `n` was the last child of `cur`: leave containers until one
            // has a next sibling.
            let mut c = cur;
            loop {
                steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                let item = nodes.get(c as usize).ok_or(Error::Invalid)?;
                cur = item.links().parent;
                let next = step_after(c, item.next, root, cur)?;
                close(item.type_bits(), &mut blob, sink)?;
                if let Some(x) = next {
                    n = x;
                    continue 'visit;
                }
                if c == root {
                    return Ok(());
                }
                c = cur;
            }
        }
    }

    /// Writes the header of the BLOB `n` and returns its state.
    #[cold]
    #[inline(never)]
    fn blob_head(&self, n: u32, sink: &mut impl Sink) -> Result<BlobOut, Error> {
        let chunk_minus_one = self.node(n.wrapping_add(1))?.raw_u64();
        sink.atom(&Atom::Blob {
            chunk_len_minus_one: chunk_minus_one,
        })?;
        Ok(BlobOut {
            chunk_minus_one,
            last_full: true,
        })
    }

    /// A MAP must hold non-empty STR keys in strictly ascending order, each
    /// followed by a value.
    #[inline(always)]
    fn check_map(&self, map: &Item) -> Result<(), Error> {
        let nodes = self.nodes();
        let mut child = map.links().first;
        let mut prev: &[u8] = &[];
        let mut budget = nodes.len();
        while child < UNLINKED {
            budget = budget.checked_sub(2).ok_or(Error::Invalid)?;
            let key = nodes.get(child as usize).ok_or(Error::Invalid)?;
            if key.type_bits() != ItemType::Str as u32 || key.size() == 0 {
                return Err(Error::MapBadKey);
            }
            let k = payload(key);
            // The first key has `prev` empty, below every key.
            if !key_above(k, prev) {
                return Err(Error::MapUnordered);
            }
            prev = k;
            let value = key.next;
            if value >= UNLINKED {
                return Err(Error::MapNoVal);
            }
            child = nodes.get(value as usize).ok_or(Error::Invalid)?.next;
        }
        Ok(())
    }
}

/// The step after node `n` (whose next sibling is `next`) inside `cur`:
/// `Some(next)`, or `None` when `n` is the root (done) or the last child
/// (leave `cur`); `Invalid` when there is nothing to leave.
#[inline(always)]
fn step_after(n: u32, next: u32, root: u32, cur: u32) -> Result<Option<u32>, Error> {
    if n != root && next < UNLINKED {
        return Ok(Some(next));
    }
    if n != root && cur == NONE {
        return Err(Error::Invalid);
    }
    Ok(None)
}

/// Writes the end of a container of type `bits`: EOC, or what a BLOB
/// needs after its chunks.
#[inline(always)]
fn close(bits: u32, blob: &mut Option<BlobOut>, sink: &mut impl Sink) -> Result<(), Error> {
    match blob.take() {
        None if bits != T_BLOB => sink.byte(tag::EOC),
        b => close_blob(b, sink),
    }
}

#[cold]
fn close_blob(blob: Option<BlobOut>, sink: &mut impl Sink) -> Result<(), Error> {
    match blob {
        // A BLOB ends with a chunk shorter than the chunk length: add an
        // empty one after a full last chunk.
        Some(b) if b.last_full => sink.byte(tag::BIN),
        Some(_) => Ok(()),
        None => Err(Error::Invalid),
    }
}

/// Canonical key order: shorter first, then bytewise.
#[inline(always)]
fn key_above(key: &[u8], prev: &[u8]) -> bool {
    if key.len() != prev.len() {
        return key.len() > prev.len();
    }
    if let (Some(a), Some(b)) = (key.first_chunk::<8>(), prev.first_chunk::<8>()) {
        if a != b {
            return u64::from_be_bytes(*a) > u64::from_be_bytes(*b);
        }
    }
    key > prev
}

/// Writes a node that is not a container.
#[inline(always)]
fn leaf(item: &Item, bits: u32, sink: &mut impl Sink) -> Result<(), Error> {
    match bits {
        T_PINT => sink.int(tag::PINT, item.raw_u64()),
        T_NINT => {
            let v = item.raw_i64();
            if v >= 0 {
                return Err(Error::Invalid);
            }
            // !v == -1 - v, the wire magnitude of a negative v.
            sink.int(tag::NINT, !v as u64)
        }
        T_STR => sink.string(tag::STR, payload(item)),
        T_BIN => sink.string(tag::BIN, payload(item)),
        T_NIL => sink.byte(tag::NIL),
        T_FALSE => sink.byte(tag::FALSE),
        T_TRUE => sink.byte(tag::TRUE),
        _ => leaf_slow(item, item.item_type(), sink),
    }
}

/// The rare leaves, validated by [`enc::encode`].
#[cold]
#[inline(never)]
fn leaf_slow(item: &Item, t: ItemType, sink: &mut impl Sink) -> Result<(), Error> {
    // Only bytes types have a payload to read.
    let bytes = || payload(item);
    let atom = match t {
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
        _ => return Err(Error::Invalid),
    };
    sink.atom(&atom)
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

/// Whether a BLOB chunk of `len` bytes is full (`true`) or the last one
/// (`false`); longer than the chunk length is an error.
#[inline]
fn chunk_fits(len: usize, chunk_minus_one: u64) -> Result<bool, Error> {
    let len = len as u64;
    if len != 0 && len - 1 > chunk_minus_one {
        return Err(Error::BlobBadChunk);
    }
    Ok(len != 0 && len - 1 == chunk_minus_one)
}
