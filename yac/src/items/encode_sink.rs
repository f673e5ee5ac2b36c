//! Where the tree encoder's bytes go ([`Sink`]): a buffer written with
//! exact stores, or only a byte count.

use crate::atom::{tag, Atom};
use crate::enc;
use crate::error::Error;

/// Where encoded bytes go: a buffer, or just a byte count. Every method
/// either appends all its bytes or fails, appending nothing.
pub(super) trait Sink {
    /// One byte.
    fn byte(&mut self, b: u8) -> Result<(), Error>;
    /// An integer: tag `t`, then the minimal big-endian `magnitude` as a
    /// BIN.
    fn int(&mut self, t: u8, magnitude: u64) -> Result<(), Error>;
    /// A BIN or STR (`tag_base` 0x80 or 0xC0) whose payload is trusted.
    fn string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error>;
    /// [`Sink::string`] for payloads of at most `encode::SHORT` bytes.
    fn short_string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error>;
    /// A validated atom (the slow path for rare types).
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error>;
}

/// Length of the minimal big-endian form of `v` (0 for 0).
#[inline(always)]
fn magnitude_len(v: u64) -> usize {
    8 - (v.leading_zeros() / 8) as usize
}

pub(super) struct Counter(pub(super) usize);

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
    #[inline(always)]
    fn short_string(&mut self, _: u8, payload: &[u8]) -> Result<(), Error> {
        self.add(1 + payload.len())
    }
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error> {
        self.add(enc::encoded_len(a)?)
    }
}

/// The output buffer: the part not written yet.
pub(super) struct Buffer<'b> {
    pub(super) rest: &'b mut [u8],
}

impl<'b> Buffer<'b> {
    /// Takes the next `len` bytes of the buffer, or `NoMem`.
    #[inline(always)]
    fn take(&mut self, len: usize) -> Result<&'b mut [u8], Error> {
        let rest = core::mem::take(&mut self.rest);
        if len > rest.len() {
            self.rest = rest;
            return Err(Error::NoMem);
        }
        let (dst, after) = rest.split_at_mut(len);
        self.rest = after;
        Ok(dst)
    }
}

/// The header of a BIN/STR of 61 bytes or more, and its length.
#[inline(never)]
fn long_head(tag_base: u8, len: usize) -> ([u8; 9], usize) {
    let mut head = [0u8; 9];
    let h = enc::string_header(tag_base, len, &mut head);
    (head, h)
}

impl Sink for Buffer<'_> {
    #[inline(always)]
    fn byte(&mut self, b: u8) -> Result<(), Error> {
        let rest = core::mem::take(&mut self.rest);
        match rest.split_first_mut() {
            Some((d, after)) => {
                *d = b;
                self.rest = after;
                Ok(())
            }
            None => Err(Error::NoMem),
        }
    }
    #[inline(always)]
    fn int(&mut self, t: u8, m: u64) -> Result<(), Error> {
        if m.wrapping_sub(1) < 0xFF {
            // 1..=255, the commonest: one byte, no length to work out.
            let dst = self.take(3)?;
            store(dst, 0, [t, tag::BIN | 1, m as u8]);
            return Ok(());
        }
        let n = magnitude_len(m);
        let dst = self.take(2 + n)?;
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
        Ok(())
    }
    #[inline(always)]
    fn string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error> {
        let len = payload.len();
        if len >= enc::LEN_1 {
            let (head, h) = long_head(tag_base, len);
            let dst = self.take(h.checked_add(len).ok_or(Error::NoMem)?)?;
            if let (Some((d, p)), Some(s)) = (dst.split_at_mut_checked(h), head.get(..h)) {
                if d.len() == s.len() && p.len() == len {
                    d.copy_from_slice(s);
                    p.copy_from_slice(payload);
                }
            }
            return Ok(());
        }
        let dst = self.take(1 + len)?;
        if let Some((h, body)) = dst.split_first_mut() {
            *h = tag_base | len as u8;
            if body.len() == len {
                body.copy_from_slice(payload);
            }
        }
        Ok(())
    }
    #[inline(always)]
    fn short_string(&mut self, tag_base: u8, payload: &[u8]) -> Result<(), Error> {
        let len = payload.len();
        let dst = self.take(1 + len)?;
        if let Some((h, body)) = dst.split_first_mut() {
            *h = tag_base | (len & 0x3F) as u8;
            copy_short(body, payload);
        }
        Ok(())
    }
    #[inline(always)]
    fn atom(&mut self, a: &Atom<'_>) -> Result<(), Error> {
        let n = enc::encode(a, self.rest)?;
        self.take(n).map(|_| ())
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

/// Copies `src` (at most 16 bytes) into `dst` of the same length with two
/// overlapping word copies.
#[inline(always)]
fn copy_short(dst: &mut [u8], src: &[u8]) {
    let n = src.len();
    if dst.len() != n {
        return;
    }
    if n >= 4 {
        if n >= 8 {
            copy_fixed::<8>(dst, src, 0);
            copy_fixed::<8>(dst, src, n - 8);
        } else {
            copy_fixed::<4>(dst, src, 0);
            copy_fixed::<4>(dst, src, n - 4);
        }
    } else if n >= 2 {
        copy_fixed::<2>(dst, src, 0);
        copy_fixed::<2>(dst, src, n - 2);
    } else if n == 1 {
        copy_fixed::<1>(dst, src, 0);
    }
}
