//! `#[serde(with = "keks::serde::hexlet")]`: a `[u8; 16]` as a HEXLET
//! (UUIDs, IPv6 addresses), read from a HEXLET.
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Key {
//!     #[serde(with = "keks::serde::hexlet")]
//!     id: [u8; 16],
//! }
//! let doc = keks::to_vec(&Key { id: [0xAB; 16] })?;
//! assert_eq!(&doc[3..6], [b'd', 0x04, 0xAB]); // MAP, "id", HEXLET
//! assert_eq!(keks::from_slice::<Key>(&doc)?.id, [0xAB; 16]);
//! # Ok::<(), keks::serde::Error>(())
//! ```

use serde::{de, Deserializer, Serializer};

use super::ext::{self, Ext};

/// Writes `h` as a HEXLET.
pub fn serialize<S: Serializer>(h: &[u8; 16], s: S) -> Result<S::Ok, S::Error> {
    ext::serialize(s, Ext::Hexlet, h)
}

/// Reads a HEXLET.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 16], D::Error> {
    let f = ext::deserialize_fixed(d, &["Hexlet"])?;
    f.bytes()
        .try_into()
        .map_err(|_| de::Error::invalid_length(f.bytes().len(), &"16 bytes"))
}

super::option::option_module!([u8; 16], "keks::serde::hexlet::option");
