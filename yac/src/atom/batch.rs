//! Many atoms per call: the common atoms from the 16-byte window (exactly
//! what [`decode`] gives them as), everything else from [`decode`]. The
//! caller chooses the stored form of an atom ([`Slot`]); the C layer's
//! `YACAtomsDecode` is this loop with `struct YACAtom` slots.

use super::{
    decode, decode_window_string, decode_window_words, first_refused, tag, Atom, ItemType, Quick,
    Window,
};
use crate::error::Error;
use crate::utf8::{self, StrBatch};

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
    /// ([`Quick::wire_len`]). A STR's text may not be checked yet: a slot
    /// past the count [`decode_batch`] returns may hold one that is not
    /// UTF-8 without NUL.
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
    // Set up at the first STR it takes: most calls on most documents
    // gather none, and the buffer's set-up would cost them.
    let mut strs: Option<StrBatch> = None;
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
                    Window::Bytes => match decode_window_string(rest) {
                        None => gathered_str(&mut strs, rest),
                        q => q,
                    },
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
    let strs_ok = match strs.as_mut() {
        Some(b) => b.finish(),
        None => true,
    };
    if !strs_ok {
        // A STR gathered is bad: the first atom that `decode` refuses is
        // where decoding one by one stops.
        if let Some(at) = first_refused(buf.get(..pos).unwrap_or_default()) {
            let rest = buf.get(at..).unwrap_or_default();
            let e = decode(rest).err().unwrap_or(Error::Invalid);
            return (atoms_in(buf.get(..at).unwrap_or_default()), at, Err(e));
        }
    }
    (stored, pos.min(buf.len()), r)
}

/// A STR with a one-byte header (at most 60 bytes) at the start of `rest`
/// that [`decode_window_string`] leaves (not ASCII, or longer than the
/// window), taken when `strs` takes its text: its check is then done with
/// the batch's, and [`decode_batch`] goes back to the first bad one when
/// that fails. `None` (the exact decode) without batches, near the input's
/// end, and once a batch has failed.
#[inline(always)]
fn gathered_str<'a>(strs: &mut Option<StrBatch>, rest: &'a [u8]) -> Option<Quick<'a>> {
    if !utf8::BATCHES {
        return None;
    }
    let w = rest.first_chunk::<16>()?;
    let n = usize::from(w[0].wrapping_sub(tag::STR));
    if n > 60 {
        return None;
    }
    let payload = rest.get(1..1 + n)?;
    let strs = strs.get_or_insert_with(StrBatch::new);
    if strs.failed() {
        return None;
    }
    strs.window_str(w, payload)
        .then_some(Quick::Bytes(ItemType::Str, payload))
}

/// How many atoms `atoms` holds: all of them decode (the atoms before a
/// refused one).
#[inline(never)]
fn atoms_in(atoms: &[u8]) -> usize {
    let (mut at, mut n) = (0, 0);
    while let Some(Ok((_, used))) = atoms.get(at..).filter(|r| !r.is_empty()).map(decode) {
        at += used;
        n += 1;
    }
    n
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
                // A STR whose text is still to be checked (see `Slot::quick`):
                // only past the count returned, where nothing compares it.
                Quick::Bytes(ItemType::Str, payload) => match core::str::from_utf8(payload) {
                    Ok(text) if !text.contains('\0') => Seen(Atom::Str(text)),
                    _ => Seen(Atom::Bin(b"not text")),
                },
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

    /// Walks `buf` with `decode_batch` calls of `cap` slots, as a C caller
    /// of `YACAtomsDecode` does: every atom, the bytes taken and the error.
    fn walk(buf: &[u8], cap: usize) -> (Vec<Seen<'_>>, usize, Result<(), Error>) {
        let (mut seen, mut pos) = (Vec::new(), 0);
        while pos < buf.len() {
            let mut slots = std::vec![Seen(Atom::Nil); cap];
            let (n, used, r) = decode_batch(&mut slots, &buf[pos..]);
            seen.extend_from_slice(&slots[..n]);
            pos += used;
            if r.is_err() || n == 0 {
                return (seen, pos, r);
            }
        }
        (seen, pos, Ok(()))
    }

    /// STRs whose text is checked in batches (not ASCII, or longer than the
    /// window): the same atoms and the same error at the same atom as
    /// `decode` one by one, with a bad STR of each kind anywhere among many
    /// good ones (so that batches fill and are checked in the middle of a
    /// call, and at its end).
    #[test]
    fn batched_strs_fail_where_decode_fails() {
        let good: [&[u8]; 6] = [
            "é".as_bytes(),
            "Ελληνικά".as_bytes(),
            "中文名字和一些更多的字".as_bytes(),
            b"plain ascii text that is longer than the window",
            "العربية والمزيد من النص العربي هنا".as_bytes(),
            b"k",
        ];
        let bad: [&[u8]; 8] = [
            b"\x80",
            b"ab\xC3",
            b"\xC3\x28 text",
            b"\xE0\x80\x80",
            b"\xED\xA0\x80",
            b"\xF4\x90\x80\x80 more",
            b"with \0 NUL and \xC3\xA9",
            b"\xFF",
        ];
        let str_atom = |doc: &mut Vec<u8>, text: &[u8]| {
            doc.push(tag::STR + u8::try_from(text.len()).unwrap());
            doc.extend_from_slice(text);
        };
        // A fixed xorshift sequence picks the good texts.
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        // Under Miri (~1000x slower) every 5th (bad text, place) pair: 15
        // of the 72, among them every text and every place.
        let places = [0, 1, 5, 40, 150, 255, 256, 257, 400];
        let pairs = bad
            .iter()
            .flat_map(|&b| places.iter().map(move |&at| (b, at)));
        for (b, at) in pairs.step_by(crate::sample::stride(5)) {
            let mut doc = std::vec![tag::LIST];
            for i in 0..420 {
                if i == at {
                    str_atom(&mut doc, b);
                } else {
                    let text = good[(next() % good.len() as u64) as usize];
                    str_atom(&mut doc, text);
                    if i % 7 == 0 {
                        doc.extend_from_slice(&[0x0C, 0x81, 0x2A]);
                    }
                }
            }
            doc.push(tag::EOC);
            let (want, want_used, want_r) = one_by_one(&doc, usize::MAX);
            for cap in [1, 7, 256, 1000] {
                let (seen, used, r) = walk(&doc, cap);
                assert_eq!(seen.len(), want.len(), "{b:02X?} at {at} cap {cap}");
                assert_eq!(seen, want, "{b:02X?} at {at} cap {cap}");
                assert_eq!((used, r), (want_used, want_r), "{b:02X?} at {at} cap {cap}");
                assert!(want_r.is_err(), "{b:02X?} is refused");
            }
        }
    }
}
