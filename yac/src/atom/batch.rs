//! Many atoms per call: the common atoms from the 16-byte window (exactly
//! what [`decode`] gives them as), everything else from [`decode`]. The
//! caller chooses the stored form of an atom ([`Slot`]); the C layer's
//! `YACAtomsDecode` is this loop with `struct YACAtom` slots.

use super::{
    decode, decode_window_string, decode_window_words, tag, Atom, ItemType, Quick, Window,
};
use crate::error::Error;

/// A caller's stored form of one atom: how [`decode_batch`] fills a slot.
/// Each constructor gets the atom's first wire byte, `tag`.
pub trait Slot<'a>: Sized {
    /// A one-byte atom: EOC, NIL, FALSE, TRUE, LIST or MAP.
    fn one(typ: ItemType, tag: u8) -> Self;
    /// An atom whose value is one word: `Pint` (the value) or `Nint` (the
    /// value's two's complement bits).
    fn word(typ: ItemType, word: u64, tag: u8) -> Self;
    /// Any atom.
    fn atom(a: &Atom<'a>, tag: u8) -> Self;

    /// A window atom `q` whose first byte is `tag`, and the atom's length
    /// ([`Quick::wire_len`]).
    fn quick(q: Quick<'a>, tag: u8) -> (Self, usize);
}

/// Decodes and fully validates the atoms at the start of `buf`, one after
/// another, into `slots`: the same atoms, one by one, as [`decode`] gives.
/// Stops when the slots are full, when the input is used up, or at an atom
/// that does not decode. Returns how many slots were filled, the bytes
/// their atoms took, and the error of the atom after them if it stopped at
/// one.
#[inline]
pub fn decode_batch<'a, S: Slot<'a>>(
    slots: &mut [S],
    buf: &'a [u8],
) -> (usize, usize, Result<(), Error>) {
    // An offset rather than a shrinking slice: the window's bounds check
    // is the only one per atom (a shrinking slice adds work to every
    // advance).
    let mut pos = 0usize;
    let mut stored = 0;
    let r = loop {
        let Some(slot) = slots.get_mut(stored) else {
            break Ok(());
        };
        let window = match buf.get(pos..pos + 16) {
            Some(w) => decode_window_words(w),
            None => Window::Other,
        };
        let used = match window {
            Window::One(typ, tag) => {
                *slot = S::one(typ, tag);
                1
            }
            Window::Done(Quick::Word(typ, word, used)) => {
                // Only the integers come as words from the window.
                let tag = if typ == ItemType::Pint {
                    tag::PINT
                } else {
                    tag::NINT
                };
                *slot = S::word(typ, word, tag);
                used
            }
            window => {
                let rest = buf.get(pos..).unwrap_or_default();
                if rest.is_empty() {
                    break Ok(());
                }
                let quick = match window {
                    Window::Bytes => decode_window_string(rest),
                    _ => None,
                };
                let tag = rest.first().copied().unwrap_or(0);
                match quick {
                    Some(q) => {
                        let (a, used) = S::quick(q, tag);
                        *slot = a;
                        used
                    }
                    None => match decode_one(slot, rest, tag) {
                        Ok(used) => used,
                        Err(e) => break Err(e),
                    },
                }
            }
        };
        pos += used;
        stored += 1;
    };
    (stored, pos.min(buf.len()), r)
}

/// Any atom at the start of `rest` (not empty, first byte `tag`) into
/// `slot`; its length.
#[inline(never)]
fn decode_one<'a, S: Slot<'a>>(slot: &mut S, rest: &'a [u8], tag: u8) -> Result<usize, Error> {
    let (a, used) = decode(rest)?;
    *slot = S::atom(&a, tag);
    Ok(used)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::super::tests::quick_atom;
    use super::*;
    use std::vec::Vec;

    /// An atom as [`decode`] gives it.
    #[derive(Clone, Debug, PartialEq)]
    struct Seen<'a>(Atom<'a>);

    impl<'a> Slot<'a> for Seen<'a> {
        fn one(typ: ItemType, tag: u8) -> Self {
            Self::word(typ, 0, tag)
        }
        fn word(typ: ItemType, word: u64, _tag: u8) -> Self {
            Seen(quick_atom(Quick::Word(typ, word, 0), &[]).0)
        }
        fn quick(q: Quick<'a>, tag: u8) -> (Self, usize) {
            let seen = match q {
                Quick::Word(typ, word, _) => Self::word(typ, word, tag),
                Quick::Bytes(ItemType::Bin, payload) => Seen(Atom::Bin(payload)),
                Quick::Bytes(ItemType::Str, payload) => {
                    Seen(Atom::Str(core::str::from_utf8(payload).expect("text")))
                }
                Quick::Bytes(other, _) => panic!("{other:?} is not a byte atom"),
            };
            (seen, q.wire_len())
        }
        fn atom(a: &Atom<'a>, _tag: u8) -> Self {
            Seen(*a)
        }
    }

    /// [`decode`] atom by atom: the atoms, the bytes they took, and the
    /// error it stopped at.
    fn one_by_one(buf: &[u8], cap: usize) -> (Vec<Seen<'_>>, usize, Result<(), Error>) {
        let (mut seen, mut pos) = (Vec::new(), 0);
        while seen.len() < cap && pos < buf.len() {
            match decode(&buf[pos..]) {
                Ok((a, used)) => {
                    seen.push(Seen(a));
                    pos += used;
                }
                Err(e) => return (seen, pos, Err(e)),
            }
        }
        (seen, pos, Ok(()))
    }

    #[test]
    fn batch_is_decode_atom_by_atom() {
        let mut doc = std::vec![0x09, 0xC1, b'a', 0x0C, 0x81, 0x7B, 0xC1, b'b', 0x0D, 0x88];
        doc.extend_from_slice(&[0x80, 0, 0, 0, 0, 0, 0, 0]);
        doc.extend_from_slice(&[0xC2, 0xC3, 0xA9, 0x83, 1, 2, 3, 0x12]);
        doc.extend_from_slice(&1.5f64.to_be_bytes());
        doc.extend_from_slice(&[0x08, 0x01, 0x02, 0x03, 0x00, 0x00, 0x0C, 0x82, 0x00]);
        for end in 0..=doc.len() {
            let buf = &doc[..end];
            for cap in [0, 1, 2, 5, 100] {
                let mut slots = std::vec![Seen(Atom::Nil); cap];
                let (n, used, r) = decode_batch(&mut slots, buf);
                let (want, want_used, want_r) = one_by_one(buf, cap);
                assert_eq!(&slots[..n], &want[..], "{buf:02X?} cap {cap}");
                assert_eq!((used, r), (want_used, want_r), "{buf:02X?} cap {cap}");
            }
        }
    }
}
