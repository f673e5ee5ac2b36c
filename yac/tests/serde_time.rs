//! `keks::serde::tai64` and its modules for the ecosystem's time types
//! (features `time`, `chrono`, `jiff`): every type reads FORMAT.md's TAI64
//! vectors as the instants they name and writes the same bytes, round trips
//! across its range (before 1970, with nanoseconds), drops TAI64NA's
//! attoseconds, reads a leap second, and refuses what it cannot hold with
//! an error that names the type.
#![cfg(all(feature = "serde", feature = "std"))]

extern crate keks as yac;

use std::fmt::Debug;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use yac_testkit::dates::unix;
use yac_testkit::hex;

/// A time type behind its `with` module, built from UNIX time with the
/// type's own constructors (not through keks).
trait Case: Serialize + DeserializeOwned + PartialEq + Debug {
    /// The type's name as the errors give it.
    const NAME: &'static str;
    /// `secs` (floor) + `nsec` after 1970-01-01 UTC, if the type holds it.
    fn at(secs: i64, nsec: u32) -> Option<Self>;
    /// The same field through the module's `option` twin.
    type Twin: Serialize + DeserializeOwned + PartialEq + Debug;
    fn twin(v: Option<Self>) -> Self::Twin;
}

/// A newtype of an `Option` field through `$path` (an `option` module),
/// the twin of the `Case` `$case`.
macro_rules! twin {
    ($feature:literal $twin:ident $case:ident $path:literal $t:ty) => {
        #[cfg(feature = $feature)]
        #[derive(Debug, PartialEq, Serialize, Deserialize)]
        struct $twin(#[serde(with = $path)] Option<$t>);
        #[cfg(feature = $feature)]
        impl $twin {
            fn of(v: Option<$case>) -> Self {
                $twin(v.map(|$case(t)| t))
            }
        }
    };
}

twin!("std" SysTwin Sys "yac::serde::tai64::option" SystemTime);
twin!("time" TimeTwin Time "yac::serde::tai64::time::option" time::OffsetDateTime);
twin!("time" TimeUtcTwin TimeUtc "yac::serde::tai64::time::utc::option" time::UtcDateTime);
twin!("chrono" ChronoTwin Chrono "yac::serde::tai64::chrono::option" chrono::DateTime<chrono::Utc>);
twin!("jiff" JiffTwin Jiff "yac::serde::tai64::jiff::option" jiff::Timestamp);

#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Sys(#[serde(with = "yac::serde::tai64")] SystemTime);

impl Case for Sys {
    type Twin = SysTwin;
    fn twin(v: Option<Self>) -> SysTwin {
        SysTwin::of(v)
    }
    const NAME: &'static str = "SystemTime";
    fn at(secs: i64, nsec: u32) -> Option<Self> {
        let t = match u64::try_from(secs) {
            Ok(s) => UNIX_EPOCH.checked_add(Duration::from_secs(s))?,
            Err(_) => UNIX_EPOCH.checked_sub(Duration::from_secs(secs.unsigned_abs()))?,
        };
        t.checked_add(Duration::from_nanos(nsec.into())).map(Sys)
    }
}

#[cfg(feature = "time")]
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Time(#[serde(with = "yac::serde::tai64::time")] time::OffsetDateTime);

#[cfg(feature = "time")]
impl Case for Time {
    type Twin = TimeTwin;
    fn twin(v: Option<Self>) -> TimeTwin {
        TimeTwin::of(v)
    }
    const NAME: &'static str = "time::OffsetDateTime";
    fn at(secs: i64, nsec: u32) -> Option<Self> {
        let t = time::OffsetDateTime::from_unix_timestamp(secs).ok()?;
        // Not at UTC: the label holds the instant, and `==` compares
        // instants.
        let t = t.to_offset(time::UtcOffset::from_hms(-3, -30, 0).ok()?);
        t.replace_nanosecond(nsec).ok().map(Time)
    }
}

#[cfg(feature = "time")]
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct TimeUtc(#[serde(with = "yac::serde::tai64::time::utc")] time::UtcDateTime);

#[cfg(feature = "time")]
impl Case for TimeUtc {
    type Twin = TimeUtcTwin;
    fn twin(v: Option<Self>) -> TimeUtcTwin {
        TimeUtcTwin::of(v)
    }
    const NAME: &'static str = "time::UtcDateTime";
    fn at(secs: i64, nsec: u32) -> Option<Self> {
        let t = time::UtcDateTime::from_unix_timestamp(secs).ok()?;
        t.replace_nanosecond(nsec).ok().map(TimeUtc)
    }
}

#[cfg(feature = "chrono")]
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Chrono(#[serde(with = "yac::serde::tai64::chrono")] chrono::DateTime<chrono::Utc>);

#[cfg(feature = "chrono")]
impl Case for Chrono {
    type Twin = ChronoTwin;
    fn twin(v: Option<Self>) -> ChronoTwin {
        ChronoTwin::of(v)
    }
    const NAME: &'static str = "chrono::DateTime<Utc>";
    fn at(secs: i64, nsec: u32) -> Option<Self> {
        chrono::DateTime::from_timestamp(secs, nsec).map(Chrono)
    }
}

#[cfg(feature = "jiff")]
#[derive(Debug, PartialEq, Serialize, Deserialize)]
struct Jiff(#[serde(with = "yac::serde::tai64::jiff")] jiff::Timestamp);

#[cfg(feature = "jiff")]
impl Case for Jiff {
    type Twin = JiffTwin;
    fn twin(v: Option<Self>) -> JiffTwin {
        JiffTwin::of(v)
    }
    const NAME: &'static str = "jiff::Timestamp";
    fn at(secs: i64, nsec: u32) -> Option<Self> {
        // From nanoseconds, so that jiff itself picks the sign of the
        // fraction (negative before 1970).
        let ns = i128::from(secs) * 1_000_000_000 + i128::from(nsec);
        jiff::Timestamp::from_nanosecond(ns).ok().map(Jiff)
    }
}

/// FORMAT.md's TAI64 vectors as UNIX time (1970-01-01 00:00:00 TAI is
/// 1969-12-31 23:59:50 UTC, TAI - UTC being 10 s then), plus one before
/// 1970 with nanoseconds.
fn spec_vectors() -> Vec<(i64, u32, &'static str)> {
    vec![
        (-10, 0, "18 4000000000000000"),
        (0, 0, "18 400000000000000A"),
        (-11, 0, "18 3FFFFFFFFFFFFFFF"),
        (unix(1992, 6, 2, 8, 6, 43), 0, "18 400000002A2B2C2D"),
        (unix(1997, 10, 3, 18, 14, 48), 0, "18 4000000034353637"),
        (unix(2016, 12, 31, 23, 59, 59), 0, "18 40000000586846A3"),
        (unix(2017, 1, 1, 0, 0, 0), 0, "18 40000000586846A5"),
        (
            unix(2024, 11, 20, 12, 19, 8),
            921_772_500,
            "19 40000000673DD3E1 36F121D4",
        ),
        // 1969-12-31 23:59:59.5 UTC: whole seconds down, the fraction up.
        (-1, 500_000_000, "19 4000000000000009 1DCD6500"),
    ]
}

fn reads_and_writes_the_spec_vectors<T: Case>() {
    for (secs, nsec, label) in spec_vectors() {
        let want = T::at(secs, nsec).unwrap();
        let doc = hex(label);
        assert_eq!(yac::to_vec(&want).unwrap(), doc, "{} {label}", T::NAME);
        assert_eq!(yac::from_slice::<T>(&doc).unwrap(), want, "{label}");
    }
    // The core's writer (what the C library's YACWriteTAI64UTC writes).
    let mut buf = [0u8; 16];
    let mut w = yac::Writer::new(&mut buf);
    w.tai64_utc(1_732_105_148, 921_772_500).unwrap();
    let n = w.finish().unwrap();
    let got: T = yac::from_slice(&buf[..n]).unwrap();
    assert_eq!(got, T::at(1_732_105_148, 921_772_500).unwrap());
}

/// Instants across the range of every type (years 1 to 9999: jiff's ends
/// at 9999-12-30 22:00 UTC), before and after 1970, around the leap
/// seconds, with and without nanoseconds.
fn instants() -> Vec<(i64, u32)> {
    let mut v = vec![
        (unix(1, 1, 1, 0, 0, 0), 0),
        (unix(9999, 12, 30, 21, 59, 59), 999_999_999),
        (-1, 999_999_999),
        (-1, 1),
        (0, 1),
        (1_483_228_799, 999_999_999),
    ];
    for &(from, _) in yac::tai64::LEAP_SECONDS.iter() {
        v.extend([(from - 1, 0), (from, 0), (from - 1, 123_456_789)]);
    }
    let (mut s, mut ns) = (unix(1, 1, 1, 0, 0, 0), 0u32);
    while s < unix(9999, 1, 1, 0, 0, 0) {
        v.push((s, ns));
        s += 3_133_333_331;
        ns = (ns + 387_420_489) % 1_000_000_000;
    }
    v
}

fn round_trips<T: Case>() {
    for (secs, nsec) in instants() {
        let t = T::at(secs, nsec).unwrap();
        let doc = yac::to_vec(&t).unwrap();
        // The shortest label: TAI64N only with nanoseconds.
        assert_eq!(doc[0], if nsec == 0 { 0x18 } else { 0x19 }, "{t:?}");
        assert_eq!(yac::from_slice::<T>(&doc).unwrap(), t);
        // The same label as SystemTime's (one conversion for all types).
        assert_eq!(doc, yac::to_vec(&Sys::at(secs, nsec).unwrap()).unwrap());
    }
}

fn reads_tai64na_and_leap_seconds<T: Case>() {
    // TAI64NA: the attoseconds are dropped, never rounded up.
    let na = |l: &str| yac::from_slice::<T>(&hex(l)).unwrap();
    assert_eq!(
        na("1A 40000000586846A5 00000005 00000007"),
        T::at(1_483_228_800, 5).unwrap()
    );
    assert_eq!(
        na("1A 40000000586846A5 3B9AC9FF 3B9AC9FF"),
        T::at(1_483_228_800, 999_999_999).unwrap()
    );
    assert_eq!(
        na("1A 4000000000000009 00000000 00000001"),
        T::at(-1, 0).unwrap()
    );
}

/// Into the types without a leap second, 2016-12-31 23:59:60.5 reads as
/// 23:59:59.5.
fn leap_second_reads_as_2359_59<T: Case>() {
    let leap: T = yac::from_slice(&hex("19 40000000586846A4 1DCD6500")).unwrap();
    assert_eq!(leap, T::at(1_483_228_799, 500_000_000).unwrap());
}

fn refuses<T: Case>(doc: &str, says: &str) {
    let e = yac::from_slice::<T>(&hex(doc)).unwrap_err().to_string();
    assert!(e.contains(says), "{}: {doc}: {e}", T::NAME);
}

/// Labels beyond year 9999 (both ends of TAI64's range), and other types.
fn refuses_what_it_cannot_hold<T: Case>(range_too: bool) {
    if range_too {
        let out = format!("out of {}'s range", T::NAME);
        refuses::<T>("18 7FFFFFFFFFFFFFFF", &out);
        refuses::<T>("18 0000000000000000", &out);
        // One second after 9999-12-31 23:59:59 UTC.
        let mut buf = [0u8; 16];
        let mut w = yac::Writer::new(&mut buf);
        w.tai64_utc(unix(10_000, 1, 1, 0, 0, 0), 0).unwrap();
        let n = w.finish().unwrap();
        let e = yac::from_slice::<T>(&buf[..n]).unwrap_err();
        assert!(e.to_string().contains(&out), "{e}");
    }
    refuses::<T>("04 00000000000000000000000000000000", "Tai64");
    refuses::<T>("C1 41", "expected");
    // Labels the format refuses are refused as such.
    refuses::<T>("19 4000000000000000 00000000", "shorter form");
    refuses::<T>("18 8000000000000000", "2^63");
}

/// The `option` twin writes `None` as NIL and `Some` as the plain module
/// does, and reads both back.
fn option_twin_is_nil_or_the_label<T: Case>() {
    let none = T::twin(None);
    assert_eq!(yac::to_vec(&none).unwrap(), [0x01], "{}", T::NAME);
    assert_eq!(yac::from_slice::<T::Twin>(&[0x01]).unwrap(), none);
    for (secs, nsec, label) in spec_vectors() {
        let some = T::twin(T::at(secs, nsec));
        let doc = hex(label);
        assert_eq!(yac::to_vec(&some).unwrap(), doc, "{} {label}", T::NAME);
        assert_eq!(yac::from_slice::<T::Twin>(&doc).unwrap(), some);
    }
    let hexlet = hex("04 00000000000000000000000000000000");
    let e = yac::from_slice::<T::Twin>(&hexlet).unwrap_err().to_string();
    assert!(e.contains("Tai64"), "{}: {e}", T::NAME);
}

macro_rules! cases {
    ($($feature:literal $module:ident $t:ident $range:literal;)*) => {$(
        #[cfg(feature = $feature)]
        mod $module {
            use super::*;
            #[test]
            fn spec_vectors() {
                reads_and_writes_the_spec_vectors::<$t>();
            }
            #[test]
            fn round_trip() {
                round_trips::<$t>();
            }
            #[test]
            fn tai64na() {
                reads_tai64na_and_leap_seconds::<$t>();
            }
            #[test]
            fn refusals() {
                refuses_what_it_cannot_hold::<$t>($range);
            }
            #[test]
            fn option_twin() {
                option_twin_is_nil_or_the_label::<$t>();
            }
        }
    )*};
}

cases! {
    "std" system_time Sys false;
    "time" time_offset Time true;
    "time" time_utc TimeUtc true;
    "chrono" chrono_utc Chrono false;
    "jiff" jiff_timestamp Jiff true;
}

#[test]
fn leap_seconds_without_a_name_read_as_2359_59() {
    leap_second_reads_as_2359_59::<Sys>();
    #[cfg(feature = "time")]
    {
        leap_second_reads_as_2359_59::<Time>();
        leap_second_reads_as_2359_59::<TimeUtc>();
    }
    #[cfg(feature = "jiff")]
    leap_second_reads_as_2359_59::<Jiff>();
}

/// SystemTime holds all of TAI64's range on this platform; past it, the
/// write is refused.
#[test]
fn system_time_beyond_tai64_is_refused() {
    let far = UNIX_EPOCH + Duration::from_secs(1 << 62);
    let e = yac::to_vec(&Sys(far)).unwrap_err().to_string();
    assert!(e.contains("SystemTime out of TAI64's range"), "{e}");
    let t = UNIX_EPOCH + Duration::from_secs((1 << 62) - 38);
    assert_eq!(
        yac::from_slice::<Sys>(&yac::to_vec(&Sys(t)).unwrap())
            .unwrap()
            .0,
        t
    );
}

/// chrono names leap seconds (nanoseconds from 10^9 in the 23:59:59
/// second): each of the IERS table goes both ways exactly, and one that
/// UTC did not have is refused.
#[cfg(feature = "chrono")]
#[test]
fn chrono_leap_seconds_both_ways() {
    for &(from, _) in yac::tai64::LEAP_SECONDS.iter() {
        let leap = Chrono::at(from - 1, 1_500_000_000).unwrap();
        let doc = yac::to_vec(&leap).unwrap();
        // The TAI second between 23:59:59's and midnight's.
        let before = yac::to_vec(&Chrono::at(from - 1, 500_000_000).unwrap()).unwrap();
        let midnight = yac::to_vec(&Chrono::at(from, 500_000_000).unwrap()).unwrap();
        let secs = |d: &[u8]| u64::from_be_bytes(d[1..9].try_into().unwrap());
        assert_eq!(secs(&doc), secs(&before) + 1, "{from}");
        assert_eq!(secs(&doc), secs(&midnight) - 1, "{from}");
        assert_eq!(doc[9..], before[9..]);
        assert_eq!(yac::from_slice::<Chrono>(&doc).unwrap(), leap);
    }
    // 2016-12-31 23:59:60 is the spec's ...A4.
    let leap = Chrono::at(1_483_228_799, 1_000_000_000).unwrap();
    assert_eq!(yac::to_vec(&leap).unwrap(), hex("18 40000000586846A4"));
    // 2016-06-30 had no leap second.
    let none = Chrono::at(unix(2016, 6, 30, 23, 59, 59), 1_000_000_000).unwrap();
    let e = yac::to_vec(&none).unwrap_err().to_string();
    assert!(e.contains("leap second") && e.contains("chrono"), "{e}");
}

/// chrono reaches far beyond year 9999 both ways: its ends round trip too,
/// and the labels beyond its range are refused.
#[cfg(feature = "chrono")]
#[test]
fn chrono_range_ends() {
    use chrono::DateTime;
    for t in [
        DateTime::<chrono::Utc>::MIN_UTC,
        DateTime::<chrono::Utc>::MAX_UTC,
    ] {
        let doc = yac::to_vec(&Chrono(t)).unwrap();
        assert_eq!(yac::from_slice::<Chrono>(&doc).unwrap().0, t);
    }
    let out = "out of chrono::DateTime<Utc>'s range";
    refuses::<Chrono>("18 7FFFFFFFFFFFFFFF", out);
    refuses::<Chrono>("18 0000000000000000", out);
}

/// jiff's range ends round trip.
#[cfg(feature = "jiff")]
#[test]
fn jiff_range_ends() {
    for t in [jiff::Timestamp::MIN, jiff::Timestamp::MAX] {
        let doc = yac::to_vec(&Jiff(t)).unwrap();
        assert_eq!(yac::from_slice::<Jiff>(&doc).unwrap().0, t);
    }
}
