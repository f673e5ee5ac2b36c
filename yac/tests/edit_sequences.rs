//! Issue 13: random call sequences against a model, and every split point
//! of incremental parses with every edit tried in between.
//!
//! `random_programs` runs `yac_testkit::edits::run` (the fuzz target
//! `tree_edits` runs the same) on programs made of random bytes over
//! documents from the generator: after every call the tree must agree
//! with the model, `Items::check` must pass, and a failed call must have
//! changed nothing. `every_split_point` cuts documents at each byte and
//! tries every edit while the parse is unfinished.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac::items::{Item, Items, ItemsMut, NONE};
use yac::{Atom, Error};
use yac_testkit::{edits, encode, gen_value, hex, Rng, Value};

/// A program: a document region (a generated document, then random
/// bytes, up to 1020 bytes in all) and random calls.
fn program(rng: &mut Rng) -> Vec<u8> {
    let mut docs = Vec::new();
    while docs.len() < 600 {
        // Mostly a LIST of values, so that there are containers to edit.
        let n = rng.usize(0, 6);
        let size = rng.usize(0, 200);
        let value = if rng.chance(3, 4) {
            Value::List((0..n).map(|_| gen_value(rng, 3, size / 4)).collect())
        } else {
            gen_value(rng, 4, size)
        };
        let doc = encode(&value);
        if docs.len() + doc.len() > 1020 {
            break;
        }
        docs.extend(doc);
        if rng.chance(1, 2) {
            break;
        }
    }
    if rng.chance(1, 4) {
        let n = rng.usize(0, 8);
        docs.extend(rng.bytes(n));
    }
    docs.truncate(1020);
    while docs.len() % 4 != 0 {
        docs.push(rng.byte());
    }
    // As `Input::slice(4 * L)` reads it: L, then the length (one byte
    // when 4 * L + 1 <= 256, else four), then the bytes.
    let mut data = vec![(docs.len() / 4) as u8];
    if docs.len() < 256 {
        data.push(docs.len() as u8);
    } else {
        data.extend((docs.len() as u32).to_le_bytes());
    }
    data.extend(&docs);
    let calls = rng.usize(0, 1500);
    let bytes = rng.bytes(calls);
    data.extend(bytes);
    data
}

#[test]
fn random_programs() {
    let runs = std::env::var("YAC_EDIT_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1500);
    for seed in 0..runs {
        let mut rng = Rng::new(seed);
        let data = program(&mut rng);
        if std::panic::catch_unwind(|| edits::run(&data)).is_err() {
            panic!("program of seed {seed} fails: replay with YAC_FUZZ_TRACE=1: {data:02X?}");
        }
    }
}

fn words(items: &ItemsMut<'_, '_>) -> Vec<(u64, u32, u32)> {
    items
        .all_nodes()
        .iter()
        .map(|n| (n.raw_u64(), n.next, n.meta))
        .collect()
}

/// Every edit, tried while a parse is unfinished: each must be refused
/// and change nothing.
fn every_edit_is_refused(items: &mut ItemsMut<'_, '_>, old: u32) {
    let before = words(items);
    let n = items.all_nodes().len() as u32;
    let first = items.first_child(old).unwrap_or(NONE);
    for i in [0, 1, n.saturating_sub(1), n, old, first] {
        assert!(items.add(&Atom::Uint(1)).is_err());
        assert!(items.add(&Atom::List).is_err());
        assert!(items.set_value(i, &Atom::Nil).is_err());
        for j in [0, 1, old, first, n.saturating_sub(1), NONE] {
            assert!(items.prepend(i, j).is_err());
            assert!(items.remove(i, j).is_err());
            assert!(items.map_remove(i, b"a").is_err());
            for k in [0, 1, n.saturating_sub(1), old] {
                assert!(items.insert_after(i, j, k).is_err());
                assert!(items.replace(i, j, k).is_err());
                assert!(items.map_set(i, j, k).is_err());
            }
        }
        if let Ok(mut c) = items.cursor_first(i) {
            assert!(items.cursor_insert(&mut c, n.saturating_sub(1)).is_err());
            assert!(items.cursor_remove(&mut c).is_err());
            assert!(items.cursor_replace(&mut c, 0).is_err());
        }
    }
    assert_eq!(words(items), before, "a refused edit changed the pool");
    items.check().unwrap();
}

fn encoded(items: &ItemsMut<'_, '_>, root: u32) -> Vec<u8> {
    let mut out = vec![0u8; 4096];
    let n = items.encode(root, &mut out).unwrap();
    out.truncate(n);
    out
}

#[test]
fn every_split_point() {
    let mut docs = vec![
        hex("08 01 01 02 00"),
        hex("09 C161 0C8101 C162 08 02 03 00 00"),
        hex("08 08 0C8101 00 0B 0000000000000001 82 6162 80 00"),
        hex("08 08 08 08 00 00 00 00"),
    ];
    let mut rng = Rng::new(13);
    for _ in 0..12 {
        docs.push(encode(&gen_value(&mut rng, 4, 120)));
    }
    let older = hex("08 0C8101 0C8102 00");
    for doc in &docs {
        for split in 0..=doc.len() {
            for finish in [true, false] {
                let mut pool = vec![Item::default(); 2 * doc.len() + 16];
                let mut items = Items::new(&mut pool);
                let mut off0 = 0;
                let old = items.parse(&older, &mut off0).unwrap();
                let len_old = items.len();
                let mut off = 0;
                match items.parse(&doc[..split], &mut off) {
                    Ok(root) => {
                        assert_eq!(split, doc.len());
                        assert_eq!(encoded(&items, root), *doc);
                        continue;
                    }
                    Err(Error::NotEnough(_)) => {}
                    Err(e) => panic!("{e:?} at split {split} of {doc:02X?}"),
                }
                assert!(items.parsing());
                every_edit_is_refused(&mut items, old);
                if finish {
                    let root = items.parse(doc, &mut off).unwrap();
                    assert!(!items.parsing());
                    assert_eq!(encoded(&items, root), *doc);
                } else {
                    items.abort();
                    assert!(!items.parsing());
                    assert_eq!(items.len(), len_old);
                }
                items.check().unwrap();
                assert_eq!(encoded(&items, old), older);
                // Edits work again, and leave the older tree as it was.
                let x = items.add(&Atom::Uint(9)).unwrap();
                let first = items.first_child(old).unwrap();
                items.insert_after(old, first, x).unwrap();
                items.check().unwrap();
                assert_eq!(encoded(&items, old), hex("08 0C8101 0C8109 0C8102 00"));
            }
        }
    }
}
