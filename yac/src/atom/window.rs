//! The common atoms read from a 16-byte window of the input: one-byte
//! atoms, integers of at most 8 bytes, BIN and STR with a one-byte header.
//! What they decode is exactly what [`decode`] gives; everything else goes
//! to it.

#[cfg(doc)]
use super::{decode, string_header};
use super::{tag, ItemType};
use crate::utf8;

capi_internal! {
/// A common atom as `decode_window` gives it: in the shape the C API
/// stores it, so that storing it takes no conversion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quick<'a> {
    /// An atom whose value is one word, and its length in bytes: EOC, NIL,
    /// FALSE, TRUE, LIST and MAP (word 0), `Pint` (the value) and `Nint`
    /// (the value's two's complement bits).
    Word(ItemType, u64, usize),
    /// A BIN or STR with a one-byte header (so the atom is one byte longer
    /// than the payload): its type and payload.
    Bytes(ItemType, &'a [u8]),
}
}

/// The common atoms of an input of at least 16 bytes, read from that
/// 16-byte window so that the tag and length bytes need no bounds checks of
/// their own: one-byte atoms, integers of at most 8 bytes that fit
/// `u64`/`i64`, BIN and ASCII STR with a one-byte header. When complete
/// and valid they are exactly what [`decode`] gives; `None` means "ask
/// [`decode`]" (anything else, a shorter input, and every error).
///
/// Callers use its two halves, [`decode_window_words`] and
/// [`decode_window_string`]; the tests check this whole against [`decode`].
#[cfg(test)]
pub(crate) fn decode_window(buf: &[u8]) -> Option<Quick<'_>> {
    match decode_window_words(buf) {
        Window::One(typ, t) => {
            assert_eq!(buf.first(), Some(&t));
            Some(Quick::Word(typ, 0, 1))
        }
        Window::Done(q) => Some(q),
        Window::Bytes => decode_window_string(buf),
        Window::Other => None,
    }
}

impl Quick<'_> {
    capi_internal! {
    /// The atom's length on the wire.
    #[inline(always)]
    pub fn wire_len(&self) -> usize {
        match *self {
            Quick::Word(_, _, used) => used,
            Quick::Bytes(_, payload) => 1 + payload.len(),
        }
    }
    }
}

capi_internal! {
/// What [`decode_window_words`] found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Window<'a> {
    /// A one-byte atom: its type and tag.
    One(ItemType, u8),
    /// The atom, exactly as [`decode`] gives it.
    Done(Quick<'a>),
    /// A BIN or STR tag: [`decode_window_string`] takes it from here.
    Bytes,
    /// Anything else: ask [`decode`].
    Other,
}
}

capi_internal! {
/// The first half of `decode_window`: the atoms whose value is one word
/// (one-byte atoms and integers), and which path the others take. Its own
/// function so that a caller can keep the string checks, which need more
/// registers, out of line.
#[inline(always)]
pub fn decode_window_words(buf: &[u8]) -> Window<'_> {
    let Some(w) = buf.first_chunk::<16>() else {
        return Window::Other;
    };
    let class = WINDOW_CLASS[usize::from(w[0])];
    if class <= ItemType::Map as u8 {
        return Window::One(ItemType::from_u8(class), w[0]);
    }
    if class < CLASS_BYTES {
        return match window_int(w, class == CLASS_NINT) {
            Some(q) => Window::Done(q),
            None => Window::Other,
        };
    }
    if class == CLASS_BYTES {
        return Window::Bytes;
    }
    Window::Other
}
}

/// [`WINDOW_CLASS`] of +INT. The classes are ordered: one-byte types,
/// then the integers, then the strings, then the rest.
const CLASS_PINT: u8 = 0x10;
/// [`WINDOW_CLASS`] of -INT.
const CLASS_NINT: u8 = 0x11;
/// [`WINDOW_CLASS`] of BIN and STR.
const CLASS_BYTES: u8 = 0x20;
/// [`WINDOW_CLASS`] of every other tag.
const CLASS_OTHER: u8 = 0xFF;

/// How [`decode_window_words`] goes on from each tag byte: the type of a
/// one-byte atom (its `ItemType` value, at most `Map`), or a `CLASS_*`;
/// derived from [`CLASS`].
static WINDOW_CLASS: [u8; 256] = {
    let mut c = [CLASS_OTHER; 256];
    let mut t = 0;
    while t < 256 {
        c[t] = match CLASS[t] {
            Class::Other => CLASS_OTHER,
            Class::Pint => CLASS_PINT,
            Class::Nint => CLASS_NINT,
            Class::Bin | Class::Str => CLASS_BYTES,
            one => one as u8,
        };
        t += 1;
    }
    c
};

/// What a tag byte starts, for the fast loops' dispatch: the atoms whose
/// tag alone says how to go on (each with its `ItemType` value), and
/// `Other` for every tag left to the exact decoder. [`CLASS`] maps every
/// tag byte to one; the fast loops `match` on it, which compiles to one
/// table jump instead of a chain of compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum Class {
    /// Any other tag (HEXLET, BLOB, floats, TAI64, MAGIC, unknown).
    Other = 0,
    /// EOC.
    Eoc = ItemType::Eoc as u8,
    /// NIL.
    Nil = ItemType::Nil as u8,
    /// FALSE.
    False = ItemType::False as u8,
    /// TRUE.
    True = ItemType::True as u8,
    /// +INT (its BIN body follows).
    Pint = ItemType::Pint as u8,
    /// -INT (its BIN body follows).
    Nint = ItemType::Nint as u8,
    /// LIST.
    List = ItemType::List as u8,
    /// MAP.
    Map = ItemType::Map as u8,
    /// BIN, any length form.
    Bin = ItemType::Bin as u8,
    /// STR, any length form.
    Str = ItemType::Str as u8,
}

/// The [`Class`] of every tag byte: the tag table of FORMAT.md for the
/// atoms the fast loops take, in one place.
pub(crate) static CLASS: [Class; 256] = {
    let mut c = [Class::Other; 256];
    c[tag::EOC as usize] = Class::Eoc;
    c[tag::NIL as usize] = Class::Nil;
    c[tag::FALSE as usize] = Class::False;
    c[tag::TRUE as usize] = Class::True;
    c[tag::LIST as usize] = Class::List;
    c[tag::MAP as usize] = Class::Map;
    c[tag::PINT as usize] = Class::Pint;
    c[tag::NINT as usize] = Class::Nint;
    let mut t = tag::BIN as usize;
    while t < 256 {
        c[t] = if t < tag::STR as usize {
            Class::Bin
        } else {
            Class::Str
        };
        t += 1;
    }
    c
};

/// The [`Class`] of tag byte `t`.
#[inline(always)]
pub(crate) fn class(t: u8) -> Class {
    CLASS[usize::from(t)]
}

/// `decode_window` of a +INT/-INT: its BIN body must be minimal, at
/// most 8 bytes long, and fit `u64`/`i64`.
#[inline(always)]
pub(crate) fn window_int(w: &[u8; 16], negative: bool) -> Option<Quick<'static>> {
    let b = w[1];
    let n = b ^ tag::BIN;
    let v = if n.wrapping_sub(1) < 8 {
        // 1 to 8 bytes: no leading zero byte.
        if w[2] == 0 {
            return None;
        }
        let (_, rest) = w.split_first_chunk::<2>()?;
        let (magnitude, _) = rest.split_first_chunk::<8>()?;
        // One load and a byte swap; the magnitude is its first n bytes.
        u64::from_be_bytes(*magnitude).wrapping_shr(64 - 8 * u32::from(n))
    } else if n == 0 {
        0
    } else {
        return None; // longer, or not a BIN at all
    };
    // 2 + n, with b = 0x80 + n here.
    let used = usize::from(b).wrapping_sub(usize::from(tag::BIN) - 2);
    if negative {
        // -1 - v is !v, which fits i64 when it is negative as an i64.
        let bits = !v;
        if (bits as i64) >= 0 {
            return None;
        }
        return Some(Quick::Word(ItemType::Nint, bits, used));
    }
    Some(Quick::Word(ItemType::Pint, v, used))
}

/// The header of a BIN or STR atom at the window's start whose length
/// takes at most two bytes (payloads below 65853 bytes): the header's
/// length and the payload's, as [`string_header`] gives them. `None` for
/// the 8-byte length form. The tag must be a BIN or STR tag.
#[inline(always)]
pub(crate) fn window_string_header(w: &[u8; 16]) -> Option<(usize, usize)> {
    let low = w[0] & 0x3F;
    match low {
        0..=60 => Some((1, usize::from(low))),
        61 => Some((2, 61 + usize::from(w[1]))),
        62 => Some((3, 317 + usize::from(u16::from_be_bytes([w[1], w[2]])))),
        _ => None,
    }
}

/// The length of a +INT/-INT at the window's start whose BIN body is at
/// most 8 bytes long and minimal: such an atom is valid whatever its value
/// (a -INT beyond `i64` is a big integer). `None` for anything else,
/// valid or not. The validator's twin of [`window_int`], which also
/// computes the value and refuses the big ones.
#[inline(always)]
pub(crate) fn window_int_len(w: &[u8; 16]) -> Option<usize> {
    let n = w[1] ^ tag::BIN;
    if n == 0 || (n <= 8 && w[2] != 0) {
        Some(2 + usize::from(n))
    } else {
        None
    }
}

capi_internal! {
/// `decode_window` of an atom with a BIN or STR tag (anything else gives
/// `None`): a one-byte header and the payload present; a STR at most 15
/// bytes long (inside the window) and ASCII without NUL.
#[inline(always)]
pub fn decode_window_string(buf: &[u8]) -> Option<Quick<'_>> {
    let w = buf.first_chunk::<16>()?;
    let t = w[0];
    // STR tags C0..=CF: lengths 0 to 15, inside the window.
    let n = usize::from(t.wrapping_sub(tag::STR));
    if n < 16 {
        if !utf8::window_ascii(w, n) {
            return None;
        }
        return Some(Quick::Bytes(ItemType::Str, w.get(1..1 + n)?));
    }
    let n = usize::from(t.wrapping_sub(tag::BIN));
    if n <= 60 {
        return Some(Quick::Bytes(ItemType::Bin, buf.get(1..1 + n)?));
    }
    None
}
}

capi_internal! {
/// A STR with a one-byte header (at most 60 bytes), complete and valid
/// (any UTF-8 without NUL), exactly as [`decode`] gives it; `None` for
/// anything else. For the STRs [`decode_window_string`] leaves: longer
/// than the window, or not ASCII.
#[inline(always)]
pub fn decode_short_str(buf: &[u8]) -> Option<Quick<'_>> {
    let n = usize::from(buf.first()?.wrapping_sub(tag::STR));
    if n > 60 {
        return None;
    }
    let payload = buf.get(1..1 + n)?;
    if n < 16 && !cfg!(feature = "size-first") {
        // Mostly not ASCII: the window's word test has failed already.
        utf8::validate_str(payload).ok()?;
    } else {
        utf8::check_str(payload).ok()?;
    }
    Some(Quick::Bytes(ItemType::Str, payload))
}
}
