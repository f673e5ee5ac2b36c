//! Differential tests of the encoder against the walk-based reference
//! (`encode_ref.rs`, the encoder before the fast loop): same results, same
//! errors, same bytes, for every subtree of parsed, edited and corrupted
//! trees, and for every output buffer size.

use super::*;
use crate::items::node::{ItemValue, TYPE_MASK};

/// `encode` and `encoded_len` agree with the reference for the subtree at
/// `root`, at every buffer size up to a little beyond the encoding (a
/// sample of sizes for long encodings); bytes after the encoding stay
/// untouched.
fn same_as_reference<S: AsRef<[Item]>>(
    items: &Items<'_, S>,
    root: u32,
    what: &str,
) -> Result<usize, Error> {
    let want_len = items.encoded_len_ref(root);
    assert_eq!(items.encoded_len(root), want_len, "{what}: encoded_len");
    let full = want_len.unwrap_or(48);
    let caps: Vec<usize> = if cfg!(miri) {
        // Under Miri (~1000x slower) the edges only: every test of the
        // crate then runs within CI's Miri time.
        (0..3).chain(full.saturating_sub(2)..=full + 2).collect()
    } else if full <= 200 {
        (0..=full + 2).collect()
    } else {
        (0..40).chain(full - 40..=full + 2).collect()
    };
    for cap in caps {
        let mut got = vec![0xA5u8; cap];
        let mut want = vec![0xA5u8; cap];
        let r = items.encode(root, &mut got);
        assert_eq!(r, items.encode_ref(root, &mut want), "{what}: cap {cap}");
        if let Ok(n) = r {
            assert_eq!(got[..n], want[..n], "{what}: cap {cap}");
            assert!(got[n..].iter().all(|&b| b == 0xA5), "{what}: cap {cap}");
        }
    }
    want_len
}

#[test]
fn every_subtree_of_the_corpus_encodes_as_the_reference() {
    for (d, doc) in corpus().into_iter().enumerate() {
        let mut pool = vec![Item::default(); doc.len() + 2];
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        let root = items.parse(&doc, &mut off).unwrap();
        assert_eq!(
            items.encode_ref(root, &mut vec![0; doc.len()]),
            Ok(doc.len())
        );
        // Every node, BLOB extension slots included, and indices beyond
        // (under Miri every 3rd, the last included).
        for idx in crate::sample::spread(items.len() + 2, 3) {
            let idx = idx as u32;
            let _ = same_as_reference(&items, idx, &format!("doc {d} node {idx}"));
        }
        assert_eq!(same_as_reference(&items, NONE, "NONE"), Err(Error::Invalid));
        assert_eq!(
            same_as_reference(&items, UNLINKED, "UNLINKED"),
            Err(Error::Invalid)
        );
    }
}

/// Replacement values for `set_value`, valid and invalid for their place.
fn random_atom(r: &mut Rng) -> Atom<'static> {
    const KEYS: [&str; 6] = ["a", "b", "zz", "aaa", "f", "i"];
    match r.below(12) {
        0 => Atom::Nil,
        1 => Atom::Bool(r.below(2) == 1),
        2 => Atom::Uint(r.next() >> r.below(64)),
        3 => Atom::Nint(-1 - (r.next() >> (1 + r.below(63))) as i64),
        4 => Atom::Bin(&[1, 2, 3][..r.below(4) as usize]),
        5 => Atom::Float(&[0x3C, 0x01]),
        6 => Atom::BigInt {
            negative: r.below(2) == 1,
            magnitude: &[0, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
        },
        7 => Atom::Str(""),
        _ => Atom::Str(KEYS[r.below(KEYS.len() as u64) as usize]),
    }
}

#[test]
fn edited_trees_encode_as_the_reference() {
    let mut outcomes = std::collections::BTreeSet::new();
    // Under Miri a sample of the seeds (~1000x slower; the outcomes they
    // cover are checked by the full run).
    for seed in 1..crate::sample::count(200, 15) as u64 {
        let doc = random_doc(seed);
        let mut r = Rng(seed | 0x100);
        let mut pool = vec![Item::default(); doc.len() + 64];
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        let root = items.parse(&doc, &mut off).unwrap();
        for _ in 0..1 + r.below(8) {
            let len = items.len() as u64;
            let idx = r.below(len) as u32;
            match r.below(3) {
                0 => {
                    let _ = items.set_value(idx, &random_atom(&mut r));
                }
                1 => {
                    // Remove a child after a random sibling (or the first).
                    if matches!(
                        items.item_type(idx),
                        ItemType::List | ItemType::Map | ItemType::Blob
                    ) {
                        let prev = items.nth_child(idx, r.below(3) as usize).unwrap_or(NONE);
                        let _ = items.remove(idx, prev);
                    }
                }
                _ => {
                    let n = items.add(&random_atom(&mut r)).unwrap();
                    if matches!(
                        items.item_type(idx),
                        ItemType::List | ItemType::Map | ItemType::Blob
                    ) {
                        let _ = items.prepend(idx, n);
                    }
                }
            }
            outcomes.insert(format!(
                "{:?}",
                same_as_reference(&items, root, &format!("seed {seed}")).map(|_| ())
            ));
        }
    }
    // The edits both keep trees valid and break them in several ways.
    if cfg!(miri) {
        return;
    }
    for o in [
        "Ok(())",
        "Err(MapUnordered)",
        "Err(MapBadKey)",
        "Err(BlobBadTerm)",
    ] {
        assert!(outcomes.contains(o), "{o} never seen: {outcomes:?}");
    }
}

/// Types a node may be switched to without making its value word a
/// pointer (which the tests could not make valid).
const PLAIN_TYPES: [u32; 12] = [0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 18, 31];

fn is_bytes_type(bits: u32) -> bool {
    matches!(bits, 5 | 11..=17)
}

#[test]
fn corrupted_pools_fail_as_the_reference() {
    let mut outcomes = std::collections::BTreeSet::new();
    // Under Miri a sample of the seeds (~1000x slower; the outcomes they
    // cover are checked by the full run).
    for seed in 1..crate::sample::count(300, 30) as u64 {
        let doc = random_doc(seed);
        let mut r = Rng(seed | 0x200);
        let mut pool = vec![Item::default(); doc.len() + 2];
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        let root = items.parse(&doc, &mut off).unwrap();
        let len = items.len() as u32;
        for _ in 0..1 + r.below(3) {
            let idx = r.below(u64::from(len)) as usize;
            let any_index = |r: &mut Rng| match r.below(6) {
                0 => NONE,
                1 => UNLINKED,
                2 => len + r.below(3) as u32,
                _ => r.below(u64::from(len)) as u32,
            };
            let node = &mut items.nodes[idx];
            match r.below(4) {
                0 => node.next = any_index(&mut r),
                1 if !is_bytes_type(node.type_bits()) => {
                    let t = PLAIN_TYPES[r.below(PLAIN_TYPES.len() as u64) as usize];
                    node.meta = (node.meta & !TYPE_MASK) | t;
                }
                2 if !is_bytes_type(node.type_bits()) => {
                    let (first, parent) = (any_index(&mut r), any_index(&mut r));
                    node.v = ItemValue {
                        c: Links { first, parent },
                    };
                }
                _ if !is_bytes_type(node.type_bits()) => node.v = ItemValue { u: r.next() },
                _ => {}
            }
            for sub in [root, idx as u32] {
                let r = same_as_reference(&items, sub, &format!("seed {seed} node {sub}"));
                outcomes.insert(format!("{:?}", r.map(|_| ())));
            }
        }
    }
    if cfg!(miri) {
        return;
    }
    for o in [
        "Ok(())",
        "Err(Invalid)",
        "Err(MapBadKey)",
        "Err(BlobBadTerm)",
    ] {
        assert!(outcomes.contains(o), "{o} never seen: {outcomes:?}");
    }
}
