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
    let s = simdutf8::basic::from_utf8(bytes).map_err(|_| Error::BadUtf8)?;
    if bytes.contains(&0) {
        return Err(Error::BadUtf8);
    }
    Ok(s)
}

/// True when every byte is in 0x01..=0x7F. Eight bytes at a time: a word
/// fails when a byte has its top bit set or is zero (the classic
/// "has a zero byte" test; it may also flag a byte next to a zero or
/// non-ASCII one, which fails the word anyway).
#[inline]
pub fn is_ascii_without_nul(bytes: &[u8]) -> bool {
    const LOW: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let mut words = bytes.chunks_exact(8);
    let mut flags = 0u64;
    for w in &mut words {
        // Always 8 bytes; a word that is not would fail the check.
        let x = u64::from_ne_bytes(<[u8; 8]>::try_from(w).unwrap_or([0x80; 8]));
        flags |= x | (x.wrapping_sub(LOW) & !x);
    }
    flags & HIGH == 0 && words.remainder().iter().all(|&b| b.wrapping_sub(1) < 0x7F)
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

/// Like [`validate_str`] for callers that only need the verdict.
#[inline]
pub fn check_str(bytes: &[u8]) -> Result<(), Error> {
    if bytes.len() <= INLINE_ASCII_MAX && is_ascii_without_nul(bytes) {
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
