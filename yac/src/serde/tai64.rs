//! `#[serde(with = "keks::serde::tai64")]`: a [`SystemTime`] (feature
//! `std`) as a TAI64 (whole seconds) or TAI64N label, read from a TAI64,
//! TAI64N or TAI64NA. Behind features, the same for the ecosystem's time
//! types, each in its own module:
//!
//! | module | type | feature |
//! |---|---|---|
//! | `keks::serde::tai64` | `std::time::SystemTime` | `std` (default) |
//! | [`keks::serde::tai64::time`][tai64-time] | `time::OffsetDateTime`, `time::UtcDateTime` (`utc` submodule) | `time` |
//! | [`keks::serde::tai64::chrono`][tai64-chrono] | `chrono::DateTime<chrono::Utc>` | `chrono` |
//! | [`keks::serde::tai64::jiff`][tai64-jiff] | `jiff::Timestamp` (jiff 0.2) | `jiff` |
//!
//! All of them write the shortest label (TAI64 when the nanoseconds are 0,
//! else TAI64N) and read TAI64, TAI64N and TAI64NA, with one rule set, the
//! core's ([`crate::tai64`]):
//!
//! - These types count UTC seconds without leap seconds (UNIX time); the
//!   label counts TAI seconds, so the conversion adds the leap seconds in
//!   force, TAI - UTC ([`crate::tai64::utc_to_label`]; 10 s before 1972).
//! - A label inside an inserted leap second (23:59:60) reads as 23:59:59
//!   with its nanoseconds, except into `chrono`, which has a name for leap
//!   seconds and gets the exact instant.
//! - TAI64NA: none of these types holds less than a nanosecond, so the
//!   attoseconds are dropped (the instant is truncated to the nanosecond,
//!   towards the past), as for any label read into UTC
//!   ([`crate::tai64::tai_to_utc`]). `keks::Value` keeps them.
//! - A label outside the type's range is a serde error naming the type;
//!   so is an instant outside TAI64's (`secs` beyond +-2^62).
//! - A value of another YAC type (a HEXLET, a STR) is a serde error, as
//!   for any mismatched type.
//!
//! ```
//! use std::time::{Duration, SystemTime, UNIX_EPOCH};
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Log {
//!     #[serde(with = "keks::serde::tai64")]
//!     at: SystemTime,
//! }
//! // 2017-01-01 00:00:00 UTC, the spec's vector: 18 40000000586846A5.
//! let at = UNIX_EPOCH + Duration::from_secs(1_483_228_800);
//! let doc = keks::to_vec(&Log { at })?;
//! assert_eq!(&doc[4..], [0x18, 0x40, 0, 0, 0, 0x58, 0x68, 0x46, 0xA5, 0x00]);
//! assert_eq!(keks::from_slice::<Log>(&doc)?.at, at);
//! # Ok::<(), keks::serde::Error>(())
//! ```
// Each feature module is linked where this build has it, else to the
// published docs.
#![cfg_attr(feature = "time", doc = "<!-- -->\n\n[tai64-time]: self::time")]
#![cfg_attr(
    not(feature = "time"),
    doc = "<!-- -->\n\n[tai64-time]: https://docs.rs/keks/latest/keks/serde/tai64/time/index.html"
)]
#![cfg_attr(feature = "chrono", doc = "<!-- -->\n\n[tai64-chrono]: self::chrono")]
#![cfg_attr(
    not(feature = "chrono"),
    doc = "<!-- -->\n\n[tai64-chrono]: https://docs.rs/keks/latest/keks/serde/tai64/chrono/index.html"
)]
#![cfg_attr(feature = "jiff", doc = "<!-- -->\n\n[tai64-jiff]: self::jiff")]
#![cfg_attr(
    not(feature = "jiff"),
    doc = "<!-- -->\n\n[tai64-jiff]: https://docs.rs/keks/latest/keks/serde/tai64/jiff/index.html"
)]

#[cfg(feature = "std")]
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{de, ser, Deserializer, Serializer};

use super::ext::{self, Ext};
use crate::tai64::{Tai, Utc};

#[cfg(feature = "std")]
super::option::option_module!(std::time::SystemTime, "keks::serde::tai64::option");
#[cfg(feature = "chrono")]
pub mod chrono;
#[cfg(feature = "jiff")]
pub mod jiff;
#[cfg(feature = "time")]
pub mod time;

/// Writes the TAI instant `t` of a `what` as its shortest label.
fn write_tai<S: Serializer>(s: S, t: &Tai, what: &str) -> Result<S::Ok, S::Error> {
    let mut label = [0u8; 16];
    let n =
        crate::tai64::tai_to_label(t, &mut label).map_err(|e| out_of_range::<S::Error>(what, e))?;
    ext::serialize(s, Ext::Tai64, label.get(..n).unwrap_or(&[]))
}

/// Writes the UNIX time `secs` (floor) + `nsec` (0..=999999999) of a
/// `what` as the shortest label.
fn write_utc<S: Serializer>(s: S, secs: i64, nsec: u32, what: &str) -> Result<S::Ok, S::Error> {
    let t = crate::tai64::utc_to_tai(secs, nsec).map_err(|e| out_of_range::<S::Error>(what, e))?;
    write_tai(s, &t, what)
}

/// Reads a TAI64, TAI64N or TAI64NA label as UTC (see the module docs).
fn read_utc<'de, D: Deserializer<'de>>(d: D) -> Result<Utc, D::Error> {
    let f = ext::deserialize_fixed(d, &["Tai64"])?;
    crate::tai64::label_to_utc(f.bytes()).map_err(de::Error::custom)
}

/// The error for an instant outside TAI64's range, when writing a `what`.
fn out_of_range<E: ser::Error>(what: &str, e: crate::Error) -> E {
    E::custom(format_args!("{what} out of TAI64's range ({e})"))
}

/// The error for a label that `what` cannot hold.
fn too_far<E: de::Error>(utc: &Utc, what: &str) -> E {
    E::custom(format_args!(
        "TAI64 label (UNIX time {} s) out of {what}'s range",
        utc.secs
    ))
}

/// Writes `t` as the shortest TAI64/TAI64N label.
#[cfg(feature = "std")]
pub fn serialize<S: Serializer>(t: &SystemTime, s: S) -> Result<S::Ok, S::Error> {
    let (secs, nsec) =
        unix(t).ok_or_else(|| ser::Error::custom("SystemTime out of TAI64's range"))?;
    write_utc(s, secs, nsec, "SystemTime")
}

/// Reads a TAI64, TAI64N or TAI64NA label.
#[cfg(feature = "std")]
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SystemTime, D::Error> {
    let utc = read_utc(d)?;
    let t = match u64::try_from(utc.secs) {
        Ok(s) => UNIX_EPOCH.checked_add(Duration::new(s, utc.nsec)),
        Err(_) => UNIX_EPOCH
            .checked_sub(Duration::from_secs(utc.secs.unsigned_abs()))
            .and_then(|t| t.checked_add(Duration::from_nanos(utc.nsec.into()))),
    };
    t.ok_or_else(|| too_far(&utc, "SystemTime"))
}

/// UNIX seconds (floor) and nanoseconds of `t`.
#[cfg(feature = "std")]
fn unix(t: &SystemTime) -> Option<(i64, u32)> {
    match t.duration_since(UNIX_EPOCH) {
        Ok(d) => Some((i64::try_from(d.as_secs()).ok()?, d.subsec_nanos())),
        Err(before) => {
            let d = before.duration();
            let secs = i64::try_from(d.as_secs()).ok()?.checked_neg()?;
            match d.subsec_nanos() {
                0 => Some((secs, 0)),
                ns => Some((secs.checked_sub(1)?, 1_000_000_000 - ns)),
            }
        }
    }
}
