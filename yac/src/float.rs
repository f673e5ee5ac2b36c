//! IEEE 754 floats of the format (binary16/32/64/128/256, big-endian):
//! the shortest-width and no-negative-zero rules, and widening of the
//! three narrow widths to `f64`.
//!
//! A float of width W is canonical when no narrower width holds exactly the
//! same value (NaN payloads included). Holding exactly is decided on the bit
//! pattern alone, so 128- and 256-bit floats need no wide arithmetic.

use crate::error::Error;

/// Exponent and fraction bit counts of one IEEE binary interchange format.
#[derive(Clone, Copy)]
struct Layout {
    exp_bits: u32,
    frac_bits: u32,
}

const LAYOUTS: [Layout; 5] = [
    Layout {
        exp_bits: 5,
        frac_bits: 10,
    },
    Layout {
        exp_bits: 8,
        frac_bits: 23,
    },
    Layout {
        exp_bits: 11,
        frac_bits: 52,
    },
    Layout {
        exp_bits: 15,
        frac_bits: 112,
    },
    Layout {
        exp_bits: 19,
        frac_bits: 236,
    },
];

/// Index into [`LAYOUTS`] for a width in bytes (2, 4, 8, 16, 32).
fn layout_index(width: usize) -> Option<usize> {
    match width {
        2 => Some(0),
        4 => Some(1),
        8 => Some(2),
        16 => Some(3),
        32 => Some(4),
        _ => None,
    }
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

/// `n` bits (n <= 32) starting at bit `lo`, as an integer.
fn bits(bytes: &[u8], lo: u32, n: u32) -> u32 {
    (0..n).fold(0, |acc, k| acc | (u32::from(bit(bytes, lo + k)) << k))
}

/// Number of trailing zero bits among the low `n` bits (n if all zero).
fn trailing_zeros(bytes: &[u8], n: u32) -> u32 {
    (0..n).find(|&i| bit(bytes, i)).unwrap_or(n)
}

/// Checks the format's rules for a float payload of 2, 4, 8, 16 or 32 bytes.
pub fn check(bytes: &[u8]) -> Result<(), Error> {
    let idx = layout_index(bytes.len()).ok_or(Error::Invalid)?;
    let own = LAYOUTS[idx];
    let total = own.exp_bits + own.frac_bits;
    let negative = bit(bytes, total);
    let biased = bits(bytes, own.frac_bits, own.exp_bits);
    let frac_tz = trailing_zeros(bytes, own.frac_bits);
    let frac_zero = frac_tz == own.frac_bits;
    if biased == 0 && frac_zero {
        // Zero: negative zero is forbidden, positive zero fits binary16.
        return if negative || idx > 0 {
            Err(Error::FloatNonMinimal)
        } else {
            Ok(())
        };
    }
    let Some(narrower) = idx.checked_sub(1).map(|i| LAYOUTS[i]) else {
        return Ok(());
    };
    if fits(own, narrower, biased, frac_tz, frac_zero) {
        Err(Error::FloatNonMinimal)
    } else {
        Ok(())
    }
}

/// Whether a value of layout `own` is exactly representable in `narrow`.
fn fits(own: Layout, narrow: Layout, biased: u32, frac_tz: u32, frac_zero: bool) -> bool {
    let dropped = own.frac_bits - narrow.frac_bits;
    let exp_max = (1u32 << own.exp_bits) - 1;
    if biased == exp_max {
        // Infinity always fits; a NaN fits when its payload loses no bit.
        return frac_zero || frac_tz >= dropped;
    }
    if biased == 0 {
        // A subnormal of binary32 or wider lies below 2^-126, far under the
        // smallest binary16/32/... subnormal of the next narrower format.
        return false;
    }
    let own_bias = (1i64 << (own.exp_bits - 1)) - 1;
    let narrow_bias = (1i64 << (narrow.exp_bits - 1)) - 1;
    // value = S * 2^q with S odd; e is the exponent of S's top bit.
    let e = i64::from(biased) - own_bias;
    let q = if frac_zero {
        e
    } else {
        e - i64::from(own.frac_bits) + i64::from(frac_tz)
    };
    let narrow_min = 1 - narrow_bias;
    e <= narrow_bias && q >= e.max(narrow_min) - i64::from(narrow.frac_bits)
}

/// Widens a binary16/32/64 payload to `f64` exactly. `None` for 16/32 bytes.
pub fn to_f64(bytes: &[u8]) -> Option<f64> {
    match *bytes {
        [a, b] => Some(f16_to_f64(u16::from_be_bytes([a, b]))),
        [a, b, c, d] => Some(f64::from(f32::from_bits(u32::from_be_bytes([a, b, c, d])))),
        [a, b, c, d, e, f, g, h] => {
            Some(f64::from_bits(u64::from_be_bytes([a, b, c, d, e, f, g, h])))
        }
        _ => None,
    }
}

fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = i32::from((h >> 10) & 0x1F);
    let frac = f64::from(h & 0x3FF);
    let magnitude = match exp {
        0 => frac * pow2(-24),
        31 if frac == 0.0 => f64::INFINITY,
        31 => f64::NAN,
        _ => (1024.0 + frac) * pow2(exp - 25),
    };
    sign * magnitude
}

/// 2^e for the small range a binary16 needs, without libm.
fn pow2(e: i32) -> f64 {
    f64::from_bits(((1023 + i64::from(e)) as u64) << 52)
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
fn narrow_f64_bits(x: u64) -> u32 {
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
