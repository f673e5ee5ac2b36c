//! The field order of the struct types a value writes: which are declared
//! in the format's key order (written with nothing moved) and which are
//! put in order as they are written, with the order that would spare it.

use alloc::vec::Vec;

use serde::Serialize;

use super::{workspace::Workspace, Error, Serializer};
use crate::rules::key_cmp;

/// A struct type (or struct variant) met while serializing, by its serde
/// name: its fields as its `Serialize` gives them (declaration order, the
/// names as written: after `rename`) and in the format's key order
/// (shorter names first, then bytewise).
///
/// When the two differ, each instance is written in declaration order and
/// then permuted into key order; declaring the fields in `key_order`
/// gives the same bytes with nothing moved, the fastest way. The
/// [keks-macros](https://docs.rs/keks-macros) crate's
/// `#[keks_macros::key_order]`, put above `#[derive(Serialize)]`, does
/// that at compile time. Note that a new declaration order is every
/// format's field order: positional formats (bincode, postcard) would then
/// write the fields in it too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldOrder {
    /// The struct's name (a struct variant's: the variant's).
    pub name: &'static str,
    /// Its fields in the order its `Serialize` gives them.
    pub declared: Vec<&'static str>,
    /// The same fields in the format's key order.
    pub key_order: Vec<&'static str>,
}

impl FieldOrder {
    /// Whether the fields are declared in key order (written with nothing
    /// moved).
    pub fn is_key_order(&self) -> bool {
        self.declared == self.key_order
    }
}

/// Serializes `value` (the output is dropped) and reports each struct
/// type it wrote, in the order first met, with its fields in declaration
/// and in key order ([`FieldOrder`]).
///
/// A struct's fields are those its instances in `value` gave: a field
/// that `skip_serializing_if` left out of every instance is not listed.
/// Up to 1,024 struct types are reported (the serializer's plan limit).
/// Types are told apart by name: two of one name may be reported as one,
/// with the fields of both. Errors are
/// [`to_vec`](super::to_vec)'s.
///
/// A unit test can keep a type's declaration in key order as it changes:
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Reading { sensor: &'static str, value: f64, unit: &'static str }
///
/// let orders = keks::ser::field_orders(&Reading { sensor: "t1", value: 1.5, unit: "K" })?;
/// assert_eq!(orders.len(), 1);
/// assert!(!orders[0].is_key_order());
/// assert_eq!(orders[0].key_order, ["unit", "value", "sensor"]);
///
/// // Declared in that order: the same bytes, nothing moved.
/// #[derive(serde::Serialize)]
/// struct Reordered { unit: &'static str, value: f64, sensor: &'static str }
/// let r = Reordered { unit: "K", value: 1.5, sensor: "t1" };
/// let orders = keks::ser::field_orders(&r)?;
/// assert!(orders.iter().all(|o| o.is_key_order()), "declare as {orders:?}");
/// assert_eq!(
///     keks::to_vec(&r)?,
///     keks::to_vec(&Reading { sensor: "t1", value: 1.5, unit: "K" })?,
/// );
/// # Ok::<(), keks::serde::Error>(())
/// ```
pub fn field_orders<T: Serialize + ?Sized>(value: &T) -> Result<Vec<FieldOrder>, Error> {
    // A workspace of its own: the thread's would bring the plans of the
    // types its earlier documents wrote.
    let mut ser = Serializer::with_workspace(Vec::new(), Workspace::default(), None);
    value
        .serialize(&mut ser)
        .map_err(|e| e.or_at(ser.position()))?;
    Ok(ser
        .plans
        .newest()
        .map(|(name, fields)| {
            let declared: Vec<&'static str> = fields.iter().map(|k| k.name).collect();
            let mut key_order = declared.clone();
            key_order.sort_by(|a, b| key_cmp(a.as_bytes(), b.as_bytes()));
            FieldOrder {
                name,
                declared,
                key_order,
            }
        })
        .collect())
}
