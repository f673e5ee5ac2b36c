//! The raw stores of the output: a fixed-size window written past the end
//! of a `Vec` and cut to its length ([`put`]), a short string's atom built
//! in such a window ([`short_window`]), a STR of 17 to 60 bytes stored
//! from words in registers ([`put_medium_str`]), and the
//! word-at-a-time (or SSE2) copies that find a NUL in a STR's payload on
//! the way ([`first_nul_words`], [`copy_checking_nul`]). No memcpy call and no
//! length-dependent branch on the paths of short atoms.

use alloc::vec::Vec;

/// Stores the window `w` past the end of `v` and keeps its first `n`
/// bytes: one room check and one fixed-size store (no memcpy call, no
/// length-dependent branch).
#[inline(always)]
pub(super) fn put<const N: usize>(v: &mut Vec<u8>, w: &[u8; N], n: usize) {
    let len = v.len();
    if v.capacity() - len < N {
        return put_slow(v, w, n);
    }
    // SAFETY: the spare capacity holds at least N bytes (just checked), so
    // the N-byte store stays inside the allocation; the length then covers
    // at most those N bytes, all written.
    unsafe {
        v.as_mut_ptr()
            .add(len)
            .cast::<[u8; N]>()
            .write_unaligned(*w);
        v.set_len(len + n.min(N));
    }
}

/// [`put`] of the 16 bytes of two little-endian words (built in
/// registers, not in memory).
#[inline(always)]
pub(super) fn put_words(v: &mut Vec<u8>, lo: u64, hi: u64, n: usize) {
    let len = v.len();
    if v.capacity() - len < 16 {
        let mut w = [0u8; 16];
        w[..8].copy_from_slice(&lo.to_le_bytes());
        w[8..].copy_from_slice(&hi.to_le_bytes());
        return put_slow(v, &w, n);
    }
    // SAFETY: as in `put`, with N = 16: two 8-byte stores inside the spare
    // capacity, the length covering at most those 16 bytes.
    unsafe {
        let p = v.as_mut_ptr().add(len);
        p.cast::<u64>().write_unaligned(lo.to_le());
        p.add(8).cast::<u64>().write_unaligned(hi.to_le());
        v.set_len(len + n.min(16));
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

/// [`put`] of a short string's atom: its tag `t`, then the 16 bytes of
/// its zero-padded payload as two little-endian words (built in registers,
/// not in memory); `n` bytes kept.
#[inline(always)]
pub(super) fn put_short(v: &mut Vec<u8>, t: u8, lo: u64, hi: u64, n: usize) {
    let len = v.len();
    if v.capacity() - len < 17 {
        let mut w = [0u8; 17];
        w[0] = t;
        w[1..9].copy_from_slice(&lo.to_le_bytes());
        w[9..].copy_from_slice(&hi.to_le_bytes());
        return put_slow(v, &w, n);
    }
    // SAFETY: as in `put`, with N = 17: one byte and two 8-byte stores
    // inside the spare capacity, the length covering at most those 17
    // bytes.
    unsafe {
        let p = v.as_mut_ptr().add(len);
        p.write(t);
        p.add(1).cast::<u64>().write_unaligned(lo.to_le());
        p.add(9).cast::<u64>().write_unaligned(hi.to_le());
        v.set_len(len + n.min(17));
    }
}

/// The little-endian word of the 8 bytes of `payload` at `at` (0 if they
/// are not all inside it).
#[inline(always)]
fn le_word(payload: &[u8], at: usize) -> u64 {
    payload
        .get(at..at.wrapping_add(8))
        .and_then(|w| w.try_into().ok())
        .map_or(0, u64::from_le_bytes)
}

/// The zero bytes of `x`: `(x - 0x01..01) & !x & 0x80..80` is not zero
/// exactly when one of its bytes is, and its lowest bit set marks the
/// first (a borrow only sets bits above it). The same in either byte
/// order.
#[inline(always)]
fn zero_bytes(x: u64) -> u64 {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGHS: u64 = u64::from_ne_bytes([0x80; 8]);
    x.wrapping_sub(ONES) & !x & HIGHS
}

/// A STR of `8 * W + 1` to `16 * W` bytes (`payload`; `W` is 2 or more)
/// after its one-byte header `t`, stored past the end of `v` if it has no
/// NUL: its first `8 * W` bytes and its last `8 * W` (overlapping) loaded
/// as `2 * W` words into registers, checked and stored, with no call and
/// no loop. Returns the payload's first 16 bytes as two little-endian
/// words, or `None` (a NUL, or another length: nothing stored).
#[inline(always)]
pub(super) fn put_medium_str<const W: usize>(
    v: &mut Vec<u8>,
    t: u8,
    payload: &[u8],
) -> Option<(u64, u64)> {
    const { assert!(W >= 2) };
    let n = payload.len();
    if !(8 * W < n && n <= 16 * W) {
        return None;
    }
    let front: [u64; W] = core::array::from_fn(|i| le_word(payload, 8 * i));
    let back: [u64; W] = core::array::from_fn(|i| le_word(payload, n - 8 * W + 8 * i));
    if front.iter().chain(&back).fold(0, |z, &x| z | zero_bytes(x)) != 0 {
        return None;
    }
    let head = (front[0], front[1]);
    let len = v.len();
    if v.capacity() - len < 1 + 16 * W {
        put_str_slow(v, t, payload);
        return Some(head);
    }
    // SAFETY: the spare capacity holds at least `1 + 16 * W` bytes (just
    // checked): the byte at 0, the front words at `1 + 8 * i` and the back
    // words at `1 + n - 8 * W + 8 * i` (`n <= 16 * W`) all end by
    // `1 + 16 * W`, inside the allocation. The back words hold the
    // payload's last `8 * W` bytes at their places (where they overlap the
    // front words, with the same bytes), so the `1 + n` bytes the length
    // then covers are the header and the payload, all written.
    unsafe {
        let p = v.as_mut_ptr().add(len);
        p.write(t);
        for (i, x) in front.iter().enumerate() {
            p.add(1 + 8 * i).cast::<u64>().write_unaligned(x.to_le());
        }
        let tail = p.add(1 + n - 8 * W);
        for (i, x) in back.iter().enumerate() {
            tail.add(8 * i).cast::<u64>().write_unaligned(x.to_le());
        }
        v.set_len(len + 1 + n);
    }
    Some(head)
}

/// [`put_medium_str`] near the end of the capacity (out of line, as
/// [`put_slow`]).
#[cold]
#[inline(never)]
fn put_str_slow(v: &mut Vec<u8>, t: u8, payload: &[u8]) {
    v.push(t);
    v.extend_from_slice(payload);
}

/// A short payload (at most 16 bytes) zero-padded to 16, as two
/// little-endian words, built in registers from two overlapping loads (not
/// through memory: a wide load of bytes just stored narrower waits for the
/// stores to land, many cycles).
#[inline(always)]
pub(super) fn short_words(payload: &[u8]) -> (u64, u64) {
    let n = payload.len();
    let word = |at: usize| le_word(payload, at);
    let half = |at: usize| {
        payload
            .get(at..at + 4)
            .and_then(|w| w.try_into().ok())
            .map_or(0, u32::from_le_bytes)
    };
    let quarter = |at: usize| {
        payload
            .get(at..at + 2)
            .and_then(|w| w.try_into().ok())
            .map_or(0, u16::from_le_bytes)
    };
    // The second load ends at the payload's end: shifted to its place, the
    // bytes it shares with the first are the same bytes.
    match n {
        9..=16 => (word(0), word(n - 8) >> (8 * (16 - n))),
        8 => (word(0), 0),
        4..=7 => {
            let (a, b) = (u64::from(half(0)), u64::from(half(n - 4)));
            (a | b << (8 * (n - 4)), 0)
        }
        2..=3 => {
            let (a, b) = (u64::from(quarter(0)), u64::from(quarter(n - 2)));
            (a | b << (8 * (n - 2)), 0)
        }
        1 => (u64::from(payload.first().copied().unwrap_or(0)), 0),
        _ => (0, 0),
    }
}

/// Where the first zero byte of the 16 bytes `lo`, `hi` (as
/// [`short_words`] gives them) is, 16 if none, a word at a time (see
/// [`zero_bytes`]).
#[inline(always)]
pub(super) fn first_nul_words(lo: u64, hi: u64) -> usize {
    let lo = zero_bytes(lo);
    if lo != 0 {
        return lo.trailing_zeros() as usize / 8;
    }
    let hi = zero_bytes(hi);
    if hi != 0 {
        return 8 + hi.trailing_zeros() as usize / 8;
    }
    16
}

/// A short string's atom built in a window: the tag (`base` with the
/// length) at 0, the payload (at most 16 bytes) from 1, zeros after it.
#[inline(always)]
pub(super) fn short_window(base: u8, payload: &[u8]) -> [u8; 24] {
    let mut w = [0u8; 24];
    w[0] = (base & 0xC0) | payload.len() as u8;
    copy_short(&mut w[1..17], payload);
    w
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
pub(super) unsafe fn copy_checking_nul(
    src: *const u8,
    dst: *mut u8,
    n: usize,
    last: usize,
) -> bool {
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
pub(super) unsafe fn copy_checking_nul(
    src: *const u8,
    dst: *mut u8,
    n: usize,
    last: usize,
) -> bool {
    // SAFETY: the caller's contract.
    unsafe { copy_words(src, dst, n, last) }
}

/// Copies `n >= 8` bytes a word at a time, the last word overlapping the
/// one before, and tells whether one of them is zero ([`zero_bytes`]).
///
/// # Safety
/// As [`copy_checking_nul`].
#[inline(always)]
unsafe fn copy_words(src: *const u8, dst: *mut u8, n: usize, last: usize) -> bool {
    let mut zeros = 0u64;
    // SAFETY: every word read or written starts at i + 8 <= n or at
    // last = n - 8, inside the caller's n bytes.
    unsafe {
        let mut i = 0;
        while i + 8 <= n {
            let x = src.add(i).cast::<u64>().read_unaligned();
            zeros |= zero_bytes(x);
            dst.add(i).cast::<u64>().write_unaligned(x);
            i += 8;
        }
        let x = src.add(last).cast::<u64>().read_unaligned();
        zeros |= zero_bytes(x);
        dst.add(last).cast::<u64>().write_unaligned(x);
    }
    zeros != 0
}
