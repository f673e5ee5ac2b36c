//! Decodes atoms back to back over the input (after a final error, resumes
//! at the next byte) and checks, for each start:
//! - decoding never panics and never returns `NoMem`/`Invalid`;
//! - an accepted atom takes between 1 and the available bytes, and every
//!   prefix of it is `NotEnough(n)` with prefix + n <= its length, while any
//!   longer input decodes to the same atom;
//! - `NotEnough(n)` stays consistent as the input grows: with j < n more
//!   bytes it is still `NotEnough(m)` with m >= n - j; a final error on a
//!   prefix is the same final error on the whole input.
#![no_main]

use yac_testkit as common;

use common::walk::check_atom_prefixes;
use libfuzzer_sys::fuzz_target;
use yac::Error;

fuzz_target!(|data: &[u8]| {
    let mut pos = 0;
    while pos < data.len() {
        match check_atom_prefixes(&data[pos..]) {
            Ok(used) => pos += used,
            Err(Error::NotEnough(_)) => break,
            Err(_) => pos += 1,
        }
    }
});
