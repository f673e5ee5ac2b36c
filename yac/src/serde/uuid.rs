//! `#[serde(with = "keks::serde::uuid")]` (feature `uuid`): a
//! [`uuid::Uuid`] as a HEXLET, read from a HEXLET.
//!
//! ```
//! #[derive(serde::Serialize, serde::Deserialize)]
//! struct Row {
//!     #[serde(with = "keks::serde::uuid")]
//!     id: uuid::Uuid,
//! }
//! let id = uuid::Uuid::from_u128(0x0e875e3f_d385_49eb_87b4_be42d641c367);
//! let doc = keks::to_vec(&Row { id })?;
//! assert_eq!(&doc[4..7], [0x04, 0x0E, 0x87]);
//! assert_eq!(keks::from_slice::<Row>(&doc)?.id, id);
//! # Ok::<(), keks::serde::Error>(())
//! ```

use serde::{Deserializer, Serializer};

/// Writes `id` as a HEXLET.
pub fn serialize<S: Serializer>(id: &uuid::Uuid, s: S) -> Result<S::Ok, S::Error> {
    super::hexlet::serialize(id.as_bytes(), s)
}

/// Reads a HEXLET.
pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<uuid::Uuid, D::Error> {
    super::hexlet::deserialize(d).map(uuid::Uuid::from_bytes)
}

super::option::option_module!(::uuid::Uuid, "keks::serde::uuid::option");
