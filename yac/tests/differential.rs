//! Differential tests: libyac's atom decoder (walked by `common::walk`)
//! against the independent reference model in `common::reference`, on the
//! FORMAT.md vectors, on thousands of generated valid documents and on
//! mutations of them. All seeds are fixed: a failure reproduces exactly.

use yac_testkit as common;

use common::reference::{decode_atom, float_canonical, MAX_DEPTH};
use common::walk::{check_atom_agree, check_atom_prefixes, check_doc_agree, hex_head};
use common::*;

fn int(negative: bool, magnitude: &str) -> Value {
    Value::Int {
        negative,
        magnitude: hex(magnitude),
    }
}

fn str_(s: &str) -> Value {
    Value::Str(s.to_string())
}

fn magic(s: &[u8]) -> Value {
    let mut m = [0u8; 12];
    m[..s.len()].copy_from_slice(s);
    Value::Magic(m)
}

/// FORMAT.md's vectors (published and derived) as (value, encoding).
fn valid_vectors() -> Vec<(Value, Vec<u8>)> {
    let blob = |m1: u64, d: &[u8]| Value::Blob {
        chunk_len_m1: m1,
        data: d.to_vec(),
    };
    let mut a_64 = vec![0xBD, 0x03];
    a_64.extend([0x41; 64]);
    let boundary = |len: usize, head: &str| {
        let mut enc = hex(head);
        enc.extend(vec![0x5A; len]);
        (Value::Bin(vec![0x5A; len]), enc)
    };
    let mut v = vec![
        (Value::Nil, hex("01")),
        (Value::Bool(false), hex("02")),
        (Value::Bool(true), hex("03")),
        (
            Value::Hexlet(hex("0E875E3FD38549EB87B4BE42D641C367").try_into().unwrap()),
            hex("04 0E875E3FD38549EB87B4BE42D641C367"),
        ),
        (
            Value::Hexlet(hex("20010DB8000000000000000000001234").try_into().unwrap()),
            hex("04 20010DB8000000000000000000001234"),
        ),
        (Value::Bin(vec![]), hex("80")),
        (Value::Bin(vec![1, 2, 3, 4]), hex("84 01020304")),
        (Value::Bin(vec![0x41; 64]), a_64),
        (str_("hello world"), hex("CB 68656C6C6F20776F726C64")),
        (
            str_("привет мир"),
            hex("D3 D0BFD180D0B8D0B2D0B5D182 20 D0BCD0B8D180"),
        ),
        (int(false, ""), hex("0C 80")),
        (int(false, "01"), hex("0C 81 01")),
        (int(false, "0A"), hex("0C 81 0A")),
        (int(false, "64"), hex("0C 81 64")),
        (int(false, "010000"), hex("0C 83 010000")),
        (int(false, "E8D4A51000"), hex("0C 85 E8D4A51000")),
        (
            int(false, "FFFFFFFFFFFFFFFF"),
            hex("0C 88 FFFFFFFFFFFFFFFF"),
        ),
        (
            int(false, "010000000000000000"),
            hex("0C 89 010000000000000000"),
        ),
        (int(true, ""), hex("0D 80")),
        (int(true, "09"), hex("0D 81 09")),
        (int(true, "63"), hex("0D 81 63")),
        (int(true, "FFFF"), hex("0D 82 FFFF")),
        (int(true, "FFFFFFFFFFFFFFFF"), hex("0D 88 FFFFFFFFFFFFFFFF")),
        (
            int(true, "010000000000000000"),
            hex("0D 89 010000000000000000"),
        ),
        (int(false, "FF"), hex("0C 81 FF")),
        (int(false, "0100"), hex("0C 82 0100")),
        (int(true, "01"), hex("0D 81 01")),
        (int(true, "FF"), hex("0D 81 FF")),
        (int(true, "0100"), hex("0D 82 0100")),
        (int(true, "7FFFFFFFFFFFFFFF"), hex("0D 88 7FFFFFFFFFFFFFFF")), // i64::MIN
        (int(true, "8000000000000000"), hex("0D 88 8000000000000000")), // i64::MIN - 1
    ];
    for tai in [
        "4000000000000000",
        "400000000000000A",
        "3FFFFFFFFFFFFFFF",
        "400000002A2B2C2D",
        "4000000034353637",
        "40000000586846A3",
        "40000000586846A5",
    ] {
        v.push((Value::Tai(hex(tai)), hex(&format!("18 {tai}"))));
    }
    v.extend([
        (
            Value::Tai(hex("40000000673DD3E1 36F121D4")),
            hex("19 40000000673DD3E1 36F121D4"),
        ),
        (magic(b"cm/pub"), hex("4B 454B53 636D2F707562 000000000000")),
        (
            magic(b"cm/signed"),
            hex("4B 454B53 636D2F7369676E6564 000000"),
        ),
        (
            magic(b"cm/encrypted"),
            hex("4B 454B53 636D2F656E63727970746564"),
        ),
        (Value::List(vec![]), hex("08 00")),
        (
            Value::List(vec![int(false, "7B"), Value::Bool(false)]),
            hex("08 0C817B 02 00"),
        ),
        (
            Value::Map(vec![("foo".into(), Value::List(vec![str_("bar")]))]),
            hex("09 C3666F6F 08 C3626172 00 00"),
        ),
        (
            Value::Map(vec![("dh".into(), Value::Nil), ("sig".into(), Value::Nil)]),
            hex("09 C26468 01 C3736967 01 00"),
        ),
        (blob(4, b""), hex("0B 0000000000000004 80")),
        (
            blob(4, b"12345"),
            hex("0B 0000000000000004 85 3132333435 80"),
        ),
        (
            blob(4, b"123456"),
            hex("0B 0000000000000004 85 3132333435 81 36"),
        ),
        (blob(499, b"123"), hex("0B 00000000000001F3 83 313233")),
        (
            blob(1, b"12345"),
            hex("0B 0000000000000001 82 3132 82 3334 81 35"),
        ),
        boundary(60, "BC"),
        boundary(61, "BD 00"),
        boundary(316, "BD FF"),
        boundary(317, "BE 0000"),
        boundary(65852, "BE FFFF"),
        boundary(65853, "BF 0000000000000000"),
    ]);
    v
}

/// FORMAT.md's derived invalid inputs with the error and its offset.
fn invalid_vectors() -> Vec<(Vec<u8>, Kind, usize)> {
    vec![
        (hex("0C 82 0001"), Kind::IntNonMinimal, 0),
        (hex("0C C1 01"), Kind::IntNonBin, 0),
        (hex("C1 00"), Kind::BadUtf8, 0),
        (hex("09 C3736967 01 C26468 01 00"), Kind::MapUnordered, 6),
        (hex("09 C161 01 C161 01 00"), Kind::MapUnordered, 4),
        (hex("09 C0 01 00"), Kind::MapBadKey, 1),
        (hex("09 0C80 01 00"), Kind::MapBadKey, 1),
        (hex("09 C161 00"), Kind::MapNoVal, 3),
        (
            hex("19 4000000000000000 00000000"),
            Kind::Tai64NonMinimal,
            0,
        ),
        (hex("19 4000000000000000 3B9ACA00"), Kind::Tai64BadNsec, 0),
        (hex("18 8000000000000000"), Kind::Tai64TooBig, 0),
        (hex("0B 0000000000000000 82 3132 80"), Kind::BlobBadChunk, 9),
        (hex("0B 0000000000000004 C0"), Kind::BlobBadTerm, 9),
        (hex("00"), Kind::UnexpectedEoc, 0),
        (hex("08"), Kind::NotEnough(1), 1),
        (hex("BF FFFFFFFFFFFFFFFF"), Kind::LenTooBig, 0),
        (hex("05"), Kind::UnknownType, 0),
        (hex("C2 C080"), Kind::BadUtf8, 0),
        (hex("C3 EDA080"), Kind::BadUtf8, 0),
        // Beyond FORMAT.md's list, one per remaining class.
        (
            hex("1A 4000000000000000 00000001 3B9ACA00"),
            Kind::Tai64BadAsec,
            0,
        ),
        (
            hex("1A 4000000000000000 00000001 00000000"),
            Kind::Tai64NonMinimal,
            0,
        ),
        (hex("4B 454B54 000000000000000000000000"), Kind::BadMagic, 0),
        (hex("10 8000"), Kind::FloatNonMinimal, 0),
        (hex("11 3F800000"), Kind::FloatNonMinimal, 0), // 1.0 fits binary16
        (hex("0C"), Kind::NotEnough(1), 0),
        (hex("0C 85 01"), Kind::NotEnough(4), 0),
        (hex("BF 00"), Kind::NotEnough(7), 0),
        (hex("08 08 08"), Kind::NotEnough(1), 3),
        (hex("09 C161"), Kind::NotEnough(1), 3),
        (hex("0B 0000000000000001 82 31"), Kind::NotEnough(1), 9),
        (hex("04 00"), Kind::NotEnough(15), 0),
    ]
}

#[test]
fn vectors_encode_decode_and_agree() {
    for (value, bytes) in valid_vectors() {
        assert_eq!(encode(&value), bytes, "encoding of {value:?}");
        let (got, used) = decode(&bytes).unwrap_or_else(|e| panic!("{e} on {}", hex_head(&bytes)));
        assert_eq!((got, used), (value, bytes.len()));
        assert_eq!(check_doc_agree(&bytes), Ok(bytes.len()));
    }
}

#[test]
fn invalid_vectors_fail_alike() {
    for (bytes, kind, offset) in invalid_vectors() {
        let want = Err(RefError { kind, offset });
        assert_eq!(
            decode(&bytes).map(|r| r.1),
            want,
            "reference on {}",
            hex_head(&bytes)
        );
        assert_eq!(check_doc_agree(&bytes), want);
    }
}

/// The reference's float rule checked against native conversions (f16 is
/// widened by arithmetic, f32 -> f64 by the hardware), so the reference is
/// not just trusted.
#[test]
fn reference_float_rule_matches_native_widening() {
    // Every non-NaN binary16, widened to binary32 by arithmetic: the
    // binary32 forms must be rejected (a binary16 holds them) ...
    let mut from_f16 = std::collections::HashSet::new();
    for h in 0u16..=0xFFFF {
        let (s, e, f) = (h >> 15, (h >> 10) & 0x1F, f64::from(h & 0x3FF));
        if e == 0x1F && f != 0.0 {
            continue;
        }
        let mag = match e {
            0 => f * 2f64.powi(-24),
            0x1F => f64::INFINITY,
            _ => (1024.0 + f) * 2f64.powi(i32::from(e) - 25),
        };
        let v = if s == 1 { -mag } else { mag };
        let bits32 = (v as f32).to_bits();
        assert_eq!(f64::from(v as f32).to_bits(), v.to_bits(), "exact");
        from_f16.insert(bits32);
        assert!(!float_canonical(&bits32.to_be_bytes()), "{bits32:08X}");
        let canonical16 = h != 0x8000;
        assert_eq!(float_canonical(&h.to_be_bytes()), canonical16, "{h:04X}");
    }
    // ... and random non-NaN binary32s outside that set accepted, and
    // binary64s accepted exactly when f32 does not round-trip them.
    let mut rng = Rng::new(7);
    for i in 0..50_000u32 {
        let b = match i % 4 {
            0 => rng.next_u64() as u32,
            _ => (rng.next_u64() as u32) & !((1 << rng.below(24)) - 1),
        };
        if f32::from_bits(b).is_nan() {
            continue;
        }
        let want = !from_f16.contains(&b);
        assert_eq!(float_canonical(&b.to_be_bytes()), want, "{b:08X}");
        let d = match i % 3 {
            0 => f64::from_bits(rng.next_u64()),
            1 => f64::from(f32::from_bits(b)),
            _ => f64::from_bits(rng.next_u64() & !((1 << rng.below(60)) - 1)),
        };
        if d.is_nan() {
            continue;
        }
        let fits32 = f64::from(d as f32).to_bits() == d.to_bits();
        assert_eq!(
            float_canonical(&d.to_bits().to_be_bytes()),
            !fits32,
            "{d:e}"
        );
    }
}

/// (a) and (b): the reference accepts its own encoding of thousands of
/// generated documents, giving the value back, and libyac's atoms walked
/// with the structure rules match the reference atom for atom.
#[test]
fn generated_documents_agree() {
    let mut rng = Rng::new(1);
    let mut bytes_total = 0usize;
    for i in 0..3000 {
        let big = i % 100 == 99;
        let v = gen_value(&mut rng, 5, if big { 70_000 } else { 400 });
        let mut enc = encode(&v);
        bytes_total += enc.len();
        let (back, used) = decode(&enc).unwrap_or_else(|e| panic!("{e} on {}", hex_head(&enc)));
        assert_eq!(used, enc.len());
        assert_eq!(back, v);
        assert_eq!(check_doc_agree(&enc), Ok(enc.len()));
        // Trailing bytes are not part of the document.
        enc.extend_from_slice(&[0x00, 0x05, 0xFF]);
        assert_eq!(check_doc_agree(&enc), Ok(used));
    }
    assert!(bytes_total > 300_000, "generator too timid: {bytes_total}");
}

/// Generated values cover every type and length form (so the tests above
/// cannot pass by testing little).
#[test]
fn generator_covers_the_format() {
    let mut rng = Rng::new(2);
    let mut tags = [false; 256];
    let mut long_forms = [false; 4];
    let mut multibyte = [false; 5];
    let mut blob_exact = false;
    let mut blob_partial = false;
    for i in 0..3000 {
        let v = gen_value(&mut rng, 5, if i % 50 == 0 { 70_000 } else { 300 });
        let enc = encode(&v);
        let t = decode_traced(&enc);
        for (at, a) in &t.atoms {
            let tag = enc[*at];
            tags[usize::from(tag)] = true;
            if tag >= 0x80 {
                long_forms[usize::from(tag & 0x3F).saturating_sub(60)] = true;
            }
            if let RefAtom::Str(s) = a {
                for c in s.chars() {
                    multibyte[c.len_utf8()] = true;
                }
            }
            if tag == 0x0C || tag == 0x0D {
                long_forms[usize::from(enc[at + 1] & 0x3F).saturating_sub(60)] = true;
            }
        }
        let mut stack = vec![&v];
        while let Some(v) = stack.pop() {
            match v {
                Value::List(xs) => stack.extend(xs),
                Value::Map(kv) => stack.extend(kv.iter().map(|p| &p.1)),
                Value::Blob { chunk_len_m1, data } => {
                    let c = u128::from(*chunk_len_m1) + 1;
                    if !data.is_empty() && data.len() as u128 % c == 0 {
                        blob_exact = true;
                    } else if data.len() as u128 > c {
                        blob_partial = true;
                    }
                }
                _ => {}
            }
        }
    }
    for t in [
        0x00, 0x01, 0x02, 0x03, 0x04, 0x08, 0x09, 0x0B, 0x0C, 0x0D, 0x10, 0x11, 0x12, 0x13, 0x14,
        0x18, 0x19, 0x1A, 0x4B, 0x80, 0xBC, 0xBD, 0xBE, 0xBF, 0xC0, 0xFC, 0xFD, 0xFE, 0xFF,
    ] {
        assert!(tags[t], "no atom with tag {t:02X}");
    }
    assert_eq!(long_forms, [true; 4]);
    assert_eq!(&multibyte[1..], &[true; 4]);
    assert!(blob_exact && blob_partial);
}

/// Every strict prefix of a valid document is NotEnough for both, at the
/// same offset and with the same count.
#[test]
fn truncated_documents_agree() {
    let mut rng = Rng::new(3);
    for _ in 0..400 {
        let enc = encode(&gen_value(&mut rng, 4, 200));
        for cut in 0..enc.len() {
            match check_doc_agree(&enc[..cut]) {
                Err(RefError {
                    kind: Kind::NotEnough(n),
                    offset,
                }) => assert!(offset <= cut && n >= 1 && offset + n <= enc.len()),
                other => panic!("prefix {cut} of {}: {other:?}", hex_head(&enc)),
            }
        }
    }
}

/// (c): mutated documents. Both accept the same atoms at the same offsets
/// and stop at the same place with the same error; and at every offset of
/// the input, the two atom decoders agree on the atom or the error.
#[test]
fn mutated_documents_agree() {
    let mut rng = Rng::new(4);
    let mut outcomes = std::collections::HashMap::new();
    for i in 0..4000 {
        let v = gen_value(&mut rng, 4, if i % 200 == 0 { 70_000 } else { 150 });
        let mut buf = encode(&v);
        mutate(&mut rng, &mut buf);
        let outcome = check_doc_agree(&buf);
        let class = match outcome {
            Ok(_) => "ok".to_string(),
            Err(e) => format!("{:?}", e.kind)
                .split('(')
                .next()
                .unwrap()
                .to_string(),
        };
        *outcomes.entry(class).or_insert(0) += 1;
        let step = if buf.len() > 2048 { buf.len() / 512 } else { 1 };
        for at in (0..buf.len()).step_by(step) {
            let _ = check_atom_agree(&buf[at..]);
        }
    }
    // The mutations must reach many error classes, not just NotEnough.
    for class in [
        "ok",
        "NotEnough",
        "UnknownType",
        "BadUtf8",
        "IntNonMinimal",
        "IntNonBin",
        "FloatNonMinimal",
        "BlobBadChunk",
        "BlobBadTerm",
        "Tai64TooBig",
        "Tai64BadNsec",
        "Tai64NonMinimal",
        "MapBadKey",
        "MapNoVal",
        "MapUnordered",
        "UnexpectedEoc",
    ] {
        assert!(outcomes.contains_key(class), "no {class} in {outcomes:?}");
    }
}

/// Edge atoms (floats at the shortest-form boundaries, TAI limits, leading
/// zeros, UTF-8 edge sequences, long length headers, damaged MAGIC), alone
/// and as list items, map values and blob chunks.
#[test]
fn edge_atoms_agree() {
    let mut rng = Rng::new(5);
    let mut accepted = 0;
    for _ in 0..20_000 {
        let atom = edge_atom(&mut rng);
        if check_atom_agree(&atom).is_ok() {
            accepted += 1;
        }
        let wrapped = match rng.below(3) {
            0 => [&[0x08][..], &atom, &[0x00]].concat(),
            1 => [&hex("09 C161")[..], &atom, &[0x00]].concat(),
            _ => [&hex("0B 0000000000000003")[..], &atom].concat(),
        };
        let _ = check_doc_agree(&wrapped);
    }
    assert!((2000..18_000).contains(&accepted), "accepted {accepted}");
}

/// Nesting: exactly MAX_DEPTH containers are fine, one more is not.
#[test]
fn depth_limit_agrees() {
    for (open, close) in [(0x08u8, 0x00u8), (0x09, 0x00)] {
        for depth in [MAX_DEPTH, MAX_DEPTH + 1] {
            let mut buf = Vec::new();
            for d in 0..depth {
                buf.push(open);
                if open == 0x09 && d + 1 < depth {
                    buf.extend_from_slice(&hex("C161"));
                }
            }
            buf.extend(vec![close; depth]);
            let got = check_doc_agree(&buf);
            if depth == MAX_DEPTH {
                assert_eq!(got, Ok(buf.len()));
            } else {
                let kind = got.unwrap_err().kind;
                assert_eq!(kind, Kind::DeepRecursion);
            }
        }
    }
}

/// The reference atom decoder and libyac agree on every 1- and 2-byte
/// input and on every tag followed by a few fixed tails.
#[test]
fn short_inputs_agree_exhaustively() {
    let _ = check_atom_agree(&[]);
    for a in 0..=255u8 {
        let _ = check_atom_agree(&[a]);
        for b in 0..=255u8 {
            let _ = check_atom_agree(&[a, b]);
        }
        for tail in [[0u8; 40], [0xFF; 40], [0x41; 40], [0x80; 40]] {
            let buf = [&[a][..], &tail].concat();
            for cut in [3, 9, 17, 33, 41] {
                let _ = check_atom_agree(&buf[..cut]);
            }
        }
    }
    assert!(decode_atom(&[0x05]).is_err());
}

/// String length fields at the edge of overflow (65853 + x and the header
/// on top of it), alone and as an INT body, and lengths past the input.
#[test]
fn length_overflow_edges_agree() {
    let top = u64::MAX - 65853;
    let mut xs: Vec<u64> = (0..=12).map(|d| top - d).collect();
    xs.extend([top + 1, u64::MAX, 0, 1, 1 << 32, 1 << 63]);
    let mut too_big = 0;
    for x in xs {
        for tag in [0xBFu8, 0xFF] {
            let mut atom = vec![tag];
            atom.extend_from_slice(&x.to_be_bytes());
            atom.extend_from_slice(b"abc");
            for buf in [atom.clone(), [&[0x0C][..], &atom].concat()] {
                let got = check_atom_agree(&buf);
                if tag == 0xFF && buf[0] == 0x0C {
                    assert_eq!(got, Err(Kind::IntNonBin));
                    continue;
                }
                match got {
                    Err(Kind::LenTooBig) => too_big += 1,
                    Err(Kind::NotEnough(n)) => assert!(n > 65_000),
                    other => panic!("{other:?} on {}", hex_head(&buf)),
                }
                let _ = check_doc_agree(&buf);
            }
        }
    }
    assert!(too_big >= 3 * 8, "{too_big}");
}

/// The self-consistency rules of the atom_decode fuzz target (prefixes,
/// growing a short input, final errors staying final), on generated,
/// mutated and edge inputs at every start offset.
#[test]
fn atom_prefix_properties_hold() {
    let mut rng = Rng::new(8);
    for i in 0..1500 {
        let mut buf = if i % 3 == 0 {
            edge_atom(&mut rng)
        } else {
            encode(&gen_value(&mut rng, 3, 100))
        };
        if i % 2 == 0 {
            mutate(&mut rng, &mut buf);
        }
        let mut pos = 0;
        while pos < buf.len() {
            match check_atom_prefixes(&buf[pos..]) {
                Ok(used) => pos += used,
                Err(_) => pos += 1,
            }
        }
    }
}

/// (exponent bits, fraction bits) for a float width in bytes.
fn layout(width: usize) -> (usize, usize) {
    match width {
        2 => (5, 10),
        4 => (8, 23),
        8 => (11, 52),
        16 => (15, 112),
        _ => (19, 236),
    }
}

fn to_bits(p: &[u8]) -> Vec<bool> {
    p.iter()
        .flat_map(|&b| (0..8).rev().map(move |i| (b >> i) & 1 == 1))
        .collect()
}

fn from_bits(bits: &[bool]) -> Vec<u8> {
    bits.chunks(8)
        .map(|c| c.iter().fold(0u8, |a, &b| a * 2 + u8::from(b)))
        .collect()
}

/// Widens an IEEE float to a wider width exactly (normalising subnormals,
/// moving NaN payloads to the top of the fraction), bit by bit.
fn widen(p: &[u8], to: usize) -> Vec<u8> {
    let ((eb, _), (teb, tfb)) = (layout(p.len()), layout(to));
    let bits = to_bits(p);
    let exp = bits[1..=eb].iter().fold(0i64, |a, &b| a * 2 + i64::from(b));
    let frac = &bits[1 + eb..];
    let (bias, tbias) = ((1i64 << (eb - 1)) - 1, (1i64 << (teb - 1)) - 1);
    let (texp, tfrac): (i64, Vec<bool>) = if exp == (1 << eb) - 1 {
        ((1 << teb) - 1, frac.to_vec())
    } else if exp != 0 {
        (exp - bias + tbias, frac.to_vec())
    } else {
        match frac.iter().position(|&b| b) {
            None => (0, vec![]),
            Some(i) => (1 - bias - (i as i64 + 1) + tbias, frac[i + 1..].to_vec()),
        }
    };
    let mut out = vec![bits[0]];
    out.extend((0..teb).rev().map(|i| (texp >> i) & 1 == 1));
    out.extend(&tfrac);
    out.resize(1 + teb + tfb, false);
    from_bits(&out)
}

/// Floats cross-checked against exact widening (an independent, bit-level
/// construction): any binary16/32/64/128 widened one step (NaN payloads
/// included) is rejected by both decoders as non-minimal, and the same
/// with its lowest fraction bit set is accepted by both.
#[test]
fn wide_floats_agree_with_widening() {
    let mut rng = Rng::new(9);
    let tag = |w: usize| 0x0Fu8 + w.trailing_zeros() as u8;
    for i in 0..6000 {
        let from = [2usize, 4, 8, 16][i % 4];
        let narrow = match rng.below(3) {
            0 => rng.bytes(from),
            _ => common::gen::edge_float(&mut rng, from),
        };
        let to = from * 2;
        let wide = widen(&narrow, to);
        let mut atom = vec![tag(to)];
        atom.extend(&wide);
        assert_eq!(
            check_atom_agree(&atom).map(|_| ()),
            Err(Kind::FloatNonMinimal),
            "widened {} to {}",
            hex_head(&narrow),
            hex_head(&wide)
        );
        // With the lowest fraction bit set, no narrower width holds it.
        let last = atom.len() - 1;
        atom[last] |= 1;
        assert!(check_atom_agree(&atom).is_ok(), "{}", hex_head(&atom));
    }
}

/// STR payloads of 1 to 4 bytes around every lead byte and continuation
/// boundary: both decoders agree, and agree with std's UTF-8 check plus
/// the no-NUL rule.
#[test]
fn utf8_sequences_agree() {
    let second: Vec<u8> = (0x70..=0xC8).chain([0x00, 0x41, 0xFF]).collect();
    for lead in 0x80..=0xFFu8 {
        for &b in &second {
            for tail in [
                &[][..],
                &[0x80],
                &[0xBF],
                &[0x7F],
                &[0xC0],
                &[0x80, 0x80],
                &[0xBF, 0xBF],
                &[0x80, 0x41],
            ] {
                let mut payload = vec![lead, b];
                payload.extend_from_slice(tail);
                let want_ok = std::str::from_utf8(&payload).is_ok() && !payload.contains(&0);
                for prefix in [&b""[..], b"a"] {
                    let full = [prefix, &payload].concat();
                    let mut atom = vec![0xC0 | full.len() as u8];
                    atom.extend(&full);
                    let got = check_atom_agree(&atom);
                    assert_eq!(got.is_ok(), want_ok, "{}", hex_head(&atom));
                    if !want_ok {
                        assert_eq!(got, Err(Kind::BadUtf8));
                    }
                }
            }
        }
    }
}

/// Writes seed corpora for the fuzz targets (fuzz/seed.sh runs this).
#[test]
#[ignore]
fn write_fuzz_seeds() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fuzz/corpus");
    let mut rng = Rng::new(6);
    let mut seeds: Vec<Vec<u8>> = valid_vectors().into_iter().map(|(_, b)| b).collect();
    seeds.extend(invalid_vectors().into_iter().map(|(b, _, _)| b));
    for i in 0..300 {
        seeds.push(encode(&gen_value(
            &mut rng,
            4,
            if i % 60 == 0 { 3000 } else { 120 },
        )));
    }
    for _ in 0..200 {
        seeds.push(edge_atom(&mut rng));
    }
    let write = |target: &str, seeds: &[Vec<u8>]| {
        let dir = root.join(target);
        std::fs::create_dir_all(&dir).unwrap();
        for (i, s) in seeds.iter().enumerate() {
            std::fs::write(dir.join(format!("seed-{i:04}")), s).unwrap();
        }
    };
    for target in [
        "atom_decode",
        "atom_differential",
        "tree_roundtrip",
        "serde_from_slice",
    ] {
        write(target, &seeds);
    }
    // tree_parse: options, pool size and chunking seed, then the document
    // (see fuzz/fuzz_targets/tree_parse.rs for the layout).
    let parse_seeds: Vec<Vec<u8>> = seeds
        .iter()
        .map(|doc| {
            let cfg = rng.byte() & 7;
            let mut s = vec![cfg, rng.byte() % 24];
            if cfg & 2 != 0 {
                s.push(rng.byte() % 8);
            }
            s.extend(rng.bytes(4));
            s.extend(doc);
            s
        })
        .collect();
    write("tree_parse", &parse_seeds);
    // tree_edits: the document's length (in 4-byte units, then exact), the
    // document, spare pool room, then random calls (see testkit/src/edits.rs).
    let edit_seeds: Vec<Vec<u8>> = seeds
        .iter()
        .filter(|doc| doc.len() <= 1020)
        .map(|doc| {
            let units = doc.len().div_ceil(4);
            let mut s = vec![units as u8];
            if units * 4 < 256 {
                s.push(doc.len() as u8);
            } else {
                s.extend((doc.len() as u32).to_le_bytes());
            }
            s.extend(doc);
            s.push(rng.byte());
            let n = rng.usize(0, 512);
            s.extend(rng.bytes(n));
            s
        })
        .collect();
    write("tree_edits", &edit_seeds);
    // c_api: the documents, each after an operation-choosing prefix.
    let capi_seeds: Vec<Vec<u8>> = seeds
        .iter()
        .map(|doc| {
            let mut s = rng.bytes(8);
            s.extend(doc);
            s
        })
        .collect();
    write("c_api", &capi_seeds);
}
