//! STR payload validation: RFC 3629 UTF-8 (via simdutf8) and no NUL byte.
//!
//! Most STR payloads in real documents are short ASCII (map keys), where a
//! call into the SIMD validator costs more than the check itself, so short
//! ASCII is handled inline and everything else goes to simdutf8.

use crate::error::Error;

/// Payloads up to this many bytes are first tried with the inline ASCII
/// check: simdutf8 hands inputs below 64 bytes to `core::str::from_utf8`,
/// which costs far more than a word-at-a-time scan.
const INLINE_ASCII_MAX: usize = 64;

/// Checks that `bytes` is valid UTF-8 without NUL and returns it as `str`.
#[inline]
pub fn validate_str(bytes: &[u8]) -> Result<&str, Error> {
    if cfg!(feature = "size-first") {
        if !is_utf8_without_nul(bytes) {
            return Err(Error::BadUtf8);
        }
        // SAFETY: `is_utf8_without_nul` accepts exactly the RFC 3629 UTF-8
        // that `core::str::from_utf8` accepts (minus NUL; the test
        // `compact_check_agrees_with_core` compares them on every sequence
        // of boundary bytes). Measured: `core::str::from_utf8` and its
        // 256-byte table are 632 of the 2988 bytes a Cortex-M0 build of
        // YACAtomDecode links; this loop is about 100.
        return Ok(unsafe { core::str::from_utf8_unchecked(bytes) });
    }
    if HOST_SIMD && bytes.len() < PAD_LEN {
        return match check_padded(bytes) {
            // SAFETY: `check_padded` accepted `bytes` as UTF-8 (followed by
            // spaces, which end no sequence, so `bytes` alone is UTF-8 too).
            true => Ok(unsafe { core::str::from_utf8_unchecked(bytes) }),
            false => Err(Error::BadUtf8),
        };
    }
    let s = simdutf8::basic::from_utf8(bytes).map_err(|_| Error::BadUtf8)?;
    if has_nul(bytes) {
        return Err(Error::BadUtf8);
    }
    Ok(s)
}

/// Payloads shorter than this are checked as one padded block.
const PAD_LEN: usize = 64;

/// Whether a payload shorter than [`PAD_LEN`] is UTF-8 without NUL, checked
/// as a block of that length with spaces after it: simdutf8 hands shorter
/// inputs to `core::str::from_utf8`, which goes a character at a time,
/// while a block takes its SIMD path (a sequence cut short meets a space,
/// so the verdict is the payload's).
#[inline(never)]
fn check_padded(bytes: &[u8]) -> bool {
    let mut block = [b' '; PAD_LEN];
    let n = bytes.len();
    let Some(dst) = block.get_mut(..n) else {
        return false;
    };
    // Fixed-size copies where the payload allows them (16-byte steps, the
    // last one overlapping; or two overlapping words): no call to memcpy.
    // Hosts only: a Cortex-M0 build (embedded/size.sh, default features)
    // linked 300 more bytes with them.
    if !HOST_SIMD {
        dst.copy_from_slice(bytes);
    } else if let (Some(last), Some(to)) = (bytes.last_chunk::<16>(), dst.last_chunk_mut::<16>()) {
        *to = *last;
        for (src, to) in bytes.chunks_exact(16).zip(dst.chunks_exact_mut(16)) {
            if let (Ok(src), Ok(to)) = (<&[u8; 16]>::try_from(src), <&mut [u8; 16]>::try_from(to)) {
                *to = *src;
            }
        }
    } else if let (Some(a), Some(b)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        if let Some(to) = dst.last_chunk_mut::<8>() {
            *to = *b;
        }
        if let Some(to) = dst.first_chunk_mut::<8>() {
            *to = *a;
        }
    } else {
        dst.copy_from_slice(bytes);
    }
    // The NUL scan of a block of fixed length, inline: a few vector
    // compares, where a call to `has_nul` costs a loop and its set-up.
    let nul = block.iter().fold(0u8, |acc, &b| acc | u8::from(b == 0));
    simdutf8::basic::from_utf8(&block).is_ok() && nul == 0
}

/// True when every byte is in 0x01..=0x7F. A word at a time (see
/// `non_ascii_flags`). The tail is one
/// more word overlapping the previous one, and inputs shorter than a word
/// take two overlapping half words or three single bytes, so a short STR
/// costs a few instructions and no loop (a loop over the tail bytes cost
/// ~25 instructions per STR of licenses, where STRs average 11 bytes).
#[inline]
pub fn is_ascii_without_nul(bytes: &[u8]) -> bool {
    if let Some(last) = bytes.last_chunk::<8>() {
        let mut flags = non_ascii_flags(last);
        for w in bytes.chunks_exact(8) {
            // Always 8 bytes; a word that is not would fail the check.
            flags |= non_ascii_flags(&<[u8; 8]>::try_from(w).unwrap_or([0x80; 8]));
        }
        return flags & top_bits(8) == 0;
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let mut word = [0u8; 8];
        let (lo, hi) = word.split_at_mut(4);
        lo.copy_from_slice(first);
        hi.copy_from_slice(last);
        return non_ascii_flags(&word) & top_bits(8) == 0;
    }
    // 0 to 3 bytes: the first, middle and last cover them all.
    match (bytes.first(), bytes.get(bytes.len() / 2), bytes.last()) {
        (Some(&a), Some(&b), Some(&c)) => {
            a.wrapping_sub(1) < 0x7F && b.wrapping_sub(1) < 0x7F && c.wrapping_sub(1) < 0x7F
        }
        _ => true,
    }
}

/// The "not in 0x01..=0x7F" flags of eight bytes: the top bit of each byte
/// `b` of `b | (b - 1)` is set when `b` has its top bit set or is zero
/// (the other bits are noise, for the caller to mask). A borrow only comes
/// out of a zero byte (flagged anyway) and only moves to later bytes, so
/// every byte before the first zero one is judged exactly.
#[inline(always)]
fn non_ascii_flags(bytes: &[u8; 8]) -> u64 {
    const LOW: u64 = u64::from_le_bytes([0x01; 8]);
    let x = u64::from_le_bytes(*bytes);
    x | x.wrapping_sub(LOW)
}

/// The top bits of the first `k` bytes of a little-endian word.
const fn top_bits(k: usize) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < k && i < 8 {
        m |= 0x80 << (8 * i);
        i += 1;
    }
    m
}

/// The "not in 0x01..=0x7F" flags of sixteen bytes, as [`non_ascii_flags`]
/// gives them for eight: exact for every byte before the first zero one.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn non_ascii_flags16(bytes: &[u8; 16]) -> u128 {
    const LOW: u128 = u128::from_le_bytes([0x01; 16]);
    let x = u128::from_le_bytes(*bytes);
    x | x.wrapping_sub(LOW)
}

/// The top bit of every byte of a little-endian 16-byte word.
#[cfg(not(target_arch = "x86_64"))]
const HIGH16: u128 = u128::from_le_bytes([0x80; 16]);

/// For a STR of n (0 to 15) bytes in a window, which flags of
/// [`non_ascii_flags`] count in the word of window bytes 1..9: the top bits
/// of its first min(n, 8) bytes.
#[cfg(not(target_arch = "x86_64"))]
static ASCII_MASK_HEAD: [u64; 16] = {
    let mut m = [0; 16];
    let mut n = 0;
    while n < 16 {
        m[n] = top_bits(n);
        n += 1;
    }
    m
};

/// The same in the word of window bytes 8..16, for n > 8: bytes 8..=n are
/// its first n - 7.
#[cfg(not(target_arch = "x86_64"))]
static ASCII_MASK_TAIL: [u64; 16] = {
    let mut m = [0; 16];
    let mut n = 9;
    while n < 16 {
        m[n] = top_bits(n - 7);
        n += 1;
    }
    m
};

/// Whether the `n` (at most 15) bytes after the window's first are all in
/// 0x01..=0x7F, from one or two loads.
#[inline(always)]
pub fn window_ascii(w: &[u8; 16], n: usize) -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        n < 16 && sse::not_ascii(w) & sse::window_bits(n) == 0
    }
    #[cfg(not(target_arch = "x86_64"))]
    window_ascii_words(w, n)
}

/// [`window_ascii`] by word tests, for targets without SSE2.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn window_ascii_words(w: &[u8; 16], n: usize) -> bool {
    let (_, tail) = w.split_at(1);
    let (Some((head, _)), Some(&head_mask)) =
        (tail.split_first_chunk::<8>(), ASCII_MASK_HEAD.get(n))
    else {
        return false;
    };
    let first = non_ascii_flags(head) & head_mask;
    if n <= 8 {
        return first == 0;
    }
    let (Some((_, last)), Some(&tail_mask)) = (w.split_last_chunk::<8>(), ASCII_MASK_TAIL.get(n))
    else {
        return false;
    };
    first | (non_ascii_flags(last) & tail_mask) == 0
}

/// Whether a payload of 16 to 32 bytes is all in 0x01..=0x7F: its first
/// and last 16 bytes (overlapping), two words.
#[inline(always)]
fn ascii_16_to_32(body: &[u8]) -> bool {
    match (body.first_chunk::<16>(), body.last_chunk::<16>()) {
        #[cfg(target_arch = "x86_64")]
        (Some(a), Some(b)) if body.len() <= 32 => sse::not_ascii(a) | sse::not_ascii(b) == 0,
        #[cfg(not(target_arch = "x86_64"))]
        (Some(a), Some(b)) if body.len() <= 32 => {
            (non_ascii_flags16(a) | non_ascii_flags16(b)) & HIGH16 == 0
        }
        _ => false,
    }
}

/// Whether STR payload `body`, whose atom starts with window `w` and a
/// one-byte header when `body` is at most 15 bytes long, is valid UTF-8
/// without NUL; such payloads are inside the window, where the ASCII check
/// needs no loads of its own.
#[inline(always)]
pub fn window_str_ok(w: &[u8; 16], body: &[u8]) -> bool {
    if body.len() < 16 {
        return window_ascii(w, body.len()) || check_str(body).is_ok();
    }
    check_str(body).is_ok()
}

/// How many bytes a [`StrBatch`] gathers before it checks them: on the
/// hosts where simdutf8 has SIMD code; elsewhere (microcontrollers, and the
/// `size-first` build) 0, and every STR is checked on its own.
const BATCH_CAP: usize = if HOST_SIMD { 1024 } else { 0 };

/// Whether STRs are checked in batches ([`StrBatch`] gathers them): on
/// the hosts where simdutf8 has SIMD code, not in the `size-first` build.
pub(crate) const BATCHES: bool = BATCH_CAP != 0;

/// Whether simdutf8 has SIMD code for the target and speed comes first:
/// then STRs are checked in batches and short ones as padded blocks.
const HOST_SIMD: bool = cfg!(all(
    any(
        target_arch = "x86_64",
        target_arch = "x86",
        target_arch = "aarch64"
    ),
    not(feature = "size-first")
));

/// The batch's buffer: room for a whole window past `BATCH_CAP`; none
/// without batches.
const BATCH_BUF: usize = if BATCH_CAP == 0 { 0 } else { BATCH_CAP + 16 };

/// STRs longer than this are checked on their own, never gathered: one
/// simdutf8 call over them costs little per byte.
const GATHER_MAX: usize = BATCH_CAP / 4;

/// The STR payloads of a fast loop, checked together: UTF-8 without NUL.
///
/// A payload that a word test shows to be ASCII without NUL (most keys and
/// many values) costs no more than that test. Every other one is copied
/// into a buffer, after one space (a payload inside the 16-byte window: one
/// 16-byte copy and two stores). When the buffer is full, and when the
/// loop ends ([`finish`](Self::finish)), one simdutf8 call and one NUL scan
/// check all of them. The buffer is valid exactly when every payload is: a sequence
/// cut short at a payload's end meets the next space, a continuation byte
/// at a payload's start follows a space, and everything else is inside one
/// payload. So the verdict is that of checking each payload; only *which*
/// STR failed is lost, and the caller finds it with the exact decode
/// (`atom::first_refused`) from where its loop began.
pub(crate) struct StrBatch {
    buf: [u8; BATCH_BUF],
    len: usize,
    /// A check failed.
    failed: bool,
}

impl StrBatch {
    pub(crate) const fn new() -> Self {
        StrBatch {
            buf: [0; BATCH_BUF],
            len: 0,
            failed: false,
        }
    }

    /// Takes STR payload `body` of the atom whose first 16 bytes are `w`.
    /// `true` when it is valid or gathered; `false` when the caller must
    /// stop before this atom (it is invalid, or a batch failed).
    #[inline(always)]
    pub(crate) fn window_str(&mut self, w: &[u8; 16], body: &[u8]) -> bool {
        let n = body.len();
        if BATCH_CAP == 0 {
            return window_str_ok(w, body);
        }
        if n < 16 {
            // A one-byte header: the payload is inside the window.
            return window_ascii(w, n) || self.gather_window(w, n);
        }
        #[cfg(target_arch = "x86_64")]
        if let (Some(a), Some(b)) = (body.first_chunk::<16>(), body.last_chunk::<16>()) {
            if n <= 32 {
                // Its first and last 16 bytes (overlapping) cover it.
                return sse::not_ascii(a) | sse::not_ascii(b) == 0 || self.gather_two(a, b, n);
            }
        }
        ascii_16_to_32(body) || self.gather(body)
    }

    /// [`window_str`](Self::window_str) for a MAP key (1 to 60 bytes):
    /// on x86_64 one test for a key of at most 15 ASCII bytes, with no
    /// compare of its length, which picks the payload's bits or, from 16
    /// bytes on, the tag's bit, always set (a STR tag is 0xC0 or above).
    #[inline(always)]
    pub(crate) fn window_key(&mut self, w: &[u8; 16], key: &[u8]) -> bool {
        #[cfg(target_arch = "x86_64")]
        if BATCH_CAP != 0 && sse::not_ascii(w) & sse::key_bits(key.len()) == 0 {
            return true;
        }
        self.window_str(w, key)
    }

    /// Gathers a payload of 16 to 32 bytes, given as its first 16 bytes `a`
    /// and its last 16 bytes `b`, inline: two 16-byte copies, and the NUL
    /// test (see [`gather_window`](Self::gather_window)).
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn gather_two(&mut self, a: &[u8; 16], b: &[u8; 16], n: usize) -> bool {
        if sse::zero(a) | sse::zero(b) != 0 {
            return false;
        }
        if self.len + 1 + n > BATCH_CAP && !self.flush() {
            return false;
        }
        let Some(dst) = self.buf.get_mut(self.len..self.len + 1 + n) else {
            return false;
        };
        let (sep, dst) = dst.split_at_mut(1);
        sep[0] = b' ';
        if let Some(to) = dst.first_chunk_mut::<16>() {
            *to = *a;
        }
        if let Some(to) = dst.last_chunk_mut::<16>() {
            *to = *b;
        }
        self.len += 1 + n;
        true
    }

    /// Gathers the payload of `n` (below 16) bytes at window bytes 1..: the
    /// whole window is copied and its tag byte becomes the separator.
    #[inline(always)]
    fn gather_window(&mut self, w: &[u8; 16], n: usize) -> bool {
        // On x86_64 the NUL test is done here, on the window already
        // loaded, so that `flush` needs no NUL scan: a payload with NUL
        // stops the loop before its atom.
        #[cfg(target_arch = "x86_64")]
        if sse::zero(w) & sse::window_bits(n) != 0 {
            return false;
        }
        if self.len > BATCH_CAP && !self.flush() {
            return false;
        }
        let Some(slot) = self
            .buf
            .get_mut(self.len..)
            .and_then(|b| b.first_chunk_mut::<16>())
        else {
            return false;
        };
        *slot = *w;
        slot[0] = b' ';
        self.len += 1 + n;
        true
    }

    /// Gathers a payload of 16 bytes or more, or checks it at once when it
    /// is long. On x86_64 it copies 16 bytes a step (the last step
    /// overlapping the one before, so nothing past the payload is read)
    /// and tests each step for NUL, so that [`flush`](Self::flush) needs no
    /// NUL scan.
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    fn gather(&mut self, body: &[u8]) -> bool {
        // ASCII without NUL (most long texts): a scan, cheaper than the
        // copy and the simdutf8 pass. Apart from the copy, which needs
        // more registers (saved and restored on every call).
        sse::ascii_without_nul(body) || self.gather_copy(body)
    }

    /// [`gather`](Self::gather) of a payload that is not ASCII.
    #[cfg(target_arch = "x86_64")]
    #[inline(never)]
    fn gather_copy(&mut self, body: &[u8]) -> bool {
        let n = body.len();
        if n > GATHER_MAX {
            return check_str(body).is_ok();
        }
        if self.len + 1 + n > BATCH_CAP && !self.flush() {
            return false;
        }
        let (Some(slot), Some(last)) = (
            self.buf.get_mut(self.len..self.len + 1 + n),
            body.last_chunk::<16>(),
        ) else {
            return check_str(body).is_ok();
        };
        let (sep, dst) = slot.split_at_mut(1);
        sep[0] = b' ';
        // Whole 16-byte steps while more than 16 bytes are left, then the
        // last 16 bytes (fixed-size copies: no call to memcpy).
        let mut nul = sse::zero(last);
        let mut i = 0;
        while i + 16 < n {
            let (Some(src), Some(to)) = (
                body.get(i..).and_then(|b| b.first_chunk::<16>()),
                dst.get_mut(i..).and_then(|d| d.first_chunk_mut::<16>()),
            ) else {
                break;
            };
            nul |= sse::zero(src);
            *to = *src;
            i += 16;
        }
        if let Some(to) = dst.last_chunk_mut::<16>() {
            *to = *last;
        }
        self.len += 1 + n;
        nul == 0
    }

    /// Gathers a payload of 16 bytes or more, or checks it at once when it
    /// is long.
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(never)]
    fn gather(&mut self, body: &[u8]) -> bool {
        let n = body.len();
        if n > GATHER_MAX {
            return check_str(body).is_ok();
        }
        if self.len + 1 + n > BATCH_CAP && !self.flush() {
            return false;
        }
        let Some(slot) = self.buf.get_mut(self.len..self.len + 1 + n) else {
            return check_str(body).is_ok();
        };
        let (sep, dst) = slot.split_at_mut(1);
        sep[0] = b' ';
        dst.copy_from_slice(body);
        self.len += 1 + n;
        true
    }

    /// Checks what is gathered; `false` (and `failed` set) when it is bad.
    #[inline(never)]
    fn flush(&mut self) -> bool {
        let gathered = self.buf.get(..self.len).unwrap_or_default();
        // On x86_64 the gathering tested every payload for NUL.
        let nul = !cfg!(target_arch = "x86_64") && has_nul(gathered);
        if simdutf8::basic::from_utf8(gathered).is_err() || nul {
            self.failed = true;
            return false;
        }
        self.len = 0;
        true
    }

    /// Whether a check of gathered STRs has failed already.
    pub(crate) fn failed(&self) -> bool {
        self.failed
    }

    /// Checks the STRs still gathered: `false` when some STR taken is bad.
    #[inline(always)]
    pub(crate) fn finish(&mut self) -> bool {
        // Without batches nothing is gathered: no check, no code.
        BATCH_CAP == 0 || (!self.failed && (self.len == 0 || self.flush()))
    }
}

/// SSE2 (part of every x86_64) tests of 16 bytes at once, as bit masks
/// (bit i for byte i): a few instructions where the word tests take a
/// dozen.
#[cfg(target_arch = "x86_64")]
mod sse {
    use core::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        _mm_setzero_si128, _mm_subs_epi8,
    };

    #[inline(always)]
    fn load(b: &[u8; 16]) -> __m128i {
        // SAFETY: `b` is 16 readable bytes; the load has no alignment
        // requirement.
        unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
    }

    /// The bytes not in 0x01..=0x7F: as signed bytes, those below 1, which
    /// are the ones whose saturating difference with 1 is negative (one
    /// subtraction and the sign bits: no compare and inversion).
    #[inline(always)]
    pub(super) fn not_ascii(b: &[u8; 16]) -> u32 {
        // SAFETY: SSE2 is part of the x86_64 baseline, always present.
        unsafe { _mm_movemask_epi8(_mm_subs_epi8(load(b), _mm_set1_epi8(1))) as u32 }
    }

    /// Whether `bytes` (32 or more; shorter ones give `false`) are all in
    /// 0x01..=0x7F: 32 bytes (two vectors) a step, then the last 32 bytes
    /// (overlapping the step before); it stops at the first step with
    /// another byte, so that a payload that is not ASCII (which the caller
    /// then copies) costs little more than its first non-ASCII step.
    #[inline(always)]
    pub(super) fn ascii_without_nul(bytes: &[u8]) -> bool {
        let two = |a: &[u8; 16], b: &[u8; 16]| not_ascii(a) | not_ascii(b);
        let Some((Some(a), Some(b))) = bytes
            .last_chunk::<32>()
            .map(|l| (l.first_chunk::<16>(), l.last_chunk::<16>()))
        else {
            return false;
        };
        // Whole steps while more than 32 bytes are left, then the last 32.
        let mut i = 0;
        while i + 32 < bytes.len() {
            let Some(step) = bytes.get(i..).and_then(|s| s.first_chunk::<32>()) else {
                return false;
            };
            if let (Some(a), Some(b)) = (step.first_chunk::<16>(), step.last_chunk::<16>()) {
                if two(a, b) != 0 {
                    return false;
                }
            }
            i += 32;
        }
        two(a, b) == 0
    }

    /// The zero bytes.
    #[inline(always)]
    pub(super) fn zero(b: &[u8; 16]) -> u32 {
        // SAFETY: SSE2 is part of the x86_64 baseline, always present.
        unsafe { _mm_movemask_epi8(_mm_cmpeq_epi8(load(b), _mm_setzero_si128())) as u32 }
    }

    /// The bits of window bytes 1..=n, a payload of n (below 16) bytes
    /// after a one-byte header.
    #[inline(always)]
    pub(super) fn window_bits(n: usize) -> u32 {
        WINDOW_BITS.get(n).copied().unwrap_or(0)
    }

    /// For a payload of `n` bytes in a window: [`window_bits`] below 16,
    /// else bit 0 (the tag byte's); all bits from 64 on.
    #[inline(always)]
    pub(super) fn key_bits(n: usize) -> u32 {
        KEY_BITS.get(n).copied().unwrap_or(u32::MAX)
    }

    static KEY_BITS: [u32; 64] = {
        let mut m = [1; 64];
        let mut n = 0;
        while n < 16 {
            m[n] = (2 << n) - 2;
            n += 1;
        }
        m
    };

    static WINDOW_BITS: [u32; 16] = {
        let mut m = [0; 16];
        let mut n = 0;
        while n < 16 {
            m[n] = (2 << n) - 2;
            n += 1;
        }
        m
    };
}

/// Whether `bytes` holds a zero byte. A loop without an early exit, which
/// the compiler turns into whole-vector compares (SSE2 on x86_64: about
/// 0.2 instructions a byte, where `contains` takes about 1).
#[inline(never)]
fn has_nul(bytes: &[u8]) -> bool {
    bytes.iter().fold(0u8, |acc, &b| acc | u8::from(b == 0)) != 0
}

/// `bytes` as `str` when it is short (at most 60 bytes, a short STR) and
/// ASCII without NUL; `None` otherwise (the caller then uses
/// [`validate_str`]).
#[inline(always)]
pub fn short_ascii(bytes: &[u8]) -> Option<&str> {
    if bytes.len() > 60 || !is_ascii_without_nul(bytes) {
        return None;
    }
    // SAFETY: every byte was just checked to be in 0x01..=0x7F, and ASCII
    // is valid UTF-8. (Measured: `core::str::from_utf8` here cost ~35
    // instructions per key, 12% of an atom walk over canada-map.)
    Some(unsafe { core::str::from_utf8_unchecked(bytes) })
}

/// RFC 3629 UTF-8 without NUL, one byte at a time: the smallest code, for
/// the `size-first` build (the default build uses simdutf8).
#[inline(never)]
fn is_utf8_without_nul(bytes: &[u8]) -> bool {
    let mut rest = bytes;
    while let Some((&b, tail)) = rest.split_first() {
        // How many continuation bytes follow, and the range of the first.
        let (n, lo, hi) = match b {
            0x01..=0x7F => (0, 0, 0),
            0xC2..=0xDF => (1, 0x80, 0xBF),
            0xE0 => (2, 0xA0, 0xBF),
            0xED => (2, 0x80, 0x9F),
            0xE1..=0xEF => (2, 0x80, 0xBF),
            0xF0 => (3, 0x90, 0xBF),
            0xF1..=0xF3 => (3, 0x80, 0xBF),
            0xF4 => (3, 0x80, 0x8F),
            _ => return false,
        };
        let Some((cont, after)) = tail.split_at_checked(n) else {
            return false;
        };
        for (i, &c) in cont.iter().enumerate() {
            let (l, h) = if i == 0 { (lo, hi) } else { (0x80, 0xBF) };
            if c < l || c > h {
                return false;
            }
        }
        rest = after;
    }
    true
}

/// Like [`validate_str`] for callers that only need the verdict.
#[inline]
pub fn check_str(bytes: &[u8]) -> Result<(), Error> {
    if !cfg!(feature = "size-first")
        && bytes.len() <= INLINE_ASCII_MAX
        && is_ascii_without_nul(bytes)
    {
        return Ok(());
    }
    validate_str(bytes).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_check_matches_the_byte_definition() {
        for len in 0..=24 {
            for at in (0..len).step_by(crate::sample::stride(5)) {
                for bad in [0x00u8, 0x01, 0x7F, 0x80, 0xC3, 0xFF] {
                    let mut v = [b'a'; 24];
                    v[at] = bad;
                    let s = &v[..len];
                    let want = s.iter().all(|&b| (1..=0x7F).contains(&b));
                    assert_eq!(
                        is_ascii_without_nul(s),
                        want,
                        "len {len} at {at} byte {bad:#x}"
                    );
                }
            }
        }
    }

    /// Every length below the padded block's and above, with a bad byte
    /// (or a character cut short) at every position: the verdict is
    /// `core::str::from_utf8`'s plus "no NUL".
    #[test]
    fn every_length_and_position_against_core() {
        let want = |s: &[u8]| core::str::from_utf8(s).is_ok() && !s.contains(&0);
        for n in 0..=80usize {
            let good: Vec<u8> = (0..n).map(|i| b'A' + (i % 26) as u8).collect();
            assert!(validate_str(&good).is_ok(), "length {n}");
            for at in (0..n).step_by(crate::sample::stride(13)) {
                for bad in [0x00u8, 0x80, 0xC3, 0xE2, 0xFF] {
                    let mut v = good.clone();
                    v[at] = bad;
                    assert_eq!(validate_str(&v).is_ok(), want(&v), "n {n} at {at} {bad:#x}");
                }
                if at + 2 <= n {
                    let mut v = good.clone();
                    v[at..at + 2].copy_from_slice("é".as_bytes());
                    assert!(validate_str(&v).is_ok(), "n {n} at {at} é");
                }
            }
        }
    }

    /// The window test judges window bytes 1..=n alone: a bad byte there
    /// is seen, one in the tag byte or after the payload is not, and n of
    /// 16 or more is refused.
    #[test]
    fn window_test_sees_exactly_the_payload() {
        for n in 0..=17usize {
            for at in 0..16 {
                for bad in [0x00u8, 0x80, 0xC3, 0xFF] {
                    let mut w = [b'a'; 16];
                    w[at] = bad;
                    let want = n < 16 && !(1..=n).contains(&at);
                    assert_eq!(window_ascii(&w, n), want, "n {n} at {at} byte {bad:#x}");
                }
            }
            assert_eq!(window_ascii(&[0x7F; 16], n), n < 16, "n {n}");
        }
    }

    /// The vector scan of long payloads sees a bad byte at every position
    /// of every length it takes (32 bytes up), and refuses shorter input.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn vector_scan_matches_the_byte_definition() {
        for len in (0..=200usize).step_by(crate::sample::stride(7)) {
            let good = vec![0x7Fu8; len];
            assert_eq!(sse::ascii_without_nul(&good), len >= 32, "len {len}");
            for at in (0..len).step_by(crate::sample::stride(11)) {
                for bad in [0x00u8, 0x01, 0x80, 0xC3, 0xFF] {
                    let mut v = vec![b'a'; len];
                    v[at] = bad;
                    let want = len >= 32 && bad == 0x01;
                    assert_eq!(
                        sse::ascii_without_nul(&v),
                        want,
                        "len {len} at {at} byte {bad:#x}"
                    );
                }
            }
        }
    }

    /// A MAP key of every length (1 to 60 bytes), with a bad byte at every
    /// position of the key and around it: `window_key` takes exactly the
    /// keys that are UTF-8 without NUL, whatever follows them.
    #[test]
    fn window_key_sees_exactly_the_key() {
        let want = |s: &[u8]| core::str::from_utf8(s).is_ok() && !s.contains(&0);
        for n in 1..=60usize {
            for at in (1..n + 3).step_by(crate::sample::stride(7)) {
                for bad in [0x00u8, 0x80, 0xC3, 0xFF] {
                    let mut atom = vec![tag_str(n)];
                    atom.extend(core::iter::repeat(b'k').take(n + 18));
                    atom[at] = bad;
                    let w = atom.first_chunk::<16>().unwrap();
                    let key = &atom[1..1 + n];
                    let mut batch = StrBatch::new();
                    let took = batch.window_key(w, key) && batch.finish();
                    assert_eq!(took, want(key), "n {n} at {at} byte {bad:#x}");
                }
            }
        }
    }

    /// The size-first build's checker against `core::str::from_utf8` (plus
    /// "no NUL") on every sequence of up to four bytes drawn from the
    /// boundary values of RFC 3629's table, and on every two-byte one.
    #[test]
    fn compact_check_agrees_with_core() {
        const EDGES: [u8; 26] = [
            0x00, 0x01, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
            0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ];
        let want = |s: &[u8]| core::str::from_utf8(s).is_ok() && !s.contains(&0);
        let mut buf = [0u8; 4];
        // Under Miri, sequences of up to two bytes (703, not 475,255).
        for len in 0..=crate::sample::count(4, 2) {
            let mut idx = [0usize; 4];
            loop {
                for i in 0..len {
                    buf[i] = EDGES[idx[i]];
                }
                let s = &buf[..len];
                assert_eq!(is_utf8_without_nul(s), want(s), "{s:02X?}");
                // The next combination (odometer over `idx[..len]`).
                let mut i = 0;
                while i < len && idx[i] == EDGES.len() - 1 {
                    idx[i] = 0;
                    i += 1;
                }
                if i == len {
                    break;
                }
                idx[i] += 1;
            }
        }
        for a in 0..=255u8 {
            for b in (0..=255u8).step_by(crate::sample::stride(31)) {
                let s = [a, b];
                assert_eq!(is_utf8_without_nul(&s), want(&s), "{s:02X?}");
            }
        }
    }

    /// A batch of STRs (as atoms with a one-byte header, padded to a
    /// window) against checking each payload with `core::str::from_utf8`:
    /// the batch stops or fails exactly when some payload taken is bad.
    #[test]
    fn batch_verdict_is_that_of_every_payload() {
        use yac_testkit::gen::{gen_utf8, Rng};
        let mut rng = Rng::new(0xBA7C);
        let want = |s: &[u8]| core::str::from_utf8(s).is_ok() && !s.contains(&0);
        for _ in 0..crate::sample::count(3000, 10) {
            let mut batch = StrBatch::new();
            let mut all_good = true;
            let mut went_on = true;
            for _ in 0..rng.usize(0, 120) {
                // Every path: the window (below 16), two words (16-32),
                // the copy in steps (to 256) and the check alone above.
                let n = match rng.below(8) {
                    0..=4 => rng.usize(0, 15),
                    5 => rng.usize(16, 32),
                    6 => rng.usize(33, 60),
                    _ => rng.usize(61, 300),
                };
                let mut payload = gen_utf8(&mut rng, n).into_bytes();
                let n = payload.len();
                if rng.chance(1, 150) && n > 0 {
                    let at = rng.usize(0, n - 1);
                    payload[at] = rng.pick(&[0x00, 0x80, 0xC0, 0xC3, 0xE2, 0xED, 0xF4, 0xFF]);
                }
                all_good &= want(&payload);
                assert_eq!(
                    validate_str(&payload).is_ok(),
                    want(&payload),
                    "{payload:02X?}"
                );
                // The tag only matters below 16 bytes (a one-byte header).
                let mut atom = vec![tag_str(n.min(60))];
                atom.extend_from_slice(&payload);
                atom.resize(atom.len().max(16), 0xFF);
                let w = atom.first_chunk::<16>().unwrap();
                // MAP keys (1 to 60 bytes) also through `window_key`.
                let key = (1..=60).contains(&n) && rng.chance(1, 2);
                let took = if key {
                    batch.window_key(w, &atom[1..1 + n])
                } else {
                    batch.window_str(w, &atom[1..1 + n])
                };
                if !took {
                    went_on = false;
                    break;
                }
            }
            assert_eq!(went_on && batch.finish(), all_good);
        }
    }

    fn tag_str(n: usize) -> u8 {
        crate::atom::tag::STR | n as u8
    }

    #[test]
    fn nul_scan_finds_every_zero_byte() {
        for len in 0..70 {
            assert!(!has_nul(&vec![0x80u8; len]));
            for at in (0..len).step_by(crate::sample::stride(5)) {
                let mut v = vec![0xFFu8; len];
                v[at] = 0;
                assert!(has_nul(&v), "len {len} at {at}");
                v.fill(0x01);
                v[at] = 0;
                assert!(has_nul(&v), "len {len} at {at}");
            }
        }
    }

    #[test]
    fn accepts_utf8_and_rejects_every_invalid_class() {
        let good: &[&[u8]] = &[
            b"",
            b"hello",
            "привет мир".as_bytes(),
            "\u{10FFFF}".as_bytes(),
            &[0x7F; 40],
        ];
        for g in good {
            assert!(validate_str(g).is_ok(), "{g:?}");
        }
        let bad: &[&[u8]] = &[
            b"\0",                     // NUL
            b"abc\0def",               // NUL inside ASCII
            &[0xC0, 0x80],             // overlong NUL
            &[0xE0, 0x80, 0x80],       // overlong
            &[0xED, 0xA0, 0x80],       // surrogate
            &[0xF4, 0x90, 0x80, 0x80], // above U+10FFFF
            &[0xE2, 0x82],             // truncated sequence
            &[0x80],                   // lone continuation
            &[0xFF],                   // never valid
        ];
        for b in bad {
            assert_eq!(validate_str(b), Err(Error::BadUtf8), "{b:?}");
            assert_eq!(check_str(b), Err(Error::BadUtf8), "{b:?}");
        }
        let mut long_with_nul = [b'a'; 100];
        long_with_nul[77] = 0;
        assert_eq!(check_str(&long_with_nul), Err(Error::BadUtf8));
    }
}
