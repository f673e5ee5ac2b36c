//! `#[serde(with = "keks::serde::tai64::time")]` (feature `time`): a
//! [`time::OffsetDateTime`] as a TAI64/TAI64N label, and, in [`utc`], a
//! [`time::UtcDateTime`]. The rules are the parent module's.
//!
//! The label holds an instant, not an offset: an `OffsetDateTime` is
//! written as its instant and read back at UTC (`==` compares instants, so
//! it is equal). `time::PrimitiveDateTime` has no time zone and so no
//! instant: convert it with `.assume_utc()` (or `.assume_offset(..)`)
//! first.
//!
//! ```
//! use time::{OffsetDateTime, UtcDateTime, UtcOffset};
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Log {
//!     #[serde(with = "keks::serde::tai64::time")]
//!     at: OffsetDateTime,
//!     #[serde(with = "keks::serde::tai64::time::utc")]
//!     seen: UtcDateTime,
//! }
//! let log = Log {
//!     // 2017-01-01 01:00:00 +01:00 is 2017-01-01 00:00:00 UTC, the spec's
//!     // vector: 18 40000000586846A5.
//!     at: OffsetDateTime::from_unix_timestamp(1_483_228_800)?
//!         .to_offset(UtcOffset::from_hms(1, 0, 0)?),
//!     // Half a second before 1970: TAI64N.
//!     seen: UtcDateTime::from_unix_timestamp_nanos(-500_000_000)?,
//! };
//! let doc = keks::to_vec(&log)?;
//! assert_eq!(&doc[4..13], [0x18, 0x40, 0, 0, 0, 0x58, 0x68, 0x46, 0xA5]);
//! let back: Log = keks::from_slice(&doc)?;
//! assert_eq!(back, log);
//! assert_eq!(back.at.offset(), UtcOffset::UTC);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use ::time::OffsetDateTime;
use serde::{Deserializer, Serializer};

const NAME: &str = "time::OffsetDateTime";

/// Writes the instant of `t` as the shortest TAI64/TAI64N label.
pub fn serialize<S: Serializer>(t: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
    super::write_utc(s, t.unix_timestamp(), t.nanosecond(), NAME)
}

/// Reads a TAI64, TAI64N or TAI64NA label, at UTC.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<OffsetDateTime, D::Error> {
    let utc = super::read_utc(d)?;
    OffsetDateTime::from_unix_timestamp_nanos(nanos(&utc)).map_err(|_| super::too_far(&utc, NAME))
}

/// Nanoseconds since the UNIX epoch (an `i64` of seconds times 10^9 fits
/// `i128` with room to spare).
fn nanos(utc: &crate::tai64::Utc) -> i128 {
    i128::from(utc.secs) * 1_000_000_000 + i128::from(utc.nsec)
}

/// `#[serde(with = "keks::serde::tai64::time::utc")]`: a
/// [`time::UtcDateTime`] as a TAI64/TAI64N label.
pub mod utc {
    use ::time::UtcDateTime;
    use serde::{Deserializer, Serializer};

    const NAME: &str = "time::UtcDateTime";

    /// Writes `t` as the shortest TAI64/TAI64N label.
    pub fn serialize<S: Serializer>(t: &UtcDateTime, s: S) -> Result<S::Ok, S::Error> {
        super::super::write_utc(s, t.unix_timestamp(), t.nanosecond(), NAME)
    }

    /// Reads a TAI64, TAI64N or TAI64NA label.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<UtcDateTime, D::Error> {
        let utc = super::super::read_utc(d)?;
        UtcDateTime::from_unix_timestamp_nanos(super::nanos(&utc))
            .map_err(|_| super::super::too_far(&utc, NAME))
    }

    crate::serde::option::option_module!(
        ::time::UtcDateTime,
        "keks::serde::tai64::time::utc::option"
    );
}

crate::serde::option::option_module!(::time::OffsetDateTime, "keks::serde::tai64::time::option");
