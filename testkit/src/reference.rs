//! An independent reference model of the YAC wire format (2024-11 revision),
//! written from the format's specification, FORMAT.md, alone (outside the
//! repository: `../shared/spec/FORMAT.md` from the workspace root, where
//! README.md links it). It deliberately shares no code with the `yac` crate
//! (it never calls `yac::`), favours obviousness over speed, and recurses
//! freely (bounded by [`MAX_DEPTH`]).
//!
//! It is part of the test kit (yac-testkit), used by the integration tests
//! of every package and by the fuzz targets; it must only use `std`.
//!
//! # Error reporting and where it may legitimately differ from libyac
//! A [`RefError`] is a [`Kind`] (one per failure class of the format, named as
//! `yac::Error`'s variants) plus the offset of the atom at fault. For a
//! structural error (bad key, unordered key, EOC as a value, bad BLOB chunk)
//! that is the offset of the offending atom; for an error inside an atom it is
//! the atom's first byte (for +INT/-INT, the INT tag, since the INT and its
//! BIN body form one atom).
//!
//! The order in which this model reports errors is one legitimate choice:
//! - An atom is decoded (and fully validated) before the structure looks at
//!   it: in a MAP key position, a STR key with bad UTF-8 gives `BadUtf8`, not
//!   `MapBadKey`; among BLOB chunks, a truncated STR gives `NotEnough`, not
//!   `BlobBadTerm`. A decoder that looks at the tag first may report the
//!   structural error instead.
//! - Within an atom: the whole fixed-size payload must be present before it
//!   is judged (a short MAGIC gives `NotEnough` even when "EKS" is already
//!   wrong; a STR payload must be complete before its UTF-8 is checked).
//!   +INT/-INT checks that the next tag is a BIN before anything else.
//!   TAI64: reserved label, then nanoseconds range, then attoseconds range,
//!   then the minimal-form rule.
//! - `NotEnough(n)` counts the bytes missing to complete what is known of the
//!   current atom: the header first (1, 2, 3 or 9 bytes for a string), then
//!   the payload. A decoder could legitimately ask for fewer at a time.
//! - `LenTooBig` is given only when an atom's total size (for a string
//!   header + 65853 + x, plus the tag for an integer's body) does not fit
//!   `usize`; a length that merely exceeds the input is `NotEnough`.
//! - `DeepRecursion` is this model's own limit ([`MAX_DEPTH`] containers
//!   open at once; BLOB does not count); the format sets none.

use std::fmt;

/// At most this many LIST/MAP may be open at once; opening one more is
/// `DeepRecursion` at the offset of its opening tag.
pub const MAX_DEPTH: usize = 64;

/// A whole value of the format.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// NIL.
    Nil,
    /// FALSE / TRUE.
    Bool(bool),
    /// 16 raw bytes.
    Hexlet([u8; 16]),
    /// +INT / -INT. `magnitude` is the wire magnitude, big-endian, without a
    /// leading zero byte; for a negative one the value is -1 - magnitude.
    Int { negative: bool, magnitude: Vec<u8> },
    /// LIST.
    List(Vec<Value>),
    /// MAP, keys in wire order (must be sorted length-first, then bytewise).
    Map(Vec<(String, Value)>),
    /// BLOB with chunk length `chunk_len_m1 + 1` (as on the wire) and its
    /// concatenated data.
    Blob { chunk_len_m1: u64, data: Vec<u8> },
    /// A float payload of 2, 4, 8, 16 or 32 bytes (the width picks the tag).
    Float(Vec<u8>),
    /// A TAI64 (8), TAI64N (12) or TAI64NA (16) label.
    Tai(Vec<u8>),
    /// The 12 bytes after "KEKS".
    Magic([u8; 12]),
    /// BIN.
    Bin(Vec<u8>),
    /// STR.
    Str(String),
}

/// One atom as the format's streaming view sees it: containers are their
/// opening tag, EOC is its own atom, a BLOB is its header followed by BIN
/// atoms, +INT/-INT is taken together with its BIN body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefAtom {
    Eoc,
    Nil,
    Bool(bool),
    Hexlet([u8; 16]),
    Int { negative: bool, magnitude: Vec<u8> },
    List,
    Map,
    Blob { chunk_len_m1: u64 },
    Float(Vec<u8>),
    Tai(Vec<u8>),
    Magic([u8; 12]),
    Bin(Vec<u8>),
    Str(String),
}

/// The failure classes of the format (names as in `yac::Error`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    NotEnough(usize),
    UnknownType,
    LenTooBig,
    BadUtf8,
    IntNonMinimal,
    IntNonBin,
    FloatNonMinimal,
    BlobBadChunk,
    BlobBadTerm,
    Tai64TooBig,
    Tai64BadNsec,
    Tai64BadAsec,
    Tai64NonMinimal,
    BadMagic,
    MapBadKey,
    MapNoVal,
    MapUnordered,
    UnexpectedEoc,
    DeepRecursion,
}

/// A failure: its class and the offset of the atom at fault.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RefError {
    pub kind: Kind,
    pub offset: usize,
}

impl fmt::Display for RefError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} at offset {}", self.kind, self.offset)
    }
}

// ---------------------------------------------------------------- encoder

/// Encodes a value. Panics on values the format cannot hold (a float or TAI
/// payload of the wrong width): those are generator bugs.
pub fn encode(v: &Value) -> Vec<u8> {
    let mut out = Vec::new();
    encode_into(v, &mut out);
    out
}

/// Appends a BIN (`is_str == false`) or STR item.
pub fn put_string(out: &mut Vec<u8>, is_str: bool, payload: &[u8]) {
    let base: u8 = if is_str { 0xC0 } else { 0x80 };
    let n = payload.len() as u64;
    if n <= 60 {
        out.push(base | n as u8);
    } else if n <= 316 {
        out.push(base | 61);
        out.push((n - 61) as u8);
    } else if n <= 65852 {
        out.push(base | 62);
        out.extend_from_slice(&((n - 317) as u16).to_be_bytes());
    } else {
        out.push(base | 63);
        out.extend_from_slice(&(n - 65853).to_be_bytes());
    }
    out.extend_from_slice(payload);
}

fn encode_into(v: &Value, out: &mut Vec<u8>) {
    match v {
        Value::Nil => out.push(0x01),
        Value::Bool(false) => out.push(0x02),
        Value::Bool(true) => out.push(0x03),
        Value::Hexlet(h) => {
            out.push(0x04);
            out.extend_from_slice(h);
        }
        Value::Int {
            negative,
            magnitude,
        } => {
            out.push(if *negative { 0x0D } else { 0x0C });
            put_string(out, false, magnitude);
        }
        Value::List(items) => {
            out.push(0x08);
            for i in items {
                encode_into(i, out);
            }
            out.push(0x00);
        }
        Value::Map(pairs) => {
            out.push(0x09);
            for (k, v) in pairs {
                put_string(out, true, k.as_bytes());
                encode_into(v, out);
            }
            out.push(0x00);
        }
        Value::Blob { chunk_len_m1, data } => {
            out.push(0x0B);
            out.extend_from_slice(&chunk_len_m1.to_be_bytes());
            let chunk = u128::from(*chunk_len_m1) + 1;
            let mut rest = &data[..];
            while rest.len() as u128 >= chunk {
                let (head, tail) = rest.split_at(chunk as usize);
                put_string(out, false, head);
                rest = tail;
            }
            put_string(out, false, rest);
        }
        Value::Float(p) => {
            let tag = match p.len() {
                2 => 0x10,
                4 => 0x11,
                8 => 0x12,
                16 => 0x13,
                32 => 0x14,
                n => panic!("float payload of {n} bytes"),
            };
            out.push(tag);
            out.extend_from_slice(p);
        }
        Value::Tai(p) => {
            let tag = match p.len() {
                8 => 0x18,
                12 => 0x19,
                16 => 0x1A,
                n => panic!("TAI payload of {n} bytes"),
            };
            out.push(tag);
            out.extend_from_slice(p);
        }
        Value::Magic(m) => {
            out.extend_from_slice(b"KEKS");
            out.extend_from_slice(m);
        }
        Value::Bin(b) => put_string(out, false, b),
        Value::Str(s) => put_string(out, true, s.as_bytes()),
    }
}

// ----------------------------------------------------------- atom decoder

/// The first `n` bytes of `input`, or how many are missing.
fn need(input: &[u8], n: usize) -> Result<&[u8], Kind> {
    if input.len() >= n {
        Ok(&input[..n])
    } else {
        Err(Kind::NotEnough(n - input.len()))
    }
}

fn be(bytes: &[u8]) -> u128 {
    let mut v: u128 = 0;
    for &b in bytes {
        v = v * 256 + u128::from(b);
    }
    v
}

/// A BIN or STR at the start of `input` (tag at `input[0]`): its payload and
/// total length. `before` bytes of the same atom precede it (1 for an
/// integer's body): the whole atom must fit `usize`.
fn string_item(input: &[u8], before: usize) -> Result<(&[u8], usize), Kind> {
    let l = input[0] & 0x3F;
    let (header, len): (usize, u128) = match l {
        0..=60 => (1, u128::from(l)),
        61 => (2, 61 + be(&need(input, 2)?[1..])),
        62 => (3, 317 + be(&need(input, 3)?[1..])),
        _ => (9, 65853 + be(&need(input, 9)?[1..])),
    };
    let total = header as u128 + len;
    if before as u128 + total > usize::MAX as u128 {
        return Err(Kind::LenTooBig);
    }
    let whole = need(input, total as usize)?;
    Ok((&whole[header..], total as usize))
}

/// RFC 3629 UTF-8 without NUL, checked by hand.
pub fn utf8_ok(b: &[u8]) -> bool {
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let (extra, min) = match c {
            0x00 => return false,
            0x01..=0x7F => {
                i += 1;
                continue;
            }
            _ if c & 0xE0 == 0xC0 => (1, 0x80),
            _ if c & 0xF0 == 0xE0 => (2, 0x800),
            _ if c & 0xF8 == 0xF0 => (3, 0x10000),
            _ => return false,
        };
        let mut cp = u32::from(c & (0x3F >> extra));
        for k in 1..=extra {
            match b.get(i + k) {
                Some(&d) if d & 0xC0 == 0x80 => cp = (cp << 6) | u32::from(d & 0x3F),
                _ => return false,
            }
        }
        if cp < min || cp > 0x10FFFF || (0xD800..=0xDFFF).contains(&cp) {
            return false;
        }
        i += 1 + extra;
    }
    true
}

/// (exponent bits, fraction bits) of binary16/32/64/128/256.
const FLOAT_LAYOUTS: [(u32, u32); 5] = [(5, 10), (8, 23), (11, 52), (15, 112), (19, 236)];

fn float_layout_index(width: usize) -> Option<usize> {
    [2, 4, 8, 16, 32].iter().position(|&w| w == width)
}

/// Whether a float payload follows the format's rules: not negative zero,
/// and no narrower IEEE width holds exactly the same value. Infinities and
/// NaNs count as held by a narrower width when widening (which keeps the
/// sign and shifts the NaN payload to the top of the fraction) gives the
/// same bits, i.e. when the fraction's low (own - narrower) bits are zero.
pub fn float_canonical(p: &[u8]) -> bool {
    let k = float_layout_index(p.len()).expect("float width");
    let (eb, fb) = FLOAT_LAYOUTS[k];
    let bits: Vec<bool> = p
        .iter()
        .flat_map(|&byte| (0..8).rev().map(move |i| (byte >> i) & 1 == 1))
        .collect();
    let sign = bits[0];
    let exp = bits[1..1 + eb as usize]
        .iter()
        .fold(0i64, |a, &b| a * 2 + i64::from(b));
    let frac = &bits[1 + eb as usize..];
    let frac_zero = frac.iter().all(|&b| !b);
    if exp == 0 && frac_zero {
        return !sign && k == 0;
    }
    if k == 0 {
        return true;
    }
    let (neb, nfb) = FLOAT_LAYOUTS[k - 1];
    let fits_narrower = if exp == (1i64 << eb) - 1 {
        frac[nfb as usize..].iter().all(|&b| !b)
    } else {
        // value = significand * 2^q, significand read from `sig` (MSB first).
        let bias = (1i64 << (eb - 1)) - 1;
        let mut sig = vec![exp != 0];
        sig.extend_from_slice(frac);
        let q = if exp == 0 { 1 - bias } else { exp - bias } - i64::from(fb);
        let first = sig.iter().position(|&b| b).expect("nonzero");
        let last = sig.iter().rposition(|&b| b).expect("nonzero");
        let top = q + (sig.len() - 1 - first) as i64; // exponent of the top 1
        let low = q + (sig.len() - 1 - last) as i64; // exponent of the lowest 1
        let nbias = (1i64 << (neb - 1)) - 1;
        let (emin, emax) = (1 - nbias, nbias);
        let precision = i64::from(nfb) + 1;
        let in_range = top <= emax && low >= emin - i64::from(nfb);
        let enough_bits = top < emin || top - low < precision;
        in_range && enough_bits
    };
    !fits_narrower
}

fn tai_check(p: &[u8]) -> Result<(), Kind> {
    let secs = be(&p[..8]);
    if secs >= 1 << 63 {
        return Err(Kind::Tai64TooBig);
    }
    let ns = if p.len() >= 12 { be(&p[8..12]) } else { 0 };
    if ns > 999_999_999 {
        return Err(Kind::Tai64BadNsec);
    }
    if p.len() == 16 {
        let atto = be(&p[12..16]);
        if atto > 999_999_999 {
            return Err(Kind::Tai64BadAsec);
        }
        if atto == 0 {
            return Err(Kind::Tai64NonMinimal);
        }
    }
    if p.len() == 12 && ns == 0 {
        return Err(Kind::Tai64NonMinimal);
    }
    Ok(())
}

/// Decodes and validates one atom at the start of `input`.
pub fn decode_atom(input: &[u8]) -> Result<(RefAtom, usize), Kind> {
    let tag = *input.first().ok_or(Kind::NotEnough(1))?;
    Ok(match tag {
        0x00 => (RefAtom::Eoc, 1),
        0x01 => (RefAtom::Nil, 1),
        0x02 => (RefAtom::Bool(false), 1),
        0x03 => (RefAtom::Bool(true), 1),
        0x04 => {
            let b = need(input, 17)?;
            (RefAtom::Hexlet(b[1..].try_into().unwrap()), 17)
        }
        0x08 => (RefAtom::List, 1),
        0x09 => (RefAtom::Map, 1),
        0x0B => {
            let b = need(input, 9)?;
            let m1 = be(&b[1..]) as u64;
            (RefAtom::Blob { chunk_len_m1: m1 }, 9)
        }
        0x0C | 0x0D => {
            let body = &input[1..];
            match body.first() {
                None => return Err(Kind::NotEnough(1)),
                Some(0x80..=0xBF) => {}
                Some(_) => return Err(Kind::IntNonBin),
            }
            let (magnitude, used) = string_item(body, 1)?;
            if magnitude.first() == Some(&0) {
                return Err(Kind::IntNonMinimal);
            }
            let atom = RefAtom::Int {
                negative: tag == 0x0D,
                magnitude: magnitude.to_vec(),
            };
            (atom, 1 + used)
        }
        0x10..=0x14 => {
            let width = [2, 4, 8, 16, 32][usize::from(tag - 0x10)];
            let p = &need(input, 1 + width)?[1..];
            if !float_canonical(p) {
                return Err(Kind::FloatNonMinimal);
            }
            (RefAtom::Float(p.to_vec()), 1 + width)
        }
        0x18..=0x1A => {
            let width = [8, 12, 16][usize::from(tag - 0x18)];
            let p = &need(input, 1 + width)?[1..];
            tai_check(p)?;
            (RefAtom::Tai(p.to_vec()), 1 + width)
        }
        0x4B => {
            let b = need(input, 16)?;
            if &b[1..4] != b"EKS" {
                return Err(Kind::BadMagic);
            }
            (RefAtom::Magic(b[4..].try_into().unwrap()), 16)
        }
        0x80..=0xBF => {
            let (p, used) = string_item(input, 0)?;
            (RefAtom::Bin(p.to_vec()), used)
        }
        0xC0..=0xFF => {
            let (p, used) = string_item(input, 0)?;
            if !utf8_ok(p) {
                return Err(Kind::BadUtf8);
            }
            let s = String::from_utf8(p.to_vec()).expect("checked above");
            (RefAtom::Str(s), used)
        }
        _ => return Err(Kind::UnknownType),
    })
}

// ------------------------------------------------------- document decoder

/// Whether MAP key `a` sorts strictly before `b`: length first, then bytes.
pub fn key_less(a: &[u8], b: &[u8]) -> bool {
    (a.len(), a) < (b.len(), b)
}

/// The result of decoding one document: the atoms accepted, in order, with
/// their offsets (the failing atom, if any, is not among them), and the
/// outcome: the value and the bytes it took, or the error.
#[derive(Debug)]
pub struct Traced {
    pub atoms: Vec<(usize, RefAtom)>,
    pub result: Result<(Value, usize), RefError>,
}

struct Parser<'a> {
    buf: &'a [u8],
    pos: usize,
    atoms: Vec<(usize, RefAtom)>,
}

impl Parser<'_> {
    fn atom(&mut self) -> Result<(usize, RefAtom), RefError> {
        let at = self.pos;
        let (atom, used) =
            decode_atom(&self.buf[at..]).map_err(|kind| RefError { kind, offset: at })?;
        self.pos += used;
        self.atoms.push((at, atom.clone()));
        Ok((at, atom))
    }

    fn value(&mut self, at: usize, atom: RefAtom, depth: usize) -> Result<Value, RefError> {
        let fail = |kind, offset| Err(RefError { kind, offset });
        Ok(match atom {
            RefAtom::Eoc => return fail(Kind::UnexpectedEoc, at),
            RefAtom::Nil => Value::Nil,
            RefAtom::Bool(b) => Value::Bool(b),
            RefAtom::Hexlet(h) => Value::Hexlet(h),
            RefAtom::Int {
                negative,
                magnitude,
            } => Value::Int {
                negative,
                magnitude,
            },
            RefAtom::Float(p) => Value::Float(p),
            RefAtom::Tai(p) => Value::Tai(p),
            RefAtom::Magic(m) => Value::Magic(m),
            RefAtom::Bin(b) => Value::Bin(b),
            RefAtom::Str(s) => Value::Str(s),
            RefAtom::List => {
                if depth >= MAX_DEPTH {
                    return fail(Kind::DeepRecursion, at);
                }
                let mut items = Vec::new();
                loop {
                    let (iat, item) = self.atom()?;
                    if item == RefAtom::Eoc {
                        break;
                    }
                    items.push(self.value(iat, item, depth + 1)?);
                }
                Value::List(items)
            }
            RefAtom::Map => {
                if depth >= MAX_DEPTH {
                    return fail(Kind::DeepRecursion, at);
                }
                let mut pairs: Vec<(String, Value)> = Vec::new();
                loop {
                    let (kat, key) = self.atom()?;
                    let key = match key {
                        RefAtom::Eoc => break,
                        RefAtom::Str(s) if !s.is_empty() => s,
                        _ => return fail(Kind::MapBadKey, kat),
                    };
                    if let Some((prev, _)) = pairs.last() {
                        if !key_less(prev.as_bytes(), key.as_bytes()) {
                            return fail(Kind::MapUnordered, kat);
                        }
                    }
                    let (vat, val) = self.atom()?;
                    if val == RefAtom::Eoc {
                        return fail(Kind::MapNoVal, vat);
                    }
                    let val = self.value(vat, val, depth + 1)?;
                    pairs.push((key, val));
                }
                Value::Map(pairs)
            }
            RefAtom::Blob { chunk_len_m1 } => {
                let chunk = u128::from(chunk_len_m1) + 1;
                let mut data = Vec::new();
                loop {
                    let (cat, c) = self.atom()?;
                    let RefAtom::Bin(b) = c else {
                        return fail(Kind::BlobBadTerm, cat);
                    };
                    let n = b.len() as u128;
                    if n > chunk {
                        return fail(Kind::BlobBadChunk, cat);
                    }
                    data.extend_from_slice(&b);
                    if n < chunk {
                        break;
                    }
                }
                Value::Blob { chunk_len_m1, data }
            }
        })
    }
}

/// Decodes the one document (item) at the start of `buf`, recording atoms.
/// Bytes after the document are not looked at.
pub fn decode_traced(buf: &[u8]) -> Traced {
    let mut p = Parser {
        buf,
        pos: 0,
        atoms: Vec::new(),
    };
    let result = match p.atom() {
        Ok((at, atom)) => p.value(at, atom, 0).map(|v| (v, p.pos)),
        Err(e) => Err(e),
    };
    Traced {
        atoms: p.atoms,
        result,
    }
}

/// Decodes the one document at the start of `buf`: the value and its length.
pub fn decode(buf: &[u8]) -> Result<(Value, usize), RefError> {
    decode_traced(buf).result
}
