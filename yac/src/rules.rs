//! The format's rules that are not about one atom's bytes: MAP key order,
//! BLOB chunk fit, the leading-zero rule of integer magnitudes, and the
//! parse options. Every user of a rule (the tree's parser and encoder, the
//! validator, the writer, serde, the edits) calls it here, so that each
//! rule has one home below all of them: this module imports nothing but
//! [`Error`].

use crate::error::Error;

/// Parser options.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Largest nesting depth accepted (LIST/MAP/BLOB levels); 0 = no limit.
    pub max_depth: u32,
    /// Skip UTF-8 validation of STR payloads (trusted input only; the NUL
    /// check is skipped too).
    pub trust_utf8: bool,
}

/// Whether a BLOB chunk of `len` bytes is full (`true`) or the last one
/// (`false`); longer than the chunk length is an error.
#[inline]
pub fn chunk_fits(len: usize, chunk_minus_one: u64) -> Result<bool, Error> {
    let len = len as u64;
    if len != 0 && len - 1 > chunk_minus_one {
        return Err(Error::BlobBadChunk);
    }
    Ok(len != 0 && len - 1 == chunk_minus_one)
}

/// Whether MAP key `key` sorts strictly above `prev`: by length, then
/// bytewise. The parser, the validator, the writer, the tree encoder and
/// serde all call it.
#[inline(always)]
pub fn key_above(key: &[u8], prev: &[u8]) -> bool {
    if key.len() != prev.len() {
        return key.len() > prev.len();
    }
    // Feature `size-first`: one slice comparison, no inline shortcuts.
    if cfg!(feature = "size-first") {
        return key > prev;
    }
    // Most neighbouring keys differ in their first byte.
    match (key.first(), prev.first()) {
        (Some(a), Some(b)) if a != b => return a > b,
        _ => {}
    }
    // Keys are mostly short: a byte loop beats a call to memcmp there.
    if key.len() <= 8 {
        return key
            .iter()
            .zip(prev)
            .find(|(k, p)| k != p)
            .is_some_and(|(k, p)| k > p);
    }
    key > prev
}

/// The canonical order of two MAP keys as an [`Ordering`](core::cmp::Ordering),
/// for sorting: [`key_above`] both ways (`Equal` for equal keys).
pub fn key_cmp(a: &[u8], b: &[u8]) -> core::cmp::Ordering {
    if key_above(a, b) {
        core::cmp::Ordering::Greater
    } else if key_above(b, a) {
        core::cmp::Ordering::Less
    } else {
        core::cmp::Ordering::Equal
    }
}

/// `bytes` without its leading zero bytes: the wire form of a big
/// integer's magnitude (the format allows no leading zero byte there).
pub fn strip_zeros(bytes: &[u8]) -> &[u8] {
    let first = bytes.iter().position(|&b| b != 0).unwrap_or(bytes.len());
    bytes.get(first..).unwrap_or(&[])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_above_is_length_then_bytes() {
        let keys: [&[u8]; 10] = [
            b"a",
            b"b",
            b"z",
            b"aa",
            b"ab",
            b"f\xff",
            b"abcdefgh",
            b"abcdefgi",
            b"abcdefghi",
            b"abcdefghj",
        ];
        for k in keys {
            for p in keys {
                let want = (k.len(), k) > (p.len(), p);
                assert_eq!(key_above(k, p), want, "{k:?} vs {p:?}");
            }
        }
    }

    /// Every length up to 40, keys equal but for one byte at every
    /// position (each way, and with the byte values that flip a signed
    /// compare), and equal keys, against the definition.
    #[test]
    fn key_above_agrees_at_every_length_and_position() {
        for n in 0..=40usize {
            let base: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            assert!(!key_above(&base, &base), "equal, length {n}");
            // Under Miri (~1000x slower) every 3rd place, the last included.
            for at in crate::sample::spread(n, 3) {
                for (lo, hi) in [(b'a', b'b'), (0x01, 0xFF), (0x7F, 0x80), (0x00, 0x01)] {
                    let (mut k, mut p) = (base.clone(), base.clone());
                    k[at] = hi;
                    p[at] = lo;
                    // Other bytes after the difference must not count.
                    if let Some(last) = p.last_mut().filter(|_| at + 1 < n) {
                        *last = 0xFF;
                    }
                    let want = |a: &[u8], b: &[u8]| (a.len(), a) > (b.len(), b);
                    assert_eq!(key_above(&k, &p), want(&k, &p), "n {n} at {at} {k:?} {p:?}");
                    assert_eq!(key_above(&p, &k), want(&p, &k), "n {n} at {at} {p:?} {k:?}");
                }
            }
        }
    }
}
