//! The validator without a tree (`yac::validate`) against the parser
//! (`Items::parse`): on every input, the same verdict, the same error, the
//! same offset, and on success the node count the parse used. Inputs: the
//! FORMAT.md vectors (valid, invalid atoms, invalid streams), the benchmark
//! documents, thousands of generated documents, every prefix of some, and
//! mutations of them; with UTF-8 checks on and off, and depth limits.

// The package is `keks` (its crates.io name); the workspace calls it yac.
extern crate keks as yac;

use yac::items::{count_nodes, Item, Items, Options};
use yac::validate::validate;
use yac::Error;
use yac_testkit::vectors::{bytes, INVALID_ATOM, INVALID_STREAM, VALID};
use yac_testkit::*;

/// What the parser gives for `doc` from `start`: the node count or the
/// error, and the offset it stops at.
fn parse(doc: &[u8], start: usize, opts: Options) -> (Result<usize, Error>, usize) {
    // Every node but a BLOB's second slot takes at least one byte of input.
    let mut pool = vec![Item::default(); doc.len() + 2];
    let mut items = Items::new(&mut pool);
    items.opts = opts;
    let mut off = start;
    let r = items.parse(doc, &mut off).map(|_| items.len());
    (r, off)
}

/// Checks the validator against the parser on `doc` from `start`; returns
/// the outcome.
fn same(doc: &[u8], start: usize, opts: Options) -> Result<usize, Error> {
    let want = parse(doc, start, opts);
    let mut levels = vec![0usize; doc.len() + 1];
    let mut off = start;
    let got = validate(doc, &mut off, &mut levels, opts);
    assert_eq!(
        (got, off),
        want,
        "validator vs parser from {start} with {opts:?} on {}",
        walk::hex_head(doc)
    );
    got
}

/// `same` with the default options, trusted UTF-8 and a few depth limits.
fn same_all_ways(doc: &[u8]) -> Result<usize, Error> {
    let r = same(doc, 0, Options::default());
    let _ = same(
        doc,
        0,
        Options {
            trust_utf8: true,
            ..Options::default()
        },
    );
    for max_depth in [1, 2, 3] {
        let _ = same(
            doc,
            0,
            Options {
                max_depth,
                ..Options::default()
            },
        );
    }
    r
}

#[test]
fn spec_vectors_agree() {
    for v in VALID {
        let doc = bytes(v.hex);
        assert!(same_all_ways(&doc).is_ok(), "{}", v.name);
    }
    for v in INVALID_ATOM {
        let doc = bytes(v.hex);
        assert_eq!(same_all_ways(&doc), Err(v.err), "{}", v.name);
    }
    // A stream error after a whole item ("EOC after the LIST closed") is
    // not the parser's: it stops after the item.
    let mut stream_errors = 0;
    for v in INVALID_STREAM {
        let doc = bytes(v.hex);
        if same_all_ways(&doc).is_ok() {
            continue;
        }
        let mut levels = [0usize; 4];
        let mut off = 0;
        let r = validate(&doc, &mut off, &mut levels, Options::default());
        assert_eq!((r, off), (Err(v.err), v.at), "{}", v.name);
        stream_errors += 1;
    }
    assert!(stream_errors + 1 >= INVALID_STREAM.len());
}

#[test]
fn every_invalid_class_agrees_in_every_position() {
    // Each bad atom alone, as a LIST item, as a MAP key and value, as a
    // BLOB chunk, and after a nested container in a MAP.
    let mut seen = std::collections::HashSet::new();
    for v in INVALID_ATOM {
        let bad = bytes(v.hex);
        let wraps: [(&str, &str); 6] = [
            ("", ""),
            ("08", "00"),
            ("09", "01 00"),
            ("09 C161", "00"),
            ("0B 0000000000000004", ""),
            ("09 C161 08 01 00", "01 00"),
        ];
        for (pre, post) in wraps {
            let mut doc = bytes(pre);
            doc.extend_from_slice(&bad);
            doc.extend(bytes(post));
            if let Err(e) = same_all_ways(&doc) {
                seen.insert(format!("{e:?}").split('(').next().unwrap().to_string());
            }
        }
    }
    for class in [
        "NotEnough",
        "UnknownType",
        "LenTooBig",
        "BadUtf8",
        "IntNonMinimal",
        "IntNonBin",
        "FloatNonMinimal",
        "Tai64TooBig",
        "Tai64BadNsec",
        "Tai64BadAsec",
        "Tai64NonMinimal",
        "BadMagic",
        "MapBadKey",
        "MapNoVal",
    ] {
        assert!(seen.contains(class), "no {class} in {seen:?}");
    }
}

#[test]
fn map_keys_after_nested_values_agree() {
    for (doc, want) in [
        // The key after a LIST value is compared with the key before it.
        ("09 C161 08 00 C162 01 00", Ok(5)),
        ("09 C162 08 00 C161 01 00", Err(Error::MapUnordered)),
        ("09 C161 09 C17A 01 00 C161 01 00", Err(Error::MapUnordered)),
        ("09 C161 09 C17A 01 00 C162 01 00", Ok(7)),
        // ... also after a BLOB value, and two levels up.
        (
            "09 C161 0B 0000000000000000 80 C161 01 00",
            Err(Error::MapUnordered),
        ),
        (
            "09 C162 09 C161 08 00 00 C161 01 00",
            Err(Error::MapUnordered),
        ),
        (
            "09 C161 09 C161 08 00 00 C161 01 00",
            Err(Error::MapUnordered),
        ),
        ("09 C161 09 C161 08 00 00 C26162 01 00", Ok(7)),
    ] {
        let doc = bytes(doc);
        assert_eq!(same_all_ways(&doc), want, "{}", walk::hex_head(&doc));
    }
}

#[test]
fn benchmark_documents_agree() {
    let Some(dir) = shared_data_dir("counts.json") else {
        return;
    };
    for name in ["licenses", "canada-list", "canada-map"] {
        let doc = std::fs::read(dir.join(format!("{name}.yac"))).unwrap();
        let nodes = same(&doc, 0, Options::default()).unwrap();
        assert_eq!(count_nodes(&doc, 0), Ok((nodes, doc.len())), "{name}");
        // The documents nest 9 deep at most: 8 levels below the root.
        let mut levels = [0usize; 8];
        let mut off = 0;
        assert_eq!(
            validate(&doc, &mut off, &mut levels, Options::default()),
            Ok(nodes)
        );
    }
}

#[test]
fn generated_documents_and_their_prefixes_agree() {
    let mut rng = Rng::new(21);
    for i in 0..3000 {
        let v = gen_value(&mut rng, 5, if i % 100 == 99 { 70_000 } else { 300 });
        let mut doc = encode(&v);
        let nodes = same_all_ways(&doc).unwrap();
        assert_eq!(count_nodes(&doc, 0), Ok((nodes, doc.len())));
        if doc.len() < 400 {
            for cut in 0..doc.len() {
                let r = same(&doc[..cut], 0, Options::default());
                assert!(matches!(r, Err(Error::NotEnough(_))), "{r:?}");
            }
        }
        // Trailing bytes are not part of the document, and a document may
        // start anywhere.
        doc.extend_from_slice(&[0x00, 0x05]);
        assert_eq!(same(&doc, 0, Options::default()), Ok(nodes));
        let mut two = doc.clone();
        two.splice(0..0, [0x01, 0x02, 0x03]);
        assert_eq!(same(&two, 3, Options::default()), Ok(nodes));
    }
}

#[test]
fn mutated_documents_agree() {
    let mut rng = Rng::new(22);
    let mut outcomes = std::collections::HashMap::new();
    for i in 0..6000 {
        let v = gen_value(&mut rng, 4, if i % 200 == 0 { 70_000 } else { 150 });
        let mut doc = encode(&v);
        mutate(&mut rng, &mut doc);
        let r = same_all_ways(&doc);
        let class = match r {
            Ok(_) => "ok".to_string(),
            Err(e) => format!("{e:?}").split('(').next().unwrap().to_string(),
        };
        *outcomes.entry(class).or_insert(0) += 1;
    }
    for class in [
        "ok",
        "NotEnough",
        "UnknownType",
        "BadUtf8",
        "IntNonMinimal",
        "IntNonBin",
        "BlobBadChunk",
        "BlobBadTerm",
        "MapBadKey",
        "MapNoVal",
        "MapUnordered",
        "UnexpectedEoc",
    ] {
        assert!(outcomes.contains_key(class), "no {class} in {outcomes:?}");
    }
}

#[test]
fn levels_bound_the_depth() {
    // LIST in LIST in LIST: two levels below the root.
    let doc = bytes("08 08 08 00 00 00");
    for (n, want) in [(0, Err(Error::NoMem)), (1, Err(Error::NoMem)), (2, Ok(3))] {
        let mut levels = vec![0usize; n];
        let mut off = 0;
        let r = validate(&doc, &mut off, &mut levels, Options::default());
        assert_eq!(r, want, "{n} levels");
        if r.is_err() {
            assert_eq!(off, n + 1, "at the container that did not fit");
        }
    }
    // max_depth stops it first, as in the parser.
    let mut off = 0;
    let opts = Options {
        max_depth: 1,
        ..Options::default()
    };
    assert_eq!(
        validate(&doc, &mut off, &mut [], opts),
        Err(Error::DeepRecursion)
    );
    let mut off = 7;
    assert_eq!(
        validate(&doc, &mut off, &mut [], Options::default()),
        Err(Error::Invalid)
    );
}

/// `count_nodes` as it was written before it became the validator's loop
/// with the MAP key rules off: the reference it is held to below.
fn count_nodes_reference(buf: &[u8], max_depth: u32) -> Result<(usize, usize), Error> {
    use yac::atom::{decode, Atom};
    let mut off = 0usize;
    let mut nodes = 0usize;
    let mut depth = 0u32;
    let mut blob_chunk: Option<u64> = None;
    loop {
        let (a, used) = decode(&buf[off..])?;
        off += used;
        if let Some(chunk_minus_one) = blob_chunk {
            let Atom::Bin(b) = a else {
                return Err(Error::BlobBadTerm);
            };
            nodes += 1;
            let len = b.len() as u64;
            if len != 0 && len - 1 > chunk_minus_one {
                return Err(Error::BlobBadChunk);
            }
            if !(len != 0 && len - 1 == chunk_minus_one) {
                blob_chunk = None;
                depth -= 1;
                if depth == 0 {
                    return Ok((nodes, off));
                }
            }
            continue;
        }
        match a {
            Atom::Eoc => {
                depth = depth.checked_sub(1).ok_or(Error::UnexpectedEoc)?;
                if depth == 0 {
                    return Ok((nodes, off));
                }
                continue;
            }
            Atom::List | Atom::Map | Atom::Blob { .. } => {
                depth += 1;
                if max_depth != 0 && depth > max_depth {
                    return Err(Error::DeepRecursion);
                }
                nodes += 1;
                if let Atom::Blob {
                    chunk_len_minus_one,
                } = a
                {
                    nodes += 1;
                    blob_chunk = Some(chunk_len_minus_one);
                }
            }
            _ => nodes += 1,
        }
        if depth == 0 {
            return Ok((nodes, off));
        }
    }
}

#[test]
fn count_nodes_is_the_reference_count() {
    let mut rng = Rng::new(23);
    let mut failed = 0;
    for i in 0..6000 {
        let v = gen_value(&mut rng, 5, if i % 200 == 0 { 70_000 } else { 200 });
        let mut doc = encode(&v);
        if i % 3 != 0 {
            mutate(&mut rng, &mut doc);
        }
        for max_depth in [0, 1, 2, 3] {
            let want = count_nodes_reference(&doc, max_depth);
            failed += usize::from(want.is_err());
            assert_eq!(
                count_nodes(&doc, max_depth),
                want,
                "max_depth {max_depth} on {}",
                walk::hex_head(&doc)
            );
        }
    }
    assert!(failed > 3000, "mutations too mild: {failed} failures");
    // Key rules are not the counting pass's: a MAP with bad keys counts.
    let doc = bytes("09 C162 01 C161 01 01 00");
    assert_eq!(count_nodes(&doc, 0), Ok((6, doc.len())));
}

/// Every tag byte, with second bytes that make it short, long, minimal or
/// not, as a LIST item, a MAP key and a MAP value, far enough from the
/// end for the fast loops' 16-byte windows (whose dispatch is a table of
/// every tag byte): the validator agrees with the parser, and the
/// counting pass with the reference count built on the exact decoder.
#[test]
fn every_tag_byte_agrees_in_the_fast_loops() {
    let mut outcomes = std::collections::HashSet::new();
    for t in 0..=255u8 {
        for second in [0x00u8, 0x01, 0x80, 0x81, 0x88, 0x89, 0xC3, b'a'] {
            let mut atom = vec![t, second];
            // Then letters, or zeros (a non-minimal integer, NUL in a STR).
            for fill in [b'a', 0] {
                atom.truncate(2);
                atom.extend(std::iter::repeat_n(fill, 70));
                let wraps: [(&str, &str); 4] = [
                    ("08", "00"),
                    ("08 08", "00 01 00"),
                    ("09 C161", "00"),
                    ("09", "01 00"),
                ];
                for (pre, post) in wraps {
                    let mut doc = bytes(pre);
                    doc.extend_from_slice(&atom);
                    doc.extend(bytes(post));
                    doc.extend([0x01; 20]);
                    let r = same_all_ways(&doc);
                    let name = match r {
                        Ok(_) => "Ok".to_string(),
                        Err(e) => format!("{e:?}").split('(').next().unwrap().to_string(),
                    };
                    outcomes.insert(name);
                    assert_eq!(
                        count_nodes(&doc, 0),
                        count_nodes_reference(&doc, 0),
                        "{}",
                        walk::hex_head(&doc)
                    );
                }
            }
        }
    }
    for want in [
        "Ok",
        "UnknownType",
        "IntNonMinimal",
        "BadUtf8",
        "MapBadKey",
        "MapNoVal",
    ] {
        assert!(outcomes.contains(want), "no {want} in {outcomes:?}");
    }
}
