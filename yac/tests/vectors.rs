//! Conformance of the atom decoder to FORMAT.md: every vector, every
//! derived boundary and invalid input, truncation at every byte, the tag
//! table, and the float rules. The vectors themselves live in
//! `common/vectors.rs`, shared with the C and encoder tests.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac_testkit as common;

use common::vectors::{bytes, check_containers, walk, INVALID_ATOM, INVALID_STREAM, VALID};
use yac::atom::decode;
use yac::{float, Atom, Error};

#[test]
fn valid_vectors_decode_to_their_atoms() {
    for v in VALID {
        let input = bytes(v.hex);
        let (atoms, err) = walk(&input);
        assert_eq!(err, None, "{}: {}", v.name, v.hex);
        let got: Vec<Atom<'_>> = atoms.iter().map(|(a, _)| *a).collect();
        assert_eq!(got, v.atoms, "{}", v.name);
        // The atoms tile the input: each starts where the previous ended.
        let mut off = 0;
        for (_, range) in &atoms {
            assert_eq!(range.start, off, "{}", v.name);
            off = range.end;
        }
        assert_eq!(off, input.len(), "{}", v.name);
    }
}

#[test]
fn trailing_bytes_do_not_change_an_atom() {
    for v in VALID {
        let input = bytes(v.hex);
        let (atoms, _) = walk(&input);
        for (atom, range) in atoms {
            for tail in [&[0x00][..], &[0xFF, 0xFF], &[0x05]] {
                let mut longer = input[range.clone()].to_vec();
                longer.extend_from_slice(tail);
                assert_eq!(decode(&longer), Ok((atom, range.len())), "{}", v.name);
            }
        }
    }
}

#[test]
fn invalid_inputs_give_their_specific_error() {
    for v in INVALID_ATOM {
        let input = bytes(v.hex);
        assert_eq!(decode(&input), Err(v.err), "{}: {}", v.name, v.hex);
        if !matches!(v.err, Error::NotEnough(_)) {
            // A final error stays final whatever follows.
            let mut longer = input.clone();
            longer.extend_from_slice(&[0u8; 64]);
            assert_eq!(decode(&longer), Err(v.err), "{} + zeros", v.name);
        }
    }
}

/// The container faults of the spec: every atom is valid, and the
/// container rules (checked by the reference in `common/vectors.rs`) find
/// the stated fault at the stated atom. The valid vectors pass the same
/// rules. (The tree parser, once there, must agree on both tables.)
#[test]
fn container_faults_are_found_at_their_atom() {
    for v in VALID {
        let input = bytes(v.hex);
        let (atoms, _) = walk(&input);
        assert_eq!(check_containers(&atoms, input.len()), Ok(()), "{}", v.name);
    }
    for v in INVALID_STREAM {
        let input = bytes(v.hex);
        let (atoms, err) = walk(&input);
        assert_eq!(err, None, "{}: every atom is valid", v.name);
        assert_eq!(
            check_containers(&atoms, input.len()),
            Err((v.err, v.at)),
            "{}: {}",
            v.name,
            v.hex
        );
    }
}

/// Feeds every proper prefix of every atom of every valid vector: the
/// decoder must ask for more (at least one byte, and never more than the
/// atom still lacks), and feeding what it asked for must make progress
/// until the whole atom is there (which decodes to the right value).
#[test]
fn truncation_at_every_byte_asks_for_more() {
    for v in VALID {
        let input = bytes(v.hex);
        let (atoms, _) = walk(&input);
        for (atom, range) in atoms {
            let whole = &input[range.clone()];
            assert_eq!(decode(whole), Ok((atom, whole.len())), "{}", v.name);
            for cut in 0..whole.len() {
                let mut have = cut;
                while have < whole.len() {
                    match decode(&whole[..have]) {
                        Err(Error::NotEnough(n)) => {
                            assert!(n >= 1, "{}: NotEnough(0) at {have}", v.name);
                            assert!(
                                have + n <= whole.len(),
                                "{}: asks for {n} at {have} of {}",
                                v.name,
                                whole.len()
                            );
                            have += n;
                        }
                        other => panic!("{}: cut at {cut}, at {have}: {other:?}", v.name),
                    }
                }
            }
        }
    }
}

/// FORMAT.md's tag table: every byte is a tag, the start of a string, or
/// must be rejected as an unknown type.
#[test]
fn every_byte_outside_the_tag_table_is_unknown() {
    let known: &[u8] = &[
        0x00, 0x01, 0x02, 0x03, 0x04, 0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x10, 0x11, 0x12, 0x13, 0x14,
        0x18, 0x19, 0x1A, 0x4B,
    ];
    for b in 0..=255u8 {
        let one = [b];
        let verdict = decode(&one);
        if known.contains(&b) || b >= 0x80 {
            assert_ne!(verdict, Err(Error::UnknownType), "{b:#04x} is a tag");
        } else {
            assert_eq!(verdict, Err(Error::UnknownType), "{b:#04x} is not a tag");
            // ... whatever follows it.
            assert_eq!(decode(&[b, 0x80, 0x80]), Err(Error::UnknownType));
        }
    }
}

/// The four length forms, written out from the spec for lengths around
/// every boundary, for BIN and STR.
#[test]
fn each_length_has_its_one_form() {
    fn header(str_bit: u8, len: usize) -> Vec<u8> {
        let tag = 0x80 | str_bit;
        match len {
            0..=60 => vec![tag | len as u8],
            61..=316 => vec![tag | 61, (len - 61) as u8],
            317..=65852 => {
                let mut h = vec![tag | 62];
                h.extend_from_slice(&((len - 317) as u16).to_be_bytes());
                h
            }
            _ => {
                let mut h = vec![tag | 63];
                h.extend_from_slice(&((len - 65853) as u64).to_be_bytes());
                h
            }
        }
    }
    let lens = (0..=320).chain(65840..=65870).chain([100_000, 1 << 20]);
    for len in lens {
        for str_bit in [0x00, 0x40] {
            let mut input = header(str_bit, len);
            let head = input.len();
            input.resize(head + len, b'z');
            let (atom, used) = decode(&input).unwrap_or_else(|e| panic!("{len}: {e:?}"));
            assert_eq!(used, input.len(), "{len}");
            let payload = &input[head..];
            match (str_bit, atom) {
                (0, Atom::Bin(b)) => assert_eq!(b, payload),
                (_, Atom::Str(s)) => assert_eq!(s.as_bytes(), payload),
                _ => panic!("{len}: {atom:?}"),
            }
            // One byte short: exactly one more is needed.
            assert_eq!(decode(&input[..input.len() - 1]), Err(Error::NotEnough(1)));
        }
    }
}

#[test]
fn shortest_float_encodings() {
    let cases: &[(f64, &[u8])] = &[
        (0.0, &[0x00, 0x00]),
        (1.0, &[0x3C, 0x00]),
        (-2.0, &[0xC0, 0x00]),
        (65504.0, &[0x7B, 0xFF]),
        (65536.0, &[0x47, 0x80, 0x00, 0x00]),
        (f64::INFINITY, &[0x7C, 0x00]),
        (f64::NEG_INFINITY, &[0xFC, 0x00]),
        (f64::NAN, &[0x7E, 0x00]),
        (2f64.powi(-24), &[0x00, 0x01]),
        (2f64.powi(-25), &[0x33, 0x00, 0x00, 0x00]),
        (2f64.powi(-149), &[0x00, 0x00, 0x00, 0x01]),
        (2f64.powi(-150), &[0x36, 0x90, 0, 0, 0, 0, 0, 0]),
        (0.1f32 as f64, &[0x3D, 0xCC, 0xCC, 0xCD]),
        (0.1, &[0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A]),
        // NaN payloads are kept, and narrowed only when no bit is lost.
        (
            f64::from_bits(0x7FF8_0000_0000_0001),
            &[0x7F, 0xF8, 0, 0, 0, 0, 0, 1],
        ),
        (
            f64::from_bits(0x7FF8_0000_2000_0000),
            &[0x7F, 0xC0, 0x00, 0x01],
        ),
        (f64::from_bits(0x7FF0_0400_0000_0000), &[0x7C, 0x01]),
    ];
    for &(v, want) in cases {
        let mut out = [0u8; 8];
        let n = float::shortest(v, &mut out).unwrap_or_else(|e| panic!("{v}: {e:?}"));
        assert_eq!(&out[..n], want, "{v:e} ({:#018x})", v.to_bits());
        assert_eq!(float::check(want), Ok(()), "{v:e}");
    }
    assert_eq!(
        float::shortest(-0.0, &mut [0; 8]),
        Err(Error::FloatNonMinimal)
    );
}

/// Every binary16 value: it is canonical as binary16, and the same value
/// written as binary32 or binary64 is not. Non-NaN values come back from
/// `to_f64` and `shortest` unchanged.
#[test]
fn every_binary16_value_is_canonical_only_as_binary16() {
    let known = [
        (0x3C00, 1.0),
        (0x7BFF, 65504.0),
        (0x0001, 2f64.powi(-24)),
        (0xC000, -2.0),
        (0x3555, 0.333251953125),
    ];
    for (bits, v) in known {
        assert_eq!(float::to_f64(&u16::to_be_bytes(bits)), Some(v));
    }
    for bits in 0..=u16::MAX {
        let b = bits.to_be_bytes();
        if bits == 0x8000 {
            assert_eq!(float::check(&b), Err(Error::FloatNonMinimal));
            continue;
        }
        assert_eq!(float::check(&b), Ok(()), "{bits:#06x}");
        let v = float::to_f64(&b).expect("2 bytes widen");
        if v.is_nan() {
            continue;
        }
        let as32 = (v as f32).to_bits().to_be_bytes();
        assert_eq!(
            float::check(&as32),
            Err(Error::FloatNonMinimal),
            "{bits:#06x}"
        );
        let as64 = v.to_bits().to_be_bytes();
        assert_eq!(
            float::check(&as64),
            Err(Error::FloatNonMinimal),
            "{bits:#06x}"
        );
        let mut out = [0u8; 8];
        assert_eq!(float::shortest(v, &mut out), Ok(2), "{bits:#06x}");
        assert_eq!(&out[..2], &b);
    }
}

/// Random binary64 patterns: `shortest` gives a canonical encoding of the
/// same value, and keeps 8 bytes exactly when binary64 is canonical.
#[test]
fn shortest_agrees_with_check_on_random_doubles() {
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for i in 0..200_000u32 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // Every fourth pattern comes from a binary32, to exercise narrowing.
        let v = if i % 4 == 0 {
            f64::from(f32::from_bits(x as u32))
        } else {
            f64::from_bits(x)
        };
        if v == 0.0 && v.is_sign_negative() {
            continue;
        }
        let mut out = [0u8; 8];
        let n = float::shortest(v, &mut out).expect("only -0 has no encoding");
        assert_eq!(float::check(&out[..n]), Ok(()), "{:#018x}", v.to_bits());
        let canonical64 = float::check(&v.to_bits().to_be_bytes()).is_ok();
        assert_eq!(n == 8, canonical64, "{:#018x}", v.to_bits());
        let back = float::to_f64(&out[..n]).expect("2, 4 or 8 bytes");
        if v.is_nan() {
            assert!(back.is_nan());
        } else {
            assert_eq!(back.to_bits(), v.to_bits());
        }
    }
}
