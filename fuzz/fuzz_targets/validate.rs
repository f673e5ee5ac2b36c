//! `validate` (no tree) against `Items::parse`, and `count_nodes` (the
//! same loop without the MAP key rules) against both. From the input:
//! options (max_depth, trust_utf8), a level-array size, then the bytes;
//! every document back to back from offset 0. The validator must give
//! the parse's result, error, offset and node count (`NoMem` only when
//! the level array is too small, and then a larger one agrees);
//! `count_nodes` must accept every document the parse accepts, with the
//! same count and length. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use yac::items::{count_nodes, Item, Items, Options};
use yac::validate::validate;
use yac::Error;
use yac_testkit::input::Input;

fuzz_target!(|data: &[u8]| {
    let mut input = Input::new(data);
    let opts = Options {
        max_depth: u32::from(input.byte() % 8),
        trust_utf8: input.bool(),
    };
    let small = input.below(6);
    let doc = input.rest();
    let mut pool = vec![Item::default(); doc.len() + 2];
    let mut big = vec![0usize; doc.len() + 1];
    let mut few = vec![0usize; small];
    let mut off = 0;
    while off < doc.len() {
        let mut items = Items::new(&mut pool);
        items.opts = opts;
        let mut poff = off;
        let want = items.parse(doc, &mut poff).map(|_| items.len());
        let mut voff = off;
        let got = validate(doc, &mut voff, &mut big, opts);
        assert_eq!((got, voff), (want, poff), "validate vs parse at {off}");
        let mut soff = off;
        match validate(doc, &mut soff, &mut few, opts) {
            Err(Error::NoMem) => assert!(small < doc.len()),
            r => assert_eq!((r, soff), (want, poff), "{small} levels at {off}"),
        }
        if let (Ok(nodes), false) = (want, opts.trust_utf8) {
            let counted = count_nodes(&doc[off..], opts.max_depth);
            assert_eq!(counted, Ok((nodes, poff - off)), "count_nodes at {off}");
        }
        match want {
            Ok(_) => off = poff,
            Err(_) => break,
        }
    }
});
