//! `#[serde(with = "keks::serde::tai64::chrono")]` (feature `chrono`): a
//! [`chrono::DateTime<Utc>`](chrono::DateTime) as a TAI64/TAI64N label.
//! The rules are the parent module's, and one more: chrono has a name for
//! a leap second (nanoseconds 1_000_000_000 and up, in the 23:59:59 second),
//! so 23:59:60 goes both ways exactly. Writing a leap second that the IERS
//! table ([`crate::tai64::LEAP_SECONDS`]) does not have is an error: TAI
//! has no second for it.
//!
//! A `DateTime` in another time zone converts with `.with_timezone(&Utc)`
//! (`.to_utc()`).
//!
//! ```
//! use chrono::{DateTime, Utc};
//! #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
//! struct Log {
//!     #[serde(with = "keks::serde::tai64::chrono")]
//!     at: DateTime<Utc>,
//! }
//! // 2016-12-31 23:59:60.25 UTC, the last leap second: TAI64N
//! // 40000000586846A4 0EE6B280 (FORMAT.md: 23:59:59 is ...A3, 2017 ...A5).
//! let at = DateTime::from_timestamp(1_483_228_799, 1_250_000_000).unwrap();
//! let doc = keks::to_vec(&Log { at })?;
//! assert_eq!(&doc[4..17], [0x19, 0x40, 0, 0, 0, 0x58, 0x68, 0x46, 0xA4, 0x0E, 0xE6, 0xB2, 0x80]);
//! assert_eq!(keks::from_slice::<Log>(&doc)?.at, at);
//! # Ok::<(), keks::serde::Error>(())
//! ```

use ::chrono::{DateTime, Utc};
use serde::{ser, Deserializer, Serializer};

use crate::tai64::{utc_to_tai, LEAP_SECONDS};

const NAME: &str = "chrono::DateTime<Utc>";
const NS: u32 = 1_000_000_000;

/// Writes `t` as the shortest TAI64/TAI64N label.
pub fn serialize<S: Serializer>(t: &DateTime<Utc>, s: S) -> Result<S::Ok, S::Error> {
    let (secs, nsec) = (t.timestamp(), t.timestamp_subsec_nanos());
    if nsec < NS {
        return super::write_utc(s, secs, nsec, NAME);
    }
    // In a leap second: `secs` is the 23:59:59 before it, whose TAI second
    // is followed by the leap second's when the next UTC midnight starts a
    // new TAI - UTC.
    if !LEAP_SECONDS
        .iter()
        .any(|&(from, _)| secs.checked_add(1) == Some(from))
    {
        return Err(ser::Error::custom(format_args!(
            "{NAME} in a leap second after UNIX time {secs} s, which UTC did not have"
        )));
    }
    let mut tai =
        utc_to_tai(secs, nsec - NS).map_err(|e| super::out_of_range::<S::Error>(NAME, e))?;
    tai.secs += 1;
    super::write_tai(s, &tai, NAME)
}

/// Reads a TAI64, TAI64N or TAI64NA label (a leap second as chrono names
/// it).
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<DateTime<Utc>, D::Error> {
    let utc = super::read_utc(d)?;
    let nsec = if utc.leap { utc.nsec + NS } else { utc.nsec };
    DateTime::from_timestamp(utc.secs, nsec).ok_or_else(|| super::too_far(&utc, NAME))
}

crate::serde::option::option_module!(
    ::chrono::DateTime<::chrono::Utc>,
    "keks::serde::tai64::chrono::option"
);
