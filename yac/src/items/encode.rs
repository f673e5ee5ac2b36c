//! Writing a subtree back to bytes. Parse then encode reproduces the input
//! byte for byte; edited trees are checked on the way out so that what is
//! written is always canonical (MAP keys ordered and paired, BLOB chunks of
//! the right lengths, minimal integers and floats).
//!
//! The encoder is a loop over the links (first child, next sibling,
//! parent), like [`Items::walk`] but without its iterator state: each node
//! is written with one room check and exact stores. Common nodes (small
//! integers, short strings, containers, EOC) take the inline path; the
//! rare types go through [`enc::encode`](crate::enc::encode), which validates them.
//!
//! There are two loops. The fast one ([`Items::emit`]) checks MAP keys as
//! it writes them, so when a tree is broken it may meet another error
//! first than the walk would; the exact one ([`Items::emit_exact`], the
//! walk's order of checks) runs again whenever the fast one fails, and
//! gives the result. A failed encode therefore costs up to two passes.

use super::node::{Item, NONE};
use super::{payload, Items, UNLINKED};
use crate::atom::{tag, Atom, ItemType};
use crate::error::Error;
use crate::grammar::{Fed, Grammar, Step, CHUNK_AFTER_LAST, NOT_A_CHUNK};
use crate::rules::key_above;

use super::encode_sink::{Buffer, Counter, Sink};

/// Raw type bits of the node types (`ItemType as u32`).
const T_NIL: u32 = ItemType::Nil as u32;
const T_FALSE: u32 = ItemType::False as u32;
const T_TRUE: u32 = ItemType::True as u32;
const T_PINT: u32 = ItemType::Pint as u32;
const T_LIST: u32 = ItemType::List as u32;
const T_MAP: u32 = ItemType::Map as u32;
const T_BLOB: u32 = ItemType::Blob as u32;
const T_BIN: u32 = ItemType::Bin as u32;
const T_STR: u32 = ItemType::Str as u32;

/// Where a walk stands: the node to visit, its container, steps left.
#[derive(Clone, Copy)]
struct Walker {
    n: u32,
    cur: u32,
    steps: usize,
}

/// The step bound of a walk over a pool of `len` nodes: each node is
/// entered and left at most once in a sound tree.
#[inline(always)]
fn step_bound(len: usize) -> usize {
    len.saturating_mul(2)
        .saturating_add(2)
        .min(u32::MAX as usize)
}

/// Whether `item` may be a MAP key: a non-empty STR.
#[inline(always)]
fn is_key(item: &Item) -> bool {
    item.type_bits() == T_STR && item.size() != 0
}

/// The BLOB being written (BLOBs do not nest): its chunk length, and
/// whether it still takes chunks (the last one was full, or there was
/// none). Each chunk is decided by the grammar in the BLOB's state.
#[derive(Clone, Copy)]
struct BlobOut {
    chunk_minus_one: u64,
    open: bool,
}

/// Where the fast loop stops on a broken tree: its error is never
/// reported (the exact loop runs again and decides).
const STOP: Error = Error::Invalid;

impl<'a, S: AsRef<[Item]>> Items<'a, S> {
    /// Writes the subtree at `idx` into `buf` and returns the number of
    /// bytes written. `Err(NoMem)` when `buf` is too small (its contents
    /// are then unspecified; [`Items::encoded_len`] tells the size needed).
    /// Bytes after the written ones are left untouched.
    pub fn encode(&self, idx: u32, buf: &mut [u8]) -> Result<usize, Error> {
        let cap = buf.len();
        // Feature `size-first`: the exact loop alone.
        let fast = if cfg!(feature = "size-first") {
            Err(Error::Invalid)
        } else {
            self.emit(idx, Buffer { rest: &mut *buf })
        };
        let rest = match fast {
            Ok(sink) => sink.rest.len(),
            Err(_) => self.emit_exact(idx, Buffer { rest: buf })?.rest.len(),
        };
        Ok(cap - rest)
    }

    /// The number of bytes [`Items::encode`] writes for the subtree at
    /// `idx`, with the same checks.
    pub fn encoded_len(&self, idx: u32) -> Result<usize, Error> {
        let fast = if cfg!(feature = "size-first") {
            Err(Error::Invalid)
        } else {
            self.emit(idx, Counter(0))
        };
        match fast {
            Ok(sink) => Ok(sink.0),
            Err(_) => Ok(self.emit_exact(idx, Counter(0))?.0),
        }
    }

    /// The exact loop: the events of [`Items::walk`] (same order, same step
    /// bound, same errors), each written as it comes. It decides the result
    /// whenever [`Items::emit`] fails.
    #[cold]
    #[inline(never)]
    fn emit_exact<K: Sink>(&self, root: u32, sink: K) -> Result<K, Error> {
        let at = Walker {
            n: root,
            cur: NONE,
            steps: step_bound(self.len()),
        };
        // Feature `size-first`: the BLOB-aware loop from the start (it
        // makes the same steps and checks), not a second copy of the loop
        // specialised for trees without BLOBs.
        self.emit_from::<{ cfg!(feature = "size-first") }, K>(root, at, None, sink)
    }

    /// The fast loop. When it succeeds, [`Items::emit_exact`] succeeds too
    /// and writes the same bytes; when it fails, its error may differ
    /// (another check may come first), so the callers then run
    /// [`Items::emit_exact`] for the result. It makes the same steps and
    /// the same checks as the exact loop, but
    ///
    /// * checks MAP keys as it goes instead of all at once when it enters
    ///   the MAP: each key is checked when it is written (non-empty STR,
    ///   followed by a value) together with the next key (non-empty STR,
    ///   above it). So the pairs of every MAP it gets through passed the
    ///   checks of [`Items::check_map`] (the step bound keeps key chains
    ///   finite and free of repeats, so its budget cannot run out either);
    /// * leaves out two checks that cannot fail: "a node other than the
    ///   root without a next sibling has a container (`cur != NONE`)":
    ///   `cur` starts as the root (a real node) and is only ever set to a
    ///   node being entered, or to the parent of a container other than the
    ///   root, which was checked to be the `cur` of the time it was
    ///   entered; and "a BLOB is left": only LIST and MAP nodes are entered
    ///   here.
    ///
    /// At the first BLOB it checks whole the MAPs it is in and hands the
    /// walk over to the exact loop's BLOB mode ([`Items::emit_from`]).
    ///
    /// A leaf is never the root inside the loop: the root is a container
    /// when the loop runs, and node types do not change during the walk.
    #[inline(always)]
    fn emit<K: Sink>(&self, root: u32, mut sink: K) -> Result<K, Error> {
        let nodes = self.nodes();
        let mut steps = step_bound(self.len());
        let item = nodes.get(root as usize).ok_or(Error::Invalid)?;
        let bits = item.type_bits();
        if bits == T_BLOB {
            let at = Walker {
                n: root,
                cur: NONE,
                steps,
            };
            return self.emit_blobs(root, at, sink);
        }
        steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
        if !matches!(bits, T_LIST | T_MAP) {
            return leaf(item, bits, sink);
        }
        sink.byte(if bits == T_MAP { tag::MAP } else { tag::LIST })?;
        let first = item.links().first;
        if first == NONE {
            // Empty: left right away (the next step).
            steps.checked_sub(1).ok_or(Error::Invalid)?;
            sink.byte(tag::EOC)?;
            return Ok(sink);
        }
        let mut cur = root;
        // Whether `cur` is a MAP: then its children are pairs.
        let mut in_map = bits == T_MAP;
        let mut n = first;
        loop {
            // Writes the children of `cur` from `n` on until one is a
            // container (`Some`, not written yet) or the last one is
            // written (`None`). One loop for MAP pairs, one for LIST
            // elements.
            let found = if in_map {
                loop {
                    let key = nodes.get(n as usize).ok_or(Error::Invalid)?;
                    steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                    if !is_key(key) {
                        return Err(STOP);
                    }
                    let k = payload(key);
                    sink = leaf(key, T_STR, sink)?;
                    let value = key.next;
                    if value >= UNLINKED {
                        return Err(STOP);
                    }
                    let item = nodes.get(value as usize).ok_or(Error::Invalid)?;
                    let after = item.next;
                    if after < UNLINKED {
                        let next_key = nodes.get(after as usize).ok_or(Error::Invalid)?;
                        if !is_key(next_key) || !key_above(payload(next_key), k) {
                            return Err(STOP);
                        }
                    }
                    n = value;
                    let bits = item.type_bits();
                    steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                    if matches!(bits, T_LIST | T_MAP | T_BLOB) {
                        break Some((item, bits));
                    }
                    sink = leaf(item, bits, sink)?;
                    if after >= UNLINKED {
                        break None;
                    }
                    n = after;
                }
            } else {
                loop {
                    let item = nodes.get(n as usize).ok_or(Error::Invalid)?;
                    let bits = item.type_bits();
                    steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                    if matches!(bits, T_LIST | T_MAP | T_BLOB) {
                        break Some((item, bits));
                    }
                    sink = leaf(item, bits, sink)?;
                    let next = item.next;
                    if next >= UNLINKED {
                        break None;
                    }
                    n = next;
                }
            };
            if let Some((item, bits)) = found {
                if bits == T_BLOB {
                    self.check_open_maps(root, cur)?;
                    let at = Walker {
                        n,
                        cur,
                        // The count before this step (taken from it).
                        steps: steps.saturating_add(1),
                    };
                    return self.emit_blobs(root, at, sink);
                }
                // A container must link back to the one it sits in (an
                // edit given a `prev` from elsewhere breaks that). The
                // root can come back only through a cycle; it is then
                // entered again without this check.
                if item.links().parent != cur && n != root {
                    return Err(Error::Invalid);
                }
                sink.byte(if bits == T_MAP { tag::MAP } else { tag::LIST })?;
                let first = item.links().first;
                if first != NONE {
                    cur = n;
                    in_map = bits == T_MAP;
                    n = first;
                    continue;
                }
                // Empty: left right away (the next step). Its parent is
                // `cur` (checked above) unless it is the root.
                steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                sink.byte(tag::EOC)?;
                if n == root {
                    return Ok(sink);
                }
                let next = item.next;
                if next < UNLINKED {
                    n = next;
                    continue;
                }
            }
            // The last child of `cur` is written: leave containers until
            // one has a next sibling.
            let mut c = cur;
            loop {
                steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                let item = nodes.get(c as usize).ok_or(Error::Invalid)?;
                sink.byte(tag::EOC)?;
                if c == root {
                    return Ok(sink);
                }
                let next = item.next;
                c = item.links().parent;
                if next < UNLINKED {
                    let parent = nodes.get(c as usize).ok_or(Error::Invalid)?;
                    cur = c;
                    in_map = parent.type_bits() == T_MAP;
                    n = next;
                    break;
                }
            }
        }
    }

    /// Checks whole ([`Items::check_map`]) the MAPs among `cur` and its
    /// ancestors up to `root`: the containers the fast loop is in when it
    /// hands over to the BLOB loop, which checks MAPs only as it enters
    /// them.
    #[cold]
    #[inline(never)]
    fn check_open_maps(&self, root: u32, cur: u32) -> Result<(), Error> {
        let nodes = self.nodes();
        let mut c = cur;
        // The chain is that of the containers entered, so it reaches the
        // root; the bound only keeps the loop finite whatever the nodes.
        for _ in 0..=nodes.len() {
            let item = nodes.get(c as usize).ok_or(Error::Invalid)?;
            if item.type_bits() == T_MAP {
                self.check_map(item)?;
            }
            if c == root {
                return Ok(());
            }
            c = item.links().parent;
        }
        Err(Error::Invalid)
    }

    /// The exact loop from `at` on. `BLOBS == false` is the loop for what
    /// has no BLOB: at the first BLOB it hands the walk over to the loop
    /// with `BLOBS == true`, which keeps the state of the BLOB being
    /// written and checks its chunks.
    #[inline(always)]
    fn emit_from<const BLOBS: bool, K: Sink>(
        &self,
        root: u32,
        at: Walker,
        mut blob: Option<BlobOut>,
        mut sink: K,
    ) -> Result<K, Error> {
        let nodes = self.nodes();
        let Walker {
            mut n,
            mut cur,
            mut steps,
        } = at;
        'visit: loop {
            let item = nodes.get(n as usize);
            let bits = item.map_or(0, Item::type_bits);
            if !BLOBS && bits == T_BLOB {
                let at = Walker { n, cur, steps };
                return self.emit_blobs(root, at, sink);
            }
            steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
            let item = item.ok_or(Error::Invalid)?;
            let next = item.next;
            if matches!(bits, T_LIST | T_MAP | T_BLOB) {
                if n != root && item.links().parent != cur {
                    // A container must link back to the one it sits in
                    // (an edit given a `prev` from elsewhere breaks that).
                    return Err(Error::Invalid);
                }
                if BLOBS && blob.is_some() {
                    // Only BIN chunks may follow a BLOB header.
                    return Err(NOT_A_CHUNK);
                }
                match bits {
                    T_LIST => sink.byte(tag::LIST)?,
                    T_MAP => {
                        self.check_map(item)?;
                        sink.byte(tag::MAP)?;
                    }
                    _ => {
                        let chunk_minus_one = self.blob_ext_chunk(n)?;
                        sink.atom(&Atom::Blob {
                            chunk_len_minus_one: chunk_minus_one,
                        })?;
                        blob = Some(BlobOut {
                            chunk_minus_one,
                            open: true,
                        });
                    }
                }
                let first = item.links().first;
                if first != NONE {
                    cur = n;
                    n = first;
                    continue;
                }
                // Empty: left right away (the next step).
                steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                cur = item.links().parent;
                let go_next = n != root && next < UNLINKED;
                if !go_next && n != root && cur == NONE {
                    return Err(Error::Invalid);
                }
                close::<BLOBS>(bits, &mut blob, &mut sink)?;
                if go_next {
                    n = next;
                    continue;
                }
            } else {
                // Where the walk goes is decided before writing (the
                // walk's order of errors).
                let go_next = n != root && next < UNLINKED;
                if !go_next && n != root && cur == NONE {
                    return Err(Error::Invalid);
                }
                if BLOBS {
                    if let Some(b) = blob.as_mut() {
                        check_chunk(item, b)?;
                    }
                }
                sink = leaf(item, bits, sink)?;
                if go_next {
                    n = next;
                    continue;
                }
            }
            if n == root {
                return Ok(sink);
            }
            // `n` was the last child of `cur`: leave containers until one
            // has a next sibling.
            let mut c = cur;
            loop {
                steps = steps.checked_sub(1).ok_or(Error::Invalid)?;
                let item = nodes.get(c as usize).ok_or(Error::Invalid)?;
                cur = item.links().parent;
                let next = item.next;
                let go_next = c != root && next < UNLINKED;
                if !go_next && c != root && cur == NONE {
                    return Err(Error::Invalid);
                }
                close::<BLOBS>(item.type_bits(), &mut blob, &mut sink)?;
                if go_next {
                    n = next;
                    continue 'visit;
                }
                if c == root {
                    return Ok(sink);
                }
                c = cur;
            }
        }
    }

    /// The rest of the walk from the first BLOB on.
    #[cold]
    #[inline(never)]
    fn emit_blobs<K: Sink>(&self, root: u32, at: Walker, sink: K) -> Result<K, Error> {
        self.emit_from::<true, K>(root, at, None, sink)
    }

    /// The chunk length minus one of the BLOB `n`, from its extension slot.
    #[cold]
    #[inline(never)]
    fn blob_ext_chunk(&self, n: u32) -> Result<u64, Error> {
        Ok(self.node(n.wrapping_add(1))?.raw_u64())
    }

    /// Checks a MAP whole before it is written: its children go through
    /// the grammar in turn (the values as opaque items: the walk checks
    /// each when it gets there), which decides key type and order and the
    /// pairing.
    #[inline(never)]
    fn check_map(&self, map: &Item) -> Result<(), Error> {
        let nodes = self.nodes();
        let mut g = Grammar::new(0);
        g.feed_alone(Step::Map)?;
        let mut child = map.links().first;
        let mut budget = nodes.len();
        while child < UNLINKED {
            budget = budget.checked_sub(1).ok_or(Error::Invalid)?;
            let item = nodes.get(child as usize).ok_or(Error::Invalid)?;
            // An empty STR has no payload to read; a non-STR none either.
            let step = if is_key(item) {
                Step::Str(payload(item))
            } else {
                Step::Leaf
            };
            g.feed_alone(step)?;
            child = item.next;
        }
        g.feed_alone(Step::Eoc).map(drop)
    }
}

/// Writes the end of a container of type `bits`: EOC, or what a BLOB
/// needs after its chunks.
#[inline(always)]
fn close<const BLOBS: bool>(
    bits: u32,
    blob: &mut Option<BlobOut>,
    sink: &mut impl Sink,
) -> Result<(), Error> {
    if !BLOBS {
        // No BLOB was entered.
        return match bits {
            T_BLOB => Err(Error::Invalid),
            _ => sink.byte(tag::EOC),
        };
    }
    match blob.take() {
        None if bits != T_BLOB => sink.byte(tag::EOC),
        b => match blob_end(b)? {
            Some(t) => sink.byte(t),
            None => Ok(()),
        },
    }
}

/// What ends a BLOB: when the grammar still takes chunks (the last one
/// was full, or there was none) an empty chunk (which it takes), else
/// nothing. Leaving a
/// BLOB that was not entered is `Invalid`.
#[cold]
fn blob_end(blob: Option<BlobOut>) -> Result<Option<u8>, Error> {
    match blob {
        Some(b) if b.open => Ok(Some(tag::BIN)),
        Some(_) => Ok(None),
        None => Err(Error::Invalid),
    }
}

/// Writes a node that is not a container: the common ones inline, with
/// no call; the others in [`leaf_other`].
#[inline(always)]
fn leaf<K: Sink>(item: &Item, bits: u32, mut sink: K) -> Result<K, Error> {
    // Integers first, as one range test (no jump table).
    if bits.wrapping_sub(T_PINT) < 2 {
        let raw = item.raw_u64();
        if bits == T_PINT {
            sink.int(tag::PINT, raw)?;
        } else {
            if (raw as i64) >= 0 {
                return Err(Error::Invalid);
            }
            // !v == -1 - v, the wire magnitude of a negative v.
            sink.int(tag::NINT, !raw)?;
        }
        return Ok(sink);
    }
    match bits {
        T_STR if item.size() <= SHORT => sink.short_string(tag::STR, payload(item))?,
        T_BIN if item.size() <= SHORT => sink.short_string(tag::BIN, payload(item))?,
        T_NIL => sink.byte(tag::NIL)?,
        T_FALSE => sink.byte(tag::FALSE)?,
        T_TRUE => sink.byte(tag::TRUE)?,
        _ => return leaf_other(item, bits, sink),
    }
    Ok(sink)
}

/// Payloads up to this length are copied inline.
const SHORT: u32 = 16;

/// Writes the other leaves: longer BIN/STR, and the rare types.
#[inline(never)]
fn leaf_other<K: Sink>(item: &Item, bits: u32, mut sink: K) -> Result<K, Error> {
    match bits {
        T_STR => sink.string(tag::STR, payload(item))?,
        T_BIN => sink.string(tag::BIN, payload(item))?,
        _ => sink.atom(&slow_atom(item, item.item_type())?)?,
    }
    Ok(sink)
}

/// The atom of a rare leaf (written by [`enc::encode`](crate::enc::encode), which validates
/// it).
#[cold]
#[inline(never)]
fn slow_atom<'a>(item: &Item, t: ItemType) -> Result<Atom<'a>, Error> {
    // Only bytes types have a payload to read.
    let bytes = || payload(item);
    let atom = match t {
        ItemType::Pbig => Atom::BigInt {
            negative: false,
            magnitude: bytes(),
        },
        ItemType::Nbig => Atom::BigInt {
            negative: true,
            magnitude: bytes(),
        },
        ItemType::Hexlet => Atom::Hexlet(bytes().try_into().map_err(|_| Error::Invalid)?),
        ItemType::Float => Atom::Float(bytes()),
        ItemType::Tai64 => Atom::Tai64(bytes()),
        ItemType::Magic => Atom::Magic(bytes().try_into().map_err(|_| Error::Invalid)?),
        _ => return Err(Error::Invalid),
    };
    Ok(atom)
}

/// A BLOB chunk, fed to the BLOB's grammar, which decides whether it is
/// a BIN that fits. A short chunk ends the BLOB, so in a tree it must be
/// the last child: a chunk after it is one the grammar would refuse.
fn check_chunk(item: &Item, blob: &mut BlobOut) -> Result<(), Error> {
    let step = if item.type_bits() == T_BIN {
        Step::Bin(payload(item).len())
    } else {
        Step::Leaf
    };
    let fed = Grammar::blob(blob.chunk_minus_one).feed_alone(step)?;
    blob.open = fed == Fed::Item;
    match fed {
        Fed::Done if item.next < UNLINKED => Err(CHUNK_AFTER_LAST),
        _ => Ok(()),
    }
}
