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
//! are kept by the serializer for the whole document.
//!
//! [`to_writer`] streams: whatever lies outside every open MAP (the
//! elements of a top-level LIST, say) goes to the writer as soon as
//! [`FLUSH_AT`] bytes have gathered; an open MAP stays in memory until it
//! closes, since a later key may move its entries.

use alloc::vec::Vec;
use core::cmp::Ordering;

use serde::ser::{self, Serialize};

use crate::atom::{tag, Atom};
use crate::grammar;
use crate::rules::{chunk_fits, key_above, key_cmp, strip_zeros};
use crate::serde::error::UNKNOWN;
use crate::serde::ext::{Ext, EXT};
use crate::serde::plan::Plans;
pub use crate::serde::{Error, ErrorKind};

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
    *out = ser.out;
    if r.is_err() {
        out.truncate(base);
    }
    r
}

/// How many bytes [`to_writer`] gathers before it writes them out (when
/// no MAP is open).
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
    value
        .serialize(&mut ser)
        .and_then(|()| ser.flush(0))
        .map_err(|e| e.or_at(ser.position()))
}

/// Up to this many entries, a MAP out of order is put in order by
/// insertion; beyond, by a merge sort.
const SMALL_MAP: usize = 16;

/// A struct's entry of up to this many bytes is moved aside for a key
/// that comes before it (a later entry can then be written in place).
const SMALL_MOVE: usize = 64;

/// Where a MAP entry is in the output.
#[derive(Clone, Copy)]
struct Entry {
    /// Where the entry (its key's tag) starts.
    start: usize,
    /// Where its key's payload starts.
    key: usize,
    /// The key's length.
    key_len: usize,
}

impl Entry {
    fn key<'b>(&self, out: &'b [u8]) -> &'b [u8] {
        out.get(self.key..self.key + self.key_len).unwrap_or(&[])
    }

    /// The same entry with its bytes moved to `start`.
    fn moved_to(&self, start: usize) -> Entry {
        Entry {
            start,
            key: start + (self.key - self.start),
            key_len: self.key_len,
        }
    }
}

/// A key as the format's order sees it: its length first, then its bytes,
/// of which the first 16 (zero-padded) are held here as one number, so
/// that most comparisons need neither the output nor a byte loop.
#[derive(Clone, Copy)]
struct KeyRank {
    len: usize,
    head: u128,
    /// Where its payload is in the output (read for keys of equal length
    /// above 16 bytes).
    at: usize,
}

impl KeyRank {
    /// Below every key (keys are never empty).
    const NONE: KeyRank = KeyRank {
        len: 0,
        head: 0,
        at: 0,
    };

    /// Whether this key comes strictly after `prev`, both in `out`.
    #[inline(always)]
    fn above(&self, prev: &KeyRank, out: &[u8]) -> bool {
        if (self.len, self.head) != (prev.len, prev.head) {
            return (self.len, self.head) > (prev.len, prev.head);
        }
        self.len > 16 && self.above_long(prev, out)
    }

    /// [`above`](Self::above) for two long keys with the same first 16
    /// bytes.
    #[cold]
    fn above_long(&self, prev: &KeyRank, out: &[u8]) -> bool {
        match (
            out.get(self.at..self.at + self.len),
            out.get(prev.at..prev.at + prev.len),
        ) {
            (Some(k), Some(p)) => key_above(k, p),
            _ => false,
        }
    }
}

/// The error of a key equal to one before it in its MAP.
fn duplicate(ser: &Serializer<'_>) -> Error {
    ser.fail(grammar::UNORDERED_KEY)
}

/// Where [`Serializer`] hands the bytes it streams.
type Sink<'o> = &'o mut dyn FnMut(&[u8]) -> Result<(), Error>;

/// The serde serializer: appends to a `Vec<u8>`. Use [`to_vec`],
/// [`append_to_vec`] or [`to_writer`].
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
}

impl<'o> Serializer<'o> {
    fn new(out: Vec<u8>) -> Self {
        let base = out.len();
        Serializer {
            out,
            base,
            flushed: 0,
            sink: None,
            open_maps: 0,
            entries: Vec::new(),
            order: Vec::new(),
            scratch: Vec::new(),
            stashed: Vec::new(),
            stash: Vec::new(),
            plans: Plans::new(),
            recorded: Vec::new(),
            maps: Vec::new(),
        }
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
    fn put<const N: usize>(&mut self, w: [u8; N], n: usize) {
        put(&mut self.out, w, n);
    }

    /// +INT (`t` = PINT) or -INT (NINT) of a magnitude that fits `u64`.
    #[inline(always)]
    fn int(&mut self, t: u8, magnitude: u64) {
        let n = 8 - (magnitude.leading_zeros() / 8) as usize;
        // The magnitude's bytes moved to the top of the word (for n = 0
        // the magnitude is 0, and so is any shift of it).
        let top = magnitude.wrapping_shl(64 - 8 * n as u32).to_be_bytes();
        let mut w = [0u8; 16];
        w[0] = t;
        w[1] = tag::BIN | n as u8;
        w[2..10].copy_from_slice(&top);
        self.put(w, 2 + n);
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
        let mut head = [0u8; 9];
        let h = crate::enc::string_header(base, n, &mut head);
        self.out.reserve(h + n);
        self.put(head, h);
    }

    /// Stores a window of [`short_window`] whose payload is `n` bytes long:
    /// tag and payload at once, with no call to memcpy.
    #[inline(always)]
    fn put_window(&mut self, w: &[u8; 24], n: usize) {
        self.put(*w, 1 + n);
    }

    /// A STR; its payload's first 16 bytes (zero-padded, as [`KeyRank`]
    /// reads them) are returned.
    #[inline(always)]
    fn str(&mut self, s: &str) -> Result<[u8; 16], Error> {
        let b = s.as_bytes();
        if b.len() <= 16 {
            let w = short_window(tag::STR, b);
            let head = window_payload(&w);
            if first_nul(&head) < b.len() {
                return Err(self.fail(crate::Error::BadUtf8));
            }
            self.put_window(&w, b.len());
            return Ok(head);
        }
        self.long_str(b)?;
        let mut head = [0u8; 16];
        head.copy_from_slice(b.get(..16).unwrap_or(&[0; 16]));
        Ok(head)
    }

    /// A STR of more than 16 bytes: its payload copied a word at a time,
    /// the copy checking for NUL on the way (one pass over the bytes).
    #[inline(never)]
    fn long_str(&mut self, b: &[u8]) -> Result<(), Error> {
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

    /// Opens a MAP; `name` is a struct's (or struct variant's), whose
    /// plan is used or learnt.
    #[inline(always)]
    fn open_map(&mut self, closes: u8, name: Option<&'static str>) -> MapSer<'_, 'o> {
        self.byte(tag::MAP);
        self.open_maps += 1;
        let plan = match name {
            Some(n) => self.plans.find(n),
            None => None,
        };
        let (plan, next, end, reorders) =
            match plan.and_then(|i| Some((i, self.plans.plans.get(i)?))) {
                Some((i, p)) => (i, p.first, p.first + p.len, !p.order.is_empty()),
                None => {
                    let learn = name.filter(|_| self.plans.room());
                    self.open_state(learn, name.is_some(), false);
                    (NO_PLAN, 0, 0, false)
                }
            };
        MapSer {
            start: self.out.len(),
            first_entry: self.entries.len(),
            closes,
            plan,
            next,
            end,
            reorders,
            ser: self,
        }
    }

    /// Moves the stashed entry `top` (ending at `end` in the stash, just
    /// taken off `stashed`) back onto the output, as the MAP's last entry.
    #[cold]
    fn restore(&mut self, top: Entry, end: usize) {
        let start = self.out.len();
        self.out
            .extend_from_slice(self.stash.get(top.start..end).unwrap_or(&[]));
        self.stash.truncate(top.start);
        self.entries.push(top.moved_to(start));
    }

    /// Notes the state of a MAP written without a plan.
    fn open_state(&mut self, learn: Option<&'static str>, in_place: bool, unsorted: bool) {
        self.maps.push(MapState {
            prev: KeyRank::NONE,
            unsorted,
            in_place,
            first_stashed: self.stashed.len(),
            learn,
            first_recorded: self.recorded.len(),
        });
    }

    /// A MAP with one key, `variant`, whose value follows.
    fn variant_start(&mut self, variant: &'static str) -> Result<(), Error> {
        // The MAP's first key.
        grammar::check_key(variant.as_bytes(), &[]).map_err(|e| self.fail(e))?;
        self.byte(tag::MAP);
        self.str(variant).map(drop)
    }
}

/// Stores the window `w` past the end of `v` and keeps its first `n`
/// bytes: one room check and one fixed-size store (no memcpy call, no
/// length-dependent branch).
#[inline(always)]
fn put<const N: usize>(v: &mut Vec<u8>, w: [u8; N], n: usize) {
    let len = v.len();
    if v.capacity() - len < N {
        return put_slow(v, &w, n);
    }
    // SAFETY: the spare capacity holds at least N bytes (just checked), so
    // the N-byte store stays inside the allocation; the length then covers
    // at most those N bytes, all written.
    unsafe {
        v.as_mut_ptr().add(len).cast::<[u8; N]>().write_unaligned(w);
        v.set_len(len + n.min(N));
    }
}

/// [`put`] near the end of the capacity: only the bytes kept, so that a
/// `Vec` of the document's size is not grown (out of line: the store paths
/// stay small enough to inline into serde's calls).
#[cold]
#[inline(never)]
fn put_slow<const N: usize>(v: &mut Vec<u8>, w: &[u8; N], n: usize) {
    v.extend_from_slice(w.get(..n).unwrap_or(w));
}

/// A short string's atom built in a window: the tag (`base` with the
/// length) at 0, the payload (at most 16 bytes) from 1, zeros after it.
#[inline(always)]
fn short_window(base: u8, payload: &[u8]) -> [u8; 24] {
    let mut w = [0u8; 24];
    w[0] = (base & 0xC0) | payload.len() as u8;
    copy_short(&mut w[1..17], payload);
    w
}

/// The 16 payload bytes of a [`short_window`].
#[inline(always)]
fn window_payload(w: &[u8; 24]) -> [u8; 16] {
    let mut p = [0u8; 16];
    p.copy_from_slice(&w[1..17]);
    p
}

/// Where the first zero byte of `b` is (16 if none), a word at a time:
/// the lowest bit set in `(x - 0x01..01) & !x & 0x80..80` marks the first
/// zero byte of `x` (a borrow only sets bits above it).
#[inline(always)]
fn first_nul(b: &[u8; 16]) -> usize {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_le_bytes([0x80; 8]);
    let zeros = |x: u64| x.wrapping_sub(ONES) & !x & HIGHS;
    let (lo, hi) = b.split_at(8);
    let lo = zeros(u64::from_le_bytes(lo.try_into().unwrap_or([0; 8])));
    if lo != 0 {
        return lo.trailing_zeros() as usize / 8;
    }
    let hi = zeros(u64::from_le_bytes(hi.try_into().unwrap_or([0; 8])));
    if hi != 0 {
        return 8 + hi.trailing_zeros() as usize / 8;
    }
    16
}

/// Copies `src` (at most 16 bytes) to the start of `dst` (16 bytes) with
/// fixed-size moves: two overlapping words for 4 to 16 bytes.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    let mut pair = |k: usize| {
        if let (Some(d), Some(s)) = (dst.get_mut(..k), src.get(..k)) {
            d.copy_from_slice(s);
        }
        let (from, to) = (n - k, n);
        if let (Some(d), Some(s)) = (dst.get_mut(from..to), src.get(from..to)) {
            d.copy_from_slice(s);
        }
    };
    match n {
        8..=16 => pair(8),
        4..=7 => pair(4),
        2..=3 => pair(2),
        1 => pair(1),
        _ => {}
    }
}

/// Copies the `n` bytes at `src` to `dst` (`last` = n - 8, n >= 8) and
/// tells whether one of them is zero: 16 bytes at a time with SSE2 (one
/// compare and one OR per block), the last block overlapping the one
/// before.
///
/// # Safety
/// `src` must be readable and `dst` writable for `n` bytes, `n >= 8`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
unsafe fn copy_checking_nul(src: *const u8, dst: *mut u8, n: usize, last: usize) -> bool {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_or_si128,
        _mm_setzero_si128, _mm_storeu_si128,
    };
    if n < 16 {
        // SAFETY: the caller's contract.
        return unsafe { copy_words(src, dst, n, last) };
    }
    // SAFETY (for the block): every 16-byte block read or written starts at
    // i + 16 <= n or at n - 16 >= 0, inside the caller's n bytes.
    unsafe {
        let zero = _mm_setzero_si128();
        let mut acc = zero;
        let mut i = 0;
        while i + 16 <= n {
            let x = _mm_loadu_si128(src.add(i).cast::<__m128i>());
            acc = _mm_or_si128(acc, _mm_cmpeq_epi8(x, zero));
            _mm_storeu_si128(dst.add(i).cast::<__m128i>(), x);
            i += 16;
        }
        let x = _mm_loadu_si128(src.add(n - 16).cast::<__m128i>());
        acc = _mm_or_si128(acc, _mm_cmpeq_epi8(x, zero));
        _mm_storeu_si128(dst.add(n - 16).cast::<__m128i>(), x);
        _mm_movemask_epi8(acc) != 0
    }
}

/// [`copy_checking_nul`] a word at a time (the same contract).
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
unsafe fn copy_checking_nul(src: *const u8, dst: *mut u8, n: usize, last: usize) -> bool {
    // SAFETY: the caller's contract.
    unsafe { copy_words(src, dst, n, last) }
}

/// Copies `n >= 8` bytes a word at a time, the last word overlapping the
/// one before, and tells whether one of them is zero (a word `x` has a
/// zero byte exactly when `(x - 0x01..01) & !x & 0x80..80` is not zero).
///
/// # Safety
/// As [`copy_checking_nul`].
#[inline(always)]
unsafe fn copy_words(src: *const u8, dst: *mut u8, n: usize, last: usize) -> bool {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut zeros = 0u64;
    // SAFETY: every word read or written starts at i + 8 <= n or at
    // last = n - 8, inside the caller's n bytes.
    unsafe {
        let mut i = 0;
        while i + 8 <= n {
            let x = src.add(i).cast::<u64>().read_unaligned();
            zeros |= x.wrapping_sub(ONES) & !x & HIGHS;
            dst.add(i).cast::<u64>().write_unaligned(x);
            i += 8;
        }
        let x = src.add(last).cast::<u64>().read_unaligned();
        zeros |= x.wrapping_sub(ONES) & !x & HIGHS;
        dst.add(last).cast::<u64>().write_unaligned(x);
    }
    zeros != 0
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
    #[inline(always)]
    fn element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)?;
        if self.ser.sink.is_some() {
            self.ser.flush(FLUSH_AT)?;
        }
        Ok(())
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
/// variant) are one: each element, then EOC.
macro_rules! list_traits {
    ($($trait:ident::$method:ident),*) => {$(
        impl ser::$trait for ListSer<'_, '_> {
            type Ok = ();
            type Error = Error;
            #[inline(always)]
            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
                self.element(value)
            }
            #[inline(always)]
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
/// canonical key order when the MAP ends if a key came out of order.
pub struct MapSer<'a, 'o> {
    ser: &'a mut Serializer<'o>,
    /// Where the first entry starts (after the MAP tag).
    start: usize,
    /// This MAP's first index in `ser.entries`.
    first_entry: usize,
    /// EOCs at the end: 2 for a struct variant (its MAP and the variant's).
    closes: u8,
    /// The struct's plan (an index in `ser.plans`), or [`NO_PLAN`]: none,
    /// or a field came that the plan does not have there. Without a plan
    /// the MAP's [`MapState`] is the last of `ser.maps`.
    plan: usize,
    /// The plan's next field and the end of its fields (in
    /// `ser.plans.keys`). The entries of the fields written by the plan
    /// are kept only when it reorders them (else
    /// [`off_plan`](Self::off_plan) finds them).
    next: usize,
    end: usize,
    /// The plan puts the fields in another order than declared.
    reorders: bool,
}

/// The state of a MAP written without a plan (kept by the serializer, so
/// that a planned struct's [`MapSer`] stays small).
#[derive(Clone, Copy)]
struct MapState {
    /// The previous key.
    prev: KeyRank,
    /// A key came that is not above the one before.
    unsorted: bool,
    /// Keys are put in order as they come (a struct's), not at the end.
    in_place: bool,
    /// This MAP's first index in `ser.stashed`.
    first_stashed: usize,
    /// The struct's name, when its plan is being learnt from this one.
    learn: Option<&'static str>,
    /// This struct's first index in `ser.recorded`.
    first_recorded: usize,
}

/// [`MapSer::plan`] of a MAP written without a plan.
const NO_PLAN: usize = usize::MAX;

impl MapSer<'_, '_> {
    /// Writes a key (a non-empty STR), notes where its entry starts, and
    /// checks that it comes after the key before.
    #[inline(always)]
    fn key_str(&mut self, key: &str) -> Result<(), Error> {
        let ser = &mut *self.ser;
        // Order is checked by rank below, duplicates when sorting.
        grammar::check_key(key.as_bytes(), &[]).map_err(|e| ser.fail(e))?;
        let start = ser.out.len();
        let head = ser.str(key)?;
        let rank = KeyRank {
            len: key.len(),
            head: u128::from_be_bytes(head),
            at: ser.out.len() - key.len(),
        };
        match ser.maps.last_mut() {
            Some(st) if ser.stashed.len() <= st.first_stashed && rank.above(&st.prev, &ser.out) => {
                st.prev = rank;
            }
            _ => return self.key_out_of_order(key, start, rank),
        }
        ser.entries.push(Entry {
            start,
            key: rank.at,
            key_len: key.len(),
        });
        Ok(())
    }

    /// [`key_str`](Self::key_str) of a key not above the one before (or
    /// while entries are stashed), just written at `start`.
    #[cold]
    #[inline(never)]
    fn key_out_of_order(
        &mut self,
        key: &str,
        mut start: usize,
        mut rank: KeyRank,
    ) -> Result<(), Error> {
        let mut st = self.state();
        let ser = &mut *self.ser;
        let last_len = ser.entries.last().map_or(0, |e| start - e.start);
        if st.in_place && last_len <= SMALL_MOVE {
            // Once only: a struct whose keys keep coming out of order,
            // or whose entry in the way is large, is sorted at its
            // end instead.
            st.in_place = false;
            ser.out.truncate(start);
            self.make_room(key.as_bytes(), st.first_stashed)?;
            let ser = &mut *self.ser;
            start = ser.out.len();
            ser.str(key)?;
            rank.at = ser.out.len() - key.len();
        } else {
            st.in_place = false;
            st.unsorted = true;
        }
        let ser = &mut *self.ser;
        ser.entries.push(Entry {
            start,
            key: rank.at,
            key_len: key.len(),
        });
        st.prev = rank;
        if let Some(last) = ser.maps.last_mut() {
            *last = st;
        }
        Ok(())
    }

    /// The state of this MAP (written without a plan).
    #[inline(always)]
    fn state(&self) -> MapState {
        self.ser.maps.last().copied().unwrap_or(MapState {
            prev: KeyRank::NONE,
            unsorted: true,
            in_place: false,
            first_stashed: self.ser.stashed.len(),
            learn: None,
            first_recorded: self.ser.recorded.len(),
        })
    }

    /// Makes the end of the output the place of `key` in a struct's
    /// order: the stashed entries below it come back, the written ones
    /// above it go to the stash. Equal keys are refused.
    #[cold]
    fn make_room(&mut self, key: &[u8], first_stashed: usize) -> Result<(), Error> {
        let ser = &mut *self.ser;
        while ser.stashed.len() > first_stashed {
            let Some(&(top, end)) = ser.stashed.last() else {
                break;
            };
            match key_cmp(top.key(&ser.stash), key) {
                Ordering::Less => {}
                Ordering::Equal => return Err(duplicate(ser)),
                Ordering::Greater => break,
            }
            ser.stashed.pop();
            ser.restore(top, end);
        }
        let mut keep = ser.entries.len();
        while keep > self.first_entry {
            match key_cmp(ser.entries[keep - 1].key(&ser.out), key) {
                Ordering::Less => break,
                Ordering::Equal => return Err(duplicate(ser)),
                Ordering::Greater => keep -= 1,
            }
        }
        let Some(&first_moved) = ser.entries.get(keep) else {
            return Ok(());
        };
        // Largest first, so that the smallest is on top.
        let mut end = ser.out.len();
        for e in ser.entries.drain(keep..).rev() {
            let start = ser.stash.len();
            ser.stash
                .extend_from_slice(ser.out.get(e.start..end).unwrap_or(&[]));
            ser.stashed.push((e.moved_to(start), ser.stash.len()));
            end = e.start;
        }
        ser.out.truncate(first_moved.start);
        Ok(())
    }

    /// Brings back the stashed entries, smallest first.
    #[cold]
    fn unstash(&mut self, first_stashed: usize) {
        let ser = &mut *self.ser;
        while ser.stashed.len() > first_stashed {
            let Some((top, end)) = ser.stashed.pop() else {
                break;
            };
            ser.restore(top, end);
        }
    }

    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        key.serialize(KeySer { map: self })
    }

    /// A struct's field name: by its plan, or else as any key (and kept
    /// when the plan is being learnt).
    #[inline(always)]
    fn field(&mut self, key: &'static str) -> Result<(), Error> {
        if self.plan != NO_PLAN && self.planned_key(key) {
            return Ok(());
        }
        self.unplanned_field(key)
    }

    /// [`field`](Self::field) without a plan, or off it.
    #[inline(never)]
    fn unplanned_field(&mut self, key: &'static str) -> Result<(), Error> {
        if self.plan != NO_PLAN {
            self.off_plan();
        }
        self.key_str(key)?;
        if self.state().learn.is_some() {
            self.ser.recorded.push(key);
        }
        Ok(())
    }

    /// Writes `key` if it is the plan's next field (its checks were made
    /// when the plan was learnt).
    #[inline(always)]
    fn planned_key(&mut self, key: &'static str) -> bool {
        let ser = &mut *self.ser;
        if self.next >= self.end {
            return false;
        }
        let w = match ser.plans.keys.get(self.next) {
            Some(k) if k.is(key) => k.window,
            _ => return false,
        };
        self.next += 1;
        let start = ser.out.len();
        if key.len() <= 16 {
            ser.put_window(&w, key.len());
        } else {
            ser.string(tag::STR, key.as_bytes());
        }
        if self.reorders {
            ser.entries.push(Entry {
                start,
                key: ser.out.len() - key.len(),
                key_len: key.len(),
            });
        }
        true
    }

    /// Fields written by the plan.
    fn given(&self) -> usize {
        let first = self.ser.plans.plans.get(self.plan).map_or(0, |p| p.first);
        self.next.saturating_sub(first)
    }

    /// Leaves the plan: the fields written by it (in declaration order)
    /// become entries to sort at the end.
    #[cold]
    fn off_plan(&mut self) {
        let given = self.given();
        let ser = &mut *self.ser;
        let kept = ser.entries.len() - self.first_entry;
        if kept != given {
            // Entries not kept: found again in the output, key then value.
            let mut at = self.start;
            for _ in 0..given {
                let start = at;
                let rest = ser.out.get(at..).unwrap_or(&[]);
                let Ok((key, n)) = crate::atom::string_raw(rest) else {
                    break;
                };
                at += n;
                ser.entries.push(Entry {
                    start,
                    key: at - key.len(),
                    key_len: key.len(),
                });
                if crate::validate::count_at(&ser.out, &mut at, 0).is_err() {
                    break;
                }
            }
        }
        self.plan = NO_PLAN;
        ser.open_state(None, false, true);
    }

    /// Puts a planned struct's fields, written in declaration order, in
    /// key order: two runs swapped are rotated in place; else the body from
    /// the first field out of place is gathered in key order in the
    /// scratch space (a short entry by one fixed-size copy), then copied
    /// back at once.
    fn permute(&mut self) {
        /// Entries of up to this many bytes are copied by one fixed-size
        /// move (most fields of small structs).
        const SHORT: usize = 32;
        let ser = &mut *self.ser;
        let Some(plan) = ser.plans.plans.get(self.plan) else {
            return;
        };
        let entries = ser.entries.get(self.first_entry..).unwrap_or(&[]);
        let out = &ser.out[..];
        let end = out.len();
        let Some(from) = entries.get(plan.first_moved).map(|e| e.start) else {
            return;
        };
        if let Some(k) = plan.rotation {
            if let (Some(e), Some(body)) = (entries.get(k), ser.out.get_mut(from..end)) {
                body.rotate_left(e.start - from);
            }
            return;
        }
        let body = &mut ser.scratch;
        body.clear();
        body.reserve(end - from + SHORT);
        for &d in &plan.order {
            let (Some(e), e_end) = (entries.get(d), entries.get(d + 1).map_or(end, |n| n.start))
            else {
                return;
            };
            let n = e_end - e.start;
            match out.get(e.start..e.start + SHORT) {
                Some(w) if n <= SHORT => {
                    let mut b = [0u8; SHORT];
                    b.copy_from_slice(w);
                    put(body, b, n);
                }
                _ => body.extend_from_slice(out.get(e.start..e_end).unwrap_or(&[])),
            }
        }
        if let Some(dst) = ser.out.get_mut(from..end) {
            if dst.len() == body.len() {
                dst.copy_from_slice(body);
            }
        }
    }

    /// Learns the plan of a struct just closed from the names it gave.
    #[cold]
    fn learn_plan(&mut self, name: &'static str, first_recorded: usize) {
        let ser = &mut *self.ser;
        let fields = ser.recorded.get(first_recorded..).unwrap_or(&[]);
        ser.plans
            .add(name, fields, |k| short_window(tag::STR, k.as_bytes()));
        ser.recorded.truncate(first_recorded);
    }

    #[inline(always)]
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }

    /// Puts the entries in canonical key order and closes the MAP.
    #[inline(always)]
    fn finish(mut self) -> Result<(), Error> {
        if self.plan != NO_PLAN {
            if self.next == self.end {
                if self.reorders {
                    self.permute();
                }
            } else {
                // Fields missing at the end.
                self.off_plan();
            }
        }
        if self.plan == NO_PLAN {
            self.finish_unplanned()?;
        }
        let ser = self.ser;
        ser.entries.truncate(self.first_entry);
        ser.open_maps -= 1;
        ser.byte(tag::EOC);
        if self.closes == 2 {
            ser.byte(tag::EOC);
        }
        Ok(())
    }

    /// [`finish`](Self::finish) of a MAP written without a plan: its
    /// entries put in order, its plan learnt, its state dropped.
    #[inline]
    fn finish_unplanned(&mut self) -> Result<(), Error> {
        let st = self.state();
        if self.ser.stashed.len() > st.first_stashed {
            self.unstash(st.first_stashed);
        }
        if st.unsorted {
            self.sort()?;
        }
        if let Some(name) = st.learn {
            self.learn_plan(name, st.first_recorded);
        }
        self.ser.maps.pop();
        Ok(())
    }

    /// Reorders the entries by key (an insertion sort of their places,
    /// then one copy of the MAP's body); equal keys are refused.
    #[cold]
    fn sort(&mut self) -> Result<(), Error> {
        let ser = &mut *self.ser;
        let end = ser.out.len();
        let entries = ser.entries.get(self.first_entry..).unwrap_or(&[]);
        let mut order = core::mem::take(&mut ser.order);
        order.clear();
        let out = &ser.out[..];
        for (i, e) in entries.iter().enumerate() {
            let e_end = entries.get(i + 1).map_or(end, |next| next.start);
            // Insertion into the few entries of a struct; a large MAP is
            // sorted below.
            let mut at = order.len();
            while at > 0 && at + SMALL_MAP > i && key_above(order[at - 1].0.key(out), e.key(out)) {
                at -= 1;
            }
            order.insert(at, (*e, e_end));
        }
        if order.len() > SMALL_MAP {
            order.sort_by(|a, b| key_cmp(a.0.key(out), b.0.key(out)));
        }
        // Sorted: only a duplicate can break the key rule.
        if let Some((w, e)) = order.windows(2).find_map(|w| {
            grammar::check_key(w[1].0.key(out), w[0].0.key(out))
                .err()
                .map(|e| (w[1].0.start, e))
        }) {
            let at = ser.flushed + w - ser.base;
            ser.order = order;
            return Err(Error::new(ErrorKind::Format(e), at));
        }
        let mut body = core::mem::take(&mut ser.scratch);
        body.clear();
        for (e, e_end) in &order {
            body.extend_from_slice(&ser.out[e.start..*e_end]);
        }
        ser.out[self.start..end].copy_from_slice(&body);
        ser.scratch = body;
        ser.order = order;
        Ok(())
    }
}

impl ser::SerializeMap for MapSer<'_, '_> {
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
        impl ser::$trait for MapSer<'_, '_> {
            type Ok = ();
            type Error = Error;
            #[inline(always)]
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.field(key)?;
                self.value(value)
            }
            #[inline(always)]
            fn end(self) -> Result<(), Error> {
                self.finish()
            }
        }
    )*};
}

struct_traits!(SerializeStruct, SerializeStructVariant);

/// Serializes a MAP key: strings (and chars, unit variants, newtypes of
/// them) only, as serde_json does for its object keys.
struct KeySer<'m, 'a, 'o> {
    map: &'m mut MapSer<'a, 'o>,
}

/// Serializes the payload of an extension atom: bytes only.
struct ExtSer<'a, 'o> {
    ser: &'a mut Serializer<'o>,
    kind: Ext,
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

impl ser::Serializer for KeySer<'_, '_, '_> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_nul_finds_the_first_zero_byte() {
        for len in 0..=16 {
            for at in 0..len {
                let mut b = [0x01u8; 16];
                // Bytes after the zero that a borrow could mark.
                b[at] = 0;
                if let Some(x) = b.get_mut(at + 1) {
                    *x = 0x01;
                }
                assert_eq!(first_nul(&b), at);
            }
        }
        assert_eq!(first_nul(&[0xFF; 16]), 16);
    }

    #[test]
    fn long_strs_are_copied_whole_and_refused_with_a_nul_anywhere() {
        for len in 17..=80 {
            let s: alloc::string::String =
                (0..len).map(|i| (b'A' + (i % 26) as u8) as char).collect();
            let mut ser = Serializer::new(alloc::vec![7]);
            ser.str(&s).unwrap();
            let mut head = [0u8; 9];
            let h = crate::enc::string_header(tag::STR, len, &mut head);
            assert_eq!(&ser.out[..1 + h], [&[7][..], &head[..h]].concat());
            assert_eq!(&ser.out[1 + h..], s.as_bytes());
            for at in 0..len {
                let mut b = s.clone().into_bytes();
                b[at] = 0;
                let bad = alloc::string::String::from_utf8(b).unwrap();
                let mut ser = Serializer::new(alloc::vec![7]);
                let e = ser.str(&bad).unwrap_err();
                assert_eq!(
                    e.kind(),
                    &ErrorKind::Format(crate::Error::BadUtf8),
                    "{len} {at}"
                );
                assert_eq!(ser.out, [7], "nothing of it is kept");
            }
        }
    }

    #[test]
    fn a_vec_of_the_documents_size_is_not_grown() {
        fn check<T: Serialize + ?Sized>(value: &T) {
            let doc = to_vec(value).unwrap();
            let mut v = Vec::with_capacity(doc.len());
            let cap = v.capacity();
            append_to_vec(&mut v, value).unwrap();
            assert_eq!(v, doc);
            assert_eq!(v.capacity(), cap);
        }
        let long = "x".repeat(40);
        check(&(1u8, -300i64, u64::MAX, "short", long.as_str()));
        check(&[[i64::MIN, 7]; 3]);
        check(&("\u{e9}", 0.5f64, true, ()));
    }

    #[test]
    fn key_rank_orders_as_key_above() {
        let keys: [&str; 9] = [
            "a",
            "b",
            "ab",
            "abcdefghijklmnop",
            "abcdefghijklmnoq",
            "abcdefghijklmnopq",
            "abcdefghijklmnopr",
            "abcdefghijklmnoqa",
            "\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}",
        ];
        let mut ser = Serializer::new(Vec::new());
        let ranks: Vec<KeyRank> = keys
            .iter()
            .map(|k| {
                let head = ser.str(k).unwrap();
                let at = ser.out.len() - k.len();
                KeyRank {
                    len: k.len(),
                    head: u128::from_be_bytes(head),
                    at,
                }
            })
            .collect();
        for (a, ra) in keys.iter().zip(&ranks) {
            for (b, rb) in keys.iter().zip(&ranks) {
                assert_eq!(
                    ra.above(rb, &ser.out),
                    key_above(a.as_bytes(), b.as_bytes()),
                    "{a} {b}"
                );
            }
        }
    }
}
