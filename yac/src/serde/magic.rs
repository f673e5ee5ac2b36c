//! `#[serde(with = "keks::serde::magic")]`: a `[u8; 12]` as a MAGIC (the
//! 12 bytes after "KEKS", zero-padded), read from a MAGIC.
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct File {
//!     #[serde(with = "keks::serde::magic")]
//!     kind: [u8; 12],
//! }
//! let doc = keks::to_vec(&File { kind: *b"cm/pub\0\0\0\0\0\0" })?;
//! assert_eq!(&doc[6..10], b"KEKS");
//! assert_eq!(&keks::from_slice::<File>(&doc)?.kind[..6], b"cm/pub");
//! # Ok::<(), keks::serde::Error>(())
//! ```

use serde::{de, Deserializer, Serializer};

use super::ext::{self, Ext};

/// Writes `m` as a MAGIC.
pub fn serialize<S: Serializer>(m: &[u8; 12], s: S) -> Result<S::Ok, S::Error> {
    ext::serialize(s, Ext::Magic, m)
}

/// Reads a MAGIC.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<[u8; 12], D::Error> {
    let f = ext::deserialize_fixed(d, &["Magic"])?;
    f.bytes()
        .try_into()
        .map_err(|_| de::Error::invalid_length(f.bytes().len(), &"12 bytes"))
}

super::option::option_module!([u8; 12], "keks::serde::magic::option");
