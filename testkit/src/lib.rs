//! Shared test support: an independent reference model of the format
//! ([`reference`](mod@reference)), random documents and mutations ([`gen`]), a walker
//! that runs libyac's atom decoder the same way as the reference ([`walk`]),
//! the FORMAT.md vector tables ([`vectors`]) and calendar dates for time
//! tests ([`dates`]). Used by the tests of every
//! package of the workspace and by the fuzz targets.

pub mod dates;
pub mod edits;
pub mod gen;
pub mod input;
pub mod reference;
pub mod vectors;
pub mod walk;

pub use gen::{edge_atom, gen_value, mutate, Rng};
pub use reference::{decode, decode_traced, encode, Kind, RefAtom, RefError, Value};

/// Parses hex with optional spaces ("0C 81 7B").
pub fn hex(s: &str) -> Vec<u8> {
    let digits: Vec<u8> = s.bytes().filter(|b| !b.is_ascii_whitespace()).collect();
    assert!(
        digits.chunks_exact(2).remainder().is_empty(),
        "odd hex: {s}"
    );
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect()
}

/// The benchmark documents (../shared/data/README.md): `$YAC_DATA_DIR`,
/// else `../shared/data` beside the checkout, as CI lays it out. `None`,
/// with a note on stderr, when `probe` is not there; under CI (`CI` set)
/// a missing directory fails the calling test instead.
pub fn shared_data_dir(probe: &str) -> Option<std::path::PathBuf> {
    let dir = match std::env::var_os("YAC_DATA_DIR") {
        Some(d) => std::path::PathBuf::from(d),
        // This crate is testkit/ in the checkout.
        None => std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data"),
    };
    if dir.join(probe).exists() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must have {}",
        dir.join(probe).display()
    );
    eprintln!("SKIPPED: no benchmark data at {}", dir.display());
    None
}
