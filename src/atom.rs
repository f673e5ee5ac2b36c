//! Atom decoding: one item of the format at a time, fully validated, with no
//! memory of its own. A LIST or MAP atom is just its opening tag, EOC is an
//! atom of its own, a BLOB atom is its header (its chunks follow as BIN
//! atoms), and +INT/-INT is decoded together with its BIN body.
//!
//! ```
//! use yac::atom::{decode, Atom};
//! let (atom, used) = decode(&[0x0C, 0x81, 0x7B]).unwrap();
//! assert_eq!((atom, used), (Atom::Uint(123), 3));
//! assert_eq!(decode(&[0xC3, b'f']), Err(yac::Error::NotEnough(2)));
//! ```

use crate::error::Error;
use crate::{float, tai64, utf8};

/// Tag bytes of the format; names as in FORMAT.md's tag table.
#[allow(missing_docs)]
pub mod tag {
    pub const EOC: u8 = 0x00;
    pub const NIL: u8 = 0x01;
    pub const FALSE: u8 = 0x02;
    pub const TRUE: u8 = 0x03;
    pub const HEXLET: u8 = 0x04;
    pub const LIST: u8 = 0x08;
    pub const MAP: u8 = 0x09;
    pub const BLOB: u8 = 0x0B;
    pub const PINT: u8 = 0x0C;
    pub const NINT: u8 = 0x0D;
    pub const FLOAT16: u8 = 0x10;
    pub const FLOAT32: u8 = 0x11;
    pub const FLOAT64: u8 = 0x12;
    pub const FLOAT128: u8 = 0x13;
    pub const FLOAT256: u8 = 0x14;
    pub const TAI64: u8 = 0x18;
    pub const TAI64N: u8 = 0x19;
    pub const TAI64NA: u8 = 0x1A;
    pub const MAGIC: u8 = 0x4B;
    /// BIN tags are 0x80..=0xBF, STR tags 0xC0..=0xFF.
    pub const BIN: u8 = 0x80;
    pub const STR: u8 = 0xC0;
}

/// Byte length of a MAGIC atom's payload after "KEKS".
pub const MAGIC_LEN: usize = 12;

/// The high-level type of an atom or tree node. Values are stable: they are
/// the C `enum YACItemType` and are stored in tree nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum ItemType {
    /// Not a valid item (an unset node or atom).
    Invalid = 0,
    /// End of a LIST or MAP.
    Eoc = 1,
    /// NIL.
    Nil = 2,
    /// FALSE.
    False = 3,
    /// TRUE.
    True = 4,
    /// 16 raw bytes.
    Hexlet = 5,
    /// +INT whose value fits `u64`.
    Pint = 6,
    /// -INT whose value fits `i64`.
    Nint = 7,
    /// LIST.
    List = 8,
    /// MAP.
    Map = 9,
    /// BLOB (header; chunks follow).
    Blob = 10,
    /// IEEE 754 float of 2, 4, 8, 16 or 32 bytes.
    Float = 11,
    /// TAI64, TAI64N or TAI64NA label.
    Tai64 = 12,
    /// MAGIC.
    Magic = 13,
    /// BIN: raw bytes.
    Bin = 14,
    /// STR: UTF-8 without NUL.
    Str = 15,
    /// +INT beyond `u64`: big-endian magnitude bytes.
    Pbig = 16,
    /// -INT beyond `i64`: the wire magnitude v, meaning -1 - v.
    Nbig = 17,
}

impl ItemType {
    /// The type for a stored discriminant; unknown values give `Invalid`.
    pub const fn from_u8(v: u8) -> ItemType {
        match v {
            1 => ItemType::Eoc,
            2 => ItemType::Nil,
            3 => ItemType::False,
            4 => ItemType::True,
            5 => ItemType::Hexlet,
            6 => ItemType::Pint,
            7 => ItemType::Nint,
            8 => ItemType::List,
            9 => ItemType::Map,
            10 => ItemType::Blob,
            11 => ItemType::Float,
            12 => ItemType::Tai64,
            13 => ItemType::Magic,
            14 => ItemType::Bin,
            15 => ItemType::Str,
            16 => ItemType::Pbig,
            17 => ItemType::Nbig,
            _ => ItemType::Invalid,
        }
    }
}

/// One decoded atom. Byte slices borrow from the input (zero copy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Atom<'a> {
    /// End of a LIST or MAP.
    Eoc,
    /// NIL.
    Nil,
    /// FALSE or TRUE.
    Bool(bool),
    /// 16 raw bytes (UUID, IPv6 address, ...).
    Hexlet(&'a [u8; 16]),
    /// A +INT that fits `u64`.
    Uint(u64),
    /// A -INT that fits `i64` (always negative).
    Nint(i64),
    /// An integer beyond `u64`/`i64`: sign and the minimal big-endian wire
    /// magnitude (for a negative one, the value is -1 - magnitude).
    BigInt {
        /// -INT rather than +INT.
        negative: bool,
        /// At least 9 bytes (or 8 with the top bit set, for -INT), no leading zero.
        magnitude: &'a [u8],
    },
    /// Start of a LIST: items follow, then EOC.
    List,
    /// Start of a MAP: key/value pairs follow, then EOC.
    Map,
    /// A BLOB header: BIN chunks of `chunk_len_minus_one + 1` bytes follow,
    /// ended by a shorter one. Stored minus one, as on the wire, because the
    /// chunk length may be 2^64.
    Blob {
        /// The chunk length minus one (0 means chunks of 1 byte).
        chunk_len_minus_one: u64,
    },
    /// An IEEE 754 binary float, big-endian: 2, 4, 8, 16 or 32 bytes.
    Float(&'a [u8]),
    /// A TAI64 (8 bytes), TAI64N (12) or TAI64NA (16) label as on the wire.
    Tai64(&'a [u8]),
    /// The 12 bytes after "KEKS".
    Magic(&'a [u8; MAGIC_LEN]),
    /// Raw bytes.
    Bin(&'a [u8]),
    /// UTF-8 text without NUL.
    Str(&'a str),
}

impl<'a> Atom<'a> {
    /// Decodes one atom at the start of `buf`; see [`decode`].
    pub fn decode(buf: &'a [u8]) -> Result<(Atom<'a>, usize), Error> {
        decode(buf)
    }

    /// The atom's high-level type.
    pub fn item_type(&self) -> ItemType {
        match self {
            Atom::Eoc => ItemType::Eoc,
            Atom::Nil => ItemType::Nil,
            Atom::Bool(false) => ItemType::False,
            Atom::Bool(true) => ItemType::True,
            Atom::Hexlet(_) => ItemType::Hexlet,
            Atom::Uint(_) => ItemType::Pint,
            Atom::Nint(_) => ItemType::Nint,
            Atom::BigInt {
                negative: false, ..
            } => ItemType::Pbig,
            Atom::BigInt { negative: true, .. } => ItemType::Nbig,
            Atom::List => ItemType::List,
            Atom::Map => ItemType::Map,
            Atom::Blob { .. } => ItemType::Blob,
            Atom::Float(_) => ItemType::Float,
            Atom::Tai64(_) => ItemType::Tai64,
            Atom::Magic(_) => ItemType::Magic,
            Atom::Bin(_) => ItemType::Bin,
            Atom::Str(_) => ItemType::Str,
        }
    }
}

/// Takes `n` bytes after a tag byte: the payload, or how many are missing.
#[inline]
fn fixed<const N: usize>(buf: &[u8]) -> Result<&[u8; N], Error> {
    after_tag(buf, N)?.try_into().map_err(|_| Error::Invalid)
}

/// Decodes the header of a BIN/STR whose tag is `buf[0]`: returns the
/// header length and the payload length, without checking the payload is
/// present.
#[inline]
pub fn string_header(buf: &[u8]) -> Result<(usize, usize), Error> {
    let Some(&t) = buf.first() else {
        return Err(Error::NotEnough(1));
    };
    let short = usize::from(t & 0x3F);
    let need = |n: usize| Error::NotEnough(n - buf.len());
    match short {
        0..=60 => Ok((1, short)),
        61 => match buf.get(1) {
            Some(&x) => Ok((2, 61 + usize::from(x))),
            None => Err(need(2)),
        },
        62 => match buf.get(1..3) {
            Some(&[a, b]) => Ok((3, 317 + usize::from(u16::from_be_bytes([a, b])))),
            _ => Err(need(3)),
        },
        _ => match buf.get(1..9) {
            Some(s) => {
                let mut x = [0u8; 8];
                x.copy_from_slice(s);
                let len = u64::from_be_bytes(x)
                    .checked_add(65853)
                    .ok_or(Error::LenTooBig)?;
                Ok((9, usize::try_from(len).map_err(|_| Error::LenTooBig)?))
            }
            None => Err(need(9)),
        },
    }
}

/// Decodes a whole BIN/STR at the start of `buf`: its payload and the total
/// length. STR payloads are not validated here.
#[inline]
pub fn string_raw(buf: &[u8]) -> Result<(&[u8], usize), Error> {
    let (head, len) = string_header(buf)?;
    let total = head.checked_add(len).ok_or(Error::LenTooBig)?;
    match buf.get(head..total) {
        Some(payload) => Ok((payload, total)),
        None => Err(Error::NotEnough(total - buf.len())),
    }
}

/// Reads a big-endian magnitude of at most 8 bytes.
#[inline]
pub fn be_u64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}

/// Decodes +INT/-INT (tag at `buf[0]`) with its BIN body.
#[inline]
fn integer(buf: &[u8], negative: bool) -> Result<(Atom<'_>, usize), Error> {
    let body = buf.get(1..).unwrap_or(&[]);
    match body.first() {
        None => return Err(Error::NotEnough(1)),
        Some(&t) if t & 0xC0 != tag::BIN => return Err(Error::IntNonBin),
        Some(_) => {}
    }
    let (magnitude, used) = string_raw(body)?;
    if magnitude.first() == Some(&0) {
        return Err(Error::IntNonMinimal);
    }
    let atom = if magnitude.len() > 8 {
        Atom::BigInt {
            negative,
            magnitude,
        }
    } else {
        let v = be_u64(magnitude);
        match (negative, i64::try_from(v)) {
            (false, _) => Atom::Uint(v),
            (true, Ok(small)) => Atom::Nint(-1 - small),
            (true, Err(_)) => Atom::BigInt {
                negative,
                magnitude,
            },
        }
    };
    Ok((atom, 1 + used))
}

/// Decodes and fully validates one atom at the start of `buf`. Returns the
/// atom and the number of bytes it took. `Error::NotEnough(n)` means at
/// least `n` more bytes are needed; any other error is final.
pub fn decode(buf: &[u8]) -> Result<(Atom<'_>, usize), Error> {
    let Some(&t) = buf.first() else {
        return Err(Error::NotEnough(1));
    };
    if t >= tag::BIN {
        let (payload, used) = string_raw(buf)?;
        let atom = if t >= tag::STR {
            Atom::Str(utf8::validate_str(payload)?)
        } else {
            Atom::Bin(payload)
        };
        return Ok((atom, used));
    }
    match t {
        tag::EOC => Ok((Atom::Eoc, 1)),
        tag::NIL => Ok((Atom::Nil, 1)),
        tag::FALSE => Ok((Atom::Bool(false), 1)),
        tag::TRUE => Ok((Atom::Bool(true), 1)),
        tag::HEXLET => Ok((Atom::Hexlet(fixed::<16>(buf)?), 17)),
        tag::LIST => Ok((Atom::List, 1)),
        tag::MAP => Ok((Atom::Map, 1)),
        tag::BLOB => Ok((
            Atom::Blob {
                chunk_len_minus_one: u64::from_be_bytes(*fixed::<8>(buf)?),
            },
            9,
        )),
        tag::PINT => integer(buf, false),
        tag::NINT => integer(buf, true),
        tag::FLOAT16..=tag::FLOAT256 => {
            let width = 2usize << (t - tag::FLOAT16);
            let payload = after_tag(buf, width)?;
            float::check(payload)?;
            Ok((Atom::Float(payload), 1 + width))
        }
        tag::TAI64 => tai_atom(buf, 8),
        tag::TAI64N => tai_atom(buf, 12),
        tag::TAI64NA => tai_atom(buf, 16),
        tag::MAGIC => {
            let whole = fixed::<{ 3 + MAGIC_LEN }>(buf)?;
            let (eks, magic) = whole.split_at(3);
            if eks != b"EKS" {
                return Err(Error::BadMagic);
            }
            Ok((
                Atom::Magic(magic.try_into().map_err(|_| Error::Invalid)?),
                1 + 3 + MAGIC_LEN,
            ))
        }
        _ => Err(Error::UnknownType),
    }
}

/// The `width` bytes after the tag byte, or how many are missing.
#[inline]
fn after_tag(buf: &[u8], width: usize) -> Result<&[u8], Error> {
    buf.get(1..1 + width)
        .ok_or_else(|| Error::NotEnough((1 + width).saturating_sub(buf.len())))
}

fn tai_atom(buf: &[u8], width: usize) -> Result<(Atom<'_>, usize), Error> {
    let payload = after_tag(buf, width)?;
    tai64::check_label(payload)?;
    Ok((Atom::Tai64(payload), 1 + width))
}
