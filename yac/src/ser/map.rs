//! A MAP being written ([`MapSer`]): its entries' places in the output
//! ([`Entry`]), the key order checked as keys come ([`KeyRank`]), a
//! struct's small entries moved aside for a key before them, a planned
//! struct's fields permuted into order, and the sort of a MAP whose keys
//! came out of order when it closes; also the serde traits of a MAP, a
//! struct and a struct variant.

use core::cmp::Ordering;

use serde::ser::{self, Serialize};

use super::key::{KeySer, KeySink};
use super::store::{put, short_window};
use super::{Error, ErrorKind, Serializer};
use crate::atom::tag;
use crate::grammar;
use crate::rules::{key_above, key_cmp};

/// Up to this many entries, a MAP out of order is put in order by
/// insertion; beyond, by a merge sort.
const SMALL_MAP: usize = 16;

/// A struct's entry of up to this many bytes is moved aside for a key
/// that comes before it (a later entry can then be written in place).
const SMALL_MOVE: usize = 64;

/// A struct type whose instance of more than this many bytes is learnt
/// from, or whose rotation moves a run of more than this many bytes, is
/// written the general way from then on (where a large field stays in
/// place) instead of by its plan.
const LARGE_RUN: usize = 4096;

/// A planned struct's body of up to twice this many bytes is rotated by
/// fixed-size copies through registers, and a field of up to this many (or
/// twice) is gathered by one fixed-size copy.
const SHORT: usize = 32;

/// Where a MAP entry is in the output.
#[derive(Clone, Copy)]
pub(super) struct Entry {
    /// Where the entry (its key's tag) starts.
    start: usize,
    /// Where its key's payload starts.
    key: usize,
    /// The key's length.
    key_len: usize,
}

impl Entry {
    fn key<'b>(&self, out: &'b [u8]) -> &'b [u8] {
        out.get(self.key..self.key + self.key_len).unwrap_or(&[])
    }

    /// The same entry with its bytes moved to `start`.
    fn moved_to(&self, start: usize) -> Entry {
        Entry {
            start,
            key: start + (self.key - self.start),
            key_len: self.key_len,
        }
    }
}

/// A key as the format's order sees it: its length first, then its bytes,
/// of which the first 16 (zero-padded) are held here as one number, so
/// that most comparisons need neither the output nor a byte loop.
#[derive(Clone, Copy)]
pub(super) struct KeyRank {
    pub(super) len: usize,
    pub(super) head: u128,
    /// Where its payload is in the output (read for keys of equal length
    /// above 16 bytes).
    pub(super) at: usize,
}

impl KeyRank {
    /// Below every key (keys are never empty).
    const NONE: KeyRank = KeyRank {
        len: 0,
        head: 0,
        at: 0,
    };

    /// Above every key (none is `usize::MAX` bytes long): what a MAP's
    /// keys are compared with on the hot path once its entries are
    /// tracked, so that each goes the cold way.
    const ALL: KeyRank = KeyRank {
        len: usize::MAX,
        head: u128::MAX,
        at: 0,
    };

    /// Whether this key comes strictly after `prev`, both in `out`.
    #[inline(always)]
    pub(super) fn above(&self, prev: &KeyRank, out: &[u8]) -> bool {
        // The length, then the head, each alone, and the heads' equality
        // only when the head is not above: a key above the one before
        // (most keys of a MAP in order) costs two compares. A tuple
        // compare tested equality first.
        if self.len != prev.len {
            return self.len > prev.len;
        }
        if self.head > prev.head {
            return true;
        }
        self.head == prev.head
            && self.len > 16
            && above_long((self.at, self.len), (prev.at, prev.len), out)
    }
}

/// [`KeyRank::above`] for two long keys with the same first 16 bytes, each
/// where and how long it is in `out` (by value: the ranks stay in
/// registers on the hot path).
#[cold]
fn above_long(key: (usize, usize), prev: (usize, usize), out: &[u8]) -> bool {
    match (
        out.get(key.0..key.0 + key.1),
        out.get(prev.0..prev.0 + prev.1),
    ) {
        (Some(k), Some(p)) => key_above(k, p),
        _ => false,
    }
}

/// The error of a key equal to one before it in its MAP.
fn duplicate(ser: &Serializer<'_>) -> Error {
    ser.fail(grammar::UNORDERED_KEY)
}

impl<'o> Serializer<'o> {
    /// Opens a MAP; `name` is a struct's (or struct variant's), whose
    /// plan is used or learnt.
    #[inline(always)]
    pub(super) fn open_map(&mut self, closes: u8, name: Option<&'static str>) -> MapSer<'_, 'o> {
        self.byte(tag::MAP);
        self.open_maps += 1;
        let plan = match name {
            Some(n) => self.plans.open(n),
            None => None,
        };
        let (plan, next, end, reorders, first) = match plan {
            Some(p) => (p.index, p.first, p.end, p.reorders, self.starts.len()),
            None => {
                let learn = name.filter(|&n| self.plans.learns(n));
                self.open_state(learn, name.is_some());
                (NO_PLAN, 0, 0, false, self.entries.len())
            }
        };
        MapSer {
            start: self.out.len(),
            first,
            closes,
            plan,
            next,
            end,
            reorders,
            ser: self,
        }
    }

    /// Ends a MAP whose entries are in order: its EOC, and the struct
    /// variant's when `closes` is 2.
    #[inline(always)]
    fn close_map(&mut self, closes: u8) {
        self.open_maps -= 1;
        self.byte(tag::EOC);
        if closes == 2 {
            self.byte(tag::EOC);
        }
    }

    /// Moves the stashed entry `top` (ending at `end` in the stash, just
    /// taken off `stashed`) back onto the output, as the MAP's last entry.
    #[cold]
    fn restore(&mut self, top: Entry, end: usize) {
        let start = self.out.len();
        self.out
            .extend_from_slice(self.stash.get(top.start..end).unwrap_or(&[]));
        self.stash.truncate(top.start);
        self.entries.push(top.moved_to(start));
    }

    /// Notes the entries of a MAP whose body is `from..to` in the output
    /// (found again there, key then value).
    #[cold]
    fn entries_in(&mut self, from: usize, to: usize) {
        let out = self.out.get(..to).unwrap_or(&[]);
        let mut at = from;
        while at < out.len() {
            let start = at;
            let Ok((key, n)) = crate::atom::string_raw(out.get(at..).unwrap_or(&[])) else {
                break;
            };
            at += n;
            self.entries.push(Entry {
                start,
                key: at - key.len(),
                key_len: key.len(),
            });
            if crate::validate::count_at(out, &mut at, 0).is_err() {
                break;
            }
        }
    }

    /// Notes the state of a MAP written without a plan.
    fn open_state(&mut self, learn: Option<&'static str>, in_place: bool) {
        self.maps.push(MapState {
            prev: KeyRank::NONE,
            last: KeyRank::NONE,
            tracked: false,
            unsorted: false,
            in_place,
            first_stashed: self.stashed.len(),
            learn,
            first_recorded: self.recorded.len(),
        });
    }
}

/// A MAP being written: entries go out in the order given, and are put in
/// canonical key order when the MAP ends if a key came out of order.
pub struct MapSer<'a, 'o> {
    ser: &'a mut Serializer<'o>,
    /// Where the first entry starts (after the MAP tag).
    start: usize,
    /// This MAP's first index in `ser.entries`, or a planned struct's in
    /// `ser.starts`.
    first: usize,
    /// EOCs at the end: 2 for a struct variant (its MAP and the variant's).
    closes: u8,
    /// The struct's plan (an index in `ser.plans`), or [`NO_PLAN`]: none,
    /// or a field came that the plan does not have there (`next` and `end`
    /// are then equal). Without a plan the MAP's [`MapState`] is the last
    /// of `ser.maps`.
    plan: usize,
    /// The plan's next field and the end of its fields (in
    /// `ser.plans.keys`). Where the fields written by the plan start is
    /// kept (in `ser.starts`) only when it reorders them (else
    /// [`off_plan`](Self::off_plan) finds them).
    next: usize,
    end: usize,
    /// The plan puts the fields in another order than declared.
    reorders: bool,
}

/// The state of a MAP written without a plan (kept by the serializer, so
/// that a planned struct's [`MapSer`] stays small).
#[derive(Clone, Copy)]
pub(super) struct MapState {
    /// The previous key while the entries are not tracked, else
    /// [`KeyRank::ALL`]: a key above it is written with nothing more.
    prev: KeyRank,
    /// The previous key (read once the entries are tracked).
    last: KeyRank,
    /// The MAP's entries are in `ser.entries`: a key came out of order
    /// (only then are they needed, to put them in order). Until then
    /// nothing is noted of them but the previous key.
    tracked: bool,
    /// A key came that is not above the one before.
    unsorted: bool,
    /// Keys are put in order as they come (a struct's), not at the end.
    in_place: bool,
    /// This MAP's first index in `ser.stashed`.
    first_stashed: usize,
    /// The struct's name, when its plan is being learnt from this one.
    learn: Option<&'static str>,
    /// This struct's first index in `ser.recorded`.
    first_recorded: usize,
}

/// [`MapSer::plan`] of a MAP written without a plan.
const NO_PLAN: usize = usize::MAX;

impl MapSer<'_, '_> {
    /// Writes a key (a non-empty STR), notes where its entry starts, and
    /// checks that it comes after the key before.
    #[inline(always)]
    pub(super) fn key_str(&mut self, key: &str) -> Result<(), Error> {
        let ser = &mut *self.ser;
        // Order is checked by rank below, duplicates when sorting.
        grammar::check_key(key.as_bytes(), &[]).map_err(|e| ser.fail(e))?;
        let start = ser.out.len();
        let head = ser.str(key)?;
        let rank = KeyRank {
            len: key.len(),
            head,
            at: ser.out.len() - key.len(),
        };
        match ser.maps.last_mut() {
            Some(st) if rank.above(&st.prev, &ser.out) => {
                st.prev = rank;
                Ok(())
            }
            _ => self.tracked_key(key, start, rank),
        }
    }

    /// [`key_str`](Self::key_str) of a key not above the one before, or
    /// of a MAP whose entries are tracked, just written at `start`.
    #[cold]
    #[inline(never)]
    fn tracked_key(&mut self, key: &str, start: usize, rank: KeyRank) -> Result<(), Error> {
        let mut st = self.state();
        if !st.tracked {
            // The keys before were in order: found again in the output.
            self.ser.entries_in(self.start, start);
            st.tracked = true;
            st.last = st.prev;
            st.prev = KeyRank::ALL;
        }
        if self.ser.stashed.len() <= st.first_stashed && rank.above(&st.last, &self.ser.out) {
            self.ser.entries.push(Entry {
                start,
                key: rank.at,
                key_len: key.len(),
            });
            st.last = rank;
            if let Some(last) = self.ser.maps.last_mut() {
                *last = st;
            }
            return Ok(());
        }
        self.key_out_of_order(key, start, rank, st)
    }

    /// [`tracked_key`](Self::tracked_key) of a key not above the one
    /// before (or while entries are stashed); `st` is the MAP's state.
    fn key_out_of_order(
        &mut self,
        key: &str,
        mut start: usize,
        mut rank: KeyRank,
        mut st: MapState,
    ) -> Result<(), Error> {
        let ser = &mut *self.ser;
        let last_len = ser.entries.last().map_or(0, |e| start - e.start);
        if st.in_place && last_len <= SMALL_MOVE {
            // Once only: a struct whose keys keep coming out of order,
            // or whose entry in the way is large, is sorted at its
            // end instead.
            st.in_place = false;
            ser.out.truncate(start);
            self.make_room(key.as_bytes(), st.first_stashed)?;
            let ser = &mut *self.ser;
            start = ser.out.len();
            ser.str(key)?;
            rank.at = ser.out.len() - key.len();
        } else {
            st.in_place = false;
            st.unsorted = true;
        }
        let ser = &mut *self.ser;
        ser.entries.push(Entry {
            start,
            key: rank.at,
            key_len: key.len(),
        });
        st.last = rank;
        if let Some(last) = ser.maps.last_mut() {
            *last = st;
        }
        Ok(())
    }

    /// The state of this MAP (written without a plan).
    #[inline(always)]
    fn state(&self) -> MapState {
        self.ser.maps.last().copied().unwrap_or(MapState {
            prev: KeyRank::ALL,
            last: KeyRank::NONE,
            tracked: true,
            unsorted: true,
            in_place: false,
            first_stashed: self.ser.stashed.len(),
            learn: None,
            first_recorded: self.ser.recorded.len(),
        })
    }

    /// Makes the end of the output the place of `key` in a struct's
    /// order: the stashed entries below it come back, the written ones
    /// above it go to the stash. Equal keys are refused.
    #[cold]
    fn make_room(&mut self, key: &[u8], first_stashed: usize) -> Result<(), Error> {
        let ser = &mut *self.ser;
        while ser.stashed.len() > first_stashed {
            let Some(&(top, end)) = ser.stashed.last() else {
                break;
            };
            match key_cmp(top.key(&ser.stash), key) {
                Ordering::Less => {}
                Ordering::Equal => return Err(duplicate(ser)),
                Ordering::Greater => break,
            }
            ser.stashed.pop();
            ser.restore(top, end);
        }
        let mut keep = ser.entries.len();
        while keep > self.first {
            match key_cmp(ser.entries[keep - 1].key(&ser.out), key) {
                Ordering::Less => break,
                Ordering::Equal => return Err(duplicate(ser)),
                Ordering::Greater => keep -= 1,
            }
        }
        let Some(&first_moved) = ser.entries.get(keep) else {
            return Ok(());
        };
        // Largest first, so that the smallest is on top.
        let mut end = ser.out.len();
        for e in ser.entries.drain(keep..).rev() {
            let start = ser.stash.len();
            ser.stash
                .extend_from_slice(ser.out.get(e.start..end).unwrap_or(&[]));
            ser.stashed.push((e.moved_to(start), ser.stash.len()));
            end = e.start;
        }
        ser.out.truncate(first_moved.start);
        Ok(())
    }

    /// Brings back the stashed entries, smallest first.
    #[cold]
    fn unstash(&mut self, first_stashed: usize) {
        let ser = &mut *self.ser;
        while ser.stashed.len() > first_stashed {
            let Some((top, end)) = ser.stashed.pop() else {
                break;
            };
            ser.restore(top, end);
        }
    }

    fn key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        key.serialize(KeySer { map: self })
    }

    /// A struct's field name: by its plan, or else as any key (and kept
    /// when the plan is being learnt).
    #[inline(always)]
    fn field(&mut self, key: &'static str) -> Result<(), Error> {
        // Without a plan, no field is the plan's next.
        if self.planned_key(key) {
            return Ok(());
        }
        self.cold(|map| map.unplanned_field(key))
    }

    /// Runs a path off the hot one on a copy of this MAP (reborrowing
    /// the serializer), then takes back what it changed: the `MapSer` of a
    /// planned struct then never has its address taken, and stays in
    /// registers. The path is one call, not inlined, per field.
    #[inline(always)]
    fn cold<R>(&mut self, path: impl FnOnce(&mut MapSer<'_, '_>) -> R) -> R {
        let mut map = MapSer {
            ser: &mut *self.ser,
            start: self.start,
            first: self.first,
            closes: self.closes,
            plan: self.plan,
            next: self.next,
            end: self.end,
            reorders: self.reorders,
        };
        let r = path(&mut map);
        // What the paths off the hot one change (leaving the plan, or
        // skipping fields of it); the rest they only read.
        debug_assert!(
            (map.start, map.closes, map.end, map.reorders)
                == (self.start, self.closes, self.end, self.reorders),
            "a path off the hot one changed a MapSer word it does not give back"
        );
        (self.first, self.plan, self.next) = (map.first, map.plan, map.next);
        r
    }

    /// [`field`](Self::field) that is not the plan's next: a later one of
    /// the plan (those between skipped), or one without a plan or off it.
    #[inline(never)]
    fn unplanned_field(&mut self, key: &'static str) -> Result<(), Error> {
        if self.skip_to(key) {
            return Ok(());
        }
        if self.plan != NO_PLAN {
            self.off_plan();
        }
        self.key_str(key)?;
        if self.state().learn.is_some() {
            self.ser.recorded.push(key);
        }
        Ok(())
    }

    /// Writes `key` if it is the plan's next field (its checks were made
    /// when the plan was learnt).
    #[inline(always)]
    fn planned_key(&mut self, key: &'static str) -> bool {
        self.plan_step(key, true)
    }

    /// A field the struct skipped (serde's `skip_field`, called for a
    /// `skip_serializing_if` field left out): if it is the plan's next, the
    /// plan moves past it (an empty entry where it reorders), so that the
    /// field after it is the plan's next, not a [`skip_to`](Self::skip_to)
    /// search through a call. Else nothing: a later field finds its place
    /// as before.
    #[inline(always)]
    fn skipped_field(&mut self, key: &'static str) {
        self.plan_step(key, false);
    }

    /// If `key` is the plan's next field: writes it (when `write`; else its
    /// entry is empty, a skipped field), moves the plan past it, notes
    /// where its entry starts where the plan reorders, and returns true.
    #[inline(always)]
    fn plan_step(&mut self, key: &'static str, write: bool) -> bool {
        let ser = &mut *self.ser;
        let next = (self.next < self.end).then(|| {
            // SAFETY: `end` is the `Opened::end` that `open_map` took from
            // `ser.plans` (or 0, with no plan: then nothing is below it),
            // and `next < end`.
            unsafe { ser.plans.key_unchecked(self.next) }
        });
        match next {
            Some(k) if k.is(key) => {
                let start = ser.out.len();
                if write {
                    if key.len() < 16 {
                        // Tag and payload in the window's first 16 bytes.
                        let w = k.window.first_chunk::<16>().unwrap_or(&[0; 16]);
                        put(&mut ser.out, w, 1 + key.len());
                    } else if key.len() == 16 {
                        put(&mut ser.out, &k.window, 1 + key.len());
                    } else {
                        ser.string(tag::STR, key.as_bytes());
                    }
                }
                self.next += 1;
                // A checked push. Reserving a plan's starts at open and
                // pushing unchecked here measured emoji -2.8% but
                // canada-list +2.2% and canada-map +2.0% serialize
                // instructions: the caller's LIST loop, inlined beside
                // `open_map`, took ~2.5 more per element (register
                // allocation; `benches/serde/count.sh`).
                if self.reorders {
                    ser.starts.push(start);
                }
                true
            }
            _ => false,
        }
    }

    /// [`planned_key`](Self::planned_key) of a field that is not the
    /// plan's next: the fields before it in the plan were skipped (empty
    /// entries), or it is not one of the plan's.
    #[inline(always)]
    fn skip_to(&mut self, key: &'static str) -> bool {
        let ser = &mut *self.ser;
        let Some((skipped, w)) = ser.plans.keys().get(self.next..self.end).and_then(|ks| {
            let j = ks.iter().position(|k| k.is(key))?;
            Some((j, ks.get(j)?.window))
        }) else {
            return false;
        };
        if self.reorders {
            let at = ser.out.len();
            ser.starts.extend(core::iter::repeat(at).take(skipped));
        }
        self.next += skipped + 1;
        if self.reorders {
            ser.starts.push(ser.out.len());
        }
        if key.len() <= 16 {
            ser.put_window(&w, key.len());
        } else {
            ser.string(tag::STR, key.as_bytes());
        }
        true
    }

    /// Leaves the plan: the fields written by it become entries to sort at
    /// the end, and the plan is to be replaced by one that also has this
    /// instance's fields.
    #[cold]
    fn off_plan(&mut self) {
        let ser = &mut *self.ser;
        let learn = ser.plans.name(self.plan).filter(|_| ser.plans.room());
        let first_recorded = ser.recorded.len();
        let first_stashed = ser.stashed.len();
        let first_entry = ser.entries.len();
        ser.entries_in(self.start, ser.out.len());
        if learn.is_some() {
            let fields = ser.plans.fields(self.plan);
            for e in ser.entries.get(first_entry..).unwrap_or(&[]) {
                let key = e.key(&ser.out);
                if let Some(k) = fields.iter().find(|k| k.name.as_bytes() == key) {
                    ser.recorded.push(k.name);
                }
            }
        }
        ser.starts.truncate(self.first);
        self.first = first_entry;
        self.plan = NO_PLAN;
        self.next = self.end;
        ser.maps.push(MapState {
            prev: KeyRank::ALL,
            last: KeyRank::NONE,
            tracked: true,
            unsorted: true,
            in_place: false,
            first_stashed,
            learn,
            first_recorded,
        });
    }

    /// Learns the plan of a struct just closed from the names it gave.
    #[cold]
    fn learn_plan(&mut self, name: &'static str, first_recorded: usize) {
        let ser = &mut *self.ser;
        let fields = ser.recorded.get(first_recorded..).unwrap_or(&[]);
        let window = |k: &str| short_window(tag::STR, k.as_bytes());
        match ser.plans.find(name).map(|(i, _)| i) {
            // An instance that left the plan: one with both's fields.
            Some(i) => {
                if let Some(merged) = ser.plans.merged(i, fields) {
                    ser.plans.add(name, &merged, window);
                }
            }
            None => ser.plans.add(name, fields, window),
        }
        // A large struct whose plan would move its fields is written the
        // general way, which leaves a large field in place.
        if ser.out.len() - self.start > LARGE_RUN {
            if let Some((i, p)) = ser.plans.find(name) {
                if p.moved() > 0 {
                    ser.plans.write_in_place(i);
                }
            }
        }
        ser.recorded.truncate(first_recorded);
        // The planned structs' side buffers: room once, not grown step by
        // step from nothing (a reallocation each).
        if ser.starts.capacity() == 0 {
            ser.starts.reserve(64);
        }
        if ser.scratch.capacity() == 0 {
            ser.scratch.reserve(1024);
        }
    }

    #[inline(always)]
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        value.serialize(&mut *self.ser)
    }

    /// Puts the entries in canonical key order and closes the MAP. By
    /// value and field by field: a planned struct's end then reads only
    /// what it needs (a whole `MapSer` moved costs a copy of it). Taken
    /// apart before anything else, and built again for the unplanned
    /// path: testing `self.plan` first brings the copy back (canada-map
    /// 20.13M -> 21.35M instructions).
    #[inline(always)]
    fn finish(self) -> Result<(), Error> {
        let MapSer {
            ser,
            start,
            first,
            closes,
            plan,
            next,
            end,
            reorders,
        } = self;
        if plan == NO_PLAN {
            let mut map = MapSer {
                ser,
                start,
                first,
                closes,
                plan,
                next,
                end,
                reorders,
            };
            map.finish_unplanned()?;
            map.ser.entries.truncate(first);
            map.ser.close_map(closes);
            return Ok(());
        }
        if reorders {
            // Fields missing at the end are skipped ones.
            ser.permute(plan, first, start);
            ser.starts.truncate(first);
        }
        ser.close_map(closes);
        Ok(())
    }

    /// [`finish`](Self::finish) of a MAP written without a plan: its
    /// entries put in order, its plan learnt, its state dropped.
    #[inline]
    fn finish_unplanned(&mut self) -> Result<(), Error> {
        let st = self.state();
        if self.ser.stashed.len() > st.first_stashed {
            self.unstash(st.first_stashed);
        }
        if st.unsorted {
            self.sort()?;
        }
        if let Some(name) = st.learn {
            self.learn_plan(name, st.first_recorded);
        }
        self.ser.maps.pop();
        Ok(())
    }

    /// Reorders the entries by key (an insertion sort of their places,
    /// then one copy of the MAP's body); equal keys are refused.
    #[cold]
    fn sort(&mut self) -> Result<(), Error> {
        let ser = &mut *self.ser;
        let end = ser.out.len();
        let entries = ser.entries.get(self.first..).unwrap_or(&[]);
        let mut order = core::mem::take(&mut ser.order);
        order.clear();
        let out = &ser.out[..];
        for (i, e) in entries.iter().enumerate() {
            let e_end = entries.get(i + 1).map_or(end, |next| next.start);
            // Insertion into the few entries of a struct; a large MAP is
            // sorted below.
            let mut at = order.len();
            while at > 0 && at + SMALL_MAP > i && key_above(order[at - 1].0.key(out), e.key(out)) {
                at -= 1;
            }
            order.insert(at, (*e, e_end));
        }
        if order.len() > SMALL_MAP {
            order.sort_by(|a, b| key_cmp(a.0.key(out), b.0.key(out)));
        }
        // Sorted: only a duplicate can break the key rule.
        if let Some((w, e)) = order.windows(2).find_map(|w| {
            grammar::check_key(w[1].0.key(out), w[0].0.key(out))
                .err()
                .map(|e| (w[1].0.start, e))
        }) {
            let at = ser.flushed + w - ser.base;
            ser.order = order;
            return Err(Error::new(ErrorKind::Format(e), at));
        }
        let mut body = core::mem::take(&mut ser.scratch);
        body.clear();
        for (e, e_end) in &order {
            body.extend_from_slice(&ser.out[e.start..*e_end]);
        }
        ser.out[self.start..end].copy_from_slice(&body);
        ser.scratch = body;
        ser.order = order;
        Ok(())
    }
}

impl KeySink for MapSer<'_, '_> {
    #[inline(always)]
    fn key_str(&mut self, key: &str) -> Result<(), Error> {
        MapSer::key_str(self, key)
    }
}

impl Serializer<'_> {
    /// Puts a planned struct's fields, written in declaration order, in
    /// key order (`body` is where its first field starts): two runs
    /// swapped from the body's start in a body of up to 2 * SHORT bytes
    /// (most small structs) are rotated in place here, by fixed-size copies
    /// through registers (inlined where the struct ends: a call would cost
    /// as much as the rotation); else
    /// [`permute_general`](Self::permute_general). A field the instance
    /// skipped is an empty entry. The fixed-size copies may take bytes past
    /// the output's end (inside its allocation: spare capacity, copied as
    /// untyped bytes and never counted in its length).
    ///
    /// The rotation's split is read from `starts` (a start noted per
    /// field), not kept in the `MapSer` as it is reached: that was measured
    /// three ways (a word or a flag more in `MapSer`, the split in `first`
    /// with a tag bit, the split field marked in its `PlanKey`). Each saved
    /// countries 0.5-2.8% but cost the structs written in declaration
    /// order more: canada-map +3 to +12%, emoji in key order +5 to +9%
    /// (`benches/serde/count.sh`).
    #[inline(always)]
    fn permute(&mut self, plan_index: usize, first: usize, body: usize) {
        let Some(plan) = self.plans.plans.get(plan_index) else {
            return;
        };
        if let (0, Some(k)) = (plan.first_moved, plan.rotation) {
            let end = self.out.len();
            // Where the second run starts.
            let second = field_start(&self.starts, first.saturating_add(k), end);
            let total = end.saturating_sub(body);
            let split = second.saturating_sub(body).min(total);
            if total <= 2 * SHORT && body + 4 * SHORT <= self.out.capacity() {
                // SAFETY: `split <= total <= 2 * SHORT`, and the output's
                // allocation holds `body + 4 * SHORT` bytes.
                unsafe { rotate_short(self.out.as_mut_ptr(), body, split, total) };
                return;
            }
        }
        self.permute_general(plan_index, first);
    }

    /// [`permute`](Self::permute) of a struct whose body is not a short
    /// rotation: a longer one rotated in place, else the body from the
    /// first field out of place [gathered](Self::gather).
    #[inline(never)]
    fn permute_general(&mut self, plan_index: usize, first: usize) {
        let ser = &mut *self;
        let Some(plan) = ser.plans.plans.get(plan_index) else {
            return;
        };
        let starts = ser.starts.get(first..).unwrap_or(&[]);
        let end = ser.out.len();
        let at = |d: usize| field_start(starts, d, end);
        let from = at(plan.first_moved);
        let Some(total) = end.checked_sub(from) else {
            return;
        };
        if let Some(k) = plan.rotation {
            // The first run's length. A short rotation whose first run
            // starts after the body's start comes here too. `rotate_short`
            // for it here measured more instructions, not fewer (countries
            // +3.9k, benches/serde/count.sh); `rotate_one_short`, which
            // takes it and the longer rotations with one short run,
            // measured fewer (countries -19.5k, licenses -0.6k).
            let split = at(k).saturating_sub(from).min(total);
            if total - split > LARGE_RUN {
                ser.plans.write_in_place(plan_index);
            }
            let short_run = split.min(total - split) <= 2 * SHORT;
            if short_run && end + 2 * SHORT <= ser.out.capacity() {
                // SAFETY: `split <= total = end - from`, one run is at
                // most 2 * SHORT bytes, and the output's allocation holds
                // `end + 2 * SHORT` bytes.
                unsafe { rotate_one_short(ser.out.as_mut_ptr(), from, split, total) };
                return;
            }
            if let Some(body) = ser.out.get_mut(from..end) {
                body.rotate_left(split);
            }
            return;
        }
        self.gather(plan_index, first, from, total);
    }

    /// [`permute`](Self::permute) by a gather: the body from `from` (the
    /// first field out of place, `total` bytes to the end) is copied run
    /// by run (fields declared together that stay together) in key order
    /// into the scratch space (a run of up to SHORT bytes by one
    /// fixed-size copy), then back at once.
    #[inline(always)]
    fn gather(&mut self, plan_index: usize, first: usize, from: usize, total: usize) {
        let ser = &mut *self;
        let Some(plan) = ser.plans.plans.get(plan_index) else {
            return;
        };
        let end = ser.out.len();
        // One start per field, then the body's end (the fields skipped at
        // the end start there): field `d` is `starts[d]..starts[d + 1]`.
        let bound = first + plan.len() + 1;
        if ser.starts.len() >= bound {
            debug_assert!(false, "more starts than fields");
            return;
        }
        ser.starts.resize(bound, end);
        // Room for a fixed-size read at any start up to `end` (else exact
        // copies: the output is not grown for this, a `Vec` of the
        // document's size stays so).
        if end + 2 * SHORT > ser.out.capacity() {
            return self.gather_exact(plan_index, first, from);
        }
        let starts = ser.starts.get(first..bound).unwrap_or(&[]);
        let Some(bounds) = plan.moved_bounds(starts) else {
            return;
        };
        // Room for what the loop below may write: a run of more than
        // SHORT bytes is checked to end by `total`, a shorter one adds at
        // most SHORT bytes, then one fixed-size copy.
        let room = total + SHORT * plan.moved() + 2 * SHORT;
        let body = &mut ser.scratch;
        body.clear();
        body.reserve(room);
        let (src, dst) = (ser.out.as_ptr(), body.as_mut_ptr());
        let mut w = 0;
        for (s, e) in bounds {
            // Starts never decrease and end at `end`, and the plan's runs
            // are the fields from the first moved on, each once, so the
            // runs end to end make the body (`w == total` at the end).
            // The copies stand only on what is checked here.
            let n = e.wrapping_sub(s);
            if n <= SHORT && e <= end {
                // SAFETY: `s <= e <= end` (`n` did not wrap), and the
                // output's allocation holds `end + 2 * SHORT` bytes: the
                // SHORT read at `s` are inside it. `w` is at most `total`
                // plus SHORT per run before: `w + 2 * SHORT <= room`,
                // inside the scratch space. The
                // copy is untyped (bytes past the output's end may be
                // uninitialised; only the `n` of the run are used), the
                // buffers distinct allocations.
                unsafe { core::ptr::copy_nonoverlapping(src.add(s), dst.add(w), SHORT) };
                w += n;
            } else if n <= total.saturating_sub(w) && e <= end {
                // SAFETY: as above, with `s <= e <= end` and
                // `w + n <= total`; `2 * SHORT` bytes are read at `s` and
                // written at `w` (`w + 2 * SHORT <= total + 2 * SHORT <=
                // room`) only when `n <= 2 * SHORT`, else the `n`.
                unsafe {
                    if n <= 2 * SHORT {
                        core::ptr::copy_nonoverlapping(src.add(s), dst.add(w), 2 * SHORT);
                    } else {
                        core::ptr::copy_nonoverlapping(src.add(s), dst.add(w), n);
                    }
                }
                w += n;
            } else {
                debug_assert!(false, "a run outside the struct's body");
                return;
            }
        }
        if w != total {
            debug_assert!(false, "the runs do not make the struct's body");
            return;
        }
        let out = ser.out.as_mut_ptr();
        // SAFETY: the first `w` bytes of the scratch space were written
        // above, and it holds `room > w + 2 * SHORT` bytes; the output is
        // written from `from` to `from + w = end` (its own bytes), or
        // to `from + 2 * SHORT <= end + 2 * SHORT <= capacity` (inside its
        // allocation, the bytes past `end` being spare capacity, not
        // counted in its length). The copies are untyped, the buffers
        // distinct.
        unsafe {
            if w <= 2 * SHORT {
                core::ptr::copy_nonoverlapping(dst, out.add(from), 2 * SHORT);
            } else {
                core::ptr::copy_nonoverlapping(dst, out.add(from), w);
            }
        }
    }

    /// [`gather`](Self::gather) of a struct too near the end of the
    /// output's allocation for fixed-size reads: by checked copies.
    #[cold]
    #[inline(never)]
    fn gather_exact(&mut self, plan_index: usize, first: usize, from: usize) {
        let ser = &mut *self;
        let Some(plan) = ser.plans.plans.get(plan_index) else {
            return;
        };
        let starts = ser.starts.get(first..).unwrap_or(&[]);
        let Some(bounds) = plan.moved_bounds(starts) else {
            return;
        };
        let body = &mut ser.scratch;
        body.clear();
        for (s, e) in bounds {
            match ser.out.get(s..e) {
                Some(field) => body.extend_from_slice(field),
                None => return,
            }
        }
        if let Some(to) = ser.out.get_mut(from..) {
            if to.len() == body.len() {
                to.copy_from_slice(body);
            }
        }
    }
}

/// Where field `d` of a planned struct starts, `starts` holding where its
/// fields start in declaration order: a field skipped at the end (whose
/// start is not noted) starts at the body's `end`.
#[inline(always)]
fn field_start(starts: &[usize], d: usize, end: usize) -> usize {
    starts.get(d).copied().unwrap_or(end)
}

/// Rotates the `total` bytes at `out + from` left by `split` (the second
/// run, then the first) by two fixed-size copies of `N = 2 * SHORT`
/// bytes through registers.
///
/// # Safety
/// `split <= total <= N`, and `out` is the start of an allocation of at
/// least `from + 2 * N` bytes.
#[inline(always)]
unsafe fn rotate_short(out: *mut u8, from: usize, split: usize, total: usize) {
    const N: usize = 2 * SHORT;
    debug_assert!(split <= total && total <= N);
    // SAFETY: the blocks read (at `from` and `from + split`) and written
    // (at `from` and `from + total - split`) end by `from + 2 * N`, inside
    // the allocation (the caller's promise); bytes past the output's end
    // are its spare capacity. The copies are untyped (`MaybeUninit`), and
    // both blocks are read before either is written (into registers, not
    // through memory: a load of bytes just stored at another offset would
    // wait for the stores): the second run, then the first, are the body.
    unsafe {
        let (a, b) = (load_block(out.add(from)), load_block(out.add(from + split)));
        store_block(out.add(from), b);
        store_block(out.add(from + total - split), a);
    }
}

/// Rotates the `total` bytes at `out + from` left by `split` (the second
/// run, then the first) when one of the two runs is of at most `N = 2 *
/// SHORT` bytes: that run is held in registers (kept on the stack across
/// the call) while the other is moved by one `memmove`.
/// `slice::rotate_left` takes three library copies through a stack buffer
/// and its own dispatch: ~11-18 instructions more per rotation, measured
/// on licenses and countries (`benches/serde/count.sh`).
///
/// # Safety
/// `split <= total`, `split <= N` or `total - split <= N`, and `out` is
/// the start of an allocation of at least `from + total + N` bytes.
#[inline(always)]
unsafe fn rotate_one_short(out: *mut u8, from: usize, split: usize, total: usize) {
    const N: usize = 2 * SHORT;
    let (first, second) = (split, total - split);
    debug_assert!(first <= N || second <= N);
    // SAFETY: every block read or written below starts at or after `from`
    // and ends by `from + total + N`, inside the allocation (the caller's
    // promise); the bytes past `from + total` (the output's end) are its
    // spare capacity, written as untyped bytes and never counted in its
    // length. `copy` is a memmove (its ranges may overlap).
    unsafe {
        let p = out.add(from);
        if first <= N {
            // The first run moves to the end: held, the second moved
            // down over it, then written after it (its block's last
            // `N - first` bytes land past the end).
            let a = load_block(p);
            core::ptr::copy(p.add(first), p, second);
            store_block(p.add(second), a);
        } else {
            // The second run moves to the front. Its block, written at the
            // start, covers the first `N - second` bytes of the first run
            // moved up behind it; so the first run's own first N bytes,
            // held from before the move, are written again after it.
            let b = load_block(p.add(first));
            let a = load_block(p);
            core::ptr::copy(p, p.add(second), first);
            store_block(p, b);
            store_block(p.add(second), a);
        }
    }
}

/// `2 * SHORT` bytes as four vector values (registers on x86_64 where no
/// call comes between their load and store), read unaligned and untyped.
type Block = [Chunk; 4];

/// A vector register's type on x86_64 (there `[u8; 16]` values go through
/// the stack), untyped either way.
#[cfg(target_arch = "x86_64")]
type Chunk = core::mem::MaybeUninit<core::arch::x86_64::__m128i>;
#[cfg(not(target_arch = "x86_64"))]
type Chunk = core::mem::MaybeUninit<[u8; 16]>;

/// Reads the `2 * SHORT` bytes at `p`.
///
/// # Safety
/// They are inside one allocation.
#[inline(always)]
unsafe fn load_block(p: *const u8) -> Block {
    const _: () = assert!(2 * SHORT == 4 * 16);
    let c = p.cast::<Chunk>();
    // SAFETY: the caller's promise; the reads are unaligned and untyped.
    unsafe {
        [
            c.read_unaligned(),
            c.add(1).read_unaligned(),
            c.add(2).read_unaligned(),
            c.add(3).read_unaligned(),
        ]
    }
}

/// Writes `b` at `p`.
///
/// # Safety
/// The `2 * SHORT` bytes at `p` are inside one allocation.
#[inline(always)]
unsafe fn store_block(p: *mut u8, b: Block) {
    let c = p.cast::<Chunk>();
    // SAFETY: the caller's promise; the writes are unaligned and untyped.
    unsafe {
        c.write_unaligned(b[0]);
        c.add(1).write_unaligned(b[1]);
        c.add(2).write_unaligned(b[2]);
        c.add(3).write_unaligned(b[3]);
    }
}

impl ser::SerializeMap for MapSer<'_, '_> {
    type Ok = ();
    type Error = Error;
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), Error> {
        self.key(key)
    }
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), Error> {
        self.value(value)
    }
    fn end(self) -> Result<(), Error> {
        self.finish()
    }
}

/// A struct and a struct variant are MAPs whose keys are the field names.
macro_rules! struct_traits {
    ($($trait:ident),*) => {$(
        impl ser::$trait for MapSer<'_, '_> {
            type Ok = ();
            type Error = Error;
            #[inline(always)]
            fn serialize_field<T: Serialize + ?Sized>(
                &mut self,
                key: &'static str,
                value: &T,
            ) -> Result<(), Error> {
                self.field(key)?;
                self.value(value)
            }
            #[inline(always)]
            fn skip_field(&mut self, key: &'static str) -> Result<(), Error> {
                self.skipped_field(key);
                Ok(())
            }
            #[inline(always)]
            fn end(self) -> Result<(), Error> {
                self.finish()
            }
        }
    )*};
}

struct_traits!(SerializeStruct, SerializeStructVariant);
