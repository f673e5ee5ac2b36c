//! The STR checks that the fast loops batch (`utf8::StrBatch`) against a
//! reference that checks each STR on its own with `core::str::from_utf8`:
//! on string-heavy documents with bad STRs (and other errors after them),
//! the parser, the validator and the counting pass give the same verdict,
//! error and offset as "the first bad STR, unless another error comes
//! first". Documents hold enough non-ASCII text to fill several batches, so
//! a bad STR may sit in a batch checked mid-loop or in the last one. Seeds
//! are fixed.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac::atom::{decode, string_raw, tag};
use yac::items::{count_nodes, Item, Items, Options};
use yac::validate::validate;
use yac::Error;
use yac_testkit::gen::{gen_utf8, Rng};
use yac_testkit::reference::put_string;

fn parse(doc: &[u8], opts: Options) -> (Result<usize, Error>, usize) {
    let mut pool = vec![Item::default(); doc.len() + 2];
    let mut items = Items::new(&mut pool);
    items.opts = opts;
    let mut off = 0;
    let r = items.parse(doc, &mut off).map(|_| items.len());
    (r, off)
}

/// What a parse that checks every STR on its own gives: the parse with
/// UTF-8 trusted, unless a STR before where that stops is bad (not UTF-8
/// by `core::str::from_utf8`, or holding NUL); then `BadUtf8` there.
fn reference(doc: &[u8]) -> (Result<usize, Error>, usize) {
    let trusted = parse(
        doc,
        Options {
            trust_utf8: true,
            ..Options::default()
        },
    );
    let end = if trusted.0.is_ok() {
        doc.len()
    } else {
        trusted.1
    };
    // The atoms before the stop, and the one at it: a STR's own check
    // comes before the rules about where it stands (a MAP key's order).
    let mut at = 0;
    while at <= end && at < doc.len() {
        let rest = &doc[at..];
        if rest[0] >= tag::STR {
            if let Ok((body, _)) = string_raw(rest) {
                if core::str::from_utf8(body).is_err() || body.contains(&0) {
                    return (Err(Error::BadUtf8), at);
                }
            }
        }
        if at == end {
            break;
        }
        at += match string_raw(rest) {
            Ok((_, used)) if rest[0] >= tag::BIN => used,
            _ => decode(rest).expect("a valid atom before the stop").1,
        };
    }
    trusted
}

/// Bad UTF-8 of every class, to be written over part of a payload.
const BAD: &[&[u8]] = &[
    &[0x00],
    &[0x80],
    &[0xBF],
    &[0xC0, 0x80],
    &[0xC1, 0xBF],
    &[0xE0, 0x80, 0x80],
    &[0xED, 0xA0, 0x80],
    &[0xF0, 0x80, 0x80, 0x80],
    &[0xF4, 0x90, 0x80, 0x80],
    &[0xF5],
    &[0xFF],
    &[0xE2, 0x82],
    &[0xC3],
    &[0xF0, 0x9F, 0x98],
];

/// A MAP of `pairs` STR keys (sorted as YAC wants them) to STR values or
/// LISTs of STRs, mostly non-ASCII text; the payloads' offsets in the
/// document are returned too.
fn document(rng: &mut Rng, pairs: usize) -> (Vec<u8>, Vec<(usize, usize)>) {
    let mut keys: Vec<String> = (0..pairs)
        .map(|i| {
            let n = rng.usize(0, 6);
            format!("{}{i}", gen_utf8(rng, n))
        })
        .collect();
    keys.sort_by(|a, b| (a.len(), a.as_bytes()).cmp(&(b.len(), b.as_bytes())));
    keys.dedup();
    let mut doc = vec![tag::MAP];
    let mut payloads = Vec::new();
    let mut put = |doc: &mut Vec<u8>, s: &str| {
        let before = doc.len();
        put_string(doc, true, s.as_bytes());
        payloads.push((doc.len() - s.len(), s.len()));
        assert!(doc.len() > before);
    };
    for k in &keys {
        put(&mut doc, k);
        let len = |rng: &mut Rng| match rng.below(8) {
            0..=4 => rng.usize(0, 16),
            5 | 6 => rng.usize(16, 70),
            _ => rng.usize(70, 400),
        };
        if rng.chance(1, 4) {
            doc.push(tag::LIST);
            for _ in 0..rng.usize(0, 5) {
                let n = len(rng);
                put(&mut doc, &gen_utf8(rng, n));
            }
            doc.push(tag::EOC);
        } else {
            let n = len(rng);
            put(&mut doc, &gen_utf8(rng, n));
        }
    }
    doc.push(tag::EOC);
    (doc, payloads)
}

fn check(doc: &[u8]) {
    let want = reference(doc);
    assert_eq!(parse(doc, Options::default()), want, "parse");
    let mut levels = vec![0usize; 64];
    let mut off = 0;
    let got = validate(doc, &mut off, &mut levels, Options::default());
    assert_eq!((got, off), want, "validate");
    // The counting pass has no MAP key rules, so compare the verdict only
    // where the reference's error is a STR's.
    if want.0 == Err(Error::BadUtf8) {
        assert_eq!(
            count_nodes(doc, 0).map(|_| ()),
            Err(Error::BadUtf8),
            "count"
        );
    }
}

#[test]
fn valid_text_documents_parse_as_the_reference() {
    let mut rng = Rng::new(0x5EED_0001);
    for round in 0..40 {
        let (doc, _) = document(&mut rng, 20 + round * 10);
        let want = reference(&doc);
        assert!(want.0.is_ok(), "round {round}: {want:?}");
        check(&doc);
    }
}

#[test]
fn bad_strs_are_found_where_the_reference_finds_them() {
    let mut rng = Rng::new(0x5EED_0002);
    for round in 0..400 {
        let pairs = rng.usize(5, 300);
        let (mut doc, payloads) = document(&mut rng, pairs);
        // One to three bad spots, each over the start, middle or end of a
        // payload long enough to hold it.
        for _ in 0..rng.usize(1, 3) {
            let (at, len) = payloads[rng.usize(0, payloads.len() - 1)];
            let bad = BAD[rng.usize(0, BAD.len() - 1)];
            if len < bad.len() {
                continue;
            }
            let start = match rng.below(3) {
                0 => at,
                1 => at + len - bad.len(),
                _ => rng.usize(at, at + len - bad.len()),
            };
            doc[start..start + bad.len()].copy_from_slice(bad);
        }
        // Sometimes an error of another kind too: an unknown tag where an
        // atom starts, or the document cut short.
        match rng.below(4) {
            0 => {
                let (at, _) = payloads[rng.usize(0, payloads.len() - 1)];
                // The payload's first byte follows its header; the header
                // of a short STR is one byte.
                if doc[at - 1] >= tag::STR && doc[at - 1] - tag::STR <= 60 {
                    doc[at - 1] = 0x05;
                }
            }
            1 => {
                let cut = rng.usize(1, doc.len() - 1);
                doc.truncate(cut);
            }
            _ => {}
        }
        check(&doc);
        let _ = round;
    }
}
