//! Field plans: what the serializer learns from a struct type's instances
//! so that its later instances skip the key checks and the sort.
//!
//! A derived `Serialize` gives a struct's fields in declaration order as
//! `&'static str`s, the same pointers every time, leaving out the fields it
//! skips (`skip_serializing_if`). The first instance of a type goes the
//! general way (checked, put in order) and its field names are kept; the
//! plan then holds their encoded keys and the permutation from declaration
//! order to the format's key order. A later instance whose field names are
//! the plan's, some perhaps left out (same pointer and length, so the same
//! bytes, in the plan's order), is written with the plan's keys and put in
//! order by one permutation of its body, a field left out being an empty
//! entry: the key order of some of the plan's keys is theirs in the plan's
//! order. Any other field (one the plan lacks, another type of the same
//! name) sends that instance the general way, and a plan that lacked one
//! of its fields is replaced by one that has both's
//! ([`merged`](Plans::merged)).

use alloc::vec::Vec;
use core::cell::Cell;

use crate::rules::key_cmp;

/// At most this many plans are kept (struct types seen in one document).
const MAX_PLANS: usize = 1024;

/// Slots of the lookup table: a power of two.
const SLOTS: usize = 64;

/// Plans put out of their slot that are kept at hand ([`Plans::evicted`]).
const EVICTED: usize = 4;

/// A struct name's plan is replaced by a larger one at most this many
/// times, of at most `MAX_FIELDS` fields (what a document of structs whose
/// fields keep changing costs is bounded).
const MAX_REPLACED: u8 = 8;
const MAX_FIELDS: usize = 256;

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
    len: usize,
    /// The fields from `first_moved` on in key order, as runs of fields
    /// declared one after the other (`d..e`, declaration indices: a run
    /// is one copy); empty when the declaration order is the key order.
    /// Each `d < e <= len` (made so by [`Plans::add`], changed by nothing
    /// else, which [`moved_bounds`](Self::moved_bounds) stands on).
    runs: Vec<(usize, usize)>,
    /// The first place in key order whose field is declared elsewhere.
    pub first_moved: usize,
    /// When `runs` are `k..len` then `first_moved..k` (two runs swapped,
    /// as in most small structs): `k`, and the body is rotated in place.
    pub rotation: Option<usize>,
    /// How many plans of this name came before it.
    replaced: u8,
    /// Its instances are written the general way (which moves aside only
    /// small entries): one of them moved a large run of fields.
    in_place: bool,
}

impl Plan {
    /// How many fields it has.
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.len
    }

    /// How many runs of fields are moved (each by one copy): none when the
    /// declaration order is the key order.
    #[inline(always)]
    pub fn moved(&self) -> usize {
        self.runs.len()
    }

    /// Where each run of fields from the first moved on starts and ends,
    /// in key order, read from `starts`: where each declared field starts,
    /// then the body's end (`len + 1` words). `None` when `starts` is not
    /// that long.
    #[inline(always)]
    pub fn moved_bounds<'a>(
        &'a self,
        starts: &'a [usize],
    ) -> Option<impl Iterator<Item = (usize, usize)> + 'a> {
        if starts.len() != self.len + 1 {
            return None;
        }
        Some(self.runs.iter().map(move |&(d, e)| {
            debug_assert!(d < e && e <= self.len);
            // SAFETY: every run's `d < e <= len` (see `runs`), and
            // `starts` holds `len + 1` words: `d` and `e` are inside it.
            unsafe { (*starts.get_unchecked(d), *starts.get_unchecked(e)) }
        }))
    }
}

/// The plans of the struct types seen, found by name.
pub(crate) struct Plans {
    pub plans: Vec<Plan>,
    /// The fields of all plans, each plan's in one run (one lookup per
    /// field, with no indirection through its plan). It never shrinks:
    /// [`add`](Self::add) extends it, nothing takes from it, so the runs of
    /// the plans opened stay in it ([`key_unchecked`](Self::key_unchecked)
    /// stands on that).
    keys: Vec<PlanKey>,
    /// Plan index + 1 by a hash of the name's address (0: none); a cache,
    /// updated as plans are found.
    slots: [Cell<u32>; SLOTS],
    /// The plans last put out of their slot by another name's (as in
    /// `slots`: index + 1, or 0), looked in before a search
    /// ([`find_slow`]).
    ///
    /// [`find_slow`]: Self::find_slow
    evicted: [Cell<u32>; EVICTED],
    /// Which of `evicted` is replaced next: always below `EVICTED`.
    next_evicted: Cell<usize>,
    /// The plan last opened, what a struct of the same type as the one
    /// before (most, in a document of many small structs) needs of it at
    /// hand, without the lookup.
    last: Opened,
}

/// What a planned struct's serializer needs of its plan, with the name it
/// was found by.
#[derive(Clone, Copy)]
pub(crate) struct Opened {
    /// The name's address and length (the address as a number: the cache
    /// is only compared with, never read through).
    name: (usize, usize),
    /// The plan's index.
    pub index: usize,
    /// Its fields: `Plans::keys[first..end]`.
    pub first: usize,
    pub end: usize,
    /// It puts the fields in another order than declared.
    pub reorders: bool,
}

impl Opened {
    /// Matches no name (a `&'static str` at address 0 is none).
    const NONE: Opened = Opened {
        name: (0, 0),
        index: 0,
        first: 0,
        end: 0,
        reorders: false,
    };
}

impl Default for Plans {
    fn default() -> Self {
        Plans::new()
    }
}

impl Plans {
    pub fn new() -> Self {
        Plans {
            plans: Vec::new(),
            keys: Vec::new(),
            slots: [const { Cell::new(0) }; SLOTS],
            evicted: [const { Cell::new(0) }; EVICTED],
            next_evicted: Cell::new(0),
            last: Opened::NONE,
        }
    }

    /// [`find`](Self::find) for a struct being opened: the plan of the
    /// same name as the last one opened is taken as kept then.
    #[inline(always)]
    pub fn open(&mut self, name: &'static str) -> Option<Opened> {
        if self.last.name == (name.as_ptr() as usize, name.len()) {
            return Some(self.last);
        }
        self.open_slow(name)
    }

    #[inline(always)]
    fn open_slow(&mut self, name: &'static str) -> Option<Opened> {
        let (index, p) = self.find(name).filter(|(_, p)| !p.in_place)?;
        let opened = Opened {
            name: (name.as_ptr() as usize, name.len()),
            index,
            first: p.first,
            end: p.first + p.len,
            reorders: !p.runs.is_empty(),
        };
        self.last = opened;
        Some(opened)
    }

    /// The plan of the struct named `name` and its index, if one is kept.
    #[inline(always)]
    pub fn find(&self, name: &'static str) -> Option<(usize, &Plan)> {
        let h = slot(name);
        // `held`'s test, written out: calling it here (inlined) measured
        // canada-map 19.24M -> 19.68M serialize instructions (code
        // generation of the LIST loop this is inlined beside).
        let s = self.slots.get(h).map_or(0, Cell::get) as usize;
        if let Some(i) = s.checked_sub(1) {
            if let Some(p) = self.plans.get(i) {
                if same(p.name, name) {
                    return Some((i, p));
                }
            }
        }
        self.find_slow(name, h)
    }

    /// [`find`](Self::find) of a name whose plan is not in its slot `h`: among
    /// the plans last put out of their slot (where it then stays), or else
    /// searched for among all and put in its slot. Two struct types whose names
    /// share a slot and alternate in a document then cost a few tests, not a
    /// search of every plan each time. The slot is a hash of the name's
    /// address, which changes with the link and the load address: built from
    /// another checkout path, `benches/serde` serialized countries in 4.50M
    /// instructions instead of 4.36M, its types sharing slots otherwise (`Idd`
    /// and `Currency` in one such build); with the evicted plans looked in,
    /// 4.30M in both (`benches/serde/count.sh`).
    /// Out of line: more tests inline measured +2.3% serialize
    /// instructions on canada-map, whose structs find their plan as the
    /// last one opened (the code beside its hot loop grew).
    #[cold]
    fn find_slow(&self, name: &'static str, h: usize) -> Option<(usize, &Plan)> {
        if let Some(found) = self.evicted.iter().find_map(|e| self.held(e, name)) {
            return Some(found);
        }
        // The newest: a replaced plan stays for the instances written by it.
        let i = self.plans.iter().rposition(|p| same(p.name, name))?;
        self.remember(h, i, name);
        Some((i, self.plans.get(i)?))
    }

    /// The plan that `cell` holds and its index, if it is of `name`.
    fn held(&self, cell: &Cell<u32>, name: &'static str) -> Option<(usize, &Plan)> {
        let i = (cell.get() as usize).checked_sub(1)?;
        let p = self.plans.get(i)?;
        same(p.name, name).then_some((i, p))
    }

    /// Puts plan `i`, the newest of `name`, in `name`'s slot `h`. A plan
    /// of another name there joins the evicted ones (over the oldest of
    /// them); an older plan of `name` leaves the cache, from the slot or
    /// the evicted ones: the cache holds no plan that has been replaced.
    fn remember(&self, h: usize, i: usize, name: &'static str) {
        for e in &self.evicted {
            if self.held(e, name).is_some() {
                e.set(0);
            }
        }
        let Some(home) = self.slots.get(h) else {
            return;
        };
        if home.get() != 0 && self.held(home, name).is_none() {
            let next = self.next_evicted.get();
            if let Some(e) = self.evicted.get(next) {
                e.set(home.get());
            }
            self.next_evicted.set((next + 1) % EVICTED);
        }
        home.set(i as u32 + 1);
    }

    /// The fields of all plans (see [`Opened`]).
    #[inline(always)]
    pub fn keys(&self) -> &[PlanKey] {
        &self.keys
    }

    /// Field `i` of the plans' runs, without a bounds check.
    ///
    /// # Safety
    /// `i < end` for an `end` that [`open`](Self::open) gave (`Opened::end`)
    /// on these plans.
    #[inline(always)]
    pub unsafe fn key_unchecked(&self, i: usize) -> &PlanKey {
        debug_assert!(i < self.keys.len());
        // SAFETY: an `Opened::end` is a plan's `first + len`, and its
        // fields were pushed onto `keys` (by `add`) before it was kept;
        // `keys` never shrinks. So `i < end <= keys.len()`.
        unsafe { self.keys.get_unchecked(i) }
    }

    /// Whether a plan may still be added.
    pub fn room(&self) -> bool {
        self.plans.len() < MAX_PLANS
    }

    /// Whether a plan of the struct `name` (whose instance has no plan to
    /// be written by) is to be learnt: one may be added, and the struct's
    /// is not written in place.
    #[cold]
    #[inline(never)]
    pub fn learns(&self, name: &'static str) -> bool {
        self.room() && !self.find(name).is_some_and(|(_, p)| p.in_place)
    }

    /// Has the instances of plan `i` written the general way from now on
    /// (it moved a large run of fields, which that way stays in place).
    #[cold]
    pub fn write_in_place(&mut self, i: usize) {
        if let Some(p) = self.plans.get_mut(i) {
            p.in_place = true;
        }
        self.last = Opened::NONE;
    }

    /// The fields of plan `i` and of an instance that left it (`fields`,
    /// distinct keys the serializer has accepted), in one order that keeps
    /// both's, if that adds fields to the plan and it may be replaced. A
    /// field of both is the same key (the same bytes): the result's keys
    /// are distinct. Where the two orders leave the place of a field open
    /// the plan's go first; should that be wrong, the instances that give
    /// both fields go the general way.
    #[cold]
    pub fn merged(&self, i: usize, fields: &[&'static str]) -> Option<Vec<&'static str>> {
        let plan = self.plans.get(i)?;
        let old = self.keys.get(plan.first..plan.first + plan.len)?;
        if plan.replaced >= MAX_REPLACED {
            return None;
        }
        let in_new = |k: &PlanKey| {
            fields
                .iter()
                .position(|f| f.as_bytes() == k.name.as_bytes())
        };
        let mut out = Vec::new();
        let (mut i, mut j) = (0, 0);
        while i < old.len() || j < fields.len() {
            let Some(k) = old.get(i) else {
                out.extend(fields.get(j..).unwrap_or(&[]));
                break;
            };
            match in_new(k) {
                None => {
                    out.push(k.name);
                    i += 1;
                }
                // Given already, as the instance's.
                Some(p) if p < j => i += 1,
                Some(p) if p == j => {
                    out.push(k.name);
                    i += 1;
                    j += 1;
                }
                // The instance's fields before this one of both.
                Some(_) => {
                    out.extend(fields.get(j..j + 1).unwrap_or(&[]));
                    j += 1;
                }
            }
        }
        (out.len() > old.len() && out.len() <= MAX_FIELDS).then_some(out)
    }

    /// Keeps the plan of `name` whose fields, in declaration order, are
    /// `fields` (distinct keys the serializer has accepted); it replaces
    /// the plan kept of `name`, if any.
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
        let runs = runs(&order);
        let rotation = match runs[..] {
            [(k, e), (f, k2)] if e == fields.len() && f == first_moved && k2 == k => Some(k),
            _ => None,
        };
        let replaced = match self.plans.iter().rposition(|p| same(p.name, name)) {
            Some(i) => self.plans.get(i).map_or(0, |p| p.replaced + 1),
            None => 0,
        };
        if self.plans.capacity() == 0 {
            // Room for a document's usual handful of struct types at once.
            self.plans.reserve(16);
            self.keys.reserve(128);
        }
        let first = self.keys.len();
        self.keys.extend(fields.iter().map(|&name| PlanKey {
            name,
            window: window(name),
        }));
        self.plans.push(Plan {
            name,
            first,
            len: fields.len(),
            runs,
            first_moved,
            rotation,
            replaced,
            in_place: false,
        });
        // Found by name from now on (the last opened may be the one
        // replaced).
        self.last = Opened::NONE;
        self.remember(slot(name), self.plans.len() - 1, name);
    }

    /// The name of plan `i`.
    pub fn name(&self, i: usize) -> Option<&'static str> {
        self.plans.get(i).map(|p| p.name)
    }

    /// The fields of plan `i`, in declaration order.
    pub fn fields(&self, i: usize) -> &[PlanKey] {
        self.plans
            .get(i)
            .and_then(|p| self.keys.get(p.first..p.first + p.len))
            .unwrap_or(&[])
    }

    /// Each struct name's newest plan (the one its instances are written
    /// by), in the order the names were first met: the name, and its
    /// fields in declaration order.
    pub fn newest(&self) -> impl Iterator<Item = (&'static str, &[PlanKey])> + '_ {
        self.plans.iter().enumerate().filter_map(move |(i, p)| {
            // The first plan of its name stands for the name (its place in
            // the order); the newest gives the fields.
            let earlier = self.plans.get(..i).unwrap_or(&[]);
            if earlier.iter().any(|q| same(q.name, p.name)) {
                return None;
            }
            let (newest, _) = self.find(p.name)?;
            Some((p.name, self.fields(newest)))
        })
    }
}

/// Declaration indices in key order cut into runs of indices that follow
/// one another (`d..e`): fields declared one after the other that stay so
/// in key order are moved by one copy.
fn runs(order: &[usize]) -> Vec<(usize, usize)> {
    let mut runs: Vec<(usize, usize)> = Vec::with_capacity(order.len());
    for &d in order {
        match runs.last_mut() {
            Some(run) if run.1 == d => run.1 = d + 1,
            _ => runs.push((d, d + 1)),
        }
    }
    runs
}

/// The lookup table's slot of a name: a hash of its address.
#[inline(always)]
fn slot(name: &'static str) -> usize {
    let p = name.as_ptr() as usize;
    (p >> 3 ^ p >> 9 ^ name.len()) & (SLOTS - 1)
}

/// The same `&'static str` (pointer and length).
#[inline(always)]
fn same(a: &'static str, b: &'static str) -> bool {
    core::ptr::eq(a.as_ptr(), b.as_ptr()) && a.len() == b.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIELDS: [&str; 6] = ["zz", "mid", "a", "last", "b", "c"];

    fn plans_of(fields: &[&'static str]) -> Plans {
        let mut p = Plans::new();
        p.add("T", fields, |_| [0; 24]);
        p
    }

    fn names(p: &Plans, i: usize) -> Vec<&'static str> {
        p.fields(i).iter().map(|k| k.name).collect()
    }

    #[test]
    fn a_merge_keeps_both_orders_and_distinct_keys() {
        let [zz, mid, a, last, b, c] = FIELDS;
        let p = plans_of(&[zz, a, b]);
        // Fields the plan lacked, between and after its own (where the
        // place is open, the plan's first).
        assert_eq!(
            p.merged(0, &[zz, mid, a, last]),
            Some(alloc::vec![zz, mid, a, b, last])
        );
        // Disjoint fields: the plan's first.
        assert_eq!(p.merged(0, &[c]), Some(alloc::vec![zz, a, b, c]));
        // Nothing new (another order, or fewer): nothing to replace.
        assert_eq!(p.merged(0, &[b, a, zz]), None);
        assert_eq!(p.merged(0, &[a]), None);
        // The same bytes at another address are the same key.
        static ZZ_ELSEWHERE: [u8; 2] = *b"zz";
        let zz2 = core::str::from_utf8(&ZZ_ELSEWHERE).unwrap();
        assert_ne!(zz2.as_ptr(), zz.as_ptr());
        assert_eq!(p.merged(0, &[zz2, c]), Some(alloc::vec![zz, a, b, c]));
        // New fields among fields given out of the plan's order.
        let merged = p.merged(0, &[b, c, zz]).unwrap();
        let mut sorted = merged.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), merged.len(), "{merged:?}");
        assert_eq!(merged.len(), 4);
    }

    #[test]
    fn fields_declared_together_and_ordered_together_are_one_run() {
        assert_eq!(runs(&[]), alloc::vec![]);
        assert_eq!(runs(&[3]), alloc::vec![(3, 4)]);
        // The skin variation of benches/serde: unified, non_qualified,
        // image, sheet_x, sheet_y, added_in, has_img_apple,
        // has_img_google, has_img_twitter, has_img_facebook.
        assert_eq!(
            runs(&[2, 3, 4, 0, 5, 6, 1, 7, 8, 9]),
            alloc::vec![(2, 5), (0, 1), (5, 7), (1, 2), (7, 10)]
        );
        // Descending indices never join.
        assert_eq!(runs(&[2, 1, 0]), alloc::vec![(2, 3), (1, 2), (0, 1)]);
        // Through a plan: `b` and `c` keep their order after the shorter `z`.
        let p = plans_of(&["bb", "cc", "z"]);
        let plan = &p.plans[0];
        assert_eq!((plan.first_moved, plan.rotation), (0, Some(2)));
        assert_eq!(plan.runs, alloc::vec![(2, 3), (0, 2)]);
        assert_eq!(plan.moved(), 2);
        let starts = [10, 15, 20, 23];
        let bounds: alloc::vec::Vec<_> = plan.moved_bounds(&starts).unwrap().collect();
        assert_eq!(bounds, alloc::vec![(20, 23), (10, 20)]);
        assert!(plan.moved_bounds(&starts[..3]).is_none());
    }

    /// Names (four bytes of one static buffer each, told apart by
    /// address) that all have one lookup slot.
    fn names_of_one_slot<const N: usize>() -> [&'static str; N] {
        static BUF: [u8; 1 << 16] = [b'n'; 1 << 16];
        let name = |at: usize| core::str::from_utf8(&BUF[at..at + 4]).unwrap();
        let h = slot(name(0));
        let mut all = (0..BUF.len() - 4).map(name).filter(|&n| slot(n) == h);
        core::array::from_fn(|_| all.next().unwrap())
    }

    #[test]
    fn names_that_share_a_slot_find_their_newest_plans() {
        let names = names_of_one_slot::<6>();
        let mut p = Plans::new();
        let mut newest = [None; 6];
        // Adds (a first plan or a replacement) and finds, in a fixed
        // pseudo-random order.
        let mut x = 1u32;
        for step in 0..600 {
            x = x.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let k = (x >> 16) as usize % names.len();
            if (x >> 8) % 4 == 0 {
                p.add(names[k], &["f"], |_| [0; 24]);
                newest[k] = Some(p.plans.len() - 1);
            }
            assert_eq!(p.find(names[k]).map(|(i, _)| i), newest[k], "step {step}");
        }
        // Up to 1 + EVICTED of one slot that alternate are all found in
        // the cache: none is searched for (a search would put it in the
        // slot, and change the cache).
        let mut p = Plans::new();
        for n in names.iter().take(1 + EVICTED) {
            p.add(n, &["f"], |_| [0; 24]);
        }
        let cache = |p: &Plans| {
            let cells = p.slots.iter().chain(&p.evicted);
            (
                cells.map(Cell::get).collect::<Vec<_>>(),
                p.next_evicted.get(),
            )
        };
        // Checked after every find: a round of searches can bring the cache
        // back to where it was.
        let before = cache(&p);
        for _ in 0..3 {
            for (i, n) in names.iter().enumerate().take(1 + EVICTED) {
                assert_eq!(p.find(n).map(|(j, _)| j), Some(i));
                assert!(cache(&p) == before, "{n} was searched for");
            }
        }
    }

    #[test]
    fn a_replaced_plan_is_found_by_name_and_replaced_a_bounded_number_of_times() {
        let mut p = plans_of(&["f0"]);
        let mut fields = alloc::vec!["f0"];
        let more: [&'static str; 12] = [
            "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10", "f11", "f12",
        ];
        for (n, f) in more.iter().enumerate() {
            let i = p.find("T").unwrap().0;
            assert_eq!(names(&p, i), fields);
            fields.push(f);
            match p.merged(i, &fields) {
                Some(m) => p.add("T", &m, |_| [0; 24]),
                None => {
                    assert_eq!(n, usize::from(MAX_REPLACED));
                    return;
                }
            }
        }
        panic!("replaced more than {MAX_REPLACED} times");
    }
}
