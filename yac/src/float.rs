//! IEEE 754 floats of the format (binary16/32/64/128/256, big-endian):
//! the shortest-width and no-negative-zero rules, and widening of the
//! three narrow widths to `f64`.
//!
//! A float of width W is canonical when no narrower width holds exactly the
//! same value (NaN payloads included). Holding exactly is decided on the bit
//! pattern alone, so 128- and 256-bit floats need no wide arithmetic.

use crate::error::Error;

/// Exponent bit counts of binary16, 32, 64, 128 and 256, five bits each
/// (a word, not a table: no bounds check, no data).
const EXP_BITS: u32 = 5 | 8 << 5 | 11 << 10 | 15 << 15 | 19 << 20;

/// Exponent and fraction bit counts of the width with index `idx` (0 for
/// 2 bytes ... 4 for 32 bytes, `idx` <= 4).
fn layout(idx: u32) -> (u32, u32) {
    let exp = (EXP_BITS >> (5 * idx)) & 31;
    (exp, (16 << idx) - 1 - exp)
}

/// Bit `i` (0 = least significant) of a big-endian byte string.
fn bit(bytes: &[u8], i: u32) -> bool {
    let from_end = (i / 8) as usize;
    match bytes
        .len()
        .checked_sub(1 + from_end)
        .and_then(|at| bytes.get(at))
    {
        Some(b) => (b >> (i % 8)) & 1 == 1,
        None => false,
    }
}

/// Checks the format's rules for a float payload of 2, 4, 8, 16 or 32 bytes.
pub fn check(bytes: &[u8]) -> Result<(), Error> {
    let len = bytes.len();
    let mut idx = 0;
    while idx < 4 && 2 << idx < len {
        idx += 1;
    }
    if 2 << idx != len {
        return Err(Error::Invalid);
    }
    let (exp_bits, frac_bits) = layout(idx);
    // The first 32 bits (16 for binary16) at the top of a word: the sign,
    // then the exponent (at most 19 bits).
    let top = bytes
        .iter()
        .take(4)
        .fold(0u32, |acc, &b| (acc << 8) | u32::from(b))
        << (32 - 8 * len.min(4) as u32);
    let negative = top >> 31 != 0;
    let biased = (top << 1) >> (32 - exp_bits);
    // Trailing zero bits of the fraction (all of its bits when it is 0).
    let frac_tz = (0..frac_bits).find(|&i| bit(bytes, i)).unwrap_or(frac_bits);
    if biased == 0 && frac_tz == frac_bits {
        // Zero: negative zero is forbidden, positive zero fits binary16.
        return if negative || idx > 0 {
            Err(Error::FloatNonMinimal)
        } else {
            Ok(())
        };
    }
    if idx > 0 && fits(exp_bits, frac_bits, layout(idx - 1), biased, frac_tz) {
        Err(Error::FloatNonMinimal)
    } else {
        Ok(())
    }
}

/// Whether a non-zero value of `exp_bits` and `frac_bits` (biased exponent
/// `biased`, `frac_tz` trailing zeros in its fraction) is exactly
/// representable in the narrower layout `(narrow_exp, narrow_frac)`.
fn fits(exp_bits: u32, frac_bits: u32, narrow: (u32, u32), biased: u32, frac_tz: u32) -> bool {
    let (narrow_exp, narrow_frac) = narrow;
    if biased == (1 << exp_bits) - 1 {
        // Infinity (fraction all zero) always fits; a NaN fits when its
        // payload loses no bit.
        return frac_tz >= frac_bits - narrow_frac;
    }
    if biased == 0 {
        // A subnormal of binary32 or wider lies below 2^-126, far under the
        // smallest binary16/32/... subnormal of the next narrower format.
        return false;
    }
    // i32 is wide enough (binary256: 19 exponent bits, 236 fraction bits)
    // and, unlike i64, one register on 32-bit targets.
    let own_bias = (1i32 << (exp_bits - 1)) - 1;
    let narrow_bias = (1i32 << (narrow_exp - 1)) - 1;
    // value = S * 2^q with S odd; e is the exponent of S's top bit (a zero
    // fraction has frac_tz = frac_bits, so q = e).
    let e = biased as i32 - own_bias;
    let q = e - frac_bits as i32 + frac_tz as i32;
    let narrow_min = 1 - narrow_bias;
    e <= narrow_bias && q >= e.max(narrow_min) - narrow_frac as i32
}

/// Widens a binary16/32/64 payload to `f64` exactly, NaNs included; see
/// [`to_f64_bits`]. `None` for 16/32 bytes.
pub fn to_f64(bytes: &[u8]) -> Option<f64> {
    to_f64_bits(bytes).map(f64::from_bits)
}

/// The bits of the `f64` holding a binary16/32/64 payload exactly. A NaN
/// keeps its sign, its signalling or quiet bit and its payload (shifted
/// to the top of the wider fraction, as IEEE 754 widening does), so that
/// [`shortest`] gives the same bytes back. Computed on integers only: a
/// float conversion instruction would quiet a signalling NaN, and on x87
/// merely loading one does. `None` for 16/32 bytes.
pub fn to_f64_bits(bytes: &[u8]) -> Option<u64> {
    match *bytes {
        [a, b] => Some(widen(u64::from(u16::from_be_bytes([a, b])), 5, 10)),
        [a, b, c, d] => Some(widen(u64::from(u32::from_be_bytes([a, b, c, d])), 8, 23)),
        [a, b, c, d, e, f, g, h] => Some(u64::from_be_bytes([a, b, c, d, e, f, g, h])),
        _ => None,
    }
}

/// Widens the IEEE binary pattern `x` (exponent and fraction of
/// `exp_bits` and `frac_bits` bits, sign above them) to binary64 bits.
fn widen(x: u64, exp_bits: u32, frac_bits: u32) -> u64 {
    let sign = ((x >> (exp_bits + frac_bits)) & 1) << 63;
    let exp = (x >> frac_bits) & ((1 << exp_bits) - 1);
    let frac = x & ((1 << frac_bits) - 1);
    let bias = (1u64 << (exp_bits - 1)) - 1;
    let shift = 52 - frac_bits;
    if exp == (1 << exp_bits) - 1 {
        // Infinity or NaN: the fraction moves up, bit for bit.
        return sign | (0x7FF << 52) | (frac << shift);
    }
    if exp == 0 {
        if frac == 0 {
            return sign;
        }
        // Subnormal: frac * 2^(1 - bias - frac_bits); normalise on its top
        // bit (every narrow subnormal is a normal binary64).
        let top = 63 - frac.leading_zeros();
        let e64 = 1023 + u64::from(top) + 1 - bias - u64::from(frac_bits);
        let f64_frac = (frac << (52 - top)) & ((1 << 52) - 1);
        return sign | (e64 << 52) | f64_frac;
    }
    sign | ((exp + 1023 - bias) << 52) | (frac << shift)
}

/// The shortest canonical big-endian encoding of `v` (2, 4 or 8 bytes).
/// Negative zero has none: `Err(FloatNonMinimal)`.
pub fn shortest(v: f64, out: &mut [u8; 8]) -> Result<usize, Error> {
    if v == 0.0 && v.is_sign_negative() {
        return Err(Error::FloatNonMinimal);
    }
    let b64 = v.to_bits().to_be_bytes();
    if check(&b64).is_ok() {
        // No binary32 holds it (the +0 case is refused by check and
        // handled below as narrowable).
        *out = b64;
        return Ok(8);
    }
    let b32 = narrow_f64_bits(v.to_bits()).to_be_bytes();
    if let Some(h) = f16_exact(&b32) {
        out[..2].copy_from_slice(&h);
        return Ok(2);
    }
    out[..4].copy_from_slice(&b32);
    Ok(4)
}

/// The binary32 pattern of a binary64 known to fit in binary32 exactly.
/// Done on bits so that NaN payloads survive (an `as` cast may not keep them).
pub(crate) fn narrow_f64_bits(x: u64) -> u32 {
    let sign = ((x >> 32) & 0x8000_0000) as u32;
    let exp = ((x >> 52) & 0x7FF) as i32;
    let frac = x & 0xF_FFFF_FFFF_FFFF;
    match exp {
        0 => sign,
        0x7FF => sign | 0x7F80_0000 | (frac >> 29) as u32,
        _ => {
            let e = exp - 1023;
            if e >= -126 {
                sign | (((e + 127) as u32) << 23) | (frac >> 29) as u32
            } else {
                let shift = (-126 - e) as u32;
                sign | (((frac | 0x10_0000_0000_0000) >> (29 + shift)) as u32)
            }
        }
    }
}

/// The binary16 pattern holding the binary32 `b32` exactly, if any.
fn f16_exact(b32: &[u8; 4]) -> Option<[u8; 2]> {
    if check(b32).is_ok() {
        return None;
    }
    let x = u32::from_be_bytes(*b32);
    let sign = ((x >> 16) & 0x8000) as u16;
    let exp = ((x >> 23) & 0xFF) as i32;
    let frac = x & 0x7F_FFFF;
    let h = match exp {
        0 => sign, // +0 (negative zero was refused by the caller)
        0xFF => sign | 0x7C00 | (frac >> 13) as u16,
        _ => {
            let e = exp - 127;
            if e >= -14 {
                sign | (((e + 15) as u16) << 10) | (frac >> 13) as u16
            } else {
                let shift = (-14 - e) as u32;
                sign | (((frac | 0x80_0000) >> (13 + shift)) as u16)
            }
        }
    };
    Some(h.to_be_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads back `bytes` through the double and writes it at its shortest.
    fn round_trip(bytes: &[u8]) -> ([u8; 8], usize) {
        let d = to_f64(bytes).unwrap();
        let mut out = [0u8; 8];
        let n = shortest(d, &mut out).unwrap();
        (out, n)
    }

    #[test]
    fn every_binary16_reads_exactly_and_round_trips() {
        for h in (0..=u16::MAX).step_by(crate::sample::stride(251)) {
            let bytes = h.to_be_bytes();
            let bits = to_f64_bits(&bytes).unwrap();
            let exp = (h >> 10) & 0x1F;
            let frac = f64::from(h & 0x3FF);
            let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
            match exp {
                31 if h & 0x3FF != 0 => {
                    // NaN: sign, quiet bit and payload moved up bit for bit.
                    let want = (u64::from(h & 0x8000) << 48)
                        | (0x7FF << 52)
                        | (u64::from(h & 0x3FF) << 42);
                    assert_eq!(bits, want, "{h:04X}");
                }
                31 => assert_eq!(f64::from_bits(bits), sign * f64::INFINITY),
                0 => assert_eq!(f64::from_bits(bits), sign * frac / 16_777_216.0, "{h:04X}"),
                _ => {
                    // 2^(exp - 25) built from its bits: `powi` is not exact
                    // everywhere (Miri perturbs it on purpose).
                    let scale = f64::from_bits((u64::from(exp) + 1023 - 25) << 52);
                    let want = sign * (1024.0 + frac) * scale;
                    assert_eq!(f64::from_bits(bits), want, "{h:04X}");
                }
            }
            if check(&bytes).is_ok() {
                let (out, n) = round_trip(&bytes);
                assert_eq!(&out[..n], &bytes, "{h:04X}");
            }
        }
    }

    #[test]
    fn binary32_reads_exactly_and_round_trips() {
        let mut x: u32 = 1;
        let special = [
            0x7F80_0001u32, // signalling NaN, payload 1
            0xFF80_0001,
            0x7FC0_0001,
            0x7FBF_FFFF,
            0x7FFF_FFFF,
            0x0000_0001,
            0x807F_FFFF,
            0x0080_0000,
            0x7F7F_FFFF,
        ];
        for i in 0..crate::sample::count(200_000, 600) as u32 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let v = special.get(i as usize).copied().unwrap_or(x);
            let bytes = v.to_be_bytes();
            let bits = to_f64_bits(&bytes).unwrap();
            if v & 0x7F80_0000 == 0x7F80_0000 && v & 0x7F_FFFF != 0 {
                let want =
                    (u64::from(v >> 31) << 63) | (0x7FF << 52) | (u64::from(v & 0x7F_FFFF) << 29);
                assert_eq!(bits, want, "{v:08X}");
            } else {
                assert_eq!(bits, f64::from(f32::from_bits(v)).to_bits(), "{v:08X}");
            }
            if check(&bytes).is_ok() {
                let (out, n) = round_trip(&bytes);
                assert_eq!(&out[..n], &bytes, "{v:08X}");
            }
        }
    }

    #[test]
    fn issue_13_nans_keep_payload_and_signalling_bit() {
        // 10 7C01: binary16 signalling NaN with payload 1.
        assert_eq!(round_trip(&[0x7C, 0x01]).1, 2);
        assert_eq!(&round_trip(&[0x7C, 0x01]).0[..2], &[0x7C, 0x01]);
        // 11 7F800001: binary32 signalling NaN.
        let (out, n) = round_trip(&[0x7F, 0x80, 0x00, 0x01]);
        assert_eq!(&out[..n], &[0x7F, 0x80, 0x00, 0x01]);
        // A binary64 signalling NaN stays as it is.
        let b64 = 0x7FF0_0000_0000_0001u64.to_be_bytes();
        assert_eq!(to_f64_bits(&b64), Some(0x7FF0_0000_0000_0001));
        let (out, n) = round_trip(&b64);
        assert_eq!(&out[..n], &b64);
    }
}
