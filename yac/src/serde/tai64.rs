//! `#[serde(with = "keks::serde::tai64")]`: a [`SystemTime`] as a TAI64
//! (whole seconds) or TAI64N label, read from a TAI64, TAI64N or TAI64NA
//! (whose attoseconds `SystemTime` cannot hold, so they are dropped).
//!
//! `SystemTime` counts UTC seconds without leap seconds; the label counts
//! TAI seconds, so the conversion adds the leap seconds in force
//! ([`crate::tai64::utc_to_label`]). A label inside a leap second reads as
//! the last second before it.
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

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::{de, ser, Deserializer, Serializer};

use super::ext::{self, Ext};

/// Writes `t` as the shortest TAI64/TAI64N label.
pub fn serialize<S: Serializer>(t: &SystemTime, s: S) -> Result<S::Ok, S::Error> {
    let (secs, nsec) = unix(t).ok_or_else(|| ser::Error::custom("time out of TAI64's range"))?;
    let mut label = [0u8; 16];
    let n = crate::tai64::utc_to_label(secs, nsec, &mut label).map_err(ser::Error::custom)?;
    ext::serialize(s, Ext::Tai64, label.get(..n).unwrap_or(&[]))
}

/// Reads a TAI64, TAI64N or TAI64NA label.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<SystemTime, D::Error> {
    let f = ext::deserialize_fixed(d, &["Tai64"])?;
    let utc = crate::tai64::label_to_utc(f.bytes()).map_err(de::Error::custom)?;
    let t = match u64::try_from(utc.secs) {
        Ok(s) => UNIX_EPOCH.checked_add(Duration::new(s, utc.nsec)),
        Err(_) => UNIX_EPOCH
            .checked_sub(Duration::from_secs(utc.secs.unsigned_abs()))
            .and_then(|t| t.checked_add(Duration::from_nanos(utc.nsec.into()))),
    };
    t.ok_or_else(|| de::Error::custom("TAI64 label out of SystemTime's range"))
}

/// UNIX seconds (floor) and nanoseconds of `t`.
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
