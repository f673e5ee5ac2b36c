//! The parser's fast loop: the common atoms inside an open LIST or MAP,
//! with the parser state in registers.
//!
//! It takes short and medium strings, integers that fit 64 bits, NIL,
//! FALSE, TRUE, LIST, MAP and EOC, each read from a 16-byte window of the
//! input so that the tag and length bytes need no bounds checks of their
//! own. Anything else (the top level, BLOBs, rare types, long strings, the
//! input's last 15 bytes, a full pool, and every error) makes it stop and
//! leave that atom to the exact path in `parse.rs`, which gives the precise
//! result. So whatever this loop accepts, the exact path would have
//! accepted in the same way; it only skips work, never a check.
//!
//! The parser state lives in locals (registers), not in a struct. Small
//! changes to the loop's shape move its instruction count by 10-20% either
//! way (register pressure: the state, the input and the pool take most
//! registers), so check any change with `benches/count.sh` and
//! `benches/run.sh`.

use super::node::{meta, Item, ItemValue, Links, NONE, OPEN_IN_MAP};
use super::{payload, Items, UNLINKED};
use crate::atom::{self, tag, Class, ItemType, Quick};
use crate::rules::key_above;
use crate::utf8::{self, StrBatch};

/// Where the fast loop stopped.
pub(super) enum Stop {
    /// The document's root container closed: its index.
    Done(u32),
    /// The atom at the saved offset needs the exact path.
    Slow,
}

impl<'a> Items<'a, &mut [Item]> {
    /// Parses common atoms until the document ends or an atom needs the
    /// exact path; the parser state and `*off` are saved either way.
    #[inline(always)]
    pub(super) fn fast_run(&mut self, buf: &'a [u8], off: &mut usize) -> Stop {
        let st = self.state;
        let in_map = if st.cur_type == ItemType::Map as u32 {
            true
        } else if st.cur_type == ItemType::List as u32 {
            false
        } else {
            return Stop::Slow; // top level or BLOB
        };
        let Some(rest) = buf.get(*off..) else {
            return Stop::Slow;
        };
        let max_depth = if self.opts.max_depth == 0 {
            u32::MAX
        } else {
            self.opts.max_depth
        };
        let Some(depth_room) = max_depth.checked_sub(st.depth) else {
            return Stop::Slow; // the exact path reports DeepRecursion
        };
        let mut r = Regs {
            rest,
            len: self.len as usize,
            cur: st.cur,
            count: st.count,
            // `last` is a valid `last_closed` (see `Regs`): a leaf that is
            // the last child is the last node made, whose `next` is `len`.
            last_closed: st.last,
            depth_room,
            prev_key: st.prev_key,
            in_map,
        };
        let limits = Limits {
            trust_utf8: self.opts.trust_utf8,
        };
        let mut strs = StrBatch::new();
        // On hosts, a copy of the loop for trusted text, where the checks
        // and the batch are constant-folded away (and the copy that checks
        // has no trust tests); a microcontroller build keeps one copy.
        let mut stop = if utf8::BATCHES && limits.trust_utf8 {
            let trusted = Limits { trust_utf8: true };
            run(self.nodes, &mut r, trusted, &mut strs)
        } else {
            run(self.nodes, &mut r, limits, &mut strs)
        };
        self.len = r.len as u32;
        self.state.cur = r.cur;
        self.state.last = match stop {
            Stop::Done(root) => root,
            Stop::Slow => last_child(self.nodes, &r),
        };
        self.state.count = r.count;
        self.state.depth = max_depth - r.depth_room;
        self.state.prev_key = r.prev_key;
        self.state.cur_type = match (&stop, r.in_map) {
            (Stop::Done(_), _) => ItemType::Invalid as u32,
            (_, true) => ItemType::Map as u32,
            (_, false) => ItemType::List as u32,
        };
        *off = buf.len() - r.rest.len();
        if !strs.finish() {
            // A STR the loop took is bad: the exact path reports the first
            // one (and rolls the document back).
            if let Some(at) = atom::first_refused(rest) {
                *off = buf.len() - rest.len() + at;
                stop = Stop::Slow;
            }
        }
        stop
    }
}

/// The parser state as locals, so that it stays in registers.
///
/// Instead of the last child (which every leaf would have to update), the
/// loop keeps `last_closed`, the child container that closed most
/// recently: it is still the last child exactly when no node was made
/// after it, that is when its speculative `next` equals `len`; otherwise
/// the last child is the last node made. See [`last_child`].
#[derive(Clone, Copy)]
struct Regs<'a> {
    /// The input from the next atom on.
    rest: &'a [u8],
    len: usize,
    cur: u32,
    count: u32,
    last_closed: u32,
    /// How many more containers may open (`max_depth` minus the depth).
    depth_room: u32,
    prev_key: u32,
    in_map: bool,
}

/// The options the loop needs.
#[derive(Clone, Copy)]
struct Limits {
    trust_utf8: bool,
}

/// The last child of the open container, `NONE` when it has none.
#[inline(always)]
fn last_child(nodes: &[Item], s: &Regs<'_>) -> u32 {
    if s.count == 0 {
        return NONE;
    }
    match nodes.get(s.last_closed as usize) {
        Some(c) if c.next as usize == s.len => s.last_closed,
        _ => s.len as u32 - 1,
    }
}

/// What an inner loop hands back to [`run`].
enum Flow {
    /// A container opened or closed: the loop for the new one takes over.
    Switch,
    /// The fast loop is over.
    Stop(Stop),
}

/// What one value atom did.
enum Value {
    /// A leaf was appended.
    Leaf,
    /// A container opened or closed.
    Flow(Flow),
}

/// The atom needs the exact path.
const SLOW: Value = Value::Flow(Flow::Stop(Stop::Slow));

/// The loop itself: one inner loop per kind of open container, so that
/// inside a LIST no atom asks whether a MAP key is due.
#[inline(always)]
fn run(nodes: &mut [Item], r: &mut Regs<'_>, lim: Limits, b: &mut StrBatch) -> Stop {
    let mut s = *r;
    let stop = loop {
        let flow = if s.in_map {
            map_loop(nodes, &mut s, lim, b)
        } else {
            list_loop(nodes, &mut s, lim, b)
        };
        if let Flow::Stop(stop) = flow {
            break stop;
        }
    };
    *r = s;
    stop
}

/// Items of a LIST until it closes or a child opens.
#[inline(always)]
fn list_loop(nodes: &mut [Item], s: &mut Regs<'_>, lim: Limits, b: &mut StrBatch) -> Flow {
    loop {
        let Some(w) = s.rest.first_chunk::<16>() else {
            return Flow::Stop(Stop::Slow);
        };
        match value(nodes, w, s, lim, true, b) {
            Value::Leaf | Value::Flow(Flow::Switch) if !s.in_map => {}
            Value::Leaf => {}
            Value::Flow(flow) => return flow,
        }
    }
}

/// Key/value pairs of a MAP until it closes or a value opens.
#[inline(always)]
fn map_loop(nodes: &mut [Item], s: &mut Regs<'_>, lim: Limits, b: &mut StrBatch) -> Flow {
    // The exact path may have stopped between a key and its value.
    if s.count & 1 != 0 {
        if let Value::Flow(flow) = map_value(nodes, s, lim, b) {
            return flow;
        }
    }
    loop {
        let Some(w) = s.rest.first_chunk::<16>() else {
            return Flow::Stop(Stop::Slow);
        };
        let t = w[0];
        if t == tag::EOC {
            match close(nodes, s) {
                Flow::Switch if s.in_map => continue,
                flow => return flow,
            }
        }
        // A key: a STR of 1 to 60 bytes in the fast loop.
        let n = usize::from(t.wrapping_sub(tag::STR));
        if !(1..=60).contains(&n) {
            return Flow::Stop(Stop::Slow);
        }
        let Some((key, tail)) = s.rest.get(1..).and_then(|b| b.split_at_checked(n)) else {
            return Flow::Stop(Stop::Slow);
        };
        if (!lim.trust_utf8 && !b.window_key(w, key)) || !key_follows(nodes, s.prev_key, key) {
            return Flow::Stop(Stop::Slow);
        }
        let key_idx = s.len as u32;
        if !push(nodes, s, bytes_value(key), meta(ItemType::Str, n), tail) {
            return Flow::Stop(Stop::Slow);
        }
        s.prev_key = key_idx;
        if let Value::Flow(flow) = map_value(nodes, s, lim, b) {
            return flow;
        }
    }
}

/// Whether the non-empty `key` may follow the MAP's previous key
/// (`NONE` before the first); anything else goes to the exact path, where
/// the grammar decides.
#[inline(always)]
fn key_follows(nodes: &[Item], prev_key: u32, key: &[u8]) -> bool {
    prev_key == NONE
        || nodes
            .get(prev_key as usize)
            .is_some_and(|p| key_above(key, payload(p)))
}

/// The value after a MAP key.
#[inline(always)]
fn map_value(nodes: &mut [Item], s: &mut Regs<'_>, lim: Limits, b: &mut StrBatch) -> Value {
    match s.rest.first_chunk::<16>() {
        Some(w) => value(nodes, w, s, lim, false, b),
        None => SLOW,
    }
}

/// The value word of a bytes node.
#[inline(always)]
fn bytes_value(body: &[u8]) -> ItemValue {
    let mut v = ItemValue { u: 0 };
    v.ptr = body.as_ptr();
    v
}

/// Appends a leaf, linked speculatively to the next node made (see
/// parse.rs); the input goes on at `tail`. `false` when the pool is full.
#[inline(always)]
fn push<'a>(
    nodes: &mut [Item],
    s: &mut Regs<'a>,
    v: ItemValue,
    item_meta: u32,
    tail: &'a [u8],
) -> bool {
    let Some(slot) = nodes.get_mut(s.len) else {
        return false;
    };
    *slot = Item {
        v,
        next: s.len as u32 + 1,
        meta: item_meta,
    };
    s.count = s.count.wrapping_add(1);
    s.len += 1;
    s.rest = tail;
    true
}

/// One value atom (a LIST item or a MAP value) at the start of `s.rest`,
/// whose first 16 bytes are `w`. `eoc_closes`: whether EOC is allowed here
/// (in a LIST; after a MAP key it is an error, which the exact path
/// reports).
#[inline(always)]
fn value(
    nodes: &mut [Item],
    w: &[u8; 16],
    s: &mut Regs<'_>,
    lim: Limits,
    eoc_closes: bool,
    b: &mut StrBatch,
) -> Value {
    let t = w[0];
    let (v, item_meta, used) = match atom::class(t) {
        Class::Pint | Class::Nint => {
            let Some((v, m, used)) = small_int(w) else {
                return SLOW;
            };
            (ItemValue { u: v }, m, used)
        }
        Class::List => return open(nodes, s, false),
        Class::Map => return open(nodes, s, true),
        Class::Eoc if eoc_closes => return Value::Flow(close(nodes, s)),
        // NIL, FALSE, TRUE are 1, 2, 3 and their types 2, 3, 4.
        Class::Nil | Class::False | Class::True => {
            (ItemValue { u: 0 }, meta(ItemType::from_u8(t + 1), 0), 1)
        }
        class @ (Class::Bin | Class::Str) => {
            let Some((head, n)) = atom::window_string_header(w) else {
                return SLOW;
            };
            let Some((body, tail)) = s.rest.get(head..).and_then(|b| b.split_at_checked(n)) else {
                return SLOW;
            };
            let ty = if class == Class::Str {
                if !lim.trust_utf8 && !b.window_str(w, body) {
                    return SLOW;
                }
                ItemType::Str
            } else {
                ItemType::Bin
            };
            return if push(nodes, s, bytes_value(body), meta(ty, n), tail) {
                Value::Leaf
            } else {
                SLOW
            };
        }
        Class::Eoc | Class::Other => return SLOW,
    };
    let Some(tail) = s.rest.get(used..) else {
        return SLOW;
    };
    if push(nodes, s, v, item_meta, tail) {
        Value::Leaf
    } else {
        SLOW
    }
}

/// Opens a LIST or MAP (`is_map`) as the next child and descends into it.
#[inline(always)]
fn open(nodes: &mut [Item], s: &mut Regs<'_>, is_map: bool) -> Value {
    if s.depth_room == 0 {
        return SLOW;
    }
    let Some(slot) = nodes.get_mut(s.len) else {
        return SLOW;
    };
    let ty = if is_map {
        ItemType::Map
    } else {
        ItemType::List
    };
    // While open, `next` keeps the parent's child count (this container
    // included); `first` is where its first child will go.
    *slot = Item {
        v: ItemValue {
            c: Links {
                first: s.len as u32 + 1,
                parent: s.cur,
            },
        },
        next: s.count.wrapping_add(1),
        meta: meta(ty, 0) | if s.in_map { OPEN_IN_MAP } else { 0 },
    };
    s.cur = s.len as u32;
    s.last_closed = NONE;
    s.count = 0;
    s.depth_room -= 1;
    s.prev_key = NONE;
    s.in_map = is_map;
    s.len += 1;
    s.rest = s.rest.get(1..).unwrap_or_default();
    Value::Flow(Flow::Switch)
}

/// Closes the open container at the EOC that starts `s.rest` and returns
/// to its parent.
#[inline(always)]
fn close(nodes: &mut [Item], s: &mut Regs<'_>) -> Flow {
    let last = last_child(nodes, s);
    let ty = if s.in_map {
        ItemType::Map
    } else {
        ItemType::List
    };
    let Some(closed) = close_node(nodes, s.cur, ty, last, s.count, s.len) else {
        return Flow::Stop(Stop::Slow);
    };
    s.rest = s.rest.get(1..).unwrap_or_default();
    s.depth_room += 1;
    s.last_closed = s.cur;
    s.count = closed.parent_count;
    s.cur = closed.parent;
    if s.cur == NONE {
        // The root: no sibling, ever.
        if let Some(root) = nodes.get_mut(s.last_closed as usize) {
            root.next = UNLINKED;
        }
        return Flow::Stop(Stop::Done(s.last_closed));
    }
    s.in_map = closed.parent_is_map;
    if s.in_map {
        // A container inside a MAP is a value; its key is the node made
        // just before it.
        s.prev_key = s.last_closed.wrapping_sub(1);
    }
    Flow::Switch
}

/// What closing a container leaves to its parent.
struct Closed {
    parent: u32,
    parent_count: u32,
    parent_is_map: bool,
}

/// Closes container `cur` of type `ty` with `count` children, the last
/// being `last`; `len` is the index the next node will get, which becomes
/// its `next` (the caller makes that [`UNLINKED`] for a root). `None` only
/// for a broken state (an index outside the pool), which the exact path
/// reports.
#[inline(always)]
fn close_node(
    nodes: &mut [Item],
    cur: u32,
    ty: ItemType,
    last: u32,
    count: u32,
    len: usize,
) -> Option<Closed> {
    if count == 0 {
        nodes.get_mut(cur as usize)?.links_mut().first = NONE;
    } else {
        nodes.get_mut(last as usize)?.next = NONE;
    }
    let node = nodes.get_mut(cur as usize)?;
    let parent_count = node.next;
    let parent = node.links().parent;
    let parent_is_map = node.meta & OPEN_IN_MAP != 0;
    node.meta = meta(ty, count as usize);
    node.next = len as u32;
    Some(Closed {
        parent,
        parent_count,
        parent_is_map,
    })
}

/// An +INT/-INT at the window's start whose BIN body is minimal, at most 8
/// bytes and fits `u64`/`i64` (the atom decoder's window path): the value
/// word, the meta word and the atom's length. `None` for anything else.
#[inline(always)]
fn small_int(w: &[u8; 16]) -> Option<(u64, u32, usize)> {
    match atom::window_int(w, w[0] == tag::NINT)? {
        Quick::Word(ty, v, used) => Some((v, meta(ty, 0), used)),
        Quick::Bytes(..) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_int_reads_every_width_and_refuses_the_rest() {
        for n in 0..=8usize {
            let mut w = [0xEEu8; 16];
            w[0] = tag::PINT;
            w[1] = tag::BIN | n as u8;
            let v: u64 = if n == 0 {
                0
            } else {
                0x8102_0304_0506_0708 >> (64 - 8 * n)
            };
            for i in 0..n {
                w[2 + i] = (v >> (8 * (n - 1 - i))) as u8;
            }
            assert_eq!(
                small_int(&w),
                Some((v, meta(ItemType::Pint, 0), 2 + n)),
                "+ width {n}"
            );
            w[0] = tag::NINT;
            let want = (n < 8).then_some((!v, meta(ItemType::Nint, 0), 2 + n));
            assert_eq!(small_int(&w), want, "- width {n}");
        }
        let mut w = [0u8; 16];
        w[0] = tag::PINT;
        w[1] = tag::BIN | 2; // leading zero
        assert_eq!(small_int(&w), None);
        w[1] = tag::BIN | 9; // too long for the fast path
        w[2] = 1;
        assert_eq!(small_int(&w), None);
        w[1] = tag::STR | 1; // not a BIN
        assert_eq!(small_int(&w), None);
    }
}
