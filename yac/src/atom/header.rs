//! BIN/STR headers (the length forms) and big-endian magnitudes: the
//! pieces of the exact decoder that the parser, the validator and the
//! encoders also use on their own.

use crate::error::Error;

/// Decodes the header of a BIN/STR whose tag is `buf[0]`: returns the
/// header length and the payload length, without checking the payload is
/// present. A length that does not fit `usize` is [`Error::LenTooBig`].
#[inline]
pub fn string_header(buf: &[u8]) -> Result<(usize, usize), Error> {
    let Some(&t) = buf.first() else {
        return Err(Error::NotEnough(1));
    };
    let short = usize::from(t & 0x3F);
    let need = |n: usize| Error::NotEnough(n - buf.len());
    match short {
        0..=60 => Ok((1, short)),
        61 => match buf.get(1) {
            Some(&x) => Ok((2, 61 + usize::from(x))),
            None => Err(need(2)),
        },
        62 => match buf.get(1..3) {
            Some(&[a, b]) => Ok((3, 317 + usize::from(u16::from_be_bytes([a, b])))),
            _ => Err(need(3)),
        },
        _ => match buf.get(1..9) {
            Some(s) => {
                let mut x = [0u8; 8];
                x.copy_from_slice(s);
                let len = u64::from_be_bytes(x)
                    .checked_add(LEN_8_BASE)
                    .ok_or(Error::LenTooBig)?;
                Ok((9, usize::try_from(len).map_err(|_| Error::LenTooBig)?))
            }
            None => Err(need(9)),
        },
    }
}

/// What the 9-byte length form of BIN/STR adds to its 64-bit field: the
/// first length past the 16-bit form (317 + 65536). The decoder's, the
/// encoder's and the tree's one definition.
pub(crate) const LEN_8_BASE: u64 = 65853;

/// [`string_header`] with the payload length as the wire states it, on
/// any pointer width (for reporting a corrupt length as such). A length
/// past `u64::MAX` is [`Error::LenTooBig`].
pub fn string_header_u64(buf: &[u8]) -> Result<(usize, u64), Error> {
    match string_header(buf) {
        Ok((head, len)) => Ok((head, len as u64)),
        // Only the 9-byte form gets here: its length is past `usize`.
        Err(Error::LenTooBig) => buf
            .get(1..9)
            .and_then(|s| <[u8; 8]>::try_from(s).ok())
            .and_then(|x| u64::from_be_bytes(x).checked_add(LEN_8_BASE))
            .map(|len| (9, len))
            .ok_or(Error::LenTooBig),
        Err(e) => Err(e),
    }
}

/// Decodes a whole BIN/STR at the start of `buf`: its payload and the total
/// length. STR payloads are not validated here.
#[inline]
pub fn string_raw(buf: &[u8]) -> Result<(&[u8], usize), Error> {
    let (head, len) = string_header(buf)?;
    let total = head.checked_add(len).ok_or(Error::LenTooBig)?;
    match buf.get(head..total) {
        Some(payload) => Ok((payload, total)),
        None => Err(Error::NotEnough(total - buf.len())),
    }
}

/// Reads a big-endian magnitude of at most 8 bytes.
#[inline]
pub fn be_u64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0u64, |acc, &b| (acc << 8) | u64::from(b))
}
