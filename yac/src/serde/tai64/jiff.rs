//! `#[serde(with = "keks::serde::tai64::jiff")]` (feature `jiff`): a
//! [`jiff::Timestamp`] (jiff 0.2) as a TAI64/TAI64N label. The rules are
//! the parent module's. A `jiff::Zoned` converts with `.timestamp()`; its
//! time zone is not part of the label.
//!
//! ```
//! use jiff::Timestamp;
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Log {
//!     #[serde(with = "keks::serde::tai64::jiff")]
//!     at: Timestamp,
//! }
//! // 2024-11-20 12:19:08.921772500 UTC, the spec's TAI64N vector.
//! let at = Timestamp::new(1_732_105_148, 921_772_500).unwrap();
//! let doc = keks::to_vec(&Log { at })?;
//! let label = [0x19, 0x40, 0, 0, 0, 0x67, 0x3D, 0xD3, 0xE1, 0x36, 0xF1, 0x21, 0xD4];
//! assert_eq!(&doc[4..17], label);
//! assert_eq!(keks::from_slice::<Log>(&doc)?.at, at);
//! # Ok::<(), keks::serde::Error>(())
//! ```

use ::jiff::Timestamp;
use serde::{Deserializer, Serializer};

const NAME: &str = "jiff::Timestamp";

/// Writes `t` as the shortest TAI64/TAI64N label.
pub fn serialize<S: Serializer>(t: &Timestamp, s: S) -> Result<S::Ok, S::Error> {
    // jiff gives the fraction the sign of the instant (-1.5 s is -1 s and
    // -500000000 ns); the label wants whole seconds down and a fraction up.
    let (secs, nsec) = (t.as_second(), t.subsec_nanosecond());
    let (secs, nsec) = match u32::try_from(nsec) {
        Ok(n) => (secs, n),
        // jiff's range is far inside i64, and |nsec| below 10^9.
        Err(_) => (secs - 1, 1_000_000_000 - nsec.unsigned_abs()),
    };
    super::write_utc(s, secs, nsec, NAME)
}

/// Reads a TAI64, TAI64N or TAI64NA label.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Timestamp, D::Error> {
    let utc = super::read_utc(d)?;
    // `nsec` is at most 999999999, which fits i32; jiff takes a positive
    // fraction with negative seconds.
    let nsec = i32::try_from(utc.nsec).map_err(|_| super::too_far(&utc, NAME))?;
    Timestamp::new(utc.secs, nsec).map_err(|_| super::too_far(&utc, NAME))
}

crate::serde::option::option_module!(::jiff::Timestamp, "keks::serde::tai64::jiff::option");
