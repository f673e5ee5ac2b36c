//! The encoders on the format's vectors at every capacity, their refusals,
//! and YACFloatToDouble.

extern crate std;
use super::*;
use core::ptr::{null, null_mut};
use std::vec;
use std::vec::Vec;

type Call<'a> = &'a dyn Fn(*mut usize, *mut u8, usize) -> YACErr;

/// Runs `f` with every capacity from 0 up: each too-small one must give
/// NoMem, the size needed, and an untouched buffer; the first that fits
/// must give `want`.
fn check(f: Call<'_>, want: &[u8]) {
    for cap in 0..=want.len() {
        let mut buf = vec![0xAAu8; cap + 3];
        let mut len = 12345usize;
        let r = f(&mut len, buf.as_mut_ptr(), cap);
        if cap < want.len() {
            assert_eq!(r, YACErr::YACErrNoMem, "cap {cap} for {want:02X?}");
            assert_eq!(len, want.len());
            assert!(buf.iter().all(|&b| b == 0xAA));
        } else {
            assert_eq!(r, YACErr::YACErrNo, "{want:02X?}");
            assert_eq!(len, want.len());
            assert_eq!(&buf[..len], want);
            assert!(buf[len..].iter().all(|&b| b == 0xAA));
        }
    }
    // Size query with NULL/0, then NULL pointers.
    let mut len = 0usize;
    assert_eq!(f(&mut len, null_mut(), 0), YACErr::YACErrNoMem);
    assert_eq!(len, want.len());
    assert_eq!(f(&mut len, null_mut(), 5), YACErr::YACErrInvalid);
    let mut buf = [0u8; 64];
    assert_eq!(f(null_mut(), buf.as_mut_ptr(), 64), YACErr::YACErrInvalid);
}

/// Expects error `e` with `*len` 0 and nothing written.
fn refuse(f: Call<'_>, e: YACErr) {
    let mut buf = [0xAAu8; 64];
    let mut len = 7usize;
    assert_eq!(f(&mut len, buf.as_mut_ptr(), buf.len()), e);
    assert_eq!(len, 0);
    assert!(buf.iter().all(|&b| b == 0xAA));
}

#[test]
fn every_encoder_writes_the_vectors() {
    let magic_pub: [u8; 12] = *b"cm/pub\0\0\0\0\0\0";
    let uuid: [u8; 16] = [
        0x0E, 0x87, 0x5E, 0x3F, 0xD3, 0x85, 0x49, 0xEB, 0x87, 0xB4, 0xBE, 0x42, 0xD6, 0x41, 0xC3,
        0x67,
    ];
    let mut want_uuid = vec![0x04];
    want_uuid.extend(uuid);
    let two64 = [1u8, 0, 0, 0, 0, 0, 0, 0, 0];
    let hello = "hello world";
    let tai = [
        0x40u8, 0, 0, 0, 0x67, 0x3D, 0xD3, 0xE1, 0x36, 0xF1, 0x21, 0xD4,
    ];
    let a64 = [b'A'; 64];
    let mut want_a64 = vec![0xBD, 0x03];
    want_a64.extend(a64);
    // SAFETY (all closures): pointers come from live Rust buffers of
    // the stated lengths, or NULL, which the entry points check.
    let table: &[(Call<'_>, Vec<u8>)] = &[
        (&|l, b, c| unsafe { YACAtomEOCEncode(l, b, c) }, vec![0x00]),
        (&|l, b, c| unsafe { YACAtomNILEncode(l, b, c) }, vec![0x01]),
        (
            &|l, b, c| unsafe { YACAtomBoolEncode(l, b, c, false) },
            vec![0x02],
        ),
        (
            &|l, b, c| unsafe { YACAtomBoolEncode(l, b, c, true) },
            vec![0x03],
        ),
        (
            &|l, b, c| unsafe { YACAtomHexletEncode(l, b, c, uuid.as_ptr()) },
            want_uuid,
        ),
        (
            &|l, b, c| unsafe { YACAtomUintEncode(l, b, c, 0) },
            vec![0x0C, 0x80],
        ),
        (
            &|l, b, c| unsafe { YACAtomUintEncode(l, b, c, 100) },
            vec![0x0C, 0x81, 0x64],
        ),
        (
            &|l, b, c| unsafe { YACAtomUintEncode(l, b, c, u64::MAX) },
            vec![0x0C, 0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
        ),
        (
            &|l, b, c| unsafe { YACAtomSintEncode(l, b, c, 123) },
            vec![0x0C, 0x81, 0x7B],
        ),
        (
            &|l, b, c| unsafe { YACAtomSintEncode(l, b, c, -1) },
            vec![0x0D, 0x80],
        ),
        (
            &|l, b, c| unsafe { YACAtomSintEncode(l, b, c, -65536) },
            vec![0x0D, 0x82, 0xFF, 0xFF],
        ),
        (
            &|l, b, c| unsafe { YACAtomBigintEncode(l, b, c, false, two64.as_ptr(), 9) },
            vec![0x0C, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &|l, b, c| unsafe { YACAtomBigintEncode(l, b, c, true, two64.as_ptr(), 9) },
            vec![0x0D, 0x89, 1, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &|l, b, c| unsafe { YACAtomBigintEncode(l, b, c, true, [0u8, 0, 0xFF].as_ptr(), 3) },
            vec![0x0D, 0x81, 0xFF],
        ),
        (
            &|l, b, c| unsafe { YACAtomBigintEncode(l, b, c, false, null(), 0) },
            vec![0x0C, 0x80],
        ),
        (&|l, b, c| unsafe { YACAtomListEncode(l, b, c) }, vec![0x08]),
        (&|l, b, c| unsafe { YACAtomMapEncode(l, b, c) }, vec![0x09]),
        (
            &|l, b, c| unsafe { YACAtomBlobEncode(l, b, c, 500) },
            vec![0x0B, 0, 0, 0, 0, 0, 0, 0x01, 0xF3],
        ),
        (
            &|l, b, c| unsafe { YACAtomBlobEncode(l, b, c, 1) },
            vec![0x0B, 0, 0, 0, 0, 0, 0, 0, 0],
        ),
        (
            &|l, b, c| unsafe { YACAtomBinEncode(l, b, c, null(), 0) },
            vec![0x80],
        ),
        (
            &|l, b, c| unsafe { YACAtomBinEncode(l, b, c, a64.as_ptr(), 64) },
            want_a64.clone(),
        ),
        (
            &|l, b, c| unsafe { YACAtomChunkEncode(l, b, c, a64.as_ptr(), 64) },
            want_a64,
        ),
        (
            &|l, b, c| unsafe { YACAtomStrEncode(l, b, c, hello.as_ptr().cast(), hello.len()) },
            [&[0xCBu8][..], hello.as_bytes()].concat(),
        ),
        (
            &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, tai.as_ptr(), 12) },
            [&[0x19u8][..], &tai].concat(),
        ),
        (
            &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, tai.as_ptr(), 8) },
            [&[0x18u8][..], &tai[..8]].concat(),
        ),
        (
            &|l, b, c| unsafe { YACAtomMagicEncode(l, b, c, magic_pub.as_ptr(), 12) },
            [&b"KEKScm/pub"[..], &[0; 6]].concat(),
        ),
        (
            &|l, b, c| unsafe { YACAtomMagicEncode(l, b, c, b"cm/encrypted".as_ptr(), 12) },
            b"KEKScm/encrypted".to_vec(),
        ),
        (
            &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, 1.0) },
            vec![0x10, 0x3C, 0x00],
        ),
        (
            &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, 0.0) },
            vec![0x10, 0, 0],
        ),
        (
            &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, 1.0 + f64::from(f32::EPSILON)) },
            vec![0x11, 0x3F, 0x80, 0, 1],
        ),
        (
            &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, 0.1) },
            vec![0x12, 0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A],
        ),
        (
            &|l, b, c| unsafe { YACAtomFloatRawEncode(l, b, c, [0x3Cu8, 0x01].as_ptr(), 2) },
            vec![0x10, 0x3C, 0x01],
        ),
        (
            &|l, b, c| unsafe { YACAtomRawEncode(l, b, c, 0x05, [1u8, 2].as_ptr(), 2) },
            vec![0x05, 1, 2],
        ),
        (
            &|l, b, c| unsafe { YACAtomRawEncode(l, b, c, 0x7F, null(), 0) },
            vec![0x7F],
        ),
    ];
    for (f, want) in table {
        check(*f, want);
    }
}

#[test]
fn invalid_values_are_refused() {
    let nul = "a\0b";
    let surrogate = [0xEDu8, 0xA0, 0x80];
    let tai_zero_ns = [0x40u8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let reserved = [0x80u8, 0, 0, 0, 0, 0, 0, 0];
    let one_f32 = [0x3Fu8, 0x80, 0, 0];
    let thirteen = [b'x'; 13];
    use YACErr::*;
    // SAFETY (all closures): as in every_encoder_writes_the_vectors.
    let table: [(Call<'_>, YACErr); 14] = [
        (
            &|l, b, c| unsafe { YACAtomStrEncode(l, b, c, nul.as_ptr().cast(), 3) },
            YACErrBadUTF8,
        ),
        (
            &|l, b, c| unsafe { YACAtomStrEncode(l, b, c, surrogate.as_ptr().cast(), 3) },
            YACErrBadUTF8,
        ),
        (
            &|l, b, c| unsafe { YACAtomStrEncode(l, b, c, null(), 1) },
            YACErrInvalid,
        ),
        (
            &|l, b, c| unsafe { YACAtomBlobEncode(l, b, c, 0) },
            YACErrInvalid,
        ),
        (
            &|l, b, c| unsafe { YACAtomHexletEncode(l, b, c, null()) },
            YACErrInvalid,
        ),
        (
            &|l, b, c| unsafe { YACAtomBinEncode(l, b, c, null(), 2) },
            YACErrInvalid,
        ),
        (
            &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, tai_zero_ns.as_ptr(), 12) },
            YACErrTAI64NonMinimal,
        ),
        (
            &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, reserved.as_ptr(), 8) },
            YACErrTAI64TooBig,
        ),
        (
            &|l, b, c| unsafe { YACAtomTAI64Encode(l, b, c, reserved.as_ptr(), 7) },
            YACErrInvalid,
        ),
        (
            &|l, b, c| unsafe { YACAtomMagicEncode(l, b, c, thirteen.as_ptr(), 13) },
            YACErrInvalid,
        ),
        (
            &|l, b, c| unsafe { YACAtomMagicEncode(l, b, c, b"cm/pub".as_ptr(), 6) },
            YACErrInvalid,
        ),
        (
            &|l, b, c| unsafe { YACAtomFloatEncode(l, b, c, -0.0) },
            YACErrFloatNonMinimal,
        ),
        (
            &|l, b, c| unsafe { YACAtomFloatRawEncode(l, b, c, one_f32.as_ptr(), 4) },
            YACErrFloatNonMinimal,
        ),
        (
            &|l, b, c| unsafe { YACAtomFloatRawEncode(l, b, c, one_f32.as_ptr(), 3) },
            YACErrInvalid,
        ),
    ];
    for (f, e) in table {
        refuse(f, e);
        // Validation comes before the room check: no size is promised
        // for a value that cannot be encoded.
        let mut len = 9usize;
        assert_eq!(f(&mut len, null_mut(), 0), e);
        assert_eq!(len, 0);
    }
}

#[test]
fn float_to_double() {
    let table: [(&[u8], f64); 4] = [
        (&[0x3C, 0x00], 1.0),
        (&[0xC0, 0x00], -2.0),
        (&[0x3F, 0x80, 0, 1], 1.0 + f64::from(f32::EPSILON)),
        (&[0x3F, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A], 0.1),
    ];
    for (p, want) in table {
        let mut d = 0.0f64;
        // SAFETY: live buffers of the stated lengths.
        let r = unsafe { YACFloatToDouble(&mut d, p.as_ptr(), p.len()) };
        assert_eq!((r, d), (YACErr::YACErrNo, want));
    }
    let mut d = 0.0f64;
    let wide = [0u8; 16];
    // SAFETY: live buffers of the stated lengths, or NULL.
    unsafe {
        assert_eq!(
            YACFloatToDouble(&mut d, wide.as_ptr(), 16),
            YACErr::YACErrInvalid
        );
        assert_eq!(
            YACFloatToDouble(null_mut(), wide.as_ptr(), 2),
            YACErr::YACErrInvalid
        );
        assert_eq!(YACFloatToDouble(&mut d, null(), 2), YACErr::YACErrInvalid);
    }
}
