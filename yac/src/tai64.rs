//! TAI64, TAI64N and TAI64NA labels: the format's validity rules, and
//! conversions between labels, TAI and UTC (as UNIX time), with integer
//! arithmetic only.
//!
//! A label holds TAI seconds since 1970-01-01 00:00:00 TAI plus 2^62
//! ([`EPOCH`]), then optionally nanoseconds and attoseconds. [`Tai`] is that
//! instant with the offset removed; [`tai_to_label`] writes the shortest
//! label the format allows (TAI64 without fractions, TAI64N without
//! attoseconds, else TAI64NA).
//!
//! UTC is UNIX time (seconds since 1970-01-01 00:00:00 UTC, not counting leap
//! seconds) plus nanoseconds. TAI = UTC + (TAI - UTC), where TAI - UTC is
//! 10 s up to 1972-06-30, then grows by one at each leap second of the IERS
//! table ([`LEAP_SECONDS`]) to 37 s since 2017-01-01. As in FORMAT.md and
//! libtai, 10 s is also used for every instant before 1972 (the rubber
//! seconds of 1961-1971 are not modelled).
//!
//! Leap seconds: UNIX time has no name for 23:59:60, so [`utc_to_tai`] never
//! yields a TAI second that is a leap second, and [`tai_to_utc`] maps such a
//! second to 23:59:59 of the same day (the UNIX second before midnight, with
//! the nanoseconds kept) and sets [`Utc::leap`], as libtai does. So UTC ->
//! TAI -> UTC is the identity, and TAI -> UTC is monotonic but not
//! one-to-one (23:59:59 and 23:59:60 give the same UNIX second).
//!
//! ```
//! use keks::tai64::{utc_to_label, label_to_utc, Utc};
//! let mut label = [0u8; 16];
//! // 2017-01-01 00:00:00 UTC, just after the last leap second.
//! let n = utc_to_label(1_483_228_800, 0, &mut label).unwrap();
//! assert_eq!(&label[..n], &[0x40, 0, 0, 0, 0x58, 0x68, 0x46, 0xA5]);
//! let leap = [0x40, 0, 0, 0, 0x58, 0x68, 0x46, 0xA4]; // 2016-12-31 23:59:60
//! assert_eq!(label_to_utc(&leap), Ok(Utc { secs: 1_483_228_799, nsec: 0, leap: true }));
//! ```

use crate::error::Error;

/// Labels at or above 2^63 are reserved by the format.
pub const RESERVED_FROM: u64 = 1 << 63;
/// The label of 1970-01-01 00:00:00 TAI.
pub const EPOCH: u64 = 1 << 62;
/// Nanoseconds and attoseconds run from 0 to this.
pub const FRAC_MAX: u32 = 999_999_999;

fn be_u32(b: &[u8]) -> u32 {
    b.iter().fold(0u32, |acc, &x| (acc << 8) | u32::from(x))
}

/// Checks an 8-, 12- or 16-byte label as found on the wire.
pub fn check_label(label: &[u8]) -> Result<(), Error> {
    let Some(([top, ..], fracs)) = label.split_first_chunk::<8>() else {
        return Err(Error::Invalid);
    };
    // The top bit of the seconds: at or above RESERVED_FROM.
    if *top >= 0x80 {
        return Err(Error::Tai64TooBig);
    }
    if fracs.len() > 8 || fracs.len() % 4 != 0 {
        return Err(Error::Invalid);
    }
    // Nanoseconds, then attoseconds: each in range, and the last one (the
    // label's own precision) not zero, or the shorter label is the form.
    let (mut out_of_range, mut last) = (Error::Tai64BadNsec, 1);
    for frac in fracs.chunks_exact(4) {
        last = be_u32(frac);
        if last > FRAC_MAX {
            return Err(out_of_range);
        }
        out_of_range = Error::Tai64BadAsec;
    }
    if last == 0 {
        return Err(Error::Tai64NonMinimal);
    }
    Ok(())
}

/// Seconds between the label of an instant and its [`Tai::secs`].
const EPOCH_I64: i64 = 1 << 62;

/// TAI - UTC in seconds before the first leap second (FORMAT.md: 10 s
/// already at 1970-01-01).
pub const TAI_UTC_BASE: i64 = 10;

/// The IERS leap seconds: the UNIX time of the UTC midnight from which
/// TAI - UTC is the given number of seconds (each follows an inserted
/// 23:59:60). Ends with 2017-01-01; extend it when IERS announces another.
pub const LEAP_SECONDS: [(i64, i64); 27] = [
    (78_796_800, 11),    // 1972-07-01
    (94_694_400, 12),    // 1973-01-01
    (126_230_400, 13),   // 1974-01-01
    (157_766_400, 14),   // 1975-01-01
    (189_302_400, 15),   // 1976-01-01
    (220_924_800, 16),   // 1977-01-01
    (252_460_800, 17),   // 1978-01-01
    (283_996_800, 18),   // 1979-01-01
    (315_532_800, 19),   // 1980-01-01
    (362_793_600, 20),   // 1981-07-01
    (394_329_600, 21),   // 1982-07-01
    (425_865_600, 22),   // 1983-07-01
    (489_024_000, 23),   // 1985-07-01
    (567_993_600, 24),   // 1988-01-01
    (631_152_000, 25),   // 1990-01-01
    (662_688_000, 26),   // 1991-01-01
    (709_948_800, 27),   // 1992-07-01
    (741_484_800, 28),   // 1993-07-01
    (773_020_800, 29),   // 1994-07-01
    (820_454_400, 30),   // 1996-01-01
    (867_715_200, 31),   // 1997-07-01
    (915_148_800, 32),   // 1999-01-01
    (1_136_073_600, 33), // 2006-01-01
    (1_230_768_000, 34), // 2009-01-01
    (1_341_100_800, 35), // 2012-07-01
    (1_435_708_800, 36), // 2015-07-01
    (1_483_228_800, 37), // 2017-01-01
];

/// A TAI instant: seconds since 1970-01-01 00:00:00 TAI (negative before),
/// plus nanoseconds and attoseconds (each 0..=999999999).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Tai {
    /// Whole TAI seconds since 1970-01-01 00:00:00 TAI.
    pub secs: i64,
    /// Nanoseconds within the second.
    pub nsec: u32,
    /// Attoseconds within the nanosecond.
    pub asec: u32,
}

/// A UTC instant as UNIX time, as returned by [`tai_to_utc`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Utc {
    /// Seconds since 1970-01-01 00:00:00 UTC, leap seconds not counted.
    pub secs: i64,
    /// Nanoseconds within the second.
    pub nsec: u32,
    /// The instant lies inside an inserted leap second (23:59:60), which
    /// `secs` then names as 23:59:59.
    pub leap: bool,
}

/// Decodes a label (8, 12 or 16 bytes), validating it as [`check_label`]
/// does: non-minimal labels are refused.
pub fn label_to_tai(label: &[u8]) -> Result<Tai, Error> {
    check_label(label)?;
    let field = |r: core::ops::Range<usize>| label.get(r).map(be_u32).unwrap_or(0);
    let raw = u64::from_be_bytes(*label.first_chunk::<8>().ok_or(Error::Invalid)?);
    // check_label bounded raw below 2^63, so it fits i64.
    let secs = i64::try_from(raw).map_err(|_| Error::Tai64TooBig)? - EPOCH_I64;
    Ok(Tai {
        secs,
        nsec: field(8..12),
        asec: field(12..16),
    })
}

/// Writes the shortest label for `t` into `out` and returns its length:
/// 8 (TAI64) when `nsec` and `asec` are 0, 12 (TAI64N) when `asec` is 0,
/// else 16 (TAI64NA). Errors: `Tai64BadNsec`/`Tai64BadAsec` for fractions
/// above 999999999, `Tai64TooBig` when the label would fall outside
/// 0..2^63 (`secs` outside -2^62..2^62).
pub fn tai_to_label(t: &Tai, out: &mut [u8; 16]) -> Result<usize, Error> {
    if t.nsec > FRAC_MAX {
        return Err(Error::Tai64BadNsec);
    }
    if t.asec > FRAC_MAX {
        return Err(Error::Tai64BadAsec);
    }
    let raw = t
        .secs
        .checked_add(EPOCH_I64)
        .filter(|&r| r >= 0)
        .ok_or(Error::Tai64TooBig)?;
    let [a, b, c, d, e, f, g, h] = raw.to_be_bytes();
    let [n0, n1, n2, n3] = t.nsec.to_be_bytes();
    let [a0, a1, a2, a3] = t.asec.to_be_bytes();
    *out = [a, b, c, d, e, f, g, h, n0, n1, n2, n3, a0, a1, a2, a3];
    Ok(match (t.nsec, t.asec) {
        (0, 0) => 8,
        (_, 0) => 12,
        _ => 16,
    })
}

/// TAI - UTC in seconds at the UNIX time `unix`.
pub fn tai_minus_utc(unix: i64) -> i64 {
    let mut off = TAI_UTC_BASE;
    for &(from, o) in LEAP_SECONDS.iter() {
        if unix < from {
            break;
        }
        off = o;
    }
    off
}

/// The TAI instant of a UNIX time (`nsec` 0..=999999999, else
/// `Tai64BadNsec`); attoseconds are 0. `Tai64TooBig` if the sum overflows.
pub fn utc_to_tai(unix: i64, nsec: u32) -> Result<Tai, Error> {
    if nsec > FRAC_MAX {
        return Err(Error::Tai64BadNsec);
    }
    let secs = unix
        .checked_add(tai_minus_utc(unix))
        .ok_or(Error::Tai64TooBig)?;
    Ok(Tai {
        secs,
        nsec,
        asec: 0,
    })
}

/// The UTC (UNIX) time of a TAI instant; attoseconds are dropped (the time
/// is truncated to the nanosecond). A TAI second that is a leap second maps
/// to 23:59:59 with [`Utc::leap`] set (see the module docs).
/// `Tai64TooBig` if the result does not fit `i64`.
pub fn tai_to_utc(t: &Tai) -> Result<Utc, Error> {
    let mut off = TAI_UTC_BASE;
    let mut leap = false;
    for &(from, o) in LEAP_SECONDS.iter() {
        // In TAI the new offset applies from from + o; the second before
        // that is the inserted 23:59:60.
        let start = from + o;
        if t.secs >= start {
            off = o;
        } else {
            if t.secs == start - 1 {
                off = o;
                leap = true;
            }
            break;
        }
    }
    let secs = t.secs.checked_sub(off).ok_or(Error::Tai64TooBig)?;
    Ok(Utc {
        secs,
        nsec: t.nsec,
        leap,
    })
}

/// Writes the shortest label for a UNIX time (see [`utc_to_tai`] and
/// [`tai_to_label`]) and returns its length (8 or 12).
pub fn utc_to_label(unix: i64, nsec: u32, out: &mut [u8; 16]) -> Result<usize, Error> {
    tai_to_label(&utc_to_tai(unix, nsec)?, out)
}

/// The UTC time of a label (validated; see [`label_to_tai`] and
/// [`tai_to_utc`]).
pub fn label_to_utc(label: &[u8]) -> Result<Utc, Error> {
    tai_to_utc(&label_to_tai(label)?)
}

#[cfg(test)]
mod tests {
    extern crate std;
    use super::*;

    /// Hex to bytes, spaces ignored (the test kit's one `hex`).
    use yac_testkit::dates::unix;
    use yac_testkit::hex;

    #[test]
    fn leap_table_is_the_iers_dates() {
        let dates = [
            (1972, 7),
            (1973, 1),
            (1974, 1),
            (1975, 1),
            (1976, 1),
            (1977, 1),
            (1978, 1),
            (1979, 1),
            (1980, 1),
            (1981, 7),
            (1982, 7),
            (1983, 7),
            (1985, 7),
            (1988, 1),
            (1990, 1),
            (1991, 1),
            (1992, 7),
            (1993, 7),
            (1994, 7),
            (1996, 1),
            (1997, 7),
            (1999, 1),
            (2006, 1),
            (2009, 1),
            (2012, 7),
            (2015, 7),
            (2017, 1),
        ];
        for (i, ((y, m), (from, off))) in dates.iter().zip(LEAP_SECONDS).enumerate() {
            assert_eq!(from, unix(*y, *m, 1, 0, 0, 0), "{y}-{m}");
            assert_eq!(off, 11 + i as i64);
        }
    }

    /// Year, month, day, hour, minute, second.
    type Date = (i64, i64, i64, i64, i64, i64);

    /// FORMAT.md's UTC vectors (and 1972-06-30 23:59:59, the last second
    /// at 10 s): (date, ns, label).
    const UTC_VECTORS: [(Date, u32, &str); 7] = [
        ((1970, 1, 1, 0, 0, 0), 0, "400000000000000A"),
        ((1992, 6, 2, 8, 6, 43), 0, "400000002A2B2C2D"),
        ((1997, 10, 3, 18, 14, 48), 0, "4000000034353637"),
        ((2016, 12, 31, 23, 59, 59), 0, "40000000586846A3"),
        ((2017, 1, 1, 0, 0, 0), 0, "40000000586846A5"),
        (
            (2024, 11, 20, 12, 19, 8),
            921_772_500,
            "40000000673DD3E1 36F121D4",
        ),
        ((1972, 6, 30, 23, 59, 59), 0, "4000000004B25809"),
    ];

    #[test]
    fn utc_vectors_both_ways() {
        for ((y, mo, d, h, mi, s), ns, label) in UTC_VECTORS {
            let t = unix(y, mo, d, h, mi, s);
            let want = hex(label);
            let mut out = [0u8; 16];
            let n = utc_to_label(t, ns, &mut out).unwrap();
            assert_eq!(&out[..n], &want[..], "{y}-{mo}-{d} {h}:{mi}:{s}");
            assert_eq!(
                label_to_utc(&want),
                Ok(Utc {
                    secs: t,
                    nsec: ns,
                    leap: false
                })
            );
        }
    }

    #[test]
    fn tai_vectors_both_ways() {
        // 1970-01-01 00:00:00 TAI and one second before.
        let table: [(Tai, &str); 5] = [
            (Tai::default(), "4000000000000000"),
            (
                Tai {
                    secs: -1,
                    ..Tai::default()
                },
                "3FFFFFFFFFFFFFFF",
            ),
            (
                Tai {
                    secs: 0x673D_D3E1,
                    nsec: 921_772_500,
                    asec: 0,
                },
                "40000000673DD3E1 36F121D4",
            ),
            (
                Tai {
                    secs: 1,
                    nsec: 0,
                    asec: 1,
                },
                "4000000000000001 00000000 00000001",
            ),
            (
                Tai {
                    secs: EPOCH_I64 - 1,
                    nsec: FRAC_MAX,
                    asec: FRAC_MAX,
                },
                "7FFFFFFFFFFFFFFF 3B9AC9FF 3B9AC9FF",
            ),
        ];
        for (t, label) in table {
            let want = hex(label);
            let mut out = [0u8; 16];
            let n = tai_to_label(&t, &mut out).unwrap();
            assert_eq!(&out[..n], &want[..], "{t:?}");
            assert_eq!(label_to_tai(&want), Ok(t));
        }
        let min = Tai {
            secs: -EPOCH_I64,
            ..Tai::default()
        };
        let mut out = [0u8; 16];
        assert_eq!(tai_to_label(&min, &mut out), Ok(8));
        assert_eq!(out[..8], [0; 8]);
    }

    #[test]
    fn leap_second_maps_to_2359_59_with_flag() {
        let eve = unix(2016, 12, 31, 23, 59, 59);
        let leap = Tai {
            secs: 0x5868_46A4,
            nsec: 500_000_000,
            asec: 7,
        };
        assert_eq!(
            tai_to_utc(&leap),
            Ok(Utc {
                secs: eve,
                nsec: 500_000_000,
                leap: true
            })
        );
        // Every leap second of the table, and its neighbours.
        for &(from, off) in LEAP_SECONDS.iter() {
            let at = |s| {
                tai_to_utc(&Tai {
                    secs: s,
                    ..Tai::default()
                })
                .unwrap()
            };
            let first = from + off;
            assert_eq!((at(first - 2).secs, at(first - 2).leap), (from - 1, false));
            assert_eq!((at(first - 1).secs, at(first - 1).leap), (from - 1, true));
            assert_eq!((at(first).secs, at(first).leap), (from, false));
            assert_eq!(utc_to_tai(from, 0).unwrap().secs, first);
            assert_eq!(utc_to_tai(from - 1, 0).unwrap().secs, first - 2);
        }
    }

    #[test]
    fn utc_round_trips() {
        let mut t = -2_000_000_000i64;
        while t < 3_000_000_000 {
            let tai = utc_to_tai(t, 123).unwrap();
            assert_eq!(
                tai_to_utc(&tai),
                Ok(Utc {
                    secs: t,
                    nsec: 123,
                    leap: false
                })
            );
            // Under Miri (~1000x slower) every 11th of these days.
            t += (86_399 * 7 + 13) * crate::sample::stride(11) as i64;
        }
    }

    #[test]
    fn bad_inputs_are_refused() {
        let mut out = [0u8; 16];
        let bad_ns = Tai {
            nsec: 1_000_000_000,
            ..Tai::default()
        };
        let bad_as = Tai {
            asec: 1_000_000_000,
            ..Tai::default()
        };
        let too_big = Tai {
            secs: EPOCH_I64,
            ..Tai::default()
        };
        let too_small = Tai {
            secs: -EPOCH_I64 - 1,
            ..Tai::default()
        };
        assert_eq!(tai_to_label(&bad_ns, &mut out), Err(Error::Tai64BadNsec));
        assert_eq!(tai_to_label(&bad_as, &mut out), Err(Error::Tai64BadAsec));
        assert_eq!(tai_to_label(&too_big, &mut out), Err(Error::Tai64TooBig));
        assert_eq!(tai_to_label(&too_small, &mut out), Err(Error::Tai64TooBig));
        assert_eq!(utc_to_tai(0, 1_000_000_000), Err(Error::Tai64BadNsec));
        assert_eq!(utc_to_tai(i64::MAX, 0), Err(Error::Tai64TooBig));
        assert_eq!(
            tai_to_utc(&Tai {
                secs: i64::MIN,
                ..Tai::default()
            }),
            Err(Error::Tai64TooBig)
        );
        assert_eq!(
            utc_to_label(EPOCH_I64, 0, &mut out),
            Err(Error::Tai64TooBig)
        );
        let invalid: [(&str, Error); 5] = [
            ("8000000000000000", Error::Tai64TooBig),
            ("4000000000000000 00000000", Error::Tai64NonMinimal),
            ("4000000000000000 3B9ACA00", Error::Tai64BadNsec),
            ("4000000000000000 00000001 00000000", Error::Tai64NonMinimal),
            ("40000000000000", Error::Invalid),
        ];
        for (label, err) in invalid {
            assert_eq!(label_to_tai(&hex(label)), Err(err), "{label}");
            assert_eq!(label_to_utc(&hex(label)), Err(err), "{label}");
        }
    }
}
