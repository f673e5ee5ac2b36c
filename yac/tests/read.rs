//! Reading a tree from Rust: typed getters, children and MAP pair
//! iterators, and an error that keeps its offset through `?`.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac::items::{Item, Items};
use yac::{Error, ErrorAt, ItemType};
use yac_testkit::hex;

/// MAP {"a": 1, "bb": [TRUE, "x", -2], "ccc": {}}
const DOC: &str = "09 C161 0C8101  C26262 08 03 C178 0D8101 00  C3636363 09 00  00";

fn first_error(doc: &[u8]) -> Result<u32, ErrorAt> {
    let mut pool = [Item::default(); 16];
    let mut items = Items::new(&mut pool);
    // `?` keeps the offset.
    let root = items.parse_doc(doc)?;
    Ok(root)
}

#[test]
fn nodes_read_typed_values_and_iterate() {
    let doc = hex(DOC);
    let mut pool = [Item::default(); 16];
    let mut items = Items::new(&mut pool);
    let root = items.parse_doc(&doc).unwrap();
    let map = items.at(root);
    assert_eq!(map.item_type(), ItemType::Map);
    let pairs: Vec<(&str, ItemType)> = map
        .pairs()
        .map(|(k, v)| (k.as_str().unwrap(), v.item_type()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("a", ItemType::Pint),
            ("bb", ItemType::List),
            ("ccc", ItemType::Map)
        ]
    );
    assert_eq!(map.get("a").unwrap().as_u64(), Ok(1));
    assert_eq!(map.get("a").unwrap().as_str(), Err(Error::Invalid));
    let list = map.get("bb").unwrap();
    assert_eq!(list.len(), Ok(3));
    assert_eq!(list.nth(0).unwrap().as_bool(), Ok(true));
    assert_eq!(list.nth(1).unwrap().as_str(), Ok("x"));
    assert_eq!(list.nth(2).unwrap().as_i64(), Ok(-2));
    assert!(list.nth(3).is_none());
    assert_eq!(list.children().count(), 3);
    // A LIST has no pairs; an empty MAP neither.
    assert_eq!(list.pairs().count(), 0);
    assert_eq!(map.get("ccc").unwrap().is_empty(), Ok(true));
    assert!(map.get("zz").is_none() && list.get("a").is_none());
    assert_eq!(items.pairs(root).count(), 3);
}

#[test]
fn errors_keep_their_offset_through_the_question_mark() {
    // "a" after "bb": out of order at offset 5.
    let doc = hex("09 C26262 01 C161 01 00");
    let e = first_error(&doc).unwrap_err();
    assert_eq!(e, Error::MapUnordered.at(5));
    assert_eq!(
        e.to_string(),
        "MAP keys out of order or duplicate at offset 5"
    );
    assert!(format!("{e:?}").contains("offset: 5"));
    // Bytes after the item.
    assert_eq!(first_error(&hex("01 01")), Err(Error::Invalid.at(1)));
    // A truncated item: where the incomplete atom starts.
    let e = first_error(&hex("08 0C 81")).unwrap_err();
    assert_eq!((e.error, e.offset), (Error::NotEnough(1), 1));
    // Back to the plain error where only the kind matters.
    let plain: Error = e.into();
    assert_eq!(plain, Error::NotEnough(1));
}
