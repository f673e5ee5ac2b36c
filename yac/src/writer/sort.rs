//! MAP pairs sorted in place in the output buffer, for MAPs sorted on close.

use crate::atom;
use crate::error::Error;
use crate::grammar;
use crate::rules::key_above;

/// One MAP pair at the start of `bytes` (written by the writer, so valid):
/// the key's payload and the pair's length.
fn pair(bytes: &[u8]) -> Result<(&[u8], usize), Error> {
    let (key, k) = atom::string_raw(bytes)?;
    let (_, v) = crate::validate::count(bytes.get(k..).unwrap_or(&[]), 0)?;
    Ok((key, k + v))
}

/// Reverses `s[..mid]` and `s[mid..]` then the whole: the two parts swap
/// places (a rotation that cannot panic).
pub(crate) fn swap_parts(s: &mut [u8], mid: usize) {
    if let Some(a) = s.get_mut(..mid) {
        a.reverse();
    }
    if let Some(b) = s.get_mut(mid..) {
        b.reverse();
    }
    s.reverse();
}

/// Sorts the key/value pairs in `region` by key (in place: insertion sort
/// by rotations); a duplicate key gives `MapUnordered`.
pub(crate) fn sort_pairs(region: &mut [u8]) -> Result<(), Error> {
    let mut sorted = 0usize; // region[..sorted] holds sorted pairs
    let mut last = 0usize; // the last (largest) sorted pair
    while sorted < region.len() {
        let rest = region.get(sorted..).unwrap_or(&[]);
        let (key, len) = pair(rest)?;
        let mut at = sorted;
        if sorted > 0 {
            let (max, _) = pair(region.get(last..).unwrap_or(&[]))?;
            if key == max {
                return Err(grammar::UNORDERED_KEY);
            }
            if !key_above(key, max) {
                // Find the first sorted pair above the key.
                at = 0;
                loop {
                    let (k, l) = pair(region.get(at..).unwrap_or(&[]))?;
                    if k == key {
                        return Err(grammar::UNORDERED_KEY);
                    }
                    if key_above(k, key) {
                        break;
                    }
                    at += l;
                }
            }
        }
        if at == sorted {
            last = sorted;
        } else {
            if let Some(s) = region.get_mut(at..sorted + len) {
                swap_parts(s, sorted - at);
            }
            last += len;
        }
        sorted += len;
    }
    Ok(())
}
