//! The benchmark documents of ../shared/data (beside the checkout, as in CI):
//! the reference `.yac` encodings parse into a tree whose walk checksum
//! (data/README.md) matches counts.json, and re-encode byte for byte.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac_testkit as common;

use yac::items::{Event, Item, Items, ItemsMut};
use yac::ItemType;

/// (count, sum) as defined in data/README.md "Walk checksum".
fn walk_checksum(items: &ItemsMut<'_, '_>, root: u32) -> (u64, u64) {
    let (mut count, mut sum) = (0u64, 0u64);
    for e in items.walk(root) {
        let (tag, v) = match e.unwrap().0 {
            Event::Exit(_) => continue,
            Event::Enter(n) | Event::Leaf(n) => match items.item_type(n) {
                ItemType::Nil => (1u64, 0u64),
                ItemType::False => (2, 0),
                ItemType::True => (2, 1),
                ItemType::Pint => (3, items.get_uint(n).unwrap()),
                ItemType::Nint => (3, items.get_int(n).unwrap() as u64),
                ItemType::Str => (4, items.bytes(n).unwrap().len() as u64),
                ItemType::Bin => (5, items.bytes(n).unwrap().len() as u64),
                ItemType::List => (6, items.child_count(n).unwrap() as u64),
                ItemType::Map => (7, items.child_count(n).unwrap() as u64 / 2),
                _ => (8, 0),
            },
        };
        count += 1;
        sum = sum.wrapping_add((tag << 32).wrapping_add(v));
    }
    (count, sum)
}

#[test]
fn reference_documents_parse_checksum_and_reencode() {
    let Some(dir) = common::shared_data_dir("counts.json") else {
        return;
    };
    let counts = std::fs::read_to_string(dir.join("counts.json")).unwrap();
    for name in ["licenses", "canada-list", "canada-map"] {
        let doc = std::fs::read(dir.join(format!("{name}.yac"))).unwrap();
        let (need, used) = yac::items::count_nodes(&doc, 0).unwrap();
        assert_eq!(used, doc.len());
        let mut pool = vec![Item::default(); need];
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        let root = items.parse(&doc, &mut off).unwrap();
        assert_eq!((off, items.len()), (doc.len(), need));
        let (count, sum) = walk_checksum(&items, root);
        // counts.json: "<name>": { "counts": { ..., "walk_count": N, "walk_sum": S } }
        let section = &counts[counts.find(&format!("\"{name}\": {{")).unwrap()..];
        let field = |k: &str| -> u64 {
            let at = section.find(&format!("\"{k}\": ")).unwrap() + k.len() + 4;
            section[at..]
                .split(|c: char| !c.is_ascii_digit())
                .next()
                .unwrap()
                .parse()
                .unwrap()
        };
        assert_eq!(
            (count, sum),
            (field("walk_count"), field("walk_sum")),
            "{name}"
        );
        let mut out = vec![0u8; doc.len()];
        assert_eq!(items.encode(root, &mut out), Ok(doc.len()));
        assert!(out == doc, "{name} re-encodes byte for byte");
    }
}
