//! The conformance vectors of FORMAT.md as data, shared by every test that
//! needs them (`yac/tests/vectors.rs` checks the Rust decoder, `tests/c_api.rs`
//! turns them into a C header for `c-tests/test_atoms.c`; an encoder test
//! re-encodes [`VALID`] atom by atom and compares with the bytes).
//!
//! Bytes are written as in the spec: hex, spaces ignored; a token `41*64`
//! means the byte 41 repeated 64 times.
//!
//! Each test crate uses only part of this module.
#![allow(dead_code)]

use std::ops::Range;

use yac::{Atom, Error};

/// A valid input: its bytes and the atom sequence it decodes to.
pub struct Valid {
    /// What the spec calls it.
    pub name: &'static str,
    /// The encoding, in the hex notation above.
    pub hex: &'static str,
    /// The atoms, in order.
    pub atoms: &'static [Atom<'static>],
}

/// An invalid input and the specific error it must give.
pub struct Invalid {
    /// What is wrong with it.
    pub name: &'static str,
    /// The encoding, in the hex notation above.
    pub hex: &'static str,
    /// The error.
    pub err: Error,
}

/// The bytes of `N` hex digit pairs (spaces ignored), at compile time.
pub const fn h<const N: usize>(s: &str) -> [u8; N] {
    let s = s.as_bytes();
    let mut out = [0u8; N];
    let (mut i, mut n, mut half) = (0, 0, 0u8);
    let mut high = true;
    while i < s.len() {
        let c = s[i];
        i += 1;
        let v = match c {
            b'0'..=b'9' => c - b'0',
            b'a'..=b'f' => c - b'a' + 10,
            b'A'..=b'F' => c - b'A' + 10,
            b' ' => continue,
            _ => panic!("not a hex digit"),
        };
        if high {
            half = v << 4;
        } else {
            assert!(n < N, "more bytes than the array holds");
            out[n] = half | v;
            n += 1;
        }
        high = !high;
    }
    assert!(n == N && high, "fewer bytes than the array holds");
    out
}

/// The bytes of a vector written in the hex notation above.
pub fn bytes(hex: &str) -> Vec<u8> {
    let mut out = Vec::new();
    for token in hex.split_whitespace() {
        let (digits, times) = match token.split_once('*') {
            Some((d, t)) => (d, t.parse::<usize>().expect("repeat count")),
            None => (token, 1),
        };
        assert!(digits.len() % 2 == 0, "odd hex token {token:?}");
        let once: Vec<u8> = (0..digits.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&digits[i..i + 2], 16).expect("hex"))
            .collect();
        for _ in 0..times {
            out.extend_from_slice(&once);
        }
    }
    out
}

/// Encodes `atoms` one after another with `encode` (the signature of
/// `yac::enc::encode`) into a buffer of exactly `len` bytes, so an encoder
/// that asks for more room than it writes fails too. The encoder test is:
///
/// ```ignore
/// for v in VALID {
///     let want = bytes(v.hex);
///     assert_eq!(reencode(v.atoms, want.len(), yac::enc::encode), Ok(want), "{}", v.name);
/// }
/// ```
pub fn reencode(
    atoms: &[Atom<'_>],
    len: usize,
    encode: impl Fn(&Atom<'_>, &mut [u8]) -> Result<usize, Error>,
) -> Result<Vec<u8>, Error> {
    let mut out = vec![0u8; len];
    let mut off = 0;
    for atom in atoms {
        let rest = out.get_mut(off..).ok_or(Error::NoMem)?;
        off += encode(atom, rest)?;
    }
    out.truncate(off);
    Ok(out)
}

/// One atom of a decoded stream and where it lies in the input.
pub type Spanned<'a> = (Atom<'a>, Range<usize>);

/// Decodes `buf` atom by atom to its end. Returns every atom with its byte
/// range, and the error that stopped the walk (with its offset), if any.
pub fn walk(buf: &[u8]) -> (Vec<Spanned<'_>>, Option<(Error, usize)>) {
    let mut atoms = Vec::new();
    let mut off = 0;
    while off < buf.len() {
        match yac::atom::decode(&buf[off..]) {
            Ok((atom, used)) => {
                assert!(used >= 1, "an atom takes at least its tag byte");
                atoms.push((atom, off..off + used));
                off += used;
            }
            Err(e) => return (atoms, Some((e, off))),
        }
    }
    (atoms, None)
}

const A64: [u8; 64] = [b'A'; 64];

/// Every valid vector of FORMAT.md (published and derived), then the
/// boundaries of each length form, integer width and float and TAI64 rule.
#[rustfmt::skip]
pub static VALID: &[Valid] = &[
    // Published vectors, in the spec's order.
    Valid { name: "NIL", hex: "01", atoms: &[Atom::Nil] },
    Valid { name: "FALSE", hex: "02", atoms: &[Atom::Bool(false)] },
    Valid { name: "TRUE", hex: "03", atoms: &[Atom::Bool(true)] },
    Valid {
        name: "HEXLET 0e875e3f-d385-49eb-87b4-be42d641c367",
        hex: "04 0E875E3FD38549EB87B4BE42D641C367",
        atoms: &[Atom::Hexlet(&h("0E875E3F D385 49EB 87B4 BE42D641C367"))],
    },
    Valid {
        name: "HEXLET 2001:db8::1234",
        hex: "04 20010DB8000000000000000000001234",
        atoms: &[Atom::Hexlet(&h("2001 0DB8 0000 0000 0000 0000 0000 1234"))],
    },
    Valid { name: "BIN empty", hex: "80", atoms: &[Atom::Bin(b"")] },
    Valid { name: "BIN 01 02 03 04", hex: "84 01020304", atoms: &[Atom::Bin(&[1, 2, 3, 4])] },
    Valid { name: "BIN 64 x 'A'", hex: "BD 03 41*64", atoms: &[Atom::Bin(&A64)] },
    Valid {
        name: "STR \"hello world\"",
        hex: "CB 68656C6C6F20776F726C64",
        atoms: &[Atom::Str("hello world")],
    },
    Valid {
        name: "STR \"привет мир\"",
        hex: "D3 D0BFD180D0B8D0B2D0B5D182 20 D0BCD0B8D180",
        atoms: &[Atom::Str("привет мир")],
    },
    Valid { name: "0", hex: "0C 80", atoms: &[Atom::Uint(0)] },
    Valid { name: "1", hex: "0C 81 01", atoms: &[Atom::Uint(1)] },
    Valid { name: "10", hex: "0C 81 0A", atoms: &[Atom::Uint(10)] },
    Valid { name: "100", hex: "0C 81 64", atoms: &[Atom::Uint(100)] },
    Valid { name: "65536", hex: "0C 83 010000", atoms: &[Atom::Uint(65536)] },
    Valid {
        name: "1000000000000",
        hex: "0C 85 E8D4A51000",
        atoms: &[Atom::Uint(1_000_000_000_000)],
    },
    Valid { name: "2^64 - 1", hex: "0C 88 FFFFFFFFFFFFFFFF", atoms: &[Atom::Uint(u64::MAX)] },
    Valid {
        name: "2^64",
        hex: "0C 89 010000000000000000",
        atoms: &[Atom::BigInt { negative: false, magnitude: &h::<9>("01 0000000000000000") }],
    },
    Valid { name: "-1", hex: "0D 80", atoms: &[Atom::Nint(-1)] },
    Valid { name: "-10", hex: "0D 81 09", atoms: &[Atom::Nint(-10)] },
    Valid { name: "-100", hex: "0D 81 63", atoms: &[Atom::Nint(-100)] },
    Valid { name: "-65536", hex: "0D 82 FFFF", atoms: &[Atom::Nint(-65536)] },
    Valid {
        name: "-2^64",
        hex: "0D 88 FFFFFFFFFFFFFFFF",
        atoms: &[Atom::BigInt { negative: true, magnitude: &[0xFF; 8] }],
    },
    Valid {
        name: "-2^64 - 1",
        hex: "0D 89 010000000000000000",
        atoms: &[Atom::BigInt { negative: true, magnitude: &h::<9>("01 0000000000000000") }],
    },
    Valid {
        name: "1970-01-01 00:00:00 TAI",
        hex: "18 4000000000000000",
        atoms: &[Atom::Tai64(&h::<8>("4000000000000000"))],
    },
    Valid {
        name: "1970-01-01 00:00:00 UTC",
        hex: "18 400000000000000A",
        atoms: &[Atom::Tai64(&h::<8>("400000000000000A"))],
    },
    Valid {
        name: "1969-12-31 23:59:59 TAI",
        hex: "18 3FFFFFFFFFFFFFFF",
        atoms: &[Atom::Tai64(&h::<8>("3FFFFFFFFFFFFFFF"))],
    },
    Valid {
        name: "1992-06-02 08:06:43 UTC",
        hex: "18 400000002A2B2C2D",
        atoms: &[Atom::Tai64(&h::<8>("400000002A2B2C2D"))],
    },
    Valid {
        name: "1997-10-03 18:14:48 UTC",
        hex: "18 4000000034353637",
        atoms: &[Atom::Tai64(&h::<8>("4000000034353637"))],
    },
    Valid {
        name: "2016-12-31 23:59:59 UTC",
        hex: "18 40000000586846A3",
        atoms: &[Atom::Tai64(&h::<8>("40000000586846A3"))],
    },
    Valid {
        name: "2017-01-01 00:00:00 UTC",
        hex: "18 40000000586846A5",
        atoms: &[Atom::Tai64(&h::<8>("40000000586846A5"))],
    },
    Valid {
        name: "2024-11-20 12:19:08.921772500 UTC",
        hex: "19 40000000673DD3E1 36F121D4",
        atoms: &[Atom::Tai64(&h::<12>("40000000673DD3E1 36F121D4"))],
    },
    Valid {
        name: "MAGIC \"cm/pub\"",
        hex: "4B 454B53 636D2F707562 000000000000",
        atoms: &[Atom::Magic(b"cm/pub\0\0\0\0\0\0")],
    },
    Valid {
        name: "MAGIC \"cm/signed\"",
        hex: "4B 454B53 636D2F7369676E6564 000000",
        atoms: &[Atom::Magic(b"cm/signed\0\0\0")],
    },
    Valid {
        name: "MAGIC \"cm/encrypted\"",
        hex: "4B 454B53 636D2F656E63727970746564",
        atoms: &[Atom::Magic(b"cm/encrypted")],
    },
    Valid { name: "LIST []", hex: "08 00", atoms: &[Atom::List, Atom::Eoc] },
    Valid {
        name: "LIST [123, FALSE]",
        hex: "08 0C817B 02 00",
        atoms: &[Atom::List, Atom::Uint(123), Atom::Bool(false), Atom::Eoc],
    },
    Valid {
        name: "MAP {foo: [\"bar\"]}",
        hex: "09 C3666F6F 08 C3626172 00 00",
        atoms: &[Atom::Map, Atom::Str("foo"), Atom::List, Atom::Str("bar"), Atom::Eoc, Atom::Eoc],
    },
    Valid {
        name: "SET {dh, sig}",
        hex: "09 C26468 01 C3736967 01 00",
        atoms: &[Atom::Map, Atom::Str("dh"), Atom::Nil, Atom::Str("sig"), Atom::Nil, Atom::Eoc],
    },
    Valid {
        name: "BLOB chunk 5, \"\"",
        hex: "0B 0000000000000004 80",
        atoms: &[Atom::Blob { chunk_len_minus_one: 4 }, Atom::Bin(b"")],
    },
    Valid {
        name: "BLOB chunk 5, \"12345\"",
        hex: "0B 0000000000000004 85 3132333435 80",
        atoms: &[Atom::Blob { chunk_len_minus_one: 4 }, Atom::Bin(b"12345"), Atom::Bin(b"")],
    },
    Valid {
        name: "BLOB chunk 5, \"123456\"",
        hex: "0B 0000000000000004 85 3132333435 81 36",
        atoms: &[Atom::Blob { chunk_len_minus_one: 4 }, Atom::Bin(b"12345"), Atom::Bin(b"6")],
    },
    Valid {
        name: "BLOB chunk 500, \"123\"",
        hex: "0B 00000000000001F3 83 313233",
        atoms: &[Atom::Blob { chunk_len_minus_one: 499 }, Atom::Bin(b"123")],
    },
    Valid {
        name: "BLOB chunk 2, \"12345\"",
        hex: "0B 0000000000000001 82 3132 82 3334 81 35",
        atoms: &[
            Atom::Blob { chunk_len_minus_one: 1 },
            Atom::Bin(b"12"),
            Atom::Bin(b"34"),
            Atom::Bin(b"5"),
        ],
    },
    // Derived boundaries of the spec.
    Valid { name: "BIN of 60 bytes", hex: "BC 41*60", atoms: &[Atom::Bin(&[b'A'; 60])] },
    Valid { name: "BIN of 61 bytes", hex: "BD 00 41*61", atoms: &[Atom::Bin(&[b'A'; 61])] },
    Valid { name: "BIN of 316 bytes", hex: "BD FF 41*316", atoms: &[Atom::Bin(&[b'A'; 316])] },
    Valid { name: "BIN of 317 bytes", hex: "BE 0000 41*317", atoms: &[Atom::Bin(&[b'A'; 317])] },
    Valid {
        name: "BIN of 65852 bytes",
        hex: "BE FFFF 41*65852",
        atoms: &[Atom::Bin(&[b'A'; 65852])],
    },
    Valid {
        name: "BIN of 65853 bytes",
        hex: "BF 0000000000000000 41*65853",
        atoms: &[Atom::Bin(&[b'A'; 65853])],
    },
    Valid { name: "255", hex: "0C 81 FF", atoms: &[Atom::Uint(255)] },
    Valid { name: "256", hex: "0C 82 0100", atoms: &[Atom::Uint(256)] },
    Valid { name: "-2", hex: "0D 81 01", atoms: &[Atom::Nint(-2)] },
    Valid { name: "-256", hex: "0D 81 FF", atoms: &[Atom::Nint(-256)] },
    Valid { name: "-257", hex: "0D 82 0100", atoms: &[Atom::Nint(-257)] },
    // The same length forms for STR (the tag's U bit set).
    Valid { name: "STR empty", hex: "C0", atoms: &[Atom::Str("")] },
    Valid { name: "STR of 60 bytes", hex: "FC 61*60", atoms: &[Atom::Str(A60)] },
    Valid { name: "STR of 61 bytes", hex: "FD 00 61*61", atoms: &[Atom::Str(A61)] },
    Valid { name: "STR of 317 bytes", hex: "FE 0000 61*317", atoms: &[Atom::Str(A317)] },
    Valid {
        name: "STR of 65853 bytes",
        hex: "FF 0000000000000000 61*65853",
        atoms: &[Atom::Str(A65853)],
    },
    Valid { name: "STR U+10FFFF", hex: "C4 F48FBFBF", atoms: &[Atom::Str("\u{10FFFF}")] },
    // Integer widths: where u64/i64 end and bigints begin.
    Valid { name: "2^63 - 1", hex: "0C 88 7FFFFFFFFFFFFFFF", atoms: &[Atom::Uint(i64::MAX as u64)] },
    Valid { name: "2^63", hex: "0C 88 8000000000000000", atoms: &[Atom::Uint(1 << 63)] },
    Valid { name: "-2^63", hex: "0D 88 7FFFFFFFFFFFFFFF", atoms: &[Atom::Nint(i64::MIN)] },
    Valid {
        name: "-2^63 - 1",
        hex: "0D 88 8000000000000000",
        atoms: &[Atom::BigInt { negative: true, magnitude: &h::<8>("8000000000000000") }],
    },
    Valid {
        name: "2^488 (a 62-byte magnitude, long length form)",
        hex: "0C BD 01 01 00*61",
        atoms: &[Atom::BigInt { negative: false, magnitude: &BIG62 }],
    },
    // Floats: the shortest width that holds the value exactly.
    Valid { name: "FLOAT16 +0", hex: "10 0000", atoms: &[Atom::Float(&h::<2>("0000"))] },
    Valid { name: "FLOAT16 1.0", hex: "10 3C00", atoms: &[Atom::Float(&h::<2>("3C00"))] },
    Valid { name: "FLOAT16 -2.0", hex: "10 C000", atoms: &[Atom::Float(&h::<2>("C000"))] },
    Valid { name: "FLOAT16 65504 (max)", hex: "10 7BFF", atoms: &[Atom::Float(&h::<2>("7BFF"))] },
    Valid { name: "FLOAT16 2^-24 (min subnormal)", hex: "10 0001", atoms: &[Atom::Float(&h::<2>("0001"))] },
    Valid { name: "FLOAT16 +inf", hex: "10 7C00", atoms: &[Atom::Float(&h::<2>("7C00"))] },
    Valid { name: "FLOAT16 -inf", hex: "10 FC00", atoms: &[Atom::Float(&h::<2>("FC00"))] },
    Valid { name: "FLOAT16 quiet NaN", hex: "10 7E00", atoms: &[Atom::Float(&h::<2>("7E00"))] },
    Valid { name: "FLOAT16 NaN payload 1", hex: "10 7C01", atoms: &[Atom::Float(&h::<2>("7C01"))] },
    Valid { name: "FLOAT32 0.1", hex: "11 3DCCCCCD", atoms: &[Atom::Float(&h::<4>("3DCCCCCD"))] },
    Valid { name: "FLOAT32 65536", hex: "11 47800000", atoms: &[Atom::Float(&h::<4>("47800000"))] },
    Valid { name: "FLOAT32 1 + 2^-11", hex: "11 3F801000", atoms: &[Atom::Float(&h::<4>("3F801000"))] },
    Valid { name: "FLOAT32 2^-25", hex: "11 33000000", atoms: &[Atom::Float(&h::<4>("33000000"))] },
    Valid { name: "FLOAT32 2^-149 (min subnormal)", hex: "11 00000001", atoms: &[Atom::Float(&h::<4>("00000001"))] },
    Valid { name: "FLOAT32 NaN, payload beyond binary16", hex: "11 7FC00001", atoms: &[Atom::Float(&h::<4>("7FC00001"))] },
    Valid { name: "FLOAT64 0.1", hex: "12 3FB999999999999A", atoms: &[Atom::Float(&h::<8>("3FB999999999999A"))] },
    Valid { name: "FLOAT64 2^-1074 (min subnormal)", hex: "12 0000000000000001", atoms: &[Atom::Float(&h::<8>("0000000000000001"))] },
    Valid { name: "FLOAT64 NaN, payload beyond binary32", hex: "12 7FF8000000000001", atoms: &[Atom::Float(&h::<8>("7FF8000000000001"))] },
    Valid { name: "FLOAT128 1 + 2^-112", hex: "13 3FFF 00*13 01", atoms: &[Atom::Float(&F128_ONE_PLUS)] },
    Valid { name: "FLOAT128 2^1024", hex: "13 43FF 00*14", atoms: &[Atom::Float(&h::<16>("43FF 0000000000000000000000000000"))] },
    Valid { name: "FLOAT128 2^-1075", hex: "13 3BCC 00*14", atoms: &[Atom::Float(&h::<16>("3BCC 0000000000000000000000000000"))] },
    Valid { name: "FLOAT256 1 + 2^-236", hex: "14 3FFFF0 00*28 01", atoms: &[Atom::Float(&F256_ONE_PLUS)] },
    Valid { name: "FLOAT256 2^16384", hex: "14 43FFF0 00*29", atoms: &[Atom::Float(&F256_2P16384)] },
    // TAI64 rules.
    Valid { name: "TAI64 2^63 - 1 (last label)", hex: "18 7FFFFFFFFFFFFFFF", atoms: &[Atom::Tai64(&h::<8>("7FFFFFFFFFFFFFFF"))] },
    Valid { name: "TAI64N 1 ns", hex: "19 4000000000000000 00000001", atoms: &[Atom::Tai64(&h::<12>("4000000000000000 00000001"))] },
    Valid { name: "TAI64N 999999999 ns", hex: "19 4000000000000000 3B9AC9FF", atoms: &[Atom::Tai64(&h::<12>("4000000000000000 3B9AC9FF"))] },
    Valid { name: "TAI64NA 0 ns 1 as", hex: "1A 4000000000000000 00000000 00000001", atoms: &[Atom::Tai64(&h::<16>("4000000000000000 00000000 00000001"))] },
    Valid { name: "TAI64NA max ns and as", hex: "1A 4000000000000000 3B9AC9FF 3B9AC9FF", atoms: &[Atom::Tai64(&h::<16>("4000000000000000 3B9AC9FF 3B9AC9FF"))] },
    // Containers beyond the published ones.
    Valid {
        name: "MAP keys: length first, then bytewise ({b, aa, ab})",
        hex: "09 C162 01 C26161 01 C26162 01 00",
        atoms: &[Atom::Map, Atom::Str("b"), Atom::Nil, Atom::Str("aa"), Atom::Nil, Atom::Str("ab"), Atom::Nil, Atom::Eoc],
    },
    Valid {
        name: "LIST [LIST [], MAP {}]",
        hex: "08 08 00 09 00 00",
        atoms: &[Atom::List, Atom::List, Atom::Eoc, Atom::Map, Atom::Eoc, Atom::Eoc],
    },
    Valid {
        name: "BLOB chunk 2^64, \"\"",
        hex: "0B FFFFFFFFFFFFFFFF 80",
        atoms: &[Atom::Blob { chunk_len_minus_one: u64::MAX }, Atom::Bin(b"")],
    },
];

const A60: &str = ascii(&[b'a'; 60]);
const A61: &str = ascii(&[b'a'; 61]);
const A317: &str = ascii(&[b'a'; 317]);
const A65853: &str = ascii(&[b'a'; 65853]);

/// A `&str` of ASCII bytes in a constant (`str::from_utf8` is not `const`
/// on the crate's minimum Rust version).
const fn ascii(bytes: &'static [u8]) -> &'static str {
    let mut i = 0;
    while i < bytes.len() {
        assert!(bytes[i].is_ascii(), "ASCII only");
        i += 1;
    }
    // SAFETY: every byte was just checked to be ASCII, hence valid UTF-8.
    unsafe { core::str::from_utf8_unchecked(bytes) }
}
const BIG62: [u8; 62] = {
    let mut m = [0u8; 62];
    m[0] = 1;
    m
};
const F128_ONE_PLUS: [u8; 16] = h("3FFF 0000000000000000000000000001");
const F256_ONE_PLUS: [u8; 32] = {
    let mut f = [0u8; 32];
    (f[0], f[1], f[2], f[31]) = (0x3F, 0xFF, 0xF0, 0x01);
    f
};
const F256_2P16384: [u8; 32] = {
    let mut f = [0u8; 32];
    (f[0], f[1], f[2]) = (0x43, 0xFF, 0xF0);
    f
};

/// "long length beyond the input": the decoder asks for 2^32 + 65852 more
/// bytes; where `usize` cannot hold that (32-bit targets) the length is
/// refused as LenTooBig.
const LONG_BEYOND: Error = if usize::BITS > 32 {
    Error::NotEnough((0xFFFF_FFFF_u64 + 65853) as usize)
} else {
    Error::LenTooBig
};

/// Inputs the atom decoder itself must reject, each with its error. A
/// NotEnough(n) here means the input is a valid prefix that ends early.
#[rustfmt::skip]
pub static INVALID_ATOM: &[Invalid] = &[
    // Derived invalid inputs of the spec that one atom already shows.
    Invalid { name: "INT with a leading zero", hex: "0C 82 0001", err: Error::IntNonMinimal },
    Invalid { name: "INT of a STR", hex: "0C C1 01", err: Error::IntNonBin },
    Invalid { name: "STR with NUL", hex: "C1 00", err: Error::BadUtf8 },
    Invalid { name: "TAI64N with zero ns", hex: "19 4000000000000000 00000000", err: Error::Tai64NonMinimal },
    Invalid { name: "TAI64N ns = 10^9", hex: "19 4000000000000000 3B9ACA00", err: Error::Tai64BadNsec },
    Invalid { name: "TAI64 reserved label", hex: "18 8000000000000000", err: Error::Tai64TooBig },
    Invalid { name: "length overflow", hex: "BF FFFFFFFFFFFFFFFF", err: Error::LenTooBig },
    Invalid { name: "unknown tag", hex: "05", err: Error::UnknownType },
    Invalid { name: "STR overlong NUL", hex: "C2 C080", err: Error::BadUtf8 },
    Invalid { name: "STR surrogate", hex: "C3 EDA080", err: Error::BadUtf8 },
    // Integers.
    Invalid { name: "-INT with a leading zero", hex: "0D 82 0001", err: Error::IntNonMinimal },
    Invalid { name: "zero as a one-byte magnitude", hex: "0C 81 00", err: Error::IntNonMinimal },
    Invalid { name: "bigint with a leading zero", hex: "0C 89 00 FFFFFFFFFFFFFFFF", err: Error::IntNonMinimal },
    Invalid { name: "INT of an INT", hex: "0C 0C 80", err: Error::IntNonBin },
    Invalid { name: "INT of NIL", hex: "0C 01", err: Error::IntNonBin },
    Invalid { name: "-INT of EOC", hex: "0D 00", err: Error::IntNonBin },
    Invalid { name: "INT of an overflowing length", hex: "0C BF FFFFFFFFFFFFFFFF", err: Error::LenTooBig },
    Invalid { name: "INT alone", hex: "0C", err: Error::NotEnough(1) },
    // Strings: UTF-8 classes and length fields.
    Invalid { name: "STR above U+10FFFF", hex: "C4 F4908080", err: Error::BadUtf8 },
    Invalid { name: "STR lone continuation byte", hex: "C1 80", err: Error::BadUtf8 },
    Invalid { name: "STR byte FF", hex: "C1 FF", err: Error::BadUtf8 },
    Invalid { name: "STR truncated sequence", hex: "C2 E282", err: Error::BadUtf8 },
    Invalid { name: "STR overlong 3-byte", hex: "C3 E08080", err: Error::BadUtf8 },
    Invalid { name: "STR with NUL after ASCII", hex: "C4 61626300", err: Error::BadUtf8 },
    Invalid { name: "STR length overflow", hex: "FF FFFFFFFFFFFFFFFF", err: Error::LenTooBig },
    Invalid { name: "length 2^64 - 1: header + length overflows", hex: "BF FFFFFFFFFFFEFEC2", err: Error::LenTooBig },
    Invalid { name: "length just overflowing 64 bits", hex: "BF FFFFFFFFFFFEFEC3", err: Error::LenTooBig },
    Invalid { name: "long length beyond the input", hex: "BF 00000000FFFFFFFF", err: LONG_BEYOND },
    // Floats.
    Invalid { name: "FLOAT16 -0", hex: "10 8000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT32 +0", hex: "11 00000000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT32 -0", hex: "11 80000000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT64 +0", hex: "12 0000000000000000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT128 +0", hex: "13 00*16", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT256 -0", hex: "14 80 00*31", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT32 1.0", hex: "11 3F800000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT64 1.0", hex: "12 3FF0000000000000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT128 1.0", hex: "13 3FFF 00*14", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT256 1.0", hex: "14 3FFFF0 00*29", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT32 +inf", hex: "11 7F800000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT64 -inf", hex: "12 FFF0000000000000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT128 +inf", hex: "13 7FFF 00*14", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT256 +inf", hex: "14 7FFFF0 00*29", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT32 quiet NaN", hex: "11 7FC00000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT64 NaN whose payload binary32 holds", hex: "12 7FF8000020000000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT32 65504", hex: "11 477FE000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT32 2^-24", hex: "11 33800000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT32 1 + 2^-10", hex: "11 3F802000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT64 2^-149", hex: "12 36A0000000000000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT64 0.5", hex: "12 3FE0000000000000", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT128 2^1023", hex: "13 43FE 00*14", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT128 2^-1074", hex: "13 3BCD 00*14", err: Error::FloatNonMinimal },
    Invalid { name: "FLOAT256 2^16383", hex: "14 43FFE0 00*29", err: Error::FloatNonMinimal },
    // TAI64.
    Invalid { name: "TAI64 label FF..FF", hex: "18 FFFFFFFFFFFFFFFF", err: Error::Tai64TooBig },
    Invalid { name: "TAI64N reserved label", hex: "19 8000000000000000 00000001", err: Error::Tai64TooBig },
    Invalid { name: "TAI64NA reserved label", hex: "1A 8000000000000000 00000001 00000001", err: Error::Tai64TooBig },
    Invalid { name: "TAI64NA ns = 10^9", hex: "1A 4000000000000000 3B9ACA00 00000001", err: Error::Tai64BadNsec },
    Invalid { name: "TAI64NA as = 10^9", hex: "1A 4000000000000000 00000001 3B9ACA00", err: Error::Tai64BadAsec },
    Invalid { name: "TAI64NA with zero as", hex: "1A 4000000000000000 00000001 00000000", err: Error::Tai64NonMinimal },
    Invalid { name: "TAI64NA all ones", hex: "1A 4000000000000000 FFFFFFFF FFFFFFFF", err: Error::Tai64BadNsec },
    // MAGIC.
    Invalid { name: "MAGIC not KEKS", hex: "4B 454B54 636D2F707562 000000000000", err: Error::BadMagic },
    Invalid { name: "MAGIC lowercase", hex: "4B 656B73 636D2F707562 000000000000", err: Error::BadMagic },
    // Truncation.
    Invalid { name: "nothing at all", hex: "", err: Error::NotEnough(1) },
];

/// Inputs whose every atom is valid, so that only a decoder that follows
/// containers (LIST/MAP nesting, MAP keys, BLOB chunks) can reject them.
/// `err` is what that decoder must report; `at` is the offset of the atom
/// that shows the fault.
pub struct InvalidStream {
    /// What is wrong with it.
    pub name: &'static str,
    /// The encoding, in the hex notation above.
    pub hex: &'static str,
    /// The error.
    pub err: Error,
    /// Offset of the offending atom.
    pub at: usize,
}

/// The spec's derived invalid inputs that need a stream decoder, and more.
#[rustfmt::skip]
pub static INVALID_STREAM: &[InvalidStream] = &[
    InvalidStream { name: "keys out of order", hex: "09 C3736967 01 C26468 01 00", err: Error::MapUnordered, at: 6 },
    InvalidStream { name: "duplicate key", hex: "09 C161 01 C161 01 00", err: Error::MapUnordered, at: 4 },
    InvalidStream { name: "empty key", hex: "09 C0 01 00", err: Error::MapBadKey, at: 1 },
    InvalidStream { name: "non-STR key", hex: "09 0C80 01 00", err: Error::MapBadKey, at: 1 },
    InvalidStream { name: "EOC as a value", hex: "09 C161 00", err: Error::MapNoVal, at: 3 },
    InvalidStream { name: "chunk longer than chunk length 1", hex: "0B 0000000000000000 82 3132 80", err: Error::BlobBadChunk, at: 9 },
    InvalidStream { name: "STR chunk", hex: "0B 0000000000000004 C0", err: Error::BlobBadTerm, at: 9 },
    InvalidStream { name: "EOC alone", hex: "00", err: Error::UnexpectedEoc, at: 0 },
    InvalidStream { name: "LIST never closed", hex: "08", err: Error::NotEnough(1), at: 1 },
    // More of the same classes.
    InvalidStream { name: "keys: longer before shorter", hex: "09 C26161 01 C162 01 00", err: Error::MapUnordered, at: 5 },
    InvalidStream { name: "NIL as a key", hex: "09 01 01 00", err: Error::MapBadKey, at: 1 },
    InvalidStream { name: "BIN as a key", hex: "09 8161 01 00", err: Error::MapBadKey, at: 1 },
    InvalidStream { name: "EOC after the LIST closed", hex: "08 00 00", err: Error::UnexpectedEoc, at: 2 },
    InvalidStream { name: "NIL inside a BLOB", hex: "0B 0000000000000004 01", err: Error::BlobBadTerm, at: 9 },
    InvalidStream { name: "BLOB without its last chunk", hex: "0B 0000000000000004 85 3132333435", err: Error::NotEnough(1), at: 15 },
    InvalidStream { name: "MAP key without its value", hex: "09 C161", err: Error::NotEnough(1), at: 3 },
];

/// A container frame of [`check_containers`].
enum Frame<'a> {
    List,
    Map {
        /// The previous key, to check the order.
        last_key: Option<&'a str>,
        /// A key (or EOC) is due rather than a value.
        want_key: bool,
    },
}

/// The container rules of FORMAT.md (LIST/MAP nesting, MAP keys, BLOB
/// chunks) over a sequence of already valid atoms: a small reference for
/// the test data, not the library's validator. Returns the first fault and
/// the offset of its atom; an unfinished container gives `NotEnough(1)` at
/// the end of the input.
pub fn check_containers(atoms: &[Spanned<'_>], end: usize) -> Result<(), (Error, usize)> {
    let mut stack: Vec<Frame<'_>> = Vec::new();
    // Inside a BLOB: the chunk length minus one.
    let mut blob: Option<u64> = None;
    for (atom, range) in atoms {
        let at = range.start;
        if let Some(minus_one) = blob {
            let Atom::Bin(chunk) = atom else {
                return Err((Error::BlobBadTerm, at));
            };
            let len = chunk.len() as u64;
            if len > minus_one && len - minus_one > 1 {
                return Err((Error::BlobBadChunk, at));
            }
            if len <= minus_one {
                blob = None; // the shorter, last chunk
            }
            continue;
        }
        if let Some(Frame::Map {
            last_key,
            want_key: want_key @ true,
        }) = stack.last_mut()
        {
            match atom {
                Atom::Eoc => {
                    stack.pop();
                }
                Atom::Str(key) if !key.is_empty() => {
                    if let Some(prev) = last_key {
                        if (key.len(), key.as_bytes()) <= (prev.len(), prev.as_bytes()) {
                            return Err((Error::MapUnordered, at));
                        }
                    }
                    *last_key = Some(key);
                    *want_key = false;
                }
                _ => return Err((Error::MapBadKey, at)),
            }
            continue;
        }
        // A value (or EOC) is due.
        if let Atom::Eoc = atom {
            match stack.pop() {
                None => return Err((Error::UnexpectedEoc, at)),
                Some(Frame::Map { .. }) => return Err((Error::MapNoVal, at)),
                Some(Frame::List) => {}
            }
            continue;
        }
        if let Some(Frame::Map { want_key, .. }) = stack.last_mut() {
            *want_key = true;
        }
        match atom {
            Atom::List => stack.push(Frame::List),
            Atom::Map => stack.push(Frame::Map {
                last_key: None,
                want_key: true,
            }),
            Atom::Blob {
                chunk_len_minus_one,
            } => blob = Some(*chunk_len_minus_one),
            _ => {}
        }
    }
    if stack.is_empty() && blob.is_none() {
        Ok(())
    } else {
        Err((Error::NotEnough(1), end))
    }
}
