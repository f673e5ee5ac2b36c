//! libyac against the independent reference model of tests/common: the
//! document at the start of the input (atoms walked with the structure
//! rules) must give the same atoms at the same offsets and the same outcome,
//! and at each of the first offsets of the input the two atom decoders must
//! agree on the atom or the error. Any disagreement panics with the input.
#![no_main]

#[path = "../support/common/mod.rs"]
mod common;

use common::walk::{check_atom_agree, check_doc_agree};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = check_doc_agree(data);
    for at in 0..data.len().min(256) {
        let _ = check_atom_agree(&data[at..]);
    }
});
