//! Tests of the tree: round trips, incremental parsing, pool exhaustion,
//! deep nesting, edits.

extern crate std;
use std::vec;
use std::vec::Vec;

use super::*;
use crate::atom::Atom;
use crate::writer::Writer;

mod edit_regressions;
mod encode_diff;

/// Hex to bytes, spaces ignored (the test kit's one `hex`).
use yac_testkit::hex;

/// Valid documents from FORMAT.md's vector table (whole items).
fn vectors() -> Vec<Vec<u8>> {
    let mut v: Vec<Vec<u8>> = [
        "01",
        "02",
        "03",
        "04 0E875E3FD38549EB87B4BE42D641C367",
        "80",
        "84 01020304",
        "CB 68656C6C6F20776F726C64",
        "D3 D0BFD180D0B8D0B2D0B5D182 20 D0BCD0B8D180",
        "0C 80",
        "0C 81 01",
        "0C 81 0A",
        "0C 81 64",
        "0C 83 010000",
        "0C 85 E8D4A51000",
        "0C 88 FFFFFFFFFFFFFFFF",
        "0C 89 010000000000000000",
        "0D 80",
        "0D 81 09",
        "0D 81 63",
        "0D 82 FFFF",
        "0D 88 FFFFFFFFFFFFFFFF",
        "0D 89 010000000000000000",
        "18 4000000000000000",
        "18 400000000000000A",
        "18 3FFFFFFFFFFFFFFF",
        "19 40000000673DD3E1 36F121D4",
        "4B 454B53 636D2F707562 000000000000",
        "08 00",
        "08 0C817B 02 00",
        "09 C3666F6F 08 C3626172 00 00",
        "09 C26468 01 C3736967 01 00",
        "0B 0000000000000004 80",
        "0B 0000000000000004 85 3132333435 80",
        "0B 0000000000000004 85 3132333435 81 36",
        "0B 00000000000001F3 83 313233",
        "0B 0000000000000001 82 3132 82 3334 81 35",
    ]
    .iter()
    .map(|s| hex(s))
    .collect();
    let mut bd = vec![0xBD, 0x03];
    bd.extend([0x41; 64]);
    v.push(bd);
    v
}

/// A deterministic xorshift generator for random documents.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Writes a random valid item; `budget` bounds its size.
fn random_item(r: &mut Rng, w: &mut Writer<'_>, depth: u32, budget: &mut i32) {
    *budget -= 1;
    let leaf_only = depth > 6 || *budget <= 0;
    match r.below(if leaf_only { 9 } else { 12 }) {
        0 => w.nil().unwrap(),
        1 => w.bool(r.below(2) == 1).unwrap(),
        2 => w.uint(r.next() >> r.below(64)).unwrap(),
        3 => w
            .sint((r.next() >> r.below(64)) as i64 | i64::MIN >> r.below(63))
            .unwrap(),
        4 => {
            let n = [0, 1, 60, 61, 316, 317, 1000][r.below(7) as usize];
            let s: std::string::String = (0..n)
                .map(|i| ['a', 'é', '€', '𝄞'][(i + r.below(4) as usize) % 4])
                .collect();
            w.str(&s).unwrap()
        }
        5 => {
            let n = r.below(70) as usize;
            w.bin(&vec![r.below(256) as u8; n]).unwrap()
        }
        6 => w
            .bigint(r.below(2) == 1, &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
            .unwrap(),
        7 => w.hexlet(&[7; 16]).unwrap(),
        8 => w.float(-1.5).unwrap(),
        9 => {
            w.list().unwrap();
            for _ in 0..r.below(6) {
                random_item(r, w, depth + 1, budget);
            }
            w.eoc().unwrap()
        }
        10 => {
            w.map().unwrap();
            let mut keys: Vec<std::string::String> = (0..r.below(6))
                .map(|_| {
                    (0..1 + r.below(3))
                        .map(|_| (b'a' + r.below(3) as u8) as char)
                        .collect()
                })
                .collect();
            keys.sort_by(|a, b| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
            keys.dedup();
            for k in keys {
                w.str(&k).unwrap();
                random_item(r, w, depth + 1, budget);
            }
            w.eoc().unwrap()
        }
        _ => {
            let chunk = 1 + r.below(4);
            w.blob(chunk - 1).unwrap();
            for _ in 0..r.below(4) {
                w.bin(&vec![9; chunk as usize]).unwrap();
            }
            w.bin(&vec![8; r.below(chunk) as usize]).unwrap()
        }
    }
}

fn random_doc(seed: u64) -> Vec<u8> {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut buf = vec![0u8; 1 << 16];
    let mut w = Writer::new(&mut buf);
    let mut budget = 60;
    w.list().unwrap();
    random_item(&mut r, &mut w, 1, &mut budget);
    random_item(&mut r, &mut w, 1, &mut budget);
    w.eoc().unwrap();
    w.written().to_vec()
}

fn corpus() -> Vec<Vec<u8>> {
    let mut docs = vectors();
    // Under Miri (~1000x slower) a sample, so that every test of the crate
    // runs within CI's Miri time.
    let random = crate::sample::count(300, 25);
    docs.extend((1..random as u64).map(random_doc));
    docs
}

/// Parses `doc` in one go and re-encodes it.
fn round_trip(doc: &[u8]) -> Vec<u8> {
    let mut pool = vec![Item::default(); doc.len() + 2];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(doc, &mut off).unwrap();
    assert_eq!(off, doc.len());
    let n = items.encoded_len(root).unwrap();
    let mut out = vec![0u8; n];
    assert_eq!(items.encode(root, &mut out), Ok(n));
    out
}

#[test]
fn node_is_16_bytes() {
    assert_eq!(core::mem::size_of::<Item>(), 16);
}

#[test]
fn parse_then_encode_is_byte_exact() {
    for doc in corpus() {
        assert_eq!(round_trip(&doc), doc, "{doc:02X?}");
    }
}

#[test]
fn count_nodes_is_exact_and_pool_exhaustion_is_clean() {
    for doc in corpus() {
        let (need, used) = count_nodes(&doc, 0).unwrap();
        assert_eq!(used, doc.len());
        let mut pool = vec![Item::default(); need];
        for cap in 0..need {
            let mut items = Items::new(&mut pool[..cap]);
            let mut off = 0;
            assert_eq!(items.parse(&doc, &mut off), Err(Error::NoMem), "cap {cap}");
            items.abort();
            assert_eq!(items.len(), 0);
        }
        let mut items = Items::new(&mut pool);
        let mut off = 0;
        items.parse(&doc, &mut off).unwrap();
        assert_eq!(items.len(), need);
    }
}

#[test]
fn no_mem_is_resumable_in_a_bigger_pool() {
    let doc = random_doc(42);
    let (need, _) = count_nodes(&doc, 0).unwrap();
    let mut small = vec![Item::default(); need / 2];
    let mut big = vec![Item::default(); need];
    let mut items = Items::new(&mut small);
    let mut off = 0;
    assert_eq!(items.parse(&doc, &mut off), Err(Error::NoMem));
    let mut items = items.move_to(&mut big).unwrap();
    let root = items.parse(&doc, &mut off).unwrap();
    assert_eq!(off, doc.len());
    let mut out = vec![0u8; doc.len()];
    assert_eq!(items.encode(root, &mut out), Ok(doc.len()));
    assert_eq!(out, doc);
}

#[test]
fn byte_by_byte_and_chunked_parsing_match_one_go() {
    for (i, doc) in corpus().into_iter().enumerate() {
        let expect = round_trip(&doc);
        let mut r = Rng(i as u64 + 7);
        for chunked in [false, true] {
            let mut pool = vec![Item::default(); doc.len() + 2];
            let mut items = Items::new(&mut pool);
            let (mut off, mut avail) = (0, 0);
            let root = loop {
                avail = (avail + if chunked { 1 + r.below(9) as usize } else { 1 }).min(doc.len());
                match items.parse(&doc[..avail], &mut off) {
                    Ok(root) => break root,
                    Err(Error::NotEnough(n)) => {
                        assert!(n >= 1 && avail < doc.len(), "n={n} avail={avail}");
                        assert!(off <= avail);
                    }
                    Err(e) => panic!("{e:?} at {off} of {doc:02X?}"),
                }
            };
            assert_eq!(avail, doc.len());
            let mut out = vec![0u8; doc.len()];
            assert_eq!(items.encode(root, &mut out), Ok(doc.len()));
            assert_eq!(out, expect);
        }
    }
}

/// The fast loop and the exact path hand the parser state to each other
/// at every point of a document: a first call that ends at any byte, then
/// the whole input, gives the tree of one call. (Stopping between a MAP
/// key and its value once made the fast loop take the value for a key.)
#[test]
fn a_parse_resumed_after_any_byte_matches_one_go() {
    let mut docs = corpus();
    // A MAP value that would also pass as the next key.
    docs.push(hex(
        "08 09 C161 D4 6162636465666768696A6B6C6D6E6F7071727374 C162 01 00 00",
    ));
    // Quadratic in a document's length: under Miri (~1000x slower) the
    // short documents only, so that the tests after this one get their
    // share of CI's Miri time.
    let longest = crate::sample::count(2000, 160);
    for doc in docs.iter().filter(|d| d.len() < longest) {
        let expect = round_trip(doc);
        // Under Miri every 3rd split point, the last included.
        for split in crate::sample::spread(doc.len(), 3) {
            let mut pool = vec![Item::default(); doc.len() + 2];
            let mut items = Items::new(&mut pool);
            let mut off = 0;
            match items.parse(&doc[..split], &mut off) {
                Err(Error::NotEnough(_)) => {}
                other => panic!("{other:?} at split {split} of {doc:02X?}"),
            }
            let root = items
                .parse(doc, &mut off)
                .unwrap_or_else(|e| panic!("{e:?} after split {split} of {doc:02X?}"));
            let mut out = vec![0u8; doc.len()];
            assert_eq!(items.encode(root, &mut out), Ok(doc.len()), "split {split}");
            assert_eq!(out, expect, "split {split}");
        }
    }
}

#[test]
fn invalid_documents_give_their_error_and_roll_back() {
    let cases: &[(&str, Error)] = &[
        ("0C 82 0001", Error::IntNonMinimal),
        ("0C C1 01", Error::IntNonBin),
        ("C1 00", Error::BadUtf8),
        ("09 C3736967 01 C26468 01 00", Error::MapUnordered),
        ("09 C161 01 C161 01 00", Error::MapUnordered),
        ("09 C0 01 00", Error::MapBadKey),
        ("09 0C80 01 00", Error::MapBadKey),
        ("09 C161 00", Error::MapNoVal),
        ("09 C161 08 00 C161 01 00", Error::MapUnordered),
        ("09 C161 08 00 08 00", Error::MapBadKey),
        ("19 4000000000000000 00000000", Error::Tai64NonMinimal),
        ("19 4000000000000000 3B9ACA00", Error::Tai64BadNsec),
        ("18 8000000000000000", Error::Tai64TooBig),
        ("0B 0000000000000000 82 3132 80", Error::BlobBadChunk),
        ("0B 0000000000000004 C0", Error::BlobBadTerm),
        ("00", Error::UnexpectedEoc),
        ("BF FFFFFFFFFFFFFFFF", Error::LenTooBig),
        ("05", Error::UnknownType),
        ("C2 C080", Error::BadUtf8),
        ("C3 EDA080", Error::BadUtf8),
        ("08 08 05 00 00", Error::UnknownType),
    ];
    let docs: Vec<Vec<u8>> = cases.iter().map(|(h, _)| hex(h)).collect();
    let mut pool = vec![Item::default(); 64];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let first = items.parse(&[0x08, 0x01, 0x00], &mut off).unwrap();
    for ((h, want), doc) in cases.iter().zip(&docs) {
        let mut off = 0;
        assert_eq!(items.parse(doc, &mut off), Err(*want), "{h}");
        assert_eq!(items.len(), 2, "{h}: rolled back to the earlier document");
    }
    let mut out = [0u8; 3];
    assert_eq!(items.encode(first, &mut out), Ok(3));
    let mut off = 0;
    assert_eq!(
        items.parse(&[0x08], &mut off),
        Err(Error::NotEnough(1)),
        "LIST never closed"
    );
}

#[test]
fn deep_nesting_uses_constant_stack() {
    const DEPTH: usize = crate::sample::count(1_000_000, 600);
    // Below DEPTH: the limit is checked too.
    const LIMIT: usize = DEPTH / 2;
    // A small thread stack: any recursion on depth would overflow it.
    let t = std::thread::Builder::new().stack_size(64 * 1024).spawn(|| {
        for open in [0x08u8, 0x09] {
            let mut doc = vec![open; DEPTH];
            if open == 0x09 {
                // MAP nesting: {"a": {"a": ... {} }}
                doc = Vec::with_capacity(DEPTH * 3);
                for _ in 0..DEPTH - 1 {
                    doc.extend([0x09, 0xC1, b'a']);
                }
                doc.push(0x09);
            }
            doc.extend(vec![0u8; DEPTH]);
            let (need, _) = count_nodes(&doc, 0).unwrap();
            let mut pool = vec![Item::default(); need];
            let mut items = Items::new(&mut pool);
            let mut off = 0;
            let root = items.parse(&doc, &mut off).unwrap();
            assert_eq!(off, doc.len());
            let mut out = vec![0u8; doc.len()];
            assert_eq!(items.encode(root, &mut out), Ok(doc.len()));
            assert!(out == doc);
            items.clear();
            items.opts.max_depth = LIMIT as u32;
            let mut off = 0;
            assert_eq!(items.parse(&doc, &mut off), Err(Error::DeepRecursion));
            assert_eq!(count_nodes(&doc, LIMIT as u32), Err(Error::DeepRecursion));
        }
    });
    t.unwrap().join().unwrap();
}

#[test]
fn insert_in_the_middle_of_a_list_then_encode() {
    let doc = hex("08 0C8101 0C8103 00"); // [1, 3]
    let mut pool = vec![Item::default(); 16];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&doc, &mut off).unwrap();
    let one = items.first_child(root).unwrap();
    let two = items.add(&Atom::Uint(2)).unwrap();
    items.insert_after(root, one, two).unwrap();
    assert_eq!(items.child_count(root), Ok(3));
    assert_eq!(
        items.insert_after(root, one, two),
        Err(Error::Invalid),
        "already linked"
    );
    let zero = items.add(&Atom::Uint(0)).unwrap();
    items.prepend(root, zero).unwrap();
    let mut out = [0u8; 32];
    let n = items.encode(root, &mut out).unwrap();
    assert_eq!(&out[..n], &hex("08 0C80 0C8101 0C8102 0C8103 00")[..]);
    // Remove "1" (after "0"), replace "0" with a nested list.
    let removed = items.remove(root, zero).unwrap();
    assert_eq!(items.get_uint(removed), Ok(1));
    let inner = items.add(&Atom::List).unwrap();
    assert_eq!(items.insert_after(inner, inner, root), Err(Error::Invalid));
    let old = items.replace(root, NONE, inner).unwrap();
    assert_eq!(old, zero);
    assert_eq!(items.prepend(inner, root), Err(Error::Invalid), "no cycles");
    items.prepend(inner, old).unwrap();
    let n = items.encode(root, &mut out).unwrap();
    let want = hex("08 08 0C80 00 0C8102 0C8103 00");
    assert_eq!(&out[..n], &want[..]);
    // The edited tree re-parses to itself.
    assert_eq!(round_trip(&want), want);
}

#[test]
fn map_edits_keep_keys_ordered() {
    let doc = hex("09 C162 01 C3616161 01 00"); // {b: nil, aaa: nil}
    let mut pool = vec![Item::default(); 32];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&doc, &mut off).unwrap();
    for k in ["zz", "a", "c", "b"] {
        let key = items.add(&Atom::Str(k)).unwrap();
        let val = items.add(&Atom::Bool(true)).unwrap();
        items.map_set(root, key, val).unwrap();
    }
    assert_eq!(items.child_count(root), Ok(10));
    let v = items.map_get(root, b"b").unwrap();
    assert_eq!(items.get_bool(v), Ok(true));
    assert_eq!(items.map_remove(root, b"zz").map(|v| v.is_some()), Ok(true));
    assert_eq!(items.map_remove(root, b"nope"), Ok(None));
    let mut out = [0u8; 64];
    let n = items.encode(root, &mut out).unwrap();
    let want = hex("09 C161 03 C162 03 C163 03 C3616161 01 00");
    assert_eq!(&out[..n], &want[..]);
    // Breaking the order through a key's value is refused at encode time.
    let a = items.first_child(root).unwrap();
    items.set_value(a, &Atom::Str("zzzz")).unwrap();
    assert_eq!(items.encode(root, &mut out), Err(Error::MapUnordered));
}

/// MAP keys after a BLOB or a container value are checked before anything
/// of the MAP is written, whatever the buffer size: the encoder checks keys
/// as it goes, and must still give the errors of a check on entry.
#[test]
fn map_keys_after_blob_and_container_values_are_checked() {
    // {a: BLOB(2) [BIN "x"], b: [1], c: nil}
    let doc = hex("09 C161 0B 0000000000000001 81 78 C162 08 0C8101 00 C163 01 00");
    let mut pool = vec![Item::default(); 32];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&doc, &mut off).unwrap();
    let mut out = [0u8; 64];
    assert_eq!(items.encode(root, &mut out), Ok(doc.len()));
    let keys: Vec<u32> = (0..3)
        .map(|i| items.nth_child(root, 2 * i).unwrap())
        .collect();
    for (k, bad, err) in [
        (1, Atom::Str("zz"), Error::MapUnordered),
        (2, Atom::Str("a"), Error::MapUnordered),
        (2, Atom::Str(""), Error::MapBadKey),
        (2, Atom::Nil, Error::MapBadKey),
    ] {
        let was = items.bytes(keys[k]).unwrap();
        items.set_value(keys[k], &bad).unwrap();
        for cap in 0..=doc.len() {
            let mut buf = vec![0u8; cap];
            assert_eq!(items.encode(root, &mut buf), Err(err), "key {k} cap {cap}");
        }
        assert_eq!(items.encoded_len(root), Err(err));
        items
            .set_value(keys[k], &Atom::Str(std::str::from_utf8(was).unwrap()))
            .unwrap();
        assert_eq!(items.encode(root, &mut out), Ok(doc.len()));
    }
}

#[test]
fn blobs_navigate_and_encode_canonically() {
    let doc = hex("0B 0000000000000001 82 3132 82 3334 81 35");
    let mut pool = vec![Item::default(); 16];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&doc, &mut off).unwrap();
    assert_eq!(items.blob_len(root), Ok(5));
    assert_eq!(items.blob_chunk_len_minus_one(root), Ok(1));
    assert_eq!(items.child_count(root), Ok(3));
    // A caller-built BLOB whose last chunk is full gets its terminator.
    let blob = items
        .add(&Atom::Blob {
            chunk_len_minus_one: 1,
        })
        .unwrap();
    let c = items.add(&Atom::Bin(b"ab")).unwrap();
    items.prepend(blob, c).unwrap();
    let mut out = [0u8; 32];
    let n = items.encode(blob, &mut out).unwrap();
    assert_eq!(&out[..n], &hex("0B 0000000000000001 82 6162 80")[..]);
    let s = items.add(&Atom::Str("x")).unwrap();
    assert_eq!(items.prepend(blob, s), Err(Error::BlobBadTerm));
}

/// Regression (found by c-tests/test_items.c): the node after a BLOB holds
/// its chunk length and is not a node; `set_value` rewrote it (changing
/// the chunk length) and `insert_after` linked a chunk behind it, where no
/// walk sees it, while counting it as the BLOB's child.
#[test]
fn blob_extension_slot_is_no_node_for_edits() {
    let doc = hex("0B 0000000000000002 83 616263 81 64");
    let mut pool = vec![Item::default(); 16];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let blob = items.parse(&doc, &mut off).unwrap();
    let slot = blob + 1;
    assert_eq!(items.set_value(slot, &Atom::Uint(7)), Err(Error::Invalid));
    assert_eq!(items.set_value(slot, &Atom::Bin(b"x")), Err(Error::Invalid));
    let c = items.add(&Atom::Bin(b"xyz")).unwrap();
    assert_eq!(items.insert_after(blob, slot, c), Err(Error::Invalid));
    assert_eq!(items.child_count(blob), Ok(2));
    assert_eq!(items.blob_chunk_len_minus_one(blob), Ok(2));
    let mut out = [0u8; 32];
    let n = items.encode(blob, &mut out).unwrap();
    assert_eq!(&out[..n], &doc[..]);
    // `c` is still unlinked, so it can go where it belongs.
    items.prepend(blob, c).unwrap();
    let n = items.encode(blob, &mut out).unwrap();
    assert_eq!(
        &out[..n],
        &hex("0B 0000000000000002 83 78797A 83 616263 81 64")[..]
    );
}

/// Regression (found by c-tests/test_items.c): an offset beyond the input
/// gave `NotEnough` (a caller feeding more input would wait forever) and
/// started a document; it is a bad argument.
#[test]
fn parse_offset_beyond_input_is_invalid() {
    let doc = hex("08 00");
    let mut pool = vec![Item::default(); 4];
    let mut items = Items::new(&mut pool);
    let mut off = 3;
    let idle = items.state;
    assert_eq!(items.parse(&doc, &mut off), Err(Error::Invalid));
    assert_eq!((off, items.len(), items.state), (3, 0, idle));
    assert!(!items.parsing());
    off = 2;
    assert_eq!(items.parse(&doc, &mut off), Err(Error::NotEnough(1)));
    items.abort();
    off = 0;
    assert_eq!(items.parse(&doc, &mut off), Ok(0));
}

#[test]
fn walk_gives_depths_and_bounded_on_broken_links() {
    let doc = hex("08 08 01 00 02 00");
    let mut pool = vec![Item::default(); 8];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&doc, &mut off).unwrap();
    let events: Vec<_> = items.walk(root).map(|e| e.unwrap()).collect();
    assert_eq!(
        events,
        [
            (Event::Enter(0), 0),
            (Event::Enter(1), 1),
            (Event::Leaf(2), 2),
            (Event::Exit(1), 1),
            (Event::Leaf(3), 1),
            (Event::Exit(0), 0)
        ]
    );
    // Make a cycle by hand: the walk must stop with Invalid.
    items.nodes[3].next = 1;
    assert!(items.walk(root).any(|e| e == Err(Error::Invalid)));
}

/// Found by fuzz/fuzz_targets/tree_edits.rs: `remove` with a `prev` that is
/// a child of another container unlinked that node, then failed on the
/// empty parent's count, leaving the tree changed by a failed call.
#[test]
fn failed_remove_changes_nothing() {
    let doc = hex("08 08 08 00 00 08 00 00"); // [[[]], []]
    let mut pool = vec![Item::default(); 8];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&doc, &mut off).unwrap();
    let a = items.nth_child(root, 0).unwrap(); // [[]]
    let inner = items.first_child(a).unwrap(); // [] inside a
    let b = items.nth_child(root, 1).unwrap(); // [] (empty)
    let snapshot = |items: &ItemsMut<'_, '_>| {
        items
            .nodes()
            .iter()
            .map(|n| (n.raw_u64(), n.next, n.meta))
            .collect::<Vec<_>>()
    };
    let before = snapshot(&items);
    // `a` is no child of `b`: the node after it (`b` itself) must stay.
    assert_eq!(items.remove(b, a), Err(Error::Invalid));
    assert_eq!(snapshot(&items), before);
    assert_eq!(items.remove(b, NONE), Err(Error::Invalid));
    assert_eq!(snapshot(&items), before);
    assert_eq!(items.remove(a, NONE), Ok(inner));
    let mut out = [0u8; 8];
    let n = items.encode(root, &mut out).unwrap();
    assert_eq!(&out[..n], &hex("08 08 00 08 00 00")[..]);
}

/// Found by fuzz/fuzz_targets/tree_edits.rs: after `set_value` turned a MAP
/// key into NIL (value word 0), `map_remove`/`map_set`/`map_get` read that
/// word as a payload pointer (`slice::from_raw_parts` on NULL: undefined
/// behaviour). Such a key now matches nothing, and encoding refuses it.
#[test]
fn key_replaced_by_a_non_str_matches_nothing() {
    let doc = hex("09 C161 0C8101 C162 0C8102 00"); // {a: 1, b: 2}
    let mut pool = vec![Item::default(); 8];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&doc, &mut off).unwrap();
    let a = items.first_child(root).unwrap();
    items.set_value(a, &Atom::Nil).unwrap();
    assert_eq!(items.map_get(root, b""), None);
    assert_eq!(items.map_get(root, b"a"), None);
    let b_val = items.map_get(root, b"b").unwrap();
    assert_eq!(items.get_uint(b_val), Ok(2));
    assert_eq!(items.map_remove(root, b""), Ok(None));
    let k = items.add(&Atom::Str("c")).unwrap();
    let v = items.add(&Atom::Uint(3)).unwrap();
    assert_eq!(items.map_set(root, k, v), Ok(NONE));
    let mut out = [0u8; 32];
    assert_eq!(items.encode(root, &mut out), Err(Error::MapBadKey));
    // Uint 0 too has a zero value word.
    items.set_value(a, &Atom::Uint(0)).unwrap();
    assert_eq!(items.map_remove(root, b"b"), Ok(Some(b_val)));
}

/// An edit that trusted `prev` to be a child of `parent` would link the
/// new node into another container, with a parent link naming the wrong
/// container, or put a container among BLOB chunks. Such a `prev` is
/// refused, with nothing changed; walks still check the parent link of
/// every container they enter, and the encoder refuses a container in a
/// BLOB.
#[test]
fn misplaced_containers_are_refused() {
    // [[1], BLOB(chunk 2: "ab", "")]
    let doc = hex("08 08 0C8101 00 0B 0000000000000001 82 6162 80 00");
    let mut pool = vec![Item::default(); 16];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&doc, &mut off).unwrap();
    assert_eq!(off, doc.len());
    let inner = items.nth_child(root, 0).unwrap();
    let one = items.first_child(inner).unwrap();
    let blob = items.nth_child(root, 1).unwrap();
    let chunk = items.first_child(blob).unwrap();
    let mut out = [0u8; 64];

    // A LIST among the BLOB's chunks (the root LIST given as parent).
    let list = items.add(&Atom::List).unwrap();
    let before = items.nodes().to_vec();
    assert_eq!(items.insert_after(root, chunk, list), Err(Error::Invalid));
    // A MAP after the leaf `1`, but with the root named as its parent.
    let map = items.add(&Atom::Map).unwrap();
    assert_eq!(items.insert_after(root, one, map), Err(Error::Invalid));
    assert_eq!(items.remove(root, chunk), Err(Error::Invalid));
    assert_eq!(items.replace(root, one, map), Err(Error::Invalid));
    assert_eq!(
        items.nodes()[..before.len()]
            .iter()
            .map(|n| (n.raw_u64(), n.next, n.meta))
            .collect::<Vec<_>>(),
        before
            .iter()
            .map(|n| (n.raw_u64(), n.next, n.meta))
            .collect::<Vec<_>>()
    );
    items.check().unwrap();
    let n = items.encode(root, &mut out).unwrap();
    assert_eq!(&out[..n], &doc[..]);
    // In their own containers they are fine.
    items.insert_after(inner, one, map).unwrap();
    assert_eq!(items.remove(inner, one), Ok(map));
    items.check().unwrap();
    let n = items.encode(root, &mut out).unwrap();
    assert_eq!(&out[..n], &doc[..]);
}
