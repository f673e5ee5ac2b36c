//! Hostile inputs against the item tree: nesting a million deep (parse,
//! count, encode, walk on a 256 KiB stack), lengths claiming up to 2^64-1 in
//! every length form and position, the largest BLOB chunk length, pool
//! exhaustion and truncation at every point of a document, every class of
//! invalid UTF-8 in every STR position, and MAP key faults at every
//! position. Each gives its specific error (at the offending atom), and a
//! failed parse leaves the pool exactly as it was: every parse here goes
//! into a pool that already holds another document, compared node by node.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac_testkit as common;

use common::gen::{gen_value, Rng};
use common::reference;
use yac::items::{count_nodes, Event, Item, Items, ItemsMut, Options};
use yac::Error;

/// A document already in the pool when the hostile one is parsed.
const PRE: &[u8] = &[0x08, 0x0C, 0x81, 0x01, 0xC3, b'a', b'b', b'c', 0x00]; // [1, "abc"]
const PRE_NODES: usize = 3;

type Snapshot = (usize, Vec<(u64, u32, u32)>);

fn snapshot(items: &ItemsMut<'_, '_>) -> Snapshot {
    let nodes = items.nodes().iter();
    (
        items.len(),
        nodes.map(|n| (n.raw_u64(), n.next, n.meta)).collect(),
    )
}

/// Parses `doc` with `opts` after [`PRE`] into a pool with room for both,
/// and returns the outcome and the offset reached. On a final error, the
/// pool must be as before and a valid document must parse next.
fn parse_after_pre(doc: &[u8], opts: Options) -> (Result<usize, Error>, usize) {
    let mut pool = vec![Item::default(); PRE_NODES + doc.len() + 8];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    items.parse(PRE, &mut off).unwrap();
    let before = snapshot(&items);
    items.opts = opts;
    let mut off = 0;
    match items.parse(doc, &mut off) {
        Ok(root) => {
            let mut out = vec![0u8; off];
            assert_eq!(items.encode(root, &mut out), Ok(off));
            assert_eq!(&out[..], &doc[..off], "round trip");
            (Ok(items.len() - PRE_NODES), off)
        }
        Err(e) => {
            if matches!(e, Error::NotEnough(_)) {
                items.abort();
            }
            assert_eq!(snapshot(&items), before, "{e:?} changed the pool");
            let mut o = 0;
            assert!(items.parse(PRE, &mut o).is_ok(), "parser stuck after {e:?}");
            (Err(e), off)
        }
    }
}

/// `parse_after_pre` with default options, plus `count_nodes` and the
/// reference decoder on the same document: all three must agree.
fn check(doc: &[u8]) -> (Result<usize, Error>, usize) {
    let (r, off) = parse_after_pre(doc, Options::default());
    let counted = count_nodes(doc, 0);
    let map_rule = matches!(
        r,
        Err(Error::MapBadKey | Error::MapNoVal | Error::MapUnordered)
    );
    match r {
        Ok(n) => assert_eq!(counted, Ok((n, off))),
        Err(e) if !map_rule => assert_eq!(counted, Err(e), "count_nodes"),
        Err(_) => {}
    }
    let want = reference::decode(doc);
    match (&r, &want) {
        (Ok(_), Ok((_, n))) => assert_eq!(off, *n),
        (Err(e), Err(w)) => {
            assert_eq!(common::walk::kind_of(*e), w.kind, "reference kind");
            assert_eq!(off, w.offset, "reference offset");
        }
        _ => panic!("parse {r:?} vs reference {want:?}"),
    }
    (r, off)
}

// ------------------------------------------------------------ deep nesting

const DEEP: usize = 1_000_000;

/// Runs `f` on a thread with a 256 KiB stack: any recursion on nesting
/// depth would overflow it.
fn on_small_stack(f: impl FnOnce() + Send + 'static) {
    std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap();
}

/// LIST, MAP and mixed nesting, `DEEP` levels, with a leaf at the bottom.
fn deep_docs() -> Vec<(&'static str, Vec<u8>, usize)> {
    let mut list = vec![0x08; DEEP];
    list.push(0x01);
    list.extend(vec![0x00; DEEP]);
    let mut map = Vec::with_capacity(DEEP * 4);
    for _ in 0..DEEP {
        map.extend([0x09, 0xC1, b'k']);
    }
    map.push(0x01);
    map.extend(vec![0x00; DEEP]);
    // LIST, MAP (key "k"), LIST, ... with a BLOB at the bottom.
    let mut mixed = Vec::with_capacity(DEEP * 3);
    for i in 0..DEEP {
        if i % 2 == 0 {
            mixed.push(0x08);
        } else {
            mixed.extend([0x09, 0xC1, b'k']);
        }
    }
    mixed.extend([0x0B, 0, 0, 0, 0, 0, 0, 0, 1, 0x82, b'x', b'y', 0x80]);
    mixed.extend(vec![0x00; DEEP]);
    // The BLOB's chunk is one level below the deepest container.
    vec![
        ("list", list, DEEP),
        ("map", map, DEEP),
        ("mixed", mixed, DEEP + 1),
    ]
}

#[test]
fn million_deep_nesting_on_a_small_stack() {
    on_small_stack(|| {
        for (name, doc, depth) in deep_docs() {
            let (nodes, used) = count_nodes(&doc, 0).unwrap();
            assert_eq!(used, doc.len(), "{name}");
            let mut pool = vec![Item::default(); nodes];
            let mut items = Items::new(&mut pool);
            let mut off = 0;
            let root = items.parse(&doc, &mut off).unwrap();
            assert_eq!((off, items.len()), (doc.len(), nodes), "{name}");
            let mut out = vec![0u8; doc.len()];
            assert_eq!(items.encoded_len(root), Ok(doc.len()), "{name}");
            assert_eq!(items.encode(root, &mut out), Ok(doc.len()), "{name}");
            assert!(out == doc, "{name}: round trip");
            let (mut max_depth, mut events) = (0, 0usize);
            for ev in items.walk(root) {
                let (ev, d) = ev.unwrap();
                max_depth = max_depth.max(d);
                events += 1 + usize::from(matches!(ev, Event::Enter(_)));
            }
            assert_eq!(max_depth as usize, depth, "{name}: walk depth");
            // Every node entered and left, or visited once (BLOB slot aside).
            assert!(events >= nodes, "{name}: walk events");
            // The depth limit stops all of them, with nothing left behind.
            items.clear();
            items.opts.max_depth = 1000;
            let mut off = 0;
            assert_eq!(items.parse(&doc, &mut off), Err(Error::DeepRecursion));
            assert_eq!(items.len(), 0, "{name}");
            assert_eq!(count_nodes(&doc, 1000), Err(Error::DeepRecursion));
            // A million open containers, then the input ends.
            let cut = &doc[..doc.len() / 2];
            assert!(matches!(count_nodes(cut, 0), Err(Error::NotEnough(_))));
            items.opts.max_depth = 0;
            let mut off = 0;
            assert!(matches!(
                items.parse(cut, &mut off),
                Err(Error::NotEnough(_))
            ));
            items.abort();
            assert_eq!(items.len(), 0);
        }
    });
}

// ------------------------------------------------------------ huge lengths

/// A string header of the given length form claiming `claim` bytes
/// (`claim` must fit the form).
fn header(base: u8, form: u8, claim: u128) -> Vec<u8> {
    match form {
        0 => vec![base | claim as u8],
        61 => vec![base | 61, (claim - 61) as u8],
        62 => {
            let mut h = vec![base | 62];
            h.extend(((claim - 317) as u16).to_be_bytes());
            h
        }
        _ => {
            let mut h = vec![base | 63];
            h.extend(((claim - 65853) as u64).to_be_bytes());
            h
        }
    }
}

#[test]
fn lengths_up_to_2_pow_64_in_every_form_and_position() {
    let forms: [(u8, &[u128]); 4] = [
        (0, &[30, 59, 60]),
        (61, &[61, 200, 316]),
        (62, &[317, 40_000, 65852]),
        (
            63,
            &[
                65853,
                1 << 32,
                1 << 63,
                u64::MAX as u128 - 9,
                u64::MAX as u128 - 8,
                u64::MAX as u128,
                u64::MAX as u128 + 65853,
            ],
        ),
    ];
    // (prefix before the string atom, prefix of the atom itself)
    let positions: [(&str, &[u8], &[u8]); 6] = [
        ("top", &[], &[]),
        ("list item", &[0x08, 0x01], &[]),
        ("map key", &[0x09], &[]),
        ("map value", &[0x09, 0xC1, b'k'], &[]),
        ("blob chunk", &[0x0B, 0, 0, 0, 0, 0, 0, 0, 0x0F], &[]),
        ("int body", &[0x08], &[0x0C]),
    ];
    for (form, claims) in forms {
        for &claim in claims {
            for base in [0x80u8, 0xC0] {
                for (name, outer, atom_prefix) in positions {
                    if (name == "blob chunk" || name == "int body") && base == 0xC0 {
                        continue; // a STR there is a different fault
                    }
                    let at = outer.len();
                    let mut doc = outer.to_vec();
                    doc.extend(atom_prefix);
                    let head = header(base, form, claim);
                    doc.extend(&head);
                    doc.extend(b"some payload bytes");
                    let have = doc.len() - at;
                    let total = atom_prefix.len() as u128 + head.len() as u128 + claim;
                    // LenTooBig when the atom (an INT's tag included) cannot
                    // end inside any input: its end does not fit 64 bits
                    // (or `usize`, on 32-bit targets).
                    let want = if total > usize::MAX as u128 {
                        Error::LenTooBig
                    } else {
                        Error::NotEnough((total - have as u128) as usize)
                    };
                    let (r, off) = check(&doc);
                    assert_eq!(r, Err(want), "{name}, form {form}, claim {claim}");
                    assert_eq!(off, at, "{name}, form {form}, claim {claim}");
                }
            }
        }
    }
}

#[test]
fn blob_chunk_length_2_pow_64() {
    let mut doc = vec![0x0B];
    doc.extend(u64::MAX.to_be_bytes());
    // Any BIN is a short, final chunk: 5 bytes of data.
    let mut with_data = doc.clone();
    with_data.extend([0x85, 1, 2, 3, 4, 5]);
    assert_eq!(check(&with_data), (Ok(3), with_data.len()));
    let mut pool = vec![Item::default(); 3];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let root = items.parse(&with_data, &mut off).unwrap();
    assert_eq!(items.blob_chunk_len_minus_one(root), Ok(u64::MAX));
    assert_eq!(items.blob_len(root), Ok(5));
    // An empty last chunk.
    let mut empty = doc.clone();
    empty.push(0x80);
    assert_eq!(check(&empty), (Ok(3), empty.len()));
    // A chunk claiming 2^40 bytes: not there (64-bit), or too big to
    // address (32-bit); 2^64 - 1 bytes: too big everywhere.
    let two_pow_40 = if usize::BITS > 32 {
        Error::NotEnough(((1u64 << 40) - 3) as usize)
    } else {
        Error::LenTooBig
    };
    for (claim, want) in [
        (1u128 << 40, two_pow_40),
        (u64::MAX as u128, Error::LenTooBig),
    ] {
        let mut d = doc.clone();
        d.extend(header(0x80, 63, claim));
        d.extend([0xAA, 0xBB, 0xCC]);
        assert_eq!(check(&d), (Err(want), 9), "claim {claim}");
    }
    // Not a BIN: a STR chunk, an EOC.
    for bad in [&[0xC1, b'a'][..], &[0x00]] {
        let mut d = doc.clone();
        d.extend(bad);
        assert_eq!(check(&d), (Err(Error::BlobBadTerm), 9));
    }
}

// ------------------------------------------- exhaustion and truncation

/// Documents with every kind of node, some nested (at most 2 KiB: each
/// is parsed once per byte or node).
fn corpus() -> Vec<Vec<u8>> {
    let mut docs: Vec<Vec<u8>> = common::vectors::VALID
        .iter()
        .map(|v| common::vectors::bytes(v.hex))
        .filter(|b| b.len() <= 2048 && reference::decode(b).is_ok_and(|(_, n)| n == b.len()))
        .collect();
    let mut rng = Rng::new(5);
    for _ in 0..40 {
        docs.push(common::encode(&gen_value(&mut rng, 5, 60)));
    }
    docs
}

#[test]
fn pool_exhaustion_at_every_node() {
    for doc in corpus() {
        let (need, _) = count_nodes(&doc, 0).unwrap();
        for cap in PRE_NODES..PRE_NODES + need {
            let mut pool = vec![Item::default(); cap];
            let mut items = Items::new(&mut pool);
            let mut off = 0;
            items.parse(PRE, &mut off).unwrap();
            let before = snapshot(&items);
            let mut off = 0;
            assert_eq!(items.parse(&doc, &mut off), Err(Error::NoMem), "cap {cap}");
            assert!(off <= doc.len());
            // Resumable in a bigger pool...
            let mut bigger = vec![Item::default(); PRE_NODES + need];
            let mut moved = items.move_to(&mut bigger).unwrap();
            let root = moved.parse(&doc, &mut off).unwrap();
            assert_eq!(off, doc.len());
            let mut out = vec![0u8; doc.len()];
            assert_eq!(moved.encode(root, &mut out), Ok(doc.len()));
            assert!(out == doc);
            // ... or abandoned, leaving the pool as it was.
            let mut pool = vec![Item::default(); cap];
            let mut items = Items::new(&mut pool);
            let mut o = 0;
            items.parse(PRE, &mut o).unwrap();
            let mut o = 0;
            assert_eq!(items.parse(&doc, &mut o), Err(Error::NoMem));
            items.abort();
            assert_eq!(snapshot(&items), before, "abort after NoMem, cap {cap}");
        }
    }
}

#[test]
fn truncation_at_every_byte() {
    for doc in corpus() {
        for cut in 0..doc.len() {
            let part = &doc[..cut];
            let (r, off) = parse_after_pre(part, Options::default());
            let Err(Error::NotEnough(n)) = r else {
                panic!("cut {cut}: {r:?}");
            };
            assert!(n >= 1 && cut + n <= doc.len(), "cut {cut}: NotEnough({n})");
            assert!(off <= cut);
            assert!(matches!(count_nodes(part, 0), Err(Error::NotEnough(m)) if m >= 1));
            // Resuming with the whole document completes it.
            let mut pool = vec![Item::default(); doc.len() + 1];
            let mut items = Items::new(&mut pool);
            let mut o = 0;
            assert!(matches!(
                items.parse(part, &mut o),
                Err(Error::NotEnough(_))
            ));
            let root = items.parse(&doc, &mut o).unwrap();
            assert_eq!(o, doc.len());
            let mut out = vec![0u8; doc.len()];
            assert_eq!(items.encode(root, &mut out), Ok(doc.len()));
            assert!(out == doc);
        }
    }
}

// -------------------------------------------------------- invalid UTF-8

#[test]
fn every_invalid_utf8_class_in_every_str_position() {
    let bad: [(&str, &[u8]); 20] = [
        ("overlong 2-byte NUL", &[0xC0, 0x80]),
        ("overlong 2-byte", &[0xC1, 0xBF]),
        ("overlong 3-byte", &[0xE0, 0x80, 0x80]),
        ("overlong 3-byte max", &[0xE0, 0x9F, 0xBF]),
        ("overlong 4-byte", &[0xF0, 0x80, 0x80, 0x80]),
        ("overlong 4-byte max", &[0xF0, 0x8F, 0xBF, 0xBF]),
        ("surrogate low", &[0xED, 0xA0, 0x80]),
        ("surrogate high", &[0xED, 0xBF, 0xBF]),
        ("above U+10FFFF", &[0xF4, 0x90, 0x80, 0x80]),
        ("F5 lead", &[0xF5, 0x80, 0x80, 0x80]),
        ("FF byte", &[0xFF]),
        ("lone continuation", &[0x80]),
        ("truncated 2-byte", &[0xC2]),
        ("truncated 3-byte", &[0xE2, 0x82]),
        ("truncated 4-byte", &[0xF0, 0x9F, 0x98]),
        ("truncated then ASCII", &[0xE2, 0x82, b'a']),
        ("NUL", &[0x00]),
        ("NUL inside", &[b'a', 0x00, b'b']),
        ("valid then bad", &[0xC3, 0xA9, 0xED, 0xA0, 0x80]),
        ("5-byte form", &[0xF8, 0x88, 0x80, 0x80, 0x80]),
    ];
    let positions: [(&str, &[u8], &[u8]); 5] = [
        ("top", &[], &[]),
        ("list item", &[0x08, 0x01], &[0x00]),
        ("map key", &[0x09], &[0x01, 0x00]),
        ("map value", &[0x09, 0xC1, b'k'], &[0x00]),
        ("deep", &[0x08, 0x08, 0x09, 0xC1, b'k', 0x08], &[0, 0, 0, 0]),
    ];
    for (class, payload) in bad {
        // Also past the 60-byte short form: long strings take other paths.
        for pad in [0usize, 70, 400] {
            let mut s = vec![b'x'; pad];
            s.extend(payload);
            let mut atom = Vec::new();
            reference::put_string(&mut atom, true, &s);
            for (name, before, after) in positions {
                let mut doc = before.to_vec();
                doc.extend(&atom);
                doc.extend(after);
                let (r, off) = check(&doc);
                assert_eq!(r, Err(Error::BadUtf8), "{class} in {name}, pad {pad}");
                assert_eq!(off, before.len(), "{class} in {name}, pad {pad}");
                // Trusted input skips the check (and the NUL rule).
                let trust = Options {
                    trust_utf8: true,
                    ..Options::default()
                };
                let (r, off) = parse_after_pre(&doc, trust);
                assert!(r.is_ok(), "{class} in {name}, trusted: {r:?}");
                assert_eq!(off, doc.len());
            }
        }
    }
}

// ----------------------------------------------------------- MAP keys

/// A MAP of `keys` (each with a small LIST value); returns the document
/// and the offset of each key.
fn map_of(keys: &[&[u8]]) -> (Vec<u8>, Vec<usize>) {
    let mut doc = vec![0x09];
    let mut at = Vec::new();
    for (i, k) in keys.iter().enumerate() {
        at.push(doc.len());
        reference::put_string(&mut doc, true, k);
        doc.extend([0x08, 0x0C, 0x81, i as u8 + 1, 0x00]);
    }
    doc.push(0x00);
    (doc, at)
}

#[test]
fn map_key_faults_at_every_position() {
    let keys: Vec<&[u8]> = vec![
        b"a",
        b"b",
        b"z",
        b"aa",
        b"ab",
        b"ba",
        b"abc",
        b"abd",
        b"b\xC3\xA9",
        b"zzzz",
    ];
    let (good, _) = map_of(&keys);
    assert_eq!(check(&good), (Ok(1 + 3 * keys.len()), good.len()));
    for i in 1..keys.len() {
        // Swapped with the previous key.
        let mut k = keys.clone();
        k.swap(i - 1, i);
        let (doc, at) = map_of(&k);
        assert_eq!(check(&doc), (Err(Error::MapUnordered), at[i]), "swap {i}");
        // Equal to the previous key.
        let mut k = keys.clone();
        k[i] = k[i - 1];
        let (doc, at) = map_of(&k);
        assert_eq!(check(&doc), (Err(Error::MapUnordered), at[i]), "dup {i}");
    }
    for i in 0..keys.len() {
        // Empty key.
        let mut k = keys.clone();
        k[i] = b"";
        let (doc, at) = map_of(&k);
        assert_eq!(check(&doc), (Err(Error::MapBadKey), at[i]), "empty {i}");
        // A non-STR key: the same bytes as a BIN, and a LIST.
        let (doc, at) = map_of(&keys);
        let mut bin = doc.clone();
        bin[at[i]] &= !0x40;
        assert_eq!(check(&bin), (Err(Error::MapBadKey), at[i]), "BIN key {i}");
        let mut list = doc[..at[i]].to_vec();
        list.extend([0x08, 0x00, 0x01, 0x00]);
        assert_eq!(check(&list), (Err(Error::MapBadKey), at[i]), "LIST key {i}");
        // EOC where the value should be.
        let mut cut = doc[..at[i]].to_vec();
        reference::put_string(&mut cut, true, keys[i]);
        let eoc_at = cut.len();
        cut.push(0x00);
        assert_eq!(check(&cut), (Err(Error::MapNoVal), eoc_at), "no value {i}");
    }
}
