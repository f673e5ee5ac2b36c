//! Random edit programs checked against a model: every call of
//! the tree's API either succeeds and leaves every tree consistent, or
//! fails and changes nothing.
//!
//! [`run`] turns bytes into a program: a region of documents, a pool size,
//! then calls — add, insert_after, prepend, remove, replace, map_set,
//! map_remove, set_value, the cursor calls, incremental parses of the
//! documents cut anywhere (and resumed, or resumed wrongly, or aborted),
//! clear, encode and walk — with indices picked among the model's own
//! (children, unlinked nodes, containers) or stale, foreign and out of
//! range. The model predicts each call's outcome: success, and then its
//! effect, or failure. After every call the tree must agree with the model
//! node for node, [`Items::check`] must pass, and a failed call must have
//! left every word of the pool and the parse state as they were. Used by
//! the fuzz target `tree_edits` and by yac's test `edit_sequences`.

use yac::items::{Cursor, Event, Item, Items, ItemsMut, NONE, UNLINKED};
use yac::{Atom, Error, ItemType};

use crate::input::Input;
use crate::reference::{self, key_less, Kind};

mod cursor;
mod parse;

use cursor::cursor_step;
use parse::parse_step;

/// The model of one node.
#[derive(Clone, Debug, PartialEq)]
enum Node {
    /// A leaf: its value and meta words, as `add` made them.
    Leaf { v: u64, meta: u32 },
    /// A LIST, MAP or BLOB and its children.
    Cont { t: ItemType, kids: Vec<u32> },
    /// A BLOB's extension slot.
    Ext,
}

/// An unfinished parse: the document region `docs[start..end]` fed so
/// far, and where the parser stopped.
#[derive(Clone, Copy, Debug)]
struct Parse {
    start: usize,
    end: usize,
    off: usize,
}

/// A cursor as the model sees it.
#[derive(Clone, Copy, Debug)]
struct Slot {
    cur: Cursor,
    parent: u32,
    prev: u32,
    key: u32,
    gen: u64,
}

struct Model {
    nodes: Vec<Node>,
    /// The container holding each node, `NONE` when unlinked.
    parent: Vec<u32>,
    /// Bumped whenever the tree must make every cursor stale.
    gen: u64,
    parsing: Option<Parse>,
    slots: [Option<Slot>; 4],
}

impl Model {
    fn len(&self) -> u32 {
        self.nodes.len() as u32
    }

    fn kids(&self, p: u32) -> Option<&Vec<u32>> {
        match self.nodes.get(p as usize)? {
            Node::Cont { kids, .. } => Some(kids),
            _ => None,
        }
    }

    fn kids_mut(&mut self, p: u32) -> &mut Vec<u32> {
        match self.nodes.get_mut(p as usize) {
            Some(Node::Cont { kids, .. }) => kids,
            _ => panic!("model: {p} is no container"),
        }
    }

    fn ctype(&self, p: u32) -> Option<ItemType> {
        match self.nodes.get(p as usize)? {
            Node::Cont { t, .. } => Some(*t),
            _ => None,
        }
    }

    /// The type of a visible node as the tree reports it.
    fn item_type(&self, i: u32) -> ItemType {
        match self.nodes.get(i as usize) {
            Some(Node::Cont { t, .. }) => *t,
            Some(Node::Leaf { meta, .. }) => ItemType::from_u8((meta & 0x1F) as u8),
            _ => ItemType::Invalid,
        }
    }

    /// Linkable: a visible node in no container, not an extension slot.
    fn free(&self, c: u32) -> bool {
        matches!(
            self.nodes.get(c as usize),
            Some(Node::Leaf { .. } | Node::Cont { .. })
        ) && self.parent[c as usize] == NONE
    }

    /// Whether `a` is `p` or holds it.
    fn holds(&self, a: u32, p: u32) -> bool {
        let mut at = p;
        while at != NONE {
            if at == a {
                return true;
            }
            at = self.parent[at as usize];
        }
        false
    }

    /// What `check_link(parent, child)` accepts.
    fn can_link(&self, parent: u32, child: u32) -> bool {
        let Some(t) = self.ctype(parent) else {
            return false;
        };
        self.parsing.is_none()
            && self.free(child)
            && (t != ItemType::Blob || self.item_type(child) == ItemType::Bin)
            && !self.holds(child, parent)
    }

    /// Position of the child after `prev` (`NONE`: the first) in `p`, if
    /// `prev` is a child of `p` (or `NONE`).
    fn after(&self, p: u32, prev: u32) -> Option<usize> {
        let kids = self.kids(p)?;
        if prev == NONE {
            return Some(0);
        }
        kids.iter().position(|&k| k == prev).map(|i| i + 1)
    }

    fn link(&mut self, p: u32, at: usize, c: u32) {
        self.kids_mut(p).insert(at, c);
        self.parent[c as usize] = p;
    }

    fn unlink(&mut self, p: u32, at: usize) -> u32 {
        let c = self.kids_mut(p).remove(at);
        self.parent[c as usize] = NONE;
        self.gen += 1;
        c
    }

    fn push(&mut self, n: Node) {
        self.nodes.push(n);
        self.parent.push(NONE);
    }
}

/// What the model expects of a call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// Success, with the effect the model applied.
    Ok,
    /// Failure, with nothing changed.
    Refused,
    /// Either (a parse: the model checks what it made).
    Any,
}

impl From<bool> for Want {
    fn from(ok: bool) -> Want {
        if ok {
            Want::Ok
        } else {
            Want::Refused
        }
    }
}

/// What a failed call must leave unchanged: the number of nodes in use,
/// the parse flag, and a hash (FNV-1a) of every word of every node.
type Snapshot = (usize, bool, u64);

fn snapshot(items: &ItemsMut<'_, '_>) -> Snapshot {
    let mut h: u64 = 0xCBF2_9CE4_8422_2325;
    for n in items.all_nodes() {
        for w in [n.raw_u64(), u64::from(n.next), u64::from(n.meta)] {
            h = (h ^ w).wrapping_mul(0x0000_0100_0000_01B3);
        }
    }
    (items.all_nodes().len(), items.parsing(), h)
}

/// The node `add` makes for `atom` (value and meta words, and the number
/// of slots), or its error: decided by a scratch tree.
fn made(atom: &Atom<'_>) -> Result<(Node, usize), Error> {
    let mut pool = [Item::default(); 2];
    let mut scratch = Items::new(&mut pool);
    let idx = scratch.add(atom)?;
    let item = scratch.nodes()[idx as usize];
    let node = match item.item_type() {
        t @ (ItemType::List | ItemType::Map | ItemType::Blob) => Node::Cont {
            t,
            kids: Vec::new(),
        },
        _ => Node::Leaf {
            v: item.raw_u64(),
            meta: item.meta,
        },
    };
    Ok((node, scratch.len()))
}

const KEYS: [&str; 10] = ["", "a", "b", "z", "ab", "ba", "zz", "abc", "\u{e9}", "key"];

fn pick_atom<'d>(inp: &mut Input<'d>) -> Atom<'d> {
    match inp.byte() % 16 {
        0 => Atom::Nil,
        1 => Atom::Bool(inp.bool()),
        2 => Atom::Uint(inp.u64()),
        3 => Atom::Nint(inp.u64() as i64),
        4 => Atom::BigInt {
            negative: inp.bool(),
            magnitude: inp.slice(20),
        },
        5 => Atom::List,
        6 => Atom::Map,
        7 => Atom::Blob {
            chunk_len_minus_one: match inp.byte() % 4 {
                0 => inp.u64(),
                _ => u64::from(inp.byte() % 8),
            },
        },
        8 => inp.slice(16).try_into().map_or(Atom::Nil, Atom::Hexlet),
        9 => Atom::Float(inp.slice(32)),
        10 => Atom::Tai64(inp.slice(16)),
        11 => inp.slice(12).try_into().map_or(Atom::Nil, Atom::Magic),
        12 => Atom::Eoc,
        13 => Atom::Bin(inp.slice(12)),
        14 => Atom::Str(KEYS[inp.below(KEYS.len())]),
        _ => std::str::from_utf8(inp.slice(8)).map_or(Atom::Nil, Atom::Str),
    }
}

/// An index: mostly one the model knows (of the wanted kind), sometimes
/// any node, past the end, NONE, UNLINKED or anything.
fn pick(inp: &mut Input<'_>, m: &Model, want: impl Fn(u32) -> bool) -> u32 {
    let len = m.len();
    match inp.byte() % 32 {
        0 => NONE,
        1 => UNLINKED,
        2 => len,
        3 => inp.u32(),
        4..=5 => inp.below(len as usize + 1) as u32,
        _ => {
            let fit = (0..len).filter(|&i| want(i)).count();
            match fit {
                0 => inp.below(len as usize + 1) as u32,
                n => (0..len)
                    .filter(|&i| want(i))
                    .nth(inp.below(n))
                    .unwrap_or(NONE),
            }
        }
    }
}

/// A `prev` for container `p`: one of its children, NONE, or any index.
fn pick_prev(inp: &mut Input<'_>, m: &Model, p: u32) -> u32 {
    match (inp.byte() % 8, m.kids(p)) {
        (0, _) => NONE,
        (1..=5, Some(k)) if !k.is_empty() => k[inp.below(k.len())],
        _ => pick(inp, m, |i| m.parent[i as usize] != NONE),
    }
}

fn container(m: &Model) -> impl Fn(u32) -> bool + '_ {
    move |i| m.ctype(i).is_some()
}

fn unlinked(m: &Model) -> impl Fn(u32) -> bool + '_ {
    move |i| m.free(i)
}

/// Encodes `idx`; when it encodes, the bytes re-parse to a tree that
/// encodes to the same bytes, and the reference decoder accepts them.
fn check_encode(items: &ItemsMut<'_, '_>, idx: u32) {
    let len = items.encoded_len(idx);
    let room = len.unwrap_or(0).max(64) + 16;
    let mut out = vec![0u8; room];
    let enc = items.encode(idx, &mut out);
    // An invalid tree may run out of room before the error is reached.
    if !(len.is_err() && enc == Err(Error::NoMem)) {
        assert_eq!(enc, len, "encode and encoded_len disagree");
    }
    let Ok(n) = enc else { return };
    let out = &out[..n];
    let mut pool = vec![Item::default(); n + 1];
    let mut again = Items::new(&mut pool);
    let mut off = 0;
    let root = again
        .parse(out, &mut off)
        .unwrap_or_else(|e| panic!("encoded tree does not parse: {e:?}: {out:02X?}"));
    assert_eq!(off, n, "encoded tree parses shorter");
    let mut out2 = vec![0u8; n];
    assert_eq!(again.encode(root, &mut out2), Ok(n));
    assert_eq!(out, &out2[..], "re-encoding differs");
    match reference::decode(out) {
        Ok((_, m)) => assert_eq!(m, n),
        Err(e) => assert_eq!(e.kind, Kind::DeepRecursion, "reference rejects: {e}"),
    }
}

/// The tree agrees with the model node for node, and is consistent.
fn agree(items: &mut ItemsMut<'_, '_>, m: &Model) {
    if let Err(f) = items.check() {
        panic!("check: {f:?}\n{:?}", items.all_nodes());
    }
    assert_eq!(items.parsing(), m.parsing.is_some(), "parsing()");
    assert_eq!(items.nodes().len(), m.nodes.len(), "visible nodes");
    for (i, want) in m.nodes.iter().enumerate() {
        let i = i as u32;
        let got = items.nodes()[i as usize];
        match want {
            Node::Leaf { v, meta } => {
                assert_eq!((got.raw_u64(), got.meta), (*v, *meta), "leaf {i}");
            }
            Node::Cont { t, kids } => {
                assert_eq!(got.item_type(), *t, "type of {i}");
                assert!(
                    items.children(i).eq(kids.iter().copied()),
                    "children of {i}"
                );
                assert_eq!(items.child_count(i), Ok(kids.len()), "count of {i}");
            }
            Node::Ext => assert_eq!(got.item_type(), ItemType::Invalid, "slot {i}"),
        }
        let linked = m.parent[i as usize] != NONE;
        if *want != Node::Ext {
            assert_eq!(got.next != UNLINKED, linked, "place of {i}");
        }
    }
}

/// Adds the nodes of a document the tree just parsed (`start..len`, root
/// `root`) to the model, after checking that it encodes to its input.
fn import(items: &ItemsMut<'_, '_>, m: &mut Model, root: u32, input: &[u8]) {
    let mut out = vec![0u8; input.len()];
    assert_eq!(
        items.encode(root, &mut out),
        Ok(input.len()),
        "parsed document's size"
    );
    assert_eq!(&out[..], input, "parsed document encodes to its input");
    let start = m.nodes.len();
    for i in start..items.nodes().len() {
        let item = items.nodes()[i];
        let node = match item.item_type() {
            ItemType::Invalid => Node::Ext,
            t @ (ItemType::List | ItemType::Map | ItemType::Blob) => Node::Cont {
                t,
                kids: items.children(i as u32).collect(),
            },
            _ => Node::Leaf {
                v: item.raw_u64(),
                meta: item.meta,
            },
        };
        m.push(node);
    }
    for p in start..m.nodes.len() {
        for k in m.kids(p as u32).cloned().unwrap_or_default() {
            m.parent[k as usize] = p as u32;
        }
    }
    let mut walked = 0;
    for ev in items.walk(root) {
        if let Ok((Event::Leaf(_) | Event::Enter(_), _)) = ev {
            walked += 1;
        }
    }
    let exts = m.nodes[start..].iter().filter(|n| **n == Node::Ext).count();
    assert_eq!(
        walked + exts,
        m.nodes.len() - start,
        "parsed nodes outside the document"
    );
}

/// Runs one program (see the module documentation). Panics when the tree
/// and the model disagree.
pub fn run(data: &[u8]) {
    let mut inp = Input::new(data);
    let doc_len = usize::from(inp.byte()) * 4;
    let docs = inp.slice(doc_len);
    let cap = docs.len() / 2 + inp.below(64) + 1;
    let mut pool = vec![Item::default(); cap];
    let mut items = Items::new(&mut pool);
    let mut m = Model {
        nodes: Vec::new(),
        parent: Vec::new(),
        gen: 0,
        parsing: None,
        slots: [None; 4],
    };
    let trace = std::env::var_os("YAC_FUZZ_TRACE").is_some();
    // First the region's first document, in one go.
    let mut off = 0;
    match items.parse(docs, &mut off) {
        Ok(root) => import(&items, &mut m, root, &docs[..off]),
        Err(_) => items.abort(),
    }
    agree(&mut items, &m);
    let mut ops = 0;
    while !inp.is_empty() && ops < 128 {
        ops += 1;
        let before = snapshot(&items);
        // Structural edits twice as often as the rest.
        let op = match inp.byte() % 26 {
            op @ 20..=25 => op - 18,
            op => op,
        };
        let (want, got) = step(op, &mut inp, &mut items, &mut m, docs);
        if trace {
            eprintln!(
                "op {op}: want {want:?}, got {got:?}; len {} parsing {}",
                items.len(),
                items.parsing()
            );
        }
        match want {
            Want::Ok => assert!(got.is_ok(), "op {op}: predicted success, got {got:?}"),
            Want::Refused => {
                assert!(got.is_err(), "op {op}: predicted failure, got {got:?}");
                assert_eq!(
                    snapshot(&items),
                    before,
                    "op {op}: failed call {got:?} changed the pool"
                );
            }
            Want::Any => {}
        }
        agree(&mut items, &m);
    }
    for r in 0..m.len() {
        if m.free(r) {
            check_encode(&items, r);
        }
    }
}

/// One call: returns what the model expects, and the result.
fn step<'d>(
    op: u8,
    inp: &mut Input<'d>,
    items: &mut ItemsMut<'_, 'd>,
    m: &mut Model,
    docs: &'d [u8],
) -> (Want, Result<(), Error>) {
    if (15..=17).contains(&op) {
        return parse_step(op, inp, items, m, docs);
    }
    let (ok, r) = call(op, inp, items, m);
    (ok.into(), r)
}

/// A call other than a parse: whether the model predicts success, and the
/// result.
fn call<'d>(
    op: u8,
    inp: &mut Input<'d>,
    items: &mut ItemsMut<'_, 'd>,
    m: &mut Model,
) -> (bool, Result<(), Error>) {
    let idle = m.parsing.is_none();
    match op {
        0 | 1 => {
            let a = pick_atom(inp);
            let fits = made(&a);
            let room = items.capacity() - items.all_nodes().len();
            let want = idle && matches!(fits, Ok((_, n)) if n <= room);
            let r = items.add(&a);
            if let (true, Ok(idx), Ok((node, n))) = (want, r, fits) {
                assert_eq!(idx, m.len(), "add's index");
                m.push(node);
                if n == 2 {
                    m.push(Node::Ext);
                }
            }
            (want, r.map(|_| ()))
        }
        2 => {
            let p = pick(inp, m, container(m));
            let prev = pick_prev(inp, m, p);
            let c = pick(inp, m, |i| m.free(i) && i != p);
            let at = m.after(p, prev).filter(|_| prev != NONE);
            let want = m.can_link(p, c) && m.ctype(p) != Some(ItemType::Map) && at.is_some();
            let r = items.insert_after(p, prev, c);
            if let (true, Some(at)) = (want, at) {
                m.link(p, at, c);
            }
            (want, r)
        }
        3 => {
            let p = pick(inp, m, container(m));
            let c = pick(inp, m, |i| m.free(i) && i != p);
            let want = m.can_link(p, c) && m.ctype(p) != Some(ItemType::Map);
            let r = items.prepend(p, c);
            if want {
                m.link(p, 0, c);
            }
            (want, r)
        }
        4 | 5 => {
            let p = pick(inp, m, container(m));
            let prev = pick_prev(inp, m, p);
            let new = pick(inp, m, |i| m.free(i) && i != p);
            let replace = op == 5;
            let at = m
                .after(p, prev)
                .filter(|&i| m.kids(p).is_some_and(|k| i < k.len()));
            let linkable = !replace || m.can_link(p, new);
            let want =
                idle && linkable && m.ctype(p).is_some_and(|t| t != ItemType::Map) && at.is_some();
            let r = if replace {
                items.replace(p, prev, new)
            } else {
                items.remove(p, prev)
            };
            if let (true, Some(at)) = (want, at) {
                let old = m.unlink(p, at);
                if replace {
                    m.link(p, at, new);
                }
                assert_eq!(r, Ok(old), "removed node");
            }
            (want, r.map(|_| ()))
        }
        6 => {
            let map = pick(inp, m, |i| m.ctype(i) == Some(ItemType::Map));
            let k = pick(inp, m, |i| m.free(i) && m.item_type(i) == ItemType::Str);
            let v = pick(inp, m, |i| m.free(i) && i != k && i != map);
            let key_ok =
                m.item_type(k) == ItemType::Str && items.bytes(k).is_ok_and(|b| !b.is_empty());
            let want = m.ctype(map) == Some(ItemType::Map)
                && k != v
                && m.can_link(map, k)
                && m.can_link(map, v)
                && key_ok;
            let r = items.map_set(map, k, v);
            if want {
                let key = items.bytes(k).unwrap_or_default();
                let (prev_value, found) = find_pair(items, m, map, key);
                match found {
                    Some(ki) => {
                        let old = m.unlink(map, ki + 1);
                        m.link(map, ki + 1, v);
                        assert_eq!(r, Ok(old), "map_set's old value");
                    }
                    None => {
                        m.link(map, prev_value, v);
                        m.link(map, prev_value, k);
                        assert_eq!(r, Ok(NONE), "map_set inserting");
                    }
                }
            }
            (want, r.map(|_| ()))
        }
        7 => {
            let map = pick(inp, m, |i| m.ctype(i) == Some(ItemType::Map));
            let key = if inp.bool() {
                KEYS[inp.below(KEYS.len())].as_bytes()
            } else {
                inp.slice(6)
            };
            let want = idle && m.ctype(map) == Some(ItemType::Map);
            let r = items.map_remove(map, key);
            if want {
                let (_, found) = find_pair(items, m, map, key);
                let expect = found.map(|ki| {
                    m.unlink(map, ki);
                    m.unlink(map, ki)
                });
                assert_eq!(r, Ok(expect), "map_remove");
            }
            (want, r.map(|_| ()))
        }
        8 => {
            let i = pick(inp, m, |i| matches!(m.nodes[i as usize], Node::Leaf { .. }));
            let a = pick_atom(inp);
            let fits = made(&a);
            let leaf = matches!(m.nodes.get(i as usize), Some(Node::Leaf { .. }));
            let want = idle && leaf && matches!(fits, Ok((Node::Leaf { .. }, _)));
            let r = items.set_value(i, &a);
            if let (true, Ok((node, _))) = (want, fits) {
                m.nodes[i as usize] = node;
            }
            (want, r)
        }
        9 => {
            // Make a cursor: first, end, or after a child.
            let s = inp.below(4);
            let p = pick(inp, m, container(m));
            let how = inp.byte() % 3;
            let prev = if how == 2 { pick_prev(inp, m, p) } else { NONE };
            let r = match how {
                0 => items.cursor_first(p),
                1 => items.cursor_end(p),
                _ => items.cursor_after(p, prev),
            };
            let want = match (how, m.kids(p)) {
                (_, None) => false,
                (2, Some(_)) => m.after(p, prev).is_some(),
                _ => true,
            };
            if let (true, Ok(cur)) = (want, r) {
                let kids = m.kids(p).cloned().unwrap_or_default();
                let upto = match how {
                    0 => 0,
                    1 => kids.len(),
                    _ => m.after(p, prev).unwrap_or(0),
                };
                let mut slot = Slot {
                    cur,
                    parent: p,
                    prev: NONE,
                    key: NONE,
                    gen: m.gen,
                };
                for &k in &kids[..upto] {
                    slot_next(m, &mut slot, k);
                }
                assert_eq!((cur.parent(), cur.prev()), (p, slot.prev), "new cursor");
                m.slots[s] = Some(slot);
            }
            (want, r.map(|_| ()))
        }
        10..=14 => cursor_step(op, inp, items, m),
        18 => {
            // Abort: a no-op unless a parse is unfinished, whose nodes the
            // model never had.
            items.abort();
            m.parsing = None;
            (true, Ok(()))
        }
        _ => match inp.byte() % 8 {
            0 => {
                items.clear();
                m.nodes.clear();
                m.parent.clear();
                m.parsing = None;
                m.gen += 1;
                (true, Ok(()))
            }
            1..=4 => {
                let i = pick(inp, m, |i| m.free(i));
                check_encode(items, i);
                (true, Ok(()))
            }
            _ => {
                let i = pick(inp, m, |i| m.free(i));
                let steps = items.walk(i).count();
                assert!(steps <= 2 * items.len() + 3, "walk not bounded");
                (true, Ok(()))
            }
        },
    }
}

/// The model's `find_pair`: the position where a new pair goes (after the
/// value of the last pair whose key sorts below `key`) and the position of
/// an equal key.
fn find_pair(items: &ItemsMut<'_, '_>, m: &Model, map: u32, key: &[u8]) -> (usize, Option<usize>) {
    let kids = m.kids(map).cloned().unwrap_or_default();
    let mut at = 0;
    for (i, pair) in kids.chunks(2).enumerate() {
        let ck = pair[0];
        if m.item_type(ck) == ItemType::Str {
            let cb = items.bytes(ck).unwrap_or_default();
            if cb == key {
                return (at, Some(2 * i));
            }
            if key_less(key, cb) {
                break;
            }
        }
        at = 2 * i + 2;
    }
    (at, None)
}

/// Moves a model cursor over child `k` (a MAP's key is every child not
/// right after a key).
fn slot_next(m: &Model, s: &mut Slot, k: u32) {
    if m.ctype(s.parent) == Some(ItemType::Map) && !(s.prev != NONE && s.prev == s.key) {
        s.key = k;
    }
    s.prev = k;
}
