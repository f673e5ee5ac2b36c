//! Parse, encode, count, walk and the reference decoder on one document
//! (the start of the input, default options):
//! - a document that parses re-encodes to exactly the bytes consumed
//!   (`encode` and `encoded_len`), `count_nodes` gives the nodes used and
//!   the same length, and a walk visits every node once, balanced;
//! - the independent reference decoder (testkit/src/reference.rs) accepts
//!   exactly what parse accepts, with the same length, and rejects with the
//!   same error class and offset otherwise (its own depth limit aside);
//! - `count_nodes` fails exactly as parse does, except where parse fails on
//!   a MAP rule, which counting does not check by design.
#![no_main]

use yac_testkit as common;

use common::reference::{self, Kind};
use common::walk::kind_of;
use libfuzzer_sys::fuzz_target;
use yac::items::{count_nodes, Event, Item, Items};
use yac::Error;

fn map_rule(e: Error) -> bool {
    matches!(e, Error::MapBadKey | Error::MapNoVal | Error::MapUnordered)
}

fuzz_target!(|doc: &[u8]| {
    let mut pool = vec![Item::default(); doc.len() + 1];
    let mut items = Items::new(&mut pool);
    let mut off = 0;
    let parsed = items.parse(doc, &mut off);
    let counted = count_nodes(doc, 0);
    let refd = reference::decode(doc);
    if matches!(refd, Err(e) if e.kind == Kind::DeepRecursion) {
        // The reference stops at its own depth limit; the rest still holds.
    } else {
        match (&parsed, &refd) {
            (Ok(_), Ok((_, n))) => assert_eq!(off, *n, "lengths differ"),
            (Err(e), Err(r)) => {
                assert_eq!(kind_of(*e), r.kind, "error classes differ");
                assert_eq!(off, r.offset, "error offsets differ");
            }
            _ => panic!("parse {parsed:?} vs reference {refd:?}"),
        }
    }
    match parsed {
        Ok(root) => {
            let n = items.encoded_len(root).unwrap();
            assert_eq!(n, off);
            let mut out = vec![0u8; n];
            assert_eq!(items.encode(root, &mut out), Ok(n));
            assert_eq!(&out[..], &doc[..off], "re-encoding differs");
            if n > 0 {
                let mut short = vec![0u8; n - 1];
                assert_eq!(items.encode(root, &mut short), Err(Error::NoMem));
            }
            assert_eq!(counted, Ok((items.len(), off)), "count_nodes");
            // A walk: every node but the BLOB extension slots, once.
            let (mut seen, mut depth, mut blobs) = (vec![false; items.len()], 0i64, 0);
            for ev in items.walk(root) {
                let (ev, d) = ev.expect("walk of a parsed tree");
                match ev {
                    Event::Enter(i) | Event::Leaf(i) => {
                        assert_eq!(i64::from(d), depth);
                        assert!(!std::mem::replace(&mut seen[i as usize], true));
                        if matches!(ev, Event::Enter(_)) {
                            depth += 1;
                            if items.item_type(i) == yac::ItemType::Blob {
                                blobs += 1;
                            }
                        }
                    }
                    Event::Exit(_) => {
                        depth -= 1;
                        assert_eq!(i64::from(d), depth);
                    }
                }
            }
            assert_eq!(depth, 0);
            assert_eq!(seen.iter().filter(|&&s| s).count() + blobs, items.len());
        }
        Err(Error::NoMem) => panic!("NoMem with a pool of input length"),
        Err(e) => {
            if !matches!(e, Error::NotEnough(_)) {
                assert_eq!(items.len(), 0, "{e:?} left nodes behind");
            }
            match counted {
                Err(c) if !map_rule(e) => assert_eq!(c, e, "count_nodes error"),
                Ok(_) if !map_rule(e) => panic!("count_nodes accepts, parse says {e:?}"),
                _ => {}
            }
        }
    }
});
