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

/// True when every byte is in 0x01..=0x7F. A word at a time: a word fails
/// when a byte has its top bit set or is zero (the classic "has a zero
/// byte" test, exact as a verdict for the whole word). The tail is one
/// more word overlapping the previous one, and inputs shorter than a word
/// take two overlapping half words or three single bytes, so a short STR
/// costs a few instructions and no loop (a loop over the tail bytes cost
/// ~25 instructions per STR of licenses, where STRs average 11 bytes).
#[inline]
pub fn is_ascii_without_nul(bytes: &[u8]) -> bool {
    if let Some(last) = bytes.last_chunk::<8>() {
        let mut flags = word_flags(u64::from_ne_bytes(*last));
        for w in bytes.chunks_exact(8) {
            // Always 8 bytes; a word that is not would fail the check.
            flags |= word_flags(u64::from_ne_bytes(
                <[u8; 8]>::try_from(w).unwrap_or([0x80; 8]),
            ));
        }
        return flags & u64::from_ne_bytes([0x80; 8]) == 0;
    }
    if let (Some(first), Some(last)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        let x = u64::from(u32::from_ne_bytes(*first)) << 32 | u64::from(u32::from_ne_bytes(*last));
        return word_flags(x) & u64::from_ne_bytes([0x80; 8]) == 0;
    }
    // 0 to 3 bytes: the first, middle and last cover them all.
    match (bytes.first(), bytes.get(bytes.len() / 2), bytes.last()) {
        (Some(&a), Some(&b), Some(&c)) => {
            a.wrapping_sub(1) < 0x7F && b.wrapping_sub(1) < 0x7F && c.wrapping_sub(1) < 0x7F
        }
        _ => true,
    }
}

/// Per byte of `x`, the top bit set when the byte is zero or has its top
/// bit set (exact as "any such byte": stray flags only appear above a
/// byte that is flagged anyway).
#[inline(always)]
fn word_flags(x: u64) -> u64 {
    const LOW: u64 = u64::from_ne_bytes([0x01; 8]);
    x | (x.wrapping_sub(LOW) & !x)
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
