//! C API of the TAI64 helpers: labels <-> TAI <-> UTC (UNIX time).

// Parameter names follow cyac's C style (camelCase) in the header.
#![allow(non_snake_case)]

use core::ffi::c_uchar;

use super::enc::emit;
use super::{input, out, run, YACErr};
use yac::tai64::{self, Tai};

/// Writes the label (8, 12 or 16 bytes) made by `make` at `buf`, with the
/// encoders' room contract.
///
/// # Safety
/// As for `emit`.
unsafe fn emit_label(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    make: impl FnOnce(&mut [u8; 16]) -> Result<usize, yac::Error>,
) -> YACErr {
    let mut label = [0u8; 16];
    let made = make(&mut label).map_err(YACErr::from);
    let bytes = made.and_then(|n| label.get(..n).ok_or(YACErr::YACErrInvalid));
    run(|| {
        // SAFETY: forwarded from this function's contract.
        unsafe {
            emit(
                len,
                buf,
                cap,
                || bytes.map(<[u8]>::len),
                |b| {
                    let src = bytes.map_err(|_| yac::Error::Invalid)?;
                    for (d, s) in b.iter_mut().zip(src) {
                        *d = *s;
                    }
                    Ok(src.len())
                },
            )
        }
    })
}

/// Decodes a TAI64 (`labelLen` 8), TAI64N (12) or TAI64NA (16) label, as
/// found in a `YACItemTAI64` atom, into TAI seconds since 1970-01-01
/// 00:00:00 TAI (`*sec`, negative before) and nanoseconds and attoseconds
/// (0 where the label has none). The label is validated like the decoder
/// does (`YACErrTAI64TooBig`, `...BadNsec`, `...BadAsec`, `...NonMinimal`;
/// other lengths give `YACErrInvalid`). On error the outputs are untouched.
///
/// # Safety
/// `sec`, `nsec`, `asec` must point to writable objects; `label` must be
/// readable for `labelLen` bytes. No pointer is kept.
#[no_mangle]
pub unsafe extern "C" fn YACTAI64ToTAI(
    sec: *mut i64,
    nsec: *mut u32,
    asec: *mut u32,
    label: *const c_uchar,
    labelLen: usize,
) -> YACErr {
    run(|| {
        // SAFETY: by contract the out-parameters are writable and `label`
        // readable for `labelLen` bytes; NULL is checked by the helpers.
        let (sec, nsec, asec, label) =
            unsafe { (out(sec)?, out(nsec)?, out(asec)?, input(label, labelLen)?) };
        let t = tai64::label_to_tai(label)?;
        (*sec, *nsec, *asec) = (t.secs, t.nsec, t.asec);
        Ok(())
    })
}

/// Writes the shortest label for a TAI instant (`sec` TAI seconds since
/// 1970-01-01 00:00:00 TAI, plus `nsec` and `asec`): TAI64 (8 bytes) when
/// both fractions are 0, TAI64N (12) when `asec` is 0, else TAI64NA (16).
/// The label can be passed to `YACAtomTAI64Encode`. Fractions above
/// 999999999 give `YACErrTAI64BadNsec`/`YACErrTAI64BadAsec`; `sec` outside
/// -2^62 .. 2^62-1 gives `YACErrTAI64TooBig`. Room is handled as by the
/// atom encoders: `*len` is the label length, and `YACErrNoMem` (nothing
/// written) when `cap` is too small.
///
/// # Safety
/// `len` must point to a writable `size_t`; `buf` must be writable for
/// `cap` bytes (or NULL with `cap` 0). No pointer is kept.
#[no_mangle]
pub unsafe extern "C" fn YACTAIToTAI64(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    sec: i64,
    nsec: u32,
    asec: u32,
) -> YACErr {
    let t = Tai {
        secs: sec,
        nsec,
        asec,
    };
    // SAFETY: this function's contract is emit_label's.
    unsafe { emit_label(len, buf, cap, |l| tai64::tai_to_label(&t, l)) }
}

/// Decodes a label (validated as by `YACTAI64ToTAI`) into UTC as UNIX time:
/// `*unixSec` seconds since 1970-01-01 00:00:00 UTC (leap seconds not
/// counted) and `*nsec` nanoseconds; attoseconds are dropped (truncated).
/// An instant inside an inserted leap second (23:59:60), which UNIX time
/// cannot name, is given as 23:59:59 of that day with `*leap` set to true;
/// otherwise `*leap` is false. TAI - UTC is 10 s before 1972-07-01 and
/// follows the IERS table after (37 s since 2017-01-01).
///
/// # Safety
/// `unixSec`, `nsec`, `leap` must point to writable objects; `label` must
/// be readable for `labelLen` bytes. No pointer is kept.
#[no_mangle]
pub unsafe extern "C" fn YACTAI64ToUTC(
    unixSec: *mut i64,
    nsec: *mut u32,
    leap: *mut bool,
    label: *const c_uchar,
    labelLen: usize,
) -> YACErr {
    run(|| {
        // SAFETY: by contract the out-parameters are writable and `label`
        // readable for `labelLen` bytes; NULL is checked by the helpers.
        let (unix_sec, nsec, leap, label) = unsafe {
            (
                out(unixSec)?,
                out(nsec)?,
                out(leap)?,
                input(label, labelLen)?,
            )
        };
        let u = tai64::label_to_utc(label)?;
        (*unix_sec, *nsec, *leap) = (u.secs, u.nsec, u.leap);
        Ok(())
    })
}

/// Writes the shortest label for a UTC instant given as UNIX time
/// (`unixSec` seconds since 1970-01-01 00:00:00 UTC, `nsec` nanoseconds,
/// 0..999999999 else `YACErrTAI64BadNsec`): TAI64 (8 bytes) when `nsec` is
/// 0, else TAI64N (12). Room is handled as by the atom encoders.
/// For example 2017-01-01 00:00:00 UTC (1483228800) gives
/// 40000000586846A5.
///
/// # Safety
/// `len` must point to a writable `size_t`; `buf` must be writable for
/// `cap` bytes (or NULL with `cap` 0). No pointer is kept.
#[no_mangle]
pub unsafe extern "C" fn YACUTCToTAI64(
    len: *mut usize,
    buf: *mut c_uchar,
    cap: usize,
    unixSec: i64,
    nsec: u32,
) -> YACErr {
    // SAFETY: this function's contract is emit_label's.
    unsafe { emit_label(len, buf, cap, |l| tai64::utc_to_label(unixSec, nsec, l)) }
}

/// Converts UNIX seconds (UTC) to TAI seconds since 1970-01-01 00:00:00
/// TAI by adding TAI - UTC at that time. `YACErrTAI64TooBig` on overflow.
///
/// # Safety
/// `taiSec` must point to a writable `int64_t`.
#[no_mangle]
pub unsafe extern "C" fn YACUTCToTAI(taiSec: *mut i64, unixSec: i64) -> YACErr {
    run(|| {
        // SAFETY: by contract `taiSec` is writable; NULL is checked.
        let tai_sec = unsafe { out(taiSec)? };
        *tai_sec = tai64::utc_to_tai(unixSec, 0)?.secs;
        Ok(())
    })
}

/// Converts TAI seconds since 1970-01-01 00:00:00 TAI to UNIX seconds
/// (UTC). A leap second maps to 23:59:59 with `*leap` true (see
/// `YACTAI64ToUTC`). `YACErrTAI64TooBig` on overflow.
///
/// # Safety
/// `unixSec` and `leap` must point to writable objects.
#[no_mangle]
pub unsafe extern "C" fn YACTAIToUTC(unixSec: *mut i64, leap: *mut bool, taiSec: i64) -> YACErr {
    run(|| {
        // SAFETY: by contract both out-parameters are writable; NULL is
        // checked.
        let (unix_sec, leap) = unsafe { (out(unixSec)?, out(leap)?) };
        let u = tai64::tai_to_utc(&Tai {
            secs: taiSec,
            ..Tai::default()
        })?;
        (*unix_sec, *leap) = (u.secs, u.leap);
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::ptr::{null, null_mut};

    const LABEL_2024: [u8; 12] = [
        0x40, 0, 0, 0, 0x67, 0x3D, 0xD3, 0xE1, 0x36, 0xF1, 0x21, 0xD4,
    ];
    const UNIX_2024: i64 = 1_732_105_148; // 2024-11-20 12:19:08 UTC

    #[test]
    fn labels_to_tai_and_utc() {
        let (mut s, mut n, mut a, mut leap) = (0i64, 0u32, 7u32, true);
        // SAFETY: all pointers are to live locals of the stated sizes.
        unsafe {
            let r = YACTAI64ToTAI(&mut s, &mut n, &mut a, LABEL_2024.as_ptr(), 12);
            assert_eq!(
                (r, s, n, a),
                (YACErr::YACErrNo, 0x673D_D3E1, 921_772_500, 0)
            );
            let r = YACTAI64ToUTC(&mut s, &mut n, &mut leap, LABEL_2024.as_ptr(), 12);
            assert_eq!(
                (r, s, n, leap),
                (YACErr::YACErrNo, UNIX_2024, 921_772_500, false)
            );
            let leap_label = [0x40, 0, 0, 0, 0x58, 0x68, 0x46, 0xA4];
            let r = YACTAI64ToUTC(&mut s, &mut n, &mut leap, leap_label.as_ptr(), 8);
            assert_eq!((r, s, n, leap), (YACErr::YACErrNo, 1_483_228_799, 0, true));
            let r = YACTAIToUTC(&mut s, &mut leap, 0x5868_46A5);
            assert_eq!((r, s, leap), (YACErr::YACErrNo, 1_483_228_800, false));
            let r = YACUTCToTAI(&mut s, 0);
            assert_eq!((r, s), (YACErr::YACErrNo, 10));
            // Errors leave outputs alone.
            s = 5;
            let zero_ns = [0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
            let r = YACTAI64ToTAI(&mut s, &mut n, &mut a, zero_ns.as_ptr(), 12);
            assert_eq!((r, s), (YACErr::YACErrTAI64NonMinimal, 5));
            let r = YACTAI64ToTAI(&mut s, &mut n, &mut a, zero_ns.as_ptr(), 9);
            assert_eq!(r, YACErr::YACErrInvalid);
            let r = YACTAI64ToTAI(null_mut(), &mut n, &mut a, LABEL_2024.as_ptr(), 12);
            assert_eq!(r, YACErr::YACErrInvalid);
            let r = YACTAI64ToUTC(&mut s, &mut n, null_mut(), LABEL_2024.as_ptr(), 12);
            assert_eq!(r, YACErr::YACErrInvalid);
            let r = YACTAI64ToUTC(&mut s, &mut n, &mut leap, null(), 12);
            assert_eq!(r, YACErr::YACErrInvalid);
            assert_eq!(YACUTCToTAI(&mut s, i64::MAX), YACErr::YACErrTAI64TooBig);
            assert_eq!(YACUTCToTAI(null_mut(), 0), YACErr::YACErrInvalid);
            assert_eq!(YACTAIToUTC(&mut s, null_mut(), 0), YACErr::YACErrInvalid);
        }
    }

    #[test]
    fn labels_from_tai_and_utc_with_room_contract() {
        type Call<'a> = &'a dyn Fn(*mut usize, *mut u8, usize) -> YACErr;
        let cases: [(Call<'_>, &[u8]); 4] = [
            // SAFETY (all closures): the entry points check their pointers;
            // the test passes live buffers or NULL.
            (
                &|l, b, c| unsafe { YACUTCToTAI64(l, b, c, UNIX_2024, 921_772_500) },
                &LABEL_2024,
            ),
            (
                &|l, b, c| unsafe { YACUTCToTAI64(l, b, c, 0, 0) },
                &[0x40, 0, 0, 0, 0, 0, 0, 0x0A],
            ),
            (
                &|l, b, c| unsafe { YACTAIToTAI64(l, b, c, -1, 0, 0) },
                &[0x3F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
            ),
            (
                &|l, b, c| unsafe { YACTAIToTAI64(l, b, c, 0, 0, 1) },
                &[0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
            ),
        ];
        for (f, want) in cases {
            for cap in 0..=want.len() {
                let mut buf = [0xAAu8; 20];
                let mut len = 99usize;
                let r = f(&mut len, buf.as_mut_ptr(), cap);
                assert_eq!(len, want.len());
                if cap < want.len() {
                    assert_eq!(r, YACErr::YACErrNoMem);
                    assert!(buf.iter().all(|&b| b == 0xAA));
                } else {
                    assert_eq!(r, YACErr::YACErrNo);
                    assert_eq!(&buf[..len], want);
                    assert!(buf[len..].iter().all(|&b| b == 0xAA));
                }
            }
            let mut buf = [0u8; 16];
            assert_eq!(f(null_mut(), buf.as_mut_ptr(), 16), YACErr::YACErrInvalid);
        }
        let mut buf = [0xAAu8; 16];
        let mut len = 3usize;
        // SAFETY: live buffers.
        unsafe {
            let r = YACTAIToTAI64(&mut len, buf.as_mut_ptr(), 16, 0, 1_000_000_000, 0);
            assert_eq!((r, len), (YACErr::YACErrTAI64BadNsec, 0));
            let r = YACTAIToTAI64(&mut len, buf.as_mut_ptr(), 16, 1 << 62, 0, 0);
            assert_eq!((r, len), (YACErr::YACErrTAI64TooBig, 0));
            let r = YACUTCToTAI64(&mut len, buf.as_mut_ptr(), 16, 0, 1_000_000_000);
            assert_eq!((r, len), (YACErr::YACErrTAI64BadNsec, 0));
        }
        assert!(buf.iter().all(|&b| b == 0xAA));
    }
}
