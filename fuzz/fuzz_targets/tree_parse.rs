//! `Items::parse` under every option and feeding pattern. From the input:
//! options (max_depth, trust_utf8), a small starting pool and a chunking
//! seed, then the documents. They are parsed back to back twice:
//! - at once into a pool big enough for anything (NoMem impossible);
//! - incrementally, the input revealed in random chunks, from a small pool
//!   moved into bigger ones on NoMem, sometimes aborting a half-parsed
//!   document and starting it over.
//!
//! Both must give the same outcomes (root encoding, bytes consumed, nodes
//! used, final error and where), NotEnough/NoMem must be resumable, a final
//! error must leave the pool as it was before that document, and
//! `count_nodes` must agree with every document that parses. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yac::items::{count_nodes, Item, Items, ItemsMut, Options};
use yac::Error;
use yac_testkit::input::Input;

#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    result: Result<Vec<u8>, Error>,
    off: usize,
    nodes: usize,
}

fn encode_root(items: &ItemsMut<'_, '_>, root: u32) -> Vec<u8> {
    let n = items
        .encoded_len(root)
        .expect("encoded_len of a parsed root");
    let mut out = vec![0u8; n];
    assert_eq!(items.encode(root, &mut out), Ok(n));
    out
}

/// After a document parsed at `start..off` with `nodes` new nodes.
fn check_parsed(doc: &[u8], start: usize, off: usize, nodes: usize, opts: Options, enc: &[u8]) {
    assert!(off > start, "an item takes at least one byte");
    assert_eq!(
        enc,
        &doc[start..off],
        "parse then encode is not the identity"
    );
    let counted = count_nodes(&doc[start..], opts.max_depth);
    // count_nodes always validates UTF-8; trust_utf8 parsing does not.
    if !(opts.trust_utf8 && counted == Err(Error::BadUtf8)) {
        assert_eq!(counted, Ok((nodes, off - start)), "count_nodes disagrees");
    }
}

fn one_shot(doc: &[u8], opts: Options) -> Vec<Outcome> {
    // Every atom is at least one byte and gives at most one node, but for
    // the 9-byte BLOB header (two): doc.len() nodes always suffice.
    let mut pool = vec![Item::default(); doc.len() + 1];
    let mut items = Items::new(&mut pool);
    items.opts = opts;
    let mut off = 0;
    let mut out = Vec::new();
    loop {
        let (start, before) = (off, items.len());
        match items.parse(doc, &mut off) {
            Ok(root) => {
                let enc = encode_root(&items, root);
                let nodes = items.len() - before;
                check_parsed(doc, start, off, nodes, opts, &enc);
                out.push(Outcome {
                    result: Ok(enc),
                    off,
                    nodes: items.len(),
                });
                if off == doc.len() {
                    return out;
                }
            }
            Err(Error::NoMem) => panic!("NoMem with a pool of input length"),
            Err(e) => {
                if !matches!(e, Error::NotEnough(_)) {
                    assert_eq!(items.len(), before, "{e:?} left nodes behind");
                    assert!(off >= start && off < doc.len(), "{e:?} not at an atom");
                } else {
                    assert!(matches!(e, Error::NotEnough(n) if n >= 1));
                }
                out.push(Outcome {
                    result: Err(e),
                    off,
                    nodes: items.len(),
                });
                return out;
            }
        }
    }
}

fn incremental(doc: &[u8], opts: Options, small: usize, seed: u32) -> Vec<Outcome> {
    // Pools of growing size, the last one big enough for anything.
    let mut sizes = vec![small];
    while *sizes.last().unwrap() <= doc.len() {
        let s = *sizes.last().unwrap();
        sizes.push(s * 2 + 1);
    }
    let mut pools: Vec<Vec<Item>> = sizes.iter().map(|&n| vec![Item::default(); n]).collect();
    let mut next_pool = pools.iter_mut();
    let mut items = Items::new(next_pool.next().unwrap());
    items.opts = opts;

    let mut rng = u64::from(seed) | 1;
    let mut step = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    let mut end = 0usize;
    let (mut off, mut doc_start, mut doc_nodes) = (0usize, 0usize, 0usize);
    let mut out = Vec::new();
    loop {
        match items.parse(&doc[..end], &mut off) {
            Ok(root) => {
                let enc = encode_root(&items, root);
                check_parsed(doc, doc_start, off, items.len() - doc_nodes, opts, &enc);
                out.push(Outcome {
                    result: Ok(enc),
                    off,
                    nodes: items.len(),
                });
                if off == doc.len() {
                    return out;
                }
                (doc_start, doc_nodes) = (off, items.len());
            }
            Err(Error::NotEnough(n)) => {
                assert!(n >= 1);
                assert!(off >= doc_start && off <= end);
                if end == doc.len() {
                    out.push(Outcome {
                        result: Err(Error::NotEnough(n)),
                        off,
                        nodes: items.len(),
                    });
                    return out;
                }
                let r = step();
                if r % 16 == 0 {
                    // Give up on this document and start it over.
                    items.abort();
                    assert_eq!(items.len(), doc_nodes, "abort did not roll back");
                    off = doc_start;
                }
                let chunk = match (r >> 8) % 8 {
                    0..=3 => 1 + (r >> 16) as usize % 4,
                    4..=6 => 1 + (r >> 16) as usize % 64,
                    _ => n.min(doc.len()),
                };
                end = end.saturating_add(chunk).min(doc.len());
            }
            Err(Error::NoMem) => {
                let bigger = next_pool.next().expect("NoMem in a pool of input length");
                let len = items.len();
                items = items.move_to(bigger).expect("move_to a bigger pool");
                assert_eq!(items.len(), len);
            }
            Err(e) => {
                assert_eq!(items.len(), doc_nodes, "{e:?} left nodes behind");
                out.push(Outcome {
                    result: Err(e),
                    off,
                    nodes: items.len(),
                });
                return out;
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let mut inp = Input::new(data);
    let cfg = inp.byte();
    let small = inp.below(24);
    let max_depth = if cfg & 2 != 0 {
        u32::from(inp.byte() % 8)
    } else {
        0
    };
    let opts = Options {
        max_depth,
        trust_utf8: cfg & 4 != 0,
    };
    let seed = inp.u32();
    let doc = inp.rest();
    let once = one_shot(doc, opts);
    let fed = incremental(doc, opts, small, seed);
    assert_eq!(once, fed, "incremental parse differs from one-shot");
});
