//! TAI64, TAI64N and TAI64NA labels: validity rules of the format.
//! (Conversions to and from UNIX/UTC time live here too.)

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
    let secs = label.get(..8).ok_or(Error::Invalid)?;
    if crate::atom::be_u64(secs) >= RESERVED_FROM {
        return Err(Error::Tai64TooBig);
    }
    let (ns, atto) = match label.len() {
        8 => return Ok(()),
        12 => (be_u32(&label[8..12]), None),
        16 => (be_u32(&label[8..12]), Some(be_u32(&label[12..16]))),
        _ => return Err(Error::Invalid),
    };
    if ns > FRAC_MAX {
        return Err(Error::Tai64BadNsec);
    }
    match atto {
        None if ns == 0 => Err(Error::Tai64NonMinimal),
        None => Ok(()),
        Some(a) if a > FRAC_MAX => Err(Error::Tai64BadAsec),
        Some(0) => Err(Error::Tai64NonMinimal),
        Some(_) => Ok(()),
    }
}
