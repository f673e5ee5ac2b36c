//! Unit tests of the serializer's internals: the NUL search and the long
//! STR copy, the output `Vec`'s capacity kept, and [`KeyRank`]'s order
//! against the format's key order.

use super::map::KeyRank;
use super::*;
use crate::rules::key_above;

#[test]
fn first_nul_finds_the_first_zero_byte() {
    for len in 0..=16 {
        for at in 0..len {
            let mut b = [0x01u8; 16];
            // Bytes after the zero that a borrow could mark.
            b[at] = 0;
            if let Some(x) = b.get_mut(at + 1) {
                *x = 0x01;
            }
            let (lo, hi) = short_words(&b);
            assert_eq!(first_nul_words(lo, hi), at);
        }
    }
    let (lo, hi) = short_words(&[0xFF; 16]);
    assert_eq!(first_nul_words(lo, hi), 16);
    // The padding of a shorter payload is zero.
    let (lo, hi) = short_words(b"abc");
    assert_eq!(first_nul_words(lo, hi), 3);
}

#[test]
fn short_words_are_the_payload_zero_padded() {
    let bytes: Vec<u8> = (1..=16).collect();
    for n in 0..=16 {
        let (lo, hi) = short_words(&bytes[..n]);
        let mut padded = [0u8; 16];
        padded[..n].copy_from_slice(&bytes[..n]);
        let mut got = [0u8; 16];
        got[..8].copy_from_slice(&lo.to_le_bytes());
        got[8..].copy_from_slice(&hi.to_le_bytes());
        assert_eq!(got, padded, "{n} bytes");
    }
}

#[test]
fn long_strs_are_copied_whole_and_refused_with_a_nul_anywhere() {
    // An output with no room to spare (the checked stores) and one with
    // room (the stores past its end).
    let outputs = || {
        let mut roomy = Vec::with_capacity(256);
        roomy.push(7);
        [alloc::vec![7], roomy]
    };
    for len in 17..=80 {
        let s: alloc::string::String = (0..len).map(|i| (b'A' + (i % 26) as u8) as char).collect();
        for out in outputs() {
            let mut ser = Serializer::new(out);
            let head = ser.str(&s).unwrap();
            let mut first16 = [0u8; 16];
            first16.copy_from_slice(&s.as_bytes()[..16]);
            assert_eq!(head, u128::from_be_bytes(first16), "{len}");
            let mut header = [0u8; 9];
            let h = crate::enc::string_header(tag::STR, len, &mut header);
            assert_eq!(&ser.out[..1 + h], [&[7][..], &header[..h]].concat());
            assert_eq!(&ser.out[1 + h..], s.as_bytes());
        }
        for at in 0..len {
            let mut b = s.clone().into_bytes();
            b[at] = 0;
            let bad = alloc::string::String::from_utf8(b).unwrap();
            for out in outputs() {
                let mut ser = Serializer::new(out);
                let e = ser.str(&bad).unwrap_err();
                assert_eq!(
                    e.kind(),
                    &ErrorKind::Format(crate::Error::BadUtf8),
                    "{len} {at}"
                );
                assert_eq!(ser.out, [7], "nothing of it is kept");
            }
        }
    }
}

#[test]
fn a_vec_of_the_documents_size_is_not_grown() {
    fn check<T: Serialize + ?Sized>(value: &T) {
        let doc = to_vec(value).unwrap();
        let mut v = Vec::with_capacity(doc.len());
        let cap = v.capacity();
        append_to_vec(&mut v, value).unwrap();
        assert_eq!(v, doc);
        assert_eq!(v.capacity(), cap);
    }
    let long = "x".repeat(40);
    check(&(1u8, -300i64, u64::MAX, "short", long.as_str()));
    check(&[[i64::MIN, 7]; 3]);
    check(&("\u{e9}", 0.5f64, true, ()));
}

#[test]
fn key_rank_orders_as_key_above() {
    let keys: [&str; 9] = [
        "a",
        "b",
        "ab",
        "abcdefghijklmnop",
        "abcdefghijklmnoq",
        "abcdefghijklmnopq",
        "abcdefghijklmnopr",
        "abcdefghijklmnoqa",
        "\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}\u{e9}",
    ];
    let mut ser = Serializer::new(Vec::new());
    let ranks: Vec<KeyRank> = keys
        .iter()
        .map(|k| {
            let head = ser.str(k).unwrap();
            let at = ser.out.len() - k.len();
            KeyRank {
                len: k.len(),
                head,
                at,
            }
        })
        .collect();
    for (a, ra) in keys.iter().zip(&ranks) {
        for (b, rb) in keys.iter().zip(&ranks) {
            assert_eq!(
                ra.above(rb, &ser.out),
                key_above(a.as_bytes(), b.as_bytes()),
                "{a} {b}"
            );
        }
    }
}
