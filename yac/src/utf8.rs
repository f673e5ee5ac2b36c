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
    let s = simdutf8::basic::from_utf8(bytes).map_err(|_| Error::BadUtf8)?;
    if bytes.contains(&0) {
        return Err(Error::BadUtf8);
    }
    Ok(s)
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

/// For a STR of n (0 to 15) bytes in a window, which flags of
/// [`non_ascii_flags`] count in the word of window bytes 1..9: the top bits
/// of its first min(n, 8) bytes.
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
            for at in 0..len {
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
        for len in 0..=4 {
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
