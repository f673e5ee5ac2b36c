//! Regression tests of the edits' safety: a `prev` from another container,
//! edits between incremental parse calls, a new parse taken for the rest of
//! an old one, the checker itself, cursors, the limit of `add`.

use std::vec;
use std::vec::Vec;

use super::super::*;
use super::hex;
use crate::atom::Atom;
use crate::error::Error;

fn words(items: &ItemsMut<'_, '_>) -> Vec<(u64, u32, u32)> {
    items
        .all_nodes()
        .iter()
        .map(|n| (n.raw_u64(), n.next, n.meta))
        .collect()
}

fn encoded(items: &ItemsMut<'_, '_>, root: u32) -> Vec<u8> {
    let mut out = vec![0u8; 256];
    let n = items.encode(root, &mut out).unwrap();
    out.truncate(n);
    out
}

/// Two lists A = [1, 2] and B = [3] in one pool.
fn two_lists<'p>(
    pool: &'p mut [Item],
    a_doc: &'static [u8],
    b_doc: &'static [u8],
) -> (ItemsMut<'p, 'static>, u32, u32) {
    let mut items = Items::new(pool);
    let (mut off_a, mut off_b) = (0, 0);
    let a = items.parse(a_doc, &mut off_a).unwrap();
    let b = items.parse(b_doc, &mut off_b).unwrap();
    (items, a, b)
}

const A: &[u8] = &[0x08, 0x0C, 0x81, 0x01, 0x0C, 0x81, 0x02, 0x00];
const B: &[u8] = &[0x08, 0x0C, 0x81, 0x03, 0x00];

#[test]
fn foreign_prev_is_refused_and_changes_nothing() {
    let mut pool = vec![Item::default(); 16];
    let (mut items, a, b) = two_lists(&mut pool, A, B);
    let b0 = items.first_child(b).unwrap();
    let a0 = items.first_child(a).unwrap();
    let x = items.add(&Atom::Uint(9)).unwrap();
    let before = words(&items);
    // InsertAfter, Remove and Replace with a child of B as prev under A.
    assert_eq!(items.insert_after(a, b0, x), Err(Error::Invalid));
    assert_eq!(items.remove(a, b0), Err(Error::Invalid));
    assert_eq!(items.replace(a, b0, x), Err(Error::Invalid));
    // An unlinked prev, the parent itself, a root.
    assert_eq!(items.insert_after(a, x, x), Err(Error::Invalid));
    assert_eq!(items.insert_after(a, a, x), Err(Error::Invalid));
    assert_eq!(items.insert_after(a, b, x), Err(Error::Invalid));
    assert_eq!(words(&items), before);
    assert_eq!(items.child_count(a), Ok(2));
    assert_eq!(items.child_count(b), Ok(1));
    items.check().unwrap();
    // The same calls with a real child work, and keep the counts right.
    items.insert_after(a, a0, x).unwrap();
    assert_eq!(items.child_count(a), Ok(3));
    items.check().unwrap();
    assert_eq!(encoded(&items, a), hex("08 0C8101 0C8109 0C8102 00"));
    assert_eq!(encoded(&items, b), B);
}

#[test]
fn foreign_prev_cannot_build_a_cycle() {
    // The cycle: InsertAfter with a foreign prev, then Prepend.
    let mut pool = vec![Item::default(); 16];
    let (mut items, a, b) = two_lists(&mut pool, A, B);
    let b0 = items.first_child(b).unwrap();
    let inner = items.add(&Atom::List).unwrap();
    assert_eq!(items.insert_after(a, b0, inner), Err(Error::Invalid));
    // Properly placed in B, `inner` cannot take A... then A cannot go in it.
    items.insert_after(b, b0, inner).unwrap();
    assert_eq!(items.prepend(inner, b), Err(Error::Invalid));
    items.check().unwrap();
    assert_eq!(encoded(&items, b), hex("08 0C8103 08 00 00"));
}

#[test]
fn add_during_an_unfinished_parse_is_refused() {
    // 08 01 01 | 02 00: the document, cut after three bytes.
    let doc = hex("08 01 01 02 00");
    let mut pool = vec![Item::default(); 8];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    assert!(matches!(
        items.parse(&doc[..3], &mut off),
        Err(Error::NotEnough(_))
    ));
    assert!(items.parsing());
    let snapshot = words(&items);
    assert_eq!(items.add(&Atom::Bool(true)), Err(Error::Invalid));
    // The still-open LIST is node 0: invisible, so no edit can reach it.
    assert_eq!(items.get(0).map(|_| ()), None);
    assert_eq!(items.prepend(0, 1), Err(Error::Invalid));
    assert_eq!(items.insert_after(0, 1, 2), Err(Error::Invalid));
    assert_eq!(items.remove(0, NONE), Err(Error::Invalid));
    assert_eq!(items.set_value(1, &Atom::Nil), Err(Error::Invalid));
    assert_eq!(words(&items), snapshot);
    items.check().unwrap();
    let root = items.parse(&doc, &mut off).unwrap();
    assert!(!items.parsing());
    items.check().unwrap();
    assert_eq!(encoded(&items, root), doc);
}

#[test]
fn abort_after_a_refused_edit_leaves_the_older_tree_intact() {
    let mut pool = vec![Item::default(); 16];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let old = items.parse(A, &mut off).unwrap();
    let len_old = items.len();
    let doc = hex("08 08 01 02 00 00");
    let mut off2 = 0;
    assert!(items.parse(&doc[..4], &mut off2).is_err());
    let a0 = items.first_child(old).unwrap();
    let x = items.add(&Atom::Uint(7));
    assert_eq!(x, Err(Error::Invalid));
    assert_eq!(items.insert_after(old, a0, 3), Err(Error::Invalid));
    items.abort();
    assert!(!items.parsing());
    assert_eq!(items.len(), len_old);
    items.check().unwrap();
    assert_eq!(encoded(&items, old), A);
    // The next add makes a new node and leaves the older tree as it was.
    let y = items.add(&Atom::Uint(7)).unwrap();
    assert_eq!(y as usize, len_old);
    assert_eq!(encoded(&items, old), A);
    items.check().unwrap();
}

#[test]
fn a_new_parse_does_not_continue_an_unfinished_one() {
    let first = hex("08 0C8101 0C8102 00");
    let second = hex("08 0C8105 00");
    let mut pool = vec![Item::default(); 16];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    assert!(items.parse(&first[..4], &mut off).is_err());
    let state = items.state;
    // Another buffer, or the same one from another offset: refused, and
    // the unfinished parse stays as it was.
    let mut off2 = 0;
    assert_eq!(items.parse(&second, &mut off2), Err(Error::Invalid));
    assert_eq!(off2, 0);
    let mut off3 = 0;
    assert_eq!(items.parse(&first, &mut off3), Err(Error::Invalid));
    assert_eq!(items.state, state);
    assert!(items.parsing());
    // Continued where it stopped, it finishes.
    let root = items.parse(&first, &mut off).unwrap();
    assert_eq!(encoded(&items, root), first);
    // After an abort, the new document parses on its own.
    let mut off4 = 0;
    assert!(items.parse(&second[..2], &mut off4).is_err());
    items.abort();
    let mut off5 = 0;
    let r2 = items.parse(&second, &mut off5).unwrap();
    assert_eq!(encoded(&items, r2), second);
    items.check().unwrap();
}

#[test]
fn check_finds_each_kind_of_corruption_and_restores_the_pool() {
    fn corrupt(f: impl Fn(&mut [Item], u32, u32), want: &str) {
        let mut pool = vec![Item::default(); 16];
        let (items, a, b) = two_lists(&mut pool, A, B);
        let len = items.len();
        f(&mut pool, a, b);
        let before: Vec<_> = pool.iter().map(|n| (n.raw_u64(), n.next, n.meta)).collect();
        let mut items = Items::new(&mut pool);
        items.len = len as u32;
        let fault = items.check().unwrap_err();
        assert!(fault.what().contains(want), "{fault:?}, wanted {want}");
        let after: Vec<_> = pool.iter().map(|n| (n.raw_u64(), n.next, n.meta)).collect();
        assert_eq!(before, after, "check left marks behind");
    }
    // A = 0:[1, 2], B = 3:[4].
    // B's child linked after A's last: counts wrong, then a shared node.
    corrupt(|p, _, _| p[2].next = 4, "stored count");
    corrupt(
        |p, a, _| {
            p[2].next = 4;
            p[a as usize].set_size(3);
        },
        "two places",
    );
    // Counts: A says 3.
    corrupt(|p, a, _| p[a as usize].set_size(3), "stored count");
    // A chain that loops.
    corrupt(|p, _, _| p[2].next = 1, "two places");
    // A linked node in no container.
    corrupt(
        |p, _, b| {
            p[b as usize].links_mut().first = NONE;
            p[b as usize].set_size(0);
        },
        "in no container",
    );
    // Two containers inside each other.
    corrupt(
        |p, a, b| {
            p[a as usize].links_mut().first = b;
            p[a as usize].set_size(1);
            p[b as usize].links_mut().first = a;
            p[b as usize].set_size(1);
            p[a as usize].next = NONE;
            p[b as usize].next = NONE;
            p[a as usize].links_mut().parent = b;
            p[b as usize].links_mut().parent = a;
            for i in [1, 2, 4] {
                p[i].next = UNLINKED;
            }
        },
        "cycle",
    );
    // A root inside a container.
    corrupt(|p, _, b| p[2].next = b, "unlinked node in a container");
    // A type no node has.
    corrupt(|p, _, _| p[1].meta = 1, "bad type");
    // A healthy pool passes.
    let mut pool = vec![Item::default(); 16];
    let (mut items, _, _) = two_lists(&mut pool, A, B);
    items.check().unwrap();
}

#[test]
fn cursor_appends_in_order_in_constant_time() {
    let mut pool = vec![Item::default(); 64];
    let mut items = Items::new(&mut pool);
    let list = items.add(&Atom::List).unwrap();
    let mut cur = items.cursor_end(list).unwrap();
    for v in 0..10u64 {
        let n = items.add(&Atom::Uint(v)).unwrap();
        items.cursor_insert(&mut cur, n).unwrap();
        items.check().unwrap();
    }
    let vals: Vec<u64> = items
        .children(list)
        .map(|c| items.get_uint(c).unwrap())
        .collect();
    assert_eq!(vals, (0..10).collect::<Vec<_>>());
    // A cursor from cursor_end of a non-empty list appends too.
    let mut end = items.cursor_end(list).unwrap();
    let n = items.add(&Atom::Uint(10)).unwrap();
    items.cursor_insert(&mut end, n).unwrap();
    assert_eq!(items.child_count(list), Ok(11));
    // Mid-list: after the third child.
    let third = items.nth_child(list, 2).unwrap();
    let mut mid = items.cursor_after(list, third).unwrap();
    let m = items.add(&Atom::Nil).unwrap();
    items.cursor_insert(&mut mid, m).unwrap();
    assert_eq!(items.nth_child(list, 3), Some(m));
    items.check().unwrap();
}

#[test]
fn cursors_go_stale_when_a_node_is_unlinked() {
    let mut pool = vec![Item::default(); 32];
    let (mut items, a, b) = two_lists(&mut pool, A, B);
    let mut ca = items.cursor_first(a).unwrap();
    let mut cb = items.cursor_end(b).unwrap();
    // Inserting keeps every cursor valid.
    let x = items.add(&Atom::Uint(5)).unwrap();
    items.cursor_insert(&mut cb, x).unwrap();
    assert_eq!(items.cursor_peek(&ca), Ok(items.first_child(a)));
    // Removing through a cursor keeps that cursor, makes the others stale.
    let removed = items.cursor_remove(&mut ca).unwrap();
    assert_eq!(items.get_uint(removed), Ok(1));
    let y = items.add(&Atom::Uint(6)).unwrap();
    assert_eq!(items.cursor_insert(&mut cb, y), Err(Error::Invalid));
    assert_eq!(items.cursor_peek(&cb), Err(Error::Invalid));
    items.cursor_insert(&mut ca, y).unwrap();
    items.check().unwrap();
    assert_eq!(encoded(&items, a), hex("08 0C8106 0C8102 00"));
    // A remove by index makes `ca` stale too; so does clear.
    let removed = items.remove(b, NONE).unwrap();
    assert_eq!(items.cursor_peek(&ca), Err(Error::Invalid));
    // The removed node, its position gone, cannot be prev of a fresh cursor.
    assert_eq!(items.cursor_after(b, removed), Err(Error::Invalid));
    let c = items.cursor_first(a).unwrap();
    items.clear();
    assert_eq!(items.cursor_peek(&c), Err(Error::Invalid));
}

#[test]
fn cursor_replace_and_remove_at_every_position() {
    let doc = hex("08 0C8101 0C8102 0C8103 00");
    for pos in 0..3usize {
        let mut pool = vec![Item::default(); 16];
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        let root = items.parse(&doc, &mut off).unwrap();
        let mut c = items.cursor_first(root).unwrap();
        for _ in 0..pos {
            items.cursor_next(&mut c).unwrap();
        }
        let new = items.add(&Atom::Uint(9)).unwrap();
        let old = items.cursor_replace(&mut c, new).unwrap();
        assert_eq!(items.get_uint(old), Ok(pos as u64 + 1));
        assert_eq!(items.cursor_peek(&c), Ok(Some(new)));
        assert_eq!(items.cursor_remove(&mut c), Ok(new));
        assert_eq!(items.child_count(root), Ok(2));
        items.check().unwrap();
        // Nothing after the last child: remove and replace are refused.
        let mut end = items.cursor_end(root).unwrap();
        assert_eq!(items.cursor_remove(&mut end), Err(Error::Invalid));
        assert_eq!(items.cursor_replace(&mut end, old), Err(Error::Invalid));
        items.check().unwrap();
    }
}

#[test]
fn map_append_keeps_keys_ordered() {
    let mut pool = vec![Item::default(); 32];
    let mut items = Items::new(&mut pool);
    let map = items.add(&Atom::Map).unwrap();
    let mut c = items.cursor_end(map).unwrap();
    for (i, k) in ["a", "b", "aa", "ab"].iter().enumerate() {
        let key = items.add(&Atom::Str(k)).unwrap();
        let val = items.add(&Atom::Uint(i as u64)).unwrap();
        items.map_append(&mut c, key, val).unwrap();
    }
    let key = items.add(&Atom::Str("b")).unwrap();
    let val = items.add(&Atom::Nil).unwrap();
    assert_eq!(items.map_append(&mut c, key, val), Err(Error::MapUnordered));
    // A cursor not at the end is refused; cursor_insert never takes a MAP.
    let mut first = items.cursor_first(map).unwrap();
    let key = items.add(&Atom::Str("zz")).unwrap();
    assert_eq!(items.map_append(&mut first, key, val), Err(Error::Invalid));
    assert_eq!(items.cursor_insert(&mut c, val), Err(Error::Invalid));
    items.check().unwrap();
    assert_eq!(
        encoded(&items, map),
        hex("09 C161 0C80 C162 0C8101 C26161 0C8102 C26162 0C8103 00")
    );
    // cursor_end of a parsed MAP knows its last key.
    let mut c2 = items.cursor_end(map).unwrap();
    assert_eq!(items.map_append(&mut c2, key, val), Ok(()));
    items.check().unwrap();
}

#[test]
fn add_refuses_byte_values_of_2_pow_27_minus_1_bytes() {
    // calloc'd: never touched, so no real memory is used.
    let big = vec![0u8; SIZE_ESC as usize];
    let mut pool = vec![Item::default(); 4];
    let mut items = Items::new(&mut pool);
    assert_eq!(items.add(&Atom::Bin(&big)), Err(Error::LenTooBig));
    assert!(items.add(&Atom::Bin(&big[..SIZE_ESC as usize - 1])).is_ok());
    assert_eq!(items.len(), 1);
}
