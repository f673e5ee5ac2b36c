//! libyac against the independent reference model of the test kit (testkit/): the
//! document at the start of the input (atoms walked with the structure
//! rules) must give the same atoms at the same offsets and the same outcome,
//! and at each of the first offsets of the input the two atom decoders must
//! agree on the atom or the error. There the C entry point `YACAtomDecode`
//! (which decodes the common atoms on a path of its own) must also give
//! exactly what the core decoder gives. Any disagreement panics with the
//! input.
#![no_main]

use yac_testkit as common;

use std::mem::MaybeUninit;

use common::walk::{check_atom_agree, check_doc_agree, hex_head};
use libfuzzer_sys::fuzz_target;
use yac::atom::{decode, Atom};
use yac::Error;
use yac_capi::ffi::atom::{YACAtom, YACAtomDecode};
use yac_capi::ffi::YACErr;

/// `YACAtomDecode` of `buf` equals the core decoder's result.
fn check_c_atom_agrees(buf: &[u8]) {
    let mut got = usize::MAX;
    let mut a = MaybeUninit::<YACAtom>::zeroed();
    // SAFETY: valid pointers to a usize, a YACAtom and `buf.len()` bytes.
    let e = unsafe { YACAtomDecode(&mut got, a.as_mut_ptr(), buf.as_ptr(), buf.len()) };
    // SAFETY: zeroed, then possibly written by the call: initialised.
    let a = unsafe { a.assume_init() };
    // Only formatted when a check fails.
    let at = || hex_head(buf);
    match decode(buf) {
        Err(err) => {
            assert_eq!(e, YACErr::from(err), "error on {}", at());
            let want = if let Error::NotEnough(n) = err { n } else { 0 };
            assert_eq!(got, want, "*got after {err:?} on {}", at());
        }
        Ok((atom, used)) => {
            assert_eq!(e, YACErr::YACErrNo, "on {}", at());
            assert_eq!(got, used, "length on {}", at());
            assert_eq!(a.typ as u32, atom.item_type() as u32, "type on {}", at());
            assert_eq!(Some(&a.tag), buf.first(), "tag on {}", at());
            // SAFETY: each union member read is the one `typ` says is set
            // (all are plain data).
            unsafe {
                match atom {
                    Atom::Uint(u) => assert_eq!(a.v.uint, u, "on {}", at()),
                    Atom::Nint(i) => assert_eq!(a.v.sint, i, "on {}", at()),
                    Atom::Blob {
                        chunk_len_minus_one,
                    } => assert_eq!(a.v.uint, chunk_len_minus_one, "on {}", at()),
                    Atom::Str(s) => check_bytes(&a, s.as_bytes(), &at),
                    Atom::Bin(b)
                    | Atom::Float(b)
                    | Atom::Tai64(b)
                    | Atom::BigInt { magnitude: b, .. } => check_bytes(&a, b, &at),
                    Atom::Hexlet(h) => check_bytes(&a, h, &at),
                    Atom::Magic(m) => check_bytes(&a, m, &at),
                    Atom::Eoc | Atom::Nil | Atom::Bool(_) | Atom::List | Atom::Map => {}
                }
            }
        }
    }
}

/// The atom's bytes member points at `want`.
///
/// # Safety
/// `a.v.bytes` must be the member set.
unsafe fn check_bytes(a: &YACAtom, want: &[u8], at: &dyn Fn() -> String) {
    // SAFETY: per this function's contract.
    let b = unsafe { a.v.bytes };
    assert_eq!(
        (b.ptr, b.len),
        (want.as_ptr(), want.len()),
        "bytes on {}",
        at()
    );
}

fuzz_target!(|data: &[u8]| {
    let _ = check_doc_agree(data);
    for at in 0..data.len().min(256) {
        let _ = check_atom_agree(&data[at..]);
        check_c_atom_agrees(&data[at..]);
    }
});
