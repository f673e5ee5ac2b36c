//! Field plans: what the serializer learns from a struct type's first
//! instance so that its later instances skip the key checks and the sort.
//!
//! A derived `Serialize` gives a struct's fields in declaration order as
//! `&'static str`s, the same pointers every time. The first instance of a
//! type goes the general way (checked, put in order) and its field names
//! are kept; the plan then holds their encoded keys and the permutation
//! from declaration order to the format's key order. A later instance
//! whose field names are exactly the plan's (same pointer and length, so
//! the same bytes, one after another, all present) is written with the
//! plan's keys and put in order by one permutation of its body; any other
//! field (a skipped one, another type of the same name) sends that
//! instance the general way.

use alloc::vec::Vec;

use crate::rules::key_cmp;

/// At most this many plans are kept (struct types seen in one document).
const MAX_PLANS: usize = 1024;

/// Slots of the lookup table: a power of two.
const SLOTS: usize = 64;

/// One field of a plan.
pub(crate) struct PlanKey {
    pub name: &'static str,
    /// The key's atom (tag then payload, zero-padded) for a name of at
    /// most 16 bytes.
    pub window: [u8; 24],
}

impl PlanKey {
    /// Whether `key` is this field's name: the same pointer and length.
    #[inline(always)]
    pub fn is(&self, key: &'static str) -> bool {
        same(self.name, key)
    }
}

/// A struct type's fields and their canonical order.
pub(crate) struct Plan {
    /// The struct's (or struct variant's) name.
    name: &'static str,
    /// The fields in declaration order: `Plans::keys[first..first + len]`.
    pub first: usize,
    pub len: usize,
    /// Declaration indices in key order, from `first_moved` on (empty when
    /// the declaration order is the key order).
    pub order: Vec<usize>,
    /// The first place in key order whose field is declared elsewhere.
    pub first_moved: usize,
    /// When `order` is `k..` then `first_moved..k` (two runs swapped, as
    /// in most small structs): `k`, and the body is rotated in place.
    pub rotation: Option<usize>,
}

/// The plans of the struct types seen, found by name.
pub(crate) struct Plans {
    pub plans: Vec<Plan>,
    /// The fields of all plans, each plan's in one run (one lookup per
    /// field, with no indirection through its plan).
    pub keys: Vec<PlanKey>,
    /// Plan index + 1 by a hash of the name's address (0: none).
    slots: [u32; SLOTS],
}

impl Plans {
    pub fn new() -> Self {
        Plans {
            plans: Vec::new(),
            keys: Vec::new(),
            slots: [0; SLOTS],
        }
    }

    /// The plan of the struct named `name`, if one is kept.
    #[inline(always)]
    pub fn find(&mut self, name: &'static str) -> Option<usize> {
        let p = name.as_ptr() as usize;
        let h = (p >> 3 ^ p >> 9 ^ name.len()) & (SLOTS - 1);
        let s = self.slots.get(h).copied().unwrap_or(0) as usize;
        if let Some(plan) = s.checked_sub(1).and_then(|i| self.plans.get(i)) {
            if same(plan.name, name) {
                return Some(s - 1);
            }
        }
        self.find_slow(name, h)
    }

    #[cold]
    fn find_slow(&mut self, name: &'static str, h: usize) -> Option<usize> {
        let i = self.plans.iter().position(|p| same(p.name, name))?;
        if let Some(s) = self.slots.get_mut(h) {
            *s = i as u32 + 1;
        }
        Some(i)
    }

    /// Whether a plan may still be added.
    pub fn room(&self) -> bool {
        self.plans.len() < MAX_PLANS
    }

    /// Keeps the plan of `name` whose fields, in declaration order, are
    /// `fields` (distinct keys the serializer has accepted).
    #[cold]
    pub fn add(
        &mut self,
        name: &'static str,
        fields: &[&'static str],
        window: impl Fn(&str) -> [u8; 24],
    ) {
        let mut order: Vec<usize> = (0..fields.len()).collect();
        order.sort_by(|&a, &b| key_cmp(fields[a].as_bytes(), fields[b].as_bytes()));
        let first_moved = order
            .iter()
            .enumerate()
            .position(|(k, &d)| k != d)
            .unwrap_or(order.len());
        order.drain(..first_moved);
        let rotation = order.first().copied().filter(|&k| {
            order
                .iter()
                .copied()
                .eq((k..fields.len()).chain(first_moved..k))
        });
        let first = self.keys.len();
        self.keys.extend(fields.iter().map(|&name| PlanKey {
            name,
            window: window(name),
        }));
        self.plans.push(Plan {
            name,
            first,
            len: fields.len(),
            order,
            first_moved,
            rotation,
        });
    }
}

/// The same `&'static str` (pointer and length).
#[inline(always)]
fn same(a: &'static str, b: &'static str) -> bool {
    core::ptr::eq(a.as_ptr(), b.as_ptr()) && a.len() == b.len()
}
