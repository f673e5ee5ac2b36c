//! `YACAtomsDecode` (many atoms per call) against `YACAtomDecode` called
//! atom by atom: the same atoms, the same stop and error, whatever the
//! capacity, on generated and mutated documents.

use yac_capi::ffi::atom::{YACAtom, YACAtomDecode, YACAtomValue, YACAtomsDecode, YACBytes};
use yac_capi::ffi::YACErr;
use yac_testkit::{encode, gen_value, mutate, Rng};

fn blank() -> YACAtom {
    YACAtom {
        v: YACAtomValue {
            bytes: YACBytes {
                ptr: core::ptr::null(),
                len: 0,
            },
        },
        typ: 0,
        tag: 0,
    }
}

/// What an atom means: type, tag and the value's bytes (the union's two
/// words; the decoders write the same member for the same atom, and zero
/// the word they do not use only for word values, hence the type-directed
/// view).
fn meaning(a: &YACAtom) -> (u32, u8, u64, usize) {
    // SAFETY: every member is plain data; for word types the first word
    // is the value, for byte types (ptr, len).
    unsafe {
        match a.typ {
            // HEXLET, FLOAT, TAI64, MAGIC, BIN, STR, Pbig, Nbig.
            5 | 11..=17 => (a.typ, a.tag, a.v.bytes.ptr as u64, a.v.bytes.len),
            _ => (a.typ, a.tag, a.v.uint, 0),
        }
    }
}

/// `YACAtomDecode` at the start of `buf`.
fn one(buf: &[u8]) -> (YACErr, usize, (u32, u8, u64, usize)) {
    let mut a = blank();
    let mut got = 0usize;
    // SAFETY: valid pointers to locals and to `buf`.
    let e = unsafe { YACAtomDecode(&mut got, &mut a, buf.as_ptr(), buf.len()) };
    (e, got, meaning(&a))
}

fn batch_agrees(buf: &[u8], cap: usize) {
    let mut atoms = vec![blank(); cap];
    let (mut n, mut got) = (usize::MAX, usize::MAX);
    // SAFETY: valid pointers to locals, to `atoms` (cap atoms) and `buf`.
    let e = unsafe {
        YACAtomsDecode(
            &mut n,
            &mut got,
            atoms.as_mut_ptr(),
            cap,
            buf.as_ptr(),
            buf.len(),
        )
    };
    assert!(n <= cap);
    let mut off = 0;
    for (i, a) in atoms.iter().take(n).enumerate() {
        let (e1, used, want) = one(&buf[off..]);
        assert_eq!(e1, YACErr::YACErrNo, "atom {i}");
        assert_eq!(meaning(a), want, "atom {i}");
        off += used;
    }
    assert_eq!(got, off);
    if n == cap || off == buf.len() {
        assert_eq!(e, YACErr::YACErrNo);
    } else {
        let (next, _, _) = one(&buf[off..]);
        assert_ne!(next, YACErr::YACErrNo);
        assert_eq!(e, next);
    }
}

#[test]
fn batch_agrees_with_one_by_one() {
    let mut rng = Rng::new(31);
    let mut stopped_at_an_error = 0;
    // Under Miri (which interprets every step) a tenth of the rounds, and
    // no 70 000-byte strings.
    let (rounds, big) = if cfg!(miri) {
        (300, 2_000)
    } else {
        (3000, 70_000)
    };
    for i in 0..rounds {
        let v = gen_value(&mut rng, 4, if i % 100 == 0 { big } else { 200 });
        let mut doc = encode(&v);
        if i % 2 == 1 {
            mutate(&mut rng, &mut doc);
        }
        for cap in [0, 1, 2, 7, doc.len() + 1] {
            batch_agrees(&doc, cap);
        }
        let mut atoms = vec![blank(); doc.len() + 1];
        let (mut n, mut got) = (0, 0);
        // SAFETY: as in `batch_agrees`.
        let e = unsafe {
            YACAtomsDecode(
                &mut n,
                &mut got,
                atoms.as_mut_ptr(),
                atoms.len(),
                doc.as_ptr(),
                doc.len(),
            )
        };
        stopped_at_an_error += usize::from(e != YACErr::YACErrNo);
    }
    assert!(
        stopped_at_an_error > rounds / 10,
        "mutations too mild: {stopped_at_an_error}"
    );
    batch_agrees(&[], 4);
}

#[test]
fn bad_arguments_are_invalid() {
    let (mut n, mut got) = (0usize, 0usize);
    let buf = [1u8];
    // SAFETY: NULL atoms with a nonzero capacity is refused unread.
    let e = unsafe { YACAtomsDecode(&mut n, &mut got, core::ptr::null_mut(), 1, buf.as_ptr(), 1) };
    assert_eq!(e, YACErr::YACErrInvalid);
    let mut a = [blank()];
    // SAFETY: NULL out-parameters are refused.
    let e = unsafe {
        YACAtomsDecode(
            core::ptr::null_mut(),
            &mut got,
            a.as_mut_ptr(),
            1,
            buf.as_ptr(),
            1,
        )
    };
    assert_eq!(e, YACErr::YACErrInvalid);
    // SAFETY: NULL input with a length is refused.
    let e = unsafe { YACAtomsDecode(&mut n, &mut got, a.as_mut_ptr(), 1, core::ptr::null(), 1) };
    assert_eq!(e, YACErr::YACErrInvalid);
}
