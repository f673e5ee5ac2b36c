//! Decimal text for integers of any size (feature `alloc`), as the format
//! writes them: a sign and a big-endian magnitude (for a negative one the
//! wire holds v, meaning -1 - v).

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

/// The decimal digits of a big-endian magnitude ("0" when empty).
pub fn to_decimal(magnitude: &[u8]) -> String {
    // Little-endian limbs in base 10^9.
    let mut limbs: Vec<u32> = Vec::new();
    for &byte in magnitude {
        let mut carry = u64::from(byte);
        for limb in limbs.iter_mut() {
            let x = u64::from(*limb) * 256 + carry;
            *limb = (x % 1_000_000_000) as u32;
            carry = x / 1_000_000_000;
        }
        while carry > 0 {
            limbs.push((carry % 1_000_000_000) as u32);
            carry /= 1_000_000_000;
        }
    }
    let mut out = match limbs.last() {
        Some(top) => top.to_string(),
        None => return "0".to_string(),
    };
    for limb in limbs.iter().rev().skip(1) {
        let _ = write!(out, "{limb:09}");
    }
    out
}

/// The big-endian magnitude of a string of ASCII digits, without leading
/// zero bytes (empty for zero). The caller checked the digits.
pub fn from_decimal(digits: &str) -> Vec<u8> {
    // Little-endian bytes while multiplying.
    let mut le: Vec<u8> = Vec::new();
    for d in digits.bytes() {
        let mut carry = u32::from(d.wrapping_sub(b'0'));
        for byte in le.iter_mut() {
            let x = u32::from(*byte) * 10 + carry;
            *byte = (x & 0xFF) as u8;
            carry = x >> 8;
        }
        while carry > 0 {
            le.push((carry & 0xFF) as u8);
            carry >>= 8;
        }
    }
    while le.last() == Some(&0) {
        le.pop();
    }
    le.reverse();
    le
}

/// magnitude + 1 (big-endian, any length).
pub fn add_one(magnitude: &[u8]) -> Vec<u8> {
    let mut out = magnitude.to_vec();
    for byte in out.iter_mut().rev() {
        let (v, overflow) = byte.overflowing_add(1);
        *byte = v;
        if !overflow {
            return out;
        }
    }
    out.insert(0, 1);
    out
}

/// magnitude - 1 (big-endian); the magnitude must not be zero.
pub fn sub_one(magnitude: &[u8]) -> Vec<u8> {
    let mut out = magnitude.to_vec();
    for byte in out.iter_mut().rev() {
        let (v, borrow) = byte.overflowing_sub(1);
        *byte = v;
        if !borrow {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn decimal_round_trips() {
        for v in [
            0u128,
            1,
            9,
            10,
            255,
            256,
            999_999_999,
            1_000_000_000,
            u64::MAX as u128,
            1 << 64,
            u128::MAX,
        ] {
            let be = v.to_be_bytes();
            let first = be.iter().position(|&b| b != 0).unwrap_or(16);
            let mag = &be[first..];
            assert_eq!(to_decimal(mag), v.to_string());
            assert_eq!(from_decimal(&v.to_string()), mag);
        }
        assert_eq!(from_decimal("000"), Vec::<u8>::new());
        assert_eq!(to_decimal(&[0, 0, 1]), "1");
    }

    #[test]
    fn plus_minus_one() {
        assert_eq!(add_one(&[]), vec![1]);
        assert_eq!(add_one(&[0xFF, 0xFF]), vec![1, 0, 0]);
        assert_eq!(add_one(&[1, 0xFF]), vec![2, 0]);
        assert_eq!(sub_one(&[1, 0, 0]), vec![0, 0xFF, 0xFF]);
        assert_eq!(sub_one(&[2, 0]), vec![1, 0xFF]);
    }
}
